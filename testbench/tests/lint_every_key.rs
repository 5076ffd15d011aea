//! Every allowed config value gives lint-clean Verilog: each block at its default config, and
//! at the default with one key at each edge of its range (both booleans, every listed width,
//! the special values such as `pair_hold = 0`), through `verilator --lint-only -Wall` with
//! warpgen's waiver file. An edge that another key's rule forbids in the default config (the
//! loader refuses it) is skipped: that is a config, not Verilog, the config tests check.
//! Keys whose values are names (not numbers) add their non-default values by hand in
//! `NAMED` (with the combinations that build different logic together), as do combinations
//! of a key that adds ports with the widths those ports depend on.

use warpgen_rtl::config::{edge_values, BLOCK_NAMES, KEYS};
use warpgen_rtl::{generate, Config};
use warpgen_testbench::harness;

/// Named values: (block, overrides).
const NAMED: &[(&str, &[&str])] = &[
    ("branch_stack", &["branch_stack.compound_flags=\"cnvz\""]),
    ("branch_stack", &["branch_stack.producer_conflict=\"stall\""]),
    ("branch_stack", &["branch_stack.producer_conflict=\"stall\"", "branch_stack.producer_stages=1"]),
    ("branch_stack", &["branch_stack.producer_conflict=\"stall\"", "branch_stack.compound_flags=\"cnvz\"", "branch_stack.depth=2"]),
    // A key that adds ports, at the edges of the widths it depends on.
    ("branch_stack", &["branch_stack.perf_counters=true", "branch_stack.producer_conflict=\"stall\"", "branch_stack.producer_stages=1"]),
    ("branch_stack", &["branch_stack.perf_counters=true", "branch_stack.producer_conflict=\"stall\"", "branch_stack.depth=32", "branch_stack.pc_width=4", "branch_stack.offset_width=4"]),
    // thread_groups (G1-G7): the group ports at the widest stacks and PCs (rs_stack/sv_stack
    // 128 bits), at the smallest widths, and with every other option.
    ("branch_stack", &["branch_stack.thread_groups=2", "branch_stack.depth=32", "branch_stack.pc_width=64"]),
    ("branch_stack", &["branch_stack.thread_groups=32", "branch_stack.depth=32", "branch_stack.pc_width=64"]),
    ("branch_stack", &["branch_stack.thread_groups=2", "branch_stack.depth=2", "branch_stack.producer_stages=1", "branch_stack.pc_width=4", "branch_stack.offset_width=2"]),
    ("branch_stack", &["branch_stack.thread_groups=32", "branch_stack.producer_conflict=\"stall\"", "branch_stack.perf_counters=true", "branch_stack.compound_flags=\"cnvz\"", "branch_stack.depth=3"]),
    ("thread_merge", &["thread_merge.perf_counters=true", "thread_merge.slots=1", "thread_merge.lanes=32"]),
    ("thread_merge", &["thread_merge.perf_counters=true", "thread_merge.slots=32", "thread_merge.merge_timeout=0"]),
    ("thread_merge", &["thread_merge.cross_primitive=true", "thread_merge.pair_hold=0", "thread_merge.prim_width=1"]),
    ("thread_merge", &["thread_merge.cross_primitive=true", "thread_merge.lanes=32", "thread_merge.remap=false", "thread_merge.perf_counters=true"]),
    // candidates (R19): the queue without an age (pair_hold 0), without remap, on one slot; and
    // an odd queue with the widest age and lanes, the narrowest tag, across primitives.
    ("thread_merge", &["thread_merge.candidates=4", "thread_merge.pair_hold=0", "thread_merge.remap=false", "thread_merge.slots=1"]),
    ("thread_merge", &["thread_merge.candidates=3", "thread_merge.lanes=32", "thread_merge.pair_hold=255", "thread_merge.tag_width=1", "thread_merge.cross_primitive=true", "thread_merge.perf_counters=true"]),
    // merge_ways (R20; 4 on the default shape comes from the key's edges): 3 on one slot of 32
    // lanes without a hold window, timeout or remap; 4 on 32 slots of 8 lanes with the counters
    // and cross_primitive; 3 at the widest tag and 1-bit primitive ids.
    ("thread_merge", &["thread_merge.merge_ways=3", "thread_merge.slots=1", "thread_merge.lanes=32", "thread_merge.pair_hold=0", "thread_merge.merge_timeout=0", "thread_merge.remap=false"]),
    ("thread_merge", &["thread_merge.merge_ways=4", "thread_merge.slots=32", "thread_merge.lanes=8", "thread_merge.perf_counters=true", "thread_merge.cross_primitive=true"]),
    ("thread_merge", &["thread_merge.merge_ways=3", "thread_merge.tag_width=64", "thread_merge.prim_width=1", "thread_merge.pair_hold=255", "thread_merge.merge_timeout=255"]),
    ("scoreboard", &["scoreboard.perf_counters=true", "scoreboard.thread_groups=1", "scoreboard.trackers=1", "scoreboard.counter_width=1", "scoreboard.completion_ports=1"]),
    ("scoreboard", &["scoreboard.perf_counters=true", "scoreboard.thread_groups=3", "scoreboard.trackers=5", "scoreboard.completion_ports=4", "scoreboard.branch_sets=4"]),
    // implicit_fence: one tracker of one, every tracker, and one of an odd count (with the counters).
    ("scoreboard", &["scoreboard.implicit_fence=[0]", "scoreboard.thread_groups=1", "scoreboard.trackers=1", "scoreboard.counter_width=1"]),
    ("scoreboard", &["scoreboard.implicit_fence=[0, 1, 2, 3, 4, 5, 6, 7]"]),
    ("scoreboard", &["scoreboard.implicit_fence=[4]", "scoreboard.trackers=5", "scoreboard.thread_groups=3", "scoreboard.perf_counters=true"]),
    // branch_fetch_gate: each branch_sets on the smallest and an odd shape, and with the fence.
    ("scoreboard", &["scoreboard.branch_fetch_gate=true", "scoreboard.thread_groups=1", "scoreboard.trackers=1", "scoreboard.counter_width=1", "scoreboard.completion_ports=1"]),
    ("scoreboard", &["scoreboard.branch_fetch_gate=true", "scoreboard.branch_sets=3", "scoreboard.thread_groups=3", "scoreboard.trackers=5"]),
    ("scoreboard", &["scoreboard.branch_fetch_gate=true", "scoreboard.branch_sets=4", "scoreboard.implicit_fence=[0]", "scoreboard.perf_counters=true"]),
    ("task_combiner", &["task_combiner.perf_counters=true", "task_combiner.entries=1", "task_combiner.width=4", "task_combiner.tile_pipes=1", "task_combiner.shader_types=1"]),
    ("task_combiner", &["task_combiner.perf_counters=true", "task_combiner.registered_issue=true", "task_combiner.entries=5", "task_combiner.width=8", "task_combiner.policy=\"nodep_oldest\""]),
    // hold_producers (R5h): one entry (no dependency, no hold logic), two of 4 lanes, and the
    // largest bound with the issue and counter options.
    ("task_combiner", &["task_combiner.hold_producers=1", "task_combiner.entries=1", "task_combiner.width=4"]),
    ("task_combiner", &["task_combiner.hold_producers=1", "task_combiner.entries=2", "task_combiner.width=4", "task_combiner.shader_types=3"]),
    ("task_combiner", &["task_combiner.hold_producers=15", "task_combiner.registered_issue=true", "task_combiner.perf_counters=true", "task_combiner.entries=5", "task_combiner.width=8"]),
    // dep_tags (D3t): one tag on the smallest table it allows (2 entries, 1 generation bit),
    // with every other option that touches the instance path or the counters.
    ("task_combiner", &["task_combiner.dep_tags=1", "task_combiner.entries=2", "task_combiner.width=4", "task_combiner.tag_gen_width=1", "task_combiner.shader_types=2", "task_combiner.hold_producers=1", "task_combiner.registered_issue=true", "task_combiner.perf_counters=true"]),
    // registered_input (R2i): the input register with the issue register, the counters and one
    // producer tag, on the smallest table dep_tags allows (2 entries of 4 lanes, 1 generation bit).
    ("task_combiner", &["task_combiner.registered_input=true", "task_combiner.registered_issue=true", "task_combiner.perf_counters=true", "task_combiner.dep_tags=1", "task_combiner.entries=2", "task_combiner.width=4", "task_combiner.tag_gen_width=1", "task_combiner.shader_types=2"]),
    ("global_spreader", &["global_spreader.perf_counters=true", "global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\"]"]),
    ("global_spreader", &["global_spreader.perf_counters=true", "global_spreader.eus=1", "global_spreader.entity_types=[\"patch\"]", "global_spreader.vdt_depth=4", "global_spreader.vertices_per_group=4"]),
    ("global_spreader", &["global_spreader.perf_counters=true", "global_spreader.eus=32", "global_spreader.entity_types=[\"triangle\", \"pixel\"]", "global_spreader.res_width=4", "global_spreader.entity_width=1"]),
    // select = "least_loaded": one EU (a tree of one leaf), the widest (32 EUs, RES_W 4) with two classes, and with the counters.
    ("global_spreader", &["global_spreader.select=\"least_loaded\"", "global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\"]"]),
    ("global_spreader", &["global_spreader.select=\"least_loaded\"", "global_spreader.eus=32", "global_spreader.entity_types=[\"triangle\", \"pixel\"]", "global_spreader.res_width=4"]),
    ("global_spreader", &["global_spreader.select=\"least_loaded\"", "global_spreader.perf_counters=true", "global_spreader.eus=3", "global_spreader.locality=false"]),
    // issue_order: fullest with a fullest and an oldest eviction policy, with registered_issue.
    ("task_combiner", &["task_combiner.issue_order=\"fullest\""]),
    ("task_combiner", &["task_combiner.issue_order=\"fullest\"", "task_combiner.policy=\"nodep_oldest\"", "task_combiner.registered_issue=true", "task_combiner.entries=2"]),
    // select = "round_robin": 1 EU vertex only (a one-bit pointer that stays 0), 5 EUs (the default shape), 16 EUs, the
    // widest (32 EUs: every value of a 5-bit pointer) with two classes, and 3 EUs (a pointer that wraps below 2^EU_W) with the counters.
    ("global_spreader", &["global_spreader.select=\"round_robin\"", "global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\"]"]),
    ("global_spreader", &["global_spreader.select=\"round_robin\""]),
    ("global_spreader", &["global_spreader.select=\"round_robin\"", "global_spreader.eus=16"]),
    ("global_spreader", &["global_spreader.select=\"round_robin\"", "global_spreader.eus=32", "global_spreader.entity_types=[\"triangle\", \"pixel\"]", "global_spreader.res_width=4"]),
    ("global_spreader", &["global_spreader.select=\"round_robin\"", "global_spreader.perf_counters=true", "global_spreader.eus=3", "global_spreader.locality=false"]),
    // aging (R7a): the edges 3 and 255 (an 8-bit AGE that saturates), with one class (no
    // other slot to pass it over), with yield and the counters, and beside least_loaded.
    ("global_spreader", &["global_spreader.aging=3"]),
    ("global_spreader", &["global_spreader.aging=255", "global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\"]"]),
    ("global_spreader", &["global_spreader.aging=7", "global_spreader.yield_enable=true", "global_spreader.perf_counters=true", "global_spreader.eus=3"]),
    ("global_spreader", &["global_spreader.aging=3", "global_spreader.select=\"least_loaded\"", "global_spreader.entity_types=[\"triangle\", \"pixel\"]"]),
    // class priority (R7b): the register on the default shape, a constant non-default order,
    // the register with one class (one 2-bit field), with aging, yield and the counters, and
    // on two classes (constant and register) beside least_loaded and round_robin.
    ("global_spreader", &["global_spreader.class_priority_reg=true"]),
    ("global_spreader", &["global_spreader.class_priority=[\"vertex\", \"patch\", \"triangle\", \"pixel\"]"]),
    ("global_spreader", &["global_spreader.class_priority_reg=true", "global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\"]"]),
    ("global_spreader", &["global_spreader.class_priority_reg=true", "global_spreader.class_priority=[\"patch\", \"vertex\", \"pixel\", \"triangle\"]", "global_spreader.aging=3", "global_spreader.yield_enable=true", "global_spreader.perf_counters=true", "global_spreader.eus=3"]),
    ("global_spreader", &["global_spreader.class_priority=[\"triangle\", \"pixel\"]", "global_spreader.entity_types=[\"triangle\", \"pixel\"]", "global_spreader.select=\"least_loaded\""]),
    ("global_spreader", &["global_spreader.class_priority_reg=true", "global_spreader.class_priority=[\"patch\", \"triangle\"]", "global_spreader.entity_types=[\"triangle\", \"patch\"]", "global_spreader.select=\"round_robin\"", "global_spreader.eus=32"]),
    // pixel order (R14): the edges 2 (1-bit sequence numbers) and 64 (6 bits) with 32 EUs (32
    // completion ports), one EU with triangle and pixel only, beside the counters, aging and
    // yield (`pixel_reorder_configs_load` checks that these load and that the loader refuses
    // the key without pixel or off its range, which this list would skip silently).
    ("global_spreader", &["global_spreader.pixel_reorder=2"]),
    ("global_spreader", &["global_spreader.pixel_reorder=2", "global_spreader.eus=32"]),
    ("global_spreader", &["global_spreader.pixel_reorder=64", "global_spreader.eus=32"]),
    ("global_spreader", &["global_spreader.pixel_reorder=64", "global_spreader.eus=1", "global_spreader.entity_types=[\"triangle\", \"pixel\"]", "global_spreader.res_width=4", "global_spreader.entity_width=1"]),
    ("global_spreader", &["global_spreader.pixel_reorder=8", "global_spreader.perf_counters=true", "global_spreader.aging=3", "global_spreader.yield_enable=true", "global_spreader.eus=3"]),
    // set-associative VDT (R15): 2 and 4 ways on the default shape; the smallest VDTs the ways
    // allow (4 sets: 8 entries in 2 ways on one EU with vertices only, 16 in 4 ways with patch
    // at VGRP 4, a patch's 4 groups in one way); 4 ways at 32 EUs, and at 16 EUs on the largest
    // VDT with the widest tag (IDX_W 32), triangles and patches; beside pixel_reorder (the way
    // after ar_seq), the counters, aging and least_loaded (`vdt_ways_configs_load` checks that
    // these load and that the loader refuses the key off its range or without a VDT).
    ("global_spreader", &["global_spreader.vdt_ways=2"]),
    ("global_spreader", &["global_spreader.vdt_ways=4"]),
    ("global_spreader", &["global_spreader.vdt_ways=2", "global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\"]", "global_spreader.vdt_depth=8", "global_spreader.index_width=8", "global_spreader.res_width=4", "global_spreader.entity_width=1"]),
    ("global_spreader", &["global_spreader.vdt_ways=4", "global_spreader.vdt_depth=16", "global_spreader.vertices_per_group=4", "global_spreader.eus=2"]),
    ("global_spreader", &["global_spreader.vdt_ways=4", "global_spreader.eus=32"]),
    ("global_spreader", &["global_spreader.vdt_ways=4", "global_spreader.eus=16", "global_spreader.entity_types=[\"triangle\", \"patch\"]", "global_spreader.vertices_per_group=16", "global_spreader.vdt_depth=1024", "global_spreader.index_width=32"]),
    ("global_spreader", &["global_spreader.vdt_ways=2", "global_spreader.pixel_reorder=4", "global_spreader.perf_counters=true", "global_spreader.aging=3", "global_spreader.select=\"least_loaded\"", "global_spreader.eus=3"]),
    // resource kinds (R16): 2 kinds on the default shape; 4 kinds on one EU with vertices only
    // at the smallest widths (RES_W 4: 4-bit fields of a 16-bit size) and at 32 EUs (cr_res and
    // st_free_res of 32 x 4 fields) with the kinds' tables; 2 kinds at 32 EUs on the widest
    // fields (RES_W 16) with two classes; 3 kinds (not a power of two) beside least_loaded
    // (which compares kind 0) and the counters, and beside round_robin, pixel order, ways and
    // aging (`resources_configs_load` checks that these load and that the loader refuses bad
    // lists and tables).
    ("global_spreader", &["global_spreader.resources=[\"a\", \"b\"]"]),
    ("global_spreader", &["global_spreader.resources=[\"a\", \"b\", \"c\", \"d\"]", "global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\"]", "global_spreader.vdt_depth=4", "global_spreader.index_width=8", "global_spreader.res_width=4", "global_spreader.entity_width=1", "global_spreader.addr_width=8"]),
    ("global_spreader", &["global_spreader.resources=[\"a\", \"b\", \"c\", \"d\"]", "global_spreader.eus=32", "global_spreader.resource={b={res_total=5, min_res={pixel=3}}, d={res_total=0, frame_res={vertex=2, patch=4095}}}"]),
    ("global_spreader", &["global_spreader.resources=[\"a\", \"b\"]", "global_spreader.eus=32", "global_spreader.entity_types=[\"triangle\", \"pixel\"]", "global_spreader.res_width=16", "global_spreader.resource={b={res_total=65535}}"]),
    ("global_spreader", &["global_spreader.resources=[\"regs\", \"threads\", \"buf\"]", "global_spreader.select=\"least_loaded\"", "global_spreader.perf_counters=true", "global_spreader.eus=3"]),
    ("global_spreader", &["global_spreader.resources=[\"regs\", \"threads\", \"buf\"]", "global_spreader.select=\"round_robin\"", "global_spreader.pixel_reorder=4", "global_spreader.vdt_ways=2", "global_spreader.aging=3", "global_spreader.eus=2", "global_spreader.res_width=4"]),
];

