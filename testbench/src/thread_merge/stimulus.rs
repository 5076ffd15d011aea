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
//!   With `merge_ways` W > 2 (R20) the coverage is drawn so that sets of 3 and 4 form:
//!   at 4 lanes a quad is full (15 %) or else a 1-lane corner (55 %), a 2-lane row or
//!   column (35 %) or any edge shape (10 %); at 8–32 lanes a tile is full (8 %) or sparse,
//!   one random quad plus each other quad with probability 1/(LANES/4), each such a partial
//!   quad (90 %) or full. W = 2 draws exactly as before (the same random stream per seed).
//! * **Scheduler** (contract §5). A group is spawned on a `grp` handshake (every member of
//!   the descriptor: A, B of a pair, C and D of a set, R20). It runs its pre-merge part for a random time (mostly 1–10 cycles, 20 % 10–20,
//!   10 % 20–45: partners arriving beyond `merge_timeout`), then sends `me` (held until
//!   `me_ready`) and is parked until a `rsp` names it; `rsp_retire` drops the retired
//!   group (with W > 2 every member named in `rsp_retire_mask`: bit j-1 = `rsp_tgid + j`). After its resume it runs 1–16 cycles (5 % send a second `me`, a POST NOP) and
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
//!   knows to be free in a slot another member of which is running (so it cannot have been
//!   reallocated), an id whose slot is ≥ S, or with W = 3 member 3 of any slot (R20: m ≥ W
//!   names nothing) — and `xl` for groups past their merge point.
//!   These set `err_proto` / `err_xlane` and change nothing else.
//! * **Drain** ([`ThreadMergeStimulus::drain_from`]): from that cycle on, no new fragments,
//!   `flush` held high, no resets or illegal events; the run then drains to
//!   `free_cnt = S` ([`ThreadMergeStimulus::is_drained`]).

use super::model::FREE;
use super::{ThreadMergeInputs, ThreadMergeOutputs, ThreadMergeParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

mod coverage;
mod invariants;
pub use coverage::{Coverage, CoverageCounts};
pub use invariants::Invariants;

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
                let retired: Vec<usize> = if self.p.merge_ways > 2 {
                    (1..self.p.merge_ways)
                        .filter(|j| o.rsp_retire_mask >> (j - 1) & 1 == 1)
                        .map(|j| t + j)
                        .collect()
                } else {
                    vec![o.rsp_retire_tgid as usize]
                };
                for r in retired {
                    if r < self.g.len() {
                        self.g[r] = SGroup::default();
                    }
                }
            }
        }
        if o.grp_valid && i.grp_ready {
            let a = o.grp_a_tgid as usize;
            self.spawn(a, o.grp_a_cov);
            if o.grp_paired {
                self.spawn(o.grp_b_tgid as usize, o.grp_b_cov);
            }
            if self.p.merge_ways > 2 && o.grp_c_valid {
                self.spawn(o.grp_c_tgid as usize, o.grp_c_cov);
            }
            if self.p.merge_ways == 4 && o.grp_d_valid {
                self.spawn(o.grp_d_tgid as usize, o.grp_d_cov);
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
        let mut i = self.payloads();
        // R16-R17: any counter index (also past the last one), rare clears. Drawn only
        // with perf_counters, so that runs without the key see the same random stream.
        if self.p.perf_counters {
            i.perf_sel = self.rng.gen::<u64>() & crate::thread_merge::model::ones(self.p.perf_sel_w());
            i.perf_clr = self.rng.gen_ratio(1, 400);
            i.err_clr = self.rng.gen_ratio(1, 150);
        }
        i
    }

    fn payloads(&mut self) -> ThreadMergeInputs {
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

    /// A partial quad for sets of 3 and 4 (R20): mostly one corner or a half.
    fn sparse_quad(&mut self) -> u64 {
        match self.rng.gen_range(0..20) {
            0..=10 => 1 << self.rng.gen_range(0..4),
            11..=17 => [0b0011, 0b1100, 0b0101, 0b1010][self.rng.gen_range(0..4)],
            _ => self.edge_quad(),
        }
    }

    /// Coverage for `merge_ways` > 2, see the module documentation.
    fn gen_cov_ways(&mut self) -> u64 {
        let k = self.p.lanes / 4;
        if k == 1 {
            return if self.rng.gen_ratio(3, 20) { 0b1111 } else { self.sparse_quad() };
        }
        if self.rng.gen_ratio(2, 25) {
            return self.p.lane_mask();
        }
        let forced = self.rng.gen_range(0..k);
        let mut cov = 0;
        for q in 0..k {
            if q == forced || self.rng.gen_ratio(1, k as u32) {
                let m = if self.rng.gen_ratio(9, 10) { self.sparse_quad() } else { 0b1111 };
                cov |= m << (4 * q);
            }
        }
        cov
    }

    /// Edge-like coverage, see the module documentation.
    fn gen_cov(&mut self) -> u64 {
        if self.p.merge_ways > 2 {
            return self.gen_cov_ways();
        }
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

    /// A FREE id safe for an illegal event: a free member of a slot another member of
    /// which is running, an id naming no slot, or (W = 3) member 3 of a slot.
    fn ghost_id(&mut self) -> Option<u64> {
        let m = self.p.members();
        let w = self.p.merge_ways;
        let slot_alive = |t: usize| (t / m * m..t / m * m + m).any(|u| u != t && self.g[u].alive);
        let mut ids: Vec<u64> = (0..self.g.len())
            .filter(|&t| !self.g[t].alive && (slot_alive(t) || (w > 2 && t % m >= w)))
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
