//! # global_spreader — dispatch of vertex, triangle, pixel and patch packets to execution units
//!
//! The global spreader (GS) of CN1912922 as specified in `spec/global_spreader.md` §2.3 and
//! §4.3 (B-01 to B-19), after the proposal of §5, under `contracts/global_spreader.md`, which
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
//!   STATUS, the 32-bit counters, errors, the read-data register.
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
//!   `cfg_rvalid`/`cfg_rdata` n+1; malformed transfer n → `err_malformed` n+1. Rate: one
//!   dispatch per cycle, also from one class, while EUs fit and acknowledge at once.
//! * Registered: everything in the designs above; nothing else is state. A request not
//!   answered is presented again unchanged: its EU, class, footprint, base index and
//!   reference valid bits are registered, the rest of its payload is slot or RAM content
//!   that cannot change while it is held.
//!
//! ## Deviations from the spec's proposal (§5)
//! The contract's D1–D11: `clock`/synchronous `reset`; two-stage pipeline instead of the
//! §5.7 FSM (B-09 relaxed: the handshake means "taken in", one unallocated packet per
//! class is held); first-fit by priority encoder; the EU answers in the request cycle
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
//! * A RES_TOTAL / EDT_TOTAL write discards that EU's debit and credit of the edge, so no
//!   clamp and no `err_credit` come from them.
//! * AUTO_IDX exists (RW) whatever the entity types; PRIO, DED_MASK, MIN_RES, FRAME_RES,
//!   ALLOC_CNT and PEND of an absent type read 0 and ignore writes.
//! * The VDT's contents (RAM) exist with triangles and vertex or patch, the PT's with
//!   pixels (valid bits alone serve blocking otherwise). Without either, `ar_ent` is
//!   unused; with triangles but no VDT, `tp_indexed`/`tp_vidx` are unused.
//!   `rtl/lint/warpgen.vlt` waives exactly these inputs.
//!
//! ## Area at the default config (yosys `synth_ice40`)
//! Yosys 0.23 `synth_ice40` (flattened) of the default config (5 EUs, all four types,
//! VGRP 8, 256-entry VDT and PT, IDX_W 16, RES_W 12, ENT_W 8, ADDR_W 32): 11,478 SB_LUT4,
//! 2,537 flip-flops (SB_DFF* of all kinds; 512 of them are the VDT/PT valid bits, D9),
//! 2,201 SB_CARRY and 13 SB_RAM40_4K. The table contents are block RAM: the VDT's 3 copies
//! x 2 banks of 128 x 17-bit entries take 12, the PT's 256 x 11 bits 1. The valid bits
//! are the logic that grows with the table depth (per table, with `-noflatten`: 3,085 and
//! 2,688 LUT4): every bit's next state sees the five release decoders, and each lookup is
//! a 256:1 multiplexer. A release of an invalid entry is found by one AND-OR of the
//! releases' union with the valid bits (until this version, one 256:1 read multiplexer per
//! release: 13,575 LUT4 in all). See also README
//! ("Block: `global_spreader`", Cost).

use crate::config::GlobalSpreaderConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{constant, signals};
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
    pub vd: usize,
    pub aw: usize,
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
    pub eu_en: Vec<bool>,
    pub ded: Vec<Vec<bool>>,
    pub prio: Vec<Vec<u64>>,
    pub min_res: Vec<u64>,
    pub frame_res: Vec<u64>,
    pub res_total: Vec<u64>,
    pub edt_total: Vec<u64>,
}

impl Geo {
    pub fn new(c: &GlobalSpreaderConfig) -> Geo {
        let classes: Vec<usize> = CLASS_ORDER.iter().copied().filter(|t| c.has_type(*t)).collect();
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
            vd: c.vdt_depth as usize,
            aw: c.vdt_addr_bits(),
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
            eu_en: c.eu_enabled(),
            ded: classes.iter().map(|t| c.dedicated_of(*t)).collect(),
            prio: classes
                .iter()
                .map(|t| {
                    let l = c.priority_of(*t);
                    (0..n).map(|s| l.get(s).copied().unwrap_or(empty)).collect()
                })
                .collect(),
            min_res: classes.iter().map(|t| c.min_res_of(*t)).collect(),
            frame_res: classes.iter().map(|t| c.frame_res_of(*t)).collect(),
            res_total: c.res_totals(),
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

    /// Bits of a VDT bank address (slot / PG).
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

fn dffs<T: Synth>(n: usize) -> Vec<DFF<T>> {
    (0..n).map(|_| DFF::default()).collect()
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

fn grid<T: Default>(rows: usize, cols: usize) -> Vec<Vec<T>> {
    (0..rows).map(|_| (0..cols).map(|_| T::default()).collect()).collect()
}

// ---------------------------------------------------------------------------
// Valid bits of a table (flip-flops), generic in the table depth.
// ---------------------------------------------------------------------------

/// The valid bits of a VDT or PT of `D = 2^A` entries: releases (one per EU per cycle),
/// the dispatch's set (one entry, or PG entries for a patch) and clear (a last pixel), and
/// lookups of the state at the start of the cycle. An entry's one-hot mask is the AND of
/// a block of its high address bits and a tiling of its low bits (a predecoded decoder).
#[derive(LogicBlock)]
pub struct ValidBits<const D: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub rel_valid: Vec<Signal<In, Bit>>,
    pub rel_addr: Vec<Signal<In, Bits<A>>>,
    pub set_one: Vec<Signal<In, Bit>>,
    pub set_grp: Vec<Signal<In, Bit>>,
    pub set_addr: Vec<Signal<In, Bits<A>>>,
    pub clr: Vec<Signal<In, Bit>>,
    pub clr_addr: Vec<Signal<In, Bits<A>>>,
    pub look_addr: Vec<Signal<In, Bits<A>>>,
    pub look: Vec<Signal<Out, Bit>>,
    pub glook_addr: Vec<Signal<In, Bits<A>>>,
    pub glook: Vec<Signal<Out, Bit>>,
    pub valid: Signal<Out, Bits<D>>,
    pub err_release: Signal<Out, Bit>,
    v_q: DFF<Bits<D>>,
    rel: Signal<Local, Bits<D>>,
    setm: Signal<Local, Bits<D>>,
    clrm: Signal<Local, Bits<D>>,
    one: Constant<Bits<D>>,
    zero: Constant<Bits<D>>,
    /// PG ones (a patch's group of entries), when patches exist.
    grp: Vec<Constant<Bits<D>>>,
    /// L = 2^(A/2): `blk` is L ones, `tile` a one every L bits; `m_hi`/`m_lo` split an address.
    blk: Constant<Bits<D>>,
    tile: Constant<Bits<D>>,
    m_hi: Constant<Bits<A>>,
    m_lo: Constant<Bits<A>>,
}

/// What a [`ValidBits`] has: releases, set kinds, clear, lookups, group lookups.
pub struct ValidShape {
    pub rels: usize,
    pub set_one: bool,
    pub set_grp: bool,
    pub clr: bool,
    pub looks: usize,
    pub glook: bool,
    pub pg: usize,
}

impl<const D: usize, const A: usize> ValidBits<D, A> {
    pub fn new(s: &ValidShape) -> Self {
        assert_eq!(1 << A, D);
        let set = s.set_one || s.set_grp;
        let l = 1usize << (A / 2);
        // Constants wider than 64 bits are built from their 64-bit words.
        let wide = |bits: Vec<usize>| -> Constant<Bits<D>> {
            let mut v = Bits::<D>::default();
            for b in bits {
                v = v | (Bits::<D>::from(1u64) << (b as u64));
            }
            Constant::new(v)
        };
        ValidBits {
            clock: Signal::default(),
            reset: Signal::default(),
            rel_valid: signals(s.rels),
            rel_addr: signals(s.rels),
            set_one: signals(n_of(s.set_one)),
            set_grp: signals(n_of(s.set_grp)),
            set_addr: signals(n_of(set)),
            clr: signals(n_of(s.clr)),
            clr_addr: signals(n_of(s.clr)),
            look_addr: signals(s.looks),
            look: signals(s.looks),
            glook_addr: signals(n_of(s.glook)),
            glook: signals(n_of(s.glook)),
            valid: Signal::default(),
            err_release: Signal::default(),
            v_q: DFF::default(),
            rel: Signal::default(),
            setm: Signal::default(),
            clrm: Signal::default(),
            one: constant(1),
            zero: constant(0),
            grp: consts((0..n_of(s.set_grp || s.glook)).map(|_| (1u64 << s.pg) - 1)),
            blk: wide((0..l).collect()),
            tile: wide((0..D / l).map(|j| j * l).collect()),
            m_hi: constant(((1u64 << A) - 1) & !(l as u64 - 1)),
            m_lo: constant(l as u64 - 1),
        }
    }
}

impl<const D: usize, const A: usize> Logic for ValidBits<D, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.v_q.clock.next = self.clock.val();
        self.valid.next = self.v_q.q.val();
        // Releases of this cycle; releasing an entry invalid now is an error: one check of
        // the releases' union against the valid bits (an AND-OR over the entries), not a
        // read multiplexer per release.
        self.rel.next = self.zero.val();
        for e in 0..self.rel_valid.len() {
            if self.rel_valid[e].val() {
                self.rel.next = self.rel.val()
                    | ((self.blk.val() << (self.rel_addr[e].val() & self.m_hi.val()))
                        & (self.tile.val() << (self.rel_addr[e].val() & self.m_lo.val())));
            }
        }
        self.err_release.next = (self.rel.val() & !self.v_q.q.val()).any();
        // The dispatch's write wins over a same-edge release.
        self.setm.next = self.zero.val();
        for i in 0..self.set_one.len() {
            if self.set_one[i].val() {
                self.setm.next = self.setm.val()
                    | ((self.blk.val() << (self.set_addr[0].val() & self.m_hi.val()))
                        & (self.tile.val() << (self.set_addr[0].val() & self.m_lo.val())));
            }
        }
        for i in 0..self.set_grp.len() {
            if self.set_grp[i].val() {
                self.setm.next = self.setm.val() | (self.grp[0].val() << self.set_addr[0].val());
            }
        }
        self.clrm.next = self.zero.val();
        for i in 0..self.clr.len() {
            if self.clr[i].val() {
                self.clrm.next = (self.blk.val() << (self.clr_addr[i].val() & self.m_hi.val()))
                    & (self.tile.val() << (self.clr_addr[i].val() & self.m_lo.val()));
            }
        }
        self.v_q.d.next = (self.v_q.q.val() & !self.rel.val() & !self.clrm.val()) | self.setm.val();
        if self.reset.val() {
            self.v_q.d.next = self.zero.val();
        }
        for l in 0..self.look.len() {
            self.look[l].next = ((self.v_q.q.val() >> self.look_addr[l].val()) & self.one.val()).any();
        }
        for i in 0..self.glook.len() {
            self.glook[i].next = ((self.v_q.q.val() >> self.glook_addr[i].val()) & self.grp[0].val()).any();
        }
    }
}

// ---------------------------------------------------------------------------
// Table data around the RAMs, generic in the entry width.
// ---------------------------------------------------------------------------

/// Write data and read forwarding of a table kept in `C` RAM copies of `B` banks each
/// (VDT: 3 x PG; PT: 1 x 1). Entry fields from bit 0: tag, eu, ent, grp; the core
/// netlist slices the fields out of `rd`.
#[derive(LogicBlock)]
pub struct TableData<const D: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub w_tag: Vec<Signal<In, Bit>>,
    pub w_eu: Vec<Signal<In, Bit>>,
    pub w_ent: Vec<Signal<In, Bit>>,
    /// The write is a patch's: bank g's entry gets grp g (else 0).
    pub w_grp_on: Vec<Signal<In, Bit>>,
    pub wdata: Vec<Signal<Out, Bits<D>>>,
    /// Copy c's read issued last cycle hits bank b's write of last edge.
    pub fwd_hit: Vec<Vec<Signal<In, Bit>>>,
    /// Copy c's entry is in bank b.
    pub rd_sel: Vec<Vec<Signal<In, Bit>>>,
    pub ram: Vec<Vec<Signal<In, Bits<D>>>>,
    /// Copy c's entry: its bank's RAM word, or last edge's write to it.
    pub rd: Vec<Signal<Out, Bits<D>>>,
    fwd_q: Vec<DFF<Bits<D>>>,
    hit_q: Vec<Vec<DFF<Bit>>>,
    common: Signal<Local, Bits<D>>,
    k_tag: Vec<Constant<Bits<D>>>,
    k_eu: Vec<Constant<Bits<D>>>,
    k_ent: Vec<Constant<Bits<D>>>,
    k_grp: Vec<Constant<Bits<D>>>,
    zero: Constant<Bits<D>>,
}

impl<const D: usize> TableData<D> {
    /// `copies` x `banks`; field widths `tg`, `uw`, `ent`, `gw` (0 = no such field).
    pub fn new(copies: usize, banks: usize, tg: usize, uw: usize, ent: usize, gw: usize) -> Self {
        assert_eq!(tg + uw + ent + gw, D);
        let (o_eu, o_ent, o_grp) = (tg, tg + uw, tg + uw + ent);
        let w = |o: usize, n: usize| consts::<D>((0..n).map(move |b| 1u64 << (o + b)));
        TableData {
            clock: Signal::default(),
            reset: Signal::default(),
            w_tag: signals(tg),
            w_eu: signals(uw),
            w_ent: signals(ent),
            w_grp_on: signals(n_of(gw > 0)),
            wdata: signals(banks),
            fwd_hit: grid(copies, banks),
            rd_sel: grid(copies, banks),
            ram: grid(copies, banks),
            rd: signals(copies),
            fwd_q: dffs(banks),
            hit_q: (0..copies).map(|_| dffs(banks)).collect(),
            common: Signal::default(),
            k_tag: w(0, tg),
            k_eu: w(o_eu, uw),
            k_ent: w(o_ent, ent),
            k_grp: if gw > 0 { consts((0..banks).map(|g| (g as u64) << o_grp)) } else { Vec::new() },
            zero: constant(0),
        }
    }
}

