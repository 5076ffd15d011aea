//! Directed test cases: spec §5.12 TC-01…TC-29 under the block contract (§7 of
//! `docs/contracts/global_spreader.md`), the contract's new cases TC-30…TC-34, and cases X01…
//! for the readings the model's author had to choose. Expected values are written by
//! hand from the spec and the contract; none is computed by a model.
//!
//! Conventions. Every case starts with one reset cycle; the next cycle is c0. Each cycle
//! is eval(inputs) → check the listed outputs → tick. The directed EU (contract §7
//! setup): `ar_ready` = 1 and `ar_refuse` = 0 for every EU unless a case says otherwise,
//! and `ar_ent[e]` = the number of acks EU e has given so far (0, 1, 2, …). No credits
//! unless stated. "t0" is the transfer cycle of a packet and "req" its request cycle,
//! which is its ack cycle with the directed EU. Defaults: 5 EUs, RES_TOTAL 64, EDT_TOTAL
//! 256, VGRP 8, 256-entry VDT and PT, EN and LOCALITY on, YIELD off, PRIO 0,1,2,3,4.
//! Packet ids (`src_addr`) are 0x100 + n; each case uses free PrIDs.
//!
//! Readings and additions (contract ambiguities the model resolves the same way):
//! * TC-08 is run twice: with a gap, and back to back (the triangle transfers in the
//!   vertex's request cycle and is requested in the next one, seeing the VDT write).
//! * TC-09 adds a third triangle (17, 9, 10) whose majority EU (1) is not v0's EU (3).
//! * TC-12/both: ack and refuse together → ack (R8).
//! * TC-16 and TC-24 run the random stimulus through the DUT with the invariant checker
//!   (TC-16: I3 every cycle; TC-24: conservation and liveness, then a drain).
//! * TC-17 holds a request to EU1 while EU0 does not fit: REJECT_CNT[0] counts once.
//! * TC-18 (no `dm` channel) checks `ar_src_addr`, `ar_copy_size` and `ar_footprint` =
//!   size + FRAME_RES for every type.
//! * TC-19/auto: a non-indexed patch rounds AUTO_IDX up to 16.
//! * X01: `cr_res`/`cr_edt`/`cr_type` are ignored without `cr_valid`.
//! * X02: EDT_TOTAL stores min(cfg_wdata, 2^ENT_W) of the full write data (0x200 → 256).
//! * X03: a footprint >= 2^RES_W never fits (not truncated).
//! * X04: MIN_RES is a threshold on free resources (O4), not a reserve.
//! * X05: register widths and absent registers (PRIO masked to PRIO_W bits, values
//!   >= N_EU are empty slots and skipped, duplicates skipped, AUTO_IDX low bits 0, RO
//!   registers ignore writes, registers of absent types and EUs read 0).
//! * X06: a refused mask is cleared by a cycle without sel also while the slot's
//!   request is held; the refusal at the end of the hold is kept (mask = {e}).
//! * X07: REJECT_CNT counts a candidate that fails fit even if it is also masked.
//! * X08 (`perf_counters`, rules G1-G2 of docs/blocks/global_spreader.md; in `x08.rs`): the
//!   counters by hand, `perf_clr` and reset win, `err_clr` loses to an error of its edge.
//! * X09 (`select = "least_loaded"`, contract R6; in `x09.rs`): the most FREE_RES, ties to the
//!   first in PRIO order, the home before the load.
//! * X10 (`select = "round_robin"`, contract R6; in `x10.rs`): EU order from RR_PTR, not PRIO
//!   order; RR_PTR wraps, skips EUs that do not fit, the search wraps below it, a refusal
//!   leaves it, every ack (the home's too) moves it; the home before the pointer.
//! * X11 (`aging`, contract R7a; in `x11.rs`): a vertex passed over by a pixel stream is
//!   granted at AGE = 3; a held request ages nothing.
//! * X12 (class priority, contract R7b; in `x12.rs`): CLASS_PRIO's reset value and read back,
//!   a write in cycle c orders the grant from c+1, equal ranks in the fixed order, all four
//!   classes in rank order, YIELD_EN 0 and 1 with the ranks; a constant `class_priority`
//!   (0x005 unmapped); an absent type's bits are not stored.
//! * X13 (pixel order, `pixel_reorder` = 2, contract R14; in `x13.rs`): `ar_seq` = TAIL, a full
//!   ROB blocks the pixel slot, completions out of order, `po_valid` only with HEAD done and
//!   held by `po_ready` 0, an ack and a pop at one edge, ignored completions (not outstanding,
//!   also of an entry made outstanding later), two ports completing one entry, reset.
//! * X14 (set-associative VDT, `vdt_ways` = 2, contract R15; in `x14.rs`; 2 EUs, VGRP 4, 8
//!   entries: 2 ways of 4 sets): vertex packets of one set in way 0, then way 1 (`ar_vdt_way`,
//!   `st_vdt_valid` bits {way, set}), a third blocked until `vr_slot` {1, set} frees way 1, a
//!   triangle hitting both ways (tags by SET_W), a miss, a held request keeping its way while
//!   the lower way frees, one group in both ways (the lowest hits), `ar_vdt_way` 0 for a
//!   triangle and with no grant. X14/patch (with patch: PG = 4 groups, all four sets of one
//!   way): a patch takes the one way whose four entries are free, blocked while none is, and a
//!   triangle hits two patches' groups in both ways with their `grp`.
//! * X15 (resource kinds, `resources`, contract R16; in `x15.rs`; 2 EUs, K = 2, kind 1's totals
//!   [8, 16]): a vertex packet that fits kind 0 on EU0 but not kind 1 goes to EU1, one that fits
//!   no EU in kind 1 waits (REJECT_CNT counts the kind-1 failures), credits of kind 1 only and of
//!   both kinds in one pulse, RES_TOTAL[e][1] written (FREE_RES follows; at the edge of an ack
//!   the write wins over kind 1's debit, kind 0's applies), FRAME_RES / MIN_RES of kind 1 (a
//!   MIN_RES threshold of kind 1 holds a packet that fits fp_1), FREE_RES of kind 1 read back and
//!   read-only, a kind-1 credit past RES_TOTAL clamped with `err_credit`, an unbuilt kind's and
//!   EU's registers reading 0. X15/k4 (1 EU, K = 4, RES_W 6): fp of four 6-bit kinds, a packet
//!   failing kind 3 only, a credit of all four kinds, the registers of kinds 2 and 3.
//! * X16 (R8, R11; in `x16.rs`): ALLOC_CNT read in every cycle of a run of acks (each read the
//!   count before its own cycle), NACK_CNT read in the cycle of a refusal and the next, a
//!   counter read the cycle after its first ack, the reset, an unbuilt EU's counter.

