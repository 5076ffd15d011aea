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
