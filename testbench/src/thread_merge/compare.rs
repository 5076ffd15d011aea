//! What lockstep compares (contract §5): the first difference between the model's
//! (`expected`) and the DUT's (`actual`) outputs of one cycle, with payloads masked by their
//! valids as the contract says. The masks are taken from `expected`; a differing valid is
//! itself reported first.
//!
//! `merge_ways` > 2 (R20) adds, where the ports exist (member D's only with W = 4):
//! `grp_c_valid` whenever `grp_valid`, `grp_c_*` when also `grp_c_valid` (D likewise),
//! `rsp_retire_mask` when `rsp_valid && rsp_retire`, and `wb_lane_mem`, `wb_tag_c`,
//! `wb_perm_c`, `wb_tag_d`, `wb_perm_d` every cycle. With W = 2 these ports do not exist
//! and nothing of them is compared. A slot's members are 4s .. 4s+3 for W > 2.

use super::model::FREE;
use super::{ThreadMergeOutputs, ThreadMergeParams};

/// The first output that differs, as "port: expected …, actual …".
pub fn first_difference(p: &ThreadMergeParams, e: &ThreadMergeOutputs, a: &ThreadMergeOutputs) -> Option<String> {
    let ways = p.merge_ways > 2;
    let ways4 = p.merge_ways == 4;
    let always = |o: &ThreadMergeOutputs| {
        let mut v = vec![
            ("frag_ready", u64::from(o.frag_ready)),
            ("me_ready", u64::from(o.me_ready)),
            ("grp_valid", u64::from(o.grp_valid)),
            ("rsp_valid", u64::from(o.rsp_valid)),
            ("rf_common_wmask", o.rf_common_wmask),
            ("rf_exec_mask", o.rf_exec_mask),
            ("rf_perm", u64::from(o.rf_perm)),
            ("rf_post", u64::from(o.rf_post)),
            ("wb_active", o.wb_active),
            ("wb_lane_src", o.wb_lane_src),
            ("wb_tag_self", o.wb_tag_self),
            ("wb_tag_partner", o.wb_tag_partner),
            ("wb_perm_self", u64::from(o.wb_perm_self)),
            ("wb_perm_partner", u64::from(o.wb_perm_partner)),
            ("free_cnt", o.free_cnt),
            ("pend_valid", u64::from(o.pend_valid)),
            ("merge_count", o.merge_count),
            ("err_proto", u64::from(o.err_proto)),
            ("err_xlane", u64::from(o.err_xlane)),
            ("perf_val", o.perf_val),
        ];
        if ways {
            v.extend([("wb_tag_c", o.wb_tag_c), ("wb_perm_c", u64::from(o.wb_perm_c))]);
        }
        if ways4 {
            v.extend([("wb_tag_d", o.wb_tag_d), ("wb_perm_d", u64::from(o.wb_perm_d))]);
        }
        v
    };
    let grp = |o: &ThreadMergeOutputs| {
        let mut v = vec![
            ("grp_paired", u64::from(o.grp_paired)),
            ("grp_a_tgid", o.grp_a_tgid),
            ("grp_a_cov", o.grp_a_cov),
            ("grp_a_tag", o.grp_a_tag),
        ];
        if e.grp_paired {
            v.extend([
                ("grp_b_tgid", o.grp_b_tgid),
                ("grp_b_cov", o.grp_b_cov),
                ("grp_b_perm", u64::from(o.grp_b_perm)),
                ("grp_b_tag", o.grp_b_tag),
            ]);
        }
        if ways {
            v.push(("grp_c_valid", u64::from(o.grp_c_valid)));
            if e.grp_c_valid {
                v.extend([
                    ("grp_c_tgid", o.grp_c_tgid),
                    ("grp_c_cov", o.grp_c_cov),
                    ("grp_c_perm", u64::from(o.grp_c_perm)),
                    ("grp_c_tag", o.grp_c_tag),
                ]);
            }
        }
        if ways4 {
            v.push(("grp_d_valid", u64::from(o.grp_d_valid)));
            if e.grp_d_valid {
                v.extend([
                    ("grp_d_tgid", o.grp_d_tgid),
                    ("grp_d_cov", o.grp_d_cov),
                    ("grp_d_perm", u64::from(o.grp_d_perm)),
                    ("grp_d_tag", o.grp_d_tag),
                ]);
            }
        }
        v
    };
    let rsp = |o: &ThreadMergeOutputs| {
        let mut v = vec![
            ("rsp_tgid", o.rsp_tgid),
            ("rsp_merged", u64::from(o.rsp_merged)),
            ("rsp_active", o.rsp_active),
            ("rsp_retire", u64::from(o.rsp_retire)),
        ];
        if e.rsp_retire {
            v.push(("rsp_retire_tgid", o.rsp_retire_tgid));
            if ways {
                v.push(("rsp_retire_mask", o.rsp_retire_mask));
            }
        }
        v
    };
    let scalar = |ev: Vec<(&'static str, u64)>, av: Vec<(&'static str, u64)>| {
        ev.into_iter()
            .zip(av)
            .find(|(x, y)| x.1 != y.1)
            .map(|(x, y)| format!("{}: expected {:#x}, actual {:#x}", x.0, x.1, y.1))
    };
    if let Some(d) = scalar(always(e), always(a)) {
        return Some(d);
    }
    if e.wb_orig_lane != a.wb_orig_lane {
        return Some(format!(
            "wb_orig_lane: expected {:?}, actual {:?}",
            e.wb_orig_lane, a.wb_orig_lane
        ));
    }
    if ways && e.wb_lane_mem != a.wb_lane_mem {
        return Some(format!(
            "wb_lane_mem: expected {:?}, actual {:?}",
            e.wb_lane_mem, a.wb_lane_mem
        ));
    }
    if e.st_state != a.st_state {
        return Some(format!(
            "st_state: expected {:?}, actual {:?}",
            e.st_state, a.st_state
        ));
    }
    if e.st_owe != a.st_owe {
        return Some(format!("st_owe: expected {:?}, actual {:?}", e.st_owe, a.st_owe));
    }
    if e.grp_valid {
        if let Some(d) = scalar(grp(e), grp(a)) {
            return Some(d);
        }
    }
    if e.rsp_valid {
        if let Some(d) = scalar(rsp(e), rsp(a)) {
            return Some(d);
        }
    }
    for (t, &st) in e.st_state.iter().enumerate() {
        if st != FREE && e.st_active.get(t) != a.st_active.get(t) {
            return Some(format!(
                "st_active[{t}]: expected {:#x}, actual {:?}",
                e.st_active[t],
                a.st_active.get(t)
            ));
        }
    }
    let m = p.members();
    for (s, &fl) in e.st_slot.iter().enumerate() {
        let used = (m * s..m * s + m).any(|t| e.st_state.get(t).is_some_and(|&x| x != FREE));
        if used && Some(&fl) != a.st_slot.get(s) {
            return Some(format!(
                "st_slot[{s}]: expected {fl:#05b}, actual {:?}",
                a.st_slot.get(s)
            ));
        }
    }
    None
}
