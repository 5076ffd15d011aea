//! Part 6 of the core's rules: the synchronous reset (R12) and the output ports.

use super::*;

impl hdl::Part<6> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ------------------------------------------------------------------
        // Synchronous reset (R12): free table, empty slot, gens 0, flush idle.
        // ------------------------------------------------------------------
        if self.reset.val() {
            self.slot_v_q.d.next = false;
            self.slot_rq_q.d.next = false;
            self.last_v_q.d.next = false;
            self.pick_v_q.d.next = false;
            self.rq_busy_q.d.next = false;
            self.rqf_done_q.d.next = false;
            self.lk_hit_q.d.next = false;
            self.perf_tasks_q.d.next = self.no_32.val();
            self.perf_lanes_q.d.next = self.no_32.val();
            for b in 0..self.rqf_tp_q.len() {
                self.rqf_tp_q[b].d.next = false;
            }
            for l in 0..self.wb_en_q.len() {
                self.wb_en_q[l].d.next = false;
            }
            for e in 0..self.n() {
                self.valid_q[e].d.next = false;
                self.pend_q[e].d.next = false;
                self.rq_q[e].d.next = false;
                self.pick_q[e].d.next = false;
                for b in 0..self.w_gen.len() {
                    self.gen_q[e][b].d.next = false;
                }
            }
        }

        // ------------------------------------------------------------------
        // Outputs.
        // ------------------------------------------------------------------
        self.lk_hit.next = self.lk_hit_q.q.val();
        self.rqf_done.next = self.rqf_done_q.q.val();
        for b in 0..self.rqf_tp_q.len() {
            self.rqf_done_tpipe[b].next = self.rqf_tp_q[b].q.val();
        }
        self.drain_done.next = self.drain_req.val() & !self.any_valid.val() & !self.slot_v_q.q.val();
        for z in 0..self.ir_v_q.len() {
            // R2i: and IR empty.
            self.drain_done.next = self.drain_req.val() & !self.any_valid.val() & !self.slot_v_q.q.val() & !self.ir_v_q[z].q.val();
        }
        self.out_valid.next = self.slot_v_q.q.val();
        for b in 0..self.w_ent.len() {
            self.out_tag_ent[b].next = self.slot_ent_q[b].q.val();
        }
        for b in 0..self.w_gen.len() {
            self.out_tag_gen[b].next = self.slot_gen_q[b].q.val();
        }
        for b in 0..self.w_stype.len() {
            self.out_stype[b].next = self.slot_stype_q[b].q.val();
        }
        for b in 0..self.w_state.len() {
            self.out_state[b].next = self.slot_state_q[b].q.val();
        }
        for b in 0..self.w_cnt.len() {
            self.out_count[b].next = self.slot_count_q[b].q.val();
        }
        for k in 0..self.tp_id.len() {
            self.out_lockmask[k].next = self.slot_lock_q[k].q.val();
        }
        self.out_reason.next = self.slot_reason_q.q.val();
        self.perf_tasks.next = self.perf_tasks_q.q.val();
        self.perf_lanes.next = self.perf_lanes_q.q.val();
        for e in 0..self.n() {
            self.st_valid[e].next = self.valid_q[e].q.val();
            self.st_open[e].next = self.open[e].val();
            self.st_pending[e].next = self.valid_q[e].q.val() & self.pend_q[e].q.val();
            for b in 0..self.w_cnt.len() {
                self.st_count[e][b].next = self.count_q[e][b].q.val();
            }
            for b in 0..self.w_stype.len() {
                self.st_stype[e][b].next = self.stype_q[e][b].q.val();
            }
            for b in 0..self.w_state.len() {
                self.st_state[e][b].next = self.state_q[e][b].q.val();
            }
            for k in 0..self.tp_id.len() {
                self.st_lockmask[e][k].next = self.lock_q[e][k].q.val();
            }
            for b in 0..self.w_ent.len() {
                self.st_tag_ent[e][b].next = self.ent_bit[e][b].val();
            }
            for b in 0..self.w_gen.len() {
                self.st_tag_gen[e][b].next = self.gen_q[e][b].q.val();
            }
        }
        // (N in the index arithmetic must be a loop variable for rust-hdl.)
        for c in 0..self.mx.len() {
            for nn in self.n()..(self.n() + 1) {
                for i in 0..self.n() {
                    for j in 0..self.n() {
                        self.st_dep[i][j].next = self.mx[c].dep[i * nn + j].val();
                    }
                }
            }
        }
        for e in 0..self.solo() {
            self.st_dep[e][e].next = false;
        }
    }
}
