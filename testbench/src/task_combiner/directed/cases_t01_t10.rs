//! Spec §11.2 T01–T10: reset, allocation and filling, the key, cross-tile combining,
//! Fig. 6, dependency chains and the render-queue flush.

use super::check::*;
use super::*;

/// T01 Reset. The block is made dirty first (a task handed out, an open entry, a task in
/// the slot under back-pressure, a flush in progress, a lock pending), then reset is held
/// for three cycles with activity on every other input, then released.
pub fn t01_reset(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T01", dut);
    // c0: the state after the case's reset cycle.
    r.step(
        r.idle(),
        &[&reset_state()[..], &[InReady(true), DrainDone(false)]].concat(),
    )?;
    r.step(r.i(VS, A, 100, 0), &[InReady(true), InLane(0), Cap("T0")])?; // c1
    for k in 1..8 {
        r.step(r.i(VS, A, 100 + k, 0), &[InLane(k)])?; // c2..c8
    }
    r.step(
        r.i(VS, B, 200, 1),
        &[InReady(true), InLane(0), Cap("TB"), StPending(0b1)],
    )?; // c9
    let tb = r.tag("TB");
    r.step(
        r.idle().lk(tb, 2),
        &[Out(VS, A, 8, FULL, 0b0001), StValid(0b10)],
    )?; // c10
    let stall = r.idle().ready(false);
    r.step(
        stall.clone().rqf(2),
        &[
            LkHit(true),
            Perf(1, 8),
            OutValid(false),
            Key((VS, B), 1, 0b0110, Open),
        ],
    )?; // c11
    r.step(stall.clone(), &[RqfReady(false), StPending(0b10)])?; // c12
    r.step(
        stall.clone().inst(HS, A, 300, 3),
        &[Out(VS, B, 1, RQF, 0b0110), InReady(true), StValid(0)],
    )?; // c13
    let busy = stall
        .clone()
        .inst(GS, B, 400, 1)
        .lk(tb, 3)
        .rqf(0)
        .with_reset();
    // c14: first reset cycle: the old state is still visible.
    r.step(
        busy.clone(),
        &[
            OutValid(true),
            RqfReady(false),
            StValid(0b1),
            Perf(1, 8),
            InReady(true),
        ],
    )?;
    let after = [&reset_state()[..], &[InReady(true)]].concat();
    r.step(busy.clone(), &after)?; // c15
    r.step(
        busy.drain(),
        &[&reset_state()[..], &[InReady(false), DrainDone(true)]].concat(),
    )?; // c16

    // c17: released.
    r.step(r.idle(), &[&after[..], &[DrainDone(false)]].concat())?;
    // c18: generations restart: the first task after reset has the first task's tag.
    r.step(
        r.i(VS, A, 100, 0),
        &[&after[..], &[InLane(0), InTag("T0")]].concat(),
    )?; // c18
    r.step(
        r.idle(),
        &[
            StValid(0b1),
            Ent(0, VS, A, 1, 0b0001, Open),
            OutValid(false),
            Perf(0, 0),
        ],
    )?; // c19
    Ok(())
}

/// T02 First instance opens a task; no output for 20 cycles (no timeout).
pub fn t02_first_instance(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T02", dut);
    r.step(r.i(VS, A, 100, 0), &[InReady(true), InLane(0), Cap("T")])?;
    r.step(
        r.idle(),
        &[
            StValid(0b1),
            Ent(0, VS, A, 1, 0b0001, Open),
            EntryTag(0, "T"),
            OutValid(false),
        ],
    )?;
    r.repeat(
        20,
        r.idle(),
        &[
            OutValid(false),
            StOpen(0b1),
            StPending(0),
            Ent(0, VS, A, 1, 0b0001, Open),
        ],
    )
}

