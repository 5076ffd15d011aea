//! The branch evaluation: a compound condition over stack entries.

use super::*;

/// The decode-stage branch decision on R and S (§5.5.2, encodings §5.3).
#[derive(LogicBlock)]
pub struct BranchEval {
    pub vld: Signal<In, Bit>,
    /// 0: simple (`r[sel] == pol`), 1: compound `op(R.f, S.g)`.
    pub cmp: Signal<In, Bit>,
    pub sel: Signal<In, Bits<2>>,
    pub pol: Signal<In, Bit>,
    pub f: Signal<In, Bit>,
    pub g: Signal<In, Bit>,
    /// `compound_flags = "cnvz"` only (one element; none at "nz"): the high bits of the
    /// 2-bit flag indices `{f_hi, f}` and `{g_hi, g}` (3 C, 2 N, 1 V, 0 Z).
    pub f_hi: Vec<Signal<In, Bit>>,
    pub g_hi: Vec<Signal<In, Bit>>,
    pub op: Signal<In, Bits<2>>,
    pub r: Signal<In, Cc>,
    pub s: Signal<In, Cc>,
    pub taken: Signal<Out, Bit>,
    simple_t: Signal<Local, Bit>,
    a: Signal<Local, Bit>,
    b: Signal<Local, Bit>,
    compound_t: Signal<Local, Bit>,
    /// Bit positions of N and Z in a code.
    n_bit: Constant<Bits<2>>,
    z_bit: Constant<Bits<2>>,
    /// "cnvz" only: the positions of C and V.
    c_bit: Vec<Constant<Bits<2>>>,
    v_bit: Vec<Constant<Bits<2>>>,
    op_and: Constant<Bits<2>>,
    op_or: Constant<Bits<2>>,
    op_xor: Constant<Bits<2>>,
}

impl BranchEval {
    /// `cnvz`: the compound fields are 2-bit flag indices.
    pub(super) fn new(cnvz: bool) -> Self {
        let k = usize::from(cnvz);
        BranchEval {
            vld: Signal::default(),
            cmp: Signal::default(),
            sel: Signal::default(),
            pol: Signal::default(),
            f: Signal::default(),
            g: Signal::default(),
            f_hi: signals(k),
            g_hi: signals(k),
            op: Signal::default(),
            r: Signal::default(),
            s: Signal::default(),
            taken: Signal::default(),
            simple_t: Signal::default(),
            a: Signal::default(),
            b: Signal::default(),
            compound_t: Signal::default(),
            n_bit: constant(2),
            z_bit: constant(0),
            c_bit: (0..k).map(|_| constant(3)).collect(),
            v_bit: (0..k).map(|_| constant(1)).collect(),
            op_and: constant(0),
            op_or: constant(1),
            op_xor: constant(2),
        }
    }
}

impl Logic for BranchEval {
    #[hdl_gen]
    fn update(&mut self) {
        // Simple branch (BEZ = sel Z, pol 1): the selected bit of R equals pol.
        self.simple_t.next = self.r.val().get_bit(self.sel.val().index()) == self.pol.val();
        // Compound CBfg.op: f picks R's bit, g picks S's bit (0 = N, 1 = Z).
        self.a.next = self.r.val().get_bit(self.n_bit.val().index());
        if self.f.val() {
            self.a.next = self.r.val().get_bit(self.z_bit.val().index());
        }
        self.b.next = self.s.val().get_bit(self.n_bit.val().index());
        if self.g.val() {
            self.b.next = self.s.val().get_bit(self.z_bit.val().index());
        }
        // compound_flags = "cnvz": {f_hi, f} and {g_hi, g} index the flag (3 C, 2 N, 1 V, 0 Z).
        for i in 0..self.f_hi.len() {
            if self.f_hi[i].val() {
                self.a.next = self.r.val().get_bit(self.n_bit.val().index());
                if self.f.val() {
                    self.a.next = self.r.val().get_bit(self.c_bit[i].val().index());
                }
            } else {
                self.a.next = self.r.val().get_bit(self.z_bit.val().index());
                if self.f.val() {
                    self.a.next = self.r.val().get_bit(self.v_bit[i].val().index());
                }
            }
            if self.g_hi[i].val() {
                self.b.next = self.s.val().get_bit(self.n_bit.val().index());
                if self.g.val() {
                    self.b.next = self.s.val().get_bit(self.c_bit[i].val().index());
                }
            } else {
                self.b.next = self.s.val().get_bit(self.z_bit.val().index());
                if self.g.val() {
                    self.b.next = self.s.val().get_bit(self.v_bit[i].val().index());
                }
            }
        }
        if self.op.val() == self.op_and.val() {
            self.compound_t.next = self.a.val() & self.b.val();
        } else if self.op.val() == self.op_or.val() {
            self.compound_t.next = self.a.val() | self.b.val();
        } else if self.op.val() == self.op_xor.val() {
            self.compound_t.next = self.a.val() ^ self.b.val();
        } else {
            self.compound_t.next = !(self.a.val() ^ self.b.val());
        }
        self.taken.next = self.vld.val() & self.simple_t.val();
        if self.cmp.val() {
            self.taken.next = self.vld.val() & self.compound_t.val();
        }
    }
}

// ---------------------------------------------------------------------------
// Control: everything that does not depend on pc_width (compiled once).
// ---------------------------------------------------------------------------
