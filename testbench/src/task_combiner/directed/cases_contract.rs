//! Cases for rules that only the contract states (X01–X08): lock at the handshake edge,
//! ready without valid, ties, reason priority (R10), back-to-back flushes, the extreme configs, D3.

use super::check::*;
use super::*;
use crate::task_combiner::Mask;

/// X01 (contract R6): a lock of the slot task at its handshake edge hits but the bit is
/// lost; a lock of an entry at the edge it moves into the slot goes with it.
pub fn x01_lock_at_move_and_leave(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X01", dut);
    r.step(r.i(VS, A, 1, 0), &[Cap("TA")])?; // c0
    let ta = r.tag("TA");
    r.step(r.idle().drain(), &[])?; // c1
    r.step(r.idle(), &[StPending(1)])?; // c2
    r.step(r.idle().lk(ta, 2), &[Out(VS, A, 1, DRAIN, 0b0001)])?; // c3: handshake edge
    r.step(r.i(VS, B, 2, 0), &[LkHit(true), OutValid(false), Cap("TB")])?; // c4
    let tb = r.tag("TB");
    r.step(r.idle().drain(), &[LkHit(false)])?; // c5
    r.step(r.idle().lk(tb, 3), &[StPending(1)])?; // c6: VS/B moves at this edge
    r.step(
        r.idle(),
        &[LkHit(true), Out(VS, B, 1, DRAIN, 0b1001), OutTag("TB")],
    )?; // c7
        // A lock of the slot task that stays: the bit shows on out_lockmask the next cycle.
    r.step(r.i(VS, C, 3, 1), &[Cap("TC")])?; // c8
    let tc = r.tag("TC");
    r.step(r.idle().drain(), &[])?; // c9
    r.step(r.idle().ready(false), &[StPending(1)])?; // c10
    r.step(
        r.idle().ready(false).lk(tc, 0),
        &[Out(VS, C, 1, DRAIN, 0b0010)],
    )?; // c11
    r.step(r.idle(), &[LkHit(true), Out(VS, C, 1, DRAIN, 0b0011)])?; // c12
    Ok(())
}

/// X02 (contract R2, R3): `in_ready` does not depend on `in_valid`; no victim is chosen
/// for a key that is not presented with `in_valid`.
pub fn x02_ready_without_valid(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X02", dut);
    let quiet = |r: &Run, s: u64, st: u64| {
        let mut i = r.i(s, st, 0, 0);
        i.in_valid = false;
        i
    };
    r.step(quiet(&r, GS, A), &[InReady(true)])?; // c0: empty table
    for (k, st) in [A, B, C, D].into_iter().enumerate() {
        r.step(r.i(VS, st, k as u64, 0), &[InReady(true)])?; // c1..c4
    }
    r.step(quiet(&r, VS, B), &[InReady(true), StValid(0b1111)])?; // c5: a match
    r.repeat(
        5,
        quiet(&r, GS, A),
        &[InReady(false), StPending(0), OutValid(false)],
    )?; // c6..c10
    r.step(quiet(&r, VS, B).drain(), &[InReady(false)])?; // c11: drain blocks even a match
    r.step(r.idle(), &[StPending(0b1111)])?; // c12
    Ok(())
}

/// X03 (contract R3): FULLEST breaks a count tie towards the oldest entry.
pub fn x03_fullest_tie(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X03", dut);
    for (k, st) in [A, B, A, B, C, D].into_iter().enumerate() {
        r.step(r.i(VS, st, k as u64, 0), &[])?; // c0..c5: E0 A ×2, E1 B ×2, E2 C, E3 D
    }
    let gs = r.i(GS, C, 9, 0);
    r.step(gs.clone(), &[InReady(false)])?; // c6
    r.step(gs.clone(), &[Ent(0, VS, A, 2, 1, Pending), StPending(1)])?; // c7
    r.step(gs, &[Out(VS, A, 2, EVICT, 1), InReady(true)])?; // c8
    Ok(())
}

