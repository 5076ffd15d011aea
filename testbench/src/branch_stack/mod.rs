//! Verification of the `branch_stack` block (spec `docs/spec/branch_stack.md`: the
//! branch control stack of CN 102289363 A with its data flow controller):
//!
//! * [`model`] — the reference model, written from the spec (§2–§4.4, §5.4, §5.5) only;
//! * [`directed`] — the directed test cases TC-01…TC-26 of spec §6 (and contract cases);
//! * [`stimulus`] — seeded random pipeline stimulus and functional coverage (for TC-27);
//! * [`ledger`] — the no-loss check of `producer_conflict = "stall"` (rule S1).
//!
//! The options of docs/blocks/branch_stack.md ("Options") are parameters of each:
//! `compound_flags`, `producer_conflict`, `perf_counters` (rule P1) and `thread_groups`
//! (rules G1–G7: a stack and a PC per thread group, save and restore).
//!
//! Every device under test (the model itself, or the Verilated RTL) is driven through
//! [`Dut`].

pub mod directed;
pub mod ledger;
pub mod model;
pub mod stimulus;
#[cfg(test)]
mod tests;

pub use model::{
    BoolOp, BranchStackInputs, BranchStackModel, BranchStackOutputs, BranchStackParams, CbBit,
    ErrFlags, StackEffect, StackOp,
};
pub use crate::kit::Dut;
pub use lockstep::BranchStack;

/// The reference model behind the [`Dut`] interface.
pub type ModelDut = crate::kit::ModelDut<BranchStack>;

pub mod lockstep;
pub mod rtl;
