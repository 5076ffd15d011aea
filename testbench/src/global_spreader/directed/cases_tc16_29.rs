//! Spec §5.12 TC-16…TC-29 under the block contract (§7 of `docs/contracts/global_spreader.md`):
//! random runs with the invariant checker, sticky requests, payloads, patches, VDT/PT blocking,
//! EU enable, counters, malformed packets, EN, LOCALITY off and retained vertex data.

use super::cases_tc01_15::{five_full_eus, prio_vtx_eu2};
use super::check::{Exp::*, Run};
use super::inputs::{credit, hold, patch, patch_auto, pix, pr, refuse, tri, tri_ni, vr, vtx, vtx_auto};
use crate::global_spreader::model::{reg, PATCH, PIX, TRI, VTX};
use crate::global_spreader::stimulus::{GlobalSpreaderStimulus, Invariants};
use crate::global_spreader::{Dut, GlobalSpreader, GlobalSpreaderOutputs};

/// Random stimulus through the DUT with the invariant checker; `drain` then requires the
/// drained state.
fn invariant_run(name: &'static str, dut: &mut dyn Dut<GlobalSpreader>, seed: u64, cycles: u64, drain: bool) -> Result<(), String> {
    let p = dut.params().clone();
    let mut stim = GlobalSpreaderStimulus::new(&p, seed);
    let mut inv = Invariants::new(&p, true);
    let mut last = GlobalSpreaderOutputs::default();
    let mut n = 0;
    while n < cycles || (drain && !stim.drained()) {
        if drain && n == cycles {
            stim.drain();
        }
        if n > cycles + 50_000 {
            return Err(format!("{name}: not drained 50,000 cycles after the drain started"));
        }
        let i = stim.next(&last);
        let o = dut.eval(&i);
        inv.check(&i, &o).map_err(|e| format!("{name} (seed {seed}): {e}"))?;
        dut.tick();
        last = o;
        n += 1;
    }
    if drain {
        inv.finish().map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// TC-16 → I3 (and I1, I2, I4): 5,000 cycles of random stimulus, invariants every cycle.
pub fn tc16_invariants(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    invariant_run("TC-16", dut, 16, 5_000, false)
}

/// TC-17: a request held 12 cycles (EU1 not ready; EU0 does not fit): `ar_valid[1]` and
/// the payload stay, no other request although a triangle fills its slot; ack when
/// `ar_ready` rises; REJECT_CNT[0] counts the held request once.
pub fn tc17_sticky_hold(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-17", dut);
    r.write(reg::res_total(0), 0)?;
    let i = vtx(r.inp(), 16, 5, 4, 0x1A7);
    r.step(i, &[])?; // t0
    let held = [Req(1), Type(VTX), Src(0x1A7), Base(16), Vcount(5), Fp(4), Stall(false)];
    r.step(hold(r.inp(), 1), &held)?; // t0+1
    let i = hold(tri_ni(r.inp(), 3, 2, 0x1A8), 1);
    r.step(i, &held)?; // t0+2: triangle transfers
    let mut exp = held.to_vec();
    exp.push(Slots(0b011));
    r.repeat(10, hold(r.inp(), 1), &exp)?; // t0+3 … t0+12
    r.idle(&exp)?; // t0+13: ack
    r.idle(&[Req(1), Type(TRI), Src(0x1A8)])?;
    r.expect_reg(reg::reject_cnt(0), 2)?;
    r.expect_reg(reg::reject_cnt(1), 0)
}

/// TC-18 (no `dm` channel): `ar_src_addr`, `ar_copy_size` and `ar_type` are the packet's
/// for every type; `ar_footprint` = size + FRAME_RES[type].
pub fn tc18_payload(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-18", dut);
    for t in 0..4 {
        r.write(reg::frame_res(t), t as u64 + 1)?;
    }
    let i = vtx(r.inp(), 0x100, 3, 9, 0xDEAD_BEEF);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(VTX), Src(0xDEAD_BEEF), Copy(9), Fp(10), Vcount(3), Base(0x100)])?;
    let i = tri_ni(r.inp(), 30, 11, 0x1234_5678);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(TRI), Src(0x1234_5678), Copy(11), Fp(13), Vcount(3), Prid(30), Base(0), RefValid(0)])?;
    let i = pix(r.inp(), 30, 0xA5A5, false, 5, 0xFFFF_FFFF);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(PIX), Src(0xFFFF_FFFF), Copy(5), Fp(8), Vcount(0), PixMask(0xA5A5), Prid(30)])?;
    let i = patch(r.inp(), 0x200, 7, 0x8000_0001);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(PATCH), Src(0x8000_0001), Copy(7), Fp(11), Vcount(16), Base(0x200), Prid(0), PixMask(0)])?;
    Ok(())
}

