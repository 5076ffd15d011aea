//! Emission: the exact ports and the header.

use super::*;

impl crate::BlockGen for BranchStackConfig {
    const NAME: &'static str = "branch_stack";

    fn wrapper(&self) -> Wrapper {
        wrapper(self)
    }

    fn header_params(&self) -> Vec<(String, String)> {
        let mut v = vec![
            ("depth".into(), self.depth.to_string()),
            ("producer_stages".into(), self.producer_stages.to_string()),
            ("pc_width".into(), self.pc_width.to_string()),
            ("offset_width".into(), self.offset_width.to_string()),
            ("pc_increment".into(), self.pc_increment.to_string()),
            ("reset_pc".into(), format!("0x{:x}", self.reset_pc)),
            ("CNT_W (cc_cnt bits)".into(), self.cnt_bits().to_string()),
        ];
        // The options appear only when set, so the default header is unchanged.
        if self.cnvz() {
            v.push(("compound_flags".into(), self.compound_flags.clone()));
        }
        if self.stall() {
            v.push(("producer_conflict".into(), self.producer_conflict.clone()));
        }
        if self.perf_counters {
            v.push(("perf_counters".into(), "true".into()));
            v.push(("PSW (perf_sel bits)".into(), self.perf_sel_bits().to_string()));
        }
        if self.thread_groups > 1 {
            v.push(("thread_groups".into(), self.thread_groups.to_string()));
            v.push(("TG_W (group id bits)".into(), self.tg_bits().to_string()));
        }
        v
    }

    /// rust-hdl's Verilog of the core, with `pc_width` dispatched to `P`.
    fn core_verilog(&self) -> Result<String, String> {
        crate::with_width64!(self.pc_width, P => {
            let mut core = BranchStackCore::<P>::new(self);
            core.connect_all();
            rust_hdl::core::check_error::check_all(&core).map_err(|e| format!("{e:?}"))?;
            Ok(generate_verilog_unchecked(&core))
        })
    }
}

/// The exact ports of `warpgen_branch_stack` for `cfg`, bound to the core's ports.
pub(super) fn wrapper(cfg: &BranchStackConfig) -> Wrapper {
    let nsrc = cfg.producer_stages as usize;
    let pcw = cfg.pc_width as usize;
    let bit = |name: &str, dir: Dir, doc: &str| Port::single(name, dir, 1, 1, doc);
    let word = |name: &str, dir: Dir, w: usize, doc: &str| Port::single(name, dir, w, w, doc);
    // Producer i's field at [i*w +: w] is core port `name_i`.
    let per_src = |name: &str, w: usize, doc: &str| {
        Port::packed(name, Dir::In, doc, (0..nsrc).map(|i| (format!("{name}_{i}"), w, w)).collect())
    };
    // compound_flags = "cnvz": de_br_f / de_br_g are {core *_hi_0, core bit}, 2 bits.
    let flag = |name: &str, doc_nz: &str, doc_cnvz: &str| {
        if cfg.cnvz() {
            Port::packed(name, Dir::In, doc_cnvz, vec![(name.to_string(), 1, 1), (format!("{name}_hi_0"), 1, 1)])
        } else {
            bit(name, Dir::In, doc_nz)
        }
    };
    let cnt = Port::packed(
        "cc_cnt",
        Dir::Out,
        "number of valid entries (pointer 215)",
        (0..cfg.cnt_bits()).map(|i| (format!("cc_cnt_{i}"), 1, 1)).collect(),
    );
    Wrapper {
        block: "branch_stack".into(),
        groups: vec![
            PortGroup {
                title: "Clock and synchronous active-high reset".into(),
                ports: vec![
                    bit("clock", Dir::In, "rising edge"),
                    bit("reset", Dir::In, "empties the stack, pc = reset_pc, clears branch_t0_q, t0pc_q, err_*"),
                ],
            },
            PortGroup {
                title: "CC producers: stage i = EX<i>, a higher index is older (one pulse per instruction)".into(),
                ports: vec![
                    per_src("cc_vld", 1, "bit i: stage i holds a CC-producing instruction"),
                    per_src("cc_sop", 2, "stage i's stack op at [2i +: 2]: 00 DN, 01 PO, 10 PU, 11 PP"),
                    per_src("cc_val", 4, "stage i's CC value at [4i +: 4]: C N V Z"),
                ]
                .into_iter()
                .chain(cfg.stall().then(|| {
                    Port::packed(
                        "cc_ready",
                        Dir::Out,
                        "bit i: stage i's op is applied this cycle; 0: hold it (comb)",
                        (0..nsrc).map(|i| (format!("cc_ready_{i}"), 1, 1)).collect(),
                    )
                }))
                .collect(),
            },
            PortGroup {
                title: "Branch in DE (never while pc_hold)".into(),
                ports: vec![
                    bit("de_br_vld", Dir::In, "a branch is decoded this cycle"),
                    bit("de_br_cmp", Dir::In, "0: simple (pops 1), 1: compound CBfg.op (pops 2)"),
                    word("de_br_sel", Dir::In, 2, "simple: CC bit index (3 C, 2 N, 1 V, 0 Z)"),
                    bit("de_br_pol", Dir::In, "simple: taken when cc_r[sel] == pol"),
                    flag("de_br_f", "compound: bit of R (0 N, 1 Z)", "compound: flag of R (3 C, 2 N, 1 V, 0 Z)"),
                    flag("de_br_g", "compound: bit of S (0 N, 1 Z)", "compound: flag of S (3 C, 2 N, 1 V, 0 Z)"),
                    word("de_br_op", Dir::In, 2, "compound: 00 AND, 01 OR, 10 XOR, 11 XNOR"),
                    word("de_pc", Dir::In, pcw, "address of the branch instruction"),
                    Port::single("de_off", Dir::In, cfg.offset_width as usize, pcw, "signed offset (Claim 9 increment)"),
                    bit("br_taken", Dir::Out, "decision (de_br_vld & condition), combinational"),
                    word("br_target", Dir::Out, pcw, "de_pc + sext(de_off), combinational"),
                ],
            },
            PortGroup {
                title: "Stack observation (R, S of Table 2)".into(),
                ports: vec![
                    word("cc_r", Dir::Out, 4, "top entry, 0 when empty"),
                    bit("cc_r_vld", Dir::Out, "cc_cnt > 0"),
                    word("cc_s", Dir::Out, 4, "second entry, 0 when absent"),
                    bit("cc_s_vld", Dir::Out, "cc_cnt > 1"),
                    cnt,
                ],
            },
            PortGroup {
                title: "Execution-stage branch (BRANCH_T1 / T1PC)".into(),
                ports: vec![
                    bit("ex_branch_t1", Dir::In, "redirect to ex_t1pc (priority over T0)"),
                    word("ex_t1pc", Dir::In, pcw, "execution-stage target"),
                ],
            },
            PortGroup {
                title: "Data flow controller (Fig. 13)".into(),
                ports: vec![
                    bit("pc_hold", Dir::In, "stall: freeze pc, branch_t0_q, t0pc_q"),
                    word("pc", Dir::Out, pcw, "PC register 1304 (fetch address)"),
                    word("npc", Dir::Out, pcw, "pc + pc_increment (adder 1306)"),
                    bit("branch_t0_q", Dir::Out, "BRANCH_T0: last cycle's br_taken"),
                    word("t0pc_q", Dir::Out, pcw, "T0PC: last cycle's br_target"),
                ],
            },
            PortGroup {
                title: "Sticky errors".into(),
                ports: vec![
                    bit("err_clr", Dir::In, "clear the flags (a same-cycle set wins)"),
                    bit("err_ovf", Dir::Out, "a push found the stack full: bottom entry dropped"),
                    bit("err_udf", Dir::Out, "more pops than entries"),
                    if cfg.stall() {
                        bit("err_port", Dir::Out, "always 0 (producer_conflict = stall: the producer is held)")
                    } else {
                        bit("err_port", Dir::Out, "compound branch + producer pop: producer op suppressed")
                    },
                    if cfg.stall() {
                        bit("err_multi", Dir::Out, "always 0 (producer_conflict = stall: the younger are held)")
                    } else {
                        bit("err_multi", Dir::Out, "more than one producer active: the oldest won")
                    },
                ],
            },
        ]
        .into_iter()
        .chain((cfg.thread_groups > 1).then(|| groups(cfg)))
        .chain(cfg.perf_counters.then(|| crate::perf::port_group(cfg.perf_sel_bits(), None)))
        .collect(),
    }
}

