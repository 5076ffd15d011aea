//! Cases from the contract: K1–K4 (added to §5.8 by contract §6) and X01–X08 for
//! behaviour only the contract defines.

use super::runner::*;
use super::*;

// ---- contract cases K1–K4 ---------------------------------------------------------------

/// K1 rsp back-pressure holds the response and refuses me.
pub fn k1(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b1111, 1))
        .frag(2, f(0b1111, 2))
        .me(5, 0)
        .me(6, 2)
        .rsp_block(6, 8)
        .at(2, &single(0, 0b1111, 1))
        .at(3, &single(2, 0b1111, 2))
        .during(6, 9, &rsp(0, false, 0b1111))
        .during(6, 8, &[MeReady(false)])
        .at(9, &[MeReady(true)])
        .at(10, &rsp(2, false, 0b1111));
    c.run(dut)
}

/// K2 an owed resume behind a blocked response.
pub fn k2(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.frag(3, f(0b1111, 0x12))
        .me(9, 0)
        .me(10, 2)
        .term(11, 1)
        .rsp_block(11, 13)
        .at(4, &single(2, 0b1111, 0x12))
        .during(11, 14, &rsp(2, false, 0b1111))
        .during(12, 14, &[Owe(0, true)])
        .during(11, 13, &[MeReady(false)])
        .at(15, &rsp(0, false, 0b0111))
        .at(15, &[Owe(0, false)]);
    c.run(dut)
}

/// K3 slots 1: a pair in the one slot merges; the slot frees when A terminates.
pub fn k3(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.frag(3, f(0b1111, 0x12))
        .me(5, 1)
        .me(6, 0)
        .term(8, 0)
        .at(3, &pair(0, 0b0111, 0x10, 0b1000, 0, 0x11))
        .at(3, &[FreeCnt(0)])
        .during(3, 8, &[FragReady(false)])
        .at(7, &rsp(0, true, 0b1111))
        .at(9, &[FreeCnt(1), FragReady(true)])
        .at(10, &single(0, 0b1111, 0x12));
    c.run(dut)
}

/// K4 a fragment with cov 0 only sets err_proto.
pub fn k4(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0000, 1)).at(1, &[FragReady(true)]).at(
        2,
        &[ErrProto(true), PendValid(false), GrpValid(false), FreeCnt(4)],
    );
    c.run(dut)
}

// ---- cases for behaviour only the contract defines ----------------------------------------

/// X01 (R2, R8, R10, R13; slots 3): ids 6 and 7 name nothing; a FREE member looks up 0.
pub fn x01(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    for k in 1..=4 {
        c.frag(k, f(0b1111, k as u64));
    }
    c.me(5, 6)
        .disc(6, 7, 0b1111)
        .term(7, 7)
        .at(1, &[FreeCnt(3)])
        .at(4, &[ATgid(4), FreeCnt(0)])
        .during(4, 8, &[FragReady(false)])
        .at(
            5,
            &[
                RfWmask(6, 0),
                RfExec(6, 0),
                RfPost(6, false),
                WbActive(6, 0),
                WbTagSelf(6, 0),
            ],
        )
        .at(
            5,
            &[
                RfExec(7, 0),
                RfExec(5, 0),
                WbOrig(5, [0, 0, 0, 0]),
                RfExec(4, 0b1111),
            ],
        )
        .at(5, &[ErrProto(false)])
        .at(6, &[ErrProto(true), RspValid(false)])
        .at(8, &[FreeCnt(0), State(4, PRE), State(5, FREE)]);
    c.run(dut)
}

/// K2's stimulus up to an owed resume of group 0 behind a response blocked in 11–14.
fn setup_owed(c: &mut Case) {
    setup_t3(c);
    c.frag(3, f(0b1111, 0x12))
        .me(9, 0)
        .me(10, 2)
        .term(11, 1)
        .rsp_block(11, 14);
    c.during(11, 15, &rsp(2, false, 0b1111))
        .during(12, 13, &[Owe(0, true)]);
}

/// X02 (D7, R8): a term of the owed group cancels its resume.
pub fn x02(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_owed(&mut c);
    c.term(13, 0)
        .at(14, &[Owe(0, false), State(0, FREE), FreeCnt(3)])
        .during(16, 18, &[RspValid(false)]);
    c.run(dut)
}

/// X03 (D7, R10): a me response of the owed group replaces its resume.
pub fn x03(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_owed(&mut c);
    c.me(13, 0)
        .during(13, 14, &[MeReady(false)])
        .at(15, &[MeReady(true)])
        .at(16, &rsp(0, false, 0b0111))
        .at(16, &[Owe(0, false)])
        .during(17, 18, &[RspValid(false)]);
    c.run(dut)
}