/// X04 (contract R10): reason priority at one edge — RQFLUSH over DRAIN, FULL over DEP,
/// DEP over RQFLUSH.
pub fn x04_reason_priority(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X04", dut);
    // RQFLUSH > DRAIN: VS/A locked tp1 is in the snapshot, VS/B only drained.
    r.step(r.i(VS, A, 1, 1), &[])?; // c0
    r.step(r.i(VS, B, 2, 2), &[])?; // c1
    let d = r.idle().drain();
    r.step(d.clone().rqf(1), &[RqfReady(true)])?; // c2
    r.step(d.clone(), &[StPending(0b11), RqfReady(false)])?; // c3
    r.step(d.clone(), &[Out(VS, A, 1, RQF, 0b0010)])?; // c4
    r.step(
        d.clone(),
        &[Out(VS, B, 1, DRAIN, 0b0100), RqfDone(true), RqfDoneTp(1)],
    )?; // c5
    r.step(d, &[DrainDone(true)])?; // c6

    // FULL > DEP: VS/C (7 lanes, tp0) and HS/C (tp1); HS/C is flushed; the 8th VS/C
    // instance is accepted at the edge where DEP reaches VS/C.
    for k in 0..7 {
        r.step(r.i(VS, C, 10 + k, 0), &[InLane(k)])?; // c7..c13
    }
    r.step(r.i(HS, C, 20, 1), &[])?; // c14
    r.step(r.idle().rqf(1), &[])?; // c15
    r.step(
        r.i(VS, C, 17, 0),
        &[
            Key((HS, C), 1, 0b0010, Pending),
            Key((VS, C), 7, 1, Open),
            InLane(7),
        ],
    )?; // c16
    r.step(r.idle(), &[Key((VS, C), 8, 1, Pending)])?; // c17
    r.step(r.idle(), &[Out(VS, C, 8, FULL, 1)])?; // c18
    r.step(r.idle(), &[Out(HS, C, 1, RQF, 0b0010)])?; // c19
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(1), OutValid(false)])?; // c20

    // DEP > RQFLUSH: HS/D (tp1) fills and is PENDING(FULL); a flush of tp0 in that cycle
    // snapshots its producer VS/D (tp0), which DEP reaches at the same edge.
    r.step(r.i(VS, D, 30, 0), &[RqfDone(false)])?; // c21
    for k in 0..8 {
        r.step(r.i(HS, D, 40 + k, 1), &[InLane(k)])?; // c22..c29
    }
    r.step(
        r.idle().rqf(0),
        &[Key((HS, D), 8, 0b0010, Pending), Key((VS, D), 1, 1, Open)],
    )?; // c30
    r.step(r.idle(), &[Key((VS, D), 1, 1, Pending), RqfReady(false)])?; // c31
    r.step(r.idle(), &[Out(VS, D, 1, DEP, 1), RqfDone(false)])?; // c32
    r.step(
        r.idle(),
        &[Out(HS, D, 8, FULL, 0b0010), RqfDone(true), RqfDoneTp(0)],
    )?; // c33
    Ok(())
}

/// X04 on C1 (contract R10): EVICT over RQFLUSH — the victim is also in the snapshot.
pub fn x04_evict_over_rqflush(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X04/c1", dut);
    r.step(r.i(VS, A, 1, 0), &[])?; // c0
    r.step(r.i(VS, A, 2, 0), &[])?; // c1
    r.step(r.i(VS, B, 3, 1), &[])?; // c2
    r.step(r.i(VS, C, 4, 1), &[])?; // c3
    r.step(r.i(VS, D, 5, 1), &[])?; // c4
    r.step(r.i(GS, B, 6, 1).rqf(0), &[InReady(false), RqfReady(true)])?; // c5
    r.step(
        r.i(GS, B, 6, 1),
        &[
            Ent(0, VS, A, 2, 1, Pending),
            StPending(1),
            RqfReady(false),
            InReady(false),
        ],
    )?; // c6
    r.step(r.i(GS, B, 6, 1), &[Out(VS, A, 2, EVICT, 1), InReady(true)])?; // c7
    r.step(
        r.idle(),
        &[
            RqfDone(true),
            RqfDoneTp(0),
            OutValid(false),
            Ent(0, GS, B, 1, 0b0010, Open),
        ],
    )?; // c8
    Ok(())
}

