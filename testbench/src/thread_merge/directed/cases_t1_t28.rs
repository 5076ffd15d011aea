//! The spec's §5.8 cases T1–T28 under contract §6: as written, with the changed values,
//! T24 rewritten, and the additions T1b, T5b, T9b, T15b, T16b, T19b, T22b.

use super::runner::*;
use super::*;

// ---- §5.8 cases ------------------------------------------------------------------------

/// T1 reset: @1 after a reset in cycle 0 (changed: free_cnt 4, + me_ready 1).
pub fn t1(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    Case::new().at(1, &clean()).run(dut)
}

/// T1b (addition): a dirty block (merged slot, single, candidate, descriptor and response
/// pending, both errors, merge_count 1) is reset for two cycles and is clean after; the
/// slot is reused from tgid 0 and merge_count restarts.
pub fn t1b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c); // pair (0, 1) at edge 2
    c.frag(3, f(0b1111, 3)) // single tgid 2 at edge 3
        .frag(7, f(0b0001, 4)) // candidate at edge 7
        .frag(8, f(0b1111, 5)) // single tgid 4 at edge 8, held by grp_ready 0
        .me(4, 0) // WAIT
        .me(5, 1) // merge
        .me(6, 7) // FREE id: err_proto
        .me(8, 2) // single: resume response @9
        .xl(7, 0) // POST: err_xlane
        .grp_block(8, 10)
        .reset(9, 10)
        .frag(11, f(0b0111, 6))
        .frag(12, f(0b1000, 7));
    c.at(6, &rsp(0, true, 0b1111))
        .at(6, &[MergeCount(1)])
        .at(
            9,
            &[
                GrpValid(true),
                ATgid(4),
                RspValid(true),
                RspTgid(2),
                PendValid(true),
                ErrProto(true),
                ErrXlane(true),
                MergeCount(1),
                FreeCnt(1),
                State(0, POST),
                State(2, POST),
                State(4, PRE),
            ],
        )
        .at(11, &clean())
        .at(
            11,
            &[
                RfWmask(0, 0),
                RfExec(0, 0),
                RfPost(0, false),
                WbActive(0, 0),
                WbTagSelf(0, 0),
            ],
        )
        .at(13, &pair(0, 0b0111, 6, 0b1000, 0, 7))
        .at(13, &[MergeCount(0), FreeCnt(3)]);
    c.run(dut)
}

/// T2 full quad is never a candidate.
pub fn t2(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b1111, 0xA0))
        .at(2, &single(0, 0b1111, 0xA0))
        .at(2, &[PendValid(false), FreeCnt(3), State(0, PRE)])
        .at(2, &[RfWmask(0, 0b1111), RfExec(0, 0b1111), RfPerm(0, 0)]);
    c.run(dut)
}

/// T3 identity pairing (changed: free_cnt 4 @2, 3 @3).
pub fn t3(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.at(2, &[GrpValid(false), PendValid(true), FreeCnt(4)])
        .at(3, &pair(0, 0b0111, 0x10, 0b1000, 0, 0x11))
        .at(3, &[PendValid(false), FreeCnt(3)])
        .at(
            3,
            &[
                RfWmask(1, 0b1000),
                RfExec(1, 0b1111),
                RfWmask(0, 0b0111),
                RfExec(0, 0b1111),
            ],
        );
    c.run(dut)
}

/// T4 remap rot180.
pub fn t4(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t4(&mut c);
    c.at(3, &pair(0, 0b0111, 0x30, 0b1000, 3, 0x31))
        .at(3, &[RfPerm(1, 3), RfPerm(0, 0)]);
    c.run(dut)
}

/// T5 remap mirror-y.
pub fn t5(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0011, 0x40))
        .frag(2, f(0b0011, 0x41))
        .at(3, &pair(0, 0b0011, 0x40, 0b1100, 2, 0x41));
    c.run(dut)
}

