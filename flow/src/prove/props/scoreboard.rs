//! The properties of `scoreboard`, written from docs/blocks/scoreboard.md (its contract: ports,
//! timing, deviations) and the spec (/work/shared/spec/scoreboard.md §2, §6), never from the RTL.
//!
//! The checker keeps a shadow of the registered state from the handshakes alone: every counter
//! (issue `iss_fire & iss_trk_en` on (iss_tg, iss_trk) +1, each completion port -1, `cnt' =
//! max(0, cnt + inc - completions)`, `clr` and reset zero), every wait mask (`iss_nxt_mask` on a
//! fire of the group, zeroed by `clr`/reset) and `err_underflow`; every output is compared with it.
//!
//! Properties (label: statement — rule):
//! * `a_cnt_match`: `cnt_flat` equals the shadow counters: a counter changes only by its own
//!   issue and completions of the last cycle, clamped at 0, or by clr/reset — Ports `cnt_flat`,
//!   Latency (`cnt' = max(0, cnt + inc − completions)`), Deviations (clr overrides).
//! * `a_cnt_le_max`: every counter is between 0 and `max_count` of its tracker — spec §2.2 saturation.
//! * `a_iss_ready`: `iss_ready` is `fetch_ok[iss_tg] & deps zero & (!iss_trk_en | below max)`;
//!   0 for a group id naming no group — Ports `iss_ready`, Deviations (ids that name nothing).
//! * `a_iss_fire`: `iss_fire = iss_valid & iss_ready` — Ports `iss_fire`.
//! * `a_iss_accept`: an issue is accepted only when its group may fetch, its dependency set is all
//!   zero and the counter it increments is below its maximum — Fig. 4, spec §6.6.
//! * With `implicit_fence` (rule SB5) the dependency set of `a_iss_ready`, `a_iss_accept` and the
//!   `stall_dep` event is `iss_dep_mask` plus the instruction's own tracker when that tracker is
//!   fenced (`f_dep`); `c_iss_fence` covers an issue refused by its fence alone.
//! * `a_fetch_ok`: bit g is 1 iff every tracker of g's wait mask (the last fired `iss_nxt_mask`) is
//!   zero — Ports `fetch_ok`, Fig. 5.
//! * `a_chk_ok`, `a_br`: the queries on the shadow counters; `br_go = a|b`, `br_sel_b = !a & b`
//!   (set A wins a tie) — Ports `chk_ok`, `br_*`. With `branch_sets` 3 or 4: every `br_sat_*`
//!   on the shadow, `br_go` = some set satisfied, `br_sel` = the index of the first satisfied
//!   set in the order A, B, C, D (0 when none) — rule SB2; covers of C and of D chosen, and
//!   (4 sets) of C and D satisfied together with A and B not (C wins).
//! * `a_trk_flags`: `trk_zero`, `trk_full` (≥ max_count), `tg_idle` — Ports.
//! * `a_err_underflow`: the sticky flag equals the shadow: set exactly in the cycle after a
//!   completion found its counter (plus that cycle's issue) exhausted, or named no counter; cleared
//!   only by reset (with `perf_counters` also by `err_clr` without an underflow of that edge,
//!   rule SB4) — Ports `err_underflow`, Deviations.
//! * With `perf_counters` (rule SB3, docs/perf.md; the shared [`super::perf_asserts`] and `a_err_clr`):
//!   `a_perf_reset`, `a_perf_none` (where `perf_sel` can name no counter), `a_perf_count` (each
//!   counter moves by exactly its event, from the ports and the shadow: `iss_fire`, a refused
//!   issue, each stall cause on the shadow counters, the shadow's underflow, `cpl_valid[p]`),
//!   `a_err_clr`.
//! * `a_clr`: the cycle after a clr of a group, the group is idle and may fetch — Deviations (clearing
//!   a busy group).
//! * `a_reset`: the first cycle after reset: counters 0, flags as for all-zero, `err_underflow` 0 —
//!   Ports `reset`.
//!
//! Every assert has a cover `c_<name>` of its interesting case (a counter at its maximum asked for
//! an issue, an issue that fills a tracker, a stalled branch, B draining first, a clr of a busy group
//! while it issues, …); `c_cnt_match_incdec` (needs a max_count ≥ 2), `c_cnt_match_dec2` (needs two
//! completion ports) and `c_err_underflow_id` (needs an id naming nothing) exist only where reachable.
//!
//! Assumptions: none. The contract states no driver obligation (the spec's "clr only while idle" is
//! lifted by Deviations; out-of-range ids are defined), so every input is free.
//!
//! Only bounded: the wait masks are not visible at the ports (a wrong mask bit hides behind another
//! non-zero tracker of the same mask for as long as the completions are withheld), so k-induction
//! cannot close `a_fetch_ok`; the run reports every assert as bounded to the depth. With one
//! tracker per group nothing can hide and the induction closes (proved).
//! That is `--engine smtbmc`; the default engine's PDR finds the invariant itself and proves
//! every assert at the default config (docs/formal.md).
//! Cost: the base case grows fast with the counter count; depth 20 is practical only for small
//! configs (1×1×1: 19 s prove+cover; 3×3 trackers, 2 ports: 120 s at depth 10 on a loaded machine).
//! Ambiguity: for `iss_trk_en` with an `iss_trk` ≥ `trackers` the contract defines only the
//! completion case, so the checker then asserts only the "accepted only when" direction.

