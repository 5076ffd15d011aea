//! X05 (`perf_counters`, rule P1 of docs/blocks/branch_stack.md, docs/perf.md): counter
//! values written by hand from the rules, read through every `perf_sel` (also the six
//! indices past the last counter, which read 0):
//! * X05 (`producer_conflict = "drop"`): pushes and a producer pop as applied (an
//!   arbitration loser and a producer stopped by the port limit count nothing), branches
//!   and taken branches, a `pc_hold` cycle, one event of each error (the underflow and the
//!   port limit in one cycle); `perf_clr` wins over a same-cycle push; an overflow is counted
//!   again while `err_ovf` is already set; reset clears every counter.
//! * X05/stall (`"stall"`): a held younger producer and a producer held by the port limit
//!   are `stall_cc` cycles and are counted once, when applied; `err_port_ev` and
//!   `err_multi_ev` stay 0.

use super::*;

/// The counters in `perf_sel` order: push, pop, branch, taken, stall_cc, stall_pc,
/// err_ovf_ev, err_udf_ev, err_port_ev, err_multi_ev.
type Counters = [u32; 10];

impl Run<'_> {
    /// Check every counter (and 0 for each `perf_sel` past the last one, up to 2^PSW - 1)
    /// in the current cycle, before its step: `perf_val` is combinational from the
    /// counter registers, so reading takes no cycle.
    fn counters(&mut self, want: Counters) -> Result<(), String> {
        for sel in 0..1u64 << self.p.perf_sel_w() {
            let inp = BranchStackInputs { perf_sel: sel, ..self.idle() };
            let got = self.dut.eval(&inp).perf_val;
            let exp = want.get(sel as usize).map_or(0, |&v| u64::from(v));
            if got != exp {
                return Err(format!("{} c{}: perf_val at perf_sel {sel} expected {exp}, actual {got}", self.case, self.cycle));
            }
        }
        Ok(())
    }
}

/// X05 at `producer_conflict = "drop"`.
pub fn x05_perf_counters(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X05", dut);
    r.counters([0; 10])?;
    // c0: PU A; c1: PU B during pc_hold.
    r.step(r.push(A), &[Cnt(0)])?;
    r.step(r.push(B).hold(), &[Cnt(1)])?;
    r.counters([2, 0, 0, 0, 0, 1, 0, 0, 0, 0])?;
    // c2: BEZ on R = B (Z set: taken) pops B; EX2 PO beats EX0 PU C (err_multi) and pops A.
    r.step(r.idle().bez().pop(2).push(0, C), &[R(B), Taken(true), Cnt(2)])?;
    r.counters([2, 1, 1, 1, 0, 1, 0, 0, 0, 1])?;
    // c3: CBNN.AND on the empty stack (underflow, not taken) beside EX1 PP D (port limit:
    // the PP is suppressed, neither its pop nor its push counts).
    r.step(r.idle().cb(N, N, And).pop_push(1, D), &[Cnt(0), Taken(false), Multi(true)])?;
    r.counters([2, 1, 2, 1, 0, 1, 0, 1, 1, 1])?;
    // c4: perf_clr beside PU E: the clear wins, the push is applied but not counted.
    r.step(BranchStackInputs { perf_clr: true, ..r.push(E) }, &[Cnt(0), Udf(true), Port(true)])?;
    r.counters([0; 10])?;
    // c5..c7: three pushes fill the stack [E] to 4; c8, c9: two pushes on a full stack,
    // two overflow events (the second while err_ovf is already set).
    for (k, v) in [A, B, C, D, A].into_iter().enumerate() {
        r.step(r.push(v), &[Cnt((1 + k).min(4) as u64), Ovf(k == 4)])?;
    }
    r.counters([5, 0, 0, 0, 0, 0, 2, 0, 0, 0])?;
    // Reset clears every counter (reset wins over this cycle's push).
    r.step(r.push(B).with_reset(), &[Cnt(4)])?;
    r.counters([0; 10])?;
    r.step(r.idle(), &[&[Cnt(0)][..], &NO_ERR].concat())
}

/// X05/stall at `producer_conflict = "stall"`.
pub fn x05_perf_counters_stall(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X05/stall", dut);
    // c0: EX0 PU A and EX2 PU B: B applied, A held (stall_cc); c1: A applied.
    r.step(r.idle().push(0, A).push(2, B), &[Ready(0b110)])?;
    r.step(r.idle().push(0, A), &[Ready(0b111), Cnt(1)])?;
    r.counters([2, 0, 0, 0, 1, 0, 0, 0, 0, 0])?;
    // c2: CBNN.XNOR on A, B (N 0, 0: taken) pops both; EX0 PO held by the port limit.
    r.step(r.idle().cb(N, N, Xnor).pop(0), &[R(A), S(B), Taken(true), Ready(0b110)])?;
    // c3: the held PO is applied, on the empty stack: an underflow.
    r.step(r.idle().pop(0), &[Ready(0b111), Cnt(0)])?;
    r.counters([2, 1, 1, 1, 2, 0, 0, 1, 0, 0])?;
    r.step(r.idle(), &[Cnt(0), Udf(true), Port(false), Multi(false)])
}
