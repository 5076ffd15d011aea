//! EU behaviour models: the execution units seen from the global spreader (contract §6,
//! spec §5.11 reduced to what the GS observes).
//!
//! Each [`EuPool`] call to [`EuPool::drive`] fills the EU-side inputs of one cycle
//! (`ar_ready`, `ar_refuse`, `ar_ent`, `cr_*`, `vr_*`, `pr_*`) from the EUs' own books
//! only; [`EuPool::observe`] then tells the EUs what the GS did in that cycle (the
//! cycle's inputs and outputs). So EU e's inputs in cycle n depend only on its state and
//! the GS outputs before n, as the contract requires.
//!
//! Obligations kept (contract §6):
//! * **Answer.** In each cycle an EU either offers an ack (`ar_ready`), a refusal
//!   (`ar_refuse`) or neither, without seeing whether a request is presented in that
//!   cycle. A request held for [`EuBehaviour::max_hold`] cycles is answered in the next
//!   cycle, so every request is answered eventually. Refusals are random
//!   ([`EuBehaviour::refuse_pct`]), whatever the space. Ack and refuse together only
//!   when [`EuPool::misbehave`] is set (the GS must take the ack). `ar_ent[e]` is a
//!   record number below EDT_TOTAL[e] that is free in the EU's own books (random).
//! * **Credits.** Per acked entity, at least one cycle after the ack: exactly one
//!   `cr_edt` with `cr_type` = its type, after its processing time
//!   ([`EuBehaviour::work`]); `cr_res` pulses summing to its footprint, split at random
//!   into early parts and a final part. At most one pulse per EU per cycle (parts of
//!   several entities that fall due together are summed into one pulse, which carries at
//!   most one `cr_edt`). With resource kinds (R16, K > 1) each kind k's fp_k is split on its
//!   own the same way (early parts of one kind, due at random; the final parts of every kind
//!   together), so a pulse may carry one kind or several and each kind's pulses sum to fp_k;
//!   the random numbers of kinds >= 1 are drawn only with K > 1.
//! * **Releases.** VTX/PATCH entities are RETAINED after their `cr_edt`: after
//!   [`EuBehaviour::retain`] cycles the EU releases each of the entity's VDT slots (one
//!   `vr` per cycle, from `ar_base_idx`; with `vdt_ways` > 1 at {`ar_vdt_way`, set}, the way
//!   the request had at the ack, R15), and only then (same cycle or later) sends the
//!   final `cr_res`. PT entries are released by `pr` when the stimulus says so
//!   ([`EuPool::release_pt`]: after the triangle's last pixel packet when no pixel
//!   packet carries `xp_last`). Each entry is released once, by its owner.
//! * **Pixel completions** (R14, `pixel_reorder` only; contract §6): an EU keeps the `ar_seq`
//!   of every pixel packet it acks and completes it once (`pc_valid`, `pc_seq`), at least one
//!   cycle after the ack, after a random delay ([`EuBehaviour::complete`]), in random order
//!   among those due, at most one per cycle. [`EuPool::extra_pc`] injects an illegal
//!   completion (sent only in a cycle with none of the EU's own). Without the key no random
//!   number is drawn for this, so the stream is the same as before the key existed.
//! * Totals: [`EuPool::set_totals`] follows RES_TOTAL/EDT_TOTAL writes (the stimulus
//!   writes them only for an idle EU that is not the target of a held request, and that
//!   EU refuses in the write cycle, [`EuPool::force_refuse`], so that no request can be
//!   acked by it or held at it across the write).

use super::model::{ones, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, PerKind, PATCH, PIX, VTX};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The random behaviour of one EU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EuBehaviour {
    /// Percent of cycles in which the EU answers (ack or refusal) a request.
    pub answer_pct: u32,
    /// Percent of answers that are refusals.
    pub refuse_pct: u32,
    /// A request held this many cycles is answered in the next one.
    pub max_hold: u32,
    /// Processing time of an entity, ack to `cr_edt`, uniform in [lo, hi] (lo >= 1).
    pub work: (u64, u64),
    /// VTX/PATCH: cycles from `cr_edt` to the first `vr`, uniform in [lo, hi] (lo >= 1).
    pub retain: (u64, u64),
    /// Percent of entities whose resources come back in several pulses.
    pub split_pct: u32,
    /// R14: cycles from a pixel's ack to its completion, uniform in [lo, hi] (lo >= 1).
    pub complete: (u64, u64),
}