use super::model::{Select, PATCH, PIX, TRI, VTX};
use super::{Dut, GlobalSpreader, GlobalSpreaderParams};

// The cases, by the section of the spec or contract they come from.
mod cases_contract;
mod cases_tc01_15;
mod cases_tc16_29;
// The expected values and the runner; the packets and the directed EU's answers.
mod check;
mod inputs;
mod x08;
mod x09;
mod x10;
mod x11;
mod x12;
mod x13;
mod x14;
mod x15;
mod x16;

pub use cases_contract::*;
pub use cases_tc01_15::*;
pub use cases_tc16_29::*;
pub use x08::x08_perf_counters;
pub use x09::x09_least_loaded;
pub use x10::x10_round_robin;
pub use x11::x11_aging;
pub use x12::{x12_absent_types, x12_class_priority, x12_constant};
pub use x13::x13_pixel_order;
pub use x14::{x14_patch_ways, x14_vdt_ways};
pub use x15::{x15_four_kinds, x15_resource_kinds};
pub use x16::x16_counters_in_flight;

/// The parameter set a case runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsKind {
    /// Contract defaults (5 EUs).
    Default,
    /// One EU.
    OneEu,
    /// 16 EUs.
    Eu16,
    /// Types vertex and triangle only.
    VtxTri,
    /// One EU with `perf_counters`.
    Perf,
    /// Contract defaults with `select = "least_loaded"`.
    LeastLoaded,
    /// Contract defaults with `select = "round_robin"`.
    RoundRobin,
    /// Contract defaults with `aging` = 3 (R7a).
    Aging,
    /// Contract defaults with `class_priority_reg` (R7b; ranks reset to the fixed order).
    ClassPrioReg,
    /// Contract defaults with `class_priority` = vertex, patch, triangle, pixel (constant, R7b).
    ClassPrioConst,
    /// Types vertex and triangle, `class_priority` = vertex, triangle, with the register (R7b).
    ClassPrioVtxTri,
    /// Contract defaults with `pixel_reorder` = 2 (R14).
    PixelOrder,
    /// `vdt_ways` = 2 (R15): 2 EUs, vertex and triangle, VGRP 4, 8-entry VDT (4 sets), 8-entry PT.
    VdtWays,
    /// As [`ParamsKind::VdtWays`] with patch too (PG = 4).
    VdtWaysPatch,
    /// K = 2 resource kinds (R16): 2 EUs, kind 1's RES_TOTAL [8, 16], its MIN_RES and FRAME_RES 0.
    ResKinds,
    /// K = 4 (R16): 1 EU, RES_W 6, RES_TOTAL 63 (kind 0), 10, 20, 30.
    ResKinds4,
}

