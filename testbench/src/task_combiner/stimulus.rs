//! Seeded random stimulus for the task combiner (spec §11.3 R1 under the contract),
//! functional coverage, and the [`Conservation`] checker.
//!
//! [`TaskCombinerStimulus`] behaves like the cache controller, render queues and SIMD
//! sink around the block:
//!
//! * primitive queries produce computation instances top-down (contract §10.6 upstream
//!   obligation): plain (1–3 VS), tessellated (0–3 VS, 1 HS, 1–12 DS), geometry (0–3 VS,
//!   1–2 GS, sometimes a DS first) and user-type queries, each for one state and one tile
//!   pipe; an instance is held on the input (`in_valid` and payload stable) until it is
//!   accepted, also while `drain_req` holds `in_ready` low;
//! * hits on scheduled items lock tasks by tags the block returned earlier: mostly recent
//!   ones (resident), some old ones (stale: issued or overwritten), some random values;
//! * render-queue flushes of random pipes, held until `rqf_ready`;
//! * the SIMD sink stalls `out_ready` in bursts;
//! * now and then a drain (held until `drain_done`, then released) and a reset pulse.
//!
//! So that every trigger occurs in every configuration, the program runs in phases of
//! 100–2000 cycles: *focus* (one key, no flushes: tasks fill, FULL), *few* (1–3 states,
//! moderate flushes and locks), *many* (more keys than entries: EVICT), *tile* (tile
//! pipes flush their render queue every 20–150 instances) and *quiet* (sparse input,
//! heavy back-pressure, flushes and drains). Payload fields that are not valid carry
//! random in-range values (out-of-range shader types and tile pipes are protocol errors,
//! never driven).
//!
//! The stimulus never produces an illegal input, so `allow_errors` has no effect.

use super::model::ones;
use super::{Reason, TaskCombinerInputs, TaskCombinerOutputs, TaskCombinerParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet, VecDeque};

/// One computation instance as presented on the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Inst {
    stype: u64,
    state: u64,
    r: u64,
    tpipe: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PhaseKind {
    Focus,
    Few,
    Many,
    Tile,
    Quiet,
}

/// The knobs of one phase.
#[derive(Debug, Clone)]
struct Phase {
    kind: PhaseKind,
    left: u32,
    /// States the queries use.
    states: Vec<u64>,
    /// The key of a focus phase.
    focus: (u64, u64),
    /// Percent of cycles that present a new instance.
    in_pct: u32,
    /// Flush requests per 10 000 cycles.
    rqf_rate: u32,
    /// Percent of cycles with a lock request.
    lock_pct: u32,
    /// Percent chance per cycle to start a back-pressure burst.
    stall_pct: u32,
    /// Drain starts per 10 000 cycles.
    drain_rate: u32,
}

/// Random stimulus; see the module documentation.
#[derive(Debug, Clone)]
pub struct TaskCombinerStimulus {
    p: TaskCombinerParams,
    rng: ChaCha8Rng,
    /// The cycle the next call to `next` generates.
    cycle: u64,
    prev: Option<TaskCombinerInputs>,
    phase: Phase,
    /// Instances of the current query not presented yet.
    queue: VecDeque<Inst>,
    /// The instance on the input, held until accepted.
    held: Option<Inst>,
    /// The flush request on the input, held until accepted.
    held_rqf: Option<u64>,
    /// Tags returned by `in_tag` at acceptance, most recent last.
    tags: VecDeque<u64>,
    /// Some(n): draining; n cycles to hold after `drain_done` (None while not done yet).
    drain: Option<Option<u32>>,
    stall_left: u32,
    next_ref: u64,
    /// Tile phase: instances left before each pipe flushes its render queue.
    tile_left: Vec<u32>,
    /// The tile pipe of the query being presented.
    query_tp: u64,
}

impl TaskCombinerStimulus {
    pub fn new(params: &TaskCombinerParams, seed: u64) -> Self {
        params.validate().expect("task_combiner parameters");
        let mut s = TaskCombinerStimulus {
            p: params.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            cycle: 0,
            prev: None,
            phase: Phase {
                kind: PhaseKind::Few,
                left: 0,
                states: vec![0],
                focus: (0, 0),
                in_pct: 0,
                rqf_rate: 0,
                lock_pct: 0,
                stall_pct: 0,
                drain_rate: 0,
            },
            queue: VecDeque::new(),
            held: None,
            held_rqf: None,
            tags: VecDeque::new(),
            drain: None,
            stall_left: 0,
            next_ref: 0,
            tile_left: vec![0; params.tile_pipes],
            query_tp: 0,
        };
        s.new_phase();
        s
    }

