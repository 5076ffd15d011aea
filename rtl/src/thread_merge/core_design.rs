//! The thread-merge core: the slots, the candidate, the descriptor and response registers, and the rules of one edge.

use super::*;

/// The thread-merge core: the whole rule set of one edge in one process.
#[derive(LogicBlock)]
pub struct ThreadMergeCore<const L: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Fragments in (R4).
    pub frag_valid: Signal<In, Bit>,
    pub frag_ready: Signal<Out, Bit>,
    pub frag_cov: Signal<In, Bits<L>>,
    pub frag_prim: Vec<Signal<In, Bit>>,
    pub frag_tag: Vec<Signal<In, Bit>>,
    pub frag_last: Signal<In, Bit>,
    pub flush: Signal<In, Bit>,
    // Spawn descriptor out (R7).
    pub grp_valid: Signal<Out, Bit>,
    pub grp_ready: Signal<In, Bit>,
    pub grp_paired: Signal<Out, Bit>,
    pub grp_a_tgid: Vec<Signal<Out, Bit>>,
    pub grp_a_cov: Signal<Out, Bits<L>>,
    pub grp_a_tag: Vec<Signal<Out, Bit>>,
    pub grp_b_tgid: Vec<Signal<Out, Bit>>,
    pub grp_b_cov: Signal<Out, Bits<L>>,
    pub grp_b_perm: Signal<Out, Perm>,
    pub grp_b_tag: Vec<Signal<Out, Bit>>,
    // Merge event in (R10).
    pub me_valid: Signal<In, Bit>,
    pub me_ready: Signal<Out, Bit>,
    pub me_tgid: Signal<In, Id>,
    // Response out (R12).
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_ready: Signal<In, Bit>,
    pub rsp_tgid: Vec<Signal<Out, Bit>>,
    pub rsp_merged: Signal<Out, Bit>,
    pub rsp_active: Signal<Out, Bits<L>>,
    pub rsp_retire: Signal<Out, Bit>,
    pub rsp_retire_tgid: Vec<Signal<Out, Bit>>,
    // Events in, always accepted (R8, R9, R14).
    pub term_valid: Signal<In, Bit>,
    pub term_tgid: Signal<In, Id>,
    pub disc_valid: Signal<In, Bit>,
    pub disc_tgid: Signal<In, Id>,
    pub disc_mask: Signal<In, Bits<L>>,
    pub xl_valid: Signal<In, Bit>,
    pub xl_tgid: Signal<In, Id>,
    // Register-file lookup (R13).
    pub rf_tgid: Signal<In, Id>,
    pub rf_common_wmask: Signal<Out, Bits<L>>,
    pub rf_exec_mask: Signal<Out, Bits<L>>,
    pub rf_perm: Signal<Out, Perm>,
    pub rf_post: Signal<Out, Bit>,
    // Write-back lookup (R13).
    pub wb_tgid: Signal<In, Id>,
    pub wb_active: Signal<Out, Bits<L>>,
    pub wb_lane_src: Signal<Out, Bits<L>>,
    pub wb_tag_self: Vec<Signal<Out, Bit>>,
    pub wb_tag_partner: Vec<Signal<Out, Bit>>,
    /// `wb_perm_self` of the top module (rust-hdl's macros drop every `self.` in a
    /// path, so no field may end in `_self` when it is read).
    pub wb_perm_own: Signal<Out, Perm>,
    pub wb_perm_partner: Signal<Out, Perm>,
    /// Lane i's original lane: bits 1:0 (in-quad index) ...
    pub wb_orig_lo: Vec<Signal<Out, Bits<2>>>,
    /// ... and bits LANE_W-1:2 (its quad, unchanged by a remap).
    pub wb_orig_hi: Vec<Vec<Signal<Out, Bit>>>,
    // Status.
    pub free_cnt: Vec<Signal<Out, Bit>>,
    pub pend_valid: Signal<Out, Bit>,
    pub merge_count: Signal<Out, Bits<32>>,
    pub err_proto: Signal<Out, Bit>,
    pub err_xlane: Signal<Out, Bit>,
    pub st_state_a: Vec<Signal<Out, State>>,
    pub st_state_b: Vec<Signal<Out, State>>,
    pub st_active_a: Vec<Signal<Out, Bits<L>>>,
    pub st_active_b: Vec<Signal<Out, Bits<L>>>,
    pub st_paired: Vec<Signal<Out, Bit>>,
    pub st_broken: Vec<Signal<Out, Bit>>,
    pub st_merged: Vec<Signal<Out, Bit>>,
    pub st_owe_a: Vec<Signal<Out, Bit>>,
    pub st_owe_b: Vec<Signal<Out, Bit>>,

    // ---- Registers (R2). Per slot s, member A (tgid 2s) and B (tgid 2s+1).
    sa_q: Vec<DFF<State>>,
    sb_q: Vec<DFF<State>>,
    acta_q: Vec<DFF<Bits<L>>>,
    actb_q: Vec<DFF<Bits<L>>>,
    owea_q: Vec<DFF<Bit>>,
    oweb_q: Vec<DFF<Bit>>,
    taga_q: Vec<Vec<DFF<Bit>>>,
    tagb_q: Vec<Vec<DFF<Bit>>>,
    paired_q: Vec<DFF<Bit>>,
    broken_q: Vec<DFF<Bit>>,
    merged_q: Vec<DFF<Bit>>,
    perm_q: Vec<DFF<Perm>>,
    /// Wait counter of slot s, bit k.
    wait_q: Vec<Vec<DFF<Bit>>>,
    // The candidate ("pend").
    pv_q: DFF<Bit>,
    pcov_q: DFF<Bits<L>>,
    pprim_q: Vec<DFF<Bit>>,
    ptag_q: Vec<DFF<Bit>>,
    plast_q: DFF<Bit>,
    page_q: Vec<DFF<Bit>>,
    /// age == pair_hold (one flop if pair_hold != 0).
    amax_q: Vec<DFF<Bit>>,
    // The spawn descriptor register.
    gv_q: DFF<Bit>,
    gpaired_q: DFF<Bit>,
    gslot_q: Vec<DFF<Bit>>,
    gacov_q: DFF<Bits<L>>,
    gbcov_q: DFF<Bits<L>>,
    gperm_q: DFF<Perm>,
    gatag_q: Vec<DFF<Bit>>,
    gbtag_q: Vec<DFF<Bit>>,
    // The response register (rsp_retire = rsp_merged).
    rv_q: DFF<Bit>,
    rtgid_q: Vec<DFF<Bit>>,
    rmerged_q: DFF<Bit>,
    /// The mask of the response loaded at an earlier edge (rsp_active held).
    ract_q: DFF<Bits<L>>,
    /// The response register loaded at the last edge; it is a me response (else owed).
    fresh_q: DFF<Bit>,
    rsel_q: DFF<Bit>,
    /// The owed grant of the last load, one-hot per member (A / B of slot s).
    gva_q: Vec<DFF<Bit>>,
    gvb_q: Vec<DFF<Bit>>,
    // Status registers.
    mcount_q: DFF<Bits<32>>,
    mpend_q: DFF<Bit>,
    eproto_q: DFF<Bit>,
    epend_q: DFF<Bit>,
    exl_q: DFF<Bit>,

    // ---- Combinational values of the edge.
    /// Slot s free in S0; the lowest one, taken by an emission.
    free0: Vec<Signal<Local, Bit>>,
    alloc_here: Vec<Signal<Local, Bit>>,
    any_free: Signal<Local, Bit>,
    /// free0[s2] for some s2 < s (prefix OR); free_cnt bitwise and its carries.
    flow: Vec<Signal<Local, Bit>>,
    fc: Vec<Signal<Local, Bit>>,
    fcar: Signal<Local, Bit>,
    fcar_n: Signal<Local, Bit>,
    /// This cycle's events decoded per slot: term, accepted me, disc of A / of B.
    dta: Vec<Signal<Local, Bit>>,
    dtb: Vec<Signal<Local, Bit>>,
    dma: Vec<Signal<Local, Bit>>,
    dmb: Vec<Signal<Local, Bit>>,
    dda: Vec<Signal<Local, Bit>>,
    ddb: Vec<Signal<Local, Bit>>,
    t_any: Signal<Local, Bit>,
    m_any: Signal<Local, Bit>,
    d_any: Signal<Local, Bit>,
    /// The slot's wait counter is at merge_timeout - 1.
    wlast: Vec<Signal<Local, Bit>>,
    /// Per slot: a merge at this edge; a protocol error of the slot's events.
    mnow: Vec<Signal<Local, Bit>>,
    enow: Vec<Signal<Local, Bit>>,
    lanow: Vec<Signal<Local, Bit>>,
    lbnow: Vec<Signal<Local, Bit>>,
    gowa: Vec<Signal<Local, Bit>>,
    gowb: Vec<Signal<Local, Bit>>,
    /// An accepted me of the slot clears A's / B's owe bit.
    clra: Vec<Signal<Local, Bit>>,
    a_live: Vec<Signal<Local, Bit>>,
    b_live: Vec<Signal<Local, Bit>>,
    clrb: Vec<Signal<Local, Bit>>,
    /// Per slot: state decodes, R8 terms and conversions, R10 merges / parks /
    /// answers, the R8-R11 state bits.
    af: Vec<Signal<Local, Bit>>,
    ap: Vec<Signal<Local, Bit>>,
    aw: Vec<Signal<Local, Bit>>,
    ao: Vec<Signal<Local, Bit>>,
    bf: Vec<Signal<Local, Bit>>,
    bp: Vec<Signal<Local, Bit>>,
    bw: Vec<Signal<Local, Bit>>,
    bo: Vec<Signal<Local, Bit>>,
    tae: Vec<Signal<Local, Bit>>,
    tbe: Vec<Signal<Local, Bit>>,
    umg: Vec<Signal<Local, Bit>>,
    cva: Vec<Signal<Local, Bit>>,
    cvb: Vec<Signal<Local, Bit>>,
    okp: Vec<Signal<Local, Bit>>,
    mga: Vec<Signal<Local, Bit>>,
    mgb: Vec<Signal<Local, Bit>>,
    pka: Vec<Signal<Local, Bit>>,
    pkb: Vec<Signal<Local, Bit>>,
    raself: Vec<Signal<Local, Bit>>,
    rbself: Vec<Signal<Local, Bit>>,
    sa_hi: Vec<Signal<Local, Bit>>,
    sa_lo: Vec<Signal<Local, Bit>>,
    sb_hi: Vec<Signal<Local, Bit>>,
    sb_lo: Vec<Signal<Local, Bit>>,
    me_acc: Signal<Local, Bit>,
    /// An emission (E0-E3 / R7) takes slot s; a pair's B too.
    fterm: Signal<Local, Bit>,
    emit_s: Vec<Signal<Local, Bit>>,
    bem_s: Vec<Signal<Local, Bit>>,
    /// Effective owe bits (the grant of the last edge applied).
    oea: Vec<Signal<Local, Bit>>,
    oeb: Vec<Signal<Local, Bit>>,
    /// The response's group: me id (merge: A), owed id, one-hot masks, its mask now.
    rcme: Signal<Local, Id>,
    rcow: Signal<Local, Id>,
    tga: Vec<Signal<Local, Bits<L>>>,
    tgb: Vec<Signal<Local, Bits<L>>>,
    ract_now: Signal<Local, Bits<L>>,
    /// An accepted partial fragment.
    fv_part: Signal<Local, Bit>,
    /// The same without an accepted me (rsp_free = 0), and that case's select.
    /// Owed resumes: some lower slot owes; A / B of slot s is the lowest owed.
    lowa: Vec<Signal<Local, Bit>>,
    gra: Vec<Signal<Local, Bit>>,
    grb: Vec<Signal<Local, Bit>>,
    /// Masks after this edge's disc: raw (disc decoded only) and effective (A).
    /// Select masks (all ones / zero) of the one-hot AND-OR muxes.
    o_any: Signal<Local, Bit>,
    age_inc: Signal<Local, Bit>,
    age_max: Signal<Local, Bit>,
    a_px: Signal<Local, Bit>,
    paired_x: Signal<Local, Bit>,
    en_p: Signal<Local, Bit>,
    acar: Signal<Local, Bit>,
    wcar: Signal<Local, Bit>,
    /// Working copies of the slot state, the result of R8-R11.
    sa: Vec<Signal<Local, State>>,
    sb: Vec<Signal<Local, State>>,
    acta: Vec<Signal<Local, Bits<L>>>,
    actb: Vec<Signal<Local, Bits<L>>>,
    owea: Vec<Signal<Local, Bit>>,
    oweb: Vec<Signal<Local, Bit>>,
    brk: Vec<Signal<Local, Bit>>,
    mrg: Vec<Signal<Local, Bit>>,
    wcnt: Vec<Signal<Local, Id>>,
    perr: Signal<Local, Bit>,
    xl_hit: Signal<Local, Bit>,
    merge_ev: Signal<Local, Bit>,
    mcount: Signal<Local, Bits<32>>,
    // Merge-event response and owed resumes (R10, R12).
    rsp_free: Signal<Local, Bit>,
    me_rsp: Signal<Local, Bit>,
    me_mrg: Signal<Local, Bit>,
    rcur: Signal<Local, Id>,
    rnext_id: Signal<Local, Id>,
    // Fragment path (R4, R5).
    out_ok: Signal<Local, Bit>,
    pmis: Signal<Local, Bit>,
    age: Signal<Local, Id>,
    flush_now: Signal<Local, Bit>,
    f_acc: Signal<Local, Bit>,
    x1: Signal<Local, Bits<L>>,
    x2: Signal<Local, Bits<L>>,
    x3: Signal<Local, Bits<L>>,
    can_pair: Signal<Local, Bit>,
    pperm: Signal<Local, Perm>,
    pbcov: Signal<Local, Bits<L>>,
    emit: Signal<Local, Bit>,
    e_acov: Signal<Local, Bits<L>>,
    atag: Vec<Signal<Local, Bit>>,
    // Write-back lookup selections.
    wb_valid: Signal<Local, Bit>,
    /// rf lookup select masks per slot (A / B), their exec values, B's perm select.
    rfa: Vec<Signal<Local, Bits<L>>>,
    rfb: Vec<Signal<Local, Bits<L>>>,
    rfxa: Vec<Signal<Local, Bits<L>>>,
    rfxb: Vec<Signal<Local, Bits<L>>>,
    rfpb: Vec<Signal<Local, Perm>>,
    /// wb: the remap of lane i's fragment (0 unless a group is selected).
    wxp: Vec<Signal<Local, Perm>>,
    wpa2: Vec<Signal<Local, Perm>>,
    wsb2: Vec<Signal<Local, Perm>>,
    winq: Vec<Signal<Local, Perm>>,
    wsa: Vec<Signal<Local, Bit>>,
    wsb: Vec<Signal<Local, Bit>>,
    wpa: Vec<Signal<Local, Bit>>,

    // ---- Constants.
    ida: Vec<Constant<Id>>,
    idb: Vec<Constant<Id>>,
    /// The 9 cases c: term of A / B, me of A / B / none.
    /// lt[s][s2] = s2 < s.
    lt: Vec<Vec<Constant<Bit>>>,
    /// Bit k of slot number s.
    sbit: Vec<Vec<Constant<Bit>>>,
    w_wait: Vec<Constant<Id>>,
    w_age: Vec<Constant<Id>>,
    w_tgid: Vec<Constant<Id>>,
    zero8: Constant<Id>,
    one8: Constant<Id>,
    zero32: Constant<Bits<32>>,
    one32: Constant<Bits<32>>,
    s_free: Constant<State>,
    s_pre: Constant<State>,
    s_wait: Constant<State>,
    s_post: Constant<State>,
    p0: Constant<Perm>,
    p1: Constant<Perm>,
    p2: Constant<Perm>,
    p3: Constant<Perm>,
    lzero: Constant<Bits<L>>,
    lones: Constant<Bits<L>>,
    /// Lanes with in-quad x = 0 / x = 1 / y = 0 / y = 1, and the shifts between them.
    m_x0: Constant<Bits<L>>,
    m_x1: Constant<Bits<L>>,
    m_y0: Constant<Bits<L>>,
    m_y1: Constant<Bits<L>>,
    sh1: Constant<Bits<L>>,
    sh2: Constant<Bits<L>>,
    remap_on: Constant<Bit>,
    hold_max: Constant<Id>,
    hold_m1: Constant<Id>,
    to_on: Constant<Bit>,
    to_last: Constant<Id>,
    /// Lane i's in-quad index i & 3, and bit k of its quad i >> 2.
    inq: Vec<Constant<Bits<2>>>,
    qbit: Vec<Vec<Constant<Bit>>>,
}

