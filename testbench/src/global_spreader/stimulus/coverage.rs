//! Functional coverage ([`Coverage`]): the bins of a run, counted from each cycle's inputs and
//! outputs, which also run the [`Invariants`].

use super::{Invariants, Mirror};
use crate::global_spreader::model::{
    reg, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, Select, CLASS_PRIORITY, PATCH, PIX, TRI, VTX,
};

/// Hit counts of the coverage bins.
#[derive(Debug, Clone, Default)]
pub struct CoverageCounts {
    pub cycles: u64,
    /// Acks by type code.
    pub acks: [u64; 4],
    pub refusals: u64,
    /// Cycles in which a request was held (neither acked nor refused).
    pub sticky_waits: u64,
    /// Cycles in which some channel was valid and not ready.
    pub backpressure: u64,
    pub stalls: u64,
    /// TRI / PIX acks with at least one valid ref, all in the target.
    pub tri_local: u64,
    pub pix_local: u64,
    /// TRI / PIX acks with `ar_global_ref`.
    pub tri_global: u64,
    pub pix_global: u64,
    /// TRI/PIX acks whose home exists but is not the target.
    pub home_fallback: u64,
    /// Cycles with a VTX/PATCH slot blocked by the VDT / a TRI slot blocked by the PT.
    pub vdt_block: u64,
    pub pt_block: u64,
    /// Acks of an indexed TRI with a missing ref / a PIX without its triangle.
    pub vdt_miss: u64,
    pub pt_miss: u64,
    /// Acks of the same class in consecutive cycles.
    pub back_to_back: u64,
    /// Acks of a class while a higher class's slot was occupied (YIELD_EN; "higher" in the
    /// current order, R7b).
    pub yield_pass: u64,
    pub en_off: u64,
    pub cfg_reads: u64,
    pub cfg_writes: u64,
    /// STATUS writes that clear a set flag.
    pub w1c: u64,
    pub malformed: u64,
    /// Rising edges of `err_release` / `err_credit`.
    pub err_release: u64,
    pub err_credit: u64,
    pub resets: u64,
    pub ack_and_refuse: u64,
    /// `select` least_loaded or round_robin: new requests whose target is not the first
    /// candidate that fits (the one first fit would have chosen without refusals); the bin
    /// is `ll_not_first_fit` or `rr_not_first_fit`.
    pub not_first_fit: u64,
    /// round_robin: new requests whose target is not the home and lies below RR_PTR (the
    /// circular search wrapped).
    pub rr_wrap: u64,
    /// aging (R7a): new requests of a class while a higher class's slot could dispatch (its
    /// packet not blocked and some candidate fits): the grants aging gives before the class order.
    pub aged_grant: u64,
    /// class priority (R7b): new requests of a class while a class that comes first in the
    /// fixed order (pixel, triangle, patch, vertex) could dispatch and comes after it in the
    /// current rank order: grants the fixed order would not give (an aged grant ahead of a
    /// class that the ranks put first is not counted).
    pub rank_grant: u64,
    /// pixel order (R14): cycles with D pixels outstanding while a pixel packet waits in its
    /// slot; completions of an entry other than the oldest; pops; `po_valid && !po_ready`;
    /// completions ignored (not outstanding or already done: illegal events only).
    pub rob_full: u64,
    pub rob_out_of_order: u64,
    pub rob_pop: u64,
    pub rob_backpressure: u64,
    pub rob_ignored: u64,
    /// set-associative VDT (R15, `vdt_ways` > 1): VTX / PATCH acks into a way > 0; new VTX /
    /// PATCH requests while way 0 of their set was taken (a direct-mapped VDT would block
    /// them); cycles with a VTX / PATCH slot blocked because every way is taken; new TRI
    /// requests with a ref that hits in a way > 0; new TRI requests with a ref whose set holds
    /// its tag in two ways or more (the lowest is taken).
    pub vdt_way_nonzero: u64,
    pub vdt_set_conflict_avoided: u64,
    pub vdt_all_ways_blocked: u64,
    pub vdt_hit_way_nonzero: u64,
    pub vdt_hit_two_ways: u64,
    /// resource kinds (R16, K > 1): new requests with a candidate that fits kind 0 (and has a
    /// record) but fails a kind >= 1; slot-cycles with a packet not blocked, no candidate
    /// fitting, though some candidate fits kind 0 (a kind >= 1 holds it); `cr_valid` pulses
    /// crediting a kind >= 1; kinds >= 1 clamped at an edge (illegal events only); configuration
    /// reads and writes of a kind >= 1's register.
    pub fit_fail_kind_only: u64,
    pub wait_kind_only: u64,
    pub credit_kind: u64,
    pub clamp_kind: u64,
    pub kind_reg_rw: u64,
}

