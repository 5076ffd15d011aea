//! Part 3 of the controller's rules: sticky errors, statistics counters and EU availability, and
//! the register writes (CTRL, EU_ENABLE, DED_MASK).

use super::*;

impl hdl::Part<3> for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        // --- Errors (sticky; STATUS bits written 1 clear them unless set at the same edge).
        self.e_vdt.d.next = self.e_vdt.q.val();
        self.e_pt.d.next = self.e_pt.q.val();
        self.e_mal.d.next = self.e_mal.q.val();
        self.e_cred.d.next = self.e_cred.q.val();
        self.e_rel.d.next = self.e_rel.q.val();
        if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_status.val()) {
            if self.cfg_wdata[2].val() {
                self.e_vdt.d.next = false;
            }
            if self.cfg_wdata[3].val() {
                self.e_pt.d.next = false;
            }
            if self.cfg_wdata[4].val() {
                self.e_mal.d.next = false;
            }
            if self.cfg_wdata[5].val() {
                self.e_cred.d.next = false;
            }
            if self.cfg_wdata[6].val() {
                self.e_rel.d.next = false;
            }
        }
        // G2 (perf_counters): err_clr clears every flag; a flag set at this edge (below) wins.
        for i in 0..self.err_clr.len() {
            if self.err_clr[i].val() {
                self.e_vdt.d.next = false;
                self.e_pt.d.next = false;
                self.e_mal.d.next = false;
                self.e_cred.d.next = false;
                self.e_rel.d.next = false;
            }
        }
        for i in 0..self.tidx_q.len() {
            // An indexed triangle dispatched with an invalid reference.
            if self.a_tri.val() & self.tidx_q[i].q.val()
                & !(self.ar_ref_valid[0].val() & self.ar_ref_valid[1].val() & self.ar_ref_valid[2].val())
            {
                self.e_vdt.d.next = true;
            }
        }
        for _i in 0..self.pix_hit.len() {
            if self.a_pix.val() & !self.ar_ref_valid[0].val() {
                self.e_pt.d.next = true;
            }
        }
        if self.mal_set.val() {
            self.e_mal.d.next = true;
        }
        if self.credit_err[0].val() | self.credit_err[1].val() {
            self.e_cred.d.next = true;
        }
        for i in 0..self.release_err.len() {
            if self.release_err[i].val() {
                self.e_rel.d.next = true;
            }
        }
        if self.reset.val() {
            self.e_vdt.d.next = false;
            self.e_pt.d.next = false;
            self.e_mal.d.next = false;
            self.e_cred.d.next = false;
            self.e_rel.d.next = false;
        }
        self.err_vdt_miss.next = self.e_vdt.q.val();
        self.err_pt_miss.next = self.e_pt.q.val();
        self.err_malformed.next = self.e_mal.q.val();
        self.err_credit.next = self.e_cred.q.val();
        self.err_release.next = self.e_rel.q.val();

        // --- Counters (wrap; NACK_CNT and ALLOC_CNT are in block RAM, part 7), EU availability.
        self.stall_cnt.d.next = self.stall_cnt.q.val();
        if self.stall_l.val() {
            self.stall_cnt.d.next = self.stall_cnt.q.val() + self.one32.val();
        }
        self.avail.next = self.zero8.val();
        self.avm.next = self.en_m.val() & self.nz_m.val();
        for e in 0..self.ar_ready.len() {
            self.rej_cnt[e].d.next = self.rej_cnt[e].q.val();
            if (self.rej_p.val() & self.w32[e].val()).any() & !self.sticky_q.q.val() {
                self.rej_cnt[e].d.next = self.rej_cnt[e].q.val() + self.one32.val();
            }
            if self.reset.val() {
                self.rej_cnt[e].d.next = self.zero32.val();
            }
            if (self.avm.val() & self.w32[e].val()).any() {
                self.avail.next = self.avail.val() + self.one8.val();
            }
        }
        if self.reset.val() {
            self.stall_cnt.d.next = self.zero32.val();
        }
        for b in 0..self.eu_avail_cnt.len() {
            self.eu_avail_cnt[b].next = (self.avail.val() & self.w8[b].val()).any();
        }

        // --- Register writes: CTRL, EU_ENABLE, DED_MASK, CLASS_PRIO.
        self.en_q.d.next = self.en_q.q.val();
        self.loc_q.d.next = self.loc_q.q.val();
        self.yld_q.d.next = self.yld_q.q.val();
        if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_ctrl.val()) {
            self.en_q.d.next = self.cfg_wdata[0].val();
            self.loc_q.d.next = self.cfg_wdata[1].val();
            self.yld_q.d.next = self.cfg_wdata[2].val();
        }
        if self.reset.val() {
            self.en_q.d.next = self.en_r.val();
            self.loc_q.d.next = self.loc_r.val();
            self.yld_q.d.next = self.yld_r.val();
        }
        // CLASS_PRIO (R7b, `class_priority_reg`): slot k's two bits.
        for k in 0..self.cp_lo.len() {
            self.cp_hi[k].clock.next = self.clock.val();
            self.cp_lo[k].clock.next = self.clock.val();
            self.cp_hi[k].d.next = self.cp_hi[k].q.val();
            self.cp_lo[k].d.next = self.cp_lo[k].q.val();
            if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_cp[k].val()) {
                self.cp_hi[k].d.next = self.cp_wd_hi[k].val();
                self.cp_lo[k].d.next = self.cp_wd_lo[k].val();
            }
            if self.reset.val() {
                self.cp_hi[k].d.next = self.cp_r_hi[k].val();
                self.cp_lo[k].d.next = self.cp_r_lo[k].val();
            }
        }
        for e in 0..self.ar_ready.len() {
            self.eu_en_q[e].d.next = self.eu_en_q[e].q.val();
            if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_en.val()) {
                self.eu_en_q[e].d.next = self.cfg_wdata[e].val();
            }
            if self.reset.val() {
                self.eu_en_q[e].d.next = self.eu_en_r[e].val();
            }
            for k in 0..self.occ_q.len() {
                self.ded_q[k][e].d.next = self.ded_q[k][e].q.val();
                if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_ded[k].val()) {
                    self.ded_q[k][e].d.next = self.cfg_wdata[e].val();
                }
                if self.reset.val() {
                    self.ded_q[k][e].d.next = self.ded_r[k][e].val();
                }
            }
        }
    }
}
