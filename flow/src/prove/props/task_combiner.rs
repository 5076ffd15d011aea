//! The properties of `task_combiner`, written from docs/contracts/task_combiner.md (and spec
//! §10.4–§10.7), never from the RTL: the checker sees the ports only.
//!
//! Asserts (label: statement, rule):
//! * `a_in_ready`: in_ready = !drain_req && (OPEN entry with the key || FREE entry), whatever in_valid (R2);
//! * `a_in_tag_lane`: an accepted instance gets tag(m), lane count[m] on a match, else entry f (lowest
//!   FREE) in the tag's low bits and lane 0 (R2);
//! * `a_drain_done`: drain_done = drain_req && no resident entry && !out_valid (R8);
//! * with `registered_input` (R2i) the checker keeps its own input register and every rule of
//!   the table reads it instead of the instance ports ([`registered_input`]): `a_in_ready` is
//!   the port's rule, `a_in_tag_valid`: in_tag_valid = the registered instance enters (then
//!   `a_in_tag_lane`), `a_drain_done` also waits for the register; covers `c_ir_wait`,
//!   `c_ir_drain`;
//! * `a_st_status`: st_valid = st_open | st_pending, open and pending disjoint (§10.4, D6);
//! * `a_one_open_per_key`: never two OPEN entries with one (stype, state) (§10.4 invariant, A1);
//! * `a_count_cap`: 1 <= count <= capacity[stype] in table and slot, OPEN below capacity (R9, A2);
//! * `a_dep_legal`: dep[i][j] only for resident i != j, same state, stype[j] in depends[stype[i]] (D3, A4);
//! * `a_tag_index`, `a_tags_distinct`: tag(e) = {gen, e}; resident and slot tags pairwise distinct (R2, A9);
//! * `a_out_lane_mask`: out_lane_mask = (1 << out_count) - 1 (R11, A6);
//! * `a_conserve`: for a freely chosen key K, instances of K accepted minus handed out (out_count at
//!   each handshake) = the counts of K in the table plus the slot (A7: none lost, none duplicated);
//! * `a_track_table`, `a_track_out`: the instance accepted at a freely chosen (entry, lane) stays in
//!   that entry with its key and tag until the entry moves, then is the slot task's lane with its own
//!   reference, key and tag until the handshake (A7, R9, R11);
//! * `a_out_reason`: out_reason is 1..5, FULL exactly when out_count = capacity (R9, R10);
//! * `a_next_created`: an entry becomes resident only by a create in the lowest FREE entry (R9);
//! * `a_issue`: an entry frees only by moving into the slot, one at a time, PENDING with an all-zero
//!   dep row, and one moves whenever the slot is free and one is eligible (R4);
//! * `a_issue_sort`: with sort_state, an eligible entry of the last issued state goes first (R4);
//!   with `registered_issue` (R4r) the pick is a cycle older, and `a_issue` checks only that a
//!   moving entry was eligible, one at a time; the pick's timing and order are left to lockstep;
//! * `a_issue_nodep`: no task leaves before a task it depends on (R4, D3);
//! * `a_next_pending`: PENDING stays PENDING; an OPEN entry closes exactly on FULL, DEP (one level;
//!   with `hold_producers`, R5h: it must close when a non-FULL dependent or a table with no
//!   FREE entry say so, and may when any PENDING entry depends on it, since the flush flags
//!   that end a FULL dependent's hold, and so the count of holding tasks, are not on the ports),
//!   RQFLUSH (post-edge lock bit) or DRAIN, or as the single EVICT victim (R3 condition, candidate,
//!   nodep_ restriction, fullest for fullest policies) (R3, R5, R7, R8, R9, R10);
//! * `a_next_entry`, `a_next_lockmask`, `a_next_tag`, `a_next_dep`: count/key, lock mask, tag and dep
//!   row after an append, a create, a lock and a move (R6, R9, D3);
//! * `a_out_valid`, `a_out_payload`: the slot is loaded with the moved entry (lock of this edge
//!   included) and held while not taken (R4, R6, R11);
//! * `a_out_hold`, `a_out_stable`: out_valid does not drop before out_ready; the payload (refs below
//!   out_count) is stable, the lock mask gains exactly the slot's locks (R11, R6);
//! * `a_lk_hit`: lk_hit = last cycle's lock matched a resident or the slot tag (R6);
//! * `a_rqf_accept`, `a_rqf_done`: after an accepted flush rqf_done/rqf_ready = snapshot empty,
//!   rqf_done_tpipe = its tpipe; rqf_done only after a flush or while busy, with rqf_ready (R7);
//! * `a_perf`: perf counters count handshakes and their lanes (R11);
//! * with `perf_counters` (rule P1 of docs/blocks/task_combiner.md, docs/perf.md; the shared
//!   `props::perf_asserts`): `a_perf_reset`, `a_perf_none` (an index >= 12 reads 0), `a_perf_count`
//!   (a counter read at one index in two cycles moved by exactly its event, 0 or 1, saturating, or
//!   is 0 after `perf_clr`), the events from the ports and the checker's own decisions;
//! * `a_reset`: after reset all FREE, slot empty, flush idle, lk_hit 0, counters 0 (R12).
//!
//! Assumptions: `m_in_stype_range`, `m_tpipe_range` (contract §3: out-of-range in_stype and tpipes
//! are driver protocol errors). Every other input is free (in_valid's payload need not be held).
//!
//! Only what the ports show is checked: the age order (oldest pick / victim), the pending reason
//! other than FULL, the flush flags of a busy flush (when rqf_done pulses) and gen of a FREE entry
//! live inside the block, and a checker tying its own copy of them to the block's makes bounded model
//! checking grow exponentially with depth; so they are checked through their visible consequences
//! (A9 distinct tags, FULL reason, fullest victim, snapshot-empty flush). The reference store and
//! those hidden registers keep k-induction from closing: the asserts are bounded, not proved.

use warpgen_rtl::config::TaskCombinerConfig;
use warpgen_rtl::emit::map_identifiers;
use warpgen_rtl::Emitted;

/// ceil(log2(n)) for n >= 1.
fn clog2(n: usize) -> usize {
    (usize::BITS - (n.max(1) - 1).leading_zeros()) as usize
}

