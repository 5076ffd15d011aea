//! The control design: slots, selection, grant, effects and registers.

use super::*;

// ---------------------------------------------------------------------------
// Control: slots, selection, grant, effects, registers (no stored width but counts).
// ---------------------------------------------------------------------------

/// The control design (see the module doc). Per-class vectors are in class priority
/// order (PIX, TRI, PATCH, VTX, present ones only); type-specific ports have 0 or 1
/// entries. EU masks are 32-bit inside (bits at and above `eus` constant 0).
#[derive(LogicBlock)]
pub struct Ctl {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Channels and slots.
    pub c_valid: Vec<Signal<In, Bit>>,
    pub c_ready: Vec<Signal<Out, Bit>>,
    pub load: Vec<Signal<Out, Bit>>,
    pub gnt: Vec<Signal<Out, Bit>>,
    pub sticky: Signal<Out, Bit>,
    // Vertex.
    pub vp_indexed: Vec<Signal<In, Bit>>,
    pub vp_count: Vec<Signal<In, Id>>,
    pub vp_bad: Vec<Signal<In, Bit>>,
    pub vtx_blocked: Vec<Signal<In, Bit>>,
    pub vtx_indexed: Vec<Signal<Out, Bit>>,
    pub vtx_w: Vec<Signal<Out, Bit>>,
    pub vtx_adv: Vec<Signal<Out, Bit>>,
    // Patch.
    pub pp_indexed: Vec<Signal<In, Bit>>,
    pub pp_bad: Vec<Signal<In, Bit>>,
    pub patch_blocked: Vec<Signal<In, Bit>>,
    pub patch_indexed: Vec<Signal<Out, Bit>>,
    pub patch_w: Vec<Signal<Out, Bit>>,
    pub patch_adv: Vec<Signal<Out, Bit>>,
    // Triangle.
    pub tri_blocked: Vec<Signal<In, Bit>>,
    pub tri_w: Vec<Signal<Out, Bit>>,
    pub tp_indexed: Vec<Signal<In, Bit>>,
    pub tp_fire: Vec<Signal<Out, Bit>>,
    pub tri_vvalid: Vec<Signal<In, Bit>>,
    pub tri_tag_eq: Vec<Signal<In, Bit>>,
    pub tri_hit: Vec<Signal<Out, Bit>>,
    pub tri_home: Vec<Signal<In, Id>>,
    pub tri_has_home: Vec<Signal<In, Bit>>,
    // Pixel.
    pub xp_mask: Vec<Signal<In, Bits<16>>>,
    pub xp_last: Vec<Signal<In, Bit>>,
    pub pix_hit: Vec<Signal<In, Bit>>,
    pub pix_home: Vec<Signal<In, Id>>,
    pub xp_fire: Vec<Signal<Out, Bit>>,
    pub pix_clr: Vec<Signal<Out, Bit>>,
    pub ar_pix_mask: Vec<Signal<Out, Bits<16>>>,
    pub ref_pix: Vec<Signal<Out, Bit>>,
    pub ar_ref_valid: Vec<Signal<Out, Bit>>,
    // Fit and candidate order.
    pub fit: Vec<Vec<Signal<In, Bit>>>,
    pub edt_nz: Vec<Signal<In, Bit>>,
    pub prio: Vec<Vec<Signal<In, Id>>>,
    // Allocation request.
    pub ar_ready: Vec<Signal<In, Bit>>,
    pub ar_refuse: Vec<Signal<In, Bit>>,
    pub ar_valid: Vec<Signal<Out, Bit>>,
    pub ack: Vec<Signal<Out, Bit>>,
    pub ar_type: Signal<Out, Bits<2>>,
    pub ar_vcount: Signal<Out, Bits<5>>,
    // Error events of the other designs.
    pub credit_err: Vec<Signal<In, Bit>>,
    pub release_err: Vec<Signal<In, Bit>>,
    // Registers.
    pub cfg_valid: Signal<In, Bit>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, CfgAddr>,
    pub cfg_wdata: Vec<Signal<In, Bit>>,
    pub rd_ext: Vec<Signal<In, Bits<32>>>,
    pub cfg_rvalid: Signal<Out, Bit>,
    pub cfg_rdata: Signal<Out, Bits<32>>,
    // Status.
    pub busy: Signal<Out, Bit>,
    pub stall: Signal<Out, Bit>,
    pub eu_avail_cnt: Vec<Signal<Out, Bit>>,
    pub st_slot_valid: Signal<Out, Bits<4>>,
    pub err_vdt_miss: Signal<Out, Bit>,
    pub err_pt_miss: Signal<Out, Bit>,
    pub err_malformed: Signal<Out, Bit>,
    pub err_credit: Signal<Out, Bit>,
    pub err_release: Signal<Out, Bit>,
    // State.
    en_q: DFF<Bit>,
    loc_q: DFF<Bit>,
    yld_q: DFF<Bit>,
    eu_en_q: Vec<DFF<Bit>>,
    ded_q: Vec<Vec<DFF<Bit>>>,
    occ_q: Vec<DFF<Bit>>,
    refm_q: Vec<Vec<DFF<Bit>>>,
    vidx_q: Vec<DFF<Bit>>,
    vcnt_q: Vec<Vec<DFF<Bit>>>,
    pidx_q: Vec<DFF<Bit>>,
    tidx_q: Vec<DFF<Bit>>,
    xmask_q: Vec<DFF<Bits<16>>>,
    xlast_q: Vec<DFF<Bit>>,
    sticky_q: DFF<Bit>,
    sel_q: Vec<DFF<Bit>>,
    gnt_q: Vec<DFF<Bit>>,
    refv_q: Vec<DFF<Bit>>,
    e_vdt: DFF<Bit>,
    e_pt: DFF<Bit>,
    e_mal: DFF<Bit>,
    e_cred: DFF<Bit>,
    e_rel: DFF<Bit>,
    stall_cnt: DFF<Bits<32>>,
    rej_cnt: Vec<DFF<Bits<32>>>,
    nack_cnt: Vec<DFF<Bits<32>>>,
    alloc_cnt: Vec<Vec<DFF<Bits<32>>>>,
    rvalid_q: DFF<Bit>,
    rdata_q: DFF<Bits<32>>,
    // Combinational values (used as variables in the one update process).
    en_m: Signal<Local, Mask>,
    nz_m: Signal<Local, Mask>,
    rdy_m: Signal<Local, Mask>,
    rfs_m: Signal<Local, Mask>,
    sel_p: Signal<Local, Mask>,
    ack_m: Signal<Local, Mask>,
    rf_m: Signal<Local, Mask>,
    rej_p: Signal<Local, Mask>,
    oh: Signal<Local, Mask>,
    cand: Signal<Local, Mask>,
    ok: Signal<Local, Mask>,
    val: Signal<Local, Bits<32>>,
    ded_m: Vec<Signal<Local, Mask>>,
    fit_m: Vec<Signal<Local, Mask>>,
    rfm_m: Vec<Signal<Local, Mask>>,
    selm: Vec<Signal<Local, Mask>>,
    rejm: Vec<Signal<Local, Mask>>,
    found: Vec<Signal<Local, Bit>>,
    elig: Vec<Signal<Local, Bit>>,
    gnt_l: Vec<Signal<Local, Bit>>,
    ack_k: Vec<Signal<Local, Bit>>,
    fire_k: Vec<Signal<Local, Bit>>,
    blk: Signal<Local, Bit>,
    hh: Signal<Local, Bit>,
    home: Signal<Local, Id>,
    taken: Signal<Local, Bit>,
    pres: Signal<Local, Bit>,
    acked: Signal<Local, Bit>,
    refused: Signal<Local, Bit>,
    busy_l: Signal<Local, Bit>,
    stall_l: Signal<Local, Bit>,
    vtx_blk: Signal<Local, Bit>,
    patch_blk: Signal<Local, Bit>,
    tri_blk: Signal<Local, Bit>,
    tri_hh: Signal<Local, Bit>,
    tri_home_l: Signal<Local, Id>,
    pix_hit_l: Signal<Local, Bit>,
    pix_home_l: Signal<Local, Id>,
    vtx_mal: Signal<Local, Bit>,
    patch_mal: Signal<Local, Bit>,
    g_tri: Signal<Local, Bit>,
    g_pix: Signal<Local, Bit>,
    a_vtx: Signal<Local, Bit>,
    a_patch: Signal<Local, Bit>,
    a_tri: Signal<Local, Bit>,
    a_pix: Signal<Local, Bit>,
    l_vtx: Signal<Local, Bit>,
    l_patch: Signal<Local, Bit>,
    l_tri: Signal<Local, Bit>,
    l_pix: Signal<Local, Bit>,
    f_tri: Signal<Local, Bit>,
    f_pix: Signal<Local, Bit>,
    tri_hit_l: Vec<Signal<Local, Bit>>,
    fresh_ref: Vec<Signal<Local, Bit>>,
    vc5: Signal<Local, Bits<5>>,
    avail: Signal<Local, Id>,
    avm: Signal<Local, Mask>,
    mal_set: Signal<Local, Bit>,
    // Constants.
    one32: Constant<Mask>,
    zero32: Constant<Mask>,
    w32: Vec<Constant<Mask>>,
    zero8: Constant<Id>,
    one8: Constant<Id>,
    w8: Vec<Constant<Id>>,
    vgrp8: Vec<Constant<Id>>,
    w5: Vec<Constant<Bits<5>>>,
    zero5: Constant<Bits<5>>,
    zero16: Vec<Constant<Bits<16>>>,
    is_vtx: Vec<Constant<Bit>>,
    is_tri: Vec<Constant<Bit>>,
    is_pix: Vec<Constant<Bit>>,
    is_patch: Vec<Constant<Bit>>,
    tcode: Vec<Constant<Bits<2>>>,
    vcnt_k: Vec<Constant<Bits<5>>>,
    slotbit: Vec<Constant<Bits<4>>>,
    zero4: Constant<Bits<4>>,
    zero2: Constant<Bits<2>>,
    en_r: Constant<Bit>,
    loc_r: Constant<Bit>,
    yld_r: Constant<Bit>,
    eu_en_r: Vec<Constant<Bit>>,
    ded_r: Vec<Vec<Constant<Bit>>>,
    a_ctrl: Constant<CfgAddr>,
    a_en: Constant<CfgAddr>,
    a_status: Constant<CfgAddr>,
    a_stall: Constant<CfgAddr>,
    a_ded: Vec<Constant<CfgAddr>>,
    a_rej: Vec<Constant<CfgAddr>>,
    a_nack: Vec<Constant<CfgAddr>>,
    a_alloc: Vec<Vec<Constant<CfgAddr>>>,
    /// Register bit weights: CTRL [2:0], STATUS [6:0].
    b_en: Constant<Bits<32>>,
    b_loc: Constant<Bits<32>>,
    b_yld: Constant<Bits<32>>,
    b_busy: Constant<Bits<32>>,
    b_stall: Constant<Bits<32>>,
    b_err: Vec<Constant<Bits<32>>>,
}