/// T03 A task fills at its capacity (= width here) and is output in n+2 with reason FULL;
/// the entry is FREE from the output cycle on.
pub fn t03_fill(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T03", dut);
    let w = r.p.width as u64;
    // References 100, 101, … cut to REF_W bits (the Tiny config has 1-bit references).
    let refs: Vec<u64> = (0..w).map(|k| (100 + k) & ones(r.p.ref_width)).collect();
    for k in 0..w {
        let tag = if k == 0 { Cap("T") } else { InTag("T") };
        r.step(
            r.i(VS, A, refs[k as usize], 0),
            &[InReady(true), InLane(k), tag, OutValid(false)],
        )?;
    }
    r.step(r.idle(), &[StPending(0b1), StOpen(0), OutValid(false)])?; // c_w
    let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
    r.step(
        r.idle(),
        &[
            Out(VS, A, w, FULL, 0b0001),
            OutMask(mask),
            OutTag("T"),
            OutRefs(refs),
            StValid(0),
            Perf(0, 0),
        ],
    )?;
    r.step(r.idle(), &[OutValid(false), Perf(1, w)])?;
    Ok(())
}

/// T03b An instance for the key of a full (PENDING) task opens a new entry.
pub fn t03b_closed_task(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T03b", dut);
    for k in 0..8 {
        let tag = if k == 0 { Cap("T") } else { InTag("T") };
        r.step(r.i(VS, A, 100 + k, 0), &[InLane(k), tag])?;
    }
    r.step(
        r.i(VS, A, 108, 0),
        &[
            InReady(true),
            InLane(0),
            InTagNot("T"),
            Cap("T2"),
            StPending(0b1),
        ],
    )?; // c8
    r.step(
        r.idle(),
        &[
            Out(VS, A, 8, FULL, 0b0001),
            OutMask(0xFF),
            OutTag("T"),
            StValid(0b10),
            Ent(1, VS, A, 1, 0b0001, Open),
            EntryTag(1, "T2"),
        ],
    )?; // c9
    r.step(r.idle(), &[OutValid(false), StValid(0b10), Perf(1, 8)])?;
    Ok(())
}

/// T04 Two keys interleaved: two open tasks, no flush on a state change, both leave full.
/// (The naive model's 16 one-lane tasks for this stream are checked in the unit tests.)
pub fn t04_two_open_tasks(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T04", dut);
    for k in 0..16 {
        let state = if k % 2 == 0 { A } else { B };
        let resident = if k == 0 {
            StValid(0)
        } else if k == 1 {
            StValid(0b1)
        } else {
            StValid(0b11)
        };
        r.step(
            r.i(VS, state, 100 + k, 0),
            &[InReady(true), InLane(k / 2), OutValid(false), resident],
        )?;
    }
    r.step(
        r.idle(),
        &[
            Out(VS, A, 8, FULL, 0b0001),
            OutRefs((0..8).map(|k| 100 + 2 * k).collect()),
            StValid(0b10),
        ],
    )?; // c16
    r.step(
        r.idle(),
        &[
            Out(VS, B, 8, FULL, 0b0001),
            OutRefs((0..8).map(|k| 101 + 2 * k).collect()),
            Perf(1, 8),
        ],
    )?; // c17
    r.step(r.idle(), &[OutValid(false), StValid(0), Perf(2, 16)])?; // c18: 16 lanes / (2 × 8) = 1.0
    Ok(())
}

/// T05 The shader type is part of the key: three entries for VS/C, HS/C, DS/C (with the
/// dependencies `depends` implies: HS→VS, DS→HS).
pub fn t05_stype_in_key(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T05", dut);
    r.step(r.i(VS, C, 1, 0), &[InReady(true)])?;
    r.step(r.i(HS, C, 2, 0), &[InReady(true), InLane(0)])?;
    r.step(r.i(DS, C, 3, 0), &[InReady(true), InLane(0)])?;
    r.step(
        r.idle(),
        &[
            StValid(0b111),
            StOpen(0b111),
            Key((VS, C), 1, 0b0001, Open),
            Key((HS, C), 1, 0b0001, Open),
            Key((DS, C), 1, 0b0001, Open),
            Deps(vec![((HS, C), vec![(VS, C)]), ((DS, C), vec![(HS, C)])]),
        ],
    )?;
    Ok(())
}

