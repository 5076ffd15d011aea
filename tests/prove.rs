//! `warpgen prove` as a user meets it: every block's properties through SymbiYosys at the
//! default config and at small configs (no assert fails, every cover is reached), a broken
//! block whose counterexample replays in `warpgen sim`, and the input errors.

use std::path::Path;

mod common;
use common::{stderr, stdout, warpgen, write};

/// Runs `warpgen prove BLOCK` with `sets` and the further arguments `more` (depths, engine)
/// into a temporary directory; requires success and a table with asserts and covers and nothing
/// failed or uncovered. Returns the table.
fn proves(block: &str, sets: &[&str], more: &[&str]) -> String {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("p");
    let mut args = vec!["prove", block, "--out", out.to_str().unwrap()];
    args.extend(more);
    for s in sets {
        args.extend(["--set", s]);
    }
    let o = warpgen(&args);
    let table = stdout(&o);
    assert!(o.status.success(), "warpgen {}:\n{table}\n{}", args.join(" "), stderr(&o));
    let rows: Vec<&str> = table.lines().filter(|l| l.starts_with(block)).collect();
    let asserts = rows.iter().filter(|l| l.contains(" a_")).count();
    let covers = rows.iter().filter(|l| l.contains(" c_") && l.contains("covered at step")).count();
    assert!(asserts >= 3 && covers >= asserts, "{table}");
    assert!(!table.contains("FAILED") && !table.contains("NOT COVERED"), "{table}");
    table
}

/// The block generated at `sets` alone, proved against the properties of `sets` plus the
/// option `key` with `more`: must fail `assert` (so the properties see what the option does).
fn fails_without(block: &str, sets: &[&str], key: &str, more: &[&str], assert: &str) {
    fails_edited(block, sets, &[&sets[..], &[key]].concat(), &|v| v.to_string(), more, assert);
}

/// The block generated at `gen_sets`, its Verilog passed through `edit`, proved against the
/// properties of `prove_sets` with `more`: must fail `assert`.
fn fails_edited(block: &str, gen_sets: &[&str], prove_sets: &[&str], edit: &dyn Fn(&str) -> String, more: &[&str], assert: &str) {
    let d = tempfile::tempdir().unwrap();
    let rtl = d.path().join("rtl");
    let mut args = vec!["generate", "--block", block, "--out", rtl.to_str().unwrap()];
    args.extend(gen_sets.iter().flat_map(|s| ["--set", *s]));
    assert!(warpgen(&args).status.success());
    let plain = rtl.join(format!("warpgen_{block}.v"));
    let text = std::fs::read_to_string(&plain).unwrap();
    let edited = edit(&text);
    std::fs::write(&plain, edited).unwrap();
    let out = d.path().join("p");
    let mut args = vec!["prove", block, "--rtl", plain.to_str().unwrap(), "--out", out.to_str().unwrap()];
    args.extend(more);
    args.extend(prove_sets.iter().flat_map(|s| ["--set", *s]));
    let o = warpgen(&args);
    let table = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{table}{}", stderr(&o));
    assert!(table.lines().any(|l| l.contains(&format!(" {assert} ")) && l.contains("FAILED")), "{table}");
}

/// The quick configs `make test` proves: small enough that each proof takes seconds to a
/// minute or two on 2 cores (docs/formal.md gives the measured times).
#[test]
fn scoreboard_proves() {
    proves("scoreboard", &["scoreboard.thread_groups=1", "scoreboard.trackers=1", "scoreboard.counter_width=1", "scoreboard.completion_ports=1"], &[]);
    proves("scoreboard", &["scoreboard.thread_groups=2", "scoreboard.trackers=2", "scoreboard.counter_width=2", "scoreboard.completion_ports=2"], &["--depth", "8", "--cover-depth", "12"]);
    // The default config: PDR proves every assert, ABC's BMC reaches every cover (a 4-bit
    // counter at its maximum needs 17 cycles).
    let t = proves("scoreboard", &[], &[]);
    assert!(t.lines().filter(|l| l.contains(" a_")).all(|l| l.contains(" proved ")), "the default scoreboard is proved:\n{t}");
    assert!(t.contains("covered at step 17"), "{t}");
}

