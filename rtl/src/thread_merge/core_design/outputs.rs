//! Part 5 of the core's rules: the outputs of the registered state, the response's group, and
//! R13's register-file lookup.

use super::*;

impl<const L: usize> hdl::Part<5> for ThreadMergeCore<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Outputs of the registered state.
        self.pend_valid.next = self.pv_q.q.val();
        self.merge_count.next = self.mcount.val();
        self.err_proto.next = self.eproto_q.q.val() | self.epend_q.q.val();
        self.err_xlane.next = self.exl_q.q.val();
        for k in 0..self.fc.len() {
            self.free_cnt[k].next = self.fc[k].val();
        }
        for s in 0..self.sa_q.len() {
            self.st_state_a[s].next = self.sa_q[s].q.val();
            self.st_state_b[s].next = self.sb_q[s].q.val();
            self.st_active_a[s].next = self.acta_q[s].q.val();
            self.st_active_b[s].next = self.actb_q[s].q.val();
            self.st_paired[s].next = self.paired_q[s].q.val();
            self.st_broken[s].next = self.broken_q[s].q.val();
            self.st_merged[s].next = self.merged_q[s].q.val();
            self.st_owe_a[s].next = self.oea[s].val();
            self.st_owe_b[s].next = self.oeb[s].val();
        }
        self.grp_valid.next = self.gv_q.q.val();
        self.grp_paired.next = self.gpaired_q.q.val();
        self.grp_a_cov.next = self.gacov_q.q.val();
        self.grp_b_cov.next = self.gbcov_q.q.val();
        self.grp_b_perm.next = self.gperm_q.q.val();
        self.grp_a_tgid[0].next = false;
        self.grp_b_tgid[0].next = true;
        for k in 0..self.gslot_q.len() {
            self.grp_a_tgid[k + 1].next = self.gslot_q[k].q.val();
            self.grp_b_tgid[k + 1].next = self.gslot_q[k].q.val();
        }
        for b in 0..self.atag.len() {
            self.grp_a_tag[b].next = self.gatag_q[b].q.val();
            self.grp_b_tag[b].next = self.gbtag_q[b].q.val();
        }
        self.rsp_valid.next = self.rv_q.q.val();
        self.rsp_merged.next = self.rmerged_q.q.val();
        self.rsp_retire.next = self.rmerged_q.q.val();
        // The response's group: the me's (A for a merge) or the owed one-hot.
        self.rcme.next = self.zero8.val();
        for k in 0..self.w_tgid.len() {
            if self.rtgid_q[k].q.val() {
                self.rcme.next = self.rcme.val() | self.w_tgid[k].val();
            }
        }
        if self.rmerged_q.q.val() {
            self.rcme.next = self.rcme.val() & !self.one8.val();
        }
        self.rcow.next = self.zero8.val();
        self.ract_now.next = self.lzero.val();
        for s in 0..self.sa_q.len() {
            if self.gva_q[s].q.val() {
                self.rcow.next = self.rcow.val() | self.ida[s].val();
            }
            if self.gvb_q[s].q.val() {
                self.rcow.next = self.rcow.val() | self.idb[s].val();
            }
            self.tga[s].next = self.lzero.val();
            self.tgb[s].next = self.lzero.val();
            if (self.rsel_q.q.val() & (self.rcme.val() == self.ida[s].val())) | (!self.rsel_q.q.val() & self.gva_q[s].q.val()) {
                self.tga[s].next = self.lones.val();
            }
            if (self.rsel_q.q.val() & (self.rcme.val() == self.idb[s].val())) | (!self.rsel_q.q.val() & self.gvb_q[s].q.val()) {
                self.tgb[s].next = self.lones.val();
            }
            self.ract_now.next = self.ract_now.val() | (self.tga[s].val() & self.acta_q[s].q.val()) | (self.tgb[s].val() & self.actb_q[s].q.val());
        }
        if !self.fresh_q.q.val() {
            self.ract_now.next = self.ract_q.q.val();
        }
        self.ract_q.d.next = self.ract_now.val();
        self.rsp_active.next = self.ract_now.val();
        self.rcur.next = self.rcow.val();
        if self.rsel_q.q.val() {
            self.rcur.next = self.rcme.val();
        }
        for k in 0..self.w_tgid.len() {
            self.rsp_tgid[k].next = (self.rcur.val() & self.w_tgid[k].val()).any();
        }
        self.rnext_id.next = self.rcur.val() + self.one8.val();
        for k in 0..self.w_tgid.len() {
            self.rsp_retire_tgid[k].next = (self.rnext_id.val() & self.w_tgid[k].val()).any();
        }

        // ---- R13: register-file lookup (registered state only; 0 for FREE / no group):
        // a flat AND-OR over the groups (one matches), PRE/WAIT execute every lane.
        self.rf_common_wmask.next = self.lzero.val();
        self.rf_exec_mask.next = self.lzero.val();
        self.rf_perm.next = self.p0.val();
        self.rf_post.next = false;
        for s in 0..self.sa_q.len() {
            self.rfa[s].next = self.lzero.val();
            self.rfb[s].next = self.lzero.val();
            self.rfxa[s].next = self.lones.val();
            self.rfxb[s].next = self.lones.val();
            self.rfpb[s].next = self.p0.val();
            if (self.rf_tgid.val() == self.ida[s].val()) & !self.af[s].val() {
                self.rfa[s].next = self.lones.val();
            }
            if (self.rf_tgid.val() == self.idb[s].val()) & !self.bf[s].val() {
                self.rfb[s].next = self.lones.val();
                self.rfpb[s].next = self.p3.val();
            }
            if self.ao[s].val() {
                self.rfxa[s].next = self.acta_q[s].q.val();
            }
            if self.bo[s].val() {
                self.rfxb[s].next = self.actb_q[s].q.val();
            }
            self.rf_common_wmask.next = self.rf_common_wmask.val()
                | (self.rfa[s].val() & self.acta_q[s].q.val())
                | (self.rfb[s].val() & self.actb_q[s].q.val());
            self.rf_exec_mask.next = self.rf_exec_mask.val() | (self.rfa[s].val() & self.rfxa[s].val()) | (self.rfb[s].val() & self.rfxb[s].val());
            self.rf_perm.next = self.rf_perm.val() | (self.rfpb[s].val() & self.perm_q[s].q.val());
            self.rf_post.next = self.rf_post.val()
                | ((self.rf_tgid.val() == self.ida[s].val()) & self.ao[s].val())
                | ((self.rf_tgid.val() == self.idb[s].val()) & self.bo[s].val());
        }
    }
}
