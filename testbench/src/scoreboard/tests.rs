//! Unit tests: the directed cases on the model, mutants of the model that the directed
//! cases must reject, and property checks (spec §6.6) of the model under random load.

use super::Scoreboard;
use super::directed::{all_cases, run_all, ParamsKind};
use super::stimulus::{Coverage, ScoreboardStimulus};
use super::*;

fn model_factory(p: &ScoreboardParams) -> Box<dyn Dut<Scoreboard>> {
    Box::new(ModelDut::new(p))
}

#[test]
fn directed_cases_pass_on_model() {
    run_all(&mut model_factory).unwrap();
}

#[test]
fn case_table_covers_spec_list() {
    let names: Vec<&str> = all_cases().iter().map(|c| c.0).collect();
    for id in [
        "T01", "T02", "T03", "T04", "T05", "T05-w1", "T06a", "T06b", "T07", "T07b", "T08", "T09",
        "T10", "T11", "T12a", "T12b", "T12c", "T12d", "T13", "T14", "T15", "T17:T01", "T17:T02",
        "T17:T03", "T17:T04", "T17:T07", "T17:T08", "T17:T11", "T17:T12a", "T17:T12d", "T17:T13",
        "T17:T14", "T17:T15", "X03", "X04", "X05", "X06", "X07",
    ] {
        assert!(names.contains(&id), "{id} missing from all_cases()");
    }
}

/// Ways to get the scoreboard wrong; each must fail at least one directed case.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mutation {
    /// Completions visible in the same cycle.
    Bypass,
    DropSecondPort,
    IgnoreClear,
    IgnoreDeps,
    IgnoreNxtMask,
    /// Set B wins when both sets are satisfied.
    BranchNoPriority,
    /// With more than two sets, the last satisfied set wins instead of the first.
    BranchLastSet,
    FullIsGreater,
    /// No saturation stall: every tracker may count to 2^CNT_W−1.
    IgnoreTrkMax,
    ErrNotSticky,
    ResetKeepsErr,
    /// An event in the cycle of `perf_clr` is counted (the clear loses).
    PerfClrLoses,
    /// `err_clr` clears `err_underflow` even when the same edge underflows.
    ErrClrWins,
    /// A refused issue counts only its first cause (dependency, then saturation, then fetch).
    StallFirstCauseOnly,
    /// No implicit fence (SB5 ignored).
    IgnoreFence,
    /// Every tracker fenced, not only the listed ones.
    FenceEveryTracker,
    /// SB6 ignored: a branch annotation keeps set A only.
    GateIgnoresBranch,
    /// SB6 with "every set drained" in place of "some set drained".
    GateAllSets,
    /// SB6 reads sets B, C, D without `iss_nxt_br`.
    GateWithoutBr,
    /// SB6 over three sets at most (set D ignored).
    GateThreeSets,
}

struct Mutant {
    p: ScoreboardParams,
    m: ScoreboardModel,
    last: ScoreboardInputs,
    kind: Mutation,
    fresh_err: bool,
}

impl Mutant {
    fn new(p: &ScoreboardParams, kind: Mutation) -> Self {
        let mut inner = p.clone();
        if kind == Mutation::IgnoreTrkMax {
            inner.trk_max = vec![(1 << p.cnt_w) - 1; p.num_trk];
        }
        if kind == Mutation::IgnoreFence {
            inner.fence = 0;
        }
        if kind == Mutation::FenceEveryTracker && p.fence != 0 {
            inner.fence = p.trk_mask();
        }
        if kind == Mutation::GateIgnoresBranch {
            inner.fetch_gate = false;
        }
        Mutant {
            p: p.clone(),
            m: ScoreboardModel::new(&inner),
            last: ScoreboardInputs::idle(p),
            kind,
            fresh_err: false,
        }
    }
}

impl Dut<Scoreboard> for Mutant {
    fn params(&self) -> &ScoreboardParams {
        &self.p
    }

