//! Cycle-level reference model of the `ict_scoreboard` block (instruction completion
//! trackers, "explicit scoreboard"), written from `docs/spec/scoreboard.md` only:
//!
//! * §2.1/§2.2 — one set of counters per thread group; +1 when a reorderable
//!   instruction is sent, −1 per completion; same-cycle increment and decrements net out.
//! * §2.4 — an instruction proceeds only if every tracker of its dependency set is 0.
//! * §2.2 "Saturation", §6.4.4 — a reorderable instruction on a tracker at `TRK_MAX` stalls.
//! * §2.8 — scoreboard branch with two sets, set A has priority (§8 item 2); with the
//!   `branch_sets` key, three or four sets taken in the order A, B, C, D: the branch goes to
//!   the first satisfied set and stalls while none is (docs/blocks/scoreboard.md, rule SB2).
//! * §6.2–§6.4 — parameters, ports, cycle semantics (registered state, combinational
//!   checks, no bypass, wait mask replaced on every fire, sticky underflow flag).
//!
//! * Rule SB5 (`implicit_fence`, docs/blocks/scoreboard.md; spec [0050], [0159]) — an
//!   instruction counted on a fenced tracker also depends on that tracker
//!   ([`ScoreboardModel::dep_set`]): it issues only when its group's count there is 0.
//! * Rule SB6 (`branch_fetch_gate`, docs/blocks/scoreboard.md; spec [0144], [0145], §8 item 7)
//!   — an instruction that fires with `iss_nxt_br` annotates a scoreboard branch: its group keeps
//!   the branch's `br_sets` sets, and `fetch_ok` is true when any one of them has drained
//!   ([`ScoreboardModel::fetch_ok`]); without `iss_nxt_br` it keeps one set, as without the key.
//! * Rules SB3, SB4 (`perf_counters`, docs/perf.md) — [`perf`]: the events of a cycle from the
//!   state and the inputs (a refused issue counts each cause that holds; the underflow event is
//!   what sets `err_underflow`), 32-bit saturating counters cleared by `perf_clr` and reset;
//!   `err_clr` clears `err_underflow` unless this edge underflows. Without the key the model
//!   ignores the three inputs.
//!
//! Where the spec and the block contract differ (reset is synchronous and active high
//! here, the spec's `rst_n` is asynchronous active low; group/tracker ids that name no
//! counter) the contract of the verification plan is followed.
//!
//! Input values are taken modulo their port width (TGW, TKW or NUM_TRK bits), as the
//! Verilog ports would truncate them.

pub mod perf;

/// Block parameters (spec §6.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreboardParams {
    /// Resident thread groups, 1..=64.
    pub num_tg: usize,
    /// Trackers per thread group, 1..=16.
    pub num_trk: usize,
    /// Counter width in bits, 1..=8.
    pub cnt_w: u32,
    /// Completion ports, 1..=4.
    pub num_cpl: usize,
    /// Per-tracker maximum count, each 1..=2^cnt_w-1 (`TRK_MAX`).
    pub trk_max: Vec<u64>,
    /// Dependency sets of the scoreboard branch, 2..=4 (`branch_sets`): A, B, C, D.
    pub br_sets: usize,
    /// The performance counters and `err_clr` (rules SB3, SB4).
    pub perf_counters: bool,
    /// Trackers with an implicit fence, bit t for tracker t (rule SB5, `implicit_fence`).
    pub fence: u64,
    /// Fetch gating over the branch's sets (rule SB6, `branch_fetch_gate`).
    pub fetch_gate: bool,
}

/// `max(1, ceil(log2 n))`.
fn id_width(n: usize) -> u32 {
    (usize::BITS - n.saturating_sub(1).leading_zeros()).max(1)
}

