//! Part 1 of the controller's rules: every slot's evaluation (R4-R6), the grant (R7) and the
//! EU's answer (R8).

use super::*;

impl hdl::Part<1> for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        // --- Evaluation of every slot (R4-R6): first candidate that fits and has not refused
        // (least_loaded / round_robin: the home, else of the PRIO candidates the one(s) `pick`
        // returns: the most FREE_RES / the first in EU order from RR_PTR).
        for k in 0..self.occ_q.len() {
            self.blk.next = (self.is_vtx[k].val() & self.vtx_blk.val())
                | (self.is_patch[k].val() & self.patch_blk.val())
                | (self.is_tri[k].val() & self.tri_blk.val());
            // R14: a pixel while the reorder buffer is full (an empty loop without `pixel_reorder`).
            for i in 0..self.pix_blocked.len() {
                self.blk.next = self.blk.val() | (self.is_pix[k].val() & self.pix_blocked[i].val());
            }
            self.hh.next = (self.is_tri[k].val() & self.tri_hh.val()) | (self.is_pix[k].val() & self.pix_hit_l.val());
            if self.is_tri[k].val() {
                self.home.next = self.tri_home_l.val();
            } else {
                self.home.next = self.pix_home_l.val();
            }
            self.cand.next = self.en_m.val() & self.ded_m[k].val();
            self.ok.next = self.cand.val() & self.fit_m[k].val() & !self.rfm_m[k].val();
            // least_loaded / round_robin: `pick` gets the slot's ok EUs and returns those listed
            // in PRIO with the most FREE_RES / the first from RR_PTR (empty loop with first fit).
            // (`ll_ok` is written from per-slot masks no statement rewrites after `ll_tie` is
            // read, not from the reused `ok`/`cand`: no variable lies on a loop through `pick`.)
            for j in 0..self.ll_on.len() {
                self.ll_m[k].next = self.zero32.val();
                for e in 0..self.ar_ready.len() {
                    self.ll_ok[k][e].next = self.ll_on[j].val()
                        & self.en_m.val().get_bit(e)
                        & self.ded_m[k].val().get_bit(e)
                        & self.fit_m[k].val().get_bit(e)
                        & !self.rfm_m[k].val().get_bit(e);
                    if self.ll_tie[k][e].val() {
                        self.ll_m[k].next = self.ll_m[k].val() | self.w32[e].val();
                    }
                }
            }
            self.found[k].next = false;
            self.selm[k].next = self.zero32.val();
            self.rejm[k].next = self.zero32.val();
            // Candidate 0: the home EU (locality), if enabled and dedicated.
            if self.loc_q.q.val() & self.hh.val() {
                self.oh.next = self.one32.val() << self.home.val();
                if (self.oh.val() & self.cand.val()).any() {
                    if (self.oh.val() & self.ok.val()).any() {
                        self.selm[k].next = self.oh.val();
                        self.found[k].next = true;
                    } else if (self.oh.val() & !self.fit_m[k].val()).any() {
                        self.rejm[k].next = self.oh.val();
                    }
                }
            }
            // After the home, the first in PRIO order of the EUs `pick` returned (round_robin:
            // one, so the loop below only finds its place and counts REJECT_CNT before it).
            for _j in 0..self.ll_on.len() {
                self.ok.next = self.ll_m[k].val();
            }
            // Then PRIO[type][0..]: an empty slot (>= eus) selects no enabled, dedicated EU.
            for s in 0..self.ar_ready.len() {
                self.oh.next = self.one32.val() << self.prio[k][s].val();
                if !self.found[k].val() & (self.oh.val() & self.cand.val()).any() {
                    if (self.oh.val() & self.ok.val()).any() {
                        self.selm[k].next = self.oh.val();
                        self.found[k].next = true;
                    } else if (self.oh.val() & !self.fit_m[k].val()).any() {
                        self.rejm[k].next = self.rejm[k].val() | self.oh.val();
                    }
                }
            }
            if self.blk.val() {
                self.found[k].next = false;
            }
            self.elig[k].next = self.occ_q[k].q.val() & self.found[k].val();
        }

        // --- R7b: the slots' ranks and who comes first (empty loops in R7's fixed order).
        for k in 0..self.rk_lo.len() {
            self.rk_hi[k].next = self.cp_r_hi[k].val();
            self.rk_lo[k].next = self.cp_r_lo[k].val();
        }
        for k in 0..self.cp_lo.len() {
            self.rk_hi[k].next = self.cp_hi[k].q.val();
            self.rk_lo[k].next = self.cp_lo[k].q.val();
        }
        // Slot j before slot k: a lower rank, or the same rank and j first in the fixed order.
        for j in 0..self.rk_lo.len() {
            for k in 0..self.rk_lo.len() {
                self.bt[j][k].next = (!self.rk_hi[j].val() & self.rk_hi[k].val())
                    | (!(self.rk_hi[j].val() ^ self.rk_hi[k].val())
                        & ((!self.rk_lo[j].val() & self.rk_lo[k].val())
                            | (!(self.rk_lo[j].val() ^ self.rk_lo[k].val()) & self.ord[j][k].val())));
            }
        }
        for k in 0..self.rk_lo.len() {
            self.win_e[k].next = self.elig[k].val();
            self.win_o[k].next = self.occ_q[k].q.val();
            for j in 0..self.rk_lo.len() {
                if self.bt[j][k].val() & self.elig[j].val() {
                    self.win_e[k].next = false;
                }
                if self.bt[j][k].val() & self.occ_q[j].q.val() {
                    self.win_o[k].next = false;
                }
            }
        }
        for a in 0..self.any_aged.len() {
            for k in 0..self.al.len() {
                self.al[k].next = self.elig[k].val() & (self.age_q[k].q.val() == self.age_lim[a].val());
            }
            for k in 0..self.al.len() {
                self.win_a[k].next = self.al[k].val();
                for j in 0..self.al.len() {
                    if self.bt[j][k].val() & self.al[j].val() {
                        self.win_a[k].next = false;
                    }
                }
            }
        }

        // --- Grant (R7): the held request, else by class priority.
        self.taken.next = false;
        // R7a (aging): the first eligible slot in class priority order whose AGE is at the
        // limit is granted before the rule below, whatever YIELD_EN (empty loops without it).
        for a in 0..self.any_aged.len() {
            self.any_aged[a].next = false;
            for k in 0..self.occ_q.len() {
                self.aged[k].next =
                    !self.any_aged[a].val() & self.elig[k].val() & (self.age_q[k].q.val() == self.age_lim[a].val());
                // R7b: the first in rank order instead.
                for _r in 0..self.pre.len() {
                    self.aged[k].next = self.win_a[k].val();
                }
                if self.aged[k].val() {
                    self.any_aged[a].next = true;
                }
            }
            self.taken.next = self.any_aged[a].val();
        }
        for r in 0..self.pre.len() {
            self.pre[r].next = self.taken.val();
        }
        self.pres.next = self.sticky_q.q.val();
        self.sel_p.next = self.zero32.val();
        self.rej_p.next = self.zero32.val();
        for k in 0..self.occ_q.len() {
            self.gnt_l[k].next = self.gnt_q[k].q.val();
            if !self.sticky_q.q.val() {
                self.gnt_l[k].next = false;
                if !self.taken.val() & (self.elig[k].val() | (!self.yld_q.q.val() & self.occ_q[k].q.val())) {
                    self.taken.next = true;
                    self.gnt_l[k].next = self.elig[k].val();
                }
                // R7b: YIELD_EN=1 the first eligible slot in rank order, else the first occupied
                // one if it is eligible; none when an aged slot is granted (R7a).
                for r in 0..self.pre.len() {
                    self.gnt_l[k].next = !self.pre[r].val()
                        & ((self.yld_q.q.val() & self.win_e[k].val())
                            | (!self.yld_q.q.val() & self.win_o[k].val() & self.elig[k].val()));
                }
                for _a in 0..self.any_aged.len() {
                    if self.aged[k].val() {
                        self.gnt_l[k].next = true;
                    }
                }
                if self.gnt_l[k].val() {
                    self.pres.next = true;
                    self.sel_p.next = self.selm[k].val();
                    self.rej_p.next = self.rejm[k].val();
                }
            }
            self.gnt[k].next = self.gnt_l[k].val();
        }
        if self.sticky_q.q.val() {
            for e in 0..self.ar_ready.len() {
                if self.sel_q[e].q.val() {
                    self.sel_p.next = self.sel_p.val() | self.w32[e].val();
                }
            }
        }
        self.sticky.next = self.sticky_q.q.val();
        // R7a: AGE to 0 while the slot is empty and when it is granted anew; +1 (up to the limit)
        // in a new grant decision (no held request) that passes it over while it is eligible.
        for a in 0..self.any_aged.len() {
            for k in 0..self.occ_q.len() {
                self.age_q[k].clock.next = self.clock.val();
                self.age_q[k].d.next = self.age_q[k].q.val();
                if !self.sticky_q.q.val() & self.elig[k].val() & !self.gnt_l[k].val() & (self.age_q[k].q.val() != self.age_lim[a].val()) {
                    self.age_q[k].d.next = self.age_q[k].q.val() + self.age_one[a].val();
                }
                if self.reset.val() | !self.occ_q[k].q.val() | (!self.sticky_q.q.val() & self.gnt_l[k].val()) {
                    self.age_q[k].d.next = self.age_zero[a].val();
                }
            }
        }
        // --- The EU's answer (R8).
        self.ack_m.next = self.sel_p.val() & self.rdy_m.val();
        self.rf_m.next = self.sel_p.val() & self.rfs_m.val() & !self.rdy_m.val();
        self.acked.next = self.ack_m.val().any();
        self.refused.next = self.rf_m.val().any();
        for e in 0..self.ar_ready.len() {
            self.ar_valid[e].next = self.sel_p.val().get_bit(e);
            self.ack[e].next = self.ack_m.val().get_bit(e);
            self.sel_q[e].d.next = self.sel_p.val().get_bit(e);
        }
        self.sticky_q.d.next = self.pres.val() & !self.acked.val() & !self.refused.val();
        if self.reset.val() {
            self.sticky_q.d.next = false;
        }
    }
}
