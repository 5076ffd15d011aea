//! The properties of `global_spreader` (docs/contracts, spec): placeholder, to be written.

use warpgen_rtl::config::GlobalSpreaderConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_global_spreader_props` for this config.
pub fn props(_c: &GlobalSpreaderConfig, e: &Emitted) -> String {
    let mut s = super::header(e);
    s += "endmodule\n";
    s
}
