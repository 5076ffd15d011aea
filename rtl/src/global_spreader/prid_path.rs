//! The PrID datapath (PRID_W): PT addresses and `ar_prid`.

use super::*;

// ---------------------------------------------------------------------------
// PrIDs (PRID_W).
// ---------------------------------------------------------------------------

/// The triangle slot's PrID and the pixel slot's triangle id: PT addresses, `ar_prid`.
#[derive(LogicBlock)]
pub struct PridPath<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub tp_prid: Signal<In, Bits<W>>,
    pub tri_load: Signal<In, Bit>,
    pub tri_gnt: Signal<In, Bit>,
    pub tri_prid: Signal<Out, Bits<W>>,
    pub xp_tri_id: Vec<Signal<In, Bits<W>>>,
    pub pix_load: Vec<Signal<In, Bit>>,
    pub pix_gnt: Vec<Signal<In, Bit>>,
    pub xp_fire: Vec<Signal<In, Bit>>,
    pub pix_tid: Vec<Signal<Out, Bits<W>>>,
    pub tri_w: Vec<Signal<In, Bit>>,
    pub pt_raddr: Vec<Signal<Out, Bits<W>>>,
    pub fwd_hit: Vec<Signal<Out, Bit>>,
    pub ar_prid: Signal<Out, Bits<W>>,
    prid_q: DFF<Bits<W>>,
    tid_q: Vec<DFF<Bits<W>>>,
    zero: Constant<Bits<W>>,
}

impl<const W: usize> PridPath<W> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!(g.pw, W);
        let p = n_of(g.pix);
        PridPath {
            clock: Signal::default(),
            tp_prid: Signal::default(),
            tri_load: Signal::default(),
            tri_gnt: Signal::default(),
            tri_prid: Signal::default(),
            xp_tri_id: signals(p),
            pix_load: signals(p),
            pix_gnt: signals(p),
            xp_fire: signals(p),
            pix_tid: signals(p),
            tri_w: signals(p),
            pt_raddr: signals(p),
            fwd_hit: signals(p),
            ar_prid: Signal::default(),
            prid_q: DFF::default(),
            tid_q: dffs(p),
            zero: constant(0),
        }
    }
}

impl<const W: usize> Logic for PridPath<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.prid_q.clock.next = self.clock.val();
        self.prid_q.d.next = self.prid_q.q.val();
        if self.tri_load.val() {
            self.prid_q.d.next = self.tp_prid.val();
        }
        self.tri_prid.next = self.prid_q.q.val();
        self.ar_prid.next = self.zero.val();
        if self.tri_gnt.val() {
            self.ar_prid.next = self.prid_q.q.val();
        }
        for i in 0..self.tid_q.len() {
            self.tid_q[i].clock.next = self.clock.val();
            self.tid_q[i].d.next = self.tid_q[i].q.val();
            if self.pix_load[i].val() {
                self.tid_q[i].d.next = self.xp_tri_id[i].val();
            }
            self.pix_tid[i].next = self.tid_q[i].q.val();
            if self.pix_gnt[i].val() {
                self.ar_prid.next = self.tid_q[i].q.val();
            }
            // The PT read for next cycle: the arriving pixel's triangle, else the slot's.
            self.pt_raddr[i].next = self.tid_q[i].q.val();
            if self.xp_fire[i].val() {
                self.pt_raddr[i].next = self.xp_tri_id[i].val();
            }
            self.fwd_hit[i].next = self.tri_w[i].val() & (self.prid_q.q.val() == self.pt_raddr[i].val());
        }
    }
}
