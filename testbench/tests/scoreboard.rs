//! Scoreboard verification under `make test` (docs/verification.md, levels 2-4):
//! the directed cases of spec §6.5 on the Verilated RTL, random lockstep against
//! the model with coverage, and lint + yosys on every tested config.

use warpgen_testbench::harness;
use warpgen_testbench::kit;
use warpgen_testbench::scoreboard::lockstep::Scoreboard;
use warpgen_testbench::scoreboard::rtl::{config_for, RtlScoreboard};
use warpgen_testbench::scoreboard::{directed, Dut, ScoreboardParams};

/// Lockstep cycles per config (at least 200,000, the project's verification floor).
const CYCLES: u64 = 200_000;

fn params(num_tg: usize, num_trk: usize, cnt_w: u32, num_cpl: usize) -> ScoreboardParams {
    ScoreboardParams { num_tg, num_trk, cnt_w, num_cpl, trk_max: vec![(1 << cnt_w) - 1; num_trk], br_sets: 2, perf_counters: false, fence: 0, fetch_gate: false }
}

/// The warpgen default config (configs/default.toml).
fn default_params() -> ScoreboardParams {
    let c = warpgen_rtl::Config::embedded(&[]).unwrap();
    ScoreboardParams::from(c.scoreboard.as_ref().unwrap())
}

/// `num_tg` groups of `num_trk` trackers with 8-bit counters (the maximum) and 4 completion
/// ports (the maximum); the last tracker limited to 2, so that saturation stalls occur (and
/// are asserted) here too.
fn maxed_params(num_tg: usize, num_trk: usize) -> ScoreboardParams {
    let mut p = params(num_tg, num_trk, 8, 4);
    p.trk_max[num_trk - 1] = 2;
    p
}

/// The largest config warpgen accepts: every scoreboard key at its maximum.
fn largest_params() -> ScoreboardParams {
    maxed_params(64, 16)
}

fn lockstep_and_cover(p: &ScoreboardParams, seed: u64, cycles: u64, allow_errors: bool) {
    let report = kit::lockstep::<Scoreboard>(p, seed, cycles, allow_errors).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.cycles, cycles);
    println!("{p:?} seed {seed}: {cycles} cycles, coverage {:?}", report.coverage.hits);
}

fn lint_and_synth(p: &ScoreboardParams) {
    let e = warpgen_rtl::generate(&config_for(p), "scoreboard").unwrap();
    harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
    let r = harness::synth(&e).unwrap_or_else(|m| panic!("yosys {p:?}: {m}"));
    // Flip-flops per (group, tracker): the counter, its wait bit, and three flags (nonzero, at
    // its maximum, sticky underflow); per group a sticky flag for a completion naming a tracker
    // it does not have; and the core's flag for a completion naming no group. With
    // perf_counters, 32 per event counter (SB3). With branch_fetch_gate, a wait bit per
    // (group, tracker) for each branch set after A (SB6).
    let counters = p.num_tg * p.num_trk;
    let perf = 32 * p.perf_count();
    let gate = if p.fetch_gate { p.br_sets - 1 } else { 0 };
    assert_eq!(r.flip_flops, counters * (p.cnt_w as usize + 4 + gate) + p.num_tg + 1 + perf, "flop count for {p:?}: {r:?}");
}

#[test]
fn directed_cases_pass_on_the_rtl() {
    directed::run_all(&mut |p: &ScoreboardParams| -> Box<dyn Dut<Scoreboard>> {
        Box::new(RtlScoreboard::new(p, false).unwrap_or_else(|e| panic!("{e}")))
    })
    .unwrap_or_else(|failures| panic!("directed cases failed on the RTL:\n{failures}"));
}

#[test]
fn lockstep_default_config() {
    lockstep_and_cover(&default_params(), 1, CYCLES, false);
}

#[test]
fn lockstep_default_config_with_protocol_errors() {
    lockstep_and_cover(&default_params(), 2, CYCLES / 4, true);
}

#[test]
fn lockstep_one_bit_counters() {
    lockstep_and_cover(&ScoreboardParams::spec_w1(), 3, CYCLES, false);
}

#[test]
fn lockstep_one_group_one_tracker() {
    lockstep_and_cover(&params(1, 1, 4, 2), 4, CYCLES, false);
}

#[test]
fn lockstep_spec_test_config_odd_sizes() {
    // Spec §6.5's config (tracker 7 limited to 1) and a non-power-of-two shape.
    lockstep_and_cover(&ScoreboardParams::spec_default(), 5, CYCLES, false);
    lockstep_and_cover(&params(3, 5, 3, 3), 6, CYCLES, true);
}