impl<const D: usize> Logic for TableData<D> {
    #[hdl_gen]
    fn update(&mut self) {
        self.common.next = self.zero.val();
        for b in 0..self.w_tag.len() {
            if self.w_tag[b].val() {
                self.common.next = self.common.val() | self.k_tag[b].val();
            }
        }
        for b in 0..self.w_eu.len() {
            if self.w_eu[b].val() {
                self.common.next = self.common.val() | self.k_eu[b].val();
            }
        }
        for b in 0..self.w_ent.len() {
            if self.w_ent[b].val() {
                self.common.next = self.common.val() | self.k_ent[b].val();
            }
        }
        for g in 0..self.wdata.len() {
            self.fwd_q[g].clock.next = self.clock.val();
            self.wdata[g].next = self.common.val();
            for i in 0..self.w_grp_on.len() {
                if self.w_grp_on[i].val() {
                    self.wdata[g].next = self.common.val() | self.k_grp[g].val();
                }
            }
            self.fwd_q[g].d.next = self.wdata[g].val();
        }
        // Read: the bank holding the entry, or last edge's write to it (the RAM is
        // read-first). Only registers and inputs computed before the grant feed `rd`.
        for c in 0..self.rd.len() {
            self.rd[c].next = self.zero.val();
            for g in 0..self.wdata.len() {
                self.hit_q[c][g].clock.next = self.clock.val();
                self.hit_q[c][g].d.next = self.fwd_hit[c][g].val() & !self.reset.val();
                if self.rd_sel[c][g].val() {
                    if self.hit_q[c][g].q.val() {
                        self.rd[c].next = self.fwd_q[g].q.val();
                    } else {
                        self.rd[c].next = self.ram[c][g].val();
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Resources (RES_W).
// ---------------------------------------------------------------------------

/// FREE_RES / RES_TOTAL per EU, MIN_RES / FRAME_RES per class, the slots' sizes, the fit
/// test (R4) and the request's footprint (sticky while held).
#[derive(LogicBlock)]
pub struct ResPath<const R: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    pub cfg_wdata: Signal<In, Bits<R>>,
    pub rd: Signal<Out, Bits<R>>,
    pub cr_valid: Vec<Signal<In, Bit>>,
    pub cr_res: Vec<Signal<In, Bits<R>>>,
    pub ack: Vec<Signal<In, Bit>>,
    pub size_in: Vec<Signal<In, Bits<R>>>,
    pub load: Vec<Signal<In, Bit>>,
    pub gnt: Vec<Signal<In, Bit>>,
    pub sticky: Signal<In, Bit>,
    pub fit: Vec<Vec<Signal<Out, Bit>>>,
    pub ar_footprint: Signal<Out, Bits<R>>,
    pub ar_copy_size: Signal<Out, Bits<R>>,
    pub free: Vec<Signal<Out, Bits<R>>>,
    pub err: Signal<Out, Bit>,
    free_q: Vec<DFF<Bits<R>>>,
    total_q: Vec<DFF<Bits<R>>>,
    min_q: Vec<DFF<Bits<R>>>,
    frame_q: Vec<DFF<Bits<R>>>,
    size_q: Vec<DFF<Bits<R>>>,
    fp_q: DFF<Bits<R>>,
    fp: Vec<Signal<Local, Bits<R>>>,
    ovf: Vec<Signal<Local, Bit>>,
    pfp: Signal<Local, Bits<R>>,
    add: Signal<Local, Bits<R>>,
    sub: Signal<Local, Bits<R>>,
    s1: Signal<Local, Bits<R>>,
    dif: Signal<Local, Bits<R>>,
    carry: Signal<Local, Bit>,
    borrow: Signal<Local, Bit>,
    zero: Constant<Bits<R>>,
    total_rst: Vec<Constant<Bits<R>>>,
    min_rst: Vec<Constant<Bits<R>>>,
    frame_rst: Vec<Constant<Bits<R>>>,
    a_min: Vec<Constant<CfgAddr>>,
    a_frame: Vec<Constant<CfgAddr>>,
    a_total: Vec<Constant<CfgAddr>>,
    a_free: Vec<Constant<CfgAddr>>,
}

impl<const R: usize> ResPath<R> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!(g.rw, R);
        let (n, k) = (g.n, g.k());
        let t = |base: u64| consts::<CFG_AW>(g.classes.iter().map(move |t| base + *t as u64));
        ResPath {
            clock: Signal::default(),
            reset: Signal::default(),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: Signal::default(),
            rd: Signal::default(),
            cr_valid: signals(n),
            cr_res: signals(n),
            ack: signals(n),
            size_in: signals(k),
            load: signals(k),
            gnt: signals(k),
            sticky: Signal::default(),
            fit: grid(k, n),
            ar_footprint: Signal::default(),
            ar_copy_size: Signal::default(),
            free: signals(n),
            err: Signal::default(),
            free_q: dffs(n),
            total_q: dffs(n),
            min_q: dffs(k),
            frame_q: dffs(k),
            size_q: dffs(k),
            fp_q: DFF::default(),
            fp: signals(k),
            ovf: signals(k),
            pfp: Signal::default(),
            add: Signal::default(),
            sub: Signal::default(),
            s1: Signal::default(),
            dif: Signal::default(),
            carry: Signal::default(),
            borrow: Signal::default(),
            zero: constant(0),
            total_rst: consts(g.res_total.iter().copied()),
            min_rst: consts(g.min_res.iter().copied()),
            frame_rst: consts(g.frame_res.iter().copied()),
            a_min: t(0x00C),
            a_frame: t(0x010),
            a_total: consts((0..n as u64).map(|e| 0x020 + e)),
            a_free: consts((0..n as u64).map(|e| 0x040 + e)),
        }
    }
}

impl<const R: usize> Logic for ResPath<R> {
    #[hdl_gen]
    fn update(&mut self) {
        self.fp_q.clock.next = self.clock.val();
        self.rd.next = self.zero.val();
        self.err.next = false;
        // Per class: footprint fp = size + FRAME_RES (a carry: fp >= 2^RES_W never fits).
        self.pfp.next = self.fp_q.q.val();
        self.ar_copy_size.next = self.zero.val();
        for k in 0..self.size_q.len() {
            self.size_q[k].clock.next = self.clock.val();
            self.min_q[k].clock.next = self.clock.val();
            self.frame_q[k].clock.next = self.clock.val();
            self.fp[k].next = self.size_q[k].q.val() + self.frame_q[k].q.val();
            self.ovf[k].next = self.fp[k].val() < self.size_q[k].q.val();
            // (The request's footprint is recomputed: `fp` feeds the fit test only.)
            if self.gnt[k].val() {
                self.ar_copy_size.next = self.size_q[k].q.val();
                if !self.sticky.val() {
                    self.pfp.next = self.size_q[k].q.val() + self.frame_q[k].q.val();
                }
            }
            self.size_q[k].d.next = self.size_q[k].q.val();
            if self.load[k].val() {
                self.size_q[k].d.next = self.size_in[k].val();
            }
            self.min_q[k].d.next = self.min_q[k].q.val();
            self.frame_q[k].d.next = self.frame_q[k].q.val();
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_min[k].val()) {
                self.rd.next = self.min_q[k].q.val();
                if self.cfg_we.val() {
                    self.min_q[k].d.next = self.cfg_wdata.val();
                }
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_frame[k].val()) {
                self.rd.next = self.frame_q[k].q.val();
                if self.cfg_we.val() {
                    self.frame_q[k].d.next = self.cfg_wdata.val();
                }
            }
            if self.reset.val() {
                self.min_q[k].d.next = self.min_rst[k].val();
                self.frame_q[k].d.next = self.frame_rst[k].val();
            }
            for e in 0..self.free_q.len() {
                self.fit[k][e].next = !self.ovf[k].val()
                    & (self.free_q[e].q.val() >= self.fp[k].val())
                    & (self.free_q[e].q.val() >= self.min_q[k].q.val());
            }
        }
        // The presented footprint: registered while a request is held.
        self.ar_footprint.next = self.pfp.val();
        self.fp_q.d.next = self.pfp.val();
        // FREE_RES' = FREE_RES + credit - debit, exact, clamped to [0, RES_TOTAL] (R9).
        for e in 0..self.free_q.len() {
            self.free_q[e].clock.next = self.clock.val();
            self.total_q[e].clock.next = self.clock.val();
            self.free[e].next = self.free_q[e].q.val();
            self.add.next = self.zero.val();
            if self.cr_valid[e].val() {
                self.add.next = self.cr_res[e].val();
            }
            self.sub.next = self.zero.val();
            if self.ack[e].val() {
                self.sub.next = self.pfp.val();
            }
            self.s1.next = self.free_q[e].q.val() + self.add.val();
            self.carry.next = self.s1.val() < self.free_q[e].q.val();
            self.dif.next = self.s1.val() - self.sub.val();
            self.borrow.next = self.s1.val() < self.sub.val();
            self.total_q[e].d.next = self.total_q[e].q.val();
            if !self.carry.val() & self.borrow.val() {
                // Below zero.
                self.free_q[e].d.next = self.zero.val();
                self.err.next = true;
            } else if (self.carry.val() & !self.borrow.val()) | (self.dif.val() > self.total_q[e].q.val()) {
                // Above RES_TOTAL (with a carry: at least 2^RES_W).
                self.free_q[e].d.next = self.total_q[e].q.val();
                self.err.next = true;
            } else {
                self.free_q[e].d.next = self.dif.val();
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_free[e].val()) {
                self.rd.next = self.free_q[e].q.val();
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_total[e].val()) {
                self.rd.next = self.total_q[e].q.val();
                if self.cfg_we.val() {
                    // A RES_TOTAL write wins over the edge's debit and credit.
                    self.total_q[e].d.next = self.cfg_wdata.val();
                    self.free_q[e].d.next = self.cfg_wdata.val();
                }
            }
            if self.reset.val() {
                self.total_q[e].d.next = self.total_rst[e].val();
                self.free_q[e].d.next = self.total_rst[e].val();
            }
        }
        if self.reset.val() {
            self.err.next = false;
            self.fp_q.d.next = self.zero.val();
        }
    }
}

// ---------------------------------------------------------------------------
// Entities (ENT_W, FE_W = ENT_W + 1).
// ---------------------------------------------------------------------------

/// FREE_EDT / EDT_TOTAL / PEND per EU, and the entity numbers: the acknowledging EU's
/// `ar_ent` for the table write, the references' entity numbers for the request.
#[derive(LogicBlock)]
pub struct EntPath<const E: usize, const F: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    pub cfg_wdata: Signal<In, Bits<32>>,
    pub rd: Signal<Out, Bits<F>>,
    pub cr_valid: Vec<Signal<In, Bit>>,
    pub cr_edt: Vec<Signal<In, Bit>>,
    pub cr_type: Vec<Signal<In, Bits<2>>>,
    pub ack: Vec<Signal<In, Bit>>,
    pub gnt: Vec<Signal<In, Bit>>,
    pub nz: Vec<Signal<Out, Bit>>,
    pub free: Vec<Signal<Out, Bits<F>>>,
    pub err: Signal<Out, Bit>,
    pub ar_ent: Vec<Signal<In, Bits<E>>>,
    pub ack_ent: Vec<Signal<Out, Bits<E>>>,
    pub vdt_ent: Vec<Signal<In, Bits<E>>>,
    pub pt_ent: Vec<Signal<In, Bits<E>>>,
    pub ref_valid: Vec<Signal<In, Bit>>,
    pub ref_pix: Vec<Signal<In, Bit>>,
    pub ar_ref_ent: Vec<Signal<Out, Bits<E>>>,
    free_q: Vec<DFF<Bits<F>>>,
    total_q: Vec<DFF<Bits<F>>>,
    pend_q: Vec<Vec<DFF<Bits<F>>>>,
    ae: Vec<Signal<Local, Bits<E>>>,
    rent: Vec<Signal<Local, Bits<E>>>,
    inc: Signal<Local, Bit>,
    dec: Signal<Local, Bit>,
    wval: Signal<Local, Bits<F>>,
    zero: Constant<Bits<F>>,
    one: Constant<Bits<F>>,
    max: Constant<Bits<F>>,
    full: Constant<Bits<F>>,
    full32: Constant<Bits<32>>,
    _lsb: usize,
    _lsb1: usize,
    zero_e: Vec<Constant<Bits<E>>>,
    tcode: Vec<Constant<Bits<2>>>,
    total_rst: Vec<Constant<Bits<F>>>,
    a_total: Vec<Constant<CfgAddr>>,
    a_free: Vec<Constant<CfgAddr>>,
    a_pend: Vec<Vec<Constant<CfgAddr>>>,
}

impl<const E: usize, const F: usize> EntPath<E, F> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!((g.ent, g.fw), (E, F));
        let (n, k) = (g.n, g.k());
        let refs = if g.tri { 3 } else { 0 };
        EntPath {
            clock: Signal::default(),
            reset: Signal::default(),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: Signal::default(),
            rd: Signal::default(),
            cr_valid: signals(n),
            cr_edt: signals(n),
            cr_type: signals(n),
            ack: signals(n),
            gnt: signals(k),
            nz: signals(n),
            free: signals(n),
            err: Signal::default(),
            ar_ent: signals(if g.any_ram() { n } else { 0 }),
            ack_ent: signals(n_of(g.any_ram())),
            vdt_ent: signals(if g.vdt_ram { 3 } else { 0 }),
            pt_ent: signals(n_of(g.pt_ram)),
            ref_valid: signals(refs),
            ref_pix: signals(n_of(g.pix)),
            ar_ref_ent: signals(refs),
            free_q: dffs(n),
            total_q: dffs(n),
            pend_q: (0..n).map(|_| dffs(k)).collect(),
            ae: signals(n_of(g.any_ram())),
            rent: signals(refs),
            inc: Signal::default(),
            dec: Signal::default(),
            wval: Signal::default(),
            zero: constant(0),
            one: constant(1),
            max: constant((1 << F) - 1),
            full: constant(1 << E),
            full32: constant(1 << E),
            _lsb: 0,
            _lsb1: 1,
            zero_e: consts((0..n_of(g.any_ram() || g.tri)).map(|_| 0)),
            tcode: consts(g.classes.iter().map(|t| *t as u64)),
            total_rst: consts(g.edt_total.iter().copied()),
            a_total: consts((0..n as u64).map(|e| 0x060 + e)),
            a_free: consts((0..n as u64).map(|e| 0x080 + e)),
            a_pend: (0..n as u64)
                .map(|e| consts(g.classes.iter().map(move |t| 0x200 + 4 * e + *t as u64)))
                .collect(),
        }
    }
}

impl<const E: usize, const F: usize> Logic for EntPath<E, F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rd.next = self.zero.val();
        self.err.next = false;
        // EDT_TOTAL stores min(wdata, 2^ENT_W).
        self.wval.next = self.zero.val();
        for o in self._lsb..self._lsb1 {
            self.wval.next = self.cfg_wdata.val().get_bits::<F>(o);
        }
        if self.cfg_wdata.val() > self.full32.val() {
            self.wval.next = self.full.val();
        }
        for e in 0..self.free_q.len() {
            self.free_q[e].clock.next = self.clock.val();
            self.total_q[e].clock.next = self.clock.val();
            self.free[e].next = self.free_q[e].q.val();
            self.nz[e].next = self.free_q[e].q.val() != self.zero.val();
            // FREE_EDT' = FREE_EDT + credit - debit, clamped to [0, EDT_TOTAL] (R9).
            self.inc.next = self.cr_valid[e].val() & self.cr_edt[e].val();
            self.dec.next = self.ack[e].val();
            self.free_q[e].d.next = self.free_q[e].q.val();
            self.total_q[e].d.next = self.total_q[e].q.val();
            if self.inc.val() & !self.dec.val() {
                if self.free_q[e].q.val() >= self.total_q[e].q.val() {
                    self.free_q[e].d.next = self.total_q[e].q.val();
                    self.err.next = true;
                } else {
                    self.free_q[e].d.next = self.free_q[e].q.val() + self.one.val();
                }
            }
            if self.dec.val() & !self.inc.val() {
                if self.free_q[e].q.val() == self.zero.val() {
                    self.err.next = true;
                } else {
                    self.free_q[e].d.next = self.free_q[e].q.val() - self.one.val();
                }
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_free[e].val()) {
                self.rd.next = self.free_q[e].q.val();
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_total[e].val()) {
                self.rd.next = self.total_q[e].q.val();
                if self.cfg_we.val() {
                    self.total_q[e].d.next = self.wval.val();
                    self.free_q[e].d.next = self.wval.val();
                }
            }
            if self.reset.val() {
                self.total_q[e].d.next = self.total_rst[e].val();
                self.free_q[e].d.next = self.total_rst[e].val();
            }
            // PEND[e][t]: +1 at an ack, -1 at cr_edt of the type; saturating, never below 0.
            for k in 0..self.gnt.len() {
                self.pend_q[e][k].clock.next = self.clock.val();
                self.inc.next = self.ack[e].val() & self.gnt[k].val();
                self.dec.next = self.cr_valid[e].val() & self.cr_edt[e].val() & (self.cr_type[e].val() == self.tcode[k].val());
                self.pend_q[e][k].d.next = self.pend_q[e][k].q.val();
                if self.inc.val() & !self.dec.val() & (self.pend_q[e][k].q.val() != self.max.val()) {
                    self.pend_q[e][k].d.next = self.pend_q[e][k].q.val() + self.one.val();
                }
                if self.dec.val() & !self.inc.val() {
                    if self.pend_q[e][k].q.val() == self.zero.val() {
                        self.err.next = true;
                    } else {
                        self.pend_q[e][k].d.next = self.pend_q[e][k].q.val() - self.one.val();
                    }
                }
                if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_pend[e][k].val()) {
                    self.rd.next = self.pend_q[e][k].q.val();
                }
                if self.reset.val() {
                    self.pend_q[e][k].d.next = self.zero.val();
                }
            }
        }
        if self.reset.val() {
            self.err.next = false;
        }
        // The acknowledging EU's entity number, for the table write.
        for i in 0..self.ae.len() {
            self.ae[i].next = self.zero_e[0].val();
            for e in 0..self.ar_ent.len() {
                if self.ack[e].val() {
                    self.ae[i].next = self.ae[i].val() | self.ar_ent[e].val();
                }
            }
            self.ack_ent[i].next = self.ae[i].val();
        }
        // References: VDT copies for a triangle, the PT entry (ref 0) for a pixel.
        for i in 0..self.rent.len() {
            self.rent[i].next = self.zero_e[0].val();
        }
        for i in 0..self.vdt_ent.len() {
            self.rent[i].next = self.vdt_ent[i].val();
        }
        for i in 0..self.ref_pix.len() {
            if self.ref_pix[i].val() {
                self.rent[0].next = self.pt_ent[0].val();
            }
        }
        for i in 0..self.ar_ref_ent.len() {
            self.ar_ref_ent[i].next = self.zero_e[0].val();
            if self.ref_valid[i].val() {
                self.ar_ref_ent[i].next = self.rent[i].val();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Source addresses (ADDR_W).
// ---------------------------------------------------------------------------

/// The slots' source addresses and the request's `ar_src_addr`.
#[derive(LogicBlock)]
pub struct AddrPath<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub src_in: Vec<Signal<In, Bits<A>>>,
    pub load: Vec<Signal<In, Bit>>,
    pub gnt: Vec<Signal<In, Bit>>,
    pub ar_src_addr: Signal<Out, Bits<A>>,
    src_q: Vec<DFF<Bits<A>>>,
    zero: Constant<Bits<A>>,
}

impl<const A: usize> AddrPath<A> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!(g.adw, A);
        let k = g.k();
        AddrPath {
            clock: Signal::default(),
            src_in: signals(k),
            load: signals(k),
            gnt: signals(k),
            ar_src_addr: Signal::default(),
            src_q: dffs(k),
            zero: constant(0),
        }
    }
}

impl<const A: usize> Logic for AddrPath<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ar_src_addr.next = self.zero.val();
        for k in 0..self.src_q.len() {
            self.src_q[k].clock.next = self.clock.val();
            self.src_q[k].d.next = self.src_q[k].q.val();
            if self.load[k].val() {
                self.src_q[k].d.next = self.src_in[k].val();
            }
            if self.gnt[k].val() {
                self.ar_src_addr.next = self.src_q[k].q.val();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// PrIDs (PRID_W).
// ---------------------------------------------------------------------------

/// The triangle slot's PrID and the pixel slot's triangle id: PT addresses, `ar_prid`.
#[derive(LogicBlock)]
pub struct PridPath<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub tp_prid: Signal<In, Bits<W>>,
    pub tri_load: Signal<In, Bit>,
    pub tri_gnt: Signal<In, Bit>,
    pub tri_prid: Signal<Out, Bits<W>>,
    pub xp_tri_id: Vec<Signal<In, Bits<W>>>,
    pub pix_load: Vec<Signal<In, Bit>>,
    pub pix_gnt: Vec<Signal<In, Bit>>,
    pub xp_fire: Vec<Signal<In, Bit>>,
    pub pix_tid: Vec<Signal<Out, Bits<W>>>,
    pub tri_w: Vec<Signal<In, Bit>>,
    pub pt_raddr: Vec<Signal<Out, Bits<W>>>,
    pub fwd_hit: Vec<Signal<Out, Bit>>,
    pub ar_prid: Signal<Out, Bits<W>>,
    prid_q: DFF<Bits<W>>,
    tid_q: Vec<DFF<Bits<W>>>,
    zero: Constant<Bits<W>>,
}

impl<const W: usize> PridPath<W> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!(g.pw, W);
        let p = n_of(g.pix);
        PridPath {
            clock: Signal::default(),
            tp_prid: Signal::default(),
            tri_load: Signal::default(),
            tri_gnt: Signal::default(),
            tri_prid: Signal::default(),
            xp_tri_id: signals(p),
            pix_load: signals(p),
            pix_gnt: signals(p),
            xp_fire: signals(p),
            pix_tid: signals(p),
            tri_w: signals(p),
            pt_raddr: signals(p),
            fwd_hit: signals(p),
            ar_prid: Signal::default(),
            prid_q: DFF::default(),
            tid_q: dffs(p),
            zero: constant(0),
        }
    }
}

impl<const W: usize> Logic for PridPath<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.prid_q.clock.next = self.clock.val();
        self.prid_q.d.next = self.prid_q.q.val();
        if self.tri_load.val() {
            self.prid_q.d.next = self.tp_prid.val();
        }
        self.tri_prid.next = self.prid_q.q.val();
        self.ar_prid.next = self.zero.val();
        if self.tri_gnt.val() {
            self.ar_prid.next = self.prid_q.q.val();
        }
        for i in 0..self.tid_q.len() {
            self.tid_q[i].clock.next = self.clock.val();
            self.tid_q[i].d.next = self.tid_q[i].q.val();
            if self.pix_load[i].val() {
                self.tid_q[i].d.next = self.xp_tri_id[i].val();
            }
            self.pix_tid[i].next = self.tid_q[i].q.val();
            if self.pix_gnt[i].val() {
                self.ar_prid.next = self.tid_q[i].q.val();
            }
            // The PT read for next cycle: the arriving pixel's triangle, else the slot's.
            self.pt_raddr[i].next = self.tid_q[i].q.val();
            if self.xp_fire[i].val() {
                self.pt_raddr[i].next = self.xp_tri_id[i].val();
            }
            self.fwd_hit[i].next = self.tri_w[i].val() & (self.prid_q.q.val() == self.pt_raddr[i].val());
        }
    }
}

// ---------------------------------------------------------------------------
// Vertex indices (IDX_W).
// ---------------------------------------------------------------------------

