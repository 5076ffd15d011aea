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
//!   class priority PIX > TRI > PATCH > VTX.
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
//! Inputs are taken modulo their port widths, as the Verilog ports would truncate them.
//! Inputs of absent classes are ignored; outputs of absent ports are 0 / empty.
//! Outputs are functions of the registered state, except `*_ready` which also depends on
//! `ar_ready` of the same cycle (R3).

/// Type codes (contract): VTX 0, TRI 1, PIX 2, PATCH 3.
pub const VTX: usize = 0;
pub const TRI: usize = 1;
pub const PIX: usize = 2;
pub const PATCH: usize = 3;
/// Class priority for the grant: PIX > TRI > PATCH > VTX.
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

/// Block parameters: the keys of `[global_spreader]` (contract §2), by type code where a
/// key is a table of type names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobalSpreaderParams {
    /// `eus` (N_EU), 1..=32.
    pub eus: usize,
    /// `entity_types`: type t present.
    pub types: [bool; 4],
    /// `vertices_per_group` (VGRP): 4, 8 or 16.
    pub vgrp: u32,
    /// `vdt_depth`: power of two 4..=1024, >= 16/VGRP if patch.
    pub vdt_depth: usize,
    /// `pt_depth`: power of two 2..=1024.
    pub pt_depth: usize,
    /// `index_width` (IDX_W): 8..=32, > log2 VGRP + log2 vdt_depth.
    pub idx_w: u32,
    /// `res_width` (RES_W): 4..=16.
    pub res_w: u32,
    /// `entity_width` (ENT_W): 1..=10.
    pub ent_w: u32,
    /// `addr_width` (ADDR_W): 8..=64.
    pub addr_w: u32,
    /// `res_total` per EU: 0..=2^RES_W−1.
    pub res_total: Vec<u64>,
    /// `edt_total` per EU: 0..=2^ENT_W.
    pub edt_total: Vec<u64>,
    /// `min_res` by type code (absent types: ignored).
    pub min_res: [u64; 4],
    /// `frame_res` by type code.
    pub frame_res: [u64; 4],
    /// `priority` by type code: distinct EU ids < eus.
    pub priority: [Vec<usize>; 4],
    /// `dedicated` by type code, as a mask of EU ids.
    pub dedicated: [u64; 4],
    /// `eu_enable`, as a mask of EU ids.
    pub eu_enable: u64,
    /// `enable`, `locality`, `yield_enable`.
    pub enable: bool,
    pub locality: bool,
    pub yield_enable: bool,
}

impl Default for GlobalSpreaderParams {
    /// The contract's defaults (5 EUs, all types, VGRP 8, 256-entry tables, …).
    fn default() -> Self {
        Self::with_eus(5)
    }
}

impl GlobalSpreaderParams {
    /// The defaults of contract §2 with `eus` EUs.
    pub fn with_eus(eus: usize) -> Self {
        let all = ones(eus as u32);
        let res_w = 12;
        let ent_w = 8;
        let prio: Vec<usize> = (0..eus).collect();
        GlobalSpreaderParams {
            eus,
            types: [true; 4],
            vgrp: 8,
            vdt_depth: 256,
            pt_depth: 256,
            idx_w: 16,
            res_w,
            ent_w,
            addr_w: 32,
            res_total: vec![64.min(ones(res_w)); eus],
            edt_total: vec![1 << ent_w; eus],
            min_res: [0; 4],
            frame_res: [0; 4],
            priority: [prio.clone(), prio.clone(), prio.clone(), prio],
            dedicated: [all; 4],
            eu_enable: all,
            enable: true,
            locality: true,
            yield_enable: false,
        }
    }

    /// Lockstep configuration: 1 EU, defaults (256-entry tables).
    pub fn lockstep_1eu() -> Self {
        Self::with_eus(1)
    }
    /// Lockstep configuration: 3 EUs (patent Fig. 1), defaults.
    pub fn lockstep_3eu() -> Self {
        Self::with_eus(3)
    }
    /// Lockstep configuration: 5 EUs (patent Fig. 3), defaults.
    pub fn lockstep_5eu() -> Self {
        Self::with_eus(5)
    }
    /// Lockstep configuration: 16 EUs with 256-entry VDT and PT.
    pub fn lockstep_16eu() -> Self {
        Self::with_eus(16)
    }
    /// The four lockstep configurations, in order 1, 3, 5, 16 EUs.
    pub fn lockstep_configs() -> Vec<Self> {
        vec![Self::lockstep_1eu(), Self::lockstep_3eu(), Self::lockstep_5eu(), Self::lockstep_16eu()]
    }

