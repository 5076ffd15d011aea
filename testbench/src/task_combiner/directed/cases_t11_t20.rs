//! Spec §11.2 T11–T20: state sorting, locks (also stale and under back-pressure),
//! eviction under each policy (contract R3) and back-pressure on the out port.

use super::check::*;
use super::*;

/// T11 setup: E0 VS/A, E1 VS/B, E2 GS/A (depends on E0 by the matrix), all locked tp3;
/// flush tp3 in c3. Returns the run at c5 (first output).
fn t11_setup<'a>(case: &'static str, dut: &'a mut dyn Dut<TaskCombiner>) -> Result<Run<'a>, String> {
    let mut r = Run::new(case, dut);
    r.step(r.i(VS, A, 1, 3), &[])?;
    r.step(r.i(VS, B, 2, 3), &[])?;
    r.step(r.i(GS, A, 3, 3), &[])?;
    r.step(r.idle().rqf(3), &[Deps(vec![((GS, A), vec![(VS, A)])])])?; // c3
    r.step(r.idle(), &[StPending(0b111)])?; // c4
    r.step(r.idle(), &[Out(VS, A, 1, RQF, 0b1000)])?; // c5
    Ok(r)
}

/// T11 State sorting on: A, A, B (E0, E2, E1).
pub fn t11_sort_on(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t11_setup("T11", dut)?;
    r.step(r.idle(), &[Out(GS, A, 1, RQF, 0b1000)])?; // c6
    r.step(r.idle(), &[Out(VS, B, 1, RQF, 0b1000)])?; // c7
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(3), OutValid(false)])?;
    Ok(())
}

/// T11 State sorting off: creation order E0, E1, E2.
pub fn t11_sort_off(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t11_setup("T11/nosort", dut)?;
    r.step(r.idle(), &[Out(VS, B, 1, RQF, 0b1000)])?; // c6
    r.step(r.idle(), &[Out(GS, A, 1, RQF, 0b1000)])?; // c7
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(3), OutValid(false)])?;
    Ok(())
}

/// T12 Lock of a scheduled task, then a flush of the locked pipe outputs it.
pub fn t12_lock_scheduled(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T12", dut);
    r.step(r.i(VS, A, 1, 0), &[Cap("T0")])?; // c0
    let t0 = r.tag("T0");
    r.step(
        r.idle().lk(t0, 3),
        &[LkHit(false), Ent(0, VS, A, 1, 0b0001, Open)],
    )?; // c1 = n
    r.step(
        r.idle().rqf(3),
        &[LkHit(true), Ent(0, VS, A, 1, 0b1001, Open)],
    )?; // c2
    r.step(
        r.idle(),
        &[
            LkHit(false),
            Ent(0, VS, A, 1, 0b1001, Pending),
            RqfReady(false),
        ],
    )?; // c3
    r.step(
        r.idle(),
        &[Out(VS, A, 1, RQF, 0b1001), OutTag("T0"), RqfDone(false)],
    )?; // c4
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(3), OutValid(false)])?; // c5
    Ok(())
}

/// T13 Stale locks miss; a task reopened in the same entry has another tag.
pub fn t13_stale_lock(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T13", dut);
    r.step(r.i(VS, A, 1, 0), &[Cap("T0")])?; // c0
    let t0 = r.tag("T0");
    r.step(r.idle().rqf(0), &[])?; // c1
    r.step(r.idle(), &[StPending(0b1)])?; // c2
    r.step(r.idle(), &[Out(VS, A, 1, RQF, 0b0001), OutTag("T0")])?; // c3 (handshake)
    r.step(
        r.idle().lk(t0, 1),
        &[RqfDone(true), StValid(0), OutValid(false)],
    )?; // c4
    r.step(
        r.i(VS, B, 2, 2),
        &[
            LkHit(false),
            StValid(0),
            OutValid(false),
            InReady(true),
            InTagNot("T0"),
            SameIndex("T0"),
            Cap("T1"),
        ],
    )?; // c5
    r.step(
        r.idle().lk(t0, 1),
        &[Ent(0, VS, B, 1, 0b0100, Open), EntryTag(0, "T1")],
    )?; // c6
    let t1 = r.tag("T1");
    r.step(
        r.idle().lk(t1, 1),
        &[LkHit(false), Ent(0, VS, B, 1, 0b0100, Open)],
    )?; // c7
    r.step(r.idle(), &[LkHit(true), Ent(0, VS, B, 1, 0b0110, Open)])?; // c8
    Ok(())
}