/// Functional coverage of a run, from each cycle's inputs and outputs. It also runs the
/// [`Invariants`] on what it observes (legal unless `allow_errors`), so that any run that
/// asserts coverage (e.g. the lockstep checker, which observes the model's outputs)
/// checks the invariants too: [`Coverage::assert_all_hit`] reports a violation first.
#[derive(Debug, Clone)]
pub struct Coverage {
    m: Mirror,
    allow_errors: bool,
    last_ack: Option<usize>,
    last_errs: [bool; 5],
    pub inv: Invariants,
    pub hits: CoverageCounts,
}

impl Coverage {
    /// Hits each required bin needs.
    pub const MIN_HITS: u64 = 10;

    pub fn new(p: &GlobalSpreaderParams, allow_errors: bool) -> Self {
        Coverage {
            m: Mirror::new(p),
            allow_errors,
            last_ack: None,
            last_errs: [false; 5],
            inv: Invariants::new(p, !allow_errors),
            hits: CoverageCounts::default(),
        }
    }

    pub fn observe(&mut self, i: &GlobalSpreaderInputs, o: &GlobalSpreaderOutputs) {
        let _ = self.inv.check(i, o); // the first violation is kept
        let h = &mut self.hits;
        h.cycles += 1;
        if i.reset {
            h.resets += 1;
            self.m.update(i, o);
            self.last_ack = None;
            self.last_errs = [false; 5];
            return;
        }
        let m = &self.m;
        let p = &m.p;
        h.stalls += u64::from(o.stall);
        h.backpressure += u64::from((0..4).any(|t| p.has(t) && i.valid(t) && !o.ready(t)));
        h.en_off += u64::from(!m.r.en);
        h.cfg_reads += u64::from(i.cfg_valid && !i.cfg_we);
        h.cfg_writes += u64::from(i.cfg_valid && i.cfg_we);
        let flags: u64 = o.errs().iter().enumerate().map(|(k, &f)| u64::from(f) << k).sum();
        let status_write = i.cfg_valid && i.cfg_we && i.cfg_addr & 0x3FF == reg::STATUS;
        h.w1c += u64::from(status_write && (i.cfg_wdata >> 2) & flags != 0);
        h.err_release += u64::from(o.err_release && !self.last_errs[4]);
        h.err_credit += u64::from(o.err_credit && !self.last_errs[3]);
        self.last_errs = o.errs();
        let ways = p.vdt_ways > 1;
        for t in [VTX, PATCH, TRI] {
            if let Some(k) = &m.slots[t] {
                if m.view(k).blocked {
                    if t == TRI {
                        h.pt_block += 1;
                    } else {
                        h.vdt_block += 1;
                        h.vdt_all_ways_blocked += u64::from(ways);
                    }
                }
            }
        }
        // R15: what a new request's evaluation found in the ways.
        if ways && m.held.is_none() && o.target().is_some() {
            let t = o.ar_type as usize;
            if let Some(v) = m.slots.get(t).and_then(|s| s.as_ref()).map(|k| m.view(k)) {
                let valid = |n: usize| v.refs[n].valid;
                match t {
                    VTX | PATCH => h.vdt_set_conflict_avoided += u64::from(v.way0_taken),
                    TRI => {
                        h.vdt_hit_way_nonzero += u64::from((0..3).any(|n| valid(n) && v.ref_way[n] > 0));
                        h.vdt_hit_two_ways += u64::from((0..3).any(|n| valid(n) && v.ref_matches[n] > 1));
                    }
                    _ => {}
                }
            }
        }
        if let Some(e) = o.target() {
            let (rd, rf) = (i.ar_ready >> e & 1 == 1, i.ar_refuse >> e & 1 == 1);
            h.ack_and_refuse += u64::from(rd && rf);
        }
        if p.select != Select::FirstFit && m.held.is_none() {
            if let Some(e) = o.target() {
                if let Some(k) = m.slots.get(o.ar_type as usize).and_then(|s| s.as_ref()) {
                    let v = m.view(k);
                    let first = v.cands.iter().find(|c| c.1).map(|c| c.0);
                    h.not_first_fit += u64::from(first != Some(e));
                    h.rr_wrap += u64::from(p.select == Select::RoundRobin && e < m.rr_ptr && v.home != Some(e));
                }
            }
        }
        // R16: what the kinds after the first did to the fit, credits and register accesses.
        let kinds = p.kinds();
        if kinds > 1 {
            let kind0_only = |v: &super::View, e: usize, fit: bool, t: usize| !fit && m.fits_kinds(e, &v.fp, t, 1);
            if m.held.is_none() && o.target().is_some() {
                let t = o.ar_type as usize;
                if let Some(v) = m.slots.get(t).and_then(|s| s.as_ref()).map(|k| m.view(k)) {
                    h.fit_fail_kind_only += u64::from(v.cands.iter().any(|&(e, fit)| kind0_only(&v, e, fit, t)));
                }
            }
            for t in 0..4 {
                if let Some(v) = m.slots[t].as_ref().map(|k| m.view(k)) {
                    let none_fits = !v.blocked && !v.cands.iter().any(|c| c.1);
                    h.wait_kind_only += u64::from(none_fits && v.cands.iter().any(|&(e, fit)| kind0_only(&v, e, fit, t)));
                }
            }
            for e in 0..p.eus {
                let cr = i.cr_res.get(e).copied().unwrap_or_default();
                h.credit_kind += u64::from(i.cr_valid >> e & 1 == 1 && (1..kinds).any(|k| cr[k] & p.res_mask() != 0));
            }
            let built = |a: u64| reg::kind_reg(a).is_some_and(|(k, _, _)| k < kinds);
            h.kind_reg_rw += u64::from(i.cfg_valid && built(i.cfg_addr & 0x3FF));
        }
        // R7b: the current class order (ascending rank, ties in the fixed order).
        let order = m.class_order();
        let before = |t: usize| order.iter().copied().take_while(move |&u| u != t);
        let can_go = |u: usize| {
            m.slots[u].as_ref().is_some_and(|k| {
                let v = m.view(k);
                !v.blocked && v.cands.iter().any(|c| c.1)
            })
        };
        if m.held.is_none() && o.target().is_some() {
            let t = o.ar_type as usize;
            if p.aging > 0 {
                h.aged_grant += u64::from(before(t).any(can_go));
            }
            let fixed_first = CLASS_PRIORITY.iter().copied().take_while(|&u| u != t);
            h.rank_grant += u64::from(fixed_first.filter(|&u| !before(t).any(|x| x == u)).any(can_go));
        }
        h.rob_full += u64::from(m.rob.full() && m.slots[PIX].is_some());
        h.rob_backpressure += u64::from(p.pixel_reorder > 0 && o.po_valid && !i.po_ready);
        let higher_occupied = |t: usize| before(t).any(|u| m.slots[u].is_some());
        let yield_pass = o.target().is_some() && higher_occupied(o.ar_type as usize);
        let ev = self.m.update(i, o);
        let h = &mut self.hits;
        h.refusals += u64::from(ev.refused.is_some());
        h.sticky_waits += u64::from(ev.held);
        h.malformed += ev.malformed.len() as u64;
        h.rob_out_of_order += ev.rob.out_of_order;
        h.rob_pop += u64::from(ev.rob.popped);
        h.rob_ignored += ev.rob.ignored.len() as u64;
        h.clamp_kind += ev.clamp_kind;
        let mut this_ack = None;
        if let Some(a) = &ev.ack {
            h.acks[a.ty] += 1;
            h.yield_pass += u64::from(yield_pass);
            this_ack = Some(a.ty);
            h.back_to_back += u64::from(self.last_ack == Some(a.ty));
            let has_ref = a.ref_valid != 0;
            let home = a.ref_eus.iter().copied().find(|&x| a.ref_eus.iter().filter(|&&y| y == x).count() > 1).or(a.ref_eus.first().copied());
            match a.ty {
                TRI => {
                    h.tri_local += u64::from(has_ref && !a.global_ref);
                    h.tri_global += u64::from(a.global_ref);
                    h.vdt_miss += u64::from(a.pkt.as_ref().is_some_and(|k| k.indexed) && a.ref_valid != 0b111);
                }
                PIX => {
                    h.pix_local += u64::from(has_ref && !a.global_ref);
                    h.pix_global += u64::from(a.global_ref);
                    h.pt_miss += u64::from(!has_ref);
                }
                _ => {}
            }
            h.home_fallback += u64::from(home.is_some_and(|x| x != a.eu));
            h.vdt_way_nonzero += u64::from((a.ty == VTX || a.ty == PATCH) && a.way > 0);
        }
        self.last_ack = this_ack;
    }

