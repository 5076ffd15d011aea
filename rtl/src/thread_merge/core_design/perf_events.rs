//! Parts 7 and 8 of the core's rules: the counter bank's wiring (the shared
//! [`crate::perf::perf_wiring`]: reset clears like perf_clr) and R16's performance-counter
//! events. With `perf_counters` only: without it `perf` is empty and these parts emit nothing.
//! The events are one macro, [`perf_events`], which the sets' core ([`super::super::ThreadMergeWays`],
//! R20) uses too: both name the signals the rules use at the edge alike.

use super::*;

perf::perf_wiring!([const L: usize] ThreadMergeCore<L>, 7);

/// `impl hdl::Part<$k>` for a thread-merge core: R16's events of this cycle, in `perf_sel`
/// order (docs/perf.md), from the signals its rules use at the edge (`f_acc`, `gv_q`, `rv_q`,
/// `rsp_free`, `perr`, `xl_hit`, `any_free`).
macro_rules! perf_events {
    ([$($gen:tt)*] $ty:ty, $k:literal) => {
        impl<$($gen)*> $crate::hdl::Part<$k> for $ty {
            #[hdl_gen]
            fn update(&mut self) {
                for i in 0..self.perf.len() {
                    // 0 frag_acc, 1 grp_out, 2 rsp_out: handshakes.
                    self.perf[i].ev[0].next = self.f_acc.val();
                    self.perf[i].ev[1].next = self.gv_q.q.val() & self.grp_ready.val();
                    self.perf[i].ev[2].next = self.rv_q.q.val() & self.rsp_ready.val();
                    // 3 stall_frag, 4 stall_grp, 5 stall_me: a valid not taken.
                    self.perf[i].ev[3].next = self.frag_valid.val() & !self.frag_ready.val();
                    self.perf[i].ev[4].next = self.gv_q.q.val() & !self.grp_ready.val();
                    self.perf[i].ev[5].next = self.me_valid.val() & !self.rsp_free.val();
                    // 6 err_proto_ev, 7 err_xlane_ev: what sets the sticky flags at this edge.
                    self.perf[i].ev[6].next = self.perr.val();
                    self.perf[i].ev[7].next = self.xl_hit.val();
                    // 8 stall_slot: a fragment refused while no slot is free.
                    self.perf[i].ev[8].next = self.frag_valid.val() & !self.frag_ready.val() & !self.any_free.val();
                }
            }
        }
    };
}
pub(crate) use perf_events;

perf_events!([const L: usize] ThreadMergeCore<L>, 8);
