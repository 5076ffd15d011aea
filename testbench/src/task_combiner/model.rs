//! Cycle-level reference model of the `warpgen_task_combiner` block (the task combining
//! unit 340 with its task dependency unit 342 in matrix form 612), written from
//! `docs/contracts/task_combiner.md` and `docs/spec/task_combiner.md` only (§4.3, §4.4, §5,
//! §10.4–§10.6, §11), never from the RTL.
//!
//! What it implements (contract §4, numbered R1–R12 there):
//!
//! * a table of `entries` task entries, each FREE, OPEN or PENDING(reason), keyed by
//!   (shader type, state); at most one OPEN entry per key (spec A1);
//! * accept (R2, R9): append to the OPEN entry of the key, else create in the lowest FREE
//!   entry; `in_ready = !drain_req && (match || free)`, independent of `in_valid`;
//! * dependencies (contract D3): an accepted instance of type `s`, state `st` ORs into its
//!   entry's row every other entry that is resident after the edge, is not moving into the
//!   output slot at this edge, has state `st` and a type in `depends[s]`;
//! * output triggers FULL (count reaches `capacity[stype]`), EVICT (R3 victim), DEP (R5,
//!   one level per cycle), RQFLUSH (R7 snapshot), DRAIN (R8), with the priority of R10;
//! * one output slot (R4, R11): the oldest eligible PENDING entry (dep row 0), or with
//!   `issue_order = "fullest"` the one with the most instances (ties to the oldest),
//!   preferring the state of the last task moved into the slot when `sort_state`;
//!   with `registered_issue` (R4r) that choice is made a cycle ahead, among the eligible
//!   entries other than the one moving, and the chosen entry moves when the slot is free;
//! * with `registered_input` (R2i) the instance enters through an input register IR
//!   ([`input_reg`]): the table's rules read IR's instance, which the table takes while
//!   `drain_req` too; `in_ready`, `in_tag_valid` and `drain_done` follow IR;
//! * locks (R6), render-queue flush with its busy flag and done pulse (R7), drain (R8),
//!   performance counters (R11), synchronous active-high reset (R12);
//! * with `perf_counters`, rule P1 of docs/blocks/task_combiner.md (docs/perf.md) — [`perf`]:
//!   the events of a cycle from the model's own state, inputs and decisions, counted by the
//!   shared saturating counter rule and read through `perf_sel`.
//!
//! Timing: every output is a function of the registered state; `in_ready`, `in_tag`,
//! `in_lane` and `drain_done` also of this cycle's inputs (combinational). `lk_hit` and
//! `rqf_done` are registered pulses (visible the cycle after the event). An accepted
//! instance is visible in `st_*` the next cycle; a task filled in cycle n is on the out
//! port in n+2 (no producers, slot free).
//!
//! Deviations from spec §10 (all from the contract, §1 D1–D6): `clock`/`reset` ports, no
//! configuration ports (policy, capacity and sort_state are parameters), no HELD state, no
//! per-instance dependency tags (the `depends` matrix instead, so no `err_dep`), no aux
//! references, a parameterised number of shader types.
//!
//! Readings of the contract where it leaves room: see the list in [`super`] (module
//! `task_combiner`), items 1–7.

use std::fmt;

mod input_reg;
mod interface;
pub mod perf;
pub use interface::{
    clog2, ones, Mask, Policy, Reason, TaskCombinerInputs, TaskCombinerOutputs, TaskCombinerParams,
};

/// Life-cycle state of a table entry (no HELD: contract D2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Free,
    Open,
    Pending(Reason),
}

/// One table entry (spec §10.4).
#[derive(Debug, Clone)]
struct Entry {
    status: Status,
    stype: usize,
    state: u64,
    count: usize,
    refs: Vec<u64>,
    lockmask: u64,
    gen: u64,
    /// Creation sequence number (smaller = older).
    age: u64,
    /// Bit j: this entry depends on entry j.
    dep: Mask,
    /// Member of the render-queue flush in progress.
    rq: bool,
}

