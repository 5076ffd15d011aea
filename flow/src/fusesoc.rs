//! The FuseSoC core that `warpgen generate` writes beside the Verilog (`warpgen.core`, CAPI2),
//! and the files only it uses:
//!
//! * `warpgen_blocks.v`: module `warpgen_blocks`, every generated block side by side, its
//!   ports those of the blocks named `<block>_<port>` (one shared `clock`). It is the single
//!   top that lints or elaborates the whole set: Verilator's `--top-module`, which FuseSoC
//!   always passes, drops every module outside the top's hierarchy from the lint.
//! * `warpgen_ooc.v` and `warpgen_ooc.pcf`: the out-of-context wrapper of `warpgen synth`
//!   ([`crate::fpga::ooc_wrapper`]) around `warpgen_blocks`, and its iCE40 HX8K pins, for the
//!   `synth` target.
//!
//! Targets: `default` (the Verilog), `lint` (Verilator `-Wall` with `warpgen.vlt`), `sim`
//! (Icarus: the exported testbench when one was given, else an elaboration of every block)
//! and `synth` (Edalize's icestorm flow: Yosys, nextpnr-ice40, icepack). `docs/fusesoc.md`
//! tells how to use them.

use crate::fpga::{ooc_wrapper, pin_constraints, Target, OOC_TOP};
use crate::testbench::{instance_wired, range};
use std::fmt::Write as _;
use warpgen_rtl::Emitted;
use warpgen_sim::{Dir, PortInfo, CLOCK};

/// Module (and file stem) of the side-by-side top.
pub const BLOCKS_TOP: &str = "warpgen_blocks";
/// File name of the core.
pub const CORE_FILE: &str = "warpgen.core";

/// What the core describes besides the blocks.
pub struct CoreSpec<'a> {
    /// The config's name: its file's stem, `default` for the embedded config.
    pub config_name: &'a str,
    /// `[synth] clock_mhz`: nextpnr's target frequency in the `synth` target.
    pub clock_mhz: f64,
    /// An exported testbench (`warpgen sim --testbench`) as (file name, module), the `sim` top.
    pub testbench: Option<(&'a str, &'a str)>,
}

/// The VLNV name part: `name` with every character but letters, digits, `_` and `-` as `_`.
pub fn vlnv_name(name: &str) -> String {
    let s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    if s.is_empty() {
        "_".into()
    } else {
        s
    }
}

/// The core's VLNV: `warpgen:blocks:<config name>:<warpgen version>`.
pub fn vlnv(config_name: &str) -> String {
    format!("warpgen:blocks:{}:{}", vlnv_name(config_name), env!("CARGO_PKG_VERSION"))
}

/// The ports of `warpgen_blocks` but `clock`: every other port of every block as `<block>_<port>`.
fn blocks_ports(blocks: &[Emitted]) -> Vec<PortInfo> {
    let mut ports = Vec::new();
    for e in blocks {
        for info in e.ports.iter().map(|p| p.info()).filter(|p| !p.is_clock()) {
            ports.push(PortInfo { name: format!("{}_{}", e.block, info.name), ..info });
        }
    }
    ports
}

/// Verilog of `warpgen_blocks`: every block of `blocks`, each port wired to a top port.
pub fn blocks_top(blocks: &[Emitted]) -> String {
    let ports = blocks_ports(blocks);
    let mut v = String::new();
    let _ = writeln!(v, "// {BLOCKS_TOP}: every block of this set side by side, written by warpgen {}.", env!("CARGO_PKG_VERSION"));
    let _ = writeln!(v, "// Port <block>_<port> is port <port> of warpgen_<block>; the clock is shared. The single");
    let _ = writeln!(v, "// top that lints (FuseSoC target lint) or synthesizes (target synth) the whole set.");
    let _ = writeln!(v, "module {BLOCKS_TOP} (");
    let mut decls = vec![format!("    input  wire {CLOCK}")];
    for p in &ports {
        let dir = if p.dir == Dir::In { "input  wire" } else { "output wire" };
        decls.push(format!("    {dir} {}{}", range(p.width), p.name));
    }
    let _ = writeln!(v, "{}\n);", decls.join(",\n"));
    for e in blocks {
        v += &instance_wired(&e.top, e.block, e, |p| if p == CLOCK { CLOCK.to_string() } else { format!("{}_{p}", e.block) });
    }
    let _ = writeln!(v, "endmodule");
    v
}

