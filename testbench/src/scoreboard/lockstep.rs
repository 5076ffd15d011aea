//! Random lockstep: the Verilated RTL against the model, every output every cycle.

use super::rtl::RtlScoreboard;
use super::stimulus::{Coverage, ScoreboardStimulus};
use super::{ScoreboardDut, ScoreboardModel, ScoreboardOutputs, ScoreboardParams};
use std::path::PathBuf;

/// What a passing run saw.
pub struct LockstepReport {
    pub cycles: u64,
    pub coverage: Coverage,
}

/// Where failing runs leave their waveforms: `$WARPGEN_FAIL_DIR`, else
/// `target/warpgen-failures` in the workspace.
pub fn failure_dir() -> PathBuf {
    std::env::var_os("WARPGEN_FAIL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let workspace = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("workspace root");
            workspace.join("target").join("warpgen-failures")
        })
}

/// The first output that differs, as "port: expected …, actual …".
pub fn first_difference(expected: &ScoreboardOutputs, actual: &ScoreboardOutputs, p: &ScoreboardParams) -> Option<String> {
    let at = |i: usize| format!("[g={} t={}]", i / p.num_trk, i % p.num_trk);
    let flags = [
        ("iss_ready", expected.iss_ready, actual.iss_ready),
        ("iss_fire", expected.iss_fire, actual.iss_fire),
        ("chk_ok", expected.chk_ok, actual.chk_ok),
        ("br_sat_a", expected.br_sat_a, actual.br_sat_a),
        ("br_sat_b", expected.br_sat_b, actual.br_sat_b),
        ("br_go", expected.br_go, actual.br_go),
        ("br_sel_b", expected.br_sel_b, actual.br_sel_b),
        ("err_underflow", expected.err_underflow, actual.err_underflow),
    ];
    if let Some((n, e, a)) = flags.iter().find(|(_, e, a)| e != a) {
        return Some(format!("{n}: expected {}, actual {}", *e as u8, *a as u8));
    }
    let vectors = [
        ("fetch_ok", &expected.fetch_ok, &actual.fetch_ok, false),
        ("tg_idle", &expected.tg_idle, &actual.tg_idle, false),
        ("trk_zero", &expected.trk_zero, &actual.trk_zero, true),
        ("trk_full", &expected.trk_full, &actual.trk_full, true),
    ];
    for (n, e, a, per_counter) in vectors {
        if let Some(i) = (0..e.len()).find(|i| e.get(*i) != a.get(*i)) {
            let idx = if per_counter { at(i) } else { format!("[{i}]") };
            return Some(format!("{n}{idx}: expected {}, actual {}", e[i] as u8, a.get(i).map_or(-1, |b| *b as i8)));
        }
    }
    (0..expected.cnt.len())
        .find(|i| expected.cnt.get(*i) != actual.cnt.get(*i))
        .map(|i| format!("cnt_flat{}: expected {}, actual {:?}", at(i), expected.cnt[i], actual.cnt.get(i)))
}

/// Runs `cycles` cycles of seeded saturating stimulus through RTL and model.
/// On a mismatch the error names seed, cycle, port, expected and actual, and
/// the run is repeated with tracing to leave a VCD in [`failure_dir`].
pub fn run(p: &ScoreboardParams, seed: u64, cycles: u64, allow_errors: bool) -> Result<LockstepReport, String> {
    match run_traced(p, seed, cycles, allow_errors, None) {
        Ok(r) => Ok(r),
        Err((cycle, msg)) => {
            let dir = failure_dir();
            let _ = std::fs::create_dir_all(&dir);
            let vcd = dir.join(format!("scoreboard-tg{}-trk{}-w{}-seed{seed}.vcd", p.num_tg, p.num_trk, p.cnt_w));
            let note = match run_traced(p, seed, cycle + 2, allow_errors, Some(&vcd)) {
                Err((c, _)) if c == cycle => format!("waveform: {}", vcd.display()),
                other => format!("waveform rerun did not reproduce the mismatch ({:?})", other.err().map(|e| e.0)),
            };
            Err(format!("{msg}\n{note}"))
        }
    }
}

fn run_traced(
    p: &ScoreboardParams,
    seed: u64,
    cycles: u64,
    allow_errors: bool,
    vcd: Option<&std::path::Path>,
) -> Result<LockstepReport, (u64, String)> {
    let mut rtl = RtlScoreboard::new(p, vcd.is_some()).map_err(|e| (0, e))?;
    if let Some(path) = vcd {
        rtl.open_vcd(path).map_err(|e| (0, e))?;
    }
    let mut model = ScoreboardModel::new(p);
    let mut stim = ScoreboardStimulus::new(p, seed).allow_errors(allow_errors);
    let mut coverage = Coverage::new(p, allow_errors);
    let mut last = model.outputs(&super::ScoreboardInputs::idle(p));
    for cycle in 0..cycles {
        let inp = stim.next(&last);
        let expected = model.outputs(&inp);
        let actual = rtl.eval(&inp);
        if let Some(d) = first_difference(&expected, &actual, p) {
            return Err((cycle, format!(
                "scoreboard lockstep mismatch: seed {seed}, cycle {cycle}, {d}\n  params: {p:?}\n  inputs: {inp:?}"
            )));
        }
        coverage.observe(&inp, &expected);
        model.clock(&inp);
        rtl.tick();
        last = expected;
    }
    Ok(LockstepReport { cycles, coverage })
}
