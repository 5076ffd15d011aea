//! Directed test cases of spec §11.2 (T01–T28) under contract §6, the system scenarios
//! S1/S2 of §11.4 (Fig. 6 render queue, Fig. 7's task of 6 of 8 lanes, cross-tile
//! sharing), and cases for rules that only the contract states (X01–X08).
//!
//! Conventions (spec §11.1, §10.5): every case starts with one reset cycle (eval + tick
//! with `reset=1`); the next cycle is c0. "I(stype, state, ref, tp) in cycle k" drives
//! `in_valid` in cycle k; combinational outputs (`in_ready`, `in_tag`, `in_lane`,
//! `drain_done`) are checked in cycle k, everything else is registered and shows the
//! effect of cycle k's inputs in cycle k+1. `out_ready` = 1 unless a case says otherwise.
//! States A=1, B=2, C=3, D=4; types VS=0, HS=1, DS=2, GS=3. Tags are compared
//! symbolically ("Tv" = the `in_tag` captured when an instance was accepted), never as
//! numbers; the spec's entry-by-key tables are checked by key. Where the contract fixes an
//! entry index (lowest FREE entry) and the spec names it (T02, T13, T15–T19), the index is
//! checked too. Expected values are written by hand from the spec and the contract; none
//! is computed by a model.
//!
//! Dependencies are those the contract's `depends` matrix implies (D3), not the spec's
//! per-instance tags: T05 and T11 (whose spec text says "no dependencies") therefore also
//! check the implied HS→VS / DS→HS / GS→VS rows, which leave their expected outputs as
//! the spec gives them. T24 is replaced as contract §6 says (T24x). T22 is its Baseline.
//! T11 runs with sort_state on and off; T15–T18 with the policy each names.

use super::TaskCombiner;
use super::model::{ones, Policy};
use super::{Reason, Dut, TaskCombinerInputs, TaskCombinerOutputs, TaskCombinerParams};
use std::collections::HashMap;

pub const VS: u64 = 0;
pub const HS: u64 = 1;
pub const DS: u64 = 2;
pub const GS: u64 = 3;
pub const A: u64 = 1;
pub const B: u64 = 2;
pub const C: u64 = 3;
pub const D: u64 = 4;

use Reason::{Dep as DEP, Drain as DRAIN, Evict as EVICT, Full as FULL, Rqflush as RQF};

/// The parameter set a case runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsKind {
    /// C0 of spec §11.1 / contract §6.
    C0,
    /// C0 with sort_state off (T11).
    C0NoSort,
    /// C0 with capacity [8, 4, 8, 8] (T21).
    C0CapHs4,
    /// C0 with capacity [1, 1, 1, 1] (T28).
    C0Cap1,
    /// C1 (4 entries), policy fullest.
    C1,
    C1Oldest,
    C1NodepFullest,
    C1NodepOldest,
    /// The smallest config: 1 entry, width 4, 2 tile pipes, 2 shader types, 1-bit
    /// states and refs, 1 generation bit.
    Tiny,
    /// The largest: 64 entries, width 64, 8 tile pipes, 8 shader types, 16-bit states,
    /// 32-bit refs, 8 generation bits.
    Wide,
}

impl ParamsKind {
    pub fn params(self) -> TaskCombinerParams {
        let c0 = TaskCombinerParams::spec_c0();
        let c1 = TaskCombinerParams::spec_c1();
        match self {
            ParamsKind::C0 => c0,
            ParamsKind::C0NoSort => TaskCombinerParams {
                sort_state: false,
                ..c0
            },
            ParamsKind::C0CapHs4 => TaskCombinerParams {
                capacity: vec![8, 4, 8, 8],
                ..c0
            },
            ParamsKind::C0Cap1 => TaskCombinerParams {
                capacity: vec![1; 4],
                ..c0
            },
            ParamsKind::C1 => c1,
            ParamsKind::C1Oldest => c1.with_policy(Policy::Oldest),
            ParamsKind::C1NodepFullest => c1.with_policy(Policy::NodepFullest),
            ParamsKind::C1NodepOldest => c1.with_policy(Policy::NodepOldest),
            ParamsKind::Tiny => TaskCombinerParams {
                entries: 1,
                width: 4,
                tile_pipes: 2,
                shader_types: 2,
                state_width: 1,
                ref_width: 1,
                tag_gen_width: 1,
                policy: Policy::Fullest,
                sort_state: true,
                capacity: vec![4, 4],
                depends: TaskCombinerParams::default_depends(2),
            },
            ParamsKind::Wide => TaskCombinerParams {
                entries: 64,
                width: 64,
                tile_pipes: 8,
                shader_types: 8,
                state_width: 16,
                ref_width: 32,
                tag_gen_width: 8,
                policy: Policy::Fullest,
                sort_state: true,
                capacity: vec![64; 8],
                depends: TaskCombinerParams::default_depends(8),
            },
        }
    }
}

pub type CaseFn = fn(&mut dyn Dut<TaskCombiner>) -> Result<(), String>;

/// Every directed case with the parameter set it needs. "Tnn/x" reruns Tnn on another
/// configuration.
pub fn all_cases() -> Vec<(&'static str, ParamsKind, CaseFn)> {
    use ParamsKind::*;
    vec![
        ("T01", C0, t01_reset as CaseFn),
        ("T02", C0, t02_first_instance),
        ("T03", C0, t03_fill),
        ("T03/w4", Tiny, t03_fill),
        ("T03/w64", Wide, t03_fill),
        ("T03b", C0, t03b_closed_task),
        ("T04", C0, t04_two_open_tasks),
        ("T05", C0, t05_stype_in_key),
        ("T06", C0, t06_cross_tile),
        ("T07", C0, t07_fig6),
        ("T08", C0, t08_chain_forced_out),
        ("T09", C0, t09_producer_leaves_first),
        ("T10", C0, t10_flush_locked),
        ("T11", C0, t11_sort_on),
        ("T11/nosort", C0NoSort, t11_sort_off),
        ("T12", C0, t12_lock_scheduled),
        ("T13", C0, t13_stale_lock),
        ("T14", C0, t14_lock_slot_backpressure),
        ("T15", C1, t15_evict_fullest),
        ("T16", C1Oldest, t16_evict_oldest),
        ("T17", C1NodepFullest, t17_evict_nodep_fullest),
        ("T18/oldest", C1Oldest, t18_oldest),
        ("T18/nodep_oldest", C1NodepOldest, t18_nodep_oldest),
        ("T19", C1, t19_no_double_victim),
        ("T20", C0, t20_backpressure),
        ("T21", C0CapHs4, t21_capacity_per_type),
        ("T22", C0, t22_baseline),
        ("T23", C0, t23_issued_producer),
        ("T24x", C0, t24x_implied_deps),
        ("T25", C0, t25_same_cycle_flush),
        ("T26", C0, t26_empty_flush),
        ("T27", C0, t27_drain),
        ("T28", C0Cap1, t28_capacity_one),
        ("S1", C0, s1_fig7),
        ("S2", C0, s2_cross_tile_flush),
        ("X01", C0, x01_lock_at_move_and_leave),
        ("X02", C1, x02_ready_without_valid),
        ("X03", C1, x03_fullest_tie),
        ("X04", C0, x04_reason_priority),
        ("X04/c1", C1, x04_evict_over_rqflush),
        ("X05", C0, x05_flush_back_to_back),
        ("X06", Tiny, x06_one_entry_gen_wrap),
        ("X07", Wide, x07_wide_table),
        ("X08", C0, x08_pending_producer),
    ]
}

/// Run every case on a fresh DUT from `make`; all failures, one per line.
pub fn run_all(
    make: &mut dyn FnMut(&TaskCombinerParams) -> Box<dyn Dut<TaskCombiner>>,
) -> Result<(), String> {
    let cases = all_cases()
        .into_iter()
        .map(|(name, kind, case)| (name, (kind, case)));
    crate::kit::run_cases(cases, |(kind, case)| case(make(&kind.params()).as_mut()))
}

/// Entry status expected in `st_open`/`st_pending`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum St {
    Open,
    Pending,
}
use St::{Open, Pending};

type Key = (u64, u64);

/// One expected output value.
#[derive(Debug, Clone)]
enum Exp {
    InReady(bool),
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
    StValid(u64),
    StOpen(u64),
    StPending(u64),
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
}
use Exp::*;

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
                let mut want = vec![0u64; o.st_dep.len()];
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
                let got: Vec<u64> = (0..o.st_dep.len())
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
                let got: Vec<u64> = (0..o.st_dep.len())
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
struct Run<'a> {
    case: &'static str,
    dut: &'a mut dyn Dut<TaskCombiner>,
    p: TaskCombinerParams,
    cycle: u32,
    tags: HashMap<&'static str, u64>,
}