/// The task in the output slot.
#[derive(Debug, Clone)]
struct SlotTask {
    tag: u64,
    stype: usize,
    state: u64,
    count: usize,
    refs: Vec<u64>,
    lockmask: u64,
    reason: Reason,
    rq: bool,
}

/// Ways to get the block wrong, for the mutation tests: a model built with
/// `TaskCombinerModel::mutant` (test builds only) behaves so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// D3 does not exclude the entry moving into the slot at the accept edge.
    D3KeepsMover,
    /// D3 takes only OPEN producers (not PENDING ones still resident).
    D3SkipsPending,
    /// DEP propagates through the whole chain in one cycle.
    DepTransitive,
    /// R5h: a producer is held also when no entry is FREE.
    HoldWhenFull,
    /// R5h: one more holding consumer than `hold_producers` may wait.
    HoldOneMore,
    /// FULLEST breaks count ties towards the youngest entry.
    FullestTieYoungest,
    /// The nodep_* policies ignore dependency rows.
    NodepIgnored,
    /// `sort_state` has no effect.
    NoSortState,
    /// A lock never matches the task in the output slot.
    LockMissesSlot,
    /// The flush snapshot uses the registered lockmasks and residents (pre-edge).
    SnapshotPreEdge,
    /// DRAIN beats RQFLUSH when both hit an entry at one edge.
    DrainOverRqflush,
    /// `in_ready` requires `in_valid`.
    InReadyNeedsValid,
    /// A victim is chosen even while an entry is PENDING.
    VictimWhilePending,
    /// Generations never advance: a tag is just the entry index.
    GenStuck,
    /// An append overwrites the last occupied lane instead of the next one.
    AppendOverwrites,
    /// Every shader type gets capacity `width`.
    CapacityIgnored,
    /// An event in the cycle of `perf_clr` is counted (the clear loses).
    PerfClrLoses,
    /// `stall_in` and `stall_drain` count a refusal also when no instance is offered.
    StallWithoutValid,
    /// `issue_order = "fullest"` has no effect (the oldest goes first).
    IssueOrderIgnored,
    /// `issue_order = "fullest"` breaks count ties towards the youngest entry.
    IssueFullestTieYoungest,
    /// D3t: a producer tag names its entry whatever the generation (only the entry index).
    DepTagIgnoresGen,
    /// D3t: an illegal producer is ignored without setting `err_dep`.
    DepIllegalIgnored,
    /// D3t: `err_clr` clears `err_dep` even at an edge that sets it.
    ErrClrWins,
    /// R2i: IR's instance waits while `drain_req` (as R2's port instance does).
    IrWaitsDuringDrain,
    /// R2i: `in_ready` ignores IR (high whenever `drain_req` is low).
    InReadyIgnoresIr,
    /// R2i: `drain_done` does not wait for IR to empty.
    DrainDoneIgnoresIr,
}

/// Decisions of one cycle (R1: from the registered state and this cycle's inputs).
#[derive(Debug, Clone, Default)]
struct Decisions {
    /// Matching OPEN entry.
    m: Option<usize>,
    /// The entry that takes the instance when it is accepted.
    target: Option<usize>,
    accept: bool,
    /// `in_ready` at the port (R2, or R2i's from IR and `drain_req`).
    port_ready: bool,
    /// D3 dependency set of the accepted instance.
    d3: Mask,
    victim: Option<usize>,
    pick: Option<usize>,
    /// OPEN entries that become PENDING(DEP).
    dep_hit: Mask,
    lock_entry: Option<usize>,
    lock_slot: bool,
    rqf_accept: bool,
    /// D3t: the accepted instance names an illegal producer (sets `err_dep`).
    dep_illegal: bool,
}

