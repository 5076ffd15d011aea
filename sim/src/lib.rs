//! warpgen-sim: an in-process Verilator harness.
//!
//! Give it Verilog text and a top module ([`BuildSpec`]); it returns a [`Model`] whose
//! [`Sim`] instances are driven port by port from Rust. It knows nothing of the blocks it
//! simulates.
//!
//! ```no_run
//! use warpgen_sim::{BuildSpec, Verilator};
//! # fn main() -> Result<(), warpgen_sim::SimError> {
//! let verilog = "module counter(input clock, input reset, output reg [7:0] count);\n\
//!                initial count = 0;\n\
//!                always @(posedge clock) count <= reset ? 8'd0 : count + 8'd1;\n\
//!                endmodule\n";
//! let model = Verilator::find()?.build(&BuildSpec::new("counter").source("counter.v", verilog))?;
//! let mut sim = model.instantiate()?;
//! let (reset, count) = (sim.port("reset")?, sim.port("count")?);
//! sim.set(reset, 0)?;
//! sim.tick()?;
//! assert_eq!(sim.get(count), 1);
//! # Ok(()) }
//! ```
//!
//! # Mechanism
//!
//! [`Verilator::build`] verilates the design to C++ (`verilator --cc`), reads the ports from
//! the generated `V<top>.h`, generates a small header (`wg_ports.h`) listing them, and
//! compiles the design together with a fixed C++ shim (`cpp/wg_shim.cpp`) into a shared
//! library, which is loaded into this process with `libloading`. The shim exports plain C
//! functions: create and destroy an instance (each with its own `VerilatedContext`, so
//! instances are independent), evaluate, tick, trace, and the address of each port's member
//! in the Verilated model object. [`Sim::set`] and [`Sim::get`] read and write those
//! members directly, with the member's own storage size (8, 16, 32, 64 bits, or an array of
//! 32-bit words beyond 64), so a cycle costs little more than Verilator's own evaluation.
//!
//! The simulation runs in-process, not in a child process, for throughput: a lockstep
//! testbench exchanges a few values with the design every cycle, and a process boundary
//! would cost microseconds per exchange where a direct memory access costs nanoseconds.
//! [`Model::replay_bench`] measures the C++ baseline (a standalone program looping over the
//! same model objects) and [`Sim::replay`] the same loop through the harness.
//!
//! One cost is specific to a loaded library: each access to a thread-local variable is a
//! call into the dynamic loader, and Verilator's `eval()` makes several per call (thread
//! bookkeeping that only multi-threaded models need). So, when the generated `eval_step`
//! has exactly the known single-threaded shape (checked at build time; otherwise `eval()` is
//! used), the shim evaluates with its body minus that bookkeeping, and it keeps Verilator's
//! per-thread "current context" pointer right (instances may move between threads) without
//! reading it on every call. Measured with `examples/harness_bench.rs`: a design of a few
//! registers runs through the harness at about 0.7 times the speed of the C++ loop (about
//! 15 ns more per cycle), and designs whose evaluation costs a microsecond at about the same
//! speed.
//!
//! # Errors instead of aborts
//!
//! Verilator's runtime normally ends the process on `$fatal`, `$stop`, a failed assertion
//! or a combinational loop that does not converge. The build replaces those hooks
//! (`VL_USER_FATAL`, `VL_USER_STOP`, `VL_USER_FINISH`) with functions that throw a C++
//! exception, caught in the shim around every evaluation and returned to Rust as
//! [`SimError::Died`], with Verilator's message and the simulation's recent output (where
//! the `$fatal` text is). The instance is dead after that: every later evaluation returns
//! the same error. `$finish` lets the evaluation complete and is reported as
//! [`SimError::Finished`] by it and every later one. Verilator's convergence limit bounds
//! every evaluation, so a combinational loop ends in an error, never in a hang.
//! `$display` output goes to this process's stdout.
//!
//! Simulations are deterministic: X values are zero (`--x-assign 0 --x-initial 0`).
//! Verilator lint warnings do not stop a simulation build (see [`verilator_lint`] for lint);
//! Verilator errors do, and [`SimError::CommandFailed`] carries all of Verilator's output.
//!
//! # Cache
//!
//! Builds are cached in a directory: [`Verilator::with_cache_root`] if given, else
//! `$WARPGEN_SIM_CACHE`, else `$XDG_CACHE_HOME/warpgen/sim`, else
//! `$HOME/.cache/warpgen/sim` ([`default_cache_root`]). Its entries:
//!
//! - `m-<hash>/`: a model. The hash covers the Verilator version, every source name and
//!   text, the top module, the trace flag, the extra arguments and the harness's own C++ and
//!   flags. It holds `src/`, the shim sources, `wg_ports.h`, `obj/` (Verilator's output,
//!   the objects and `libwgsim.so`) and `build.log`.
//! - `rt-<hash>/`: the Verilator runtime objects (`verilated.o`, …) and the hooks, compiled
//!   once per set of compiler settings and linked into every model: they are most of a
//!   cold build's time.
//! - `b-<hash>/`: the replay benchmark program of one model.
//! - `tool-versions/`: the version of each Verilator executable seen, so that loading a
//!   cached model runs no Verilator process at all ([`Model::was_cached`]).
//! - `locks/`: one lock file per entry name. A build holds its entry's lock, so threads and
//!   processes that need the same entry at once build it once: the others wait, then load it.
//!
//! Every entry is built in a temporary directory (`.tmp-*`) inside the root and renamed
//! into place when complete: a present entry is always whole. Entries are never modified
//! afterwards; delete the root to reclaim space.

#![warn(missing_docs)]

mod builder;
pub mod cache;
mod error;
mod ffi;
mod library;
mod lint;
mod model;
mod ports;
mod sim;
pub mod stimulus;
pub mod temp;
pub mod tool;
mod verilator;

pub use cache::{default_cache_root, CACHE_ENV};
pub use error::{SimError, ICE40_INSTALL};
pub use lint::{lint_source, verilator_lint, yosys_check, YosysReport};
pub use model::Model;
pub use ports::{Dir, PortInfo, CLOCK};
pub use sim::{fold_checksum, BenchReport, PortId, Sim, CHECKSUM_INIT};
pub use verilator::{BuildSpec, Verilator};
