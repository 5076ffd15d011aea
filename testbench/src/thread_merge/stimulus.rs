//! Seeded random stimulus for `thread_merge` (contract §5; replaces the spec's T29),
//! functional [`Coverage`] and the [`Invariants`] checker.
//!
//! [`ThreadMergeStimulus`] plays the rasterizer and the shader scheduler around the block:
//!
//! * **Rasterizer.** Primitives of 1–20 fragments with consecutive primitive ids (so that a
//!   held candidate meets primitive changes); the last fragment of a primitive carries
//!   `frag_last` with probability 0.6. Gaps between fragments are mostly 0, sometimes
//!   1–3 and sometimes 5–12 cycles (longer than `pair_hold`: hold expiries). Coverage is
//!   edge-like: at 4 lanes a quad is full (25 %) or a partial half-plane shape (corner,
//!   half, three-quarter; rarely a diagonal); at 8–32 lanes a fragment is a tile of
//!   LANES/4 quads that is fully covered (10 %) or *sparse*: one random quad plus each
//!   other quad with probability 1.5/(LANES/4), each an edge shape (70 %) or full, so that
//!   two tiles are often disjoint under one remap and pairs occur. A fragment is held,
//!   payload stable, until accepted. `flush` pulses now and then. Tags are consecutive
//!   (unique modulo 2^TAG_W).
//! * **Scheduler** (contract §5). A group is spawned on a `grp` handshake (both members of
//!   a pair). It runs its pre-merge part for a random time (mostly 1–10 cycles, 20 % 10–20,
//!   10 % 20–45: partners arriving beyond `merge_timeout`), then sends `me` (held until
//!   `me_ready`) and is parked until a `rsp` names it; `rsp_retire` drops the retired
//!   group. After its resume it runs 1–16 cycles (5 % send a second `me`, a POST NOP) and
//!   sends `term`. 8 % of the groups terminate before the merge point; a `disc` of random
//!   active lanes hits a random running group every ~12 cycles, and a group whose mask
//!   becomes 0 is terminated. `xl` goes to groups before their merge point. me/term/disc/xl
//!   go only to running groups (spawned, not parked, not being terminated); `term` and
//!   `me` never name one group in one cycle. `wb_tgid = term_tgid` in term cycles,
//!   random otherwise; `rf_tgid` is random.
//! * **Back-pressure** on `grp_ready` and `rsp_ready` in bursts of 1–6 cycles.
//! * **Reset** about every 6000 cycles (every 1500 with illegal events): all `*_valid` are
//!   0 in the reset cycle, the scheduler forgets every group.
//! * **Illegal events** (with [`ThreadMergeStimulus::allow_errors`]): fragments with
//!   `cov = 0`; one-cycle `me`/`term`/`disc` naming a FREE group — a member the scheduler
//!   knows to be free in a slot whose other member is running (so it cannot have been
//!   reallocated), or an id whose slot is ≥ S — and `xl` for groups past their merge point.
//!   These set `err_proto` / `err_xlane` and change nothing else.
//! * **Drain** ([`ThreadMergeStimulus::drain_from`]): from that cycle on, no new fragments,
//!   `flush` held high, no resets or illegal events; the run then drains to
//!   `free_cnt = S` ([`ThreadMergeStimulus::is_drained`]).

use super::model::{FREE, POST, PRE, WAIT};
use super::{ThreadMergeInputs, ThreadMergeOutputs, ThreadMergeParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, VecDeque};

/// A fragment being presented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Frag {
    cov: u64,
    prim: u64,
    tag: u64,
    last: bool,
}

/// The scheduler's view of one thread-group id.
#[derive(Debug, Clone, Copy, Default)]
struct SGroup {
    alive: bool,
    /// Past its merge point (has had its resume).
    post: bool,
    /// Cycles left in the current part.
    left: u32,
    /// Lanes still active (scheduler's own account).
    active: u64,
    /// `me` queued or presented, not accepted yet.
    me_pending: bool,
    /// `me` accepted, waiting for its `rsp`.
    parked: bool,
    /// Terminates at the end of its pre-merge part instead of sending `me`.
    dies_early: bool,
    /// Sends a second `me` after its resume.
    second_me: bool,
}

/// Random stimulus; see the module documentation.
#[derive(Debug, Clone)]
pub struct ThreadMergeStimulus {
    p: ThreadMergeParams,
    rng: ChaCha8Rng,
    allow_errors: bool,
    drain_from: Option<u64>,
    cycle: u64,
    prev: Option<ThreadMergeInputs>,
    // rasterizer
    cur: Option<Frag>,
    prim: u64,
    prim_left: u32,
    gap: u32,
    next_tag: u64,
    flush_left: u32,
    // scheduler
    g: Vec<SGroup>,
    me_q: VecDeque<usize>,
    /// (tgid, ghost) presented on the me channel.
    me_cur: Option<(u64, bool)>,
    grp_stall: u32,
    rsp_stall: u32,
}

impl ThreadMergeStimulus {
    pub fn new(params: &ThreadMergeParams, seed: u64) -> Self {
        params.validate().expect("thread_merge parameters");
        ThreadMergeStimulus {
            p: params.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            allow_errors: false,
            drain_from: None,
            cycle: 0,
            prev: None,
            cur: None,
            prim: 1,
            prim_left: 0,
            gap: 0,
            next_tag: 1,
            flush_left: 0,
            g: vec![SGroup::default(); params.groups()],
            me_q: VecDeque::new(),
            me_cur: None,
            grp_stall: 0,
            rsp_stall: 0,
        }
    }

