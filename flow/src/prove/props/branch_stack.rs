//! The properties of `branch_stack`, written from docs/blocks/branch_stack.md (its contract: ports,
//! timing, deviations) and the spec (/work/shared/spec/branch_stack.md §4.4, §5.5, Appendix B), never
//! from the RTL.
//!
//! The checker keeps a shadow stack from the inputs alone (Appendix B's reference model, with the
//! contract's Latency order: the branch's pops on the stack as it was at the start of the cycle,
//! then the selected producer's pop, then its push; a pop of an empty stack clamps, a push onto a full
//! stack drops the bottom entry) and the four sticky flags, and compares the outputs with it.
//!
//! Properties (label: statement — rule):
//! * `a_cnt`: `cc_cnt` equals the shadow occupancy (pushes minus pops since reset as the rules apply
//!   them) and never exceeds `depth` — Ports `cc_cnt`, Latency, B19/B20.
//! * `a_cc_r`, `a_cc_s`: R and S (and their valid bits) are the shadow's top two entries (0 when
//!   absent). As every entry reaches the top only through pops, these compare every entry below the
//!   top with the shadow when it surfaces: an overflow or underflow corrupts no other entry
//!   — Ports `cc_r`/`cc_s`, B3–B6, B19, B20.
//! * `a_br_taken`: `de_br_vld` and the condition (simple: `cc_r[sel] == pol`; compound:
//!   `op(R.f, S.g)`, f/g 0 N 1 Z, op AND/OR/XOR/XNOR) on the stack as it was at the start of the cycle
//!   — Ports `br_taken`, spec §5.3/§5.5.2, Deviations (empty operands read as 0).
//! * `a_br_target`: `de_pc + sext(de_off)` mod 2^PC_W — Ports `br_target`.
//! * `a_npc`: `npc = pc + pc_increment` — Ports `npc`.
//! * `a_pc`: the PC takes `ex_t1pc` over `t0pc_q` over `npc` and holds on `pc_hold` — Ports `pc`,
//!   Fig. 13, B23.
//! * `a_t0`: `branch_t0_q`/`t0pc_q` are last cycle's `br_taken`/`br_target`, held on `pc_hold`
//!   — Ports, Deviations (a branch while `pc_hold`).
//! * `a_err_ovf`, `a_err_udf`, `a_err_port`, `a_err_multi`: each sticky flag equals the shadow flag:
//!   set exactly on its event (push onto a full stack; more pops than entries; a compound branch and
//!   a producer pop; more than one non-DN producer), cleared by `err_clr` unless set in that cycle
//!   — Ports `err_*`, B19–B22, spec §5.5.8, Deviations (DN producers).
//! * `producer_conflict = "stall"` (rule S1): the shadow arbitration is the same, but nothing is
//!   dropped, so `a_err_port`/`a_err_multi` state that both flags stay 0, and
//!   * `a_ready_<k>`: `cc_ready[k]` is exactly rule S1: 1 for an idle or DN stage and for the oldest
//!     active stage unless the port limit holds it, 0 for every other active stage — so a stage is
//!     held only when an older producer won or the port limit struck;
//!   * `a_ready_applied`: the stage that is ready with a non-DN op is the one whose op the shadow
//!     applies (the shadow stack, compared by `a_cnt`/`a_cc_r`/`a_cc_s`, applies exactly that op:
//!     an accepted op is applied).
//! * `compound_flags = "cnvz"`: `de_br_f`/`de_br_g` are 2-bit CC bit indices in `a_br_taken`.
//! * `perf_counters` (rule P1, docs/perf.md): `a_perf_reset`, `a_perf_none` (an index >= 10
//!   reads 0) and `a_perf_count` (a counter read at one index in two cycles moved by exactly
//!   its event, 0 or 1, saturating, or is 0 after `perf_clr`), the shared asserts of
//!   `props::perf_asserts`, fed with the shadow's events: `f_pu`, `f_pe` (as applied),
//!   `de_br_vld`, the decision, a `cc_ready` bit 0 (0 at "drop"), `pc_hold`, and the four
//!   flags' set conditions. `err_clr` is already in `a_err_*`.
//! * `a_reset`: the first cycle after reset: empty stack, `pc = reset_pc`, `branch_t0_q = 0`,
//!   `t0pc_q = 0`, flags 0 — Ports `reset`, Deviations.
//! * `thread_groups` > 1 (rules G1–G7; [`SPLICES`]): the shadow keeps every group's stack and
//!   PC. The stack properties above compare group `de_tg`'s (G2): the branch's pops, and the
//!   producer's op when it is of that group (a producer of another group changes its own
//!   stack as it was at the start of the cycle, G4; the port limit, `a_err_port` and S1's
//!   `cc_ready` hold only within one group, G3); `err_ovf` / `err_udf` are set by any group.
//!   `a_pc` states that `pc` is group `fe_tg`'s shadow PC (G5: `ex_t1pc` of group `ex_tg` over
//!   the T0 target of the T0 group over `+ pc_increment` of the fetched group, held on
//!   `pc_hold`; G7: a restore over all), and:
//!   * `a_t0_tg`: `t0_tg_q` is the `de_tg` of the last cycle not held — G5;
//!   * `a_sv`: `sv_cnt`, `sv_stack` (0 from the count on) and `sv_pc` are group `sv_tg`'s — G6;
//!   * covers `c_port_other` (a compound branch beside a producer pop of another group, which is
//!     applied), `c_restore` (a clamped restore of a group with an op in the same cycle), `c_sv`,
//!     `c_pc_group` — G3, G7, G6, G5.
//!
//! Every assert has a cover `c_<name>` of its interesting case (an overflow drained back to the
//! last entry, a refill after an underflow, T1 over a pending T0, a branch while `pc_hold`, a flag
//! set in the cycle of `err_clr`, a PP suppressed by the port limit, …).
//!
//! Assumptions: none. The spec's "no branch while `pc_hold`" is lifted by Deviations, and the
//! contract states no other driver obligation; every input is free.
//!
//! Only bounded: entries below S are not visible at the ports (a wrong deep entry stays hidden
//! while nothing pops), so k-induction cannot close `a_cc_r`/`a_cc_s`; the run reports every assert
//! as bounded to the depth. At `depth = 2` both entries are visible and the induction closes (proved).

