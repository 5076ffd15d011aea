//! The Verilated `warpgen_task_combiner` behind the [`Dut`] interface.

use super::TaskCombiner;
use super::{Mask, Policy, Dut, TaskCombinerInputs, TaskCombinerOutputs, TaskCombinerParams};
use crate::harness::field;
use warpgen_rtl::config::TaskCombinerConfig;
use warpgen_rtl::{Config, Origin};
use warpgen_sim::{PortId, Sim};

/// The `[task_combiner]` TOML table that builds the block for model parameters `p`.
pub fn toml_for(p: &TaskCombinerParams) -> String {
    let policy = match p.policy {
        Policy::Fullest => "fullest",
        Policy::Oldest => "oldest",
        Policy::NodepFullest => "nodep_fullest",
        Policy::NodepOldest => "nodep_oldest",
    };
    let list = |v: &[usize]| format!("[{}]", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
    let depends = format!("[{}]", p.depends.iter().map(|r| list(r)).collect::<Vec<_>>().join(", "));
    format!(
        "[task_combiner]\nentries = {}\nwidth = {}\ntile_pipes = {}\nshader_types = {}\nstate_width = {}\n\
         ref_width = {}\ntag_gen_width = {}\npolicy = \"{policy}\"\nsort_state = {}\nissue_order = \"{}\"\nregistered_issue = {}\nregistered_input = {}\ncapacity = {}\ndepends = {depends}\n\
         perf_counters = {}\nhold_producers = {}\ndep_tags = {}\n",
        p.entries,
        p.width,
        p.tile_pipes,
        p.shader_types,
        p.state_width,
        p.ref_width,
        p.tag_gen_width,
        p.sort_state,
        if p.issue_fullest { "fullest" } else { "oldest" },
        p.registered_issue,
        p.registered_input,
        list(&p.capacity),
        p.perf_counters,
        p.hold_producers,
        p.dep_tags,
    )
}

/// The rtl config that builds the block for model parameters `p`, through the same
/// loader and validation as a user's file.
pub fn config_for(p: &TaskCombinerParams) -> Config {
    let text = toml_for(p);
    Config::load(Origin::File("<task_combiner test params>".into()), &text, &[])
        .unwrap_or_else(|e| panic!("model params {p:?} are not a valid config: {e}\n{text}"))
}

/// The model parameters of an rtl config's `[task_combiner]`: the one conversion from a config.
impl From<&TaskCombinerConfig> for TaskCombinerParams {
    fn from(c: &TaskCombinerConfig) -> Self {
        use warpgen_rtl::config::Policy as P;
        TaskCombinerParams {
            entries: c.entries as usize,
            width: c.width as usize,
            tile_pipes: c.tile_pipes as usize,
            shader_types: c.shader_types as usize,
            state_width: c.state_width as u32,
            ref_width: c.ref_width as u32,
            tag_gen_width: c.tag_gen_width as u32,
            policy: match c.policy() {
                P::Fullest => Policy::Fullest,
                P::Oldest => Policy::Oldest,
                P::NodepFullest => Policy::NodepFullest,
                P::NodepOldest => Policy::NodepOldest,
            },
            sort_state: c.sort_state,
            issue_fullest: c.issue_fullest(),
            registered_issue: c.registered_issue,
            registered_input: c.registered_input,
            capacity: c.capacities().into_iter().map(|x| x as usize).collect(),
            depends: c.depends_rows(),
            perf_counters: c.perf_counters,
            hold_producers: c.hold_producers as usize,
            dep_tags: c.dep_tags as usize,
        }
    }
}

/// Inputs in the order `eval` drives them.
const INPUTS: [&str; 13] = [
    "reset", "in_valid", "in_stype", "in_state", "in_ref", "in_tpipe", "lk_valid", "lk_tag", "lk_tpipe",
    "rqf_valid", "rqf_tpipe", "drain_req", "out_ready",
];

/// Outputs, in the order of [`O`]'s indices.
const OUTPUTS: [&str; 28] = [
    "in_ready", "in_tag", "in_lane", "lk_hit", "rqf_ready", "rqf_done", "rqf_done_tpipe", "drain_done",
    "out_valid", "out_tag", "out_stype", "out_state", "out_count", "out_lane_mask", "out_refs", "out_lockmask",
    "out_reason", "st_valid", "st_open", "st_pending", "st_count", "st_stype", "st_state", "st_lockmask", "st_dep",
    "st_tag", "perf_tasks", "perf_lanes",
];

/// Indices into [`OUTPUTS`].
struct O;
impl O {
    const OUT_REFS: usize = 14;
    const ST_COUNT: usize = 20;
    const ST_STYPE: usize = 21;
    const ST_STATE: usize = 22;
    const ST_LOCKMASK: usize = 23;
    const ST_DEP: usize = 24;
    const ST_TAG: usize = 25;
}

/// The task combiner RTL in Verilator.
pub struct RtlTaskCombiner {
    p: TaskCombinerParams,
    sim: Sim,
    ins: Vec<PortId>,
    outs: Vec<PortId>,
    /// With `perf_counters` (rule P1): perf_sel, perf_clr, then perf_val.
    perf: Vec<PortId>,
    /// With `dep_tags` (D3t): in_dep_vld, in_dep_tag, err_clr, then err_dep.
    dt: Vec<PortId>,
    /// With `registered_input` (R2i): in_tag_valid.
    itv: Option<PortId>,
}

impl RtlTaskCombiner {
    /// Generates, builds (cached) and instantiates the RTL for `p`.
    pub fn new(p: &TaskCombinerParams, trace: bool) -> Result<Self, String> {
        let e = warpgen_rtl::generate(&config_for(p), "task_combiner")?;
        let sim = crate::build_block(&e, trace)
            .and_then(|m| m.instantiate())
            .map_err(|x| x.to_string())?;
        let ids = |names: &[&str]| names.iter().map(|n| sim.port(n).map_err(|x| x.to_string())).collect::<Result<Vec<_>, _>>();
        let (ins, outs) = (ids(&INPUTS)?, ids(&OUTPUTS)?);
        let perf = if p.perf_counters { ids(&["perf_sel", "perf_clr", "perf_val"])? } else { vec![] };
        let dt = if p.dep_tags > 0 { ids(&["in_dep_vld", "in_dep_tag", "err_clr", "err_dep"])? } else { vec![] };
        let itv = if p.registered_input { Some(ids(&["in_tag_valid"])?[0]) } else { None };
        Ok(RtlTaskCombiner { p: p.clone(), sim, ins, outs, perf, dt, itv })
    }

    /// The simulation instance: waveforms, recorded stimulus.
    pub fn sim(&mut self) -> &mut Sim {
        &mut self.sim
    }

    /// `n` fields of `w` bits of packed output `o`, field i at `[i*w +: w]`.
    fn fields(&self, o: usize, n: usize, w: u32) -> Vec<u64> {
        (0..n).map(|i| field(&self.sim, self.outs[o], i * w as usize, w as usize)).collect()
    }

    /// Entry mask `i` (entries bits, up to 128) of packed output `o`, at `[i*entries +: entries]`.
    fn mask(&self, o: usize, i: usize) -> Mask {
        let e = self.p.entries;
        let part = |lo: usize, w: usize| if w == 0 { 0 } else { field(&self.sim, self.outs[o], lo, w) as Mask };
        part(i * e, e.min(64)) | part(i * e + 64, e.saturating_sub(64)) << 64
    }
}

impl Dut<TaskCombiner> for RtlTaskCombiner {
    fn params(&self) -> &TaskCombinerParams {
        &self.p
    }

    fn eval(&mut self, i: &TaskCombinerInputs) -> TaskCombinerOutputs {
        let values = [
            i.reset as u64,
            i.in_valid as u64,
            i.in_stype,
            i.in_state,
            i.in_ref,
            i.in_tpipe,
            i.lk_valid as u64,
            i.lk_tag,
            i.lk_tpipe,
            i.rqf_valid as u64,
            i.rqf_tpipe,
            i.drain_req as u64,
            i.out_ready as u64,
        ];
        for (port, v) in self.ins.iter().zip(values) {
            self.sim.set_unchecked(*port, v);
        }
        for (port, v) in self.perf.iter().zip([i.perf_sel, i.perf_clr as u64]) {
            self.sim.set_unchecked(*port, v);
        }
        for (port, v) in self.dt.iter().zip([i.in_dep_vld, i.in_dep_tag, i.err_clr as u64]) {
            self.sim.set_unchecked(*port, v);
        }
        self.sim.eval().unwrap_or_else(|e| panic!("simulation died: {e}"));
        let p = &self.p;
        let n = p.entries;
        let o = |k: usize| self.sim.get(self.outs[k]);
        TaskCombinerOutputs {
            in_ready: o(0) != 0,
            in_tag: o(1),
            in_lane: o(2),
            in_tag_valid: self.itv.is_some_and(|v| self.sim.get(v) != 0),
            lk_hit: o(3) != 0,
            rqf_ready: o(4) != 0,
            rqf_done: o(5) != 0,
            rqf_done_tpipe: o(6),
            drain_done: o(7) != 0,
            out_valid: o(8) != 0,
            out_tag: o(9),
            out_stype: o(10),
            out_state: o(11),
            out_count: o(12),
            out_lane_mask: o(13),
            out_refs: self.fields(O::OUT_REFS, p.width, p.ref_width),
            out_lockmask: o(15),
            out_reason: o(16),
            st_valid: self.mask(17, 0),
            st_open: self.mask(18, 0),
            st_pending: self.mask(19, 0),
            st_count: self.fields(O::ST_COUNT, n, p.cnt_w()),
            st_stype: self.fields(O::ST_STYPE, n, p.stype_w()),
            st_state: self.fields(O::ST_STATE, n, p.state_width),
            st_lockmask: self.fields(O::ST_LOCKMASK, n, p.tile_pipes as u32),
            st_dep: (0..n).map(|i| self.mask(O::ST_DEP, i)).collect(),
            st_tag: self.fields(O::ST_TAG, n, p.tag_w()),
            perf_tasks: o(26),
            perf_lanes: o(27),
            perf_val: self.perf.get(2).map_or(0, |&v| self.sim.get(v)),
            err_dep: self.dt.get(3).is_some_and(|&v| self.sim.get(v) != 0),
        }
    }

    fn tick(&mut self) {
        self.sim.tick().unwrap_or_else(|e| panic!("simulation died: {e}"));
    }
}
