//! The thread-group merge unit's bindings for the shared lockstep checker
//! ([`crate::kit`]). Its coverage also runs the [`Invariants`] checker every cycle,
//! so every lockstep run checks the contract's invariants as well as the model.

use super::rtl::RtlThreadMerge;
use super::stimulus::{Coverage, Invariants, ThreadMergeStimulus};
use super::{ThreadMergeInputs, ThreadMergeModel, ThreadMergeOutputs, ThreadMergeParams};

/// Marker type binding the thread-group merge unit to [`crate::kit::Block`].
pub struct ThreadMerge;

/// Coverage bins and the per-cycle invariants of one run.
#[derive(Debug)]
pub struct Checked {
    pub coverage: Coverage,
    pub invariants: Invariants,
}

impl crate::kit::Block for ThreadMerge {
    const NAME: &'static str = "thread_merge";
    type Params = ThreadMergeParams;
    type Inputs = ThreadMergeInputs;
    type Outputs = ThreadMergeOutputs;
    type Model = ThreadMergeModel;
    type Stimulus = ThreadMergeStimulus;
    type Coverage = Checked;
    type Rtl = RtlThreadMerge;

    fn model(p: &ThreadMergeParams) -> ThreadMergeModel {
        ThreadMergeModel::new(p)
    }
    fn model_params(m: &ThreadMergeModel) -> &ThreadMergeParams {
        m.params()
    }
    fn model_outputs(m: &ThreadMergeModel, i: &ThreadMergeInputs) -> ThreadMergeOutputs {
        m.outputs(i)
    }
    fn model_clock(m: &mut ThreadMergeModel, i: &ThreadMergeInputs) {
        m.clock(i)
    }
    fn idle(p: &ThreadMergeParams) -> ThreadMergeInputs {
        ThreadMergeInputs::idle(p)
    }
    fn stimulus(p: &ThreadMergeParams, seed: u64, allow_errors: bool) -> ThreadMergeStimulus {
        ThreadMergeStimulus::new(p, seed).allow_errors(allow_errors)
    }
    fn next(s: &mut ThreadMergeStimulus, last: &ThreadMergeOutputs) -> ThreadMergeInputs {
        s.next(last)
    }
    fn coverage(p: &ThreadMergeParams, allow_errors: bool) -> Checked {
        Checked { coverage: Coverage::new(p, allow_errors), invariants: Invariants::new(p, allow_errors) }
    }
    fn observe(c: &mut Checked, i: &ThreadMergeInputs, o: &ThreadMergeOutputs) {
        c.coverage.observe(i, o);
        // The first violation is kept and reported by assert_covered.
        let _ = c.invariants.observe(i, o);
    }
    fn assert_covered(c: &Checked) -> Result<(), String> {
        if let Some(v) = c.invariants.first_violation() {
            return Err(format!("invariant violated: {v}"));
        }
        c.coverage.assert_all_hit()
    }
    fn rtl(p: &ThreadMergeParams, trace: bool) -> Result<RtlThreadMerge, String> {
        RtlThreadMerge::new(p, trace)
    }
    fn rtl_sim(r: &mut RtlThreadMerge) -> &mut warpgen_sim::Sim {
        r.sim()
    }
    fn first_difference(
        p: &ThreadMergeParams,
        _: &ThreadMergeInputs,
        e: &ThreadMergeOutputs,
        a: &ThreadMergeOutputs,
    ) -> Option<String> {
        super::compare::first_difference(p, e, a)
    }
    fn tag(p: &ThreadMergeParams) -> String {
        let ways = if p.merge_ways > 2 { format!("-w{}", p.merge_ways) } else { String::new() };
        format!("l{}-s{}-{}{ways}", p.lanes, p.slots, if p.remap { "remap" } else { "noremap" })
    }
}