impl<'a> Run<'a> {
    /// Start a case: one reset cycle, then the next cycle is c0.
    fn new(case: &'static str, dut: &'a mut dyn Dut<TaskCombiner>) -> Self {
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
    fn idle(&self) -> TaskCombinerInputs {
        TaskCombinerInputs::idle(&self.p).ready(true)
    }

    /// I(stype, state, ref, tp) with `out_ready` = 1.
    fn i(&self, stype: u64, state: u64, r: u64, tp: u64) -> TaskCombinerInputs {
        self.idle().inst(stype, state, r, tp)
    }

    fn tag(&self, name: &str) -> u64 {
        self.tags[name]
    }

    /// One cycle: eval, check `exp`, tick. Returns the outputs.
    fn step(
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
    fn repeat(&mut self, n: usize, inp: TaskCombinerInputs, exp: &[Exp]) -> Result<(), String> {
        for _ in 0..n {
            self.step(inp.clone(), exp)?;
        }
        Ok(())
    }
}

/// The outputs after reset (T01), apart from the combinational `in_ready`/`drain_done`.
fn reset_state() -> Vec<Exp> {
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

/// T01 Reset. The block is made dirty first (a task handed out, an open entry, a task in
/// the slot under back-pressure, a flush in progress, a lock pending), then reset is held
/// for three cycles with activity on every other input, then released.
pub fn t01_reset(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T01", dut);
    // c0: the state after the case's reset cycle.
    r.step(
        r.idle(),
        &[&reset_state()[..], &[InReady(true), DrainDone(false)]].concat(),
    )?;
    r.step(r.i(VS, A, 100, 0), &[InReady(true), InLane(0), Cap("T0")])?; // c1
    for k in 1..8 {
        r.step(r.i(VS, A, 100 + k, 0), &[InLane(k)])?; // c2..c8
    }
    r.step(
        r.i(VS, B, 200, 1),
        &[InReady(true), InLane(0), Cap("TB"), StPending(0b1)],
    )?; // c9
    let tb = r.tag("TB");
    r.step(
        r.idle().lk(tb, 2),
        &[Out(VS, A, 8, FULL, 0b0001), StValid(0b10)],
    )?; // c10
    let stall = r.idle().ready(false);
    r.step(
        stall.clone().rqf(2),
        &[
            LkHit(true),
            Perf(1, 8),
            OutValid(false),
            Key((VS, B), 1, 0b0110, Open),
        ],
    )?; // c11
    r.step(stall.clone(), &[RqfReady(false), StPending(0b10)])?; // c12
    r.step(
        stall.clone().inst(HS, A, 300, 3),
        &[Out(VS, B, 1, RQF, 0b0110), InReady(true), StValid(0)],
    )?; // c13
    let busy = stall
        .clone()
        .inst(GS, B, 400, 1)
        .lk(tb, 3)
        .rqf(0)
        .with_reset();
    // c14: first reset cycle: the old state is still visible.
    r.step(
        busy.clone(),
        &[
            OutValid(true),
            RqfReady(false),
            StValid(0b1),
            Perf(1, 8),
            InReady(true),
        ],
    )?;
    let after = [&reset_state()[..], &[InReady(true)]].concat();
    r.step(busy.clone(), &after)?; // c15
    r.step(
        busy.drain(),
        &[&reset_state()[..], &[InReady(false), DrainDone(true)]].concat(),
    )?; // c16

    // c17: released.
    r.step(r.idle(), &[&after[..], &[DrainDone(false)]].concat())?;
    // c18: generations restart: the first task after reset has the first task's tag.
    r.step(
        r.i(VS, A, 100, 0),
        &[&after[..], &[InLane(0), InTag("T0")]].concat(),
    )?; // c18
    r.step(
        r.idle(),
        &[
            StValid(0b1),
            Ent(0, VS, A, 1, 0b0001, Open),
            OutValid(false),
            Perf(0, 0),
        ],
    )?; // c19
    Ok(())
}

/// T02 First instance opens a task; no output for 20 cycles (no timeout).
pub fn t02_first_instance(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T02", dut);
    r.step(r.i(VS, A, 100, 0), &[InReady(true), InLane(0), Cap("T")])?;
    r.step(
        r.idle(),
        &[
            StValid(0b1),
            Ent(0, VS, A, 1, 0b0001, Open),
            EntryTag(0, "T"),
            OutValid(false),
        ],
    )?;
    r.repeat(
        20,
        r.idle(),
        &[
            OutValid(false),
            StOpen(0b1),
            StPending(0),
            Ent(0, VS, A, 1, 0b0001, Open),
        ],
    )
}

/// T03 A task fills at its capacity (= width here) and is output in n+2 with reason FULL;
/// the entry is FREE from the output cycle on.
pub fn t03_fill(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T03", dut);
    let w = r.p.width as u64;
    // References 100, 101, … cut to REF_W bits (the Tiny config has 1-bit references).
    let refs: Vec<u64> = (0..w).map(|k| (100 + k) & ones(r.p.ref_width)).collect();
    for k in 0..w {
        let tag = if k == 0 { Cap("T") } else { InTag("T") };
        r.step(
            r.i(VS, A, refs[k as usize], 0),
            &[InReady(true), InLane(k), tag, OutValid(false)],
        )?;
    }
    r.step(r.idle(), &[StPending(0b1), StOpen(0), OutValid(false)])?; // c_w
    let mask = if w == 64 { u64::MAX } else { (1 << w) - 1 };
    r.step(
        r.idle(),
        &[
            Out(VS, A, w, FULL, 0b0001),
            OutMask(mask),
            OutTag("T"),
            OutRefs(refs),
            StValid(0),
            Perf(0, 0),
        ],
    )?;
    r.step(r.idle(), &[OutValid(false), Perf(1, w)])?;
    Ok(())
}

/// T03b An instance for the key of a full (PENDING) task opens a new entry.
pub fn t03b_closed_task(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T03b", dut);
    for k in 0..8 {
        let tag = if k == 0 { Cap("T") } else { InTag("T") };
        r.step(r.i(VS, A, 100 + k, 0), &[InLane(k), tag])?;
    }
    r.step(
        r.i(VS, A, 108, 0),
        &[
            InReady(true),
            InLane(0),
            InTagNot("T"),
            Cap("T2"),
            StPending(0b1),
        ],
    )?; // c8
    r.step(
        r.idle(),
        &[
            Out(VS, A, 8, FULL, 0b0001),
            OutMask(0xFF),
            OutTag("T"),
            StValid(0b10),
            Ent(1, VS, A, 1, 0b0001, Open),
            EntryTag(1, "T2"),
        ],
    )?; // c9
    r.step(r.idle(), &[OutValid(false), StValid(0b10), Perf(1, 8)])?;
    Ok(())
}

/// T04 Two keys interleaved: two open tasks, no flush on a state change, both leave full.
/// (The naive model's 16 one-lane tasks for this stream are checked in the unit tests.)
pub fn t04_two_open_tasks(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T04", dut);
    for k in 0..16 {
        let state = if k % 2 == 0 { A } else { B };
        let resident = if k == 0 {
            StValid(0)
        } else if k == 1 {
            StValid(0b1)
        } else {
            StValid(0b11)
        };
        r.step(
            r.i(VS, state, 100 + k, 0),
            &[InReady(true), InLane(k / 2), OutValid(false), resident],
        )?;
    }
    r.step(
        r.idle(),
        &[
            Out(VS, A, 8, FULL, 0b0001),
            OutRefs((0..8).map(|k| 100 + 2 * k).collect()),
            StValid(0b10),
        ],
    )?; // c16
    r.step(
        r.idle(),
        &[
            Out(VS, B, 8, FULL, 0b0001),
            OutRefs((0..8).map(|k| 101 + 2 * k).collect()),
            Perf(1, 8),
        ],
    )?; // c17
    r.step(r.idle(), &[OutValid(false), StValid(0), Perf(2, 16)])?; // c18: 16 lanes / (2 × 8) = 1.0
    Ok(())
}

/// T05 The shader type is part of the key: three entries for VS/C, HS/C, DS/C (with the
/// dependencies `depends` implies: HS→VS, DS→HS).
pub fn t05_stype_in_key(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T05", dut);
    r.step(r.i(VS, C, 1, 0), &[InReady(true)])?;
    r.step(r.i(HS, C, 2, 0), &[InReady(true), InLane(0)])?;
    r.step(r.i(DS, C, 3, 0), &[InReady(true), InLane(0)])?;
    r.step(
        r.idle(),
        &[
            StValid(0b111),
            StOpen(0b111),
            Key((VS, C), 1, 0b0001, Open),
            Key((HS, C), 1, 0b0001, Open),
            Key((DS, C), 1, 0b0001, Open),
            Deps(vec![((HS, C), vec![(VS, C)]), ((DS, C), vec![(HS, C)])]),
        ],
    )?;
    Ok(())
}

/// T06 Cross-tile combining (Fig. 6 entry 0): one entry, count 3, lockmask 0101.
pub fn t06_cross_tile(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T06", dut);
    r.step(r.i(VS, A, 1, 0), &[Cap("T")])?;
    r.step(r.i(VS, A, 2, 2), &[InTag("T"), InLane(1)])?;
    r.step(r.i(VS, A, 3, 0), &[InTag("T"), InLane(2)])?;
    r.step(r.idle(), &[StValid(0b1), Key((VS, A), 3, 0b0101, Open)])?;
    Ok(())
}

/// T07 Fig. 6 reconstructed top-down: table 610 by key and matrix 612 (DS/C → HS/C →
/// VS/C, nothing else).
pub fn t07_fig6(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T07", dut);
    r.step(r.i(VS, A, 10, 0), &[InReady(true)])?; // c0
    r.step(r.i(VS, A, 11, 2), &[InLane(1)])?;
    r.step(r.i(VS, A, 12, 2), &[InLane(2)])?;
    r.step(r.i(VS, B, 20, 2), &[InLane(0)])?; // c3
    r.step(r.i(VS, C, 5020, 2), &[InLane(0), Cap("Tv")])?; // c4: 502_0
    r.step(r.i(VS, C, 5021, 2), &[InLane(1), InTag("Tv")])?; // c5: 502_1
    r.step(r.i(HS, C, 506, 2), &[InLane(0), Cap("Th")])?; // c6: 506a
    r.step(r.i(DS, C, 5100, 2), &[InLane(0), Cap("Td")])?; // c7: 510a0
    r.step(
        r.idle(),
        &[
            StValid(0b11111),
            StOpen(0b11111),
            Key((VS, A), 3, 0b0101, Open),
            Key((VS, B), 1, 0b0100, Open),
            Key((VS, C), 2, 0b0100, Open),
            Key((HS, C), 1, 0b0100, Open),
            Key((DS, C), 1, 0b0100, Open),
            KeyTag((VS, C), "Tv"),
            KeyTag((HS, C), "Th"),
            KeyTag((DS, C), "Td"),
            Deps(vec![((DS, C), vec![(HS, C)]), ((HS, C), vec![(VS, C)])]),
            OutValid(false),
        ],
    )?;
    Ok(())
}

/// T08 A full consumer forces its producer chain out, one level per cycle, producers first.
pub fn t08_chain_forced_out(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T08", dut);
    r.step(r.i(VS, C, 1, 0), &[Cap("Tv")])?; // c0
    r.step(r.i(HS, C, 2, 0), &[Cap("Th")])?; // c1
    for k in 0..8 {
        r.step(r.i(DS, C, 10 + k, 0), &[InLane(k), OutValid(false)])?; // c2..c9
    }
    let deps = Deps(vec![((DS, C), vec![(HS, C)]), ((HS, C), vec![(VS, C)])]);
    r.step(
        r.idle(),
        &[
            Key((DS, C), 8, 1, Pending),
            Key((HS, C), 1, 1, Open),
            Key((VS, C), 1, 1, Open),
            deps.clone(),
            OutValid(false),
        ],
    )?; // c10
    r.step(
        r.idle(),
        &[
            Key((DS, C), 8, 1, Pending),
            Key((HS, C), 1, 1, Pending),
            Key((VS, C), 1, 1, Open),
            deps.clone(),
            OutValid(false),
        ],
    )?; // c11
    r.step(r.idle(), &[StPending(0b111), deps, OutValid(false)])?; // c12
    r.step(
        r.idle(),
        &[
            Out(VS, C, 1, DEP, 1),
            OutTag("Tv"),
            OutRefs(vec![1]),
            Deps(vec![((DS, C), vec![(HS, C)])]),
        ],
    )?; // c13
    r.step(
        r.idle(),
        &[
            Out(HS, C, 1, DEP, 1),
            OutTag("Th"),
            OutRefs(vec![2]),
            DepNone,
        ],
    )?; // c14
    r.step(
        r.idle(),
        &[
            Out(DS, C, 8, FULL, 1),
            OutRefs((10..18).collect()),
            StValid(0),
        ],
    )?; // c15
    r.step(
        r.idle(),
        &[OutValid(false), StValid(0), DepNone, Perf(3, 10)],
    )?; // c16
    Ok(())
}

/// T09 A producer that fills leaves alone; its consumer stays OPEN with its row cleared.
pub fn t09_producer_leaves_first(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T09", dut);
    for k in 0..3 {
        r.step(r.i(VS, C, k, 0), &[InLane(k)])?; // c0..c2
    }
    r.step(r.i(HS, C, 50, 0), &[InLane(0)])?; // c3
    for k in 3..8 {
        r.step(r.i(VS, C, k, 0), &[InLane(k)])?; // c4..c8
    }
    r.step(
        r.idle(),
        &[
            Key((VS, C), 8, 1, Pending),
            Key((HS, C), 1, 1, Open),
            Deps(vec![((HS, C), vec![(VS, C)])]),
            OutValid(false),
        ],
    )?; // c9
    r.step(
        r.idle(),
        &[
            Out(VS, C, 8, FULL, 1),
            StValid(0b10),
            Key((HS, C), 1, 1, Open),
            DepNone,
        ],
    )?; // c10
    r.repeat(
        10,
        r.idle(),
        &[
            OutValid(false),
            StValid(0b10),
            Key((HS, C), 1, 1, Open),
            DepNone,
        ],
    ) // c11..c20
}

/// T10 A render-queue flush outputs exactly the tasks locked for its pipe, producers
/// first, then `rqf_done`.
pub fn t10_flush_locked(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T10", dut);
    r.step(r.i(VS, A, 1, 0), &[])?; // c0 E_A
    r.step(r.i(VS, A, 2, 2), &[])?; // c1 E_A
    r.step(r.i(VS, B, 3, 1), &[])?; // c2 E_B
    r.step(r.i(VS, C, 4, 2), &[Cap("Tc")])?; // c3 E_C
    r.step(r.i(HS, C, 5, 2), &[])?; // c4 E_H
    r.step(
        r.idle().rqf(2),
        &[RqfReady(true), Deps(vec![((HS, C), vec![(VS, C)])])],
    )?; // c5 = n
    r.step(
        r.idle(),
        &[
            RqfReady(false),
            Key((VS, A), 2, 0b0101, Pending),
            Key((VS, C), 1, 0b0100, Pending),
            Key((HS, C), 1, 0b0100, Pending),
            Key((VS, B), 1, 0b0010, Open),
        ],
    )?; // n+1
    r.step(
        r.idle(),
        &[
            Out(VS, A, 2, RQF, 0b0101),
            OutRefs(vec![1, 2]),
            RqfReady(false),
            RqfDone(false),
        ],
    )?; // n+2
    r.step(
        r.idle(),
        &[
            Out(VS, C, 1, RQF, 0b0100),
            OutTag("Tc"),
            RqfReady(false),
            RqfDone(false),
        ],
    )?; // n+3
    r.step(
        r.idle(),
        &[Out(HS, C, 1, RQF, 0b0100), RqfReady(false), RqfDone(false)],
    )?; // n+4
    r.step(
        r.idle(),
        &[
            RqfDone(true),
            RqfDoneTp(2),
            RqfReady(true),
            OutValid(false),
            StValid(0b10),
            Key((VS, B), 1, 0b0010, Open),
        ],
    )?; // n+5
    r.step(r.idle(), &[RqfDone(false), RqfReady(true), OutValid(false)])?;
    Ok(())
}

/// T11 setup: E0 VS/A, E1 VS/B, E2 GS/A (depends on E0 by the matrix), all locked tp3;
/// flush tp3 in c3. Returns the run at c5 (first output).
fn t11_setup<'a>(case: &'static str, dut: &'a mut dyn Dut<TaskCombiner>) -> Result<Run<'a>, String> {
    let mut r = Run::new(case, dut);
    r.step(r.i(VS, A, 1, 3), &[])?;
    r.step(r.i(VS, B, 2, 3), &[])?;
    r.step(r.i(GS, A, 3, 3), &[])?;
    r.step(r.idle().rqf(3), &[Deps(vec![((GS, A), vec![(VS, A)])])])?; // c3
    r.step(r.idle(), &[StPending(0b111)])?; // c4
    r.step(r.idle(), &[Out(VS, A, 1, RQF, 0b1000)])?; // c5
    Ok(r)
}

/// T11 State sorting on: A, A, B (E0, E2, E1).
pub fn t11_sort_on(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t11_setup("T11", dut)?;
    r.step(r.idle(), &[Out(GS, A, 1, RQF, 0b1000)])?; // c6
    r.step(r.idle(), &[Out(VS, B, 1, RQF, 0b1000)])?; // c7
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(3), OutValid(false)])?;
    Ok(())
}

/// T11 State sorting off: creation order E0, E1, E2.
pub fn t11_sort_off(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t11_setup("T11/nosort", dut)?;
    r.step(r.idle(), &[Out(VS, B, 1, RQF, 0b1000)])?; // c6
    r.step(r.idle(), &[Out(GS, A, 1, RQF, 0b1000)])?; // c7
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(3), OutValid(false)])?;
    Ok(())
}

