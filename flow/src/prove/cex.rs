//! A solver's counterexample as warpgen stimulus: the VCD that smtbmc writes (one time step of
//! 10 units per solver step, `smt_step` numbering them) becomes one JSON line per step with
//! every input of the block (`reset` included, `clock` implicit), the format `warpgen sim
//! --stimulus` replays. Line k holds step k's inputs, so the replay's output line k shows
//! step k's outputs. A property checked at a clock edge (every `a_` assert) and reported
//! failing at step S was violated by the values of step S-1: line S of the file, counted
//! from 1.
//!
//! Registers that the block does not reset start at any value in the proof and at 0 in
//! Verilator: a counterexample that depends on such a register's first value may replay
//! differently (the properties of warpgen's checkers look only at reset state).

use std::collections::BTreeMap;
use std::path::Path;
use warpgen_rtl::emit::Dir;
use warpgen_rtl::Emitted;
use warpgen_sim::stimulus::{from_binary, json_value};

/// Converts the VCD at `vcd` into stimulus lines for `e`'s inputs.
pub fn vcd_to_stimulus(vcd: &Path, e: &Emitted) -> Result<String, String> {
    let text = std::fs::read_to_string(vcd).map_err(|err| format!("cannot read: {err}"))?;
    vcd_text_to_stimulus(&text, e)
}

/// [`vcd_to_stimulus`] on the VCD's text.
pub fn vcd_text_to_stimulus(text: &str, e: &Emitted) -> Result<String, String> {
    let inputs: Vec<(&str, usize)> = e
        .ports
        .iter()
        .filter(|p| p.dir == Dir::In && p.name != "clock")
        .map(|p| (p.name.as_str(), p.width()))
        .collect();
    // Identifier code -> input index, for variables of the top scope only.
    let mut ids: BTreeMap<String, usize> = BTreeMap::new();
    let mut step_id = None;
    let mut depth = 0usize;
    let mut tokens = text.split_whitespace().peekable();
    while let Some(tok) = tokens.next() {
        match tok {
            "$scope" => depth += 1,
            "$upscope" => depth = depth.saturating_sub(1),
            "$var" => {
                let f: Vec<&str> = tokens.by_ref().take_while(|t| *t != "$end").collect();
                // $var <type> <width> <id> <name> [range] $end
                if f.len() >= 4 {
                    let (id, name) = (f[2], f[3]);
                    if depth == 0 && name == "smt_step" {
                        step_id = Some(id.to_string());
                    } else if depth == 1 {
                        if let Some(i) = inputs.iter().position(|(n, _)| *n == name) {
                            ids.insert(id.to_string(), i);
                        }
                    }
                }
            }
            "$enddefinitions" => {
                tokens.next();
                break;
            }
            _ => {}
        }
    }
    let step_id = step_id.ok_or("no smt_step variable: not a trace written by yosys-smtbmc")?;
    let mut values: Vec<String> = vec![String::new(); inputs.len()];
    let mut steps: Vec<Vec<String>> = Vec::new();
    let mut in_step = false;
    let flush = |in_step: &mut bool, values: &Vec<String>, steps: &mut Vec<Vec<String>>| {
        if *in_step {
            steps.push(values.clone());
            *in_step = false;
        }
    };
    while let Some(tok) = tokens.next() {
        if tok.starts_with('#') {
            flush(&mut in_step, &values, &mut steps);
            continue;
        }
        let (bits, id) = if let Some(b) = tok.strip_prefix('b') {
            (b.to_string(), tokens.next().unwrap_or("").to_string())
        } else if tok.starts_with(['0', '1', 'x', 'z', 'X', 'Z']) && tok.len() > 1 {
            (tok[..1].to_string(), tok[1..].to_string())
        } else {
            continue; // $dumpvars and the like
        };
        if id == step_id {
            in_step = true;
        } else if let Some(&i) = ids.get(&id) {
            values[i] = bits;
        }
    }
    flush(&mut in_step, &values, &mut steps);
    if steps.is_empty() {
        return Err("the trace has no step".into());
    }
    let mut out = String::new();
    for step in &steps {
        let fields: Vec<String> = inputs
            .iter()
            .zip(step)
            .map(|((name, width), bits)| format!("\"{name}\": {}", json_value(&from_binary(bits, *width), *width)))
            .collect();
        out += &format!("{{{}}}\n", fields.join(", "));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vcd_bit_strings_become_numbers_or_hex_strings() {
        let v = |bits: &str, w| json_value(&from_binary(bits, w), w);
        assert_eq!(v("101", 3), "5");
        assert_eq!(v("x1", 2), "1");
        assert_eq!(v(&format!("1{}", "0".repeat(68)), 69), "\"0x100000000000000000\"");
        assert_eq!(v(&"0".repeat(70), 70), "\"0x0\"");
    }
}
