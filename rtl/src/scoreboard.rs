//! # scoreboard — instruction completion trackers ("explicit scoreboard")
//!
//! Per-thread-group counters of outstanding reorderable instructions (loads,
//! stores, texture lookups, varyings), after CN104217393A as specified in
//! `spec/scoreboard.md`. Implements spec §2.1–§2.8 (counters, increment on
//! issue and decrement on completion, issue gating on a dependency set, fetch
//! gating by the next instruction's set (Fig. 5), saturation stall at a
//! tracker's maximum, fences as dependency sets, the two-set scoreboard branch)
//! through the ports of §6.3 and the cycle semantics of §6.4.
//!
//! ## Structure
//! `warpgen_scoreboard` (exact-width ports, written by [`crate::emit::Wrapper`])
//! → `warpgen_scoreboard_core` (selection by thread-group id, the sticky error)
//! → one `warpgen_scoreboard_groups` per thread group ([`TrackerGroup`]: the
//! counters and wait mask of that group and its four set queries).
//!
//! ## Cycle timing
//! * Registered: every counter `cnt[g][t]` (`counter_width` bits), every wait
//!   mask `wait_mask[g]` (`trackers` bits), and the sticky underflow. For
//!   speed, each counter also registers copies of `cnt != 0` and
//!   `cnt >= max_count` and its own sticky underflow flag (`err_underflow` is
//!   the OR of these flags, one per group for a tracker id it lacks, and one
//!   for a group id that names no group). These are functions of the state
//!   above, so the ports behave exactly as if only it were registered.
//! * Combinational from the registered state and this cycle's inputs, with no
//!   bypass from this cycle's completions (§6.4.3): `iss_ready`, `iss_fire`,
//!   `fetch_ok`, `chk_ok`, `br_*`, `trk_zero`, `trk_full`, `tg_idle`,
//!   `cnt_flat`, `err_underflow` (an OR of registers).
//! * Critical path (FPGA): a counter's nonzero flag → its group's issue test
//!   (two halves of `nz & (wait | iss_dep_mask)`) → the tracker's increment →
//!   the choice between the precomputed next states; 4 to 5 LUTs. Each group
//!   decides its own issue (`go`, and per tracker `sel`, which holds that
//!   tracker's own room): no counter waits for the selection of `iss_ready`
//!   among the groups or of `iss_room` among the trackers, which only drive the
//!   ports. The next state of every counter is computed for both outcomes of the
//!   issue from the registers and completions alone, and the count arithmetic is
//!   bitwise logic, not carry chains (see [`TrackerGroup`]). iCE40 HX8K, default
//!   config: 108.5 MHz median over nextpnr seeds 1–3, 1209 LUT4 (`make synth`).
//! * At the rising edge: `cnt' = max(0, cnt + inc - completions)`; a completion
//!   that finds nothing to count down sets `err_underflow`. A completion in
//!   cycle *n* releases a dependent instruction in cycle *n+1*. One issue and
//!   `completion_ports` completions are taken every cycle with no bubble.
//!
//! ## Deviations from the spec's proposal (§6.2–§6.4)
//! * `clock` / `reset` instead of `clk` / `rst_n`: reset is synchronous and
//!   active high (project convention). It clears counters, wait masks and
//!   `err_underflow`.
//! * `clr_valid` takes effect even when the group is not idle (the proposal
//!   calls that illegal and leaves it undefined): the group's counters and wait
//!   mask are zeroed, overriding that cycle's issue and completions for the
//!   group. Underflow is still detected for those completions.
//! * A thread-group id at or above `thread_groups` (possible when it is not a
//!   power of two) names no group: `iss_ready`, `chk_ok`, `br_sat_a/b` are 0
//!   for it, `clr` of it does nothing, and a completion naming it — or a
//!   tracker id at or above `trackers` — sets `err_underflow` (a completion for
//!   a counter that is not outstanding).
//! * `iss_fire` is an output (as proposed) and is not gated by `reset`.
//! * The spec's §6.5 default has tracker 7 limited to 1; warpgen's default is
//!   the §6.2 one (every tracker at 2^counter_width-1). `max_count` sets either.

use crate::config::ScoreboardConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{constant, signals};
use rust_hdl::prelude::*;