impl Ctl {
    pub fn new(g: &Geo) -> Self {
        let (n, k) = (g.n, g.k());
        let (v, p, t, x) = (n_of(g.vtx), n_of(g.patch), n_of(g.tri), n_of(g.pix));
        let r = n_of(g.vdt_ram);
        let refs = 3 * t;
        let is = |ty: usize| bitcs(g.classes.iter().map(move |c| *c == ty));
        Ctl {
            clock: Signal::default(),
            reset: Signal::default(),
            c_valid: signals(k),
            c_ready: signals(k),
            load: signals(k),
            gnt: signals(k),
            sticky: Signal::default(),
            vp_indexed: signals(v),
            vp_count: signals(v),
            vp_bad: signals(v),
            vtx_blocked: signals(v),
            vtx_indexed: signals(v),
            vtx_w: signals(v),
            vtx_adv: signals(v),
            pp_indexed: signals(p),
            pp_bad: signals(p),
            patch_blocked: signals(p),
            patch_indexed: signals(p),
            patch_w: signals(p),
            patch_adv: signals(p),
            tri_blocked: signals(t),
            tri_w: signals(t),
            tp_indexed: signals(r),
            tp_fire: signals(r),
            tri_vvalid: signals(3 * r),
            tri_tag_eq: signals(3 * r),
            tri_hit: signals(3 * r),
            tri_home: signals(r),
            tri_has_home: signals(r),
            xp_mask: signals(x),
            xp_last: signals(x),
            pix_hit: signals(x),
            pix_home: signals(x),
            xp_fire: signals(x),
            pix_clr: signals(x),
            ar_pix_mask: signals(x),
            ref_pix: signals(x),
            ar_ref_valid: signals(refs),
            fit: grid(k, n),
            edt_nz: signals(n),
            prio: grid(k, n),
            ar_ready: signals(n),
            ar_refuse: signals(n),
            ar_valid: signals(n),
            ack: signals(n),
            ar_type: Signal::default(),
            ar_vcount: Signal::default(),
            credit_err: signals(2),
            release_err: signals(n_of(g.has_vdt) + t),
            cfg_valid: Signal::default(),
            cfg_we: Signal::default(),
            cfg_addr: Signal::default(),
            cfg_wdata: signals(g.cw),
            rd_ext: signals(4),
            cfg_rvalid: Signal::default(),
            cfg_rdata: Signal::default(),
            busy: Signal::default(),
            stall: Signal::default(),
            eu_avail_cnt: signals(g.avw),
            st_slot_valid: Signal::default(),
            err_vdt_miss: Signal::default(),
            err_pt_miss: Signal::default(),
            err_malformed: Signal::default(),
            err_credit: Signal::default(),
            err_release: Signal::default(),
            en_q: DFF::default(),
            loc_q: DFF::default(),
            yld_q: DFF::default(),
            eu_en_q: dffs(n),
            ded_q: (0..k).map(|_| dffs(n)).collect(),
            occ_q: dffs(k),
            refm_q: (0..k).map(|_| dffs(n)).collect(),
            vidx_q: dffs(v),
            vcnt_q: (0..v).map(|_| dffs(g.vcw)).collect(),
            pidx_q: dffs(p),
            tidx_q: dffs(r),
            xmask_q: dffs(x),
            xlast_q: dffs(x),
            sticky_q: DFF::default(),
            sel_q: dffs(n),
            gnt_q: dffs(k),
            refv_q: dffs(refs),
            e_vdt: DFF::default(),
            e_pt: DFF::default(),
            e_mal: DFF::default(),
            e_cred: DFF::default(),
            e_rel: DFF::default(),
            stall_cnt: DFF::default(),
            rej_cnt: dffs(n),
            nack_cnt: dffs(n),
            alloc_cnt: (0..n).map(|_| dffs(k)).collect(),
            rvalid_q: DFF::default(),
            rdata_q: DFF::default(),
            en_m: Signal::default(),
            nz_m: Signal::default(),
            rdy_m: Signal::default(),
            rfs_m: Signal::default(),
            sel_p: Signal::default(),
            ack_m: Signal::default(),
            rf_m: Signal::default(),
            rej_p: Signal::default(),
            oh: Signal::default(),
            cand: Signal::default(),
            ok: Signal::default(),
            val: Signal::default(),
            ded_m: signals(k),
            fit_m: signals(k),
            rfm_m: signals(k),
            selm: signals(k),
            rejm: signals(k),
            found: signals(k),
            elig: signals(k),
            gnt_l: signals(k),
            ack_k: signals(k),
            fire_k: signals(k),
            blk: Signal::default(),
            hh: Signal::default(),
            home: Signal::default(),
            taken: Signal::default(),
            pres: Signal::default(),
            acked: Signal::default(),
            refused: Signal::default(),
            busy_l: Signal::default(),
            stall_l: Signal::default(),
            vtx_blk: Signal::default(),
            patch_blk: Signal::default(),
            tri_blk: Signal::default(),
            tri_hh: Signal::default(),
            tri_home_l: Signal::default(),
            pix_hit_l: Signal::default(),
            pix_home_l: Signal::default(),
            vtx_mal: Signal::default(),
            patch_mal: Signal::default(),
            g_tri: Signal::default(),
            g_pix: Signal::default(),
            a_vtx: Signal::default(),
            a_patch: Signal::default(),
            a_tri: Signal::default(),
            a_pix: Signal::default(),
            l_vtx: Signal::default(),
            l_patch: Signal::default(),
            l_tri: Signal::default(),
            l_pix: Signal::default(),
            f_tri: Signal::default(),
            f_pix: Signal::default(),
            tri_hit_l: signals(refs),
            fresh_ref: signals(refs),
            vc5: Signal::default(),
            avail: Signal::default(),
            avm: Signal::default(),
            mal_set: Signal::default(),
            one32: constant(1),
            zero32: constant(0),
            w32: consts((0..n).map(|e| 1u64 << e)),
            zero8: constant(0),
            one8: constant(1),
            w8: consts((0..g.avw).map(|b| 1u64 << b)),
            vgrp8: consts((0..v).map(|_| g.vgrp as u64)),
            w5: consts((0..v * g.vcw).map(|b| 1u64 << b)),
            zero5: constant(0),
            zero16: consts((0..x).map(|_| 0)),
            is_vtx: is(VTX),
            is_tri: is(TRI),
            is_pix: is(PIX),
            is_patch: is(PATCH),
            tcode: consts(g.classes.iter().map(|c| *c as u64)),
            vcnt_k: consts(g.classes.iter().map(|c| match *c {
                PATCH => 16,
                TRI => 3,
                _ => 0,
            })),
            slotbit: consts(g.classes.iter().map(|c| 1u64 << c)),
            zero4: constant(0),
            zero2: constant(0),
            en_r: bitc(g.en),
            loc_r: bitc(g.loc),
            yld_r: bitc(g.yld),
            eu_en_r: bitcs(g.eu_en.iter().copied()),
            ded_r: g.ded.iter().map(|d| bitcs(d.iter().copied())).collect(),
            a_ctrl: constant(0x000),
            a_en: constant(0x001),
            a_status: constant(0x003),
            a_stall: constant(0x004),
            a_ded: consts(g.classes.iter().map(|c| 0x008 + *c as u64)),
            a_rej: consts((0..n as u64).map(|e| 0x0A0 + e)),
            a_nack: consts((0..n as u64).map(|e| 0x0C0 + e)),
            a_alloc: (0..n as u64)
                .map(|e| consts(g.classes.iter().map(move |c| 0x180 + 4 * e + *c as u64)))
                .collect(),
            b_en: constant(1),
            b_loc: constant(2),
            b_yld: constant(4),
            b_busy: constant(1),
            b_stall: constant(2),
            b_err: consts((0..5).map(|b| 4u64 << b)),
        }
    }
}