/// The reference model: registered state plus the combinational functions of contract §4.
#[derive(Debug, Clone)]
pub struct TaskCombinerModel {
    p: TaskCombinerParams,
    e: Vec<Entry>,
    slot: Option<SlotTask>,
    seq: u64,
    last_state: Option<u64>,
    /// R4r (`registered_issue`): the entry picked in the cycle before, which moves into the
    /// slot when the slot is free.
    pick_q: Option<usize>,
    rq_busy: bool,
    rqf_done: bool,
    rqf_done_tpipe: u64,
    lk_hit: bool,
    perf_tasks: u64,
    perf_lanes: u64,
    /// P1: the counters in `perf_sel` order (empty without `perf_counters`).
    perf: Vec<u32>,
    /// D3t's sticky `err_dep`.
    err_dep: bool,
    /// R2i (`registered_input`): the instance in the input register, if any.
    ir: Option<input_reg::Held>,
    #[cfg(test)]
    mutation: Option<Mutation>,
}

impl TaskCombinerModel {
    /// A model in its reset state. Panics on invalid parameters.
    pub fn new(p: &TaskCombinerParams) -> Self {
        if let Err(e) = p.validate() {
            panic!("{e}");
        }
        let blank = Entry {
            status: Status::Free,
            stype: 0,
            state: 0,
            count: 0,
            refs: vec![0; p.width],
            lockmask: 0,
            gen: 0,
            age: 0,
            dep: 0,
            rq: false,
        };
        TaskCombinerModel {
            p: p.clone(),
            e: vec![blank; p.entries],
            slot: None,
            seq: 0,
            last_state: None,
            pick_q: None,
            rq_busy: false,
            rqf_done: false,
            rqf_done_tpipe: 0,
            lk_hit: false,
            perf_tasks: 0,
            perf_lanes: 0,
            perf: vec![0; p.perf_count()],
            err_dep: false,
            ir: None,
            #[cfg(test)]
            mutation: None,
        }
    }

    /// A model with one [`Mutation`] switched on.
    #[cfg(test)]
    pub fn mutant(p: &TaskCombinerParams, m: Mutation) -> Self {
        let mut model = Self::new(p);
        model.mutation = Some(m);
        model
    }

    #[cfg(test)]
    fn mutated(&self, m: Mutation) -> bool {
        self.mutation == Some(m)
    }

    #[cfg(not(test))]
    #[inline(always)]
    fn mutated(&self, _m: Mutation) -> bool {
        false
    }

    pub fn params(&self) -> &TaskCombinerParams {
        &self.p
    }

    /// Status of entry `e`.
    pub fn status(&self, e: usize) -> Status {
        self.e[e].status
    }

    fn resident(&self, e: usize) -> bool {
        self.e[e].status != Status::Free
    }

    fn tag_of(&self, e: usize, gen: u64) -> u64 {
        if self.mutated(Mutation::GenStuck) {
            return e as u64;
        }
        (gen & ones(self.p.tag_gen_width)) << self.p.ent_w() | e as u64
    }

    fn next_gen(&self, e: usize) -> u64 {
        (self.e[e].gen + 1) & ones(self.p.tag_gen_width)
    }

    fn cap(&self, s: usize) -> usize {
        if self.mutated(Mutation::CapacityIgnored) {
            self.p.width
        } else {
            self.p.cap(s)
        }
    }

    /// Input fields truncated to their port widths: (stype, state, ref, tpipe bit).
    fn instance(&self, i: &TaskCombinerInputs) -> (usize, u64, u64, u64) {
        let p = &self.p;
        let stype = (i.in_stype & ones(p.stype_w())) as usize;
        let state = i.in_state & ones(p.state_width);
        let r = i.in_ref & ones(p.ref_width);
        (stype, state, r, self.tp_bit(i.in_tpipe))
    }

    /// Lockmask bit of a tile-pipe input (0 if it names no pipe).
    fn tp_bit(&self, tp: u64) -> u64 {
        let tp = tp & ones(self.p.tp_w());
        if (tp as usize) < self.p.tile_pipes {
            1 << tp
        } else {
            0
        }
    }

    /// Age order: the entry created first.
    fn oldest(&self, cands: impl Iterator<Item = usize>) -> Option<usize> {
        cands.min_by_key(|&e| self.e[e].age)
    }