    /// Also produce illegal events (see the module documentation).
    pub fn allow_errors(mut self, on: bool) -> Self {
        self.allow_errors = on;
        self
    }

    /// Drain from cycle `c` on: no new fragments, flush high, no resets or illegal events.
    pub fn drain_from(mut self, c: u64) -> Self {
        self.drain_from = Some(c);
        self
    }

    fn draining(&self) -> bool {
        self.drain_from.is_some_and(|d| self.cycle >= d)
    }

    /// Everything has left the block: no fragment left to present, no group running,
    /// and `out` (the last outputs) shows an empty block.
    pub fn is_drained(&self, out: &ThreadMergeOutputs) -> bool {
        self.cur.is_none()
            && self.g.iter().all(|g| !g.alive)
            && out.free_cnt == self.p.slots as u64
            && !out.pend_valid
            && !out.grp_valid
            && !out.rsp_valid
    }

    /// Inputs for the next cycle. `last` are the outputs the DUT gave for the inputs of
    /// the previous call (ignored on the first call, which is a reset cycle).
    pub fn next(&mut self, last: &ThreadMergeOutputs) -> ThreadMergeInputs {
        let reset = match self.prev.take() {
            None => true,
            Some(prev) => {
                self.account(&prev, last);
                let period = if self.allow_errors { 1500 } else { 6000 };
                !self.draining() && self.rng.gen_ratio(1, period)
            }
        };
        let inp = if reset {
            self.reset_cycle()
        } else {
            self.generate()
        };
        self.cycle += 1;
        self.prev = Some(inp.clone());
        inp
    }

    // ---- accounting ----------------------------------------------------------------

    fn account(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs) {
        if i.reset {
            self.g.fill(SGroup::default());
            self.me_q.clear();
            self.me_cur = None;
            return;
        }
        if i.frag_valid && o.frag_ready {
            self.cur = None;
        }
        if i.me_valid {
            let (t, ghost) = self.me_cur.expect("me presented");
            if ghost {
                self.me_cur = None; // one cycle only, accepted or not
            } else if o.me_ready {
                let g = &mut self.g[t as usize];
                g.me_pending = false;
                g.parked = true;
                self.me_cur = None;
            }
        }
        if o.rsp_valid && i.rsp_ready {
            let t = o.rsp_tgid as usize;
            if t < self.g.len() && self.g[t].alive && self.g[t].parked {
                let left = self.post_len();
                let second = !self.g[t].post && self.rng.gen_ratio(1, 20);
                let g = &mut self.g[t];
                g.parked = false;
                g.post = true;
                g.left = left;
                g.active = o.rsp_active;
                g.second_me = second;
            }
            if o.rsp_retire {
                let r = o.rsp_retire_tgid as usize;
                if r < self.g.len() {
                    self.g[r] = SGroup::default();
                }
            }
        }
        if o.grp_valid && i.grp_ready {
            let a = o.grp_a_tgid as usize;
            self.spawn(a, o.grp_a_cov);
            if o.grp_paired {
                self.spawn(o.grp_b_tgid as usize, o.grp_b_cov);
            }
        }
    }

    fn spawn(&mut self, t: usize, cov: u64) {
        if t >= self.g.len() {
            return;
        }
        let left = self.pre_len();
        let dies_early = self.rng.gen_ratio(2, 25);
        self.g[t] = SGroup {
            alive: true,
            left,
            active: cov,
            dies_early,
            ..Default::default()
        };
    }

    fn pre_len(&mut self) -> u32 {
        match self.rng.gen_range(0..10) {
            0..=6 => self.rng.gen_range(1..=10),
            7..=8 => self.rng.gen_range(10..=20),
            _ => self.rng.gen_range(20..=45),
        }
    }

    fn post_len(&mut self) -> u32 {
        self.rng.gen_range(1..=16)
    }

    // ---- generation -------------------------------------------------------------------

    fn rand_id(&mut self) -> u64 {
        self.rng.gen::<u64>() & self.p.tgid_mask()
    }

    /// Quiet inputs with random don't-care payloads.
    fn garbage(&mut self) -> ThreadMergeInputs {
        ThreadMergeInputs {
            frag_cov: self.rng.gen::<u64>() & self.p.lane_mask(),
            frag_prim: self.rng.gen::<u64>() & self.p.prim_mask(),
            frag_tag: self.rng.gen::<u64>() & self.p.tag_mask(),
            frag_last: self.rng.gen(),
            me_tgid: self.rand_id(),
            term_tgid: self.rand_id(),
            disc_tgid: self.rand_id(),
            disc_mask: self.rng.gen::<u64>() & self.p.lane_mask(),
            xl_tgid: self.rand_id(),
            rf_tgid: self.rand_id(),
            wb_tgid: self.rand_id(),
            ..Default::default()
        }
    }

    fn reset_cycle(&mut self) -> ThreadMergeInputs {
        let mut i = self.garbage().with_reset();
        i.grp_ready = self.rng.gen();
        i.rsp_ready = self.rng.gen();
        i.flush = self.rng.gen();
        i
    }

