//! Directed test cases of spec §6.5 (T01–T15, T17) plus cases for behaviour that only
//! the block contract defines (X01, X02) and for the `branch_sets` key (X03, X04: rule SB2
//! of docs/blocks/scoreboard.md), for `perf_counters` (X05: rules SB3-SB4, in `x05.rs`) and for
//! `implicit_fence` (X06: rule SB5, in `x06.rs`) and for `branch_fetch_gate` (X07: rule SB6,
//! in `x07.rs`).
//!
//! Conventions (spec §6.5): "cN" is the cycle relative to the end of reset. Every case
//! starts with one reset cycle (eval + tick with `reset=1`); then each cycle is
//! eval(inputs) → check outputs → tick. `iss(g, trk, dep, nxt)` with `trk=None` is the
//! spec's "–" (not reorderable). Expected values are written by hand from the spec's
//! table; none is computed by a model.

use super::Scoreboard;
use super::{Dut, ScoreboardInputs, ScoreboardOutputs, ScoreboardParams};
use std::fmt::Debug;

mod x05;
mod x06;
mod x07;
pub use x05::x05_perf_counters;
pub use x06::x06_implicit_fence;
pub use x07::x07_branch_fetch_gate;

/// The parameter set a case runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsKind {
    /// §6.5 default configuration ([`ScoreboardParams::spec_default`]).
    Default,
    /// §6.5 variant "w1" ([`ScoreboardParams::spec_w1`]).
    W1,
    /// Non-power-of-two geometry, for ids that name no group/tracker:
    /// NUM_TG=3, NUM_TRK=5, CNT_W=3, NUM_CPL=3, TRK_MAX=(7,1,3,7,2).
    Odd,
    /// The §6.5 default configuration with a scoreboard branch over 3 or 4 sets.
    Sets3,
    Sets4,
    /// The §6.5 default configuration with `perf_counters`.
    Perf,
    /// The §6.5 default configuration with `perf_counters` and tracker 0 fenced (SB5).
    Fence,
    /// The §6.5 default configuration with four branch sets and `branch_fetch_gate` (SB6).
    Gate,
}

impl ParamsKind {
    pub fn params(self) -> ScoreboardParams {
        match self {
            ParamsKind::Default => ScoreboardParams::spec_default(),
            ParamsKind::W1 => ScoreboardParams::spec_w1(),
            ParamsKind::Odd => ScoreboardParams {
                num_tg: 3,
                num_trk: 5,
                cnt_w: 3,
                num_cpl: 3,
                trk_max: vec![7, 1, 3, 7, 2],
                br_sets: 2,
                perf_counters: false,
                fence: 0,
                fetch_gate: false,
            },
            ParamsKind::Sets3 => ScoreboardParams { br_sets: 3, ..ScoreboardParams::spec_default() },
            ParamsKind::Sets4 => ScoreboardParams { br_sets: 4, ..ScoreboardParams::spec_default() },
            ParamsKind::Perf => ScoreboardParams { perf_counters: true, ..ScoreboardParams::spec_default() },
            ParamsKind::Fence => ScoreboardParams { perf_counters: true, fence: 0x01, ..ScoreboardParams::spec_default() },
            ParamsKind::Gate => ScoreboardParams { br_sets: 4, fetch_gate: true, ..ScoreboardParams::spec_default() },
        }
    }
}

pub type CaseFn = fn(&mut dyn Dut<Scoreboard>) -> Result<(), String>;

