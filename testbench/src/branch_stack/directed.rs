//! Directed test cases TC-01…TC-26 of spec §6 (TC-27 is the random test, run
//! elsewhere), reruns of the parameter-independent ones on other configurations, and
//! one case for behaviour that only the block contract defines (X01).
//!
//! Conventions (spec §6 preamble): "cycle k" inputs are driven in cycle k, combinational
//! outputs are checked in cycle k and state in cycle k+1. Every case starts with one reset
//! cycle (eval + tick with `reset=1`); the next cycle is c0, the first cycle with
//! `pc = RESET_PC`. Then each cycle is eval(inputs) → check outputs → tick. Stacks are
//! written top first; "stack [A,B]" is established by pushing B then A on EX0 and checked
//! by popping it empty on EX0 (the entries beyond R and S are observable no other way).
//! Expected values are written by hand from the spec; none is computed by a model.
//!
//! Readings of the spec (where it is silent or ambiguous; the block contract decides
//! where it can):
//! * Reset (§5.5.9) lists cnt, entries, pc, branch_t0_q and the errors but not `t0pc_q`;
//!   it is taken to clear `t0pc_q` to 0 too (TC-01 checks it).
//! * The spec's letters A–E are 4-bit values with distinct flags (see the constants);
//!   TC-20's "1, 2, 3, 4, 5" are CC values, taken modulo 16 for deeper stacks.
//! * "cc_cnt decreases by 2" (TC-09) is checked from 2 to 0: each combination starts on
//!   an empty stack.
//! * TC-09's extension to CBZN/CBZZ is included; TC-16's "br_taken is still evaluated on A
//!   and B" is checked with an operation that makes it taken.
//! * TC-22 is run for each of the four flags; "set wins" is also checked across flags
//!   (a clear clears the flags that are not set in that cycle).
//! * TC-23(c) puts the fields of a non-valid branch in DE during the stall, so that a
//!   T0 register that is not frozen would visibly capture them.
//! * TC-24 is checked with `de_br_vld` both 0 and 1 (`br_target` is unconditional).
//! * X01 (contract): a branch presented while `pc_hold` still pops, and the frozen
//!   `branch_t0_q`/`t0pc_q`/`pc` neither record it nor take a T1 redirect of that cycle.
//! * X02–X04 (the options, [`options`]): compound branches on each of C, N, V, Z at
//!   `compound_flags = "cnvz"`; held producers at `producer_conflict = "stall"` (rule S1).
//! * X05 (`perf_counters`, [`perf`]): counter values from rule P1 at "drop" and "stall".
//! * X06–X09 (`thread_groups`, [`groups`]): rules G1–G7: each group's own stack, the port
//!   limit only within a group, per-group PCs with T0/T1 of any group, save and restore.

use super::BranchStack;
use super::model::{C_BIT, Z_BIT};
use super::{BoolOp, Dut, BranchStackInputs, BranchStackOutputs, BranchStackParams};
use super::{CbBit, StackOp};
use BoolOp::{And, Or, Xnor, Xor};
use CbBit::{N, Z};

mod groups;
mod options;
mod perf;

/// The parameter set a case runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsKind {
    /// §6 defaults ([`BranchStackParams::spec_default`]).
    Default,
    /// DEPTH 2.
    Depth2,
    /// DEPTH 32.
    Depth32,
    /// NSRC 1 (EX0 only).
    Nsrc1,
    /// PC_W = OFF_W = 8 (no sign extension), PC_INC 3, RESET_PC 0xF0.
    Narrow,
    /// The smallest widths: DEPTH 3, NSRC 2, PC_W 4, OFF_W 2, PC_INC 15, RESET_PC 0xF.
    Tiny,
    /// PC_W 64, OFF_W 32, PC_INC 65535, RESET_PC 2^64−1.
    Wide,
    /// The defaults with `compound_flags = "cnvz"`.
    Cnvz,
    /// The defaults with `producer_conflict = "stall"` (three producer stages).
    Stall,
    /// The defaults with `perf_counters`.
    Perf,
    /// The defaults with `producer_conflict = "stall"` and `perf_counters`.
    StallPerf,
    /// The defaults with `thread_groups = 4` (depth 4: CNT_W 3, a restore count up to 7).
    Groups4,
    /// `thread_groups = 4` with `producer_conflict = "stall"`.
    Groups4Stall,
    /// `thread_groups = 32` at depth 3 with "stall" and the counters (the 32-group lockstep's shape).
    Groups32,
}

impl ParamsKind {
    pub fn params(self) -> BranchStackParams {
        let d = BranchStackParams::spec_default();
        match self {
            ParamsKind::Default => d,
            ParamsKind::Depth2 => BranchStackParams::with_shape(2, 3),
            ParamsKind::Depth32 => BranchStackParams::with_shape(32, 3),
            ParamsKind::Nsrc1 => BranchStackParams::with_shape(4, 1),
            ParamsKind::Narrow => BranchStackParams {
                pc_w: 8,
                off_w: 8,
                pc_inc: 3,
                reset_pc: 0xF0,
                ..d
            },
            ParamsKind::Tiny => BranchStackParams {
                depth: 3,
                nsrc: 2,
                pc_w: 4,
                off_w: 2,
                pc_inc: 15,
                reset_pc: 0xF,
                ..d
            },
            ParamsKind::Cnvz => d.cnvz(),
            ParamsKind::Stall => d.stall(),
            ParamsKind::Perf => d.perf(),
            ParamsKind::StallPerf => d.stall().perf(),
            ParamsKind::Groups4 => d.groups(4),
            ParamsKind::Groups4Stall => d.stall().groups(4),
            // The 32-group lockstep's shape, so that both use one Verilated model.
            ParamsKind::Groups32 => BranchStackParams::with_shape(3, 3).stall().perf().groups(32),
            ParamsKind::Wide => BranchStackParams {
                pc_w: 64,
                off_w: 32,
                pc_inc: 65535,
                // The largest reset_pc a TOML config can hold (integers are i64);
                // wrap-around is covered by the Tiny variant.
                reset_pc: i64::MAX as u64,
                ..d
            },
        }
    }
}

