//! # global_spreader — dispatch of vertex, triangle, pixel and patch packets to execution units
//!
//! The global spreader (GS) of CN1912922 as specified in `docs/spec/global_spreader.md` §2.3 and
//! §4.3 (B-01 to B-19), after the proposal of §5, under `docs/contracts/global_spreader.md`, which
//! wins over §5. Four packet channels (vertex `vp`, patch `pp`, triangle `tp`, pixel `xp`;
//! each type can be left out) feed one slot per class; every cycle each occupied slot is
//! evaluated against the per-EU free resources and entity records, its type's minimum and
//! frame resources, candidate order (PRIO) and dedicated mask, and its home EU (locality:
//! a triangle where its vertices are, a pixel where its triangle is); one slot is granted
//! the allocation request output; the EU acknowledges, refuses or holds it in the same
//! cycle. The vertex descriptor table (VDT: which EU holds each group of VGRP vertices) and
//! the primitive table (PT: which EU holds each triangle) give the locality references.
//! Credits, table releases, a 10-bit register interface and sticky error flags complete it.
//!
//! ## Structure (a core of several designs, see `netlist`)
//! `warpgen_global_spreader` (exact ports, `emit::Wrapper`) → `warpgen_global_spreader_core`
//! (a netlist, no logic) → one design per concern, each generic in at most one width:
//! * `ctl` ([`Ctl`], no width): slots' occupancy and control bits, refused masks, candidate
//!   selection, grant, sticky request, effects strobes, CTRL / EU_ENABLE / DED_MASK /
//!   STATUS, the 32-bit counters (NACK_CNT and ALLOC_CNT in a block RAM of its own,
//!   `ctl/counter_ram.rs`), errors, the read-data register.
//! * `res` ([`ResPath`], RES_W): FREE_RES, RES_TOTAL, MIN_RES, FRAME_RES, slot sizes, fit.
//! * `ent` ([`EntPath`], ENT_W and FE_W): FREE_EDT, EDT_TOTAL, PEND, entity numbers.
//! * `idx` ([`IdxPath`], IDX_W): AUTO_IDX, vertex/patch bases, triangle indices, VDT
//!   slot, tag and bank arithmetic.
//! * `addr` ([`AddrPath`], ADDR_W): source addresses. `eu` ([`EuPath`], EU_W, PRIO_W):
//!   PRIO, EU ids of references, home EU. `prid` ([`PridPath`], PRID_W): PrIDs.
//! * `vdt_valid`, `pt_valid` ([`ValidBits`], table depth): valid bits in flip-flops.
//! * `vdt_data`, `pt_data` ([`TableData`], entry width): write data, read forwarding and
//!   field extraction around the RAMs `vdt_ram` (3 copies, one per triangle vertex, each
//!   PG banks by slot mod PG) and `pt_ram` ([`crate::mem`], block RAM).
//!
//! One design per file: `ctl.rs`, `res_path.rs`, `ent_path.rs`, `idx_path.rs`,
//! `addr_path.rs`, `eu_path.rs`, `prid_path.rs`, `valid_bits.rs`, `table_data.rs`;
//! `pick.rs`, `rob.rs` and `ways.rs` are hand-written Verilog modules built only with their keys;
//! `emit.rs` holds the exact ports and each design's Verilog, `core_netlist.rs` the core
//! netlist that wires them; this file the geometry ([`Geo`]) and the tests.
//!
//! ## Performance counters (`perf_counters`, docs/blocks/global_spreader.md rules G1, G2)
//! Off by default (no port, no logic: the Verilog of the block without the key). On, `ctl`
//! holds one [`crate::perf::PerfBank`] of 17 counters read through `perf_sel` / `perf_val`
//! and cleared by `perf_clr` or reset (docs/perf.md), in part 5 of its rules (`ctl/perf.rs`):
//! dispatches per type (the ack strobes), channel stalls per type (`c_valid & !c_ready`), the
//! causes `stall_blocked` / `stall_no_eu` (an offered channel whose slot is occupied, not
//! granted, and blocked / without a selection), cycles with a credit (`cr_valid`) or a
//! release (`vr_valid`, `pr_valid`, pinned into `ctl` for this), and the five error causes
//! (the conditions that set the flags in part 3). `err_clr` clears the five sticky flags in
//! part 3 after the W1C clear and before the causes, so a cause of the same edge wins.
//! The indices are fixed (a type the config does not build keeps its indices, events 0).
//! Cost at the default config, ECP5 85k, nextpnr seed 1: +593 LUT4, +544 FF, +272 carry,
//! 28.5 → 26.1 MHz (the critical path stays the VDT lookup; docs/blocks/global_spreader.md).
//!
//! ## Selection policy (`select`, contract R6)
//! `first_fit` (default): the first candidate (home, then PRIO) that fits and has not
//! refused: `ctl`'s priority encoder over the PRIO places. `least_loaded`: the home if
//! locality lists it and it fits and has not refused; else, of the PRIO candidates that fit
//! and have not refused, the one with the most FREE_RES (the registered counter of the
//! cycle), ties to the first in PRIO order. Only with the key, `ctl` sends each slot's open
//! EUs (`ll_ok`) to `pick` (`pick.rs`, hand-written Verilog), which keeps those listed in
//! PRIO and returns the ones whose FREE_RES equals the maximum (`ll_tie`, a balanced tree
//! of pairwise maxima: ceil(log2 N_EU) comparator levels, no chain over the EUs); `ctl`
//! runs its first-fit encoder over the PRIO places on that set, so the tie goes to the
//! first in PRIO order and REJECT_CNT keeps R8's rule (candidates before sel that do not
//! fit). Without the key no port, wire or module exists: the Verilog is first fit's.
//! `round_robin`: the home as for least_loaded; else, of the open PRIO candidates, the first
//! in EU order at or after RR_PTR, else the first in EU order (circular). `pick` holds RR_PTR
//! (`rr_ptr_q`, EU_W bits, reset 0; at an ack to EU e it takes e + 1 mod N_EU, refusals leave
//! it) and returns one EU per slot through the same `ll_ok` / `ll_tie` ports: the lowest set
//! bit of the open PRIO candidates masked by `e >= RR_PTR` (a thermometer of the pointer), or
//! of the unmasked ones if the mask leaves none, each by a prefix OR of ceil(log2 N_EU)
//! doubling shifts (no chain over the EUs). `ctl`'s encoder then only finds that EU's PRIO
//! place, so REJECT_CNT keeps R8's rule.
//!
//! ## Class aging (`aging`, contract R7a)
//! 0 (default): none, R7's fixed class order, and no register or wire of it in the Verilog.
//! L in 3..=255: `ctl` keeps an 8-bit AGE per class slot (`age_q`, up to L). In a cycle
//! with no held request, the first slot in class order that is eligible with AGE = L is
//! granted (`aged`, `any_aged`) before R7's rule, whatever YIELD_EN. At the edge AGE goes to 0
//! when the slot is empty or was granted in such a cycle, +1 when it was eligible there and
//! passed over. A slot that stays eligible is granted within L + 3 such cycles. Same cycle
//! timing: AGE is registered and the choice is combinational in stage B like R7's.
//!
//! ## Class priority (`class_priority`, `class_priority_reg`, contract R7b)
//! The default (R7's fixed order, no register): no register or wire of it in the Verilog.
//! Otherwise `ctl` ranks the class slots: each slot's 2-bit RANK is a constant (the type's
//! position in `class_priority`) or, with `class_priority_reg`, two flip-flops of CLASS_PRIO
//! (0x005, the two bits of the slot's type code; `core_netlist` wires those bits of
//! `cfg_wdata`). A pairwise "comes before" relation (`bt`: lower rank, or equal rank and first
//! in the fixed order) gives, per slot, "first eligible", "first occupied" and "first aged"
//! (`win_e`, `win_o`, `win_a`), which replace the scan in slot order of R7 and R7a; K <= 4
//! slots, so 12 pairs and no chain. Same cycle timing: CLASS_PRIO is written at the edge like
//! the other registers, and the grant stays combinational in stage B.
//!
//! ## Pixel order (`pixel_reorder`, contract R14)
//! 0 (default): none, and no module, wire or port of it in the Verilog. D in 2..=64 (a power
//! of two): the module `rob` (`rob.rs`, hand-written Verilog) holds a circular queue of D
//! entries in flip-flops: HEAD, TAIL (RB_W = log2 D bits), COUNT (RB_W+1 bits) and one DONE
//! bit per entry, all cleared by `reset`. At the edge of a pixel ack (the pixel slot granted,
//! `gnt`, and an `ack`) TAIL and COUNT go up by one; `ar_seq` = TAIL while the pixel slot is
//! granted, else 0 (a held request keeps it: TAIL moves only at a pixel ack). Each completion
//! port e (`pc_valid[e]`, `pc_seq[e]`) sets DONE of its entry at the edge if the entry is
//! outstanding, `pc_seq[e] - HEAD` (mod D) < COUNT: one subtractor and one comparator per
//! port, then a decoder ORed into the set mask; no chain over the entries. `po_valid` =
//! COUNT != 0 && DONE[HEAD] and `po_seq` = HEAD come from registers; at the edge of
//! `po_valid && po_ready` DONE[HEAD] is cleared and HEAD goes up, COUNT down (a pixel ack at
//! the same edge leaves COUNT). COUNT = D (`rob_full`, its top bit) is `ctl`'s `pix_blocked`
//! input: the pixel slot is blocked (R4), so it is not eligible and `stall_blocked` counts it.
//! Same cycle timing: a pixel acked in n has its `ar_seq` in n, is outstanding from n+1, a
//! completion in m sets DONE at the edge ending m, `po_valid` rises in m+1 at the earliest
//! (the head), and a pop in p frees the entry for the pixel slot's evaluation in p+1.
//!
//! ## Resource kinds (`resources`, contract R16)
//! One kind (the default, or a one-name list): the design `res` as always, and no other wire.
//! K kinds: one `res` design per kind (`res`, `res_k1`, …; [`ResPath::new`] with the kind's
//! reset values and register addresses), each on kind k's fields of the channels' sizes,
//! `cr_res`, `ar_footprint` and `st_free_res`. `ctl` takes the AND of the kinds' fits (so
//! R4's fit, REJECT_CNT and the stall causes are over every kind), the OR of their read data
//! (distinct addresses) and of their clamp errors (`err_credit`); `pick` compares kind 0's
//! FREE_RES; `ar_copy_size` is kind 0's size (the other kinds' copies, `res_copy_k`, are
//! unused: a waiver). Same cycle timing.
//!
//! ## Set-associative VDT (`vdt_ways`, contract R15)
//! 1 (default): the direct-mapped VDT, and no module, wire or port of the ways in the Verilog.
//! W = 2 or 4: `Geo::vd` / `Geo::aw` are the S = vdt_depth / W sets and their SET_W bits, so
//! `idx` computes sets and tags of S, and each way is an instance of the direct-mapped table:
//! `vdt_valid_w*` (S valid bits, its slice of `st_vdt_valid`), `vdt_data_w*` and the RAMs
//! `vdt_ram_w*_c_b`. The module `vdt_ways` (`ways.rs`, hand-written Verilog) ANDs the ways'
//! lookups into VTX / PATCH blocking, picks the lowest free way (`ar_vdt_way`, held with the
//! sticky request), decodes it into the ways' set strobes, bank enables and forwarding hits,
//! routes each release by `vr_slot`'s way bits, and for each triangle vertex compares the
//! ways' tags with `idx`'s `tri_tag` and passes on the lowest hitting way's entry as the
//! entry `ctl`, `eu`, `ent` and `idx` read when direct mapped. Same cycle timing.
//!
//! ## Cycle timing (contract §1 D2, §4)
//! * **Stage A, cycle n:** a channel transfers into its empty slot, or into a slot whose
//!   request is acknowledged in n (`c_ready = EN && (!occupied || acked)`: the only outputs
//!   combinational on an input, `ar_ready`). The table reads for n+1 are issued: VDT
//!   copy i at the slot of `tp_vidx[i]` if `tp` transfers, else of the triangle slot's
//!   index; PT at `xp_tri_id` if `xp` transfers, else at the pixel slot's triangle id.
//! * **Stage B, n+1 on:** every occupied slot is evaluated from registered state only
//!   (counters, valid flip-flops, slot registers, RAM output registers with the last
//!   edge's table write forwarded), one is granted `ar_valid`; `ar_*`, `busy`, `stall`,
//!   `eu_avail_cnt`, `st_*` are combinational from registers. At the edge ending the
//!   cycle of `ar_ready[sel]` every effect is applied (debit, counters, table write, valid
//!   bit, AUTO_IDX) and the slot empties or reloads.
//! * Latency: transfer n → request n+1 (earliest ack n+1); ack/refuse n → next grant and
//!   all effects visible n+1; credit, release, config write n → n+1; register read n →
//!   `cfg_rvalid`/`cfg_rdata` n+1; malformed transfer n → `err_malformed` n+1; with
//!   `perf_counters`, an event of n → its counter n+1, `perf_val` comb on `perf_sel`. Rate: one
//!   dispatch per cycle, also from one class, while EUs fit and acknowledge at once.
//! * Registered: everything in the designs above; nothing else is state. A request not
//!   answered is presented again unchanged: its EU, class, footprint, base index and
//!   reference valid bits are registered, the rest of its payload is slot or RAM content
//!   that cannot change while it is held.
//!
//! ## Deviations from the spec's proposal (§5)
//! The contract's D1–D11: `clock`/synchronous `reset`; two-stage pipeline instead of the
//! §5.7 FSM (B-09 relaxed: the handshake means "taken in", one unallocated packet per
//! class is held); first-fit by priority encoder (D3; `select` = "least_loaded" and
//! "round_robin" are additions beyond the spec, D12, and so are `aging`, D13, the class
//! priority keys, D14, and `pixel_reorder`, D15); the EU answers in the request cycle
//! (`ar_ready`/`ar_refuse`/`ar_ent`, no `rs_*`, debit at the ack); no `dm_*` channel
//! (`ar_src_addr`, `ar_copy_size`, `ar_type` go with the request); refusal retry by a
//! per-slot refused mask; malformed packets dropped at the channel (indexed patch base a
//! multiple of 16; a non-indexed patch takes AUTO_IDX rounded up to 16); yield without
//! un-acknowledging; VDT/PT contents in synchronous RAM with valid bits in flip-flops;
//! the register map for up to 32 EUs with split `err_*` and `err_release`; `ar_base_idx`;
//! NPIX = PATCH_NV = 16; CTRL.EN stops acceptance only. Interpretations of this file:
//! * `cr_edt` counts only with `cr_valid` (for FREE_EDT and PEND), like `cr_res`.
//! * A slot with no selection clears its refused mask, then a refusal at the same edge
//!   adds its EU: mask' = (sel exists ? mask : 0) | refused EU. Evaluation (and so this
//!   clearing) goes on while the slot's request is held.
//! * A RES_TOTAL / EDT_TOTAL write sets that EU's FREE_RES / FREE_EDT at the edge, in place
//!   of the edge's debit and credit; whether those clamp (and set `err_credit`) is judged
//!   from the counter before the write, as without it (contract R9).
//! * AUTO_IDX exists (RW) whatever the entity types; PRIO, DED_MASK, MIN_RES, FRAME_RES,
//!   ALLOC_CNT and PEND of an absent type read 0 and ignore writes.
//! * The VDT's contents (RAM) exist with triangles and vertex or patch, the PT's with
//!   pixels (valid bits alone serve blocking otherwise). Without either, `ar_ent` is
//!   unused; with triangles but no VDT, `tp_indexed`/`tp_vidx` are unused.
//!   `rtl/lint/warpgen.vlt` waives exactly these inputs.
//!
//! ## Area at the default config (yosys `synth_ice40`)
//! Yosys 0.23 `synth_ice40` (flattened) of the default config (5 EUs, all four types,
//! VGRP 8, 256-entry VDT and PT, IDX_W 16, RES_W 12, ENT_W 8, ADDR_W 32): 10,945 SB_LUT4,
//! 2,537 flip-flops (SB_DFF* of all kinds; 512 of them are the VDT/PT valid bits, D9),
//! 1,721 SB_CARRY and 13 SB_RAM40_4K. The table contents are block RAM: the VDT's 3 copies
//! x 2 banks of 128 x 17-bit entries take 12, the PT's 256 x 11 bits 1. The valid bits
//! are the logic that grows with the table depth (per table, with `-noflatten`: 2,898 and
//! 2,723 LUT4): every bit's next state sees the five release decoders, and each lookup is
//! a 256:1 multiplexer. A release of an invalid entry is found by one AND-OR of the
//! releases' union with the valid bits (until then, one 256:1 read multiplexer per
//! release: 13,575 LUT4 in all). See also docs/blocks/global_spreader.md
//! ("Cost").

