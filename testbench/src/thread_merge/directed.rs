//! Directed test cases: the spec's §5.8 cases under contract §6 (as written, with the
//! changed values, T24 rewritten, K1–K4 added), cases for behaviour only the contract
//! defines (X01–X08), and the exhaustive pair table of contract §6.
//!
//! Conventions (contract R1, §6): cycle 0 is the only reset cycle; "F{cov,tag} @n" presents
//! a fragment from cycle n on, held (valid/ready) until accepted; "me{t} @n" likewise on the
//! me channel; term/disc/xl/flush are driven in exactly the cycle named; `grp_ready` and
//! `rsp_ready` are 1 unless a case lowers them. "@n: x" checks output x as seen in cycle n
//! (before edge n). Lookups `rf(t)`/`wb(t)` are checked by driving `rf_tgid = wb_tgid = t`
//! in that cycle (an extra evaluation per looked-up id; the final evaluation of the cycle
//! uses id 0). Fragments use prim 1 unless stated. Masks are written MSB first as in the
//! spec (`0b0111` = lanes 0, 1, 2). Expected values are written by hand from the spec and
//! the contract; none is computed by a model.
//!
//! Readings: T1 of the spec holds reset for 2 edges; contract C0 resets in cycle 0 only,
//! so T1 checks @1 and the added T1b resets a dirty block for two cycles. T18's "the next
//! allocation gets tgid 0" is checked with a full fragment @21. T22's "separately, xl for a
//! PRE group" is T22b (also for a WAIT group). T15b runs T15's stimulus first.

use super::ThreadMerge;
use super::{Dut, ThreadMergeInputs, ThreadMergeOutputs, ThreadMergeParams};
use std::collections::{BTreeMap, VecDeque};

/// The parameter set a case runs with (contract C0 and variations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsKind {
    /// C0: lanes 4, slots 4, remap, pair_hold 4, merge_timeout 16, tag 32, prim 16.
    C0,
    /// C0 without remap (T7).
    NoRemap,
    /// C0 with pair_hold 0 (T9b).
    Hold0,
    /// C0 with lanes 8 (T28).
    Lanes8,
    /// C0 with slots 1 (K3).
    Slots1,
    /// C0 with slots 3: ids 6 and 7 name nothing (X01).
    Slots3,
}

impl ParamsKind {
    pub fn params(self) -> ThreadMergeParams {
        let c0 = ThreadMergeParams::contract_default();
        match self {
            ParamsKind::C0 => c0,
            ParamsKind::NoRemap => ThreadMergeParams { remap: false, ..c0 },
            ParamsKind::Hold0 => ThreadMergeParams { pair_hold: 0, ..c0 },
            ParamsKind::Lanes8 => ThreadMergeParams { lanes: 8, ..c0 },
            ParamsKind::Slots1 => ThreadMergeParams { slots: 1, ..c0 },
            ParamsKind::Slots3 => ThreadMergeParams { slots: 3, ..c0 },
        }
    }
}

pub type CaseFn = fn(&mut dyn Dut<ThreadMerge>) -> Result<(), String>;

/// Every directed case with the parameter set it needs.
pub fn all_cases() -> Vec<(&'static str, ParamsKind, CaseFn)> {
    use ParamsKind::*;
    vec![
        ("T1", C0, t1 as CaseFn),
        ("T1b", C0, t1b),
        ("T2", C0, t2),
        ("T3", C0, t3),
        ("T4", C0, t4),
        ("T5", C0, t5),
        ("T5b", C0, t5b),
        ("T6", C0, t6),
        ("T7", NoRemap, t7),
        ("T8", C0, t8),
        ("T9", C0, t9),
        ("T9b", Hold0, t9b),
        ("T10", C0, t10),
        ("T11", C0, t11),
        ("T12", C0, t12),
        ("T13", C0, t13),
        ("T14", C0, t14),
        ("T15", C0, t15),
        ("T15b", C0, t15b),
        ("T16", C0, t16),
        ("T16b", C0, t16b),
        ("T17", C0, t17),
        ("T18", C0, t18),
        ("T19", C0, t19),
        ("T19b", C0, t19b),
        ("T20", C0, t20),
        ("T21", C0, t21),
        ("T22", C0, t22),
        ("T22b", C0, t22b),
        ("T23", C0, t23),
        ("T24", C0, t24),
        ("T25", C0, t25),
        ("T26", C0, t26),
        ("T27", C0, t27),
        ("T28", Lanes8, t28),
        ("K1", C0, k1),
        ("K2", C0, k2),
        ("K3", Slots1, k3),
        ("K4", C0, k4),
        ("X01", Slots3, x01),
        ("X02", C0, x02),
        ("X03", C0, x03),
        ("X04", C0, x04),
        ("X05", C0, x05),
        ("X06", C0, x06),
        ("X07", C0, x07),
        ("X08", C0, x08),
    ]
}

/// Run every case on a fresh DUT from `make`; all failures, one per line.
pub fn run_all(make: &mut dyn FnMut(&ThreadMergeParams) -> Box<dyn Dut<ThreadMerge>>) -> Result<(), String> {
    let cases = all_cases()
        .into_iter()
        .map(|(name, kind, case)| (name, (kind, case)));
    crate::kit::run_cases(cases, |(kind, case)| case(make(&kind.params()).as_mut()))
}

// ---- the case runner -----------------------------------------------------------------

/// A fragment {cov, tag, prim, last}.
#[derive(Debug, Clone, Copy)]
struct Frag {
    cov: u64,
    tag: u64,
    prim: u64,
    last: bool,
}

/// F{cov, tag} with prim 1.
fn f(cov: u64, tag: u64) -> Frag {
    Frag {
        cov,
        tag,
        prim: 1,
        last: false,
    }
}

impl Frag {
    fn last(self) -> Self {
        Frag { last: true, ..self }
    }
    fn prim(self, prim: u64) -> Self {
        Frag { prim, ..self }
    }
}