/// X04 (R3, R9, D7): disc on a WAIT group is an error; disc and me at one edge: the
/// merge and `rsp_active` see the discard.
pub fn x04(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 1)
        .disc(11, 1, 0b1000)
        .disc(12, 0, 0b0010)
        .me(12, 0)
        .at(11, &[ErrProto(false), State(1, WAIT)])
        .at(12, &[ErrProto(true)])
        .at(13, &rsp(0, true, 0b1101))
        .at(13, &[WbActive(0, 0b1101), WbLaneSrc(0, 0b1000)]);
    c.run(dut)
}

/// X05 (R4 E1): a full last fragment marks the candidate last; it leaves alone next edge
/// and a later partial fragment is not paired with it.
pub fn x05(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 1))
        .frag(2, f(0b1111, 2).last())
        .frag(3, f(0b1000, 3))
        .at(3, &single(0, 0b1111, 2))
        .at(3, &[PendValid(true), FragReady(false)])
        .at(4, &single(2, 0b0111, 1))
        .at(4, &[PendValid(false), FragReady(true)])
        .at(5, &[PendValid(true), GrpValid(false)]);
    c.run(dut)
}

/// X06 (D3, R13): a discard after the merge shrinks wb_active, B's record stays frozen;
/// the retired B is FREE.
pub fn x06(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t12(&mut c);
    c.disc(15, 0, 0b1001)
        .disc(17, 1, 0b0001)
        .at(
            16,
            &[
                WbActive(0, 0b0110),
                WbLaneSrc(0, 0b1000),
                RfExec(0, 0b0110),
                WbTagPartner(0, 0x11),
                WbOrig(0, [0, 1, 2, 3]),
                Active(0, 0b0110),
            ],
        )
        .at(17, &[ErrProto(false)])
        .at(18, &[ErrProto(true)]);
    c.run(dut)
}

/// X07 (R14): err_xlane is judged on the state at the start of the cycle.
pub fn x07(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 1)
        .me(12, 0)
        .xl(12, 0)
        .xl(13, 0)
        .at(13, &[ErrXlane(false), RspValid(true), RspMerged(true)])
        .at(14, &[ErrXlane(true)]);
    c.run(dut)
}

/// X08 (R12): owed resumes leave lowest tgid first, behind a blocked response.
pub fn x08(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0xa))
        .frag(2, f(0b1000, 0xb))
        .frag(3, f(0b0111, 0xc))
        .frag(4, f(0b1000, 0xd))
        .frag(5, f(0b1111, 0xe))
        .me(10, 0)
        .me(11, 2)
        .me(12, 4)
        .rsp_block(13, 15)
        .term(13, 3)
        .term(14, 1)
        .at(6, &single(4, 0b1111, 0xe))
        .during(13, 16, &rsp(4, false, 0b1111))
        .at(14, &[Owe(2, true), Owe(0, false)])
        .at(15, &[Owe(0, true), Owe(2, true)])
        .at(17, &rsp(0, false, 0b0111))
        .at(18, &rsp(2, false, 0b0111))
        .at(19, &[RspValid(false)]);
    c.run(dut)
}

/// X09 (R16-R17) the counters and err_clr: a pair F{0111} @1 + F{1000} @2 whose descriptor
/// is blocked in cycles 3-4 (taken at edge 5), F{1111,0x12} presented from cycle 3 (refused
/// while the descriptor register is full, accepted at edge 5, taken @6), me{2} @7 (response
/// @8, held by rsp_ready 0 in cycle 8, taken at edge 9) with term{7} @7 (FREE: a protocol
/// error), me{0} presented @8 (refused, accepted at edge 9: it parks), xl{2} @9 (POST: a
/// cross-lane error). Read @11-@21 through perf_sel 0..8, 9 and 15, values from R16:
/// frag_acc 3 (edges 1, 2, 5), grp_out 2 (5, 6), rsp_out 1 (9), stall_frag 2 (3, 4),
/// stall_grp 2 (3, 4), stall_me 1 (8), err_proto_ev 1 (7), err_xlane_ev 1 (9), stall_slot 0,
/// and 0 past the last counter. perf_clr @22 with term{7} @22: clear wins (@23 all 0), the
/// flag stays; err_clr @23 clears both flags (@24); err_clr with term{7} @24: the error
/// wins (@25 err_proto 1, counted once).
pub fn x09(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x10))
        .frag(2, f(0b1000, 0x11))
        .frag(3, f(0b1111, 0x12))
        .grp_block(3, 4)
        .me(7, 2)
        .term(7, 7)
        .me(8, 0)
        .rsp_block(8, 8)
        .xl(9, 2)
        .at(3, &pair(0, 0b0111, 0x10, 0b1000, 0, 0x11))
        .during(3, 4, &[FragReady(false)])
        .at(6, &single(2, 0b1111, 0x12))
        .at(8, &rsp(2, false, 0b1111))
        .at(8, &[MeReady(false), ErrProto(true), ErrXlane(false)])
        .at(10, &[ErrXlane(true), State(0, WAIT), RspValid(false)]);
    let want = [3, 2, 1, 2, 2, 1, 1, 1, 0];
    for (k, &v) in want.iter().enumerate() {
        c.at(11 + k as u32, &[PerfVal(k as u64, v)]);
    }
    c.at(20, &[PerfVal(9, 0)])
        .at(21, &[PerfVal(15, 0)])
        .perf_clr(22)
        .term(22, 7)
        .at(23, &[PerfVal(6, 0), ErrProto(true), ErrXlane(true)])
        .err_clr(23)
        .at(24, &[PerfVal(0, 0), ErrProto(false), ErrXlane(false)])
        .err_clr(24)
        .term(24, 7)
        .at(25, &[PerfVal(6, 1), ErrProto(true), ErrXlane(false)]);
    c.run(dut)
}

