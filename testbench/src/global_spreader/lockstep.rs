//! The global spreader's bindings for the shared lockstep checker ([`crate::kit`]).
//! Its coverage also runs the [`super::stimulus::Invariants`] checker on the model's
//! outputs, so every lockstep run checks the contract §6 invariants, and
//! [`Coverage::assert_all_hit`] reports a violation before any coverage hole.

use super::rtl::RtlGlobalSpreader;
use super::stimulus::{Coverage, GlobalSpreaderStimulus};
use super::{GlobalSpreaderInputs, GlobalSpreaderModel, GlobalSpreaderOutputs, GlobalSpreaderParams, TYPE_NAMES};

/// Marker type binding the global spreader to [`crate::kit::Block`].
pub struct GlobalSpreader;

impl crate::kit::Block for GlobalSpreader {
    const NAME: &'static str = "global_spreader";
    type Params = GlobalSpreaderParams;
    type Inputs = GlobalSpreaderInputs;
    type Outputs = GlobalSpreaderOutputs;
    type Model = GlobalSpreaderModel;
    type Stimulus = GlobalSpreaderStimulus;
    type Coverage = Coverage;
    type Rtl = RtlGlobalSpreader;

    fn model(p: &GlobalSpreaderParams) -> GlobalSpreaderModel {
        GlobalSpreaderModel::new(p)
    }
    fn model_params(m: &GlobalSpreaderModel) -> &GlobalSpreaderParams {
        m.params()
    }
    fn model_outputs(m: &GlobalSpreaderModel, i: &GlobalSpreaderInputs) -> GlobalSpreaderOutputs {
        m.outputs(i)
    }
    fn model_clock(m: &mut GlobalSpreaderModel, i: &GlobalSpreaderInputs) {
        m.clock(i)
    }
    fn idle(p: &GlobalSpreaderParams) -> GlobalSpreaderInputs {
        GlobalSpreaderInputs::idle(p)
    }
    fn stimulus(p: &GlobalSpreaderParams, seed: u64, allow_errors: bool) -> GlobalSpreaderStimulus {
        GlobalSpreaderStimulus::new(p, seed).allow_errors(allow_errors)
    }
    fn next(s: &mut GlobalSpreaderStimulus, last: &GlobalSpreaderOutputs) -> GlobalSpreaderInputs {
        s.next(last)
    }
    fn coverage(p: &GlobalSpreaderParams, allow_errors: bool) -> Coverage {
        Coverage::new(p, allow_errors)
    }
    fn observe(c: &mut Coverage, i: &GlobalSpreaderInputs, o: &GlobalSpreaderOutputs) {
        c.observe(i, o)
    }
    fn assert_covered(c: &Coverage) -> Result<(), String> {
        c.assert_all_hit()
    }
    fn rtl(p: &GlobalSpreaderParams, trace: bool) -> Result<RtlGlobalSpreader, String> {
        RtlGlobalSpreader::new(p, trace)
    }
    fn rtl_sim(r: &mut RtlGlobalSpreader) -> &mut warpgen_sim::Sim {
        r.sim()
    }
    fn first_difference(
        p: &GlobalSpreaderParams,
        _i: &GlobalSpreaderInputs,
        e: &GlobalSpreaderOutputs,
        a: &GlobalSpreaderOutputs,
    ) -> Option<String> {
        super::first_difference(p, e, a)
    }
    fn tag(p: &GlobalSpreaderParams) -> String {
        let types: String = (0..4).filter(|&t| p.has(t)).map(|t| &TYPE_NAMES[t][..1]).collect();
        let rob = if p.pixel_reorder > 0 { format!("-rob{}", p.pixel_reorder) } else { String::new() };
        let ways = if p.vdt_ways > 1 { format!("-w{}", p.vdt_ways) } else { String::new() };
        let kinds = if p.kinds() > 1 { format!("-k{}", p.kinds()) } else { String::new() };
        format!("eu{}-{types}-g{}-v{}{ways}-p{}{rob}{kinds}", p.eus, p.vgrp, p.vdt_depth, p.pt_depth)
    }
}
