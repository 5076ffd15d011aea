//! `warpgen sim --wavedrom FILE.json`: a replay as a WaveDrom timing diagram (WaveJSON).
//!
//! It is written from what the replay already holds, the stimulus's inputs and the recorded
//! outputs of every cycle, so it is the same for Verilator and Icarus Verilog. Period k of
//! the diagram is stimulus line k: the inputs of that line and the outputs read after they
//! settled. The clock is `p`, whose rising edge opens a period: the edge that ends line k
//! (the one that samples its inputs) is the one drawn at the start of period k + 1.
//!
//! * 1-bit ports are `0` / `1`, `.` while unchanged;
//! * wider ports are `=` with a label, the value in hex without `0x` (`1f`), `.` while
//!   unchanged. Both simulators read unknown bits as 0, as the output lines do, so no `x`
//!   is ever written;
//! * the first period of the window always states its value;
//! * `config.hscale` widens the periods for the longest label (1 up to 4 hex digits, at
//!   most 4, for 16 digits);
//! * `head.tick` numbers the periods with their stimulus line (0-based, blank lines not
//!   counted), so a diagram of `--cycles 8..16` starts at 8.

use std::fmt::Write as _;
use std::ops::Range;
use warpgen_sim::stimulus::{hex_digits, Stimulus, Words};
use warpgen_sim::PortInfo;

/// Where a selected port's values come from.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    Clock,
    /// Index into the stimulus's inputs.
    Input(usize),
    /// Index into the outputs.
    Output(usize),
}

/// The ports of a diagram, in the order they are drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    ports: Vec<(String, usize, Source)>,
}

/// The ports named by `--ports a,b,c` (in that order), or every port of the block in port
/// order when `list` is `None`. An error names the port and lists the block's ports.
pub fn select(list: Option<&str>, ports: &[PortInfo], stim_inputs: &[(String, usize)], outputs: &[(String, usize)]) -> Result<Selection, String> {
    let names: Vec<String> = match list {
        None => ports.iter().map(|p| p.name.clone()).collect(),
        Some(text) => text.split(',').map(|s| s.trim().to_string()).collect(),
    };
    let all: Vec<&str> = ports.iter().map(|p| p.name.as_str()).collect();
    let mut selected: Vec<(String, usize, Source)> = Vec::new();
    for name in names {
        if name.is_empty() {
            return Err(format!("--ports {}: an empty name; give port names separated by commas", list.unwrap_or("")));
        }
        if selected.iter().any(|(n, _, _)| *n == name) {
            return Err(format!("--ports: port `{name}` is named twice"));
        }
        let Some(port) = ports.iter().find(|p| p.name == name) else {
            return Err(format!("--ports: no port `{name}`; the ports are {}", all.join(", ")));
        };
        let source = if port.is_clock() {
            Source::Clock
        } else if let Some(i) = stim_inputs.iter().position(|(n, _)| *n == name) {
            Source::Input(i)
        } else if let Some(j) = outputs.iter().position(|(n, _)| *n == name) {
            Source::Output(j)
        } else {
            return Err(format!("--ports: port `{name}` is neither the clock, a stimulus input nor an output"));
        };
        selected.push((name, port.width, source));
    }
    Ok(Selection { ports: selected })
}

/// `--cycles A..B` (from line A up to, not including, line B) or `A..` (to the end) against
/// a replay of `total` cycles; the whole replay when `None`.
pub fn cycles(text: Option<&str>, total: usize) -> Result<Range<usize>, String> {
    let Some(text) = text else { return Ok(0..total) };
    let bad = || format!("--cycles {text}: write A..B (lines A to B-1, counted from 0) or A.. (A to the end)");
    let (a, b) = text.split_once("..").ok_or_else(bad)?;
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = if b.trim().is_empty() { total } else { b.trim().parse().map_err(|_| bad())? };
    if b > total {
        return Err(format!("--cycles {text}: the replay has {total} cycles (0..{total}); B is at most {total}"));
    }
    if a >= b {
        return Err(format!("--cycles {text}: an empty range; A must be below B (the replay has {total} cycles, 0..{total})"));
    }
    Ok(a..b)
}

