//! The properties of `thread_merge`, written from docs/contracts/thread_merge.md (which wins)
//! and the spec (§5.5-§5.7), never from the RTL. Ids: `tgid = 2*slot + member` (D2).
//!
//! Asserts (label: statement; rule):
//! * `a_reset_state`: after a reset cycle every output is in its reset state, all groups FREE,
//!   `free_cnt = S`, `frag_ready`, `me_ready`, lookups 0 (R15, R13, R4, R12).
//! * `a_grp_hold`, `a_rsp_hold`: a descriptor / response not taken stays valid with the same
//!   payload (valid does not drop, payload holds) (R7, R12, D4).
//! * `a_free_cnt`: `free_cnt` = slots whose members are both FREE (R2, D2).
//! * `a_frag_ready`: `frag_ready` and `pend_valid` follow R4 (a candidate model in the checker,
//!   a queue of K held fragments with `candidates` = K, R19, whose covers `c_queue_hold`,
//!   `c_queue_deep_pair` and `c_queue_push` ask for its three new events);
//!   with `cross_primitive` (R18) a primitive change is no reason to leave, and `c_frag_ready`
//!   covers a fragment of another primitive taken beside the candidate.
//! * `a_grp_new`: a new descriptor appears exactly one cycle after an emission, with the E0-E3
//!   content, pairing by R5 (first p of merge()), lowest free slot of the edge (R4-R7).
//! * `a_grp_disjoint`: a pair's coverages are disjoint (I1, claim 5).
//! * `a_err_proto`, `a_err_xlane`: sticky, set exactly by the edge of an error (R8-R10, R4, R14);
//!   with `perf_counters` cleared by `err_clr` unless that edge has an error (R17), so a flag
//!   falls only by `err_clr` or reset.
//! * With `perf_counters` (R16, docs/perf.md): `a_perf_reset` (every counter 0 after reset),
//!   `a_perf_none` (an index past the last counter reads 0), `a_perf_count` (a counter read at
//!   the same index in two cycles moved by exactly its event, 0 or 1, saturating, or is 0
//!   after `perf_clr`: monotone unless cleared), `a_err_clr` (err_clr without a new error
//!   lowers `err_proto`).
//! * `a_merge_count`: +1 per merge response (R10).
//! * `a_owe_post`: a resume is owed only to a POST group (R8, R11, R12).
//! * Shadow of one freely chosen slot `f_s` (anyconst), rebuilt from its spawn descriptor and the
//!   term/disc/me events (R7-R11): `a_st_state`, `a_st_active_a`, `a_st_active_b`, `a_st_slot`,
//!   `a_st_owe` (status vectors of the slot), `a_pair_disjoint` (members of an unmerged pair have
//!   disjoint masks: merged masks are disjoint, I2), `a_merge_once` (at most one merge per slot
//!   allocation, §5), `a_rsp_me` (a me response one cycle later with the R10 content, the OR mask
//!   on a merge), `a_rsp_owed` (any other new response of the slot is an owed resume),
//!   `a_rsp_prio` (an owed resume loads when rsp is free and no me arrives, lowest tgid first)
//!   (R12), `a_rf`, `a_wb` (the lookups of the slot's groups, R13), `a_nothing` (ids naming no
//!   slot look up as 0, R13; only when such ids exist).
//! * One covered sample, chosen freely (the first fragment with tag `f_tag`, lane `f_lane`), is
//!   followed from acceptance through the candidate, the spawn (remapped lane for B, R5), a merge
//!   (B's lanes move to A) to its write-back (term) or discard: `a_sample_at` (while in a group
//!   it is an active lane there and the wb lookup maps it to (tag, lane), R13); `a_sample_once`
//!   (when its tag is unique since reset, no other (group, lane), and nothing after write-back or
//!   discard, maps to it: written back once, I5 / contract §5).
//!
//! Assumptions: `m_reset_valid` (R15: every `*_valid` input is 0 in reset cycles); `m_slot_choice`
//! (the checker's own choice `f_s < S`, not an input). Nothing else: inputs are free (no valid
//! hold is assumed on `frag`/`me`; illegal events are allowed and checked through `err_proto`).
//!
//! Bounded only: the block's internal registers not on ports (candidate coverage/tag/age, the
//! wait counter, tags) make k-induction fail; the asserts are checked to the BMC depth. The
//! block is costly for z3 (each step roughly doubles the time): see the report for depths.

