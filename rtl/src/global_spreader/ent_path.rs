//! The entity datapath (ENT_W): free entity slots per EU and the entity numbers.

use super::*;

// ---------------------------------------------------------------------------
// Entities (ENT_W, FE_W = ENT_W + 1).
// ---------------------------------------------------------------------------

/// FREE_EDT / EDT_TOTAL / PEND per EU, and the entity numbers: the acknowledging EU's
/// `ar_ent` for the table write, the references' entity numbers for the request.
/// Each up/down counter has one adder, of +1 or -1 (all ones), not one of each.
#[derive(LogicBlock)]
pub struct EntPath<const E: usize, const F: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    pub cfg_wdata: Signal<In, Bits<32>>,
    pub rd: Signal<Out, Bits<F>>,
    pub cr_valid: Vec<Signal<In, Bit>>,
    pub cr_edt: Vec<Signal<In, Bit>>,
    pub cr_type: Vec<Signal<In, Bits<2>>>,
    pub ack: Vec<Signal<In, Bit>>,
    pub gnt: Vec<Signal<In, Bit>>,
    pub nz: Vec<Signal<Out, Bit>>,
    pub free: Vec<Signal<Out, Bits<F>>>,
    pub err: Signal<Out, Bit>,
    pub ar_ent: Vec<Signal<In, Bits<E>>>,
    pub ack_ent: Vec<Signal<Out, Bits<E>>>,
    pub vdt_ent: Vec<Signal<In, Bits<E>>>,
    pub pt_ent: Vec<Signal<In, Bits<E>>>,
    pub ref_valid: Vec<Signal<In, Bit>>,
    pub ref_pix: Vec<Signal<In, Bit>>,
    pub ar_ref_ent: Vec<Signal<Out, Bits<E>>>,
    free_q: Vec<DFF<Bits<F>>>,
    total_q: Vec<DFF<Bits<F>>>,
    pend_q: Vec<Vec<DFF<Bits<F>>>>,
    ae: Vec<Signal<Local, Bits<E>>>,
    rent: Vec<Signal<Local, Bits<E>>>,
    inc: Signal<Local, Bit>,
    dec: Signal<Local, Bit>,
    wval: Signal<Local, Bits<F>>,
    stp: Signal<Local, Bits<F>>,
    zero: Constant<Bits<F>>,
    one: Constant<Bits<F>>,
    max: Constant<Bits<F>>,
    full: Constant<Bits<F>>,
    full32: Constant<Bits<32>>,
    _lsb: usize,
    _lsb1: usize,
    zero_e: Vec<Constant<Bits<E>>>,
    tcode: Vec<Constant<Bits<2>>>,
    total_rst: Vec<Constant<Bits<F>>>,
    a_total: Vec<Constant<CfgAddr>>,
    a_free: Vec<Constant<CfgAddr>>,
    a_pend: Vec<Vec<Constant<CfgAddr>>>,
}

impl<const E: usize, const F: usize> EntPath<E, F> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!((g.ent, g.fw), (E, F));
        let (n, k) = (g.n, g.k());
        let refs = if g.tri { 3 } else { 0 };
        EntPath {
            clock: Signal::default(),
            reset: Signal::default(),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: Signal::default(),
            rd: Signal::default(),
            cr_valid: signals(n),
            cr_edt: signals(n),
            cr_type: signals(n),
            ack: signals(n),
            gnt: signals(k),
            nz: signals(n),
            free: signals(n),
            err: Signal::default(),
            ar_ent: signals(if g.any_ram() { n } else { 0 }),
            ack_ent: signals(n_of(g.any_ram())),
            vdt_ent: signals(if g.vdt_ram { 3 } else { 0 }),
            pt_ent: signals(n_of(g.pt_ram)),
            ref_valid: signals(refs),
            ref_pix: signals(n_of(g.pix)),
            ar_ref_ent: signals(refs),
            free_q: dffs(n),
            total_q: dffs(n),
            pend_q: (0..n).map(|_| dffs(k)).collect(),
            ae: signals(n_of(g.any_ram())),
            rent: signals(refs),
            inc: Signal::default(),
            dec: Signal::default(),
            wval: Signal::default(),
            stp: Signal::default(),
            zero: constant(0),
            one: constant(1),
            max: constant((1 << F) - 1),
            full: constant(1 << E),
            full32: constant(1 << E),
            _lsb: 0,
            _lsb1: 1,
            zero_e: consts((0..n_of(g.any_ram() || g.tri)).map(|_| 0)),
            tcode: consts(g.classes.iter().map(|t| *t as u64)),
            total_rst: consts(g.edt_total.iter().copied()),
            a_total: consts((0..n as u64).map(|e| 0x060 + e)),
            a_free: consts((0..n as u64).map(|e| 0x080 + e)),
            a_pend: (0..n as u64)
                .map(|e| consts(g.classes.iter().map(move |t| 0x200 + 4 * e + *t as u64)))
                .collect(),
        }
    }
}

