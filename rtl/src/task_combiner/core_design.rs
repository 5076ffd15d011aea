//! The task-combiner core: the table's registers and the rules of one edge.

use super::*;
use crate::perf::{self, PerfBank};

// The rules of `update`, one file per part, in the order they run (`hdl::Part<0>`, `<1>`, …).
mod fields;
mod accept;
mod issue_victim;
mod locks_flush;
mod edge;
mod reset_outputs;
mod perf_events;
mod input_reg;

/// The task combiner core: table, dependency and age matrices, output slot.
#[derive(LogicBlock)]
pub struct TaskCombinerCore {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // Instance input (append or create).
    pub in_valid: Signal<In, Bit>,
    pub in_stype: Signal<In, Stype>,
    pub in_state: Signal<In, State>,
    pub in_ref: Vec<Signal<In, Bit>>,
    pub in_tpipe: Signal<In, Tp>,
    /// D3t (`dep_tags` = K; every vector empty at 0): the instance's K producer tags
    /// {gen, entry}, the sticky illegal-dependency flag and its clear.
    pub dt_vld: Vec<Signal<In, Bit>>,
    pub dt_ent: Vec<Signal<In, Ent>>,
    pub dt_gen: Vec<Signal<In, Gen>>,
    pub err_dep: Vec<Signal<Out, Bit>>,
    pub err_clr: Vec<Signal<In, Bit>>,
    pub in_ready: Signal<Out, Bit>,
    pub in_tag_ent: Vec<Signal<Out, Bit>>,
    pub in_tag_gen: Vec<Signal<Out, Bit>>,
    pub in_lane: Vec<Signal<Out, Bit>>,
    // Lock of a scheduled task.
    pub lk_valid: Signal<In, Bit>,
    pub lk_ent: Signal<In, Ent>,
    pub lk_gen: Signal<In, Gen>,
    pub lk_tpipe: Signal<In, Tp>,
    pub lk_hit: Signal<Out, Bit>,
    // Render-queue flush.
    pub rqf_valid: Signal<In, Bit>,
    pub rqf_tpipe: Signal<In, Tp>,
    pub rqf_ready: Signal<Out, Bit>,
    pub rqf_done: Signal<Out, Bit>,
    pub rqf_done_tpipe: Vec<Signal<Out, Bit>>,
    // Drain.
    pub drain_req: Signal<In, Bit>,
    pub drain_done: Signal<Out, Bit>,
    // Task output (the slot).
    pub out_ready: Signal<In, Bit>,
    pub out_valid: Signal<Out, Bit>,
    pub out_tag_ent: Vec<Signal<Out, Bit>>,
    pub out_tag_gen: Vec<Signal<Out, Bit>>,
    pub out_stype: Vec<Signal<Out, Bit>>,
    pub out_state: Vec<Signal<Out, Bit>>,
    pub out_count: Vec<Signal<Out, Bit>>,
    pub out_lane_mask: Vec<Signal<Out, Bit>>,
    pub out_refs: Vec<Vec<Signal<Out, Bit>>>,
    pub out_lockmask: Vec<Signal<Out, Bit>>,
    pub out_reason: Signal<Out, Reason>,
    // Observability, per entry.
    pub st_valid: Vec<Signal<Out, Bit>>,
    pub st_open: Vec<Signal<Out, Bit>>,
    pub st_pending: Vec<Signal<Out, Bit>>,
    pub st_count: Vec<Vec<Signal<Out, Bit>>>,
    pub st_stype: Vec<Vec<Signal<Out, Bit>>>,
    pub st_state: Vec<Vec<Signal<Out, Bit>>>,
    pub st_lockmask: Vec<Vec<Signal<Out, Bit>>>,
    pub st_dep: Vec<Vec<Signal<Out, Bit>>>,
    pub st_tag_ent: Vec<Vec<Signal<Out, Bit>>>,
    pub st_tag_gen: Vec<Vec<Signal<Out, Bit>>>,
    pub perf_tasks: Signal<Out, Bits<32>>,
    pub perf_lanes: Signal<Out, Bits<32>>,
    // Performance counters (rule P1 of docs/blocks/task_combiner.md; docs/perf.md): one
    // element each with `perf_counters`, none without (no port, no logic). No `err_clr`: the
    // block has no sticky error flag (D3 removed `err_dep`).
    pub perf_sel: Vec<Signal<In, Bits<{ perf::SEL_BITS }>>>,
    pub perf_val: Vec<Signal<Out, Bits<{ perf::VAL_BITS }>>>,
    pub perf_clr: Vec<Signal<In, Bit>>,
    perf: Vec<PerfBank>,

