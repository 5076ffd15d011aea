//! `warpgen sim`: stimulus replay through a block in Verilator (default) or Icarus Verilog,
//! optionally exported as a self-checking Verilog testbench, a VCD or a WaveDrom diagram.
//!
//! Each line of the input is one clock cycle: a JSON object of input port names
//! to values (numbers, or strings "0x1f" / "31" for any width). An input not
//! named keeps its last value; all start at 0. For each line the inputs are
//! applied, the design settles, one JSON object with every output port is
//! written (numbers up to 64 bits, "0x…" strings beyond), then one rising clock
//! edge is given. `clock` is implicit; `reset` is an ordinary input. Blank
//! lines are skipped.

use crate::{failure, input_error, wavedrom, Failure};
use std::path::Path;
use warpgen_sim::stimulus::{self, Stimulus, Words};
use warpgen_flow::{icarus, testbench};
use warpgen_rtl::{Config, Emitted};

/// The simulator of a replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Simulator {
    /// Verilator, through warpgen's cached model (the default)
    Verilator,
    /// Icarus Verilog (`iverilog`, `vvp`), through a generated testbench
    Icarus,
}

/// Where a replay's results go.
pub struct Outputs<'a> {
    /// The outputs as JSON lines (standard output when `None`).
    pub out: Option<&'a Path>,
    /// A VCD of the run.
    pub vcd: Option<&'a Path>,
    /// A self-checking Verilog testbench holding the stimulus and these outputs.
    pub testbench: Option<&'a Path>,
    /// A WaveDrom timing diagram of the run.
    pub wavedrom: Option<Wave<'a>>,
}

/// `--wavedrom FILE.json`, with its `--ports` and `--cycles`.
pub struct Wave<'a> {
    pub file: &'a Path,
    pub ports: Option<&'a str>,
    pub cycles: Option<&'a str>,
}

pub fn run(config: &Config, block: &str, stimulus: &Path, rtl: &[std::path::PathBuf], simulator: Simulator, to: &Outputs) -> Result<(), Failure> {
    let mut emitted = crate::emit(config, block)?;
    if !rtl.is_empty() {
        emitted.verilog = warpgen_flow::prove::block_verilog(&emitted, rtl).map_err(crate::flow_failure)?;
    }
    // `-` is standard input.
    let (text, source) = if stimulus == Path::new("-") {
        let t = std::io::read_to_string(std::io::stdin()).map_err(|e| input_error(format!("standard input: cannot read the stimulus: {e}")))?;
        (t, "standard input".to_string())
    } else {
        let t = std::fs::read_to_string(stimulus)
            .map_err(|e| input_error(format!("{}: cannot read the stimulus: {e}", stimulus.display())))?;
        (t, stimulus.display().to_string())
    };
    let infos: Vec<warpgen_sim::PortInfo> = emitted.ports.iter().map(|p| p.info()).collect();
    let stim = stimulus::parse(&text, &source, &infos).map_err(input_error)?;
    // The diagram's ports and cycles are checked before anything runs or is written.
    let diagram = match &to.wavedrom {
        None => None,
        Some(w) => {
            let sel = wavedrom::select(w.ports, &infos, &stim.inputs, &stimulus::outputs(&infos)).map_err(input_error)?;
            Some((w.file, sel, wavedrom::cycles(w.cycles, stim.cycles.len()).map_err(input_error)?))
        }
    };
    // The waveform goes to a temporary file beside its destination and is renamed there only
    // when the whole run succeeded: a failed run leaves an existing VCD as it was.
    let vcd_tmp = match to.vcd {
        Some(path) => Some(vcd_temporary(path).map_err(|e| failure(format!("{}: {e}", path.display())))?),
        None => None,
    };
    let values = match simulator {
        Simulator::Verilator => verilator(&emitted, &stim, &stimulus::outputs(&infos), vcd_tmp.as_deref(), to.vcd)?,
        Simulator::Icarus => icarus::replay(&emitted, &emitted.verilog, &stim, vcd_tmp.as_deref()).map_err(|e| failure(e.to_string()))?,
    };
    let outs = stimulus::outputs(&infos);
    let mut result = String::new();
    for v in &values {
        result += &stimulus::outputs_json(&outs, v);
        result.push('\n');
    }
    if let Some(path) = to.testbench {
        let tb = testbench::verilog(&emitted, &stim, testbench::Mode::Check(&values), None);
        crate::output::write_file(path, &tb).map_err(|e| failure(format!("{}: {e}", path.display())))?;
    }
    if let Some((path, sel, window)) = diagram {
        let json = wavedrom::wavejson(block, &sel, window, &stim, &values);
        crate::output::write_file(path, &json).map_err(|e| failure(format!("{}: {e}", path.display())))?;
    }
    match to.out {
        None => print!("{result}"),
        Some(path) => crate::output::write_file(path, &result).map_err(|e| failure(format!("{}: {e}", path.display())))?,
    }
    if let (Some(tmp), Some(path)) = (vcd_tmp, to.vcd) {
        tmp.persist(path).map_err(|e| failure(format!("{}: {}", path.display(), e.error)))?;
    }
    Ok(())
}

/// The replay in Verilator, through the cached model.
fn verilator(emitted: &Emitted, stim: &Stimulus, outputs: &[(String, usize)], vcd_tmp: Option<&Path>, vcd: Option<&Path>) -> Result<Vec<Vec<Words>>, Failure> {
    let model = warpgen_testbench::build_block(emitted, vcd_tmp.is_some()).map_err(|e| failure(e.to_string()))?;
    let mut sim = model.instantiate().map_err(|e| failure(e.to_string()))?;
    if let (Some(tmp), Some(path)) = (vcd_tmp, vcd) {
        sim.open_vcd(tmp).map_err(|e| failure(format!("{}: {e}", path.display())))?;
    }
    let values = sim.run_stimulus(stim, outputs).map_err(|e| failure(e.to_string()))?;
    drop(sim); // flushes and closes the VCD
    Ok(values)
}

/// A temporary file in the folder of `path` (removed when dropped), mode 0666 less the umask.
fn vcd_temporary(path: &Path) -> std::io::Result<tempfile::TempPath> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Ok(warpgen_sim::temp::file_in(dir, "vcd", ".tmp")?.into_temp_path())
}
