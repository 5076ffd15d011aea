//! X12 (class priority, contract R7b): targets written by hand from the rule, on the contract
//! defaults (5 EUs, first fit: every packet to EU0, the directed EU acks at once). RANK[t] is
//! 2 bits per type; "priority order" is ascending RANK, ties broken by the fixed order pixel,
//! triangle, patch, vertex. With `class_priority_reg` the ranks are CLASS_PRIO (0x005), bits
//! [2t+1:2t] by type code (vertex 0, triangle 1, pixel 2, patch 3), reset from
//! `class_priority` (absent: the fixed order), written at the edge like every register.

use super::check::{Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::{reg, PATCH, PIX, TRI, VTX};
use crate::global_spreader::{Dut, GlobalSpreader};

/// CLASS_PRIO of ranks by type code [vertex, triangle, pixel, patch].
const fn ranks(r: [u64; 4]) -> u64 {
    r[0] | r[1] << 2 | r[2] << 4 | r[3] << 6
}

/// X12 (`class_priority_reg`, no `class_priority`). Reset: pixel 0, triangle 1, patch 2,
/// vertex 3 (the fixed order), so CLASS_PRIO reads 0x87. c2: vertex V0 and pixel P0 transfer.
/// c3: P0 granted by the reset ranks while CLASS_PRIO <= vertex 0, pixel 1 (0xD8) is written
/// (not yet in effect) and pixel P1 transfers. c4: the new ranks: V0 before P1; vertex V1
/// transfers. c5: V1 before P1 again. c6: P1. c9: CLASS_PRIO <= 0xFFFF_FF84 (vertex 0,
/// triangle 1, pixel 0, patch 2; the bits above 7 are not stored) with V2 and P2 transferring:
/// vertex and pixel tie at 0, so the fixed order puts P2 first (c10), then V2 (c11). c14:
/// CLASS_PRIO <= patch 0, vertex 1, triangle 2, pixel 3 (0x39) while one packet of each class
/// transfers: c15-c18 grant patch, vertex, triangle, pixel. YIELD_EN = 0 with the ranks: c20
/// CLASS_PRIO <= 0xD8; c21 vertex V4 at base 0 (VDT slot 0 still valid from V0: blocked) and
/// P4 transfer; c22, c23: the vertex is the first occupied slot and not eligible: no grant
/// (though P4 could go); c23 writes YIELD_EN = 1; c24: the first eligible slot: P4, while EU0
/// releases VDT slot 0; c25: V4.
pub fn x12_class_priority(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X12", dut);
    r.expect_reg(reg::CLASS_PRIO, ranks([3, 1, 0, 2]))?; // c0, c1: 0x87
    let i = vtx(pix(r.inp(), 7, 0xF, false, 1, 0x401), 0, 8, 1, 0x400);
    r.step(i, &[NoReq, Ready(VTX, true), Ready(PIX, true)])?; // c2
    let i = pix(r.inp(), 7, 0x3, false, 1, 0x402).write(reg::CLASS_PRIO, ranks([0, 2, 1, 3]));
    r.step(i, &[Req(0), Type(PIX), Src(0x401), Ready(PIX, true), Ready(VTX, false)])?; // c3
    let i = vtx(r.inp(), 8, 8, 1, 0x403);
    r.step(i, &[Req(0), Type(VTX), Src(0x400), Base(0), Ready(PIX, false), Ready(VTX, true)])?; // c4
    r.idle(&[Req(0), Type(VTX), Src(0x403), Base(8), Slots(0b101)])?; // c5
    r.idle(&[Req(0), Type(PIX), Src(0x402), Slots(0b100)])?; // c6
    r.expect_reg(reg::CLASS_PRIO, 0xD8)?; // c7, c8
    // Ties: vertex and pixel both rank 0.
    let i = vtx(pix(r.inp(), 7, 0x1, false, 1, 0x405), 16, 8, 1, 0x404).write(reg::CLASS_PRIO, 0xFFFF_FF84);
    r.step(i, &[NoReq, Ready(VTX, true), Ready(PIX, true)])?; // c9
    r.idle(&[Req(0), Type(PIX), Src(0x405)])?; // c10
    r.idle(&[Req(0), Type(VTX), Src(0x404), Base(16)])?; // c11
    r.expect_reg(reg::CLASS_PRIO, ranks([0, 1, 0, 2]))?; // c12, c13: 0x84
    // All four classes: patch 0, vertex 1, triangle 2, pixel 3.
    let i = pix(r.inp(), 7, 0x2, false, 1, 0x406);
    let i = vtx(patch(tri_ni(i, 9, 1, 0x407), 0x200, 1, 0x408), 0x100, 8, 1, 0x409);
    r.step(i.write(reg::CLASS_PRIO, ranks([1, 2, 3, 0])), &[NoReq, Slots(0)])?; // c14
    r.idle(&[Req(0), Type(PATCH), Src(0x408), Base(0x200), Slots(0b1111)])?; // c15
    r.idle(&[Req(0), Type(VTX), Src(0x409), Base(0x100), Slots(0b0111)])?; // c16
    r.idle(&[Req(0), Type(TRI), Src(0x407), Prid(9), Slots(0b0110)])?; // c17
    r.idle(&[Req(0), Type(PIX), Src(0x406), Slots(0b0100)])?; // c18
    r.idle(&[NoReq, Slots(0)])?; // c19
    // YIELD_EN = 0: the first occupied slot in rank order, granted only if eligible.
    r.write(reg::CLASS_PRIO, ranks([0, 2, 1, 3]))?; // c20
    let i = vtx(pix(r.inp(), 7, 0x4, false, 1, 0x40B), 0, 8, 1, 0x40A);
    r.step(i, &[NoReq, Vdt(0, true)])?; // c21
    r.idle(&[NoReq, Stall(true), Slots(0b101)])?; // c22
    let i = r.inp().write(reg::CTRL, 0b111);
    r.step(i, &[NoReq, Stall(true), Slots(0b101)])?; // c23
    let i = vr(r.inp(), 0, 0);
    r.step(i, &[Req(0), Type(PIX), Src(0x40B), Vdt(0, true)])?; // c24
    r.idle(&[Req(0), Type(VTX), Src(0x40A), Base(0), Vdt(0, false), Slots(0b001)])?; // c25
    r.idle(&[NoReq, Slots(0), Vdt(0, true)])?; // c26
    Ok(())
}

/// X12/const (`class_priority` = vertex, patch, triangle, pixel; no register): the ranks are
/// constant, 0x005 is unmapped (reads 0, a write is ignored). c3: vertex V0 and pixel P0
/// transfer; c4: V0 (rank 0) before P0 (rank 3); c5: P0. c6: triangle T0 and patch PA0
/// transfer; c7: the patch (rank 1) before the triangle (rank 2); c8: T0.
pub fn x12_constant(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X12/const", dut);
    r.expect_reg(reg::CLASS_PRIO, 0)?; // c0, c1
    r.write(reg::CLASS_PRIO, ranks([3, 1, 0, 2]))?; // c2: ignored
    let i = vtx(pix(r.inp(), 7, 0xF, false, 1, 0x411), 0, 8, 1, 0x410);
    r.step(i, &[NoReq, Rvalid(false)])?; // c3
    r.idle(&[Req(0), Type(VTX), Src(0x410)])?; // c4
    r.idle(&[Req(0), Type(PIX), Src(0x411)])?; // c5
    let i = patch(tri_ni(r.inp(), 9, 1, 0x412), 0x200, 1, 0x413);
    r.step(i, &[NoReq])?; // c6
    r.idle(&[Req(0), Type(PATCH), Src(0x413), Base(0x200)])?; // c7
    r.idle(&[Req(0), Type(TRI), Src(0x412)])?; // c8
    r.expect_reg(reg::CLASS_PRIO, 0) // c9, c10
}

/// X12/vtx-tri (types vertex and triangle, `class_priority` = vertex, triangle, with the
/// register): CLASS_PRIO reads 0x04 after reset (vertex 0, triangle 1); a write of 0xFF
/// stores only the two present types' bits (reads 0x0F: both rank 3), a tie the fixed order
/// breaks for the triangle; 0x0E (vertex 2, triangle 3) puts the vertex first again.
pub fn x12_absent_types(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X12/vtx-tri", dut);
    r.expect_reg(reg::CLASS_PRIO, 0x04)?; // c0, c1
    let i = vtx(tri_ni(r.inp(), 3, 1, 0x421), 0, 8, 1, 0x420);
    r.step(i, &[NoReq])?; // c2
    r.idle(&[Req(0), Type(VTX), Src(0x420)])?; // c3
    r.idle(&[Req(0), Type(TRI), Src(0x421)])?; // c4
    r.write(reg::CLASS_PRIO, 0xFF)?; // c5
    r.expect_reg(reg::CLASS_PRIO, 0x0F)?; // c6, c7
    let i = vtx(tri_ni(r.inp(), 4, 1, 0x423), 8, 8, 1, 0x422);
    r.step(i, &[NoReq])?; // c8
    r.idle(&[Req(0), Type(TRI), Src(0x423)])?; // c9: tie, the fixed order
    r.idle(&[Req(0), Type(VTX), Src(0x422), Base(8)])?; // c10
    r.write(reg::CLASS_PRIO, 0x0E)?; // c11
    r.expect_reg(reg::CLASS_PRIO, 0x0E)?; // c12, c13
    let i = vtx(tri_ni(r.inp(), 5, 1, 0x425), 16, 8, 1, 0x424);
    r.step(i, &[NoReq])?; // c14
    r.idle(&[Req(0), Type(VTX), Src(0x424), Base(16)])?; // c15
    r.idle(&[Req(0), Type(TRI), Src(0x425)])?; // c16
    r.idle(&[NoReq, Slots(0)])?; // c17
    Ok(())
}