/// AUTO_IDX, the vertex and patch slots' bases, the triangle slot's indices; the VDT
/// slot, tag, bank and element arithmetic on them; the request's `ar_base_idx`.
///
/// Outputs read before the grant (`vp_bad`, `pp_bad`, `*_slot`, `rd_sel`, `tag_eq`) are
/// computed from inputs and registers only, with no variable shared with the logic that
/// follows the grant, so that Verilator orders the designs without a combinational cycle.
#[derive(LogicBlock)]
pub struct IdxPath<const I: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    /// `cfg_wdata` with its low ELEM_W bits zero (AUTO_IDX stores them as 0).
    pub cfg_wdata: Signal<In, Bits<I>>,
    pub rd: Signal<Out, Bits<I>>,
    // Vertex slot.
    pub vp_base: Vec<Signal<In, Bits<I>>>,
    pub vtx_load: Vec<Signal<In, Bit>>,
    pub vtx_indexed: Vec<Signal<In, Bit>>,
    pub vtx_gnt: Vec<Signal<In, Bit>>,
    pub vtx_adv: Vec<Signal<In, Bit>>,
    pub vp_bad: Vec<Signal<Out, Bit>>,
    /// VDT slot of the slot's base, bit b at [0][b].
    pub vtx_slot: Vec<Vec<Signal<Out, Bit>>>,
    // Patch slot.
    pub pp_base: Vec<Signal<In, Bits<I>>>,
    pub patch_load: Vec<Signal<In, Bit>>,
    pub patch_indexed: Vec<Signal<In, Bit>>,
    pub patch_gnt: Vec<Signal<In, Bit>>,
    pub patch_adv: Vec<Signal<In, Bit>>,
    pub pp_bad: Vec<Signal<Out, Bit>>,
    pub patch_slot: Vec<Vec<Signal<Out, Bit>>>,
    // The request's base and the VDT write.
    pub sticky: Vec<Signal<In, Bit>>,
    pub ar_base_idx: Vec<Signal<Out, Bits<I>>>,
    pub w_slot: Vec<Vec<Signal<Out, Bit>>>,
    pub vtx_w: Vec<Signal<In, Bit>>,
    pub patch_w: Vec<Signal<In, Bit>>,
    pub w_bank_addr: Vec<Signal<Out, Bit>>,
    pub w_bank_en: Vec<Signal<Out, Bit>>,
    pub w_tag: Vec<Signal<Out, Bit>>,
    // Triangle slot: VDT reads and references.
    pub tp_vidx: Vec<Signal<In, Bits<I>>>,
    pub tri_load: Vec<Signal<In, Bit>>,
    pub tp_fire: Vec<Signal<In, Bit>>,
    pub tri_slot: Vec<Vec<Signal<Out, Bit>>>,
    pub rd_addr: Vec<Vec<Signal<Out, Bit>>>,
    pub rd_sel: Vec<Vec<Signal<Out, Bit>>>,
    pub fwd_hit: Vec<Vec<Signal<Out, Bit>>>,
    /// The VDT entry's tag, zero-extended.
    pub ram_tag: Vec<Signal<In, Bits<I>>>,
    pub tag_eq: Vec<Signal<Out, Bit>>,
    pub ref_valid: Vec<Signal<In, Bit>>,
    /// The request is a pixel's (its ref 0 is the triangle: element and group 0).
    pub ref_pix: Vec<Signal<In, Bit>>,
    pub ar_ref_elem: Vec<Vec<Signal<Out, Bit>>>,
    pub ram_grp: Vec<Vec<Signal<In, Bit>>>,
    pub ar_ref_grp: Vec<Vec<Signal<Out, Bit>>>,
    auto_q: DFF<Bits<I>>,
    vbase_q: Vec<DFF<Bits<I>>>,
    pbase_q: Vec<DFF<Bits<I>>>,
    base_q: Vec<DFF<Bits<I>>>,
    tv_q: Vec<DFF<Bits<I>>>,
    vfresh: Vec<Signal<Local, Bits<I>>>,
    pfresh: Vec<Signal<Local, Bits<I>>>,
    pres: Vec<Signal<Local, Bits<I>>>,
    rdx: Vec<Signal<Local, Bits<I>>>,
    vref: Vec<Signal<Local, Bit>>,
    wbe: Vec<Signal<Local, Bit>>,
    zero: Constant<Bits<I>>,
    a_auto: Constant<CfgAddr>,
    m_vgrp: Vec<Constant<Bits<I>>>,
    k_vgrp: Vec<Constant<Bits<I>>>,
    k15: Vec<Constant<Bits<I>>>,
    m_not15: Vec<Constant<Bits<I>>>,
    k16: Vec<Constant<Bits<I>>>,
    /// slot(i) bit b = i bit ELEM_W + b (weights `w_sl`); vtag(i) = i >> (ELEM_W + VDT_AW).
    w_sl: Vec<Constant<Bits<I>>>,
    sh_tag: Vec<Constant<Bits<8>>>,
    m_low: Vec<Constant<Bits<I>>>,
    m_bank: Vec<Constant<Bits<I>>>,
    kg: Vec<Constant<Bits<I>>>,
    /// Bit ranges [o, o + n) of an index: bank address and tag (loops with literal indices).
    _ob: usize,
    _ob1: usize,
    _nb: usize,
    _ot: usize,
    _ot1: usize,
    _nt: usize,
    _ne: usize,
    _ng: usize,
}

impl<const I: usize> IdxPath<I> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!(g.iw, I);
        let (v, p, d, r) = (n_of(g.vtx), n_of(g.patch), n_of(g.has_vdt), n_of(g.vdt_ram));
        let t = 3 * r;
        let gr = n_of(g.grp_field());
        let bits = |lo: usize, n: usize| -> u64 { ((1u64 << n) - 1) << lo };
        IdxPath {
            clock: Signal::default(),
            reset: Signal::default(),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: Signal::default(),
            rd: Signal::default(),
            vp_base: signals(v),
            vtx_load: signals(v),
            vtx_indexed: signals(v),
            vtx_gnt: signals(v),
            vtx_adv: signals(v),
            vp_bad: signals(v),
            vtx_slot: grid(v, g.aw),
            pp_base: signals(p),
            patch_load: signals(p),
            patch_indexed: signals(p),
            patch_gnt: signals(p),
            patch_adv: signals(p),
            pp_bad: signals(p),
            patch_slot: grid(p, g.aw),
            sticky: signals(d),
            ar_base_idx: signals(d),
            w_slot: grid(d, g.aw),
            vtx_w: signals(v * r),
            patch_w: signals(p * r),
            w_bank_addr: signals(r * g.bank_bits()),
            w_bank_en: signals(r * g.pg),
            w_tag: signals(r * g.tw),
            tp_vidx: signals(t),
            tri_load: signals(r),
            tp_fire: signals(r),
            tri_slot: grid(t, g.aw),
            rd_addr: grid(t, g.bank_bits()),
            rd_sel: grid(t, g.pg),
            fwd_hit: grid(t, g.pg),
            ram_tag: signals(t),
            tag_eq: signals(t),
            ref_valid: signals(t),
            ref_pix: signals(n_of(g.pix && g.vdt_ram)),
            ar_ref_elem: grid(t, g.ew),
            ram_grp: grid(t * gr, g.gw),
            ar_ref_grp: grid(t * gr, g.gw),
            auto_q: DFF::default(),
            vbase_q: dffs(v),
            pbase_q: dffs(p),
            base_q: dffs(d),
            tv_q: dffs(t),
            vfresh: signals(v),
            pfresh: signals(p),
            pres: signals(d),
            rdx: signals(t),
            vref: signals(t),
            wbe: signals(r * g.pg),
            zero: constant(0),
            a_auto: constant(0x002),
            m_vgrp: consts((0..v).map(|_| g.vgrp as u64 - 1)),
            k_vgrp: consts((0..v).map(|_| g.vgrp as u64)),
            k15: consts((0..p).map(|_| 15)),
            m_not15: consts((0..p).map(|_| !15u64 & ((1u64 << I) - 1))),
            k16: consts((0..p).map(|_| 16)),
            w_sl: consts((0..d * g.aw).map(|b| 1u64 << (g.ew + b))),
            sh_tag: consts((0..r).map(|_| (g.ew + g.aw) as u64)),
            m_low: consts((0..r).map(|_| bits(g.ew, g.lpg))),
            m_bank: consts((0..r).map(|_| bits(g.ew + g.lpg, g.bank_bits()))),
            kg: consts((0..r * g.pg).map(|b| (b as u64) << g.ew)),
            _ob: g.ew + g.lpg,
            _ob1: g.ew + g.lpg + 1,
            _nb: r * g.bank_bits(),
            _ot: g.ew + g.aw,
            _ot1: g.ew + g.aw + 1,
            _nt: r * g.tw,
            _ne: r * g.ew,
            _ng: gr * g.gw,
        }
    }
}

impl<const I: usize> Logic for IdxPath<I> {
    #[hdl_gen]
    fn update(&mut self) {
        self.auto_q.clock.next = self.clock.val();
        self.rd.next = self.zero.val();
        if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_auto.val()) {
            self.rd.next = self.auto_q.q.val();
        }
        // Vertex slot: base = the packet's if indexed, else AUTO_IDX.
        for i in 0..self.vbase_q.len() {
            self.vbase_q[i].clock.next = self.clock.val();
            self.vbase_q[i].d.next = self.vbase_q[i].q.val();
            if self.vtx_load[i].val() {
                self.vbase_q[i].d.next = self.vp_base[i].val();
            }
            self.vp_bad[i].next = (self.vp_base[i].val() & self.m_vgrp[i].val()).any();
            self.vfresh[i].next = self.auto_q.q.val();
            if self.vtx_indexed[i].val() {
                self.vfresh[i].next = self.vbase_q[i].q.val();
            }
            for b in 0..self.w_sl.len() {
                self.vtx_slot[i][b].next = (self.vfresh[i].val() & self.w_sl[b].val()).any();
            }
        }
        // Patch slot: base = the packet's if indexed, else AUTO_IDX rounded up to 16.
        for i in 0..self.pbase_q.len() {
            self.pbase_q[i].clock.next = self.clock.val();
            self.pbase_q[i].d.next = self.pbase_q[i].q.val();
            if self.patch_load[i].val() {
                self.pbase_q[i].d.next = self.pp_base[i].val();
            }
            self.pp_bad[i].next = (self.pp_base[i].val() & self.k15[i].val()).any();
            self.pfresh[i].next = (self.auto_q.q.val() + self.k15[i].val()) & self.m_not15[i].val();
            if self.patch_indexed[i].val() {
                self.pfresh[i].next = self.pbase_q[i].q.val();
            }
            for b in 0..self.w_sl.len() {
                self.patch_slot[i][b].next = (self.pfresh[i].val() & self.w_sl[b].val()).any();
            }
        }
        // The request's base (registered while held), its VDT slot; AUTO_IDX advance.
        // (Recomputed from the registers: no variable is shared with the slot outputs.)
        self.auto_q.d.next = self.auto_q.q.val();
        for i in 0..self.pres.len() {
            self.base_q[i].clock.next = self.clock.val();
            self.pres[i].next = self.zero.val();
            for j in 0..self.vtx_gnt.len() {
                if self.vtx_gnt[j].val() {
                    if self.vtx_indexed[j].val() {
                        self.pres[i].next = self.vbase_q[j].q.val();
                    } else {
                        self.pres[i].next = self.auto_q.q.val();
                    }
                }
            }
            for j in 0..self.patch_gnt.len() {
                if self.patch_gnt[j].val() {
                    if self.patch_indexed[j].val() {
                        self.pres[i].next = self.pbase_q[j].q.val();
                    } else {
                        self.pres[i].next = (self.auto_q.q.val() + self.k15[j].val()) & self.m_not15[j].val();
                    }
                }
            }
            if self.sticky[i].val() {
                self.pres[i].next = self.base_q[i].q.val();
            }
            self.ar_base_idx[i].next = self.pres[i].val();
            self.base_q[i].d.next = self.pres[i].val();
            if self.reset.val() {
                self.base_q[i].d.next = self.zero.val();
            }
            for b in 0..self.w_sl.len() {
                self.w_slot[i][b].next = (self.pres[i].val() & self.w_sl[b].val()).any();
            }
            for j in 0..self.vtx_adv.len() {
                if self.vtx_adv[j].val() {
                    self.auto_q.d.next = self.pres[i].val() + self.k_vgrp[j].val();
                }
            }
            for j in 0..self.patch_adv.len() {
                if self.patch_adv[j].val() {
                    self.auto_q.d.next = self.pres[i].val() + self.k16[j].val();
                }
            }
        }
        // A configuration write wins over the advance.
        if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_auto.val()) {
            self.auto_q.d.next = self.cfg_wdata.val();
        }
        if self.reset.val() {
            self.auto_q.d.next = self.zero.val();
        }
        // VDT write: bank address, tag, per-bank enables (a patch writes every bank).
        for o in self._ob..self._ob1 {
            for b in 0..self._nb {
                self.w_bank_addr[b].next = self.pres[0].val().get_bit(o + b);
            }
        }
        for o in self._ot..self._ot1 {
            for b in 0..self._nt {
                self.w_tag[b].next = self.pres[0].val().get_bit(o + b);
            }
        }
        for g in 0..self.wbe.len() {
            self.wbe[g].next = false;
            for j in 0..self.vtx_w.len() {
                if self.vtx_w[j].val() & ((self.pres[0].val() & self.m_low[0].val()) == self.kg[g].val()) {
                    self.wbe[g].next = true;
                }
            }
            for j in 0..self.patch_w.len() {
                if self.patch_w[j].val() {
                    self.wbe[g].next = true;
                }
            }
            self.w_bank_en[g].next = self.wbe[g].val();
        }
        // Triangle slot: the VDT read for next cycle, this cycle's lookups and references.
        for t in 0..self.tv_q.len() {
            self.tv_q[t].clock.next = self.clock.val();
            self.tv_q[t].d.next = self.tv_q[t].q.val();
            if self.tri_load[0].val() {
                self.tv_q[t].d.next = self.tp_vidx[t].val();
            }
            for b in 0..self.w_sl.len() {
                self.tri_slot[t][b].next = (self.tv_q[t].q.val() & self.w_sl[b].val()).any();
            }
            self.tag_eq[t].next = (self.tv_q[t].q.val() >> self.sh_tag[0].val()) == self.ram_tag[t].val();
            for g in 0..self.wbe.len() {
                self.rd_sel[t][g].next = (self.tv_q[t].q.val() & self.m_low[0].val()) == self.kg[g].val();
            }
            self.rdx[t].next = self.tv_q[t].q.val();
            if self.tp_fire[0].val() {
                self.rdx[t].next = self.tp_vidx[t].val();
            }
            for o in self._ob..self._ob1 {
                for b in 0..self._nb {
                    self.rd_addr[t][b].next = self.rdx[t].val().get_bit(o + b);
                }
            }
            for g in 0..self.wbe.len() {
                self.fwd_hit[t][g].next =
                    self.wbe[g].val() & !((self.pres[0].val() ^ self.rdx[t].val()) & self.m_bank[0].val()).any();
            }
            // A vertex reference's element and group; a pixel's ref 0 (its triangle) has 0.
            self.vref[t].next = self.ref_valid[t].val();
            for i in 0..self.ref_pix.len() {
                self.vref[t].next = self.ref_valid[t].val() & !self.ref_pix[i].val();
            }
            for b in 0..self._ne {
                self.ar_ref_elem[t][b].next = self.vref[t].val() & self.tv_q[t].q.val().get_bit(b);
            }
        }
        for t in 0..self.ram_grp.len() {
            for b in 0..self._ng {
                self.ar_ref_grp[t][b].next = self.vref[t].val() & self.ram_grp[t][b].val();
            }
        }
    }
}

// ---------------------------------------------------------------------------
// EU ids (EU_W, PRIO_W = EU_W + 1).
// ---------------------------------------------------------------------------

/// PRIO registers, the request's EU id, the references' EUs, the triangle's home EU and
/// `ar_global_ref`.
#[derive(LogicBlock)]
pub struct EuPath<const U: usize, const P: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    pub cfg_wdata: Signal<In, Bits<P>>,
    pub rd: Signal<Out, Bits<P>>,
    pub prio: Vec<Vec<Signal<Out, Bits<P>>>>,
    pub sel: Vec<Signal<In, Bit>>,
    pub sel_id: Vec<Signal<Out, Bits<U>>>,
    pub tri_hit: Vec<Signal<In, Bit>>,
    pub vdt_eu: Vec<Signal<In, Bits<U>>>,
    pub tri_home: Vec<Signal<Out, Bits<U>>>,
    pub tri_has_home: Vec<Signal<Out, Bit>>,
    pub pt_eu: Vec<Signal<In, Bits<U>>>,
    pub ref_valid: Vec<Signal<In, Bit>>,
    pub ref_pix: Vec<Signal<In, Bit>>,
    pub ar_ref_eu: Vec<Signal<Out, Bits<U>>>,
    pub ar_global_ref: Vec<Signal<Out, Bit>>,
    prio_q: Vec<Vec<DFF<Bits<P>>>>,
    sid: Vec<Signal<Local, Bits<U>>>,
    reu: Vec<Signal<Local, Bits<U>>>,
    home: Vec<Signal<Local, Bits<U>>>,
    zero: Constant<Bits<P>>,
    zero_u: Vec<Constant<Bits<U>>>,
    ids: Vec<Constant<Bits<U>>>,
    prio_rst: Vec<Vec<Constant<Bits<P>>>>,
    a_prio: Vec<Vec<Constant<CfgAddr>>>,
}

impl<const U: usize, const P: usize> EuPath<U, P> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!((g.uw, g.prw), (U, P));
        let (n, k) = (g.n, g.k());
        let (r, refs, s) = (n_of(g.vdt_ram), if g.tri { 3 } else { 0 }, n_of(g.eu_sel()));
        EuPath {
            clock: Signal::default(),
            reset: Signal::default(),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: Signal::default(),
            rd: Signal::default(),
            prio: grid(k, n),
            sel: signals(s * n),
            sel_id: signals(n_of(g.any_ram())),
            tri_hit: signals(3 * r),
            vdt_eu: signals(3 * r),
            tri_home: signals(r),
            tri_has_home: signals(r),
            pt_eu: signals(n_of(g.pt_ram)),
            ref_valid: signals(refs),
            ref_pix: signals(n_of(g.pix)),
            ar_ref_eu: signals(refs),
            ar_global_ref: signals(n_of(g.tri)),
            prio_q: (0..k).map(|_| dffs(n)).collect(),
            sid: signals(s),
            reu: signals(refs),
            home: signals(r),
            zero: constant(0),
            zero_u: consts((0..s).map(|_| 0)),
            ids: consts((0..s * n).map(|e| e as u64)),
            prio_rst: g.prio.iter().map(|l| consts(l.iter().copied())).collect(),
            a_prio: g
                .classes
                .iter()
                .map(|t| consts((0..n as u64).map(move |s| 0x100 + 32 * *t as u64 + s)))
                .collect(),
        }
    }
}

