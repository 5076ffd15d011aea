//! The properties of `global_spreader`, written from docs/contracts/global_spreader.md (which wins)
//! and the spec, never from the RTL. The checker keeps shadow copies of what the ports let it
//! see: each slot's packet (R3), the registers it writes (§2.1), FREE_RES / FREE_EDT / PEND
//! (R8, R9), the table valid bits (R8, R10), the error flags, and per EU the outstanding
//! footprints and records (I1).
//!
//! Asserts (each with a cover `c_<same>` of its antecedent):
//! * `a_onehot` (I3): `ar_valid` is one-hot or 0.
//! * `a_sticky` (R7, I3): a request neither acked nor refused is presented again with the same EU
//!   and every payload bit.
//! * `a_ready` (R3): `c_ready` = EN && (slot empty || its request acked this cycle), present types only.
//! * `a_slot` (R2, R3, R8): `st_slot_valid` = well-formed packets transferred and not yet acked.
//! * `a_once` (I2): only a packet held in its slot is acked, so each is dispatched at most once.
//! * `a_refused` (R6, R8): the cycle after a refusal by EU e, the same packet is not requested from e.
//! * `a_payload` (I2, R4, R7): the request carries its slot's packet (type, `src_addr`, size,
//!   vcount, indexed base, prid, pixel mask); invalid refs are 0; only indexed TRI (with a VDT)
//!   and PIX ref 0 are valid; a TRI ref's element is its index mod VGRP; `ar_global_ref` = some
//!   valid ref outside the target.
//! * `a_autoidx` (R4, R7; with a VDT): a new non-indexed VTX / PATCH request takes AUTO_IDX /
//!   AUTO_IDX rounded up to 16 (AUTO_IDX shadowed: R8 advance, R11 write wins).
//! * `a_footprint` (R4): a new request's footprint = size + FRAME_RES[type], below 2^RES_W.
//! * `a_fit` (R4, R5, I1): a new request's EU is enabled, dedicated, has a record and
//!   FREE_RES >= footprint and >= MIN_RES: no EU is over-committed.
//! * `a_grant` (R7, D8): with YIELD_EN = 0 a new grant is the highest-priority occupied slot
//!   (not with `aging`: R7a may grant an aged lower slot first; its bound is the lockstep
//!   checker's; nor with a ranked class order, R7b, whose order the lockstep model checks).
//! * `a_blocked` (R4): a VTX / PATCH / TRI request never targets a valid VDT / PT entry.
//! * `a_free` (R8, R9): `st_free_res`, `st_free_edt` = the shadow (debit at the ack, credits,
//!   clamp to [0, total], a total write wins).
//! * `a_no_overcommit` (I1, under §6): free + (acked footprints - credits) = RES_TOTAL and
//!   free records + (acks - `cr_edt`) = EDT_TOTAL per EU, and `err_credit` stays 0.
//! * `a_tables` (R8, R10): `st_vdt_valid`, `st_pt_valid` = the shadow (dispatch sets, wins over
//!   releases; a PIX with last clears).
//! * `a_err` (R2, R8, R10, R11): `err_vdt_miss`, `err_pt_miss`, `err_malformed`, `err_release`
//!   = the shadow (set by the cause, sticky, W1C unless set at the same edge).
//! * `a_err_credit` (R9): a clamp or a PEND decrement at 0 sets `err_credit`; sticky until W1C.
//! * `a_status` (R12): `busy`, `stall`, `eu_avail_cnt`.
//! * `a_cfg_read` (R11): `cfg_rvalid` one cycle after a read, `cfg_rdata` = the register's value
//!   at the read for the shadowed registers (CTRL, EU_ENABLE, AUTO_IDX, STATUS, STALL_CNT,
//!   DED_MASK, MIN_RES, FRAME_RES, RES_TOTAL, FREE_RES, EDT_TOTAL, FREE_EDT, PEND, CLASS_PRIO
//!   with `class_priority_reg` (R7b), unmapped = 0).
//! * With `perf_counters` (rules G1-G2, docs/perf.md; the shared [`super::perf_asserts`] and
//!   [`super::err_clr_assert`]): `a_perf_reset`, `a_perf_none`, `a_perf_count` (each counter moves
//!   by exactly its event, from the ports and the shadow: acks by type, `*_valid && !*_ready`,
//!   any `cr_valid`, any release, the shadow's error causes; `stall_blocked` and `stall_no_eu`
//!   by the counter rule only), `a_err_clr`; `err_clr` enters the shadow `s_err` (so `a_err`,
//!   `a_err_credit` check that a flag detected at that edge stays).
//! * `a_reset` (R13): after reset no request, slots / tables / errors empty, free = totals,
//!   `*_ready` = CTRL.EN of the TOML.
//! * With `pixel_reorder` (R14), from a shadow of the reorder buffer (HEAD, TAIL, COUNT, DONE,
//!   moved by the PIX acks, the completion ports and `po_valid && po_ready`; `pc_*` and
//!   `po_ready` are free inputs): `a_rob_out` (`po_valid`, `po_seq`), `a_rob_seq` (`ar_seq` =
//!   TAIL for a PIX request, else 0) and `a_rob_blocked` (no PIX request while COUNT = D: the
//!   slot is blocked, R4; a held one cannot see COUNT reach D). `a_grant` still holds: with
//!   YIELD_EN = 0 a blocked pixel slot that is the first occupied one gets no grant at all.
//! * With `vdt_ways` = W > 1 (R15; nothing changes, not a byte, with W = 1): a VTX / PATCH
//!   request's VDT entries are {`ar_vdt_way`, set(base)} (+ g for a patch's groups, the set
//!   mod S), S = vdt_depth / W, set(i) = (i >> log2 VGRP) mod S. The table shadow sets them at
//!   the ack (`a_tables`); `a_blocked` on them (the request's way is free; it stays free while
//!   held, only an ack sets a bit); `a_way_low` (a new VTX / PATCH request takes the lowest
//!   free way: every way below it has a valid entry of the request's); `a_way_zero`
//!   (`ar_vdt_way` = 0 for TRI / PIX and with no request); the way is part of the sticky
//!   payload (`a_sticky`). Covers: a VTX / PATCH acked in a way other than 0 (`c_way_ack`), a
//!   patch (`c_way_patch`, with patch), way 3 (`c_way_top`, with 4 ways). Not checked: the refs'
//!   way choice (R15: the lowest way whose tag hits), as the refs' EU/entity are not (I4).
//! * With `resources` = K > 1 kinds (R16; nothing changes, not a byte, with one kind): the slot
//!   sizes, FREE_RES, RES_TOTAL, MIN_RES, FRAME_RES and the outstanding footprints are kept per
//!   kind, kind k of EU / type x at [(x*K + k)*RES_W +: RES_W] as the ports pack them. `a_free`
//!   (per kind: debit fp_k at the ack, credit `cr_res` of kind k, clamp to [0, RES_TOTAL[e][k]],
//!   a RES_TOTAL[e][k] write wins), `a_fit` (the target fits every kind: FREE_RES[e][k] >= fp_k
//!   and >= MIN_RES[type][k]), `a_footprint` (fp_k = the slot's size_k + FRAME_RES[type][k]),
//!   `a_no_overcommit` (I1 per kind), `a_err_credit` (a clamp of any kind), `a_payload`
//!   (`ar_copy_size` is kind 0's size), `a_cfg_read` and the register shadows (kind k >= 1's
//!   RES_TOTAL 0x280 + 0x40(k-1) + e, FREE_RES 0x2A0 + 0x40(k-1) + e, MIN_RES 0x340 + 8(k-1) + t,
//!   FRAME_RES 0x344 + 8(k-1) + t); `m_eu_obligations` per kind (credits of kind k never exceed
//!   its outstanding units; the kinds' totals written for an idle EU). Covers: a new request
//!   while an EU fits its kind 0 but not every kind (`c_kind_limit`, two EUs or more), a packet
//!   waiting while an EU fits its kind 0 and none every kind (`c_kind_wait`), a credit of kind 1
//!   alone (`c_kind_credit`), a clamp of a kind other than 0 alone (`c_kind_clamp`). Not checked:
//!   `least_loaded`'s comparison of kind 0 (R6; the candidate order is not, R5).
//!
//! Assumptions: `m_reset_quiet` (R13: valid and strobe inputs 0 during reset);
//! `m_eu_obligations` (§6, only in traces with the free constant `f_obey`): credits never exceed
//! the acked footprints, one `cr_edt` per acked entity of its type, RES_TOTAL / EDT_TOTAL written
//! only for an idle EU with no pending request. Without `f_obey` every input is free (so R9's
//! clamp is checked). Not checked: REJECT/NACK/ALLOC counters and PRIO reads, the candidate
//! order (R5), the refused mask beyond the next cycle (R6), the refs' EU/entity against the table contents (I4).
//! Choices where the contract is silent: `cr_edt` counts only with `cr_valid` ("likewise");
//! EDT_TOTAL stores min(32-bit wdata, 2^ENT_W); a PEND +1 and -1 at one edge cancel silently.
//!
//! The block is heavy for z3 and the induction does not close: every assert is *bounded*.
//! Measured on a shared 2-core machine (load about 7): eus=1, vertex+triangle, vdt_depth 4,
//! pt_depth 2, res/entity/index/addr widths 4/1/8/8: depth 6 in 386 s, covers (all by step 4)
//! in 61 s; the default config takes minutes per step: use `--depth 4` or less there.

