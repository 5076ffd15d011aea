//! The contract's new cases TC-30…TC-34 (§7 of `docs/contracts/global_spreader.md`) and the
//! cases X01…X07 for the readings the model's author had to choose (listed in `directed.rs`).

use super::check::{Exp::*, Run};
use super::inputs::{credit, hold, patch, pr, refuse, tri, vr, vtx};
use crate::global_spreader::model::{reg, PATCH, PIX, TRI, VTX};
use crate::global_spreader::{Dut, GlobalSpreader};

/// TC-30: patch base 8 is malformed (dropped, `err_malformed`); base 16 is not.
pub fn tc30_patch_malformed(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-30", dut);
    let i = patch(r.inp(), 8, 4, 0x150);
    r.step(i, &[Ready(PATCH, true)])?;
    r.idle(&[Flag(2, true), NoReq, Busy(false)])?;
    r.write(reg::STATUS, 0x10)?;
    let i = patch(r.inp(), 16, 4, 0x151);
    r.step(i, &[Flag(2, false)])?;
    r.idle(&[Req(0), Type(PATCH), Base(16), Flag(2, false)])?;
    Ok(())
}

/// TC-31: releasing an invalid VDT or PT entry sets `err_release` (nothing else); a
/// dispatch setting the entry released at the same edge wins.
pub fn tc31_bad_release(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-31", dut);
    let i = vr(r.inp(), 1, 7);
    r.step(i, &[])?;
    r.idle(&[Flag(4, true), Vdt(7, false)])?;
    r.write(reg::STATUS, 0x40)?;
    let i = pr(r.inp(), 2, 40);
    r.step(i, &[Flag(4, false)])?;
    r.idle(&[Flag(4, true)])?;
    r.write(reg::STATUS, 0x40)?;
    // Vertex base 0x38 (slot 7) acked in the cycle EU3 releases slot 7 (invalid then).
    let i = vtx(r.inp(), 0x38, 8, 4, 0x152);
    r.step(i, &[Flag(4, false)])?;
    let i = vr(r.inp(), 3, 7);
    r.step(i, &[Req(0), Vdt(7, false)])?;
    r.idle(&[Vdt(7, true), Flag(4, true)])?;
    Ok(())
}

/// TC-32: credits beyond the totals clamp and set `err_credit`; a `cr_edt` at PEND 0.
pub fn tc32_credit_overflow(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-32", dut);
    let i = credit(r.inp(), 0, 5, false, VTX);
    r.step(i, &[])?;
    r.idle(&[FreeRes(0, 64), Flag(3, true)])?;
    r.write(reg::STATUS, 0x20)?;
    let i = credit(r.inp(), 1, 0, true, TRI);
    r.step(i, &[Flag(3, false)])?;
    r.idle(&[FreeEdt(1, 256), Flag(3, true)])?;
    r.expect_reg(reg::pend(1, TRI), 0)?;
    r.write(reg::STATUS, 0x20)?;
    // A vertex on EU2 (PEND 1), then two cr_edt of type VTX: the second underflows PEND.
    r.write(reg::ded_mask(VTX), 0b00100)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x153);
    r.step(i, &[])?;
    r.idle(&[Req(2)])?;
    let i = credit(r.inp(), 2, 4, true, VTX);
    r.step(i, &[FreeRes(2, 60)])?;
    r.idle(&[FreeRes(2, 64), FreeEdt(2, 256), Flag(3, false)])?;
    let i = credit(r.inp(), 2, 0, true, VTX);
    r.step(i, &[])?;
    r.idle(&[Flag(3, true), FreeEdt(2, 256)])?;
    r.expect_reg(reg::pend(2, VTX), 0)
}

/// TC-33: a held request survives its target being disabled and is acked there.
pub fn tc33_sticky_disabled(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-33", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x140);
    r.step(i, &[])?;
    let i = hold(r.inp(), 0).write(reg::EU_ENABLE, 0b11110);
    r.step(i, &[Req(0)])?;
    r.repeat(2, hold(r.inp(), 0), &[Req(0), Src(0x140), Avail(4)])?;
    r.idle(&[Req(0)])?;
    r.idle(&[NoReq, FreeRes(0, 60)])?;
    Ok(())
}