impl Logic for Ctl {
    #[hdl_gen]
    fn update(&mut self) {
        // --- Clocks.
        self.en_q.clock.next = self.clock.val();
        self.loc_q.clock.next = self.clock.val();
        self.yld_q.clock.next = self.clock.val();
        self.sticky_q.clock.next = self.clock.val();
        self.e_vdt.clock.next = self.clock.val();
        self.e_pt.clock.next = self.clock.val();
        self.e_mal.clock.next = self.clock.val();
        self.e_cred.clock.next = self.clock.val();
        self.e_rel.clock.next = self.clock.val();
        self.stall_cnt.clock.next = self.clock.val();
        self.rvalid_q.clock.next = self.clock.val();
        self.rdata_q.clock.next = self.clock.val();

        // --- EU masks.
        self.en_m.next = self.zero32.val();
        self.nz_m.next = self.zero32.val();
        self.rdy_m.next = self.zero32.val();
        self.rfs_m.next = self.zero32.val();
        for e in 0..self.ar_ready.len() {
            self.eu_en_q[e].clock.next = self.clock.val();
            self.sel_q[e].clock.next = self.clock.val();
            self.rej_cnt[e].clock.next = self.clock.val();
            self.nack_cnt[e].clock.next = self.clock.val();
            if self.eu_en_q[e].q.val() {
                self.en_m.next = self.en_m.val() | self.w32[e].val();
            }
            if self.edt_nz[e].val() {
                self.nz_m.next = self.nz_m.val() | self.w32[e].val();
            }
            if self.ar_ready[e].val() {
                self.rdy_m.next = self.rdy_m.val() | self.w32[e].val();
            }
            if self.ar_refuse[e].val() {
                self.rfs_m.next = self.rfs_m.val() | self.w32[e].val();
            }
        }
        for k in 0..self.occ_q.len() {
            self.occ_q[k].clock.next = self.clock.val();
            self.gnt_q[k].clock.next = self.clock.val();
            self.ded_m[k].next = self.zero32.val();
            self.fit_m[k].next = self.zero32.val();
            self.rfm_m[k].next = self.zero32.val();
            for e in 0..self.ar_ready.len() {
                self.ded_q[k][e].clock.next = self.clock.val();
                self.refm_q[k][e].clock.next = self.clock.val();
                self.alloc_cnt[e][k].clock.next = self.clock.val();
                if self.ded_q[k][e].q.val() {
                    self.ded_m[k].next = self.ded_m[k].val() | self.w32[e].val();
                }
                if self.fit[k][e].val() {
                    self.fit_m[k].next = self.fit_m[k].val() | self.w32[e].val();
                }
                if self.refm_q[k][e].q.val() {
                    self.rfm_m[k].next = self.rfm_m[k].val() | self.w32[e].val();
                }
            }
            // R4 fit: resources and at least one free entity record.
            self.fit_m[k].next = self.fit_m[k].val() & self.nz_m.val();
        }

        // --- Type-specific inputs (0 or 1 of each).
        self.vtx_blk.next = false;
        self.vtx_mal.next = false;
        for i in 0..self.vtx_blocked.len() {
            self.vidx_q[i].clock.next = self.clock.val();
            self.vtx_blk.next = self.vtx_blocked[i].val();
            // R2: count 0 or above VGRP; indexed base not a multiple of VGRP.
            self.vtx_mal.next = (self.vp_count[i].val() == self.zero8.val())
                | (self.vp_count[i].val() > self.vgrp8[i].val())
                | (self.vp_indexed[i].val() & self.vp_bad[i].val());
        }
        self.patch_blk.next = false;
        self.patch_mal.next = false;
        for i in 0..self.patch_blocked.len() {
            self.pidx_q[i].clock.next = self.clock.val();
            self.patch_blk.next = self.patch_blocked[i].val();
            self.patch_mal.next = self.pp_indexed[i].val() & self.pp_bad[i].val();
        }
        self.tri_blk.next = false;
        for i in 0..self.tri_blocked.len() {
            self.tri_blk.next = self.tri_blocked[i].val();
        }
        // Triangle references: indexed, VDT entry valid, tag equal.
        for i in 0..self.tri_hit_l.len() {
            self.tri_hit_l[i].next = false;
        }
        for i in 0..self.tri_vvalid.len() {
            // Read by the home computation before the grant: inputs and registers only.
            self.tri_hit[i].next = self.tidx_q[0].q.val() & self.tri_vvalid[i].val() & self.tri_tag_eq[i].val();
            self.tri_hit_l[i].next = self.tidx_q[0].q.val() & self.tri_vvalid[i].val() & self.tri_tag_eq[i].val();
        }
        self.tri_hh.next = false;
        self.tri_home_l.next = self.zero8.val();
        for i in 0..self.tri_home.len() {
            self.tidx_q[i].clock.next = self.clock.val();
            self.tri_hh.next = self.tri_has_home[i].val();
            self.tri_home_l.next = self.tri_home[i].val();
        }
        self.pix_hit_l.next = false;
        self.pix_home_l.next = self.zero8.val();
        for i in 0..self.pix_hit.len() {
            self.xmask_q[i].clock.next = self.clock.val();
            self.xlast_q[i].clock.next = self.clock.val();
            self.pix_hit_l.next = self.pix_hit[i].val();
            self.pix_home_l.next = self.pix_home[i].val();
        }

        // --- Evaluation of every slot (R4-R6): first candidate that fits and has not refused.
        for k in 0..self.occ_q.len() {
            self.blk.next = (self.is_vtx[k].val() & self.vtx_blk.val())
                | (self.is_patch[k].val() & self.patch_blk.val())
                | (self.is_tri[k].val() & self.tri_blk.val());
            self.hh.next = (self.is_tri[k].val() & self.tri_hh.val()) | (self.is_pix[k].val() & self.pix_hit_l.val());
            if self.is_tri[k].val() {
                self.home.next = self.tri_home_l.val();
            } else {
                self.home.next = self.pix_home_l.val();
            }
            self.cand.next = self.en_m.val() & self.ded_m[k].val();
            self.ok.next = self.cand.val() & self.fit_m[k].val() & !self.rfm_m[k].val();
            self.found[k].next = false;
            self.selm[k].next = self.zero32.val();
            self.rejm[k].next = self.zero32.val();
            // Candidate 0: the home EU (locality), if enabled and dedicated.
            if self.loc_q.q.val() & self.hh.val() {
                self.oh.next = self.one32.val() << self.home.val();
                if (self.oh.val() & self.cand.val()).any() {
                    if (self.oh.val() & self.ok.val()).any() {
                        self.selm[k].next = self.oh.val();
                        self.found[k].next = true;
                    } else if (self.oh.val() & !self.fit_m[k].val()).any() {
                        self.rejm[k].next = self.oh.val();
                    }
                }
            }
            // Then PRIO[type][0..]: an empty slot (>= eus) selects no enabled, dedicated EU.
            for s in 0..self.ar_ready.len() {
                self.oh.next = self.one32.val() << self.prio[k][s].val();
                if !self.found[k].val() & (self.oh.val() & self.cand.val()).any() {
                    if (self.oh.val() & self.ok.val()).any() {
                        self.selm[k].next = self.oh.val();
                        self.found[k].next = true;
                    } else if (self.oh.val() & !self.fit_m[k].val()).any() {
                        self.rejm[k].next = self.rejm[k].val() | self.oh.val();
                    }
                }
            }
            if self.blk.val() {
                self.found[k].next = false;
            }
            self.elig[k].next = self.occ_q[k].q.val() & self.found[k].val();
        }

        // --- Grant (R7): the held request, else by class priority.
        self.taken.next = false;
        self.pres.next = self.sticky_q.q.val();
        self.sel_p.next = self.zero32.val();
        self.rej_p.next = self.zero32.val();
        for k in 0..self.occ_q.len() {
            self.gnt_l[k].next = self.gnt_q[k].q.val();
            if !self.sticky_q.q.val() {
                self.gnt_l[k].next = false;
                if !self.taken.val() & (self.elig[k].val() | (!self.yld_q.q.val() & self.occ_q[k].q.val())) {
                    self.taken.next = true;
                    self.gnt_l[k].next = self.elig[k].val();
                }
                if self.gnt_l[k].val() {
                    self.pres.next = true;
                    self.sel_p.next = self.selm[k].val();
                    self.rej_p.next = self.rejm[k].val();
                }
            }
            self.gnt[k].next = self.gnt_l[k].val();
        }
        if self.sticky_q.q.val() {
            for e in 0..self.ar_ready.len() {
                if self.sel_q[e].q.val() {
                    self.sel_p.next = self.sel_p.val() | self.w32[e].val();
                }
            }
        }
        self.sticky.next = self.sticky_q.q.val();
        // --- The EU's answer (R8).
        self.ack_m.next = self.sel_p.val() & self.rdy_m.val();
        self.rf_m.next = self.sel_p.val() & self.rfs_m.val() & !self.rdy_m.val();
        self.acked.next = self.ack_m.val().any();
        self.refused.next = self.rf_m.val().any();
        for e in 0..self.ar_ready.len() {
            self.ar_valid[e].next = self.sel_p.val().get_bit(e);
            self.ack[e].next = self.ack_m.val().get_bit(e);
            self.sel_q[e].d.next = self.sel_p.val().get_bit(e);
        }
        self.sticky_q.d.next = self.pres.val() & !self.acked.val() & !self.refused.val();
        if self.reset.val() {
            self.sticky_q.d.next = false;
        }

        // --- Channels (R3), malformed drop (R2), slots.
        self.busy_l.next = false;
        self.st_slot_valid.next = self.zero4.val();
        self.ar_type.next = self.zero2.val();
        self.ar_vcount.next = self.zero5.val();
        self.vc5.next = self.zero5.val();
        for i in 0..self.vcnt_q.len() {
            for b in 0..self.w5.len() {
                self.vcnt_q[i][b].clock.next = self.clock.val();
                if self.vcnt_q[i][b].q.val() {
                    self.vc5.next = self.vc5.val() | self.w5[b].val();
                }
            }
        }
        self.g_tri.next = false;
        self.g_pix.next = false;
        self.a_vtx.next = false;
        self.a_patch.next = false;
        self.a_tri.next = false;
        self.a_pix.next = false;
        self.l_vtx.next = false;
        self.l_patch.next = false;
        self.l_tri.next = false;
        self.l_pix.next = false;
        self.f_tri.next = false;
        self.f_pix.next = false;
        self.mal_set.next = false;
        for k in 0..self.occ_q.len() {
            self.ack_k[k].next = self.gnt_l[k].val() & self.acked.val();
            self.c_ready[k].next = self.en_q.q.val() & (!self.occ_q[k].q.val() | self.ack_k[k].val());
            self.fire_k[k].next = self.c_valid[k].val() & self.en_q.q.val() & (!self.occ_q[k].q.val() | self.ack_k[k].val());
            self.load[k].next = self.fire_k[k].val()
                & !((self.is_vtx[k].val() & self.vtx_mal.val()) | (self.is_patch[k].val() & self.patch_mal.val()));
            if self.fire_k[k].val() & !self.load[k].val() {
                self.mal_set.next = true;
            }
            self.occ_q[k].d.next = self.load[k].val() | (self.occ_q[k].q.val() & !self.ack_k[k].val());
            if self.reset.val() {
                self.occ_q[k].d.next = false;
            }
            self.gnt_q[k].d.next = self.gnt_l[k].val();
            if self.occ_q[k].q.val() {
                self.busy_l.next = true;
                self.st_slot_valid.next = self.st_slot_valid.val() | self.slotbit[k].val();
            }
            if self.gnt_l[k].val() {
                self.ar_type.next = self.tcode[k].val();
                if self.is_vtx[k].val() {
                    self.ar_vcount.next = self.vc5.val();
                } else {
                    self.ar_vcount.next = self.vcnt_k[k].val();
                }
            }
            // Kind strobes.
            self.g_tri.next = self.g_tri.val() | (self.is_tri[k].val() & self.gnt_l[k].val());
            self.g_pix.next = self.g_pix.val() | (self.is_pix[k].val() & self.gnt_l[k].val());
            self.a_vtx.next = self.a_vtx.val() | (self.is_vtx[k].val() & self.ack_k[k].val());
            self.a_patch.next = self.a_patch.val() | (self.is_patch[k].val() & self.ack_k[k].val());
            self.a_tri.next = self.a_tri.val() | (self.is_tri[k].val() & self.ack_k[k].val());
            self.a_pix.next = self.a_pix.val() | (self.is_pix[k].val() & self.ack_k[k].val());
            self.l_vtx.next = self.l_vtx.val() | (self.is_vtx[k].val() & self.load[k].val());
            self.l_patch.next = self.l_patch.val() | (self.is_patch[k].val() & self.load[k].val());
            self.l_tri.next = self.l_tri.val() | (self.is_tri[k].val() & self.load[k].val());
            self.l_pix.next = self.l_pix.val() | (self.is_pix[k].val() & self.load[k].val());
            self.f_tri.next = self.f_tri.val() | (self.is_tri[k].val() & self.fire_k[k].val());
            self.f_pix.next = self.f_pix.val() | (self.is_pix[k].val() & self.fire_k[k].val());
            // Refused mask (R6, R8): cleared without a selection, joined by a refusal,
            // emptied with the slot.
            for e in 0..self.ar_ready.len() {
                self.refm_q[k][e].d.next = self.refm_q[k][e].q.val() & self.found[k].val();
                if self.gnt_l[k].val() & self.rf_m.val().get_bit(e) {
                    self.refm_q[k][e].d.next = true;
                }
                if self.load[k].val() | self.ack_k[k].val() | self.reset.val() {
                    self.refm_q[k][e].d.next = false;
                }
            }
        }
        self.busy.next = self.busy_l.val();
        self.stall_l.next = self.busy_l.val() & !self.pres.val();
        self.stall.next = self.stall_l.val();

        // --- Slot control bits, type-specific effect strobes.
        for i in 0..self.vidx_q.len() {
            self.vidx_q[i].d.next = self.vidx_q[i].q.val();
            if self.l_vtx.val() {
                self.vidx_q[i].d.next = self.vp_indexed[i].val();
            }
            self.vtx_indexed[i].next = self.vidx_q[i].q.val();
            self.vtx_w[i].next = self.a_vtx.val();
            self.vtx_adv[i].next = self.a_vtx.val() & !self.vidx_q[i].q.val();
            for b in 0..self.w5.len() {
                self.vcnt_q[i][b].d.next = self.vcnt_q[i][b].q.val();
                if self.l_vtx.val() {
                    self.vcnt_q[i][b].d.next = self.vp_count[i].val().get_bit(b);
                }
            }
        }
        for i in 0..self.pidx_q.len() {
            self.pidx_q[i].d.next = self.pidx_q[i].q.val();
            if self.l_patch.val() {
                self.pidx_q[i].d.next = self.pp_indexed[i].val();
            }
            self.patch_indexed[i].next = self.pidx_q[i].q.val();
            self.patch_w[i].next = self.a_patch.val();
            self.patch_adv[i].next = self.a_patch.val() & !self.pidx_q[i].q.val();
        }
        for i in 0..self.tri_w.len() {
            self.tri_w[i].next = self.a_tri.val();
        }
        for i in 0..self.tidx_q.len() {
            self.tidx_q[i].d.next = self.tidx_q[i].q.val();
            if self.l_tri.val() {
                self.tidx_q[i].d.next = self.tp_indexed[i].val();
            }
            self.tp_fire[i].next = self.f_tri.val();
        }
        for i in 0..self.xmask_q.len() {
            self.xmask_q[i].d.next = self.xmask_q[i].q.val();
            self.xlast_q[i].d.next = self.xlast_q[i].q.val();
            if self.l_pix.val() {
                self.xmask_q[i].d.next = self.xp_mask[i].val();
                self.xlast_q[i].d.next = self.xp_last[i].val();
            }
            self.xp_fire[i].next = self.f_pix.val();
            self.pix_clr[i].next = self.a_pix.val() & self.xlast_q[i].q.val();
            self.ref_pix[i].next = self.g_pix.val();
            self.ar_pix_mask[i].next = self.zero16[i].val();
            if self.g_pix.val() {
                self.ar_pix_mask[i].next = self.xmask_q[i].q.val();
            }
        }
        // References of the request: live until presented, then held with it.
        for i in 0..self.fresh_ref.len() {
            self.refv_q[i].clock.next = self.clock.val();
            self.fresh_ref[i].next = self.g_tri.val() & self.tri_hit_l[i].val();
        }
        for _i in 0..self.pix_hit.len() {
            self.fresh_ref[0].next = self.fresh_ref[0].val() | (self.g_pix.val() & self.pix_hit_l.val());
        }
        for i in 0..self.ar_ref_valid.len() {
            self.ar_ref_valid[i].next = self.fresh_ref[i].val();
            if self.sticky_q.q.val() {
                self.ar_ref_valid[i].next = self.refv_q[i].q.val();
            }
            self.refv_q[i].d.next = self.ar_ref_valid[i].val();
        }

        // --- Errors (sticky; STATUS bits written 1 clear them unless set at the same edge).
        self.e_vdt.d.next = self.e_vdt.q.val();
        self.e_pt.d.next = self.e_pt.q.val();
        self.e_mal.d.next = self.e_mal.q.val();
        self.e_cred.d.next = self.e_cred.q.val();
        self.e_rel.d.next = self.e_rel.q.val();
        if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_status.val()) {
            if self.cfg_wdata[2].val() {
                self.e_vdt.d.next = false;
            }
            if self.cfg_wdata[3].val() {
                self.e_pt.d.next = false;
            }
            if self.cfg_wdata[4].val() {
                self.e_mal.d.next = false;
            }
            if self.cfg_wdata[5].val() {
                self.e_cred.d.next = false;
            }
            if self.cfg_wdata[6].val() {
                self.e_rel.d.next = false;
            }
        }
        for i in 0..self.tidx_q.len() {
            // An indexed triangle dispatched with an invalid reference.
            if self.a_tri.val() & self.tidx_q[i].q.val()
                & !(self.ar_ref_valid[0].val() & self.ar_ref_valid[1].val() & self.ar_ref_valid[2].val())
            {
                self.e_vdt.d.next = true;
            }
        }
        for _i in 0..self.pix_hit.len() {
            if self.a_pix.val() & !self.ar_ref_valid[0].val() {
                self.e_pt.d.next = true;
            }
        }
        if self.mal_set.val() {
            self.e_mal.d.next = true;
        }
        if self.credit_err[0].val() | self.credit_err[1].val() {
            self.e_cred.d.next = true;
        }
        for i in 0..self.release_err.len() {
            if self.release_err[i].val() {
                self.e_rel.d.next = true;
            }
        }
        if self.reset.val() {
            self.e_vdt.d.next = false;
            self.e_pt.d.next = false;
            self.e_mal.d.next = false;
            self.e_cred.d.next = false;
            self.e_rel.d.next = false;
        }
        self.err_vdt_miss.next = self.e_vdt.q.val();
        self.err_pt_miss.next = self.e_pt.q.val();
        self.err_malformed.next = self.e_mal.q.val();
        self.err_credit.next = self.e_cred.q.val();
        self.err_release.next = self.e_rel.q.val();

