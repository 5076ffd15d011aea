//! The scoreboard core: the thread groups and the issue selection.

use super::*;
use crate::perf::{self, PerfBank};

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
    /// SB6 (`branch_fetch_gate`; none without): the next instruction is a branch, and its sets
    /// B .. (`iss_nxt_mask_x[s]` is set B + s; set A is `iss_nxt_mask`).
    pub iss_nxt_br: Vec<Signal<In, Bit>>,
    pub iss_nxt_mask_x: Vec<Vec<Signal<In, Bit>>>,
    pub chk_tg: Signal<In, Id>,
    pub chk_mask: Vec<Signal<In, Bit>>,
    pub br_tg: Signal<In, Id>,
    pub br_mask_a: Vec<Signal<In, Bit>>,
    pub br_mask_b: Vec<Signal<In, Bit>>,
    /// The branch's sets beyond B: `br_mask_x[s]` is set C + s (`branch_sets` - 2 of them).
    pub br_mask_x: Vec<Vec<Signal<In, Bit>>>,
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
    /// Bit 0 of the index of the first satisfied set (A, B, C, D): at `branch_sets` 2 that
    /// is the `br_sel_b` port, above it bit 0 of `br_sel`, whose bit 1 is `br_sel_hi`.
    pub br_sel_b: Signal<Out, Bit>,
    pub br_sat_x: Vec<Signal<Out, Bit>>,
    pub br_sel_hi: Vec<Signal<Out, Bit>>,
    pub trk_zero: Vec<Vec<Signal<Out, Bit>>>,
    pub trk_full: Vec<Vec<Signal<Out, Bit>>>,
    pub tg_idle: Vec<Signal<Out, Bit>>,
    pub cnt: Vec<Vec<Signal<Out, Bits<W>>>>,
    pub err_underflow: Signal<Out, Bit>,
    // Performance counters and the error clear (rules SB3, SB4; docs/perf.md): one element
    // each with `perf_counters`, none without (no port, no logic).
    pub perf_sel: Vec<Signal<In, Bits<{ perf::SEL_BITS }>>>,
    pub perf_val: Vec<Signal<Out, Bits<{ perf::VAL_BITS }>>>,
    pub perf_clr: Vec<Signal<In, Bit>>,
    pub err_clr: Vec<Signal<In, Bit>>,
    perf: Vec<PerfBank>,
    /// The stall causes of the addressed group and this edge's underflow (SB3).
    pev_dep: Vec<Signal<Local, Bit>>,
    pev_sat: Vec<Signal<Local, Bit>>,
    pev_fetch: Vec<Signal<Local, Bit>>,
    pev_uf: Vec<Signal<Local, Bit>>,
    /// Tracker ids, with `perf_counters` or `implicit_fence` (none without: no constants).
    trk_id: Vec<Constant<Id>>,
    /// SB5 (`implicit_fence`): per tracker, whether it is fenced; none without the key.
    fence_on: Vec<Constant<Bit>>,
    groups: Vec<TrackerGroup<W>>,
    err_q: DFF<Bit>,
    tg_id: Vec<Constant<Id>>,
    num_tg: Constant<Id>,
    /// Bit 0 of the index of set C + s (C is 2, D is 3).
    sel_lo_x: Vec<Constant<Bit>>,
}

