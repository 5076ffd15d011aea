//! The `Invariants` checker: the invariants of contract §5 / spec §5.7 from each cycle's
//! ports, with the checker's own bookkeeping and sample ledger (never the model's).

use super::*;
use crate::thread_merge::model::{POST, PRE};
use std::collections::HashMap;

// ---- invariants ----------------------------------------------------------------------------

/// The checker's record of a spawned group.
#[derive(Debug, Clone)]
struct IGroup {
    /// Per physical lane: (fragment tag, lane in that fragment) of the sample it holds.
    lanes: Vec<Option<(u64, u8)>>,
    active: u64,
    parked: bool,
    post: bool,
}

/// Invariants of contract §5 / spec §5.7, checked from each cycle's inputs and outputs
/// with the checker's own bookkeeping (never the model's):
///
/// * every spawned pair has disjoint masks and `b_cov` = the fragment's coverage under
///   `b_perm` (lane j holds sample j ^ p of its quad); `a_cov` is its fragment's coverage;
/// * a merge response names an even tgid A and retires A + 1, both parked; the two masks
///   are disjoint and `rsp_active` is their OR; at most one merge per slot allocation;
///   `merge_count` rises exactly with each new merge response;
/// * a resume without merge carries the group's active mask and retires nothing;
/// * in a term cycle (`wb_tgid = term_tgid`) `wb_active` is the group's active mask and
///   every active lane maps (`wb_lane_src`, tags, `wb_orig_lane`) to the sample the checker
///   placed there; each covered, undiscarded sample is written back exactly once;
/// * a running group is PRE or POST with the checker's active mask; `free_cnt` counts the
///   slots with both members FREE; `rf_common_wmask ⊆ rf_exec_mask`;
/// * `err_proto` rises exactly after an illegal event (cov 0, or me/term/disc for a group
///   that is not running), `err_xlane` exactly after `xl` for a group past its merge point;
///   they fall only at reset or, with `perf_counters`, at `err_clr` without a new error (R17);
/// * [`Invariants::finish`]: the drained block has `free_cnt = S`, nothing pending, no
///   group left, and every sample was written back.
///
/// The sample ledger is keyed by tag; it needs unique tags, so it is off for TAG_W < 24.
#[derive(Debug, Clone)]
pub struct Invariants {
    p: ThreadMergeParams,
    legal: bool,
    cycle: u64,
    ledger: HashMap<u64, (u64, bool)>,
    groups: Vec<Option<IGroup>>,
    slot_merges: Vec<u32>,
    prev: Option<(ThreadMergeInputs, ThreadMergeOutputs)>,
    expect_proto: bool,
    expect_xlane: bool,
    first: Option<String>,
    pub written: u64,
}

impl Invariants {
    pub fn new(params: &ThreadMergeParams, allow_errors: bool) -> Self {
        Invariants {
            p: params.clone(),
            legal: !allow_errors,
            cycle: 0,
            ledger: HashMap::new(),
            groups: vec![None; params.groups()],
            slot_merges: vec![0; params.slots],
            prev: None,
            expect_proto: false,
            expect_xlane: false,
            first: None,
            written: 0,
        }
    }

    fn ledger_on(&self) -> bool {
        self.p.tag_width >= 24
    }

    /// The first violation seen, with its cycle.
    pub fn first_violation(&self) -> Option<&String> {
        self.first.as_ref()
    }

    /// Feed one cycle; returns the first violation (with its cycle) once there is one.
    pub fn observe(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs) -> Result<(), String> {
        if self.first.is_none() {
            if let Err(e) = self.check(i, o) {
                self.first = Some(format!("cycle {}: {e}", self.cycle));
            }
        }
        self.cycle += 1;
        self.first.clone().map_or(Ok(()), Err)
    }