/// T14 Lock of the task in the out slot under back-pressure; a flush with only that task
/// completes one cycle after its handshake.
pub fn t14_lock_slot_backpressure(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T14", dut);
    let stall = r.idle().ready(false);
    r.step(stall.clone().inst(VS, A, 1, 0), &[Cap("TX")])?; // c0
    let tx = r.tag("TX");
    r.step(stall.clone().drain(), &[InReady(false)])?; // c1: drain pushes X out
    r.step(stall.clone(), &[StPending(0b1), InReady(true)])?; // c2
    r.step(
        stall.clone().lk(tx, 1),
        &[Out(VS, A, 1, DRAIN, 0b0001), OutTag("TX"), StValid(0)],
    )?; // c3
    r.step(
        stall.clone().rqf(1),
        &[LkHit(true), Out(VS, A, 1, DRAIN, 0b0011), RqfReady(true)],
    )?; // c4
    for _ in 5..9 {
        r.step(
            stall.clone(),
            &[
                Out(VS, A, 1, DRAIN, 0b0011),
                RqfReady(false),
                RqfDone(false),
                LkHit(false),
            ],
        )?; // c5..c8
    }
    r.step(
        r.idle(),
        &[
            Out(VS, A, 1, DRAIN, 0b0011),
            RqfReady(false),
            RqfDone(false),
        ],
    )?; // c9 = m
    r.step(
        r.idle(),
        &[RqfDone(true), RqfDoneTp(1), RqfReady(true), OutValid(false)],
    )?; // m+1
    r.step(r.idle(), &[RqfDone(false), RqfReady(true)])?;
    Ok(())
}

/// T15–T17 setup on C1: E0 VS/A ×3, E1 VS/B ×5, E2 VS/C ×1 (Tc), E3 HS/C ×6 (depends on
/// E2), then from c15 I(GS,A) is presented until accepted. Returns at c15.
fn t15_setup<'a>(case: &'static str, dut: &'a mut dyn Dut<TaskCombiner>) -> Result<Run<'a>, String> {
    let mut r = Run::new(case, dut);
    for k in 0..3 {
        r.step(r.i(VS, A, k, 0), &[InLane(k)])?;
    }
    for k in 0..5 {
        r.step(r.i(VS, B, 10 + k, 0), &[InLane(k)])?;
    }
    r.step(r.i(VS, C, 20, 0), &[InLane(0), Cap("Tc")])?; // c8
    for k in 0..6 {
        r.step(r.i(HS, C, 30 + k, 0), &[InLane(k)])?; // c9..c14
    }
    Ok(r)
}

/// T15 Eviction, FULLEST: HS/C (6) is the victim; it drags VS/C out first.
pub fn t15_evict_fullest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t15_setup("T15", dut)?;
    let gs = r.i(GS, A, 99, 0);
    r.step(
        gs.clone(),
        &[
            InReady(false),
            StValid(0b1111),
            StPending(0),
            Deps(vec![((HS, C), vec![(VS, C)])]),
        ],
    )?; // c15
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(3, HS, C, 6, 1, Pending),
            Ent(2, VS, C, 1, 1, Open),
            OutValid(false),
        ],
    )?; // c16
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(2, VS, C, 1, 1, Pending),
            StPending(0b1100),
            OutValid(false),
        ],
    )?; // c17
    r.step(
        gs,
        &[
            Out(VS, C, 1, DEP, 1),
            OutTag("Tc"),
            InReady(true),
            InLane(0),
            StValid(0b1011),
        ],
    )?; // c18
    r.step(
        r.idle(),
        &[
            Out(HS, C, 6, EVICT, 1),
            StValid(0b0111),
            Ent(2, GS, A, 1, 0b0001, Open),
            Deps(vec![((GS, A), vec![(VS, A)])]),
        ],
    )?; // c19
    r.step(r.idle(), &[OutValid(false), StPending(0), Perf(2, 7)])?; // c20: two tasks flushed
    Ok(())
}

/// T16 Eviction, OLDEST: VS/A (3) is the victim; GS/A is accepted in c17 into E0.
pub fn t16_evict_oldest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t15_setup("T16", dut)?;
    let gs = r.i(GS, A, 99, 0);
    r.step(gs.clone(), &[InReady(false), StPending(0)])?; // c15
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(0, VS, A, 3, 1, Pending),
            StPending(0b1),
            OutValid(false),
        ],
    )?; // c16
    r.step(
        gs,
        &[
            Out(VS, A, 3, EVICT, 1),
            InReady(true),
            InLane(0),
            StValid(0b1110),
        ],
    )?; // c17
    r.step(
        r.idle(),
        &[
            OutValid(false),
            Ent(0, GS, A, 1, 1, Open),
            StPending(0),
            Deps(vec![((HS, C), vec![(VS, C)])]),
        ],
    )?; // c18
    Ok(())
}

