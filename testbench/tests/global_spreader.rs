//! Global spreader verification under `make test` (contract
//! `docs/contracts/global_spreader.md`; the hand-written smoke checks of the RTL are in
//! `global_spreader_smoke.rs`): every directed case (TC-01…TC-34 and the X cases) on the Verilated RTL with its
//! hand-written expectations, random lockstep RTL against the model (every output every
//! cycle, contract §5) with the §6 invariants and coverage on the four lockstep configs,
//! and lint + yosys (no latches) per config (the 16-EU one: lint only); with `perf_counters`
//! (rules G1-G2) directed case X08 and lockstep of `perf_val` on two shapes; with `vdt_ways`
//! (contract R15) directed X14 and X14/patch and lockstep on two shapes (`lockstep_vdt_ways_5eu`);
//! with resource kinds (contract R16) directed X15 and X15/k4 and lockstep on two shapes, also
//! with illegal events (`lockstep_resource_kinds_5eu`, `lockstep_resource_kinds_with_illegal_events`).

use warpgen_testbench::global_spreader::directed;
use warpgen_testbench::global_spreader::lockstep::GlobalSpreader;
use warpgen_testbench::global_spreader::rtl::{config_for, RtlGlobalSpreader};
use warpgen_testbench::global_spreader::model::Select;
use warpgen_testbench::global_spreader::{Dut, GlobalSpreaderParams};
use warpgen_testbench::harness;
use warpgen_testbench::kit;

/// Lockstep cycles per config (at least 200,000, the project's verification floor).
const CYCLES: u64 = 200_000;

fn rtl(p: &GlobalSpreaderParams) -> Box<dyn Dut<GlobalSpreader>> {
    Box::new(RtlGlobalSpreader::new(p, false).unwrap_or_else(|e| panic!("{e}")))
}

fn lockstep(p: &GlobalSpreaderParams, seed: u64, cycles: u64, allow_errors: bool) {
    let r = kit::lockstep::<GlobalSpreader>(p, seed, cycles, allow_errors).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.cycles, cycles);
    let bins: Vec<String> = r.coverage.bins().iter().filter(|b| b.2).map(|(n, c, _)| format!("{n}={c}")).collect();
    println!("eus {} seed {seed} errors {allow_errors}: {cycles} cycles, coverage {}", p.eus, bins.join(" "));
}

#[test]
fn directed_cases_pass_on_the_rtl() {
    directed::run_all(&mut |p: &GlobalSpreaderParams| rtl(p))
        .unwrap_or_else(|failures| panic!("directed cases failed on the RTL:\n{failures}"));
}

#[test]
fn lockstep_1eu() {
    lockstep(&GlobalSpreaderParams::lockstep_1eu(), 51, CYCLES, false);
}

#[test]
fn lockstep_3eu() {
    lockstep(&GlobalSpreaderParams::lockstep_3eu(), 53, CYCLES, false);
}

#[test]
fn lockstep_5eu() {
    lockstep(&GlobalSpreaderParams::lockstep_5eu(), 55, CYCLES, false);
}

#[test]
fn lockstep_16eu() {
    lockstep(&GlobalSpreaderParams::lockstep_16eu(), 56, CYCLES, false);
}

/// `select = "least_loaded"` (contract R6) at 5 EUs: every output every cycle against the
/// model; coverage requires requests whose target is not the first fitting candidate
/// (`ll_not_first_fit`, at least 10) beside every other bin.
#[test]
fn lockstep_least_loaded_5eu() {
    let p = GlobalSpreaderParams { select: Select::LeastLoaded, ..GlobalSpreaderParams::lockstep_5eu() };
    lockstep(&p, 58, CYCLES, false);
}

/// `aging` = 3 (contract R7a) at 5 EUs: every output every cycle against the model, and the
/// invariant checker's bound (a slot that stays eligible is granted within aging + 3 grant
/// decisions); coverage requires grants that aging gives before a higher class that could
/// dispatch (`aged_grant`).
#[test]
fn lockstep_aging_5eu() {
    let p = GlobalSpreaderParams { aging: 3, ..GlobalSpreaderParams::lockstep_5eu() };
    lockstep(&p, 60, CYCLES, false);
}

/// Class priority (contract R7b) at 5 EUs: `class_priority_reg` with a non-default reset order
/// (vertex, patch, triangle, pixel: CLASS_PRIO resets to 0x78) and `aging` = 3 beside it. The
/// stimulus writes random ranks to CLASS_PRIO (ties too) and reads it back; every output every
/// cycle against the model, and the invariant checker's class order is the current ranks';
/// coverage requires grants the fixed order would not give (`rank_grant`) and aged grants.
#[test]
fn lockstep_class_priority_5eu() {
    use warpgen_testbench::global_spreader::{PATCH, PIX, TRI, VTX};
    let p = GlobalSpreaderParams {
        class_priority_reg: true,
        class_priority: Some(vec![VTX, PATCH, TRI, PIX]),
        aging: 3,
        ..GlobalSpreaderParams::lockstep_5eu()
    };
    lockstep(&p, 61, CYCLES, false);
}

