//! Verification of the `thread_merge` block (contract `docs/contracts/thread_merge.md`, spec
//! `docs/spec/thread_merge.md` §2, §4.4, §5: merging partially covered fragment quads
//! into one thread group at a merge instruction):
//!
//! * [`model`] — the reference model, written from the contract and the spec only;
//! * [`compare`] — what lockstep compares each cycle (contract §5);
//! * [`directed`] — the spec's §5.8 cases under contract §6 (T1–T28, K1–K4, added X cases)
//!   and the exhaustive pair table;
//! * [`stimulus`] — seeded random stimulus with the contract §5 scheduler model, functional
//!   coverage and the invariant checker;
//! * [`workload`] — synthetic edge-coverage workloads and the lane-utilization benchmark.
//!
//! Every device under test (the model itself, or the Verilated RTL) is driven through
//! [`Dut`].

pub mod compare;
pub mod directed;
pub mod model;
pub mod stimulus;
#[cfg(test)]
mod tests;
pub mod workload;
pub mod lockstep;
pub mod rtl;

pub use model::{ThreadMergeInputs, ThreadMergeModel, ThreadMergeOutputs, ThreadMergeParams};
pub use crate::kit::Dut;
pub use lockstep::ThreadMerge;

/// The reference model behind the [`Dut`] interface.
pub type ModelDut = crate::kit::ModelDut<ThreadMerge>;

