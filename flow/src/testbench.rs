//! Plain Verilog-2005 testbenches of a block that hold a stimulus ([`warpgen_sim::stimulus`]):
//! module `warpgen_<block>_tb` drives the block one line per cycle with warpgen's replay
//! timing (apply the inputs, settle 1 ns, sample every output, one rising clock edge), and
//! either prints every output of every cycle ([`Mode::Dump`], what the Icarus Verilog replay
//! reads back) or compares them with the outputs of a simulation ([`Mode::Check`], the
//! self-checking testbench of `warpgen sim --testbench`).
//!
//! A checking testbench compares every output in every cycle and prints the first mismatch
//! (cycle, port, expected, actual), then `FAIL` and `$stop`s (a non-zero exit status in
//! `verilator --binary` and in `vvp -N`); otherwise it prints `PASS: N cycles` and
//! `$finish`es. An output holding unknown bits (x, z: a register the block does not reset,
//! in a simulator with four-state values) is not compared in that cycle and is counted in the
//! final line; warpgen's replay shows such bits as 0.

use warpgen_sim::stimulus::{hex_digits, outputs, Stimulus, Words};
use std::fmt::Write as _;
use warpgen_rtl::Emitted;

/// What the testbench does with the outputs.
pub enum Mode<'a> {
    /// Prints `@<cycle> <binary> <binary> …` (every output, port order) per cycle.
    Dump,
    /// Compares with these outputs (per cycle, port order).
    Check(&'a [Vec<Words>]),
}

/// Concatenation `{last, …, first}` of `values` of `widths` as one hex literal's digits.
fn packed(values: &[Words], widths: &[usize]) -> String {
    let total: usize = widths.iter().sum();
    let mut bits = vec![0u64; total.div_ceil(64).max(1)];
    let mut at = 0;
    for (v, w) in values.iter().zip(widths) {
        for b in 0..*w {
            if v.get(b / 64).is_some_and(|x| x >> (b % 64) & 1 == 1) {
                bits[(at + b) / 64] |= 1 << ((at + b) % 64);
            }
        }
        at += w;
    }
    hex_digits(&bits)
}

/// `[w-1:0] ` for a vector, nothing for one bit.
pub(crate) fn range(w: usize) -> String {
    if w > 1 {
        format!("[{}:0] ", w - 1)
    } else {
        String::new()
    }
}

/// An instance `name` of `module` with every port of `e` connected to the signal of its name.
pub(crate) fn instance(module: &str, name: &str, e: &Emitted) -> String {
    instance_wired(module, name, e, |p| p.to_string())
}

/// An instance `name` of `module` with every port `p` of `e` connected to the signal `wire(p)`.
pub(crate) fn instance_wired(module: &str, name: &str, e: &Emitted, wire: impl Fn(&str) -> String) -> String {
    let conns: Vec<String> = e.ports.iter().map(|p| format!("        .{}({})", p.name, wire(&p.name))).collect();
    format!("    {module} {name} (\n{}\n    );\n", conns.join(",\n"))
}