    /// No effect: the stimulus has no illegal inputs to add (kept for the kit's interface).
    pub fn allow_errors(self, _on: bool) -> Self {
        self
    }

    /// Inputs for the next cycle. `last_outputs` are the outputs the DUT gave for the
    /// inputs of the previous call (ignored on the first call, which is a reset cycle).
    pub fn next(&mut self, last_outputs: &TaskCombinerOutputs) -> TaskCombinerInputs {
        let reset = match self.prev.take() {
            None => true,
            Some(prev) => {
                self.account(&prev, last_outputs);
                self.rng.gen_ratio(1, 3000)
            }
        };
        let inp = if reset {
            self.reset_cycle()
        } else {
            self.generate()
        };
        self.prev = Some(inp.clone());
        self.cycle += 1;
        inp
    }

    // ---- bookkeeping -----------------------------------------------------------------

    fn account(&mut self, prev: &TaskCombinerInputs, out: &TaskCombinerOutputs) {
        if prev.reset {
            // Upstream is reset too: requests in flight are dropped. Old tags are kept:
            // after reset they are stale (or name new tasks by chance).
            self.held = None;
            self.held_rqf = None;
            self.queue.clear();
            self.drain = None;
            return;
        }
        if prev.in_valid && out.in_ready {
            self.held = None;
            self.tags.push_back(out.in_tag);
            if self.tags.len() > 256 {
                self.tags.pop_front();
            }
        }
        if prev.rqf_valid && out.rqf_ready {
            self.held_rqf = None;
        }
        if let Some(None) = self.drain {
            if out.drain_done {
                self.drain = Some(Some(self.rng.gen_range(0..=3)));
            }
        }
    }

    // ---- generation ------------------------------------------------------------------

    fn rand_bits(&mut self, bits: u32) -> u64 {
        self.rng.gen::<u64>() & ones(bits)
    }

    fn rand_tp(&mut self) -> u64 {
        self.rng.gen_range(0..self.p.tile_pipes as u64)
    }

    fn rand_state(&mut self) -> u64 {
        self.rand_bits(self.p.state_width)
    }

    fn new_phase(&mut self) {
        let p = self.p.clone();
        let kind = match self.rng.gen_range(0..100) {
            0..=17 => PhaseKind::Focus,
            18..=44 => PhaseKind::Few,
            45..=64 => PhaseKind::Many,
            65..=89 => PhaseKind::Tile,
            _ => PhaseKind::Quiet,
        };
        let n_states = match kind {
            PhaseKind::Focus => 1,
            PhaseKind::Few | PhaseKind::Quiet => self.rng.gen_range(1..=3),
            PhaseKind::Tile => self.rng.gen_range(2..=6),
            // More keys than entries (where the state space allows).
            PhaseKind::Many => self.rng.gen_range(p.entries + 1..=p.entries + 8),
        };
        let n_states = n_states.min(1 << p.state_width.min(20));
        let mut states: Vec<u64> = Vec::new();
        while states.len() < n_states {
            let s = self.rand_state();
            if !states.contains(&s) {
                states.push(s);
            }
        }
        let focus = (self.rng.gen_range(0..p.shader_types as u64), states[0]);
        let (in_pct, rqf_rate, lock_pct, stall_pct, drain_rate) = match kind {
            PhaseKind::Focus => (95, 0, 10, 1, 0),
            PhaseKind::Few => (80, 60, 20, 3, 4),
            PhaseKind::Many => (90, 30, 15, 2, 3),
            PhaseKind::Tile => (85, 0, 25, 3, 3),
            PhaseKind::Quiet => (25, 300, 30, 15, 30),
        };
        self.phase = Phase {
            kind,
            left: self.rng.gen_range(100..=2000),
            states,
            focus,
            in_pct,
            rqf_rate,
            lock_pct,
            stall_pct,
            drain_rate,
        };
        for t in 0..self.tile_left.len() {
            self.tile_left[t] = self.rng.gen_range(20..=150);
        }
        self.queue.clear();
    }

    fn new_ref(&mut self) -> u64 {
        self.next_ref = self.next_ref.wrapping_add(1);
        if self.rng.gen_ratio(1, 8) {
            self.rand_bits(self.p.ref_width)
        } else {
            self.next_ref & ones(self.p.ref_width)
        }
    }