impl<const L: usize> ThreadMergeCore<L> {
    /// The core for a validated config whose `lanes` is `L`.
    pub fn new(cfg: &ThreadMergeConfig) -> Self {
        assert_eq!(cfg.lanes as usize, L, "dispatch with with_lanes!");
        let s = cfg.slots as usize;
        let tag = cfg.tag_width as usize;
        let prim = cfg.prim_width as usize;
        let tgw = cfg.tgid_bits();
        let slot_bits = tgw - 1;
        let hi_bits = cfg.lane_bits() - 2;
        let hold = cfg.pair_hold as u64;
        let timeout = cfg.merge_timeout as u64;
        let wait_bits = if timeout == 0 { 0 } else { crate::config::bits_for(timeout - 1) };
        let age_bits = crate::config::bits_for(hold);
        let all = if L == 64 { u64::MAX } else { (1u64 << L) - 1 };
        ThreadMergeCore {
            clock: Signal::default(),
            reset: Signal::default(),
            frag_valid: Signal::default(),
            frag_ready: Signal::default(),
            frag_cov: Signal::default(),
            frag_prim: signals(prim),
            frag_tag: signals(tag),
            frag_last: Signal::default(),
            flush: Signal::default(),
            grp_valid: Signal::default(),
            grp_ready: Signal::default(),
            grp_paired: Signal::default(),
            grp_a_tgid: signals(tgw),
            grp_a_cov: Signal::default(),
            grp_a_tag: signals(tag),
            grp_b_tgid: signals(tgw),
            grp_b_cov: Signal::default(),
            grp_b_perm: Signal::default(),
            grp_b_tag: signals(tag),
            me_valid: Signal::default(),
            me_ready: Signal::default(),
            me_tgid: Signal::default(),
            rsp_valid: Signal::default(),
            rsp_ready: Signal::default(),
            rsp_tgid: signals(tgw),
            rsp_merged: Signal::default(),
            rsp_active: Signal::default(),
            rsp_retire: Signal::default(),
            rsp_retire_tgid: signals(tgw),
            term_valid: Signal::default(),
            term_tgid: Signal::default(),
            disc_valid: Signal::default(),
            disc_tgid: Signal::default(),
            disc_mask: Signal::default(),
            xl_valid: Signal::default(),
            xl_tgid: Signal::default(),
            rf_tgid: Signal::default(),
            rf_common_wmask: Signal::default(),
            rf_exec_mask: Signal::default(),
            rf_perm: Signal::default(),
            rf_post: Signal::default(),
            wb_tgid: Signal::default(),
            wb_active: Signal::default(),
            wb_lane_src: Signal::default(),
            wb_tag_self: signals(tag),
            wb_tag_partner: signals(tag),
            wb_perm_own: Signal::default(),
            wb_perm_partner: Signal::default(),
            wb_orig_lo: signals(L),
            wb_orig_hi: (0..L).map(|_| signals(hi_bits)).collect(),
            free_cnt: signals(cfg.cnt_bits()),
            pend_valid: Signal::default(),
            merge_count: Signal::default(),
            err_proto: Signal::default(),
            err_xlane: Signal::default(),
            st_state_a: signals(s),
            st_state_b: signals(s),
            st_active_a: signals(s),
            st_active_b: signals(s),
            st_paired: signals(s),
            st_broken: signals(s),
            st_merged: signals(s),
            st_owe_a: signals(s),
            st_owe_b: signals(s),

            sa_q: dffs(s),
            sb_q: dffs(s),
            acta_q: dffs(s),
            actb_q: dffs(s),
            owea_q: dffs(s),
            oweb_q: dffs(s),
            taga_q: grid(s, tag),
            tagb_q: grid(s, tag),
            paired_q: dffs(s),
            broken_q: dffs(s),
            merged_q: dffs(s),
            perm_q: dffs(s),
            wait_q: grid(s, wait_bits),
            pv_q: DFF::default(),
            pcov_q: DFF::default(),
            pprim_q: dffs(prim),
            ptag_q: dffs(tag),
            plast_q: DFF::default(),
            page_q: dffs(age_bits),
            amax_q: dffs(usize::from(hold != 0)),
            gv_q: DFF::default(),
            gpaired_q: DFF::default(),
            gslot_q: dffs(slot_bits),
            gacov_q: DFF::default(),
            gbcov_q: DFF::default(),
            gperm_q: DFF::default(),
            gatag_q: dffs(tag),
            gbtag_q: dffs(tag),
            rv_q: DFF::default(),
            rtgid_q: dffs(tgw),
            rmerged_q: DFF::default(),
            ract_q: DFF::default(),
            fresh_q: DFF::default(),
            rsel_q: DFF::default(),
            gva_q: dffs(s),
            gvb_q: dffs(s),
            mcount_q: DFF::default(),
            mpend_q: DFF::default(),
            eproto_q: DFF::default(),
            epend_q: DFF::default(),
            exl_q: DFF::default(),

            free0: signals(s),
            alloc_here: signals(s),
            any_free: Signal::default(),
            flow: signals(s),
            fc: signals(cfg.cnt_bits()),
            fcar: Signal::default(),
            fcar_n: Signal::default(),
            dta: signals(s),
            dtb: signals(s),
            dma: signals(s),
            dmb: signals(s),
            dda: signals(s),
            ddb: signals(s),
            t_any: Signal::default(),
            m_any: Signal::default(),
            d_any: Signal::default(),
            wlast: signals(s),
            mnow: signals(s),
            enow: signals(s),
            lanow: signals(s),
            lbnow: signals(s),
            gowa: signals(s),
            gowb: signals(s),
            clra: signals(s),
            a_live: signals(s),
            b_live: signals(s),
            clrb: signals(s),
            af: signals(s),
            ap: signals(s),
            aw: signals(s),
            ao: signals(s),
            bf: signals(s),
            bp: signals(s),
            bw: signals(s),
            bo: signals(s),
            tae: signals(s),
            tbe: signals(s),
            umg: signals(s),
            cva: signals(s),
            cvb: signals(s),
            okp: signals(s),
            mga: signals(s),
            mgb: signals(s),
            pka: signals(s),
            pkb: signals(s),
            raself: signals(s),
            rbself: signals(s),
            sa_hi: signals(s),
            sa_lo: signals(s),
            sb_hi: signals(s),
            sb_lo: signals(s),
            me_acc: Signal::default(),
            fterm: Signal::default(),
            emit_s: signals(s),
            bem_s: signals(s),
            oea: signals(s),
            oeb: signals(s),
            rcme: Signal::default(),
            rcow: Signal::default(),
            tga: signals(s),
            tgb: signals(s),
            ract_now: Signal::default(),
            fv_part: Signal::default(),
            lowa: signals(s),
            gra: signals(s),
            grb: signals(s),
            o_any: Signal::default(),
            age_inc: Signal::default(),
            age_max: Signal::default(),
            a_px: Signal::default(),
            paired_x: Signal::default(),
            en_p: Signal::default(),
            acar: Signal::default(),
            wcar: Signal::default(),
            sa: signals(s),
            sb: signals(s),
            acta: signals(s),
            actb: signals(s),
            owea: signals(s),
            oweb: signals(s),
            brk: signals(s),
            mrg: signals(s),
            wcnt: signals(s),
            perr: Signal::default(),
            xl_hit: Signal::default(),
            merge_ev: Signal::default(),
            mcount: Signal::default(),
            rsp_free: Signal::default(),
            me_rsp: Signal::default(),
            me_mrg: Signal::default(),
            rcur: Signal::default(),
            rnext_id: Signal::default(),
            out_ok: Signal::default(),
            pmis: Signal::default(),
            age: Signal::default(),
            flush_now: Signal::default(),
            f_acc: Signal::default(),
            x1: Signal::default(),
            x2: Signal::default(),
            x3: Signal::default(),
            can_pair: Signal::default(),
            pperm: Signal::default(),
            pbcov: Signal::default(),
            emit: Signal::default(),
            e_acov: Signal::default(),
            atag: signals(tag),
            wb_valid: Signal::default(),
            rfa: signals(s),
            rfb: signals(s),
            rfxa: signals(s),
            rfxb: signals(s),
            rfpb: signals(s),
            wxp: signals(L),
            wpa2: signals(s),
            wsb2: signals(s),
            winq: signals(L),
            wsa: signals(s),
            wsb: signals(s),
            wpa: signals(s),

            ida: (0..s).map(|i| id(2 * i)).collect(),
            idb: (0..s).map(|i| id(2 * i + 1)).collect(),
            lt: (0..s).map(|i| (0..s).map(|j| Constant::new(j < i)).collect()).collect(),
            sbit: (0..s).map(|i| (0..slot_bits).map(|k| Constant::new((i >> k) & 1 == 1)).collect()).collect(),
            w_wait: weights(wait_bits),
            w_age: weights(age_bits),
            w_tgid: weights(tgw),
            zero8: id(0),
            one8: id(1),
            zero32: constant(0),
            one32: constant(1),
            s_free: constant(0),
            s_pre: constant(1),
            s_wait: constant(2),
            s_post: constant(3),
            p0: constant(0),
            p1: constant(1),
            p2: constant(2),
            p3: constant(3),
            lzero: constant(0),
            lones: constant(all),
            m_x0: per_quad(0b0101),
            m_x1: per_quad(0b1010),
            m_y0: per_quad(0b0011),
            m_y1: per_quad(0b1100),
            sh1: constant(1),
            sh2: constant(2),
            remap_on: Constant::new(cfg.remap),
            hold_max: id(hold as usize),
            hold_m1: id(hold.saturating_sub(1) as usize),
            to_on: Constant::new(timeout != 0),
            to_last: id(timeout.saturating_sub(1) as usize),
            inq: (0..L).map(|i| constant((i & 3) as u64)).collect(),
            qbit: (0..L).map(|i| (0..hi_bits).map(|k| Constant::new(((i >> 2) >> k) & 1 == 1)).collect()).collect(),
        }
    }
}