    /// Checks at the end of a drained run (`o` = the last outputs).
    pub fn finish(&mut self, o: &ThreadMergeOutputs) -> Result<(), String> {
        if let Some(e) = &self.first {
            return Err(e.clone());
        }
        let mut bad = Vec::new();
        if o.free_cnt != self.p.slots as u64 {
            bad.push(format!(
                "free_cnt {} at the end, want {}",
                o.free_cnt, self.p.slots
            ));
        }
        if o.pend_valid || o.grp_valid || o.rsp_valid {
            bad.push("candidate, descriptor or response left at the end".into());
        }
        if let Some(t) = self.groups.iter().position(|g| g.is_some()) {
            bad.push(format!("group {t} never terminated"));
        }
        if let Some((tag, (m, _))) = self.ledger.iter().next() {
            bad.push(format!(
                "{} fragments not fully written back, e.g. tag {tag:#x} lanes {m:#b}",
                self.ledger.len()
            ));
        }
        if bad.is_empty() {
            Ok(())
        } else {
            let e = format!("end of run (cycle {}): {}", self.cycle, bad.join("; "));
            self.first = Some(e.clone());
            Err(e)
        }
    }

    fn alive_running(&self, t: u64) -> bool {
        self.groups
            .get(t as usize)
            .and_then(|g| g.as_ref())
            .is_some_and(|g| !g.parked)
    }

