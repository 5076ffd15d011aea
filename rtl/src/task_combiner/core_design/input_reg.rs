//! Part 9 of the core's rules: `registered_input` (contract R2i; nothing here without it). The
//! input register IR loads the inputs' instance when the port takes it, empties when its
//! instance enters the table, and otherwise holds; `eq_q` holds, per entry, "the entry's key
//! (type, state) equals IR's", written at the edge that loads IR with the key the entry has
//! after that edge: IR's own key for the entry its instance creates at this edge, else the
//! entry's registered key (only a creation changes a key). The match of the next cycle is then
//! one AND of registers, the compare being done a cycle ahead, beside the table's work.

use super::*;

impl hdl::Part<9> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        for z in 0..self.ir_v_q.len() {
            self.ir_load[z].next = self.in_valid.val() & self.in_ready.val();
            self.ir_v_q[z].clock.next = self.clock.val();
            self.ir_v_q[z].d.next =
                !self.reset.val() & (self.ir_load[z].val() | (self.ir_v_q[z].q.val() & !self.accept.val()));
        }
        for b in 0..self.ir_stype_q.len() {
            self.ir_stype_q[b].clock.next = self.clock.val();
            self.ir_stype_q[b].d.next = self.ir_stype_q[b].q.val();
            for z in 0..self.ir_load.len() {
                if self.ir_load[z].val() {
                    self.ir_stype_q[b].d.next = self.in_stype.val().get_bit(b);
                }
            }
        }
        for b in 0..self.ir_state_q.len() {
            self.ir_state_q[b].clock.next = self.clock.val();
            self.ir_state_q[b].d.next = self.ir_state_q[b].q.val();
            for z in 0..self.ir_load.len() {
                if self.ir_load[z].val() {
                    self.ir_state_q[b].d.next = self.in_state.val().get_bit(b);
                }
            }
        }
        for b in 0..self.ir_tp_q.len() {
            self.ir_tp_q[b].clock.next = self.clock.val();
            self.ir_tp_q[b].d.next = self.ir_tp_q[b].q.val();
            for z in 0..self.ir_load.len() {
                if self.ir_load[z].val() {
                    self.ir_tp_q[b].d.next = self.in_tpipe.val().get_bit(b);
                }
            }
        }
        for b in 0..self.ir_ref_q.len() {
            self.ir_ref_q[b].clock.next = self.clock.val();
            self.ir_ref_q[b].d.next = self.ir_ref_q[b].q.val();
            for z in 0..self.ir_load.len() {
                if self.ir_load[z].val() {
                    self.ir_ref_q[b].d.next = self.in_ref[b].val();
                }
            }
        }
        for k in 0..self.ir_dtv_q.len() {
            self.ir_dtv_q[k].clock.next = self.clock.val();
            self.ir_dtv_q[k].d.next = self.ir_dtv_q[k].q.val();
            for b in 0..self.w_ent.len() {
                self.ir_dte_q[k][b].clock.next = self.clock.val();
                self.ir_dte_q[k][b].d.next = self.ir_dte_q[k][b].q.val();
            }
            for b in 0..self.w_gen.len() {
                self.ir_dtg_q[k][b].clock.next = self.clock.val();
                self.ir_dtg_q[k][b].d.next = self.ir_dtg_q[k][b].q.val();
            }
            for z in 0..self.ir_load.len() {
                if self.ir_load[z].val() {
                    self.ir_dtv_q[k].d.next = self.dt_vld[k].val();
                    for b in 0..self.w_ent.len() {
                        self.ir_dte_q[k][b].d.next = self.dt_ent[k].val().get_bit(b);
                    }
                    for b in 0..self.w_gen.len() {
                        self.ir_dtg_q[k][b].d.next = self.dt_gen[k].val().get_bit(b);
                    }
                }
            }
        }
        // The key compare of the next cycle: both compares from registers and inputs, the late
        // `created` only selects.
        for z in 0..self.eq_ir.len() {
            self.eq_ir[z].next = (self.r_stype[z].val() == self.in_stype.val()) & (self.r_state[z].val() == self.in_state.val());
        }
        for e in 0..self.eq_q.len() {
            self.eq_in[e].next = (self.stype_v[e].val() == self.in_stype.val()) & (self.state_v[e].val() == self.in_state.val());
            self.eq_q[e].clock.next = self.clock.val();
            self.eq_q[e].d.next = self.eq_q[e].q.val();
            for z in 0..self.ir_load.len() {
                if self.ir_load[z].val() {
                    self.eq_q[e].d.next = self.eq_in[e].val();
                    if self.created[e].val() {
                        self.eq_q[e].d.next = self.eq_ir[z].val();
                    }
                }
            }
        }
    }
}