    pub fn has(&self, t: usize) -> bool {
        self.types[t]
    }
    /// The VDT exists iff vertex or patch is present.
    pub fn has_vdt(&self) -> bool {
        self.types[VTX] || self.types[PATCH]
    }
    /// The PT exists iff triangle is present.
    pub fn has_pt(&self) -> bool {
        self.types[TRI]
    }
    /// EU_W = max(1, clog2 N_EU).
    pub fn eu_w(&self) -> u32 {
        clog2(self.eus as u64).max(1)
    }
    /// PRIO_W = EU_W + 1.
    pub fn prio_w(&self) -> u32 {
        self.eu_w() + 1
    }
    /// FE_W = ENT_W + 1.
    pub fn fe_w(&self) -> u32 {
        self.ent_w + 1
    }
    /// AV_W = clog2(N_EU + 1).
    pub fn av_w(&self) -> u32 {
        clog2(self.eus as u64 + 1)
    }
    /// ELEM_W = log2 VGRP.
    pub fn elem_w(&self) -> u32 {
        self.vgrp.trailing_zeros()
    }
    /// VCNT_W = clog2(VGRP + 1).
    pub fn vcnt_w(&self) -> u32 {
        clog2(self.vgrp as u64 + 1)
    }
    /// PG = 16/VGRP if patch is present, else 1.
    pub fn pg(&self) -> usize {
        if self.has(PATCH) {
            16 / self.vgrp as usize
        } else {
            1
        }
    }
    /// GRP_W = max(1, log2 PG).
    pub fn grp_w(&self) -> u32 {
        (self.pg().trailing_zeros()).max(1)
    }
    /// VDT_AW = log2 vdt_depth.
    pub fn vdt_aw(&self) -> u32 {
        self.vdt_depth.trailing_zeros()
    }
    /// PRID_W = log2 pt_depth.
    pub fn prid_w(&self) -> u32 {
        self.pt_depth.trailing_zeros()
    }
    /// VDT slot of vertex index i: (i >> log2 VGRP) mod vdt_depth.
    pub fn slot(&self, i: u64) -> usize {
        ((i >> self.elem_w()) as usize) & (self.vdt_depth - 1)
    }
    /// VDT tag of vertex index i: i >> (log2 VGRP + VDT_AW).
    pub fn vtag(&self, i: u64) -> u64 {
        i >> (self.elem_w() + self.vdt_aw())
    }
    pub fn idx_mask(&self) -> u64 {
        ones(self.idx_w)
    }
    pub fn res_mask(&self) -> u64 {
        ones(self.res_w)
    }
    pub fn ent_mask(&self) -> u64 {
        ones(self.ent_w)
    }
    pub fn addr_mask(&self) -> u64 {
        ones(self.addr_w)
    }
    pub fn eu_mask(&self) -> u64 {
        ones(self.eus as u32)
    }
    pub fn prid_mask(&self) -> u64 {
        self.pt_depth as u64 - 1
    }
    /// PRIO register reset value of type t, slot s: the TOML list, then all ones.
    pub fn prio_reset(&self, t: usize, s: usize) -> u64 {
        self.priority[t].get(s).map_or(ones(self.prio_w()), |&e| e as u64)
    }

    /// The ranges of contract §2.
    pub fn validate(&self) -> Result<(), String> {
        let bad = |what: &str| Err(format!("global_spreader parameter {what} out of range: {self:?}"));
        let pow2 = |n: usize, lo: usize, hi: usize| n.is_power_of_two() && (lo..=hi).contains(&n);
        if !(1..=32).contains(&self.eus) {
            return bad("eus");
        }
        if !self.types.iter().any(|&t| t) || (self.has(PIX) && !self.has(TRI)) {
            return bad("entity_types");
        }
        if ![4, 8, 16].contains(&self.vgrp) {
            return bad("vertices_per_group");
        }
        if !pow2(self.vdt_depth, 4, 1024) || (self.has(PATCH) && self.vdt_depth < 16 / self.vgrp as usize) {
            return bad("vdt_depth");
        }
        if !pow2(self.pt_depth, 2, 1024) {
            return bad("pt_depth");
        }
        if !(8..=32).contains(&self.idx_w) || self.idx_w <= self.elem_w() + self.vdt_aw() {
            return bad("index_width");
        }
        if !(4..=16).contains(&self.res_w) {
            return bad("res_width");
        }
        if !(1..=10).contains(&self.ent_w) {
            return bad("entity_width");
        }
        if !(8..=64).contains(&self.addr_w) {
            return bad("addr_width");
        }
        if self.res_total.len() != self.eus || self.res_total.iter().any(|&r| r > self.res_mask()) {
            return bad("res_total");
        }
        if self.edt_total.len() != self.eus || self.edt_total.iter().any(|&r| r > 1 << self.ent_w) {
            return bad("edt_total");
        }
        if self.min_res.iter().chain(&self.frame_res).any(|&r| r > self.res_mask()) {
            return bad("min_res/frame_res");
        }
        for list in &self.priority {
            let mut seen = 0u64;
            for &e in list {
                if e >= self.eus || seen >> e & 1 == 1 {
                    return bad("priority");
                }
                seen |= 1 << e;
            }
        }
        if self.dedicated.iter().any(|&m| m & !self.eu_mask() != 0) || self.eu_enable & !self.eu_mask() != 0 {
            return bad("dedicated/eu_enable");
        }
        Ok(())
    }
}

/// Block inputs for one cycle (every input port except `clock`). Per-EU one-bit vectors
/// are masks (bit e = EU e); per-EU multi-bit vectors have one element per EU (missing
/// elements read 0). Values wider than their port are truncated by the model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GlobalSpreaderInputs {
    /// Synchronous, active-high reset.
    pub reset: bool,
    // VTX channel
    pub vp_valid: bool,
    pub vp_indexed: bool,
    pub vp_base_idx: u64,
    pub vp_count: u64,
    pub vp_size: u64,
    pub vp_src_addr: u64,
    // PATCH channel
    pub pp_valid: bool,
    pub pp_indexed: bool,
    pub pp_base_idx: u64,
    pub pp_size: u64,
    pub pp_src_addr: u64,
    // TRI channel
    pub tp_valid: bool,
    pub tp_indexed: bool,
    /// v0, v1, v2 (`tp_vidx`, v0 in the low bits).
    pub tp_vidx: [u64; 3],
    pub tp_prid: u64,
    pub tp_size: u64,
    pub tp_src_addr: u64,
    // PIX channel
    pub xp_valid: bool,
    pub xp_tri_id: u64,
    pub xp_mask: u64,
    pub xp_last: bool,
    pub xp_size: u64,
    pub xp_src_addr: u64,
    // allocation answers
    pub ar_ready: u64,
    pub ar_refuse: u64,
    pub ar_ent: Vec<u64>,
    // credits
    pub cr_valid: u64,
    pub cr_res: Vec<u64>,
    pub cr_edt: u64,
    pub cr_type: Vec<u64>,
    // releases
    pub vr_valid: u64,
    pub vr_slot: Vec<u64>,
    pub pr_valid: u64,
    pub pr_id: Vec<u64>,
    // configuration
    pub cfg_valid: bool,
    pub cfg_we: bool,
    pub cfg_addr: u64,
    pub cfg_wdata: u64,
}

