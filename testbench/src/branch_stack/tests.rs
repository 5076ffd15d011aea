//! Unit tests: the directed cases on the model, mutants of the model that the directed
//! cases must reject, and property checks and coverage of the model under random load.

use super::BranchStack;
use super::directed::{self, all_cases, run_all, ParamsKind};
use super::stimulus::{BranchStackStimulus, Coverage};
use super::*;

fn model_factory(p: &BranchStackParams) -> Box<dyn Dut<BranchStack>> {
    Box::new(ModelDut::new(p))
}

#[test]
fn directed_cases_pass_on_model() {
    run_all(&mut model_factory).unwrap();
}

#[test]
fn case_table_covers_spec_list() {
    let names: Vec<&str> = all_cases().iter().map(|c| c.0).collect();
    for n in 1..=26 {
        let id = format!("TC-{n:02}");
        assert!(
            names.contains(&id.as_str()),
            "{id} missing from all_cases()"
        );
    }
    for kind in [ParamsKind::Depth2, ParamsKind::Depth32, ParamsKind::Nsrc1] {
        assert!(
            all_cases().iter().any(|c| c.1 == kind),
            "no case on {kind:?}"
        );
    }
}

/// Ways to get the branch stack wrong; each must fail at least one directed case.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mutation {
    /// A compound branch takes its first operand from S and its second from R.
    SwapRs,
    /// The producer's pop/push happens before the branch pops.
    PushBeforePop,
    /// A push onto a full stack is dropped instead of the bottom entry.
    NoOverflowDrop,
    /// BRANCH_T0 has priority over BRANCH_T1.
    T0OverT1,
    /// `err_clr` wins over a set in the same cycle.
    ClearWins,
    /// `de_off` is zero-extended.
    NoSignExtend,
    /// The branch sees the push of its own cycle.
    BranchSeesPush,
    /// The lowest active producer wins.
    LowestProducerWins,
    /// A port-limit violation suppresses only the producer's pop: PP still pushes.
    PortKeepsPush,
    /// `pc_hold` freezes `pc` but not `branch_t0_q`/`t0pc_q`.
    HoldFreezesPcOnly,
    /// `br_taken` is not gated by `de_br_vld`.
    VldIgnored,
    /// A compound branch pops one entry.
    CompoundPopsOne,
    /// Producers with `cc_vld` and DN count towards `err_multi`.
    DnCountsAsActive,
    /// `err_udf` only for pops on an empty stack.
    UdfOnlyWhenEmpty,
    /// Error flags are one-cycle pulses.
    ErrNotSticky,
    ResetKeepsErrors,
    ResetKeepsT0pc,
    /// An event of a `perf_clr` cycle is counted (the clear loses).
    PerfClrLoses,
    /// A producer pop stopped by the port limit is counted as a pop.
    PopCountsSuppressed,
    /// G3: the port limit also stops a producer pop of another group (dropped, `err_port`).
    PortLimitIgnoresGroup,
    /// G5: a T0 lands on the fetched group instead of the branch's.
    T0ToFetchedGroup,
    /// G7: `pc_hold` keeps the restored group's PC.
    HoldBeatsRestore,
}

/// The model with one [`Mutation`], applied to its inputs, outputs or next state.
struct Mutant {
    m: BranchStackModel,
    last: BranchStackInputs,
    kind: Mutation,
}

impl Mutant {
    fn new(p: &BranchStackParams, kind: Mutation) -> Self {
        Mutant {
            m: BranchStackModel::new(p),
            last: BranchStackInputs::idle(p),
            kind,
        }
    }
}

/// The inputs without the branch in DE.
fn producers_only(i: &BranchStackInputs) -> BranchStackInputs {
    BranchStackInputs {
        de_br_vld: false,
        ..i.clone()
    }
}

/// Stages with `cc_vld` and a non-DN operation.
fn active(i: &BranchStackInputs) -> Vec<usize> {
    (0..i.cc_vld.len())
        .filter(|&k| i.cc_vld[k] && StackOp::from_bits(i.cc_sop[k]) != StackOp::Dn)
        .collect()
}

impl Dut<BranchStack> for Mutant {
    fn params(&self) -> &BranchStackParams {
        self.m.params()
    }