    /// A partial 2x2 edge shape (half-plane coverage of a quad; diagonals rarely).
    fn edge_quad(&mut self) -> u64 {
        const SHAPES: [u64; 12] = [
            0b0001, 0b0010, 0b0100, 0b1000, // one corner
            0b0011, 0b1100, 0b0101, 0b1010, // half (row / column)
            0b0111, 0b1011, 0b1101, 0b1110, // three corners
        ];
        if self.rng.gen_ratio(1, 20) {
            [0b0110, 0b1001][self.rng.gen_range(0..2)]
        } else {
            SHAPES[self.rng.gen_range(0..SHAPES.len())]
        }
    }

    /// Edge-like coverage, see the module documentation.
    fn gen_cov(&mut self) -> u64 {
        let k = self.p.lanes / 4;
        if k == 1 {
            return if self.rng.gen_ratio(1, 4) {
                0b1111
            } else {
                self.edge_quad()
            };
        }
        if self.rng.gen_ratio(1, 10) {
            return self.p.lane_mask();
        }
        let forced = self.rng.gen_range(0..k);
        let mut cov = 0;
        for q in 0..k {
            if q == forced || self.rng.gen_bool(1.5 / k as f64) {
                let m = if self.rng.gen_ratio(7, 10) {
                    self.edge_quad()
                } else {
                    0b1111
                };
                cov |= m << (4 * q);
            }
        }
        cov
    }

    fn new_frag(&mut self) -> Frag {
        if self.prim_left == 0 {
            self.prim = (self.prim + 1) & self.p.prim_mask();
            self.prim_left = self.rng.gen_range(1..=20);
        }
        self.prim_left -= 1;
        let last = self.prim_left == 0 && self.rng.gen_ratio(3, 5);
        let cov = if self.allow_errors && self.rng.gen_ratio(1, 150) {
            0
        } else {
            self.gen_cov()
        };
        let tag = self.next_tag & self.p.tag_mask();
        self.next_tag += 1;
        self.gap = match self.rng.gen_range(0..20) {
            0..=14 => 0,
            15..=18 => self.rng.gen_range(1..=3),
            _ => self.rng.gen_range(5..=12),
        };
        Frag {
            cov,
            prim: self.prim,
            tag,
            last,
        }
    }

    /// A FREE id safe for an illegal event: a free member of a slot whose other member
    /// is running, or an id naming no slot.
    fn ghost_id(&mut self) -> Option<u64> {
        let mut ids: Vec<u64> = (0..self.g.len())
            .filter(|&t| !self.g[t].alive && self.g[t ^ 1].alive)
            .map(|t| t as u64)
            .collect();
        ids.extend((self.g.len() as u64..=self.p.tgid_mask()).take(2));
        (!ids.is_empty()).then(|| ids[self.rng.gen_range(0..ids.len())])
    }

    fn stall(&mut self, left: u32) -> (bool, u32) {
        if left > 0 {
            (false, left - 1)
        } else if self.rng.gen_ratio(1, 25) {
            (false, self.rng.gen_range(0..6))
        } else {
            (true, 0)
        }
    }

    fn generate(&mut self) -> ThreadMergeInputs {
        let mut i = self.garbage();
        let drain = self.draining();
        let errors = self.allow_errors && !drain;

        // Back-pressure.
        let (r, l) = self.stall(self.grp_stall);
        (i.grp_ready, self.grp_stall) = (r, l);
        let (r, l) = self.stall(self.rsp_stall);
        (i.rsp_ready, self.rsp_stall) = (r, l);

        // Rasterizer.
        if self.cur.is_none() && !drain {
            if self.gap > 0 {
                self.gap -= 1;
            } else {
                self.cur = Some(self.new_frag());
            }
        }
        if let Some(fr) = self.cur {
            i = i.frag(fr.cov, fr.prim, fr.tag, fr.last);
        }
        if self.flush_left > 0 {
            self.flush_left -= 1;
            i.flush = true;
        } else if self.rng.gen_ratio(1, 150) {
            self.flush_left = self.rng.gen_range(0..3);
            i.flush = true;
        }
        i.flush |= drain;

        // Scheduler: advance the running groups.
        let n = self.g.len();
        let mut want_term = Vec::new();
        for t in 0..n {
            let g = self.g[t];
            if !g.alive || g.parked || g.me_pending {
                continue;
            }
            if g.active == 0 {
                want_term.push(t);
                continue;
            }
            if g.left > 0 {
                self.g[t].left -= 1;
                continue;
            }
            if !g.post && g.dies_early || g.post && !g.second_me {
                want_term.push(t);
            } else {
                self.g[t].me_pending = true;
                self.g[t].second_me = false;
                self.me_q.push_back(t);
            }
        }
        let mut termed = None;
        if !want_term.is_empty() {
            let t = want_term[self.rng.gen_range(0..want_term.len())];
            i = i.term(t as u64);
            i.wb_tgid = t as u64;
            self.g[t] = SGroup::default();
            termed = Some(t);
        }

        // me channel.
        if self.me_cur.is_none() {
            if errors && self.rng.gen_ratio(1, 150) {
                if let Some(t) = self.ghost_id() {
                    self.me_cur = Some((t, true));
                }
            }
            if self.me_cur.is_none() {
                self.me_cur = self.me_q.pop_front().map(|t| (t as u64, false));
            }
        }
        if let Some((t, _)) = self.me_cur {
            i = i.me(t);
        }

        // disc: a random running group other than the terminated one.
        if self.rng.gen_ratio(1, 12) {
            let cands: Vec<usize> = (0..n)
                .filter(|&t| self.g[t].alive && !self.g[t].parked && self.g[t].active != 0)
                .collect();
            if !cands.is_empty() {
                let t = cands[self.rng.gen_range(0..cands.len())];
                let act = self.g[t].active;
                let mask = if self.rng.gen_ratio(1, 6) {
                    act
                } else {
                    let lanes: Vec<usize> = (0..self.p.lanes).filter(|&l| act >> l & 1 == 1).collect();
                    let mut m = 1u64 << lanes[self.rng.gen_range(0..lanes.len())];
                    m |= self.rng.gen::<u64>() & self.p.lane_mask() & !act; // inactive lanes: no effect
                    m
                };
                i = i.disc(t as u64, mask);
                self.g[t].active &= !mask;
            }
        }
        if !i.disc_valid && errors && self.rng.gen_ratio(1, 150) {
            if let Some(t) = self.ghost_id() {
                i = i.disc(t, self.rng.gen::<u64>() & self.p.lane_mask());
            }
        }
        if termed.is_none() && errors && self.rng.gen_ratio(1, 150) {
            if let Some(t) = self.ghost_id() {
                i = i.term(t);
                i.wb_tgid = t;
            }
        }

        // xl: groups before their merge point (illegal: after it).
        if self.rng.gen_ratio(1, 10) {
            let post_ok = errors && self.rng.gen_ratio(1, 10);
            let cands: Vec<usize> = (0..n)
                .filter(|&t| {
                    let g = self.g[t];
                    g.alive && !g.parked && !g.me_pending && (g.post == post_ok)
                })
                .collect();
            if !cands.is_empty() {
                let t = cands[self.rng.gen_range(0..cands.len())];
                i = i.xl(t as u64);
            }
        }
        i
    }
}

