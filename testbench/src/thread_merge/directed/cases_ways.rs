//! Cases for `merge_ways` W = 3 and 4 (contract R20) at 4 lanes, 4 slots: W01–W10.
//!
//! Ids: `tgid = 4s + m` (TGID_W = 4 at 4 slots); member 3 of a W = 3 slot names nothing.
//! Every expected value below is worked out by hand from R4–R13 as R20 changes them; none
//! is taken from the model or the RTL. The working is in each case's comment:
//!
//! * R5 `merge(U, F)` is the first p in 0, 1, 2, 3 with `U & xperm(F, p) == 0`, where
//!   `xperm` moves lane i of a quad to lane i ^ p (lanes: 0 = (y0, x0), 1 = (y0, x1),
//!   2 = (y1, x0), 3 = (y1, x1); masks MSB first, `0b0001` = lane 0).
//! * R20 formation: a joining F is member n with `c_n = xperm(F, p)`, `p_n = p`; the set
//!   leaves when it has W members, covers every lane, or F is `last`; else it is held and
//!   ages with its first fragment's age (R6: accepted at edge k, it leaves at edge k + 5
//!   with `pair_hold` 4, descriptor @k+6).
//! * R20 me: a member merges the set when every other member is WAIT or FREE, else it
//!   waits; the merge answers {4s, merged 1, retire 1, retire_tgid 4s + 1,
//!   retire_mask = the other members}. R20 timeout, `merge_timeout` 16: the first member to
//!   wait at edge k sets the counter to 0; it counts at every later edge with a member WAIT
//!   in S0, so every waiting member times out at edge k + 16 (response @k+17 for the lowest
//!   tgid, one more per cycle), unless a me merges at that edge (R10 before R11).
//! * R20 lookups after a merge (mv): lane i's source member is the retired member whose
//!   frozen mask has lane i (0 if none); `wb_orig_lane[i] = (i & ~3) | ((i & 3) ^ p_src)`,
//!   A's perm 0.
//!
//! Parameters: these cases run on the two R20 lockstep configurations (one Verilated build
//! each, shared with the lockstep runs): W = 3 is C0 with `perf_counters`, W = 4 is C0 with
//! `cross_primitive`. Neither option changes anything here: `perf_sel`, `perf_clr`,
//! `err_clr` stay 0 (the counters only count) and every fragment is primitive 1 (R18 only
//! drops R4's primitive-change term).

use super::runner::*;
use super::*;

/// A descriptor of slot s: members (cov, perm, tag) in order (member 0's perm is 0),
/// with `grp_c_valid`, and at W = 4 `grp_d_valid`, as the set's size says.
fn set(s: u64, w: usize, members: &[(u64, u8, u64)]) -> Vec<Exp> {
    let a = 4 * s;
    let n = members.len();
    let mut v = vec![GrpValid(true), Paired(n >= 2), ATgid(a), ACov(members[0].0), ATag(members[0].2)];
    if let Some(&(cov, perm, tag)) = members.get(1) {
        v.extend([BTgid(a + 1), BCov(cov), BPerm(perm), BTag(tag)]);
    }
    v.push(CValid(n >= 3));
    if let Some(&(cov, perm, tag)) = members.get(2) {
        v.extend([CTgid(a + 2), CCov(cov), CPerm(perm), CTag(tag)]);
    }
    if w == 4 {
        v.push(DValid(n == 4));
        if let Some(&(cov, perm, tag)) = members.get(3) {
            v.extend([DTgid(a + 3), DCov(cov), DPerm(perm), DTag(tag)]);
        }
    }
    v
}

/// A merge response of slot A `t` with `active` retiring the members of `mask`.
fn merged(t: u64, active: u64, mask: u64) -> Vec<Exp> {
    let mut v = rsp(t, true, active);
    v.push(RspRetireMask(mask));
    v
}

/// The three 1-lane fragments 0001, 0010, 0100 (tags tag, tag+1, tag+2) @1-@3: each joins
/// with p = 0 (0001 & 0010 = 0, 0011 & 0100 = 0); with W = 3 the third makes W members, so
/// the set leaves at edge 3 (@4, slot 0: tgids 0, 1, 2).
fn setup_three(c: &mut Case, tag: u64) {
    c.frag(1, f(0b0001, tag)).frag(2, f(0b0010, tag + 1)).frag(3, f(0b0100, tag + 2));
}