/// The largest thread-group count (64, a 6-bit `tg` id) with 8-bit counters and 4 completion
/// ports, at 2 trackers. Named to sort first (libtest starts tests in name order), so that the
/// longest lockstep of this file runs beside the others instead of alone at the end.
///
/// The joint maximum (64 groups x 16 trackers, every key at its maximum) is linted and
/// synthesized ([`lint_and_synth_largest_config`]) but not simulated here: Verilator
/// specializes the C++ of every group instance, 67 MB for that config, which took 6 minutes
/// to compile and 3.5 more to simulate, a third of `make test`'s CPU. Each dimension's maximum
/// is simulated instead, here and in [`largest_trackers_lockstep`].
#[test]
fn largest_groups_lockstep() {
    lockstep_and_cover(&largest_groups_params(), 7, CYCLES, false);
}

fn largest_groups_params() -> ScoreboardParams {
    maxed_params(64, 2)
}

/// The largest tracker count (16, a 4-bit tracker id) with 8-bit counters and 4 completion
/// ports, at 4 thread groups.
#[test]
fn largest_trackers_lockstep() {
    lockstep_and_cover(&largest_trackers_params(), 14, CYCLES, false);
}

fn largest_trackers_params() -> ScoreboardParams {
    maxed_params(4, 16)
}

/// `branch_sets` = 4 (rule SB2): the default shape with sets C and D and `br_sel`.
fn four_sets_params() -> ScoreboardParams {
    ScoreboardParams { br_sets: 4, ..default_params() }
}

/// `branch_sets` = 3 on the odd shape, where a `br_tg` may name no group.
fn three_sets_params() -> ScoreboardParams {
    ScoreboardParams { br_sets: 3, ..params(3, 5, 3, 3) }
}

#[test]
fn lockstep_four_branch_sets() {
    lockstep_and_cover(&four_sets_params(), 8, CYCLES, false);
}

#[test]
fn lockstep_three_branch_sets_odd_sizes() {
    lockstep_and_cover(&three_sets_params(), 9, CYCLES, true);
}

/// `perf_counters` (rules SB3-SB4): the default shape (8 counters) and 3 groups x 5 trackers
/// with one completion port (7 counters, so `perf_sel` 7 reads past the last). `perf_val` is
/// compared every cycle at a random `perf_sel`, with rare `perf_clr` and `err_clr`; the runs
/// with protocol errors drive `err_underflow_ev` and `err_clr` against real underflows.
fn perf_params() -> [ScoreboardParams; 2] {
    [
        ScoreboardParams { perf_counters: true, ..default_params() },
        ScoreboardParams { perf_counters: true, trk_max: vec![7, 1, 3, 7, 2], ..params(3, 5, 3, 1) },
    ]
}

#[test]
fn lockstep_perf_counters() {
    for (p, seed) in perf_params().iter().zip([10, 11]) {
        lockstep_and_cover(p, seed, CYCLES, false);
        lockstep_and_cover(p, seed + 10, CYCLES / 4, true);
    }
}

/// `implicit_fence` (rule SB5): on the default shape trackers 0 and 7 (a load class and the
/// tracker of maximum 1), with the counters so that `stall_dep` counts the fence's waits; on
/// the odd shape tracker 2 (maximum 3), with ids that name no group or tracker.
fn fence_params() -> [ScoreboardParams; 2] {
    [
        ScoreboardParams { fence: 0x81, perf_counters: true, ..ScoreboardParams::spec_default() },
        ScoreboardParams { fence: 0b100, trk_max: vec![7, 1, 3, 7, 2], ..params(3, 5, 3, 3) },
    ]
}

#[test]
fn lockstep_implicit_fence() {
    let [a, b] = fence_params();
    lockstep_and_cover(&a, 12, CYCLES, false);
    lockstep_and_cover(&b, 13, CYCLES, true);
}

/// `branch_fetch_gate` (rule SB6): four sets on the default shape with the counters (so that
/// `stall_fetch` counts the gate's holds); two sets on the odd shape, with ids that name no
/// group or tracker and reset pulses.
fn gate_params() -> [ScoreboardParams; 2] {
    [
        ScoreboardParams { br_sets: 4, fetch_gate: true, perf_counters: true, ..ScoreboardParams::spec_default() },
        ScoreboardParams { fetch_gate: true, trk_max: vec![7, 1, 3, 7, 2], ..params(3, 5, 3, 3) },
    ]
}

#[test]
fn lockstep_branch_fetch_gate() {
    let [a, b] = gate_params();
    lockstep_and_cover(&a, 15, CYCLES, false);
    lockstep_and_cover(&b, 16, CYCLES, true);
}

#[test]
fn lint_and_synth_every_tested_config() {
    let [perf_a, perf_b] = perf_params();
    let [fence_a, fence_b] = fence_params();
    let [gate_a, gate_b] = gate_params();
    for p in [default_params(), ScoreboardParams::spec_w1(), params(1, 1, 4, 2), ScoreboardParams::spec_default(), params(3, 5, 3, 3), four_sets_params(), three_sets_params(), perf_a, perf_b, fence_a, fence_b, gate_a, gate_b, largest_groups_params(), largest_trackers_params()] {
        lint_and_synth(&p);
    }
}

#[test]
fn lint_and_synth_largest_config() {
    lint_and_synth(&largest_params());
}