    // ---- Registers, per entry e (fields bit by bit, exact widths).
    /// Resident (OPEN or PENDING), and PENDING; OPEN = valid & !pending.
    valid_q: Vec<DFF<Bit>>,
    pend_q: Vec<DFF<Bit>>,
    /// Member of the render-queue flush in progress.
    rq_q: Vec<DFF<Bit>>,
    reason_q: Vec<DFF<Reason>>,
    stype_q: Vec<Vec<DFF<Bit>>>,
    state_q: Vec<Vec<DFF<Bit>>>,
    count_q: Vec<Vec<DFF<Bit>>>,
    gen_q: Vec<Vec<DFF<Bit>>>,
    lock_q: Vec<Vec<DFF<Bit>>>,
    /// Dependency and age matrices with the logic over them (word-level
    /// Verilog); none for a one-entry table (no pairs).
    mx: Vec<TaskMatrix>,
    // ---- The output slot and globals.
    slot_v_q: DFF<Bit>,
    slot_rq_q: DFF<Bit>,
    slot_reason_q: DFF<Reason>,
    slot_ent_q: Vec<DFF<Bit>>,
    slot_gen_q: Vec<DFF<Bit>>,
    slot_stype_q: Vec<DFF<Bit>>,
    slot_state_q: Vec<DFF<Bit>>,
    slot_count_q: Vec<DFF<Bit>>,
    slot_lock_q: Vec<DFF<Bit>>,
    /// A task has entered the slot since reset (the slot's state is then the
    /// last issued state, which sort_state prefers).
    last_v_q: DFF<Bit>,
    /// `registered_issue` (R4r): the entry picked last cycle (one-hot) and whether there is one
    /// (`pick_v_q` is OR(pick_q), kept as its own flop so `issue` does not wait for a 16-input OR).
    pick_q: Vec<DFF<Bit>>,
    pick_v_q: DFF<Bit>,
    /// R4r: the reference memories are written one edge after the accept (lane enables,
    /// entry, reference): no read can meet it, since an entry accepted into is not picked
    /// before the next cycle, and it moves only the cycle after its pick.
    wb_en_q: Vec<DFF<Bit>>,
    wb_addr_q: Vec<DFF<Bit>>,
    wb_data_q: Vec<DFF<Bit>>,
    /// `registered_input` (R2i; every vector empty without it): the input register IR (valid,
    /// type, state, reference, tile pipe, producer tags, bit by bit) and per entry `eq_q`:
    /// "the entry's key equals IR's", computed at the edge that loads IR with the key the entry
    /// has after that edge, so that the match is one AND of registers.
    ir_v_q: Vec<DFF<Bit>>,
    ir_stype_q: Vec<DFF<Bit>>,
    ir_state_q: Vec<DFF<Bit>>,
    ir_ref_q: Vec<DFF<Bit>>,
    ir_tp_q: Vec<DFF<Bit>>,
    ir_dtv_q: Vec<DFF<Bit>>,
    ir_dte_q: Vec<Vec<DFF<Bit>>>,
    ir_dtg_q: Vec<Vec<DFF<Bit>>>,
    eq_q: Vec<DFF<Bit>>,
    /// R2i: IR loads the inputs' instance at this edge; per entry, the inputs' key equals the
    /// entry's key; the inputs' key equals IR's (for the entry IR's instance creates).
    ir_load: Vec<Signal<Local, Bit>>,
    eq_in: Vec<Signal<Local, Bit>>,
    eq_ir: Vec<Signal<Local, Bit>>,
    pub in_tag_valid: Vec<Signal<Out, Bit>>,
    rq_busy_q: DFF<Bit>,
    rqf_done_q: DFF<Bit>,
    rqf_tp_q: Vec<DFF<Bit>>,
    lk_hit_q: DFF<Bit>,
    perf_tasks_q: DFF<Bits<32>>,
    perf_lanes_q: DFF<Bits<32>>,
    /// One reference memory per lane: word e = the lane's reference in entry e.
    refs: Vec<SyncRam>,

