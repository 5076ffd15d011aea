//! X11 (`issue_order = "fullest"`, contract R4): among the eligible PENDING tasks the one
//! with the most instances goes to the output slot first, ties to the oldest, after
//! `sort_state`'s preference for the last issued state. Expected values written by hand from
//! the rule, on C0 (5 entries, width 8, sort_state on) with the key.

use super::check::*;
use super::*;

/// X11: five tasks of distinct keys, all on tile pipe 0, in creation order VS A (1 instance),
/// VS B (2), VS C (3), VS D (2), DS C (1; no HS C is resident, so it has no producer), made
/// PENDING together by a one-cycle drain in c9. From c10 every task is eligible: VS C goes
/// first (the fullest); then DS C, the only task of the last issued state C (sort_state wins
/// over the count); then VS B and VS D, tied at 2 (B is older); then VS A.
///
/// With `registered_issue` (R4r) every task reaches the out port one cycle later, and the
/// pick made while a task moves sees the last issued state before that move: VS C is picked
/// in c10 and moves in c11, when B is picked (no state issued yet: the fullest, B before D);
/// in c12 the last state is C, so DS C is picked; in c13 it is B (none pending), so VS D; then
/// VS A. The order is C, B, DS C, D, A.
fn x11_case(name: &'static str, dut: &mut dyn Dut<TaskCombiner>, lag: u32) -> Result<(), String> {
    let mut r = Run::new(name, dut);
    let keys = [(VS, A), (VS, B), (VS, B), (VS, C), (VS, C), (VS, C), (VS, D), (VS, D), (DS, C)];
    for (k, &(s, st)) in keys.iter().enumerate() {
        r.step(r.i(s, st, k as u64, 0), &[InReady(true), OutValid(false)])?; // c0..c8
    }
    r.step(r.idle().drain(), &[StValid(0b11111), StPending(0)])?; // c9
    r.step(r.idle(), &[StPending(0b11111), OutValid(false)])?; // c10: the first pick moves
    if lag == 1 {
        r.step(r.idle(), &[OutValid(false)])?; // R4r: picked in c10, moves at the end of c11
    }
    let order = if lag == 0 {
        [(VS, C, 3), (DS, C, 1), (VS, B, 2), (VS, D, 2), (VS, A, 1)]
    } else {
        [(VS, C, 3), (VS, B, 2), (DS, C, 1), (VS, D, 2), (VS, A, 1)]
    };
    for (s, st, n) in order {
        r.step(r.idle(), &[Out(s, st, n, DRAIN, 0b0001)])?; // c11.. (c12.. with lag)
    }
    r.step(r.idle(), &[OutValid(false), StValid(0)])?;
    Ok(())
}

pub fn x11_issue_fullest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    x11_case("X11", dut, 0)
}

pub fn x11_issue_fullest_registered(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    x11_case("X11/reg", dut, 1)
}
