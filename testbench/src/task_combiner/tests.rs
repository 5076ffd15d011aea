//! Unit tests: the directed cases on the model; mutants of the model that the directed
//! cases or the conservation checker must reject; the model under random stimulus with
//! conservation and coverage; the naive baseline and the utilization workload.

use super::TaskCombiner;
use super::directed::{all_cases, run_all, ParamsKind};
use super::model::{Mutation, Policy};
use super::stimulus::{Conservation, Coverage, TaskCombinerStimulus};
use super::workload::{
    interleaved_vs, naive_baseline, run_workload, tile_workload, Event, Workload, WorkloadSpec,
};
use super::*;
use std::time::Instant;

fn model_factory(p: &TaskCombinerParams) -> Box<dyn Dut<TaskCombiner>> {
    Box::new(ModelDut::new(p))
}

#[test]
fn directed_cases_pass_on_model() {
    run_all(&mut model_factory).unwrap();
}

#[test]
fn case_table_covers_spec_list() {
    let names: Vec<&str> = all_cases().iter().map(|c| c.0).collect();
    let mut want: Vec<String> = (1..=28)
        .filter(|&n| n != 24)
        .map(|n| format!("T{n:02}"))
        .collect();
    want.extend(["T24x", "T03b", "T11/nosort", "S1", "S2"].map(String::from));
    for id in want {
        assert!(
            names
                .iter()
                .any(|n| *n == id || n.starts_with(&format!("{id}/"))),
            "{id} missing from all_cases()"
        );
    }
    for kind in [
        ParamsKind::Tiny,
        ParamsKind::WideLanes,
        ParamsKind::ManyEntries,
        ParamsKind::C1NodepOldest,
        ParamsKind::C0Cap1,
    ] {
        assert!(
            all_cases().iter().any(|c| c.1 == kind),
            "no case on {kind:?}"
        );
    }
}

/// A failing check names case, cycle, signal, expected and actual.
#[test]
fn failure_message_names_case_cycle_signal() {
    let p = ParamsKind::C0.params();
    let mut dut = ModelDut::from_model(TaskCombinerModel::mutant(&p, Mutation::NoSortState));
    let err = directed::t11_sort_on(&mut dut).unwrap_err();
    assert_eq!(
        err,
        "T11 c6: out task expected 1 stype 3 state 1 count 1 Rqflush lock 1000 mask 0x1, actual 1 stype 0 state 2 count 1 Rqflush lock 1000 mask 0x1"
    );
}

const MUTATIONS: [Mutation; 26] = [
    Mutation::D3KeepsMover,
    Mutation::D3SkipsPending,
    Mutation::DepTransitive,
    Mutation::FullestTieYoungest,
    Mutation::NodepIgnored,
    Mutation::NoSortState,
    Mutation::LockMissesSlot,
    Mutation::SnapshotPreEdge,
    Mutation::DrainOverRqflush,
    Mutation::InReadyNeedsValid,
    Mutation::VictimWhilePending,
    Mutation::GenStuck,
    Mutation::AppendOverwrites,
    Mutation::CapacityIgnored,
    Mutation::PerfClrLoses,
    Mutation::StallWithoutValid,
    Mutation::IssueOrderIgnored,
    Mutation::IssueFullestTieYoungest,
    Mutation::HoldWhenFull,
    Mutation::HoldOneMore,
    Mutation::DepTagIgnoresGen,
    Mutation::DepIllegalIgnored,
    Mutation::ErrClrWins,
    Mutation::IrWaitsDuringDrain,
    Mutation::InReadyIgnoresIr,
    Mutation::DrainDoneIgnoresIr,
];

/// Names of the directed cases a mutant fails.
fn failing_cases(m: Mutation) -> Vec<&'static str> {
    all_cases()
        .into_iter()
        .filter(|(_, kind, case)| {
            let mut dut = ModelDut::from_model(TaskCombinerModel::mutant(&kind.params(), m));
            case(&mut dut).is_err()
        })
        .map(|(name, _, _)| name)
        .collect()
}