/// TC-19: indexed patch base 32, size 8 → one entity on EU0 in VDT slots 4 and 5 (grp 0,
/// 1); triangle (33, 41, 47) → EU0, local, grp {0, 1, 1}, elem {1, 1, 7}.
pub fn tc19_patch(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-19", dut);
    let i = patch(r.inp(), 32, 8, 0x1B9);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(PATCH), Base(32), Vcount(16), Fp(8)])?;
    r.idle(&[Vdt(4, true), Vdt(5, true), Vdt(3, false), Vdt(6, false), FreeEdt(0, 255), FreeRes(0, 56)])?;
    let i = tri(r.inp(), [33, 41, 47], 14, 2, 0x1BA);
    r.step(i, &[])?;
    r.idle(&[Req(0), Global(false), RefValid(0b111), RefEu([0; 3]), RefEnt([0; 3]), RefGrp([0, 1, 1]), RefElem([1, 1, 7])])?;
    Ok(())
}

/// TC-19/auto: a non-indexed patch takes AUTO_IDX (0x08 after one vertex) rounded up to
/// 16 → base 0x10, slots 2 and 3; AUTO_IDX becomes 0x20.
pub fn tc19_patch_auto(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-19/auto", dut);
    let i = vtx_auto(r.inp(), 8, 4, 0x1BB);
    r.step(i, &[])?;
    r.idle(&[Req(0), Base(0)])?;
    let i = patch_auto(r.inp(), 4, 0x1BC);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(PATCH), Base(0x10)])?;
    r.idle(&[Vdt(2, true), Vdt(3, true), Vdt(1, false), Vdt(0, true)])?;
    r.expect_reg(reg::AUTO_IDX, 0x20)
}

/// TC-20: vertex base 32 + 2048 (slot 4, other tag) while slot 4 is valid: it waits in
/// its slot (stall); EU0 releases slot 4 in r → request r+1.
pub fn tc20_vdt_block(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-20", dut);
    let i = vtx(r.inp(), 32, 8, 4, 0x1C7);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = vtx(r.inp(), 32 + 2048, 8, 4, 0x1C8);
    r.step(i, &[Vdt(4, true)])?;
    r.repeat(4, r.inp(), &[NoReq, Stall(true), Busy(true)])?;
    let i = vr(r.inp(), 0, 4);
    r.step(i, &[NoReq, Stall(true)])?; // r
    r.idle(&[Req(0), Base(2080), Vdt(4, false)])?; // r+1
    r.idle(&[Vdt(4, true), NoErr])?;
    Ok(())
}

/// TC-21: triangle PrID 9 while PT[9] is valid waits; `pr` of 9 in r → request r+1.
pub fn tc21_pt_block(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-21", dut);
    let i = tri_ni(r.inp(), 9, 2, 0x1C9);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = tri_ni(r.inp(), 9, 2, 0x1CA);
    r.step(i, &[Pt(9, true)])?;
    r.repeat(3, r.inp(), &[NoReq, Stall(true)])?;
    let i = pr(r.inp(), 0, 9);
    r.step(i, &[NoReq])?; // r
    r.idle(&[Req(0), Src(0x1CA), Pt(9, false)])?; // r+1
    r.idle(&[Pt(9, true), NoErr])?;
    Ok(())
}