/// Inputs driven in one named cycle.
#[derive(Debug, Clone, Copy)]
enum Ev {
    Term(u64),
    Disc(u64, u64),
    Xl(u64),
    Flush,
    GrpReady(bool),
    RspReady(bool),
    Reset,
}

/// One expected output value. Lookup expectations name the id driven on rf_tgid/wb_tgid.
#[derive(Debug, Clone, Copy)]
enum Exp {
    FragReady(bool),
    MeReady(bool),
    GrpValid(bool),
    Paired(bool),
    ATgid(u64),
    ACov(u64),
    ATag(u64),
    BTgid(u64),
    BCov(u64),
    BPerm(u8),
    BTag(u64),
    RspValid(bool),
    RspTgid(u64),
    RspMerged(bool),
    RspActive(u64),
    RspRetire(bool),
    RspRetireTgid(u64),
    FreeCnt(u64),
    PendValid(bool),
    MergeCount(u64),
    ErrProto(bool),
    ErrXlane(bool),
    State(usize, u8),
    Active(usize, u64),
    Broken(usize, bool),
    Owe(usize, bool),
    RfWmask(u64, u64),
    RfExec(u64, u64),
    RfPerm(u64, u8),
    RfPost(u64, bool),
    WbActive(u64, u64),
    WbLaneSrc(u64, u64),
    WbTagSelf(u64, u64),
    WbTagPartner(u64, u64),
    WbPermSelf(u64, u8),
    WbPermPartner(u64, u8),
    WbOrig(u64, [u8; 4]),
}
use Exp::*;

const FREE: u8 = 0;
const PRE: u8 = 1;
const WAIT: u8 = 2;
const POST: u8 = 3;

impl Exp {
    /// The id this expectation looks up, if it is an rf/wb lookup.
    fn lookup_id(self) -> Option<u64> {
        match self {
            RfWmask(t, _)
            | RfExec(t, _)
            | RfPost(t, _)
            | WbActive(t, _)
            | WbLaneSrc(t, _)
            | WbTagSelf(t, _)
            | WbTagPartner(t, _)
            | WbOrig(t, _) => Some(t),
            RfPerm(t, _) | WbPermSelf(t, _) | WbPermPartner(t, _) => Some(t),
            _ => None,
        }
    }

    /// `None` if the output matches, else "signal expected X, actual Y".
    fn mismatch(self, o: &ThreadMergeOutputs) -> Option<String> {
        let b = |v: bool| u8::from(v).to_string();
        let m = |v: u64| format!("{v:#06b}");
        let h = |v: u64| format!("{v:#x}");
        let n = |v: u64| v.to_string();
        let idx = |v: &Vec<u8>, k: usize| v.get(k).map_or("none".into(), |x| x.to_string());
        let (sig, exp, act): (String, String, String) = match self {
            FragReady(e) => ("frag_ready".into(), b(e), b(o.frag_ready)),
            MeReady(e) => ("me_ready".into(), b(e), b(o.me_ready)),
            GrpValid(e) => ("grp_valid".into(), b(e), b(o.grp_valid)),
            Paired(e) => ("grp_paired".into(), b(e), b(o.grp_paired)),
            ATgid(e) => ("grp_a_tgid".into(), n(e), n(o.grp_a_tgid)),
            ACov(e) => ("grp_a_cov".into(), m(e), m(o.grp_a_cov)),
            ATag(e) => ("grp_a_tag".into(), h(e), h(o.grp_a_tag)),
            BTgid(e) => ("grp_b_tgid".into(), n(e), n(o.grp_b_tgid)),
            BCov(e) => ("grp_b_cov".into(), m(e), m(o.grp_b_cov)),
            BPerm(e) => ("grp_b_perm".into(), e.to_string(), o.grp_b_perm.to_string()),
            BTag(e) => ("grp_b_tag".into(), h(e), h(o.grp_b_tag)),
            RspValid(e) => ("rsp_valid".into(), b(e), b(o.rsp_valid)),
            RspTgid(e) => ("rsp_tgid".into(), n(e), n(o.rsp_tgid)),
            RspMerged(e) => ("rsp_merged".into(), b(e), b(o.rsp_merged)),
            RspActive(e) => ("rsp_active".into(), m(e), m(o.rsp_active)),
            RspRetire(e) => ("rsp_retire".into(), b(e), b(o.rsp_retire)),
            RspRetireTgid(e) => ("rsp_retire_tgid".into(), n(e), n(o.rsp_retire_tgid)),
            FreeCnt(e) => ("free_cnt".into(), n(e), n(o.free_cnt)),
            PendValid(e) => ("pend_valid".into(), b(e), b(o.pend_valid)),
            MergeCount(e) => ("merge_count".into(), n(e), n(o.merge_count)),
            ErrProto(e) => ("err_proto".into(), b(e), b(o.err_proto)),
            ErrXlane(e) => ("err_xlane".into(), b(e), b(o.err_xlane)),
            State(t, e) => (format!("st_state[{t}]"), e.to_string(), idx(&o.st_state, t)),
            Active(t, e) => (
                format!("st_active[{t}]"),
                m(e),
                o.st_active.get(t).map_or("none".into(), |&v| m(v)),
            ),
            Broken(s, e) => (
                format!("st_slot[{s}].broken"),
                b(e),
                o.st_slot
                    .get(s)
                    .map_or("none".into(), |&v| ((v >> 1) & 1).to_string()),
            ),
            Owe(t, e) => (
                format!("st_owe[{t}]"),
                b(e),
                o.st_owe.get(t).map_or("none".into(), |&v| b(v)),
            ),
            RfWmask(t, e) => (format!("rf({t}).common_wmask"), m(e), m(o.rf_common_wmask)),
            RfExec(t, e) => (format!("rf({t}).exec_mask"), m(e), m(o.rf_exec_mask)),
            RfPerm(t, e) => (format!("rf({t}).perm"), e.to_string(), o.rf_perm.to_string()),
            RfPost(t, e) => (format!("rf({t}).post"), b(e), b(o.rf_post)),
            WbActive(t, e) => (format!("wb({t}).active"), m(e), m(o.wb_active)),
            WbLaneSrc(t, e) => (format!("wb({t}).lane_src"), m(e), m(o.wb_lane_src)),
            WbTagSelf(t, e) => (format!("wb({t}).tag_self"), h(e), h(o.wb_tag_self)),
            WbTagPartner(t, e) => (format!("wb({t}).tag_partner"), h(e), h(o.wb_tag_partner)),
            WbPermSelf(t, e) => (
                format!("wb({t}).perm_self"),
                e.to_string(),
                o.wb_perm_self.to_string(),
            ),
            WbPermPartner(t, e) => (
                format!("wb({t}).perm_partner"),
                e.to_string(),
                o.wb_perm_partner.to_string(),
            ),
            WbOrig(t, e) => (
                format!("wb({t}).orig_lane"),
                format!("{e:?}"),
                format!("{:?}", o.wb_orig_lane),
            ),
        };
        (exp != act).then(|| format!("{sig} expected {exp}, actual {act}"))
    }
}

