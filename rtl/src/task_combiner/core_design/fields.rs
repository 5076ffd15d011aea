//! Parts 0 and 1 of the core's rules: clocks (every register holds by default), the registered
//! fields as numbers, and per entry from its registers count + 1, gen + 1 and "full if appended".

use super::*;

impl hdl::Part<0> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ------------------------------------------------------------------
        // Clocks; by default every register holds.
        // ------------------------------------------------------------------
        dff_setup!(self, clock, slot_v_q, slot_rq_q, slot_reason_q, last_v_q, pick_v_q, rq_busy_q, rqf_done_q, lk_hit_q, perf_tasks_q, perf_lanes_q);
        for e in 0..self.n() {
            self.valid_q[e].clock.next = self.clock.val();
            self.pend_q[e].clock.next = self.clock.val();
            self.rq_q[e].clock.next = self.clock.val();
            self.pick_q[e].clock.next = self.clock.val();
            self.reason_q[e].clock.next = self.clock.val();
            self.reason_q[e].d.next = self.reason_q[e].q.val();
            for b in 0..self.w_stype.len() {
                self.stype_q[e][b].clock.next = self.clock.val();
                self.stype_q[e][b].d.next = self.stype_q[e][b].q.val();
            }
            for b in 0..self.w_state.len() {
                self.state_q[e][b].clock.next = self.clock.val();
                self.state_q[e][b].d.next = self.state_q[e][b].q.val();
            }
            for b in 0..self.w_cnt.len() {
                self.count_q[e][b].clock.next = self.clock.val();
                self.count_q[e][b].d.next = self.count_q[e][b].q.val();
            }
            for b in 0..self.w_gen.len() {
                self.gen_q[e][b].clock.next = self.clock.val();
                self.gen_q[e][b].d.next = self.gen_q[e][b].q.val();
            }
            for k in 0..self.tp_id.len() {
                self.lock_q[e][k].clock.next = self.clock.val();
            }
        }
        for b in 0..self.w_ent.len() {
            self.slot_ent_q[b].clock.next = self.clock.val();
            self.slot_ent_q[b].d.next = self.slot_ent_q[b].q.val();
        }
        for b in 0..self.w_gen.len() {
            self.slot_gen_q[b].clock.next = self.clock.val();
            self.slot_gen_q[b].d.next = self.slot_gen_q[b].q.val();
        }
        for b in 0..self.w_stype.len() {
            self.slot_stype_q[b].clock.next = self.clock.val();
            self.slot_stype_q[b].d.next = self.slot_stype_q[b].q.val();
        }
        for b in 0..self.w_state.len() {
            self.slot_state_q[b].clock.next = self.clock.val();
            self.slot_state_q[b].d.next = self.slot_state_q[b].q.val();
        }
        for b in 0..self.w_cnt.len() {
            self.slot_count_q[b].clock.next = self.clock.val();
            self.slot_count_q[b].d.next = self.slot_count_q[b].q.val();
        }
        for k in 0..self.tp_id.len() {
            self.slot_lock_q[k].clock.next = self.clock.val();
        }
        for b in 0..self.rqf_tp_q.len() {
            self.rqf_tp_q[b].clock.next = self.clock.val();
            self.rqf_tp_q[b].d.next = self.rqf_tp_q[b].q.val();
        }
    }
}

