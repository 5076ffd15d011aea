//! Part 1 of the core's rules: per slot the events term (R8), disc (R9), merge event (R10) and
//! timeouts (R11) as flat formulas, and R14's cross-lane check.

use super::*;

impl<const L: usize> hdl::Part<1> for ThreadMergeCore<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Events: term (R8), disc (R9), me (R10), timeouts (R11).
        // Per slot, R8-R11 in order are written out as flat formulas of the slot's
        // registers and this cycle's decoded events (at most one term, one me and one
        // disc per cycle): no case tables, no select chains. An accepted me is decoded
        // with rsp_free folded in.
        self.rsp_free.next = !self.rv_q.q.val() | self.rsp_ready.val();
        self.me_ready.next = self.rsp_free.val();
        self.me_acc.next = self.me_valid.val() & self.rsp_free.val();
        self.t_any.next = false;
        self.m_any.next = false;
        self.d_any.next = false;
        for s in 0..self.sa_q.len() {
            self.dta[s].next = self.term_valid.val() & (self.term_tgid.val() == self.ida[s].val());
            self.dtb[s].next = self.term_valid.val() & (self.term_tgid.val() == self.idb[s].val());
            self.dma[s].next = self.me_acc.val() & (self.me_tgid.val() == self.ida[s].val());
            self.dmb[s].next = self.me_acc.val() & (self.me_tgid.val() == self.idb[s].val());
            self.dda[s].next = self.disc_valid.val() & (self.disc_tgid.val() == self.ida[s].val());
            self.ddb[s].next = self.disc_valid.val() & (self.disc_tgid.val() == self.idb[s].val());
            self.t_any.next = self.t_any.val() | self.dta[s].val() | self.dtb[s].val();
            self.m_any.next = self.m_any.val() | self.dma[s].val() | self.dmb[s].val();
            self.d_any.next = self.d_any.val() | self.dda[s].val() | self.ddb[s].val();
            self.wlast[s].next = self.to_on.val() & (self.wcnt[s].val() == self.to_last.val());
            self.af[s].next = self.sa_q[s].q.val() == self.s_free.val();
            self.ap[s].next = self.sa_q[s].q.val() == self.s_pre.val();
            self.aw[s].next = self.sa_q[s].q.val() == self.s_wait.val();
            self.ao[s].next = self.sa_q[s].q.val() == self.s_post.val();
            self.bf[s].next = self.sb_q[s].q.val() == self.s_free.val();
            self.bp[s].next = self.sb_q[s].q.val() == self.s_pre.val();
            self.bw[s].next = self.sb_q[s].q.val() == self.s_wait.val();
            self.bo[s].next = self.sb_q[s].q.val() == self.s_post.val();
            self.a_live[s].next = self.ap[s].val() | self.ao[s].val();
            self.b_live[s].next = self.bp[s].val() | self.bo[s].val();
            // R8: a live member's term frees it; a member's term of an unmerged pair
            // breaks it and turns a waiting partner POST (owed).
            self.tae[s].next = self.dta[s].val() & self.a_live[s].val();
            self.tbe[s].next = self.dtb[s].val() & self.b_live[s].val();
            self.umg[s].next = self.paired_q[s].q.val() & !self.merged_q[s].q.val();
            self.cva[s].next = self.tbe[s].val() & self.umg[s].val() & self.aw[s].val();
            self.cvb[s].next = self.tae[s].val() & self.umg[s].val() & self.bw[s].val();
            // R10: an accepted me of a PRE member of an unbroken pair merges (partner
            // WAIT) or parks (partner not WAIT and not terminated now); else it runs
            // alone (POST). A me of a POST member (also one made POST by R8) is a NOP.
            self.okp[s].next = self.paired_q[s].q.val() & !self.broken_q[s].q.val();
            self.mga[s].next = self.dma[s].val() & !self.dta[s].val() & self.ap[s].val() & self.okp[s].val() & self.bw[s].val();
            self.mgb[s].next = self.dmb[s].val() & !self.dtb[s].val() & self.bp[s].val() & self.okp[s].val() & self.aw[s].val();
            self.pka[s].next = self.dma[s].val()
                & !self.dta[s].val()
                & self.ap[s].val()
                & self.okp[s].val()
                & !self.bw[s].val()
                & !self.tbe[s].val();
            self.pkb[s].next = self.dmb[s].val()
                & !self.dtb[s].val()
                & self.bp[s].val()
                & self.okp[s].val()
                & !self.aw[s].val()
                & !self.tae[s].val();
            // The member answered by its own me (merge included).
            self.raself[s].next = self.dma[s].val()
                & !self.dta[s].val()
                & (self.ao[s].val() | self.cva[s].val() | (self.ap[s].val() & !self.pka[s].val()));
            self.rbself[s].next = self.dmb[s].val()
                & !self.dtb[s].val()
                & (self.bo[s].val() | self.cvb[s].val() | (self.bp[s].val() & !self.pkb[s].val()));
            self.clra[s].next = self.dma[s].val() & !self.dta[s].val() & (self.a_live[s].val() | self.cva[s].val());
            self.clrb[s].next = self.dmb[s].val() & !self.dtb[s].val() & (self.b_live[s].val() | self.cvb[s].val());
            self.mnow[s].next = self.mga[s].val() | self.mgb[s].val();
            self.enow[s].next = (self.dta[s].val() & !self.a_live[s].val())
                | (self.dtb[s].val() & !self.b_live[s].val())
                | (self.dma[s].val() & (self.dta[s].val() | self.af[s].val() | (self.aw[s].val() & !self.cva[s].val())))
                | (self.dmb[s].val() & (self.dtb[s].val() | self.bf[s].val() | (self.bw[s].val() & !self.cvb[s].val())));
            // R8-R11 state (FREE 00, PRE 01, WAIT 10, POST 11), bit by bit. R11: a
            // member WAIT in S0 and still WAIT at its last wait cycle times out (POST).
            self.sa_hi[s].next = !self.tae[s].val()
                & (self.ao[s].val() | self.aw[s].val() | (self.ap[s].val() & self.dma[s].val()));
            self.sa_lo[s].next = !self.tae[s].val()
                & (self.ao[s].val()
                    | (self.ap[s].val() & !self.pka[s].val())
                    | (self.aw[s].val() & (self.cva[s].val() | self.mgb[s].val() | self.wlast[s].val())));
            self.sb_hi[s].next = !self.tbe[s].val()
                & (self.bo[s].val()
                    | (self.bw[s].val() & !self.mga[s].val())
                    | (self.bp[s].val() & self.dmb[s].val() & !self.mgb[s].val()));
            self.sb_lo[s].next = !self.tbe[s].val()
                & (self.bo[s].val()
                    | (self.bw[s].val() & !self.mga[s].val() & (self.cvb[s].val() | self.wlast[s].val()))
                    | (self.bp[s].val() & !self.pkb[s].val() & !self.mgb[s].val()));
            self.sa[s].next = self.s_free.val();
            if self.sa_hi[s].val() {
                self.sa[s].next = self.s_wait.val();
            }
            if self.sa_lo[s].val() {
                self.sa[s].next = self.sa[s].val() | self.s_pre.val();
            }
            self.sb[s].next = self.s_free.val();
            if self.sb_hi[s].val() {
                self.sb[s].next = self.s_wait.val();
            }
            if self.sb_lo[s].val() {
                self.sb[s].next = self.sb[s].val() | self.s_pre.val();
            }
            self.brk[s].next = self.broken_q[s].q.val()
                | (self.tae[s].val() & self.umg[s].val() & !self.bf[s].val())
                | (self.tbe[s].val() & self.umg[s].val() & !self.af[s].val())
                | (self.aw[s].val() & self.wlast[s].val() & !self.mgb[s].val())
                | (self.bw[s].val() & self.wlast[s].val() & !self.mga[s].val());
            self.mrg[s].next = self.merged_q[s].q.val() | self.mga[s].val() | self.mgb[s].val();
            // Owe bits after R8-R11 without the me (R12's owed resumes): a term frees
            // (clears), a conversion or a timeout owes.
            // (An owed member is POST: its own term, then live, clears it.)
            self.gowa[s].next = (self.oea[s].val() & !self.dta[s].val())
                | (self.aw[s].val() & self.wlast[s].val())
                | self.cva[s].val();
            self.gowb[s].next = (self.oeb[s].val() & !self.dtb[s].val())
                | (self.bw[s].val() & self.wlast[s].val())
                | self.cvb[s].val();
            // Live after R8 (R9's disc applies).
            self.lanow[s].next = (self.a_live[s].val() & !self.dta[s].val()) | self.cva[s].val();
            self.lbnow[s].next = (self.b_live[s].val() & !self.dtb[s].val()) | self.cvb[s].val();
            // R9 disc: masks after this edge's disc (member live after R8).
            self.acta[s].next = self.acta_q[s].q.val();
            self.actb[s].next = self.actb_q[s].q.val();
            if self.dda[s].val() {
                if self.lanow[s].val() {
                    self.acta[s].next = self.acta_q[s].q.val() & !self.disc_mask.val();
                }
            }
            if self.ddb[s].val() {
                if self.lbnow[s].val() {
                    self.actb[s].next = self.actb_q[s].q.val() & !self.disc_mask.val();
                }
            }
            // A merge: A gets the OR (B's mask stays frozen in the slot, D3).
            if self.mnow[s].val() {
                self.acta[s].next = self.acta[s].val() | self.actb[s].val();
            }
        }
        // ---- R14: a cross-lane operation of a group past the merge point (S0).
        self.xl_hit.next = false;
        for s in 0..self.sa_q.len() {
            if self.xl_valid.val() & (self.xl_tgid.val() == self.ida[s].val()) & (self.sa_q[s].q.val() == self.s_post.val()) {
                self.xl_hit.next = true;
            }
            if self.xl_valid.val() & (self.xl_tgid.val() == self.idb[s].val()) & (self.sb_q[s].q.val() == self.s_post.val()) {
                self.xl_hit.next = true;
            }
        }
    }
}