    fn check(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs) -> Result<(), String> {
        let lm = self.p.lane_mask();
        let prev = self.prev.replace((i.clone(), o.clone()));
        if i.reset {
            self.ledger.clear();
            self.groups.iter_mut().for_each(|g| *g = None);
            self.expect_proto = false;
            self.expect_xlane = false;
            self.prev = None;
            return Ok(());
        }
        // Results of the previous edge.
        if let Some((pi, po)) = &prev {
            if !pi.reset {
                if self.expect_proto && !o.err_proto {
                    return Err("illegal event did not set err_proto".into());
                }
                if !self.expect_proto && !po.err_proto && o.err_proto {
                    return Err("err_proto set without an illegal event".into());
                }
                if self.expect_xlane && !o.err_xlane {
                    return Err("xl after the merge point did not set err_xlane".into());
                }
                if !self.expect_xlane && !po.err_xlane && o.err_xlane {
                    return Err("err_xlane set without xl after the merge point".into());
                }
                // R17: err_clr (perf_counters only) clears both flags unless this edge's
                // error sets one again; nothing else lowers them but reset.
                let clr = self.p.perf_counters && pi.err_clr;
                if !clr && ((po.err_proto && !o.err_proto) || (po.err_xlane && !o.err_xlane)) {
                    return Err("an error flag fell without reset or err_clr".into());
                }
                if clr && ((!self.expect_proto && o.err_proto) || (!self.expect_xlane && o.err_xlane)) {
                    return Err("err_clr without a new error left an error flag set".into());
                }
                let new_rsp = o.rsp_valid && (!po.rsp_valid || pi.rsp_ready);
                let delta = o.merge_count.wrapping_sub(po.merge_count) & 0xFFFF_FFFF;
                if delta != u64::from(new_rsp && o.rsp_merged) {
                    return Err(format!(
                        "merge_count moved by {delta} with new merge response {}",
                        new_rsp && o.rsp_merged
                    ));
                }
            }
        }
        self.expect_proto = false;
        self.expect_xlane = false;

        // State checks on this cycle's outputs.
        let free = (0..self.p.slots)
            .filter(|&s| o.st_state[2 * s] == FREE && o.st_state[2 * s + 1] == FREE)
            .count() as u64;
        if o.free_cnt != free {
            return Err(format!(
                "free_cnt {} but {free} slots have both members FREE",
                o.free_cnt
            ));
        }
        if o.rf_common_wmask & !o.rf_exec_mask != 0 {
            return Err(format!("rf({}) common_wmask not within exec_mask", i.rf_tgid));
        }
        if self.legal && (o.err_proto || o.err_xlane) {
            return Err("error flag in a legal run".into());
        }
        for (t, g) in self.groups.iter().enumerate() {
            if let Some(g) = g.as_ref().filter(|g| !g.parked) {
                if !matches!(o.st_state[t], PRE | POST) || o.st_active[t] != g.active {
                    return Err(format!(
                        "running group {t}: st_state {} st_active {:#b}, checker active {:#b}",
                        o.st_state[t], o.st_active[t], g.active
                    ));
                }
            }
        }

        // term (wb lookup of this cycle), disc, me, xl.
        if i.term_valid {
            let t = i.term_tgid;
            if self.alive_running(t) {
                if i.wb_tgid != t {
                    return Err(format!("term{{{t}}} with wb_tgid {}", i.wb_tgid));
                }
                let g = self.groups[t as usize].take().expect("running");
                if o.wb_active != g.active {
                    return Err(format!(
                        "term{{{t}}}: wb_active {:#b}, checker {:#b}",
                        o.wb_active, g.active
                    ));
                }
                for l in (0..self.p.lanes).filter(|&l| g.active >> l & 1 == 1) {
                    let tag = if o.wb_lane_src >> l & 1 == 1 {
                        o.wb_tag_partner
                    } else {
                        o.wb_tag_self
                    };
                    let got = (tag, o.wb_orig_lane[l]);
                    if Some(got) != g.lanes[l] {
                        return Err(format!(
                            "term{{{t}}} lane {l}: written back to (tag {:#x}, lane {}), holds {:?}",
                            got.0, got.1, g.lanes[l]
                        ));
                    }
                    self.write_back(got.0, got.1)?;
                }
            } else {
                self.expect_proto = true;
            }
        }
        if i.disc_valid {
            let t = i.disc_tgid;
            if self.alive_running(t) {
                let g = self.groups[t as usize].as_mut().expect("running");
                let gone = g.active & i.disc_mask & lm;
                g.active &= !gone;
                let samples: Vec<(u64, u8)> = (0..self.p.lanes)
                    .filter(|&l| gone >> l & 1 == 1)
                    .map(|l| g.lanes[l].expect("active lane holds a sample"))
                    .collect();
                for (tag, lane) in samples {
                    self.drop_sample(tag, lane)?;
                }
            } else {
                self.expect_proto = true;
            }
        }
        if i.me_valid && o.me_ready {
            if self.alive_running(i.me_tgid) {
                self.groups[i.me_tgid as usize].as_mut().expect("running").parked = true;
            } else {
                self.expect_proto = true;
            }
        }
        if i.xl_valid && self.alive_running(i.xl_tgid) {
            self.expect_xlane = self.groups[i.xl_tgid as usize].as_ref().is_some_and(|g| g.post);
        }

        // Response handshake.
        if o.rsp_valid && i.rsp_ready {
            let t = o.rsp_tgid as usize;
            let parked = |g: &Option<IGroup>| g.as_ref().is_some_and(|g| g.parked);
            if !self.groups.get(t).is_some_and(parked) {
                return Err(format!("rsp for group {t}, which is not parked"));
            }
            if o.rsp_merged {
                let b = t + 1;
                if t % 2 != 0 || !o.rsp_retire || o.rsp_retire_tgid != b as u64 || !parked(&self.groups[b]) {
                    return Err(format!(
                        "merge rsp {t} retire {} {} (B parked: {})",
                        o.rsp_retire,
                        o.rsp_retire_tgid,
                        parked(&self.groups[b])
                    ));
                }
                let gb = self.groups[b].take().expect("parked");
                let ga = self.groups[t].as_mut().expect("parked");
                if ga.active & gb.active != 0 {
                    return Err(format!(
                        "merge of {t}: masks {:#b} and {:#b} overlap",
                        ga.active, gb.active
                    ));
                }
                if o.rsp_active != ga.active | gb.active {
                    return Err(format!(
                        "merge of {t}: rsp_active {:#b}, want {:#b} | {:#b}",
                        o.rsp_active, ga.active, gb.active
                    ));
                }
                for l in 0..self.p.lanes {
                    if gb.active >> l & 1 == 1 {
                        ga.lanes[l] = gb.lanes[l];
                    }
                }
                ga.active |= gb.active;
                self.slot_merges[t / 2] += 1;
                if self.slot_merges[t / 2] > 1 {
                    return Err(format!("slot {} merged twice in one allocation", t / 2));
                }
            } else if o.rsp_retire {
                return Err(format!("resume of {t} without merge retires a group"));
            } else if o.rsp_active != self.groups[t].as_ref().expect("parked").active {
                return Err(format!("resume of {t}: rsp_active {:#b}", o.rsp_active));
            }
            let g = self.groups[t].as_mut().expect("parked");
            g.parked = false;
            g.post = true;
        }

        // Spawn handshake.
        if o.grp_valid && i.grp_ready {
            self.spawn(o)?;
        }

        // Fragment acceptance.
        if i.frag_valid && o.frag_ready {
            let cov = i.frag_cov & lm;
            if cov == 0 {
                self.expect_proto = true;
            } else if self.ledger_on()
                && self
                    .ledger
                    .insert(i.frag_tag & self.p.tag_mask(), (cov, false))
                    .is_some()
            {
                return Err(format!("fragment tag {:#x} accepted twice", i.frag_tag));
            }
        }
        Ok(())
    }