/// The `perf_counters` mutants are each rejected by X10 (rule P1: the clear wins over a
/// same-cycle event; a stall is a valid refused).
#[test]
fn perf_mutants_fail_x10() {
    for m in [Mutation::PerfClrLoses, Mutation::StallWithoutValid] {
        assert!(failing_cases(m).contains(&"X10"), "{m:?} passes X10");
    }
}

/// The `issue_order` mutants are each rejected by X11 and X11/reg (R4: the fullest first,
/// ties to the oldest).
#[test]
fn issue_order_mutants_fail_x11() {
    for m in [Mutation::IssueOrderIgnored, Mutation::IssueFullestTieYoungest] {
        let failing = failing_cases(m);
        assert!(failing.contains(&"X11") && failing.contains(&"X11/reg"), "{m:?} fails only {failing:?}");
    }
}

/// The `hold_producers` mutants (R5h): one more waiting consumer than the bound is caught by
/// X12, a hold that outlasts the last FREE entry by X12/full.
#[test]
fn hold_mutants_fail_x12() {
    assert!(failing_cases(Mutation::HoldOneMore).contains(&"X12"));
    assert!(failing_cases(Mutation::HoldWhenFull).contains(&"X12/full"));
    // Without the hold (R5), both cases fail: the producer leaves when its first consumer fills.
    let plain = TaskCombinerParams { hold_producers: 0, ..ParamsKind::C0Hold.params() };
    assert!(directed::x12_hold_producers(&mut ModelDut::new(&plain)).is_err());
    assert!(directed::x12_hold_producers_full_table(&mut ModelDut::new(&plain)).is_err());
}

/// The `dep_tags` mutants (D3t), each caught by X13: a tag that names its entry whatever the
/// generation (the stale tag of c5 adds a row), an illegal producer that does not set
/// `err_dep` (c5), and `err_clr` winning over an error of the same edge (c7). Without the key
/// (D3 alone) X13 fails too: c2's HS task depends on the resident VS task at once.
#[test]
fn dep_tag_mutants_fail_x13() {
    for m in [Mutation::DepTagIgnoresGen, Mutation::DepIllegalIgnored, Mutation::ErrClrWins] {
        assert!(failing_cases(m).contains(&"X13"), "{m:?}");
    }
    let plain = TaskCombinerParams { dep_tags: 0, ..ParamsKind::C0Tags.params() };
    assert!(directed::x13_dep_tags(&mut ModelDut::new(&plain)).is_err());
}

/// The `registered_input` mutants (R2i), each caught by X14: IR's instance waiting while
/// `drain_req` (c12: no `in_tag_valid`), `in_ready` high while IR's instance waits on a full
/// table (c23), `drain_done` with an instance in IR (c12). Without the key X14 fails too (R2:
/// the tag comes in the cycle of the hand-over). With the key on, the conservation checker
/// rejects the last two in a random run as well.
#[test]
fn registered_input_mutants_fail_x14() {
    for m in [Mutation::IrWaitsDuringDrain, Mutation::InReadyIgnoresIr, Mutation::DrainDoneIgnoresIr] {
        assert!(failing_cases(m).contains(&"X14"), "{m:?}");
    }
    let plain = TaskCombinerParams { registered_input: false, ..ParamsKind::C0RegIn.params() };
    assert!(directed::x14_registered_input(&mut ModelDut::new(&plain)).is_err());
    let p = ParamsKind::C0RegIn.params();
    for m in [Mutation::InReadyIgnoresIr, Mutation::DrainDoneIgnoresIr] {
        // A run stops at its first violation (seed 5: the in_ready mutant at cycle 22, the
        // drain_done one at 31,145: a drain starting with an instance in IR and nothing else held).
        let e = random_run(TaskCombinerModel::mutant(&p, m), 5, 50_000).err();
        assert!(e.is_some(), "{m:?} passes conservation");
    }
}

