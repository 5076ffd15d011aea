//! Static checks of Verilog files: Verilator's lint and a yosys synthesis without latches.

use std::path::PathBuf;
use std::process::Command;

use crate::{cache, tool, SimError, Verilator};

/// Lines of yosys's log quoted in errors.
const LOG_TAIL_LINES: usize = 40;
/// Where yosys writes the cell statistics, in its working directory.
const STAT_FILE: &str = "stat.txt";

/// Runs `verilator --lint-only -Wall` (plus `extra`, e.g. `--top-module x`) on `files`.
/// Any warning or error fails, with everything Verilator printed. `-fno-reorder` skips an
/// optimization pass (statement reordering inside an always block) that checks nothing but is
/// quadratic in the block's length: rust-hdl emits a core as one always block, and at
/// thread_merge's largest config the pass alone took 137 of the lint's 156 seconds.
pub fn verilator_lint(
    verilator: &Verilator,
    files: &[PathBuf],
    extra: &[String],
) -> Result<(), SimError> {
    let mut cmd = Command::new(verilator.path());
    cmd.args(["--lint-only", "-Wall", "-fno-reorder"]).args(extra).args(files);
    let out = tool::run_any_status(&mut cmd, "verilator --lint-only")?;
    if out.success && out.text.trim().is_empty() {
        Ok(())
    } else {
        Err(SimError::Lint { output: out.text })
    }
}

/// [`verilator_lint`] of one Verilog source with a Verilator configuration file of waivers,
/// both written into a fresh temporary directory as `file_name` and `warpgen.vlt`; Verilator
/// is found as [`Verilator::find`] finds it.
pub fn lint_source(file_name: &str, verilog: &str, waivers: &str) -> Result<(), SimError> {
    let dir = crate::temp::dir_in(&cache::scratch_dir()?, "lint").map_err(|e| SimError::io("creating a lint directory", e))?;
    let (v, w) = (dir.path().join(file_name), dir.path().join("warpgen.vlt"));
    cache::write(&v, verilog)?;
    cache::write(&w, waivers)?;
    verilator_lint(&Verilator::find()?, &[w, v], &[])
}

/// Size of a design after yosys's coarse synthesis (see [`yosys_check`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YosysReport {
    /// Number of cells after coarse synthesis (word-level cells), summed over the hierarchy.
    pub cells: usize,
    /// Number of flip-flop cells (every cell type whose name contains `DFF`).
    pub flip_flops: usize,
    /// Count of each cell type, as printed by `stat`.
    pub cell_types: Vec<(String, usize)>,
}

/// Synthesizes `files` with yosys and fails if any latch is inferred or yosys reports an
/// error; otherwise returns the cell count and the flip-flop bits of the whole design (the
/// `stat` hierarchy totals). yosys is `$YOSYS` if set, else `yosys` on `PATH`.
///
/// The synthesis is yosys's coarse one, `synth -noshare -run begin:fine`: hierarchy check,
/// `proc` (where a latch would be inferred), `opt` (constant and unused flip-flops removed),
/// FSM extraction, `wreduce`, `alumacc` and memory inference; the fine stage (gate mapping,
/// ABC) and resource sharing are left out, as neither adds a latch or changes a flip-flop
/// bit, and they took 80% of the time (the default global spreader: 57 s for `synth`, 10 s
/// for this). Flip-flop bits are counted from `stat -width` (a `$dff_8` is 8); inferred
/// memories are not flip-flops here.
///
/// The design is not flattened: each module is synthesized once however often it is
/// instantiated (a 64-group scoreboard takes seconds instead of minutes). Cross-module
/// constant propagation is lost, so the cell count is an upper bound; area figures come
/// from the flattened `synth_ice40` flow.
pub fn yosys_check(files: &[PathBuf], top: &str) -> Result<YosysReport, SimError> {
    if top.is_empty()
        || !top
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
    {
        return Err(SimError::InvalidSpec(format!(
            "top module name {top:?} is not a plain identifier"
        )));
    }
    let yosys = tool::find("yosys", "YOSYS")?;
    let dir = crate::temp::dir_in(&cache::scratch_dir()?, "yosys").map_err(|e| SimError::io("creating a directory for yosys", e))?;
    let mut script = String::new();
    for file in files {
        let file = std::path::absolute(file)
            .map_err(|e| SimError::io(format!("resolving {}", file.display()), e))?;
        script.push_str(&format!(
            "read_verilog {}\n",
            yosys_quote(&file.to_string_lossy())
        ));
    }
    script.push_str(&format!("synth -noshare -run begin:fine -top {top}\n"));
    // yosys runs in `dir`: `tee -o` takes no quoted path.
    script.push_str(&format!("tee -q -o {STAT_FILE} stat -width\n"));
    script.push_str("select -assert-none t:$_DLATCH* t:$dlatch* t:$adlatch* t:$_SR_* t:$sr\n");
    let script_file = dir.path().join("check.ys");
    cache::write(&script_file, &script)?;

    let mut cmd = Command::new(yosys);
    cmd.current_dir(dir.path())
        .arg("-Q")
        .arg("-s")
        .arg(&script_file);
    let out = tool::run_any_status(&mut cmd, "yosys")?;
    if !out.success {
        let log_tail = tool::tail(&out.text, LOG_TAIL_LINES);
        if out.text.contains("selection is not empty") {
            return Err(SimError::Latch {
                log_tail: latch_lines(&out.text).unwrap_or(log_tail),
            });
        }
        return Err(SimError::CommandFailed {
            what: "yosys synthesis".to_string(),
            command: tool::command_line(&cmd),
            status: out.status,
            output: log_tail,
        });
    }
    parse_stat(&cache::read(&dir.path().join(STAT_FILE))?).ok_or_else(|| SimError::CommandFailed {
        what: "yosys synthesis".to_string(),
        command: tool::command_line(&cmd),
        status: "no cell statistics in its output".to_string(),
        output: tool::tail(&out.text, LOG_TAIL_LINES),
    })
}

