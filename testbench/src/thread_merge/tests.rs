//! Unit tests: the directed cases and the pair table on the model, the model under random
//! stimulus with the invariant checker and coverage (the four lockstep configurations of
//! the issue, the two `merge_ways` lockstep configurations and other R20 shapes),
//! model mutants that the directed cases, the pair table or the invariants must reject,
//! and the utilization benchmark.

use super::ThreadMerge;
use super::directed::{self, all_cases, pair_decision, pair_table, run_all, ParamsKind};
use super::model::Mutation;
use super::stimulus::{run_random, RandomReport, ThreadMergeStimulus};
use super::workload::{self, Distribution};
use super::*;
use std::time::Instant;

fn model_factory(p: &ThreadMergeParams) -> Box<dyn Dut<ThreadMerge>> {
    Box::new(ModelDut::new(p))
}

fn mutant_factory(m: Mutation) -> impl FnMut(&ThreadMergeParams) -> Box<dyn Dut<ThreadMerge>> {
    move |p| Box::new(ModelDut::from_model(ThreadMergeModel::mutated(p, m)))
}

#[test]
fn directed_cases_pass_on_model() {
    run_all(&mut model_factory).unwrap();
}

#[test]
fn case_table_covers_spec_list() {
    let names: Vec<&str> = all_cases().iter().map(|c| c.0).collect();
    let mut want: Vec<String> = (1..=28).map(|n| format!("T{n}")).collect();
    want.extend(["T5b", "T9b", "T15b", "T16b", "T19b", "K1", "K2", "K3", "K4"].map(String::from));
    want.extend((1..=10).map(|n| format!("W{n:02}")));
    for id in want {
        assert!(names.contains(&id.as_str()), "{id} missing from all_cases()");
    }
    assert!(!names.contains(&"T29"), "T29 is the random run");
}

#[test]
fn pair_table_on_model() {
    let t = pair_table(&mut model_factory).unwrap();
    assert_eq!(t.merges, [50, 108]);
}

/// Properties of contract §6 of the test's own decision function (not the model's).
#[test]
fn pair_decision_properties() {
    let pc = |m: u64| m.count_ones();
    let mut small = 0;
    let mut small_never = Vec::new();
    for a in 1..=14u64 {
        for b in 1..=14u64 {
            let d = pair_decision(a, b, true);
            assert_eq!(
                d,
                pair_decision(b, a, true),
                "merge({a:04b},{b:04b}) not symmetric"
            );
            if pair_decision(a, b, false).is_some() {
                assert_eq!(d, Some(0));
            }
            if pc(a) + pc(b) <= 4 {
                small += 1;
                if d.is_none() {
                    small_never.push((a, b));
                }
            } else {
                assert_eq!(d, None);
            }
        }
    }
    assert_eq!(small, 132);
    assert_eq!(small_never.len(), 24);
    // Exactly the 2+2 pairs of different shape (row / column / diagonal).
    let shape = |m: u64| match m {
        0b0011 | 0b1100 => "row",
        0b0101 | 0b1010 => "column",
        0b0110 | 0b1001 => "diagonal",
        _ => "other",
    };
    for &(a, b) in &small_never {
        assert!(
            pc(a) == 2 && pc(b) == 2 && shape(a) != shape(b),
            "{a:04b} {b:04b}"
        );
    }
}

/// The four lockstep configurations of the issue.
fn lockstep_configs() -> Vec<(&'static str, ThreadMergeParams)> {
    let c0 = ThreadMergeParams::contract_default();
    vec![
        ("lanes4-remap", c0.clone()),
        (
            "lanes4-noremap",
            ThreadMergeParams {
                remap: false,
                ..c0.clone()
            },
        ),
        (
            "lanes32",
            ThreadMergeParams {
                lanes: 32,
                ..c0.clone()
            },
        ),
        ("slots1", ThreadMergeParams { slots: 1, ..c0 }),
    ]
}

fn model_run(p: &ThreadMergeParams, seed: u64, errors: bool, cycles: u64) -> RandomReport {
    let mut dut = ModelDut::new(p);
    let r = run_random(&mut dut, seed, errors, cycles).unwrap();
    r.coverage
        .assert_all_hit()
        .unwrap_or_else(|e| panic!("{p:?} seed {seed} errors {errors}: {e}\n{:?}", r.coverage.hits));
    r
}