/// `registered_input` (R2i) under random stimulus: C0, and 16 entries of 4 lanes with every
/// other option that touches the instance path (`registered_issue`, `dep_tags` 2,
/// `hold_producers` 2, the counters): conservation (each `in_tag_valid` matched to the
/// instance handed over first) and every bin, the option's among them.
#[test]
fn registered_input_random_conserves_and_covers() {
    let configs = [
        ParamsKind::C0RegIn.params(),
        TaskCombinerParams {
            registered_input: true,
            registered_issue: true,
            dep_tags: 2,
            hold_producers: 2,
            perf_counters: true,
            ..TaskCombinerParams::with_shape(16, 4)
        },
    ];
    for (k, p) in configs.into_iter().enumerate() {
        let cov = random_run(TaskCombinerModel::new(&p), 200 + k as u64, 200_000).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        let bins: Vec<String> = cov.bins().iter().filter(|b| b.2).map(|(n, c, _)| format!("{n}={c}")).collect();
        println!("{p:?}: {}", bins.join(" "));
        cov.assert_all_hit().unwrap_or_else(|e| panic!("{p:?}: {e}"));
    }
}

/// The model's counters saturate at 2^32 - 1 (2^32 cycles are too long for the RTL): a
/// counter preset to all ones stays there on an event and reads 0 after `perf_clr`.
#[test]
fn perf_counters_saturate_on_the_model() {
    use super::model::perf::INST_ACC;
    let p = ParamsKind::C0Perf.params();
    let mut m = TaskCombinerModel::new(&p);
    m.set_perf_for_test(INST_ACC, u32::MAX - 1);
    let inst = TaskCombinerInputs::idle(&p).ready(true).inst(0, 1, 0, 0);
    for want in [u32::MAX - 1, u32::MAX, u32::MAX] {
        assert_eq!(m.outputs(&inst).perf_val, u64::from(want));
        m.clock(&inst);
    }
    m.clock(&TaskCombinerInputs { perf_clr: true, ..inst.clone() });
    assert_eq!(m.outputs(&inst).perf_val, 0);
}

/// Configurations of the random runs (the contract's lockstep configurations: one entry,
/// width 4, 64 entries × 64 lanes, each policy; plus per-type capacities without state
/// sorting).
fn random_configs() -> Vec<(&'static str, TaskCombinerParams)> {
    vec![
        (
            "tiny: 1 entry, width 4, 1-bit fields",
            ParamsKind::Tiny.params(),
        ),
        ("entries 1, width 8", TaskCombinerParams::with_shape(1, 8)),
        ("16 entries, width 4", TaskCombinerParams::with_shape(16, 4)),
        ("64 entries, width 64, 8 types", ParamsKind::Wide.params()),
        (
            "defaults (16 x 32), fullest",
            TaskCombinerParams::defaults(),
        ),
        (
            "C0 (5 x 8), oldest",
            TaskCombinerParams::spec_c0().with_policy(Policy::Oldest),
        ),
        (
            "C1 (4 x 8), nodep_fullest",
            TaskCombinerParams::spec_c1().with_policy(Policy::NodepFullest),
        ),
        (
            "8 x 16, nodep_oldest",
            TaskCombinerParams::with_shape(8, 16).with_policy(Policy::NodepOldest),
        ),
        (
            "C0, capacity [8, 2, 4, 1], sort_state off",
            TaskCombinerParams {
                capacity: vec![8, 2, 4, 1],
                sort_state: false,
                ..TaskCombinerParams::spec_c0()
            },
        ),
    ]
}

