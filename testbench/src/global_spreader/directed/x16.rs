//! X16 (R8, R11: NACK_CNT and ALLOC_CNT read while they count): values written by hand from the
//! rules, on the contract defaults (5 EUs, first fit: every packet to EU0 unless it refuses).
//! A register read in cycle n returns in n+1 the counter's value at n: the events of the cycles
//! before n, not n's own. The RTL keeps these counters in block RAM, two cycles behind the
//! events, so a read right after a run of acks is the case that tells a missed increment.

use super::check::{Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::{reg, VTX};
use crate::global_spreader::{Dut, GlobalSpreader, GlobalSpreaderInputs};

/// X16. c0: vertex 0x100 transfers; ALLOC_CNT[0][VTX] read (0 in c1). c1-c4: vertices 0x100 to
/// 0x103 are acked by EU0, one per cycle, while the next one transfers, and the counter is read
/// in every cycle: c2, c3, c4, c5 read 0, 1, 2, 3 (the acks of c1 .. c3 before each read's
/// cycle; c4's ack is not in c4's read). c5: read again, 4 in c6. c6: vertex 0x104 transfers.
/// c7: EU0 refuses it, NACK_CNT[0] read in that cycle (0 in c8). c8: the retry goes to EU1
/// (EU0 is in the refused mask) and is acked; NACK_CNT[0] read (1 in c9). c9: ALLOC_CNT[1][VTX]
/// read the cycle after its first ack (1 in c10). c10: reset; ALLOC_CNT[0][VTX] read (ignored).
/// c11: read after the reset: 0 in c12. ALLOC_CNT of an EU the config does not build (EU 7)
/// reads 0 too.
pub fn x16_counters_in_flight(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X16", dut);
    let a0 = reg::alloc_cnt(0, VTX);
    let i = vtx_auto(r.inp(), 8, 4, 0x100).read(a0);
    r.step(i, &[NoReq, Ready(VTX, true)])?; // c0
    for k in 0..4u64 {
        // c1-c4: packet 0x100 + k acked; the next transfers (none after 0x103).
        let i = if k < 3 { vtx_auto(r.inp(), 8, 4, 0x101 + k) } else { r.inp() };
        r.step(i.read(a0), &[Req(0), Src(0x100 + k), Rvalid(true), Rdata(k.saturating_sub(1))])?;
    }
    r.step(r.inp().read(a0), &[NoReq, Rvalid(true), Rdata(3)])?; // c5
    let i = vtx_auto(r.inp(), 8, 4, 0x104);
    r.step(i, &[NoReq, Rvalid(true), Rdata(4), Ready(VTX, true)])?; // c6
    let i = refuse(r.inp(), 0).read(reg::nack_cnt(0));
    r.step(i, &[Req(0), Src(0x104), Rvalid(false)])?; // c7: EU0 refuses
    let i = r.inp().read(reg::nack_cnt(0));
    r.step(i, &[Req(1), Src(0x104), Rvalid(true), Rdata(0)])?; // c8: EU1 acks the retry
    let i = r.inp().read(reg::alloc_cnt(1, VTX));
    r.step(i, &[NoReq, Rvalid(true), Rdata(1)])?; // c9
    let i = GlobalSpreaderInputs::idle(&r.p).with_reset().read(a0);
    r.step(i, &[Rvalid(true), Rdata(1)])?; // c10: reset
    r.step(r.inp().read(a0), &[Rvalid(false)])?; // c11
    r.step(r.inp().read(reg::alloc_cnt(7, VTX)), &[Rvalid(true), Rdata(0)])?; // c12
    r.idle(&[Rvalid(true), Rdata(0)])?; // c13
    Ok(())
}
