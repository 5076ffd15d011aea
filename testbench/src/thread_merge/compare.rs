//! What lockstep compares (contract §5): the first difference between the model's
//! (`expected`) and the DUT's (`actual`) outputs of one cycle, with payloads masked by their
//! valids as the contract says. The masks are taken from `expected`; a differing valid is
//! itself reported first.

use super::model::FREE;
use super::ThreadMergeOutputs;

/// The first output that differs, as "port: expected …, actual …".
pub fn first_difference(e: &ThreadMergeOutputs, a: &ThreadMergeOutputs) -> Option<String> {
    let always = |o: &ThreadMergeOutputs| {
        vec![
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
        ]
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
    for (s, &fl) in e.st_slot.iter().enumerate() {
        let used = e.st_state[2 * s] != FREE || e.st_state[2 * s + 1] != FREE;
        if used && Some(&fl) != a.st_slot.get(s) {
            return Some(format!(
                "st_slot[{s}]: expected {fl:#05b}, actual {:?}",
                a.st_slot.get(s)
            ));
        }
    }
    None
}