    fn eval(&mut self, inp: &BranchStackInputs) -> BranchStackOutputs {
        use Mutation::*;
        self.last = inp.clone();
        let mut o = self.m.outputs(inp);
        let p = self.m.params();
        match self.kind {
            SwapRs if inp.de_br_vld && inp.de_br_cmp => {
                let bit = |v: u8, z: u8| (v >> if z & 1 == 1 { 0 } else { 2 }) & 1 == 1;
                let (a, b) = (bit(o.cc_s, inp.de_br_f), bit(o.cc_r, inp.de_br_g));
                o.br_taken = BoolOp::from_bits(inp.de_br_op).apply(a, b);
            }
            NoSignExtend => {
                let sum = (inp.de_pc & p.pc_mask()).wrapping_add(inp.de_off & p.off_mask());
                o.br_target = sum & p.pc_mask();
            }
            VldIgnored => {
                let valid = BranchStackInputs {
                    de_br_vld: true,
                    ..inp.clone()
                };
                o.br_taken = self.m.outputs(&valid).br_taken;
            }
            BranchSeesPush => {
                let mut early = self.m.clone();
                early.clock(&producers_only(inp));
                o.br_taken = early.outputs(inp).br_taken;
            }
            _ => {}
        }
        o
    }

    fn tick(&mut self) {
        use Mutation::*;
        let i = self.last.clone();
        if self.kind == T0ToFetchedGroup {
            self.m.t0_tg_q = self.m.params().tg(i.fe_tg);
        }
        let pre = self.m.clone();
        let e = pre.effect(&i);
        let cross_port = self.kind == PortLimitIgnoresGroup && e.kd == 2 && e.op.pops() && e.p_tg != e.de_tg;
        let lowest_wins = self.kind == LowestProducerWins && e.active > 1;
        let pp_port = self.kind == PortKeepsPush && e.err.port && e.op == StackOp::Pp;

        let mut j = i.clone();
        if lowest_wins {
            active(&i).iter().skip(1).for_each(|&k| j.cc_vld[k] = false);
        }
        if pp_port {
            j.cc_sop[e.producer.unwrap()] = StackOp::Pu.bits();
        }
        if self.kind == CompoundPopsOne {
            j.de_br_cmp = false;
        }
        if cross_port {
            j.cc_vld[e.producer.unwrap()] = false;
        }
        self.m.clock(&j);

        if i.reset {
            match self.kind {
                ResetKeepsErrors => self.m.err = pre.err,
                ResetKeepsT0pc => self.m.t0pc_q = pre.t0pc_q,
                _ => {}
            }
            return;
        }
        let m = &mut self.m;
        match self.kind {
            PushBeforePop => {
                let mut late = pre.clone();
                late.clock(&producers_only(&i));
                late.clock(&BranchStackInputs {
                    cc_vld: Vec::new(),
                    ..i.clone()
                });
                m.stacks = late.stacks;
            }
            NoOverflowDrop if e.err.ovf => m.stacks = pre.stacks,
            T0OverT1 if !i.pc_hold && i.ex_branch_t1 && pre.branch_t0_q => m.pcs[pre.t0_tg_q] = pre.t0pc_q,
            PortLimitIgnoresGroup if cross_port => m.err.port = true,
            HoldBeatsRestore if i.pc_hold && i.rs_valid => {
                let g = m.params().tg(i.rs_tg);
                m.pcs[g] = pre.pcs[g];
            }
            ClearWins if i.err_clr => m.err = ErrFlags::default(),
            LowestProducerWins if lowest_wins => m.err.multi = true,
            PortKeepsPush if pp_port => m.err.port = true,
            HoldFreezesPcOnly if i.pc_hold => {
                let o = pre.outputs(&i);
                m.branch_t0_q = o.br_taken;
                m.t0pc_q = o.br_target;
            }
            DnCountsAsActive if i.cc_vld.iter().filter(|&&v| v).count() > 1 => m.err.multi = true,
            UdfOnlyWhenEmpty if e.err.udf && !pre.stacks[e.de_tg].is_empty() => {
                m.err.udf = pre.err.udf && !i.err_clr
            }
            ErrNotSticky => m.err = e.err,
            PerfClrLoses if i.perf_clr => {
                let ev = model::perf::events(&e, &pre.outputs(&i), &i);
                m.perf.iter_mut().zip(ev).for_each(|(c, v)| *c = u32::from(v));
            }
            PopCountsSuppressed if e.suppressed && e.op.pops() && !i.perf_clr && !m.perf.is_empty() => {
                m.perf[model::perf::POP] += 1;
            }
            _ => {}
        }
    }
}

