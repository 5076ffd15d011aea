//! The `warpgen` program as a user meets it: exit statuses, messages that name
//! file/key/line/port, nothing written on failure, deterministic output.

use std::process::Command;

mod common;
use common::{stderr, stdout, warpgen, write};

#[test]
fn generate_is_deterministic_and_complete() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    for out in [&a, &b] {
        let o = warpgen(&["generate", "--out", out.to_str().unwrap()]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    for f in ["warpgen_scoreboard.v", "files.f", "warpgen.vlt", "warpgen.core", "warpgen_blocks.v", "warpgen_ooc.v", "warpgen_ooc.pcf"] {
        let (x, y) = (std::fs::read(a.join(f)).unwrap(), std::fs::read(b.join(f)).unwrap());
        assert!(!x.is_empty() && x == y, "{f} differs between two runs");
    }
    let v = std::fs::read_to_string(a.join("warpgen_scoreboard.v")).unwrap();
    assert!(v.starts_with("// warpgen "), "header first");
    assert!(v.contains("//   trackers                   = 8"), "parameters in the header");
}

#[test]
fn bad_config_exits_2_names_file_key_range_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let cfg = write(d.path(), "bad.toml", "[scoreboard]\nthread_groups = 4\ntrackers = 99\n");
    let out = d.path().join("out");
    let o = warpgen(&["generate", "--config", &cfg, "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("bad.toml:3") && e.contains("scoreboard.trackers") && e.contains("allowed 1 to 16"), "{e}");
    assert!(!out.exists(), "a failed run must not create the output directory");

    for (text, needle) in [
        ("[scoreboard]\ntrackerz = 3\n", "unknown field `trackerz`"),
        ("[scoreboard]\ntrackers = \"x\"\n", "invalid type"),
        ("", "empty"),
        ("\u{7f}ELF\u{1}\u{1}", "bad.toml"),
    ] {
        let cfg = write(d.path(), "bad.toml", text);
        let o = warpgen(&["generate", "--config", &cfg, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{text:?}");
        assert!(stderr(&o).contains(needle), "{text:?}: {}", stderr(&o));
        assert!(!out.exists());
    }
    let o = warpgen(&["generate", "--set", "scoreboard.counter_width=9", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("scoreboard.counter_width") && stderr(&o).contains("allowed 1 to 8"), "{}", stderr(&o));
}

#[test]
fn failed_generate_leaves_existing_directory_as_it_was() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("rtl");
    assert!(warpgen(&["generate", "--out", out.to_str().unwrap()]).status.success());
    let listing = || {
        let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read(&p).unwrap()))
            .collect();
        v.sort();
        v
    };
    let before = listing();
    let o = warpgen(&["generate", "--set", "scoreboard.trackers=0", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(listing() == before, "the same files with the same bytes, no stray temporary files");
}

#[test]
fn overrides_change_port_widths_exactly() {
    let o = warpgen(&["ports", "scoreboard", "--set", "scoreboard.thread_groups=5", "--set", "scoreboard.trackers=3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let s = String::from_utf8_lossy(&o.stdout);
    let width = |port: &str| -> usize {
        s.lines().find(|l| l.split_whitespace().nth(2) == Some(port)).unwrap().split_whitespace().nth(1).unwrap().parse().unwrap()
    };
    assert_eq!(width("iss_tg"), 3); // ceil(log2 5)
    assert_eq!(width("iss_trk"), 2); // ceil(log2 3)
    assert_eq!(width("iss_dep_mask"), 3);
    assert_eq!(width("trk_zero"), 15);
    assert_eq!(width("cnt_flat"), 60); // 5 * 3 * 4 bits
}

#[test]
fn sim_replays_and_rejects_bad_stimulus_by_line_and_port() {
    let d = tempfile::tempdir().unwrap();
    // Fig. 4: LOAD on tracker 0, MOV, ADD waiting on tracker 0; completion in the 5th line.
    let stim = write(
        d.path(),
        "fig4.jsonl",
        "{\"reset\":1}\n{\"reset\":0,\"iss_valid\":1,\"iss_trk_en\":1}\n{\"iss_trk_en\":0}\n{\"iss_dep_mask\":\"0x1\"}\n\
         {\"cpl_valid\":1}\n{\"cpl_valid\":0}\n",
    );
    let out = d.path().join("out.jsonl");
    let vcd = d.path().join("run.vcd");
    let o = warpgen(&["sim", "scoreboard", "--stimulus", &stim, "--out", out.to_str().unwrap(), "--vcd", vcd.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> =
        std::fs::read_to_string(&out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let fire: Vec<u64> = lines.iter().map(|l| l["iss_fire"].as_u64().unwrap()).collect();
    assert_eq!(fire, vec![0, 1, 1, 0, 0, 1], "LOAD, MOV fire; ADD waits through the completion cycle");
    assert_eq!(lines[2]["cnt_flat"], serde_json::json!("0x1"), "128-bit port as a hex string");
    assert!(std::fs::metadata(&vcd).unwrap().len() > 0);

    for (text, needle) in [
        ("{\"reset\":1}\n{\"nope\":1}\n", ":2: port `nope`: no such input"),
        ("{\"iss_tg\":4}\n", ":1: port `iss_tg`: value 4 does not fit its 2 bits"),
        ("{\"iss_ready\":1}\n", "port `iss_ready`: is an output"),
        ("{\"clock\":1}\n", "port `clock`: is implicit"),
        ("{\"reset\":1}\nnot json\n", ":2: not JSON"),
    ] {
        let stim = write(d.path(), "bad.jsonl", text);
        let bad_out = d.path().join("bad_out.jsonl");
        let o = warpgen(&["sim", "scoreboard", "--stimulus", &stim, "--out", bad_out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{text:?}");
        assert!(stderr(&o).contains(needle), "{text:?}: {}", stderr(&o));
        assert!(!bad_out.exists(), "no partial output");
    }

    // A failed run with --vcd neither creates a waveform nor touches an existing one, and
    // leaves no temporary beside it.
    let stim = write(d.path(), "bad.jsonl", "{\"reset\":1}\n{\"nope\":1}\n");
    let fresh = d.path().join("fresh.vcd");
    let o = warpgen(&["sim", "scoreboard", "--stimulus", &stim, "--vcd", fresh.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!fresh.exists(), "a failed run wrote {}", fresh.display());
    let before = std::fs::read(&vcd).unwrap();
    let o = warpgen(&["sim", "scoreboard", "--stimulus", &stim, "--vcd", vcd.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&vcd).unwrap(), before, "a failed run changed the existing VCD");
    let left: Vec<String> = std::fs::read_dir(d.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(left.iter().all(|n| !n.starts_with(".warpgen-")), "{left:?}");
}

#[test]
fn sim_replays_the_branch_stack_patent_example() {
    // Spec TC-06 (Figs. 5-7): push 0001, 1000, 0010; BEZ reads 0010/1000, not taken; [1000, 0001] remain.
    let stim = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/branch_stack_fig5_7.jsonl");
    let o = warpgen(&["sim", "branch_stack", "--stimulus", stim]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let at = |i: usize, k: &str| lines[i][k].as_u64().unwrap();
    assert_eq!((at(4, "cc_r"), at(4, "cc_s"), at(4, "cc_cnt")), (0b0010, 0b1000, 3));
    assert_eq!((at(4, "br_taken"), at(4, "br_target")), (0, 0x50));
    assert_eq!((at(5, "cc_r"), at(5, "cc_s"), at(5, "cc_cnt")), (0b1000, 0b0001, 2));
    assert_eq!(at(6, "branch_t0_q"), 0, "no redirect");
}

#[test]
fn sim_replays_the_branch_stack_thread_group_example() {
    // Rules G2-G7 (docs/blocks/branch_stack.md), worked by hand: group 0 pushes Z=1, group 1
    // pushes 0; group 1's BEZ is not taken, group 0's is (0x40 + 0x10), and its T0 lands on
    // group 0 only while group 1 is fetched; group 1 is restored with [1, 2] and pc 0x100.
    let stim = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/branch_stack_groups.jsonl");
    let o = warpgen(&["sim", "branch_stack", "--set", "branch_stack.thread_groups=2", "--stimulus", stim]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let at = |i: usize, k: &str| lines[i][k].as_u64().unwrap();
    assert_eq!((at(3, "cc_r"), at(3, "cc_r_vld"), at(3, "br_taken"), at(3, "br_target")), (0, 1, 0, 0x28));
    assert_eq!((at(4, "cc_r"), at(4, "br_taken"), at(4, "br_target"), at(4, "pc")), (1, 1, 0x50, 1));
    assert_eq!((at(5, "branch_t0_q"), at(5, "t0pc_q"), at(5, "t0_tg_q"), at(5, "pc")), (1, 0x50, 0, 2));
    assert_eq!((at(6, "pc"), at(6, "sv_cnt"), at(6, "sv_pc")), (0x50, 0, 3), "T0 went to group 0; group 1 kept counting");
    assert_eq!(at(7, "pc"), 3, "the restore acts at the edge");
    assert_eq!((at(8, "pc"), at(8, "sv_cnt"), at(8, "sv_stack"), at(8, "sv_pc")), (0x100, 2, 0x21, 0x100));
    assert_eq!((at(8, "cc_r"), at(8, "cc_s"), at(8, "cc_cnt")), (1, 2, 2));
    assert_eq!(at(9, "pc"), 0x101);
}

#[test]
fn sim_replays_the_global_spreader_locality_example() {
    // Contract §7 TC-08 shape: PRIO[VTX][0] := 2, so the vertex group 0x40..0x47 goes to EU2
    // (entity 7); the triangle on vertices 0x40, 0x41, 0x42 transfers in the vertex's ack
    // cycle, sees its table write next cycle (no bubble) and goes home to EU2, although
    // PRIO[TRI] starts with EU0.
    let stim = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/global_spreader_locality.jsonl");
    let o = warpgen(&["sim", "global_spreader", "--stimulus", stim]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let at = |i: usize, k: &str| lines[i][k].as_u64().unwrap_or_else(|| panic!("line {i} {k}: {}", lines[i][k]));
    assert_eq!((at(1, "vp_ready"), at(1, "ar_valid")), (1, 0), "transfer, no request yet");
    assert_eq!((at(2, "ar_valid"), at(2, "ar_type"), at(2, "ar_base_idx"), at(2, "ar_vcount")), (0b100, 0, 0x40, 8));
    assert_eq!((at(3, "ar_valid"), at(3, "ar_type"), at(3, "ar_ref_valid"), at(3, "ar_global_ref")), (0b100, 1, 0b111, 0));
    assert_eq!(at(3, "ar_ref_eu"), 2 | 2 << 3 | 2 << 6, "3-bit EU ids");
    assert_eq!(at(3, "ar_ref_elem"), 1 << 3 | 2 << 6, "elements 0, 1, 2");
    assert_eq!(at(3, "ar_ref_ent"), 0x07_07_07);
    assert_eq!((at(4, "ar_valid"), at(4, "busy")), (0, 0));
    assert_eq!(at(4, "st_free_res") >> 24 & 0xfff, 64 - 4 - 2, "EU2 debited both footprints");
}

#[test]
fn generate_help_lists_every_key_with_range_and_default() {
    let o = warpgen(&["generate", "--help"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let help = String::from_utf8_lossy(&o.stdout);
    for k in warpgen_rtl::config::KEYS {
        let (block, name) = k.key.split_once('.').unwrap();
        let line = format!("  {name}: {}; default {}", k.range, k.default);
        let section = help.split(&format!("[{block}]\n")).nth(1).unwrap_or_else(|| panic!("no [{block}] in --help"));
        assert!(section.contains(&line), "--help lacks `{line}` under [{block}]");
    }
}

/// `--block` named twice is listed once in files.f; `--out` naming a file is an input error
/// that says so and leaves the file alone.
#[test]
fn repeated_block_is_listed_once_and_out_must_be_a_directory() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("rtl");
    let o = warpgen(&["generate", "--block", "scoreboard", "--block", "scoreboard", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(out.join("files.f")).unwrap(), "warpgen_scoreboard.v\n");
    let file = write(d.path(), "plain.txt", "keep me");
    let o = warpgen(&["generate", "--out", &file]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is a file; give a directory"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me");
}

/// A block the config lacks is an input error naming the config file; `--stimulus -` reads
/// standard input.
#[test]
fn missing_table_names_the_config_and_stimulus_reads_stdin() {
    let d = tempfile::tempdir().unwrap();
    let cfg = write(d.path(), "only_sb.toml", "[scoreboard]\n");
    let o = warpgen(&["ports", "branch_stack", "--config", &cfg]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(&format!("{cfg}: the config has no [branch_stack] table")), "{}", stderr(&o));

    let mut child = Command::new(env!("CARGO_BIN_EXE_warpgen"))
        .args(["sim", "scoreboard", "--stimulus", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), b"{\"reset\":1}\n{\"reset\":0,\"iss_valid\":1}\n").unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(out.lines().nth(1).unwrap().contains("\"iss_fire\":1"), "{out}");
}



/// `thread_merge.candidates` out of range names the key and the allowed range and writes
/// nothing.
#[test]
fn thread_merge_candidates_out_of_range_is_an_input_error() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("rtl");
    for v in ["0", "5"] {
        let o = warpgen(&["generate", "--set", &format!("thread_merge.candidates={v}"), "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains("thread_merge.candidates") && stderr(&o).contains("allowed 1 to 4"), "{}", stderr(&o));
        assert!(!out.exists());
    }
}