/// Pixel order (contract R14) at 5 EUs: `pixel_reorder` = 8. The EU models complete each
/// pixel they ack once, with its `ar_seq`, after a random delay and in random order; the
/// consumer drives `po_ready` at random, now and then low for a whole phase. Every output every
/// cycle against the model (`ar_seq` with a request, `po_valid` and `po_seq` always); the
/// invariant checker's own books of the ROB (no pixel request while it is full, each acked
/// pixel on `po_*` once, in ack order, never before its completion); coverage requires a full
/// ROB with a pixel waiting (`rob_full`), completions out of order, pops and `po_valid` held.
#[test]
fn lockstep_pixel_reorder_5eu() {
    let p = GlobalSpreaderParams { pixel_reorder: 8, ..GlobalSpreaderParams::lockstep_5eu() };
    lockstep(&p, 62, CYCLES, false);
}

/// Set-associative VDT (contract R15) at 5 EUs: `vdt_ways` = 2 at the defaults (128 sets),
/// and 4 ways of only 4 sets (VGRP 4, 16 entries, all four types: a patch fills one whole way)
/// where set conflicts are constant. Every output every cycle against the model (`ar_vdt_way`
/// with a request); the EU models release each entry at {`ar_vdt_way`, set}; the invariant
/// checker's own reading of R15 (the lowest free way, the refs' lowest matching way, the
/// entries each ack writes); coverage requires acks into a way > 0 (`vdt_way_nonzero`), grants
/// while way 0 of the set is taken (`vdt_set_conflict_avoided`), packets blocked with every way
/// taken (`vdt_all_ways_blocked`), refs hitting in a way > 0 (`vdt_hit_way_nonzero`) and refs
/// whose tag two ways hold (`vdt_hit_two_ways`), beside every other bin.
#[test]
fn lockstep_vdt_ways_5eu() {
    let d = GlobalSpreaderParams::lockstep_5eu();
    let shapes = [
        GlobalSpreaderParams { vdt_ways: 2, ..d.clone() },
        GlobalSpreaderParams { vdt_ways: 4, vdt_depth: 16, vgrp: 4, pt_depth: 32, ..d },
    ];
    for (p, seed) in shapes.iter().zip([63, 64]) {
        let r = kit::lockstep::<GlobalSpreader>(p, seed, CYCLES, false).unwrap_or_else(|e| panic!("{e}"));
        let bins = r.coverage.bins();
        let line: Vec<String> = bins.iter().filter(|b| b.2).map(|(n, c, _)| format!("{n}={c}")).collect();
        println!("vdt_ways {} depth {} seed {seed}: {CYCLES} cycles, coverage {}", p.vdt_ways, p.vdt_depth, line.join(" "));
        // kit::lockstep required every bin the parameters call for; R15's must be among them.
        for name in ["vdt_way_nonzero", "vdt_set_conflict_avoided", "vdt_all_ways_blocked", "vdt_hit_way_nonzero", "vdt_hit_two_ways"] {
            let hit = bins.iter().find(|b| b.0 == name).unwrap_or_else(|| panic!("no bin {name}"));
            assert!(hit.2 && hit.1 >= 10, "{name}: {hit:?}");
        }
    }
}

/// The resource-kind shapes (contract R16; `GlobalSpreaderParams::kinds_lockstep_shapes`).
fn resource_kinds_params() -> [GlobalSpreaderParams; 2] {
    GlobalSpreaderParams::kinds_lockstep_shapes()
}

/// Resource kinds (contract R16): the two shapes of [`resource_kinds_params`], 200,000 cycles
/// each. Every output every cycle against the model (`*_size`, `cr_res` driven and `ar_footprint`,
/// `st_free_res` compared per kind); the EU models return each kind's footprint in pulses of
/// their own; the stimulus writes MIN_RES, FRAME_RES and (idle EUs) RES_TOTAL of kinds >= 1 and
/// reads their FREE_RES; the invariant checker's books per kind (no over-commit, `st_free_res` =
/// RES_TOTAL - outstanding of each kind, the fit of every kind in I3); coverage requires
/// new requests with a candidate that fits kind 0 but fails another (`fit_fail_kind_only`),
/// packets held by a kind >= 1 alone (`wait_kind_only`), credits of kinds >= 1 (`credit_kind`) and
/// accesses to their registers (`kind_reg_rw`), beside every other bin.
#[test]
fn lockstep_resource_kinds_5eu() {
    for (p, seed) in resource_kinds_params().iter().zip([65, 66]) {
        let r = kit::lockstep::<GlobalSpreader>(p, seed, CYCLES, false).unwrap_or_else(|e| panic!("{e}"));
        let bins = r.coverage.bins();
        let line: Vec<String> = bins.iter().filter(|b| b.2).map(|(n, c, _)| format!("{n}={c}")).collect();
        println!("kinds {} eus {} res_w {} seed {seed}: {CYCLES} cycles, coverage {}", p.kinds(), p.eus, p.res_w, line.join(" "));
        for name in ["fit_fail_kind_only", "wait_kind_only", "credit_kind", "kind_reg_rw"] {
            let hit = bins.iter().find(|b| b.0 == name).unwrap_or_else(|| panic!("no bin {name}"));
            assert!(hit.2 && hit.1 >= 10, "{name}: {hit:?}");
        }
    }
}

