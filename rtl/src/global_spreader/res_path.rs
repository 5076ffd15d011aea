//! The resource datapath (RES_W): free and total resources per EU, the fit test.

use super::*;

// ---------------------------------------------------------------------------
// Resources (RES_W).
// ---------------------------------------------------------------------------

/// FREE_RES / RES_TOTAL per EU, MIN_RES / FRAME_RES per class, the slots' sizes, the fit
/// test (R4) and the request's footprint (sticky while held).
///
/// Cost: the fit's two thresholds are one per class, `thr = max(fp, MIN_RES)`, so each slot
/// and EU has one comparator (`FREE_RES >= thr`), not two; the carries and borrows of the
/// footprint and of FREE_RES' come from the operands' and the result's top bits, not from
/// comparators. All combinational from the same registers: same values every cycle.
#[derive(LogicBlock)]
pub struct ResPath<const R: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    pub cfg_wdata: Signal<In, Bits<R>>,
    pub rd: Signal<Out, Bits<R>>,
    pub cr_valid: Vec<Signal<In, Bit>>,
    pub cr_res: Vec<Signal<In, Bits<R>>>,
    pub ack: Vec<Signal<In, Bit>>,
    pub size_in: Vec<Signal<In, Bits<R>>>,
    pub load: Vec<Signal<In, Bit>>,
    pub gnt: Vec<Signal<In, Bit>>,
    pub sticky: Signal<In, Bit>,
    pub fit: Vec<Vec<Signal<Out, Bit>>>,
    pub ar_footprint: Signal<Out, Bits<R>>,
    pub ar_copy_size: Signal<Out, Bits<R>>,
    pub free: Vec<Signal<Out, Bits<R>>>,
    pub err: Signal<Out, Bit>,
    free_q: Vec<DFF<Bits<R>>>,
    total_q: Vec<DFF<Bits<R>>>,
    min_q: Vec<DFF<Bits<R>>>,
    frame_q: Vec<DFF<Bits<R>>>,
    size_q: Vec<DFF<Bits<R>>>,
    fp_q: DFF<Bits<R>>,
    fp: Vec<Signal<Local, Bits<R>>>,
    ovf: Vec<Signal<Local, Bit>>,
    thr: Vec<Signal<Local, Bits<R>>>,
    pfp: Signal<Local, Bits<R>>,
    add: Signal<Local, Bits<R>>,
    sub: Signal<Local, Bits<R>>,
    s1: Signal<Local, Bits<R>>,
    dif: Signal<Local, Bits<R>>,
    carry: Signal<Local, Bit>,
    borrow: Signal<Local, Bit>,
    zero: Constant<Bits<R>>,
    /// The top bit's index (carries and borrows), as a one-step range.
    _msb: usize,
    _msb1: usize,
    total_rst: Vec<Constant<Bits<R>>>,
    min_rst: Vec<Constant<Bits<R>>>,
    frame_rst: Vec<Constant<Bits<R>>>,
    a_min: Vec<Constant<CfgAddr>>,
    a_frame: Vec<Constant<CfgAddr>>,
    a_total: Vec<Constant<CfgAddr>>,
    a_free: Vec<Constant<CfgAddr>>,
}