/// W01 (W = 3): a set of three 1-lane fragments 0001, 0010, 0100 (tags 0x21-0x23) is held
/// @2-@3 and leaves with its third member @4 (slot 0: tgids 0, 1, 2, no remap). me{0} @5 and
/// me{1} @6 wait; me{2} @7 finds every other member WAIT or FREE (3 names nothing): MERGE,
/// @8 {0, merged 1, active 0111, retire_tgid 1, retire_mask 11}. Lookups of A @8: lane
/// sources 0, 1, 2, 0 (lane 3 has none), `wb_lane_src` 0110, C's tag 0x23, every perm 0 so
/// `wb_orig_lane` = 0, 1, 2, 3; B and C are FREE (lookups 0). me{3} @9: id 3 names nothing
/// (R20 Ids): `err_proto` @10, no response.
pub fn w01(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_three(&mut c, 0x21);
    c.me(5, 0).me(6, 1).me(7, 2).me(9, 3);
    c.at(1, &[FragReady(true), FreeCnt(4)])
        .during(2, 3, &[PendValid(true), GrpValid(false), FragReady(true), FreeCnt(4)])
        .at(4, &set(0, 3, &[(0b0001, 0, 0x21), (0b0010, 0, 0x22), (0b0100, 0, 0x23)]))
        .at(4, &[PendValid(false), FreeCnt(3), State(0, PRE), State(1, PRE), State(2, PRE), State(3, FREE)])
        .at(4, &[RfPerm(2, 0), RfWmask(2, 0b0100), RfExec(2, 0b1111), RfPost(2, false)])
        .at(6, &[State(0, WAIT), State(1, PRE), RspValid(false), RfExec(0, 0b1111), RfPost(0, false)])
        .at(7, &[State(0, WAIT), State(1, WAIT), State(2, PRE), RspValid(false), MergeCount(0)])
        .at(8, &merged(0, 0b0111, 0b11))
        .at(8, &[MergeCount(1), State(0, POST), State(1, FREE), State(2, FREE), State(3, FREE), FreeCnt(3)])
        .at(8, &[Active(0, 0b0111), Owe(0, false), Owe(1, false), Owe(2, false)])
        .at(
            8,
            &[
                WbActive(0, 0b0111),
                WbLaneMem(0, [0, 1, 2, 0]),
                WbLaneSrc(0, 0b0110),
                WbTagSelf(0, 0x21),
                WbPermSelf(0, 0),
                WbTagPartner(0, 0x22),
                WbPermPartner(0, 0),
                WbTagC(0, 0x23),
                WbPermC(0, 0),
                WbOrig(0, [0, 1, 2, 3]),
                RfWmask(0, 0b0111),
                RfExec(0, 0b0111),
                RfPost(0, true),
            ],
        )
        .at(8, &[WbActive(1, 0), WbTagSelf(1, 0), WbTagC(1, 0), WbLaneMem(1, [0, 0, 0, 0]), RfExec(1, 0)])
        .at(9, &[RspValid(false), ErrProto(false), MeReady(true), RfExec(3, 0), WbActive(3, 0)])
        .at(10, &[ErrProto(true), RspValid(false), State(0, POST), MergeCount(1)]);
    c.run(dut)
}