/// T12 Lock of a scheduled task, then a flush of the locked pipe outputs it.
pub fn t12_lock_scheduled(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T12", dut);
    r.step(r.i(VS, A, 1, 0), &[Cap("T0")])?; // c0
    let t0 = r.tag("T0");
    r.step(
        r.idle().lk(t0, 3),
        &[LkHit(false), Ent(0, VS, A, 1, 0b0001, Open)],
    )?; // c1 = n
    r.step(
        r.idle().rqf(3),
        &[LkHit(true), Ent(0, VS, A, 1, 0b1001, Open)],
    )?; // c2
    r.step(
        r.idle(),
        &[
            LkHit(false),
            Ent(0, VS, A, 1, 0b1001, Pending),
            RqfReady(false),
        ],
    )?; // c3
    r.step(
        r.idle(),
        &[Out(VS, A, 1, RQF, 0b1001), OutTag("T0"), RqfDone(false)],
    )?; // c4
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(3), OutValid(false)])?; // c5
    Ok(())
}

/// T13 Stale locks miss; a task reopened in the same entry has another tag.
pub fn t13_stale_lock(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T13", dut);
    r.step(r.i(VS, A, 1, 0), &[Cap("T0")])?; // c0
    let t0 = r.tag("T0");
    r.step(r.idle().rqf(0), &[])?; // c1
    r.step(r.idle(), &[StPending(0b1)])?; // c2
    r.step(r.idle(), &[Out(VS, A, 1, RQF, 0b0001), OutTag("T0")])?; // c3 (handshake)
    r.step(
        r.idle().lk(t0, 1),
        &[RqfDone(true), StValid(0), OutValid(false)],
    )?; // c4
    r.step(
        r.i(VS, B, 2, 2),
        &[
            LkHit(false),
            StValid(0),
            OutValid(false),
            InReady(true),
            InTagNot("T0"),
            SameIndex("T0"),
            Cap("T1"),
        ],
    )?; // c5
    r.step(
        r.idle().lk(t0, 1),
        &[Ent(0, VS, B, 1, 0b0100, Open), EntryTag(0, "T1")],
    )?; // c6
    let t1 = r.tag("T1");
    r.step(
        r.idle().lk(t1, 1),
        &[LkHit(false), Ent(0, VS, B, 1, 0b0100, Open)],
    )?; // c7
    r.step(r.idle(), &[LkHit(true), Ent(0, VS, B, 1, 0b0110, Open)])?; // c8
    Ok(())
}

