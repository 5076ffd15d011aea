//! What every block's verification shares: the directed-case runner and the
//! random lockstep checker (RTL in Verilator against the model, every output
//! every cycle, a VCD of the failing run on a mismatch).
//!
//! A block plugs in by implementing [`Block`] on a marker type; its model,
//! stimulus, coverage, RTL adapter and output comparison stay in its own module.
//! Directed cases, workloads and lockstep drive either implementation through one
//! interface, [`Dut`]: the model behind [`ModelDut`], or the Verilated RTL.

use std::fmt::Debug;
use std::path::{Path, PathBuf};

/// A cycle-driven implementation of block `B`: its model ([`ModelDut`]) or its
/// Verilated RTL (`B::Rtl`).
pub trait Dut<B: Block> {
    fn params(&self) -> &B::Params;
    /// Apply the inputs of this cycle, settle, return the outputs (no clock edge).
    fn eval(&mut self, inp: &B::Inputs) -> B::Outputs;
    /// One rising clock edge with the inputs last given to `eval`.
    fn tick(&mut self);
}

/// Block `B`'s reference model behind the [`Dut`] interface.
pub struct ModelDut<B: Block> {
    pub model: B::Model,
    last: B::Inputs,
}

impl<B: Block> ModelDut<B> {
    pub fn new(p: &B::Params) -> Self {
        Self::from_model(B::model(p))
    }

    /// The given model (e.g. a mutant) behind the DUT interface.
    pub fn from_model(model: B::Model) -> Self {
        let last = B::idle(B::model_params(&model));
        ModelDut { model, last }
    }
}

impl<B: Block> Clone for ModelDut<B>
where
    B::Model: Clone,
{
    fn clone(&self) -> Self {
        ModelDut { model: self.model.clone(), last: self.last.clone() }
    }
}

impl<B: Block> Debug for ModelDut<B>
where
    B::Model: Debug,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModelDut").field("model", &self.model).field("last", &self.last).finish()
    }
}

impl<B: Block> Dut<B> for ModelDut<B> {
    fn params(&self) -> &B::Params {
        B::model_params(&self.model)
    }

    fn eval(&mut self, inp: &B::Inputs) -> B::Outputs {
        self.last = inp.clone();
        B::model_outputs(&self.model, inp)
    }

    fn tick(&mut self) {
        B::model_clock(&mut self.model, &self.last);
    }
}

/// A block's verification bindings.
pub trait Block: Sized {
    /// Block name (file names of failure waveforms).
    const NAME: &'static str;
    type Params: Clone + Debug;
    type Inputs: Clone + Debug;
    type Outputs: Clone + PartialEq + Debug;
    type Model;
    type Stimulus;
    type Coverage: Debug;
    /// The Verilated RTL behind the block's DUT interface.
    type Rtl: Dut<Self>;

    fn model(p: &Self::Params) -> Self::Model;
    fn model_params(m: &Self::Model) -> &Self::Params;
    fn model_outputs(m: &Self::Model, i: &Self::Inputs) -> Self::Outputs;
    fn model_clock(m: &mut Self::Model, i: &Self::Inputs);
    /// All-quiet inputs (the outputs before the first stimulus are the model's for these).
    fn idle(p: &Self::Params) -> Self::Inputs;

    fn stimulus(p: &Self::Params, seed: u64, allow_errors: bool) -> Self::Stimulus;
    fn next(s: &mut Self::Stimulus, last: &Self::Outputs) -> Self::Inputs;

    fn coverage(p: &Self::Params, allow_errors: bool) -> Self::Coverage;
    fn observe(c: &mut Self::Coverage, i: &Self::Inputs, o: &Self::Outputs);
    fn assert_covered(c: &Self::Coverage) -> Result<(), String>;

    fn rtl(p: &Self::Params, trace: bool) -> Result<Self::Rtl, String>;
    /// The RTL's simulation instance (waveforms, recorded stimulus).
    fn rtl_sim(r: &mut Self::Rtl) -> &mut warpgen_sim::Sim;

    /// The first output that differs, as "port: expected …, actual …". The cycle's
    /// inputs qualify outputs that only mean something under a valid.
    fn first_difference(p: &Self::Params, inputs: &Self::Inputs, expected: &Self::Outputs, actual: &Self::Outputs) -> Option<String>;
    /// A short tag of the parameters for file names, e.g. `tg4-trk8-w4`.
    fn tag(p: &Self::Params) -> String;
}

