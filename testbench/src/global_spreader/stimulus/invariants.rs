//! The invariant checker of contract §6 ([`Invariants`]): I1–I4 and the status outputs, checked
//! every cycle against the [`Mirror`]'s books.

use super::{request_key, Mirror};
use crate::global_spreader::model::{
    GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, Select, PATCH, PIX, TRI, VTX,
};

/// The invariant checker of contract §6 (see the module documentation).
#[derive(Debug, Clone)]
pub struct Invariants {
    pub m: Mirror,
    legal: bool,
    /// Per slot: EUs that refused its packet since it was taken in.
    refused_any: [u64; 4],
    /// Per slot: EUs that refused its packet and are certainly still in its mask.
    refused_recent: [u64; 4],
    expect_err: [bool; 5],
    /// Per slot (`aging` only): the grant decisions in a row that passed it over while it was
    /// certainly eligible (R7a's bound).
    waited: [u64; 4],
    pub cycles: u64,
    /// The first violation seen.
    pub violation: Option<String>,
}

impl Invariants {
    /// `legal`: the stimulus makes no errors (no malformed packets, bad releases, credit
    /// overflows).
    pub fn new(p: &GlobalSpreaderParams, legal: bool) -> Self {
        Invariants {
            m: Mirror::new(p),
            legal,
            refused_any: [0; 4],
            refused_recent: [0; 4],
            expect_err: [false; 5],
            waited: [0; 4],
            cycles: 0,
            violation: None,
        }
    }

    /// Check one cycle (inputs driven, outputs observed), then account it. Returns the
    /// first violation (and keeps returning it), naming its cycle.
    pub fn check(&mut self, i: &GlobalSpreaderInputs, o: &GlobalSpreaderOutputs) -> Result<(), String> {
        if let Some(v) = &self.violation {
            return Err(v.clone());
        }
        let cycle = self.cycles;
        self.cycles += 1;
        let r = if i.reset { Ok(()) } else { self.check_cycle(i, o).and_then(|()| self.check_wait(o)) };
        let r = r.and_then(|()| self.account(i, o));
        if let Err(e) = r {
            let msg = format!("invariant violated in cycle {cycle}: {e}");
            self.violation = Some(msg.clone());
            return Err(msg);
        }
        Ok(())
    }

    /// After a drain: nothing in a slot, every EU fully credited, no table entry valid.
    pub fn finish(&self) -> Result<(), String> {
        if let Some(v) = &self.violation {
            return Err(v.clone());
        }
        let m = &self.m;
        if let Some(t) = (0..4).find(|&t| m.slots[t].is_some()) {
            return Err(format!("after draining, slot {t} still holds {:?}", m.slots[t]));
        }
        for e in 0..m.p.eus {
            if m.outstanding[e] != [0; 4] || m.records[e] != 0 {
                return Err(format!(
                    "after draining, EU {e} owes {:?} resources (per kind) and {} records",
                    m.outstanding[e], m.records[e]
                ));
            }
        }
        if let Some(s) = m.vdt.iter().position(|x| x.is_some()) {
            return Err(format!("after draining, VDT slot {s} still valid"));
        }
        if let Some(s) = m.pt.iter().position(|x| x.is_some()) {
            return Err(format!("after draining, PT entry {s} still valid"));
        }
        if !m.rob.queue.is_empty() {
            return Err(format!("after draining, pixels still in the ROB (not popped): {:?}", m.rob.queue));
        }
        Ok(())
    }

    /// Certainly eligible: not blocked and some candidate fits and never refused it.
    fn certainly_eligible(&self, t: usize) -> bool {
        self.m.slots[t].as_ref().is_some_and(|k| {
            let v = self.m.view(k);
            !v.blocked && v.cands.iter().any(|&(e, fit)| fit && self.refused_any[t] >> e & 1 == 0)
        })
    }

