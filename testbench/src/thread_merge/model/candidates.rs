//! Contract R4, R19 (`candidates`) and R20 (`merge_ways`): the held candidates and what an
//! edge does with a fragment. The queue `q` holds c ≤ K fragments, the oldest first; with
//! K = 1 it is R4's candidate register and these are R4's rules E0–E3 word for word (c = K
//! whenever a candidate is held). With W > 2 (K = 1) the candidate is a set: `q[0]` is its
//! member 0 and `set` its members 1 .. n-1 (R20); E0 and a set that leaves in E3 take it
//! whole, E3 lets F join it.

use super::ways::{Emit, FragSet, Member};
use super::{xperm, Pend, ThreadMergeInputs, ThreadMergeModel};
#[cfg(test)]
use super::Mutation;

impl ThreadMergeModel {
    /// One edge of R4 / R19 for the fragment `f` (its coverage already masked to LANES):
    /// `e0` is E0's condition (`flush_now && out_ok && free_cnt >= 1`), `frag_ready` the
    /// cycle's ready. Returns the emission, if any; updates the queue, `qlast`, the ages
    /// and `err_proto` (an accepted fragment with no coverage). With `merge_ways` > 2 the
    /// candidate holds a set (R20; E3's join below).
    pub(crate) fn fragment_step(&mut self, i: &ThreadMergeInputs, f: Pend, e0: bool, frag_ready: bool) -> Emit {
        let (lanes, k, last) = (self.p.lanes, self.p.candidates, i.frag_last);
        let mut emit: Emit = None;
        // Held fragments that stay held (not emitted) and were not appended at this edge age.
        let held_before = self.q.len();
        let mut removed: Option<usize> = None;
        if e0 {
            // E0: the head (with W > 2 the held set) leaves; no fragment is taken.
            emit = Some(self.take_head());
            removed = Some(0);
        } else if i.frag_valid && frag_ready {
            if f.cov == 0 {
                self.err_proto = true;
            } else if f.cov == self.p.lane_mask() {
                // E1: a full fragment leaves alone; a last one ends the run.
                emit = Some(FragSet::single(f.cov, f.tag));
                if last && !self.q.is_empty() {
                    self.qlast = true;
                }
            } else if self.q.is_empty() {
                // E2.
                if last {
                    emit = Some(FragSet::single(f.cov, f.tag));
                } else {
                    self.q.push(f);
                    self.qlast = false;
                }
            } else if self.p.merge_ways > 2 {
                // E3 with a set (R20): F joins if it fits U, the OR of the held coverages
                // (member 0's alone with FitsFirstOnly); the set leaves when it has W
                // members, covers every lane or F is last, or when F fits no remap.
                let set = self.held_set();
                let u = if mutant!(self, FitsFirstOnly) { set.m[0].cov } else { set.union() };
                match self.merge(u, f.cov) {
                    Some(p) => {
                        let c = xperm(f.cov, p, lanes);
                        self.set.push(Member { cov: c, perm: p, tag: f.tag });
                        if set.n + 1 == self.p.merge_ways || (u | c) == self.p.lane_mask() || last {
                            emit = Some(self.take_head());
                            removed = Some(0);
                        }
                    }
                    None => {
                        emit = Some(self.take_head());
                        removed = Some(0);
                        self.q.push(f);
                        self.qlast = last;
                    }
                }
            } else {
                // E3: the oldest held fragment that F fits (the newest with PairNewest).
                let fits = |j: usize| self.merge(self.q[j].cov, f.cov).map(|pp| (j, pp));
                let found = if mutant!(self, PairNewest) {
                    (0..self.q.len()).rev().find_map(fits)
                } else {
                    (0..self.q.len()).find_map(fits)
                };
                match found {
                    Some((j, pp)) => {
                        let a = self.q.remove(j);
                        let b = Member { cov: xperm(f.cov, pp, lanes), perm: pp, tag: f.tag };
                        emit = Some(FragSet::pair(a.cov, a.tag, b));
                        removed = Some(j);
                    }
                    None => {
                        if self.q.len() == k || mutant!(self, QueueNoRoom) {
                            let h = self.q.remove(0);
                            emit = Some(FragSet::single(h.cov, h.tag));
                            removed = Some(0);
                        }
                        self.q.push(f);
                    }
                }
                self.qlast = last;
            }
        }
        // Ages: every fragment held before the edge that is still held (the first
        // `held_before`, less the one removed) ages by 1, saturating at pair_hold.
        let aged = held_before - usize::from(removed.is_some());
        let hold = self.p.pair_hold;
        for a in self.q.iter_mut().take(aged) {
            a.age = (a.age + 1).min(hold);
        }
        emit
    }
}
