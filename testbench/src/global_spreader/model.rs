//! Cycle-level reference model of the `global_spreader` block, written from
//! `docs/spec/global_spreader.md` (§2.3, §4.3, §5) as changed by the block contract
//! (`docs/contracts/global_spreader.md`, which wins), and from nothing else.
//!
//! Structure, one clock edge per [`GlobalSpreaderModel::clock`]:
//!
//! * Four packet classes (type codes 0 VTX, 1 TRI, 2 PIX, 3 PATCH), each with a channel
//!   and a one-packet *slot* (D2). `c_ready = EN && (slot empty || slot's request acked
//!   this cycle)` (R3); a transfer loads the slot at the edge with an empty refused mask,
//!   a malformed packet is dropped there and sets `err_malformed` (R2, D7).
//! * Every occupied slot is evaluated each cycle on the registered state at the start of
//!   the cycle (R1, R4): base, blocked, references, home, footprint, fit; candidates
//!   (R5); selection (R6). One slot is granted the single request (R7): a request held
//!   in the previous cycle is presented again unchanged (sticky); otherwise YIELD_EN
//!   chooses between "first occupied slot if eligible" and "first eligible slot", in
//!   class priority order: ascending RANK (R7b: the positions in `class_priority`, or the
//!   register CLASS_PRIO with `class_priority_reg`), ties in the fixed order PIX > TRI >
//!   PATCH > VTX, which is also the order by default; with `aging` an aged eligible slot
//!   goes first (R7a).
//! * At the edge (R8–R11): the EU's ack applies every effect of the dispatch (debit,
//!   counters, VDT/PT writes, AUTO_IDX, PIX-last release, miss flags); a refusal adds the
//!   EU to the slot's mask; credits, releases and configuration writes apply; sticky
//!   error flags, STALL_CNT and the registered read data update. Because every effect
//!   lands in the state, the evaluation of the next cycle sees it ("forwarding", D2).
//!
//! Cycle timing (contract §4 "Latencies"; event in cycle n): transfer → request in n+1
//! (earliest ack n+1); ack or refusal → its effects and the next grant visible in n+1;
//! credit, release, configuration write → n+1; read → `cfg_rdata` in n+1; malformed
//! transfer → `err_malformed` in n+1. Up to one dispatch per cycle, also from one class.
//!
//! Deviations from the spec's proposal (§5) are the contract's D1–D11: no FSM but a
//! slot per class evaluated every cycle, first fit over all candidates at once, the EU
//! answering in the request cycle (no `rs_*`, tags or `dm_*`), refusal retry by a mask,
//! malformed packets dropped at the channel, sticky requests, the contract's register map.
//!
//! Readings where the contract is silent (each is listed in `directed.rs` and in the
//! report of the model's author):
//! * `cr_res`, `cr_edt` and `cr_type` are payload of `cr_valid`: with `cr_valid[e] = 0`
//!   neither resources nor a record nor a PEND decrement is credited.
//! * EDT_TOTAL stores `min(cfg_wdata, 2^ENT_W)` of the full 32-bit write data.
//! * A slot's refused mask at the edge: acked → 0 (the slot empties or reloads);
//!   otherwise `(no sel in this cycle's evaluation ? 0 : mask) | (refused ? bit(e) : 0)`.
//!   The evaluation is the slot's live one (R4–R6), also while it holds a sticky request.
//! * REJECT_CNT: each candidate before `sel` whose fit fails gets +1, whether or not it
//!   is also in the refused mask; fitting candidates skipped by the mask do not count.
//! * A TRI is "indexed" only if `tp_indexed` and the VDT exists; only then can it set
//!   `err_vdt_miss`. `ar_vcount` is 3 for every TRI.
//! * `ar_src_addr`, `ar_copy_size` and `ar_type` carry the packet's values for every type
//!   (D5).
//! * AUTO_IDX exists (reads, writes) whatever `entity_types` is.
//! * PEND saturates at 2^FE_W−1; an increment at the maximum is lost.
//!
//! * Rules G1-G2 (`perf_counters`, docs/blocks/global_spreader.md, docs/perf.md) — [`perf`]:
//!   the 17 events of a cycle from the decision on the state at m and the inputs of m (the
//!   error events are what R2, R8-R10 detect at the edge), 32-bit saturating counters cleared
//!   by `perf_clr` and reset; `err_clr` clears the five flags unless the same edge sets them
//!   (beside STATUS's W1C). Without the key the model ignores the three inputs.
//!
//! * R14 (`pixel_reorder` = D > 0) — [`Rob`]: the pixel reorder buffer; a PIX packet is
//!   blocked (R4) while COUNT = D, `ar_seq` = TAIL with a PIX request, completions (`pc_*`)
//!   and the pop (`po_valid && po_ready`) at the edge on the state at its start. Without the
//!   key the model ignores `pc_*` and `po_ready` and its three outputs stay 0.
//!
//! * R15 (`vdt_ways` = W > 1): the VDT's vdt_depth entries are W ways of S = vdt_depth / W
//!   sets, entry {way, set} at way * S + set (`vr_slot`, `st_vdt_valid`); set(i) = (i >> log2
//!   VGRP) mod S, vtag(i) = i >> (log2 VGRP + SET_W). A VTX / PATCH takes the lowest way whose
//!   entries (one, or the PG of a patch, in that one way) are all invalid and is blocked when
//!   there is none; the way goes out on `ar_vdt_way` and stays with a held request; the ack
//!   writes {way, set(base) + g}; a TRI ref hits in the lowest valid way with its tag. With
//!   W = 1 the same code is §2's direct-mapped rule (one way: S = vdt_depth, SET_W = VDT_AW).
//!
//! * R16 (`resources`, K kinds; [`PerKind`] values, kind k at [k]) — `res.rs`: each packet's
//!   size, FRAME_RES, MIN_RES, RES_TOTAL and FREE_RES are per kind; fp_k = size_k +
//!   FRAME_RES[t][k]; an EU fits when every kind fits (and FREE_EDT >= 1); least_loaded compares
//!   kind 0; the ack debits fp_k from every kind k; credits per kind, each kind clamped to [0,
//!   RES_TOTAL[e][k]] (any clamp sets `err_credit`); a RES_TOTAL[e][k] write sets FREE_RES[e][k]
//!   after the edge's debit and credit; kind k >= 1's registers at 0x280 + 0x40(k-1) + e (RES_TOTAL),
//!   0x2A0 + 0x40(k-1) + e (FREE_RES, read-only), 0x340 + 8(k-1) + t (MIN_RES), 0x344 + 8(k-1) + t
//!   (FRAME_RES). `ar_copy_size` is kind 0's size. With K = 1 every kind >= 1 value stays 0 and
//!   the rules are R4 / R8 / R9 as written.
//!
//! Inputs are taken modulo their port widths, as the Verilog ports would truncate them.
//! Inputs of absent classes are ignored; outputs of absent ports are 0 / empty.
//! Outputs are functions of the registered state, except `*_ready` which also depends on
//! `ar_ready` of the same cycle (R3).

