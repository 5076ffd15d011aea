//! Spec §5.12 TC-01…TC-15 under the block contract (§7 of `docs/contracts/global_spreader.md`):
//! reset values, dispatch of each type, first fit, back-pressure, locality, refusals, credits,
//! class priority and yield.

use super::check::{zero_refs, Exp::*, Run};
use super::inputs::{credit, hold, pix, refuse, tri, tri_ni, vtx, vtx_auto};
use crate::global_spreader::model::{reg, PIX, TRI, VTX};
use crate::global_spreader::{Dut, GlobalSpreader, GlobalSpreaderInputs};

fn reset_checks(r: &mut Run) -> Result<(), String> {
    let exp = r.reset_state();
    r.idle(&exp)?;
    let n = r.p.eus;
    r.expect_reg(reg::CTRL, 0x3)?;
    r.expect_reg(reg::EU_ENABLE, (1 << n) - 1)?;
    r.expect_reg(reg::AUTO_IDX, 0)?;
    r.expect_reg(reg::STATUS, 0)?;
    r.expect_reg(reg::STALL_CNT, 0)?;
    for s in 0..n {
        r.expect_reg(reg::prio(VTX, s), s as u64)?;
        r.expect_reg(reg::prio(PIX, s), s as u64)?;
    }
    r.expect_reg(reg::prio(VTX, n), 0)?; // s >= N_EU reads 0
    for e in [0, n - 1] {
        r.expect_reg(reg::res_total(e), 64)?;
        r.expect_reg(reg::free_res(e), 64)?;
        r.expect_reg(reg::edt_total(e), 256)?;
        r.expect_reg(reg::free_edt(e), 256)?;
        r.expect_reg(reg::reject_cnt(e), 0)?;
        r.expect_reg(reg::nack_cnt(e), 0)?;
        r.expect_reg(reg::alloc_cnt(e, TRI), 0)?;
        r.expect_reg(reg::pend(e, TRI), 0)?;
    }
    r.expect_reg(reg::res_total(n), 0)?; // e >= N_EU
    for t in 0..4 {
        r.expect_reg(reg::ded_mask(t), (1 << n) - 1)?;
        r.expect_reg(reg::min_res(t), 0)?;
        r.expect_reg(reg::frame_res(t), 0)?;
    }
    r.expect_reg(0x005, 0)?; // unmapped
    r.expect_reg(0x3FF, 0)?;
    Ok(())
}

/// TC-01: reset values; PRIO[t][s] reads s; every `*_ready` is 1 after reset. A reset in
/// the middle of activity returns to the same state.
pub fn tc01_reset(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-01", dut);
    r.idle(&[Rvalid(false), Rdata(0)])?;
    reset_checks(&mut r)?;
    // Activity, then reset: a packet held in its slot, a changed CTRL, an error flag.
    r.write(reg::CTRL, 0x4 | 0x1)?;
    r.write(reg::AUTO_IDX, 0x80)?;
    let i = hold(vtx(r.inp(), 0, 8, 4, 0x100), 0);
    r.step(i.clone(), &[])?;
    let i = credit(vtx(hold(r.inp(), 0), 8, 8, 4, 0x101), 1, 5, false, VTX);
    r.step(i, &[Req(0), Busy(true), Ready(VTX, false)])?; // held; credit overflow on EU1
    r.idle(&[Flag(3, true), FreeEdt(0, 256)])?; // acked now
    let i = GlobalSpreaderInputs::idle(&r.p).with_reset();
    r.dut.eval(&i);
    r.dut.tick();
    r.cycle += 1;
    r.ents = vec![0; r.p.eus];
    reset_checks(&mut r)
}

/// TC-01 on 16 EUs.
pub fn tc01_reset_16(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-01/16eu", dut);
    reset_checks(&mut r)?;
    r.expect_reg(reg::prio(TRI, 15), 15)?;
    r.expect_reg(reg::res_total(15), 64)
}

