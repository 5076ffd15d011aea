//! The checker's own books ([`Mirror`]), kept from the inputs and outputs only: the registers
//! as written, outstanding footprint (per resource kind, R16) and records per EU, VDT/PT validity
//! and the slots.

use super::rob::{RobBooks, RobEvents};
use crate::global_spreader::model::{
    ones, reg, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, Packet, PerKind, PtEntry, Ref, Regs,
    VdtEntry, CLASS_PRIORITY, PATCH, PIX, TRI, VTX,
};

/// The `ar_*` fields of a request, for sticky comparisons (`ar_seq`, `ar_vdt_way`, then the
/// footprints of kinds 1-3 last; R16).
pub fn request_key(o: &GlobalSpreaderOutputs) -> [u64; 28] {
    let mut k = [0u64; 28];
    let head = [
        o.ar_valid,
        o.ar_type,
        o.ar_footprint[0],
        o.ar_copy_size,
        o.ar_src_addr,
        o.ar_vcount,
        o.ar_base_idx,
        o.ar_prid,
        o.ar_pix_mask,
        o.ar_global_ref as u64,
        o.ar_ref_valid,
    ];
    k[..11].copy_from_slice(&head);
    for r in 0..3 {
        k[11 + r] = o.ar_ref_eu[r];
        k[14 + r] = o.ar_ref_ent[r];
        k[17 + r] = o.ar_ref_elem[r];
        k[20 + r] = o.ar_ref_grp[r];
    }
    k[23] = o.ar_seq;
    k[24] = o.ar_vdt_way;
    k[25..].copy_from_slice(&o.ar_footprint[1..]);
    k
}

/// What the checker expects of a packet in its slot (its reading of R4–R5).
#[derive(Debug, Clone)]
pub struct View {
    pub base: u64,
    pub blocked: bool,
    /// R15: the way of a VTX / PATCH that is not blocked (the lowest with all its entries
    /// free); 0 otherwise and when direct mapped.
    pub way: usize,
    /// R15: VTX / PATCH: way 0's entries of its set are not all free (some valid).
    pub way0_taken: bool,
    pub refs: [Ref; 3],
    /// R15, per ref: the way of the entry a valid ref hits (0 for a miss), and how many ways
    /// hold its set with its tag.
    pub ref_way: [usize; 3],
    pub ref_matches: [usize; 3],
    pub home: Option<usize>,
    /// fp_k per kind (R16).
    pub fp: PerKind,
    /// Candidates in order, with their fit.
    pub cands: Vec<(usize, bool)>,
}

/// An ack seen in a cycle.
#[derive(Debug, Clone)]
pub struct AckEvent {
    /// The packet in the slot of `ar_type` (None: an ack from an empty slot).
    pub pkt: Option<Packet>,
    pub ty: usize,
    pub eu: usize,
    pub fp: PerKind,
    pub base: u64,
    /// R15: `ar_vdt_way` of a VTX / PATCH ack (0 when direct mapped).
    pub way: usize,
    pub prid: u64,
    pub src_addr: u64,
    pub ref_valid: u64,
    pub global_ref: bool,
    /// Refs' EUs (valid ones).
    pub ref_eus: Vec<usize>,
}

/// What one cycle did, as the mirror saw it.
#[derive(Debug, Clone, Default)]
pub struct CycleEvents {
    pub reset: bool,
    /// A request was presented: (type, EU, a re-presentation of a held request).
    pub request: Option<(usize, usize, bool)>,
    pub ack: Option<AckEvent>,
    pub refused: Option<(usize, usize)>,
    pub held: bool,
    pub transferred: Vec<Packet>,
    pub malformed: Vec<Packet>,
    /// A transfer into a slot that was full and not acked.
    pub overrun: Vec<usize>,
    /// (EU, kind, outstanding before clamping, total) when an EU's books exceed its capacity
    /// (kind 4: the records).
    pub overcommit: Vec<(usize, usize, i64, u64)>,
    /// R16: kinds >= 1 that the GS clamps at this edge (its FREE_RES would leave [0, RES_TOTAL]).
    pub clamp_kind: u64,
    /// The GS clamps a free counter at this edge (any kind, or FREE_EDT): `err_credit` follows.
    pub clamped: bool,
    /// RES_TOTAL/EDT_TOTAL written while the EU had something outstanding.
    pub busy_total_write: Option<usize>,
    /// R14: the reorder buffer's pixel ack, completions and pop.
    pub rob: RobEvents,
}

