//! Cycle-level reference model of the `thread_merge` block (thread-group merging of
//! partially covered fragment quads, ARM GB 1513425.7), written from
//! `docs/contracts/thread_merge.md` (which wins) and `docs/spec/thread_merge.md` §2, §4.4, §5
//! only — never from the RTL.
//!
//! * Contract R4 (spec §5.5.2) — one candidate register `pend`; E0 flush, E1 full fragment,
//!   E2 first partial, E3 pair or replace; `frag_ready = out_ok && free_cnt >= 1 && !flush_now`.
//!   R19 (`candidates` = K) makes it a queue of K, the oldest first ([`candidates`]): F pairs
//!   with the oldest held fragment it fits, and an unpaired F is held without pushing the
//!   oldest out while the queue has room.
//! * R5 (§2.6, §5.5.1) — [`xperm`], [`merge_perm`]: the first of p = 0, 1, 2, 3 (only 0
//!   without remap) with `a & xperm(b, p) == 0`.
//! * R7, D2 — a pair takes ONE merge slot s: `tgid = 2s + member`, A = member 0.
//! * R20 (`merge_ways` = W > 2) — [`ways`]: a slot has four members (`tgid = 4s + m`), the
//!   candidate holds a set of up to W-1 fragments that leave together when W are gathered,
//!   their coverage is full, or the run ends; a term of a set member breaks the set, the
//!   set merges when its last member reaches me, a timeout resumes every waiting member.
//! * R8–R11 (§5.5.4–§5.5.7) — [`events`]: term, disc, me, timeouts, in this order at every
//!   edge, each seeing the previous steps' results; the wait counter is per slot.
//! * R12, D4 — the registered response channel with `rsp_ready`; a me response beats the
//!   owed resume of the lowest tgid.
//! * R13, D3 — [`lookup`]: combinational `rf_*`/`wb_*` lookups on registered state only; B's record
//!   (active mask, tag, perm) stays in the slot after B retires and is A's partner record.
//! * R14, R15 — sticky errors, `err_xlane` judged on the state at the start of the cycle;
//!   synchronous active-high reset.
//! * R18 (`cross_primitive`) — a primitive change is not a reason for the candidate to leave
//!   ([`ThreadMergeModel::flush_now`]'s primitive term is off), so fragments of any primitives
//!   pair; `frag_last`, `flush` and the hold still end a candidate's wait.
//! * R16, R17 (`perf_counters`, docs/perf.md) — [`perf`]: the events of a cycle from S0 and
//!   the inputs (the error events: an error flag set by this edge's rules), 32-bit
//!   saturating counters cleared by `perf_clr` and reset; `err_clr` clears both flags before
//!   this edge's errors set them again. Without the key the model ignores the three inputs.
//!
//! Cycle timing: [`ThreadMergeModel::outputs`] is the combinational view of the current
//! cycle (registered outputs plus `frag_ready`, `me_ready`, `rf_*`, `wb_*`);
//! [`ThreadMergeModel::clock`] is one rising edge. Outputs ignore `reset` (it acts at the
//! edge only), as the contract's formulas for the combinational outputs have no reset term.
//!
//! Readings where the contract is terse (all follow §5.5 literally):
//! * The candidate's age also increments at an edge where a fragment with `cov == 0` is
//!   accepted (only `err_proto` is set: the candidate is neither emitted nor replaced).
//! * A `me` on X = member m of a paired, unbroken slot whose partner is neither PRE nor WAIT
//!   "cannot occur" (R10). The model applies R20's rule, written for any number of members
//!   ([`events`]): X merges when every other member is WAIT or FREE, else waits; so a POST
//!   partner makes X wait, and a FREE one (with W = 2 unreachable: a term of a member of a
//!   live pair breaks it) would let X merge alone.
//! * Payload registers (`grp_*`, `rsp_*` beyond the valids), tags, masks and slot flags are
//!   cleared by the model's reset; they are not compared while they are not valid (R15).
//!   A single's descriptor drives `grp_b_tgid = 2s+1`, `grp_b_cov = grp_b_perm =
//!   grp_b_tag = 0` (not compared).
//! * `xl` naming a FREE, PRE or WAIT group, or no slot, sets nothing (R14 lists no
//!   `err_proto` for xl). `disc` bits on inactive lanes have no effect (`active &= ~mask`).
//! * An accepted `me` that is an error (nothing/FREE/WAIT) gives no response, so an owed
//!   resume can be loaded at that edge (R12 priority 2).
//! * `rsp_retire_tgid` is `rsp_tgid + 1` modulo 2^TGID_W in every cycle.
//! * The candidate's age also increments at E1 edges and at edges where the fragment is
//!   blocked (R4 says so); the slot's wait counter is zeroed when a member enters WAIT and
//!   no other member was WAIT in S0 (with W = 2 always: two WAIT members would have merged),
//!   and counts only while a member WAIT in S0 stays WAIT (R11, R20).
//! * R20's readings (members outside the set, the absent members' descriptor fields, R20's
//!   ports with W = 2) are listed in [`ways`].
//!
//! Input values are taken modulo their port width (LANES, PRIM_W, TAG_W, TGID_W bits), as
//! the Verilog ports would truncate them.