/// A case: stimulus and expectations by cycle.
struct Case {
    frags: VecDeque<(u32, Frag)>,
    mes: VecDeque<(u32, u64)>,
    ev: Vec<(u32, Ev)>,
    exp: BTreeMap<u32, Vec<Exp>>,
}

impl Case {
    fn new() -> Self {
        Case {
            frags: VecDeque::new(),
            mes: VecDeque::new(),
            ev: Vec::new(),
            exp: BTreeMap::new(),
        }
    }

    /// Present F from cycle `c` until accepted (after the fragments before it).
    fn frag(&mut self, c: u32, fr: Frag) -> &mut Self {
        self.frags.push_back((c, fr));
        self
    }

    /// Present me{t} from cycle `c` until accepted.
    fn me(&mut self, c: u32, t: u64) -> &mut Self {
        self.mes.push_back((c, t));
        self
    }

    fn term(&mut self, c: u32, t: u64) -> &mut Self {
        self.ev.push((c, Ev::Term(t)));
        self
    }

    fn disc(&mut self, c: u32, t: u64, mask: u64) -> &mut Self {
        self.ev.push((c, Ev::Disc(t, mask)));
        self
    }

    fn xl(&mut self, c: u32, t: u64) -> &mut Self {
        self.ev.push((c, Ev::Xl(t)));
        self
    }

    fn flush(&mut self, c: u32) -> &mut Self {
        self.ev.push((c, Ev::Flush));
        self
    }

    /// `grp_ready = 0` in cycles `from..=to`.
    fn grp_block(&mut self, from: u32, to: u32) -> &mut Self {
        (from..=to).for_each(|c| self.ev.push((c, Ev::GrpReady(false))));
        self
    }

    /// `rsp_ready = 0` in cycles `from..=to`.
    fn rsp_block(&mut self, from: u32, to: u32) -> &mut Self {
        (from..=to).for_each(|c| self.ev.push((c, Ev::RspReady(false))));
        self
    }

    /// Reset (with every valid at 0) in cycles `from..=to`.
    fn reset(&mut self, from: u32, to: u32) -> &mut Self {
        (from..=to).for_each(|c| self.ev.push((c, Ev::Reset)));
        self
    }

    /// Expect `e` @c.
    fn at(&mut self, c: u32, e: &[Exp]) -> &mut Self {
        self.exp.entry(c).or_default().extend_from_slice(e);
        self
    }

    /// Expect `e` @c for every c in `from..=to`.
    fn during(&mut self, from: u32, to: u32, e: &[Exp]) -> &mut Self {
        (from..=to).for_each(|c| {
            self.at(c, e);
        });
        self
    }

    /// Run on `dut` from a reset in cycle 0 to the last cycle with an expectation.
    fn run(&mut self, dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
        let p = dut.params().clone();
        let end = self.exp.keys().copied().max().unwrap_or(1);
        let mut frags = self.frags.clone();
        let mut mes = self.mes.clone();
        for cycle in 0..=end {
            let mut i = ThreadMergeInputs::idle(&p);
            let mut reset = cycle == 0;
            for &(_, e) in self.ev.iter().filter(|x| x.0 == cycle) {
                match e {
                    Ev::Term(t) => i = i.term(t),
                    Ev::Disc(t, m) => i = i.disc(t, m),
                    Ev::Xl(t) => i = i.xl(t),
                    Ev::Flush => i.flush = true,
                    Ev::GrpReady(r) => i.grp_ready = r,
                    Ev::RspReady(r) => i.rsp_ready = r,
                    Ev::Reset => reset = true,
                }
            }
            if reset {
                i = ThreadMergeInputs {
                    grp_ready: i.grp_ready,
                    rsp_ready: i.rsp_ready,
                    ..ThreadMergeInputs::idle(&p).with_reset()
                };
            } else {
                if let Some(&(c, fr)) = frags.front() {
                    if c <= cycle {
                        i = i.frag(fr.cov, fr.prim, fr.tag, fr.last);
                    }
                }
                if let Some(&(c, t)) = mes.front() {
                    if c <= cycle {
                        i = i.me(t);
                    }
                }
            }
            let exp = self.exp.get(&cycle).cloned().unwrap_or_default();
            let mut bad = Vec::new();
            let mut ids: Vec<u64> = exp.iter().filter_map(|e| e.lookup_id()).collect();
            ids.dedup();
            for t in ids {
                let o = dut.eval(&ThreadMergeInputs {
                    rf_tgid: t,
                    wb_tgid: t,
                    ..i.clone()
                });
                bad.extend(
                    exp.iter()
                        .filter(|e| e.lookup_id() == Some(t))
                        .filter_map(|e| e.mismatch(&o)),
                );
            }
            let o = dut.eval(&i);
            bad.extend(
                exp.iter()
                    .filter(|e| e.lookup_id().is_none())
                    .filter_map(|e| e.mismatch(&o)),
            );
            if !bad.is_empty() {
                return Err(format!("@{cycle}: {}", bad.join("; ")));
            }
            if i.frag_valid && o.frag_ready {
                frags.pop_front();
            }
            if i.me_valid && o.me_ready {
                mes.pop_front();
            }
            dut.tick();
        }
        Ok(())
    }
}