use warpgen_rtl::config::GlobalSpreaderConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_global_spreader_props` for this config.
pub fn props(c: &GlobalSpreaderConfig, e: &Emitted) -> String {
    let mut s = super::header(e);
    s += &prelude(c, e);
    let has = |t: usize| c.has_type(t);
    let c_payload = if c.has_pt() && (c.has_vdt() || has(2)) {
        "        c_payload: cover (f_acked && (ar_type == 1 || ar_type == 2) && q_rv != 0);"
    } else {
        "        c_payload: cover (f_acked && s_held);"
    };
    let autoidx = if c.has_vdt() { AUTOIDX } else { "" };
    let ntypes = (0..4).filter(|&t| has(t)).count();
    let c_grant = if ntypes >= 2 {
        "        c_grant: cover (f_new && !s_ctrl[2] && f_nslots >= 2);"
    } else {
        "        c_grant: cover (f_new && !s_ctrl[2]);"
    };
    // R7a (`aging`) may grant an aged lower slot first: a_grant is R7 without it. The bound of
    // R7a is the lockstep checker's (contract §6), not a property here.
    // R7b (`class_priority`, `class_priority_reg`): the order is the ranks', which f_top (the
    // fixed order) does not follow; the lockstep model checks it every cycle.
    let a_grant = if c.ranked_classes() {
        "        // R7 (a_grant) is not asserted with a ranked class order (R7b): f_top is the fixed order"
    } else if c.aging == 0 {
        "        // R7, D8: with YIELD_EN = 0 a new grant goes to the highest-priority occupied slot\n        if (f_new && !s_ctrl[2]) a_grant: assert (ar_type == f_top);"
    } else {
        "        // R7 (a_grant) is not asserted with aging: R7a may grant an aged lower slot first"
    };
    let pc = c.perf_counters;
    // R14 (`pixel_reorder`): the reorder buffer's shadow and asserts; nothing without the key.
    let (rob_shadow, rob_asserts) = if c.pixel_reorder > 0 {
        (ROB_SHADOW.replace("@RBW@", &c.rob_bits().to_string()).replace("@RBD@", &c.pixel_reorder.to_string()), ROB_ASSERTS)
    } else {
        (String::new(), "")
    };
    // R15 (`vdt_ways` > 1): a VTX / PATCH request's VDT entries are {`ar_vdt_way`, set}; the way
    // is in the sticky payload, and its shadow and asserts follow. With one way, R4 and R8 as
    // written: the same text byte for byte (no port, no line).
    let ways = c.vdt_ways > 1;
    let (vent, vent_g4, vent_g) = if ways {
        ("f_vent(q_way, q_base[LVG +: SETW])", "f_vent(q_way, q_base[LVG +: SETW] + g4)", "f_vent(q_way, q_base[LVG +: SETW] + g)")
    } else {
        ("q_base[LVG +: VAW]", "q_base[LVG +: VAW] + g4", "q_base[LVG +: VAW] + g")
    };
    let (way_shadow, way_asserts) = if ways { (WAY_SHADOW.to_string(), way_asserts(c)) } else { (String::new(), String::new()) };
    // R16 (`resources`, K > 1 kinds): the sizes, FREE_RES, RES_TOTAL, MIN_RES, FRAME_RES and the
    // outstanding footprints per kind, item x*NK + k kind k's of item x (EU or type), as the
    // ports pack them; kind 0's at x*NK*RW. With one kind, R4 / R8 / R9 as written: the same
    // text byte for byte (every placeholder takes the text it replaced).
    let kinds = Kinds::of(c);
    let mut body = BODY.to_string();
    for (at, text) in kinds.texts() {
        body = body.replace(at, &text);
    }
    s += &body
        .replace("@ROB_SHADOW@", &rob_shadow)
        .replace("@ROB_ASSERTS@", rob_asserts)
        .replace("@WAY_SHADOW@", &way_shadow)
        .replace("@WAY_ASSERTS@", &way_asserts)
        .replace("@REQ_WAYW@", if ways { "+WAYW" } else { "" })
        .replace("@REQ_WAY@", if ways { ", q_way" } else { "" })
        .replace("@VENT_G4@", vent_g4)
        .replace("@VENT_G@", vent_g)
        .replace("@VENT@", vent)
        .replace("@A_GRANT@", a_grant)
        .replace("@C_PAYLOAD@", c_payload)
        .replace("@AUTOIDX@", autoidx)
        .replace("@C_GRANT@", c_grant)
        .replace("@ERRCLR@", if pc { " & ~{5{err_clr}}" } else { "" })
        .replace("@ERRCLRC@", if pc { " || err_clr" } else { "" });
    if pc {
        s += &perf(c);
    }
    s += "endmodule\n";
    s
}

/// With `perf_counters` (rules G1-G2 of docs/blocks/global_spreader.md, docs/perf.md): the
/// events from the ports and the shadow, in perf_sel order, into the shared
/// [`super::perf_asserts_partial`], and [`super::err_clr_assert`] over the five flags at once
/// (an `err_clr` edge that detects none of them lowers all; that a flag detected at the edge
/// stays and the others fall is `a_err` on the shadow `s_err`, which takes `err_clr`).
/// `stall_blocked` and `stall_no_eu` need each slot's candidate search (R4-R6), which the checker
/// does not shadow: for these two only the counter rule (+0 or +1, clear, saturate) is checked
/// ([`super::perf_asserts_partial`]); the lockstep and X08 check their events.
fn perf(c: &GlobalSpreaderConfig) -> String {
    // a_err_clr over the five flags and their causes
    let mut s = String::from("    wire f_err_any = |f_err, f_cause_any = |f_cause;\n");
    let mut ev: Vec<Option<String>> = (0..4).map(|t| Some(format!("f_ackt[{t}]"))).collect();
    ev.extend(["v", "t", "x", "p"].map(|ch| Some(format!("{ch}_valid && !{ch}_ready"))));
    // stall_blocked, stall_no_eu: not modelled (the slots' candidate search).
    ev.extend([None, None, Some("|cr_valid".into()), Some("|g_vr_valid || |g_pr_valid".into())]);
    // err_<flag>_ev: the shadow's causes (R9: a clamp counts also at an edge with a total write).
    ev.extend((0..5).map(|k| Some(format!("f_cause[{k}]"))));
    assert_eq!(ev.len(), c.perf_count());
    s += &super::perf_asserts_partial(&ev, c.perf_sel_bits());
    s += &super::err_clr_assert("G2", "f_err_any", "f_cause_any", "f_past && !$past(reset)");
    s
}

/// `W'dV` items, item 0 last (so it lands at bits [W-1:0]).
fn packed(w: usize, items: &[u64]) -> String {
    let v: Vec<String> = items.iter().rev().map(|x| format!("{w}'d{x}")).collect();
    format!("{{{}}}", v.join(", "))
}