    fn eval(&mut self, inp: &ScoreboardInputs) -> ScoreboardOutputs {
        use Mutation::*;
        let mut i = inp.clone();
        match self.kind {
            IgnoreDeps => i.iss_dep_mask = 0,
            IgnoreClear => i.clr_valid = false,
            IgnoreNxtMask => i.iss_nxt_mask = 0,
            DropSecondPort => i.cpl_valid.iter_mut().skip(1).for_each(|v| *v = false),
            // Waiting for every set is waiting for their union, annotated as one set.
            GateAllSets if i.iss_nxt_br => {
                let n = self.p.br_sets;
                let sets = [i.iss_nxt_mask, i.iss_nxt_mask_b, i.iss_nxt_mask_c, i.iss_nxt_mask_d];
                (i.iss_nxt_mask, i.iss_nxt_br) = (sets[..n].iter().fold(0, |u, m| u | m), false);
            }
            GateWithoutBr => i.iss_nxt_br = true,
            GateThreeSets => i.iss_nxt_mask_d = i.iss_nxt_mask,
            _ => {}
        }
        let mut o = if self.kind == Bypass {
            let mut early = self.m.clone();
            let cpl_only = ScoreboardInputs {
                cpl_valid: i.cpl_valid.clone(),
                cpl_tg: i.cpl_tg.clone(),
                cpl_trk: i.cpl_trk.clone(),
                ..Default::default()
            };
            early.clock(&cpl_only);
            early.outputs(&i)
        } else {
            self.m.outputs(&i)
        };
        match self.kind {
            BranchNoPriority => o.br_sel_b = o.br_sat_b,
            BranchLastSet if self.p.br_sets > 2 => {
                let sat = [o.br_sat_a, o.br_sat_b, o.br_sat_c, o.br_sat_d];
                o.br_sel = sat[..self.p.br_sets].iter().rposition(|&x| x).unwrap_or(0) as u64;
            }
            FullIsGreater => {
                o.trk_full = o
                    .cnt
                    .iter()
                    .enumerate()
                    .map(|(k, &c)| c > self.p.trk_max[k % self.p.num_trk])
                    .collect()
            }
            ErrNotSticky => o.err_underflow &= self.fresh_err,
            _ => {}
        }
        self.last = i;
        o
    }

    fn tick(&mut self) {
        let before = self.m.err_underflow();
        if self.kind == Mutation::ResetKeepsErr && self.last.reset && before {
            // Reset everything, then re-create the error with a completion on a zero counter.
            self.m.clock(&self.last);
            self.m.clock(&ScoreboardInputs::idle(&self.p).cpl(0, 0));
            return;
        }
        // The perf mutants: this edge's events, from a copy clocked without perf_clr.
        let counting = !self.m.perf.is_empty() && !self.last.reset;
        let old = self.m.perf.clone();
        let mut copy = self.m.clone();
        copy.clock(&ScoreboardInputs { perf_clr: false, ..self.last.clone() });
        let ev: Vec<u32> = copy.perf.iter().zip(&old).map(|(n, o)| n - o).collect();
        self.m.clock(&self.last);
        self.fresh_err = !before && self.m.err_underflow();
        use super::model::perf::{STALL_DEP, STALL_FETCH, STALL_SAT};
        match self.kind {
            Mutation::PerfClrLoses if counting && self.last.perf_clr => self.m.perf = ev,
            Mutation::ErrClrWins if counting && self.last.err_clr => self.m.err = false,
            Mutation::StallFirstCauseOnly if counting && !self.last.perf_clr => {
                if ev[STALL_DEP] == 1 && ev[STALL_SAT] == 1 {
                    self.m.perf[STALL_SAT] -= 1;
                }
                if (ev[STALL_DEP] == 1 || ev[STALL_SAT] == 1) && ev[STALL_FETCH] == 1 {
                    self.m.perf[STALL_FETCH] -= 1;
                }
            }
            _ => {}
        }
    }
}

#[test]
fn directed_cases_kill_every_mutant() {
    use Mutation::*;
    for kind in [
        Bypass,
        DropSecondPort,
        IgnoreClear,
        IgnoreDeps,
        IgnoreNxtMask,
        BranchNoPriority,
        BranchLastSet,
        FullIsGreater,
        IgnoreTrkMax,
        ErrNotSticky,
        ResetKeepsErr,
        PerfClrLoses,
        ErrClrWins,
        StallFirstCauseOnly,
        IgnoreFence,
        FenceEveryTracker,
        GateIgnoresBranch,
        GateAllSets,
        GateWithoutBr,
        GateThreeSets,
    ] {
        let res = run_all(&mut |p| Box::new(Mutant::new(p, kind)));
        assert!(res.is_err(), "mutant {kind:?} passes every directed case");
    }
}

/// A failing check reports case, cycle, signal, expected and actual value.
#[test]
fn failure_message_names_case_cycle_signal() {
    let p = ParamsKind::Default.params();
    let mut dut = Mutant::new(&p, Mutation::Bypass);
    let err = directed::t02_fig4(&mut dut).unwrap_err();
    assert_eq!(err, "T02 c10: iss_ready expected false, actual true; iss_fire expected false, actual true; cnt[0][0] expected 1, actual 0");
}

