//! One thread group's trackers: counters, issue check and completions.

use super::*;

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
    /// SB6 (`branch_fetch_gate`; none without): the next instruction is a branch with sets
    /// `nxt_mask` (A) and `nxt_mask_x[s]` (B + s).
    pub nxt_br: Vec<Signal<In, Bit>>,
    pub nxt_mask_x: Vec<Vec<Signal<In, Bit>>>,
    /// Dependency sets to test: the issuing instruction's, the query's, the branch's
    /// A and B, and its sets beyond B (`br_mask_x[s]` is set C + s; none at `branch_sets` 2).
    pub iss_mask: Vec<Signal<In, Bit>>,
    pub chk_mask: Vec<Signal<In, Bit>>,
    pub br_mask_a: Vec<Signal<In, Bit>>,
    pub br_mask_b: Vec<Signal<In, Bit>>,
    pub br_mask_x: Vec<Vec<Signal<In, Bit>>>,
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
    /// Set C + s satisfied (`branch_sets` > 2).
    pub sat_x: Vec<Signal<Out, Bit>>,
    /// Clears the sticky underflow flag (reset).
    pub err_clear: Signal<In, Bit>,
    /// Sticky: a completion of this group found nothing to count down (its
    /// counter at 0, or a tracker id it does not have).
    pub err: Signal<Out, Bit>,
    /// With `perf_counters` (one element each; none without, so no port): `err_clr` clears
    /// the sticky flags at this edge unless this edge's completions set them (rule SB4), and
    /// `uf_ev` is this edge's underflow, what sets `err` (rule SB3, `err_underflow_ev`).
    pub err_clr: Vec<Signal<In, Bit>>,
    pub uf_ev: Vec<Signal<Out, Bit>>,
    cnt_q: Vec<DFF<Bits<W>>>,
    wait_q: Vec<DFF<Bit>>,
    /// SB6: the wait masks of sets B + s, latched at a fire: the branch's set when `nxt_br`,
    /// else `nxt_mask` again (so that without a branch every set is set A's); and whether the
    /// set being tested has drained (`fok`).
    wait_x_q: Vec<Vec<DFF<Bit>>>,
    fok: Vec<Signal<Local, Bit>>,
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

impl<const W: usize> TrackerGroup<W> {
    pub(super) fn new(cfg: &ScoreboardConfig) -> Self {
        let trk = cfg.trackers as usize;
        let ports = cfg.completion_ports as usize;
        let w = cfg.counter_width as usize;
        let extra = cfg.extra_branch_sets();
        TrackerGroup {
            clock: Signal::default(),
            clear: Signal::default(),
            valid: Signal::default(),
            tg_sel: Signal::default(),
            inc_en: Signal::default(),
            inc_trk: Signal::default(),
            nxt_mask: signals(trk),
            nxt_br: signals(usize::from(cfg.branch_fetch_gate)),
            nxt_mask_x: (0..cfg.gate_sets()).map(|_| signals(trk)).collect(),
            iss_mask: signals(trk),
            chk_mask: signals(trk),
            br_mask_a: signals(trk),
            br_mask_b: signals(trk),
            br_mask_x: (0..extra).map(|_| signals(trk)).collect(),
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
            sat_x: signals(extra),
            err_clear: Signal::default(),
            err: Signal::default(),
            err_clr: signals(usize::from(cfg.perf_counters)),
            uf_ev: signals(usize::from(cfg.perf_counters)),
            cnt_q: (0..trk).map(|_| DFF::default()).collect(),
            wait_q: (0..trk).map(|_| DFF::default()).collect(),
            wait_x_q: (0..cfg.gate_sets()).map(|_| (0..trk).map(|_| DFF::default()).collect()).collect(),
            fok: signals(usize::from(cfg.branch_fetch_gate)),
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
    pub(super) fn half(&self) -> usize {
        self.cnt_q.len() / 2
    }

    /// Bits of a counter (a loop bound for the bit arithmetic).
    pub(super) fn w(&self) -> usize {
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
        for s in 0..self.sat_x.len() {
            self.sat_x[s].next = true;
        }
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
                for s in 0..self.sat_x.len() {
                    if self.br_mask_x[s][t].val() {
                        self.sat_x[s].next = false;
                    }
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
        // SB6 (branch_fetch_gate): fetch_ok is "some wait set has drained", which is not a
        // per-tracker test, so the halves test the issue's own set and fetch_ok joins whole.
        for k in 0..self.fok.len() {
            for s in 0..self.wait_x_q.len() {
                self.fok[k].next = true;
                for t in 0..self.cnt_q.len() {
                    if self.nz_q[t].q.val() & self.wait_x_q[s][t].q.val() {
                        self.fok[k].next = false;
                    }
                }
                self.fetch_ok.next = self.fetch_ok.val() | self.fok[k].val();
            }
            self.ok_lo.next = self.fetch_ok.val();
            self.ok_hi.next = true;
            for t in 0..self.cnt_q.len() {
                if self.nz_q[t].q.val() & self.iss_mask[t].val() {
                    self.ok_hi.next = false;
                }
            }
        }
        self.go.next = self.valid.val() & self.tg_sel.val();
        self.ready.next = self.fetch_ok.val() & self.deps_ok.val() & (!self.inc_en.val() | self.room.val());
        self.fire.next = self.go.val() & self.ok_lo.val() & self.ok_hi.val() & (!self.inc_en.val() | self.room.val());

        self.bad_q.clock.next = self.clock.val();
        self.err.next = self.bad_q.q.val();
        for i in 0..self.uf_ev.len() {
            self.uf_ev[i].next = false;
        }
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
            // SB3, SB4 (perf_counters): this edge's underflow is the event; err_clr drops the
            // old flag but keeps it (the new error wins).
            for i in 0..self.uf_ev.len() {
                if (self.uf_a.val() & !self.inc.val()) | (self.uf_b.val() & self.inc.val()) {
                    self.uf_ev[i].next = true;
                }
                if self.err_clr[i].val() {
                    self.err_q[t].d.next = self.uf_a.val();
                    if self.inc.val() {
                        self.err_q[t].d.next = self.uf_b.val();
                    }
                }
            }
            self.wait_q[t].d.next = self.wait_q[t].q.val();
            if self.fire.val() {
                self.wait_q[t].d.next = self.nxt_mask[t].val();
            }
            for s in 0..self.wait_x_q.len() {
                self.wait_x_q[s][t].clock.next = self.clock.val();
                self.wait_x_q[s][t].d.next = self.wait_x_q[s][t].q.val();
                if self.fire.val() {
                    self.wait_x_q[s][t].d.next = self.nxt_mask[t].val();
                    for k in 0..self.nxt_br.len() {
                        if self.nxt_br[k].val() {
                            self.wait_x_q[s][t].d.next = self.nxt_mask_x[s][t].val();
                        }
                    }
                }
                if self.clear.val() {
                    self.wait_x_q[s][t].d.next = false;
                }
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
        for i in 0..self.err_clr.len() {
            if self.err_clr[i].val() {
                self.bad_q.d.next = false;
            }
        }
        for p in 0..self.cpl_hit.len() {
            if self.cpl_hit[p].val() & (self.cpl_trk[p].val() >= self.num_trk.val()) {
                self.bad_q.d.next = true;
                for i in 0..self.uf_ev.len() {
                    self.uf_ev[i].next = true;
                }
            }
        }
        if self.err_clear.val() {
            self.bad_q.d.next = false;
        }
    }
}
