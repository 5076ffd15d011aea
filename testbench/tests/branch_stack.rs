//! Branch-stack verification under `make test`: the directed cases of spec §6
//! on the Verilated RTL, random lockstep against the model with coverage, and
//! lint + yosys on every tested config.

use warpgen_testbench::branch_stack::lockstep::BranchStack;
use warpgen_testbench::branch_stack::rtl::{config_for, RtlBranchStack};
use warpgen_testbench::branch_stack::{directed, Dut, BranchStackParams};
use warpgen_testbench::{harness, kit};

/// Lockstep cycles per config (at least 200,000, the project's verification floor).
const CYCLES: u64 = 200_000;

fn shape(depth: usize, nsrc: usize) -> BranchStackParams {
    BranchStackParams::with_shape(depth, nsrc)
}

/// Odd sizes: depth 3, two producers, a 4-bit PC that wraps, a 2-bit offset.
fn tiny() -> BranchStackParams {
    BranchStackParams { depth: 3, nsrc: 2, pc_w: 4, off_w: 2, pc_inc: 15, reset_pc: 9, ..BranchStackParams::spec_default() }
}

fn lockstep(p: &BranchStackParams, seed: u64, cycles: u64, allow_errors: bool) {
    let r = kit::lockstep::<BranchStack>(p, seed, cycles, allow_errors).unwrap_or_else(|e| panic!("{e}"));
    println!("{p:?} seed {seed}: {} cycles, coverage {:?}", r.cycles, r.coverage);
}

fn lint_and_synth(p: &BranchStackParams) {
    let e = warpgen_rtl::generate(&config_for(p), "branch_stack").unwrap();
    harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
    let r = harness::synth(&e).unwrap_or_else(|m| panic!("yosys {p:?}: {m}"));
    // Entries, the entry count, pc and t0pc, branch_t0, the four sticky flags. (With
    // one producer err_multi is constant; the flattened synth_ice40 flow removes it,
    // this hierarchical check keeps it.)
    let cnt_bits = warpgen_rtl::config::id_bits(p.depth + 1);
    // At producer_conflict = "stall" err_port and err_multi are constant 0 (rule S1);
    // like err_multi at one producer, this hierarchical check keeps their flops.
    let flags = 4;
    let pc_w = p.pc_w as usize;
    // thread_groups = T > 1 (G1): a stack, its count and a PC per group; one t0pc_q,
    // branch_t0_q and t0_tg_q (TG_W bits).
    let expected = if p.tgs > 1 {
        p.tgs * (4 * p.depth + cnt_bits + pc_w) + pc_w + 1 + p.tg_w() as usize + flags
    } else {
        4 * p.depth + cnt_bits + 2 * pc_w + 1 + flags
    };
    assert_eq!(r.flip_flops, expected, "flop count for {p:?}: {r:?}");
}

#[test]
fn directed_cases_pass_on_the_rtl() {
    directed::run_all(&mut |p: &BranchStackParams| -> Box<dyn Dut<BranchStack>> {
        Box::new(RtlBranchStack::new(p, false).unwrap_or_else(|e| panic!("{e}")))
    })
    .unwrap_or_else(|failures| panic!("directed cases failed on the RTL:\n{failures}"));
}

#[test]
fn lockstep_default_depth4_three_producers() {
    lockstep(&BranchStackParams::spec_default(), 11, CYCLES, false);
}

#[test]
fn lockstep_depth2() {
    lockstep(&shape(2, 3), 12, CYCLES, false);
}

#[test]
fn lockstep_depth32() {
    lockstep(&shape(32, 3), 13, CYCLES, false);
}

#[test]
fn lockstep_one_producer_stage() {
    lockstep(&shape(4, 1), 14, CYCLES, false);
}

#[test]
fn lockstep_with_protocol_errors_and_odd_sizes() {
    lockstep(&BranchStackParams::spec_default(), 15, CYCLES / 4, true);
    lockstep(&tiny(), 16, CYCLES, true);
}

#[test]
fn lockstep_compound_flags_cnvz() {
    lockstep(&BranchStackParams::spec_default().cnvz(), 17, CYCLES, false);
}

/// producer_conflict = "stall" with three producer stages: collisions and producer pops
/// beside compound branches are legal and held; the stimulus obeys the hold rule and the
/// no-loss ledger checks every cycle (coverage fails on a violation).
#[test]
fn lockstep_producer_conflict_stall_three_producers() {
    lockstep(&BranchStackParams::spec_default().stall(), 18, CYCLES, false);
    lockstep(&shape(2, 3).stall().cnvz(), 19, CYCLES / 4, true);
}

/// perf_counters (rule P1, docs/perf.md): the default shape and producer_conflict =
/// "stall". `perf_val` is compared every cycle at a random `perf_sel` (also past the last
/// counter) with rare `perf_clr`; the runs with protocol errors drive the error counters.
#[test]
fn lockstep_perf_counters() {
    for (p, seed) in [BranchStackParams::spec_default().perf(), BranchStackParams::spec_default().stall().perf()].iter().zip([20, 22]) {
        lockstep(p, seed, CYCLES, false);
        lockstep(p, seed + 1, CYCLES / 4, true);
        let e = warpgen_rtl::generate(&config_for(p), "branch_stack").unwrap();
        harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
    }
}

/// thread_groups (rules G1–G7): 4 groups at "drop" (the default shape; a quarter of the
/// cycles also with protocol errors, where a producer pop of the branch's own group beside a
/// compound branch is dropped), and 32 groups at "stall" with depth 3 and the counters. The
/// new ports (t0_tg_q, sv_cnt, sv_stack, sv_pc) are compared every cycle; coverage requires
/// every group event (restores, cross-group collisions, T0/T1 of other groups, overflow and
/// underflow outside group 0).
#[test]
fn lockstep_thread_groups_4() {
    let p = BranchStackParams::spec_default().groups(4);
    lockstep(&p, 24, CYCLES, false);
    lockstep(&p, 25, CYCLES / 4, true);
}

#[test]
fn lockstep_thread_groups_32_stall_depth3_perf() {
    let p = shape(3, 3).stall().perf().groups(32);
    lockstep(&p, 26, CYCLES, false);
    let e = warpgen_rtl::generate(&config_for(&p), "branch_stack").unwrap();
    harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
}

#[test]
fn lint_and_synth_every_tested_config() {
    for p in [
        BranchStackParams::spec_default(),
        shape(2, 3),
        shape(32, 3),
        shape(4, 1),
        tiny(),
        BranchStackParams::spec_default().cnvz(),
        BranchStackParams::spec_default().stall(),
        shape(2, 3).stall().cnvz(),
        BranchStackParams::spec_default().groups(4),
        shape(3, 3).stall().groups(32),
        tiny().groups(2),
    ] {
        lint_and_synth(&p);
    }
    let mut wide = BranchStackParams::spec_default();
    wide.pc_w = 64;
    wide.off_w = 64;
    lint_and_synth(&wide);
}
