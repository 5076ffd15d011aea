//! The FuseSoC core `warpgen generate` writes (`warpgen.core`), run by FuseSoC from PyPI as a
//! user runs it (`make deps` installs it into `.venv/`): the `lint` target lints every block
//! of the default config with Verilator -Wall and the waivers, and fails on a warning in a
//! block that is not the first; the `sim` target runs an exported testbench in Icarus and
//! fails on a broken block; the `synth` target builds a bitstream; the VLNV follows the config.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::{stderr, stdout, warpgen};

/// FuseSoC of the project's virtual environment.
fn fusesoc() -> PathBuf {
    let f = Path::new(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/fusesoc");
    assert!(f.is_file(), "{} not found: run `make deps` (it installs the pinned FuseSoC into .venv/)", f.display());
    f
}

/// Generates `args` into `dir/rtl`; the folder.
fn generate(dir: &Path, args: &[&str]) -> PathBuf {
    let rtl = dir.join("rtl");
    let mut all = vec!["generate", "--out", rtl.to_str().unwrap()];
    all.extend(args);
    let o = warpgen(&all);
    assert!(o.status.success(), "warpgen {}: {}", all.join(" "), stderr(&o));
    rtl
}

/// `fusesoc --cores-root rtl run --target target VLNV` in a fresh folder under `dir`
/// (FuseSoC writes build/ in its working directory); (success, its output).
fn run_target(dir: &Path, rtl: &Path, target: &str, vlnv: &str) -> (bool, String) {
    let work = tempfile::tempdir_in(dir).unwrap();
    let o = Command::new(fusesoc())
        .arg("--cores-root")
        .arg(rtl)
        .args(["run", "--target", target, vlnv])
        .current_dir(work.path())
        .output()
        .expect("run fusesoc");
    (o.status.success(), format!("{}{}", stdout(&o), stderr(&o)))
}

const DEFAULT: &str = concat!("warpgen:blocks:default:", env!("CARGO_PKG_VERSION"));

/// A wire nothing reads, added to the first module of `file`: Verilator -Wall's UNUSEDSIGNAL.
fn add_stray_wire(file: &Path) {
    let text = std::fs::read_to_string(file).unwrap();
    let broken = text.replacen("\nendmodule", "\n    wire [3:0] stray_probe = 4'd5;\nendmodule", 1);
    assert_ne!(broken, text);
    std::fs::write(file, broken).unwrap();
}

#[test]
fn lint_target_lints_every_block_of_the_default_config() {
    let d = tempfile::tempdir().unwrap();
    let rtl = generate(d.path(), &[]);
    let top = std::fs::read_to_string(rtl.join("warpgen_blocks.v")).unwrap();
    for b in ["scoreboard", "branch_stack", "task_combiner", "global_spreader", "thread_merge"] {
        assert!(top.contains(&format!("    warpgen_{b} {b} (")), "warpgen_blocks does not instantiate {b}");
    }
    let (ok, log) = run_target(d.path(), &rtl, "lint", DEFAULT);
    assert!(ok, "fusesoc run --target lint {DEFAULT}: {log}");
}

#[test]
fn lint_target_fails_on_a_warning_in_a_later_block() {
    let d = tempfile::tempdir().unwrap();
    let rtl = generate(d.path(), &["--block", "scoreboard", "--block", "thread_merge"]);
    let (ok, log) = run_target(d.path(), &rtl, "lint", DEFAULT);
    assert!(ok, "{log}");
    add_stray_wire(&rtl.join("warpgen_thread_merge.v"));
    let (ok, log) = run_target(d.path(), &rtl, "lint", DEFAULT);
    assert!(!ok && log.contains("UNUSEDSIGNAL") && log.contains("stray_probe"), "a warning in thread_merge passed: {log}");
}

#[test]
fn sim_target_runs_the_exported_testbench_and_fails_on_a_broken_block() {
    let d = tempfile::tempdir().unwrap();
    let tb = d.path().join("tb.v");
    let stim = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/branch_stack_fig5_7.jsonl");
    let o = warpgen(&["sim", "branch_stack", "--stimulus", stim.to_str().unwrap(), "--out", "/dev/null", "--testbench", tb.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rtl = generate(d.path(), &["--block", "branch_stack", "--testbench", tb.to_str().unwrap()]);
    assert_eq!(std::fs::read(rtl.join("warpgen_branch_stack_tb.v")).unwrap(), std::fs::read(&tb).unwrap(), "the testbench is copied as is");
    let (ok, log) = run_target(d.path(), &rtl, "sim", DEFAULT);
    assert!(ok && log.contains("PASS: 7 cycles"), "{log}");
    // The next PC one too far: the testbench's FAIL ($stop) must fail the run (vvp -N).
    let block = rtl.join("warpgen_branch_stack.v");
    let text = std::fs::read_to_string(&block).unwrap();
    let slip = "npc = pc_r_q + pc_inc;";
    assert!(text.contains(slip), "the mutation site moved: update this test");
    std::fs::write(&block, text.replace(slip, "npc = pc_r_q + pc_inc + 1'b1;")).unwrap();
    let (ok, log) = run_target(d.path(), &rtl, "sim", DEFAULT);
    assert!(!ok && log.contains("MISMATCH cycle"), "{log}");
}

#[test]
fn synth_target_builds_an_ice40_bitstream() {
    let d = tempfile::tempdir().unwrap();
    let rtl = generate(d.path(), &["--block", "branch_stack"]);
    let work = d.path().join("synth");
    std::fs::create_dir(&work).unwrap();
    let o = Command::new(fusesoc())
        .arg("--cores-root")
        .arg(&rtl)
        .args(["run", "--target", "synth", DEFAULT])
        .current_dir(&work)
        .output()
        .unwrap();
    let log = format!("{}{}", stdout(&o), stderr(&o));
    assert!(o.status.success(), "{log}");
    let name = DEFAULT.replace(':', "_");
    let bin = work.join("build").join(&name).join("synth").join(format!("{name}.bin"));
    assert!(std::fs::metadata(&bin).is_ok_and(|m| m.len() > 0), "no bitstream {}: {log}", bin.display());
}

#[test]
fn the_vlnv_names_the_config_and_a_bad_testbench_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let cfg = d.path().join("my gpu.v2.toml");
    std::fs::write(&cfg, "[branch_stack]\ndepth = 2\n").unwrap();
    let rtl = generate(d.path(), &["--config", cfg.to_str().unwrap()]);
    let core = std::fs::read_to_string(rtl.join("warpgen.core")).unwrap();
    let name = concat!("name: warpgen:blocks:my_gpu_v2:", env!("CARGO_PKG_VERSION"));
    assert!(core.starts_with("CAPI=2:\n") && core.contains(&format!("\n{name}\n")), "{core}");
    assert!(!core.contains("warpgen_scoreboard.v"), "only the config's blocks: {core}");
    // A testbench of a block not generated, and a file that is no testbench: status 2, nothing written.
    let other = d.path().join("other.v");
    std::fs::write(&other, "module warpgen_scoreboard_tb;\nendmodule\n").unwrap();
    for (tb, says) in [(other.to_str().unwrap(), "warpgen_scoreboard_tb"), ("/nonexistent/tb.v", "cannot read")] {
        let out = d.path().join("none");
        let o = warpgen(&["generate", "--block", "branch_stack", "--testbench", tb, "--out", out.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("--testbench") && stderr(&o).contains(says), "{}", stderr(&o));
        assert!(!out.exists(), "written on bad input");
    }
}