#[test]
fn random_legal_runs_hold_invariants_and_cover() {
    for (name, p) in lockstep_configs() {
        let t0 = Instant::now();
        let r = model_run(&p, 1, false, 200_000);
        eprintln!(
            "{name}: {} cycles in {:.2?}, {} samples written back\n  {:?}",
            r.cycles,
            t0.elapsed(),
            r.written,
            r.coverage.hits
        );
    }
}

#[test]
fn random_illegal_runs_hold_invariants_and_cover() {
    for (name, p) in lockstep_configs() {
        let r = model_run(&p, 7, true, 100_000);
        eprintln!("{name} (illegal events): {:?}", r.coverage.hits);
    }
}

/// The `merge_ways` lockstep configurations (contract R20; testbench/tests/thread_merge.rs
/// folds them into the first `perf_counters` and `cross_primitive` configs): W = 3 and 4 at
/// 4 lanes, 4 slots.
fn ways_configs() -> Vec<(&'static str, ThreadMergeParams)> {
    let c0 = ThreadMergeParams::contract_default();
    vec![
        ("ways3-perf", ThreadMergeParams { merge_ways: 3, perf_counters: true, ..c0.clone() }),
        ("ways4-cross", ThreadMergeParams { merge_ways: 4, cross_primitive: true, ..c0 }),
    ]
}

/// The model under the R20 configs' random stimulus: invariants and every coverage bin,
/// the sets of 3 and 4, their merges, breaks and timeouts included.
#[test]
fn random_ways_runs_hold_invariants_and_cover() {
    for (name, p) in ways_configs() {
        let r = model_run(&p, 1, false, 200_000);
        eprintln!("{name}: {} cycles, {} samples written back\n  {:?}", r.cycles, r.written, r.coverage.hits);
        let r = model_run(&p, 7, true, 100_000);
        eprintln!("{name} (illegal events): {:?}", r.coverage.hits);
    }
}

/// R20 on other shapes: wide groups (sparse tiles), one slot, odd slot counts, no timeout.
#[test]
fn random_ways_runs_other_configs() {
    let c0 = ThreadMergeParams::contract_default();
    for p in [
        ThreadMergeParams { merge_ways: 3, lanes: 8, slots: 2, ..c0.clone() },
        ThreadMergeParams { merge_ways: 4, lanes: 32, ..c0.clone() },
        ThreadMergeParams { merge_ways: 3, slots: 1, ..c0.clone() },
        ThreadMergeParams { merge_ways: 4, lanes: 16, slots: 3, pair_hold: 0, merge_timeout: 0, ..c0.clone() },
        ThreadMergeParams { merge_ways: 4, slots: 5, remap: false, pair_hold: 3, merge_timeout: 5, ..c0.clone() },
    ] {
        for errors in [false, true] {
            let mut dut = ModelDut::new(&p);
            let r = run_random(&mut dut, 3, errors, 30_000).unwrap();
            let h = &r.coverage.hits;
            assert!(h.pairs > 0 && h.merges > 0 && h.sets3 > 0 && h.merges3 > 0, "{p:?}: {h:?}");
            if p.merge_ways == 4 {
                assert!(h.sets4 > 0, "{p:?}: {h:?}");
            }
        }
    }
}

/// Other shapes: every lane width, odd slot counts, no timeout / no hold, narrow tags.
#[test]
fn random_runs_other_configs() {
    let c0 = ThreadMergeParams::contract_default();
    for p in [
        ThreadMergeParams {
            lanes: 8,
            ..c0.clone()
        },
        ThreadMergeParams {
            lanes: 16,
            slots: 3,
            ..c0.clone()
        },
        ThreadMergeParams {
            slots: 2,
            pair_hold: 0,
            merge_timeout: 0,
            ..c0.clone()
        },
        ThreadMergeParams {
            slots: 5,
            pair_hold: 1,
            merge_timeout: 1,
            prim_width: 1,
            ..c0.clone()
        },
        ThreadMergeParams {
            slots: 32,
            lanes: 32,
            pair_hold: 255,
            merge_timeout: 255,
            tag_width: 64,
            ..c0.clone()
        },
    ] {
        for errors in [false, true] {
            let mut dut = ModelDut::new(&p);
            let r = run_random(&mut dut, 3, errors, 30_000).unwrap();
            assert!(
                r.coverage.hits.pairs > 0 && r.coverage.hits.merges > 0,
                "{p:?}: {:?}",
                r.coverage.hits
            );
        }
    }
}