/// A YAML double-quoted string.
fn quoted(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// The files of the core for `blocks` (already generated, in `files.f` order): (name, text) of
/// `warpgen_blocks.v`, `warpgen_ooc.v`, `warpgen_ooc.pcf` and `warpgen.core`.
pub fn core_files(blocks: &[Emitted], spec: &CoreSpec) -> Result<Vec<(String, String)>, String> {
    let wrapped: Vec<PortInfo> =
        std::iter::once(PortInfo { name: CLOCK.into(), dir: Dir::In, width: 1 }).chain(blocks_ports(blocks)).collect();
    let ooc = ooc_wrapper(BLOCKS_TOP, &wrapped).map_err(|e| e.to_string())?;
    let pcf = pin_constraints(Target::Ice40Hx8k);
    let version = env!("CARGO_PKG_VERSION");
    let names: Vec<&str> = blocks.iter().map(|e| e.block).collect();
    let mut c = String::new();
    c += "CAPI=2:\n";
    let _ = writeln!(c, "# FuseSoC core of warpgen {version}'s Verilog for config `{}`: {}.", spec.config_name, names.join(", "));
    c += "# Written by `warpgen generate`; every file it names is beside it. Targets and use: docs/fusesoc.md.\n";
    let _ = writeln!(c, "name: {}", vlnv(spec.config_name));
    let _ = writeln!(
        c,
        "description: {}",
        quoted(&format!("warpgen {version} GPU control blocks ({}), config {}", names.join(", "), spec.config_name))
    );
    c += "\nfilesets:\n";
    c += "  rtl:\n    file_type: verilogSource\n    files:\n";
    for e in blocks {
        let _ = writeln!(c, "      - {}", e.file_name);
    }
    let _ = writeln!(c, "  blocks_top:\n    file_type: verilogSource\n    files:\n      - {BLOCKS_TOP}.v");
    c += "  lint_waivers:\n    file_type: vlt\n    files:\n      - warpgen.vlt\n";
    let _ = writeln!(c, "  ooc:\n    files:\n      - {OOC_TOP}.v: {{file_type: verilogSource}}\n      - {OOC_TOP}.pcf: {{file_type: PCF}}");
    if let Some((file, _)) = spec.testbench {
        let _ = writeln!(c, "  tb:\n    file_type: verilogSource\n    files:\n      - {file}");
    }
    c += "\ntargets:\n";
    c += "  default:\n    filesets: [rtl]\n";
    c += "  lint:\n";
    let _ = writeln!(c, "    description: {}", quoted("Verilator -Wall lint of every block, with the waivers of warpgen.vlt"));
    let _ = writeln!(c, "    filesets: [lint_waivers, rtl, blocks_top]\n    toplevel: {BLOCKS_TOP}");
    c += "    flow: lint\n    flow_options:\n      tool: verilator\n      verilator_options: [-Wall]\n";
    c += "  sim:\n";
    match spec.testbench {
        Some((_, module)) => {
            let _ = writeln!(c, "    description: {}", quoted(&format!("Icarus Verilog runs the self-checking testbench {module}; a mismatch fails the run")));
            let _ = writeln!(c, "    filesets: [rtl, tb]\n    toplevel: {module}");
        }
        None => {
            let _ = writeln!(c, "    description: {}", quoted("Icarus Verilog elaborates every block (no testbench: warpgen generate --testbench adds one)"));
            let _ = writeln!(c, "    filesets: [rtl, blocks_top]\n    toplevel: {BLOCKS_TOP}");
        }
    }
    // vvp -N: a testbench's $stop (its FAIL) is a non-zero exit status.
    c += "    flow: sim\n    flow_options:\n      tool: icarus\n      iverilog_options: [-g2005]\n      vvp_options: [-N]\n";
    c += "  synth:\n";
    let what = format!(
        "iCE40 HX8K (CT256), every block out of context as warpgen synth wraps one: Yosys, nextpnr-ice40 at {} MHz, icepack",
        crate::fpga::mhz_text(spec.clock_mhz)
    );
    let _ = writeln!(c, "    description: {}", quoted(&what));
    let _ = writeln!(c, "    filesets: [rtl, blocks_top, ooc]\n    toplevel: {OOC_TOP}");
    let _ = writeln!(
        c,
        "    flow: icestorm\n    flow_options:\n      nextpnr_options: [--hx8k, --package, ct256, --freq, \"{}\"]",
        crate::fpga::mhz_text(spec.clock_mhz)
    );
    Ok(vec![
        (format!("{BLOCKS_TOP}.v"), blocks_top(blocks)),
        (format!("{OOC_TOP}.v"), ooc),
        (format!("{OOC_TOP}.pcf"), pcf),
        (CORE_FILE.into(), c),
    ])
}

/// The module a testbench file defines for one of `blocks`: the name of its first
/// `module warpgen_<block>_tb`, the block being one of `blocks`.
pub fn testbench_module(text: &str, blocks: &[&str]) -> Result<String, String> {
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("module ") else { continue };
        let name: String = rest.trim_start().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let block = name.strip_prefix("warpgen_").and_then(|n| n.strip_suffix("_tb"));
        return match block {
            Some(b) if blocks.contains(&b) => Ok(name),
            _ => Err(format!(
                "its module is `{name}`, not warpgen_<block>_tb for a generated block ({}); write it with warpgen sim BLOCK --testbench",
                blocks.join(", ")
            )),
        };
    }
    Err("no `module` in it: give a testbench written by warpgen sim BLOCK --testbench".into())
}