/// `scoreboard.branch_sets` 3 and 4 (rule SB2): `br_sel` is the first satisfied set. Four sets
/// need two trackers, so that C and D can be satisfied together while A and B wait.
#[test]
fn scoreboard_branch_sets_prove() {
    let small = ["scoreboard.thread_groups=1", "scoreboard.counter_width=1", "scoreboard.completion_ports=1"];
    let t = proves("scoreboard", &[&small[..], &["scoreboard.trackers=1", "scoreboard.branch_sets=3"]].concat(), &[]);
    assert!(t.contains(" c_br_c "), "{t}");
    let t = proves("scoreboard", &[&small[..], &["scoreboard.trackers=2", "scoreboard.branch_sets=4"]].concat(), &[]);
    assert!(t.contains(" c_br_d ") && t.contains(" c_br_cd_tie "), "{t}");
}

/// `scoreboard.perf_counters` (rules SB3-SB4): every counter moves by exactly its event (from
/// the ports and the checker's shadow), clears, reads 0 past the last (7 counters, 3-bit
/// `perf_sel`), and `err_clr` lowers `err_underflow` unless that edge underflows.
#[test]
fn scoreboard_perf_counters_prove() {
    let sets = ["scoreboard.thread_groups=1", "scoreboard.trackers=2", "scoreboard.counter_width=1", "scoreboard.completion_ports=1", "scoreboard.perf_counters=true"];
    let t = proves("scoreboard", &sets, &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"]);
    assert!(t.contains(" c_perf_none ") && t.contains(" a_perf_count ") && t.contains(" a_err_clr "), "{t}");
}

/// `scoreboard.implicit_fence` (rule SB5): with tracker 1 fenced the asserts hold and an issue
/// refused by its fence alone is covered; the block generated without the key (no fence) fails
/// `a_iss_ready` against the same properties, so they see the fence.
#[test]
fn scoreboard_implicit_fence_proves() {
    let sets = ["scoreboard.thread_groups=1", "scoreboard.trackers=2", "scoreboard.counter_width=2", "scoreboard.completion_ports=1"];
    let fence = [&sets[..], &["scoreboard.implicit_fence=[1]"]].concat();
    let t = proves("scoreboard", &fence, &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"]);
    assert!(t.contains(" c_iss_fence ") && t.contains(" proved "), "{t}");
    fails_without("scoreboard", &sets, "scoreboard.implicit_fence=[1]", &["--depth", "6", "--cover-depth", "6"], "a_iss_ready");
}

/// `scoreboard.branch_fetch_gate` (rule SB6) at 3 sets: the asserts hold and a fetch opened
/// by a set after A is covered; the same Verilog with the later sets' OR removed (the gate
/// ignoring the branch) fails `a_fetch_ok`, so the properties see the gate.
#[test]
fn scoreboard_branch_fetch_gate_proves() {
    let sets = ["scoreboard.thread_groups=1", "scoreboard.trackers=2", "scoreboard.counter_width=1", "scoreboard.completion_ports=1", "scoreboard.branch_fetch_gate=true", "scoreboard.branch_sets=3"];
    let more = ["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"];
    let t = proves("scoreboard", &sets, &more);
    assert!(t.contains(" c_fetch_later ") && t.lines().filter(|l| l.contains(" a_")).all(|l| l.contains(" proved ")), "{t}");
    let or = "fetch_ok_cmb = fetch_ok_cmb | fok_0;";
    let ignore = |v: &str| {
        assert!(v.contains(or), "the generated Verilog's gate OR changed; update this test");
        v.replace(or, "fetch_ok_cmb = fetch_ok_cmb;")
    };
    fails_edited("scoreboard", &sets, &sets, &ignore, &more, "a_fetch_ok");
}

#[test]
fn branch_stack_proves() {
    let t = proves("branch_stack", &["branch_stack.depth=2", "branch_stack.producer_stages=1", "branch_stack.pc_width=4", "branch_stack.offset_width=2", "branch_stack.reset_pc=5"], &[]);
    assert!(t.contains(" proved "), "a 2-deep stack closes by induction:\n{t}");
    // The default config: PDR proves every assert (no depth), ABC's BMC reaches every cover.
    let t = proves("branch_stack", &[], &[]);
    assert!(t.lines().filter(|l| l.contains(" a_")).all(|l| l.contains(" proved ")), "the default branch stack is proved:\n{t}");
    // The same config with smtbmc's k-induction, bounded.
    proves("branch_stack", &[], &["--engine", "smtbmc", "--depth", "10", "--cover-depth", "20"]);
}

/// `branch_stack.perf_counters` (rule P1, docs/perf.md): the shared counter asserts with the
/// shadow's events, at "drop" and at "stall" (where `stall_cc` counts held stages), on a
/// 2-deep stack with two producers (bounded: PDR does not close within 10 s).
#[test]
fn branch_stack_perf_counters_prove() {
    let small = ["branch_stack.depth=2", "branch_stack.producer_stages=2", "branch_stack.pc_width=4", "branch_stack.offset_width=2", "branch_stack.perf_counters=true"];
    let args = ["--pdr-seconds", "10", "--depth", "8", "--cover-depth", "12"];
    for extra in [&[][..], &["branch_stack.producer_conflict=\"stall\""][..]] {
        let t = proves("branch_stack", &[&small[..], extra].concat(), &args);
        assert!(t.contains(" a_perf_count ") && t.contains(" c_perf_count "), "{t}");
    }
}

/// `branch_stack.thread_groups` (rules G1–G7): the shadow keeps every group's stack and PC; at
/// two groups (and four, with "stall" and "cnvz") PDR proves every assert and every cover is
/// reached; an RTL whose port limit ignores the groups (a producer pop of another group beside
/// a compound branch suppressed, as with one group) fails `a_err_port`.
#[test]
fn branch_stack_thread_groups_prove() {
    let small = ["branch_stack.depth=2", "branch_stack.producer_stages=2", "branch_stack.pc_width=4", "branch_stack.offset_width=2"];
    for extra in [&["branch_stack.thread_groups=2"][..], &["branch_stack.thread_groups=4", "branch_stack.producer_conflict=\"stall\"", "branch_stack.compound_flags=\"cnvz\""][..]] {
        let t = proves("branch_stack", &[&small[..], extra].concat(), &[]);
        assert!(t.lines().filter(|l| l.contains(" a_")).all(|l| l.contains(" proved ")), "{t}");
        assert!(t.contains(" a_sv ") && t.contains(" a_t0_tg ") && t.contains(" c_port_other ") && t.contains(" c_restore "), "{t}");
    }
    let sets = [&small[..], &["branch_stack.thread_groups=2"]].concat();
    let same = "port_hit = port_hit & same_0;";
    let ignore = |v: &str| {
        assert!(v.contains(same), "the port limit's group test is in the Verilog");
        v.replace(same, "port_hit = port_hit;")
    };
    fails_edited("branch_stack", &sets, &sets, &ignore, &["--pdr-seconds", "20", "--depth", "10", "--cover-depth", "1"], "a_err_port");
}

#[test]
fn task_combiner_proves() {
    proves("task_combiner", &["task_combiner.entries=2", "task_combiner.width=4", "task_combiner.shader_types=2", "task_combiner.state_width=1", "task_combiner.ref_width=2", "task_combiner.tile_pipes=2", "task_combiner.tag_gen_width=1"], &["--pdr-seconds", "10", "--depth", "5", "--cover-depth", "12"]);
    // Three entries, the four patent shader types (a dependency chain), nodep_oldest, and the
    // registered issue (R4r).
    proves("task_combiner", &["task_combiner.entries=3", "task_combiner.width=4", "task_combiner.shader_types=4", "task_combiner.state_width=1", "task_combiner.ref_width=2", "task_combiner.tile_pipes=1", "task_combiner.tag_gen_width=1", "task_combiner.policy=\"nodep_oldest\"", "task_combiner.registered_issue=true"], &["--pdr-seconds", "10", "--depth", "4", "--cover-depth", "12"]);
}

/// The default config (16 entries x 32 lanes): PDR does not close, so the asserts are bounded
/// to 6 cycles (ABC's BMC on PDR's model: 4 s; depth 8 takes a minute); every cover is reached, the deepest (an eviction) at step 20. Its own test, so
/// that it runs beside the other proofs on the second core.
#[test]
fn task_combiner_default_proves() {
    let t = proves("task_combiner", &[], &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "24"]);
    assert!(t.contains(" c_reason_evict "), "{t}");
}

/// The default config (5 EUs, 256-entry tables): bounded to 4 cycles (ABC's BMC on PDR's model:
/// 2 s; depth 5 takes 9 s, 6 more than two minutes), every cover reached.
#[test]
fn global_spreader_default_proves() {
    proves("global_spreader", &[], &["--pdr-seconds", "10", "--depth", "4", "--cover-depth", "6"]);
}

/// `task_combiner.hold_producers` (contract R5h) on 3 entries of 4 lanes, types VS/HS/DS with a
/// domain-shader capacity of 1 (a DS task is FULL at once, so a hull task is held within a few
/// steps): the asserts hold to depth 7, `c_hold` sees a producer held across an edge (step 5),
/// and the held Verilog fails `a_next_pending` at step 5 against R5's properties (no hold:
/// the producer must close).
#[test]
fn task_combiner_hold_producers_prove() {
    let sets = ["task_combiner.entries=3", "task_combiner.width=4", "task_combiner.shader_types=3", "task_combiner.state_width=1", "task_combiner.ref_width=2", "task_combiner.tile_pipes=1", "task_combiner.tag_gen_width=1", "task_combiner.capacity=[2, 2, 1]"];
    let held = [&sets[..], &["task_combiner.hold_producers=1"]].concat();
    let t = proves("task_combiner", &held, &["--pdr-seconds", "10", "--depth", "7", "--cover-depth", "12"]);
    assert!(t.contains(" c_hold "), "{t}");
    // (smtbmc: ABC's PDR finds this failure too, but yowasp-sby 0.70's witness conversion of
    // its trace stops with an AssertionError in ywio.py, so the trace would be lost.)
    fails_edited("task_combiner", &held, &sets, &|v| v.to_string(), &["--engine", "smtbmc", "--depth", "6", "--cover-depth", "1"], "a_next_pending");
}

/// `task_combiner.dep_tags` (contract D3t) on the hold config's small table with two producer
/// tags: the asserts (`a_next_dep` on the rows, `a_err_dep` on the sticky flag and its clear)
/// hold to depth 6 and the new covers are reached; a Verilog whose instance takes D3's whole
/// set (the AND with the named entries deleted) fails `a_next_dep`.
#[test]
fn task_combiner_dep_tags_prove() {
    let sets = ["task_combiner.entries=3", "task_combiner.width=4", "task_combiner.shader_types=3", "task_combiner.state_width=1", "task_combiner.ref_width=2", "task_combiner.tile_pipes=1", "task_combiner.tag_gen_width=1", "task_combiner.capacity=[2, 2, 1]", "task_combiner.dep_tags=2"];
    let t = proves("task_combiner", &sets, &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"]);
    assert!(t.contains(" a_err_dep ") && t.contains(" c_err_dep_clr ") && t.contains(" c_dep_by_tag "), "{t}");
    let whole_d3 = |v: &str| -> String {
        let kept: Vec<&str> = v.lines().filter(|l| !(l.trim_start().starts_with("dset_") && l.contains("& named_"))).collect();
        assert!(kept.len() + 3 == v.lines().count(), "the named AND of the 3 entries");
        kept.join("\n")
    };
    fails_edited("task_combiner", &sets, &sets, &whole_d3, &["--engine", "smtbmc", "--depth", "5", "--cover-depth", "1"], "a_next_dep");
}

/// `task_combiner.registered_input` (contract R2i) on 2 entries of 4 lanes: the checker keeps
/// its own input register and the table's properties read it; they hold to depth 4 and an
/// instance is seen waiting in the register and entering during a drain (`c_ir_wait`,
/// `c_ir_drain`). A Verilog whose key compare is not forwarded for the entry the registered
/// instance creates (the next instance of that key misses it) fails `a_in_tag_lane`.
#[test]
fn task_combiner_registered_input_prove() {
    let sets = ["task_combiner.entries=2", "task_combiner.width=4", "task_combiner.shader_types=2", "task_combiner.state_width=1", "task_combiner.ref_width=2", "task_combiner.tile_pipes=2", "task_combiner.tag_gen_width=1", "task_combiner.registered_input=true"];
    let t = proves("task_combiner", &sets, &["--pdr-seconds", "10", "--depth", "4", "--cover-depth", "9"]);
    assert!(t.contains(" a_in_tag_valid ") && t.contains(" c_ir_wait ") && t.contains(" c_ir_drain "), "{t}");
    let no_forward = |v: &str| -> String {
        let kept: Vec<&str> = v.lines().filter(|l| !l.trim_start().ends_with("_d_cmb = eq_ir_0;")).collect();
        assert!(kept.len() + 2 == v.lines().count(), "the forwarded compare of the 2 entries");
        kept.join("\n")
    };
    fails_edited("task_combiner", &sets, &sets, &no_forward, &["--engine", "smtbmc", "--depth", "5", "--cover-depth", "1"], "a_in_tag_lane");
}

/// `task_combiner.perf_counters` (rule P1, docs/perf.md): the shared counter asserts with the
/// events from the ports and the checker's own decisions, on 2 entries of 4 lanes with
/// `registered_issue` (bounded: PDR does not close on the 32-bit counters).
#[test]
fn task_combiner_perf_counters_prove() {
    let sets = ["task_combiner.entries=2", "task_combiner.width=4", "task_combiner.shader_types=2", "task_combiner.state_width=1", "task_combiner.ref_width=2", "task_combiner.tile_pipes=2", "task_combiner.tag_gen_width=1", "task_combiner.registered_issue=true", "task_combiner.perf_counters=true"];
    let t = proves("task_combiner", &sets, &["--pdr-seconds", "10", "--depth", "5", "--cover-depth", "12"]);
    assert!(t.contains(" c_perf_none ") && t.contains(" a_perf_count ") && t.contains(" c_perf_count "), "{t}");
}

#[test]
fn global_spreader_proves() {
    proves("global_spreader", &["global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\",\"triangle\"]", "global_spreader.vdt_depth=4", "global_spreader.pt_depth=2", "global_spreader.res_width=4", "global_spreader.entity_width=1", "global_spreader.index_width=8", "global_spreader.addr_width=8"], &["--pdr-seconds", "10", "--depth", "4", "--cover-depth", "8"]);
    // Two EUs (the choice between them, credits per EU).
    proves("global_spreader", &["global_spreader.eus=2", "global_spreader.entity_types=[\"vertex\",\"triangle\"]", "global_spreader.vdt_depth=4", "global_spreader.pt_depth=2", "global_spreader.res_width=4", "global_spreader.entity_width=2", "global_spreader.index_width=8", "global_spreader.addr_width=8"], &["--pdr-seconds", "10", "--depth", "3", "--cover-depth", "8"]);
}

/// `global_spreader.perf_counters` (rules G1-G2) on the first small config: the counters move by
/// their events (from the ports and the shadow; `stall_blocked`, `stall_no_eu`, `err_credit_ev` by
/// the counter rule only), clear, read 0 past the last (17 counters, 5-bit `perf_sel`), and
/// `err_clr` lowers the flags unless that edge sets them.
#[test]
fn global_spreader_perf_counters_prove() {
    let sets = ["global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\",\"triangle\"]", "global_spreader.vdt_depth=4", "global_spreader.pt_depth=2", "global_spreader.res_width=4", "global_spreader.entity_width=1", "global_spreader.index_width=8", "global_spreader.addr_width=8", "global_spreader.perf_counters=true"];
    let t = proves("global_spreader", &sets, &["--pdr-seconds", "10", "--depth", "4", "--cover-depth", "8"]);
    assert!(t.contains(" c_perf_none ") && t.contains(" a_perf_count ") && t.contains(" a_err_clr "), "{t}");
}

/// The small config of `global_spreader_proves` with patch, an 8-entry VDT and
/// `global_spreader.vdt_ways` = 2 (contract R15: 2 ways of 4 sets): the table shadow sets
/// {`ar_vdt_way`, set} at an ack (`a_tables`), a request never targets a valid entry of its way
/// (`a_blocked`), a new one takes the lowest free way (`a_way_low`), TRI and no request have way
/// 0 (`a_way_zero`), the way is sticky (`a_sticky`); a vertex and a patch are acked in way 1.
#[test]
fn global_spreader_vdt_ways_prove() {
    let sets = ["global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\",\"triangle\",\"patch\"]", "global_spreader.vdt_depth=8", "global_spreader.vdt_ways=2", "global_spreader.pt_depth=2", "global_spreader.res_width=4", "global_spreader.entity_width=1", "global_spreader.index_width=8", "global_spreader.addr_width=8"];
    let t = proves("global_spreader", &sets, &["--pdr-seconds", "10", "--depth", "4", "--cover-depth", "8"]);
    for label in [" a_way_low ", " a_way_zero ", " c_way_ack ", " c_way_patch "] {
        assert!(t.contains(label), "{label}: {t}");
    }
}

/// `global_spreader.vdt_ways` = 4 on a 16-entry VDT (4 ways of 4 sets), the same small config
/// otherwise: the asserts of R15 hold, and a request is acked in way 3 (`c_way_top`).
#[test]
fn global_spreader_vdt_ways4_prove() {
    let sets = ["global_spreader.eus=1", "global_spreader.entity_types=[\"vertex\",\"triangle\",\"patch\"]", "global_spreader.vdt_depth=16", "global_spreader.vdt_ways=4", "global_spreader.pt_depth=2", "global_spreader.res_width=4", "global_spreader.entity_width=1", "global_spreader.index_width=8", "global_spreader.addr_width=8"];
    let t = proves("global_spreader", &sets, &["--pdr-seconds", "10", "--depth", "4", "--cover-depth", "8"]);
    assert!(t.contains(" a_way_low ") && t.contains(" c_way_top "), "{t}");
}

/// The small config of `global_spreader_proves` on 2 EUs with `global_spreader.resources` =
/// ["a", "b"] (contract R16: two kinds, kind 1's RES_TOTAL 7 on EU 0 and 15 on EU 1, MIN_RES 1
/// for triangles, FRAME_RES 1 for vertices): FREE_RES per EU and kind equals the shadow
/// (`a_free`; debits, credits and clamps per kind, the kinds' registers), a new request's
/// target fits every kind (`a_fit`), fp_k = size_k + FRAME_RES[type][k] (`a_footprint`), no
/// over-commit per kind (`a_no_overcommit`), the kinds' registers read back (`a_cfg_read`);
/// covered: a request going past an EU whose kind 0 fits but kind 1 does not (`c_kind_limit`),
/// a packet waiting on kind 1 (`c_kind_wait`), a credit of kind 1 alone and a clamp of kind 1.
#[test]
fn global_spreader_resource_kinds_prove() {
    let sets = ["global_spreader.eus=2", "global_spreader.entity_types=[\"vertex\",\"triangle\"]", "global_spreader.vdt_depth=4", "global_spreader.pt_depth=2", "global_spreader.res_width=4", "global_spreader.entity_width=1", "global_spreader.index_width=8", "global_spreader.addr_width=8", "global_spreader.resources=[\"a\",\"b\"]", "global_spreader.resource={b={res_total=[7,15], min_res={triangle=1}, frame_res={vertex=1}}}"];
    let t = proves("global_spreader", &sets, &["--pdr-seconds", "10", "--depth", "4", "--cover-depth", "8"]);
    for label in [" a_fit ", " a_free ", " c_kind_limit ", " c_kind_wait ", " c_kind_credit ", " c_kind_clamp "] {
        assert!(t.contains(label), "{label}: {t}");
    }
}

#[test]
fn thread_merge_proves() {
    proves("thread_merge", &["thread_merge.slots=3", "thread_merge.tag_width=2", "thread_merge.prim_width=2", "thread_merge.pair_hold=0", "thread_merge.merge_timeout=0", "thread_merge.remap=false"], &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"]);
    // Two slots with a pair hold, a merge timeout and the lane remaps.
    proves("thread_merge", &["thread_merge.slots=2", "thread_merge.tag_width=2", "thread_merge.prim_width=2", "thread_merge.pair_hold=2", "thread_merge.merge_timeout=3", "thread_merge.remap=true"], &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"]);
    // The default config: bounded (PDR does not close), every cover reached by step 7.
    proves("thread_merge", &[], &["--pdr-seconds", "10", "--depth", "7", "--cover-depth", "12"]);
    // The counters and err_clr (R16-R17) on the first small config.
    proves("thread_merge", &["thread_merge.slots=3", "thread_merge.tag_width=2", "thread_merge.prim_width=2", "thread_merge.pair_hold=0", "thread_merge.merge_timeout=0", "thread_merge.remap=false", "thread_merge.perf_counters=true"], &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"]);
}

/// `thread_merge.cross_primitive` (contract R18): on the second small config the asserts hold
/// and a fragment of another primitive is taken beside the candidate; the block generated
/// without the key (which makes that candidate leave) fails `a_frag_ready` against them.
#[test]
fn thread_merge_cross_primitive_proves() {
    let sets = ["thread_merge.slots=2", "thread_merge.tag_width=2", "thread_merge.prim_width=2", "thread_merge.pair_hold=2", "thread_merge.merge_timeout=3", "thread_merge.remap=true"];
    let cross = [&sets[..], &["thread_merge.cross_primitive=true"]].concat();
    let t = proves("thread_merge", &cross, &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"]);
    assert!(t.contains(" c_frag_ready "), "{t}");
    let more = ["--pdr-seconds", "5", "--depth", "4", "--cover-depth", "6"];
    fails_without("thread_merge", &sets, "thread_merge.cross_primitive=true", &more, "a_frag_ready");
}

/// `thread_merge.candidates` (contract R19): 2 held candidates on the second small config
/// and 3 on the first (no hold window, so three can wait: with `pair_hold` 2 the oldest of
/// three expires before a fourth arrives). The asserts hold against the checker's queue, and
/// a fragment is held beside another, pairs with one other than the oldest, and pushes the
/// oldest out of a full queue; the block generated with one candidate fails `a_grp_new`.
#[test]
fn thread_merge_candidates_prove() {
    let hold = ["thread_merge.slots=2", "thread_merge.tag_width=2", "thread_merge.prim_width=2", "thread_merge.pair_hold=2", "thread_merge.merge_timeout=3", "thread_merge.remap=true"];
    let nohold = ["thread_merge.slots=3", "thread_merge.tag_width=2", "thread_merge.prim_width=2", "thread_merge.pair_hold=0", "thread_merge.merge_timeout=0", "thread_merge.remap=false"];
    for (sets, k) in [(&hold, "thread_merge.candidates=2"), (&nohold, "thread_merge.candidates=3")] {
        let with = [&sets[..], &[k]].concat();
        let t = proves("thread_merge", &with, &["--pdr-seconds", "10", "--depth", "6", "--cover-depth", "12"]);
        assert!(t.contains(" c_queue_hold ") && t.contains(" c_queue_deep_pair ") && t.contains(" c_queue_push "), "{t}");
    }
    let more = ["--pdr-seconds", "5", "--depth", "4", "--cover-depth", "6"];
    fails_without("thread_merge", &hold, "thread_merge.candidates=2", &more, "a_grp_new");
}

/// A scoreboard that ignores completion port 1 for thread group 1 (a dropped term, the kind of
/// slip a hand edit makes): the proof fails, its counterexample is stimulus, and replaying it
/// in Verilator shows the broken block's outputs leave the correct block's at the step the
/// proof names.
#[test]
fn a_broken_block_fails_and_its_counterexample_replays() {
    let d = tempfile::tempdir().unwrap();
    let sets = ["scoreboard.thread_groups=2", "scoreboard.trackers=2", "scoreboard.counter_width=2", "scoreboard.completion_ports=2"];
    let set_args: Vec<&str> = sets.iter().flat_map(|s| ["--set", *s]).collect();
    let rtl = d.path().join("rtl");
    let mut args = vec!["generate", "--block", "scoreboard", "--out", rtl.to_str().unwrap()];
    args.extend(&set_args);
    assert!(warpgen(&args).status.success());
    let good = rtl.join("warpgen_scoreboard.v");
    let text = std::fs::read_to_string(&good).unwrap();
    let site = "groups_1_cpl_hit_1 = cpl_valid_1 & (cpl_tg_1 == tg_id_1);";
    assert!(text.contains(site), "the mutation site moved: update this test");
    let bad = write(d.path(), "broken.v", &text.replace(site, "groups_1_cpl_hit_1 = 1'b0 & cpl_valid_1 & (cpl_tg_1 == tg_id_1);"));
    let out = d.path().join("proof");
    let mut args = vec!["prove", "scoreboard", "--rtl", &bad, "--depth", "8", "--cover-depth", "8", "--out", out.to_str().unwrap()];
    args.extend(&set_args);
    let o = warpgen(&args);
    let table = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{table}{}", stderr(&o));
    let step: usize = table
        .lines()
        .find_map(|l| l.split("FAILED at step ").nth(1))
        .and_then(|s| s.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no failed assert:\n{table}"));
    let cex = out.join("cex.jsonl");
    assert!(table.contains(cex.to_str().unwrap()), "{table}");
    let lines = std::fs::read_to_string(&cex).unwrap().lines().count();
    assert!(lines > step - 1, "{lines} stimulus lines for a failure at step {step}");
    // The same stimulus through the correct and the broken Verilog.
    let mut replays = Vec::new();
    for (name, v) in [("good", good.to_str().unwrap()), ("bad", bad.as_str())] {
        let o_path = d.path().join(format!("{name}.jsonl"));
        let mut args = vec!["sim", "scoreboard", "--rtl", v, "--stimulus", cex.to_str().unwrap(), "--out", o_path.to_str().unwrap()];
        args.extend(&set_args);
        let o = warpgen(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        replays.push(std::fs::read_to_string(&o_path).unwrap());
    }
    let first = replays[0].lines().zip(replays[1].lines()).position(|(g, b)| g != b);
    assert_eq!(first, Some(step - 1), "the replays should part at cycle {} (the failing step's sampled cycle)", step - 1);
}

#[test]
fn bad_input_is_named_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("p");
    let o = warpgen(&["prove", "no_such_block", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no_such_block"), "{}", stderr(&o));
    let wrong = write(d.path(), "wrong.v", "module something_else(input clock); endmodule\n");
    let o = warpgen(&["prove", "scoreboard", "--rtl", &wrong, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("wrong.v") && stderr(&o).contains("module warpgen_scoreboard"), "{}", stderr(&o));
    let o = warpgen(&["prove", "scoreboard", "--set", "scoreboard.trackers=0", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("scoreboard.trackers"), "{}", stderr(&o));
    let o = warpgen(&["prove", "scoreboard", "--depth", "0", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    // A config the checker does not cover (thread_merge sets of 3, contract R20) names the key.
    let o = warpgen(&["prove", "thread_merge", "--set", "thread_merge.merge_ways=3", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("thread_merge.merge_ways = 3") && stderr(&o).contains("allowed 2"), "{}", stderr(&o));
    assert!(!out.exists(), "bad input created {}", out.display());
}

#[test]
fn a_missing_solver_is_named_with_its_install_command() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("p");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_warpgen"))
        .args(["prove", "branch_stack", "--out", out.to_str().unwrap()])
        .env("Z3", Path::new("/nonexistent/z3"))
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("z3") && stderr(&o).contains("make deps"), "{}", stderr(&o));
}