impl GlobalSpreaderInputs {
    /// All-zero inputs with the per-EU vectors sized to N_EU.
    pub fn idle(p: &GlobalSpreaderParams) -> Self {
        let z = vec![0; p.eus];
        GlobalSpreaderInputs {
            ar_ent: z.clone(),
            cr_res: z.clone(),
            cr_type: z.clone(),
            vr_slot: z.clone(),
            pr_id: z,
            ..Default::default()
        }
    }
    pub fn with_reset(mut self) -> Self {
        self.reset = true;
        self
    }
    /// A configuration write.
    pub fn write(mut self, addr: u64, data: u64) -> Self {
        self.cfg_valid = true;
        self.cfg_we = true;
        self.cfg_addr = addr;
        self.cfg_wdata = data;
        self
    }
    /// A configuration read.
    pub fn read(mut self, addr: u64) -> Self {
        self.cfg_valid = true;
        self.cfg_we = false;
        self.cfg_addr = addr;
        self
    }
    /// Is the channel of type t valid?
    pub fn valid(&self, t: usize) -> bool {
        [self.vp_valid, self.tp_valid, self.xp_valid, self.pp_valid][t]
    }
    /// The packet on channel t's payload (type code, masked to the port widths).
    pub fn packet(&self, p: &GlobalSpreaderParams, t: usize) -> Packet {
        let mut k = Packet { ty: t, ..Default::default() };
        match t {
            VTX => {
                k.indexed = self.vp_indexed;
                k.base_idx = self.vp_base_idx & p.idx_mask();
                k.count = self.vp_count & ones(p.vcnt_w());
                k.size = self.vp_size & p.res_mask();
                k.src_addr = self.vp_src_addr & p.addr_mask();
            }
            PATCH => {
                k.indexed = self.pp_indexed;
                k.base_idx = self.pp_base_idx & p.idx_mask();
                k.size = self.pp_size & p.res_mask();
                k.src_addr = self.pp_src_addr & p.addr_mask();
            }
            TRI => {
                k.indexed = self.tp_indexed && p.has_vdt();
                k.vidx = self.tp_vidx.map(|v| v & p.idx_mask());
                k.prid = self.tp_prid & p.prid_mask();
                k.size = self.tp_size & p.res_mask();
                k.src_addr = self.tp_src_addr & p.addr_mask();
            }
            _ => {
                k.prid = self.xp_tri_id & p.prid_mask();
                k.mask = self.xp_mask & 0xFFFF;
                k.last = self.xp_last;
                k.size = self.xp_size & p.res_mask();
                k.src_addr = self.xp_src_addr & p.addr_mask();
            }
        }
        k
    }
}

/// Block outputs for one cycle (every output port). Per-EU one-bit vectors are masks.
/// `in_reset` is not a port: it is set when the cycle's inputs assert `reset`; such
/// cycles are not compared (contract R13) and every DUT adapter copies it from its inputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GlobalSpreaderOutputs {
    pub in_reset: bool,
    pub vp_ready: bool,
    pub pp_ready: bool,
    pub tp_ready: bool,
    pub xp_ready: bool,
    pub ar_valid: u64,
    pub ar_type: u64,
    pub ar_footprint: u64,
    pub ar_copy_size: u64,
    pub ar_src_addr: u64,
    pub ar_vcount: u64,
    pub ar_base_idx: u64,
    pub ar_prid: u64,
    pub ar_pix_mask: u64,
    pub ar_global_ref: bool,
    /// Bit i = ref i valid.
    pub ar_ref_valid: u64,
    pub ar_ref_eu: [u64; 3],
    pub ar_ref_ent: [u64; 3],
    pub ar_ref_elem: [u64; 3],
    pub ar_ref_grp: [u64; 3],
    pub cfg_rvalid: bool,
    pub cfg_rdata: u64,
    pub err_vdt_miss: bool,
    pub err_pt_miss: bool,
    pub err_malformed: bool,
    pub err_credit: bool,
    pub err_release: bool,
    pub busy: bool,
    pub stall: bool,
    pub eu_avail_cnt: u64,
    /// Bit t = slot of type t full.
    pub st_slot_valid: u64,
    pub st_free_res: Vec<u64>,
    pub st_free_edt: Vec<u64>,
    pub st_vdt_valid: Vec<bool>,
    pub st_pt_valid: Vec<bool>,
}

impl GlobalSpreaderOutputs {
    /// `*_ready` of type t.
    pub fn ready(&self, t: usize) -> bool {
        [self.vp_ready, self.tp_ready, self.xp_ready, self.pp_ready][t]
    }
    /// The target EU of the request, if any.
    pub fn target(&self) -> Option<usize> {
        (self.ar_valid != 0).then(|| self.ar_valid.trailing_zeros() as usize)
    }
    /// The five error flags in STATUS order.
    pub fn errs(&self) -> [bool; 5] {
        [self.err_vdt_miss, self.err_pt_miss, self.err_malformed, self.err_credit, self.err_release]
    }
}

/// A packet as held in a slot (the union of the channel payloads; unused fields 0).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Packet {
    pub ty: usize,
    pub indexed: bool,
    pub base_idx: u64,
    pub count: u64,
    pub vidx: [u64; 3],
    /// TRI: `tp_prid`; PIX: `xp_tri_id`.
    pub prid: u64,
    pub mask: u64,
    pub last: bool,
    pub size: u64,
    pub src_addr: u64,
}

impl Packet {
    /// R2: count 0 or > VGRP (VTX); indexed VTX base mod VGRP != 0; indexed PATCH base
    /// mod 16 != 0.
    pub fn malformed(&self, p: &GlobalSpreaderParams) -> bool {
        match self.ty {
            VTX => {
                self.count == 0
                    || self.count > p.vgrp as u64
                    || (self.indexed && self.base_idx % p.vgrp as u64 != 0)
            }
            PATCH => self.indexed && self.base_idx % 16 != 0,
            _ => false,
        }
    }
}

/// A VDT entry {tag, eu, ent, grp} (D9).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VdtEntry {
    pub tag: u64,
    pub eu: usize,
    pub ent: u64,
    pub grp: u64,
}

/// A PT entry {eu, ent} (D9).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PtEntry {
    pub eu: usize,
    pub ent: u64,
}

/// One reference of a request (R4); fields are 0 when not valid.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ref {
    pub valid: bool,
    pub eu: usize,
    pub ent: u64,
    pub elem: u64,
    pub grp: u64,
}