/// All-ones mask of `bits` bits.
fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl ScoreboardParams {
    /// §6.5 default configuration: NUM_TG=4, NUM_TRK=8, CNT_W=4, NUM_CPL=2,
    /// `TRK_MAX = 32'h1fffffff` (tracker 7 limited to 1, all others 15).
    pub fn spec_default() -> Self {
        let mut trk_max = vec![15; 8];
        trk_max[7] = 1;
        ScoreboardParams {
            num_tg: 4,
            num_trk: 8,
            cnt_w: 4,
            num_cpl: 2,
            trk_max,
            br_sets: 2,
            perf_counters: false,
            fence: 0,
            fetch_gate: false,
        }
    }

    /// §6.5 variant "w1": as the default but CNT_W=1 and every `TRK_MAX` 1.
    pub fn spec_w1() -> Self {
        ScoreboardParams {
            cnt_w: 1,
            trk_max: vec![1; 8],
            ..Self::spec_default()
        }
    }

    /// Width of a thread-group id port: max(1, ceil(log2 NUM_TG)).
    pub fn tgw(&self) -> u32 {
        id_width(self.num_tg)
    }

    /// Width of a tracker id port: max(1, ceil(log2 NUM_TRK)).
    pub fn tkw(&self) -> u32 {
        id_width(self.num_trk)
    }

    /// Mask covering every tracker of one group (the NUM_TRK-bit mask ports).
    pub fn trk_mask(&self) -> u64 {
        ones(self.num_trk as u32)
    }

    /// NCNT: the counters (0 without `perf_counters`).
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { perf::names(self.num_cpl).len() } else { 0 }
    }

    /// PSW, the width of `perf_sel`.
    pub fn perf_sel_w(&self) -> u32 {
        crate::perf::sel_width(perf::names(self.num_cpl).len())
    }

    /// Check the ranges of §6.2 / the block contract.
    pub fn validate(&self) -> Result<(), String> {
        let in_range = |v: usize, lo: usize, hi: usize| (lo..=hi).contains(&v);
        if !in_range(self.num_tg, 1, 64)
            || !in_range(self.num_trk, 1, 16)
            || !in_range(self.cnt_w as usize, 1, 8)
            || !in_range(self.num_cpl, 1, 4)
            || !in_range(self.br_sets, 2, 4)
            || self.fence & !self.trk_mask() != 0
        {
            return Err(format!("scoreboard parameters out of range: {self:?}"));
        }
        if self.trk_max.len() != self.num_trk {
            return Err(format!(
                "trk_max has {} entries, NUM_TRK is {}",
                self.trk_max.len(),
                self.num_trk
            ));
        }
        let top = ones(self.cnt_w);
        if let Some(t) = self.trk_max.iter().position(|&m| m == 0 || m > top) {
            return Err(format!(
                "trk_max[{t}]={} is outside 1..={top}",
                self.trk_max[t]
            ));
        }
        Ok(())
    }
}

/// Block inputs for one cycle (spec §6.3). `Default` is all zero with empty
/// completion vectors; a missing completion port counts as not valid.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreboardInputs {
    /// Synchronous, active-high reset.
    pub reset: bool,
    pub clr_valid: bool,
    pub clr_tg: u64,
    pub iss_valid: bool,
    pub iss_tg: u64,
    pub iss_dep_mask: u64,
    pub iss_trk_en: bool,
    pub iss_trk: u64,
    pub iss_nxt_mask: u64,
    /// SB6 (with `fetch_gate` only; ignored otherwise): the next instruction is a scoreboard
    /// branch whose sets are `iss_nxt_mask` (A), `iss_nxt_mask_b`, `_c`, `_d` (up to `br_sets`).
    pub iss_nxt_br: bool,
    pub iss_nxt_mask_b: u64,
    pub iss_nxt_mask_c: u64,
    pub iss_nxt_mask_d: u64,
    pub chk_tg: u64,
    pub chk_mask: u64,
    pub br_tg: u64,
    pub br_mask_a: u64,
    pub br_mask_b: u64,
    /// Sets C and D (read only when `br_sets` is 3 or 4).
    pub br_mask_c: u64,
    pub br_mask_d: u64,
    pub cpl_valid: Vec<bool>,
    pub cpl_tg: Vec<u64>,
    pub cpl_trk: Vec<u64>,
    /// SB3-SB4 (with `perf_counters` only; ignored otherwise).
    pub perf_sel: u64,
    pub perf_clr: bool,
    pub err_clr: bool,
}

impl ScoreboardInputs {
    /// All-zero inputs with the completion vectors sized to NUM_CPL.
    pub fn idle(p: &ScoreboardParams) -> Self {
        ScoreboardInputs {
            cpl_valid: vec![false; p.num_cpl],
            cpl_tg: vec![0; p.num_cpl],
            cpl_trk: vec![0; p.num_cpl],
            ..Default::default()
        }
    }

