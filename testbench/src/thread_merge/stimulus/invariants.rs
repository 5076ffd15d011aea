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
/// * every spawned pair or set (R20: members A, B, C, D of slot s are 4s + 0..3 with
///   `merge_ways` > 2, 2s + 0..1 otherwise) takes a free slot, has pairwise disjoint masks,
///   and each member's cov is its fragment's coverage under its perm (lane j holds sample
///   j ^ p of its quad; A's perm is 0); C only in a pair, D only with C;
/// * a merge response names a slot's A and retires A + 1 (`rsp_retire_tgid`) and, with
///   W > 2, exactly the other members the set was spawned with (`rsp_retire_mask`, bit j-1
///   = A + j), every one of them parked; all the masks are disjoint and `rsp_active` is
///   their OR; at most one merge per slot allocation; `merge_count` rises exactly with each
///   new merge response;
/// * a resume without merge carries the group's active mask and retires nothing;
/// * in a term cycle (`wb_tgid = term_tgid`) `wb_active` is the group's active mask and
///   every active lane maps (its source member — `wb_lane_mem` with W > 2, `wb_lane_src`
///   otherwise —, that member's tag and perm from `wb_tag_self` / `_partner` / `_c` /
///   `_d` and `wb_perm_*`, and `wb_orig_lane` = the lane under that perm) to the sample
///   the checker placed there; each covered, undiscarded sample is written back exactly once;
/// * a running group is PRE or POST with the checker's active mask; `free_cnt` counts the
///   slots with every member FREE; `rf_common_wmask ⊆ rf_exec_mask`;
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
    /// Per slot: the members (tgids) its last descriptor spawned.
    sets: Vec<Vec<usize>>,
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
            sets: vec![Vec::new(); params.slots],
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
        let m = self.p.members();
        let free = (0..self.p.slots)
            .filter(|&s| (m * s..m * s + m).all(|t| o.st_state[t] == FREE))
            .count() as u64;
        if o.free_cnt != free {
            return Err(format!(
                "free_cnt {} but {free} slots have every member FREE",
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
                let ways = self.p.merge_ways > 2;
                for l in (0..self.p.lanes).filter(|&l| g.active >> l & 1 == 1) {
                    let src = o.wb_lane_src >> l & 1 == 1;
                    // The lane's source member: wb_lane_mem (R20), else wb_lane_src (R13).
                    let mem = if ways { o.wb_lane_mem.get(l).copied().unwrap_or(0) as usize } else { usize::from(src) };
                    if ways && (src != (mem != 0) || mem >= self.p.merge_ways) {
                        return Err(format!(
                            "term{{{t}}} lane {l}: wb_lane_mem {mem} with wb_lane_src {}",
                            u8::from(src)
                        ));
                    }
                    let (tag, perm) = [
                        (o.wb_tag_self, o.wb_perm_self),
                        (o.wb_tag_partner, o.wb_perm_partner),
                        (o.wb_tag_c, o.wb_perm_c),
                        (o.wb_tag_d, o.wb_perm_d),
                    ][mem];
                    let orig = (l & !3) | ((l & 3) ^ (perm & 3) as usize);
                    if usize::from(o.wb_orig_lane[l]) != orig {
                        return Err(format!(
                            "term{{{t}}} lane {l}: wb_orig_lane {} but member {mem}'s perm {perm} maps it to {orig}",
                            o.wb_orig_lane[l]
                        ));
                    }
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
                let slot = t / m;
                if t % m != 0 || !o.rsp_retire || o.rsp_retire_tgid != b as u64 || !parked(&self.groups[b]) {
                    return Err(format!(
                        "merge rsp {t} retire {} {} (B parked: {})",
                        o.rsp_retire,
                        o.rsp_retire_tgid,
                        parked(&self.groups[b])
                    ));
                }
                // The retired members: B (W = 2); with W > 2 those of rsp_retire_mask,
                // which must be exactly the set's other members.
                let retired: Vec<usize> = if self.p.merge_ways > 2 {
                    (1..self.p.merge_ways)
                        .filter(|j| o.rsp_retire_mask >> (j - 1) & 1 == 1)
                        .map(|j| t + j)
                        .collect()
                } else {
                    vec![b]
                };
                let others = self.sets[slot].get(1..).unwrap_or(&[]);
                let stray = self.p.merge_ways > 2 && o.rsp_retire_mask >> (self.p.merge_ways - 1) != 0;
                if retired != others || stray {
                    return Err(format!(
                        "merge of {t}: rsp_retire_mask {:#b} retires {retired:?}, the set's other members are {others:?}",
                        o.rsp_retire_mask
                    ));
                }
                if let Some(&r) = retired.iter().find(|&&r| !parked(&self.groups[r])) {
                    return Err(format!("merge of {t} retires group {r}, which is not parked"));
                }
                let gone: Vec<IGroup> = retired.iter().map(|&r| self.groups[r].take().expect("parked")).collect();
                let ga = self.groups[t].as_mut().expect("parked");
                let mut union = ga.active;
                for (&r, gr) in retired.iter().zip(&gone) {
                    if union & gr.active != 0 {
                        return Err(format!(
                            "merge of {t}: group {r}'s mask {:#b} overlaps {union:#b}",
                            gr.active
                        ));
                    }
                    union |= gr.active;
                    for l in 0..self.p.lanes {
                        if gr.active >> l & 1 == 1 {
                            ga.lanes[l] = gr.lanes[l];
                        }
                    }
                }
                if o.rsp_active != union {
                    return Err(format!(
                        "merge of {t}: rsp_active {:#b}, want the OR of the members' masks {union:#b}",
                        o.rsp_active
                    ));
                }
                ga.active = union;
                self.slot_merges[slot] += 1;
                if self.slot_merges[slot] > 1 {
                    return Err(format!("slot {slot} merged twice in one allocation"));
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
        let m = self.p.members();
        if a % m != 0 || a >= n || (a..a + m).any(|t| self.groups[t].is_some()) {
            return Err(format!("descriptor for tgid {a}, not a free slot's A"));
        }
        let mut members = vec![(a, o.grp_a_cov, o.grp_a_tag, 0u8)];
        if o.grp_paired {
            members.push((o.grp_b_tgid as usize, o.grp_b_cov, o.grp_b_tag, o.grp_b_perm & 3));
        }
        let c = self.p.merge_ways > 2 && o.grp_c_valid;
        let d = self.p.merge_ways == 4 && o.grp_d_valid;
        if (c && !o.grp_paired) || (d && !c) {
            return Err(format!(
                "descriptor {a}: paired {} c_valid {} d_valid {}",
                o.grp_paired, o.grp_c_valid, o.grp_d_valid
            ));
        }
        if c {
            members.push((o.grp_c_tgid as usize, o.grp_c_cov, o.grp_c_tag, o.grp_c_perm & 3));
        }
        if d {
            members.push((o.grp_d_tgid as usize, o.grp_d_cov, o.grp_d_tag, o.grp_d_perm & 3));
        }
        let mut union = 0;
        for (j, &(t, cov, _, _)) in members.iter().enumerate() {
            if t != a + j {
                return Err(format!("descriptor {a}: member {j} has tgid {t}"));
            }
            if union & cov != 0 {
                return Err(format!(
                    "descriptor {a}: member {j}'s mask {cov:#b} overlaps the others' {union:#b}"
                ));
            }
            union |= cov;
        }
        self.sets[a / m] = members.iter().map(|x| x.0).collect();
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
        self.slot_merges[a / m] = 0;
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