/// The evaluation of one occupied slot in one cycle (R4–R6).
#[derive(Debug, Clone)]
pub struct Eval {
    pub base: u64,
    pub blocked: bool,
    pub refs: [Ref; 3],
    pub home: Option<usize>,
    /// size + FRAME_RES[type], exact.
    pub fp: u64,
    /// Candidates in order, with their fit.
    pub cands: Vec<(usize, bool)>,
    pub sel: Option<usize>,
}

/// A request as presented on `ar_*` (and what its ack applies).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub pkt: Packet,
    pub target: usize,
    pub base: u64,
    pub fp: u64,
    pub refs: [Ref; 3],
}

impl Request {
    pub fn ty(&self) -> usize {
        self.pkt.ty
    }
    /// `ar_global_ref`: some valid ref's EU differs from the target.
    pub fn global_ref(&self) -> bool {
        self.refs.iter().any(|r| r.valid && r.eu != self.target)
    }
    pub fn vcount(&self) -> u64 {
        match self.pkt.ty {
            VTX => self.pkt.count,
            PATCH => 16,
            TRI => 3,
            _ => 0,
        }
    }
}

/// The grant of one cycle.
#[derive(Debug, Clone)]
pub struct Grant {
    pub req: Request,
    /// Not a re-presentation of a held request.
    pub new: bool,
}

/// Everything decided in a cycle from the registered state (no inputs).
#[derive(Debug, Clone)]
pub struct Decision {
    /// Evaluation of each occupied slot, by type code.
    pub evals: [Option<Eval>; 4],
    pub grant: Option<Grant>,
}

/// Model mutations for the mutation tests (test builds only; the default is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Mutation {
    Off,
    /// The fit sees FREE_RES/FREE_EDT of one edge earlier (debit not forwarded).
    StaleFree,
    /// TRI/PIX references read the tables of one edge earlier (dispatch write not forwarded).
    StaleTables,
    /// A refusal does not add the EU to the refused mask.
    RefuseNoMask,
    /// A slot with no sel keeps its refused mask.
    MaskNeverCleared,
    /// The home candidate is used even when not in DED_MASK.
    HomeIgnoresDedicated,
    /// TRI home is always the first valid ref (no majority).
    NoMajority,
    /// YIELD_EN is ignored: always the first eligible slot.
    AlwaysYield,
    /// A held request is re-evaluated (target and payload may change).
    NotSticky,
    /// REJECT_CNT also counts on re-presentations of a held request.
    RejectOnEveryCycle,
    /// `*_ready` only when the slot is empty (no reload in the ack cycle).
    ReadyOnlyWhenEmpty,
    /// PEND +1 and −1 at one edge do not cancel (the decrement is dropped).
    PendNoCancel,
    /// A non-indexed PATCH takes AUTO_IDX without rounding up to 16.
    PatchNoRound,
    /// Refuse wins when an EU asserts both `ar_ready` and `ar_refuse`.
    RefuseWins,
    /// A W1C write clears a flag even when it is set at the same edge.
    ClearWins,
}

/// The registers of contract §2.1 that are stored (the rest are counters or state).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regs {
    pub en: bool,
    pub locality: bool,
    pub yield_en: bool,
    pub eu_enable: u64,
    pub auto_idx: u64,
    pub ded_mask: [u64; 4],
    pub min_res: [u64; 4],
    pub frame_res: [u64; 4],
    pub res_total: Vec<u64>,
    pub edt_total: Vec<u64>,
    /// PRIO[t][s], PRIO_W-bit values.
    pub prio: [Vec<u64>; 4],
}

impl Regs {
    /// The reset values (from the parameters, i.e. the TOML).
    pub fn reset(p: &GlobalSpreaderParams) -> Self {
        Regs {
            en: p.enable,
            locality: p.locality,
            yield_en: p.yield_enable,
            eu_enable: p.eu_enable,
            auto_idx: 0,
            ded_mask: p.dedicated,
            min_res: p.min_res,
            frame_res: p.frame_res,
            res_total: p.res_total.clone(),
            edt_total: p.edt_total.clone(),
            prio: std::array::from_fn(|t| (0..p.eus).map(|s| p.prio_reset(t, s)).collect()),
        }
    }
}

/// A slot: the packet taken in and its refused mask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub pkt: Packet,
    pub mask: u64,
}

/// The reference model: registered state and the rules R1–R13.
#[derive(Debug, Clone)]
pub struct GlobalSpreaderModel {
    pub(super) p: GlobalSpreaderParams,
    pub(super) r: Regs,
    pub(super) free_res: Vec<u64>,
    pub(super) free_edt: Vec<u64>,
    pub(super) reject_cnt: Vec<u64>,
    pub(super) nack_cnt: Vec<u64>,
    pub(super) alloc_cnt: Vec<[u64; 4]>,
    pub(super) pend: Vec<[u64; 4]>,
    pub(super) stall_cnt: u64,
    pub(super) err: [bool; 5],
    pub(super) vdt: Vec<VdtEntry>,
    pub(super) vdt_valid: Vec<bool>,
    pub(super) pt: Vec<PtEntry>,
    pub(super) pt_valid: Vec<bool>,
    pub(super) slots: [Option<Slot>; 4],
    /// The request presented in the previous cycle and neither acked nor refused.
    pub(super) held: Option<Request>,
    pub(super) cfg_rvalid: bool,
    pub(super) cfg_rdata: u64,
    /// Mutation tests only: the previous edge's free counters and tables.
    #[cfg(test)]
    pub(crate) mutation: Mutation,
    #[cfg(test)]
    prev: Option<Box<GlobalSpreaderModel>>,
}