impl<const E: usize, const F: usize> Logic for EntPath<E, F> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rd.next = self.zero.val();
        self.err.next = false;
        // EDT_TOTAL stores min(wdata, 2^ENT_W).
        self.wval.next = self.zero.val();
        for o in self._lsb..self._lsb1 {
            self.wval.next = self.cfg_wdata.val().get_bits::<F>(o);
        }
        if self.cfg_wdata.val() > self.full32.val() {
            self.wval.next = self.full.val();
        }
        for e in 0..self.free_q.len() {
            self.free_q[e].clock.next = self.clock.val();
            self.total_q[e].clock.next = self.clock.val();
            self.free[e].next = self.free_q[e].q.val();
            self.nz[e].next = self.free_q[e].q.val() != self.zero.val();
            // FREE_EDT' = FREE_EDT + credit - debit, clamped to [0, EDT_TOTAL] (R9).
            self.inc.next = self.cr_valid[e].val() & self.cr_edt[e].val();
            self.dec.next = self.ack[e].val();
            self.free_q[e].d.next = self.free_q[e].q.val();
            self.total_q[e].d.next = self.total_q[e].q.val();
            self.stp.next = self.one.val();
            if self.dec.val() {
                self.stp.next = self.max.val();
            }
            if self.inc.val() & !self.dec.val() {
                if self.free_q[e].q.val() >= self.total_q[e].q.val() {
                    self.free_q[e].d.next = self.total_q[e].q.val();
                    self.err.next = true;
                } else {
                    self.free_q[e].d.next = self.free_q[e].q.val() + self.stp.val();
                }
            }
            if self.dec.val() & !self.inc.val() {
                if self.free_q[e].q.val() == self.zero.val() {
                    self.err.next = true;
                } else {
                    self.free_q[e].d.next = self.free_q[e].q.val() + self.stp.val();
                }
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_free[e].val()) {
                self.rd.next = self.free_q[e].q.val();
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_total[e].val()) {
                self.rd.next = self.total_q[e].q.val();
                if self.cfg_we.val() {
                    self.total_q[e].d.next = self.wval.val();
                    self.free_q[e].d.next = self.wval.val();
                }
            }
            if self.reset.val() {
                self.total_q[e].d.next = self.total_rst[e].val();
                self.free_q[e].d.next = self.total_rst[e].val();
            }
            // PEND[e][t]: +1 at an ack, -1 at cr_edt of the type; saturating, never below 0.
            for k in 0..self.gnt.len() {
                self.pend_q[e][k].clock.next = self.clock.val();
                self.inc.next = self.ack[e].val() & self.gnt[k].val();
                self.dec.next = self.cr_valid[e].val() & self.cr_edt[e].val() & (self.cr_type[e].val() == self.tcode[k].val());
                self.pend_q[e][k].d.next = self.pend_q[e][k].q.val();
                self.stp.next = self.one.val();
                if self.dec.val() {
                    self.stp.next = self.max.val();
                }
                if self.inc.val() & !self.dec.val() & (self.pend_q[e][k].q.val() != self.max.val()) {
                    self.pend_q[e][k].d.next = self.pend_q[e][k].q.val() + self.stp.val();
                }
                if self.dec.val() & !self.inc.val() {
                    if self.pend_q[e][k].q.val() == self.zero.val() {
                        self.err.next = true;
                    } else {
                        self.pend_q[e][k].d.next = self.pend_q[e][k].q.val() + self.stp.val();
                    }
                }
                if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_pend[e][k].val()) {
                    self.rd.next = self.pend_q[e][k].q.val();
                }
                if self.reset.val() {
                    self.pend_q[e][k].d.next = self.zero.val();
                }
            }
        }
        if self.reset.val() {
            self.err.next = false;
        }
        // The acknowledging EU's entity number, for the table write.
        for i in 0..self.ae.len() {
            self.ae[i].next = self.zero_e[0].val();
            for e in 0..self.ar_ent.len() {
                if self.ack[e].val() {
                    self.ae[i].next = self.ae[i].val() | self.ar_ent[e].val();
                }
            }
            self.ack_ent[i].next = self.ae[i].val();
        }
        // References: VDT copies for a triangle, the PT entry (ref 0) for a pixel.
        for i in 0..self.rent.len() {
            self.rent[i].next = self.zero_e[0].val();
        }
        for i in 0..self.vdt_ent.len() {
            self.rent[i].next = self.vdt_ent[i].val();
        }
        for i in 0..self.ref_pix.len() {
            if self.ref_pix[i].val() {
                self.rent[0].next = self.pt_ent[0].val();
            }
        }
        for i in 0..self.ar_ref_ent.len() {
            self.ar_ref_ent[i].next = self.zero_e[0].val();
            if self.ref_valid[i].val() {
                self.ar_ref_ent[i].next = self.rent[i].val();
            }
        }
    }
}