    /// Queue the instances of one primitive query, top-down.
    fn new_query(&mut self) {
        let nst = self.p.shader_types as u64;
        let tp = if self.phase.kind == PhaseKind::Tile && self.rng.gen_bool(0.8) {
            self.query_tp
        } else {
            self.rand_tp()
        };
        self.query_tp = tp;
        if self.phase.kind == PhaseKind::Focus {
            let (s, st) = self.phase.focus;
            for _ in 0..self.rng.gen_range(1..=4) {
                let r = self.new_ref();
                self.queue.push_back(Inst {
                    stype: s,
                    state: st,
                    r,
                    tpipe: tp,
                });
            }
            return;
        }
        let state = self.phase.states[self.rng.gen_range(0..self.phase.states.len())];
        let max_ds = (self.p.width / 2).clamp(1, 12);
        let counts: Vec<(u64, usize)> = match self.rng.gen_range(0..100) {
            0..=39 => vec![(0, self.rng.gen_range(1..=3))],
            40..=69 => vec![
                (0, self.rng.gen_range(0..=3)),
                (1, 1),
                (2, self.rng.gen_range(1..=max_ds)),
            ],
            70..=84 => {
                let ds = if self.rng.gen_bool(0.3) { 1 } else { 0 };
                vec![
                    (0, self.rng.gen_range(0..=3)),
                    (2, ds),
                    (3, self.rng.gen_range(1..=2)),
                ]
            }
            _ => {
                let s = self.rng.gen_range(0..nst.max(1));
                vec![(s, self.rng.gen_range(1..=4))]
            }
        };
        for (s, n) in counts {
            // Types the configuration does not have are dropped (their consumers stay).
            if s >= nst {
                continue;
            }
            for _ in 0..n {
                let r = self.new_ref();
                self.queue.push_back(Inst {
                    stype: s,
                    state,
                    r,
                    tpipe: tp,
                });
            }
        }
    }

    /// Inputs whose not-valid payload fields carry random in-range values.
    fn garbage(&mut self) -> TaskCombinerInputs {
        let p = self.p.clone();
        TaskCombinerInputs {
            in_stype: self.rng.gen_range(0..p.shader_types as u64),
            in_state: self.rand_state(),
            in_ref: self.rand_bits(p.ref_width),
            in_tpipe: self.rand_tp(),
            lk_tag: self.rand_bits(p.tag_w()),
            lk_tpipe: self.rand_tp(),
            rqf_tpipe: self.rand_tp(),
            out_ready: true,
            ..Default::default()
        }
    }

    fn reset_cycle(&mut self) -> TaskCombinerInputs {
        let mut i = self.garbage().with_reset();
        i.in_valid = self.rng.gen();
        i.lk_valid = self.rng.gen();
        i.rqf_valid = self.rng.gen();
        i.drain_req = self.rng.gen_ratio(1, 4);
        i.out_ready = self.rng.gen();
        i
    }

    fn generate(&mut self) -> TaskCombinerInputs {
        if self.phase.left == 0 {
            self.new_phase();
        }
        self.phase.left -= 1;
        let mut i = self.garbage();

        // Drain: start now and then; release a few cycles after drain_done.
        match self.drain {
            None if self.rng.gen_ratio(self.phase.drain_rate, 10_000) => self.drain = Some(None),
            Some(Some(0)) => self.drain = None,
            Some(Some(n)) => self.drain = Some(Some(n - 1)),
            _ => {}
        }
        i.drain_req = self.drain.is_some();

        // The instance on the input (held until accepted).
        if self.held.is_none() && self.rng.gen_range(0..100) < self.phase.in_pct {
            if self.queue.is_empty() {
                self.new_query();
            }
            self.held = self.queue.pop_front();
            if let (Some(h), PhaseKind::Tile) = (self.held, self.phase.kind) {
                let t = h.tpipe as usize;
                self.tile_left[t] = self.tile_left[t].saturating_sub(1);
                if self.tile_left[t] == 0 && self.held_rqf.is_none() {
                    // End of tile (or render queue full): flush this pipe's queue.
                    self.held_rqf = Some(h.tpipe);
                    self.tile_left[t] = self.rng.gen_range(20..=150);
                }
            }
        }
        if let Some(h) = self.held {
            i = i.inst(h.stype, h.state, h.r, h.tpipe);
        }

        // Lock requests by tags seen earlier.
        if self.rng.gen_range(0..100) < self.phase.lock_pct {
            let n = self.tags.len();
            let pick = self.rng.gen_range(0..100);
            let tag = if n > 0 && pick < 60 {
                self.tags[n - 1 - self.rng.gen_range(0..n.min(8))]
            } else if n > 0 && pick < 85 {
                self.tags[self.rng.gen_range(0..n)]
            } else {
                self.rand_bits(self.p.tag_w())
            };
            let tp = if self.rng.gen_bool(0.5) {
                self.query_tp
            } else {
                self.rand_tp()
            };
            i = i.lk(tag, tp);
        }

        // Render-queue flushes (held until accepted).
        if self.held_rqf.is_none() && self.rng.gen_ratio(self.phase.rqf_rate, 10_000) {
            self.held_rqf = Some(self.rand_tp());
        }
        if let Some(tp) = self.held_rqf {
            i = i.rqf(tp);
        }

        // Back-pressure bursts.
        if self.stall_left == 0 && self.rng.gen_range(0..100) < self.phase.stall_pct {
            self.stall_left = if self.rng.gen_ratio(1, 10) {
                self.rng.gen_range(20..=80)
            } else {
                self.rng.gen_range(1..=8)
            };
        }
        if self.stall_left > 0 {
            self.stall_left -= 1;
            i.out_ready = false;
        } else {
            i.out_ready = !self.rng.gen_ratio(1, 10);
        }
        i
    }
}