impl GlobalSpreaderModel {
    /// A model in its reset state (R13). Panics on invalid parameters.
    pub fn new(p: &GlobalSpreaderParams) -> Self {
        if let Err(e) = p.validate() {
            panic!("{e}");
        }
        let vdt_n = if p.has_vdt() { p.vdt_depth } else { 0 };
        let pt_n = if p.has_pt() { p.pt_depth } else { 0 };
        GlobalSpreaderModel {
            p: p.clone(),
            r: Regs::reset(p),
            free_res: p.res_total.clone(),
            free_edt: p.edt_total.clone(),
            reject_cnt: vec![0; p.eus],
            nack_cnt: vec![0; p.eus],
            alloc_cnt: vec![[0; 4]; p.eus],
            pend: vec![[0; 4]; p.eus],
            stall_cnt: 0,
            err: [false; 5],
            vdt: vec![VdtEntry::default(); vdt_n],
            vdt_valid: vec![false; vdt_n],
            pt: vec![PtEntry::default(); pt_n],
            pt_valid: vec![false; pt_n],
            slots: Default::default(),
            held: None,
            cfg_rvalid: false,
            cfg_rdata: 0,
            #[cfg(test)]
            mutation: Mutation::Off,
            #[cfg(test)]
            prev: None,
        }
    }

    /// A model with a mutation (mutation tests).
    #[cfg(test)]
    pub(crate) fn mutant(p: &GlobalSpreaderParams, m: Mutation) -> Self {
        let mut s = Self::new(p);
        s.mutation = m;
        s
    }

    #[inline]
    fn mutated(&self, _m: Mutation) -> bool {
        #[cfg(test)]
        {
            self.mutation == _m
        }
        #[cfg(not(test))]
        {
            false
        }
    }

    pub fn params(&self) -> &GlobalSpreaderParams {
        &self.p
    }
    pub fn regs(&self) -> &Regs {
        &self.r
    }
    pub fn slot(&self, t: usize) -> Option<&Slot> {
        self.slots[t].as_ref()
    }

    // ---- evaluation (R4–R7) --------------------------------------------------------

    /// The state a fit or table lookup reads (the mutants read an older one).
    fn free_view(&self) -> (&[u64], &[u64]) {
        #[cfg(test)]
        if self.mutation == Mutation::StaleFree {
            if let Some(prev) = &self.prev {
                return (&prev.free_res, &prev.free_edt);
            }
        }
        (&self.free_res, &self.free_edt)
    }

    fn table_view(&self) -> (&[VdtEntry], &[bool], &[PtEntry], &[bool]) {
        #[cfg(test)]
        if self.mutation == Mutation::StaleTables {
            if let Some(prev) = &self.prev {
                return (&prev.vdt, &prev.vdt_valid, &prev.pt, &prev.pt_valid);
            }
        }
        (&self.vdt, &self.vdt_valid, &self.pt, &self.pt_valid)
    }

    /// R4 base of a VTX/PATCH packet (0 for the other types).
    fn base(&self, k: &Packet) -> u64 {
        let p = &self.p;
        match k.ty {
            VTX if k.indexed => k.base_idx,
            VTX => self.r.auto_idx,
            PATCH if k.indexed => k.base_idx,
            PATCH if self.mutated(Mutation::PatchNoRound) => self.r.auto_idx,
            PATCH => ((self.r.auto_idx + 15) & !15) & p.idx_mask(),
            _ => 0,
        }
    }

    /// R4 fit of EU e for footprint fp and type t.
    fn fits(&self, e: usize, fp: u64, t: usize) -> bool {
        let (free_res, free_edt) = self.free_view();
        free_res[e] >= fp && free_res[e] >= self.r.min_res[t] && free_edt[e] >= 1
    }

    /// R4–R6 for packet k with refused mask `mask`.
    pub fn evaluate(&self, k: &Packet, mask: u64) -> Eval {
        let p = &self.p;
        let t = k.ty;
        let (vdt, vdt_valid, pt, pt_valid) = self.table_view();
        let base = self.base(k);
        let blocked = match t {
            VTX => vdt_valid[p.slot(base)],
            PATCH => (0..p.pg()).any(|g| vdt_valid[(p.slot(base) + g) & (p.vdt_depth - 1)]),
            TRI => pt_valid[k.prid as usize],
            _ => false,
        };
        let mut refs = [Ref::default(); 3];
        if t == TRI && k.indexed {
            for (i, &v) in k.vidx.iter().enumerate() {
                let s = p.slot(v);
                if vdt_valid[s] && vdt[s].tag == p.vtag(v) {
                    let en = vdt[s];
                    refs[i] = Ref { valid: true, eu: en.eu, ent: en.ent, elem: v % p.vgrp as u64, grp: en.grp };
                }
            }
        } else if t == PIX && pt_valid[k.prid as usize] {
            let en = pt[k.prid as usize];
            refs[0] = Ref { valid: true, eu: en.eu, ent: en.ent, elem: 0, grp: 0 };
        }
        let home = match t {
            TRI => {
                let v: Vec<usize> = refs.iter().filter(|r| r.valid).map(|r| r.eu).collect();
                let majority = v.iter().copied().find(|&e| v.iter().filter(|&&x| x == e).count() >= 2);
                if self.mutated(Mutation::NoMajority) {
                    v.first().copied()
                } else {
                    majority.or(v.first().copied())
                }
            }
            PIX => refs[0].valid.then_some(refs[0].eu),
            _ => None,
        };
        let fp = k.size + self.r.frame_res[t];

        // R5: home first (if allowed), then the priority list.
        let allowed = |e: usize| self.r.eu_enable >> e & 1 == 1 && self.r.ded_mask[t] >> e & 1 == 1;
        let mut list: Vec<usize> = Vec::with_capacity(p.eus + 1);
        if let Some(h) = home {
            let ded_ok = self.mutated(Mutation::HomeIgnoresDedicated) || self.r.ded_mask[t] >> h & 1 == 1;
            if self.r.locality && self.r.eu_enable >> h & 1 == 1 && ded_ok {
                list.push(h);
            }
        }
        for &v in &self.r.prio[t] {
            let e = v as usize;
            if v < p.eus as u64 && allowed(e) && !list.contains(&e) {
                list.push(e);
            }
        }
        let cands: Vec<(usize, bool)> = list.into_iter().map(|e| (e, self.fits(e, fp, t))).collect();
        // R6
        let sel = if blocked {
            None
        } else {
            cands.iter().find(|&&(e, fit)| fit && mask >> e & 1 == 0).map(|c| c.0)
        };
        Eval { base, blocked, refs, home, fp, cands, sel }
    }