pub mod perf;

/// Group states as encoded in `st_state` (contract §3).
pub const FREE: u8 = 0;
pub const PRE: u8 = 1;
pub const WAIT: u8 = 2;
pub const POST: u8 = 3;

/// All-ones mask of `bits` bits.
pub(crate) fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// `ceil(log2 n)` for n >= 1.
fn clog2(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

/// Block parameters (contract §2, TOML `[thread_merge]`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThreadMergeParams {
    /// Lanes per thread group: 4, 8, 16 or 32 (groups of 2x2 quads).
    pub lanes: usize,
    /// Merge slots S, 1..=32 (2·S thread-group ids; 4·S with `merge_ways` > 2, R20).
    pub slots: usize,
    /// Allow the lane remaps p = 1, 2, 3.
    pub remap: bool,
    /// Cycles a held candidate can still be paired, 0..=255 (0: until flush/last/prim change).
    pub pair_hold: u32,
    /// Cycles a waiting group waits for its partner, 0..=255 (0: forever).
    pub merge_timeout: u32,
    /// Fragment tag width TAG_W, 1..=64.
    pub tag_width: u32,
    /// Primitive id width PRIM_W, 1..=32.
    pub prim_width: u32,
    /// The performance counters and `err_clr` (R16, R17).
    pub perf_counters: bool,
    /// R18: fragments of different primitives may pair; a primitive change does not flush.
    pub cross_primitive: bool,
    /// R19: held candidates K, 1..=4 (1: R4's one candidate register).
    pub candidates: usize,
    /// R20: groups a slot holds and merges, W = 2..=4 (2: pairs; W > 2 needs candidates 1).
    pub merge_ways: usize,
}

impl Default for ThreadMergeParams {
    fn default() -> Self {
        Self::contract_default()
    }
}

impl ThreadMergeParams {
    /// Contract C0: lanes 4, slots 4, remap, pair_hold 4, merge_timeout 16, tag 32, prim 16.
    pub fn contract_default() -> Self {
        ThreadMergeParams {
            lanes: 4,
            slots: 4,
            remap: true,
            pair_hold: 4,
            merge_timeout: 16,
            tag_width: 32,
            prim_width: 16,
            perf_counters: false,
            cross_primitive: false,
            candidates: 1,
            merge_ways: 2,
        }
    }

    /// Members of a slot, 2^MW (R20): 2 for pairs, 4 for `merge_ways` 3 and 4.
    pub fn members(&self) -> usize {
        if self.merge_ways > 2 { 4 } else { 2 }
    }

    /// MW = ceil(log2 W) (R20): 1 for pairs, 2 for W = 3, 4.
    pub fn member_w(&self) -> u32 {
        self.members().trailing_zeros()
    }

    /// Thread-group ids, 2^MW·S (2·S for pairs).
    pub fn groups(&self) -> usize {
        self.members() * self.slots
    }

    /// TGID_W = MW + ceil(log2 S).
    pub fn tgid_w(&self) -> u32 {
        self.member_w() + clog2(self.slots)
    }

