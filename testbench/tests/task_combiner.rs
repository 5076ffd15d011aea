//! Task-combiner verification under `make test` (docs/verification.md, levels 2-4): the
//! directed cases of spec §11 on the Verilated RTL, random lockstep against the model
//! (with the conservation checker and coverage of every output trigger), and lint +
//! yosys on every tested config.
//!
//! Every config is a Verilator build of its own (policy, capacity and sizes are constants
//! of the emitted Verilog), so the lockstep runs reuse the directed cases' parameter sets
//! where the issue's configs allow: 1 entry (Tiny), every eviction policy (C1 with each),
//! per-type capacity (C0CapHs4), 64 lanes at 4 entries (WideLanes). 128 entries at 4 lanes
//! (ManyEntries), width 4 with 16 entries and
//! the default config are the three builds added for lockstep, two with `registered_issue`
//! (contract R4r) and two with `perf_counters` (rule P1 of docs/blocks/task_combiner.md).
//! `registered_input` (contract R2i) adds no lockstep build: it runs in the second config of
//! `registered_issue` and of `dep_tags` (the first of each runs without it); its directed case
//! X14 is the one build it adds.

use std::sync::Mutex;
use warpgen_testbench::harness;
use warpgen_testbench::kit;
use warpgen_testbench::task_combiner::directed::{self, ParamsKind};
use warpgen_testbench::task_combiner::lockstep::TaskCombiner;
use warpgen_testbench::task_combiner::rtl::{config_for, RtlTaskCombiner};
use warpgen_testbench::task_combiner::{Policy, Dut, TaskCombinerParams};

/// Lockstep cycles per config (at least 200,000, the project's verification floor).
const CYCLES: u64 = 200_000;

/// Held while a model is built, so that two tests needing the same config build it once
/// (the second finds it in the cache) instead of compiling it twice at the same time.
static BUILD: Mutex<()> = Mutex::new(());

fn rtl(p: &TaskCombinerParams) -> RtlTaskCombiner {
    let _g = BUILD.lock().unwrap_or_else(|e| e.into_inner());
    RtlTaskCombiner::new(p, false).unwrap_or_else(|e| panic!("{e}"))
}

fn lockstep(p: &TaskCombinerParams, seed: u64) {
    drop(rtl(p)); // build (or find) the model under the lock; kit::lockstep then loads it
    let r = kit::lockstep::<TaskCombiner>(p, seed, CYCLES, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, CYCLES);
    println!("{p:?} seed {seed}: {CYCLES} cycles, coverage {:?}", r.coverage.bins());
}

/// [`lockstep`] on each config with its seed.
fn lockstep_each<const K: usize>(ps: &[TaskCombinerParams; K], seeds: [u64; K]) {
    for (p, seed) in ps.iter().zip(seeds) {
        lockstep(p, seed);
    }
}

#[test]
fn directed_cases_pass_on_the_rtl() {
    directed::run_all(&mut |p: &TaskCombinerParams| -> Box<dyn Dut<TaskCombiner>> { Box::new(rtl(p)) })
        .unwrap_or_else(|failures| panic!("directed cases failed on the RTL:\n{failures}"));
}

#[test]
fn lockstep_one_entry() {
    lockstep(&ParamsKind::Tiny.params(), 31);
}

#[test]
fn lockstep_every_policy() {
    for (kind, seed) in [
        (ParamsKind::C1, 32),
        (ParamsKind::C1Oldest, 33),
        (ParamsKind::C1NodepFullest, 34),
        (ParamsKind::C1NodepOldest, 35),
    ] {
        lockstep(&kind.params(), seed);
    }
}

#[test]
fn lockstep_per_type_capacity() {
    lockstep(&ParamsKind::C0CapHs4.params(), 36);
}

#[test]
fn lockstep_width4_nodep_fullest() {
    lockstep(&TaskCombinerParams::with_shape(16, 4).with_policy(Policy::NodepFullest), 37);
}

/// The widest tasks, 64 lanes (with every other key at its maximum: 8 tile pipes and shader
/// types, 16-bit states, 32-bit references, 8 generation bits), at 4 entries.
///
/// The joint maximum, 128 entries x 64 lanes, is not simulated here (at 64 x 64 its model
/// already took 124 s to build and its 200,000 cycles 90 s more); each dimension's maximum
/// is simulated instead, here and in [`largest_entries_lockstep`].
#[test]
fn largest_lanes_lockstep() {
    lockstep(&ParamsKind::WideLanes.params(), 38);
}

/// The most entries, 128, the patent's example (every other key at its maximum but the
/// lanes, 4).
#[test]
fn largest_entries_lockstep() {
    lockstep(&ParamsKind::ManyEntries.params(), 40);
}

/// `registered_issue` (contract R4r): C0 (sort_state, fullest) and 16 entries of 4 lanes
/// without sort_state, evicting the oldest, with `registered_input` (R2i, the two options'
/// latencies adding up: an instance filling a task in cycle n is on the out port in n+4).
fn registered_configs() -> [TaskCombinerParams; 2] {
    [
        ParamsKind::C0Reg.params(),
        TaskCombinerParams {
            registered_issue: true,
            registered_input: true,
            sort_state: false,
            ..TaskCombinerParams::with_shape(16, 4).with_policy(Policy::Oldest)
        },
    ]
}

#[test]
fn lockstep_registered_issue() {
    lockstep_each(&registered_configs(), [40, 41]);
}

