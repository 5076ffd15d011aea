//! The task-combiner core: the table's registers and the rules of one edge.

use super::*;

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
    /// Some pending entry depends on this one.
    depprop: Vec<Signal<Local, Bit>>,
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
        TaskCombinerCore {
            clock: Signal::default(),
            reset: Signal::default(),
            in_valid: Signal::default(),
            in_stype: Signal::default(),
            in_state: Signal::default(),
            in_ref: signals(rw),
            in_tpipe: Signal::default(),
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

            valid_q: dffs(n),
            pend_q: dffs(n),
            rq_q: dffs(n),
            reason_q: (0..n).map(|_| DFF::default()).collect(),
            stype_q: grid(n, sw),
            state_q: grid(n, stw),
            count_q: grid(n, cw),
            gen_q: grid(n, gw),
            lock_q: grid(n, t),
            mx: if n > 1 { vec![TaskMatrix::new(n, if policy.fullest() { cw } else { 0 })] } else { vec![] },
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
            depprop: signals(n),
            lk_e: signals(n),
            lock_d: grid(n, t),
            lock_pd: grid(n, t),
            res_post: signals(n),
            lbit: signals(n),
            snap: signals(n),
            rq_d: signals(n),
            trig: signals(n),
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

impl Logic for TaskCombinerCore {
    #[hdl_gen]
    fn update(&mut self) {
        // ------------------------------------------------------------------
        // Clocks; by default every register holds.
        // ------------------------------------------------------------------
        dff_setup!(self, clock, slot_v_q, slot_rq_q, slot_reason_q, last_v_q, rq_busy_q, rqf_done_q, lk_hit_q, perf_tasks_q, perf_lanes_q);
        for e in 0..self.n() {
            self.valid_q[e].clock.next = self.clock.val();
            self.pend_q[e].clock.next = self.clock.val();
            self.rq_q[e].clock.next = self.clock.val();
            self.reason_q[e].clock.next = self.clock.val();
            self.reason_q[e].d.next = self.reason_q[e].q.val();
            for b in 0..self.w_stype.len() {
                self.stype_q[e][b].clock.next = self.clock.val();
                self.stype_q[e][b].d.next = self.stype_q[e][b].q.val();
            }
            for b in 0..self.w_state.len() {
                self.state_q[e][b].clock.next = self.clock.val();
                self.state_q[e][b].d.next = self.state_q[e][b].q.val();
            }
            for b in 0..self.w_cnt.len() {
                self.count_q[e][b].clock.next = self.clock.val();
                self.count_q[e][b].d.next = self.count_q[e][b].q.val();
            }
            for b in 0..self.w_gen.len() {
                self.gen_q[e][b].clock.next = self.clock.val();
                self.gen_q[e][b].d.next = self.gen_q[e][b].q.val();
            }
            for k in 0..self.tp_id.len() {
                self.lock_q[e][k].clock.next = self.clock.val();
            }
        }
        for b in 0..self.w_ent.len() {
            self.slot_ent_q[b].clock.next = self.clock.val();
            self.slot_ent_q[b].d.next = self.slot_ent_q[b].q.val();
        }
        for b in 0..self.w_gen.len() {
            self.slot_gen_q[b].clock.next = self.clock.val();
            self.slot_gen_q[b].d.next = self.slot_gen_q[b].q.val();
        }
        for b in 0..self.w_stype.len() {
            self.slot_stype_q[b].clock.next = self.clock.val();
            self.slot_stype_q[b].d.next = self.slot_stype_q[b].q.val();
        }
        for b in 0..self.w_state.len() {
            self.slot_state_q[b].clock.next = self.clock.val();
            self.slot_state_q[b].d.next = self.slot_state_q[b].q.val();
        }
        for b in 0..self.w_cnt.len() {
            self.slot_count_q[b].clock.next = self.clock.val();
            self.slot_count_q[b].d.next = self.slot_count_q[b].q.val();
        }
        for k in 0..self.tp_id.len() {
            self.slot_lock_q[k].clock.next = self.clock.val();
        }
        for b in 0..self.rqf_tp_q.len() {
            self.rqf_tp_q[b].clock.next = self.clock.val();
            self.rqf_tp_q[b].d.next = self.rqf_tp_q[b].q.val();
        }

        // ------------------------------------------------------------------
        // Registered fields as numbers (padding bits are constant 0).
        // ------------------------------------------------------------------
        self.any_pend.next = false;
        self.any_valid.next = false;
        for e in 0..self.n() {
            self.stype_v[e].next = self.no_stype.val();
            for b in 0..self.w_stype.len() {
                if self.stype_q[e][b].q.val() {
                    self.stype_v[e].next = self.stype_v[e].val() | self.w_stype[b].val();
                }
            }
            self.state_v[e].next = self.no_state.val();
            for b in 0..self.w_state.len() {
                if self.state_q[e][b].q.val() {
                    self.state_v[e].next = self.state_v[e].val() | self.w_state[b].val();
                }
            }
            self.count_v[e].next = self.no_cnt.val();
            for b in 0..self.w_cnt.len() {
                if self.count_q[e][b].q.val() {
                    self.count_v[e].next = self.count_v[e].val() | self.w_cnt[b].val();
                }
            }
            self.gen_v[e].next = self.no_gen.val();
            for b in 0..self.w_gen.len() {
                if self.gen_q[e][b].q.val() {
                    self.gen_v[e].next = self.gen_v[e].val() | self.w_gen[b].val();
                }
            }
            self.open[e].next = self.valid_q[e].q.val() & !self.pend_q[e].q.val();
            if self.valid_q[e].q.val() {
                self.any_valid.next = true;
            }
            if self.valid_q[e].q.val() & self.pend_q[e].q.val() {
                self.any_pend.next = true;
            }
            // Matrix outputs (a one-entry table has no pairs: no dependency,
            // every set's only member is its oldest).
            self.rowz[e].next = true;
            self.old_e[e].next = false;
            self.old_s[e].next = false;
            self.best[e].next = false;
            self.depprop[e].next = false;
            for c in 0..self.mx.len() {
                self.rowz[e].next = self.mx[c].rowz[e].val();
                self.old_e[e].next = self.mx[c].old_e[e].val();
                self.old_s[e].next = self.mx[c].old_s[e].val();
                self.best[e].next = self.mx[c].best[e].val();
                self.depprop[e].next = self.mx[c].depprop[e].val();
            }
        }
        // Per entry from registers: count + 1, gen + 1 (bitwise ripple, no
        // carry chain), and "full if appended" (count + 1 == capacity[stype]).
        for e in 0..self.n() {
            self.carry.next = true;
            for b in 0..self.w_cnt.len() {
                self.cnt_inc[e][b].next = self.count_q[e][b].q.val() ^ self.carry.val();
                self.carry.next = self.carry.val() & self.count_q[e][b].q.val();
            }
            self.carry.next = true;
            for b in 0..self.w_gen.len() {
                self.gen_nx[e][b].next = self.gen_q[e][b].q.val() ^ self.carry.val();
                self.carry.next = self.carry.val() & self.gen_q[e][b].q.val();
            }
            self.full_app[e].next = false;
            for x in 0..self.stype_id.len() {
                if (self.stype_v[e].val() == self.stype_id[x].val()) & (self.count_v[e].val() == self.cap_m1[x].val()) {
                    self.full_app[e].next = true;
                }
            }
        }
        self.last_state_v.next = self.no_state.val();
        for b in 0..self.w_state.len() {
            if self.slot_state_q[b].q.val() {
                self.last_state_v.next = self.last_state_v.val() | self.w_state[b].val();
            }
        }
        self.slot_ent_v.next = self.no_ent.val();
        for b in 0..self.w_ent.len() {
            if self.slot_ent_q[b].q.val() {
                self.slot_ent_v.next = self.slot_ent_v.val() | self.w_ent[b].val();
            }
        }
        self.slot_gen_v.next = self.no_gen.val();
        for b in 0..self.w_gen.len() {
            if self.slot_gen_q[b].q.val() {
                self.slot_gen_v.next = self.slot_gen_v.val() | self.w_gen[b].val();
            }
        }
        self.slot_count_v.next = self.no_cnt.val();
        self.slot_count32.next = self.no_32.val();
        for b in 0..self.w_cnt.len() {
            if self.slot_count_q[b].q.val() {
                self.slot_count_v.next = self.slot_count_v.val() | self.w_cnt[b].val();
                self.slot_count32.next = self.slot_count32.val() | self.w_cnt32[b].val();
            }
        }

        // ------------------------------------------------------------------
        // R2: match m, first free entry f, in_ready, in_tag, in_lane.
        // ------------------------------------------------------------------
        self.m_found.next = false;
        self.f_found.next = false;
        for e in 0..self.n() {
            self.mhit[e].next = self.open[e].val()
                & (self.stype_v[e].val() == self.in_stype.val())
                & (self.state_v[e].val() == self.in_state.val());
            if self.mhit[e].val() {
                self.m_found.next = true;
            }
            self.fsel[e].next = !self.valid_q[e].q.val() & !self.f_found.val();
            if !self.valid_q[e].q.val() {
                self.f_found.next = true;
            }
        }
        self.in_ready.next = !self.drain_req.val() & (self.m_found.val() | self.f_found.val());
        self.accept.next = self.in_valid.val() & self.in_ready.val();
        // (mhit[e] implies m_found and fsel[e] f_found: the per-entry strobes
        // skip the OR over the entries where they can.)
        for e in 0..self.n() {
            self.created[e].next = self.in_valid.val() & !self.drain_req.val() & !self.m_found.val() & self.fsel[e].val();
            self.appended[e].next = self.in_valid.val() & !self.drain_req.val() & self.mhit[e].val();
        }
        // Lane of the instance: count[m], or 0 in a new entry; the count after it.
        self.cnt_m.next = self.no_cnt.val();
        for e in 0..self.n() {
            if self.mhit[e].val() {
                self.cnt_m.next = self.cnt_m.val() | self.count_v[e].val();
            }
        }
        // Fullness: an appended entry is full when its count + 1 reaches the
        // capacity of its type (from registers, per entry); a created one when
        // the capacity of the instance's type is 1.
        self.full_in.next = false;
        for x in 0..self.stype_id.len() {
            if (self.in_stype.val() == self.stype_id[x].val()) & self.cap_one[x].val() {
                self.full_in.next = true;
            }
        }
        for b in 0..self.in_lane.len() {
            self.in_lane[b].next = self.cnt_m.val().get_bit(b);
        }
        // Tag: {gen[m], m}, or {gen[f] + 1, f}.
        for b in 0..self.w_ent.len() {
            self.t_ent[b].next = false;
            self.f_ent[b].next = false;
            for e in 0..self.n() {
                if self.mhit[e].val() & self.ent_bit[e][b].val() {
                    self.t_ent[b].next = true;
                }
                if self.fsel[e].val() & self.ent_bit[e][b].val() {
                    self.f_ent[b].next = true;
                }
            }
            if !self.m_found.val() {
                self.t_ent[b].next = self.f_ent[b].val();
            }
            self.in_tag_ent[b].next = self.t_ent[b].val();
        }
        for b in 0..self.w_gen.len() {
            self.gen_m[b].next = false;
            self.gen_f[b].next = false;
            for e in 0..self.n() {
                if self.mhit[e].val() & self.gen_q[e][b].q.val() {
                    self.gen_m[b].next = true;
                }
                if self.fsel[e].val() & self.gen_nx[e][b].val() {
                    self.gen_f[b].next = true;
                }
            }
        }
        for b in 0..self.w_gen.len() {
            self.t_gen[b].next = self.gen_f[b].val();
            if self.m_found.val() {
                self.t_gen[b].next = self.gen_m[b].val();
            }
            self.in_tag_gen[b].next = self.t_gen[b].val();
        }

        // ------------------------------------------------------------------
        // R4: issue into the output slot: the oldest eligible pending entry,
        // in the last issued state first when sort_state.
        // ------------------------------------------------------------------
        self.slot_free.next = !self.slot_v_q.q.val() | self.out_ready.val();
        self.any_elig.next = false;
        self.any_same.next = false;
        for e in 0..self.n() {
            self.elig[e].next = self.valid_q[e].q.val() & self.pend_q[e].q.val() & self.rowz[e].val();
            if self.elig[e].val() {
                self.any_elig.next = true;
            }
            self.same[e].next = self.elig[e].val() & (self.state_v[e].val() == self.last_state_v.val());
            if self.same[e].val() {
                self.any_same.next = true;
            }
        }
        // (A one-entry table has no matrix: its only member is the oldest.)
        for e in 0..self.solo() {
            self.old_e[e].next = self.elig[e].val();
            self.old_s[e].next = self.same[e].val();
        }
        // The oldest of the set in use (same state first when sort_state):
        // both oldest members come from the matrix in parallel, then select.
        self.use_same.next = self.sort_state.val() & self.last_v_q.q.val() & self.any_same.val();
        self.issue.next = self.slot_free.val() & self.any_elig.val();
        // (old_e / old_s are empty when their set is, and use_same implies
        // any_same: psel needs slot_free only, not any_elig.)
        for e in 0..self.n() {
            self.psel[e].next = self.slot_free.val() & !self.use_same.val() & self.old_e[e].val();
            if self.use_same.val() {
                self.psel[e].next = self.slot_free.val() & self.old_s[e].val();
            }
        }
        self.pe_reason.next = self.no_reason.val();
        self.ps_reason.next = self.no_reason.val();
        for e in 0..self.n() {
            if self.old_e[e].val() {
                self.pe_reason.next = self.pe_reason.val() | self.reason_q[e].q.val();
            }
            if self.old_s[e].val() {
                self.ps_reason.next = self.ps_reason.val() | self.reason_q[e].q.val();
            }
        }
        for b in 0..self.w_gen.len() {
            self.pe_gen[b].next = false;
            self.ps_gen[b].next = false;
            for e in 0..self.n() {
                self.pe_gen[b].next = self.pe_gen[b].val() | (self.old_e[e].val() & self.gen_q[e][b].q.val());
                self.ps_gen[b].next = self.ps_gen[b].val() | (self.old_s[e].val() & self.gen_q[e][b].q.val());
            }
        }
        for b in 0..self.w_stype.len() {
            self.pe_stype[b].next = false;
            self.ps_stype[b].next = false;
            for e in 0..self.n() {
                self.pe_stype[b].next = self.pe_stype[b].val() | (self.old_e[e].val() & self.stype_q[e][b].q.val());
                self.ps_stype[b].next = self.ps_stype[b].val() | (self.old_s[e].val() & self.stype_q[e][b].q.val());
            }
        }
        for b in 0..self.w_state.len() {
            self.pe_state[b].next = false;
            self.ps_state[b].next = false;
            for e in 0..self.n() {
                self.pe_state[b].next = self.pe_state[b].val() | (self.old_e[e].val() & self.state_q[e][b].q.val());
                self.ps_state[b].next = self.ps_state[b].val() | (self.old_s[e].val() & self.state_q[e][b].q.val());
            }
        }
        for b in 0..self.w_cnt.len() {
            self.pe_cnt[b].next = false;
            self.ps_cnt[b].next = false;
            for e in 0..self.n() {
                self.pe_cnt[b].next = self.pe_cnt[b].val() | (self.old_e[e].val() & self.count_q[e][b].q.val());
                self.ps_cnt[b].next = self.ps_cnt[b].val() | (self.old_s[e].val() & self.count_q[e][b].q.val());
            }
        }
        for b in 0..self.w_ent.len() {
            self.pe_ent[b].next = false;
            self.ps_ent[b].next = false;
            for e in 0..self.n() {
                self.pe_ent[b].next = self.pe_ent[b].val() | (self.old_e[e].val() & self.ent_bit[e][b].val());
                self.ps_ent[b].next = self.ps_ent[b].val() | (self.old_s[e].val() & self.ent_bit[e][b].val());
            }
            // (Read address and slot tag are used only under `issue`.)
            self.p_ent[b].next = (self.use_same.val() & self.ps_ent[b].val()) | (!self.use_same.val() & self.pe_ent[b].val());
        }

        // ------------------------------------------------------------------
        // D3: the instance's producers: resident entries of the same state whose
        // type the instance's type consumes, that stay resident at this edge.
        // ------------------------------------------------------------------
        for y in 0..self.in_dep.len() {
            self.in_dep[y].next = false;
        }
        for x in 0..self.dep_type.len() {
            if self.in_stype.val() == self.stype_id[x].val() {
                for y in 0..self.in_dep.len() {
                    self.in_dep[y].next = self.dep_type[x][y].val();
                }
            }
        }
        for e in 0..self.dset.len() {
            self.dtype[e].next = false;
            for y in 0..self.in_dep.len() {
                if self.in_dep[y].val() & (self.stype_v[e].val() == self.stype_id[y].val()) {
                    self.dtype[e].next = true;
                }
            }
            // (The entry moving into the slot is masked in the matrix, after the OR.)
            self.dset[e].next = self.valid_q[e].q.val()
                & self.dtype[e].val()
                & (self.state_v[e].val() == self.in_state.val());
        }

        // ------------------------------------------------------------------
        // R3: eviction victim when a new key finds no room and nothing is pending.
        // ------------------------------------------------------------------
        self.victim_req.next = self.in_valid.val()
            & !self.m_found.val()
            & !self.f_found.val()
            & !self.drain_req.val()
            & !self.any_pend.val();
        self.any_nodep.next = false;
        for e in 0..self.n() {
            if self.open[e].val() & self.rowz[e].val() {
                self.any_nodep.next = true;
            }
        }
        // The victim is the candidate no other candidate beats (TaskMatrix:
        // pairwise count / age relation, log depth). A victim is only wanted
        // when every entry is OPEN, so without the nodep restriction every
        // entry is a candidate.
        for e in 0..self.n() {
            self.cand[e].next = true;
            if self.pol_nodep.val() & self.any_nodep.val() {
                self.cand[e].next = self.open[e].val() & self.rowz[e].val();
            }
        }
        for e in 0..self.solo() {
            self.best[e].next = self.cand[e].val();
        }
        for e in 0..self.n() {
            self.vsel[e].next = self.victim_req.val() & self.best[e].val();
        }

        // ------------------------------------------------------------------
        // R5: DEP propagation, one level per cycle; R6: locks.
        // ------------------------------------------------------------------
        // (depprop from the matrix.)
        self.lk_any.next = false;
        for e in 0..self.n() {
            self.lk_e[e].next = self.lk_valid.val()
                & self.valid_q[e].q.val()
                & (self.gen_v[e].val() == self.lk_gen.val())
                & (self.ent_id[e].val() == self.lk_ent.val());
            if self.lk_e[e].val() {
                self.lk_any.next = true;
            }
        }
        self.lk_slot.next = self.lk_valid.val()
            & !self.lk_any.val()
            & self.slot_v_q.q.val()
            & (self.slot_gen_v.val() == self.lk_gen.val())
            & (self.slot_ent_v.val() == self.lk_ent.val());
        self.lk_hit_q.d.next = self.lk_any.val() | self.lk_slot.val();

        // Post-edge lock masks and residency.
        for e in 0..self.n() {
            for k in 0..self.tp_id.len() {
                self.lock_d[e][k].next = self.lock_q[e][k].q.val()
                    | (self.appended[e].val() & (self.in_tpipe.val() == self.tp_id[k].val()))
                    | (self.lk_e[e].val() & (self.lk_tpipe.val() == self.tp_id[k].val()));
                if self.created[e].val() {
                    self.lock_d[e][k].next = self.in_tpipe.val() == self.tp_id[k].val();
                }
                self.lock_pd[e][k].next = self.lock_q[e][k].q.val() | (self.lk_e[e].val() & (self.lk_tpipe.val() == self.tp_id[k].val()));
                self.lock_q[e][k].d.next = self.lock_d[e][k].val();
            }
            self.res_post[e].next = (self.valid_q[e].q.val() & !self.psel[e].val()) | self.created[e].val();
        }

        // ------------------------------------------------------------------
        // The slot after the edge (load, hold under back-pressure, or empty).
        // ------------------------------------------------------------------
        self.handshake.next = self.slot_v_q.q.val() & self.out_ready.val();
        self.slot_v_d.next = self.issue.val() | (self.slot_v_q.q.val() & !self.out_ready.val());
        for k in 0..self.tp_id.len() {
            // (One-hot selects are AND-OR, not priority mux chains; a picked
            // entry is PENDING, so its post-edge lock is lock_q | the lock.)
            self.pe_lock[k].next = false;
            self.ps_lock[k].next = false;
            for e in 0..self.n() {
                self.pe_lock[k].next = self.pe_lock[k].val() | (self.old_e[e].val() & self.lock_pd[e][k].val());
                self.ps_lock[k].next = self.ps_lock[k].val() | (self.old_s[e].val() & self.lock_pd[e][k].val());
            }
            self.slot_lock_d[k].next = self.slot_lock_q[k].q.val() | (self.lk_slot.val() & (self.lk_tpipe.val() == self.tp_id[k].val()));
            if self.issue.val() {
                self.slot_lock_d[k].next = (self.use_same.val() & self.ps_lock[k].val()) | (!self.use_same.val() & self.pe_lock[k].val());
            }
            self.slot_lock_q[k].d.next = self.slot_lock_d[k].val();
        }

        // ------------------------------------------------------------------
        // R7: render-queue flush: snapshot of post-edge holders of lock bit
        // rqf_tpipe; busy until no entry and no slot task carries the flag.
        // ------------------------------------------------------------------
        self.rqf_ready.next = !self.rq_busy_q.q.val();
        self.rqf_acc.next = self.rqf_valid.val() & !self.rq_busy_q.q.val();
        self.tp_in_rqf.next = false;
        self.tp_lk_rqf.next = false;
        for k in 0..self.tp_id.len() {
            if (self.in_tpipe.val() == self.tp_id[k].val()) & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                self.tp_in_rqf.next = true;
            }
            if (self.lk_tpipe.val() == self.tp_id[k].val()) & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                self.tp_lk_rqf.next = true;
            }
        }
        for e in 0..self.n() {
            self.lbit_q[e].next = false;
            for k in 0..self.tp_id.len() {
                if self.lock_q[e][k].q.val() & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                    self.lbit_q[e].next = true;
                }
            }
            // Post-edge lock bit rqf_tpipe of a post-edge resident entry, written
            // flat (the instance enters only through appended / created, never
            // through the whole lock_d word): a resident one keeps its bits and
            // gains the instance's and the lock's; a created one has the instance's.
            // (!psel is left to res_post: trig reads snap of OPEN entries only.)
            self.lbit[e].next = (self.valid_q[e].q.val()
                & (self.lbit_q[e].val()
                    | (self.appended[e].val() & self.tp_in_rqf.val())
                    | (self.lk_e[e].val() & self.tp_lk_rqf.val())))
                | (self.created[e].val() & self.tp_in_rqf.val());
            self.snap[e].next = self.rqf_acc.val() & self.lbit[e].val();
            self.rq_d[e].next = self.res_post[e].val() & (self.rq_q[e].q.val() | self.snap[e].val());
        }
        // The flag a resident entry has after the edge, wherever it goes (it
        // stays, or moves into the slot with its post-edge lock lock_pd),
        // leaving the instance aside: from registers and inputs, no psel.
        for e in 0..self.n() {
            self.fl[e].next = self.rq_q[e].q.val()
                | (self.rqf_acc.val() & (self.lbit_q[e].val() | (self.lk_e[e].val() & self.tp_lk_rqf.val())));
        }
        self.pe_rq.next = false;
        self.ps_rq.next = false;
        for e in 0..self.n() {
            self.pe_rq.next = self.pe_rq.val() | (self.old_e[e].val() & self.fl[e].val());
            self.ps_rq.next = self.ps_rq.val() | (self.old_s[e].val() & self.fl[e].val());
        }
        // A slot task held under back-pressure (no issue then) keeps its flag
        // and may be snapshotted (its lock gains lk_slot's bit); an issued one
        // has its entry's flag.
        self.slot_lbit.next = self.lk_slot.val() & self.tp_lk_rqf.val();
        for k in 0..self.tp_id.len() {
            if self.slot_lock_q[k].q.val() & (self.rqf_tpipe.val() == self.tp_id[k].val()) {
                self.slot_lbit.next = true;
            }
        }
        self.slot_held_rq.next = self.slot_v_q.q.val()
            & !self.out_ready.val()
            & (self.slot_rq_q.q.val() | (self.rqf_acc.val() & self.slot_lbit.val()));
        self.slot_rq_d.next = self.slot_held_rq.val();
        if self.issue.val() {
            self.slot_rq_d.next = (self.use_same.val() & self.ps_rq.val()) | (!self.use_same.val() & self.pe_rq.val());
        }
        // Some flag after the edge (= slot_rq_d | OR rq_d), written without the
        // pick: every resident entry's flag is after the edge in it or in the
        // slot (an issue needs a free slot, so none is held then), and the
        // instance only enters through `accept`: the entry it goes to, created
        // or appended, is flagged iff the flush is accepted for its tile pipe.
        self.flags_post.next = self.slot_held_rq.val() | (self.rqf_acc.val() & self.tp_in_rqf.val() & self.accept.val());
        for e in 0..self.n() {
            if self.valid_q[e].q.val() & self.fl[e].val() {
                self.flags_post.next = true;
            }
        }
        self.rq_busy_q.d.next = (self.rqf_acc.val() | self.rq_busy_q.q.val()) & self.flags_post.val();
        self.rqf_done_q.d.next = (self.rqf_acc.val() | self.rq_busy_q.q.val()) & !self.flags_post.val();
        if self.rqf_acc.val() {
            for b in 0..self.rqf_tp_q.len() {
                self.rqf_tp_q[b].d.next = self.rqf_tpipe.val().get_bit(b);
            }
        }

        // ------------------------------------------------------------------
        // Entries at the edge: R9 accept, R8/R10 pending and reason, R4 free.
        // ------------------------------------------------------------------
        for e in 0..self.n() {
            // Triggers for an entry OPEN before the edge or created at it (R10 priority).
            self.trig[e].next = (self.open[e].val() | self.created[e].val())
                & ((self.appended[e].val() & self.full_app[e].val())
                    | (self.created[e].val() & self.full_in.val())
                    | self.vsel[e].val()
                    | (self.open[e].val() & self.depprop[e].val())
                    | self.snap[e].val()
                    | self.drain_req.val());
            self.valid_q[e].d.next = self.res_post[e].val();
            self.pend_q[e].d.next = self.res_post[e].val() & (self.pend_q[e].q.val() | self.trig[e].val());
            self.rq_q[e].d.next = self.rq_d[e].val();
            if self.trig[e].val() {
                if self.drain_req.val() {
                    self.reason_q[e].d.next = self.r_drain.val();
                }
                if self.snap[e].val() {
                    self.reason_q[e].d.next = self.r_rqflush.val();
                }
                if self.open[e].val() & self.depprop[e].val() {
                    self.reason_q[e].d.next = self.r_dep.val();
                }
                if self.vsel[e].val() {
                    self.reason_q[e].d.next = self.r_evict.val();
                }
                if (self.appended[e].val() & self.full_app[e].val()) | (self.created[e].val() & self.full_in.val()) {
                    self.reason_q[e].d.next = self.r_full.val();
                }
            }
            if self.appended[e].val() {
                for b in 0..self.w_cnt.len() {
                    self.count_q[e][b].d.next = self.cnt_inc[e][b].val();
                }
            }
            if self.created[e].val() {
                for b in 0..self.w_cnt.len() {
                    self.count_q[e][b].d.next = self.one_cnt.val().get_bit(b);
                }
                for b in 0..self.w_stype.len() {
                    self.stype_q[e][b].d.next = self.in_stype.val().get_bit(b);
                }
                for b in 0..self.w_state.len() {
                    self.state_q[e][b].d.next = self.in_state.val().get_bit(b);
                }
                for b in 0..self.w_gen.len() {
                    self.gen_q[e][b].d.next = self.gen_nx[e][b].val();
                }
            }
        }
        // Dependency and age matrices: the column of the entry leaving is
        // cleared; a created row starts empty; the instance's producers are
        // ORed into its row; a created entry is younger than every other.
        for c in 0..self.mx.len() {
            self.mx[c].clock.next = self.clock.val();
            self.mx[c].reset.next = self.reset.val();
            for e in 0..self.n() {
                self.mx[c].pend[e].next = self.valid_q[e].q.val() & self.pend_q[e].q.val();
                self.mx[c].elig[e].next = self.elig[e].val();
                self.mx[c].same[e].next = self.same[e].val();
                self.mx[c].cand[e].next = self.cand[e].val();
                self.mx[c].psel[e].next = self.psel[e].val();
                self.mx[c].created[e].next = self.created[e].val();
                self.mx[c].acc[e].next = self.appended[e].val() | self.created[e].val();
            }
            for e in 0..self.dset.len() {
                self.mx[c].dset[e].next = self.dset[e].val();
            }
        }
        // (CNT_W in the index arithmetic must be a loop variable for rust-hdl;
        // the matrix has no count inputs with the oldest policies.)
        for c in 0..self.mx_counts() {
            for cw in self.w_cnt.len()..(self.w_cnt.len() + 1) {
                for e in 0..self.n() {
                    for b in 0..self.w_cnt.len() {
                        self.mx[c].cnt[e * cw + b].next = self.count_q[e][b].q.val();
                    }
                }
            }
        }

        // ------------------------------------------------------------------
        // Slot registers, last state, performance counters.
        // ------------------------------------------------------------------
        self.slot_v_q.d.next = self.slot_v_d.val();
        self.slot_rq_q.d.next = self.slot_rq_d.val();
        for b in 0..self.w_ent.len() {
            if self.issue.val() {
                self.slot_ent_q[b].d.next = self.p_ent[b].val();
            }
        }
        // The picked entry's fields: AND-OR over the oldest of `elig` and of
        // `same` separately, then the late select (use_same) and load (issue).
        if self.issue.val() {
            if self.use_same.val() {
                self.slot_reason_q.d.next = self.ps_reason.val();
            } else {
                self.slot_reason_q.d.next = self.pe_reason.val();
            }
            for b in 0..self.w_gen.len() {
                self.slot_gen_q[b].d.next = (self.use_same.val() & self.ps_gen[b].val()) | (!self.use_same.val() & self.pe_gen[b].val());
            }
            for b in 0..self.w_stype.len() {
                self.slot_stype_q[b].d.next = (self.use_same.val() & self.ps_stype[b].val()) | (!self.use_same.val() & self.pe_stype[b].val());
            }
            for b in 0..self.w_state.len() {
                self.slot_state_q[b].d.next = (self.use_same.val() & self.ps_state[b].val()) | (!self.use_same.val() & self.pe_state[b].val());
            }
            for b in 0..self.w_cnt.len() {
                self.slot_count_q[b].d.next = (self.use_same.val() & self.ps_cnt[b].val()) | (!self.use_same.val() & self.pe_cnt[b].val());
            }
        }
        if self.issue.val() {
            self.last_v_q.d.next = true;
        }
        if self.handshake.val() {
            self.perf_tasks_q.d.next = self.perf_tasks_q.q.val() + self.one_32.val();
            self.perf_lanes_q.d.next = self.perf_lanes_q.q.val() + self.slot_count32.val();
        }

        // ------------------------------------------------------------------
        // Reference memories: write at accept, read when an entry enters the slot.
        // ------------------------------------------------------------------
        for l in 0..self.refs.len() {
            self.refs[l].clock.next = self.clock.val();
            // (A lane above 0 is written only by an append, and cnt_m is
            // non-zero only with a match: it needs in_valid and no drain, not
            // the OR over the entries in in_ready.)
            self.refs[l].write_enable.next = self.in_valid.val()
                & !self.drain_req.val()
                & (self.cnt_m.val() == self.lane_id[l].val())
                & (self.in_ready.val() | (self.lane_id[l].val() != self.no_cnt.val()));
            for b in 0..self.ram_addr_bits() {
                self.refs[l].write_address[b].next = self.t_ent[b].val();
                self.refs[l].read_address[b].next = self.p_ent[b].val();
            }
            for b in 0..self.in_ref.len() {
                self.refs[l].write_data[b].next = self.in_ref[b].val();
                self.out_refs[l][b].next = self.refs[l].read_data[b].val();
            }
            self.refs[l].read_enable.next = self.issue.val();
            self.out_lane_mask[l].next = self.slot_count_v.val() > self.lane_id[l].val();
        }

        // ------------------------------------------------------------------
        // Synchronous reset (R12): free table, empty slot, gens 0, flush idle.
        // ------------------------------------------------------------------
        if self.reset.val() {
            self.slot_v_q.d.next = false;
            self.slot_rq_q.d.next = false;
            self.last_v_q.d.next = false;
            self.rq_busy_q.d.next = false;
            self.rqf_done_q.d.next = false;
            self.lk_hit_q.d.next = false;
            self.perf_tasks_q.d.next = self.no_32.val();
            self.perf_lanes_q.d.next = self.no_32.val();
            for b in 0..self.rqf_tp_q.len() {
                self.rqf_tp_q[b].d.next = false;
            }
            for e in 0..self.n() {
                self.valid_q[e].d.next = false;
                self.pend_q[e].d.next = false;
                self.rq_q[e].d.next = false;
                for b in 0..self.w_gen.len() {
                    self.gen_q[e][b].d.next = false;
                }
            }
        }

        // ------------------------------------------------------------------
        // Outputs.
        // ------------------------------------------------------------------
        self.lk_hit.next = self.lk_hit_q.q.val();
        self.rqf_done.next = self.rqf_done_q.q.val();
        for b in 0..self.rqf_tp_q.len() {
            self.rqf_done_tpipe[b].next = self.rqf_tp_q[b].q.val();
        }
        self.drain_done.next = self.drain_req.val() & !self.any_valid.val() & !self.slot_v_q.q.val();
        self.out_valid.next = self.slot_v_q.q.val();
        for b in 0..self.w_ent.len() {
            self.out_tag_ent[b].next = self.slot_ent_q[b].q.val();
        }
        for b in 0..self.w_gen.len() {
            self.out_tag_gen[b].next = self.slot_gen_q[b].q.val();
        }
        for b in 0..self.w_stype.len() {
            self.out_stype[b].next = self.slot_stype_q[b].q.val();
        }
        for b in 0..self.w_state.len() {
            self.out_state[b].next = self.slot_state_q[b].q.val();
        }
        for b in 0..self.w_cnt.len() {
            self.out_count[b].next = self.slot_count_q[b].q.val();
        }
        for k in 0..self.tp_id.len() {
            self.out_lockmask[k].next = self.slot_lock_q[k].q.val();
        }
        self.out_reason.next = self.slot_reason_q.q.val();
        self.perf_tasks.next = self.perf_tasks_q.q.val();
        self.perf_lanes.next = self.perf_lanes_q.q.val();
        for e in 0..self.n() {
            self.st_valid[e].next = self.valid_q[e].q.val();
            self.st_open[e].next = self.open[e].val();
            self.st_pending[e].next = self.valid_q[e].q.val() & self.pend_q[e].q.val();
            for b in 0..self.w_cnt.len() {
                self.st_count[e][b].next = self.count_q[e][b].q.val();
            }
            for b in 0..self.w_stype.len() {
                self.st_stype[e][b].next = self.stype_q[e][b].q.val();
            }
            for b in 0..self.w_state.len() {
                self.st_state[e][b].next = self.state_q[e][b].q.val();
            }
            for k in 0..self.tp_id.len() {
                self.st_lockmask[e][k].next = self.lock_q[e][k].q.val();
            }
            for b in 0..self.w_ent.len() {
                self.st_tag_ent[e][b].next = self.ent_bit[e][b].val();
            }
            for b in 0..self.w_gen.len() {
                self.st_tag_gen[e][b].next = self.gen_q[e][b].q.val();
            }
        }
        // (N in the index arithmetic must be a loop variable for rust-hdl.)
        for c in 0..self.mx.len() {
            for nn in self.n()..(self.n() + 1) {
                for i in 0..self.n() {
                    for j in 0..self.n() {
                        self.st_dep[i][j].next = self.mx[c].dep[i * nn + j].val();
                    }
                }
            }
        }
        for e in 0..self.solo() {
            self.st_dep[e][e].next = false;
        }
    }
}