    /// LANE_W = log2(LANES).
    pub fn lane_w(&self) -> u32 {
        self.lanes.trailing_zeros()
    }

    /// CNT_W = ceil(log2(S+1)).
    pub fn cnt_w(&self) -> u32 {
        clog2(self.slots + 1)
    }

    pub fn lane_mask(&self) -> u64 {
        ones(self.lanes as u32)
    }

    pub fn tag_mask(&self) -> u64 {
        ones(self.tag_width)
    }

    pub fn prim_mask(&self) -> u64 {
        ones(self.prim_width)
    }

    pub fn tgid_mask(&self) -> u64 {
        ones(self.tgid_w())
    }

    /// NCNT: the counters (0 without `perf_counters`).
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { perf::PERF_NAMES.len() } else { 0 }
    }

    /// PSW = max(1, ceil(log2 NCNT)), the width of `perf_sel`.
    pub fn perf_sel_w(&self) -> u32 {
        clog2(perf::PERF_NAMES.len()).max(1)
    }

    /// Check the ranges of contract §2.
    pub fn validate(&self) -> Result<(), String> {
        let ok = [4, 8, 16, 32].contains(&self.lanes)
            && (1..=32).contains(&self.slots)
            && self.pair_hold <= 255
            && self.merge_timeout <= 255
            && (1..=64).contains(&self.tag_width)
            && (1..=32).contains(&self.prim_width)
            && (1..=4).contains(&self.candidates)
            && (2..=4).contains(&self.merge_ways)
            && (self.merge_ways == 2 || self.candidates == 1);
        if ok {
            Ok(())
        } else {
            Err(format!("thread_merge parameters out of range: {self:?}"))
        }
    }
}

/// R5 `xperm(m, p)`: bit `(i & ~3) | ((i & 3) ^ p)` of the result is bit i of `m`
/// (the same p in every quad of a `lanes`-lane mask).
pub fn xperm(m: u64, p: u8, lanes: usize) -> u64 {
    let p = (p & 3) as usize;
    (0..lanes)
        .filter(|&i| (m >> i) & 1 == 1)
        .fold(0, |acc, i| acc | 1u64 << ((i & !3) | ((i & 3) ^ p)))
}

/// R5 `merge(a, b)`: the first p in 0, 1, 2, 3 (only 0 without remap) with
/// `a & xperm(b, p) == 0`.
pub fn merge_perm(a: u64, b: u64, remap: bool, lanes: usize) -> Option<u8> {
    let last = if remap { 3 } else { 0 };
    (0..=last).find(|&p| a & xperm(b, p, lanes) == 0)
}

/// Block inputs for one cycle (contract §3; the clock is the call to `clock`).
/// `Default` is all zero (both ready inputs low); [`ThreadMergeInputs::idle`] is quiet
/// with `grp_ready = rsp_ready = 1`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadMergeInputs {
    /// Synchronous, active-high reset.
    pub reset: bool,
    pub frag_valid: bool,
    pub frag_cov: u64,
    pub frag_prim: u64,
    pub frag_tag: u64,
    pub frag_last: bool,
    pub flush: bool,
    pub grp_ready: bool,
    pub me_valid: bool,
    pub me_tgid: u64,
    pub rsp_ready: bool,
    pub term_valid: bool,
    pub term_tgid: u64,
    pub disc_valid: bool,
    pub disc_tgid: u64,
    pub disc_mask: u64,
    pub xl_valid: bool,
    pub xl_tgid: u64,
    pub rf_tgid: u64,
    pub wb_tgid: u64,
    /// R16-R17 (with `perf_counters` only; ignored otherwise).
    pub perf_sel: u64,
    pub perf_clr: bool,
    pub err_clr: bool,
}

impl ThreadMergeInputs {
    /// No valid input, both ready inputs high, no flush.
    pub fn idle(_p: &ThreadMergeParams) -> Self {
        ThreadMergeInputs {
            grp_ready: true,
            rsp_ready: true,
            ..Default::default()
        }
    }

    pub fn with_reset(mut self) -> Self {
        self.reset = true;
        self
    }