/// Every mutant fails the whole suite, and in particular the case named here.
#[test]
fn directed_cases_kill_every_mutant() {
    use Mutation::*;
    for (kind, case) in [
        (SwapRs, "TC-10"),
        (PushBeforePop, "TC-14"),
        (NoOverflowDrop, "TC-20"),
        (T0OverT1, "TC-23"),
        (ClearWins, "TC-22"),
        (NoSignExtend, "TC-24"),
        (BranchSeesPush, "TC-17"),
        (LowestProducerWins, "TC-19"),
        (PortKeepsPush, "TC-16"),
        (HoldFreezesPcOnly, "TC-23"),
        (VldIgnored, "TC-26"),
        (CompoundPopsOne, "TC-08"),
        (DnCountsAsActive, "TC-03"),
        (UdfOnlyWhenEmpty, "TC-21"),
        (ErrNotSticky, "TC-22"),
        (ResetKeepsErrors, "TC-01"),
        (ResetKeepsT0pc, "TC-01"),
        (PerfClrLoses, "X05"),
        (PopCountsSuppressed, "X05"),
        (PortLimitIgnoresGroup, "X07"),
        (T0ToFetchedGroup, "X08"),
        (HoldBeatsRestore, "X09"),
    ] {
        let res = run_all(&mut |p| Box::new(Mutant::new(p, kind)));
        let err = res.expect_err(&format!("mutant {kind:?} passes every directed case"));
        assert!(
            err.contains(&format!("[{case}]")),
            "mutant {kind:?} not caught by {case}:\n{err}"
        );
    }
}

/// A failing check reports case, cycle, signal, expected and actual value.
#[test]
fn failure_message_names_case_cycle_signal() {
    let p = ParamsKind::Default.params();
    let mut dut = Mutant::new(&p, Mutation::SwapRs);
    let err = directed::tc10_rs_order(&mut dut).unwrap_err();
    assert_eq!(err, "TC-10a c2: br_taken expected 0, actual 1");
    let mut dut = Mutant::new(&p, Mutation::NoOverflowDrop);
    let err = directed::tc20_overflow(&mut dut).unwrap_err();
    assert_eq!(
        err,
        "TC-20a c5: cc_r expected 4'b0101, actual 4'b0100; cc_s expected 4'b0100, actual 4'b0011"
    );
}

/// Parameter sets for the random runs: the lockstep configurations (DEPTH 2, 4, 32 ×
/// NSRC 1, 3) and the extreme widths.
fn random_params() -> Vec<BranchStackParams> {
    let mut v: Vec<BranchStackParams> = [2, 4, 32]
        .into_iter()
        .flat_map(|d| [1, 3].map(|n| BranchStackParams::with_shape(d, n)))
        .collect();
    v.extend([ParamsKind::Narrow, ParamsKind::Tiny, ParamsKind::Wide].map(|k| k.params()));
    // The options: cnvz, stall with three and one producer stages, both at depth 2.
    let d = BranchStackParams::spec_default();
    v.extend([d.clone().cnvz(), d.clone().stall(), BranchStackParams::with_shape(4, 1).stall()]);
    v.push(BranchStackParams::with_shape(2, 3).stall().cnvz());
    // thread_groups (G1–G7): 2 groups, 4 at "drop" and 32 at "stall" (the lockstep shapes).
    v.extend([d.clone().groups(2), d.clone().groups(4), BranchStackParams::with_shape(3, 3).stall().groups(32).perf()]);
    v
}

