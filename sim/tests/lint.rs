//! Verilator lint and yosys synthesis checks.

mod common;

use std::path::PathBuf;

use warpgen_sim::{verilator_lint, yosys_check, SimError};

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path
}

const FLOP: &str = "module flop(\n    input  wire       clock,\n    input  wire [3:0] d,\n    output reg  [3:0] q\n);\n    \
                    always @(posedge clock) q <= d;\nendmodule\n";

#[test]
fn lint_passes_a_clean_module() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "flop.v", FLOP);
    verilator_lint(&common::verilator(), &[file], &[]).unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn lint_fails_on_an_unused_signal_with_verilators_output() {
    let dir = tempfile::tempdir().unwrap();
    let text = FLOP.replace("    always", "    wire [3:0] spare = d + 4'd1;\n    always");
    let file = write(&dir, "flop.v", &text);
    let err = verilator_lint(&common::verilator(), &[file], &[]).unwrap_err();
    let SimError::Lint { output } = &err else {
        panic!("expected Lint, got {err:?}")
    };
    assert!(output.contains("UNUSED"), "{output}");
    assert!(output.contains("spare"), "{output}");
}

#[test]
fn yosys_counts_cells_and_flip_flops() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(&dir, "flop.v", FLOP);
    let report = yosys_check(&[file], "flop").unwrap_or_else(|e| panic!("{e}"));
    // Coarse synthesis: one 4-bit word-level flip-flop.
    assert_eq!(report.flip_flops, 4, "{report:?}");
    assert_eq!(report.cell_types, vec![("$dff_4".to_string(), 1)], "{report:?}");
    assert_eq!(report.cells, 1, "{report:?}");
}

#[test]
fn yosys_rejects_a_latch() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "latchy.v",
        "module latchy(input en, input [3:0] d, output reg [3:0] q);\n    always @* if (en) q = d;\nendmodule\n",
    );
    let err = yosys_check(&[file], "latchy").unwrap_err();
    let SimError::Latch { log_tail } = &err else {
        panic!("expected Latch, got {err:?}")
    };
    assert!(log_tail.contains("Latch inferred"), "{log_tail}");
    assert!(err.to_string().contains("latch"), "{err}");
}

#[test]
fn yosys_reports_syntax_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = write(
        &dir,
        "bad.v",
        "module bad(input a, output b);\n  assign b = ;\nendmodule\n",
    );
    let err = yosys_check(&[file], "bad").unwrap_err();
    assert!(matches!(err, SimError::CommandFailed { .. }), "{err:?}");
    assert!(err.to_string().contains("bad.v"), "{err}");
}