// ---- coverage ------------------------------------------------------------------------------

/// Hit counts of the coverage bins.
#[derive(Debug, Clone, Default)]
pub struct CoverageCounts {
    pub cycles: u64,
    /// Pairs spawned (grp handshakes with `grp_paired`).
    pub pairs: u64,
    /// Pairs with `grp_b_perm != 0`.
    pub remapped_pairs: u64,
    /// Singles spawned.
    pub singles: u64,
    /// `merge_count` increments.
    pub merges: u64,
    /// WAIT → POST with neither a merge nor a partner term at that edge.
    pub timeouts: u64,
    /// WAIT → POST because the partner terminated at that edge.
    pub partner_term_resumes: u64,
    /// The candidate left alone because its hold expired.
    pub hold_expiries: u64,
    /// ... because of `flush`, a primitive change, a `last`.
    pub flush_expiries: u64,
    pub prim_expiries: u64,
    pub last_expiries: u64,
    /// A full fragment passed a held candidate (E1 with a candidate).
    pub full_overtakes: u64,
    /// Effective `term` / `disc` (target PRE or POST).
    pub terms: u64,
    pub discs: u64,
    /// Accepted `me` on a POST group (NOP with a response).
    pub post_mes: u64,
    /// Cycles with a fragment presented and no free slot.
    pub slots_full: u64,
    pub grp_stalls: u64,
    pub rsp_stalls: u64,
    pub me_stalls: u64,
    pub resets: u64,
    /// Rising edges of `err_proto` / `err_xlane`.
    pub err_proto_sets: u64,
    pub err_xlane_sets: u64,
}

/// Functional coverage from each cycle's (inputs, outputs). The candidate's fate is
/// reconstructed from the ports: an edge where `pend_valid` falls without a fragment
/// accepted is an E0 emission, attributed (first match) to `flush`, a `last` mark (set by
/// a partial `last` fragment that replaced the candidate, or by a full `last` fragment),
/// a primitive change, or else the hold expiry.
#[derive(Debug, Clone)]
pub struct Coverage {
    p: ThreadMergeParams,
    allow_errors: bool,
    pub hits: CoverageCounts,
    prev: Option<(ThreadMergeInputs, ThreadMergeOutputs)>,
    /// The candidate as reconstructed: (prim, last).
    cand: Option<(u64, bool)>,
}

impl Coverage {
    /// Hits each required bin needs in [`Coverage::assert_all_hit`].
    pub const MIN_HITS: u64 = 10;

    pub fn new(params: &ThreadMergeParams, allow_errors: bool) -> Self {
        Coverage {
            p: params.clone(),
            allow_errors,
            hits: CoverageCounts::default(),
            prev: None,
            cand: None,
        }
    }

    /// Record one cycle: the inputs applied and the outputs observed before the edge.
    pub fn observe(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs) {
        if let Some((pi, po)) = self.prev.take() {
            self.edge(&pi, &po, o);
        }
        let h = &mut self.hits;
        h.cycles += 1;
        if i.reset {
            h.resets += 1;
        } else {
            h.slots_full += u64::from(i.frag_valid && o.free_cnt == 0);
            h.grp_stalls += u64::from(o.grp_valid && !i.grp_ready);
            h.rsp_stalls += u64::from(o.rsp_valid && !i.rsp_ready);
            h.me_stalls += u64::from(i.me_valid && !o.me_ready);
        }
        self.prev = Some((i.clone(), o.clone()));
    }

