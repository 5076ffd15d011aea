//! The Verilated `warpgen_thread_merge` behind the [`Dut`] interface.

use super::ThreadMerge;
use super::{Dut, ThreadMergeInputs, ThreadMergeOutputs, ThreadMergeParams};
use crate::harness::field;
use warpgen_rtl::config::ThreadMergeConfig;
use warpgen_rtl::{Config, Origin};
use warpgen_sim::{PortId, Sim};

/// The `[thread_merge]` TOML table that builds the block for model parameters `p`.
pub fn toml_for(p: &ThreadMergeParams) -> String {
    format!(
        "[thread_merge]\nlanes = {}\nslots = {}\nremap = {}\npair_hold = {}\nmerge_timeout = {}\n\
         tag_width = {}\nprim_width = {}\nperf_counters = {}\ncross_primitive = {}\ncandidates = {}\nmerge_ways = {}\n",
        p.lanes, p.slots, p.remap, p.pair_hold, p.merge_timeout, p.tag_width, p.prim_width, p.perf_counters,
        p.cross_primitive, p.candidates, p.merge_ways
    )
}

/// The rtl config that builds the block for model parameters `p`, through the same
/// loader and validation as a user's file.
pub fn config_for(p: &ThreadMergeParams) -> Config {
    let text = toml_for(p);
    Config::load(Origin::File("<thread_merge test params>".into()), &text, &[])
        .unwrap_or_else(|e| panic!("model params {p:?} are not a valid config: {e}\n{text}"))
}

/// The model parameters of an rtl config's `[thread_merge]`: the one conversion from a config.
impl From<&ThreadMergeConfig> for ThreadMergeParams {
    fn from(c: &ThreadMergeConfig) -> Self {
        ThreadMergeParams {
            lanes: c.lanes as usize,
            slots: c.slots as usize,
            remap: c.remap,
            pair_hold: c.pair_hold as u32,
            merge_timeout: c.merge_timeout as u32,
            tag_width: c.tag_width as u32,
            prim_width: c.prim_width as u32,
            perf_counters: c.perf_counters,
            cross_primitive: c.cross_primitive,
            candidates: c.candidates as usize,
            merge_ways: c.merge_ways as usize,
        }
    }
}

/// Inputs in the order `eval` drives them.
const INPUTS: [&str; 20] = [
    "reset", "frag_valid", "frag_cov", "frag_prim", "frag_tag", "frag_last", "flush", "grp_ready", "me_valid",
    "me_tgid", "rsp_ready", "term_valid", "term_tgid", "disc_valid", "disc_tgid", "disc_mask", "xl_valid",
    "xl_tgid", "rf_tgid", "wb_tgid",
];

/// Outputs, read by name in `eval`.
const OUTPUTS: [&str; 37] = [
    "frag_ready", "grp_valid", "grp_paired", "grp_a_tgid", "grp_a_cov", "grp_a_tag", "grp_b_tgid", "grp_b_cov",
    "grp_b_perm", "grp_b_tag", "me_ready", "rsp_valid", "rsp_tgid", "rsp_merged", "rsp_active", "rsp_retire",
    "rsp_retire_tgid", "rf_common_wmask", "rf_exec_mask", "rf_perm", "rf_post", "wb_active", "wb_lane_src",
    "wb_tag_self", "wb_tag_partner", "wb_perm_self", "wb_perm_partner", "wb_orig_lane", "free_cnt", "pend_valid",
    "merge_count", "err_proto", "err_xlane", "st_state", "st_active", "st_slot", "st_owe",
];

/// With `perf_counters` (R16-R17): inputs perf_sel, perf_clr, err_clr, then output perf_val.
const PERF_PORTS: [&str; 4] = ["perf_sel", "perf_clr", "err_clr", "perf_val"];

/// With `merge_ways` > 2 (R20): member C of the descriptor, the retire mask, the lane
/// sources and member C's write-back record.
const WAYS_PORTS: [&str; 9] = [
    "grp_c_valid", "grp_c_tgid", "grp_c_cov", "grp_c_perm", "grp_c_tag", "rsp_retire_mask", "wb_lane_mem", "wb_tag_c",
    "wb_perm_c",
];

/// With `merge_ways` = 4 (R20): member D of the descriptor and its write-back record.
const WAYS4_PORTS: [&str; 7] = ["grp_d_valid", "grp_d_tgid", "grp_d_cov", "grp_d_perm", "grp_d_tag", "wb_tag_d", "wb_perm_d"];

/// The thread-group merge RTL in Verilator.
pub struct RtlThreadMerge {
    p: ThreadMergeParams,
    sim: Sim,
    ins: Vec<PortId>,
    outs: Vec<PortId>,
    /// [`PERF_PORTS`], empty without `perf_counters`.
    perf: Vec<PortId>,
    /// [`WAYS_PORTS`] (W > 2) then [`WAYS4_PORTS`] (W = 4); empty for pairs.
    ways: Vec<PortId>,
}

impl RtlThreadMerge {
    /// Generates, builds (cached) and instantiates the RTL for `p`.
    pub fn new(p: &ThreadMergeParams, trace: bool) -> Result<Self, String> {
        let e = warpgen_rtl::generate(&config_for(p), "thread_merge")?;
        let sim = crate::build_block(&e, trace)
            .and_then(|m| m.instantiate())
            .map_err(|x| x.to_string())?;
        let ids = |names: &[&str]| names.iter().map(|n| sim.port(n).map_err(|x| x.to_string())).collect::<Result<Vec<_>, _>>();
        let (ins, outs) = (ids(&INPUTS)?, ids(&OUTPUTS)?);
        let perf = if p.perf_counters { ids(&PERF_PORTS)? } else { vec![] };
        let mut ways = if p.merge_ways > 2 { ids(&WAYS_PORTS)? } else { vec![] };
        if p.merge_ways == 4 {
            ways.extend(ids(&WAYS4_PORTS)?);
        }
        Ok(RtlThreadMerge { p: p.clone(), sim, ins, outs, perf, ways })
    }

