//! Contract R8–R11 (spec §5.5.4–§5.5.7): term, disc, me and the timeouts of one edge, in
//! this order, each seeing the previous steps' results. Written for a slot of any number
//! of members (R20): with W = 2 "every other member" is the partner Y = (s, 1−m) and these
//! are R8–R11 word for word (a paired, unbroken slot never has a FREE or POST partner at a
//! me, and never two members WAIT, so the set rules reduce to the pair's).

use super::{RspReg, ThreadMergeModel, FREE, POST, PRE, WAIT};
#[cfg(test)]
use super::Mutation;

impl ThreadMergeModel {
    /// The other members of x's slot that R8 / R10 look at: all of them (R20), or only the
    /// pair partner x ^ 1 with the TermPartnerOnly mutation (R8's W = 2 reading).
    fn others(&self, x: usize, partner_only: bool) -> Vec<usize> {
        let s = self.slot_of(x);
        self.slot_groups(s)
            .filter(|&y| y != x && (!partner_only || y == x ^ 1))
            .collect()
    }

    /// R8 term{x} (R20: any term of a set member before the merge breaks the set).
    pub(super) fn do_term(&mut self, raw: u64) {
        let Some(x) = self.id(raw) else {
            self.err_proto = true;
            return;
        };
        if matches!(self.groups[x].state, FREE | WAIT) {
            self.err_proto = true;
            return;
        }
        let s = self.slot_of(x);
        self.groups[x].state = FREE;
        self.owe[x] = false;
        let sl = self.slots[s];
        let others = self.others(x, mutant!(self, TermPartnerOnly));
        if sl.paired && !sl.merged && others.iter().any(|&y| self.groups[y].state != FREE) {
            self.slots[s].broken = true;
            for y in others {
                if self.groups[y].state == WAIT && !mutant!(self, TermNoResume) {
                    self.groups[y].state = POST;
                    self.owe[y] = true;
                }
            }
        }
    }

    /// R9 disc{x, mask}.
    pub(super) fn do_disc(&mut self, raw: u64, mask: u64) {
        match self.id(raw) {
            Some(x) if matches!(self.groups[x].state, PRE | POST) => {
                self.groups[x].active &= !(mask & self.p.lane_mask());
            }
            _ => self.err_proto = true,
        }
    }

    /// R10 me{x} (accepted); returns the response, if any. `state0` is S0's `st_state`
    /// (R20: the wait counter restarts only when no other member was WAIT in S0).
    pub(super) fn do_me(&mut self, raw: u64, state0: &[u8]) -> Option<RspReg> {
        let Some(x) = self.id(raw) else {
            self.err_proto = true;
            return None;
        };
        let s = self.slot_of(x);
        let alone = |g: &super::Group| RspReg {
            valid: true,
            tgid: x as u64,
            merged: false,
            active: g.active,
            retire: false,
            retire_mask: 0,
        };
        match self.groups[x].state {
            FREE | WAIT => {
                self.err_proto = true;
                None
            }
            POST => {
                if !mutant!(self, MeKeepsOwe) {
                    self.owe[x] = false;
                }
                Some(alone(&self.groups[x]))
            }
            _ => {
                // PRE
                if !mutant!(self, MeKeepsOwe) {
                    self.owe[x] = false;
                }
                let sl = self.slots[s];
                let others = self.others(x, false);
                if !sl.paired || sl.broken {
                    self.groups[x].state = POST;
                    Some(alone(&self.groups[x]))
                } else if others.iter().all(|&y| matches!(self.groups[y].state, WAIT | FREE)) {
                    Some(self.merge_set(s))
                } else {
                    self.groups[x].state = WAIT;
                    let waited0 = others.iter().any(|&y| state0[y] == WAIT);
                    if !waited0 || mutant!(self, WaitRestartsEachPark) {
                        self.slots[s].wait = 0;
                    }
                    None
                }
            }
        }
    }

    /// R10 / R20 MERGE of slot s: A's mask becomes the OR of the members' masks (after this
    /// edge's disc), A POST, every other member FREE with its record kept (D3).
    fn merge_set(&mut self, s: usize) -> RspReg {
        let g = self.slot_groups(s);
        let a = g.start;
        // Members other than A whose masks the merge reads: all (the ones outside the set
        // have active 0, R20), or only B with the MergeIgnoresC mutation.
        let last = if mutant!(self, MergeIgnoresC) { a + 2 } else { g.end };
        let or = (a + 1..last).fold(0, |acc, y| {
            let gy = self.groups[y];
            acc | if mutant!(self, MergeUsesSpawnMask) { gy.spawn } else { gy.active }
        });
        self.groups[a].active |= or;
        self.groups[a].state = POST;
        for y in a + 1..g.end {
            self.groups[y].state = FREE;
        }
        self.slots[s].merged = true;
        self.merge_count = self.merge_count.wrapping_add(1);
        // R20 rsp_retire_mask: bit j-1 = member j of the set (j = 1 .. n-1).
        let n = usize::from(self.slots[s].n);
        let retire_mask = (1..n).fold(0, |acc, j| acc | 1u64 << (j - 1));
        RspReg {
            valid: true,
            tgid: a as u64,
            merged: true,
            active: self.groups[a].active,
            retire: true,
            retire_mask,
        }
    }

    /// R11 timeouts (merge_timeout T != 0), per slot (R20): when a member WAIT in S0 is
    /// still WAIT after R8–R10, either the counter is at T−1 and every member WAIT now
    /// (also one parked at this edge) resumes, owed, and the slot breaks; or the counter
    /// counts. With W = 2 at most one member of a slot is WAIT: R11 word for word.
    pub(super) fn timeouts(&mut self, state0: &[u8]) {
        let t = self.p.merge_timeout;
        if t == 0 {
            return;
        }
        let limit = if mutant!(self, TimeoutLate) { t } else { t - 1 };
        for s in 0..self.p.slots {
            let g = self.slot_groups(s);
            if !g.clone().any(|x| state0[x] == WAIT && self.groups[x].state == WAIT) {
                continue;
            }
            if self.slots[s].wait == limit {
                for x in g {
                    if self.groups[x].state == WAIT {
                        self.groups[x].state = POST;
                        self.owe[x] = true;
                    }
                }
                self.slots[s].broken = true;
            } else {
                self.slots[s].wait += 1;
            }
        }
    }
}
