//! The properties of `task_combiner` (docs/contracts, spec): placeholder, to be written.

use warpgen_rtl::config::TaskCombinerConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_task_combiner_props` for this config.
pub fn props(_c: &TaskCombinerConfig, e: &Emitted) -> String {
    let mut s = super::header(e);
    s += "endmodule\n";
    s
}