/// `perf_counters` (rule P1): the default shape, and C0 with `registered_issue` (the counters
/// are the same events whichever cycle a task moves in). `perf_val` is compared every cycle at
/// a random `perf_sel` (also past the last counter), with rare `perf_clr`.
fn perf_configs() -> [TaskCombinerParams; 2] {
    [
        TaskCombinerParams { perf_counters: true, ..TaskCombinerParams::defaults() },
        TaskCombinerParams { perf_counters: true, ..ParamsKind::C0Reg.params() },
    ]
}

#[test]
fn lockstep_perf_counters() {
    lockstep_each(&perf_configs(), [42, 43]);
}

/// X10 alone (it also runs in `directed_cases_pass_on_the_rtl`): counter values written from
/// rule P1, the clear winning over an event, reset, indices past the last reading 0.
#[test]
fn directed_perf_counters_on_the_rtl() {
    let mut dut = rtl(&ParamsKind::C0Perf.params());
    directed::x10_perf_counters(&mut dut).unwrap_or_else(|e| panic!("{e}"));
}

/// X14 alone (it also runs in `directed_cases_pass_on_the_rtl`, which builds C0 with
/// `registered_input` for it): R2i cycle by cycle, the tag and lane a cycle after the hand-over
/// with `in_tag_valid`, the second of two back-to-back instances of a new key appending to the
/// entry the first created, IR's instance entering while `drain_req` and `drain_done` waiting
/// for it, a victim chosen for IR's instance.
#[test]
fn directed_registered_input_on_the_rtl() {
    let mut dut = rtl(&ParamsKind::C0RegIn.params());
    directed::x14_registered_input(&mut dut).unwrap_or_else(|e| panic!("{e}"));
}

/// `issue_order = "fullest"` (contract R4): C0 (sort_state, fullest eviction: one count
/// relation serves the victim and the issue; the directed case's build), and 16 entries of 4
/// lanes evicting the oldest without sort_state (the issue's count relation of its own).
fn issue_order_configs() -> [TaskCombinerParams; 2] {
    [
        ParamsKind::C0IssueFullest.params(),
        TaskCombinerParams {
            issue_fullest: true,
            sort_state: false,
            ..TaskCombinerParams::with_shape(16, 4).with_policy(Policy::Oldest)
        },
    ]
}

#[test]
fn lockstep_issue_order() {
    lockstep_each(&issue_order_configs(), [44, 45]);
}

/// `hold_producers` (contract R5h): C0 with 8 entries (of 8 lanes) holding a producer for one
/// full consumer, and 16 entries of 4 lanes for two, evicting the oldest without sort_state.
fn hold_configs() -> [TaskCombinerParams; 2] {
    [
        ParamsKind::C0Hold.params(),
        TaskCombinerParams {
            hold_producers: 2,
            sort_state: false,
            ..TaskCombinerParams::with_shape(16, 4).with_policy(Policy::Oldest)
        },
    ]
}

#[test]
fn lockstep_hold_producers() {
    lockstep_each(&hold_configs(), [46, 47]);
}

/// `dep_tags` (contract D3t): C0 with two producer tags per instance, and 16 entries of 4 lanes
/// with four, `registered_issue`, `hold_producers` 2, the counters (`err_dep_ev` among them) and
/// `registered_input` (R2i: the producer tags wait in the input register with their instance;
/// `inst_acc` counts it entering, the stalls are the port's).
fn dep_tag_configs() -> [TaskCombinerParams; 2] {
    [
        ParamsKind::C0Tags.params(),
        TaskCombinerParams {
            dep_tags: 4,
            registered_issue: true,
            registered_input: true,
            hold_producers: 2,
            perf_counters: true,
            ..TaskCombinerParams::with_shape(16, 4)
        },
    ]
}

#[test]
fn lockstep_dep_tags() {
    lockstep_each(&dep_tag_configs(), [48, 49]);
}

#[test]
fn lockstep_default_config() {
    lockstep(&TaskCombinerParams::defaults(), 39);
}

/// Lint on every lockstep config but the 128-entry one, and Yosys (no latch) on those that
/// differ in structure, not only in a policy's selection: the fewest entries, 64 lanes, the
/// default, and one each of `registered_issue` and `issue_order = "fullest"` (Yosys reads the
/// default's Verilog in about 25 s, so the other five policy variants are linted only).
/// Yosys's coarse synthesis of a 64-entry config ran over 2 minutes and 900 MB without
/// finishing, and `lint_every_key` lints `entries = 128` (with 32 lanes); its other keys'
/// maxima are linted here at 4 entries.
#[test]
fn lint_and_synth_every_tested_config() {
    let [reg, reg_oldest] = registered_configs();
    let [fullest, fullest_oldest] = issue_order_configs();
    let synthesized = [ParamsKind::Tiny.params(), ParamsKind::WideLanes.params(), TaskCombinerParams::defaults(), reg, fullest];
    let linted = [
        ParamsKind::C1NodepOldest.params(),
        ParamsKind::C0CapHs4.params(),
        TaskCombinerParams::with_shape(16, 4).with_policy(Policy::NodepFullest),
        reg_oldest,
        fullest_oldest,
    ];
    for (p, synth) in synthesized.iter().map(|p| (p, true)).chain(linted.iter().map(|p| (p, false))) {
        let e = warpgen_rtl::generate(&config_for(p), "task_combiner").unwrap();
        harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
        if synth {
            harness::synth(&e).unwrap_or_else(|m| panic!("yosys {p:?}: {m}"));
        }
    }
}