/// The checker's books, kept from inputs and outputs only.
#[derive(Debug, Clone)]
pub struct Mirror {
    pub p: GlobalSpreaderParams,
    pub r: Regs,
    /// Footprint acked and not credited, by EU, then kind (R16).
    pub outstanding: Vec<PerKind>,
    pub records: Vec<u64>,
    pub vdt: Vec<Option<VdtEntry>>,
    pub pt: Vec<Option<PtEntry>>,
    pub slots: [Option<Packet>; 4],
    /// The request of the previous cycle if it was neither acked nor refused.
    pub held: Option<[u64; 28]>,
    /// RR_PTR as the acks give it (R6, round_robin): the EU after the last acked one, 0 after reset.
    pub rr_ptr: usize,
    /// R14: the reorder buffer's books (empty without `pixel_reorder`).
    pub rob: RobBooks,
    pub cycle: u64,
}

impl Mirror {
    pub fn new(p: &GlobalSpreaderParams) -> Self {
        Mirror {
            p: p.clone(),
            r: Regs::reset(p),
            outstanding: vec![[0; 4]; p.eus],
            records: vec![0; p.eus],
            vdt: vec![None; if p.has_vdt() { p.vdt_depth } else { 0 }],
            pt: vec![None; if p.has_pt() { p.pt_depth } else { 0 }],
            slots: Default::default(),
            held: None,
            rr_ptr: 0,
            rob: RobBooks::new(p),
            cycle: 0,
        }
    }

    fn reset(&mut self) {
        let c = self.cycle;
        *self = Mirror::new(&self.p);
        self.cycle = c;
    }

    /// FREE_RES[e] per kind: RES_TOTAL - outstanding (R16; one kind: [0]).
    pub fn free_res(&self, e: usize) -> PerKind {
        std::array::from_fn(|k| self.r.res_total[e][k].saturating_sub(self.outstanding[e][k]))
    }
    pub fn free_edt(&self, e: usize) -> u64 {
        self.r.edt_total[e].saturating_sub(self.records[e])
    }
    /// R4 / R16: EU e fits footprint `fp` of type t: every kind's free count reaches fp_k and
    /// MIN_RES[t][k], and a record is free.
    pub fn fits(&self, e: usize, fp: &PerKind, t: usize) -> bool {
        self.fits_kinds(e, fp, t, self.p.kinds())
    }

    /// The fit on the first `kinds` kinds only (coverage: a fit that only a later kind fails).
    pub fn fits_kinds(&self, e: usize, fp: &PerKind, t: usize, kinds: usize) -> bool {
        let free = self.free_res(e);
        (0..kinds).all(|k| free[k] >= fp[k] && free[k] >= self.r.min_res[t][k]) && self.free_edt(e) >= 1
    }

    /// The checker's reading of R7b: the class slots in priority order, by ascending rank as
    /// written (CLASS_PRIO) or configured, equal ranks in the fixed order pixel, triangle,
    /// patch, vertex.
    pub fn class_order(&self) -> Vec<usize> {
        let rank = |t: usize| self.r.class_rank[t];
        let fixed = |t: usize| CLASS_PRIORITY.iter().position(|&u| u == t).unwrap_or(4);
        let mut v: Vec<usize> = (0..4).collect();
        v.sort_by_key(|&t| (rank(t), fixed(t)));
        v
    }

