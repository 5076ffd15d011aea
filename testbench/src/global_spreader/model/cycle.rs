//! The reference model itself: its registered state and the rules R1–R13, one clock edge per
//! [`GlobalSpreaderModel::clock`] (the evaluation, the outputs, the registers and the edge).

use super::{
    ones, reg, Decision, Eval, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, Grant, Mutation,
    Packet, PerKind, PtEntry, Ref, Regs, Request, Rob, Slot, VdtEntry, CLASS_PRIORITY, ERR_CREDIT, ERR_MALFORMED, ERR_PT_MISS,
    ERR_RELEASE, ERR_VDT_MISS, PATCH, PIX, TRI, VTX, Select,
};

/// The reference model: registered state and the rules R1–R13.
#[derive(Debug, Clone)]
pub struct GlobalSpreaderModel {
    pub(in crate::global_spreader) p: GlobalSpreaderParams,
    pub(in crate::global_spreader) r: Regs,
    /// FREE_RES[e][k] by EU, then kind (R16; one kind: [e][0]).
    pub(in crate::global_spreader) free_res: Vec<PerKind>,
    pub(in crate::global_spreader) free_edt: Vec<u64>,
    pub(in crate::global_spreader) reject_cnt: Vec<u64>,
    pub(in crate::global_spreader) nack_cnt: Vec<u64>,
    pub(in crate::global_spreader) alloc_cnt: Vec<[u64; 4]>,
    pub(in crate::global_spreader) pend: Vec<[u64; 4]>,
    pub(in crate::global_spreader) stall_cnt: u64,
    pub(in crate::global_spreader) err: [bool; 5],
    pub(in crate::global_spreader) vdt: Vec<VdtEntry>,
    pub(in crate::global_spreader) vdt_valid: Vec<bool>,
    pub(in crate::global_spreader) pt: Vec<PtEntry>,
    pub(in crate::global_spreader) pt_valid: Vec<bool>,
    pub(in crate::global_spreader) slots: [Option<Slot>; 4],
    /// The request presented in the previous cycle and neither acked nor refused.
    pub(in crate::global_spreader) held: Option<Request>,
    pub(in crate::global_spreader) cfg_rvalid: bool,
    pub(in crate::global_spreader) cfg_rdata: u64,
    /// G1: the counters in `perf_sel` order (empty without `perf_counters`).
    pub(in crate::global_spreader) perf: Vec<u32>,
    /// RR_PTR (R6, `select = "round_robin"`): the EU after the last acked one (reset 0).
    pub(in crate::global_spreader) rr_ptr: usize,
    /// AGE per class slot, by type code (R7a, `aging`; reset 0, counting up to the limit).
    pub(in crate::global_spreader) age: [u64; 4],
    /// The pixel reorder buffer (R14, `pixel_reorder`; D = 0: none).
    pub(in crate::global_spreader) rob: Rob,
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
        let r = Regs::reset(p);
        GlobalSpreaderModel {
            p: p.clone(),
            free_res: r.res_total.clone(),
            r,
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
            perf: vec![0; p.perf_count()],
            rr_ptr: 0,
            age: [0; 4],
            rob: Rob::new(p.pixel_reorder),
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
    pub(super) fn mutated(&self, _m: Mutation) -> bool {
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
    pub(super) fn free_view(&self) -> (&[PerKind], &[u64]) {
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

    /// R4–R6 for packet k with refused mask `mask`.
    pub fn evaluate(&self, k: &Packet, mask: u64) -> Eval {
        let p = &self.p;
        let t = k.ty;
        let (vdt, vdt_valid, pt, pt_valid) = self.table_view();
        let base = self.base(k);
        // R4 blocked, and R15's way of a VTX / PATCH (direct mapped: one way, way 0).
        let way = match t {
            VTX | PATCH => self.free_way(vdt_valid, base, t),
            _ => Some(0),
        };
        let blocked = match t {
            VTX | PATCH => way.is_none(),
            TRI => pt_valid[k.prid as usize],
            // R14: a PIX packet is blocked while the ROB is full.
            PIX => self.rob.full() && !self.mutated(Mutation::RobFullIgnored),
            _ => false,
        };
        let way = way.unwrap_or(0);
        let mut refs = [Ref::default(); 3];
        if t == TRI && k.indexed {
            for (i, &v) in k.vidx.iter().enumerate() {
                if let Some(s) = self.hit(vdt, vdt_valid, v) {
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
        // R4 / R16: fp_k = size_k + FRAME_RES[type][k], exact, per kind.
        let fp = p.per_kind(|n| k.size[n] + self.r.frame_res[t][n]);

        // R5: home first (if allowed), then the priority list.
        let allowed = |e: usize| self.r.eu_enable >> e & 1 == 1 && self.r.ded_mask[t] >> e & 1 == 1;
        let mut list: Vec<usize> = Vec::with_capacity(p.eus + 1);
        let mut home_listed = false;
        if let Some(h) = home {
            let ded_ok = self.mutated(Mutation::HomeIgnoresDedicated) || self.r.ded_mask[t] >> h & 1 == 1;
            if self.r.locality && self.r.eu_enable >> h & 1 == 1 && ded_ok {
                list.push(h);
                home_listed = true;
            }
        }
        for &v in &self.r.prio[t] {
            let e = v as usize;
            if v < p.eus as u64 && allowed(e) && !list.contains(&e) {
                list.push(e);
            }
        }
        let cands: Vec<(usize, bool)> = list.into_iter().map(|e| (e, self.fits(e, &fp, t))).collect();
        // R6
        let ok = |&&(e, fit): &&(usize, bool)| fit && mask >> e & 1 == 0;
        let sel = if blocked {
            None
        } else if p.select == Select::LeastLoaded {
            // The home (first in the list) if it is ok, else the PRIO candidate with the most
            // FREE_RES (R16: of kind 0), ties to the first in PRIO order.
            let home_first = home_listed && !self.mutated(Mutation::LoadedIgnoresHome);
            let free = self.free_view().0;
            if home_first && ok(&&cands[0]) {
                Some(cands[0].0)
            } else {
                let rest = cands.iter().skip(usize::from(home_first)).filter(ok).map(|c| c.0);
                let later_wins = self.mutated(Mutation::LoadedTiesToLast);
                rest.fold(None, |best: Option<usize>, e| match best {
                    Some(b) if free[b][0] > free[e][0] || (free[b][0] == free[e][0] && !later_wins) => Some(b),
                    _ => Some(e),
                })
            }
        } else if p.select == Select::RoundRobin {
            // The home (first in the list) if it is ok, else of the open PRIO candidates the
            // first in EU order at or after RR_PTR, else the first in EU order (circular).
            let home_first = home_listed && !self.mutated(Mutation::RoundRobinIgnoresHome);
            if home_first && ok(&&cands[0]) {
                Some(cands[0].0)
            } else {
                let open: Vec<usize> = cands.iter().skip(usize::from(home_first)).filter(ok).map(|c| c.0).collect();
                let wrap = if self.mutated(Mutation::RoundRobinNoWrap) { open.first() } else { open.iter().min() };
                open.iter().filter(|&&e| e >= self.rr_ptr).min().or(wrap).copied()
            }
        } else {
            cands.iter().find(ok).map(|c| c.0)
        };
        Eval { base, blocked, way, refs, home, fp, cands, sel }
    }

    /// The ways the VDT has (R15; the mutant that ignores them: one).
    fn ways(&self) -> usize {
        if self.mutated(Mutation::WaysIgnored) {
            1
        } else {
            self.p.vdt_ways
        }
    }

    /// R15's tag of vertex index i (the mutant: §2's, with VDT_AW for SET_W).
    fn vtag(&self, i: u64) -> u64 {
        if self.mutated(Mutation::TagFromVdtAw) {
            i >> (self.p.elem_w() + self.p.vdt_aw())
        } else {
            self.p.vtag(i)
        }
    }

    /// R4 / R15: the way a VTX (one group) or PATCH (PG groups) at `base` takes: the lowest way
    /// w whose entries {w, set(base) + g}, g < groups, are all invalid; None: blocked. Direct
    /// mapped (W = 1) this is "slot(base) + g all invalid", §2's rule.
    fn free_way(&self, vdt_valid: &[bool], base: u64, t: usize) -> Option<usize> {
        let p = &self.p;
        let groups = if t == PATCH { p.pg() } else { 1 };
        let set = p.set_of(base);
        let free = |w: usize, g: usize| !vdt_valid[p.entry(w, set + g)];
        if t == PATCH && self.mutated(Mutation::PatchSplitWays) {
            // Each group its own lowest free way; the way shown is group 0's.
            let per: Option<Vec<usize>> = (0..groups).map(|g| (0..self.ways()).find(|&w| free(w, g))).collect();
            return per.map(|v| v[0]);
        }
        let mut ways = (0..self.ways()).filter(|&w| (0..groups).all(|g| free(w, g)));
        if self.mutated(Mutation::WayHighestFree) {
            ways.last()
        } else {
            ways.next()
        }
    }

    /// R4 / R15 refs: the entry a vertex index hits, {w, set(v)} of the lowest way w that is
    /// valid with tag vtag(v); None: a miss. Direct mapped: slot(v), §2's rule.
    fn hit(&self, vdt: &[VdtEntry], vdt_valid: &[bool], v: u64) -> Option<usize> {
        let p = &self.p;
        let (set, tag) = (p.set_of(v), self.vtag(v));
        let mut hits = (0..self.ways()).map(|w| p.entry(w, set)).filter(|&s| vdt_valid[s] && vdt[s].tag == tag);
        if self.mutated(Mutation::RefHighestWay) {
            hits.last()
        } else {
            hits.next()
        }
    }

    /// R7b: the class slots in priority order: ascending RANK[t] (the register state at m),
    /// ties broken by the fixed order [`CLASS_PRIORITY`] (pixel, triangle, patch, vertex).
    pub fn class_order(&self) -> [usize; 4] {
        let mut order = CLASS_PRIORITY;
        if self.mutated(Mutation::RankIgnored) {
            return order;
        }
        let by_code = self.mutated(Mutation::RankTiesByCode);
        // A stable sort keeps the fixed order among equal ranks.
        order.sort_by_key(|&t| (self.r.class_rank[t], if by_code { t } else { 0 }));
        order
    }

    /// Evaluate every occupied slot and pick the grant (R4–R7, R7a, R7b).
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
                    way: ev.way,
                    fp: ev.fp,
                    refs: ev.refs,
                },
                new: true,
            })
        };
        // R7a: a slot that can dispatch and whose AGE has reached the limit goes first, the first
        // such in class priority order, whatever YIELD_EN.
        let aged = |t: usize| {
            let lim = self.p.aging;
            let reached = if self.mutated(Mutation::AgingPastLimit) { self.age[t] > lim } else { self.age[t] >= lim };
            lim > 0 && reached && !self.mutated(Mutation::AgingIgnored)
        };
        // R7b: "priority order" is ascending RANK, ties to the fixed order.
        let order = self.class_order();
        let grant = if let (Some(h), false) = (&self.held, self.mutated(Mutation::NotSticky)) {
            Some(Grant { req: self.held_refs_relooked(h), new: false })
        } else if let Some(g) = order.iter().filter(|&&t| aged(t)).find_map(|&t| request(t)) {
            Some(g)
        } else if self.r.yield_en || self.mutated(Mutation::AlwaysYield) {
            order.iter().find_map(|&t| request(t))
        } else {
            order.iter().find(|&&t| self.slots[t].is_some()).and_then(|&t| request(t))
        };
        Decision { evals, grant }
    }

    /// The held request as presented again: unchanged (R7); the mutant looks a triangle's valid
    /// refs up again in the ways (the lowest hitting way's entry, way 0's when none hits).
    fn held_refs_relooked(&self, h: &Request) -> Request {
        let mut r = h.clone();
        if self.mutated(Mutation::HeldRefsRelooked) && r.ty() == TRI {
            let (vdt, vdt_valid, _, _) = self.table_view();
            for (n, rf) in r.refs.iter_mut().enumerate().filter(|(_, rf)| rf.valid) {
                let v = h.pkt.vidx[n];
                let s = self.hit(vdt, vdt_valid, v).unwrap_or(self.p.entry(0, self.p.set_of(v)));
                (rf.eu, rf.ent, rf.grp) = (vdt[s].eu, vdt[s].ent, vdt[s].grp);
            }
        }
        r
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
            perf_val: crate::perf::read(&self.perf, i.perf_sel & ones(p.perf_sel_w())),
            po_valid: self.rob.po_valid(&|m| self.mutated(m)),
            po_seq: self.rob.head as u64,
            ..Default::default()
        };
        if let Some(g) = &d.grant {
            let r = &g.req;
            let k = &r.pkt;
            o.ar_valid = 1 << r.target;
            o.ar_type = k.ty as u64;
            o.ar_footprint = r.fp;
            // R16: the data to copy is kind 0's size.
            o.ar_copy_size = k.size[0];
            o.ar_src_addr = k.src_addr;
            o.ar_vcount = r.vcount();
            if k.ty == VTX || k.ty == PATCH {
                o.ar_base_idx = r.base;
                // R15: the way (0 when direct mapped, where the port does not exist).
                o.ar_vdt_way = r.way as u64;
            }
            if k.ty == TRI || k.ty == PIX {
                o.ar_prid = k.prid;
            }
            if k.ty == PIX {
                o.ar_pix_mask = k.mask;
            }
            o.ar_seq = self.rob.ar_seq(k.ty == PIX, &|m| self.mutated(m));
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
        if let Some(r) = reg::res_reg(a) {
            return self.read_res_reg(r);
        }
        match a {
            0x000 => u64::from(self.r.en) | u64::from(self.r.locality) << 1 | u64::from(self.r.yield_en) << 2,
            0x001 => self.r.eu_enable,
            0x002 => self.r.auto_idx,
            0x003 => u64::from(o.busy) | u64::from(o.stall) << 1 | err_bits,
            0x004 => self.stall_cnt,
            0x005 if p.class_priority_reg => {
                let stored = |t: usize| ty_ok(t) || self.mutated(Mutation::RankStoresAbsent);
                (0..4).filter(|&t| stored(t)).map(|t| self.r.class_rank[t] << (2 * self.rank_field(t))).sum()
            }
            0x008..=0x00B if ty_ok((a - 0x008) as usize) => self.r.ded_mask[(a - 0x008) as usize],
            0x060..=0x0DF => {
                let e = (a & 0x1F) as usize;
                if e >= n {
                    return 0;
                }
                match a >> 5 {
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

    /// The CLASS_PRIO field of type t (R7b: its type code; the mutant: its fixed-order place).
    fn rank_field(&self, t: usize) -> usize {
        if self.mutated(Mutation::RankFieldsByPosition) {
            CLASS_PRIORITY.iter().position(|&u| u == t).unwrap_or(t)
        } else {
            t
        }
    }

    /// Apply a configuration write (after every other effect of the edge).
    fn write_reg(&mut self, addr: u64, data: u64) {
        let p = self.p.clone();
        let n = p.eus;
        let a = addr & 0x3FF;
        let ty_ok = |t: usize| p.has(t);
        if let Some(r) = reg::res_reg(a) {
            return self.write_res_reg(r, data);
        }
        match a {
            0x000 => {
                self.r.en = data & 1 == 1;
                self.r.locality = data >> 1 & 1 == 1;
                self.r.yield_en = data >> 2 & 1 == 1;
            }
            0x001 => self.r.eu_enable = data & p.eu_mask(),
            0x002 => self.r.auto_idx = data & p.idx_mask() & !(p.vgrp as u64 - 1),
            0x003 => {} // W1C, applied with the flag update
            0x005 if p.class_priority_reg => {
                // R7b: RANK[t] = bits [2t+1:2t]; an absent type's bits are not stored.
                let stores_absent = self.mutated(Mutation::RankStoresAbsent);
                for t in (0..4).filter(|&t| ty_ok(t) || stores_absent) {
                    self.r.class_rank[t] = data >> (2 * self.rank_field(t)) & 3;
                }
            }
            0x008..=0x00B if ty_ok((a - 0x008) as usize) => self.r.ded_mask[(a - 0x008) as usize] = data & p.eu_mask(),
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
        let mut debit_res = vec![[0u64; 4]; n];
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
                // RR_PTR (R6): past the acked EU, whatever the type and whether home or not.
                let home = d.evals[t].as_ref().and_then(|ev| ev.home);
                if !(self.mutated(Mutation::RoundRobinHomeAckHolds) && home == Some(e)) {
                    self.rr_ptr = (e + 1) % n;
                }
                let ent = i.ar_ent.get(e).copied().unwrap_or(0) & p.ent_mask();
                debit_res[e] = self.debit(&r.fp);
                debit_edt[e] = 1;
                pend_inc = Some((e, t));
                self.alloc_cnt[e][t] = (self.alloc_cnt[e][t] + 1) & 0xFFFF_FFFF;
                match t {
                    VTX | PATCH => {
                        // R8 / R15: {way, set(base) + g} for each group g (direct mapped:
                        // slot(base) + g).
                        let groups = if t == VTX { 1 } else { p.pg() };
                        let set = p.set_of(r.base);
                        for g in 0..groups {
                            let en = VdtEntry { tag: self.vtag(r.base), eu: e, ent, grp: g as u64 };
                            let way = if t == PATCH && self.mutated(Mutation::PatchSplitWays) {
                                let free = |w: &usize| !self.vdt_valid[p.entry(*w, set + g)];
                                (0..self.ways()).find(free).unwrap_or(0)
                            } else {
                                r.way
                            };
                            vdt_sets.push((p.entry(way, set + g), en));
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
                if self.mutated(Mutation::RoundRobinOnRefuse) {
                    self.rr_ptr = (e + 1) % n;
                }
            } else {
                next_held = Some(r.clone());
            }
        }
        self.held = next_held;
        // R14: the ROB's ack, completions and pop.
        let pix_ack = acked && d.grant.as_ref().is_some_and(|g| g.req.ty() == PIX);
        let mut rob = std::mem::replace(&mut self.rob, Rob::new(0));
        rob.edge(pix_ack, i, n, &|m| self.mutated(m));
        self.rob = rob;
        // R7a: AGE to 0 for an empty slot and a slot granted anew; +1 (up to the limit) for a slot
        // that could dispatch and was passed over in a new grant decision (no held request).
        if p.aging > 0 {
            let new_decision = d.grant.as_ref().is_none_or(|g| g.new) || self.mutated(Mutation::AgingWhileHeld);
            let granted = d.grant.as_ref().filter(|g| g.new).map(|g| g.req.ty());
            for t in 0..4 {
                let eligible = d.evals[t].as_ref().is_some_and(|ev| ev.sel.is_some());
                if self.slots[t].is_none() || granted == Some(t) {
                    self.age[t] = 0;
                } else if new_decision && eligible {
                    self.age[t] = (self.age[t] + 1).min(p.aging);
                }
            }
        }

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
            let ce = u64::from(cv && i.cr_edt >> e & 1 == 1);
            set[ERR_CREDIT] |= self.credit_res(e, i, &debit_res[e]);
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
        // G2: err_clr clears every flag like a W1C of all five; a flag set at this edge wins.
        let err_clr = p.perf_counters && i.err_clr;
        for k in 0..5 {
            let clr = w1c >> k & 1 == 1 || err_clr;
            if err_clr && self.mutated(Mutation::ErrClrWins) {
                self.err[k] = false;
                continue;
            }
            self.err[k] = if self.mutated(Mutation::ClearWins) {
                (set[k] || self.err[k]) && !clr
            } else {
                set[k] || (self.err[k] && !clr)
            };
        }
        if write {
            self.write_reg(i.cfg_addr, i.cfg_wdata);
        }
        // G1: this cycle's events into the counters (perf_clr wins over them).
        if p.perf_counters {
            let ev = super::perf::events(&p, &d, &o, i, acked, &set);
            if i.perf_clr && self.mutated(Mutation::PerfClrLoses) {
                self.perf = ev.iter().map(|&x| u32::from(x)).collect();
            } else {
                crate::perf::count(&mut self.perf, &ev, i.perf_clr);
            }
        }
    }
}

/// Clamp an exact counter value to [0, max]; true if it was clamped.
pub(super) fn clamp(v: i64, max: u64) -> (u64, bool) {
    if v < 0 {
        (0, true)
    } else if v as u64 > max {
        (max, true)
    } else {
        (v as u64, false)
    }
}