    /// Present fragment {cov, prim, tag, last}.
    pub fn frag(mut self, cov: u64, prim: u64, tag: u64, last: bool) -> Self {
        self.frag_valid = true;
        self.frag_cov = cov;
        self.frag_prim = prim;
        self.frag_tag = tag;
        self.frag_last = last;
        self
    }

    pub fn me(mut self, tgid: u64) -> Self {
        self.me_valid = true;
        self.me_tgid = tgid;
        self
    }

    pub fn term(mut self, tgid: u64) -> Self {
        self.term_valid = true;
        self.term_tgid = tgid;
        self
    }

    pub fn disc(mut self, tgid: u64, mask: u64) -> Self {
        self.disc_valid = true;
        self.disc_tgid = tgid;
        self.disc_mask = mask;
        self
    }

    pub fn xl(mut self, tgid: u64) -> Self {
        self.xl_valid = true;
        self.xl_tgid = tgid;
        self
    }
}

/// Block outputs for one cycle (contract §3). Packed per-group / per-slot / per-lane
/// vectors are `Vec`s indexed by group t, slot s or lane i.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadMergeOutputs {
    pub frag_ready: bool,
    pub grp_valid: bool,
    pub grp_paired: bool,
    pub grp_a_tgid: u64,
    pub grp_a_cov: u64,
    pub grp_a_tag: u64,
    pub grp_b_tgid: u64,
    pub grp_b_cov: u64,
    pub grp_b_perm: u8,
    pub grp_b_tag: u64,
    pub me_ready: bool,
    pub rsp_valid: bool,
    pub rsp_tgid: u64,
    pub rsp_merged: bool,
    pub rsp_active: u64,
    pub rsp_retire: bool,
    pub rsp_retire_tgid: u64,
    pub rf_common_wmask: u64,
    pub rf_exec_mask: u64,
    pub rf_perm: u8,
    pub rf_post: bool,
    pub wb_active: u64,
    pub wb_lane_src: u64,
    pub wb_tag_self: u64,
    pub wb_tag_partner: u64,
    pub wb_perm_self: u8,
    pub wb_perm_partner: u8,
    /// `wb_orig_lane[i*LANE_W +: LANE_W]`, one entry per lane.
    pub wb_orig_lane: Vec<u8>,
    pub free_cnt: u64,
    pub pend_valid: bool,
    /// 32 bits, wraps.
    pub merge_count: u64,
    pub err_proto: bool,
    pub err_xlane: bool,
    /// Per group: 0 FREE, 1 PRE, 2 WAIT, 3 POST.
    pub st_state: Vec<u8>,
    /// Per group: active mask.
    pub st_active: Vec<u64>,
    /// Per slot: {merged, broken, paired}, bit 0 paired.
    pub st_slot: Vec<u8>,
    /// Per group: a resume is owed.
    pub st_owe: Vec<bool>,
    /// Counter `perf_sel` (0 past the last one, and without `perf_counters`).
    pub perf_val: u64,
    /// R20 (`merge_ways` > 2; all 0 / false otherwise): the descriptor's members C (2) and
    /// D (3, W = 4 only), valid when the set has them.
    pub grp_c_valid: bool,
    pub grp_c_tgid: u64,
    pub grp_c_cov: u64,
    pub grp_c_perm: u8,
    pub grp_c_tag: u64,
    pub grp_d_valid: bool,
    pub grp_d_tgid: u64,
    pub grp_d_cov: u64,
    pub grp_d_perm: u8,
    pub grp_d_tag: u64,
    /// R20: bit j-1 = member j retired by this merge response (W-1 bits).
    pub rsp_retire_mask: u64,
    /// R20: lane i's source member (0..3), one entry per lane.
    pub wb_lane_mem: Vec<u8>,
    pub wb_tag_c: u64,
    pub wb_perm_c: u8,
    pub wb_tag_d: u64,
    pub wb_perm_d: u8,
}

