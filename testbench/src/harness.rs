//! Glue between the emitted Verilog (`warpgen-rtl`) and the Verilator harness
//! (`warpgen-sim`): build a block's simulation model, and run the lint and
//! synthesis checks every emitted block must pass.

use std::path::PathBuf;
use warpgen_rtl::Emitted;
use warpgen_sim::{BuildSpec, Model, SimError, Verilator, YosysReport};

/// Builds (or loads from the cache) the Verilator model of an emitted block.
pub fn build_block(e: &Emitted, trace: bool) -> Result<Model, SimError> {
    let v = Verilator::find()?;
    v.build(&BuildSpec::new(e.top.clone()).source(e.file_name.clone(), e.verilog.clone()).trace(trace))
}

/// Writes the emitted block and the waiver file into a fresh directory and
/// returns (directory guard, Verilog path, waiver path).
fn stage(e: &Emitted) -> std::io::Result<(tempfile::TempDir, PathBuf, PathBuf)> {
    let dir = tempfile::tempdir()?;
    let v = dir.path().join(&e.file_name);
    let w = dir.path().join("warpgen.vlt");
    std::fs::write(&v, &e.verilog)?;
    std::fs::write(&w, warpgen_rtl::LINT_WAIVERS)?;
    Ok((dir, v, w))
}

/// `verilator --lint-only -Wall` with warpgen's waiver file: any warning fails.
pub fn lint(e: &Emitted) -> Result<(), String> {
    let (_dir, v, w) = stage(e).map_err(|x| x.to_string())?;
    let verilator = Verilator::find().map_err(|x| x.to_string())?;
    warpgen_sim::verilator_lint(&verilator, &[w, v], &[]).map_err(|x| x.to_string())
}

/// yosys `synth` of the block's top module; fails on any latch.
pub fn synth(e: &Emitted) -> Result<YosysReport, String> {
    let (_dir, v, _w) = stage(e).map_err(|x| x.to_string())?;
    warpgen_sim::yosys_check(&[v], &e.top).map_err(|x| x.to_string())
}
