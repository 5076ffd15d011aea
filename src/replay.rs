//! `warpgen sim`: stimulus replay through a block in Verilator.
//!
//! Each line of the input is one clock cycle: a JSON object of input port names
//! to values (numbers, or strings "0x1f" / "31" for any width). An input not
//! named keeps its last value; all start at 0. For each line the inputs are
//! applied, the design settles, one JSON object with every output port is
//! written (numbers up to 64 bits, "0x…" strings beyond), then one rising clock
//! edge is given. `clock` is implicit; `reset` is an ordinary input. Blank
//! lines are skipped.

use crate::{failure, input_error, Failure};
use std::fmt::Write as _;
use std::path::Path;
use warpgen_rtl::Config;
use warpgen_sim::{Dir, PortId, Sim};

pub fn run(config: &Config, block: &str, stimulus: &Path, out: Option<&Path>, vcd: Option<&Path>, rtl: &[std::path::PathBuf]) -> Result<(), Failure> {
    let mut emitted = crate::emit(config, block)?;
    if !rtl.is_empty() {
        emitted.verilog = warpgen_flow::prove::block_verilog(&emitted, rtl).map_err(crate::flow_failure)?;
    }
    // `-` is standard input.
    let text = if stimulus == Path::new("-") {
        std::io::read_to_string(std::io::stdin()).map_err(|e| input_error(format!("standard input: cannot read the stimulus: {e}")))?
    } else {
        std::fs::read_to_string(stimulus)
            .map_err(|e| input_error(format!("{}: cannot read the stimulus: {e}", stimulus.display())))?
    };
    let model = warpgen_testbench::build_block(&emitted, vcd.is_some()).map_err(|e| failure(e.to_string()))?;
    // The waveform goes to a temporary file beside its destination and is renamed there only
    // when the whole run succeeded: a failed run leaves an existing VCD as it was. Declared
    // before the simulation, so that on an early return the simulation (which closes the
    // file) is dropped first and the temporary is removed after it.
    let vcd_tmp = match vcd {
        Some(path) => Some(vcd_temporary(path).map_err(|e| failure(format!("{}: {e}", path.display())))?),
        None => None,
    };
    let mut sim = model.instantiate().map_err(|e| failure(e.to_string()))?;
    if let (Some(tmp), Some(path)) = (&vcd_tmp, vcd) {
        sim.open_vcd(tmp).map_err(|e| failure(format!("{}: {e}", path.display())))?;
    }
    // Outputs in the block's declared order (the port table of docs/blocks/<block>.md).
    let outputs: Vec<(String, PortId)> = emitted
        .ports
        .iter()
        .filter(|p| p.dir == warpgen_rtl::emit::Dir::Out)
        .map(|p| sim.port(&p.name).map(|id| (p.name.clone(), id)))
        .collect::<Result<_, _>>()
        .map_err(|e| failure(e.to_string()))?;
    let mut result = String::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = |msg: String| input_error(format!("{}:{}: {msg}", stimulus.display(), i + 1));
        apply_line(&mut sim, line).map_err(at)?;
        sim.eval().map_err(|e| failure(format!("{}:{}: {e}", stimulus.display(), i + 1)))?;
        result += &outputs_json(&sim, &outputs);
        result.push('\n');
        sim.tick().map_err(|e| failure(format!("{}:{}: {e}", stimulus.display(), i + 1)))?;
    }
    drop(sim); // flushes and closes the VCD
    match out {
        None => print!("{result}"),
        Some(path) => crate::output::write_file(path, &result).map_err(|e| failure(format!("{}: {e}", path.display())))?,
    }
    if let (Some(tmp), Some(path)) = (vcd_tmp, vcd) {
        tmp.persist(path).map_err(|e| failure(format!("{}: {}", path.display(), e.error)))?;
    }
    Ok(())
}

/// A temporary file in the folder of `path` (removed when dropped), mode 0666 less the umask.
fn vcd_temporary(path: &Path) -> std::io::Result<tempfile::TempPath> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Ok(warpgen_sim::temp::file_in(dir, "vcd", ".tmp")?.into_temp_path())
}

