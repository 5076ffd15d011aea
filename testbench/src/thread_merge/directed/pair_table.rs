//! The exhaustive pair table of contract §6: every ordered pair of partial 4-lane masks,
//! with and without remap, against the R5 decision and the contract's counts.

use super::runner::*;
use super::*;
use std::collections::BTreeMap;

// ---- exhaustive pair table (contract §6) -----------------------------------------------

/// Physical lane of logical in-quad sample i under remap p (claim 6 / R5), as a table:
/// p 1 swaps the columns, p 2 the rows, p 3 both.
const LANE_OF: [[usize; 4]; 4] = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]];

/// `m` with every sample moved to its lane under remap p.
fn remapped(m: u64, p: usize) -> u64 {
    (0..4)
        .filter(|&i| m & (1 << i) != 0)
        .map(|i| 1u64 << LANE_OF[p][i])
        .sum()
}

/// The decision of R5, written from the contract for the test: the first remap (identity
/// first; only identity without remap) that makes the masks disjoint.
pub fn pair_decision(a: u64, b: u64, remap: bool) -> Option<usize> {
    let tries = if remap { 4 } else { 1 };
    (0..tries).find(|&p| a & remapped(b, p) == 0)
}

/// What the pair table saw on a DUT.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairTable {
    /// Ordered pairs paired, without / with remap.
    pub merges: [usize; 2],
    /// With remap: pairs by chosen p.
    pub by_perm: [usize; 4],
    /// (popcount a, popcount b) → (identity, remap, total).
    pub classes: BTreeMap<(u32, u32), (usize, usize, usize)>,
}

/// Drive every ordered pair of partial 4-lane masks through DUTs from `make` (C0 with remap
/// off and on): reset; F{a} @1, F{b} @2; @3 the pair with the expected perm and b_cov, or
/// the single a with the candidate held. Checks the hard-coded counts of contract §6.
pub fn pair_table(
    make: &mut dyn FnMut(&ThreadMergeParams) -> Box<dyn Dut<ThreadMerge>>,
) -> Result<PairTable, String> {
    let mut t = PairTable::default();
    for remap in [false, true] {
        let p = ThreadMergeParams {
            remap,
            ..ThreadMergeParams::contract_default()
        };
        let mut dut = make(&p);
        for a in 1..=14u64 {
            for b in 1..=14u64 {
                let mut c = Case::new();
                c.frag(1, f(a, 0xA)).frag(2, f(b, 0xB));
                let want = pair_decision(a, b, remap);
                match want {
                    Some(pp) => c.at(3, &pair(0, a, 0xA, remapped(b, pp), pp as u8, 0xB)),
                    None => c.at(3, &single(0, a, 0xA)),
                };
                c.at(3, &[PendValid(want.is_none())]);
                c.run(dut.as_mut())
                    .map_err(|e| format!("pair table remap={remap} a={a:04b} b={b:04b}: {e}"))?;
                let cls = t.classes.entry((a.count_ones(), b.count_ones())).or_default();
                if let Some(pp) = want {
                    t.merges[usize::from(remap)] += 1;
                    if remap {
                        t.by_perm[pp] += 1;
                        cls.1 += 1;
                    } else {
                        cls.0 += 1;
                    }
                }
                if remap {
                    cls.2 += 1;
                }
            }
        }
    }
    check_pair_counts(&t)?;
    Ok(t)
}

/// The counts of contract §6 (checked by enumeration there), hard-coded.
fn check_pair_counts(t: &PairTable) -> Result<(), String> {
    let mut errs = Vec::new();
    if t.merges != [50, 108] {
        errs.push(format!(
            "merges without/with remap {:?}, want [50, 108]",
            t.merges
        ));
    }
    if t.by_perm != [50, 32, 18, 8] {
        errs.push(format!("first p {:?}, want [50, 32, 18, 8]", t.by_perm));
    }
    let want: [((u32, u32), (usize, usize, usize)); 9] = [
        ((1, 1), (12, 16, 16)),
        ((1, 2), (12, 24, 24)),
        ((2, 1), (12, 24, 24)),
        ((1, 3), (4, 16, 16)),
        ((3, 1), (4, 16, 16)),
        ((2, 2), (6, 12, 36)),
        ((2, 3), (0, 0, 24)),
        ((3, 2), (0, 0, 24)),
        ((3, 3), (0, 0, 16)),
    ];
    for (k, v) in want {
        if t.classes.get(&k) != Some(&v) {
            errs.push(format!(
                "class {}+{}: {:?}, want {v:?}",
                k.0,
                k.1,
                t.classes.get(&k)
            ));
        }
    }
    if t.classes.len() != 9 {
        errs.push(format!("{} classes, want 9", t.classes.len()));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("; "))
    }
}
