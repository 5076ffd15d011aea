//! The valid bits of a VDT or PT (flip-flops), generic in the table depth.

use super::*;

// ---------------------------------------------------------------------------
// Valid bits of a table (flip-flops), generic in the table depth.
// ---------------------------------------------------------------------------

/// The valid bits of a VDT or PT of `D = 2^A` entries: releases (one per EU per cycle),
/// the dispatch's set (one entry, or PG entries for a patch) and clear (a last pixel), and
/// lookups of the state at the start of the cycle. An entry's one-hot mask is the AND of
/// a block of its high address bits and a tiling of its low bits (a predecoded decoder).
/// A patch's group of PG entries starts at a multiple of PG (D7: its base is a multiple of
/// 16), so its set is decoded the same way (PG ones in each tile) and its group lookup reads
/// one bit of the OR of each PG-aligned group, not PG bits from any position; the result is
/// the one the shifts by any address would give there.
#[derive(LogicBlock)]
pub struct ValidBits<const D: usize, const A: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub rel_valid: Vec<Signal<In, Bit>>,
    pub rel_addr: Vec<Signal<In, Bits<A>>>,
    pub set_one: Vec<Signal<In, Bit>>,
    pub set_grp: Vec<Signal<In, Bit>>,
    pub set_addr: Vec<Signal<In, Bits<A>>>,
    pub clr: Vec<Signal<In, Bit>>,
    pub clr_addr: Vec<Signal<In, Bits<A>>>,
    pub look_addr: Vec<Signal<In, Bits<A>>>,
    pub look: Vec<Signal<Out, Bit>>,
    pub glook_addr: Vec<Signal<In, Bits<A>>>,
    pub glook: Vec<Signal<Out, Bit>>,
    pub valid: Signal<Out, Bits<D>>,
    pub err_release: Signal<Out, Bit>,
    v_q: DFF<Bits<D>>,
    rel: Signal<Local, Bits<D>>,
    setm: Signal<Local, Bits<D>>,
    clrm: Signal<Local, Bits<D>>,
    one: Constant<Bits<D>>,
    zero: Constant<Bits<D>>,
    /// Shifts 1..PG-1: the OR of a PG-aligned group lands in its first bit (group lookup).
    gsh: Vec<Constant<Bits<A>>>,
    /// The group lookup's address: the low log2 PG bits cleared.
    m_galign: Vec<Constant<Bits<A>>>,
    /// LG = max(L, PG): `gblk` is LG ones, `gtile` PG ones every LG bits; `m_ghi`/`m_glo`
    /// split a group's address (the group set's decoder).
    gblk: Vec<Constant<Bits<D>>>,
    gtile: Vec<Constant<Bits<D>>>,
    m_ghi: Vec<Constant<Bits<A>>>,
    m_glo: Vec<Constant<Bits<A>>>,
    vg: Vec<Signal<Local, Bits<D>>>,
    /// L = 2^(A/2): `blk` is L ones, `tile` a one every L bits; `m_hi`/`m_lo` split an address.
    blk: Constant<Bits<D>>,
    tile: Constant<Bits<D>>,
    m_hi: Constant<Bits<A>>,
    m_lo: Constant<Bits<A>>,
}

/// What a [`ValidBits`] has: releases, set kinds, clear, lookups, group lookups.
pub struct ValidShape {
    pub rels: usize,
    pub set_one: bool,
    pub set_grp: bool,
    pub clr: bool,
    pub looks: usize,
    pub glook: bool,
    pub pg: usize,
}