use warpgen_rtl::config::ScoreboardConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_scoreboard_props` for this config.
pub fn props(c: &ScoreboardConfig, e: &Emitted) -> String {
    let (ntg, ntrk, cw, ncpl) = (c.thread_groups, c.trackers, c.counter_width, c.completion_ports);
    let maxes = c.max_counts();
    let trk_max: Vec<String> = maxes.iter().rev().map(|m| format!("{cw}'d{m}")).collect();
    let mut s = super::header(e);
    s += "    // ---- configuration (docs/config.md) ----\n";
    s += &format!(
        "    localparam NTG = {ntg}, NTRK = {ntrk}, CW = {cw}, NCPL = {ncpl}, TGW = {}, TKW = {};\n",
        super::width(e, "iss_tg"),
        super::width(e, "iss_trk")
    );
    s += "    localparam NC = NTG * NTRK;\n    // max_count: tracker t at [t*CW +: CW]\n";
    s += &format!("    localparam [NTRK*CW-1:0] TRK_MAX = {{{}}};\n\n", trk_max.join(", "));
    let incdec = if maxes.iter().any(|&m| m >= 2) { "        c_cnt_match_incdec: cover (|f_incdec);\n" } else { "" };
    let dec2 = if ncpl >= 2 && maxes.iter().any(|&m| m >= 2) { "        c_cnt_match_dec2: cover (|f_dec2);\n" } else { "" };
    let pow2 = |n: i64| n & (n - 1) == 0;
    let badid = if !pow2(ntg) || !pow2(ntrk) {
        "        c_err_underflow_id: cover (|f_cpl_bad && !err_underflow);\n        c_iss_ready_id: cover (iss_valid && !f_tg_ok);\n"
    } else {
        ""
    };
    let (br_decl, br_check) = branch(c.branch_sets as usize);
    s += &BODY
        .replace("@INCDEC@", incdec)
        .replace("@DEC2@", dec2)
        .replace("@BADID@", badid)
        .replace("@BRDECL@", &br_decl)
        .replace("@BR@", &br_check)
        .replace("@ERRCLR@", if c.perf_counters { " && !err_clr" } else { "" })
        .replace("@FENCEDECL@", &fence_decl(c))
        .replace("@FENCECOV@", if c.implicit_fence.is_empty() { "" } else { FENCE_COVER })
        .replace("@FETCH@", &fetch(c))
        .replace("@GATECOV@", if c.branch_fetch_gate { GATE_COVER } else { "" })
        .replace("@GATEDECL@", if c.branch_fetch_gate { ", f_gate_later" } else { "" });
    if c.perf_counters {
        s += &perf(c);
    }
    let dep = if c.implicit_fence.is_empty() { "iss_dep_mask" } else { "f_dep" };
    s = s.replace("@DEP@", dep);
    s += "endmodule\n";
    s
}

/// Rule SB5 (`implicit_fence`): the issue's dependency set `f_dep` is `iss_dep_mask` and, for an
/// instruction counted on a fenced tracker, that tracker. Nothing without the key.
fn fence_decl(c: &ScoreboardConfig) -> String {
    if c.implicit_fence.is_empty() {
        return String::new();
    }
    let m = c.fence_mask();
    let bits: String = (0..c.trackers).rev().map(|t| if m >> t & 1 == 1 { '1' } else { '0' }).collect();
    format!(
        "    // rule SB5: trackers with an implicit fence (bit t); an instruction counted on one depends on it\n    localparam [NTRK-1:0] FENCE = {}'b{bits};\n    wire [NTRK-1:0] f_dep = iss_dep_mask | (iss_trk_en ? (FENCE & f_trk_sel) : {{NTRK{{1'b0}}}});\n",
        c.trackers
    )
}

/// `fetch_ok[g]` on the shadow state, inside the per-group generate loop: set A (`sh_wait`)
/// drained; with `branch_fetch_gate` (rule SB6) also, after a fire with `iss_nxt_br`, any of
/// the branch's sets B .. drained (shadow registers of those sets and of the flag).
fn fetch(c: &ScoreboardConfig) -> String {
    let a = "(sh_wait[g*NTRK +: NTRK] & ~f_zero[g*NTRK +: NTRK]) == 0";
    if !c.branch_fetch_gate {
        return format!("            assign f_fetch[g] = {a};\n");
    }
    let sets = &["b", "c", "d"][..c.gate_sets()];
    let mut s = String::from("            // rule SB6: a fire with iss_nxt_br keeps the branch's other sets; any drained set opens the fetch\n");
    s += "            reg br;\n";
    for n in sets {
        s += &format!("            reg [NTRK-1:0] w_{n};\n");
    }
    s += "            always @(posedge clock)\n                if (reset || clr) begin\n                    br <= 1'b0;\n";
    for n in sets {
        s += &format!("                    w_{n} <= {{NTRK{{1'b0}}}};\n");
    }
    s += "                end else if (iss_fire && iss_tg == g) begin\n                    br <= iss_nxt_br;\n";
    for n in sets {
        s += &format!("                    w_{n} <= iss_nxt_mask_{n};\n");
    }
    s += "                end\n";
    let later: Vec<String> = sets.iter().map(|n| format!("(w_{n} & ~f_zero[g*NTRK +: NTRK]) == 0")).collect();
    s += &format!("            assign f_fetch[g] = {a} || (br && ({}));\n", later.join(" || "));
    s += &format!("            assign f_gate_later[g] = br && !({a}) && f_fetch[g];\n");
    s
}

/// SB6's cover: a group whose fetch is open by a branch set after A while set A is busy.
const GATE_COVER: &str = "        c_fetch_later: cover (|f_gate_later);\n";

/// SB5's cover: an issue with an empty mask and an open fetch gate refused by its fence alone.
const FENCE_COVER: &str = "        c_iss_fence: cover (iss_valid && iss_dep_mask == 0 && iss_trk_en && |(FENCE & f_trk_sel) && |(f_iss_sel & f_fetch) && !iss_ready);\n";

/// The scoreboard branch's part of the checker for `sets` branch sets: the declarations of the
/// shadow answers of sets C, D (none at 2 sets), and the assert and covers of the `br_*` ports.
fn branch(sets: usize) -> (String, String) {
    if sets == 2 {
        return (String::new(), TWO_SET_BR.to_string());
    }
    let names = &["c", "d"][..sets - 2];
    let mut decl = String::new();
    for n in names {
        decl += &format!(
            "    wire [NTG-1:0] f_g_sat_{n};\n    generate\n        for (g = 0; g < NTG; g = g + 1) begin : gq{n}\n            assign f_g_sat_{n}[g] = (br_mask_{n} & ~f_zero[g*NTRK +: NTRK]) == 0;\n        end\n    endgenerate\n    wire f_sat_{n} = |(f_br_sel & f_g_sat_{n});\n"
        );
    }
    // Rule SB2: the first satisfied set in the order A, B, C, D; 0 when none.
    let mut first = String::from("f_sat_a ? 2'd0 : f_sat_b ? 2'd1 : f_sat_c ? 2'd2 : ");
    if sets == 4 {
        first += "f_sat_d ? 2'd3 : ";
    }
    decl += &format!("    wire [1:0] f_br_first = {first}2'd0;\n");
    let sats: Vec<String> = ["a", "b"].iter().chain(names).map(|n| format!("br_sat_{n} == f_sat_{n}")).collect();
    let any: Vec<String> = ["a", "b"].iter().chain(names).map(|n| format!("f_sat_{n}")).collect();
    let mut check = String::from(
        "        // Ports br_*, rule SB2: each set satisfied when its trackers are zero; br_go = some set satisfied;\n        // br_sel = the index of the first satisfied set in the order A, B, C, D (0 when none)\n",
    );
    check += &format!("        a_br: assert ({}\n                      && br_go == ({}) && br_sel == f_br_first);\n", sats.join(" && "), any.join(" || "));
    check += "        c_br: cover (br_go && br_sel == 1 && br_mask_a != 0);\n";
    check += "        c_br_tie: cover (br_sat_a && br_sat_b && br_mask_a != 0 && br_mask_b != 0);\n";
    check += "        c_br_c: cover (br_go && br_sel == 2 && br_mask_a != 0 && br_mask_b != 0);\n";
    if sets == 4 {
        check += "        c_br_d: cover (br_go && br_sel == 3 && br_mask_a != 0 && br_mask_b != 0 && br_mask_c != 0);\n";
        check += "        c_br_cd_tie: cover (!br_sat_a && !br_sat_b && br_sat_c && br_sat_d && br_mask_c != 0 && br_mask_d != 0);\n";
    }
    (decl, check)
}

/// With `perf_counters` (rules SB3-SB4 of docs/blocks/scoreboard.md, docs/perf.md): the events
/// from the ports and the shadow state, in perf_sel order, and the checks of
/// [`super::perf_asserts`] and `a_err_clr`; `err_clr` enters the shadow `sh_err` (so `a_err_underflow` checks
/// that the flag falls only by err_clr or reset and that an underflow of the same edge wins).
fn perf(c: &ScoreboardConfig) -> String {
    let mut s = String::from(PERF_DECL);
    let mut ev: Vec<String> = [
        "iss_fire",
        "iss_valid && !iss_ready",
        "iss_valid && |(f_iss_sel & f_g_dep_busy)",
        "iss_valid && iss_trk_en && |(f_iss_sel & f_g_at_max)",
        "iss_valid && |(f_iss_sel & ~f_fetch)",
        "f_udf",
    ]
    .iter()
    .map(|e| e.to_string())
    .collect();
    ev.extend((0..c.completion_ports).map(|p| format!("cpl_valid[{p}]")));
    assert_eq!(ev.len(), c.perf_count());
    s += &super::perf_asserts(&ev, c.perf_sel_bits());
    s += &super::err_clr_assert("SB4", "err_underflow", "f_udf", "f_pl");
    s
}

/// The stall causes per group on the shadow counters, and `f_pl` (live, the previous edge was
/// not a reset).
const PERF_DECL: &str = r#"    // SB3: per group, some tracker of iss_dep_mask busy; tracker iss_trk at its maximum
    wire [NTG-1:0] f_g_dep_busy, f_g_at_max;
    generate
        for (g = 0; g < NTG; g = g + 1) begin : gpf
            assign f_g_dep_busy[g] = (@DEP@ & ~f_zero[g*NTRK +: NTRK]) != 0;
            assign f_g_at_max[g] = |(f_trk_sel & f_full[g*NTRK +: NTRK]);
        end
    endgenerate
    reg f_prev_reset = 1'b1;
    always @(posedge clock) f_prev_reset <= reset;
    wire f_pl = f_live && !f_prev_reset;
"#;

/// The two-set branch's assert and covers (`branch_sets` 2).
const TWO_SET_BR: &str = r#"        // Ports br_*: each set satisfied when its trackers are zero; br_go = a | b; br_sel_b = !a & b (A wins a tie)
        a_br: assert (br_sat_a == f_sat_a && br_sat_b == f_sat_b
                      && br_go == (br_sat_a || br_sat_b) && br_sel_b == (!br_sat_a && br_sat_b));
        c_br: cover (br_sel_b && br_mask_a != 0);
        c_br_tie: cover (br_sat_a && br_sat_b && br_mask_a != 0 && br_mask_b != 0);
"#;

/// The checker's body after the configuration localparams (NTG, NTRK, CW, NCPL, TGW, TKW, NC, TRK_MAX).
const BODY: &str = r#"    // ---- shadow state, kept from the handshakes only ----
    wire [NC*CW-1:0] sh_cnt;   // counter (g,t) at [(g*NTRK+t)*CW +: CW]
    wire [NC-1:0] sh_wait;     // wait mask of g at [g*NTRK +: NTRK]
    reg sh_err;                // err_underflow
    wire [NC-1:0] f_zero, f_full, f_le, f_atmax_req, f_dec2, f_incdec, f_decfire, f_udf_c, f_to_max;
    wire [NTG-1:0] f_idle, f_fetch@GATEDECL@;
    wire [NCPL-1:0] f_cpl_bad;
    function [3:0] f_popc;
        input [NCPL-1:0] v;
        integer k;
        begin
            f_popc = 0;
            for (k = 0; k < NCPL; k = k + 1) f_popc = f_popc + v[k];
        end
    endfunction
    genvar g, t, p;
    generate
        // Deviations (ids that name nothing): a completion naming no counter is an underflow
        for (p = 0; p < NCPL; p = p + 1) begin : gp
            assign f_cpl_bad[p] = cpl_valid[p] && (cpl_tg[p*TGW +: TGW] >= NTG || cpl_trk[p*TKW +: TKW] >= NTRK);
        end
        for (g = 0; g < NTG; g = g + 1) begin : gg
            wire clr = clr_valid && clr_tg == g;
            for (t = 0; t < NTRK; t = t + 1) begin : gt
                localparam I = g * NTRK + t;
                wire [CW-1:0] mx = TRK_MAX[t*CW +: CW];
                reg [CW-1:0] c;
                reg w;
                wire [NCPL-1:0] hit;
                for (p = 0; p < NCPL; p = p + 1) begin : gh
                    assign hit[p] = cpl_valid[p] && cpl_tg[p*TGW +: TGW] == g && cpl_trk[p*TKW +: TKW] == t;
                end
                wire [3:0] dec = f_popc(hit);
                wire inc = iss_fire && iss_trk_en && iss_tg == g && iss_trk == t;
                wire [CW:0] sum = c + inc;
                always @(posedge clock) begin
                    if (reset || clr || dec > sum) c <= 0;
                    else c <= sum - dec;
                    if (reset || clr) w <= 1'b0;
                    else if (iss_fire && iss_tg == g) w <= iss_nxt_mask[t];
                end
                assign sh_cnt[I*CW +: CW] = c;
                assign sh_wait[I] = w;
                assign f_udf_c[I] = dec > sum;
                assign f_zero[I] = c == 0;
                assign f_full[I] = c >= mx;
                assign f_le[I] = cnt_flat[I*CW +: CW] <= mx;
                assign f_atmax_req[I] = cnt_flat[I*CW +: CW] == mx && iss_valid && iss_trk_en && iss_tg == g && iss_trk == t;
                assign f_to_max[I] = inc && c + 1 == mx;
                assign f_dec2[I] = dec >= 2 && c != 0;
                assign f_incdec[I] = inc && dec != 0 && c != 0;
                assign f_decfire[I] = dec != 0 && c != 0 && iss_fire;
            end
            assign f_idle[g] = &f_zero[g*NTRK +: NTRK];
@FETCH@        end
    endgenerate
    wire f_udf = |f_udf_c || |f_cpl_bad;   // an underflow this cycle
    always @(posedge clock) sh_err <= !reset && (sh_err@ERRCLR@ || f_udf);
    // the expected answers of the issue port and the queries, from the shadow state
    // (one-hot selections, no variable indexing)
    wire [NTG-1:0] f_iss_sel, f_chk_sel, f_br_sel, f_clr_sel, f_g_deps, f_g_below, f_g_chk, f_g_sat_a, f_g_sat_b;
    wire [NTRK-1:0] f_trk_sel;
@FENCEDECL@    generate
        for (t = 0; t < NTRK; t = t + 1) begin : gs
            assign f_trk_sel[t] = iss_trk == t;
        end
        for (g = 0; g < NTG; g = g + 1) begin : gq
            wire [NTRK-1:0] z = f_zero[g*NTRK +: NTRK];
            assign f_iss_sel[g] = iss_tg == g;
            assign f_chk_sel[g] = chk_tg == g;
            assign f_br_sel[g] = br_tg == g;
            assign f_clr_sel[g] = clr_valid && clr_tg == g;
            assign f_g_deps[g] = f_fetch[g] && (@DEP@ & ~z) == 0;
            assign f_g_below[g] = |(f_trk_sel & ~f_full[g*NTRK +: NTRK]);
            assign f_g_chk[g] = (chk_mask & ~z) == 0;
            assign f_g_sat_a[g] = (br_mask_a & ~z) == 0;
            assign f_g_sat_b[g] = (br_mask_b & ~z) == 0;
        end
    endgenerate
    wire f_tg_ok = |f_iss_sel;     // iss_tg names a group
    wire f_trk_ok = |f_trk_sel;    // iss_trk names a tracker
    wire f_deps_ok = |(f_iss_sel & f_g_deps);
    wire f_below = |(f_iss_sel & f_g_below);
    wire f_ready = f_deps_ok && (!iss_trk_en || f_below);
    wire f_chk = |(f_chk_sel & f_g_chk);
    wire f_sat_a = |(f_br_sel & f_g_sat_a);
    wire f_sat_b = |(f_br_sel & f_g_sat_b);
@BRDECL@    wire f_iss_to_max = |f_to_max;
    reg f_prev_busy;   // in the last cycle some counter was non-zero or err_underflow was set
    always @(posedge clock) f_prev_busy <= !(&tg_idle) || err_underflow;

    always @(posedge clock) if (f_live) begin
        // Ports/Latency: cnt_flat is the counter state; a counter changes only by its own issue (+1)
        // and completions (-1 each) of the last cycle, cnt' = max(0, cnt + inc - completions); clr and reset zero it
        a_cnt_match: assert (cnt_flat == sh_cnt);
        c_cnt_match: cover (|f_decfire);
@INCDEC@@DEC2@        // spec 2.2 saturation [0039]: each counter stays between 0 and max_count of its tracker
        a_cnt_le_max: assert (&f_le);
        c_cnt_le_max: cover (|f_atmax_req);
        // Ports iss_ready: fetch_ok[iss_tg] & all of iss_dep_mask zero & (!iss_trk_en | tracker below max_count);
        // Deviations: 0 for a thread-group id naming no group
        a_iss_ready: assert (!f_tg_ok ? !iss_ready : (iss_trk_en && !f_trk_ok) ? (!iss_ready || f_deps_ok) : iss_ready == f_ready);
        c_iss_ready: cover (iss_valid && iss_trk_en && f_deps_ok && f_trk_ok && !f_below);
        // Ports iss_fire = iss_valid & iss_ready
        a_iss_fire: assert (iss_fire == (iss_valid && iss_ready));
        c_iss_fire: cover (iss_valid && !iss_ready && !f_deps_ok);
@FENCECOV@        // Fig. 4 / spec 6.6: an issue is accepted only when its dependency set is satisfied, its group may
        // fetch, and the counter it increments is below its maximum
        a_iss_accept: assert (!iss_fire || (f_tg_ok && f_deps_ok && (!iss_trk_en || !f_trk_ok || f_below)));
        c_iss_accept: cover (f_iss_to_max);
        // Ports fetch_ok: bit g is 1 iff every tracker in g's wait mask (the last fired iss_nxt_mask) is zero
        a_fetch_ok: assert (fetch_ok == f_fetch);
        c_fetch_ok: cover (!(&fetch_ok));
@GATECOV@        // Ports chk_ok: every tracker of chk_mask in chk_tg is zero (0 for a group id naming nothing)
        a_chk_ok: assert (chk_ok == f_chk);
        c_chk_ok: cover (!chk_ok && |f_chk_sel);
@BR@        c_br_stall: cover (!br_go);
        // Ports trk_zero / trk_full / tg_idle: counter zero, counter >= max_count[t], all counters of g zero
        a_trk_flags: assert (trk_zero == f_zero && trk_full == f_full && tg_idle == f_idle);
        c_trk_flags: cover (|trk_full);
        // Ports err_underflow: sticky; set exactly when a completion found no outstanding instruction
        // (count + issue < completions) or named no counter (Deviations), cleared only by reset
        a_err_underflow: assert (err_underflow == sh_err);
        c_err_underflow: cover (f_udf && !err_underflow);
@BADID@        // Deviations (clearing a busy group): clr zeroes the group's counters and wait mask, over its issue and completions
        a_clr: assert (!(f_past && $past(f_live)) || ($past(f_clr_sel) & ~(tg_idle & fetch_ok)) == 0);
        c_clr: cover (f_past && $past(f_live && |(f_clr_sel & ~tg_idle & f_iss_sel) && iss_fire));
        // Ports reset: in the first cycle after a reset every counter, wait mask and err_underflow is 0
        a_reset: assert (!(f_past && $past(reset)) || (cnt_flat == 0 && !err_underflow && &trk_zero && trk_full == 0
                      && &tg_idle && &fetch_ok));
        c_reset: cover (f_past && $past(reset) && $past(f_prev_busy));
    end
"#;