/// T5b remap mirror-x.
pub fn t5b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0101, 0x42))
        .frag(2, f(0b0101, 0x43))
        .at(3, &pair(0, 0b0101, 0x42, 0b1010, 1, 0x43));
    c.run(dut)
}

/// T6 row + diagonal is not mergeable (changed: second single a_tgid 2).
pub fn t6(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0011, 0x20))
        .frag(2, f(0b0110, 0x21))
        .at(3, &single(0, 0b0011, 0x20))
        .at(3, &[PendValid(true)])
        .during(4, 7, &[GrpValid(false), PendValid(true)])
        .at(8, &single(2, 0b0110, 0x21))
        .at(8, &[PendValid(false)]);
    c.run(dut)
}

/// T7 remap disabled.
pub fn t7(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x50))
        .frag(2, f(0b0001, 0x51))
        .at(3, &single(0, 0b0111, 0x50))
        .at(3, &[PendValid(true)]);
    c.run(dut)
}

/// T8 a primitive change flushes; no cross-primitive pairing.
pub fn t8(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x60))
        .frag(2, f(0b1000, 0x61).prim(2))
        .at(2, &[FragReady(false)])
        .at(3, &single(0, 0b0111, 0x60))
        .at(3, &[FragReady(true)])
        .at(4, &[PendValid(true), GrpValid(false)]);
    c.run(dut)
}

/// T9 hold expiry.
pub fn t9(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x70))
        .during(2, 6, &[GrpValid(false), PendValid(true)])
        .at(7, &single(0, 0b0111, 0x70))
        .at(7, &[PendValid(false)]);
    c.run(dut)
}

/// T9b pair_hold 0 holds until an explicit flush.
pub fn t9b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x71))
        .flush(20)
        .during(2, 20, &[PendValid(true), GrpValid(false)])
        .at(21, &single(0, 0b0111, 0x71))
        .at(21, &[PendValid(false)]);
    c.run(dut)
}

/// T10 the last fragment of a primitive is not held.
pub fn t10(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x80).last())
        .at(2, &single(0, 0b0111, 0x80))
        .at(2, &[PendValid(false)]);
    c.run(dut)
}

/// T11 a full fragment passes a pending partial one (changed: pair 2/3, free_cnt 2).
pub fn t11(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 1))
        .frag(2, f(0b1111, 2))
        .frag(3, f(0b1000, 3))
        .at(3, &single(0, 0b1111, 2))
        .at(3, &[PendValid(true)])
        .at(4, &pair(2, 0b0111, 1, 0b1000, 0, 3))
        .at(4, &[FreeCnt(2)]);
    c.run(dut)
}

/// T12 merge, A first (changed: free_cnt 3, + wb_active, wb_orig_lane).
pub fn t12(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t12(&mut c);
    c.during(11, 13, &[RspValid(false), State(0, WAIT)])
        .at(14, &rsp(0, true, 0b1111))
        .at(14, &[FreeCnt(3), State(1, FREE), State(0, POST), MergeCount(1)])
        .at(14, &[RfWmask(0, 0b1111), RfExec(0, 0b1111), RfPost(0, true)])
        .at(
            14,
            &[
                WbLaneSrc(0, 0b1000),
                WbTagSelf(0, 0x10),
                WbTagPartner(0, 0x11),
                WbPermPartner(0, 0),
                WbActive(0, 0b1111),
                WbOrig(0, [0, 1, 2, 3]),
            ],
        );
    c.run(dut)
}

/// T13 merge, B first: the survivor is still A.
pub fn t13(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 1).me(12, 0).at(13, &rsp(0, true, 0b1111));
    c.run(dut)
}