    fn check_cycle(&self, i: &GlobalSpreaderInputs, o: &GlobalSpreaderOutputs) -> Result<(), String> {
        let m = &self.m;
        let p = &m.p;
        // I1 and the status outputs (R16: FREE_RES per kind, the kinds not built 0).
        for e in 0..p.eus {
            let (fr, fe) = (m.free_res(e), m.free_edt(e));
            if o.st_free_res.get(e) != Some(&fr) || o.st_free_edt.get(e) != Some(&fe) {
                return Err(format!(
                    "EU {e}: st_free_res/st_free_edt {:?}/{:?}, books say {fr:?}/{fe} \
                     (RES_TOTAL {:?}, outstanding {:?}, EDT_TOTAL {}, records {})",
                    o.st_free_res.get(e),
                    o.st_free_edt.get(e),
                    m.r.res_total[e],
                    m.outstanding[e],
                    m.r.edt_total[e],
                    m.records[e]
                ));
            }
        }
        let avail = (0..p.eus).filter(|&e| m.r.eu_enable >> e & 1 == 1 && m.free_edt(e) != 0).count() as u64;
        if o.eu_avail_cnt != avail {
            return Err(format!("eu_avail_cnt {} != {avail}", o.eu_avail_cnt));
        }
        let errs = o.errs();
        for (k, name) in ["err_vdt_miss", "err_pt_miss", "err_malformed", "err_credit", "err_release"].iter().enumerate() {
            if self.expect_err[k] && !errs[k] {
                return Err(format!("{name} not set after its event"));
            }
        }
        if self.legal && (o.err_credit || o.err_release || o.err_malformed) {
            return Err(format!("error flag in a legal run: {:?}", errs));
        }
        let occupied: u64 = (0..4).filter(|&t| m.slots[t].is_some()).map(|t| 1 << t).sum();
        if o.st_slot_valid != occupied || o.busy != (occupied != 0) {
            return Err(format!("st_slot_valid {:#b} / busy {}, books {occupied:#b}", o.st_slot_valid, o.busy));
        }
        if o.stall != (o.busy && o.ar_valid == 0) {
            return Err("stall != busy && ar_valid == 0".into());
        }
        if p.has_vdt() {
            if let Some(s) = (0..p.vdt_depth).find(|&s| o.st_vdt_valid.get(s) != Some(&m.vdt[s].is_some())) {
                return Err(format!("st_vdt_valid[{s}] != books ({:?})", m.vdt[s]));
            }
        }
        if p.has_pt() {
            if let Some(s) = (0..p.pt_depth).find(|&s| o.st_pt_valid.get(s) != Some(&m.pt[s].is_some())) {
                return Err(format!("st_pt_valid[{s}] != books ({:?})", m.pt[s]));
            }
        }
        // R14: no pixel request while the ROB is full, `ar_seq` = TAIL, `po_valid` exactly when
        // the oldest acked pixel is complete, `po_seq` = HEAD.
        m.rob.check(o, o.ar_valid != 0 && o.ar_type as usize == PIX)?;
        // Channel ready.
        let acked = o.target().is_some_and(|e| i.ar_ready >> e & 1 == 1);
        for t in 0..4 {
            let exp = p.has(t) && m.r.en && (m.slots[t].is_none() || (acked && o.ar_type as usize == t));
            if o.ready(t) != exp {
                return Err(format!("ready of type {t} is {}, expected {exp}", o.ready(t)));
            }
        }
        // I3 / I4.
        if o.ar_valid.count_ones() > 1 || o.ar_valid >> p.eus != 0 {
            return Err(format!("ar_valid {:#x} not one-hot", o.ar_valid));
        }
        if let Some(h) = &m.held {
            if request_key(o) != *h {
                return Err(format!("held request changed or dropped: was {h:?}, now {:?}", request_key(o)));
            }
            return Ok(());
        }
        // R7b: R7's "priority order" is the current one (ranks as the mirror has them: the
        // configured constants, or CLASS_PRIO as written, effective from the next cycle), so
        // the class order is checked whatever the ranks, not skipped.
        let order = m.class_order();
        let Some(e) = o.target() else {
            let first = order.iter().copied().find(|&t| m.slots[t].is_some());
            let missed = if m.r.yield_en {
                order.iter().copied().find(|&t| self.certainly_eligible(t))
            } else {
                first.filter(|&t| self.certainly_eligible(t))
            };
            return match missed {
                Some(t) => Err(format!("no request although slot {t} is eligible ({:?})", m.slots[t])),
                None => Ok(()),
            };
        };
        let t = o.ar_type as usize;
        let Some(k) = m.slots.get(t).and_then(|s| s.as_ref()) else {
            return Err(format!("request of type {t} from an empty slot"));
        };
        // R7 (with `aging`, R7a may grant an aged slot first: check_wait bounds the wait instead).
        if p.aging == 0 {
            for &u in order.iter().take_while(|&&u| u != t) {
                if m.slots[u].is_some() && (!m.r.yield_en || self.certainly_eligible(u)) {
                    return Err(format!("type {t} granted while higher class {u} is occupied (yield {})", m.r.yield_en));
                }
            }
        }
        let v = m.view(k);
        if v.blocked {
            return Err(format!("request for a blocked packet {k:?}"));
        }
        let mut exp_refs = [[0u64; 3]; 4];
        let mut exp_valid = 0;
        for (n, rf) in v.refs.iter().enumerate() {
            exp_valid |= u64::from(rf.valid) << n;
            exp_refs[0][n] = rf.eu as u64;
            exp_refs[1][n] = rf.ent;
            exp_refs[2][n] = rf.elem;
            exp_refs[3][n] = rf.grp;
        }
        let global = v.refs.iter().any(|rf| rf.valid && rf.eu != e);
        let vcount = [k.count, 3, 0, 16][t];
        let base = if t == VTX || t == PATCH { v.base } else { 0 };
        let prid = if t == TRI || t == PIX { k.prid } else { 0 };
        let mask = if t == PIX { k.mask } else { 0 };
        // R15: the lowest way free for the packet (VTX / PATCH), else 0; 0 when direct mapped.
        let way = if t == VTX || t == PATCH { v.way as u64 } else { 0 };
        let got = (
            o.ar_src_addr,
            o.ar_copy_size,
            o.ar_footprint,
            o.ar_vcount,
            o.ar_base_idx,
            o.ar_prid,
            o.ar_pix_mask,
            o.ar_ref_valid,
            [o.ar_ref_eu, o.ar_ref_ent, o.ar_ref_elem, o.ar_ref_grp],
            o.ar_global_ref,
            o.ar_vdt_way,
        );
        // R16: `ar_copy_size` is kind 0's size; `ar_footprint` fp_k per kind.
        let want = (k.src_addr, k.size[0], v.fp, vcount, base, prid, mask, exp_valid, exp_refs, global, way);
        if got != want {
            return Err(format!("request payload {got:?}, expected {want:?} for {k:?}"));
        }
        let Some(pos) = v.cands.iter().position(|c| c.0 == e) else {
            return Err(format!("target EU {e} is not a candidate {:?} (enabled, dedicated, priority)", v.cands));
        };
        if !v.cands[pos].1 {
            return Err(format!("target EU {e} does not fit fp {:?} (free {:?} / {} records)", v.fp, m.free_res(e), m.free_edt(e)));
        }
        if self.refused_recent[t] >> e & 1 == 1 {
            return Err(format!("target EU {e} refused this packet and is still masked"));
        }
        let open = |c: usize, fit: bool| fit && self.refused_any[t] >> c & 1 == 0;
        if p.select != Select::FirstFit {
            // R6 least_loaded / round_robin: the home (locality) if it is open, else no open
            // PRIO candidate with more FREE_RES (of kind 0, R16), or as much and earlier (least_loaded) / closer
            // to RR_PTR in circular EU order (round_robin).
            let home_first = m.r.locality && v.home.is_some() && v.cands.first().map(|c| c.0) == v.home;
            if home_first && v.cands[0].0 != e && open(v.cands[0].0, v.cands[0].1) {
                return Err(format!("target EU {e}, but the home {:?} fits and never refused", v.home));
            }
            if !(home_first && pos == 0) {
                let skip = usize::from(home_first);
                let from_ptr = |x: usize| (x + p.eus - m.rr_ptr) % p.eus;
                let beats = |q: usize, c: usize| match p.select {
                    Select::RoundRobin => from_ptr(c) < from_ptr(e),
                    _ => m.free_res(c)[0] > m.free_res(e)[0] || (m.free_res(c)[0] == m.free_res(e)[0] && q < pos),
                };
                let better = v.cands.iter().enumerate().skip(skip).find(|&(q, &(c, fit))| open(c, fit) && beats(q, c));
                if let Some((_, &(c, _))) = better {
                    return Err(format!(
                        "EU {c} (free {}) beats target {e} (free {}, RR_PTR {}) in {:?} and never refused ({})",
                        m.free_res(c)[0], m.free_res(e)[0], m.rr_ptr, v.cands, p.select.name()
                    ));
                }
            }
            return Ok(());
        }
        if let Some(&(c, _)) = v.cands[..pos].iter().find(|&&(c, fit)| open(c, fit)) {
            return Err(format!(
                "EU {c} comes before target {e} in {:?}, fits and never refused (home {:?}, locality {})",
                v.cands, v.home, m.r.locality
            ));
        }
        Ok(())
    }