/// Localparams from the config and aliases of the optional ports (0 when absent).
fn prelude(c: &GlobalSpreaderConfig, e: &Emitted) -> String {
    let n = c.eus as usize;
    let (rw, ew, aw, iw) = (c.res_width as usize, c.entity_width as usize, c.addr_width as usize, c.index_width as usize);
    let fw = c.free_edt_bits();
    let lvg = c.elem_bits();
    let mut s = String::from("    // ---- Config (the TOML, contract §2)\n");
    s += &format!(
        "    localparam N = {n}, RW = {rw}, FW = {fw}, EW = {ew}, AW = {aw}, IW = {iw}, VG = {}, LVG = {lvg}, VCW = {};\n",
        c.vertices_per_group,
        c.vcount_bits()
    );
    s += &format!(
        "    localparam VAW = {}, VDTD = {}, PW = {}, PTD = {}, PG = {}, EUW = {}, ELW = {lvg}, GW = {}, AVW = {};\n",
        c.vdt_addr_bits(),
        c.vdt_depth,
        c.prid_bits(),
        c.pt_depth,
        c.patch_groups(),
        c.eu_bits(),
        c.grp_bits(),
        c.avail_bits()
    );
    let has: Vec<bool> = (0..4).map(|t| c.has_type(t)).collect();
    let bits = |f: &[bool]| f.iter().rev().map(|b| if *b { '1' } else { '0' }).collect::<String>();
    s += &format!("    localparam [3:0] HAS_TY = 4'b{};\n", bits(&has));
    s += &format!("    localparam HAS_VDT = {}, HAS_PT = {};\n", c.has_vdt() as u8, c.has_pt() as u8);
    s += &format!(
        "    localparam [2:0] R_CTRL = 3'b{}{}{};\n",
        c.yield_enable as u8, c.locality as u8, c.enable as u8
    );
    // R7b: CLASS_PRIO (with `class_priority_reg`): its reset value and the bits it stores (the
    // two of each built type).
    let ranks = c.class_ranks();
    let cp_mask: u64 = (0..4).filter(|t| c.has_type(*t)).map(|t| 3u64 << (2 * t)).sum();
    let cp_reset: u64 = (0..4).map(|t| (ranks[t] as u64) << (2 * t)).sum::<u64>() & cp_mask;
    s += &format!(
        "    localparam CPREG = {};\n    localparam [7:0] R_CP = 8'h{cp_reset:02x}, CP_MASK = 8'h{cp_mask:02x};\n",
        c.class_priority_reg as u8
    );
    s += &format!("    localparam [N-1:0] R_EUEN = {n}'b{};\n", bits(&c.eu_enabled()));
    let ded: Vec<String> = (0..4).rev().map(|t| format!("{n}'b{}", bits(&c.dedicated_of(t)))).collect();
    s += &format!("    localparam [4*N-1:0] R_DED = {{{}}};\n", ded.join(", "));
    let nk = c.kinds();
    if nk == 1 {
        let minres: Vec<u64> = (0..4).map(|t| c.min_res_of(t)).collect();
        let frameres: Vec<u64> = (0..4).map(|t| c.frame_res_of(t)).collect();
        s += &format!("    localparam [4*RW-1:0] R_MINRES = {};\n", packed(rw, &minres));
        s += &format!("    localparam [4*RW-1:0] R_FRAMERES = {};\n", packed(rw, &frameres));
        s += &format!("    localparam [N*RW-1:0] R_RESTOT = {};\n", packed(rw, &c.res_totals()));
    } else {
        // R16: item t*NK + k of MIN_RES / FRAME_RES, e*NK + k of RES_TOTAL (the ports' order);
        // the loop variables and the per-kind clamp flags of the kinds' shadow.
        s += &format!("    // ---- R16 (resources): NK kinds, kind k of item x at [(x*NK + k)*RW +: RW]\n    localparam NK = {nk};\n");
        s += "    integer k2, k3, k4, k5, k7, k10, e10;\n    reg [NK-1:0] f_kclamp;\n";
        let per_type = |f: &dyn Fn(usize, usize) -> u64| -> Vec<u64> { (0..4).flat_map(|t| (0..nk).map(move |k| (t, k))).map(|(t, k)| f(t, k)).collect() };
        let restot: Vec<u64> = {
            let by_kind: Vec<Vec<u64>> = (0..nk).map(|k| c.res_totals_of(k)).collect();
            (0..n).flat_map(|e| by_kind.iter().map(move |v| v[e])).collect()
        };
        s += &format!("    localparam [4*NK*RW-1:0] R_MINRES = {};\n", packed(rw, &per_type(&|t, k| c.min_res_kind(t, k))));
        s += &format!("    localparam [4*NK*RW-1:0] R_FRAMERES = {};\n", packed(rw, &per_type(&|t, k| c.frame_res_kind(t, k))));
        s += &format!("    localparam [N*NK*RW-1:0] R_RESTOT = {};\n", packed(rw, &restot));
    }
    s += &format!("    localparam [N*FW-1:0] R_EDTTOT = {};\n", packed(fw, &c.edt_totals()));
    s += "    // ---- Optional ports (a type's channel, a table): 0 when the config has none\n";
    let alias = |s: &mut String, w: &str, name: &str, port: &str| {
        let src = if super::has(e, port) { port.to_string() } else { "0".to_string() };
        let range = if w.is_empty() { String::new() } else { format!("[{w}-1:0] ") };
        *s += &format!("    wire {range}{name} = {src};\n");
    };
    // R16: a channel's size is one RES_W field per kind
    let size_w = if nk == 1 { "RW" } else { "NK*RW" };
    for (name, w, port) in [
        ("v_valid", "", "vp_valid"), ("v_ready", "", "vp_ready"), ("v_indexed", "", "vp_indexed"),
        ("v_base", "IW", "vp_base_idx"), ("v_count", "VCW", "vp_count"), ("v_size", size_w, "vp_size"),
        ("v_src", "AW", "vp_src_addr"),
        ("p_valid", "", "pp_valid"), ("p_ready", "", "pp_ready"), ("p_indexed", "", "pp_indexed"),
        ("p_base", "IW", "pp_base_idx"), ("p_size", size_w, "pp_size"), ("p_src", "AW", "pp_src_addr"),
        ("t_valid", "", "tp_valid"), ("t_ready", "", "tp_ready"), ("t_indexed", "", "tp_indexed"),
        ("t_vidx", "3*IW", "tp_vidx"), ("t_prid", "PW", "tp_prid"), ("t_size", size_w, "tp_size"),
        ("t_src", "AW", "tp_src_addr"),
        ("x_valid", "", "xp_valid"), ("x_ready", "", "xp_ready"), ("x_last", "", "xp_last"),
        ("x_tri", "PW", "xp_tri_id"), ("x_mask", "16", "xp_mask"), ("x_size", size_w, "xp_size"),
        ("x_src", "AW", "xp_src_addr"),
        ("q_base", "IW", "ar_base_idx"), ("q_prid", "PW", "ar_prid"), ("q_mask", "16", "ar_pix_mask"),
        ("q_gref", "", "ar_global_ref"), ("q_rv", "3", "ar_ref_valid"), ("q_reu", "3*EUW", "ar_ref_eu"),
        ("q_rent", "3*EW", "ar_ref_ent"), ("q_relem", "3*ELW", "ar_ref_elem"), ("q_rgrp", "3*GW", "ar_ref_grp"),
        ("g_vr_valid", "N", "vr_valid"), ("g_vr_slot", "N*VAW", "vr_slot"), ("g_vdt", "VDTD", "st_vdt_valid"),
        ("g_pr_valid", "N", "pr_valid"), ("g_pr_id", "N*PW", "pr_id"), ("g_pt", "PTD", "st_pt_valid"),
    ] {
        alias(&mut s, w, name, port);
    }
    // R15 (`vdt_ways` > 1): WAY_W, SET_W, W; the request's way (the port must exist: no alias
    // to 0); an entry's address {way, set} (the set taken mod S).
    if c.vdt_ways > 1 {
        s += "    // ---- R15 (vdt_ways): the VDT as W ways of S = 2^SETW sets, entry {way, set} = way * S + set\n";
        s += &format!(
            "    localparam WAYW = {}, SETW = {}, NWAY = {};\n",
            c.vdt_way_bits(),
            c.vdt_set_bits(),
            c.vdt_ways
        );
        s += "    wire [WAYW-1:0] q_way = ar_vdt_way;\n";
        s += "    function [VAW-1:0] f_vent;\n        input [WAYW-1:0] w; input [SETW-1:0] st;\n        f_vent = {w, st};\n    endfunction\n";
    }
    s
}

/// R16 (`resources`): the text of each kind placeholder of [`BODY`]. With one kind each is
/// the text of R4 / R8 / R9 as written (byte for byte the checker without the key); with K > 1
/// kinds the shadows and checks per kind, kind k of item x (an EU, a type) at
/// [(x*NK + k)*RW +: RW] as the ports pack them, kind k >= 1's registers at R16's addresses.
struct Kinds {
    k: usize,
    n: usize,
}

impl Kinds {
    fn of(c: &GlobalSpreaderConfig) -> Kinds {
        Kinds { k: c.kinds(), n: c.eus as usize }
    }

