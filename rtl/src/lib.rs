//! warpgen's hardware: the blocks (rust-hdl), their TOML configuration and
//! Verilog emission. This crate spawns no process; lint, synthesis and
//! simulation live in `warpgen-sim`.

pub mod branch_stack;
pub mod config;
pub mod emit;
pub mod global_spreader;
pub mod hdl;
pub mod mem;
pub mod netlist;
pub mod perf;
pub mod scoreboard;
pub mod task_combiner;
pub mod thread_merge;

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
    /// Every parameter, resolved, as the file header lists them.
    pub params: Vec<(String, String)>,
}

/// What every block provides to the emitter. A block's config type implements
/// it; [`generate`] does the rest (header, exact-width top module, renaming).
pub trait BlockGen {
    /// Block name: the TOML table and the `warpgen_<name>` module prefix.
    const NAME: &'static str;
    /// The exact-width top module's ports, bound to the rust-hdl core's ports.
    fn wrapper(&self) -> emit::Wrapper;
    /// Every parameter, resolved, for the file header.
    fn header_params(&self) -> Vec<(String, String)>;
    /// rust-hdl's Verilog of the core (module `top` and its submodules).
    fn core_verilog(&self) -> Result<String, String>;
}

/// Emits one block from its validated config.
pub fn emit_block<B: BlockGen>(cfg: &B) -> Result<Emitted, String> {
    let block = B::NAME;
    let wrapper = cfg.wrapper();
    let ports: Vec<emit::Port> = wrapper.ports().cloned().collect();
    let params = cfg.header_params();
    let header = emit::header(block, &params, &ports.iter().collect::<Vec<_>>());
    let core = emit::finish_modules(block, &cfg.core_verilog()?);
    Ok(Emitted {
        block,
        top: format!("warpgen_{block}"),
        file_name: format!("warpgen_{block}.v"),
        verilog: format!("{header}{}\n{core}", wrapper.verilog()),
        ports,
        params,
    })
}

/// Generates the Verilog of `block` from `config` (which must hold that block).
pub fn generate(config: &Config, block: &str) -> Result<Emitted, String> {
    macro_rules! emit_named {
        ($config:expr, $block:expr; $($b:ident $c:ident $m:ident),*) => {
            match $block {
                $(stringify!($b) => emit_block($config.$b()?),)*
                other => Err(format!(
                    "block `{other}` is not built in this version of warpgen (built: {})",
                    config::BLOCK_NAMES.join(", ")
                )),
            }
        };
    }
    for_each_block!(emit_named!(config, block))
}