/// Every directed case with the parameter set it needs. T17 is the rerun of
/// T01–T04, T05-w1, T07, T08, T11–T15 with CNT_W=1 (T16 is the random test, run elsewhere).
pub fn all_cases() -> Vec<(&'static str, ParamsKind, CaseFn)> {
    use ParamsKind::*;
    vec![
        ("T01", Default, t01_reset as CaseFn),
        ("T02", Default, t02_fig4),
        ("T03", Default, t03_fig5),
        ("T04", Default, t04_self_annotation),
        ("T05", Default, t05_fig6),
        ("T05-w1", W1, t05_w1_fig6),
        ("T06a", Default, t06a_independent_loads),
        ("T06b", Default, t06b_shared_tracker),
        ("T07", Default, t07_saturation),
        ("T07b", Default, t07b_fill_to_max),
        ("T08", Default, t08_group_isolation),
        ("T09", Default, t09_inc_dec_same_cycle),
        ("T10", Default, t10_multi_completion),
        ("T11", Default, t11_fences),
        ("T12a", Default, t12a_fig7_b_first),
        ("T12b", Default, t12b_fig7_a_first),
        ("T12c", Default, t12c_fig7_both),
        ("T12d", Default, t12d_fig7_literal),
        ("T13", Default, t13_empty_mask),
        ("T14", Default, t14_underflow),
        ("T15", Default, t15_clear),
        ("T17:T01", W1, t01_reset),
        ("T17:T02", W1, t02_fig4),
        ("T17:T03", W1, t03_fig5),
        ("T17:T04", W1, t04_self_annotation),
        ("T17:T07", W1, t07_saturation),
        // T07b names its w1 expectation itself ("max 15, or 1 in w1").
        ("T17:T07b", W1, t07b_fill_to_max),
        ("T17:T08", W1, t08_group_isolation),
        ("T17:T11", W1, t11_fences),
        ("T17:T12a", W1, t12a_fig7_b_first),
        ("T17:T12b", W1, t12b_fig7_a_first),
        ("T17:T12c", W1, t12c_fig7_both),
        ("T17:T12d", W1, t12d_fig7_literal),
        ("T17:T13", W1, t13_empty_mask),
        ("T17:T14", W1, t14_underflow),
        ("T17:T15", W1, t15_clear),
        ("X01", Odd, x01_ids_naming_nothing),
        ("X02", Default, x02_clear_precedence),
        ("X03", Sets4, x03_four_branch_sets),
        ("X04", Sets3, x04_three_branch_sets),
        ("X05", Perf, x05_perf_counters),
        ("X06", Fence, x06_implicit_fence),
        ("X07", Gate, x07_branch_fetch_gate),
    ]
}

/// Run every case on a fresh DUT from `make`; all failures, one per line.
pub fn run_all(make: &mut dyn FnMut(&ScoreboardParams) -> Box<dyn Dut<Scoreboard>>) -> Result<(), String> {
    let cases = all_cases().into_iter().map(|(name, kind, case)| (name, (kind, case)));
    crate::kit::run_cases(cases, |(kind, case)| case(make(&kind.params()).as_mut()))
}

/// One expected output value. Counter-indexed signals take (group, tracker).
#[derive(Debug, Clone, Copy)]
enum Exp {
    Ready(bool),
    Fire(bool),
    FetchOk(usize, bool),
    ChkOk(bool),
    SatA(bool),
    SatB(bool),
    Go(bool),
    SelB(bool),
    SatC(bool),
    SatD(bool),
    /// `br_sel`: index of the first satisfied set (A 0, B 1, C 2, D 3).
    Sel(u64),
    Zero(usize, usize, bool),
    Full(usize, usize, bool),
    TgIdle(usize, bool),
    Cnt(usize, usize, u64),
    Underflow(bool),
}
use Exp::*;

impl Exp {
    /// `None` if the output matches, else "signal expected X, actual Y".
    fn mismatch(self, o: &ScoreboardOutputs, ntrk: usize) -> Option<String> {
        fn cmp<T: PartialEq + Debug>(sig: String, exp: T, act: Option<&T>) -> Option<String> {
            match act {
                Some(a) if *a == exp => None,
                Some(a) => Some(format!("{sig} expected {exp:?}, actual {a:?}")),
                None => Some(format!("{sig} expected {exp:?}, actual: no such output")),
            }
        }
        let k = |g: usize, t: usize| g * ntrk + t;
        match self {
            Ready(e) => cmp("iss_ready".into(), e, Some(&o.iss_ready)),
            Fire(e) => cmp("iss_fire".into(), e, Some(&o.iss_fire)),
            FetchOk(g, e) => cmp(format!("fetch_ok[{g}]"), e, o.fetch_ok.get(g)),
            ChkOk(e) => cmp("chk_ok".into(), e, Some(&o.chk_ok)),
            SatA(e) => cmp("br_sat_a".into(), e, Some(&o.br_sat_a)),
            SatB(e) => cmp("br_sat_b".into(), e, Some(&o.br_sat_b)),
            Go(e) => cmp("br_go".into(), e, Some(&o.br_go)),
            SelB(e) => cmp("br_sel_b".into(), e, Some(&o.br_sel_b)),
            SatC(e) => cmp("br_sat_c".into(), e, Some(&o.br_sat_c)),
            SatD(e) => cmp("br_sat_d".into(), e, Some(&o.br_sat_d)),
            Sel(e) => cmp("br_sel".into(), e, Some(&o.br_sel)),
            Zero(g, t, e) => cmp(format!("trk_zero[{g}][{t}]"), e, o.trk_zero.get(k(g, t))),
            Full(g, t, e) => cmp(format!("trk_full[{g}][{t}]"), e, o.trk_full.get(k(g, t))),
            TgIdle(g, e) => cmp(format!("tg_idle[{g}]"), e, o.tg_idle.get(g)),
            Cnt(g, t, e) => cmp(format!("cnt[{g}][{t}]"), e, o.cnt.get(k(g, t))),
            Underflow(e) => cmp("err_underflow".into(), e, Some(&o.err_underflow)),
        }
    }
}

