//! The second simulator: a stimulus replayed through Icarus Verilog (`iverilog`, `vvp`) with
//! the same timing as warpgen's Verilator replay, so both write the same outputs. The block
//! and a dumping testbench ([`crate::testbench`]) are compiled in a scratch directory of the
//! simulation cache; the testbench prints every output in hex each cycle, read back here.
//! Unknown bits (x, z: registers the block does not reset, which Verilator starts at 0) read
//! as 0, as in the Verilator replay.

use warpgen_sim::stimulus::{from_binary, outputs, Stimulus, Words};
use crate::testbench::{self, Mode};
use std::path::{Path, PathBuf};
use std::process::Command;
use warpgen_rtl::Emitted;
use warpgen_sim::{tool, SimError};

/// `iverilog` and `vvp`: `$IVERILOG` / `$VVP` if set, else on PATH.
pub fn find() -> Result<(PathBuf, PathBuf), SimError> {
    Ok((tool::find("iverilog", "IVERILOG")?, tool::find("vvp", "VVP")?))
}

/// Replays `stim` through `verilog` (the block `e`, or a user's Verilog with its top and
/// ports) in Icarus Verilog; returns every output of every cycle (port order). `vcd`: a VCD
/// of the run is written there.
pub fn replay(e: &Emitted, verilog: &str, stim: &Stimulus, vcd: Option<&Path>) -> Result<Vec<Vec<Words>>, SimError> {
    let (iverilog, vvp) = find()?;
    let scratch = warpgen_sim::cache::scratch_dir()?;
    let work = warpgen_sim::temp::dir_in(&scratch, "icarus").map_err(|err| SimError::io(format!("creating a directory in {}", scratch.display()), err))?;
    let dir = work.path();
    let vcd_abs = vcd.map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf()));
    let vcd_text = vcd_abs.as_ref().map(|p| p.display().to_string());
    let tb = testbench::verilog(e, stim, Mode::Dump, vcd_text.as_deref());
    let (block_v, tb_v) = (dir.join("block.v"), dir.join("tb.v"));
    for (p, text) in [(&block_v, verilog), (&tb_v, tb.as_str())] {
        std::fs::write(p, text).map_err(|err| SimError::io(format!("writing {}", p.display()), err))?;
    }
    let image = dir.join("tb.vvp");
    let mut cmd = Command::new(&iverilog);
    cmd.arg("-g2005").arg("-o").arg(&image).arg("-s").arg(format!("{}_tb", e.top)).arg(&tb_v).arg(&block_v);
    tool::run(&mut cmd, "iverilog (compiling the block and its testbench)")?;
    let mut cmd = Command::new(&vvp);
    cmd.arg("-n").arg(&image);
    let out = tool::run(&mut cmd, "vvp (Icarus Verilog simulation)")?;
    parse_dump(&out.stdout, e, stim.cycles.len())
}

/// The testbench's `@<cycle> <binary>…` lines as output values (x and z bits read as 0).
fn parse_dump(text: &str, e: &Emitted, cycles: usize) -> Result<Vec<Vec<Words>>, SimError> {
    let infos: Vec<warpgen_sim::PortInfo> = e.ports.iter().map(|p| p.info()).collect();
    let outs = outputs(&infos);
    let mut values = Vec::with_capacity(cycles);
    for line in text.lines().filter(|l| l.starts_with('@')) {
        let mut fields = line[1..].split_whitespace();
        fields.next();
        let row: Vec<Words> = outs
            .iter()
            .map(|(_, w)| from_binary(fields.next().unwrap_or("0"), *w))
            .collect();
        values.push(row);
    }
    if values.len() != cycles {
        return Err(SimError::InvalidSpec(format!(
            "vvp printed {} cycles of outputs, the stimulus has {cycles}:\n{}",
            values.len(),
            tool::tail(text, 10)
        )));
    }
    Ok(values)
}