impl<const U: usize, const P: usize> Logic for EuPath<U, P> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rd.next = self.zero.val();
        for k in 0..self.prio_q.len() {
            for s in 0..self.prio[0].len() {
                self.prio_q[k][s].clock.next = self.clock.val();
                self.prio[k][s].next = self.prio_q[k][s].q.val();
                self.prio_q[k][s].d.next = self.prio_q[k][s].q.val();
                if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_prio[k][s].val()) {
                    self.rd.next = self.prio_q[k][s].q.val();
                    if self.cfg_we.val() {
                        self.prio_q[k][s].d.next = self.cfg_wdata.val();
                    }
                }
                if self.reset.val() {
                    self.prio_q[k][s].d.next = self.prio_rst[k][s].val();
                }
            }
        }
        // The request's EU id (ar_valid is one-hot).
        for i in 0..self.sid.len() {
            self.sid[i].next = self.zero_u[0].val();
            for e in 0..self.sel.len() {
                if self.sel[e].val() {
                    self.sid[i].next = self.sid[i].val() | self.ids[e].val();
                }
            }
        }
        for i in 0..self.sel_id.len() {
            self.sel_id[i].next = self.sid[0].val();
        }
        // Home of a triangle: the EU of two valid refs, else of the first valid ref.
        for i in 0..self.home.len() {
            self.home[i].next = self.zero_u[0].val();
            if self.tri_hit[2].val() {
                self.home[i].next = self.vdt_eu[2].val();
            }
            if self.tri_hit[1].val() {
                self.home[i].next = self.vdt_eu[1].val();
            }
            if self.tri_hit[0].val() {
                self.home[i].next = self.vdt_eu[0].val();
            }
            if self.tri_hit[1].val() & self.tri_hit[2].val() & (self.vdt_eu[1].val() == self.vdt_eu[2].val()) {
                self.home[i].next = self.vdt_eu[1].val();
            }
            if self.tri_hit[0].val() & self.tri_hit[2].val() & (self.vdt_eu[0].val() == self.vdt_eu[2].val()) {
                self.home[i].next = self.vdt_eu[0].val();
            }
            if self.tri_hit[0].val() & self.tri_hit[1].val() & (self.vdt_eu[0].val() == self.vdt_eu[1].val()) {
                self.home[i].next = self.vdt_eu[0].val();
            }
            self.tri_home[i].next = self.home[i].val();
            self.tri_has_home[i].next = self.tri_hit[0].val() | self.tri_hit[1].val() | self.tri_hit[2].val();
        }
        // The presented references' EUs; global when one is not the target.
        for i in 0..self.reu.len() {
            self.reu[i].next = self.zero_u[0].val();
        }
        for i in 0..self.vdt_eu.len() {
            self.reu[i].next = self.vdt_eu[i].val();
        }
        for i in 0..self.ref_pix.len() {
            if self.ref_pix[i].val() {
                self.reu[0].next = self.pt_eu[0].val();
            }
        }
        for i in 0..self.ar_global_ref.len() {
            self.ar_global_ref[i].next = false;
        }
        for i in 0..self.ar_ref_eu.len() {
            self.ar_ref_eu[i].next = self.zero_u[0].val();
            if self.ref_valid[i].val() {
                self.ar_ref_eu[i].next = self.reu[i].val();
                if self.reu[i].val() != self.sid[0].val() {
                    self.ar_global_ref[0].next = true;
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Control: slots, selection, grant, effects, registers (no stored width but counts).
// ---------------------------------------------------------------------------

/// The control design (see the module doc). Per-class vectors are in class priority
/// order (PIX, TRI, PATCH, VTX, present ones only); type-specific ports have 0 or 1
/// entries. EU masks are 32-bit inside (bits at and above `eus` constant 0).
#[derive(LogicBlock)]
pub struct Ctl {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Channels and slots.
    pub c_valid: Vec<Signal<In, Bit>>,
    pub c_ready: Vec<Signal<Out, Bit>>,
    pub load: Vec<Signal<Out, Bit>>,
    pub gnt: Vec<Signal<Out, Bit>>,
    pub sticky: Signal<Out, Bit>,
    // Vertex.
    pub vp_indexed: Vec<Signal<In, Bit>>,
    pub vp_count: Vec<Signal<In, Id>>,
    pub vp_bad: Vec<Signal<In, Bit>>,
    pub vtx_blocked: Vec<Signal<In, Bit>>,
    pub vtx_indexed: Vec<Signal<Out, Bit>>,
    pub vtx_w: Vec<Signal<Out, Bit>>,
    pub vtx_adv: Vec<Signal<Out, Bit>>,
    // Patch.
    pub pp_indexed: Vec<Signal<In, Bit>>,
    pub pp_bad: Vec<Signal<In, Bit>>,
    pub patch_blocked: Vec<Signal<In, Bit>>,
    pub patch_indexed: Vec<Signal<Out, Bit>>,
    pub patch_w: Vec<Signal<Out, Bit>>,
    pub patch_adv: Vec<Signal<Out, Bit>>,
    // Triangle.
    pub tri_blocked: Vec<Signal<In, Bit>>,
    pub tri_w: Vec<Signal<Out, Bit>>,
    pub tp_indexed: Vec<Signal<In, Bit>>,
    pub tp_fire: Vec<Signal<Out, Bit>>,
    pub tri_vvalid: Vec<Signal<In, Bit>>,
    pub tri_tag_eq: Vec<Signal<In, Bit>>,
    pub tri_hit: Vec<Signal<Out, Bit>>,
    pub tri_home: Vec<Signal<In, Id>>,
    pub tri_has_home: Vec<Signal<In, Bit>>,
    // Pixel.
    pub xp_mask: Vec<Signal<In, Bits<16>>>,
    pub xp_last: Vec<Signal<In, Bit>>,
    pub pix_hit: Vec<Signal<In, Bit>>,
    pub pix_home: Vec<Signal<In, Id>>,
    pub xp_fire: Vec<Signal<Out, Bit>>,
    pub pix_clr: Vec<Signal<Out, Bit>>,
    pub ar_pix_mask: Vec<Signal<Out, Bits<16>>>,
    pub ref_pix: Vec<Signal<Out, Bit>>,
    pub ar_ref_valid: Vec<Signal<Out, Bit>>,
    // Fit and candidate order.
    pub fit: Vec<Vec<Signal<In, Bit>>>,
    pub edt_nz: Vec<Signal<In, Bit>>,
    pub prio: Vec<Vec<Signal<In, Id>>>,
    // Allocation request.
    pub ar_ready: Vec<Signal<In, Bit>>,
    pub ar_refuse: Vec<Signal<In, Bit>>,
    pub ar_valid: Vec<Signal<Out, Bit>>,
    pub ack: Vec<Signal<Out, Bit>>,
    pub ar_type: Signal<Out, Bits<2>>,
    pub ar_vcount: Signal<Out, Bits<5>>,
    // Error events of the other designs.
    pub credit_err: Vec<Signal<In, Bit>>,
    pub release_err: Vec<Signal<In, Bit>>,
    // Registers.
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    pub cfg_wdata: Vec<Signal<In, Bit>>,
    pub rd_ext: Vec<Signal<In, Bits<32>>>,
    pub cfg_rvalid: Signal<Out, Bit>,
    pub cfg_rdata: Signal<Out, Bits<32>>,
    // Status.
    pub busy: Signal<Out, Bit>,
    pub stall: Signal<Out, Bit>,
    pub eu_avail_cnt: Vec<Signal<Out, Bit>>,
    pub st_slot_valid: Signal<Out, Bits<4>>,
    pub err_vdt_miss: Signal<Out, Bit>,
    pub err_pt_miss: Signal<Out, Bit>,
    pub err_malformed: Signal<Out, Bit>,
    pub err_credit: Signal<Out, Bit>,
    pub err_release: Signal<Out, Bit>,
    // State.
    en_q: DFF<Bit>,
    loc_q: DFF<Bit>,
    yld_q: DFF<Bit>,
    eu_en_q: Vec<DFF<Bit>>,
    ded_q: Vec<Vec<DFF<Bit>>>,
    occ_q: Vec<DFF<Bit>>,
    refm_q: Vec<Vec<DFF<Bit>>>,
    vidx_q: Vec<DFF<Bit>>,
    vcnt_q: Vec<Vec<DFF<Bit>>>,
    pidx_q: Vec<DFF<Bit>>,
    tidx_q: Vec<DFF<Bit>>,
    xmask_q: Vec<DFF<Bits<16>>>,
    xlast_q: Vec<DFF<Bit>>,
    sticky_q: DFF<Bit>,
    sel_q: Vec<DFF<Bit>>,
    gnt_q: Vec<DFF<Bit>>,
    refv_q: Vec<DFF<Bit>>,
    e_vdt: DFF<Bit>,
    e_pt: DFF<Bit>,
    e_mal: DFF<Bit>,
    e_cred: DFF<Bit>,
    e_rel: DFF<Bit>,
    stall_cnt: DFF<Bits<32>>,
    rej_cnt: Vec<DFF<Bits<32>>>,
    nack_cnt: Vec<DFF<Bits<32>>>,
    alloc_cnt: Vec<Vec<DFF<Bits<32>>>>,
    rvalid_q: DFF<Bit>,
    rdata_q: DFF<Bits<32>>,
    // Combinational values (used as variables in the one update process).
    en_m: Signal<Local, Mask>,
    nz_m: Signal<Local, Mask>,
    rdy_m: Signal<Local, Mask>,
    rfs_m: Signal<Local, Mask>,
    sel_p: Signal<Local, Mask>,
    ack_m: Signal<Local, Mask>,
    rf_m: Signal<Local, Mask>,
    rej_p: Signal<Local, Mask>,
    oh: Signal<Local, Mask>,
    cand: Signal<Local, Mask>,
    ok: Signal<Local, Mask>,
    val: Signal<Local, Bits<32>>,
    ded_m: Vec<Signal<Local, Mask>>,
    fit_m: Vec<Signal<Local, Mask>>,
    rfm_m: Vec<Signal<Local, Mask>>,
    selm: Vec<Signal<Local, Mask>>,
    rejm: Vec<Signal<Local, Mask>>,
    found: Vec<Signal<Local, Bit>>,
    elig: Vec<Signal<Local, Bit>>,
    gnt_l: Vec<Signal<Local, Bit>>,
    ack_k: Vec<Signal<Local, Bit>>,
    fire_k: Vec<Signal<Local, Bit>>,
    blk: Signal<Local, Bit>,
    hh: Signal<Local, Bit>,
    home: Signal<Local, Id>,
    taken: Signal<Local, Bit>,
    pres: Signal<Local, Bit>,
    acked: Signal<Local, Bit>,
    refused: Signal<Local, Bit>,
    busy_l: Signal<Local, Bit>,
    stall_l: Signal<Local, Bit>,
    vtx_blk: Signal<Local, Bit>,
    patch_blk: Signal<Local, Bit>,
    tri_blk: Signal<Local, Bit>,
    tri_hh: Signal<Local, Bit>,
    tri_home_l: Signal<Local, Id>,
    pix_hit_l: Signal<Local, Bit>,
    pix_home_l: Signal<Local, Id>,
    vtx_mal: Signal<Local, Bit>,
    patch_mal: Signal<Local, Bit>,
    g_tri: Signal<Local, Bit>,
    g_pix: Signal<Local, Bit>,
    a_vtx: Signal<Local, Bit>,
    a_patch: Signal<Local, Bit>,
    a_tri: Signal<Local, Bit>,
    a_pix: Signal<Local, Bit>,
    l_vtx: Signal<Local, Bit>,
    l_patch: Signal<Local, Bit>,
    l_tri: Signal<Local, Bit>,
    l_pix: Signal<Local, Bit>,
    f_tri: Signal<Local, Bit>,
    f_pix: Signal<Local, Bit>,
    tri_hit_l: Vec<Signal<Local, Bit>>,
    fresh_ref: Vec<Signal<Local, Bit>>,
    vc5: Signal<Local, Bits<5>>,
    avail: Signal<Local, Id>,
    avm: Signal<Local, Mask>,
    mal_set: Signal<Local, Bit>,
    // Constants.
    one32: Constant<Mask>,
    zero32: Constant<Mask>,
    w32: Vec<Constant<Mask>>,
    zero8: Constant<Id>,
    one8: Constant<Id>,
    w8: Vec<Constant<Id>>,
    vgrp8: Vec<Constant<Id>>,
    w5: Vec<Constant<Bits<5>>>,
    zero5: Constant<Bits<5>>,
    zero16: Vec<Constant<Bits<16>>>,
    is_vtx: Vec<Constant<Bit>>,
    is_tri: Vec<Constant<Bit>>,
    is_pix: Vec<Constant<Bit>>,
    is_patch: Vec<Constant<Bit>>,
    tcode: Vec<Constant<Bits<2>>>,
    vcnt_k: Vec<Constant<Bits<5>>>,
    slotbit: Vec<Constant<Bits<4>>>,
    zero4: Constant<Bits<4>>,
    zero2: Constant<Bits<2>>,
    en_r: Constant<Bit>,
    loc_r: Constant<Bit>,
    yld_r: Constant<Bit>,
    eu_en_r: Vec<Constant<Bit>>,
    ded_r: Vec<Vec<Constant<Bit>>>,
    a_ctrl: Constant<CfgAddr>,
    a_en: Constant<CfgAddr>,
    a_status: Constant<CfgAddr>,
    a_stall: Constant<CfgAddr>,
    a_ded: Vec<Constant<CfgAddr>>,
    a_rej: Vec<Constant<CfgAddr>>,
    a_nack: Vec<Constant<CfgAddr>>,
    a_alloc: Vec<Vec<Constant<CfgAddr>>>,
    /// Register bit weights: CTRL [2:0], STATUS [6:0].
    b_en: Constant<Bits<32>>,
    b_loc: Constant<Bits<32>>,
    b_yld: Constant<Bits<32>>,
    b_busy: Constant<Bits<32>>,
    b_stall: Constant<Bits<32>>,
    b_err: Vec<Constant<Bits<32>>>,
}

impl Ctl {
    pub fn new(g: &Geo) -> Self {
        let (n, k) = (g.n, g.k());
        let (v, p, t, x) = (n_of(g.vtx), n_of(g.patch), n_of(g.tri), n_of(g.pix));
        let r = n_of(g.vdt_ram);
        let refs = 3 * t;
        let is = |ty: usize| bitcs(g.classes.iter().map(move |c| *c == ty));
        Ctl {
            clock: Signal::default(),
            reset: Signal::default(),
            c_valid: signals(k),
            c_ready: signals(k),
            load: signals(k),
            gnt: signals(k),
            sticky: Signal::default(),
            vp_indexed: signals(v),
            vp_count: signals(v),
            vp_bad: signals(v),
            vtx_blocked: signals(v),
            vtx_indexed: signals(v),
            vtx_w: signals(v),
            vtx_adv: signals(v),
            pp_indexed: signals(p),
            pp_bad: signals(p),
            patch_blocked: signals(p),
            patch_indexed: signals(p),
            patch_w: signals(p),
            patch_adv: signals(p),
            tri_blocked: signals(t),
            tri_w: signals(t),
            tp_indexed: signals(r),
            tp_fire: signals(r),
            tri_vvalid: signals(3 * r),
            tri_tag_eq: signals(3 * r),
            tri_hit: signals(3 * r),
            tri_home: signals(r),
            tri_has_home: signals(r),
            xp_mask: signals(x),
            xp_last: signals(x),
            pix_hit: signals(x),
            pix_home: signals(x),
            xp_fire: signals(x),
            pix_clr: signals(x),
            ar_pix_mask: signals(x),
            ref_pix: signals(x),
            ar_ref_valid: signals(refs),
            fit: grid(k, n),
            edt_nz: signals(n),
            prio: grid(k, n),
            ar_ready: signals(n),
            ar_refuse: signals(n),
            ar_valid: signals(n),
            ack: signals(n),
            ar_type: Signal::default(),
            ar_vcount: Signal::default(),
            credit_err: signals(2),
            release_err: signals(n_of(g.has_vdt) + t),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: signals(g.cw),
            rd_ext: signals(4),
            cfg_rvalid: Signal::default(),
            cfg_rdata: Signal::default(),
            busy: Signal::default(),
            stall: Signal::default(),
            eu_avail_cnt: signals(g.avw),
            st_slot_valid: Signal::default(),
            err_vdt_miss: Signal::default(),
            err_pt_miss: Signal::default(),
            err_malformed: Signal::default(),
            err_credit: Signal::default(),
            err_release: Signal::default(),
            en_q: DFF::default(),
            loc_q: DFF::default(),
            yld_q: DFF::default(),
            eu_en_q: dffs(n),
            ded_q: (0..k).map(|_| dffs(n)).collect(),
            occ_q: dffs(k),
            refm_q: (0..k).map(|_| dffs(n)).collect(),
            vidx_q: dffs(v),
            vcnt_q: (0..v).map(|_| dffs(g.vcw)).collect(),
            pidx_q: dffs(p),
            tidx_q: dffs(r),
            xmask_q: dffs(x),
            xlast_q: dffs(x),
            sticky_q: DFF::default(),
            sel_q: dffs(n),
            gnt_q: dffs(k),
            refv_q: dffs(refs),
            e_vdt: DFF::default(),
            e_pt: DFF::default(),
            e_mal: DFF::default(),
            e_cred: DFF::default(),
            e_rel: DFF::default(),
            stall_cnt: DFF::default(),
            rej_cnt: dffs(n),
            nack_cnt: dffs(n),
            alloc_cnt: (0..n).map(|_| dffs(k)).collect(),
            rvalid_q: DFF::default(),
            rdata_q: DFF::default(),
            en_m: Signal::default(),
            nz_m: Signal::default(),
            rdy_m: Signal::default(),
            rfs_m: Signal::default(),
            sel_p: Signal::default(),
            ack_m: Signal::default(),
            rf_m: Signal::default(),
            rej_p: Signal::default(),
            oh: Signal::default(),
            cand: Signal::default(),
            ok: Signal::default(),
            val: Signal::default(),
            ded_m: signals(k),
            fit_m: signals(k),
            rfm_m: signals(k),
            selm: signals(k),
            rejm: signals(k),
            found: signals(k),
            elig: signals(k),
            gnt_l: signals(k),
            ack_k: signals(k),
            fire_k: signals(k),
            blk: Signal::default(),
            hh: Signal::default(),
            home: Signal::default(),
            taken: Signal::default(),
            pres: Signal::default(),
            acked: Signal::default(),
            refused: Signal::default(),
            busy_l: Signal::default(),
            stall_l: Signal::default(),
            vtx_blk: Signal::default(),
            patch_blk: Signal::default(),
            tri_blk: Signal::default(),
            tri_hh: Signal::default(),
            tri_home_l: Signal::default(),
            pix_hit_l: Signal::default(),
            pix_home_l: Signal::default(),
            vtx_mal: Signal::default(),
            patch_mal: Signal::default(),
            g_tri: Signal::default(),
            g_pix: Signal::default(),
            a_vtx: Signal::default(),
            a_patch: Signal::default(),
            a_tri: Signal::default(),
            a_pix: Signal::default(),
            l_vtx: Signal::default(),
            l_patch: Signal::default(),
            l_tri: Signal::default(),
            l_pix: Signal::default(),
            f_tri: Signal::default(),
            f_pix: Signal::default(),
            tri_hit_l: signals(refs),
            fresh_ref: signals(refs),
            vc5: Signal::default(),
            avail: Signal::default(),
            avm: Signal::default(),
            mal_set: Signal::default(),
            one32: constant(1),
            zero32: constant(0),
            w32: consts((0..n).map(|e| 1u64 << e)),
            zero8: constant(0),
            one8: constant(1),
            w8: consts((0..g.avw).map(|b| 1u64 << b)),
            vgrp8: consts((0..v).map(|_| g.vgrp as u64)),
            w5: consts((0..v * g.vcw).map(|b| 1u64 << b)),
            zero5: constant(0),
            zero16: consts((0..x).map(|_| 0)),
            is_vtx: is(VTX),
            is_tri: is(TRI),
            is_pix: is(PIX),
            is_patch: is(PATCH),
            tcode: consts(g.classes.iter().map(|c| *c as u64)),
            vcnt_k: consts(g.classes.iter().map(|c| match *c {
                PATCH => 16,
                TRI => 3,
                _ => 0,
            })),
            slotbit: consts(g.classes.iter().map(|c| 1u64 << c)),
            zero4: constant(0),
            zero2: constant(0),
            en_r: bitc(g.en),
            loc_r: bitc(g.loc),
            yld_r: bitc(g.yld),
            eu_en_r: bitcs(g.eu_en.iter().copied()),
            ded_r: g.ded.iter().map(|d| bitcs(d.iter().copied())).collect(),
            a_ctrl: constant(0x000),
            a_en: constant(0x001),
            a_status: constant(0x003),
            a_stall: constant(0x004),
            a_ded: consts(g.classes.iter().map(|c| 0x008 + *c as u64)),
            a_rej: consts((0..n as u64).map(|e| 0x0A0 + e)),
            a_nack: consts((0..n as u64).map(|e| 0x0C0 + e)),
            a_alloc: (0..n as u64)
                .map(|e| consts(g.classes.iter().map(move |c| 0x180 + 4 * e + *c as u64)))
                .collect(),
            b_en: constant(1),
            b_loc: constant(2),
            b_yld: constant(4),
            b_busy: constant(1),
            b_stall: constant(2),
            b_err: consts((0..5).map(|b| 4u64 << b)),
        }
    }
}

impl Logic for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        // --- Clocks.
        self.en_q.clock.next = self.clock.val();
        self.loc_q.clock.next = self.clock.val();
        self.yld_q.clock.next = self.clock.val();
        self.sticky_q.clock.next = self.clock.val();
        self.e_vdt.clock.next = self.clock.val();
        self.e_pt.clock.next = self.clock.val();
        self.e_mal.clock.next = self.clock.val();
        self.e_cred.clock.next = self.clock.val();
        self.e_rel.clock.next = self.clock.val();
        self.stall_cnt.clock.next = self.clock.val();
        self.rvalid_q.clock.next = self.clock.val();
        self.rdata_q.clock.next = self.clock.val();

        // --- EU masks.
        self.en_m.next = self.zero32.val();
        self.nz_m.next = self.zero32.val();
        self.rdy_m.next = self.zero32.val();
        self.rfs_m.next = self.zero32.val();
        for e in 0..self.ar_ready.len() {
            self.eu_en_q[e].clock.next = self.clock.val();
            self.sel_q[e].clock.next = self.clock.val();
            self.rej_cnt[e].clock.next = self.clock.val();
            self.nack_cnt[e].clock.next = self.clock.val();
            if self.eu_en_q[e].q.val() {
                self.en_m.next = self.en_m.val() | self.w32[e].val();
            }
            if self.edt_nz[e].val() {
                self.nz_m.next = self.nz_m.val() | self.w32[e].val();
            }
            if self.ar_ready[e].val() {
                self.rdy_m.next = self.rdy_m.val() | self.w32[e].val();
            }
            if self.ar_refuse[e].val() {
                self.rfs_m.next = self.rfs_m.val() | self.w32[e].val();
            }
        }
        for k in 0..self.occ_q.len() {
            self.occ_q[k].clock.next = self.clock.val();
            self.gnt_q[k].clock.next = self.clock.val();
            self.ded_m[k].next = self.zero32.val();
            self.fit_m[k].next = self.zero32.val();
            self.rfm_m[k].next = self.zero32.val();
            for e in 0..self.ar_ready.len() {
                self.ded_q[k][e].clock.next = self.clock.val();
                self.refm_q[k][e].clock.next = self.clock.val();
                self.alloc_cnt[e][k].clock.next = self.clock.val();
                if self.ded_q[k][e].q.val() {
                    self.ded_m[k].next = self.ded_m[k].val() | self.w32[e].val();
                }
                if self.fit[k][e].val() {
                    self.fit_m[k].next = self.fit_m[k].val() | self.w32[e].val();
                }
                if self.refm_q[k][e].q.val() {
                    self.rfm_m[k].next = self.rfm_m[k].val() | self.w32[e].val();
                }
            }
            // R4 fit: resources and at least one free entity record.
            self.fit_m[k].next = self.fit_m[k].val() & self.nz_m.val();
        }

        // --- Type-specific inputs (0 or 1 of each).
        self.vtx_blk.next = false;
        self.vtx_mal.next = false;
        for i in 0..self.vtx_blocked.len() {
            self.vidx_q[i].clock.next = self.clock.val();
            self.vtx_blk.next = self.vtx_blocked[i].val();
            // R2: count 0 or above VGRP; indexed base not a multiple of VGRP.
            self.vtx_mal.next = (self.vp_count[i].val() == self.zero8.val())
                | (self.vp_count[i].val() > self.vgrp8[i].val())
                | (self.vp_indexed[i].val() & self.vp_bad[i].val());
        }
        self.patch_blk.next = false;
        self.patch_mal.next = false;
        for i in 0..self.patch_blocked.len() {
            self.pidx_q[i].clock.next = self.clock.val();
            self.patch_blk.next = self.patch_blocked[i].val();
            self.patch_mal.next = self.pp_indexed[i].val() & self.pp_bad[i].val();
        }
        self.tri_blk.next = false;
        for i in 0..self.tri_blocked.len() {
            self.tri_blk.next = self.tri_blocked[i].val();
        }
        // Triangle references: indexed, VDT entry valid, tag equal.
        for i in 0..self.tri_hit_l.len() {
            self.tri_hit_l[i].next = false;
        }
        for i in 0..self.tri_vvalid.len() {
            // Read by the home computation before the grant: inputs and registers only.
            self.tri_hit[i].next = self.tidx_q[0].q.val() & self.tri_vvalid[i].val() & self.tri_tag_eq[i].val();
            self.tri_hit_l[i].next = self.tidx_q[0].q.val() & self.tri_vvalid[i].val() & self.tri_tag_eq[i].val();
        }
        self.tri_hh.next = false;
        self.tri_home_l.next = self.zero8.val();
        for i in 0..self.tri_home.len() {
            self.tidx_q[i].clock.next = self.clock.val();
            self.tri_hh.next = self.tri_has_home[i].val();
            self.tri_home_l.next = self.tri_home[i].val();
        }
        self.pix_hit_l.next = false;
        self.pix_home_l.next = self.zero8.val();
        for i in 0..self.pix_hit.len() {
            self.xmask_q[i].clock.next = self.clock.val();
            self.xlast_q[i].clock.next = self.clock.val();
            self.pix_hit_l.next = self.pix_hit[i].val();
            self.pix_home_l.next = self.pix_home[i].val();
        }

        // --- Evaluation of every slot (R4-R6): first candidate that fits and has not refused.
        for k in 0..self.occ_q.len() {
            self.blk.next = (self.is_vtx[k].val() & self.vtx_blk.val())
                | (self.is_patch[k].val() & self.patch_blk.val())
                | (self.is_tri[k].val() & self.tri_blk.val());
            self.hh.next = (self.is_tri[k].val() & self.tri_hh.val()) | (self.is_pix[k].val() & self.pix_hit_l.val());
            if self.is_tri[k].val() {
                self.home.next = self.tri_home_l.val();
            } else {
                self.home.next = self.pix_home_l.val();
            }
            self.cand.next = self.en_m.val() & self.ded_m[k].val();
            self.ok.next = self.cand.val() & self.fit_m[k].val() & !self.rfm_m[k].val();
            self.found[k].next = false;
            self.selm[k].next = self.zero32.val();
            self.rejm[k].next = self.zero32.val();
            // Candidate 0: the home EU (locality), if enabled and dedicated.
            if self.loc_q.q.val() & self.hh.val() {
                self.oh.next = self.one32.val() << self.home.val();
                if (self.oh.val() & self.cand.val()).any() {
                    if (self.oh.val() & self.ok.val()).any() {
                        self.selm[k].next = self.oh.val();
                        self.found[k].next = true;
                    } else if (self.oh.val() & !self.fit_m[k].val()).any() {
                        self.rejm[k].next = self.oh.val();
                    }
                }
            }
            // Then PRIO[type][0..]: an empty slot (>= eus) selects no enabled, dedicated EU.
            for s in 0..self.ar_ready.len() {
                self.oh.next = self.one32.val() << self.prio[k][s].val();
                if !self.found[k].val() & (self.oh.val() & self.cand.val()).any() {
                    if (self.oh.val() & self.ok.val()).any() {
                        self.selm[k].next = self.oh.val();
                        self.found[k].next = true;
                    } else if (self.oh.val() & !self.fit_m[k].val()).any() {
                        self.rejm[k].next = self.rejm[k].val() | self.oh.val();
                    }
                }
            }
            if self.blk.val() {
                self.found[k].next = false;
            }
            self.elig[k].next = self.occ_q[k].q.val() & self.found[k].val();
        }

        // --- Grant (R7): the held request, else by class priority.
        self.taken.next = false;
        self.pres.next = self.sticky_q.q.val();
        self.sel_p.next = self.zero32.val();
        self.rej_p.next = self.zero32.val();
        for k in 0..self.occ_q.len() {
            self.gnt_l[k].next = self.gnt_q[k].q.val();
            if !self.sticky_q.q.val() {
                self.gnt_l[k].next = false;
                if !self.taken.val() & (self.elig[k].val() | (!self.yld_q.q.val() & self.occ_q[k].q.val())) {
                    self.taken.next = true;
                    self.gnt_l[k].next = self.elig[k].val();
                }
                if self.gnt_l[k].val() {
                    self.pres.next = true;
                    self.sel_p.next = self.selm[k].val();
                    self.rej_p.next = self.rejm[k].val();
                }
            }
            self.gnt[k].next = self.gnt_l[k].val();
        }
        if self.sticky_q.q.val() {
            for e in 0..self.ar_ready.len() {
                if self.sel_q[e].q.val() {
                    self.sel_p.next = self.sel_p.val() | self.w32[e].val();
                }
            }
        }
        self.sticky.next = self.sticky_q.q.val();
        // --- The EU's answer (R8).
        self.ack_m.next = self.sel_p.val() & self.rdy_m.val();
        self.rf_m.next = self.sel_p.val() & self.rfs_m.val() & !self.rdy_m.val();
        self.acked.next = self.ack_m.val().any();
        self.refused.next = self.rf_m.val().any();
        for e in 0..self.ar_ready.len() {
            self.ar_valid[e].next = self.sel_p.val().get_bit(e);
            self.ack[e].next = self.ack_m.val().get_bit(e);
            self.sel_q[e].d.next = self.sel_p.val().get_bit(e);
        }
        self.sticky_q.d.next = self.pres.val() & !self.acked.val() & !self.refused.val();
        if self.reset.val() {
            self.sticky_q.d.next = false;
        }

        // --- Channels (R3), malformed drop (R2), slots.
        self.busy_l.next = false;
        self.st_slot_valid.next = self.zero4.val();
        self.ar_type.next = self.zero2.val();
        self.ar_vcount.next = self.zero5.val();
        self.vc5.next = self.zero5.val();
        for i in 0..self.vcnt_q.len() {
            for b in 0..self.w5.len() {
                self.vcnt_q[i][b].clock.next = self.clock.val();
                if self.vcnt_q[i][b].q.val() {
                    self.vc5.next = self.vc5.val() | self.w5[b].val();
                }
            }
        }
        self.g_tri.next = false;
        self.g_pix.next = false;
        self.a_vtx.next = false;
        self.a_patch.next = false;
        self.a_tri.next = false;
        self.a_pix.next = false;
        self.l_vtx.next = false;
        self.l_patch.next = false;
        self.l_tri.next = false;
        self.l_pix.next = false;
        self.f_tri.next = false;
        self.f_pix.next = false;
        self.mal_set.next = false;
        for k in 0..self.occ_q.len() {
            self.ack_k[k].next = self.gnt_l[k].val() & self.acked.val();
            self.c_ready[k].next = self.en_q.q.val() & (!self.occ_q[k].q.val() | self.ack_k[k].val());
            self.fire_k[k].next = self.c_valid[k].val() & self.en_q.q.val() & (!self.occ_q[k].q.val() | self.ack_k[k].val());
            self.load[k].next = self.fire_k[k].val()
                & !((self.is_vtx[k].val() & self.vtx_mal.val()) | (self.is_patch[k].val() & self.patch_mal.val()));
            if self.fire_k[k].val() & !self.load[k].val() {
                self.mal_set.next = true;
            }
            self.occ_q[k].d.next = self.load[k].val() | (self.occ_q[k].q.val() & !self.ack_k[k].val());
            if self.reset.val() {
                self.occ_q[k].d.next = false;
            }
            self.gnt_q[k].d.next = self.gnt_l[k].val();
            if self.occ_q[k].q.val() {
                self.busy_l.next = true;
                self.st_slot_valid.next = self.st_slot_valid.val() | self.slotbit[k].val();
            }
            if self.gnt_l[k].val() {
                self.ar_type.next = self.tcode[k].val();
                if self.is_vtx[k].val() {
                    self.ar_vcount.next = self.vc5.val();
                } else {
                    self.ar_vcount.next = self.vcnt_k[k].val();
                }
            }
            // Kind strobes.
            self.g_tri.next = self.g_tri.val() | (self.is_tri[k].val() & self.gnt_l[k].val());
            self.g_pix.next = self.g_pix.val() | (self.is_pix[k].val() & self.gnt_l[k].val());
            self.a_vtx.next = self.a_vtx.val() | (self.is_vtx[k].val() & self.ack_k[k].val());
            self.a_patch.next = self.a_patch.val() | (self.is_patch[k].val() & self.ack_k[k].val());
            self.a_tri.next = self.a_tri.val() | (self.is_tri[k].val() & self.ack_k[k].val());
            self.a_pix.next = self.a_pix.val() | (self.is_pix[k].val() & self.ack_k[k].val());
            self.l_vtx.next = self.l_vtx.val() | (self.is_vtx[k].val() & self.load[k].val());
            self.l_patch.next = self.l_patch.val() | (self.is_patch[k].val() & self.load[k].val());
            self.l_tri.next = self.l_tri.val() | (self.is_tri[k].val() & self.load[k].val());
            self.l_pix.next = self.l_pix.val() | (self.is_pix[k].val() & self.load[k].val());
            self.f_tri.next = self.f_tri.val() | (self.is_tri[k].val() & self.fire_k[k].val());
            self.f_pix.next = self.f_pix.val() | (self.is_pix[k].val() & self.fire_k[k].val());
            // Refused mask (R6, R8): cleared without a selection, joined by a refusal,
            // emptied with the slot.
            for e in 0..self.ar_ready.len() {
                self.refm_q[k][e].d.next = self.refm_q[k][e].q.val() & self.found[k].val();
                if self.gnt_l[k].val() & self.rf_m.val().get_bit(e) {
                    self.refm_q[k][e].d.next = true;
                }
                if self.load[k].val() | self.ack_k[k].val() | self.reset.val() {
                    self.refm_q[k][e].d.next = false;
                }
            }
        }
        self.busy.next = self.busy_l.val();
        self.stall_l.next = self.busy_l.val() & !self.pres.val();
        self.stall.next = self.stall_l.val();

        // --- Slot control bits, type-specific effect strobes.
        for i in 0..self.vidx_q.len() {
            self.vidx_q[i].d.next = self.vidx_q[i].q.val();
            if self.l_vtx.val() {
                self.vidx_q[i].d.next = self.vp_indexed[i].val();
            }
            self.vtx_indexed[i].next = self.vidx_q[i].q.val();
            self.vtx_w[i].next = self.a_vtx.val();
            self.vtx_adv[i].next = self.a_vtx.val() & !self.vidx_q[i].q.val();
            for b in 0..self.w5.len() {
                self.vcnt_q[i][b].d.next = self.vcnt_q[i][b].q.val();
                if self.l_vtx.val() {
                    self.vcnt_q[i][b].d.next = self.vp_count[i].val().get_bit(b);
                }
            }
        }
        for i in 0..self.pidx_q.len() {
            self.pidx_q[i].d.next = self.pidx_q[i].q.val();
            if self.l_patch.val() {
                self.pidx_q[i].d.next = self.pp_indexed[i].val();
            }
            self.patch_indexed[i].next = self.pidx_q[i].q.val();
            self.patch_w[i].next = self.a_patch.val();
            self.patch_adv[i].next = self.a_patch.val() & !self.pidx_q[i].q.val();
        }
        for i in 0..self.tri_w.len() {
            self.tri_w[i].next = self.a_tri.val();
        }
        for i in 0..self.tidx_q.len() {
            self.tidx_q[i].d.next = self.tidx_q[i].q.val();
            if self.l_tri.val() {
                self.tidx_q[i].d.next = self.tp_indexed[i].val();
            }
            self.tp_fire[i].next = self.f_tri.val();
        }
        for i in 0..self.xmask_q.len() {
            self.xmask_q[i].d.next = self.xmask_q[i].q.val();
            self.xlast_q[i].d.next = self.xlast_q[i].q.val();
            if self.l_pix.val() {
                self.xmask_q[i].d.next = self.xp_mask[i].val();
                self.xlast_q[i].d.next = self.xp_last[i].val();
            }
            self.xp_fire[i].next = self.f_pix.val();
            self.pix_clr[i].next = self.a_pix.val() & self.xlast_q[i].q.val();
            self.ref_pix[i].next = self.g_pix.val();
            self.ar_pix_mask[i].next = self.zero16[i].val();
            if self.g_pix.val() {
                self.ar_pix_mask[i].next = self.xmask_q[i].q.val();
            }
        }
        // References of the request: live until presented, then held with it.
        for i in 0..self.fresh_ref.len() {
            self.refv_q[i].clock.next = self.clock.val();
            self.fresh_ref[i].next = self.g_tri.val() & self.tri_hit_l[i].val();
        }
        for _i in 0..self.pix_hit.len() {
            self.fresh_ref[0].next = self.fresh_ref[0].val() | (self.g_pix.val() & self.pix_hit_l.val());
        }
        for i in 0..self.ar_ref_valid.len() {
            self.ar_ref_valid[i].next = self.fresh_ref[i].val();
            if self.sticky_q.q.val() {
                self.ar_ref_valid[i].next = self.refv_q[i].q.val();
            }
            self.refv_q[i].d.next = self.ar_ref_valid[i].val();
        }

        // --- Errors (sticky; STATUS bits written 1 clear them unless set at the same edge).
        self.e_vdt.d.next = self.e_vdt.q.val();
        self.e_pt.d.next = self.e_pt.q.val();
        self.e_mal.d.next = self.e_mal.q.val();
        self.e_cred.d.next = self.e_cred.q.val();
        self.e_rel.d.next = self.e_rel.q.val();
        if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_status.val()) {
            if self.cfg_wdata[2].val() {
                self.e_vdt.d.next = false;
            }
            if self.cfg_wdata[3].val() {
                self.e_pt.d.next = false;
            }
            if self.cfg_wdata[4].val() {
                self.e_mal.d.next = false;
            }
            if self.cfg_wdata[5].val() {
                self.e_cred.d.next = false;
            }
            if self.cfg_wdata[6].val() {
                self.e_rel.d.next = false;
            }
        }
        for i in 0..self.tidx_q.len() {
            // An indexed triangle dispatched with an invalid reference.
            if self.a_tri.val() & self.tidx_q[i].q.val()
                & !(self.ar_ref_valid[0].val() & self.ar_ref_valid[1].val() & self.ar_ref_valid[2].val())
            {
                self.e_vdt.d.next = true;
            }
        }
        for _i in 0..self.pix_hit.len() {
            if self.a_pix.val() & !self.ar_ref_valid[0].val() {
                self.e_pt.d.next = true;
            }
        }
        if self.mal_set.val() {
            self.e_mal.d.next = true;
        }
        if self.credit_err[0].val() | self.credit_err[1].val() {
            self.e_cred.d.next = true;
        }
        for i in 0..self.release_err.len() {
            if self.release_err[i].val() {
                self.e_rel.d.next = true;
            }
        }
        if self.reset.val() {
            self.e_vdt.d.next = false;
            self.e_pt.d.next = false;
            self.e_mal.d.next = false;
            self.e_cred.d.next = false;
            self.e_rel.d.next = false;
        }
        self.err_vdt_miss.next = self.e_vdt.q.val();
        self.err_pt_miss.next = self.e_pt.q.val();
        self.err_malformed.next = self.e_mal.q.val();
        self.err_credit.next = self.e_cred.q.val();
        self.err_release.next = self.e_rel.q.val();

        // --- Counters (wrap), EU availability.
        self.stall_cnt.d.next = self.stall_cnt.q.val();
        if self.stall_l.val() {
            self.stall_cnt.d.next = self.stall_cnt.q.val() + self.one32.val();
        }
        self.avail.next = self.zero8.val();
        self.avm.next = self.en_m.val() & self.nz_m.val();
        for e in 0..self.ar_ready.len() {
            self.rej_cnt[e].d.next = self.rej_cnt[e].q.val();
            if (self.rej_p.val() & self.w32[e].val()).any() & !self.sticky_q.q.val() {
                self.rej_cnt[e].d.next = self.rej_cnt[e].q.val() + self.one32.val();
            }
            self.nack_cnt[e].d.next = self.nack_cnt[e].q.val();
            if self.rf_m.val().get_bit(e) {
                self.nack_cnt[e].d.next = self.nack_cnt[e].q.val() + self.one32.val();
            }
            for k in 0..self.occ_q.len() {
                self.alloc_cnt[e][k].d.next = self.alloc_cnt[e][k].q.val();
                if self.ack_m.val().get_bit(e) & self.gnt_l[k].val() {
                    self.alloc_cnt[e][k].d.next = self.alloc_cnt[e][k].q.val() + self.one32.val();
                }
                if self.reset.val() {
                    self.alloc_cnt[e][k].d.next = self.zero32.val();
                }
            }
            if self.reset.val() {
                self.rej_cnt[e].d.next = self.zero32.val();
                self.nack_cnt[e].d.next = self.zero32.val();
            }
            if (self.avm.val() & self.w32[e].val()).any() {
                self.avail.next = self.avail.val() + self.one8.val();
            }
        }
        if self.reset.val() {
            self.stall_cnt.d.next = self.zero32.val();
        }
        for b in 0..self.eu_avail_cnt.len() {
            self.eu_avail_cnt[b].next = (self.avail.val() & self.w8[b].val()).any();
        }

        // --- Register writes: CTRL, EU_ENABLE, DED_MASK.
        self.en_q.d.next = self.en_q.q.val();
        self.loc_q.d.next = self.loc_q.q.val();
        self.yld_q.d.next = self.yld_q.q.val();
        if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_ctrl.val()) {
            self.en_q.d.next = self.cfg_wdata[0].val();
            self.loc_q.d.next = self.cfg_wdata[1].val();
            self.yld_q.d.next = self.cfg_wdata[2].val();
        }
        if self.reset.val() {
            self.en_q.d.next = self.en_r.val();
            self.loc_q.d.next = self.loc_r.val();
            self.yld_q.d.next = self.yld_r.val();
        }
        for e in 0..self.ar_ready.len() {
            self.eu_en_q[e].d.next = self.eu_en_q[e].q.val();
            if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_en.val()) {
                self.eu_en_q[e].d.next = self.cfg_wdata[e].val();
            }
            if self.reset.val() {
                self.eu_en_q[e].d.next = self.eu_en_r[e].val();
            }
            for k in 0..self.occ_q.len() {
                self.ded_q[k][e].d.next = self.ded_q[k][e].q.val();
                if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_ded[k].val()) {
                    self.ded_q[k][e].d.next = self.cfg_wdata[e].val();
                }
                if self.reset.val() {
                    self.ded_q[k][e].d.next = self.ded_r[k][e].val();
                }
            }
        }

        // --- Register reads: the value at this cycle, presented next cycle (R11).
        self.val.next = self.zero32.val();
        if self.cfg_addr.val() == self.a_ctrl.val() {
            if self.en_q.q.val() {
                self.val.next = self.val.val() | self.b_en.val();
            }
            if self.loc_q.q.val() {
                self.val.next = self.val.val() | self.b_loc.val();
            }
            if self.yld_q.q.val() {
                self.val.next = self.val.val() | self.b_yld.val();
            }
        }
        if self.cfg_addr.val() == self.a_en.val() {
            self.val.next = self.en_m.val();
        }
        if self.cfg_addr.val() == self.a_status.val() {
            if self.busy_l.val() {
                self.val.next = self.val.val() | self.b_busy.val();
            }
            if self.stall_l.val() {
                self.val.next = self.val.val() | self.b_stall.val();
            }
            if self.e_vdt.q.val() {
                self.val.next = self.val.val() | self.b_err[0].val();
            }
            if self.e_pt.q.val() {
                self.val.next = self.val.val() | self.b_err[1].val();
            }
            if self.e_mal.q.val() {
                self.val.next = self.val.val() | self.b_err[2].val();
            }
            if self.e_cred.q.val() {
                self.val.next = self.val.val() | self.b_err[3].val();
            }
            if self.e_rel.q.val() {
                self.val.next = self.val.val() | self.b_err[4].val();
            }
        }
        if self.cfg_addr.val() == self.a_stall.val() {
            self.val.next = self.stall_cnt.q.val();
        }
        for k in 0..self.occ_q.len() {
            if self.cfg_addr.val() == self.a_ded[k].val() {
                self.val.next = self.ded_m[k].val();
            }
        }
        for e in 0..self.ar_ready.len() {
            if self.cfg_addr.val() == self.a_rej[e].val() {
                self.val.next = self.rej_cnt[e].q.val();
            }
            if self.cfg_addr.val() == self.a_nack[e].val() {
                self.val.next = self.nack_cnt[e].q.val();
            }
            for k in 0..self.occ_q.len() {
                if self.cfg_addr.val() == self.a_alloc[e][k].val() {
                    self.val.next = self.alloc_cnt[e][k].q.val();
                }
            }
        }
        for i in 0..self.rd_ext.len() {
            self.val.next = self.val.val() | self.rd_ext[i].val();
        }
        self.rvalid_q.d.next = self.cfg_valid.val() & !self.cfg_we.val() & !self.reset.val();
        self.rdata_q.d.next = self.zero32.val();
        if self.cfg_valid.val() & !self.cfg_we.val() & !self.reset.val() {
            self.rdata_q.d.next = self.val.val();
        }
        self.cfg_rvalid.next = self.rvalid_q.q.val();
        self.cfg_rdata.next = self.rdata_q.q.val();
    }
}

