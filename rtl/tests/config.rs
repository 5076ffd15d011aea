//! Tests of the config (outside the crate, so that `cargo test` does not compile `warpgen-rtl`
//! twice, docs/build-time.md): loading, validation of every key, overrides, errors that name
//! the file, line, key and range.

use warpgen_rtl::config::*;

fn load(text: &str, sets: &[&str]) -> Result<Config, ConfigError> {
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Config::load(Origin::File("t.toml".into()), text, &sets)
}

#[test]
fn embedded_default_is_valid_and_matches_documented_defaults() {
    let c = Config::embedded(&[]).unwrap();
    assert_eq!(c.scoreboard.unwrap(), ScoreboardConfig::default());
    assert_eq!(c.branch_stack.unwrap(), BranchStackConfig::default());
    assert_eq!(c.global_spreader.unwrap(), GlobalSpreaderConfig::default());
    assert_eq!(c.thread_merge.unwrap(), ThreadMergeConfig::default());
}

#[test]
fn omitted_keys_take_defaults() {
    let c = load("[scoreboard]\ntrackers = 2\n", &[]).unwrap();
    let sb = c.scoreboard.unwrap();
    assert_eq!((sb.thread_groups, sb.trackers, sb.counter_width), (4, 2, 4));
    assert_eq!(sb.max_counts(), vec![15, 15]);
}

#[test]
fn range_error_names_file_key_line_and_range() {
    let e = load("# c\n[scoreboard]\n\ntrackers = 17\n", &[]).unwrap_err();
    assert_eq!(e.key, "scoreboard.trackers");
    assert_eq!(e.line, Some(4));
    assert_eq!(e.to_string(), "t.toml:4: key `scoreboard.trackers`: 17 is out of range: allowed 1 to 16");
}

#[test]
fn every_range_is_checked_at_both_ends() {
    for (key, lo, hi) in [
        ("thread_groups", 1, 64),
        ("trackers", 1, 16),
        ("counter_width", 1, 8),
        ("completion_ports", 1, 4),
        ("branch_sets", 2, 4),
    ] {
        for ok in [lo, hi] {
            assert!(load(&format!("[scoreboard]\n{key} = {ok}\n"), &[]).is_ok(), "{key}={ok}");
        }
        for bad in [lo - 1, hi + 1] {
            let e = load(&format!("[scoreboard]\n{key} = {bad}\n"), &[]).unwrap_err();
            assert_eq!(e.key, format!("scoreboard.{key}"));
            assert!(e.message.contains(&format!("allowed {lo} to {hi}")), "{e}");
        }
    }
}

#[test]
fn branch_stack_ranges_are_checked_at_both_ends() {
    // Fixed ranges, and the ranges that follow pc_width, each at a few pc_widths.
    let mut cases: Vec<(String, &str, i128, i128)> = vec![
        ("".into(), "depth", 2, 32),
        ("".into(), "producer_stages", 1, 3),
        // offset_width (default 16) must fit in the smallest pc_width.
        ("offset_width = 2\n".into(), "pc_width", 4, 64),
    ];
    for pcw in [4i128, 16, 17, 32, 63] {
        cases.push((format!("pc_width = {pcw}\n"), "offset_width", 2, pcw));
        let pre = format!("pc_width = {pcw}\noffset_width = 2\n");
        cases.push((pre.clone(), "pc_increment", 1, ((1i128 << pcw) - 1).min(65535)));
        cases.push((pre, "reset_pc", 0, (1i128 << pcw) - 1));
    }
    for (pre, key, lo, hi) in cases {
        for ok in [lo, hi] {
            let t = format!("[branch_stack]\n{pre}{key} = {ok}\n");
            assert!(load(&t, &[]).is_ok(), "{t}");
        }
        for bad in [lo - 1, hi + 1] {
            if bad > i64::MAX as i128 {
                continue; // pc_width 63: 2^63 is not a TOML integer
            }
            let t = format!("[branch_stack]\n{pre}{key} = {bad}\n");
            let e = load(&t, &[]).unwrap_err();
            assert_eq!(e.key, format!("branch_stack.{key}"), "{t}");
            assert!(e.message.contains(&format!("allowed {lo} to {hi}")), "{t}: {e}");
            assert_eq!(e.line, Some(pre.lines().count() + 2), "{t}");
        }
    }
    // pc_width 64: every non-negative TOML integer is a legal reset_pc.
    let c = load(&format!("[branch_stack]\npc_width = 64\noffset_width = 64\nreset_pc = {}\n", i64::MAX), &[]).unwrap();
    assert_eq!(c.branch_stack.unwrap().reset_pc, i64::MAX);
    let e = load("[branch_stack]\npc_width = 64\nreset_pc = -1\n", &[]).unwrap_err();
    assert!(e.message.contains("allowed 0 to 9223372036854775807"), "{e}");
    // Defaults, omitted keys, unknown keys, cc_cnt width.
    let c = load("[branch_stack]\n", &[]).unwrap();
    assert_eq!(c.blocks(), vec!["branch_stack"]);
    assert_eq!(c.branch_stack().unwrap(), &BranchStackConfig::default());
    assert!(c.scoreboard().is_err());
    let e = load("[branch_stack]\ndepht = 4\n", &[]).unwrap_err();
    assert_eq!(e.key, "branch_stack.depht");
    let bits: Vec<usize> = [2, 3, 4, 7, 8, 15, 16, 31, 32]
        .iter()
        .map(|d| BranchStackConfig { depth: *d, ..Default::default() }.cnt_bits())
        .collect();
    assert_eq!(bits, vec![2, 2, 3, 3, 4, 4, 5, 5, 6]);
}

#[test]
fn scoreboard_implicit_fence_key() {
    // None by default; a list of distinct tracker indices below `trackers`.
    assert_eq!(ScoreboardConfig::default().fence_mask(), 0);
    let c = load("[scoreboard]\nimplicit_fence = [0, 3]\n", &[]).unwrap().scoreboard.unwrap();
    assert_eq!(c.fence_mask(), 0b1001);
    let c = load("[scoreboard]\n", &["scoreboard.implicit_fence=[7]"]).unwrap().scoreboard.unwrap();
    assert_eq!(c.fence_mask(), 0x80);
    for (text, why) in [("implicit_fence = [8]", "8 is out of range: allowed tracker indices 0 to 7"),
                        ("implicit_fence = [1, 1]", "1 is listed twice"),
                        ("implicit_fence = [-1]", "-1 is out of range")] {
        let e = load(&format!("# c\n[scoreboard]\n{text}\n"), &[]).unwrap_err();
        assert_eq!((e.key.as_str(), e.line), ("scoreboard.implicit_fence", Some(3)), "{text}: {e}");
        assert!(e.message.contains(why), "{text}: {e}");
    }
    // The range follows `trackers`.
    let e = load("[scoreboard]\ntrackers = 2\nimplicit_fence = [2]\n", &[]).unwrap_err();
    assert!(e.message.contains("allowed tracker indices 0 to 1"), "{e}");
}

#[test]
fn scoreboard_branch_fetch_gate_key() {
    // Off by default (one wait mask per group); on, one more per branch set after A.
    let d = ScoreboardConfig::default();
    assert_eq!((d.branch_fetch_gate, d.gate_sets()), (false, 0));
    let c = load("[scoreboard]\nbranch_fetch_gate = true\n", &[]).unwrap().scoreboard.unwrap();
    assert_eq!(c.gate_sets(), 1);
    let c = load("[scoreboard]\nbranch_sets = 4\n", &["scoreboard.branch_fetch_gate=true"]).unwrap().scoreboard.unwrap();
    assert_eq!(c.gate_sets(), 3);
    let e = load("# c\n[scoreboard]\nbranch_fetch_gate = \"yes\"\n", &[]).unwrap_err();
    assert!(e.message.contains("invalid type") && e.key == "scoreboard.branch_fetch_gate", "{e}");
    assert_eq!(e.line, Some(3), "{e}");
}

#[test]
fn scoreboard_perf_counters_key() {
    // Off by default (no port); on, 6 counters plus one per completion port.
    let d = ScoreboardConfig::default();
    assert!(!d.perf_counters);
    assert_eq!((d.perf_count(), d.perf_sel_bits()), (0, 3));
    let c = load("[scoreboard]\nperf_counters = true\n", &[]).unwrap().scoreboard.unwrap();
    assert_eq!((c.perf_count(), c.perf_sel_bits()), (8, 3));
    assert_eq!(c.perf_names()[5..], ["err_underflow_ev", "cpl_0", "cpl_1"]);
    let c = load("[scoreboard]\n", &["scoreboard.perf_counters=true", "scoreboard.completion_ports=4"]).unwrap();
    assert_eq!((c.scoreboard.as_ref().unwrap().perf_count(), c.scoreboard.unwrap().perf_sel_bits()), (10, 4));
    for text in ["perf_counters = 1", "perf_counters = \"on\""] {
        let e = load(&format!("[scoreboard]\n{text}\n"), &[]).unwrap_err();
        assert!(e.message.contains("invalid type") && e.key == "scoreboard.perf_counters", "{text}: {e}");
        assert_eq!(e.line, Some(2), "{e}");
    }
}

