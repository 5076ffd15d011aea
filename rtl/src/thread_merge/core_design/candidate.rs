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
    }
}
