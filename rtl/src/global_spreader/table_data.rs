//! Write data and read forwarding around a table's RAMs, generic in the entry width.

use super::*;

// ---------------------------------------------------------------------------
// Table data around the RAMs, generic in the entry width.
// ---------------------------------------------------------------------------

/// Write data and read forwarding of a table kept in `C` RAM copies of `B` banks each
/// (VDT: 3 x PG; PT: 1 x 1). Entry fields from bit 0: tag, eu, ent, grp; the core
/// netlist slices the fields out of `rd`.
#[derive(LogicBlock)]
pub struct TableData<const D: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub w_tag: Vec<Signal<In, Bit>>,
    pub w_eu: Vec<Signal<In, Bit>>,
    pub w_ent: Vec<Signal<In, Bit>>,
    /// The write is a patch's: bank g's entry gets grp g (else 0).
    pub w_grp_on: Vec<Signal<In, Bit>>,
    pub wdata: Vec<Signal<Out, Bits<D>>>,
    /// Copy c's read issued last cycle hits bank b's write of last edge.
    pub fwd_hit: Vec<Vec<Signal<In, Bit>>>,
    /// Copy c's entry is in bank b.
    pub rd_sel: Vec<Vec<Signal<In, Bit>>>,
    pub ram: Vec<Vec<Signal<In, Bits<D>>>>,
    /// Copy c's entry: its bank's RAM word, or last edge's write to it.
    pub rd: Vec<Signal<Out, Bits<D>>>,
    fwd_q: Vec<DFF<Bits<D>>>,
    hit_q: Vec<Vec<DFF<Bit>>>,
    common: Signal<Local, Bits<D>>,
    k_tag: Vec<Constant<Bits<D>>>,
    k_eu: Vec<Constant<Bits<D>>>,
    k_ent: Vec<Constant<Bits<D>>>,
    k_grp: Vec<Constant<Bits<D>>>,
    zero: Constant<Bits<D>>,
}

impl<const D: usize> TableData<D> {
    /// `copies` x `banks`; field widths `tg`, `uw`, `ent`, `gw` (0 = no such field).
    pub fn new(copies: usize, banks: usize, tg: usize, uw: usize, ent: usize, gw: usize) -> Self {
        assert_eq!(tg + uw + ent + gw, D);
        let (o_eu, o_ent, o_grp) = (tg, tg + uw, tg + uw + ent);
        let w = |o: usize, n: usize| consts::<D>((0..n).map(move |b| 1u64 << (o + b)));
        TableData {
            clock: Signal::default(),
            reset: Signal::default(),
            w_tag: signals(tg),
            w_eu: signals(uw),
            w_ent: signals(ent),
            w_grp_on: signals(n_of(gw > 0)),
            wdata: signals(banks),
            fwd_hit: grid(copies, banks),
            rd_sel: grid(copies, banks),
            ram: grid(copies, banks),
            rd: signals(copies),
            fwd_q: dffs(banks),
            hit_q: (0..copies).map(|_| dffs(banks)).collect(),
            common: Signal::default(),
            k_tag: w(0, tg),
            k_eu: w(o_eu, uw),
            k_ent: w(o_ent, ent),
            k_grp: if gw > 0 { consts((0..banks).map(|g| (g as u64) << o_grp)) } else { Vec::new() },
            zero: constant(0),
        }
    }
}

impl<const D: usize> Logic for TableData<D> {
    #[hdl_gen]
    fn update(&mut self) {
        self.common.next = self.zero.val();
        for b in 0..self.w_tag.len() {
            if self.w_tag[b].val() {
                self.common.next = self.common.val() | self.k_tag[b].val();
            }
        }
        for b in 0..self.w_eu.len() {
            if self.w_eu[b].val() {
                self.common.next = self.common.val() | self.k_eu[b].val();
            }
        }
        for b in 0..self.w_ent.len() {
            if self.w_ent[b].val() {
                self.common.next = self.common.val() | self.k_ent[b].val();
            }
        }
        for g in 0..self.wdata.len() {
            self.fwd_q[g].clock.next = self.clock.val();
            self.wdata[g].next = self.common.val();
            for i in 0..self.w_grp_on.len() {
                if self.w_grp_on[i].val() {
                    self.wdata[g].next = self.common.val() | self.k_grp[g].val();
                }
            }
            self.fwd_q[g].d.next = self.wdata[g].val();
        }
        // Read: the bank holding the entry, or last edge's write to it (the RAM is
        // read-first). Only registers and inputs computed before the grant feed `rd`.
        for c in 0..self.rd.len() {
            self.rd[c].next = self.zero.val();
            for g in 0..self.wdata.len() {
                self.hit_q[c][g].clock.next = self.clock.val();
                self.hit_q[c][g].d.next = self.fwd_hit[c][g].val() & !self.reset.val();
                if self.rd_sel[c][g].val() {
                    if self.hit_q[c][g].q.val() {
                        self.rd[c].next = self.fwd_q[g].q.val();
                    } else {
                        self.rd[c].next = self.ram[c][g].val();
                    }
                }
            }
        }
    }
}
