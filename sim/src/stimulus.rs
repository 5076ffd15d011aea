//! warpgen's replay stimulus (JSON lines) read against a design's ports, and its outputs
//! written back as JSON lines: the one format every simulator path shares (Verilator through
//! [`Sim::run_stimulus`](crate::Sim::run_stimulus), Icarus Verilog and the exported testbench
//! in `warpgen-flow`), and the format [`Sim::record_stimulus`](crate::Sim::record_stimulus)
//! writes.
//!
//! Each line is one clock cycle: a JSON object of input port names to values (numbers, or
//! strings "0x1f" / "31" of any width). An input not named keeps its last value; all start at
//! 0. `clock` is implicit; `reset` is an ordinary input. Blank lines are skipped.

use crate::ports::{fits, hex};
use crate::{Sim, SimError};
use std::fmt::Write as _;
use std::io::Write as _;
use warpgen_ports::{Dir, PortInfo};

/// A value as little-endian 64-bit words.
pub type Words = Vec<u64>;

/// A stimulus file read against a block: every input's value in every cycle.
#[derive(Debug, Clone, PartialEq)]
pub struct Stimulus {
    /// The block's inputs but the clock, in port order: name and width.
    pub inputs: Vec<(String, usize)>,
    /// Per cycle, every input's value (in the order of `inputs`).
    pub cycles: Vec<Vec<Words>>,
    /// Per cycle, the stimulus file's line number (1-based), for messages.
    pub lines: Vec<usize>,
}

/// The outputs in port order: name and width.
pub fn outputs(ports: &[PortInfo]) -> Vec<(String, usize)> {
    ports.iter().filter(|p| p.dir == Dir::Out).map(|p| (p.name.clone(), p.width)).collect()
}

/// The inputs a stimulus carries (every input but the clock) in port order: name and width.
pub fn inputs(ports: &[PortInfo]) -> Vec<(String, usize)> {
    ports.iter().filter(|p| p.is_stimulus()).map(|p| (p.name.clone(), p.width)).collect()
}

/// Reads `text` (from `source`, for messages) against `ports`. An error is
/// `source:line: port `x`: …`.
pub fn parse(text: &str, source: &str, ports: &[PortInfo]) -> Result<Stimulus, String> {
    let inputs = inputs(ports);
    let mut current: Vec<Words> = inputs.iter().map(|(_, w)| vec![0; w.div_ceil(64)]).collect();
    let mut cycles = Vec::new();
    let mut lines = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |m: String| format!("{source}:{}: {m}", i + 1);
        let value: serde_json::Value = serde_json::from_str(line).map_err(|err| at(format!("not JSON: {err}")))?;
        let obj = value
            .as_object()
            .ok_or_else(|| at("a line must be a JSON object of input ports, e.g. {\"reset\": 1}".to_string()))?;
        for (name, v) in obj {
            if name == "clock" {
                return Err(at("port `clock`: is implicit, one rising edge per line".to_string()));
            }
            let Some(k) = inputs.iter().position(|(n, _)| n == name) else {
                if ports.iter().any(|p| p.name == *name) {
                    return Err(at(format!("port `{name}`: is an output and cannot be driven")));
                }
                let names: Vec<&str> = inputs.iter().map(|(n, _)| n.as_str()).collect();
                return Err(at(format!("port `{name}`: no such input; inputs are {}", names.join(", "))));
            };
            let width = inputs[k].1;
            let mut words = parse_value(v).map_err(|m| at(format!("port `{name}`: {m}")))?;
            if !fits(&words, width) {
                return Err(at(format!("port `{name}`: value {v} does not fit its {width} bits")));
            }
            words.resize(width.div_ceil(64), 0);
            current[k] = words;
        }
        cycles.push(current.clone());
        lines.push(i + 1);
    }
    Ok(Stimulus { inputs, cycles, lines })
}

/// A JSON number or a "0x…"/decimal string as little-endian 64-bit words.
pub fn parse_value(v: &serde_json::Value) -> Result<Words, String> {
    match v {
        serde_json::Value::Number(n) => n
            .as_u64()
            .map(|x| vec![x])
            .ok_or_else(|| format!("{n} is not a non-negative integer below 2^64 (use a \"0x…\" string for wider values)")),
        serde_json::Value::Bool(b) => Ok(vec![*b as u64]),
        serde_json::Value::String(s) => parse_string(s),
        other => Err(format!("{other} is not a number or a \"0x…\" string")),
    }
}

fn parse_string(s: &str) -> Result<Words, String> {
    let bad = || format!("\"{s}\" is not a number: write \"0x1f\" (hex) or \"31\" (decimal)");
    let t = s.trim().replace('_', "");
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad());
        }
        Ok(from_hex(hex))
    } else {
        t.parse::<u64>().map(|x| vec![x]).map_err(|_| bad())
    }
}

/// Hex digits (no prefix, all valid) as little-endian words.
pub fn from_hex(hex: &str) -> Words {
    let digits: Vec<u64> = hex.chars().rev().map(|c| c.to_digit(16).unwrap_or(0) as u64).collect();
    digits.chunks(16).map(|chunk| chunk.iter().enumerate().fold(0u64, |acc, (i, d)| acc | (d << (4 * i)))).collect()
}

