//! The Verilated `warpgen_branch_stack` behind the [`Dut`] interface.

use super::BranchStack;
use super::{Dut, BranchStackInputs, BranchStackOutputs, BranchStackParams};
use warpgen_rtl::config::BranchStackConfig;
use warpgen_rtl::Config;
use crate::harness::pack;
use warpgen_sim::{PortId, Sim};

/// The rtl config that builds the block for model parameters `p`.
/// (TOML integers are 64-bit signed, so `reset_pc` must be below 2^63.)
pub fn config_for(p: &BranchStackParams) -> Config {
    let reset_pc = i64::try_from(p.reset_pc).expect("reset_pc below 2^63: TOML integers are i64");
    Config {
        branch_stack: Some(BranchStackConfig {
            depth: p.depth as i64,
            producer_stages: p.nsrc as i64,
            pc_width: p.pc_w as i64,
            offset_width: p.off_w as i64,
            pc_increment: p.pc_inc as i64,
            reset_pc,
            compound_flags: if p.cnvz { "cnvz" } else { "nz" }.into(),
            producer_conflict: if p.stall { "stall" } else { "drop" }.into(),
            perf_counters: p.perf_counters,
            thread_groups: p.tgs as i64,
        }),
        ..Config::default()
    }
}

/// The model parameters of an rtl config's `[branch_stack]`: the one conversion from a config.
impl From<&BranchStackConfig> for BranchStackParams {
    fn from(c: &BranchStackConfig) -> Self {
        BranchStackParams {
            depth: c.depth as usize,
            nsrc: c.producer_stages as usize,
            pc_w: c.pc_width as u32,
            off_w: c.offset_width as u32,
            pc_inc: c.pc_increment as u64,
            reset_pc: c.reset_pc as u64,
            cnvz: c.cnvz(),
            stall: c.stall(),
            perf_counters: c.perf_counters,
            tgs: c.thread_groups as usize,
        }
    }
}

/// Inputs in the order `eval` drives them.
const INPUTS: [&str; 17] = [
    "reset", "cc_vld", "cc_sop", "cc_val", "de_br_vld", "de_br_cmp", "de_br_sel", "de_br_pol", "de_br_f",
    "de_br_g", "de_br_op", "de_pc", "de_off", "ex_branch_t1", "ex_t1pc", "pc_hold", "err_clr",
];

/// Outputs in the order `eval` reads them.
const OUTPUTS: [&str; 15] = [
    "br_taken", "br_target", "cc_r", "cc_r_vld", "cc_s", "cc_s_vld", "cc_cnt", "pc", "npc", "branch_t0_q",
    "t0pc_q", "err_ovf", "err_udf", "err_port", "err_multi",
];

/// With `perf_counters`: inputs perf_sel, perf_clr, then output perf_val.
const PERF_PORTS: [&str; 3] = ["perf_sel", "perf_clr", "perf_val"];

/// With `thread_groups` > 1 (G1–G7): the inputs cc_tg, de_tg, ex_tg, fe_tg, sv_tg,
/// rs_valid, rs_tg, rs_cnt, rs_stack, rs_pc, then the outputs t0_tg_q, sv_cnt, sv_stack, sv_pc.
const GROUP_PORTS: [&str; 14] = [
    "cc_tg", "de_tg", "ex_tg", "fe_tg", "sv_tg", "rs_valid", "rs_tg", "rs_cnt", "rs_stack", "rs_pc", "t0_tg_q", "sv_cnt",
    "sv_stack", "sv_pc",
];

/// The branch stack RTL in Verilator.
pub struct RtlBranchStack {
    p: BranchStackParams,
    sim: Sim,
    ins: Vec<PortId>,
    outs: Vec<PortId>,
    /// `cc_ready` (`producer_conflict = "stall"` only).
    ready: Option<PortId>,
    /// [`PERF_PORTS`], empty without `perf_counters`.
    perf: Vec<PortId>,
    /// [`GROUP_PORTS`], empty at one thread group.
    groups: Vec<PortId>,
}

impl RtlBranchStack {
    /// Generates, builds (cached) and instantiates the RTL for `p`.
    pub fn new(p: &BranchStackParams, trace: bool) -> Result<Self, String> {
        let e = warpgen_rtl::generate(&config_for(p), "branch_stack")?;
        let sim = crate::build_block(&e, trace)
            .and_then(|m| m.instantiate())
            .map_err(|x| x.to_string())?;
        let ids = |names: &[&str]| names.iter().map(|n| sim.port(n).map_err(|x| x.to_string())).collect::<Result<Vec<_>, _>>();
        let (ins, outs) = (ids(&INPUTS)?, ids(&OUTPUTS)?);
        let ready = if p.stall { Some(ids(&["cc_ready"])?[0]) } else { None };
        let perf = if p.perf_counters { ids(&PERF_PORTS)? } else { vec![] };
        let groups = if p.tgs > 1 { ids(&GROUP_PORTS)? } else { vec![] };
        Ok(RtlBranchStack { p: p.clone(), sim, ins, outs, ready, perf, groups })
    }