/// T17 Eviction, NODEP_FULLEST: among E0 (3), E1 (5), E2 (1) without producers, VS/B
/// goes; only one task is flushed.
pub fn t17_evict_nodep_fullest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t15_setup("T17", dut)?;
    let gs = r.i(GS, A, 99, 0);
    r.step(gs.clone(), &[InReady(false), StPending(0)])?; // c15
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(1, VS, B, 5, 1, Pending),
            StPending(0b10),
            OutValid(false),
        ],
    )?; // c16
    r.step(
        gs,
        &[
            Out(VS, B, 5, EVICT, 1),
            InReady(true),
            InLane(0),
            StValid(0b1101),
        ],
    )?; // c17
    let deps = Deps(vec![((HS, C), vec![(VS, C)]), ((GS, A), vec![(VS, A)])]);
    r.step(
        r.idle(),
        &[
            OutValid(false),
            Ent(1, GS, A, 1, 1, Open),
            StPending(0),
            deps.clone(),
        ],
    )?; // c18
    r.repeat(
        8,
        r.idle(),
        &[OutValid(false), StPending(0), StValid(0b1111), deps],
    ) // c19..c26
}

/// T18 setup on C1: E0 HS/C (age 0, later depends on E1), E1 VS/C (Tv), E2 VS/A, E3 VS/B;
/// from c5 I(GS,D) is presented. Returns at c5.
fn t18_setup<'a>(case: &'static str, dut: &'a mut dyn Dut<TaskCombiner>) -> Result<Run<'a>, String> {
    let mut r = Run::new(case, dut);
    r.step(r.i(HS, C, 1, 0), &[InLane(0)])?; // c0 → E0, no producer
    r.step(r.i(VS, C, 2, 0), &[InLane(0), Cap("Tv"), DepNone])?; // c1 → E1
    r.step(r.i(HS, C, 3, 0), &[InLane(1), DepNone])?; // c2 → E0 now depends on E1
    r.step(
        r.i(VS, A, 4, 0),
        &[InLane(0), Deps(vec![((HS, C), vec![(VS, C)])])],
    )?; // c3 → E2
    r.step(r.i(VS, B, 5, 0), &[InLane(0)])?; // c4 → E3
    Ok(r)
}

/// T18 OLDEST: the oldest entry (HS/C) is the victim; VS/C (DEP) then HS/C (EVICT).
pub fn t18_oldest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t18_setup("T18/oldest", dut)?;
    let gs = r.i(GS, D, 6, 0);
    r.step(gs.clone(), &[InReady(false), StValid(0b1111), StPending(0)])?; // c5
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(0, HS, C, 2, 1, Pending),
            Ent(1, VS, C, 1, 1, Open),
        ],
    )?; // c6
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(1, VS, C, 1, 1, Pending),
            OutValid(false),
        ],
    )?; // c7
    r.step(
        gs,
        &[
            Out(VS, C, 1, DEP, 1),
            OutTag("Tv"),
            InReady(true),
            InLane(0),
        ],
    )?; // c8
    r.step(
        r.idle(),
        &[
            Out(HS, C, 2, EVICT, 1),
            OutRefs(vec![1, 3]),
            Ent(1, GS, D, 1, 1, Open),
            StValid(0b1110),
        ],
    )?; // c9
    r.step(r.idle(), &[OutValid(false), StPending(0), DepNone])?;
    Ok(())
}

/// T18 NODEP_OLDEST: the oldest entry without producers (VS/C) is the only victim; HS/C
/// stays OPEN with its row cleared.
pub fn t18_nodep_oldest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t18_setup("T18/nodep_oldest", dut)?;
    let gs = r.i(GS, D, 6, 0);
    r.step(gs.clone(), &[InReady(false), StPending(0)])?; // c5
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(1, VS, C, 1, 1, Pending),
            Ent(0, HS, C, 2, 1, Open),
        ],
    )?; // c6
    r.step(
        gs,
        &[
            Out(VS, C, 1, EVICT, 1),
            OutTag("Tv"),
            InReady(true),
            InLane(0),
            DepNone,
        ],
    )?; // c7
    r.step(
        r.idle(),
        &[
            Ent(0, HS, C, 2, 1, Open),
            Ent(1, GS, D, 1, 1, Open),
            DepNone,
            OutValid(false),
        ],
    )?; // c8
    r.repeat(
        8,
        r.idle(),
        &[OutValid(false), StPending(0), Ent(0, HS, C, 2, 1, Open)],
    )
}

