//! `warpgen synth --check BASELINE`: the QoR gate. A baseline is the JSON document of a
//! `warpgen synth --json` run (target, clock, tools, seeds, and per block its parameters,
//! cells and Fmax); a new run of the same blocks at the same parameters is compared with
//! it, and the gate fails when a block got worse by more than the tolerance:
//!
//! * LUT4 more than [`LUT_GROWTH`] above the baseline's;
//! * median Fmax more than [`FMAX_FALL`] below the baseline's;
//! * a block that fitted the device no longer fits.
//!
//! Synthesis and placement are deterministic for a tool version and a seed, so the gate is
//! stable on any machine with the same tools. When the tools' versions differ from the
//! baseline's the comparison still runs, and the verdict says so: a change may then come
//! from the tools, not from the design. A baseline of another target, clock or seed list,
//! a block it lacks, or a block measured at other parameters is not comparable: that is an
//! input error, naming what differs.

use crate::synth::RunInfo;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use crate::fpga::{Placement, SynthReport};

/// LUT4 may grow by this fraction of the baseline.
pub const LUT_GROWTH: f64 = 0.05;
/// The median Fmax may fall by this fraction of the baseline.
pub const FMAX_FALL: f64 = 0.05;

/// The baseline's figures of one block.
#[derive(Debug, Clone, PartialEq)]
pub struct BaseBlock {
    pub name: String,
    pub params: Vec<(String, String)>,
    pub lut4: u64,
    /// Median Fmax; `None` if the block did not fit.
    pub fmax_mhz: Option<f64>,
}

/// A baseline file, read.
#[derive(Debug, Clone, PartialEq)]
pub struct Baseline {
    pub target: String,
    pub clock_mhz: f64,
    pub tools: String,
    pub seeds: Vec<u64>,
    pub blocks: Vec<BaseBlock>,
}

/// Reads a baseline (the JSON of `warpgen synth --json`); `file` names it in errors.
pub fn parse_baseline(file: &str, text: &str) -> Result<Baseline, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("{file}: not a warpgen synth JSON document: {e}"))?;
    let field = |key: &str| v.get(key).ok_or_else(|| format!("{file}: no \"{key}\" (write a baseline with `warpgen synth --json {file}`)"));
    let text_of = |x: &Value, what: &str| x.as_str().map(str::to_string).ok_or_else(|| format!("{file}: \"{what}\" is not a string"));
    let seeds = field("seeds")?
        .as_array()
        .and_then(|a| a.iter().map(Value::as_u64).collect::<Option<Vec<u64>>>())
        .ok_or_else(|| format!("{file}: \"seeds\" is not a list of numbers"))?;
    let mut blocks = Vec::new();
    for (i, b) in field("blocks")?.as_array().ok_or_else(|| format!("{file}: \"blocks\" is not a list"))?.iter().enumerate() {
        let name = text_of(b.get("name").unwrap_or(&Value::Null), &format!("blocks[{i}].name"))?;
        let lut4 = b
            .pointer("/block/lut4")
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("{file}: block {name} has no \"block\".\"lut4\""))?;
        let fmax_mhz = match b.pointer("/placement/status").and_then(Value::as_str) {
            Some("fits") => Some(
                b.pointer("/placement/fmax_mhz")
                    .and_then(Value::as_f64)
                    .ok_or_else(|| format!("{file}: block {name} fits but has no \"fmax_mhz\""))?,
            ),
            Some("does-not-fit") => None,
            _ => return Err(format!("{file}: block {name} has no \"placement\".\"status\" fits or does-not-fit")),
        };
        let params = b
            .get("params")
            .and_then(Value::as_object)
            .ok_or_else(|| format!("{file}: block {name} has no \"params\""))?
            .iter()
            .map(|(k, x)| Ok((k.clone(), text_of(x, &format!("{name}.params.{k}"))?)))
            .collect::<Result<Vec<_>, String>>()?;
        blocks.push(BaseBlock { name, params, lut4, fmax_mhz });
    }
    Ok(Baseline {
        target: text_of(field("target")?, "target")?,
        clock_mhz: field("clock_mhz")?.as_f64().ok_or_else(|| format!("{file}: \"clock_mhz\" is not a number"))?,
        tools: text_of(field("tools")?, "tools")?,
        seeds,
        blocks,
    })
}

/// The outcome of a check.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Verdict {
    /// One line per block and figure, and notes.
    pub lines: Vec<String>,
    /// The regressions, one line each; empty = the gate passes.
    pub failures: Vec<String>,
}

/// The change from `base` to `now` as a signed percentage.
fn percent(now: f64, base: f64) -> f64 {
    if base == 0.0 {
        0.0
    } else {
        (now - base) / base * 100.0
    }
}