/// Hit counts of the coverage bins.
#[derive(Debug, Clone, Default)]
pub struct CoverageCounts {
    pub cycles: u64,
    /// Tasks that reached the out port, by `out_reason`.
    pub full: u64,
    pub evict: u64,
    pub dep: u64,
    pub rqflush: u64,
    pub drain: u64,
    /// Accepted instances and output tasks/lanes.
    pub instances: u64,
    pub tasks: u64,
    pub lanes: u64,
    pub lock_hits: u64,
    /// Lock requests that hit nothing (stale or random tags).
    pub lock_misses: u64,
    /// `rqf_done` of a flush with an empty snapshot (pulse in the cycle after acceptance).
    pub rqf_done_empty: u64,
    pub rqf_done_nonempty: u64,
    /// Cycles with `out_valid && !out_ready`.
    pub backpressure: u64,
    /// Cycles where `in_valid` waits on a full table (no match, no free entry, no drain).
    pub table_full: u64,
    /// Victims chosen (a full-table wait with no PENDING entry), and those chosen while
    /// some entry had producers (where the nodep policies differ).
    pub victims: u64,
    pub victims_with_deps: u64,
    /// Drains completed (`drain_done` rising).
    pub drains_done: u64,
    /// Cycles with some dependency row set.
    pub dep_cycles: u64,
    pub resets: u64,
}

/// Functional coverage of a run, updated from each cycle's (inputs, outputs). It also
/// feeds a [`Conservation`] checker, so that a lockstep run (which reports through
/// [`Coverage::assert_all_hit`]) checks conservation too.
#[derive(Debug, Clone)]
pub struct Coverage {
    p: TaskCombinerParams,
    pub hits: CoverageCounts,
    prev: Option<(TaskCombinerInputs, TaskCombinerOutputs)>,
    pub conservation: Conservation,
}

impl Coverage {
    /// Hits each required bin needs in [`Coverage::assert_all_hit`].
    pub const MIN_HITS: u64 = 10;

    pub fn new(params: &TaskCombinerParams, _allow_errors: bool) -> Self {
        Coverage {
            p: params.clone(),
            hits: CoverageCounts::default(),
            prev: None,
            conservation: Conservation::new(params),
        }
    }

    /// More keys than entries are possible, so the table can be full of OPEN entries.
    pub fn eviction_possible(&self) -> bool {
        let keys = (self.p.shader_types as u128) << self.p.state_width;
        keys > self.p.entries as u128
    }

    /// Two tasks can be resident with one depending on the other: at least two entries
    /// and a non-empty `depends` row. With one entry no two tasks are ever resident, so
    /// no dependency row is ever set and DEP cannot occur.
    pub fn dependency_possible(&self) -> bool {
        self.p.entries >= 2 && self.p.depends.iter().any(|r| !r.is_empty())
    }

