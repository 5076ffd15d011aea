//! Verification of the `ict_scoreboard` block (spec `shared/spec/scoreboard.md`):
//!
//! * [`model`] — the reference model, written from the spec (§2, §6.2–§6.4) only;
//! * [`directed`] — the directed test cases of spec §6.5 (T01–T15, T17);
//! * [`stimulus`] — seeded random saturating-load stimulus and functional coverage (for T16).
//!
//! Every device under test (the model itself, or the Verilated RTL) is driven through
//! [`ScoreboardDut`].

pub mod directed;
pub mod model;
pub mod stimulus;
#[cfg(test)]
mod tests;

pub use model::{ScoreboardInputs, ScoreboardModel, ScoreboardOutputs, ScoreboardParams};

/// A cycle-driven scoreboard implementation.
pub trait ScoreboardDut {
    fn params(&self) -> &ScoreboardParams;
    /// apply inputs for this cycle, settle, return outputs (no clock edge)
    fn eval(&mut self, inp: &ScoreboardInputs) -> ScoreboardOutputs;
    /// one rising clock edge with the inputs last given to eval
    fn tick(&mut self);
}

/// The reference model behind the [`ScoreboardDut`] interface.
#[derive(Debug, Clone)]
pub struct ModelDut {
    pub model: ScoreboardModel,
    last: ScoreboardInputs,
}

impl ModelDut {
    pub fn new(p: &ScoreboardParams) -> Self {
        ModelDut {
            model: ScoreboardModel::new(p),
            last: ScoreboardInputs::idle(p),
        }
    }
}

impl ScoreboardDut for ModelDut {
    fn params(&self) -> &ScoreboardParams {
        self.model.params()
    }

    fn eval(&mut self, inp: &ScoreboardInputs) -> ScoreboardOutputs {
        self.last = inp.clone();
        self.model.outputs(inp)
    }

    fn tick(&mut self) {
        self.model.clock(&self.last);
    }
}

pub mod lockstep;
pub mod rtl;