        // --- Counters (wrap), EU availability.
        self.stall_cnt.d.next = self.stall_cnt.q.val();
        if self.stall_l.val() {
            self.stall_cnt.d.next = self.stall_cnt.q.val() + self.one32.val();
        }
        self.avail.next = self.zero8.val();
        self.avm.next = self.en_m.val() & self.nz_m.val();
        for e in 0..self.ar_ready.len() {
            self.rej_cnt[e].d.next = self.rej_cnt[e].q.val();
            if (self.rej_p.val() & self.w32[e].val()).any() & !self.sticky_q.q.val() {
                self.rej_cnt[e].d.next = self.rej_cnt[e].q.val() + self.one32.val();
            }
            self.nack_cnt[e].d.next = self.nack_cnt[e].q.val();
            if self.rf_m.val().get_bit(e) {
                self.nack_cnt[e].d.next = self.nack_cnt[e].q.val() + self.one32.val();
            }
            for k in 0..self.occ_q.len() {
                self.alloc_cnt[e][k].d.next = self.alloc_cnt[e][k].q.val();
                if self.ack_m.val().get_bit(e) & self.gnt_l[k].val() {
                    self.alloc_cnt[e][k].d.next = self.alloc_cnt[e][k].q.val() + self.one32.val();
                }
                if self.reset.val() {
                    self.alloc_cnt[e][k].d.next = self.zero32.val();
                }
            }
            if self.reset.val() {
                self.rej_cnt[e].d.next = self.zero32.val();
                self.nack_cnt[e].d.next = self.zero32.val();
            }
            if (self.avm.val() & self.w32[e].val()).any() {
                self.avail.next = self.avail.val() + self.one8.val();
            }
        }
        if self.reset.val() {
            self.stall_cnt.d.next = self.zero32.val();
        }
        for b in 0..self.eu_avail_cnt.len() {
            self.eu_avail_cnt[b].next = (self.avail.val() & self.w8[b].val()).any();
        }