    /// Present an instruction on the issue port: `iss(g, trk, dep, nxt)` of §6.5,
    /// `trk = None` being "–" (not reorderable).
    pub fn iss(mut self, tg: u64, trk: Option<u64>, dep: u64, nxt: u64) -> Self {
        self.iss_valid = true;
        self.iss_tg = tg;
        self.iss_trk_en = trk.is_some();
        self.iss_trk = trk.unwrap_or(0);
        self.iss_dep_mask = dep;
        self.iss_nxt_mask = nxt;
        self
    }

    /// Add a completion on the first free port (panics if all ports are in use).
    pub fn cpl(self, tg: u64, trk: u64) -> Self {
        let p = self
            .cpl_valid
            .iter()
            .position(|v| !v)
            .expect("no free completion port");
        self.cpl_on(p, tg, trk)
    }

    /// Present a completion on port `p`.
    pub fn cpl_on(mut self, p: usize, tg: u64, trk: u64) -> Self {
        self.cpl_valid[p] = true;
        self.cpl_tg[p] = tg;
        self.cpl_trk[p] = trk;
        self
    }

    pub fn chk(mut self, tg: u64, mask: u64) -> Self {
        self.chk_tg = tg;
        self.chk_mask = mask;
        self
    }

    pub fn br(mut self, tg: u64, mask_a: u64, mask_b: u64) -> Self {
        self.br_tg = tg;
        self.br_mask_a = mask_a;
        self.br_mask_b = mask_b;
        self
    }

    /// SB6: the next instruction is a scoreboard branch with sets A (`iss_nxt_mask`, given by
    /// [`Self::iss`]) and B, C, D.
    pub fn nxt_br(mut self, b: u64, c: u64, d: u64) -> Self {
        self.iss_nxt_br = true;
        self.iss_nxt_mask_b = b;
        self.iss_nxt_mask_c = c;
        self.iss_nxt_mask_d = d;
        self
    }

    /// The branch's sets C and D (with [`Self::br`] for the group and sets A, B).
    pub fn br_cd(mut self, mask_c: u64, mask_d: u64) -> Self {
        self.br_mask_c = mask_c;
        self.br_mask_d = mask_d;
        self
    }

    pub fn clr(mut self, tg: u64) -> Self {
        self.clr_valid = true;
        self.clr_tg = tg;
        self
    }

    pub fn with_reset(mut self) -> Self {
        self.reset = true;
        self
    }
}

/// Block outputs for one cycle (spec §6.3). Per-counter vectors are indexed `g*NUM_TRK+t`.
/// A port the config does not have reads 0: `br_sat_c`/`br_sat_d` below 3/4 branch sets,
/// `br_sel` at 2 sets, `br_sel_b` above 2 sets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ScoreboardOutputs {
    pub iss_ready: bool,
    pub iss_fire: bool,
    pub fetch_ok: Vec<bool>,
    pub chk_ok: bool,
    pub br_sat_a: bool,
    pub br_sat_b: bool,
    pub br_go: bool,
    pub br_sel_b: bool,
    pub br_sat_c: bool,
    pub br_sat_d: bool,
    /// Index of the first satisfied branch set in the order A, B, C, D; 0 when none.
    pub br_sel: u64,
    pub trk_zero: Vec<bool>,
    pub trk_full: Vec<bool>,
    pub tg_idle: Vec<bool>,
    pub cnt: Vec<u64>,
    pub err_underflow: bool,
    /// Counter `perf_sel` (0 past the last one, and without `perf_counters`).
    pub perf_val: u64,
}

/// The reference model: registered state plus the combinational function of §6.3/§6.4.
#[derive(Debug, Clone)]
pub struct ScoreboardModel {
    p: ScoreboardParams,
    /// `cnt[g*NUM_TRK+t]`
    cnt: Vec<u64>,
    /// Per group, the sets the next instruction waits for: one (set A), or with SB6 the
    /// `br_sets` sets of an annotated branch, any one of which opens the fetch.
    wait_mask: Vec<Vec<u64>>,
    pub(crate) err: bool,
    /// SB3: the counters in `perf_sel` order (empty without `perf_counters`).
    pub(crate) perf: Vec<u32>,
}

impl ScoreboardModel {
    /// A model in its reset state. Panics on invalid parameters.
    pub fn new(p: &ScoreboardParams) -> Self {
        if let Err(e) = p.validate() {
            panic!("{e}");
        }
        ScoreboardModel {
            p: p.clone(),
            cnt: vec![0; p.num_tg * p.num_trk],
            wait_mask: vec![vec![0]; p.num_tg],
            err: false,
            perf: vec![0; p.perf_count()],
        }
    }

