//! The Verilated `warpgen_scoreboard` behind the [`Dut`] interface, so
//! that directed cases and lockstep runs drive the RTL exactly as they drive the
//! model.

use super::Scoreboard;
use super::{Dut, ScoreboardInputs, ScoreboardOutputs, ScoreboardParams};
use warpgen_rtl::config::{MaxCount, ScoreboardConfig};
use warpgen_rtl::Config;
use crate::harness::{field, pack};
use warpgen_sim::{PortId, Sim};

/// The rtl config that builds the block for model parameters `p`.
pub fn config_for(p: &ScoreboardParams) -> Config {
    Config {
        scoreboard: Some(ScoreboardConfig {
            thread_groups: p.num_tg as i64,
            trackers: p.num_trk as i64,
            counter_width: p.cnt_w as i64,
            completion_ports: p.num_cpl as i64,
            branch_sets: p.br_sets as i64,
            max_count: Some(MaxCount::PerTracker(p.trk_max.iter().map(|m| *m as i64).collect())),
            perf_counters: p.perf_counters,
            implicit_fence: (0..p.num_trk as i64).filter(|t| p.fence >> t & 1 == 1).collect(),
            branch_fetch_gate: p.fetch_gate,
        }),
        ..Config::default()
    }
}

/// The model parameters of an rtl config's `[scoreboard]`: the one conversion from a config.
impl From<&ScoreboardConfig> for ScoreboardParams {
    fn from(c: &ScoreboardConfig) -> Self {
        ScoreboardParams {
            num_tg: c.thread_groups as usize,
            num_trk: c.trackers as usize,
            cnt_w: c.counter_width as u32,
            num_cpl: c.completion_ports as usize,
            trk_max: c.max_counts(),
            br_sets: c.branch_sets as usize,
            perf_counters: c.perf_counters,
            fence: c.fence_mask(),
            fetch_gate: c.branch_fetch_gate,
        }
    }
}

struct Ports {
    reset: PortId,
    clr_valid: PortId,
    clr_tg: PortId,
    iss_valid: PortId,
    iss_tg: PortId,
    iss_dep_mask: PortId,
    iss_trk_en: PortId,
    iss_trk: PortId,
    iss_nxt_mask: PortId,
    /// With `branch_fetch_gate` (SB6): iss_nxt_br, then iss_nxt_mask_b, _c, _d up to `br_sets`.
    gate: Vec<PortId>,
    chk_tg: PortId,
    chk_mask: PortId,
    br_tg: PortId,
    br_mask_a: PortId,
    br_mask_b: PortId,
    /// Ports of `branch_sets` 3 or 4 only (`br_sel` in place of `br_sel_b`).
    br_mask_c: Option<PortId>,
    br_mask_d: Option<PortId>,
    cpl_valid: PortId,
    cpl_tg: PortId,
    cpl_trk: PortId,
    iss_ready: PortId,
    iss_fire: PortId,
    fetch_ok: PortId,
    chk_ok: PortId,
    br_sat_a: PortId,
    br_sat_b: PortId,
    br_go: PortId,
    br_sel_b: Option<PortId>,
    br_sat_c: Option<PortId>,
    br_sat_d: Option<PortId>,
    br_sel: Option<PortId>,
    trk_zero: PortId,
    trk_full: PortId,
    tg_idle: PortId,
    cnt_flat: PortId,
    err_underflow: PortId,
    /// With `perf_counters` (SB3-SB4): perf_sel, perf_clr, err_clr, then perf_val.
    perf: Vec<PortId>,
}

/// The scoreboard RTL in Verilator.
pub struct RtlScoreboard {
    p: ScoreboardParams,
    sim: Sim,
    ports: Ports,
}

impl RtlScoreboard {
    /// Generates, builds (cached) and instantiates the RTL for `p`.
    pub fn new(p: &ScoreboardParams, trace: bool) -> Result<Self, String> {
        let e = warpgen_rtl::generate(&config_for(p), "scoreboard")?;
        let model = crate::build_block(&e, trace).map_err(|x| x.to_string())?;
        let sim = model.instantiate().map_err(|x| x.to_string())?;
        let port = |n: &str| sim.port(n).map_err(|x| x.to_string());
        // A port that exists only from `sets` branch sets on.
        let from = |n: &str, sets: usize| if p.br_sets >= sets { port(n).map(Some) } else { Ok(None) };
        let ports = Ports {
            reset: port("reset")?,
            clr_valid: port("clr_valid")?,
            clr_tg: port("clr_tg")?,
            iss_valid: port("iss_valid")?,
            iss_tg: port("iss_tg")?,
            iss_dep_mask: port("iss_dep_mask")?,
            iss_trk_en: port("iss_trk_en")?,
            iss_trk: port("iss_trk")?,
            iss_nxt_mask: port("iss_nxt_mask")?,
            gate: if p.fetch_gate {
                ["iss_nxt_br", "iss_nxt_mask_b", "iss_nxt_mask_c", "iss_nxt_mask_d"][..p.br_sets]
                    .iter()
                    .map(|n| port(n))
                    .collect::<Result<_, _>>()?
            } else {
                vec![]
            },
            chk_tg: port("chk_tg")?,
            chk_mask: port("chk_mask")?,
            br_tg: port("br_tg")?,
            br_mask_a: port("br_mask_a")?,
            br_mask_b: port("br_mask_b")?,
            br_mask_c: from("br_mask_c", 3)?,
            br_mask_d: from("br_mask_d", 4)?,
            cpl_valid: port("cpl_valid")?,
            cpl_tg: port("cpl_tg")?,
            cpl_trk: port("cpl_trk")?,
            iss_ready: port("iss_ready")?,
            iss_fire: port("iss_fire")?,
            fetch_ok: port("fetch_ok")?,
            chk_ok: port("chk_ok")?,
            br_sat_a: port("br_sat_a")?,
            br_sat_b: port("br_sat_b")?,
            br_go: port("br_go")?,
            br_sel_b: if p.br_sets == 2 { Some(port("br_sel_b")?) } else { None },
            br_sat_c: from("br_sat_c", 3)?,
            br_sat_d: from("br_sat_d", 4)?,
            br_sel: from("br_sel", 3)?,
            trk_zero: port("trk_zero")?,
            trk_full: port("trk_full")?,
            tg_idle: port("tg_idle")?,
            cnt_flat: port("cnt_flat")?,
            err_underflow: port("err_underflow")?,
            perf: if p.perf_counters {
                ["perf_sel", "perf_clr", "err_clr", "perf_val"].iter().map(|n| port(n)).collect::<Result<_, _>>()?
            } else {
                vec![]
            },
        };
        Ok(RtlScoreboard { p: p.clone(), sim, ports })
    }