        // --- Register writes: CTRL, EU_ENABLE, DED_MASK.
        self.en_q.d.next = self.en_q.q.val();
        self.loc_q.d.next = self.loc_q.q.val();
        self.yld_q.d.next = self.yld_q.q.val();
        if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_ctrl.val()) {
            self.en_q.d.next = self.cfg_wdata[0].val();
            self.loc_q.d.next = self.cfg_wdata[1].val();
            self.yld_q.d.next = self.cfg_wdata[2].val();
        }
        if self.reset.val() {
            self.en_q.d.next = self.en_r.val();
            self.loc_q.d.next = self.loc_r.val();
            self.yld_q.d.next = self.yld_r.val();
        }
        for e in 0..self.ar_ready.len() {
            self.eu_en_q[e].d.next = self.eu_en_q[e].q.val();
            if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_en.val()) {
                self.eu_en_q[e].d.next = self.cfg_wdata[e].val();
            }
            if self.reset.val() {
                self.eu_en_q[e].d.next = self.eu_en_r[e].val();
            }
            for k in 0..self.occ_q.len() {
                self.ded_q[k][e].d.next = self.ded_q[k][e].q.val();
                if self.cfg_valid.val() & self.cfg_we.val() & (self.cfg_addr.val() == self.a_ded[k].val()) {
                    self.ded_q[k][e].d.next = self.cfg_wdata[e].val();
                }
                if self.reset.val() {
                    self.ded_q[k][e].d.next = self.ded_r[k][e].val();
                }
            }
        }

        // --- Register reads: the value at this cycle, presented next cycle (R11).
        self.val.next = self.zero32.val();
        if self.cfg_addr.val() == self.a_ctrl.val() {
            if self.en_q.q.val() {
                self.val.next = self.val.val() | self.b_en.val();
            }
            if self.loc_q.q.val() {
                self.val.next = self.val.val() | self.b_loc.val();
            }
            if self.yld_q.q.val() {
                self.val.next = self.val.val() | self.b_yld.val();
            }
        }
        if self.cfg_addr.val() == self.a_en.val() {
            self.val.next = self.en_m.val();
        }
        if self.cfg_addr.val() == self.a_status.val() {
            if self.busy_l.val() {
                self.val.next = self.val.val() | self.b_busy.val();
            }
            if self.stall_l.val() {
                self.val.next = self.val.val() | self.b_stall.val();
            }
            if self.e_vdt.q.val() {
                self.val.next = self.val.val() | self.b_err[0].val();
            }
            if self.e_pt.q.val() {
                self.val.next = self.val.val() | self.b_err[1].val();
            }
            if self.e_mal.q.val() {
                self.val.next = self.val.val() | self.b_err[2].val();
            }
            if self.e_cred.q.val() {
                self.val.next = self.val.val() | self.b_err[3].val();
            }
            if self.e_rel.q.val() {
                self.val.next = self.val.val() | self.b_err[4].val();
            }
        }
        if self.cfg_addr.val() == self.a_stall.val() {
            self.val.next = self.stall_cnt.q.val();
        }
        for k in 0..self.occ_q.len() {
            if self.cfg_addr.val() == self.a_ded[k].val() {
                self.val.next = self.ded_m[k].val();
            }
        }
        for e in 0..self.ar_ready.len() {
            if self.cfg_addr.val() == self.a_rej[e].val() {
                self.val.next = self.rej_cnt[e].q.val();
            }
            if self.cfg_addr.val() == self.a_nack[e].val() {
                self.val.next = self.nack_cnt[e].q.val();
            }
            for k in 0..self.occ_q.len() {
                if self.cfg_addr.val() == self.a_alloc[e][k].val() {
                    self.val.next = self.alloc_cnt[e][k].q.val();
                }
            }
        }
        for i in 0..self.rd_ext.len() {
            self.val.next = self.val.val() | self.rd_ext[i].val();
        }
        self.rvalid_q.d.next = self.cfg_valid.val() & !self.cfg_we.val() & !self.reset.val();
        self.rdata_q.d.next = self.zero32.val();
        if self.cfg_valid.val() & !self.cfg_we.val() & !self.reset.val() {
            self.rdata_q.d.next = self.val.val();
        }
        self.cfg_rvalid.next = self.rvalid_q.q.val();
        self.cfg_rdata.next = self.rdata_q.q.val();
    }
}