    /// What happened at the edge between cycle (i, o) and the next cycle's outputs `n`.
    fn edge(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs, n: &ThreadMergeOutputs) {
        let h = &mut self.hits;
        if i.reset {
            self.cand = None;
            return;
        }
        h.err_proto_sets += u64::from(!o.err_proto && n.err_proto);
        h.err_xlane_sets += u64::from(!o.err_xlane && n.err_xlane);
        h.merges += u64::from(n.merge_count != o.merge_count);
        if o.grp_valid && i.grp_ready {
            if o.grp_paired {
                h.pairs += 1;
                h.remapped_pairs += u64::from(o.grp_b_perm != 0);
            } else {
                h.singles += 1;
            }
        }
        let st = |t: u64| o.st_state.get(t as usize).copied().unwrap_or(FREE);
        let term_t = i.term_valid.then_some(i.term_tgid);
        if let Some(t) = term_t {
            h.terms += u64::from(matches!(st(t), PRE | POST));
        }
        if i.disc_valid && term_t != Some(i.disc_tgid) {
            h.discs += u64::from(matches!(st(i.disc_tgid), PRE | POST));
        }
        if i.me_valid && o.me_ready && st(i.me_tgid) == POST {
            h.post_mes += 1;
        }
        for t in 0..o.st_state.len() {
            if o.st_state[t] == WAIT && n.st_state[t] == POST {
                let merged = n.st_slot[t >> 1] & 4 != 0;
                if term_t == Some((t ^ 1) as u64) {
                    h.partner_term_resumes += 1;
                } else if !merged {
                    h.timeouts += 1;
                }
            }
        }
        // The candidate.
        let lm = self.p.lane_mask();
        let accepted = i.frag_valid && o.frag_ready;
        let cov = i.frag_cov & lm;
        if o.pend_valid && !accepted && !n.pend_valid {
            let prim_change = self
                .cand
                .is_some_and(|c| i.frag_valid && (i.frag_prim & self.p.prim_mask()) != c.0);
            if i.flush {
                h.flush_expiries += 1;
            } else if self.cand.is_some_and(|c| c.1) {
                h.last_expiries += 1;
            } else if prim_change {
                h.prim_expiries += 1;
            } else {
                h.hold_expiries += 1;
            }
            self.cand = None;
        } else if accepted && cov == lm {
            if o.pend_valid {
                h.full_overtakes += 1;
                if i.frag_last {
                    if let Some(c) = self.cand.as_mut() {
                        c.1 = true;
                    }
                }
            }
        } else if accepted && cov != 0 {
            self.cand = n
                .pend_valid
                .then_some((i.frag_prim & self.p.prim_mask(), o.pend_valid && i.frag_last));
        }
        if !n.pend_valid {
            self.cand = None;
        }
    }

    /// Every bin that the parameters and the error mode make reachable was hit at least
    /// [`Coverage::MIN_HITS`] times.
    pub fn assert_all_hit(&self) -> Result<(), String> {
        let h = &self.hits;
        let p = &self.p;
        let errs = self.allow_errors;
        let bins: Vec<(&str, u64, bool)> = vec![
            ("pairs", h.pairs, true),
            // Remaps need remap = true.
            ("remapped_pairs", h.remapped_pairs, p.remap),
            ("singles", h.singles, true),
            ("merges", h.merges, true),
            // merge_timeout 0: a waiting group waits forever.
            ("timeouts", h.timeouts, p.merge_timeout != 0),
            ("partner_term_resumes", h.partner_term_resumes, true),
            // pair_hold 0: a candidate never expires.
            ("hold_expiries", h.hold_expiries, p.pair_hold != 0),
            ("flush_expiries", h.flush_expiries, true),
            ("prim_expiries", h.prim_expiries, true),
            ("last_expiries", h.last_expiries, true),
            ("full_overtakes", h.full_overtakes, true),
            ("terms", h.terms, true),
            ("discs", h.discs, true),
            ("post_mes", h.post_mes, true),
            ("slots_full", h.slots_full, true),
            ("grp_stalls", h.grp_stalls, true),
            ("rsp_stalls", h.rsp_stalls, true),
            // With one slot at most two groups exist: a me meets a blocked response only
            // when both members' responses collide (seen, but rarely).
            ("me_stalls", h.me_stalls, p.slots >= 2),
            ("resets", h.resets, errs),
            ("err_proto_sets", h.err_proto_sets, errs),
            ("err_xlane_sets", h.err_xlane_sets, errs),
        ];
        crate::kit::check_bins(&bins, Self::MIN_HITS, h.cycles)
    }
}

// ---- invariants ----------------------------------------------------------------------------

/// The checker's record of a spawned group.
#[derive(Debug, Clone)]
struct IGroup {
    /// Per physical lane: (fragment tag, lane in that fragment) of the sample it holds.
    lanes: Vec<Option<(u64, u8)>>,
    active: u64,
    parked: bool,
    post: bool,
}

