//! X12 (`hold_producers`, contract R5h): a full consumer task waits while its producer task
//! keeps filling, up to `hold_producers` of them; more, or a table with no FREE entry, make the
//! producer leave. Expected values written by hand from the rule, on C0 with 8 entries and
//! `hold_producers` = 1 (every instance on tile pipe 0; default `depends`: DS on HS).

use super::check::*;
use super::*;

/// X12: HS A in c0 (entry 0); eight DS A in c1..c8 fill a DS task (entry 1, depending on the
/// HS task), PENDING(FULL) from c9. One holding consumer is not more than 1, so the HS task
/// stays OPEN and takes a second HS A in c10 (lane 1). Eight more DS A (c11..c18) fill a
/// second DS task (entry 2); in c19 two holding consumers are more than 1, so the HS task is
/// PENDING(DEP) from c20, leaves first (out in c21 with 2 instances), then the two DS tasks
/// in creation order (c22, c23).
pub fn x12_hold_producers(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X12", dut);
    r.step(r.i(HS, A, 100, 0), &[InReady(true)])?; // c0
    for k in 0..8 {
        r.step(r.i(DS, A, k, 0), &[InReady(true), OutValid(false)])?; // c1..c8
    }
    r.step(r.idle(), &[StOpen(0b01), StPending(0b10)])?; // c9: held
    r.step(r.i(HS, A, 101, 0), &[StOpen(0b01), StPending(0b10), InLane(1)])?; // c10
    r.step(r.i(DS, A, 8, 0), &[Key((HS, A), 2, 0b0001, Open)])?; // c11: DS task 2 opens
    for k in 9..16 {
        r.step(r.i(DS, A, k, 0), &[OutValid(false)])?; // c12..c18
    }
    r.step(r.idle(), &[StOpen(0b001), StPending(0b110), OutValid(false)])?; // c19: 2 > 1
    r.step(r.idle(), &[StPending(0b111), OutValid(false)])?; // c20
    r.step(r.idle(), &[Out(HS, A, 2, DEP, 0b0001)])?; // c21
    r.step(r.idle(), &[Out(DS, A, 8, FULL, 0b0001)])?; // c22
    r.step(r.idle(), &[Out(DS, A, 8, FULL, 0b0001)])?; // c23
    r.step(r.idle(), &[OutValid(false), StValid(0)])?; // c24
    Ok(())
}

/// X12/full: HS A in c0, eight DS A in c1..c8 (a full DS task from c9, held), then one VS
/// instance of each of the states 2..7 in c9..c14: entries 2..7, so from c15 no entry is
/// FREE and the hold ends: the HS task is PENDING(DEP) from c16 and leaves in c17 with its one
/// instance, the DS task in c18; the six VS tasks stay OPEN.
pub fn x12_hold_producers_full_table(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X12/full", dut);
    r.step(r.i(HS, A, 100, 0), &[InReady(true)])?; // c0
    for k in 0..8 {
        r.step(r.i(DS, A, k, 0), &[InReady(true), OutValid(false)])?; // c1..c8
    }
    for s in 2..8 {
        r.step(r.i(VS, s, 200 + s, 0), &[InReady(true), StPending(0b10)])?; // c9..c14: held
    }
    r.step(r.idle(), &[StValid(0xff), StOpen(0b1111_1101), StPending(0b10)])?; // c15: no FREE entry
    r.step(r.idle(), &[StPending(0b11), OutValid(false)])?; // c16
    r.step(r.idle(), &[Out(HS, A, 1, DEP, 0b0001)])?; // c17
    r.step(r.idle(), &[Out(DS, A, 8, FULL, 0b0001)])?; // c18
    r.step(r.idle(), &[OutValid(false), StValid(0b1111_1100), StOpen(0b1111_1100)])?; // c19
    Ok(())
}
