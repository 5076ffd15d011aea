//! The source-address datapath (ADDR_W).

use super::*;

// ---------------------------------------------------------------------------
// Source addresses (ADDR_W).
// ---------------------------------------------------------------------------

/// The slots' source addresses and the request's `ar_src_addr`.
#[derive(LogicBlock)]
pub struct AddrPath<const A: usize> {
    pub clock: Signal<In, Clock>,
    pub src_in: Vec<Signal<In, Bits<A>>>,
    pub load: Vec<Signal<In, Bit>>,
    pub gnt: Vec<Signal<In, Bit>>,
    pub ar_src_addr: Signal<Out, Bits<A>>,
    src_q: Vec<DFF<Bits<A>>>,
    zero: Constant<Bits<A>>,
}

impl<const A: usize> AddrPath<A> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!(g.adw, A);
        let k = g.k();
        AddrPath {
            clock: Signal::default(),
            src_in: signals(k),
            load: signals(k),
            gnt: signals(k),
            ar_src_addr: Signal::default(),
            src_q: dffs(k),
            zero: constant(0),
        }
    }
}

impl<const A: usize> Logic for AddrPath<A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ar_src_addr.next = self.zero.val();
        for k in 0..self.src_q.len() {
            self.src_q[k].clock.next = self.clock.val();
            self.src_q[k].d.next = self.src_q[k].q.val();
            if self.load[k].val() {
                self.src_q[k].d.next = self.src_in[k].val();
            }
            if self.gnt[k].val() {
                self.ar_src_addr.next = self.src_q[k].q.val();
            }
        }
    }
}
