//! warpgen's FPGA flow: everything that runs FPGA tools on generated Verilog.
//!
//! * [`fpga`]: out-of-context synthesis, placement and timing of any Verilog design
//!   (Yosys, nextpnr), the wrapper and constraints it needs, and the reports' parsing;
//! * [`synth`]: `warpgen synth`, every block of a config through [`fpga`], its table and JSON;
//! * [`qor`]: the QoR baseline and its gate (`warpgen synth --check`);
//! * [`prove`]: `warpgen prove`, a block's properties checked with SymbiYosys, and its
//!   counterexamples as stimulus;
//! * [`icarus`] and [`testbench`]: the second simulator (Icarus Verilog) and self-checking
//!   Verilog testbenches of a stimulus (`warpgen_sim::stimulus`);
//! * [`fusesoc`]: the FuseSoC core `warpgen generate` writes, and the tops it uses;
//! * [`sweep`], [`results`] and [`plot`]: `warpgen sweep`, a grid of configs measured into
//!   a CSV, and its plots.
//!
//! The crate knows blocks only through `warpgen_rtl::generate`; the one thing it cannot do
//! alone, a sweep's lockstep rate, is handed in by the caller ([`sweep::SimRate`]).

pub mod fpga;
pub mod fusesoc;
pub mod icarus;
pub mod plot;
pub mod prove;
pub mod qor;
pub mod report;
pub mod results;
pub mod sweep;
pub mod synth;
pub mod testbench;