/// W02 (W = 3): joins that need a remap. Three fragments 0001 (tags 0x31-0x33) @1-@3: the
/// second fits only under p = 1 (xperm(0001, 1) = 0010), the third only under p = 2
/// (0100; p = 0, 1 hit lanes 0, 1 of U = 0011). @4 the set {0001 p 0, 0010 p 1, 0100 p 2};
/// `rf_perm` 1 and 2 for B and C. C before the merge @5 (PRE, not merged): its own perm 2,
/// `wb_orig_lane` = i ^ 2 = 2, 3, 0, 1, no lane sources, no C record. me{2} @5, me{1} @6,
/// me{0} @7 merges (@8 {0, 0111, retire_mask 11}); A's lookups: lane 1 from B (perm 1:
/// sample 1 ^ 1 = 0), lane 2 from C (perm 2: 2 ^ 2 = 0), lane 0 its own (0), lane 3 none
/// (3): `wb_orig_lane` 0, 0, 0, 3. term{0} @9 frees the slot (@10).
pub fn w02(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0001, 0x31)).frag(2, f(0b0001, 0x32)).frag(3, f(0b0001, 0x33));
    c.me(5, 2).me(6, 1).me(7, 0).term(9, 0);
    c.during(2, 3, &[PendValid(true), GrpValid(false)])
        .at(4, &set(0, 3, &[(0b0001, 0, 0x31), (0b0010, 1, 0x32), (0b0100, 2, 0x33)]))
        .at(4, &[RfPerm(0, 0), RfPerm(1, 1), RfPerm(2, 2)])
        .at(
            5,
            &[
                WbActive(2, 0b0100),
                WbTagSelf(2, 0x33),
                WbPermSelf(2, 2),
                WbOrig(2, [2, 3, 0, 1]),
                WbLaneMem(2, [0, 0, 0, 0]),
                WbLaneSrc(2, 0),
                WbTagPartner(2, 0),
                WbTagC(2, 0),
                WbPermC(2, 0),
            ],
        )
        .at(6, &[State(2, WAIT), State(1, PRE)])
        .at(7, &[State(1, WAIT), State(2, WAIT), State(0, PRE)])
        .at(8, &merged(0, 0b0111, 0b11))
        .at(
            8,
            &[
                WbLaneMem(0, [0, 1, 2, 0]),
                WbLaneSrc(0, 0b0110),
                WbOrig(0, [0, 0, 0, 3]),
                WbTagSelf(0, 0x31),
                WbPermSelf(0, 0),
                WbTagPartner(0, 0x32),
                WbPermPartner(0, 1),
                WbTagC(0, 0x33),
                WbPermC(0, 2),
                RfPerm(0, 0),
            ],
        )
        .at(10, &[FreeCnt(4), State(0, FREE), WbActive(0, 0), WbTagC(0, 0), WbOrig(0, [0, 0, 0, 0])]);
    c.run(dut)
}

/// W03 (W = 4): sets that leave before they have 4 members.
/// (a) full union: 0011 @1 then 1100 @2 (p 0) cover every lane: a pair @3, slot 0.
/// (b) `last`: 0001 @3 held, 0010 `last` @4 joins (p 0) and leaves with it: pair @5, slot 1.
/// (c) full union at 3: 0001 @5, 0010 @6 (p 0), 1100 @7 (p 0, U = 1111): a set of 3 @8,
///     slot 2, no D.
/// (d) hold expiry: 0001 @8, 0001 @9 (p 1 → 0010), 0001 @10 (p 2 → 0100): U = 0111, 3 of 4
///     members, held; the first was accepted at edge 8, so `frag_ready` is 0 @13 (age 4)
///     and the set of 3 leaves at edge 13: @14 slot 3, then no slot is free.
pub fn w03(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0011, 0x41))
        .frag(2, f(0b1100, 0x42))
        .frag(3, f(0b0001, 0x43))
        .frag(4, f(0b0010, 0x44).last())
        .frag(5, f(0b0001, 0x45))
        .frag(6, f(0b0010, 0x46))
        .frag(7, f(0b1100, 0x47))
        .frag(8, f(0b0001, 0x48))
        .frag(9, f(0b0001, 0x49))
        .frag(10, f(0b0001, 0x4a));
    c.at(2, &[PendValid(true), GrpValid(false)])
        .at(3, &set(0, 4, &[(0b0011, 0, 0x41), (0b1100, 0, 0x42)]))
        .at(3, &[FreeCnt(3), FragReady(true)])
        .at(4, &[PendValid(true), GrpValid(false)])
        .at(5, &set(1, 4, &[(0b0001, 0, 0x43), (0b0010, 0, 0x44)]))
        .at(5, &[FreeCnt(2), PendValid(false)])
        .during(6, 7, &[PendValid(true), GrpValid(false)])
        .at(8, &set(2, 4, &[(0b0001, 0, 0x45), (0b0010, 0, 0x46), (0b1100, 0, 0x47)]))
        .at(8, &[FreeCnt(1), PendValid(false)])
        .during(9, 12, &[PendValid(true), GrpValid(false), FragReady(true)])
        .at(13, &[PendValid(true), GrpValid(false), FragReady(false), FreeCnt(1)])
        .at(14, &set(3, 4, &[(0b0001, 0, 0x48), (0b0010, 1, 0x49), (0b0100, 2, 0x4a)]))
        .at(14, &[PendValid(false), FreeCnt(0), FragReady(false)])
        .at(14, &[State(12, PRE), State(13, PRE), State(14, PRE), State(15, FREE)]);
    c.run(dut)
}