    // ---- Combinational, per entry (registered fields as numbers first).
    stype_v: Vec<Signal<Local, Stype>>,
    state_v: Vec<Signal<Local, State>>,
    count_v: Vec<Signal<Local, Cnt>>,
    gen_v: Vec<Signal<Local, Gen>>,
    open: Vec<Signal<Local, Bit>>,
    /// Dependency row all zero.
    rowz: Vec<Signal<Local, Bit>>,
    /// Match, first free, target of the instance, created / appended at this edge.
    mhit: Vec<Signal<Local, Bit>>,
    fsel: Vec<Signal<Local, Bit>>,
    created: Vec<Signal<Local, Bit>>,
    appended: Vec<Signal<Local, Bit>>,
    /// Issue: eligible, in the last state, the candidate set, not oldest in it, picked.
    elig: Vec<Signal<Local, Bit>>,
    same: Vec<Signal<Local, Bit>>,
    /// The oldest of `elig` / of `same` (matrix), computed in parallel.
    old_e: Vec<Signal<Local, Bit>>,
    old_s: Vec<Signal<Local, Bit>>,
    use_same: Signal<Local, Bit>,
    psel: Vec<Signal<Local, Bit>>,
    /// R4r: the registered pick moves at this edge; R4 (either mode): the entry whose fields
    /// load the slot, as the oldest of elig / of same (sel_e, sel_s) and the late select use_sel.
    pmove: Vec<Signal<Local, Bit>>,
    sel_e: Vec<Signal<Local, Bit>>,
    sel_s: Vec<Signal<Local, Bit>>,
    use_sel: Signal<Local, Bit>,
    /// Victim: candidates, the one no other candidate beats (matrix), chosen.
    cand: Vec<Signal<Local, Bit>>,
    best: Vec<Signal<Local, Bit>>,
    vsel: Vec<Signal<Local, Bit>>,
    /// Per entry, from registers: count + 1, it then reaches the capacity of
    /// its type, gen + 1 (the instance only selects among these).
    cnt_inc: Vec<Vec<Signal<Local, Bit>>>,
    full_app: Vec<Signal<Local, Bit>>,
    gen_nx: Vec<Vec<Signal<Local, Bit>>>,
    carry: Signal<Local, Bit>,
    /// Type of entry j is one the instance consumes; j joins the instance's dependency row.
    dtype: Vec<Signal<Local, Bit>>,
    dset: Vec<Signal<Local, Bit>>,
    /// D3t (empty without `dep_tags`): entry j is named by a producer tag (its tag, whether
    /// resident or not); an illegal dependency is named at this accept; the sticky flag.
    named: Vec<Signal<Local, Bit>>,
    dt_ill: Vec<Signal<Local, Bit>>,
    err_dep_q: Vec<DFF<Bit>>,
    /// Some pending entry depends on this one.
    depprop: Vec<Signal<Local, Bit>>,
    /// R5h (`hold_producers` = B > 0; every vector empty at 0): per entry, PENDING(FULL) with
    /// no flush flag (holding); per producer j, a PENDING entry that is not holding depends on
    /// it; no entry is FREE; the constant B.
    hp_hold: Vec<Signal<Local, Bit>>,
    hp_oth: Vec<Signal<Local, Bit>>,
    /// How many entries are holding, as an adder tree: 2P - 1 nodes for P = the entries
    /// rounded up to a power of two, the count at the root (node 0).
    hp_sum: Vec<Signal<Local, Cnt>>,
    hp_nofree: Vec<Signal<Local, Bit>>,
    hp_b: Vec<Constant<Cnt>>,
    lk_e: Vec<Signal<Local, Bit>>,
    lock_d: Vec<Vec<Signal<Local, Bit>>>,
    /// Post-edge lock mask of an entry that is not the instance's target.
    lock_pd: Vec<Vec<Signal<Local, Bit>>>,
    /// Resident after the edge; its post-edge lock bit `rqf_tpipe`; in the flush snapshot.
    res_post: Vec<Signal<Local, Bit>>,
    lbit: Vec<Signal<Local, Bit>>,
    snap: Vec<Signal<Local, Bit>>,
    rq_d: Vec<Signal<Local, Bit>>,
    trig: Vec<Signal<Local, Bit>>,
    // ---- R2i (`registered_input`; empty without it): the input register's type, state and
    // tile pipe, and its producer tags' entry and generation, as numbers.
    r_stype: Vec<Signal<Local, Stype>>,
    r_state: Vec<Signal<Local, State>>,
    r_tpipe: Vec<Signal<Local, Tp>>,
    r_dt_ent: Vec<Signal<Local, Ent>>,
    r_dt_gen: Vec<Signal<Local, Gen>>,
    // ---- Combinational, global.
    any_pend: Signal<Local, Bit>,
    any_valid: Signal<Local, Bit>,
    m_found: Signal<Local, Bit>,
    f_found: Signal<Local, Bit>,
    accept: Signal<Local, Bit>,
    cnt_m: Signal<Local, Cnt>,
    /// A task created by the instance is full at once (capacity 1).
    full_in: Signal<Local, Bit>,
    t_ent: Vec<Signal<Local, Bit>>,
    /// Index of the first free entry (t_ent selects it when nothing matches).
    f_ent: Vec<Signal<Local, Bit>>,
    gen_m: Vec<Signal<Local, Bit>>,
    gen_f: Vec<Signal<Local, Bit>>,
    t_gen: Vec<Signal<Local, Bit>>,
    in_dep: Vec<Signal<Local, Bit>>,
    slot_free: Signal<Local, Bit>,
    any_elig: Signal<Local, Bit>,
    any_same: Signal<Local, Bit>,
    last_state_v: Signal<Local, State>,
    issue: Signal<Local, Bit>,
    p_ent: Vec<Signal<Local, Bit>>,
    victim_req: Signal<Local, Bit>,
    any_nodep: Signal<Local, Bit>,
    lk_any: Signal<Local, Bit>,
    lk_slot: Signal<Local, Bit>,
    slot_ent_v: Signal<Local, Ent>,
    slot_gen_v: Signal<Local, Gen>,
    slot_count_v: Signal<Local, Cnt>,
    slot_count32: Signal<Local, Bits<32>>,
    slot_v_d: Signal<Local, Bit>,
    slot_lock_d: Vec<Signal<Local, Bit>>,
    rqf_acc: Signal<Local, Bit>,
    slot_lbit: Signal<Local, Bit>,
    /// The slot's flag after the edge when it holds its task; per entry, the
    /// entry's flag after the edge (in it or in the slot), instance aside.
    slot_held_rq: Signal<Local, Bit>,
    fl: Vec<Signal<Local, Bit>>,
    slot_rq_d: Signal<Local, Bit>,
    flags_post: Signal<Local, Bit>,
    tp_in_rqf: Signal<Local, Bit>,
    tp_lk_rqf: Signal<Local, Bit>,
    lbit_q: Vec<Signal<Local, Bit>>,
    handshake: Signal<Local, Bit>,
    /// The fields of the oldest of `elig` (pe_) and of `same` (ps_), selected
    /// after the AND-OR (use_same is late).
    pe_reason: Signal<Local, Reason>,
    ps_reason: Signal<Local, Reason>,
    pe_rq: Signal<Local, Bit>,
    ps_rq: Signal<Local, Bit>,
    pe_gen: Vec<Signal<Local, Bit>>,
    ps_gen: Vec<Signal<Local, Bit>>,
    pe_stype: Vec<Signal<Local, Bit>>,
    ps_stype: Vec<Signal<Local, Bit>>,
    pe_state: Vec<Signal<Local, Bit>>,
    ps_state: Vec<Signal<Local, Bit>>,
    pe_cnt: Vec<Signal<Local, Bit>>,
    ps_cnt: Vec<Signal<Local, Bit>>,
    pe_ent: Vec<Signal<Local, Bit>>,
    ps_ent: Vec<Signal<Local, Bit>>,
    pe_lock: Vec<Signal<Local, Bit>>,
    ps_lock: Vec<Signal<Local, Bit>>,

