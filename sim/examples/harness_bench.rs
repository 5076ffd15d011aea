//! Measures the harness against the plain C++ loop, and the cost of building.
//!
//! `cargo run --release -p warpgen-sim --example harness_bench [cycles]`
//!
//! 1. Cold build of a small design into an empty cache (includes compiling the Verilator
//!    runtime), cold build of a second design (runtime already cached), and cached load.
//!    With `WARPGEN_BENCH_CACHE=<dir>` the cache is kept: a second run then shows the
//!    cached load of a fresh process.
//! 2. The same seeded stimulus through [`Sim::replay`] (the Rust harness) and
//!    [`Model::replay_bench_report`] (a C++ program calling the Verilated model directly);
//!    best of several runs each, checksums compared.

use std::time::Instant;

use warpgen_sim::{BenchReport, BuildSpec, Model, SimError, Verilator};

const DESIGN: &str = r#"
module bench_dut(
    input             clock,
    input             reset,
    input             push,      // add data to the accumulator and the history
    input      [2:0]  sel,       // which history entry to show
    input      [15:0] data,
    output reg [31:0] acc,
    output     [15:0] shown,
    output     [7:0]  onehot,
    output            big
);
    reg [15:0] history [0:7];
    reg [2:0]  head;
    integer i;
    initial begin
        acc = 0;
        head = 0;
        for (i = 0; i < 8; i = i + 1) history[i] = 0;
    end
    always @(posedge clock) begin
        if (reset) begin
            acc <= 0;
            head <= 0;
        end else if (push) begin
            acc <= acc + {16'd0, data};
            history[head] <= data;
            head <= head + 3'd1;
        end
    end
    assign shown = history[sel];
    assign onehot = 8'd1 << sel;
    assign big = acc > 32'd100000;
endmodule
"#;

fn spec(nonce: &str) -> BuildSpec {
    BuildSpec::new("bench_dut").source("bench_dut.v", format!("// {nonce}\n{DESIGN}"))
}

/// Seeded stimulus: reset for 2 cycles, then random push / sel / data.
fn stimulus(model: &Model, cycles: usize) -> Vec<Vec<u64>> {
    let names: Vec<String> = model.stimulus_ports().map(|p| p.name.clone()).collect();
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..cycles)
        .map(|c| {
            let r = next();
            names
                .iter()
                .map(|name| match name.as_str() {
                    "reset" => u64::from(c < 2),
                    "push" => r & 1,
                    "sel" => (r >> 1) & 7,
                    "data" => (r >> 4) & 0xffff,
                    other => panic!("unexpected input {other}"),
                })
                .collect()
        })
        .collect()
}

fn timed<T>(f: impl FnOnce() -> Result<T, SimError>) -> Result<(T, f64), SimError> {
    let start = Instant::now();
    let value = f()?;
    Ok((value, start.elapsed().as_secs_f64()))
}

fn main() -> Result<(), SimError> {
    let total_cycles: usize = std::env::args()
        .nth(1)
        .map_or(2_000_000, |a| a.parse().expect("cycles"));
    // An empty cache, unless WARPGEN_BENCH_CACHE names one (to keep the libraries, e.g. for
    // a profiler).
    let tmp = tempfile::tempdir().map_err(|e| SimError::Io {
        context: "temp dir".into(),
        source: e,
    })?;
    let root = std::env::var_os("WARPGEN_BENCH_CACHE")
        .map_or_else(|| tmp.path().to_path_buf(), Into::into);
    let verilator = Verilator::find()?.with_cache_root(&root);

    let (model, first) = timed(|| verilator.build(&spec("a")))?;
    if model.was_cached() {
        println!(
            "cached load (first in this process, no verilator, no compiler): {:.1} ms",
            first * 1e3
        );
    } else {
        let (_, second_design) = timed(|| verilator.build(&spec("b")))?;
        println!("cold build (empty cache, incl. the Verilator runtime): {first:.2} s");
        println!("cold build (Verilator runtime cached):                 {second_design:.2} s");
    }
    let fresh = Verilator::find()?.with_cache_root(&root);
    let (cached, load) = timed(|| fresh.build(&spec("a")))?;
    assert!(cached.was_cached());
    println!(
        "cached load (library already loaded in this process):  {:.2} ms",
        load * 1e3
    );

    let stim = stimulus(&model, 1000);
    let repeat = (total_cycles / stim.len()).max(1);
    let mut sim = model.instantiate()?;
    sim.replay(&stim, 10)?; // warm up
    model.replay_bench_report(&stim, 10)?; // builds the benchmark program
    let mut runs = Vec::new();
    for _ in 0..5 {
        let h = model.instantiate()?.replay(&stim, repeat)?;
        let c = model.replay_bench_report(&stim, repeat)?;
        assert_eq!(h.checksum, c.checksum, "harness and C++ loop disagree");
        runs.push((h, c));
    }
    let best = |pick: fn(&(BenchReport, BenchReport)) -> BenchReport| {
        runs.iter()
            .map(pick)
            .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
            .unwrap()
    };
    let (h, c) = (best(|r| r.0), best(|r| r.1));
    let ns = |r: &BenchReport| r.seconds * 1e9 / r.cycles as f64;
    println!(
        "{} cycles, checksums equal ({:#018x})",
        h.cycles, h.checksum
    );
    println!(
        "harness (Rust, Sim::replay): {:>12.0} cycles/s  {:6.1} ns/cycle",
        h.cycles_per_second(),
        ns(&h)
    );
    println!(
        "plain C++ loop (replay_bench): {:>10.0} cycles/s  {:6.1} ns/cycle",
        c.cycles_per_second(),
        ns(&c)
    );
    println!(
        "harness / C++ = {:.2}  (harness overhead {:.1} ns/cycle)",
        h.cycles_per_second() / c.cycles_per_second(),
        ns(&h) - ns(&c)
    );
    Ok(())
}