/// Width of a thread-group or tracker id inside the core. The top module's ids
/// are exact (`ceil(log2 n)` bits) and zero-extended to this; see `emit`.
pub const ID_BITS: usize = 8;
type Id = Bits<ID_BITS>;

/// The trackers of one thread group: counters, wait mask, and the set queries.
///
/// Besides the counters and the wait mask it registers, per tracker, whether the
/// counter is nonzero and whether it is at its maximum, so the set queries read
/// flags instead of comparing counters. The next state is computed for both
/// cases of this cycle's issue from the registers and the completions alone
/// (`a`: the count without the issue, one down per completion and never below 0;
/// `b`: with it, `a + 1` unless a completion found the counter at 0), and the
/// issue only selects between them at the end. The decision is the
/// group's own (`go`, `sel`): no counter waits for the selection of `iss_ready`
/// among the groups, nor for the selection of `iss_room` among the trackers.
///
/// The count arithmetic (one down, one up, at least `max_count`) is written bit
/// by bit: on the iCE40 a `-`, `+` or `>=` becomes a carry chain, which synthesis
/// cannot merge with the logic around it, while a few-bit function of the counter
/// and the completions is one or two LUTs.
#[derive(LogicBlock)]
pub struct TrackerGroup<const W: usize> {
    pub clock: Signal<In, Clock>,
    /// Zero every counter and the wait mask at the next edge (reset or clr).
    pub clear: Signal<In, Bit>,
    /// An instruction is presented (`iss_valid`).
    pub valid: Signal<In, Bit>,
    /// The presented instruction names this group (`iss_tg`).
    pub tg_sel: Signal<In, Bit>,
    /// The presented instruction is reorderable: if it fires, it counts on tracker `inc_trk`.
    pub inc_en: Signal<In, Bit>,
    pub inc_trk: Signal<In, Id>,
    pub nxt_mask: Vec<Signal<In, Bit>>,
    /// Dependency sets to test: the issuing instruction's, the query's, the branch's two.
    pub iss_mask: Vec<Signal<In, Bit>>,
    pub chk_mask: Vec<Signal<In, Bit>>,
    pub br_mask_a: Vec<Signal<In, Bit>>,
    pub br_mask_b: Vec<Signal<In, Bit>>,
    /// Completion port p completes an instruction of this group on tracker `cpl_trk[p]`.
    pub cpl_hit: Vec<Signal<In, Bit>>,
    pub cpl_trk: Vec<Signal<In, Id>>,
    pub zero: Vec<Signal<Out, Bit>>,
    pub full: Vec<Signal<Out, Bit>>,
    pub cnt: Vec<Signal<Out, Bits<W>>>,
    pub idle: Signal<Out, Bit>,
    pub fetch_ok: Signal<Out, Bit>,
    /// The presented instruction would issue in this group: fetch_ok, its
    /// dependency set satisfied, and room on its tracker if it counts.
    pub ready: Signal<Out, Bit>,
    pub chk_ok: Signal<Out, Bit>,
    pub sat_a: Signal<Out, Bit>,
    pub sat_b: Signal<Out, Bit>,
    /// Clears the sticky underflow flag (reset).
    pub err_clear: Signal<In, Bit>,
    /// Sticky: a completion of this group found nothing to count down (its
    /// counter at 0, or a tracker id it does not have).
    pub err: Signal<Out, Bit>,
    cnt_q: Vec<DFF<Bits<W>>>,
    wait_q: Vec<DFF<Bit>>,
    /// cnt_q != 0 and cnt_q >= max, registered with the counter.
    nz_q: Vec<DFF<Bit>>,
    full_q: Vec<DFF<Bit>>,
    /// Sticky, per tracker: a completion found it at 0; and a completion named a
    /// tracker this group does not have.
    err_q: Vec<DFF<Bit>>,
    bad_q: DFF<Bit>,
    /// Dependency set satisfied; `inc_trk` below its maximum.
    deps_ok: Signal<Local, Bit>,
    room: Signal<Local, Bit>,
    /// The instruction issues here if its tracker has room (`go`), and does (`fire`).
    go: Signal<Local, Bit>,
    ok_lo: Signal<Local, Bit>,
    ok_hi: Signal<Local, Bit>,
    fire: Signal<Local, Bit>,
    /// It counts on this tracker, which has room (`sel`); and it issues (`inc`).
    sel: Signal<Local, Bit>,
    inc: Signal<Local, Bit>,
    /// The next count without (`a`) and with (`b`) the issue and their flags;
    /// whether a completion found the counter at 0 without the issue (`uf_a`),
    /// and a second one did (`uf_b`: one the count cannot absorb).
    a: Signal<Local, Bits<W>>,
    nz_a: Signal<Local, Bit>,
    full_a: Signal<Local, Bit>,
    b: Signal<Local, Bits<W>>,
    full_b: Signal<Local, Bit>,
    uf_a: Signal<Local, Bit>,
    uf_b: Signal<Local, Bit>,
    /// The bits of `a` while it is computed; the borrow or carry into the next
    /// bit, and a bit before it changed.
    ab: Vec<Signal<Local, Bit>>,
    z: Signal<Local, Bit>,
    old: Signal<Local, Bit>,
    trk_id: Vec<Constant<Id>>,
    /// Per tracker, the bits of `max_count` and of `max_count - 1`.
    max_bit: Vec<Vec<Constant<Bit>>>,
    max1_bit: Vec<Vec<Constant<Bit>>>,
    num_trk: Constant<Id>,
    nothing: Constant<Bits<W>>,
    /// `wt[k]` = 2^k: a counter bit's weight.
    wt: Vec<Constant<Bits<W>>>,
}

