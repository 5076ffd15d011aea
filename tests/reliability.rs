//! The reliability suite: what a killed, interrupted or concurrent run leaves behind, and the
//! promises on exit statuses, file modes and the simulation cache. Each case runs the
//! `warpgen` program as a user would. Kills are at random points: the seed is printed, and
//! `WARPGEN_RELIABILITY_SEED` replays one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{stderr, warpgen, write};

/// Names in `dir` (sorted).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// Every file of `dir` with its contents.
fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    names(dir).into_iter().filter(|n| dir.join(n).is_file()).map(|n| (n.clone(), std::fs::read(dir.join(&n)).unwrap())).collect()
}

/// A small random generator (xorshift), seeded from the clock or WARPGEN_RELIABILITY_SEED.
struct Rng(u64);

impl Rng {
    fn new(case: &str) -> Rng {
        let seed = std::env::var("WARPGEN_RELIABILITY_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64 | 1
        });
        eprintln!("{case}: WARPGEN_RELIABILITY_SEED={seed}");
        Rng(seed)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n.max(1)
    }
}

/// Processes whose working directory is inside `dir` (the tools a run started there).
fn processes_in(dir: &Path) -> Vec<String> {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = e.file_name().to_string_lossy().into_owned();
        if !pid.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if let Ok(cwd) = std::fs::read_link(e.path().join("cwd")) {
            if cwd.starts_with(&dir) {
                let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
                found.push(format!("{pid}: {}", String::from_utf8_lossy(&cmd).replace('\0', " ")));
            }
        }
    }
    found
}

/// Waits up to `limit` for `done`.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let t = Instant::now();
    while t.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

/// warpgen's temporaries (named `.warpgen-…`) in `dir`.
fn temporaries(dir: &Path) -> Vec<String> {
    names(dir).into_iter().filter(|n| n.starts_with(".warpgen-")).collect()
}

/// SIGKILL at random points of `generate` between two configs: afterwards the directory holds
/// entirely the old set or entirely the new one, never a mix; a finished run then leaves no
/// temporary in the directory or beside it.
#[test]
fn generate_killed_at_random_points_leaves_the_old_set_or_the_new() {
    let d = tempfile::tempdir().unwrap();
    let (a_dir, b_dir, out) = (d.path().join("a"), d.path().join("b"), d.path().join("out"));
    let b_args = ["--set", "scoreboard.trackers=5", "--set", "task_combiner.entries=8"];
    assert!(warpgen(&["generate", "--out", a_dir.to_str().unwrap()]).status.success());
    let mut args = vec!["generate", "--out", b_dir.to_str().unwrap()];
    args.extend(b_args);
    assert!(warpgen(&args).status.success());
    let (a, b) = (snapshot(&a_dir), snapshot(&b_dir));
    assert_ne!(a, b);
    assert!(warpgen(&["generate", "--out", out.to_str().unwrap()]).status.success());
    // How long a whole run takes here, to spread the kills over it.
    let t = Instant::now();
    assert!(warpgen(&["generate", "--out", d.path().join("timing").to_str().unwrap()]).status.success());
    let span = t.elapsed().as_micros() as u64 + 1;
    let mut rng = Rng::new("generate_killed");
    let (mut old, mut new) = (0, 0);
    for i in 0..24 {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_warpgen"));
        cmd.args(["generate", "--out", out.to_str().unwrap()]).stdout(Stdio::null()).stderr(Stdio::null());
        if i % 2 == 0 {
            cmd.args(b_args);
        }
        let mut child = cmd.spawn().unwrap();
        std::thread::sleep(Duration::from_micros(rng.below(span)));
        let _ = child.kill();
        let _ = child.wait();
        let now: BTreeMap<String, Vec<u8>> = snapshot(&out).into_iter().filter(|(n, _)| !n.starts_with(".warpgen-")).collect();
        if now == a {
            old += 1;
        } else if now == b {
            new += 1;
        } else {
            panic!("kill {i}: the directory mixes the two sets: {:?}", now.keys().collect::<Vec<_>>());
        }
    }
    eprintln!("{old} kills left the default set, {new} the other");
    assert!(warpgen(&["generate", "--out", out.to_str().unwrap()]).status.success());
    assert_eq!(snapshot(&out), a);
    assert!(temporaries(&out).is_empty() && temporaries(d.path()).is_empty(), "{:?} {:?}", temporaries(&out), temporaries(d.path()));
}

