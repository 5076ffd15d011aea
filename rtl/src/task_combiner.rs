//! # task_combiner — task combining unit with its task dependency matrix
//!
//! A table of `entries` SIMD tasks. Each computation instance (shader type,
//! state, one reference, requesting tile pipeline) is appended to the OPEN
//! task of its key (shader type, state) or opens a task in a free entry. A
//! task closes (PENDING) when it is full, evicted for a new key, needed by a
//! pending consumer, locked by a flushed render queue, or drained; closed tasks
//! leave one per cycle, producers first, through a single valid/ready output
//! slot to the SIMD logic. After CN patent "task combining" as specified in
//! `spec/task_combiner.md`: the task table of §4.3 (entry fields, allocation
//! and output rules), the task dependency unit of §4.4 in matrix form (E2),
//! the behavioural rules of §5 (match, fullness, triggers T1–T4, the
//! fullest / oldest / no-dependency policies, ordering), through the ports of
//! §10.3 and the cycle semantics of §10.5 as changed by the warpgen contract
//! (`docs/contracts/task_combiner.md`, which wins where they differ).
//!
//! ## Cycle timing (contract §4; spec §10.5)
//! * Every decision of cycle n is computed from the registers at the start of
//!   cycle n and the inputs of cycle n (R1). Combinational outputs:
//!   `in_ready`, `in_tag`, `in_lane` (registered table + `in_stype`,
//!   `in_state`, `drain_req`; never `in_valid`), `drain_done`, and decodes of
//!   registers (`rqf_ready` = !rq_busy, `out_lane_mask` from `out_count`,
//!   `st_open`, `st_pending`).
//! * Registered (visible at n+1): the table (`st_*`), the slot (`out_*`,
//!   `out_refs` from the lane memories' read registers), `lk_hit`, `rqf_done`
//!   (a one-cycle pulse), `rqf_done_tpipe`, `perf_*`.
//! * Latencies as §10.5's table: an instance accepted in n is in `st_*` at
//!   n+1; one that fills a task in n (no producers, slot free) is at `out_*`
//!   in n+2; each dependency level adds a cycle of propagation; an eviction
//!   for a new key in n makes the victim PENDING at n+1, in the slot at n+2
//!   with the new key accepted in n+2; a lock in n shows at n+1; a flush
//!   accepted in n has its snapshot PENDING at n+1 and the first task out at
//!   n+2; `rqf_done` follows the edge at which the last flagged task left.
//! * One instance, one lock, one flush request, one issue into the slot and
//!   one handshake per cycle, all at the same edge.
//!
//! ## Readings where the contract is silent (for comparison with the model)
//! * `in_tag` / `in_lane` are meaningful only when `in_valid && in_ready`;
//!   with neither a match nor a free entry they read {0, 0} / 0.
//! * "Oldest" is creation order: a task re-created in a freed entry is the
//!   youngest. "The state of the last task moved into the slot" is the slot's
//!   state register, which changes only when a task enters the slot, so it
//!   survives the slot emptying.
//! * An entry that becomes PENDING at an edge propagates DEP from the next
//!   cycle; an entry moving into the slot at an edge neither propagates nor
//!   joins an instance's dependency row (its column is cleared at that edge).
//! * The slot's payload (`out_*`) and a free entry's fields (`st_count`,
//!   `st_stype`, `st_state`, `st_lockmask`) keep stale values; reset clears
//!   what is observable (valid/pending/flags, gens, dependency and age
//!   matrices, slot valid, flush state, `lk_hit`, counters), not those.
//! * Out-of-range ids (contract §3) are not checked: a type at or above
//!   `shader_types` has capacity 0 (never FULL) and no producers, a tile
//!   pipeline at or above `tile_pipes` sets no lock bit and flushes nothing.
//!
//! ## Deviations from the spec's proposal (§10)
//! * D1: `clock` / `reset` (synchronous, active high) instead of `clk` / `rst_n`.
//! * D2: no configuration ports: policy, capacities and `sort_state` are
//!   TOML parameters, constants of the emitted Verilog. No `cfg_hold_full`,
//!   no HELD state: a task that reaches its capacity is PENDING(FULL) at once.
//! * D3: no dependency tags (`in_dep_vld`, `in_dep_tag`, `err_dep` removed).
//!   An instance of type s, state st accepted into entry t ORs into row t
//!   every entry j that stays resident at the edge (not moving into the slot),
//!   j != t, of state st and of a type in `depends[s]` (table form §4.4.2 /
//!   §10.8, generalised). `depends[s]` holds only types below s (validated),
//!   so the graph is acyclic.
//! * D4: one reference per instance, no aux references.
//! * D5: `shader_types` is 1 to 8; STYPE_W = max(1, ceil(log2 shader_types)).
//! * D6: `st_held` removed; the other observability ports are kept.
//! * Ranges are the contract's: `entries` 1 to 64 (§10.2: 2 to 128), `width`
//!   4 to 64 (§10.2: 2 to 64).
//! * `out_refs` lanes at and above `out_count` show stale references.
//!
//! ## Storage (flip-flops for control, block RAM for references)
//! * Per entry, one-bit registers: valid, pending, flush flag; reason (3);
//!   stype (STYPE_W), state (STATE_W), count (CNT_W), gen (GEN_W), lock mask
//!   (N_TPIPE); a dependency row and an age row of N-1 bits each, in the
//!   matrix child [`TaskMatrix`] (none for a one-entry table).
//! * Matrices ([`TaskMatrix`], hand-written word-level Verilog over N-bit rows,
//!   so the emitted text and Verilator's work grow with N, not with N^2
//!   one-bit statements): `dep_q[i][j]` = entry i depends on entry j;
//!   `old_q[k][x]` = entry x was created before entry k, a full N x N
//!   older-than relation (diagonals constant 0, removed by synthesis). A
//!   created entry gets every other entry as older and leaves every other
//!   row. The oldest member of a set X is the member k with X & old_q[k] == 0:
//!   one AND-reduce per row, no comparator. Only pairs of resident entries
//!   are ever read, so free entries' rows and the reset value do not matter.
//!   (Until this change the age relation was a half matrix of N*floor(N/2)
//!   one-bit registers, each unordered pair once; the full rows cost
//!   N*(N-1-floor(N/2)) more flip-flops, +112 at 16 entries, +1984 at 64, and
//!   make every row one word.)
//! * Slot: valid, flush flag, reason (3), tag {gen, entry} (GEN_W + ENT_W),
//!   stype, state (also the "last issued state"), count, lock mask; a
//!   "task issued since reset" bit; flush busy / done / tile pipe (TP_W);
//!   `lk_hit`; two 32-bit counters.
//! * References: one [`SyncRam`] per lane, `entries` words of `ref_width`
//!   bits, written at accept (word = target entry) and read into the lane's
//!   read register when a task enters the slot (read enable), so the slot's
//!   references stay put under back-pressure while the freed entry is reused.
//!   yosys maps each to an `SB_RAM40_4K` (a one-entry table included).
//! * Area: [`flip_flops`] = N*(6 + STYPE_W + STATE_W + CNT_W + GEN_W + N_TPIPE
//!   + 2(N-1)) + 73 + ENT_W + GEN_W + STYPE_W + STATE_W + CNT_W
//!   + N_TPIPE + TP_W, and N x SIMD_W x REF_W reference bits:
//!   - default (16 entries, 32 lanes): 1063 flip-flops, 32 x (16 x 13) reference
//!     bits in 32 `SB_RAM40_4K`;
//!   - 64 entries x 64 lanes (other keys default): 10154 flip-flops, 64 x (64 x 13)
//!     = 53,248 reference bits (the patent's option-4 figure, §10.8) in 64
//!     `SB_RAM40_4K`.
//!   The dependency and age bits grow as N^2 (4032 + 4032 of the 10154 at 64).
//!
//! ## Logic structure for clock rate (same cycle timing)
//! * Victim (R3): the candidate no other candidate beats, from a pairwise
//!   relation in [`TaskMatrix`]: j beats i when {count_j, j older than i} >
//!   {count_i, 0} (fullest; age alone for oldest), one AND/OR comparison per
//!   unordered pair (no carry chain), then an N-input NOR per entry: log depth
//!   where the running maximum over the entries it replaces was a chain (a
//!   victim is only wanted when every entry is OPEN, so without the nodep
//!   restriction every entry is a candidate).
//! * Issue (R4): the oldest of the eligible set and the oldest of its
//!   same-state subset come from the matrix in parallel; the late "use the
//!   same-state subset" only selects, after the AND-OR of the picked entry's
//!   fields into the slot.
//! * One-hot selects (matched entry's count, picked entry's fields) are AND-OR
//!   terms, never priority-mux chains.
//! * Per entry from registers: count + 1, gen + 1 (bitwise) and "full if
//!   appended" (count + 1 == capacity of its type); the instance only selects
//!   among them. The flush's "some flag after the edge" takes the instance in
//!   through `accept` alone.
//! * Late signals enter where they are implied, not through the ORs over the
//!   entries: an append strobe is in_valid & !drain & mhit (a match implies
//!   in_ready), a reference lane above 0 is written on in_valid & !drain and
//!   the lane (only a match gives a non-zero lane), the target index selects
//!   between the match's and the free entry's AND-ORs, the pick needs only a
//!   free slot (the oldest of an empty set is empty), and the pick's index
//!   (read address, slot tag) is not gated by `issue` (read enable is).
//! * The flush: each entry's post-edge flag is computed from registers and
//!   inputs wherever the entry goes (it stays or moves into the slot), so
//!   "some flag after the edge" and the slot's flag never wait for the pick
//!   to leave the entries' OR; the flush snapshot and the instance's
//!   producers are masked by the pick only at the register (res_post, the
//!   matrix's column clear).
//!
//! ## Widths
//! Seven independent widths (state, generation, count, shader type, entry
//! index, tile pipe, reference) make const-generic dispatch ([`crate::with_width!`])
//! impractical (one monomorphization per combination). Every field is a `Vec`
//! of one-bit registers (the pattern of branch_stack's occupancy), so every
//! register and every output is exactly as wide as the config says. For
//! arithmetic and comparison a field is assembled into a number of the core
//! width ([`STATE_BITS`] and friends) whose padding bits are constant 0 and
//! synthesize away; the top module zero-extends id inputs to those widths
//! (emit.rs layer 3) and packs the one-bit core outputs into its exact ports.