/// The checker module `warpgen_task_combiner_props` for this config.
pub fn props(c: &TaskCombinerConfig, e: &Emitted) -> String {
    let w = |p: &str| super::width(e, p);
    let (n, lanes, ntp, nt, gw) = (c.entries as usize, c.width as usize, c.tile_pipes as usize, c.shader_types as usize, c.tag_gen_width as usize);
    let (sw, tw, cw) = (w("in_stype"), w("in_tag"), w("out_count"));
    let caps = c.capacities();
    let deps = c.depends_rows();
    // CAPS: type t at [t*CW +: CW]; DEPM: bit t*NT+u = type t consumes type u
    let caps_v: Vec<String> = caps.iter().rev().map(|k| format!("{cw}'d{k}")).collect();
    let mut depm = vec!['0'; nt * nt];
    for (t, row) in deps.iter().enumerate() {
        for &u in row {
            depm[nt * nt - 1 - (t * nt + u)] = '1';
        }
    }
    let depm: String = depm.into_iter().collect();
    let mut s = super::header(e);
    s += "    // configuration (constants of this checker)\n";
    s += &format!(
        "    localparam N = {n}, W = {lanes}, NTP = {ntp}, NT = {nt}, NT2 = {nt2}, STW = {stw}, RW = {rw}, GW = {gw};\n",
        nt2 = 1usize << sw,
        stw = w("in_state"),
        rw = w("in_ref")
    );
    s += &format!(
        "    localparam EW = {ew}, TW = {tw}, CW = {cw}, LW = {lw}, TPW = {tpw}, SW = {sw}, IW = {iw};\n",
        ew = tw - gw,
        lw = w("in_lane"),
        tpw = w("in_tpipe"),
        iw = clog2(n * lanes + lanes + 1)
    );
    s += &format!(
        "    localparam FULLEST = {}, NODEP = {}, SORT = {}, REG = {}, HOLD = {};\n",
        c.policy.ends_with("fullest") as u8,
        c.policy.starts_with("nodep") as u8,
        c.sort_state as u8,
        c.registered_issue as u8,
        c.hold_producers
    );
    s += &format!("    localparam [NT*CW-1:0] CAPS = {{{}}};\n", caps_v.join(", "));
    s += &format!("    localparam [NT*NT-1:0] DEPM = {}'b{depm};\n", nt * nt);
    let dt = c.dep_tag_count();
    let mut body = String::new();
    if dt == 0 {
        body += BODY;
    } else {
        // D3t: the instance's set is D3's restricted to the entries named by tag; a named
        // resident entry outside D3's set is illegal (`illg`, before excluding the target and
        // the entry moving out, which the transition check knows).
        body += &format!("    localparam DT = {dt};\n{DEP_TAGS_PRE}");
        let d3 = "dset[i0] = st_valid[i0] && st_state[i0*STW +: STW] == in_state && drow[st_stype[i0*SW +: SW]];";
        assert!(BODY.contains(d3), "the checker's D3 line moved");
        body += &BODY.replace(
            d3,
            "dset[i0] = st_valid[i0] && st_state[i0*STW +: STW] == in_state && drow[st_stype[i0*SW +: SW]] && named[i0];\n            \
             illg[i0] = st_valid[i0] && named[i0] && !(st_state[i0*STW +: STW] == in_state && drow[st_stype[i0*SW +: SW]]);",
        );
        body += DEP_TAGS_POST;
    }
    if c.registered_input {
        s += &registered_input(&body, dt);
    } else {
        s += &body;
    }
    if c.hold_producers > 0 {
        // R5h: a producer held across an edge while a PENDING consumer depends on it (only
        // with hold_producers: without it nothing reaches this).
        s += "    always @(posedge clock) if (f_step) begin\n        c_hold: cover ((p_open & p_pend_col & st_open) != 0);\n    end\n";
    }
    if c.perf_counters {
        // (`err_dep_ev`, with dep_tags, by the counter rule alone: its event needs the entry
        // moving out, which the checker knows one cycle later.)
        let mut ev: Vec<Option<String>> = perf_events().into_iter().map(Some).collect();
        ev.extend((dt > 0).then_some(None));
        s += &super::perf_asserts_partial(&ev, c.perf_sel_bits());
    }
    s += "endmodule\n";
    s
}