/// A case in progress: the DUT, the cycle counter and a completion schedule.
struct Run<'a> {
    case: &'static str,
    dut: &'a mut dyn Dut<Scoreboard>,
    p: ScoreboardParams,
    cycle: u32,
    /// (cycle, group, tracker): completions added to the inputs of that cycle,
    /// in the order given (first free port first).
    cpl_at: Vec<(u32, u64, u64)>,
}

impl<'a> Run<'a> {
    /// Start a case: one reset cycle, then the next cycle is c0.
    fn new(case: &'static str, dut: &'a mut dyn Dut<Scoreboard>) -> Self {
        let p = dut.params().clone();
        dut.eval(&ScoreboardInputs::idle(&p).with_reset());
        dut.tick();
        Run {
            case,
            dut,
            p,
            cycle: 0,
            cpl_at: Vec::new(),
        }
    }

    /// Schedule completion (g, t) for cycle `c` (as in "cpl(g,t) in cN").
    fn cpl(mut self, c: u32, g: u64, t: u64) -> Self {
        self.cpl_at.push((c, g, t));
        self
    }

    fn idle(&self) -> ScoreboardInputs {
        ScoreboardInputs::idle(&self.p)
    }

    fn iss(&self, g: u64, trk: Option<u64>, dep: u64, nxt: u64) -> ScoreboardInputs {
        self.idle().iss(g, trk, dep, nxt)
    }

    /// One cycle: eval with the scheduled completions added, check `exp`, tick.
    fn step(&mut self, inp: ScoreboardInputs, exp: &[Exp]) -> Result<(), String> {
        let inp = self
            .cpl_at
            .iter()
            .filter(|s| s.0 == self.cycle)
            .fold(inp, |i, &(_, g, t)| i.cpl(g, t));
        let out = self.dut.eval(&inp);
        let bad: Vec<String> = exp
            .iter()
            .filter_map(|e| e.mismatch(&out, self.p.num_trk))
            .collect();
        if !bad.is_empty() {
            return Err(format!("{} c{}: {}", self.case, self.cycle, bad.join("; ")));
        }
        self.dut.tick();
        self.cycle += 1;
        Ok(())
    }

    /// Repeat `step(inp, exp)` up to and including cycle `last`.
    fn until(&mut self, last: u32, inp: ScoreboardInputs, exp: &[Exp]) -> Result<(), String> {
        while self.cycle <= last {
            self.step(inp.clone(), exp)?;
        }
        Ok(())
    }

    /// Issue reorderable instructions of group `g` on `trks`, one per cycle, each
    /// with empty dependency sets; each must fire at once.
    fn issue_all(&mut self, g: u64, trks: &[u64]) -> Result<(), String> {
        for &t in trks {
            self.step(self.iss(g, Some(t), 0, 0), &[Fire(true)])?;
        }
        Ok(())
    }

    /// Expectations of the reset state (T01) over the whole block.
    fn reset_state(&self) -> Vec<Exp> {
        let (ntg, ntrk) = (self.p.num_tg, self.p.num_trk);
        let per_trk = (0..ntg).flat_map(|g| {
            (0..ntrk).flat_map(move |t| [Cnt(g, t, 0), Zero(g, t, true), Full(g, t, false)])
        });
        let per_tg = (0..ntg).flat_map(|g| [TgIdle(g, true), FetchOk(g, true)]);
        per_trk.chain(per_tg).chain([Underflow(false)]).collect()
    }
}

/// T01 (B2, B5): the reset state, queried through every group.
///
/// Addition to the spec: the block is then made dirty (counters, wait mask, error)
/// and reset again, with an issue and a completion presented in the reset cycle, to
/// show that reset clears state and dominates that cycle.
pub fn t01_reset(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T01", dut);
    let all = r.reset_state();
    let ff = r.p.trk_mask();
    for g in 0..r.p.num_tg as u64 {
        // iss_ready does not depend on iss_valid: 1 for the idle (empty) issue inputs.
        let q = [
            ChkOk(true),
            SatA(true),
            SatB(true),
            Go(true),
            SelB(false),
            Ready(true),
            Fire(false),
        ];
        r.step(r.idle().chk(g, ff).br(g, ff, ff), &[&all[..], &q].concat())?;
    }
    let c = r.cycle;
    r = r.cpl(c + 1, 2, 5);
    r.step(r.iss(1, Some(2), 0, 1 << 2), &[Fire(true)])?;
    r.step(r.iss(3, Some(7), 0, 0), &[Fire(true)])?; // + bogus completion (2,5)

    // Reset cycle: outputs still show the old state; iss_fire = iss_valid & iss_ready
    // even under reset (contract), but nothing is updated.
    let inp = r.iss(0, Some(0), 0, 0).cpl(1, 2).clr(3).with_reset();
    r.step(
        inp,
        &[
            Underflow(true),
            Cnt(1, 2, 1),
            Cnt(3, 7, 1),
            FetchOk(1, false),
            Fire(true),
        ],
    )?;
    r.step(r.idle(), &all)
}