/// The model (or a mutant) under random stimulus with the conservation checker;
/// returns the coverage, or the first violation.
fn random_run(model: TaskCombinerModel, seed: u64, cycles: u64) -> Result<Coverage, String> {
    let p = model.params().clone();
    let mut m = model;
    let mut stim = TaskCombinerStimulus::new(&p, seed);
    let mut cov = Coverage::new(&p, false);
    let mut last = m.outputs(&TaskCombinerInputs::idle(&p));
    for _ in 0..cycles {
        let i = stim.next(&last);
        let o = m.outputs(&i);
        cov.observe(&i, &o); // also runs the Conservation checker
        if let Some(e) = cov.conservation.error() {
            return Err(format!("seed {seed}: {e}\n  inputs {i:?}\n  table:\n{m}"));
        }
        m.clock(&i);
        last = o;
    }
    Ok(cov)
}

#[test]
fn mutants_are_caught() {
    let mut report = Vec::new();
    let mut escaped = Vec::new();
    for m in MUTATIONS {
        let directed = failing_cases(m);
        let conservation: Vec<String> = random_configs()
            .into_iter()
            .filter_map(|(name, p)| {
                random_run(TaskCombinerModel::mutant(&p, m), 5, 20_000)
                    .err()
                    .map(|e| format!("{name}: {}", e.lines().next().unwrap()))
            })
            .collect();
        report.push(format!(
            "{m:?}: directed {:?}; conservation {}",
            directed,
            conservation
                .first()
                .map_or("passes".to_string(), |e| format!(
                    "fails ({} of {} configs), e.g. {e}",
                    conservation.len(),
                    random_configs().len()
                ))
        ));
        if directed.is_empty() && conservation.is_empty() {
            escaped.push(m);
        }
    }
    println!("{}", report.join("\n"));
    assert!(escaped.is_empty(), "mutants caught by nothing: {escaped:?}");
}

/// Each contract configuration: 200,000 cycles of random stimulus with conservation, and
/// every reachable coverage bin hit at least 10 times.
#[test]
fn random_stimulus_conserves_and_covers() {
    for (k, (name, p)) in random_configs().into_iter().enumerate() {
        let t = Instant::now();
        let cov = random_run(TaskCombinerModel::new(&p), 100 + k as u64, 200_000)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let took = t.elapsed();
        let bins: Vec<String> = cov
            .bins()
            .iter()
            .map(|(n, c, req)| format!("{n}={c}{}", if *req { "" } else { "(n/a)" }))
            .collect();
        println!(
            "{name}: 200000 cycles in {:.2} s, {} instances in {} tasks ({:.2} lanes/task); {}",
            took.as_secs_f64(),
            cov.hits.instances,
            cov.hits.tasks,
            cov.hits.lanes as f64 / cov.hits.tasks.max(1) as f64,
            bins.join(" ")
        );
        cov.assert_all_hit()
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            took.as_secs() < 30,
            "{name}: the model is too slow: {took:?}"
        );
    }
}

#[test]
fn coverage_requirements_follow_the_parameters() {
    let one = Coverage::new(&TaskCombinerParams::with_shape(1, 8), false);
    assert!(!one.dependency_possible() && one.eviction_possible());
    let c0 = Coverage::new(&TaskCombinerParams::spec_c0(), false);
    assert!(c0.dependency_possible() && c0.eviction_possible());
    let nodeps = TaskCombinerParams {
        shader_types: 1,
        capacity: vec![8],
        depends: vec![vec![]],
        state_width: 2,
        ..TaskCombinerParams::spec_c0()
    };
    let c = Coverage::new(&nodeps, false);
    assert!(
        !c.dependency_possible() && !c.eviction_possible(),
        "4 keys fit in 5 entries"
    );
}

/// Inputs of the first `n` cycles of a seed, driven reactively by the model.
fn trace(p: &TaskCombinerParams, seed: u64, n: usize) -> Vec<TaskCombinerInputs> {
    let mut m = TaskCombinerModel::new(p);
    let mut s = TaskCombinerStimulus::new(p, seed);
    let mut last = m.outputs(&TaskCombinerInputs::idle(p));
    (0..n)
        .map(|_| {
            let i = s.next(&last);
            last = m.outputs(&i);
            m.clock(&i);
            i
        })
        .collect()
}