use warpgen_rtl::config::BranchStackConfig;
use warpgen_rtl::Emitted;

/// The checker module `warpgen_branch_stack_props` for this config.
pub fn props(c: &BranchStackConfig, e: &Emitted) -> String {
    let pw = c.pc_width;
    let mut s = super::header(e);
    s += "    // ---- configuration (docs/config.md) ----\n";
    s += &format!(
        "    localparam DEPTH = {}, NSRC = {}, PC_W = {pw}, OFF_W = {}, CNT_W = {};\n",
        c.depth,
        c.producer_stages,
        c.offset_width,
        super::width(e, "cc_cnt")
    );
    s += &format!("    localparam [PC_W-1:0] PC_INC = {pw}'d{}, RESET_PC = {pw}'d{};\n", c.pc_increment, c.reset_pc);
    if c.thread_groups > 1 {
        s += &format!("    localparam NTG = {}, TGW = {};   // thread_groups, its id bits\n", c.thread_groups, c.tg_bits());
    }
    s += "\n";
    // With one producer stage err_multi cannot rise: cover a lone producer that leaves it at 0.
    let multi = if c.producer_stages >= 2 {
        "        c_err_multi: cover (f_multi && !err_multi);\n"
    } else {
        "        c_err_multi: cover (cc_vld[0] && cc_sop[1:0] != 2'd0 && !err_multi);\n"
    };
    let stall = c.stall();
    let multi = if stall {
        "        c_err_multi: cover (f_multi && !err_multi);\n".to_string()
    } else {
        multi.to_string()
    };
    // compound_flags: the bit of R and of S a compound branch selects.
    let flags = if c.cnvz() {
        "        f_a = f_r[de_br_f];\n        f_b = f_s[de_br_g];\n"
    } else {
        "        f_a = de_br_f ? f_r[0] : f_r[2];\n        f_b = de_br_g ? f_s[0] : f_s[2];\n"
    };
    let mut body = BODY.to_string();
    for (key, one, groups) in SPLICES {
        body = body.replace(key, if c.thread_groups > 1 { groups } else { one });
    }
    let body = body
        .replace("@MULTI@", &multi)
        .replace("@FLAGS@", flags)
        .replace("@STALL@", if stall { "1'b1" } else { "1'b0" })
        .replace("@READY@", &if stall { STALL.replace("@READY_K@", &ready_k(c.producer_stages)) } else { String::new() });
    s += &body;
    if c.perf_counters {
        s += &super::perf_asserts(&perf_events(stall), c.perf_sel_bits());
    }
    s += "endmodule\n";
    s
}