/// Properties of one cycle (spec §5.5 assertions and more); `prev` is the previous
/// cycle's (inputs, outputs).
fn check_cycle(
    p: &BranchStackParams,
    prev: Option<&(BranchStackInputs, BranchStackOutputs)>,
    i: &BranchStackInputs,
    o: &BranchStackOutputs,
    legal: bool,
) -> Result<(), String> {
    let cnt = o.cc_cnt;
    let fail = |what: &str| Err(format!("{what}: {o:?}"));
    if cnt > p.depth as u64 || o.cc_r_vld != (cnt != 0) || o.cc_s_vld != (cnt > 1) {
        return fail("cc_cnt / cc_r_vld / cc_s_vld inconsistent");
    }
    if o.cc_r > 15 || o.cc_s > 15 || (!o.cc_r_vld && o.cc_r != 0) || (!o.cc_s_vld && o.cc_s != 0) {
        return fail("cc_r / cc_s out of range or not 0 when absent");
    }
    if o.pc > p.pc_mask() || o.npc != p.next_pc(o.pc) || o.br_target > p.pc_mask() {
        return fail("pc / npc / br_target");
    }
    if o.br_taken && !i.de_br_vld {
        return fail("br_taken without de_br_vld");
    }
    if legal && (i.pc_hold && i.de_br_vld || o.err_multi || o.err_port) {
        return fail("illegal event in a legal run");
    }
    let Some((pi, po)) = prev else {
        return Ok(());
    };
    let errs = |x: &BranchStackOutputs| [x.err_ovf, x.err_udf, x.err_port, x.err_multi];
    if pi.reset {
        let clean = cnt == 0 && o.pc == p.reset_pc && !o.branch_t0_q && o.t0pc_q == 0;
        return if clean && errs(o) == [false; 4] {
            Ok(())
        } else {
            fail("not in the reset state after reset")
        };
    }
    if !pi.err_clr && errs(po).iter().zip(errs(o)).any(|(&was, now)| was && !now) {
        return fail("error flag dropped without err_clr");
    }
    if p.tgs > 1 {
        // G5: the T0 registers; the PCs and counts are per group (checked by the stimulus's
        // own counts and the directed cases).
        let t0 = (o.branch_t0_q, o.t0pc_q, o.t0_tg_q);
        let want = if pi.pc_hold { (po.branch_t0_q, po.t0pc_q, po.t0_tg_q) } else { (po.br_taken, po.br_target, p.tg(pi.de_tg) as u8) };
        if t0 != want {
            return fail("T0 registers");
        }
        if o.sv_stack.len() != p.depth || o.sv_stack.iter().skip(o.sv_cnt as usize).any(|&v| v != 0) {
            return fail("sv_stack: depth entries, 0 at and above sv_cnt");
        }
        return Ok(());
    }
    let step = cnt as i64 - po.cc_cnt as i64;
    if !(-2..=1).contains(&step) {
        return fail("cc_cnt moved by more than -2/+1");
    }
    let dfc = (o.pc, o.branch_t0_q, o.t0pc_q);
    if pi.pc_hold {
        if dfc != (po.pc, po.branch_t0_q, po.t0pc_q) {
            return fail("pc_hold did not freeze pc / branch_t0_q / t0pc_q");
        }
    } else {
        let pc = if pi.ex_branch_t1 {
            pi.ex_t1pc & p.pc_mask()
        } else if po.branch_t0_q {
            po.t0pc_q
        } else {
            po.npc
        };
        if dfc != (pc, po.br_taken, po.br_target) {
            return fail("data flow controller");
        }
    }
    Ok(())
}

/// Model + stimulus with the property checks; returns the coverage.
fn random_run(
    p: &BranchStackParams,
    seed: u64,
    allow_errors: bool,
    cycles: u64,
) -> Result<Coverage, String> {
    let mut m = BranchStackModel::new(p);
    let mut stim = BranchStackStimulus::new(p, seed).allow_errors(allow_errors);
    let mut cov = Coverage::new(p, allow_errors);
    let mut prev: Option<(BranchStackInputs, BranchStackOutputs)> = None;
    for cycle in 0..cycles {
        let last = prev.as_ref().map(|x| x.1.clone()).unwrap_or_default();
        let i = stim.next(&last);
        let o = m.outputs(&i);
        let ctx = |e: String| format!("{p:?} seed {seed} cycle {cycle}: {e}");
        check_cycle(p, prev.as_ref(), &i, &o, !allow_errors).map_err(ctx)?;
        if o.cc_cnt != stim.cnt() as u64 {
            return Err(ctx(format!(
                "cc_cnt {}, stimulus counts {}",
                o.cc_cnt,
                stim.cnt()
            )));
        }
        if p.tgs > 1 && !i.reset && o.sv_cnt != stim.counts()[p.tg(i.sv_tg)] as u64 {
            return Err(ctx(format!("sv_cnt {}, stimulus counts {:?}", o.sv_cnt, stim.counts())));
        }
        cov.observe(&i, &o);
        m.clock(&i);
        prev = Some((i, o));
    }
    Ok(cov)
}