fn id(v: usize) -> Constant<Id> {
    constant(v as u64)
}

/// The `w` bits of `v`, LSB first, as constants.
fn bits_of(v: u64, w: usize) -> Vec<Constant<Bit>> {
    (0..w).map(|b| Constant::new((v >> b) & 1 == 1)).collect()
}

impl<const W: usize> TrackerGroup<W> {
    fn new(cfg: &ScoreboardConfig) -> Self {
        let trk = cfg.trackers as usize;
        let ports = cfg.completion_ports as usize;
        let w = cfg.counter_width as usize;
        TrackerGroup {
            clock: Signal::default(),
            clear: Signal::default(),
            valid: Signal::default(),
            tg_sel: Signal::default(),
            inc_en: Signal::default(),
            inc_trk: Signal::default(),
            nxt_mask: signals(trk),
            iss_mask: signals(trk),
            chk_mask: signals(trk),
            br_mask_a: signals(trk),
            br_mask_b: signals(trk),
            cpl_hit: signals(ports),
            cpl_trk: signals(ports),
            zero: signals(trk),
            full: signals(trk),
            cnt: signals(trk),
            idle: Signal::default(),
            fetch_ok: Signal::default(),
            ready: Signal::default(),
            chk_ok: Signal::default(),
            sat_a: Signal::default(),
            sat_b: Signal::default(),
            err_clear: Signal::default(),
            err: Signal::default(),
            cnt_q: (0..trk).map(|_| DFF::default()).collect(),
            wait_q: (0..trk).map(|_| DFF::default()).collect(),
            nz_q: (0..trk).map(|_| DFF::default()).collect(),
            full_q: (0..trk).map(|_| DFF::default()).collect(),
            err_q: (0..trk).map(|_| DFF::default()).collect(),
            bad_q: DFF::default(),
            deps_ok: Signal::default(),
            room: Signal::default(),
            go: Signal::default(),
            ok_lo: Signal::default(),
            ok_hi: Signal::default(),
            fire: Signal::default(),
            sel: Signal::default(),
            inc: Signal::default(),
            a: Signal::default(),
            nz_a: Signal::default(),
            full_a: Signal::default(),
            b: Signal::default(),
            full_b: Signal::default(),
            uf_a: Signal::default(),
            uf_b: Signal::default(),
            ab: signals(w),
            z: Signal::default(),
            old: Signal::default(),
            trk_id: (0..trk).map(id).collect(),
            max_bit: cfg.max_counts().into_iter().map(|m| bits_of(m, w)).collect(),
            max1_bit: cfg.max_counts().into_iter().map(|m| bits_of(m - 1, w)).collect(),
            num_trk: id(trk),
            nothing: constant(0),
            wt: (0..w).map(|k| constant(1 << k)).collect(),
        }
    }
}

