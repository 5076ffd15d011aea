//! # scoreboard — instruction completion trackers ("explicit scoreboard")
//!
//! Per-thread-group counters of outstanding reorderable instructions (loads,
//! stores, texture lookups, varyings), after CN104217393A as specified in
//! `docs/spec/scoreboard.md`. Implements spec §2.1–§2.8 (counters, increment on
//! issue and decrement on completion, issue gating on a dependency set, fetch
//! gating by the next instruction's set (Fig. 5), saturation stall at a
//! tracker's maximum, fences as dependency sets, the scoreboard branch over two
//! sets, or three or four with `branch_sets` (B20: "two or more" sets)) through the
//! ports of §6.3 and the cycle semantics of §6.4.
//!
//! ## Structure
//! `warpgen_scoreboard` (exact-width ports, written by [`crate::emit::Wrapper`])
//! → `warpgen_scoreboard_core` (selection by thread-group id, the sticky error)
//! → one `warpgen_scoreboard_groups` per thread group ([`TrackerGroup`]: the
//! counters and wait mask of that group and its four set queries).
//!
//! Files: `tracker_group.rs` ([`TrackerGroup`]), `core_design.rs` ([`ScoreboardCore`]),
//! `emit.rs` (the exact ports and the header).
//!
//! ## Scoreboard branch (`branch_sets`, docs/blocks/scoreboard.md rules SB1, SB2)
//! Each group answers every set (`sat_a`, `sat_b`, `sat_x[s]` for set C + s); the core
//! selects the group `br_tg` names and takes the first satisfied set in the order A, B,
//! C, D: `br_go` = some set satisfied, and the index of the first is `{br_sel_hi, br_sel_b}`
//! (the core's `br_sel_b` is its bit 0: the `br_sel_b` port at 2 sets, `br_sel[0]` above).
//! At the default 2 the extra vectors are empty and the Verilog is that of the two-set block.
//!
//! ## Implicit fences (`implicit_fence`, docs/blocks/scoreboard.md rule SB5)
//! Spec [0050], [0159] (B19): an instruction counted on a listed tracker also depends on that
//! tracker of its group. The core ORs the tracker's bit into the group's issue mask
//! (`iss_mask`) when `iss_trk_en` names it, so each group's issue test, increment and
//! `iss_ready` see the one set; with `perf_counters` the `stall_dep` event sees it too. An
//! empty list (the default) emits nothing: the Verilog of the block without the key.
//!
//! ## Fetch gating over the branch's sets (`branch_fetch_gate`, docs/blocks/scoreboard.md rule SB6)
//! Spec [0144], [0145], §8 item 7. Each group registers `branch_sets` - 1 more wait masks
//! (`wait_x_q`, sets B ..), latched at a fire: the branch's set with `iss_nxt_br`, else
//! `iss_nxt_mask` again, so that without a branch every kept set is set A and "some set
//! drained" is "set A drained". `fetch_ok` ORs the sets' drained tests, and the group's issue
//! test then takes it whole (the per-tracker halves test the issue's own set only): one LUT
//! level more on the issue path. Off (the default) the vectors are empty: the Verilog of the
//! block without the key.
//!
//! ## Performance counters (`perf_counters`, docs/blocks/scoreboard.md rules SB3, SB4)
//! Off by default (no port, no logic: the Verilog of the block without the key). On, the core
//! holds one [`crate::perf::PerfBank`] of 6 + `completion_ports` counters read through
//! `perf_sel` / `perf_val` and cleared by `perf_clr` or reset (docs/perf.md): `issue`
//! (`iss_fire`), `stall_issue` (`iss_valid & !iss_ready`), the stall causes `stall_dep`,
//! `stall_sat`, `stall_fetch` of the group `iss_tg` names (each that holds; from the groups'
//! `zero`, `full`, `fetch_ok`), `err_underflow_ev` (each group's `uf_ev`: this edge's
//! underflow, or a completion naming no group) and `cpl_<p>` (`cpl_valid[p]`). `err_clr`
//! clears every underflow flag (per tracker, per group, the core's) unless this edge sets it.
//!
//! ## Cycle timing
//! * Registered: every counter `cnt[g][t]` (`counter_width` bits), every wait
//!   mask `wait_mask[g]` (`trackers` bits), and the sticky underflow. For
//!   speed, each counter also registers copies of `cnt != 0` and
//!   `cnt >= max_count` and its own sticky underflow flag (`err_underflow` is
//!   the OR of these flags, one per group for a tracker id it lacks, and one
//!   for a group id that names no group). These are functions of the state
//!   above, so the ports behave exactly as if only it were registered.
//! * Combinational from the registered state and this cycle's inputs, with no
//!   bypass from this cycle's completions (§6.4.3): `iss_ready`, `iss_fire`,
//!   `fetch_ok`, `chk_ok`, `br_*` (every `branch_sets`), `trk_zero`, `trk_full`, `tg_idle`,
//!   `cnt_flat`, `err_underflow` (an OR of registers); with `perf_counters`, `perf_val`
//!   (a multiplexer over the counter registers).
//! * Critical path (FPGA): a counter's nonzero flag → its group's issue test
//!   (two halves of `nz & (wait | iss_dep_mask)`) → the tracker's increment →
//!   the choice between the precomputed next states; 4 to 5 LUTs. Each group
//!   decides its own issue (`go`, and per tracker `sel`, which holds that
//!   tracker's own room): no counter waits for the selection of `iss_ready`
//!   among the groups or of `iss_room` among the trackers, which only drive the
//!   ports. The next state of every counter is computed for both outcomes of the
//!   issue from the registers and completions alone, and the count arithmetic is
//!   bitwise logic, not carry chains (see [`TrackerGroup`]). iCE40 HX8K, default
//!   config: 108.5 MHz median over nextpnr seeds 1–3, 1209 LUT4 (`make synth`).
//!   With `perf_counters` the critical path is the underflow event into its counter's
//!   enable: 60.8 MHz, 1740 LUT4, 512 FF at seed 1 (111.3 MHz, 1228 LUT4 without).
//! * At the rising edge: `cnt' = max(0, cnt + inc - completions)`; a completion
//!   that finds nothing to count down sets `err_underflow`. A completion in
//!   cycle *n* releases a dependent instruction in cycle *n+1*. One issue and
//!   `completion_ports` completions are taken every cycle with no bubble.
//!
//! ## Deviations from the spec's proposal (§6.2–§6.4)
//! * `clock` / `reset` instead of `clk` / `rst_n`: reset is synchronous and
//!   active high (project convention). It clears counters, wait masks and
//!   `err_underflow`. `err_clr` (with `perf_counters`) clears `err_underflow` too, but an
//!   underflow of the same edge wins.
//! * `clr_valid` takes effect even when the group is not idle (the proposal
//!   calls that illegal and leaves it undefined): the group's counters and wait
//!   mask are zeroed, overriding that cycle's issue and completions for the
//!   group. Underflow is still detected for those completions.
//! * A thread-group id at or above `thread_groups` (possible when it is not a
//!   power of two) names no group: `iss_ready`, `chk_ok`, `br_sat_a/b` are 0
//!   for it (likewise `br_sat_c/d`, hence `br_go`, `br_sel`), `clr` of it does nothing, and a completion naming it — or a
//!   tracker id at or above `trackers` — sets `err_underflow` (a completion for
//!   a counter that is not outstanding).
//! * `iss_fire` is an output (as proposed) and is not gated by `reset`.
//! * `branch_sets` (not in the spec's §6.2): 3 or 4 sets add `br_mask_c/d` and
//!   `br_sat_c/d`, and `br_sel[1:0]` (index of the first satisfied set, A first; the
//!   §8 item 2 proposal extended) replaces `br_sel_b`. By default fetch gating (one wait
//!   mask per group) does not cover the branch's sets: the branch is fetched and stalls on
//!   `br_go` (§8 item 7); `branch_fetch_gate` (below) makes it cover them.
//! * `branch_fetch_gate` (not in the spec's §6.2; rule SB6): inputs `iss_nxt_br` and
//!   `iss_nxt_mask_b` (`_c`, `_d` with `branch_sets`); a fire with `iss_nxt_br` keeps the
//!   branch's sets and `fetch_ok` opens when any one has drained.
//! * The spec's §6.5 default has tracker 7 limited to 1; warpgen's default is
//!   the §6.2 one (every tracker at 2^counter_width-1). `max_count` sets either.

use crate::config::ScoreboardConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{constant, signals};
use rust_hdl::prelude::*;

/// Width of a thread-group or tracker id inside the core. The top module's ids
/// are exact (`ceil(log2 n)` bits) and zero-extended to this; see `emit`.
pub const ID_BITS: usize = 8;
type Id = Bits<ID_BITS>;

/// A thread-group or tracker id as a constant.
fn id(v: usize) -> Constant<Id> {
    constant(v as u64)
}

/// The `w` bits of `v`, LSB first, as constants.
fn bits_of(v: u64, w: usize) -> Vec<Constant<Bit>> {
    (0..w).map(|b| Constant::new((v >> b) & 1 == 1)).collect()
}

mod tracker_group;
mod core_design;
mod emit;
pub use tracker_group::*;
pub use core_design::*;