/// T19 No second victim while an entry is PENDING: with the slot blocked, a full VS/A
/// waits and the new key waits for its entry.
pub fn t19_no_double_victim(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T19", dut);
    let stall = r.idle().ready(false);
    for k in 0..8 {
        r.step(stall.clone().inst(VS, B, k, 0), &[InLane(k)])?; // c0..c7 → E0
    }
    for k in 0..8 {
        r.step(
            stall.clone().inst(VS, A, 10 + k, 0),
            &[InLane(k), InReady(true)],
        )?; // c8..c15 → E1
    }
    r.step(
        stall.clone().inst(VS, C, 20, 0),
        &[
            Ent(1, VS, A, 8, 1, Pending),
            Out(VS, B, 8, FULL, 1),
            InLane(0),
        ],
    )?; // c16 → E0
    r.step(stall.clone().inst(VS, D, 21, 0), &[InLane(0)])?; // c17 → E2
    r.step(stall.clone().inst(DS, A, 22, 0), &[InLane(0)])?; // c18 → E3
    let gs = stall.clone().inst(GS, B, 99, 0);
    for _ in 19..26 {
        r.step(
            gs.clone(),
            &[
                InReady(false),
                StValid(0b1111),
                StPending(0b10),
                Out(VS, B, 8, FULL, 1),
            ],
        )?; // c19..c25
    }
    let gs = gs.ready(true);
    r.step(
        gs.clone(),
        &[InReady(false), StPending(0b10), Out(VS, B, 8, FULL, 1)],
    )?; // c26
    r.step(
        gs,
        &[
            Out(VS, A, 8, FULL, 1),
            InReady(true),
            InLane(0),
            StValid(0b1101),
        ],
    )?; // c27
    r.step(
        r.idle(),
        &[
            OutValid(false),
            Ent(1, GS, B, 1, 1, Open),
            StPending(0),
            StValid(0b1111),
            Perf(2, 16),
        ],
    )?; // c28
    Ok(())
}

/// T20 Back-pressure: the out payload is stable while `out_ready` = 0 (c9–c19); the next
/// task waits PENDING and follows the handshake.
pub fn t20_backpressure(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T20", dut);
    for k in 0..8 {
        r.step(
            r.i(VS, A, 100 + k, 0),
            &[InLane(k), if k == 0 { Cap("T") } else { InTag("T") }],
        )?;
    }
    r.step(r.idle(), &[StPending(1)])?; // c8
    let first = r.step(
        r.i(VS, A, 200, 0).ready(false),
        &[
            Out(VS, A, 8, FULL, 1),
            OutRefs((100..108).collect()),
            OutTag("T"),
            StValid(0),
            InLane(0),
            InTagNot("T"),
            Cap("T2"),
        ],
    )?; // c9
    let same = |o: &TaskCombinerOutputs| {
        (
            o.out_valid,
            o.out_tag,
            o.out_stype,
            o.out_state,
            o.out_count,
            o.out_lane_mask,
            o.out_refs.clone(),
            o.out_lockmask,
            o.out_reason,
        )
    };
    for c in 10..20u64 {
        let inp = if c <= 16 {
            r.i(VS, A, 200 + c - 9, 0)
        } else {
            r.idle()
        }
        .ready(false);
        let o = r.step(
            inp,
            &[if c <= 16 {
                InLane(c - 9)
            } else {
                OutValid(true)
            }],
        )?;
        if same(&o) != same(&first) {
            return Err(format!(
                "T20 c{c}: out_* changed under back-pressure: {:?} vs {:?}",
                same(&o),
                same(&first)
            ));
        }
        if c >= 17 && !(o.st_pending == 1 && o.st_count[0] == 8) {
            return Err(format!(
                "T20 c{c}: st_pending expected 0b1 with count 8, actual {:#b}",
                o.st_pending
            ));
        }
    }
    let o = r.step(r.idle(), &[StPending(1)])?; // c20: handshake
    if same(&o) != same(&first) {
        return Err("T20 c20: out_* changed under back-pressure".into());
    }
    r.step(
        r.idle(),
        &[
            Out(VS, A, 8, FULL, 1),
            OutRefs((200..208).collect()),
            OutTag("T2"),
            StValid(0),
            Perf(1, 8),
        ],
    )?; // c21
    r.step(r.idle(), &[OutValid(false), Perf(2, 16)])?;
    Ok(())
}