/// X05 (contract R7): `rqf_ready` is 1 again in the `rqf_done` cycle; a flush accepted
/// then (empty) pulses `rqf_done` again with its own pipe.
pub fn x05_flush_back_to_back(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X05", dut);
    r.step(r.i(VS, A, 1, 0), &[])?; // c0
    r.step(r.idle().rqf(0), &[])?; // c1
    r.step(r.idle().rqf(2), &[RqfReady(false)])?; // c2: held, not accepted
    r.step(r.idle().rqf(2), &[RqfReady(false), Out(VS, A, 1, RQF, 1)])?; // c3
    r.step(
        r.idle().rqf(2),
        &[RqfReady(true), RqfDone(true), RqfDoneTp(0)],
    )?; // c4: accepted
    r.step(r.idle(), &[RqfReady(true), RqfDone(true), RqfDoneTp(2)])?; // c5
    r.step(r.idle(), &[RqfReady(true), RqfDone(false)])?; // c6
    Ok(())
}

/// X06 (1 entry, width 4, 1 generation bit): a new key evicts the only task; tags cycle
/// through two generations, so a stale tag hits the task two creations later.
pub fn x06_one_entry_gen_wrap(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X06", dut);
    r.step(r.i(0, 0, 1, 0), &[InReady(true), Cap("T1")])?; // c0
    r.step(r.i(1, 0, 0, 1), &[InReady(false)])?; // c1: new key, no free entry
    r.step(
        r.i(1, 0, 0, 1),
        &[InReady(false), Ent(0, 0, 0, 1, 1, Pending)],
    )?; // c2
    r.step(
        r.i(1, 0, 0, 1),
        &[
            Out(0, 0, 1, EVICT, 1),
            OutTag("T1"),
            InReady(true),
            InTagNot("T1"),
            Cap("T2"),
        ],
    )?; // c3
    r.step(
        r.i(0, 1, 1, 1),
        &[
            Ent(0, 1, 0, 1, 0b10, Open),
            EntryTag(0, "T2"),
            DepNone,
            InReady(false),
        ],
    )?; // c4
    r.step(r.i(0, 1, 1, 1), &[InReady(false)])?; // c5
    r.step(
        r.i(0, 1, 1, 1),
        &[Out(1, 0, 1, EVICT, 0b10), InReady(true), InTag("T1")],
    )?; // c6: tag wraps
    let t1 = r.tag("T1");
    r.step(r.i(0, 1, 0, 0).lk(t1, 0), &[InTag("T1"), InLane(1)])?; // c7
    r.step(
        r.i(0, 1, 1, 1),
        &[LkHit(true), Ent(0, 0, 1, 2, 0b11, Open), InLane(2)],
    )?; // c8
    r.step(r.i(0, 1, 0, 1), &[InLane(3)])?; // c9: 4th = full
    r.step(r.idle(), &[Ent(0, 0, 1, 4, 0b11, Pending)])?; // c10
    r.step(
        r.idle(),
        &[
            Out(0, 1, 4, FULL, 0b11),
            OutMask(0xF),
            OutRefs(vec![1, 0, 1, 0]),
        ],
    )?; // c11
    Ok(())
}

/// X07 (128 entries, the most; every other key at its maximum but the lanes, 4; 8 shader
/// types): 128 keys fill the table; the fullest (entry 5, 2 lanes) is evicted for a
/// user-type instance, which depends on nothing.
pub fn x07_wide_table(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X07", dut);
    for k in 0..128u64 {
        r.step(
            r.i(VS, 1 + k, 0xFFFF_0000 + k, k % 8),
            &[InReady(true), InLane(0)],
        )?; // c0..c127
    }
    r.step(
        r.i(VS, 6, 0xFFFF_FFFF, 7),
        &[InLane(1), StValid(Mask::MAX), StOpen(Mask::MAX)],
    )?; // c128 → entry 5
    let user = r.i(7, 1, 1, 3);
    r.step(
        user.clone(),
        &[InReady(false), Ent(5, VS, 6, 2, 0b1010_0000, Open)],
    )?; // c129
    r.step(
        user.clone(),
        &[
            InReady(false),
            Ent(5, VS, 6, 2, 0b1010_0000, Pending),
            StPending(1 << 5),
        ],
    )?; // c130
    r.step(
        user,
        &[
            Out(VS, 6, 2, EVICT, 0b1010_0000),
            OutRefs(vec![0xFFFF_0005, 0xFFFF_FFFF]),
            InReady(true),
            InLane(0),
        ],
    )?; // c131
    r.step(
        r.idle(),
        &[Ent(5, 7, 1, 1, 0b1000, Open), DepNone, StValid(Mask::MAX)],
    )?; // c132
    Ok(())
}