impl hdl::Part<1> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ------------------------------------------------------------------
        // Registered fields as numbers (padding bits are constant 0).
        // ------------------------------------------------------------------
        self.any_pend.next = false;
        self.any_valid.next = false;
        for e in 0..self.n() {
            self.stype_v[e].next = self.no_stype.val();
            for b in 0..self.w_stype.len() {
                if self.stype_q[e][b].q.val() {
                    self.stype_v[e].next = self.stype_v[e].val() | self.w_stype[b].val();
                }
            }
            self.state_v[e].next = self.no_state.val();
            for b in 0..self.w_state.len() {
                if self.state_q[e][b].q.val() {
                    self.state_v[e].next = self.state_v[e].val() | self.w_state[b].val();
                }
            }
            self.count_v[e].next = self.no_cnt.val();
            for b in 0..self.w_cnt.len() {
                if self.count_q[e][b].q.val() {
                    self.count_v[e].next = self.count_v[e].val() | self.w_cnt[b].val();
                }
            }
            self.gen_v[e].next = self.no_gen.val();
            for b in 0..self.w_gen.len() {
                if self.gen_q[e][b].q.val() {
                    self.gen_v[e].next = self.gen_v[e].val() | self.w_gen[b].val();
                }
            }
            self.open[e].next = self.valid_q[e].q.val() & !self.pend_q[e].q.val();
            if self.valid_q[e].q.val() {
                self.any_valid.next = true;
            }
            if self.valid_q[e].q.val() & self.pend_q[e].q.val() {
                self.any_pend.next = true;
            }
            // Matrix outputs (a one-entry table has no pairs: no dependency,
            // every set's only member is its oldest).
            self.rowz[e].next = true;
            self.old_e[e].next = false;
            self.old_s[e].next = false;
            self.best[e].next = false;
            self.depprop[e].next = false;
            for c in 0..self.mx.len() {
                self.rowz[e].next = self.mx[c].rowz[e].val();
                self.old_e[e].next = self.mx[c].old_e[e].val();
                self.old_s[e].next = self.mx[c].old_s[e].val();
                self.best[e].next = self.mx[c].best[e].val();
                self.depprop[e].next = self.mx[c].depprop[e].val();
            }
        }
        // R5h (`hold_producers` = B; nothing here at 0): an OPEN producer j some PENDING entry
        // depends on is released when one of those is not holding (PENDING(FULL), no flush
        // flag), when more than B entries of the table are holding, or when no entry is FREE.
        // (N in the index arithmetic must be a loop variable for rust-hdl.)
        for z in 0..self.hp_nofree.len() {
            self.hp_nofree[z].next = true;
            for e in 0..self.n() {
                self.hp_hold[e].next = self.valid_q[e].q.val()
                    & self.pend_q[e].q.val()
                    & (self.reason_q[e].q.val() == self.r_full.val())
                    & !self.rq_q[e].q.val();
                if !self.valid_q[e].q.val() {
                    self.hp_nofree[z].next = false;
                }
            }
            // How many are holding: a balanced adder tree, not a chain over the entries (heap
            // order: P leaves from P - 1, node k the sum of 2k + 1 and 2k + 2, the root 0).
            for pp in (self.hp_sum.len() / 2 + 1)..(self.hp_sum.len() / 2 + 2) {
                for e in 0..(self.hp_sum.len() / 2 + 1) {
                    self.hp_sum[pp - 1 + e].next = self.no_cnt.val();
                }
                for e in 0..self.n() {
                    if self.hp_hold[e].val() {
                        self.hp_sum[pp - 1 + e].next = self.one_cnt.val();
                    }
                }
                for t in 0..(self.hp_sum.len() / 2) {
                    self.hp_sum[pp - 2 - t].next =
                        self.hp_sum[2 * (pp - 2 - t) + 1].val() + self.hp_sum[2 * (pp - 2 - t) + 2].val();
                }
            }
            for c in 0..self.mx.len() {
                for nn in self.n()..(self.n() + 1) {
                    for j in 0..self.n() {
                        self.hp_oth[j].next = false;
                        for i in 0..self.n() {
                            if self.mx[c].dep[i * nn + j].val() & self.valid_q[i].q.val() & self.pend_q[i].q.val() & !self.hp_hold[i].val() {
                                self.hp_oth[j].next = true;
                            }
                        }
                        self.depprop[j].next = self.hp_oth[j].val()
                            | ((self.hp_nofree[z].val() | (self.hp_sum[0].val() > self.hp_b[z].val())) & self.depprop[j].val());
                    }
                }
            }
        }
        // Per entry from registers: count + 1, gen + 1 (bitwise ripple, no
        // carry chain), and "full if appended" (count + 1 == capacity[stype]).
        for e in 0..self.n() {
            self.carry.next = true;
            for b in 0..self.w_cnt.len() {
                self.cnt_inc[e][b].next = self.count_q[e][b].q.val() ^ self.carry.val();
                self.carry.next = self.carry.val() & self.count_q[e][b].q.val();
            }
            self.carry.next = true;
            for b in 0..self.w_gen.len() {
                self.gen_nx[e][b].next = self.gen_q[e][b].q.val() ^ self.carry.val();
                self.carry.next = self.carry.val() & self.gen_q[e][b].q.val();
            }
            self.full_app[e].next = false;
            for x in 0..self.stype_id.len() {
                if (self.stype_v[e].val() == self.stype_id[x].val()) & (self.count_v[e].val() == self.cap_m1[x].val()) {
                    self.full_app[e].next = true;
                }
            }
        }
        self.last_state_v.next = self.no_state.val();
        for b in 0..self.w_state.len() {
            if self.slot_state_q[b].q.val() {
                self.last_state_v.next = self.last_state_v.val() | self.w_state[b].val();
            }
        }
        self.slot_ent_v.next = self.no_ent.val();
        for b in 0..self.w_ent.len() {
            if self.slot_ent_q[b].q.val() {
                self.slot_ent_v.next = self.slot_ent_v.val() | self.w_ent[b].val();
            }
        }
        self.slot_gen_v.next = self.no_gen.val();
        for b in 0..self.w_gen.len() {
            if self.slot_gen_q[b].q.val() {
                self.slot_gen_v.next = self.slot_gen_v.val() | self.w_gen[b].val();
            }
        }
        self.slot_count_v.next = self.no_cnt.val();
        self.slot_count32.next = self.no_32.val();
        for b in 0..self.w_cnt.len() {
            if self.slot_count_q[b].q.val() {
                self.slot_count_v.next = self.slot_count_v.val() | self.w_cnt[b].val();
                self.slot_count32.next = self.slot_count32.val() | self.w_cnt32[b].val();
            }
        }
    }
}