    /// Evaluate every occupied slot and pick the grant (R4–R7).
    pub fn decide(&self) -> Decision {
        let evals: [Option<Eval>; 4] =
            std::array::from_fn(|t| self.slots[t].as_ref().map(|s| self.evaluate(&s.pkt, s.mask)));
        let request = |t: usize| -> Option<Grant> {
            let ev = evals[t].as_ref()?;
            let target = ev.sel?;
            Some(Grant {
                req: Request {
                    pkt: self.slots[t].as_ref().unwrap().pkt.clone(),
                    target,
                    base: ev.base,
                    fp: ev.fp,
                    refs: ev.refs,
                },
                new: true,
            })
        };
        let grant = if let (Some(h), false) = (&self.held, self.mutated(Mutation::NotSticky)) {
            Some(Grant { req: h.clone(), new: false })
        } else if self.r.yield_en || self.mutated(Mutation::AlwaysYield) {
            CLASS_PRIORITY.iter().find_map(|&t| request(t))
        } else {
            CLASS_PRIORITY.iter().find(|&&t| self.slots[t].is_some()).and_then(|&t| request(t))
        };
        Decision { evals, grant }
    }

    /// Is the grant acked this cycle (ack wins over refuse)?
    fn acked(&self, g: &Option<Grant>, i: &GlobalSpreaderInputs) -> bool {
        g.as_ref().is_some_and(|g| {
            let e = g.req.target;
            i.ar_ready >> e & 1 == 1 && !(self.mutated(Mutation::RefuseWins) && i.ar_refuse >> e & 1 == 1)
        })
    }

    /// R3 channel ready of type t.
    fn ready(&self, t: usize, d: &Decision, i: &GlobalSpreaderInputs) -> bool {
        if !self.p.has(t) || !self.r.en {
            return false;
        }
        let acked_here = self.acked(&d.grant, i) && d.grant.as_ref().unwrap().req.ty() == t;
        self.slots[t].is_none() || (acked_here && !self.mutated(Mutation::ReadyOnlyWhenEmpty))
    }

    // ---- outputs -------------------------------------------------------------------

    /// Combinational outputs for the current state and inputs (no state change).
    pub fn outputs(&self, i: &GlobalSpreaderInputs) -> GlobalSpreaderOutputs {
        let d = self.decide();
        self.outputs_of(&d, i)
    }

    fn outputs_of(&self, d: &Decision, i: &GlobalSpreaderInputs) -> GlobalSpreaderOutputs {
        let p = &self.p;
        let mut o = GlobalSpreaderOutputs {
            in_reset: i.reset,
            vp_ready: self.ready(VTX, d, i),
            tp_ready: self.ready(TRI, d, i),
            xp_ready: self.ready(PIX, d, i),
            pp_ready: self.ready(PATCH, d, i),
            cfg_rvalid: self.cfg_rvalid,
            cfg_rdata: self.cfg_rdata,
            err_vdt_miss: self.err[ERR_VDT_MISS],
            err_pt_miss: self.err[ERR_PT_MISS],
            err_malformed: self.err[ERR_MALFORMED],
            err_credit: self.err[ERR_CREDIT],
            err_release: self.err[ERR_RELEASE],
            busy: self.slots.iter().any(|s| s.is_some()),
            eu_avail_cnt: (0..p.eus).filter(|&e| self.r.eu_enable >> e & 1 == 1 && self.free_edt[e] != 0).count()
                as u64,
            st_slot_valid: (0..4).filter(|&t| self.slots[t].is_some()).map(|t| 1 << t).sum(),
            st_free_res: self.free_res.clone(),
            st_free_edt: self.free_edt.clone(),
            st_vdt_valid: self.vdt_valid.clone(),
            st_pt_valid: self.pt_valid.clone(),
            ..Default::default()
        };
        if let Some(g) = &d.grant {
            let r = &g.req;
            let k = &r.pkt;
            o.ar_valid = 1 << r.target;
            o.ar_type = k.ty as u64;
            o.ar_footprint = r.fp;
            o.ar_copy_size = k.size;
            o.ar_src_addr = k.src_addr;
            o.ar_vcount = r.vcount();
            if k.ty == VTX || k.ty == PATCH {
                o.ar_base_idx = r.base;
            }
            if k.ty == TRI || k.ty == PIX {
                o.ar_prid = k.prid;
            }
            if k.ty == PIX {
                o.ar_pix_mask = k.mask;
            }
            o.ar_global_ref = r.global_ref();
            for (n, rf) in r.refs.iter().enumerate() {
                o.ar_ref_valid |= u64::from(rf.valid) << n;
                o.ar_ref_eu[n] = rf.eu as u64;
                o.ar_ref_ent[n] = rf.ent;
                o.ar_ref_elem[n] = rf.elem;
                o.ar_ref_grp[n] = rf.grp;
            }
        }
        o.stall = o.busy && o.ar_valid == 0;
        o
    }

    // ---- configuration (R11) -------------------------------------------------------

    /// Value of the register at `addr` (STATUS busy/stall from `o`).
    pub fn read_reg(&self, addr: u64, o: &GlobalSpreaderOutputs) -> u64 {
        let p = &self.p;
        let n = p.eus;
        let a = addr & 0x3FF;
        let ty_ok = |t: usize| p.has(t);
        let err_bits: u64 = (0..5).map(|k| u64::from(self.err[k]) << (2 + k)).sum();
        match a {
            0x000 => u64::from(self.r.en) | u64::from(self.r.locality) << 1 | u64::from(self.r.yield_en) << 2,
            0x001 => self.r.eu_enable,
            0x002 => self.r.auto_idx,
            0x003 => u64::from(o.busy) | u64::from(o.stall) << 1 | err_bits,
            0x004 => self.stall_cnt,
            0x008..=0x00B if ty_ok((a - 0x008) as usize) => self.r.ded_mask[(a - 0x008) as usize],
            0x00C..=0x00F if ty_ok((a - 0x00C) as usize) => self.r.min_res[(a - 0x00C) as usize],
            0x010..=0x013 if ty_ok((a - 0x010) as usize) => self.r.frame_res[(a - 0x010) as usize],
            0x020..=0x0DF => {
                let e = (a & 0x1F) as usize;
                if e >= n {
                    return 0;
                }
                match a >> 5 {
                    1 => self.r.res_total[e],
                    2 => self.free_res[e],
                    3 => self.r.edt_total[e],
                    4 => self.free_edt[e],
                    5 => self.reject_cnt[e],
                    _ => self.nack_cnt[e],
                }
            }
            0x100..=0x17F => {
                let (t, s) = (((a - 0x100) / 32) as usize, ((a - 0x100) % 32) as usize);
                if ty_ok(t) && s < n {
                    self.r.prio[t][s]
                } else {
                    0
                }
            }
            0x180..=0x27F => {
                let off = if a >= 0x200 { a - 0x200 } else { a - 0x180 };
                let (e, t) = ((off / 4) as usize, (off % 4) as usize);
                if e >= n || !ty_ok(t) {
                    0
                } else if a >= 0x200 {
                    self.pend[e][t]
                } else {
                    self.alloc_cnt[e][t]
                }
            }
            _ => 0,
        }
    }

