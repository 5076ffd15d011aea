//! Spec §11.2 T21–T28: per-type capacity, the baseline, issued producers, implied
//! dependencies (T24x of contract §6), flushes in the same cycle or empty, drain, capacity 1.

use super::check::*;
use super::*;

/// T21 Per-shader-type capacity: an HS task leaves full at 4 lanes, a VS task needs 8.
pub fn t21_capacity_per_type(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T21", dut);
    for k in 0..4 {
        r.step(r.i(HS, A, k, 0), &[InLane(k)])?; // c0..c3
    }
    r.step(r.idle(), &[Key((HS, A), 4, 1, Pending)])?; // c4
    r.step(
        r.idle(),
        &[
            Out(HS, A, 4, FULL, 1),
            OutMask(0x0F),
            OutRefs(vec![0, 1, 2, 3]),
        ],
    )?; // c5
    for k in 0..8 {
        let exp = if k == 4 {
            vec![InLane(4), Key((VS, A), 4, 1, Open), OutValid(false)]
        } else {
            vec![InLane(k)]
        };
        r.step(r.i(VS, A, 10 + k, 0), &exp)?; // c6..c13
    }
    r.step(r.idle(), &[Key((VS, A), 8, 1, Pending)])?; // c14
    r.step(r.idle(), &[Out(VS, A, 8, FULL, 1), OutMask(0xFF)])?; // c15
    Ok(())
}

/// T22 Baseline (no HELD): a full DS task drags its one-instance HS producer out at 1/8.
pub fn t22_baseline(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T22", dut);
    r.step(r.i(HS, C, 200, 0), &[Cap("Th")])?; // c0
    for k in 0..8 {
        r.step(r.i(DS, C, 300 + k, 0), &[InLane(k)])?; // c1..c8
    }
    r.step(
        r.idle(),
        &[
            Key((DS, C), 8, 1, Pending),
            Key((HS, C), 1, 1, Open),
            Deps(vec![((DS, C), vec![(HS, C)])]),
        ],
    )?; // c9
    r.step(r.idle(), &[Key((HS, C), 1, 1, Pending), OutValid(false)])?; // c10
    r.step(
        r.idle(),
        &[Out(HS, C, 1, DEP, 1), OutTag("Th"), OutRefs(vec![200])],
    )?; // c11
    r.step(
        r.idle(),
        &[Out(DS, C, 8, FULL, 1), OutRefs((300..308).collect())],
    )?; // c12
    r.step(r.idle(), &[OutValid(false), Perf(2, 9)])?; // c13
    Ok(())
}

/// T23 A producer that has issued (or is moving into the slot at the accept edge) is not
/// a dependency.
pub fn t23_issued_producer(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T23", dut);
    r.step(r.i(VS, C, 1, 0), &[Cap("Tv")])?; // c0
    r.step(r.idle().drain(), &[])?; // c1

    // c2: VS/C moves into the slot at this edge while HS/C is accepted into E1.
    r.step(r.i(HS, C, 2, 0), &[StPending(1), InReady(true), InLane(0)])?;
    r.step(
        r.i(VS, D, 3, 3),
        &[Out(VS, C, 1, DRAIN, 1), Ent(1, HS, C, 1, 1, Open), DepNone],
    )?; // c3 → E0
    r.step(r.idle().rqf(3), &[])?; // c4
    r.step(r.idle(), &[Key((VS, D), 1, 0b1000, Pending)])?; // c5
    r.step(r.idle(), &[Out(VS, D, 1, RQF, 0b1000)])?; // c6
    r.step(r.i(HS, D, 4, 0), &[RqfDone(true), InReady(true)])?; // c7: VS/D has issued
    r.step(
        r.idle(),
        &[Key((HS, D), 1, 1, Open), Key((HS, C), 1, 1, Open), DepNone],
    )?; // c8
    Ok(())
}

/// T24x (contract §6, replacing T24): a VS instance never depends on anything; an HS/C
/// instance has no producer while only VS/D is resident; HS and GS pick up VS/A.
pub fn t24x_implied_deps(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T24x", dut);
    r.step(r.i(HS, A, 1, 0), &[])?; // c0 → E0
    r.step(r.i(VS, A, 2, 0), &[DepNone])?; // c1 → E1
    r.step(r.i(VS, A, 3, 0), &[DepNone])?; // c2
    r.step(r.i(VS, D, 4, 0), &[DepNone])?; // c3 → E2
    r.step(r.i(HS, C, 5, 0), &[DepNone])?; // c4 → E3
    r.step(r.i(HS, A, 6, 0), &[DepNone, Key((HS, C), 1, 1, Open)])?; // c5 → E0 (append)
    r.step(r.i(GS, A, 7, 0), &[Deps(vec![((HS, A), vec![(VS, A)])])])?; // c6 → E4
    r.step(
        r.idle(),
        &[
            Deps(vec![((HS, A), vec![(VS, A)]), ((GS, A), vec![(VS, A)])]),
            StOpen(0b11111),
        ],
    )?; // c7
    Ok(())
}