    /// R2: match and free entry, and whether the table takes a valid instance `i` names:
    /// R2's `in_ready`; with R2i (`i` are the table inputs, IR's instance) also while
    /// `drain_req`.
    fn match_free(&self, i: &TaskCombinerInputs) -> (Option<usize>, Option<usize>, bool) {
        let (stype, state, _, _) = self.instance(i);
        let n = self.p.entries;
        let m = (0..n).find(|&e| {
            let x = &self.e[e];
            x.status == Status::Open && x.stype == stype && x.state == state
        });
        let f = (0..n).find(|&e| !self.resident(e));
        let mut ready = (!i.drain_req || self.takes_during_drain()) && (m.is_some() || f.is_some());
        if self.mutated(Mutation::InReadyNeedsValid) {
            ready &= i.in_valid;
        }
        (m, f, ready)
    }

    /// R3: the victim.
    fn victim(&self, i: &TaskCombinerInputs, m: Option<usize>, f: Option<usize>) -> Option<usize> {
        let any_pending =
            (0..self.p.entries).any(|e| matches!(self.e[e].status, Status::Pending(_)));
        let guard = !any_pending || self.mutated(Mutation::VictimWhilePending);
        if !(i.in_valid && m.is_none() && f.is_none() && !i.drain_req && guard) {
            return None;
        }
        let open: Vec<usize> = (0..self.p.entries)
            .filter(|&e| self.e[e].status == Status::Open)
            .collect();
        let nodep: Vec<usize> = open
            .iter()
            .copied()
            .filter(|&e| self.e[e].dep == 0)
            .collect();
        let (cands, fullest) = match self.p.policy {
            Policy::Fullest => (open, true),
            Policy::Oldest => (open, false),
            Policy::NodepFullest | Policy::NodepOldest => {
                let fullest = self.p.policy == Policy::NodepFullest;
                if nodep.is_empty() || self.mutated(Mutation::NodepIgnored) {
                    (open, fullest)
                } else {
                    (nodep, fullest)
                }
            }
        };
        if !fullest {
            return self.oldest(cands.into_iter());
        }
        self.fullest(cands, self.mutated(Mutation::FullestTieYoungest))
    }

    /// The member of `cands` with the most instances, ties to the oldest (to the youngest for
    /// the mutants `tie_youngest` stands for).
    fn fullest(&self, cands: Vec<usize>, tie_youngest: bool) -> Option<usize> {
        let max = cands.iter().map(|&e| self.e[e].count).max()?;
        let top = cands.into_iter().filter(|&e| self.e[e].count == max);
        if tie_youngest {
            top.max_by_key(|&e| self.e[e].age)
        } else {
            self.oldest(top)
        }
    }

    /// R4: the first of `cands` in the issue order: the oldest; with `issue_fullest` the one
    /// with the most instances, ties to the oldest.
    fn first_to_issue(&self, cands: impl Iterator<Item = usize>) -> Option<usize> {
        if !self.p.issue_fullest || self.mutated(Mutation::IssueOrderIgnored) {
            return self.oldest(cands);
        }
        self.fullest(cands.collect(), self.mutated(Mutation::IssueFullestTieYoungest))
    }

    /// R4: the first eligible PENDING entry (dep row 0) in the issue order, other than
    /// `mover`, preferring the last issued state when `sort_state`. Without
    /// `registered_issue` it moves into the slot at this edge (`mover` is then None); with it,
    /// it is the next cycle's pick (R4r).
    fn pick(&self, mover: Option<usize>) -> Option<usize> {
        let elig: Vec<usize> = (0..self.p.entries)
            .filter(|&e| {
                matches!(self.e[e].status, Status::Pending(_)) && self.e[e].dep == 0 && Some(e) != mover
            })
            .collect();
        if self.p.sort_state && !self.mutated(Mutation::NoSortState) {
            if let Some(ls) = self.last_state {
                let same = elig.iter().copied().filter(|&e| self.e[e].state == ls);
                if let Some(e) = self.first_to_issue(same) {
                    return Some(e);
                }
            }
        }
        self.first_to_issue(elig.into_iter())
    }

