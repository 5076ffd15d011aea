//! Verification of the `ict_scoreboard` block (spec `docs/spec/scoreboard.md`):
//!
//! * [`model`] — the reference model, written from the spec (§2, §6.2–§6.4) only;
//! * [`directed`] — the directed test cases of spec §6.5 (T01–T15, T17);
//! * [`stimulus`] — seeded random saturating-load stimulus and functional coverage (for T16).
//!
//! Every device under test (the model itself, or the Verilated RTL) is driven through
//! [`Dut`].

pub mod directed;
pub mod model;
pub mod stimulus;
#[cfg(test)]
mod tests;

pub use model::{ScoreboardInputs, ScoreboardModel, ScoreboardOutputs, ScoreboardParams};
pub use crate::kit::Dut;
pub use lockstep::Scoreboard;

/// The reference model behind the [`Dut`] interface.
pub type ModelDut = crate::kit::ModelDut<Scoreboard>;

pub mod lockstep;
pub mod rtl;
