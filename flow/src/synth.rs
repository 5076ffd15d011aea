//! `warpgen synth`: every block through the FPGA flow of [`crate::fpga`] (out-of-context
//! wrapper, Yosys, nextpnr), and the table and JSON it prints. Works for every block
//! `warpgen_rtl::generate` knows, with no per-block code.

use std::path::Path;
use warpgen_rtl::Config;
use crate::fpga::{Placement, SynthReport, SynthSpec, Target};
use warpgen_rtl::Emitted;
use warpgen_sim::SimError;

/// A failure of the flow, with the exit status class it deserves.
#[derive(Debug, Clone, PartialEq)]
pub enum FlowError {
    /// Bad input: an argument, a config, a block the config lacks (exit status 2).
    Input(String),
    /// Anything else: a missing tool, a tool error, I/O (exit status 1).
    Failure(String),
}

impl std::fmt::Display for FlowError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FlowError::Input(m) | FlowError::Failure(m) => f.write_str(m),
        }
    }
}

/// The target (`--target`, else the config's `[synth] target`) and clock (`[synth] clock_mhz`).
pub fn resolve_target(config: &Config, target: Option<&str>) -> Result<(Target, f64), FlowError> {
    let synth = config.synth();
    let name = target.unwrap_or(&synth.target);
    let t = Target::parse(name).ok_or_else(|| {
        let all: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
        FlowError::Input(format!("unknown target `{name}`: allowed {}", all.join(", ")))
    })?;
    Ok((t, synth.clock_mhz))
}

/// Generates `block` from `config` and runs it through the flow in `work` (a temporary
/// directory in the cache's scratch directory when `None`), placing it once per seed.
pub fn synth_block(
    config: &Config,
    block: &str,
    target: Target,
    clock_mhz: f64,
    seeds: &[u64],
    work: Option<&Path>,
) -> Result<SynthReport, FlowError> {
    let e = warpgen_rtl::generate(config, block).map_err(FlowError::Input)?;
    let tmp;
    let dir = match work {
        Some(d) => d,
        None => {
            let scratch = warpgen_sim::cache::scratch_dir().map_err(|e| FlowError::Failure(e.to_string()))?;
            tmp = warpgen_sim::temp::dir_in(&scratch, "synth")
                .map_err(|e| FlowError::Failure(format!("creating a work directory in {}: {e}", scratch.display())))?;
            tmp.path()
        }
    };
    fpga_synth(&e, target, clock_mhz, seeds, dir).map_err(|e| FlowError::Failure(format!("{block}: {e}")))
}

/// One table row per block: the block's own cells, the wrapped design's Fmax (median over
/// the seeds, then the lowest and the highest) and placement: the logic cells placed and
/// their share of the device ("use"). "timing" is judged on the median.
pub fn table(rows: &[(String, SynthReport)]) -> String {
    let mut s = format!(
        "{:<16} {:>6} {:>6} {:>6} {:>5} {:>4} {:>7} {:>7} {:>7} {:>7} {:>6} {:>5}  {}\n",
        "block", "LUT4", "FF", "carry", "BRAM", "DSP", "Fmax", "min", "max", "timing", "cells", "use", "critical path (median seed)"
    );
    for (block, r) in rows {
        let b = r.block;
        let (fmax, min, max, timing, cells, path) = match &r.placement {
            Placement::Fits { fmax_mhz, fmax_min_mhz, fmax_max_mhz, logic_cells, critical_path, .. } => (
                format!("{fmax_mhz:.1}"),
                format!("{fmax_min_mhz:.1}"),
                format!("{fmax_max_mhz:.1}"),
                if *fmax_mhz >= r.clock_mhz { "met" } else { "FAIL" }.to_string(),
                logic_cells.to_string(),
                critical_path.as_ref().map_or(String::new(), |p| {
                    format!(
                        "{} -> {}: {:.1} ns, {} LUT{}{}",
                        p.from,
                        p.to,
                        p.delay_ns,
                        p.lut_levels,
                        if p.lut_levels == 1 { "" } else { "s" },
                        if p.carry_cells > 0 { format!(" + {} carry", p.carry_cells) } else { String::new() }
                    )
                }),
            ),
            Placement::DoesNotFit { logic_cells, reason } => (
                "-".into(),
                "-".into(),
                "-".into(),
                "-".into(),
                logic_cells.map_or("-".into(), |c| c.to_string()),
                format!("does not fit {}: {reason}", r.target),
            ),
        };
        let placed = match &r.placement {
            Placement::Fits { logic_cells, .. } => Some(*logic_cells),
            Placement::DoesNotFit { logic_cells, .. } => *logic_cells,
        };
        let share = placed.map_or("-".to_string(), |c| format!("{}%", (c * 100).div_ceil(r.device_logic_cells.max(1))));
        s += &format!(
            "{block:<16} {:>6} {:>6} {:>6} {:>5} {:>4} {fmax:>7} {min:>7} {max:>7} {timing:>7} {cells:>6} {share:>5}  {path}\n",
            b.lut4, b.ff, b.carry, b.bram, b.dsp
        );
    }
    s
}

/// What a JSON document of `warpgen synth` says about the run as a whole.
pub struct RunInfo<'a> {
    pub target: Target,
    pub clock_mhz: f64,
    /// The tools and their versions, as [`crate::fpga::tool_versions`] gives them.
    pub tools: &'a str,
    pub seeds: &'a [u64],
}

/// The reports as one JSON document; each block also carries its resolved parameters
/// (`params`, as in the Verilog header), so a QoR baseline knows what it measured.
pub fn json(run: &RunInfo, config: &Config, rows: &[(String, SynthReport)]) -> serde_json::Value {
    serde_json::json!({
        "target": run.target.name(),
        "clock_mhz": run.clock_mhz,
        "tools": run.tools,
        "seeds": run.seeds,
        "blocks": rows.iter().map(|(b, r)| {
            let mut v = serde_json::to_value(r).expect("serializable");
            v["name"] = serde_json::json!(b);
            let params: serde_json::Map<String, serde_json::Value> = warpgen_rtl::generate(config, b)
                .map(|e| e.params.into_iter().map(|(k, x)| (k, serde_json::json!(x))).collect())
                .unwrap_or_default();
            v["params"] = serde_json::Value::Object(params);
            v
        }).collect::<Vec<_>>(),
    })
}

/// Out-of-context synthesis, placement (once per seed) and timing of an emitted block on
/// `target` at `clock_mhz` ([`crate::fpga`]), with the flow's files in `work`.
pub fn fpga_synth(e: &Emitted, target: Target, clock_mhz: f64, seeds: &[u64], work: &Path) -> Result<SynthReport, SimError> {
    let ports: Vec<_> = e.ports.iter().map(|p| p.info()).collect();
    let spec = SynthSpec { top: &e.top, verilog: &e.verilog, ports: &ports, target, clock_mhz, seeds };
    crate::fpga::synthesize(&spec, work)
}