/// Resource kinds with illegal events (credits past RES_TOTAL of any kind, resets, malformed
/// packets, bad releases) on both shapes: `clamp_kind` (a kind >= 1 clamped, `err_credit`)
/// required beside every other bin of the mode.
#[test]
fn lockstep_resource_kinds_with_illegal_events() {
    for (p, seed) in resource_kinds_params().iter().zip([67, 68]) {
        // Half the floor: the random resets (1 in 4,000 cycles) need that many for their 10 hits.
        let r = kit::lockstep::<GlobalSpreader>(p, seed, CYCLES / 2, true).unwrap_or_else(|e| panic!("{e}"));
        let bins = r.coverage.bins();
        let line: Vec<String> = bins.iter().filter(|b| b.2).map(|(n, c, _)| format!("{n}={c}")).collect();
        println!("kinds {} eus {} errors: {} cycles, coverage {}", p.kinds(), p.eus, CYCLES / 2, line.join(" "));
        let hit = bins.iter().find(|b| b.0 == "clamp_kind").expect("no bin clamp_kind");
        assert!(hit.2 && hit.1 >= 10, "clamp_kind: {hit:?}");
    }
}

/// `select = "round_robin"` (contract R6) at 5 EUs: every output every cycle against the
/// model; coverage requires requests whose target is not the first fitting candidate
/// (`rr_not_first_fit`) and requests whose search wrapped below RR_PTR (`rr_wrap`), at least
/// 10 each, beside every other bin.
#[test]
fn lockstep_round_robin_5eu() {
    let p = GlobalSpreaderParams { select: Select::RoundRobin, ..GlobalSpreaderParams::lockstep_5eu() };
    lockstep(&p, 59, CYCLES, false);
}

/// Malformed packets, bad releases and credit overflows mixed in (error flags compared).
#[test]
fn lockstep_with_illegal_events() {
    lockstep(&GlobalSpreaderParams::lockstep_5eu(), 57, CYCLES / 4, true);
}

/// `perf_counters` (rules G1-G2 of docs/blocks/global_spreader.md): the default shape and 2 EUs
/// with vertex and triangle only and small tables (the pixel and patch counters read 0 there).
/// `perf_val` is compared every cycle at a random `perf_sel` (17 counters, 5 bits: indices 17-31
/// read past the last), with rare `perf_clr` and `err_clr`; the runs with illegal events drive
/// the error events and `err_clr` against real detections.
fn perf_params() -> [GlobalSpreaderParams; 2] {
    [
        GlobalSpreaderParams { perf_counters: true, ..GlobalSpreaderParams::default() },
        GlobalSpreaderParams {
            types: [true, true, false, false],
            vdt_depth: 16,
            pt_depth: 8,
            perf_counters: true,
            ..GlobalSpreaderParams::with_eus(2)
        },
    ]
}

#[test]
fn lockstep_perf_counters() {
    for (p, seed) in perf_params().iter().zip([58, 59]) {
        lockstep(p, seed, CYCLES / 2, false);
        lockstep(p, seed + 10, CYCLES / 4, true);
    }
}

/// Odd configs for lint and synthesis: one type only; triangle+pixel with the narrowest
/// widths and two EUs.
fn odd_configs() -> Vec<GlobalSpreaderParams> {
    let d = GlobalSpreaderParams::default();
    vec![
        GlobalSpreaderParams { types: [true, false, false, false], ..d },
        GlobalSpreaderParams {
            types: [false, true, true, false],
            res_w: 4,
            ent_w: 1,
            res_total: vec![15; 2],
            edt_total: vec![2; 2],
            ..GlobalSpreaderParams::with_eus(2)
        },
    ]
}

/// Lint and yosys (no latches) on the 1-, 3- and 5-EU lockstep configs and the odd ones.
#[test]
fn lint_and_synth_every_tested_config() {
    let configs = GlobalSpreaderParams::lockstep_configs()
        .into_iter()
        .filter(|p| p.eus < 16)
        .chain(odd_configs())
        // The small perf shape (the default with the key is linted by lint_every_key).
        .chain(perf_params().into_iter().skip(1));
    for p in configs {
        let e = warpgen_rtl::generate(&config_for(&p), "global_spreader").unwrap();
        harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
        harness::synth(&e).unwrap_or_else(|m| panic!("yosys {p:?}: {m}"));
    }
}

/// The 16-EU config is linted only: yosys `synth` of it ran over 9 minutes and 15 GB
/// (its resource-sharing pass on the control design's shifters) without finishing, too
/// long for `make test`.
#[test]
fn lint_16eu_config() {
    let p = GlobalSpreaderParams::lockstep_16eu();
    let e = warpgen_rtl::generate(&config_for(&p), "global_spreader").unwrap();
    harness::lint(&e).unwrap_or_else(|m| panic!("lint {p:?}: {m}"));
}
