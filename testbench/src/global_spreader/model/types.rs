//! The model's value types: VDT and PT entries (D9), a slot's evaluation, requests and grants
//! (R4–R7), the stored registers (contract §2.1), slots, and the mutations of the mutation tests.

use super::{GlobalSpreaderParams, Packet, PerKind, PATCH, TRI, VTX};

/// A VDT entry {tag, eu, ent, grp} (D9).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct VdtEntry {
    pub tag: u64,
    pub eu: usize,
    pub ent: u64,
    pub grp: u64,
}

/// A PT entry {eu, ent} (D9).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PtEntry {
    pub eu: usize,
    pub ent: u64,
}

/// One reference of a request (R4); fields are 0 when not valid.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Ref {
    pub valid: bool,
    pub eu: usize,
    pub ent: u64,
    pub elem: u64,
    pub grp: u64,
}

/// The evaluation of one occupied slot in one cycle (R4–R6).
#[derive(Debug, Clone)]
pub struct Eval {
    pub base: u64,
    pub blocked: bool,
    /// R15: the way a VTX / PATCH takes, the lowest free one (0 if blocked, for the other
    /// types, and always when direct mapped).
    pub way: usize,
    pub refs: [Ref; 3],
    pub home: Option<usize>,
    /// fp_k = size_k + FRAME_RES[type][k] per kind k, exact (R16; one kind: fp in [0]).
    pub fp: PerKind,
    /// Candidates in order, with their fit.
    pub cands: Vec<(usize, bool)>,
    pub sel: Option<usize>,
}

/// A request as presented on `ar_*` (and what its ack applies).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub pkt: Packet,
    pub target: usize,
    pub base: u64,
    /// R15: `ar_vdt_way` (VTX / PATCH; 0 for the other types); a held request keeps it.
    pub way: usize,
    /// `ar_footprint`, fp_k per kind (R16).
    pub fp: PerKind,
    pub refs: [Ref; 3],
}

impl Request {
    pub fn ty(&self) -> usize {
        self.pkt.ty
    }
    /// `ar_global_ref`: some valid ref's EU differs from the target.
    pub fn global_ref(&self) -> bool {
        self.refs.iter().any(|r| r.valid && r.eu != self.target)
    }
    pub fn vcount(&self) -> u64 {
        match self.pkt.ty {
            VTX => self.pkt.count,
            PATCH => 16,
            TRI => 3,
            _ => 0,
        }
    }
}

/// The grant of one cycle.
#[derive(Debug, Clone)]
pub struct Grant {
    pub req: Request,
    /// Not a re-presentation of a held request.
    pub new: bool,
}

/// Everything decided in a cycle from the registered state (no inputs).
#[derive(Debug, Clone)]
pub struct Decision {
    /// Evaluation of each occupied slot, by type code.
    pub evals: [Option<Eval>; 4],
    pub grant: Option<Grant>,
}