    /// The simulation instance: waveforms, recorded stimulus.
    pub fn sim(&mut self) -> &mut Sim {
        &mut self.sim
    }

    /// `n` fields of `w` bits of packed output `o`, field i at `[i*w +: w]`.
    fn fields(&self, o: usize, n: usize, w: u32) -> Vec<u64> {
        Self::fields_of(&self.sim, self.outs[o], n, w)
    }

    fn fields_of(sim: &Sim, port: PortId, n: usize, w: u32) -> Vec<u64> {
        (0..n).map(|i| field(sim, port, i * w as usize, w as usize)).collect()
    }
}

impl Dut<ThreadMerge> for RtlThreadMerge {
    fn params(&self) -> &ThreadMergeParams {
        &self.p
    }

    fn eval(&mut self, i: &ThreadMergeInputs) -> ThreadMergeOutputs {
        let values = [
            i.reset as u64,
            i.frag_valid as u64,
            i.frag_cov,
            i.frag_prim,
            i.frag_tag,
            i.frag_last as u64,
            i.flush as u64,
            i.grp_ready as u64,
            i.me_valid as u64,
            i.me_tgid,
            i.rsp_ready as u64,
            i.term_valid as u64,
            i.term_tgid,
            i.disc_valid as u64,
            i.disc_tgid,
            i.disc_mask,
            i.xl_valid as u64,
            i.xl_tgid,
            i.rf_tgid,
            i.wb_tgid,
        ];
        for (port, v) in self.ins.iter().zip(values) {
            self.sim.set_unchecked(*port, v);
        }
        for (port, v) in self.perf.iter().zip([i.perf_sel, i.perf_clr as u64, i.err_clr as u64]) {
            self.sim.set_unchecked(*port, v);
        }
        self.sim.eval().unwrap_or_else(|e| panic!("simulation died: {e}"));
        let p = &self.p;
        let groups = p.groups();
        let o = |k: usize| self.sim.get(self.outs[k]);
        let b = |k: usize| o(k) != 0;
        let mut out = ThreadMergeOutputs {
            frag_ready: b(0),
            grp_valid: b(1),
            grp_paired: b(2),
            grp_a_tgid: o(3),
            grp_a_cov: o(4),
            grp_a_tag: o(5),
            grp_b_tgid: o(6),
            grp_b_cov: o(7),
            grp_b_perm: o(8) as u8,
            grp_b_tag: o(9),
            me_ready: b(10),
            rsp_valid: b(11),
            rsp_tgid: o(12),
            rsp_merged: b(13),
            rsp_active: o(14),
            rsp_retire: b(15),
            rsp_retire_tgid: o(16),
            rf_common_wmask: o(17),
            rf_exec_mask: o(18),
            rf_perm: o(19) as u8,
            rf_post: b(20),
            wb_active: o(21),
            wb_lane_src: o(22),
            wb_tag_self: o(23),
            wb_tag_partner: o(24),
            wb_perm_self: o(25) as u8,
            wb_perm_partner: o(26) as u8,
            wb_orig_lane: self.fields(27, p.lanes, p.lane_w()).into_iter().map(|v| v as u8).collect(),
            free_cnt: o(28),
            pend_valid: b(29),
            merge_count: o(30),
            err_proto: b(31),
            err_xlane: b(32),
            st_state: self.fields(33, groups, 2).into_iter().map(|v| v as u8).collect(),
            st_active: self.fields(34, groups, p.lanes as u32),
            st_slot: self.fields(35, p.slots, 3).into_iter().map(|v| v as u8).collect(),
            st_owe: self.fields(36, groups, 1).into_iter().map(|v| v != 0).collect(),
            perf_val: self.perf.get(3).map_or(0, |&v| self.sim.get(v)),
            ..Default::default()
        };
        // R20's ports exist only with merge_ways > 2 (member D's only with 4): 0 otherwise,
        // and wb_lane_mem 0 for every lane.
        let w = |k: usize| self.ways.get(k).map_or(0, |&v| self.sim.get(v));
        out.grp_c_valid = w(0) != 0;
        out.grp_c_tgid = w(1);
        out.grp_c_cov = w(2);
        out.grp_c_perm = w(3) as u8;
        out.grp_c_tag = w(4);
        out.rsp_retire_mask = w(5);
        out.wb_lane_mem = match self.ways.get(6) {
            Some(&port) => Self::fields_of(&self.sim, port, p.lanes, 2).into_iter().map(|v| v as u8).collect(),
            None => vec![0; p.lanes],
        };
        out.wb_tag_c = w(7);
        out.wb_perm_c = w(8) as u8;
        out.grp_d_valid = w(9) != 0;
        out.grp_d_tgid = w(10);
        out.grp_d_cov = w(11);
        out.grp_d_perm = w(12) as u8;
        out.grp_d_tag = w(13);
        out.wb_tag_d = w(14);
        out.wb_perm_d = w(15) as u8;
        out
    }

    fn tick(&mut self) {
        self.sim.tick().unwrap_or_else(|e| panic!("simulation died: {e}"));
    }
}
