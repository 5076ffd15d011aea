//! Verification of the `warpgen_task_combiner` block (contract `docs/contracts/task_combiner.md`,
//! spec `docs/spec/task_combiner.md`: the task combining unit of the patent
//! "Task combining for SIMD processing", §4.3/§4.4/§5/§10):
//!
//! * [`model`] — the reference model, written from the contract and the spec only;
//! * [`directed`] — the directed cases of spec §11.2 under contract §6 (T01–T28, S1/S2
//!   of §11.4 and cases for rules only the contract states);
//! * [`stimulus`] — seeded random stimulus, functional coverage and the [`stimulus::Conservation`]
//!   checker (spec A3, A5–A7, A10 from the ports alone);
//! * [`workload`] — the synthetic tile workload, the naive single-open-task baseline and the
//!   utilization measurement.
//!
//! Every device under test (the model itself, or the Verilated RTL) is driven through
//! [`Dut`]. [`first_difference`] compares two outputs as lockstep does (contract
//! §5: the qualified ports only when they mean something).
//!
//! Readings of the contract chosen where it leaves room, or details that are easy to
//! read otherwise (the RTL must make the same ones; directed cases in brackets):
//!
//! 1. R7 × R10: a render-queue flush accepted while `drain_req` is high makes its OPEN
//!    snapshot members PENDING(RQFLUSH), the others PENDING(DRAIN). R7's "OPEN post-edge
//!    (ignoring this rule)" is read as "not made PENDING at this edge by a trigger of
//!    higher priority in R10's list" (FULL, EVICT, DEP); DRAIN ranks below RQFLUSH [X04].
//! 2. D3: a producer that is PENDING but not moving into the slot at the accept edge
//!    (e.g. a full task behind a blocked slot) is resident and becomes a dependency; only
//!    the entry moving into the slot at that edge is excluded [X08, T23, T28].
//! 3. R6: `lk_hit` is 1 for a lock that names the slot task even when that task leaves at
//!    the same edge (its bit is lost); a lock naming the entry that moves into the slot at
//!    that edge hits and the bit goes with it [X01]. A lock is compared with the
//!    registered tags, so it never hits an entry created at the same edge.
//! 4. R7: the snapshot's slot member is the post-edge slot task: a slot task that
//!    handshakes at the acceptance edge is not a member (an S of only that task is empty:
//!    `rqf_done` in n+1), one that stays is (rq_busy until its handshake) [T14].
//!    `rqf_done_tpipe` is updated by every accepted flush, empty or not [X05, T26].
//! 5. R4: "a task has been issued since reset" = a task has moved into the slot (not: has
//!    been handshaked); `last_state` is the state of the last task moved into the slot.
//! 6. Dependency rows of FREE entries are 0 (lockstep compares `st_dep` every cycle): a
//!    task moves into the slot only with a zero row, and its column is cleared then.
//! 7. Inputs are taken modulo their port widths. An out-of-range shader type (protocol
//!    error) is treated as capacity = width with no dependencies; an out-of-range tile
//!    pipe sets no lockmask bit. Outputs without meaning (contract §5 don't-cares) are 0.
//! 8. R2i × R8 (`registered_input`): R8 acts on the entries OPEN in the registered state
//!    (R1), so an entry that IR's instance creates at an edge where `drain_req` is high is OPEN
//!    after that edge and becomes PENDING(DRAIN) at the next one (as R2i now states); an
//!    instance appended to an entry OPEN before the edge drains with it at that edge. `in_tag`/`in_lane` are 0 when `in_tag_valid` is 0 [X14].

pub mod directed;
pub mod model;
pub mod stimulus;
#[cfg(test)]
mod tests;
pub mod workload;
pub mod lockstep;
pub mod rtl;

pub use model::{
    Mask, Policy, Reason, Status, TaskCombinerInputs, TaskCombinerModel, TaskCombinerOutputs,
    TaskCombinerParams,
};
pub use crate::kit::Dut;
pub use lockstep::TaskCombiner;

/// The reference model behind the [`Dut`] interface.
pub type ModelDut = crate::kit::ModelDut<TaskCombiner>;