use warpgen_rtl::config::ThreadMergeConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_thread_merge_props` for this config.
pub fn props(c: &ThreadMergeConfig, e: &Emitted) -> String {
    let tg = super::width(e, "me_tgid");
    let lw = super::width(e, "wb_orig_lane") / c.lanes as usize;
    let mut s = super::header(e);
    s += &format!(
        "    localparam L = {}, S = {}, TW = {}, PW = {}, TG = {tg}, LW = {lw}, CW = {}, SW = {};\n",
        c.lanes,
        c.slots,
        c.tag_width,
        c.prim_width,
        super::width(e, "free_cnt"),
        tg.saturating_sub(1).max(1)
    );
    s += &format!(
        "    localparam PH = {}, MT = {}, REMAP = {}, XPRIM = {}, K = {};\n",
        c.pair_hold,
        c.merge_timeout,
        c.remap as u8,
        c.cross_primitive as u8,
        c.candidates
    );
    // R17: err_clr exists only with perf_counters; without it the flags are sticky until reset.
    s += if c.perf_counters { "    wire f_err_clr = err_clr;\n" } else { "    wire f_err_clr = 1'b0;\n" };
    s += BODY;
    if (1usize << (tg - 1)) > c.slots as usize {
        s += NOTHING;
    }
    if c.merge_timeout != 0 {
        s += TIMEOUT;
    }
    if c.candidates > 1 {
        s += QUEUE;
    }
    if c.perf_counters {
        // R16: events of the cycle in perf_sel order, from the ports and f_err_ev / f_xl_ev.
        let ev = [
            "frag_valid && frag_ready", "grp_valid && grp_ready", "rsp_valid && rsp_ready",
            "frag_valid && !frag_ready", "grp_valid && !grp_ready", "me_valid && !me_ready",
            "f_err_ev", "f_xl_ev", "frag_valid && !frag_ready && free_cnt == 0",
        ];
        assert_eq!(ev.len(), c.perf_count());
        s += &super::perf_asserts(&ev.map(String::from), c.perf_sel_bits());
        s += &super::err_clr_assert("R17", "err_proto", "f_err_ev", "f_pl");
    }
    s += "endmodule\n";
    s
}

/// The checker's body: constants above, shadow state, assumptions, properties.
const BODY: &str = r#"    // ---- derived constants, helpers -------------------------------------------------------
    localparam [L-1:0] ONES = {L{1'b1}};
    localparam NOTHING_IDS = ((1 << (TG - 1)) > S); // some ids name no slot (R2)
    localparam FREE = 2'd0, PRE = 2'd1, WAIT = 2'd2, POST = 2'd3;

    // R5: bit i of xperm(m, p) = bit (i & ~3) | ((i & 3) ^ p) of m (an involution)
    function [L-1:0] xperm(input [L-1:0] m, input [1:0] p);
        integer i;
        begin
            for (i = 0; i < L; i = i + 1) xperm[i] = m[(i & ~3) | ((i & 3) ^ p)];
        end
    endfunction
    // R5: {found, p} = the first p in 0..3 (only 0 without remap) with a & xperm(b, p) == 0
    function [2:0] fmerge(input [L-1:0] a, input [L-1:0] b);
        begin
            if ((a & b) == 0) fmerge = 3'b100;
            else if (REMAP && (a & xperm(b, 2'd1)) == 0) fmerge = 3'b101;
            else if (REMAP && (a & xperm(b, 2'd2)) == 0) fmerge = 3'b110;
            else if (REMAP && (a & xperm(b, 2'd3)) == 0) fmerge = 3'b111;
            else fmerge = 3'b000;
        end
    endfunction
    function nothing(input [TG-1:0] t); // R2: t's slot is >= S
        nothing = (t >> 1) >= S;
    endfunction
    function [1:0] gst(input [TG-1:0] t); // state of any group from st_state (FREE if nothing)
        gst = nothing(t) ? FREE : st_state[2 * t +: 2];
    endfunction

    // state of t after this edge's term (R8), as disc (R9) and me (R10) see it
    wire f_term_ok = term_valid && (gst(term_tgid) == PRE || gst(term_tgid) == POST);
    function [1:0] gst_at(input [TG-1:0] t);
        begin
            gst_at = gst(t);
            if (f_term_ok && term_tgid == t) gst_at = FREE;
            else if (f_term_ok && term_tgid == (t ^ 1'b1) && st_slot[3 * (t >> 1)] && !st_slot[3 * (t >> 1) + 2]
                     && gst(t) == WAIT) gst_at = POST;
        end
    endfunction

    // ---- free slots, first free slot (R2, R7) -------------------------------------------------
    integer k;
    reg [CW-1:0] f_free;
    reg [TG-1:0] f_first;
    reg f_any_free;
    always @(*) begin
        f_free = 0; f_first = 0; f_any_free = 0;
        for (k = S - 1; k >= 0; k = k - 1)
            if (st_state[4 * k +: 4] == 4'd0) begin
                f_free = f_free + 1'b1; f_first = 2 * k; f_any_free = 1'b1;
            end
    end

    reg f_owe_ok;
    always @(*) begin
        f_owe_ok = 1;
        for (k = 0; k < 2 * S; k = k + 1) if (st_owe[k] && st_state[2 * k +: 2] != POST) f_owe_ok = 0;
    end

    // ---- fresh transfers on the output channels -------------------------------------------------
    reg f_grp_held = 1'b0, f_rsp_held = 1'b0, f_prev_reset = 1'b1; // last edge: not taken / reset
    always @(posedge clock) begin
        f_grp_held <= !reset && grp_valid && !grp_ready;
        f_rsp_held <= !reset && rsp_valid && !rsp_ready;
        f_prev_reset <= reset;
    end
    wire f_grp_new = grp_valid && !f_grp_held;
    wire f_rsp_new = rsp_valid && !f_rsp_held;
    wire f_me_acc = me_valid && me_ready;
    wire f_rsp_free = !rsp_valid || rsp_ready;

    // ---- candidate model (R4, R5, R6, R19): expected frag_ready, pend_valid and descriptor -----
    // A queue of K held fragments, the oldest at 0 (K = 1: R4's one candidate register);
    // fragment q at [q*L +: L], [q*TW +: TW], [q*8 +: 8]; one run flag and one primitive.
    reg [K-1:0] q_v;
    reg [K*L-1:0] q_cov;
    reg [K*TW-1:0] q_tag;
    reg [K*8-1:0] q_age;
    reg p_last;
    reg [PW-1:0] p_prim;
    wire p_v = q_v[0];
    wire [7:0] p_age = q_age[7:0];
    reg e_emit, e_paired;                   // expected descriptor, registered at the edge
    reg [L-1:0] e_a_cov, e_b_cov;
    reg [TW-1:0] e_a_tag, e_b_tag;
    reg [1:0] e_b_perm;
    reg [TG-1:0] e_a_tgid;
    // combinational next values
    reg [K-1:0] n_qv;
    reg [K*L-1:0] n_qcov;
    reg [K*TW-1:0] n_qtag;
    reg [K*8-1:0] n_qage;
    reg n_last, n_emit, n_paired;
    reg [L-1:0] n_a_cov, n_b_cov;
    reg [PW-1:0] n_prim;
    reg [TW-1:0] n_a_tag, n_b_tag;
    reg [1:0] n_b_perm;
    reg [7:0] n_rm;   // the held fragment that leaves as A this edge (K: none); those above move down
    reg [7:0] n_app;  // where F is held after the edge (K: not held)
    reg [7:0] n_i, n_cnt;
    reg [1:0] n_route; // the accepted fragment: 0 none, 1 emitted as A, 2 as B, 3 held
    reg [2:0] f_mp;
    integer qi;
    wire f_out_ok = !grp_valid || grp_ready;
    wire f_flush_now = p_v && (p_last || flush || (PH != 0 && p_age >= PH)
                               || (!XPRIM && frag_valid && frag_prim != p_prim));   // R18: not with cross_primitive
    wire f_frag_exp_ready = f_out_ok && f_free >= 1 && !f_flush_now;
    wire f_frag_acc = frag_valid && frag_ready;
    always @(*) begin
        n_qv = q_v; n_qcov = q_cov; n_qtag = q_tag; n_qage = q_age; n_last = p_last; n_prim = p_prim;
        n_emit = 0; n_paired = 0; n_a_cov = 0; n_a_tag = 0; n_b_cov = 0; n_b_tag = 0; n_b_perm = 0;
        n_rm = K; n_app = K; n_route = 0; f_mp = 0; n_i = K;
        n_cnt = 0;
        for (qi = 0; qi < K; qi = qi + 1) if (q_v[qi]) n_cnt = qi + 1;
        if (f_flush_now && f_out_ok && f_free >= 1) begin                       // E0: the head alone
            n_emit = 1; n_a_cov = q_cov[L-1:0]; n_a_tag = q_tag[TW-1:0]; n_rm = 0;
        end else if (f_frag_acc && frag_cov != 0) begin
            if (frag_cov == ONES) begin                                          // E1
                n_emit = 1; n_a_cov = frag_cov; n_a_tag = frag_tag; n_route = 1;
                if (frag_last && p_v) n_last = 1;
            end else if (!p_v) begin                                             // E2
                if (frag_last) begin n_emit = 1; n_a_cov = frag_cov; n_a_tag = frag_tag; n_route = 1; end
                else begin n_route = 3; n_app = 0; n_last = 0; end
            end else begin                                                       // E3 (R19: the oldest F fits)
                for (qi = K - 1; qi >= 0; qi = qi - 1)
                    if (q_v[qi] && fmerge(q_cov[qi*L +: L], frag_cov) >= 3'b100) n_i = qi;
                n_last = frag_last;
                if (n_i != K) begin
                    f_mp = fmerge(q_cov[n_i*L +: L], frag_cov);
                    n_emit = 1; n_paired = 1; n_route = 2; n_rm = n_i;
                    n_a_cov = q_cov[n_i*L +: L]; n_a_tag = q_tag[n_i*TW +: TW];
                    n_b_cov = xperm(frag_cov, f_mp[1:0]); n_b_perm = f_mp[1:0]; n_b_tag = frag_tag;
                end else if (n_cnt == K) begin                                   // full: the oldest alone
                    n_emit = 1; n_a_cov = q_cov[L-1:0]; n_a_tag = q_tag[TW-1:0]; n_rm = 0;
                    n_route = 3; n_app = K - 1;
                end else begin                                                   // held beside them
                    n_route = 3; n_app = n_cnt;
                end
            end
        end
        // every fragment held before the edge ages (saturating at pair_hold); the removed one
        // leaves and those above it move down; F is held at n_app with age 0
        for (qi = 0; qi < K; qi = qi + 1)
            if (q_v[qi] && q_age[qi*8 +: 8] < PH) n_qage[qi*8 +: 8] = q_age[qi*8 +: 8] + 1'b1;
        if (n_rm != K) begin
            for (qi = 0; qi < K - 1; qi = qi + 1)
                if (qi >= n_rm) begin
                    n_qv[qi] = n_qv[qi + 1]; n_qcov[qi*L +: L] = n_qcov[(qi + 1)*L +: L];
                    n_qtag[qi*TW +: TW] = n_qtag[(qi + 1)*TW +: TW]; n_qage[qi*8 +: 8] = n_qage[(qi + 1)*8 +: 8];
                end
            n_qv[K-1] = 0;
        end
        if (n_app != K) begin
            n_qv[n_app] = 1; n_qcov[n_app*L +: L] = frag_cov; n_qtag[n_app*TW +: TW] = frag_tag;
            n_qage[n_app*8 +: 8] = 0; n_prim = frag_prim;
        end
    end
    always @(posedge clock) begin
        q_v <= reset ? {K{1'b0}} : n_qv; q_cov <= n_qcov; q_tag <= n_qtag; p_last <= n_last; p_prim <= n_prim;
        q_age <= reset ? {K*8{1'b0}} : n_qage;
        e_emit <= !reset && n_emit; e_paired <= n_paired; e_a_cov <= n_a_cov; e_a_tag <= n_a_tag;
        e_b_cov <= n_b_cov; e_b_tag <= n_b_tag; e_b_perm <= n_b_perm; e_a_tgid <= f_first;
    end

    // ---- shadow of one slot f_s (chosen freely), from its spawn and the events (R7-R12) --------
    (* anyconst *) reg [SW-1:0] f_s;
    always @(*) m_slot_choice: assume (f_s < S); // the checker's own choice of slot, not an input
    wire [TG-1:0] f_ta = f_s << 1;          // member A's id
    wire [TG-1:0] f_tb = f_ta | 1'b1;       // member B's id
    function ins(input [TG-1:0] t); ins = (t >> 1) == f_s; endfunction
    reg [3:0] s_st;                // member m at [2m +: 2]
    reg [2*L-1:0] s_act;
    reg [2*TW-1:0] s_tag;
    reg s_paired, s_broken, s_merged;
    reg [1:0] s_perm, s_owe;
    reg [7:0] s_cnt;
    reg [1:0] e_owe;               // owe after the last edge (R12 check)
    reg [2*L-1:0] e_act;
    reg e_free, e_me_any, e_me_rsp, e_me_merged;
    reg [TG-1:0] e_me_tgid;
    reg [L-1:0] e_me_act;
    reg f_seen;                    // a merge response of this slot's allocation was seen
    // this cycle's view (registered state after the last edge): spawn and owed resume applied
    reg [3:0] v_st; reg [2*L-1:0] v_act; reg [2*TW-1:0] v_tag;
    reg v_paired, v_broken, v_merged; reg [1:0] v_perm, v_owe;
    wire f_spawn_s = f_grp_new && ins(grp_a_tgid);
    wire f_owed_s = !f_prev_reset && e_free && !e_me_rsp && f_rsp_new && ins(rsp_tgid);
    always @(*) begin
        v_st = s_st; v_act = s_act; v_tag = s_tag; v_paired = s_paired; v_broken = s_broken;
        v_merged = s_merged; v_perm = s_perm; v_owe = s_owe;
        if (f_spawn_s) begin
            v_st = {grp_paired ? PRE : FREE, PRE}; v_act = {grp_b_cov, grp_a_cov};
            v_tag = {grp_b_tag, grp_a_tag}; v_paired = grp_paired; v_broken = 0; v_merged = 0;
            v_perm = grp_paired ? grp_b_perm : 2'd0;
        end
        if (f_owed_s) v_owe[rsp_tgid[0]] = 1'b0;
    end
    // the edge: term (R8), disc (R9), me (R10), timeout (R11) on the view
    reg [3:0] w_st; reg [2*L-1:0] w_act; reg w_broken, w_merged; reg [1:0] w_owe; reg [7:0] w_cnt;
    reg r_v, r_merged; reg [TG-1:0] r_tgid; reg [L-1:0] r_act;
    reg [1:0] wait0;
    integer x, y;
    always @(*) begin
        w_st = v_st; w_act = v_act; w_broken = v_broken; w_merged = v_merged; w_owe = v_owe; w_cnt = s_cnt;
        r_v = 0; r_merged = 0; r_tgid = 0; r_act = 0;
        wait0 = {v_st[3:2] == WAIT, v_st[1:0] == WAIT};
        x = 0; y = 1;
        if (term_valid && ins(term_tgid)) begin
            x = term_tgid[0]; y = 1 - x;
            if (w_st[2*x +: 2] == PRE || w_st[2*x +: 2] == POST) begin
                w_st[2*x +: 2] = FREE; w_owe[x] = 0;
                if (v_paired && !w_merged && w_st[2*y +: 2] != FREE) begin
                    w_broken = 1;
                    if (w_st[2*y +: 2] == WAIT) begin w_st[2*y +: 2] = POST; w_owe[y] = 1; end
                end
            end
        end
        if (disc_valid && ins(disc_tgid)) begin
            x = disc_tgid[0];
            if (w_st[2*x +: 2] == PRE || w_st[2*x +: 2] == POST) w_act[L*x +: L] = w_act[L*x +: L] & ~disc_mask;
        end
        if (f_me_acc && ins(me_tgid)) begin
            x = me_tgid[0]; y = 1 - x;
            if (w_st[2*x +: 2] == POST) begin
                r_v = 1; r_tgid = me_tgid; r_act = w_act[L*x +: L]; w_owe[x] = 0;
            end else if (w_st[2*x +: 2] == PRE) begin
                w_owe[x] = 0;
                if (!v_paired || w_broken) begin
                    w_st[2*x +: 2] = POST; r_v = 1; r_tgid = me_tgid; r_act = w_act[L*x +: L];
                end else if (w_st[2*y +: 2] == PRE) begin
                    w_st[2*x +: 2] = WAIT; w_cnt = 0;
                end else if (w_st[2*y +: 2] == WAIT) begin
                    w_act[L-1:0] = w_act[L-1:0] | w_act[2*L-1:L]; w_st = {FREE, POST}; w_merged = 1;
                    r_v = 1; r_merged = 1; r_tgid = f_ta; r_act = w_act[L-1:0];
                end
            end
        end
        if (MT != 0) begin
            if ((wait0[0] && w_st[1:0] == WAIT) || (wait0[1] && w_st[3:2] == WAIT)) begin
                if (s_cnt == MT - 1) begin
                    if (w_st[1:0] == WAIT) begin w_st[1:0] = POST; w_owe[0] = 1; end
                    if (w_st[3:2] == WAIT) begin w_st[3:2] = POST; w_owe[1] = 1; end
                    w_broken = 1;
                end else w_cnt = s_cnt + 1'b1;
            end
        end
    end
    always @(posedge clock) begin
        s_st <= reset ? 4'd0 : w_st; s_owe <= reset ? 2'd0 : w_owe; s_cnt <= reset ? 8'd0 : w_cnt;
        s_act <= w_act; s_tag <= v_tag; s_paired <= v_paired; s_broken <= w_broken;
        s_merged <= w_merged; s_perm <= v_perm;
        e_free <= f_rsp_free; e_me_any <= f_me_acc; e_me_rsp <= r_v && f_rsp_free; e_me_merged <= r_merged;
        e_me_tgid <= r_tgid; e_me_act <= r_act; e_owe <= w_owe; e_act <= w_act;
        if (reset || f_spawn_s) f_seen <= 1'b0;
        else if (f_rsp_new && rsp_merged && ins(rsp_tgid)) f_seen <= 1'b1;
    end
    // expected lookups of the slot's members (R13)
    function [1:0] vst(input m); vst = m ? v_st[3:2] : v_st[1:0]; endfunction

    // ---- one covered sample, chosen freely, followed to its write-back (I5, §5) -----------------
    (* anyconst *) reg [TW-1:0] f_tag;      // the tracked fragment: the first one with this tag
    (* anyconst *) reg [LW-1:0] f_lane;     // its tracked sample
    localparam T_NONE = 3'd0, T_PEND = 3'd1, T_EMIT = 3'd2, T_GRP = 3'd3, T_GONE = 3'd4;
    reg [2:0] t_at; reg t_b; reg [LW-1:0] t_lane; reg [TG-1:0] t_tg; reg [1:0] t_cnt;
    reg [7:0] t_q; reg [7:0] z_q;                              // its place while held (R19)
    reg [2:0] u_at; reg [LW-1:0] u_lane; reg [TG-1:0] u_tg;    // this cycle's view
    reg [2:0] z_at; reg z_b; reg [LW-1:0] z_lane;              // after the edge
    always @(*) begin
        u_at = t_at; u_lane = t_lane; u_tg = t_tg;
        if (t_at == T_EMIT && !f_prev_reset) begin u_at = T_GRP; u_tg = t_b ? grp_b_tgid : grp_a_tgid; end
        if (u_at == T_GRP && f_rsp_new && rsp_merged && rsp_retire_tgid == u_tg) u_tg = rsp_tgid;
        z_at = u_at; z_b = t_b; z_lane = u_lane; z_q = t_q;
        if (u_at == T_GRP) begin
            if (f_term_ok && term_tgid == u_tg) z_at = T_GONE;                 // written back (R8)
            else if (disc_valid && disc_tgid == u_tg && disc_mask[u_lane]
                     && (gst_at(u_tg) == PRE || gst_at(u_tg) == POST)) z_at = T_GONE; // R9
        end
        if (u_at == T_PEND && n_rm == t_q) begin z_at = T_EMIT; z_b = 0; end    // held: leaves as A
        else if (u_at == T_PEND && n_rm != K && n_rm < t_q) z_q = t_q - 1'b1;   // one below it left
        if (u_at == T_NONE && f_frag_acc && frag_cov[f_lane] && frag_tag == f_tag && t_cnt == 0) begin
            z_lane = f_lane;
            if (n_route == 1) begin z_at = T_EMIT; z_b = 0; end                 // E1, E2 last
            else if (n_route == 2) begin z_at = T_EMIT; z_b = 1;                 // E3: B, remapped (R5)
                z_lane = (f_lane & ~3) | ((f_lane & 3) ^ n_b_perm); end
            else if (n_route == 3) begin z_at = T_PEND; z_q = n_app; end         // E2, E3 held
        end
    end
    always @(posedge clock) begin
        if (reset) begin t_at <= T_NONE; t_cnt <= 0; end
        else begin
            t_at <= z_at; t_b <= z_b; t_lane <= z_lane; t_tg <= u_tg; t_q <= z_q;
            if (f_frag_acc && frag_cov != 0 && frag_tag == f_tag && t_cnt != 2'd3) t_cnt <= t_cnt + 1'b1;
        end
    end
    wire f_unique = t_cnt == 2'd1; // no other fragment with the tracked tag was accepted since reset
    reg [LW-1:0] f_wl; reg [TW-1:0] f_wt; reg f_claim_ok, f_claim, f_at_ok;
    integer i;
    always @(*) begin
        f_claim_ok = 1; f_claim = 0; f_at_ok = 0;
        for (i = 0; i < L; i = i + 1) begin
            f_wl = wb_orig_lane[i * LW +: LW];
            f_wt = wb_lane_src[i] ? wb_tag_partner : wb_tag_self;
            if (wb_active[i] && f_wt == f_tag && f_wl == f_lane) begin
                f_claim = 1;
                if (i == u_lane) f_at_ok = 1;
                if (!(u_at == T_GRP && wb_tgid == u_tg && i == u_lane)) f_claim_ok = 0;
            end
        end
    end

    // ---- driver obligations ---------------------------------------------------------------
    // contract R15: the stimulus holds every *_valid at 0 in reset cycles
    always @(*) if (reset) m_reset_valid: assume (!frag_valid && !me_valid && !term_valid && !disc_valid && !xl_valid);

    // ---- expected error flags (R8-R10, R4 cov 0, R14) -----------------------------------------
    wire f_err_ev = (term_valid && (gst(term_tgid) == FREE || gst(term_tgid) == WAIT))
                 || (disc_valid && (gst_at(disc_tgid) == FREE || gst_at(disc_tgid) == WAIT))
                 || (f_me_acc && (gst_at(me_tgid) == FREE || gst_at(me_tgid) == WAIT))
                 || (f_frag_acc && frag_cov == 0);
    wire f_xl_ev = xl_valid && gst(xl_tgid) == POST;

    // ---- view of the expected lookups of rf_tgid / wb_tgid (R13) --------------------------------
    reg [1:0] q_st; reg q_m; reg q_mv; reg [L-1:0] q_act, q_src; reg [1:0] q_ps, q_pp; reg [L*LW-1:0] q_orig;
    reg [L-1:0] x_cw, x_ex; reg [1:0] x_pe; reg x_post;
    always @(*) begin
        // rf lookup of rf_tgid in slot f_s
        q_m = rf_tgid[0]; q_st = vst(q_m); q_act = v_act[L*q_m +: L];
        x_cw = q_st == FREE ? 0 : q_act;
        x_ex = q_st == FREE ? 0 : (q_st == POST ? q_act : ONES);
        x_pe = q_st == FREE ? 0 : (q_m ? v_perm : 2'd0);
        x_post = q_st == POST;
        // wb lookup of wb_tgid in slot f_s
        q_m = wb_tgid[0]; q_st = vst(q_m); q_act = v_act[L*q_m +: L];
        q_mv = q_m == 0 && v_merged;
        q_src = q_mv ? v_act[2*L-1:L] : 0;
        q_ps = q_m ? v_perm : 2'd0; q_pp = q_mv ? v_perm : 2'd0;
        for (i = 0; i < L; i = i + 1) q_orig[i * LW +: LW] = (i & ~3) | ((i & 3) ^ (q_src[i] ? q_pp : q_ps));
    end
    wire [TW-1:0] x_tself = v_tag[TW*wb_tgid[0] +: TW];
    wire [TW-1:0] x_tpart = q_mv ? v_tag[2*TW-1:TW] : 0;
    wire f_wb_free = vst(wb_tgid[0]) == FREE;

    // ---- properties -------------------------------------------------------------------------
    wire f_pl = f_live && !f_prev_reset; // the previous edge was not a reset
    always @(posedge clock) if (f_live) begin
        // R15: every output is in its reset state in the first cycle after a reset
        if (f_past && $past(reset)) begin
            a_reset_state: assert (!grp_valid && !rsp_valid && !pend_valid && free_cnt == S && merge_count == 0
                && !err_proto && !err_xlane && st_state == 0 && st_owe == 0 && frag_ready && me_ready
                && rf_common_wmask == 0 && rf_exec_mask == 0 && rf_perm == 0 && !rf_post
                && wb_active == 0 && wb_lane_src == 0 && wb_tag_self == 0 && wb_tag_partner == 0
                && wb_perm_self == 0 && wb_perm_partner == 0 && wb_orig_lane == 0);
            c_reset_state: cover (1);
        end
        // R7 (valid/ready): a descriptor not taken stays valid with the same payload
        if (f_pl && $past(grp_valid && !grp_ready)) begin
            a_grp_hold: assert (grp_valid && grp_paired == $past(grp_paired) && grp_a_tgid == $past(grp_a_tgid)
                && grp_a_cov == $past(grp_a_cov) && grp_a_tag == $past(grp_a_tag)
                && (!grp_paired || (grp_b_tgid == $past(grp_b_tgid) && grp_b_cov == $past(grp_b_cov)
                    && grp_b_perm == $past(grp_b_perm) && grp_b_tag == $past(grp_b_tag))));
            c_grp_hold: cover (grp_paired);
        end
        // R12 (valid/ready): a response not taken stays valid with the same payload
        if (f_pl && $past(rsp_valid && !rsp_ready)) begin
            a_rsp_hold: assert (rsp_valid && rsp_tgid == $past(rsp_tgid) && rsp_merged == $past(rsp_merged)
                && rsp_active == $past(rsp_active) && rsp_retire == $past(rsp_retire)
                && (!rsp_retire || rsp_retire_tgid == $past(rsp_retire_tgid)));
            c_rsp_hold: cover (rsp_merged);
        end
        // R2, R7: free_cnt counts the slots whose members are both FREE
        a_free_cnt: assert (free_cnt == f_free);
        c_free_cnt: cover (free_cnt == 0);
        // R4: frag_ready = out_ok && a free slot && no candidate leaving; pend_valid = pend.v
        a_frag_ready: assert (frag_ready == f_frag_exp_ready && pend_valid == p_v);
        // (with cross_primitive, R18: a fragment of another primitive taken beside a candidate)
        c_frag_ready: cover (frag_valid && p_v && frag_prim != p_prim && f_out_ok && (XPRIM ? frag_ready : 1'b1));
        // R4-R7: a new descriptor appears exactly after an emission, with the expected content
        // (pairing by R5, the lowest slot free at the edge)
        if (f_pl) begin
            a_grp_new: assert (f_grp_new == e_emit && (!e_emit || (grp_paired == e_paired
                && grp_a_tgid == e_a_tgid && grp_a_cov == e_a_cov && grp_a_tag == e_a_tag
                && (!e_paired || (grp_b_tgid == (e_a_tgid | 1'b1) && grp_b_cov == e_b_cov
                    && grp_b_perm == e_b_perm && grp_b_tag == e_b_tag)))));
            c_grp_new: cover (f_grp_new && grp_paired && (REMAP ? grp_b_perm == 3 : 1'b1));
        end
        // I1, claim 5: the two groups of a pair have disjoint coverage
        if (grp_valid && grp_paired) begin
            a_grp_disjoint: assert ((grp_a_cov & grp_b_cov) == 0);
            c_grp_disjoint: cover (REMAP ? grp_b_perm != 0 : 1'b1);
        end
        // R14: err_proto and err_xlane are sticky and set by the edge of an error
        if (f_pl) begin
            a_err_proto: assert (err_proto == $past((err_proto && !f_err_clr) || f_err_ev));
            c_err_proto: cover (err_proto && !$past(err_proto));
            a_err_xlane: assert (err_xlane == $past((err_xlane && !f_err_clr) || f_xl_ev));
            c_err_xlane: cover (err_xlane && !$past(err_xlane));
        end
        // R10: merge_count counts merges (one per merge response)
        if (f_pl) begin
            a_merge_count: assert (merge_count == $past(merge_count) + (f_rsp_new && rsp_merged));
            c_merge_count: cover (merge_count == 1 && !$past(merge_count == 1));
        end
        // the shadowed slot f_s: state, masks, flags and owed resumes (R7-R12)
        a_st_state: assert (st_state[4 * f_s +: 4] == v_st);
        c_st_state: cover (v_merged && v_st == {FREE, POST});
        if (v_st[1:0] != FREE) begin
            a_st_active_a: assert (st_active[L * f_ta +: L] == v_act[L-1:0]);
            c_st_active_a: cover (v_st[1:0] == POST && v_act[L-1:0] != 0);
        end
        if (v_st[3:2] != FREE) begin
            a_st_active_b: assert (st_active[L * f_tb +: L] == v_act[2*L-1:L]);
            c_st_active_b: cover (v_st[3:2] == WAIT);
        end
        if (v_st != 0) begin
            a_st_slot: assert (st_slot[3 * f_s +: 3] == {v_merged, v_broken, v_paired});
            c_st_slot: cover (v_broken);
        end
        // R8, R11, R12: a resume is owed only to a POST group
        a_owe_post: assert (f_owe_ok);
        a_st_owe: assert (st_owe[f_ta] == v_owe[0] && st_owe[f_tb] == v_owe[1]);
        c_owe_post: cover (!f_prev_reset && e_owe != 0); // st_owe itself is never visible at slots = 1
        c_st_owe: cover (!f_prev_reset && e_owe != 0 && (S == 1 || v_owe != 0));
        // I2, claim 5: the members of a pair not merged yet have disjoint active masks
        if (v_paired && !v_merged && v_st[1:0] != FREE && v_st[3:2] != FREE) begin
            a_pair_disjoint: assert ((st_active[L * f_ta +: L] & st_active[L * f_tb +: L]) == 0);
            c_pair_disjoint: cover (v_st[1:0] == WAIT);
        end
        // R10, §5 "at most one merge per slot allocation"
        if (f_rsp_new && rsp_merged && ins(rsp_tgid)) begin
            a_merge_once: assert (!f_seen);
            c_merge_once: cover (1);
        end
        // R10, R12: a merge event of slot f_s accepted with rsp free gives its response next
        if (f_pl && e_me_rsp) begin
            a_rsp_me: assert (rsp_valid && rsp_tgid == e_me_tgid && rsp_merged == e_me_merged
                && rsp_active == e_me_act && rsp_retire == e_me_merged
                && (!e_me_merged || rsp_retire_tgid == (e_me_tgid | 1'b1)));
            c_rsp_me: cover (e_me_merged && rsp_active == ONES);
        end
        // R12: any other new response of slot f_s is an owed resume {t, merged 0, retire 0}
        if (f_owed_s) begin
            a_rsp_owed: assert (e_owe[rsp_tgid[0]] && !rsp_merged && !rsp_retire
                && rsp_active == e_act[L * rsp_tgid[0] +: L]);
            c_rsp_owed: cover (1);
        end
        // R12: an owed resume is loaded when rsp is free and no me arrives, lowest tgid first
        if (f_pl && e_free && !e_me_any && e_owe != 0) begin
            a_rsp_prio: assert (rsp_valid && rsp_tgid <= (e_owe[0] ? f_ta : f_tb));
            c_rsp_prio: cover (e_owe[1]);
        end
        // R13: register-file lookup of a group of slot f_s
        if (ins(rf_tgid)) begin
            a_rf: assert (rf_common_wmask == x_cw && rf_exec_mask == x_ex && rf_perm == x_pe && rf_post == x_post);
            c_rf: cover (rf_tgid[0] && x_post && (REMAP ? x_pe != 0 : 1'b1));
        end
        // R13: write-back lookup of a group of slot f_s
        if (ins(wb_tgid)) begin
            a_wb: assert (f_wb_free ? (wb_active == 0 && wb_lane_src == 0 && wb_tag_self == 0 && wb_tag_partner == 0
                    && wb_perm_self == 0 && wb_perm_partner == 0 && wb_orig_lane == 0)
                : (wb_active == q_act && wb_lane_src == q_src && wb_tag_self == x_tself
                    && wb_tag_partner == x_tpart && wb_perm_self == q_ps && wb_perm_partner == q_pp
                    && wb_orig_lane == q_orig));
            c_wb: cover (q_mv && (REMAP ? q_pp != 0 : 1'b1));
        end
        // I5, §5: the tracked covered sample is at one (group, lane) and the write-back maps it
        if (u_at == T_GRP) begin
            a_sample_at: assert (gst(u_tg) != FREE && st_active[L * u_tg + u_lane]
                && (wb_tgid != u_tg || f_at_ok));
            c_sample_at: cover (t_b && u_tg[0] == 0 && wb_tgid == u_tg);
        end
        // I5, §5: no lane other than its place (no discarded, written-back or foreign lane) maps
        // to the tracked sample: each covered, undiscarded sample is written back once
        if (f_claim && t_cnt <= 1) begin
            a_sample_once: assert (f_claim_ok);
            c_sample_once: cover (t_b && u_tg[0] == 0);
        end
    end
"#;

/// Lookups of ids naming no slot (only when such ids exist: 2^(TGID_W-1) > S).
const NOTHING: &str = r#"        // R13: ids naming no slot look up as all zero
        always @(posedge clock) if (f_live && nothing(rf_tgid) && nothing(wb_tgid)) begin
            a_nothing: assert (rf_common_wmask == 0 && rf_exec_mask == 0 && rf_perm == 0 && !rf_post
                && wb_active == 0 && wb_lane_src == 0 && wb_tag_self == 0 && wb_tag_partner == 0
                && wb_perm_self == 0 && wb_perm_partner == 0 && wb_orig_lane == 0);
            c_nothing: cover (1);
        end
"#;

/// The timeout path's cover (only when merge_timeout != 0).
const QUEUE: &str = r#"        // R19: a fragment held beside another, a pair with a held fragment other than the
        // oldest, and a full queue pushing its oldest out (the model above asserts their effect)
        always @(posedge clock) if (f_live) begin
            c_queue_hold: cover (q_v[1]);
            c_queue_deep_pair: cover (n_emit && n_paired && n_rm != 0);
            c_queue_push: cover (n_emit && !n_paired && n_rm == 0 && n_app != K);
        end
"#;

const TIMEOUT: &str = r#"        // R11: a group waiting merge_timeout edges resumes alone (covers the timeout path)
        always @(posedge clock) if (f_live && f_past && !$past(reset)) begin
            c_timeout: cover (f_owed_s && !$past(term_valid && ins(term_tgid)));
        end
"#;