/// The model is fast enough for 200k cycles of the 32-slot × 32-lane configuration.
#[test]
fn model_speed_32x32() {
    let p = ThreadMergeParams {
        lanes: 32,
        slots: 32,
        ..ThreadMergeParams::contract_default()
    };
    let mut m = ThreadMergeModel::new(&p);
    let mut stim = ThreadMergeStimulus::new(&p, 5);
    let mut last = ThreadMergeOutputs::default();
    let t0 = Instant::now();
    for _ in 0..200_000 {
        let i = stim.next(&last);
        last = m.outputs(&i);
        m.clock(&i);
    }
    let dt = t0.elapsed();
    eprintln!("32 slots x 32 lanes: 200k cycles (model + stimulus) in {dt:.2?}");
    assert!(dt.as_secs() < 60);
}

#[test]
fn stimulus_is_deterministic_per_seed() {
    let p = ThreadMergeParams::contract_default();
    let trace = |seed| {
        let mut m = ThreadMergeModel::new(&p);
        let mut s = ThreadMergeStimulus::new(&p, seed).allow_errors(true);
        let mut last = ThreadMergeOutputs::default();
        (0..2000)
            .map(|_| {
                let i = s.next(&last);
                last = m.outputs(&i);
                m.clock(&i);
                i
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(trace(3), trace(3));
    assert_ne!(trace(3), trace(4));
}

/// What rejected a mutant: directed case names, "pair-table", "invariants" (random runs on
/// C0, and for the R20 mutants on the W = 4 lockstep configuration).
fn catchers(m: Mutation) -> Vec<String> {
    let mut caught = Vec::new();
    if let Err(e) = run_all(&mut mutant_factory(m)) {
        for line in e.lines() {
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.split(']').next()) {
                caught.push(name.to_string());
            }
        }
    }
    if pair_table(&mut mutant_factory(m)).is_err() {
        caught.push("pair-table".into());
    }
    use Mutation::*;
    let p = if matches!(m, TermPartnerOnly | MergeIgnoresC | WaitRestartsEachPark | FitsFirstOnly) {
        ways_configs()[1].1.clone()
    } else {
        ThreadMergeParams::contract_default()
    };
    for (seed, errors) in [(11, false), (12, true)] {
        let mut dut = ModelDut::from_model(ThreadMergeModel::mutated(&p, m));
        if let Err(e) = run_random(&mut dut, seed, errors, 40_000) {
            let what = e.split("}: ").nth(1).unwrap_or(&e);
            let mode = if errors { "illegal" } else { "legal" };
            caught.push(format!("invariants[{mode}: {what}]"));
        }
    }
    caught
}

/// Every mutant is rejected, each by the check named here (among others).
#[test]
fn mutants_are_caught() {
    use Mutation::*;
    let mut report = Vec::new();
    for (m, by) in [
        (RemapOrderReversed, "T5"),
        (NeedTwoSlots, "K3"),
        (PairTakesTwoSlots, "T3"),
        (TimeoutLate, "T16"),
        (DiscAfterMe, "X04"),
        (OwedBeatsMe, "T25"),
        (HoldLate, "T9"),
        (OrigLaneIgnoresPerm, "T14"),
        (MergeUsesSpawnMask, "invariants"),
        (ErrNotSticky, "T1b"),
        (ResetKeepsMergeCount, "T1b"),
        (MeReadyTied, "K1"),
        (TermNoResume, "T19"),
        (MeKeepsOwe, "X03"),
        (XlAfterMe, "X07"),
        (PerfClrLoses, "X09"),
        (ErrClrWins, "X09"),
        (CrossIgnored, "X10"),
        (PairNewest, "X11"),
        (QueueNoRoom, "X11"),
        (TermPartnerOnly, "W05"),
        (MergeIgnoresC, "W01"),
        (WaitRestartsEachPark, "W06"),
        (FitsFirstOnly, "W02"),
    ] {
        let c = catchers(m);
        report.push(format!("{m:?}: {}", c.join(", ")));
        assert!(
            c.iter().any(|x| x.starts_with(by)),
            "mutant {m:?} not caught by {by}: {c:?}"
        );
    }
    eprintln!("{}", report.join("\n"));
}

/// A failing check names the case, cycle, signal, expected and actual value.
#[test]
fn failure_message_names_cycle_and_signal() {
    let p = ParamsKind::C0.params();
    let mut dut = ModelDut::from_model(ThreadMergeModel::mutated(&p, Mutation::PairTakesTwoSlots));
    assert_eq!(
        directed::t3(&mut dut).unwrap_err(),
        "@3: free_cnt expected 3, actual 2"
    );
}

#[test]
fn params_and_widths() {
    let d = ThreadMergeParams::contract_default();
    assert_eq!(
        (
            d.lanes,
            d.slots,
            d.remap,
            d.pair_hold,
            d.merge_timeout,
            d.tag_width,
            d.prim_width
        ),
        (4, 4, true, 4, 16, 32, 16)
    );
    let w = |slots, lanes| {
        let p = ThreadMergeParams {
            slots,
            lanes,
            ..d.clone()
        };
        (p.tgid_w(), p.cnt_w(), p.lane_w())
    };
    assert_eq!(w(1, 4), (1, 1, 2));
    assert_eq!(w(2, 8), (2, 2, 3));
    assert_eq!(w(3, 16), (3, 2, 4));
    assert_eq!(w(4, 32), (3, 3, 5));
    assert_eq!(w(32, 4), (6, 6, 2));
    // R20: TGID_W = MW + ceil(log2 S), MW = 2 for W = 3, 4; 4 ids per slot. Hand-written
    // from contract §2.
    for (slots, ways, tw, ids) in [(1, 2, 1, 2), (4, 2, 3, 8), (1, 3, 2, 4), (4, 3, 4, 16), (3, 4, 4, 12), (32, 4, 7, 128)] {
        let p = ThreadMergeParams { slots, merge_ways: ways, ..d.clone() };
        assert_eq!((p.tgid_w(), p.groups()), (tw, ids), "{p:?}");
    }
    for bad in [
        ThreadMergeParams {
            lanes: 12,
            ..d.clone()
        },
        ThreadMergeParams {
            lanes: 64,
            ..d.clone()
        },
        ThreadMergeParams {
            slots: 0,
            ..d.clone()
        },
        ThreadMergeParams {
            slots: 33,
            ..d.clone()
        },
        ThreadMergeParams {
            pair_hold: 256,
            ..d.clone()
        },
        ThreadMergeParams {
            merge_timeout: 256,
            ..d.clone()
        },
        ThreadMergeParams {
            tag_width: 0,
            ..d.clone()
        },
        ThreadMergeParams {
            tag_width: 65,
            ..d.clone()
        },
        ThreadMergeParams {
            prim_width: 33,
            ..d.clone()
        },
        ThreadMergeParams {
            merge_ways: 1,
            ..d.clone()
        },
        ThreadMergeParams {
            merge_ways: 5,
            ..d.clone()
        },
        // R20: W > 2 needs candidates = 1.
        ThreadMergeParams {
            merge_ways: 3,
            candidates: 2,
            ..d.clone()
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?} accepted");
    }
}

/// Ids, masks, tags and primitives wider than their ports are truncated.
#[test]
fn inputs_are_truncated_to_port_width() {
    let p = ThreadMergeParams::contract_default();
    let mut m = ThreadMergeModel::new(&p);
    let i = ThreadMergeInputs::idle(&p).frag(0x1F, 0x1_0001, 0x1_0000_00AB, false);
    m.clock(&i); // cov 1111: single tgid 0, tag 0xAB
    let o = m.outputs(&ThreadMergeInputs {
        rf_tgid: 8,
        wb_tgid: 8,
        ..ThreadMergeInputs::idle(&p)
    });
    assert_eq!(
        (o.grp_a_cov, o.grp_a_tag, o.rf_exec_mask, o.wb_tag_self),
        (0b1111, 0xAB, 0b1111, 0xAB)
    );
    m.clock(&ThreadMergeInputs::idle(&p).disc(8, 0x13));
    assert_eq!(m.outputs(&ThreadMergeInputs::idle(&p)).st_active[0], 0b1100);
    assert!(!m.outputs(&ThreadMergeInputs::idle(&p)).err_proto);
}

/// The utilization benchmark: numbers for docs/benchmarks.md, and merging must help on edges.
#[test]
fn utilization_benchmark() {
    let t0 = Instant::now();
    let rows = workload::utilization_table(&mut model_factory, &[4, 8, 16, 32], 2024).unwrap();
    eprintln!("{}\n({:.2?})", workload::format_table(&rows), t0.elapsed());
    for r in &rows {
        assert_eq!(r.off.pairs, 0);
        assert_eq!(r.off.post_groups, r.fragments);
        assert!(r.on.utilization() >= r.off.utilization(), "{r:?}");
        if r.dist != Distribution::InteriorHeavy {
            assert!(r.on_remap.utilization() > r.off.utilization() + 0.05, "{r:?}");
        }
        // cross_primitive (R18) pairs tiles of neighbouring small triangles too.
        if r.dist == Distribution::EdgeHeavy {
            assert!(r.cross.pairs > r.on_remap.pairs && r.cross.utilization() > r.on_remap.utilization(), "{r:?}");
        }
        // candidates (R19): a fragment that fits none of the held ones waits beside them, so
        // edges and slivers pair more.
        if r.dist != Distribution::InteriorHeavy {
            assert!(r.cand4.pairs > r.on_remap.pairs && r.cand4.utilization() > r.on_remap.utilization(), "{r:?}");
            assert!(r.cand2.pairs > r.on_remap.pairs, "{r:?}");
        }
        // merge_ways (R20): sets of 3 and 4 merge where tiles are thin enough for a third
        // and a fourth to fit; slivers gain most, and 4 ways more than 3.
        assert!(r.ways3.sets4 == 0 && r.ways3.merges >= r.ways3.sets3, "{r:?}");
        if r.dist != Distribution::InteriorHeavy {
            assert!(r.ways3.sets3 > 0 && r.ways3.utilization() > r.on_remap.utilization(), "{r:?}");
            assert!(r.ways4.utilization() > r.on_remap.utilization(), "{r:?}");
        }
        if r.dist == Distribution::Thin {
            assert!(r.ways4.sets4 > 0, "{r:?}");
            assert!(r.ways3.utilization() > r.on_remap.utilization() + 0.04, "{r:?}");
            assert!(r.ways4.utilization() > r.ways3.utilization() + 0.01, "{r:?}");
        }
    }
}

/// Each workload stream is deterministic and its coverage masks are well formed.
#[test]
fn workload_streams() {
    for dist in Distribution::ALL {
        for lanes in [4, 8, 16, 32] {
            let a = workload::fragments(dist, lanes, 1);
            assert_eq!(a, workload::fragments(dist, lanes, 1));
            assert!(a.len() > 100, "{dist:?} {lanes}: {}", a.len());
            let full = super::model::ones(lanes as u32);
            assert!(a.iter().all(|f| f.cov != 0 && f.cov & !full == 0));
            assert!(a.last().unwrap().last);
        }
    }
}

/// Contract §5 masking: payloads count only under their valids, st_active / st_slot only
/// for groups / slots in use.
#[test]
fn compare_masks_payloads() {
    use super::compare::first_difference;
    let p = ThreadMergeParams::contract_default();
    let mut m = ThreadMergeModel::new(&p);
    let idle = ThreadMergeInputs::idle(&p);
    let e = m.outputs(&idle);
    assert_eq!(first_difference(&p, &e, &e.clone()), None);
    let mut a = e.clone();
    a.grp_a_tag = 7;
    a.rsp_active = 3;
    a.st_active[0] = 1;
    a.st_slot[0] = 5;
    assert_eq!(
        first_difference(&p, &e, &a),
        None,
        "payloads of invalid / free entries"
    );
    // W = 2: R20's outputs are no ports, never compared.
    a.wb_tag_c = 5;
    a.wb_lane_mem = vec![1; 4];
    a.grp_c_valid = true;
    assert_eq!(first_difference(&p, &e, &a), None, "R20 outputs at W = 2");
    a.st_owe[3] = true;
    assert!(first_difference(&p, &e, &a).unwrap().starts_with("st_owe"));
    m.clock(&idle.clone().frag(0b0111, 1, 9, true)); // single tgid 0
    let e = m.outputs(&idle);
    let mut a = e.clone();
    a.grp_b_tag = 1; // single: B fields are not compared
    a.st_active[1] = 1; // member 1 FREE
    assert_eq!(first_difference(&p, &e, &a), None);
    a.grp_a_tag = 8;
    assert_eq!(
        first_difference(&p, &e, &a).unwrap(),
        "grp_a_tag: expected 0x9, actual 0x8"
    );
    let mut a = e.clone();
    a.st_slot[0] ^= 2;
    assert!(first_difference(&p, &e, &a).unwrap().starts_with("st_slot[0]"));
}

/// R20 masking (W = 4, hand-made outputs): `grp_c_*` / `grp_d_*` only under their valids
/// (the valids whenever `grp_valid`), `rsp_retire_mask` only under `rsp_retire`, the new
/// lookups every cycle; a slot's flags while any of its 4 members is not FREE.
#[test]
fn compare_masks_ways_payloads() {
    use super::compare::first_difference;
    use super::model::{FREE, PRE};
    let p = ThreadMergeParams { merge_ways: 4, ..ThreadMergeParams::contract_default() };
    let e = ThreadMergeOutputs {
        grp_valid: true,
        grp_paired: true,
        grp_c_valid: true,
        rsp_valid: true,
        wb_orig_lane: vec![0; 4],
        wb_lane_mem: vec![0; 4],
        st_state: vec![FREE; 16],
        st_active: vec![0; 16],
        st_slot: vec![0; 4],
        st_owe: vec![false; 16],
        ..Default::default()
    };
    let diff = |f: &dyn Fn(&mut ThreadMergeOutputs)| {
        let mut a = e.clone();
        f(&mut a);
        first_difference(&p, &e, &a)
    };
    assert_eq!(diff(&|a| a.grp_d_tag = 3), None, "D invalid");
    assert_eq!(diff(&|a| a.rsp_retire_mask = 3), None, "no retire");
    assert!(diff(&|a| a.grp_c_tag = 3).unwrap().starts_with("grp_c_tag"));
    assert!(diff(&|a| a.grp_d_valid = true).unwrap().starts_with("grp_d_valid"));
    assert!(diff(&|a| a.wb_lane_mem[2] = 1).unwrap().starts_with("wb_lane_mem"));
    assert!(diff(&|a| a.wb_perm_d = 1).unwrap().starts_with("wb_perm_d"));
    assert!(diff(&|a| a.wb_tag_c = 1).unwrap().starts_with("wb_tag_c"));
    let mut e2 = e.clone();
    e2.rsp_retire = true;
    let mut a = e2.clone();
    a.rsp_retire_mask = 4;
    assert!(first_difference(&p, &e2, &a).unwrap().starts_with("rsp_retire_mask"));
    // Slot 1 = groups 4..8: in use while member 3 (group 7) is not FREE.
    let mut e3 = e.clone();
    e3.st_state[7] = PRE;
    let mut a = e3.clone();
    a.st_slot[1] = 1;
    assert!(first_difference(&p, &e3, &a).unwrap().starts_with("st_slot[1]"));
    a.st_slot[1] = 0;
    a.st_slot[2] = 1;
    assert_eq!(first_difference(&p, &e3, &a), None, "slot 2 free");
}

/// R16 saturation through the model (2^32 cycles are too many for the RTL): a counter one
/// below 2^32 - 1 reaches it with the next event and stays there; perf_clr zeroes it.
#[test]
fn model_counters_saturate() {
    let p = ThreadMergeParams { perf_counters: true, ..ThreadMergeParams::contract_default() };
    let mut m = ThreadMergeModel::new(&p);
    m.perf[0] = u32::MAX - 1;
    let full = || ThreadMergeInputs::idle(&p).frag(0b1111, 1, 0, false);
    for _ in 0..3 {
        let i = full();
        assert!(m.outputs(&i).frag_ready);
        m.clock(&i);
    }
    let read = ThreadMergeInputs { perf_sel: 0, ..ThreadMergeInputs::idle(&p) };
    assert_eq!(m.outputs(&read).perf_val, u64::from(u32::MAX));
    m.clock(&ThreadMergeInputs { perf_clr: true, ..full() });
    assert_eq!(m.outputs(&read).perf_val, 0, "clear wins over the same edge's fragment");
}
