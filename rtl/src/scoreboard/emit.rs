//! Emission: the exact ports and the header.

use super::*;

impl crate::BlockGen for ScoreboardConfig {
    const NAME: &'static str = "scoreboard";

    fn wrapper(&self) -> Wrapper {
        wrapper(self)
    }

    fn header_params(&self) -> Vec<(String, String)> {
        header_params(self)
    }

    /// rust-hdl's Verilog of the core, with `counter_width` dispatched to `W`.
    fn core_verilog(&self) -> Result<String, String> {
        crate::with_width!(self.counter_width, W => {
            let mut core = ScoreboardCore::<W>::new(self);
            core.connect_all();
            rust_hdl::core::check_error::check_all(&core).map_err(|e| format!("{e:?}"))?;
            Ok(generate_verilog_unchecked(&core))
        })
    }
}

/// The exact ports of `warpgen_scoreboard` for `cfg`, bound to the core's ports.
pub(super) fn wrapper(cfg: &ScoreboardConfig) -> Wrapper {
    let tg = cfg.thread_groups as usize;
    let trk = cfg.trackers as usize;
    let ports = cfg.completion_ports as usize;
    let cw = cfg.counter_width as usize;
    let (tgw, tkw) = (cfg.tg_bits(), cfg.trk_bits());
    let id_in = |name: &str, w: usize, doc: &str| Port::single(name, Dir::In, w, ID_BITS, doc);
    let bit = |name: &str, dir: Dir, doc: &str| Port::single(name, dir, 1, 1, doc);
    // A vector port whose bit i is core port `name_i`.
    let vec_of = |name: &str, dir: Dir, n: usize, w: usize, cw: usize, doc: &str| {
        Port::packed(name, dir, doc, (0..n).map(|i| (format!("{name}_{i}"), w, cw)).collect())
    };
    let mask_in = |name: &str, doc: &str| vec_of(name, Dir::In, trk, 1, 1, doc);
    // Per (group, tracker) outputs, bit/field g*trackers+t is core port `core_g_t`.
    let per_counter = |name: &str, core: &str, w: usize, doc: &str| {
        let parts = (0..tg)
            .flat_map(|g| (0..trk).map(move |t| (format!("{core}_{g}_{t}"), w, w)))
            .collect();
        Port::packed(name, Dir::Out, doc, parts)
    };
    Wrapper {
        block: "scoreboard".into(),
        groups: vec![
            PortGroup {
                title: "Clock and synchronous active-high reset".into(),
                ports: vec![bit("clock", Dir::In, "rising edge"), bit("reset", Dir::In, "clears all counters, wait masks, err_underflow")],
            },
            PortGroup {
                title: "Thread-group (re)launch".into(),
                ports: vec![
                    bit("clr_valid", Dir::In, "zero the counters and wait mask of clr_tg"),
                    id_in("clr_tg", tgw, "thread group to clear"),
                ],
            },
            PortGroup {
                title: "Issue: one thread-group instruction per cycle (spec 6.3)".into(),
                ports: vec![
                    bit("iss_valid", Dir::In, "an instruction is presented"),
                    id_in("iss_tg", tgw, "its thread group"),
                    mask_in("iss_dep_mask", "trackers it depends on (Fig. 4 style)"),
                    bit("iss_trk_en", Dir::In, "it is reorderable: count it on iss_trk"),
                    id_in("iss_trk", tkw, "its tracker"),
                    mask_in("iss_nxt_mask", "trackers the next instruction depends on (Fig. 5)"),
                ]
                .into_iter()
                .chain(gate_ports(cfg))
                .chain([
                    bit("iss_ready", Dir::Out, "fetch_ok, deps zero, tracker below max"),
                    bit("iss_fire", Dir::Out, "iss_valid & iss_ready"),
                    vec_of("fetch_ok", Dir::Out, tg, 1, 1, "bit g: group g may fetch its next instruction"),
                ])
                .collect(),
            },
            PortGroup {
                title: "Completions, one per port per cycle".into(),
                ports: vec![
                    vec_of("cpl_valid", Dir::In, ports, 1, 1, "bit p: port p completes an instruction"),
                    vec_of("cpl_tg", Dir::In, ports, tgw, ID_BITS, "port p's thread group at [p*TGW +: TGW]"),
                    vec_of("cpl_trk", Dir::In, ports, tkw, ID_BITS, "port p's tracker at [p*TKW +: TKW]"),
                ],
            },
            PortGroup {
                title: "Queries: fences and the scoreboard branch".into(),
                ports: vec![
                    id_in("chk_tg", tgw, "group of the generic query"),
                    mask_in("chk_mask", "set to test"),
                    bit("chk_ok", Dir::Out, "every tracker of chk_mask is zero"),
                    id_in("br_tg", tgw, "group of the scoreboard branch"),
                ]
                .into_iter()
                .chain(branch_ports(cfg, &mask_in, &bit))
                .collect(),
            },
            PortGroup {
                title: "State views".into(),
                ports: vec![
                    per_counter("trk_zero", "trk_zero", 1, "bit g*TRK+t: cnt[g][t] == 0"),
                    per_counter("trk_full", "trk_full", 1, "bit g*TRK+t: cnt[g][t] >= max_count[t]"),
                    vec_of("tg_idle", Dir::Out, tg, 1, 1, "bit g: every tracker of g is zero"),
                    per_counter("cnt_flat", "cnt", cw, "cnt[g][t] at [(g*TRK+t)*CNT_W +: CNT_W]"),
                    bit("err_underflow", Dir::Out, "sticky: a completion found no outstanding instruction"),
                ],
            },
        ]
        .into_iter()
        .chain(cfg.perf_counters.then(|| crate::perf::port_group(cfg.perf_sel_bits(), Some("err_underflow"))))
        .collect(),
    }
}

