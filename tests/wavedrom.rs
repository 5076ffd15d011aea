//! `warpgen sim --wavedrom` as a user meets it: the diagram of a short replay against values
//! read here from the stimulus and from the run's own output lines; the same diagram from
//! Icarus Verilog; bad `--ports` and `--cycles` are input errors that write nothing; and the
//! committed diagrams of `make docs` (docs/wave/) equal a re-run, JSON and SVG.

use serde_json::Value;
use std::path::Path;

mod common;
use common::{stderr, warpgen, write};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Fig. 4 of the scoreboard with a second completion port, 8 lines.
const STIMULUS: &str = "{\"reset\":1}\n\
{\"reset\":0,\"iss_valid\":1,\"iss_trk_en\":1,\"iss_trk\":2}\n\
{\"iss_trk_en\":0}\n\
\n\
{\"iss_dep_mask\":\"0x04\"}\n\
{\"cpl_valid\":2,\"cpl_tg\":0,\"cpl_trk\":\"0x10\"}\n\
{\"cpl_valid\":\"0\"}\n\
{\"iss_valid\":0,\"iss_dep_mask\":0}\n\
{}\n";

/// Every stimulus line's inputs, carried forward from 0 as the stimulus format says: one map
/// per non-blank line.
fn inputs_per_line(text: &str) -> Vec<serde_json::Map<String, Value>> {
    let mut now = serde_json::Map::new();
    let mut all = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let Value::Object(obj) = serde_json::from_str::<Value>(line).unwrap() else { panic!("{line}") };
        now.extend(obj);
        all.push(now.clone());
    }
    all
}

/// A stimulus or output value (number, "0x…" or decimal string; absent = 0) as a u128.
fn number(v: Option<&Value>) -> u128 {
    match v {
        None => 0,
        Some(Value::Number(n)) => n.as_u64().unwrap() as u128,
        Some(Value::String(s)) => match s.strip_prefix("0x") {
            Some(h) => u128::from_str_radix(h, 16).unwrap(),
            None => s.parse().unwrap(),
        },
        Some(other) => panic!("{other}"),
    }
}

/// The wave and labels WaveDrom should show for `values`: 1-bit as 0/1, wider as `=` with a
/// hex label, `.` for a repeat.
fn expected_wave(values: &[u128], one_bit: bool) -> (String, Vec<String>) {
    let (mut wave, mut data) = (String::new(), Vec::new());
    for (i, v) in values.iter().enumerate() {
        if i > 0 && values[i - 1] == *v {
            wave += ".";
        } else if one_bit {
            wave += &v.to_string();
        } else {
            wave += "=";
            data.push(format!("{v:x}"));
        }
    }
    (wave, data)
}

/// Signal `name` of a WaveJSON: (wave, labels).
fn signal(json: &Value, name: &str) -> (String, Vec<String>) {
    let s = json["signal"].as_array().unwrap().iter().find(|s| s["name"] == name).unwrap_or_else(|| panic!("no {name} in {json}"));
    let data = s.get("data").map_or(Vec::new(), |d| d.as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_string()).collect());
    (s["wave"].as_str().unwrap().to_string(), data)
}

#[test]
fn wavedrom_shows_the_stimulus_and_the_outputs_of_the_run() {
    let d = tempfile::tempdir().unwrap();
    let stim = write(d.path(), "in.jsonl", STIMULUS);
    let out = d.path().join("out.jsonl");
    let wave = d.path().join("w.json");
    let ports = ["clock", "iss_valid", "iss_trk", "iss_dep_mask", "cpl_valid", "iss_ready", "iss_fire", "tg_idle", "cnt_flat"];
    let list = ports.join(",");
    let o = warpgen(&[
        "sim", "scoreboard", "--stimulus", &stim, "--out", out.to_str().unwrap(), "--wavedrom", wave.to_str().unwrap(), "--ports", &list,
        "--cycles", "1..7",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&wave).unwrap();
    let json: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = json["signal"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ports, "the ports in --ports order");
    assert_eq!(json["head"]["tick"], 1, "periods numbered from the window's first line");

    let inputs = inputs_per_line(STIMULUS);
    let outputs: Vec<Value> = std::fs::read_to_string(&out).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!((inputs.len(), outputs.len()), (8, 8));
    assert_eq!(signal(&json, "clock"), ("p.....".to_string(), vec![]));
    for (port, one_bit) in [("iss_valid", true), ("iss_trk", false), ("iss_dep_mask", false), ("cpl_valid", false)] {
        let values: Vec<u128> = (1..7).map(|k| number(inputs[k].get(port))).collect();
        assert_eq!(signal(&json, port), expected_wave(&values, one_bit), "input {port}");
    }
    for (port, one_bit) in [("iss_ready", true), ("iss_fire", true), ("tg_idle", false), ("cnt_flat", false)] {
        let values: Vec<u128> = (1..7).map(|k| number(outputs[k].get(port))).collect();
        assert_eq!(signal(&json, port), expected_wave(&values, one_bit), "output {port}");
    }
    // The run did something worth drawing: the ADD waits, and the counter of tracker 2 moved.
    assert_eq!(signal(&json, "iss_fire").0, "1.0.10");
    assert_eq!(signal(&json, "cnt_flat").1, ["0", "100", "0"]);

    // Icarus Verilog draws the same diagram; without --ports and --cycles every port, every line.
    let icarus = d.path().join("i.json");
    let args = |w: &Path, sim: &'static str| -> Vec<String> {
        ["sim", "scoreboard", "--simulator", sim, "--stimulus", &stim, "--wavedrom", w.to_str().unwrap(), "--ports", &list, "--cycles", "1..7"]
            .map(String::from)
            .to_vec()
    };
    let o = warpgen(&args(&icarus, "icarus").iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&icarus).unwrap(), text, "Icarus and Verilator diagrams differ");
    let all = d.path().join("all.json");
    let o = warpgen(&["sim", "scoreboard", "--stimulus", &stim, "--wavedrom", all.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&all).unwrap()).unwrap();
    let signals = json["signal"].as_array().unwrap();
    let ports = warpgen(&["ports", "scoreboard"]);
    assert_eq!(signals.len(), String::from_utf8_lossy(&ports.stdout).lines().count() - 1, "every port");
    assert!(signals.iter().all(|s| s["wave"].as_str().unwrap().len() == 8), "every line");
}

