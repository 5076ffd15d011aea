//! The properties of `branch_stack` (docs/contracts, spec): placeholder, to be written.

use warpgen_rtl::config::BranchStackConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_branch_stack_props` for this config.
pub fn props(_c: &BranchStackConfig, e: &Emitted) -> String {
    let mut s = super::header(e);
    s += "endmodule\n";
    s
}