    /// Apply a configuration write (after every other effect of the edge).
    fn write_reg(&mut self, addr: u64, data: u64) {
        let p = self.p.clone();
        let n = p.eus;
        let a = addr & 0x3FF;
        let ty_ok = |t: usize| p.has(t);
        match a {
            0x000 => {
                self.r.en = data & 1 == 1;
                self.r.locality = data >> 1 & 1 == 1;
                self.r.yield_en = data >> 2 & 1 == 1;
            }
            0x001 => self.r.eu_enable = data & p.eu_mask(),
            0x002 => self.r.auto_idx = data & p.idx_mask() & !(p.vgrp as u64 - 1),
            0x003 => {} // W1C, applied with the flag update
            0x008..=0x00B if ty_ok((a - 0x008) as usize) => self.r.ded_mask[(a - 0x008) as usize] = data & p.eu_mask(),
            0x00C..=0x00F if ty_ok((a - 0x00C) as usize) => self.r.min_res[(a - 0x00C) as usize] = data & p.res_mask(),
            0x010..=0x013 if ty_ok((a - 0x010) as usize) => {
                self.r.frame_res[(a - 0x010) as usize] = data & p.res_mask()
            }
            0x020..=0x03F if ((a & 0x1F) as usize) < n => {
                let e = (a & 0x1F) as usize;
                self.r.res_total[e] = data & p.res_mask();
                self.free_res[e] = self.r.res_total[e];
            }
            0x060..=0x07F if ((a & 0x1F) as usize) < n => {
                let e = (a & 0x1F) as usize;
                self.r.edt_total[e] = (data & 0xFFFF_FFFF).min(1 << p.ent_w);
                self.free_edt[e] = self.r.edt_total[e];
            }
            0x100..=0x17F => {
                let (t, s) = (((a - 0x100) / 32) as usize, ((a - 0x100) % 32) as usize);
                if ty_ok(t) && s < n {
                    self.r.prio[t][s] = data & ones(p.prio_w());
                }
            }
            _ => {}
        }
    }

    // ---- the clock edge (R8–R13) ---------------------------------------------------

    /// One rising clock edge with inputs `i`.
    pub fn clock(&mut self, i: &GlobalSpreaderInputs) {
        #[cfg(test)]
        let before = matches!(self.mutation, Mutation::StaleFree | Mutation::StaleTables).then(|| {
            let mut b = self.clone();
            b.prev = None;
            Box::new(b)
        });
        self.edge(i);
        #[cfg(test)]
        {
            self.prev = before;
        }
    }