#[test]
fn max_count_forms_and_ranges() {
    let c = load("[scoreboard]\ntrackers = 3\ncounter_width = 2\nmax_count = [3, 1, 2]\n", &[]).unwrap();
    assert_eq!(c.scoreboard.unwrap().max_counts(), vec![3, 1, 2]);
    let c = load("[scoreboard]\ntrackers = 2\nmax_count = 1\n", &[]).unwrap();
    assert_eq!(c.scoreboard.unwrap().max_counts(), vec![1, 1]);
    let e = load("[scoreboard]\ncounter_width = 2\nmax_count = 4\n", &[]).unwrap_err();
    assert!(e.message.contains("allowed 1 to 3"), "{e}");
    let e = load("[scoreboard]\ntrackers = 2\nmax_count = [1, 2, 3]\n", &[]).unwrap_err();
    assert!(e.message.contains("3 entries"), "{e}");
    let e = load("[scoreboard]\nmax_count = [0, 1, 1, 1, 1, 1, 1, 1]\n", &[]).unwrap_err();
    assert!(e.message.contains("entry 0 = 0"), "{e}");
}

#[test]
fn unknown_key_wrong_type_garbage_and_empty_are_errors() {
    let e = load("[scoreboard]\ntrackerz = 3\n", &[]).unwrap_err();
    assert!(e.message.contains("unknown field `trackerz`"), "{e}");
    assert_eq!(e.line, Some(2));
    assert_eq!(e.key, "scoreboard.trackerz");
    let e = load("[scoreboard]\ntrackers = \"eight\"\n", &[]).unwrap_err();
    assert!(e.message.contains("invalid type"), "{e}");
    assert_eq!(e.line, Some(2));
    assert_eq!(e.key, "scoreboard.trackers");
    let e = load("[scoreboardd]\n", &[]).unwrap_err();
    assert!(e.message.contains("unknown field `scoreboardd`"), "{e}");
    assert!(load("\u{1}\u{2}garbage ][", &[]).is_err());
    let e = load("  \n", &[]).unwrap_err();
    assert!(e.message.contains("empty"), "{e}");
    let e = load("[task_combiner]\nslots = 4\n", &[]).unwrap_err();
    assert_eq!(e.key, "task_combiner.slots");
}

#[test]
fn overrides_are_applied_and_checked() {
    let c = load("[scoreboard]\n", &["scoreboard.trackers=4", "scoreboard.max_count=[1,2,3,4]"]).unwrap();
    let sb = c.scoreboard.unwrap();
    assert_eq!(sb.trackers, 4);
    assert_eq!(sb.max_counts(), vec![1, 2, 3, 4]);
    let e = load("[scoreboard]\n", &["scoreboard.trackers=0"]).unwrap_err();
    assert_eq!(e.key, "scoreboard.trackers");
    assert!(load("[scoreboard]\n", &["scoreboard.nope=1"]).unwrap_err().message.contains("unknown field"));
    assert!(load("[scoreboard]\n", &["trackers=1"]).is_err());
    assert!(load("[scoreboard]\n", &["gpu.trackers=1"]).unwrap_err().message.contains("unknown block"));
    assert!(load("[scoreboard]\n", &["scoreboard.trackers"]).is_err());
    // A type error or a number too large for TOML names the key and its range.
    for bad in ["abc", "1180591620717411303424", "2.5", "[1]"] {
        let e = load("[scoreboard]\n", &[&format!("scoreboard.trackers={bad}")]).unwrap_err();
        assert_eq!(e.key, "scoreboard.trackers", "{bad}: {e}");
        assert!(e.message.contains("allowed 1 to 16"), "{bad}: {e}");
    }
    // A table given twice is reported at its second header.
    let e = load("[scoreboard]\ntrackers = 4\n\n[scoreboard]\ntrackers = 5\n", &[]).unwrap_err();
    assert_eq!((e.key.as_str(), e.line), ("scoreboard", Some(4)), "{e}");
    assert!(e.message.contains("given twice"), "{e}");
    // A line break would smuggle a second key in.
    let e = load("[scoreboard]\n", &["scoreboard.trackers=3\nthread_groups=6400"]).unwrap_err();
    assert!(e.message.contains("line break"), "{e}");
    // A huge bad value is cut in the message, whoever reports it.
    for key in ["task_combiner.policy", "synth.target", "global_spreader.entity_types", "scoreboard.trackers"] {
        let huge = if key.ends_with("types") {
            format!("{key}=[\"{}\"]", "x".repeat(100_000))
        } else {
            format!("{key}={}", "x".repeat(100_000))
        };
        let e = load("[scoreboard]\n[task_combiner]\n[global_spreader]\n", &[&huge]).unwrap_err();
        assert!(e.to_string().len() < 400, "{key}: {} bytes", e.to_string().len());
    }
}

fn gs(body: &str) -> Result<GlobalSpreaderConfig, ConfigError> {
    load(&format!("[global_spreader]\n{body}"), &[]).map(|c| c.global_spreader.unwrap())
}

fn gs_err(body: &str) -> ConfigError {
    gs(body).expect_err(body)
}

#[test]
fn global_spreader_defaults_resolve_as_documented() {
    let c = gs("").unwrap();
    assert_eq!(c, GlobalSpreaderConfig::default());
    assert!((0..4).all(|t| c.has_type(t)));
    assert_eq!(c.res_totals(), vec![64; 5]);
    assert_eq!(c.edt_totals(), vec![256; 5]);
    assert_eq!(c.priority_of(2), vec![0, 1, 2, 3, 4]);
    assert_eq!(c.dedicated_of(1), vec![true; 5]);
    assert_eq!(c.eu_enabled(), vec![true; 5]);
    assert_eq!((c.min_res_of(0), c.frame_res_of(3)), (0, 0));
    assert!(c.enable && c.locality && !c.yield_enable);
    // Derived widths of the contract at the default.
    assert_eq!((c.eu_bits(), c.prio_bits(), c.avail_bits(), c.free_edt_bits()), (3, 4, 3, 9));
    assert_eq!((c.elem_bits(), c.vcount_bits(), c.patch_groups(), c.grp_bits()), (3, 4, 2, 1));
    assert_eq!((c.vdt_addr_bits(), c.prid_bits(), c.tag_bits()), (8, 8, 5));
    // RES_TOTAL's default follows res_width below 64.
    assert_eq!(gs("res_width = 5").unwrap().res_totals(), vec![31; 5]);
    assert_eq!(gs("entity_width = 1").unwrap().edt_totals(), vec![2; 5]);
    let c = gs("eus = 1\nvertices_per_group = 16\nentity_types = [\"vertex\", \"triangle\"]").unwrap();
    assert_eq!((c.eu_bits(), c.prio_bits(), c.avail_bits(), c.vcount_bits(), c.patch_groups()), (1, 2, 1, 5, 1));
    assert!(c.has_vdt() && c.has_pt() && !c.has_type(2));
    let c = gs("eus = 4\nvertices_per_group = 4").unwrap();
    assert_eq!((c.avail_bits(), c.patch_groups(), c.grp_bits()), (3, 4, 2));
}

#[test]
fn global_spreader_ranges_are_checked_at_both_ends() {
    for (key, lo, hi) in [
        ("eus", 1, 32),
        ("index_width", 12, 32), // lower end: above log2 8 + log2 256 = 11
        ("res_width", 4, 16),
        ("entity_width", 1, 10),
        ("addr_width", 8, 64),
    ] {
        for ok in [lo, hi] {
            assert!(gs(&format!("{key} = {ok}")).is_ok(), "{key}={ok}");
        }
        for bad in [lo - 1, hi + 1] {
            let e = gs_err(&format!("{key} = {bad}"));
            assert_eq!(e.key, format!("global_spreader.{key}"), "{e}");
            assert_eq!(e.line, Some(2), "{e}");
            assert!(e.message.contains(&format!("allowed {lo} to {hi}")), "{e}");
        }
    }
    for (key, good, bad, allowed) in [
        ("vertices_per_group", &[4, 8, 16][..], &[2, 5, 12, 32][..], "allowed 4, 8, 16"),
        ("vdt_depth", &[4, 256, 1024], &[2, 3, 100, 2048], "power of two from 4 to 1024"),
        ("pt_depth", &[2, 64, 1024], &[1, 0, 6, 2048], "power of two from 2 to 1024"),
    ] {
        for v in good {
            assert!(gs(&format!("{key} = {v}")).is_ok(), "{key}={v}");
        }
        for v in bad {
            let e = gs_err(&format!("{key} = {v}"));
            assert_eq!(e.key, format!("global_spreader.{key}"));
            assert!(e.message.contains(allowed), "{e}");
        }
    }
    // index_width's lower end follows VGRP and vdt_depth.
    assert!(gs("vertices_per_group = 16\nvdt_depth = 1024\nindex_width = 15").is_ok());
    let e = gs_err("vertices_per_group = 16\nvdt_depth = 1024\nindex_width = 14");
    assert_eq!(e.key, "global_spreader.index_width");
    assert!(e.message.contains("allowed 15 to 32"), "{e}");
    assert!(gs("vertices_per_group = 4\nvdt_depth = 4\nindex_width = 8").is_ok());
}