/// T02 Fig. 4 (B3, B7–B9): the dependency set on the dependent instruction itself.
pub fn t02_fig4(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T02", dut).cpl(10, 0, 0);
    r.step(r.iss(0, Some(0), 0, 0), &[Fire(true), Cnt(0, 0, 0)])?; // c0 LOAD
    r.step(r.iss(0, None, 0, 0), &[Fire(true), Cnt(0, 0, 1)])?; // c1 MOV, load pending
    let add = r.iss(0, None, 0x01, 0);
    // c2–c10 ADD blocked, including the completion cycle c10 (no bypass).
    r.until(10, add.clone(), &[Ready(false), Fire(false), Cnt(0, 0, 1)])?;
    r.step(add, &[Cnt(0, 0, 0), Ready(true), Fire(true)])?; // c11
    r.step(r.idle(), &[Cnt(0, 0, 0), Underflow(false)])
}

/// T03 Fig. 5 (B10): the dependency set annotated on the preceding instruction gates fetch.
pub fn t03_fig5(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T03", dut).cpl(10, 0, 0);
    r.step(r.iss(0, Some(0), 0, 0), &[Fire(true)])?; // c0 LOAD
    r.step(r.iss(0, None, 0, 0x01), &[FetchOk(0, true), Fire(true)])?; // c1 MOV
    let add = r.iss(0, None, 0, 0);
    r.until(
        10,
        add.clone(),
        &[FetchOk(0, false), Ready(false), Cnt(0, 0, 1)],
    )?; // c2–c10
    r.step(add, &[FetchOk(0, true), Fire(true), Cnt(0, 0, 0)])?; // c11

    // "fetch_ok[0] stays 1 (ADD's own annotation is empty)": shown with a new load on
    // tracker 0 in flight, so only the replaced (empty) wait mask can keep it open.
    r.step(r.iss(0, Some(0), 0, 0), &[FetchOk(0, true), Fire(true)])?; // c12
    r.step(r.idle(), &[FetchOk(0, true), Cnt(0, 0, 1)]) // c13
}

/// T04 (B10): a producer annotating its own tracker closes its group's fetch only.
/// Addition: TG1's next instruction is presented in c1–c5 to show fetch_ok gates iss_ready.
pub fn t04_self_annotation(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T04", dut).cpl(4, 1, 2);
    r.step(
        r.iss(1, Some(2), 0, 1 << 2),
        &[Fire(true), FetchOk(1, true)],
    )?; // c0
    let next = r.iss(1, None, 0, 0);
    let blocked = [
        FetchOk(1, false),
        Ready(false),
        Cnt(1, 2, 1),
        TgIdle(1, false),
    ];
    let others = [FetchOk(0, true), FetchOk(2, true), FetchOk(3, true)];
    r.until(4, next.clone(), &[&blocked[..], &others].concat())?; // c1–c4
    r.step(
        next,
        &[FetchOk(1, true), Fire(true), Cnt(1, 2, 0), TgIdle(1, true)],
    ) // c5
}

/// Fig. 6 (T05, T05-w1) from c10 on: ST4 fired in c9 on tracker 2 with ST1 (tracker 0)
/// still outstanding; ST1 completes in c12, ST4 in c15.
fn fig6_tail(r: &mut Run) -> Result<(), String> {
    r.step(r.idle(), &[Cnt(0, 2, 1), Cnt(0, 0, 1)])?; // c10
    r.until(
        12,
        r.idle(),
        &[Cnt(0, 0, 1), Cnt(0, 2, 1), TgIdle(0, false)],
    )?; // c11–c12
    r.until(
        15,
        r.idle(),
        &[Cnt(0, 0, 0), Cnt(0, 2, 1), TgIdle(0, false)],
    )?; // c13–c15
    r.step(r.idle(), &[TgIdle(0, true), Underflow(false)]) // c16
}

