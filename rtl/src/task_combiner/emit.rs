//! Emission: the exact ports, the header, the flip-flop count and the core's Verilog.

use super::*;

impl crate::BlockGen for TaskCombinerConfig {
    const NAME: &'static str = "task_combiner";

    fn wrapper(&self) -> Wrapper {
        wrapper(self)
    }

    fn header_params(&self) -> Vec<(String, String)> {
        let list = |v: Vec<String>| format!("[{}]", v.join(", "));
        let deps = self.depends_rows().iter().map(|r| list(r.iter().map(|t| t.to_string()).collect())).collect();
        let mut v = vec![
            ("entries".into(), self.entries.to_string()),
            ("width".into(), self.width.to_string()),
            ("tile_pipes".into(), self.tile_pipes.to_string()),
            ("shader_types".into(), self.shader_types.to_string()),
            ("state_width".into(), self.state_width.to_string()),
            ("ref_width".into(), self.ref_width.to_string()),
            ("tag_gen_width".into(), self.tag_gen_width.to_string()),
            ("policy".into(), self.policy().name().to_string()),
            ("sort_state".into(), self.sort_state.to_string()),
            ("registered_issue".into(), self.registered_issue.to_string()),
            ("capacity".into(), list(self.capacities().iter().map(|c| c.to_string()).collect())),
            ("depends".into(), list(deps)),
            ("ENT_W (entry index bits)".into(), self.ent_bits().to_string()),
            ("TAG_W (tag bits)".into(), self.tag_bits().to_string()),
            ("CNT_W (count bits)".into(), self.cnt_bits().to_string()),
            ("LANE_W (lane bits)".into(), self.lane_bits().to_string()),
            ("TP_W (tile-pipe id bits)".into(), self.tp_bits().to_string()),
            ("STYPE_W (shader-type bits)".into(), self.stype_bits().to_string()),
        ];
        // (Listed only off its default, so that the default config's file stays as it was.)
        if self.issue_fullest() {
            v.insert(9, ("issue_order".into(), self.issue_order.clone()));
        }
        if self.registered_input {
            v.push(("registered_input".into(), "true (the instance enters through an input register, contract R2i)".into()));
        }
        if self.hold_producers > 0 {
            v.push(("hold_producers".into(), format!("{} (full consumers a producer may wait for, contract R5h)", self.hold_producers)));
        }
        if self.dep_tags > 0 {
            v.push(("dep_tags".into(), format!("{} (producer tags per instance, contract D3t)", self.dep_tags)));
        }
        if self.perf_counters {
            v.push(("perf_counters".into(), "true".into()));
            v.push(("PSW (perf_sel bits)".into(), self.perf_sel_bits().to_string()));
        }
        v
    }

    fn core_verilog(&self) -> Result<String, String> {
        let mut core = TaskCombinerCore::new(self);
        core.connect_all();
        rust_hdl::core::check_error::check_all(&core).map_err(|e| format!("{e:?}"))?;
        Ok(generate_verilog_unchecked(&core))
    }
}

/// Flip-flops of the block for `cfg` (the storage list in the module doc), with 32 per
/// performance counter, `err_dep` with `dep_tags` and the input register with
/// `registered_input`; the reference memories are not counted.
pub fn flip_flops(cfg: &TaskCombinerConfig) -> usize {
    let n = cfg.entries as usize;
    let (stw, gw, t) = (cfg.state_width as usize, cfg.tag_gen_width as usize, cfg.tile_pipes as usize);
    let fields = cfg.stype_bits() + stw + cfg.cnt_bits() + gw + t;
    let per_entry = 6 + fields + 2 * (n - 1);
    let slot = 2 + 3 + cfg.ent_bits() + fields;
    let globals = 1 + 3 + cfg.tp_bits() + 64;
    // R2i: the input register (valid, type, state, reference, tile pipe, producer tags) and
    // one key-equal bit per entry.
    let k = cfg.dep_tag_count();
    let ir = 1 + cfg.stype_bits() + stw + cfg.ref_width as usize + cfg.tp_bits() + k * (1 + cfg.ent_bits() + gw) + n;
    n * per_entry + slot + globals + usize::from(cfg.dep_tags > 0) + 32 * cfg.perf_count()
        + usize::from(cfg.registered_input) * ir
}

