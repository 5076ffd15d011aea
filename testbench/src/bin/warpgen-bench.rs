//! `make bench`: throughput of the Verilator harness and emission time, for the
//! scoreboard at the default config.
//!
//! (a) harness: the Verilated block driven from Rust by the reactive random
//!     stimulus (each cycle's inputs chosen from the previous outputs);
//! (b) baseline: the same cycles, recorded, replayed by a plain C++ loop that
//!     calls the Verilated model directly (no Rust, no harness);
//! (a/b) the harness's efficiency (goal: at least 0.5);
//! (c) time to generate the Verilog of the default config.
//! Also: full lockstep speed (RTL + model + comparison every cycle).

use std::time::Instant;
use warpgen_testbench::scoreboard::rtl::{params_for, RtlScoreboard};
use warpgen_testbench::scoreboard::stimulus::ScoreboardStimulus;
use warpgen_testbench::scoreboard::{lockstep, ScoreboardDut, ScoreboardInputs, ScoreboardModel};

const CYCLES: u64 = 300_000;
const SEED: u64 = 2026;

fn main() -> Result<(), String> {
    let config = warpgen_rtl::Config::embedded(&[]).map_err(|e| e.to_string())?;
    let p = params_for(config.scoreboard()?);

    // (c) Verilog generation, best of 5.
    let mut gen = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        let e = warpgen_rtl::generate(&config, "scoreboard")?;
        gen = gen.min(t.elapsed().as_secs_f64());
        std::hint::black_box(e.verilog.len());
    }

    let emitted = warpgen_rtl::generate(&config, "scoreboard")?;
    let model = warpgen_testbench::build_block(&emitted, false).map_err(|e| e.to_string())?;

    // Record the reactive run's inputs (untimed), for the C++ baseline.
    let mut rtl = RtlScoreboard::new(&p, false)?;
    let mut stim = ScoreboardStimulus::new(&p, SEED);
    let mut last = ScoreboardModel::new(&p).outputs(&ScoreboardInputs::idle(&p));
    let mut recorded = Vec::with_capacity(CYCLES as usize);
    for _ in 0..CYCLES {
        let inp = stim.next(&last);
        last = rtl.eval(&inp);
        recorded.push(rtl.stimulus_words());
        rtl.tick();
    }

    // (a) The same reactive run, timed.
    let mut rtl = RtlScoreboard::new(&p, false)?;
    let mut stim = ScoreboardStimulus::new(&p, SEED);
    let mut last = ScoreboardModel::new(&p).outputs(&ScoreboardInputs::idle(&p));
    let t = Instant::now();
    for _ in 0..CYCLES {
        let inp = stim.next(&last);
        last = rtl.eval(&inp);
        rtl.tick();
    }
    let harness = CYCLES as f64 / t.elapsed().as_secs_f64();

    // (b) The plain C++ loop on the recorded stimulus.
    let baseline = model.replay_bench(&recorded, 3).map_err(|e| e.to_string())?;

    // Lockstep: RTL + model + comparison.
    let t = Instant::now();
    lockstep::run(&p, SEED, CYCLES, false)?;
    let lock = CYCLES as f64 / t.elapsed().as_secs_f64();

    println!("warpgen bench: scoreboard, default config ({} thread groups x {} trackers, {}-bit counters, {} completion ports)",
        p.num_tg, p.num_trk, p.cnt_w, p.num_cpl);
    println!("  (a) harness, reactive Rust testbench   {:>12.0} cycles/s", harness);
    println!("  (b) plain C++ loop, same stimulus      {:>12.0} cycles/s", baseline);
    println!("  a/b harness efficiency                 {:>12.2}", harness / baseline);
    println!("  lockstep RTL + model + compare         {:>12.0} cycles/s", lock);
    println!("  (c) Verilog generation, default config {:>12.1} ms", gen * 1e3);
    Ok(())
}