/// A single descriptor.
fn single(t: u64, cov: u64, tag: u64) -> [Exp; 5] {
    [GrpValid(true), Paired(false), ATgid(t), ACov(cov), ATag(tag)]
}

/// A pair descriptor (b_tgid = a + 1).
fn pair(a: u64, a_cov: u64, a_tag: u64, b_cov: u64, b_perm: u8, b_tag: u64) -> [Exp; 9] {
    [
        GrpValid(true),
        Paired(true),
        ATgid(a),
        ACov(a_cov),
        ATag(a_tag),
        BTgid(a + 1),
        BCov(b_cov),
        BPerm(b_perm),
        BTag(b_tag),
    ]
}

/// A response {t, merged, active}; a merged one retires t + 1.
fn rsp(t: u64, merged: bool, active: u64) -> Vec<Exp> {
    let mut v = vec![
        RspValid(true),
        RspTgid(t),
        RspMerged(merged),
        RspActive(active),
        RspRetire(merged),
    ];
    if merged {
        v.push(RspRetireTgid(t + 1));
    }
    v
}

/// T3's stimulus: F1{0111,0x10} @1, F2{1000,0x11} @2 → pair (0, 1) @3.
fn setup_t3(c: &mut Case) {
    c.frag(1, f(0b0111, 0x10)).frag(2, f(0b1000, 0x11));
}

/// T4's stimulus: F1{0111,0x30} @1, F2{0001,0x31} @2 → pair with rot180 @3.
fn setup_t4(c: &mut Case) {
    c.frag(1, f(0b0111, 0x30)).frag(2, f(0b0001, 0x31));
}

/// T12's stimulus: T3; me{0} @10; me{1} @13 (merge at edge 13).
fn setup_t12(c: &mut Case) {
    setup_t3(c);
    c.me(10, 0).me(13, 1);
}

/// The reset state's observable outputs (C0).
fn clean() -> Vec<Exp> {
    let mut v = vec![
        FreeCnt(4),
        PendValid(false),
        GrpValid(false),
        RspValid(false),
        ErrXlane(false),
        ErrProto(false),
        FragReady(true),
        MergeCount(0),
        MeReady(true),
    ];
    v.extend((0..8).map(|t| State(t, FREE)));
    v.extend((0..8).map(|t| Owe(t, false)));
    v
}

// ---- §5.8 cases ------------------------------------------------------------------------

/// T1 reset: @1 after a reset in cycle 0 (changed: free_cnt 4, + me_ready 1).
pub fn t1(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    Case::new().at(1, &clean()).run(dut)
}

/// T1b (addition): a dirty block (merged slot, single, candidate, descriptor and response
/// pending, both errors, merge_count 1) is reset for two cycles and is clean after; the
/// slot is reused from tgid 0 and merge_count restarts.
pub fn t1b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c); // pair (0, 1) at edge 2
    c.frag(3, f(0b1111, 3)) // single tgid 2 at edge 3
        .frag(7, f(0b0001, 4)) // candidate at edge 7
        .frag(8, f(0b1111, 5)) // single tgid 4 at edge 8, held by grp_ready 0
        .me(4, 0) // WAIT
        .me(5, 1) // merge
        .me(6, 7) // FREE id: err_proto
        .me(8, 2) // single: resume response @9
        .xl(7, 0) // POST: err_xlane
        .grp_block(8, 10)
        .reset(9, 10)
        .frag(11, f(0b0111, 6))
        .frag(12, f(0b1000, 7));
    c.at(6, &rsp(0, true, 0b1111))
        .at(6, &[MergeCount(1)])
        .at(
            9,
            &[
                GrpValid(true),
                ATgid(4),
                RspValid(true),
                RspTgid(2),
                PendValid(true),
                ErrProto(true),
                ErrXlane(true),
                MergeCount(1),
                FreeCnt(1),
                State(0, POST),
                State(2, POST),
                State(4, PRE),
            ],
        )
        .at(11, &clean())
        .at(
            11,
            &[
                RfWmask(0, 0),
                RfExec(0, 0),
                RfPost(0, false),
                WbActive(0, 0),
                WbTagSelf(0, 0),
            ],
        )
        .at(13, &pair(0, 0b0111, 6, 0b1000, 0, 7))
        .at(13, &[MergeCount(0), FreeCnt(3)]);
    c.run(dut)
}

/// T2 full quad is never a candidate.
pub fn t2(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b1111, 0xA0))
        .at(2, &single(0, 0b1111, 0xA0))
        .at(2, &[PendValid(false), FreeCnt(3), State(0, PRE)])
        .at(2, &[RfWmask(0, 0b1111), RfExec(0, 0b1111), RfPerm(0, 0)]);
    c.run(dut)
}

/// T3 identity pairing (changed: free_cnt 4 @2, 3 @3).
pub fn t3(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.at(2, &[GrpValid(false), PendValid(true), FreeCnt(4)])
        .at(3, &pair(0, 0b0111, 0x10, 0b1000, 0, 0x11))
        .at(3, &[PendValid(false), FreeCnt(3)])
        .at(
            3,
            &[
                RfWmask(1, 0b1000),
                RfExec(1, 0b1111),
                RfWmask(0, 0b0111),
                RfExec(0, 0b1111),
            ],
        );
    c.run(dut)
}

/// T4 remap rot180.
pub fn t4(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t4(&mut c);
    c.at(3, &pair(0, 0b0111, 0x30, 0b1000, 3, 0x31))
        .at(3, &[RfPerm(1, 3), RfPerm(0, 0)]);
    c.run(dut)
}

/// T5 remap mirror-y.
pub fn t5(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0011, 0x40))
        .frag(2, f(0b0011, 0x41))
        .at(3, &pair(0, 0b0011, 0x40, 0b1100, 2, 0x41));
    c.run(dut)
}