fn yosys_quote(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// yosys's "Latch inferred for signal …" lines and its assertion message.
fn latch_lines(log: &str) -> Option<String> {
    let lines: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("Latch inferred") || l.contains("DLATCH") || l.starts_with("ERROR"))
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// Parses yosys `stat`: the last section's cell counts, which is the design-hierarchy
/// total when there are submodules and the only module's counts otherwise.
fn parse_stat(stat: &str) -> Option<YosysReport> {
    let section = &stat[stat.rfind("Number of cells:")?..];
    let mut lines = section.lines();
    let cells = lines.next()?.split_whitespace().last()?.parse().ok()?;
    let mut cell_types = Vec::new();
    for line in lines {
        let mut parts = line.split_whitespace();
        match (parts.next(), parts.next(), parts.next()) {
            (Some(name), Some(count), None) if name.starts_with('$') || name.starts_with('\\') => {
                cell_types.push((name.to_string(), count.parse().ok()?));
            }
            _ => break,
        }
    }
    let flip_flops = cell_types
        .iter()
        .filter(|(name, _)| name.starts_with('$') && name.to_ascii_lowercase().contains("dff"))
        .map(|(name, n)| n * cell_width(name))
        .sum();
    Some(YosysReport {
        cells,
        flip_flops,
        cell_types,
    })
}

/// The width `stat -width` appends to a word-level cell type (`$adffe_12` is 12 bits wide);
/// 1 for a gate-level cell (`$_DFF_P_`).
fn cell_width(name: &str) -> usize {
    name.rsplit_once('_').and_then(|(_, w)| w.parse().ok()).unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_yosys_0_23_stat() {
        let stat = "\n=== flop ===\n\n   Number of wires:                 18\n   Number of cells:                 28\n     \
                    $_ANDNOT_                       3\n     $_DFF_P_                        4\n     \
                    $_SDFF_PP0_                     8\n     $_XOR_                         13\n\n";
        let report = parse_stat(stat).unwrap();
        assert_eq!(report.cells, 28);
        assert_eq!(report.flip_flops, 12);
        assert_eq!(report.cell_types.len(), 4);
    }

    #[test]
    fn parses_the_hierarchy_total_of_a_design_with_submodules() {
        let stat = "\n=== leaf ===\n\n   Number of cells:                  2\n     $_DFF_P_                        2\n\n                    === top ===\n\n   Number of cells:                  3\n     leaf                            3\n\n                    === design hierarchy ===\n\n   top                               1\n     leaf                            3\n\n                    \n   Number of cells:                  6\n     $_DFF_P_                        6\n\n";
        let report = parse_stat(stat).unwrap();
        assert_eq!((report.cells, report.flip_flops), (6, 6));
    }

    #[test]
    fn counts_the_bits_of_word_level_flip_flops() {
        let stat = "\n=== top ===\n\n   Number of wires:                  9\n   Number of cells:                  7\n     \
                    $adffe_12                       1\n     $dff_8                          2\n     \
                    $mux_8                          2\n     $sdff_1                         2\n\n";
        let report = parse_stat(stat).unwrap();
        assert_eq!(report.cells, 7);
        assert_eq!(report.flip_flops, 12 + 2 * 8 + 2);
    }
}
