//! The case runner: fragments, events and expected outputs by cycle (the conventions of
//! contract R1, §6), the shared descriptor/response expectations and stimulus setups.

use super::*;
use std::collections::{BTreeMap, VecDeque};

// ---- the case runner -----------------------------------------------------------------

/// A fragment {cov, tag, prim, last}.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frag {
    cov: u64,
    tag: u64,
    prim: u64,
    last: bool,
}

/// F{cov, tag} with prim 1.
pub(super) fn f(cov: u64, tag: u64) -> Frag {
    Frag {
        cov,
        tag,
        prim: 1,
        last: false,
    }
}

impl Frag {
    pub(super) fn last(self) -> Self {
        Frag { last: true, ..self }
    }
    pub(super) fn prim(self, prim: u64) -> Self {
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
    PerfClr,
    ErrClr,
}

/// One expected output value. Lookup expectations name the id driven on rf_tgid/wb_tgid.
#[derive(Debug, Clone, Copy)]
pub(super) enum Exp {
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
    /// `perf_val` with `perf_sel` driven to the first value in this cycle (R16).
    PerfVal(u64, u64),
    /// R20 (`merge_ways` > 2): the descriptor's member C, its member D (W = 4).
    CValid(bool),
    CTgid(u64),
    CCov(u64),
    CPerm(u8),
    CTag(u64),
    DValid(bool),
    DTgid(u64),
    DCov(u64),
    DPerm(u8),
    DTag(u64),
    /// R20 `rsp_retire_mask` (bit j-1: member j retired).
    RspRetireMask(u64),
    /// R20 lookups: `wb_lane_mem` per lane (lanes 4), member C's and D's records.
    WbLaneMem(u64, [u8; 4]),
    WbTagC(u64, u64),
    WbPermC(u64, u8),
    WbTagD(u64, u64),
    WbPermD(u64, u8),
}
pub(super) use Exp::*;

pub(super) const FREE: u8 = 0;
pub(super) const PRE: u8 = 1;
pub(super) const WAIT: u8 = 2;
pub(super) const POST: u8 = 3;

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
            WbLaneMem(t, _) | WbTagC(t, _) | WbPermC(t, _) | WbTagD(t, _) | WbPermD(t, _) => Some(t),
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
            PerfVal(sel, e) => (format!("perf_val(perf_sel {sel})"), n(e), n(o.perf_val)),
            CValid(e) => ("grp_c_valid".into(), b(e), b(o.grp_c_valid)),
            CTgid(e) => ("grp_c_tgid".into(), n(e), n(o.grp_c_tgid)),
            CCov(e) => ("grp_c_cov".into(), m(e), m(o.grp_c_cov)),
            CPerm(e) => ("grp_c_perm".into(), e.to_string(), o.grp_c_perm.to_string()),
            CTag(e) => ("grp_c_tag".into(), h(e), h(o.grp_c_tag)),
            DValid(e) => ("grp_d_valid".into(), b(e), b(o.grp_d_valid)),
            DTgid(e) => ("grp_d_tgid".into(), n(e), n(o.grp_d_tgid)),
            DCov(e) => ("grp_d_cov".into(), m(e), m(o.grp_d_cov)),
            DPerm(e) => ("grp_d_perm".into(), e.to_string(), o.grp_d_perm.to_string()),
            DTag(e) => ("grp_d_tag".into(), h(e), h(o.grp_d_tag)),
            RspRetireMask(e) => ("rsp_retire_mask".into(), format!("{e:#05b}"), format!("{:#05b}", o.rsp_retire_mask)),
            WbLaneMem(t, e) => (
                format!("wb({t}).lane_mem"),
                format!("{e:?}"),
                format!("{:?}", o.wb_lane_mem),
            ),
            WbTagC(t, e) => (format!("wb({t}).tag_c"), h(e), h(o.wb_tag_c)),
            WbPermC(t, e) => (format!("wb({t}).perm_c"), e.to_string(), o.wb_perm_c.to_string()),
            WbTagD(t, e) => (format!("wb({t}).tag_d"), h(e), h(o.wb_tag_d)),
            WbPermD(t, e) => (format!("wb({t}).perm_d"), e.to_string(), o.wb_perm_d.to_string()),
        };
        (exp != act).then(|| format!("{sig} expected {exp}, actual {act}"))
    }
}

/// A case: stimulus and expectations by cycle.
pub(super) struct Case {
    frags: VecDeque<(u32, Frag)>,
    mes: VecDeque<(u32, u64)>,
    ev: Vec<(u32, Ev)>,
    exp: BTreeMap<u32, Vec<Exp>>,
}