#[test]
fn random_legal_load_holds_properties_and_covers() {
    for p in random_params() {
        for seed in [1, 2] {
            let cov = random_run(&p, seed, false, 20_000).unwrap();
            cov.assert_all_hit()
                .unwrap_or_else(|e| panic!("{p:?} seed {seed}: {e}\n{:?}", cov.hits));
        }
    }
}

#[test]
fn random_error_load_holds_properties_and_covers() {
    for p in random_params() {
        let cov = random_run(&p, 7, true, 20_000).unwrap();
        cov.assert_all_hit()
            .unwrap_or_else(|e| panic!("{p:?}: {e}\n{:?}", cov.hits));
    }
}

#[test]
fn stimulus_is_deterministic_per_seed() {
    let p = BranchStackParams::spec_default();
    let trace = |seed| crate::kit::stimulus_trace::<super::lockstep::BranchStack>(&p, seed, 500, true);
    assert_eq!(trace(3), trace(3));
    assert_ne!(trace(3), trace(4));
}

#[test]
fn params_and_widths() {
    let d = BranchStackParams::spec_default();
    assert_eq!(
        (d.depth, d.nsrc, d.pc_w, d.off_w, d.pc_inc, d.reset_pc),
        (4, 3, 32, 16, 1, 0)
    );
    let cnt_w = |depth| BranchStackParams::with_shape(depth, 3).cnt_w();
    assert_eq!([2, 3, 4, 7, 8, 31, 32].map(cnt_w), [2, 2, 3, 3, 4, 5, 6]);
    for k in [
        ParamsKind::Narrow,
        ParamsKind::Tiny,
        ParamsKind::Wide,
        ParamsKind::Depth32,
    ] {
        assert_eq!(k.params().validate(), Ok(()), "{k:?}");
    }
    let bad = [
        BranchStackParams {
            depth: 1,
            ..d.clone()
        },
        BranchStackParams {
            depth: 33,
            ..d.clone()
        },
        BranchStackParams {
            nsrc: 0,
            ..d.clone()
        },
        BranchStackParams {
            nsrc: 4,
            ..d.clone()
        },
        BranchStackParams {
            pc_w: 65,
            ..d.clone()
        },
        BranchStackParams {
            off_w: 1,
            ..d.clone()
        },
        BranchStackParams {
            off_w: 33,
            ..d.clone()
        },
        BranchStackParams {
            pc_inc: 0,
            ..d.clone()
        },
        BranchStackParams {
            pc_inc: 65536,
            ..d.clone()
        },
        BranchStackParams {
            pc_w: 4,
            off_w: 4,
            pc_inc: 16,
            ..d.clone()
        },
        BranchStackParams {
            pc_w: 4,
            off_w: 4,
            reset_pc: 0x10,
            ..d.clone()
        },
    ];
    for b in bad {
        assert!(b.validate().is_err(), "{b:?} accepted");
    }
}

/// Values wider than their port are truncated as the Verilog port would.
#[test]
fn inputs_are_truncated_to_port_width() {
    let p = BranchStackParams::spec_default();
    let mut m = BranchStackModel::new(&p);
    let mut i = BranchStackInputs::idle(&p).push(0, 0x1F);
    i.cc_sop[0] = 0b110; // PU
    m.clock(&i);
    assert_eq!(m.stack(), &[0xF]);
    let mut i = BranchStackInputs::idle(&p)
        .at(0x1_0000_0100, 0x1_FFFC)
        .t1(0x1_0000_0200);
    i.de_br_vld = true;
    i.de_br_sel = 4; // bit 0 (Z)
    i.de_br_pol = true;
    let o = m.outputs(&i);
    assert_eq!((o.br_taken, o.br_target), (true, 0xFC));
    m.clock(&i);
    assert_eq!((m.outputs(&i).pc, m.stack().len()), (0x200, 0));
    let i = BranchStackInputs::idle(&p).push(0, 0b0100).push(1, 0b0001);
    m.clock(&i); // EX1 wins: [0001]
    m.clock(&BranchStackInputs::idle(&p).push(0, 0b0100)); // [0100, 0001]
    let mut i = BranchStackInputs::idle(&p).cb(CbBit::N, CbBit::Z, BoolOp::And);
    i.de_br_op = 0b110; // XOR
    assert!(!m.outputs(&i).br_taken);
}