/// W04 (W = 3): a fragment that fits no remap of the union ends the set. 0001 @1, 0010 @2
/// (p 0, U = 0011), 0111 @3: `xperm(0111, p)` = 0111, 1011, 1101, 1110 all meet 0011, so the
/// set of 2 leaves (@4, pair in slot 0, no C) and 0111 is held alone (accepted at edge 3:
/// `frag_ready` 0 @8, single @9 in slot 1).
pub fn w04(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0001, 0x51)).frag(2, f(0b0010, 0x52)).frag(3, f(0b0111, 0x53));
    c.at(3, &[PendValid(true), GrpValid(false)])
        .at(4, &set(0, 3, &[(0b0001, 0, 0x51), (0b0010, 0, 0x52)]))
        .at(4, &[PendValid(true), FreeCnt(3)])
        .during(5, 7, &[PendValid(true), GrpValid(false), FragReady(true)])
        .at(8, &[PendValid(true), FragReady(false)])
        .at(9, &set(1, 3, &[(0b0111, 0, 0x53)]))
        .at(9, &[PendValid(false), FreeCnt(2)]);
    c.run(dut)
}

/// W05 (W = 4): a set broken by a member's term. Four 1-lane fragments 0001, 0010, 0100,
/// 1000 (tags 0x61-0x64) @1-@4 join with p 0; the fourth makes W members: @5 the set of 4,
/// slot 0. me{3} @6 and me{1} @7 wait; term{2} @8 (C, PRE) breaks the set: 2 FREE, the
/// waiting 1 and 3 POST and owed. No me at edge 8, so the lowest owed tgid, 1, is loaded:
/// @9 {1, merged 0, 0010}, 3 still owed; @10 {3, merged 0, 1000}. me{0} @11 on the broken
/// slot: POST, @12 {0, merged 0, 0001}; nothing merged.
pub fn w05(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0001, 0x61)).frag(2, f(0b0010, 0x62)).frag(3, f(0b0100, 0x63)).frag(4, f(0b1000, 0x64));
    c.me(6, 3).me(7, 1).term(8, 2).me(11, 0);
    c.during(2, 4, &[PendValid(true), GrpValid(false)])
        .at(5, &set(0, 4, &[(0b0001, 0, 0x61), (0b0010, 0, 0x62), (0b0100, 0, 0x63), (0b1000, 0, 0x64)]))
        .at(5, &[PendValid(false), FreeCnt(3)])
        .at(8, &[State(1, WAIT), State(3, WAIT), State(2, PRE), State(0, PRE), Broken(0, false), RspValid(false)])
        .at(9, &rsp(1, false, 0b0010))
        .at(9, &[State(0, PRE), State(1, POST), State(2, FREE), State(3, POST), Broken(0, true)])
        .at(9, &[Owe(1, false), Owe(3, true), FreeCnt(3), RfPost(1, true), RfExec(1, 0b0010)])
        .at(10, &rsp(3, false, 0b1000))
        .at(10, &[Owe(3, false)])
        .at(11, &[RspValid(false)])
        .at(12, &rsp(0, false, 0b0001))
        .at(12, &[State(0, POST), MergeCount(0)]);
    c.run(dut)
}