/// T05 Fig. 6 (B13, B14): ST2 and ST3 share tracker 1 and complete out of order; ST4
/// waits for both but not for ST1.
pub fn t05_fig6(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T05", dut)
        .cpl(5, 0, 1)
        .cpl(8, 0, 1)
        .cpl(12, 0, 0)
        .cpl(15, 0, 2);
    r.issue_all(0, &[0, 1, 1])?; // c0 ST1, c1 ST2, c2 ST3
    let st4 = r.iss(0, Some(2), 0x02, 0);
    r.step(st4.clone(), &[Ready(false), Cnt(0, 0, 1), Cnt(0, 1, 2)])?; // c3
    r.until(5, st4.clone(), &[Ready(false), Cnt(0, 1, 2)])?; // c4–c5
    r.until(8, st4.clone(), &[Ready(false), Cnt(0, 1, 1)])?; // c6–c8
    r.step(st4, &[Fire(true), Cnt(0, 0, 1), Cnt(0, 1, 0)])?; // c9
    fig6_tail(&mut r)
}

/// T05-w1 Fig. 6 with 1-bit counters (B11–B13): ST3 waits for slot 1 to drain.
/// The spec gives no completion for ST1/ST4 in this variant; T05's (c12, c15) are used.
pub fn t05_w1_fig6(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T05-w1", dut)
        .cpl(4, 0, 1)
        .cpl(8, 0, 1)
        .cpl(12, 0, 0)
        .cpl(15, 0, 2);
    r.issue_all(0, &[0, 1])?; // c0 ST1, c1 ST2
    let st3 = r.iss(0, Some(1), 0, 0);
    r.until(
        4,
        st3.clone(),
        &[Ready(false), Full(0, 1, true), Cnt(0, 1, 1)],
    )?; // c2–c4
    r.step(st3, &[Fire(true), Full(0, 1, false), Cnt(0, 1, 0)])?; // c5
    let st4 = r.iss(0, Some(2), 0x02, 0);
    r.until(8, st4.clone(), &[Ready(false), Cnt(0, 1, 1)])?; // c6–c8
    r.step(st4, &[Fire(true), Cnt(0, 0, 1), Cnt(0, 1, 0)])?; // c9
    fig6_tail(&mut r)
}

/// T06a (patent \[0043\]): independent loads on different trackers; use(B) does not wait for LA.
pub fn t06a_independent_loads(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T06a", dut).cpl(5, 0, 1);
    r.issue_all(0, &[0, 1])?; // c0 LA, c1 LB
    let use_b = r.iss(0, None, 0x02, 0);
    r.until(5, use_b.clone(), &[Ready(false), Cnt(0, 1, 1)])?; // c2–c5
    r.step(use_b, &[Fire(true), Cnt(0, 0, 1), Cnt(0, 1, 0)]) // c6
}

/// T06b (patent \[0043\], B13): the same loads sharing tracker 0; use(B) waits for both.
pub fn t06b_shared_tracker(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T06b", dut).cpl(5, 0, 0).cpl(8, 0, 0);
    r.issue_all(0, &[0, 0])?; // c0 LA, c1 LB
    let use_b = r.iss(0, None, 0x01, 0);
    r.until(5, use_b.clone(), &[Ready(false), Cnt(0, 0, 2)])?; // c2–c5
    r.until(8, use_b.clone(), &[Ready(false), Cnt(0, 0, 1)])?; // c6–c8
    r.step(use_b, &[Fire(true), Cnt(0, 0, 0)]) // c9
}

/// T07 saturation (B11, B12): tracker 7 (max 1).
pub fn t07_saturation(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T07", dut).cpl(4, 0, 7);
    let i07 = r.iss(0, Some(7), 0, 0);
    r.step(i07.clone(), &[Fire(true), Full(0, 7, false)])?; // c0
    r.step(
        i07.clone(),
        &[Ready(false), Fire(false), Full(0, 7, true), Cnt(0, 7, 1)],
    )?; // c1
    r.step(r.iss(1, Some(7), 0, 0), &[Fire(true), Full(1, 7, false)])?; // c2: TG1 isolated

    // c3–c4 not ready, including the completion cycle c4 (no bypass).
    r.until(4, i07.clone(), &[Ready(false), Full(0, 7, true)])?;
    r.step(i07, &[Cnt(0, 7, 0), Fire(true)])?; // c5
    r.step(r.idle(), &[Cnt(0, 7, 1), Full(0, 7, true), Cnt(1, 7, 1)]) // c6
}

/// T07b (B11): fill tracker 0 to its maximum (15, or 1 in w1), one more stalls,
/// tracker 1 of the same group still issues.
pub fn t07b_fill_to_max(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T07b", dut);
    let max = r.p.trk_max[0];
    for n in 0..max {
        r.step(
            r.iss(0, Some(0), 0, 0),
            &[Fire(true), Cnt(0, 0, n), Full(0, 0, false)],
        )?;
    }
    r.step(
        r.iss(0, Some(0), 0, 0),
        &[Ready(false), Cnt(0, 0, max), Full(0, 0, true)],
    )?;
    r.step(r.iss(0, Some(1), 0, 0), &[Fire(true)])?;
    r.step(r.idle(), &[Cnt(0, 1, 1), Cnt(0, 0, max)])
}

