//! X10 (`perf_counters`, rule P1 of docs/blocks/task_combiner.md, docs/perf.md): counter values
//! written by hand from the rules, on C0 with capacity [8, 1, 8, 8] (an HS task is FULL at once).

use super::check::*;
use super::*;

/// The counters in `perf_sel` order: inst_acc, tasks_out, stall_in, stall_drain, stall_out,
/// out_full, out_evict, out_dep, out_rqflush, out_drain, lock_hit, rqf_acc.
type Counts = [u64; 12];

impl Run<'_> {
    /// Read every index of the 4-bit `perf_sel` (`perf_val` is combinational from the counter
    /// registers, so each read is one eval of the same cycle; 12 to 15 read 0), then run the
    /// cycle with `inp`.
    fn counts(&mut self, inp: TaskCombinerInputs, want: Counts, exp: &[Exp]) -> Result<(), String> {
        for k in 0..16 {
            let w = want.get(k).copied().unwrap_or(0);
            let got = self.dut.eval(&TaskCombinerInputs { perf_sel: k as u64, ..inp.clone() }).perf_val;
            if got != w {
                return Err(format!("{} c{}: perf_val[{k}] expected {w}, actual {got}", self.case, self.cycle));
            }
        }
        self.step(inp, exp).map(drop)
    }
}

/// X10: a lock hit and a flush of the locked task, held in the slot one cycle (stall_out);
/// a drain refuses an instance (stall_in and stall_drain) while the flushed and the drained
/// task leave (out_rqflush, out_drain), then a drain with nothing offered counts no stall; an
/// HS instance fills its task (FULL) and makes its VS producer leave first (DEP); a sixth key
/// on a full table evicts the oldest task and waits two cycles (stall_in without drain);
/// `perf_clr` beside an accept zeroes every counter (the clear wins); reset zeroes them too.
pub fn x10_perf_counters(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X10", dut);
    let z = [0; 12];
    // c0..c2: VS A twice (lock of A for pipe 1 beside the second), then VS B with a flush of
    // pipe 1: A (lock 0b0011) is the snapshot.
    r.counts(r.i(VS, A, 0, 0), z, &[InLane(0), Cap("TA")])?;
    let c1 = r.i(VS, A, 1, 0).lk(r.tag("TA"), 1);
    r.counts(c1, [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &[InLane(1)])?;
    r.counts(r.i(VS, B, 2, 0).rqf(1), [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0], &[InReady(true)])?;
    // c3: A moves into the empty slot (no event); c4: held (stall_out), and a drain refuses
    // VS C (stall_in, stall_drain) and closes B.
    let c3 = [3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1];
    r.counts(r.idle().ready(false), c3, &[StPending(0b01)])?;
    let held = r.i(VS, C, 3, 0).drain();
    r.counts(held.clone().ready(false), c3, &[Out(VS, A, 2, RQF, 0b0011), InReady(false)])?;
    // c5: A taken (out_rqflush), B moves; c6: B taken (out_drain); both with VS C refused.
    r.counts(held.clone(), [3, 0, 1, 1, 1, 0, 0, 0, 0, 0, 1, 1], &[Out(VS, A, 2, RQF, 0b0011)])?;
    r.counts(held, [3, 1, 2, 2, 1, 0, 0, 0, 1, 0, 1, 1], &[Out(VS, B, 1, DRAIN, 0b0001)])?;
    // c7: the drain is done, nothing offered: no stall counted.
    let c7 = [3, 2, 3, 3, 1, 0, 0, 0, 1, 1, 1, 1];
    r.counts(r.idle().drain(), c7, &[DrainDone(true), InReady(false)])?;
    // c8: VS C; c9: HS C, FULL at once, depends on VS C; c10: VS C becomes PENDING(DEP);
    // c11: VS C moves; c12: VS C taken (out_dep), HS C moves; c13: HS C taken (out_full).
    r.counts(r.i(VS, C, 3, 0), c7, &[InReady(true)])?;
    r.counts(r.i(HS, C, 4, 0), [4, 2, 3, 3, 1, 0, 0, 0, 1, 1, 1, 1], &[InReady(true)])?;
    let c10 = [5, 2, 3, 3, 1, 0, 0, 0, 1, 1, 1, 1];
    r.counts(r.idle(), c10, &[StPending(0b10)])?;
    r.counts(r.idle(), c10, &[StPending(0b11)])?;
    r.counts(r.idle(), c10, &[Out(VS, C, 1, DEP, 0b0001)])?;
    r.counts(r.idle(), [5, 3, 3, 3, 1, 0, 0, 1, 1, 1, 1, 1], &[Out(HS, C, 1, FULL, 0b0001)])?;
    // c14..c18: five keys fill the table; c19: a sixth evicts the oldest (state 5) and is
    // refused, c20 refused again (the victim is PENDING), c21 accepted while the victim is
    // taken (out_evict).
    for k in 0..5 {
        let mut want = [5, 4, 3, 3, 1, 1, 0, 1, 1, 1, 1, 1];
        want[0] += k;
        r.counts(r.i(VS, 5 + k, 10 + k, 0), want, &[InReady(true)])?;
    }
    let sixth = r.i(VS, 10, 20, 0);
    r.counts(sixth.clone(), [10, 4, 3, 3, 1, 1, 0, 1, 1, 1, 1, 1], &[InReady(false), StValid(0b11111)])?;
    r.counts(sixth.clone(), [10, 4, 4, 3, 1, 1, 0, 1, 1, 1, 1, 1], &[InReady(false), StPending(0b00001)])?;
    r.counts(sixth, [10, 4, 5, 3, 1, 1, 0, 1, 1, 1, 1, 1], &[InReady(true), Out(VS, 5, 1, EVICT, 0b0001)])?;
    // c22: perf_clr beside an accepted append to state 6 (and no other event): every counter 0.
    let c22 = TaskCombinerInputs { perf_clr: true, ..r.i(VS, 6, 21, 0) };
    r.counts(c22, [11, 5, 5, 3, 1, 1, 1, 1, 1, 1, 1, 1], &[InReady(true), OutValid(false)])?;
    // c23: an append (counted); c24: reset beside an append (not counted); c25: all 0.
    r.counts(r.i(VS, 7, 22, 0), z, &[InReady(true)])?;
    r.counts(r.i(VS, 8, 23, 0).with_reset(), [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], &[])?;
    r.counts(r.idle(), z, &[StValid(0)])
}
