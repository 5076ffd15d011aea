//! Emission: the exact ports (packed status vectors), the header and the core's Verilog.

use super::*;

impl crate::BlockGen for ThreadMergeConfig {
    const NAME: &'static str = "thread_merge";

    fn wrapper(&self) -> Wrapper {
        wrapper(self)
    }

    fn header_params(&self) -> Vec<(String, String)> {
        let mut params = vec![
            ("lanes".into(), self.lanes.to_string()),
            ("slots".into(), self.slots.to_string()),
            ("remap".into(), self.remap.to_string()),
            ("pair_hold".into(), self.pair_hold.to_string()),
            ("merge_timeout".into(), self.merge_timeout.to_string()),
            ("tag_width".into(), self.tag_width.to_string()),
            ("prim_width".into(), self.prim_width.to_string()),
            ("TGID_W (thread-group id bits)".into(), self.tgid_bits().to_string()),
            ("LANE_W (lane index bits)".into(), self.lane_bits().to_string()),
            ("CNT_W (free_cnt bits)".into(), self.cnt_bits().to_string()),
        ];
        // Listed only when on, so that the default config's file stays as it was.
        if self.cross_primitive {
            params.push(("cross_primitive".into(), "true (frag_prim is ignored)".into()));
        }
        if self.candidates > 1 {
            params.push(("candidates".into(), format!("{} (held candidates, contract R19)", self.candidates)));
        }
        if self.merge_ways > 2 {
            params.push(("merge_ways".into(), format!("{} (groups per merge slot, contract R20)", self.merge_ways)));
        }
        if self.perf_counters {
            params.push(("perf_counters".into(), "true".into()));
            params.push(("PSW (perf_sel bits)".into(), self.perf_sel_bits().to_string()));
        }
        params
    }

    /// rust-hdl's Verilog of the core, with `lanes` dispatched to `L`.
    fn core_verilog(&self) -> Result<String, String> {
        if self.merge_ways > 2 {
            return crate::with_lanes!(self.lanes, L => {
                let mut core = ThreadMergeWays::<L>::new(self);
                core.connect_all();
                rust_hdl::core::check_error::check_all(&core).map_err(|e| format!("{e:?}"))?;
                Ok(generate_verilog_unchecked(&core))
            });
        }
        crate::with_lanes!(self.lanes, L => {
            let mut core = ThreadMergeCore::<L>::new(self);
            core.connect_all();
            rust_hdl::core::check_error::check_all(&core).map_err(|e| format!("{e:?}"))?;
            Ok(generate_verilog_unchecked(&core))
        })
    }
}