/// Test-only model mutations (see `tests.rs`); each must be caught by a directed case,
/// the pair table or an invariant.
#[cfg(test)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mutation {
    /// merge() tries p in the order 3, 2, 1, 0.
    RemapOrderReversed,
    /// frag_ready asks for two free slots (the spec's original rule).
    NeedTwoSlots,
    /// A pair takes two slots: free_cnt counts a pair twice.
    PairTakesTwoSlots,
    /// The timeout fires one edge late (counter compared with T).
    TimeoutLate,
    /// disc is processed after me at the same edge.
    DiscAfterMe,
    /// An owed resume beats this edge's me response.
    OwedBeatsMe,
    /// The hold expires one edge late (age > pair_hold).
    HoldLate,
    /// wb_orig_lane ignores the partner's perm.
    OrigLaneIgnoresPerm,
    /// A merge ORs B's mask as spawned, ignoring B's discards.
    MergeUsesSpawnMask,
    /// err_proto is not sticky.
    ErrNotSticky,
    /// Reset leaves merge_count.
    ResetKeepsMergeCount,
    /// me_ready is tied to 1 (spec): a me accepted while rsp is blocked overwrites it.
    MeReadyTied,
    /// A terminating A does not resume a waiting B.
    TermNoResume,
    /// An accepted me does not clear an owed resume.
    MeKeepsOwe,
    /// err_xlane judged after this edge's me (not on S0).
    XlAfterMe,
    /// perf_clr loses to a same-edge event (the counter restarts at the event).
    PerfClrLoses,
    /// err_clr also drops the error of its own edge.
    ErrClrWins,
    /// cross_primitive ignored: a primitive change still makes the candidate leave.
    CrossIgnored,
    /// R19 E3: F pairs with the newest held fragment that fits, not the oldest.
    PairNewest,
    /// R19 E3: an unpaired F pushes the oldest out even when the queue has room (K = 1's rule).
    QueueNoRoom,
    /// R20 term: only the pair partner (t ^ 1) counts, as with W = 2, so a term of C or D
    /// does not break a set of A and B (nor one of A or B a set's C and D).
    TermPartnerOnly,
    /// R20 me: the merge ORs only A's and B's masks, ignoring members C and D.
    MergeIgnoresC,
    /// R20 me: the slot's wait counter restarts at each park, not at the first one.
    WaitRestartsEachPark,
    /// R20 E3: F is fitted to member 0's coverage instead of U, the OR of the set's.
    FitsFirstOnly,
}

/// Is mutation `$m` active (always false outside tests).
macro_rules! mutant {
    ($self:ident, $m:ident) => {{
        #[cfg(test)]
        {
            $self.mutation == Some(Mutation::$m)
        }
        #[cfg(not(test))]
        {
            false
        }
    }};
}

mod candidates;
mod events;
mod lookup;
mod ways;
#[cfg(test)]
mod ways_tests;

