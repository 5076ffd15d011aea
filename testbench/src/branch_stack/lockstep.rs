//! The branch stack's bindings for the shared lockstep checker ([`crate::kit`]).

use super::rtl::RtlBranchStack;
use super::stimulus::{BranchStackStimulus, Coverage};
use super::{BranchStackInputs, BranchStackModel, BranchStackOutputs, BranchStackParams};

/// Marker type binding the branch stack to [`crate::kit::Block`].
pub struct BranchStack;

impl crate::kit::Block for BranchStack {
    const NAME: &'static str = "branch_stack";
    type Params = BranchStackParams;
    type Inputs = BranchStackInputs;
    type Outputs = BranchStackOutputs;
    type Model = BranchStackModel;
    type Stimulus = BranchStackStimulus;
    type Coverage = Coverage;
    type Rtl = RtlBranchStack;

    fn model(p: &BranchStackParams) -> BranchStackModel {
        BranchStackModel::new(p)
    }
    fn model_params(m: &BranchStackModel) -> &BranchStackParams {
        m.params()
    }
    fn model_outputs(m: &BranchStackModel, i: &BranchStackInputs) -> BranchStackOutputs {
        m.outputs(i)
    }
    fn model_clock(m: &mut BranchStackModel, i: &BranchStackInputs) {
        m.clock(i)
    }
    fn idle(p: &BranchStackParams) -> BranchStackInputs {
        BranchStackInputs::idle(p)
    }
    fn stimulus(p: &BranchStackParams, seed: u64, allow_errors: bool) -> BranchStackStimulus {
        BranchStackStimulus::new(p, seed).allow_errors(allow_errors)
    }
    fn next(s: &mut BranchStackStimulus, last: &BranchStackOutputs) -> BranchStackInputs {
        s.next(last)
    }
    fn coverage(p: &BranchStackParams, allow_errors: bool) -> Coverage {
        Coverage::new(p, allow_errors)
    }
    fn observe(c: &mut Coverage, i: &BranchStackInputs, o: &BranchStackOutputs) {
        c.observe(i, o)
    }
    fn assert_covered(c: &Coverage) -> Result<(), String> {
        c.assert_all_hit()
    }
    fn rtl(p: &BranchStackParams, trace: bool) -> Result<RtlBranchStack, String> {
        RtlBranchStack::new(p, trace)
    }
    fn rtl_sim(r: &mut RtlBranchStack) -> &mut warpgen_sim::Sim {
        r.sim()
    }
    fn first_difference(_: &BranchStackParams, _: &BranchStackInputs, e: &BranchStackOutputs, a: &BranchStackOutputs) -> Option<String> {
        first_difference(e, a)
    }
    fn tag(p: &BranchStackParams) -> String {
        let opts = format!("{}{}", if p.cnvz { "-cnvz" } else { "" }, if p.stall { "-stall" } else { "" });
        let opts = format!("{opts}{}", if p.perf_counters { "-perf" } else { "" });
        let opts = if p.tgs > 1 { format!("{opts}-tg{}", p.tgs) } else { opts };
        format!("d{}-src{}-pc{}{opts}", p.depth, p.nsrc, p.pc_w)
    }
}

/// The first output that differs, as "port: expected …, actual …". `sv_stack` (up to 128
/// bits) is compared entry by entry, after its length; nothing is allocated per cycle.
pub fn first_difference(e: &BranchStackOutputs, a: &BranchStackOutputs) -> Option<String> {
    let fields = |o: &BranchStackOutputs| {
        [
            ("br_taken", o.br_taken as u64),
            ("br_target", o.br_target),
            ("cc_r", o.cc_r as u64),
            ("cc_r_vld", o.cc_r_vld as u64),
            ("cc_s", o.cc_s as u64),
            ("cc_s_vld", o.cc_s_vld as u64),
            ("cc_cnt", o.cc_cnt),
            ("pc", o.pc),
            ("npc", o.npc),
            ("branch_t0_q", o.branch_t0_q as u64),
            ("t0pc_q", o.t0pc_q),
            ("err_ovf", o.err_ovf as u64),
            ("err_udf", o.err_udf as u64),
            ("err_port", o.err_port as u64),
            ("err_multi", o.err_multi as u64),
            ("cc_ready", o.cc_ready.iter().rev().fold(0, |a, &b| a << 1 | u64::from(b))),
            ("perf_val", o.perf_val),
            ("t0_tg_q", o.t0_tg_q as u64),
            ("sv_cnt", o.sv_cnt),
            ("sv_pc", o.sv_pc),
            ("sv_stack entries", o.sv_stack.len() as u64),
        ]
    };
    fields(e)
        .into_iter()
        .zip(fields(a))
        .find(|((_, x), (_, y))| x != y)
        .map(|((name, x), (_, y))| format!("{name}: expected {x:#x}, actual {y:#x}"))
        .or_else(|| {
            let k = e.sv_stack.iter().zip(&a.sv_stack).position(|(x, y)| x != y)?;
            Some(format!("sv_stack entry {k}: expected {:#x}, actual {:#x}", e.sv_stack[k], a.sv_stack[k]))
        })
}
