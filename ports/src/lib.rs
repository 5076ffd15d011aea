//! The one description of a top-level port that warpgen's crates share: the emitter
//! (`warpgen-rtl`) lists a block's ports with it, the Verilator harness (`warpgen-sim`)
//! discovers and drives them with it, the FPGA flow (`warpgen-flow`) wraps them with it.
//! It depends on nothing, so neither of those crates needs the other for it.

/// Direction of a port, seen from the design.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    /// Driven by the harness.
    In,
    /// Driven by the design.
    Out,
}

/// One top-level port of a model.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PortInfo {
    /// The name, as in the Verilog (and the Verilated C++ class).
    pub name: String,
    /// Its direction.
    pub dir: Dir,
    /// Its width in bits (at least 1).
    pub width: usize,
}

impl PortInfo {
    /// Number of 64-bit words that hold a value of this port.
    pub fn words(&self) -> usize {
        self.width.div_ceil(64)
    }

    /// Whether this is the clock that the harness's `Sim::tick` drives: a 1-bit input
    /// named `clock`.
    pub fn is_clock(&self) -> bool {
        self.name == CLOCK && self.dir == Dir::In && self.width == 1
    }

    /// Whether replay stimulus carries this port: every input except the clock.
    pub fn is_stimulus(&self) -> bool {
        self.dir == Dir::In && !self.is_clock()
    }
}

/// The name of the clock input driven by the harness's `Sim::tick`.
pub const CLOCK: &str = "clock";