    /// (placeholder, text), every placeholder of the kinds once.
    fn texts(&self) -> Vec<(&'static str, String)> {
        let one = self.k == 1;
        let pick = |a: &str, b: &str| if one { a.to_string() } else { b.to_string() };
        // per kind k >= 1: its registers' addresses (R16, §2.1)
        let kinds: Vec<(usize, u32, u32, u32)> = (1..self.k)
            .map(|k| (k, 0x280 + 0x40 * (k as u32 - 1), 0x340 + 8 * (k as u32 - 1), 0x344 + 8 * (k as u32 - 1)))
            .collect();
        let each = |f: &dyn Fn(&(usize, u32, u32, u32)) -> String| -> String { kinds.iter().map(f).collect() };
        vec![
            ("@REQ_RW@", pick("2*RW", "(NK+1)*RW")),
            ("@KRW@", pick("RW", "NK*RW")),
            ("@KREG_T@", each(&|(k, _, mn, fr)| format!(
                "                if (f_cw && cfg_addr == 10'h{mn:03X} + t) s_minres[(t*NK+{k})*RW +: RW] <= cfg_wdata[RW-1:0];\n\
                 \x20               if (f_cw && cfg_addr == 10'h{fr:03X} + t) s_frameres[(t*NK+{k})*RW +: RW] <= cfg_wdata[RW-1:0];\n"))),
            ("@KREG_E@", each(&|(k, rt, _, _)| format!(
                "                if (f_cw && cfg_addr == 10'h{rt:03X} + e1) s_restot[(e1*NK+{k})*RW +: RW] <= cfg_wdata[RW-1:0];\n"))),
            ("@KCLAMP0@", pick("", " f_kclamp = 0;")),
            ("@FRES_UPD@", pick(FRES_UPD_1, FRES_UPD_K)),
            ("@KFRES_W@", each(&|(k, rt, _, _)| format!(
                "            if (f_cw && cfg_addr == 10'h{rt:03X} + e3) n_fres[(e3*NK+{k})*RW +: RW] = cfg_wdata[RW-1:0];\n"))),
            ("@SOUT_W@", pick("N*(RW+1)", "N*NK*(RW+1)")),
            ("@OBL_CR@", pick(OBL_CR_1, OBL_CR_K)),
            ("@OBL_ADDR@", each(&|(_, rt, _, _)| format!(" || cfg_addr == 10'h{rt:03X} + e2"))),
            ("@SOUT_E2@", pick("e2*(RW+1) +: RW+1", "e2*NK*(RW+1) +: NK*(RW+1)")),
            ("@SOUT_UPD@", pick(SOUT_UPD_1, SOUT_UPD_K)),
            ("@I1@", pick(I1_1, I1_K)),
            ("@FP_DEF@", pick(FP_DEF_1, FP_DEF_K)),
            ("@KREAD@", each(&|(k, rt, mn, _)| format!(
                "        end else if (cfg_addr >= 10'h{rt:03X} && cfg_addr < 10'h{rte:03X}) begin\n\
                 \x20           // R16: kind {k}'s RES_TOTAL (cfg_addr[5] = 0), FREE_RES (1)\n\
                 \x20           e6 = cfg_addr[4:0];\n\
                 \x20           if (e6 >= N) f_rexp = 0;\n\
                 \x20           else if (!cfg_addr[5]) f_rexp = s_restot[(e6*NK+{k})*RW +: RW];\n\
                 \x20           else f_rexp = s_fres[(e6*NK+{k})*RW +: RW];\n\
                 \x20       end else if (cfg_addr >= 10'h{mn:03X} && cfg_addr < 10'h{mne:03X}) begin\n\
                 \x20           // R16: kind {k}'s MIN_RES (cfg_addr[2] = 0), FRAME_RES (1)\n\
                 \x20           t6 = cfg_addr[1:0];\n\
                 \x20           if (!HAS_TY[t6]) f_rexp = 0;\n\
                 \x20           else if (!cfg_addr[2]) f_rexp = s_minres[(t6*NK+{k})*RW +: RW];\n\
                 \x20           else f_rexp = s_frameres[(t6*NK+{k})*RW +: RW];\n",
                rte = rt + 0x40,
                mne = mn + 8
            ))),
            ("@FP_OK@", pick("{1'b0, ar_footprint} == f_fp", "f_fpok")),
            ("@FP0@", pick("ar_footprint", "ar_footprint[RW-1:0]")),
            ("@FIT@", pick("f_tfree >= ar_footprint && f_tfree >= s_minres[ar_type*RW +: RW]", "f_fitk")),
            ("@KIND_SHADOW@", pick("", KIND_SHADOW)),
            ("@KIND_ASSERTS@", if one { String::new() } else { self.asserts() }),
        ]
    }

    /// R16's covers (K > 1; the asserts of R4 / R8 / R9 take the kinds themselves: `a_fit`,
    /// `a_footprint`, `a_free`, `a_no_overcommit`, `a_err_credit`, `a_cfg_read`). With one EU
    /// no request can leave an EU that fits kind 0 only (`a_fit`): `c_kind_limit` needs two.
    fn asserts(&self) -> String {
        let mut s = String::from(KIND_LIMIT_NOTE);
        if self.n >= 2 {
            s += "        c_kind_limit: cover (f_new && (f_k0fit & ~f_kallfit) != 0);\n";
        }
        s + KIND_COVERS
    }
}