#[test]
fn global_spreader_reset_values_follow_the_widths() {
    // res_total: 0 to 2^res_width-1, one value or one per EU.
    assert_eq!(gs("res_width = 4\nres_total = 15").unwrap().res_totals(), vec![15; 5]);
    let e = gs_err("res_width = 4\nres_total = 16");
    assert!(e.message.contains("allowed 0 to 15 (2^res_width-1)"), "{e}");
    assert_eq!(gs("eus = 3\nres_total = [0, 7, 4095]").unwrap().res_totals(), vec![0, 7, 4095]);
    let e = gs_err("eus = 3\nres_total = [1, 2]");
    assert!(e.message.contains("has 2 entries but global_spreader.eus = 3"), "{e}");
    let e = gs_err("eus = 3\nres_total = [1, -1, 2]");
    assert_eq!(e.key, "global_spreader.res_total[1]");
    assert_eq!(e.line, Some(3));
    // edt_total: 0 to 2^entity_width (a full EDT of 2^ENT_W records).
    assert_eq!(gs("entity_width = 3\nedt_total = [8, 0, 1, 2, 3]").unwrap().edt_totals(), vec![8, 0, 1, 2, 3]);
    let e = gs_err("entity_width = 3\nedt_total = 9");
    assert_eq!(e.key, "global_spreader.edt_total");
    assert!(e.message.contains("allowed 0 to 8 (2^entity_width)"), "{e}");
    // min_res / frame_res per type name.
    let c = gs("res_width = 5\nmin_res = { pixel = 31, vertex = 2 }\nframe_res.patch = 3").unwrap();
    assert_eq!((c.min_res_of(2), c.min_res_of(0), c.min_res_of(1), c.frame_res_of(3)), (31, 2, 0, 3));
    let e = gs_err("res_width = 5\n\n[global_spreader.min_res]\ntriangle = 1\npixel = 32\n");
    assert_eq!(e.key, "global_spreader.min_res.pixel");
    assert_eq!(e.line, Some(6));
    assert!(e.message.contains("allowed 0 to 31"), "{e}");
    let e = gs_err("frame_res = { pixle = 1 }");
    assert_eq!(e.key, "global_spreader.frame_res.pixle");
    assert!(e.message.contains("not a type: allowed vertex, triangle, pixel, patch"), "{e}");
    let e = gs_err("entity_types = [\"vertex\"]\nmin_res.patch = 1");
    assert_eq!(e.key, "global_spreader.min_res.patch");
    assert_eq!(e.line, Some(3));
    assert!(e.message.contains("not built"), "{e}");
}

#[test]
fn global_spreader_eu_lists_and_types() {
    let c = gs("eus = 4\npriority = { pixel = [3, 1], vertex = [] }\ndedicated.triangle = [2, 2, 0]\neu_enable = [1]").unwrap();
    assert_eq!((c.priority_of(2), c.priority_of(0), c.priority_of(1)), (vec![3, 1], vec![], vec![0, 1, 2, 3]));
    assert_eq!(c.dedicated_of(1), vec![true, false, true, false]);
    assert_eq!(c.dedicated_of(3), vec![true; 4]);
    assert_eq!(c.eu_enabled(), vec![false, true, false, false]);
    // The contract's example key: an id beyond eus, located on its line.
    let e = gs_err("\n[global_spreader.priority]\npixel = [0, 1, 5]\n");
    assert_eq!(e.key, "global_spreader.priority.pixel[2]");
    assert_eq!(e.line, Some(4));
    assert_eq!(e.to_string(), "t.toml:4: key `global_spreader.priority.pixel[2]`: EU 5 is out of range: allowed EU ids 0 to 4 (global_spreader.eus = 5)");
    let e = gs_err("priority.vertex = [1, 2, 1]");
    assert_eq!(e.key, "global_spreader.priority.vertex[2]");
    assert!(e.message.contains("listed twice"), "{e}");
    let e = gs_err("dedicated = { patch = [0, -1] }");
    assert_eq!(e.key, "global_spreader.dedicated.patch[1]");
    let e = gs_err("eus = 2\neu_enable = [0, 2]");
    assert_eq!(e.key, "global_spreader.eu_enable[1]");
    assert_eq!(e.line, Some(3));
    // entity_types: non-empty, known, distinct, pixel needs triangle.
    let e = gs_err("entity_types = []");
    assert_eq!(e.key, "global_spreader.entity_types");
    assert!(e.message.contains("empty"), "{e}");
    let e = gs_err("entity_types = [\"vertex\", \"pixels\"]");
    assert_eq!(e.key, "global_spreader.entity_types[1]");
    let e = gs_err("entity_types = [\"patch\", \"patch\"]");
    assert!(e.message.contains("listed twice"), "{e}");
    let e = gs_err("entity_types = [\"vertex\", \"pixel\"]");
    assert_eq!(e.key, "global_spreader.entity_types");
    assert!(e.message.contains("needs \"triangle\""), "{e}");
    assert!(gs("entity_types = [\"triangle\"]").is_ok());
    assert!(gs("entity_types = [\"pixel\", \"triangle\"]").is_ok());
}

#[test]
fn global_spreader_wrong_types_and_overrides() {
    for (body, key) in [
        ("eus = \"five\"", "global_spreader.eus"),
        ("locality = 1", "global_spreader.locality"),
        ("entity_types = \"vertex\"", "global_spreader.entity_types"),
        ("res_total = [1.5]", "global_spreader.res_total"),
        ("priority = [0, 1]", "global_spreader.priority"),
        ("eu_enable = 3", "global_spreader.eu_enable"),
        ("vdt_size = 3", "global_spreader.vdt_size"),
    ] {
        let e = gs_err(body);
        assert_eq!(e.key, key, "{body}: {e}");
        assert_eq!(e.line, Some(2), "{body}: {e}");
    }
    let c = load("[global_spreader]\n", &[
        "global_spreader.eus=3",
        "global_spreader.entity_types=[\"vertex\",\"triangle\"]",
        "global_spreader.priority={triangle=[2,0]}",
        "global_spreader.yield_enable=true",
    ]).unwrap();
    let g = c.global_spreader().unwrap();
    assert_eq!((g.eus, g.priority_of(1), g.yield_enable, g.has_type(2)), (3, vec![2, 0], true, false));
    let e = load("[global_spreader]\n", &["global_spreader.eus=33"]).unwrap_err();
    assert_eq!(e.key, "global_spreader.eus");
}