/// T14 Lock of the task in the out slot under back-pressure; a flush with only that task
/// completes one cycle after its handshake.
pub fn t14_lock_slot_backpressure(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T14", dut);
    let stall = r.idle().ready(false);
    r.step(stall.clone().inst(VS, A, 1, 0), &[Cap("TX")])?; // c0
    let tx = r.tag("TX");
    r.step(stall.clone().drain(), &[InReady(false)])?; // c1: drain pushes X out
    r.step(stall.clone(), &[StPending(0b1), InReady(true)])?; // c2
    r.step(
        stall.clone().lk(tx, 1),
        &[Out(VS, A, 1, DRAIN, 0b0001), OutTag("TX"), StValid(0)],
    )?; // c3
    r.step(
        stall.clone().rqf(1),
        &[LkHit(true), Out(VS, A, 1, DRAIN, 0b0011), RqfReady(true)],
    )?; // c4
    for _ in 5..9 {
        r.step(
            stall.clone(),
            &[
                Out(VS, A, 1, DRAIN, 0b0011),
                RqfReady(false),
                RqfDone(false),
                LkHit(false),
            ],
        )?; // c5..c8
    }
    r.step(
        r.idle(),
        &[
            Out(VS, A, 1, DRAIN, 0b0011),
            RqfReady(false),
            RqfDone(false),
        ],
    )?; // c9 = m
    r.step(
        r.idle(),
        &[RqfDone(true), RqfDoneTp(1), RqfReady(true), OutValid(false)],
    )?; // m+1
    r.step(r.idle(), &[RqfDone(false), RqfReady(true)])?;
    Ok(())
}

/// T15–T17 setup on C1: E0 VS/A ×3, E1 VS/B ×5, E2 VS/C ×1 (Tc), E3 HS/C ×6 (depends on
/// E2), then from c15 I(GS,A) is presented until accepted. Returns at c15.
fn t15_setup<'a>(case: &'static str, dut: &'a mut dyn Dut<TaskCombiner>) -> Result<Run<'a>, String> {
    let mut r = Run::new(case, dut);
    for k in 0..3 {
        r.step(r.i(VS, A, k, 0), &[InLane(k)])?;
    }
    for k in 0..5 {
        r.step(r.i(VS, B, 10 + k, 0), &[InLane(k)])?;
    }
    r.step(r.i(VS, C, 20, 0), &[InLane(0), Cap("Tc")])?; // c8
    for k in 0..6 {
        r.step(r.i(HS, C, 30 + k, 0), &[InLane(k)])?; // c9..c14
    }
    Ok(r)
}

/// T15 Eviction, FULLEST: HS/C (6) is the victim; it drags VS/C out first.
pub fn t15_evict_fullest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t15_setup("T15", dut)?;
    let gs = r.i(GS, A, 99, 0);
    r.step(
        gs.clone(),
        &[
            InReady(false),
            StValid(0b1111),
            StPending(0),
            Deps(vec![((HS, C), vec![(VS, C)])]),
        ],
    )?; // c15
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(3, HS, C, 6, 1, Pending),
            Ent(2, VS, C, 1, 1, Open),
            OutValid(false),
        ],
    )?; // c16
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(2, VS, C, 1, 1, Pending),
            StPending(0b1100),
            OutValid(false),
        ],
    )?; // c17
    r.step(
        gs,
        &[
            Out(VS, C, 1, DEP, 1),
            OutTag("Tc"),
            InReady(true),
            InLane(0),
            StValid(0b1011),
        ],
    )?; // c18
    r.step(
        r.idle(),
        &[
            Out(HS, C, 6, EVICT, 1),
            StValid(0b0111),
            Ent(2, GS, A, 1, 0b0001, Open),
            Deps(vec![((GS, A), vec![(VS, A)])]),
        ],
    )?; // c19
    r.step(r.idle(), &[OutValid(false), StPending(0), Perf(2, 7)])?; // c20: two tasks flushed
    Ok(())
}

/// T16 Eviction, OLDEST: VS/A (3) is the victim; GS/A is accepted in c17 into E0.
pub fn t16_evict_oldest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t15_setup("T16", dut)?;
    let gs = r.i(GS, A, 99, 0);
    r.step(gs.clone(), &[InReady(false), StPending(0)])?; // c15
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(0, VS, A, 3, 1, Pending),
            StPending(0b1),
            OutValid(false),
        ],
    )?; // c16
    r.step(
        gs,
        &[
            Out(VS, A, 3, EVICT, 1),
            InReady(true),
            InLane(0),
            StValid(0b1110),
        ],
    )?; // c17
    r.step(
        r.idle(),
        &[
            OutValid(false),
            Ent(0, GS, A, 1, 1, Open),
            StPending(0),
            Deps(vec![((HS, C), vec![(VS, C)])]),
        ],
    )?; // c18
    Ok(())
}

/// T17 Eviction, NODEP_FULLEST: among E0 (3), E1 (5), E2 (1) without producers, VS/B
/// goes; only one task is flushed.
pub fn t17_evict_nodep_fullest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t15_setup("T17", dut)?;
    let gs = r.i(GS, A, 99, 0);
    r.step(gs.clone(), &[InReady(false), StPending(0)])?; // c15
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(1, VS, B, 5, 1, Pending),
            StPending(0b10),
            OutValid(false),
        ],
    )?; // c16
    r.step(
        gs,
        &[
            Out(VS, B, 5, EVICT, 1),
            InReady(true),
            InLane(0),
            StValid(0b1101),
        ],
    )?; // c17
    let deps = Deps(vec![((HS, C), vec![(VS, C)]), ((GS, A), vec![(VS, A)])]);
    r.step(
        r.idle(),
        &[
            OutValid(false),
            Ent(1, GS, A, 1, 1, Open),
            StPending(0),
            deps.clone(),
        ],
    )?; // c18
    r.repeat(
        8,
        r.idle(),
        &[OutValid(false), StPending(0), StValid(0b1111), deps],
    ) // c19..c26
}

