//! Small rust-hdl helpers shared by the blocks.

use rust_hdl::prelude::*;

/// `n` default signals: a port or local vector sized by the config.
pub fn signals<D: Direction, T: Synth>(n: usize) -> Vec<Signal<D, T>> {
    (0..n).map(|_| Signal::default()).collect()
}

/// A named constant of `N` bits. Every number in a block's logic is one of these:
/// rust-hdl writes bare integer literals as 32-bit, which Verilator's WIDTH lint reports.
pub fn constant<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.to_bits())
}

/// `n` default registers: a register vector sized by the config.
pub fn dffs<T: Synth>(n: usize) -> Vec<DFF<T>> {
    (0..n).map(|_| DFF::default()).collect()
}

/// A `rows` × `cols` grid of defaults (registers or signals).
pub fn grid<T: Default>(rows: usize, cols: usize) -> Vec<Vec<T>> {
    (0..rows).map(|_| (0..cols).map(|_| T::default()).collect()).collect()
}

/// Part `K` of a design's rules. A design whose `update` would be too long to read writes it
/// as parts in order, `impl Part<0> for D { #[hdl_gen] fn update(&mut self) { … } }`, then
/// `Part<1>`, …, and its `Logic` runs them in that order and emits them with [`joined`]: the
/// emitted `always @(*)` block is the same statement list one long `update` would give, byte
/// for byte, and rust-hdl's simulation runs the same assignments in the same order.
/// (Name the trait by its path, `hdl::Part`, never import it: its methods have the names of
/// `Logic`'s, which the derived code calls as `self.update()`.)
pub trait Part<const K: usize> {
    fn update(&mut self);
    fn connect(&mut self);
    fn hdl(&self) -> Verilog;
}

/// The parts' Verilog as one combinational block, in the order given.
pub fn joined(parts: Vec<Verilog>) -> Verilog {
    let mut block = vec![];
    for part in parts {
        match part {
            Verilog::Combinatorial(statements) => block.extend(statements),
            _ => unreachable!("a Part's hdl is always combinational"),
        }
    }
    Verilog::Combinatorial(block)
}

/// `impl Logic` for a design written as [`Part`]s: `update` and `connect` run the parts in the
/// order listed and `hdl` joins their Verilog. `logic_from_parts!([const L: usize] Core<L>, [0, 1, 2]);`
/// (empty brackets for a design without generics).
macro_rules! logic_from_parts {
    ([$($gen:tt)*] $ty:ty, [$($k:literal),+]) => {
        impl<$($gen)*> Logic for $ty {
            fn update(&mut self) {
                $($crate::hdl::Part::<$k>::update(self);)+
            }

            fn connect(&mut self) {
                $($crate::hdl::Part::<$k>::connect(self);)+
            }

            fn hdl(&self) -> Verilog {
                $crate::hdl::joined(vec![$($crate::hdl::Part::<$k>::hdl(self)),+])
            }
        }
    };
}
pub(crate) use logic_from_parts;
