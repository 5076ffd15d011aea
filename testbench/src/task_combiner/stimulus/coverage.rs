//! Functional coverage of a random run: bins for every output reason, locks, flushes,
//! back-pressure, eviction, drains and resets, and the check that each is hit (the
//! `Conservation` checker is fed alongside).

use super::*;
use crate::task_combiner::Mask;
use crate::task_combiner::Reason;

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
    /// Cycles with a free slot where a younger eligible task (PENDING, no producer) has more
    /// instances than an older one: where `issue_order` "fullest" and "oldest" differ.
    pub issue_order_differs: u64,
    /// R5h (`hold_producers` = B > 0), cycles with an OPEN producer whose PENDING consumers
    /// are all full (holding, read from the ports: count = the type's capacity): with at most
    /// B full PENDING tasks in the table and a FREE entry (held), more than B (released by the
    /// count), and with no FREE entry (released by the full table).
    pub held: u64,
    pub hold_count_release: u64,
    pub hold_table_release: u64,
    /// D3t (`dep_tags`), read from the ports: accepts naming a resident entry of the same
    /// state and a type `depends` lists (a dependency by tag), accepts naming a tag no
    /// resident entry has (stale, ignored), `err_dep` rising and falling (by `err_clr`).
    pub dep_named: u64,
    pub dep_stale: u64,
    pub err_dep_set: u64,
    pub err_dep_cleared: u64,
    /// R2i (`registered_input`), read from the ports (IR holds an instance from the cycle after
    /// it is handed over until the cycle it enters, `in_tag_valid`): cycles where IR holds an
    /// instance that does not enter (it waits on a full table: held more than one cycle);
    /// IR's instance entering while `drain_req`; two instances entering in consecutive cycles
    /// into one task that the first created (lane 0, then the same tag at lane 1: the second
    /// was handed over as the first created the entry); a victim chosen for IR's instance
    /// (IR waiting, no `drain_req`, nothing PENDING).
    pub ir_wait: u64,
    pub ir_enter_drain: u64,
    pub ir_forward: u64,
    pub ir_victim: u64,
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
    /// Per entry, the creation number of its task (from `st_valid` rising), and the next one.
    born: Vec<u64>,
    births: u64,
    /// R2i: the instance IR holds (as handed over at the port), from the ports.
    ir: Option<TaskCombinerInputs>,
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
            born: vec![0; params.entries],
            births: 0,
            ir: None,
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
            h.err_dep_set += u64::from(o.err_dep && !po.err_dep);
            h.err_dep_cleared += u64::from(!o.err_dep && po.err_dep && pi.err_clr);
        }
        // The instance the table takes in this cycle: the port's, or with R2i IR's.
        let ir = self.ir.take();
        let taken = match (self.p.registered_input, i.reset) {
            (_, true) => None,
            (true, false) => ir.as_ref().filter(|_| o.in_tag_valid),
            (false, false) => Some(i).filter(|_| i.in_valid && o.in_ready),
        };
        if let Some(i) = taken.filter(|_| self.p.dep_tags > 0) {
            let target = (o.in_tag & ones(self.p.ent_w())) as usize;
            for tag in i.dep_tags(&self.p) {
                let hit = (0..self.p.entries).find(|&j| o.st_valid >> j & 1 == 1 && o.st_tag[j] == tag);
                match hit {
                    None => h.dep_stale += 1,
                    Some(j) if j != target
                        && o.st_state[j] == i.in_state
                        && self.p.depends[i.in_stype as usize].contains(&(o.st_stype[j] as usize)) =>
                    {
                        h.dep_named += 1
                    }
                    Some(_) => {}
                }
            }
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
            // The table's instance waits on a full table: the port's refused without a drain,
            // or with R2i IR's not entering.
            let waits = if self.p.registered_input {
                let wait = ir.is_some() && !o.in_tag_valid;
                h.ir_wait += u64::from(wait);
                h.ir_enter_drain += u64::from(o.in_tag_valid && i.drain_req);
                h.ir_victim += u64::from(wait && !i.drain_req && o.st_pending == 0);
                if let Some((_, po)) = prev.as_ref().filter(|_| !prev_reset) {
                    let forward = o.in_tag_valid && po.in_tag_valid && po.in_lane == 0 && o.in_tag == po.in_tag;
                    h.ir_forward += u64::from(forward);
                }
                wait
            } else {
                i.in_valid && !o.in_ready
            };
            if waits && !i.drain_req {
                h.table_full += 1;
                if o.st_pending == 0 {
                    h.victims += 1;
                    h.victims_with_deps += u64::from(o.st_dep.iter().any(|&r| r != 0));
                }
            }
            h.dep_cycles += u64::from(o.st_dep.iter().any(|&r| r != 0));
            if self.p.hold_producers > 0 {
                let n = self.p.entries;
                let bit = |v: Mask, e: usize| v >> e & 1 == 1;
                let table_full = (0..n).all(|e| bit(o.st_valid, e));
                let full = |e: usize| {
                    self.p.capacity.get(o.st_stype[e] as usize).is_some_and(|&c| o.st_count[e] as usize == c)
                };
                let waiting = (0..n).filter(|&e| bit(o.st_pending, e) && full(e)).count();
                for j in (0..n).filter(|&j| bit(o.st_open, j)) {
                    let mut deps = (0..n).filter(|&e| bit(o.st_pending, e) && bit(o.st_dep[e], j)).peekable();
                    if deps.peek().is_none() || !deps.all(full) {
                        continue;
                    }
                    if table_full {
                        h.hold_table_release += 1;
                    } else if waiting > self.p.hold_producers {
                        h.hold_count_release += 1;
                    } else {
                        h.held += 1;
                    }
                }
            }
        }
        // Creation order from the ports: an entry whose valid bit rose holds a new task.
        let was = prev.as_ref().filter(|_| !prev_reset).map_or(0, |(_, po)| po.st_valid);
        for e in 0..self.born.len() {
            if o.st_valid >> e & 1 == 1 && was >> e & 1 == 0 {
                self.born[e] = self.births;
                self.births += 1;
            }
        }
        if !i.reset && (!o.out_valid || i.out_ready) {
            let elig: Vec<usize> =
                (0..self.born.len()).filter(|&e| o.st_pending >> e & 1 == 1 && o.st_dep[e] == 0).collect();
            let differs = elig.iter().any(|&a| {
                elig.iter().any(|&b| self.born[b] > self.born[a] && o.st_count[b] > o.st_count[a])
            });
            h.issue_order_differs += u64::from(differs);
        }
        // R2i: IR after the edge.
        self.ir = match ir {
            _ if i.reset => None,
            _ if i.in_valid && o.in_ready => Some(i.clone()),
            _ if o.in_tag_valid => None,
            held => held,
        };
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
            ("issue_order_differs", h.issue_order_differs, self.p.issue_fullest && self.p.entries >= 2),
            ("held", h.held, self.p.hold_producers > 0 && dep),
            ("hold_count_release", h.hold_count_release, self.p.hold_producers > 0 && dep),
            ("hold_table_release", h.hold_table_release, self.p.hold_producers > 0 && dep),
            ("dep_named", h.dep_named, self.p.dep_tags > 0 && dep),
            ("dep_stale", h.dep_stale, self.p.dep_tags > 0),
            ("err_dep_set", h.err_dep_set, self.p.dep_tags > 0),
            ("err_dep_cleared", h.err_dep_cleared, self.p.dep_tags > 0),
            ("ir_wait", h.ir_wait, self.p.registered_input && ev),
            ("ir_enter_drain", h.ir_enter_drain, self.p.registered_input),
            ("ir_forward", h.ir_forward, self.p.registered_input && self.p.capacity.iter().any(|&c| c >= 2)),
            ("ir_victim", h.ir_victim, self.p.registered_input && ev),
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