/// Compares a run with the baseline (`file` names it in messages). An `Err` is an input
/// error: the two do not measure the same thing.
pub fn check(
    file: &str,
    base: &Baseline,
    run: &RunInfo,
    rows: &[(String, Vec<(String, String)>, &SynthReport)],
) -> Result<Verdict, String> {
    let rerun = "measure it again with the baseline's settings, or write a new baseline with --json";
    if base.target != run.target.name() || base.clock_mhz != run.clock_mhz {
        return Err(format!(
            "{file}: the baseline is for {} at {} MHz; this run is {} at {} MHz: {rerun}",
            base.target,
            crate::fpga::mhz_text(base.clock_mhz),
            run.target.name(),
            crate::fpga::mhz_text(run.clock_mhz)
        ));
    }
    if base.seeds != run.seeds {
        return Err(format!("{file}: the baseline placed with seeds {:?}, this run with {:?}: {rerun}", base.seeds, run.seeds));
    }
    let mut v = Verdict::default();
    if base.tools != run.tools {
        v.lines.push(format!(
            "note: the tools differ from the baseline's (baseline: {}; here: {}): a change below may come from the tools, not the design",
            base.tools, run.tools
        ));
    }
    for (name, params, r) in rows {
        let b = base.blocks.iter().find(|b| &b.name == name).ok_or_else(|| {
            let have: Vec<&str> = base.blocks.iter().map(|b| b.name.as_str()).collect();
            format!("{file}: no baseline for block {name} (it has {})", have.join(", "))
        })?;
        let sorted = |v: &[(String, String)]| v.iter().cloned().collect::<BTreeMap<String, String>>();
        let (was, now) = (sorted(&b.params), sorted(params));
        if was != now {
            let keys: BTreeSet<&String> = was.keys().chain(now.keys()).collect();
            let shown = |v: Option<&String>| v.map_or("absent".to_string(), String::clone);
            let differ: Vec<String> = keys
                .into_iter()
                .filter(|k| was.get(*k) != now.get(*k))
                .map(|k| format!("{k} = {} (baseline {})", shown(now.get(k)), shown(was.get(k))))
                .collect();
            return Err(format!("{file}: block {name} was measured at other parameters: {}: {rerun}", differ.join(", ")));
        }
        let lut = percent(r.block.lut4 as f64, b.lut4 as f64);
        let line = format!("{name}: LUT4 {} (baseline {}, {lut:+.1}%)", r.block.lut4, b.lut4);
        if r.block.lut4 as f64 > b.lut4 as f64 * (1.0 + LUT_GROWTH) {
            v.failures.push(format!("{line}: more than {:.0}% above the baseline", LUT_GROWTH * 100.0));
        }
        v.lines.push(line);
        match (r.fmax_mhz(), b.fmax_mhz) {
            (Some(now), Some(was)) => {
                let line = format!("{name}: Fmax {now:.1} MHz median (baseline {was:.1}, {:+.1}%)", percent(now, was));
                if now < was * (1.0 - FMAX_FALL) {
                    v.failures.push(format!("{line}: more than {:.0}% below the baseline", FMAX_FALL * 100.0));
                }
                v.lines.push(line);
            }
            (None, Some(was)) => {
                let why = match &r.placement {
                    Placement::DoesNotFit { reason, .. } => reason.clone(),
                    Placement::Fits { .. } => String::new(),
                };
                let line = format!("{name}: does not fit {} any more ({why}; baseline {was:.1} MHz)", run.target);
                v.failures.push(line.clone());
                v.lines.push(line);
            }
            (Some(now), None) => v.lines.push(format!("{name}: Fmax {now:.1} MHz median (the baseline did not fit)")),
            (None, None) => v.lines.push(format!("{name}: does not fit {}, as in the baseline", run.target)),
        }
    }
    if !v.failures.is_empty() && base.tools != run.tools {
        v.failures.push(format!("(the tools differ from the baseline's: baseline {}; here {})", base.tools, run.tools));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fpga::{Resources, SeedRun, Target};

    fn report(lut4: u64, fmax: Option<f64>) -> SynthReport {
        SynthReport {
            target: "ice40-hx8k".into(),
            clock_mhz: 100.0,
            block: Resources { lut4, ff: 10, carry: 0, bram: 0, dsp: 0 },
            wrapped: Resources { lut4: lut4 + 5, ff: 40, carry: 0, bram: 0, dsp: 0 },
            device_logic_cells: 7680,
            placement: match fmax {
                Some(f) => Placement::Fits {
                    fmax_mhz: f,
                    fmax_min_mhz: f - 1.0,
                    fmax_max_mhz: f + 1.0,
                    seeds: vec![SeedRun { seed: 1, fmax_mhz: f }],
                    constraint_mhz: 100.0,
                    logic_cells: 100,
                    critical_path: None,
                },
                None => Placement::DoesNotFit { logic_cells: Some(9000), reason: "needs ICESTORM_LC 9000 of 7680".into() },
            },
        }
    }

    /// A baseline written by hand in the format of `warpgen synth --json` (trimmed).
    const BASE: &str = r#"{
  "target": "ice40-hx8k", "clock_mhz": 100.0, "tools": "Yosys 0.23, nextpnr-ice40 0.4-1+b1", "seeds": [1, 2, 3],
  "blocks": [
    { "name": "scoreboard", "params": { "trackers": "8" }, "block": { "lut4": 1000 },
      "placement": { "status": "fits", "fmax_mhz": 110.0 } },
    { "name": "big", "params": {}, "block": { "lut4": 9000 },
      "placement": { "status": "does-not-fit", "reason": "too big" } }
  ]
}"#;

    const TOOLS: &str = "Yosys 0.23, nextpnr-ice40 0.4-1+b1";

    fn run(tools: &str) -> RunInfo<'_> {
        RunInfo { target: Target::Ice40Hx8k, clock_mhz: 100.0, tools, seeds: &[1, 2, 3] }
    }

    fn params() -> Vec<(String, String)> {
        vec![("trackers".into(), "8".into())]
    }

    fn verdict(lut4: u64, fmax: Option<f64>, tools: &str) -> Result<Verdict, String> {
        let base = parse_baseline("b.json", BASE).unwrap();
        let r = report(lut4, fmax);
        check("b.json", &base, &run(tools), &[("scoreboard".into(), params(), &r)])
    }

    #[test]
    fn the_baseline_reads_back() {
        let b = parse_baseline("b.json", BASE).unwrap();
        assert_eq!(b.seeds, vec![1, 2, 3]);
        assert_eq!(b.blocks[0], BaseBlock { name: "scoreboard".into(), params: params(), lut4: 1000, fmax_mhz: Some(110.0) });
        assert_eq!(b.blocks[1].fmax_mhz, None);
        assert!(parse_baseline("b.json", "{}").unwrap_err().contains("b.json: no \"seeds\""));
        assert!(parse_baseline("b.json", "not json").unwrap_err().starts_with("b.json: not a warpgen synth JSON"));
    }

    #[test]
    fn within_five_percent_passes_and_beyond_fails() {
        // 1050 LUT4 is exactly +5%, 104.5 MHz exactly -5%: both still pass.
        let v = verdict(1050, Some(104.5), TOOLS).unwrap();
        assert!(v.failures.is_empty(), "{v:?}");
        assert_eq!(v.lines, ["scoreboard: LUT4 1050 (baseline 1000, +5.0%)", "scoreboard: Fmax 104.5 MHz median (baseline 110.0, -5.0%)"]);
        let v = verdict(1051, Some(110.0), TOOLS).unwrap();
        assert_eq!(v.failures, ["scoreboard: LUT4 1051 (baseline 1000, +5.1%): more than 5% above the baseline"]);
        let v = verdict(900, Some(104.4), TOOLS).unwrap();
        assert_eq!(v.failures.len(), 1, "{v:?}");
        assert!(v.failures[0].starts_with("scoreboard: Fmax 104.4 MHz median (baseline 110.0, -5.1%)"), "{v:?}");
        // No longer fitting is a regression.
        let v = verdict(1000, None, TOOLS).unwrap();
        assert!(v.failures[0].contains("does not fit ice40-hx8k any more"), "{v:?}");
    }

    #[test]
    fn other_tools_are_named_and_other_settings_refused() {
        let v = verdict(2000, Some(110.0), "Yosys 0.40, nextpnr-ice40 0.7").unwrap();
        assert!(v.lines[0].starts_with("note: the tools differ from the baseline's (baseline: Yosys 0.23"), "{v:?}");
        assert!(v.failures.last().unwrap().contains("the tools differ"), "{v:?}");
        let base = parse_baseline("b.json", BASE).unwrap();
        let r = report(1000, Some(110.0));
        let other = vec![("trackers".into(), "4".into())];
        let e = check("b.json", &base, &run(TOOLS), &[("scoreboard".into(), other, &r)]).unwrap_err();
        assert!(e.contains("block scoreboard was measured at other parameters: trackers = 4 (baseline 8)"), "{e}");
        let e = check("b.json", &base, &run(TOOLS), &[("thread_merge".into(), vec![], &r)]).unwrap_err();
        assert!(e.contains("no baseline for block thread_merge (it has scoreboard, big)"), "{e}");
        let one_seed = RunInfo { seeds: &[1], ..run(TOOLS) };
        let e = check("b.json", &base, &one_seed, &[("scoreboard".into(), params(), &r)]).unwrap_err();
        assert!(e.contains("seeds [1, 2, 3], this run with [1]"), "{e}");
        let slow = RunInfo { clock_mhz: 50.0, ..run(TOOLS) };
        assert!(check("b.json", &base, &slow, &[]).unwrap_err().contains("ice40-hx8k at 100 MHz; this run is ice40-hx8k at 50 MHz"));
    }
}