use crate::config::GlobalSpreaderConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{self, constant, dffs, grid, signals};
use crate::netlist::{Ex, Instance, Netlist, PortDecl};
use rust_hdl::prelude::*;

/// Width of a register address.
pub const CFG_AW: usize = 10;
/// EU masks inside `ctl` (at most 32 EUs; bits at and above `eus` are constant 0).
type Mask = Bits<32>;
/// EU ids and small counts inside `ctl`, zero-extended.
type Id = Bits<8>;
type CfgAddr = Bits<CFG_AW>;

/// Type codes (contract: 0 VTX, 1 TRI, 2 PIX, 3 PATCH).
pub const VTX: usize = 0;
pub const TRI: usize = 1;
pub const PIX: usize = 2;
pub const PATCH: usize = 3;
/// Class priority: PIX > TRI > PATCH > VTX.
const CLASS_ORDER: [usize; 4] = [PIX, TRI, PATCH, VTX];

/// Everything the designs need from the config, resolved.
#[derive(Clone, Debug)]
pub struct Geo {
    pub n: usize,
    /// Present type codes in class priority order; slot k of every per-class vector.
    pub classes: Vec<usize>,
    pub vtx: bool,
    pub tri: bool,
    pub pix: bool,
    pub patch: bool,
    pub has_vdt: bool,
    /// VDT contents (RAM) are kept: a triangle can look vertices up.
    pub vdt_ram: bool,
    /// PT contents (RAM) are kept: a pixel can look its triangle up.
    pub pt_ram: bool,
    pub vgrp: usize,
    pub ew: usize,
    pub vcw: usize,
    /// VDT sets S (contract R15; the entries when direct mapped) and SET_W = log2 S: the
    /// depth and address of each way's valid bits, RAMs and index arithmetic.
    pub vd: usize,
    pub aw: usize,
    /// `vdt_ways` W (R15) and WAY_W = log2 W; W = 1: direct mapped, no way logic at all.
    pub ways: usize,
    pub wyb: usize,
    pub pd: usize,
    pub pw: usize,
    pub iw: usize,
    pub rw: usize,
    pub ent: usize,
    pub fw: usize,
    pub adw: usize,
    pub uw: usize,
    pub prw: usize,
    pub avw: usize,
    pub pg: usize,
    pub lpg: usize,
    pub gw: usize,
    pub tw: usize,
    /// Bits of `ctl`'s `cfg_wdata` (CTRL, STATUS and the EU masks).
    pub cw: usize,
    // Reset values.
    pub en: bool,
    pub loc: bool,
    pub yld: bool,
    /// `perf_counters`: the counter bank and `err_clr` (rules G1-G2); `psw` is `perf_sel`'s width.
    pub perf: bool,
    pub psw: usize,
    /// `select` is not "first_fit" (contract R6): the `pick` module and `ctl`'s `ll_*` ports.
    pub pick: bool,
    /// `select = "round_robin"`: `pick` holds RR_PTR and picks by EU order from it (else, with
    /// `pick`, by FREE_RES).
    pub rr: bool,
    /// `aging` (contract R7a): the age at which an eligible slot is granted first; 0: none.
    pub aging: usize,
    /// Contract R7b: the slots are granted by rank (`class_priority` not the fixed order, or
    /// `class_priority_reg`), not in slot order; `class_reg`: the ranks are CLASS_PRIO.
    pub ranked: bool,
    pub class_reg: bool,
    /// RANK after reset per class slot (the rank of `classes[k]`).
    pub rank: Vec<usize>,
    /// `pixel_reorder` (contract R14): the reorder buffer's entries D, 0 without it; `rbw` =
    /// RB_W = log2 D, the bits of a sequence number.
    pub rob: usize,
    pub rbw: usize,
    pub eu_en: Vec<bool>,
    pub ded: Vec<Vec<bool>>,
    pub prio: Vec<Vec<u64>>,
    /// Resource kinds K (contract R16; 1 without `resources`), and every kind's reset values:
    /// RES_TOTAL [kind][EU], MIN_RES and FRAME_RES [kind][class slot] (kind 0: the top-level keys).
    pub kinds: usize,
    pub res_total_k: Vec<Vec<u64>>,
    pub min_res_k: Vec<Vec<u64>>,
    pub frame_res_k: Vec<Vec<u64>>,
    pub edt_total: Vec<u64>,
}