    fn edge(&mut self, i: &GlobalSpreaderInputs) {
        let p = self.p.clone();
        let n = p.eus;
        if i.reset {
            #[cfg(test)]
            let m = self.mutation;
            *self = Self::new(&p);
            #[cfg(test)]
            {
                self.mutation = m;
            }
            return;
        }
        let d = self.decide();
        let o = self.outputs_of(&d, i);
        let read = i.cfg_valid && !i.cfg_we;
        let write = i.cfg_valid && i.cfg_we;
        // R11: the value at m, read before any effect of this edge.
        let rdata = if read { self.read_reg(i.cfg_addr, &o) } else { 0 };
        let mut set = [false; 5];

        // R8 outcome of the request.
        let mut debit_res = vec![0u64; n];
        let mut debit_edt = vec![0u64; n];
        let mut pend_inc: Option<(usize, usize)> = None;
        let mut vdt_sets: Vec<(usize, VdtEntry)> = Vec::new();
        let mut pt_set: Option<(usize, PtEntry)> = None;
        let mut pt_clear: Option<usize> = None;
        let mut auto_next: Option<u64> = None;
        let acked = self.acked(&d.grant, i);
        let mut refused: Option<(usize, usize)> = None; // (slot type, EU)
        let mut next_held = None;
        if let Some(g) = &d.grant {
            let r = &g.req;
            let (e, t) = (r.target, r.ty());
            if g.new || self.mutated(Mutation::RejectOnEveryCycle) {
                if let Some(ev) = &d.evals[t] {
                    for &(c, fit) in ev.cands.iter().take_while(|c| c.0 != r.target) {
                        if !fit {
                            self.reject_cnt[c] = (self.reject_cnt[c] + 1) & 0xFFFF_FFFF;
                        }
                    }
                }
            }
            if acked {
                let ent = i.ar_ent.get(e).copied().unwrap_or(0) & p.ent_mask();
                debit_res[e] = r.fp;
                debit_edt[e] = 1;
                pend_inc = Some((e, t));
                self.alloc_cnt[e][t] = (self.alloc_cnt[e][t] + 1) & 0xFFFF_FFFF;
                match t {
                    VTX | PATCH => {
                        let groups = if t == VTX { 1 } else { p.pg() };
                        for g in 0..groups {
                            let en = VdtEntry { tag: p.vtag(r.base), eu: e, ent, grp: g as u64 };
                            vdt_sets.push(((p.slot(r.base) + g) & (p.vdt_depth - 1), en));
                        }
                        if !r.pkt.indexed {
                            let step = if t == VTX { p.vgrp as u64 } else { 16 };
                            auto_next = Some((r.base + step) & p.idx_mask());
                        }
                    }
                    TRI => {
                        pt_set = Some((r.pkt.prid as usize, PtEntry { eu: e, ent }));
                        if r.pkt.indexed && r.refs.iter().any(|x| !x.valid) {
                            set[ERR_VDT_MISS] = true;
                        }
                    }
                    _ => {
                        if r.pkt.last {
                            pt_clear = Some(r.pkt.prid as usize);
                        }
                        if !r.refs[0].valid {
                            set[ERR_PT_MISS] = true;
                        }
                    }
                }
            } else if i.ar_refuse >> e & 1 == 1 {
                refused = Some((t, e));
                self.nack_cnt[e] = (self.nack_cnt[e] + 1) & 0xFFFF_FFFF;
            } else {
                next_held = Some(r.clone());
            }
        }
        self.held = next_held;

        // Refused masks (R6, R8) and slot changes (R3, R8, R2).
        let never_clear = self.mutated(Mutation::MaskNeverCleared);
        let no_mask = self.mutated(Mutation::RefuseNoMask);
        for t in 0..4 {
            if let (Some(s), Some(ev)) = (self.slots[t].as_mut(), d.evals[t].as_ref()) {
                let clear = ev.sel.is_none() && !never_clear;
                let mut m = if clear { 0 } else { s.mask };
                if let Some((rt, e)) = refused {
                    if rt == t && !no_mask {
                        m |= 1 << e;
                    }
                }
                s.mask = m;
            }
        }
        if acked {
            self.slots[d.grant.as_ref().unwrap().req.ty()] = None;
        }
        for t in 0..4 {
            if o.ready(t) && i.valid(t) {
                let k = i.packet(&p, t);
                if k.malformed(&p) {
                    set[ERR_MALFORMED] = true;
                } else {
                    self.slots[t] = Some(Slot { pkt: k, mask: 0 });
                }
            }
        }

        // R10 releases (validity at m), then PIX-last clear, then dispatch writes (win).
        if p.has_vdt() {
            for e in 0..n {
                if i.vr_valid >> e & 1 == 1 {
                    let s = (i.vr_slot.get(e).copied().unwrap_or(0) as usize) & (p.vdt_depth - 1);
                    if !self.vdt_valid[s] {
                        set[ERR_RELEASE] = true;
                    }
                }
            }
            for e in 0..n {
                if i.vr_valid >> e & 1 == 1 {
                    let s = (i.vr_slot.get(e).copied().unwrap_or(0) as usize) & (p.vdt_depth - 1);
                    self.vdt_valid[s] = false;
                }
            }
        }
        if p.has_pt() {
            for e in 0..n {
                if i.pr_valid >> e & 1 == 1 {
                    let s = (i.pr_id.get(e).copied().unwrap_or(0) & p.prid_mask()) as usize;
                    if !self.pt_valid[s] {
                        set[ERR_RELEASE] = true;
                    }
                }
            }
            for e in 0..n {
                if i.pr_valid >> e & 1 == 1 {
                    let s = (i.pr_id.get(e).copied().unwrap_or(0) & p.prid_mask()) as usize;
                    self.pt_valid[s] = false;
                }
            }
        }
        if let Some(s) = pt_clear {
            self.pt_valid[s] = false;
        }
        for (s, en) in vdt_sets {
            self.vdt[s] = en;
            self.vdt_valid[s] = true;
        }
        if let Some((s, en)) = pt_set {
            self.pt[s] = en;
            self.pt_valid[s] = true;
        }
        if let Some(a) = auto_next {
            self.r.auto_idx = a;
        }

        // R9 counters.
        let pend_max = ones(p.fe_w());
        for e in 0..n {
            let cv = i.cr_valid >> e & 1 == 1;
            let cr = if cv { i.cr_res.get(e).copied().unwrap_or(0) & p.res_mask() } else { 0 };
            let ce = u64::from(cv && i.cr_edt >> e & 1 == 1);
            let (v, clamped) = clamp(self.free_res[e] as i64 + cr as i64 - debit_res[e] as i64, self.r.res_total[e]);
            self.free_res[e] = v;
            set[ERR_CREDIT] |= clamped;
            let (v, clamped) = clamp(self.free_edt[e] as i64 + ce as i64 - debit_edt[e] as i64, self.r.edt_total[e]);
            self.free_edt[e] = v;
            set[ERR_CREDIT] |= clamped;
            let dec_t = (i.cr_type.get(e).copied().unwrap_or(0) & 3) as usize;
            let dec = (ce == 1 && p.has(dec_t)).then_some(dec_t);
            for t in 0..4 {
                let inc = pend_inc == Some((e, t));
                let dec = dec == Some(t);
                let cur = self.pend[e][t];
                self.pend[e][t] = match (inc, dec) {
                    (true, true) if self.mutated(Mutation::PendNoCancel) => (cur + 1).min(pend_max),
                    (true, true) | (false, false) => cur,
                    (true, false) => (cur + 1).min(pend_max),
                    (false, true) if cur == 0 => {
                        set[ERR_CREDIT] = true;
                        0
                    }
                    (false, true) => cur - 1,
                };
            }
        }

        // R12 STALL_CNT, R11 read data, flags with W1C, then the write (wins).
        self.stall_cnt = (self.stall_cnt + u64::from(o.stall)) & 0xFFFF_FFFF;
        self.cfg_rdata = rdata;
        self.cfg_rvalid = read;
        let w1c = if write && i.cfg_addr & 0x3FF == reg::STATUS { i.cfg_wdata >> 2 & 0x1F } else { 0 };
        for k in 0..5 {
            let clr = w1c >> k & 1 == 1;
            self.err[k] = if self.mutated(Mutation::ClearWins) {
                (set[k] || self.err[k]) && !clr
            } else {
                set[k] || (self.err[k] && !clr)
            };
        }
        if write {
            self.write_reg(i.cfg_addr, i.cfg_wdata);
        }
    }
}

/// Clamp an exact counter value to [0, max]; true if it was clamped.
fn clamp(v: i64, max: u64) -> (u64, bool) {
    if v < 0 {
        (0, true)
    } else if v as u64 > max {
        (max, true)
    } else {
        (v as u64, false)
    }
}