/// Invariants of contract §5 / spec §5.7, checked from each cycle's inputs and outputs
/// with the checker's own bookkeeping (never the model's):
///
/// * every spawned pair has disjoint masks and `b_cov` = the fragment's coverage under
///   `b_perm` (lane j holds sample j ^ p of its quad); `a_cov` is its fragment's coverage;
/// * a merge response names an even tgid A and retires A + 1, both parked; the two masks
///   are disjoint and `rsp_active` is their OR; at most one merge per slot allocation;
///   `merge_count` rises exactly with each new merge response;
/// * a resume without merge carries the group's active mask and retires nothing;
/// * in a term cycle (`wb_tgid = term_tgid`) `wb_active` is the group's active mask and
///   every active lane maps (`wb_lane_src`, tags, `wb_orig_lane`) to the sample the checker
///   placed there; each covered, undiscarded sample is written back exactly once;
/// * a running group is PRE or POST with the checker's active mask; `free_cnt` counts the
///   slots with both members FREE; `rf_common_wmask ⊆ rf_exec_mask`;
/// * `err_proto` rises exactly after an illegal event (cov 0, or me/term/disc for a group
///   that is not running), `err_xlane` exactly after `xl` for a group past its merge point;
/// * [`Invariants::finish`]: the drained block has `free_cnt = S`, nothing pending, no
///   group left, and every sample was written back.
///
/// The sample ledger is keyed by tag; it needs unique tags, so it is off for TAG_W < 24.
#[derive(Debug, Clone)]
pub struct Invariants {
    p: ThreadMergeParams,
    legal: bool,
    cycle: u64,
    ledger: HashMap<u64, (u64, bool)>,
    groups: Vec<Option<IGroup>>,
    slot_merges: Vec<u32>,
    prev: Option<(ThreadMergeInputs, ThreadMergeOutputs)>,
    expect_proto: bool,
    expect_xlane: bool,
    first: Option<String>,
    pub written: u64,
}

impl Invariants {
    pub fn new(params: &ThreadMergeParams, allow_errors: bool) -> Self {
        Invariants {
            p: params.clone(),
            legal: !allow_errors,
            cycle: 0,
            ledger: HashMap::new(),
            groups: vec![None; params.groups()],
            slot_merges: vec![0; params.slots],
            prev: None,
            expect_proto: false,
            expect_xlane: false,
            first: None,
            written: 0,
        }
    }

    fn ledger_on(&self) -> bool {
        self.p.tag_width >= 24
    }

    /// The first violation seen, with its cycle.
    pub fn first_violation(&self) -> Option<&String> {
        self.first.as_ref()
    }

    /// Feed one cycle; returns the first violation (with its cycle) once there is one.
    pub fn observe(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs) -> Result<(), String> {
        if self.first.is_none() {
            if let Err(e) = self.check(i, o) {
                self.first = Some(format!("cycle {}: {e}", self.cycle));
            }
        }
        self.cycle += 1;
        self.first.clone().map_or(Ok(()), Err)
    }

    /// Checks at the end of a drained run (`o` = the last outputs).
    pub fn finish(&mut self, o: &ThreadMergeOutputs) -> Result<(), String> {
        if let Some(e) = &self.first {
            return Err(e.clone());
        }
        let mut bad = Vec::new();
        if o.free_cnt != self.p.slots as u64 {
            bad.push(format!(
                "free_cnt {} at the end, want {}",
                o.free_cnt, self.p.slots
            ));
        }
        if o.pend_valid || o.grp_valid || o.rsp_valid {
            bad.push("candidate, descriptor or response left at the end".into());
        }
        if let Some(t) = self.groups.iter().position(|g| g.is_some()) {
            bad.push(format!("group {t} never terminated"));
        }
        if let Some((tag, (m, _))) = self.ledger.iter().next() {
            bad.push(format!(
                "{} fragments not fully written back, e.g. tag {tag:#x} lanes {m:#b}",
                self.ledger.len()
            ));
        }
        if bad.is_empty() {
            Ok(())
        } else {
            let e = format!("end of run (cycle {}): {}", self.cycle, bad.join("; "));
            self.first = Some(e.clone());
            Err(e)
        }
    }

    fn alive_running(&self, t: u64) -> bool {
        self.groups
            .get(t as usize)
            .and_then(|g| g.as_ref())
            .is_some_and(|g| !g.parked)
    }