/// A sweep killed with SIGKILL while Yosys or nextpnr runs leaves no tool running (the
/// tools' guard ends their process group); one stopped with SIGTERM also removes its
/// temporaries and ends with the signal. The next run removes what a SIGKILL left.
#[test]
fn a_killed_sweep_leaves_no_tool_running_and_the_next_run_cleans_up() {
    let d = tempfile::tempdir().unwrap();
    let cache = d.path().join("cache");
    let work = cache.join("work");
    let mut rng = Rng::new("killed_sweep");
    for signal in ["KILL", "TERM"] {
        let out = d.path().join(format!("sweep-{signal}"));
        let child = Command::new(env!("CARGO_BIN_EXE_warpgen"))
            .args(["sweep", "scoreboard", "--vary", "trackers=2,3", "--seeds", "1", "--out", out.to_str().unwrap()])
            .env("WARPGEN_SIM_CACHE", &cache)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        assert!(
            wait_for(Duration::from_secs(120), || !processes_in(&work).is_empty()),
            "no tool started under {}",
            work.display()
        );
        std::thread::sleep(Duration::from_millis(rng.below(1500)));
        assert!(Command::new("kill").args([&format!("-{signal}"), &child.id().to_string()]).status().unwrap().success());
        let o = child.wait_with_output().unwrap();
        assert!(
            wait_for(Duration::from_secs(5), || processes_in(&work).is_empty()),
            "SIG{signal}: tools still running: {:?}",
            processes_in(&work)
        );
        use std::os::unix::process::ExitStatusExt;
        if signal == "TERM" {
            assert_eq!(o.status.signal(), Some(15), "{}", stderr(&o));
            assert!(stderr(&o).contains("stopped by SIGTERM"), "{}", stderr(&o));
            assert!(temporaries(&work).is_empty(), "{:?}", temporaries(&work));
        }
    }
    // The next run in the same cache removes what the SIGKILLed one left.
    let o = Command::new(env!("CARGO_BIN_EXE_warpgen"))
        .args(["synth", "scoreboard", "--seeds", "1"])
        .env("WARPGEN_SIM_CACHE", &cache)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(temporaries(&work).is_empty(), "{:?}", temporaries(&work));
}