const FRES_UPD_1: &str = r##"            f_rsum = {1'b0, s_fres[e3*RW +: RW]} + (cr_valid[e3] ? {1'b0, cr_res[e3*RW +: RW]} : 0);
            f_rdeb = q_ack[e3] ? {1'b0, ar_footprint} : 0;
            if (f_rsum < f_rdeb) begin
                n_fres[e3*RW +: RW] = 0; f_clamp[e3] = 1'b1;
            end else if (f_rsum - f_rdeb > {1'b0, s_restot[e3*RW +: RW]}) begin
                n_fres[e3*RW +: RW] = s_restot[e3*RW +: RW]; f_clamp[e3] = 1'b1;
            end else n_fres[e3*RW +: RW] = f_rsum - f_rdeb;
"##;

/// R16, R8, R9: per kind, FREE_RES + credit - debit_k exactly, clamped to [0, RES_TOTAL[e][k]];
/// a clamp of any kind is the EU's (err_credit), and `f_kclamp` notes the kind.
const FRES_UPD_K: &str = r##"            for (k3 = 0; k3 < NK; k3 = k3 + 1) begin   // R16: per kind
                f_rsum = {1'b0, s_fres[(e3*NK+k3)*RW +: RW]} + (cr_valid[e3] ? {1'b0, cr_res[(e3*NK+k3)*RW +: RW]} : 0);
                f_rdeb = q_ack[e3] ? {1'b0, ar_footprint[k3*RW +: RW]} : 0;
                if (f_rsum < f_rdeb) begin
                    n_fres[(e3*NK+k3)*RW +: RW] = 0; f_clamp[e3] = 1'b1; f_kclamp[k3] = 1'b1;
                end else if (f_rsum - f_rdeb > {1'b0, s_restot[(e3*NK+k3)*RW +: RW]}) begin
                    n_fres[(e3*NK+k3)*RW +: RW] = s_restot[(e3*NK+k3)*RW +: RW]; f_clamp[e3] = 1'b1; f_kclamp[k3] = 1'b1;
                end else n_fres[(e3*NK+k3)*RW +: RW] = f_rsum - f_rdeb;
            end
"##;

const OBL_CR_1: &str = "            if (cr_valid[e2] && cr_res[e2*RW +: RW] > s_out[e2*(RW+1) +: RW+1]) f_obl = 1'b0;\n";

const OBL_CR_K: &str = r##"            for (k2 = 0; k2 < NK; k2 = k2 + 1)   // R16: per kind
                if (cr_valid[e2] && cr_res[(e2*NK+k2)*RW +: RW] > s_out[(e2*NK+k2)*(RW+1) +: RW+1]) f_obl = 1'b0;
"##;

const SOUT_UPD_1: &str = r##"                s_out[e2*(RW+1) +: RW+1] <= s_out[e2*(RW+1) +: RW+1] + (q_ack[e2] ? ar_footprint : 0)
                                          - (cr_valid[e2] ? cr_res[e2*RW +: RW] : 0);
"##;

const SOUT_UPD_K: &str = r##"                for (k4 = 0; k4 < NK; k4 = k4 + 1)   // R16: per kind
                    s_out[(e2*NK+k4)*(RW+1) +: RW+1] <= s_out[(e2*NK+k4)*(RW+1) +: RW+1]
                        + (q_ack[e2] ? ar_footprint[k4*RW +: RW] : 0) - (cr_valid[e2] ? cr_res[(e2*NK+k4)*RW +: RW] : 0);
"##;

const I1_1: &str = r##"        for (e7 = 0; e7 < N; e7 = e7 + 1)
            if ({1'b0, st_free_res[e7*RW +: RW]} + s_out[e7*(RW+1) +: RW+1] != {1'b0, s_restot[e7*RW +: RW]}
                || {1'b0, st_free_edt[e7*FW +: FW]} + s_rec[e7*(FW+1) +: FW+1] != {1'b0, s_edttot[e7*FW +: FW]})
                f_i1 = 1'b0;
"##;

const I1_K: &str = r##"        for (e7 = 0; e7 < N; e7 = e7 + 1) begin
            for (k7 = 0; k7 < NK; k7 = k7 + 1)   // R16: per kind
                if ({1'b0, st_free_res[(e7*NK+k7)*RW +: RW]} + s_out[(e7*NK+k7)*(RW+1) +: RW+1]
                    != {1'b0, s_restot[(e7*NK+k7)*RW +: RW]}) f_i1 = 1'b0;
            if ({1'b0, st_free_edt[e7*FW +: FW]} + s_rec[e7*(FW+1) +: FW+1] != {1'b0, s_edttot[e7*FW +: FW]})
                f_i1 = 1'b0;
        end
"##;

const FP_DEF_1: &str = "    wire [RW:0] f_fp = ar_copy_size + s_frameres[ar_type*RW +: RW];\n";

/// R16, R4: per kind k, the request's fp_k against its slot's size_k + FRAME_RES[type][k]
/// (kind 0's size is `ar_copy_size`: a_payload), and the target's fit in every kind.
const FP_DEF_K: &str = r##"    // R16, R4: per kind k, fp_k = size_k + FRAME_RES[type][k] (exact; below 2^RES_W), and the
    // target fits every kind: FREE_RES[e][k] >= fp_k and >= MIN_RES[type][k]
    reg f_fpok, f_fitk; reg [RW:0] f_fpk;
    always @(*) begin
        f_fpok = 1'b1; f_fitk = 1'b1; f_fpk = 0;
        for (k5 = 0; k5 < NK; k5 = k5 + 1) begin
            f_fpk = s_size[(ar_type*NK+k5)*RW +: RW] + s_frameres[(ar_type*NK+k5)*RW +: RW];
            if ({1'b0, ar_footprint[k5*RW +: RW]} != f_fpk) f_fpok = 1'b0;
            if (st_free_res[(f_tgt*NK+k5)*RW +: RW] < ar_footprint[k5*RW +: RW]
                || st_free_res[(f_tgt*NK+k5)*RW +: RW] < s_minres[(ar_type*NK+k5)*RW +: RW]) f_fitk = 1'b0;
        end
    end
"##;

/// R16: per EU, whether the packet of the request (with none, of the first occupied slot in
/// the fixed order) would fit its kind 0, and every kind, there (enabled, dedicated, a record);
/// and a credit of kind 1 with none of kind 0.
const KIND_SHADOW: &str = r##"    // ---- R16 (resources): the kinds' fit of the request's packet (else the first slot's) per EU
    reg [N-1:0] f_k0fit, f_kallfit; reg [RW:0] f_kfp; reg f_kok, f_kall, f_kcr;
    wire [1:0] f_kty = (|ar_valid) ? ar_type : f_top;
    always @(*) begin
        f_k0fit = 0; f_kallfit = 0; f_kfp = 0; f_kok = 1'b0; f_kall = 1'b0; f_kcr = 1'b0;
        for (e10 = 0; e10 < N; e10 = e10 + 1) begin
            f_kall = s_euen[e10] && s_ded[f_kty*N + e10] && s_fedt[e10*FW +: FW] != 0;
            for (k10 = 0; k10 < NK; k10 = k10 + 1) begin
                f_kfp = s_size[(f_kty*NK+k10)*RW +: RW] + s_frameres[(f_kty*NK+k10)*RW +: RW];
                f_kok = {1'b0, s_fres[(e10*NK+k10)*RW +: RW]} >= f_kfp
                        && s_fres[(e10*NK+k10)*RW +: RW] >= s_minres[(f_kty*NK+k10)*RW +: RW];
                if (k10 == 0) f_k0fit[e10] = f_kall && f_kok;
                if (!f_kok) f_kall = 1'b0;
            end
            f_kallfit[e10] = f_kall;
            if (cr_valid[e10] && cr_res[(e10*NK+1)*RW +: RW] != 0 && cr_res[e10*NK*RW +: RW] == 0) f_kcr = 1'b1;
        end
    end

"##;

const KIND_LIMIT_NOTE: &str = concat!(
    "        // R16, R4: a new request while an EU fits its kind 0 but not every kind (the request goes\n",
    "        // elsewhere: a_fit); a packet waiting while an EU fits its kind 0 and none every kind\n"
);

const KIND_COVERS: &str = r##"        c_kind_wait: cover (!(|ar_valid) && s_slot[f_top] && f_k0fit != 0 && f_kallfit == 0);
        // R16, R9: a credit of kind 1 alone (under §6); a clamp of a kind other than 0 alone
        // (err_credit follows: a_err_credit)
        c_kind_credit: cover (f_obey && f_kcr);
        c_kind_clamp: cover (f_kclamp[0] == 1'b0 && f_kclamp[NK-1:1] != 0);
"##;

/// R15 (`vdt_ways` > 1): per way w, whether the entries the request's VTX / PATCH would take in
/// w are free (VTX {w, set(base)}; PATCH {w, set(base) + g}, g < PG, one valid entry takes the
/// way), and whether every way below the request's is taken (R4: the way is the lowest free one).
const WAY_SHADOW: &str = r##"    // ---- R15 (vdt_ways): the ways of the request's set (state at this cycle)
    reg [NWAY-1:0] f_wtaken; reg [SETW-1:0] f_wset; reg f_wlow;
    integer w9, g9;
    always @(*) begin
        f_wtaken = 0; f_wset = 0; f_wlow = 1'b1;
        for (w9 = 0; w9 < NWAY; w9 = w9 + 1) begin
            for (g9 = 0; g9 < PG; g9 = g9 + 1) begin
                f_wset = q_base[LVG +: SETW] + g9;
                if ((g9 == 0 || ar_type == 3) && g_vdt[f_vent(w9, f_wset)]) f_wtaken[w9] = 1'b1;
            end
            if (w9 < q_way && !f_wtaken[w9]) f_wlow = 1'b0;
        end
    end

"##;

/// R15's asserts (`vdt_ways` > 1; `a_blocked`, `a_tables` and `a_sticky` take the way
/// themselves), each with its cover, and the covers of a way other than 0 acked (the top way
/// with 4 ways; a patch's with patch built).
fn way_asserts(c: &GlobalSpreaderConfig) -> String {
    let mut s = String::from(WAY_ZERO);
    // its cover: a TRI / PIX request beside a valid VDT entry, else a VTX / PATCH slot waiting
    s += if c.has_type(1) || c.has_type(2) {
        "        c_way_zero: cover ((|ar_valid) && (ar_type == 1 || ar_type == 2) && g_vdt != 0);\n"
    } else {
        "        c_way_zero: cover (!(|ar_valid) && (s_slot[0] || s_slot[3]) && g_vdt != 0);\n"
    };
    s += WAY_LOW;
    if c.vdt_ways == 4 {
        s += "        c_way_top: cover (f_acked && (ar_type == 0 || ar_type == 3) && q_way == NWAY - 1);\n";
    }
    if c.has_type(3) {
        s += "        c_way_patch: cover (f_ackt[3] && q_way != 0);\n";
    }
    s
}

const WAY_ZERO: &str = concat!(
    "        // R15, R7: ar_vdt_way is 0 for a TRI / PIX request and with no request\n",
    "        if (!(|ar_valid) || ar_type == 1 || ar_type == 2) a_way_zero: assert (q_way == 0);\n"
);

const WAY_LOW: &str = concat!(
    "        // R15, R4: a new VTX / PATCH request takes the lowest free way of its set: every way\n",
    "        // below it is taken (its own is free: a_blocked)\n",
    "        if (f_new && (ar_type == 0 || ar_type == 3)) a_way_low: assert (f_wlow);\n",
    "        c_way_low: cover (f_new && (ar_type == 0 || ar_type == 3) && q_way != 0);\n",
    "        // R15, R8: a VTX / PATCH acked in a way other than 0 (the entries it sets: a_tables)\n",
    "        c_way_ack: cover (f_acked && (ar_type == 0 || ar_type == 3) && q_way != 0);\n"
);

const AUTOIDX: &str = concat!(
    "        // R4, R7: a non-indexed VTX takes AUTO_IDX, a non-indexed PATCH AUTO_IDX rounded up to 16\n",
    "        if (f_new && !f_pind && (ar_type == 0 || ar_type == 3))\n",
    "            a_autoidx: assert (q_base == (ar_type == 0 ? s_auto : f_auto16));\n",
    "        c_autoidx: cover (f_new && !f_pind && (ar_type == 0 || ar_type == 3) && s_auto != 0);\n"
);

/// R14 (`pixel_reorder`): the reorder buffer as the rule states it, moved by the ports (a PIX
/// ack pushes TAIL with DONE = 0; a completion sets DONE of an entry outstanding at the start of
/// the cycle and not done; `po_valid && po_ready` pops HEAD; reset clears all).
const ROB_SHADOW: &str = r##"    // ---- R14 (pixel_reorder): shadow of the reorder buffer
    localparam RBW = @RBW@, RBD = @RBD@;
    reg [RBW-1:0] s_rhead, s_rtail, f_roff, f_rseq; reg [RBW:0] s_rcount; reg [RBD-1:0] s_rdone, n_rdone;
    integer e8;
    wire f_rpush = f_ackt[2];
    wire f_rpop = po_valid && po_ready;
    always @(*) begin
        n_rdone = s_rdone; f_roff = 0; f_rseq = 0;
        for (e8 = 0; e8 < N; e8 = e8 + 1) begin
            f_rseq = pc_seq[e8*RBW +: RBW];
            f_roff = f_rseq - s_rhead;
            // outstanding ((s - HEAD) mod D < COUNT) and not done at the start of the cycle
            if (pc_valid[e8] && {1'b0, f_roff} < s_rcount && !s_rdone[f_rseq]) n_rdone[f_rseq] = 1'b1;
        end
        if (f_rpop) n_rdone[s_rhead] = 1'b0;
        if (f_rpush) n_rdone[s_rtail] = 1'b0;
    end
    always @(posedge clock) begin
        if (reset) begin
            s_rhead <= 0; s_rtail <= 0; s_rcount <= 0; s_rdone <= 0;
        end else begin
            s_rhead <= s_rhead + f_rpop;
            s_rtail <= s_rtail + f_rpush;
            s_rcount <= s_rcount + f_rpush - f_rpop;
            s_rdone <= n_rdone;
        end
    end

"##;

/// R14's asserts on the shadow [`ROB_SHADOW`], each with its cover.
const ROB_ASSERTS: &str = r##"        // R14: po_valid = COUNT > 0 && DONE[HEAD], po_seq = HEAD
        a_rob_out: assert (po_valid == (s_rcount != 0 && s_rdone[s_rhead]) && po_seq == s_rhead);
        c_rob_out: cover (f_rpop && f_rpush);
        // R14: a request's ar_seq is TAIL when it is a PIX, else 0
        if (|ar_valid) a_rob_seq: assert (ar_seq == (ar_type == 2 ? s_rtail : {RBW{1'b0}}));
        c_rob_seq: cover (f_rpush && s_rtail != 0);
        // R14, R4: no PIX request while COUNT = D (the pixel slot is blocked)
        if ((|ar_valid) && ar_type == 2) a_rob_blocked: assert (s_rcount != RBD);
        c_rob_blocked: cover (s_rcount == RBD && s_slot[2]);
"##;

/// The body, the same for every config (widths and reset values are the prelude's localparams).
const BODY: &str = r##"    integer e, t, g, e1, e2, t2, e3, g3, e4, g4, e5, e6, t6, e7;
    // ---- The channels (R2, R3), type code t at bit t: 0 VTX, 1 TRI, 2 PIX, 3 PATCH
    wire [3:0] ch_valid = {p_valid, x_valid, t_valid, v_valid};
    wire [3:0] ch_ready = {p_ready, x_ready, t_ready, v_ready};
    wire v_bad = (v_count == 0) || (v_count > VG) || (v_indexed && v_base[LVG-1:0] != 0);
    wire p_bad = p_indexed && p_base[3:0] != 4'd0;
    wire [3:0] ch_xfer = ch_valid & ch_ready;
    wire [3:0] ch_good = ch_xfer & ~{p_bad, 1'b0, 1'b0, v_bad};
    wire f_malformed = |(ch_xfer & {p_bad, 1'b0, 1'b0, v_bad});
    // ---- The request and the EU's answer (R7, R8)
    wire [N-1:0] q_ack = ar_valid & ar_ready;
    wire f_acked = |q_ack;
    wire f_refused = |(ar_valid & ar_refuse & ~ar_ready);
    wire f_held = (|ar_valid) && !f_acked && !f_refused;
    wire [3:0] f_ackt = f_acked ? (4'b0001 << ar_type) : 4'b0000;
    reg [EUW-1:0] f_tgt;
    always @(*) begin
        f_tgt = 0;
        for (e = 0; e < N; e = e + 1) if (ar_valid[e]) f_tgt = e;
    end
    // the whole request (R7: sticky means all of it)
    wire [N+2+@REQ_RW@+AW+5+IW+PW+16+1+3+3*EUW+3*EW+3*ELW+3*GW@REQ_WAYW@-1:0] f_req =
        {ar_valid, ar_type, ar_footprint, ar_copy_size, ar_src_addr, ar_vcount, q_base, q_prid, q_mask,
         q_gref, q_rv, q_reu, q_rent, q_relem, q_rgrp@REQ_WAY@};
    // a request presented in the previous cycle, neither acked nor refused
    reg s_held = 1'b0;
    always @(posedge clock) s_held <= !reset && f_held;
    // a request in its first cycle (a new grant: R4-R7 evaluated on the state at this cycle)
    wire f_new = (|ar_valid) && !s_held;

    // ---- Shadow of the slots and their packets (R3: a transfer loads the slot, an ack empties it)
    reg [3:0] s_slot = 4'b0;
    reg [4*AW-1:0] s_src; reg [4*@KRW@-1:0] s_size;
    reg s_vind, s_pind, s_tind, s_xlast;
    reg [IW-1:0] s_vbase, s_pbase; reg [VCW-1:0] s_vcnt; reg [3*IW-1:0] s_tvidx;
    reg [PW-1:0] s_tprid, s_xtri; reg [15:0] s_xmask;
    always @(posedge clock) begin
        s_slot <= reset ? 4'b0 : (ch_good | (s_slot & ~f_ackt));
        if (ch_good[0]) begin
            s_src[0*AW +: AW] <= v_src; s_size[0*@KRW@ +: @KRW@] <= v_size;
            s_vind <= v_indexed; s_vbase <= v_base; s_vcnt <= v_count;
        end
        if (ch_good[1]) begin
            s_src[1*AW +: AW] <= t_src; s_size[1*@KRW@ +: @KRW@] <= t_size;
            s_tind <= t_indexed; s_tvidx <= t_vidx; s_tprid <= t_prid;
        end
        if (ch_good[2]) begin
            s_src[2*AW +: AW] <= x_src; s_size[2*@KRW@ +: @KRW@] <= x_size;
            s_xtri <= x_tri; s_xmask <= x_mask; s_xlast <= x_last;
        end
        if (ch_good[3]) begin
            s_src[3*AW +: AW] <= p_src; s_size[3*@KRW@ +: @KRW@] <= p_size;
            s_pind <= p_indexed; s_pbase <= p_base;
        end
    end

    // ---- Shadow of the registers (§2.1, R11: a write takes effect at its edge)
    wire f_cw = cfg_valid && cfg_we;
    reg [2:0] s_ctrl; reg [N-1:0] s_euen; reg [4*N-1:0] s_ded;
    reg [4*@KRW@-1:0] s_minres, s_frameres; reg [N*@KRW@-1:0] s_restot; reg [N*FW-1:0] s_edttot;
    reg [IW-1:0] s_auto; reg [7:0] s_cp;
    wire [IW-1:0] f_auto_p0 = s_auto + 15;
    wire [IW-1:0] f_auto16 = {f_auto_p0[IW-1:4], 4'b0000};   // AUTO_IDX rounded up to 16 (R4)
    always @(posedge clock) begin
        if (reset) begin
            s_ctrl <= R_CTRL; s_euen <= R_EUEN; s_ded <= R_DED; s_minres <= R_MINRES;
            s_frameres <= R_FRAMERES; s_restot <= R_RESTOT; s_edttot <= R_EDTTOT; s_auto <= 0;
            s_cp <= R_CP;
        end else begin
            if (f_cw && cfg_addr == 10'h000) s_ctrl <= cfg_wdata[2:0];
            if (f_cw && cfg_addr == 10'h005) s_cp <= cfg_wdata[7:0] & CP_MASK;
            if (f_cw && cfg_addr == 10'h001) s_euen <= cfg_wdata[N-1:0];
            for (t = 0; t < 4; t = t + 1) if (HAS_TY[t]) begin
                if (f_cw && cfg_addr == 10'h008 + t) s_ded[t*N +: N] <= cfg_wdata[N-1:0];
                if (f_cw && cfg_addr == 10'h00C + t) s_minres[t*@KRW@ +: RW] <= cfg_wdata[RW-1:0];
                if (f_cw && cfg_addr == 10'h010 + t) s_frameres[t*@KRW@ +: RW] <= cfg_wdata[RW-1:0];
@KREG_T@            end
            for (e1 = 0; e1 < N; e1 = e1 + 1) begin
                if (f_cw && cfg_addr == 10'h020 + e1) s_restot[e1*@KRW@ +: RW] <= cfg_wdata[RW-1:0];
@KREG_E@                if (f_cw && cfg_addr == 10'h060 + e1)
                    s_edttot[e1*FW +: FW] <= (cfg_wdata > (32'd1 << EW)) ? (32'd1 << EW) : cfg_wdata[FW-1:0];
            end
            // R8: a non-indexed VTX/PATCH ack advances AUTO_IDX; R11: a write wins
            if (f_cw && cfg_addr == 10'h002) s_auto <= {cfg_wdata[IW-1:LVG], {LVG{1'b0}}};
            else if (f_ackt[0] && !s_vind) s_auto <= q_base + VG;
            else if (f_ackt[3] && !s_pind) s_auto <= q_base + 16;
        end
    end

    // ---- Shadow of FREE_RES, FREE_EDT, PEND (R8 debit, R9 credit and clamp)
    reg [N*@KRW@-1:0] s_fres, n_fres; reg [N*FW-1:0] s_fedt, n_fedt;
    reg [4*N*FW-1:0] s_pend, n_pend;
    reg [RW:0] f_rsum, f_rdeb; reg [FW:0] f_esum, f_edeb;
    reg f_cr_err;          // R9: this edge clamps or decrements a PEND at 0 (sets err_credit)
    reg [N-1:0] f_clamp;   // per EU: this edge clamps FREE_RES or FREE_EDT
    always @(*) begin
        n_fres = s_fres; n_fedt = s_fedt; n_pend = s_pend; f_cr_err = 1'b0; f_clamp = 0;@KCLAMP0@
        for (e3 = 0; e3 < N; e3 = e3 + 1) begin
@FRES_UPD@            f_esum = {1'b0, s_fedt[e3*FW +: FW]} + (cr_valid[e3] && cr_edt[e3]);
            f_edeb = q_ack[e3];
            if (f_esum < f_edeb) begin
                n_fedt[e3*FW +: FW] = 0; f_clamp[e3] = 1'b1;
            end else if (f_esum - f_edeb > {1'b0, s_edttot[e3*FW +: FW]}) begin
                n_fedt[e3*FW +: FW] = s_edttot[e3*FW +: FW]; f_clamp[e3] = 1'b1;
            end else n_fedt[e3*FW +: FW] = f_esum - f_edeb;
            for (t2 = 0; t2 < 4; t2 = t2 + 1) if (HAS_TY[t2]) begin
                if (q_ack[e3] && ar_type == t2 && !(cr_valid[e3] && cr_edt[e3] && cr_type[e3*2 +: 2] == t2)) begin
                    if (~&s_pend[(e3*4+t2)*FW +: FW]) n_pend[(e3*4+t2)*FW +: FW] = s_pend[(e3*4+t2)*FW +: FW] + 1;
                end else if (!(q_ack[e3] && ar_type == t2) && cr_valid[e3] && cr_edt[e3] && cr_type[e3*2 +: 2] == t2) begin
                    if (s_pend[(e3*4+t2)*FW +: FW] == 0) f_clamp[e3] = 1'b1;
                    else n_pend[(e3*4+t2)*FW +: FW] = s_pend[(e3*4+t2)*FW +: FW] - 1;
                end
            end
            // R9: a RES_TOTAL / EDT_TOTAL write wins over the edge's debit and credit (the
            // counter takes the written value); a clamp of the edge still sets err_credit
            if (f_cw && cfg_addr == 10'h020 + e3) n_fres[e3*@KRW@ +: RW] = cfg_wdata[RW-1:0];
@KFRES_W@            if (f_cw && cfg_addr == 10'h060 + e3)
                n_fedt[e3*FW +: FW] = (cfg_wdata > (32'd1 << EW)) ? (32'd1 << EW) : cfg_wdata[FW-1:0];
        end
        f_cr_err = |f_clamp;
    end
    always @(posedge clock) begin
        s_fres <= reset ? R_RESTOT : n_fres;
        s_fedt <= reset ? R_EDTTOT : n_fedt;
        s_pend <= reset ? 0 : n_pend;
    end

    // ---- The EUs' obligations (contract §6), assumed only in traces where f_obey (chosen
    // freely at the start): elsewhere credits are free, so R9's clamp is reachable.
    (* anyconst *) reg f_obey;
    reg [@SOUT_W@-1:0] s_out;   // per EU: acked footprints minus credited resources
    reg [N*(FW+1)-1:0] s_rec;   // per EU: acked entities minus credited records
    reg f_obl;
    always @(*) begin
        f_obl = 1'b1;
        for (e2 = 0; e2 < N; e2 = e2 + 1) begin
            // §6: cr_res pulses sum to the footprint of an acked entity, after its ack
@OBL_CR@            // §6: one cr_edt per acked entity, with cr_type = its type
            if (cr_valid[e2] && cr_edt[e2] && (!HAS_TY[cr_type[e2*2 +: 2]] || s_pend[(e2*4+cr_type[e2*2 +: 2])*FW +: FW] == 0))
                f_obl = 1'b0;
            // §6: RES_TOTAL / EDT_TOTAL written only for an idle EU with no pending request
            if (f_cw && (cfg_addr == 10'h020 + e2 || cfg_addr == 10'h060 + e2@OBL_ADDR@)
                && (s_out[@SOUT_E2@] != 0 || s_rec[e2*(FW+1) +: FW+1] != 0 || ar_valid[e2]))
                f_obl = 1'b0;
        end
    end
    always @(*) if (f_obey && !reset) m_eu_obligations: assume (f_obl);
    always @(posedge clock) begin
        for (e2 = 0; e2 < N; e2 = e2 + 1) begin
            if (reset) begin
                s_out[@SOUT_E2@] <= 0; s_rec[e2*(FW+1) +: FW+1] <= 0;
            end else begin
@SOUT_UPD@                s_rec[e2*(FW+1) +: FW+1] <= s_rec[e2*(FW+1) +: FW+1] + q_ack[e2] - (cr_valid[e2] && cr_edt[e2]);
            end
        end
    end
    // contract R13: valid and strobe inputs are 0 while reset is 1
    always @(*) if (reset) m_reset_quiet: assume (!ch_valid && !ar_ready && !ar_refuse && !cr_valid
                                                 && !g_vr_valid && !g_pr_valid && !cfg_valid);

    // ---- Shadow of the table valid bits (R8 set/clear by a dispatch, R10 releases)
    reg [VDTD-1:0] s_vdt, n_vdt; reg [PTD-1:0] s_pt, n_pt;
    reg f_rel_bad; reg [VAW-1:0] f_vs;
    always @(*) begin
        n_vdt = s_vdt; n_pt = s_pt; f_rel_bad = 1'b0; f_vs = 0;
        for (e4 = 0; e4 < N; e4 = e4 + 1) begin
            if (g_vr_valid[e4]) begin
                if (!s_vdt[g_vr_slot[e4*VAW +: VAW]]) f_rel_bad = 1'b1;
                n_vdt[g_vr_slot[e4*VAW +: VAW]] = 1'b0;
            end
            if (g_pr_valid[e4]) begin
                if (!s_pt[g_pr_id[e4*PW +: PW]]) f_rel_bad = 1'b1;
                n_pt[g_pr_id[e4*PW +: PW]] = 1'b0;
            end
        end
        if (f_ackt[0]) n_vdt[@VENT@] = 1'b1;
        if (f_ackt[3]) for (g4 = 0; g4 < PG; g4 = g4 + 1) begin
            f_vs = @VENT_G4@;
            n_vdt[f_vs] = 1'b1;
        end
        if (f_ackt[1]) n_pt[q_prid] = 1'b1;
        if (f_ackt[2] && s_xlast) n_pt[q_prid] = 1'b0;
    end
    always @(posedge clock) begin
        s_vdt <= reset ? 0 : n_vdt;
        s_pt <= reset ? 0 : n_pt;
    end

    // ---- Shadow of the error flags (R2, R8, R10; W1C of STATUS [6:2], R11)
    // bit order as STATUS[6:2]: vdt_miss, pt_miss, malformed, credit, release
    wire [4:0] f_err = {err_release, err_credit, err_malformed, err_pt_miss, err_vdt_miss};
    wire [4:0] f_w1c = (f_cw && cfg_addr == 10'h003) ? cfg_wdata[6:2] : 5'b0;
    wire [4:0] f_cause = {f_rel_bad, f_cr_err, f_malformed,
                          f_ackt[2] && !q_rv[0],
                          f_ackt[1] && s_tind && (HAS_VDT != 0) && q_rv != 3'b111};
    reg [4:0] s_err;
    always @(posedge clock) s_err <= reset ? 5'b0 : ((s_err & ~f_w1c@ERRCLR@) | f_cause);

    // ---- Derived values
    reg [AVW-1:0] f_avail;
    always @(*) begin
        f_avail = 0;
        for (e5 = 0; e5 < N; e5 = e5 + 1) if (s_euen[e5] && s_fedt[e5*FW +: FW] != 0) f_avail = f_avail + 1;
    end
    wire [RW-1:0] f_tfree = st_free_res[f_tgt*@KRW@ +: RW];
    wire [FW-1:0] f_tfedt = st_free_edt[f_tgt*FW +: FW];
@FP_DEF@    // the highest-priority occupied slot (class priority PIX > TRI > PATCH > VTX)
    wire [1:0] f_top = s_slot[2] ? 2'd2 : s_slot[1] ? 2'd1 : s_slot[3] ? 2'd3 : 2'd0;
    // the request's payload as R7 defines it for its type (refs checked on their own)
    wire [4:0] f_vcnt = ar_type == 0 ? s_vcnt : ar_type == 3 ? 5'd16 : ar_type == 1 ? 5'd3 : 5'd0;
    wire [IW-1:0] f_pbase = ar_type == 0 ? s_vbase : ar_type == 3 ? s_pbase : 0;
    wire [PW-1:0] f_pprid = ar_type == 1 ? s_tprid : ar_type == 2 ? s_xtri : 0;
    wire f_pind = ar_type == 0 ? s_vind : ar_type == 3 ? s_pind : 1'b0;
    reg f_refs_ok, f_gref;
    always @(*) begin
        f_refs_ok = 1'b1; f_gref = 1'b0;
        for (g3 = 0; g3 < 3; g3 = g3 + 1) begin
            if (!q_rv[g3] && (q_reu[g3*EUW +: EUW] != 0 || q_rent[g3*EW +: EW] != 0 || q_relem[g3*ELW +: ELW] != 0
                              || q_rgrp[g3*GW +: GW] != 0)) f_refs_ok = 1'b0;
            if (q_rv[g3] && ar_type == 1 && q_relem[g3*ELW +: ELW] != s_tvidx[g3*IW +: ELW]) f_refs_ok = 1'b0;
            if (q_rv[g3] && q_reu[g3*EUW +: EUW] != f_tgt) f_gref = 1'b1;
        end
        // R4: only an indexed TRI (with a VDT) and a PIX (ref 0 only, element and group 0) have refs
        if ((ar_type == 0 || ar_type == 3) && q_rv != 0) f_refs_ok = 1'b0;
        if (ar_type == 1 && (!s_tind || HAS_VDT == 0) && q_rv != 0) f_refs_ok = 1'b0;
        if (ar_type == 2 && (q_rv[2:1] != 0 || q_relem[ELW-1:0] != 0 || q_rgrp[GW-1:0] != 0)) f_refs_ok = 1'b0;
        if (q_gref != f_gref) f_refs_ok = 1'b0;
    end
    // I1: per EU, free + outstanding = total, for resources and records
    reg f_i1;
    always @(*) begin
        f_i1 = 1'b1;
@I1@    end
    // R4: a PATCH is blocked if any of its PG entries is valid
    reg f_pblk; reg [VAW-1:0] f_ps;
    always @(*) begin
        f_pblk = 1'b0; f_ps = 0;
        for (g = 0; g < PG; g = g + 1) begin
            f_ps = @VENT_G@;
            if (g_vdt[f_ps]) f_pblk = 1'b1;
        end
    end
    // R12: STALL_CNT counts the cycles with stall
    reg [31:0] s_stallcnt;
    always @(posedge clock) s_stallcnt <= reset ? 0 : s_stallcnt + stall;
    reg [3:0] f_nslots;
    always @(*) f_nslots = s_slot[0] + s_slot[1] + s_slot[2] + s_slot[3];

    // ---- Register reads (R11): the value at the read cycle, in the next cycle
    reg [31:0] f_rexp; reg f_rknown;
    always @(*) begin
        f_rknown = 1'b1; f_rexp = 0; e6 = 0; t6 = 0;
        if (cfg_addr == 10'h000) f_rexp = s_ctrl;
        else if (cfg_addr == 10'h001) f_rexp = s_euen;
        else if (cfg_addr == 10'h002) f_rexp = s_auto;
        else if (cfg_addr == 10'h003) f_rexp = {f_err, stall, busy};
        else if (cfg_addr == 10'h004) f_rexp = s_stallcnt;
        else if (cfg_addr == 10'h005) f_rexp = CPREG ? s_cp : 0;
        else if (cfg_addr >= 10'h006 && cfg_addr <= 10'h007) f_rexp = 0;
        else if (cfg_addr >= 10'h014 && cfg_addr <= 10'h01F) f_rexp = 0;
        else if (cfg_addr >= 10'h0E0 && cfg_addr <= 10'h0FF) f_rexp = 0;
        else if (cfg_addr >= 10'h008 && cfg_addr <= 10'h013) begin
            t6 = cfg_addr[1:0];
            if (!HAS_TY[t6]) f_rexp = 0;
            else if (cfg_addr < 10'h00C) f_rexp = s_ded[t6*N +: N];
            else if (cfg_addr < 10'h010) f_rexp = s_minres[t6*@KRW@ +: RW];
            else f_rexp = s_frameres[t6*@KRW@ +: RW];
        end else if (cfg_addr >= 10'h020 && cfg_addr < 10'h0A0) begin
            e6 = cfg_addr[4:0];
            if (e6 >= N) f_rexp = 0;
            else if (cfg_addr[6:5] == 2'd1) f_rexp = s_restot[e6*@KRW@ +: RW];
            else if (cfg_addr[6:5] == 2'd2) f_rexp = s_fres[e6*@KRW@ +: RW];
            else if (cfg_addr[6:5] == 2'd3) f_rexp = s_edttot[e6*FW +: FW];
            else f_rexp = s_fedt[e6*FW +: FW];
        end else if (cfg_addr >= 10'h200 && cfg_addr < 10'h280) begin
            e6 = cfg_addr[6:2]; t6 = cfg_addr[1:0];
            f_rexp = (e6 < N && HAS_TY[t6]) ? s_pend[(e6*4+t6)*FW +: FW] : 0;
@KREAD@        end else if (cfg_addr >= 10'h280) f_rexp = 0;
        else f_rknown = 1'b0;
    end
    reg s_rd = 1'b0, s_rknown; reg [31:0] s_rexp;
    always @(posedge clock) begin
        s_rd <= !reset && cfg_valid && !cfg_we;
        s_rknown <= f_rknown; s_rexp <= f_rexp;
    end

@ROB_SHADOW@@WAY_SHADOW@@KIND_SHADOW@    always @(posedge clock) if (f_live) begin
        // I3: ar_valid is one-hot or 0
        a_onehot: assert ((ar_valid & (ar_valid - 1'b1)) == 0);
        c_onehot: cover (|ar_valid);
        // R7 / I3: a request neither acked nor refused is presented again unchanged
        if (s_held) a_sticky: assert (f_req == $past(f_req));
        c_sticky: cover (s_held && $past(f_cw));
        // R3: ch_ready = EN && (slot c empty || slot c's request acked this cycle), present types only
        a_ready: assert (ch_ready == (HAS_TY & {4{s_ctrl[0]}} & (~s_slot | f_ackt)));
        c_ready: cover ((ch_xfer & f_ackt) != 0);
        // R3, R2, R8: a slot holds exactly the well-formed packets transferred and not yet acked
        a_slot: assert (st_slot_valid == s_slot);
        c_slot: cover ((s_slot & ~{4{s_ctrl[0]}}) != 0);
        // I2: only a packet held in its slot is acked: every packet is dispatched at most once
        if (f_acked) a_once: assert (HAS_TY[ar_type] && s_slot[ar_type]);
        c_once: cover (f_acked && s_held);
        // R6, R8: after a refusal by EU e the same packet's next-cycle request is not to e
        if ($past(f_refused) && (|ar_valid) && ar_type == $past(ar_type)) a_refused: assert (ar_valid != $past(ar_valid));
        c_refused: cover ($past(f_refused) && s_slot[$past(ar_type)]);
        // I2, R7: the request carries its packet's payload; unused fields are 0
        if (|ar_valid) a_payload: assert (HAS_TY[ar_type] && s_slot[ar_type]
            && ar_src_addr == s_src[ar_type*AW +: AW] && ar_copy_size == s_size[ar_type*@KRW@ +: RW]
            && ar_vcount == f_vcnt && (f_pind || (ar_type != 0 && ar_type != 3) ? q_base == f_pbase : 1'b1)
            && q_prid == f_pprid && q_mask == (ar_type == 2 ? s_xmask : 16'd0) && f_refs_ok);
@C_PAYLOAD@
@AUTOIDX@
        // R4: a new request's footprint is size + FRAME_RES[type], below 2^RES_W
        if (f_new) a_footprint: assert (@FP_OK@);
        c_footprint: cover (f_new && @FP0@ != ar_copy_size);
        // R4, R5, I1: a new request goes to an enabled, dedicated EU that fits it (no over-commit)
        if (f_new) a_fit: assert (s_euen[f_tgt] && s_ded[ar_type*N + f_tgt] && f_tfedt != 0
            && @FIT@);
        c_fit: cover (f_new && f_tfree == @FP0@ && @FP0@ != 0);
@A_GRANT@
@C_GRANT@
        // R4 blocking: a request never overwrites a valid VDT/PT entry
        if (|ar_valid) a_blocked: assert (!(ar_type == 0 && g_vdt[@VENT@])
            && !(ar_type == 3 && f_pblk) && !(ar_type == 1 && g_pt[q_prid]));
        c_blocked: cover ((|ar_valid) && ar_type != 2 && (g_vdt != 0 || g_pt != 0));
        // R8, R9: FREE_RES / FREE_EDT follow debits, credits (clamped to [0, total]) and total writes
        a_free: assert (st_free_res == s_fres && st_free_edt == s_fedt);
        c_free: cover ($past(f_cr_err));
        // I1 (under §6): free = total - outstanding for resources and records; no err_credit
        if (f_obey) a_no_overcommit: assert (!err_credit && st_free_res == s_fres && f_i1);
        c_no_overcommit: cover (f_obey && f_acked && f_tfree == @FP0@ && @FP0@ != 0);
        // R8, R10: table valid bits: set by a dispatch (wins), cleared by releases and a PIX with last
        a_tables: assert (g_vdt == s_vdt && g_pt == s_pt);
        c_tables: cover ((|g_vr_valid || |g_pr_valid) && !f_rel_bad);
        // R2, R8, R10, R11: err_vdt_miss, err_pt_miss, err_malformed, err_release are set by their
        // cause, sticky, and cleared by a W1C of STATUS unless set at the same edge
        a_err: assert ({f_err[4], f_err[2:0]} == {s_err[4], s_err[2:0]});
        c_err: cover ($past(err_release) && !err_release);
        // R9: a clamp or a PEND decrement at 0 sets err_credit; it is sticky until a W1C
        if (f_past && !$past(reset) && ($past(f_cr_err) || ($past(err_credit) && !$past(f_w1c[3]@ERRCLRC@))))
            a_err_credit: assert (err_credit);
        c_err_credit: cover (err_credit);
        // R12: busy, stall, eu_avail_cnt
        a_status: assert (busy == (s_slot != 0) && stall == (busy && ar_valid == 0) && eu_avail_cnt == f_avail);
        c_status: cover (stall && f_nslots != 0);
        // R11: a read returns its register's value at the read cycle one cycle later
        a_cfg_read: assert (cfg_rvalid == s_rd && (!(s_rd && s_rknown) || cfg_rdata == s_rexp));
        c_cfg_read: cover (cfg_rvalid && s_rknown && cfg_rdata != 0);
        // R13: after reset: slots, request, valid bits, errors empty; free counters = totals
        if ($past(reset)) a_reset: assert (ar_valid == 0 && st_slot_valid == 0 && !busy && !stall
            && f_err == 0 && !cfg_rvalid && st_free_res == R_RESTOT && st_free_edt == R_EDTTOT
            && g_vdt == 0 && g_pt == 0 && ch_ready == (HAS_TY & {4{R_CTRL[0]}}));
        c_reset: cover ($past(reset) && $past(s_slot != 0));
@ROB_ASSERTS@@WAY_ASSERTS@@KIND_ASSERTS@    end
"##;
