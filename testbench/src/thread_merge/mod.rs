//! Verification of the `thread_merge` block (contract `docs/contracts/thread_merge.md`, spec
//! `shared/spec/thread_merge.md` §2, §4.4, §5: merging partially covered fragment quads
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
//! [`ThreadMergeDut`].

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

/// A cycle-driven thread_merge implementation.
pub trait ThreadMergeDut {
    fn params(&self) -> &ThreadMergeParams;
    /// apply inputs for this cycle, settle, return outputs (no clock edge)
    fn eval(&mut self, inp: &ThreadMergeInputs) -> ThreadMergeOutputs;
    /// one rising clock edge with the inputs last given to eval
    fn tick(&mut self);
}

/// The reference model behind the [`ThreadMergeDut`] interface.
#[derive(Debug, Clone)]
pub struct ModelDut {
    pub model: ThreadMergeModel,
    last: ThreadMergeInputs,
}

impl ModelDut {
    pub fn new(p: &ThreadMergeParams) -> Self {
        Self::from_model(ThreadMergeModel::new(p))
    }

    pub fn from_model(model: ThreadMergeModel) -> Self {
        let last = ThreadMergeInputs::idle(model.params());
        ModelDut { model, last }
    }
}

impl ThreadMergeDut for ModelDut {
    fn params(&self) -> &ThreadMergeParams {
        self.model.params()
    }

    fn eval(&mut self, inp: &ThreadMergeInputs) -> ThreadMergeOutputs {
        self.last = inp.clone();
        self.model.outputs(inp)
    }

    fn tick(&mut self) {
        self.model.clock(&self.last);
    }
}