/// T18 setup on C1: E0 HS/C (age 0, later depends on E1), E1 VS/C (Tv), E2 VS/A, E3 VS/B;
/// from c5 I(GS,D) is presented. Returns at c5.
fn t18_setup<'a>(case: &'static str, dut: &'a mut dyn Dut<TaskCombiner>) -> Result<Run<'a>, String> {
    let mut r = Run::new(case, dut);
    r.step(r.i(HS, C, 1, 0), &[InLane(0)])?; // c0 → E0, no producer
    r.step(r.i(VS, C, 2, 0), &[InLane(0), Cap("Tv"), DepNone])?; // c1 → E1
    r.step(r.i(HS, C, 3, 0), &[InLane(1), DepNone])?; // c2 → E0 now depends on E1
    r.step(
        r.i(VS, A, 4, 0),
        &[InLane(0), Deps(vec![((HS, C), vec![(VS, C)])])],
    )?; // c3 → E2
    r.step(r.i(VS, B, 5, 0), &[InLane(0)])?; // c4 → E3
    Ok(r)
}

/// T18 OLDEST: the oldest entry (HS/C) is the victim; VS/C (DEP) then HS/C (EVICT).
pub fn t18_oldest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t18_setup("T18/oldest", dut)?;
    let gs = r.i(GS, D, 6, 0);
    r.step(gs.clone(), &[InReady(false), StValid(0b1111), StPending(0)])?; // c5
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(0, HS, C, 2, 1, Pending),
            Ent(1, VS, C, 1, 1, Open),
        ],
    )?; // c6
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(1, VS, C, 1, 1, Pending),
            OutValid(false),
        ],
    )?; // c7
    r.step(
        gs,
        &[
            Out(VS, C, 1, DEP, 1),
            OutTag("Tv"),
            InReady(true),
            InLane(0),
        ],
    )?; // c8
    r.step(
        r.idle(),
        &[
            Out(HS, C, 2, EVICT, 1),
            OutRefs(vec![1, 3]),
            Ent(1, GS, D, 1, 1, Open),
            StValid(0b1110),
        ],
    )?; // c9
    r.step(r.idle(), &[OutValid(false), StPending(0), DepNone])?;
    Ok(())
}

/// T18 NODEP_OLDEST: the oldest entry without producers (VS/C) is the only victim; HS/C
/// stays OPEN with its row cleared.
pub fn t18_nodep_oldest(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = t18_setup("T18/nodep_oldest", dut)?;
    let gs = r.i(GS, D, 6, 0);
    r.step(gs.clone(), &[InReady(false), StPending(0)])?; // c5
    r.step(
        gs.clone(),
        &[
            InReady(false),
            Ent(1, VS, C, 1, 1, Pending),
            Ent(0, HS, C, 2, 1, Open),
        ],
    )?; // c6
    r.step(
        gs,
        &[
            Out(VS, C, 1, EVICT, 1),
            OutTag("Tv"),
            InReady(true),
            InLane(0),
            DepNone,
        ],
    )?; // c7
    r.step(
        r.idle(),
        &[
            Ent(0, HS, C, 2, 1, Open),
            Ent(1, GS, D, 1, 1, Open),
            DepNone,
            OutValid(false),
        ],
    )?; // c8
    r.repeat(
        8,
        r.idle(),
        &[OutValid(false), StPending(0), Ent(0, HS, C, 2, 1, Open)],
    )
}

/// T19 No second victim while an entry is PENDING: with the slot blocked, a full VS/A
/// waits and the new key waits for its entry.
pub fn t19_no_double_victim(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T19", dut);
    let stall = r.idle().ready(false);
    for k in 0..8 {
        r.step(stall.clone().inst(VS, B, k, 0), &[InLane(k)])?; // c0..c7 → E0
    }
    for k in 0..8 {
        r.step(
            stall.clone().inst(VS, A, 10 + k, 0),
            &[InLane(k), InReady(true)],
        )?; // c8..c15 → E1
    }
    r.step(
        stall.clone().inst(VS, C, 20, 0),
        &[
            Ent(1, VS, A, 8, 1, Pending),
            Out(VS, B, 8, FULL, 1),
            InLane(0),
        ],
    )?; // c16 → E0
    r.step(stall.clone().inst(VS, D, 21, 0), &[InLane(0)])?; // c17 → E2
    r.step(stall.clone().inst(DS, A, 22, 0), &[InLane(0)])?; // c18 → E3
    let gs = stall.clone().inst(GS, B, 99, 0);
    for _ in 19..26 {
        r.step(
            gs.clone(),
            &[
                InReady(false),
                StValid(0b1111),
                StPending(0b10),
                Out(VS, B, 8, FULL, 1),
            ],
        )?; // c19..c25
    }
    let gs = gs.ready(true);
    r.step(
        gs.clone(),
        &[InReady(false), StPending(0b10), Out(VS, B, 8, FULL, 1)],
    )?; // c26
    r.step(
        gs,
        &[
            Out(VS, A, 8, FULL, 1),
            InReady(true),
            InLane(0),
            StValid(0b1101),
        ],
    )?; // c27
    r.step(
        r.idle(),
        &[
            OutValid(false),
            Ent(1, GS, B, 1, 1, Open),
            StPending(0),
            StValid(0b1111),
            Perf(2, 16),
        ],
    )?; // c28
    Ok(())
}

/// T20 Back-pressure: the out payload is stable while `out_ready` = 0 (c9–c19); the next
/// task waits PENDING and follows the handshake.
pub fn t20_backpressure(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T20", dut);
    for k in 0..8 {
        r.step(
            r.i(VS, A, 100 + k, 0),
            &[InLane(k), if k == 0 { Cap("T") } else { InTag("T") }],
        )?;
    }
    r.step(r.idle(), &[StPending(1)])?; // c8
    let first = r.step(
        r.i(VS, A, 200, 0).ready(false),
        &[
            Out(VS, A, 8, FULL, 1),
            OutRefs((100..108).collect()),
            OutTag("T"),
            StValid(0),
            InLane(0),
            InTagNot("T"),
            Cap("T2"),
        ],
    )?; // c9
    let same = |o: &TaskCombinerOutputs| {
        (
            o.out_valid,
            o.out_tag,
            o.out_stype,
            o.out_state,
            o.out_count,
            o.out_lane_mask,
            o.out_refs.clone(),
            o.out_lockmask,
            o.out_reason,
        )
    };
    for c in 10..20u64 {
        let inp = if c <= 16 {
            r.i(VS, A, 200 + c - 9, 0)
        } else {
            r.idle()
        }
        .ready(false);
        let o = r.step(
            inp,
            &[if c <= 16 {
                InLane(c - 9)
            } else {
                OutValid(true)
            }],
        )?;
        if same(&o) != same(&first) {
            return Err(format!(
                "T20 c{c}: out_* changed under back-pressure: {:?} vs {:?}",
                same(&o),
                same(&first)
            ));
        }
        if c >= 17 && !(o.st_pending == 1 && o.st_count[0] == 8) {
            return Err(format!(
                "T20 c{c}: st_pending expected 0b1 with count 8, actual {:#b}",
                o.st_pending
            ));
        }
    }
    let o = r.step(r.idle(), &[StPending(1)])?; // c20: handshake
    if same(&o) != same(&first) {
        return Err("T20 c20: out_* changed under back-pressure".into());
    }
    r.step(
        r.idle(),
        &[
            Out(VS, A, 8, FULL, 1),
            OutRefs((200..208).collect()),
            OutTag("T2"),
            StValid(0),
            Perf(1, 8),
        ],
    )?; // c21
    r.step(r.idle(), &[OutValid(false), Perf(2, 16)])?;
    Ok(())
}

/// T21 Per-shader-type capacity: an HS task leaves full at 4 lanes, a VS task needs 8.
pub fn t21_capacity_per_type(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T21", dut);
    for k in 0..4 {
        r.step(r.i(HS, A, k, 0), &[InLane(k)])?; // c0..c3
    }
    r.step(r.idle(), &[Key((HS, A), 4, 1, Pending)])?; // c4
    r.step(
        r.idle(),
        &[
            Out(HS, A, 4, FULL, 1),
            OutMask(0x0F),
            OutRefs(vec![0, 1, 2, 3]),
        ],
    )?; // c5
    for k in 0..8 {
        let exp = if k == 4 {
            vec![InLane(4), Key((VS, A), 4, 1, Open), OutValid(false)]
        } else {
            vec![InLane(k)]
        };
        r.step(r.i(VS, A, 10 + k, 0), &exp)?; // c6..c13
    }
    r.step(r.idle(), &[Key((VS, A), 8, 1, Pending)])?; // c14
    r.step(r.idle(), &[Out(VS, A, 8, FULL, 1), OutMask(0xFF)])?; // c15
    Ok(())
}