/// W06 (W = 3): a timeout with two members waiting. The set of W01's fragments (tags
/// 0x71-0x73) is in slot 0 @4; me{1} @5 starts the wait counter, me{2} @9 waits too (the
/// counter runs on: 1 is WAIT in S0), A never arrives. Timeout at edge 5 + 16 = 21: both
/// POST and owed, broken; @22 {1, merged 0, 0010} (2 still owed), @23 {2, merged 0, 0100}.
/// me{0} @23 on the broken slot: @24 {0, merged 0, 0001}.
pub fn w06(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_three(&mut c, 0x71);
    c.me(5, 1).me(9, 2).me(23, 0);
    c.at(4, &set(0, 3, &[(0b0001, 0, 0x71), (0b0010, 0, 0x72), (0b0100, 0, 0x73)]))
        .during(6, 21, &[State(1, WAIT), RspValid(false), Broken(0, false)])
        .at(9, &[State(2, PRE)])
        .during(10, 21, &[State(2, WAIT)])
        .at(21, &[Owe(1, false), Owe(2, false)])
        .at(22, &rsp(1, false, 0b0010))
        .at(22, &[State(1, POST), State(2, POST), State(0, PRE), Broken(0, true), Owe(1, false), Owe(2, true)])
        .at(23, &rsp(2, false, 0b0100))
        .at(23, &[Owe(2, false)])
        .at(24, &rsp(0, false, 0b0001))
        .at(24, &[MergeCount(0)]);
    c.run(dut)
}

/// W07 (W = 3): the timeout also takes a member that parks at its edge. me{1} @5 starts the
/// counter; me{2} @21 finds A PRE and waits (the counter is not restarted: 1 is WAIT in S0),
/// and the timeout at edge 21 moves every member then WAIT, 1 and 2, to POST, owed. The me
/// gives no response (it waited), so edge 21 loads the owed resume of 1: @22 {1, 0010},
/// 2 owed; @23 {2, 0100}.
pub fn w07(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_three(&mut c, 0x74);
    c.me(5, 1).me(21, 2);
    c.at(21, &[State(1, WAIT), State(2, PRE), MeReady(true), RspValid(false)])
        .at(22, &rsp(1, false, 0b0010))
        .at(22, &[State(1, POST), State(2, POST), Owe(2, true), Broken(0, true)])
        .at(23, &rsp(2, false, 0b0100))
        .at(23, &[Owe(2, false), MergeCount(0)]);
    c.run(dut)
}

/// W08 (W = 3): a last me at the timeout edge still merges (R10 before R11). me{1} @5,
/// me{2} @6 wait; me{0} @21, the edge the counter reaches 15: every other member WAIT, so
/// MERGE: @22 {0, merged 1, 0111, retire_mask 11}, nothing owed, slot not broken.
pub fn w08(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_three(&mut c, 0x77);
    c.me(5, 1).me(6, 2).me(21, 0);
    c.at(21, &[State(1, WAIT), State(2, WAIT), RspValid(false)])
        .at(22, &merged(0, 0b0111, 0b11))
        .at(22, &[MergeCount(1), State(0, POST), State(1, FREE), State(2, FREE), Owe(1, false), Owe(2, false)])
        .at(22, &[Broken(0, false)])
        .at(23, &[RspValid(false)]);
    c.run(dut)
}

