//! The block parameters: the keys of `[global_spreader]` (contract §2), their defaults, the
//! widths derived from them and the ranges they must be in.

use super::{clog2, ones, CLASS_PRIORITY, PATCH, PIX, TRI, VTX};

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
    /// `vdt_ways` (W, R15): the VDT's entries as W ways of vdt_depth / W sets; 1 (the default):
    /// direct mapped. 1, 2 or 4; W > 1 needs a VDT and at least 4 sets (and 16/VGRP with patch).
    pub vdt_ways: usize,
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
    /// `perf_counters`: the performance counters and `err_clr` (rules G1-G2).
    pub perf_counters: bool,
    /// `select`: R6's choice among the candidates that fit and have not refused.
    pub select: Select,
    /// `aging` (R7a): the age at which an eligible slot is granted before the class order;
    /// 0: no aging.
    pub aging: u64,
    /// `class_priority` (R7b): type codes, highest priority first; every built type once and no
    /// other. None: the key is absent, the fixed order [`CLASS_PRIORITY`] cut to the built types.
    pub class_priority: Option<Vec<usize>>,
    /// `class_priority_reg` (R7b): the ranks are the register CLASS_PRIO (0x005), reset from
    /// `class_priority`; false: they are constant.
    pub class_priority_reg: bool,
    /// `pixel_reorder` (R14): D, the entries of the pixel reorder buffer; 0: no ROB (the
    /// default), else a power of two 2..=64 (pixel must be built).
    pub pixel_reorder: usize,
    /// `resources` / `resource.<name>` (R16): the reset values of the resource kinds after the
    /// first, kind k at [k - 1] (at most 3); empty (the default): one kind, K = 1. Kind 0's are
    /// `res_total`, `min_res` and `frame_res`.
    pub more_kinds: Vec<ResKind>,
}

/// The reset values of a resource kind k >= 1 (R16: its table `resource.<name>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResKind {
    /// RES_TOTAL[e][k] per EU: 0..=2^RES_W-1.
    pub res_total: Vec<u64>,
    /// MIN_RES[t][k] and FRAME_RES[t][k] by type code.
    pub min_res: [u64; 4],
    pub frame_res: [u64; 4],
}

/// A value per resource kind (R16): kind k at [k]; the kinds the parameters do not have are 0.
pub type PerKind = [u64; 4];

/// `select` (contract R6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Select {
    /// The first candidate in candidate order (home, then PRIO).
    #[default]
    FirstFit,
    /// The home if it is a candidate (locality); else, of the PRIO candidates, the one with
    /// the most FREE_RES, ties to the first in PRIO order.
    LeastLoaded,
    /// The home if it is a candidate (locality); else, of the PRIO candidates, the first in
    /// circular EU order from RR_PTR (the EU after the last acked one).
    RoundRobin,
}

impl Select {
    /// Every value, the default first.
    pub const ALL: [Select; 3] = [Select::FirstFit, Select::LeastLoaded, Select::RoundRobin];