pub type CaseFn = fn(&mut dyn Dut<BranchStack>) -> Result<(), String>;

/// Every directed case with the parameter set it needs. "TC-nn/x" reruns TC-nn on
/// another configuration.
pub fn all_cases() -> Vec<(&'static str, ParamsKind, CaseFn)> {
    use ParamsKind::*;
    vec![
        ("TC-01", Default, tc01_reset as CaseFn),
        ("TC-01/tiny", Tiny, tc01_reset),
        ("TC-01/wide", Wide, tc01_reset),
        ("TC-02", Default, tc02_sequential_pc),
        ("TC-02/pc8", Narrow, tc02_pc8),
        ("TC-02/tiny", Tiny, tc02_tiny),
        ("TC-02/wide", Wide, tc02_wide),
        ("TC-03", Default, tc03_dn_noop),
        ("TC-03/nsrc1", Nsrc1, tc03_dn_noop),
        ("TC-04", Default, tc04_push_visibility),
        ("TC-04/d2", Depth2, tc04_push_visibility),
        ("TC-04/nsrc1", Nsrc1, tc04_push_visibility),
        ("TC-05", Default, tc05_lifo),
        ("TC-05/d32", Depth32, tc05_lifo),
        ("TC-06", Default, tc06_patent_example),
        ("TC-07", Default, tc07_bez_taken),
        ("TC-08", Default, tc08_cbnn_and),
        ("TC-09", Default, tc09_truth_tables),
        ("TC-10", Default, tc10_rs_order),
        ("TC-11", Default, tc11_reads_two_pops_one),
        ("TC-12", Default, tc12_po),
        ("TC-12/d2", Depth2, tc12_po),
        ("TC-12/nsrc1", Nsrc1, tc12_po),
        ("TC-13", Default, tc13_pp),
        ("TC-13/d2", Depth2, tc13_pp),
        ("TC-13/d32", Depth32, tc13_pp),
        ("TC-13/tiny", Tiny, tc13_pp),
        ("TC-14", Default, tc14_two_pops_one_push),
        ("TC-15", Default, tc15_simple_and_pp),
        ("TC-16", Default, tc16_port_limit),
        ("TC-16/nsrc1", Nsrc1, tc16_port_limit),
        ("TC-17", Default, tc17_visibility),
        ("TC-17/d2", Depth2, tc17_visibility),
        ("TC-18", Default, tc18_stages),
        ("TC-19", Default, tc19_multi_producer),
        ("TC-20", Default, tc20_overflow),
        ("TC-20/d2", Depth2, tc20_overflow),
        ("TC-20/d32", Depth32, tc20_overflow),
        ("TC-20/nsrc1", Nsrc1, tc20_overflow),
        ("TC-20/tiny", Tiny, tc20_overflow),
        ("TC-21", Default, tc21_underflow),
        ("TC-21/d2", Depth2, tc21_underflow),
        ("TC-21/nsrc1", Nsrc1, tc21_underflow),
        ("TC-22", Default, tc22_sticky_errors),
        ("TC-22/d2", Depth2, tc22_sticky_errors),
        ("TC-22/nsrc1", Nsrc1, tc22_sticky_errors),
        ("TC-22/tiny", Tiny, tc22_sticky_errors),
        ("TC-23", Default, tc23_dfc),
        ("TC-24", Default, tc24_target),
        ("TC-24/pc8", Narrow, tc24_pc8),
        ("TC-24/tiny", Tiny, tc24_tiny),
        ("TC-24/wide", Wide, tc24_wide),
        ("TC-25", Default, tc25_no_flush),
        ("TC-26", Default, tc26_valid_gating),
        ("X01", Default, x01_branch_under_hold),
        ("X02", Cnvz, options::x02_cnvz_flags),
        ("X02/cv", Cnvz, options::x02_cnvz_c_and_v),
        ("X03", Stall, options::x03_stall_two_producers),
        ("X03/three", Stall, options::x03_stall_three_producers),
        ("X04", Stall, options::x04_stall_port_limit),
        ("X05", Perf, perf::x05_perf_counters),
        ("X05/stall", StallPerf, perf::x05_perf_counters_stall),
        ("X06", Groups4, groups::x06_own_stacks),
        ("X06/tg32", Groups32, groups::x06_own_stacks),
        ("X07", Groups4, groups::x07_port_limit_per_group),
        ("X07/stall", Groups4Stall, groups::x07_port_limit_per_group_stall),
        ("X08", Groups4, groups::x08_pcs),
        ("X09", Groups4, groups::x09_save_restore),
    ]
}

/// Run every case on a fresh DUT from `make`; all failures, one per line.
pub fn run_all(make: &mut dyn FnMut(&BranchStackParams) -> Box<dyn Dut<BranchStack>>) -> Result<(), String> {
    let cases = all_cases().into_iter().map(|(name, kind, case)| (name, (kind, case)));
    crate::kit::run_cases(cases, |(kind, case)| case(make(&kind.params()).as_mut()))
}

// Symbolic CC values of §6 (distinct, with different flags; C V / C V Z / C N / C N Z / C N V).
const A: u8 = 0b1010;
const B: u8 = 0b1011;
const C: u8 = 0b1100;
const D: u8 = 0b1101;
const E: u8 = 0b1110;
// §6 label mapping of the patent example: "0" → 0001, "1" → 1000, "2" → 0010.
const L0: u8 = 0b0001;
const L1: u8 = 0b1000;
const L2: u8 = 0b0010;