/// TC-22: `eu_avail_cnt` = popcount(EU_ENABLE & FREE_EDT != 0); no request to a disabled
/// EU even if first in PRIO.
pub fn tc22_eu_enable(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-22", dut);
    r.write(reg::EU_ENABLE, 0b11110)?;
    let i = vtx_auto(r.inp(), 8, 4, 0x1D2);
    r.step(i, &[Avail(4)])?;
    r.idle(&[Req(1)])?;
    r.write(reg::edt_total(1), 0)?;
    let i = vtx_auto(r.inp(), 8, 4, 0x1D3);
    r.step(i, &[Avail(3), FreeEdt(1, 0)])?;
    r.idle(&[Req(2)])?; // EU1 has no record
    r.write(reg::EU_ENABLE, 0)?;
    let i = vtx_auto(r.inp(), 8, 4, 0x1D4);
    r.step(i, &[Avail(0)])?;
    r.repeat(3, r.inp(), &[NoReq, Stall(true), Avail(0)])?;
    r.write(reg::EU_ENABLE, 0b00010)?; // only EU1, which has no record
    r.repeat(2, r.inp(), &[NoReq, Avail(0)])?;
    r.write(reg::EU_ENABLE, 0b10001)?;
    r.idle(&[Req(0), Avail(2)])?;
    Ok(())
}

/// TC-23: the counters of D10 after TC-04-like traffic, a refusal and a credit.
pub fn tc23_counters(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-23", dut);
    five_full_eus(&mut r)?;
    // A sixth packet stalls 3 cycles; EU4 is credited; EU4 refuses once, then acks.
    let i = vtx_auto(r.inp(), 8, 8, 0x1E5);
    r.step(i, &[])?;
    r.repeat(3, r.inp(), &[Stall(true)])?;
    let i = credit(r.inp(), 4, 8, true, VTX);
    r.step(i, &[Stall(true)])?;
    r.step(refuse(r.inp(), 4), &[Req(4)])?;
    r.idle(&[NoReq, Stall(true)])?; // no sel (EU4 masked), mask cleared
    r.idle(&[Req(4)])?;
    for e in 0..5 {
        r.expect_reg(reg::alloc_cnt(e, VTX), if e == 4 { 2 } else { 1 })?;
        r.expect_reg(reg::pend(e, VTX), 1)?;
    }
    // 4, +1 for the sixth packet's request (refused), +1 for its new request after the
    // cycle without sel.
    r.expect_reg(reg::reject_cnt(0), 6)?;
    r.expect_reg(reg::reject_cnt(3), 3)?;
    r.expect_reg(reg::reject_cnt(4), 0)?;
    r.expect_reg(reg::nack_cnt(4), 1)?;
    r.expect_reg(reg::STALL_CNT, 5)?;
    r.expect_reg(reg::alloc_cnt(0, TRI), 0)
}

/// TC-24 (as I1/I2): random stress, then a drain: every packet acked once, every EU
/// fully credited, every table entry released.
pub fn tc24_stress(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    invariant_run("TC-24", dut, 24, 4_000, true)
}

/// TC-25: indexed vertex base 3: `err_malformed` from t0+1, no request, busy 0; a
/// STATUS write 0x10 clears it, unless a malformed packet sets it at the same edge.
pub fn tc25_malformed(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-25", dut);
    let i = vtx(r.inp(), 3, 8, 4, 0x1F5);
    r.step(i, &[Ready(VTX, true), Flag(2, false)])?; // t0
    r.idle(&[Flag(2, true), NoReq, Busy(false), Slots(0), Ready(VTX, true)])?;
    r.expect_reg(reg::STATUS, 0x10)?;
    r.write(reg::STATUS, 0x10)?;
    r.idle(&[Flag(2, false), NoErr])?;
    // Count 0, then count 9, with the W1C in the second one's transfer cycle.
    let i = vtx(r.inp(), 8, 0, 4, 0x1F6);
    r.step(i, &[])?;
    let i = vtx(r.inp(), 16, 9, 4, 0x1F7).write(reg::STATUS, 0x10);
    r.step(i, &[Flag(2, true)])?;
    r.idle(&[Flag(2, true), NoReq])?;
    r.write(reg::STATUS, 0x7C)?;
    r.idle(&[NoErr])?;
    Ok(())
}