/// T08 per-group isolation (B1). The single chk port is queried one cycle at a time.
pub fn t08_group_isolation(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T08", dut);
    r.step(r.iss(1, Some(0), 0, 0), &[Fire(true)])?; // c0
    let c1 = r.iss(0, None, 0x01, 0).chk(1, 0x01);
    r.step(c1, &[Fire(true), ChkOk(false), Cnt(1, 0, 1), Cnt(0, 0, 0)])?; // c1
    r.step(r.idle().chk(0, 0x01), &[ChkOk(true)])?; // c2
    r.step(r.idle().chk(1, 0xFE), &[ChkOk(true)]) // c3
}

/// T09 (§6.4.2): increment and decrement of one counter in the same cycle net out.
pub fn t09_inc_dec_same_cycle(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T09", dut).cpl(1, 0, 3);
    r.issue_all(0, &[3])?; // c0
    r.step(r.iss(0, Some(3), 0, 0), &[Fire(true), Cnt(0, 3, 1)])?; // c1 + cpl(0,3)
    r.step(r.idle(), &[Cnt(0, 3, 1), Underflow(false)]) // c2
}

/// T10: two completions to one counter in one cycle; then a legal and a bogus one.
pub fn t10_multi_completion(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T10", dut)
        .cpl(3, 2, 3)
        .cpl(3, 2, 3)
        .cpl(4, 2, 4)
        .cpl(4, 3, 4);
    r.issue_all(2, &[3, 3, 4])?; // c0–c2
    r.step(r.idle(), &[Cnt(2, 3, 2), Cnt(2, 4, 1)])?; // c3: both ports cpl(2,3)
    r.step(r.idle(), &[Cnt(2, 3, 0), Underflow(false)])?; // c4: cpl(2,4), bogus cpl(3,4)
    r.step(
        r.idle(),
        &[
            Cnt(2, 4, 0),
            Cnt(3, 4, 0),
            Zero(3, 4, true),
            Underflow(true),
        ],
    )?; // c5
    r.step(r.idle(), &[Underflow(true)]) // c6: sticky
}

/// T11 fences (B17, B18): a full fence (dep 0xFF) and a load-fence query chk(0,0x01).
pub fn t11_fences(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T11", dut).cpl(4, 0, 5).cpl(6, 0, 0).cpl(9, 0, 3);
    r.issue_all(0, &[0, 3, 5])?; // c0 LD, c1 ST, c2 TEX
    let fence = r.iss(0, None, 0xFF, 0).chk(0, 0x01);
    r.step(
        fence.clone(),
        &[
            Ready(false),
            ChkOk(false),
            Cnt(0, 0, 1),
            Cnt(0, 3, 1),
            Cnt(0, 5, 1),
        ],
    )?; // c3
    r.until(6, fence.clone(), &[Ready(false), ChkOk(false)])?; // c4–c6
    r.until(9, fence.clone(), &[Ready(false), ChkOk(true)])?; // c7–c9
    r.step(fence, &[Fire(true), ChkOk(true), TgIdle(0, true)]) // c10
}

/// Fig. 7 scoreboard branch: LA on tracker 0 (c0), LB on tracker 1 (c1), branch
/// A={0} / B=`mask_b` presented from c2 with completions (cycle, tracker) of group 0.
/// The branch stalls (nothing satisfied) until cycle `go`, which must show (sat_a, sat_b).
fn fig7(
    case: &'static str,
    dut: &mut dyn Dut<Scoreboard>,
    mask_b: u64,
    cpls: &[(u32, u64)],
    go: u32,
    (sat_a, sat_b): (bool, bool),
) -> Result<(), String> {
    let mut r = cpls
        .iter()
        .fold(Run::new(case, dut), |r, &(c, t)| r.cpl(c, 0, t));
    r.issue_all(0, &[0, 1])?;
    let br = r.idle().br(0, 0x01, mask_b);
    r.until(
        go - 1,
        br.clone(),
        &[Go(false), SatA(false), SatB(false), SelB(false)],
    )?;
    r.step(
        br,
        &[Go(true), SatA(sat_a), SatB(sat_b), SelB(!sat_a && sat_b)],
    )
}

/// T12a Fig. 7, B first (B20): completion of LB (c5) → fall through (`br_sel_b`).
pub fn t12a_fig7_b_first(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    fig7("T12a", dut, 0x02, &[(5, 1)], 6, (false, true))
}

/// T12b Fig. 7, A first: completion of LA (c5) → branch taken.
pub fn t12b_fig7_a_first(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    fig7("T12b", dut, 0x02, &[(5, 0)], 6, (true, false))
}

