//! X14 (set-associative VDT, `vdt_ways` = 2, contract R15): targets written by hand from the
//! rule, on 2 EUs with VGRP 4, an 8-entry VDT and an 8-entry PT. W = 2 ways of S = 4 sets:
//! set(i) = (i >> 2) mod 4, vtag(i) = i >> 4 (SET_W = 2), entry {way, set} = 4 * way + set
//! (`vr_slot`, bit of `st_vdt_valid`). A VTX takes the lowest way whose entry {w, set(base)} is
//! invalid and is blocked when every way's is valid; a PATCH (PG = 4 groups, so all four sets
//! of one way) the lowest way whose four entries are all invalid. A ref hits in the lowest way
//! holding its set with its tag. `ar_vdt_way` is the way of a VTX / PATCH request, 0 for a
//! triangle and with no grant. The directed EU acks at once (unless a case holds it) with
//! record numbers counted from 2 (EU0) and 5 (EU1), so that the refs' `ent` tell the entries
//! apart.

use super::check::{Exp, Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::{PATCH, TRI, VTX};
use crate::global_spreader::{Dut, GlobalSpreader, GlobalSpreaderInputs};

/// `st_vdt_valid` as a mask of the 8 entries (bit 4w + s = entry {w, s}).
fn vdt(mask: u8) -> Vec<Exp> {
    (0..8).map(|s| Vdt(s, mask >> s & 1 == 1)).collect()
}

/// The checks of cycle c: `exp`, then the VDT bits.
fn with(exp: &[Exp], mask: u8) -> Vec<Exp> {
    [exp, &vdt(mask)[..]].concat()
}

/// A full vertex group (4 vertices) at `base`.
fn v4(i: GlobalSpreaderInputs, base: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    vtx(i, base, 4, size, id)
}

/// X14 (vertex and triangle). Groups 1 (base 0x04, tag 0), 5 (0x14, tag 1) and 9 (0x24, tag 2)
/// all fall in set 1. c0: A (group 1, size 64) transfers; no grant: `ar_vdt_way` 0. c1: A to
/// EU0 in way 0 (entry 1), acked (EU0 full from now on); B (group 5) transfers. c2: way 0 of
/// set 1 is taken: B to EU1 in way 1, held by EU1. c3: B again, way 1, acked (entry 5); C
/// (group 9) transfers. c4: both ways of set 1 valid: C is blocked (no grant, `stall`); T1
/// transfers. c5: T1 (0x05, 0x16, 0x07) hits A in way 0 and B in way 1 (tags 0 and 1 of set
/// 1): eu [0, 1, 0], ent [2, 5, 2]; home EU0 does not fit: EU1, global; `ar_vdt_way` 0 for a
/// triangle; EU1 releases B's entry {1, 1} (`vr_slot` 5), after this cycle's evaluation (C
/// still blocked). c6: way 1 free again: C to EU1 in way 1; T2 transfers. c7: T2 (0x25, 0x14, 0x06): C in way 1, a miss (group 5 was released),
/// A in way 0; home = the first valid ref's EU (EU1). c8: `err_vdt_miss`; EU1 releases C's
/// entry; D (group 1 again) transfers. c9: A holds group 1 in way 0 but D takes a free way
/// like any vertex packet: way 1, held by EU1 while EU0 releases A's entry {0, 1}. c10: D is
/// presented unchanged with way 1 (a new evaluation would give way 0) and acked into entry 5;
/// F (group 1 once more) transfers. c11: F in way 0 (free since c9): group 1 now in both ways;
/// T3 transfers. c12: T3 (0x04, 0x05, 0x06) hits both ways: the lowest, F (ent 10), not D
/// (ent 9); EU1 releases F's entry {0, 1}. c13: T4 transfers. c14: T4 (0x07, 0x24, 0x05)
/// hits D in way 1 (ent 9) and misses group 9; local to EU1. c16: T5 (group 1) transfers.
/// c17: T5 hits D in way 1 (ent 9) and is held by EU1, which releases D's entry {1, 1} in the
/// same cycle. c18: T5 is presented unchanged (R7: refs frozen; a new lookup would miss in
/// both ways) and acked.
pub fn x14_vdt_ways(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X14", dut);
    r.ents = vec![2, 5];
    let i = v4(r.inp(), 0x04, 64, 0x700);
    r.step(i, &with(&[NoReq, Way(0), Ready(VTX, true)], 0))?; // c0
    let i = v4(r.inp(), 0x14, 2, 0x701);
    let a = [Req(0), Type(VTX), Src(0x700), Base(0x04), Vcount(4), Way(0), Ready(VTX, true)];
    r.step(i, &with(&a, 0))?; // c1
    let i = hold(r.inp(), 1);
    let b = [Req(1), Type(VTX), Src(0x701), Base(0x14), Way(1), FreeRes(0, 0)];
    r.step(i, &with(&[&b[..], &[Ready(VTX, false)]].concat(), 0b0000_0010))?; // c2: held
    let i = v4(r.inp(), 0x24, 2, 0x702);
    r.step(i, &with(&[&b[..], &[Ready(VTX, true)]].concat(), 0b0000_0010))?; // c3: acked
    let i = tri(r.inp(), [0x05, 0x16, 0x07], 3, 1, 0x703);
    r.step(i, &with(&[NoReq, Way(0), Stall(true), Slots(0b01), Ready(VTX, false), FreeRes(1, 62)], 0b0010_0010))?; // c4
    let i = vr(r.inp(), 1, 5);
    let t1 = [
        Req(1),
        Type(TRI),
        Src(0x703),
        Prid(3),
        Way(0),
        RefValid(0b111),
        RefEu([0, 1, 0]),
        RefEnt([2, 5, 2]),
        RefElem([1, 2, 3]),
        RefGrp([0, 0, 0]),
        Global(true),
        Slots(0b11),
    ];
    r.step(i, &with(&t1, 0b0010_0010))?; // c5: B's entry {1, 1} released
    let i = tri(r.inp(), [0x25, 0x14, 0x06], 4, 1, 0x704);
    let c = [Req(1), Type(VTX), Src(0x702), Base(0x24), Way(1), Stall(false), Pt(3, true), FreeRes(1, 61)];
    r.step(i, &with(&c, 0b0000_0010))?; // c6
    let t2 = [
        Req(1),
        Type(TRI),
        Src(0x704),
        Prid(4),
        Way(0),
        RefValid(0b101),
        RefEu([1, 0, 0]),
        RefEnt([7, 0, 2]),
        RefElem([1, 0, 2]),
        RefGrp([0, 0, 0]),
        Global(true),
        Flag(0, false),
    ];
    r.step(r.inp(), &with(&t2, 0b0010_0010))?; // c7
    let i = v4(vr(r.inp(), 1, 5), 0x04, 2, 0x705);
    r.step(i, &with(&[NoReq, Flag(0, true), Pt(4, true), Ready(VTX, true)], 0b0010_0010))?; // c8
    let i = vr(hold(r.inp(), 1), 0, 1);
    let d = [Req(1), Type(VTX), Src(0x705), Base(0x04), Way(1), FreeRes(1, 58)];
    r.step(i, &with(&d, 0b0000_0010))?; // c9: D held; A's entry {0, 1} released
    let i = v4(r.inp(), 0x04, 2, 0x706);
    r.step(i, &with(&d, 0))?; // c10: D unchanged (way 1), acked
    let i = tri(r.inp(), [0x04, 0x05, 0x06], 5, 1, 0x707);
    r.step(i, &with(&[Req(1), Type(VTX), Src(0x706), Base(0x04), Way(0), FreeRes(1, 56)], 0b0010_0000))?; // c11
    let i = vr(r.inp(), 1, 1);
    let t3 = [
        Req(1),
        Type(TRI),
        Src(0x707),
        Way(0),
        RefValid(0b111),
        RefEu([1, 1, 1]),
        RefEnt([10, 10, 10]),
        RefElem([0, 1, 2]),
        Global(false),
    ];
    r.step(i, &with(&t3, 0b0010_0010))?; // c12: F's entry {0, 1} released
    let i = tri(r.inp(), [0x07, 0x24, 0x05], 6, 1, 0x708);
    r.step(i, &with(&[NoReq, Way(0), Pt(5, true)], 0b0010_0000))?; // c13
    let t4 = [
        Req(1),
        Type(TRI),
        Src(0x708),
        Way(0),
        RefValid(0b101),
        RefEu([1, 0, 1]),
        RefEnt([9, 0, 9]),
        RefElem([3, 0, 1]),
        Global(false),
        FreeRes(1, 53),
    ];
    r.step(r.inp(), &with(&t4, 0b0010_0000))?; // c14
    r.idle(&with(&[NoReq, Busy(false), Pt(6, true), Flag(0, true), FreeRes(1, 52)], 0b0010_0000))?; // c15
    let i = tri(r.inp(), [0x04, 0x05, 0x06], 7, 1, 0x709);
    r.step(i, &with(&[NoReq, Way(0)], 0b0010_0000))?; // c16
    // A held triangle keeps its refs (R7) though the entry they hit is released meanwhile.
    let t5 = [Req(1), Type(TRI), Src(0x709), RefValid(0b111), RefEu([1, 1, 1]), RefEnt([9, 9, 9]), RefElem([0, 1, 2]), Global(false)];
    let i = vr(hold(r.inp(), 1), 1, 5);
    r.step(i, &with(&t5, 0b0010_0000))?; // c17: held; D's entry {1, 1} released
    r.step(r.inp(), &with(&t5, 0))?; // c18: unchanged, acked
    r.idle(&with(&[NoReq, Busy(false), Pt(7, true), FreeRes(1, 51)], 0))?; // c19
    Ok(())
}

/// X14/patch (vertex, triangle and patch). c0: V (group 2, base 0x08) transfers. c1: V to EU0
/// in way 0 (entry 2); patch P1 (base 0x40: groups 16-19, sets 0-3, tag 4, size 63)
/// transfers. c2: way 0 has entry 2 taken, so P1's four groups go to way 1 (entries 4-7,
/// `ar_vdt_way` 1), EU0; patch P2 (base 0x80, tag 8) transfers. c3: no way has all four of its
/// entries free: P2 is blocked; EU0 releases V's entry {0, 2}. c4: P2 to EU1 in way 0 (entries
/// 0-3); T transfers. c5: T (0x45, 0x8E, 0x4F) hits P1's group 1 in way 1, P2's group 3 in
/// way 0 and P1's group 3 in way 1 (set 3 holds tag 8 in way 0 and tag 4 in way 1): eu [0, 1,
/// 0], ent [3, 5, 3], grp [1, 3, 3]; the home EU0 is full: EU1, global.
pub fn x14_patch_ways(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X14/patch", dut);
    r.ents = vec![2, 5];
    let i = v4(r.inp(), 0x08, 1, 0x710);
    r.step(i, &with(&[NoReq, Way(0), Ready(VTX, true), Ready(PATCH, true)], 0))?; // c0
    let i = patch(r.inp(), 0x40, 63, 0x711);
    r.step(i, &with(&[Req(0), Type(VTX), Src(0x710), Base(0x08), Way(0), Ready(PATCH, true)], 0))?; // c1
    let i = patch(r.inp(), 0x80, 2, 0x712);
    let p1 = [Req(0), Type(PATCH), Src(0x711), Base(0x40), Vcount(16), Way(1), Ready(PATCH, true)];
    r.step(i, &with(&p1, 0b0000_0100))?; // c2
    let i = vr(r.inp(), 0, 2);
    r.step(i, &with(&[NoReq, Way(0), Stall(true), Slots(0b1000), Ready(PATCH, false), FreeRes(0, 0)], 0b1111_0100))?; // c3
    let i = tri(r.inp(), [0x45, 0x8E, 0x4F], 2, 1, 0x713);
    r.step(i, &with(&[Req(1), Type(PATCH), Src(0x712), Base(0x80), Vcount(16), Way(0), Stall(false)], 0b1111_0000))?; // c4
    let t = [
        Req(1),
        Type(TRI),
        Src(0x713),
        Prid(2),
        Way(0),
        RefValid(0b111),
        RefEu([0, 1, 0]),
        RefEnt([3, 5, 3]),
        RefElem([1, 2, 3]),
        RefGrp([1, 3, 3]),
        Global(true),
    ];
    r.step(r.inp(), &with(&t, 0b1111_1111))?; // c5
    r.idle(&with(&[NoReq, Busy(false), Pt(2, true), FreeRes(1, 61), NoErr], 0b1111_1111))?; // c6
    Ok(())
}