#[test]
fn every_key_at_each_edge_lints_clean() {
    let mut points: Vec<(&str, Vec<String>)> = Vec::new();
    for block in BLOCK_NAMES {
        points.push((block, Vec::new()));
        for k in KEYS.iter().filter(|k| k.key.starts_with(&format!("{block}."))) {
            points.extend(edge_values(&k.range).into_iter().map(|v| (block, vec![format!("{}={v}", k.key)])));
        }
    }
    points.extend(NAMED.iter().map(|(b, sets)| (*b, sets.iter().map(|s| s.to_string()).collect())));
    // Two workers: lint is one Verilator process per point. A point whose Verilog another
    // point already gave, but for the parameter header (an edge that is the key's default, a
    // value that the config's other keys make moot), is not linted twice.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let seen = std::sync::Mutex::new(std::collections::HashSet::new());
    let results: Vec<(usize, Vec<String>)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..2)
            .map(|_| {
                s.spawn(|| {
                    let (mut linted, mut failures) = (0, Vec::new());
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((block, set)) = points.get(i) else { break };
                        let Ok(config) = Config::embedded(set) else { continue };
                        let e = generate(&config, block).unwrap_or_else(|m| panic!("{block} {set:?}: {m}"));
                        let body: String = e.verilog.lines().skip_while(|l| l.starts_with("//")).collect();
                        if !seen.lock().unwrap().insert(body) {
                            continue;
                        }
                        if let Err(m) = harness::lint(&e) {
                            failures.push(format!("{block} {set:?}: {m}"));
                        }
                        linted += 1;
                    }
                    (linted, failures)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    });
    let linted: usize = results.iter().map(|r| r.0).sum();
    eprintln!("{linted} distinct configs of {} points linted", points.len());
    let failures: Vec<&String> = results.iter().flat_map(|r| &r.1).collect();
    assert!(linted >= 70, "only {linted} configs linted");
    assert!(failures.is_empty(), "{} of {linted} configs are not lint-clean:\n{}", failures.len(), failures.iter().map(|f| f.as_str()).collect::<Vec<_>>().join("\n"));
}