/// T22 Baseline (no HELD): a full DS task drags its one-instance HS producer out at 1/8.
pub fn t22_baseline(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T22", dut);
    r.step(r.i(HS, C, 200, 0), &[Cap("Th")])?; // c0
    for k in 0..8 {
        r.step(r.i(DS, C, 300 + k, 0), &[InLane(k)])?; // c1..c8
    }
    r.step(
        r.idle(),
        &[
            Key((DS, C), 8, 1, Pending),
            Key((HS, C), 1, 1, Open),
            Deps(vec![((DS, C), vec![(HS, C)])]),
        ],
    )?; // c9
    r.step(r.idle(), &[Key((HS, C), 1, 1, Pending), OutValid(false)])?; // c10
    r.step(
        r.idle(),
        &[Out(HS, C, 1, DEP, 1), OutTag("Th"), OutRefs(vec![200])],
    )?; // c11
    r.step(
        r.idle(),
        &[Out(DS, C, 8, FULL, 1), OutRefs((300..308).collect())],
    )?; // c12
    r.step(r.idle(), &[OutValid(false), Perf(2, 9)])?; // c13
    Ok(())
}

/// T23 A producer that has issued (or is moving into the slot at the accept edge) is not
/// a dependency.
pub fn t23_issued_producer(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T23", dut);
    r.step(r.i(VS, C, 1, 0), &[Cap("Tv")])?; // c0
    r.step(r.idle().drain(), &[])?; // c1

    // c2: VS/C moves into the slot at this edge while HS/C is accepted into E1.
    r.step(r.i(HS, C, 2, 0), &[StPending(1), InReady(true), InLane(0)])?;
    r.step(
        r.i(VS, D, 3, 3),
        &[Out(VS, C, 1, DRAIN, 1), Ent(1, HS, C, 1, 1, Open), DepNone],
    )?; // c3 → E0
    r.step(r.idle().rqf(3), &[])?; // c4
    r.step(r.idle(), &[Key((VS, D), 1, 0b1000, Pending)])?; // c5
    r.step(r.idle(), &[Out(VS, D, 1, RQF, 0b1000)])?; // c6
    r.step(r.i(HS, D, 4, 0), &[RqfDone(true), InReady(true)])?; // c7: VS/D has issued
    r.step(
        r.idle(),
        &[Key((HS, D), 1, 1, Open), Key((HS, C), 1, 1, Open), DepNone],
    )?; // c8
    Ok(())
}

/// T24x (contract §6, replacing T24): a VS instance never depends on anything; an HS/C
/// instance has no producer while only VS/D is resident; HS and GS pick up VS/A.
pub fn t24x_implied_deps(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T24x", dut);
    r.step(r.i(HS, A, 1, 0), &[])?; // c0 → E0
    r.step(r.i(VS, A, 2, 0), &[DepNone])?; // c1 → E1
    r.step(r.i(VS, A, 3, 0), &[DepNone])?; // c2
    r.step(r.i(VS, D, 4, 0), &[DepNone])?; // c3 → E2
    r.step(r.i(HS, C, 5, 0), &[DepNone])?; // c4 → E3
    r.step(r.i(HS, A, 6, 0), &[DepNone, Key((HS, C), 1, 1, Open)])?; // c5 → E0 (append)
    r.step(r.i(GS, A, 7, 0), &[Deps(vec![((HS, A), vec![(VS, A)])])])?; // c6 → E4
    r.step(
        r.idle(),
        &[
            Deps(vec![((HS, A), vec![(VS, A)]), ((GS, A), vec![(VS, A)])]),
            StOpen(0b11111),
        ],
    )?; // c7
    Ok(())
}

/// T25 A flush in the same cycle as an instance that creates (or appends to) a locked
/// task, or as a lock, includes it.
pub fn t25_same_cycle_flush(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T25", dut);
    r.step(r.i(VS, A, 1, 1).rqf(1), &[InReady(true), RqfReady(true)])?; // c0
    r.step(
        r.idle(),
        &[RqfReady(false), Ent(0, VS, A, 1, 0b0010, Pending)],
    )?; // c1
    r.step(r.idle(), &[Out(VS, A, 1, RQF, 0b0010)])?; // c2
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(1), OutValid(false)])?; // c3

    // Variant: a lock of an open entry in the flush cycle.
    r.step(r.i(VS, B, 2, 0), &[RqfDone(false), Cap("TB")])?; // c4
    let tb = r.tag("TB");
    r.step(r.i(VS, C, 3, 2), &[])?; // c5
    r.step(r.idle().lk(tb, 1).rqf(1), &[RqfReady(true)])?; // c6
    r.step(
        r.idle(),
        &[
            LkHit(true),
            RqfReady(false),
            Key((VS, B), 1, 0b0011, Pending),
            Key((VS, C), 1, 0b0100, Open),
        ],
    )?; // c7
    r.step(r.idle(), &[Out(VS, B, 1, RQF, 0b0011), OutTag("TB")])?; // c8
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(1), OutValid(false)])?; // c9

    // Variant: an instance appended to an open entry in the flush cycle.
    r.step(r.i(VS, C, 4, 3).rqf(3), &[InLane(1)])?; // c10
    r.step(r.idle(), &[Key((VS, C), 2, 0b1100, Pending)])?; // c11
    r.step(r.idle(), &[Out(VS, C, 2, RQF, 0b1100), OutRefs(vec![3, 4])])?; // c12
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(3), StValid(0)])?; // c13
    Ok(())
}

/// T26 An empty flush completes in n+1 with no output.
pub fn t26_empty_flush(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T26", dut);
    r.step(r.idle().rqf(3), &[RqfReady(true)])?; // c0, empty table
    r.step(
        r.i(VS, A, 1, 0),
        &[RqfDone(true), RqfDoneTp(3), RqfReady(true), OutValid(false)],
    )?; // c1
    r.step(r.idle().rqf(3), &[RqfDone(false), RqfReady(true)])?; // c2, VS/A locked tp0 only
    r.step(
        r.idle(),
        &[
            RqfDone(true),
            RqfDoneTp(3),
            RqfReady(true),
            Key((VS, A), 1, 1, Open),
            OutValid(false),
        ],
    )?; // c3
    r.repeat(4, r.idle(), &[RqfDone(false), OutValid(false), StOpen(1)]) // c4..c7
}

/// T27 Drain: no input while `drain_req`; the VS/C → HS/C → DS/C chain and VS/A leave
/// with reason DRAIN in dependency order (same-state first); `drain_done` when empty.
pub fn t27_drain(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T27", dut);
    r.step(r.i(VS, C, 1, 0), &[])?;
    r.step(r.i(HS, C, 2, 0), &[])?;
    r.step(r.i(DS, C, 3, 0), &[])?;
    r.step(r.i(VS, A, 4, 0), &[])?; // c3
    let d = r.i(VS, C, 5, 0).drain();
    r.step(
        d.clone(),
        &[InReady(false), DrainDone(false), StOpen(0b1111)],
    )?; // c4 = n
    r.step(
        d.clone(),
        &[InReady(false), DrainDone(false), StPending(0b1111)],
    )?; // c5
    r.step(d.clone(), &[InReady(false), Out(VS, C, 1, DRAIN, 1)])?; // c6
    r.step(d.clone(), &[InReady(false), Out(HS, C, 1, DRAIN, 1)])?; // c7
    r.step(d.clone(), &[InReady(false), Out(DS, C, 1, DRAIN, 1)])?; // c8
    r.step(
        d.clone(),
        &[
            InReady(false),
            Out(VS, A, 1, DRAIN, 1),
            DrainDone(false),
            StValid(0),
        ],
    )?; // c9
    r.step(
        d.clone(),
        &[InReady(false), DrainDone(true), OutValid(false), StValid(0)],
    )?; // c10
    let go = r.i(VS, C, 5, 0);
    r.step(go, &[InReady(true), DrainDone(false), Perf(4, 4)])?; // c11: released
    r.step(r.idle(), &[Key((VS, C), 1, 1, Open)])?;
    Ok(())
}

/// T28 Capacity 1: 50 instances at one per cycle give 50 one-lane FULL tasks in
/// acceptance order, one per cycle from c2.
pub fn t28_capacity_one(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("T28", dut);
    // Instance k: type k%4 (VS, HS, DS, GS in turn), state 1 + (k/4)%3, tile pipe k%4.
    let inst = |k: u64| (k % 4, 1 + (k / 4) % 3, 1000 + k, k % 4);
    for c in 0..52u64 {
        let mut exp = vec![];
        if c >= 2 {
            let (s, st, rf, tp) = inst(c - 2);
            exp.extend([
                Out(s, st, 1, FULL, 1 << tp),
                OutRefs(vec![rf]),
                OutMask(1),
                DepNone,
            ]);
        } else {
            exp.push(OutValid(false));
        }
        let inp = if c < 50 {
            let (s, st, rf, tp) = inst(c);
            exp.extend([InReady(true), InLane(0)]);
            r.i(s, st, rf, tp)
        } else {
            r.idle()
        };
        r.step(inp, &exp)?;
    }
    r.step(r.idle(), &[OutValid(false), StValid(0), Perf(50, 50)])?; // c52
    Ok(())
}