/// Applies one stimulus line's inputs.
fn apply_line(sim: &mut Sim, line: &str) -> Result<(), String> {
    let value: serde_json::Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
    let obj = value
        .as_object()
        .ok_or_else(|| "a line must be a JSON object of input ports, e.g. {\"reset\": 1}".to_string())?;
    for (name, v) in obj {
        let port = sim.port(name).map_err(|_| {
            let inputs: Vec<&str> = sim
                .ports()
                .iter()
                .filter(|p| p.dir == Dir::In && p.name != "clock")
                .map(|p| p.name.as_str())
                .collect();
            format!("port `{name}`: no such input; inputs are {}", inputs.join(", "))
        })?;
        let info = sim.info(port).clone();
        if info.dir != Dir::In {
            return Err(format!("port `{name}`: is an output and cannot be driven"));
        }
        if name == "clock" {
            return Err("port `clock`: is implicit, one rising edge per line".to_string());
        }
        let words = parse_value(v).map_err(|m| format!("port `{name}`: {m}"))?;
        if !fits(&words, info.width) {
            return Err(format!("port `{name}`: value {v} does not fit its {} bits", info.width));
        }
        sim.set_wide(port, &words).map_err(|e| format!("port `{name}`: {e}"))?;
    }
    Ok(())
}

/// A JSON number or a "0x…"/decimal string as little-endian 64-bit words.
fn parse_value(v: &serde_json::Value) -> Result<Vec<u64>, String> {
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

fn parse_string(s: &str) -> Result<Vec<u64>, String> {
    let bad = || format!("\"{s}\" is not a number: write \"0x1f\" (hex) or \"31\" (decimal)");
    let t = s.trim().replace('_', "");
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        if hex.is_empty() || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(bad());
        }
        let digits: Vec<u64> = hex.chars().rev().map(|c| c.to_digit(16).unwrap() as u64).collect();
        Ok(digits
            .chunks(16)
            .map(|chunk| chunk.iter().enumerate().fold(0u64, |acc, (i, d)| acc | (d << (4 * i))))
            .collect())
    } else {
        t.parse::<u64>().map(|x| vec![x]).map_err(|_| bad())
    }
}

/// Whether `words` has no bit set at or above `width`.
fn fits(words: &[u64], width: usize) -> bool {
    words.iter().enumerate().all(|(i, w)| {
        let lo = i * 64;
        if lo >= width {
            *w == 0
        } else if width - lo >= 64 {
            true
        } else {
            w >> (width - lo) == 0
        }
    })
}

/// `{"port": value, …}` of every output, in port order.
fn outputs_json(sim: &Sim, outputs: &[(String, PortId)]) -> String {
    let mut s = String::from("{");
    for (i, (name, p)) in outputs.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        if sim.info(*p).width <= 64 {
            let _ = write!(s, "\"{name}\":{}", sim.get(*p));
        } else {
            let _ = write!(s, "\"{name}\":\"{}\"", hex(&sim.get_wide(*p)));
        }
    }
    s.push('}');
    s
}

/// "0x…" of little-endian words, without leading zeros.
fn hex(words: &[u64]) -> String {
    let mut s = String::new();
    for w in words.iter().rev() {
        if s.is_empty() {
            if *w != 0 {
                s = format!("{w:x}");
            }
        } else {
            let _ = write!(s, "{w:016x}");
        }
    }
    if s.is_empty() {
        s.push('0');
    }
    format!("0x{s}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse_in_every_form() {
        assert_eq!(parse_value(&serde_json::json!(31)).unwrap(), vec![31]);
        assert_eq!(parse_value(&serde_json::json!("0x1f")).unwrap(), vec![31]);
        assert_eq!(parse_value(&serde_json::json!("31")).unwrap(), vec![31]);
        assert_eq!(
            parse_value(&serde_json::json!("0x1_0000000000000002")).unwrap(),
            vec![2, 1]
        );
        assert!(parse_value(&serde_json::json!(-1)).is_err());
        assert!(parse_value(&serde_json::json!("0xg")).is_err());
        assert!(parse_value(&serde_json::json!([1])).is_err());
    }

    #[test]
    fn width_check_and_hex_output() {
        assert!(fits(&[3], 2));
        assert!(!fits(&[4], 2));
        assert!(fits(&[u64::MAX, 1], 65));
        assert!(!fits(&[0, 2], 65));
        assert!(fits(&[u64::MAX], 64));
        assert_eq!(hex(&[2, 1]), "0x10000000000000002");
        assert_eq!(hex(&[0, 0]), "0x0");
    }
}