/// `scoreboard.branch_sets` inside its range (3; 2 and 4 are edges above) and with the
/// smallest and odd shapes, where its ports are one tracker wide or a `br_tg` names no group.
#[test]
fn scoreboard_branch_sets_lint_clean_on_small_and_odd_shapes() {
    let shapes: [&[&str]; 4] = [
        &["scoreboard.branch_sets=3"],
        &["scoreboard.branch_sets=3", "scoreboard.thread_groups=1", "scoreboard.trackers=1", "scoreboard.counter_width=1"],
        &["scoreboard.branch_sets=4", "scoreboard.thread_groups=1", "scoreboard.trackers=1", "scoreboard.completion_ports=1"],
        &["scoreboard.branch_sets=4", "scoreboard.thread_groups=3", "scoreboard.trackers=5", "scoreboard.counter_width=3"],
    ];
    for set in shapes {
        let config = load(set).unwrap_or_else(|e| panic!("{set:?}: {e}"));
        let e = generate(&config, "scoreboard").unwrap_or_else(|m| panic!("{set:?}: {m}"));
        harness::lint(&e).unwrap_or_else(|m| panic!("scoreboard {set:?}: {m}"));
    }
}

/// A config from the embedded default and `set`.
fn load(set: &[&str]) -> Result<Config, String> {
    Config::embedded(&set.iter().map(|s| s.to_string()).collect::<Vec<_>>()).map_err(|e| e.to_string())
}

