//! Functional coverage of a random run (the counts of contract §5 and more): pairs, merges,
//! timeouts, the held candidate's expiries (its fate read from the ports), stalls, errors.

use super::*;
use crate::thread_merge::model::{POST, PRE, WAIT};

// ---- coverage ------------------------------------------------------------------------------

/// Hit counts of the coverage bins.
#[derive(Debug, Clone, Default)]
pub struct CoverageCounts {
    pub cycles: u64,
    /// Pairs spawned (grp handshakes with `grp_paired`).
    pub pairs: u64,
    /// Pairs with `grp_b_perm != 0`.
    pub remapped_pairs: u64,
    /// Singles spawned.
    pub singles: u64,
    /// `merge_count` increments.
    pub merges: u64,
    /// WAIT → POST with neither a merge nor a partner term at that edge.
    pub timeouts: u64,
    /// WAIT → POST because the partner terminated at that edge.
    pub partner_term_resumes: u64,
    /// The candidate left alone because its hold expired.
    pub hold_expiries: u64,
    /// ... because of `flush`, a primitive change, a `last`.
    pub flush_expiries: u64,
    pub prim_expiries: u64,
    /// R18 (`cross_primitive`): a pair of fragments of different primitives.
    pub cross_pairs: u64,
    pub last_expiries: u64,
    /// A full fragment passed a held candidate (E1 with a candidate).
    pub full_overtakes: u64,
    /// R19 (`candidates` > 1): a partial fragment held beside held ones (no emission); a
    /// pair with a held fragment other than the oldest; a held fragment pushed out alone by
    /// a partial one that fits none of a full queue.
    pub queue_holds: u64,
    pub deep_pairs: u64,
    pub pushouts: u64,
    /// Effective `term` / `disc` (target PRE or POST).
    pub terms: u64,
    pub discs: u64,
    /// Accepted `me` on a POST group (NOP with a response).
    pub post_mes: u64,
    /// Cycles with a fragment presented and no free slot.
    pub slots_full: u64,
    pub grp_stalls: u64,
    pub rsp_stalls: u64,
    pub me_stalls: u64,
    pub resets: u64,
    /// Rising edges of `err_proto` / `err_xlane`.
    pub err_proto_sets: u64,
    pub err_xlane_sets: u64,
    /// R20 (`merge_ways` > 2): descriptors of 3 and of 4 members taken.
    pub sets3: u64,
    pub sets4: u64,
    /// Merges of 3 and of 4 groups (the new merge response's `rsp_retire_mask`).
    pub merges3: u64,
    pub merges4: u64,
    /// A set of 3 or 4 broken by a member's `term` before its merge (R20 term).
    pub set_term_breaks: u64,
    /// ... whose term also resumed 2+ waiting members at that edge (POST, owed).
    pub set_term_resumes2: u64,
    /// Timeouts of a slot with 2+ members WAIT in S0 (R20 timeout: all resumed at once).
    pub set_timeouts: u64,
    /// A timeout that also resumes a member whose `me` parked it at that edge (not required:
    /// the `me` must fall on the timeout edge).
    pub timeout_parks: u64,
}

/// Functional coverage from each cycle's (inputs, outputs). The candidate's fate is
/// reconstructed from the ports: an edge where `pend_valid` falls without a fragment
/// accepted is an E0 emission, attributed (first match) to `flush`, a `last` mark (set by
/// a partial `last` fragment that replaced the candidate, or by a full `last` fragment),
/// a primitive change, or else the hold expiry.
#[derive(Debug, Clone)]
pub struct Coverage {
    p: ThreadMergeParams,
    allow_errors: bool,
    pub hits: CoverageCounts,
    prev: Option<(ThreadMergeInputs, ThreadMergeOutputs)>,
    /// The candidate as reconstructed: (prim, last).
    cand: Option<(u64, bool)>,
    /// R19's queue as reconstructed from the ports: the held fragments' tags, the oldest
    /// first (the stimulus numbers its fragments, so a tag names one while tags are wide).
    held: Vec<u64>,
    /// R20: the size of the set each slot was last spawned with (from the descriptors).
    set_size: Vec<u8>,
}

impl Coverage {
    /// Hits each required bin needs in [`Coverage::assert_all_hit`].
    pub const MIN_HITS: u64 = 10;

    pub fn new(params: &ThreadMergeParams, allow_errors: bool) -> Self {
        Coverage {
            p: params.clone(),
            allow_errors,
            hits: CoverageCounts::default(),
            prev: None,
            cand: None,
            held: Vec::new(),
            set_size: vec![0; params.slots],
        }
    }

