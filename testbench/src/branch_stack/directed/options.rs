//! Directed cases of the two options (docs/blocks/branch_stack.md, "Options"), expected
//! values written by hand from the rules:
//! * X02 `compound_flags = "cnvz"`: `de_br_f`/`de_br_g` are CC bit indices (3 C, 2 N, 1 V,
//!   0 Z). Every (f, g) pair is run twice: with R and S holding only the selected flag
//!   (AND is taken) and holding every flag but the selected one (OR is not taken), so any
//!   other selection changes the outcome. X02/cv names the case of the issue: a compound
//!   branch on C of R and V of S.
//! * X03, X04 `producer_conflict = "stall"` (rule S1): the oldest active producer is
//!   applied, the others are held (`cc_ready` 0) and applied later, without `err_multi`;
//!   a producer pop beside a compound branch is held, without `err_port`.

use super::*;

/// The flag at CC bit `k` alone.
fn only(k: u8) -> u8 {
    1 << k
}

/// Every flag but CC bit `k`.
fn all_but(k: u8) -> u8 {
    !only(k) & 0xF
}

/// X02: every (f, g) of C N V Z, AND on the flags alone, OR on their complements.
pub fn x02_cnvz_flags(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X02", dut);
    for f in 0..4u8 {
        for g in 0..4u8 {
            for (rv, sv, op, taken) in [(only(f), only(g), And, true), (all_but(f), all_but(g), Or, false)] {
                r.load(&[rv, sv])?;
                r.step(r.idle().cb4(f, g, op), &[R(rv), S(sv), Cnt(2), Taken(taken)])?;
            }
        }
    }
    r.step(r.idle(), &[&[Cnt(0)][..], &NO_ERR].concat())
}

/// X02/cv: a compound branch on C of R and V of S (f = 3, g = 1).
pub fn x02_cnvz_c_and_v(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    const CF: u8 = 0b1000;
    const VF: u8 = 0b0010;
    let mut r = Run::new("X02/cv", dut);
    // R = C only, S = V only: R.C & S.V = 1.
    r.load(&[CF, VF])?;
    r.step(r.idle().cb4(3, 1, And), &[R(CF), S(VF), Taken(true)])?;
    // Swapped: R.C = 0, S.V = 0; XNOR is taken, AND is not.
    r.load(&[VF, CF])?;
    r.step(r.idle().cb4(3, 1, And), &[R(VF), S(CF), Taken(false)])?;
    r.load(&[VF, CF])?;
    r.step(r.idle().cb4(3, 1, Xnor), &[Taken(true)])?;
    // The same bits as nz would read them (f = 1: Z of R, g = 1: Z of S) select V here.
    r.load(&[VF, VF])?;
    r.step(r.idle().cb4(1, 1, And), &[Taken(true)])?;
    r.step(r.idle(), &[&[Cnt(0)][..], &NO_ERR].concat())
}

/// X03: EX0 PU A and EX2 PU B in one cycle (EX1 DN): EX2 is applied, EX0 is held and
/// applied the next cycle; the stack is \[A,B\] and `err_multi` stays 0.
pub fn x03_stall_two_producers(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X03", dut);
    r.step(r.idle(), &[Ready(0b111)])?; // idle stages are ready
    let c1 = r.idle().push(0, A).dn(1, 0x5).push(2, B);
    r.step(c1, &[Ready(0b110), Cnt(0), Multi(false)])?;
    // The pipeline holds EX0's payload.
    r.step(r.idle().push(0, A), &[Ready(0b111), Cnt(1), R(B), Multi(false)])?;
    r.step(r.idle(), &[Ready(0b111), Cnt(2), R(A), S(B), Multi(false)])?;
    r.expect_stack(&[A, B], &[&NO_ERR[..], &[Ready(0b111)]].concat())
}

/// X03/three: three producers in one cycle are applied oldest first over three cycles.
pub fn x03_stall_three_producers(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X03/three", dut);
    r.step(r.idle().push(0, A).push(1, B).push(2, C), &[Ready(0b100), Cnt(0)])?;
    // An idle stage is ready: EX2 (moved on) reads 1.
    r.step(r.idle().push(0, A).push(1, B), &[Ready(0b110), Cnt(1), R(C)])?;
    r.step(r.idle().push(0, A), &[Ready(0b111), Cnt(2), R(B), S(C)])?;
    r.step(r.idle(), &[Ready(0b111), Cnt(3), R(A), S(B), Multi(false)])?;
    r.expect_stack(&[A, B, C], &NO_ERR)
}

/// X04: a producer pop beside a compound branch is held, not suppressed: (a) EX0 PO,
/// (b) EX1 PP D, (c) EX2 PO beside EX0 PU E: nothing is applied in the branch's cycle
/// (the oldest is held by the port limit, the younger by the oldest).
pub fn x04_stall_port_limit(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X04a", dut);
    r.load(&[A, B, C])?;
    // CBNN.XNOR on A, B: XNOR(0, 0) = taken.
    let inp = r.idle().cb(N, N, Xnor).pop(0);
    r.step(inp, &[R(A), S(B), Taken(true), Ready(0b110), Port(false)])?;
    r.step(r.idle().pop(0), &[Ready(0b111), Cnt(1), R(C), Port(false)])?;
    r.step(r.idle(), &[&[Cnt(0)][..], &NO_ERR].concat())?;

    let mut r = Run::new("X04b", dut);
    r.load(&[A, B, C])?;
    let inp = r.idle().cb(N, N, Xnor).pop_push(1, D);
    r.step(inp, &[Taken(true), Ready(0b101)])?;
    r.step(r.idle().pop_push(1, D), &[Ready(0b111), Cnt(1), R(C)])?;
    r.expect_stack(&[D], &NO_ERR)?;

    let mut r = Run::new("X04c", dut);
    r.load(&[A, B, C])?;
    let inp = r.idle().cb(N, N, Xnor).pop(2).push(0, E);
    r.step(inp, &[Taken(true), Ready(0b010), Cnt(3)])?;
    r.step(r.idle().pop(2).push(0, E), &[Ready(0b110), Cnt(1), R(C)])?;
    r.step(r.idle().push(0, E), &[Ready(0b111), Cnt(0)])?;
    r.expect_stack(&[E], &NO_ERR)
}