/// The points of `NAMED` that set `key` are configs the loader takes (a refused point would be
/// skipped there without a word); returns how many there are.
fn named_points_load(key: &str) -> usize {
    let prefix = format!("{key}=");
    let points: Vec<_> = NAMED.iter().filter(|(_, set)| set.iter().any(|s| s.starts_with(&prefix))).collect();
    for (_, set) in &points {
        load(set).unwrap_or_else(|e| panic!("{set:?} refused: {e}"));
    }
    points.len()
}

/// R14: the `pixel_reorder` points of `NAMED` load, and the loader refuses the key without
/// pixel, at 1, at a value that is not a power of two and above 64.
#[test]
fn pixel_reorder_configs_load() {
    let n = named_points_load("global_spreader.pixel_reorder");
    assert!(n >= 4, "{n} pixel_reorder points");
    let refused: [&[&str]; 4] = [
        &["global_spreader.pixel_reorder=4", "global_spreader.entity_types=[\"vertex\", \"triangle\"]"],
        &["global_spreader.pixel_reorder=1"],
        &["global_spreader.pixel_reorder=12"],
        &["global_spreader.pixel_reorder=128"],
    ];
    for set in refused {
        assert!(load(set).is_err(), "{set:?} accepted");
    }
}

/// R15: the `vdt_ways` points of `NAMED` load, and the loader refuses the key at 3 and 8,
/// without a VDT (triangles and pixels only) and with fewer than 4 sets a way.
#[test]
fn vdt_ways_configs_load() {
    let n = named_points_load("global_spreader.vdt_ways");
    assert!(n >= 6, "{n} vdt_ways points");
    let refused: [&[&str]; 5] = [
        &["global_spreader.vdt_ways=3"],
        &["global_spreader.vdt_ways=8"],
        &["global_spreader.vdt_ways=2", "global_spreader.entity_types=[\"triangle\", \"pixel\"]"],
        &["global_spreader.vdt_ways=4", "global_spreader.vdt_depth=8"],
        &["global_spreader.vdt_ways=2", "global_spreader.vdt_depth=4", "global_spreader.entity_types=[\"patch\"]", "global_spreader.vertices_per_group=4"],
    ];
    for set in refused {
        assert!(load(set).is_err(), "{set:?} accepted");
    }
}

