//! Verification of the `branch_stack` block (spec `shared/spec/branch_stack.md`: the
//! branch control stack of CN 102289363 A with its data flow controller):
//!
//! * [`model`] — the reference model, written from the spec (§2–§4.4, §5.4, §5.5) only;
//! * [`directed`] — the directed test cases TC-01…TC-26 of spec §6 (and contract cases);
//! * [`stimulus`] — seeded random pipeline stimulus and functional coverage (for TC-27).
//!
//! Every device under test (the model itself, or the Verilated RTL) is driven through
//! [`BranchStackDut`].

pub mod directed;
pub mod model;
pub mod stimulus;
#[cfg(test)]
mod tests;

pub use model::{
    BoolOp, BranchStackInputs, BranchStackModel, BranchStackOutputs, BranchStackParams, CbBit,
    ErrFlags, StackEffect, StackOp,
};

/// A cycle-driven branch-stack implementation.
pub trait BranchStackDut {
    fn params(&self) -> &BranchStackParams;
    /// apply inputs for this cycle, settle, return outputs (no clock edge)
    fn eval(&mut self, inp: &BranchStackInputs) -> BranchStackOutputs;
    /// one rising clock edge with the inputs last given to eval
    fn tick(&mut self);
}

/// The reference model behind the [`BranchStackDut`] interface.
#[derive(Debug, Clone)]
pub struct ModelDut {
    pub model: BranchStackModel,
    last: BranchStackInputs,
}

impl ModelDut {
    pub fn new(p: &BranchStackParams) -> Self {
        ModelDut {
            model: BranchStackModel::new(p),
            last: BranchStackInputs::idle(p),
        }
    }
}

impl BranchStackDut for ModelDut {
    fn params(&self) -> &BranchStackParams {
        self.model.params()
    }

    fn eval(&mut self, inp: &BranchStackInputs) -> BranchStackOutputs {
        self.last = inp.clone();
        self.model.outputs(inp)
    }

    fn tick(&mut self) {
        self.model.clock(&self.last);
    }
}

pub mod lockstep;
pub mod rtl;
