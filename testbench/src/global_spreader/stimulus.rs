//! Seeded random stimulus for the global spreader, functional coverage, and the
//! invariant checker of contract §6.
//!
//! **Stimulus** ([`GlobalSpreaderStimulus`]): four producers ([`PacketSource`]) present
//! packets on the four channels and hold each until it transfers (valid/ready);
//! `src_addr` is a unique packet id. Vertex packets are indexed or not, with full or
//! partial groups, sometimes aimed at a VDT slot in use (blocking); patches likewise;
//! triangles take their vertices from groups the VDT holds (one group → local refs,
//! several groups → global refs, random indices → misses) and a free PrID or, sometimes,
//! one in use (blocking); every acked triangle gets 0–4 pixel packets, whose PT entry is
//! released either by the last pixel packet (`xp_last`) or afterwards by its owner
//! (`pr`); stray pixel packets with an unused triangle id miss the PT. The EU side is the
//! [`EuPool`] of `eu.rs` (acks, 5 % refusals, holds, credits, releases). Every 500–3,000
//! cycles a new phase gives each EU a random behaviour (quick, fast, slow to answer,
//! refusing 40 %, long-running entities) and the producers an offered load of ¼, ½ or
//! all of their default rates. Packet sizes are capped at a quarter of 2^RES_W−1.
//! Configuration traffic: a sweep reads every readable register (one read every few
//! cycles: well under 10,000 cycles per sweep for 32 EUs), random reads of any address,
//! random writes to CTRL (EN off for 1–30 cycles, LOCALITY, YIELD), EU_ENABLE, DED_MASK,
//! MIN_RES, FRAME_RES, PRIO (also empty slots), AUTO_IDX and STATUS (W1C), and
//! RES_TOTAL/EDT_TOTAL of an idle EU (which refuses in that cycle, so no request to it
//! can be acked or held across the write). Every 1,500–3,500 cycles a "restore"
//! sequence writes a feasible configuration (all EUs enabled and dedicated, MIN_RES 0, a
//! random permutation as priority), so that waits caused by the random configuration end.
//! [`GlobalSpreaderStimulus::drain`] stops new packets, restores the configuration and
//! lets everything complete.
//!
//! With `allow_errors` the stimulus also sends malformed vertex and patch packets,
//! releases of invalid VDT/PT entries, credits to idle EUs (which overflow), ack and
//! refuse together, `cr_edt` without `cr_valid`, and reset pulses (all strobes quiet
//! while `reset` is 1).
//!
//! **Checker** ([`Invariants`]): keeps its own books from the inputs and outputs only (a
//! [`Mirror`]: the registers as written, per-EU outstanding footprint and records from
//! acks and credits, VDT/PT validity from acks and releases, the packet in each slot from
//! the transfers) and checks every cycle:
//! * I1 no over-commit: outstanding <= RES_TOTAL and records <= EDT_TOTAL per EU;
//!   `st_free_res = RES_TOTAL − outstanding`, `st_free_edt = EDT_TOTAL − records`,
//!   `eu_avail_cnt`; no `err_credit` (legal runs);
//! * I2 every non-malformed transferred packet is acked once, with its payload, in channel
//!   order (the ack's `ar_src_addr` is the id of the packet in the slot); malformed
//!   packets are never acked and raise `err_malformed` in the next cycle;
//!   [`Invariants::finish`] after a drain: slots empty, every EU fully credited, tables
//!   empty;
//! * I3 `ar_valid` one-hot or 0; a request neither acked nor refused is presented again
//!   unchanged; a new request comes from an occupied, unblocked slot, with the payload the
//!   rules give (fp, base, refs, home, `ar_global_ref`), to a candidate that is enabled,
//!   dedicated and fits, such that no earlier candidate fits and has never refused this
//!   packet, and not to an EU that refused it since it was last re-evaluated with a
//!   possible mask clear; the class order (YIELD_EN 0: the first occupied slot; 1: no
//!   higher slot that is certainly eligible) and no missing grant when a slot is certainly
//!   eligible;
//! * I4 locality (part of I3's candidate order: the home is the first candidate when
//!   LOCALITY_EN and it is enabled and dedicated) and `ar_global_ref` = some valid ref's EU
//!   differs from the target;
//! * `*_ready` = EN && (slot empty || its request acked), `busy`, `stall`,
//!   `st_slot_valid`, `st_vdt_valid`, `st_pt_valid`, the miss flags after a missing ref.
//!
//! **Coverage** ([`Coverage`]): acks per type, refusals, held (sticky) cycles,
//! back-pressure cycles, stalls, TRI and PIX dispatches with local and with global refs,
//! home not taken (locality fallback), VDT and PT blocking, VDT and PT misses,
//! back-to-back dispatches of one class, yield passes, EN off, reads, writes, W1C, and in
//! error mode malformed packets, `err_release`, `err_credit`, resets, ack with refuse.
//! Every bin needs [`Coverage::MIN_HITS`] hits, except where the parameters make it
//! impossible: with one EU every valid ref is in the target, so global refs and the
//! locality fallback cannot happen; bins of absent types are not required.

use super::eu::{EuBehaviour, EuPool};
use super::model::{
    ones, reg, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, Packet, PtEntry, Ref, Regs,
    VdtEntry, CLASS_PRIORITY, PATCH, PIX, TRI, VTX,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, VecDeque};

// =====================================================================================
// Mirror: the checker's own books
// =====================================================================================