/// Model mutations for the mutation tests (test builds only; the default is none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) enum Mutation {
    Off,
    /// The fit sees FREE_RES/FREE_EDT of one edge earlier (debit not forwarded).
    StaleFree,
    /// TRI/PIX references read the tables of one edge earlier (dispatch write not forwarded).
    StaleTables,
    /// A refusal does not add the EU to the refused mask.
    RefuseNoMask,
    /// A slot with no sel keeps its refused mask.
    MaskNeverCleared,
    /// The home candidate is used even when not in DED_MASK.
    HomeIgnoresDedicated,
    /// TRI home is always the first valid ref (no majority).
    NoMajority,
    /// YIELD_EN is ignored: always the first eligible slot.
    AlwaysYield,
    /// A held request is re-evaluated (target and payload may change).
    NotSticky,
    /// REJECT_CNT also counts on re-presentations of a held request.
    RejectOnEveryCycle,
    /// `*_ready` only when the slot is empty (no reload in the ack cycle).
    ReadyOnlyWhenEmpty,
    /// PEND +1 and −1 at one edge do not cancel (the decrement is dropped).
    PendNoCancel,
    /// A non-indexed PATCH takes AUTO_IDX without rounding up to 16.
    PatchNoRound,
    /// Refuse wins when an EU asserts both `ar_ready` and `ar_refuse`.
    RefuseWins,
    /// A W1C write clears a flag even when it is set at the same edge.
    ClearWins,
    /// An event in the cycle of `perf_clr` is counted (the clear loses; rule G1).
    PerfClrLoses,
    /// `err_clr` clears a flag even when the same edge sets it (rule G2).
    ErrClrWins,
    /// least_loaded: a tie goes to the last in PRIO order, not the first (R6).
    LoadedTiesToLast,
    /// least_loaded: the home is not preferred (taken only as the PRIO rule would) (R6).
    LoadedIgnoresHome,
    /// round_robin: the home is not preferred (taken only as the pointer rule would) (R6).
    RoundRobinIgnoresHome,
    /// round_robin: RR_PTR also moves past an EU that refuses (R6 moves it on an ack only).
    RoundRobinOnRefuse,
    /// round_robin: RR_PTR holds at an ack to the home (it moves at every ack, R6).
    RoundRobinHomeAckHolds,
    /// round_robin: with no open PRIO candidate at or after RR_PTR, the first in PRIO order
    /// instead of the lowest EU (no circular wrap).
    RoundRobinNoWrap,
    /// aging: the limit has no effect (R7 as written).
    AgingIgnored,
    /// aging: a slot is aged only past the limit (AGE > limit, not >=).
    AgingPastLimit,
    /// aging: AGE also grows in cycles that re-present a held request.
    AgingWhileHeld,
    /// class priority: the ranks have no effect (the fixed order, R7 as written).
    RankIgnored,
    /// class priority: equal ranks are broken by type code, not by the fixed order.
    RankTiesByCode,
    /// class priority: CLASS_PRIO's field k (bits [2k+1:2k]) is the rank of the k-th type of
    /// the fixed order (pixel, triangle, patch, vertex), not of type code k.
    RankFieldsByPosition,
    /// class priority: CLASS_PRIO stores (and reads back) the bits of an absent type.
    RankStoresAbsent,
    /// pixel order (R14): `po_valid` = COUNT > 0, whether or not HEAD is done.
    RobPopBeforeDone,
    /// pixel order: a PIX packet is not blocked while the ROB is full (COUNT saturates at D).
    RobFullIgnored,
    /// pixel order: the pop happens whenever `po_valid`, whatever `po_ready`.
    RobPopIgnoresReady,
    /// pixel order: `ar_seq` is HEAD, not TAIL.
    RobSeqFromHead,
    /// pixel order: an ack and a pop at one edge leave COUNT + 1 (the pop's decrement lost).
    RobAckPopLosesPop,
    /// pixel order: a completion sets DONE of any entry, outstanding or not, and an ack does
    /// not clear the DONE of the entry it makes outstanding.
    RobCompleteAny,
    /// set-associative VDT (R15): the ways are ignored: a VTX / PATCH takes way 0 of its set
    /// and is blocked while it is taken, refs look in way 0 only (direct mapped on S sets).
    WaysIgnored,
    /// set-associative VDT: a VTX / PATCH takes the highest free way, not the lowest.
    WayHighestFree,
    /// set-associative VDT: a ref whose tag two ways hold takes the highest such way.
    RefHighestWay,
    /// set-associative VDT: the tag is i >> (log2 VGRP + VDT_AW) (§2's), not + SET_W.
    TagFromVdtAw,
    /// set-associative VDT: each of a patch's groups takes its own lowest free way (blocked only
    /// when some group has none), instead of one way free for all PG groups.
    PatchSplitWays,
    /// set-associative VDT: a held triangle's valid refs are looked up again in every cycle
    /// (the lowest hitting way's entry, way 0's when none hits), so a release during the hold
    /// changes them (R7 keeps the payload).
    HeldRefsRelooked,
    /// resource kinds (R16): the fit looks at kind 0 only (kinds >= 1 always fit).
    KindsIgnoredInFit,
    /// resource kinds: an ack debits kind 0's fp from every kind.
    DebitKind0Everywhere,
    /// resource kinds: MIN_RES of kind 0 is every kind's threshold.
    MinResKind0,
    /// resource kinds: a clamp of a kind >= 1 does not set `err_credit`.
    ClampKind0Only,
    /// resource kinds: a RES_TOTAL[e][k] write (k >= 1) leaves FREE_RES[e][k].
    KindTotalKeepsFree,
}

/// The registers of contract §2.1 that are stored (the rest are counters or state).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Regs {
    pub en: bool,
    pub locality: bool,
    pub yield_en: bool,
    pub eu_enable: u64,
    pub auto_idx: u64,
    pub ded_mask: [u64; 4],
    /// MIN_RES[t][k], FRAME_RES[t][k] by type code, then kind (R16; one kind: [t][0]).
    pub min_res: [PerKind; 4],
    pub frame_res: [PerKind; 4],
    /// RES_TOTAL[e][k] by EU, then kind.
    pub res_total: Vec<PerKind>,
    pub edt_total: Vec<u64>,
    /// PRIO[t][s], PRIO_W-bit values.
    pub prio: [Vec<u64>; 4],
    /// RANK[t] by type code (R7b, 2 bits; absent types 0): the register CLASS_PRIO with
    /// `class_priority_reg`, else constant.
    pub class_rank: [u64; 4],
}

impl Regs {
    /// The reset values (from the parameters, i.e. the TOML).
    pub fn reset(p: &GlobalSpreaderParams) -> Self {
        Regs {
            en: p.enable,
            locality: p.locality,
            yield_en: p.yield_enable,
            eu_enable: p.eu_enable,
            auto_idx: 0,
            ded_mask: p.dedicated,
            min_res: std::array::from_fn(|t| p.per_kind(|k| p.min_res_of(t, k))),
            frame_res: std::array::from_fn(|t| p.per_kind(|k| p.frame_res_of(t, k))),
            res_total: (0..p.eus).map(|e| p.per_kind(|k| p.res_total_of(k)[e])).collect(),
            edt_total: p.edt_total.clone(),
            prio: std::array::from_fn(|t| (0..p.eus).map(|s| p.prio_reset(t, s)).collect()),
            class_rank: p.class_rank_reset(),
        }
    }
}

/// A slot: the packet taken in and its refused mask.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    pub pkt: Packet,
    pub mask: u64,
}