#[test]
fn stimulus_is_deterministic_per_seed_and_holds_requests() {
    let p = TaskCombinerParams::spec_c1();
    assert_eq!(trace(&p, 3, 3000), trace(&p, 3, 3000));
    assert_ne!(trace(&p, 3, 3000), trace(&p, 4, 3000));
    // Upstream obligation: an instance / flush stays on the input until accepted.
    let mut m = TaskCombinerModel::new(&p);
    let mut s = TaskCombinerStimulus::new(&p, 9);
    let mut last = m.outputs(&TaskCombinerInputs::idle(&p));
    let mut prev: Option<(TaskCombinerInputs, TaskCombinerOutputs)> = None;
    for c in 0..50_000 {
        let i = s.next(&last);
        let o = m.outputs(&i);
        if let Some((pi, po)) = &prev {
            if !pi.reset && !i.reset {
                let held = |x: &TaskCombinerInputs| (x.in_stype, x.in_state, x.in_ref, x.in_tpipe);
                if pi.in_valid && !po.in_ready {
                    assert!(
                        i.in_valid && held(&i) == held(pi),
                        "cycle {c}: instance not held"
                    );
                }
                if pi.rqf_valid && !po.rqf_ready {
                    assert!(
                        i.rqf_valid && i.rqf_tpipe == pi.rqf_tpipe,
                        "cycle {c}: flush not held"
                    );
                }
            }
        }
        m.clock(&i);
        prev = Some((i, o.clone()));
        last = o;
    }
}

/// The conservation checker reports a corrupted output with its cycle.
#[test]
fn conservation_detects_a_lost_instance() {
    let p = TaskCombinerParams::spec_c0();
    let mut m = TaskCombinerModel::new(&p);
    let mut c = Conservation::new(&p);
    let ready = TaskCombinerInputs::idle(&p).ready(true);
    let mut cycle = |i: TaskCombinerInputs, corrupt: bool| {
        let mut o = m.outputs(&i);
        if corrupt && o.out_valid {
            o.out_refs[1] ^= 1;
        }
        m.clock(&i);
        c.observe(&i, &o)
    };
    cycle(ready.clone().with_reset(), false).unwrap();
    for k in 0..8 {
        cycle(ready.clone().inst(0, 1, 10 + k, 0), false).unwrap();
    }
    cycle(ready.clone(), false).unwrap(); // c9: PENDING
    let e = cycle(ready.clone(), true).unwrap_err(); // c10: out
    assert!(
        e.starts_with("cycle 10: out task") && e.contains("lane 1"),
        "{e}"
    );
    assert_eq!(
        cycle(ready, false).unwrap_err(),
        e,
        "the first violation is kept"
    );
}