    /// Record one cycle: the inputs applied and the outputs observed before the edge.
    pub fn observe(&mut self, i: &TaskCombinerInputs, o: &TaskCombinerOutputs) {
        // A violation is kept inside the checker and reported by assert_all_hit.
        let _ = self.conservation.observe(i, o);
        let h = &mut self.hits;
        h.cycles += 1;
        let prev = self.prev.take();
        let prev_reset = prev.as_ref().is_some_and(|(pi, _)| pi.reset);
        if let Some((pi, po)) = prev.as_ref().filter(|_| !prev_reset) {
            if pi.lk_valid {
                h.lock_hits += u64::from(o.lk_hit);
                h.lock_misses += u64::from(!o.lk_hit);
            }
            if o.rqf_done {
                if po.rqf_ready {
                    h.rqf_done_empty += 1;
                } else {
                    h.rqf_done_nonempty += 1;
                }
            }
            h.drains_done += u64::from(o.drain_done && !po.drain_done);
        }
        let new_task = o.out_valid
            && match prev.as_ref() {
                None => true,
                Some((pi, po)) => pi.reset || !po.out_valid || pi.out_ready,
            };
        if new_task {
            match Reason::from_code(o.out_reason) {
                Some(Reason::Full) => h.full += 1,
                Some(Reason::Evict) => h.evict += 1,
                Some(Reason::Dep) => h.dep += 1,
                Some(Reason::Rqflush) => h.rqflush += 1,
                Some(Reason::Drain) => h.drain += 1,
                None => {}
            }
            h.tasks += 1;
            h.lanes += o.out_count;
        }
        if i.reset {
            h.resets += 1;
        } else {
            h.instances += u64::from(i.in_valid && o.in_ready);
            h.backpressure += u64::from(o.out_valid && !i.out_ready);
            if i.in_valid && !o.in_ready && !i.drain_req {
                h.table_full += 1;
                if o.st_pending == 0 {
                    h.victims += 1;
                    h.victims_with_deps += u64::from(o.st_dep.iter().any(|&r| r != 0));
                }
            }
            h.dep_cycles += u64::from(o.st_dep.iter().any(|&r| r != 0));
        }
        self.prev = Some((i.clone(), o.clone()));
    }

    /// The required bins with their counts (which ones the parameters make reachable).
    pub fn bins(&self) -> Vec<(&'static str, u64, bool)> {
        let h = &self.hits;
        let ev = self.eviction_possible();
        let dep = self.dependency_possible();
        vec![
            ("full", h.full, true),
            ("evict", h.evict, ev),
            ("dep", h.dep, dep),
            ("rqflush", h.rqflush, true),
            ("drain", h.drain, true),
            ("lock_hits", h.lock_hits, true),
            ("lock_misses", h.lock_misses, true),
            ("rqf_done_empty", h.rqf_done_empty, true),
            ("rqf_done_nonempty", h.rqf_done_nonempty, true),
            ("backpressure", h.backpressure, true),
            ("table_full", h.table_full, ev),
            ("victims", h.victims, ev),
            ("victims_with_deps", h.victims_with_deps, ev && dep),
            ("drains_done", h.drains_done, true),
            ("dep_cycles", h.dep_cycles, dep),
            ("resets", h.resets, true),
        ]
    }

    /// No conservation violation, and every bin that the parameters make reachable was
    /// hit at least [`Coverage::MIN_HITS`] times.
    pub fn assert_all_hit(&self) -> Result<(), String> {
        if let Some(e) = self.conservation.error() {
            return Err(format!("conservation: {e}"));
        }
        crate::kit::check_bins(&self.bins(), Self::MIN_HITS, self.hits.cycles)
    }
}

/// A task as the checker knows it from the ports: accepted instances, expected lockmask
/// and the tasks it may depend on.
#[derive(Debug, Clone)]
struct TaskView {
    serial: u64,
    tag: u64,
    stype: u64,
    state: u64,
    refs: Vec<u64>,
    /// Tile pipes of its instances plus lock hits.
    lockmask: u64,
    /// Serials of the tasks resident when one of its instances was accepted that had its
    /// state and a type in `depends[stype]` (a superset of its dependency row).
    producers: Vec<u64>,
}

/// The task in the output slot as the checker saw it appear.
#[derive(Debug, Clone)]
struct SlotView {
    task: TaskView,
    reason: u64,
}

/// A flush in progress: its pipe and the serials of the tasks that had its bit when it
/// was accepted (a subset of its snapshot).
#[derive(Debug, Clone)]
struct FlushWatch {
    tpipe: u64,
    members: Vec<u64>,
}