    /// The bins and whether the parameters and the mode require them.
    pub fn bins(&self) -> Vec<(String, u64, bool)> {
        let h = &self.hits;
        let p = &self.m.p;
        let errs = self.allow_errors;
        let multi = p.eus > 1;
        let tri_vdt = p.has(TRI) && p.has_vdt();
        let classes = p.types.iter().filter(|&&x| x).count();
        let rob = p.pixel_reorder > 0;
        let ways = p.vdt_ways > 1;
        let kinds = p.kinds() > 1;
        let mut v: Vec<(String, u64, bool)> = (0..4)
            .map(|t| (format!("acks[{}]", super::model::TYPE_NAMES[t]), h.acks[t], p.has(t)))
            .collect();
        v.extend([
            ("refusals".to_string(), h.refusals, true),
            ("sticky_waits".into(), h.sticky_waits, true),
            ("backpressure".into(), h.backpressure, true),
            ("stalls".into(), h.stalls, true),
            ("tri_local".into(), h.tri_local, tri_vdt),
            ("tri_global".into(), h.tri_global, tri_vdt && multi),
            ("pix_local".into(), h.pix_local, p.has(PIX)),
            ("pix_global".into(), h.pix_global, p.has(PIX) && multi),
            ("home_fallback".into(), h.home_fallback, (tri_vdt || p.has(PIX)) && multi),
            ("vdt_block".into(), h.vdt_block, p.has_vdt()),
            ("pt_block".into(), h.pt_block, p.has(TRI)),
            ("vdt_miss".into(), h.vdt_miss, tri_vdt),
            ("pt_miss".into(), h.pt_miss, p.has(PIX)),
            ("back_to_back".into(), h.back_to_back, true),
            ("yield_pass".into(), h.yield_pass, classes > 1),
            ("en_off".into(), h.en_off, true),
            ("cfg_reads".into(), h.cfg_reads, true),
            ("cfg_writes".into(), h.cfg_writes, true),
            ("w1c".into(), h.w1c, true),
            ("malformed".into(), h.malformed, errs && p.has_vdt()),
            ("err_release".into(), h.err_release, errs),
            ("err_credit".into(), h.err_credit, errs),
            ("resets".into(), h.resets, errs),
            ("ack_and_refuse".into(), h.ack_and_refuse, errs),
            ("ll_not_first_fit".into(), h.not_first_fit, p.select == Select::LeastLoaded && multi),
            ("rr_not_first_fit".into(), h.not_first_fit, p.select == Select::RoundRobin && multi),
            ("rr_wrap".into(), h.rr_wrap, p.select == Select::RoundRobin && multi),
            ("aged_grant".into(), h.aged_grant, p.aging > 0 && classes > 1),
            ("rank_grant".into(), h.rank_grant, (p.class_priority_reg || p.class_priority_changed()) && classes > 1),
            ("rob_full".into(), h.rob_full, rob),
            ("rob_out_of_order".into(), h.rob_out_of_order, rob),
            ("rob_pop".into(), h.rob_pop, rob),
            ("rob_backpressure".into(), h.rob_backpressure, rob),
            ("rob_ignored".into(), h.rob_ignored, rob && errs),
            ("vdt_way_nonzero".into(), h.vdt_way_nonzero, ways),
            ("vdt_set_conflict_avoided".into(), h.vdt_set_conflict_avoided, ways),
            ("vdt_all_ways_blocked".into(), h.vdt_all_ways_blocked, ways),
            ("vdt_hit_way_nonzero".into(), h.vdt_hit_way_nonzero, ways && tri_vdt),
            ("vdt_hit_two_ways".into(), h.vdt_hit_two_ways, ways && tri_vdt),
            ("fit_fail_kind_only".into(), h.fit_fail_kind_only, kinds && multi),
            ("wait_kind_only".into(), h.wait_kind_only, kinds),
            ("credit_kind".into(), h.credit_kind, kinds),
            ("clamp_kind".into(), h.clamp_kind, kinds && errs),
            ("kind_reg_rw".into(), h.kind_reg_rw, kinds),
        ]);
        v
    }

    /// Every required bin hit at least [`Coverage::MIN_HITS`] times.
    pub fn assert_all_hit(&self) -> Result<(), String> {
        if let Some(v) = &self.inv.violation {
            return Err(v.clone());
        }
        let missed: Vec<String> = self
            .bins()
            .into_iter()
            .filter(|(_, n, req)| *req && *n < Self::MIN_HITS)
            .map(|(name, n, _)| format!("{name}={n}"))
            .collect();
        if missed.is_empty() {
            Ok(())
        } else {
            Err(format!("coverage below {} hits after {} cycles: {}", Self::MIN_HITS, self.hits.cycles, missed.join(", ")))
        }
    }
}