/// T5b remap mirror-x.
pub fn t5b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0101, 0x42))
        .frag(2, f(0b0101, 0x43))
        .at(3, &pair(0, 0b0101, 0x42, 0b1010, 1, 0x43));
    c.run(dut)
}

/// T6 row + diagonal is not mergeable (changed: second single a_tgid 2).
pub fn t6(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0011, 0x20))
        .frag(2, f(0b0110, 0x21))
        .at(3, &single(0, 0b0011, 0x20))
        .at(3, &[PendValid(true)])
        .during(4, 7, &[GrpValid(false), PendValid(true)])
        .at(8, &single(2, 0b0110, 0x21))
        .at(8, &[PendValid(false)]);
    c.run(dut)
}

/// T7 remap disabled.
pub fn t7(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x50))
        .frag(2, f(0b0001, 0x51))
        .at(3, &single(0, 0b0111, 0x50))
        .at(3, &[PendValid(true)]);
    c.run(dut)
}

/// T8 a primitive change flushes; no cross-primitive pairing.
pub fn t8(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x60))
        .frag(2, f(0b1000, 0x61).prim(2))
        .at(2, &[FragReady(false)])
        .at(3, &single(0, 0b0111, 0x60))
        .at(3, &[FragReady(true)])
        .at(4, &[PendValid(true), GrpValid(false)]);
    c.run(dut)
}

/// T9 hold expiry.
pub fn t9(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x70))
        .during(2, 6, &[GrpValid(false), PendValid(true)])
        .at(7, &single(0, 0b0111, 0x70))
        .at(7, &[PendValid(false)]);
    c.run(dut)
}

/// T9b pair_hold 0 holds until an explicit flush.
pub fn t9b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x71))
        .flush(20)
        .during(2, 20, &[PendValid(true), GrpValid(false)])
        .at(21, &single(0, 0b0111, 0x71))
        .at(21, &[PendValid(false)]);
    c.run(dut)
}

/// T10 the last fragment of a primitive is not held.
pub fn t10(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0x80).last())
        .at(2, &single(0, 0b0111, 0x80))
        .at(2, &[PendValid(false)]);
    c.run(dut)
}

/// T11 a full fragment passes a pending partial one (changed: pair 2/3, free_cnt 2).
pub fn t11(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 1))
        .frag(2, f(0b1111, 2))
        .frag(3, f(0b1000, 3))
        .at(3, &single(0, 0b1111, 2))
        .at(3, &[PendValid(true)])
        .at(4, &pair(2, 0b0111, 1, 0b1000, 0, 3))
        .at(4, &[FreeCnt(2)]);
    c.run(dut)
}

/// T12 merge, A first (changed: free_cnt 3, + wb_active, wb_orig_lane).
pub fn t12(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t12(&mut c);
    c.during(11, 13, &[RspValid(false), State(0, WAIT)])
        .at(14, &rsp(0, true, 0b1111))
        .at(14, &[FreeCnt(3), State(1, FREE), State(0, POST), MergeCount(1)])
        .at(14, &[RfWmask(0, 0b1111), RfExec(0, 0b1111), RfPost(0, true)])
        .at(
            14,
            &[
                WbLaneSrc(0, 0b1000),
                WbTagSelf(0, 0x10),
                WbTagPartner(0, 0x11),
                WbPermPartner(0, 0),
                WbActive(0, 0b1111),
                WbOrig(0, [0, 1, 2, 3]),
            ],
        );
    c.run(dut)
}

/// T13 merge, B first: the survivor is still A.
pub fn t13(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 1).me(12, 0).at(13, &rsp(0, true, 0b1111));
    c.run(dut)
}

/// T14 write-back mapping with remap (+ wb_orig_lane 0, 1, 2, 0).
pub fn t14(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t4(&mut c);
    c.me(10, 0)
        .me(11, 1)
        .at(12, &[RspValid(true), RspMerged(true), RspActive(0b1111)])
        .at(
            12,
            &[
                WbLaneSrc(0, 0b1000),
                WbPermSelf(0, 0),
                WbPermPartner(0, 3),
                WbTagSelf(0, 0x30),
                WbTagPartner(0, 0x31),
                WbOrig(0, [0, 1, 2, 0]),
            ],
        );
    c.run(dut)
}

fn setup_t15(c: &mut Case) {
    c.frag(1, f(0b0111, 0x90).last()).me(5, 0);
    c.at(6, &rsp(0, false, 0b0111))
        .at(6, &[RfExec(0, 0b0111), RfWmask(0, 0b0111), RfPost(0, true)]);
}

/// T15 unpaired group: me resumes without merge, helpers stop.
pub fn t15(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t15(&mut c);
    c.run(dut)
}

/// T15b me in POST is a NOP with a response.
pub fn t15b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t15(&mut c);
    c.me(8, 0).at(9, &rsp(0, false, 0b0111)).at(9, &[ErrProto(false)]);
    c.run(dut)
}

/// T16 timeout (changed: free_cnt stays 3).
pub fn t16(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(20, 0)
        .me(40, 1)
        .during(21, 36, &[RspValid(false), State(0, WAIT)])
        .at(37, &rsp(0, false, 0b0111))
        .at(37, &[Broken(0, true), State(0, POST), FreeCnt(3)])
        .at(41, &rsp(1, false, 0b1000))
        .at(41, &[FreeCnt(3), MergeCount(0)]);
    c.run(dut)
}

/// T16b timeout boundary: the merge wins.
pub fn t16b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(20, 0)
        .me(36, 1)
        .during(21, 36, &[RspValid(false)])
        .at(37, &rsp(0, true, 0b1111))
        .during(38, 40, &[RspValid(false), MergeCount(1)]);
    c.run(dut)
}

