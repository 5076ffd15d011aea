//! Driving a model: ports, set/get/eval/tick semantics, checks, independence, replay.

mod common;

use common::{counter, get, set};
use warpgen_sim::{Dir, PortInfo, SimError};

#[test]
fn ports_are_discovered_with_direction_and_width() {
    let mut ports: Vec<(String, Dir, usize)> = counter()
        .ports()
        .iter()
        .map(|p| (p.name.clone(), p.dir, p.width))
        .collect();
    ports.sort();
    let expected = [
        ("clock", Dir::In, 1),
        ("count", Dir::Out, 33),
        ("count_low", Dir::Out, 32),
        ("enable", Dir::In, 1),
        ("load", Dir::In, 1),
        ("load_value", Dir::In, 33),
        ("odd", Dir::Out, 1),
        ("reset", Dir::In, 1),
        ("step", Dir::In, 16),
        ("step_echo", Dir::Out, 16),
        ("wide_in", Dir::In, 100),
        ("wide_not", Dir::Out, 100),
        ("wide_q", Dir::Out, 100),
    ];
    let expected: Vec<(String, Dir, usize)> = expected
        .iter()
        .map(|&(n, d, w)| (n.to_string(), d, w))
        .collect();
    assert_eq!(ports, expected);
    let stimulus: Vec<&str> = counter()
        .stimulus_ports()
        .map(|p| p.name.as_str())
        .collect();
    assert!(!stimulus.contains(&"clock") && stimulus.contains(&"wide_in") && stimulus.len() == 6);
}

#[test]
fn initial_state_is_settled_and_zero() {
    let sim = counter().instantiate().unwrap();
    for name in ["count", "count_low", "odd", "step_echo", "wide_q"] {
        assert_eq!(get(&sim, name), 0, "{name}");
    }
    // wide_not = ~0 over 100 bits, settled by the first evaluation.
    assert_eq!(
        sim.get_wide(sim.port("wide_not").unwrap()),
        [u64::MAX, (1 << 36) - 1]
    );
    assert_eq!(sim.cycle(), 0);
}

#[test]
fn eval_settles_combinational_logic_and_tick_updates_registers() {
    let mut sim = counter().instantiate().unwrap();
    set(&mut sim, "step", 5);
    set(&mut sim, "enable", 1);
    assert_eq!(get(&sim, "step_echo"), 0, "outputs change only on eval");
    sim.eval().unwrap();
    assert_eq!(get(&sim, "step_echo"), 5);
    assert_eq!(
        get(&sim, "count"),
        0,
        "registers change only on a clock edge"
    );
    sim.tick().unwrap();
    assert_eq!(
        (get(&sim, "count"), get(&sim, "odd"), sim.cycle()),
        (5, 1, 1)
    );
    sim.tick().unwrap();
    assert_eq!(
        (get(&sim, "count"), get(&sim, "odd"), sim.cycle()),
        (10, 0, 2)
    );
    set(&mut sim, "reset", 1);
    sim.tick().unwrap();
    assert_eq!(get(&sim, "count"), 0, "synchronous reset");
}

#[test]
fn thirty_three_bit_register_holds_and_wraps() {
    let mut sim = counter().instantiate().unwrap();
    let max = (1u64 << 33) - 1;
    set(&mut sim, "load_value", max);
    set(&mut sim, "load", 1);
    sim.tick().unwrap();
    assert_eq!(get(&sim, "count"), max);
    assert_eq!(get(&sim, "count_low"), 0xffff_ffff, "32-bit port");
    set(&mut sim, "load", 0);
    set(&mut sim, "enable", 1);
    set(&mut sim, "step", 1);
    sim.tick().unwrap();
    assert_eq!(get(&sim, "count"), 0, "33-bit wrap");
}