/// T14 write-back mapping with remap (+ wb_orig_lane 0, 1, 2, 0).
pub fn t14(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t4(&mut c);
    c.me(10, 0)
        .me(11, 1)
        .at(12, &[RspValid(true), RspMerged(true), RspActive(0b1111)])
        .at(
            12,
            &[
                WbLaneSrc(0, 0b1000),
                WbPermSelf(0, 0),
                WbPermPartner(0, 3),
                WbTagSelf(0, 0x30),
                WbTagPartner(0, 0x31),
                WbOrig(0, [0, 1, 2, 0]),
            ],
        );
    c.run(dut)
}

fn setup_t15(c: &mut Case) {
    c.frag(1, f(0b0111, 0x90).last()).me(5, 0);
    c.at(6, &rsp(0, false, 0b0111))
        .at(6, &[RfExec(0, 0b0111), RfWmask(0, 0b0111), RfPost(0, true)]);
}

/// T15 unpaired group: me resumes without merge, helpers stop.
pub fn t15(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t15(&mut c);
    c.run(dut)
}

/// T15b me in POST is a NOP with a response.
pub fn t15b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t15(&mut c);
    c.me(8, 0).at(9, &rsp(0, false, 0b0111)).at(9, &[ErrProto(false)]);
    c.run(dut)
}

/// T16 timeout (changed: free_cnt stays 3).
pub fn t16(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(20, 0)
        .me(40, 1)
        .during(21, 36, &[RspValid(false), State(0, WAIT)])
        .at(37, &rsp(0, false, 0b0111))
        .at(37, &[Broken(0, true), State(0, POST), FreeCnt(3)])
        .at(41, &rsp(1, false, 0b1000))
        .at(41, &[FreeCnt(3), MergeCount(0)]);
    c.run(dut)
}

/// T16b timeout boundary: the merge wins.
pub fn t16b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(20, 0)
        .me(36, 1)
        .during(21, 36, &[RspValid(false)])
        .at(37, &rsp(0, true, 0b1111))
        .during(38, 40, &[RspValid(false), MergeCount(1)]);
    c.run(dut)
}

/// T17 B terminates before the merge (changed: free_cnt 3, new group tgid 2).
pub fn t17(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.term(10, 1)
        .frag(11, f(0b1111, 0x55))
        .me(14, 0)
        .at(11, &[FreeCnt(3), Broken(0, true), State(1, FREE)])
        .at(12, &single(2, 0b1111, 0x55))
        .at(12, &[State(2, PRE)])
        .at(15, &rsp(0, false, 0b0111))
        .at(15, &[State(2, PRE)]);
    c.run(dut)
}

/// T18 A terminates before the merge; no ZOMBIE (changed: A FREE, free_cnt 3, then 4).
pub fn t18(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.term(10, 0)
        .me(12, 1)
        .term(20, 1)
        .frag(21, f(0b1111, 0x77))
        .at(11, &[State(0, FREE), FreeCnt(3), Broken(0, true)])
        .at(13, &rsp(1, false, 0b1000))
        .at(21, &[FreeCnt(4), State(0, FREE)])
        .at(22, &single(0, 0b1111, 0x77));
    c.run(dut)
}

/// T19 the partner terminates while the other waits (changed: free_cnt 3).
pub fn t19(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 0)
        .term(12, 1)
        .at(13, &rsp(0, false, 0b0111))
        .at(13, &[FreeCnt(3)]);
    c.run(dut)
}

/// T19b A terminates while B waits (changed: A FREE, free_cnt 3, then 4).
pub fn t19b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 1)
        .term(12, 0)
        .term(16, 1)
        .at(13, &rsp(1, false, 0b1000))
        .at(13, &[State(0, FREE), FreeCnt(3)])
        .at(17, &[FreeCnt(4)]);
    c.run(dut)
}

/// T20 a discard before the merge shrinks the union.
pub fn t20(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.disc(10, 0, 0b0001)
        .me(12, 0)
        .me(13, 1)
        .at(11, &[RfWmask(0, 0b0110), RfExec(0, 0b1111)])
        .at(14, &rsp(0, true, 0b1110))
        .at(14, &[WbLaneSrc(0, 0b1000)]);
    c.run(dut)
}

