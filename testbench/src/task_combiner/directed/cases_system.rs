//! System scenarios S1/S2 of spec §11.4: Fig. 7's task of 6 of 8 lanes on one tile pipe,
//! and a task shared across tiles flushed per pipe.

use super::check::*;
use super::*;

/// S1 (spec §11.4, Figs. 6/7): tile pipe 2 renders P0–P3 of state A with an empty cache:
/// v0, v1, v2 miss; P1 hits v2 and v1 scheduled (a lock) and misses v3; P2 misses v4;
/// P3 misses v5. One VS task of 6 lanes; the end-of-tile flush outputs it with reason
/// RQFLUSH — Fig. 7's task 702: 6 of 8 lanes.
pub fn s1_fig7(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("S1", dut);
    let v = |k: u64| 0x600 + k; // LUT references of v0..v5
    r.step(r.i(VS, A, v(0), 2), &[Cap("T")])?; // c0: P0
    r.step(r.i(VS, A, v(1), 2), &[InTag("T")])?;
    r.step(r.i(VS, A, v(2), 2), &[InTag("T")])?;
    let t = r.tag("T");
    r.step(r.i(VS, A, v(3), 2).lk(t, 2), &[InTag("T"), InLane(3)])?; // c3: P1
    r.step(r.i(VS, A, v(4), 2), &[LkHit(true), InLane(4)])?; // c4: P2
    r.step(r.i(VS, A, v(5), 2), &[LkHit(false), InLane(5)])?; // c5: P3
    r.step(
        r.idle().rqf(2),
        &[Ent(0, VS, A, 6, 0b0100, Open), OutValid(false)],
    )?; // c6: end of tile
    r.step(
        r.idle(),
        &[Ent(0, VS, A, 6, 0b0100, Pending), RqfReady(false)],
    )?; // c7
    r.step(
        r.idle(),
        &[
            Out(VS, A, 6, RQF, 0b0100),
            OutMask(0x3F),
            OutTag("T"),
            OutRefs((0..6).map(v).collect()),
        ],
    )?; // c8
    r.step(
        r.idle(),
        &[
            RqfDone(true),
            RqfDoneTp(2),
            RqfReady(true),
            Perf(1, 6),
            OutValid(false),
        ],
    )?; // c9: 6/8 lanes
    r.step(r.idle(), &[RqfDone(false)])?;
    Ok(())
}

/// S2 (spec §11.4): P0 also covers a tile on pipe 0 while the task is open: all three
/// vertices hit-scheduled, lock for pipe 0 → lockmask 0101. A flush of pipe 0 outputs the
/// task; a later flush of pipe 2 finds nothing and completes at once.
pub fn s2_cross_tile_flush(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("S2", dut);
    for k in 0..3 {
        r.step(
            r.i(VS, A, 0x600 + k, 2),
            &[if k == 0 { Cap("T") } else { InTag("T") }],
        )?; // c0..c2
    }
    let t = r.tag("T");
    r.step(r.idle().lk(t, 0), &[])?; // c3
    r.step(
        r.idle().lk(t, 0),
        &[LkHit(true), Ent(0, VS, A, 3, 0b0101, Open)],
    )?; // c4
    r.step(
        r.idle().rqf(0),
        &[LkHit(true), Ent(0, VS, A, 3, 0b0101, Open)],
    )?; // c5
    r.step(r.idle(), &[Ent(0, VS, A, 3, 0b0101, Pending)])?; // c6
    r.step(r.idle(), &[Out(VS, A, 3, RQF, 0b0101), OutTag("T")])?; // c7
    r.step(
        r.idle().rqf(2),
        &[RqfDone(true), RqfDoneTp(0), RqfReady(true)],
    )?; // c8
    r.step(
        r.idle(),
        &[RqfDone(true), RqfDoneTp(2), OutValid(false), StValid(0)],
    )?; // c9
    Ok(())
}