#[test]
fn hundred_bit_ports_carry_across_word_boundaries() {
    let mut sim = counter().instantiate().unwrap();
    let (wide_in, wide_not, wide_q) = (
        sim.port("wide_in").unwrap(),
        sim.port("wide_not").unwrap(),
        sim.port("wide_q").unwrap(),
    );
    sim.set_wide(wide_in, &[u64::MAX, 1]).unwrap();
    sim.eval().unwrap();
    assert_eq!(sim.get_wide(wide_not), [0, (1 << 36) - 2]);
    assert_eq!(sim.get_wide(wide_in), [u64::MAX, 1]);
    sim.tick().unwrap();
    assert_eq!(sim.get_wide(wide_q), [0, 2], "carry out of the low 64 bits");
    assert_eq!(sim.get(wide_q), 0, "get returns the low 64 bits");

    sim.set_wide(wide_in, &[0xffff_ffff, 0]).unwrap();
    sim.tick().unwrap();
    assert_eq!(
        sim.get_wide(wide_q),
        [0x1_0000_0000, 0],
        "carry across Verilator's 32-bit words"
    );

    sim.set_wide(wide_in, &[u64::MAX, (1 << 36) - 1]).unwrap();
    sim.tick().unwrap();
    assert_eq!(sim.get_wide(wide_q), [0, 0], "100-bit wrap");

    sim.set(wide_in, 7).unwrap();
    sim.eval().unwrap();
    assert_eq!(
        sim.get_wide(wide_in),
        [7, 0],
        "set() clears the bits above 64"
    );
    sim.set_wide(wide_in, &[3]).unwrap();
    assert_eq!(sim.get_wide(wide_in), [3, 0], "missing words are 0");
}

#[test]
fn unknown_port_error_lists_the_ports() {
    let sim = counter().instantiate().unwrap();
    let err = sim.port("nope").unwrap_err();
    assert!(matches!(err, SimError::UnknownPort { .. }));
    let msg = err.to_string();
    assert!(msg.contains("no port named `nope`"), "{msg}");
    for name in ["clock", "count", "wide_in", "step_echo"] {
        assert!(msg.contains(name), "{msg}");
    }
}

#[test]
fn set_rejects_values_wider_than_the_port_and_outputs() {
    let mut sim = counter().instantiate().unwrap();
    let p = |sim: &warpgen_sim::Sim, n: &str| sim.port(n).unwrap();
    let too_wide = [
        ("step", vec![1u64 << 16]),
        ("reset", vec![2]),
        ("load_value", vec![1 << 33]),
        ("wide_in", vec![0, 1 << 36]),
        ("wide_in", vec![0, 0, 1]),
        ("step", vec![0, 1]),
    ];
    for (name, words) in &too_wide {
        let port = p(&sim, name);
        let err = sim.set_wide(port, words).unwrap_err();
        assert!(
            matches!(err, SimError::ValueTooWide { .. }),
            "{name} {words:?}: {err}"
        );
        assert!(err.to_string().contains(name), "{err}");
    }
    let err = sim.set(p(&sim, "step"), 0x1_0000).unwrap_err();
    assert_eq!(
        err.to_string(),
        "value 0x10000 does not fit port `step` (16 bits)"
    );
    let err = sim.set(p(&sim, "count"), 1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "port `count` is an output: it cannot be set"
    );

    // Nothing was written by the failed calls.
    sim.eval().unwrap();
    assert_eq!(get(&sim, "step_echo"), 0);
    // The largest values that fit are accepted.
    set(&mut sim, "step", 0xffff);
    set(&mut sim, "load_value", (1 << 33) - 1);
    sim.set_wide(p(&sim, "wide_in"), &[u64::MAX, (1 << 36) - 1])
        .unwrap();
    // set_unchecked truncates to the width.
    let step = p(&sim, "step");
    sim.set_unchecked(step, 0x1_0005);
    sim.eval().unwrap();
    assert_eq!(get(&sim, "step_echo"), 5);
}

#[test]
fn instances_are_independent() {
    let mut a = counter().instantiate().unwrap();
    let mut b = counter().instantiate().unwrap();
    set(&mut a, "enable", 1);
    set(&mut a, "step", 3);
    set(&mut b, "enable", 1);
    set(&mut b, "step", 100);
    for _ in 0..4 {
        a.tick().unwrap();
    }
    b.tick().unwrap();
    assert_eq!((get(&a, "count"), a.cycle()), (12, 4));
    assert_eq!((get(&b, "count"), b.cycle()), (100, 1));
    drop(a);
    b.tick().unwrap();
    assert_eq!(
        get(&b, "count"),
        200,
        "dropping one instance leaves the other running"
    );
}