/// R2i (`registered_input`): the checker keeps its own input register (`ck_*`, loaded when
/// the port takes an instance, emptied when the instance enters), and the table's rules of
/// `body` read it instead of the instance ports: `in_valid` is `ck_v`, and `in_stype`,
/// `in_state`, `in_ref`, `in_tpipe`, `in_dep_vld`, `in_dep_tag` are its fields (the driver
/// assumptions stay on the ports). The instance enters while drain_req too (`exp_take`);
/// `in_ready` is the port's rule, `in_tag_valid` is the entry, and `drain_done` waits for the
/// register to empty.
fn registered_input(body: &str, dt: usize) -> String {
    let regs = [("in_valid", "ck_v"), ("in_stype", "ck_stype"), ("in_state", "ck_state"), ("in_ref", "ck_ref"), ("in_tpipe", "ck_tpipe"), ("in_dep_vld", "ck_dvld"), ("in_dep_tag", "ck_dtag")];
    let mut b = map_identifiers(body, |id| regs.iter().find(|(port, _)| *port == id).map_or(id, |(_, reg)| *reg).to_string());
    let mut edit = |from: &str, to: &str| {
        assert!(b.contains(from), "the checker's line moved: {from}");
        b = b.replacen(from, to, 1);
    };
    edit("m_in_stype_range: assume (ck_stype < NT);", "m_in_stype_range: assume (in_stype < NT);");
    edit("assume (ck_tpipe < NTP &&", "assume (in_tpipe < NTP &&");
    edit(
        "    wire exp_in_ready = !drain_req && (m_found || f_found);\n    wire acc = ck_v && exp_in_ready;",
        "    wire exp_take = m_found || f_found;\n    wire exp_in_ready = !drain_req && (!ck_v || exp_take);\n    wire acc = ck_v && exp_take;",
    );
    edit("        if (ck_v && in_ready)\n            a_in_tag_lane:", "        a_in_tag_valid: assert (in_tag_valid == acc);\n        if (acc)\n            a_in_tag_lane:");
    edit("c_in_tag_lane: cover (ck_v && in_ready && m_found && in_lane != 0);", "c_in_tag_lane: cover (acc && m_found && in_lane != 0);");
    edit("a_drain_done: assert (drain_done == (drain_req && st_valid == 0 && !out_valid));", "a_drain_done: assert (drain_done == (drain_req && st_valid == 0 && !out_valid && !ck_v));");
    // (DT is declared in `body`, after these.)
    let dtr = if dt > 0 { format!("    reg [{dt}-1:0] ck_dvld;\n    reg [{dt}*TW-1:0] ck_dtag;\n") } else { String::new() };
    let dtl = if dt > 0 { " ck_dvld <= in_dep_vld; ck_dtag <= in_dep_tag;" } else { "" };
    format!(
        "    // ---------------------------------------------------------------- R2i: the checker's input register\n    \
         reg ck_v;\n    reg [SW-1:0] ck_stype;\n    reg [STW-1:0] ck_state;\n    reg [RW-1:0] ck_ref;\n    reg [TPW-1:0] ck_tpipe;\n{dtr}\
         {b}    always @(posedge clock)\n        if (reset) ck_v <= 1'b0;\n        \
         else if (in_valid && exp_in_ready) begin\n            \
         ck_v <= 1'b1; ck_stype <= in_stype; ck_state <= in_state; ck_ref <= in_ref; ck_tpipe <= in_tpipe;{dtl}\n        end\n        \
         else if (acc) ck_v <= 1'b0;\n    \
         always @(posedge clock) if (f_live) begin\n        \
         // R2i: an instance waits in the register; one enters while drain_req\n        \
         c_ir_wait: cover (ck_v && !acc && in_valid);\n        c_ir_drain: cover (acc && drain_req);\n    end\n"
    )
}

/// Rule P1's events (docs/blocks/task_combiner.md, `perf_counters`) in `perf_sel` order, from the
/// ports and the checker's own decisions (`acc`, `hs`, `exp_in_ready`, `lk_e`, `lk_slot`,
/// `rqf_acc` of [`BODY`]): the two handshakes, the refusals, the tasks taken by reason, the lock
/// hits and the flushes accepted.
fn perf_events() -> Vec<String> {
    let mut ev: Vec<String> = ["acc", "hs", "in_valid && !exp_in_ready", "in_valid && drain_req", "out_valid && !out_ready"]
        .iter()
        .map(|e| e.to_string())
        .collect();
    ev.extend((1..=5).map(|r| format!("hs && out_reason == 3'd{r}")));
    ev.extend(["(|lk_e) || lk_slot", "rqf_acc"].map(String::from));
    assert_eq!(ev.len(), 12);
    ev
}

/// D3t's declarations, before [`BODY`] (which ANDs `named` into its D3 set and writes
/// `illg`): `named[j]` = one of the instance's producer tags equals entry j's tag.
const DEP_TAGS_PRE: &str = r#"    // ---------------------------------------------------------------- D3t (dep_tags)
    reg [N-1:0] named, illg;
    integer d0, k0;
    always @(*) begin
        for (d0 = 0; d0 < N; d0 = d0 + 1) begin
            named[d0] = 1'b0;
            for (k0 = 0; k0 < DT; k0 = k0 + 1)
                if (in_dep_vld[k0] && in_dep_tag[k0*TW +: TW] == st_tag[d0*TW +: TW]) named[d0] = 1'b1;
        end
    end
"#;