/// The hex digits of little-endian words, without leading zeros ("0" for zero).
pub fn hex_digits(words: &[u64]) -> String {
    hex(words)[2..].to_string()
}

/// A value as JSON: a number up to 64 bits, a `"0x…"` string beyond.
pub fn json_value(words: &[u64], width: usize) -> String {
    if width <= 64 {
        words.first().copied().unwrap_or(0).to_string()
    } else {
        format!("\"{}\"", hex(words))
    }
}

/// A simulator's binary digits (most significant first) as a `width`-bit value; x and z
/// bits, and digits beyond `width`, read as 0.
pub fn from_binary(bits: &str, width: usize) -> Words {
    let mut v = vec![0u64; width.div_ceil(64).max(1)];
    for (i, b) in bits.bytes().rev().enumerate().take(width) {
        if b == b'1' {
            v[i / 64] |= 1 << (i % 64);
        }
    }
    v
}

/// `{"port":value,…}` of every output, in port order: numbers up to 64 bits, "0x…" beyond.
pub fn outputs_json(outputs: &[(String, usize)], values: &[Words]) -> String {
    let mut s = String::from("{");
    for (i, ((name, width), v)) in outputs.iter().zip(values).enumerate() {
        if i > 0 {
            s.push(',');
        }
        let _ = write!(s, "\"{name}\":{}", json_value(v, *width));
    }
    s.push('}');
    s
}

/// Writes the inputs of every cycle of a [`Sim`] as stimulus lines (see
/// [`Sim::record_stimulus`]).
pub(crate) struct Recorder {
    out: Box<dyn std::io::Write + Send>,
    /// (slot index, name, width) of every stimulus input.
    inputs: Vec<(usize, String, usize)>,
}

impl Recorder {
    pub(crate) fn new(ports: &[PortInfo], out: Box<dyn std::io::Write + Send>) -> Recorder {
        let inputs = ports.iter().enumerate().filter(|(_, p)| p.is_stimulus()).map(|(i, p)| (i, p.name.clone(), p.width)).collect();
        Recorder { out, inputs }
    }

    /// One line: every input's value as `sim` holds it now.
    pub(crate) fn line(&mut self, sim: &Sim) -> std::io::Result<()> {
        let mut s = String::from("{");
        for (k, (i, name, width)) in self.inputs.iter().enumerate() {
            if k > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "\"{name}\": {}", json_value(&sim.get_wide(crate::PortId(*i as u32)), *width));
        }
        s.push_str("}\n");
        self.out.write_all(s.as_bytes())
    }

    pub(crate) fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}

impl Sim {
    /// Replays `stim` (read against this model's ports): per cycle, every input, evaluate,
    /// the outputs `outputs` (name and width, in the order given: the design's declaration
    /// order, which Verilator's port table does not keep), one rising edge. Returns the
    /// outputs of every cycle.
    pub fn run_stimulus(&mut self, stim: &Stimulus, outputs: &[(String, usize)]) -> Result<Vec<Vec<Words>>, SimError> {
        let inputs = stim.inputs.iter().map(|(n, _)| self.port(n)).collect::<Result<Vec<_>, _>>()?;
        let outputs = outputs.iter().map(|(n, _)| self.port(n)).collect::<Result<Vec<_>, _>>()?;
        let mut values = Vec::with_capacity(stim.cycles.len());
        for cycle in &stim.cycles {
            for (p, v) in inputs.iter().zip(cycle) {
                self.set_wide(*p, v)?;
            }
            self.eval()?;
            values.push(outputs.iter().map(|p| self.get_wide(*p)).collect());
            self.tick()?;
        }
        Ok(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_in_every_form() {
        assert_eq!(parse_value(&serde_json::json!(31)).unwrap(), vec![31]);
        assert_eq!(parse_value(&serde_json::json!("0x1f")).unwrap(), vec![31]);
        assert_eq!(parse_value(&serde_json::json!("31")).unwrap(), vec![31]);
        assert_eq!(parse_value(&serde_json::json!("0x1_0000000000000002")).unwrap(), vec![2, 1]);
        assert!(parse_value(&serde_json::json!(-1)).is_err());
        assert!(parse_value(&serde_json::json!("0xg")).is_err());
        assert!(parse_value(&serde_json::json!([1])).is_err());
    }

    #[test]
    fn width_check_and_hex_output() {
        assert_eq!(hex_digits(&[2, 1]), "10000000000000002");
        assert_eq!(hex_digits(&[0, 0]), "0");
        assert_eq!(from_hex("10000000000000002"), vec![2, 1]);
        assert_eq!(from_binary("x101", 4), vec![5]);
        assert_eq!(from_binary("1", 70), vec![1, 0]);
        assert_eq!(json_value(&[5], 3), "5");
        assert_eq!(json_value(&[0, 1 << 5], 70), "\"0x200000000000000000\"");
    }
}