/// A full stack of `depth` entries, top first: A, B, C, D, then other values.
fn full(depth: usize) -> Vec<u8> {
    (0..depth)
        .map(|k| [A, B, C, D, 0x3, 0x5, 0x6, 0x9][k % 8])
        .collect()
}

/// One expected output value.
#[derive(Debug, Clone, Copy)]
enum Exp {
    R(u8),
    RVld(bool),
    S(u8),
    SVld(bool),
    Cnt(u64),
    Taken(bool),
    Target(u64),
    Pc(u64),
    Npc(u64),
    T0(bool),
    T0pc(u64),
    Ovf(bool),
    Udf(bool),
    Port(bool),
    Multi(bool),
    /// `cc_ready` as a mask, bit i = stage i ("stall" only).
    Ready(u8),
    /// `thread_groups` > 1: `t0_tg_q`, `sv_cnt`, entry k of `sv_stack`, `sv_pc`.
    T0tg(u8),
    SvCnt(u64),
    SvEntry(usize, u8),
    SvPc(u64),
}
use Exp::*;

/// No error flag set.
const NO_ERR: [Exp; 4] = [Ovf(false), Udf(false), Port(false), Multi(false)];

impl Exp {
    /// `None` if the output matches, else "signal expected X, actual Y".
    fn mismatch(self, o: &BranchStackOutputs) -> Option<String> {
        let cc = |v: u8| format!("4'b{v:04b}");
        let hex = |v: u64| format!("{v:#x}");
        let bit = |b: bool| u8::from(b).to_string();
        let (sig, exp, act) = match self {
            R(e) => ("cc_r", cc(e), cc(o.cc_r)),
            RVld(e) => ("cc_r_vld", bit(e), bit(o.cc_r_vld)),
            S(e) => ("cc_s", cc(e), cc(o.cc_s)),
            SVld(e) => ("cc_s_vld", bit(e), bit(o.cc_s_vld)),
            Cnt(e) => ("cc_cnt", e.to_string(), o.cc_cnt.to_string()),
            Taken(e) => ("br_taken", bit(e), bit(o.br_taken)),
            Target(e) => ("br_target", hex(e), hex(o.br_target)),
            Pc(e) => ("pc", hex(e), hex(o.pc)),
            Npc(e) => ("npc", hex(e), hex(o.npc)),
            T0(e) => ("branch_t0_q", bit(e), bit(o.branch_t0_q)),
            T0pc(e) => ("t0pc_q", hex(e), hex(o.t0pc_q)),
            Ovf(e) => ("err_ovf", bit(e), bit(o.err_ovf)),
            Udf(e) => ("err_udf", bit(e), bit(o.err_udf)),
            Port(e) => ("err_port", bit(e), bit(o.err_port)),
            Multi(e) => ("err_multi", bit(e), bit(o.err_multi)),
            Ready(e) => {
                let mask = o.cc_ready.iter().rev().fold(0u8, |a, &b| a << 1 | u8::from(b));
                ("cc_ready", format!("{e:#05b}"), format!("{mask:#05b}"))
            }
            T0tg(e) => ("t0_tg_q", e.to_string(), o.t0_tg_q.to_string()),
            SvCnt(e) => ("sv_cnt", e.to_string(), o.sv_cnt.to_string()),
            SvEntry(k, e) => {
                let act = o.sv_stack.get(k).map_or("none".to_string(), |&v| cc(v));
                return (cc(e) != act).then(|| format!("sv_stack entry {k} expected {}, actual {act}", cc(e)));
            }
            SvPc(e) => ("sv_pc", hex(e), hex(o.sv_pc)),
        };
        (exp != act).then(|| format!("{sig} expected {exp}, actual {act}"))
    }
}

/// A case in progress: the DUT and the cycle counter.
struct Run<'a> {
    case: &'static str,
    dut: &'a mut dyn Dut<BranchStack>,
    p: BranchStackParams,
    cycle: u32,
}

impl<'a> Run<'a> {
    /// Start a case: one reset cycle, then the next cycle is c0.
    fn new(case: &'static str, dut: &'a mut dyn Dut<BranchStack>) -> Self {
        let p = dut.params().clone();
        dut.eval(&BranchStackInputs::idle(&p).with_reset());
        dut.tick();
        Run {
            case,
            dut,
            p,
            cycle: 0,
        }
    }

    fn idle(&self) -> BranchStackInputs {
        BranchStackInputs::idle(&self.p)
    }

    /// PU of `v` on EX0.
    fn push(&self, v: u8) -> BranchStackInputs {
        self.idle().push(0, v)
    }

    /// One cycle: eval, check `exp`, tick.
    fn step(&mut self, inp: BranchStackInputs, exp: &[Exp]) -> Result<(), String> {
        let out = self.dut.eval(&inp);
        let bad: Vec<String> = exp.iter().filter_map(|e| e.mismatch(&out)).collect();
        if !bad.is_empty() {
            return Err(format!("{} c{}: {}", self.case, self.cycle, bad.join("; ")));
        }
        self.dut.tick();
        self.cycle += 1;
        Ok(())
    }

    /// Build the stack `top_first` from its current (empty) state, one EX0 push per cycle.
    fn load(&mut self, top_first: &[u8]) -> Result<(), String> {
        for (k, &v) in top_first.iter().rev().enumerate() {
            self.step(self.push(v), &[Cnt(k as u64)])?;
        }
        Ok(())
    }