impl<const L: usize> Logic for ThreadMergeCore<L> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Registers hold by default; the registered state S0.
        dff_setup!(self, clock, pv_q, pcov_q, plast_q, gv_q, gpaired_q, gacov_q, gbcov_q, gperm_q, rv_q, rmerged_q, ract_q, fresh_q, rsel_q, mcount_q, mpend_q, eproto_q, epend_q, exl_q);
        self.any_free.next = false;
        for s in 0..self.sa_q.len() {
            self.sa_q[s].clock.next = self.clock.val();
            self.sb_q[s].clock.next = self.clock.val();
            self.acta_q[s].clock.next = self.clock.val();
            self.actb_q[s].clock.next = self.clock.val();
            self.owea_q[s].clock.next = self.clock.val();
            self.oweb_q[s].clock.next = self.clock.val();
            self.paired_q[s].clock.next = self.clock.val();
            self.broken_q[s].clock.next = self.clock.val();
            self.merged_q[s].clock.next = self.clock.val();
            self.perm_q[s].clock.next = self.clock.val();
            self.paired_q[s].d.next = self.paired_q[s].q.val();
            self.perm_q[s].d.next = self.perm_q[s].q.val();
            // A slot is free when both members are FREE (D2).
            self.free0[s].next =
                (self.sa_q[s].q.val() == self.s_free.val()) & (self.sb_q[s].q.val() == self.s_free.val());
            self.any_free.next = self.any_free.val() | self.free0[s].val();
            // Effective owe bits: a group granted an owed resume at the last edge
            // (fresh, not a me response) has its bit cleared (R12).
            self.oea[s].next = self.owea_q[s].q.val()
                & !(self.gva_q[s].q.val() & self.fresh_q.q.val() & !self.rsel_q.q.val());
            self.oeb[s].next = self.oweb_q[s].q.val()
                & !(self.gvb_q[s].q.val() & self.fresh_q.q.val() & !self.rsel_q.q.val());
            // The wait counter, packed.
            self.wcnt[s].next = self.zero8.val();
            for k in 0..self.w_wait.len() {
                self.wait_q[s][k].clock.next = self.clock.val();
                if self.wait_q[s][k].q.val() {
                    self.wcnt[s].next = self.wcnt[s].val() | self.w_wait[k].val();
                }
            }
            for b in 0..self.atag.len() {
                self.taga_q[s][b].clock.next = self.clock.val();
                self.tagb_q[s][b].clock.next = self.clock.val();
                self.taga_q[s][b].d.next = self.taga_q[s][b].q.val();
                self.tagb_q[s][b].d.next = self.tagb_q[s][b].q.val();
            }
        }
        // An emission takes the lowest slot free in S0 (R7): a prefix OR, not a
        // chain over the slots. free_cnt: the free slots counted bitwise (no carry chain).
        for k in 0..self.fc.len() {
            self.fc[k].next = false;
        }
        for s in 0..self.sa_q.len() {
            self.flow[s].next = false;
            for s2 in 0..self.sa_q.len() {
                self.flow[s].next = self.flow[s].val() | (self.lt[s][s2].val() & self.free0[s2].val());
            }
            self.alloc_here[s].next = self.free0[s].val() & !self.flow[s].val();
            self.fcar.next = self.free0[s].val();
            for k in 0..self.fc.len() {
                self.fcar_n.next = self.fcar.val() & self.fc[k].val();
                self.fc[k].next = self.fc[k].val() ^ self.fcar.val();
                self.fcar.next = self.fcar_n.val();
            }
        }

        // ---- Events: term (R8), disc (R9), me (R10), timeouts (R11).
        // Per slot, R8-R11 in order are written out as flat formulas of the slot's
        // registers and this cycle's decoded events (at most one term, one me and one
        // disc per cycle): no case tables, no select chains. An accepted me is decoded
        // with rsp_free folded in.
        self.rsp_free.next = !self.rv_q.q.val() | self.rsp_ready.val();
        self.me_ready.next = self.rsp_free.val();
        self.me_acc.next = self.me_valid.val() & self.rsp_free.val();
        self.t_any.next = false;
        self.m_any.next = false;
        self.d_any.next = false;
        for s in 0..self.sa_q.len() {
            self.dta[s].next = self.term_valid.val() & (self.term_tgid.val() == self.ida[s].val());
            self.dtb[s].next = self.term_valid.val() & (self.term_tgid.val() == self.idb[s].val());
            self.dma[s].next = self.me_acc.val() & (self.me_tgid.val() == self.ida[s].val());
            self.dmb[s].next = self.me_acc.val() & (self.me_tgid.val() == self.idb[s].val());
            self.dda[s].next = self.disc_valid.val() & (self.disc_tgid.val() == self.ida[s].val());
            self.ddb[s].next = self.disc_valid.val() & (self.disc_tgid.val() == self.idb[s].val());
            self.t_any.next = self.t_any.val() | self.dta[s].val() | self.dtb[s].val();
            self.m_any.next = self.m_any.val() | self.dma[s].val() | self.dmb[s].val();
            self.d_any.next = self.d_any.val() | self.dda[s].val() | self.ddb[s].val();
            self.wlast[s].next = self.to_on.val() & (self.wcnt[s].val() == self.to_last.val());
            self.af[s].next = self.sa_q[s].q.val() == self.s_free.val();
            self.ap[s].next = self.sa_q[s].q.val() == self.s_pre.val();
            self.aw[s].next = self.sa_q[s].q.val() == self.s_wait.val();
            self.ao[s].next = self.sa_q[s].q.val() == self.s_post.val();
            self.bf[s].next = self.sb_q[s].q.val() == self.s_free.val();
            self.bp[s].next = self.sb_q[s].q.val() == self.s_pre.val();
            self.bw[s].next = self.sb_q[s].q.val() == self.s_wait.val();
            self.bo[s].next = self.sb_q[s].q.val() == self.s_post.val();
            self.a_live[s].next = self.ap[s].val() | self.ao[s].val();
            self.b_live[s].next = self.bp[s].val() | self.bo[s].val();
            // R8: a live member's term frees it; a member's term of an unmerged pair
            // breaks it and turns a waiting partner POST (owed).
            self.tae[s].next = self.dta[s].val() & self.a_live[s].val();
            self.tbe[s].next = self.dtb[s].val() & self.b_live[s].val();
            self.umg[s].next = self.paired_q[s].q.val() & !self.merged_q[s].q.val();
            self.cva[s].next = self.tbe[s].val() & self.umg[s].val() & self.aw[s].val();
            self.cvb[s].next = self.tae[s].val() & self.umg[s].val() & self.bw[s].val();
            // R10: an accepted me of a PRE member of an unbroken pair merges (partner
            // WAIT) or parks (partner not WAIT and not terminated now); else it runs
            // alone (POST). A me of a POST member (also one made POST by R8) is a NOP.
            self.okp[s].next = self.paired_q[s].q.val() & !self.broken_q[s].q.val();
            self.mga[s].next = self.dma[s].val() & !self.dta[s].val() & self.ap[s].val() & self.okp[s].val() & self.bw[s].val();
            self.mgb[s].next = self.dmb[s].val() & !self.dtb[s].val() & self.bp[s].val() & self.okp[s].val() & self.aw[s].val();
            self.pka[s].next = self.dma[s].val()
                & !self.dta[s].val()
                & self.ap[s].val()
                & self.okp[s].val()
                & !self.bw[s].val()
                & !self.tbe[s].val();
            self.pkb[s].next = self.dmb[s].val()
                & !self.dtb[s].val()
                & self.bp[s].val()
                & self.okp[s].val()
                & !self.aw[s].val()
                & !self.tae[s].val();
            // The member answered by its own me (merge included).
            self.raself[s].next = self.dma[s].val()
                & !self.dta[s].val()
                & (self.ao[s].val() | self.cva[s].val() | (self.ap[s].val() & !self.pka[s].val()));
            self.rbself[s].next = self.dmb[s].val()
                & !self.dtb[s].val()
                & (self.bo[s].val() | self.cvb[s].val() | (self.bp[s].val() & !self.pkb[s].val()));
            self.clra[s].next = self.dma[s].val() & !self.dta[s].val() & (self.a_live[s].val() | self.cva[s].val());
            self.clrb[s].next = self.dmb[s].val() & !self.dtb[s].val() & (self.b_live[s].val() | self.cvb[s].val());
            self.mnow[s].next = self.mga[s].val() | self.mgb[s].val();
            self.enow[s].next = (self.dta[s].val() & !self.a_live[s].val())
                | (self.dtb[s].val() & !self.b_live[s].val())
                | (self.dma[s].val() & (self.dta[s].val() | self.af[s].val() | (self.aw[s].val() & !self.cva[s].val())))
                | (self.dmb[s].val() & (self.dtb[s].val() | self.bf[s].val() | (self.bw[s].val() & !self.cvb[s].val())));
            // R8-R11 state (FREE 00, PRE 01, WAIT 10, POST 11), bit by bit. R11: a
            // member WAIT in S0 and still WAIT at its last wait cycle times out (POST).
            self.sa_hi[s].next = !self.tae[s].val()
                & (self.ao[s].val() | self.aw[s].val() | (self.ap[s].val() & self.dma[s].val()));
            self.sa_lo[s].next = !self.tae[s].val()
                & (self.ao[s].val()
                    | (self.ap[s].val() & !self.pka[s].val())
                    | (self.aw[s].val() & (self.cva[s].val() | self.mgb[s].val() | self.wlast[s].val())));
            self.sb_hi[s].next = !self.tbe[s].val()
                & (self.bo[s].val()
                    | (self.bw[s].val() & !self.mga[s].val())
                    | (self.bp[s].val() & self.dmb[s].val() & !self.mgb[s].val()));
            self.sb_lo[s].next = !self.tbe[s].val()
                & (self.bo[s].val()
                    | (self.bw[s].val() & !self.mga[s].val() & (self.cvb[s].val() | self.wlast[s].val()))
                    | (self.bp[s].val() & !self.pkb[s].val() & !self.mgb[s].val()));
            self.sa[s].next = self.s_free.val();
            if self.sa_hi[s].val() {
                self.sa[s].next = self.s_wait.val();
            }
            if self.sa_lo[s].val() {
                self.sa[s].next = self.sa[s].val() | self.s_pre.val();
            }
            self.sb[s].next = self.s_free.val();
            if self.sb_hi[s].val() {
                self.sb[s].next = self.s_wait.val();
            }
            if self.sb_lo[s].val() {
                self.sb[s].next = self.sb[s].val() | self.s_pre.val();
            }
            self.brk[s].next = self.broken_q[s].q.val()
                | (self.tae[s].val() & self.umg[s].val() & !self.bf[s].val())
                | (self.tbe[s].val() & self.umg[s].val() & !self.af[s].val())
                | (self.aw[s].val() & self.wlast[s].val() & !self.mgb[s].val())
                | (self.bw[s].val() & self.wlast[s].val() & !self.mga[s].val());
            self.mrg[s].next = self.merged_q[s].q.val() | self.mga[s].val() | self.mgb[s].val();
            // Owe bits after R8-R11 without the me (R12's owed resumes): a term frees
            // (clears), a conversion or a timeout owes.
            // (An owed member is POST: its own term, then live, clears it.)
            self.gowa[s].next = (self.oea[s].val() & !self.dta[s].val())
                | (self.aw[s].val() & self.wlast[s].val())
                | self.cva[s].val();
            self.gowb[s].next = (self.oeb[s].val() & !self.dtb[s].val())
                | (self.bw[s].val() & self.wlast[s].val())
                | self.cvb[s].val();
            // Live after R8 (R9's disc applies).
            self.lanow[s].next = (self.a_live[s].val() & !self.dta[s].val()) | self.cva[s].val();
            self.lbnow[s].next = (self.b_live[s].val() & !self.dtb[s].val()) | self.cvb[s].val();
            // R9 disc: masks after this edge's disc (member live after R8).
            self.acta[s].next = self.acta_q[s].q.val();
            self.actb[s].next = self.actb_q[s].q.val();
            if self.dda[s].val() {
                if self.lanow[s].val() {
                    self.acta[s].next = self.acta_q[s].q.val() & !self.disc_mask.val();
                }
            }
            if self.ddb[s].val() {
                if self.lbnow[s].val() {
                    self.actb[s].next = self.actb_q[s].q.val() & !self.disc_mask.val();
                }
            }
            // A merge: A gets the OR (B's mask stays frozen in the slot, D3).
            if self.mnow[s].val() {
                self.acta[s].next = self.acta[s].val() | self.actb[s].val();
            }
        }
        // ---- R14: a cross-lane operation of a group past the merge point (S0).
        self.xl_hit.next = false;
        for s in 0..self.sa_q.len() {
            if self.xl_valid.val() & (self.xl_tgid.val() == self.ida[s].val()) & (self.sa_q[s].q.val() == self.s_post.val()) {
                self.xl_hit.next = true;
            }
            if self.xl_valid.val() & (self.xl_tgid.val() == self.idb[s].val()) & (self.sb_q[s].q.val() == self.s_post.val()) {
                self.xl_hit.next = true;
            }
        }

        // ---- Protocol errors of the events (ids naming nothing, illegal states).
        self.perr.next = (self.term_valid.val() & !self.t_any.val())
            | (self.disc_valid.val() & !self.d_any.val())
            | (self.me_valid.val() & !self.m_any.val() & self.rsp_free.val());
        for s in 0..self.sa_q.len() {
            self.perr.next = self.perr.val()
                | self.enow[s].val()
                | (self.dda[s].val() & !self.lanow[s].val())
                | (self.ddb[s].val() & !self.lbnow[s].val());
        }

        // ---- R12: the response register. A merge-event response first (at most one
        // slot answers; a merge answers for A = me_tgid with bit 0 cleared), else the
        // owed resume of the lowest tgid, owed after R8-R11, whose bit clears. Without
        // a me response the owe bits do not depend on the me (gowa/gowb).
        self.me_rsp.next = false;
        self.me_mrg.next = false;
        for s in 0..self.sa_q.len() {
            self.me_rsp.next = self.me_rsp.val() | self.raself[s].val() | self.rbself[s].val();
            self.me_mrg.next = self.me_mrg.val() | self.mnow[s].val();
        }
        self.merge_ev.next = self.me_mrg.val();
        // Lowest owed tgid: a prefix OR over the slots (balanced by synthesis).
        self.o_any.next = false;
        for s in 0..self.sa_q.len() {
            self.lowa[s].next = false;
            for s2 in 0..self.sa_q.len() {
                self.lowa[s].next = self.lowa[s].val() | (self.lt[s][s2].val() & (self.gowa[s2].val() | self.gowb[s2].val()));
            }
            self.gra[s].next = self.gowa[s].val() & !self.lowa[s].val();
            self.grb[s].next = self.gowb[s].val() & !self.lowa[s].val() & !self.gowa[s].val();
            self.o_any.next = self.o_any.val() | self.gowa[s].val() | self.gowb[s].val();
        }
        // The response register holds what is needed to name the response (the me's
        // id and merge flag, or the owed group one-hot, and which of the two); the
        // owe bit of a granted group is cleared through the grant registers (st_owe
        // and the next edge read owe & !granted), so neither the grant nor the mask
        // selection sits in front of a flop. rsp_active is the target's active
        // register in the cycle after the load (it holds the mask after R8-R10) and a
        // copy of it afterwards (rhold).
        for s in 0..self.sa_q.len() {
            self.owea[s].next = self.gowa[s].val() & !self.clra[s].val() & !self.mgb[s].val();
            self.oweb[s].next = self.gowb[s].val() & !self.clrb[s].val() & !self.mga[s].val();
            self.gva_q[s].clock.next = self.clock.val();
            self.gvb_q[s].clock.next = self.clock.val();
            self.gva_q[s].d.next = self.gva_q[s].q.val();
            self.gvb_q[s].d.next = self.gvb_q[s].q.val();
            if self.rsp_free.val() {
                self.gva_q[s].d.next = self.gra[s].val();
                self.gvb_q[s].d.next = self.grb[s].val();
            }
        }
        for k in 0..self.w_tgid.len() {
            self.rtgid_q[k].clock.next = self.clock.val();
            self.rtgid_q[k].d.next = self.rtgid_q[k].q.val();
            if self.rsp_free.val() {
                self.rtgid_q[k].d.next = (self.me_tgid.val() & self.w_tgid[k].val()).any();
            }
        }
        self.fresh_q.d.next = self.rsp_free.val() & !self.reset.val();
        if self.rsp_free.val() {
            self.rv_q.d.next = self.me_rsp.val() | self.o_any.val();
            self.rsel_q.d.next = self.me_rsp.val();
            self.rmerged_q.d.next = self.me_mrg.val();
        }
        // ---- R4: the candidate and the fragment input.
        self.out_ok.next = !self.gv_q.q.val() | self.grp_ready.val();
        self.pmis.next = false;
        for b in 0..self.pprim_q.len() {
            self.pprim_q[b].clock.next = self.clock.val();
            self.pprim_q[b].d.next = self.pprim_q[b].q.val();
            if self.pprim_q[b].q.val() ^ self.frag_prim[b].val() {
                self.pmis.next = true;
            }
        }
        self.age.next = self.zero8.val();
        for k in 0..self.w_age.len() {
            self.page_q[k].clock.next = self.clock.val();
            if self.page_q[k].q.val() {
                self.age.next = self.age.val() | self.w_age[k].val();
            }
        }
        // age == pair_hold is a register of its own (amax_q), kept with the age.
        self.age_max.next = false;
        for k in 0..self.amax_q.len() {
            self.amax_q[k].clock.next = self.clock.val();
            self.age_max.next = self.amax_q[k].q.val();
        }
        self.flush_now.next = self.pv_q.q.val()
            & (self.plast_q.q.val() | self.flush.val() | self.age_max.val() | (self.frag_valid.val() & self.pmis.val()));
        self.frag_ready.next = self.out_ok.val() & self.any_free.val() & !self.flush_now.val();
        self.f_acc.next = self.frag_valid.val() & self.frag_ready.val();

        // R5: xperm(F.cov, p) for p = 1 (swap x), 2 (swap y), 3 (both), and the
        // first p in 0, 1, 2, 3 that makes the fragment disjoint from the candidate.
        self.x1.next = ((self.frag_cov.val() & self.m_x0.val()) << self.sh1.val())
            | ((self.frag_cov.val() & self.m_x1.val()) >> self.sh1.val());
        self.x2.next = ((self.frag_cov.val() & self.m_y0.val()) << self.sh2.val())
            | ((self.frag_cov.val() & self.m_y1.val()) >> self.sh2.val());
        self.x3.next = ((self.x1.val() & self.m_y0.val()) << self.sh2.val())
            | ((self.x1.val() & self.m_y1.val()) >> self.sh2.val());
        self.can_pair.next = true;
        self.pperm.next = self.p0.val();
        self.pbcov.next = self.frag_cov.val();
        if (self.pcov_q.q.val() & self.frag_cov.val()).any() {
            if self.remap_on.val() & !(self.pcov_q.q.val() & self.x1.val()).any() {
                self.pperm.next = self.p1.val();
                self.pbcov.next = self.x1.val();
            } else if self.remap_on.val() & !(self.pcov_q.q.val() & self.x2.val()).any() {
                self.pperm.next = self.p2.val();
                self.pbcov.next = self.x2.val();
            } else if self.remap_on.val() & !(self.pcov_q.q.val() & self.x3.val()).any() {
                self.pperm.next = self.p3.val();
                self.pbcov.next = self.x3.val();
            } else {
                self.can_pair.next = false;
            }
        }

        // E0-E3 as flat formulas: E0 (flush_now) emits the candidate alone and takes
        // nothing; else an accepted F: empty -> error (D7); full -> E1 emits F; partial
        // without candidate -> E2 emits F if last, else holds it; partial with
        // candidate -> E3 emits the pair (p exists) or the candidate alone, holding F.
        self.fv_part.next = self.frag_valid.val() & self.frag_cov.val().any() & !self.frag_cov.val().all();
        self.fterm.next = self.frag_valid.val()
            & self.frag_cov.val().any()
            & (self.frag_cov.val().all() | self.pv_q.q.val() | self.frag_last.val());
        self.emit.next = self.out_ok.val() & self.any_free.val() & (self.flush_now.val() | self.fterm.val());
        if self.f_acc.val() & !self.frag_cov.val().any() {
            self.perr.next = true;
        }
        // The same decisions, shallow, for registers whose value only matters when
        // the decision holds (late inputs select, R15/§5 don't-care otherwise):
        // A is the candidate (E0, E3) when a candidate is held unless an
        // accepted full fragment leaves alone (E1, no flush);
        self.a_px.next = self.pv_q.q.val()
            & (!self.frag_valid.val()
                | !self.frag_cov.val().all()
                | self.plast_q.q.val()
                | self.flush.val()
                | self.age_max.val()
                | self.pmis.val());
        // the emission is a pair (E3, no flush_now: out_ok and a free slot are
        // implied by the emission);
        self.paired_x.next = self.pv_q.q.val()
            & self.frag_valid.val()
            & self.frag_cov.val().any()
            & !self.frag_cov.val().all()
            & self.can_pair.val()
            & !self.plast_q.q.val()
            & !self.flush.val()
            & !self.age_max.val()
            & !self.pmis.val();
        // the candidate's payload loads F whenever no candidate stays held unreplaced.
        self.en_p.next = !self.pv_q.q.val()
            | (self.out_ok.val() & self.any_free.val() & self.frag_valid.val() & self.frag_cov.val().any() & !self.frag_cov.val().all());
        self.e_acov.next = self.frag_cov.val();
        if self.a_px.val() {
            self.e_acov.next = self.pcov_q.q.val();
        }
        for b in 0..self.atag.len() {
            self.atag[b].next = self.frag_tag[b].val();
            if self.a_px.val() {
                self.atag[b].next = self.ptag_q[b].q.val();
            }
        }

        // The candidate register.
        // The age saturates at pair_hold, so `age < pair_hold` is `age != pair_hold`;
        // the increment is bitwise (no carry chain).
        // An E1 `last` marks a held candidate (when an E0 fires instead the
        // candidate leaves, and the flag no longer matters).
        self.age_inc.next = self.pv_q.q.val() & (self.age.val() != self.hold_max.val());
        if self.pv_q.q.val() & self.frag_valid.val() & self.frag_cov.val().all() & self.frag_last.val() & self.out_ok.val() & self.any_free.val() {
            self.plast_q.d.next = true;
        }
        // A held candidate leaves on E0 and on a pair (E3), else stays (or is
        // replaced); without one, a partial fragment that is not last is held (E2).
        if self.pv_q.q.val() {
            self.pv_q.d.next = !(self.out_ok.val()
                & self.any_free.val()
                & (self.flush_now.val() | (self.fv_part.val() & self.can_pair.val())));
        } else {
            self.pv_q.d.next = self.out_ok.val() & self.any_free.val() & self.fv_part.val() & !self.frag_last.val();
        }
        for b in 0..self.atag.len() {
            self.ptag_q[b].clock.next = self.clock.val();
            self.ptag_q[b].d.next = self.ptag_q[b].q.val();
        }
        if self.en_p.val() {
            self.pcov_q.d.next = self.frag_cov.val();
            self.plast_q.d.next = self.frag_last.val();
            for b in 0..self.pprim_q.len() {
                self.pprim_q[b].d.next = self.frag_prim[b].val();
            }
            for b in 0..self.atag.len() {
                self.ptag_q[b].d.next = self.frag_tag[b].val();
            }
        }
        for k in 0..self.amax_q.len() {
            self.amax_q[k].d.next = !self.en_p.val()
                & !self.reset.val()
                & (self.amax_q[k].q.val() | (self.pv_q.q.val() & (self.age.val() == self.hold_m1.val())));
        }
        self.acar.next = self.age_inc.val();
        for k in 0..self.w_age.len() {
            self.page_q[k].d.next = (self.page_q[k].q.val() ^ self.acar.val()) & !self.en_p.val() & !self.reset.val();
            self.acar.next = self.acar.val() & self.page_q[k].q.val();
        }

        // The spawn descriptor register (R7): loaded by an emission, held until taken.
        // The payload loads whenever the register can (out_ok): without an emission
        // grp_valid is 0 next and the payload is not looked at (§5).
        if self.emit.val() {
            self.gv_q.d.next = true;
        } else if self.grp_ready.val() {
            self.gv_q.d.next = false;
        }
        if self.out_ok.val() {
            self.gpaired_q.d.next = self.paired_x.val();
            self.gacov_q.d.next = self.e_acov.val();
            self.gbcov_q.d.next = self.pbcov.val();
            self.gperm_q.d.next = self.pperm.val();
        }
        for k in 0..self.gslot_q.len() {
            self.gslot_q[k].clock.next = self.clock.val();
            self.gslot_q[k].d.next = self.gslot_q[k].q.val();
            if self.out_ok.val() {
                self.gslot_q[k].d.next = false;
                for s in 0..self.sa_q.len() {
                    if self.alloc_here[s].val() & self.sbit[s][k].val() {
                        self.gslot_q[k].d.next = true;
                    }
                }
            }
        }
        for b in 0..self.atag.len() {
            self.gatag_q[b].clock.next = self.clock.val();
            self.gbtag_q[b].clock.next = self.clock.val();
            self.gatag_q[b].d.next = self.gatag_q[b].q.val();
            self.gbtag_q[b].d.next = self.gbtag_q[b].q.val();
            if self.out_ok.val() {
                self.gatag_q[b].d.next = self.atag[b].val();
                self.gbtag_q[b].d.next = self.frag_tag[b].val();
            }
        }

        // ---- The slots' next state: R8-R12's result, then the spawn (R7), then reset.
        for s in 0..self.sa_q.len() {
            self.sa_q[s].d.next = self.sa[s].val();
            self.sb_q[s].d.next = self.sb[s].val();
            self.acta_q[s].d.next = self.acta[s].val();
            self.actb_q[s].d.next = self.actb[s].val();
            self.owea_q[s].d.next = self.owea[s].val();
            self.oweb_q[s].d.next = self.oweb[s].val();
            self.broken_q[s].d.next = self.brk[s].val();
            self.merged_q[s].d.next = self.mrg[s].val();
            // The slot an emission would take is FREE, so no event touches it and its
            // payload is not looked at unless the emission happens (R13, §5): it loads
            // every cycle; only the states wait for the emission.
            if self.alloc_here[s].val() {
                self.acta_q[s].d.next = self.e_acov.val();
                self.actb_q[s].d.next = self.pbcov.val();
                self.paired_q[s].d.next = self.paired_x.val();
                self.broken_q[s].d.next = false;
                self.merged_q[s].d.next = false;
                self.perm_q[s].d.next = self.pperm.val();
                for b in 0..self.atag.len() {
                    self.taga_q[s][b].d.next = self.atag[b].val();
                    self.tagb_q[s][b].d.next = self.frag_tag[b].val();
                }
            }
            // The emission into the slot (FREE, so its R8-R11 state is FREE): A, and B
            // of a pair, become PRE, ORed into the state bits.
            self.emit_s[s].next = self.alloc_here[s].val() & self.out_ok.val() & (self.flush_now.val() | self.fterm.val());
            self.bem_s[s].next = self.alloc_here[s].val() & self.out_ok.val() & self.paired_x.val();
            if self.emit_s[s].val() {
                self.sa_q[s].d.next = self.sa[s].val() | self.s_pre.val();
            }
            if self.bem_s[s].val() {
                self.sb_q[s].d.next = self.sb[s].val() | self.s_pre.val();
            }
            // The wait counter (internal, R11): +1 (bitwise) at every edge where a member
            // is WAIT in S0, 0 at every other edge. A park happens only with no member
            // WAIT, so the count starts at 0 with the wait; a member still WAIT at count
            // merge_timeout - 1 times out, so the count never runs past it while it
            // matters. The counter depends on the registers only.
            self.wcar.next = true;
            for k in 0..self.w_wait.len() {
                self.wait_q[s][k].d.next = (self.wait_q[s][k].q.val() ^ self.wcar.val())
                    & (self.aw[s].val() | self.bw[s].val())
                    & !self.reset.val();
                self.wcar.next = self.wcar.val() & self.wait_q[s][k].q.val();
            }
            if self.reset.val() {
                self.sa_q[s].d.next = self.s_free.val();
                self.sb_q[s].d.next = self.s_free.val();
                self.owea_q[s].d.next = false;
                self.oweb_q[s].d.next = false;
            }
        }

        // ---- Status registers, and reset of the rest (R15).
        // merge_count is the count register plus a pending bit that holds this edge's
        // merge event: the wide enable never waits for the event (it is an OR over the
        // slots of late inputs), and the one incrementer feeds both the port and the
        // register, so the port still shows the merge in the cycle after the edge.
        self.mpend_q.d.next = self.merge_ev.val();
        self.mcount.next = self.mcount_q.q.val();
        if self.mpend_q.q.val() {
            self.mcount.next = self.mcount_q.q.val() + self.one32.val();
        }
        self.mcount_q.d.next = self.mcount.val();
        // err_proto the same way: the sticky flag plus this edge's error, so the flag's
        // enable is a register.
        self.epend_q.d.next = self.perr.val();
        self.eproto_q.d.next = self.eproto_q.q.val() | self.epend_q.q.val();
        if self.xl_hit.val() {
            self.exl_q.d.next = true;
        }
        if self.reset.val() {
            self.pv_q.d.next = false;
            self.gv_q.d.next = false;
            self.rv_q.d.next = false;
            self.mcount_q.d.next = self.zero32.val();
            self.mpend_q.d.next = false;
            self.eproto_q.d.next = false;
            self.epend_q.d.next = false;
            self.exl_q.d.next = false;
        }

        // ---- Outputs of the registered state.
        self.pend_valid.next = self.pv_q.q.val();
        self.merge_count.next = self.mcount.val();
        self.err_proto.next = self.eproto_q.q.val() | self.epend_q.q.val();
        self.err_xlane.next = self.exl_q.q.val();
        for k in 0..self.fc.len() {
            self.free_cnt[k].next = self.fc[k].val();
        }
        for s in 0..self.sa_q.len() {
            self.st_state_a[s].next = self.sa_q[s].q.val();
            self.st_state_b[s].next = self.sb_q[s].q.val();
            self.st_active_a[s].next = self.acta_q[s].q.val();
            self.st_active_b[s].next = self.actb_q[s].q.val();
            self.st_paired[s].next = self.paired_q[s].q.val();
            self.st_broken[s].next = self.broken_q[s].q.val();
            self.st_merged[s].next = self.merged_q[s].q.val();
            self.st_owe_a[s].next = self.oea[s].val();
            self.st_owe_b[s].next = self.oeb[s].val();
        }
        self.grp_valid.next = self.gv_q.q.val();
        self.grp_paired.next = self.gpaired_q.q.val();
        self.grp_a_cov.next = self.gacov_q.q.val();
        self.grp_b_cov.next = self.gbcov_q.q.val();
        self.grp_b_perm.next = self.gperm_q.q.val();
        self.grp_a_tgid[0].next = false;
        self.grp_b_tgid[0].next = true;
        for k in 0..self.gslot_q.len() {
            self.grp_a_tgid[k + 1].next = self.gslot_q[k].q.val();
            self.grp_b_tgid[k + 1].next = self.gslot_q[k].q.val();
        }
        for b in 0..self.atag.len() {
            self.grp_a_tag[b].next = self.gatag_q[b].q.val();
            self.grp_b_tag[b].next = self.gbtag_q[b].q.val();
        }
        self.rsp_valid.next = self.rv_q.q.val();
        self.rsp_merged.next = self.rmerged_q.q.val();
        self.rsp_retire.next = self.rmerged_q.q.val();
        // The response's group: the me's (A for a merge) or the owed one-hot.
        self.rcme.next = self.zero8.val();
        for k in 0..self.w_tgid.len() {
            if self.rtgid_q[k].q.val() {
                self.rcme.next = self.rcme.val() | self.w_tgid[k].val();
            }
        }
        if self.rmerged_q.q.val() {
            self.rcme.next = self.rcme.val() & !self.one8.val();
        }
        self.rcow.next = self.zero8.val();
        self.ract_now.next = self.lzero.val();
        for s in 0..self.sa_q.len() {
            if self.gva_q[s].q.val() {
                self.rcow.next = self.rcow.val() | self.ida[s].val();
            }
            if self.gvb_q[s].q.val() {
                self.rcow.next = self.rcow.val() | self.idb[s].val();
            }
            self.tga[s].next = self.lzero.val();
            self.tgb[s].next = self.lzero.val();
            if (self.rsel_q.q.val() & (self.rcme.val() == self.ida[s].val())) | (!self.rsel_q.q.val() & self.gva_q[s].q.val()) {
                self.tga[s].next = self.lones.val();
            }
            if (self.rsel_q.q.val() & (self.rcme.val() == self.idb[s].val())) | (!self.rsel_q.q.val() & self.gvb_q[s].q.val()) {
                self.tgb[s].next = self.lones.val();
            }
            self.ract_now.next = self.ract_now.val() | (self.tga[s].val() & self.acta_q[s].q.val()) | (self.tgb[s].val() & self.actb_q[s].q.val());
        }
        if !self.fresh_q.q.val() {
            self.ract_now.next = self.ract_q.q.val();
        }
        self.ract_q.d.next = self.ract_now.val();
        self.rsp_active.next = self.ract_now.val();
        self.rcur.next = self.rcow.val();
        if self.rsel_q.q.val() {
            self.rcur.next = self.rcme.val();
        }
        for k in 0..self.w_tgid.len() {
            self.rsp_tgid[k].next = (self.rcur.val() & self.w_tgid[k].val()).any();
        }
        self.rnext_id.next = self.rcur.val() + self.one8.val();
        for k in 0..self.w_tgid.len() {
            self.rsp_retire_tgid[k].next = (self.rnext_id.val() & self.w_tgid[k].val()).any();
        }

        // ---- R13: register-file lookup (registered state only; 0 for FREE / no group):
        // a flat AND-OR over the groups (one matches), PRE/WAIT execute every lane.
        self.rf_common_wmask.next = self.lzero.val();
        self.rf_exec_mask.next = self.lzero.val();
        self.rf_perm.next = self.p0.val();
        self.rf_post.next = false;
        for s in 0..self.sa_q.len() {
            self.rfa[s].next = self.lzero.val();
            self.rfb[s].next = self.lzero.val();
            self.rfxa[s].next = self.lones.val();
            self.rfxb[s].next = self.lones.val();
            self.rfpb[s].next = self.p0.val();
            if (self.rf_tgid.val() == self.ida[s].val()) & !self.af[s].val() {
                self.rfa[s].next = self.lones.val();
            }
            if (self.rf_tgid.val() == self.idb[s].val()) & !self.bf[s].val() {
                self.rfb[s].next = self.lones.val();
                self.rfpb[s].next = self.p3.val();
            }
            if self.ao[s].val() {
                self.rfxa[s].next = self.acta_q[s].q.val();
            }
            if self.bo[s].val() {
                self.rfxb[s].next = self.actb_q[s].q.val();
            }
            self.rf_common_wmask.next = self.rf_common_wmask.val()
                | (self.rfa[s].val() & self.acta_q[s].q.val())
                | (self.rfb[s].val() & self.actb_q[s].q.val());
            self.rf_exec_mask.next = self.rf_exec_mask.val() | (self.rfa[s].val() & self.rfxa[s].val()) | (self.rfb[s].val() & self.rfxb[s].val());
            self.rf_perm.next = self.rf_perm.val() | (self.rfpb[s].val() & self.perm_q[s].q.val());
            self.rf_post.next = self.rf_post.val()
                | ((self.rf_tgid.val() == self.ida[s].val()) & self.ao[s].val())
                | ((self.rf_tgid.val() == self.idb[s].val()) & self.bo[s].val());
        }

        // ---- R13: write-back lookup. A merged A reads B's record frozen in the slot (D3).
        self.wb_valid.next = false;
        self.wb_active.next = self.lzero.val();
        self.wb_lane_src.next = self.lzero.val();
        self.wb_perm_own.next = self.p0.val();
        self.wb_perm_partner.next = self.p0.val();
        for s in 0..self.sa_q.len() {
            self.wsa[s].next = (self.wb_tgid.val() == self.ida[s].val()) & (self.sa_q[s].q.val() != self.s_free.val());
            self.wsb[s].next = (self.wb_tgid.val() == self.idb[s].val()) & (self.sb_q[s].q.val() != self.s_free.val());
            self.wpa[s].next = self.wsa[s].val() & self.merged_q[s].q.val();
            if self.wsa[s].val() {
                self.wb_valid.next = true;
                self.wb_active.next = self.wb_active.val() | self.acta_q[s].q.val();
            }
            if self.wpa[s].val() {
                self.wb_lane_src.next = self.wb_lane_src.val() | self.actb_q[s].q.val();
                self.wb_perm_partner.next = self.wb_perm_partner.val() | self.perm_q[s].q.val();
            }
            if self.wsb[s].val() {
                self.wb_valid.next = true;
                self.wb_active.next = self.wb_active.val() | self.actb_q[s].q.val();
                self.wb_perm_own.next = self.wb_perm_own.val() | self.perm_q[s].q.val();
            }
        }
        for b in 0..self.atag.len() {
            self.wb_tag_self[b].next = false;
            self.wb_tag_partner[b].next = false;
            for s in 0..self.sa_q.len() {
                if (self.wsa[s].val() & self.taga_q[s][b].q.val()) | (self.wsb[s].val() & self.tagb_q[s][b].q.val()) {
                    self.wb_tag_self[b].next = true;
                }
                if self.wpa[s].val() & self.tagb_q[s][b].q.val() {
                    self.wb_tag_partner[b].next = true;
                }
            }
        }
        // Lane i came from (quad i>>2, in-quad (i&3) ^ p), p the remap of its fragment.
        // (written as an AND-OR over the slots: B's perm for a selected B, or for a
        // lane of a merged A that came from B).
        for s in 0..self.sa_q.len() {
            self.wpa2[s].next = self.p0.val();
            self.wsb2[s].next = self.p0.val();
            if self.wpa[s].val() {
                self.wpa2[s].next = self.perm_q[s].q.val();
            }
            if self.wsb[s].val() {
                self.wsb2[s].next = self.perm_q[s].q.val();
            }
        }
        for i in 0..self.inq.len() {
            self.wxp[i].next = self.p0.val();
            for s in 0..self.sa_q.len() {
                self.wxp[i].next = self.wxp[i].val() | self.wsb2[s].val();
                if self.actb_q[s].q.val().get_bit(i) {
                    self.wxp[i].next = self.wxp[i].val() | self.wpa2[s].val();
                }
            }
            self.winq[i].next = self.p0.val();
            if self.wb_valid.val() {
                self.winq[i].next = self.inq[i].val();
            }
            self.wb_orig_lo[i].next = self.winq[i].val() ^ self.wxp[i].val();
            for k in 0..self.wb_orig_hi[0].len() {
                self.wb_orig_hi[i][k].next = self.wb_valid.val() & self.qbit[i][k].val();
            }
        }
    }
}