/// Missing producer vectors (`Default` inputs) count as no producer.
#[test]
fn default_inputs_are_idle() {
    let p = BranchStackParams::spec_default();
    let mut m = BranchStackModel::new(&p);
    m.clock(&BranchStackInputs::idle(&p).push(2, 0x3));
    m.clock(&BranchStackInputs::default());
    let o = m.outputs(&BranchStackInputs::default());
    assert_eq!((o.cc_cnt, o.cc_r, o.pc, o.npc), (1, 0x3, 2, 3));
    assert!(!o.br_taken && !o.branch_t0_q && m.errors() == ErrFlags::default());
}

/// The no-loss ledger (rule S1) passes the stall model under random load, and rejects a
/// `cc_ready` that claims a held op as applied, and a driver that drops a held op.
#[test]
fn ledger_accepts_the_model_and_rejects_lost_codes() {
    let p = BranchStackParams::spec_default().stall();
    let run = |lie: &dyn Fn(&BranchStackInputs, &mut BranchStackOutputs), drop_held: bool| {
        let mut m = BranchStackModel::new(&p);
        let mut stim = BranchStackStimulus::new(&p, 5);
        let mut ledger = super::ledger::Ledger::new(p.nsrc, p.depth);
        let mut last = BranchStackOutputs::default();
        for _ in 0..5_000 {
            let mut i = stim.next(&last);
            if drop_held {
                // The pipeline forgets every held op of the last cycle.
                for k in 0..p.nsrc {
                    if last.cc_ready.get(k) == Some(&false) {
                        i.cc_vld[k] = false;
                    }
                }
            }
            let mut o = m.outputs(&i);
            last = o.clone();
            lie(&i, &mut o);
            ledger.observe(&i, &o);
            m.clock(&i);
        }
        ledger
    };
    let ok = run(&|_, _| {}, false);
    ok.check().unwrap();
    assert!(ok.applied > 1000 && ok.accepted == ok.applied + ok.pending(), "{ok:?}");
    let all_ready = run(&|_, o| o.cc_ready.iter_mut().for_each(|r| *r = true), false);
    assert!(all_ready.check().unwrap_err().contains("ops ready in one cycle"), "{:?}", all_ready.violation);
    // The port limit's producer reported as applied.
    let port_lie = run(
        &|i, o| {
            if i.de_br_vld && i.de_br_cmp {
                o.cc_ready.iter_mut().for_each(|r| *r = true);
            }
        },
        false,
    );
    assert!(port_lie.check().is_err());
    let dropped = run(&|_, _| {}, true);
    assert!(dropped.check().unwrap_err().contains("hold rule"), "{:?}", dropped.violation);
}

/// Rule P1 on the model: a counter saturates at 2^32 - 1 (2^32 cycles are too long for the
/// RTL), and the indices past the last counter read 0.
#[test]
fn perf_counters_saturate_on_the_model() {
    let p = BranchStackParams::spec_default().perf();
    let mut m = BranchStackModel::new(&p);
    m.perf[model::perf::PUSH] = u32::MAX - 1;
    let push = BranchStackInputs::idle(&p).push(0, 1);
    for _ in 0..3 {
        m.clock(&push);
    }
    let read = |m: &BranchStackModel, sel| m.outputs(&BranchStackInputs { perf_sel: sel, ..BranchStackInputs::idle(&p) }).perf_val;
    assert_eq!(read(&m, 0), u64::from(u32::MAX), "saturated, not wrapped");
    assert_eq!(read(&m, 6), 0, "no overflow yet: 3 entries");
    assert_eq!((10..16).map(|s| read(&m, s)).sum::<u64>(), 0);
    let off = BranchStackModel::new(&BranchStackParams::spec_default());
    assert_eq!(read(&off, 0), 0, "without the key perf_val reads 0");
}
