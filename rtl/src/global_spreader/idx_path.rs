//! The vertex-index datapath (IDX_W): AUTO_IDX, the slots' bases and the VDT arithmetic.

use super::*;

// ---------------------------------------------------------------------------
// Vertex indices (IDX_W).
// ---------------------------------------------------------------------------

/// AUTO_IDX, the vertex and patch slots' bases, the triangle slot's indices; the VDT
/// slot, tag, bank and element arithmetic on them; the request's `ar_base_idx`.
///
/// Outputs read before the grant (`vp_bad`, `pp_bad`, `*_slot`, `rd_sel`, `tag_eq`) are
/// computed from inputs and registers only, with no variable shared with the logic that
/// follows the grant, so that Verilator orders the designs without a combinational cycle.
#[derive(LogicBlock)]
pub struct IdxPath<const I: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    /// `cfg_wdata` with its low ELEM_W bits zero (AUTO_IDX stores them as 0).
    pub cfg_wdata: Signal<In, Bits<I>>,
    pub rd: Signal<Out, Bits<I>>,
    // Vertex slot.
    pub vp_base: Vec<Signal<In, Bits<I>>>,
    pub vtx_load: Vec<Signal<In, Bit>>,
    pub vtx_indexed: Vec<Signal<In, Bit>>,
    pub vtx_gnt: Vec<Signal<In, Bit>>,
    pub vtx_adv: Vec<Signal<In, Bit>>,
    pub vp_bad: Vec<Signal<Out, Bit>>,
    /// VDT slot of the slot's base, bit b at [0][b].
    pub vtx_slot: Vec<Vec<Signal<Out, Bit>>>,
    // Patch slot.
    pub pp_base: Vec<Signal<In, Bits<I>>>,
    pub patch_load: Vec<Signal<In, Bit>>,
    pub patch_indexed: Vec<Signal<In, Bit>>,
    pub patch_gnt: Vec<Signal<In, Bit>>,
    pub patch_adv: Vec<Signal<In, Bit>>,
    pub pp_bad: Vec<Signal<Out, Bit>>,
    pub patch_slot: Vec<Vec<Signal<Out, Bit>>>,
    // The request's base and the VDT write.
    pub sticky: Vec<Signal<In, Bit>>,
    pub ar_base_idx: Vec<Signal<Out, Bits<I>>>,
    pub w_slot: Vec<Vec<Signal<Out, Bit>>>,
    pub vtx_w: Vec<Signal<In, Bit>>,
    pub patch_w: Vec<Signal<In, Bit>>,
    pub w_bank_addr: Vec<Signal<Out, Bit>>,
    pub w_bank_en: Vec<Signal<Out, Bit>>,
    pub w_tag: Vec<Signal<Out, Bit>>,
    // Triangle slot: VDT reads and references.
    pub tp_vidx: Vec<Signal<In, Bits<I>>>,
    pub tri_load: Vec<Signal<In, Bit>>,
    pub tp_fire: Vec<Signal<In, Bit>>,
    pub tri_slot: Vec<Vec<Signal<Out, Bit>>>,
    pub rd_addr: Vec<Vec<Signal<Out, Bit>>>,
    pub rd_sel: Vec<Vec<Signal<Out, Bit>>>,
    pub fwd_hit: Vec<Vec<Signal<Out, Bit>>>,
    /// The VDT entry's tag, zero-extended.
    pub ram_tag: Vec<Signal<In, Bits<I>>>,
    pub tag_eq: Vec<Signal<Out, Bit>>,
    /// With `vdt_ways` > 1 (R15): vertex c's tag, bit b at [c][b], for the ways' compares.
    pub tri_tag: Vec<Vec<Signal<Out, Bit>>>,
    pub ref_valid: Vec<Signal<In, Bit>>,
    /// The request is a pixel's (its ref 0 is the triangle: element and group 0).
    pub ref_pix: Vec<Signal<In, Bit>>,
    pub ar_ref_elem: Vec<Vec<Signal<Out, Bit>>>,
    pub ram_grp: Vec<Vec<Signal<In, Bit>>>,
    pub ar_ref_grp: Vec<Vec<Signal<Out, Bit>>>,
    auto_q: DFF<Bits<I>>,
    vbase_q: Vec<DFF<Bits<I>>>,
    pbase_q: Vec<DFF<Bits<I>>>,
    base_q: Vec<DFF<Bits<I>>>,
    tv_q: Vec<DFF<Bits<I>>>,
    vfresh: Vec<Signal<Local, Bits<I>>>,
    pfresh: Vec<Signal<Local, Bits<I>>>,
    pres: Vec<Signal<Local, Bits<I>>>,
    rdx: Vec<Signal<Local, Bits<I>>>,
    vref: Vec<Signal<Local, Bit>>,
    wbe: Vec<Signal<Local, Bit>>,
    zero: Constant<Bits<I>>,
    a_auto: Constant<CfgAddr>,
    m_vgrp: Vec<Constant<Bits<I>>>,
    k_vgrp: Vec<Constant<Bits<I>>>,
    k15: Vec<Constant<Bits<I>>>,
    m_not15: Vec<Constant<Bits<I>>>,
    k16: Vec<Constant<Bits<I>>>,
    /// slot(i) bit b = i bit ELEM_W + b (weights `w_sl`); vtag(i) = i >> (ELEM_W + VDT_AW).
    w_sl: Vec<Constant<Bits<I>>>,
    sh_tag: Vec<Constant<Bits<8>>>,
    m_low: Vec<Constant<Bits<I>>>,
    m_bank: Vec<Constant<Bits<I>>>,
    kg: Vec<Constant<Bits<I>>>,
    /// Bit ranges [o, o + n) of an index: bank address and tag (loops with literal indices).
    _ob: usize,
    _ob1: usize,
    _nb: usize,
    _ot: usize,
    _ot1: usize,
    _nt: usize,
    _nq: usize,
    _ne: usize,
    _ng: usize,
}

