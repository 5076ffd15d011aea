//! X07 (`branch_fetch_gate`, rule SB6 of docs/blocks/scoreboard.md; spec [0144], [0145], §8
//! item 7): the instruction before a scoreboard branch annotates all of the branch's sets, and
//! its group may fetch the branch as soon as any one of them has drained. Expected values
//! written by hand from the rule.

use super::*;

/// X07 at the default shape with four branch sets and the gate. Group 0 has loads in flight on
/// trackers 0, 1, 2 (c0-c2). c3: a MOV annotates a branch A={0}, B={1}, C={2}, D={0,1}; the
/// fetch is still open in c3 (the wait sets latch at the edge). c4, c5: every set busy, the
/// branch (any plain instruction here) is held; group 1 is not. Tracker 2 completes in c5, so
/// set C has drained from c6 (no bypass): the branch is fetched and fires in c6, annotating
/// nothing. c7: an instruction annotates set A={1} with `iss_nxt_br` = 0 and empty sets B, C, D,
/// which must not count: c8 is held on tracker 1 alone. c9: tracker 1 completed in c8, so the
/// fetch opens; the instruction annotates a branch A=B=C={0} (busy) and D empty: c10 may fetch
/// (set D, the fourth, has drained). c11: a clear of group 0 empties its sets; c12 is open
/// although tracker 0 was busy before the clear.
pub fn x07_branch_fetch_gate(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("X07", dut).cpl(5, 0, 2).cpl(8, 0, 1);
    r.issue_all(0, &[0, 1, 2])?; // c0-c2
    let mov = r.iss(0, None, 0, 0x01).nxt_br(0x02, 0x04, 0x03);
    r.step(mov, &[FetchOk(0, true), Fire(true)])?; // c3
    let br = r.iss(0, None, 0, 0);
    r.step(br.clone(), &[FetchOk(0, false), FetchOk(1, true), Ready(false)])?; // c4
    r.step(br.clone(), &[FetchOk(0, false), Ready(false), Cnt(0, 2, 1)])?; // c5: cpl(0,2)
    r.step(br, &[FetchOk(0, true), Fire(true), Cnt(0, 0, 1), Cnt(0, 1, 1), Cnt(0, 2, 0)])?; // c6
    let mut plain = r.iss(0, None, 0, 0x02);
    (plain.iss_nxt_mask_b, plain.iss_nxt_mask_c, plain.iss_nxt_mask_d) = (0, 0, 0);
    r.step(plain, &[FetchOk(0, true), Fire(true)])?; // c7: not a branch
    r.step(r.iss(0, None, 0, 0), &[FetchOk(0, false), Ready(false)])?; // c8: cpl(0,1)
    let to_d = r.iss(0, None, 0, 0x01).nxt_br(0x01, 0x01, 0);
    r.step(to_d, &[FetchOk(0, true), Fire(true), Cnt(0, 1, 0)])?; // c9
    r.step(r.idle(), &[FetchOk(0, true), Cnt(0, 0, 1)])?; // c10: D drained
    let busy = r.iss(0, None, 0, 0x01).nxt_br(0x01, 0x01, 0x01);
    r.step(busy, &[Fire(true)])?; // c11: every set on busy tracker 0
    r.step(r.idle().clr(0), &[FetchOk(0, false)])?; // c12: clear
    r.step(r.idle(), &[FetchOk(0, true), Cnt(0, 0, 0)]) // c13
}