/// T12c: both complete in c5 → both satisfied, set A has priority (§8 item 2).
pub fn t12c_fig7_both(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    fig7("T12c", dut, 0x02, &[(5, 0), (5, 1)], 6, (true, true))
}

/// T12d: the literal reading B={0,1} (§8 item 1). LB completes in c5, yet the branch
/// still stalls c6–c8; LA completes in c8 and A is chosen in c9 (B can never win).
pub fn t12d_fig7_literal(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    fig7("T12d", dut, 0x03, &[(5, 1), (8, 0)], 9, (true, true))
}

/// T13 empty mask (B9): with every tracker of TG3 busy, an instruction without
/// dependencies still fires.
pub fn t13_empty_mask(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T13", dut);
    let ntrk = r.p.num_trk;
    r.issue_all(3, &(0..ntrk as u64).collect::<Vec<_>>())?; // c0–c7
    r.step(
        r.iss(3, None, 0, 0).chk(3, 0),
        &[Fire(true), ChkOk(true), TgIdle(3, false)],
    )?; // c8
    let busy: Vec<Exp> = (0..ntrk).map(|t| Zero(3, t, false)).collect();
    r.step(
        r.idle().chk(3, 0x80),
        &[&busy[..], &[ChkOk(false), FetchOk(3, true)]].concat(),
    ) // c9
}

/// T14 underflow: a completion on an idle tracker sets the sticky flag, the counter
/// stays 0. Additions (contract): a thread-group clear does not reset the flag, reset
/// does; two completions on a counter of 1 in one cycle also underflow.
pub fn t14_underflow(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T14", dut).cpl(0, 1, 6).cpl(7, 0, 0).cpl(7, 0, 0);
    r.step(r.idle(), &[Underflow(false), Cnt(1, 6, 0)])?; // c0 cpl(1,6)
    r.until(
        3,
        r.idle(),
        &[Underflow(true), Cnt(1, 6, 0), Zero(1, 6, true)],
    )?; // c1–c3
    r.step(r.idle().clr(1), &[Underflow(true)])?; // c4
    r.step(r.idle().with_reset(), &[Underflow(true)])?; // c5
    r.issue_all(0, &[0])?; // c6
    r.step(r.idle(), &[Underflow(false), Cnt(0, 0, 1)])?; // c7: two cpl(0,0)
    r.step(r.idle(), &[Underflow(true), Cnt(0, 0, 0)]) // c8
}

/// T15 clear: clearing a busy group (the spec stimulus, although §6.3 calls a clear
/// legal only while `tg_idle`) zeroes its counters and wait mask.
pub fn t15_clear(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("T15", dut);
    r.step(r.iss(2, Some(4), 0, 1 << 4), &[Fire(true)])?; // c0
    r.step(
        r.idle().clr(2),
        &[FetchOk(2, false), TgIdle(2, false), Cnt(2, 4, 1)],
    )?; // c1
    r.step(
        r.idle(),
        &[
            FetchOk(2, true),
            TgIdle(2, true),
            Cnt(2, 4, 0),
            Underflow(false),
        ],
    ) // c2
}

/// X01 (contract): with NUM_TG=3 and NUM_TRK=5, group id 3 and tracker ids 5–7 name
/// nothing: no issue/check/branch is satisfied for them, a completion naming them is
/// an underflow, a clear naming them has no effect.
pub fn x01_ids_naming_nothing(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("X01", dut).cpl(4, 2, 4).cpl(4, 1, 7).cpl(6, 3, 0);
    let none = [
        Ready(false),
        Fire(false),
        ChkOk(false),
        SatA(false),
        SatB(false),
        Go(false),
        SelB(false),
    ];
    r.step(r.iss(3, None, 0, 0).chk(3, 0).br(3, 0, 0), &none)?; // c0
    r.step(r.iss(2, Some(5), 0, 0), &[Ready(false)])?; // c1
    r.step(r.iss(2, Some(4), 0, 0x10), &[Fire(true), Full(2, 4, false)])?; // c2 (max 2)
    r.step(r.idle().clr(3), &[Cnt(2, 4, 1), FetchOk(2, false)])?; // c3

    // c4: a legal completion (2,4) on port 0 and a bogus one (1,7) on port 1.
    r.step(
        r.idle(),
        &[Cnt(2, 4, 1), FetchOk(2, false), Underflow(false)],
    )?;
    r.step(r.idle(), &[Cnt(2, 4, 0), FetchOk(2, true), Underflow(true)])?; // c5
    r.step(r.idle().with_reset(), &[Underflow(true)])?; // c6: cpl(3,0) under reset

    // c7: a bogus completion (3,1) on the last port only.
    let last_port = r.idle().cpl_on(r.p.num_cpl - 1, 3, 1);
    r.step(last_port, &[Underflow(false)])?;
    r.step(r.idle(), &[Underflow(true)]) // c8
}

