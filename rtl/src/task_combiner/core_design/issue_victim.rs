//! Part 3 of the core's rules: R4, the issue pick (the oldest eligible PENDING entry, the last
//! issued state first) and the picked entry's fields; D3, the instance's producers; R3, the
//! eviction victim.

use super::*;

impl hdl::Part<3> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ------------------------------------------------------------------
        // R4: issue into the output slot: the oldest eligible pending entry,
        // in the last issued state first when sort_state.
        // ------------------------------------------------------------------
        self.slot_free.next = !self.slot_v_q.q.val() | self.out_ready.val();
        self.any_elig.next = false;
        self.any_same.next = false;
        for e in 0..self.n() {
            // R4r: the registered pick moves when the slot is free; the next pick is
            // chosen among the other eligible entries (0 without registered_issue).
            self.pmove[e].next = self.registered_issue.val() & self.slot_free.val() & self.pick_q[e].q.val();
            self.elig[e].next = self.valid_q[e].q.val() & self.pend_q[e].q.val() & self.rowz[e].val() & !self.pmove[e].val();
            if self.elig[e].val() {
                self.any_elig.next = true;
            }
            self.same[e].next = self.elig[e].val() & (self.state_v[e].val() == self.last_state_v.val());
            if self.same[e].val() {
                self.any_same.next = true;
            }
        }
        // (A one-entry table has no matrix: its only member is the oldest.)
        for e in 0..self.solo() {
            self.old_e[e].next = self.elig[e].val();
            self.old_s[e].next = self.same[e].val();
        }
        // The oldest of the set in use (same state first when sort_state):
        // both oldest members come from the matrix in parallel, then select.
        self.use_same.next = self.sort_state.val() & self.last_v_q.q.val() & self.any_same.val();
        // (old_e / old_s are empty when their set is, and use_same implies
        // any_same: psel needs slot_free only, not any_elig.)
        for e in 0..self.n() {
            self.psel[e].next = self.slot_free.val() & !self.use_same.val() & self.old_e[e].val();
            if self.use_same.val() {
                self.psel[e].next = self.slot_free.val() & self.old_s[e].val();
            }
            // R4r: this cycle's choice is the next pick; the move is the registered one.
            self.pick_q[e].d.next = self.registered_issue.val() & ((self.use_same.val() & self.old_s[e].val()) | (!self.use_same.val() & self.old_e[e].val()));
            self.sel_e[e].next = self.old_e[e].val();
            self.sel_s[e].next = self.old_s[e].val();
            if self.registered_issue.val() {
                self.psel[e].next = self.pmove[e].val();
                self.sel_e[e].next = self.pick_q[e].q.val();
                self.sel_s[e].next = false;
            }
        }
        self.pick_v_q.d.next = self.registered_issue.val() & self.any_elig.val();
        self.issue.next = self.slot_free.val() & self.any_elig.val();
        self.use_sel.next = self.use_same.val();
        if self.registered_issue.val() {
            self.issue.next = self.slot_free.val() & self.pick_v_q.q.val();
            self.use_sel.next = false;
        }
        self.pe_reason.next = self.no_reason.val();
        self.ps_reason.next = self.no_reason.val();
        for e in 0..self.n() {
            if self.sel_e[e].val() {
                self.pe_reason.next = self.pe_reason.val() | self.reason_q[e].q.val();
            }
            if self.sel_s[e].val() {
                self.ps_reason.next = self.ps_reason.val() | self.reason_q[e].q.val();
            }
        }
        for b in 0..self.w_gen.len() {
            self.pe_gen[b].next = false;
            self.ps_gen[b].next = false;
            for e in 0..self.n() {
                self.pe_gen[b].next = self.pe_gen[b].val() | (self.sel_e[e].val() & self.gen_q[e][b].q.val());
                self.ps_gen[b].next = self.ps_gen[b].val() | (self.sel_s[e].val() & self.gen_q[e][b].q.val());
            }
        }
        for b in 0..self.w_stype.len() {
            self.pe_stype[b].next = false;
            self.ps_stype[b].next = false;
            for e in 0..self.n() {
                self.pe_stype[b].next = self.pe_stype[b].val() | (self.sel_e[e].val() & self.stype_q[e][b].q.val());
                self.ps_stype[b].next = self.ps_stype[b].val() | (self.sel_s[e].val() & self.stype_q[e][b].q.val());
            }
        }
        for b in 0..self.w_state.len() {
            self.pe_state[b].next = false;
            self.ps_state[b].next = false;
            for e in 0..self.n() {
                self.pe_state[b].next = self.pe_state[b].val() | (self.sel_e[e].val() & self.state_q[e][b].q.val());
                self.ps_state[b].next = self.ps_state[b].val() | (self.sel_s[e].val() & self.state_q[e][b].q.val());
            }
        }
        for b in 0..self.w_cnt.len() {
            self.pe_cnt[b].next = false;
            self.ps_cnt[b].next = false;
            for e in 0..self.n() {
                self.pe_cnt[b].next = self.pe_cnt[b].val() | (self.sel_e[e].val() & self.count_q[e][b].q.val());
                self.ps_cnt[b].next = self.ps_cnt[b].val() | (self.sel_s[e].val() & self.count_q[e][b].q.val());
            }
        }
        for b in 0..self.w_ent.len() {
            self.pe_ent[b].next = false;
            self.ps_ent[b].next = false;
            for e in 0..self.n() {
                self.pe_ent[b].next = self.pe_ent[b].val() | (self.sel_e[e].val() & self.ent_bit[e][b].val());
                self.ps_ent[b].next = self.ps_ent[b].val() | (self.sel_s[e].val() & self.ent_bit[e][b].val());
            }
            // (Read address and slot tag are used only under `issue`.)
            self.p_ent[b].next = (self.use_sel.val() & self.ps_ent[b].val()) | (!self.use_sel.val() & self.pe_ent[b].val());
        }

        // ------------------------------------------------------------------
        // D3: the instance's producers: resident entries of the same state whose
        // type the instance's type consumes, that stay resident at this edge.
        // ------------------------------------------------------------------
        for y in 0..self.in_dep.len() {
            self.in_dep[y].next = false;
        }
        for x in 0..self.dep_type.len() {
            if self.in_stype.val() == self.stype_id[x].val() {
                for y in 0..self.in_dep.len() {
                    self.in_dep[y].next = self.dep_type[x][y].val();
                }
            }
        }
        for z in 0..self.ir_v_q.len() {
            // R2i: the register's type.
            for y in 0..self.in_dep.len() {
                self.in_dep[y].next = false;
            }
            for x in 0..self.dep_type.len() {
                if self.r_stype[z].val() == self.stype_id[x].val() {
                    for y in 0..self.in_dep.len() {
                        self.in_dep[y].next = self.dep_type[x][y].val();
                    }
                }
            }
        }
        for e in 0..self.dset.len() {
            self.dtype[e].next = false;
            for y in 0..self.in_dep.len() {
                if self.in_dep[y].val() & (self.stype_v[e].val() == self.stype_id[y].val()) {
                    self.dtype[e].next = true;
                }
            }
            // (The entry moving into the slot is masked in the matrix, after the OR.)
            self.dset[e].next = self.valid_q[e].q.val()
                & self.dtype[e].val()
                & (self.state_v[e].val() == self.in_state.val());
            for z in 0..self.ir_v_q.len() {
                self.dset[e].next = self.valid_q[e].q.val() & self.dtype[e].val() & (self.state_v[e].val() == self.r_state[z].val());
            }
        }
        // D3t (`dep_tags`): only the producers the instance names by tag {gen, entry}. A
        // named resident entry outside that set, neither the target nor moving into the slot
        // at this edge, is an illegal dependency of an accepted instance: sticky err_dep
        // (err_clr clears it unless this edge sets it).
        for e in 0..self.named.len() {
            self.named[e].next = false;
            for k in 0..self.dt_vld.len() {
                if self.dt_vld[k].val() & (self.gen_v[e].val() == self.dt_gen[k].val()) & (self.ent_id[e].val() == self.dt_ent[k].val()) {
                    self.named[e].next = true;
                }
            }
            for _z in 0..self.ir_v_q.len() {
                // R2i: the register's tags.
                self.named[e].next = false;
                for k in 0..self.ir_dtv_q.len() {
                    if self.ir_dtv_q[k].q.val() & (self.gen_v[e].val() == self.r_dt_gen[k].val()) & (self.ent_id[e].val() == self.r_dt_ent[k].val()) {
                        self.named[e].next = true;
                    }
                }
            }
            self.dset[e].next = self.dset[e].val() & self.named[e].val();
        }
        for z in 0..self.dt_ill.len() {
            self.dt_ill[z].next = false;
            for e in 0..self.named.len() {
                if self.accept.val()
                    & self.valid_q[e].q.val()
                    & self.named[e].val()
                    & !self.appended[e].val()
                    & !self.created[e].val()
                    & !self.psel[e].val()
                    & !(self.dtype[e].val() & (self.state_v[e].val() == self.in_state.val()))
                {
                    self.dt_ill[z].next = true;
                }
            }
            for y in 0..self.ir_v_q.len() {
                // R2i: the register's state.
                self.dt_ill[z].next = false;
                for e in 0..self.named.len() {
                    if self.accept.val()
                        & self.valid_q[e].q.val()
                        & self.named[e].val()
                        & !self.appended[e].val()
                        & !self.created[e].val()
                        & !self.psel[e].val()
                        & !(self.dtype[e].val() & (self.state_v[e].val() == self.r_state[y].val()))
                    {
                        self.dt_ill[z].next = true;
                    }
                }
            }
            self.err_dep_q[z].clock.next = self.clock.val();
            self.err_dep_q[z].d.next = !self.reset.val() & (self.dt_ill[z].val() | (self.err_dep_q[z].q.val() & !self.err_clr[z].val()));
            self.err_dep[z].next = self.err_dep_q[z].q.val();
        }

        // ------------------------------------------------------------------
        // R3: eviction victim when a new key finds no room and nothing is pending.
        // ------------------------------------------------------------------
        self.victim_req.next = self.in_valid.val()
            & !self.m_found.val()
            & !self.f_found.val()
            & !self.drain_req.val()
            & !self.any_pend.val();
        for z in 0..self.ir_v_q.len() {
            // R2i: for the register's instance.
            self.victim_req.next = self.ir_v_q[z].q.val() & !self.m_found.val() & !self.f_found.val() & !self.drain_req.val() & !self.any_pend.val();
        }
        self.any_nodep.next = false;
        for e in 0..self.n() {
            if self.open[e].val() & self.rowz[e].val() {
                self.any_nodep.next = true;
            }
        }
        // The victim is the candidate no other candidate beats (TaskMatrix:
        // pairwise count / age relation, log depth). A victim is only wanted
        // when every entry is OPEN, so without the nodep restriction every
        // entry is a candidate.
        for e in 0..self.n() {
            self.cand[e].next = true;
            if self.pol_nodep.val() & self.any_nodep.val() {
                self.cand[e].next = self.open[e].val() & self.rowz[e].val();
            }
        }
        for e in 0..self.solo() {
            self.best[e].next = self.cand[e].val();
        }
        for e in 0..self.n() {
            self.vsel[e].next = self.victim_req.val() & self.best[e].val();
        }
    }
}