impl Default for EuBehaviour {
    /// A quick, mostly acknowledging EU (5 % refusals).
    fn default() -> Self {
        EuBehaviour {
            answer_pct: 80,
            refuse_pct: 5,
            max_hold: 6,
            work: (1, 40),
            retain: (1, 30),
            split_pct: 40,
            complete: (1, 40),
        }
    }
}

/// What happens to an acked entity next.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Stage {
    /// Processing until `cr_edt` can be sent (from cycle `edt_at`).
    Working { edt_at: u64 },
    /// VTX/PATCH after `cr_edt`: VDT slots still to release, from cycle `vr_at`.
    Retained { vr_at: u64, slots: Vec<usize> },
    /// Only the final resource credit is left, due from cycle `at`.
    Final { at: u64 },
}

/// An entity held by an EU.
#[derive(Debug, Clone)]
struct Entity {
    ty: usize,
    record: u64,
    /// Early resource parts still to send: (due cycle, amount per kind).
    early: Vec<(u64, PerKind)>,
    /// Resources of the final part, per kind.
    final_res: PerKind,
    /// VTX/PATCH: the VDT slots the entity occupies (from `ar_base_idx`).
    slots: Vec<usize>,
    stage: Stage,
}

/// One EU's books.
#[derive(Debug, Clone)]
struct Eu {
    /// RES_TOTAL per kind (R16).
    res_total: PerKind,
    edt_total: u64,
    /// Free EDT records.
    free_records: Vec<u64>,
    entities: Vec<Entity>,
    /// PT entries to release: (due cycle, prid).
    pr_due: Vec<(u64, u64)>,
    /// Cycles the current request has been held.
    hold: u32,
    /// Footprint acked and not yet credited, per kind.
    outstanding: PerKind,
    /// No ack or refusal in the next driven cycle.
    force_hold: bool,
    /// Refuse (never ack) in the next driven cycle.
    force_refuse: bool,
    /// Error injection for the next driven cycle: a release of a VDT slot / PT entry,
    /// a credit pulse (res, edt, type), each sent only if the EU sends none of its own.
    extra_vr: Option<u64>,
    extra_pr: Option<u64>,
    extra_credit: Option<(PerKind, bool, u64)>,
    /// `cr_res` left over when a pulse would exceed the port width, per kind.
    carry: PerKind,
    /// R14: pixels acked and not yet completed: (due cycle, `ar_seq` at the ack).
    pix_due: Vec<(u64, u64)>,
    /// Error injection: a completion of this seq in the next driven cycle (if none of its own).
    extra_pc: Option<u64>,
    // statistics
    acks: u64,
    refusals: u64,
    res_cycles: u64,
}

impl Eu {
    fn new(res_total: PerKind, edt_total: u64) -> Self {
        Eu {
            res_total,
            edt_total,
            free_records: (0..edt_total).collect(),
            entities: Vec::new(),
            pr_due: Vec::new(),
            hold: 0,
            outstanding: [0; 4],
            force_hold: false,
            force_refuse: false,
            extra_vr: None,
            extra_pr: None,
            extra_credit: None,
            carry: [0; 4],
            pix_due: Vec::new(),
            extra_pc: None,
            acks: 0,
            refusals: 0,
            res_cycles: 0,
        }
    }

    fn idle(&self) -> bool {
        self.entities.is_empty() && self.outstanding == [0; 4] && self.pr_due.is_empty() && self.carry == [0; 4]
    }
}

/// Statistics of one EU over a run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EuStats {
    pub acks: u64,
    pub refusals: u64,
    /// Sum over cycles of the footprint outstanding on the EU (its "busy" integral; kind 0).
    pub res_cycles: u64,
}

/// All EUs of a GS, with one random generator.
#[derive(Debug, Clone)]
pub struct EuPool {
    p: GlobalSpreaderParams,
    rng: ChaCha8Rng,
    pub behaviour: Vec<EuBehaviour>,
    eus: Vec<Eu>,
    /// Also drive ack and refuse together, and `cr_edt` without `cr_valid`.
    pub misbehave: bool,
    /// The cycle the next `drive` is for.
    cycle: u64,
}

impl EuPool {
    pub fn new(p: &GlobalSpreaderParams, seed: u64, behaviour: EuBehaviour) -> Self {
        EuPool {
            p: p.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            behaviour: vec![behaviour; p.eus],
            eus: (0..p.eus).map(|e| Eu::new(Self::res_totals(p, e), p.edt_total[e])).collect(),
            misbehave: false,
            cycle: 0,
        }
    }

    /// Forget every entity (after a GS reset): totals back to the parameters.
    pub fn reset(&mut self) {
        self.eus = (0..self.p.eus).map(|e| Eu::new(Self::res_totals(&self.p, e), self.p.edt_total[e])).collect();
    }