#[test]
fn bad_ports_and_cycles_exit_2_and_write_nothing() {
    let d = tempfile::tempdir().unwrap();
    let stim = write(d.path(), "in.jsonl", STIMULUS);
    let wave = d.path().join("w.json");
    let out = d.path().join("out.jsonl");
    for (extra, needle) in [
        (vec!["--ports", "clock,nope"], "--ports: no port `nope`; the ports are clock, reset,"),
        (vec!["--ports", "iss_valid,iss_valid"], "port `iss_valid` is named twice"),
        (vec!["--ports", ""], "an empty name"),
        (vec!["--cycles", "0..9"], "--cycles 0..9: the replay has 8 cycles (0..8)"),
        (vec!["--cycles", "3..3"], "an empty range"),
        (vec!["--cycles", "8.."], "an empty range"),
        (vec!["--cycles", "2-4"], "write A..B"),
    ] {
        let mut args = vec!["sim", "scoreboard", "--stimulus", &stim, "--out", out.to_str().unwrap(), "--wavedrom", wave.to_str().unwrap()];
        args.extend(&extra);
        let o = warpgen(&args);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{extra:?}: {}", stderr(&o));
        assert!(!wave.exists() && !out.exists(), "{extra:?}: a failed run wrote a file");
    }
    // --ports and --cycles belong to --wavedrom.
    let o = warpgen(&["sim", "scoreboard", "--stimulus", &stim, "--out", out.to_str().unwrap(), "--cycles", "0..2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--wavedrom"), "{}", stderr(&o));
    assert!(!out.exists());
    let left: Vec<String> = std::fs::read_dir(d.path()).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(left, ["in.jsonl"], "nothing else in the folder");
}

/// The diagrams of `make docs`: the Makefile's WAVES (block:stimulus:ports).
fn waves() -> Vec<(String, String, String)> {
    let makefile = std::fs::read_to_string(Path::new(ROOT).join("Makefile")).unwrap();
    let start = makefile.find("\nWAVES ?=").expect("WAVES in the Makefile");
    let mut list = Vec::new();
    for line in makefile[start + 1..].lines().skip(1) {
        let entry = line.trim().trim_end_matches('\\').trim();
        let mut parts = entry.splitn(3, ':');
        let (Some(b), Some(s), Some(p)) = (parts.next(), parts.next(), parts.next()) else { panic!("WAVES entry `{entry}`") };
        list.push((b.to_string(), s.to_string(), p.to_string()));
        if !line.trim_end().ends_with('\\') {
            break;
        }
    }
    list
}

#[test]
fn committed_diagrams_equal_a_rerun() {
    let d = tempfile::tempdir().unwrap();
    let root = Path::new(ROOT);
    let renderer = root.join(".venv/bin/wavedrompy");
    assert!(renderer.exists(), "{} is missing: `make deps` installs the pinned PyPI wavedrom into .venv/", renderer.display());
    let list = waves();
    let mut blocks: Vec<&str> = list.iter().map(|(b, _, _)| b.as_str()).collect();
    blocks.sort();
    assert_eq!(blocks, ["branch_stack", "global_spreader", "scoreboard", "task_combiner", "thread_merge"], "one diagram per block");
    for (block, stim, ports) in &list {
        let json = d.path().join(format!("{block}.json"));
        let stim = root.join(stim);
        let o = warpgen(&["sim", block, "--stimulus", stim.to_str().unwrap(), "--wavedrom", json.to_str().unwrap(), "--ports", ports]);
        assert!(o.status.success(), "{block}: {}", stderr(&o));
        let committed = root.join(format!("docs/wave/{block}.json"));
        assert_eq!(
            std::fs::read_to_string(&json).unwrap(),
            std::fs::read_to_string(&committed).unwrap_or_default(),
            "{} differs from a re-run: run `make docs` and commit docs/wave/",
            committed.display()
        );
        let svg = d.path().join(format!("{block}.svg"));
        let o = std::process::Command::new(&renderer).arg("-i").arg(&json).arg("-s").arg(&svg).output().unwrap();
        assert!(o.status.success(), "{block}: wavedrompy: {}", stderr(&o));
        assert!(
            std::fs::read(&svg).unwrap() == std::fs::read(root.join(format!("docs/wave/{block}.svg"))).unwrap_or_default(),
            "docs/wave/{block}.svg differs from a re-render: run `make docs` and commit docs/wave/"
        );
        let page = std::fs::read_to_string(root.join(format!("docs/blocks/{block}.md"))).unwrap();
        assert!(page.contains(&format!("](../wave/{block}.svg)")), "docs/blocks/{block}.md does not show its diagram");
    }
}
