use super::directed::run_all;
use super::*;

fn model_factory(p: &TaskCombinerParams) -> Box<dyn TaskCombinerDut> {
    Box::new(ModelDut::new(p))
}

#[test]
fn directed_cases_pass_on_model() {
    run_all(&mut model_factory).unwrap();
}
