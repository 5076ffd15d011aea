//! warpgen's hardware: the blocks (rust-hdl), their TOML configuration and
//! Verilog emission. This crate spawns no process; lint, synthesis and
//! simulation live in `warpgen-sim`.

pub mod config;
pub mod emit;
pub mod scoreboard;

pub use config::{Config, ConfigError, Origin};

/// Verilator lint waivers for the emitted Verilog, one reason per rule
/// (`rtl/lint/warpgen.vlt`; `generate` writes it next to the Verilog).
pub const LINT_WAIVERS: &str = include_str!("../lint/warpgen.vlt");

/// One emitted block: its file name, top module, Verilog text and top ports.
pub struct Emitted {
    pub block: &'static str,
    /// `warpgen_<block>`
    pub top: String,
    /// `warpgen_<block>.v`
    pub file_name: String,
    pub verilog: String,
    pub ports: Vec<emit::Port>,
}

/// Generates the Verilog of `block` from `config` (which must hold that block).
pub fn generate(config: &Config, block: &str) -> Result<Emitted, String> {
    let (wrapper, params, core) = match block {
        "scoreboard" => {
            let cfg = config.scoreboard()?;
            (scoreboard::wrapper(cfg), scoreboard::header_params(cfg), scoreboard::core_verilog(cfg)?)
        }
        other => return Err(format!("block `{other}` is not built in this version of warpgen")),
    };
    let ports: Vec<emit::Port> = wrapper.ports().cloned().collect();
    let header = emit::header(block, &params, &ports.iter().collect::<Vec<_>>());
    let verilog = format!("{header}{}\n{}", wrapper.verilog(), emit::finish_modules(block, &core));
    let name = config::BUILT_BLOCKS.iter().find(|b| **b == block).expect("matched above");
    Ok(Emitted {
        block: name,
        top: format!("warpgen_{block}"),
        file_name: format!("warpgen_{block}.v"),
        verilog,
        ports,
    })
}