/// The testbench of `e` (top module `warpgen_<block>`) for `stim`; `vcd` names a VCD the
/// testbench writes (`$dumpfile`), if any.
pub fn verilog(e: &Emitted, stim: &Stimulus, mode: Mode, vcd: Option<&str>) -> String {
    let infos: Vec<warpgen_sim::PortInfo> = e.ports.iter().map(|p| p.info()).collect();
    let outs = outputs(&infos);
    let in_w: Vec<usize> = stim.inputs.iter().map(|(_, w)| *w).collect();
    let out_w: Vec<usize> = outs.iter().map(|(_, w)| *w).collect();
    let (tin, tout): (usize, usize) = (in_w.iter().sum(), out_w.iter().sum());
    let n = stim.cycles.len();
    let tb = format!("{}_tb", e.top);
    let mut s = String::new();
    let _ = writeln!(s, "// {tb}: {n} cycles of stimulus for {top}, written by warpgen.", top = e.top);
    let _ = writeln!(s, "// Per cycle: apply the inputs, settle 1 ns, {}, one rising clock edge.", match mode {
        Mode::Dump => "print every output",
        Mode::Check(_) => "compare every output with the recorded simulation",
    });
    let _ = writeln!(s, "`timescale 1ns / 1ps\nmodule {tb};");
    s += "    reg clock = 1'b0;\n";
    for (name, w) in &stim.inputs {
        let _ = writeln!(s, "    reg {}{name};", range(*w));
    }
    for (name, w) in &outs {
        let _ = writeln!(s, "    wire {}{name};", range(*w));
    }
    s += &instance(&e.top, "dut", e);
    let _ = writeln!(s, "    reg [{}:0] stim [0:{}];", tin.max(1) - 1, n.max(1) - 1);
    if let Mode::Check(_) = mode {
        let _ = writeln!(s, "    reg [{}:0] expected [0:{}];", tout.max(1) - 1, n.max(1) - 1);
        s += "    integer unknown;\n    integer failed;\n";
    }
    s += "    integer cycle;\n    initial begin\n";
    for (c, values) in stim.cycles.iter().enumerate() {
        let _ = writeln!(s, "        stim[{c}] = {}'h{};", tin.max(1), packed(values, &in_w));
    }
    if let Mode::Check(expected) = &mode {
        for (c, values) in expected.iter().enumerate() {
            let _ = writeln!(s, "        expected[{c}] = {}'h{};", tout.max(1), packed(values, &out_w));
        }
    }
    if let Some(path) = vcd {
        let _ = writeln!(s, "        $dumpfile(\"{path}\");\n        $dumpvars(0, {tb});");
    }
    if let Mode::Check(_) = mode {
        s += "        unknown = 0;\n        failed = 0;\n";
    }
    let in_names: Vec<&str> = stim.inputs.iter().rev().map(|(n, _)| n.as_str()).collect();
    let _ = writeln!(s, "        for (cycle = 0; cycle < {n}; cycle = cycle + 1) begin");
    if !in_names.is_empty() {
        let _ = writeln!(s, "            {{{}}} = stim[cycle];", in_names.join(", "));
    }
    s += "            #1;\n";
    match mode {
        Mode::Dump => {
            // Binary, so that an unknown bit is one character (a hex digit with one x bit
            // would hide its three known bits).
            let fmt: Vec<&str> = outs.iter().map(|_| "%b").collect();
            let args: Vec<&str> = outs.iter().map(|(n, _)| n.as_str()).collect();
            let _ = writeln!(s, "            $display(\"@%0d {}\", cycle, {});", fmt.join(" "), args.join(", "));
        }
        Mode::Check(_) => {
            let mut at = 0;
            for (name, w) in &outs {
                let slice = format!("expected[cycle][{}:{at}]", at + w - 1);
                let _ = writeln!(
                    s,
                    "            if (^{name} === 1'bx) unknown = unknown + 1;\n            \
                     else if ({name} !== {slice} && failed == 0) begin\n                \
                     $display(\"MISMATCH cycle %0d port {name}: expected 'h%h, actual 'h%h\", cycle, {slice}, {name});\n                \
                     failed = 1;\n            end"
                );
                at += w;
            }
        }
    }
    s += "            clock = 1'b1;\n            #1;\n            clock = 1'b0;\n";
    if let Mode::Check(_) = mode {
        s += "            if (failed != 0) begin\n                $display(\"FAIL: first mismatch above\");\n                $stop;\n            end\n";
    }
    s += "        end\n";
    if let Mode::Check(_) = mode {
        let _ = writeln!(
            s,
            "        $display(\"PASS: {n} cycles, every output compared (%0d output values with unknown bits not compared)\", unknown);"
        );
    }
    s += "        $finish;\n    end\nendmodule\n";
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_pack_first_in_the_low_bits() {
        assert_eq!(packed(&[vec![1], vec![2]], &[1, 2]), "5");
        assert_eq!(packed(&[vec![u64::MAX], vec![1]], &[64, 1]), "1ffffffffffffffff");
        assert_eq!(packed(&[vec![0]], &[3]), "0");
    }
}