impl<const D: usize, const A: usize> ValidBits<D, A> {
    pub fn new(s: &ValidShape) -> Self {
        assert_eq!(1 << A, D);
        let set = s.set_one || s.set_grp;
        let l = 1usize << (A / 2);
        let lg = l.max(s.pg);
        // Constants wider than 64 bits are built from their 64-bit words.
        let wide = |bits: Vec<usize>| -> Constant<Bits<D>> {
            let mut v = Bits::<D>::default();
            for b in bits {
                v = v | (Bits::<D>::from(1u64) << (b as u64));
            }
            Constant::new(v)
        };
        ValidBits {
            clock: Signal::default(),
            reset: Signal::default(),
            rel_valid: signals(s.rels),
            rel_addr: signals(s.rels),
            set_one: signals(n_of(s.set_one)),
            set_grp: signals(n_of(s.set_grp)),
            set_addr: signals(n_of(set)),
            clr: signals(n_of(s.clr)),
            clr_addr: signals(n_of(s.clr)),
            look_addr: signals(s.looks),
            look: signals(s.looks),
            glook_addr: signals(n_of(s.glook)),
            glook: signals(n_of(s.glook)),
            valid: Signal::default(),
            err_release: Signal::default(),
            v_q: DFF::default(),
            rel: Signal::default(),
            setm: Signal::default(),
            clrm: Signal::default(),
            one: constant(1),
            zero: constant(0),
            gsh: consts((1..if s.glook { s.pg } else { 1 }).map(|g| g as u64)),
            m_galign: consts((0..n_of(s.glook)).map(|_| ((1u64 << A) - 1) & !(s.pg as u64 - 1))),
            gblk: (0..n_of(s.set_grp)).map(|_| wide((0..lg).collect())).collect(),
            gtile: (0..n_of(s.set_grp)).map(|_| wide((0..D).filter(|b| b % lg < s.pg).collect())).collect(),
            m_ghi: consts((0..n_of(s.set_grp)).map(|_| ((1u64 << A) - 1) & !(lg as u64 - 1))),
            m_glo: consts((0..n_of(s.set_grp)).map(|_| lg as u64 - 1)),
            vg: signals(n_of(s.glook)),
            blk: wide((0..l).collect()),
            tile: wide((0..D / l).map(|j| j * l).collect()),
            m_hi: constant(((1u64 << A) - 1) & !(l as u64 - 1)),
            m_lo: constant(l as u64 - 1),
        }
    }
}

impl<const D: usize, const A: usize> Logic for ValidBits<D, A> {
    #[hdl_gen]
    fn update(&mut self) {
        self.v_q.clock.next = self.clock.val();
        self.valid.next = self.v_q.q.val();
        // Releases of this cycle; releasing an entry invalid now is an error: one check of
        // the releases' union against the valid bits (an AND-OR over the entries), not a
        // read multiplexer per release.
        self.rel.next = self.zero.val();
        for e in 0..self.rel_valid.len() {
            if self.rel_valid[e].val() {
                self.rel.next = self.rel.val()
                    | ((self.blk.val() << (self.rel_addr[e].val() & self.m_hi.val()))
                        & (self.tile.val() << (self.rel_addr[e].val() & self.m_lo.val())));
            }
        }
        self.err_release.next = (self.rel.val() & !self.v_q.q.val()).any();
        // The dispatch's write wins over a same-edge release.
        self.setm.next = self.zero.val();
        for i in 0..self.set_one.len() {
            if self.set_one[i].val() {
                self.setm.next = self.setm.val()
                    | ((self.blk.val() << (self.set_addr[0].val() & self.m_hi.val()))
                        & (self.tile.val() << (self.set_addr[0].val() & self.m_lo.val())));
            }
        }
        for i in 0..self.set_grp.len() {
            if self.set_grp[i].val() {
                self.setm.next = self.setm.val()
                    | ((self.gblk[i].val() << (self.set_addr[0].val() & self.m_ghi[i].val()))
                        & (self.gtile[i].val() << (self.set_addr[0].val() & self.m_glo[i].val())));
            }
        }
        self.clrm.next = self.zero.val();
        for i in 0..self.clr.len() {
            if self.clr[i].val() {
                self.clrm.next = (self.blk.val() << (self.clr_addr[i].val() & self.m_hi.val()))
                    & (self.tile.val() << (self.clr_addr[i].val() & self.m_lo.val()));
            }
        }
        self.v_q.d.next = (self.v_q.q.val() & !self.rel.val() & !self.clrm.val()) | self.setm.val();
        if self.reset.val() {
            self.v_q.d.next = self.zero.val();
        }
        for l in 0..self.look.len() {
            self.look[l].next = ((self.v_q.q.val() >> self.look_addr[l].val()) & self.one.val()).any();
        }
        for i in 0..self.glook.len() {
            self.vg[i].next = self.v_q.q.val();
            for g in 0..self.gsh.len() {
                self.vg[i].next = self.vg[i].val() | (self.v_q.q.val() >> self.gsh[g].val());
            }
            self.glook[i].next = ((self.vg[i].val() >> (self.glook_addr[i].val() & self.m_galign[i].val())) & self.one.val()).any();
        }
    }
}