    // ---- Constants.
    ent_id: Vec<Constant<Ent>>,
    /// `ent_bit[e][b]`: bit b of entry index e.
    ent_bit: Vec<Vec<Constant<Bit>>>,
    stype_id: Vec<Constant<Stype>>,
    /// Capacity of each shader type, minus one; capacity is one.
    cap_m1: Vec<Constant<Cnt>>,
    cap_one: Vec<Constant<Bit>>,
    /// `dep_type[s][t]`: a type-s instance consumes type-t tasks.
    dep_type: Vec<Vec<Constant<Bit>>>,
    tp_id: Vec<Constant<Tp>>,
    lane_id: Vec<Constant<Cnt>>,
    w_stype: Vec<Constant<Stype>>,
    w_state: Vec<Constant<State>>,
    w_cnt: Vec<Constant<Cnt>>,
    w_gen: Vec<Constant<Gen>>,
    w_ent: Vec<Constant<Ent>>,
    /// R2i: weights of IR's tile-pipe bits (empty without `registered_input`), and 0.
    w_tp: Vec<Constant<Tp>>,
    no_tp: Vec<Constant<Tp>>,
    w_cnt32: Vec<Constant<Bits<32>>>,
    no_stype: Constant<Stype>,
    no_state: Constant<State>,
    no_cnt: Constant<Cnt>,
    one_cnt: Constant<Cnt>,
    no_gen: Constant<Gen>,
    no_ent: Constant<Ent>,
    no_32: Constant<Bits<32>>,
    one_32: Constant<Bits<32>>,
    no_reason: Constant<Reason>,
    r_full: Constant<Reason>,
    r_evict: Constant<Reason>,
    r_dep: Constant<Reason>,
    r_rqflush: Constant<Reason>,
    r_drain: Constant<Reason>,
    pol_nodep: Constant<Bit>,
    sort_state: Constant<Bit>,
    registered_issue: Constant<Bit>,
}

