//! The `Conservation` checker: conservation and the port-level assertions (spec A3–A8,
//! A10) checked cycle by cycle from the ports alone.

use super::*;
use crate::task_combiner::Reason;
use std::collections::{HashMap, HashSet, VecDeque};

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
///   accepted, and with `dep_tags` named by one of that instance's tags) has not;
/// * dependency rows name only valid entries of the same state and a `depends` type (A4);
/// * `rqf_done` only after an accepted flush, with its `rqf_done_tpipe`, and only when no
///   task that had the pipe's bit at acceptance is still resident or in the slot (A10);
/// * `drain_done` = `drain_req` with no resident task and no slot task (and with
///   `registered_input` no instance handed over that has not entered); `in_ready` = 0
///   while `drain_req`;
/// * with `registered_input` (R2i): an instance handed over (`in_valid && in_ready`) enters
///   later, in hand-over order, and its `in_tag` / `in_lane` are those of the cycle it enters
///   (`in_tag_valid`): each `in_tag_valid` is matched to the oldest instance handed over and
///   not entered (none: an error), which is then checked as an accepted instance above; an
///   instance never enters twice and is lost only by reset; `in_ready` = !`drain_req` && (no
///   instance waiting || `in_tag_valid`), and `in_tag_valid` is 0 without the option;
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
    /// R2i: the instances handed over that have not entered the table (IR), oldest first.
    handed: VecDeque<TaskCombinerInputs>,
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
            handed: VecDeque::new(),
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
        self.resident.values().map(|t| t.refs.len()).sum::<usize>() + self.handed.len()
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
        let p = &self.p;
        let prev = self.prev.take();
        self.prev = Some((i.clone(), o.clone()));
        let prev_reset = prev.as_ref().is_some_and(|(pi, _)| pi.reset);

        // After a reset cycle: a clean start.
        if prev_reset {
            self.resident.clear();
            self.slot = None;
            self.lock = None;
            self.flush = None;
            self.handed.clear();
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
        let empty = self.resident.is_empty() && !o.out_valid && self.handed.is_empty();
        if o.drain_done != (i.drain_req && empty) {
            return Err(format!(
                "drain_done {} with drain_req {}, {} resident tasks and {} instances handed over not entered",
                o.drain_done,
                i.drain_req,
                self.resident.len(),
                self.handed.len()
            ));
        }
        if i.drain_req && o.in_ready {
            return Err("in_ready while drain_req".into());
        }
        if !p.registered_input && o.in_tag_valid {
            return Err("in_tag_valid without registered_input".into());
        }
        if p.registered_input && !i.reset {
            if o.in_tag_valid && self.handed.is_empty() {
                return Err(format!("in_tag_valid (tag {:#x}) with no instance handed over to enter", o.in_tag));
            }
            let ready = !i.drain_req && (self.handed.is_empty() || o.in_tag_valid);
            if o.in_ready != ready {
                return Err(format!(
                    "R2i: in_ready {} with drain_req {}, {} instance(s) waiting, in_tag_valid {}",
                    o.in_ready as u8,
                    i.drain_req as u8,
                    self.handed.len(),
                    o.in_tag_valid as u8
                ));
            }
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

        // Accept: the port's instance, or with R2i the oldest one handed over when it
        // enters (the port's is handed over and enters later).
        if p.registered_input {
            if o.in_tag_valid {
                let inst = self.handed.pop_front().expect("checked above");
                self.enter(&inst, o)?;
            }
            if i.in_valid && o.in_ready {
                self.handed.push_back(i.clone());
            }
        } else if i.in_valid && o.in_ready {
            self.enter(i, o)?;
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

    /// An instance `inst` (its instance inputs) taken by the table in the cycle of outputs `o`,
    /// with `o.in_tag` / `o.in_lane`: into the task with that tag, or a new one.
    fn enter(&mut self, inst: &TaskCombinerInputs, o: &TaskCombinerOutputs) -> Result<(), String> {
        let p = &self.p;
        let i = inst;
        let (stype, state) = (i.in_stype, i.in_state & ones(p.state_width));
        let r = i.in_ref & ones(p.ref_width);
        let bit = 1u64 << i.in_tpipe;
        // With `dep_tags` (D3t) only the producers the instance names by tag.
        let named = |tag: u64| p.dep_tags == 0 || i.dep_tags(&p).any(|t| t == tag);
        let producers: Vec<u64> = self
            .resident
            .values()
            .filter(|y| {
                y.tag != o.in_tag && y.state == state && self.depends_on(stype, y.stype) && named(y.tag)
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
        Ok(())
    }
}