impl<const W: usize> TrackerGroup<W> {
    /// Trackers in the lower half.
    fn half(&self) -> usize {
        self.cnt_q.len() / 2
    }

    /// Bits of a counter (a loop bound for the bit arithmetic).
    fn w(&self) -> usize {
        W
    }
}

impl<const W: usize> Logic for TrackerGroup<W> {
    #[hdl_gen]
    fn update(&mut self) {
        // Set queries: a set is satisfied while none of its trackers counts anything (§2.4).
        self.idle.next = true;
        self.fetch_ok.next = true;
        self.deps_ok.next = true;
        self.chk_ok.next = true;
        self.sat_a.next = true;
        self.sat_b.next = true;
        self.room.next = false;
        for t in 0..self.cnt_q.len() {
            self.cnt[t].next = self.cnt_q[t].q.val();
            self.zero[t].next = !self.nz_q[t].q.val();
            self.full[t].next = self.full_q[t].q.val();
            if self.nz_q[t].q.val() {
                self.idle.next = false;
                if self.wait_q[t].q.val() {
                    self.fetch_ok.next = false;
                }
                if self.iss_mask[t].val() {
                    self.deps_ok.next = false;
                }
                if self.chk_mask[t].val() {
                    self.chk_ok.next = false;
                }
                if self.br_mask_a[t].val() {
                    self.sat_a.next = false;
                }
                if self.br_mask_b[t].val() {
                    self.sat_b.next = false;
                }
            }
            if (self.inc_trk.val() == self.trk_id[t].val()) & !self.full_q[t].q.val() {
                self.room.next = true;
            }
        }
        // The same test as fetch_ok & deps_ok, in two halves of the trackers, so
        // that a tracker's increment is one AND of four terms.
        self.ok_lo.next = true;
        self.ok_hi.next = true;
        for t in 0..self.half() {
            if self.nz_q[t].q.val() & (self.wait_q[t].q.val() | self.iss_mask[t].val()) {
                self.ok_lo.next = false;
            }
        }
        for t in self.half()..self.cnt_q.len() {
            if self.nz_q[t].q.val() & (self.wait_q[t].q.val() | self.iss_mask[t].val()) {
                self.ok_hi.next = false;
            }
        }
        self.go.next = self.valid.val() & self.tg_sel.val();
        self.ready.next = self.fetch_ok.val() & self.deps_ok.val() & (!self.inc_en.val() | self.room.val());
        self.fire.next = self.go.val() & self.ok_lo.val() & self.ok_hi.val() & (!self.inc_en.val() | self.room.val());

        self.bad_q.clock.next = self.clock.val();
        self.err.next = self.bad_q.q.val();
        for t in 0..self.cnt_q.len() {
            self.cnt_q[t].clock.next = self.clock.val();
            self.wait_q[t].clock.next = self.clock.val();
            self.nz_q[t].clock.next = self.clock.val();
            self.full_q[t].clock.next = self.clock.val();
            self.err_q[t].clock.next = self.clock.val();
            self.sel.next = self.inc_en.val() & (self.inc_trk.val() == self.trk_id[t].val()) & !self.full_q[t].q.val();
            self.inc.next = self.go.val() & self.ok_lo.val() & self.ok_hi.val() & self.sel.val();
            // Without the issue: one down per completion, never below 0.
            for k in 0..self.w() {
                self.ab[k].next = (self.cnt_q[t].q.val() & self.wt[k].val()).any();
            }
            self.uf_a.next = false;
            self.uf_b.next = false;
            for p in 0..self.cpl_hit.len() {
                if self.cpl_hit[p].val() & (self.cpl_trk[p].val() == self.trk_id[t].val()) {
                    self.z.next = true;
                    for k in 0..self.w() {
                        self.z.next = self.z.val() & !self.ab[k].val();
                    }
                    if self.z.val() {
                        self.uf_b.next = self.uf_a.val();
                        self.uf_a.next = true;
                    } else {
                        self.z.next = true;
                        for k in 0..self.w() {
                            self.old.next = self.ab[k].val();
                            self.ab[k].next = self.old.val() ^ self.z.val();
                            self.z.next = self.z.val() & !self.old.val();
                        }
                    }
                }
            }
            // Flags of a: nonzero, a >= max and a >= max - 1 (LSB first: a higher bit decides).
            self.nz_a.next = false;
            self.full_a.next = true;
            self.full_b.next = true;
            for k in 0..self.w() {
                self.old.next = self.ab[k].val();
                self.nz_a.next = self.nz_a.val() | self.old.val();
                self.full_a.next = (self.old.val() & !self.max_bit[t][k].val())
                    | (!(self.old.val() ^ self.max_bit[t][k].val()) & self.full_a.val());
                self.full_b.next = (self.old.val() & !self.max1_bit[t][k].val())
                    | (!(self.old.val() ^ self.max1_bit[t][k].val()) & self.full_b.val());
            }
            // With the issue: a + 1 (a is below max then), or 0 if a completion
            // found the counter at 0 (the count absorbed it); b >= max is a >= max - 1.
            self.a.next = self.nothing.val();
            self.b.next = self.nothing.val();
            self.z.next = !self.uf_a.val();
            for k in 0..self.w() {
                if self.ab[k].val() {
                    self.a.next = self.a.val() | self.wt[k].val();
                }
                if !self.uf_a.val() & (self.ab[k].val() ^ self.z.val()) {
                    self.b.next = self.b.val() | self.wt[k].val();
                }
                self.z.next = self.z.val() & self.ab[k].val();
            }
            if self.uf_a.val() {
                self.full_b.next = false;
            }
            self.cnt_q[t].d.next = self.a.val();
            self.nz_q[t].d.next = self.nz_a.val();
            self.full_q[t].d.next = self.full_a.val();
            self.err_q[t].d.next = self.err_q[t].q.val() | self.uf_a.val();
            if self.inc.val() {
                self.cnt_q[t].d.next = self.b.val();
                self.nz_q[t].d.next = !self.uf_a.val();
                self.full_q[t].d.next = self.full_b.val();
                self.err_q[t].d.next = self.err_q[t].q.val() | self.uf_b.val();
            }
            self.wait_q[t].d.next = self.wait_q[t].q.val();
            if self.fire.val() {
                self.wait_q[t].d.next = self.nxt_mask[t].val();
            }
            if self.clear.val() {
                self.cnt_q[t].d.next = self.nothing.val();
                self.nz_q[t].d.next = false;
                self.full_q[t].d.next = false;
                self.wait_q[t].d.next = false;
            }
            // Sticky underflow (clr does not clear it).
            if self.err_q[t].q.val() {
                self.err.next = true;
            }
            if self.err_clear.val() {
                self.err_q[t].d.next = false;
            }
        }
        // A completion naming a tracker this group does not have.
        self.bad_q.d.next = self.bad_q.q.val();
        for p in 0..self.cpl_hit.len() {
            if self.cpl_hit[p].val() & (self.cpl_trk[p].val() >= self.num_trk.val()) {
                self.bad_q.d.next = true;
            }
        }
        if self.err_clear.val() {
            self.bad_q.d.next = false;
        }
    }
}