/// W09 (W = 4): a set of four 1-lane fragments, each on lane 3 (1000, tags 0x81-0x84) @1-@4,
/// so every join needs a remap: the second fits under p 1 (lane 3 ^ 1 = 2: 0100), the third
/// under p 2 (lane 1: 0010; p 0, 1 hit U = 1100), the fourth under p 3 (lane 0: 0001): @5
/// the set of 4, `rf_perm` 1, 2, 3. D before the merge @8 (PRE, its me at edge 8): own perm 3, orig lanes
/// i ^ 3 = 3, 2, 1, 0, no D record. me{1} @6, me{0} @7, me{3} @8 wait; me{2} @9 merges:
/// @10 {0, merged 1, 1111, retire_mask 111}. A's lookups: lanes 0, 1, 2 come from D, C, B
/// (`wb_lane_mem` 3, 2, 1, 0; `wb_lane_src` 0111), each from its fragment's lane 3:
/// `wb_orig_lane` 0 ^ 3, 1 ^ 2, 2 ^ 1, 3 = 3, 3, 3, 3. disc{0, 0011} @11 shrinks A's mask
/// only; the retired members' frozen masks still give the lane sources (@12). term{0} @13
/// frees the slot (@14, every lookup 0).
pub fn w09(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    for k in 0..4u32 {
        c.frag(1 + k, f(0b1000, 0x81 + u64::from(k)));
    }
    c.me(6, 1).me(7, 0).me(8, 3).me(9, 2).disc(11, 0, 0b0011).term(13, 0);
    c.during(2, 4, &[PendValid(true), GrpValid(false), FragReady(true)])
        .at(5, &set(0, 4, &[(0b1000, 0, 0x81), (0b0100, 1, 0x82), (0b0010, 2, 0x83), (0b0001, 3, 0x84)]))
        .at(5, &[RfPerm(0, 0), RfPerm(1, 1), RfPerm(2, 2), RfPerm(3, 3), FreeCnt(3)])
        .at(
            8,
            &[
                WbActive(3, 0b0001),
                WbTagSelf(3, 0x84),
                WbPermSelf(3, 3),
                WbOrig(3, [3, 2, 1, 0]),
                WbLaneMem(3, [0, 0, 0, 0]),
                WbTagD(3, 0),
                WbPermD(3, 0),
            ],
        )
        .at(9, &[State(0, WAIT), State(1, WAIT), State(2, PRE), State(3, WAIT), RspValid(false)])
        .at(10, &merged(0, 0b1111, 0b111))
        .at(10, &[MergeCount(1), State(0, POST), State(1, FREE), State(2, FREE), State(3, FREE), FreeCnt(3)])
        .at(
            10,
            &[
                WbActive(0, 0b1111),
                WbLaneMem(0, [3, 2, 1, 0]),
                WbLaneSrc(0, 0b0111),
                WbTagSelf(0, 0x81),
                WbPermSelf(0, 0),
                WbTagPartner(0, 0x82),
                WbPermPartner(0, 1),
                WbTagC(0, 0x83),
                WbPermC(0, 2),
                WbTagD(0, 0x84),
                WbPermD(0, 3),
                WbOrig(0, [3, 3, 3, 3]),
                RfWmask(0, 0b1111),
                RfExec(0, 0b1111),
                RfPost(0, true),
            ],
        )
        .at(12, &[WbActive(0, 0b1100), WbLaneMem(0, [3, 2, 1, 0]), WbLaneSrc(0, 0b0111), WbTagD(0, 0x84), RfExec(0, 0b1100)])
        .at(14, &[FreeCnt(4), State(0, FREE), WbActive(0, 0), WbLaneMem(0, [0, 0, 0, 0]), WbTagD(0, 0), WbPermD(0, 0)]);
    c.run(dut)
}

/// W10 (W = 3): a fourth fragment after a set of W starts a new one, and a set held over a
/// `flush` leaves with it. 0001, 0010, 0100 @1-@3 leave as a set of W = 3 (@4, slot 0);
/// 0001 @4 is held alone (a set of 1), 1000 @5 joins it (p 0, U = 1001). `flush` in cycle 7
/// (E0): the pair leaves at edge 7 (@8, slot 1: tgids 4, 5).
pub fn w10(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_three(&mut c, 0x91);
    c.frag(4, f(0b0001, 0x94)).frag(5, f(0b1000, 0x95)).flush(7);
    c.at(4, &set(0, 3, &[(0b0001, 0, 0x91), (0b0010, 0, 0x92), (0b0100, 0, 0x93)]))
        .at(4, &[PendValid(false), FragReady(true)])
        .during(5, 7, &[PendValid(true)])
        .during(6, 7, &[GrpValid(false)])
        .at(7, &[FragReady(false)])
        .at(8, &set(1, 3, &[(0b0001, 0, 0x94), (0b1000, 0, 0x95)]))
        .at(8, &[PendValid(false), FreeCnt(2)]);
    c.run(dut)
}