impl<const W: usize> ScoreboardCore<W> {
    /// The core for a validated config whose `counter_width` is `W`.
    pub fn new(cfg: &ScoreboardConfig) -> Self {
        assert_eq!(cfg.counter_width as usize, W, "dispatch with with_width!");
        let tg = cfg.thread_groups as usize;
        let trk = cfg.trackers as usize;
        let ports = cfg.completion_ports as usize;
        let extra = cfg.extra_branch_sets();
        // 1 with perf_counters (one counter bank and its ports), 0 without.
        let pc = usize::from(cfg.perf_counters);
        // Trackers checked for an implicit fence: all of them with the key, none without.
        let nf = if cfg.implicit_fence.is_empty() { 0 } else { trk };
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
            iss_nxt_br: signals(usize::from(cfg.branch_fetch_gate)),
            iss_nxt_mask_x: (0..cfg.gate_sets()).map(|_| signals(trk)).collect(),
            chk_tg: Signal::default(),
            chk_mask: signals(trk),
            br_tg: Signal::default(),
            br_mask_a: signals(trk),
            br_mask_b: signals(trk),
            br_mask_x: (0..extra).map(|_| signals(trk)).collect(),
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
            br_sat_x: signals(extra),
            br_sel_hi: signals(extra.min(1)),
            trk_zero: (0..tg).map(|_| signals(trk)).collect(),
            trk_full: (0..tg).map(|_| signals(trk)).collect(),
            tg_idle: signals(tg),
            cnt: (0..tg).map(|_| signals(trk)).collect(),
            err_underflow: Signal::default(),
            perf_sel: signals(pc),
            perf_val: signals(pc),
            perf_clr: signals(pc),
            err_clr: signals(pc),
            perf: (0..pc).map(|_| PerfBank::new(cfg.perf_count())).collect(),
            pev_dep: signals(pc),
            pev_sat: signals(pc),
            pev_fetch: signals(pc),
            pev_uf: signals(pc),
            trk_id: (0..if pc + nf > 0 { trk } else { 0 }).map(id).collect(),
            fence_on: (0..nf).map(|t| Constant::new(cfg.fence_mask() >> t & 1 == 1)).collect(),
            groups: (0..tg).map(|_| TrackerGroup::new(cfg)).collect(),
            err_q: DFF::default(),
            tg_id: (0..tg).map(id).collect(),
            num_tg: id(tg),
            sel_lo_x: (0..extra).map(|s| Constant::new(s % 2 == 1)).collect(),
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
        for s in 0..self.br_sat_x.len() {
            self.br_sat_x[s].next = false;
        }
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
                for s in 0..self.br_sat_x.len() {
                    self.br_sat_x[s].next = self.groups[g].sat_x[s].val();
                }
            }
        }
        self.iss_fire.next = self.iss_valid.val() & self.iss_ready.val();
        self.br_go.next = self.br_sat_a.val() | self.br_sat_b.val();
        self.br_sel_b.next = !self.br_sat_a.val() & self.br_sat_b.val();
        // Sets C, D (branch_sets > 2): the first satisfied set in the order A, B, C, D wins,
        // so set C + s is chosen when no set before it (br_go so far) is satisfied.
        for k in 0..self.br_sel_hi.len() {
            self.br_sel_hi[k].next = false;
        }
        for s in 0..self.br_sat_x.len() {
            if !self.br_go.val() & self.br_sat_x[s].val() {
                self.br_sel_b.next = self.sel_lo_x[s].val();
                for k in 0..self.br_sel_hi.len() {
                    self.br_sel_hi[k].next = true;
                }
            }
            self.br_go.next = self.br_go.val() | self.br_sat_x[s].val();
        }

        // Sticky underflow: one flag per group (a completion found nothing to count
        // down there) and this one (a port named no group); the output is their OR.
        self.err_q.clock.next = self.clock.val();
        self.err_q.d.next = self.err_q.q.val();
        // SB4 (perf_counters): err_clr clears the flag unless this edge sets it again.
        for i in 0..self.err_clr.len() {
            if self.err_clr[i].val() {
                self.err_q.d.next = false;
            }
        }
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
            for k in 0..self.iss_nxt_br.len() {
                self.groups[g].nxt_br[k].next = self.iss_nxt_br[k].val();
            }
            for t in 0..self.iss_dep_mask.len() {
                self.groups[g].nxt_mask[t].next = self.iss_nxt_mask[t].val();
                self.groups[g].iss_mask[t].next = self.iss_dep_mask[t].val();
                self.groups[g].chk_mask[t].next = self.chk_mask[t].val();
                self.groups[g].br_mask_a[t].next = self.br_mask_a[t].val();
                self.groups[g].br_mask_b[t].next = self.br_mask_b[t].val();
                for s in 0..self.br_sat_x.len() {
                    self.groups[g].br_mask_x[s][t].next = self.br_mask_x[s][t].val();
                }
                for s in 0..self.iss_nxt_mask_x.len() {
                    self.groups[g].nxt_mask_x[s][t].next = self.iss_nxt_mask_x[s][t].val();
                }
                self.trk_zero[g][t].next = self.groups[g].zero[t].val();
                self.trk_full[g][t].next = self.groups[g].full[t].val();
                self.cnt[g][t].next = self.groups[g].cnt[t].val();
            }
            // SB5: an instruction counted on a fenced tracker also depends on that tracker.
            for t in 0..self.fence_on.len() {
                if self.fence_on[t].val() & self.iss_trk_en.val() & (self.iss_trk.val() == self.trk_id[t].val()) {
                    self.groups[g].iss_mask[t].next = true;
                }
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

        // ---- SB3: the events of this cycle, in perf_sel order (docs/perf.md), from the
        // registered state and this cycle's inputs. Reset clears like perf_clr.
        for i in 0..self.perf.len() {
            self.perf[i].clock.next = self.clock.val();
            self.perf[i].clear.next = self.reset.val() | self.perf_clr[i].val();
            self.perf[i].sel.next = self.perf_sel[i].val();
            self.perf_val[i].next = self.perf[i].val.val();
            self.pev_dep[i].next = false;
            self.pev_sat[i].next = false;
            self.pev_fetch[i].next = false;
            self.pev_uf[i].next = false;
            for g in 0..self.groups.len() {
                self.groups[g].err_clr[i].next = self.err_clr[i].val();
                if self.groups[g].uf_ev[i].val() {
                    self.pev_uf[i].next = true;
                }
                if self.iss_tg.val() == self.tg_id[g].val() {
                    if !self.groups[g].fetch_ok.val() {
                        self.pev_fetch[i].next = true;
                    }
                    // SB3 stall_dep: a tracker of the set (iss_mask: iss_dep_mask and,
                    // with SB5, the fenced tracker) busy; stall_sat: tracker iss_trk at its maximum.
                    for t in 0..self.trk_id.len() {
                        if self.groups[g].iss_mask[t].val() & !self.groups[g].zero[t].val() {
                            self.pev_dep[i].next = true;
                        }
                        if (self.iss_trk.val() == self.trk_id[t].val()) & self.groups[g].full[t].val() {
                            self.pev_sat[i].next = true;
                        }
                    }
                }
            }
            for p in 0..self.cpl_valid.len() {
                if self.cpl_valid[p].val() & (self.cpl_tg[p].val() >= self.num_tg.val()) {
                    self.pev_uf[i].next = true;
                }
                // 6 + p cpl_<p>: a completion presented on port p.
                self.perf[i].ev[6 + p].next = self.cpl_valid[p].val();
            }
            // 0 issue, 1 stall_issue: the issue handshake.
            self.perf[i].ev[0].next = self.iss_fire.val();
            self.perf[i].ev[1].next = self.iss_valid.val() & !self.iss_ready.val();
            // 2 stall_dep, 3 stall_sat, 4 stall_fetch: each cause that holds (each refuses).
            self.perf[i].ev[2].next = self.iss_valid.val() & self.pev_dep[i].val();
            self.perf[i].ev[3].next = self.iss_valid.val() & self.iss_trk_en.val() & self.pev_sat[i].val();
            self.perf[i].ev[4].next = self.iss_valid.val() & self.pev_fetch[i].val();
            // 5 err_underflow_ev: what sets err_underflow at this edge.
            self.perf[i].ev[5].next = self.pev_uf[i].val();
        }
    }
}