/// Checks, from the ports alone, cycle by cycle:
///
/// * conservation (spec A7, A8): every accepted instance (at `in_valid && in_ready`, with
///   its `in_tag`/`in_lane`) leaves in exactly one output task, the one with that tag, at
///   the lane reported at acceptance, with its reference; the task has the instance's
///   (stype, state); an instance whose tag names no resident task starts at lane 0, and
///   lanes are packed; no task exceeds `capacity[stype]`; `out_count` >= 1;
/// * `out_lane_mask` = (1 << count) − 1, `out_reason` in 1..=5 (A6);
/// * out payload stable under back-pressure (A5), `out_lockmask` = the task's tile pipes
///   plus the locks that hit it (also while in the slot, unless it left at that edge);
/// * `lk_hit` = the lock named a resident task or the slot task;
/// * producer before consumer (A3): no task reaches the out port while a task it may
///   depend on (same state, a type in `depends`, resident when one of its instances was
///   accepted) has not;
/// * dependency rows name only valid entries of the same state and a `depends` type (A4);
/// * `rqf_done` only after an accepted flush, with its `rqf_done_tpipe`, and only when no
///   task that had the pipe's bit at acceptance is still resident or in the slot (A10);
/// * `drain_done` = `drain_req` with no resident task and no slot task; `in_ready` = 0
///   while `drain_req`;
/// * `perf_tasks`/`perf_lanes` count the handshakes (mod 2^32);
/// * after a reset cycle: no task, empty slot, `rqf_ready`, no pulses, counters 0.
///
/// The first violation is kept and returned, with its cycle, by every later call.
#[derive(Debug, Clone)]
pub struct Conservation {
    p: TaskCombinerParams,
    cycle: u64,
    next_serial: u64,
    resident: HashMap<u64, TaskView>,
    slot: Option<SlotView>,
    prev: Option<(TaskCombinerInputs, TaskCombinerOutputs)>,
    /// Lock of the previous cycle: (tag, bit, expected hit).
    lock: Option<(u64, u64, bool)>,
    flush: Option<FlushWatch>,
    tasks: u64,
    lanes: u64,
    /// Instances accepted and tasks seen since the start (not reset).
    pub accepted: u64,
    pub issued_instances: u64,
    error: Option<String>,
}

impl Conservation {
    pub fn new(p: &TaskCombinerParams) -> Self {
        Conservation {
            p: p.clone(),
            cycle: 0,
            next_serial: 0,
            resident: HashMap::new(),
            slot: None,
            prev: None,
            lock: None,
            flush: None,
            tasks: 0,
            lanes: 0,
            accepted: 0,
            issued_instances: 0,
            error: None,
        }
    }

    /// The first violation seen, if any.
    pub fn error(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// Instances accepted and not yet seen on the out port.
    pub fn outstanding(&self) -> usize {
        self.resident.values().map(|t| t.refs.len()).sum::<usize>()
    }

    /// Feed one cycle (inputs applied, outputs before the edge). Returns the first
    /// violation seen so far.
    pub fn observe(
        &mut self,
        i: &TaskCombinerInputs,
        o: &TaskCombinerOutputs,
    ) -> Result<(), String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let c = self.cycle;
        self.cycle += 1;
        if let Err(e) = self.check(i, o) {
            let e = format!("cycle {c}: {e}");
            self.error = Some(e.clone());
            return Err(e);
        }
        Ok(())
    }

    fn depends_on(&self, consumer: u64, producer: u64) -> bool {
        self.p
            .depends
            .get(consumer as usize)
            .is_some_and(|row| row.contains(&(producer as usize)))
    }

