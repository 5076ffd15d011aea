//! X13 (pixel order, `pixel_reorder` = 2, contract R14): targets written by hand from the rule,
//! on the contract defaults (5 EUs, first fit: every pixel to EU0, which the directed EU acks
//! at once; the PT is empty, so every pixel misses it, which does not matter here). D = 2:
//! HEAD, TAIL 1 bit, COUNT 0..2, DONE[0..1]; entry s outstanding iff (s - HEAD) mod 2 < COUNT.
//! `ar_seq` = TAIL with a pixel request; `po_valid` = COUNT > 0 && DONE[HEAD], `po_seq` = HEAD.

use super::check::{Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::PIX;
use crate::global_spreader::{Dut, GlobalSpreader, GlobalSpreaderInputs};

/// Pixel `id` (size 1, triangle 7) on the channel.
fn px(i: GlobalSpreaderInputs, id: u64) -> GlobalSpreaderInputs {
    pix(i, 7, 0x1, false, 1, id)
}

/// X13. c0: pixel A transfers. c1: A requested with `ar_seq` 0 and acked (TAIL 1, COUNT 1); B
/// transfers. c2: B with `ar_seq` 1, acked (TAIL 0, COUNT 2 = D); C transfers. c3: the ROB is
/// full: C waits (no request, `stall`, `xp_ready` 0) although EU0 has 62 free; EU0 completes
/// seq 1 (not HEAD). c4: HEAD 0 not done: no `po_valid`; EU0 completes seq 0. c5-c6:
/// `po_valid`, `po_seq` 0, held by `po_ready` 0. c7: popped (HEAD 1, COUNT 1). c8: C granted
/// with `ar_seq` 0 (TAIL wrapped) and acked while seq 1 (done) is popped: COUNT stays 1, HEAD 0,
/// TAIL 1. c9: C (seq 0) not done: no `po_valid`; EU0 completes seq 1, not outstanding: ignored.
/// c10: pixel D transfers, EU0 completes seq 0 (C). c11: D requested with `ar_seq` 1 and acked,
/// C popped at the same edge (COUNT 1, HEAD 1). c12: D (seq 1) is not done (the completion of
/// c9 had no effect): no `po_valid`; EU0 and EU1 both complete seq 1 (set once). c13: popped
/// (COUNT 0, HEAD 0). c14: EU2 completes seq 0 with nothing outstanding (ignored) while pixel E
/// transfers. c15: E with `ar_seq` 0, acked. c16: E not done; completed. c17: popped (HEAD 1,
/// TAIL 1, COUNT 0). c18: `reset`. c19: HEAD 0; pixel F transfers. c20: F with `ar_seq` 0.
pub fn x13_pixel_order(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X13", dut);
    let po = |i: GlobalSpreaderInputs, ready: bool| po_ready(i, ready);
    let i = po(px(r.inp(), 0x500), false);
    r.step(i, &[NoReq, Ready(PIX, true), PoValid(false), PoSeq(0)])?; // c0
    let i = po(px(r.inp(), 0x501), false);
    r.step(i, &[Req(0), Type(PIX), Src(0x500), Seq(0), Ready(PIX, true), PoValid(false), PoSeq(0)])?; // c1
    let i = po(px(r.inp(), 0x502), false);
    r.step(i, &[Req(0), Type(PIX), Src(0x501), Seq(1), Ready(PIX, true), PoValid(false), PoSeq(0)])?; // c2
    // The ROB is full: C waits though EU0 fits.
    let full = [NoReq, Stall(true), Slots(0b100), Ready(PIX, false), FreeRes(0, 62), FreeEdt(0, 254)];
    let i = po(pc(r.inp(), 0, 1), true);
    r.step(i, &[&full[..], &[PoValid(false), PoSeq(0)]].concat())?; // c3: seq 1 completes first
    let i = po(pc(r.inp(), 0, 0), true);
    r.step(i, &[&full[..], &[PoValid(false), PoSeq(0)]].concat())?; // c4: HEAD not done
    let i = po(r.inp(), false);
    r.step(i, &[&full[..], &[PoValid(true), PoSeq(0)]].concat())?; // c5: held by po_ready 0
    let i = po(r.inp(), false);
    r.step(i, &[&full[..], &[PoValid(true), PoSeq(0)]].concat())?; // c6
    let i = po(r.inp(), true);
    r.step(i, &[&full[..], &[PoValid(true), PoSeq(0)]].concat())?; // c7: popped at the edge
    // C is granted after the first pop; its ack and the second pop at one edge.
    let i = po(r.inp(), true);
    r.step(i, &[Req(0), Type(PIX), Src(0x502), Seq(0), Ready(PIX, true), PoValid(true), PoSeq(1)])?; // c8
    let i = po(pc(r.inp(), 0, 1), true);
    r.step(i, &[NoReq, Stall(false), Slots(0), PoValid(false), PoSeq(0)])?; // c9: seq 1 ignored
    let i = po(pc(px(r.inp(), 0x503), 0, 0), false);
    r.step(i, &[NoReq, Ready(PIX, true), PoValid(false), PoSeq(0)])?; // c10
    let i = po(r.inp(), true);
    r.step(i, &[Req(0), Type(PIX), Src(0x503), Seq(1), PoValid(true), PoSeq(0)])?; // c11: ack and pop
    let i = po(pc(pc(r.inp(), 0, 1), 1, 1), true);
    r.step(i, &[NoReq, Slots(0), PoValid(false), PoSeq(1)])?; // c12: D not done
    let i = po(r.inp(), true);
    r.step(i, &[NoReq, PoValid(true), PoSeq(1)])?; // c13: popped
    let i = po(pc(px(r.inp(), 0x504), 2, 0), true);
    r.step(i, &[NoReq, PoValid(false), PoSeq(0)])?; // c14: seq 0 not outstanding: ignored
    let i = po(r.inp(), true);
    r.step(i, &[Req(0), Type(PIX), Src(0x504), Seq(0), PoValid(false), PoSeq(0)])?; // c15
    let i = po(pc(r.inp(), 0, 0), true);
    r.step(i, &[NoReq, PoValid(false), PoSeq(0)])?; // c16: E not done
    let i = po(r.inp(), true);
    r.step(i, &[NoReq, PoValid(true), PoSeq(0)])?; // c17: popped
    let i = GlobalSpreaderInputs::idle(&r.p).with_reset();
    r.step(i, &[PoValid(false), PoSeq(1)])?; // c18: reset (outputs of the state before it)
    let i = po(px(r.inp(), 0x505), true);
    r.step(i, &[NoReq, Ready(PIX, true), PoValid(false), PoSeq(0)])?; // c19: HEAD reset
    r.idle(&[Req(0), Type(PIX), Src(0x505), Seq(0), PoValid(false), PoSeq(0)])?; // c20: TAIL reset
    Ok(())
}