/// S1 (spec §11.4, Figs. 6/7): tile pipe 2 renders P0–P3 of state A with an empty cache:
/// v0, v1, v2 miss; P1 hits v2 and v1 scheduled (a lock) and misses v3; P2 misses v4;
/// P3 misses v5. One VS task of 6 lanes; the end-of-tile flush outputs it with reason
/// RQFLUSH — Fig. 7's task 702: 6 of 8 lanes.
pub fn s1_fig7(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("S1", dut);
    let v = |k: u64| 0x600 + k; // LUT references of v0..v5
    r.step(r.i(VS, A, v(0), 2), &[Cap("T")])?; // c0: P0
    r.step(r.i(VS, A, v(1), 2), &[InTag("T")])?;
    r.step(r.i(VS, A, v(2), 2), &[InTag("T")])?;
    let t = r.tag("T");
    r.step(r.i(VS, A, v(3), 2).lk(t, 2), &[InTag("T"), InLane(3)])?; // c3: P1
    r.step(r.i(VS, A, v(4), 2), &[LkHit(true), InLane(4)])?; // c4: P2
    r.step(r.i(VS, A, v(5), 2), &[LkHit(false), InLane(5)])?; // c5: P3
    r.step(
        r.idle().rqf(2),
        &[Ent(0, VS, A, 6, 0b0100, Open), OutValid(false)],
    )?; // c6: end of tile
    r.step(
        r.idle(),
        &[Ent(0, VS, A, 6, 0b0100, Pending), RqfReady(false)],
    )?; // c7
    r.step(
        r.idle(),
        &[
            Out(VS, A, 6, RQF, 0b0100),
            OutMask(0x3F),
            OutTag("T"),
            OutRefs((0..6).map(v).collect()),
        ],
    )?; // c8
    r.step(
        r.idle(),
        &[
            RqfDone(true),
            RqfDoneTp(2),
            RqfReady(true),
            Perf(1, 6),
            OutValid(false),
        ],
    )?; // c9: 6/8 lanes
    r.step(r.idle(), &[RqfDone(false)])?;
    Ok(())
}

/// S2 (spec §11.4): P0 also covers a tile on pipe 0 while the task is open: all three
/// vertices hit-scheduled, lock for pipe 0 → lockmask 0101. A flush of pipe 0 outputs the
/// task; a later flush of pipe 2 finds nothing and completes at once.
pub fn s2_cross_tile_flush(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("S2", dut);
    for k in 0..3 {
        r.step(
            r.i(VS, A, 0x600 + k, 2),
            &[if k == 0 { Cap("T") } else { InTag("T") }],
        )?; // c0..c2
    }
    let t = r.tag("T");
    r.step(r.idle().lk(t, 0), &[])?; // c3
    r.step(
        r.idle().lk(t, 0),
        &[LkHit(true), Ent(0, VS, A, 3, 0b0101, Open)],
    )?; // c4
    r.step(
        r.idle().rqf(0),
        &[LkHit(true), Ent(0, VS, A, 3, 0b0101, Open)],
    )?; // c5
    r.step(r.idle(), &[Ent(0, VS, A, 3, 0b0101, Pending)])?; // c6
    r.step(r.idle(), &[Out(VS, A, 3, RQF, 0b0101), OutTag("T")])?; // c7
    r.step(
        r.idle().rqf(2),
        &[RqfDone(true), RqfDoneTp(0), RqfReady(true)],
    )?; // c8
    r.step(
        r.idle(),
        &[RqfDone(true), RqfDoneTp(2), OutValid(false), StValid(0)],
    )?; // c9
    Ok(())
}

/// X01 (contract R6): a lock of the slot task at its handshake edge hits but the bit is
/// lost; a lock of an entry at the edge it moves into the slot goes with it.
pub fn x01_lock_at_move_and_leave(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X01", dut);
    r.step(r.i(VS, A, 1, 0), &[Cap("TA")])?; // c0
    let ta = r.tag("TA");
    r.step(r.idle().drain(), &[])?; // c1
    r.step(r.idle(), &[StPending(1)])?; // c2
    r.step(r.idle().lk(ta, 2), &[Out(VS, A, 1, DRAIN, 0b0001)])?; // c3: handshake edge
    r.step(r.i(VS, B, 2, 0), &[LkHit(true), OutValid(false), Cap("TB")])?; // c4
    let tb = r.tag("TB");
    r.step(r.idle().drain(), &[LkHit(false)])?; // c5
    r.step(r.idle().lk(tb, 3), &[StPending(1)])?; // c6: VS/B moves at this edge
    r.step(
        r.idle(),
        &[LkHit(true), Out(VS, B, 1, DRAIN, 0b1001), OutTag("TB")],
    )?; // c7
        // A lock of the slot task that stays: the bit shows on out_lockmask the next cycle.
    r.step(r.i(VS, C, 3, 1), &[Cap("TC")])?; // c8
    let tc = r.tag("TC");
    r.step(r.idle().drain(), &[])?; // c9
    r.step(r.idle().ready(false), &[StPending(1)])?; // c10
    r.step(
        r.idle().ready(false).lk(tc, 0),
        &[Out(VS, C, 1, DRAIN, 0b0010)],
    )?; // c11
    r.step(r.idle(), &[LkHit(true), Out(VS, C, 1, DRAIN, 0b0011)])?; // c12
    Ok(())
}

/// X02 (contract R2, R3): `in_ready` does not depend on `in_valid`; no victim is chosen
/// for a key that is not presented with `in_valid`.
pub fn x02_ready_without_valid(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X02", dut);
    let quiet = |r: &Run, s: u64, st: u64| {
        let mut i = r.i(s, st, 0, 0);
        i.in_valid = false;
        i
    };
    r.step(quiet(&r, GS, A), &[InReady(true)])?; // c0: empty table
    for (k, st) in [A, B, C, D].into_iter().enumerate() {
        r.step(r.i(VS, st, k as u64, 0), &[InReady(true)])?; // c1..c4
    }
    r.step(quiet(&r, VS, B), &[InReady(true), StValid(0b1111)])?; // c5: a match
    r.repeat(
        5,
        quiet(&r, GS, A),
        &[InReady(false), StPending(0), OutValid(false)],
    )?; // c6..c10
    r.step(quiet(&r, VS, B).drain(), &[InReady(false)])?; // c11: drain blocks even a match
    r.step(r.idle(), &[StPending(0b1111)])?; // c12
    Ok(())
}

/// X03 (contract R3): FULLEST breaks a count tie towards the oldest entry.
pub fn x03_fullest_tie(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X03", dut);
    for (k, st) in [A, B, A, B, C, D].into_iter().enumerate() {
        r.step(r.i(VS, st, k as u64, 0), &[])?; // c0..c5: E0 A ×2, E1 B ×2, E2 C, E3 D
    }
    let gs = r.i(GS, C, 9, 0);
    r.step(gs.clone(), &[InReady(false)])?; // c6
    r.step(gs.clone(), &[Ent(0, VS, A, 2, 1, Pending), StPending(1)])?; // c7
    r.step(gs, &[Out(VS, A, 2, EVICT, 1), InReady(true)])?; // c8
    Ok(())
}

/// X04 (contract R10): reason priority at one edge — RQFLUSH over DRAIN, FULL over DEP,
/// DEP over RQFLUSH.
pub fn x04_reason_priority(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X04", dut);
    // RQFLUSH > DRAIN: VS/A locked tp1 is in the snapshot, VS/B only drained.
    r.step(r.i(VS, A, 1, 1), &[])?; // c0
    r.step(r.i(VS, B, 2, 2), &[])?; // c1
    let d = r.idle().drain();
    r.step(d.clone().rqf(1), &[RqfReady(true)])?; // c2
    r.step(d.clone(), &[StPending(0b11), RqfReady(false)])?; // c3
    r.step(d.clone(), &[Out(VS, A, 1, RQF, 0b0010)])?; // c4
    r.step(
        d.clone(),
        &[Out(VS, B, 1, DRAIN, 0b0100), RqfDone(true), RqfDoneTp(1)],
    )?; // c5
    r.step(d, &[DrainDone(true)])?; // c6

    // FULL > DEP: VS/C (7 lanes, tp0) and HS/C (tp1); HS/C is flushed; the 8th VS/C
    // instance is accepted at the edge where DEP reaches VS/C.
    for k in 0..7 {
        r.step(r.i(VS, C, 10 + k, 0), &[InLane(k)])?; // c7..c13
    }
    r.step(r.i(HS, C, 20, 1), &[])?; // c14
    r.step(r.idle().rqf(1), &[])?; // c15
    r.step(
        r.i(VS, C, 17, 0),
        &[
            Key((HS, C), 1, 0b0010, Pending),
            Key((VS, C), 7, 1, Open),
            InLane(7),
        ],
    )?; // c16
    r.step(r.idle(), &[Key((VS, C), 8, 1, Pending)])?; // c17
    r.step(r.idle(), &[Out(VS, C, 8, FULL, 1)])?; // c18
    r.step(r.idle(), &[Out(HS, C, 1, RQF, 0b0010)])?; // c19
    r.step(r.idle(), &[RqfDone(true), RqfDoneTp(1), OutValid(false)])?; // c20

    // DEP > RQFLUSH: HS/D (tp1) fills and is PENDING(FULL); a flush of tp0 in that cycle
    // snapshots its producer VS/D (tp0), which DEP reaches at the same edge.
    r.step(r.i(VS, D, 30, 0), &[RqfDone(false)])?; // c21
    for k in 0..8 {
        r.step(r.i(HS, D, 40 + k, 1), &[InLane(k)])?; // c22..c29
    }
    r.step(
        r.idle().rqf(0),
        &[Key((HS, D), 8, 0b0010, Pending), Key((VS, D), 1, 1, Open)],
    )?; // c30
    r.step(r.idle(), &[Key((VS, D), 1, 1, Pending), RqfReady(false)])?; // c31
    r.step(r.idle(), &[Out(VS, D, 1, DEP, 1), RqfDone(false)])?; // c32
    r.step(
        r.idle(),
        &[Out(HS, D, 8, FULL, 0b0010), RqfDone(true), RqfDoneTp(0)],
    )?; // c33
    Ok(())
}

