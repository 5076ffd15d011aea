//! warpgen's verification: block models written from the specs, stimulus
//! generators, the RTL adapters that drive the Verilated blocks through the same
//! interface as the models, and the lockstep checker.

pub mod branch_stack;
pub mod global_spreader;
pub mod harness;
pub mod kit;
pub mod perf;
pub mod scoreboard;
pub mod sim_rate;
pub mod smoke;
pub mod task_combiner;
pub mod thread_merge;

pub use harness::build_block;
