//! Part 4 of the core's rules: R6 locks, post-edge lock masks and residency, the slot after the
//! edge, and R7's render-queue flush (snapshot, flags, busy and done).

use super::*;

impl hdl::Part<4> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ------------------------------------------------------------------
        // R5: DEP propagation, one level per cycle; R6: locks.
        // ------------------------------------------------------------------
        // (depprop from the matrix.)
        self.lk_any.next = false;
        for e in 0..self.n() {
            self.lk_e[e].next = self.lk_valid.val()
                & self.valid_q[e].q.val()
                & (self.gen_v[e].val() == self.lk_gen.val())
                & (self.ent_id[e].val() == self.lk_ent.val());
            if self.lk_e[e].val() {
                self.lk_any.next = true;
            }
        }
        self.lk_slot.next = self.lk_valid.val()
            & !self.lk_any.val()
            & self.slot_v_q.q.val()
            & (self.slot_gen_v.val() == self.lk_gen.val())
            & (self.slot_ent_v.val() == self.lk_ent.val());
        self.lk_hit_q.d.next = self.lk_any.val() | self.lk_slot.val();

        // Post-edge lock masks and residency.
        for e in 0..self.n() {
            for k in 0..self.tp_id.len() {
                self.lock_d[e][k].next = self.lock_q[e][k].q.val()
                    | (self.appended[e].val() & (self.in_tpipe.val() == self.tp_id[k].val()))
                    | (self.lk_e[e].val() & (self.lk_tpipe.val() == self.tp_id[k].val()));
                if self.created[e].val() {
                    self.lock_d[e][k].next = self.in_tpipe.val() == self.tp_id[k].val();
                }
                for z in 0..self.ir_v_q.len() {
                    // R2i: the register's tile pipe.
                    self.lock_d[e][k].next = self.lock_q[e][k].q.val()
                        | (self.appended[e].val() & (self.r_tpipe[z].val() == self.tp_id[k].val()))
                        | (self.lk_e[e].val() & (self.lk_tpipe.val() == self.tp_id[k].val()));
                    if self.created[e].val() {
                        self.lock_d[e][k].next = self.r_tpipe[z].val() == self.tp_id[k].val();
                    }
                }
                self.lock_pd[e][k].next = self.lock_q[e][k].q.val() | (self.lk_e[e].val() & (self.lk_tpipe.val() == self.tp_id[k].val()));
                self.lock_q[e][k].d.next = self.lock_d[e][k].val();
            }
            self.res_post[e].next = (self.valid_q[e].q.val() & !self.psel[e].val()) | self.created[e].val();
        }

        // ------------------------------------------------------------------
        // The slot after the edge (load, hold under back-pressure, or empty).
        // ------------------------------------------------------------------
        self.handshake.next = self.slot_v_q.q.val() & self.out_ready.val();
        self.slot_v_d.next = self.issue.val() | (self.slot_v_q.q.val() & !self.out_ready.val());
        for k in 0..self.tp_id.len() {
            // (One-hot selects are AND-OR, not priority mux chains; a picked
            // entry is PENDING, so its post-edge lock is lock_q | the lock.)
            self.pe_lock[k].next = false;
            self.ps_lock[k].next = false;
            for e in 0..self.n() {
                self.pe_lock[k].next = self.pe_lock[k].val() | (self.sel_e[e].val() & self.lock_pd[e][k].val());
                self.ps_lock[k].next = self.ps_lock[k].val() | (self.sel_s[e].val() & self.lock_pd[e][k].val());
            }
            self.slot_lock_d[k].next = self.slot_lock_q[k].q.val() | (self.lk_slot.val() & (self.lk_tpipe.val() == self.tp_id[k].val()));
            if self.issue.val() {
                self.slot_lock_d[k].next = (self.use_sel.val() & self.ps_lock[k].val()) | (!self.use_sel.val() & self.pe_lock[k].val());
            }
            self.slot_lock_q[k].d.next = self.slot_lock_d[k].val();
        }

        // ------------------------------------------------------------------
        // R7: render-queue flush: snapshot of post-edge holders of lock bit
        // rqf_tpipe; busy until no entry and no slot task carries the flag.
        // ------------------------------------------------------------------
        self.rqf_ready.next = !self.rq_busy_q.q.val();
        self.rqf_acc.next = self.rqf_valid.val() & !self.rq_busy_q.q.val();
        self.tp_in_rqf.next = false;
        self.tp_lk_rqf.next = false;
        for k in 0..self.tp_id.len() {
            if (self.in_tpipe.val() == self.tp_id[k].val()) & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                self.tp_in_rqf.next = true;
            }
            if (self.lk_tpipe.val() == self.tp_id[k].val()) & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                self.tp_lk_rqf.next = true;
            }
        }
        for z in 0..self.ir_v_q.len() {
            // R2i: the register's tile pipe.
            self.tp_in_rqf.next = false;
            for k in 0..self.tp_id.len() {
                if (self.r_tpipe[z].val() == self.tp_id[k].val()) & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                    self.tp_in_rqf.next = true;
                }
            }
        }
        for e in 0..self.n() {
            self.lbit_q[e].next = false;
            for k in 0..self.tp_id.len() {
                if self.lock_q[e][k].q.val() & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                    self.lbit_q[e].next = true;
                }
            }
            // Post-edge lock bit rqf_tpipe of a post-edge resident entry, written
            // flat (the instance enters only through appended / created, never
            // through the whole lock_d word): a resident one keeps its bits and
            // gains the instance's and the lock's; a created one has the instance's.
            // (!psel is left to res_post: trig reads snap of OPEN entries only.)
            self.lbit[e].next = (self.valid_q[e].q.val()
                & (self.lbit_q[e].val()
                    | (self.appended[e].val() & self.tp_in_rqf.val())
                    | (self.lk_e[e].val() & self.tp_lk_rqf.val())))
                | (self.created[e].val() & self.tp_in_rqf.val());
            self.snap[e].next = self.rqf_acc.val() & self.lbit[e].val();
            self.rq_d[e].next = self.res_post[e].val() & (self.rq_q[e].q.val() | self.snap[e].val());
        }
        // The flag a resident entry has after the edge, wherever it goes (it
        // stays, or moves into the slot with its post-edge lock lock_pd),
        // leaving the instance aside: from registers and inputs, no psel.
        for e in 0..self.n() {
            self.fl[e].next = self.rq_q[e].q.val()
                | (self.rqf_acc.val() & (self.lbit_q[e].val() | (self.lk_e[e].val() & self.tp_lk_rqf.val())));
        }
        self.pe_rq.next = false;
        self.ps_rq.next = false;
        for e in 0..self.n() {
            self.pe_rq.next = self.pe_rq.val() | (self.sel_e[e].val() & self.fl[e].val());
            self.ps_rq.next = self.ps_rq.val() | (self.sel_s[e].val() & self.fl[e].val());
        }
        // A slot task held under back-pressure (no issue then) keeps its flag
        // and may be snapshotted (its lock gains lk_slot's bit); an issued one
        // has its entry's flag.
        self.slot_lbit.next = self.lk_slot.val() & self.tp_lk_rqf.val();
        for k in 0..self.tp_id.len() {
            if self.slot_lock_q[k].q.val() & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                self.slot_lbit.next = true;
            }
        }
        self.slot_held_rq.next = self.slot_v_q.q.val()
            & !self.out_ready.val()
            & (self.slot_rq_q.q.val() | (self.rqf_acc.val() & self.slot_lbit.val()));
        self.slot_rq_d.next = self.slot_held_rq.val();
        if self.issue.val() {
            self.slot_rq_d.next = (self.use_sel.val() & self.ps_rq.val()) | (!self.use_sel.val() & self.pe_rq.val());
        }
        // Some flag after the edge (= slot_rq_d | OR rq_d), written without the
        // pick: every resident entry's flag is after the edge in it or in the
        // slot (an issue needs a free slot, so none is held then), and the
        // instance only enters through `accept`: the entry it goes to, created
        // or appended, is flagged iff the flush is accepted for its tile pipe.
        self.flags_post.next = self.slot_held_rq.val() | (self.rqf_acc.val() & self.tp_in_rqf.val() & self.accept.val());
        for e in 0..self.n() {
            if self.valid_q[e].q.val() & self.fl[e].val() {
                self.flags_post.next = true;
            }
        }
        self.rq_busy_q.d.next = (self.rqf_acc.val() | self.rq_busy_q.q.val()) & self.flags_post.val();
        self.rqf_done_q.d.next = (self.rqf_acc.val() | self.rq_busy_q.q.val()) & !self.flags_post.val();
        if self.rqf_acc.val() {
            for b in 0..self.rqf_tp_q.len() {
                self.rqf_tp_q[b].d.next = self.rqf_tpipe.val().get_bit(b);
            }
        }
    }
}