    fn decide(&self, i: &TaskCombinerInputs) -> Decisions {
        let n = self.p.entries;
        let (m, f, in_ready) = self.match_free(i);
        let accept = i.in_valid && in_ready;
        let target = m.or(f);
        let slot_free = self.slot.is_none() || i.out_ready;
        let pick = match (slot_free, self.p.registered_issue) {
            (false, _) => None,
            (true, false) => self.pick(None),
            (true, true) => self.pick_q,
        };

        // D3: resident after the edge, not the target, not moving into the slot. D3t
        // (`dep_tags`): only the entries the instance names by tag; a named one that resolves
        // (resident, not the target, not moving) but is outside D3's set is illegal.
        let mut d3: Mask = 0;
        let mut dep_illegal = false;
        if let (true, Some(t)) = (accept, target) {
            let (stype, state, _, _) = self.instance(i);
            let types = self.p.depends_mask(stype);
            let named = self.named_by_tags(i);
            for j in 0..n {
                let x = &self.e[j];
                let mover = pick == Some(j) && !self.mutated(Mutation::D3KeepsMover);
                let resident = if self.mutated(Mutation::D3SkipsPending) {
                    x.status == Status::Open
                } else {
                    self.resident(j)
                };
                let legal = x.state == state && types >> x.stype & 1 == 1;
                let resolves = resident && j != t && !mover && named.map_or(true, |m| m >> j & 1 == 1);
                if resolves && legal {
                    d3 |= 1 << j;
                }
                if resolves && !legal && named.is_some() && !self.mutated(Mutation::DepIllegalIgnored) {
                    dep_illegal = true;
                }
            }
        }

        // R5: OPEN entries some PENDING entry depends on; R5h: not while only holding entries
        // (PENDING(FULL), no flush flag) depend on it, at most hold_producers entries of the
        // table are holding, and some entry is FREE.
        let pending = |s: &Self, e: usize| matches!(s.e[e].status, Status::Pending(_));
        let holding = |s: &Self, e: usize| s.e[e].status == Status::Pending(Reason::Full) && !s.e[e].rq;
        let pending_rows = |s: &Self| (0..n).filter(|&e| pending(s, e)).fold(0, |acc: Mask, e| acc | s.e[e].dep);
        let open_mask = (0..n)
            .filter(|&e| self.e[e].status == Status::Open)
            .fold(0 as Mask, |a, e| a | 1 << e);
        let mut dep_hit = pending_rows(self) & open_mask;
        let hold = self.p.hold_producers;
        let no_free = (0..n).all(|e| self.e[e].status != Status::Free) && !self.mutated(Mutation::HoldWhenFull);
        let held = (0..n).filter(|&e| holding(self, e)).count();
        let limit = if self.mutated(Mutation::HoldOneMore) { hold + 1 } else { hold };
        if hold > 0 && !no_free && held <= limit {
            let kept = (0..n).filter(|&j| dep_hit >> j & 1 == 1).filter(|&j| {
                !(0..n).any(|e| pending(self, e) && !holding(self, e) && self.e[e].dep >> j & 1 == 1)
            });
            dep_hit &= !kept.fold(0 as Mask, |a, j| a | 1 << j);
        }
        if self.mutated(Mutation::DepTransitive) {
            loop {
                let more = (0..n)
                    .filter(|&e| dep_hit >> e & 1 == 1)
                    .fold(dep_hit, |a, e| a | self.e[e].dep)
                    & open_mask;
                if more == dep_hit {
                    break;
                }
                dep_hit = more;
            }
        }

        // R6: lock.
        let lk_tag = i.lk_tag & ones(self.p.tag_w());
        let lock_entry = if i.lk_valid {
            (0..n).find(|&e| self.resident(e) && self.tag_of(e, self.e[e].gen) == lk_tag)
        } else {
            None
        };
        let lock_slot = i.lk_valid
            && lock_entry.is_none()
            && !self.mutated(Mutation::LockMissesSlot)
            && self.slot.as_ref().is_some_and(|s| s.tag == lk_tag);

        Decisions {
            m,
            target,
            accept,
            port_ready: self.port_in_ready(i, in_ready),
            d3,
            victim: self.victim(i, m, f),
            pick,
            dep_hit,
            lock_entry,
            lock_slot,
            rqf_accept: i.rqf_valid && !self.rq_busy,
            dep_illegal,
        }
    }