#[test]
fn thread_merge_keys_ranges_types_and_derived_widths() {
    let c = Config::embedded(&[]).unwrap();
    assert_eq!(c.thread_merge().unwrap(), &ThreadMergeConfig::default());
    let d = ThreadMergeConfig::default();
    assert_eq!((d.lanes, d.slots, d.remap, d.pair_hold, d.merge_timeout, d.tag_width, d.prim_width), (4, 4, true, 4, 16, 32, 16));
    let c = load("[thread_merge]\n", &[]).unwrap();
    assert_eq!(c.blocks(), vec!["thread_merge"]);
    assert_eq!(c.thread_merge().unwrap(), &d);
    assert!(c.scoreboard().is_err());

    for (key, lo, hi) in [
        ("slots", 1, 32),
        ("pair_hold", 0, 255),
        ("merge_timeout", 0, 255),
        ("tag_width", 1, 64),
        ("prim_width", 1, 32),
    ] {
        for ok in [lo, hi] {
            assert!(load(&format!("[thread_merge]\n{key} = {ok}\n"), &[]).is_ok(), "{key}={ok}");
        }
        for bad in [lo - 1, hi + 1] {
            let e = load(&format!("# c\n[thread_merge]\n{key} = {bad}\n"), &[]).unwrap_err();
            assert_eq!(e.key, format!("thread_merge.{key}"));
            assert_eq!(e.line, Some(3));
            assert_eq!(e.to_string(), format!("t.toml:3: key `thread_merge.{key}`: {bad} is out of range: allowed {lo} to {hi}"));
        }
    }
    // lanes: only whole powers-of-two numbers of quads.
    for ok in [4, 8, 16, 32] {
        assert_eq!(load(&format!("[thread_merge]\nlanes = {ok}\n"), &[]).unwrap().thread_merge().unwrap().lanes, ok);
    }
    for bad in [-4, 0, 1, 2, 3, 5, 12, 24, 64] {
        let e = load(&format!("[thread_merge]\nlanes = {bad}\n"), &[]).unwrap_err();
        assert_eq!(e.key, "thread_merge.lanes");
        assert_eq!(e.line, Some(2));
        assert!(e.message.starts_with(&format!("{bad} is not allowed: allowed 4, 8, 16, 32")), "{e}");
    }
    // remap is a boolean; the numbers are integers; unknown keys are errors.
    for ok in ["true", "false"] {
        let c = load(&format!("[thread_merge]\nremap = {ok}\n"), &[]).unwrap();
        assert_eq!(c.thread_merge().unwrap().remap, ok == "true");
    }
    for (text, key) in [
        ("remap = 1", "remap"),
        ("remap = \"yes\"", "remap"),
        ("lanes = \"8\"", "lanes"),
        ("slots = 2.5", "slots"),
        ("tag_width = true", "tag_width"),
        ("perf_counters = 1", "perf_counters"),
        ("perf_counters = \"on\"", "perf_counters"),
    ] {
        let e = load(&format!("[thread_merge]\nprim_width = 8\n{text}\n"), &[]).unwrap_err();
        assert!(e.message.contains("invalid type"), "{text}: {e}");
        assert_eq!(e.key, format!("thread_merge.{key}"), "{text}");
        assert_eq!(e.line, Some(3), "{text}");
    }
    let e = load("[thread_merge]\nlane = 8\n", &[]).unwrap_err();
    assert!(e.message.contains("unknown field `lane`"), "{e}");
    assert_eq!(e.key, "thread_merge.lane");
    // Overrides are checked like file values.
    let c = load("[thread_merge]\n", &["thread_merge.remap=false", "thread_merge.slots=1"]).unwrap();
    assert_eq!((c.thread_merge().unwrap().remap, c.thread_merge().unwrap().slots), (false, 1));
    let e = load("[thread_merge]\n", &["thread_merge.lanes=12"]).unwrap_err();
    assert_eq!(e.key, "thread_merge.lanes");
    let e = load("[thread_merge]\n", &["thread_merge.remap=2"]).unwrap_err();
    assert!(e.message.contains("invalid type"), "{e}");
    // perf_counters: off by default (no port); on, 9 counters and a 4-bit perf_sel.
    assert!(!d.perf_counters);
    assert_eq!((d.perf_count(), d.perf_sel_bits()), (0, 4));
    let c = load("[thread_merge]\nperf_counters = true\n", &[]).unwrap();
    assert_eq!(c.thread_merge().unwrap().perf_count(), 9);
    let c = load("[thread_merge]\n", &["thread_merge.perf_counters=true"]).unwrap();
    assert!(c.thread_merge().unwrap().perf_counters);
    let e = load("[thread_merge]\n", &["thread_merge.perf_counters=3"]).unwrap_err();
    assert!(e.message.contains("invalid type"), "{e}");

    // TGID_W = 1 + ceil(log2 S), CNT_W = ceil(log2(S+1)), LANE_W = log2 LANES.
    let cfg = |slots, lanes| ThreadMergeConfig { slots, lanes, ..Default::default() };
    let slots = [1, 2, 3, 4, 5, 8, 9, 16, 17, 31, 32];
    let tgw: Vec<usize> = slots.iter().map(|s| cfg(*s, 4).tgid_bits()).collect();
    assert_eq!(tgw, vec![1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6]);
    let cnt: Vec<usize> = slots.iter().map(|s| cfg(*s, 4).cnt_bits()).collect();
    assert_eq!(cnt, vec![1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 6]);
    let lw: Vec<usize> = [4, 8, 16, 32].iter().map(|l| cfg(4, *l).lane_bits()).collect();
    assert_eq!(lw, vec![2, 3, 4, 5]);
    assert_eq!([0, 1, 2, 3, 4, 15, 16, 254, 255].map(bits_for), [0, 1, 2, 2, 3, 4, 5, 8, 8]);
}

#[test]
fn synth_table_defaults_ranges_and_overrides() {
    let c = load("[scoreboard]\n", &[]).unwrap();
    assert_eq!(c.synth(), SynthConfig { clock_mhz: 100.0, target: "ice40-hx8k".into() });
    let c = load("[scoreboard]\n[synth]\nclock_mhz = 62.5\n", &[]).unwrap();
    assert_eq!(c.synth().clock_mhz, 62.5);
    let c = load("[scoreboard]\n[synth]\nclock_mhz = 1000\n", &["synth.clock_mhz=1"]).unwrap();
    assert_eq!(c.synth().clock_mhz, 1.0);
    for bad in ["0.5", "1000.5", "nan"] {
        let e = load(&format!("[scoreboard]\n[synth]\nclock_mhz = {bad}\n"), &[]).unwrap_err();
        assert_eq!((e.key.as_str(), e.line), ("synth.clock_mhz", Some(3)), "{bad}: {e}");
        assert!(e.message.contains("allowed 1 to 1000"), "{e}");
    }
    let e = load("[scoreboard]\n", &["synth.target=ecp7"]).unwrap_err();
    assert_eq!(e.key, "synth.target");
    assert!(e.message.contains("allowed ice40-hx8k"), "{e}");
    let e = load("[scoreboard]\n[synth]\nclok_mhz = 100\n", &[]).unwrap_err();
    assert_eq!(e.key, "synth.clok_mhz");
    // [synth] alone generates nothing: still an error.
    assert!(load("[synth]\nclock_mhz = 100\n", &[]).unwrap_err().message.contains("no block table"));
}

#[test]
fn id_bits_is_ceil_log2_at_least_one() {
    let got: Vec<usize> = [1, 2, 3, 4, 5, 8, 9, 16, 17, 64].iter().map(|n| id_bits(*n)).collect();
    assert_eq!(got, vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 6]);
}

// ---- [task_combiner] ----

fn tc(body: &str) -> Result<TaskCombinerConfig, ConfigError> {
    load(&format!("[task_combiner]\n{body}"), &[]).map(|c| c.task_combiner.unwrap())
}

fn tc_err(body: &str) -> ConfigError {
    tc(body).expect_err(body)
}

#[test]
fn task_combiner_default_matches_the_contract() {
    let c = Config::embedded(&[]).unwrap().task_combiner.unwrap();
    assert_eq!(c, TaskCombinerConfig::default());
    let d = tc("").unwrap();
    assert_eq!(d, TaskCombinerConfig::default());
    assert_eq!(
        (d.entries, d.width, d.tile_pipes, d.shader_types, d.state_width, d.ref_width, d.tag_gen_width),
        (16, 32, 4, 4, 8, 13, 4)
    );
    assert_eq!((d.policy(), d.sort_state), (Policy::Fullest, true));
    assert_eq!(d.capacities(), vec![32; 4]);
    assert_eq!(d.depends_rows(), vec![vec![], vec![0], vec![1], vec![0, 2]]);
    assert_eq!(load("[task_combiner]\n", &[]).unwrap().blocks(), vec!["task_combiner"]);
}

#[test]
fn task_combiner_ranges_are_checked_at_both_ends() {
    for (key, lo, hi) in [
        ("entries", 1, 128),
        ("tile_pipes", 1, 8),
        ("shader_types", 1, 8),
        ("state_width", 1, 16),
        ("ref_width", 1, 32),
        ("tag_gen_width", 1, 8),
    ] {
        for ok in [lo, hi] {
            assert!(tc(&format!("{key} = {ok}\n")).is_ok(), "{key}={ok}");
        }
        for bad in [lo - 1, hi + 1] {
            let e = tc_err(&format!("\n{key} = {bad}\n"));
            assert_eq!((e.key.as_str(), e.line), (format!("task_combiner.{key}").as_str(), Some(3)), "{e}");
            assert!(e.message.contains(&format!("allowed {lo} to {hi}")), "{e}");
        }
    }
    for ok in [4, 8, 16, 32, 64] {
        assert_eq!(tc(&format!("width = {ok}\n")).unwrap().width, ok);
    }
    for bad in [0, 2, 12, 48, 128, -8] {
        let e = tc_err(&format!("width = {bad}\n"));
        assert_eq!(e.key, "task_combiner.width");
        assert!(e.message.contains("allowed 4, 8, 16, 32 or 64"), "{e}");
    }
}

#[test]
fn task_combiner_issue_order() {
    // "oldest" by default (contract R4); "fullest" issues the most instances first.
    assert!(!tc("").unwrap().issue_fullest());
    assert!(tc("issue_order = \"fullest\"\n").unwrap().issue_fullest());
    assert!(!tc("issue_order = \"oldest\"\n").unwrap().issue_fullest());
    let e = tc_err("issue_order = \"newest\"\n");
    assert_eq!(
        e.to_string(),
        "t.toml:2: key `task_combiner.issue_order`: \"newest\" is not an issue order: allowed \"oldest\" or \"fullest\""
    );
    let e = tc_err("issue_order = 1\n");
    assert!(e.message.contains("invalid type") && e.key == "task_combiner.issue_order" && e.line == Some(2), "{e}");
}

