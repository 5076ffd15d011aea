//! Rule P1 of docs/blocks/branch_stack.md (`perf_counters`, docs/perf.md): the events of one
//! cycle, written from the block's rules (the [`StackEffect`] of the cycle and its outputs)
//! only. The counter rule itself is the shared one, [`crate::perf`].

use super::{BranchStackInputs, BranchStackOutputs, StackEffect};

/// The counters in `perf_sel` order (docs/perf.md).
pub const PERF_NAMES: [&str; 10] =
    ["push", "pop", "branch", "taken", "stall_cc", "stall_pc", "err_ovf_ev", "err_udf_ev", "err_port_ev", "err_multi_ev"];

/// Indices into [`PERF_NAMES`].
pub const PUSH: usize = 0;
pub const POP: usize = 1;
pub const BRANCH: usize = 2;
pub const TAKEN: usize = 3;
pub const STALL_CC: usize = 4;
pub const STALL_PC: usize = 5;
pub const ERR_OVF_EV: usize = 6;
pub const ERR_UDF_EV: usize = 7;
pub const ERR_PORT_EV: usize = 8;
pub const ERR_MULTI_EV: usize = 9;

/// Event k of the cycle, in [`PERF_NAMES`] order, from the cycle's stack effect `e`, its
/// outputs `o` (the state at the start of the cycle) and its inputs `i`.
pub fn events(e: &StackEffect, o: &BranchStackOutputs, i: &BranchStackInputs) -> [bool; 10] {
    let mut v = [false; 10];
    // The producer's op as applied: the port limit (dropped at "drop", held at "stall")
    // and an arbitration loser apply nothing.
    v[PUSH] = e.push;
    v[POP] = e.op.pops() && !e.suppressed;
    v[BRANCH] = i.de_br_vld;
    v[TAKEN] = o.br_taken;
    // "stall" only (cc_ready is empty at "drop"): some stage is held.
    v[STALL_CC] = o.cc_ready.iter().any(|&r| !r);
    v[STALL_PC] = i.pc_hold;
    // What sets each sticky flag at this edge (port and multi never rise at "stall").
    v[ERR_OVF_EV] = e.err.ovf;
    v[ERR_UDF_EV] = e.err.udf;
    v[ERR_PORT_EV] = e.err.port;
    v[ERR_MULTI_EV] = e.err.multi;
    v
}