/// T17 B terminates before the merge (changed: free_cnt 3, new group tgid 2).
pub fn t17(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.term(10, 1)
        .frag(11, f(0b1111, 0x55))
        .me(14, 0)
        .at(11, &[FreeCnt(3), Broken(0, true), State(1, FREE)])
        .at(12, &single(2, 0b1111, 0x55))
        .at(12, &[State(2, PRE)])
        .at(15, &rsp(0, false, 0b0111))
        .at(15, &[State(2, PRE)]);
    c.run(dut)
}

/// T18 A terminates before the merge; no ZOMBIE (changed: A FREE, free_cnt 3, then 4).
pub fn t18(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.term(10, 0)
        .me(12, 1)
        .term(20, 1)
        .frag(21, f(0b1111, 0x77))
        .at(11, &[State(0, FREE), FreeCnt(3), Broken(0, true)])
        .at(13, &rsp(1, false, 0b1000))
        .at(21, &[FreeCnt(4), State(0, FREE)])
        .at(22, &single(0, 0b1111, 0x77));
    c.run(dut)
}

/// T19 the partner terminates while the other waits (changed: free_cnt 3).
pub fn t19(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 0)
        .term(12, 1)
        .at(13, &rsp(0, false, 0b0111))
        .at(13, &[FreeCnt(3)]);
    c.run(dut)
}

/// T19b A terminates while B waits (changed: A FREE, free_cnt 3, then 4).
pub fn t19b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 1)
        .term(12, 0)
        .term(16, 1)
        .at(13, &rsp(1, false, 0b1000))
        .at(13, &[State(0, FREE), FreeCnt(3)])
        .at(17, &[FreeCnt(4)]);
    c.run(dut)
}

/// T20 a discard before the merge shrinks the union.
pub fn t20(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.disc(10, 0, 0b0001)
        .me(12, 0)
        .me(13, 1)
        .at(11, &[RfWmask(0, 0b0110), RfExec(0, 0b1111)])
        .at(14, &rsp(0, true, 0b1110))
        .at(14, &[WbLaneSrc(0, 0b1000)]);
    c.run(dut)
}

/// T21 a 1+1 merge leaves inactive lanes.
pub fn t21(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0001, 1))
        .frag(2, f(0b0010, 2))
        .me(10, 0)
        .me(11, 1)
        .at(3, &pair(0, 0b0001, 1, 0b0010, 0, 2))
        .at(12, &rsp(0, true, 0b0011))
        .at(12, &[RfExec(0, 0b0011)]);
    c.run(dut)
}

/// T22 a cross-lane op after the merge sets err_xlane, sticky.
pub fn t22(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t12(&mut c);
    c.xl(20, 0)
        .during(14, 20, &[ErrXlane(false)])
        .during(21, 25, &[ErrXlane(true)]);
    c.run(dut)
}

/// T22b (T22's "separately"): cross-lane ops of PRE and WAIT groups are fine.
pub fn t22b(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.xl(5, 0)
        .me(10, 0)
        .xl(12, 0)
        .xl(13, 1)
        .at(12, &[State(0, WAIT)])
        .during(6, 15, &[ErrXlane(false), ErrProto(false)]);
    c.run(dut)
}

/// T23 output back-pressure (changed: second descriptor a_tgid 2).
pub fn t23(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.grp_block(2, 4)
        .frag(1, f(0b1111, 1))
        .frag(2, f(0b1111, 2))
        .during(2, 5, &single(0, 0b1111, 1))
        .during(2, 4, &[FragReady(false)])
        .at(5, &[FragReady(true)])
        .at(6, &single(2, 0b1111, 2));
    c.run(dut)
}

/// T24 (rewritten) slot exhaustion.
pub fn t24(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    for k in 1..=4 {
        c.frag(k, f(0b1111, k as u64));
    }
    c.frag(5, f(0b1111, 5))
        .term(7, 2)
        .at(2, &[ATgid(0)])
        .at(3, &[ATgid(2)])
        .at(4, &[ATgid(4)])
        .at(5, &[ATgid(6)])
        .during(5, 7, &[FragReady(false), FreeCnt(0)])
        .at(8, &[FreeCnt(1), FragReady(true)])
        .at(9, &single(2, 0b1111, 5));
    c.run(dut)
}

/// T25 response-port arbitration (+ @16 st_owe[0] = 1).
pub fn t25(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0xa))
        .frag(2, f(0b1000, 0xb))
        .frag(3, f(0b0111, 0xc))
        .frag(4, f(0b1000, 0xd))
        .me(10, 0)
        .me(11, 2)
        .term(15, 1)
        .me(15, 3)
        .at(3, &pair(0, 0b0111, 0xa, 0b1000, 0, 0xb))
        .at(5, &pair(2, 0b0111, 0xc, 0b1000, 0, 0xd))
        .at(16, &rsp(2, true, 0b1111))
        .at(16, &[Owe(0, true)])
        .at(17, &rsp(0, false, 0b0111))
        .at(17, &[Owe(0, false)])
        .at(18, &[RspValid(false)]);
    c.run(dut)
}

/// T26 same-edge term of the partner and me (changed: free_cnt 3).
pub fn t26(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.term(10, 1)
        .me(10, 0)
        .at(11, &rsp(0, false, 0b0111))
        .at(11, &[FreeCnt(3)]);
    c.run(dut)
}

/// T27 me for a FREE group (tgid 5 = slot 2 member 1).
pub fn t27(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b1111, 0xA0))
        .me(5, 5)
        .at(5, &[ErrProto(false), MeReady(true)])
        .at(6, &[ErrProto(true), RspValid(false)]);
    c.run(dut)
}

/// T28 lanes 8: one remap for both quads.
pub fn t28(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0001_0111, 1))
        .frag(2, f(0b0001_0001, 2))
        .at(3, &pair(0, 0b0001_0111, 1, 0b1000_1000, 3, 2));
    c.run(dut)
}

// ---- contract cases K1–K4 ---------------------------------------------------------------