#[test]
fn task_combiner_policy_and_sort_state() {
    for (name, p) in [
        ("fullest", Policy::Fullest),
        ("oldest", Policy::Oldest),
        ("nodep_fullest", Policy::NodepFullest),
        ("nodep_oldest", Policy::NodepOldest),
    ] {
        let c = tc(&format!("policy = \"{name}\"\n")).unwrap();
        assert_eq!((c.policy(), c.policy().name()), (p, name));
    }
    assert!(Policy::NodepOldest.nodep() && !Policy::NodepOldest.fullest());
    assert!(Policy::Fullest.fullest() && !Policy::Fullest.nodep());
    let e = tc_err("policy = \"newest\"\n");
    assert_eq!((e.key.as_str(), e.line), ("task_combiner.policy", Some(2)));
    assert_eq!(
        e.to_string(),
        "t.toml:2: key `task_combiner.policy`: \"newest\" is not a policy: allowed \"fullest\", \"oldest\", \"nodep_fullest\" or \"nodep_oldest\""
    );
    assert!(!tc("sort_state = false\n").unwrap().sort_state);
    for (body, key) in [
        ("policy = 3\n", "task_combiner.policy"),
        ("sort_state = 1\n", "task_combiner.sort_state"),
        ("sort_state = \"yes\"\n", "task_combiner.sort_state"),
        ("entries = \"16\"\n", "task_combiner.entries"),
        ("capacity = 8\n", "task_combiner.capacity"),
        ("depends = [0, 1]\n", "task_combiner.depends"),
    ] {
        let e = tc_err(body);
        assert!(e.message.contains("invalid type"), "{body}: {e}");
        assert_eq!((e.key.as_str(), e.line), (key, Some(2)), "{body}");
    }
    let e = tc_err("slots = 4\n");
    assert_eq!(e.key, "task_combiner.slots");
}

#[test]
fn task_combiner_capacity_one_per_type_within_width() {
    let c = tc("width = 8\ncapacity = [8, 4, 8, 1]\n").unwrap();
    assert_eq!(c.capacities(), vec![8, 4, 8, 1]);
    let c = tc("shader_types = 2\nwidth = 4\n").unwrap();
    assert_eq!(c.capacities(), vec![4, 4], "absent: width for every type");
    let e = tc_err("capacity = [8, 8, 8]\n");
    assert_eq!((e.key.as_str(), e.line), ("task_combiner.capacity", Some(2)));
    assert!(e.message.contains("has 3 values but task_combiner.shader_types = 4"), "{e}");
    let e = tc_err("shader_types = 2\ncapacity = [1, 2, 3]\n");
    assert!(e.message.contains("shader_types = 2"), "{e}");
    let e = tc_err("width = 8\n\ncapacity = [8, 9, 8, 8]\n");
    assert_eq!(
        e.to_string(),
        "t.toml:4: key `task_combiner.capacity[1]`: 9 is out of range: allowed 1 to 8 (task_combiner.width)"
    );
    let e = tc_err("capacity = [0, 32, 32, 32]\n");
    assert_eq!(e.key, "task_combiner.capacity[0]");
    assert!(e.message.contains("allowed 1 to 32"), "{e}");
    // An out-of-range width is reported once, for width itself.
    assert_eq!(tc_err("width = 5\ncapacity = [5, 5, 5, 5]\n").key, "task_combiner.width");
}

#[test]
fn task_combiner_depends_rows_hold_distinct_lower_types() {
    let c = tc("depends = [[], [0], [0, 1], []]\n").unwrap();
    assert_eq!(c.depends_rows(), vec![vec![], vec![0], vec![0, 1], vec![]]);
    let c = tc("shader_types = 8\ndepends = [[], [0], [1], [0, 2], [3, 0, 1], [], [5], [6, 4]]\n").unwrap();
    assert_eq!(c.depends_rows()[7], vec![6, 4]);
    let e = tc_err("depends = [[], [0], [2], []]\n");
    assert_eq!(
        e.to_string(),
        "t.toml:2: key `task_combiner.depends[2]`: 2 is out of range: allowed shader types 0 to 1 (below 2), each at most once"
    );
    let e = tc_err("depends = [\n  [],\n  [0],\n  [1],\n  [0, 0],\n]\n");
    assert_eq!((e.key.as_str(), e.line), ("task_combiner.depends[3]", Some(2)));
    assert!(e.message.contains("0 is listed twice"), "{e}");
    let e = tc_err("depends = [[0], [], [], []]\n");
    assert_eq!(e.key, "task_combiner.depends[0]");
    assert!(e.message.contains("row 0 must be empty"), "{e}");
    let e = tc_err("depends = [[], [-1], [], []]\n");
    assert_eq!(e.key, "task_combiner.depends[1]");
    assert!(e.message.contains("-1 is out of range: allowed shader types 0 to 0"), "{e}");
    let e = tc_err("depends = [[], [0], [1]]\n");
    assert_eq!(e.key, "task_combiner.depends");
    assert!(e.message.contains("has 3 rows but task_combiner.shader_types = 4"), "{e}");
    // Default: the patent's stage order, cut to shader_types; types 4 to 7 consume nothing.
    let rows = |n: i64| TaskCombinerConfig { shader_types: n, ..Default::default() }.depends_rows();
    assert_eq!(rows(1), vec![Vec::<usize>::new()]);
    assert_eq!(rows(2), vec![vec![], vec![0]]);
    assert_eq!(rows(3), vec![vec![], vec![0], vec![1]]);
    assert_eq!(rows(6), vec![vec![], vec![0], vec![1], vec![0, 2], vec![], vec![]]);
}

#[test]
fn task_combiner_overrides_and_derived_widths() {
    let c = load(
        "[task_combiner]\n",
        &[
            "task_combiner.policy=nodep_oldest",
            "task_combiner.sort_state=false",
            "task_combiner.width=8",
            "task_combiner.capacity=[8, 4, 8, 8]",
            "task_combiner.depends=[[], [0], [1], [2]]",
        ],
    )
    .unwrap()
    .task_combiner
    .unwrap();
    assert_eq!((c.policy(), c.sort_state, c.capacities()), (Policy::NodepOldest, false, vec![8, 4, 8, 8]));
    assert_eq!(c.depends_rows()[3], vec![2]);
    let e = load("[task_combiner]\n", &["task_combiner.depends=[[], [1], [], []]"]).unwrap_err();
    assert_eq!(e.key, "task_combiner.depends[1]");
    // (entries, width, tile_pipes, shader_types) -> (ENT_W, CNT_W, LANE_W, TP_W, STYPE_W)
    for ((n, w, t, s), want) in [
        ((1, 4, 1, 1), (1, 3, 2, 1, 1)),
        ((5, 8, 4, 4), (3, 4, 3, 2, 2)),
        ((16, 32, 4, 4), (4, 6, 5, 2, 2)),
        ((17, 16, 5, 5), (5, 5, 4, 3, 3)),
        ((64, 64, 8, 8), (6, 7, 6, 3, 3)),
        ((128, 64, 8, 8), (7, 7, 6, 3, 3)),
    ] {
        let c = TaskCombinerConfig { entries: n, width: w, tile_pipes: t, shader_types: s, ..Default::default() };
        assert_eq!((c.ent_bits(), c.cnt_bits(), c.lane_bits(), c.tp_bits(), c.stype_bits()), want, "{n} {w} {t} {s}");
        assert_eq!(c.tag_bits(), 4 + want.0);
    }
}

#[test]
fn branch_stack_compound_flags_and_producer_conflict() {
    let bs = |body: &str| load(&format!("[branch_stack]\n{body}"), &[]).map(|c| c.branch_stack.unwrap());
    let d = bs("").unwrap();
    assert_eq!((d.compound_flags.as_str(), d.producer_conflict.as_str(), d.cnvz(), d.stall()), ("nz", "drop", false, false));
    let c = bs("compound_flags = \"cnvz\"\nproducer_conflict = \"stall\"\n").unwrap();
    assert!(c.cnvz() && c.stall());
    let e = bs("compound_flags = \"cvz\"\n").unwrap_err();
    assert_eq!((e.key.as_str(), e.line), ("branch_stack.compound_flags", Some(2)));
    assert_eq!(e.to_string(), "t.toml:2: key `branch_stack.compound_flags`: \"cvz\" is not a flag set: allowed \"nz\" or \"cnvz\"");
    let e = bs("depth = 4\nproducer_conflict = \"wait\"\n").unwrap_err();
    assert_eq!((e.key.as_str(), e.line), ("branch_stack.producer_conflict", Some(3)));
    assert!(e.message.contains("allowed \"drop\" or \"stall\""), "{e}");
    for body in ["compound_flags = 2\n", "producer_conflict = true\n"] {
        let e = bs(body).unwrap_err();
        assert!(e.message.contains("invalid type"), "{body}: {e}");
        assert_eq!(e.line, Some(2), "{body}");
    }
    // --set spells a string in TOML syntax.
    let c = load("[branch_stack]\n", &["branch_stack.producer_conflict=\"stall\""]).unwrap();
    assert!(c.branch_stack.unwrap().stall());
}