    /// D3t: the entries whose tag (their generation now) one of the instance's producer tags
    /// equals, resident or not; `None` without `dep_tags` (D3 alone: every entry qualifies).
    fn named_by_tags(&self, i: &TaskCombinerInputs) -> Option<Mask> {
        if self.p.dep_tags == 0 {
            return None;
        }
        let ent_only = self.mutated(Mutation::DepTagIgnoresGen);
        let mut m: Mask = 0;
        for tag in i.dep_tags(&self.p) {
            for j in 0..self.p.entries {
                if self.tag_of(j, self.e[j].gen) == tag || (ent_only && (tag & ones(self.p.ent_w())) as usize == j) {
                    m |= 1 << j;
                }
            }
        }
        Some(m)
    }

    /// Combinational outputs for the current state and inputs (no state change).
    pub fn outputs(&self, i: &TaskCombinerInputs) -> TaskCombinerOutputs {
        let p = &self.p;
        // R2i: the table reads IR's instance; the port outputs follow IR.
        let ti = self.table_inputs(i);
        let (m, f, take) = self.match_free(&ti);
        let in_ready = self.port_in_ready(i, take);
        let in_tag_valid = p.registered_input && ti.in_valid && take;
        let (m, f) = if p.registered_input && !in_tag_valid { (None, None) } else { (m, f) };
        let (in_tag, in_lane) = match (m, f) {
            (Some(m), _) => (self.tag_of(m, self.e[m].gen), self.e[m].count as u64),
            (None, Some(f)) => (self.tag_of(f, self.next_gen(f)), 0),
            (None, None) => (0, 0),
        };
        let in_lane = if self.mutated(Mutation::AppendOverwrites) && in_lane > 0 {
            in_lane - 1
        } else {
            in_lane
        };
        let mask = |pred: &dyn Fn(&Entry) -> bool| {
            self.e
                .iter()
                .enumerate()
                .filter(|(_, x)| pred(x))
                .fold(0 as Mask, |a, (k, _)| a | 1 << k)
        };
        let per = |val: &dyn Fn(&Entry) -> u64| {
            self.e
                .iter()
                .map(|x| if x.status == Status::Free { 0 } else { val(x) })
                .collect::<Vec<u64>>()
        };
        let mut o = TaskCombinerOutputs {
            in_ready,
            in_tag,
            in_lane,
            in_tag_valid,
            lk_hit: self.lk_hit,
            rqf_ready: !self.rq_busy,
            rqf_done: self.rqf_done,
            rqf_done_tpipe: self.rqf_done_tpipe,
            drain_done: i.drain_req
                && self.slot.is_none()
                && (0..p.entries).all(|e| !self.resident(e))
                && self.ir_drained(),
            out_refs: vec![0; p.width],
            st_valid: mask(&|x| x.status != Status::Free),
            st_open: mask(&|x| x.status == Status::Open),
            st_pending: mask(&|x| matches!(x.status, Status::Pending(_))),
            st_count: per(&|x| x.count as u64),
            st_stype: per(&|x| x.stype as u64),
            st_state: per(&|x| x.state),
            st_lockmask: per(&|x| x.lockmask),
            st_dep: self.e.iter().map(|x| if x.status == Status::Free { 0 } else { x.dep }).collect(),
            st_tag: (0..p.entries)
                .map(|e| self.tag_of(e, self.e[e].gen))
                .collect(),
            perf_tasks: self.perf_tasks,
            perf_lanes: self.perf_lanes,
            perf_val: crate::perf::read(&self.perf, i.perf_sel & ones(p.perf_sel_w())),
            err_dep: self.err_dep,
            ..Default::default()
        };
        if let Some(s) = &self.slot {
            o.out_valid = true;
            o.out_tag = s.tag;
            o.out_stype = s.stype as u64;
            o.out_state = s.state;
            o.out_count = s.count as u64;
            o.out_lane_mask = ones(s.count as u32);
            o.out_refs[..s.count].copy_from_slice(&s.refs[..s.count]);
            o.out_lockmask = s.lockmask;
            o.out_reason = s.reason.code();
        }
        o
    }