/// T06 Cross-tile combining (Fig. 6 entry 0): one entry, count 3, lockmask 0101.
pub fn t06_cross_tile(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T06", dut);
    r.step(r.i(VS, A, 1, 0), &[Cap("T")])?;
    r.step(r.i(VS, A, 2, 2), &[InTag("T"), InLane(1)])?;
    r.step(r.i(VS, A, 3, 0), &[InTag("T"), InLane(2)])?;
    r.step(r.idle(), &[StValid(0b1), Key((VS, A), 3, 0b0101, Open)])?;
    Ok(())
}

/// T07 Fig. 6 reconstructed top-down: table 610 by key and matrix 612 (DS/C → HS/C →
/// VS/C, nothing else).
pub fn t07_fig6(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T07", dut);
    r.step(r.i(VS, A, 10, 0), &[InReady(true)])?; // c0
    r.step(r.i(VS, A, 11, 2), &[InLane(1)])?;
    r.step(r.i(VS, A, 12, 2), &[InLane(2)])?;
    r.step(r.i(VS, B, 20, 2), &[InLane(0)])?; // c3
    r.step(r.i(VS, C, 5020, 2), &[InLane(0), Cap("Tv")])?; // c4: 502_0
    r.step(r.i(VS, C, 5021, 2), &[InLane(1), InTag("Tv")])?; // c5: 502_1
    r.step(r.i(HS, C, 506, 2), &[InLane(0), Cap("Th")])?; // c6: 506a
    r.step(r.i(DS, C, 5100, 2), &[InLane(0), Cap("Td")])?; // c7: 510a0
    r.step(
        r.idle(),
        &[
            StValid(0b11111),
            StOpen(0b11111),
            Key((VS, A), 3, 0b0101, Open),
            Key((VS, B), 1, 0b0100, Open),
            Key((VS, C), 2, 0b0100, Open),
            Key((HS, C), 1, 0b0100, Open),
            Key((DS, C), 1, 0b0100, Open),
            KeyTag((VS, C), "Tv"),
            KeyTag((HS, C), "Th"),
            KeyTag((DS, C), "Td"),
            Deps(vec![((DS, C), vec![(HS, C)]), ((HS, C), vec![(VS, C)])]),
            OutValid(false),
        ],
    )?;
    Ok(())
}

/// T08 A full consumer forces its producer chain out, one level per cycle, producers first.
pub fn t08_chain_forced_out(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T08", dut);
    r.step(r.i(VS, C, 1, 0), &[Cap("Tv")])?; // c0
    r.step(r.i(HS, C, 2, 0), &[Cap("Th")])?; // c1
    for k in 0..8 {
        r.step(r.i(DS, C, 10 + k, 0), &[InLane(k), OutValid(false)])?; // c2..c9
    }
    let deps = Deps(vec![((DS, C), vec![(HS, C)]), ((HS, C), vec![(VS, C)])]);
    r.step(
        r.idle(),
        &[
            Key((DS, C), 8, 1, Pending),
            Key((HS, C), 1, 1, Open),
            Key((VS, C), 1, 1, Open),
            deps.clone(),
            OutValid(false),
        ],
    )?; // c10
    r.step(
        r.idle(),
        &[
            Key((DS, C), 8, 1, Pending),
            Key((HS, C), 1, 1, Pending),
            Key((VS, C), 1, 1, Open),
            deps.clone(),
            OutValid(false),
        ],
    )?; // c11
    r.step(r.idle(), &[StPending(0b111), deps, OutValid(false)])?; // c12
    r.step(
        r.idle(),
        &[
            Out(VS, C, 1, DEP, 1),
            OutTag("Tv"),
            OutRefs(vec![1]),
            Deps(vec![((DS, C), vec![(HS, C)])]),
        ],
    )?; // c13
    r.step(
        r.idle(),
        &[
            Out(HS, C, 1, DEP, 1),
            OutTag("Th"),
            OutRefs(vec![2]),
            DepNone,
        ],
    )?; // c14
    r.step(
        r.idle(),
        &[
            Out(DS, C, 8, FULL, 1),
            OutRefs((10..18).collect()),
            StValid(0),
        ],
    )?; // c15
    r.step(
        r.idle(),
        &[OutValid(false), StValid(0), DepNone, Perf(3, 10)],
    )?; // c16
    Ok(())
}