/// Parameter sets for the random runs.
fn random_params() -> Vec<ScoreboardParams> {
    vec![
        ScoreboardParams::spec_default(),
        ScoreboardParams::spec_w1(),
        ParamsKind::Odd.params(),
        ScoreboardParams {
            num_tg: 1,
            num_trk: 1,
            cnt_w: 1,
            num_cpl: 1,
            trk_max: vec![1],
            br_sets: 2,
            perf_counters: false,
            fence: 0,
            fetch_gate: false,
        },
        ScoreboardParams {
            num_tg: 2,
            num_trk: 3,
            cnt_w: 2,
            num_cpl: 4,
            trk_max: vec![3, 2, 1],
            br_sets: 3,
            perf_counters: false,
            fence: 0,
            fetch_gate: false,
        },
        ScoreboardParams {
            num_tg: 16,
            num_trk: 16,
            cnt_w: 8,
            num_cpl: 4,
            trk_max: (0..16).map(|t| [255, 1, 15, 100][t % 4]).collect(),
            br_sets: 4,
            perf_counters: false,
            fence: 0,
            fetch_gate: false,
        },
        ScoreboardParams { br_sets: 4, ..ScoreboardParams::spec_default() },
    ]
}

/// §6.6 properties of one cycle; `prev` is the previous cycle's (inputs, outputs).
fn check_cycle(
    p: &ScoreboardParams,
    prev: Option<&(ScoreboardInputs, ScoreboardOutputs)>,
    i: &ScoreboardInputs,
    o: &ScoreboardOutputs,
    legal: bool,
) -> Result<(), String> {
    let ntrk = p.num_trk;
    for (k, &c) in o.cnt.iter().enumerate() {
        if c > p.trk_max[k % ntrk]
            || o.trk_zero[k] != (c == 0)
            || o.trk_full[k] != (c >= p.trk_max[k % ntrk])
        {
            return Err(format!(
                "counter {k}: cnt={c} zero={} full={}",
                o.trk_zero[k], o.trk_full[k]
            ));
        }
    }
    if o.iss_fire {
        let g = i.iss_tg as usize;
        let busy = (0..ntrk)
            .filter(|&t| o.cnt[g * ntrk + t] > 0)
            .fold(0, |m, t| m | 1 << t);
        if !i.iss_valid || !o.fetch_ok[g] || i.iss_dep_mask & busy != 0 {
            return Err("iss_fire without its dependencies drained".into());
        }
    }
    if legal && o.err_underflow {
        return Err("err_underflow in a legal run".into());
    }
    if legal && !i.reset && i.clr_valid && !o.tg_idle.get(i.clr_tg as usize).unwrap_or(&true) {
        return Err("clear of a busy group in a legal run".into());
    }
    // Stability (§6.4.6): 0 → non-zero only by the group's own issue on that tracker.
    if let Some((pi, po)) = prev {
        for k in 0..o.cnt.len() {
            let own_issue = po.iss_fire
                && pi.iss_trk_en
                && (pi.iss_tg as usize * ntrk + pi.iss_trk as usize) == k;
            if po.cnt[k] == 0 && o.cnt[k] != 0 && !own_issue {
                return Err(format!("counter {k} became busy without an issue on it"));
            }
        }
    }
    Ok(())
}

/// Model + stimulus in lockstep with the property checks; returns the coverage.
fn random_run(
    p: &ScoreboardParams,
    seed: u64,
    allow_errors: bool,
    cycles: u64,
) -> Result<Coverage, String> {
    let mut m = ScoreboardModel::new(p);
    let mut stim = ScoreboardStimulus::new(p, seed).allow_errors(allow_errors);
    let mut cov = Coverage::new(p, allow_errors);
    let mut prev: Option<(ScoreboardInputs, ScoreboardOutputs)> = None;
    let mut fires = vec![0u64; p.num_tg];
    for cycle in 0..cycles {
        let last = prev.as_ref().map(|x| x.1.clone()).unwrap_or_default();
        let i = stim.next(&last);
        let o = m.outputs(&i);
        let ctx = |e: String| format!("{p:?} seed {seed} cycle {cycle}: {e}");
        check_cycle(p, prev.as_ref(), &i, &o, !allow_errors).map_err(ctx)?;
        // The stimulus's own count of outstanding instructions equals the counters.
        for (k, &c) in o.cnt.iter().enumerate() {
            let want = stim.outstanding(k / p.num_trk, k % p.num_trk);
            if !i.reset && c != want {
                return Err(ctx(format!("counter {k} is {c}, {want} outstanding")));
            }
        }
        if o.iss_fire {
            fires[i.iss_tg as usize] += 1;
        }
        cov.observe(&i, &o);
        m.clock(&i);
        prev = Some((i, o));
    }
    if !allow_errors && fires.iter().any(|&f| f < cycles / (p.num_tg as u64 * 40)) {
        return Err(format!(
            "{p:?} seed {seed}: a group starves: fires per group {fires:?}"
        ));
    }
    Ok(cov)
}