/// Runs named directed cases with `run` (which builds a fresh DUT for each);
/// all failures, one per line, prefixed with the case name.
pub fn run_cases<C>(
    cases: impl IntoIterator<Item = (&'static str, C)>,
    mut run: impl FnMut(C) -> Result<(), String>,
) -> Result<(), String> {
    let failures: Vec<String> = cases
        .into_iter()
        .filter_map(|(name, case)| run(case).err().map(|e| format!("[{name}] {e}")))
        .collect();
    if failures.is_empty() {
        Ok(())
    } else {
        Err(failures.join("\n"))
    }
}

/// What a passing lockstep run saw.
pub struct LockstepReport<B: Block> {
    pub cycles: u64,
    pub coverage: B::Coverage,
}

/// Where failing runs leave their waveforms: `$WARPGEN_FAIL_DIR`, else
/// `target/warpgen-failures` in the workspace.
pub fn failure_dir() -> PathBuf {
    std::env::var_os("WARPGEN_FAIL_DIR").map(PathBuf::from).unwrap_or_else(|| {
        let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
        workspace.join("target").join("warpgen-failures")
    })
}

/// Runs `cycles` cycles of seeded stimulus through RTL and model, comparing
/// every output every cycle, then requires full coverage. On a mismatch the
/// error names seed, cycle, port, expected and actual, and the run is repeated
/// with tracing to leave a VCD in [`failure_dir`].
pub fn lockstep<B: Block>(p: &B::Params, seed: u64, cycles: u64, allow_errors: bool) -> Result<LockstepReport<B>, String> {
    let report = match run::<B>(p, seed, cycles, allow_errors, Run::default()) {
        Ok(r) => r,
        Err((cycle, msg)) => {
            let dir = failure_dir();
            let _ = std::fs::create_dir_all(&dir);
            let vcd = dir.join(format!("{}-{}-seed{seed}.vcd", B::NAME, B::tag(p)));
            let note = match run::<B>(p, seed, cycle + 2, allow_errors, Run { vcd: Some(&vcd), record: None }) {
                Err((c, _)) if c == cycle => format!("waveform: {}", vcd.display()),
                other => format!("the traced rerun did not reproduce the mismatch ({:?})", other.err().map(|e| e.0)),
            };
            return Err(format!("{msg}\n{note}"));
        }
    };
    B::assert_covered(&report.coverage).map_err(|e| format!("{} coverage, seed {seed}, {p:?}: {e}", B::NAME))?;
    Ok(report)
}

/// Lockstep cycles per second of block `B` at `p`: `cycles` cycles of seeded stimulus, every
/// output compared every cycle (a mismatch is an error), coverage not required. The
/// Verilator model is built (or loaded from the cache) before the clock starts.
pub fn lockstep_rate<B: Block>(p: &B::Params, seed: u64, cycles: u64) -> Result<f64, String> {
    B::rtl(p, false)?;
    let t = std::time::Instant::now();
    run::<B>(p, seed, cycles, false, Run::default()).map_err(|(_, m)| m)?;
    Ok(cycles as f64 / t.elapsed().as_secs_f64().max(1e-9))
}

/// What a lockstep run also writes: a VCD, the RTL's inputs as stimulus.
#[derive(Default)]
struct Run<'a> {
    vcd: Option<&'a Path>,
    record: Option<Box<dyn std::io::Write + Send>>,
}

fn run<B: Block>(p: &B::Params, seed: u64, cycles: u64, allow_errors: bool, also: Run) -> Result<LockstepReport<B>, (u64, String)> {
    let mut rtl = B::rtl(p, also.vcd.is_some()).map_err(|e| (0, e))?;
    if let Some(path) = also.vcd {
        B::rtl_sim(&mut rtl).open_vcd(path).map_err(|e| (0, e.to_string()))?;
    }
    if let Some(out) = also.record {
        B::rtl_sim(&mut rtl).record_stimulus(out);
    }
    let mut model = B::model(p);
    let mut stim = B::stimulus(p, seed, allow_errors);
    let mut coverage = B::coverage(p, allow_errors);
    let mut last = B::model_outputs(&model, &B::idle(p));
    for cycle in 0..cycles {
        let inp = B::next(&mut stim, &last);
        let expected = B::model_outputs(&model, &inp);
        let actual = rtl.eval(&inp);
        if let Some(d) = B::first_difference(p, &inp, &expected, &actual) {
            return Err((cycle, format!(
                "{} lockstep mismatch: seed {seed}, cycle {cycle}, {d}\n  params: {p:?}\n  inputs: {inp:?}",
                B::NAME
            )));
        }
        B::observe(&mut coverage, &inp, &expected);
        B::model_clock(&mut model, &inp);
        rtl.tick();
        last = expected;
    }
    Ok(LockstepReport { cycles, coverage })
}

/// Runs `cycles` cycles of seeded stimulus through the RTL in lockstep with the model (as
/// [`lockstep`], coverage not required) and records the RTL's inputs of every cycle to `out`
/// as `warpgen sim` stimulus: a random run that any simulator can replay.
pub fn record<B: Block>(p: &B::Params, seed: u64, cycles: u64, out: Box<dyn std::io::Write + Send>) -> Result<(), String> {
    run::<B>(p, seed, cycles, false, Run { vcd: None, record: Some(out) }).map(|_| ()).map_err(|(_, m)| m)
}

/// The first `cycles` inputs that block `B`'s stimulus gives for `seed`, driven
/// reactively by the model: equal for equal seeds is what makes a failing seed
/// reproducible.
pub fn stimulus_trace<B: Block>(p: &B::Params, seed: u64, cycles: usize, allow_errors: bool) -> Vec<B::Inputs> {
    let mut model = B::model(p);
    let mut stim = B::stimulus(p, seed, allow_errors);
    let mut last = B::model_outputs(&model, &B::idle(p));
    (0..cycles)
        .map(|_| {
            let i = B::next(&mut stim, &last);
            last = B::model_outputs(&model, &i);
            B::model_clock(&mut model, &i);
            i
        })
        .collect()
}

/// Coverage verdict shared by the blocks: every required bin `(name, hits,
/// required)` hit at least `min` times, else the bins that fell short.
pub fn check_bins<N: std::fmt::Display>(bins: &[(N, u64, bool)], min: u64, cycles: u64) -> Result<(), String> {
    let missed: Vec<String> = bins
        .iter()
        .filter(|(_, n, required)| *required && *n < min)
        .map(|(name, n, _)| format!("{name}={n}"))
        .collect();
    if missed.is_empty() {
        Ok(())
    } else {
        Err(format!("coverage below {min} hits after {cycles} cycles: {}", missed.join(", ")))
    }
}