    /// Check that the stack is `top_first` by popping it empty on EX0, one entry per
    /// cycle, checking R, S and the count each cycle and `also` in every cycle.
    fn expect_stack(&mut self, top_first: &[u8], also: &[Exp]) -> Result<(), String> {
        let n = top_first.len();
        for k in 0..=n {
            let s = top_first.get(k + 1).copied();
            let here = [
                Cnt((n - k) as u64),
                R(top_first.get(k).copied().unwrap_or(0)),
                RVld(k < n),
                S(s.unwrap_or(0)),
                SVld(s.is_some()),
            ];
            let inp = if k < n {
                self.idle().pop(0)
            } else {
                self.idle()
            };
            self.step(inp, &[&here[..], also].concat())?;
        }
        Ok(())
    }

    /// The reset state (§5.5.9, TC-01), apart from `br_taken`.
    fn reset_state(&self) -> Vec<Exp> {
        let s = [
            Cnt(0),
            R(0),
            RVld(false),
            S(0),
            SVld(false),
            Pc(self.p.reset_pc),
            T0(false),
            T0pc(0),
        ];
        [&s[..], &NO_ERR].concat()
    }
}

/// TC-01 Reset. The block is first made dirty (entries, pc, T0 registers, an error), then
/// reset is held for two cycles with activity on every other input.
pub fn tc01_reset(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-01", dut);
    let state = r.reset_state();
    r.step(r.idle(), &[&state[..], &[Taken(false)]].concat())?; // c0
    r.step(r.push(L0).t1(0x3), &[])?; // c1: push, T1 redirect
                                      // c2: taken BEZ plus an EX0 PO on one entry: two pops, underflow.
    let c2 = r.idle().bez().at(0x5, 0x1).pop(0);
    r.step(c2, &[R(L0), Taken(true), Target(0x6), Pc(0x3)])?;
    let busy = r
        .idle()
        .push(0, 0xF)
        .cb(Z, Z, Xnor)
        .at(0x7, 0x1)
        .t1(0x9)
        .clr()
        .with_reset();
    // c3: first reset cycle, outputs still show the old state.
    r.step(busy.clone(), &[Udf(true), T0(true), T0pc(0x6), Cnt(0)])?;
    r.step(busy, &state)?; // c4: second reset cycle
    r.step(r.idle(), &[&state[..], &[Taken(false)]].concat())?; // c5: released
    r.step(r.idle(), &[Cnt(0), T0(false)]) // c6
}

/// Idle cycles from c0 showing `pc` = pcs\[k\] and `npc` = pcs\[k+1\] in cycle k.
fn seq_pc(case: &'static str, dut: &mut dyn Dut<BranchStack>, pcs: &[u64]) -> Result<(), String> {
    let mut r = Run::new(case, dut);
    for w in pcs.windows(2) {
        r.step(r.idle(), &[Pc(w[0]), Npc(w[1]), T0(false)])?;
    }
    Ok(())
}

/// TC-02 Sequential PC: 0, 1, 2, … with `npc = pc + 1`.
pub fn tc02_sequential_pc(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    seq_pc("TC-02", dut, &[0, 1, 2, 3, 4, 5, 6])
}

/// TC-02 with PC_W 8, PC_INC 3, RESET_PC 0xF0: wraps modulo 2^8.
pub fn tc02_pc8(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let pcs = [0xF0, 0xF3, 0xF6, 0xF9, 0xFC, 0xFF, 0x02, 0x05];
    seq_pc("TC-02/pc8", dut, &pcs)
}

/// TC-02 with PC_W 4, PC_INC 15, RESET_PC 0xF: +15 is −1 modulo 16.
pub fn tc02_tiny(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    seq_pc("TC-02/tiny", dut, &[0xF, 0xE, 0xD, 0xC, 0xB, 0xA, 0x9])
}

/// TC-02 with PC_W 64, PC_INC 65535, RESET_PC 2^64−1.
pub fn tc02_wide(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    // 0x7FFF_FFFF_FFFF_FFFF + 0xFFFF per cycle, past the i64 boundary.
    let pcs = [0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_FFFE, 0x8000_0000_0001_FFFD, 0x8000_0000_0002_FFFC];
    seq_pc("TC-02/wide", dut, &pcs)
}

/// TC-03 DN is a no-op, also for arbitration: DN is driven with `cc_vld` on every
/// producer (so it must not count towards `err_multi`).
pub fn tc03_dn_noop(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-03", dut);
    let all_dn = |r: &Run, v: u8| (0..r.p.nsrc).fold(r.idle(), |i, k| i.dn(k, v));
    r.step(all_dn(&r, 0xF), &[Cnt(0)])?; // c0
    let push_a = (1..r.p.nsrc).fold(r.push(A), |i, k| i.dn(k, 0x5));
    r.step(push_a, &[Cnt(0), RVld(false)])?; // c1: PU A on EX0, DN elsewhere
    r.step(all_dn(&r, 0x5), &[Cnt(1), R(A)])?; // c2
    r.expect_stack(&[A], &NO_ERR) // c3…
}

/// TC-04 A push is visible from the next cycle.
pub fn tc04_push_visibility(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-04", dut);
    r.step(r.push(5), &[RVld(false), R(0), Cnt(0)])?; // c0
    r.step(
        r.idle(),
        &[R(5), RVld(true), SVld(false), S(0), Cnt(1), Udf(false)],
    ) // c1
}

/// TC-05 LIFO order.
pub fn tc05_lifo(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-05", dut);
    r.load(&[C, B, A])?; // c0–c2: PU A, PU B, PU C
    r.step(r.idle().bez(), &[R(C), S(B), Cnt(3), Taken(false)])?; // c3
    r.expect_stack(&[B, A], &NO_ERR) // c4…
}