    /// RES_TOTAL[e] per kind after reset (R16).
    fn res_totals(p: &GlobalSpreaderParams, e: usize) -> PerKind {
        p.per_kind(|k| p.res_total_of(k)[e])
    }

    /// EU e holds nothing (no entity, no credit or release pending).
    pub fn idle(&self, e: usize) -> bool {
        self.eus[e].idle()
    }

    /// Every EU idle.
    pub fn all_idle(&self) -> bool {
        self.eus.iter().all(Eu::idle)
    }

    /// Footprint acked on EU e and not yet credited, per kind.
    pub fn outstanding(&self, e: usize) -> PerKind {
        self.eus[e].outstanding
    }

    /// RES_TOTAL per kind and EDT_TOTAL of EU e, as the EU follows them.
    pub fn totals(&self, e: usize) -> (PerKind, u64) {
        (self.eus[e].res_total, self.eus[e].edt_total)
    }

    /// Follow a RES_TOTAL (any kind) / EDT_TOTAL write of an idle EU.
    pub fn set_totals(&mut self, e: usize, res_total: PerKind, edt_total: u64) {
        let eu = &mut self.eus[e];
        assert!(eu.entities.is_empty(), "totals written for busy EU {e}");
        eu.res_total = res_total;
        eu.edt_total = edt_total;
        eu.free_records = (0..edt_total).collect();
    }

    /// No ack or refusal from EU e in the next driven cycle.
    pub fn force_hold(&mut self, e: usize) {
        self.eus[e].force_hold = true;
    }

    /// EU e refuses (whatever is presented) in the next driven cycle: nothing can be
    /// acked by it or held at it across that cycle.
    pub fn force_refuse(&mut self, e: usize) {
        self.eus[e].force_refuse = true;
    }

    /// Error injection: EU e releases VDT slot `slot` in the next cycle (if it releases
    /// nothing itself).
    pub fn extra_vr(&mut self, e: usize, slot: u64) {
        self.eus[e].extra_vr = Some(slot);
    }

    /// Error injection: EU e releases PT entry `prid` in the next cycle.
    pub fn extra_pr(&mut self, e: usize, prid: u64) {
        self.eus[e].extra_pr = Some(prid);
    }

    /// Error injection (R14): EU e completes pixel seq `seq` in the next cycle (if it completes
    /// none of its own then).
    pub fn extra_pc(&mut self, e: usize, seq: u64) {
        self.eus[e].extra_pc = Some(seq);
    }

    /// R14: pixels acked and not yet completed, over all EUs.
    pub fn completions_pending(&self) -> usize {
        self.eus.iter().map(|u| u.pix_due.len()).sum()
    }

    /// Error injection: EU e sends a credit it does not owe in the next cycle (if it
    /// sends none itself).
    pub fn extra_credit(&mut self, e: usize, res: PerKind, edt: bool, ty: u64) {
        self.eus[e].extra_credit = Some((res, edt, ty));
    }

    /// EU e releases PT entry `prid` by `pr` `delay` cycles from the next driven cycle.
    pub fn release_pt(&mut self, e: usize, prid: u64, delay: u64) {
        let at = self.cycle + delay;
        self.eus[e].pr_due.push((at, prid));
    }

    pub fn stats(&self) -> Vec<EuStats> {
        self.eus.iter().map(|u| EuStats { acks: u.acks, refusals: u.refusals, res_cycles: u.res_cycles }).collect()
    }

    fn uniform(&mut self, (lo, hi): (u64, u64)) -> u64 {
        self.rng.gen_range(lo..=hi.max(lo))
    }