    /// This cycle's value of every replay-stimulus input, in the model's port
    /// order (the format of `warpgen_sim::Model::replay_bench`).
    pub fn stimulus_words(&self) -> Vec<u64> {
        let sim = &self.sim;
        sim.ports()
            .iter()
            .filter(|p| p.is_stimulus())
            .flat_map(|p| sim.get_wide(sim.port(&p.name).expect("listed port")))
            .collect()
    }

    /// The simulation instance: waveforms, recorded stimulus.
    pub fn sim(&mut self) -> &mut Sim {
        &mut self.sim
    }
}

impl Dut<Scoreboard> for RtlScoreboard {
    fn params(&self) -> &ScoreboardParams {
        &self.p
    }

    fn eval(&mut self, i: &ScoreboardInputs) -> ScoreboardOutputs {
        let ports = &self.ports;
        let (tgw, tkw) = (self.p.tgw(), self.p.tkw());
        let ins = [
            (ports.reset, i.reset as u64),
            (ports.clr_valid, i.clr_valid as u64),
            (ports.clr_tg, i.clr_tg),
            (ports.iss_valid, i.iss_valid as u64),
            (ports.iss_tg, i.iss_tg),
            (ports.iss_dep_mask, i.iss_dep_mask),
            (ports.iss_trk_en, i.iss_trk_en as u64),
            (ports.iss_trk, i.iss_trk),
            (ports.iss_nxt_mask, i.iss_nxt_mask),
            (ports.chk_tg, i.chk_tg),
            (ports.chk_mask, i.chk_mask),
            (ports.br_tg, i.br_tg),
            (ports.br_mask_a, i.br_mask_a),
            (ports.br_mask_b, i.br_mask_b),
            (ports.cpl_valid, pack(i.cpl_valid.iter().map(|b| *b as u64), 1)),
            (ports.cpl_tg, pack(i.cpl_tg.iter().copied(), tgw)),
            (ports.cpl_trk, pack(i.cpl_trk.iter().copied(), tkw)),
        ];
        for (port, v) in ins {
            self.sim.set_unchecked(port, v);
        }
        for (port, v) in [(ports.br_mask_c, i.br_mask_c), (ports.br_mask_d, i.br_mask_d)] {
            if let Some(port) = port {
                self.sim.set_unchecked(port, v);
            }
        }
        let gate = [i.iss_nxt_br as u64, i.iss_nxt_mask_b, i.iss_nxt_mask_c, i.iss_nxt_mask_d];
        for (port, v) in self.ports.gate.iter().zip(gate) {
            self.sim.set_unchecked(*port, v);
        }
        for (port, v) in self.ports.perf.iter().zip([i.perf_sel, i.perf_clr as u64, i.err_clr as u64]) {
            self.sim.set_unchecked(*port, v);
        }
        self.sim.eval().unwrap_or_else(|e| panic!("simulation died: {e}"));
        let ports = &self.ports;
        let sim = &self.sim;
        let flag = |p: PortId| sim.get(p) != 0;
        let bits = |p: PortId, n: usize| (0..n).map(|i| field(sim, p, i, 1) == 1).collect::<Vec<bool>>();
        let counters = self.p.num_tg * self.p.num_trk;
        let cw = self.p.cnt_w as usize;
        ScoreboardOutputs {
            iss_ready: flag(ports.iss_ready),
            iss_fire: flag(ports.iss_fire),
            fetch_ok: bits(ports.fetch_ok, self.p.num_tg),
            chk_ok: flag(ports.chk_ok),
            br_sat_a: flag(ports.br_sat_a),
            br_sat_b: flag(ports.br_sat_b),
            br_go: flag(ports.br_go),
            br_sel_b: ports.br_sel_b.is_some_and(flag),
            br_sat_c: ports.br_sat_c.is_some_and(flag),
            br_sat_d: ports.br_sat_d.is_some_and(flag),
            br_sel: ports.br_sel.map_or(0, |p| sim.get(p)),
            trk_zero: bits(ports.trk_zero, counters),
            trk_full: bits(ports.trk_full, counters),
            tg_idle: bits(ports.tg_idle, self.p.num_tg),
            cnt: (0..counters).map(|c| field(sim, ports.cnt_flat, c * cw, cw)).collect(),
            err_underflow: flag(ports.err_underflow),
            perf_val: ports.perf.get(3).map_or(0, |&v| sim.get(v)),
        }
    }

    fn tick(&mut self) {
        self.sim.tick().unwrap_or_else(|e| panic!("simulation died: {e}"));
    }
}