/// The `ar_*` fields of a request, for sticky comparisons.
pub fn request_key(o: &GlobalSpreaderOutputs) -> [u64; 23] {
    let mut k = [0u64; 23];
    let head = [
        o.ar_valid,
        o.ar_type,
        o.ar_footprint,
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
    k
}

/// What the checker expects of a packet in its slot (its reading of R4–R5).
#[derive(Debug, Clone)]
pub struct View {
    pub base: u64,
    pub blocked: bool,
    pub refs: [Ref; 3],
    pub home: Option<usize>,
    pub fp: u64,
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
    pub fp: u64,
    pub base: u64,
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
    /// (EU, outstanding before clamping, total) when an EU's books exceed its capacity.
    pub overcommit: Vec<(usize, i64, u64)>,
    /// RES_TOTAL/EDT_TOTAL written while the EU had something outstanding.
    pub busy_total_write: Option<usize>,
}

/// The checker's books, kept from inputs and outputs only.
#[derive(Debug, Clone)]
pub struct Mirror {
    pub p: GlobalSpreaderParams,
    pub r: Regs,
    pub outstanding: Vec<u64>,
    pub records: Vec<u64>,
    pub vdt: Vec<Option<VdtEntry>>,
    pub pt: Vec<Option<PtEntry>>,
    pub slots: [Option<Packet>; 4],
    /// The request of the previous cycle if it was neither acked nor refused.
    pub held: Option<[u64; 23]>,
    pub cycle: u64,
}

impl Mirror {
    pub fn new(p: &GlobalSpreaderParams) -> Self {
        Mirror {
            p: p.clone(),
            r: Regs::reset(p),
            outstanding: vec![0; p.eus],
            records: vec![0; p.eus],
            vdt: vec![None; if p.has_vdt() { p.vdt_depth } else { 0 }],
            pt: vec![None; if p.has_pt() { p.pt_depth } else { 0 }],
            slots: Default::default(),
            held: None,
            cycle: 0,
        }
    }

    fn reset(&mut self) {
        let c = self.cycle;
        *self = Mirror::new(&self.p);
        self.cycle = c;
    }

    pub fn free_res(&self, e: usize) -> u64 {
        self.r.res_total[e].saturating_sub(self.outstanding[e])
    }
    pub fn free_edt(&self, e: usize) -> u64 {
        self.r.edt_total[e].saturating_sub(self.records[e])
    }
    pub fn fits(&self, e: usize, fp: u64, t: usize) -> bool {
        self.free_res(e) >= fp && self.free_res(e) >= self.r.min_res[t] && self.free_edt(e) >= 1
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
        let vdt_valid = |s: usize| self.vdt[s % p.vdt_depth].is_some();
        let blocked = match t {
            VTX => vdt_valid(p.slot(base)),
            PATCH => (0..p.pg()).any(|g| vdt_valid(p.slot(base) + g)),
            TRI => self.pt[k.prid as usize].is_some(),
            _ => false,
        };
        let mut refs = [Ref::default(); 3];
        if t == TRI && k.indexed {
            for n in 0..3 {
                let v = k.vidx[n];
                if let Some(en) = self.vdt[p.slot(v)].filter(|en| en.tag == p.vtag(v)) {
                    refs[n] = Ref { valid: true, eu: en.eu, ent: en.ent, elem: v % p.vgrp as u64, grp: en.grp };
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
        let fp = k.size + self.r.frame_res[t];
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
        let cands = order.into_iter().map(|e| (e, self.fits(e, fp, t))).collect();
        View { base, blocked, refs, home, fp, cands }
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
        let mut debit = vec![(0u64, 0u64); n];
        let mut vdt_sets = Vec::new();
        let mut pt_set = None;
        let mut pt_clear = None;
        let mut auto = None;
        if let Some(e) = o.target() {
            let t = o.ar_type as usize & 3;
            ev.request = Some((t, e, prev_held.is_some()));
            if i.ar_ready >> e & 1 == 1 {
                let pkt = self.slots[t].take();
                let ent = i.ar_ent.get(e).copied().unwrap_or(0) & p.ent_mask();
                debit[e] = (o.ar_footprint, 1);
                match t {
                    VTX | PATCH => {
                        let groups = if t == VTX { 1 } else { p.pg() };
                        for g in 0..groups {
                            let en = VdtEntry { tag: p.vtag(o.ar_base_idx), eu: e, ent, grp: g as u64 };
                            vdt_sets.push(((p.slot(o.ar_base_idx) + g) % p.vdt_depth, en));
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
        // Credits (payload of cr_valid) and debits; the GS clamps at [0, total].
        for e in 0..n {
            let cv = i.cr_valid >> e & 1 == 1;
            let cr = if cv { i.cr_res.get(e).copied().unwrap_or(0) & p.res_mask() } else { 0 };
            let ce = u64::from(cv && i.cr_edt >> e & 1 == 1);
            let out = self.outstanding[e] as i64 + debit[e].0 as i64 - cr as i64;
            let rec = self.records[e] as i64 + debit[e].1 as i64 - ce as i64;
            if out > self.r.res_total[e] as i64 {
                ev.overcommit.push((e, out, self.r.res_total[e]));
            }
            if rec > self.r.edt_total[e] as i64 {
                ev.overcommit.push((e, rec, self.r.edt_total[e]));
            }
            self.outstanding[e] = out.clamp(0, self.r.res_total[e] as i64) as u64;
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
            0x008..=0x00B if t(0x008).1 => self.r.ded_mask[t(0x008).0] = d & p.eu_mask(),
            0x00C..=0x00F if t(0x00C).1 => self.r.min_res[t(0x00C).0] = d & p.res_mask(),
            0x010..=0x013 if t(0x010).1 => self.r.frame_res[t(0x010).0] = d & p.res_mask(),
            0x020..=0x03F if a - 0x020 < n => {
                let e = (a - 0x020) as usize;
                if self.outstanding[e] != 0 {
                    ev.busy_total_write = Some(e);
                }
                self.r.res_total[e] = d & p.res_mask();
                self.outstanding[e] = 0;
            }
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

// =====================================================================================
// Invariants
// =====================================================================================

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
        let r = if i.reset { Ok(()) } else { self.check_cycle(i, o) };
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
            if m.outstanding[e] != 0 || m.records[e] != 0 {
                return Err(format!(
                    "after draining, EU {e} owes {} resources and {} records",
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
        // I1 and the status outputs.
        for e in 0..p.eus {
            let (fr, fe) = (m.free_res(e), m.free_edt(e));
            if o.st_free_res.get(e) != Some(&fr) || o.st_free_edt.get(e) != Some(&fe) {
                return Err(format!(
                    "EU {e}: st_free_res/st_free_edt {:?}/{:?}, books say {fr}/{fe} (RES_TOTAL {}, outstanding {}, EDT_TOTAL {}, records {})",
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
        let Some(e) = o.target() else {
            let first = CLASS_PRIORITY.iter().copied().find(|&t| m.slots[t].is_some());
            let missed = if m.r.yield_en {
                CLASS_PRIORITY.iter().copied().find(|&t| self.certainly_eligible(t))
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
        for &u in CLASS_PRIORITY.iter().take_while(|&&u| u != t) {
            if m.slots[u].is_some() && (!m.r.yield_en || self.certainly_eligible(u)) {
                return Err(format!("type {t} granted while higher class {u} is occupied (yield {})", m.r.yield_en));
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
        );
        let want = (k.src_addr, k.size, v.fp, vcount, base, prid, mask, exp_valid, exp_refs, global);
        if got != want {
            return Err(format!("request payload {got:?}, expected {want:?} for {k:?}"));
        }
        let Some(pos) = v.cands.iter().position(|c| c.0 == e) else {
            return Err(format!("target EU {e} is not a candidate {:?} (enabled, dedicated, priority)", v.cands));
        };
        if !v.cands[pos].1 {
            return Err(format!("target EU {e} does not fit fp {} (free {} / {} records)", v.fp, m.free_res(e), m.free_edt(e)));
        }
        if self.refused_recent[t] >> e & 1 == 1 {
            return Err(format!("target EU {e} refused this packet and is still masked"));
        }
        if let Some(&(c, _)) = v.cands[..pos].iter().find(|&&(c, fit)| fit && self.refused_any[t] >> c & 1 == 0) {
            return Err(format!(
                "EU {c} comes before target {e} in {:?}, fits and never refused (home {:?}, locality {})",
                v.cands, v.home, m.r.locality
            ));
        }
        Ok(())
    }

    fn account(&mut self, i: &GlobalSpreaderInputs, o: &GlobalSpreaderOutputs) -> Result<(), String> {
        let ev = self.m.update(i, o);
        self.expect_err = [false; 5];
        if ev.reset {
            self.refused_any = [0; 4];
            self.refused_recent = [0; 4];
            return Ok(());
        }
        if let Some(t) = ev.overrun.first() {
            return Err(format!("a packet of type {t} was taken into a full slot"));
        }
        if let Some(&(e, v, total)) = ev.overcommit.first() {
            return Err(format!("EU {e} over-committed: {v} > {total}"));
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

// =====================================================================================
// Coverage
// =====================================================================================

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
    /// Acks of a class while a higher class's slot was occupied (YIELD_EN).
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
        for t in [VTX, PATCH, TRI] {
            if let Some(k) = &m.slots[t] {
                if m.view(k).blocked {
                    if t == TRI {
                        h.pt_block += 1;
                    } else {
                        h.vdt_block += 1;
                    }
                }
            }
        }
        if let Some(e) = o.target() {
            let (rd, rf) = (i.ar_ready >> e & 1 == 1, i.ar_refuse >> e & 1 == 1);
            h.ack_and_refuse += u64::from(rd && rf);
        }
        let higher_occupied = |t: usize| CLASS_PRIORITY.iter().take_while(|&&u| u != t).any(|&u| m.slots[u].is_some());
        let yield_pass = o.target().is_some() && higher_occupied(o.ar_type as usize);
        let ev = self.m.update(i, o);
        let h = &mut self.hits;
        h.refusals += u64::from(ev.refused.is_some());
        h.sticky_waits += u64::from(ev.held);
        h.malformed += ev.malformed.len() as u64;
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
            ("yield_pass".into(), h.yield_pass, p.types.iter().filter(|&&x| x).count() > 1),
            ("en_off".into(), h.en_off, true),
            ("cfg_reads".into(), h.cfg_reads, true),
            ("cfg_writes".into(), h.cfg_writes, true),
            ("w1c".into(), h.w1c, true),
            ("malformed".into(), h.malformed, errs && p.has_vdt()),
            ("err_release".into(), h.err_release, errs),
            ("err_credit".into(), h.err_credit, errs),
            ("resets".into(), h.resets, errs),
            ("ack_and_refuse".into(), h.ack_and_refuse, errs),
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

// =====================================================================================
// Packet producers
// =====================================================================================

/// The random packet mix (used by the stimulus and by the bench workload).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamMix {
    /// Percent chance per cycle that an idle VTX / TRI / PIX (stray) / PATCH producer
    /// presents a new packet (by type code; PIX packets of triangles come in addition).
    pub rate_pct: [u32; 4],
    /// `size` range per type code.
    pub size: [(u64, u64); 4],
    /// Percent of indexed VTX, PATCH and TRI packets.
    pub indexed_pct: u32,
    /// Percent of VTX packets with a partial group (count < VGRP).
    pub partial_pct: u32,
    /// Percent of indexed VTX/PATCH bases aimed at a VDT slot in use.
    pub vdt_conflict_pct: u32,
    /// Indexed TRI vertices: percent from one group, percent from several groups; the
    /// rest are random indices.
    pub tri_local_pct: u32,
    pub tri_spread_pct: u32,
    /// Percent of TRI packets with a PrID in use.
    pub pt_conflict_pct: u32,
    /// Pixel packets per acked triangle, uniform in [lo, hi].
    pub pixels_per_tri: (u32, u32),
    /// Percent of triangles whose PT entry the last pixel packet releases (else `pr`).
    pub last_pct: u32,
    /// Delay from a triangle's last pixel (or its ack) to the owner's `pr`.
    pub pr_delay: (u64, u64),
    /// Percent of malformed VTX/PATCH packets (error mode only).
    pub malformed_pct: u32,
}

impl Default for StreamMix {
    /// The random-test mix.
    fn default() -> Self {
        StreamMix {
            rate_pct: [40, 35, 3, 8],
            size: [(0, 20), (0, 12), (0, 6), (4, 28)],
            indexed_pct: 60,
            partial_pct: 25,
            vdt_conflict_pct: 8,
            tri_local_pct: 45,
            tri_spread_pct: 40,
            pt_conflict_pct: 6,
            pixels_per_tri: (0, 4),
            last_pct: 60,
            pr_delay: (0, 30),
            malformed_pct: 4,
        }
    }
}

/// A triangle's pixel plan.
#[derive(Debug, Clone)]
struct Plan {
    owner: usize,
    left: u32,
    by_last: bool,
}

/// The four producers: packets presented and held until they transfer, pixel packets of
/// the acked triangles, and the PT release of each triangle.
#[derive(Debug, Clone)]
pub struct PacketSource {
    p: GlobalSpreaderParams,
    pub mix: StreamMix,
    rng: ChaCha8Rng,
    /// The packet presented on each channel (by type code).
    pub presented: [Option<Packet>; 4],
    pix_queue: VecDeque<Packet>,
    /// Pixel packet id → PrID of its triangle plan.
    pix_of: HashMap<u64, u64>,
    plans: HashMap<u64, Plan>,
    next_id: u64,
    /// No new VTX/TRI/PATCH/stray PIX packets (pixel plans still complete).
    pub draining: bool,
    pub allow_errors: bool,
}

impl PacketSource {
    pub fn new(p: &GlobalSpreaderParams, seed: u64, mix: StreamMix) -> Self {
        PacketSource {
            p: p.clone(),
            mix,
            rng: ChaCha8Rng::seed_from_u64(seed),
            presented: Default::default(),
            pix_queue: VecDeque::new(),
            pix_of: HashMap::new(),
            plans: HashMap::new(),
            next_id: 1,
            draining: false,
            allow_errors: false,
        }
    }

    /// Nothing presented, queued or planned.
    pub fn idle(&self) -> bool {
        self.presented.iter().all(|x| x.is_none()) && self.pix_queue.is_empty() && self.plans.is_empty()
    }

    pub fn reset(&mut self) {
        self.presented = Default::default();
        self.pix_queue.clear();
        self.pix_of.clear();
        self.plans.clear();
    }

    fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id & self.p.addr_mask()
    }

    fn pct(&mut self, x: u32) -> bool {
        self.rng.gen_range(0..100) < x
    }

    /// A packet size from the mix, scaled down for narrow resource counters (at most a
    /// quarter of 2^RES_W−1).
    fn size(&mut self, t: usize) -> u64 {
        let cap = (self.p.res_mask() / 4).max(1);
        let (lo, hi) = self.mix.size[t];
        let hi = hi.min(cap);
        self.rng.gen_range(lo.min(hi)..=hi)
    }

    /// Valid VDT entries as (vertex group number, EU).
    fn live_groups(&self, m: &Mirror) -> Vec<(u64, usize)> {
        let p = &self.p;
        m.vdt
            .iter()
            .enumerate()
            .filter_map(|(s, en)| en.map(|en| ((en.tag << p.vdt_aw()) | s as u64, en.eu)))
            .collect()
    }

    fn free_prid(&mut self, m: &Mirror) -> u64 {
        let p = &self.p;
        let in_slot = m.slots[TRI].as_ref().map(|k| k.prid);
        let mut pick = 0;
        for _ in 0..8 {
            pick = self.rng.gen_range(0..p.pt_depth as u64);
            if m.pt[pick as usize].is_none() && !self.plans.contains_key(&pick) && in_slot != Some(pick) {
                break;
            }
        }
        pick
    }

    fn gen(&mut self, t: usize, m: &Mirror) -> Option<Packet> {
        let p = self.p.clone();
        let idx_mask = p.idx_mask();
        let mut k = Packet { ty: t, src_addr: self.id(), size: self.size(t), ..Default::default() };
        let groups = if t != PIX { self.live_groups(m) } else { Vec::new() };
        match t {
            VTX | PATCH => {
                k.indexed = self.pct(self.mix.indexed_pct);
                let align = if t == VTX { p.vgrp as u64 } else { 16 };
                k.base_idx = if k.indexed && !groups.is_empty() && self.pct(self.mix.vdt_conflict_pct) {
                    let (g, _) = groups[self.rng.gen_range(0..groups.len())];
                    let tag = self.rng.gen_range(0..4u64);
                    (((g | tag << p.vdt_aw()) << p.elem_w()) & idx_mask) / align * align
                } else if k.indexed {
                    (self.rng.gen::<u64>() & idx_mask) / align * align
                } else {
                    self.rng.gen::<u64>() & idx_mask
                };
                if t == VTX {
                    k.count = if self.pct(self.mix.partial_pct) { self.rng.gen_range(1..=p.vgrp as u64) } else { p.vgrp as u64 };
                }
                if self.allow_errors && self.pct(self.mix.malformed_pct) {
                    match self.rng.gen_range(0..3) {
                        0 if t == VTX => k.count = 0,
                        1 if t == VTX => k.count = self.rng.gen_range(p.vgrp as u64 + 1..=ones(p.vcnt_w())),
                        _ => {
                            k.indexed = true;
                            k.base_idx = (k.base_idx / align * align) | self.rng.gen_range(1..align);
                        }
                    }
                }
            }
            TRI => {
                k.indexed = p.has_vdt() && self.pct(self.mix.indexed_pct.max(70));
                let vert = |rng: &mut ChaCha8Rng, g: u64| ((g << p.elem_w()) | rng.gen_range(0..p.vgrp as u64)) & idx_mask;
                let x = self.rng.gen_range(0..100);
                for n in 0..3 {
                    k.vidx[n] = if groups.is_empty() || x >= self.mix.tri_local_pct + self.mix.tri_spread_pct {
                        self.rng.gen::<u64>() & idx_mask
                    } else if x < self.mix.tri_local_pct {
                        vert(&mut self.rng, groups[0].0)
                    } else {
                        let g = groups[self.rng.gen_range(0..groups.len())].0;
                        vert(&mut self.rng, g)
                    };
                }
                if x < self.mix.tri_local_pct && !groups.is_empty() {
                    let g = groups[self.rng.gen_range(0..groups.len())].0;
                    for n in 0..3 {
                        k.vidx[n] = vert(&mut self.rng, g);
                    }
                }
                let live: Vec<u64> = (0..p.pt_depth as u64).filter(|&s| m.pt[s as usize].is_some()).collect();
                k.prid = if !live.is_empty() && self.pct(self.mix.pt_conflict_pct) {
                    live[self.rng.gen_range(0..live.len())]
                } else {
                    self.free_prid(m)
                };
            }
            _ => {
                // A stray pixel packet: a triangle id not in use, never `last`.
                k.prid = self.free_prid(m);
                k.mask = self.rng.gen_range(1..=0xFFFF);
            }
        }
        Some(k)
    }

    /// Present packets for the next cycle into `inp`.
    pub fn drive(&mut self, m: &Mirror, inp: &mut GlobalSpreaderInputs) {
        for t in 0..4 {
            if !self.p.has(t) {
                continue;
            }
            if self.presented[t].is_none() {
                if t == PIX && !self.pix_queue.is_empty() {
                    self.presented[t] = self.pix_queue.pop_front();
                } else if !self.draining && self.pct(self.mix.rate_pct[t]) {
                    self.presented[t] = self.gen(t, m);
                }
            }
            match self.presented[t].clone() {
                Some(k) => put(inp, &k, true),
                None => {
                    // Don't-care payload.
                    let k = Packet {
                        ty: t,
                        indexed: self.rng.gen(),
                        base_idx: self.rng.gen(),
                        count: self.rng.gen_range(0..32),
                        vidx: [self.rng.gen(), self.rng.gen(), self.rng.gen()],
                        prid: self.rng.gen(),
                        mask: self.rng.gen(),
                        last: self.rng.gen(),
                        size: self.rng.gen(),
                        src_addr: self.rng.gen(),
                    };
                    put(inp, &k, false);
                }
            }
        }
    }

    /// Account the cycle: transfers end a presentation; acked triangles get pixel plans;
    /// a plan's end schedules the owner's `pr`.
    pub fn account(
        &mut self,
        i: &GlobalSpreaderInputs,
        o: &GlobalSpreaderOutputs,
        ev: &CycleEvents,
        pool: &mut EuPool,
    ) {
        if ev.reset {
            self.reset();
            return;
        }
        for t in 0..4 {
            if i.valid(t) && o.ready(t) {
                self.presented[t] = None;
            }
        }
        let Some(a) = &ev.ack else { return };
        match a.ty {
            TRI if self.p.has(PIX) => {
                let (lo, hi) = self.mix.pixels_per_tri;
                let n = self.rng.gen_range(lo..=hi);
                let by_last = n > 0 && self.pct(self.mix.last_pct);
                for j in 0..n {
                    let k = Packet {
                        ty: PIX,
                        prid: a.prid,
                        mask: self.rng.gen_range(1..=0xFFFF),
                        last: by_last && j + 1 == n,
                        size: self.size(PIX),
                        src_addr: self.id(),
                        ..Default::default()
                    };
                    self.pix_of.insert(k.src_addr, a.prid);
                    self.pix_queue.push_back(k);
                }
                if n == 0 {
                    let d = self.rng.gen_range(self.mix.pr_delay.0..=self.mix.pr_delay.1);
                    pool.release_pt(a.eu, a.prid, d);
                } else {
                    self.plans.insert(a.prid, Plan { owner: a.eu, left: n, by_last });
                }
            }
            TRI => {
                let d = self.rng.gen_range(self.mix.pr_delay.0..=self.mix.pr_delay.1);
                pool.release_pt(a.eu, a.prid, d);
            }
            PIX => {
                if let Some(prid) = self.pix_of.remove(&a.src_addr) {
                    let plan = self.plans.get_mut(&prid).expect("plan of a pixel packet");
                    plan.left -= 1;
                    if plan.left == 0 {
                        let plan = self.plans.remove(&prid).unwrap();
                        if !plan.by_last {
                            let d = self.rng.gen_range(self.mix.pr_delay.0..=self.mix.pr_delay.1);
                            pool.release_pt(plan.owner, prid, d);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// Drive channel `k.ty` with packet `k`.
pub fn put(inp: &mut GlobalSpreaderInputs, k: &Packet, valid: bool) {
    match k.ty {
        VTX => {
            inp.vp_valid = valid;
            inp.vp_indexed = k.indexed;
            inp.vp_base_idx = k.base_idx;
            inp.vp_count = k.count;
            inp.vp_size = k.size;
            inp.vp_src_addr = k.src_addr;
        }
        PATCH => {
            inp.pp_valid = valid;
            inp.pp_indexed = k.indexed;
            inp.pp_base_idx = k.base_idx;
            inp.pp_size = k.size;
            inp.pp_src_addr = k.src_addr;
        }
        TRI => {
            inp.tp_valid = valid;
            inp.tp_indexed = k.indexed;
            inp.tp_vidx = k.vidx;
            inp.tp_prid = k.prid;
            inp.tp_size = k.size;
            inp.tp_src_addr = k.src_addr;
        }
        _ => {
            inp.xp_valid = valid;
            inp.xp_tri_id = k.prid;
            inp.xp_mask = k.mask;
            inp.xp_last = k.last;
            inp.xp_size = k.size;
            inp.xp_src_addr = k.src_addr;
        }
    }
}

// =====================================================================================
// The random stimulus
// =====================================================================================

/// Every readable register address for the parameters (the read sweep).
pub fn readable_registers(p: &GlobalSpreaderParams) -> Vec<u64> {
    let mut v = vec![reg::CTRL, reg::EU_ENABLE, reg::AUTO_IDX, reg::STATUS, reg::STALL_CNT];
    let types: Vec<usize> = (0..4).filter(|&t| p.has(t)).collect();
    for &t in &types {
        v.extend([reg::ded_mask(t), reg::min_res(t), reg::frame_res(t)]);
    }
    for e in 0..p.eus {
        v.extend([
            reg::res_total(e),
            reg::free_res(e),
            reg::edt_total(e),
            reg::free_edt(e),
            reg::reject_cnt(e),
            reg::nack_cnt(e),
        ]);
        for &t in &types {
            v.extend([reg::prio(t, e), reg::alloc_cnt(e, t), reg::pend(e, t)]);
        }
    }
    v
}

/// Seeded random stimulus with the EU models; see the module documentation.
#[derive(Debug, Clone)]
pub struct GlobalSpreaderStimulus {
    p: GlobalSpreaderParams,
    rng: ChaCha8Rng,
    allow_errors: bool,
    pub pool: EuPool,
    pub src: PacketSource,
    mirror: Mirror,
    prev: Option<GlobalSpreaderInputs>,
    cycle: u64,
    /// Writes to do before any random one: (cycle, addr, data).
    timed: Vec<(u64, u64, u64)>,
    restore: VecDeque<(u64, u64)>,
    next_restore: u64,
    next_phase: u64,
    sweep: Vec<u64>,
    sweep_pos: usize,
    draining: bool,
}

impl GlobalSpreaderStimulus {
    pub fn new(p: &GlobalSpreaderParams, seed: u64) -> Self {
        p.validate().expect("global_spreader parameters");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pool = EuPool::new(p, rng.gen(), EuBehaviour::default());
        let src = PacketSource::new(p, rng.gen(), StreamMix::default());
        GlobalSpreaderStimulus {
            p: p.clone(),
            rng,
            allow_errors: false,
            pool,
            src,
            mirror: Mirror::new(p),
            prev: None,
            cycle: 0,
            timed: Vec::new(),
            restore: VecDeque::new(),
            next_restore: 2000,
            next_phase: 0,
            sweep: readable_registers(p),
            sweep_pos: 0,
            draining: false,
        }
    }

    /// Also produce errors (see the module documentation).
    pub fn allow_errors(mut self, on: bool) -> Self {
        self.allow_errors = on;
        self.src.allow_errors = on;
        self.pool.misbehave = on;
        self
    }

    /// Stop new packets and errors, restore a feasible configuration, let everything
    /// complete ([`GlobalSpreaderStimulus::drained`] tells when).
    pub fn drain(&mut self) {
        self.draining = true;
        self.src.draining = true;
        self.pool.misbehave = false;
        self.timed.clear();
        self.queue_restore();
    }

    /// Draining and nothing left anywhere (in the producers, the GS or the EUs).
    pub fn drained(&self) -> bool {
        self.draining
            && self.src.idle()
            && self.pool.all_idle()
            && self.mirror.slots.iter().all(|s| s.is_none())
            && self.restore.is_empty()
            && self.mirror.vdt.iter().all(|x| x.is_none())
            && self.mirror.pt.iter().all(|x| x.is_none())
    }

    /// What is still pending (for drain diagnostics).
    pub fn pending(&self) -> String {
        let m = &self.mirror;
        format!(
            "presented {:?}, pixel queue {}, plans {:?}, EUs idle {:?}, slots {:?}, VDT valid {:?}, PT valid {:?}, restore writes {}, regs {:?}",
            self.src.presented.iter().map(|k| k.as_ref().map(|k| k.src_addr)).collect::<Vec<_>>(),
            self.src.pix_queue.len(),
            self.src.plans.keys().collect::<Vec<_>>(),
            (0..self.p.eus).map(|e| self.pool.idle(e)).collect::<Vec<_>>(),
            m.slots,
            (0..m.vdt.len()).filter(|&s| m.vdt[s].is_some()).collect::<Vec<_>>(),
            (0..m.pt.len()).filter(|&s| m.pt[s].is_some()).collect::<Vec<_>>(),
            self.restore.len(),
            m.r,
        )
    }

    fn pct(&mut self, x: u32) -> bool {
        self.rng.gen_range(0..100) < x
    }

    /// Inputs for the next cycle; `last` = the outputs for the previous call's inputs
    /// (ignored on the first call, which is a reset cycle).
    pub fn next(&mut self, last: &GlobalSpreaderOutputs) -> GlobalSpreaderInputs {
        let reset = match self.prev.take() {
            None => true,
            Some(prev) => {
                let ev = self.mirror.update(&prev, last);
                self.pool.observe(&prev, last);
                self.src.account(&prev, last, &ev, &mut self.pool);
                if ev.reset {
                    self.timed.clear();
                    self.restore.clear();
                }
                self.cycle += 1;
                self.allow_errors && !self.draining && self.rng.gen_ratio(1, 4000)
            }
        };
        let mut inp = GlobalSpreaderInputs::idle(&self.p);
        if reset {
            inp.reset = true;
            // Random don't-care payloads, strobes quiet.
            inp.vp_base_idx = self.rng.gen();
            inp.cfg_addr = self.rng.gen_range(0..0x400);
            inp.cfg_wdata = self.rng.gen();
            self.prev = Some(inp.clone());
            return inp;
        }
        self.behaviour_phase();
        self.config(&mut inp);
        if self.allow_errors && !self.draining {
            self.inject_errors();
        }
        self.src.drive(&self.mirror, &mut inp);
        self.pool.drive(&mut inp);
        self.prev = Some(inp.clone());
        inp
    }

    /// Every 500–3,000 cycles each EU gets a new behaviour.
    fn behaviour_phase(&mut self) {
        if self.cycle < self.next_phase {
            return;
        }
        self.next_phase = self.cycle + self.rng.gen_range(500..3000);
        // Offered load: a quarter, half or all of the default packet rates.
        let scale = [25, 50, 100, 100][self.rng.gen_range(0..4)];
        self.src.mix.rate_pct = StreamMix::default().rate_pct.map(|r| (r * scale / 100).max(1));
        for e in 0..self.p.eus {
            let b = match self.rng.gen_range(0..10) {
                0..=4 => EuBehaviour::default(),
                5 | 6 => EuBehaviour { answer_pct: 100, refuse_pct: 2, work: (1, 12), retain: (1, 10), ..Default::default() },
                7 => EuBehaviour { answer_pct: 30, max_hold: 12, work: (20, 150), ..Default::default() },
                8 => EuBehaviour { refuse_pct: 40, ..Default::default() },
                _ => EuBehaviour { work: (60, 300), retain: (30, 200), ..Default::default() },
            };
            self.pool.behaviour[e] = b;
        }
    }

    fn queue_restore(&mut self) {
        let p = self.p.clone();
        let ctrl = 1 | u64::from(self.pct(75)) << 1 | u64::from(self.pct(50)) << 2;
        self.restore.push_back((reg::CTRL, ctrl));
        self.restore.push_back((reg::EU_ENABLE, p.eu_mask()));
        for t in (0..4).filter(|&t| p.has(t)) {
            self.restore.push_back((reg::ded_mask(t), p.eu_mask()));
            self.restore.push_back((reg::min_res(t), 0));
            let f = if self.pct(70) { 0 } else { self.rng.gen_range(0..4) };
            self.restore.push_back((reg::frame_res(t), f));
            let mut perm: Vec<u64> = (0..p.eus as u64).collect();
            if self.pct(60) {
                for s in (1..perm.len()).rev() {
                    perm.swap(s, self.rng.gen_range(0..=s));
                }
            }
            for (s, e) in perm.into_iter().enumerate() {
                self.restore.push_back((reg::prio(t, s), e));
            }
        }
        for e in 0..p.eus {
            if self.pool.totals(e) != (p.res_total[e], p.edt_total[e]) {
                self.restore.push_back((reg::res_total(e), p.res_total[e]));
                self.restore.push_back((reg::edt_total(e), p.edt_total[e]));
            }
        }
    }

    /// A write of RES_TOTAL/EDT_TOTAL of EU e is allowed now (idle, refusing this cycle).
    fn total_write_ok(&mut self, e: usize) -> bool {
        let held_here = self.mirror.held.is_some_and(|k| k[0] >> e & 1 == 1);
        self.pool.idle(e) && self.mirror.outstanding[e] == 0 && self.mirror.records[e] == 0 && !held_here
    }

    fn write_total(&mut self, inp: &mut GlobalSpreaderInputs, addr: u64, data: u64) -> bool {
        let res = (0x020..0x040).contains(&addr);
        let e = (addr & 0x1F) as usize;
        if e >= self.p.eus || !self.total_write_ok(e) {
            return false;
        }
        let (r, d) = self.pool.totals(e);
        let (r, d) = if res {
            (data & self.p.res_mask(), d)
        } else {
            (r, (data & 0xFFFF_FFFF).min(1 << self.p.ent_w))
        };
        self.pool.set_totals(e, r, d);
        self.pool.force_refuse(e);
        *inp = inp.clone().write(addr, data);
        true
    }

    fn config(&mut self, inp: &mut GlobalSpreaderInputs) {
        let now = self.cycle;
        if !self.draining && now >= self.next_restore {
            self.next_restore = now + self.rng.gen_range(1500..3500);
            self.queue_restore();
        }
        if let Some(k) = self.timed.iter().position(|w| w.0 <= now) {
            let (_, a, d) = self.timed.remove(k);
            *inp = inp.clone().write(a, d);
            return;
        }
        while let Some((a, d)) = self.restore.pop_front() {
            if (0x020..0x040).contains(&a) || (0x060..0x080).contains(&a) {
                if self.write_total(inp, a, d) {
                    return;
                }
                if self.draining {
                    // Busy EU: retry later (it becomes idle while draining).
                    self.restore.push_back((a, d));
                    break;
                }
                continue; // busy EU: skip, the next restore retries
            }
            *inp = inp.clone().write(a, d);
            return;
        }
        if !self.draining && self.pct(3) {
            self.random_write(inp);
            return;
        }
        if now % 3 == 0 {
            let a = self.sweep[self.sweep_pos];
            self.sweep_pos = (self.sweep_pos + 1) % self.sweep.len();
            *inp = inp.clone().read(a);
        } else if self.pct(2) {
            let a = self.rng.gen_range(0..0x400);
            *inp = inp.clone().read(a);
        } else {
            inp.cfg_addr = self.rng.gen_range(0..0x400);
            inp.cfg_wdata = self.rng.gen::<u32>() as u64;
            inp.cfg_we = self.rng.gen();
        }
    }

    fn random_write(&mut self, inp: &mut GlobalSpreaderInputs) {
        let p = self.p.clone();
        let types: Vec<usize> = (0..4).filter(|&t| p.has(t)).collect();
        let t = types[self.rng.gen_range(0..types.len())];
        let e = self.rng.gen_range(0..p.eus);
        let (a, d) = match self.rng.gen_range(0..100) {
            0..=9 => {
                // EN off for a while.
                let ctrl = self.mirror.r.locality as u64 * 2 | self.mirror.r.yield_en as u64 * 4;
                let back = self.cycle + self.rng.gen_range(1..30);
                self.timed.push((back, reg::CTRL, ctrl | 1));
                (reg::CTRL, ctrl)
            }
            10..=21 => (reg::CTRL, 1 | self.rng.gen_range(0..4) << 1),
            22..=31 => {
                let m = if self.pct(50) { p.eu_mask() & !(1 << e) } else { self.rng.gen::<u64>() & p.eu_mask() };
                (reg::EU_ENABLE, m)
            }
            32..=41 => (reg::ded_mask(t), self.rng.gen::<u64>() & p.eu_mask() | 1 << e),
            42..=49 => (reg::min_res(t), self.rng.gen_range(0..40)),
            50..=55 => (reg::frame_res(t), self.rng.gen_range(0..8)),
            56..=71 => (reg::prio(t, self.rng.gen_range(0..p.eus)), self.rng.gen_range(0..=ones(p.prio_w()))),
            72..=77 => (reg::AUTO_IDX, self.rng.gen::<u32>() as u64),
            78..=85 => (reg::STATUS, self.rng.gen_range(0..0x80)),
            86..=93 => {
                let a = if self.pct(50) { reg::res_total(e) } else { reg::edt_total(e) };
                let d = match self.rng.gen_range(0..10) {
                    0 => 0,
                    1 => self.rng.gen::<u32>() as u64,
                    2..=5 => self.rng.gen_range(8..=64),
                    _ => self.rng.gen_range(16..=(1 << p.ent_w).min(p.res_mask()).max(16)),
                };
                if self.write_total(inp, a, d) {
                    return;
                }
                (reg::STATUS, 0)
            }
            _ => (self.rng.gen_range(0..0x400), self.rng.gen::<u32>() as u64),
        };
        if (0x020..0x040).contains(&a) || (0x060..0x080).contains(&a) {
            // a random address hit a total: only for an idle EU
            if !self.write_total(inp, a, d) {
                *inp = inp.clone().read(a);
            }
            return;
        }
        *inp = inp.clone().write(a, d);
    }

    fn inject_errors(&mut self) {
        let p = self.p.clone();
        let e = self.rng.gen_range(0..p.eus);
        match self.rng.gen_range(0..400) {
            0 if p.has_vdt() => {
                // Release of a VDT slot not valid now (unless dispatched at this edge).
                let s = self.rng.gen_range(0..p.vdt_depth);
                if self.mirror.vdt[s].is_none() {
                    self.pool.extra_vr(e, s as u64);
                }
            }
            1 if p.has_pt() => {
                let s = self.rng.gen_range(0..p.pt_depth);
                if self.mirror.pt[s].is_none() {
                    self.pool.extra_pr(e, s as u64);
                }
            }
            2 if self.total_write_ok(e) => {
                // A credit to an idle EU: overflows and sets err_credit.
                let res = self.rng.gen_range(0..=p.res_mask());
                let edt = self.pct(50);
                self.pool.force_refuse(e);
                self.pool.extra_credit(e, res, edt, self.rng.gen_range(0..4));
            }
            _ => {}
        }
    }
}