#[test]
fn params_and_widths() {
    let d = TaskCombinerParams::defaults();
    assert_eq!(
        (
            d.entries,
            d.width,
            d.tile_pipes,
            d.shader_types,
            d.state_width,
            d.ref_width,
            d.tag_gen_width
        ),
        (16, 32, 4, 4, 8, 13, 4)
    );
    assert_eq!(
        (d.policy, d.sort_state, d.capacity.clone()),
        (Policy::Fullest, true, vec![32; 4])
    );
    assert_eq!(d.depends, vec![vec![], vec![0], vec![1], vec![0, 2]]);
    assert_eq!(
        (
            d.ent_w(),
            d.tag_w(),
            d.cnt_w(),
            d.lane_w(),
            d.tp_w(),
            d.stype_w()
        ),
        (4, 8, 6, 5, 2, 2)
    );
    let c0 = TaskCombinerParams::spec_c0();
    assert_eq!(
        (c0.entries, c0.width, c0.state_width, c0.capacity.clone()),
        (5, 8, 4, vec![8; 4])
    );
    assert_eq!(
        (c0.ent_w(), c0.tag_w(), c0.cnt_w(), c0.lane_w()),
        (3, 7, 4, 3)
    );
    assert_eq!(TaskCombinerParams::spec_c1().entries, 4);
    let t = ParamsKind::Tiny.params();
    assert_eq!(
        (
            t.ent_w(),
            t.tag_w(),
            t.cnt_w(),
            t.lane_w(),
            t.tp_w(),
            t.stype_w()
        ),
        (1, 2, 3, 2, 1, 1)
    );
    let w = ParamsKind::Wide.params();
    assert_eq!(
        (
            w.ent_w(),
            w.tag_w(),
            w.cnt_w(),
            w.lane_w(),
            w.tp_w(),
            w.stype_w()
        ),
        (7, 15, 7, 6, 3, 3)
    );
    assert_eq!(
        TaskCombinerParams::default_depends(1),
        vec![Vec::<usize>::new()]
    );
    assert_eq!(
        TaskCombinerParams::default_depends(3),
        vec![vec![], vec![0], vec![1]]
    );
    assert_eq!(
        TaskCombinerParams::default_depends(6)[3..],
        [vec![0, 2], vec![], vec![]]
    );
    for bad in [
        TaskCombinerParams {
            entries: 0,
            ..d.clone()
        },
        TaskCombinerParams {
            entries: 129,
            ..d.clone()
        },
        TaskCombinerParams {
            width: 12,
            ..d.clone()
        },
        TaskCombinerParams {
            tile_pipes: 9,
            ..d.clone()
        },
        TaskCombinerParams {
            state_width: 17,
            ..d.clone()
        },
        TaskCombinerParams {
            ref_width: 33,
            ..d.clone()
        },
        TaskCombinerParams {
            tag_gen_width: 0,
            ..d.clone()
        },
        TaskCombinerParams {
            capacity: vec![32, 33, 1, 1],
            ..d.clone()
        },
        TaskCombinerParams {
            capacity: vec![32; 3],
            ..d.clone()
        },
        TaskCombinerParams {
            depends: vec![vec![], vec![1], vec![1], vec![0, 2]],
            ..d.clone()
        },
        TaskCombinerParams {
            depends: vec![vec![], vec![0], vec![1], vec![0, 0]],
            ..d.clone()
        },
    ] {
        assert!(bad.validate().is_err(), "{bad:?} accepted");
    }
}

/// Inputs wider than their port are cut to the port width.
#[test]
fn inputs_are_truncated_to_port_width() {
    let p = ParamsKind::Tiny.params(); // 1-bit state, ref, tile pipe and shader type
    let mut m = TaskCombinerModel::new(&p);
    let i = TaskCombinerInputs::idle(&p).inst(2, 3, 0xFF, 2);
    m.clock(&i);
    let o = m.outputs(&TaskCombinerInputs::idle(&p).inst(0, 1, 0, 0));
    assert_eq!(
        (o.st_stype[0], o.st_state[0], o.st_lockmask[0], o.in_lane),
        (0, 1, 1, 1)
    );
}