    /// Record one cycle: the inputs applied and the outputs observed before the edge.
    pub fn observe(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs) {
        if let Some((pi, po)) = self.prev.take() {
            self.edge(&pi, &po, o);
        }
        let h = &mut self.hits;
        h.cycles += 1;
        if i.reset {
            h.resets += 1;
        } else {
            h.slots_full += u64::from(i.frag_valid && o.free_cnt == 0);
            h.grp_stalls += u64::from(o.grp_valid && !i.grp_ready);
            h.rsp_stalls += u64::from(o.rsp_valid && !i.rsp_ready);
            h.me_stalls += u64::from(i.me_valid && !o.me_ready);
        }
        self.prev = Some((i.clone(), o.clone()));
    }

    /// What happened at the edge between cycle (i, o) and the next cycle's outputs `n`.
    fn edge(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs, n: &ThreadMergeOutputs) {
        let h = &mut self.hits;
        if i.reset {
            self.cand = None;
            self.held.clear();
            return;
        }
        h.err_proto_sets += u64::from(!o.err_proto && n.err_proto);
        h.err_xlane_sets += u64::from(!o.err_xlane && n.err_xlane);
        h.merges += u64::from(n.merge_count != o.merge_count);
        let ways = self.p.merge_ways > 2;
        if ways && n.merge_count != o.merge_count {
            // The merge's response is loaded at its edge (the me was accepted: rsp_free).
            match n.rsp_retire_mask.count_ones() {
                2 => h.merges3 += 1,
                3 => h.merges4 += 1,
                _ => {}
            }
        }
        let m = self.p.members();
        if o.grp_valid && i.grp_ready {
            if o.grp_paired {
                h.pairs += 1;
                h.remapped_pairs += u64::from(o.grp_b_perm != 0);
            } else {
                h.singles += 1;
            }
            let c = ways && o.grp_c_valid;
            let d = self.p.merge_ways == 4 && o.grp_d_valid;
            h.sets3 += u64::from(c && !d);
            h.sets4 += u64::from(d);
            if let Some(sz) = self.set_size.get_mut(o.grp_a_tgid as usize / m) {
                *sz = 1 + u8::from(o.grp_paired) + u8::from(c) + u8::from(d);
            }
        }
        let st = |t: u64| o.st_state.get(t as usize).copied().unwrap_or(FREE);
        let term_t = i.term_valid.then_some(i.term_tgid);
        if let Some(t) = term_t {
            h.terms += u64::from(matches!(st(t), PRE | POST));
        }
        if i.disc_valid && term_t != Some(i.disc_tgid) {
            h.discs += u64::from(matches!(st(i.disc_tgid), PRE | POST));
        }
        if i.me_valid && o.me_ready && st(i.me_tgid) == POST {
            h.post_mes += 1;
        }
        // The slot of an effective term at this edge.
        let term_slot = term_t.filter(|&t| matches!(st(t), PRE | POST)).map(|t| t as usize / m);
        for s in 0..self.p.slots.min(o.st_slot.len()).min(n.st_slot.len()) {
            let members = m * s..m * s + m;
            let merged = n.st_slot[s] & 4 != 0;
            let resumed: Vec<usize> = members
                .clone()
                .filter(|&t| o.st_state.get(t) == Some(&WAIT) && n.st_state.get(t) == Some(&POST))
                .collect();
            let termed = term_slot == Some(s);
            for &t in &resumed {
                if termed && term_t != Some(t as u64) {
                    h.partner_term_resumes += 1;
                } else if !merged {
                    h.timeouts += 1;
                }
            }
            if !ways {
                continue;
            }
            let big = self.set_size[s] >= 3;
            // Paired, unbroken, unmerged before; broken after, with a member left (else
            // the slot is free and its flags mean nothing).
            let left = members.clone().any(|t| n.st_state.get(t).is_some_and(|&x| x != FREE));
            let broke = o.st_slot[s] & 7 == 1 && left && n.st_slot[s] & 2 != 0;
            if termed && big && broke {
                h.set_term_breaks += 1;
                h.set_term_resumes2 += u64::from(resumed.len() >= 2);
            }
            if !termed && !merged && !resumed.is_empty() {
                h.set_timeouts += u64::from(resumed.len() >= 2);
                let parked = i.me_valid
                    && o.me_ready
                    && members.contains(&(i.me_tgid as usize))
                    && st(i.me_tgid) == PRE
                    && n.st_state.get(i.me_tgid as usize) == Some(&POST)
                    && o.st_slot[s] & 7 == 1;
                h.timeout_parks += u64::from(parked);
            }
        }
        // The candidate.
        let lm = self.p.lane_mask();
        let accepted = i.frag_valid && o.frag_ready;
        let cov = i.frag_cov & lm;
        if o.pend_valid && !accepted && !n.pend_valid {
            let prim_change = !self.p.cross_primitive
                && self.cand.is_some_and(|c| i.frag_valid && (i.frag_prim & self.p.prim_mask()) != c.0);
            if i.flush {
                h.flush_expiries += 1;
            } else if self.cand.is_some_and(|c| c.1) {
                h.last_expiries += 1;
            } else if prim_change {
                h.prim_expiries += 1;
            } else {
                h.hold_expiries += 1;
            }
            self.cand = None;
        } else if accepted && cov == lm {
            if o.pend_valid {
                h.full_overtakes += 1;
                if i.frag_last {
                    if let Some(c) = self.cand.as_mut() {
                        c.1 = true;
                    }
                }
            }
        } else if accepted && cov != 0 {
            let prim = i.frag_prim & self.p.prim_mask();
            h.cross_pairs += u64::from(o.pend_valid && !n.pend_valid && self.cand.is_some_and(|c| c.0 != prim));
            self.cand = n
                .pend_valid
                .then_some((i.frag_prim & self.p.prim_mask(), o.pend_valid && i.frag_last));
        }
        // R19's queue: an emission (a descriptor loaded at this edge) names A, a held fragment
        // or F; an accepted partial F that is not B is held.
        let partial = accepted && cov != 0 && cov != lm;
        let emitted = (!o.grp_valid || i.grp_ready) && n.grp_valid;
        let held_a = if emitted { self.held.iter().position(|&t| t == n.grp_a_tag) } else { None };
        if let Some(pos) = held_a {
            self.held.remove(pos);
            if n.grp_paired {
                h.deep_pairs += u64::from(pos > 0);
            } else if partial {
                h.pushouts += 1;
                self.held.push(i.frag_tag & self.p.tag_mask());
            }
        } else if partial && !emitted {
            h.queue_holds += u64::from(o.pend_valid);
            self.held.push(i.frag_tag & self.p.tag_mask());
        }
        if !n.pend_valid {
            self.cand = None;
            self.held.clear();
        }
    }