    /// R7a's bound (`aging` = L > 0): a slot that stays eligible is passed over in at most
    /// L + 3 grant decisions (cycles with no held request) in a row: L to reach the limit, then
    /// at most once by the aged slot of each of the three other classes, which needs L >= 3
    /// more passes to be aged again. Counted only while the slot is certainly eligible, which
    /// it then also is for the RTL.
    fn check_wait(&mut self, o: &GlobalSpreaderOutputs) -> Result<(), String> {
        let lim = self.m.p.aging;
        if lim == 0 || self.m.held.is_some() {
            return Ok(());
        }
        let granted = o.target().map(|_| o.ar_type as usize);
        for t in 0..4 {
            if self.m.slots[t].is_none() || granted == Some(t) || !self.certainly_eligible(t) {
                self.waited[t] = 0;
                continue;
            }
            self.waited[t] += 1;
            if self.waited[t] > lim + 3 {
                return Err(format!(
                    "slot {t} passed over in {} grant decisions in a row while eligible (aging {lim}: at most {})",
                    self.waited[t],
                    lim + 3
                ));
            }
        }
        Ok(())
    }

    fn account(&mut self, i: &GlobalSpreaderInputs, o: &GlobalSpreaderOutputs) -> Result<(), String> {
        let ev = self.m.update(i, o);
        self.expect_err = [false; 5];
        if ev.reset {
            self.refused_any = [0; 4];
            self.refused_recent = [0; 4];
            self.waited = [0; 4];
            return Ok(());
        }
        if let Some(t) = ev.overrun.first() {
            return Err(format!("a packet of type {t} was taken into a full slot"));
        }
        if let Some(&(e, k, v, total)) = ev.overcommit.first() {
            let what = if k < 4 { format!("resource kind {k}") } else { "records".into() };
            return Err(format!("EU {e} over-committed in {what}: {v} > {total}"));
        }
        if let Some(e) = ev.busy_total_write {
            return Err(format!("stimulus wrote a total of busy EU {e}"));
        }
        if let Some(a) = &ev.ack {
            match &a.pkt {
                None => return Err(format!("ack of type {} with an empty slot (duplicate?)", a.ty)),
                Some(k) if k.src_addr != a.src_addr => {
                    return Err(format!("ack of packet {:#x}, but the slot holds {:#x}", a.src_addr, k.src_addr))
                }
                Some(k) => {
                    if a.ty == TRI && k.indexed && a.ref_valid != 0b111 {
                        self.expect_err[0] = true;
                    }
                    if a.ty == PIX && a.ref_valid & 1 == 0 {
                        self.expect_err[1] = true;
                    }
                }
            }
        }
        self.expect_err[2] = !ev.malformed.is_empty();
        // R9 / R16: a clamp of any kind's free counter (or FREE_EDT's) sets `err_credit`.
        self.expect_err[3] = ev.clamped;
        // R14's EU obligation: each acked pixel is completed once, while outstanding; an ignored
        // completion is a stimulus error in a legal run.
        if let (true, Some(&(e, s))) = (self.legal, ev.rob.ignored.first()) {
            return Err(format!("EU {e} completed pixel seq {s}, not outstanding or already done (stimulus)"));
        }
        // Refused masks: see the module documentation.
        for t in 0..4 {
            match ev.request {
                Some((rt, _, again)) if rt == t => {
                    if ev.ack.is_some() {
                        self.refused_any[t] = 0;
                        self.refused_recent[t] = 0;
                    } else {
                        let bit = ev.refused.map_or(0, |(_, x)| 1 << x);
                        self.refused_recent[t] = if again { 0 } else { self.refused_recent[t] } | bit;
                        self.refused_any[t] |= bit;
                    }
                }
                _ => self.refused_recent[t] = 0,
            }
            if ev.transferred.iter().any(|k| k.ty == t) {
                self.refused_any[t] = 0;
                self.refused_recent[t] = 0;
            }
        }
        Ok(())
    }
}
