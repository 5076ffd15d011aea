//! Part 6 of the core's rules: R13's write-back lookup and its lane remap.

use super::*;

impl<const L: usize> hdl::Part<6> for ThreadMergeCore<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- R13: write-back lookup. A merged A reads B's record frozen in the slot (D3).
        self.wb_valid.next = false;
        self.wb_active.next = self.lzero.val();
        self.wb_lane_src.next = self.lzero.val();
        self.wb_perm_own.next = self.p0.val();
        self.wb_perm_partner.next = self.p0.val();
        for s in 0..self.sa_q.len() {
            self.wsa[s].next = (self.wb_tgid.val() == self.ida[s].val()) & (self.sa_q[s].q.val() != self.s_free.val());
            self.wsb[s].next = (self.wb_tgid.val() == self.idb[s].val()) & (self.sb_q[s].q.val() != self.s_free.val());
            self.wpa[s].next = self.wsa[s].val() & self.merged_q[s].q.val();
            if self.wsa[s].val() {
                self.wb_valid.next = true;
                self.wb_active.next = self.wb_active.val() | self.acta_q[s].q.val();
            }
            if self.wpa[s].val() {
                self.wb_lane_src.next = self.wb_lane_src.val() | self.actb_q[s].q.val();
                self.wb_perm_partner.next = self.wb_perm_partner.val() | self.perm_q[s].q.val();
            }
            if self.wsb[s].val() {
                self.wb_valid.next = true;
                self.wb_active.next = self.wb_active.val() | self.actb_q[s].q.val();
                self.wb_perm_own.next = self.wb_perm_own.val() | self.perm_q[s].q.val();
            }
        }
        for b in 0..self.atag.len() {
            self.wb_tag_self[b].next = false;
            self.wb_tag_partner[b].next = false;
            for s in 0..self.sa_q.len() {
                if (self.wsa[s].val() & self.taga_q[s][b].q.val()) | (self.wsb[s].val() & self.tagb_q[s][b].q.val()) {
                    self.wb_tag_self[b].next = true;
                }
                if self.wpa[s].val() & self.tagb_q[s][b].q.val() {
                    self.wb_tag_partner[b].next = true;
                }
            }
        }
        // Lane i came from (quad i>>2, in-quad (i&3) ^ p), p the remap of its fragment.
        // (written as an AND-OR over the slots: B's perm for a selected B, or for a
        // lane of a merged A that came from B).
        for s in 0..self.sa_q.len() {
            self.wpa2[s].next = self.p0.val();
            self.wsb2[s].next = self.p0.val();
            if self.wpa[s].val() {
                self.wpa2[s].next = self.perm_q[s].q.val();
            }
            if self.wsb[s].val() {
                self.wsb2[s].next = self.perm_q[s].q.val();
            }
        }
        for i in 0..self.inq.len() {
            self.wxp[i].next = self.p0.val();
            for s in 0..self.sa_q.len() {
                self.wxp[i].next = self.wxp[i].val() | self.wsb2[s].val();
                if self.actb_q[s].q.val().get_bit(i) {
                    self.wxp[i].next = self.wxp[i].val() | self.wpa2[s].val();
                }
            }
            self.winq[i].next = self.p0.val();
            if self.wb_valid.val() {
                self.winq[i].next = self.inq[i].val();
            }
            self.wb_orig_lo[i].next = self.winq[i].val() ^ self.wxp[i].val();
            for k in 0..self.wb_orig_hi[0].len() {
                self.wb_orig_hi[i][k].next = self.wb_valid.val() & self.qbit[i][k].val();
            }
        }
    }
}
