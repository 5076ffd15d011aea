//! Part 2 of the core's rules: protocol errors of the events, and R12's response register.

use super::*;

impl<const L: usize> hdl::Part<2> for ThreadMergeCore<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Protocol errors of the events (ids naming nothing, illegal states).
        self.perr.next = (self.term_valid.val() & !self.t_any.val())
            | (self.disc_valid.val() & !self.d_any.val())
            | (self.me_valid.val() & !self.m_any.val() & self.rsp_free.val());
        for s in 0..self.sa_q.len() {
            self.perr.next = self.perr.val()
                | self.enow[s].val()
                | (self.dda[s].val() & !self.lanow[s].val())
                | (self.ddb[s].val() & !self.lbnow[s].val());
        }

        // ---- R12: the response register. A merge-event response first (at most one
        // slot answers; a merge answers for A = me_tgid with bit 0 cleared), else the
        // owed resume of the lowest tgid, owed after R8-R11, whose bit clears. Without
        // a me response the owe bits do not depend on the me (gowa/gowb).
        self.me_rsp.next = false;
        self.me_mrg.next = false;
        for s in 0..self.sa_q.len() {
            self.me_rsp.next = self.me_rsp.val() | self.raself[s].val() | self.rbself[s].val();
            self.me_mrg.next = self.me_mrg.val() | self.mnow[s].val();
        }
        self.merge_ev.next = self.me_mrg.val();
        // Lowest owed tgid: a prefix OR over the slots (balanced by synthesis).
        self.o_any.next = false;
        for s in 0..self.sa_q.len() {
            self.lowa[s].next = false;
            for s2 in 0..self.sa_q.len() {
                self.lowa[s].next = self.lowa[s].val() | (self.lt[s][s2].val() & (self.gowa[s2].val() | self.gowb[s2].val()));
            }
            self.gra[s].next = self.gowa[s].val() & !self.lowa[s].val();
            self.grb[s].next = self.gowb[s].val() & !self.lowa[s].val() & !self.gowa[s].val();
            self.o_any.next = self.o_any.val() | self.gowa[s].val() | self.gowb[s].val();
        }
        // The response register holds what is needed to name the response (the me's
        // id and merge flag, or the owed group one-hot, and which of the two); the
        // owe bit of a granted group is cleared through the grant registers (st_owe
        // and the next edge read owe & !granted), so neither the grant nor the mask
        // selection sits in front of a flop. rsp_active is the target's active
        // register in the cycle after the load (it holds the mask after R8-R10) and a
        // copy of it afterwards (rhold).
        for s in 0..self.sa_q.len() {
            self.owea[s].next = self.gowa[s].val() & !self.clra[s].val() & !self.mgb[s].val();
            self.oweb[s].next = self.gowb[s].val() & !self.clrb[s].val() & !self.mga[s].val();
            self.gva_q[s].clock.next = self.clock.val();
            self.gvb_q[s].clock.next = self.clock.val();
            self.gva_q[s].d.next = self.gva_q[s].q.val();
            self.gvb_q[s].d.next = self.gvb_q[s].q.val();
            if self.rsp_free.val() {
                self.gva_q[s].d.next = self.gra[s].val();
                self.gvb_q[s].d.next = self.grb[s].val();
            }
        }
        for k in 0..self.w_tgid.len() {
            self.rtgid_q[k].clock.next = self.clock.val();
            self.rtgid_q[k].d.next = self.rtgid_q[k].q.val();
            if self.rsp_free.val() {
                self.rtgid_q[k].d.next = (self.me_tgid.val() & self.w_tgid[k].val()).any();
            }
        }
        self.fresh_q.d.next = self.rsp_free.val() & !self.reset.val();
        if self.rsp_free.val() {
            self.rv_q.d.next = self.me_rsp.val() | self.o_any.val();
            self.rsel_q.d.next = self.me_rsp.val();
            self.rmerged_q.d.next = self.me_mrg.val();
        }
    }
}
