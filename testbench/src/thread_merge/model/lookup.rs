//! Contract R13 (and R20's lookups): the combinational `rf_*` / `wb_*` lookups, on the
//! registered state only. D3: the retired members' records (mask frozen at the merge, tag,
//! perm) stay in the slot and are A's lane sources.

use super::{ThreadMergeModel, FREE, POST};
#[cfg(test)]
use super::Mutation;

/// What one lookup port returns (R13, R20).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Lookup {
    pub(super) common_wmask: u64,
    pub(super) exec_mask: u64,
    pub(super) perm: u8,
    pub(super) post: bool,
    pub(super) active: u64,
    pub(super) lane_src: u64,
    pub(super) tag_self: u64,
    pub(super) tag_partner: u64,
    pub(super) perm_partner: u8,
    pub(super) orig_lane: Vec<u8>,
    /// R20 `wb_lane_mem` (all 0 with W = 2: no such port).
    pub(super) lane_mem: Vec<u8>,
    pub(super) tag_c: u64,
    pub(super) perm_c: u8,
    pub(super) tag_d: u64,
    pub(super) perm_d: u8,
}

impl ThreadMergeModel {
    /// R13 for the raw id `raw`. With mv = (m == 0 && merged): lane i's source member
    /// src(i) is the j >= 1 whose frozen mask has bit i (0 if none; with W = 2 that is B's
    /// mask, R13's `lane_src`), and lane i's remap is perm[s][src(i)] (perm of member 0 =
    /// 0); otherwise every lane has `wb_perm_self`.
    pub(super) fn lookup(&self, raw: u64) -> Lookup {
        let lanes = self.p.lanes;
        let zero = Lookup {
            orig_lane: vec![0; lanes],
            lane_mem: vec![0; lanes],
            ..Default::default()
        };
        let Some(x) = self.id(raw) else { return zero };
        let g = self.groups[x];
        if g.state == FREE {
            return zero;
        }
        let (s, m) = (self.slot_of(x), self.member_of(x));
        let base = self.slot_groups(s).start;
        let sl = self.slots[s];
        let perm_self = if m != 0 { sl.perm[m] } else { 0 };
        let mv = m == 0 && sl.merged;
        let src: Vec<usize> = (0..lanes)
            .map(|i| {
                let has = |j: usize| (self.groups[base + j].active >> i) & 1 == 1;
                if mv { (1..self.p.members()).find(|&j| has(j)).unwrap_or(0) } else { 0 }
            })
            .collect();
        let lane_src = src
            .iter()
            .enumerate()
            .filter(|&(_, &j)| j != 0)
            .fold(0, |acc, (i, _)| acc | 1u64 << i);
        let orig_lane = (0..lanes)
            .map(|i| {
                let pp = if src[i] != 0 && !mutant!(self, OrigLaneIgnoresPerm) {
                    sl.perm[src[i]]
                } else {
                    perm_self
                };
                ((i & !3) | ((i & 3) ^ pp as usize)) as u8
            })
            .collect();
        let ways = self.p.merge_ways;
        // Member j's record for the partner ports: mv and the port exists (j < W), else 0.
        let rec = |j: usize| {
            if mv && j < ways {
                (self.groups[base + j].tag, sl.perm[j])
            } else {
                (0, 0)
            }
        };
        let ((tag_partner, perm_partner), (tag_c, perm_c), (tag_d, perm_d)) = (rec(1), rec(2), rec(3));
        Lookup {
            common_wmask: g.active,
            exec_mask: if g.state == POST {
                g.active
            } else {
                self.p.lane_mask()
            },
            perm: perm_self,
            post: g.state == POST,
            active: g.active,
            lane_src,
            tag_self: g.tag,
            tag_partner,
            perm_partner,
            orig_lane,
            lane_mem: if ways > 2 {
                src.iter().map(|&j| j as u8).collect()
            } else {
                vec![0; lanes]
            },
            tag_c,
            perm_c,
            tag_d,
            perm_d,
        }
    }
}