/// X08 (contract D3): a producer that is PENDING but not moving into the slot (the slot
/// is blocked) is a dependency of a consumer accepted meanwhile.
pub fn x08_pending_producer(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X08", dut);
    let stall = r.idle().ready(false);
    for k in 0..8 {
        r.step(stall.clone().inst(VS, A, k, 0), &[InLane(k)])?; // c0..c7 → E0, slot from c9
    }
    for k in 0..8 {
        r.step(stall.clone().inst(VS, C, 10 + k, 0), &[InLane(k)])?; // c8..c15 → E1
    }
    r.step(
        stall.clone().inst(HS, C, 20, 0),
        &[
            Ent(1, VS, C, 8, 1, Pending),
            Out(VS, A, 8, FULL, 1),
            InLane(0),
        ],
    )?; // c16 → E0
    r.step(
        stall,
        &[
            Ent(0, HS, C, 1, 1, Open),
            Deps(vec![((HS, C), vec![(VS, C)])]),
        ],
    )?; // c17
    r.step(
        r.idle(),
        &[Out(VS, A, 8, FULL, 1), Deps(vec![((HS, C), vec![(VS, C)])])],
    )?; // c18: VS/C moves
    r.step(
        r.idle(),
        &[
            Out(VS, C, 8, FULL, 1),
            Ent(0, HS, C, 1, 1, Open),
            DepNone,
            StValid(1),
        ],
    )?; // c19
    r.repeat(5, r.idle(), &[OutValid(false), StPending(0)])
}

/// X09 `registered_issue` (R4r): a task filled in cycle n is picked from the registered state
/// of n+1 and moves into the slot at the end of n+2, so it is on the out port in n+3 (one
/// cycle later than R4's n+2); a task that becomes eligible while another is picked is picked
/// next, among the entries other than the one moving, so two tasks filled in consecutive
/// cycles still leave back to back.
pub fn x09_registered_issue(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X09", dut);
    for k in 0..8 {
        let tag = if k == 0 { Cap("T") } else { InTag("T") };
        r.step(r.i(VS, A, 100 + k, 0), &[InLane(k), tag, OutValid(false)])?; // c0..c7, n = c7
    }
    r.step(r.idle(), &[StPending(0b1), OutValid(false)])?; // n+1: PENDING, picked at its end
    r.step(r.idle(), &[StValid(0b1), StPending(0b1), OutValid(false)])?; // n+2: moves at its end
    r.step(
        r.idle(),
        &[Out(VS, A, 8, FULL, 0b0001), OutTag("T"), OutRefs((100..108).collect()), StValid(0)],
    )?; // n+3
    r.step(r.idle(), &[OutValid(false), Perf(1, 8)])?;

    // Back to back: A's last instance in cycle m, B's in m+1.
    for k in 0..7 {
        r.step(r.i(VS, A, k, 0), &[InLane(k)])?;
    }
    for k in 0..7 {
        r.step(r.i(VS, B, 10 + k, 1), &[InLane(k)])?;
    }
    r.step(r.i(VS, A, 7, 0), &[InLane(7)])?; // m
    r.step(r.i(VS, B, 17, 1), &[InLane(7), StPending(0b01), OutValid(false)])?; // m+1
    r.step(r.idle(), &[StPending(0b11), OutValid(false)])?; // m+2: A moves at its end
    r.step(r.idle(), &[Out(VS, A, 8, FULL, 0b0001), StValid(0b10)])?; // m+3: B moves at its end
    r.step(r.idle(), &[Out(VS, B, 8, FULL, 0b0010), StValid(0)])?; // m+4
    r.step(r.idle(), &[OutValid(false), Perf(3, 24)])?;
    Ok(())
}