/// T09 A producer that fills leaves alone; its consumer stays OPEN with its row cleared.
pub fn t09_producer_leaves_first(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T09", dut);
    for k in 0..3 {
        r.step(r.i(VS, C, k, 0), &[InLane(k)])?; // c0..c2
    }
    r.step(r.i(HS, C, 50, 0), &[InLane(0)])?; // c3
    for k in 3..8 {
        r.step(r.i(VS, C, k, 0), &[InLane(k)])?; // c4..c8
    }
    r.step(
        r.idle(),
        &[
            Key((VS, C), 8, 1, Pending),
            Key((HS, C), 1, 1, Open),
            Deps(vec![((HS, C), vec![(VS, C)])]),
            OutValid(false),
        ],
    )?; // c9
    r.step(
        r.idle(),
        &[
            Out(VS, C, 8, FULL, 1),
            StValid(0b10),
            Key((HS, C), 1, 1, Open),
            DepNone,
        ],
    )?; // c10
    r.repeat(
        10,
        r.idle(),
        &[
            OutValid(false),
            StValid(0b10),
            Key((HS, C), 1, 1, Open),
            DepNone,
        ],
    ) // c11..c20
}

/// T10 A render-queue flush outputs exactly the tasks locked for its pipe, producers
/// first, then `rqf_done`.
pub fn t10_flush_locked(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T10", dut);
    r.step(r.i(VS, A, 1, 0), &[])?; // c0 E_A
    r.step(r.i(VS, A, 2, 2), &[])?; // c1 E_A
    r.step(r.i(VS, B, 3, 1), &[])?; // c2 E_B
    r.step(r.i(VS, C, 4, 2), &[Cap("Tc")])?; // c3 E_C
    r.step(r.i(HS, C, 5, 2), &[])?; // c4 E_H
    r.step(
        r.idle().rqf(2),
        &[RqfReady(true), Deps(vec![((HS, C), vec![(VS, C)])])],
    )?; // c5 = n
    r.step(
        r.idle(),
        &[
            RqfReady(false),
            Key((VS, A), 2, 0b0101, Pending),
            Key((VS, C), 1, 0b0100, Pending),
            Key((HS, C), 1, 0b0100, Pending),
            Key((VS, B), 1, 0b0010, Open),
        ],
    )?; // n+1
    r.step(
        r.idle(),
        &[
            Out(VS, A, 2, RQF, 0b0101),
            OutRefs(vec![1, 2]),
            RqfReady(false),
            RqfDone(false),
        ],
    )?; // n+2
    r.step(
        r.idle(),
        &[
            Out(VS, C, 1, RQF, 0b0100),
            OutTag("Tc"),
            RqfReady(false),
            RqfDone(false),
        ],
    )?; // n+3
    r.step(
        r.idle(),
        &[Out(HS, C, 1, RQF, 0b0100), RqfReady(false), RqfDone(false)],
    )?; // n+4
    r.step(
        r.idle(),
        &[
            RqfDone(true),
            RqfDoneTp(2),
            RqfReady(true),
            OutValid(false),
            StValid(0b10),
            Key((VS, B), 1, 0b0010, Open),
        ],
    )?; // n+5
    r.step(r.idle(), &[RqfDone(false), RqfReady(true), OutValid(false)])?;
    Ok(())
}
