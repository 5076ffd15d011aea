//! Inputs of the directed cases: one packet per channel type and the answers of the
//! directed EU (hold, refuse, credits, VDT/PT releases).

use crate::global_spreader::model::{Packet, PerKind, PATCH, PIX, TRI, VTX};
use crate::global_spreader::stimulus::put;
use crate::global_spreader::GlobalSpreaderInputs;

/// Indexed vertex packet.
pub(super) fn vtx(i: GlobalSpreaderInputs, base: u64, count: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: VTX, indexed: true, base_idx: base, count, size: k0(size), src_addr: id, ..Default::default() })
}
/// Non-indexed vertex packet (its base field carries 0xDEAD).
pub(super) fn vtx_auto(i: GlobalSpreaderInputs, count: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: VTX, indexed: false, base_idx: 0xDEAD, count, size: k0(size), src_addr: id, ..Default::default() })
}
/// Indexed triangle packet.
pub(super) fn tri(i: GlobalSpreaderInputs, v: [u64; 3], prid: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: TRI, indexed: true, vidx: v, prid, size: k0(size), src_addr: id, ..Default::default() })
}
/// Non-indexed triangle packet (its vertex fields carry garbage).
pub(super) fn tri_ni(i: GlobalSpreaderInputs, prid: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: TRI, indexed: false, vidx: [3, 4, 5], prid, size: k0(size), src_addr: id, ..Default::default() })
}
pub(super) fn pix(i: GlobalSpreaderInputs, tri: u64, mask: u64, last: bool, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: PIX, prid: tri, mask, last, size: k0(size), src_addr: id, ..Default::default() })
}
pub(super) fn patch(i: GlobalSpreaderInputs, base: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: PATCH, indexed: true, base_idx: base, size: k0(size), src_addr: id, ..Default::default() })
}
pub(super) fn patch_auto(i: GlobalSpreaderInputs, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: PATCH, indexed: false, base_idx: 0x3, size: k0(size), src_addr: id, ..Default::default() })
}
/// A size of kind 0 only (one kind, R16).
fn k0(size: u64) -> PerKind {
    [size, 0, 0, 0]
}
/// The sizes per kind (R16) of the packet presented on channel t (which an earlier helper set).
pub(super) fn sizes(mut i: GlobalSpreaderInputs, t: usize, size: PerKind) -> GlobalSpreaderInputs {
    *[&mut i.vp_size, &mut i.tp_size, &mut i.xp_size, &mut i.pp_size][t] = size;
    i
}
fn pkt(mut i: GlobalSpreaderInputs, k: Packet) -> GlobalSpreaderInputs {
    put(&mut i, &k, true);
    i
}
/// EU e neither acks nor refuses.
pub(super) fn hold(mut i: GlobalSpreaderInputs, e: usize) -> GlobalSpreaderInputs {
    i.ar_ready &= !(1 << e);
    i.ar_refuse &= !(1 << e);
    i
}
/// EU e refuses.
pub(super) fn refuse(mut i: GlobalSpreaderInputs, e: usize) -> GlobalSpreaderInputs {
    i.ar_ready &= !(1 << e);
    i.ar_refuse |= 1 << e;
    i
}
pub(super) fn credit(i: GlobalSpreaderInputs, e: usize, res: u64, edt: bool, ty: usize) -> GlobalSpreaderInputs {
    credit_kinds(i, e, k0(res), edt, ty)
}
/// A credit of EU e with resources per kind (R16).
pub(super) fn credit_kinds(mut i: GlobalSpreaderInputs, e: usize, res: PerKind, edt: bool, ty: usize) -> GlobalSpreaderInputs {
    i.cr_valid |= 1 << e;
    i.cr_res[e] = res;
    i.cr_edt |= u64::from(edt) << e;
    i.cr_type[e] = ty as u64;
    i
}
pub(super) fn vr(mut i: GlobalSpreaderInputs, e: usize, slot: u64) -> GlobalSpreaderInputs {
    i.vr_valid |= 1 << e;
    i.vr_slot[e] = slot;
    i
}
pub(super) fn pr(mut i: GlobalSpreaderInputs, e: usize, id: u64) -> GlobalSpreaderInputs {
    i.pr_valid |= 1 << e;
    i.pr_id[e] = id;
    i
}
/// EU e completes pixel entry `seq` (R14).
pub(super) fn pc(mut i: GlobalSpreaderInputs, e: usize, seq: u64) -> GlobalSpreaderInputs {
    i.pc_valid |= 1 << e;
    i.pc_seq[e] = seq;
    i
}
/// The pixel consumer's `po_ready` (R14).
pub(super) fn po_ready(mut i: GlobalSpreaderInputs, ready: bool) -> GlobalSpreaderInputs {
    i.po_ready = ready;
    i
}