/// The first difference between expected `e` and actual `a` outputs that lockstep counts
/// (contract §5), as "port: expected …, actual …". `inp` are the cycle's inputs (they
/// qualify `in_tag`/`in_lane`; with `registered_input` `in_tag_valid` does).
pub fn first_difference(
    p: &TaskCombinerParams,
    inp: &TaskCombinerInputs,
    e: &TaskCombinerOutputs,
    a: &TaskCombinerOutputs,
) -> Option<String> {
    fn diff(name: String, x: impl Into<Mask>, y: impl Into<Mask>) -> Option<String> {
        let (x, y) = (x.into(), y.into());
        (x != y).then(|| format!("{name}: expected {x:#x}, actual {y:#x}"))
    }
    let b = |v: bool| v as Mask;
    let always = [
        ("in_ready", b(e.in_ready), b(a.in_ready)),
        ("lk_hit", b(e.lk_hit), b(a.lk_hit)),
        ("rqf_ready", b(e.rqf_ready), b(a.rqf_ready)),
        ("rqf_done", b(e.rqf_done), b(a.rqf_done)),
        ("drain_done", b(e.drain_done), b(a.drain_done)),
        ("out_valid", b(e.out_valid), b(a.out_valid)),
        ("perf_tasks", e.perf_tasks.into(), a.perf_tasks.into()),
        ("perf_lanes", e.perf_lanes.into(), a.perf_lanes.into()),
        ("perf_val", e.perf_val.into(), a.perf_val.into()),
        ("err_dep", b(e.err_dep), b(a.err_dep)),
        ("st_valid", e.st_valid, a.st_valid),
        ("st_open", e.st_open, a.st_open),
        ("st_pending", e.st_pending, a.st_pending),
    ];
    for (name, x, y) in always {
        if let Some(d) = diff(name.to_string(), x, y) {
            return Some(d);
        }
    }
    for i in 0..p.entries {
        let (x, y) = (
            e.st_dep.get(i).copied().unwrap_or(0),
            a.st_dep.get(i).copied().unwrap_or(0),
        );
        if let Some(d) = diff(format!("st_dep[{i}]"), x, y) {
            return Some(d);
        }
    }
    // R2i: in_tag_valid every cycle, the tag and lane when it is set; else when accepted.
    if p.registered_input {
        if let Some(d) = diff("in_tag_valid".into(), b(e.in_tag_valid), b(a.in_tag_valid)) {
            return Some(d);
        }
    }
    let tagged = if p.registered_input { e.in_tag_valid } else { inp.in_valid && e.in_ready };
    if tagged {
        for (name, x, y) in [
            ("in_tag", e.in_tag, a.in_tag),
            ("in_lane", e.in_lane, a.in_lane),
        ] {
            if let Some(d) = diff(name.to_string(), x, y) {
                return Some(d);
            }
        }
    }
    if e.rqf_done {
        if let Some(d) = diff("rqf_done_tpipe".into(), e.rqf_done_tpipe, a.rqf_done_tpipe) {
            return Some(d);
        }
    }
    if e.out_valid {
        let fields = [
            ("out_tag", e.out_tag, a.out_tag),
            ("out_stype", e.out_stype, a.out_stype),
            ("out_state", e.out_state, a.out_state),
            ("out_count", e.out_count, a.out_count),
            ("out_lane_mask", e.out_lane_mask, a.out_lane_mask),
            ("out_lockmask", e.out_lockmask, a.out_lockmask),
            ("out_reason", e.out_reason, a.out_reason),
        ];
        for (name, x, y) in fields {
            if let Some(d) = diff(name.to_string(), x, y) {
                return Some(d);
            }
        }
        for l in 0..(e.out_count as usize).min(p.width) {
            let (x, y) = (e.out_refs[l], a.out_refs.get(l).copied().unwrap_or(0));
            if let Some(d) = diff(format!("out_refs[{l}]"), x, y) {
                return Some(d);
            }
        }
    }
    for i in (0..p.entries).filter(|&i| e.st_valid >> i & 1 == 1) {
        let per = [
            ("st_count", &e.st_count, &a.st_count),
            ("st_stype", &e.st_stype, &a.st_stype),
            ("st_state", &e.st_state, &a.st_state),
            ("st_lockmask", &e.st_lockmask, &a.st_lockmask),
            ("st_tag", &e.st_tag, &a.st_tag),
        ];
        for (name, x, y) in per {
            let (x, y) = (
                x.get(i).copied().unwrap_or(0),
                y.get(i).copied().unwrap_or(0),
            );
            if let Some(d) = diff(format!("{name}[{i}]"), x, y) {
                return Some(d);
            }
        }
    }
    None
}