    pub fn params(&self) -> &ScoreboardParams {
        &self.p
    }

    pub fn cnt(&self, g: usize, t: usize) -> u64 {
        self.cnt[g * self.p.num_trk + t]
    }

    /// Group g's wait sets (set A first).
    pub fn wait_mask(&self, g: usize) -> &[u64] {
        &self.wait_mask[g]
    }

    pub fn err_underflow(&self) -> bool {
        self.err
    }

    /// A group id port value (truncated to TGW bits) if it names a resident group.
    fn group(&self, tg: u64) -> Option<usize> {
        let g = (tg & ones(self.p.tgw())) as usize;
        (g < self.p.num_tg).then_some(g)
    }

    /// A tracker id port value (truncated to TKW bits) if it names a tracker.
    fn tracker(&self, trk: u64) -> Option<usize> {
        let t = (trk & ones(self.p.tkw())) as usize;
        (t < self.p.num_trk).then_some(t)
    }

    /// Bit t set when tracker t of group g is non-zero.
    fn busy_mask(&self, g: usize) -> u64 {
        (0..self.p.num_trk)
            .filter(|&t| self.cnt(g, t) != 0)
            .fold(0, |m, t| m | 1 << t)
    }

    /// §2.4 all-zero rule: every tracker of `mask` in group `tg` is 0 (empty set
    /// satisfied); false for a group id that names no group.
    fn all_zero(&self, tg: u64, mask: u64) -> bool {
        self.group(tg)
            .is_some_and(|g| mask & self.p.trk_mask() & self.busy_mask(g) == 0)
    }

    /// §6.3 `fetch_ok[g]`: the annotated dependency set of g's next instruction has drained;
    /// SB6: for an annotated branch, one of its sets has (the one the branch will then take).
    fn fetch_ok(&self, g: usize) -> bool {
        self.wait_mask[g].iter().any(|&m| m & self.busy_mask(g) == 0)
    }

    /// §6.3 `iss_ready` (independent of `iss_valid` and `reset`).
    fn iss_ready(&self, i: &ScoreboardInputs) -> bool {
        let Some(g) = self.group(i.iss_tg) else {
            return false;
        };
        let trk_ok = !i.iss_trk_en
            || self
                .tracker(i.iss_trk)
                .is_some_and(|t| self.cnt(g, t) < self.p.trk_max[t]);
        self.fetch_ok(g) && self.all_zero(i.iss_tg, self.dep_set(i)) && trk_ok
    }

    /// The issuing instruction's dependency set: `iss_dep_mask`, and by rule SB5 its own
    /// tracker when that tracker has an implicit fence (the instruction then waits for every
    /// earlier instruction of its class in its group to complete).
    fn dep_set(&self, i: &ScoreboardInputs) -> u64 {
        let own = match self.tracker(i.iss_trk) {
            Some(t) if i.iss_trk_en && self.p.fence >> t & 1 == 1 => 1 << t,
            _ => 0,
        };
        i.iss_dep_mask | own
    }

    /// Combinational outputs for the current state and inputs (no state change).
    pub fn outputs(&self, i: &ScoreboardInputs) -> ScoreboardOutputs {
        let (ntg, ntrk) = (self.p.num_tg, self.p.num_trk);
        let iss_ready = self.iss_ready(i);
        // §2.8 / rule SB2: the sets in their order A, B, C, D; the first satisfied one wins.
        let n = self.p.br_sets;
        let masks = [i.br_mask_a, i.br_mask_b, i.br_mask_c, i.br_mask_d];
        let sat: Vec<bool> = masks[..n].iter().map(|&m| self.all_zero(i.br_tg, m)).collect();
        let first = sat.iter().position(|&s| s);
        let sat_of = |k: usize| sat.get(k).copied().unwrap_or(false);
        ScoreboardOutputs {
            iss_ready,
            iss_fire: i.iss_valid && iss_ready,
            fetch_ok: (0..ntg).map(|g| self.fetch_ok(g)).collect(),
            chk_ok: self.all_zero(i.chk_tg, i.chk_mask),
            br_sat_a: sat_of(0),
            br_sat_b: sat_of(1),
            br_go: first.is_some(),
            br_sel_b: n == 2 && first == Some(1),
            br_sat_c: sat_of(2),
            br_sat_d: sat_of(3),
            br_sel: if n > 2 { first.unwrap_or(0) as u64 } else { 0 },
            trk_zero: self.cnt.iter().map(|&c| c == 0).collect(),
            trk_full: self
                .cnt
                .iter()
                .enumerate()
                .map(|(k, &c)| c >= self.p.trk_max[k % ntrk])
                .collect(),
            tg_idle: (0..ntg).map(|g| self.busy_mask(g) == 0).collect(),
            cnt: self.cnt.clone(),
            err_underflow: self.err,
            perf_val: crate::perf::read(&self.perf, i.perf_sel & ones(self.p.perf_sel_w())),
        }
    }

