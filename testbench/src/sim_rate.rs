//! `warpgen sweep --sim`'s measurement: lockstep cycles per second of a block at a config,
//! the one place that binds block names to their lockstep types for the sweep.

use crate::kit::lockstep_rate;
use warpgen_rtl::Config;

/// Lockstep cycles of a `warpgen sweep --sim` measurement.
pub const SIM_CYCLES: u64 = 100_000;
/// Seed of a `warpgen sweep --sim` measurement.
const SIM_SEED: u64 = 7;

/// Lockstep cycles per second of `block` at `config` (`warpgen sweep --sim`, a
/// `warpgen_flow::sweep::SimRate`): the one per-block match of the sweep.
pub fn sim_rate(block: &str, config: &Config) -> Result<f64, String> {
    match block {
        "scoreboard" => lockstep_rate::<crate::scoreboard::lockstep::Scoreboard>(
            &crate::scoreboard::rtl::params_for(config.scoreboard()?),
            SIM_SEED,
            SIM_CYCLES,
        ),
        "branch_stack" => lockstep_rate::<crate::branch_stack::lockstep::BranchStack>(
            &crate::branch_stack::rtl::params_for(config.branch_stack()?),
            SIM_SEED,
            SIM_CYCLES,
        ),
        other => Err(format!("--sim: block `{other}` has no lockstep binding in sim_rate::sim_rate")),
    }
}