// ---------------------------------------------------------------------------
// Emission: exact ports, header, the designs and the core netlist.
// ---------------------------------------------------------------------------

impl crate::BlockGen for GlobalSpreaderConfig {
    const NAME: &'static str = "global_spreader";

    fn wrapper(&self) -> Wrapper {
        wrapper(&Geo::new(self))
    }

    fn header_params(&self) -> Vec<(String, String)> {
        let g = Geo::new(self);
        let list = |v: &[u64]| format!("[{}]", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
        let flags = |v: &[bool]| format!("{:?}", v.iter().enumerate().filter(|(_, b)| **b).map(|(e, _)| e).collect::<Vec<_>>());
        let mut p: Vec<(String, String)> = vec![
            ("eus".into(), g.n.to_string()),
            ("entity_types".into(), format!("{:?}", self.entity_types)),
            ("vertices_per_group".into(), g.vgrp.to_string()),
            ("vdt_depth".into(), g.vd.to_string()),
            ("pt_depth".into(), g.pd.to_string()),
            ("index_width".into(), g.iw.to_string()),
            ("res_width".into(), g.rw.to_string()),
            ("entity_width".into(), g.ent.to_string()),
            ("addr_width".into(), g.adw.to_string()),
            ("res_total".into(), list(&g.res_total)),
            ("edt_total".into(), list(&g.edt_total)),
            ("eu_enable".into(), flags(&g.eu_en)),
            ("enable, locality, yield_enable".into(), format!("{}, {}, {}", g.en, g.loc, g.yld)),
        ];
        for (k, t) in g.classes.iter().enumerate() {
            let name = crate::config::GS_TYPE_NAMES[*t];
            p.push((format!("{name}: min_res, frame_res"), format!("{}, {}", g.min_res[k], g.frame_res[k])));
            p.push((format!("{name}: priority (PRIO slots)"), list(&g.prio[k])));
            p.push((format!("{name}: dedicated"), flags(&g.ded[k])));
        }
        p.extend([
            ("EU_W, PRIO_W, AV_W".into(), format!("{}, {}, {}", g.uw, g.prw, g.avw)),
            ("FE_W, ELEM_W, VCNT_W".into(), format!("{}, {}, {}", g.fw, g.ew, g.vcw)),
            ("VDT_AW, PRID_W, TAG_W".into(), format!("{}, {}, {}", g.aw, g.pw, g.tw)),
            ("PG, GRP_W".into(), format!("{}, {}", g.pg, g.gw)),
        ]);
        p
    }

    /// The designs, each dispatched on its own width, and the netlist wiring them.
    fn core_verilog(&self) -> Result<String, String> {
        core(&Geo::new(self))
    }
}

/// The exact ports of `warpgen_global_spreader` (contract §3), in the contract's order.
fn wrapper(g: &Geo) -> Wrapper {
    let (n, iw, rw, adw, pw) = (g.n, g.iw, g.rw, g.adw, g.pw);
    let p = |name: &str, dir: Dir, w: usize, doc: &str| Port::single(name, dir, w, w, doc);
    let i = |name: &str, w: usize, doc: &str| p(name, Dir::In, w, doc);
    let o = |name: &str, w: usize, doc: &str| p(name, Dir::Out, w, doc);
    let mut groups = vec![PortGroup {
        title: "Clock and synchronous active-high reset".into(),
        ports: vec![i("clock", 1, "rising edge"), i("reset", 1, "slots, requests, valid bits, counters, errors cleared; registers from TOML")],
    }];
    let chan = |title: &str, ports: Vec<Port>| PortGroup { title: title.into(), ports };
    if g.vtx {
        groups.push(chan("Vertex packets (type 0); vp_ready = EN && (slot empty || its request acked now)", vec![
            i("vp_valid", 1, "a vertex packet is offered"),
            o("vp_ready", 1, "taken at this edge (combinational on ar_ready)"),
            i("vp_indexed", 1, "0: the GS assigns AUTO_IDX"),
            i("vp_base_idx", iw, "first vertex index; a multiple of VGRP when indexed"),
            i("vp_count", g.vcw, "vertices, 1 to VGRP"),
            i("vp_size", rw, "data to copy (resource units)"),
            i("vp_src_addr", adw, "source address (packet id)"),
        ]));
    }
    if g.patch {
        groups.push(chan("Patch packets (type 3, 16 vertices)", vec![
            i("pp_valid", 1, "a patch is offered"),
            o("pp_ready", 1, "taken at this edge"),
            i("pp_indexed", 1, "0: AUTO_IDX rounded up to 16"),
            i("pp_base_idx", iw, "first vertex index; a multiple of 16 when indexed"),
            i("pp_size", rw, "data to copy"),
            i("pp_src_addr", adw, "source address"),
        ]));
    }
    if g.tri {
        groups.push(chan("Triangle packets (type 1)", vec![
            i("tp_valid", 1, "a triangle is offered"),
            o("tp_ready", 1, "taken at this edge"),
            i("tp_indexed", 1, "1: look the vertices up in the VDT"),
            i("tp_vidx", 3 * iw, "vertex indices v0 (low), v1, v2"),
            i("tp_prid", pw, "primitive id: PT entry"),
            i("tp_size", rw, "data to copy"),
            i("tp_src_addr", adw, "source address"),
        ]));
    }
    if g.pix {
        groups.push(chan("Pixel packets (type 2)", vec![
            i("xp_valid", 1, "a pixel packet is offered"),
            o("xp_ready", 1, "taken at this edge"),
            i("xp_tri_id", pw, "its triangle's PT entry"),
            i("xp_mask", 16, "pixel mask"),
            i("xp_last", 1, "last packet of the triangle: its PT entry is released at the ack"),
            i("xp_size", rw, "data to copy"),
            i("xp_src_addr", adw, "source address"),
        ]));
    }
    let mut ar = vec![
        o("ar_valid", n, "one-hot EU of the request, or 0; from registered state"),
        o("ar_type", 2, "0 VTX, 1 TRI, 2 PIX, 3 PATCH"),
        o("ar_footprint", rw, "size + FRAME_RES[type]: debited at the ack"),
        o("ar_copy_size", rw, "size"),
        o("ar_src_addr", adw, "source address"),
        o("ar_vcount", 5, "VTX count, PATCH 16, TRI 3, PIX 0"),
    ];
    if g.has_vdt {
        ar.push(o("ar_base_idx", iw, "VTX/PATCH base index (AUTO_IDX when not indexed)"));
    }
    if g.tri {
        ar.push(o("ar_prid", pw, "TRI prid, PIX triangle id"));
    }
    if g.pix {
        ar.push(o("ar_pix_mask", 16, "PIX mask"));
    }
    if g.tri {
        ar.extend([
            o("ar_global_ref", 1, "a valid reference is in another EU than the target"),
            o("ar_ref_valid", 3, "bit i: reference i hit (TRI vertex i; PIX: ref 0 = triangle)"),
            o("ar_ref_eu", 3 * g.uw, "reference i's EU at [i*EU_W +: EU_W]"),
            o("ar_ref_ent", 3 * g.ent, "reference i's entity at [i*ENT_W +: ENT_W]"),
            o("ar_ref_elem", 3 * g.ew, "vertex i mod VGRP at [i*ELEM_W +: ELEM_W]"),
            o("ar_ref_grp", 3 * g.gw, "VDT group of vertex i inside its patch entity"),
        ]);
    }
    groups.push(chan("Allocation request to the EU of ar_valid (held until answered)", ar));
    groups.push(chan("EU answer, in the request cycle", vec![
        i("ar_ready", n, "bit e: EU e acknowledges (wins over ar_refuse)"),
        i("ar_refuse", n, "bit e: EU e refuses; the slot tries the next candidate"),
        i("ar_ent", n * g.ent, "EU e's entity number at [e*ENT_W +: ENT_W], with its ack"),
    ]));
    groups.push(chan("Credits from the EUs (effect at the edge)", vec![
        i("cr_valid", n, "bit e: EU e returns cr_res / cr_edt"),
        i("cr_res", n * rw, "resource units at [e*RES_W +: RES_W]"),
        i("cr_edt", n, "bit e: one entity record freed"),
        i("cr_type", 2 * n, "its type at [2e +: 2] (PEND)"),
    ]));
    let mut rel = Vec::new();
    if g.has_vdt {
        rel.push(i("vr_valid", n, "bit e: EU e releases VDT slot vr_slot[e]"));
        rel.push(i("vr_slot", n * g.aw, "slot at [e*VDT_AW +: VDT_AW]"));
    }
    if g.tri {
        rel.push(i("pr_valid", n, "bit e: EU e releases PT entry pr_id[e]"));
        rel.push(i("pr_id", n * pw, "entry at [e*PRID_W +: PRID_W]"));
    }
    if !rel.is_empty() {
        groups.push(chan("Table releases (all of a cycle apply)", rel));
    }
    groups.push(chan("Registers (contract 2.1): access in cycle m, read data in m+1", vec![
        i("cfg_valid", 1, "an access"),
        i("cfg_we", 1, "1 write, 0 read"),
        i("cfg_addr", CFG_AW, "word address"),
        i("cfg_wdata", 32, "write data (low bits stored)"),
        o("cfg_rvalid", 1, "last cycle was a read"),
        o("cfg_rdata", 32, "its value (zero-extended), else 0"),
    ]));
    groups.push(chan("Sticky errors (STATUS bits 6:2, write 1 to clear)", vec![
        o("err_vdt_miss", 1, "an indexed triangle was dispatched with an invalid reference"),
        o("err_pt_miss", 1, "a pixel was dispatched without its triangle in the PT"),
        o("err_malformed", 1, "a malformed packet was dropped"),
        o("err_credit", 1, "a credit or debit was clamped (FREE_RES, FREE_EDT, PEND)"),
        o("err_release", 1, "a release named an invalid table entry"),
    ]));
    let mut st = vec![
        o("busy", 1, "a slot is occupied"),
        o("stall", 1, "busy and no request"),
        o("eu_avail_cnt", g.avw, "enabled EUs with a free entity record"),
        o("st_slot_valid", 4, "bit t: slot of type t occupied"),
        o("st_free_res", n * rw, "FREE_RES[e] at [e*RES_W +: RES_W]"),
        o("st_free_edt", n * g.fw, "FREE_EDT[e] at [e*FE_W +: FE_W]"),
    ];
    if g.has_vdt {
        st.push(o("st_vdt_valid", g.vd, "VDT valid bits"));
    }
    if g.tri {
        st.push(o("st_pt_valid", g.pd, "PT valid bits"));
    }
    groups.push(chan("Observability (registered state)", st));
    Wrapper { block: "global_spreader".into(), groups }
}

/// rust-hdl's Verilog of a design, checked.
fn hdl<B: Block>(mut b: B) -> Result<String, String> {
    b.connect_all();
    rust_hdl::core::check_error::check_all(&b).map_err(|e| format!("{e:?}"))?;
    Ok(generate_verilog_unchecked(&b))
}

fn valid_hdl(depth: usize, s: &ValidShape) -> Result<String, String> {
    match depth {
        2 => hdl(ValidBits::<2, 1>::new(s)),
        4 => hdl(ValidBits::<4, 2>::new(s)),
        8 => hdl(ValidBits::<8, 3>::new(s)),
        16 => hdl(ValidBits::<16, 4>::new(s)),
        32 => hdl(ValidBits::<32, 5>::new(s)),
        64 => hdl(ValidBits::<64, 6>::new(s)),
        128 => hdl(ValidBits::<128, 7>::new(s)),
        256 => hdl(ValidBits::<256, 8>::new(s)),
        512 => hdl(ValidBits::<512, 9>::new(s)),
        1024 => hdl(ValidBits::<1024, 10>::new(s)),
        d => panic!("table depth {d} is outside the range the config validates"),
    }
}

fn table_hdl(copies: usize, banks: usize, tg: usize, uw: usize, ent: usize, gw: usize) -> Result<String, String> {
    crate::dispatch_width!(tg + uw + ent + gw, D => hdl(TableData::<D>::new(copies, banks, tg, uw, ent, gw));
        2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40
        41 42 43 44 45)
}

fn ent_hdl(g: &Geo) -> Result<String, String> {
    match g.ent {
        1 => hdl(EntPath::<1, 2>::new(g)),
        2 => hdl(EntPath::<2, 3>::new(g)),
        3 => hdl(EntPath::<3, 4>::new(g)),
        4 => hdl(EntPath::<4, 5>::new(g)),
        5 => hdl(EntPath::<5, 6>::new(g)),
        6 => hdl(EntPath::<6, 7>::new(g)),
        7 => hdl(EntPath::<7, 8>::new(g)),
        8 => hdl(EntPath::<8, 9>::new(g)),
        9 => hdl(EntPath::<9, 10>::new(g)),
        10 => hdl(EntPath::<10, 11>::new(g)),
        w => panic!("entity_width {w} is outside the range the config validates"),
    }
}

fn eu_hdl(g: &Geo) -> Result<String, String> {
    match g.uw {
        1 => hdl(EuPath::<1, 2>::new(g)),
        2 => hdl(EuPath::<2, 3>::new(g)),
        3 => hdl(EuPath::<3, 4>::new(g)),
        4 => hdl(EuPath::<4, 5>::new(g)),
        5 => hdl(EuPath::<5, 6>::new(g)),
        w => panic!("EU id width {w} is outside the range the config validates"),
    }
}

/// The core netlist (see the module doc for the designs).
fn core(g: &Geo) -> Result<String, String> {
    let ports: Vec<PortDecl> = wrapper(g)
        .ports()
        .map(|p| PortDecl { name: p.name.clone(), dir: p.dir, width: p.width() })
        .collect();
    let mut nl = Netlist::new(ports);
    let (n, k) = (g.n, g.k());
    let chan = |t: usize| ["vp", "tp", "xp", "pp"][t];
    let slot = |t: usize| g.slot(t).expect("present type");

    // Nets between the designs.
    nl.wire("load", k);
    nl.wire("gnt", k);
    nl.wire("sticky", 1);
    nl.wire("ack", n);
    nl.wire("res_fit", k * n);
    nl.wire("ent_nz", n);
    nl.wire("prio", k * n * g.prw);
    nl.wire("res_rd", g.rw);
    nl.wire("ent_rd", g.fw);
    nl.wire("idx_rd", g.iw);
    nl.wire("eu_rd", g.prw);
    nl.wire("res_err", 1);
    nl.wire("ent_err", 1);
    let looks_vtx = usize::from(g.vtx);
    let looks = looks_vtx + if g.vdt_ram { 3 } else { 0 };
    if g.vtx {
        for w in ["vtx_indexed", "vtx_w", "vtx_adv", "vp_bad"] {
            nl.wire(w, 1);
        }
        nl.wire("vtx_slot", g.aw);
    }
    if g.patch {
        for w in ["patch_indexed", "patch_w", "patch_adv", "pp_bad", "vdt_glook"] {
            nl.wire(w, 1);
        }
        nl.wire("patch_slot", g.aw);
    }
    if g.has_vdt {
        nl.wire("w_slot", g.aw);
        nl.wire("vdt_rel_err", 1);
        if looks > 0 {
            nl.wire("vdt_look", looks);
        }
    }
    if g.tri {
        nl.wire("tri_w", 1);
        nl.wire("tri_prid", g.pw);
        nl.wire("pt_look", 1 + usize::from(g.pix));
        nl.wire("pt_rel_err", 1);
    }
    if g.pix {
        for w in ["xp_fire", "pix_clr", "ref_pix", "pt_fwd"] {
            nl.wire(w, 1);
        }
        nl.wire("pix_tid", g.pw);
        nl.wire("pt_raddr", g.pw);
        nl.wire("pt_wd", g.pt_bits());
        nl.wire("pt_rd", g.pt_bits());
        nl.wire("pt_rdata", g.pt_bits());
    }
    if g.any_ram() {
        nl.wire("sel_id", g.uw);
        nl.wire("ack_ent", g.ent);
    }
    let bb = g.bank_bits();
    if g.vdt_ram {
        nl.wire("tp_fire", 1);
        nl.wire("tri_hit", 3);
        nl.wire("tri_home", g.uw);
        nl.wire("tri_has_home", 1);
        nl.wire("tag_eq", 3);
        nl.wire("wben", g.pg);
        nl.wire("wtag", g.tw);
        if bb > 0 {
            nl.wire("wbank", bb);
        }
        for c in 0..3 {
            nl.wire(&format!("tri_slot_{c}"), g.aw);
            if bb > 0 {
                nl.wire(&format!("vdt_raddr_{c}"), bb);
            }
            nl.wire(&format!("vdt_rsel_{c}"), g.pg);
            nl.wire(&format!("vdt_fwd_{c}"), g.pg);
            nl.wire(&format!("vdt_rdata_{c}"), g.vdt_bits());
            for b in 0..g.pg {
                nl.wire(&format!("vdt_rd_{c}_{b}"), g.vdt_bits());
            }
        }
        for b in 0..g.pg {
            nl.wire(&format!("vdt_wd_{b}"), g.vdt_bits());
        }
    }
    let cfg = |i: &mut Instance, nl: &Netlist| {
        for s in ["clock", "reset", "cfg_valid", "cfg_we", "cfg_addr"] {
            i.pin(s, nl.net(s));
        }
    };

    // ctl
    let m = nl.design("ctl", &hdl(Ctl::new(g))?);
    let mut i = Instance::new(&m, "ctl");
    for s in ["clock", "reset", "cfg_valid", "cfg_we", "cfg_addr", "cfg_rvalid", "cfg_rdata", "busy", "stall", "st_slot_valid", "ar_type", "ar_vcount"] {
        i.pin(s, nl.net(s));
    }
    for s in ["err_vdt_miss", "err_pt_miss", "err_malformed", "err_credit", "err_release"] {
        i.pin(s, nl.net(s));
    }
    for (kk, t) in g.classes.iter().enumerate() {
        i.pin(&format!("c_valid${kk}"), nl.net(&format!("{}_valid", chan(*t))));
        i.pin(&format!("c_ready${kk}"), nl.net(&format!("{}_ready", chan(*t))));
        i.pin(&format!("load${kk}"), nl.bit("load", kk));
        i.pin(&format!("gnt${kk}"), nl.bit("gnt", kk));
        for e in 0..n {
            i.pin(&format!("fit${kk}${e}"), nl.bit("res_fit", kk * n + e));
            i.pin(&format!("prio${kk}${e}"), nl.bits("prio", (kk * n + e) * g.prw, g.prw).zext(8));
        }
    }
    i.pin("sticky", nl.net("sticky"));
    if g.vtx {
        i.pin("vp_indexed$0", nl.net("vp_indexed"));
        i.pin("vp_count$0", nl.net("vp_count").zext(8));
        i.pin("vp_bad$0", nl.net("vp_bad"));
        i.pin("vtx_blocked$0", nl.bit("vdt_look", 0));
        i.pin("vtx_indexed$0", nl.net("vtx_indexed"));
        i.pin("vtx_w$0", nl.net("vtx_w"));
        i.pin("vtx_adv$0", nl.net("vtx_adv"));
    }
    if g.patch {
        i.pin("pp_indexed$0", nl.net("pp_indexed"));
        i.pin("pp_bad$0", nl.net("pp_bad"));
        i.pin("patch_blocked$0", nl.net("vdt_glook"));
        i.pin("patch_indexed$0", nl.net("patch_indexed"));
        i.pin("patch_w$0", nl.net("patch_w"));
        i.pin("patch_adv$0", nl.net("patch_adv"));
    }
    if g.tri {
        i.pin("tri_blocked$0", nl.bit("pt_look", 0));
        i.pin("tri_w$0", nl.net("tri_w"));
        for c in 0..3 {
            i.pin(&format!("ar_ref_valid${c}"), nl.bit("ar_ref_valid", c));
        }
    }
    if g.vdt_ram {
        i.pin("tp_indexed$0", nl.net("tp_indexed"));
        i.pin("tp_fire$0", nl.net("tp_fire"));
        for c in 0..3 {
            i.pin(&format!("tri_vvalid${c}"), nl.bit("vdt_look", looks_vtx + c));
            i.pin(&format!("tri_tag_eq${c}"), nl.bit("tag_eq", c));
            i.pin(&format!("tri_hit${c}"), nl.bit("tri_hit", c));
        }
        i.pin("tri_home$0", nl.net("tri_home").zext(8));
        i.pin("tri_has_home$0", nl.net("tri_has_home"));
    }
    if g.pix {
        i.pin("xp_mask$0", nl.net("xp_mask"));
        i.pin("xp_last$0", nl.net("xp_last"));
        i.pin("pix_hit$0", nl.bit("pt_look", 1));
        i.pin("pix_home$0", nl.bits("pt_rdata", 0, g.uw).zext(8));
        i.pin("xp_fire$0", nl.net("xp_fire"));
        i.pin("pix_clr$0", nl.net("pix_clr"));
        i.pin("ar_pix_mask$0", nl.net("ar_pix_mask"));
        i.pin("ref_pix$0", nl.net("ref_pix"));
    }
    for e in 0..n {
        i.pin(&format!("edt_nz${e}"), nl.bit("ent_nz", e));
        i.pin(&format!("ar_ready${e}"), nl.bit("ar_ready", e));
        i.pin(&format!("ar_refuse${e}"), nl.bit("ar_refuse", e));
        i.pin(&format!("ar_valid${e}"), nl.bit("ar_valid", e));
        i.pin(&format!("ack${e}"), nl.bit("ack", e));
    }
    i.pin("credit_err$0", nl.net("res_err"));
    i.pin("credit_err$1", nl.net("ent_err"));
    let mut r = 0;
    if g.has_vdt {
        i.pin(&format!("release_err${r}"), nl.net("vdt_rel_err"));
        r += 1;
    }
    if g.tri {
        i.pin(&format!("release_err${r}"), nl.net("pt_rel_err"));
    }
    for b in 0..g.cw {
        i.pin(&format!("cfg_wdata${b}"), nl.bit("cfg_wdata", b));
    }
    for (x, w) in ["res_rd", "ent_rd", "idx_rd", "eu_rd"].iter().enumerate() {
        i.pin(&format!("rd_ext${x}"), nl.net(w).zext(32));
    }
    for b in 0..g.avw {
        i.pin(&format!("eu_avail_cnt${b}"), nl.bit("eu_avail_cnt", b));
    }
    nl.add(i);

    // res
    let m = nl.design("res", &crate::dispatch_width!(g.rw, R => hdl(ResPath::<R>::new(g)); 4 5 6 7 8 9 10 11 12 13 14 15 16)?);
    let mut i = Instance::new(&m, "res");
    cfg(&mut i, &nl);
    i.pin("cfg_wdata", nl.bits("cfg_wdata", 0, g.rw));
    i.pin("rd", nl.net("res_rd"));
    for e in 0..n {
        i.pin(&format!("cr_valid${e}"), nl.bit("cr_valid", e));
        i.pin(&format!("cr_res${e}"), nl.bits("cr_res", e * g.rw, g.rw));
        i.pin(&format!("ack${e}"), nl.bit("ack", e));
        i.pin(&format!("free${e}"), nl.bits("st_free_res", e * g.rw, g.rw));
    }
    for (kk, t) in g.classes.iter().enumerate() {
        i.pin(&format!("size_in${kk}"), nl.net(&format!("{}_size", chan(*t))));
        i.pin(&format!("load${kk}"), nl.bit("load", kk));
        i.pin(&format!("gnt${kk}"), nl.bit("gnt", kk));
        for e in 0..n {
            i.pin(&format!("fit${kk}${e}"), nl.bit("res_fit", kk * n + e));
        }
    }
    i.pin("sticky", nl.net("sticky"));
    i.pin("ar_footprint", nl.net("ar_footprint"));
    i.pin("ar_copy_size", nl.net("ar_copy_size"));
    i.pin("err", nl.net("res_err"));
    nl.add(i);

    // ent
    let m = nl.design("ent", &ent_hdl(g)?);
    let mut i = Instance::new(&m, "ent");
    cfg(&mut i, &nl);
    i.pin("cfg_wdata", nl.net("cfg_wdata"));
    i.pin("rd", nl.net("ent_rd"));
    for e in 0..n {
        i.pin(&format!("cr_valid${e}"), nl.bit("cr_valid", e));
        i.pin(&format!("cr_edt${e}"), nl.bit("cr_edt", e));
        i.pin(&format!("cr_type${e}"), nl.bits("cr_type", 2 * e, 2));
        i.pin(&format!("ack${e}"), nl.bit("ack", e));
        i.pin(&format!("nz${e}"), nl.bit("ent_nz", e));
        i.pin(&format!("free${e}"), nl.bits("st_free_edt", e * g.fw, g.fw));
        if g.any_ram() {
            i.pin(&format!("ar_ent${e}"), nl.bits("ar_ent", e * g.ent, g.ent));
        }
    }
    for kk in 0..k {
        i.pin(&format!("gnt${kk}"), nl.bit("gnt", kk));
    }
    i.pin("err", nl.net("ent_err"));
    if g.any_ram() {
        i.pin("ack_ent$0", nl.net("ack_ent"));
    }
    if g.vdt_ram {
        for c in 0..3 {
            i.pin(&format!("vdt_ent${c}"), nl.bits(&format!("vdt_rdata_{c}"), g.tw + g.uw, g.ent));
        }
    }
    if g.pix {
        i.pin("pt_ent$0", nl.bits("pt_rdata", g.uw, g.ent));
        i.pin("ref_pix$0", nl.net("ref_pix"));
    }
    if g.tri {
        for c in 0..3 {
            i.pin(&format!("ref_valid${c}"), nl.bit("ar_ref_valid", c));
            i.pin(&format!("ar_ref_ent${c}"), nl.bits("ar_ref_ent", c * g.ent, g.ent));
        }
    }
    nl.add(i);

    // idx
    let m = nl.design("idx", &crate::dispatch_width!(g.iw, I => hdl(IdxPath::<I>::new(g));
        8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)?);
    let mut i = Instance::new(&m, "idx");
    cfg(&mut i, &nl);
    i.pin("cfg_wdata", Ex::cat(vec![Ex::zeros(g.ew), nl.bits("cfg_wdata", g.ew, g.iw - g.ew)]));
    i.pin("rd", nl.net("idx_rd"));
    if g.vtx {
        let kv = slot(VTX);
        i.pin("vp_base$0", nl.net("vp_base_idx"));
        i.pin("vtx_load$0", nl.bit("load", kv));
        i.pin("vtx_indexed$0", nl.net("vtx_indexed"));
        i.pin("vtx_gnt$0", nl.bit("gnt", kv));
        i.pin("vtx_adv$0", nl.net("vtx_adv"));
        i.pin("vp_bad$0", nl.net("vp_bad"));
        for b in 0..g.aw {
            i.pin(&format!("vtx_slot$0${b}"), nl.bit("vtx_slot", b));
        }
        if g.vdt_ram {
            i.pin("vtx_w$0", nl.net("vtx_w"));
        }
    }
    if g.patch {
        let kp = slot(PATCH);
        i.pin("pp_base$0", nl.net("pp_base_idx"));
        i.pin("patch_load$0", nl.bit("load", kp));
        i.pin("patch_indexed$0", nl.net("patch_indexed"));
        i.pin("patch_gnt$0", nl.bit("gnt", kp));
        i.pin("patch_adv$0", nl.net("patch_adv"));
        i.pin("pp_bad$0", nl.net("pp_bad"));
        for b in 0..g.aw {
            i.pin(&format!("patch_slot$0${b}"), nl.bit("patch_slot", b));
        }
        if g.vdt_ram {
            i.pin("patch_w$0", nl.net("patch_w"));
        }
    }
    if g.has_vdt {
        i.pin("sticky$0", nl.net("sticky"));
        i.pin("ar_base_idx$0", nl.net("ar_base_idx"));
        for b in 0..g.aw {
            i.pin(&format!("w_slot$0${b}"), nl.bit("w_slot", b));
        }
    }
    if g.vdt_ram {
        let kt = slot(TRI);
        for b in 0..bb {
            i.pin(&format!("w_bank_addr${b}"), nl.bit("wbank", b));
        }
        for b in 0..g.pg {
            i.pin(&format!("w_bank_en${b}"), nl.bit("wben", b));
        }
        for b in 0..g.tw {
            i.pin(&format!("w_tag${b}"), nl.bit("wtag", b));
        }
        i.pin("tri_load$0", nl.bit("load", kt));
        i.pin("tp_fire$0", nl.net("tp_fire"));
        for c in 0..3 {
            i.pin(&format!("tp_vidx${c}"), nl.bits("tp_vidx", c * g.iw, g.iw));
            for b in 0..g.aw {
                i.pin(&format!("tri_slot${c}${b}"), nl.bit(&format!("tri_slot_{c}"), b));
            }
            for b in 0..bb {
                i.pin(&format!("rd_addr${c}${b}"), nl.bit(&format!("vdt_raddr_{c}"), b));
            }
            for b in 0..g.pg {
                i.pin(&format!("rd_sel${c}${b}"), nl.bit(&format!("vdt_rsel_{c}"), b));
                i.pin(&format!("fwd_hit${c}${b}"), nl.bit(&format!("vdt_fwd_{c}"), b));
            }
            i.pin(&format!("ram_tag${c}"), nl.bits(&format!("vdt_rdata_{c}"), 0, g.tw).zext(g.iw));
            if g.grp_field() {
                for b in 0..g.gw {
                    let at = g.tw + g.uw + g.ent + b;
                    i.pin(&format!("ram_grp${c}${b}"), nl.bit(&format!("vdt_rdata_{c}"), at));
                    i.pin(&format!("ar_ref_grp${c}${b}"), nl.bit("ar_ref_grp", c * g.gw + b));
                }
            }
            i.pin(&format!("tag_eq${c}"), nl.bit("tag_eq", c));
            i.pin(&format!("ref_valid${c}"), nl.bit("ar_ref_valid", c));
            for b in 0..g.ew {
                i.pin(&format!("ar_ref_elem${c}${b}"), nl.bit("ar_ref_elem", c * g.ew + b));
            }
        }
        if g.pix {
            i.pin("ref_pix$0", nl.net("ref_pix"));
        }
    }
    nl.add(i);

    // addr
    let m = nl.design("addr", &crate::with_width64!(g.adw, A => hdl(AddrPath::<A>::new(g)))?);
    let mut i = Instance::new(&m, "addr");
    i.pin("clock", nl.net("clock"));
    for (kk, t) in g.classes.iter().enumerate() {
        i.pin(&format!("src_in${kk}"), nl.net(&format!("{}_src_addr", chan(*t))));
        i.pin(&format!("load${kk}"), nl.bit("load", kk));
        i.pin(&format!("gnt${kk}"), nl.bit("gnt", kk));
    }
    i.pin("ar_src_addr", nl.net("ar_src_addr"));
    nl.add(i);

    // eu
    let m = nl.design("eu", &eu_hdl(g)?);
    let mut i = Instance::new(&m, "eu");
    cfg(&mut i, &nl);
    i.pin("cfg_wdata", nl.bits("cfg_wdata", 0, g.prw));
    i.pin("rd", nl.net("eu_rd"));
    for kk in 0..k {
        for s in 0..n {
            i.pin(&format!("prio${kk}${s}"), nl.bits("prio", (kk * n + s) * g.prw, g.prw));
        }
    }
    if g.eu_sel() {
        for e in 0..n {
            i.pin(&format!("sel${e}"), nl.bit("ar_valid", e));
        }
    }
    if g.any_ram() {
        i.pin("sel_id$0", nl.net("sel_id"));
    }
    if g.vdt_ram {
        for c in 0..3 {
            i.pin(&format!("tri_hit${c}"), nl.bit("tri_hit", c));
            i.pin(&format!("vdt_eu${c}"), nl.bits(&format!("vdt_rdata_{c}"), g.tw, g.uw));
        }
        i.pin("tri_home$0", nl.net("tri_home"));
        i.pin("tri_has_home$0", nl.net("tri_has_home"));
    }
    if g.pix {
        i.pin("pt_eu$0", nl.bits("pt_rdata", 0, g.uw));
        i.pin("ref_pix$0", nl.net("ref_pix"));
    }
    if g.tri {
        for c in 0..3 {
            i.pin(&format!("ref_valid${c}"), nl.bit("ar_ref_valid", c));
            i.pin(&format!("ar_ref_eu${c}"), nl.bits("ar_ref_eu", c * g.uw, g.uw));
        }
        i.pin("ar_global_ref$0", nl.net("ar_global_ref"));
    }
    nl.add(i);

    // prid, PT valid bits, PT data and RAM
    if g.tri {
        let kt = slot(TRI);
        let m = nl.design("prid", &crate::dispatch_width!(g.pw, W => hdl(PridPath::<W>::new(g)); 1 2 3 4 5 6 7 8 9 10)?);
        let mut i = Instance::new(&m, "prid");
        i.pin("clock", nl.net("clock"));
        i.pin("tp_prid", nl.net("tp_prid"));
        i.pin("tri_load", nl.bit("load", kt));
        i.pin("tri_gnt", nl.bit("gnt", kt));
        i.pin("tri_prid", nl.net("tri_prid"));
        i.pin("ar_prid", nl.net("ar_prid"));
        if g.pix {
            let kx = slot(PIX);
            i.pin("xp_tri_id$0", nl.net("xp_tri_id"));
            i.pin("pix_load$0", nl.bit("load", kx));
            i.pin("pix_gnt$0", nl.bit("gnt", kx));
            i.pin("xp_fire$0", nl.net("xp_fire"));
            i.pin("pix_tid$0", nl.net("pix_tid"));
            i.pin("tri_w$0", nl.net("tri_w"));
            i.pin("pt_raddr$0", nl.net("pt_raddr"));
            i.pin("fwd_hit$0", nl.net("pt_fwd"));
        }
        nl.add(i);

        let shape = ValidShape { rels: n, set_one: true, set_grp: false, clr: g.pix, looks: 1 + usize::from(g.pix), glook: false, pg: 1 };
        let m = nl.design("pt_valid", &valid_hdl(g.pd, &shape)?);
        let mut i = Instance::new(&m, "pt_valid");
        i.pin("clock", nl.net("clock"));
        i.pin("reset", nl.net("reset"));
        for e in 0..n {
            i.pin(&format!("rel_valid${e}"), nl.bit("pr_valid", e));
            i.pin(&format!("rel_addr${e}"), nl.bits("pr_id", e * g.pw, g.pw));
        }
        i.pin("set_one$0", nl.net("tri_w"));
        i.pin("set_addr$0", nl.net("tri_prid"));
        i.pin("look_addr$0", nl.net("tri_prid"));
        i.pin("look$0", nl.bit("pt_look", 0));
        if g.pix {
            i.pin("clr$0", nl.net("pix_clr"));
            i.pin("clr_addr$0", nl.net("pix_tid"));
            i.pin("look_addr$1", nl.net("pix_tid"));
            i.pin("look$1", nl.bit("pt_look", 1));
        }
        i.pin("valid", nl.net("st_pt_valid"));
        i.pin("err_release", nl.net("pt_rel_err"));
        nl.add(i);
    }
    if g.pix {
        let m = nl.design("pt_data", &table_hdl(1, 1, 0, g.uw, g.ent, 0)?);
        let mut i = Instance::new(&m, "pt_data");
        i.pin("clock", nl.net("clock"));
        i.pin("reset", nl.net("reset"));
        for b in 0..g.uw {
            i.pin(&format!("w_eu${b}"), nl.bit("sel_id", b));
        }
        for b in 0..g.ent {
            i.pin(&format!("w_ent${b}"), nl.bit("ack_ent", b));
        }
        i.pin("rd$0", nl.net("pt_rdata"));
        i.pin("wdata$0", nl.net("pt_wd"));
        i.pin("fwd_hit$0$0", nl.net("pt_fwd"));
        i.pin("rd_sel$0$0", Ex::bit(true));
        i.pin("ram$0$0", nl.net("pt_rd"));
        nl.add(i);
        let m = nl.text_module("top$pt_ram", crate::mem::sync_ram_module("top$pt_ram", g.pt_bits(), g.pw));
        let mut i = Instance::new(&m, "pt_ram");
        i.pin("clock", nl.net("clock"));
        i.pin("write_enable", nl.net("tri_w"));
        i.pin("write_address", nl.net("tri_prid"));
        i.pin("write_data", nl.net("pt_wd"));
        i.pin("read_enable", Ex::bit(true));
        i.pin("read_address", nl.net("pt_raddr"));
        i.pin("read_data", nl.net("pt_rd"));
        nl.add(i);
    }

    // VDT valid bits, data and RAMs
    if g.has_vdt {
        let shape = ValidShape { rels: n, set_one: g.vtx, set_grp: g.patch, clr: false, looks, glook: g.patch, pg: g.pg };
        let m = nl.design("vdt_valid", &valid_hdl(g.vd, &shape)?);
        let mut i = Instance::new(&m, "vdt_valid");
        i.pin("clock", nl.net("clock"));
        i.pin("reset", nl.net("reset"));
        for e in 0..n {
            i.pin(&format!("rel_valid${e}"), nl.bit("vr_valid", e));
            i.pin(&format!("rel_addr${e}"), nl.bits("vr_slot", e * g.aw, g.aw));
        }
        if g.vtx {
            i.pin("set_one$0", nl.net("vtx_w"));
            i.pin("look_addr$0", nl.net("vtx_slot"));
        }
        if g.patch {
            i.pin("set_grp$0", nl.net("patch_w"));
            i.pin("glook_addr$0", nl.net("patch_slot"));
            i.pin("glook$0", nl.net("vdt_glook"));
        }
        i.pin("set_addr$0", nl.net("w_slot"));
        if g.vdt_ram {
            for c in 0..3 {
                i.pin(&format!("look_addr${}", looks_vtx + c), nl.net(&format!("tri_slot_{c}")));
            }
        }
        for l in 0..looks {
            i.pin(&format!("look${l}"), nl.bit("vdt_look", l));
        }
        i.pin("valid", nl.net("st_vdt_valid"));
        i.pin("err_release", nl.net("vdt_rel_err"));
        nl.add(i);
    }
    if g.vdt_ram {
        let gw = if g.grp_field() { g.gw } else { 0 };
        let m = nl.design("vdt_data", &table_hdl(3, g.pg, g.tw, g.uw, g.ent, gw)?);
        let mut i = Instance::new(&m, "vdt_data");
        i.pin("clock", nl.net("clock"));
        i.pin("reset", nl.net("reset"));
        for b in 0..g.tw {
            i.pin(&format!("w_tag${b}"), nl.bit("wtag", b));
        }
        for b in 0..g.uw {
            i.pin(&format!("w_eu${b}"), nl.bit("sel_id", b));
        }
        for b in 0..g.ent {
            i.pin(&format!("w_ent${b}"), nl.bit("ack_ent", b));
        }
        if gw > 0 {
            i.pin("w_grp_on$0", nl.net("patch_w"));
        }
        for bank in 0..g.pg {
            i.pin(&format!("wdata${bank}"), nl.net(&format!("vdt_wd_{bank}")));
        }
        for c in 0..3 {
            for bank in 0..g.pg {
                i.pin(&format!("fwd_hit${c}${bank}"), nl.bit(&format!("vdt_fwd_{c}"), bank));
                i.pin(&format!("rd_sel${c}${bank}"), nl.bit(&format!("vdt_rsel_{c}"), bank));
                i.pin(&format!("ram${c}${bank}"), nl.net(&format!("vdt_rd_{c}_{bank}")));
            }
            i.pin(&format!("rd${c}"), nl.net(&format!("vdt_rdata_{c}")));
        }
        nl.add(i);
        let ab = g.bank_ram_bits();
        let m = nl.text_module("top$vdt_ram", crate::mem::sync_ram_module("top$vdt_ram", g.vdt_bits(), ab));
        let addr = |nl: &Netlist, name: &str| if bb > 0 { nl.net(name) } else { Ex::bit(false) };
        for c in 0..3 {
            for bank in 0..g.pg {
                let mut i = Instance::new(&m, &format!("vdt_ram_{c}_{bank}"));
                i.pin("clock", nl.net("clock"));
                i.pin("write_enable", nl.bit("wben", bank));
                i.pin("write_address", addr(&nl, "wbank"));
                i.pin("write_data", nl.net(&format!("vdt_wd_{bank}")));
                i.pin("read_enable", Ex::bit(true));
                i.pin("read_address", addr(&nl, &format!("vdt_raddr_{c}")));
                i.pin("read_data", nl.net(&format!("vdt_rd_{c}_{bank}")));
                nl.add(i);
            }
        }
    }
    // Reference fields this config does not have.
    if g.tri && !g.vdt_ram {
        nl.tie("ar_ref_elem", Ex::zeros(3 * g.ew));
    }
    if g.tri && !g.grp_field() {
        nl.tie("ar_ref_grp", Ex::zeros(3 * g.gw));
    }
    Ok(nl.verilog())
}

#[cfg(test)]
mod tests {
    use crate::{generate, Config};

