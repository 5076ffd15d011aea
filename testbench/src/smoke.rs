//! The one shape of every block's smoke tests (`testbench/tests/<block>_smoke.rs`): the
//! block's generated Verilog in Verilator, driven and read by port name, with expected
//! values written by hand from the block's contract, not taken from the model or the RTL.
//!
//! A smoke file wraps [`Bench`] in its own type (made to deref to the bench by
//! [`bench_wrapper!`]) for the block's helpers (field widths, "offer an instance", "read a
//! register"), and checks outputs with [`Bench::expect`], which names the config, the cycle
//! and the port.
//!
//! Timing: in cycle n the inputs of cycle n are set, outputs read with [`Bench::get`] are
//! the settled outputs of cycle n, and [`Bench::step`] is the rising edge that ends it.

use crate::harness;
use std::collections::HashMap;
use warpgen_rtl::Config;
use warpgen_sim::{PortId, Sim};

/// A Verilated block with its ports by name and a cycle counter.
pub struct Bench {
    pub sim: Sim,
    /// The config the Verilog was generated from (derived widths for field offsets).
    pub config: Config,
    ports: HashMap<String, PortId>,
    /// What the bench was built from, for failure messages.
    pub name: String,
    /// The current cycle: 0 after construction, +1 at each [`Bench::step`].
    pub cycle: u64,
}

impl Bench {
    /// `block` of the embedded default config with `sets` (`key=value` of the block's
    /// table) on top, generated and built. The inputs are all 0, nothing has been clocked.
    pub fn new(block: &str, sets: &[&str]) -> Bench {
        let sets: Vec<String> = sets.iter().map(|s| format!("{block}.{s}")).collect();
        let config = Config::embedded(&sets).unwrap_or_else(|e| panic!("{block} {sets:?}: {e}"));
        let e = warpgen_rtl::generate(&config, block).unwrap_or_else(|e| panic!("{block} {sets:?}: {e}"));
        let model = harness::build_block(&e, false).unwrap_or_else(|x| panic!("{x}"));
        let sim = model.instantiate().unwrap_or_else(|x| panic!("{x}"));
        let ports = sim.ports().iter().map(|p| (p.name.clone(), sim.port(&p.name).unwrap())).collect();
        Bench { sim, config, ports, name: format!("{block} {sets:?}"), cycle: 0 }
    }

    /// [`Bench::new`], then `reset` high for `edges` rising edges and low again (cycle 0 is
    /// the first cycle after reset).
    pub fn out_of_reset(block: &str, sets: &[&str], edges: u32) -> Bench {
        let mut b = Bench::new(block, sets);
        b.set("reset", 1);
        for _ in 0..edges {
            b.step();
        }
        b.set("reset", 0);
        b.cycle = 0;
        b
    }

    pub fn port(&self, name: &str) -> PortId {
        *self.ports.get(name).unwrap_or_else(|| panic!("{}: no port {name}", self.name))
    }

    /// Drives input `name` (checked against its width).
    pub fn set(&mut self, name: &str, v: u64) {
        let p = self.port(name);
        self.sim.set(p, v).unwrap_or_else(|e| panic!("{}: {name} = {v:#x}: {e}", self.name));
    }

    /// Settles the design with the inputs set so far.
    pub fn eval(&mut self) {
        self.sim.eval().unwrap_or_else(|e| panic!("{}: {e}", self.name));
    }

    /// Output `name` (up to 64 bits) of this cycle, settled.
    pub fn get(&mut self, name: &str) -> u64 {
        self.eval();
        self.sim.get(self.port(name))
    }

    /// Bits `[lo, lo+w)` (w <= 64) of output `name` of this cycle, settled.
    pub fn field(&mut self, name: &str, lo: usize, w: usize) -> u64 {
        self.eval();
        harness::field(&self.sim, self.port(name), lo, w)
    }

    /// Asserts output `name` of this cycle.
    pub fn expect(&mut self, name: &str, want: u64) {
        let got = self.get(name);
        assert_eq!(got, want, "{}: {name} @{}: got {got:#x}, want {want:#x}", self.name, self.cycle);
    }

    /// Settle, then one rising edge: the end of this cycle.
    pub fn step(&mut self) {
        self.eval();
        self.sim.tick().unwrap_or_else(|e| panic!("{}: {e}", self.name));
        self.cycle += 1;
    }
}

/// `Deref`/`DerefMut` to [`Bench`] for a smoke file's wrapper type, given the field that
/// holds the bench: `bench_wrapper!(Tc, b)` for `struct Tc { b: Bench, .. }`,
/// `bench_wrapper!(Gs, 0)` for `struct Gs(Bench)`.
#[macro_export]
macro_rules! bench_wrapper {
    ($t:ty, $field:tt) => {
        impl std::ops::Deref for $t {
            type Target = $crate::smoke::Bench;
            fn deref(&self) -> &$crate::smoke::Bench {
                &self.$field
            }
        }
        impl std::ops::DerefMut for $t {
            fn deref_mut(&mut self) -> &mut $crate::smoke::Bench {
                &mut self.$field
            }
        }
    };
}