/// Figs. 5/6 up to T-1: I1, I2 push "0", "1" (T-3, T-2), I3 pushes `i3` (T-1).
/// T-3 is c0, so T is c3.
fn patent_example<'a>(
    case: &'static str,
    dut: &'a mut dyn Dut<BranchStack>,
    i3: u8,
) -> Result<Run<'a>, String> {
    let mut r = Run::new(case, dut);
    r.step(r.push(L0), &[Cnt(0)])?; // T-3
    r.step(r.push(L1), &[Cnt(1), R(L0)])?; // T-2
    r.step(r.push(i3), &[Cnt(2), R(L1), S(L0)])?; // T-1: Fig. 6 "1" on top of "0"
    Ok(r)
}

/// TC-06 The patent's worked example (Figs. 5–7): BEZ reads "2" and "1", pops "2", is
/// not taken; the stack ends as \[1,0,X,X\] and the PC keeps incrementing.
pub fn tc06_patent_example(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = patent_example("TC-06", dut, L2)?;
    let bez = r.idle().bez().at(0x40, 0x10);
    r.step(bez, &[R(L2), S(L1), Cnt(3), Taken(false), Target(0x50)])?; // T
    r.step(r.idle(), &[T0(false), Pc(4), Cnt(2), R(L1), S(L0)])?; // T+1
    r.step(r.idle(), &[Pc(5), T0(false)])?; // T+2: no redirect
    r.expect_stack(&[L1, L0], &NO_ERR)
}

/// TC-07 BEZ taken: T0 registers in T+1, `pc` = target in T+2 (T+1 is a delay slot).
pub fn tc07_bez_taken(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = patent_example("TC-07", dut, L0)?;
    let bez = r.idle().bez().at(0x40, 0x10);
    r.step(bez, &[R(L0), S(L1), Taken(true), Target(0x50)])?; // T
    r.step(r.idle(), &[T0(true), T0pc(0x50), Pc(4)])?; // T+1
    r.step(r.idle(), &[Pc(0x50), T0(false)])?; // T+2
    r.step(r.idle(), &[Pc(0x51)])?; // T+3
    r.expect_stack(&[L1, L0], &NO_ERR)
}

/// Stack \[0100, s, 1111\]; CBNN.AND pops two.
fn cbnn_and(
    case: &'static str,
    dut: &mut dyn Dut<BranchStack>,
    s: u8,
    taken: bool,
) -> Result<(), String> {
    let mut r = Run::new(case, dut);
    r.load(&[0b0100, s, 0b1111])?;
    r.step(
        r.idle().cb(N, N, And),
        &[R(0b0100), S(s), Cnt(3), Taken(taken)],
    )?;
    r.expect_stack(&[0b1111], &NO_ERR)
}

/// TC-08 CBNN.AND, two pops in one cycle: (a) S = 0100 taken, (b) S = 0000 not taken.
pub fn tc08_cbnn_and(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    cbnn_and("TC-08a", dut, 0b0100, true)?;
    cbnn_and("TC-08b", dut, 0b0000, false)
}

/// A TC-09 operand: C = V = 1, the bit `sel` = `v`, the other of N/Z = ¬v.
fn operand(sel: CbBit, v: bool) -> u8 {
    let (n, z) = match sel {
        N => (v, !v),
        Z => (!v, v),
    };
    0b1010 | u8::from(n) << 2 | u8::from(z)
}

/// TC-09 Truth tables of CBNN, CBNZ and (extension) CBZN, CBZZ for each op.
pub fn tc09_truth_tables(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    // op(r, s) for (r, s) = (0,0), (0,1), (1,0), (1,1).
    let table = [
        (And, [0, 0, 0, 1]),
        (Or, [0, 1, 1, 1]),
        (Xor, [0, 1, 1, 0]),
        (Xnor, [1, 0, 0, 1]),
    ];
    let mut r = Run::new("TC-09", dut);
    for f in CbBit::ALL {
        for g in CbBit::ALL {
            for (op, outs) in table {
                for (k, out) in outs.into_iter().enumerate() {
                    let (rv, sv) = (operand(f, k >> 1 == 1), operand(g, k & 1 == 1));
                    let ctx =
                        |e: String| format!("{e} (CB{f:?}{g:?}.{op:?}, R={rv:04b} S={sv:04b})");
                    r.step(r.push(sv), &[Cnt(0)]).map_err(ctx)?;
                    r.step(r.push(rv), &[Cnt(1)]).map_err(ctx)?;
                    let exp = [R(rv), S(sv), Cnt(2), Taken(out == 1)];
                    r.step(r.idle().cb(f, g, op), &exp).map_err(ctx)?;
                }
            }
        }
    }
    r.step(r.idle(), &[&[Cnt(0)][..], &NO_ERR].concat())
}

/// Stack \[top, bottom\]; CBNZ.AND.
fn cbnz_and(
    case: &'static str,
    dut: &mut dyn Dut<BranchStack>,
    top: u8,
    bottom: u8,
    taken: bool,
) -> Result<(), String> {
    let mut r = Run::new(case, dut);
    r.load(&[top, bottom])?;
    r.step(r.idle().cb(N, Z, And), &[R(top), S(bottom), Taken(taken)])?;
    r.step(r.idle(), &[Cnt(0), Udf(false)])
}

/// TC-10 R is the top, S the second: (a) R = 0001, S = 0100 not taken; (b) reversed, taken.
pub fn tc10_rs_order(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    cbnz_and("TC-10a", dut, 0b0001, 0b0100, false)?;
    cbnz_and("TC-10b", dut, 0b0100, 0b0001, true)
}

