//! Thread-group merge verification under `make test` (docs/verification.md, levels 2-4): the
//! directed cases of spec §5.8 (under the contract) and the exhaustive pair table on the
//! Verilated RTL, random lockstep against the model with the invariants checked every
//! cycle and coverage of pairing, merge, timeout, termination and discard, a drained
//! random run on the RTL alone (end-state invariants), and lint + yosys per config; the
//! performance counters and `err_clr` (`perf_counters`, R16-R17) in lockstep on two configs.
//! `merge_ways` (R20) adds no Verilated build of its own: W = 3 rides on the first
//! `perf_counters` config and W = 4 on the first `cross_primitive` config (both C0 shapes),
//! and the directed W cases run on those two builds.

use warpgen_testbench::harness;
use warpgen_testbench::kit;
use warpgen_testbench::thread_merge::directed::{self, pair_table};
use warpgen_testbench::thread_merge::lockstep::ThreadMerge;
use warpgen_testbench::thread_merge::rtl::{config_for, RtlThreadMerge};
use warpgen_testbench::thread_merge::stimulus::run_random;
use warpgen_testbench::thread_merge::{Dut, ThreadMergeParams};

/// Lockstep cycles per config (at least 200,000, the project's verification floor).
const CYCLES: u64 = 200_000;

fn rtl(p: &ThreadMergeParams) -> Box<dyn Dut<ThreadMerge>> {
    Box::new(RtlThreadMerge::new(p, false).unwrap_or_else(|e| panic!("{e}")))
}

fn c0() -> ThreadMergeParams {
    ThreadMergeParams::contract_default()
}

/// The lockstep configs: 4 lanes with and without remap, 32 lanes, 1 slot.
fn configs() -> Vec<ThreadMergeParams> {
    vec![
        c0(),
        ThreadMergeParams { remap: false, ..c0() },
        ThreadMergeParams { lanes: 32, ..c0() },
        ThreadMergeParams { slots: 1, ..c0() },
    ]
}

fn lockstep(p: &ThreadMergeParams, seed: u64, cycles: u64, allow_errors: bool) {
    let r = kit::lockstep::<ThreadMerge>(p, seed, cycles, allow_errors).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, cycles);
    println!("{p:?} seed {seed}: {cycles} cycles, coverage {:?}", r.coverage.coverage.hits);
}

#[test]
fn directed_cases_pass_on_the_rtl() {
    directed::run_all(&mut |p: &ThreadMergeParams| rtl(p))
        .unwrap_or_else(|failures| panic!("directed cases failed on the RTL:\n{failures}"));
}

#[test]
fn exhaustive_pair_table_on_the_rtl() {
    let t = pair_table(&mut |p: &ThreadMergeParams| rtl(p)).unwrap_or_else(|e| panic!("{e}"));
    // Counts of spec §5.5.1, checked by hand enumeration in the contract (§6).
    assert_eq!(t.merges, [50, 108]);
    assert_eq!(t.by_perm, [50, 32, 18, 8]);
}

#[test]
fn lockstep_lanes4_remap() {
    lockstep(&configs()[0], 41, CYCLES, false);
}

#[test]
fn lockstep_lanes4_no_remap() {
    lockstep(&configs()[1], 42, CYCLES, false);
}

#[test]
fn lockstep_lanes32() {
    lockstep(&configs()[2], 43, CYCLES, false);
}

#[test]
fn lockstep_one_slot() {
    lockstep(&configs()[3], 44, CYCLES, false);
}

#[test]
fn lockstep_with_illegal_events() {
    lockstep(&c0(), 45, CYCLES / 4, true);
}

/// `perf_counters` (contract R16-R17): C0 with `merge_ways` 3 (R20: sets of 3, ids 4s + m,
/// member 3 naming nothing in the runs with illegal events), and 2 slots of 8 lanes (W = 2).
/// `perf_val` is compared every cycle at a random `perf_sel` (also past the last counter),
/// with rare `perf_clr` and `err_clr`; the runs with illegal events drive the error counters
/// and `err_clr`.
fn perf_configs() -> [ThreadMergeParams; 2] {
    [
        ThreadMergeParams { perf_counters: true, merge_ways: 3, ..c0() },
        ThreadMergeParams { perf_counters: true, slots: 2, lanes: 8, ..c0() },
    ]
}

#[test]
fn lockstep_perf_counters() {
    for (p, seed) in perf_configs().iter().zip([46, 47]) {
        lockstep(p, seed, CYCLES, false);
        lockstep(p, seed + 10, CYCLES / 4, true);
        let e = warpgen_rtl::generate(&config_for(p), "thread_merge").unwrap();
        harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
    }
}

/// `cross_primitive` (contract R18): C0 with `merge_ways` 4 (R20: sets of up to 4, across
/// primitives), and 2 slots of 8 lanes with `pair_hold` 0 (W = 2; a candidate then waits for
/// a partner, `flush` or a `frag_last`: no primitive change ends its hold).
fn cross_configs() -> [ThreadMergeParams; 2] {
    [
        ThreadMergeParams { cross_primitive: true, merge_ways: 4, ..c0() },
        ThreadMergeParams { cross_primitive: true, slots: 2, lanes: 8, pair_hold: 0, ..c0() },
    ]
}

/// An option's configs in lockstep (each with its seed), each also lint-clean.
fn lockstep_and_lint(configs: &[ThreadMergeParams], seeds: &[u64]) {
    for (p, &seed) in configs.iter().zip(seeds) {
        lockstep(p, seed, CYCLES, false);
        let e = warpgen_rtl::generate(&config_for(p), "thread_merge").unwrap();
        harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
    }
}

#[test]
fn lockstep_cross_primitive() {
    lockstep_and_lint(&cross_configs(), &[48, 49]);
}

/// `candidates` (contract R19): C0 with two held candidates, and four on 3 slots of 8 lanes
/// with a longer hold, across primitives (the head's primitive compare is then off).
fn candidate_configs() -> [ThreadMergeParams; 2] {
    [
        ThreadMergeParams { candidates: 2, ..c0() },
        ThreadMergeParams { candidates: 4, lanes: 8, slots: 3, pair_hold: 7, cross_primitive: true, ..c0() },
    ]
}

#[test]
fn lockstep_candidates() {
    lockstep_and_lint(&candidate_configs(), &[60, 61]);
}

#[test]
fn drained_random_runs_on_the_rtl_end_clean() {
    // The configs and the two R20 ones (their builds are the lockstep ones).
    let ways = [perf_configs()[0].clone(), cross_configs()[0].clone()];
    for (i, p) in configs().iter().chain(&ways).enumerate() {
        let mut dut = rtl(p);
        let r = run_random(dut.as_mut(), 50 + i as u64, false, 30_000).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        assert!(r.written > 0, "{p:?}: nothing written back");
    }
}

#[test]
fn lint_and_synth_every_tested_config() {
    for p in configs() {
        let e = warpgen_rtl::generate(&config_for(&p), "thread_merge").unwrap();
        harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
        harness::synth(&e).unwrap_or_else(|m| panic!("yosys {p:?}: {m}"));
    }
}

/// The largest config is linted only: its one flat combinational core takes Yosys
/// many minutes, too long for `make test` (`warpgen sweep` synthesizes it).
#[test]
fn lint_largest_config() {
    let p = ThreadMergeParams { lanes: 32, slots: 32, tag_width: 64, prim_width: 32, ..c0() };
    let e = warpgen_rtl::generate(&config_for(&p), "thread_merge").unwrap();
    harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
}