/// Two shards of one sweep started together into one directory: one header, every row whole
/// (each shard's one point once).
#[test]
fn shards_started_together_share_one_results_file() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("sweep");
    let shard = |k: &str| {
        Command::new(env!("CARGO_BIN_EXE_warpgen"))
            .args(["sweep", "scoreboard", "--vary", "trackers=2,3", "--seeds", "1", "--shard", k, "--out", out.to_str().unwrap()])
            .env("WARPGEN_SIM_CACHE", d.path().join("cache"))
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (one, two) = (shard("1/2"), shard("2/2"));
    for c in [one, two] {
        let o = c.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let text = std::fs::read_to_string(out.join("results.csv")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "a header and two rows:\n{text}");
    assert!(lines[0].starts_with("block,") && !lines[1].starts_with("block,") && !lines[2].starts_with("block,"), "{text}");
    assert!(lines[1..].iter().all(|l| l.starts_with("scoreboard,") && l.contains(",ok,")), "{text}");
}

/// A cached model whose shared library was cut short (a full disk, a killed copy) is found
/// by its manifest and rebuilt; it crashed `sim` with SIGBUS before.
#[test]
fn a_damaged_cache_entry_is_rebuilt() {
    let d = tempfile::tempdir().unwrap();
    let cache = d.path().join("cache");
    let stim = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/branch_stack_fig5_7.jsonl");
    let sim = || {
        Command::new(env!("CARGO_BIN_EXE_warpgen"))
            .args(["sim", "branch_stack", "--stimulus", stim])
            .env("WARPGEN_SIM_CACHE", &cache)
            .output()
            .unwrap()
    };
    let first = sim();
    assert!(first.status.success(), "{}", stderr(&first));
    let models: Vec<PathBuf> = names(&cache).into_iter().filter(|n| n.starts_with("m-")).map(|n| cache.join(n)).collect();
    assert_eq!(models.len(), 1, "{models:?}");
    let lib = models[0].join("obj").join("libwgsim.so");
    let bytes = std::fs::read(&lib).unwrap();
    std::fs::write(&lib, &bytes[..bytes.len() / 3]).unwrap();
    let again = sim();
    assert!(again.status.success(), "status {:?}: {}", again.status, stderr(&again));
    assert_eq!(again.stdout, first.stdout);
    assert_eq!(std::fs::read(&lib).unwrap().len(), bytes.len(), "the library was rebuilt");
}

/// Every file warpgen writes has the usual mode under the user's umask (0644 under 022): the
/// Verilog, the file list and waivers, `sim --out`, `synth --json` go through one writer.
#[test]
fn written_files_get_the_umask_mode() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("rtl");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("umask 022 && exec {} generate --out {}", env!("CARGO_BIN_EXE_warpgen"), out.display()))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    for f in ["warpgen_scoreboard.v", "files.f", "warpgen.vlt", "warpgen.core", "warpgen_blocks.v", "warpgen_ooc.v", "warpgen_ooc.pcf"] {
        let mode = std::fs::metadata(out.join(f)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o644, "{f}: {mode:o}");
    }
    // No temporary left behind.
    let names: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.starts_with('.')), "{names:?}");
}

/// Standard output that fails: `> /dev/full` is one line and exit status 1 (not a panic);
/// a reader that stops early (`| head -1`) ends the program quietly, as `cat`.
#[test]
fn standard_output_errors_are_one_line_not_a_panic() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_warpgen")).args(["ports", "global_spreader"]).stdout(full).output().unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("error: cannot write to standard output:") && err.lines().count() == 1, "{err}");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!("{} ports global_spreader | head -1", env!("CARGO_BIN_EXE_warpgen")))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).lines().count(), 1);
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
}

/// A temporary of warpgen's naming left by a killed run (older than an hour) is removed by the
/// next generate into the folder; a young one (a run going on) and other files are not.
#[test]
fn stale_temporaries_are_removed_by_the_next_run() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("rtl");
    std::fs::create_dir_all(&out).unwrap();
    let stale = write(&out, ".warpgen-abc123.tmp", "half");
    let young = write(&out, ".warpgen-def456.tmp", "busy");
    let other = write(&out, ".tmp-not-ours", "x");
    let o = Command::new("touch").args(["-d", "2 hours ago", &stale]).output().unwrap();
    assert!(o.status.success());
    let o = warpgen(&["generate", "--block", "scoreboard", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!Path::new(&stale).exists(), "stale temporary kept");
    assert!(Path::new(&young).exists() && Path::new(&other).exists());
}

/// A destination that cannot be written (a directory named like an output file) fails the
/// run naming that file, and leaves every file of the directory as it was.
#[test]
fn generate_blocked_by_a_directory_names_it_and_changes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("rtl");
    assert!(warpgen(&["generate", "--out", out.to_str().unwrap()]).status.success());
    std::fs::remove_file(out.join("warpgen.vlt")).unwrap();
    std::fs::create_dir(out.join("warpgen.vlt")).unwrap();
    let before = std::fs::read(out.join("warpgen_scoreboard.v")).unwrap();
    let o = warpgen(&["generate", "--set", "scoreboard.trackers=5", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("warpgen.vlt: is a directory"), "{}", stderr(&o));
    assert_eq!(std::fs::read(out.join("warpgen_scoreboard.v")).unwrap(), before, "the scoreboard was replaced");
    let names: Vec<String> = std::fs::read_dir(&out).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert!(names.iter().all(|n| !n.starts_with(".warpgen-")), "{names:?}");
}
