//! The properties of `thread_merge` (docs/contracts, spec): placeholder, to be written.

use warpgen_rtl::config::ThreadMergeConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_thread_merge_props` for this config.
pub fn props(_c: &ThreadMergeConfig, e: &Emitted) -> String {
    let mut s = super::header(e);
    s += "endmodule\n";
    s
}
