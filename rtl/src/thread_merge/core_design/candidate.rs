//! Part 3 of the core's rules: R4, the candidate register and the fragment input; R5's remaps;
//! the emission decisions E0-E3.

use super::*;

impl<const L: usize> hdl::Part<3> for ThreadMergeCore<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- R4: the candidate and the fragment input.
        self.out_ok.next = !self.gv_q.q.val() | self.grp_ready.val();
        self.pmis.next = false;
        for b in 0..self.pprim_q.len() {
            self.pprim_q[b].clock.next = self.clock.val();
            self.pprim_q[b].d.next = self.pprim_q[b].q.val();
            if self.pprim_q[b].q.val() ^ self.frag_prim[b].val() {
                self.pmis.next = true;
            }
        }
        // R18 (cross_primitive): fragments of any primitive may pair.
        for k in 0..self.xprim.len() {
            self.pmis.next = !self.xprim[k].val();
        }
        self.age.next = self.zero8.val();
        for k in 0..self.w_age.len() {
            self.page_q[k].clock.next = self.clock.val();
            if self.page_q[k].q.val() {
                self.age.next = self.age.val() | self.w_age[k].val();
            }
        }
        // age == pair_hold is a register of its own (amax_q), kept with the age.
        self.age_max.next = false;
        for k in 0..self.amax_q.len() {
            self.amax_q[k].clock.next = self.clock.val();
            self.age_max.next = self.amax_q[k].q.val();
        }
        self.flush_now.next = self.pv_q.q.val()
            & (self.plast_q.q.val() | self.flush.val() | self.age_max.val() | (self.frag_valid.val() & self.pmis.val()));
        self.frag_ready.next = self.out_ok.val() & self.any_free.val() & !self.flush_now.val();
        self.f_acc.next = self.frag_valid.val() & self.frag_ready.val();

        // R5: xperm(F.cov, p) for p = 1 (swap x), 2 (swap y), 3 (both), and the
        // first p in 0, 1, 2, 3 that makes the fragment disjoint from the candidate.
        self.x1.next = ((self.frag_cov.val() & self.m_x0.val()) << self.sh1.val())
            | ((self.frag_cov.val() & self.m_x1.val()) >> self.sh1.val());
        self.x2.next = ((self.frag_cov.val() & self.m_y0.val()) << self.sh2.val())
            | ((self.frag_cov.val() & self.m_y1.val()) >> self.sh2.val());
        self.x3.next = ((self.x1.val() & self.m_y0.val()) << self.sh2.val())
            | ((self.x1.val() & self.m_y1.val()) >> self.sh2.val());
        self.can_pair.next = true;
        self.pperm.next = self.p0.val();
        self.pbcov.next = self.frag_cov.val();
        if (self.pcov_q.q.val() & self.frag_cov.val()).any() {
            if self.remap_on.val() & !(self.pcov_q.q.val() & self.x1.val()).any() {
                self.pperm.next = self.p1.val();
                self.pbcov.next = self.x1.val();
            } else if self.remap_on.val() & !(self.pcov_q.q.val() & self.x2.val()).any() {
                self.pperm.next = self.p2.val();
                self.pbcov.next = self.x2.val();
            } else if self.remap_on.val() & !(self.pcov_q.q.val() & self.x3.val()).any() {
                self.pperm.next = self.p3.val();
                self.pbcov.next = self.x3.val();
            } else {
                self.can_pair.next = false;
            }
        }

        // E0-E3 as flat formulas: E0 (flush_now) emits the candidate alone and takes
        // nothing; else an accepted F: empty -> error (D7); full -> E1 emits F; partial
        // without candidate -> E2 emits F if last, else holds it; partial with
        // candidate -> E3 emits the pair (p exists) or the candidate alone, holding F.
        self.fv_part.next = self.frag_valid.val() & self.frag_cov.val().any() & !self.frag_cov.val().all();
        self.fterm.next = self.frag_valid.val()
            & self.frag_cov.val().any()
            & (self.frag_cov.val().all() | self.pv_q.q.val() | self.frag_last.val());
        self.emit.next = self.out_ok.val() & self.any_free.val() & (self.flush_now.val() | self.fterm.val());
        if self.f_acc.val() & !self.frag_cov.val().any() {
            self.perr.next = true;
        }
        // The same decisions, shallow, for registers whose value only matters when
        // the decision holds (late inputs select, R15/§5 don't-care otherwise):
        // A is the candidate (E0, E3) when a candidate is held unless an
        // accepted full fragment leaves alone (E1, no flush);
        self.a_px.next = self.pv_q.q.val()
            & (!self.frag_valid.val()
                | !self.frag_cov.val().all()
                | self.plast_q.q.val()
                | self.flush.val()
                | self.age_max.val()
                | self.pmis.val());
        // the emission is a pair (E3, no flush_now: out_ok and a free slot are
        // implied by the emission);
        self.paired_x.next = self.pv_q.q.val()
            & self.frag_valid.val()
            & self.frag_cov.val().any()
            & !self.frag_cov.val().all()
            & self.can_pair.val()
            & !self.plast_q.q.val()
            & !self.flush.val()
            & !self.age_max.val()
            & !self.pmis.val();
        // the candidate's payload loads F whenever no candidate stays held unreplaced.
        self.en_p.next = !self.pv_q.q.val()
            | (self.out_ok.val() & self.any_free.val() & self.frag_valid.val() & self.frag_cov.val().any() & !self.frag_cov.val().all());
        self.e_acov.next = self.frag_cov.val();
        if self.a_px.val() {
            self.e_acov.next = self.pcov_q.q.val();
        }
        for b in 0..self.atag.len() {
            self.atag[b].next = self.frag_tag[b].val();
            if self.a_px.val() {
                self.atag[b].next = self.ptag_q[b].q.val();
            }
        }

        // The candidate register.
        // The age saturates at pair_hold, so `age < pair_hold` is `age != pair_hold`;
        // the increment is bitwise (no carry chain).
        // An E1 `last` marks a held candidate (when an E0 fires instead the
        // candidate leaves, and the flag no longer matters).
        self.age_inc.next = self.pv_q.q.val() & (self.age.val() != self.hold_max.val());
        if self.pv_q.q.val() & self.frag_valid.val() & self.frag_cov.val().all() & self.frag_last.val() & self.out_ok.val() & self.any_free.val() {
            self.plast_q.d.next = true;
        }
        // A held candidate leaves on E0 and on a pair (E3), else stays (or is
        // replaced); without one, a partial fragment that is not last is held (E2).
        if self.pv_q.q.val() {
            self.pv_q.d.next = !(self.out_ok.val()
                & self.any_free.val()
                & (self.flush_now.val() | (self.fv_part.val() & self.can_pair.val())));
        } else {
            self.pv_q.d.next = self.out_ok.val() & self.any_free.val() & self.fv_part.val() & !self.frag_last.val();
        }
        for b in 0..self.atag.len() {
            self.ptag_q[b].clock.next = self.clock.val();
            self.ptag_q[b].d.next = self.ptag_q[b].q.val();
        }
        if self.en_p.val() {
            self.pcov_q.d.next = self.frag_cov.val();
            self.plast_q.d.next = self.frag_last.val();
            for b in 0..self.pprim_q.len() {
                self.pprim_q[b].d.next = self.frag_prim[b].val();
            }
            for b in 0..self.atag.len() {
                self.ptag_q[b].d.next = self.frag_tag[b].val();
            }
        }
        for k in 0..self.amax_q.len() {
            self.amax_q[k].d.next = !self.en_p.val()
                & !self.reset.val()
                & (self.amax_q[k].q.val() | (self.pv_q.q.val() & (self.age.val() == self.hold_m1.val())));
        }
        self.acar.next = self.age_inc.val();
        for k in 0..self.w_age.len() {
            self.page_q[k].d.next = (self.page_q[k].q.val() ^ self.acar.val()) & !self.en_p.val() & !self.reset.val();
            self.acar.next = self.acar.val() & self.page_q[k].q.val();
        }

        // ---- R19 (`candidates` = K > 1; nothing here when K = 1): the candidate register
        // is the head of a queue of K held fragments, the oldest first. flush_now,
        // frag_ready and a_px above hold as they are (they read the head and qlast =
        // plast_q); what follows replaces the emission, the pair and the registers' next state.
        for z in 0..self.qs_any.len() {
            // The entries before the edge: 0 the head, 1 .. K-1 the queue, K an empty sentinel.
            // (Ages only with a hold window: qs_car and the age vectors are empty without.)
            self.cv[0].next = self.pv_q.q.val();
            self.ccov[0].next = self.pcov_q.q.val();
            for _a in 0..self.qs_car.len() {
                self.cage[0].next = self.age.val();
            }
            for b in 0..self.atag.len() {
                self.ctag[0][b].next = self.ptag_q[b].q.val();
            }
            for j in 0..self.qv_q.len() {
                self.qv_q[j].clock.next = self.clock.val();
                self.qcov_q[j].clock.next = self.clock.val();
                self.cv[j + 1].next = self.qv_q[j].q.val();
                self.ccov[j + 1].next = self.qcov_q[j].q.val();
                for b in 0..self.atag.len() {
                    self.qtag_q[j][b].clock.next = self.clock.val();
                    self.ctag[j + 1][b].next = self.qtag_q[j][b].q.val();
                }
                for _a in 0..self.qs_car.len() {
                    self.cage[j + 1].next = self.zero8.val();
                    for k in 0..self.w_age.len() {
                        self.qage_q[j][k].clock.next = self.clock.val();
                        if self.qage_q[j][k].q.val() {
                            self.cage[j + 1].next = self.cage[j + 1].val() | self.w_age[k].val();
                        }
                    }
                }
            }
            for j in self.qv_q.len()..(self.qv_q.len() + 1) {
                self.qs_full[z].next = self.cv[j].val();
                self.cv[j + 1].next = false;
                self.ccov[j + 1].next = self.lzero.val();
                for _a in 0..self.qs_car.len() {
                    self.cage[j + 1].next = self.zero8.val();
                }
                for b in 0..self.atag.len() {
                    self.ctag[j + 1][b].next = false;
                }
            }
            // R5 per entry, and the oldest entry F fits.
            self.qs_any[z].next = false;
            for j in 0..self.can.len() {
                self.can[j].next = self.cv[j].val();
                self.cpp[j].next = self.p0.val();
                self.cbc[j].next = self.frag_cov.val();
                if (self.ccov[j].val() & self.frag_cov.val()).any() {
                    if self.remap_on.val() & !(self.ccov[j].val() & self.x1.val()).any() {
                        self.cpp[j].next = self.p1.val();
                        self.cbc[j].next = self.x1.val();
                    } else if self.remap_on.val() & !(self.ccov[j].val() & self.x2.val()).any() {
                        self.cpp[j].next = self.p2.val();
                        self.cbc[j].next = self.x2.val();
                    } else if self.remap_on.val() & !(self.ccov[j].val() & self.x3.val()).any() {
                        self.cpp[j].next = self.p3.val();
                        self.cbc[j].next = self.x3.val();
                    } else {
                        self.can[j].next = false;
                    }
                }
                self.pfirst[j].next = self.can[j].val() & !self.qs_any[z].val();
                self.qs_any[z].next = self.qs_any[z].val() | self.can[j].val();
            }
            // E0; an accepted partial F (frag_ready: no E0); E3's pair; F held (E2 without
            // last, or E3 without a pair).
            self.qs_e0[z].next = self.out_ok.val() & self.any_free.val() & self.flush_now.val();
            self.qs_fpart[z].next = self.frag_ready.val() & self.fv_part.val();
            self.qs_pair[z].next = self.qs_fpart[z].val() & self.pv_q.q.val() & self.qs_any[z].val();
            self.qs_hold[z].next = self.qs_fpart[z].val()
                & ((!self.pv_q.q.val() & !self.frag_last.val()) | (self.pv_q.q.val() & !self.qs_any[z].val()));
            // The emission: E1, E2 with last, E3's pair, or E3 pushing the head out of a full queue.
            self.fterm.next = self.frag_valid.val()
                & self.frag_cov.val().any()
                & (self.frag_cov.val().all()
                    | (!self.pv_q.q.val() & self.frag_last.val())
                    | (self.pv_q.q.val() & (self.qs_any[z].val() | self.qs_full[z].val())));
            self.emit.next = self.out_ok.val() & self.any_free.val() & (self.flush_now.val() | self.fterm.val());
            self.paired_x.next = self.pv_q.q.val()
                & self.frag_valid.val()
                & self.frag_cov.val().any()
                & !self.frag_cov.val().all()
                & self.qs_any[z].val()
                & !self.plast_q.q.val()
                & !self.flush.val()
                & !self.age_max.val()
                & !self.pmis.val();
            // A is the entry F pairs with (a pair), the head (E0, E3 pushing out), or F.
            self.pperm.next = self.p0.val();
            self.pbcov.next = self.frag_cov.val();
            for j in 0..self.can.len() {
                if self.pfirst[j].val() {
                    self.pperm.next = self.cpp[j].val();
                    self.pbcov.next = self.cbc[j].val();
                }
                if self.paired_x.val() & self.pfirst[j].val() {
                    self.e_acov.next = self.ccov[j].val();
                    for b in 0..self.atag.len() {
                        self.atag[b].next = self.ctag[j][b].val();
                    }
                }
            }
            // The queue after the edge: the removed entry (the head on E0 and on a push,
            // the paired one on a pair) leaves and those above it move down one place; F
            // goes to the first empty place after that.
            for j in 0..self.rm.len() {
                self.rm[j].next = self.qs_pair[z].val() & self.pfirst[j].val();
            }
            self.rm[0].next = self.rm[0].val()
                | self.qs_e0[z].val()
                | (self.qs_hold[z].val() & self.pv_q.q.val() & self.qs_full[z].val());
            self.qs_acc[z].next = false;
            for j in 0..self.shf.len() {
                self.shf[j].next = self.qs_acc[z].val() | self.rm[j].val();
                self.qs_acc[z].next = self.shf[j].val();
                self.v1[j].next = self.cv[j].val();
                self.ncov[j].next = self.ccov[j].val();
                for b in 0..self.atag.len() {
                    self.ntag[j][b].next = self.ctag[j][b].val();
                }
                if self.shf[j].val() {
                    self.v1[j].next = self.cv[j + 1].val();
                    self.ncov[j].next = self.ccov[j + 1].val();
                    for b in 0..self.atag.len() {
                        self.ntag[j][b].next = self.ctag[j + 1][b].val();
                    }
                }
            }
            self.qs_acc[z].next = true;
            for j in 0..self.qap.len() {
                self.qap[j].next = self.qs_hold[z].val() & !self.v1[j].val() & self.qs_acc[z].val();
                self.qs_acc[z].next = self.v1[j].val();
                self.nv[j].next = (self.v1[j].val() | self.qap[j].val()) & !self.reset.val();
                // Every fragment still held ages by one, saturating at pair_hold (a bitwise
                // increment of the stored bits); F starts at 0.
                for a in 0..self.qs_car.len() {
                    self.sage[j].next = self.cage[j].val();
                    if self.shf[j].val() {
                        self.sage[j].next = self.cage[j + 1].val();
                    }
                    self.qs_car[a].next = self.sage[j].val() != self.hold_max.val();
                    for k in 0..self.w_age.len() {
                        self.nage[j][k].next = (self.sage[j].val().get_bit(k) ^ self.qs_car[a].val()) & !self.qap[j].val();
                        self.qs_car[a].next = self.qs_car[a].val() & self.sage[j].val().get_bit(k);
                    }
                }
                if self.qap[j].val() {
                    self.ncov[j].next = self.frag_cov.val();
                    for b in 0..self.atag.len() {
                        self.ntag[j][b].next = self.frag_tag[b].val();
                    }
                }
            }
            // The registers: the head from entry 0, the queue from entries 1 .. K-1.
            self.pv_q.d.next = self.nv[0].val();
            self.pcov_q.d.next = self.ncov[0].val();
            for b in 0..self.atag.len() {
                self.ptag_q[b].d.next = self.ntag[0][b].val();
            }
            for k in 0..self.page_q.len() {
                self.page_q[k].d.next = self.nage[0][k].val();
            }
            // age == pair_hold after the edge: it was pair_hold - 1 or pair_hold, and F is new.
            for k in 0..self.amax_q.len() {
                self.amax_q[k].d.next = !self.qap[0].val()
                    & ((self.sage[0].val() == self.hold_m1.val()) | (self.sage[0].val() == self.hold_max.val()));
            }
            for j in 0..self.qv_q.len() {
                self.qv_q[j].d.next = self.nv[j + 1].val();
                self.qcov_q[j].d.next = self.ncov[j + 1].val();
                for b in 0..self.atag.len() {
                    self.qtag_q[j][b].d.next = self.ntag[j + 1][b].val();
                }
                for k in 0..self.w_age.len() {
                    self.qage_q[j][k].d.next = self.nage[j + 1][k].val();
                }
            }
            // qlast: an accepted partial F's last; a full last F accepted while fragments
            // are held ends the run; else kept. The primitive is F's when F is held.
            if self.qs_fpart[z].val() {
                self.plast_q.d.next = self.frag_last.val();
            } else if self.pv_q.q.val() & self.frag_ready.val() & self.frag_valid.val() & self.frag_cov.val().all() & self.frag_last.val() {
                self.plast_q.d.next = true;
            } else {
                self.plast_q.d.next = self.plast_q.q.val();
            }
            for b in 0..self.pprim_q.len() {
                self.pprim_q[b].d.next = self.pprim_q[b].q.val();
                if self.qs_hold[z].val() {
                    self.pprim_q[b].d.next = self.frag_prim[b].val();
                }
            }
        }
    }
}