impl Geo {
    pub fn new(c: &GlobalSpreaderConfig) -> Geo {
        let classes: Vec<usize> = CLASS_ORDER.iter().copied().filter(|t| c.has_type(*t)).collect();
        let ranks = c.class_ranks();
        let n = c.eus as usize;
        let (vtx, tri, pix, patch) = (c.has_type(VTX), c.has_type(TRI), c.has_type(PIX), c.has_type(PATCH));
        let pg = c.patch_groups();
        let lpg = pg.trailing_zeros() as usize;
        let prw = c.prio_bits();
        let empty = (1u64 << prw) - 1;
        Geo {
            n,
            vtx,
            tri,
            pix,
            patch,
            has_vdt: c.has_vdt(),
            vdt_ram: c.has_vdt() && tri,
            pt_ram: pix,
            vgrp: c.vertices_per_group as usize,
            ew: c.elem_bits(),
            vcw: c.vcount_bits(),
            vd: (c.vdt_depth / c.vdt_ways.max(1)) as usize,
            aw: c.vdt_set_bits(),
            ways: c.vdt_ways.max(1) as usize,
            wyb: c.vdt_way_bits(),
            pd: c.pt_depth as usize,
            pw: c.prid_bits(),
            iw: c.index_width as usize,
            rw: c.res_width as usize,
            ent: c.entity_width as usize,
            fw: c.free_edt_bits(),
            adw: c.addr_width as usize,
            uw: c.eu_bits(),
            prw,
            avw: c.avail_bits(),
            pg,
            lpg,
            gw: c.grp_bits(),
            tw: c.tag_bits(),
            cw: n.max(7),
            en: c.enable,
            loc: c.locality,
            yld: c.yield_enable,
            perf: c.perf_counters,
            psw: c.perf_sel_bits(),
            pick: c.least_loaded() || c.round_robin(),
            rr: c.round_robin(),
            aging: c.aging as usize,
            ranked: c.ranked_classes(),
            class_reg: c.class_priority_reg,
            rank: classes.iter().map(|t| ranks[*t]).collect(),
            rob: c.pixel_reorder as usize,
            rbw: c.rob_bits(),
            eu_en: c.eu_enabled(),
            ded: classes.iter().map(|t| c.dedicated_of(*t)).collect(),
            prio: classes
                .iter()
                .map(|t| {
                    let l = c.priority_of(*t);
                    (0..n).map(|s| l.get(s).copied().unwrap_or(empty)).collect()
                })
                .collect(),
            kinds: c.kinds(),
            res_total_k: (0..c.kinds()).map(|k| c.res_totals_of(k)).collect(),
            min_res_k: (0..c.kinds()).map(|k| classes.iter().map(|t| c.min_res_kind(*t, k)).collect()).collect(),
            frame_res_k: (0..c.kinds()).map(|k| classes.iter().map(|t| c.frame_res_kind(*t, k)).collect()).collect(),
            edt_total: c.edt_totals(),
            classes,
        }
    }