/// X02 (contract): a clear overrides that group's same-cycle issue (increment and wait
/// mask) and completion, leaves other groups alone, and does not mask the underflow
/// of a completion on a zero counter.
pub fn x02_clear_precedence(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("X02", dut).cpl(2, 2, 4).cpl(3, 2, 4);
    r.step(r.iss(2, Some(4), 0, 0), &[Fire(true)])?; // c0
    r.step(r.iss(1, Some(0), 0, 0x01), &[Fire(true)])?; // c1

    // c2: TG2 issues on tracker 4 with wait mask {4}, completes one on 4, and is cleared.
    r.step(
        r.iss(2, Some(4), 0, 0x10).clr(2),
        &[Fire(true), Cnt(2, 4, 1)],
    )?;
    // (The cleared wait mask itself is unobservable: after a clear every counter of the
    // group is 0, and only a fire of that group, which replaces the mask, makes one busy.)
    let after = [
        Cnt(2, 4, 0),
        FetchOk(2, true),
        TgIdle(2, true),
        Cnt(1, 0, 1),
        FetchOk(1, false),
    ];
    // c3: clear of TG2 together with a completion on its (zero) tracker 4.
    r.step(r.idle().clr(2), &[&after[..], &[Underflow(false)]].concat())?;
    r.step(r.idle(), &[&after[..], &[Underflow(true)]].concat()) // c4
}

/// X03 (`branch_sets` = 4, rule SB2): loads on trackers 0–3 of group 0 (c0–c3), then a branch
/// A={0}, B={1}, C={2}, D={3}. The trackers drain in the order 2, 3, 1, 0 (completions in
/// c4–c7), so the branch goes, by the rule, nowhere (stall), to C (only C), to C (C and D: the
/// earlier set wins), to B, to A. In c5 a second branch shows D alone (C={0} busy, D={2}
/// drained), and in c10 an empty D is satisfied while A, B, C wait. `br_sel_b` does not exist
/// at 4 sets and reads 0.
pub fn x03_four_branch_sets(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("X03", dut).cpl(4, 0, 2).cpl(5, 0, 3).cpl(6, 0, 1).cpl(7, 0, 0);
    r.issue_all(0, &[0, 1, 2, 3])?; // c0–c3
    let br = r.idle().br(0, 0x01, 0x02).br_cd(0x04, 0x08);
    let sats = |a, b, c, d| [SatA(a), SatB(b), SatC(c), SatD(d), SelB(false)];
    let exp = |sat: [Exp; 5], go, sel| [&sat[..], &[Go(go), Sel(sel)]].concat();
    r.step(br.clone(), &exp(sats(false, false, false, false), false, 0))?; // c4: none, stall
    // c5: only tracker 2 drained: only C. The other branch: C={0} busy, D={2}: only D.
    let only_d = r.idle().br(0, 0x01, 0x02).br_cd(0x01, 0x04);
    r.step(only_d, &exp(sats(false, false, false, true), true, 3))?;
    r.step(br.clone(), &exp(sats(false, false, true, true), true, 2))?; // c6: C and D: C
    r.step(br.clone(), &exp(sats(false, true, true, true), true, 1))?; // c7: B first
    r.step(br.clone(), &exp(sats(true, true, true, true), true, 0))?; // c8: A first
    // c9: tracker 3 busy again; A, B, C wait on it, D is empty (always satisfied).
    r.issue_all(0, &[3])?;
    let empty_d = r.idle().br(0, 0x08, 0x08).br_cd(0x08, 0);
    r.step(empty_d, &exp(sats(false, false, false, true), true, 3)) // c10
}

/// X04 (`branch_sets` = 3, rule SB2): loads on trackers 0–2 of group 0, a branch A={0},
/// B={1}, C={2}; `br_mask_d` (no such port at 3 sets) is driven empty and must not count.
/// Nothing drained: stall; tracker 2 drains: C (`br_sel` 2); tracker 0 too: A.
pub fn x04_three_branch_sets(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("X04", dut).cpl(3, 0, 2).cpl(4, 0, 0);
    r.issue_all(0, &[0, 1, 2])?; // c0–c2
    let br = r.idle().br(0, 0x01, 0x02).br_cd(0x04, 0);
    let exp = |a, b, c, go, sel| [SatA(a), SatB(b), SatC(c), SatD(false), SelB(false), Go(go), Sel(sel)];
    r.step(br.clone(), &exp(false, false, false, false, 0))?; // c3: stall
    r.step(br.clone(), &exp(false, false, true, true, 2))?; // c4: only C
    r.step(br, &exp(true, false, true, true, 0)) // c5: A and C: A
}
