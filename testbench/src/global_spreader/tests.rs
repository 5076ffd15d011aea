//! Unit tests: the directed cases on the model, the model under random stimulus with the
//! invariant checker and coverage on the four lockstep configurations, and mutants of the
//! model that a directed case or an invariant must reject.

use super::GlobalSpreader;
use super::directed::{all_cases, run_all, ParamsKind};
use super::model::{Mutation, Regs, Select, PATCH, PIX, TRI, VTX};
use super::stimulus::{readable_registers, Coverage, GlobalSpreaderStimulus, Invariants};
use super::workload::{format_table, run_workload, Workload};
use super::*;

fn model_factory(p: &GlobalSpreaderParams) -> Box<dyn Dut<GlobalSpreader>> {
    Box::new(ModelDut::new(p))
}

#[test]
fn directed_cases_pass_on_model() {
    run_all(&mut model_factory).unwrap();
}

#[test]
fn case_table_covers_spec_and_contract_lists() {
    let names: Vec<&str> = all_cases().iter().map(|c| c.0).collect();
    for n in 1..=34 {
        let id = format!("TC-{n:02}");
        assert!(names.contains(&id.as_str()), "{id} missing from all_cases()");
    }
    for kind in [ParamsKind::OneEu, ParamsKind::Eu16, ParamsKind::VtxTri] {
        assert!(all_cases().iter().any(|c| c.1 == kind), "no case on {kind:?}");
    }
}

/// One random run of the model: stimulus, invariants every cycle, coverage; with
/// `drain`, a drain at the end and the drained-state checks.
fn random_run(p: &GlobalSpreaderParams, seed: u64, allow_errors: bool, cycles: u64, drain: bool) -> Result<Coverage, String> {
    let mut m = GlobalSpreaderModel::new(p);
    let mut stim = GlobalSpreaderStimulus::new(p, seed).allow_errors(allow_errors);
    let mut inv = Invariants::new(p, !allow_errors);
    let mut cov = Coverage::new(p, allow_errors);
    let mut last = GlobalSpreaderOutputs::default();
    let mut n = 0;
    while n < cycles || (drain && !stim.drained()) {
        if drain && n == cycles {
            stim.drain();
        }
        if n > cycles + 100_000 {
            return Err(format!("eus {} seed {seed}: not drained after {n} cycles: {}", p.eus, stim.pending()));
        }
        let i = stim.next(&last);
        let o = m.outputs(&i);
        inv.check(&i, &o).map_err(|e| format!("eus {} seed {seed}: {e}", p.eus))?;
        cov.observe(&i, &o);
        m.clock(&i);
        last = o;
        n += 1;
    }
    if drain {
        inv.finish()?;
    }
    Ok(cov)
}

fn bins(cov: &Coverage) -> String {
    cov.bins().iter().filter(|b| b.2).map(|(n, c, _)| format!("{n}={c}")).collect::<Vec<_>>().join(" ")
}

#[test]
fn random_legal_runs_hold_invariants_and_cover() {
    for p in GlobalSpreaderParams::lockstep_configs() {
        let cov = random_run(&p, 1, false, 60_000, true).unwrap();
        eprintln!("legal eus={}: {}", p.eus, bins(&cov));
        cov.assert_all_hit().unwrap_or_else(|e| panic!("eus {}: {e}", p.eus));
    }
}

#[test]
fn random_error_runs_hold_invariants_and_cover() {
    for p in GlobalSpreaderParams::lockstep_configs() {
        let cov = random_run(&p, 7, true, 60_000, true).unwrap();
        eprintln!("errors eus={}: {}", p.eus, bins(&cov));
        cov.assert_all_hit().unwrap_or_else(|e| panic!("eus {}: {e}", p.eus));
    }
}

/// Other parameter sets: VGRP 4 and 16, small tables, type subsets, narrow widths.
#[test]
fn random_runs_on_other_parameters() {
    let d = GlobalSpreaderParams::default();
    let sets = [
        GlobalSpreaderParams { vgrp: 4, vdt_depth: 16, pt_depth: 8, ..d.clone() },
        GlobalSpreaderParams { vgrp: 16, vdt_depth: 4, pt_depth: 2, idx_w: 8, ..d.clone() },
        GlobalSpreaderParams { types: [true, true, false, false], ..d.clone() },
        GlobalSpreaderParams { types: [false, true, true, false], ..d.clone() },
        GlobalSpreaderParams { types: [false, false, false, true], ..GlobalSpreaderParams::with_eus(2) },
        GlobalSpreaderParams {
            res_w: 6,
            ent_w: 2,
            addr_w: 8,
            res_total: vec![63; 5],
            edt_total: vec![4; 5],
            yield_enable: true,
            ..d.clone()
        },
        GlobalSpreaderParams {
            res_w: 4,
            ent_w: 1,
            res_total: vec![15; 3],
            edt_total: vec![2; 3],
            ..GlobalSpreaderParams::with_eus(3)
        },
        GlobalSpreaderParams::with_eus(32),
        // aging (R7a): the smallest limit, with yield, and on two classes.
        GlobalSpreaderParams { aging: 3, ..d.clone() },
        GlobalSpreaderParams { aging: 4, yield_enable: true, ..d.clone() },
        GlobalSpreaderParams { aging: 3, types: [false, true, false, true], ..d.clone() },
        // class priority (R7b): the register (random CLASS_PRIO writes), with yield and a
        // non-default reset order, a constant non-default order, two classes, and with aging.
        GlobalSpreaderParams { class_priority_reg: true, ..d.clone() },
        GlobalSpreaderParams {
            class_priority_reg: true,
            class_priority: Some(vec![PATCH, VTX, PIX, TRI]),
            yield_enable: true,
            ..d.clone()
        },
        GlobalSpreaderParams { class_priority: Some(vec![VTX, PATCH, TRI, PIX]), ..d.clone() },
        GlobalSpreaderParams { class_priority: Some(vec![VTX, TRI]), types: [true, true, false, false], ..d.clone() },
        GlobalSpreaderParams {
            class_priority_reg: true,
            class_priority: Some(vec![PATCH, TRI]),
            types: [false, true, false, true],
            ..d.clone()
        },
        GlobalSpreaderParams { class_priority_reg: true, aging: 3, ..d.clone() },
        // pixel order (R14): beside yield, aging and the class-priority register, on triangle
        // and pixel only (no VDT), and with the narrowest widths.
        GlobalSpreaderParams { pixel_reorder: 4, yield_enable: true, ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 8, aging: 3, class_priority_reg: true, ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 2, types: [false, true, true, false], ..d.clone() },
        GlobalSpreaderParams {
            pixel_reorder: 32,
            res_w: 4,
            ent_w: 1,
            res_total: vec![15; 3],
            edt_total: vec![2; 3],
            ..GlobalSpreaderParams::with_eus(3)
        },
    ];
    for p in sets {
        for errs in [false, true] {
            random_run(&p, 3, errs, 15_000, true).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        }
    }
}

