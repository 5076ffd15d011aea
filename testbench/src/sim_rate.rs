//! `warpgen sweep --sim`'s measurement: lockstep cycles per second of a block at a config,
//! the one place that binds block names to their lockstep types for the sweep.

use crate::kit::{lockstep_rate, Block};
use warpgen_rtl::Config;

/// Lockstep cycles of a `warpgen sweep --sim` measurement.
pub const SIM_CYCLES: u64 = 100_000;
/// Seed of a `warpgen sweep --sim` measurement.
const SIM_SEED: u64 = 7;

/// Lockstep cycles per second of `block` at `config` (`warpgen sweep --sim`, a
/// `warpgen_flow::sweep::SimRate`): the one per-block match of the sweep.
pub fn sim_rate(block: &str, config: &Config) -> Result<f64, String> {
    sim_rate_for(block, config, SIM_CYCLES)
}

/// [`sim_rate`] over `cycles` cycles.
pub fn sim_rate_for(block: &str, config: &Config, cycles: u64) -> Result<f64, String> {
    /// The rate of block `B` whose model parameters come from its config table `c`.
    fn rate<'a, B: Block, C: 'a>(c: &'a C, cycles: u64) -> Result<f64, String>
    where
        B::Params: From<&'a C>,
    {
        lockstep_rate::<B>(&B::Params::from(c), SIM_SEED, cycles)
    }
    macro_rules! rate_named {
        ($config:expr, $block:expr, $cycles:expr; $($b:ident $c:ident $m:ident),*) => {
            match $block {
                $(stringify!($b) => rate::<crate::$b::$m, _>($config.$b()?, $cycles),)*
                other => Err(format!("--sim: block `{other}` has no lockstep binding in sim_rate::sim_rate")),
            }
        };
    }
    warpgen_rtl::for_each_block!(rate_named!(config, block, cycles))
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpgen_rtl::config::BLOCK_NAMES;

    /// Every block measures at its default config: the model parameters converted from the
    /// config drive the RTL generated from the same config in lockstep without a mismatch.
    #[test]
    fn every_block_has_a_rate_at_its_default_config() {
        let config = Config::embedded(&[]).unwrap();
        for block in BLOCK_NAMES {
            let r = sim_rate_for(block, &config, 2_000).unwrap_or_else(|e| panic!("{block}: {e}"));
            assert!(r > 0.0, "{block}: {r}");
        }
        assert!(sim_rate_for("nope", &config, 10).is_err());
    }
}