/// Lockstep compares only the qualified ports (contract §5).
#[test]
fn first_difference_follows_contract_section_5() {
    let p = TaskCombinerParams::spec_c0();
    let mut m = TaskCombinerModel::new(&p);
    let i = TaskCombinerInputs::idle(&p).ready(true).inst(0, 1, 7, 0);
    let e = m.outputs(&i);
    let mut a = e.clone();
    a.out_refs[3] = 99; // out_valid = 0: don't care
    a.st_count[2] = 5; // entry 2 not valid: don't care
    a.rqf_done_tpipe = 3; // rqf_done = 0: don't care
    assert_eq!(first_difference(&p, &i, &e, &a), None);
    a.in_tag ^= 1;
    assert_eq!(
        first_difference(&p, &i, &e, &a),
        Some("in_tag: expected 0x8, actual 0x9".into())
    );
    assert_eq!(
        first_difference(&p, &TaskCombinerInputs::idle(&p), &e, &a),
        None,
        "in_tag without in_valid"
    );
    m.clock(&i);
    let e = m.outputs(&TaskCombinerInputs::idle(&p));
    let mut a = e.clone();
    a.st_count[0] = 2;
    assert_eq!(
        first_difference(&p, &i, &e, &a),
        Some("st_count[0]: expected 0x1, actual 0x2".into())
    );
    // R2i: in_tag_valid every cycle; in_tag / in_lane only with it, whatever in_valid.
    let p = ParamsKind::C0RegIn.params();
    let mut m = TaskCombinerModel::new(&p);
    let idle = TaskCombinerInputs::idle(&p).ready(true);
    let e = m.outputs(&i);
    assert!(e.in_ready && !e.in_tag_valid, "IR empty: ready, nothing enters");
    let mut a = e.clone();
    a.in_tag ^= 1;
    assert_eq!(first_difference(&p, &i, &e, &a), None, "in_tag without in_tag_valid, in_valid && in_ready");
    m.clock(&i);
    let e = m.outputs(&idle);
    assert!(e.in_tag_valid && e.st_valid == 0, "IR's instance enters the cycle after the hand-over");
    let mut a = e.clone();
    a.in_lane ^= 1;
    assert_eq!(first_difference(&p, &idle, &e, &a), Some("in_lane: expected 0x0, actual 0x1".into()));
    a.in_tag_valid = false;
    assert_eq!(first_difference(&p, &idle, &e, &a), Some("in_tag_valid: expected 0x1, actual 0x0".into()));
}

/// The T04 stream: 16 alternating VS/A, VS/B instances.
fn t04_stream() -> Workload {
    let events = (0..16u64)
        .map(|k| Event::Inst {
            stype: 0,
            state: 1 + k % 2,
            r: k,
            tpipe: 0,
            producers: [usize::MAX; 4],
        })
        .collect();
    Workload {
        events,
        instances: 16,
    }
}

/// T04's naive reference: 16 tasks of 1 lane (15 key changes and the final drain),
/// efficiency 1/8; the combiner: 2 tasks of 8 lanes, efficiency 1.
#[test]
fn naive_baseline_on_t04_stream() {
    let w = t04_stream();
    let naive = naive_baseline(&w, 8, &[8; 4]);
    assert_eq!((naive.tasks, naive.lanes), (16, 16));
    assert_eq!(naive.utilization(), 1.0 / 8.0);
    let tcu = run_workload(&mut ModelDut::new(&TaskCombinerParams::spec_c0()), &w).unwrap();
    assert_eq!((tcu.tasks, tcu.lanes), (2, 16));
    assert_eq!(tcu.utilization(), 1.0);
    println!(
        "T04 stream: naive {} tasks, {:.3} utilization; combiner {} tasks, {:.3}",
        naive.tasks,
        naive.utilization(),
        tcu.tasks,
        tcu.utilization()
    );
}

/// A one-entry combiner is the naive scheme: same tasks and lanes on the tile workload.
#[test]
fn one_entry_model_equals_naive_baseline() {
    for width in [8, 16, 32] {
        for seed in [1, 2] {
            let p = TaskCombinerParams::with_shape(1, width);
            let w = tile_workload(&WorkloadSpec::for_params(&p, seed));
            let model = run_workload(&mut ModelDut::new(&p), &w).unwrap();
            let naive = naive_baseline(&w, width, &p.capacity);
            assert_eq!(
                (model.tasks, model.lanes),
                (naive.tasks, naive.lanes),
                "width {width} seed {seed}"
            );
        }
    }
}