impl<const I: usize> IdxPath<I> {
    pub fn new(g: &Geo) -> Self {
        assert_eq!(g.iw, I);
        let (v, p, d, r) = (n_of(g.vtx), n_of(g.patch), n_of(g.has_vdt), n_of(g.vdt_ram));
        let t = 3 * r;
        let gr = n_of(g.grp_field());
        let bits = |lo: usize, n: usize| -> u64 { ((1u64 << n) - 1) << lo };
        IdxPath {
            clock: Signal::default(),
            reset: Signal::default(),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: Signal::default(),
            rd: Signal::default(),
            vp_base: signals(v),
            vtx_load: signals(v),
            vtx_indexed: signals(v),
            vtx_gnt: signals(v),
            vtx_adv: signals(v),
            vp_bad: signals(v),
            vtx_slot: grid(v, g.aw),
            pp_base: signals(p),
            patch_load: signals(p),
            patch_indexed: signals(p),
            patch_gnt: signals(p),
            patch_adv: signals(p),
            pp_bad: signals(p),
            patch_slot: grid(p, g.aw),
            sticky: signals(d),
            ar_base_idx: signals(d),
            w_slot: grid(d, g.aw),
            vtx_w: signals(v * r),
            patch_w: signals(p * r),
            w_bank_addr: signals(r * g.bank_bits()),
            w_bank_en: signals(r * g.pg),
            w_tag: signals(r * g.tw),
            tp_vidx: signals(t),
            tri_load: signals(r),
            tp_fire: signals(r),
            tri_slot: grid(t, g.aw),
            rd_addr: grid(t, g.bank_bits()),
            rd_sel: grid(t, g.pg),
            fwd_hit: grid(t, g.pg),
            ram_tag: signals(t),
            tag_eq: signals(t),
            tri_tag: grid(t * n_of(g.ways > 1), g.tw),
            ref_valid: signals(t),
            ref_pix: signals(n_of(g.pix && g.vdt_ram)),
            ar_ref_elem: grid(t, g.ew),
            ram_grp: grid(t * gr, g.gw),
            ar_ref_grp: grid(t * gr, g.gw),
            auto_q: DFF::default(),
            vbase_q: dffs(v),
            pbase_q: dffs(p),
            base_q: dffs(d),
            tv_q: dffs(t),
            vfresh: signals(v),
            pfresh: signals(p),
            pres: signals(d),
            rdx: signals(t),
            vref: signals(t),
            wbe: signals(r * g.pg),
            zero: constant(0),
            a_auto: constant(0x002),
            m_vgrp: consts((0..v).map(|_| g.vgrp as u64 - 1)),
            k_vgrp: consts((0..v).map(|_| g.vgrp as u64)),
            k15: consts((0..p).map(|_| 15)),
            m_not15: consts((0..p).map(|_| !15u64 & ((1u64 << I) - 1))),
            k16: consts((0..p).map(|_| 16)),
            w_sl: consts((0..d * g.aw).map(|b| 1u64 << (g.ew + b))),
            sh_tag: consts((0..r).map(|_| (g.ew + g.aw) as u64)),
            m_low: consts((0..r).map(|_| bits(g.ew, g.lpg))),
            m_bank: consts((0..r).map(|_| bits(g.ew + g.lpg, g.bank_bits()))),
            kg: consts((0..r * g.pg).map(|b| (b as u64) << g.ew)),
            _ob: g.ew + g.lpg,
            _ob1: g.ew + g.lpg + 1,
            _nb: r * g.bank_bits(),
            _ot: g.ew + g.aw,
            _ot1: g.ew + g.aw + 1,
            _nt: r * g.tw,
            _nq: r * n_of(g.ways > 1) * g.tw,
            _ne: r * g.ew,
            _ng: gr * g.gw,
        }
    }
}