/// The scoreboard core: routes each port to the thread group its id names.
#[derive(LogicBlock)]
pub struct ScoreboardCore<const W: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub clr_valid: Signal<In, Bit>,
    pub clr_tg: Signal<In, Id>,
    pub iss_valid: Signal<In, Bit>,
    pub iss_tg: Signal<In, Id>,
    pub iss_dep_mask: Vec<Signal<In, Bit>>,
    pub iss_trk_en: Signal<In, Bit>,
    pub iss_trk: Signal<In, Id>,
    pub iss_nxt_mask: Vec<Signal<In, Bit>>,
    pub chk_tg: Signal<In, Id>,
    pub chk_mask: Vec<Signal<In, Bit>>,
    pub br_tg: Signal<In, Id>,
    pub br_mask_a: Vec<Signal<In, Bit>>,
    pub br_mask_b: Vec<Signal<In, Bit>>,
    pub cpl_valid: Vec<Signal<In, Bit>>,
    pub cpl_tg: Vec<Signal<In, Id>>,
    pub cpl_trk: Vec<Signal<In, Id>>,
    pub iss_ready: Signal<Out, Bit>,
    pub iss_fire: Signal<Out, Bit>,
    pub fetch_ok: Vec<Signal<Out, Bit>>,
    pub chk_ok: Signal<Out, Bit>,
    pub br_sat_a: Signal<Out, Bit>,
    pub br_sat_b: Signal<Out, Bit>,
    pub br_go: Signal<Out, Bit>,
    pub br_sel_b: Signal<Out, Bit>,
    pub trk_zero: Vec<Vec<Signal<Out, Bit>>>,
    pub trk_full: Vec<Vec<Signal<Out, Bit>>>,
    pub tg_idle: Vec<Signal<Out, Bit>>,
    pub cnt: Vec<Vec<Signal<Out, Bits<W>>>>,
    pub err_underflow: Signal<Out, Bit>,
    groups: Vec<TrackerGroup<W>>,
    err_q: DFF<Bit>,
    tg_id: Vec<Constant<Id>>,
    num_tg: Constant<Id>,
}