    /// The checker's reading of R4–R5 for packet `k` in the current state.
    pub fn view(&self, k: &Packet) -> View {
        let p = &self.p;
        let t = k.ty;
        let base = match t {
            VTX if k.indexed => k.base_idx,
            VTX => self.r.auto_idx,
            PATCH if k.indexed => k.base_idx,
            PATCH => (self.r.auto_idx + 15) / 16 * 16 & p.idx_mask(),
            _ => 0,
        };
        // R4 as R15 states it: W ways of S sets, entry {w, set} at w * S + set; a VTX needs one
        // free entry {w, set(base)}, a PATCH its PG entries {w, set(base) + g} free in one way w;
        // the lowest such way. Direct mapped: one way of vdt_depth sets (§2's slot).
        let ways = p.vdt_ways;
        let sets = p.vdt_depth / ways;
        let set_of = |i: u64| (i >> p.elem_w()) as usize % sets;
        let tag_of = |i: u64| i >> (p.elem_w() + sets.trailing_zeros());
        let at = |w: usize, s: usize| w * sets + s % sets;
        let groups = if t == PATCH { p.pg() } else { 1 };
        let way_free = |w: usize| (0..groups).all(|g| self.vdt[at(w, set_of(base) + g)].is_none());
        let (way, way0_taken) = match t {
            VTX | PATCH => ((0..ways).find(|&w| way_free(w)), !way_free(0)),
            _ => (Some(0), false),
        };
        let blocked = match t {
            VTX | PATCH => way.is_none(),
            TRI => self.pt[k.prid as usize].is_some(),
            // R14: a pixel packet waits while the ROB is full.
            PIX => self.rob.full(),
            _ => false,
        };
        let way = way.unwrap_or(0);
        let mut refs = [Ref::default(); 3];
        let mut ref_way = [0; 3];
        let mut ref_matches = [0; 3];
        if t == TRI && k.indexed {
            for n in 0..3 {
                let v = k.vidx[n];
                let hit = |w: &usize| self.vdt[at(*w, set_of(v))].is_some_and(|en| en.tag == tag_of(v));
                ref_matches[n] = (0..ways).filter(hit).count();
                if let Some(w) = (0..ways).find(hit) {
                    let en = self.vdt[at(w, set_of(v))].unwrap();
                    refs[n] = Ref { valid: true, eu: en.eu, ent: en.ent, elem: v % p.vgrp as u64, grp: en.grp };
                    ref_way[n] = w;
                }
            }
        }
        if t == PIX {
            if let Some(en) = self.pt[k.prid as usize] {
                refs[0] = Ref { valid: true, eu: en.eu, ent: en.ent, elem: 0, grp: 0 };
            }
        }
        let eus: Vec<usize> = refs.iter().filter(|r| r.valid).map(|r| r.eu).collect();
        let home = if t == TRI || t == PIX {
            eus.iter().copied().find(|&e| eus.iter().filter(|&&x| x == e).count() > 1).or(eus.first().copied())
        } else {
            None
        };
        let fp: PerKind = std::array::from_fn(|n| k.size[n] + self.r.frame_res[t][n]);
        let ok = |e: usize| self.r.eu_enable >> e & 1 == 1 && self.r.ded_mask[t] >> e & 1 == 1;
        let mut order = Vec::new();
        if let Some(h) = home.filter(|&h| self.r.locality && ok(h)) {
            order.push(h);
        }
        for &v in &self.r.prio[t] {
            if (v as usize) < p.eus && ok(v as usize) && !order.contains(&(v as usize)) {
                order.push(v as usize);
            }
        }
        let cands = order.into_iter().map(|e| (e, self.fits(e, &fp, t))).collect();
        View { base, blocked, way, way0_taken, refs, ref_way, ref_matches, home, fp, cands }
    }

