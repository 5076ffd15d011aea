//! Part 4 of the core's rules: the spawn descriptor register (R7), the slots' next state, the
//! status registers and the reset (R15).

use super::*;

impl<const L: usize> hdl::Part<4> for ThreadMergeCore<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // The spawn descriptor register (R7): loaded by an emission, held until taken.
        // The payload loads whenever the register can (out_ok): without an emission
        // grp_valid is 0 next and the payload is not looked at (§5).
        if self.emit.val() {
            self.gv_q.d.next = true;
        } else if self.grp_ready.val() {
            self.gv_q.d.next = false;
        }
        if self.out_ok.val() {
            self.gpaired_q.d.next = self.paired_x.val();
            self.gacov_q.d.next = self.e_acov.val();
            self.gbcov_q.d.next = self.pbcov.val();
            self.gperm_q.d.next = self.pperm.val();
        }
        for k in 0..self.gslot_q.len() {
            self.gslot_q[k].clock.next = self.clock.val();
            self.gslot_q[k].d.next = self.gslot_q[k].q.val();
            if self.out_ok.val() {
                self.gslot_q[k].d.next = false;
                for s in 0..self.sa_q.len() {
                    if self.alloc_here[s].val() & self.sbit[s][k].val() {
                        self.gslot_q[k].d.next = true;
                    }
                }
            }
        }
        for b in 0..self.atag.len() {
            self.gatag_q[b].clock.next = self.clock.val();
            self.gbtag_q[b].clock.next = self.clock.val();
            self.gatag_q[b].d.next = self.gatag_q[b].q.val();
            self.gbtag_q[b].d.next = self.gbtag_q[b].q.val();
            if self.out_ok.val() {
                self.gatag_q[b].d.next = self.atag[b].val();
                self.gbtag_q[b].d.next = self.frag_tag[b].val();
            }
        }

        // ---- The slots' next state: R8-R12's result, then the spawn (R7), then reset.
        for s in 0..self.sa_q.len() {
            self.sa_q[s].d.next = self.sa[s].val();
            self.sb_q[s].d.next = self.sb[s].val();
            self.acta_q[s].d.next = self.acta[s].val();
            self.actb_q[s].d.next = self.actb[s].val();
            self.owea_q[s].d.next = self.owea[s].val();
            self.oweb_q[s].d.next = self.oweb[s].val();
            self.broken_q[s].d.next = self.brk[s].val();
            self.merged_q[s].d.next = self.mrg[s].val();
            // The slot an emission would take is FREE, so no event touches it and its
            // payload is not looked at unless the emission happens (R13, §5): it loads
            // every cycle; only the states wait for the emission.
            if self.alloc_here[s].val() {
                self.acta_q[s].d.next = self.e_acov.val();
                self.actb_q[s].d.next = self.pbcov.val();
                self.paired_q[s].d.next = self.paired_x.val();
                self.broken_q[s].d.next = false;
                self.merged_q[s].d.next = false;
                self.perm_q[s].d.next = self.pperm.val();
                for b in 0..self.atag.len() {
                    self.taga_q[s][b].d.next = self.atag[b].val();
                    self.tagb_q[s][b].d.next = self.frag_tag[b].val();
                }
            }
            // The emission into the slot (FREE, so its R8-R11 state is FREE): A, and B
            // of a pair, become PRE, ORed into the state bits.
            self.emit_s[s].next = self.alloc_here[s].val() & self.out_ok.val() & (self.flush_now.val() | self.fterm.val());
            self.bem_s[s].next = self.alloc_here[s].val() & self.out_ok.val() & self.paired_x.val();
            if self.emit_s[s].val() {
                self.sa_q[s].d.next = self.sa[s].val() | self.s_pre.val();
            }
            if self.bem_s[s].val() {
                self.sb_q[s].d.next = self.sb[s].val() | self.s_pre.val();
            }
            // The wait counter (internal, R11): +1 (bitwise) at every edge where a member
            // is WAIT in S0, 0 at every other edge. A park happens only with no member
            // WAIT, so the count starts at 0 with the wait; a member still WAIT at count
            // merge_timeout - 1 times out, so the count never runs past it while it
            // matters. The counter depends on the registers only.
            self.wcar.next = true;
            for k in 0..self.w_wait.len() {
                self.wait_q[s][k].d.next = (self.wait_q[s][k].q.val() ^ self.wcar.val())
                    & (self.aw[s].val() | self.bw[s].val())
                    & !self.reset.val();
                self.wcar.next = self.wcar.val() & self.wait_q[s][k].q.val();
            }
            if self.reset.val() {
                self.sa_q[s].d.next = self.s_free.val();
                self.sb_q[s].d.next = self.s_free.val();
                self.owea_q[s].d.next = false;
                self.oweb_q[s].d.next = false;
            }
        }

        // ---- Status registers, and reset of the rest (R15).
        // merge_count is the count register plus a pending bit that holds this edge's
        // merge event: the wide enable never waits for the event (it is an OR over the
        // slots of late inputs), and the one incrementer feeds both the port and the
        // register, so the port still shows the merge in the cycle after the edge.
        self.mpend_q.d.next = self.merge_ev.val();
        self.mcount.next = self.mcount_q.q.val();
        if self.mpend_q.q.val() {
            self.mcount.next = self.mcount_q.q.val() + self.one32.val();
        }
        self.mcount_q.d.next = self.mcount.val();
        // err_proto the same way: the sticky flag plus this edge's error, so the flag's
        // enable is a register.
        self.epend_q.d.next = self.perr.val();
        self.eproto_q.d.next = self.eproto_q.q.val() | self.epend_q.q.val();
        // R17 err_clr (perf_counters only): both flags clear, but an error of this
        // edge still sets its flag (epend_q; xl_hit below).
        for i in 0..self.err_clr.len() {
            if self.err_clr[i].val() {
                self.eproto_q.d.next = false;
                self.exl_q.d.next = false;
            }
        }
        if self.xl_hit.val() {
            self.exl_q.d.next = true;
        }
        if self.reset.val() {
            self.pv_q.d.next = false;
            self.gv_q.d.next = false;
            self.rv_q.d.next = false;
            self.mcount_q.d.next = self.zero32.val();
            self.mpend_q.d.next = false;
            self.eproto_q.d.next = false;
            self.epend_q.d.next = false;
            self.exl_q.d.next = false;
        }
    }
}
