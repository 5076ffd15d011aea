//! Rule P1 of docs/blocks/task_combiner.md (docs/perf.md): the task combiner's performance
//! counters in the reference model, written from the rule's event list only. The counter rule
//! itself (saturating, cleared by `perf_clr`) is the shared [`crate::perf`].

use super::{Decisions, Mutation, Reason, TaskCombinerInputs, TaskCombinerModel, TaskCombinerParams};

/// The counters in `perf_sel` order; the last, `err_dep_ev`, only with `dep_tags`.
pub const NAMES: [&str; 13] = [
    "inst_acc", "tasks_out", "stall_in", "stall_drain", "stall_out",
    "out_full", "out_evict", "out_dep", "out_rqflush", "out_drain", "lock_hit", "rqf_acc",
    "err_dep_ev",
];

/// Indices into the counters.
pub const INST_ACC: usize = 0;
pub const TASKS_OUT: usize = 1;
pub const STALL_IN: usize = 2;
pub const STALL_DRAIN: usize = 3;
pub const STALL_OUT: usize = 4;
/// `out_full` .. `out_drain`: `OUT_BY_REASON + code - 1` for `out_reason` code 1..5.
pub const OUT_BY_REASON: usize = 5;
pub const LOCK_HIT: usize = 10;
pub const RQF_ACC: usize = 11;
pub const ERR_DEP_EV: usize = 12;

impl TaskCombinerParams {
    /// This config's counters: 12, and `err_dep_ev` with `dep_tags`.
    pub fn perf_names(&self) -> &'static [&'static str] {
        &NAMES[..if self.dep_tags > 0 { 13 } else { 12 }]
    }

    /// NCNT: the counters (0 without `perf_counters`).
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { self.perf_names().len() } else { 0 }
    }

    /// PSW, the width of `perf_sel`.
    pub fn perf_sel_w(&self) -> u32 {
        crate::perf::sel_width(self.perf_names().len())
    }
}

impl TaskCombinerModel {
    /// P1: the events of this cycle, in `perf_sel` order, from the registered state at the
    /// start of the cycle and this cycle's inputs (at the ports) and decisions `d`. With R2i
    /// `inst_acc` counts IR's instance entering (`d.accept`), the stalls are the ports'.
    pub(super) fn perf_events(&self, i: &TaskCombinerInputs, d: &Decisions) -> Vec<bool> {
        let in_ready = d.port_ready;
        // A valid not taken; the mutant counts the refusal whether or not anything is offered.
        let offered = i.in_valid || self.mutated(Mutation::StallWithoutValid);
        let handshake = self.slot.is_some() && i.out_ready;
        let taken = |r: Reason| handshake && self.slot.as_ref().is_some_and(|s| s.reason == r);
        let mut e = vec![false; self.p.perf_names().len()];
        e[INST_ACC] = d.accept;
        e[TASKS_OUT] = handshake;
        e[STALL_IN] = offered && !in_ready;
        e[STALL_DRAIN] = offered && i.drain_req;
        e[STALL_OUT] = self.slot.is_some() && !i.out_ready;
        for r in Reason::ALL {
            e[OUT_BY_REASON + r.code() as usize - 1] = taken(r);
        }
        e[LOCK_HIT] = d.lock_entry.is_some() || d.lock_slot;
        e[RQF_ACC] = d.rqf_accept;
        if let Some(x) = e.get_mut(ERR_DEP_EV) {
            *x = d.dep_illegal;
        }
        e
    }

    /// docs/perf.md "Counting" with this edge's events (`perf_clr` wins; the mutant lets the
    /// event of the clear's cycle through).
    pub(super) fn perf_count(&mut self, ev: &[bool], clear: bool) {
        crate::perf::count(&mut self.perf, ev, clear);
        if clear && self.mutated(Mutation::PerfClrLoses) {
            crate::perf::count(&mut self.perf, ev, false);
        }
    }
}

#[cfg(test)]
impl TaskCombinerModel {
    /// Preset counter `k` (the saturation test: 2^32 events are too many to drive).
    pub fn set_perf_for_test(&mut self, k: usize, v: u32) {
        self.perf[k] = v;
    }
}
