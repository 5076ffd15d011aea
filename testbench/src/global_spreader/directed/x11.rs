//! X11 (`aging` = 3, contract R7a): targets written by hand from the rule, on the contract
//! defaults (5 EUs, first fit: every packet to EU0). A saturating pixel stream (a new pixel
//! offered in every cycle, taken whenever its slot is acked) and a waiting vertex packet: by
//! class priority alone (R7) the vertex would wait as long as pixels keep coming.

use super::check::{Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::{PIX, VTX};
use crate::global_spreader::{Dut, GlobalSpreader, GlobalSpreaderInputs};

/// The pixel stream: offer pixel `next` with `i`; `taken` says whether this cycle takes it.
fn with_pixel(i: GlobalSpreaderInputs, next: &mut u64, taken: bool) -> GlobalSpreaderInputs {
    let i = pix(i, 7, 0xF, false, 1, *next);
    *next += u64::from(taken);
    i
}

/// X11. c0: vertex V0 and pixel 0x300 transfer. c1-c3: pixels 0x300-0x302 are granted
/// (class priority) while V0, eligible, is passed over: its AGE 1, 2, 3. c4: AGE 3 reaches the
/// limit: V0 is granted before the pixel slot (pixel 0x303 waits, its channel not ready), and
/// vertex V1 transfers. c5: pixel 0x303 is granted anew (V1's AGE 0 -> 1) and EU0 holds it
/// (neither ack nor refuse) in c5 and c6; c6 and c7 re-present the held request, which ages
/// nothing; EU0 acks in c7. c8, c9: pixels 0x304, 0x305 granted (V1's AGE 2, 3). c10: V1.
pub fn x11_aging(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X11", dut);
    let mut next = 0x300;
    let i = vtx(with_pixel(r.inp(), &mut next, true), 0, 8, 4, 0x3F0);
    r.step(i, &[NoReq, Ready(VTX, true), Ready(PIX, true)])?; // c0
    for src in 0x300..0x303 {
        let i = with_pixel(r.inp(), &mut next, true);
        r.step(i, &[Req(0), Type(PIX), Src(src), Ready(PIX, true), Ready(VTX, false)])?; // c1-c3
    }
    let i = vtx(with_pixel(r.inp(), &mut next, false), 8, 8, 4, 0x3F1);
    r.step(i, &[Req(0), Type(VTX), Src(0x3F0), Ready(PIX, false), Ready(VTX, true)])?; // c4
    let i = hold(with_pixel(r.inp(), &mut next, false), 0);
    r.step(i, &[Req(0), Type(PIX), Src(0x303), Ready(PIX, false)])?; // c5: held
    let i = hold(with_pixel(r.inp(), &mut next, false), 0);
    r.step(i, &[Req(0), Type(PIX), Src(0x303), Ready(PIX, false)])?; // c6: held again
    let i = with_pixel(r.inp(), &mut next, true);
    r.step(i, &[Req(0), Type(PIX), Src(0x303), Ready(PIX, true)])?; // c7: acked
    for src in 0x304..0x306 {
        let i = with_pixel(r.inp(), &mut next, true);
        r.step(i, &[Req(0), Type(PIX), Src(src), Ready(VTX, false)])?; // c8, c9
    }
    let i = with_pixel(r.inp(), &mut next, false);
    r.step(i, &[Req(0), Type(VTX), Src(0x3F1), Base(8), Ready(PIX, false)])?; // c10
    r.idle(&[Req(0), Type(PIX), Src(0x306)])?;
    Ok(())
}