    pub fn k(&self) -> usize {
        self.classes.len()
    }

    /// Slot index of type `t`, if present.
    pub fn slot(&self, t: usize) -> Option<usize> {
        self.classes.iter().position(|c| *c == t)
    }

    /// VDT entries (`vdt_depth`): W ways of S sets.
    pub fn vdt_depth(&self) -> usize {
        self.vd * self.ways
    }

    /// VDT_AW: bits of an entry's address {way, set} (`vr_slot`).
    pub fn vdt_aw(&self) -> usize {
        self.aw + self.wyb
    }

    /// Bits of a VDT bank address (set / PG).
    pub fn bank_bits(&self) -> usize {
        self.aw - self.lpg
    }

    /// Address bits of a VDT bank RAM (at least 1; a one-word bank ties it to 0).
    pub fn bank_ram_bits(&self) -> usize {
        self.bank_bits().max(1)
    }

    /// Whether a VDT entry keeps a group field (patches present).
    pub fn grp_field(&self) -> bool {
        self.patch && self.vdt_ram
    }

    /// Width of a VDT entry {tag, eu, ent, grp}.
    pub fn vdt_bits(&self) -> usize {
        self.tw + self.uw + self.ent + if self.grp_field() { self.gw } else { 0 }
    }

    /// Width of a PT entry {eu, ent}.
    pub fn pt_bits(&self) -> usize {
        self.uw + self.ent
    }