/// The scoreboard branch's ports after `br_tg`: at `branch_sets` 2 (the default) sets A and B
/// and `br_sel_b`; at 3 or 4 also sets C (and D), and `br_sel[1:0]` in place of `br_sel_b`.
fn branch_ports(
    cfg: &ScoreboardConfig,
    mask_in: &dyn Fn(&str, &str) -> Port,
    bit: &dyn Fn(&str, Dir, &str) -> Port,
) -> Vec<Port> {
    let extra = cfg.extra_branch_sets();
    if extra == 0 {
        return vec![
            mask_in("br_mask_a", "set A: branch taken"),
            mask_in("br_mask_b", "set B: fall through"),
            bit("br_sat_a", Dir::Out, "set A satisfied"),
            bit("br_sat_b", Dir::Out, "set B satisfied"),
            bit("br_go", Dir::Out, "either set satisfied; 0 = branch stalls"),
            bit("br_sel_b", Dir::Out, "B satisfied and A not (A has priority)"),
        ];
    }
    let names = ["c", "d"];
    let mut v = vec![mask_in("br_mask_a", "set A (index 0)"), mask_in("br_mask_b", "set B (index 1)")];
    for (s, n) in names.iter().enumerate().take(extra) {
        let trk = cfg.trackers as usize;
        let parts = (0..trk).map(|t| (format!("br_mask_x_{s}_{t}"), 1, 1)).collect();
        v.push(Port::packed(&format!("br_mask_{n}"), Dir::In, &format!("set {} (index {})", n.to_uppercase(), s + 2), parts));
    }
    v.push(bit("br_sat_a", Dir::Out, "set A satisfied"));
    v.push(bit("br_sat_b", Dir::Out, "set B satisfied"));
    for (s, n) in names.iter().enumerate().take(extra) {
        let parts = vec![(format!("br_sat_x_{s}"), 1, 1)];
        v.push(Port::packed(&format!("br_sat_{n}"), Dir::Out, &format!("set {} satisfied", n.to_uppercase()), parts));
    }
    v.push(bit("br_go", Dir::Out, "some set satisfied; 0 = branch stalls"));
    v.push(Port::packed(
        "br_sel",
        Dir::Out,
        "index of the first satisfied set in the order A, B, C, D (0 when none)",
        vec![("br_sel_b".into(), 1, 1), ("br_sel_hi_0".into(), 1, 1)],
    ));
    v
}

/// SB6 (`branch_fetch_gate`): `iss_nxt_br` and the next instruction's branch sets B (, C, D)
/// after `iss_nxt_mask` (set A); none without the key.
fn gate_ports(cfg: &ScoreboardConfig) -> Vec<Port> {
    if cfg.gate_sets() == 0 {
        return vec![];
    }
    let trk = cfg.trackers as usize;
    let br = vec![("iss_nxt_br_0".to_string(), 1, 1)];
    let mut v = vec![Port::packed("iss_nxt_br", Dir::In, "the next instruction is a scoreboard branch: fetch it when any of its sets has drained", br)];
    for (s, n) in ["b", "c", "d"].iter().enumerate().take(cfg.gate_sets()) {
        let parts = (0..trk).map(|t| (format!("iss_nxt_mask_x_{s}_{t}"), 1, 1)).collect();
        let doc = format!("set {} of the next instruction's branch (with iss_nxt_br)", n.to_uppercase());
        v.push(Port::packed(&format!("iss_nxt_mask_{n}"), Dir::In, &doc, parts));
    }
    v
}

/// Parameter lines of the file header: every config value, resolved.
pub(super) fn header_params(cfg: &ScoreboardConfig) -> Vec<(String, String)> {
    let maxes: Vec<String> = cfg.max_counts().iter().map(|m| m.to_string()).collect();
    let mut v = vec![
        ("thread_groups".into(), cfg.thread_groups.to_string()),
        ("trackers".into(), cfg.trackers.to_string()),
        ("counter_width".into(), cfg.counter_width.to_string()),
        ("completion_ports".into(), cfg.completion_ports.to_string()),
        ("max_count".into(), format!("[{}]", maxes.join(", "))),
        ("TGW (thread-group id bits)".into(), cfg.tg_bits().to_string()),
        ("TKW (tracker id bits)".into(), cfg.trk_bits().to_string()),
    ];
    // (Listed only above its default, so that the default config's file stays as it was.)
    if cfg.branch_sets != 2 {
        v.insert(4, ("branch_sets".into(), cfg.branch_sets.to_string()));
    }
    if !cfg.implicit_fence.is_empty() {
        let list: Vec<String> = cfg.implicit_fence.iter().map(|t| t.to_string()).collect();
        v.push(("implicit_fence".into(), format!("[{}]", list.join(", "))));
    }
    if cfg.branch_fetch_gate {
        v.push(("branch_fetch_gate".into(), "true".into()));
    }
    if cfg.perf_counters {
        v.push(("perf_counters".into(), "true".into()));
        v.push(("PSW (perf_sel bits)".into(), cfg.perf_sel_bits().to_string()));
    }
    v
}