/// TC-11 A simple branch reads R and S, pops one.
pub fn tc11_reads_two_pops_one(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-11", dut);
    r.load(&[A, B, C])?;
    r.step(r.idle().bez(), &[R(A), S(B), Cnt(3), Taken(false)])?;
    r.expect_stack(&[B, C], &NO_ERR)
}

/// TC-12 PO removes the top (its CC value, here 0111, is ignored).
pub fn tc12_po(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-12", dut);
    r.load(&[A, B])?;
    r.step(r.idle().producer(0, StackOp::Po, 0x7), &[Cnt(2)])?;
    r.expect_stack(&[B], &NO_ERR)
}

/// TC-13 PP replaces the top: (a) \[A,B\] → \[C,B\]; (b) \[A\] → \[C\]; (c) on a full stack
/// (\[A,B,C,D\] for DEPTH 4) → \[E,B,C,D\] without overflow.
pub fn tc13_pp(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-13a", dut);
    r.load(&[A, B])?;
    r.step(r.idle().pop_push(0, C), &[R(A)])?;
    r.expect_stack(&[C, B], &NO_ERR)?;

    let mut r = Run::new("TC-13b", dut);
    r.load(&[A])?;
    r.step(r.idle().pop_push(0, C), &[R(A)])?;
    r.expect_stack(&[C], &NO_ERR)?;

    let mut r = Run::new("TC-13c", dut);
    let stack = full(r.p.depth);
    r.load(&stack)?;
    r.step(r.idle().pop_push(0, E), &[R(A)])?;
    r.expect_stack(&[&[E][..], &stack[1..]].concat(), &NO_ERR)
}

/// TC-14 A compound branch (on A, B, not on the same-cycle push D) plus a PU: \[D,C\].
pub fn tc14_two_pops_one_push(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-14", dut);
    r.load(&[A, B, C])?;
    // CBNN.OR: A.N | B.N = 0; it would be 1 with D (N set) as R.
    let inp = r.idle().cb(N, N, Or).push(0, D);
    r.step(inp, &[R(A), S(B), Cnt(3), Taken(false)])?;
    r.expect_stack(&[D, C], &NO_ERR)
}

/// TC-15 A simple branch (on A) plus a PP: \[D,C\].
pub fn tc15_simple_and_pp(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-15", dut);
    r.load(&[A, B, C])?;
    // BEZ: A has Z clear; D (Z set) would make it taken.
    r.step(r.idle().bez().pop_push(0, D), &[R(A), Taken(false)])?;
    r.expect_stack(&[D, C], &NO_ERR)
}

/// \[A,B,C\]; compound branch plus EX0 `op` with value D: the producer op is suppressed.
fn port_violation(
    case: &'static str,
    dut: &mut dyn Dut<BranchStack>,
    op: StackOp,
) -> Result<(), String> {
    let mut r = Run::new(case, dut);
    r.load(&[A, B, C])?;
    // CBNN.XNOR on A, B: XNOR(0, 0) = taken.
    let inp = r.idle().cb(N, N, Xnor).producer(0, op, D);
    r.step(inp, &[R(A), S(B), Taken(true), Port(false)])?;
    r.expect_stack(&[C], &[Port(true), Udf(false), Ovf(false)])
}

/// TC-16 Port limit: compound + (a) PO, (b) PP D.
pub fn tc16_port_limit(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    port_violation("TC-16a", dut, StackOp::Po)?;
    port_violation("TC-16b", dut, StackOp::Pp)
}

/// TC-17 "At least one cycle": (a) a branch does not see the same-cycle push; (b) it
/// sees the push of the previous cycle.
pub fn tc17_visibility(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-17a", dut);
    r.load(&[A])?;
    // BEZ: not taken on A; B has Z set.
    let inp = r.idle().bez().push(0, B);
    r.step(inp, &[R(A), SVld(false), Cnt(1), Taken(false)])?;
    r.expect_stack(&[B], &NO_ERR)?;

    let mut r = Run::new("TC-17b", dut);
    r.load(&[A])?;
    r.step(r.push(B), &[R(A)])?; // t
    r.step(r.idle().bez(), &[R(B), S(A), Taken(true)])?; // t+1
    r.expect_stack(&[A], &NO_ERR)
}

/// TC-18 CCs from EX0 (t) and EX2 (t+2); CBNZ at t+3 uses R = Q, S = P.
pub fn tc18_stages(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    const P: u8 = 0b0001;
    const Q: u8 = 0b0100;
    let mut r = Run::new("TC-18", dut);
    r.step(r.push(P), &[])?; // t: EX0 PU P
    r.step(r.idle(), &[Cnt(1), R(P)])?; // t+1
    r.step(r.idle().push(2, Q), &[Cnt(1)])?; // t+2: EX2 PU Q
                                             // t+3: CBNZ.AND: Q.N & P.Z = 1 (it would be 0 with the operands swapped).
    r.step(r.idle().cb(N, Z, And), &[R(Q), S(P), Cnt(2), Taken(true)])?;
    r.step(r.idle(), &[&[Cnt(0)][..], &NO_ERR].concat())
}

/// TC-19 Several producers: the highest index wins and `err_multi` is set. Additions:
/// a non-DN op without `cc_vld` and a DN with it are not active; EX1 PO beats EX0 PU.
pub fn tc19_multi_producer(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-19", dut);
    let mut c0 = r.idle().dn(1, 0x3);
    c0.cc_sop[2] = StackOp::Pu.bits();
    c0.cc_val[2] = 0x9;
    r.step(c0, &[Multi(false)])?; // c0
    r.step(r.idle().push(0, 1).push(2, 2), &[Cnt(0), Multi(false)])?; // c1
    r.step(
        r.idle().push(0, 5).pop(1),
        &[Multi(true), R(2), SVld(false), Cnt(1)],
    )?; // c2: stack [2,X,X,X]
    r.step(r.idle(), &[Cnt(0), Multi(true), Udf(false), Ovf(false)]) // c3
}

