//! Task-combiner verification under `make test` (ARCHITECTURE.md levels 2-4): the
//! directed cases of spec §11 on the Verilated RTL, random lockstep against the model
//! (with the conservation checker and coverage of every output trigger), and lint +
//! yosys on every tested config.

use warpgen_testbench::harness;
use warpgen_testbench::kit;
use warpgen_testbench::task_combiner::directed::{self, ParamsKind};
use warpgen_testbench::task_combiner::lockstep::TaskCombiner;
use warpgen_testbench::task_combiner::rtl::{config_for, RtlTaskCombiner};
use warpgen_testbench::task_combiner::{Policy, TaskCombinerDut, TaskCombinerParams};

/// Lockstep cycles per config (issue: at least 200,000).
const CYCLES: u64 = 200_000;

fn lockstep(p: &TaskCombinerParams, seed: u64) {
    let r = kit::lockstep::<TaskCombiner>(p, seed, CYCLES, false).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, CYCLES);
    println!("{p:?} seed {seed}: {CYCLES} cycles, coverage {:?}", r.coverage.bins());
}

fn lint_and_synth(p: &TaskCombinerParams) {
    let e = warpgen_rtl::generate(&config_for(p), "task_combiner").unwrap();
    harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
    harness::synth(&e).unwrap_or_else(|m| panic!("yosys {p:?}: {m}"));
}

#[test]
fn directed_cases_pass_on_the_rtl() {
    directed::run_all(&mut |p: &TaskCombinerParams| -> Box<dyn TaskCombinerDut> {
        Box::new(RtlTaskCombiner::new(p, false).unwrap_or_else(|e| panic!("{e}")))
    })
    .unwrap_or_else(|failures| panic!("directed cases failed on the RTL:\n{failures}"));
}

#[test]
fn lockstep_one_entry() {
    lockstep(&ParamsKind::Tiny.params(), 31);
    lockstep(&TaskCombinerParams::with_shape(1, 8).with_policy(Policy::Oldest), 32);
}

#[test]
fn lockstep_width4_nodep_fullest() {
    lockstep(&TaskCombinerParams::with_shape(16, 4).with_policy(Policy::NodepFullest), 33);
}

#[test]
fn lockstep_width64_entries64_nodep_oldest() {
    lockstep(&ParamsKind::Wide.params().with_policy(Policy::NodepOldest), 34);
}

#[test]
fn lockstep_default_fullest() {
    lockstep(&TaskCombinerParams::defaults(), 35);
}

#[test]
fn lockstep_spec_c0_oldest_and_per_type_capacity() {
    lockstep(&TaskCombinerParams::spec_c0().with_policy(Policy::Oldest), 36);
    let caps = TaskCombinerParams { capacity: vec![8, 2, 4, 1], sort_state: false, ..TaskCombinerParams::spec_c1() };
    lockstep(&caps.with_policy(Policy::NodepFullest), 37);
}

#[test]
fn lint_and_synth_every_tested_config() {
    for p in [
        ParamsKind::Tiny.params(),
        TaskCombinerParams::with_shape(16, 4),
        ParamsKind::Wide.params(),
        TaskCombinerParams::defaults(),
        TaskCombinerParams::spec_c0(),
    ] {
        lint_and_synth(&p);
    }
}
