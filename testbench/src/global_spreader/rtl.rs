//! The Verilated `warpgen_global_spreader` behind the [`Dut`] interface.
//!
//! Ports follow contract §3 (and R14's with `pixel_reorder`: out `ar_seq`, `po_valid`,
//! `po_seq`, in `pc_valid`, `pc_seq`, `po_ready`; R15's out `ar_vdt_way` with `vdt_ways` > 1;
//! R16's widths with K resource kinds: `*_size` and `ar_footprint` K fields of RES_W, `cr_res`
//! and `st_free_res` N_EU * K fields, EU e's kind k at e * K + k);
//! ports of absent types / tables / keys do not exist in the Verilog and are neither driven nor
//! read (their model fields stay 0 / empty, and [`super::first_difference`] does not compare
//! them). `in_reset` is not a port: it is copied from the cycle's `reset` input, as the model
//! does.

use super::GlobalSpreader;
use super::model::{ResKind, Select};
use super::{Dut, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, PATCH, PIX, TRI, TYPE_NAMES, VTX};
use crate::harness::field;
use warpgen_rtl::config::GlobalSpreaderConfig;
use warpgen_rtl::{Config, Origin};
use warpgen_sim::{PortId, Sim};

/// The `[global_spreader]` TOML table that builds the block for model parameters `p`.
pub fn toml_for(p: &GlobalSpreaderParams) -> String {
    let list = |v: &mut dyn Iterator<Item = u64>| format!("[{}]", v.map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
    let mask_list = |m: u64| list(&mut (0..p.eus as u64).filter(|e| m >> e & 1 == 1));
    let present: Vec<usize> = (0..4).filter(|&t| p.has(t)).collect();
    let table = |f: &dyn Fn(usize) -> String| {
        format!("{{ {} }}", present.iter().map(|&t| format!("{} = {}", TYPE_NAMES[t], f(t))).collect::<Vec<_>>().join(", "))
    };
    let names = |v: &[usize]| v.iter().map(|&t| format!("\"{}\"", TYPE_NAMES[t])).collect::<Vec<_>>().join(", ");
    let types = names(&present);
    // R7b: `class_priority` only when given (absent: the fixed order cut to the built types).
    let class_priority = p.class_priority.as_ref().map_or(String::new(), |l| format!("class_priority = [{}]\n", names(l)));
    // R14: `pixel_reorder` only when the ROB exists (0, the default, builds none).
    let pixel_reorder =
        if p.pixel_reorder > 0 { format!("pixel_reorder = {}\n", p.pixel_reorder) } else { String::new() };
    // R15: `vdt_ways` only when set-associative (1, the default, is direct mapped).
    let vdt_ways = if p.vdt_ways > 1 { format!("vdt_ways = {}\n", p.vdt_ways) } else { String::new() };
    // R16: `resources` (named k0, k1, ...) and a `resource.<name>` table per kind after the
    // first, only with more than one kind (one kind, the default, has neither).
    let resources = if p.kinds() > 1 {
        let names: Vec<String> = (0..p.kinds()).map(|k| format!("\"k{k}\"")).collect();
        let tables: Vec<String> = p
            .more_kinds
            .iter()
            .enumerate()
            .map(|(j, r)| {
                format!(
                    "k{} = {{ res_total = {}, min_res = {}, frame_res = {} }}",
                    j + 1,
                    list(&mut r.res_total.iter().copied()),
                    table(&|t| r.min_res[t].to_string()),
                    table(&|t| r.frame_res[t].to_string())
                )
            })
            .collect();
        format!("resources = [{}]\nresource = {{ {} }}\n", names.join(", "), tables.join(", "))
    } else {
        String::new()
    };
    format!(
        "[global_spreader]\neus = {}\nentity_types = [{types}]\nvertices_per_group = {}\nvdt_depth = {}\npt_depth = {}\n\
         index_width = {}\nres_width = {}\nentity_width = {}\naddr_width = {}\nres_total = {}\nedt_total = {}\n\
         min_res = {}\nframe_res = {}\npriority = {}\ndedicated = {}\neu_enable = {}\nenable = {}\nlocality = {}\n\
         yield_enable = {}\nperf_counters = {}\nselect = \"{}\"\naging = {}\n\
         {class_priority}class_priority_reg = {}\n{pixel_reorder}{vdt_ways}{resources}",
        p.eus,
        p.vgrp,
        p.vdt_depth,
        p.pt_depth,
        p.idx_w,
        p.res_w,
        p.ent_w,
        p.addr_w,
        list(&mut p.res_total.iter().copied()),
        list(&mut p.edt_total.iter().copied()),
        table(&|t| p.min_res[t].to_string()),
        table(&|t| p.frame_res[t].to_string()),
        table(&|t| list(&mut p.priority[t].iter().map(|&e| e as u64))),
        table(&|t| mask_list(p.dedicated[t])),
        mask_list(p.eu_enable),
        p.enable,
        p.locality,
        p.yield_enable,
        p.perf_counters,
        p.select.name(),
        p.aging,
        p.class_priority_reg,
    )
}

/// The rtl config that builds the block for model parameters `p`, through the same
/// loader and validation as a user's file.
pub fn config_for(p: &GlobalSpreaderParams) -> Config {
    let text = toml_for(p);
    Config::load(Origin::File("<global_spreader test params>".into()), &text, &[])
        .unwrap_or_else(|e| panic!("model params {p:?} are not a valid config: {e}\n{text}"))
}

/// The model parameters of an rtl config's `[global_spreader]`: the one conversion from a
/// config (type codes 0 VTX, 1 TRI, 2 PIX, 3 PATCH in both).
impl From<&GlobalSpreaderConfig> for GlobalSpreaderParams {
    fn from(c: &GlobalSpreaderConfig) -> Self {
        let mask = |flags: Vec<bool>| flags.iter().enumerate().fold(0u64, |m, (e, &f)| m | (f as u64) << e);
        GlobalSpreaderParams {
            eus: c.eus as usize,
            types: [0, 1, 2, 3].map(|t| c.has_type(t)),
            vgrp: c.vertices_per_group as u32,
            vdt_depth: c.vdt_depth as usize,
            pt_depth: c.pt_depth as usize,
            idx_w: c.index_width as u32,
            res_w: c.res_width as u32,
            ent_w: c.entity_width as u32,
            addr_w: c.addr_width as u32,
            res_total: c.res_totals(),
            edt_total: c.edt_totals(),
            min_res: [0, 1, 2, 3].map(|t| c.min_res_of(t)),
            frame_res: [0, 1, 2, 3].map(|t| c.frame_res_of(t)),
            priority: [0, 1, 2, 3].map(|t| c.priority_of(t).into_iter().map(|e| e as usize).collect()),
            dedicated: [0, 1, 2, 3].map(|t| mask(c.dedicated_of(t))),
            eu_enable: mask(c.eu_enabled()),
            enable: c.enable,
            locality: c.locality,
            yield_enable: c.yield_enable,
            perf_counters: c.perf_counters,
            select: Select::from_name(&c.select).unwrap_or_else(|| panic!("select {:?}", c.select)),
            aging: c.aging as u64,
            class_priority: c.class_priority.as_ref().map(|l| {
                l.iter()
                    .map(|n| TYPE_NAMES.iter().position(|x| x == n).unwrap_or_else(|| panic!("class_priority {n:?}")))
                    .collect()
            }),
            class_priority_reg: c.class_priority_reg,
            pixel_reorder: c.pixel_reorder as usize,
            vdt_ways: c.vdt_ways as usize,
            more_kinds: (1..c.kinds())
                .map(|k| ResKind {
                    res_total: c.res_totals_of(k),
                    min_res: [0, 1, 2, 3].map(|t| c.min_res_kind(t, k)),
                    frame_res: [0, 1, 2, 3].map(|t| c.frame_res_kind(t, k)),
                })
                .collect(),
        }
    }
}

/// An input port with its packed per-item width (0: a scalar driven with one word).
struct In {
    id: PortId,
    what: InVal,
}

/// Which input field drives a port.
#[derive(Clone, Copy)]
enum InVal {
    Reset,
    VpValid,
    VpIndexed,
    VpBase,
    VpCount,
    VpSize,
    VpSrc,
    PpValid,
    PpIndexed,
    PpBase,
    PpSize,
    PpSrc,
    TpValid,
    TpIndexed,
    TpVidx,
    TpPrid,
    TpSize,
    TpSrc,
    XpValid,
    XpTri,
    XpMask,
    XpLast,
    XpSize,
    XpSrc,
    ArReady,
    ArRefuse,
    ArEnt,
    CrValid,
    CrRes,
    CrEdt,
    CrType,
    VrValid,
    VrSlot,
    PrValid,
    PrId,
    CfgValid,
    CfgWe,
    CfgAddr,
    CfgWdata,
    PerfSel,
    PerfClr,
    ErrClr,
    PcValid,
    PcSeq,
    PoReady,
}

/// Output ports (absent ones `None`).
struct Outs {
    ready: [Option<PortId>; 4],
    ar_valid: PortId,
    ar_type: PortId,
    ar_footprint: PortId,
    ar_copy_size: PortId,
    ar_src_addr: PortId,
    ar_vcount: PortId,
    ar_base_idx: Option<PortId>,
    ar_prid: Option<PortId>,
    ar_pix_mask: Option<PortId>,
    /// global_ref, ref_valid, ref_eu, ref_ent, ref_elem, ref_grp (if PT).
    refs: Option<[PortId; 6]>,
    cfg_rvalid: PortId,
    cfg_rdata: PortId,
    errs: [PortId; 5],
    busy: PortId,
    stall: PortId,
    eu_avail_cnt: PortId,
    st_slot_valid: PortId,
    st_free_res: PortId,
    st_free_edt: PortId,
    st_vdt_valid: Option<PortId>,
    st_pt_valid: Option<PortId>,
    perf_val: Option<PortId>,
    /// ar_seq, po_valid, po_seq (R14, with `pixel_reorder`).
    rob: Option<[PortId; 3]>,
    /// ar_vdt_way (R15, with `vdt_ways` > 1).
    ar_vdt_way: Option<PortId>,
}

/// The global spreader RTL in Verilator.
pub struct RtlGlobalSpreader {
    p: GlobalSpreaderParams,
    sim: Sim,
    ins: Vec<In>,
    outs: Outs,
    /// Scratch words for packing wide inputs.
    words: Vec<u64>,
}

/// Packs `w`-bit items, item k at `[k*w +: w]`, into little-endian words (cleared first).
fn pack_words(words: &mut Vec<u64>, items: impl IntoIterator<Item = u64>, w: u32) {
    words.clear();
    words.push(0);
    let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    for (k, v) in items.into_iter().enumerate() {
        let v = v & mask;
        let lo = k * w as usize;
        let (q, r) = (lo / 64, lo % 64);
        // The words the fields so far cover: ceil(bits / 64), at least one.
        words.resize(words.len().max((lo + w as usize).div_ceil(64)), 0);
        words[q] |= v << r;
        if r + w as usize > 64 {
            words[q + 1] |= v >> (64 - r);
        }
    }
}

impl RtlGlobalSpreader {
    /// Generates, builds (cached) and instantiates the RTL for `p`.
    pub fn new(p: &GlobalSpreaderParams, trace: bool) -> Result<Self, String> {
        let e = warpgen_rtl::generate(&config_for(p), "global_spreader")?;
        let sim = crate::build_block(&e, trace)
            .and_then(|m| m.instantiate())
            .map_err(|x| x.to_string())?;
        let id = |n: &str| sim.port(n).map_err(|x| x.to_string());
        let opt = |n: &str, present: bool| -> Result<Option<PortId>, String> { present.then(|| id(n)).transpose() };
        use InVal::*;
        let mut spec: Vec<(&str, InVal)> = vec![("reset", Reset)];
        if p.has(VTX) {
            spec.extend([
                ("vp_valid", VpValid),
                ("vp_indexed", VpIndexed),
                ("vp_base_idx", VpBase),
                ("vp_count", VpCount),
                ("vp_size", VpSize),
                ("vp_src_addr", VpSrc),
            ]);
        }
        if p.has(PATCH) {
            spec.extend([
                ("pp_valid", PpValid),
                ("pp_indexed", PpIndexed),
                ("pp_base_idx", PpBase),
                ("pp_size", PpSize),
                ("pp_src_addr", PpSrc),
            ]);
        }
        if p.has(TRI) {
            spec.extend([
                ("tp_valid", TpValid),
                ("tp_indexed", TpIndexed),
                ("tp_vidx", TpVidx),
                ("tp_prid", TpPrid),
                ("tp_size", TpSize),
                ("tp_src_addr", TpSrc),
            ]);
        }
        if p.has(PIX) {
            spec.extend([
                ("xp_valid", XpValid),
                ("xp_tri_id", XpTri),
                ("xp_mask", XpMask),
                ("xp_last", XpLast),
                ("xp_size", XpSize),
                ("xp_src_addr", XpSrc),
            ]);
        }
        spec.extend([
            ("ar_ready", ArReady),
            ("ar_refuse", ArRefuse),
            ("ar_ent", ArEnt),
            ("cr_valid", CrValid),
            ("cr_res", CrRes),
            ("cr_edt", CrEdt),
            ("cr_type", CrType),
        ]);
        if p.has_vdt() {
            spec.extend([("vr_valid", VrValid), ("vr_slot", VrSlot)]);
        }
        if p.has_pt() {
            spec.extend([("pr_valid", PrValid), ("pr_id", PrId)]);
        }
        spec.extend([("cfg_valid", CfgValid), ("cfg_we", CfgWe), ("cfg_addr", CfgAddr), ("cfg_wdata", CfgWdata)]);
        if p.perf_counters {
            spec.extend([("perf_sel", PerfSel), ("perf_clr", PerfClr), ("err_clr", ErrClr)]);
        }
        if p.pixel_reorder > 0 {
            spec.extend([("pc_valid", PcValid), ("pc_seq", PcSeq), ("po_ready", PoReady)]);
        }
        let ins = spec.into_iter().map(|(n, what)| Ok(In { id: id(n)?, what })).collect::<Result<Vec<_>, String>>()?;
        let outs = Outs {
            ready: [
                opt("vp_ready", p.has(VTX))?,
                opt("tp_ready", p.has(TRI))?,
                opt("xp_ready", p.has(PIX))?,
                opt("pp_ready", p.has(PATCH))?,
            ],
            ar_valid: id("ar_valid")?,
            ar_type: id("ar_type")?,
            ar_footprint: id("ar_footprint")?,
            ar_copy_size: id("ar_copy_size")?,
            ar_src_addr: id("ar_src_addr")?,
            ar_vcount: id("ar_vcount")?,
            ar_base_idx: opt("ar_base_idx", p.has_vdt())?,
            ar_prid: opt("ar_prid", p.has_pt())?,
            ar_pix_mask: opt("ar_pix_mask", p.has(PIX))?,
            refs: if p.has_pt() {
                Some([
                    id("ar_global_ref")?,
                    id("ar_ref_valid")?,
                    id("ar_ref_eu")?,
                    id("ar_ref_ent")?,
                    id("ar_ref_elem")?,
                    id("ar_ref_grp")?,
                ])
            } else {
                None
            },
            cfg_rvalid: id("cfg_rvalid")?,
            cfg_rdata: id("cfg_rdata")?,
            errs: [
                id("err_vdt_miss")?,
                id("err_pt_miss")?,
                id("err_malformed")?,
                id("err_credit")?,
                id("err_release")?,
            ],
            busy: id("busy")?,
            stall: id("stall")?,
            eu_avail_cnt: id("eu_avail_cnt")?,
            st_slot_valid: id("st_slot_valid")?,
            st_free_res: id("st_free_res")?,
            st_free_edt: id("st_free_edt")?,
            st_vdt_valid: opt("st_vdt_valid", p.has_vdt())?,
            st_pt_valid: opt("st_pt_valid", p.has_pt())?,
            perf_val: opt("perf_val", p.perf_counters)?,
            rob: if p.pixel_reorder > 0 { Some([id("ar_seq")?, id("po_valid")?, id("po_seq")?]) } else { None },
            ar_vdt_way: opt("ar_vdt_way", p.vdt_ways > 1)?,
        };
        Ok(RtlGlobalSpreader { p: p.clone(), sim, ins, outs, words: Vec::new() })
    }

    /// The simulation instance: waveforms, recorded stimulus.
    pub fn sim(&mut self) -> &mut Sim {
        &mut self.sim
    }

    fn drive_wide(&mut self, id: PortId, items: impl IntoIterator<Item = u64>, w: u32) {
        let mut words = std::mem::take(&mut self.words);
        pack_words(&mut words, items, w);
        self.sim.set_wide(id, &words).unwrap_or_else(|e| panic!("global_spreader input: {e}"));
        self.words = words;
    }

    /// `n` fields of `w` bits of packed output `o`.
    fn fields(&self, o: PortId, n: usize, w: u32) -> Vec<u64> {
        (0..n).map(|i| field(&self.sim, o, i * w as usize, w as usize)).collect()
    }

    /// A value per kind from RES_W fields `at`, `at` + 1, … of packed output `o`, `kinds` of
    /// them (R16; the kinds not built 0).
    fn per_kind(&self, o: PortId, at: usize, kinds: usize) -> super::model::PerKind {
        let w = self.p.res_w as usize;
        std::array::from_fn(|k| if k < kinds { field(&self.sim, o, (at + k) * w, w) } else { 0 })
    }

    fn bits(&self, o: Option<PortId>, n: usize) -> Vec<bool> {
        match o {
            Some(o) => (0..n).map(|i| self.sim.get_word(o, i / 64) >> (i % 64) & 1 == 1).collect(),
            None => Vec::new(),
        }
    }
}

impl Dut<GlobalSpreader> for RtlGlobalSpreader {
    fn params(&self) -> &GlobalSpreaderParams {
        &self.p
    }

    fn eval(&mut self, i: &GlobalSpreaderInputs) -> GlobalSpreaderOutputs {
        let p = &self.p;
        let (ent_w, res_w, vdt_aw, prid_w, idx_w, rb_w) = (p.ent_w, p.res_w, p.vdt_aw(), p.prid_w(), p.idx_w, p.rb_w());
        let kinds = p.kinds();
        for k in 0..self.ins.len() {
            let id = self.ins[k].id;
            use InVal::*;
            let v = match self.ins[k].what {
                Reset => i.reset as u64,
                VpValid => i.vp_valid as u64,
                VpIndexed => i.vp_indexed as u64,
                VpBase => i.vp_base_idx,
                VpCount => i.vp_count,
                VpSize => {
                    self.drive_wide(id, i.vp_size[..kinds].iter().copied(), res_w);
                    continue;
                }
                VpSrc => i.vp_src_addr,
                PpValid => i.pp_valid as u64,
                PpIndexed => i.pp_indexed as u64,
                PpBase => i.pp_base_idx,
                PpSize => {
                    self.drive_wide(id, i.pp_size[..kinds].iter().copied(), res_w);
                    continue;
                }
                PpSrc => i.pp_src_addr,
                TpValid => i.tp_valid as u64,
                TpIndexed => i.tp_indexed as u64,
                TpVidx => {
                    self.drive_wide(id, i.tp_vidx.iter().copied(), idx_w);
                    continue;
                }
                TpPrid => i.tp_prid,
                TpSize => {
                    self.drive_wide(id, i.tp_size[..kinds].iter().copied(), res_w);
                    continue;
                }
                TpSrc => i.tp_src_addr,
                XpValid => i.xp_valid as u64,
                XpTri => i.xp_tri_id,
                XpMask => i.xp_mask,
                XpLast => i.xp_last as u64,
                XpSize => {
                    self.drive_wide(id, i.xp_size[..kinds].iter().copied(), res_w);
                    continue;
                }
                XpSrc => i.xp_src_addr,
                ArReady => i.ar_ready,
                ArRefuse => i.ar_refuse,
                ArEnt => {
                    self.drive_wide(id, i.ar_ent.iter().copied(), ent_w);
                    continue;
                }
                CrValid => i.cr_valid,
                CrRes => {
                    // R16: N_EU * K fields, EU e's kind k at e * K + k.
                    self.drive_wide(id, i.cr_res.iter().flat_map(|c| c[..kinds].iter().copied()), res_w);
                    continue;
                }
                CrEdt => i.cr_edt,
                CrType => {
                    self.drive_wide(id, i.cr_type.iter().copied(), 2);
                    continue;
                }
                VrValid => i.vr_valid,
                VrSlot => {
                    self.drive_wide(id, i.vr_slot.iter().copied(), vdt_aw);
                    continue;
                }
                PrValid => i.pr_valid,
                PrId => {
                    self.drive_wide(id, i.pr_id.iter().copied(), prid_w);
                    continue;
                }
                CfgValid => i.cfg_valid as u64,
                CfgWe => i.cfg_we as u64,
                CfgAddr => i.cfg_addr,
                CfgWdata => i.cfg_wdata,
                PerfSel => i.perf_sel,
                PerfClr => i.perf_clr as u64,
                ErrClr => i.err_clr as u64,
                PcValid => i.pc_valid,
                PcSeq => {
                    self.drive_wide(id, i.pc_seq.iter().copied(), rb_w);
                    continue;
                }
                PoReady => i.po_ready as u64,
            };
            self.sim.set_unchecked(id, v);
        }
        self.sim.eval().unwrap_or_else(|e| panic!("simulation died: {e}"));
        let p = &self.p;
        let o = &self.outs;
        let g = |x: PortId| self.sim.get(x);
        let go = |x: Option<PortId>| x.map_or(0, |x| self.sim.get(x));
        let rdy = |t: usize| o.ready[t].is_some_and(|x| self.sim.get(x) != 0);
        let mut out = GlobalSpreaderOutputs {
            in_reset: i.reset,
            vp_ready: rdy(VTX),
            tp_ready: rdy(TRI),
            xp_ready: rdy(PIX),
            pp_ready: rdy(PATCH),
            ar_valid: g(o.ar_valid),
            ar_type: g(o.ar_type),
            ar_footprint: self.per_kind(o.ar_footprint, 0, p.kinds()),
            ar_copy_size: g(o.ar_copy_size),
            ar_src_addr: g(o.ar_src_addr),
            ar_vcount: g(o.ar_vcount),
            ar_base_idx: go(o.ar_base_idx),
            ar_prid: go(o.ar_prid),
            ar_pix_mask: go(o.ar_pix_mask),
            cfg_rvalid: g(o.cfg_rvalid) != 0,
            cfg_rdata: g(o.cfg_rdata),
            err_vdt_miss: g(o.errs[0]) != 0,
            err_pt_miss: g(o.errs[1]) != 0,
            err_malformed: g(o.errs[2]) != 0,
            err_credit: g(o.errs[3]) != 0,
            err_release: g(o.errs[4]) != 0,
            busy: g(o.busy) != 0,
            stall: g(o.stall) != 0,
            eu_avail_cnt: g(o.eu_avail_cnt),
            st_slot_valid: g(o.st_slot_valid),
            st_free_res: (0..p.eus).map(|e| self.per_kind(o.st_free_res, e * p.kinds(), p.kinds())).collect(),
            st_free_edt: self.fields(o.st_free_edt, p.eus, p.fe_w()),
            st_vdt_valid: self.bits(o.st_vdt_valid, p.vdt_depth),
            st_pt_valid: self.bits(o.st_pt_valid, p.pt_depth),
            perf_val: go(o.perf_val),
            ar_vdt_way: go(o.ar_vdt_way),
            ..Default::default()
        };
        if let Some(r) = o.refs {
            out.ar_global_ref = g(r[0]) != 0;
            out.ar_ref_valid = g(r[1]);
            let three = |x: PortId, w: u32| {
                let v = self.fields(x, 3, w);
                [v[0], v[1], v[2]]
            };
            out.ar_ref_eu = three(r[2], p.eu_w());
            out.ar_ref_ent = three(r[3], p.ent_w);
            out.ar_ref_elem = three(r[4], p.elem_w());
            out.ar_ref_grp = three(r[5], p.grp_w());
        }
        if let Some(r) = o.rob {
            out.ar_seq = g(r[0]);
            out.po_valid = g(r[1]) != 0;
            out.po_seq = g(r[2]);
        }
        out
    }

    fn tick(&mut self) {
        self.sim.tick().unwrap_or_else(|e| panic!("simulation died: {e}"));
    }
}