/// `thread_groups` > 1: the ports of rules G1–G7 (docs/blocks/branch_stack.md). A group id is
/// TG_W bits, zero-extended into the core's [`TG_CORE_BITS`]; each single port is element 0
/// of a core vector (`de_tg_0`), each packed one is one core port per stage, entry or bit.
fn groups(cfg: &BranchStackConfig) -> PortGroup {
    let nsrc = cfg.producer_stages as usize;
    let depth = cfg.depth as usize;
    let pcw = cfg.pc_width as usize;
    let (tgw, cntw) = (cfg.tg_bits(), cfg.cnt_bits());
    let one = |name: &str, dir: Dir, w: usize, core_w: usize, doc: &str| {
        Port::packed(name, dir, doc, vec![(format!("{name}_0"), w, core_w)])
    };
    let each = |name: &str, dir: Dir, n: usize, w: usize, core_w: usize, doc: &str| {
        Port::packed(name, dir, doc, (0..n).map(|i| (format!("{name}_{i}"), w, core_w)).collect())
    };
    PortGroup {
        title: "Thread groups (rules G1-G7): one stack and one PC per group".into(),
        ports: vec![
            each("cc_tg", Dir::In, nsrc, tgw, TG_CORE_BITS, "stage i's thread group at [TG_W*i +: TG_W]"),
            one("de_tg", Dir::In, tgw, TG_CORE_BITS, "the branch's group; cc_r .. cc_cnt show this group (comb)"),
            one("ex_tg", Dir::In, tgw, TG_CORE_BITS, "the group of ex_branch_t1"),
            one("fe_tg", Dir::In, tgw, TG_CORE_BITS, "the fetched group: pc, npc are its (comb); its PC advances"),
            each("t0_tg_q", Dir::Out, tgw, 1, 1, "the group of branch_t0_q / t0pc_q"),
            one("sv_tg", Dir::In, tgw, TG_CORE_BITS, "save: the group read on sv_* (comb)"),
            each("sv_cnt", Dir::Out, cntw, 1, 1, "save: the group's count"),
            each("sv_stack", Dir::Out, depth, 4, 4, "save: entry i at [4i +: 4], entry 0 the top; 0 at i >= sv_cnt"),
            one("sv_pc", Dir::Out, pcw, pcw, "save: the group's PC"),
            one("rs_valid", Dir::In, 1, 1, "restore group rs_tg at this edge (wins over its ops, PC update, pc_hold)"),
            one("rs_tg", Dir::In, tgw, TG_CORE_BITS, "restore: the group"),
            one("rs_cnt", Dir::In, cntw, CNT_CORE_BITS, "restore: the count (min(rs_cnt, depth) entries load)"),
            each("rs_stack", Dir::In, depth, 4, 4, "restore: entry i at [4i +: 4], entry 0 the top"),
            one("rs_pc", Dir::In, pcw, pcw, "restore: the PC"),
        ],
    }
}
