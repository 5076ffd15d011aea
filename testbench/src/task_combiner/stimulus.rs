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
//! With `perf_counters` every cycle reads a random counter index (also past the last one) and
//! about one cycle in 400 clears the counters (rule P1).
//!
//! With `dep_tags` (contract D3t) each instance names producer tags, stable while it is held:
//! each of the K slots is given with probability 0.7, half of them the tag of a recent
//! instance of a legal producer (the same state, a type `depends` lists), the rest a recent
//! tag of any instance (often illegal, or the target itself), an old tag (stale) or random
//! bits; `err_clr` pulses about one cycle in 100. Drawn only with the key, so that runs
//! without it see the same stream.
//!
//! With `registered_input` (contract R2i) an instance is handed over at `in_valid && in_ready`
//! as always, and its tag, which later locks and producer tags use, is the `in_tag` of the
//! cycle it enters the table (`in_tag_valid`, in hand-over order). Nothing is drawn for the
//! option, so that runs without it see the same stream.
//!
//! The stimulus never produces an illegal input, so `allow_errors` has no effect.

use super::model::ones;
use super::{TaskCombinerInputs, TaskCombinerOutputs, TaskCombinerParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

mod conservation;
mod coverage;
pub use conservation::Conservation;
pub use coverage::{Coverage, CoverageCounts};

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
    /// D3t (with `dep_tags` only): (tag, shader type, state) of the accepted instances, most
    /// recent last, and the held instance's producer tags (`in_dep_vld`, `in_dep_tag`).
    keyed: VecDeque<(u64, u64, u64)>,
    held_deps: (u64, u64),
    /// R2i (with `registered_input` only): (shader type, state) of the instances handed over
    /// whose tag has not come yet (`in_tag_valid`), oldest first.
    handed: VecDeque<(u64, u64)>,
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
            keyed: VecDeque::new(),
            held_deps: (0, 0),
            handed: VecDeque::new(),
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
            self.handed.clear();
            self.drain = None;
            return;
        }
        if prev.in_valid && out.in_ready {
            self.held = None;
        }
        // The tag of the instance that entered the table: the one handed over in this cycle,
        // or with R2i the oldest one handed over before (its tag comes with in_tag_valid).
        let entered = if self.p.registered_input {
            let e = if out.in_tag_valid { self.handed.pop_front() } else { None };
            if prev.in_valid && out.in_ready {
                self.handed.push_back((prev.in_stype, prev.in_state));
            }
            e
        } else {
            (prev.in_valid && out.in_ready).then_some((prev.in_stype, prev.in_state))
        };
        if let Some((stype, state)) = entered {
            self.tags.push_back(out.in_tag);
            if self.tags.len() > 256 {
                self.tags.pop_front();
            }
            if self.p.dep_tags > 0 {
                self.keyed.push_back((out.in_tag, stype, state));
                if self.keyed.len() > 64 {
                    self.keyed.pop_front();
                }
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
            if let Some(h) = self.held.filter(|_| self.p.dep_tags > 0) {
                self.held_deps = self.draw_deps(&h);
            }
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
            (i.in_dep_vld, i.in_dep_tag) = self.held_deps;
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
        // P1: any counter index (past the last one too: 12 counters, 4 bits), rare clears.
        // Drawn only with perf_counters, so that runs without the key see the same stream.
        if self.p.perf_counters {
            i.perf_sel = self.rand_bits(self.p.perf_sel_w());
            i.perf_clr = self.rng.gen_ratio(1, 400);
        }
        if self.p.dep_tags > 0 {
            i.err_clr = self.rng.gen_ratio(1, 100);
        }
        i
    }

    /// D3t: producer tags for instance `h` (see the module documentation), packed as the
    /// ports `in_dep_vld` and `in_dep_tag` take them.
    fn draw_deps(&mut self, h: &Inst) -> (u64, u64) {
        let tw = self.p.tag_w();
        let legal: Vec<u64> = self
            .keyed
            .iter()
            .rev()
            .take(32)
            .filter(|(_, st, s)| *s == h.state && self.p.depends[h.stype as usize].contains(&(*st as usize)))
            .map(|(t, _, _)| *t)
            .collect();
        let (mut vld, mut tags) = (0u64, 0u64);
        for k in 0..self.p.dep_tags {
            if !self.rng.gen_bool(0.7) {
                continue;
            }
            let n = self.keyed.len();
            let pick = self.rng.gen_range(0..100);
            let tag = if !legal.is_empty() && pick < 50 {
                legal[self.rng.gen_range(0..legal.len().min(4))]
            } else if n > 0 && pick < 75 {
                self.keyed[n - 1 - self.rng.gen_range(0..n.min(16))].0
            } else if !self.tags.is_empty() && pick < 85 {
                self.tags[self.rng.gen_range(0..self.tags.len())]
            } else {
                self.rand_bits(tw)
            };
            vld |= 1 << k;
            tags |= tag << (k as u32 * tw);
        }
        (vld, tags)
    }
}