/// X10 (`cross_primitive`, R18; T8 with the option): F{0111} of primitive 1 @1 and F{1000} of
/// primitive 2 @2 pair: the primitive change neither lowers `frag_ready` nor makes the candidate
/// leave (@2), and the pair is in slot 0 @3. A partial `frag_last` fragment of primitive 3 @4
/// still leaves alone (E2: `last` ends a run): @5 single tgid 2 (slot 0 holds the pair).
pub fn x10(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x60))
        .frag(2, f(0b1000, 0x61).prim(2))
        .frag(4, f(0b0011, 0x62).prim(3).last())
        .at(2, &[FragReady(true), PendValid(true)])
        .at(3, &pair(0, 0b0111, 0x60, 0b1000, 0, 0x61))
        .at(3, &[PendValid(false)])
        .at(5, &single(2, 0b0011, 0x62))
        .at(5, &[PendValid(false)]);
    c.run(dut)
}

/// X11 (`candidates` = 2, R19; C0 otherwise): F1{0111} @1 is held (E2). F2{0111} @2 fits no
/// held fragment (3 + 3 lanes of 4 always overlap) and is held beside it while the queue has
/// room: no descriptor @3. F3{1000} @3 fits both (identity); it pairs with the oldest, F1:
/// @4 the pair in slot 0, F2 still held. F2, accepted at edge 2, expires as R6 says for a
/// candidate accepted at edge k = 2 with pair_hold 4: `frag_ready` 0 @7, single @8 in slot 1.
pub fn x11(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x70))
        .frag(2, f(0b0111, 0x71))
        .frag(3, f(0b1000, 0x72))
        .at(2, &[PendValid(true), GrpValid(false)])
        .at(3, &[PendValid(true), GrpValid(false), FragReady(true)])
        .at(4, &pair(0, 0b0111, 0x70, 0b1000, 0, 0x72))
        .at(4, &[PendValid(true)])
        .during(4, 6, &[FragReady(true)])
        .during(5, 7, &[GrpValid(false), PendValid(true)])
        .at(7, &[FragReady(false)])
        .at(8, &single(2, 0b0111, 0x71))
        .at(8, &[PendValid(false)]);
    c.run(dut)
}

/// X12 (`candidates` = 2, R19): three fragments that fit no other, F1, F2, F3{0111} @1-@3.
/// F2 joins F1 in the queue (no descriptor @3); F3 finds it full, so the oldest, F1, leaves
/// alone (@4, slot 0) and F3 is held. A full `last` fragment F4{1111} @4 leaves alone (E1, @5,
/// slot 1) and ends the run (qlast): the held F2 then F3 leave one per edge, oldest first
/// (@6 slot 2, @7 slot 3), with `frag_ready` 0 while they do.
pub fn x12(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x80))
        .frag(2, f(0b0111, 0x81))
        .frag(3, f(0b0111, 0x82))
        .frag(4, f(0b1111, 0x83).last())
        .at(3, &[PendValid(true), GrpValid(false)])
        .at(4, &single(0, 0b0111, 0x80))
        .at(4, &[PendValid(true), FragReady(true)])
        .at(5, &single(2, 0b1111, 0x83))
        .at(5, &[PendValid(true), FragReady(false)])
        .at(6, &single(4, 0b0111, 0x81))
        .at(6, &[PendValid(true), FragReady(false)])
        .at(7, &single(6, 0b0111, 0x82))
        .at(7, &[PendValid(false)]);
    c.run(dut)
}
