//! # perf — the uniform performance-counter bank (docs/perf.md)
//!
//! One bank of `n` event counters that every block can instantiate behind its
//! `perf_counters` key. Ports of the bank (the block's core feeds them and the
//! block's top module exposes `perf_sel`, `perf_val`, `perf_clr`):
//!
//! * `ev[k]` (in): event k happens in this cycle (a combinational function of the
//!   block's registered state and this cycle's inputs, the same condition its rules
//!   use at the edge).
//! * `clear` (in, sampled at the edge): every counter becomes 0. The block ties it
//!   to `reset | perf_clr`. A same-cycle event is not counted: clear wins.
//! * `sel` (in, [`SEL_BITS`] bits, the block zero-extends its exact `perf_sel`) and
//!   `val` (out, 32 bits, combinational from the counter registers): counter `sel`,
//!   0 when `sel >= n`.
//!
//! Rule, per counter k at edge n: `cnt(n+1) = clear(n) ? 0 : min(cnt(n) + ev_k(n),
//! 2^32 - 1)`: 32 bits, saturating (never wrapping), 0 after reset. Cost: 32 flops and
//! one 32-bit incrementer with an all-ones detect per counter, and a 32-bit `n`-way
//! AND-OR for `val`.

use crate::hdl::{constant, dffs, signals};
use rust_hdl::prelude::*;

/// Width of the bank's `sel` input: up to 256 counters. The block's `perf_sel` port
/// is exactly `max(1, ceil(log2 n))` bits, zero-extended into this.
pub const SEL_BITS: usize = 8;
/// The counter width.
pub const VAL_BITS: usize = 32;

/// The block's top-module ports of the interface, bound to the core's one-element vectors
/// `perf_sel_0` (zero-extended into [`SEL_BITS`]), `perf_val_0`, `perf_clr_0`, plus
/// `err_clr_0` when `err_clr` names the flags it clears (a block that has an `err_clr` port
/// of its own passes `None`). `sel_bits` is the block's PSW.
fn ports(sel_bits: usize, err_clr: Option<&str>) -> Vec<crate::emit::Port> {
    use crate::emit::{Dir, Port};
    let one = |name: &str, dir: Dir, w: usize, core_w: usize, doc: &str| {
        Port::packed(name, dir, doc, vec![(format!("{name}_0"), w, core_w)])
    };
    let mut v = vec![
        one("perf_sel", Dir::In, sel_bits, SEL_BITS, "counter index (see docs/perf.md)"),
        one("perf_val", Dir::Out, VAL_BITS, VAL_BITS, "counter perf_sel, saturating; 0 past the last (comb)"),
        one("perf_clr", Dir::In, 1, 1, "every counter becomes 0 at this edge (wins over an event)"),
    ];
    if let Some(flags) = err_clr {
        v.push(one("err_clr", Dir::In, 1, 1, &format!("{flags} clear at this edge (an error of this edge wins)")));
    }
    v
}

/// The block's port group of the interface: the counter ports, and `err_clr` where
/// `err_flags` names the sticky flags it clears (`None`: the block has its own `err_clr`,
/// as branch_stack, or no sticky flag to clear, as task_combiner).
pub fn port_group(sel_bits: usize, err_flags: Option<&str>) -> crate::emit::PortGroup {
    let title = match err_flags {
        Some(_) => "Performance counters and error clear (docs/perf.md)",
        None => "Performance counters (docs/perf.md)",
    };
    crate::emit::PortGroup { title: title.into(), ports: ports(sel_bits, err_flags) }
}

/// The counter bank: `n` saturating 32-bit counters read through one index.
#[derive(LogicBlock)]
pub struct PerfBank {
    pub clock: Signal<In, Clock>,
    /// Synchronous clear of every counter (reset or `perf_clr`).
    pub clear: Signal<In, Bit>,
    /// The events, one per counter.
    pub ev: Vec<Signal<In, Bit>>,
    pub sel: Signal<In, Bits<SEL_BITS>>,
    /// Counter `sel` (0 for an index past the last counter).
    pub val: Signal<Out, Bits<VAL_BITS>>,
    cnt_q: Vec<DFF<Bits<VAL_BITS>>>,
    idx: Vec<Constant<Bits<SEL_BITS>>>,
    zero: Constant<Bits<VAL_BITS>>,
    one: Constant<Bits<VAL_BITS>>,
}

impl PerfBank {
    /// A bank of `n` counters (1 to 256).
    pub fn new(n: usize) -> Self {
        assert!((1..=1 << SEL_BITS).contains(&n), "1 to 256 counters");
        PerfBank {
            clock: Signal::default(),
            clear: Signal::default(),
            ev: signals(n),
            sel: Signal::default(),
            val: Signal::default(),
            cnt_q: dffs(n),
            idx: (0..n).map(|k| constant(k as u64)).collect(),
            zero: constant(0),
            one: constant(1),
        }
    }
}

impl Logic for PerfBank {
    #[hdl_gen]
    fn update(&mut self) {
        self.val.next = self.zero.val();
        for k in 0..self.cnt_q.len() {
            self.cnt_q[k].clock.next = self.clock.val();
            self.cnt_q[k].d.next = self.cnt_q[k].q.val();
            // Saturating: an event at all ones is dropped.
            if self.ev[k].val() & !self.cnt_q[k].q.val().all() {
                self.cnt_q[k].d.next = self.cnt_q[k].q.val() + self.one.val();
            }
            if self.clear.val() {
                self.cnt_q[k].d.next = self.zero.val();
            }
            if self.sel.val() == self.idx[k].val() {
                self.val.next = self.cnt_q[k].q.val();
            }
        }
    }
}

/// The part of a block core's rules (an [`crate::hdl::Part`] `K`) that wires its counter bank
/// `perf[i]` (one, or none without the key) the way every block does: clock; `clear` = `reset |
/// perf_clr` (reset clears like `perf_clr`); `sel` from `perf_sel`; `perf_val` from `val`. The
/// core has fields `clock`, `reset`, `perf`, `perf_sel`, `perf_val`, `perf_clr`; its own part
/// drives the events `perf[i].ev[k]`. `perf_wiring!([const L: usize] Core<L>, 7);`
macro_rules! perf_wiring {
    ([$($gen:tt)*] $ty:ty, $k:literal) => {
        impl<$($gen)*> $crate::hdl::Part<$k> for $ty {
            #[hdl_gen]
            fn update(&mut self) {
                for i in 0..self.perf.len() {
                    self.perf[i].clock.next = self.clock.val();
                    self.perf[i].clear.next = self.reset.val() | self.perf_clr[i].val();
                    self.perf[i].sel.next = self.perf_sel[i].val();
                    self.perf_val[i].next = self.perf[i].val.val();
                }
            }
        }
    };
}
pub(crate) use perf_wiring;