#[test]
fn random_legal_load_holds_properties_and_covers() {
    for p in random_params() {
        for seed in [1, 2] {
            let cov = random_run(&p, seed, false, 20_000).unwrap();
            cov.assert_all_hit()
                .unwrap_or_else(|e| panic!("{p:?} seed {seed}: {e}\n{cov:?}"));
        }
    }
}

#[test]
fn random_error_load_holds_properties_and_covers() {
    for p in random_params() {
        let cov = random_run(&p, 7, true, 20_000).unwrap();
        cov.assert_all_hit()
            .unwrap_or_else(|e| panic!("{p:?}: {e}\n{cov:?}"));
    }
}

#[test]
fn stimulus_is_deterministic_per_seed() {
    let p = ScoreboardParams::spec_default();
    let trace = |seed| crate::kit::stimulus_trace::<super::lockstep::Scoreboard>(&p, seed, 500, true);
    assert_eq!(trace(3), trace(3));
    assert_ne!(trace(3), trace(4));
}

#[test]
fn params_and_widths() {
    let d = ScoreboardParams::spec_default();
    assert_eq!((d.tgw(), d.tkw(), d.trk_mask()), (2, 3, 0xFF));
    assert_eq!(d.trk_max, vec![15, 15, 15, 15, 15, 15, 15, 1]);
    assert!(ScoreboardParams::spec_w1().trk_max.iter().all(|&m| m == 1));
    let widths = |tg, trk| {
        let p = ScoreboardParams {
            num_tg: tg,
            num_trk: trk,
            cnt_w: 1,
            num_cpl: 1,
            trk_max: vec![1; trk],
            br_sets: 2,
            perf_counters: false,
            fence: 0,
            fetch_gate: false,
        };
        (p.tgw(), p.tkw())
    };
    assert_eq!(widths(1, 1), (1, 1));
    assert_eq!(widths(3, 5), (2, 3));
    assert_eq!(widths(64, 16), (6, 4));
    assert_eq!(widths(33, 9), (6, 4));
    let bad = ScoreboardParams {
        trk_max: vec![16; 8],
        ..d.clone()
    };
    assert!(bad.validate().is_err());
    assert!(ScoreboardParams {
        num_tg: 65,
        ..d.clone()
    }
    .validate()
    .is_err());
    for bad_sets in [1, 5] {
        assert!(ScoreboardParams { br_sets: bad_sets, ..d.clone() }.validate().is_err());
    }
    assert!(ScoreboardParams {
        trk_max: vec![1; 7],
        ..d
    }
    .validate()
    .is_err());
}

/// Ids wider than their port are truncated as the Verilog port would.
#[test]
fn inputs_are_truncated_to_port_width() {
    let p = ScoreboardParams::spec_default();
    let mut m = ScoreboardModel::new(&p);
    let i = ScoreboardInputs::idle(&p).iss(4 + 1, Some(8 + 2), 0x100, 0x104);
    assert!(m.outputs(&i).iss_fire);
    m.clock(&i);
    assert_eq!((m.cnt(1, 2), m.wait_mask(1)), (1, &[0x04][..]));
    m.clock(&ScoreboardInputs::idle(&p).cpl(5, 10));
    assert_eq!((m.cnt(1, 2), m.err_underflow()), (0, false));
}

/// Missing completion vectors (`Default` inputs) count as no completion.
#[test]
fn default_inputs_are_idle() {
    let p = ScoreboardParams::spec_default();
    let mut m = ScoreboardModel::new(&p);
    m.clock(&ScoreboardInputs::default());
    let o = m.outputs(&ScoreboardInputs::default());
    assert!(o.iss_ready && !o.iss_fire && o.chk_ok && o.br_go && !o.br_sel_b && !o.err_underflow);
    assert_eq!(o.cnt, vec![0; 32]);
}
