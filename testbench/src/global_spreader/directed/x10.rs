//! X10 (`select = "round_robin"`, contract R6): targets written by hand from the rule, on the
//! contract defaults (5 EUs, RES_TOTAL 64) with PRIO[vertex] = 2, 0, 1, 3, 4 (PRIO[triangle]
//! stays 0, 1, 2, 3, 4). RR_PTR starts at 0 and takes e + 1 mod 5 at each ack to EU e.

use super::cases_tc01_15::prio_vtx_eu2;
use super::check::{Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::{reg, TRI, VTX};
use crate::global_spreader::{Dut, GlobalSpreader};

/// X10, FREE_RES in brackets (EU0..EU4), RR_PTR after each ack:
/// 1. Six vertex packets, sizes 6, 40, 40, 10, 45, 3: EU0, 1, 2, 3, 4 in EU order (first fit
///    would take EU2, first in PRIO), then EU0 (RR_PTR wrapped 4 + 1 mod 5 = 0)
///    [55, 24, 24, 54, 19], RR_PTR 1. The size-45 packet's REJECT_CNT: EU2 and EU1 (24 free)
///    do not fit and come before EU4 in PRIO order: +1 each.
/// 2. Size 30 at RR_PTR 1: EU1 and EU2 do not fit, EU3 is the first open EU from 1 (first
///    fit: EU0); REJECT_CNT[2] and [1] +1 (before EU3 in PRIO order). RR_PTR 4. Size 20: EU4
///    (19) does not fit and no EU above it: the search wraps to EU0 (first fit: EU2)
///    [35, 24, 24, 24, 19], RR_PTR 1.
/// 3. A vertex packet to EU1 is refused; a triangle without references transfers in that
///    cycle and is requested next: RR_PTR is still 1 (a refusal does not move it), so EU1
///    (first fit: EU0). Its ack moves RR_PTR to 2, and the vertex packet (EU1 in its mask)
///    goes to EU2 [35, 22, 22, 24, 19], RR_PTR 3.
/// 4. A triangle on vertices 32-34 (the group of step 1's fifth packet, on EU4) goes to its
///    home EU4, not to EU3 (RR_PTR 3): locality first. The home's ack moves RR_PTR to 0: the next vertex
///    packet (size 5) goes to EU0 [30, 22, 22, 24, 15], RR_PTR 1.
/// 5. A triangle of size 24 on vertices 8-10 (home EU1, 22: does not fit): of the PRIO
///    candidates EU0 (30) and EU3 (24) fit, EU3 is the first from RR_PTR 1 (first fit: EU0);
///    REJECT_CNT[1] (the home) and [2] +1. Final REJECT_CNT 0, 3, 3, 0, 0; NACK_CNT[1] = 1.
pub fn x10_round_robin(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X10", dut);
    prio_vtx_eu2(&mut r)?;
    // 1: every EU in turn, then the pointer wraps.
    r.vtx_stream(&[6, 40, 40, 10, 45, 3], &[0, 1, 2, 3, 4, 0], 0x1B0, 0)?;
    r.idle(&[NoReq, FreeRes(0, 55), FreeRes(1, 24), FreeRes(2, 24), FreeRes(3, 54), FreeRes(4, 19)])?;
    // 2: EUs that do not fit are skipped; the search wraps below RR_PTR.
    r.vtx_stream(&[30, 20], &[3, 0], 0x1B6, 48)?;
    r.idle(&[NoReq, FreeRes(0, 35), FreeRes(3, 24)])?;
    // 3: a refusal leaves RR_PTR.
    let i = vtx_auto(r.inp(), 8, 2, 0x1B8);
    r.step(i, &[NoReq])?; // t0
    let i = tri_ni(refuse(r.inp(), 1), 7, 2, 0x1B9);
    r.step(i, &[Req(1), Src(0x1B8), Base(64), Ready(TRI, true)])?; // EU1 refuses; the triangle transfers
    r.idle(&[Req(1), Type(TRI), Src(0x1B9)])?; // RR_PTR still 1
    r.idle(&[Req(2), Type(VTX), Src(0x1B8), Base(64)])?; // RR_PTR 2 after the triangle's ack
    r.idle(&[NoReq, FreeRes(1, 22), FreeRes(2, 22)])?;
    // 4: the home before RR_PTR; the home's ack moves RR_PTR.
    let i = tri(r.inp(), [32, 33, 34], 8, 4, 0x1BA);
    r.step(i, &[NoReq])?; // t0
    r.idle(&[Req(4), Type(TRI), Global(false), RefValid(0b111), RefEu([4; 3])])?;
    r.vtx_stream(&[5], &[0], 0x1BB, 72)?;
    r.idle(&[NoReq, FreeRes(0, 30), FreeRes(4, 15)])?;
    // 5: a home that does not fit: the first open PRIO candidate from RR_PTR.
    let i = tri(r.inp(), [8, 9, 10], 9, 24, 0x1BC);
    r.step(i, &[NoReq])?; // t0
    r.idle(&[Req(3), Type(TRI), Global(true), RefValid(0b111), RefEu([1; 3])])?;
    r.idle(&[NoReq, FreeRes(0, 30), FreeRes(1, 22), FreeRes(2, 22), FreeRes(3, 0), FreeRes(4, 15)])?;
    for (e, n) in [0, 3, 3, 0, 0].into_iter().enumerate() {
        r.expect_reg(reg::reject_cnt(e), n)?;
    }
    r.expect_reg(reg::nack_cnt(1), 1)
}