/// TC-02: indexed vertex packet base 0, count 8, size 4: request to EU0 at t0+1, state
/// visible at t0+2; VDT slot 0 = {EU0, ent 0} (seen by a triangle).
pub fn tc02_indexed_vertex(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-02", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x101);
    r.step(i, &[Ready(VTX, true), NoReq, Busy(false)])?; // t0
    let mut exp = vec![Req(0), Type(VTX), Fp(4), Copy(4), Src(0x101), Vcount(8), Base(0), Prid(0), PixMask(0)];
    exp.extend([Busy(true), Stall(false), Slots(1), Ready(VTX, true), FreeRes(0, 64)]);
    exp.extend(zero_refs());
    r.idle(&exp)?; // t0+1
    r.idle(&[NoReq, Busy(false), Slots(0), FreeRes(0, 60), FreeEdt(0, 255), Vdt(0, true), Vdt(1, false), NoErr])?;
    r.expect_reg(reg::pend(0, VTX), 1)?;
    r.expect_reg(reg::alloc_cnt(0, VTX), 1)?;
    r.expect_reg(reg::free_res(0), 60)?;
    r.expect_reg(reg::free_edt(0), 255)?;
    r.expect_reg(reg::AUTO_IDX, 0)?; // indexed: no advance
    let i = tri(r.inp(), [0, 1, 2], 1, 2, 0x102);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(TRI), RefValid(0b111), RefEu([0; 3]), RefEnt([0; 3]), RefElem([0, 1, 2]), Global(false), Vcount(3), Prid(1), Base(0)])?;
    Ok(())
}

/// TC-03: AUTO_IDX ← 0x40; a non-indexed vertex packet (base field 0xDEAD) gets base
/// 0x40, writes VDT slot 8 (not 0xD5), AUTO_IDX reads 0x48.
pub fn tc03_auto_index(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-03", dut);
    r.write(reg::AUTO_IDX, 0x40)?;
    let i = vtx_auto(r.inp(), 8, 4, 0x103);
    r.step(i, &[])?; // t0
    r.idle(&[Req(0), Base(0x40), Vcount(8), Type(VTX)])?; // t0+1
    r.idle(&[Vdt(8, true), Vdt(0xD5, false), Vdt(0, false), FreeRes(0, 60)])?; // t0+2
    r.expect_reg(reg::AUTO_IDX, 0x48)
}

/// RES_TOTAL 8 everywhere, then five non-indexed vertex packets of size 8 back to back:
/// packet i transfers at t0+i and is requested at t0+1+i to EU i. Returns t0 (cycle).
pub(super) fn five_full_eus(r: &mut Run) -> Result<(), String> {
    for e in 0..5 {
        r.write(reg::res_total(e), 8)?;
    }
    let i = vtx_auto(r.inp(), 8, 8, 0x110);
    r.step(i, &[Ready(VTX, true), NoReq])?; // t0: packet 0 transfers
    for k in 0..5u64 {
        // t0+1+k: packet k requested to EU k; packet k+1 transfers (ready by the ack).
        let i = if k < 4 { vtx_auto(r.inp(), 8, 8, 0x111 + k) } else { r.inp() };
        let exp = [Req(k as usize), Src(0x110 + k), Base(8 * k), Fp(8), Ready(VTX, true), Stall(false)];
        r.step(i, &exp)?;
    }
    Ok(())
}

/// TC-04: first fit over the candidates; REJECT_CNT = {4, 3, 2, 1, 0}.
pub fn tc04_first_fit(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-04", dut);
    five_full_eus(&mut r)?;
    r.idle(&[NoReq, Busy(false), FreeRes(0, 0), FreeRes(4, 0), FreeEdt(4, 255)])?;
    for (e, n) in [4, 3, 2, 1, 0].into_iter().enumerate() {
        r.expect_reg(reg::reject_cnt(e), n)?;
    }
    Ok(())
}

