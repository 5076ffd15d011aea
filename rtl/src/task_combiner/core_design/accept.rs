//! Part 2 of the core's rules: R2, the instance's match, the first free entry, `in_ready`, its
//! lane, fullness and tag (the contract's combinational accept path). With `registered_input`
//! (R2i) each rule that reads the instance is followed by its version for the input register's
//! instance (the loops over `ir_v_q`, empty without the key, so that the Verilog of the block
//! without it stays as it was): the match is `eq_q`, and `in_ready` is the port's.

use super::*;

impl hdl::Part<2> for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ------------------------------------------------------------------
        // R2i: the input register's type, state, tile pipe and producer tags as numbers.
        // ------------------------------------------------------------------
        for z in 0..self.ir_v_q.len() {
            self.r_stype[z].next = self.no_stype.val();
            for b in 0..self.ir_stype_q.len() {
                if self.ir_stype_q[b].q.val() {
                    self.r_stype[z].next = self.r_stype[z].val() | self.w_stype[b].val();
                }
            }
            self.r_state[z].next = self.no_state.val();
            for b in 0..self.ir_state_q.len() {
                if self.ir_state_q[b].q.val() {
                    self.r_state[z].next = self.r_state[z].val() | self.w_state[b].val();
                }
            }
            self.r_tpipe[z].next = self.no_tp[z].val();
            for b in 0..self.ir_tp_q.len() {
                if self.ir_tp_q[b].q.val() {
                    self.r_tpipe[z].next = self.r_tpipe[z].val() | self.w_tp[b].val();
                }
            }
        }
        for k in 0..self.ir_dtv_q.len() {
            self.r_dt_ent[k].next = self.no_ent.val();
            self.r_dt_gen[k].next = self.no_gen.val();
            for b in 0..self.w_ent.len() {
                if self.ir_dte_q[k][b].q.val() {
                    self.r_dt_ent[k].next = self.r_dt_ent[k].val() | self.w_ent[b].val();
                }
            }
            for b in 0..self.w_gen.len() {
                if self.ir_dtg_q[k][b].q.val() {
                    self.r_dt_gen[k].next = self.r_dt_gen[k].val() | self.w_gen[b].val();
                }
            }
        }

        // ------------------------------------------------------------------
        // R2: match m, first free entry f, in_ready, in_tag, in_lane.
        // ------------------------------------------------------------------
        self.m_found.next = false;
        self.f_found.next = false;
        for e in 0..self.n() {
            self.mhit[e].next = self.open[e].val()
                & (self.stype_v[e].val() == self.in_stype.val())
                & (self.state_v[e].val() == self.in_state.val());
            for _z in 0..self.ir_v_q.len() {
                // R2i: the register's key, compared at the edge that loaded it.
                self.mhit[e].next = self.open[e].val() & self.eq_q[e].q.val();
            }
            if self.mhit[e].val() {
                self.m_found.next = true;
            }
            self.fsel[e].next = !self.valid_q[e].q.val() & !self.f_found.val();
            if !self.valid_q[e].q.val() {
                self.f_found.next = true;
            }
        }
        self.in_ready.next = !self.drain_req.val() & (self.m_found.val() | self.f_found.val());
        self.accept.next = self.in_valid.val() & self.in_ready.val();
        for z in 0..self.ir_v_q.len() {
            // R2i: the register's instance enters (while drain_req too); the port takes one
            // when the register is empty or its instance enters.
            self.accept.next = self.ir_v_q[z].q.val() & (self.m_found.val() | self.f_found.val());
            self.in_tag_valid[z].next = self.accept.val();
            self.in_ready.next = !self.drain_req.val() & (!self.ir_v_q[z].q.val() | self.m_found.val() | self.f_found.val());
        }
        // (mhit[e] implies m_found and fsel[e] f_found: the per-entry strobes
        // skip the OR over the entries where they can.)
        for e in 0..self.n() {
            self.created[e].next = self.in_valid.val() & !self.drain_req.val() & !self.m_found.val() & self.fsel[e].val();
            self.appended[e].next = self.in_valid.val() & !self.drain_req.val() & self.mhit[e].val();
            for z in 0..self.ir_v_q.len() {
                self.created[e].next = self.ir_v_q[z].q.val() & !self.m_found.val() & self.fsel[e].val();
                self.appended[e].next = self.ir_v_q[z].q.val() & self.mhit[e].val();
            }
        }
        // Lane of the instance: count[m], or 0 in a new entry; the count after it.
        self.cnt_m.next = self.no_cnt.val();
        for e in 0..self.n() {
            if self.mhit[e].val() {
                self.cnt_m.next = self.cnt_m.val() | self.count_v[e].val();
            }
        }
        // Fullness: an appended entry is full when its count + 1 reaches the
        // capacity of its type (from registers, per entry); a created one when
        // the capacity of the instance's type is 1.
        self.full_in.next = false;
        for x in 0..self.stype_id.len() {
            if (self.in_stype.val() == self.stype_id[x].val()) & self.cap_one[x].val() {
                self.full_in.next = true;
            }
        }
        for z in 0..self.ir_v_q.len() {
            self.full_in.next = false;
            for x in 0..self.stype_id.len() {
                if (self.r_stype[z].val() == self.stype_id[x].val()) & self.cap_one[x].val() {
                    self.full_in.next = true;
                }
            }
        }
        for b in 0..self.in_lane.len() {
            self.in_lane[b].next = self.cnt_m.val().get_bit(b);
        }
        // Tag: {gen[m], m}, or {gen[f] + 1, f}.
        for b in 0..self.w_ent.len() {
            self.t_ent[b].next = false;
            self.f_ent[b].next = false;
            for e in 0..self.n() {
                if self.mhit[e].val() & self.ent_bit[e][b].val() {
                    self.t_ent[b].next = true;
                }
                if self.fsel[e].val() & self.ent_bit[e][b].val() {
                    self.f_ent[b].next = true;
                }
            }
            if !self.m_found.val() {
                self.t_ent[b].next = self.f_ent[b].val();
            }
            self.in_tag_ent[b].next = self.t_ent[b].val();
        }
        for b in 0..self.w_gen.len() {
            self.gen_m[b].next = false;
            self.gen_f[b].next = false;
            for e in 0..self.n() {
                if self.mhit[e].val() & self.gen_q[e][b].q.val() {
                    self.gen_m[b].next = true;
                }
                if self.fsel[e].val() & self.gen_nx[e][b].val() {
                    self.gen_f[b].next = true;
                }
            }
        }
        for b in 0..self.w_gen.len() {
            self.t_gen[b].next = self.gen_f[b].val();
            if self.m_found.val() {
                self.t_gen[b].next = self.gen_m[b].val();
            }
            self.in_tag_gen[b].next = self.t_gen[b].val();
        }
    }
}