    /// Some table RAM exists (an acknowledged entity number is stored).
    pub fn any_ram(&self) -> bool {
        self.vdt_ram || self.pt_ram
    }

    /// `EuPath` receives the request's EU (tables or references need its id).
    pub fn eu_sel(&self) -> bool {
        self.any_ram() || self.tri
    }
}

fn n_of(b: bool) -> usize {
    usize::from(b)
}

fn consts<const N: usize>(vals: impl IntoIterator<Item = u64>) -> Vec<Constant<Bits<N>>> {
    vals.into_iter().map(constant::<N>).collect()
}

fn bitc(b: bool) -> Constant<Bit> {
    Constant::new(b)
}

fn bitcs(vals: impl IntoIterator<Item = bool>) -> Vec<Constant<Bit>> {
    vals.into_iter().map(bitc).collect()
}

mod valid_bits;
mod table_data;
mod res_path;
mod ent_path;
mod addr_path;
mod prid_path;
mod idx_path;
mod eu_path;
mod ctl;
mod emit;
mod core_netlist;
mod pick;
mod rob;
mod ways;
pub use valid_bits::*;
pub use table_data::*;
pub use res_path::*;
pub use ent_path::*;
pub use addr_path::*;
pub use prid_path::*;
pub use idx_path::*;
pub use eu_path::*;
pub use ctl::*;
use emit::*;
use core_netlist::*;
