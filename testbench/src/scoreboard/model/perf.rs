//! Rules SB3-SB4 of docs/blocks/scoreboard.md (docs/perf.md): the scoreboard's performance
//! counters and error clear in the reference model, written from the rules' event list only.

/// The counters before the per-port ones, in `perf_sel` order; counter `FIXED.len() + p` is
/// `cpl_<p>` (a completion on port p).
pub const FIXED: [&str; 6] = ["issue", "stall_issue", "stall_dep", "stall_sat", "stall_fetch", "err_underflow_ev"];

/// Indices into the counters.
pub const ISSUE: usize = 0;
pub const STALL_ISSUE: usize = 1;
pub const STALL_DEP: usize = 2;
pub const STALL_SAT: usize = 3;
pub const STALL_FETCH: usize = 4;
pub const ERR_UNDERFLOW_EV: usize = 5;
pub const CPL_0: usize = 6;

/// Every counter's name for `num_cpl` completion ports.
pub fn names(num_cpl: usize) -> Vec<String> {
    FIXED.iter().map(|n| n.to_string()).chain((0..num_cpl).map(|p| format!("cpl_{p}"))).collect()
}

/// The facts of one cycle SB3's events are made of (registered state at the start of the
/// cycle and this cycle's inputs).
#[derive(Debug, Clone, Default)]
pub struct PerfEvents {
    pub iss_valid: bool,
    pub iss_ready: bool,
    /// `iss_tg` names a group and some tracker of `iss_dep_mask` is non-zero there.
    pub dep_busy: bool,
    /// `iss_trk_en`, and `iss_trk` names a tracker at its `max_count` in that group.
    pub trk_at_max: bool,
    /// `iss_tg` names a group whose `fetch_ok` is 0.
    pub fetch_closed: bool,
    /// A completion found nothing to count down (what sets `err_underflow`).
    pub underflow: bool,
    pub cpl_valid: Vec<bool>,
}

impl PerfEvents {
    /// Event k of the cycle, in `perf_sel` order. A refused issue counts every cause that
    /// holds (each alone refuses it).
    pub fn vector(&self) -> Vec<bool> {
        let mut e = vec![false; FIXED.len()];
        e[ISSUE] = self.iss_valid && self.iss_ready;
        e[STALL_ISSUE] = self.iss_valid && !self.iss_ready;
        e[STALL_DEP] = self.iss_valid && self.dep_busy;
        e[STALL_SAT] = self.iss_valid && self.trk_at_max;
        e[STALL_FETCH] = self.iss_valid && self.fetch_closed;
        e[ERR_UNDERFLOW_EV] = self.underflow;
        e.extend(&self.cpl_valid);
        e
    }
}