#[test]
fn instances_move_between_threads_and_run_in_parallel() {
    let handles: Vec<_> = (1..=2u64)
        .map(|step| {
            let mut sim = counter().instantiate().unwrap();
            set(&mut sim, "enable", 1);
            set(&mut sim, "step", step);
            std::thread::spawn(move || {
                for _ in 0..10_000 {
                    sim.tick().unwrap();
                }
                sim
            })
        })
        .collect();
    for (step, handle) in (1..=2u64).zip(handles) {
        let mut sim = handle.join().unwrap();
        assert_eq!(get(&sim, "count"), 10_000 * step);
        sim.tick().unwrap(); // back on this thread
        assert_eq!(get(&sim, "count"), 10_001 * step);
    }
}

/// Seeded stimulus for the counter's stimulus ports.
fn stimulus(ports: &[&PortInfo], cycles: usize) -> Vec<Vec<u64>> {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    (0..cycles)
        .map(|_| {
            let mut words = Vec::new();
            for port in ports {
                for i in 0..port.words() {
                    let bits = (port.width - 64 * i).min(64);
                    let r = next();
                    words.push(if port.name == "reset" {
                        u64::from(r % 16 == 0)
                    } else if bits == 64 {
                        r
                    } else {
                        r & ((1 << bits) - 1)
                    });
                }
            }
            words
        })
        .collect()
}

#[test]
fn replay_through_the_harness_matches_the_cxx_baseline() {
    let model = counter();
    let ports: Vec<&PortInfo> = model.stimulus_ports().collect();
    let stim = stimulus(&ports, 500);
    let harness = model.instantiate().unwrap().replay(&stim, 20).unwrap();
    let cxx = model.replay_bench_report(&stim, 20).unwrap();
    assert_eq!(harness.cycles, 10_000);
    assert_eq!(cxx.cycles, 10_000);
    assert_eq!(
        harness.checksum, cxx.checksum,
        "the harness and the C++ loop saw different outputs"
    );
    let rate = model.replay_bench(&stim, 20).unwrap();
    assert!(rate > 0.0 && rate.is_finite(), "{rate}");
    assert!(harness.cycles_per_second() > 0.0);
    println!(
        "counter: harness {:.0} cycles/s, C++ loop {:.0} cycles/s (ratio {:.2}; timing in tests is indicative only)",
        harness.cycles_per_second(),
        rate,
        harness.cycles_per_second() / rate
    );
}

#[test]
fn replay_rejects_malformed_stimulus() {
    let model = counter();
    let words: usize = model.stimulus_ports().map(PortInfo::words).sum();
    let short = vec![vec![0u64; words - 1]];
    let err = model.replay_bench(&short, 1).unwrap_err();
    assert!(matches!(err, SimError::InvalidStimulus(_)), "{err}");
    assert!(err.to_string().contains("wide_in[100]"), "{err}");
    let mut wide = vec![vec![0u64; words]];
    wide[0][0] = u64::MAX; // the first stimulus port is narrow
    let err = model.instantiate().unwrap().replay(&wide, 1).unwrap_err();
    assert!(matches!(err, SimError::InvalidStimulus(_)), "{err}");
}

#[test]
fn tick_needs_a_clock_port() {
    let model = common::build(
        "comb_only",
        "module comb_only(input [3:0] a, output [3:0] y);\n  assign y = a + 4'd1;\nendmodule\n",
    );
    let mut sim = model.instantiate().unwrap();
    set(&mut sim, "a", 15);
    sim.eval().unwrap();
    assert_eq!(get(&sim, "y"), 0);
    let err = sim.tick().unwrap_err();
    assert!(matches!(err, SimError::NoClock), "{err}");
    assert!(err.to_string().contains("`clock`"));
    // Replay works without a clock too (no tick).
    let report = model
        .instantiate()
        .unwrap()
        .replay(&[vec![1], vec![2]], 3)
        .unwrap();
    assert_eq!(
        report.checksum,
        model
            .replay_bench_report(&[vec![1], vec![2]], 3)
            .unwrap()
            .checksum
    );
}
