//! Contract R20 (`merge_ways` = W, 2 to 4; spec §5.11 "N-way merging"): ids of a slot's
//! members, the candidate *set* of up to W-1 held fragments (its formation, R4 with a set,
//! is E3's join in `candidates.rs`), and the spawn of a set into a slot (R7). With W = 2 a slot has two members
//! (`tgid = 2s + m`) and these are R4 / R7 word for word; with W = 3, 4 it has four
//! (`tgid = 4s + m`, m >= W names nothing), and W > 2 only occurs with `candidates` = 1.
//!
//! Readings where R20 is silent (the model's choices, also listed in the report of the
//! change that added it):
//! * A member that is not in the spawned set (m >= n) gets active, tag and perm 0 (R20's
//!   spawn): the descriptor drives 0 on the payload of an absent member, and the slot's
//!   member record is what the spawn wrote. So `wb_tag_c` / `wb_perm_c` of a merged set of
//!   two read 0, never a previous allocation's values. With W = 2 a single's B record is
//!   left as it was (R7 says nothing, and R13 never reads it).
//! * `grp_c_*` / `grp_d_*` of a descriptor without that member are all 0, its tgid too
//!   (not compared, R20 "Compared only when valid").
//! * A fragment that joins the held set and does not complete it leaves `last` as it was
//!   (F.last is 0 there: a last F completes the set).
//! * The ports R20 adds (`grp_c_*`, `grp_d_*`, `rsp_retire_mask`, `wb_lane_mem`,
//!   `wb_tag_c` …) do not exist with W = 2: the model drives them 0 there; `grp_d_*`,
//!   `wb_tag_d`, `wb_perm_d` are 0 with W = 3 for the same reason.

use super::{Group, GrpReg, Slot, ThreadMergeModel, PRE};

/// One member of a set of fragments: its coverage in physical lanes (after its remap), the
/// remap p_j (0 for member 0) and its tag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Member {
    pub(crate) cov: u64,
    pub(crate) perm: u8,
    pub(crate) tag: u64,
}

/// A set of n = 1 .. 4 fragments that leave together (R4, R19: a single or a pair; R20:
/// up to W), in arrival order: member 0 is A (perm 0), member j gets `tgid = base + j`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct FragSet {
    pub(crate) n: usize,
    pub(crate) m: [Member; 4],
}

impl FragSet {
    /// A set of one: a single group.
    pub(crate) fn single(cov: u64, tag: u64) -> Self {
        let mut s = FragSet::default();
        s.push(Member { cov, perm: 0, tag });
        s
    }

    /// A pair: A (perm 0) and B with its coverage after the remap `perm`.
    pub(crate) fn pair(a_cov: u64, a_tag: u64, b: Member) -> Self {
        let mut s = FragSet::single(a_cov, a_tag);
        s.push(b);
        s
    }

    pub(crate) fn push(&mut self, m: Member) {
        self.m[self.n] = m;
        self.n += 1;
    }

    /// U = OR of the members' coverages (R20).
    pub(crate) fn union(&self) -> u64 {
        self.m[..self.n].iter().fold(0, |u, m| u | m.cov)
    }
}

/// What an edge emits, if anything.
pub(crate) type Emit = Option<FragSet>;

impl ThreadMergeModel {
    /// R20 ids: the slot of group t (`t = members·s + m`).
    pub(crate) fn slot_of(&self, t: usize) -> usize {
        t >> self.p.member_w()
    }

    /// R20 ids: the member index m of group t.
    pub(crate) fn member_of(&self, t: usize) -> usize {
        t & (self.p.members() - 1)
    }

    /// The groups of slot s, member 0 (A) first.
    pub(crate) fn slot_groups(&self, s: usize) -> std::ops::Range<usize> {
        let k = self.p.members();
        s * k..(s + 1) * k
    }

    /// The held set (`q[0]` and `set`), without changing it.
    pub(crate) fn held_set(&self) -> FragSet {
        let h = self.q[0];
        let mut s = FragSet::single(h.cov, h.tag);
        for &m in &self.set {
            s.push(m);
        }
        s
    }

    /// The head of the queue leaves: `q[0]` alone, or with W > 2 the whole held set (`q[0]`
    /// and `set`, which is empty for pairs).
    pub(crate) fn take_head(&mut self) -> FragSet {
        let s = self.held_set();
        self.q.remove(0);
        self.set.clear();
        s
    }

    /// R7 / R20 spawn of the set `e` into the free slot s: members 0 .. n-1 PRE with their
    /// coverage, tag and perm; with W > 2 the members >= n FREE with active, tag and perm 0
    /// (see the module's readings); the descriptor register.
    pub(crate) fn spawn(&mut self, s: usize, e: FragSet) {
        let base = self.slot_groups(s).start;
        let w_gt2 = self.p.merge_ways > 2;
        for j in 0..self.p.members() {
            if j < e.n {
                let m = e.m[j];
                self.groups[base + j] = Group {
                    state: PRE,
                    active: m.cov,
                    tag: m.tag,
                    spawn: m.cov,
                };
            } else if w_gt2 {
                self.groups[base + j] = Group::default();
            }
        }
        // perm[s][j] = p_j for the set's members, 0 for the others (e.m[j] is 0 past n).
        let perm = e.m.map(|m| m.perm);
        self.slots[s] = Slot {
            paired: e.n >= 2,
            broken: false,
            merged: false,
            perm,
            n: e.n as u8,
            wait: 0,
        };
        // Member j's descriptor fields when the set has it (0 otherwise: not compared).
        let mem = |j: usize| if j < e.n { e.m[j] } else { Member::default() };
        let tgid = |j: usize| if j < e.n { (base + j) as u64 } else { 0 };
        let (b, c, d) = (mem(1), mem(2), mem(3));
        self.grp = GrpReg {
            valid: true,
            paired: e.n >= 2,
            a_tgid: base as u64,
            a_cov: e.m[0].cov,
            a_tag: e.m[0].tag,
            b_tgid: (base + 1) as u64,
            b_cov: b.cov,
            b_perm: b.perm,
            b_tag: b.tag,
            c_valid: e.n >= 3,
            c_tgid: tgid(2),
            c_cov: c.cov,
            c_perm: c.perm,
            c_tag: c.tag,
            d_valid: e.n >= 4,
            d_tgid: tgid(3),
            d_cov: d.cov,
            d_perm: d.perm,
            d_tag: d.tag,
        };
    }
}