/// TC-20 Overflow: (a) push DEPTH+1 values 1, 2, …: the first is discarded; (b) a simple
/// branch frees a place for the same-cycle push.
pub fn tc20_overflow(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-20a", dut);
    let depth = r.p.depth;
    let val = |k: usize| (k & 0xF) as u8;
    for k in 1..=depth {
        r.step(r.push(val(k)), &[Cnt(k as u64 - 1), Ovf(false)])?;
    }
    r.step(r.push(val(depth + 1)), &[Cnt(depth as u64), Ovf(false)])?;
    // DEPTH 4: [5,4,3,2]
    let kept: Vec<u8> = (2..=depth + 1).rev().map(val).collect();
    r.expect_stack(&kept, &[Ovf(true)])?;

    let mut r = Run::new("TC-20b", dut);
    let stack = full(depth);
    r.load(&stack)?;
    r.step(r.idle().bez().push(0, E), &[Cnt(depth as u64), R(A)])?;
    r.expect_stack(&[&[E][..], &stack[1..]].concat(), &NO_ERR)
}

/// TC-21 Underflow: (a) BEZ on an empty stack; (b) PO on an empty stack; (c) CBNZ.OR
/// on one entry.
pub fn tc21_underflow(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-21a", dut);
    r.step(
        r.idle().bez(),
        &[R(0), RVld(false), Taken(false), Cnt(0), Udf(false)],
    )?;
    r.step(r.idle(), &[Udf(true), Cnt(0)])?;

    let mut r = Run::new("TC-21b", dut);
    r.step(r.idle().pop(0), &[Udf(false)])?;
    r.step(r.idle(), &[Udf(true), Cnt(0)])?;

    let mut r = Run::new("TC-21c", dut);
    r.load(&[0b1010])?;
    r.step(
        r.idle().cb(N, Z, Or),
        &[R(0b1010), S(0), SVld(false), Taken(false), Udf(false)],
    )?;
    r.step(r.idle(), &[Udf(true), Cnt(0), RVld(false)])
}