impl<const W: usize> ScoreboardCore<W> {
    /// The core for a validated config whose `counter_width` is `W`.
    pub fn new(cfg: &ScoreboardConfig) -> Self {
        assert_eq!(cfg.counter_width as usize, W, "dispatch with with_width!");
        let tg = cfg.thread_groups as usize;
        let trk = cfg.trackers as usize;
        let ports = cfg.completion_ports as usize;
        ScoreboardCore {
            clock: Signal::default(),
            reset: Signal::default(),
            clr_valid: Signal::default(),
            clr_tg: Signal::default(),
            iss_valid: Signal::default(),
            iss_tg: Signal::default(),
            iss_dep_mask: signals(trk),
            iss_trk_en: Signal::default(),
            iss_trk: Signal::default(),
            iss_nxt_mask: signals(trk),
            chk_tg: Signal::default(),
            chk_mask: signals(trk),
            br_tg: Signal::default(),
            br_mask_a: signals(trk),
            br_mask_b: signals(trk),
            cpl_valid: signals(ports),
            cpl_tg: signals(ports),
            cpl_trk: signals(ports),
            iss_ready: Signal::default(),
            iss_fire: Signal::default(),
            fetch_ok: signals(tg),
            chk_ok: Signal::default(),
            br_sat_a: Signal::default(),
            br_sat_b: Signal::default(),
            br_go: Signal::default(),
            br_sel_b: Signal::default(),
            trk_zero: (0..tg).map(|_| signals(trk)).collect(),
            trk_full: (0..tg).map(|_| signals(trk)).collect(),
            tg_idle: signals(tg),
            cnt: (0..tg).map(|_| signals(trk)).collect(),
            err_underflow: Signal::default(),
            groups: (0..tg).map(|_| TrackerGroup::new(cfg)).collect(),
            err_q: DFF::default(),
            tg_id: (0..tg).map(id).collect(),
            num_tg: id(tg),
        }
    }
}