    /// Apply one cycle (inputs `i` driven, outputs `o` observed).
    pub fn update(&mut self, i: &GlobalSpreaderInputs, o: &GlobalSpreaderOutputs) -> CycleEvents {
        let p = self.p.clone();
        let mut ev = CycleEvents::default();
        self.cycle += 1;
        if i.reset {
            self.reset();
            ev.reset = true;
            return ev;
        }
        let n = p.eus;
        let prev_held = self.held.take();
        let mut debit = vec![([0u64; 4], 0u64); n];
        let mut vdt_sets = Vec::new();
        let mut pt_set = None;
        let mut pt_clear = None;
        let mut auto = None;
        if let Some(e) = o.target() {
            let t = o.ar_type as usize & 3;
            ev.request = Some((t, e, prev_held.is_some()));
            if i.ar_ready >> e & 1 == 1 {
                self.rr_ptr = (e + 1) % n;
                let pkt = self.slots[t].take();
                let ent = i.ar_ent.get(e).copied().unwrap_or(0) & p.ent_mask();
                debit[e] = (o.ar_footprint, 1);
                // R15: the ack's way (the port exists only with W > 1).
                let way = if p.vdt_ways > 1 { o.ar_vdt_way as usize % p.vdt_ways } else { 0 };
                match t {
                    VTX | PATCH => {
                        // {way, set(base) + g} (R8, R15), as the EU obligation releases them.
                        let groups = if t == VTX { 1 } else { p.pg() };
                        let sets = p.vdt_depth / p.vdt_ways;
                        let set = (o.ar_base_idx >> p.elem_w()) as usize;
                        let tag = o.ar_base_idx >> (p.elem_w() + sets.trailing_zeros());
                        for g in 0..groups {
                            let en = VdtEntry { tag, eu: e, ent, grp: g as u64 };
                            vdt_sets.push((way * sets + (set + g) % sets, en));
                        }
                        if pkt.as_ref().is_some_and(|k| !k.indexed) {
                            let step = if t == VTX { p.vgrp as u64 } else { 16 };
                            auto = Some((o.ar_base_idx + step) & p.idx_mask());
                        }
                    }
                    TRI => pt_set = Some((o.ar_prid as usize, PtEntry { eu: e, ent })),
                    _ => {
                        if pkt.as_ref().is_some_and(|k| k.last) {
                            pt_clear = Some(o.ar_prid as usize);
                        }
                    }
                }
                let ref_eus = (0..3).filter(|&r| o.ar_ref_valid >> r & 1 == 1).map(|r| o.ar_ref_eu[r] as usize).collect();
                ev.ack = Some(AckEvent {
                    pkt,
                    ty: t,
                    eu: e,
                    fp: o.ar_footprint,
                    base: o.ar_base_idx,
                    way: if t == VTX || t == PATCH { way } else { 0 },
                    prid: o.ar_prid,
                    src_addr: o.ar_src_addr,
                    ref_valid: o.ar_ref_valid,
                    global_ref: o.ar_global_ref,
                    ref_eus,
                });
            } else if i.ar_refuse >> e & 1 == 1 {
                ev.refused = Some((t, e));
            } else {
                ev.held = true;
                self.held = Some(request_key(o));
            }
        }
        let pix_ack = ev.ack.as_ref().is_some_and(|a| a.ty == PIX);
        ev.rob = self.rob.update(i, o, pix_ack, n);
        for t in 0..4 {
            if p.has(t) && i.valid(t) && o.ready(t) {
                let k = i.packet(&p, t);
                if k.malformed(&p) {
                    ev.malformed.push(k);
                } else {
                    if self.slots[t].is_some() {
                        ev.overrun.push(t);
                    }
                    self.slots[t] = Some(k.clone());
                    ev.transferred.push(k);
                }
            }
        }
        // Releases (validity at the start of the cycle), the PIX-last clear, then the
        // dispatch writes, which win.
        let mut vdt_clear = Vec::new();
        let mut pt_clears = Vec::new();
        for e in 0..n {
            if p.has_vdt() && i.vr_valid >> e & 1 == 1 {
                vdt_clear.push((i.vr_slot.get(e).copied().unwrap_or(0) as usize) % p.vdt_depth);
            }
            if p.has_pt() && i.pr_valid >> e & 1 == 1 {
                pt_clears.push((i.pr_id.get(e).copied().unwrap_or(0) & p.prid_mask()) as usize);
            }
        }
        for s in vdt_clear {
            self.vdt[s] = None;
        }
        for s in pt_clears.into_iter().chain(pt_clear) {
            self.pt[s] = None;
        }
        for (s, en) in vdt_sets {
            self.vdt[s] = Some(en);
        }
        if let Some((s, en)) = pt_set {
            self.pt[s] = Some(en);
        }
        // Credits (payload of cr_valid) and debits, per kind (R16); the GS clamps each at [0,
        // total].
        for e in 0..n {
            let cv = i.cr_valid >> e & 1 == 1;
            let cr = i.cr_res.get(e).copied().unwrap_or_default();
            let ce = u64::from(cv && i.cr_edt >> e & 1 == 1);
            for k in 0..p.kinds() {
                let credit = if cv { cr[k] & p.res_mask() } else { 0 };
                let out = self.outstanding[e][k] as i64 + debit[e].0[k] as i64 - credit as i64;
                let total = self.r.res_total[e][k];
                if out > total as i64 {
                    ev.overcommit.push((e, k, out, total));
                }
                let clamped = out < 0 || out > total as i64;
                ev.clamp_kind += u64::from(k > 0 && clamped);
                ev.clamped |= clamped;
                self.outstanding[e][k] = out.clamp(0, total as i64) as u64;
            }
            let rec = self.records[e] as i64 + debit[e].1 as i64 - ce as i64;
            if rec > self.r.edt_total[e] as i64 {
                ev.overcommit.push((e, 4, rec, self.r.edt_total[e]));
            }
            ev.clamped |= rec < 0 || rec > self.r.edt_total[e] as i64;
            self.records[e] = rec.clamp(0, self.r.edt_total[e] as i64) as u64;
        }
        if let Some(a) = auto {
            self.r.auto_idx = a;
        }
        if i.cfg_valid && i.cfg_we {
            self.write(i.cfg_addr & 0x3FF, i.cfg_wdata, &mut ev);
        }
        ev
    }

