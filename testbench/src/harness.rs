//! Glue between the emitted Verilog (`warpgen-rtl`) and the Verilator harness
//! (`warpgen-sim`): build a block's simulation model, and run the lint and
//! synthesis checks every emitted block must pass.

use std::path::PathBuf;
use warpgen_rtl::Emitted;
use warpgen_sim::{BuildSpec, Model, PortId, Sim, SimError, Verilator, YosysReport};

/// Verilator arguments of one block's model beyond the harness's own.
///
/// The task combiner: C++ functions of at most about 5,000 operations
/// (`--output-split-cfuncs`). Its core is one `always @(*)` block, which Verilator emits as one
/// function (12,000 lines at the default 16 entries), and g++'s time grows faster than a
/// function: the model's per-cycle code compiled in 9.3 s of processor time at the default, 7.4
/// s split; at 64 entries in 71 s, 45 s split (g++ `-O1` on the per-cycle unit,
/// `/usr/bin/time`). The 64-entry lockstep's 200,000 cycles (warm cache) took 86 s split at
/// 5,000, 73 s at 2,000 and 91 s at 500, each on another hour of this shared machine, so the
/// split's effect on its simulation is within the machine's variation; the default's lockstep
/// ran at 35,000-39,000 cycles/s split against 35,000 unsplit (`make bench`).
/// The other blocks' functions are smaller, and splitting them at 2,000 slowed their
/// simulation: the scoreboard's lockstep from 127,000 to about 70,000 cycles/s, thread_merge's
/// from 121,000 to 88,000 (`make bench`); at 5,000 the scoreboard's C++ is unchanged.
///
/// The task combiner also gets `-fno-dfg`: Verilator's data-flow-graph pass turns the 4,096
/// one-bit assignments of `st_dep` (64 entries) into one 4,096-bit concatenation built a bit at a
/// time, 4,096 `VL_CONCAT_WIW` calls each copying up to 128 words, every cycle: a third of the
/// 64-entry lockstep's time (`perf record`). Without the pass the 200,000 cycles took 31.6 s
/// instead of 81 s (warm cache, one after the other), the verilation 42 s against 41 s, and the
/// default config's lockstep did not slow down (`make bench`). The scoreboard at 64 groups has
/// such concatenations too, but its lockstep took the same time without the pass (6.9-8.0 s
/// against 6.8-7.0 s), so the other blocks keep it.
fn verilator_args(block: &str) -> &'static [&'static str] {
    match block {
        "task_combiner" => &["--output-split-cfuncs", "5000", "-fno-dfg"],
        _ => &[],
    }
}

/// Builds (or loads from the cache) the Verilator model of an emitted block.
pub fn build_block(e: &Emitted, trace: bool) -> Result<Model, SimError> {
    let v = Verilator::find()?;
    let spec = BuildSpec::new(e.top.clone()).source(e.file_name.clone(), e.verilog.clone()).trace(trace);
    v.build(&verilator_args(e.block).iter().fold(spec, |spec, arg| spec.arg(*arg)))
}

/// Writes the emitted block and the waiver file into a fresh directory and
/// returns (directory guard, Verilog path, waiver path).
fn stage(e: &Emitted) -> std::io::Result<(tempfile::TempDir, PathBuf, PathBuf)> {
    let dir = tempfile::tempdir()?;
    let v = dir.path().join(&e.file_name);
    let w = dir.path().join("warpgen.vlt");
    std::fs::write(&v, &e.verilog)?;
    std::fs::write(&w, warpgen_rtl::LINT_WAIVERS)?;
    Ok((dir, v, w))
}

/// `verilator --lint-only -Wall` with warpgen's waiver file: any warning fails.
pub fn lint(e: &Emitted) -> Result<(), String> {
    warpgen_sim::lint_source(&e.file_name, &e.verilog, warpgen_rtl::LINT_WAIVERS).map_err(|x| x.to_string())
}

/// yosys coarse synthesis of the block's top module (`warpgen_sim::yosys_check`); fails on any latch.
pub fn synth(e: &Emitted) -> Result<YosysReport, String> {
    let (_dir, v, _w) = stage(e).map_err(|x| x.to_string())?;
    warpgen_sim::yosys_check(&[v], &e.top).map_err(|x| x.to_string())
}

/// Packs one `w`-bit field per element, element i at bits `[i*w +: w]` (the
/// per-port layout of packed ports such as `cpl_tg` or `cc_sop`).
pub fn pack(values: impl Iterator<Item = u64>, w: u32) -> u64 {
    values.enumerate().fold(0, |acc, (i, v)| acc | ((v & ((1u64 << w) - 1)) << (i as u32 * w)))
}

/// Bits `[lo, lo+w)` of output `p` (w <= 64), read without allocating.
pub fn field(sim: &Sim, p: PortId, lo: usize, w: usize) -> u64 {
    bits_of(|i| sim.get_word(p, i), lo, w)
}

/// Bits `[lo, lo+w)` (w <= 64) of a value given as little-endian 64-bit words.
fn bits_of(word: impl Fn(usize) -> u64, lo: usize, w: usize) -> u64 {
    let (q, r) = (lo / 64, lo % 64);
    let mut v = word(q) >> r;
    if r + w > 64 {
        v |= word(q + 1) << (64 - r);
    }
    if w < 64 {
        v &= (1u64 << w) - 1;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::{bits_of, pack};

    #[test]
    fn pack_places_each_field_at_its_offset_and_truncates() {
        assert_eq!(pack([1u64, 2, 3].into_iter(), 2), 0b11_10_01);
        assert_eq!(pack([0xffu64, 0].into_iter(), 4), 0x0f);
    }

    #[test]
    fn fields_are_read_across_word_boundaries() {
        let words = [0xA000_0000_0000_0000u64, 0x0000_0000_0000_0005];
        let word = |i: usize| words.get(i).copied().unwrap_or(0);
        assert_eq!(bits_of(word, 61, 6), 0b101_101); // bits 61..63 of word 0, 0..2 of word 1
        assert_eq!(bits_of(word, 63, 1), 1);
        assert_eq!(bits_of(word, 64, 3), 0b101);
        assert_eq!(bits_of(word, 0, 64), 0xA000_0000_0000_0000);
        assert_eq!(bits_of(word, 128, 8), 0);
    }
}