/// TC-05: a 6th packet transfers, is not requested, `stall` = 1 from t0+1; the 7th sees
/// `vp_ready` = 0; a credit to EU3 in tc → request to EU3 at tc+1.
pub fn tc05_back_pressure(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-05", dut);
    for e in 0..5 {
        r.write(reg::res_total(e), 8)?;
    }
    let i = vtx_auto(r.inp(), 8, 8, 0x110);
    r.step(i, &[])?;
    for k in 0..5u64 {
        // The 6th packet (0x115) transfers in the cycle of the 5th request.
        let i = vtx_auto(r.inp(), 8, 8, 0x111 + k);
        r.step(i, &[Req(k as usize)])?;
    }
    // 6th in its slot from here (t0' + 1); 7th presented, not taken.
    let seventh = vtx_auto(r.inp(), 8, 8, 0x116);
    r.repeat(5, seventh.clone(), &[NoReq, Stall(true), Busy(true), Ready(VTX, false), Slots(1)])?;
    // tc: credit EU3 (cr_res 8, cr_edt), read STALL_CNT (5 stall cycles so far).
    let i = credit(seventh.clone(), 3, 8, true, VTX).read(reg::STALL_CNT);
    r.step(i, &[NoReq, Stall(true), Ready(VTX, false)])?;
    // tc+1: request to EU3, the 7th transfers.
    r.step(seventh, &[Req(3), Src(0x115), Base(40), Ready(VTX, true), FreeRes(3, 8), Rvalid(true), Rdata(5)])?;
    r.idle(&[NoReq, Stall(true), FreeRes(3, 0), Slots(1)])?;
    r.expect_reg(reg::reject_cnt(0), 5)?;
    r.expect_reg(reg::reject_cnt(2), 3)?;
    r.expect_reg(reg::reject_cnt(3), 1)?;
    r.expect_reg(reg::reject_cnt(4), 0)?;
    r.expect_reg(reg::pend(3, VTX), 1)?;
    r.expect_reg(reg::alloc_cnt(3, VTX), 2)
}

/// TC-06: RES_TOTAL {8, 8, 32, 64, 64}, MIN_RES[VTX] 16, size 4: EU0/EU1 skipped
/// although 8 >= 4; request at t0+1 to EU2; REJECT_CNT[0] = [1] = 1.
pub fn tc06_min_res(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-06", dut);
    r.write(reg::res_total(0), 8)?;
    r.write(reg::res_total(1), 8)?;
    r.write(reg::res_total(2), 32)?;
    r.write(reg::min_res(VTX), 16)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x106);
    r.step(i, &[])?;
    r.idle(&[Req(2), Fp(4)])?;
    r.idle(&[FreeRes(2, 28), FreeRes(0, 8)])?;
    r.expect_reg(reg::reject_cnt(0), 1)?;
    r.expect_reg(reg::reject_cnt(1), 1)?;
    r.expect_reg(reg::reject_cnt(2), 0)
}

/// TC-07: EU_ENABLE 0b11110, DED_MASK[PIX] 0b10000: the triangle goes to EU1, its pixel
/// to EU4 (global ref to EU1); with EU4 full a pixel stalls while other EUs are free.
pub fn tc07_enable_dedicated(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-07", dut);
    r.write(reg::EU_ENABLE, 0b11110)?;
    r.write(reg::ded_mask(PIX), 0b10000)?;
    let i = tri_ni(r.inp(), 2, 3, 0x107);
    r.step(i, &[Avail(4)])?; // t0 (triangle)
    let i = pix(r.inp(), 2, 0x0F0F, false, 1, 0x108);
    r.step(i, &[Req(1), Type(TRI), Prid(2), RefValid(0), Global(false)])?; // pixel transfers
    let exp = [Req(4), Type(PIX), Prid(2), PixMask(0x0F0F), RefValid(0b001), RefEu([1, 0, 0]), RefEnt([0; 3]), Global(true), Vcount(0), Fp(1)];
    r.step(r.inp().write(reg::res_total(4), 0), &exp)?; // and EU4 becomes full
    let i = pix(r.inp(), 2, 0x1, false, 1, 0x109);
    r.step(i, &[NoReq, FreeRes(4, 0), Pt(2, true)])?; // transfers
    r.repeat(4, r.inp(), &[NoReq, Stall(true), FreeRes(1, 61), Avail(4)])?;
    Ok(())
}