#[test]
fn branch_stack_perf_counters() {
    let bs = |body: &str| load(&format!("[branch_stack]\n{body}"), &[]).map(|c| c.branch_stack.unwrap());
    // Off by default (no port); on, 10 counters and a 4-bit perf_sel.
    let d = bs("").unwrap();
    assert!(!d.perf_counters);
    assert_eq!((d.perf_count(), d.perf_sel_bits()), (0, 4));
    assert_eq!(bs("perf_counters = true\n").unwrap().perf_count(), 10);
    let c = load("[branch_stack]\n", &["branch_stack.perf_counters=true"]).unwrap();
    assert!(c.branch_stack.unwrap().perf_counters);
    for body in ["perf_counters = 1\n", "perf_counters = \"on\"\n"] {
        let e = bs(body).unwrap_err();
        assert!(e.message.contains("invalid type"), "{body}: {e}");
        assert_eq!((e.key.as_str(), e.line), ("branch_stack.perf_counters", Some(2)), "{body}");
    }
}

#[test]
fn task_combiner_perf_counters() {
    // Off by default (no port); on, 12 counters and a 4-bit perf_sel.
    let d = tc("").unwrap();
    assert!(!d.perf_counters);
    assert_eq!((d.perf_count(), d.perf_sel_bits()), (0, 4));
    assert_eq!(tc("perf_counters = true\n").unwrap().perf_count(), 12);
    let c = load("[task_combiner]\n", &["task_combiner.perf_counters=true"]).unwrap();
    assert!(c.task_combiner.unwrap().perf_counters);
    for body in ["perf_counters = 1\n", "perf_counters = \"on\"\n"] {
        let e = tc_err(body);
        assert!(e.message.contains("invalid type"), "{body}: {e}");
        assert_eq!((e.key.as_str(), e.line), ("task_combiner.perf_counters", Some(2)), "{body}");
    }
}

#[test]
fn global_spreader_perf_counters_key() {
    // Off by default (no port); on, 17 counters in every config (PSW 5).
    let d = GlobalSpreaderConfig::default();
    assert!(!d.perf_counters);
    assert_eq!((d.perf_count(), d.perf_sel_bits()), (0, 5));
    let c = gs("perf_counters = true\nentity_types = [\"vertex\"]\n").unwrap();
    assert_eq!((c.perf_count(), c.perf_sel_bits()), (17, 5));
    assert_eq!(GlobalSpreaderConfig::PERF_NAMES[..4], ["vertex", "triangle", "pixel", "patch"]);
    for text in ["perf_counters = 1", "perf_counters = \"on\""] {
        let e = gs(&format!("{text}\n")).unwrap_err();
        assert!(e.message.contains("invalid type") && e.key == "global_spreader.perf_counters", "{text}: {e}");
        assert_eq!(e.line, Some(2), "{e}");
    }
}

#[test]
fn global_spreader_aging() {
    // 0 (off, the default: R7 as written) or 3 to 255 (contract R7a).
    assert_eq!(gs("").unwrap().aging, 0);
    for ok in [0, 3, 4, 255] {
        assert_eq!(gs(&format!("aging = {ok}\n")).unwrap().aging, ok);
    }
    for bad in [1, 2, 256, -1] {
        let e = gs_err(&format!("aging = {bad}\n"));
        assert_eq!(e.to_string(), format!("t.toml:2: key `global_spreader.aging`: {bad} is out of range: allowed 0 (off) or 3 to 255"));
    }
}

#[test]
fn global_spreader_class_priority() {
    // Contract R7b. Ranks by type code (vertex, triangle, pixel, patch), written by hand from
    // the rule: the position in the list, or in the fixed order pixel, triangle, patch, vertex.
    let d = gs("").unwrap();
    assert_eq!((d.class_priority.clone(), d.class_priority_reg), (None, false));
    assert_eq!(d.class_ranks(), [3, 1, 0, 2]);
    assert!(!d.ranked_classes());
    let c = gs("class_priority = [\"vertex\", \"patch\", \"triangle\", \"pixel\"]\n").unwrap();
    assert_eq!(c.class_ranks(), [0, 2, 3, 1]);
    assert!(c.ranked_classes());
    // The fixed order written out is not a ranked order; the register is, whatever the order.
    let f = gs("class_priority = [\"pixel\", \"triangle\", \"patch\", \"vertex\"]\n").unwrap();
    assert!(!f.ranked_classes());
    assert!(gs("class_priority_reg = true\n").unwrap().ranked_classes());
    // Two built types: the default ranks them 0 and 1 in the fixed order.
    let two = gs("entity_types = [\"vertex\", \"triangle\"]\n").unwrap();
    assert_eq!(two.class_ranks(), [1, 0, 0, 0]);
    let two_rev = gs("entity_types = [\"vertex\", \"triangle\"]\nclass_priority = [\"vertex\", \"triangle\"]\n").unwrap();
    assert_eq!(two_rev.class_ranks(), [0, 1, 0, 0]);
    assert!(two_rev.ranked_classes());
    // Bad lists name the file, the line, the key (the element) and what is allowed.
    let cases = [
        ("class_priority = [\"vertex\", \"pixels\", \"triangle\", \"patch\"]\n",
         "t.toml:2: key `global_spreader.class_priority[1]`: `pixels` is not a type: allowed vertex, triangle, pixel, patch"),
        ("class_priority = [\"vertex\", \"vertex\", \"triangle\", \"pixel\", \"patch\"]\n",
         "t.toml:2: key `global_spreader.class_priority[1]`: `vertex` is listed twice"),
        ("entity_types = [\"vertex\", \"triangle\"]\nclass_priority = [\"vertex\", \"pixel\", \"triangle\"]\n",
         "t.toml:3: key `global_spreader.class_priority[1]`: type `pixel` is not built: add it to global_spreader.entity_types or remove it from this list"),
        ("class_priority = [\"vertex\", \"triangle\"]\n",
         "t.toml:2: key `global_spreader.class_priority`: does not name pixel, patch: list every built type (global_spreader.entity_types) once, the first granted first"),
    ];
    for (text, msg) in cases {
        assert_eq!(gs_err(text).to_string(), msg, "{text}");
    }
    let e = gs_err("class_priority_reg = 1\n");
    assert!(e.message.contains("invalid type") && e.key == "global_spreader.class_priority_reg", "{e}");
}

#[test]
fn global_spreader_pixel_reorder() {
    // Contract R14: 0 (off, the default: no reorder buffer, no port) or a power of two from 2 to
    // 64, with pixels built; RB_W = log2 of it.
    let d = gs("").unwrap();
    assert_eq!((d.pixel_reorder, d.rob_bits()), (0, 0));
    for (ok, rbw) in [(0, 0), (2, 1), (4, 2), (16, 4), (32, 5), (64, 6)] {
        let c = gs(&format!("pixel_reorder = {ok}\n")).unwrap();
        assert_eq!((c.pixel_reorder, c.rob_bits()), (ok, rbw), "{ok}");
    }
    for bad in [1, 3, 6, 48, 128, -2] {
        let e = gs_err(&format!("pixel_reorder = {bad}\n"));
        assert_eq!(e.to_string(), format!(
            "t.toml:2: key `global_spreader.pixel_reorder`: {bad} is out of range: allowed 0 (off) or a power of two from 2 to 64"));
    }
    // The buffer orders pixel packets: without "pixel" only 0 is allowed.
    let e = gs_err("entity_types = [\"vertex\", \"triangle\"]\npixel_reorder = 8\n");
    assert_eq!(e.to_string(),
        "t.toml:3: key `global_spreader.pixel_reorder`: 8 needs \"pixel\" in global_spreader.entity_types: the reorder buffer orders pixel packets (0: off)");
    assert_eq!(gs("entity_types = [\"vertex\"]\npixel_reorder = 0\n").unwrap().pixel_reorder, 0);
    let e = gs_err("pixel_reorder = \"16\"\n");
    assert!(e.message.contains("invalid type") && e.key == "global_spreader.pixel_reorder", "{e}");
}

