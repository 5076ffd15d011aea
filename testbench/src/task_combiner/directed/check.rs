//! The machinery of the directed cases: expected outputs (`Exp`), checked by signal and
//! by key (spec §11.1 conventions), and `Run`, a case in progress cycle by cycle.

use super::*;
use crate::task_combiner::Mask;
use std::collections::HashMap;

/// Entry status expected in `st_open`/`st_pending`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum St {
    Open,
    Pending,
}
pub(super) use St::{Open, Pending};

type Key = (u64, u64);

/// One expected output value.
#[derive(Debug, Clone)]
pub(super) enum Exp {
    InReady(bool),
    /// `in_tag_valid` (R2i).
    InTagValid(bool),
    InLane(u64),
    /// `in_tag` equals the tag captured under this name.
    InTag(&'static str),
    InTagNot(&'static str),
    /// `in_tag` names the same entry index as the captured tag (low ENT_W bits).
    SameIndex(&'static str),
    /// Capture `in_tag` under this name (always passes).
    Cap(&'static str),
    LkHit(bool),
    RqfReady(bool),
    RqfDone(bool),
    RqfDoneTp(u64),
    DrainDone(bool),
    OutValid(bool),
    /// `out_valid` with (stype, state, count, reason, lockmask) and lane mask (1<<count)-1.
    Out(u64, u64, u64, Reason, u64),
    OutTag(&'static str),
    OutRefs(Vec<u64>),
    OutMask(u64),
    StValid(Mask),
    StOpen(Mask),
    StPending(Mask),
    /// Entry `e` is valid with (stype, state, count, lockmask) and status.
    Ent(usize, u64, u64, u64, u64, St),
    /// The one valid entry with this key and status has (count, lockmask).
    Key(Key, u64, u64, St),
    EntryTag(usize, &'static str),
    KeyTag(Key, &'static str),
    /// The dependency rows of all valid entries, by key: each listed key depends on
    /// exactly the listed keys, every other row is 0.
    Deps(Vec<(Key, Vec<Key>)>),
    DepNone,
    Perf(u64, u64),
    /// `err_dep` (D3t).
    ErrDep(bool),
}
pub(super) use Exp::*;

fn bit(b: bool) -> String {
    u8::from(b).to_string()
}

/// Index of the only valid entry with `key` (and `st`, if given).
fn find(o: &TaskCombinerOutputs, key: Key, st: Option<St>) -> Result<usize, String> {
    let hits: Vec<usize> = (0..o.st_count.len())
        .filter(|&e| o.st_valid >> e & 1 == 1 && (o.st_stype[e], o.st_state[e]) == key)
        .filter(|&e| match st {
            Some(Open) => o.st_open >> e & 1 == 1,
            Some(Pending) => o.st_pending >> e & 1 == 1,
            None => true,
        })
        .collect();
    match hits[..] {
        [e] => Ok(e),
        [] => Err(format!(
            "no {st:?} entry with key (stype {}, state {})",
            key.0, key.1
        )),
        _ => Err(format!(
            "{} entries with key (stype {}, state {})",
            hits.len(),
            key.0,
            key.1
        )),
    }
}

fn entry_status(o: &TaskCombinerOutputs, e: usize) -> Option<St> {
    if o.st_open >> e & 1 == 1 {
        Some(Open)
    } else if o.st_pending >> e & 1 == 1 {
        Some(Pending)
    } else {
        None
    }
}

impl Exp {
    /// `None` if the output matches, else "signal expected X, actual Y".
    fn mismatch(
        &self,
        o: &TaskCombinerOutputs,
        tags: &mut HashMap<&'static str, u64>,
        ent_w: u32,
    ) -> Option<String> {
        let tag = |t: &HashMap<&'static str, u64>, n: &str| {
            *t.get(n).unwrap_or_else(|| panic!("tag {n} not captured"))
        };
        let cmp = |sig: String, e: String, a: String| {
            (e != a).then(|| format!("{sig} expected {e}, actual {a}"))
        };
        match self {
            InReady(e) => cmp("in_ready".into(), bit(*e), bit(o.in_ready)),
            InTagValid(e) => cmp("in_tag_valid".into(), bit(*e), bit(o.in_tag_valid)),
            InLane(e) => cmp("in_lane".into(), e.to_string(), o.in_lane.to_string()),
            InTag(n) => (o.in_tag != tag(tags, n))
                .then(|| format!("in_tag expected {n}, actual another tag")),
            InTagNot(n) => (o.in_tag == tag(tags, n))
                .then(|| format!("in_tag expected other than {n}, actual {n}")),
            SameIndex(n) => {
                let m = ones(ent_w);
                (o.in_tag & m != tag(tags, n) & m)
                    .then(|| format!("in_tag expected the entry of {n}, actual another entry"))
            }
            Cap(n) => {
                tags.insert(n, o.in_tag);
                None
            }
            LkHit(e) => cmp("lk_hit".into(), bit(*e), bit(o.lk_hit)),
            ErrDep(e) => cmp("err_dep".into(), bit(*e), bit(o.err_dep)),
            RqfReady(e) => cmp("rqf_ready".into(), bit(*e), bit(o.rqf_ready)),
            RqfDone(e) => cmp("rqf_done".into(), bit(*e), bit(o.rqf_done)),
            RqfDoneTp(e) => cmp(
                "rqf_done_tpipe".into(),
                e.to_string(),
                o.rqf_done_tpipe.to_string(),
            ),
            DrainDone(e) => cmp("drain_done".into(), bit(*e), bit(o.drain_done)),
            OutValid(e) => cmp("out_valid".into(), bit(*e), bit(o.out_valid)),
            Out(s, st, n, r, lk) => {
                let e = format!(
                    "1 stype {s} state {st} count {n} {r:?} lock {lk:04b} mask {:#x}",
                    ones(*n as u32)
                );
                let reason = Reason::from_code(o.out_reason)
                    .map_or(format!("reason {}", o.out_reason), |r| format!("{r:?}"));
                let a = format!(
                    "{} stype {} state {} count {} {reason} lock {:04b} mask {:#x}",
                    bit(o.out_valid),
                    o.out_stype,
                    o.out_state,
                    o.out_count,
                    o.out_lockmask,
                    o.out_lane_mask
                );
                cmp("out task".into(), e, a)
            }
            OutTag(n) => (!o.out_valid || o.out_tag != tag(tags, n))
                .then(|| format!("out_tag expected {n}, actual another tag")),
            OutRefs(e) => {
                let n = (o.out_count as usize).min(o.out_refs.len());
                cmp(
                    "out_refs".into(),
                    format!("{e:?}"),
                    format!("{:?}", &o.out_refs[..n]),
                )
            }
            OutMask(e) => cmp(
                "out_lane_mask".into(),
                format!("{e:#x}"),
                format!("{:#x}", o.out_lane_mask),
            ),
            StValid(e) => cmp(
                "st_valid".into(),
                format!("{e:#b}"),
                format!("{:#b}", o.st_valid),
            ),
            StOpen(e) => cmp(
                "st_open".into(),
                format!("{e:#b}"),
                format!("{:#b}", o.st_open),
            ),
            StPending(e) => cmp(
                "st_pending".into(),
                format!("{e:#b}"),
                format!("{:#b}", o.st_pending),
            ),
            Ent(k, s, st, n, lk, status) => {
                let e = format!("valid stype {s} state {st} count {n} lock {lk:04b} {status:?}");
                let status =
                    entry_status(o, *k).map_or("neither".to_string(), |s| format!("{s:?}"));
                let a = format!(
                    "{} stype {} state {} count {} lock {:04b} {status}",
                    if o.st_valid >> k & 1 == 1 {
                        "valid"
                    } else {
                        "free"
                    },
                    o.st_stype[*k],
                    o.st_state[*k],
                    o.st_count[*k],
                    o.st_lockmask[*k],
                );
                cmp(format!("entry {k}"), e, a)
            }
            Key(key, n, lk, status) => match find(o, *key, Some(*status)) {
                Err(e) => Some(e),
                Ok(k) => cmp(
                    format!("entry with key {key:?}"),
                    format!("count {n} lock {lk:04b}"),
                    format!("count {} lock {:04b}", o.st_count[k], o.st_lockmask[k]),
                ),
            },
            EntryTag(k, n) => (o.st_tag[*k] != tag(tags, n))
                .then(|| format!("st_tag[{k}] expected {n}, actual another tag")),
            KeyTag(key, n) => match find(o, *key, None) {
                Err(e) => Some(e),
                Ok(k) => (o.st_tag[k] != tag(tags, n))
                    .then(|| format!("st_tag of {key:?} expected {n}, actual another tag")),
            },
            Deps(rows) => {
                let mut want: Vec<Mask> = vec![0; o.st_dep.len()];
                for (key, deps) in rows {
                    let i = match find(o, *key, None) {
                        Ok(i) => i,
                        Err(e) => return Some(e),
                    };
                    for d in deps {
                        match find(o, *d, None) {
                            Ok(j) => want[i] |= 1 << j,
                            Err(e) => return Some(e),
                        }
                    }
                }
                let got: Vec<Mask> = (0..o.st_dep.len())
                    .map(|i| {
                        if o.st_valid >> i & 1 == 1 {
                            o.st_dep[i]
                        } else {
                            0
                        }
                    })
                    .collect();
                cmp("st_dep".into(), format!("{want:?}"), format!("{got:?}"))
            }
            DepNone => {
                let got: Vec<Mask> = (0..o.st_dep.len())
                    .map(|i| {
                        if o.st_valid >> i & 1 == 1 {
                            o.st_dep[i]
                        } else {
                            0
                        }
                    })
                    .collect();
                got.iter()
                    .any(|&r| r != 0)
                    .then(|| format!("st_dep expected all 0, actual {got:?}"))
            }
            Perf(t, l) => cmp(
                "perf_tasks/lanes".into(),
                format!("{t}/{l}"),
                format!("{}/{}", o.perf_tasks, o.perf_lanes),
            ),
        }
    }
}

/// A case in progress: the DUT, the cycle counter and the captured tags.
pub(super) struct Run<'a> {
    pub(super) case: &'static str,
    pub(super) dut: &'a mut dyn Dut<TaskCombiner>,
    pub(super) p: TaskCombinerParams,
    pub(super) cycle: u32,
    tags: HashMap<&'static str, u64>,
}

impl<'a> Run<'a> {
    /// Start a case: one reset cycle, then the next cycle is c0.
    pub(super) fn new(case: &'static str, dut: &'a mut dyn Dut<TaskCombiner>) -> Self {
        let p = dut.params().clone();
        dut.eval(&TaskCombinerInputs::idle(&p).with_reset());
        dut.tick();
        Run {
            case,
            dut,
            p,
            cycle: 0,
            tags: HashMap::new(),
        }
    }

    /// No request, `out_ready` = 1.
    pub(super) fn idle(&self) -> TaskCombinerInputs {
        TaskCombinerInputs::idle(&self.p).ready(true)
    }

    /// I(stype, state, ref, tp) with `out_ready` = 1.
    pub(super) fn i(&self, stype: u64, state: u64, r: u64, tp: u64) -> TaskCombinerInputs {
        self.idle().inst(stype, state, r, tp)
    }

    pub(super) fn tag(&self, name: &str) -> u64 {
        self.tags[name]
    }

    /// One cycle: eval, check `exp`, tick. Returns the outputs.
    pub(super) fn step(
        &mut self,
        inp: TaskCombinerInputs,
        exp: &[Exp],
    ) -> Result<TaskCombinerOutputs, String> {
        let out = self.dut.eval(&inp);
        let ent_w = self.p.ent_w();
        let bad: Vec<String> = exp
            .iter()
            .filter_map(|e| e.mismatch(&out, &mut self.tags, ent_w))
            .collect();
        if !bad.is_empty() {
            return Err(format!("{} c{}: {}", self.case, self.cycle, bad.join("; ")));
        }
        self.dut.tick();
        self.cycle += 1;
        Ok(out)
    }

    /// Steps with the same inputs and checks for `n` cycles.
    pub(super) fn repeat(&mut self, n: usize, inp: TaskCombinerInputs, exp: &[Exp]) -> Result<(), String> {
        for _ in 0..n {
            self.step(inp.clone(), exp)?;
        }
        Ok(())
    }
}

/// The outputs after reset (T01), apart from the combinational `in_ready`/`drain_done`.
pub(super) fn reset_state() -> Vec<Exp> {
    vec![
        StValid(0),
        StOpen(0),
        StPending(0),
        OutValid(false),
        RqfReady(true),
        RqfDone(false),
        LkHit(false),
        Perf(0, 0),
        DepNone,
    ]
}