/// TC-26: EN = 0 → `vp_ready` 0 and `busy` 0 with a packet offered; EN written in w →
/// transfer in w+1. EN = 0 does not stop an occupied slot from dispatching.
pub fn tc26_enable(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-26", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x1F8).write(reg::CTRL, 0b010);
    r.step(i, &[Ready(VTX, true)])?; // transfers while EN is still 1
    let offered = vtx(r.inp(), 8, 8, 4, 0x1F9);
    let all_off = [Ready(VTX, false), Ready(TRI, false), Ready(PIX, false), Ready(PATCH, false)];
    let mut exp = all_off.to_vec();
    exp.extend([Req(0), Src(0x1F8)]);
    r.step(offered.clone(), &exp)?; // the occupied slot still dispatches
    let mut exp = all_off.to_vec();
    exp.extend([NoReq, Busy(false)]);
    r.repeat(3, offered.clone(), &exp)?;
    r.step(offered.clone().write(reg::CTRL, 0b011), &exp)?; // w
    r.step(offered, &[Ready(VTX, true), Busy(false)])?; // w+1: transfer
    r.idle(&[Req(0), Src(0x1F9)])?;
    Ok(())
}

/// TC-27: LOCALITY off: vertices on EU2, the triangle follows PRIO[TRI] (EU0), global.
pub fn tc27_no_locality(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-27", dut);
    prio_vtx_eu2(&mut r)?;
    r.write(reg::CTRL, 0b001)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x170);
    r.step(i, &[])?;
    r.idle(&[Req(2)])?;
    let i = tri(r.inp(), [0, 1, 2], 15, 2, 0x171);
    r.step(i, &[])?;
    r.idle(&[Req(0), Global(true), RefValid(0b111), RefEu([2; 3])])?;
    Ok(())
}

/// TC-28 steps shared with TC-29: group 0 → EU0 (size 4); `cr_edt` (cr_res 0); a triangle
/// (0, 1, 2) of size 2 still gets refs to EU0; `vr` of slot 0 with `cr_res` 4.
fn retained(r: &mut Run) -> Result<(), String> {
    let i = vtx(r.inp(), 0, 8, 4, 0x160);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = credit(r.inp(), 0, 0, true, VTX);
    r.step(i, &[FreeRes(0, 60), FreeEdt(0, 255)])?;
    r.idle(&[FreeRes(0, 60), FreeEdt(0, 256), Vdt(0, true), NoErr])?;
    r.expect_reg(reg::pend(0, VTX), 0)?;
    let i = tri(r.inp(), [0, 1, 2], 16, 2, 0x161);
    r.step(i, &[])?;
    r.idle(&[Req(0), RefValid(0b111), RefEu([0; 3]), Global(false)])?;
    let i = credit(vr(r.inp(), 0, 0), 0, 4, false, VTX);
    r.step(i, &[FreeRes(0, 58)])?;
    r.idle(&[FreeRes(0, 62), Vdt(0, false), NoErr])?;
    Ok(())
}

/// TC-28: RETAINED vertex data (see [`retained`]); after the release FREE_RES[0] = 62.
pub fn tc28_retained(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-28", dut);
    retained(&mut r)
}

/// TC-29: after TC-28, triangle (0, 1, 2) misses: `err_vdt_miss`, no refs, still
/// dispatched.
pub fn tc29_vdt_miss(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-29", dut);
    retained(&mut r)?;
    let i = tri(r.inp(), [0, 1, 2], 17, 2, 0x162);
    r.step(i, &[])?;
    r.idle(&[Req(0), RefValid(0), RefEu([0; 3]), RefElem([0; 3]), Global(false), Flag(0, false)])?;
    r.idle(&[Flag(0, true), Flag(1, false)])?;
    r.expect_reg(reg::STATUS, 0x4)
}