    fn check(&mut self, i: &ThreadMergeInputs, o: &ThreadMergeOutputs) -> Result<(), String> {
        let lm = self.p.lane_mask();
        let prev = self.prev.replace((i.clone(), o.clone()));
        if i.reset {
            self.ledger.clear();
            self.groups.iter_mut().for_each(|g| *g = None);
            self.expect_proto = false;
            self.expect_xlane = false;
            self.prev = None;
            return Ok(());
        }
        // Results of the previous edge.
        if let Some((pi, po)) = &prev {
            if !pi.reset {
                if self.expect_proto && !o.err_proto {
                    return Err("illegal event did not set err_proto".into());
                }
                if !self.expect_proto && !po.err_proto && o.err_proto {
                    return Err("err_proto set without an illegal event".into());
                }
                if self.expect_xlane && !o.err_xlane {
                    return Err("xl after the merge point did not set err_xlane".into());
                }
                if !self.expect_xlane && !po.err_xlane && o.err_xlane {
                    return Err("err_xlane set without xl after the merge point".into());
                }
                if (po.err_proto && !o.err_proto) || (po.err_xlane && !o.err_xlane) {
                    return Err("an error flag fell without reset".into());
                }
                let new_rsp = o.rsp_valid && (!po.rsp_valid || pi.rsp_ready);
                let delta = o.merge_count.wrapping_sub(po.merge_count) & 0xFFFF_FFFF;
                if delta != u64::from(new_rsp && o.rsp_merged) {
                    return Err(format!(
                        "merge_count moved by {delta} with new merge response {}",
                        new_rsp && o.rsp_merged
                    ));
                }
            }
        }
        self.expect_proto = false;
        self.expect_xlane = false;

        // State checks on this cycle's outputs.
        let free = (0..self.p.slots)
            .filter(|&s| o.st_state[2 * s] == FREE && o.st_state[2 * s + 1] == FREE)
            .count() as u64;
        if o.free_cnt != free {
            return Err(format!(
                "free_cnt {} but {free} slots have both members FREE",
                o.free_cnt
            ));
        }
        if o.rf_common_wmask & !o.rf_exec_mask != 0 {
            return Err(format!("rf({}) common_wmask not within exec_mask", i.rf_tgid));
        }
        if self.legal && (o.err_proto || o.err_xlane) {
            return Err("error flag in a legal run".into());
        }
        for (t, g) in self.groups.iter().enumerate() {
            if let Some(g) = g.as_ref().filter(|g| !g.parked) {
                if !matches!(o.st_state[t], PRE | POST) || o.st_active[t] != g.active {
                    return Err(format!(
                        "running group {t}: st_state {} st_active {:#b}, checker active {:#b}",
                        o.st_state[t], o.st_active[t], g.active
                    ));
                }
            }
        }

        // term (wb lookup of this cycle), disc, me, xl.
        if i.term_valid {
            let t = i.term_tgid;
            if self.alive_running(t) {
                if i.wb_tgid != t {
                    return Err(format!("term{{{t}}} with wb_tgid {}", i.wb_tgid));
                }
                let g = self.groups[t as usize].take().expect("running");
                if o.wb_active != g.active {
                    return Err(format!(
                        "term{{{t}}}: wb_active {:#b}, checker {:#b}",
                        o.wb_active, g.active
                    ));
                }
                for l in (0..self.p.lanes).filter(|&l| g.active >> l & 1 == 1) {
                    let tag = if o.wb_lane_src >> l & 1 == 1 {
                        o.wb_tag_partner
                    } else {
                        o.wb_tag_self
                    };
                    let got = (tag, o.wb_orig_lane[l]);
                    if Some(got) != g.lanes[l] {
                        return Err(format!(
                            "term{{{t}}} lane {l}: written back to (tag {:#x}, lane {}), holds {:?}",
                            got.0, got.1, g.lanes[l]
                        ));
                    }
                    self.write_back(got.0, got.1)?;
                }
            } else {
                self.expect_proto = true;
            }
        }
        if i.disc_valid {
            let t = i.disc_tgid;
            if self.alive_running(t) {
                let g = self.groups[t as usize].as_mut().expect("running");
                let gone = g.active & i.disc_mask & lm;
                g.active &= !gone;
                let samples: Vec<(u64, u8)> = (0..self.p.lanes)
                    .filter(|&l| gone >> l & 1 == 1)
                    .map(|l| g.lanes[l].expect("active lane holds a sample"))
                    .collect();
                for (tag, lane) in samples {
                    self.drop_sample(tag, lane)?;
                }
            } else {
                self.expect_proto = true;
            }
        }
        if i.me_valid && o.me_ready {
            if self.alive_running(i.me_tgid) {
                self.groups[i.me_tgid as usize].as_mut().expect("running").parked = true;
            } else {
                self.expect_proto = true;
            }
        }
        if i.xl_valid && self.alive_running(i.xl_tgid) {
            self.expect_xlane = self.groups[i.xl_tgid as usize].as_ref().is_some_and(|g| g.post);
        }

        // Response handshake.
        if o.rsp_valid && i.rsp_ready {
            let t = o.rsp_tgid as usize;
            let parked = |g: &Option<IGroup>| g.as_ref().is_some_and(|g| g.parked);
            if !self.groups.get(t).is_some_and(parked) {
                return Err(format!("rsp for group {t}, which is not parked"));
            }
            if o.rsp_merged {
                let b = t + 1;
                if t % 2 != 0 || !o.rsp_retire || o.rsp_retire_tgid != b as u64 || !parked(&self.groups[b]) {
                    return Err(format!(
                        "merge rsp {t} retire {} {} (B parked: {})",
                        o.rsp_retire,
                        o.rsp_retire_tgid,
                        parked(&self.groups[b])
                    ));
                }
                let gb = self.groups[b].take().expect("parked");
                let ga = self.groups[t].as_mut().expect("parked");
                if ga.active & gb.active != 0 {
                    return Err(format!(
                        "merge of {t}: masks {:#b} and {:#b} overlap",
                        ga.active, gb.active
                    ));
                }
                if o.rsp_active != ga.active | gb.active {
                    return Err(format!(
                        "merge of {t}: rsp_active {:#b}, want {:#b} | {:#b}",
                        o.rsp_active, ga.active, gb.active
                    ));
                }
                for l in 0..self.p.lanes {
                    if gb.active >> l & 1 == 1 {
                        ga.lanes[l] = gb.lanes[l];
                    }
                }
                ga.active |= gb.active;
                self.slot_merges[t / 2] += 1;
                if self.slot_merges[t / 2] > 1 {
                    return Err(format!("slot {} merged twice in one allocation", t / 2));
                }
            } else if o.rsp_retire {
                return Err(format!("resume of {t} without merge retires a group"));
            } else if o.rsp_active != self.groups[t].as_ref().expect("parked").active {
                return Err(format!("resume of {t}: rsp_active {:#b}", o.rsp_active));
            }
            let g = self.groups[t].as_mut().expect("parked");
            g.parked = false;
            g.post = true;
        }

        // Spawn handshake.
        if o.grp_valid && i.grp_ready {
            self.spawn(o)?;
        }

        // Fragment acceptance.
        if i.frag_valid && o.frag_ready {
            let cov = i.frag_cov & lm;
            if cov == 0 {
                self.expect_proto = true;
            } else if self.ledger_on()
                && self
                    .ledger
                    .insert(i.frag_tag & self.p.tag_mask(), (cov, false))
                    .is_some()
            {
                return Err(format!("fragment tag {:#x} accepted twice", i.frag_tag));
            }
        }
        Ok(())
    }