/// The exact ports of `warpgen_task_combiner` for `cfg`, bound to the core's ports.
pub(super) fn wrapper(cfg: &TaskCombinerConfig) -> Wrapper {
    let n = cfg.entries as usize;
    let w = cfg.width as usize;
    let t = cfg.tile_pipes as usize;
    let stw = cfg.state_width as usize;
    let rw = cfg.ref_width as usize;
    let gw = cfg.tag_gen_width as usize;
    let (ew, cw, lw, tpw, sw) = (cfg.ent_bits(), cfg.cnt_bits(), cfg.lane_bits(), cfg.tp_bits(), cfg.stype_bits());
    let bit = |name: &str, dir: Dir, doc: &str| Port::single(name, dir, 1, 1, doc);
    let padded_in = |name: &str, width: usize, core: usize, doc: &str| Port::single(name, Dir::In, width, core, doc);
    // Bits of core vector `core` (core ports `core_b`), LSB first.
    let bits = |core: &str, n: usize| -> Vec<(String, usize, usize)> { (0..n).map(|b| (format!("{core}_{b}"), 1, 1)).collect() };
    let vector = |name: &str, dir: Dir, n: usize, doc: &str| Port::packed(name, dir, doc, bits(name, n));
    // Per-entry (or per-lane) fields: element e's bit b is core port `core_e_b`.
    let per = |name: &str, rows: usize, cols: usize, doc: &str| {
        let parts = (0..rows).flat_map(|e| (0..cols).map(move |b| (format!("{name}_{e}_{b}"), 1, 1))).collect();
        Port::packed(name, Dir::Out, doc, parts)
    };
    let tag = |name: &str, doc: &str| {
        let mut parts = bits(&format!("{name}_ent"), ew);
        parts.extend(bits(&format!("{name}_gen"), gw));
        Port::packed(name, Dir::Out, doc, parts)
    };
    let st_tag = {
        let parts = (0..n)
            .flat_map(|e| {
                let ent = (0..ew).map(move |b| (format!("st_tag_ent_{e}_{b}"), 1, 1));
                let gen = (0..gw).map(move |b| (format!("st_tag_gen_{e}_{b}"), 1, 1));
                ent.chain(gen)
            })
            .collect();
        Port::packed("st_tag", Dir::Out, "entry e's tag {gen, e} at [e*TAG_W +: TAG_W]", parts)
    };
    Wrapper {
        block: "task_combiner".into(),
        groups: vec![
            PortGroup {
                title: "Clock and synchronous active-high reset".into(),
                ports: vec![
                    bit("clock", Dir::In, "rising edge"),
                    bit("reset", Dir::In, "frees every entry, empties the slot, gens/counters/flush state to 0"),
                ],
            },
            PortGroup {
                title: "Computation instance (append to the open task of its key, or open a task)".into(),
                ports: vec![
                    bit("in_valid", Dir::In, "an instance is presented (held until accepted)"),
                    padded_in("in_stype", sw, STYPE_BITS, "shader type (0 VS, 1 HS, 2 DS, 3 GS, ...)"),
                    padded_in("in_state", stw, STATE_BITS, "state id"),
                    Port::packed("in_ref", Dir::In, "instance reference, stored in its lane", bits("in_ref", rw)),
                    padded_in("in_tpipe", tpw, TP_BITS, "requesting tile pipeline (lock-mask bit)"),
                ]
                .into_iter()
                .chain(dep_ports(cfg))
                .chain(if cfg.registered_input {
                    // R2i: the input register.
                    vec![
                        bit("in_ready", Dir::Out, "combinational from registers and drain_req: !drain_req && (input register empty || its instance enters); not from in_valid (R2i)"),
                        Port::packed("in_tag_valid", Dir::Out, "the instance in the input register enters the table this cycle: in_tag and in_lane are its (R2i)", vec![("in_tag_valid_0".into(), 1, 1)]),
                        tag("in_tag", "tag {gen, entry} of the task the registered instance enters, with in_tag_valid"),
                        vector("in_lane", Dir::Out, lw, "its lane in that task, with in_tag_valid"),
                    ]
                } else {
                    vec![
                        bit("in_ready", Dir::Out, "combinational: !drain_req && (open match || free entry); not from in_valid"),
                        tag("in_tag", "combinational: tag {gen, entry} of the receiving task"),
                        vector("in_lane", Dir::Out, lw, "combinational: lane of the instance in that task"),
                    ]
                })
                .collect(),
            },
            PortGroup {
                title: "Lock of a scheduled task (always accepted)".into(),
                ports: vec![
                    bit("lk_valid", Dir::In, "lock request"),
                    Port::packed(
                        "lk_tag",
                        Dir::In,
                        "tag {gen, entry} of the task",
                        vec![("lk_ent".into(), ew, ENT_BITS), ("lk_gen".into(), gw, GEN_BITS)],
                    ),
                    padded_in("lk_tpipe", tpw, TP_BITS, "tile pipeline whose lock bit to set"),
                    bit("lk_hit", Dir::Out, "registered: last cycle's lock found a resident or slot task"),
                ],
            },
            PortGroup {
                title: "Render-queue flush (one at a time)".into(),
                ports: vec![
                    bit("rqf_valid", Dir::In, "flush the tasks locked for rqf_tpipe"),
                    padded_in("rqf_tpipe", tpw, TP_BITS, "tile pipeline"),
                    bit("rqf_ready", Dir::Out, "no flush in progress"),
                    bit("rqf_done", Dir::Out, "one-cycle pulse: every snapshot task has left the slot"),
                    vector("rqf_done_tpipe", Dir::Out, tpw, "tile pipeline of the last accepted flush"),
                ],
            },
            PortGroup {
                title: "Drain (end of render)".into(),
                ports: vec![
                    bit("drain_req", Dir::In, "level: close every open task, accept nothing"),
                    bit("drain_done", Dir::Out, if cfg.registered_input {
                        "combinational: drain_req && table empty && slot empty && input register empty"
                    } else {
                        "combinational: drain_req && table empty && slot empty"
                    }),
                ],
            },
            PortGroup {
                title: "Task output to the SIMD logic (one slot, valid/ready)".into(),
                ports: vec![
                    bit("out_valid", Dir::Out, "the slot holds a task"),
                    bit("out_ready", Dir::In, "the SIMD logic takes it at this edge"),
                    tag("out_tag", "tag {gen, entry} the task had in the table"),
                    vector("out_stype", Dir::Out, sw, "shader type"),
                    vector("out_state", Dir::Out, stw, "state id"),
                    vector("out_count", Dir::Out, cw, "instances (lanes 0 to out_count-1)"),
                    vector("out_lane_mask", Dir::Out, w, "(1 << out_count) - 1"),
                    per("out_refs", w, rw, "lane i's reference at [i*REF_W +: REF_W]; stale beyond out_count"),
                    vector("out_lockmask", Dir::Out, t, "tile pipelines locked on the task, slot locks included"),
                    Port::single("out_reason", Dir::Out, 3, 3, "1 FULL, 2 EVICT, 3 DEP, 4 RQFLUSH, 5 DRAIN"),
                ],
            },
            PortGroup {
                title: "Observability: entry e at bit e / [e*W +: W]".into(),
                ports: vec![
                    vector("st_valid", Dir::Out, n, "resident (open or pending)"),
                    vector("st_open", Dir::Out, n, "accepting instances"),
                    vector("st_pending", Dir::Out, n, "closed, waiting for the slot"),
                    per("st_count", n, cw, "instances"),
                    per("st_stype", n, sw, "shader type"),
                    per("st_state", n, stw, "state id"),
                    per("st_lockmask", n, t, "lock mask"),
                    per("st_dep", n, n, "bit i*N+j: entry i depends on entry j"),
                    st_tag,
                    Port::single("perf_tasks", Dir::Out, 32, 32, "tasks handed to SIMD (mod 2^32)"),
                    Port::single("perf_lanes", Dir::Out, 32, 32, "sum of their out_count (mod 2^32)"),
                ],
            },
        ]
        .into_iter()
        .chain((cfg.dep_tag_count() > 0).then(|| PortGroup {
            title: "Dependency error (dep_tags, contract D3t)".into(),
            ports: vec![
                Port::packed("err_dep", Dir::Out, "sticky: an accepted instance named a resident producer outside depends or its state", vec![("err_dep_0".into(), 1, 1)]),
                Port::packed("err_clr", Dir::In, "err_dep clear at this edge (an error of this edge wins)", vec![("err_clr_0".into(), 1, 1)]),
            ],
        }))
        .chain(cfg.perf_counters.then(|| crate::perf::port_group(cfg.perf_sel_bits(), None)))
        .collect(),
    }
}

/// D3t's instance ports: `in_dep_vld[K]` and `in_dep_tag[K*TAG_W]`, tag k {gen, entry} at
/// [k*TAG_W +: TAG_W], into the core's `dt_vld_k`, `dt_ent_k`, `dt_gen_k` (zero-extended);
/// none without `dep_tags`.
fn dep_ports(cfg: &TaskCombinerConfig) -> Vec<Port> {
    let k = cfg.dep_tag_count();
    if k == 0 {
        return Vec::new();
    }
    let (ew, gw) = (cfg.ent_bits(), cfg.tag_gen_width as usize);
    let vld = (0..k).map(|i| (format!("dt_vld_{i}"), 1, 1)).collect();
    let tags = (0..k)
        .flat_map(|i| [(format!("dt_ent_{i}"), ew, ENT_BITS), (format!("dt_gen_{i}"), gw, GEN_BITS)])
        .collect();
    vec![
        Port::packed("in_dep_vld", Dir::In, "producer tag k is given (D3t)", vld),
        Port::packed("in_dep_tag", Dir::In, "producer tag k {gen, entry} at [k*TAG_W +: TAG_W]", tags),
    ]
}