// cycle: the model and its rules; params: the parameters; perf: the events of the counters
// (rules G1-G2); ports: the inputs, outputs and packet; res: the resource kinds' fit, credits
// and registers (R16); rob: the pixel reorder buffer (R14); types: the model's value types.
mod cycle;
mod params;
pub mod perf;
mod ports;
mod res;
mod rob;
mod types;

pub use cycle::GlobalSpreaderModel;
pub use params::{GlobalSpreaderParams, PerKind, ResKind, Select};
pub use ports::{GlobalSpreaderInputs, GlobalSpreaderOutputs, Packet};
pub use rob::Rob;
pub(crate) use types::Mutation;
pub use types::{Decision, Eval, Grant, PtEntry, Ref, Regs, Request, Slot, VdtEntry};

/// Type codes (contract): VTX 0, TRI 1, PIX 2, PATCH 3.
pub const VTX: usize = 0;
pub const TRI: usize = 1;
pub const PIX: usize = 2;
pub const PATCH: usize = 3;
/// The fixed class priority for the grant: PIX > TRI > PATCH > VTX (R7; R7b's tie order).
pub const CLASS_PRIORITY: [usize; 4] = [PIX, TRI, PATCH, VTX];
/// TOML names of the types, by type code.
pub const TYPE_NAMES: [&str; 4] = ["vertex", "triangle", "pixel", "patch"];

/// Error flag indices (`err_*` ports and STATUS bits [6:2] in this order).
pub const ERR_VDT_MISS: usize = 0;
pub const ERR_PT_MISS: usize = 1;
pub const ERR_MALFORMED: usize = 2;
pub const ERR_CREDIT: usize = 3;
pub const ERR_RELEASE: usize = 4;