use ways::Member;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Group {
    state: u8,
    active: u64,
    tag: u64,
    /// Mask given at the spawn (only for the MergeUsesSpawnMask mutation).
    spawn: u64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Slot {
    paired: bool,
    broken: bool,
    merged: bool,
    /// Member j's remap p_j (R7: B's is `perm[1]`; R20: C, D; `perm[0]` = 0).
    perm: [u8; 4],
    /// R20: members in the set the slot was spawned with (n = 1 .. W).
    n: u8,
    /// Wait counter of the slot's waiting members (R11; R20: started by the first).
    wait: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Pend {
    cov: u64,
    prim: u64,
    tag: u64,
    age: u32,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct GrpReg {
    valid: bool,
    paired: bool,
    a_tgid: u64,
    a_cov: u64,
    a_tag: u64,
    b_tgid: u64,
    b_cov: u64,
    b_perm: u8,
    b_tag: u64,
    /// R20: members C (2) and D (3); 0 when the set has no such member.
    c_valid: bool,
    c_tgid: u64,
    c_cov: u64,
    c_perm: u8,
    c_tag: u64,
    d_valid: bool,
    d_tgid: u64,
    d_cov: u64,
    d_perm: u8,
    d_tag: u64,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct RspReg {
    valid: bool,
    tgid: u64,
    merged: bool,
    active: u64,
    retire: bool,
    /// R20: bit j-1 = member j retires (merge responses only).
    retire_mask: u64,
}

/// The reference model: registered state of contract R2 plus the rules R4–R15.
#[derive(Debug, Clone)]
pub struct ThreadMergeModel {
    p: ThreadMergeParams,
    groups: Vec<Group>,
    slots: Vec<Slot>,
    owe: Vec<bool>,
    /// R19's queue `pend[0..c)`, the oldest first (R4's candidate register when K = 1).
    q: Vec<Pend>,
    /// R19 `qlast` (R4's `pend.last`): the run has ended; matters only while `q` is not empty.
    qlast: bool,
    /// R20: members 1 .. n-1 of the held set (`q[0]` is member 0); empty with W = 2.
    set: Vec<Member>,
    grp: GrpReg,
    rsp: RspReg,
    merge_count: u32,
    err_proto: bool,
    err_xlane: bool,
    /// R16: the counters, in `perf::PERF_NAMES` order (empty without `perf_counters`).
    pub(crate) perf: Vec<u32>,
    #[cfg(test)]
    pub(crate) mutation: Option<Mutation>,
}

impl ThreadMergeModel {
    /// A model in its reset state. Panics on invalid parameters.
    pub fn new(p: &ThreadMergeParams) -> Self {
        if let Err(e) = p.validate() {
            panic!("{e}");
        }
        ThreadMergeModel {
            p: p.clone(),
            groups: vec![Group::default(); p.groups()],
            slots: vec![Slot::default(); p.slots],
            owe: vec![false; p.groups()],
            q: Vec::with_capacity(p.candidates),
            qlast: false,
            set: Vec::with_capacity(3),
            grp: GrpReg::default(),
            rsp: RspReg::default(),
            merge_count: 0,
            err_proto: false,
            err_xlane: false,
            perf: vec![0; p.perf_count()],
            #[cfg(test)]
            mutation: None,
        }
    }

    /// A model with one test-only mutation.
    #[cfg(test)]
    pub(crate) fn mutated(p: &ThreadMergeParams, m: Mutation) -> Self {
        let mut s = Self::new(p);
        s.mutation = Some(m);
        s
    }

    pub fn params(&self) -> &ThreadMergeParams {
        &self.p
    }

    /// The group an input id names (truncated to TGID_W), or None if its slot is ≥ S or
    /// (R20) its member is ≥ W.
    fn id(&self, raw: u64) -> Option<usize> {
        let t = (raw & self.p.tgid_mask()) as usize;
        (self.slot_of(t) < self.p.slots && self.member_of(t) < self.p.merge_ways).then_some(t)
    }

    /// R2 / R20: slot s is free when all its members are FREE.
    fn slot_free(&self, s: usize) -> bool {
        self.slot_groups(s).all(|t| self.groups[t].state == FREE)
    }

    fn free_cnt(&self) -> usize {
        let n = (0..self.p.slots).filter(|&s| self.slot_free(s)).count();
        if mutant!(self, PairTakesTwoSlots) {
            let k = self.p.members();
            let pairs = (0..self.p.slots)
                .filter(|&s| self.groups[k * s].state != FREE && self.groups[k * s + 1].state != FREE)
                .count();
            return n.saturating_sub(pairs);
        }
        n
    }

    /// R4 `flush_now`, of the queue's head with R19.
    fn flush_now(&self, i: &ThreadMergeInputs) -> bool {
        let Some(pd) = self.q.first() else {
            return false;
        };
        let expired = if mutant!(self, HoldLate) {
            pd.age > self.p.pair_hold
        } else {
            pd.age >= self.p.pair_hold
        };
        self.qlast
            || i.flush
            || (self.p.pair_hold != 0 && expired)
            || ((!self.p.cross_primitive || mutant!(self, CrossIgnored))
                && i.frag_valid
                && (i.frag_prim & self.p.prim_mask()) != pd.prim)
    }

    fn out_ok(&self, i: &ThreadMergeInputs) -> bool {
        !self.grp.valid || i.grp_ready
    }

    fn frag_ready(&self, i: &ThreadMergeInputs) -> bool {
        let need = if mutant!(self, NeedTwoSlots) { 2 } else { 1 };
        self.out_ok(i) && self.free_cnt() >= need && !self.flush_now(i)
    }

    /// R12 `rsp_free` = `me_ready`.
    fn rsp_free(&self, i: &ThreadMergeInputs) -> bool {
        mutant!(self, MeReadyTied) || !self.rsp.valid || i.rsp_ready
    }

    /// R5 with the mutation hook.
    fn merge(&self, a: u64, b: u64) -> Option<u8> {
        if mutant!(self, RemapOrderReversed) && self.p.remap {
            return (0..4u8).rev().find(|&p| a & xperm(b, p, self.p.lanes) == 0);
        }
        merge_perm(a, b, self.p.remap, self.p.lanes)
    }

    /// Combinational outputs for the current state and inputs `i` (no state change).
    pub fn outputs(&self, i: &ThreadMergeInputs) -> ThreadMergeOutputs {
        let rf = self.lookup(i.rf_tgid);
        let wb = self.lookup(i.wb_tgid);
        let g = &self.grp;
        let r = &self.rsp;
        ThreadMergeOutputs {
            frag_ready: self.frag_ready(i),
            grp_valid: g.valid,
            grp_paired: g.paired,
            grp_a_tgid: g.a_tgid,
            grp_a_cov: g.a_cov,
            grp_a_tag: g.a_tag,
            grp_b_tgid: g.b_tgid,
            grp_b_cov: g.b_cov,
            grp_b_perm: g.b_perm,
            grp_b_tag: g.b_tag,
            me_ready: self.rsp_free(i),
            rsp_valid: r.valid,
            rsp_tgid: r.tgid,
            rsp_merged: r.merged,
            rsp_active: r.active,
            rsp_retire: r.retire,
            rsp_retire_tgid: (r.tgid + 1) & self.p.tgid_mask(),
            rf_common_wmask: rf.common_wmask,
            rf_exec_mask: rf.exec_mask,
            rf_perm: rf.perm,
            rf_post: rf.post,
            wb_active: wb.active,
            wb_lane_src: wb.lane_src,
            wb_tag_self: wb.tag_self,
            wb_tag_partner: wb.tag_partner,
            wb_perm_self: wb.perm,
            wb_perm_partner: wb.perm_partner,
            wb_orig_lane: wb.orig_lane,
            free_cnt: self.free_cnt() as u64,
            pend_valid: !self.q.is_empty(),
            merge_count: self.merge_count as u64,
            err_proto: self.err_proto,
            err_xlane: self.err_xlane,
            st_state: self.groups.iter().map(|g| g.state).collect(),
            st_active: self.groups.iter().map(|g| g.active).collect(),
            st_slot: self
                .slots
                .iter()
                .map(|s| (u8::from(s.merged) << 2) | (u8::from(s.broken) << 1) | u8::from(s.paired))
                .collect(),
            st_owe: self.owe.clone(),
            perf_val: perf::read(&self.perf, i.perf_sel & ones(self.p.perf_sel_w())),
            // R20's ports (none with W = 2: driven 0).
            grp_c_valid: g.c_valid,
            grp_c_tgid: g.c_tgid,
            grp_c_cov: g.c_cov,
            grp_c_perm: g.c_perm,
            grp_c_tag: g.c_tag,
            grp_d_valid: g.d_valid,
            grp_d_tgid: g.d_tgid,
            grp_d_cov: g.d_cov,
            grp_d_perm: g.d_perm,
            grp_d_tag: g.d_tag,
            rsp_retire_mask: if self.p.merge_ways > 2 { r.retire_mask } else { 0 },
            wb_lane_mem: wb.lane_mem,
            wb_tag_c: wb.tag_c,
            wb_perm_c: wb.perm_c,
            wb_tag_d: wb.tag_d,
            wb_perm_d: wb.perm_d,
        }
    }

    /// One rising clock edge with inputs `i` (R3 order).
    pub fn clock(&mut self, i: &ThreadMergeInputs) {
        if i.reset {
            let keep = self.merge_count;
            *self = ThreadMergeModel {
                #[cfg(test)]
                mutation: self.mutation,
                ..Self::new(&self.p)
            };
            if mutant!(self, ResetKeepsMergeCount) {
                self.merge_count = keep;
            }
            return;
        }
        let p = self.p.clone();
        let lm = p.lane_mask();

        // Everything decided on S0 (the registered state at the start of the cycle).
        let state0: Vec<u8> = self.groups.iter().map(|g| g.state).collect();
        let free_slot = (0..p.slots).find(|&s| self.slot_free(s));
        let free0 = self.free_cnt();
        let out_ok = self.out_ok(i);
        let flush_now = self.flush_now(i);
        let frag_ready = self.frag_ready(i);
        let rsp_free = self.rsp_free(i);
        let pc = p.perf_counters;
        let mut ev = perf::PerfEvents {
            frag_valid: i.frag_valid,
            frag_ready,
            grp_valid: self.grp.valid,
            grp_ready: i.grp_ready,
            rsp_valid: self.rsp.valid,
            rsp_ready: i.rsp_ready,
            me_valid: i.me_valid,
            me_ready: rsp_free,
            free_cnt: free0,
            ..Default::default()
        };
        if mutant!(self, ErrNotSticky) {
            self.err_proto = false;
        }
        // R16-R17: the rules below set the flags for this edge's errors only; the sticky
        // values (cleared by err_clr) are ORed back at the end.
        let sticky = (self.err_proto && !(pc && i.err_clr), self.err_xlane && !(pc && i.err_clr));
        self.err_proto = false;
        self.err_xlane = false;

        // R8 term, R9 disc, R10 me.
        let mut response = None;
        if i.term_valid {
            self.do_term(i.term_tgid);
        }
        let disc_late = mutant!(self, DiscAfterMe);
        if i.disc_valid && !disc_late {
            self.do_disc(i.disc_tgid, i.disc_mask);
        }
        if i.me_valid && rsp_free {
            response = self.do_me(i.me_tgid, &state0);
        }
        if i.disc_valid && disc_late {
            self.do_disc(i.disc_tgid, i.disc_mask);
        }

        // R11 timeouts.
        self.timeouts(&state0);

        // R12 response register.
        if rsp_free {
            let owed = self.owe.iter().position(|&o| o);
            let resume = |m: &mut Self, x: usize| {
                m.owe[x] = false;
                RspReg {
                    valid: true,
                    tgid: x as u64,
                    merged: false,
                    active: m.groups[x].active,
                    retire: false,
                    retire_mask: 0,
                }
            };
            self.rsp = match (response, owed) {
                (Some(r), Some(x)) if mutant!(self, OwedBeatsMe) => {
                    let _ = r;
                    resume(self, x)
                }
                (Some(r), _) => r,
                (None, Some(x)) => resume(self, x),
                (None, None) => RspReg {
                    valid: false,
                    ..self.rsp
                },
            };
        }

        // R14 cross-lane check on S0.
        if i.xl_valid {
            if let Some(x) = self.id(i.xl_tgid) {
                let st = if mutant!(self, XlAfterMe) {
                    self.groups[x].state
                } else {
                    state0[x]
                };
                if st == POST {
                    self.err_xlane = true;
                }
            }
        }

        // R4–R7 fragments and spawn.
        let f_cov = i.frag_cov & lm;
        let f = Pend {
            cov: f_cov,
            prim: i.frag_prim & p.prim_mask(),
            tag: i.frag_tag & p.tag_mask(),
            age: 0,
        };
        let emit = self.fragment_step(i, f, flush_now && out_ok && free0 >= 1, frag_ready);
        match emit {
            Some(set) => {
                let s = free_slot.expect("an emission needs a free slot");
                self.spawn(s, set);
            }
            None => self.grp.valid = self.grp.valid && !i.grp_ready,
        }

        // R16-R17: this edge's errors are the events; the flags keep them.
        ev.proto_err = self.err_proto;
        ev.xlane_err = self.err_xlane;
        if mutant!(self, ErrClrWins) && pc && i.err_clr {
            (self.err_proto, self.err_xlane) = (false, false);
        }
        self.err_proto |= sticky.0;
        self.err_xlane |= sticky.1;
        if pc {
            let clr = i.perf_clr && !mutant!(self, PerfClrLoses);
            if mutant!(self, PerfClrLoses) && i.perf_clr {
                self.perf.iter_mut().for_each(|c| *c = 0);
            }
            perf::count(&mut self.perf, &ev.vector(), clr);
        }
    }
}