/// The checker's body after the configuration localparams (DEPTH, NSRC, PC_W, OFF_W, CNT_W, PC_INC, RESET_PC).
const BODY: &str = r#"    localparam F_STALL = @STALL@;   // producer_conflict = "stall"
    // ---- shadow stack (Appendix B / Latency), kept from the inputs only ----
@SH_DECL@    reg sh_ovf, sh_udf, sh_port, sh_multi;
    reg [4*DEPTH-1:0] nx_e;
    reg [CNT_W-1:0] nx_cnt;
    reg [3:0] f_r, f_s, f_val;
    reg [1:0] f_op, f_kd, f_nact;
    reg [2:0] f_p;
    reg f_a, f_b, f_cond, f_pe, f_pu, f_multi, f_port, f_udf, f_ovf;
    integer k;
    integer f_win;
    always @(*) begin
        f_r = sh_cnt > 0 ? sh_e[3:0] : 4'd0;
        f_s = sh_cnt > 1 ? sh_e[7:4] : 4'd0;
        // branch condition on the stack as it was at the start of the cycle (Ports br_taken, spec 5.5.2)
@FLAGS@        case (de_br_op)
            2'd0: f_cond = f_a & f_b;
            2'd1: f_cond = f_a | f_b;
            2'd2: f_cond = f_a ^ f_b;
            default: f_cond = !(f_a ^ f_b);
        endcase
        if (!de_br_cmp) f_cond = f_r[de_br_sel] == de_br_pol;
        f_kd = !de_br_vld ? 2'd0 : de_br_cmp ? 2'd2 : 2'd1;
        // producer arbitration: the oldest (highest index) non-DN producer wins (B22; DN is no producer)
        f_nact = 0;
        f_op = 2'd0;
        f_val = 4'd0;
        for (k = 0; k < NSRC; k = k + 1)
            if (cc_vld[k] && cc_sop[2*k +: 2] != 2'd0) begin
                if (f_nact != 2'd2) f_nact = f_nact + 1;
                f_op = cc_sop[2*k +: 2];
                f_val = cc_val[4*k +: 4];
            end
        f_multi = f_nact > 1;
        // the winning stage (rule S1's "oldest active")
        f_win = 0;
        for (k = 0; k < NSRC; k = k + 1)
            if (cc_vld[k] && cc_sop[2*k +: 2] != 2'd0) f_win = k;
@GP@        f_pe = f_op == 2'd1 || f_op == 2'd3;
        f_pu = f_op == 2'd2 || f_op == 2'd3;
        // port limit (B21): more than two pops suppress the producer's op
        f_port = f_kd == 2'd2 && f_pe@SAME@;
        if (f_port) begin
            f_pe = 1'b0;
            f_pu = 1'b0;
        end
@NEXT@    end
    always @(posedge clock) begin
        if (reset) begin
@SH_RESET@            sh_ovf <= 1'b0;
            sh_udf <= 1'b0;
            sh_port <= 1'b0;
            sh_multi <= 1'b0;
        end else begin
@SH_UPDATE@            sh_ovf <= f_ovf || (sh_ovf && !err_clr);
            sh_udf <= f_udf || (sh_udf && !err_clr);
            // producer_conflict = "stall" (rule S1): nothing is dropped, neither flag is ever set
            sh_port <= !F_STALL && (f_port || (sh_port && !err_clr));
            sh_multi <= !F_STALL && (f_multi || (sh_multi && !err_clr));
        end
    end
    // an overflow happened since reset and the stack has since been drained to one entry:
    // the entries below the top at the overflow have all been read back as the top
    reg f_ovf_seen, f_ovf_drained, f_udf_refill;
    always @(posedge clock) begin
        if (reset) begin
            f_ovf_seen <= 1'b0;
            f_ovf_drained <= 1'b0;
            f_udf_refill <= 1'b0;
        end else begin
            if (f_ovf) f_ovf_seen <= 1'b1;
            if (f_ovf_seen && sh_cnt == 1 && !f_pu && f_p == 1) f_ovf_drained <= 1'b1;
            if (f_udf && f_pu) f_udf_refill <= 1'b1;
        end
    end
    reg f_prev_dirty;   // in the last cycle the stack was non-empty, or a flag or branch_t0_q was set
    always @(posedge clock) f_prev_dirty <= cc_r_vld || err_ovf || err_udf || err_port || err_multi || branch_t0_q;

    wire signed [OFF_W-1:0] f_off = de_off;
    wire [PC_W-1:0] f_off_x = f_off;   // sign-extended
@GROUP_STATE@
    always @(posedge clock) if (f_live) begin
        // Ports cc_cnt (pointer 215): the occupancy is the pushes minus the pops since reset as the
        // Latency rules apply them (branch pops, then the producer's pop, then its push; a pop of an
        // empty stack and a push onto a full one leave it at 0 and DEPTH), never above DEPTH
        a_cnt: assert (cc_cnt == sh_cnt && cc_cnt <= DEPTH);
        c_cnt: cover (cc_cnt == DEPTH && f_pu && f_p == 0);
        // Ports cc_r / cc_r_vld: the top entry of the shadow stack (0 when empty); with a_cc_s this compares
        // every entry with the shadow as it reaches the top, so an overflow or underflow corrupts no entry below
        a_cc_r: assert (cc_r == f_r && cc_r_vld == (sh_cnt != 0));
        c_cc_r: cover (f_ovf_drained);
        c_cc_r_udf: cover (f_udf_refill && cc_cnt == 1 && de_br_vld);
        // Ports cc_s / cc_s_vld: the second entry (0 when absent)
        a_cc_s: assert (cc_s == f_s && cc_s_vld == (sh_cnt > 1));
        c_cc_s: cover (f_ovf_seen && cc_s_vld && f_kd == 2);
        // Ports br_taken: de_br_vld and the condition (simple: cc_r[sel] == pol; compound: op(R.f, S.g))
        // on the stack as it was at the start of the cycle
        a_br_taken: assert (br_taken == (de_br_vld && f_cond));
        c_br_taken: cover (br_taken && de_br_cmp && f_pu);
        // Ports br_target = de_pc + sext(de_off) mod 2^PC_W
        a_br_target: assert (br_target == de_pc + f_off_x);
        c_br_target: cover (de_off[OFF_W-1] && de_br_vld);
        // Ports npc = pc + pc_increment (adder 1306)
        a_npc: assert (npc == pc + PC_INC);
        c_npc: cover (pc != RESET_PC);
        // Ports pc / Fig. 13 mux (B23): the PC takes ex_t1pc over t0pc_q over npc; it holds on pc_hold
@A_PC@        c_pc: cover (f_past && $past(f_live && !pc_hold && ex_branch_t1 && branch_t0_q && ex_t1pc != t0pc_q));
        c_pc_t0: cover (f_past && $past(f_live && !pc_hold && !ex_branch_t1 && branch_t0_q && t0pc_q != npc));
        c_pc_hold: cover (f_past && $past(f_live && pc_hold && (ex_branch_t1 || branch_t0_q)));
        // Ports branch_t0_q / t0pc_q: last cycle's br_taken and br_target (BRANCH_T0, T0PC); they hold on pc_hold
        a_t0: assert (!(f_past && $past(f_live)) || ($past(pc_hold) ? branch_t0_q == $past(branch_t0_q) && t0pc_q == $past(t0pc_q)
                      : branch_t0_q == $past(br_taken) && t0pc_q == $past(br_target)));
        c_t0: cover (f_past && $past(f_live && pc_hold && br_taken));
        // Ports err_ovf: sticky; set exactly when a push found the stack full (the bottom entry dropped);
        // err_clr clears it, a set in the same cycle wins
        a_err_ovf: assert (err_ovf == sh_ovf);
        c_err_ovf: cover (f_past && $past(f_live && f_ovf && err_clr));
        // Ports err_udf: sticky; set exactly when a cycle has more pops than entries
        a_err_udf: assert (err_udf == sh_udf);
        c_err_udf: cover (f_udf && f_kd == 2 && cc_cnt == 1);
        // Ports err_port: sticky; set exactly when a compound branch and a producer pop meet (the op is suppressed)
        a_err_port: assert (err_port == sh_port);
        c_err_port: cover (f_port && f_op == 2'd3);
        // Ports err_multi: sticky; set exactly when more than one producer has a non-DN op (the oldest wins)
        a_err_multi: assert (err_multi == sh_multi);
@MULTI@@READY@@GROUP_ASSERTS@        // Ports reset: the first cycle after reset has an empty stack, pc = reset_pc, branch_t0_q = 0,
        // t0pc_q = 0 and the flags 0 (Deviations: reset also clears t0pc_q)
        a_reset: assert (!(f_past && $past(reset)) || (cc_cnt == 0 && !cc_r_vld && !cc_s_vld && cc_r == 0 && cc_s == 0
                      && pc == RESET_PC && !branch_t0_q && t0pc_q == 0 && !err_ovf && !err_udf && !err_port && !err_multi));
        c_reset: cover (f_past && $past(reset) && $past(f_prev_dirty));
    end
"#;

/// The parts of [`BODY`] that differ with `thread_groups` > 1 (rules G1–G7 of
/// docs/blocks/branch_stack.md): `(placeholder, text at one group, text with groups)`. The
/// text at one group is the checker as it was before groups existed, byte for byte.
///
/// With groups the shadow keeps every group's stack (`sh_e_all`, `sh_cnt_all`, group g at
/// slice g) and PC (`sh_pc_all`), and `sh_e` / `sh_cnt` are group `de_tg`'s, so every
/// property of one stack (`a_cnt`, `a_cc_r`, `a_cc_s`, `a_br_taken`, the flags, the counters)
/// now states G2–G4 for the branch's group: the branch's pops, and the producer's op when it
/// is of group `de_tg` (B24); a producer of another group changes that group's stack as it
/// was at the start of the cycle (G4), and the port limit applies only within one group
/// (G3). A restore (G7) loads a group's count min(`rs_cnt`, depth), its entries (0 from that
/// count on) and its PC over everything else of that group in the cycle.
const SPLICES: [(&str, &str, &str); 9] = [
    (
        "@SH_DECL@",
        "    reg [4*DEPTH-1:0] sh_e;    // entry k (k = 0 the top) at [4k +: 4]\n    reg [CNT_W-1:0] sh_cnt;\n",
        r#"    // rule G1: every group's stack (group g at [4*DEPTH*g +: 4*DEPTH], entry k at [4k +: 4] of
    // it, k = 0 the top) and count, and PC; sh_e / sh_cnt are group de_tg's (rule G2)
    reg [NTG*4*DEPTH-1:0] sh_e_all;
    reg [NTG*CNT_W-1:0] sh_cnt_all;
    reg [NTG*PC_W-1:0] sh_pc_all;
    wire [4*DEPTH-1:0] sh_e = sh_e_all[4*DEPTH*de_tg +: 4*DEPTH];
    wire [CNT_W-1:0] sh_cnt = sh_cnt_all[CNT_W*de_tg +: CNT_W];
    // the producer's group (rule G3), and whether it is the branch's; its own stack's next state
    // when it is not (rule G4); a restore's count and entries (rule G7)
    reg [TGW-1:0] f_gp;
    reg f_same, f_q, f_udf_p, f_ovf_p;
    reg [4*DEPTH-1:0] f_pg_e, np_e, f_rs_e;
    reg [CNT_W-1:0] f_pg_cnt, np_cnt, f_rs_cnt;
"#,
    ),
    ("@GP@", "", "        f_gp = cc_tg[TGW*f_win +: TGW];\n        f_same = f_gp == de_tg;\n"),
    ("@SAME@", "", " && f_same"),
    (
        "@NEXT@",
        r#"        f_p = f_kd + f_pe;
        f_udf = f_p > sh_cnt;
        if (f_udf) f_p = sh_cnt;
        nx_e = sh_e >> (4 * f_p);
        nx_cnt = sh_cnt - f_p;
        f_ovf = f_pu && nx_cnt == DEPTH;
        if (f_pu) begin
            nx_e = {nx_e[4*DEPTH-5:0], f_val};
            if (!f_ovf) nx_cnt = nx_cnt + 1;
        end
"#,
        r#"        // rule G4: group de_tg's stack: the branch's pops, then the producer's op if it is of this group
        f_p = f_kd + (f_same ? f_pe : 1'b0);
        f_udf = f_p > sh_cnt;
        if (f_udf) f_p = sh_cnt;
        nx_e = sh_e >> (4 * f_p);
        nx_cnt = sh_cnt - f_p;
        f_ovf = f_same && f_pu && nx_cnt == DEPTH;
        if (f_same && f_pu) begin
            nx_e = {nx_e[4*DEPTH-5:0], f_val};
            if (!f_ovf) nx_cnt = nx_cnt + 1;
        end
        // rule G4: a producer of another group acts on its own stack as it was at the start of the cycle
        f_pg_e = sh_e_all[4*DEPTH*f_gp +: 4*DEPTH];
        f_pg_cnt = sh_cnt_all[CNT_W*f_gp +: CNT_W];
        f_q = !f_same && f_pe;
        f_udf_p = f_q && f_pg_cnt == 0;
        np_e = f_q ? f_pg_e >> 4 : f_pg_e;
        np_cnt = (f_q && !f_udf_p) ? f_pg_cnt - 1 : f_pg_cnt;
        f_ovf_p = !f_same && f_pu && np_cnt == DEPTH;
        if (!f_same && f_pu) begin
            np_e = {np_e[4*DEPTH-5:0], f_val};
            if (!f_ovf_p) np_cnt = np_cnt + 1;
        end
        // err_ovf / err_udf: any group's stack (rule G4)
        f_udf = f_udf || f_udf_p;
        f_ovf = f_ovf || f_ovf_p;
        // rule G7: the restored count min(rs_cnt, depth) and the entries below it, 0 from it on
        f_rs_cnt = rs_cnt > DEPTH ? DEPTH : rs_cnt;
        for (k = 0; k < DEPTH; k = k + 1)
            f_rs_e[4*k +: 4] = k < f_rs_cnt ? rs_stack[4*k +: 4] : 4'd0;
"#,
    ),
    ("@SH_RESET@", "            sh_e <= 0;\n            sh_cnt <= 0;\n", "            sh_e_all <= 0;\n            sh_cnt_all <= 0;\n"),
    (
        "@SH_UPDATE@",
        "            sh_e <= nx_e;\n            sh_cnt <= nx_cnt;\n",
        r#"            // rule G4: the branch's group, and the producer's when it is another one; rule G7: a
            // restore wins for its group (the last assignment)
            sh_e_all[4*DEPTH*de_tg +: 4*DEPTH] <= nx_e;
            sh_cnt_all[CNT_W*de_tg +: CNT_W] <= nx_cnt;
            if (!f_same) begin
                sh_e_all[4*DEPTH*f_gp +: 4*DEPTH] <= np_e;
                sh_cnt_all[CNT_W*f_gp +: CNT_W] <= np_cnt;
            end
            if (rs_valid) begin
                sh_e_all[4*DEPTH*rs_tg +: 4*DEPTH] <= f_rs_e;
                sh_cnt_all[CNT_W*rs_tg +: CNT_W] <= f_rs_cnt;
            end
"#,
    ),
    (
        "@GROUP_STATE@",
        "",
        r#"    // rules G1, G5, G7: the shadow T0 registers and their group (from the inputs), and every
    // group's PC: unless pc_hold, ex_t1pc for group ex_tg on ex_branch_t1, else the T0 target for
    // the T0 group, else + pc_increment for the fetched group fe_tg, else held; a restore wins,
    // also over pc_hold
    reg f_t0;
    reg [PC_W-1:0] f_t0pc;
    reg [TGW-1:0] f_t0tg;
    reg [NTG*PC_W-1:0] nx_pc;
    integer f_g;
    always @(*) begin
        nx_pc = sh_pc_all;
        if (!pc_hold)
            for (f_g = 0; f_g < NTG; f_g = f_g + 1)
                if (ex_branch_t1 && ex_tg == f_g) nx_pc[PC_W*f_g +: PC_W] = ex_t1pc;
                else if (f_t0 && f_t0tg == f_g) nx_pc[PC_W*f_g +: PC_W] = f_t0pc;
                else if (fe_tg == f_g) nx_pc[PC_W*f_g +: PC_W] = sh_pc_all[PC_W*f_g +: PC_W] + PC_INC;
        if (rs_valid) nx_pc[PC_W*rs_tg +: PC_W] = rs_pc;
    end
    always @(posedge clock) begin
        if (reset) begin
            sh_pc_all <= {NTG{RESET_PC}};
            f_t0 <= 1'b0;
            f_t0pc <= 0;
            f_t0tg <= 0;
        end else begin
            sh_pc_all <= nx_pc;
            if (!pc_hold) begin
                f_t0 <= de_br_vld && f_cond;
                f_t0pc <= de_pc + f_off_x;
                f_t0tg <= de_tg;
            end
        end
    end
    // rule G6: the save read of group sv_tg, entries from its count on read 0
    wire [CNT_W-1:0] f_sv_cnt = sh_cnt_all[CNT_W*sv_tg +: CNT_W];
    reg [4*DEPTH-1:0] f_sv_e;
    integer f_h;
    always @(*)
        for (f_h = 0; f_h < DEPTH; f_h = f_h + 1)
            f_sv_e[4*f_h +: 4] = f_h < f_sv_cnt ? sh_e_all[4*DEPTH*sv_tg + 4*f_h +: 4] : 4'd0;
"#,
    ),
    (
        "@A_PC@",
        r#"        a_pc: assert (!(f_past && $past(f_live)) || pc == ($past(pc_hold) ? $past(pc) : $past(ex_branch_t1) ? $past(ex_t1pc)
                      : $past(branch_t0_q) ? $past(t0pc_q) : $past(npc)));
"#,
        r#"        // rule G2/G5: pc is group fe_tg's PC (the shadow's: T1 of its group over T0 of its group over
        // + pc_increment when it was fetched, each held on pc_hold, a restore over all)
        a_pc: assert (pc == sh_pc_all[PC_W*fe_tg +: PC_W]);
"#,
    ),
    (
        "@GROUP_ASSERTS@",
        "",
        r#"        // rule G5: t0_tg_q is the group of branch_t0_q / t0pc_q (de_tg of the last cycle not held)
        a_t0_tg: assert (t0_tg_q == f_t0tg);
        c_t0_tg: cover (branch_t0_q && t0_tg_q != fe_tg && t0_tg_q != 0);
        // rule G6: the save read is group sv_tg's count, entries (0 from the count on) and PC
        a_sv: assert (sv_cnt == f_sv_cnt && sv_stack == f_sv_e && sv_pc == sh_pc_all[PC_W*sv_tg +: PC_W]);
        c_sv: cover (sv_cnt == 2 && sv_tg != de_tg && sv_pc != RESET_PC);
        // rule G3: a compound branch and a producer pop of another group: the pop is applied
        c_port_other: cover (f_kd == 2 && f_pe && !f_same && f_pg_cnt != 0);
        // rule G7: a restore that clamps the count, of a group with an op in the same cycle
        c_restore: cover (rs_valid && rs_cnt > DEPTH && (rs_tg == de_tg && f_kd != 0 || rs_tg == fe_tg && !pc_hold));
        // rule G5: a group other than 0 fetched and redirected by its T0
        c_pc_group: cover (f_past && $past(f_live && !pc_hold && branch_t0_q && t0_tg_q != 0 && !ex_branch_t1));
"#,
    ),
];

/// The `cc_ready` asserts of `producer_conflict = "stall"` (rule S1).
const STALL: &str = r#"        // rule S1: an idle or DN stage is ready; an active stage is ready exactly when it is the
        // oldest active one and the port limit does not hold it (held only when an older producer
        // won or the port limit struck)
@READY_K@        // rule S1: a ready non-DN stage is the op the shadow applies (pe/pu from its sop), so an
        // accepted op is applied once, in the cycle it is ready
        a_ready_applied: assert (!(cc_vld[f_win] && cc_sop[2*f_win +: 2] != 2'd0 && cc_ready[f_win]) || (f_pe || f_pu));
        c_ready: cover (f_multi && f_port);
        c_ready_pair: cover (f_nact == 2'd2 && !f_port && de_br_vld);
"#;

/// Rule P1's events (docs/blocks/branch_stack.md, `perf_counters`) in `perf_sel` order, from
/// the shadow's own terms: the producer's pop and push as applied (after the port limit),
/// the branch and its decision, a held stage (some `cc_ready` bit 0, checked by
/// `a_ready_<k>`; 0 at "drop"), `pc_hold`, and what sets each sticky flag.
fn perf_events(stall: bool) -> Vec<String> {
    [
        "f_pu",
        "f_pe",
        "de_br_vld",
        "de_br_vld && f_cond",
        if stall { "cc_ready != {NSRC{1'b1}}" } else { "1'b0" },
        "pc_hold",
        "f_ovf",
        "f_udf",
        "!F_STALL && f_port",
        "!F_STALL && f_multi",
    ]
    .map(String::from)
    .to_vec()
}

/// `a_ready_<k>` for each producer stage k (rule S1).
fn ready_k(nsrc: i64) -> String {
    (0..nsrc)
        .map(|k| {
            format!(
                "        a_ready_{k}: assert (cc_ready[{k}] == (!(cc_vld[{k}] && cc_sop[{s} +: 2] != 2'd0) || ({k} == f_win && !f_port)));\n",
                s = 2 * k
            )
        })
        .collect()
}
