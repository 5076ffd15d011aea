//! Part 4 of the controller's rules: register reads (R11), presented the cycle after the request.
//! The addresses are distinct, so the read value is the OR of every register ANDed with its
//! address match (an AND-OR, not a chain of multiplexers).

use super::*;

impl hdl::Part<4> for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        // --- Register reads: the value at this cycle, presented next cycle (R11).
        self.val.next = self.zero32.val();
        if self.cfg_addr.val() == self.a_ctrl.val() {
            if self.en_q.q.val() {
                self.val.next = self.val.val() | self.b_en.val();
            }
            if self.loc_q.q.val() {
                self.val.next = self.val.val() | self.b_loc.val();
            }
            if self.yld_q.q.val() {
                self.val.next = self.val.val() | self.b_yld.val();
            }
        }
        if self.cfg_addr.val() == self.a_en.val() {
            self.val.next = self.val.val() | self.en_m.val();
        }
        if self.cfg_addr.val() == self.a_status.val() {
            if self.busy_l.val() {
                self.val.next = self.val.val() | self.b_busy.val();
            }
            if self.stall_l.val() {
                self.val.next = self.val.val() | self.b_stall.val();
            }
            if self.e_vdt.q.val() {
                self.val.next = self.val.val() | self.b_err[0].val();
            }
            if self.e_pt.q.val() {
                self.val.next = self.val.val() | self.b_err[1].val();
            }
            if self.e_mal.q.val() {
                self.val.next = self.val.val() | self.b_err[2].val();
            }
            if self.e_cred.q.val() {
                self.val.next = self.val.val() | self.b_err[3].val();
            }
            if self.e_rel.q.val() {
                self.val.next = self.val.val() | self.b_err[4].val();
            }
        }
        if self.cfg_addr.val() == self.a_stall.val() {
            self.val.next = self.val.val() | self.stall_cnt.q.val();
        }
        for k in 0..self.cp_lo.len() {
            if self.cfg_addr.val() == self.a_cp[k].val() {
                if self.cp_hi[k].q.val() {
                    self.val.next = self.val.val() | self.b_cp_hi[k].val();
                }
                if self.cp_lo[k].q.val() {
                    self.val.next = self.val.val() | self.b_cp_lo[k].val();
                }
            }
        }
        for k in 0..self.occ_q.len() {
            if self.cfg_addr.val() == self.a_ded[k].val() {
                self.val.next = self.val.val() | self.ded_m[k].val();
            }
        }
        for e in 0..self.ar_ready.len() {
            if self.cfg_addr.val() == self.a_rej[e].val() {
                self.val.next = self.val.val() | self.rej_cnt[e].q.val();
            }
        }
        for i in 0..self.rd_ext.len() {
            self.val.next = self.val.val() | self.rd_ext[i].val();
        }
        self.rvalid_q.d.next = self.cfg_valid.val() & !self.cfg_we.val() & !self.reset.val();
        self.rdata_q.d.next = self.zero32.val();
        if self.cfg_valid.val() & !self.cfg_we.val() & !self.reset.val() {
            self.rdata_q.d.next = self.val.val();
        }
        self.cfg_rvalid.next = self.rvalid_q.q.val();
        // (`cfg_rdata`: part 7, with the counters in block RAM.)
    }
}