/// T25 A flush in the same cycle as an instance that creates (or appends to) a locked
/// task, or as a lock, includes it.
pub fn t25_same_cycle_flush(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T25", dut);
    r.step(r.i(VS, A, 1, 1).rqf(1), &[InReady(true), RqfReady(true)])?; // c0
    r.step(
        r.idle(),
        &[RqfReady(false), Ent(0, VS, A, 1, 0b0010, Pending)],
    )?; // c1
    r.step(r.idle(), &[Out(VS, A, 1, RQF, 0b0010)])?; // c2
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(1), OutValid(false)])?; // c3

    // Variant: a lock of an open entry in the flush cycle.
    r.step(r.i(VS, B, 2, 0), &[RqfDone(false), Cap("TB")])?; // c4
    let tb = r.tag("TB");
    r.step(r.i(VS, C, 3, 2), &[])?; // c5
    r.step(r.idle().lk(tb, 1).rqf(1), &[RqfReady(true)])?; // c6
    r.step(
        r.idle(),
        &[
            LkHit(true),
            RqfReady(false),
            Key((VS, B), 1, 0b0011, Pending),
            Key((VS, C), 1, 0b0100, Open),
        ],
    )?; // c7
    r.step(r.idle(), &[Out(VS, B, 1, RQF, 0b0011), OutTag("TB")])?; // c8
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(1), OutValid(false)])?; // c9

    // Variant: an instance appended to an open entry in the flush cycle.
    r.step(r.i(VS, C, 4, 3).rqf(3), &[InLane(1)])?; // c10
    r.step(r.idle(), &[Key((VS, C), 2, 0b1100, Pending)])?; // c11
    r.step(r.idle(), &[Out(VS, C, 2, RQF, 0b1100), OutRefs(vec![3, 4])])?; // c12
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(3), StValid(0)])?; // c13
    Ok(())
}

/// T26 An empty flush completes in n+1 with no output.
pub fn t26_empty_flush(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T26", dut);
    r.step(r.idle().rqf(3), &[RqfReady(true)])?; // c0, empty table
    r.step(
        r.i(VS, A, 1, 0),
        &[RqfDone(true), RqfDoneTp(3), RqfReady(true), OutValid(false)],
    )?; // c1
    r.step(r.idle().rqf(3), &[RqfDone(false), RqfReady(true)])?; // c2, VS/A locked tp0 only
    r.step(
        r.idle(),
        &[
            RqfDone(true),
            RqfDoneTp(3),
            RqfReady(true),
            Key((VS, A), 1, 1, Open),
            OutValid(false),
        ],
    )?; // c3
    r.repeat(4, r.idle(), &[RqfDone(false), OutValid(false), StOpen(1)]) // c4..c7
}

/// T27 Drain: no input while `drain_req`; the VS/C → HS/C → DS/C chain and VS/A leave
/// with reason DRAIN in dependency order (same-state first); `drain_done` when empty.
pub fn t27_drain(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T27", dut);
    r.step(r.i(VS, C, 1, 0), &[])?;
    r.step(r.i(HS, C, 2, 0), &[])?;
    r.step(r.i(DS, C, 3, 0), &[])?;
    r.step(r.i(VS, A, 4, 0), &[])?; // c3
    let d = r.i(VS, C, 5, 0).drain();
    r.step(
        d.clone(),
        &[InReady(false), DrainDone(false), StOpen(0b1111)],
    )?; // c4 = n
    r.step(
        d.clone(),
        &[InReady(false), DrainDone(false), StPending(0b1111)],
    )?; // c5
    r.step(d.clone(), &[InReady(false), Out(VS, C, 1, DRAIN, 1)])?; // c6
    r.step(d.clone(), &[InReady(false), Out(HS, C, 1, DRAIN, 1)])?; // c7
    r.step(d.clone(), &[InReady(false), Out(DS, C, 1, DRAIN, 1)])?; // c8
    r.step(
        d.clone(),
        &[
            InReady(false),
            Out(VS, A, 1, DRAIN, 1),
            DrainDone(false),
            StValid(0),
        ],
    )?; // c9
    r.step(
        d.clone(),
        &[InReady(false), DrainDone(true), OutValid(false), StValid(0)],
    )?; // c10
    let go = r.i(VS, C, 5, 0);
    r.step(go, &[InReady(true), DrainDone(false), Perf(4, 4)])?; // c11: released
    r.step(r.idle(), &[Key((VS, C), 1, 1, Open)])?;
    Ok(())
}

/// T28 Capacity 1: 50 instances at one per cycle give 50 one-lane FULL tasks in
/// acceptance order, one per cycle from c2.
pub fn t28_capacity_one(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T28", dut);
    // Instance k: type k%4 (VS, HS, DS, GS in turn), state 1 + (k/4)%3, tile pipe k%4.
    let inst = |k: u64| (k % 4, 1 + (k / 4) % 3, 1000 + k, k % 4);
    for c in 0..52u64 {
        let mut exp = vec![];
        if c >= 2 {
            let (s, st, rf, tp) = inst(c - 2);
            exp.extend([
                Out(s, st, 1, FULL, 1 << tp),
                OutRefs(vec![rf]),
                OutMask(1),
                DepNone,
            ]);
        } else {
            exp.push(OutValid(false));
        }
        let inp = if c < 50 {
            let (s, st, rf, tp) = inst(c);
            exp.extend([InReady(true), InLane(0)]);
            r.i(s, st, rf, tp)
        } else {
            r.idle()
        };
        r.step(inp, &exp)?;
    }
    r.step(r.idle(), &[OutValid(false), StValid(0), Perf(50, 50)])?; // c52
    Ok(())
}