impl ParamsKind {
    pub fn params(self) -> GlobalSpreaderParams {
        match self {
            ParamsKind::Default => GlobalSpreaderParams::default(),
            ParamsKind::OneEu => GlobalSpreaderParams::with_eus(1),
            ParamsKind::Eu16 => GlobalSpreaderParams::with_eus(16),
            ParamsKind::VtxTri => GlobalSpreaderParams { types: [true, true, false, false], ..Default::default() },
            ParamsKind::Perf => GlobalSpreaderParams { perf_counters: true, ..GlobalSpreaderParams::with_eus(1) },
            ParamsKind::LeastLoaded => GlobalSpreaderParams { select: Select::LeastLoaded, ..Default::default() },
            ParamsKind::RoundRobin => GlobalSpreaderParams { select: Select::RoundRobin, ..Default::default() },
            ParamsKind::Aging => GlobalSpreaderParams { aging: 3, ..Default::default() },
            ParamsKind::ClassPrioReg => GlobalSpreaderParams { class_priority_reg: true, ..Default::default() },
            ParamsKind::ClassPrioConst => {
                GlobalSpreaderParams { class_priority: Some(vec![VTX, PATCH, TRI, PIX]), ..Default::default() }
            }
            ParamsKind::ClassPrioVtxTri => GlobalSpreaderParams {
                types: [true, true, false, false],
                class_priority: Some(vec![VTX, TRI]),
                class_priority_reg: true,
                ..Default::default()
            },
            ParamsKind::PixelOrder => GlobalSpreaderParams { pixel_reorder: 2, ..Default::default() },
            ParamsKind::VdtWays | ParamsKind::VdtWaysPatch => GlobalSpreaderParams {
                types: [true, true, false, self == ParamsKind::VdtWaysPatch],
                vgrp: 4,
                vdt_depth: 8,
                vdt_ways: 2,
                pt_depth: 8,
                ..GlobalSpreaderParams::with_eus(2)
            },
            ParamsKind::ResKinds => {
                let mut p = GlobalSpreaderParams::with_eus(2).with_kinds(2);
                p.more_kinds[0].res_total = vec![8, 16];
                p
            }
            ParamsKind::ResKinds4 => {
                let one = GlobalSpreaderParams::with_eus(1);
                let mut p = GlobalSpreaderParams { res_w: 6, res_total: vec![63], ..one }.with_kinds(4);
                for (k, total) in [10, 20, 30].into_iter().enumerate() {
                    p.more_kinds[k].res_total = vec![total];
                }
                p
            }
        }
    }
}

pub type CaseFn = fn(&mut dyn Dut<GlobalSpreader>) -> Result<(), String>;