    /// One rising clock edge with inputs `i` (§6.4).
    pub fn clock(&mut self, i: &ScoreboardInputs) {
        let ntrk = self.p.num_trk;
        if i.reset {
            self.cnt.fill(0);
            self.wait_mask.fill(vec![0]);
            self.err = false;
            self.perf.fill(0);
            return;
        }
        let fire = i.iss_valid && self.iss_ready(i);
        let mut ev = self.perf_events(i);
        let mut underflow = false;

        // §6.4.2: +1 for the issued reorderable instruction, −1 per completion port.
        let mut delta = vec![0i64; self.cnt.len()];
        if fire && i.iss_trk_en {
            // iss_ready guarantees both ids are valid.
            let g = self.group(i.iss_tg).unwrap();
            let t = self.tracker(i.iss_trk).unwrap();
            delta[g * ntrk + t] += 1;
        }
        for p in 0..self.p.num_cpl {
            if !i.cpl_valid.get(p).copied().unwrap_or(false) {
                continue;
            }
            let tg = i.cpl_tg.get(p).copied().unwrap_or(0);
            let trk = i.cpl_trk.get(p).copied().unwrap_or(0);
            match (self.group(tg), self.tracker(trk)) {
                (Some(g), Some(t)) => delta[g * ntrk + t] -= 1,
                // A completion naming no counter: nothing was outstanding on it.
                _ => underflow = true,
            }
        }
        for (c, d) in self.cnt.iter_mut().zip(&delta) {
            let v = *c as i64 + d;
            underflow |= v < 0;
            *c = v.max(0) as u64;
        }

        // §6.4.5: every fire replaces the group's wait mask.
        // SB6: with the key, a fire with iss_nxt_br keeps the branch's br_sets sets.
        if fire {
            let g = self.group(i.iss_tg).unwrap();
            let sets = [i.iss_nxt_mask, i.iss_nxt_mask_b, i.iss_nxt_mask_c, i.iss_nxt_mask_d];
            let n = if self.p.fetch_gate && i.iss_nxt_br { self.p.br_sets } else { 1 };
            self.wait_mask[g] = sets[..n].iter().map(|m| m & self.p.trk_mask()).collect();
        }

        // Thread-group (re)launch overrides this cycle's updates of that group.
        if i.clr_valid {
            if let Some(g) = self.group(i.clr_tg) {
                self.cnt[g * ntrk..(g + 1) * ntrk].fill(0);
                self.wait_mask[g] = vec![0];
            }
        }
        // SB4: err_clr drops the old flag; this edge's underflow still sets it.
        let pc = self.p.perf_counters;
        self.err = (self.err && !(pc && i.err_clr)) || underflow;
        if pc {
            ev.underflow = underflow;
            crate::perf::count(&mut self.perf, &ev.vector(), i.perf_clr);
        }
    }

    /// SB3: the facts of this cycle's events, from the state before the edge (the underflow
    /// is filled in by [`Self::clock`], which detects it).
    fn perf_events(&self, i: &ScoreboardInputs) -> perf::PerfEvents {
        let g = self.group(i.iss_tg);
        let t = self.tracker(i.iss_trk);
        perf::PerfEvents {
            iss_valid: i.iss_valid,
            iss_ready: self.iss_ready(i),
            dep_busy: g.is_some_and(|g| self.dep_set(i) & self.p.trk_mask() & self.busy_mask(g) != 0),
            trk_at_max: i.iss_trk_en
                && g.zip(t).is_some_and(|(g, t)| self.cnt(g, t) >= self.p.trk_max[t]),
            fetch_closed: g.is_some_and(|g| !self.fetch_ok(g)),
            underflow: false,
            cpl_valid: (0..self.p.num_cpl).map(|p| i.cpl_valid.get(p).copied().unwrap_or(false)).collect(),
        }
    }
}