/// Utilization of the tile workload for table sizes 1..32 and widths 8, 16, 32, against
/// the naive baseline (printed for docs/benchmarks.md); more entries never do worse than naive.
#[test]
fn utilization_table() {
    let seed = 1;
    let mut rows = vec!["entries | width 8 | width 16 | width 32".to_string()];
    let spec_w = TaskCombinerParams::with_shape(1, 8);
    let w = tile_workload(&WorkloadSpec::for_params(&spec_w, seed));
    let flushes = w
        .events
        .iter()
        .filter(|e| matches!(e, Event::Flush { .. }))
        .count();
    let locks = w
        .events
        .iter()
        .filter(|e| matches!(e, Event::Lock { .. }))
        .count();
    let naive: Vec<_> = [8, 16, 32]
        .map(|width| naive_baseline(&w, width, &[width; 4]))
        .to_vec();
    rows.push(format!(
        "naive | {}",
        naive
            .iter()
            .map(|r| format!("{:.3} ({} tasks)", r.utilization(), r.tasks))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    for entries in [1, 2, 4, 8, 16, 32] {
        let mut cells = Vec::new();
        for (k, width) in [8, 16, 32].into_iter().enumerate() {
            let p = TaskCombinerParams::with_shape(entries, width);
            assert_eq!(
                tile_workload(&WorkloadSpec::for_params(&p, seed)).events,
                w.events,
                "the workload does not depend on entries/width"
            );
            let r = run_workload(&mut ModelDut::new(&p), &w).unwrap();
            assert!(
                r.utilization() >= naive[k].utilization() - 1e-12,
                "entries {entries} width {width}"
            );
            cells.push(format!("{:.3} ({} tasks)", r.utilization(), r.tasks));
        }
        rows.push(format!("{entries} | {}", cells.join(" | ")));
    }
    println!(
        "tile workload seed {seed}: {} instances, {} locks, {} flushes\n{}",
        w.instances,
        locks,
        flushes,
        rows.join("\n")
    );
}

/// Spec R2: VS only, 3 states interleaved at random, 2 tile pipes: lanes per task at
/// least 3× the naive model at width 8 (spec: ≈ 8 vs ≈ 1.5).
#[test]
fn r2_efficiency_regression() {
    let w = interleaved_vs(7, 3, 2, 3000);
    let naive = naive_baseline(&w, 8, &[8; 4]);
    let mut line = format!("R2 naive {:.2} lanes/task", naive.lanes_per_task());
    for entries in [2, 4, 8, 16] {
        let r = run_workload(
            &mut ModelDut::new(&TaskCombinerParams {
                entries,
                ..TaskCombinerParams::spec_c0()
            }),
            &w,
        )
        .unwrap();
        line += &format!(", {entries} entries {:.2}", r.lanes_per_task());
        if entries >= 4 {
            assert!(r.lanes_per_task() >= 3.0 * naive.lanes_per_task(), "{line}");
        }
    }
    println!("{line}");
}

/// `hold_producers` (R5h) on the tile workload at 16 entries x 32 lanes: hull-shader tasks
/// leave fuller than without it, every instance still leaves (the run drains), and more
/// allowed waiting consumers never fill hull tasks less on these seeds.
#[test]
fn hold_producers_fills_hull_tasks() {
    for (seed, ds) in [(1, (3, 10)), (2, (3, 10)), (1, (16, 32)), (2, (16, 32))] {
        let base = TaskCombinerParams::with_shape(16, 32);
        let w = tile_workload(&WorkloadSpec { ds_per_patch: ds, ..WorkloadSpec::for_params(&base, seed) });
        let mut last = 0.0;
        for hold in [0, 1, 2, 4, 8] {
            let p = TaskCombinerParams { hold_producers: hold, ..base.clone() };
            let r = run_workload(&mut ModelDut::new(&p), &w).unwrap();
            eprintln!("seed {seed} ds {ds:?} hold {hold}: {}", r.hold_cells());
            assert_eq!(r.instances, w.instances as u64);
            if hold > 0 {
                assert!(r.lanes_per_task_of(1) >= last, "seed {seed} hold {hold}: {r:?}");
            }
            last = r.lanes_per_task_of(1);
        }
    }
}