    fn emit(sets: &[&str]) -> crate::Emitted {
        let sets: Vec<String> = sets.iter().map(|s| format!("global_spreader.{s}")).collect();
        generate(&Config::embedded(&sets).unwrap(), "global_spreader").unwrap()
    }

    fn widths(e: &crate::Emitted) -> Vec<(&str, usize)> {
        e.ports.iter().map(|p| (p.name.as_str(), p.width())).collect()
    }

    #[test]
    fn default_ports_are_the_contracts() {
        // Contract §3 at the defaults: 5 EUs (EU_W 3), IDX_W 16, RES_W 12, ENT_W 8 (FE_W 9),
        // ADDR_W 32, VGRP 8 (VCNT_W 4, ELEM_W 3), VDT/PT 256 (VDT_AW = PRID_W = 8), PG 2 (GRP_W 1).
        let e = emit(&[]);
        let want = [
            ("clock", 1), ("reset", 1),
            ("vp_valid", 1), ("vp_ready", 1), ("vp_indexed", 1), ("vp_base_idx", 16), ("vp_count", 4), ("vp_size", 12), ("vp_src_addr", 32),
            ("pp_valid", 1), ("pp_ready", 1), ("pp_indexed", 1), ("pp_base_idx", 16), ("pp_size", 12), ("pp_src_addr", 32),
            ("tp_valid", 1), ("tp_ready", 1), ("tp_indexed", 1), ("tp_vidx", 48), ("tp_prid", 8), ("tp_size", 12), ("tp_src_addr", 32),
            ("xp_valid", 1), ("xp_ready", 1), ("xp_tri_id", 8), ("xp_mask", 16), ("xp_last", 1), ("xp_size", 12), ("xp_src_addr", 32),
            ("ar_valid", 5), ("ar_type", 2), ("ar_footprint", 12), ("ar_copy_size", 12), ("ar_src_addr", 32), ("ar_vcount", 5),
            ("ar_base_idx", 16), ("ar_prid", 8), ("ar_pix_mask", 16), ("ar_global_ref", 1), ("ar_ref_valid", 3),
            ("ar_ref_eu", 9), ("ar_ref_ent", 24), ("ar_ref_elem", 9), ("ar_ref_grp", 3),
            ("ar_ready", 5), ("ar_refuse", 5), ("ar_ent", 40),
            ("cr_valid", 5), ("cr_res", 60), ("cr_edt", 5), ("cr_type", 10),
            ("vr_valid", 5), ("vr_slot", 40), ("pr_valid", 5), ("pr_id", 40),
            ("cfg_valid", 1), ("cfg_we", 1), ("cfg_addr", 10), ("cfg_wdata", 32), ("cfg_rvalid", 1), ("cfg_rdata", 32),
            ("err_vdt_miss", 1), ("err_pt_miss", 1), ("err_malformed", 1), ("err_credit", 1), ("err_release", 1),
            ("busy", 1), ("stall", 1), ("eu_avail_cnt", 3), ("st_slot_valid", 4), ("st_free_res", 60), ("st_free_edt", 45),
            ("st_vdt_valid", 256), ("st_pt_valid", 256),
        ];
        assert_eq!(widths(&e), want);
    }

