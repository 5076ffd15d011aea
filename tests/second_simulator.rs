//! The second simulator and the exported testbench as a user meets them: a random lockstep run
//! of every block, recorded as stimulus, replays to the same outputs in Verilator and Icarus
//! Verilog (`warpgen sim --simulator icarus`) at two configs; the committed examples too; and
//! an exported self-checking testbench passes on the block and fails on a broken copy, in
//! Icarus and in `verilator --binary`.

use std::path::Path;
use std::process::Command;
use warpgen_rtl::Config;
use warpgen_testbench::kit;

mod common;
use common::{stderr, stdout, warpgen};

/// Cycles of each recorded random run.
const CYCLES: u64 = 10_000;

/// Cycles of the exported testbench's run: its stimulus and expected outputs are Verilog text
/// that `verilator --binary` compiles twice (good and broken block), 115 s at 10,000 cycles
/// on a busy day; the broken block fails in the first cycles that take a branch.
const TB_CYCLES: u64 = 2_000;

/// Replays `stimulus` through `block` (config `sets`) in both simulators; requires equal
/// outputs and returns them.
fn same_in_both(block: &str, sets: &[&str], stimulus: &Path, dir: &Path) -> String {
    let mut outs = Vec::new();
    for sim in ["verilator", "icarus"] {
        let out = dir.join(format!("{block}-{sim}.jsonl"));
        let mut args = vec!["sim", block, "--simulator", sim, "--stimulus", stimulus.to_str().unwrap(), "--out", out.to_str().unwrap()];
        for s in sets {
            args.extend(["--set", s]);
        }
        let o = warpgen(&args);
        assert!(o.status.success(), "warpgen {}: {}", args.join(" "), stderr(&o));
        outs.push(std::fs::read_to_string(&out).unwrap());
    }
    let lines = stimulus_lines(stimulus);
    assert_eq!(outs[0].lines().count(), lines, "{block} {sets:?}: one output line per stimulus line");
    if outs[0] != outs[1] {
        let (n, (v, i)) = outs[0].lines().zip(outs[1].lines()).enumerate().find(|(_, (v, i))| v != i).unwrap();
        panic!("{block} {sets:?}: Verilator and Icarus differ at cycle {n}:\n  verilator {v}\n  icarus    {i}");
    }
    outs.remove(0)
}

fn stimulus_lines(p: &Path) -> usize {
    std::fs::read_to_string(p).unwrap().lines().filter(|l| !l.trim().is_empty()).count()
}

/// Records `cycles` cycles of block `B`'s random lockstep stimulus at config `sets`.
fn record<B: kit::Block>(block: &str, sets: &[&str], params: impl Fn(&Config) -> B::Params, dir: &Path, cycles: u64) -> std::path::PathBuf {
    let overrides: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    let config = Config::embedded(&overrides).unwrap();
    let path = dir.join(format!("{block}-{}.jsonl", sets.join("-").replace(['"', '[', ']', ','], "")));
    let file = std::fs::File::create(&path).unwrap();
    kit::record::<B>(&params(&config), 7, cycles, Box::new(std::io::BufWriter::new(file))).unwrap();
    assert_eq!(stimulus_lines(&path), cycles as usize);
    path
}

/// Block `$block` at two configs (`$first`, `$second`: `--set` lists; empty = the default).
macro_rules! both_simulators {
    ($test:ident, $block:literal, $marker:ty, $cfg:ident, $first:expr, $second:expr) => {
        #[test]
        fn $test() {
            let d = tempfile::tempdir().unwrap();
            let (first, second): (&[&str], &[&str]) = (&$first, &$second);
            for sets in [first, second] {
                let stim = record::<$marker>($block, sets, |c| c.$cfg().unwrap().into(), d.path(), CYCLES);
                same_in_both($block, sets, &stim, d.path());
            }
        }
    };
}

// The default config where Icarus takes seconds; task_combiner's and global_spreader's
// defaults take a minute or more of Icarus per 10,000 cycles, so two smaller ones.
both_simulators!(scoreboard_replays_the_same_in_both, "scoreboard", warpgen_testbench::scoreboard::Scoreboard, scoreboard, [],
    ["scoreboard.thread_groups=2", "scoreboard.trackers=3", "scoreboard.completion_ports=1", "scoreboard.counter_width=2"]);
both_simulators!(branch_stack_replays_the_same_in_both, "branch_stack", warpgen_testbench::branch_stack::BranchStack, branch_stack, [],
    ["branch_stack.depth=2", "branch_stack.pc_width=8", "branch_stack.offset_width=4", "branch_stack.thread_groups=4"]);