/// K1 rsp back-pressure holds the response and refuses me.
pub fn k1(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b1111, 1))
        .frag(2, f(0b1111, 2))
        .me(5, 0)
        .me(6, 2)
        .rsp_block(6, 8)
        .at(2, &single(0, 0b1111, 1))
        .at(3, &single(2, 0b1111, 2))
        .during(6, 9, &rsp(0, false, 0b1111))
        .during(6, 8, &[MeReady(false)])
        .at(9, &[MeReady(true)])
        .at(10, &rsp(2, false, 0b1111));
    c.run(dut)
}

/// K2 an owed resume behind a blocked response.
pub fn k2(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.frag(3, f(0b1111, 0x12))
        .me(9, 0)
        .me(10, 2)
        .term(11, 1)
        .rsp_block(11, 13)
        .at(4, &single(2, 0b1111, 0x12))
        .during(11, 14, &rsp(2, false, 0b1111))
        .during(12, 14, &[Owe(0, true)])
        .during(11, 13, &[MeReady(false)])
        .at(15, &rsp(0, false, 0b0111))
        .at(15, &[Owe(0, false)]);
    c.run(dut)
}

/// K3 slots 1: a pair in the one slot merges; the slot frees when A terminates.
pub fn k3(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.frag(3, f(0b1111, 0x12))
        .me(5, 1)
        .me(6, 0)
        .term(8, 0)
        .at(3, &pair(0, 0b0111, 0x10, 0b1000, 0, 0x11))
        .at(3, &[FreeCnt(0)])
        .during(3, 8, &[FragReady(false)])
        .at(7, &rsp(0, true, 0b1111))
        .at(9, &[FreeCnt(1), FragReady(true)])
        .at(10, &single(0, 0b1111, 0x12));
    c.run(dut)
}

/// K4 a fragment with cov 0 only sets err_proto.
pub fn k4(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0000, 1)).at(1, &[FragReady(true)]).at(
        2,
        &[ErrProto(true), PendValid(false), GrpValid(false), FreeCnt(4)],
    );
    c.run(dut)
}

// ---- cases for behaviour only the contract defines ----------------------------------------

/// X01 (R2, R8, R10, R13; slots 3): ids 6 and 7 name nothing; a FREE member looks up 0.
pub fn x01(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    for k in 1..=4 {
        c.frag(k, f(0b1111, k as u64));
    }
    c.me(5, 6)
        .disc(6, 7, 0b1111)
        .term(7, 7)
        .at(1, &[FreeCnt(3)])
        .at(4, &[ATgid(4), FreeCnt(0)])
        .during(4, 8, &[FragReady(false)])
        .at(
            5,
            &[
                RfWmask(6, 0),
                RfExec(6, 0),
                RfPost(6, false),
                WbActive(6, 0),
                WbTagSelf(6, 0),
            ],
        )
        .at(
            5,
            &[
                RfExec(7, 0),
                RfExec(5, 0),
                WbOrig(5, [0, 0, 0, 0]),
                RfExec(4, 0b1111),
            ],
        )
        .at(5, &[ErrProto(false)])
        .at(6, &[ErrProto(true), RspValid(false)])
        .at(8, &[FreeCnt(0), State(4, PRE), State(5, FREE)]);
    c.run(dut)
}

/// K2's stimulus up to an owed resume of group 0 behind a response blocked in 11–14.
fn setup_owed(c: &mut Case) {
    setup_t3(c);
    c.frag(3, f(0b1111, 0x12))
        .me(9, 0)
        .me(10, 2)
        .term(11, 1)
        .rsp_block(11, 14);
    c.during(11, 15, &rsp(2, false, 0b1111))
        .during(12, 13, &[Owe(0, true)]);
}

/// X02 (D7, R8): a term of the owed group cancels its resume.
pub fn x02(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_owed(&mut c);
    c.term(13, 0)
        .at(14, &[Owe(0, false), State(0, FREE), FreeCnt(3)])
        .during(16, 18, &[RspValid(false)]);
    c.run(dut)
}

/// X03 (D7, R10): a me response of the owed group replaces its resume.
pub fn x03(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_owed(&mut c);
    c.me(13, 0)
        .during(13, 14, &[MeReady(false)])
        .at(15, &[MeReady(true)])
        .at(16, &rsp(0, false, 0b0111))
        .at(16, &[Owe(0, false)])
        .during(17, 18, &[RspValid(false)]);
    c.run(dut)
}

/// X04 (R3, R9, D7): disc on a WAIT group is an error; disc and me at one edge: the
/// merge and `rsp_active` see the discard.
pub fn x04(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 1)
        .disc(11, 1, 0b1000)
        .disc(12, 0, 0b0010)
        .me(12, 0)
        .at(11, &[ErrProto(false), State(1, WAIT)])
        .at(12, &[ErrProto(true)])
        .at(13, &rsp(0, true, 0b1101))
        .at(13, &[WbActive(0, 0b1101), WbLaneSrc(0, 0b1000)]);
    c.run(dut)
}

/// X05 (R4 E1): a full last fragment marks the candidate last; it leaves alone next edge
/// and a later partial fragment is not paired with it.
pub fn x05(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 1))
        .frag(2, f(0b1111, 2).last())
        .frag(3, f(0b1000, 3))
        .at(3, &single(0, 0b1111, 2))
        .at(3, &[PendValid(true), FragReady(false)])
        .at(4, &single(2, 0b0111, 1))
        .at(4, &[PendValid(false), FragReady(true)])
        .at(5, &[PendValid(true), GrpValid(false)]);
    c.run(dut)
}

/// X06 (D3, R13): a discard after the merge shrinks wb_active, B's record stays frozen;
/// the retired B is FREE.
pub fn x06(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t12(&mut c);
    c.disc(15, 0, 0b1001)
        .disc(17, 1, 0b0001)
        .at(
            16,
            &[
                WbActive(0, 0b0110),
                WbLaneSrc(0, 0b1000),
                RfExec(0, 0b0110),
                WbTagPartner(0, 0x11),
                WbOrig(0, [0, 1, 2, 3]),
                Active(0, 0b0110),
            ],
        )
        .at(17, &[ErrProto(false)])
        .at(18, &[ErrProto(true)]);
    c.run(dut)
}