/// Vertex group 0 (indices 0–7) to EU2 via PRIO[VTX] = 2, 0, 1, 3, 4.
pub(super) fn prio_vtx_eu2(r: &mut Run) -> Result<(), String> {
    r.write(reg::prio(VTX, 0), 2)?;
    r.write(reg::prio(VTX, 1), 0)?;
    r.write(reg::prio(VTX, 2), 1)
}

/// TC-08: vertex group 0 on EU2; triangle (0, 1, 2) PrID 5 goes to EU2 (locality) with a
/// local reference; PT[5] = {EU2, ent 1} (seen by a pixel).
pub fn tc08_locality(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-08", dut);
    prio_vtx_eu2(&mut r)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x180);
    r.step(i, &[])?;
    r.idle(&[Req(2)])?;
    r.idle(&[Vdt(0, true)])?;
    let i = tri(r.inp(), [0, 1, 2], 5, 2, 0x181);
    r.step(i, &[])?; // t0
    let exp = [Req(2), Type(TRI), Global(false), RefValid(0b111), RefEu([2; 3]), RefEnt([0; 3]), RefElem([0, 1, 2]), RefGrp([0; 3]), Prid(5), Vcount(3), Base(0)];
    r.idle(&exp)?; // t0+1 (ack)
    r.idle(&[Pt(5, true), FreeRes(2, 58)])?;
    let i = pix(r.inp(), 5, 0xFFFF, false, 1, 0x182);
    r.step(i, &[])?;
    r.idle(&[Req(2), RefValid(1), RefEu([2, 0, 0]), RefEnt([1, 0, 0]), Global(false)])?;
    Ok(())
}

/// TC-08 back to back: the triangle transfers in the vertex's request cycle and is
/// requested in the next one, with the VDT entry of that ack (no bubble).
pub fn tc08_back_to_back(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-08/b2b", dut);
    prio_vtx_eu2(&mut r)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x180);
    r.step(i, &[])?; // vertex t0
    let i = tri(r.inp(), [0, 1, 2], 5, 2, 0x181);
    r.step(i, &[Req(2), Type(VTX), Vdt(0, false)])?; // vertex acked, triangle transfers
    r.idle(&[Req(2), Type(TRI), Global(false), RefValid(0b111), RefEu([2; 3]), RefElem([0, 1, 2])])?;
    Ok(())
}

/// TC-09: groups 0 → EU2, 1 → EU1, 2 → EU3. Triangle (9, 10, 17) → EU1 (majority), global;
/// (1, 9, 17) → EU2 (v0's EU); (17, 9, 10) → EU1 (majority, not v0's EU3).
pub fn tc09_majority(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-09", dut);
    for (base, eu, id) in [(0u64, 2u64, 0x190u64), (8, 1, 0x191), (16, 3, 0x192)] {
        r.write(reg::ded_mask(VTX), 1 << eu)?;
        let i = vtx(r.inp(), base, 8, 4, id);
        r.step(i, &[])?;
        r.idle(&[Req(eu as usize), Base(base)])?;
    }
    let i = tri(r.inp(), [9, 10, 17], 10, 2, 0x193);
    r.step(i, &[])?;
    let exp = [Req(1), Global(true), RefValid(0b111), RefEu([1, 1, 3]), RefEnt([0; 3]), RefElem([1, 2, 1])];
    r.idle(&exp)?;
    let i = tri(r.inp(), [1, 9, 17], 11, 2, 0x194);
    r.step(i, &[])?;
    r.idle(&[Req(2), Global(true), RefValid(0b111), RefEu([2, 1, 3]), RefElem([1, 1, 1])])?;
    let i = tri(r.inp(), [17, 9, 10], 12, 2, 0x195);
    r.step(i, &[])?;
    r.idle(&[Req(1), Global(true), RefEu([3, 1, 1]), RefElem([1, 1, 2])])?;
    Ok(())
}

