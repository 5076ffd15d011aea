//! Rules G1-G2 of docs/blocks/global_spreader.md (docs/perf.md): the global spreader's
//! performance counters in the reference model, written from the rules' event list only. The
//! counter rule itself (saturation, clear) is the shared [`crate::perf`].

use super::{ones, Decision, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams};

/// The counters in `perf_sel` order, the same in every config (rule G1).
pub const NAMES: [&str; 17] = [
    "vertex", "triangle", "pixel", "patch",
    "stall_vertex", "stall_triangle", "stall_pixel", "stall_patch", "stall_blocked", "stall_no_eu",
    "credit", "release",
    "err_vdt_miss_ev", "err_pt_miss_ev", "err_malformed_ev", "err_credit_ev", "err_release_ev",
];

/// Index of the dispatches of type code t is `t`; of the channel stalls of type t, `STALL + t`.
pub const STALL: usize = 4;
pub const STALL_BLOCKED: usize = 8;
pub const STALL_NO_EU: usize = 9;
pub const CREDIT: usize = 10;
pub const RELEASE: usize = 11;
/// `ERR_EV + k` is the event of error flag k (`ERR_VDT_MISS` … `ERR_RELEASE` order).
pub const ERR_EV: usize = 12;

/// G1: the events of cycle m, from the decision on the state at m (`d`, `o` its outputs), the
/// inputs of m, whether the request is acked, and the flags this edge sets (`set`, what R2,
/// R8-R10 detect).
pub fn events(
    p: &GlobalSpreaderParams,
    d: &Decision,
    o: &GlobalSpreaderOutputs,
    i: &GlobalSpreaderInputs,
    acked: bool,
    set: &[bool; 5],
) -> Vec<bool> {
    let mut e = vec![false; NAMES.len()];
    let granted = d.grant.as_ref().map(|g| g.req.ty());
    if let (true, Some(t)) = (acked, granted) {
        e[t] = true;
    }
    for t in (0..4).filter(|&t| p.has(t) && i.valid(t)) {
        e[STALL + t] = !o.ready(t);
        // The slot holds a packet (it has an evaluation) that is not granted this cycle.
        if let (Some(ev), false) = (&d.evals[t], granted == Some(t)) {
            if ev.blocked {
                e[STALL_BLOCKED] = true;
            } else if ev.sel.is_none() {
                e[STALL_NO_EU] = true;
            }
        }
    }
    let eus = ones(p.eus as u32);
    e[CREDIT] = i.cr_valid & eus != 0;
    e[RELEASE] = (p.has_vdt() && i.vr_valid & eus != 0) || (p.has_pt() && i.pr_valid & eus != 0);
    e[ERR_EV..].copy_from_slice(set);
    e
}