/// The exact ports of `warpgen_thread_merge` for `cfg` (contract §3), bound to the core's ports.
pub(super) fn wrapper(cfg: &ThreadMergeConfig) -> Wrapper {
    let s = cfg.slots as usize;
    let lanes = cfg.lanes as usize;
    let tag = cfg.tag_width as usize;
    let prim = cfg.prim_width as usize;
    let tgw = cfg.tgid_bits();
    let hi_bits = cfg.lane_bits() - 2;
    let bit = |name: &str, dir: Dir, doc: &str| Port::single(name, dir, 1, 1, doc);
    let word = |name: &str, dir: Dir, w: usize, doc: &str| Port::single(name, dir, w, w, doc);
    let id_in = |name: &str, doc: &str| Port::single(name, Dir::In, tgw, ID_BITS, doc);
    // A vector whose bit i is core port `name_i`.
    let bits = |name: &str, dir: Dir, n: usize, doc: &str| {
        Port::packed(name, dir, doc, (0..n).map(|i| (format!("{name}_{i}"), 1, 1)).collect())
    };
    // A per-group vector: group 2s+m from core port `{core}_{a|b}_{s}`, `w` bits each; with
    // merge_ways > 2 group t = 4s+m from `{core}_g_{t}` (R20).
    let ways = cfg.merge_ways > 2;
    let per_group = |name: &str, core: &str, w: usize, doc: &str| {
        let parts = if ways {
            (0..cfg.groups()).map(|t| (format!("{core}_g_{t}"), w, w)).collect()
        } else {
            (0..s).flat_map(|i| [(format!("{core}_a_{i}"), w, w), (format!("{core}_b_{i}"), w, w)]).collect()
        };
        Port::packed(name, Dir::Out, doc, parts)
    };
    let (a_id, b_id, paired, retire) = if ways {
        ("A's thread-group id (4*slot)", "B's thread-group id (4*slot+1)", "1: a set of two or more groups in one slot; 0: single group A", "the members in rsp_retire_mask were absorbed: drop them")
    } else {
        ("A's thread-group id (2*slot)", "B's thread-group id (2*slot+1)", "1: pair A+B in one slot; 0: single group A", "rsp_retire_tgid was absorbed: drop it")
    };
    let st_slot = Port::packed(
        "st_slot",
        Dir::Out,
        "slot s at [3s +: 3] = {merged, broken, paired}",
        (0..s)
            .flat_map(|i| {
                [(format!("st_paired_{i}"), 1, 1), (format!("st_broken_{i}"), 1, 1), (format!("st_merged_{i}"), 1, 1)]
            })
            .collect(),
    );
    let orig = Port::packed(
        "wb_orig_lane",
        Dir::Out,
        "lane i's original lane at [i*LANE_W +: LANE_W] (comb)",
        (0..lanes)
            .flat_map(|i| {
                std::iter::once((format!("wb_orig_lo_{i}"), 2, 2))
                    .chain((0..hi_bits).map(move |k| (format!("wb_orig_hi_{i}_{k}"), 1, 1)))
            })
            .collect(),
    );
    Wrapper {
        block: "thread_merge".into(),
        groups: vec![
            PortGroup {
                title: "Clock and synchronous active-high reset".into(),
                ports: vec![
                    bit("clock", Dir::In, "rising edge"),
                    bit("reset", Dir::In, "all groups FREE, candidate, grp, rsp, errors, merge_count cleared"),
                ],
            },
            PortGroup {
                title: "Fragments in (one 2x2 quad per 4 lanes)".into(),
                ports: vec![
                    bit("frag_valid", Dir::In, "a fragment is presented"),
                    bit("frag_ready", Dir::Out, "accepted at this edge (comb)"),
                    word("frag_cov", Dir::In, lanes, "coverage: bit i = lane i active"),
                    bits("frag_prim", Dir::In, prim, if cfg.cross_primitive { "primitive id (ignored: cross_primitive)" } else { "primitive id" }),
                    bits("frag_tag", Dir::In, tag, "opaque fragment tag, returned at write-back"),
                    bit("frag_last", Dir::In, "last fragment of its primitive"),
                    bit("flush", Dir::In, "level: the candidate leaves unpaired"),
                ],
            },
            PortGroup {
                title: "Spawn descriptor out (registered, held until grp_ready)".into(),
                ports: vec![
                    bit("grp_valid", Dir::Out, "a descriptor is offered"),
                    bit("grp_ready", Dir::In, "the spawner takes it"),
                    bit("grp_paired", Dir::Out, paired),
                    bits("grp_a_tgid", Dir::Out, tgw, a_id),
                    word("grp_a_cov", Dir::Out, lanes, "A's active mask"),
                    bits("grp_a_tag", Dir::Out, tag, "A's fragment tag"),
                    bits("grp_b_tgid", Dir::Out, tgw, b_id),
                    word("grp_b_cov", Dir::Out, lanes, "B's active mask in physical lanes (after remap)"),
                    word("grp_b_perm", Dir::Out, 2, "B's remap p: lane j runs sample j^p of its quad"),
                    bits("grp_b_tag", Dir::Out, tag, "B's fragment tag"),
                ]
                .into_iter()
                .chain(extra_members(cfg, &|x, m| {
                    let (name, core) = (format!("grp_{m}"), "grp_x");
                    vec![
                        Port::packed(&format!("{name}_valid"), Dir::Out, &format!("the set has member {}", m.to_uppercase()), vec![(format!("{core}_valid_{x}"), 1, 1)]),
                        Port::packed(&format!("{name}_tgid"), Dir::Out, &format!("{}'s thread-group id (4*slot+{})", m.to_uppercase(), x + 2), (0..tgw).map(|k| (format!("{core}_tgid_{x}_{k}"), 1, 1)).collect()),
                        Port::packed(&format!("{name}_cov"), Dir::Out, &format!("{}'s active mask in physical lanes (after remap)", m.to_uppercase()), vec![(format!("{core}_cov_{x}"), lanes, lanes)]),
                        Port::packed(&format!("{name}_perm"), Dir::Out, &format!("{}'s remap p", m.to_uppercase()), vec![(format!("{core}_perm_{x}"), 2, 2)]),
                        Port::packed(&format!("{name}_tag"), Dir::Out, &format!("{}'s fragment tag", m.to_uppercase()), (0..tag).map(|b| (format!("{core}_tag_{x}_{b}"), 1, 1)).collect()),
                    ]
                }))
                .collect(),
            },
            PortGroup {
                title: "Merge event in (a group executed the merge instruction)".into(),
                ports: vec![
                    bit("me_valid", Dir::In, "group me_tgid reached the merge point"),
                    bit("me_ready", Dir::Out, "the response register can load (comb)"),
                    id_in("me_tgid", "its thread-group id"),
                ],
            },
            PortGroup {
                title: "Response out (registered valid/ready)".into(),
                ports: vec![
                    bit("rsp_valid", Dir::Out, "a response is offered"),
                    bit("rsp_ready", Dir::In, "the scheduler takes it"),
                    bits("rsp_tgid", Dir::Out, tgw, "group to resume after the merge instruction"),
                    bit("rsp_merged", Dir::Out, "1: it is now a merged group"),
                    word("rsp_active", Dir::Out, lanes, "its active (and execution) mask from now on"),
                    bit("rsp_retire", Dir::Out, retire),
                    bits("rsp_retire_tgid", Dir::Out, tgw, "rsp_tgid + 1"),
                ]
                .into_iter()
                .chain(ways.then(|| bits("rsp_retire_mask", Dir::Out, cfg.merge_ways as usize - 1, "bit j-1: member j (rsp_tgid + j) was absorbed: drop it")))
                .collect(),
            },
            PortGroup {
                title: "Events in (always accepted)".into(),
                ports: vec![
                    bit("term_valid", Dir::In, "group term_tgid finished"),
                    id_in("term_tgid", "its thread-group id"),
                    bit("disc_valid", Dir::In, "lanes of disc_tgid discarded"),
                    id_in("disc_tgid", "its thread-group id"),
                    word("disc_mask", Dir::In, lanes, "lanes to deactivate"),
                    bit("xl_valid", Dir::In, "group xl_tgid runs a cross-lane operation"),
                    id_in("xl_tgid", "its thread-group id"),
                ],
            },
            PortGroup {
                title: "Register-file lookup (comb, registered state)".into(),
                ports: vec![
                    id_in("rf_tgid", "group issuing an instruction"),
                    word("rf_common_wmask", Dir::Out, lanes, "common-register lane write enable (active)"),
                    word("rf_exec_mask", Dir::Out, lanes, "PRE/WAIT: all lanes; POST: active"),
                    word("rf_perm", Dir::Out, 2, "bit 0: negate d/dx, bit 1: negate d/dy"),
                    bit("rf_post", Dir::Out, "past the merge point"),
                ],
            },
            PortGroup {
                title: "Write-back lookup (comb, registered state)".into(),
                ports: vec![
                    id_in("wb_tgid", "group writing outputs"),
                    word("wb_active", Dir::Out, lanes, "its active mask"),
                    word("wb_lane_src", Dir::Out, lanes, "bit i: lane i belongs to the partner's fragment"),
                    bits("wb_tag_self", Dir::Out, tag, "own fragment tag"),
                    bits("wb_tag_partner", Dir::Out, tag, "partner's fragment tag (merged A)"),
                    Port::packed("wb_perm_self", Dir::Out, "own remap", vec![("wb_perm_own".into(), 2, 2)]),
                    word("wb_perm_partner", Dir::Out, 2, "partner's remap (merged A)"),
                    orig,
                ]
                .into_iter()
                .chain(ways.then(|| Port::packed("wb_lane_mem", Dir::Out, "lane i's source member at [2i +: 2] (merged A; 0: its own)", (0..lanes).map(|i| (format!("wb_lane_mem_{i}"), 2, 2)).collect())))
                .chain(extra_members(cfg, &|x, m| {
                    vec![
                        Port::packed(&format!("wb_tag_{m}"), Dir::Out, &format!("member {}'s fragment tag (merged A)", m.to_uppercase()), (0..tag).map(|b| (format!("wb_tag_x_{x}_{b}"), 1, 1)).collect()),
                        Port::packed(&format!("wb_perm_{m}"), Dir::Out, &format!("member {}'s remap (merged A)", m.to_uppercase()), vec![(format!("wb_perm_x_{x}"), 2, 2)]),
                    ]
                }))
                .collect(),
            },
            PortGroup {
                title: "Status (registered)".into(),
                ports: vec![
                    bits("free_cnt", Dir::Out, cfg.cnt_bits(), "free slots"),
                    bit("pend_valid", Dir::Out, "a candidate is held"),
                    word("merge_count", Dir::Out, 32, "merges performed (wraps)"),
                    bit("err_proto", Dir::Out, "sticky: protocol violation"),
                    bit("err_xlane", Dir::Out, "sticky: cross-lane operation past the merge point"),
                    per_group("st_state", "st_state", 2, "group t at [2t +: 2]: 0 FREE, 1 PRE, 2 WAIT, 3 POST"),
                    per_group("st_active", "st_active", lanes, "group t's active mask at [t*LANES +: LANES]"),
                    st_slot,
                    per_group("st_owe", "st_owe", 1, "bit t: a resume is owed to group t"),
                ],
            },
        ]
        .into_iter()
        .chain(cfg.perf_counters.then(|| crate::perf::port_group(cfg.perf_sel_bits(), Some("err_proto and err_xlane"))))
        .collect(),
    }
}

/// The ports of members C and D (`merge_ways` 3, 4; contract R20): `ports(x, letter)` for
/// x = 0 (C) and, with 4 ways, 1 (D); none for pairs.
fn extra_members(cfg: &ThreadMergeConfig, ports: &dyn Fn(usize, &str) -> Vec<Port>) -> Vec<Port> {
    let n = (cfg.merge_ways as usize).saturating_sub(2);
    ["c", "d"].iter().take(n).enumerate().flat_map(|(x, m)| ports(x, m)).collect()
}