    /// The simulation instance: waveforms, recorded stimulus.
    pub fn sim(&mut self) -> &mut Sim {
        &mut self.sim
    }
}

/// `top_first` entries packed 4 bits each, entry k at `[4k +: 4]`, as little-endian words.
fn pack_entries(top_first: &[u8], depth: usize) -> Vec<u64> {
    let mut words = vec![0u64; (4 * depth).div_ceil(64)];
    for (k, &v) in top_first.iter().take(depth).enumerate() {
        words[k / 16] |= u64::from(v & 0xF) << (4 * (k % 16));
    }
    words
}

impl RtlBranchStack {
    /// The group ports' inputs (T > 1).
    fn drive_groups(&mut self, i: &BranchStackInputs) {
        let (p, g) = (&self.p, &self.groups);
        let tw = p.tg_w();
        let tgs = pack((0..p.nsrc).map(|k| u64::from(i.cc_tg.get(k).copied().unwrap_or(0))), tw);
        let cnt_mask = (1u64 << p.cnt_w()) - 1;
        let narrow = [
            tgs,
            u64::from(i.de_tg),
            u64::from(i.ex_tg),
            u64::from(i.fe_tg),
            u64::from(i.sv_tg),
            i.rs_valid as u64,
            u64::from(i.rs_tg),
            i.rs_cnt & cnt_mask,
        ];
        for (port, v) in g.iter().zip(narrow) {
            self.sim.set_unchecked(*port, v);
        }
        let stack = pack_entries(&i.rs_stack, p.depth);
        self.sim.set_wide(g[8], &stack).unwrap_or_else(|e| panic!("rs_stack: {e}"));
        self.sim.set_unchecked(g[9], i.rs_pc);
    }

    /// The group ports' outputs (T > 1).
    fn read_groups(&self, out: &mut BranchStackOutputs) {
        let g = &self.groups;
        out.t0_tg_q = self.sim.get(g[10]) as u8;
        out.sv_cnt = self.sim.get(g[11]);
        let words = self.sim.get_wide(g[12]);
        out.sv_stack = (0..self.p.depth).map(|k| ((words[k / 16] >> (4 * (k % 16))) & 0xF) as u8).collect();
        out.sv_pc = self.sim.get(g[13]);
    }
}

impl Dut<BranchStack> for RtlBranchStack {
    fn params(&self) -> &BranchStackParams {
        &self.p
    }

    fn eval(&mut self, i: &BranchStackInputs) -> BranchStackOutputs {
        let values = [
            i.reset as u64,
            pack(i.cc_vld.iter().map(|b| *b as u64), 1),
            pack(i.cc_sop.iter().map(|v| *v as u64), 2),
            pack(i.cc_val.iter().map(|v| *v as u64), 4),
            i.de_br_vld as u64,
            i.de_br_cmp as u64,
            i.de_br_sel as u64,
            i.de_br_pol as u64,
            i.de_br_f as u64,
            i.de_br_g as u64,
            i.de_br_op as u64,
            i.de_pc,
            i.de_off,
            i.ex_branch_t1 as u64,
            i.ex_t1pc,
            i.pc_hold as u64,
            i.err_clr as u64,
        ];
        for (port, v) in self.ins.iter().zip(values) {
            self.sim.set_unchecked(*port, v);
        }
        for (port, v) in self.perf.iter().zip([i.perf_sel, i.perf_clr as u64]) {
            self.sim.set_unchecked(*port, v);
        }
        if !self.groups.is_empty() {
            self.drive_groups(i);
        }
        self.sim.eval().unwrap_or_else(|e| panic!("simulation died: {e}"));
        let o: Vec<u64> = self.outs.iter().map(|p| self.sim.get(*p)).collect();
        let ready = self.ready.map(|r| self.sim.get(r));
        let cc_ready = ready.map_or(Vec::new(), |r| (0..self.p.nsrc).map(|k| (r >> k) & 1 == 1).collect());
        let mut out = BranchStackOutputs {
            br_taken: o[0] != 0,
            br_target: o[1],
            cc_r: o[2] as u8,
            cc_r_vld: o[3] != 0,
            cc_s: o[4] as u8,
            cc_s_vld: o[5] != 0,
            cc_cnt: o[6],
            pc: o[7],
            npc: o[8],
            branch_t0_q: o[9] != 0,
            t0pc_q: o[10],
            err_ovf: o[11] != 0,
            err_udf: o[12] != 0,
            err_port: o[13] != 0,
            err_multi: o[14] != 0,
            cc_ready,
            perf_val: self.perf.get(2).map_or(0, |&v| self.sim.get(v)),
            t0_tg_q: 0,
            sv_cnt: 0,
            sv_stack: Vec::new(),
            sv_pc: 0,
        };
        if !self.groups.is_empty() {
            self.read_groups(&mut out);
        }
        out
    }

    fn tick(&mut self) {
        self.sim.tick().unwrap_or_else(|e| panic!("simulation died: {e}"));
    }
}