impl<const W: usize> Logic for ScoreboardCore<W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.iss_ready.next = false;
        self.chk_ok.next = false;
        self.br_sat_a.next = false;
        self.br_sat_b.next = false;
        // Issue readiness of the addressed group (an id naming no group is never ready).
        for g in 0..self.groups.len() {
            if self.iss_tg.val() == self.tg_id[g].val() {
                self.iss_ready.next = self.groups[g].ready.val();
            }
            if self.chk_tg.val() == self.tg_id[g].val() {
                self.chk_ok.next = self.groups[g].chk_ok.val();
            }
            if self.br_tg.val() == self.tg_id[g].val() {
                self.br_sat_a.next = self.groups[g].sat_a.val();
                self.br_sat_b.next = self.groups[g].sat_b.val();
            }
        }
        self.iss_fire.next = self.iss_valid.val() & self.iss_ready.val();
        self.br_go.next = self.br_sat_a.val() | self.br_sat_b.val();
        self.br_sel_b.next = !self.br_sat_a.val() & self.br_sat_b.val();

        // Sticky underflow: one flag per group (a completion found nothing to count
        // down there) and this one (a port named no group); the output is their OR.
        self.err_q.clock.next = self.clock.val();
        self.err_q.d.next = self.err_q.q.val();
        for p in 0..self.cpl_valid.len() {
            if self.cpl_valid[p].val() & (self.cpl_tg[p].val() >= self.num_tg.val()) {
                self.err_q.d.next = true;
            }
        }
        self.err_underflow.next = self.err_q.q.val();
        for g in 0..self.groups.len() {
            self.groups[g].clock.next = self.clock.val();
            self.groups[g].clear.next = self.reset.val()
                | (self.clr_valid.val() & (self.clr_tg.val() == self.tg_id[g].val()));
            self.groups[g].valid.next = self.iss_valid.val();
            self.groups[g].tg_sel.next = self.iss_tg.val() == self.tg_id[g].val();
            self.groups[g].inc_en.next = self.iss_trk_en.val();
            self.groups[g].inc_trk.next = self.iss_trk.val();
            for t in 0..self.iss_dep_mask.len() {
                self.groups[g].nxt_mask[t].next = self.iss_nxt_mask[t].val();
                self.groups[g].iss_mask[t].next = self.iss_dep_mask[t].val();
                self.groups[g].chk_mask[t].next = self.chk_mask[t].val();
                self.groups[g].br_mask_a[t].next = self.br_mask_a[t].val();
                self.groups[g].br_mask_b[t].next = self.br_mask_b[t].val();
                self.trk_zero[g][t].next = self.groups[g].zero[t].val();
                self.trk_full[g][t].next = self.groups[g].full[t].val();
                self.cnt[g][t].next = self.groups[g].cnt[t].val();
            }
            for p in 0..self.cpl_valid.len() {
                self.groups[g].cpl_hit[p].next =
                    self.cpl_valid[p].val() & (self.cpl_tg[p].val() == self.tg_id[g].val());
                self.groups[g].cpl_trk[p].next = self.cpl_trk[p].val();
            }
            self.fetch_ok[g].next = self.groups[g].fetch_ok.val();
            self.tg_idle[g].next = self.groups[g].idle.val();
            self.groups[g].err_clear.next = self.reset.val();
            if self.groups[g].err.val() {
                self.err_underflow.next = true;
            }
        }
        if self.reset.val() {
            self.err_q.d.next = false;
        }
    }
}

impl crate::BlockGen for ScoreboardConfig {
    const NAME: &'static str = "scoreboard";

    fn wrapper(&self) -> Wrapper {
        wrapper(self)
    }

    fn header_params(&self) -> Vec<(String, String)> {
        header_params(self)
    }

    /// rust-hdl's Verilog of the core, with `counter_width` dispatched to `W`.
    fn core_verilog(&self) -> Result<String, String> {
        crate::with_width!(self.counter_width, W => {
            let mut core = ScoreboardCore::<W>::new(self);
            core.connect_all();
            rust_hdl::core::check_error::check_all(&core).map_err(|e| format!("{e:?}"))?;
            Ok(generate_verilog_unchecked(&core))
        })
    }
}