    /// One rising clock edge with inputs `i` (contract §4).
    pub fn clock(&mut self, port: &TaskCombinerInputs) {
        // R2i: the table's rules read IR's instance (the port's without the option).
        let i = &self.table_inputs(port);
        if i.reset {
            // R12. Entries keep no field that is observable once FREE except their tag,
            // which is {0, e} after reset.
            #[cfg(test)]
            let mutation = self.mutation;
            *self = Self::new(&self.p);
            #[cfg(test)]
            {
                self.mutation = mutation;
            }
            return;
        }
        let d = self.decide(i);
        let n = self.p.entries;
        // P1: this cycle's events, from the state before the edge (none without the key).
        let perf_ev = if self.perf.is_empty() { vec![] } else { self.perf_events(port, &d) };
        // R4r: the next pick, from the registered state and last state before this edge.
        let next_pick = if self.p.registered_issue { self.pick(d.pick) } else { None };
        let pre_resident: Vec<bool> = (0..n).map(|e| self.resident(e)).collect();
        let pre_lock: Vec<u64> = self.e.iter().map(|x| x.lockmask).collect();
        let was_busy = self.rq_busy;

        // R6 lock (before the move, so the bit goes with a task moving into the slot).
        let lk_bit = self.tp_bit(i.lk_tpipe);
        if let Some(e) = d.lock_entry {
            self.e[e].lockmask |= lk_bit;
        }
        let handshake = self.slot.is_some() && i.out_ready;
        if d.lock_slot && !handshake {
            self.slot.as_mut().unwrap().lockmask |= lk_bit;
        }
        // R11 handshake.
        if handshake {
            let s = self.slot.take().unwrap();
            self.perf_tasks = (self.perf_tasks + 1) & ones(32);
            self.perf_lanes = (self.perf_lanes + s.count as u64) & ones(32);
        }
        // R4 issue: the pick moves into the slot and frees its entry.
        if let Some(p) = d.pick {
            let x = &self.e[p];
            let Status::Pending(reason) = x.status else {
                unreachable!("pick is PENDING")
            };
            self.slot = Some(SlotTask {
                tag: self.tag_of(p, x.gen),
                stype: x.stype,
                state: x.state,
                count: x.count,
                refs: x.refs.clone(),
                lockmask: x.lockmask,
                reason,
                rq: x.rq,
            });
            self.last_state = Some(x.state);
            let x = &mut self.e[p];
            x.status = Status::Free;
            x.rq = false;
            for row in self.e.iter_mut() {
                row.dep &= !(1 << p);
            }
        }

        // R9 accept.
        let mut full: Option<usize> = None;
        if d.accept {
            let t = d.target.unwrap();
            let (stype, state, r, tp) = self.instance(i);
            if d.m.is_none() {
                let gen = self.next_gen(t);
                let age = self.seq;
                self.seq += 1;
                let x = &mut self.e[t];
                x.status = Status::Open;
                x.stype = stype;
                x.state = state;
                x.count = 0;
                x.refs.fill(0);
                x.lockmask = 0;
                x.gen = gen;
                x.age = age;
                x.dep = 0;
                x.rq = false;
            }
            let overwrite = self.mutated(Mutation::AppendOverwrites) && self.e[t].count > 0;
            let cap = self.cap(stype);
            let x = &mut self.e[t];
            if overwrite {
                x.refs[x.count - 1] = r;
            } else {
                x.refs[x.count] = r;
                x.count += 1;
            }
            x.lockmask |= tp;
            x.dep |= d.d3;
            if x.count >= cap {
                full = Some(t);
            }
        }

        // R7 flush snapshot on the post-edge state.
        let mut rqflush: Mask = 0;
        if d.rqf_accept {
            let bit = self.tp_bit(i.rqf_tpipe);
            let mut members = 0;
            for e in 0..n {
                let (res, lock) = if self.mutated(Mutation::SnapshotPreEdge) {
                    (pre_resident[e] && d.pick != Some(e), pre_lock[e])
                } else {
                    (self.resident(e), self.e[e].lockmask)
                };
                if res && lock & bit != 0 {
                    self.e[e].rq = true;
                    rqflush |= 1 << e;
                    members += 1;
                }
            }
            if let Some(s) = self.slot.as_mut() {
                if s.lockmask & bit != 0 {
                    s.rq = true;
                    members += 1;
                }
            }
            self.rqf_done_tpipe = i.rqf_tpipe & ones(self.p.tp_w());
            self.rq_busy = members > 0;
        }

        // R10: new reasons of the OPEN entries (OPEN before the edge or created at it;
        // the only status change so far is the pick's PENDING -> FREE).
        for e in 0..n {
            if self.e[e].status != Status::Open {
                continue;
            }
            let bit = |m: Mask| m >> e & 1 == 1;
            let rq = bit(rqflush);
            // R8 (R1): the entries OPEN in the registered state, not one created at this edge
            // (R2i: IR's instance while drain_req), which is closed at a later edge.
            let drain = i.drain_req && pre_resident[e];
            let reason = if full == Some(e) {
                Some(Reason::Full)
            } else if d.victim == Some(e) {
                Some(Reason::Evict)
            } else if bit(d.dep_hit) {
                Some(Reason::Dep)
            } else if self.mutated(Mutation::DrainOverRqflush) && drain {
                Some(Reason::Drain)
            } else if rq {
                Some(Reason::Rqflush)
            } else if drain {
                Some(Reason::Drain)
            } else {
                None
            };
            if let Some(r) = reason {
                self.e[e].status = Status::Pending(r);
            }
        }

        // R7 completion.
        let mut done = d.rqf_accept && !self.rq_busy;
        if was_busy {
            let flagged = self.e.iter().any(|x| x.status != Status::Free && x.rq)
                || self.slot.as_ref().is_some_and(|s| s.rq);
            if !flagged {
                self.rq_busy = false;
                done = true;
            }
        }
        self.rqf_done = done;
        self.lk_hit = d.lock_entry.is_some() || d.lock_slot;
        self.pick_q = next_pick;
        self.ir = self.next_ir(port, &d);
        self.perf_count(&perf_ev, i.perf_clr);
        // D3t: sticky err_dep; err_clr clears it unless this edge sets it (docs/perf.md).
        let clr = i.err_clr && self.p.dep_tags > 0;
        self.err_dep = if self.mutated(Mutation::ErrClrWins) {
            (d.dep_illegal || self.err_dep) && !clr
        } else {
            d.dep_illegal || (self.err_dep && !clr)
        };
    }
}

impl fmt::Display for TaskCombinerModel {
    /// The table, one line per resident entry, and the slot (for failure messages).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, x) in self
            .e
            .iter()
            .enumerate()
            .filter(|(_, x)| x.status != Status::Free)
        {
            writeln!(
                f,
                "e{k} {:?} stype {} state {} count {} lock {:b} dep {:b} age {}",
                x.status, x.stype, x.state, x.count, x.lockmask, x.dep, x.age
            )?;
        }
        if let Some(s) = &self.slot {
            writeln!(
                f,
                "slot tag {} stype {} state {} count {} {:?}",
                s.tag, s.stype, s.state, s.count, s.reason
            )?;
        }
        Ok(())
    }
}
