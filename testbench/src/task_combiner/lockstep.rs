//! The task combiner's bindings for the shared lockstep checker ([`crate::kit`]).
//! Its coverage also runs the [`super::stimulus::Conservation`] checker, so every
//! lockstep run checks conservation and the output rules.

use super::rtl::RtlTaskCombiner;
use super::stimulus::{Coverage, TaskCombinerStimulus};
use super::{TaskCombinerInputs, TaskCombinerModel, TaskCombinerOutputs, TaskCombinerParams};

/// Marker type binding the task combiner to [`crate::kit::Block`].
pub struct TaskCombiner;

impl crate::kit::Block for TaskCombiner {
    const NAME: &'static str = "task_combiner";
    type Params = TaskCombinerParams;
    type Inputs = TaskCombinerInputs;
    type Outputs = TaskCombinerOutputs;
    type Model = TaskCombinerModel;
    type Stimulus = TaskCombinerStimulus;
    type Coverage = Coverage;
    type Rtl = RtlTaskCombiner;

    fn model(p: &TaskCombinerParams) -> TaskCombinerModel {
        TaskCombinerModel::new(p)
    }
    fn model_params(m: &TaskCombinerModel) -> &TaskCombinerParams {
        m.params()
    }
    fn model_outputs(m: &TaskCombinerModel, i: &TaskCombinerInputs) -> TaskCombinerOutputs {
        m.outputs(i)
    }
    fn model_clock(m: &mut TaskCombinerModel, i: &TaskCombinerInputs) {
        m.clock(i)
    }
    fn idle(p: &TaskCombinerParams) -> TaskCombinerInputs {
        TaskCombinerInputs::idle(p)
    }
    fn stimulus(p: &TaskCombinerParams, seed: u64, allow_errors: bool) -> TaskCombinerStimulus {
        TaskCombinerStimulus::new(p, seed).allow_errors(allow_errors)
    }
    fn next(s: &mut TaskCombinerStimulus, last: &TaskCombinerOutputs) -> TaskCombinerInputs {
        s.next(last)
    }
    fn coverage(p: &TaskCombinerParams, allow_errors: bool) -> Coverage {
        Coverage::new(p, allow_errors)
    }
    fn observe(c: &mut Coverage, i: &TaskCombinerInputs, o: &TaskCombinerOutputs) {
        c.observe(i, o)
    }
    fn assert_covered(c: &Coverage) -> Result<(), String> {
        c.assert_all_hit()
    }
    fn rtl(p: &TaskCombinerParams, trace: bool) -> Result<RtlTaskCombiner, String> {
        RtlTaskCombiner::new(p, trace)
    }
    fn rtl_sim(r: &mut RtlTaskCombiner) -> &mut warpgen_sim::Sim {
        r.sim()
    }
    fn first_difference(
        p: &TaskCombinerParams,
        i: &TaskCombinerInputs,
        e: &TaskCombinerOutputs,
        a: &TaskCombinerOutputs,
    ) -> Option<String> {
        super::first_difference(p, i, e, a)
    }
    fn tag(p: &TaskCombinerParams) -> String {
        let reg = if p.registered_issue { "-reg" } else { "" };
        let perf = if p.perf_counters { "-perf" } else { "" };
        let rin = if p.registered_input { "-rin" } else { "" };
        format!("e{}-w{}-tp{}-st{}-{}{reg}{rin}{perf}", p.entries, p.width, p.tile_pipes, p.shader_types, p.policy.name())
    }
}