/// TC-34 (one EU): a refusal, then one cycle without sel (mask {0}), then a retry.
pub fn tc34_refusal_retry(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-34", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x130);
    r.step(i, &[])?;
    r.step(refuse(r.inp(), 0), &[Req(0)])?;
    r.idle(&[NoReq, Stall(true)])?;
    r.step(refuse(r.inp(), 0), &[Req(0)])?;
    r.idle(&[NoReq, Stall(true)])?;
    r.idle(&[Req(0)])?;
    r.expect_reg(reg::nack_cnt(0), 2)
}

/// TC-34/5eu: every EU refuses in turn; then one cycle without sel, then EU0 again.
pub fn tc34_all_refuse(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-34/5eu", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x131);
    r.step(i, &[])?;
    for e in 0..5 {
        r.step(refuse(r.inp(), e), &[Req(e)])?;
    }
    r.idle(&[NoReq, Stall(true)])?;
    r.idle(&[Req(0)])?;
    Ok(())
}

/// X01: without `cr_valid`, `cr_res`, `cr_edt` and `cr_type` do nothing.
pub fn x01_credit_gating(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X01", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x120);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let mut i = r.inp();
    i.cr_res[0] = [4, 0, 0, 0];
    i.cr_edt = 1;
    i.cr_type[0] = VTX as u64;
    r.step(i, &[FreeRes(0, 60)])?;
    r.idle(&[FreeRes(0, 60), FreeEdt(0, 255), NoErr])?;
    r.expect_reg(reg::pend(0, VTX), 1)
}

/// X02: EDT_TOTAL stores min(wdata, 2^ENT_W) and sets FREE_EDT.
pub fn x02_edt_total_min(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X02", dut);
    r.write(reg::edt_total(0), 7)?;
    r.idle(&[FreeEdt(0, 7)])?;
    r.write(reg::edt_total(0), 0x200)?;
    r.idle(&[FreeEdt(0, 256)])?;
    r.expect_reg(reg::edt_total(0), 256)?;
    r.write(reg::edt_total(1), 0xFFFF_FFFF)?;
    r.expect_reg(reg::edt_total(1), 256)?;
    r.write(reg::res_total(1), 0x1_0005)?; // low 12 bits
    r.expect_reg(reg::res_total(1), 5)?;
    r.idle(&[FreeRes(1, 5)])?;
    Ok(())
}

/// X03: a footprint of 2^RES_W (4095 + FRAME_RES 1) never fits; with FRAME_RES 0 it does.
pub fn x03_footprint_overflow(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X03", dut);
    r.write(reg::res_total(0), 4095)?;
    r.write(reg::frame_res(VTX), 1)?;
    let i = vtx(r.inp(), 0, 8, 4095, 0x121);
    r.step(i, &[])?;
    r.repeat(3, r.inp(), &[NoReq, Stall(true)])?;
    r.write(reg::frame_res(VTX), 0)?;
    r.idle(&[Req(0), Fp(4095)])?;
    r.idle(&[FreeRes(0, 0)])?;
    Ok(())
}

/// X04: MIN_RES is a threshold on free resources: FREE_RES 16 >= MIN_RES 16 fits a
/// 4-unit vertex (a reserve after allocation would not).
pub fn x04_min_res_threshold(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X04", dut);
    r.write(reg::res_total(0), 16)?;
    r.write(reg::min_res(VTX), 16)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x122);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = vtx(r.inp(), 8, 8, 4, 0x123);
    r.step(i, &[FreeRes(0, 12)])?;
    r.idle(&[Req(1)])?; // 12 < 16 on EU0
    Ok(())
}