/// The exact ports of `warpgen_scoreboard` for `cfg`, bound to the core's ports.
fn wrapper(cfg: &ScoreboardConfig) -> Wrapper {
    let tg = cfg.thread_groups as usize;
    let trk = cfg.trackers as usize;
    let ports = cfg.completion_ports as usize;
    let cw = cfg.counter_width as usize;
    let (tgw, tkw) = (cfg.tg_bits(), cfg.trk_bits());
    let id_in = |name: &str, w: usize, doc: &str| Port::single(name, Dir::In, w, ID_BITS, doc);
    let bit = |name: &str, dir: Dir, doc: &str| Port::single(name, dir, 1, 1, doc);
    // A vector port whose bit i is core port `name_i`.
    let vec_of = |name: &str, dir: Dir, n: usize, w: usize, cw: usize, doc: &str| {
        Port::packed(name, dir, doc, (0..n).map(|i| (format!("{name}_{i}"), w, cw)).collect())
    };
    let mask_in = |name: &str, doc: &str| vec_of(name, Dir::In, trk, 1, 1, doc);
    // Per (group, tracker) outputs, bit/field g*trackers+t is core port `core_g_t`.
    let per_counter = |name: &str, core: &str, w: usize, doc: &str| {
        let parts = (0..tg)
            .flat_map(|g| (0..trk).map(move |t| (format!("{core}_{g}_{t}"), w, w)))
            .collect();
        Port::packed(name, Dir::Out, doc, parts)
    };
    Wrapper {
        block: "scoreboard".into(),
        groups: vec![
            PortGroup {
                title: "Clock and synchronous active-high reset".into(),
                ports: vec![bit("clock", Dir::In, "rising edge"), bit("reset", Dir::In, "clears all counters, wait masks, err_underflow")],
            },
            PortGroup {
                title: "Thread-group (re)launch".into(),
                ports: vec![
                    bit("clr_valid", Dir::In, "zero the counters and wait mask of clr_tg"),
                    id_in("clr_tg", tgw, "thread group to clear"),
                ],
            },
            PortGroup {
                title: "Issue: one thread-group instruction per cycle (spec 6.3)".into(),
                ports: vec![
                    bit("iss_valid", Dir::In, "an instruction is presented"),
                    id_in("iss_tg", tgw, "its thread group"),
                    mask_in("iss_dep_mask", "trackers it depends on (Fig. 4 style)"),
                    bit("iss_trk_en", Dir::In, "it is reorderable: count it on iss_trk"),
                    id_in("iss_trk", tkw, "its tracker"),
                    mask_in("iss_nxt_mask", "trackers the next instruction depends on (Fig. 5)"),
                    bit("iss_ready", Dir::Out, "fetch_ok, deps zero, tracker below max"),
                    bit("iss_fire", Dir::Out, "iss_valid & iss_ready"),
                    vec_of("fetch_ok", Dir::Out, tg, 1, 1, "bit g: group g may fetch its next instruction"),
                ],
            },
            PortGroup {
                title: "Completions, one per port per cycle".into(),
                ports: vec![
                    vec_of("cpl_valid", Dir::In, ports, 1, 1, "bit p: port p completes an instruction"),
                    vec_of("cpl_tg", Dir::In, ports, tgw, ID_BITS, "port p's thread group at [p*TGW +: TGW]"),
                    vec_of("cpl_trk", Dir::In, ports, tkw, ID_BITS, "port p's tracker at [p*TKW +: TKW]"),
                ],
            },
            PortGroup {
                title: "Queries: fences and the scoreboard branch".into(),
                ports: vec![
                    id_in("chk_tg", tgw, "group of the generic query"),
                    mask_in("chk_mask", "set to test"),
                    bit("chk_ok", Dir::Out, "every tracker of chk_mask is zero"),
                    id_in("br_tg", tgw, "group of the scoreboard branch"),
                    mask_in("br_mask_a", "set A: branch taken"),
                    mask_in("br_mask_b", "set B: fall through"),
                    bit("br_sat_a", Dir::Out, "set A satisfied"),
                    bit("br_sat_b", Dir::Out, "set B satisfied"),
                    bit("br_go", Dir::Out, "either set satisfied; 0 = branch stalls"),
                    bit("br_sel_b", Dir::Out, "B satisfied and A not (A has priority)"),
                ],
            },
            PortGroup {
                title: "State views".into(),
                ports: vec![
                    per_counter("trk_zero", "trk_zero", 1, "bit g*TRK+t: cnt[g][t] == 0"),
                    per_counter("trk_full", "trk_full", 1, "bit g*TRK+t: cnt[g][t] >= max_count[t]"),
                    vec_of("tg_idle", Dir::Out, tg, 1, 1, "bit g: every tracker of g is zero"),
                    per_counter("cnt_flat", "cnt", cw, "cnt[g][t] at [(g*TRK+t)*CNT_W +: CNT_W]"),
                    bit("err_underflow", Dir::Out, "sticky: a completion found no outstanding instruction"),
                ],
            },
        ],
    }
}

/// Parameter lines of the file header: every config value, resolved.
fn header_params(cfg: &ScoreboardConfig) -> Vec<(String, String)> {
    let maxes: Vec<String> = cfg.max_counts().iter().map(|m| m.to_string()).collect();
    vec![
        ("thread_groups".into(), cfg.thread_groups.to_string()),
        ("trackers".into(), cfg.trackers.to_string()),
        ("counter_width".into(), cfg.counter_width.to_string()),
        ("completion_ports".into(), cfg.completion_ports.to_string()),
        ("max_count".into(), format!("[{}]", maxes.join(", "))),
        ("TGW (thread-group id bits)".into(), cfg.tg_bits().to_string()),
        ("TKW (tracker id bits)".into(), cfg.trk_bits().to_string()),
    ]
}