/// T21 a 1+1 merge leaves inactive lanes.
pub fn t21(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0001, 1))
        .frag(2, f(0b0010, 2))
        .me(10, 0)
        .me(11, 1)
        .at(3, &pair(0, 0b0001, 1, 0b0010, 0, 2))
        .at(12, &rsp(0, true, 0b0011))
        .at(12, &[RfExec(0, 0b0011)]);
    c.run(dut)
}

/// T22 a cross-lane op after the merge sets err_xlane, sticky.
pub fn t22(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t12(&mut c);
    c.xl(20, 0)
        .during(14, 20, &[ErrXlane(false)])
        .during(21, 25, &[ErrXlane(true)]);
    c.run(dut)
}

/// T22b (T22's "separately"): cross-lane ops of PRE and WAIT groups are fine.
pub fn t22b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.xl(5, 0)
        .me(10, 0)
        .xl(12, 0)
        .xl(13, 1)
        .at(12, &[State(0, WAIT)])
        .during(6, 15, &[ErrXlane(false), ErrProto(false)]);
    c.run(dut)
}

/// T23 output back-pressure (changed: second descriptor a_tgid 2).
pub fn t23(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.grp_block(2, 4)
        .frag(1, f(0b1111, 1))
        .frag(2, f(0b1111, 2))
        .during(2, 5, &single(0, 0b1111, 1))
        .during(2, 4, &[FragReady(false)])
        .at(5, &[FragReady(true)])
        .at(6, &single(2, 0b1111, 2));
    c.run(dut)
}

/// T24 (rewritten) slot exhaustion.
pub fn t24(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    for k in 1..=4 {
        c.frag(k, f(0b1111, k as u64));
    }
    c.frag(5, f(0b1111, 5))
        .term(7, 2)
        .at(2, &[ATgid(0)])
        .at(3, &[ATgid(2)])
        .at(4, &[ATgid(4)])
        .at(5, &[ATgid(6)])
        .during(5, 7, &[FragReady(false), FreeCnt(0)])
        .at(8, &[FreeCnt(1), FragReady(true)])
        .at(9, &single(2, 0b1111, 5));
    c.run(dut)
}

/// T25 response-port arbitration (+ @16 st_owe[0] = 1).
pub fn t25(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0xa))
        .frag(2, f(0b1000, 0xb))
        .frag(3, f(0b0111, 0xc))
        .frag(4, f(0b1000, 0xd))
        .me(10, 0)
        .me(11, 2)
        .term(15, 1)
        .me(15, 3)
        .at(3, &pair(0, 0b0111, 0xa, 0b1000, 0, 0xb))
        .at(5, &pair(2, 0b0111, 0xc, 0b1000, 0, 0xd))
        .at(16, &rsp(2, true, 0b1111))
        .at(16, &[Owe(0, true)])
        .at(17, &rsp(0, false, 0b0111))
        .at(17, &[Owe(0, false)])
        .at(18, &[RspValid(false)]);
    c.run(dut)
}

/// T26 same-edge term of the partner and me (changed: free_cnt 3).
pub fn t26(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.term(10, 1)
        .me(10, 0)
        .at(11, &rsp(0, false, 0b0111))
        .at(11, &[FreeCnt(3)]);
    c.run(dut)
}

/// T27 me for a FREE group (tgid 5 = slot 2 member 1).
pub fn t27(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b1111, 0xA0))
        .me(5, 5)
        .at(5, &[ErrProto(false), MeReady(true)])
        .at(6, &[ErrProto(true), RspValid(false)]);
    c.run(dut)
}

/// T28 lanes 8: one remap for both quads.
pub fn t28(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0001_0111, 1))
        .frag(2, f(0b0001_0001, 2))
        .at(3, &pair(0, 0b0001_0111, 1, 0b1000_1000, 3, 2));
    c.run(dut)
}