    /// Fill the EU-side inputs of the next cycle.
    pub fn drive(&mut self, inp: &mut GlobalSpreaderInputs) {
        let p = self.p.clone();
        let now = self.cycle;
        for e in 0..p.eus {
            let b = self.behaviour[e].clone();
            // Answer.
            let (mut ready, mut refuse) = (false, false);
            let forced_refuse = std::mem::take(&mut self.eus[e].force_refuse);
            if std::mem::take(&mut self.eus[e].force_hold) {
                // hold
            } else if forced_refuse {
                refuse = true;
            } else if self.eus[e].hold >= b.max_hold || self.rng.gen_range(0..100) < b.answer_pct {
                if self.rng.gen_range(0..100) < b.refuse_pct {
                    refuse = true;
                } else {
                    ready = true;
                }
                if self.misbehave && self.rng.gen_ratio(1, 10) {
                    (ready, refuse) = (true, true);
                }
            }
            let ent = {
                let fr = &self.eus[e].free_records;
                if fr.is_empty() {
                    0
                } else {
                    fr[self.rng.gen_range(0..fr.len())]
                }
            };
            inp.ar_ready |= u64::from(ready) << e;
            inp.ar_refuse |= u64::from(refuse) << e;
            inp.ar_ent[e] = ent;

            // Releases of VDT slots (one per cycle), then PT entries (one per cycle).
            let mut vr = None;
            for en in self.eus[e].entities.iter_mut() {
                if let Stage::Retained { vr_at, slots } = &mut en.stage {
                    if *vr_at <= now {
                        vr = slots.pop();
                        if slots.is_empty() {
                            en.stage = Stage::Final { at: now };
                        }
                        break;
                    }
                }
            }
            let extra_vr = self.eus[e].extra_vr.take();
            if let Some(s) = vr.map(|s| s as u64).or(extra_vr) {
                inp.vr_valid |= 1 << e;
                inp.vr_slot[e] = s;
            }
            let extra_pr = self.eus[e].extra_pr.take();
            if let Some(k) = self.eus[e].pr_due.iter().position(|&(at, _)| at <= now) {
                let (_, prid) = self.eus[e].pr_due.remove(k);
                inp.pr_valid |= 1 << e;
                inp.pr_id[e] = prid;
            } else if let Some(prid) = extra_pr {
                inp.pr_valid |= 1 << e;
                inp.pr_id[e] = prid;
            }

            // Credits: at most one cr_edt, and every resource part due now.
            let mut edt: Option<usize> = None;
            let mut res: PerKind = std::mem::take(&mut self.eus[e].carry);
            let retain = b.retain;
            let mut k = 0;
            while k < self.eus[e].entities.len() {
                let due_edt = matches!(self.eus[e].entities[k].stage, Stage::Working { edt_at } if edt_at <= now);
                if due_edt && edt.is_none() {
                    let (ty, record) = (self.eus[e].entities[k].ty, self.eus[e].entities[k].record);
                    edt = Some(ty);
                    self.eus[e].free_records.push(record);
                    let stage = if ty == VTX || ty == PATCH {
                        let slots = std::mem::take(&mut self.eus[e].entities[k].slots);
                        let vr_at = now + self.uniform(retain).max(1);
                        if slots.is_empty() {
                            Stage::Final { at: vr_at }
                        } else {
                            Stage::Retained { vr_at, slots }
                        }
                    } else {
                        let lag = if self.rng.gen_bool(0.5) { 0 } else { self.uniform((1, 4)) };
                        Stage::Final { at: now + lag }
                    };
                    self.eus[e].entities[k].stage = stage;
                }
                let en = &mut self.eus[e].entities[k];
                en.early.retain(|&(at, amt)| {
                    if at <= now {
                        add(&mut res, &amt);
                        false
                    } else {
                        true
                    }
                });
                if matches!(en.stage, Stage::Final { at } if at <= now) {
                    add(&mut res, &en.final_res);
                    en.early.iter().for_each(|x| add(&mut res, &x.1));
                    self.eus[e].entities.swap_remove(k);
                } else {
                    k += 1;
                }
            }
            for k in 0..p.kinds() {
                if res[k] > p.res_mask() {
                    self.eus[e].carry[k] = res[k] - p.res_mask();
                    res[k] = p.res_mask();
                }
                self.eus[e].outstanding[k] -= res[k];
            }
            let extra = self.eus[e].extra_credit.take();
            if res != [0; 4] || edt.is_some() {
                inp.cr_valid |= 1 << e;
                inp.cr_res[e] = res;
                inp.cr_edt |= u64::from(edt.is_some()) << e;
                inp.cr_type[e] = edt.unwrap_or(0) as u64;
            } else if let Some((res, edt, ty)) = extra {
                inp.cr_valid |= 1 << e;
                inp.cr_res[e] = res;
                inp.cr_edt |= u64::from(edt) << e;
                inp.cr_type[e] = ty;
            } else {
                // Don't-care payload; `cr_edt` without `cr_valid` only when misbehaving.
                inp.cr_res[e] = [self.rng.gen::<u64>() & p.res_mask(), 0, 0, 0];
                inp.cr_type[e] = self.rng.gen_range(0..4);
                for k in 1..p.kinds() {
                    inp.cr_res[e][k] = self.rng.gen::<u64>() & p.res_mask();
                }
                if self.misbehave && self.rng.gen_ratio(1, 8) {
                    inp.cr_edt |= 1 << e;
                }
            }
            if inp.vr_valid >> e & 1 == 0 {
                inp.vr_slot[e] = self.rng.gen::<u64>() & (p.vdt_depth as u64 - 1);
            }
            if inp.pr_valid >> e & 1 == 0 {
                inp.pr_id[e] = self.rng.gen::<u64>() & p.prid_mask();
            }
            if p.pixel_reorder > 0 {
                self.complete(e, now, inp);
            }
        }
    }