    /// The TOML value.
    pub fn name(self) -> &'static str {
        match self {
            Select::FirstFit => "first_fit",
            Select::LeastLoaded => "least_loaded",
            Select::RoundRobin => "round_robin",
        }
    }

    /// The value of TOML name `s`.
    pub fn from_name(s: &str) -> Option<Select> {
        Select::ALL.into_iter().find(|v| v.name() == s)
    }
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
            vdt_ways: 1,
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
            perf_counters: false,
            select: Select::FirstFit,
            aging: 0,
            class_priority: None,
            class_priority_reg: false,
            pixel_reorder: 0,
            more_kinds: Vec::new(),
        }
    }

    /// These parameters with K = `k` resource kinds (R16), the kinds after the first at the
    /// defaults of `resource.<name>` (RES_TOTAL min(64, 2^RES_W-1), MIN_RES and FRAME_RES 0).
    pub fn with_kinds(mut self, k: usize) -> Self {
        let kind = ResKind { res_total: vec![64.min(self.res_mask()); self.eus], min_res: [0; 4], frame_res: [0; 4] };
        self.more_kinds = vec![kind; k.saturating_sub(1)];
        self
    }

    /// The resource-kind lockstep shapes (contract R16): K = 2 at the 5-EU defaults with kind 1
    /// the smaller (RES_TOTAL [16, 16, 8, 8, 8], MIN_RES[vertex] 2, FRAME_RES[pixel] 1), and K = 4
    /// at 3 EUs with RES_W 6 (6-bit fields: kind 0 63 each, kind 1 [24, 12, 24], kind 2 [40, 40,
    /// 16], kind 3 [20, 30, 63] with MIN_RES and FRAME_RES of its own).
    pub fn kinds_lockstep_shapes() -> [Self; 2] {
        let mut k2 = Self::lockstep_5eu().with_kinds(2);
        k2.more_kinds[0] = ResKind { res_total: vec![16, 16, 8, 8, 8], min_res: [2, 0, 0, 0], frame_res: [0, 0, 1, 0] };
        let mut k4 = Self { res_w: 6, res_total: vec![63; 3], ..Self::lockstep_3eu() }.with_kinds(4);
        k4.more_kinds[0].res_total = vec![24, 12, 24];
        k4.more_kinds[1].res_total = vec![40, 40, 16];
        k4.more_kinds[2] = ResKind { res_total: vec![20, 30, 63], min_res: [0, 1, 0, 3], frame_res: [1, 0, 0, 2] };
        [k2, k4]
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
    /// VDT slot of vertex index i: (i >> log2 VGRP) mod vdt_depth (§2; direct mapped, W = 1,
    /// it is the entry's address; with W > 1 see [`Self::set_of`] and [`Self::entry`]).
    pub fn slot(&self, i: u64) -> usize {
        ((i >> self.elem_w()) as usize) & (self.vdt_depth - 1)
    }
    /// VDT tag of vertex index i (R15): i >> (log2 VGRP + SET_W); with W = 1, SET_W = VDT_AW
    /// and this is §2's vtag.
    pub fn vtag(&self, i: u64) -> u64 {
        i >> (self.elem_w() + self.set_w())
    }
    /// WAY_W = log2 W (R15): the width of `ar_vdt_way`, 0 when direct mapped.
    pub fn way_w(&self) -> u32 {
        self.vdt_ways.max(1).trailing_zeros()
    }
    /// SET_W = VDT_AW - WAY_W (R15).
    pub fn set_w(&self) -> u32 {
        self.vdt_aw() - self.way_w()
    }
    /// S = 2^SET_W = vdt_depth / W sets (R15).
    pub fn sets(&self) -> usize {
        1 << self.set_w()
    }
    /// The VDT set of vertex index i (R15): (i >> log2 VGRP) mod S; with W = 1, [`Self::slot`].
    pub fn set_of(&self, i: u64) -> usize {
        ((i >> self.elem_w()) as usize) & (self.sets() - 1)
    }
    /// The address {way, set} = way * S + set of a VDT entry (R15: `vr_slot`, `st_vdt_valid`).
    pub fn entry(&self, way: usize, set: usize) -> usize {
        way * self.sets() + (set & (self.sets() - 1))
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

    /// R7b: the class order the ranks come from, highest first: `class_priority`, or the fixed
    /// order cut to the built types.
    pub fn class_list(&self) -> Vec<usize> {
        match &self.class_priority {
            Some(l) => l.clone(),
            None => CLASS_PRIORITY.iter().copied().filter(|&t| self.has(t)).collect(),
        }
    }

    /// R7b: RANK[t] after reset by type code: t's position in [`Self::class_list`]; absent
    /// types 0.
    pub fn class_rank_reset(&self) -> [u64; 4] {
        let list = self.class_list();
        std::array::from_fn(|t| if self.has(t) { list.iter().position(|&u| u == t).unwrap_or(0) as u64 } else { 0 })
    }

    /// `class_priority` is given and differs from the fixed order cut to the built types.
    pub fn class_priority_changed(&self) -> bool {
        let fixed: Vec<usize> = CLASS_PRIORITY.iter().copied().filter(|&t| self.has(t)).collect();
        self.class_priority.as_ref().is_some_and(|l| *l != fixed)
    }

    /// R14: RB_W = log2 D, the width of `ar_seq`, `po_seq` and each `pc_seq` (0 without the ROB).
    pub fn rb_w(&self) -> u32 {
        self.pixel_reorder.trailing_zeros() * u32::from(self.pixel_reorder > 0)
    }

    /// K: the resource kinds (R16; 1 without `resources`).
    pub fn kinds(&self) -> usize {
        1 + self.more_kinds.len()
    }
    /// RES_TOTAL[e][k] after reset, by EU (R16; kind 0: `res_total`).
    pub fn res_total_of(&self, k: usize) -> &[u64] {
        if k == 0 { &self.res_total } else { &self.more_kinds[k - 1].res_total }
    }
    /// MIN_RES[t][k] after reset (R16; kind 0: `min_res`).
    pub fn min_res_of(&self, t: usize, k: usize) -> u64 {
        if k == 0 { self.min_res[t] } else { self.more_kinds[k - 1].min_res[t] }
    }
    /// FRAME_RES[t][k] after reset (R16; kind 0: `frame_res`).
    pub fn frame_res_of(&self, t: usize, k: usize) -> u64 {
        if k == 0 { self.frame_res[t] } else { self.more_kinds[k - 1].frame_res[t] }
    }
    /// A value per kind with `f(k)` for the kinds the parameters have, 0 for the rest.
    pub fn per_kind(&self, f: impl Fn(usize) -> u64) -> PerKind {
        std::array::from_fn(|k| if k < self.kinds() { f(k) } else { 0 })
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
        // R15: 1, 2 or 4 ways; more than one needs a VDT, and each way at least 4 sets (and the
        // 16 / VGRP groups of a patch), as rtl/src/config/global_spreader.rs checks.
        if ![1, 2, 4].contains(&self.vdt_ways) {
            return bad("vdt_ways");
        }
        if self.vdt_ways > 1 {
            let need = if self.has(PATCH) { 4.max(16 / self.vgrp as usize) } else { 4 };
            if !self.has_vdt() || self.vdt_depth / self.vdt_ways < need {
                return bad("vdt_ways");
            }
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
        // R16: at most 4 kinds; each kind's totals per EU and tables in range, as kind 0's.
        if self.more_kinds.len() > 3 {
            return bad("resources");
        }
        for k in &self.more_kinds {
            let tables = k.min_res.iter().chain(&k.frame_res);
            if k.res_total.len() != self.eus || k.res_total.iter().chain(tables).any(|&r| r > self.res_mask()) {
                return bad("resource.<name>");
            }
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
        if self.pixel_reorder != 0 && (!pow2(self.pixel_reorder, 2, 64) || !self.has(PIX)) {
            return bad("pixel_reorder");
        }
        if let Some(l) = &self.class_priority {
            // Every built type exactly once and no other (R7b).
            let mut seen = [false; 4];
            for &t in l {
                if t >= 4 || !self.has(t) || seen[t] {
                    return bad("class_priority");
                }
                seen[t] = true;
            }
            if seen != self.types {
                return bad("class_priority");
            }
        }
        Ok(())
    }
}

impl GlobalSpreaderParams {
    /// NCNT: the counters (0 without `perf_counters`; rule G1).
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { super::perf::NAMES.len() } else { 0 }
    }

    /// PSW, the width of `perf_sel`.
    pub fn perf_sel_w(&self) -> u32 {
        crate::perf::sel_width(super::perf::NAMES.len())
    }
}
