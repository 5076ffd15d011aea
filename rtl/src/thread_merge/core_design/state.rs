//! Part 0 of the core's rules: registers hold by default, the registered state S0, and the slot an
//! emission takes (R7).

use super::*;

impl<const L: usize> hdl::Part<0> for ThreadMergeCore<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Registers hold by default; the registered state S0.
        dff_setup!(self, clock, pv_q, pcov_q, plast_q, gv_q, gpaired_q, gacov_q, gbcov_q, gperm_q, rv_q, rmerged_q, ract_q, fresh_q, rsel_q, mcount_q, mpend_q, eproto_q, epend_q, exl_q);
        self.any_free.next = false;
        for s in 0..self.sa_q.len() {
            self.sa_q[s].clock.next = self.clock.val();
            self.sb_q[s].clock.next = self.clock.val();
            self.acta_q[s].clock.next = self.clock.val();
            self.actb_q[s].clock.next = self.clock.val();
            self.owea_q[s].clock.next = self.clock.val();
            self.oweb_q[s].clock.next = self.clock.val();
            self.paired_q[s].clock.next = self.clock.val();
            self.broken_q[s].clock.next = self.clock.val();
            self.merged_q[s].clock.next = self.clock.val();
            self.perm_q[s].clock.next = self.clock.val();
            self.paired_q[s].d.next = self.paired_q[s].q.val();
            self.perm_q[s].d.next = self.perm_q[s].q.val();
            // A slot is free when both members are FREE (D2).
            self.free0[s].next =
                (self.sa_q[s].q.val() == self.s_free.val()) & (self.sb_q[s].q.val() == self.s_free.val());
            self.any_free.next = self.any_free.val() | self.free0[s].val();
            // Effective owe bits: a group granted an owed resume at the last edge
            // (fresh, not a me response) has its bit cleared (R12).
            self.oea[s].next = self.owea_q[s].q.val()
                & !(self.gva_q[s].q.val() & self.fresh_q.q.val() & !self.rsel_q.q.val());
            self.oeb[s].next = self.oweb_q[s].q.val()
                & !(self.gvb_q[s].q.val() & self.fresh_q.q.val() & !self.rsel_q.q.val());
            // The wait counter, packed.
            self.wcnt[s].next = self.zero8.val();
            for k in 0..self.w_wait.len() {
                self.wait_q[s][k].clock.next = self.clock.val();
                if self.wait_q[s][k].q.val() {
                    self.wcnt[s].next = self.wcnt[s].val() | self.w_wait[k].val();
                }
            }
            for b in 0..self.atag.len() {
                self.taga_q[s][b].clock.next = self.clock.val();
                self.tagb_q[s][b].clock.next = self.clock.val();
                self.taga_q[s][b].d.next = self.taga_q[s][b].q.val();
                self.tagb_q[s][b].d.next = self.tagb_q[s][b].q.val();
            }
        }
        // An emission takes the lowest slot free in S0 (R7): a prefix OR, not a
        // chain over the slots. free_cnt: the free slots counted bitwise (no carry chain).
        for k in 0..self.fc.len() {
            self.fc[k].next = false;
        }
        for s in 0..self.sa_q.len() {
            self.flow[s].next = false;
            for s2 in 0..self.sa_q.len() {
                self.flow[s].next = self.flow[s].val() | (self.lt[s][s2].val() & self.free0[s2].val());
            }
            self.alloc_here[s].next = self.free0[s].val() & !self.flow[s].val();
            self.fcar.next = self.free0[s].val();
            for k in 0..self.fc.len() {
                self.fcar_n.next = self.fcar.val() & self.fc[k].val();
                self.fc[k].next = self.fc[k].val() ^ self.fcar.val();
                self.fcar.next = self.fcar_n.val();
            }
        }
    }
}