    /// RES_TOTAL[e][k] written: the free count of kind k is the new total (nothing outstanding).
    fn write_res_total(&mut self, e: usize, k: usize, d: u64, ev: &mut CycleEvents) {
        if self.outstanding[e][k] != 0 {
            ev.busy_total_write = Some(e);
        }
        self.r.res_total[e][k] = d & self.p.res_mask();
        self.outstanding[e][k] = 0;
    }

    /// The checker's reading of the register writes (contract §2.1).
    fn write(&mut self, a: u64, d: u64, ev: &mut CycleEvents) {
        let p = self.p.clone();
        let n = p.eus as u64;
        let t = |base: u64| ((a - base) as usize, p.has((a - base) as usize));
        match a {
            reg::CTRL => {
                self.r.en = d & 1 != 0;
                self.r.locality = d & 2 != 0;
                self.r.yield_en = d & 4 != 0;
            }
            reg::EU_ENABLE => self.r.eu_enable = d & p.eu_mask(),
            reg::AUTO_IDX => self.r.auto_idx = d & p.idx_mask() & !(p.vgrp as u64 - 1),
            reg::CLASS_PRIO if p.class_priority_reg => {
                for tt in (0..4).filter(|&tt| p.has(tt)) {
                    self.r.class_rank[tt] = d >> (2 * tt) & 3;
                }
            }
            0x008..=0x00B if t(0x008).1 => self.r.ded_mask[t(0x008).0] = d & p.eu_mask(),
            0x00C..=0x00F if t(0x00C).1 => self.r.min_res[t(0x00C).0][0] = d & p.res_mask(),
            0x010..=0x013 if t(0x010).1 => self.r.frame_res[t(0x010).0][0] = d & p.res_mask(),
            0x020..=0x03F if a - 0x020 < n => self.write_res_total((a - 0x020) as usize, 0, d, ev),
            // R16: kind k >= 1's RES_TOTAL (0x280 + 0x40(k-1) + e), MIN_RES (0x340 + 8(k-1) + t)
            // and FRAME_RES (0x344 + 8(k-1) + t), for the kinds, EUs and types built.
            0x280..=0x357 => match reg::kind_reg(a) {
                Some((k, 0, e)) if k < p.kinds() && e < p.eus => self.write_res_total(e, k, d, ev),
                Some((k, 2, tt)) if k < p.kinds() && p.has(tt) => self.r.min_res[tt][k] = d & p.res_mask(),
                Some((k, 3, tt)) if k < p.kinds() && p.has(tt) => self.r.frame_res[tt][k] = d & p.res_mask(),
                _ => {}
            },
            0x060..=0x07F if a - 0x060 < n => {
                let e = (a - 0x060) as usize;
                if self.records[e] != 0 {
                    ev.busy_total_write = Some(e);
                }
                self.r.edt_total[e] = (d & 0xFFFF_FFFF).min(1 << p.ent_w);
                self.records[e] = 0;
            }
            0x100..=0x17F => {
                let (tt, s) = (((a - 0x100) / 32) as usize, (a - 0x100) % 32);
                if p.has(tt) && s < n {
                    self.r.prio[tt][s as usize] = d & ones(p.prio_w());
                }
            }
            _ => {}
        }
    }
}
