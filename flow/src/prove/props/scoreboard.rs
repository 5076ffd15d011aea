//! The properties of `scoreboard` (docs/contracts, spec): placeholder, to be written.

use warpgen_rtl::config::ScoreboardConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_scoreboard_props` for this config.
pub fn props(_c: &ScoreboardConfig, e: &Emitted) -> String {
    let mut s = super::header(e);
    s += "endmodule\n";
    s
}
