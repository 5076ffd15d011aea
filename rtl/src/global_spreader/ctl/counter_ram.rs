//! Part 7 of the controller's rules: NACK_CNT and ALLOC_CNT (R8, R11) in block RAM, and the
//! read data (R11).
//!
//! At most one of these counters counts per cycle (the request goes to one EU, which acks or
//! refuses it), so they need one read-modify-write port, not 5 × (types + 1) incrementers
//! in flip-flops. An event of cycle m is registered (stage 1, m+1: its word is read), then
//! written back plus one at the end of m+2 (stage 2). The RAM's read at the end of m+1 misses
//! only the write of that same edge, which stage 2 takes from `cw_*` instead. A register
//! read in cycle n of a counter takes the RAM copy `cnt_ram[1]` at the end of n and adds the
//! increments still in stages 1 and 2 of n, so `cfg_rdata` in n+1 is the counter's value at n,
//! exactly as a flip-flop counter gives it. A RAM has no reset: `wv_*` say which words were
//! written since reset, an unwritten word counts from 0.

use super::*;

impl hdl::Part<7> for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        self.c1_v_q.clock.next = self.clock.val();
        self.c1_n_q.clock.next = self.clock.val();
        self.c2_v_q.clock.next = self.clock.val();
        self.c2_n_q.clock.next = self.clock.val();
        self.c2_a_q.clock.next = self.clock.val();
        self.c2_wv_q.clock.next = self.clock.val();
        self.cw_v_q.clock.next = self.clock.val();
        self.cw_a_q.clock.next = self.clock.val();
        self.cw_d_q.clock.next = self.clock.val();
        self.rr_v_q.clock.next = self.clock.val();
        self.rr_wv_q.clock.next = self.clock.val();
        self.rr_c_q.clock.next = self.clock.val();
        for i in 0..self.cnt_ram.len() {
            self.cnt_ram[i].clock.next = self.clock.val();
        }

        // --- Stage 1: this cycle's ack (ALLOC_CNT[e][slot]) or refusal (NACK_CNT[e]).
        self.c1_v_q.d.next = (self.acked.val() | self.refused.val()) & !self.reset.val();
        self.c1_n_q.d.next = self.refused.val();
        self.c1_a.next = self.zero8.val();
        self.c1_wv.next = false;
        for e in 0..self.ar_ready.len() {
            self.c1_e_q[e].clock.next = self.clock.val();
            self.c2_e_q[e].clock.next = self.clock.val();
            self.wv_nack_q[e].clock.next = self.clock.val();
            self.c1_e_q[e].d.next = self.ack_m.val().get_bit(e) | self.rf_m.val().get_bit(e);
            self.c2_e_q[e].d.next = self.c1_e_q[e].q.val();
            if self.c1_e_q[e].q.val() & self.c1_n_q.q.val() {
                self.c1_a.next = self.c1_a.val() | self.w_nack[e].val();
                self.c1_wv.next = self.c1_wv.val() | self.wv_nack_q[e].q.val();
            }
            self.wv_nack_q[e].d.next = self.wv_nack_q[e].q.val() | (self.c2_v_q.q.val() & self.c2_n_q.q.val() & self.c2_e_q[e].q.val());
            if self.reset.val() {
                self.wv_nack_q[e].d.next = false;
            }
            for k in 0..self.occ_q.len() {
                self.wv_alloc_q[e][k].clock.next = self.clock.val();
                if self.c1_e_q[e].q.val() & !self.c1_n_q.q.val() & self.c1_k_q[k].q.val() {
                    self.c1_a.next = self.c1_a.val() | self.w_alloc[e][k].val();
                    self.c1_wv.next = self.c1_wv.val() | self.wv_alloc_q[e][k].q.val();
                }
                self.wv_alloc_q[e][k].d.next = self.wv_alloc_q[e][k].q.val()
                    | (self.c2_v_q.q.val() & !self.c2_n_q.q.val() & self.c2_e_q[e].q.val() & self.c2_k_q[k].q.val());
                if self.reset.val() {
                    self.wv_alloc_q[e][k].d.next = false;
                }
            }
        }
        for k in 0..self.occ_q.len() {
            self.c1_k_q[k].clock.next = self.clock.val();
            self.c2_k_q[k].clock.next = self.clock.val();
            self.c1_k_q[k].d.next = self.gnt_l[k].val();
            self.c2_k_q[k].d.next = self.c1_k_q[k].q.val();
        }

        // --- Stage 2: the word read at the end of stage 1 (or the last edge's write), plus one.
        self.c2_v_q.d.next = self.c1_v_q.q.val() & !self.reset.val();
        self.c2_n_q.d.next = self.c1_n_q.q.val();
        self.c2_a_q.d.next = self.c1_a.val();
        self.c2_wv_q.d.next = self.c1_wv.val();
        self.cnt_rd0.next = self.zero32.val();
        self.cnt_rd1.next = self.zero32.val();
        for b in 0..self.db32.len() {
            if self.cnt_ram[0].read_data[b].val() {
                self.cnt_rd0.next = self.cnt_rd0.val() | self.db32[b].val();
            }
            if self.cnt_ram[1].read_data[b].val() {
                self.cnt_rd1.next = self.cnt_rd1.val() | self.db32[b].val();
            }
        }
        self.cnt_new.next = self.one32.val();
        if self.c2_wv_q.q.val() {
            self.cnt_new.next = self.cnt_rd0.val() + self.one32.val();
        }
        if self.cw_v_q.q.val() & (self.cw_a_q.q.val() == self.c2_a_q.q.val()) {
            self.cnt_new.next = self.cw_d_q.q.val() + self.one32.val();
        }
        self.cw_v_q.d.next = self.c2_v_q.q.val() & !self.reset.val();
        self.cw_a_q.d.next = self.c2_a_q.q.val();
        self.cw_d_q.d.next = self.cnt_new.val();

        // --- A register read of a counter: its word and the increments the read misses.
        self.cfg_w.next = self.zero8.val();
        self.cfg_is.next = false;
        self.cfg_wv.next = false;
        for e in 0..self.ar_ready.len() {
            if self.cfg_addr.val() == self.a_nack[e].val() {
                self.cfg_w.next = self.cfg_w.val() | self.w_nack[e].val();
                self.cfg_is.next = true;
                self.cfg_wv.next = self.wv_nack_q[e].q.val();
            }
            for k in 0..self.occ_q.len() {
                if self.cfg_addr.val() == self.a_alloc[e][k].val() {
                    self.cfg_w.next = self.cfg_w.val() | self.w_alloc[e][k].val();
                    self.cfg_is.next = true;
                    self.cfg_wv.next = self.wv_alloc_q[e][k].q.val();
                }
            }
        }
        self.cnt_c.next = self.zero32.val();
        if self.c2_v_q.q.val() & (self.c2_a_q.q.val() == self.cfg_w.val()) {
            self.cnt_c.next = self.one32.val();
        }
        if self.c1_v_q.q.val() & (self.c1_a.val() == self.cfg_w.val()) {
            self.cnt_c.next = self.cnt_c.val() + self.one32.val();
        }
        self.rr_v_q.d.next = self.cfg_valid.val() & !self.cfg_we.val() & !self.reset.val() & self.cfg_is.val();
        self.rr_wv_q.d.next = self.cfg_wv.val();
        self.rr_c_q.d.next = self.cnt_c.val();

        // --- The two RAMs: every write to both; reads for stage 1 and for the register read.
        for i in 0..self.cnt_ram.len() {
            self.cnt_ram[i].write_enable.next = self.c2_v_q.q.val();
            self.cnt_ram[i].read_enable.next = true;
            for b in 0..self.ab8.len() {
                self.cnt_ram[i].write_address[b].next = (self.c2_a_q.q.val() & self.ab8[b].val()).any();
            }
            for b in 0..self.db32.len() {
                self.cnt_ram[i].write_data[b].next = (self.cnt_new.val() & self.db32[b].val()).any();
            }
        }
        for b in 0..self.ab8.len() {
            self.cnt_ram[0].read_address[b].next = (self.c1_a.val() & self.ab8[b].val()).any();
            self.cnt_ram[1].read_address[b].next = (self.cfg_w.val() & self.ab8[b].val()).any();
        }

        // --- Read data (R11): the other registers' value, or the counter's.
        self.cnt_out.next = self.zero32.val();
        if self.rr_v_q.q.val() {
            self.cnt_out.next = self.rr_c_q.q.val();
            if self.rr_wv_q.q.val() {
                self.cnt_out.next = self.rr_c_q.q.val() + self.cnt_rd1.val();
            }
        }
        self.cfg_rdata.next = self.rdata_q.q.val() | self.cnt_out.val();
    }
}
