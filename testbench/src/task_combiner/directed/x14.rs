//! X14 (`registered_input`, contract R2i): the instance enters the table through the input
//! register IR. An instance handed over (`in_valid && in_ready`) in cycle n enters in n+1 at
//! the earliest, with its tag and lane on `in_tag` / `in_lane` under `in_tag_valid` then, is in
//! `st_*` at n+2 and, filling a task, on the out port at n+3 (one cycle later than R2's);
//! `in_ready = !drain_req && (IR empty || entering)`; IR's instance enters while `drain_req`
//! too, and `drain_done` waits for IR to empty; a victim (R3) is chosen for IR's instance.
//! Expected values written by hand from the rule, on C0 with `registered_input` (5 entries,
//! width 8, capacity 8, ENT_W 3; `out_ready` = 1 throughout).
//!
//! R2i with R8 (R1: R8 acts on the entries OPEN in the registered state): an entry created by IR's instance at an edge where
//! `drain_req` is high is OPEN after that edge and becomes PENDING(DRAIN) at the next one; an
//! instance appended at such an edge to an entry OPEN before it goes PENDING(DRAIN) with it.

use super::check::*;
use super::*;

/// X14, cycle by cycle:
///
/// * c0..c7: eight VS A instances handed over back to back (refs 100..107, the second on
///   tile pipe 1). The first enters in c1 (creates entry 0: `in_tag_valid`, lane 0, tag T;
///   `st_valid` still 0), the second in c2 (appends to the entry the first created in c1:
///   tag T, lane 1; entry 0 in `st_*` from c2, count 1), ..., the eighth (handed over in
///   n = c7) in c8, lane 7: PENDING(FULL) in c9, on the out port in c10 = n+3.
/// * c11: HS B (tile pipe 2) handed over; c12..c16 `drain_req` with VS C presented (never
///   handed over: `in_ready` 0). c12: IR's HS B enters while `drain_req` (lane 0, entry 0,
///   tag H, a new generation of T), `drain_done` 0 although the table and slot are empty;
///   c13: IR empty, `in_ready` still 0, entry 0 OPEN; c14 PENDING(DRAIN); c15 out;
///   c16 `drain_done`.
/// * c17..c22: VS C, A, B, D, 5, 6 handed over; the first five enter c18..c22 (entries
///   0..4). c23: IR's VS 6 finds no match and no FREE entry: it waits (`in_ready` 0,
///   `in_tag_valid` 0) and entry 0, the oldest of the fullest, is the victim (PENDING(EVICT)
///   in c24, out in c25), so VS 6 enters in c25 into entry 0 and VS 7 is handed over then;
///   VS 7 waits in c26 and c27 (victim entry 1, VS A) and enters in c28 into entry 1.
/// * c30: VS 5 handed over (tile pipe 1); c31 `drain_req` rises as it enters: it appends to
///   entry 4 (lane 1), and every entry is PENDING(DRAIN) in c32; they leave one per cycle,
///   the oldest first (c33..c37), VS 5 with its two instances; `drain_done` in c38.
pub fn x14_registered_input(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X14", dut);
    // Two back-to-back instances of one new key, then a full task.
    r.step(r.i(VS, A, 100, 0), &[InReady(true), InTagValid(false), StValid(0), OutValid(false), DrainDone(false)])?; // c0
    r.step(r.i(VS, A, 101, 1), &[InReady(true), InTagValid(true), InLane(0), Cap("T"), StValid(0)])?; // c1
    r.step(
        r.i(VS, A, 102, 0),
        &[InReady(true), InTagValid(true), InTag("T"), InLane(1), Ent(0, VS, A, 1, 0b0001, Open), EntryTag(0, "T")],
    )?; // c2
    for k in 3..8 {
        r.step(
            r.i(VS, A, 100 + k, 0),
            &[InReady(true), InTagValid(true), InTag("T"), InLane(k - 1), Ent(0, VS, A, k - 1, 0b0011, Open), OutValid(false)],
        )?; // c3..c7 (n = c7)
    }
    r.step(r.idle(), &[InReady(true), InTagValid(true), InTag("T"), InLane(7), Ent(0, VS, A, 7, 0b0011, Open)])?; // c8
    r.step(r.idle(), &[InReady(true), InTagValid(false), Ent(0, VS, A, 8, 0b0011, Pending), OutValid(false)])?; // c9
    r.step(
        r.idle(),
        &[Out(VS, A, 8, FULL, 0b0011), OutTag("T"), OutRefs((100..108).collect()), StValid(0), InTagValid(false)],
    )?; // c10 = n+3

    // Drain with an instance in IR.
    r.step(r.i(HS, B, 200, 2), &[InReady(true), InTagValid(false), OutValid(false), Perf(1, 8)])?; // c11
    let vc = r.i(VS, C, 300, 0).drain();
    r.step(
        vc.clone(),
        &[InReady(false), InTagValid(true), InLane(0), Cap("H"), SameIndex("T"), InTagNot("T"), DrainDone(false), StValid(0)],
    )?; // c12
    r.step(
        vc.clone(),
        &[InReady(false), InTagValid(false), DrainDone(false), Ent(0, HS, B, 1, 0b0100, Open), EntryTag(0, "H")],
    )?; // c13
    r.step(vc.clone(), &[InReady(false), DrainDone(false), Ent(0, HS, B, 1, 0b0100, Pending), OutValid(false)])?; // c14
    r.step(vc.clone(), &[InReady(false), DrainDone(false), Out(HS, B, 1, DRAIN, 0b0100), OutTag("H"), StValid(0)])?; // c15
    r.step(vc, &[InReady(false), DrainDone(true), OutValid(false), Perf(2, 9)])?; // c16

    // A full table: IR's instance waits, and a victim is chosen for it.
    r.step(r.i(VS, C, 300, 0), &[InReady(true), InTagValid(false), DrainDone(false)])?; // c17
    r.step(r.i(VS, A, 301, 0), &[InReady(true), InTagValid(true), InLane(0), SameIndex("T"), StValid(0)])?; // c18
    let keys = [C, A, B, D, 5];
    for (k, s) in [B, D, 5, 6].into_iter().enumerate() {
        // c19..c22: VS B, D, 5, 6 handed over; the key handed over two cycles before is in entry k.
        r.step(
            r.i(VS, s, 302 + k as u64, 0),
            &[InReady(true), InTagValid(true), InLane(0), Ent(k, VS, keys[k], 1, 0b0001, Open), StValid((1 << (k + 1)) - 1)],
        )?;
    }
    let v7 = r.i(VS, 7, 306, 0);
    r.step(
        v7.clone(),
        &[InReady(false), InTagValid(false), Ent(4, VS, 5, 1, 0b0001, Open), StValid(0b11111), StOpen(0b11111), OutValid(false)],
    )?; // c23: VS 6 waits; victim entry 0
    r.step(v7.clone(), &[InReady(false), InTagValid(false), Ent(0, VS, C, 1, 0b0001, Pending), StPending(0b00001), OutValid(false)])?; // c24
    r.step(
        v7,
        &[Out(VS, C, 1, EVICT, 0b0001), StValid(0b11110), InReady(true), InTagValid(true), InLane(0), SameIndex("T"), Cap("V6")],
    )?; // c25: VS 6 enters entry 0, VS 7 handed over
    r.step(
        r.idle(),
        &[InReady(false), InTagValid(false), StValid(0b11111), StOpen(0b11111), Ent(0, VS, 6, 1, 0b0001, Open), EntryTag(0, "V6"), OutValid(false)],
    )?; // c26: VS 7 waits; victim entry 1 (VS A, the oldest)
    r.step(r.idle(), &[InReady(false), InTagValid(false), Ent(1, VS, A, 1, 0b0001, Pending), StPending(0b00010)])?; // c27
    r.step(r.idle(), &[Out(VS, A, 1, EVICT, 0b0001), InReady(true), InTagValid(true), InLane(0), StValid(0b11101)])?; // c28
    r.step(r.idle(), &[InReady(true), InTagValid(false), Ent(1, VS, 7, 1, 0b0001, Open), StValid(0b11111), OutValid(false)])?; // c29

    // drain_req rises as IR's instance enters: it appends to an OPEN entry, which drains with it.
    r.step(r.i(VS, 5, 310, 1), &[InReady(true), InTagValid(false)])?; // c30
    r.step(r.idle().drain(), &[InReady(false), InTagValid(true), InLane(1), DrainDone(false), StPending(0)])?; // c31
    r.step(
        r.idle().drain(),
        &[InReady(false), InTagValid(false), StPending(0b11111), Ent(4, VS, 5, 2, 0b0011, Pending), OutValid(false), DrainDone(false)],
    )?; // c32
    for (s, n, lk) in [(B, 1, 0b0001), (D, 1, 0b0001), (5, 2, 0b0011), (6, 1, 0b0001), (7, 1, 0b0001)] {
        r.step(r.idle().drain(), &[Out(VS, s, n, DRAIN, lk), DrainDone(false), InReady(false)])?; // c33..c37
    }
    r.step(r.idle().drain(), &[DrainDone(true), OutValid(false), StValid(0), Perf(9, 17)])?; // c38
    Ok(())
}
