//! X15 (resource kinds, `resources`, contract R16): targets written by hand from the rule. Per EU
//! e and kind k, RES_TOTAL[e][k] and FREE_RES[e][k]; fp_k = size_k + FRAME_RES[type][k]; an EU
//! fits when every kind k has FREE_RES[e][k] >= fp_k and >= MIN_RES[type][k] (and a record); the
//! ack debits fp_k from every kind; credits per kind, each clamped to [0, RES_TOTAL[e][k]] (a
//! clamp sets `err_credit`); a RES_TOTAL[e][k] write sets FREE_RES[e][k], winning over that edge's
//! debit and credit of kind k. Kind k >= 1's registers: RES_TOTAL 0x280 + 0x40(k-1) + e, FREE_RES
//! 0x2A0 + 0x40(k-1) + e (read-only), MIN_RES 0x340 + 8(k-1) + t, FRAME_RES 0x344 + 8(k-1) + t; a
//! kind the config does not have reads 0. `ar_copy_size` is kind 0's size. The directed EU acks
//! at once.

use super::check::{Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::{reg, TRI, VTX};
use crate::global_spreader::{Dut, GlobalSpreader};

/// `err_credit` (the fourth flag).
const CREDIT: usize = 3;

/// X15: 2 EUs, K = 2; RES_TOTAL kind 0 64 each, kind 1 [8, 16]. c0: V1 (base 0x00, sizes [4,
/// 6]) transfers. c1: V1 to EU0, fp [4, 6], `ar_copy_size` 4; V2 (0x08, [4, 6]) transfers. c2:
/// EU0 has kind 0 (60 >= 4) but not kind 1 (2 < 6): V2 to EU1 (REJECT_CNT[0] + 1); V3 (0x10, [4,
/// 12]) transfers. c3: V3 fits neither EU in kind 1 (2, 10 < 12): no request; EU0 credits 4 of
/// kind 1 only. c4: EU0 [60, 6], still short; RES_TOTAL[1][1] (0x281) written 20. c5: FREE_RES[1][1]
/// = 20: V3 to EU1, fp [4, 12] (REJECT_CNT[0] + 1). c6: EU1 [56, 8]; read FREE_RES[1][1]. c7: 8;
/// read RES_TOTAL[1][1]. c8: 20; FRAME_RES[VTX][1] (0x344) written 3. c9: MIN_RES[VTX][1] (0x340)
/// written 9. c10: read FRAME_RES[VTX][1]; V4 (0x18, sizes [1, 2]: fp [1, 5]) transfers. c11: 3;
/// EU0's kind 1 (6) reaches fp_1 but not MIN_RES 9, EU1's (8) neither: no request; EU1 credits
/// [2, 1] in one pulse. c12: EU1 [58, 9]: V4 to EU1 (REJECT_CNT[0] + 1); at the same edge
/// RES_TOTAL[1][1] written 30: kind 1 takes 30 (the write wins over the debit of 5), kind 0 takes
/// the debit (57). c13: EU0 credits 10 of kind 1: 6 + 10 > RES_TOTAL[0][1] = 8, clamped, err_credit.
/// c14: EU0 [60, 8], `err_credit`; a write to the read-only FREE_RES[0][1] (ignored). Then the
/// registers: FREE_RES[0][1] still 8, kind 2 (not built: 0x2C0, 0x2E0, 0x348) and EU 2 of kind 1
/// (0x282) read 0 (a write to 0x2C0 ignored), MIN_RES[VTX][1] 9, RES_TOTAL[0][1] 8, REJECT_CNT
/// [3, 0], kind 0's FREE_RES[0] 60 and RES_TOTAL[1] 64 at their old addresses.
pub fn x15_resource_kinds(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X15", dut);
    let i = sizes(vtx(r.inp(), 0x00, 8, 4, 0x800), VTX, [4, 6, 0, 0]);
    let reset = [NoReq, FreeRes(0, 64), FreeResKind(0, 1, 8), FreeRes(1, 64), FreeResKind(1, 1, 16), NoErr];
    r.step(i, &reset)?; // c0
    let i = sizes(vtx(r.inp(), 0x08, 8, 4, 0x801), VTX, [4, 6, 0, 0]);
    r.step(i, &[Req(0), Src(0x800), FpKinds([4, 6, 0, 0]), Copy(4)])?; // c1
    let i = sizes(vtx(r.inp(), 0x10, 8, 4, 0x802), VTX, [4, 12, 0, 0]);
    r.step(i, &[Req(1), Src(0x801), FpKinds([4, 6, 0, 0]), FreeRes(0, 60), FreeResKind(0, 1, 2)])?; // c2
    let i = credit_kinds(r.inp(), 0, [0, 4, 0, 0], false, VTX);
    r.step(i, &[NoReq, Stall(true), FreeRes(1, 60), FreeResKind(1, 1, 10), FreeResKind(0, 1, 2)])?; // c3
    let i = r.inp().write(reg::res_total_of(1, 1), 20);
    r.step(i, &[NoReq, Stall(true), FreeRes(0, 60), FreeResKind(0, 1, 6), FreeResKind(1, 1, 10)])?; // c4
    r.step(r.inp(), &[Req(1), Src(0x802), FpKinds([4, 12, 0, 0]), Copy(4), FreeResKind(1, 1, 20)])?; // c5
    let i = r.inp().read(reg::free_res_of(1, 1));
    r.step(i, &[NoReq, Busy(false), FreeRes(1, 56), FreeResKind(1, 1, 8)])?; // c6
    let i = r.inp().read(reg::res_total_of(1, 1));
    r.step(i, &[Rvalid(true), Rdata(8)])?; // c7
    let i = r.inp().write(0x344, 3);
    r.step(i, &[Rvalid(true), Rdata(20)])?; // c8
    let i = r.inp().write(0x340, 9);
    r.step(i, &[Rvalid(false)])?; // c9
    let i = sizes(vtx(r.inp().read(0x344), 0x18, 8, 1, 0x803), VTX, [1, 2, 0, 0]);
    r.step(i, &[NoReq, Busy(false)])?; // c10
    let i = credit_kinds(r.inp(), 1, [2, 1, 0, 0], false, VTX);
    r.step(i, &[Rvalid(true), Rdata(3), NoReq, Stall(true), FreeResKind(0, 1, 6), FreeResKind(1, 1, 8)])?; // c11
    let i = r.inp().write(reg::res_total_of(1, 1), 30);
    let v4 = [Req(1), Src(0x803), FpKinds([1, 5, 0, 0]), Copy(1), FreeRes(1, 58), FreeResKind(1, 1, 9)];
    r.step(i, &v4)?; // c12
    let i = credit_kinds(r.inp(), 0, [0, 10, 0, 0], false, VTX);
    r.step(i, &[NoReq, FreeRes(1, 57), FreeResKind(1, 1, 30), NoErr])?; // c13
    let i = r.inp().write(reg::free_res_of(0, 1), 1);
    r.step(i, &[Flag(CREDIT, true), FreeRes(0, 60), FreeResKind(0, 1, 8)])?; // c14
    r.expect_reg(reg::free_res_of(0, 1), 8)?;
    r.write(reg::res_total_of(0, 2), 7)?;
    r.expect_reg(reg::res_total_of(0, 2), 0)?;
    r.expect_reg(reg::free_res_of(0, 2), 0)?;
    r.expect_reg(reg::min_res_of(VTX, 2), 0)?;
    r.expect_reg(0x282, 0)?;
    r.expect_reg(reg::min_res_of(VTX, 1), 9)?;
    r.expect_reg(reg::res_total_of(0, 1), 8)?;
    r.expect_reg(reg::reject_cnt(0), 3)?;
    r.expect_reg(reg::reject_cnt(1), 0)?;
    r.expect_reg(reg::free_res(0), 60)?;
    r.expect_reg(reg::res_total(1), 64)?;
    r.idle(&[FreeRes(0, 60), FreeResKind(0, 1, 8), FreeRes(1, 57), FreeResKind(1, 1, 30)]).map(|_| ())
}

/// X15/k4: 1 EU, K = 4, RES_W 6; RES_TOTAL [63, 10, 20, 30] (kind 0: min(64, 63)). c0: V1 (sizes
/// [1, 2, 3, 4]) transfers; FRAME_RES[VTX][3] (0x354) written 5. c1: V1 requested with fp [1, 2,
/// 3, 9] (fields of 6 bits), acked; V2 (sizes [1, 1, 1, 22]: fp_3 27) transfers. c2: FREE_RES [62,
/// 8, 17, 21]: V2 fails kind 3 only (21 < 27): no request; RES_TOTAL[0][3] (0x300) written 63. c3:
/// FREE_RES[0][3] = 63: V2 acked, fp [1, 1, 1, 27]. c4: FREE_RES [61, 7, 16, 36]; a credit of
/// all four kinds in one pulse, [1, 2, 3, 9]. c5: [62, 9, 19, 45]. Then the registers of kinds 2
/// and 3: FREE_RES[0][3] (0x320) 45, RES_TOTAL[0][2] (0x2C0) 20, FREE_RES[0][2] (0x2E0) 19,
/// FRAME_RES[VTX][3] 5, MIN_RES[TRI][2] (0x349) written 7 and read back, FRAME_RES[TRI][3]
/// (0x355) 0.
pub fn x15_four_kinds(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X15/k4", dut);
    let i = sizes(vtx(r.inp().write(0x354, 5), 0x00, 8, 1, 0x810), VTX, [1, 2, 3, 4]);
    let reset = [NoReq, FreeRes(0, 63), FreeResKind(0, 1, 10), FreeResKind(0, 2, 20), FreeResKind(0, 3, 30)];
    r.step(i, &reset)?; // c0
    let i = sizes(vtx(r.inp(), 0x08, 8, 1, 0x811), VTX, [1, 1, 1, 22]);
    r.step(i, &[Req(0), Src(0x810), FpKinds([1, 2, 3, 9]), Copy(1)])?; // c1
    let i = r.inp().write(reg::res_total_of(0, 3), 63);
    let free = [FreeRes(0, 62), FreeResKind(0, 1, 8), FreeResKind(0, 2, 17), FreeResKind(0, 3, 21)];
    r.step(i, &[&[NoReq, Stall(true)], &free[..]].concat())?; // c2
    r.step(r.inp(), &[Req(0), Src(0x811), FpKinds([1, 1, 1, 27]), FreeResKind(0, 3, 63)])?; // c3
    let i = credit_kinds(r.inp(), 0, [1, 2, 3, 9], false, VTX);
    let free = [FreeRes(0, 61), FreeResKind(0, 1, 7), FreeResKind(0, 2, 16), FreeResKind(0, 3, 36)];
    r.step(i, &[&[NoReq, Busy(false)], &free[..]].concat())?; // c4
    r.idle(&[FreeRes(0, 62), FreeResKind(0, 1, 9), FreeResKind(0, 2, 19), FreeResKind(0, 3, 45), NoErr])?; // c5
    r.expect_reg(reg::free_res_of(0, 3), 45)?;
    r.expect_reg(reg::res_total_of(0, 2), 20)?;
    r.expect_reg(reg::free_res_of(0, 2), 19)?;
    r.expect_reg(reg::frame_res_of(VTX, 3), 5)?;
    r.write(reg::min_res_of(TRI, 2), 7)?;
    r.expect_reg(reg::min_res_of(TRI, 2), 7)?;
    r.expect_reg(reg::frame_res_of(TRI, 3), 0)
}