    fn check(&mut self, i: &TaskCombinerInputs, o: &TaskCombinerOutputs) -> Result<(), String> {
        let p = self.p.clone();
        let prev = self.prev.take();
        self.prev = Some((i.clone(), o.clone()));
        let prev_reset = prev.as_ref().is_some_and(|(pi, _)| pi.reset);

        // After a reset cycle: a clean start.
        if prev_reset {
            self.resident.clear();
            self.slot = None;
            self.lock = None;
            self.flush = None;
            self.tasks = 0;
            self.lanes = 0;
            if o.st_valid != 0
                || o.out_valid
                || !o.rqf_ready
                || o.rqf_done
                || o.lk_hit
                || o.perf_tasks != 0
                || o.perf_lanes != 0
            {
                return Err(format!(
                    "not clean after reset: st_valid {:#x} out_valid {} rqf_ready {} rqf_done {} lk_hit {} perf {}/{}",
                    o.st_valid, o.out_valid, o.rqf_ready, o.rqf_done, o.lk_hit, o.perf_tasks, o.perf_lanes
                ));
            }
        }
        let (handshake, stalled) = match prev.as_ref().filter(|_| !prev_reset) {
            Some((pi, po)) => (po.out_valid && pi.out_ready, po.out_valid && !pi.out_ready),
            None => (false, false),
        };
        if handshake {
            let Some(s) = self.slot.take() else {
                return Err("handshake of a task the checker did not see appear".into());
            };
            self.tasks += 1;
            self.lanes += s.task.refs.len() as u64;
        }

        // The lock of the previous cycle.
        if let Some((tag, bit, expect)) = self.lock.take() {
            if o.lk_hit != expect {
                return Err(format!(
                    "lk_hit expected {} for a lock of tag {tag:#x}, actual {}",
                    expect as u8, o.lk_hit as u8
                ));
            }
            if !expect {
                // A miss; a task created at that edge with this tag is not locked.
            } else if let Some(t) = self.resident.get_mut(&tag) {
                t.lockmask |= bit;
            } else if let Some(s) = self.slot.as_mut().filter(|s| s.task.tag == tag) {
                s.task.lockmask |= bit; // the slot task stayed (else it was taken above)
            }
        }

        // The out port.
        if stalled {
            let s = self.slot.as_ref().unwrap();
            if !o.out_valid {
                return Err("out_valid dropped under back-pressure".into());
            }
            let n = s.task.refs.len();
            let same = o.out_tag == s.task.tag
                && o.out_stype == s.task.stype
                && o.out_state == s.task.state
                && o.out_count == n as u64
                && o.out_lane_mask == ones(n as u32)
                && o.out_refs[..n] == s.task.refs[..]
                && o.out_reason == s.reason;
            if !same {
                return Err(format!(
                    "out payload changed under back-pressure (task tag {:#x})",
                    s.task.tag
                ));
            }
            if o.out_lockmask != s.task.lockmask {
                return Err(format!(
                    "out_lockmask {:#b}, expected {:#b} (tile pipes and lock hits)",
                    o.out_lockmask, s.task.lockmask
                ));
            }
        } else if o.out_valid {
            let Some(t) = self.resident.remove(&o.out_tag) else {
                return Err(format!(
                    "out task with tag {:#x} that holds no accepted instance",
                    o.out_tag
                ));
            };
            let n = t.refs.len();
            if o.out_stype != t.stype || o.out_state != t.state {
                return Err(format!(
                    "out task {:#x} is stype {} state {}, its instances were stype {} state {}",
                    o.out_tag, o.out_stype, o.out_state, t.stype, t.state
                ));
            }
            if o.out_count != n as u64 || o.out_count == 0 {
                return Err(format!(
                    "out task {:#x} has out_count {}, {n} instances were accepted into it",
                    o.out_tag, o.out_count
                ));
            }
            if n > p.cap(t.stype as usize) {
                return Err(format!(
                    "out task {:#x} holds {n} instances, capacity {}",
                    o.out_tag,
                    p.cap(t.stype as usize)
                ));
            }
            if o.out_lane_mask != ones(n as u32) {
                return Err(format!(
                    "out_lane_mask {:#x} for count {n}",
                    o.out_lane_mask
                ));
            }
            if let Some(l) = (0..n).find(|&l| o.out_refs[l] != t.refs[l]) {
                return Err(format!(
                    "out task {:#x} lane {l}: ref {:#x}, accepted {:#x}",
                    o.out_tag, o.out_refs[l], t.refs[l]
                ));
            }
            if Reason::from_code(o.out_reason).is_none() {
                return Err(format!("out_reason {}", o.out_reason));
            }
            if o.out_lockmask != t.lockmask {
                return Err(format!(
                    "out task {:#x}: out_lockmask {:#b}, expected {:#b}",
                    o.out_tag, o.out_lockmask, t.lockmask
                ));
            }
            let live: HashSet<u64> = self.resident.values().map(|r| r.serial).collect();
            if let Some(pr) = t.producers.iter().find(|s| live.contains(s)) {
                let y = self.resident.values().find(|r| r.serial == *pr).unwrap();
                return Err(format!(
                    "A3: task {:#x} (stype {} state {}) issued while its producer {:#x} (stype {}) is resident",
                    o.out_tag, t.stype, t.state, y.tag, y.stype
                ));
            }
            self.issued_instances += n as u64;
            self.slot = Some(SlotView {
                task: t,
                reason: o.out_reason,
            });
        } else if self.slot.is_some() {
            return Err("out_valid is 0 but the slot task was not handshaked".into());
        }

        // Counters, drain, dependency rows.
        if o.perf_tasks != self.tasks & ones(32) || o.perf_lanes != self.lanes & ones(32) {
            return Err(format!(
                "perf {}/{}, handshakes counted {}/{}",
                o.perf_tasks, o.perf_lanes, self.tasks, self.lanes
            ));
        }
        let empty = self.resident.is_empty() && !o.out_valid;
        if o.drain_done != (i.drain_req && empty) {
            return Err(format!(
                "drain_done {} with drain_req {} and {} resident tasks",
                o.drain_done,
                i.drain_req,
                self.resident.len()
            ));
        }
        if i.drain_req && o.in_ready {
            return Err("in_ready while drain_req".into());
        }
        if o.st_valid.count_ones() as usize != self.resident.len() {
            return Err(format!(
                "{} valid entries, {} tasks hold accepted instances",
                o.st_valid.count_ones(),
                self.resident.len()
            ));
        }
        for e in (0..p.entries).filter(|&e| o.st_valid >> e & 1 == 1) {
            let row = o.st_dep[e];
            for j in (0..p.entries).filter(|&j| row >> j & 1 == 1) {
                let ok = o.st_valid >> j & 1 == 1
                    && j != e
                    && o.st_state[j] == o.st_state[e]
                    && self.depends_on(o.st_stype[e], o.st_stype[j]);
                if !ok {
                    return Err(format!(
                        "A4: entry {e} (stype {} state {}) depends on entry {j}",
                        o.st_stype[e], o.st_state[e]
                    ));
                }
            }
        }

        // rqf_done of the flush in progress.
        if o.rqf_done {
            let Some(w) = self.flush.take() else {
                return Err("rqf_done without an accepted flush".into());
            };
            if o.rqf_done_tpipe != w.tpipe {
                return Err(format!(
                    "rqf_done_tpipe {}, the flush was for pipe {}",
                    o.rqf_done_tpipe, w.tpipe
                ));
            }
            let live: HashSet<u64> = self
                .resident
                .values()
                .map(|r| r.serial)
                .chain(self.slot.iter().map(|s| s.task.serial))
                .collect();
            if w.members.iter().any(|m| live.contains(m)) {
                return Err(format!("A10: rqf_done for pipe {} while a task locked for it at the flush is still held", w.tpipe));
            }
        }

        if i.reset {
            return Ok(());
        }

        // Lock (checked next cycle) against the registered residents, before this
        // cycle's instance is added.
        if i.lk_valid {
            let hit =
                self.resident.contains_key(&i.lk_tag) || (o.out_valid && o.out_tag == i.lk_tag);
            self.lock = Some((i.lk_tag, 1 << i.lk_tpipe, hit));
        }

        // Accept.
        if i.in_valid && o.in_ready {
            let (stype, state) = (i.in_stype, i.in_state & ones(p.state_width));
            let r = i.in_ref & ones(p.ref_width);
            let bit = 1u64 << i.in_tpipe;
            let producers: Vec<u64> = self
                .resident
                .values()
                .filter(|y| {
                    y.tag != o.in_tag && y.state == state && self.depends_on(stype, y.stype)
                })
                .map(|y| y.serial)
                .collect();
            self.accepted += 1;
            match self.resident.get_mut(&o.in_tag) {
                Some(t) => {
                    if (t.stype, t.state) != (stype, state) {
                        return Err(format!(
                            "instance stype {stype} state {state} accepted into task {:#x} of stype {} state {}",
                            o.in_tag, t.stype, t.state
                        ));
                    }
                    if o.in_lane != t.refs.len() as u64 {
                        return Err(format!(
                            "in_lane {} for task {:#x} holding {} instances",
                            o.in_lane,
                            o.in_tag,
                            t.refs.len()
                        ));
                    }
                    if t.refs.len() >= p.cap(stype as usize) {
                        return Err(format!("instance accepted into full task {:#x}", o.in_tag));
                    }
                    t.refs.push(r);
                    t.lockmask |= bit;
                    for s in producers {
                        if !t.producers.contains(&s) {
                            t.producers.push(s);
                        }
                    }
                }
                None => {
                    if o.in_lane != 0 {
                        return Err(format!(
                            "in_lane {} for a new task {:#x}",
                            o.in_lane, o.in_tag
                        ));
                    }
                    let serial = self.next_serial;
                    self.next_serial += 1;
                    let t = TaskView {
                        serial,
                        tag: o.in_tag,
                        stype,
                        state,
                        refs: vec![r],
                        lockmask: bit,
                        producers,
                    };
                    self.resident.insert(o.in_tag, t);
                }
            }
        }

        // Flush accepted: the tasks that have its bit now must be gone at rqf_done.
        if i.rqf_valid && o.rqf_ready {
            if self.flush.is_some() {
                return Err("a flush accepted while another is in progress".into());
            }
            let bit = 1u64 << i.rqf_tpipe;
            let mut members: Vec<u64> = self
                .resident
                .values()
                .filter(|t| t.lockmask & bit != 0)
                .map(|t| t.serial)
                .collect();
            if let Some(s) = self
                .slot
                .as_ref()
                .filter(|s| s.task.lockmask & bit != 0 && !i.out_ready)
            {
                members.push(s.task.serial);
            }
            self.flush = Some(FlushWatch {
                tpipe: i.rqf_tpipe,
                members,
            });
        }
        Ok(())
    }
}