/// X04 on C1 (contract R10): EVICT over RQFLUSH — the victim is also in the snapshot.
pub fn x04_evict_over_rqflush(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X04/c1", dut);
    r.step(r.i(VS, A, 1, 0), &[])?; // c0
    r.step(r.i(VS, A, 2, 0), &[])?; // c1
    r.step(r.i(VS, B, 3, 1), &[])?; // c2
    r.step(r.i(VS, C, 4, 1), &[])?; // c3
    r.step(r.i(VS, D, 5, 1), &[])?; // c4
    r.step(r.i(GS, B, 6, 1).rqf(0), &[InReady(false), RqfReady(true)])?; // c5
    r.step(
        r.i(GS, B, 6, 1),
        &[
            Ent(0, VS, A, 2, 1, Pending),
            StPending(1),
            RqfReady(false),
            InReady(false),
        ],
    )?; // c6
    r.step(r.i(GS, B, 6, 1), &[Out(VS, A, 2, EVICT, 1), InReady(true)])?; // c7
    r.step(
        r.idle(),
        &[
            RqfDone(true),
            RqfDoneTp(0),
            OutValid(false),
            Ent(0, GS, B, 1, 0b0010, Open),
        ],
    )?; // c8
    Ok(())
}

/// X05 (contract R7): `rqf_ready` is 1 again in the `rqf_done` cycle; a flush accepted
/// then (empty) pulses `rqf_done` again with its own pipe.
pub fn x05_flush_back_to_back(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X05", dut);
    r.step(r.i(VS, A, 1, 0), &[])?; // c0
    r.step(r.idle().rqf(0), &[])?; // c1
    r.step(r.idle().rqf(2), &[RqfReady(false)])?; // c2: held, not accepted
    r.step(r.idle().rqf(2), &[RqfReady(false), Out(VS, A, 1, RQF, 1)])?; // c3
    r.step(
        r.idle().rqf(2),
        &[RqfReady(true), RqfDone(true), RqfDoneTp(0)],
    )?; // c4: accepted
    r.step(r.idle(), &[RqfReady(true), RqfDone(true), RqfDoneTp(2)])?; // c5
    r.step(r.idle(), &[RqfReady(true), RqfDone(false)])?; // c6
    Ok(())
}

/// X06 (1 entry, width 4, 1 generation bit): a new key evicts the only task; tags cycle
/// through two generations, so a stale tag hits the task two creations later.
pub fn x06_one_entry_gen_wrap(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X06", dut);
    r.step(r.i(0, 0, 1, 0), &[InReady(true), Cap("T1")])?; // c0
    r.step(r.i(1, 0, 0, 1), &[InReady(false)])?; // c1: new key, no free entry
    r.step(
        r.i(1, 0, 0, 1),
        &[InReady(false), Ent(0, 0, 0, 1, 1, Pending)],
    )?; // c2
    r.step(
        r.i(1, 0, 0, 1),
        &[
            Out(0, 0, 1, EVICT, 1),
            OutTag("T1"),
            InReady(true),
            InTagNot("T1"),
            Cap("T2"),
        ],
    )?; // c3
    r.step(
        r.i(0, 1, 1, 1),
        &[
            Ent(0, 1, 0, 1, 0b10, Open),
            EntryTag(0, "T2"),
            DepNone,
            InReady(false),
        ],
    )?; // c4
    r.step(r.i(0, 1, 1, 1), &[InReady(false)])?; // c5
    r.step(
        r.i(0, 1, 1, 1),
        &[Out(1, 0, 1, EVICT, 0b10), InReady(true), InTag("T1")],
    )?; // c6: tag wraps
    let t1 = r.tag("T1");
    r.step(r.i(0, 1, 0, 0).lk(t1, 0), &[InTag("T1"), InLane(1)])?; // c7
    r.step(
        r.i(0, 1, 1, 1),
        &[LkHit(true), Ent(0, 0, 1, 2, 0b11, Open), InLane(2)],
    )?; // c8
    r.step(r.i(0, 1, 0, 1), &[InLane(3)])?; // c9: 4th = full
    r.step(r.idle(), &[Ent(0, 0, 1, 4, 0b11, Pending)])?; // c10
    r.step(
        r.idle(),
        &[
            Out(0, 1, 4, FULL, 0b11),
            OutMask(0xF),
            OutRefs(vec![1, 0, 1, 0]),
        ],
    )?; // c11
    Ok(())
}

/// X07 (64 entries × 64 lanes, 8 shader types): 64 keys fill the table; the fullest
/// (entry 5, 2 lanes) is evicted for a user-type instance, which depends on nothing.
pub fn x07_wide_table(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X07", dut);
    for k in 0..64u64 {
        r.step(
            r.i(VS, 1 + k, 0xFFFF_0000 + k, k % 8),
            &[InReady(true), InLane(0)],
        )?; // c0..c63
    }
    r.step(
        r.i(VS, 6, 0xFFFF_FFFF, 7),
        &[InLane(1), StValid(u64::MAX), StOpen(u64::MAX)],
    )?; // c64 → entry 5
    let user = r.i(7, 1, 1, 3);
    r.step(
        user.clone(),
        &[InReady(false), Ent(5, VS, 6, 2, 0b1010_0000, Open)],
    )?; // c65
    r.step(
        user.clone(),
        &[
            InReady(false),
            Ent(5, VS, 6, 2, 0b1010_0000, Pending),
            StPending(1 << 5),
        ],
    )?; // c66
    r.step(
        user,
        &[
            Out(VS, 6, 2, EVICT, 0b1010_0000),
            OutRefs(vec![0xFFFF_0005, 0xFFFF_FFFF]),
            InReady(true),
            InLane(0),
        ],
    )?; // c67
    r.step(
        r.idle(),
        &[Ent(5, 7, 1, 1, 0b1000, Open), DepNone, StValid(u64::MAX)],
    )?; // c68
    Ok(())
}

/// X08 (contract D3): a producer that is PENDING but not moving into the slot (the slot
/// is blocked) is a dependency of a consumer accepted meanwhile.
pub fn x08_pending_producer(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X08", dut);
    let stall = r.idle().ready(false);
    for k in 0..8 {
        r.step(stall.clone().inst(VS, A, k, 0), &[InLane(k)])?; // c0..c7 → E0, slot from c9
    }
    for k in 0..8 {
        r.step(stall.clone().inst(VS, C, 10 + k, 0), &[InLane(k)])?; // c8..c15 → E1
    }
    r.step(
        stall.clone().inst(HS, C, 20, 0),
        &[
            Ent(1, VS, C, 8, 1, Pending),
            Out(VS, A, 8, FULL, 1),
            InLane(0),
        ],
    )?; // c16 → E0
    r.step(
        stall,
        &[
            Ent(0, HS, C, 1, 1, Open),
            Deps(vec![((HS, C), vec![(VS, C)])]),
        ],
    )?; // c17
    r.step(
        r.idle(),
        &[Out(VS, A, 8, FULL, 1), Deps(vec![((HS, C), vec![(VS, C)])])],
    )?; // c18: VS/C moves
    r.step(
        r.idle(),
        &[
            Out(VS, C, 8, FULL, 1),
            Ent(0, HS, C, 1, 1, Open),
            DepNone,
            StValid(1),
        ],
    )?; // c19
    r.repeat(5, r.idle(), &[OutValid(false), StPending(0)])
}