    #[test]
    fn ports_follow_the_config() {
        // One EU, vertices only, smallest widths: no triangle/pixel/patch ports, no PT.
        let e = emit(&[
            "eus=1", "entity_types=[\"vertex\"]", "vertices_per_group=16", "vdt_depth=4", "index_width=8",
            "res_width=4", "entity_width=1", "addr_width=8",
        ]);
        let w = widths(&e);
        for absent in ["tp_valid", "xp_valid", "pp_valid", "ar_prid", "ar_ref_valid", "pr_valid", "st_pt_valid", "ar_pix_mask"] {
            assert!(w.iter().all(|(n, _)| *n != absent), "{absent} present: {w:?}");
        }
        for (p, width) in [
            ("vp_base_idx", 8), ("vp_count", 5), ("vp_size", 4), ("vp_src_addr", 8), ("ar_valid", 1), ("ar_ent", 1),
            ("vr_slot", 2), ("st_vdt_valid", 4), ("st_free_edt", 2), ("eu_avail_cnt", 1), ("ar_base_idx", 8),
        ] {
            assert!(w.contains(&(p, width)), "{p} {width}: {w:?}");
        }
        // Three EUs, triangles and pixels only: a PT but no VDT.
        let e = emit(&["eus=3", "entity_types=[\"pixel\", \"triangle\"]", "pt_depth=64", "entity_width=10"]);
        let w = widths(&e);
        for (p, width) in [("ar_ref_eu", 6), ("ar_ref_ent", 30), ("pr_id", 18), ("st_pt_valid", 64), ("tp_vidx", 48), ("eu_avail_cnt", 2)] {
            assert!(w.contains(&(p, width)), "{p} {width}: {w:?}");
        }
        assert!(w.iter().all(|(n, _)| !n.starts_with("vr_") && *n != "st_vdt_valid" && *n != "ar_base_idx"), "{w:?}");
        // 32 EUs, widest fields; VGRP 4 puts a patch in 4 groups (GRP_W 2).
        let e = emit(&["eus=32", "vertices_per_group=4", "index_width=32", "addr_width=64", "res_width=16"]);
        let w = widths(&e);
        for (p, width) in [("ar_valid", 32), ("ar_ref_eu", 15), ("ar_ref_grp", 6), ("ar_ref_elem", 6), ("eu_avail_cnt", 6), ("vr_slot", 256), ("tp_vidx", 96), ("cr_res", 512)] {
            assert!(w.contains(&(p, width)), "{p} {width}: {w:?}");
        }
    }