impl Case {
    pub(super) fn new() -> Self {
        Case {
            frags: VecDeque::new(),
            mes: VecDeque::new(),
            ev: Vec::new(),
            exp: BTreeMap::new(),
        }
    }

    /// Present F from cycle `c` until accepted (after the fragments before it).
    pub(super) fn frag(&mut self, c: u32, fr: Frag) -> &mut Self {
        self.frags.push_back((c, fr));
        self
    }

    /// Present me{t} from cycle `c` until accepted.
    pub(super) fn me(&mut self, c: u32, t: u64) -> &mut Self {
        self.mes.push_back((c, t));
        self
    }

    pub(super) fn term(&mut self, c: u32, t: u64) -> &mut Self {
        self.ev.push((c, Ev::Term(t)));
        self
    }

    pub(super) fn disc(&mut self, c: u32, t: u64, mask: u64) -> &mut Self {
        self.ev.push((c, Ev::Disc(t, mask)));
        self
    }

    pub(super) fn xl(&mut self, c: u32, t: u64) -> &mut Self {
        self.ev.push((c, Ev::Xl(t)));
        self
    }

    /// `perf_clr` in cycle c (R16).
    pub(super) fn perf_clr(&mut self, c: u32) -> &mut Self {
        self.ev.push((c, Ev::PerfClr));
        self
    }

    /// `err_clr` in cycle c (R17).
    pub(super) fn err_clr(&mut self, c: u32) -> &mut Self {
        self.ev.push((c, Ev::ErrClr));
        self
    }

    pub(super) fn flush(&mut self, c: u32) -> &mut Self {
        self.ev.push((c, Ev::Flush));
        self
    }

    /// `grp_ready = 0` in cycles `from..=to`.
    pub(super) fn grp_block(&mut self, from: u32, to: u32) -> &mut Self {
        (from..=to).for_each(|c| self.ev.push((c, Ev::GrpReady(false))));
        self
    }

    /// `rsp_ready = 0` in cycles `from..=to`.
    pub(super) fn rsp_block(&mut self, from: u32, to: u32) -> &mut Self {
        (from..=to).for_each(|c| self.ev.push((c, Ev::RspReady(false))));
        self
    }

    /// Reset (with every valid at 0) in cycles `from..=to`.
    pub(super) fn reset(&mut self, from: u32, to: u32) -> &mut Self {
        (from..=to).for_each(|c| self.ev.push((c, Ev::Reset)));
        self
    }

    /// Expect `e` @c.
    pub(super) fn at(&mut self, c: u32, e: &[Exp]) -> &mut Self {
        self.exp.entry(c).or_default().extend_from_slice(e);
        self
    }

    /// Expect `e` @c for every c in `from..=to`.
    pub(super) fn during(&mut self, from: u32, to: u32, e: &[Exp]) -> &mut Self {
        (from..=to).for_each(|c| {
            self.at(c, e);
        });
        self
    }

    /// Run on `dut` from a reset in cycle 0 to the last cycle with an expectation.
    pub(super) fn run(&mut self, dut: &mut dyn Dut<ThreadMerge>) -> Result<(), String> {
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
                    Ev::PerfClr => i.perf_clr = true,
                    Ev::ErrClr => i.err_clr = true,
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
            if let Some(sel) = exp.iter().find_map(|e| if let PerfVal(sel, _) = e { Some(*sel) } else { None }) {
                i.perf_sel = sel;
            }
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
pub(super) fn single(t: u64, cov: u64, tag: u64) -> [Exp; 5] {
    [GrpValid(true), Paired(false), ATgid(t), ACov(cov), ATag(tag)]
}

/// A pair descriptor (b_tgid = a + 1).
pub(super) fn pair(a: u64, a_cov: u64, a_tag: u64, b_cov: u64, b_perm: u8, b_tag: u64) -> [Exp; 9] {
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
pub(super) fn rsp(t: u64, merged: bool, active: u64) -> Vec<Exp> {
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
pub(super) fn setup_t3(c: &mut Case) {
    c.frag(1, f(0b0111, 0x10)).frag(2, f(0b1000, 0x11));
}

/// T4's stimulus: F1{0111,0x30} @1, F2{0001,0x31} @2 → pair with rot180 @3.
pub(super) fn setup_t4(c: &mut Case) {
    c.frag(1, f(0b0111, 0x30)).frag(2, f(0b0001, 0x31));
}

/// T12's stimulus: T3; me{0} @10; me{1} @13 (merge at edge 13).
pub(super) fn setup_t12(c: &mut Case) {
    setup_t3(c);
    c.me(10, 0).me(13, 1);
}

/// The reset state's observable outputs (C0).
pub(super) fn clean() -> Vec<Exp> {
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