type Provoke = fn(&Run<'_>) -> BranchStackInputs;

/// TC-22 for one flag: set by `provoke` (after filling the stack if `fill`), sticky,
/// cleared by `err_clr`, set again when the event and `err_clr` coincide, cleared by reset.
fn sticky(
    case: &'static str,
    dut: &mut dyn Dut<BranchStack>,
    fill: bool,
    provoke: Provoke,
    flag: fn(bool) -> Exp,
) -> Result<(), String> {
    let mut r = Run::new(case, dut);
    if fill {
        r.load(&full(r.p.depth))?;
    }
    r.step(provoke(&r), &[flag(false)])?;
    for _ in 0..3 {
        r.step(r.idle(), &[flag(true)])?;
    }
    r.step(r.idle().clr(), &[flag(true)])?;
    r.step(r.idle(), &[flag(false)])?;
    r.step(provoke(&r).clr(), &[flag(false)])?;
    r.step(r.idle().with_reset(), &[flag(true)])?; // the set won
    r.step(r.idle(), &[flag(false)])
}

/// TC-22 Sticky flags and clear, for every flag; then a clear in the cycle that sets
/// another flag.
pub fn tc22_sticky_errors(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    sticky("TC-22/ovf", dut, true, |r| r.push(E), Ovf)?;
    sticky("TC-22/udf", dut, false, |r| r.idle().pop(0), Udf)?;
    sticky(
        "TC-22/port",
        dut,
        false,
        |r| r.idle().cb(N, N, And).pop(0),
        Port,
    )?;
    if dut.params().nsrc >= 2 {
        sticky(
            "TC-22/multi",
            dut,
            false,
            |r| r.idle().push(0, 1).push(1, 2),
            Multi,
        )?;
    }
    let mut r = Run::new("TC-22/cross", dut);
    r.step(r.idle().pop(0), &[Udf(false)])?;
    r.load(&[A, B])?;
    let clr_and_port = r.idle().cb(N, N, And).pop(0).clr();
    r.step(clr_and_port, &[Udf(true), Port(false)])?;
    r.step(r.idle(), &[Udf(false), Port(true), Cnt(0)])
}

/// TC-23 Data flow controller: (a) T1 redirect; (b) T1 over T0; (c) `pc_hold` freezes
/// `pc`, `branch_t0_q` and `t0pc_q`.
pub fn tc23_dfc(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-23a", dut);
    r.step(r.idle(), &[Pc(0)])?; // c0
    r.step(r.idle(), &[Pc(1)])?; // c1
    r.step(r.idle().t1(0x200), &[Pc(2), Npc(3)])?; // c2 = u
    r.step(r.idle(), &[Pc(0x200), Npc(0x201), T0(false)])?; // u+1
    r.step(r.idle(), &[Pc(0x201)])?; // u+2

    let mut r = Run::new("TC-23b", dut);
    r.step(r.push(L0), &[Pc(0)])?; // c0
    r.step(r.idle().bez().at(0x40, 0x10), &[Taken(true), Pc(1)])?; // c1 = T
    r.step(r.idle().t1(0x300), &[T0(true), T0pc(0x50), Pc(2)])?; // T+1
    r.step(r.idle(), &[Pc(0x300), T0(false)])?; // T+2: T1 wins
    r.step(r.idle(), &[Pc(0x301)])?; // T+3

    let mut r = Run::new("TC-23c", dut);
    r.step(r.push(L0), &[Pc(0)])?; // c0
    r.step(r.idle().bez().at(0x40, 0x10), &[Taken(true), Pc(1)])?; // c1 = T
                                                                   // T+1, T+2: stall, with the fields of a non-valid branch in DE (target 0x9A).
    let stall = r.idle().hold().at(0x99, 0x1);
    let frozen = [T0(true), T0pc(0x50), Pc(2), Npc(3)];
    r.step(stall.clone(), &[&frozen[..], &[Target(0x9A)]].concat())?; // T+1
    r.step(stall, &frozen)?; // T+2
    r.step(r.idle(), &frozen)?; // T+3: first cycle without hold
    r.step(r.idle(), &[Pc(0x50), T0(false)])?; // T+4
    r.step(r.idle(), &[Pc(0x51)]) // T+5
}

/// One cycle per (de_pc, de_off, br_target) row, alternately without and with a
/// valid branch.
fn targets(
    case: &'static str,
    dut: &mut dyn Dut<BranchStack>,
    rows: &[(u64, u64, u64)],
) -> Result<(), String> {
    let mut r = Run::new(case, dut);
    for (k, &(pc, off, target)) in rows.iter().enumerate() {
        let inp = r.idle().bez().at(pc, off);
        let inp = if k % 2 == 0 { inp.no_branch() } else { inp };
        r.step(inp, &[Target(target)])?;
    }
    Ok(())
}

/// TC-24 Target arithmetic (PC_W 32, OFF_W 16): (a) 0x100 − 4; (b) wrap modulo 2^32;
/// plus the extreme offsets.
pub fn tc24_target(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let rows = [
        (0x100, 0xFFFC, 0xFC),
        (0xFFFF_FFFE, 0x4, 0x2),
        (0x100, 0x7FFF, 0x80FF),
        (0x100, 0x8000, 0xFFFF_8100),
        (0x0, 0xFFFF, 0xFFFF_FFFF),
        (0x1234_5678, 0x0, 0x1234_5678),
    ];
    targets("TC-24", dut, &rows)
}

/// TC-24 with OFF_W = PC_W = 8 (no extension).
pub fn tc24_pc8(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let rows = [
        (0x10, 0xFC, 0x0C),
        (0xFE, 0x04, 0x02),
        (0x80, 0x7F, 0xFF),
        (0x80, 0x80, 0x00),
        (0x00, 0xFF, 0xFF),
    ];
    targets("TC-24/pc8", dut, &rows)
}

/// TC-24 with PC_W 4, OFF_W 2 (offsets −2…+1).
pub fn tc24_tiny(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let rows = [
        (0x1, 0b10, 0xF),
        (0xF, 0b01, 0x0),
        (0x8, 0b11, 0x7),
        (0x0, 0b10, 0xE),
        (0x3, 0b00, 0x3),
    ];
    targets("TC-24/tiny", dut, &rows)
}

/// TC-24 with PC_W 64, OFF_W 32.
pub fn tc24_wide(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let rows = [
        (0xFFFF_FFFF_FFFF_FFFE, 0x4, 0x2),
        (0x1_0000_0000, 0xFFFF_FFFF, 0xFFFF_FFFF),
        (0x0, 0x8000_0000, 0xFFFF_FFFF_8000_0000),
        (0x7FFF_FFFF_FFFF_FFFF, 0x1, 0x8000_0000_0000_0000),
    ];
    targets("TC-24/wide", dut, &rows)
}

/// TC-25 No flush: the delay-slot pushes after a taken branch land.
pub fn tc25_no_flush(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    const X: u8 = 0x6;
    const Y: u8 = 0x9;
    let mut r = Run::new("TC-25", dut);
    r.step(r.push(L0), &[])?; // c0
    r.step(r.idle().bez().at(0x40, 0x10), &[Taken(true), Cnt(1)])?; // T
    r.step(r.push(X), &[Cnt(0), T0(true), Pc(2)])?; // T+1
    r.step(r.push(Y), &[Cnt(1), R(X), Pc(0x50)])?; // T+2
    r.expect_stack(&[Y, X], &NO_ERR)
}

/// TC-26 Without `de_br_vld` nothing pops and nothing is taken, for branch fields that
/// would be taken on \[A,B\] if valid.
pub fn tc26_valid_gating(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("TC-26", dut);
    r.load(&[A, B])?;
    let i = r.idle();
    let would_take = [
        i.clone().branch(C_BIT, true),  // A.C = 1
        i.clone().branch(Z_BIT, false), // A.Z = 0
        i.clone().cb(Z, Z, Or),         // A.Z | B.Z = 1
        i.clone().cb(N, N, Xnor),       // XNOR(A.N, B.N) = 1
        i.clone().cb(N, Z, Xor).at(0x1234, 0x20),
    ];
    for inp in would_take {
        r.step(inp.no_branch(), &[Taken(false), Cnt(2), T0(false)])?;
    }
    r.step(r.idle(), &[T0(false), Cnt(2)])?;
    r.expect_stack(&[A, B], &NO_ERR)
}

/// X01 (contract): a branch presented under `pc_hold` pops, but the frozen DFC registers
/// do not record it, and a T1 redirect of that cycle is not taken either.
pub fn x01_branch_under_hold(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X01", dut);
    r.load(&[L0, L1])?; // c0, c1
    let inp = r.idle().bez().at(0x40, 0x10).hold().t1(0x300);
    r.step(inp, &[Taken(true), Target(0x50), Pc(2), Cnt(2)])?; // c2
    r.step(r.idle(), &[Cnt(1), R(L1), T0(false), Pc(2)])?; // c3
    r.step(r.idle(), &[Pc(3), T0(false)])?; // c4
    r.expect_stack(&[L1], &NO_ERR)
}