/// R16: the `resources` points of `NAMED` load, and the loader refuses an empty list, five
/// names, a bad name, a name listed twice, a table for a kind not listed and for the first kind.
#[test]
fn resources_configs_load() {
    let n = named_points_load("global_spreader.resources");
    assert!(n >= 5, "{n} resources points");
    let refused: [&[&str]; 7] = [
        &["global_spreader.resources=[]"],
        &["global_spreader.resources=[\"a\", \"b\", \"c\", \"d\", \"e\"]"],
        &["global_spreader.resources=[\"a\", \"Regs\"]"],
        &["global_spreader.resources=[\"a\", \"a\"]"],
        &["global_spreader.resources=[\"a\", \"b\"]", "global_spreader.resource={c={res_total=1}}"],
        &["global_spreader.resources=[\"a\", \"b\"]", "global_spreader.resource={a={res_total=1}}"],
        &["global_spreader.resources=[\"a\", \"b\"]", "global_spreader.res_width=4", "global_spreader.resource={b={res_total=16}}"],
    ];
    for set in refused {
        assert!(load(set).is_err(), "{set:?} accepted");
    }
}

/// `branch_stack.thread_groups`: the points of `NAMED` load, and the loader refuses 0, a value
/// that is not a power of two, and 64.
#[test]
fn branch_stack_thread_groups_configs_load() {
    let n = named_points_load("branch_stack.thread_groups");
    assert!(n >= 4, "{n} thread_groups points");
    for bad in ["0", "3", "12", "64"] {
        let set = format!("branch_stack.thread_groups={bad}");
        assert!(load(&[&set]).is_err(), "{set} accepted");
    }
}