impl<const R: usize> ResPath<R> {
    /// The path of resource kind `kind` (contract R16; 0 is the only kind without `resources`):
    /// its reset values and its registers' addresses (kind 0: RES_TOTAL 0x020 + e, FREE_RES
    /// 0x040 + e, MIN_RES 0x00C + t, FRAME_RES 0x010 + t; kind k >= 1: 0x280 + 0x40(k-1) + e,
    /// 0x2A0 + 0x40(k-1) + e, 0x340 + 8(k-1) + t, 0x344 + 8(k-1) + t).
    pub fn new(g: &Geo, kind: usize) -> Self {
        assert_eq!(g.rw, R);
        let (n, k) = (g.n, g.k());
        let t = |base: u64| consts::<CFG_AW>(g.classes.iter().map(move |t| base + *t as u64));
        let (a_min, a_frame, a_total, a_free) = if kind == 0 {
            (0x00C, 0x010, 0x020, 0x040)
        } else {
            let j = kind as u64 - 1;
            (0x340 + 8 * j, 0x344 + 8 * j, 0x280 + 0x40 * j, 0x2A0 + 0x40 * j)
        };
        ResPath {
            clock: Signal::default(),
            reset: Signal::default(),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: Signal::default(),
            rd: Signal::default(),
            cr_valid: signals(n),
            cr_res: signals(n),
            ack: signals(n),
            size_in: signals(k),
            load: signals(k),
            gnt: signals(k),
            sticky: Signal::default(),
            fit: grid(k, n),
            ar_footprint: Signal::default(),
            ar_copy_size: Signal::default(),
            free: signals(n),
            err: Signal::default(),
            free_q: dffs(n),
            total_q: dffs(n),
            min_q: dffs(k),
            frame_q: dffs(k),
            size_q: dffs(k),
            fp_q: DFF::default(),
            fp: signals(k),
            ovf: signals(k),
            thr: signals(k),
            pfp: Signal::default(),
            add: Signal::default(),
            sub: Signal::default(),
            s1: Signal::default(),
            dif: Signal::default(),
            carry: Signal::default(),
            borrow: Signal::default(),
            zero: constant(0),
            _msb: R - 1,
            _msb1: R,
            total_rst: consts(g.res_total_k[kind].iter().copied()),
            min_rst: consts(g.min_res_k[kind].iter().copied()),
            frame_rst: consts(g.frame_res_k[kind].iter().copied()),
            a_min: t(a_min),
            a_frame: t(a_frame),
            a_total: consts((0..n as u64).map(|e| a_total + e)),
            a_free: consts((0..n as u64).map(|e| a_free + e)),
        }
    }
}