/// TC-10: RES_TOTAL[2] ← 0 (home full): triangle (0, 1, 2) goes to EU0 (first in PRIO
/// that fits), global ref, refs still to EU2; REJECT_CNT[2] += 1.
pub fn tc10_home_full(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-10", dut);
    prio_vtx_eu2(&mut r)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x1A0);
    r.step(i, &[])?;
    r.idle(&[Req(2)])?;
    r.write(reg::res_total(2), 0)?;
    let i = tri(r.inp(), [0, 1, 2], 13, 2, 0x1A1);
    r.step(i, &[FreeRes(2, 0)])?;
    r.idle(&[Req(0), Global(true), RefValid(0b111), RefEu([2; 3])])?;
    r.expect_reg(reg::reject_cnt(2), 1)?;
    r.expect_reg(reg::reject_cnt(0), 0)
}

/// TC-11: three pixel packets of triangle 6 (on EU1): the first goes to EU1 with ref 0 =
/// the triangle's entity; the second (last) releases PT[6] at its ack; the third misses
/// (err_pt_miss, no refs, EU0).
pub fn tc11_pixels(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-11", dut);
    r.write(reg::prio(TRI, 0), 1)?;
    r.write(reg::prio(TRI, 1), 0)?;
    let i = tri_ni(r.inp(), 6, 2, 0x1B0);
    r.step(i, &[])?;
    r.idle(&[Req(1), Type(TRI)])?;
    let i = pix(r.inp(), 6, 0x00FF, false, 1, 0x1B1);
    r.step(i, &[Pt(6, true)])?; // t0
    let i = pix(r.inp(), 6, 0xFF00, true, 1, 0x1B2);
    let exp = [Req(1), Type(PIX), RefValid(0b001), RefEu([1, 0, 0]), RefEnt([0; 3]), PixMask(0x00FF), Prid(6), Global(false), Vcount(0), Base(0)];
    r.step(i, &exp)?; // t0+1
    let i = pix(r.inp(), 6, 0x0001, false, 1, 0x1B3);
    r.step(i, &[Req(1), PixMask(0xFF00), RefValid(1), Pt(6, true)])?; // t0+2: PT[6] released at this ack
    r.idle(&[Req(0), PixMask(0x0001), RefValid(0), RefEu([0; 3]), Global(false), Pt(6, false), Flag(1, false)])?;
    r.idle(&[Flag(1, true), Flag(0, false)])?;
    r.expect_reg(reg::STATUS, 1 << 3)
}

/// TC-12: EU0 refuses at t0+1, EU1 acks at t0+2; FREE_RES[0] stays 64, NACK_CNT[0] = 1,
/// REJECT_CNT[0] = 0 (mask skips do not count).
pub fn tc12_refusal(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-12", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x1C0);
    r.step(i, &[])?;
    let i = refuse(r.inp(), 0);
    r.step(i, &[Req(0), Ready(VTX, false)])?;
    r.idle(&[Req(1), FreeRes(0, 64), Src(0x1C0)])?;
    r.idle(&[NoReq, FreeRes(0, 64), FreeRes(1, 60)])?;
    r.expect_reg(reg::nack_cnt(0), 1)?;
    r.expect_reg(reg::nack_cnt(1), 0)?;
    r.expect_reg(reg::reject_cnt(0), 0)
}