    fn spawn(&mut self, o: &ThreadMergeOutputs) -> Result<(), String> {
        let a = o.grp_a_tgid as usize;
        let n = self.groups.len();
        if a % 2 != 0 || a >= n || self.groups[a].is_some() || self.groups[a + 1].is_some() {
            return Err(format!("descriptor for tgid {a}, not a free slot's A"));
        }
        let mut members = vec![(a, o.grp_a_cov, o.grp_a_tag, 0u8)];
        if o.grp_paired {
            if o.grp_b_tgid != a as u64 + 1 {
                return Err(format!("pair {a}/{}", o.grp_b_tgid));
            }
            if o.grp_a_cov & o.grp_b_cov != 0 {
                return Err(format!(
                    "pair masks {:#b} {:#b} overlap",
                    o.grp_a_cov, o.grp_b_cov
                ));
            }
            members.push((a + 1, o.grp_b_cov, o.grp_b_tag, o.grp_b_perm & 3));
        }
        for (t, cov, tag, perm) in members {
            // Physical lane j holds sample j ^ p of its quad.
            let lanes: Vec<Option<(u64, u8)>> = (0..self.p.lanes)
                .map(|j| (cov >> j & 1 == 1).then_some((tag, ((j & !3) | ((j & 3) ^ perm as usize)) as u8)))
                .collect();
            if self.ledger_on() {
                let logical: u64 = lanes.iter().flatten().map(|&(_, l)| 1u64 << l).sum();
                match self.ledger.get_mut(&tag) {
                    Some((c, spawned)) if !*spawned && *c == logical => *spawned = true,
                    other => {
                        return Err(format!(
                            "group {t} (tag {tag:#x}, cov {cov:#b}, perm {perm}) does not match its fragment: {other:?}"
                        ))
                    }
                }
            }
            self.groups[t] = Some(IGroup {
                lanes,
                active: cov,
                parked: false,
                post: false,
            });
        }
        self.slot_merges[a / 2] = 0;
        Ok(())
    }

    fn write_back(&mut self, tag: u64, lane: u8) -> Result<(), String> {
        self.written += 1;
        self.drop_sample(tag, lane)
            .map_err(|e| format!("write-back: {e}"))
    }

    fn drop_sample(&mut self, tag: u64, lane: u8) -> Result<(), String> {
        if !self.ledger_on() {
            return Ok(());
        }
        let Some((m, _)) = self.ledger.get_mut(&tag) else {
            return Err(format!(
                "sample (tag {tag:#x}, lane {lane}) of no outstanding fragment"
            ));
        };
        if *m >> lane & 1 == 0 {
            return Err(format!(
                "sample (tag {tag:#x}, lane {lane}) written back or discarded twice"
            ));
        }
        *m &= !(1u64 << lane);
        if *m == 0 {
            self.ledger.remove(&tag);
        }
        Ok(())
    }
}

// ---- a whole random run ----------------------------------------------------------------------

/// What a random run saw.
#[derive(Debug, Clone)]
pub struct RandomReport {
    /// Cycles run, drain included.
    pub cycles: u64,
    pub coverage: Coverage,
    /// Samples written back (checked by the invariants).
    pub written: u64,
}

/// Cycles a run may take to drain after `cycles` before it counts as stuck.
pub const DRAIN_LIMIT: u64 = 5000;

/// Run `cycles` cycles of seeded stimulus through `dut` with the [`Invariants`] checker and
/// [`Coverage`], then drain and check the drained block. Coverage is not asserted here.
pub fn run_random(
    dut: &mut dyn super::Dut<super::ThreadMerge>,
    seed: u64,
    allow_errors: bool,
    cycles: u64,
) -> Result<RandomReport, String> {
    let p = dut.params().clone();
    let mut stim = ThreadMergeStimulus::new(&p, seed)
        .allow_errors(allow_errors)
        .drain_from(cycles);
    let mut cov = Coverage::new(&p, allow_errors);
    let mut inv = Invariants::new(&p, allow_errors);
    let mut last = ThreadMergeOutputs::default();
    let ctx = |e: String| format!("seed {seed}, errors {allow_errors}, {p:?}: {e}");
    for c in 0..cycles + DRAIN_LIMIT {
        let i = stim.next(&last);
        let o = dut.eval(&i);
        inv.observe(&i, &o).map_err(ctx)?;
        cov.observe(&i, &o);
        if c >= cycles && stim.is_drained(&o) {
            inv.finish(&o).map_err(ctx)?;
            return Ok(RandomReport {
                cycles: c + 1,
                coverage: cov,
                written: inv.written,
            });
        }
        dut.tick();
        last = o;
    }
    Err(ctx(format!(
        "not drained {DRAIN_LIMIT} cycles after the stimulus stopped"
    )))
}
