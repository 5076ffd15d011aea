//! The build cache: hits run no Verilator, keys cover the inputs, concurrent builds agree.
//! These tests use fresh cache roots, so they include a cold build.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use common::{counter_spec, get, set};
use warpgen_sim::{BuildSpec, Verilator};

/// A `verilator` that logs each invocation to `log`, then runs the real one.
fn logging_verilator(dir: &Path, log: &Path) -> PathBuf {
    let real = common::verilator().path().to_path_buf();
    let script = dir.join("verilator");
    let text = format!(
        "#!/bin/sh\necho \"$@\" >> '{}'\nexec '{}' \"$@\"\n",
        log.display(),
        real.display()
    );
    // Written by a child `sh`, not by this process: while this process held the file open
    // for writing, a test on another thread could fork, its child would inherit that fd,
    // and exec'ing the script would fail with ETXTBSY ("Text file busy"), as CI once saw.
    let mut sh = std::process::Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(&script)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    sh.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    assert!(sh.wait().unwrap().success(), "writing {}", script.display());
    script
}

fn calls(log: &Path) -> usize {
    std::fs::read_to_string(log).map_or(0, |s| s.lines().count())
}

#[test]
fn second_identical_build_runs_no_verilator() {
    let root = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    let log = bin.path().join("calls.log");
    let wrapper = logging_verilator(bin.path(), &log);

    let start = Instant::now();
    let first = Verilator::at(&wrapper)
        .with_cache_root(root.path())
        .build(&counter_spec())
        .unwrap();
    let cold = start.elapsed();
    assert!(!first.was_cached());
    let after_first = calls(&log);
    assert!(
        after_first >= 2,
        "expected --version and the build, got {after_first} calls"
    );

    // A new Verilator value, as in another process: nothing remembered in memory.
    let start = Instant::now();
    let second = Verilator::at(&wrapper)
        .with_cache_root(root.path())
        .build(&counter_spec())
        .unwrap();
    let cached = start.elapsed();
    assert!(second.was_cached());
    assert_eq!(calls(&log), after_first, "a cache hit ran verilator");
    assert_eq!(first.build_dir(), second.build_dir());
    println!(
        "cold build {:.2} s, cached load {:.2} ms",
        cold.as_secs_f64(),
        cached.as_secs_f64() * 1e3
    );

    let mut sim = second.instantiate().unwrap();
    set(&mut sim, "enable", 1);
    set(&mut sim, "step", 2);
    sim.tick().unwrap();
    assert_eq!(get(&sim, "count"), 2);

    // Every input of the key matters.
    let v = Verilator::at(&wrapper).with_cache_root(root.path());
    let variants = [
        counter_spec().trace(true),
        counter_spec().arg("-Wno-WIDTH"),
        BuildSpec::new("counter").source("counter2.v", common::COUNTER),
        BuildSpec::new("counter").source("counter.v", format!("{}\n// changed", common::COUNTER)),
    ];
    for spec in &variants {
        let model = v.build(spec).unwrap();
        assert!(!model.was_cached(), "{spec:?}");
        assert_ne!(model.build_dir(), first.build_dir());
    }
}

#[test]
fn concurrent_builds_of_one_design_agree() {
    let root = tempfile::tempdir().unwrap();
    let bin = tempfile::tempdir().unwrap();
    let log = bin.path().join("calls.log");
    let wrapper = logging_verilator(bin.path(), &log);
    let spec = BuildSpec::new("counter")
        .source("counter.v", format!("// concurrent\n{}", common::COUNTER));
    let dirs: Vec<PathBuf> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|_| {
                let (root, spec, wrapper) = (root.path(), &spec, &wrapper);
                s.spawn(move || {
                    let model = Verilator::at(wrapper)
                        .with_cache_root(root)
                        .build(spec)
                        .unwrap();
                    let mut sim = model.instantiate().unwrap();
                    set(&mut sim, "enable", 1);
                    set(&mut sim, "step", 7);
                    sim.tick().unwrap();
                    assert_eq!(get(&sim, "count"), 7);
                    model.build_dir().to_path_buf()
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(dirs.iter().all(|d| d == &dirs[0]), "{dirs:?}");
    // The entry's lock: one thread verilated the design, the others waited and loaded it.
    let log_text = std::fs::read_to_string(&log).unwrap();
    let builds = log_text.lines().filter(|l| l.contains("--top-module")).count();
    assert_eq!(builds, 1, "verilator runs:\n{log_text}");
    let leftovers: Vec<_> = std::fs::read_dir(root.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert!(
        leftovers.is_empty(),
        "temporary build directories left: {leftovers:?}"
    );
}