use crate::config::TaskCombinerConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{constant, signals};
use crate::mem::{address_bits, SyncRam};
use rust_hdl::prelude::*;

/// Core widths of the zero-extended inputs and of the numbers the logic
/// computes with (each at least the largest width the config allows). Every
/// register is exact: a field of `w` bits is `w` one-bit registers.
pub const STYPE_BITS: usize = 3;
pub const STATE_BITS: usize = 16;
pub const CNT_BITS: usize = 8;
pub const GEN_BITS: usize = 8;
pub const ENT_BITS: usize = 6;
pub const TP_BITS: usize = 3;
type Stype = Bits<STYPE_BITS>;
type State = Bits<STATE_BITS>;
type Cnt = Bits<CNT_BITS>;
type Gen = Bits<GEN_BITS>;
type Ent = Bits<ENT_BITS>;
type Tp = Bits<TP_BITS>;
/// `out_reason` / per-entry reason: 1 FULL, 2 EVICT, 3 DEP, 4 RQFLUSH, 5 DRAIN.
type Reason = Bits<3>;

/// Reason codes of `out_reason` (contract §3).
pub const REASON_FULL: u64 = 1;
pub const REASON_EVICT: u64 = 2;
pub const REASON_DEP: u64 = 3;
pub const REASON_RQFLUSH: u64 = 4;
pub const REASON_DRAIN: u64 = 5;