/// Every directed case with the parameter set it needs.
pub fn all_cases() -> Vec<(&'static str, ParamsKind, CaseFn)> {
    use ParamsKind::*;
    vec![
        ("TC-01", Default, tc01_reset as CaseFn),
        ("TC-01/16eu", Eu16, tc01_reset_16),
        ("TC-02", Default, tc02_indexed_vertex),
        ("TC-03", Default, tc03_auto_index),
        ("TC-04", Default, tc04_first_fit),
        ("TC-05", Default, tc05_back_pressure),
        ("TC-06", Default, tc06_min_res),
        ("TC-07", Default, tc07_enable_dedicated),
        ("TC-08", Default, tc08_locality),
        ("TC-08/b2b", Default, tc08_back_to_back),
        ("TC-09", Default, tc09_majority),
        ("TC-10", Default, tc10_home_full),
        ("TC-11", Default, tc11_pixels),
        ("TC-12", Default, tc12_refusal),
        ("TC-12/both", Default, tc12_ack_and_refuse),
        ("TC-13", Default, tc13_credit_and_debit),
        ("TC-14", Default, tc14_class_priority),
        ("TC-15", Default, tc15_yield),
        ("TC-16", Default, tc16_invariants),
        ("TC-16/1eu", OneEu, tc16_invariants),
        ("TC-17", Default, tc17_sticky_hold),
        ("TC-18", Default, tc18_payload),
        ("TC-19", Default, tc19_patch),
        ("TC-19/auto", Default, tc19_patch_auto),
        ("TC-20", Default, tc20_vdt_block),
        ("TC-21", Default, tc21_pt_block),
        ("TC-22", Default, tc22_eu_enable),
        ("TC-23", Default, tc23_counters),
        ("TC-24", Default, tc24_stress),
        ("TC-25", Default, tc25_malformed),
        ("TC-26", Default, tc26_enable),
        ("TC-27", Default, tc27_no_locality),
        ("TC-28", Default, tc28_retained),
        ("TC-29", Default, tc29_vdt_miss),
        ("TC-30", Default, tc30_patch_malformed),
        ("TC-31", Default, tc31_bad_release),
        ("TC-32", Default, tc32_credit_overflow),
        ("TC-33", Default, tc33_sticky_disabled),
        ("TC-34", OneEu, tc34_refusal_retry),
        ("TC-34/5eu", Default, tc34_all_refuse),
        ("X01", Default, x01_credit_gating),
        ("X02", Default, x02_edt_total_min),
        ("X03", Default, x03_footprint_overflow),
        ("X04", Default, x04_min_res_threshold),
        ("X05", Default, x05_registers),
        ("X05/vtx-tri", VtxTri, x05_absent_types),
        ("X06", Default, x06_mask_under_hold),
        ("X07", Default, x07_reject_masked),
        ("X08", Perf, x08_perf_counters),
        ("X09", LeastLoaded, x09_least_loaded),
        ("X10", RoundRobin, x10_round_robin),
        ("X11", Aging, x11_aging),
        ("X12", ClassPrioReg, x12_class_priority),
        ("X12/const", ClassPrioConst, x12_constant),
        ("X12/vtx-tri", ClassPrioVtxTri, x12_absent_types),
        ("X13", PixelOrder, x13_pixel_order),
        ("X14", VdtWays, x14_vdt_ways),
        ("X14/patch", VdtWaysPatch, x14_patch_ways),
        ("X15", ResKinds, x15_resource_kinds),
        ("X15/k4", ResKinds4, x15_four_kinds),
        ("X16", Default, x16_counters_in_flight),
    ]
}

/// Run every case on a fresh DUT from `make`; all failures, one per line.
pub fn run_all(make: &mut dyn FnMut(&GlobalSpreaderParams) -> Box<dyn Dut<GlobalSpreader>>) -> Result<(), String> {
    let cases = all_cases().into_iter().map(|(name, kind, case)| (name, (kind, case)));
    crate::kit::run_cases(cases, |(kind, case)| case(make(&kind.params()).as_mut()))
}