/// X05: register widths, empty and duplicate PRIO slots, RO registers.
pub fn x05_registers(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X05", dut);
    r.write(reg::prio(VTX, 0), 0x1F)?; // PRIO_W = 4 bits: 0xF, empty (>= 5)
    r.expect_reg(reg::prio(VTX, 0), 0xF)?;
    r.write(reg::prio(VTX, 1), 3)?;
    r.write(reg::prio(VTX, 2), 3)?; // duplicate
    r.write(reg::prio(VTX, 3), 7)?; // empty
    r.write(reg::prio(VTX, 4), 1)?;
    r.write(reg::EU_ENABLE, 0xFF)?;
    r.expect_reg(reg::EU_ENABLE, 0x1F)?;
    r.write(reg::AUTO_IDX, 0x1_2347)?;
    r.expect_reg(reg::AUTO_IDX, 0x2340)?;
    r.write(reg::CTRL, 0xFB)?;
    r.expect_reg(reg::CTRL, 0x3)?;
    r.write(reg::free_res(0), 3)?; // RO
    r.write(reg::STALL_CNT, 9)?;
    r.write(reg::alloc_cnt(0, VTX), 9)?;
    r.expect_reg(reg::free_res(0), 64)?;
    r.expect_reg(reg::STALL_CNT, 0)?;
    r.expect_reg(reg::alloc_cnt(0, VTX), 0)?;
    r.write(reg::min_res(VTX), 0x1234)?;
    r.expect_reg(reg::min_res(VTX), 0x234)?;
    r.write(reg::min_res(VTX), 0)?;
    r.write(reg::res_total(3), 0)?;
    // Candidates for VTX: EU3 (full), EU1; slots 0, 2, 3 skipped.
    r.write(reg::AUTO_IDX, 0)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x124);
    r.step(i, &[])?;
    r.idle(&[Req(1)])?;
    r.expect_reg(reg::reject_cnt(3), 1)?;
    r.expect_reg(reg::reject_cnt(0), 0)
}

/// X05/vtx-tri: with types vertex and triangle only, PIX and PATCH registers read 0 and
/// ignore writes; the pixel and patch channels are never ready.
pub fn x05_absent_types(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X05/vtx-tri", dut);
    r.idle(&[Ready(VTX, true), Ready(TRI, true), Ready(PIX, false), Ready(PATCH, false)])?;
    r.write(reg::ded_mask(PIX), 0x1)?;
    r.expect_reg(reg::ded_mask(PIX), 0)?;
    r.expect_reg(reg::ded_mask(TRI), 0x1F)?;
    r.expect_reg(reg::prio(PATCH, 0), 0)?;
    r.expect_reg(reg::frame_res(PIX), 0)?;
    r.expect_reg(reg::alloc_cnt(0, PIX), 0)?;
    let i = tri(r.inp(), [0, 1, 2], 1, 2, 0x125);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(TRI), RefValid(0)])?;
    r.idle(&[Flag(0, true)])?;
    Ok(())
}

/// X06: the mask is cleared by a cycle without sel while the request is held, and the
/// refusal ending the hold is kept. EU0 does not fit; the vertex goes to EU1, which
/// refuses; EU2 is requested and held while EU1 … EU4 are disabled (no sel: mask
/// cleared); EU2 then refuses: mask = {2}; after re-enabling, EU1 is requested again.
pub fn x06_mask_under_hold(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X06", dut);
    r.write(reg::res_total(0), 0)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x126);
    r.step(i, &[])?;
    r.step(refuse(r.inp(), 1), &[Req(1)])?; // mask {1}
    let i = hold(r.inp(), 2).write(reg::EU_ENABLE, 0b00001);
    r.step(i, &[Req(2)])?; // held; EUs 1-4 disabled at this edge
    r.step(hold(r.inp(), 2), &[Req(2)])?; // held, live evaluation has no sel: mask cleared
    let i = refuse(r.inp(), 2).write(reg::EU_ENABLE, 0b11111);
    r.step(i, &[Req(2)])?; // refused: mask {2}
    r.idle(&[Req(1)])?; // EU1 again (mask was cleared), not EU2
    Ok(())
}

/// X07: REJECT_CNT counts a candidate that fails fit also when it is in the mask.
/// EU1 refuses, then is emptied (RES_TOTAL ← 0); the next request (EU2) counts EU0 and EU1.
pub fn x07_reject_masked(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X07", dut);
    r.write(reg::res_total(0), 0)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x127);
    r.step(i, &[])?;
    let i = refuse(r.inp(), 1).write(reg::res_total(1), 0);
    r.step(i, &[Req(1)])?; // REJECT_CNT[0] = 1
    r.idle(&[Req(2)])?; // EU0 and EU1 (masked, unfit) count
    r.expect_reg(reg::reject_cnt(0), 2)?;
    r.expect_reg(reg::reject_cnt(1), 1)
}