fn dffs(n: usize) -> Vec<DFF<Bit>> {
    (0..n).map(|_| DFF::default()).collect()
}

fn dff_grid(rows: usize, cols: usize) -> Vec<Vec<DFF<Bit>>> {
    (0..rows).map(|_| dffs(cols)).collect()
}

fn grid<D: Direction, T: Synth>(rows: usize, cols: usize) -> Vec<Vec<Signal<D, T>>> {
    (0..rows).map(|_| signals(cols)).collect()
}

/// `2^i` for i < n: the weight of bit i when a field is assembled from its registers.
fn weights<const N: usize>(n: usize) -> Vec<Constant<Bits<N>>> {
    (0..n).map(|i| constant(1 << i)).collect()
}

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
            stype_q: dff_grid(n, sw),
            state_q: dff_grid(n, stw),
            count_q: dff_grid(n, cw),
            gen_q: dff_grid(n, gw),
            lock_q: dff_grid(n, t),
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
    fn n(&self) -> usize {
        self.valid_q.len()
    }

    /// Entries of a table without a matrix (one entry): 1, else 0.
    fn solo(&self) -> usize {
        if self.mx.is_empty() {
            self.n()
        } else {
            0
        }
    }

    /// Matrices with count inputs (the fullest policies): 1 or 0.
    fn mx_counts(&self) -> usize {
        self.mx.iter().filter(|m| !m.cnt.is_empty()).count()
    }

    /// Address bits of the reference memories: ceil(log2 N), 0 for one entry.
    fn ram_addr_bits(&self) -> usize {
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

/// The dependency and age matrices of an `n`-entry table (n >= 2) and the
/// logic over them, as hand-written word-level Verilog: one N-bit row per
/// entry, so the emitted text and Verilator's work grow as N rows, not N^2
/// one-bit statements. Ports are vectors of bits (`name$i` inside the text),
/// one per entry (`dep`: N x N, bit i*N+j).
///
/// * `dep` row i, bit j: entry i depends on entry j (the diagonal is constant 0).
///   Next row i: cleared by `reset` and by `created[i]`; ORed with `dset` when
///   `acc[i]` (the instance goes into i); then column j cleared when `psel[j]`
///   (so `dset` need not exclude the entry leaving) and bit i masked.
/// * `old` row k, bit x: entry x was created before entry k (diagonal constant
///   0). A created entry c gets every other entry as older and is removed from
///   every other row. Only pairs of resident entries matter (every member of
///   `elig` / `same` is resident; `best` is used only when every entry is
///   resident), and each of those was created after reset, so the rows of
///   free entries and the reset value do not matter; on resident pairs the
///   relation is antisymmetric.
/// * Combinational: `rowz[i]` = row i all zero; `old_e[k]` / `old_s[k]` = k
///   is the member of `elig` / `same` no other member is older than (both in
///   parallel; the core selects); `best[k]` = k is the member of `cand` no
///   other member beats, where j beats i when (fullest policies, `cnt` given)
///   {count_j, j older than i} > {count_i, 0}, i.e. more instances, ties to
///   the older, or (oldest policies, no `cnt`) j is older: one comparison per
///   unordered pair written as AND/OR terms (no carry chain), the reverse
///   order its complement, then an N-input NOR per entry (log depth, where
///   the running maximum it replaces was a chain over the entries);
///   `depprop[j]` = some `pend` entry depends on j.
#[derive(LogicBlock)]
pub struct TaskMatrix {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Resident and PENDING (registered).
    pub pend: Vec<Signal<In, Bit>>,
    /// Issue: eligible entries, and those of them in the last issued state.
    pub elig: Vec<Signal<In, Bit>>,
    pub same: Vec<Signal<In, Bit>>,
    /// Victim candidates and their counts (entry e's count bit b at e*CNT_W+b).
    pub cand: Vec<Signal<In, Bit>>,
    pub cnt: Vec<Signal<In, Bit>>,
    /// Moves into the output slot at this edge (its column is cleared).
    pub psel: Vec<Signal<In, Bit>>,
    /// Created at this edge.
    pub created: Vec<Signal<In, Bit>>,
    /// Receives the accepted instance at this edge (one-hot or zero).
    pub acc: Vec<Signal<In, Bit>>,
    /// The instance's producers, ORed into row `acc` (`psel` masked after).
    pub dset: Vec<Signal<In, Bit>>,
    pub rowz: Vec<Signal<Out, Bit>>,
    /// The oldest member of `elig` / of `same` (one-hot or zero).
    pub old_e: Vec<Signal<Out, Bit>>,
    pub old_s: Vec<Signal<Out, Bit>>,
    /// The candidate no other candidate beats (the victim if one is needed).
    pub best: Vec<Signal<Out, Bit>>,
    pub depprop: Vec<Signal<Out, Bit>>,
    pub dep: Vec<Signal<Out, Bit>>,
    /// Rows for rust-hdl's own simulator.
    _dep: Vec<Vec<bool>>,
    _old: Vec<Vec<bool>>,
}

impl TaskMatrix {
    /// `cw`: count bits per entry with the `fullest` policies (count first),
    /// 0 for the `oldest` ones (age only, no count inputs).
    pub fn new(n: usize, cw: usize) -> Self {
        assert!(n >= 2, "TaskMatrix needs at least two entries");
        TaskMatrix {
            clock: Signal::default(),
            reset: Signal::default(),
            pend: signals(n),
            elig: signals(n),
            same: signals(n),
            cand: signals(n),
            cnt: signals(n * cw),
            psel: signals(n),
            created: signals(n),
            acc: signals(n),
            dset: signals(n),
            rowz: signals(n),
            old_e: signals(n),
            old_s: signals(n),
            best: signals(n),
            depprop: signals(n),
            dep: signals(n * n),
            _dep: vec![vec![false; n]; n],
            _old: vec![vec![false; n]; n],
        }
    }

    fn n(&self) -> usize {
        self.pend.len()
    }

    /// Count bits per entry (0: the age alone decides).
    fn cw(&self) -> usize {
        self.cnt.len() / self.n()
    }

    /// `wire [N-1:0] name_w = {name$N-1, …, name$0};`
    fn row_wire(name: &str, n: usize) -> String {
        let bits: Vec<String> = (0..n).rev().map(|i| format!("{name}${i}")).collect();
        format!("    wire [{}:0] {name}_w = {{{}}};\n", n - 1, bits.join(", "))
    }
}

impl Logic for TaskMatrix {
    fn update(&mut self) {
        let n = self.n();
        let v = |s: &[Signal<In, Bit>]| -> Vec<bool> { s.iter().map(|b| b.val()).collect() };
        if self.clock.pos_edge() {
            let (psel, created, acc, dset) = (v(&self.psel), v(&self.created), v(&self.acc), v(&self.dset));
            let reset = self.reset.val();
            for i in 0..n {
                for j in 0..n {
                    let d = ((!created[i] && self._dep[i][j]) || (acc[i] && dset[j])) && !psel[j];
                    self._dep[i][j] = !reset && i != j && d;
                    let o = if created[i] { true } else { self._old[i][j] && !created[j] };
                    self._old[i][j] = !reset && i != j && o;
                }
            }
        }
        let (pend, elig, same, cand) = (v(&self.pend), v(&self.elig), v(&self.same), v(&self.cand));
        let cw = self.cw();
        let count = |e: usize| -> u64 { (0..cw).filter(|b| self.cnt[e * cw + b].val()).map(|b| 1u64 << b).sum() };
        // j beats i: a larger count (fullest), or the same count and older.
        let beats = |j: usize, i: usize| -> bool {
            let age = self._old[i][j];
            if cw > 0 {
                count(j) > count(i) || (count(j) == count(i) && age)
            } else {
                age
            }
        };
        for i in 0..n {
            self.rowz[i].next = !self._dep[i].iter().any(|b| *b);
            self.old_e[i].next = elig[i] && !(0..n).any(|x| elig[x] && self._old[i][x]);
            self.old_s[i].next = same[i] && !(0..n).any(|x| same[x] && self._old[i][x]);
            self.best[i].next = cand[i] && !(0..n).any(|j| j != i && cand[j] && beats(j, i));
            self.depprop[i].next = (0..n).any(|p| pend[p] && self._dep[p][i]);
            for j in 0..n {
                self.dep[i * n + j].next = self._dep[i][j];
            }
        }
    }

    fn connect(&mut self) {
        for q in self.rowz.iter_mut().chain(&mut self.old_e).chain(&mut self.old_s).chain(&mut self.best).chain(&mut self.depprop).chain(&mut self.dep) {
            q.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let n = self.n();
        let msb = n - 1;
        let cw = self.cw();
        let mut wires: String = ["pend", "elig", "same", "cand", "psel", "created", "acc", "dset"]
            .iter()
            .map(|name| Self::row_wire(name, n))
            .collect();
        if cw > 0 {
            wires += &Self::row_wire("cnt", n * cw);
        }
        let mut unpack = String::new();
        for name in ["rowz", "old_e", "old_s", "best", "depprop"] {
            for i in 0..n {
                unpack += &format!("        {name}${i} = {name}_r[{i}];\n");
            }
        }
        for i in 0..n {
            for j in 0..n {
                unpack += &format!("        dep${} = dep_q[{i}][{j}];\n", i * n + j);
            }
        }
        // Fullest: {count_j, j older} > {count_i, 0} as AND/OR terms (no carry
        // chain); else the age alone.
        let (pair, beat_doc) = if cw > 0 {
            (
                format!(
                    "\
                cmp_a = {{cnt_w[j*{cw} +: {cw}], old_q[c][j]}};
                cmp_b = {{cnt_w[c*{cw} +: {cw}], 1'b0}};
                cmp_gt = 1'b0;
                cmp_eq = 1'b1;
                for (k = {cw}; k >= 0; k = k - 1) begin
                    cmp_gt = cmp_gt | (cmp_eq & cmp_a[k] & ~cmp_b[k]);
                    cmp_eq = cmp_eq & ~(cmp_a[k] ^ cmp_b[k]);
                end
"
                ),
                "more instances, or as many and older",
            )
        } else {
            ("                cmp_gt = old_q[c][j];\n".to_string(), "older")
        };
        let cmp_regs = if cw > 0 {
            format!("    reg [{cw}:0] cmp_a;\n    reg [{cw}:0] cmp_b;\n    reg cmp_eq;\n    integer k;\n")
        } else {
            String::new()
        };
        Verilog::Custom(format!(
            "\
{wires}    // dep_q[i][j]: entry i depends on entry j; old_q[k][x]: entry x was created before entry k.
    reg [{msb}:0] dep_q [0:{msb}];
    reg [{msb}:0] old_q [0:{msb}];
    reg [{msb}:0] rowz_r;
    // old_e_r / old_s_r read elig / same, which the core computes from rowz_r
    // in its one always block: a loop only at block level, no combinational
    // cycle (the UNOPTFLAT waiver of warpgen.vlt on mx_0 covers it).
    reg [{msb}:0] old_e_r;
    reg [{msb}:0] old_s_r;
    reg [{msb}:0] best_r;
    reg [{msb}:0] depprop_r;
    // beat_r[i][j]: candidate j beats i ({beat_doc}); one comparison per
    // pair, the other order its complement (the age relation is antisymmetric
    // on resident pairs).
    reg [{msb}:0] beat_r [0:{msb}];
    reg cmp_gt;
{cmp_regs}    integer c;
    integer s;
    integer j;

    always @(*) begin
        depprop_r = {n}'d0;
        for (c = 0; c < {n}; c = c + 1) begin
            rowz_r[c] = ~|dep_q[c];
            depprop_r = depprop_r | (pend_w[c] ? dep_q[c] : {n}'d0);
        end
    end

    // (A block of its own: elig / same depend on rowz.)
    always @(*) begin
        for (c = 0; c < {n}; c = c + 1) begin
            old_e_r[c] = elig_w[c] & ~|(elig_w & old_q[c]);
            old_s_r[c] = same_w[c] & ~|(same_w & old_q[c]);
        end
    end

    always @(*) begin
        for (c = 0; c < {n}; c = c + 1) begin
            beat_r[c] = {n}'d0;
        end
        for (c = 0; c < {n}; c = c + 1) begin
            for (j = c + 1; j < {n}; j = j + 1) begin
{pair}                beat_r[c][j] = cmp_gt;
                beat_r[j][c] = ~cmp_gt;
            end
        end
        for (c = 0; c < {n}; c = c + 1) begin
            best_r[c] = cand_w[c] & ~|(cand_w & beat_r[c]);
        end
    end

    always @(posedge clock) begin
        for (s = 0; s < {n}; s = s + 1) begin
            if (reset) begin
                dep_q[s] <= {n}'d0;
                old_q[s] <= {n}'d0;
            end else begin
                dep_q[s] <= ((created_w[s] ? {n}'d0 : dep_q[s]) | (acc_w[s] ? dset_w : {n}'d0)) & ~psel_w & ~({n}'d1 << s);
                old_q[s] <= (created_w[s] ? ~{n}'d0 : old_q[s] & ~created_w) & ~({n}'d1 << s);
            end
        end
    end

    always @(*) begin
{unpack}    end
"
        ))
    }
}

impl crate::BlockGen for TaskCombinerConfig {
    const NAME: &'static str = "task_combiner";

    fn wrapper(&self) -> Wrapper {
        wrapper(self)
    }

    fn header_params(&self) -> Vec<(String, String)> {
        let list = |v: Vec<String>| format!("[{}]", v.join(", "));
        let deps = self.depends_rows().iter().map(|r| list(r.iter().map(|t| t.to_string()).collect())).collect();
        vec![
            ("entries".into(), self.entries.to_string()),
            ("width".into(), self.width.to_string()),
            ("tile_pipes".into(), self.tile_pipes.to_string()),
            ("shader_types".into(), self.shader_types.to_string()),
            ("state_width".into(), self.state_width.to_string()),
            ("ref_width".into(), self.ref_width.to_string()),
            ("tag_gen_width".into(), self.tag_gen_width.to_string()),
            ("policy".into(), self.policy().name().to_string()),
            ("sort_state".into(), self.sort_state.to_string()),
            ("capacity".into(), list(self.capacities().iter().map(|c| c.to_string()).collect())),
            ("depends".into(), list(deps)),
            ("ENT_W (entry index bits)".into(), self.ent_bits().to_string()),
            ("TAG_W (tag bits)".into(), self.tag_bits().to_string()),
            ("CNT_W (count bits)".into(), self.cnt_bits().to_string()),
            ("LANE_W (lane bits)".into(), self.lane_bits().to_string()),
            ("TP_W (tile-pipe id bits)".into(), self.tp_bits().to_string()),
            ("STYPE_W (shader-type bits)".into(), self.stype_bits().to_string()),
        ]
    }

    fn core_verilog(&self) -> Result<String, String> {
        let mut core = TaskCombinerCore::new(self);
        core.connect_all();
        rust_hdl::core::check_error::check_all(&core).map_err(|e| format!("{e:?}"))?;
        Ok(generate_verilog_unchecked(&core))
    }
}

/// Flip-flops of the block for `cfg` (the storage list in the module doc); the
/// reference memories are not counted.
pub fn flip_flops(cfg: &TaskCombinerConfig) -> usize {
    let n = cfg.entries as usize;
    let (stw, gw, t) = (cfg.state_width as usize, cfg.tag_gen_width as usize, cfg.tile_pipes as usize);
    let fields = cfg.stype_bits() + stw + cfg.cnt_bits() + gw + t;
    let per_entry = 6 + fields + 2 * (n - 1);
    let slot = 2 + 3 + cfg.ent_bits() + fields;
    let globals = 1 + 3 + cfg.tp_bits() + 64;
    n * per_entry + slot + globals
}

/// The exact ports of `warpgen_task_combiner` for `cfg`, bound to the core's ports.
fn wrapper(cfg: &TaskCombinerConfig) -> Wrapper {
    let n = cfg.entries as usize;
    let w = cfg.width as usize;
    let t = cfg.tile_pipes as usize;
    let stw = cfg.state_width as usize;
    let rw = cfg.ref_width as usize;
    let gw = cfg.tag_gen_width as usize;
    let (ew, cw, lw, tpw, sw) = (cfg.ent_bits(), cfg.cnt_bits(), cfg.lane_bits(), cfg.tp_bits(), cfg.stype_bits());
    let bit = |name: &str, dir: Dir, doc: &str| Port::single(name, dir, 1, 1, doc);
    let padded_in = |name: &str, width: usize, core: usize, doc: &str| Port::single(name, Dir::In, width, core, doc);
    // Bits of core vector `core` (core ports `core_b`), LSB first.
    let bits = |core: &str, n: usize| -> Vec<(String, usize, usize)> { (0..n).map(|b| (format!("{core}_{b}"), 1, 1)).collect() };
    let vector = |name: &str, dir: Dir, n: usize, doc: &str| Port::packed(name, dir, doc, bits(name, n));
    // Per-entry (or per-lane) fields: element e's bit b is core port `core_e_b`.
    let per = |name: &str, rows: usize, cols: usize, doc: &str| {
        let parts = (0..rows).flat_map(|e| (0..cols).map(move |b| (format!("{name}_{e}_{b}"), 1, 1))).collect();
        Port::packed(name, Dir::Out, doc, parts)
    };
    let tag = |name: &str, doc: &str| {
        let mut parts = bits(&format!("{name}_ent"), ew);
        parts.extend(bits(&format!("{name}_gen"), gw));
        Port::packed(name, Dir::Out, doc, parts)
    };
    let st_tag = {
        let parts = (0..n)
            .flat_map(|e| {
                let ent = (0..ew).map(move |b| (format!("st_tag_ent_{e}_{b}"), 1, 1));
                let gen = (0..gw).map(move |b| (format!("st_tag_gen_{e}_{b}"), 1, 1));
                ent.chain(gen)
            })
            .collect();
        Port::packed("st_tag", Dir::Out, "entry e's tag {gen, e} at [e*TAG_W +: TAG_W]", parts)
    };
    Wrapper {
        block: "task_combiner".into(),
        groups: vec![
            PortGroup {
                title: "Clock and synchronous active-high reset".into(),
                ports: vec![
                    bit("clock", Dir::In, "rising edge"),
                    bit("reset", Dir::In, "frees every entry, empties the slot, gens/counters/flush state to 0"),
                ],
            },
            PortGroup {
                title: "Computation instance (append to the open task of its key, or open a task)".into(),
                ports: vec![
                    bit("in_valid", Dir::In, "an instance is presented (held until accepted)"),
                    padded_in("in_stype", sw, STYPE_BITS, "shader type (0 VS, 1 HS, 2 DS, 3 GS, ...)"),
                    padded_in("in_state", stw, STATE_BITS, "state id"),
                    Port::packed("in_ref", Dir::In, "instance reference, stored in its lane", bits("in_ref", rw)),
                    padded_in("in_tpipe", tpw, TP_BITS, "requesting tile pipeline (lock-mask bit)"),
                    bit("in_ready", Dir::Out, "combinational: !drain_req && (open match || free entry); not from in_valid"),
                    tag("in_tag", "combinational: tag {gen, entry} of the receiving task"),
                    vector("in_lane", Dir::Out, lw, "combinational: lane of the instance in that task"),
                ],
            },
            PortGroup {
                title: "Lock of a scheduled task (always accepted)".into(),
                ports: vec![
                    bit("lk_valid", Dir::In, "lock request"),
                    Port::packed(
                        "lk_tag",
                        Dir::In,
                        "tag {gen, entry} of the task",
                        vec![("lk_ent".into(), ew, ENT_BITS), ("lk_gen".into(), gw, GEN_BITS)],
                    ),
                    padded_in("lk_tpipe", tpw, TP_BITS, "tile pipeline whose lock bit to set"),
                    bit("lk_hit", Dir::Out, "registered: last cycle's lock found a resident or slot task"),
                ],
            },
            PortGroup {
                title: "Render-queue flush (one at a time)".into(),
                ports: vec![
                    bit("rqf_valid", Dir::In, "flush the tasks locked for rqf_tpipe"),
                    padded_in("rqf_tpipe", tpw, TP_BITS, "tile pipeline"),
                    bit("rqf_ready", Dir::Out, "no flush in progress"),
                    bit("rqf_done", Dir::Out, "one-cycle pulse: every snapshot task has left the slot"),
                    vector("rqf_done_tpipe", Dir::Out, tpw, "tile pipeline of the last accepted flush"),
                ],
            },
            PortGroup {
                title: "Drain (end of render)".into(),
                ports: vec![
                    bit("drain_req", Dir::In, "level: close every open task, accept nothing"),
                    bit("drain_done", Dir::Out, "combinational: drain_req && table empty && slot empty"),
                ],
            },
            PortGroup {
                title: "Task output to the SIMD logic (one slot, valid/ready)".into(),
                ports: vec![
                    bit("out_valid", Dir::Out, "the slot holds a task"),
                    bit("out_ready", Dir::In, "the SIMD logic takes it at this edge"),
                    tag("out_tag", "tag {gen, entry} the task had in the table"),
                    vector("out_stype", Dir::Out, sw, "shader type"),
                    vector("out_state", Dir::Out, stw, "state id"),
                    vector("out_count", Dir::Out, cw, "instances (lanes 0 to out_count-1)"),
                    vector("out_lane_mask", Dir::Out, w, "(1 << out_count) - 1"),
                    per("out_refs", w, rw, "lane i's reference at [i*REF_W +: REF_W]; stale beyond out_count"),
                    vector("out_lockmask", Dir::Out, t, "tile pipelines locked on the task, slot locks included"),
                    Port::single("out_reason", Dir::Out, 3, 3, "1 FULL, 2 EVICT, 3 DEP, 4 RQFLUSH, 5 DRAIN"),
                ],
            },
            PortGroup {
                title: "Observability: entry e at bit e / [e*W +: W]".into(),
                ports: vec![
                    vector("st_valid", Dir::Out, n, "resident (open or pending)"),
                    vector("st_open", Dir::Out, n, "accepting instances"),
                    vector("st_pending", Dir::Out, n, "closed, waiting for the slot"),
                    per("st_count", n, cw, "instances"),
                    per("st_stype", n, sw, "shader type"),
                    per("st_state", n, stw, "state id"),
                    per("st_lockmask", n, t, "lock mask"),
                    per("st_dep", n, n, "bit i*N+j: entry i depends on entry j"),
                    st_tag,
                    Port::single("perf_tasks", Dir::Out, 32, 32, "tasks handed to SIMD (mod 2^32)"),
                    Port::single("perf_lanes", Dir::Out, 32, 32, "sum of their out_count (mod 2^32)"),
                ],
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Config};

    fn emit(sets: &[&str]) -> crate::Emitted {
        let sets: Vec<String> = sets.iter().map(|s| format!("task_combiner.{s}")).collect();
        generate(&Config::embedded(&sets).unwrap(), "task_combiner").unwrap()
    }

    fn widths(e: &crate::Emitted) -> Vec<(&str, usize)> {
        e.ports.iter().map(|p| (p.name.as_str(), p.width())).collect()
    }

    fn width(e: &crate::Emitted, port: &str) -> usize {
        e.ports.iter().find(|p| p.name == port).unwrap_or_else(|| panic!("{port}")).width()
    }

    /// Instances of rust-hdl's one-bit register named `name_…` in the core.
    fn bit_regs(e: &crate::Emitted, name: &str) -> usize {
        e.verilog.matches(&format!("warpgen_task_combiner_dff_w1 {name}_")).count()
    }

    #[test]
    fn ports_are_exact_for_the_default_config() {
        // entries 16, width 32, tile_pipes 4, shader_types 4, state 8, ref 13, gen 4:
        // ENT_W 4, TAG_W 8, CNT_W 6, LANE_W 5, TP_W 2, STYPE_W 2.
        let e = emit(&[]);
        let want = [
            ("clock", 1), ("reset", 1),
            ("in_valid", 1), ("in_stype", 2), ("in_state", 8), ("in_ref", 13), ("in_tpipe", 2),
            ("in_ready", 1), ("in_tag", 8), ("in_lane", 5),
            ("lk_valid", 1), ("lk_tag", 8), ("lk_tpipe", 2), ("lk_hit", 1),
            ("rqf_valid", 1), ("rqf_tpipe", 2), ("rqf_ready", 1), ("rqf_done", 1), ("rqf_done_tpipe", 2),
            ("drain_req", 1), ("drain_done", 1),
            ("out_valid", 1), ("out_ready", 1), ("out_tag", 8), ("out_stype", 2), ("out_state", 8),
            ("out_count", 6), ("out_lane_mask", 32), ("out_refs", 32 * 13), ("out_lockmask", 4), ("out_reason", 3),
            ("st_valid", 16), ("st_open", 16), ("st_pending", 16), ("st_count", 16 * 6), ("st_stype", 16 * 2),
            ("st_state", 16 * 8), ("st_lockmask", 16 * 4), ("st_dep", 16 * 16), ("st_tag", 16 * 8),
            ("perf_tasks", 32), ("perf_lanes", 32),
        ];
        assert_eq!(widths(&e), want);
        // Ids and ids inside the tag are zero-extended into the core; outputs are exact.
        for conn in [
            ".in_stype({1'b0, in_stype})",
            ".in_state({8'b0, in_state})",
            ".in_tpipe({1'b0, in_tpipe})",
            ".lk_ent({2'b0, lk_tag[3:0]})",
            ".lk_gen({4'b0, lk_tag[7:4]})",
            ".in_ref_12(in_ref[12])",
            ".in_tag_gen_3(in_tag[7])",
            ".st_dep_15_14(st_dep[254])",
            ".st_tag_ent_1_0(st_tag[8])",
            ".out_refs_31_12(out_refs[415])",
        ] {
            assert!(e.verilog.contains(conn), "{conn}");
        }
    }

    #[test]
    fn ports_are_exact_at_the_smallest_and_largest_configs() {
        let e = emit(&[
            "entries=1", "width=4", "tile_pipes=1", "shader_types=1", "state_width=1", "ref_width=1", "tag_gen_width=1",
        ]);
        for (p, w) in [
            ("in_stype", 1), ("in_state", 1), ("in_ref", 1), ("in_tpipe", 1), ("in_tag", 2), ("in_lane", 2),
            ("lk_tag", 2), ("rqf_done_tpipe", 1), ("out_count", 3), ("out_lane_mask", 4), ("out_refs", 4),
            ("out_lockmask", 1), ("st_valid", 1), ("st_dep", 1), ("st_tag", 2), ("st_count", 3),
        ] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        let e = emit(&[
            "entries=64", "width=64", "tile_pipes=8", "shader_types=8", "state_width=16", "ref_width=32", "tag_gen_width=8",
        ]);
        for (p, w) in [
            ("in_stype", 3), ("in_state", 16), ("in_ref", 32), ("in_tpipe", 3), ("in_tag", 14), ("in_lane", 6),
            ("lk_tag", 14), ("out_count", 7), ("out_lane_mask", 64), ("out_refs", 64 * 32), ("out_lockmask", 8),
            ("st_valid", 64), ("st_dep", 64 * 64), ("st_tag", 64 * 14), ("st_state", 64 * 16),
        ] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        assert!(e.verilog.contains(".in_state(in_state)"), "no extension at the core width");
    }

    #[test]
    fn registers_are_exact_and_references_are_one_memory_per_lane() {
        // entries 5, width 8, state 3, gen 2, tile_pipes 3, shader_types 3, ref 7:
        // ENT_W 3, CNT_W 4, STYPE_W 2.
        let e = emit(&[
            "entries=5", "width=8", "state_width=3", "tag_gen_width=2", "tile_pipes=3", "shader_types=3",
            "ref_width=7", "capacity=[8, 4, 2]",
        ]);
        let n = 5;
        for (name, count) in [
            ("valid_q", n), ("pend_q", n), ("rq_q", n), ("state_q", n * 3), ("gen_q", n * 2),
            ("count_q", n * 4), ("stype_q", n * 2), ("lock_q", n * 3),
            ("slot_state_q", 3), ("slot_ent_q", 3), ("slot_gen_q", 2), ("slot_count_q", 4), ("rqf_tp_q", 2),
        ] {
            assert_eq!(bit_regs(&e, name), count, "{name}");
        }
        // Registers are one-bit, except the 3-bit reasons and the 32-bit counters.
        let mut dffs: Vec<&str> = e.verilog.lines().filter(|l| l.starts_with("module warpgen_task_combiner_dff_")).collect();
        dffs.sort();
        assert_eq!(dffs.len(), 3, "{dffs:?}");
        assert_eq!(e.verilog.matches("warpgen_task_combiner_dff_w3 ").count(), n + 1, "reasons");
        // One memory of entries x ref_width per lane, read into its own register.
        assert_eq!(e.verilog.matches("warpgen_task_combiner_refs refs_").count(), 8);
        assert!(e.verilog.contains("reg [6:0] mem [0:4];"));
        assert!(e.verilog.contains("ram_style = \"block\""));
        assert!(!e.verilog.contains("mem[0]"), "addressed");
        // The dependency and age matrices: one row register of N bits per entry each.
        assert_eq!(e.verilog.matches("warpgen_task_combiner_mx mx_").count(), 1);
        assert!(e.verilog.contains("reg [4:0] dep_q [0:4];"));
        assert!(e.verilog.contains("reg [4:0] old_q [0:4];"));
    }

    #[test]
    fn emission_is_deterministic_prefixed_and_config_sensitive() {
        let a = emit(&[]);
        assert_eq!(a.verilog, emit(&[]).verilog);
        for line in a.verilog.lines().filter(|l| l.starts_with("module ")) {
            assert!(line.starts_with("module warpgen_task_combiner"), "{line}");
        }
        assert!(!a.verilog.contains('$'), "no rust-hdl path separators left");
        assert!(a.verilog.contains("//   policy                     = fullest"), "header parameters");
        assert!(a.verilog.contains("//   depends                    = [[], [0], [1], [0, 2]]"));
        for set in [
            "policy=oldest",
            "sort_state=false",
            "capacity=[32, 16, 32, 32]",
            "depends=[[], [0], [0, 1], [2]]",
        ] {
            assert_ne!(a.verilog, emit(&[set]).verilog, "{set}");
        }
        // A one-entry table: a one-word memory per lane and no dependency or age registers.
        let e = emit(&["entries=1"]);
        assert!(e.verilog.contains("mem[0] <= wd;"));
        assert!(!e.verilog.contains("dep_q") && !e.verilog.contains("old_q"), "no matrix");
    }

    #[test]
    fn flip_flop_count_of_the_documented_configs() {
        let cfg = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| format!("task_combiner.{s}")).collect();
            Config::embedded(&sets).unwrap().task_combiner.unwrap()
        };
        // 16 x (3 + 3 + 2 + 8 + 6 + 4 + 4 + 15 + 15) + (2 + 3 + 4 + 24) + (1 + 3 + 2 + 64)
        assert_eq!(super::flip_flops(&cfg(&[])), 1063);
        // 64 x (6 + 25 + 63 + 63) + (5 + 6 + 25) + 70
        assert_eq!(super::flip_flops(&cfg(&["entries=64", "width=64"])), 10154);
    }

    #[test]
    fn largest_config_emits_quickly() {
        let t = std::time::Instant::now();
        let e = emit(&["entries=64", "width=64"]);
        let secs = t.elapsed().as_secs_f64();
        assert!(secs < 30.0, "64 x 64 took {secs:.1} s to emit");
        assert!(e.verilog.contains("reg [63:0] dep_q [0:63];"));
        assert!(e.verilog.contains("reg [63:0] old_q [0:63];"));
        // Word-level matrices: the 64 x 64 core stays small (was 248,000 lines in one block).
        let lines = e.verilog.lines().count();
        assert!(lines < 120_000, "{lines} lines");
    }
}