    /// Every bin that the parameters and the error mode make reachable was hit at least
    /// [`Coverage::MIN_HITS`] times.
    pub fn assert_all_hit(&self) -> Result<(), String> {
        let h = &self.hits;
        let p = &self.p;
        let errs = self.allow_errors;
        let bins: Vec<(&str, u64, bool)> = vec![
            ("pairs", h.pairs, true),
            // Remaps need remap = true.
            ("remapped_pairs", h.remapped_pairs, p.remap),
            ("singles", h.singles, true),
            ("merges", h.merges, true),
            // merge_timeout 0: a waiting group waits forever.
            ("timeouts", h.timeouts, p.merge_timeout != 0),
            ("partner_term_resumes", h.partner_term_resumes, true),
            // pair_hold 0: a candidate never expires.
            ("hold_expiries", h.hold_expiries, p.pair_hold != 0),
            ("flush_expiries", h.flush_expiries, true),
            ("prim_expiries", h.prim_expiries, !p.cross_primitive),
            ("cross_pairs", h.cross_pairs, p.cross_primitive),
            ("last_expiries", h.last_expiries, true),
            ("full_overtakes", h.full_overtakes, true),
            ("queue_holds", h.queue_holds, p.candidates > 1),
            ("deep_pairs", h.deep_pairs, p.candidates > 1),
            ("pushouts", h.pushouts, p.candidates > 1),
            ("terms", h.terms, true),
            ("discs", h.discs, true),
            ("post_mes", h.post_mes, true),
            ("slots_full", h.slots_full, true),
            ("grp_stalls", h.grp_stalls, true),
            ("rsp_stalls", h.rsp_stalls, true),
            // With one slot at most two groups exist: a me meets a blocked response only
            // when both members' responses collide (seen, but rarely).
            ("me_stalls", h.me_stalls, p.slots >= 2),
            ("resets", h.resets, errs),
            ("err_proto_sets", h.err_proto_sets, errs),
            ("err_xlane_sets", h.err_xlane_sets, errs),
            // R20 (merge_ways > 2): sets of 3 and (W = 4) 4, their merges, a set broken by
            // a member's term, a timeout of 2+ waiting members.
            ("sets3", h.sets3, p.merge_ways >= 3),
            ("sets4", h.sets4, p.merge_ways == 4),
            ("merges3", h.merges3, p.merge_ways >= 3),
            ("merges4", h.merges4, p.merge_ways == 4),
            ("set_term_breaks", h.set_term_breaks, p.merge_ways >= 3),
            ("set_term_resumes2", h.set_term_resumes2, p.merge_ways >= 3),
            ("set_timeouts", h.set_timeouts, p.merge_ways >= 3 && p.merge_timeout != 0),
        ];
        crate::kit::check_bins(&bins, Self::MIN_HITS, h.cycles)
    }
}