#[test]
fn sixteen_eus_200k_cycles_are_fast() {
    let p = GlobalSpreaderParams::lockstep_16eu();
    let t = std::time::Instant::now();
    let mut m = GlobalSpreaderModel::new(&p);
    let mut stim = GlobalSpreaderStimulus::new(&p, 5);
    let mut last = GlobalSpreaderOutputs::default();
    for _ in 0..200_000 {
        let i = stim.next(&last);
        last = m.outputs(&i);
        m.clock(&i);
    }
    let s = t.elapsed().as_secs_f64();
    eprintln!("200k cycles of 16 EUs (model + stimulus): {s:.1} s");
    assert!(s < 60.0, "{s} s");
}

#[test]
fn stimulus_is_deterministic_per_seed() {
    let p = GlobalSpreaderParams::lockstep_5eu();
    let trace = |seed| {
        let mut m = GlobalSpreaderModel::new(&p);
        let mut stim = GlobalSpreaderStimulus::new(&p, seed).allow_errors(true);
        let mut last = GlobalSpreaderOutputs::default();
        (0..2000)
            .map(|_| {
                let i = stim.next(&last);
                last = m.outputs(&i);
                m.clock(&i);
                i
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(trace(3), trace(3));
    assert_ne!(trace(3), trace(4));
}

/// The sweep reads every readable register well within 10,000 cycles.
#[test]
fn register_sweep_is_short_enough() {
    let p = GlobalSpreaderParams::with_eus(32);
    let n = readable_registers(&p).len();
    assert!(n * 3 * 2 < 10_000, "{n} registers");
    assert_eq!(readable_registers(&GlobalSpreaderParams::default()).len(), 5 + 12 + 5 * 6 + 5 * 12);
}

#[test]
fn params_defaults_and_widths() {
    let d = GlobalSpreaderParams::default();
    assert_eq!((d.eus, d.vgrp, d.vdt_depth, d.pt_depth, d.idx_w, d.res_w, d.ent_w, d.addr_w), (5, 8, 256, 256, 16, 12, 8, 32));
    assert_eq!((d.res_total[4], d.edt_total[0], d.eu_enable, d.dedicated[PIX]), (64, 256, 0x1F, 0x1F));
    assert_eq!((d.enable, d.locality, d.yield_enable), (true, true, false));
    assert_eq!((d.eu_w(), d.prio_w(), d.fe_w(), d.av_w(), d.elem_w(), d.vcnt_w()), (3, 4, 9, 3, 3, 4));
    assert_eq!((d.pg(), d.grp_w(), d.vdt_aw(), d.prid_w()), (2, 1, 8, 8));
    let one = GlobalSpreaderParams::with_eus(1);
    assert_eq!((one.eu_w(), one.prio_w(), one.av_w()), (1, 2, 1));
    let sixteen = GlobalSpreaderParams::lockstep_16eu();
    assert_eq!((sixteen.eu_w(), sixteen.av_w(), sixteen.prio_reset(TRI, 15), sixteen.prio_reset(TRI, 16)), (4, 5, 15, 31));
    assert_eq!(GlobalSpreaderParams { vgrp: 16, ..d.clone() }.pg(), 1);
    assert_eq!(GlobalSpreaderParams { vgrp: 4, ..d.clone() }.grp_w(), 2);
    assert_eq!(GlobalSpreaderParams::with_eus(3).res_total, vec![64; 3]);
    assert_eq!(GlobalSpreaderParams { res_w: 4, ..GlobalSpreaderParams::with_eus(1) }.res_w, 4);
    assert_eq!((d.slot(0x1234), d.vtag(0x1234)), (0x46, 0x2));
    for p in GlobalSpreaderParams::lockstep_configs() {
        assert_eq!(p.validate(), Ok(()));
    }
    // R7b: RANK by type code [vertex, triangle, pixel, patch]; absent types 0.
    assert_eq!(d.class_rank_reset(), [3, 1, 0, 2]);
    let vt = GlobalSpreaderParams { types: [true, true, false, false], ..d.clone() };
    assert_eq!(vt.class_rank_reset(), [1, 0, 0, 0]);
    let cp = GlobalSpreaderParams { class_priority: Some(vec![VTX, PATCH, TRI, PIX]), ..d.clone() };
    assert_eq!((cp.class_rank_reset(), cp.class_priority_changed(), cp.validate()), ([0, 2, 3, 1], true, Ok(())));
    let same = GlobalSpreaderParams { class_priority: Some(vec![TRI, VTX]), ..vt.clone() };
    assert_eq!((same.class_rank_reset(), same.class_priority_changed()), ([1, 0, 0, 0], false));
    // R14: D = 0 (no ROB) or a power of two 2..64 with pixel; RB_W = log2 D.
    assert_eq!((d.pixel_reorder, d.rb_w()), (0, 0));
    for (dd, w) in [(2, 1), (8, 3), (64, 6)] {
        let r = GlobalSpreaderParams { pixel_reorder: dd, ..d.clone() };
        assert_eq!((r.rb_w(), r.validate()), (w, Ok(())));
    }
    // R15: W = 1 by default; ways of 4 sets and more, with or without patch.
    assert_eq!((d.vdt_ways, d.way_w(), d.set_w(), d.sets()), (1, 0, 8, 256));
    for (w, depth, types) in [(2, 8, [true, true, false, false]), (4, 16, [true; 4]), (2, 8, [false, false, false, true]), (4, 1024, [true; 4])] {
        let q = GlobalSpreaderParams { vdt_ways: w, vdt_depth: depth, types, pt_depth: 8, ..d.clone() };
        assert_eq!(q.validate(), Ok(()), "{w} ways of {depth}");
    }
    let bad = [
        GlobalSpreaderParams { eus: 33, ..GlobalSpreaderParams::with_eus(32) },
        GlobalSpreaderParams { types: [false; 4], ..d.clone() },
        GlobalSpreaderParams { types: [true, false, true, false], ..d.clone() },
        GlobalSpreaderParams { vgrp: 2, ..d.clone() },
        GlobalSpreaderParams { vdt_depth: 100, ..d.clone() },
        GlobalSpreaderParams { vgrp: 4, vdt_depth: 2, ..d.clone() },
        GlobalSpreaderParams { pt_depth: 2048, ..d.clone() },
        GlobalSpreaderParams { idx_w: 11, ..d.clone() },
        GlobalSpreaderParams { res_w: 17, ..d.clone() },
        GlobalSpreaderParams { ent_w: 0, ..d.clone() },
        GlobalSpreaderParams { addr_w: 65, ..d.clone() },
        GlobalSpreaderParams { res_total: vec![4096; 5], ..d.clone() },
        GlobalSpreaderParams { edt_total: vec![257; 5], ..d.clone() },
        GlobalSpreaderParams { priority: [vec![0, 0], vec![], vec![], vec![]], ..d.clone() },
        GlobalSpreaderParams { priority: [vec![5], vec![], vec![], vec![]], ..d.clone() },
        GlobalSpreaderParams { dedicated: [0x20, 0, 0, 0], ..d.clone() },
        GlobalSpreaderParams { class_priority: Some(vec![PIX, TRI, PATCH]), ..d.clone() },
        GlobalSpreaderParams { class_priority: Some(vec![PIX, TRI, PATCH, VTX, VTX]), ..d.clone() },
        GlobalSpreaderParams { class_priority: Some(vec![PIX, TRI, PATCH, 4]), ..d.clone() },
        GlobalSpreaderParams { class_priority: Some(vec![VTX, TRI, PIX]), types: [true, true, false, false], ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 1, ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 3, ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 128, ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 2, types: [true, true, false, false], ..d.clone() },
        // R15: 1, 2, 4 ways; W > 1 needs a VDT and 4 sets a way (16 / VGRP with patch is at
        // most 4, so 4 it is).
        GlobalSpreaderParams { vdt_ways: 0, ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 3, ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 8, ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 2, types: [false, true, true, false], ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 2, vdt_depth: 4, ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 4, vdt_depth: 8, types: [true, true, false, false], ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 4, vdt_depth: 8, vgrp: 4, ..d.clone() },
    ];
    for b in bad {
        assert!(b.validate().is_err(), "{b:?} accepted");
    }
}

/// `first_difference`: payloads compared only with `ar_valid`, read data only with
/// `cfg_rvalid`, nothing in reset cycles; absent ports ignored.
#[test]
fn first_difference_follows_contract_section_5() {
    let p = GlobalSpreaderParams::default();
    let m = GlobalSpreaderModel::new(&p);
    let e = m.outputs(&GlobalSpreaderInputs::idle(&p));
    assert_eq!(first_difference(&p, &e, &e), None);
    let mut a = e.clone();
    a.ar_footprint = [7, 0, 0, 0];
    a.cfg_rdata = 9;
    assert_eq!(first_difference(&p, &e, &a), None);
    a.ar_valid = 1;
    assert_eq!(first_difference(&p, &e, &a).unwrap(), "ar_valid: expected 0x0, actual 0x1");
    let mut a = e.clone();
    a.st_vdt_valid[200] = true;
    assert!(first_difference(&p, &e, &a).unwrap().starts_with("st_vdt_valid[200]"));
    let mut a = e.clone();
    a.in_reset = true;
    a.busy = true;
    assert_eq!(first_difference(&p, &e, &a), None);
    let mut e2 = e.clone();
    e2.ar_valid = 2;
    let mut a = e2.clone();
    a.ar_ref_grp[2] = 1;
    assert!(first_difference(&p, &e2, &a).unwrap().starts_with("ar_ref_grp[2]"));
    let mut e3 = e.clone();
    e3.cfg_rvalid = true;
    let mut a = e3.clone();
    a.cfg_rdata = 5;
    assert!(first_difference(&p, &e3, &a).unwrap().starts_with("cfg_rdata"));
    // Absent ports: no PIX → ar_pix_mask and xp_ready are not compared.
    let q = GlobalSpreaderParams { types: [true, true, false, false], ..p.clone() };
    let mut a = e2.clone();
    a.ar_pix_mask = 3;
    a.xp_ready = !a.xp_ready;
    assert_eq!(first_difference(&q, &e2, &a), None);
    // R14: po_valid and po_seq every cycle and ar_seq with a request, only with the key.
    let r = GlobalSpreaderParams { pixel_reorder: 4, ..p.clone() };
    let mut a = e.clone();
    a.ar_seq = 3;
    assert_eq!(first_difference(&r, &e, &a), None);
    a.po_seq = 1;
    assert_eq!(first_difference(&p, &e, &a), None);
    assert_eq!(first_difference(&r, &e, &a).unwrap(), "po_seq: expected 0x0, actual 0x1");
    let mut a = e.clone();
    a.po_valid = true;
    assert!(first_difference(&r, &e, &a).unwrap().starts_with("po_valid"));
    let mut a = e2.clone();
    a.ar_seq = 2;
    assert_eq!(first_difference(&p, &e2, &a), None);
    assert_eq!(first_difference(&r, &e2, &a).unwrap(), "ar_seq: expected 0x0, actual 0x2");
    // R15: ar_vdt_way with a request, only with vdt_ways > 1.
    let w = GlobalSpreaderParams { vdt_ways: 2, ..p.clone() };
    let mut a = e.clone();
    a.ar_vdt_way = 1;
    assert_eq!(first_difference(&w, &e, &a), None);
    let mut a = e2.clone();
    a.ar_vdt_way = 1;
    assert_eq!(first_difference(&p, &e2, &a), None);
    assert_eq!(first_difference(&w, &e2, &a).unwrap(), "ar_vdt_way: expected 0x0, actual 0x1");
}

/// Ways to get the block wrong; each is caught by a named directed case, or (`None`) by
/// the invariant checker under random stimulus.
fn mutants() -> Vec<(Mutation, Option<&'static str>)> {
    use Mutation::*;
    vec![
        (StaleFree, Some("TC-04")),
        (StaleTables, Some("TC-08/b2b")),
        (RefuseNoMask, Some("TC-12")),
        (MaskNeverCleared, Some("TC-34")),
        (HomeIgnoresDedicated, Some("TC-07")),
        (NoMajority, Some("TC-09")),
        (AlwaysYield, Some("TC-15")),
        (NotSticky, Some("TC-17")),
        (RejectOnEveryCycle, Some("TC-17")),
        (ReadyOnlyWhenEmpty, Some("TC-04")),
        (PendNoCancel, Some("TC-13")),
        (PatchNoRound, Some("TC-19/auto")),
        (RefuseWins, Some("TC-12/both")),
        (ClearWins, Some("TC-25")),
        (PerfClrLoses, Some("X08")),
        (ErrClrWins, Some("X08")),
        (LoadedTiesToLast, Some("X09")),
        (LoadedIgnoresHome, Some("X09")),
        (RoundRobinIgnoresHome, Some("X10")),
        (RoundRobinOnRefuse, Some("X10")),
        (RoundRobinHomeAckHolds, Some("X10")),
        (RoundRobinNoWrap, Some("X10")),
        (AgingIgnored, Some("X11")),
        (AgingPastLimit, Some("X11")),
        (AgingWhileHeld, Some("X11")),
        (RankIgnored, Some("X12")),
        (RankTiesByCode, Some("X12")),
        (RankFieldsByPosition, Some("X12")),
        (RankStoresAbsent, Some("X12/vtx-tri")),
        (RobPopBeforeDone, Some("X13")),
        (RobFullIgnored, Some("X13")),
        (RobPopIgnoresReady, Some("X13")),
        (RobSeqFromHead, Some("X13")),
        (RobAckPopLosesPop, Some("X13")),
        (RobCompleteAny, Some("X13")),
        (WaysIgnored, Some("X14")),
        (WayHighestFree, Some("X14")),
        (RefHighestWay, Some("X14")),
        (TagFromVdtAw, Some("X14")),
        (PatchSplitWays, Some("X14/patch")),
        (HeldRefsRelooked, Some("X14")),
        (KindsIgnoredInFit, Some("X15")),
        (DebitKind0Everywhere, Some("X15")),
        (MinResKind0, Some("X15")),
        (ClampKind0Only, Some("X15")),
        (KindTotalKeepsFree, Some("X15")),
        (StaleFree, None),
        (StaleTables, None),
        (NotSticky, None),
        (RefuseNoMask, None),
        (HomeIgnoresDedicated, None),
        (NoMajority, None),
        (AlwaysYield, None),
        (ReadyOnlyWhenEmpty, None),
    ]
}

#[test]
fn directed_cases_kill_every_mutant() {
    for (kind, case) in mutants() {
        let Some(case) = case else { continue };
        let res = run_all(&mut |p| Box::new(ModelDut::from_model(GlobalSpreaderModel::mutant(p, kind))));
        let err = res.expect_err(&format!("mutant {kind:?} passes every directed case"));
        assert!(err.contains(&format!("[{case}]")), "mutant {kind:?} not caught by {case}:\n{err}");
        eprintln!("{kind:?}: {} directed cases fail, e.g. {}", err.lines().count(), err.lines().next().unwrap());
    }
}

#[test]
fn invariants_kill_mutants() {
    for (kind, case) in mutants() {
        if case.is_some() {
            continue;
        }
        let e = [GlobalSpreaderParams::lockstep_5eu(), GlobalSpreaderParams::lockstep_3eu()]
            .iter()
            .flat_map(|p| (1..=3).map(move |seed| (p, seed)))
            .find_map(|(p, seed)| first_violation(p, kind, seed, 30_000))
            .unwrap_or_else(|| panic!("mutant {kind:?} passes the invariants"));
        eprintln!("{kind:?}: {e}");
    }
}

/// R7a's bound in the invariant checker can fail: a model that ignores `aging` (R7 as written)
/// passes a lower class over for longer than aging + 3 grant decisions in a row.
#[test]
fn invariants_catch_a_model_without_aging() {
    let p = GlobalSpreaderParams { aging: 3, ..GlobalSpreaderParams::lockstep_5eu() };
    let e = first_violation(&p, Mutation::AgingIgnored, 1, 60_000)
        .unwrap_or_else(|| panic!("a model without aging passes the invariants for 60,000 cycles"));
    assert!(e.contains("grant decisions in a row while eligible (aging 3: at most 6)"), "{e}");
    eprintln!("{e}");
}

/// R7b in the invariant checker: it checks R7's order as the current ranks give it (constant,
/// or CLASS_PRIO as written), so a model that keeps the fixed order fails it, with the
/// register and with a constant non-default `class_priority`.
#[test]
fn invariants_catch_a_model_without_class_priority() {
    let d = GlobalSpreaderParams::lockstep_5eu();
    for p in [
        GlobalSpreaderParams { class_priority_reg: true, ..d.clone() },
        GlobalSpreaderParams { class_priority: Some(vec![VTX, PATCH, TRI, PIX]), ..d.clone() },
    ] {
        let e = first_violation(&p, Mutation::RankIgnored, 1, 60_000)
            .unwrap_or_else(|| panic!("a model without class priority passes the invariants for 60,000 cycles"));
        assert!(e.contains("granted while higher class") || e.contains("no request although"), "{e}");
        eprintln!("{e}");
    }
}

/// The class-priority configs cover every bin, `rank_grant` (grants the fixed order would not
/// give) included: the register with random CLASS_PRIO writes and aging (the lockstep test's
/// parameters), a constant non-default order, and two classes with the register.
#[test]
fn class_priority_runs_cover_rank_grant() {
    let d = GlobalSpreaderParams::lockstep_5eu();
    let sets = [
        GlobalSpreaderParams {
            class_priority_reg: true,
            class_priority: Some(vec![VTX, PATCH, TRI, PIX]),
            aging: 3,
            ..d.clone()
        },
        GlobalSpreaderParams { class_priority: Some(vec![VTX, PATCH, TRI, PIX]), ..d.clone() },
        GlobalSpreaderParams { class_priority_reg: true, types: [true, true, false, false], ..d.clone() },
    ];
    for p in sets {
        let cov = random_run(&p, 11, false, 60_000, true).unwrap();
        eprintln!("{:?} reg {}: {}", p.class_priority, p.class_priority_reg, bins(&cov));
        cov.assert_all_hit().unwrap_or_else(|e| panic!("{p:?}: {e}"));
    }
}

/// Pixel order (R14): random runs of the model with D = 2, 16 and 64 at 5 EUs and D = 8 at one
/// EU, legal and with illegal events (completions the ROB must ignore, resets): the invariant
/// checker's books of the ROB every cycle (no pixel request while it is full, `ar_seq` = TAIL,
/// `po_valid` exactly when the oldest acked pixel is complete, `po_seq` = HEAD, so each acked
/// pixel leaves once, in ack order, never before its completion), a drain that completes and
/// pops everything, and every bin: `rob_full`, `rob_out_of_order`, `rob_pop`,
/// `rob_backpressure`, and with illegal events `rob_ignored`.
#[test]
fn pixel_reorder_runs_hold_invariants_and_cover() {
    let d = GlobalSpreaderParams::lockstep_5eu();
    let sets = [
        GlobalSpreaderParams { pixel_reorder: 2, ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 16, ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 64, ..d.clone() },
        GlobalSpreaderParams { pixel_reorder: 8, ..GlobalSpreaderParams::lockstep_1eu() },
    ];
    for p in sets {
        for (errs, seed) in [(false, 21), (true, 22)] {
            let cov = random_run(&p, seed, errs, 60_000, true).unwrap_or_else(|e| panic!("D {}: {e}", p.pixel_reorder));
            eprintln!("D {} eus {} errors {errs}: {}", p.pixel_reorder, p.eus, bins(&cov));
            cov.assert_all_hit().unwrap_or_else(|e| panic!("D {} eus {} errors {errs}: {e}", p.pixel_reorder, p.eus));
        }
    }
}

/// R14 in the invariant checker: a model whose ROB breaks the rule fails it under random
/// stimulus (legal, or with illegal events for a ROB that takes ignored completions).
#[test]
fn invariants_catch_a_broken_rob() {
    use Mutation::*;
    let p = GlobalSpreaderParams { pixel_reorder: 8, ..GlobalSpreaderParams::lockstep_5eu() };
    let kinds = [
        (RobPopBeforeDone, false, "po_valid true raised for a pixel not completed"),
        (RobFullIgnored, false, "pixel request while the ROB is full"),
        (RobPopIgnoresReady, false, "po_"),
        (RobSeqFromHead, false, "ar_seq"),
        (RobAckPopLosesPop, false, ""),
        (RobCompleteAny, true, "po_valid true raised for a pixel not completed"),
    ];
    for (kind, errors, want) in kinds {
        let e = first_violation_in(&p, kind, 1, 60_000, errors)
            .unwrap_or_else(|| panic!("mutant {kind:?} passes the invariants for 60,000 cycles"));
        assert!(e.contains(want), "{kind:?}: {e}");
        eprintln!("{kind:?}: {e}");
    }
}

/// The invariant checker's first violation on mutant `kind` under legal random stimulus.
fn first_violation(p: &GlobalSpreaderParams, kind: Mutation, seed: u64, cycles: u64) -> Option<String> {
    first_violation_in(p, kind, seed, cycles, false)
}

/// The invariant checker's first violation on mutant `kind` under random stimulus, legal or
/// with illegal events (`errors`; the checker then allows error flags).
fn first_violation_in(p: &GlobalSpreaderParams, kind: Mutation, seed: u64, cycles: u64, errors: bool) -> Option<String> {
    let mut m = GlobalSpreaderModel::mutant(p, kind);
    let mut stim = GlobalSpreaderStimulus::new(p, seed).allow_errors(errors);
    let mut inv = Invariants::new(p, !errors);
    let mut last = GlobalSpreaderOutputs::default();
    for _ in 0..cycles {
        let i = stim.next(&last);
        let o = m.outputs(&i);
        if let Err(e) = inv.check(&i, &o) {
            return Some(e);
        }
        m.clock(&i);
        last = o;
    }
    None
}

/// The invariant checker itself can fail: a corrupted request of the model is reported
/// in its cycle.
#[test]
fn invariants_report_a_corrupted_output() {
    let p = GlobalSpreaderParams::default();
    let mut m = GlobalSpreaderModel::new(&p);
    let mut stim = GlobalSpreaderStimulus::new(&p, 9);
    let mut inv = Invariants::new(&p, true);
    let mut last = GlobalSpreaderOutputs::default();
    let mut corrupted = None;
    for c in 0..10_000 {
        let i = stim.next(&last);
        let o = m.outputs(&i);
        let mut seen = o.clone();
        if c >= 3_000 && corrupted.is_none() && o.ar_valid != 0 {
            seen.ar_src_addr ^= 1;
            corrupted = Some(c);
        }
        if let Err(e) = inv.check(&i, &seen) {
            let c = corrupted.expect("violation before the corruption");
            assert!(e.starts_with(&format!("invariant violated in cycle {c}:")), "{e}");
            return;
        }
        m.clock(&i);
        last = o;
    }
    panic!("corruption not detected");
}

#[test]
fn workload_runs_on_model() {
    let mut results = Vec::new();
    for w in Workload::table() {
        let mut w = w;
        w.cycles = 5_000;
        let mut dut = ModelDut::new(&w.params());
        results.push(run_workload(&mut dut, &w));
    }
    eprintln!("{}", format_table(&results));
    for r in &results {
        assert!(r.packets > 1000 && r.per_cycle <= 1.0 && r.max_latency >= 1 && r.balance >= 1.0, "{r:?}");
        assert!(r.acks[VTX] > 0 && r.acks[TRI] > 0 && r.acks[PIX] > 0 && r.acks[PATCH] > 0, "{r:?}");
    }
}


/// R15's arithmetic: S = vdt_depth / W sets, set(i) = (i >> log2 VGRP) mod S, vtag(i) = i >>
/// (log2 VGRP + SET_W), entry {way, set} = way * S + set; with W = 1 the set is §2's slot and
/// the tag §2's vtag.
#[test]
fn vdt_ways_set_and_tag_arithmetic() {
    let d = GlobalSpreaderParams::default(); // VGRP 8, 256 entries
    for i in [0u64, 0x8, 0x1234, 0xFFF8, 0x7FF] {
        assert_eq!((d.set_of(i), d.vtag(i), d.entry(0, d.set_of(i))), (d.slot(i), i >> 11, d.slot(i)));
    }
    let w2 = GlobalSpreaderParams { vdt_ways: 2, ..d.clone() };
    assert_eq!((w2.way_w(), w2.set_w(), w2.sets()), (1, 7, 128));
    // 0x1234 >> 3 = 0x246: set 0x46, tag 0x1234 >> 10 = 4.
    assert_eq!((w2.set_of(0x1234), w2.vtag(0x1234), w2.entry(1, 0x46)), (0x46, 4, 0xC6));
    let w4 = GlobalSpreaderParams { vdt_ways: 4, vdt_depth: 16, vgrp: 4, ..d.clone() };
    assert_eq!((w4.way_w(), w4.set_w(), w4.sets(), w4.pg()), (2, 2, 4, 4));
    // 0x1234 >> 2 = 0x48D: set 1, tag 0x1234 >> 4 = 0x123; entry {3, 1} = 13.
    assert_eq!((w4.set_of(0x1234), w4.vtag(0x1234), w4.entry(3, 1)), (1, 0x123, 13));
    // A patch's groups in one way: set(base) + g never leaves the way (base 16-aligned).
    assert_eq!((0..4).map(|g| w4.entry(2, w4.set_of(0x40) + g)).collect::<Vec<_>>(), vec![8, 9, 10, 11]);
    // X14's shape: 2 ways of 4 sets, VGRP 4: groups 1, 5, 9 share set 1 with tags 0, 1, 2.
    let x = ParamsKind::VdtWays.params();
    assert_eq!(x.validate(), Ok(()));
    let v = [0x04, 0x14, 0x24].map(|i| (x.set_of(i), x.vtag(i)));
    assert_eq!(v, [(1, 0), (1, 1), (1, 2)]);
    assert_eq!((x.entry(0, 1), x.entry(1, 1)), (1, 5));
}

/// `vdt_ways` crosses the TOML both ways: the config the RTL is built from carries it (absent
/// at 1, the default), and the params of that config are the params again.
#[test]
fn vdt_ways_round_trips_through_the_config() {
    for p in vdt_ways_params().into_iter().chain([GlobalSpreaderParams::default()]) {
        let text = rtl::toml_for(&p);
        assert_eq!(text.contains("vdt_ways"), p.vdt_ways > 1, "{text}");
        let c = rtl::config_for(&p);
        assert_eq!(GlobalSpreaderParams::from(c.global_spreader.as_ref().unwrap()), p);
    }
}

/// The set-associative shapes of the lockstep test and others (model only): `vdt_ways` 2 at the
/// 5-EU defaults, 4 ways of 4 sets (VGRP 4, 16 entries, all four types), 2 ways with patch
/// only, 4 ways at one EU; legal and with illegal events; invariants every cycle (the checker's
/// own reading of R15: the lowest free way, `ar_vdt_way`, the refs' lowest matching way, the
/// entries the ack writes and the EUs release), a drain that empties the VDT, and every bin,
/// R15's included.
#[test]
fn vdt_ways_runs_hold_invariants_and_cover() {
    let sets = vdt_ways_params();
    for p in &sets {
        for (errs, seed) in [(false, 31), (true, 32)] {
            // One EU dispatches a tenth as much: a longer run for its bins.
            let cycles = if p.eus == 1 { 200_000 } else { 60_000 };
            let cov = random_run(p, seed, errs, cycles, true).unwrap_or_else(|e| panic!("W {} {p:?}: {e}", p.vdt_ways));
            eprintln!("W {} depth {} eus {} errors {errs}: {}", p.vdt_ways, p.vdt_depth, p.eus, bins(&cov));
            cov.assert_all_hit().unwrap_or_else(|e| panic!("W {} depth {} errors {errs}: {e}", p.vdt_ways, p.vdt_depth));
        }
    }
}

fn vdt_ways_params() -> Vec<GlobalSpreaderParams> {
    let d = GlobalSpreaderParams::lockstep_5eu();
    vec![
        GlobalSpreaderParams { vdt_ways: 2, ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 4, vdt_depth: 16, vgrp: 4, pt_depth: 32, ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 2, vdt_depth: 8, types: [true, true, false, true], yield_enable: true, ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 4, vdt_depth: 16, ..GlobalSpreaderParams::lockstep_1eu() },
    ]
}

/// R15 in the invariant checker: a model that gets the ways wrong fails it under random
/// stimulus at 4 ways of 4 sets.
#[test]
fn invariants_catch_broken_ways() {
    use Mutation::*;
    let p = &vdt_ways_params()[1];
    for kind in [WaysIgnored, WayHighestFree, RefHighestWay, TagFromVdtAw, PatchSplitWays, HeldRefsRelooked] {
        let e = first_violation(p, kind, 1, 60_000).unwrap_or_else(|| panic!("mutant {kind:?} passes the invariants"));
        eprintln!("{kind:?}: {e}");
    }
}

/// R16's parameters and register map: K = 1 by default (no kind >= 1 value, the reset registers
/// as before), `with_kinds`, the per-kind reset values, the ranges, and the addresses of kinds
/// 1 to 3 with the decoding back to (kind, register, index).
#[test]
fn resource_kinds_params_and_addresses() {
    let d = GlobalSpreaderParams::default();
    assert_eq!((d.kinds(), d.more_kinds.len()), (1, 0));
    let r = Regs::reset(&d);
    assert_eq!((r.res_total[4], r.min_res[PIX], r.frame_res[VTX]), ([64, 0, 0, 0], [0; 4], [0; 4]));
    let mut k3 = GlobalSpreaderParams { res_w: 6, res_total: vec![63; 5], ..d.clone() }.with_kinds(3);
    k3.more_kinds[1].res_total = vec![1, 2, 3, 4, 5];
    k3.more_kinds[0].min_res[TRI] = 7;
    k3.more_kinds[1].frame_res[PATCH] = 9;
    assert_eq!((k3.kinds(), k3.validate()), (3, Ok(())));
    let r = Regs::reset(&k3);
    assert_eq!((r.res_total[0], r.res_total[4]), ([63, 63, 1, 0], [63, 63, 5, 0]));
    assert_eq!((r.min_res[TRI], r.frame_res[PATCH]), ([0, 7, 0, 0], [0, 0, 9, 0]));
    let bad = [
        GlobalSpreaderParams { ..d.clone() }.with_kinds(5),
        {
            let mut p = d.clone().with_kinds(2);
            p.more_kinds[0].res_total = vec![64; 4];
            p
        },
        {
            let mut p = d.clone().with_kinds(2);
            p.more_kinds[0].frame_res[VTX] = 4096;
            p
        },
    ];
    for b in bad {
        assert!(b.validate().is_err(), "{b:?} accepted");
    }
    use model::reg;
    assert_eq!([reg::res_total_of(3, 0), reg::res_total_of(3, 1), reg::res_total_of(31, 3)], [0x023, 0x283, 0x31F]);
    assert_eq!([reg::free_res_of(3, 0), reg::free_res_of(3, 1), reg::free_res_of(0, 2)], [0x043, 0x2A3, 0x2E0]);
    let tables = [reg::min_res_of(TRI, 1), reg::frame_res_of(TRI, 1), reg::min_res_of(PATCH, 3), reg::frame_res_of(PATCH, 3)];
    assert_eq!(tables, [0x341, 0x345, 0x353, 0x357]);
    let decoded = [0x2E5, 0x356, 0x27F, 0x358].map(reg::kind_reg);
    assert_eq!(decoded, [Some((2, 1, 5)), Some((3, 3, 2)), None, None]);
    // The read sweep: kind >= 1's MIN_RES, FRAME_RES per type and RES_TOTAL, FREE_RES per EU.
    assert_eq!(readable_registers(&d.clone().with_kinds(4)).len(), readable_registers(&d).len() + 3 * (2 * 4 + 2 * 5));
}

/// `resources` crosses the TOML both ways: absent with one kind; with K > 1, names k0.. and a
/// `resource.<name>` table per kind after the first, which the config gives back as the same
/// params.
#[test]
fn resource_kinds_round_trip_through_the_config() {
    for p in resource_kinds_params().into_iter().chain([GlobalSpreaderParams::default()]) {
        let text = rtl::toml_for(&p);
        assert_eq!(text.contains("resources"), p.kinds() > 1, "{text}");
        let c = rtl::config_for(&p);
        assert_eq!(GlobalSpreaderParams::from(c.global_spreader.as_ref().unwrap()), p, "{text}");
    }
}

/// The resource-kind shapes (model only; the lockstep test runs the first two on the RTL): K = 2
/// at the 5-EU defaults with kind 1 smaller ([16, 16, 8, 8, 8], a MIN_RES and a FRAME_RES), K = 4
/// at 3 EUs with RES_W 6, K = 3 with least_loaded and round_robin, K = 2 at one EU.
fn resource_kinds_params() -> Vec<GlobalSpreaderParams> {
    let [k2, k4] = GlobalSpreaderParams::kinds_lockstep_shapes();
    let mut ll = GlobalSpreaderParams { select: Select::LeastLoaded, ..GlobalSpreaderParams::lockstep_5eu() }.with_kinds(3);
    ll.more_kinds[0].res_total = vec![12, 20, 12, 20, 12];
    ll.more_kinds[1].res_total = vec![30; 5];
    let mut rr = GlobalSpreaderParams { select: Select::RoundRobin, ..ll.clone() };
    rr.more_kinds[1].res_total = vec![8, 30, 30, 30, 8];
    let mut one = GlobalSpreaderParams::lockstep_1eu().with_kinds(2);
    one.more_kinds[0].res_total = vec![12];
    vec![k2, k4, ll, rr, one]
}

/// R16 under random stimulus (model only): legal and with illegal events, invariants every cycle
/// (the checker's books per kind: no over-commit, `st_free_res` = RES_TOTAL - outstanding of each
/// kind, the fit of every kind in I3), a drain that returns every kind, and every bin:
/// `fit_fail_kind_only`, `wait_kind_only`, `credit_kind`, `kind_reg_rw`, and `clamp_kind` with
/// illegal events.
#[test]
fn resource_kinds_runs_hold_invariants_and_cover() {
    for p in &resource_kinds_params() {
        for (errs, seed) in [(false, 41), (true, 42)] {
            let cycles = if p.eus == 1 { 120_000 } else { 80_000 };
            let cov = random_run(p, seed, errs, cycles, true).unwrap_or_else(|e| panic!("K {} {p:?}: {e}", p.kinds()));
            eprintln!("K {} eus {} res_w {} {} errors {errs}: {}", p.kinds(), p.eus, p.res_w, p.select.name(), bins(&cov));
            cov.assert_all_hit().unwrap_or_else(|e| panic!("K {} eus {} errors {errs}: {e}", p.kinds(), p.eus));
        }
    }
}

/// R16 in the invariant checker: a model that gets the kinds wrong fails it under random
/// stimulus (K = 2 and K = 4 shapes). `ClampKind0Only` is not among them: the checker expects
/// `err_credit` after every clamp its books see, but in the error runs the sticky flag is nearly
/// always set already by an earlier clamp (X15 and the lockstep comparison catch it).
#[test]
fn invariants_catch_broken_kinds() {
    use Mutation::*;
    let sets = resource_kinds_params();
    for kind in [KindsIgnoredInFit, DebitKind0Everywhere, MinResKind0, KindTotalKeepsFree] {
        let e = sets[..2]
            .iter()
            .find_map(|p| first_violation(p, kind, 1, 60_000))
            .unwrap_or_else(|| panic!("mutant {kind:?} passes the invariants"));
        eprintln!("{kind:?}: {e}");
    }
}

/// With one kind no input or output carries a value in a kind >= 1 (legal and illegal events).
#[test]
fn one_kind_keeps_every_value_in_kind_0() {
    let p = GlobalSpreaderParams::lockstep_5eu();
    let mut m = GlobalSpreaderModel::new(&p);
    let mut stim = GlobalSpreaderStimulus::new(&p, 3).allow_errors(true);
    let mut last = GlobalSpreaderOutputs::default();
    for _ in 0..20_000 {
        let i = stim.next(&last);
        let o = m.outputs(&i);
        let sizes = [i.vp_size, i.pp_size, i.tp_size, i.xp_size];
        assert!(sizes.iter().chain(&i.cr_res).chain(&o.st_free_res).chain([&o.ar_footprint]).all(|v| v[1..] == [0; 3]));
        m.clock(&i);
        last = o;
    }
}

/// R16 in the lockstep comparison: `st_free_res` and `ar_footprint` per kind, the kinds built
/// only, named by kind when K > 1.
#[test]
fn first_difference_compares_every_kind() {
    let p = GlobalSpreaderParams::default().with_kinds(2);
    let e = GlobalSpreaderModel::new(&p).outputs(&GlobalSpreaderInputs::idle(&p));
    let mut a = e.clone();
    a.st_free_res[3][2] = 5;
    assert_eq!(first_difference(&p, &e, &a), None);
    a.st_free_res[3][1] = 5;
    assert_eq!(first_difference(&p, &e, &a).unwrap(), "st_free_res[3][1]: expected 0x40, actual 0x5");
    let mut e2 = e.clone();
    e2.ar_valid = 1;
    let mut a = e2.clone();
    a.ar_footprint[1] = 3;
    assert_eq!(first_difference(&p, &e2, &a).unwrap(), "ar_footprint[1]: expected 0x0, actual 0x3");
    assert_eq!(first_difference(&GlobalSpreaderParams::default(), &e2, &a), None);
    a.ar_footprint[0] = 3;
    assert_eq!(first_difference(&GlobalSpreaderParams::default(), &e2, &a).unwrap(), "ar_footprint: expected 0x0, actual 0x3");
}
