//! Rules G1–G7 of docs/blocks/branch_stack.md (`thread_groups`), written from the rules
//! only: the group parameters and input builders, the per-group PC update (G5), the save
//! read port (G6) and the restore (G7), and the per-group entry counts that a driver (the
//! stimulus, the coverage) tracks from the ports it drives. The stacks' part (G3, G4) is
//! [`StackEffect`].

use super::{BranchStackInputs, BranchStackModel, BranchStackParams, StackEffect};

impl BranchStackParams {
    /// The same parameters with `thread_groups = t`.
    pub fn groups(self, t: usize) -> Self {
        BranchStackParams { tgs: t, ..self }
    }

    /// TG_W = log2 T, the width of a group id (0 at one group: no id port).
    pub fn tg_w(&self) -> u32 {
        self.tgs.max(1).trailing_zeros()
    }

    /// A group-id port value taken modulo T (its TG_W bits).
    pub fn tg(&self, id: u8) -> usize {
        usize::from(id) & (self.tgs.max(1) - 1)
    }
}

impl BranchStackInputs {
    /// Stage `stage`'s thread group (`cc_tg`, G3).
    pub fn cc_group(mut self, stage: usize, g: u8) -> Self {
        if self.cc_tg.len() <= stage {
            self.cc_tg.resize(stage + 1, 0);
        }
        self.cc_tg[stage] = g;
        self
    }

    /// The decoded branch's group, also the group `cc_r` … `cc_cnt` show (`de_tg`).
    pub fn de_group(mut self, g: u8) -> Self {
        self.de_tg = g;
        self
    }

    /// The fetched group (`fe_tg`).
    pub fn fe_group(mut self, g: u8) -> Self {
        self.fe_tg = g;
        self
    }

    /// The group of `ex_branch_t1` (`ex_tg`).
    pub fn ex_group(mut self, g: u8) -> Self {
        self.ex_tg = g;
        self
    }

    /// Read group `g` through `sv_*` (`sv_tg`).
    pub fn save(mut self, g: u8) -> Self {
        self.sv_tg = g;
        self
    }

    /// Restore group `g` at this edge: count `cnt`, entries `top_first`, pc `pc` (G7).
    pub fn restore(mut self, g: u8, cnt: u64, top_first: &[u8], pc: u64) -> Self {
        self.rs_valid = true;
        self.rs_tg = g;
        self.rs_cnt = cnt;
        self.rs_stack = top_first.to_vec();
        self.rs_pc = pc;
        self
    }
}

impl BranchStackModel {
    /// G5 (with `pc_hold` = 0): pc_g ← `ex_t1pc` if `ex_branch_t1` and `ex_tg` = g; else
    /// `t0pc_q` if `branch_t0_q` and `t0_tg_q` = g; else pc_g + `pc_increment` if g = `fe_tg`;
    /// else pc_g. At T = 1 every id is 0: the rule of §5.5.7.
    pub(super) fn update_pcs(&mut self, i: &BranchStackInputs) {
        let (ex, fe) = (self.p.tg(i.ex_tg), self.p.tg(i.fe_tg));
        for g in 0..self.p.tgs {
            self.pcs[g] = if i.ex_branch_t1 && ex == g {
                i.ex_t1pc & self.p.pc_mask()
            } else if self.branch_t0_q && self.t0_tg_q == g {
                self.t0pc_q
            } else if g == fe {
                self.p.next_pc(self.pcs[g])
            } else {
                self.pcs[g]
            };
        }
    }

    /// G6: group `sv_tg`'s count, its `depth` entries (0 at and above the count) and its pc,
    /// from the state at the start of the cycle; (0, empty, 0) at T = 1 (no such ports).
    pub(super) fn save(&self, i: &BranchStackInputs) -> (u64, Vec<u8>, u64) {
        if self.p.tgs == 1 {
            return (0, Vec::new(), 0);
        }
        let g = self.p.tg(i.sv_tg);
        let st = &self.stacks[g];
        let entries = (0..self.p.depth).map(|k| st.get(k).copied().unwrap_or(0)).collect();
        (st.len() as u64, entries, self.pcs[g])
    }

    /// G7: with `rs_valid` (T > 1), group `rs_tg`'s count becomes c = min(`rs_cnt`, depth),
    /// its entries 0 … c−1 `rs_stack`'s, its pc `rs_pc`. Applied after the cycle's ops and
    /// PC update, which it overrides for that group only.
    pub(super) fn restore(&mut self, i: &BranchStackInputs) {
        if self.p.tgs == 1 || !i.rs_valid {
            return;
        }
        let g = self.p.tg(i.rs_tg);
        let c = restored_count(&self.p, i);
        self.stacks[g] = (0..c).map(|k| i.rs_stack.get(k).copied().unwrap_or(0) & 0xF).collect();
        self.pcs[g] = i.rs_pc & self.p.pc_mask();
    }
}

/// The count a restore gives: min(`rs_cnt` modulo 2^CNT_W, depth).
pub fn restored_count(p: &BranchStackParams, i: &BranchStackInputs) -> usize {
    let cnt = i.rs_cnt & ((1u64 << p.cnt_w()) - 1);
    (cnt as usize).min(p.depth)
}

/// Every group's entry count after the edge of a cycle with inputs `i`, from the counts
/// `cnts` at its start: reset empties all; the ops of G3/G4; a restore (G7) sets its group.
pub fn next_counts(p: &BranchStackParams, i: &BranchStackInputs, cnts: &mut [usize]) {
    if i.reset {
        cnts.fill(0);
        return;
    }
    let e = StackEffect::of_groups(p, i, |g| cnts[g]);
    cnts[e.de_tg] = e.cnt_after;
    cnts[e.p_tg] = e.p_cnt_after;
    if p.tgs > 1 && i.rs_valid {
        cnts[p.tg(i.rs_tg)] = restored_count(p, i);
    }
}
