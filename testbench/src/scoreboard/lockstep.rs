//! The scoreboard's bindings for the shared lockstep checker ([`crate::kit`]).

use super::rtl::RtlScoreboard;
use super::stimulus::{Coverage, ScoreboardStimulus};
use super::{ScoreboardInputs, ScoreboardModel, ScoreboardOutputs, ScoreboardParams};

/// Marker type binding the scoreboard to [`crate::kit::Block`].
pub struct Scoreboard;

impl crate::kit::Block for Scoreboard {
    const NAME: &'static str = "scoreboard";
    type Params = ScoreboardParams;
    type Inputs = ScoreboardInputs;
    type Outputs = ScoreboardOutputs;
    type Model = ScoreboardModel;
    type Stimulus = ScoreboardStimulus;
    type Coverage = Coverage;
    type Rtl = RtlScoreboard;

    fn model(p: &ScoreboardParams) -> ScoreboardModel {
        ScoreboardModel::new(p)
    }
    fn model_params(m: &ScoreboardModel) -> &ScoreboardParams {
        m.params()
    }
    fn model_outputs(m: &ScoreboardModel, i: &ScoreboardInputs) -> ScoreboardOutputs {
        m.outputs(i)
    }
    fn model_clock(m: &mut ScoreboardModel, i: &ScoreboardInputs) {
        m.clock(i)
    }
    fn idle(p: &ScoreboardParams) -> ScoreboardInputs {
        ScoreboardInputs::idle(p)
    }
    fn stimulus(p: &ScoreboardParams, seed: u64, allow_errors: bool) -> ScoreboardStimulus {
        ScoreboardStimulus::new(p, seed).allow_errors(allow_errors)
    }
    fn next(s: &mut ScoreboardStimulus, last: &ScoreboardOutputs) -> ScoreboardInputs {
        s.next(last)
    }
    fn coverage(p: &ScoreboardParams, allow_errors: bool) -> Coverage {
        Coverage::new(p, allow_errors)
    }
    fn observe(c: &mut Coverage, i: &ScoreboardInputs, o: &ScoreboardOutputs) {
        c.observe(i, o)
    }
    fn assert_covered(c: &Coverage) -> Result<(), String> {
        c.assert_all_hit()
    }
    fn rtl(p: &ScoreboardParams, trace: bool) -> Result<RtlScoreboard, String> {
        RtlScoreboard::new(p, trace)
    }
    fn rtl_sim(r: &mut RtlScoreboard) -> &mut warpgen_sim::Sim {
        r.sim()
    }
    fn first_difference(p: &ScoreboardParams, _: &ScoreboardInputs, e: &ScoreboardOutputs, a: &ScoreboardOutputs) -> Option<String> {
        first_difference(e, a, p)
    }
    fn tag(p: &ScoreboardParams) -> String {
        let sets = if p.br_sets == 2 { String::new() } else { format!("-br{}", p.br_sets) };
        let perf = if p.perf_counters { "-perf" } else { "" };
        let fence = if p.fence == 0 { String::new() } else { format!("-fence{:x}", p.fence) };
        format!("tg{}-trk{}-w{}{sets}{perf}{fence}", p.num_tg, p.num_trk, p.cnt_w)
    }
}

/// The first output that differs, as "port: expected …, actual …".
pub fn first_difference(expected: &ScoreboardOutputs, actual: &ScoreboardOutputs, p: &ScoreboardParams) -> Option<String> {
    let at = |i: usize| format!("[g={} t={}]", i / p.num_trk, i % p.num_trk);
    let flags = [
        ("iss_ready", expected.iss_ready, actual.iss_ready),
        ("iss_fire", expected.iss_fire, actual.iss_fire),
        ("chk_ok", expected.chk_ok, actual.chk_ok),
        ("br_sat_a", expected.br_sat_a, actual.br_sat_a),
        ("br_sat_b", expected.br_sat_b, actual.br_sat_b),
        ("br_go", expected.br_go, actual.br_go),
        ("br_sel_b", expected.br_sel_b, actual.br_sel_b),
        ("br_sat_c", expected.br_sat_c, actual.br_sat_c),
        ("br_sat_d", expected.br_sat_d, actual.br_sat_d),
        ("err_underflow", expected.err_underflow, actual.err_underflow),
    ];
    if let Some((n, e, a)) = flags.iter().find(|(_, e, a)| e != a) {
        return Some(format!("{n}: expected {}, actual {}", *e as u8, *a as u8));
    }
    if expected.perf_val != actual.perf_val {
        return Some(format!("perf_val: expected {}, actual {}", expected.perf_val, actual.perf_val));
    }
    if expected.br_sel != actual.br_sel {
        return Some(format!("br_sel: expected {}, actual {}", expected.br_sel, actual.br_sel));
    }
    let vectors = [
        ("fetch_ok", &expected.fetch_ok, &actual.fetch_ok, false),
        ("tg_idle", &expected.tg_idle, &actual.tg_idle, false),
        ("trk_zero", &expected.trk_zero, &actual.trk_zero, true),
        ("trk_full", &expected.trk_full, &actual.trk_full, true),
    ];
    for (n, e, a, per_counter) in vectors {
        if let Some(i) = (0..e.len()).find(|i| e.get(*i) != a.get(*i)) {
            let idx = if per_counter { at(i) } else { format!("[{i}]") };
            return Some(format!("{n}{idx}: expected {}, actual {}", e[i] as u8, a.get(i).map_or(-1, |b| *b as i8)));
        }
    }
    (0..expected.cnt.len())
        .find(|i| expected.cnt.get(*i) != actual.cnt.get(*i))
        .map(|i| format!("cnt_flat{}: expected {}, actual {:?}", at(i), expected.cnt[i], actual.cnt.get(i)))
}