impl TaskCombinerCore {
    /// The core for a validated config.
    pub fn new(cfg: &TaskCombinerConfig) -> Self {
        let n = cfg.entries as usize;
        let w = cfg.width as usize;
        let t = cfg.tile_pipes as usize;
        let s = cfg.shader_types as usize;
        let stw = cfg.state_width as usize;
        let rw = cfg.ref_width as usize;
        let gw = cfg.tag_gen_width as usize;
        let (ew, cw, lw, tpw, sw) = (cfg.ent_bits(), cfg.cnt_bits(), cfg.lane_bits(), cfg.tp_bits(), cfg.stype_bits());
        let deps = cfg.depends_rows();
        let policy = cfg.policy();
        // 1 with perf_counters (one counter bank and its ports), 0 without.
        let pc = usize::from(cfg.perf_counters);
        // R5h: one hold_producers block (hz) with per-entry vectors (hn), none at 0 (and none in
        // a one-entry table, which has no dependencies).
        let hz = usize::from(cfg.hold_producers > 0 && n >= 2);
        let hn = hz * n;
        // D3t: K producer tags per instance (validated: only with 2 entries or more), and one
        // sticky flag (dz), none at 0.
        let k = cfg.dep_tag_count();
        let dz = usize::from(k > 0);
        // R2i: one input register (ri = 1) with `registered_input`, none without.
        let ri = usize::from(cfg.registered_input);
        TaskCombinerCore {
            clock: Signal::default(),
            reset: Signal::default(),
            in_valid: Signal::default(),
            in_stype: Signal::default(),
            in_state: Signal::default(),
            in_ref: signals(rw),
            in_tpipe: Signal::default(),
            dt_vld: signals(k),
            dt_ent: signals(k),
            dt_gen: signals(k),
            err_dep: signals(dz),
            err_clr: signals(dz),
            in_ready: Signal::default(),
            in_tag_ent: signals(ew),
            in_tag_gen: signals(gw),
            in_lane: signals(lw),
            lk_valid: Signal::default(),
            lk_ent: Signal::default(),
            lk_gen: Signal::default(),
            lk_tpipe: Signal::default(),
            lk_hit: Signal::default(),
            rqf_valid: Signal::default(),
            rqf_tpipe: Signal::default(),
            rqf_ready: Signal::default(),
            rqf_done: Signal::default(),
            rqf_done_tpipe: signals(tpw),
            drain_req: Signal::default(),
            drain_done: Signal::default(),
            out_ready: Signal::default(),
            out_valid: Signal::default(),
            out_tag_ent: signals(ew),
            out_tag_gen: signals(gw),
            out_stype: signals(sw),
            out_state: signals(stw),
            out_count: signals(cw),
            out_lane_mask: signals(w),
            out_refs: grid(w, rw),
            out_lockmask: signals(t),
            out_reason: Signal::default(),
            st_valid: signals(n),
            st_open: signals(n),
            st_pending: signals(n),
            st_count: grid(n, cw),
            st_stype: grid(n, sw),
            st_state: grid(n, stw),
            st_lockmask: grid(n, t),
            st_dep: grid(n, n),
            st_tag_ent: grid(n, ew),
            st_tag_gen: grid(n, gw),
            perf_tasks: Signal::default(),
            perf_lanes: Signal::default(),
            perf_sel: signals(pc),
            perf_val: signals(pc),
            perf_clr: signals(pc),
            perf: (0..pc).map(|_| PerfBank::new(cfg.perf_count())).collect(),

            valid_q: dffs(n),
            pend_q: dffs(n),
            rq_q: dffs(n),
            reason_q: (0..n).map(|_| DFF::default()).collect(),
            stype_q: grid(n, sw),
            state_q: grid(n, stw),
            count_q: grid(n, cw),
            gen_q: grid(n, gw),
            lock_q: grid(n, t),
            mx: if n > 1 { vec![TaskMatrix::new(n, cw, policy.fullest(), cfg.issue_fullest())] } else { vec![] },
            slot_v_q: DFF::default(),
            slot_rq_q: DFF::default(),
            slot_reason_q: DFF::default(),
            slot_ent_q: dffs(ew),
            slot_gen_q: dffs(gw),
            slot_stype_q: dffs(sw),
            slot_state_q: dffs(stw),
            slot_count_q: dffs(cw),
            slot_lock_q: dffs(t),
            last_v_q: DFF::default(),
            pick_q: dffs(n),
            pick_v_q: DFF::default(),
            wb_en_q: dffs(w),
            wb_addr_q: dffs(address_bits(n)),
            wb_data_q: dffs(rw),
            ir_v_q: dffs(ri),
            ir_stype_q: dffs(ri * sw),
            ir_state_q: dffs(ri * stw),
            ir_ref_q: dffs(ri * rw),
            ir_tp_q: dffs(ri * tpw),
            ir_dtv_q: dffs(ri * k),
            ir_dte_q: grid(ri * k, ew),
            ir_dtg_q: grid(ri * k, gw),
            eq_q: dffs(ri * n),
            ir_load: signals(ri),
            eq_in: signals(ri * n),
            eq_ir: signals(ri),
            in_tag_valid: signals(ri),
            rq_busy_q: DFF::default(),
            rqf_done_q: DFF::default(),
            rqf_tp_q: dffs(tpw),
            lk_hit_q: DFF::default(),
            perf_tasks_q: DFF::default(),
            perf_lanes_q: DFF::default(),
            refs: (0..w).map(|_| SyncRam::new(n, rw)).collect(),

            stype_v: signals(n),
            state_v: signals(n),
            count_v: signals(n),
            gen_v: signals(n),
            open: signals(n),
            rowz: signals(n),
            mhit: signals(n),
            fsel: signals(n),
            created: signals(n),
            appended: signals(n),
            elig: signals(n),
            same: signals(n),
            old_e: signals(n),
            old_s: signals(n),
            use_same: Signal::default(),
            psel: signals(n),
            pmove: signals(n),
            sel_e: signals(n),
            sel_s: signals(n),
            use_sel: Signal::default(),
            cand: signals(n),
            best: signals(n),
            vsel: signals(n),
            cnt_inc: grid(n, cw),
            full_app: signals(n),
            gen_nx: grid(n, gw),
            carry: Signal::default(),
            // Producers exist only with two entries or more.
            dtype: signals(if n > 1 { n } else { 0 }),
            dset: signals(if n > 1 { n } else { 0 }),
            named: signals(dz * n),
            dt_ill: signals(dz),
            err_dep_q: dffs(dz),
            depprop: signals(n),
            hp_hold: signals(hn),
            hp_oth: signals(hn),
            hp_sum: signals(hz * (2 * n.next_power_of_two() - 1)),
            hp_nofree: signals(hz),
            hp_b: (0..hz).map(|_| constant(cfg.hold_producers as u64)).collect(),
            lk_e: signals(n),
            lock_d: grid(n, t),
            lock_pd: grid(n, t),
            res_post: signals(n),
            lbit: signals(n),
            snap: signals(n),
            rq_d: signals(n),
            trig: signals(n),
            r_stype: signals(ri),
            r_state: signals(ri),
            r_tpipe: signals(ri),
            r_dt_ent: signals(ri * k),
            r_dt_gen: signals(ri * k),
            any_pend: Signal::default(),
            any_valid: Signal::default(),
            m_found: Signal::default(),
            f_found: Signal::default(),
            accept: Signal::default(),
            cnt_m: Signal::default(),
            full_in: Signal::default(),
            t_ent: signals(ew),
            f_ent: signals(ew),
            gen_m: signals(gw),
            gen_f: signals(gw),
            t_gen: signals(gw),
            in_dep: signals(if n > 1 { s } else { 0 }),
            slot_free: Signal::default(),
            any_elig: Signal::default(),
            any_same: Signal::default(),
            last_state_v: Signal::default(),
            issue: Signal::default(),
            p_ent: signals(ew),
            victim_req: Signal::default(),
            any_nodep: Signal::default(),
            lk_any: Signal::default(),
            lk_slot: Signal::default(),
            slot_ent_v: Signal::default(),
            slot_gen_v: Signal::default(),
            slot_count_v: Signal::default(),
            slot_count32: Signal::default(),
            slot_v_d: Signal::default(),
            slot_lock_d: signals(t),
            rqf_acc: Signal::default(),
            slot_lbit: Signal::default(),
            slot_held_rq: Signal::default(),
            fl: signals(n),
            slot_rq_d: Signal::default(),
            flags_post: Signal::default(),
            tp_in_rqf: Signal::default(),
            tp_lk_rqf: Signal::default(),
            lbit_q: signals(n),
            handshake: Signal::default(),
            pe_reason: Signal::default(),
            ps_reason: Signal::default(),
            pe_rq: Signal::default(),
            ps_rq: Signal::default(),
            pe_gen: signals(gw),
            ps_gen: signals(gw),
            pe_stype: signals(sw),
            ps_stype: signals(sw),
            pe_state: signals(stw),
            ps_state: signals(stw),
            pe_cnt: signals(cw),
            ps_cnt: signals(cw),
            pe_ent: signals(ew),
            ps_ent: signals(ew),
            pe_lock: signals(t),
            ps_lock: signals(t),

            ent_id: (0..n).map(|e| constant(e as u64)).collect(),
            ent_bit: (0..n).map(|e| (0..ew).map(|b| Constant::new((e >> b) & 1 == 1)).collect()).collect(),
            stype_id: (0..s).map(|x| constant(x as u64)).collect(),
            cap_m1: cfg.capacities().into_iter().map(|c| constant(c - 1)).collect(),
            cap_one: cfg.capacities().into_iter().map(|c| Constant::new(c == 1)).collect(),
            dep_type: (0..if n > 1 { s } else { 0 })
                .map(|x| (0..s).map(|y| Constant::new(deps[x].contains(&y))).collect())
                .collect(),
            tp_id: (0..t).map(|x| constant(x as u64)).collect(),
            lane_id: (0..w).map(|x| constant(x as u64)).collect(),
            w_stype: weights(sw),
            w_state: weights(stw),
            w_cnt: weights(cw),
            w_gen: weights(gw),
            w_ent: weights(ew),
            w_tp: weights(ri * tpw),
            no_tp: (0..ri).map(|_| constant(0)).collect(),
            w_cnt32: weights(cw),
            no_stype: constant(0),
            no_state: constant(0),
            no_cnt: constant(0),
            one_cnt: constant(1),
            no_gen: constant(0),
            no_ent: constant(0),
            no_32: constant(0),
            one_32: constant(1),
            no_reason: constant(0),
            r_full: constant(REASON_FULL),
            r_evict: constant(REASON_EVICT),
            r_dep: constant(REASON_DEP),
            r_rqflush: constant(REASON_RQFLUSH),
            r_drain: constant(REASON_DRAIN),
            pol_nodep: Constant::new(policy.nodep()),
            sort_state: Constant::new(cfg.sort_state),
            registered_issue: Constant::new(cfg.registered_issue),
        }
    }

    /// Entries.
    pub(super) fn n(&self) -> usize {
        self.valid_q.len()
    }

    /// Entries of a table without a matrix (one entry): 1, else 0.
    pub(super) fn solo(&self) -> usize {
        if self.mx.is_empty() {
            self.n()
        } else {
            0
        }
    }

    /// Matrices with count inputs (the fullest policies): 1 or 0.
    pub(super) fn mx_counts(&self) -> usize {
        self.mx.iter().filter(|m| !m.cnt.is_empty()).count()
    }

    /// Address bits of the reference memories: ceil(log2 N), 0 for one entry.
    pub(super) fn ram_addr_bits(&self) -> usize {
        address_bits(self.n())
    }
}

hdl::logic_from_parts!([] TaskCombinerCore, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