both_simulators!(task_combiner_replays_the_same_in_both, "task_combiner", warpgen_testbench::task_combiner::TaskCombiner, task_combiner,
    ["task_combiner.entries=8", "task_combiner.width=16"],
    ["task_combiner.entries=4", "task_combiner.width=8", "task_combiner.shader_types=2", "task_combiner.state_width=2", "task_combiner.dep_tags=2"]);
both_simulators!(global_spreader_replays_the_same_in_both, "global_spreader", warpgen_testbench::global_spreader::GlobalSpreader, global_spreader,
    ["global_spreader.eus=3", "global_spreader.vdt_depth=16", "global_spreader.pt_depth=8"],
    ["global_spreader.eus=2", "global_spreader.vdt_depth=8", "global_spreader.pt_depth=4", "global_spreader.vertices_per_group=4"]);
both_simulators!(thread_merge_replays_the_same_in_both, "thread_merge", warpgen_testbench::thread_merge::ThreadMerge, thread_merge, [],
    ["thread_merge.slots=2", "thread_merge.lanes=8", "thread_merge.candidates=3"]);

#[test]
fn the_examples_replay_the_same_in_both() {
    let d = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples");
    for (file, block) in [
        ("scoreboard_fig4.jsonl", "scoreboard"),
        ("branch_stack_fig5_7.jsonl", "branch_stack"),
        ("global_spreader_locality.jsonl", "global_spreader"),
        ("task_combiner_drain.jsonl", "task_combiner"),
        ("thread_merge_pair.jsonl", "thread_merge"),
    ] {
        same_in_both(block, &[], &root.join(file), d.path());
    }
    same_in_both("branch_stack", &["branch_stack.thread_groups=2"], &root.join("branch_stack_groups.jsonl"), d.path());
}

/// Runs a command; (success, standard output).
fn run(cmd: &mut Command) -> (bool, String) {
    let o = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    (o.status.success(), format!("{}{}", stdout(&o), stderr(&o)))
}

#[test]
fn an_exported_testbench_passes_on_the_block_and_fails_on_a_broken_copy() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path();
    let sets = ["branch_stack.depth=2", "branch_stack.pc_width=8", "branch_stack.offset_width=4"];
    let stim = record::<warpgen_testbench::branch_stack::BranchStack>("branch_stack", &sets, |c| c.branch_stack().unwrap().into(), dir, TB_CYCLES);
    let tb = dir.join("tb.v");
    let rtl = dir.join("rtl");
    let mut args = vec!["sim", "branch_stack", "--stimulus", stim.to_str().unwrap(), "--out", "/dev/null", "--testbench", tb.to_str().unwrap()];
    let mut gen = vec!["generate", "--block", "branch_stack", "--out", rtl.to_str().unwrap()];
    for s in &sets {
        args.extend(["--set", s]);
        gen.extend(["--set", s]);
    }
    for a in [&args, &gen] {
        let o = warpgen(a);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let good = rtl.join("warpgen_branch_stack.v");
    let text = std::fs::read_to_string(&good).unwrap();
    // The next PC one too far: the kind of slip a hand edit makes.
    let slip = "npc = pc_r_q + pc_inc;";
    assert!(text.contains(slip), "the mutation site moved: update this test");
    let bad = dir.join("broken.v");
    std::fs::write(&bad, text.replace(slip, "npc = pc_r_q + pc_inc + 1'b1;")).unwrap();
    for (verilog, pass) in [(&good, true), (&bad, false)] {
        let vvp = dir.join("tb.vvp");
        let (ok, log) = run(Command::new("iverilog").arg("-o").arg(&vvp).arg(&tb).arg(verilog));
        assert!(ok, "iverilog: {log}");
        let (ok, log) = run(Command::new("vvp").arg("-N").arg(&vvp));
        assert_eq!(ok, pass, "icarus on {}: {log}", verilog.display());
        assert!(log.contains(if pass { "PASS: " } else { "MISMATCH cycle " }), "{log}");
        let obj = dir.join(if pass { "obj_good" } else { "obj_bad" });
        let (ok, log) = run(Command::new("verilator")
            .args(["--binary", "-Wno-fatal", "--top-module", "warpgen_branch_stack_tb", "-Mdir"])
            .arg(&obj)
            .arg(&tb)
            .arg(verilog));
        assert!(ok, "verilator --binary: {log}");
        let (ok, log) = run(&mut Command::new(obj.join("Vwarpgen_branch_stack_tb")));
        assert_eq!(ok, pass, "verilator on {}: {log}", verilog.display());
        assert!(log.contains(if pass { "PASS: " } else { "MISMATCH cycle " }), "{log}");
    }
}