/// The WaveJSON of `window` of a replay: one signal per selected port, `head` naming the
/// block and window. `values` holds the outputs of every cycle (as `warpgen sim` writes them).
pub fn wavejson(block: &str, sel: &Selection, window: Range<usize>, stim: &Stimulus, values: &[Vec<Words>]) -> String {
    let mut signals = Vec::new();
    let mut widest = 0;
    for (name, width, source) in &sel.ports {
        let mut wave = String::new();
        let mut data: Vec<String> = Vec::new();
        let mut last: Option<&Words> = None;
        for k in window.clone() {
            let v = match source {
                Source::Clock => {
                    wave.push(if k == window.start { 'p' } else { '.' });
                    continue;
                }
                Source::Input(i) => &stim.cycles[k][*i],
                Source::Output(j) => &values[k][*j],
            };
            if last == Some(v) {
                wave.push('.');
            } else if *width == 1 {
                wave.push(if v.first().copied().unwrap_or(0) & 1 == 1 { '1' } else { '0' });
            } else {
                wave.push('=');
                data.push(hex_digits(v));
            }
            last = Some(v);
        }
        let mut s = format!("{{\"name\": {}, \"wave\": \"{wave}\"", json_string(name));
        widest = data.iter().map(String::len).max().unwrap_or(0).max(widest);
        if !data.is_empty() {
            let labels: Vec<String> = data.iter().map(|d| json_string(d)).collect();
            let _ = write!(s, ", \"data\": [{}]", labels.join(", "));
        }
        s.push('}');
        signals.push(s);
    }
    format!(
        "{{\"signal\": [\n  {}\n],\n\"head\": {{\"text\": {}, \"tick\": {}}},\n\"config\": {{\"hscale\": {}}}}}\n",
        signals.join(",\n  "),
        json_string(&format!("warpgen sim {block}: cycles {}..{}", window.start, window.end)),
        window.start,
        hscale(widest)
    )
}

/// WaveDrom's horizontal scale for labels of `digits` characters: a period at scale 1 holds
/// about 4 hex digits, so 1 up to 4 digits, 2 up to 9, 3 up to 14, at most 4 (16 digits, a
/// 64-bit value; longer labels overflow their period).
fn hscale(digits: usize) -> usize {
    (digits + 1).div_ceil(5).clamp(1, 4)
}

fn json_string(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpgen_sim::Dir;

    fn port(name: &str, dir: Dir, width: usize) -> PortInfo {
        PortInfo { name: name.into(), dir, width }
    }

    #[test]
    fn waves_repeat_with_dots_and_label_wide_values_in_hex() {
        let ports = [port("clock", Dir::In, 1), port("v", Dir::In, 1), port("d", Dir::In, 8), port("r", Dir::Out, 1)];
        let inputs = vec![("v".to_string(), 1), ("d".to_string(), 8)];
        let outputs = vec![("r".to_string(), 1)];
        let stim = Stimulus {
            inputs: inputs.clone(),
            cycles: vec![vec![vec![0], vec![0]], vec![vec![1], vec![0x1f]], vec![vec![1], vec![0x1f]], vec![vec![0], vec![2]]],
            lines: vec![1, 2, 3, 4],
        };
        let values = vec![vec![vec![0]], vec![vec![0]], vec![vec![1]], vec![vec![1]]];
        let sel = select(None, &ports, &inputs, &outputs).unwrap();
        let j = wavejson("b", &sel, 0..4, &stim, &values);
        assert!(j.contains("{\"name\": \"clock\", \"wave\": \"p...\"}"), "{j}");
        assert!(j.contains("{\"name\": \"v\", \"wave\": \"01.0\"}"), "{j}");
        assert!(j.contains("{\"name\": \"d\", \"wave\": \"==.=\", \"data\": [\"0\", \"1f\", \"2\"]}"), "{j}");
        assert!(j.contains("{\"name\": \"r\", \"wave\": \"0.1.\"}"), "{j}");
        let sel = select(Some("r,d"), &ports, &inputs, &outputs).unwrap();
        let j = wavejson("b", &sel, 2..4, &stim, &values);
        assert!(j.contains("\"wave\": \"1.\"}") && j.contains("\"wave\": \"==\", \"data\": [\"1f\", \"2\"]") && j.contains("\"tick\": 2"), "{j}");
        assert!(serde_json::from_str::<serde_json::Value>(&j).is_ok(), "{j}");
        assert!(j.contains("\"hscale\": 1}"), "{j}");
        assert_eq!([0, 4, 5, 9, 10, 14, 15, 16, 100].map(hscale), [1, 1, 2, 2, 3, 3, 4, 4, 4]);
        assert!(select(Some("r,r"), &ports, &inputs, &outputs).unwrap_err().contains("named twice"));
        assert!(select(Some("q"), &ports, &inputs, &outputs).unwrap_err().contains("no port `q`; the ports are clock, v, d, r"));
        assert!(select(Some("r,"), &ports, &inputs, &outputs).is_err());
    }

    #[test]
    fn cycle_ranges_are_half_open_and_checked() {
        assert_eq!(cycles(None, 7), Ok(0..7));
        assert_eq!(cycles(Some("2..5"), 7), Ok(2..5));
        assert_eq!(cycles(Some("2.."), 7), Ok(2..7));
        assert_eq!(cycles(Some("0..7"), 7), Ok(0..7));
        assert!(cycles(Some("0..8"), 7).unwrap_err().contains("has 7 cycles"));
        assert!(cycles(Some("5..5"), 7).unwrap_err().contains("empty range"));
        assert!(cycles(Some("7.."), 7).unwrap_err().contains("empty range"));
        for bad in ["3", "a..b", "-1..2", "1...3", "..2"] {
            assert!(cycles(Some(bad), 7).unwrap_err().contains("write A..B"), "{bad}");
        }
    }
}
