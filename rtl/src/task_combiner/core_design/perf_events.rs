//! Parts 7 and 8 of the core's rules: the counter bank's wiring (the shared
//! [`crate::perf::perf_wiring`]: reset clears like perf_clr) and rule P1's performance-counter
//! events (docs/blocks/task_combiner.md, docs/perf.md). With `perf_counters` only: without it
//! `perf` is empty and these parts emit nothing.

use super::*;

perf::perf_wiring!([] TaskCombinerCore, 7);

impl hdl::Part<8> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- P1: the events of this cycle, in perf_sel order, from the registered state and
        // this cycle's inputs (the signals the rules use at the edge).
        for i in 0..self.perf.len() {
            // 0 inst_acc, 1 tasks_out: the two handshakes.
            self.perf[i].ev[0].next = self.accept.val();
            self.perf[i].ev[1].next = self.handshake.val();
            // 2 stall_in, 3 stall_drain (a cause of stall_in), 4 stall_out: a valid not taken.
            self.perf[i].ev[2].next = self.in_valid.val() & !self.in_ready.val();
            self.perf[i].ev[3].next = self.in_valid.val() & self.drain_req.val();
            self.perf[i].ev[4].next = self.slot_v_q.q.val() & !self.out_ready.val();
            // 5..9 out_full .. out_drain: a task taken, by its out_reason.
            self.perf[i].ev[5].next = self.handshake.val() & (self.slot_reason_q.q.val() == self.r_full.val());
            self.perf[i].ev[6].next = self.handshake.val() & (self.slot_reason_q.q.val() == self.r_evict.val());
            self.perf[i].ev[7].next = self.handshake.val() & (self.slot_reason_q.q.val() == self.r_dep.val());
            self.perf[i].ev[8].next = self.handshake.val() & (self.slot_reason_q.q.val() == self.r_rqflush.val());
            self.perf[i].ev[9].next = self.handshake.val() & (self.slot_reason_q.q.val() == self.r_drain.val());
            // 10 lock_hit: what sets the lk_hit register at this edge (R6).
            self.perf[i].ev[10].next = self.lk_any.val() | self.lk_slot.val();
            // 11 rqf_acc: a flush accepted (R7).
            self.perf[i].ev[11].next = self.rqf_acc.val();
            // `err_dep_ev` (with `dep_tags` only): an accept that names an illegal producer.
            for z in 0..self.dt_ill.len() {
                self.perf[i].ev[12].next = self.dt_ill[z].val();
            }
        }
    }
}
