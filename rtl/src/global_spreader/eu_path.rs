//! The EU-id datapath (EU_W): PRIO registers, the request's and the references' EUs.

use super::*;

// ---------------------------------------------------------------------------
// EU ids (EU_W, PRIO_W = EU_W + 1).
// ---------------------------------------------------------------------------

/// PRIO registers, the request's EU id, the references' EUs, the triangle's home EU and
/// `ar_global_ref`.
#[derive(LogicBlock)]
pub struct EuPath<const U: usize, const P: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    pub cfg_wdata: Signal<In, Bits<P>>,
    pub rd: Signal<Out, Bits<P>>,
    pub prio: Vec<Vec<Signal<Out, Bits<P>>>>,
    pub sel: Vec<Signal<In, Bit>>,
    pub sel_id: Vec<Signal<Out, Bits<U>>>,
    pub tri_hit: Vec<Signal<In, Bit>>,
    pub vdt_eu: Vec<Signal<In, Bits<U>>>,
    pub tri_home: Vec<Signal<Out, Bits<U>>>,
    pub tri_has_home: Vec<Signal<Out, Bit>>,
    pub pt_eu: Vec<Signal<In, Bits<U>>>,
    pub ref_valid: Vec<Signal<In, Bit>>,
    pub ref_pix: Vec<Signal<In, Bit>>,
    pub ar_ref_eu: Vec<Signal<Out, Bits<U>>>,
    pub ar_global_ref: Vec<Signal<Out, Bit>>,
    prio_q: Vec<Vec<DFF<Bits<P>>>>,
    sid: Vec<Signal<Local, Bits<U>>>,
    reu: Vec<Signal<Local, Bits<U>>>,
    home: Vec<Signal<Local, Bits<U>>>,
    zero: Constant<Bits<P>>,
    zero_u: Vec<Constant<Bits<U>>>,
    ids: Vec<Constant<Bits<U>>>,
    prio_rst: Vec<Vec<Constant<Bits<P>>>>,
    a_prio: Vec<Vec<Constant<CfgAddr>>>,
}

impl<const U: usize, const P: usize> EuPath<U, P> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!((g.uw, g.prw), (U, P));
        let (n, k) = (g.n, g.k());
        let (r, refs, s) = (n_of(g.vdt_ram), if g.tri { 3 } else { 0 }, n_of(g.eu_sel()));
        EuPath {
            clock: Signal::default(),
            reset: Signal::default(),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: Signal::default(),
            rd: Signal::default(),
            prio: grid(k, n),
            sel: signals(s * n),
            sel_id: signals(n_of(g.any_ram())),
            tri_hit: signals(3 * r),
            vdt_eu: signals(3 * r),
            tri_home: signals(r),
            tri_has_home: signals(r),
            pt_eu: signals(n_of(g.pt_ram)),
            ref_valid: signals(refs),
            ref_pix: signals(n_of(g.pix)),
            ar_ref_eu: signals(refs),
            ar_global_ref: signals(n_of(g.tri)),
            prio_q: (0..k).map(|_| dffs(n)).collect(),
            sid: signals(s),
            reu: signals(refs),
            home: signals(r),
            zero: constant(0),
            zero_u: consts((0..s).map(|_| 0)),
            ids: consts((0..s * n).map(|e| e as u64)),
            prio_rst: g.prio.iter().map(|l| consts(l.iter().copied())).collect(),
            a_prio: g
                .classes
                .iter()
                .map(|t| consts((0..n as u64).map(move |s| 0x100 + 32 * *t as u64 + s)))
                .collect(),
        }
    }
}

impl<const U: usize, const P: usize> Logic for EuPath<U, P> {
    #[hdl_gen]
    fn update(&mut self) {
        self.rd.next = self.zero.val();
        for k in 0..self.prio_q.len() {
            for s in 0..self.prio[0].len() {
                self.prio_q[k][s].clock.next = self.clock.val();
                self.prio[k][s].next = self.prio_q[k][s].q.val();
                self.prio_q[k][s].d.next = self.prio_q[k][s].q.val();
                if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_prio[k][s].val()) {
                    self.rd.next = self.prio_q[k][s].q.val();
                    if self.cfg_we.val() {
                        self.prio_q[k][s].d.next = self.cfg_wdata.val();
                    }
                }
                if self.reset.val() {
                    self.prio_q[k][s].d.next = self.prio_rst[k][s].val();
                }
            }
        }
        // The request's EU id (ar_valid is one-hot).
        for i in 0..self.sid.len() {
            self.sid[i].next = self.zero_u[0].val();
            for e in 0..self.sel.len() {
                if self.sel[e].val() {
                    self.sid[i].next = self.sid[i].val() | self.ids[e].val();
                }
            }
        }
        for i in 0..self.sel_id.len() {
            self.sel_id[i].next = self.sid[0].val();
        }
        // Home of a triangle: the EU of two valid refs, else of the first valid ref.
        for i in 0..self.home.len() {
            self.home[i].next = self.zero_u[0].val();
            if self.tri_hit[2].val() {
                self.home[i].next = self.vdt_eu[2].val();
            }
            if self.tri_hit[1].val() {
                self.home[i].next = self.vdt_eu[1].val();
            }
            if self.tri_hit[0].val() {
                self.home[i].next = self.vdt_eu[0].val();
            }
            if self.tri_hit[1].val() & self.tri_hit[2].val() & (self.vdt_eu[1].val() == self.vdt_eu[2].val()) {
                self.home[i].next = self.vdt_eu[1].val();
            }
            if self.tri_hit[0].val() & self.tri_hit[2].val() & (self.vdt_eu[0].val() == self.vdt_eu[2].val()) {
                self.home[i].next = self.vdt_eu[0].val();
            }
            if self.tri_hit[0].val() & self.tri_hit[1].val() & (self.vdt_eu[0].val() == self.vdt_eu[1].val()) {
                self.home[i].next = self.vdt_eu[0].val();
            }
            self.tri_home[i].next = self.home[i].val();
            self.tri_has_home[i].next = self.tri_hit[0].val() | self.tri_hit[1].val() | self.tri_hit[2].val();
        }
        // The presented references' EUs; global when one is not the target.
        for i in 0..self.reu.len() {
            self.reu[i].next = self.zero_u[0].val();
        }
        for i in 0..self.vdt_eu.len() {
            self.reu[i].next = self.vdt_eu[i].val();
        }
        for i in 0..self.ref_pix.len() {
            if self.ref_pix[i].val() {
                self.reu[0].next = self.pt_eu[0].val();
            }
        }
        for i in 0..self.ar_global_ref.len() {
            self.ar_global_ref[i].next = false;
        }
        for i in 0..self.ar_ref_eu.len() {
            self.ar_ref_eu[i].next = self.zero_u[0].val();
            if self.ref_valid[i].val() {
                self.ar_ref_eu[i].next = self.reu[i].val();
                if self.reu[i].val() != self.sid[0].val() {
                    self.ar_global_ref[0].next = true;
                }
            }
        }
    }
}