    fn spawn(&mut self, o: &ThreadMergeOutputs) -> Result<(), String> {
        let a = o.grp_a_tgid as usize;
        let n = self.groups.len();
        if a % 2 != 0 || a >= n || self.groups[a].is_some() || self.groups[a + 1].is_some() {
            return Err(format!("descriptor for tgid {a}, not a free slot's A"));
        }
        let mut members = vec![(a, o.grp_a_cov, o.grp_a_tag, 0u8)];
        if o.grp_paired {
            if o.grp_b_tgid != a as u64 + 1 {
                return Err(format!("pair {a}/{}", o.grp_b_tgid));
            }
            if o.grp_a_cov & o.grp_b_cov != 0 {
                return Err(format!(
                    "pair masks {:#b} {:#b} overlap",
                    o.grp_a_cov, o.grp_b_cov
                ));
            }
            members.push((a + 1, o.grp_b_cov, o.grp_b_tag, o.grp_b_perm & 3));
        }
        for (t, cov, tag, perm) in members {
            // Physical lane j holds sample j ^ p of its quad.
            let lanes: Vec<Option<(u64, u8)>> = (0..self.p.lanes)
                .map(|j| (cov >> j & 1 == 1).then_some((tag, ((j & !3) | ((j & 3) ^ perm as usize)) as u8)))
                .collect();
            if self.ledger_on() {
                let logical: u64 = lanes.iter().flatten().map(|&(_, l)| 1u64 << l).sum();
                match self.ledger.get_mut(&tag) {
                    Some((c, spawned)) if !*spawned && *c == logical => *spawned = true,
                    other => {
                        return Err(format!(
                            "group {t} (tag {tag:#x}, cov {cov:#b}, perm {perm}) does not match its fragment: {other:?}"
                        ))
                    }
                }
            }
            self.groups[t] = Some(IGroup {
                lanes,
                active: cov,
                parked: false,
                post: false,
            });
        }
        self.slot_merges[a / 2] = 0;
        Ok(())
    }

    fn write_back(&mut self, tag: u64, lane: u8) -> Result<(), String> {
        self.written += 1;
        self.drop_sample(tag, lane)
            .map_err(|e| format!("write-back: {e}"))
    }

    fn drop_sample(&mut self, tag: u64, lane: u8) -> Result<(), String> {
        if !self.ledger_on() {
            return Ok(());
        }
        let Some((m, _)) = self.ledger.get_mut(&tag) else {
            return Err(format!(
                "sample (tag {tag:#x}, lane {lane}) of no outstanding fragment"
            ));
        };
        if *m >> lane & 1 == 0 {
            return Err(format!(
                "sample (tag {tag:#x}, lane {lane}) written back or discarded twice"
            ));
        }
        *m &= !(1u64 << lane);
        if *m == 0 {
            self.ledger.remove(&tag);
        }
        Ok(())
    }
}