/// TC-12/both: ack and refuse together are an ack.
pub fn tc12_ack_and_refuse(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-12/both", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x1C0);
    r.step(i, &[])?;
    let mut i = r.inp();
    i.ar_refuse = 1;
    r.step(i, &[Req(0), Ready(VTX, true)])?;
    r.idle(&[NoReq, FreeRes(0, 60), Busy(false)])?;
    r.expect_reg(reg::nack_cnt(0), 0)
}

/// TC-13: a credit to EU0 (4, cr_edt, VTX) in the ack cycle of a second 4-unit vertex:
/// FREE_RES 60 → 60, FREE_EDT 255, PEND[0][VTX] 1 (+1 −1), ALLOC_CNT[0][VTX] 2.
pub fn tc13_credit_and_debit(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-13", dut);
    let i = vtx_auto(r.inp(), 8, 4, 0x1D0);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = vtx_auto(r.inp(), 8, 4, 0x1D1);
    r.step(i, &[FreeRes(0, 60), FreeEdt(0, 255)])?;
    let i = credit(r.inp(), 0, 4, true, VTX);
    r.step(i, &[Req(0), Base(8)])?;
    r.idle(&[FreeRes(0, 60), FreeEdt(0, 255), NoErr])?;
    r.expect_reg(reg::pend(0, VTX), 1)?;
    r.expect_reg(reg::alloc_cnt(0, VTX), 2)
}

/// TC-14: pixel and vertex transfer together: pixel request t0+1, vertex t0+2.
pub fn tc14_class_priority(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-14", dut);
    let i = tri_ni(r.inp(), 7, 2, 0x1E0);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = vtx(pix(r.inp(), 7, 0xF, false, 1, 0x1E1), 0, 8, 4, 0x1E2);
    r.step(i, &[Ready(VTX, true), Ready(PIX, true)])?; // t0
    r.idle(&[Req(0), Type(PIX), Src(0x1E1), Ready(VTX, false), Ready(PIX, true), Slots(0b101)])?;
    r.idle(&[Req(0), Type(VTX), Src(0x1E2), Slots(0b001)])?;
    r.idle(&[NoReq, Slots(0)])?;
    Ok(())
}

/// TC-15: a pixel that fits nowhere (DED_MASK[PIX] = {4}, EU4 full) and a fitting vertex:
/// YIELD 0 → the vertex waits; YIELD 1 → it goes; RES_TOTAL[4] ← 8 → the pixel to EU4.
/// A vertex that fits nowhere never blocks a pixel.
pub fn tc15_yield(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-15", dut);
    r.write(reg::ded_mask(PIX), 0b10000)?;
    r.write(reg::res_total(4), 0)?;
    let i = vtx(pix(r.inp(), 20, 0x3, false, 1, 0x1F0), 0, 8, 4, 0x1F1);
    r.step(i, &[])?; // both transfer
    r.repeat(5, r.inp(), &[NoReq, Stall(true), Slots(0b101)])?;
    r.write(reg::CTRL, 0b111)?; // YIELD on (this cycle still no request)
    r.idle(&[Req(0), Type(VTX), Src(0x1F1)])?;
    r.repeat(2, r.inp(), &[NoReq, Stall(true), Slots(0b100)])?;
    r.write(reg::res_total(4), 8)?;
    r.idle(&[Req(4), Type(PIX), Src(0x1F0)])?;
    // YIELD off; a vertex of size 100 (fits nowhere) then a pixel that fits.
    r.write(reg::CTRL, 0b011)?;
    let i = vtx(r.inp(), 64, 8, 100, 0x1F2);
    r.step(i, &[])?;
    r.repeat(2, r.inp(), &[NoReq, Stall(true)])?;
    let i = pix(r.inp(), 21, 0x3, false, 1, 0x1F3);
    r.step(i, &[NoReq])?;
    r.idle(&[Req(4), Type(PIX), Src(0x1F3)])?;
    r.idle(&[NoReq, Stall(true), Slots(0b001)])?;
    Ok(())
}