#[test]
fn global_spreader_vdt_ways() {
    // Contract R15, §2: 1 (direct mapped, the default), 2 or 4 ways; WAY_W = log2 W, SET_W =
    // VDT_AW - WAY_W, and the tag takes the bits the set gives up (IDX_W - ELEM_W - SET_W).
    let d = gs("").unwrap();
    assert_eq!((d.vdt_ways, d.vdt_way_bits(), d.vdt_set_bits(), d.tag_bits()), (1, 0, 8, 5));
    for (ok, wayw, setw, tagw) in [(1, 0, 8, 5), (2, 1, 7, 6), (4, 2, 6, 7)] {
        let c = gs(&format!("vdt_ways = {ok}\n")).unwrap();
        assert_eq!((c.vdt_ways, c.vdt_way_bits(), c.vdt_set_bits(), c.tag_bits()), (ok, wayw, setw, tagw), "{ok}");
    }
    // Out of range: the file, the line, the key and the allowed values.
    for bad in [0, 3, 8, -1] {
        let e = gs_err(&format!("vdt_ways = {bad}\n"));
        assert_eq!((e.key.as_str(), e.line), ("global_spreader.vdt_ways", Some(2)), "{e}");
        assert_eq!(e.to_string(), format!("t.toml:2: key `global_spreader.vdt_ways`: {bad} is out of range: allowed 1, 2, 4"));
    }
    // Ways need a VDT (vertex or patch built); 1 is allowed without one.
    let e = gs_err("entity_types = [\"triangle\", \"pixel\"]\nvdt_ways = 2\n");
    assert_eq!(e.to_string(),
        "t.toml:3: key `global_spreader.vdt_ways`: 2 needs a VDT: add \"vertex\" or \"patch\" to global_spreader.entity_types (1: direct mapped)");
    assert_eq!(gs("entity_types = [\"triangle\", \"pixel\"]\nvdt_ways = 1\n").unwrap().vdt_ways, 1);
    for types in ["[\"vertex\"]", "[\"patch\"]", "[\"triangle\", \"patch\"]"] {
        assert_eq!(gs(&format!("entity_types = {types}\nvdt_ways = 4\n")).unwrap().vdt_ways, 4, "{types}");
    }
    // Each way needs S = vdt_depth / W >= 4 sets: the message gives the largest W allowed.
    let e = gs_err("vdt_depth = 8\nvdt_ways = 4\n");
    assert_eq!(e.to_string(),
        "t.toml:3: key `global_spreader.vdt_ways`: 4 is out of range for vdt_depth = 8: each way needs at least 4 sets, so allowed 1 to 2");
    let e = gs_err("vdt_depth = 4\nvdt_ways = 2\n");
    assert_eq!(e.to_string(),
        "t.toml:3: key `global_spreader.vdt_ways`: 2 is out of range for vdt_depth = 4: each way needs at least 4 sets, so allowed only 1 (direct mapped)");
    let c = gs("vdt_depth = 8\nvdt_ways = 2\n").unwrap();
    assert_eq!((c.vdt_way_bits(), c.vdt_set_bits()), (1, 2));
    let c = gs("vdt_depth = 16\nvdt_ways = 4\n").unwrap();
    assert_eq!((c.vdt_way_bits(), c.vdt_set_bits()), (2, 2));
    // With patch a way also needs the 16 / VGRP sets of a patch's groups: at most 4 (VGRP 4),
    // so the 4 sets of the rule above are enough at every VGRP, and the message is the same.
    for vgrp in [4, 8, 16] {
        let c = gs(&format!("entity_types = [\"patch\"]\nvertices_per_group = {vgrp}\nvdt_depth = 16\nvdt_ways = 4\n")).unwrap();
        assert_eq!((c.vdt_set_bits(), c.patch_groups()), (2, 16 / vgrp as usize), "{vgrp}");
    }
    let e = gs_err("entity_types = [\"patch\"]\nvertices_per_group = 4\nvdt_depth = 8\nvdt_ways = 4\n");
    assert_eq!(e.to_string(),
        "t.toml:5: key `global_spreader.vdt_ways`: 4 is out of range for vdt_depth = 8: each way needs at least 4 sets, so allowed 1 to 2");
    let e = gs_err("vdt_ways = \"2\"\n");
    assert!(e.message.contains("invalid type") && e.key == "global_spreader.vdt_ways", "{e}");
}

#[test]
fn global_spreader_resources() {
    // Contract R16, §2: no key (the default) or a one-name list is one kind; 1 to 4 distinct
    // names, each a lowercase letter then up to 15 lowercase letters, digits or _.
    let d = gs("").unwrap();
    assert_eq!((d.resources.clone(), d.kinds()), (None, 1));
    assert!(d.resource.is_empty());
    for (list, k) in [
        ("[\"regs\"]", 1),
        ("[\"a\", \"b\"]", 2),
        ("[\"regs\", \"threads\", \"buf_0\"]", 3),
        ("[\"a\", \"b9\", \"c_\", \"abcdefghijklmnop\"]", 4),
    ] {
        let c = gs(&format!("resources = {list}\n")).unwrap();
        assert_eq!(c.kinds(), k, "{list}");
    }
    // The count: 0 and 5 names.
    assert_eq!(gs_err("resources = []\n").to_string(),
        "t.toml:2: key `global_spreader.resources`: has 0 names: allowed 1 to 4 resource kinds (leave the key out for one kind)");
    assert_eq!(gs_err("resources = [\"a\", \"b\", \"c\", \"d\", \"e\"]\n").to_string(),
        "t.toml:2: key `global_spreader.resources`: has 5 names: allowed 1 to 4 resource kinds (leave the key out for one kind)");
    // A bad name (an upper-case letter, a digit first, 17 characters) names its element; a
    // name listed twice names the second.
    let why = "is not a kind name: a lowercase letter, then up to 15 lowercase letters, digits or _";
    for (list, at, name) in [
        ("[\"a\", \"Regs\"]", 1, "Regs"),
        ("[\"1x\"]", 0, "1x"),
        ("[\"a\", \"b\", \"abcdefghijklmnopq\"]", 2, "abcdefghijklmnopq"),
        ("[\"a\", \"b_c\", \"x-y\"]", 2, "x-y"),
        ("[\"\"]", 0, ""),
    ] {
        assert_eq!(gs_err(&format!("# c\nresources = {list}\n")).to_string(),
            format!("t.toml:3: key `global_spreader.resources[{at}]`: `{name}` {why}"), "{list}");
    }
    assert_eq!(gs_err("resources = [\"a\", \"b\", \"a\"]\n").to_string(),
        "t.toml:2: key `global_spreader.resources[2]`: `a` is listed twice");
    // Wrong types.
    for (text, key) in [
        ("resources = \"a\"\n", "global_spreader.resources"),
        ("resources = [\"a\", 3]\n", "global_spreader.resources"),
        ("resources = [\"a\", \"b\"]\nresource = 3\n", "global_spreader.resource"),
    ] {
        let e = gs_err(text);
        assert!(e.message.contains("invalid type") && e.key == key, "{text}: {e}");
        assert_eq!(e.line, Some(text.lines().count() + 1), "{text}: {e}");
    }
    // The override form takes the same checks.
    let e = load("[global_spreader]\n", &["global_spreader.resources=[\"a\",\"a\"]"]).unwrap_err();
    assert_eq!(e.key, "global_spreader.resources[1]", "{e}");
    assert!(e.message.contains("listed twice"), "{e}");
}

