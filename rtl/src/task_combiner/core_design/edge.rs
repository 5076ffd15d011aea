//! Part 5 of the core's rules: the entries at the edge (R9 accept, R8/R10 pending and reason, R4
//! free), the matrices' inputs, the slot registers, the performance counters and the reference
//! memories (written at accept, read when an entry enters the slot).

use super::*;

impl hdl::Part<5> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ------------------------------------------------------------------
        // Entries at the edge: R9 accept, R8/R10 pending and reason, R4 free.
        // ------------------------------------------------------------------
        for e in 0..self.n() {
            // Triggers for an entry OPEN before the edge or created at it (R10 priority).
            self.trig[e].next = (self.open[e].val() | self.created[e].val())
                & ((self.appended[e].val() & self.full_app[e].val())
                    | (self.created[e].val() & self.full_in.val())
                    | self.vsel[e].val()
                    | (self.open[e].val() & self.depprop[e].val())
                    | self.snap[e].val()
                    | self.drain_req.val());
            for _z in 0..self.ir_v_q.len() {
                // R2i: an entry created while drain_req stays OPEN (R8 reads the registered
                // state): a created entry closes only when full or flushed (one appended to
                // was OPEN and closes with the rest).
                if self.created[e].val() {
                    self.trig[e].next = self.full_in.val() | self.snap[e].val();
                }
            }
            self.valid_q[e].d.next = self.res_post[e].val();
            self.pend_q[e].d.next = self.res_post[e].val() & (self.pend_q[e].q.val() | self.trig[e].val());
            self.rq_q[e].d.next = self.rq_d[e].val();
            if self.trig[e].val() {
                if self.drain_req.val() {
                    self.reason_q[e].d.next = self.r_drain.val();
                }
                if self.snap[e].val() {
                    self.reason_q[e].d.next = self.r_rqflush.val();
                }
                if self.open[e].val() & self.depprop[e].val() {
                    self.reason_q[e].d.next = self.r_dep.val();
                }
                if self.vsel[e].val() {
                    self.reason_q[e].d.next = self.r_evict.val();
                }
                if (self.appended[e].val() & self.full_app[e].val()) | (self.created[e].val() & self.full_in.val()) {
                    self.reason_q[e].d.next = self.r_full.val();
                }
            }
            if self.appended[e].val() {
                for b in 0..self.w_cnt.len() {
                    self.count_q[e][b].d.next = self.cnt_inc[e][b].val();
                }
            }
            if self.created[e].val() {
                for b in 0..self.w_cnt.len() {
                    self.count_q[e][b].d.next = self.one_cnt.val().get_bit(b);
                }
                for b in 0..self.w_stype.len() {
                    self.stype_q[e][b].d.next = self.in_stype.val().get_bit(b);
                }
                for b in 0..self.w_state.len() {
                    self.state_q[e][b].d.next = self.in_state.val().get_bit(b);
                }
                for z in 0..self.ir_v_q.len() {
                    // R2i: the register's key.
                    for b in 0..self.w_stype.len() {
                        self.stype_q[e][b].d.next = self.r_stype[z].val().get_bit(b);
                    }
                    for b in 0..self.w_state.len() {
                        self.state_q[e][b].d.next = self.r_state[z].val().get_bit(b);
                    }
                }
                for b in 0..self.w_gen.len() {
                    self.gen_q[e][b].d.next = self.gen_nx[e][b].val();
                }
            }
        }
        // Dependency and age matrices: the column of the entry leaving is
        // cleared; a created row starts empty; the instance's producers are
        // ORed into its row; a created entry is younger than every other.
        for c in 0..self.mx.len() {
            self.mx[c].clock.next = self.clock.val();
            self.mx[c].reset.next = self.reset.val();
            for e in 0..self.n() {
                self.mx[c].pend[e].next = self.valid_q[e].q.val() & self.pend_q[e].q.val();
                self.mx[c].elig[e].next = self.elig[e].val();
                self.mx[c].same[e].next = self.same[e].val();
                self.mx[c].cand[e].next = self.cand[e].val();
                self.mx[c].psel[e].next = self.psel[e].val();
                self.mx[c].created[e].next = self.created[e].val();
                self.mx[c].acc[e].next = self.appended[e].val() | self.created[e].val();
            }
            for e in 0..self.dset.len() {
                self.mx[c].dset[e].next = self.dset[e].val();
            }
        }
        // (CNT_W in the index arithmetic must be a loop variable for rust-hdl;
        // the matrix has no count inputs with the oldest policies.)
        for c in 0..self.mx_counts() {
            for cw in self.w_cnt.len()..(self.w_cnt.len() + 1) {
                for e in 0..self.n() {
                    for b in 0..self.w_cnt.len() {
                        self.mx[c].cnt[e * cw + b].next = self.count_q[e][b].q.val();
                    }
                }
            }
        }

        // ------------------------------------------------------------------
        // Slot registers, last state, performance counters.
        // ------------------------------------------------------------------
        self.slot_v_q.d.next = self.slot_v_d.val();
        self.slot_rq_q.d.next = self.slot_rq_d.val();
        for b in 0..self.w_ent.len() {
            if self.issue.val() {
                self.slot_ent_q[b].d.next = self.p_ent[b].val();
            }
        }
        // The picked entry's fields: AND-OR over the oldest of `elig` and of
        // `same` separately (sel_e / sel_s), then the late select (use_sel) and
        // load (issue); with registered_issue sel_e is the registered pick.
        if self.issue.val() {
            if self.use_sel.val() {
                self.slot_reason_q.d.next = self.ps_reason.val();
            } else {
                self.slot_reason_q.d.next = self.pe_reason.val();
            }
            for b in 0..self.w_gen.len() {
                self.slot_gen_q[b].d.next = (self.use_sel.val() & self.ps_gen[b].val()) | (!self.use_sel.val() & self.pe_gen[b].val());
            }
            for b in 0..self.w_stype.len() {
                self.slot_stype_q[b].d.next = (self.use_sel.val() & self.ps_stype[b].val()) | (!self.use_sel.val() & self.pe_stype[b].val());
            }
            for b in 0..self.w_state.len() {
                self.slot_state_q[b].d.next = (self.use_sel.val() & self.ps_state[b].val()) | (!self.use_sel.val() & self.pe_state[b].val());
            }
            for b in 0..self.w_cnt.len() {
                self.slot_count_q[b].d.next = (self.use_sel.val() & self.ps_cnt[b].val()) | (!self.use_sel.val() & self.pe_cnt[b].val());
            }
        }
        if self.issue.val() {
            self.last_v_q.d.next = true;
        }
        if self.handshake.val() {
            self.perf_tasks_q.d.next = self.perf_tasks_q.q.val() + self.one_32.val();
            self.perf_lanes_q.d.next = self.perf_lanes_q.q.val() + self.slot_count32.val();
        }

        // ------------------------------------------------------------------
        // Reference memories: write at accept, read when an entry enters the slot.
        // ------------------------------------------------------------------
        for b in 0..self.wb_addr_q.len() {
            self.wb_addr_q[b].clock.next = self.clock.val();
            self.wb_addr_q[b].d.next = self.t_ent[b].val();
        }
        for b in 0..self.wb_data_q.len() {
            self.wb_data_q[b].clock.next = self.clock.val();
            self.wb_data_q[b].d.next = self.in_ref[b].val();
            for _z in 0..self.ir_v_q.len() {
                self.wb_data_q[b].d.next = self.ir_ref_q[b].q.val();
            }
        }
        for l in 0..self.refs.len() {
            self.refs[l].clock.next = self.clock.val();
            // (A lane above 0 is written only by an append, and cnt_m is
            // non-zero only with a match: it needs in_valid and no drain, not
            // the OR over the entries in in_ready.)
            self.wb_en_q[l].clock.next = self.clock.val();
            self.wb_en_q[l].d.next = self.in_valid.val()
                & !self.drain_req.val()
                & (self.cnt_m.val() == self.lane_id[l].val())
                & (self.in_ready.val() | (self.lane_id[l].val() != self.no_cnt.val()));
            for z in 0..self.ir_v_q.len() {
                // R2i: the register's instance (it enters while drain_req too).
                self.wb_en_q[l].d.next = self.ir_v_q[z].q.val()
                    & (self.cnt_m.val() == self.lane_id[l].val())
                    & (self.accept.val() | (self.lane_id[l].val() != self.no_cnt.val()));
            }
            self.refs[l].write_enable.next = self.wb_en_q[l].d.val();
            if self.registered_issue.val() {
                self.refs[l].write_enable.next = self.wb_en_q[l].q.val();
            }
            for b in 0..self.ram_addr_bits() {
                self.refs[l].write_address[b].next = self.t_ent[b].val();
                if self.registered_issue.val() {
                    self.refs[l].write_address[b].next = self.wb_addr_q[b].q.val();
                }
                self.refs[l].read_address[b].next = self.p_ent[b].val();
            }
            for b in 0..self.in_ref.len() {
                self.refs[l].write_data[b].next = self.in_ref[b].val();
                for _z in 0..self.ir_v_q.len() {
                    self.refs[l].write_data[b].next = self.ir_ref_q[b].q.val();
                }
                if self.registered_issue.val() {
                    self.refs[l].write_data[b].next = self.wb_data_q[b].q.val();
                }
                self.out_refs[l][b].next = self.refs[l].read_data[b].val();
            }
            self.refs[l].read_enable.next = self.issue.val();
            self.out_lane_mask[l].next = self.slot_count_v.val() > self.lane_id[l].val();
        }
    }
}