/// D3t's `err_dep` (after [`BODY`]): set at an edge where the accepted instance named a
/// resident entry outside D3's set that is neither its target nor the entry moving out (the
/// moved entry is known one cycle later, `moved`); sticky; `err_clr` clears it unless the edge
/// sets it; 0 after reset.
const DEP_TAGS_POST: &str = r#"    reg [N-1:0] p_illg;
    reg p_err_dep, p_err_clr;
    always @(posedge clock) begin
        p_illg <= acc ? illg & ~into & ~cr : {N{1'b0}};
        p_err_dep <= err_dep; p_err_clr <= err_clr;
    end
    always @(posedge clock) if (f_live) begin
        if (f_after_reset) a_err_dep_reset: assert (!err_dep);
        if (f_step) begin
            a_err_dep: assert (err_dep == ((|(p_illg & ~moved)) || (p_err_dep && !p_err_clr)));
            c_err_dep: cover (err_dep && !p_err_dep);
            c_err_dep_clr: cover (p_err_dep && p_err_clr && !err_dep);
            c_dep_by_tag: cover ((p_into | p_cr) != 0 && (p_dset & ~moved) != 0);
        end
    end
"#;

/// The checker's body after its localparams (N, W, NTP, NT, NT2, STW, RW, GW, EW, TW, CW, LW,
/// TPW, SW, IW, FULLEST, NODEP, SORT, CAPS, DEPM).
const BODY: &str = r#"    // ---------------------------------------------------------------- driver obligations
    // contract §3: in_stype >= shader_types is a protocol error of the driver (never produced)
    always @(*) m_in_stype_range: assume (in_stype < NT);
    // contract §3: in_tpipe, lk_tpipe, rqf_tpipe >= tile_pipes are protocol errors (never produced)
    always @(*) m_tpipe_range: assume (in_tpipe < NTP && lk_tpipe < NTP && rqf_tpipe < NTP);

    // capacity of shader type s (R9) and the types a type-s instance consumes (D3)
    function [CW-1:0] cap_of(input [SW-1:0] s);
        integer t;
        begin
            cap_of = 0;
            for (t = 0; t < NT; t = t + 1) if (s == t) cap_of = CAPS[t*CW +: CW];
        end
    endfunction
    function [NT2-1:0] dep_row(input [SW-1:0] s);
        integer t;
        begin
            dep_row = 0;
            for (t = 0; t < NT; t = t + 1) if (s == t) dep_row = DEPM[t*NT +: NT];
        end
    endfunction

    // ---------------------------------------------------------------- decisions of this cycle (R2..R9)
    integer i0, j0;
    reg [N-1:0] into, cr, rowz, elig, pref, cand, lk_e, dset, pend_col, trig;
    // R5h (HOLD = hold_producers): a PENDING dependent whose count is not its type's capacity is
    // not FULL, so not holding (oth_col); one at capacity is FULL and holds unless a flush
    // flagged it, which the ports do not show (nor, so, how many hold): DEP must close j
    // (must_col) when a non-FULL dependent or a table with no FREE entry say so, and may close
    // it whenever some PENDING entry depends on it (pend_col).
    reg [N-1:0] oth_col, must_col;
    reg m_found, f_found, two_open, k_pair;
    reg [EW-1:0] f_idx;
    reg [TW-1:0] m_tag;
    reg [CW-1:0] m_cnt, cand_max;
    reg [NT2-1:0] drow;
    reg          last_v_sh;      // a task has been moved into the slot since reset (R4)
    reg [STW-1:0] last_st_sh;    // its state: out_state in the cycle after the move (R4)
    always @(*) begin
        m_found = 1'b0; f_found = 1'b0; f_idx = 0; two_open = 1'b0; k_pair = 1'b0; m_tag = 0; m_cnt = 0;
        into = 0; cr = 0; cand_max = 0;
        for (i0 = 0; i0 < N; i0 = i0 + 1) begin
            if (st_open[i0] && st_stype[i0*SW +: SW] == in_stype && st_state[i0*STW +: STW] == in_state && !m_found) begin
                m_found = 1'b1; into[i0] = 1'b1; m_tag = st_tag[i0*TW +: TW]; m_cnt = st_count[i0*CW +: CW];
            end
            if (!st_valid[i0] && !f_found) begin f_found = 1'b1; f_idx = i0; cr[i0] = 1'b1; end
            rowz[i0] = st_dep[i0*N +: N] == 0;
            elig[i0] = st_pending[i0] && rowz[i0];
            pref[i0] = elig[i0] && st_state[i0*STW +: STW] == last_st_sh;
            lk_e[i0] = lk_valid && st_valid[i0] && st_tag[i0*TW +: TW] == lk_tag;
            drow = dep_row(in_stype);
            dset[i0] = st_valid[i0] && st_state[i0*STW +: STW] == in_state && drow[st_stype[i0*SW +: SW]];
            pend_col[i0] = 1'b0; oth_col[i0] = 1'b0;
            for (j0 = 0; j0 < N; j0 = j0 + 1) begin
                if (st_pending[j0] && st_dep[j0*N + i0]) begin
                    pend_col[i0] = 1'b1;
                    if (st_count[j0*CW +: CW] != cap_of(st_stype[j0*SW +: SW])) oth_col[i0] = 1'b1;
                end
                if (j0 > i0 && st_open[i0] && st_open[j0] && st_stype[i0*SW +: SW] == st_stype[j0*SW +: SW]
                    && st_state[i0*STW +: STW] == st_state[j0*STW +: STW]) two_open = 1'b1;
                if (st_pending[i0] && st_open[j0] && st_stype[i0*SW +: SW] == st_stype[j0*SW +: SW]
                    && st_state[i0*STW +: STW] == st_state[j0*STW +: STW]) k_pair = 1'b1;
            end
        end
        for (i0 = 0; i0 < N; i0 = i0 + 1)
            must_col[i0] = pend_col[i0] && (HOLD == 0 || oth_col[i0] || (&st_valid));
        cand = (NODEP && (|(st_open & rowz))) ? (st_open & rowz) : st_open;
        for (i0 = 0; i0 < N; i0 = i0 + 1)
            if (cand[i0] && st_count[i0*CW +: CW] > cand_max) cand_max = st_count[i0*CW +: CW];
        if (m_found) cr = 0; else into = cr;
    end
    wire exp_in_ready = !drain_req && (m_found || f_found);
    wire acc = in_valid && exp_in_ready;
    wire slot_free = !out_valid || out_ready;
    wire hs = out_valid && out_ready;
    wire vcond = in_valid && !m_found && !f_found && !drain_req && !(|st_pending);
    wire lk_slot = lk_valid && !(|lk_e) && out_valid && out_tag == lk_tag;
    wire rqf_acc = rqf_valid && rqf_ready;
    wire [NTP-1:0] in_bit = 1 << in_tpipe;
    wire [NTP-1:0] lk_bit = 1 << lk_tpipe;
    wire [NTP-1:0] rq_bit = 1 << rqf_tpipe;

    // ---------------------------------------------------------------- the previous cycle ($past written out)
    reg f_chk = 1'b0;            // the previous cycle was live too: transitions are checked
    reg p_reset = 1'b0, p_reset_work = 1'b0;
    reg [N-1:0] p_valid, p_open, p_pend, p_into, p_cr, p_elig, p_pref, p_cand, p_lk_e, p_dset, p_pend_col, p_must_col, hadep_sh;
    reg [N*CW-1:0] p_cnt;
    reg [N*SW-1:0] p_stype;
    reg [N*STW-1:0] p_state;
    reg [N*NTP-1:0] p_lkm;
    reg [N*N-1:0] p_dep;
    reg [N*TW-1:0] p_tag;
    reg p_acc, p_slot_free, p_hs, p_ov_hold, p_vcond, p_lk_slot, p_lk_hit, p_rqf_acc, p_rqf_ready, p_drain, p_sort;
    reg [SW-1:0] p_in_stype;
    reg [STW-1:0] p_in_state;
    reg [TW-1:0] p_in_tag, p_out_tag;
    reg [NTP-1:0] p_in_bit, p_lk_bit, p_rq_bit, p_out_lockmask;
    reg [TPW-1:0] p_rqf_tpipe, p_rqf_done_tpipe;
    reg [CW-1:0] p_cand_max, p_out_count;
    reg [SW-1:0] p_out_stype;
    reg [STW-1:0] p_out_state;
    reg [W-1:0] p_out_lane_mask;
    reg [2:0] p_out_reason;
    reg [31:0] p_perf_tasks, p_perf_lanes;
    always @(posedge clock) begin
        f_chk <= f_live;
        p_reset <= reset;
        p_reset_work <= reset && (st_valid != 0 || out_valid);
        p_valid <= st_valid; p_open <= st_open; p_pend <= st_pending; p_into <= acc ? into : 0;
        p_cr <= acc ? cr : 0; p_elig <= elig; p_pref <= pref; p_cand <= cand; p_lk_e <= lk_e;
        p_dset <= dset; p_pend_col <= pend_col; p_must_col <= must_col;
        p_cnt <= st_count; p_stype <= st_stype; p_state <= st_state; p_lkm <= st_lockmask; p_dep <= st_dep;
        p_tag <= st_tag;
        p_acc <= acc; p_slot_free <= slot_free; p_hs <= hs; p_ov_hold <= out_valid && !out_ready;
        p_vcond <= vcond; p_lk_slot <= lk_slot; p_lk_hit <= (|lk_e) || lk_slot; p_rqf_acc <= rqf_acc;
        p_rqf_ready <= rqf_ready; p_drain <= drain_req; p_sort <= SORT && last_v_sh && (|pref);
        p_in_stype <= in_stype; p_in_state <= in_state; p_in_tag <= in_tag;
        p_in_bit <= in_bit; p_lk_bit <= lk_bit; p_rq_bit <= rq_bit; p_rqf_tpipe <= rqf_tpipe;
        p_rqf_done_tpipe <= rqf_done_tpipe; p_cand_max <= cand_max;
        p_out_tag <= out_tag; p_out_stype <= out_stype; p_out_state <= out_state; p_out_count <= out_count;
        p_out_lockmask <= out_lockmask; p_out_reason <= out_reason; p_out_lane_mask <= out_lane_mask;
        p_perf_tasks <= perf_tasks; p_perf_lanes <= perf_lanes;
        // shadow of last_state (R4): the state of the task that moved into the slot
        if (reset) last_v_sh <= 1'b0;
        else if (f_live && f_chk && (p_valid & ~st_valid) != 0) begin last_v_sh <= 1'b1; last_st_sh <= out_state; end
        // had a producer since its creation (for a cover)
        hadep_sh <= reset ? {N{1'b0}} : (hadep_sh & ~cr_now_mask) | rowz_n;
    end
    wire f_step = f_live && f_chk;                 // transition checks (n -> n+1, no reset between)
    wire f_after_reset = f_live && p_reset;        // first cycle after a reset cycle
    wire [N-1:0] cr_now_mask = acc ? cr : {N{1'b0}};
    wire [N-1:0] rowz_n = ~rowz;

    // ---------------------------------------------------------------- the transition seen in this cycle
    integer e3, j3;
    reg [N-1:0] moved, newp, trig_nv, trig_may, trig_cr;
    reg n_moves, bad_entry, bad_lkm, bad_dep_next, bad_tag_next, bad_newp, bad_free_dep, k_hadep_move;
    reg [TW-1:0] mv_tag;
    reg [SW-1:0] mv_stype;
    reg [STW-1:0] mv_state;
    reg [CW-1:0] mv_cnt;
    reg [NTP-1:0] mv_lkm;
    reg [1:0] n_extra;
    always @(*) begin
        moved = p_valid & ~st_valid;
        newp = st_pending & p_open;                 // OPEN entries that became PENDING at the edge
        n_moves = 1'b0; bad_entry = 1'b0; bad_lkm = 1'b0; bad_dep_next = 1'b0; bad_tag_next = 1'b0;
        bad_newp = 1'b0; bad_free_dep = 1'b0; k_hadep_move = 1'b0; n_extra = 0;
        mv_tag = 0; mv_stype = 0; mv_state = 0; mv_cnt = 0; mv_lkm = 0;
        for (e3 = 0; e3 < N; e3 = e3 + 1) begin
            if (moved[e3]) begin
                mv_tag = p_tag[e3*TW +: TW]; mv_stype = p_stype[e3*SW +: SW]; mv_state = p_state[e3*STW +: STW];
                mv_cnt = p_cnt[e3*CW +: CW];
                mv_lkm = p_lkm[e3*NTP +: NTP] | (p_lk_e[e3] ? p_lk_bit : 0);
                if (p_dep[e3*N +: N] != 0) bad_free_dep = 1'b1;
                if (hadep_sh[e3]) k_hadep_move = 1'b1;
            end
            // triggers other than EVICT that close an OPEN entry (R5, R7, R8, R9)
            // (trig_cr: those that close an entry created at the edge: not DRAIN, R8 closes OPEN
            // entries, and a create meets drain_req only with registered_input, R2i)
            trig_cr[e3] = (st_count[e3*CW +: CW] == cap_of(st_stype[e3*SW +: SW])) || p_must_col[e3]
                || (p_rqf_acc && (st_lockmask[e3*NTP +: NTP] & p_rq_bit) != 0);
            trig_nv[e3] = trig_cr[e3] || p_drain;
            // (R5h: DEP may also close it while only FULL dependents wait, if a flush flagged one)
            trig_may[e3] = trig_nv[e3] || p_pend_col[e3];
            if (st_valid[e3]) begin
                if (p_cr[e3]) begin
                    if (st_count[e3*CW +: CW] != 1 || st_stype[e3*SW +: SW] != p_in_stype
                        || st_state[e3*STW +: STW] != p_in_state) bad_entry = 1'b1;
                    if (st_lockmask[e3*NTP +: NTP] != p_in_bit) bad_lkm = 1'b1;
                    if (st_tag[e3*TW +: TW] != p_in_tag) bad_tag_next = 1'b1;
                    if (st_pending[e3] != trig_cr[e3]) bad_newp = 1'b1;
                end else begin
                    if (st_count[e3*CW +: CW] != p_cnt[e3*CW +: CW] + p_into[e3] || st_stype[e3*SW +: SW] != p_stype[e3*SW +: SW]
                        || st_state[e3*STW +: STW] != p_state[e3*STW +: STW]) bad_entry = 1'b1;
                    if (st_lockmask[e3*NTP +: NTP] != (p_lkm[e3*NTP +: NTP] | (p_into[e3] ? p_in_bit : 0) | (p_lk_e[e3] ? p_lk_bit : 0)))
                        bad_lkm = 1'b1;
                    if (st_tag[e3*TW +: TW] != p_tag[e3*TW +: TW]) bad_tag_next = 1'b1;
                    if (p_pend[e3] && !st_pending[e3]) bad_newp = 1'b1;
                    if (trig_nv[e3] && p_open[e3] && !st_pending[e3]) bad_newp = 1'b1;
                    if (newp[e3] && !trig_may[e3]) begin
                        // EVICT: the R3 condition held, the entry was a candidate, the fullest if fullest
                        n_extra = n_extra + 1'b1;
                        if (!p_vcond || !p_cand[e3] || (FULLEST && p_cnt[e3*CW +: CW] != p_cand_max)) bad_newp = 1'b1;
                    end
                end
            end
            for (j3 = 0; j3 < N; j3 = j3 + 1)
                if (st_dep[e3*N + j3] != (st_valid[e3] && (p_cr[e3] ? (p_dset[j3] && !moved[j3])
                        : ((p_dep[e3*N + j3] && !moved[j3]) || (p_into[e3] && p_dset[j3] && !moved[j3])))))
                    bad_dep_next = 1'b1;
        end
        if (n_extra > 1) bad_newp = 1'b1;
        if (p_vcond && newp == 0) bad_newp = 1'b1;
    end
    wire one_moved = moved != 0 && (moved & (moved - 1'b1)) == 0;
    reg [N-1:0] s_bits;           // resident entries with the lock bit of the last cycle's flush (R7 snapshot)
    always @(*) for (e3 = 0; e3 < N; e3 = e3 + 1) s_bits[e3] = st_valid[e3] && (st_lockmask[e3*NTP +: NTP] & p_rq_bit) != 0;
    wire s_empty = s_bits == 0 && !(out_valid && (out_lockmask & p_rq_bit) != 0);

    // ---------------------------------------------------------------- conservation shadow (A7)
    // One key (K_STYPE, K_STATE) and one position (entry K_E, lane K_L), chosen freely once.
    (* anyconst *) reg [SW-1:0] K_STYPE;
    (* anyconst *) reg [STW-1:0] K_STATE;
    (* anyconst *) reg [EW-1:0] K_E;
    (* anyconst *) reg [LW-1:0] K_L;
    reg [IW-1:0] inflight;        // instances of key K accepted and not yet handed out
    reg trk_v, trk_sv;            // the instance at (K_E, K_L) is in the table / in the slot
    reg [RW-1:0] trk_ref, trs_ref;
    reg [TW-1:0] trk_tag, trs_tag;
    reg [SW-1:0] trk_stype, trs_stype;
    reg [STW-1:0] trk_state, trs_state;
    integer e7;
    reg k_valid, k_pend, k_mov, k_into;
    reg [CW-1:0] k_cnt;
    reg [TW-1:0] k_tag;
    reg [SW-1:0] k_stype;
    reg [STW-1:0] k_state;
    reg [RW-1:0] k_oref;
    reg [IW-1:0] held_k;          // instances of key K in the table and the slot
    reg [W*RW-1:0] live_refs;     // out_refs lanes below out_count
    always @(*) begin
        k_valid = 0; k_pend = 0; k_mov = 0; k_into = 0; k_cnt = 0; k_tag = 0; k_stype = 0; k_state = 0; k_oref = 0;
        held_k = (out_valid && out_stype == K_STYPE && out_state == K_STATE) ? out_count : 0;
        for (e7 = 0; e7 < N; e7 = e7 + 1) begin
            if (K_E == e7) begin
                k_valid = st_valid[e7]; k_pend = st_pending[e7]; k_mov = moved[e7]; k_into = into[e7];
                k_cnt = st_count[e7*CW +: CW]; k_tag = st_tag[e7*TW +: TW];
                k_stype = st_stype[e7*SW +: SW]; k_state = st_state[e7*STW +: STW];
            end
            if (st_valid[e7] && st_stype[e7*SW +: SW] == K_STYPE && st_state[e7*STW +: STW] == K_STATE)
                held_k = held_k + st_count[e7*CW +: CW];
        end
        for (e7 = 0; e7 < W; e7 = e7 + 1) begin
            if (K_L == e7) k_oref = out_refs[e7*RW +: RW];
            live_refs[e7*RW +: RW] = e7 < out_count ? out_refs[e7*RW +: RW] : 0;
        end
    end
    reg [W*RW-1:0] p_live_refs;
    always @(posedge clock) begin
        p_live_refs <= live_refs;
        if (reset) begin
            inflight <= 0; trk_v <= 1'b0; trk_sv <= 1'b0;
        end else begin
            inflight <= inflight + ((acc && in_stype == K_STYPE && in_state == K_STATE) ? 1 : 0)
                        - ((hs && out_stype == K_STYPE && out_state == K_STATE) ? out_count : 0);
            if (trk_mv) begin
                trk_v <= 1'b0; trk_sv <= 1'b1;
                trs_ref <= trk_ref; trs_tag <= trk_tag; trs_stype <= trk_stype; trs_state <= trk_state;
            end
            if (hs) trk_sv <= 1'b0;
            if (acc && k_into && (m_found ? m_cnt : 0) == K_L) begin
                trk_v <= 1'b1; trk_ref <= in_ref; trk_stype <= in_stype; trk_state <= in_state; trk_tag <= in_tag;
            end
        end
    end
    // the tracked instance moves with its entry: in this cycle it is the slot task's lane K_L
    wire trk_mv = trk_v && f_step && k_mov;
    wire trk_in_tab = trk_v && !trk_mv;
    wire trk_in_slot = trk_sv || trk_mv;
    wire [RW-1:0] ts_ref = trk_sv ? trs_ref : trk_ref;
    wire [TW-1:0] ts_tag = trk_sv ? trs_tag : trk_tag;
    wire [SW-1:0] ts_stype = trk_sv ? trs_stype : trk_stype;
    wire [STW-1:0] ts_state = trk_sv ? trs_state : trk_state;

    // ---------------------------------------------------------------- invariants of one cycle
    integer e6, j6;
    reg bad_cnt, bad_dep, bad_idx, bad_dist, k_slotmate, k_cnt2;
    reg [NT2-1:0] drow6;
    always @(*) begin
        bad_cnt = out_valid && (out_count == 0 || out_count > cap_of(out_stype) || out_stype >= NT);
        bad_dep = 1'b0; bad_idx = 1'b0; bad_dist = 1'b0; k_slotmate = 1'b0; k_cnt2 = 1'b0;
        for (e6 = 0; e6 < N; e6 = e6 + 1) begin
            drow6 = dep_row(st_stype[e6*SW +: SW]);
            if (st_valid[e6]) begin
                if (st_count[e6*CW +: CW] == 0 || st_count[e6*CW +: CW] > cap_of(st_stype[e6*SW +: SW])
                    || (st_open[e6] && st_count[e6*CW +: CW] == cap_of(st_stype[e6*SW +: SW]))
                    || st_stype[e6*SW +: SW] >= NT) bad_cnt = 1'b1;
                if (st_tag[e6*TW +: EW] != e6) bad_idx = 1'b1;
                if (out_valid && out_tag == st_tag[e6*TW +: TW]) bad_dist = 1'b1;
                if (out_valid && out_tag[EW-1:0] == e6) k_slotmate = 1'b1;
                if (st_count[e6*CW +: CW] >= 2) k_cnt2 = 1'b1;
            end
            for (j6 = 0; j6 < N; j6 = j6 + 1) begin
                if (j6 != e6 && st_valid[e6] && st_valid[j6] && st_tag[e6*TW +: TW] == st_tag[j6*TW +: TW]) bad_dist = 1'b1;
                if (st_dep[e6*N + j6] && (!st_valid[e6] || !st_valid[j6] || e6 == j6
                    || st_state[e6*STW +: STW] != st_state[j6*STW +: STW] || !drow6[st_stype[j6*SW +: SW]])) bad_dep = 1'b1;
            end
        end
    end
    wire [W:0] one_w = 1;
    wire [W-1:0] exp_lane_mask = (one_w << out_count) - 1'b1;

    always @(posedge clock) if (f_live) begin
        // R2: in_ready = !drain_req && (an OPEN entry with the key || a FREE entry), whatever in_valid is
        a_in_ready: assert (in_ready == exp_in_ready);
        c_in_ready: cover (in_valid && in_ready && m_found && !f_found);
        // R2: an accepted instance gets tag(m) and lane count[m] on a match, else entry f (lowest FREE), lane 0
        if (in_valid && in_ready)
            a_in_tag_lane: assert (m_found ? (in_tag == m_tag && in_lane == m_cnt) : (in_tag[EW-1:0] == f_idx && in_lane == 0));
        c_in_tag_lane: cover (in_valid && in_ready && m_found && in_lane != 0);
        // R8: drain_done = drain_req && no resident entry && !out_valid
        a_drain_done: assert (drain_done == (drain_req && st_valid == 0 && !out_valid));
        c_drain_done: cover (drain_done && f_chk && p_hs);
        // §10.4 / D6: an entry is FREE, OPEN or PENDING: st_valid = st_open | st_pending, disjoint
        a_st_status: assert (st_valid == (st_open | st_pending) && (st_open & st_pending) == 0);
        c_st_status: cover (st_open != 0 && st_pending != 0);
        // §10.4 invariant (A1): at most one OPEN entry per key (stype, state)
        a_one_open_per_key: assert (!two_open);
        c_one_open_per_key: cover (k_pair);
        // R9 / A2: 1 <= count <= capacity[stype] in the table and the slot; an OPEN task is below capacity
        a_count_cap: assert (!bad_cnt);
        c_count_cap: cover (k_cnt2 && out_valid && out_count >= 2);
        // D3 / A4: dep[i][j] only between resident i != j of one state with stype[j] in depends[stype[i]]
        a_dep_legal: assert (!bad_dep);
        c_dep_legal: cover (st_dep != 0 && st_pending != 0);
        // R2: tag(e) = {gen[e], e}: a resident entry's tag holds its index in the low ENT_W bits
        a_tag_index: assert (!bad_idx);
        c_tag_index: cover (st_valid == {N{1'b1}});
        // A9: the tags of resident entries and of the slot task are pairwise distinct (gen[e] counts creations)
        a_tags_distinct: assert (!bad_dist);
        c_tags_distinct: cover (k_slotmate);
        // R11 / A6: out_lane_mask = (1 << out_count) - 1
        if (out_valid) a_out_lane_mask: assert (out_lane_mask == exp_lane_mask);
        c_out_lane_mask: cover (out_valid && out_count >= 2);
        // A7 conservation: instances of key K accepted minus handed out = count of K in the table and the slot
        a_conserve: assert (inflight == held_k);
        c_conserve: cover (out_valid && out_stype == K_STYPE && out_state == K_STATE && held_k > out_count);
        // A7: the instance accepted at (entry K_E, lane K_L) stays there, with its key and tag, until it moves
        if (trk_in_tab)
            a_track_table: assert (k_valid && k_cnt > K_L && k_tag == trk_tag && k_stype == trk_stype && k_state == trk_state);
        c_track_table: cover (trk_in_tab && K_L != 0 && k_pend);
        // A7 / R11: then it is the slot task's lane K_L, with its own reference, key and tag, until taken
        if (trk_in_slot)
            a_track_out: assert (out_valid && out_count > K_L && k_oref == ts_ref && out_tag == ts_tag
                                 && out_stype == ts_stype && out_state == ts_state);
        c_track_out: cover (trk_sv && out_ready && K_L != 0);
        // R10: reason FULL exactly when the task left at capacity; every reason is a code 1..5
        if (out_valid)
            a_out_reason: assert ((out_reason == 3'd1) == (out_count == cap_of(out_stype)) && out_reason >= 3'd1 && out_reason <= 3'd5);
        c_out_reason: cover (out_valid && out_reason == 3'd3);
        c_reason_evict: cover (out_valid && out_reason == 3'd2);
        c_reason_rqflush: cover (out_valid && out_reason == 3'd4);
        c_reason_drain: cover (out_valid && out_reason == 3'd5);
    end

    // ---------------------------------------------------------------- transitions (edge n -> cycle n+1)
    always @(posedge clock) if (f_step) begin
        // R9: an entry becomes resident only by a create, in the lowest FREE entry of an accepted new key
        a_next_created: assert ((st_valid & ~p_valid) == p_cr);
        c_next_created: cover (p_cr != 0 && moved != 0);
        // R4: an entry frees only by moving into the slot: one PENDING entry with an all-zero dep row,
        // whenever the slot is free (empty or taken) and one is eligible
        // (R4r, registered_issue: the move follows last cycle's pick; only the first two hold as written)
        a_issue: assert ((moved & ~p_elig) == 0 && (moved == 0 || one_moved) && (REG || (moved != 0) == (p_slot_free && p_elig != 0)));
        c_issue: cover (p_hs && moved != 0);
        // R4: with sort_state, once a task has issued, an eligible entry of the last issued state goes first
        if (p_sort && !REG) a_issue_sort: assert ((moved & ~p_pref) == 0);
        c_issue_sort: cover (!REG && p_sort && moved != 0 && (p_elig & ~p_pref) != 0 || REG && moved != 0);
        // R4 / D3: no task leaves before one it depends on: an entry that moves had an all-zero dep row
        a_issue_nodep: assert (!bad_free_dep);
        c_issue_nodep: cover (k_hadep_move);
        // R3 / R5 / R7 / R8 / R9 / R10: PENDING stays PENDING; an OPEN entry closes exactly on a trigger
        // (FULL, DEP one level, RQFLUSH snapshot, DRAIN) or as the single EVICT victim (R3 condition,
        // an OPEN candidate, nodep_ restriction, the fullest for fullest policies)
        a_next_pending: assert (!bad_newp);
        c_next_pending: cover (p_vcond && newp != 0);
        // R9: count +1 on an append, 1 on a create; stype/state set on a create and kept while resident
        a_next_entry: assert (!bad_entry);
        c_next_entry: cover ((p_into & ~p_cr) != 0 && k_cnt2);
        // R6 / R9: lock mask = its bits | the instance's tpipe | a lock of the entry's tag (lk_tpipe)
        a_next_lockmask: assert (!bad_lkm);
        c_next_lockmask: cover ((p_lk_e & p_open) != 0);
        // R2: a created entry has the in_tag of its create; a resident entry keeps its tag
        a_next_tag: assert (!bad_tag_next);
        c_next_tag: cover (p_cr != 0 && out_valid && out_tag[EW-1:0] == p_in_tag[EW-1:0]);
        // D3 / R4: dep row = the D3 set ORed in at acceptance; column p cleared when p moves to the slot
        a_next_dep: assert (!bad_dep_next);
        c_next_dep: cover ((p_dep & ~st_dep) != 0 && st_valid != 0);
        // R11: out_valid = a task moved into the slot, or the slot task was not taken
        a_out_valid: assert (out_valid == (moved != 0 || p_ov_hold));
        c_out_valid: cover (p_hs && moved != 0 && out_valid);
        // R4 / R6 / R11: the slot task is the moved entry (tag, key, count, lock mask with this edge's lock)
        if (moved != 0)
            a_out_payload: assert (out_tag == mv_tag && out_stype == mv_stype && out_state == mv_state
                                   && out_count == mv_cnt && out_lockmask == mv_lkm);
        c_out_payload: cover (moved != 0 && (p_lk_e & moved) != 0);
        // R11 (valid/ready): out_valid does not drop before out_ready
        if (p_ov_hold) a_out_hold: assert (out_valid);
        c_out_hold: cover (p_ov_hold && out_ready);
        // R11: while out_valid && !out_ready the payload is stable (refs below out_count); the lock mask
        // gains exactly the locks applied to the slot task (R6)
        if (p_ov_hold)
            a_out_stable: assert (out_tag == p_out_tag && out_stype == p_out_stype && out_state == p_out_state
                                  && out_count == p_out_count && out_lane_mask == p_out_lane_mask
                                  && out_reason == p_out_reason && live_refs == p_live_refs
                                  && out_lockmask == (p_out_lockmask | (p_lk_slot ? p_lk_bit : 0)));
        c_out_stable: cover (p_ov_hold && p_lk_slot);
        // R6: lk_hit (registered) = last cycle's lock matched a resident entry's or the slot task's tag
        a_lk_hit: assert (lk_hit == p_lk_hit);
        c_lk_hit: cover (lk_hit && p_lk_slot);
        // R7: after an accepted flush: done and ready at once iff the snapshot S (post-edge lock bit) is
        // empty, else busy; rqf_done_tpipe = the flush's tpipe
        if (p_rqf_acc)
            a_rqf_accept: assert (rqf_done == s_empty && rqf_ready == s_empty && rqf_done_tpipe == p_rqf_tpipe);
        c_rqf_accept: cover (p_rqf_acc && !s_empty);
        // R7: rqf_done pulses only after an accepted flush or while busy, with rqf_ready; the tpipe holds
        a_rqf_done: assert ((!rqf_done || (rqf_ready && (p_rqf_acc || !p_rqf_ready)))
                            && (p_rqf_acc || rqf_done_tpipe == p_rqf_done_tpipe));
        c_rqf_done: cover (rqf_done && !p_rqf_ready);
        // R11: perf_tasks += 1 and perf_lanes += out_count on a handshake (mod 2^32)
        a_perf: assert (perf_tasks == p_perf_tasks + p_hs && perf_lanes == p_perf_lanes + (p_hs ? p_out_count : 0));
        c_perf: cover (p_hs && p_out_count >= 2);
    end

    // ---------------------------------------------------------------- reset (R12)
    always @(posedge clock) if (f_after_reset) begin
        // R12: after a reset every entry FREE, slot empty, flush idle, lk_hit 0, counters 0
        a_reset: assert (st_valid == 0 && st_open == 0 && st_pending == 0 && st_dep == 0 && !out_valid
                         && rqf_ready && !rqf_done && rqf_done_tpipe == 0 && !lk_hit
                         && perf_tasks == 0 && perf_lanes == 0);
        c_reset: cover (p_reset_work);
    end
"#;