impl<const I: usize> Logic for IdxPath<I> {
    #[hdl_gen]
    fn update(&mut self) {
        self.auto_q.clock.next = self.clock.val();
        self.rd.next = self.zero.val();
        if self.cfg_valid.val() & (self.cfg_addr.val() == self.a_auto.val()) {
            self.rd.next = self.auto_q.q.val();
        }
        // Vertex slot: base = the packet's if indexed, else AUTO_IDX.
        for i in 0..self.vbase_q.len() {
            self.vbase_q[i].clock.next = self.clock.val();
            self.vbase_q[i].d.next = self.vbase_q[i].q.val();
            if self.vtx_load[i].val() {
                self.vbase_q[i].d.next = self.vp_base[i].val();
            }
            self.vp_bad[i].next = (self.vp_base[i].val() & self.m_vgrp[i].val()).any();
            self.vfresh[i].next = self.auto_q.q.val();
            if self.vtx_indexed[i].val() {
                self.vfresh[i].next = self.vbase_q[i].q.val();
            }
            for b in 0..self.w_sl.len() {
                self.vtx_slot[i][b].next = (self.vfresh[i].val() & self.w_sl[b].val()).any();
            }
        }
        // Patch slot: base = the packet's if indexed, else AUTO_IDX rounded up to 16.
        for i in 0..self.pbase_q.len() {
            self.pbase_q[i].clock.next = self.clock.val();
            self.pbase_q[i].d.next = self.pbase_q[i].q.val();
            if self.patch_load[i].val() {
                self.pbase_q[i].d.next = self.pp_base[i].val();
            }
            self.pp_bad[i].next = (self.pp_base[i].val() & self.k15[i].val()).any();
            self.pfresh[i].next = (self.auto_q.q.val() + self.k15[i].val()) & self.m_not15[i].val();
            if self.patch_indexed[i].val() {
                self.pfresh[i].next = self.pbase_q[i].q.val();
            }
            for b in 0..self.w_sl.len() {
                self.patch_slot[i][b].next = (self.pfresh[i].val() & self.w_sl[b].val()).any();
            }
        }
        // The request's base (registered while held), its VDT slot; AUTO_IDX advance.
        // (Recomputed from the registers: no variable is shared with the slot outputs.)
        self.auto_q.d.next = self.auto_q.q.val();
        for i in 0..self.pres.len() {
            self.base_q[i].clock.next = self.clock.val();
            self.pres[i].next = self.zero.val();
            for j in 0..self.vtx_gnt.len() {
                if self.vtx_gnt[j].val() {
                    if self.vtx_indexed[j].val() {
                        self.pres[i].next = self.vbase_q[j].q.val();
                    } else {
                        self.pres[i].next = self.auto_q.q.val();
                    }
                }
            }
            for j in 0..self.patch_gnt.len() {
                if self.patch_gnt[j].val() {
                    if self.patch_indexed[j].val() {
                        self.pres[i].next = self.pbase_q[j].q.val();
                    } else {
                        self.pres[i].next = (self.auto_q.q.val() + self.k15[j].val()) & self.m_not15[j].val();
                    }
                }
            }
            if self.sticky[i].val() {
                self.pres[i].next = self.base_q[i].q.val();
            }
            self.ar_base_idx[i].next = self.pres[i].val();
            self.base_q[i].d.next = self.pres[i].val();
            if self.reset.val() {
                self.base_q[i].d.next = self.zero.val();
            }
            for b in 0..self.w_sl.len() {
                self.w_slot[i][b].next = (self.pres[i].val() & self.w_sl[b].val()).any();
            }
            for j in 0..self.vtx_adv.len() {
                if self.vtx_adv[j].val() {
                    self.auto_q.d.next = self.pres[i].val() + self.k_vgrp[j].val();
                }
            }
            for j in 0..self.patch_adv.len() {
                if self.patch_adv[j].val() {
                    self.auto_q.d.next = self.pres[i].val() + self.k16[j].val();
                }
            }
        }
        // A configuration write wins over the advance.
        if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_auto.val()) {
            self.auto_q.d.next = self.cfg_wdata.val();
        }
        if self.reset.val() {
            self.auto_q.d.next = self.zero.val();
        }
        // VDT write: bank address, tag, per-bank enables (a patch writes every bank).
        for o in self._ob..self._ob1 {
            for b in 0..self._nb {
                self.w_bank_addr[b].next = self.pres[0].val().get_bit(o + b);
            }
        }
        for o in self._ot..self._ot1 {
            for b in 0..self._nt {
                self.w_tag[b].next = self.pres[0].val().get_bit(o + b);
            }
        }
        for g in 0..self.wbe.len() {
            self.wbe[g].next = false;
            for j in 0..self.vtx_w.len() {
                if self.vtx_w[j].val() & ((self.pres[0].val() & self.m_low[0].val()) == self.kg[g].val()) {
                    self.wbe[g].next = true;
                }
            }
            for j in 0..self.patch_w.len() {
                if self.patch_w[j].val() {
                    self.wbe[g].next = true;
                }
            }
            self.w_bank_en[g].next = self.wbe[g].val();
        }
        // Triangle slot: the VDT read for next cycle, this cycle's lookups and references.
        for t in 0..self.tv_q.len() {
            self.tv_q[t].clock.next = self.clock.val();
            self.tv_q[t].d.next = self.tv_q[t].q.val();
            if self.tri_load[0].val() {
                self.tv_q[t].d.next = self.tp_vidx[t].val();
            }
            for b in 0..self.w_sl.len() {
                self.tri_slot[t][b].next = (self.tv_q[t].q.val() & self.w_sl[b].val()).any();
            }
            self.tag_eq[t].next = (self.tv_q[t].q.val() >> self.sh_tag[0].val()) == self.ram_tag[t].val();
            for g in 0..self.wbe.len() {
                self.rd_sel[t][g].next = (self.tv_q[t].q.val() & self.m_low[0].val()) == self.kg[g].val();
            }
            self.rdx[t].next = self.tv_q[t].q.val();
            if self.tp_fire[0].val() {
                self.rdx[t].next = self.tp_vidx[t].val();
            }
            for o in self._ob..self._ob1 {
                for b in 0..self._nb {
                    self.rd_addr[t][b].next = self.rdx[t].val().get_bit(o + b);
                }
            }
            for g in 0..self.wbe.len() {
                self.fwd_hit[t][g].next =
                    self.wbe[g].val() & !((self.pres[0].val() ^ self.rdx[t].val()) & self.m_bank[0].val()).any();
            }
            // A vertex reference's element and group; a pixel's ref 0 (its triangle) has 0.
            self.vref[t].next = self.ref_valid[t].val();
            for i in 0..self.ref_pix.len() {
                self.vref[t].next = self.ref_valid[t].val() & !self.ref_pix[i].val();
            }
            for b in 0..self._ne {
                self.ar_ref_elem[t][b].next = self.vref[t].val() & self.tv_q[t].q.val().get_bit(b);
            }
        }
        for t in 0..self.tri_tag.len() {
            for o in self._ot..self._ot1 {
                for b in 0..self._nq {
                    self.tri_tag[t][b].next = self.tv_q[t].q.val().get_bit(o + b);
                }
            }
        }
        for t in 0..self.ram_grp.len() {
            for b in 0..self._ng {
                self.ar_ref_grp[t][b].next = self.vref[t].val() & self.ram_grp[t][b].val();
            }
        }
    }
}