/// X07 (R14): err_xlane is judged on the state at the start of the cycle.
pub fn x07(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    setup_t3(&mut c);
    c.me(10, 1)
        .me(12, 0)
        .xl(12, 0)
        .xl(13, 0)
        .at(13, &[ErrXlane(false), RspValid(true), RspMerged(true)])
        .at(14, &[ErrXlane(true)]);
    c.run(dut)
}

/// X08 (R12): owed resumes leave lowest tgid first, behind a blocked response.
pub fn x08(dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
    let mut c = Case::new();
    c.frag(1, f(0b0111, 0xa))
        .frag(2, f(0b1000, 0xb))
        .frag(3, f(0b0111, 0xc))
        .frag(4, f(0b1000, 0xd))
        .frag(5, f(0b1111, 0xe))
        .me(10, 0)
        .me(11, 2)
        .me(12, 4)
        .rsp_block(13, 15)
        .term(13, 3)
        .term(14, 1)
        .at(6, &single(4, 0b1111, 0xe))
        .during(13, 16, &rsp(4, false, 0b1111))
        .at(14, &[Owe(2, true), Owe(0, false)])
        .at(15, &[Owe(0, true), Owe(2, true)])
        .at(17, &rsp(0, false, 0b0111))
        .at(18, &rsp(2, false, 0b0111))
        .at(19, &[RspValid(false)]);
    c.run(dut)
}

// ---- exhaustive pair table (contract §6) -----------------------------------------------

/// Physical lane of logical in-quad sample i under remap p (claim 6 / R5), as a table:
/// p 1 swaps the columns, p 2 the rows, p 3 both.
const LANE_OF: [[usize; 4]; 4] = [[0, 1, 2, 3], [1, 0, 3, 2], [2, 3, 0, 1], [3, 2, 1, 0]];

/// `m` with every sample moved to its lane under remap p.
fn remapped(m: u64, p: usize) -> u64 {
    (0..4)
        .filter(|&i| m & (1 << i) != 0)
        .map(|i| 1u64 << LANE_OF[p][i])
        .sum()
}

/// The decision of R5, written from the contract for the test: the first remap (identity
/// first; only identity without remap) that makes the masks disjoint.
pub fn pair_decision(a: u64, b: u64, remap: bool) -> Option<usize> {
    let tries = if remap { 4 } else { 1 };
    (0..tries).find(|&p| a & remapped(b, p) == 0)
}

/// What the pair table saw on a DUT.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PairTable {
    /// Ordered pairs paired, without / with remap.
    pub merges: [usize; 2],
    /// With remap: pairs by chosen p.
    pub by_perm: [usize; 4],
    /// (popcount a, popcount b) → (identity, remap, total).
    pub classes: BTreeMap<(u32, u32), (usize, usize, usize)>,
}

/// Drive every ordered pair of partial 4-lane masks through DUTs from `make` (C0 with remap
/// off and on): reset; F{a} @1, F{b} @2; @3 the pair with the expected perm and b_cov, or
/// the single a with the candidate held. Checks the hard-coded counts of contract §6.
pub fn pair_table(
    make: &mut dyn FnMut(&ThreadMergeParams) -> Box<dyn Dut<ThreadMerge>>,
) -> Result<PairTable, String> {
    let mut t = PairTable::default();
    for remap in [false, true] {
        let p = ThreadMergeParams {
            remap,
            ..ThreadMergeParams::contract_default()
        };
        let mut dut = make(&p);
        for a in 1..=14u64 {
            for b in 1..=14u64 {
                let mut c = Case::new();
                c.frag(1, f(a, 0xA)).frag(2, f(b, 0xB));
                let want = pair_decision(a, b, remap);
                match want {
                    Some(pp) => c.at(3, &pair(0, a, 0xA, remapped(b, pp), pp as u8, 0xB)),
                    None => c.at(3, &single(0, a, 0xA)),
                };
                c.at(3, &[PendValid(want.is_none())]);
                c.run(dut.as_mut())
                    .map_err(|e| format!("pair table remap={remap} a={a:04b} b={b:04b}: {e}"))?;
                let cls = t.classes.entry((a.count_ones(), b.count_ones())).or_default();
                if let Some(pp) = want {
                    t.merges[usize::from(remap)] += 1;
                    if remap {
                        t.by_perm[pp] += 1;
                        cls.1 += 1;
                    } else {
                        cls.0 += 1;
                    }
                }
                if remap {
                    cls.2 += 1;
                }
            }
        }
    }
    check_pair_counts(&t)?;
    Ok(t)
}

/// The counts of contract §6 (checked by enumeration there), hard-coded.
fn check_pair_counts(t: &PairTable) -> Result<(), String> {
    let mut errs = Vec::new();
    if t.merges != [50, 108] {
        errs.push(format!(
            "merges without/with remap {:?}, want [50, 108]",
            t.merges
        ));
    }
    if t.by_perm != [50, 32, 18, 8] {
        errs.push(format!("first p {:?}, want [50, 32, 18, 8]", t.by_perm));
    }
    let want: [((u32, u32), (usize, usize, usize)); 9] = [
        ((1, 1), (12, 16, 16)),
        ((1, 2), (12, 24, 24)),
        ((2, 1), (12, 24, 24)),
        ((1, 3), (4, 16, 16)),
        ((3, 1), (4, 16, 16)),
        ((2, 2), (6, 12, 36)),
        ((2, 3), (0, 0, 24)),
        ((3, 2), (0, 0, 24)),
        ((3, 3), (0, 0, 16)),
    ];
    for (k, v) in want {
        if t.classes.get(&k) != Some(&v) {
            errs.push(format!(
                "class {}+{}: {:?}, want {v:?}",
                k.0,
                k.1,
                t.classes.get(&k)
            ));
        }
    }
    if t.classes.len() != 9 {
        errs.push(format!("{} classes, want 9", t.classes.len()));
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs.join("; "))
    }
}