/// Register addresses (contract §2.1; `t` type, `e`/`s` EU or slot).
pub mod reg {
    pub const CTRL: u64 = 0x000;
    pub const EU_ENABLE: u64 = 0x001;
    pub const AUTO_IDX: u64 = 0x002;
    pub const STATUS: u64 = 0x003;
    pub const STALL_CNT: u64 = 0x004;
    /// CLASS_PRIO (R7b, only with `class_priority_reg`): bits [2t+1:2t] = RANK[t].
    pub const CLASS_PRIO: u64 = 0x005;
    pub const fn ded_mask(t: usize) -> u64 {
        0x008 + t as u64
    }
    pub const fn min_res(t: usize) -> u64 {
        0x00C + t as u64
    }
    pub const fn frame_res(t: usize) -> u64 {
        0x010 + t as u64
    }
    pub const fn res_total(e: usize) -> u64 {
        0x020 + e as u64
    }
    pub const fn free_res(e: usize) -> u64 {
        0x040 + e as u64
    }
    pub const fn edt_total(e: usize) -> u64 {
        0x060 + e as u64
    }
    pub const fn free_edt(e: usize) -> u64 {
        0x080 + e as u64
    }
    pub const fn reject_cnt(e: usize) -> u64 {
        0x0A0 + e as u64
    }
    pub const fn nack_cnt(e: usize) -> u64 {
        0x0C0 + e as u64
    }
    pub const fn prio(t: usize, s: usize) -> u64 {
        0x100 + 32 * t as u64 + s as u64
    }
    pub const fn alloc_cnt(e: usize, t: usize) -> u64 {
        0x180 + 4 * e as u64 + t as u64
    }
    pub const fn pend(e: usize, t: usize) -> u64 {
        0x200 + 4 * e as u64 + t as u64
    }
    /// R16: RES_TOTAL[e][k] (kind 0: [`res_total`]; kind k >= 1: 0x280 + 0x40(k-1) + e).
    pub const fn res_total_of(e: usize, k: usize) -> u64 {
        if k == 0 { res_total(e) } else { 0x280 + 0x40 * (k as u64 - 1) + e as u64 }
    }
    /// R16: FREE_RES[e][k] (kind 0: [`free_res`]; kind k >= 1: 0x2A0 + 0x40(k-1) + e).
    pub const fn free_res_of(e: usize, k: usize) -> u64 {
        if k == 0 { free_res(e) } else { 0x2A0 + 0x40 * (k as u64 - 1) + e as u64 }
    }
    /// R16: MIN_RES[t][k] (kind 0: [`min_res`]; kind k >= 1: 0x340 + 8(k-1) + t).
    pub const fn min_res_of(t: usize, k: usize) -> u64 {
        if k == 0 { min_res(t) } else { 0x340 + 8 * (k as u64 - 1) + t as u64 }
    }
    /// R16: FRAME_RES[t][k] (kind 0: [`frame_res`]; kind k >= 1: 0x344 + 8(k-1) + t).
    pub const fn frame_res_of(t: usize, k: usize) -> u64 {
        if k == 0 { frame_res(t) } else { 0x344 + 8 * (k as u64 - 1) + t as u64 }
    }
    /// The resource register an address names, of any kind (kind 0's at the §2.1 addresses,
    /// R16's kinds >= 1 as [`kind_reg`]): (kind, what, index) as `kind_reg`.
    pub const fn res_reg(a: u64) -> Option<(usize, usize, usize)> {
        match a {
            0x00C..=0x013 => Some((0, 2 + ((a - 0x00C) / 4) as usize, ((a - 0x00C) % 4) as usize)),
            0x020..=0x05F => Some((0, ((a - 0x020) / 0x20) as usize, ((a - 0x020) % 0x20) as usize)),
            _ => kind_reg(a),
        }
    }
    /// R16: the register a kind-k (k >= 1) address names, whatever the parameters: (kind,
    /// what, index), what 0 RES_TOTAL, 1 FREE_RES (index e), 2 MIN_RES, 3 FRAME_RES (index t).
    pub const fn kind_reg(a: u64) -> Option<(usize, usize, usize)> {
        match a {
            0x280..=0x33F => {
                let off = a - 0x280;
                Some((1 + (off / 0x40) as usize, ((off % 0x40) / 0x20) as usize, (off % 0x20) as usize))
            }
            0x340..=0x357 => {
                let off = a - 0x340;
                Some((1 + (off / 8) as usize, 2 + ((off % 8) / 4) as usize, (off % 4) as usize))
            }
            _ => None,
        }
    }
}

/// All-ones mask of `bits` bits.
pub fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Smallest k with 2^k >= n (clog2(1) = 0).
pub fn clog2(n: u64) -> u32 {
    if n <= 1 {
        0
    } else {
        64 - (n - 1).leading_zeros()
    }
}
