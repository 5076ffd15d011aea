//! Contract R16-R17 (`docs/perf.md`): the performance counters and the error clear of the
//! reference model, written from the contract's event list only.

/// The counters in `perf_sel` order (contract R16, docs/perf.md).
pub const PERF_NAMES: [&str; 9] =
    ["frag_acc", "grp_out", "rsp_out", "stall_frag", "stall_grp", "stall_me", "err_proto_ev", "err_xlane_ev", "stall_slot"];

/// Indices into [`PERF_NAMES`].
pub const FRAG_ACC: usize = 0;
pub const GRP_OUT: usize = 1;
pub const RSP_OUT: usize = 2;
pub const STALL_FRAG: usize = 3;
pub const STALL_GRP: usize = 4;
pub const STALL_ME: usize = 5;
pub const ERR_PROTO_EV: usize = 6;
pub const ERR_XLANE_EV: usize = 7;
pub const STALL_SLOT: usize = 8;

/// The events of one cycle, R16, from the registered state at the start of the cycle and
/// this cycle's inputs (the error events come from the rules' own error detection).
#[derive(Debug, Clone, Copy, Default)]
pub struct PerfEvents {
    pub frag_valid: bool,
    pub frag_ready: bool,
    pub grp_valid: bool,
    pub grp_ready: bool,
    pub rsp_valid: bool,
    pub rsp_ready: bool,
    pub me_valid: bool,
    pub me_ready: bool,
    pub free_cnt: usize,
    pub proto_err: bool,
    pub xlane_err: bool,
}

impl PerfEvents {
    /// Event k of the cycle, in [`PERF_NAMES`] order.
    pub fn vector(&self) -> [bool; 9] {
        let mut e = [false; 9];
        e[FRAG_ACC] = self.frag_valid && self.frag_ready;
        e[GRP_OUT] = self.grp_valid && self.grp_ready;
        e[RSP_OUT] = self.rsp_valid && self.rsp_ready;
        e[STALL_FRAG] = self.frag_valid && !self.frag_ready;
        e[STALL_GRP] = self.grp_valid && !self.grp_ready;
        e[STALL_ME] = self.me_valid && !self.me_ready;
        e[ERR_PROTO_EV] = self.proto_err;
        e[ERR_XLANE_EV] = self.xlane_err;
        e[STALL_SLOT] = self.frag_valid && !self.frag_ready && self.free_cnt == 0;
        e
    }
}

/// R16's counter rule and `perf_val`: the shared ones of docs/perf.md.
pub use crate::perf::{count, read};