impl<const R: usize> Logic for ResPath<R> {
    #[hdl_gen]
    fn update(&mut self) {
        self.fp_q.clock.next = self.clock.val();
        self.rd.next = self.zero.val();
        self.err.next = false;
        // Per class: footprint fp = size + FRAME_RES (a carry: fp >= 2^RES_W never fits).
        self.pfp.next = self.fp_q.q.val();
        self.ar_copy_size.next = self.zero.val();
        for k in 0..self.size_q.len() {
            self.size_q[k].clock.next = self.clock.val();
            self.min_q[k].clock.next = self.clock.val();
            self.frame_q[k].clock.next = self.clock.val();
            self.fp[k].next = self.size_q[k].q.val() + self.frame_q[k].q.val();
            // The carry out of the sum, from the top bits of the operands and the sum.
            self.ovf[k].next = false;
            for m in self._msb..self._msb1 {
                self.ovf[k].next = (self.size_q[k].q.val().get_bit(m) & self.frame_q[k].q.val().get_bit(m))
                    | ((self.size_q[k].q.val().get_bit(m) | self.frame_q[k].q.val().get_bit(m)) & !self.fp[k].val().get_bit(m));
            }
            // FREE_RES >= fp && FREE_RES >= MIN_RES is FREE_RES >= max(fp, MIN_RES).
            self.thr[k].next = self.min_q[k].q.val();
            if self.fp[k].val() > self.min_q[k].q.val() {
                self.thr[k].next = self.fp[k].val();
            }
            if self.gnt[k].val() {
                self.ar_copy_size.next = self.size_q[k].q.val();
                // (Recomputed, not `fp`: `fit` is an output that the grant `gnt` depends on,
                // and Verilator orders this block's variables, not its statements. Yosys
                // merges the two identical sums.)
                if !self.sticky.val() {
                    self.pfp.next = self.size_q[k].q.val() + self.frame_q[k].q.val();
                }
            }
            self.size_q[k].d.next = self.size_q[k].q.val();
            if self.load[k].val() {
                self.size_q[k].d.next = self.size_in[k].val();
            }
            self.min_q[k].d.next = self.min_q[k].q.val();
            self.frame_q[k].d.next = self.frame_q[k].q.val();
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_min[k].val()) {
                self.rd.next = self.min_q[k].q.val();
                if self.cfg_we.val() {
                    self.min_q[k].d.next = self.cfg_wdata.val();
                }
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_frame[k].val()) {
                self.rd.next = self.frame_q[k].q.val();
                if self.cfg_we.val() {
                    self.frame_q[k].d.next = self.cfg_wdata.val();
                }
            }
            if self.reset.val() {
                self.min_q[k].d.next = self.min_rst[k].val();
                self.frame_q[k].d.next = self.frame_rst[k].val();
            }
            for e in 0..self.free_q.len() {
                self.fit[k][e].next = !self.ovf[k].val() & (self.free_q[e].q.val() >= self.thr[k].val());
            }
        }
        // The presented footprint: registered while a request is held.
        self.ar_footprint.next = self.pfp.val();
        self.fp_q.d.next = self.pfp.val();
        // FREE_RES' = FREE_RES + credit - debit, exact, clamped to [0, RES_TOTAL] (R9).
        for e in 0..self.free_q.len() {
            self.free_q[e].clock.next = self.clock.val();
            self.total_q[e].clock.next = self.clock.val();
            self.free[e].next = self.free_q[e].q.val();
            self.add.next = self.zero.val();
            if self.cr_valid[e].val() {
                self.add.next = self.cr_res[e].val();
            }
            self.sub.next = self.zero.val();
            if self.ack[e].val() {
                self.sub.next = self.pfp.val();
            }
            self.s1.next = self.free_q[e].q.val() + self.add.val();
            // Carry of s1 and borrow of s1 - sub, from the top bits.
            self.dif.next = self.s1.val() - self.sub.val();
            self.carry.next = false;
            self.borrow.next = false;
            for m in self._msb..self._msb1 {
                self.carry.next = (self.free_q[e].q.val().get_bit(m) & self.add.val().get_bit(m))
                    | ((self.free_q[e].q.val().get_bit(m) | self.add.val().get_bit(m)) & !self.s1.val().get_bit(m));
                self.borrow.next = (!self.s1.val().get_bit(m) & self.sub.val().get_bit(m))
                    | (!(self.s1.val().get_bit(m) ^ self.sub.val().get_bit(m)) & self.dif.val().get_bit(m));
            }
            self.total_q[e].d.next = self.total_q[e].q.val();
            if !self.carry.val() & self.borrow.val() {
                // Below zero.
                self.free_q[e].d.next = self.zero.val();
                self.err.next = true;
            } else if (self.carry.val() & !self.borrow.val()) | (self.dif.val() > self.total_q[e].q.val()) {
                // Above RES_TOTAL (with a carry: at least 2^RES_W).
                self.free_q[e].d.next = self.total_q[e].q.val();
                self.err.next = true;
            } else {
                self.free_q[e].d.next = self.dif.val();
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_free[e].val()) {
                self.rd.next = self.free_q[e].q.val();
            }
            if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_total[e].val()) {
                self.rd.next = self.total_q[e].q.val();
                if self.cfg_we.val() {
                    // A RES_TOTAL write wins over the edge's debit and credit.
                    self.total_q[e].d.next = self.cfg_wdata.val();
                    self.free_q[e].d.next = self.cfg_wdata.val();
                }
            }
            if self.reset.val() {
                self.total_q[e].d.next = self.total_rst[e].val();
                self.free_q[e].d.next = self.total_rst[e].val();
            }
        }
        if self.reset.val() {
            self.err.next = false;
            self.fp_q.d.next = self.zero.val();
        }
    }
}
