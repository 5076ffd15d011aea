//! X06 (`implicit_fence`, rule SB5 of docs/blocks/scoreboard.md; spec [0050], [0159]): an
//! instruction counted on a fenced tracker waits for that tracker of its own group to drain,
//! with no dependency mask; the counters of SB3 count that wait as `stall_dep`. Expected values
//! written by hand from the rules.

use super::*;

/// X06 at the default shape with tracker 0 fenced and the counters on: a second load on
/// tracker 0 of group 0 waits for the first (c1), a load on unfenced tracker 1 does not (c2, c4),
/// nor does a load of another group on its own tracker 0 (c3); this cycle's completion of the
/// first load does not release it before the edge (c5, no bypass), the next cycle does (c6); a
/// plain instruction (`iss_trk_en` 0, `iss_trk` 0) ignores the fence (c7); a fenced load with a
/// mask naming busy tracker 1 too is one stall, counted once as `stall_dep` (c8).
pub fn x06_implicit_fence(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("X06", dut);
    // Counters: issue, stall_issue, stall_dep, stall_sat, stall_fetch, err_underflow_ev, cpl_0, cpl_1.
    r.counts(r.iss(0, Some(0), 0, 0), [0; 8], &[Fire(true)])?; // c0: first load
    r.counts(r.iss(0, Some(0), 0, 0), [1, 0, 0, 0, 0, 0, 0, 0], &[Ready(false), Cnt(0, 0, 1)])?; // c1
    r.counts(r.iss(0, Some(1), 0, 0), [1, 1, 1, 0, 0, 0, 0, 0], &[Fire(true)])?; // c2: tracker 1
    r.counts(r.iss(1, Some(0), 0, 0), [2, 1, 1, 0, 0, 0, 0, 0], &[Fire(true)])?; // c3: group 1
    r.counts(r.iss(0, Some(1), 0, 0), [3, 1, 1, 0, 0, 0, 0, 0], &[Fire(true), Cnt(0, 1, 1)])?; // c4
    // c5: the first load completes on port 0 in this cycle; the second still waits.
    r.counts(r.iss(0, Some(0), 0, 0).cpl_on(0, 0, 0), [4, 1, 1, 0, 0, 0, 0, 0], &[Ready(false), Cnt(0, 0, 1)])?;
    r.counts(r.iss(0, Some(0), 0, 0), [4, 2, 2, 0, 0, 0, 1, 0], &[Fire(true), Cnt(0, 0, 0)])?; // c6
    r.counts(r.iss(0, None, 0, 0), [5, 2, 2, 0, 0, 0, 1, 0], &[Fire(true), Cnt(0, 0, 1)])?; // c7: plain
    r.counts(r.iss(0, Some(0), 0x02, 0), [6, 2, 2, 0, 0, 0, 1, 0], &[Ready(false)])?; // c8: both
    r.counts(r.idle(), [6, 3, 3, 0, 0, 0, 1, 0], &[Cnt(0, 0, 1), Cnt(0, 1, 2), Cnt(1, 0, 1)]) // c9
}