#[test]
fn global_spreader_resource_tables() {
    // Contract R16, §2: `resource.<name>` for each listed kind but the first: res_total (one
    // value or one per EU, 0 to 2^RES_W-1), min_res and frame_res (tables type -> 0 to
    // 2^RES_W-1) of built types; nothing else.
    let ab = "resources = [\"a\", \"b\"]\n";
    // A table for a kind not listed, with a list and without one (one kind).
    assert_eq!(gs_err(&format!("{ab}resource.c = {{ res_total = 1 }}\n")).to_string(),
        "t.toml:3: key `global_spreader.resource.c`: `c` is not a kind of global_spreader.resources (a, b): name it there or remove this table");
    assert_eq!(gs_err("resource.b = { res_total = 1 }\n").to_string(),
        "t.toml:2: key `global_spreader.resource.b`: `b` is not a kind of global_spreader.resources (not given: one kind): name it there or remove this table");
    // A table for the first kind: its values are the top-level keys.
    assert_eq!(gs_err(&format!("{ab}resource.a = {{ min_res = {{ vertex = 1 }} }}\n")).to_string(),
        "t.toml:3: key `global_spreader.resource.a`: `a` is the first kind: its values are the top-level global_spreader.res_total, min_res and frame_res");
    // res_total out of range at res_width 12 (the default): the key, its line and the range.
    let e = gs_err(&format!("{ab}\n[global_spreader.resource.b]\nres_total = 5000\n"));
    assert_eq!((e.key.as_str(), e.line), ("global_spreader.resource.b.res_total", Some(5)), "{e}");
    assert_eq!(e.to_string(),
        "t.toml:5: key `global_spreader.resource.b.res_total`: 5000 is out of range: allowed 0 to 4095 (2^res_width-1)");
    assert_eq!(gs(&format!("{ab}\n[global_spreader.resource.b]\nres_total = 4095\n")).unwrap().res_totals_of(1), vec![4095; 5]);
    let e = gs_err(&format!("res_width = 4\n{ab}resource.b.res_total = 16\n"));
    assert_eq!(e.to_string(),
        "t.toml:4: key `global_spreader.resource.b.res_total`: 16 is out of range: allowed 0 to 15 (2^res_width-1)");
    let e = gs_err(&format!("{ab}resource.b.res_total = -1\n"));
    assert_eq!((e.key.as_str(), e.line), ("global_spreader.resource.b.res_total", Some(3)), "{e}");
    // A per-EU list of the wrong length, and an element out of range.
    let e = gs_err(&format!("eus = 3\n{ab}\n[global_spreader.resource.b]\nres_total = [1, 2]\n"));
    assert_eq!(e.to_string(),
        "t.toml:6: key `global_spreader.resource.b.res_total`: has 2 entries but global_spreader.eus = 3: give one value per EU, or a single number for all");
    let e = gs_err(&format!("eus = 3\n{ab}\n[global_spreader.resource.b]\nres_total = [1, 5000, 2]\n"));
    assert_eq!(e.to_string(),
        "t.toml:6: key `global_spreader.resource.b.res_total[1]`: 5000 is out of range: allowed 0 to 4095 (2^res_width-1)");
    // min_res / frame_res: an unbuilt type, a name that is no type, a value out of range.
    let e = gs_err(&format!("entity_types = [\"vertex\", \"triangle\"]\n{ab}\n[global_spreader.resource.b]\nmin_res.pixel = 1\n"));
    assert_eq!(e.to_string(),
        "t.toml:6: key `global_spreader.resource.b.min_res.pixel`: type `pixel` is not built: add it to global_spreader.entity_types or remove this entry");
    let e = gs_err(&format!("{ab}\n[global_spreader.resource.b]\nframe_res = {{ pixle = 1 }}\n"));
    assert_eq!(e.to_string(),
        "t.toml:5: key `global_spreader.resource.b.frame_res.pixle`: `pixle` is not a type: allowed vertex, triangle, pixel, patch");
    let e = gs_err(&format!("res_width = 4\n{ab}\n[global_spreader.resource.b.min_res]\ntriangle = 15\nvertex = 16\n"));
    assert_eq!(e.to_string(),
        "t.toml:7: key `global_spreader.resource.b.min_res.vertex`: 16 is out of range: allowed 0 to 15 (2^res_width-1)");
    let e = gs_err(&format!("res_width = 4\n{ab}resource.b.frame_res.patch = 16\n"));
    assert_eq!((e.key.as_str(), e.line), ("global_spreader.resource.b.frame_res.patch", Some(4)), "{e}");
    assert!(e.message.contains("allowed 0 to 15 (2^res_width-1)"), "{e}");
    // An unknown key in a kind table (deny_unknown_fields), and a wrong type.
    let e = gs_err(&format!("{ab}\n[global_spreader.resource.b]\nres_totl = 3\n"));
    assert_eq!((e.key.as_str(), e.line), ("global_spreader.resource.b.res_totl", Some(5)), "{e}");
    assert!(e.message.contains("unknown field `res_totl`"), "{e}");
    let e = gs_err(&format!("{ab}resource.b = {{ min_res = 3 }}\n"));
    assert!(e.message.contains("invalid type") && e.key.starts_with("global_spreader.resource.b"), "{e}");
    assert_eq!(e.line, Some(3), "{e}");
    // The override form.
    let e = load("[global_spreader]\n", &["global_spreader.resources=[\"a\",\"b\"]", "global_spreader.resource={b={res_total=5000}}"]).unwrap_err();
    assert_eq!(e.key, "global_spreader.resource.b.res_total", "{e}");
    assert!(e.message.contains("allowed 0 to 4095"), "{e}");
}

/// Errors about a whole kind table written under its own header (`[global_spreader.resource.c]`)
/// or as dotted keys below `[global_spreader]` name the line that opens it, as every other
/// config error names a line.
#[test]
fn global_spreader_resource_table_errors_name_the_line() {
    let ab = "resources = [\"a\", \"b\"]\n";
    let e = gs_err(&format!("{ab}\n[global_spreader.resource.c]\nres_total = 1\n"));
    assert_eq!(e.to_string(),
        "t.toml:4: key `global_spreader.resource.c`: `c` is not a kind of global_spreader.resources (a, b): name it there or remove this table");
    let e = gs_err(&format!("{ab}\n[global_spreader.resource.a]\nres_total = 1\n"));
    assert_eq!(e.to_string(),
        "t.toml:4: key `global_spreader.resource.a`: `a` is the first kind: its values are the top-level global_spreader.res_total, min_res and frame_res");
    let e = gs_err(&format!("{ab}resource.a.res_total = 1\n"));
    assert_eq!((e.key.as_str(), e.line), ("global_spreader.resource.a", Some(3)), "{e}");
}

#[test]
fn global_spreader_resource_kind_values() {
    // Contract R16: kind 0's values are the top-level keys; kind k >= 1's its table's, and a
    // key the table leaves out has the top-level key's default (RES_TOTAL min(64, 2^RES_W-1),
    // MIN_RES and FRAME_RES 0), not kind 0's value.
    let c = gs("resources = [\"a\", \"b\", \"c\"]\n").unwrap();
    assert_eq!((c.kinds(), c.res_totals_of(0), c.res_totals_of(1), c.res_totals_of(2)), (3, vec![64; 5], vec![64; 5], vec![64; 5]));
    assert!((0..4).all(|t| (0..3).all(|k| c.min_res_kind(t, k) == 0 && c.frame_res_kind(t, k) == 0)));
    let c = gs("res_width = 5\nresources = [\"a\", \"b\"]\n").unwrap();
    assert_eq!((c.res_totals_of(0), c.res_totals_of(1)), (vec![31; 5], vec![31; 5]));
    // Kind 0 = the top-level keys (res_totals, min_res_of, frame_res_of are kind 0's).
    let text = "eus = 3\nres_total = [9, 8, 7]\nmin_res = { vertex = 2, pixel = 7 }\nframe_res.patch = 3\n\
                resources = [\"regs\", \"threads\", \"buf\"]\n\
                resource.threads = { res_total = [1, 2, 3], min_res = { pixel = 4 }, frame_res = { vertex = 5 } }\n\
                \n[global_spreader.resource.buf]\nres_total = 11\nframe_res.patch = 6\n";
    let c = gs(text).unwrap();
    assert_eq!(c.kinds(), 3);
    assert_eq!((c.res_totals_of(0), c.res_totals()), (vec![9, 8, 7], vec![9, 8, 7]));
    assert_eq!((c.min_res_kind(0, 0), c.min_res_kind(2, 0), c.frame_res_kind(3, 0)), (2, 7, 3));
    assert!((0..4).all(|t| c.min_res_kind(t, 0) == c.min_res_of(t) && c.frame_res_kind(t, 0) == c.frame_res_of(t)));
    // Kind 1 (threads): its table.
    assert_eq!(c.res_totals_of(1), vec![1, 2, 3]);
    assert_eq!((c.min_res_kind(2, 1), c.min_res_kind(0, 1), c.frame_res_kind(0, 1), c.frame_res_kind(3, 1)), (4, 0, 5, 0));
    // Kind 2 (buf): one value for all EUs; the keys it leaves out take the defaults, not kind 0's.
    assert_eq!(c.res_totals_of(2), vec![11; 3]);
    assert_eq!((c.frame_res_kind(3, 2), c.min_res_kind(0, 2), c.min_res_kind(2, 2), c.frame_res_kind(0, 2)), (6, 0, 0, 0));
    // A kind without a table: all defaults; a kind with an empty table likewise.
    let c = gs("eus = 2\nres_total = 5\nmin_res.vertex = 1\nresources = [\"a\", \"b\", \"c\"]\nresource.c = {}\n").unwrap();
    assert_eq!((c.res_totals_of(1), c.res_totals_of(2)), (vec![64; 2], vec![64; 2]));
    assert_eq!((c.min_res_kind(0, 0), c.min_res_kind(0, 1), c.min_res_kind(0, 2)), (1, 0, 0));
    // A one-name list: one kind, the top-level values.
    let c = gs("res_total = 9\nresources = [\"regs\"]\n").unwrap();
    assert_eq!((c.kinds(), c.res_totals_of(0)), (1, vec![9; 5]));
    // The override form of a kind table.
    let c = load("[global_spreader]\n", &[
        "global_spreader.eus=2",
        "global_spreader.resources=[\"a\",\"b\"]",
        "global_spreader.resource={b={res_total=[3,4], min_res={triangle=2}}}",
    ]).unwrap();
    let g = c.global_spreader().unwrap();
    assert_eq!((g.kinds(), g.res_totals_of(1), g.min_res_kind(1, 1), g.min_res_kind(1, 0)), (2, vec![3, 4], 2, 0));
}