    #[test]
    fn emission_is_deterministic_prefixed_and_exact() {
        let e = emit(&["eus=3", "res_width=5"]);
        assert_eq!(e.verilog, emit(&["eus=3", "res_width=5"]).verilog, "same config, same bytes");
        assert_ne!(e.verilog, emit(&["eus=3", "res_width=6"]).verilog);
        for line in e.verilog.lines().filter(|l| l.starts_with("module ")) {
            assert!(line.starts_with("module warpgen_global_spreader"), "{line}");
        }
        assert!(!e.verilog.contains('$'), "no rust-hdl path separators left");
        // Registers are exactly as wide as the config: RES_W 5, FE_W 9, IDX_W 16, ADDR_W 32,
        // PRIO_W 3 (EU_W 2), the 256 valid bits of each table; no 12-bit register remains.
        for w in [5, 9, 16, 32, 3, 256] {
            assert!(e.verilog.contains(&format!("module warpgen_global_spreader_dff_w{w}(")), "dff_w{w}");
        }
        assert!(!e.verilog.contains("module warpgen_global_spreader_dff_w12("));
        // The tables are synchronous-read RAMs: VDT words {tag 5, eu 2, ent 8, grp 1} in
        // 2 banks of 128 per copy, PT words {eu 2, ent 8} of 256.
        assert!(e.verilog.contains("reg [15:0] mem [0:127];"), "VDT bank");
        assert!(e.verilog.contains("reg [9:0] mem [0:255];"), "PT");
        assert_eq!(e.verilog.matches("warpgen_global_spreader_vdt_ram vdt_ram_").count(), 6);
        assert_eq!(e.verilog.matches("warpgen_global_spreader_pt_ram pt_ram(").count(), 1);
    }

    #[test]
    fn header_lists_the_resolved_parameters() {
        let e = emit(&["eus=3", "priority={pixel=[2]}", "dedicated={triangle=[0,2]}"]);
        assert!(e.verilog.contains("//   pixel: priority (PRIO slots)"), "{}", &e.verilog[..2000]);
        assert!(e.verilog.contains("[2, 7, 7]"), "empty PRIO slots are all ones (PRIO_W 3)");
        assert!(e.verilog.contains("//   triangle: dedicated"));
        assert!(e.verilog.contains("[0, 2]"));
    }
}