    /// R14: EU e's completion of the cycle `now` (with `pixel_reorder` only): one of its due
    /// pixels at random, else an injected one, else a random don't-care `pc_seq`.
    fn complete(&mut self, e: usize, now: u64, inp: &mut GlobalSpreaderInputs) {
        let is_due = |x: &(u64, u64)| x.0 <= now;
        let due = self.eus[e].pix_due.iter().filter(|x| is_due(x)).count();
        let extra = self.eus[e].extra_pc.take();
        let seq = if due > 0 {
            // The r-th due pixel, in list order (no list of them built every cycle).
            let r = self.rng.gen_range(0..due);
            let k = self.eus[e].pix_due.iter().enumerate().filter(|(_, x)| is_due(x)).nth(r).map(|(k, _)| k);
            k.map(|k| self.eus[e].pix_due.swap_remove(k).1)
        } else {
            extra
        };
        match seq {
            Some(s) => {
                inp.pc_valid |= 1 << e;
                inp.pc_seq[e] = s;
            }
            None => inp.pc_seq[e] = self.rng.gen::<u64>() & ones(self.p.rb_w()),
        }
    }

    /// Account the cycle just driven: `inp` as driven, `out` as the GS gave them.
    pub fn observe(&mut self, inp: &GlobalSpreaderInputs, out: &GlobalSpreaderOutputs) {
        let p = self.p.clone();
        self.cycle += 1;
        if inp.reset {
            self.reset();
            return;
        }
        for eu in self.eus.iter_mut() {
            eu.res_cycles += eu.outstanding[0];
        }
        let Some(e) = out.target() else { return };
        let (ready, refuse) = (inp.ar_ready >> e & 1 == 1, inp.ar_refuse >> e & 1 == 1);
        if !ready {
            let eu = &mut self.eus[e];
            if refuse {
                eu.hold = 0;
                eu.refusals += 1;
            } else {
                eu.hold += 1;
            }
            return;
        }
        let record = inp.ar_ent[e] & ones(p.ent_w);
        let ty = out.ar_type as usize;
        let fp = out.ar_footprint;
        let b = self.behaviour[e].clone();
        let now = self.cycle; // first cycle a pulse may use
        let edt_at = now - 1 + self.uniform(b.work).max(1);
        let mut early = Vec::new();
        let mut left = fp;
        // Kind 0 first, then (R16, K > 1 only) each other kind on its own.
        for k in 0..p.kinds() {
            if fp[k] > 1 && self.rng.gen_range(0..100) < b.split_pct {
                // Early parts leave at least one unit for the final part, so that a retained
                // entity's resources really come back after its VDT releases.
                for _ in 0..self.rng.gen_range(1..=3) {
                    let amt = self.rng.gen_range(0..left[k]);
                    left[k] -= amt;
                    let at = self.rng.gen_range(now..=edt_at.max(now));
                    let mut part = [0; 4];
                    part[k] = amt;
                    early.push((at, part));
                }
            }
        }
        // R15's EU obligation: entry {way, set(base) + g}, the way of the ack (direct mapped:
        // way 0 and S = vdt_depth, so slot(base) + g; `ar_vdt_way` is then 0).
        let (way, set) = (out.ar_vdt_way as usize & (p.vdt_ways - 1), p.set_of(out.ar_base_idx));
        let slots: Vec<usize> = match ty {
            VTX => vec![p.entry(way, set)],
            PATCH => (0..p.pg()).map(|g| p.entry(way, set + g)).collect(),
            _ => Vec::new(),
        };
        let complete_at = (ty == PIX && p.pixel_reorder > 0).then(|| now - 1 + self.uniform(b.complete).max(1));
        let eu = &mut self.eus[e];
        if let Some(at) = complete_at {
            eu.pix_due.push((at, out.ar_seq));
        }
        eu.hold = 0;
        eu.acks += 1;
        add(&mut eu.outstanding, &fp);
        if let Some(k) = eu.free_records.iter().position(|&r| r == record) {
            eu.free_records.swap_remove(k);
        }
        eu.entities.push(Entity {
            ty,
            record,
            early,
            final_res: left,
            slots,
            stage: Stage::Working { edt_at },
        });
    }
}

/// `acc` += `x`, kind by kind.
fn add(acc: &mut PerKind, x: &PerKind) {
    for k in 0..4 {
        acc[k] += x[k];
    }
}
