//! Seeded random stimulus for the global spreader, functional coverage, and the
//! invariant checker of contract §6.
//!
//! **Stimulus** ([`GlobalSpreaderStimulus`]): four producers ([`PacketSource`]) present
//! packets on the four channels and hold each until it transfers (valid/ready);
//! `src_addr` is a unique packet id. Vertex packets are indexed or not, with full or
//! partial groups, sometimes aimed at a VDT slot in use (blocking); patches likewise;
//! triangles take their vertices from groups the VDT holds (one group → local refs,
//! several groups → global refs, random indices → misses) and a free PrID or, sometimes,
//! one in use (blocking); every acked triangle gets 0–4 pixel packets, whose PT entry is
//! released either by the last pixel packet (`xp_last`) or afterwards by its owner
//! (`pr`); stray pixel packets with an unused triangle id miss the PT. The EU side is the
//! [`EuPool`] of `eu.rs` (acks, 5 % refusals, holds, credits, releases). Every 500–3,000
//! cycles a new phase gives each EU a random behaviour (quick, fast, slow to answer,
//! refusing 40 %, long-running entities) and the producers an offered load of ¼, ½ or
//! all of their default rates. Packet sizes are capped at a quarter of 2^RES_W−1.
//! Configuration traffic: a sweep reads every readable register (one read every few
//! cycles: well under 10,000 cycles per sweep for 32 EUs), random reads of any address,
//! random writes to CTRL (EN off for 1–30 cycles, LOCALITY, YIELD), EU_ENABLE, DED_MASK,
//! MIN_RES, FRAME_RES, PRIO (also empty slots), AUTO_IDX and STATUS (W1C), and
//! RES_TOTAL/EDT_TOTAL of an idle EU (which refuses in that cycle, so no request to it
//! can be acked or held across the write); with `class_priority_reg` also CLASS_PRIO (R7b:
//! random ranks, ties included), which the sweep then reads too. Every 1,500–3,500 cycles a
//! "restore" sequence writes a feasible configuration (all EUs enabled and dedicated,
//! MIN_RES 0, a random permutation as priority; with the register a random CLASS_PRIO, and
//! YIELD_EN on whenever the ranks put triangles before pixels), so that waits caused by the
//! random configuration end.
//! [`GlobalSpreaderStimulus::drain`] stops new packets, restores the configuration and
//! lets everything complete.
//!
//! With `pixel_reorder` (R14) the EUs complete each pixel they ack (`pc_*`, with its
//! `ar_seq`, after a random delay, in random order, at most one per EU per cycle; see
//! `eu.rs`) and a [`PixelConsumer`] drives `po_ready` (phases ready 90 %, 50 %, 15 % or not at
//! all, so that the ROB fills and the pixel slot waits); the drain completes and pops every
//! pixel. Every random number of this is drawn only with the key.
//!
//! With `vdt_ways` = W > 1 (R15) the EUs release each VTX / PATCH entry at {`ar_vdt_way`, set}
//! (`eu.rs`), the live groups (which indexed triangles reference, and at whose sets W times as
//! many vertex and patch bases aim) are read from {way, set} entries, and an aimed base keeps
//! the group's set with its own tag or another (tag 0: the group itself, which a free way may
//! then hold twice). With W = 1 every draw and value is as without the key.
//!
//! With resource kinds (R16, K > 1) every packet has a demand per kind (kinds >= 1: 0 a quarter
//! of the time, else up to half the kind's largest RES_TOTAL, so the kinds after the first, with
//! the smaller totals of the tests, are often the one that does not fit), the EUs return each
//! kind's footprint in pulses of their own (`eu.rs`), and 30 % of the random writes go to a kind
//! >= 1's MIN_RES, FRAME_RES or (idle EU) RES_TOTAL, or read its FREE_RES; the restore writes
//! them back, the read sweep reads them, and an injected credit (illegal events) carries every
//! kind. With K = 1 every draw and value is as without the key.
//!
//! With `allow_errors` the stimulus also sends malformed vertex and patch packets,
//! releases of invalid VDT/PT entries, credits to idle EUs (which overflow), ack and
//! refuse together, `cr_edt` without `cr_valid`, and reset pulses (all strobes quiet
//! while `reset` is 1); with `pixel_reorder` also completions the ROB must ignore (a seq not
//! outstanding, or one already done).
//!
//! **Checker** ([`Invariants`]): keeps its own books from the inputs and outputs only (a
//! [`Mirror`]: the registers as written, per-EU outstanding footprint and records from
//! acks and credits, VDT/PT validity from acks and releases, the packet in each slot from
//! the transfers) and checks every cycle:
//! * I1 no over-commit: outstanding <= RES_TOTAL (per kind, R16) and records <= EDT_TOTAL per
//!   EU; `st_free_res = RES_TOTAL − outstanding` of every kind, `st_free_edt = EDT_TOTAL −
//!   records`, `eu_avail_cnt`; no `err_credit` (legal runs), and `err_credit` after any clamp
//!   the books see (a credit past RES_TOTAL of any kind, or past EDT_TOTAL);
//! * I2 every non-malformed transferred packet is acked once, with its payload, in channel
//!   order (the ack's `ar_src_addr` is the id of the packet in the slot); malformed
//!   packets are never acked and raise `err_malformed` in the next cycle;
//!   [`Invariants::finish`] after a drain: slots empty, every EU fully credited, tables
//!   empty;
//! * I3 `ar_valid` one-hot or 0; a request neither acked nor refused is presented again
//!   unchanged; a new request comes from an occupied, unblocked slot, with the payload the
//!   rules give (fp, base, refs, home, `ar_global_ref`), to a candidate that is enabled,
//!   dedicated and fits, such that no earlier candidate fits and has never refused this
//!   packet, and not to an EU that refused it since it was last re-evaluated with a
//!   possible mask clear; the class order (YIELD_EN 0: the first occupied slot; 1: no
//!   higher slot that is certainly eligible; the order is R7b's current one: ranks as
//!   configured or written to CLASS_PRIO, ties in the fixed order; not checked with `aging`,
//!   whose bound is checked instead) and no missing grant when a slot is certainly eligible;
//! * I4 locality (part of I3's candidate order: the home is the first candidate when
//!   LOCALITY_EN and it is enabled and dedicated) and `ar_global_ref` = some valid ref's EU
//!   differs from the target;
//! * `*_ready` = EN && (slot empty || its request acked), `busy`, `stall`,
//!   `st_slot_valid`, `st_vdt_valid`, `st_pt_valid`, the miss flags after a missing ref;
//! * R14 (`pixel_reorder`, [`RobBooks`]: the acked pixels in ack order, each with the
//!   `ar_seq` the books give it and whether a completion reached it): no pixel request while
//!   D pixels are outstanding (a full ROB also makes the pixel slot "blocked" for I3's missing
//!   grant check), `ar_seq` = TAIL, `po_valid` exactly when the oldest pixel is complete and
//!   `po_seq` = HEAD, so every acked pixel leaves `po_*` once, in ack order, never before its
//!   completion; in legal runs no ignored completion (the EU obligation); after the drain the
//!   ROB is empty;
//! * R15 (`vdt_ways`): the checker's own reading of the ways (W ways of S sets, entry {w, set}
//!   at w * S + set): a VTX / PATCH is blocked iff no way has all its entries free, a new
//!   request's `ar_vdt_way` is the lowest such way (0 for the other types), its refs come from
//!   the lowest way holding their set with their tag, and an ack writes {`ar_vdt_way`, set +
//!   g}, so `st_vdt_valid` is checked against the books every cycle.
//!
//! **Coverage** ([`Coverage`]): acks per type, refusals, held (sticky) cycles,
//! back-pressure cycles, stalls, TRI and PIX dispatches with local and with global refs,
//! home not taken (locality fallback), VDT and PT blocking, VDT and PT misses,
//! back-to-back dispatches of one class, yield passes, EN off, reads, writes, W1C, grants
//! before a higher class that could dispatch (aging: `aged_grant`; class priority:
//! `rank_grant`, against the fixed order), with `pixel_reorder` `rob_full` (cycles with D
//! pixels outstanding while a pixel waits in its slot), `rob_out_of_order` (completions of
//! an entry other than the oldest), `rob_pop`, `rob_backpressure` (`po_valid && !po_ready`),
//! and in error mode malformed packets, `err_release`, `err_credit`, resets, ack with refuse,
//! `rob_ignored` (completions the ROB ignores); with `vdt_ways` > 1 `vdt_way_nonzero` (VTX /
//! PATCH acks into a way > 0), `vdt_set_conflict_avoided` (new VTX / PATCH requests while way 0
//! of their set is taken), `vdt_all_ways_blocked` (cycles with a VTX / PATCH blocked with every
//! way taken), `vdt_hit_way_nonzero` and `vdt_hit_two_ways` (new TRI requests with a ref hitting
//! in a way > 0 / whose tag two ways hold); with resource kinds (K > 1) `fit_fail_kind_only`
//! (new requests with a candidate that fits kind 0 but fails a kind >= 1), `wait_kind_only`
//! (slot-cycles with a packet no candidate fits though one fits kind 0), `credit_kind` (`cr_valid`
//! pulses with a kind >= 1 credit), `kind_reg_rw` (accesses to a kind >= 1's register), and in
//! error mode `clamp_kind` (a kind >= 1 clamped).
//! Every bin needs [`Coverage::MIN_HITS`] hits, except where the parameters make it
//! impossible: with one EU every valid ref is in the target, so global refs and the
//! locality fallback cannot happen; bins of absent types are not required.

use super::eu::{EuBehaviour, EuPool};
use super::model::{self, ones, reg, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, PIX, TRI};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

// coverage: the bins; invariants: the checker of contract §6; mirror: the checker's books;
// rob: the checker's books of the pixel reorder buffer and the pixel consumer (R14);
// source: the packet producers.
mod coverage;
mod invariants;
mod mirror;
mod rob;
mod source;

pub use coverage::{Coverage, CoverageCounts};
pub use invariants::Invariants;
pub use mirror::{request_key, AckEvent, CycleEvents, Mirror, View};
pub use rob::{PixelConsumer, RobBooks, RobEvents};
pub use source::{put, PacketSource, StreamMix};

// =====================================================================================
// The random stimulus
// =====================================================================================

/// Every readable register address for the parameters (the read sweep).
pub fn readable_registers(p: &GlobalSpreaderParams) -> Vec<u64> {
    let mut v = vec![reg::CTRL, reg::EU_ENABLE, reg::AUTO_IDX, reg::STATUS, reg::STALL_CNT];
    if p.class_priority_reg {
        v.push(reg::CLASS_PRIO);
    }
    let types: Vec<usize> = (0..4).filter(|&t| p.has(t)).collect();
    for &t in &types {
        v.extend([reg::ded_mask(t), reg::min_res(t), reg::frame_res(t)]);
    }
    let more = |f: &mut dyn FnMut(usize)| (1..p.kinds()).for_each(f);
    for e in 0..p.eus {
        v.extend([
            reg::res_total(e),
            reg::free_res(e),
            reg::edt_total(e),
            reg::free_edt(e),
            reg::reject_cnt(e),
            reg::nack_cnt(e),
        ]);
        for &t in &types {
            v.extend([reg::prio(t, e), reg::alloc_cnt(e, t), reg::pend(e, t)]);
        }
    }
    // R16: the registers of kinds >= 1 (none with one kind).
    more(&mut |k| {
        for &t in &types {
            v.extend([reg::min_res_of(t, k), reg::frame_res_of(t, k)]);
        }
        for e in 0..p.eus {
            v.extend([reg::res_total_of(e, k), reg::free_res_of(e, k)]);
        }
    });
    v
}

/// A RES_TOTAL (any kind the parameters have, R16) or EDT_TOTAL address: (kind, or None for
/// EDT_TOTAL; EU), the EU possibly not built.
fn total_reg(p: &GlobalSpreaderParams, a: u64) -> Option<(Option<usize>, usize)> {
    match a {
        0x020..=0x03F => Some((Some(0), (a & 0x1F) as usize)),
        0x060..=0x07F => Some((None, (a & 0x1F) as usize)),
        _ => match reg::kind_reg(a) {
            Some((k, 0, e)) if k < p.kinds() => Some((Some(k), e)),
            _ => None,
        },
    }
}

/// Seeded random stimulus with the EU models; see the module documentation.
#[derive(Debug, Clone)]
pub struct GlobalSpreaderStimulus {
    p: GlobalSpreaderParams,
    rng: ChaCha8Rng,
    allow_errors: bool,
    pub pool: EuPool,
    pub src: PacketSource,
    /// R14: the downstream consumer of `po_*` (drives `po_ready` with `pixel_reorder`).
    pub consumer: PixelConsumer,
    mirror: Mirror,
    prev: Option<GlobalSpreaderInputs>,
    cycle: u64,
    /// Writes to do before any random one: (cycle, addr, data).
    timed: Vec<(u64, u64, u64)>,
    restore: VecDeque<(u64, u64)>,
    next_restore: u64,
    next_phase: u64,
    sweep: Vec<u64>,
    sweep_pos: usize,
    draining: bool,
}

impl GlobalSpreaderStimulus {
    pub fn new(p: &GlobalSpreaderParams, seed: u64) -> Self {
        p.validate().expect("global_spreader parameters");
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pool = EuPool::new(p, rng.gen(), EuBehaviour::default());
        let src = PacketSource::new(p, rng.gen(), StreamMix::default());
        GlobalSpreaderStimulus {
            p: p.clone(),
            rng,
            allow_errors: false,
            pool,
            src,
            consumer: PixelConsumer::new(seed ^ 0x9E37_79B9_7F4A_7C15),
            mirror: Mirror::new(p),
            prev: None,
            cycle: 0,
            timed: Vec::new(),
            restore: VecDeque::new(),
            next_restore: 2000,
            next_phase: 0,
            sweep: readable_registers(p),
            sweep_pos: 0,
            draining: false,
        }
    }

    /// Also produce errors (see the module documentation).
    pub fn allow_errors(mut self, on: bool) -> Self {
        self.allow_errors = on;
        self.src.allow_errors = on;
        self.pool.misbehave = on;
        self
    }

    /// Stop new packets and errors, restore a feasible configuration, let everything
    /// complete ([`GlobalSpreaderStimulus::drained`] tells when).
    pub fn drain(&mut self) {
        self.draining = true;
        self.src.draining = true;
        self.pool.misbehave = false;
        self.consumer.draining = true;
        self.timed.clear();
        self.queue_restore();
    }

    /// Draining and nothing left anywhere (in the producers, the GS or the EUs).
    pub fn drained(&self) -> bool {
        self.draining
            && self.src.idle()
            && self.pool.all_idle()
            && self.mirror.slots.iter().all(|s| s.is_none())
            && self.restore.is_empty()
            && self.mirror.vdt.iter().all(|x| x.is_none())
            && self.mirror.pt.iter().all(|x| x.is_none())
            && self.pool.completions_pending() == 0
            && self.mirror.rob.queue.is_empty()
    }

    /// What is still pending (for drain diagnostics).
    pub fn pending(&self) -> String {
        let m = &self.mirror;
        format!(
            "presented {:?}, pixel queue {}, plans {:?}, EUs idle {:?}, slots {:?}, VDT valid {:?}, PT valid {:?}, restore writes {}, regs {:?}, \
             pixel completions due {}, ROB {:?}",
            self.src.presented.iter().map(|k| k.as_ref().map(|k| k.src_addr)).collect::<Vec<_>>(),
            self.src.pix_queue.len(),
            self.src.plans.keys().collect::<Vec<_>>(),
            (0..self.p.eus).map(|e| self.pool.idle(e)).collect::<Vec<_>>(),
            m.slots,
            (0..m.vdt.len()).filter(|&s| m.vdt[s].is_some()).collect::<Vec<_>>(),
            (0..m.pt.len()).filter(|&s| m.pt[s].is_some()).collect::<Vec<_>>(),
            self.restore.len(),
            m.r,
            self.pool.completions_pending(),
            m.rob.queue,
        )
    }

    fn pct(&mut self, x: u32) -> bool {
        self.rng.gen_range(0..100) < x
    }

    /// Inputs for the next cycle; `last` = the outputs for the previous call's inputs
    /// (ignored on the first call, which is a reset cycle).
    pub fn next(&mut self, last: &GlobalSpreaderOutputs) -> GlobalSpreaderInputs {
        let reset = match self.prev.take() {
            None => true,
            Some(prev) => {
                let ev = self.mirror.update(&prev, last);
                self.pool.observe(&prev, last);
                self.src.account(&prev, last, &ev, &mut self.pool);
                if ev.reset {
                    self.timed.clear();
                    self.restore.clear();
                }
                self.cycle += 1;
                self.allow_errors && !self.draining && self.rng.gen_ratio(1, 4000)
            }
        };
        let mut inp = GlobalSpreaderInputs::idle(&self.p);
        if reset {
            inp.reset = true;
            // Random don't-care payloads, strobes quiet.
            inp.vp_base_idx = self.rng.gen();
            inp.cfg_addr = self.rng.gen_range(0..0x400);
            inp.cfg_wdata = self.rng.gen();
            self.prev = Some(inp.clone());
            return inp;
        }
        self.behaviour_phase();
        self.config(&mut inp);
        if self.allow_errors && !self.draining {
            self.inject_errors();
        }
        self.src.drive(&self.mirror, &mut inp);
        self.pool.drive(&mut inp);
        if self.p.pixel_reorder > 0 {
            self.consumer.drive(&mut inp);
        }
        // G1-G2: any counter index (past the last one too: 17 counters, 5 bits), rare clears.
        // Drawn only with perf_counters, so that runs without the key see the same stream.
        if self.p.perf_counters {
            inp.perf_sel = self.rng.gen_range(0..1u64 << self.p.perf_sel_w());
            inp.perf_clr = self.rng.gen_ratio(1, 400);
            inp.err_clr = self.rng.gen_ratio(1, 150);
        }
        self.prev = Some(inp.clone());
        inp
    }

    /// Every 500–3,000 cycles each EU gets a new behaviour.
    fn behaviour_phase(&mut self) {
        if self.cycle < self.next_phase {
            return;
        }
        self.next_phase = self.cycle + self.rng.gen_range(500..3000);
        // Offered load: a quarter, half or all of the default packet rates.
        let scale = [25, 50, 100, 100][self.rng.gen_range(0..4)];
        self.src.mix.rate_pct = StreamMix::default().rate_pct.map(|r| (r * scale / 100).max(1));
        for e in 0..self.p.eus {
            let b = match self.rng.gen_range(0..10) {
                0..=4 => EuBehaviour::default(),
                5 | 6 => EuBehaviour {
                    answer_pct: 100,
                    refuse_pct: 2,
                    work: (1, 12),
                    retain: (1, 10),
                    complete: (1, 6),
                    ..Default::default()
                },
                7 => EuBehaviour { answer_pct: 30, max_hold: 12, work: (20, 150), ..Default::default() },
                8 => EuBehaviour { refuse_pct: 40, ..Default::default() },
                _ => EuBehaviour { work: (60, 300), retain: (30, 200), complete: (30, 250), ..Default::default() },
            };
            self.pool.behaviour[e] = b;
        }
    }

    fn queue_restore(&mut self) {
        let p = self.p.clone();
        // R7b: with the register, a random order (drawn only then, so that runs without it
        // see the same stream). A triangle ranked before the pixels with YIELD_EN = 0 can
        // wait for ever: blocked on a PT entry that only its pixels' `last` releases, while
        // those pixels wait behind it. The restore (and so the drain) then turns yield on.
        let mut rank = self.mirror.r.class_rank;
        if p.class_priority_reg {
            let v = self.rng.gen_range(0..0x100);
            self.restore.push_back((reg::CLASS_PRIO, v));
            rank = std::array::from_fn(|t| v >> (2 * t) & 3);
        }
        let tri_first = p.has(TRI) && p.has(PIX) && rank[TRI] < rank[PIX];
        let ctrl = 1 | u64::from(self.pct(75)) << 1 | u64::from(tri_first || self.pct(50)) << 2;
        self.restore.push_back((reg::CTRL, ctrl));
        self.restore.push_back((reg::EU_ENABLE, p.eu_mask()));
        for t in (0..4).filter(|&t| p.has(t)) {
            self.restore.push_back((reg::ded_mask(t), p.eu_mask()));
            self.restore.push_back((reg::min_res(t), 0));
            let f = if self.pct(70) { 0 } else { self.rng.gen_range(0..4) };
            self.restore.push_back((reg::frame_res(t), f));
            // R16: the same for each kind >= 1 (nothing drawn with one kind).
            for k in 1..p.kinds() {
                self.restore.push_back((reg::min_res_of(t, k), 0));
                let f = if self.pct(70) { 0 } else { self.rng.gen_range(0..4) };
                self.restore.push_back((reg::frame_res_of(t, k), f));
            }
            let mut perm: Vec<u64> = (0..p.eus as u64).collect();
            if self.pct(60) {
                for s in (1..perm.len()).rev() {
                    perm.swap(s, self.rng.gen_range(0..=s));
                }
            }
            for (s, e) in perm.into_iter().enumerate() {
                self.restore.push_back((reg::prio(t, s), e));
            }
        }
        for e in 0..p.eus {
            if self.pool.totals(e) != (p.per_kind(|k| p.res_total_of(k)[e]), p.edt_total[e]) {
                for k in 0..p.kinds() {
                    self.restore.push_back((reg::res_total_of(e, k), p.res_total_of(k)[e]));
                }
                self.restore.push_back((reg::edt_total(e), p.edt_total[e]));
            }
        }
    }

    /// A write of RES_TOTAL/EDT_TOTAL of EU e is allowed now (idle, refusing this cycle).
    fn total_write_ok(&mut self, e: usize) -> bool {
        let held_here = self.mirror.held.is_some_and(|k| k[0] >> e & 1 == 1);
        self.pool.idle(e) && self.mirror.outstanding[e] == [0; 4] && self.mirror.records[e] == 0 && !held_here
    }

    /// A RES_TOTAL (of any kind, R16) or EDT_TOTAL write at `addr`, if its EU may take one now.
    fn write_total(&mut self, inp: &mut GlobalSpreaderInputs, addr: u64, data: u64) -> bool {
        let Some((kind, e)) = total_reg(&self.p, addr) else { return false };
        if e >= self.p.eus || !self.total_write_ok(e) {
            return false;
        }
        let (mut r, mut d) = self.pool.totals(e);
        match kind {
            Some(k) => r[k] = data & self.p.res_mask(),
            None => d = (data & 0xFFFF_FFFF).min(1 << self.p.ent_w),
        }
        self.pool.set_totals(e, r, d);
        self.pool.force_refuse(e);
        *inp = inp.clone().write(addr, data);
        true
    }

    fn config(&mut self, inp: &mut GlobalSpreaderInputs) {
        let now = self.cycle;
        if !self.draining && now >= self.next_restore {
            self.next_restore = now + self.rng.gen_range(1500..3500);
            self.queue_restore();
        }
        if let Some(k) = self.timed.iter().position(|w| w.0 <= now) {
            let (_, a, d) = self.timed.remove(k);
            *inp = inp.clone().write(a, d);
            return;
        }
        while let Some((a, d)) = self.restore.pop_front() {
            if total_reg(&self.p, a).is_some() {
                if self.write_total(inp, a, d) {
                    return;
                }
                if self.draining {
                    // Busy EU: retry later (it becomes idle while draining).
                    self.restore.push_back((a, d));
                    break;
                }
                continue; // busy EU: skip, the next restore retries
            }
            *inp = inp.clone().write(a, d);
            return;
        }
        if !self.draining && self.pct(3) {
            self.random_write(inp);
            return;
        }
        if now % 3 == 0 {
            let a = self.sweep[self.sweep_pos];
            self.sweep_pos = (self.sweep_pos + 1) % self.sweep.len();
            *inp = inp.clone().read(a);
        } else if self.pct(2) {
            let a = self.rng.gen_range(0..0x400);
            *inp = inp.clone().read(a);
        } else {
            inp.cfg_addr = self.rng.gen_range(0..0x400);
            inp.cfg_wdata = self.rng.gen::<u32>() as u64;
            inp.cfg_we = self.rng.gen();
        }
    }

    fn random_write(&mut self, inp: &mut GlobalSpreaderInputs) {
        let p = self.p.clone();
        let types: Vec<usize> = (0..4).filter(|&t| p.has(t)).collect();
        let t = types[self.rng.gen_range(0..types.len())];
        let e = self.rng.gen_range(0..p.eus);
        if p.class_priority_reg && self.pct(20) {
            // R7b: CLASS_PRIO, as often as CTRL; now and then with bits above the 8 stored.
            let d = if self.pct(80) { self.rng.gen_range(0..0x100) } else { self.rng.gen::<u32>() as u64 };
            *inp = inp.clone().write(reg::CLASS_PRIO, d);
            return;
        }
        if p.kinds() > 1 && self.pct(30) {
            self.random_kind_write(inp, t, e);
            return;
        }
        let (a, d) = match self.rng.gen_range(0..100) {
            0..=9 => {
                // EN off for a while.
                let ctrl = self.mirror.r.locality as u64 * 2 | self.mirror.r.yield_en as u64 * 4;
                let back = self.cycle + self.rng.gen_range(1..30);
                self.timed.push((back, reg::CTRL, ctrl | 1));
                (reg::CTRL, ctrl)
            }
            10..=21 => (reg::CTRL, 1 | self.rng.gen_range(0..4) << 1),
            22..=31 => {
                let m = if self.pct(50) { p.eu_mask() & !(1 << e) } else { self.rng.gen::<u64>() & p.eu_mask() };
                (reg::EU_ENABLE, m)
            }
            32..=41 => (reg::ded_mask(t), self.rng.gen::<u64>() & p.eu_mask() | 1 << e),
            42..=49 => (reg::min_res(t), self.rng.gen_range(0..40)),
            50..=55 => (reg::frame_res(t), self.rng.gen_range(0..8)),
            56..=71 => (reg::prio(t, self.rng.gen_range(0..p.eus)), self.rng.gen_range(0..=ones(p.prio_w()))),
            72..=77 => (reg::AUTO_IDX, self.rng.gen::<u32>() as u64),
            78..=85 => (reg::STATUS, self.rng.gen_range(0..0x80)),
            86..=93 => {
                let a = if self.pct(50) { reg::res_total(e) } else { reg::edt_total(e) };
                let d = match self.rng.gen_range(0..10) {
                    0 => 0,
                    1 => self.rng.gen::<u32>() as u64,
                    2..=5 => self.rng.gen_range(8..=64),
                    _ => self.rng.gen_range(16..=(1 << p.ent_w).min(p.res_mask()).max(16)),
                };
                if self.write_total(inp, a, d) {
                    return;
                }
                (reg::STATUS, 0)
            }
            _ => (self.rng.gen_range(0..0x400), self.rng.gen::<u32>() as u64),
        };
        if total_reg(&p, a).is_some() {
            // a random address hit a total: only for an idle EU
            if !self.write_total(inp, a, d) {
                *inp = inp.clone().read(a);
            }
            return;
        }
        *inp = inp.clone().write(a, d);
    }

    /// R16 (K > 1): a write to a register of a kind k >= 1 for type t or EU e: MIN_RES, FRAME_RES,
    /// or RES_TOTAL of an idle EU (else a read of its FREE_RES).
    fn random_kind_write(&mut self, inp: &mut GlobalSpreaderInputs, t: usize, e: usize) {
        let p = self.p.clone();
        let k = self.rng.gen_range(1..p.kinds());
        let (a, d) = match self.rng.gen_range(0..100) {
            0..=34 => (reg::min_res_of(t, k), self.rng.gen_range(0..=source::kind_demand_max(&p, k))),
            35..=64 => (reg::frame_res_of(t, k), self.rng.gen_range(0..8)),
            _ => {
                let d = match self.rng.gen_range(0..10) {
                    0 => 0,
                    1 => self.rng.gen::<u32>() as u64,
                    _ => self.rng.gen_range(4..=64.min(p.res_mask()).max(4)),
                };
                if !self.write_total(inp, reg::res_total_of(e, k), d) {
                    *inp = inp.clone().read(reg::free_res_of(e, k));
                }
                return;
            }
        };
        *inp = inp.clone().write(a, d);
    }

    fn inject_errors(&mut self) {
        let p = self.p.clone();
        let e = self.rng.gen_range(0..p.eus);
        match self.rng.gen_range(0..400) {
            0 if p.has_vdt() => {
                // Release of a VDT slot not valid now (unless dispatched at this edge).
                let s = self.rng.gen_range(0..p.vdt_depth);
                if self.mirror.vdt[s].is_none() {
                    self.pool.extra_vr(e, s as u64);
                }
            }
            1 if p.has_pt() => {
                let s = self.rng.gen_range(0..p.pt_depth);
                if self.mirror.pt[s].is_none() {
                    self.pool.extra_pr(e, s as u64);
                }
            }
            2 if self.total_write_ok(e) => {
                // A credit to an idle EU: overflows and sets err_credit (R16: of every kind, each
                // other kind's amount 0 half the time, drawn only with K > 1).
                let mut res = [self.rng.gen_range(0..=p.res_mask()), 0, 0, 0];
                for k in 1..p.kinds() {
                    res[k] = if self.pct(50) { 0 } else { self.rng.gen_range(1..=p.res_mask()) };
                }
                let edt = self.pct(50);
                self.pool.force_refuse(e);
                self.pool.extra_credit(e, res, edt, self.rng.gen_range(0..4));
            }
            3 | 4 if p.pixel_reorder > 0 => {
                // R14: a completion the ROB must ignore: a seq not outstanding, or one already
                // done (a second completion), as the books have it at the start of the cycle.
                let rob = &self.mirror.rob;
                let idle: Vec<u64> = (0..p.pixel_reorder as u64).filter(|&s| !rob.outstanding(s)).collect();
                let done: Vec<u64> = rob.queue.iter().filter(|x| x.1).map(|x| x.0).collect();
                let pick = if !done.is_empty() && (idle.is_empty() || self.pct(50)) { done } else { idle };
                if !pick.is_empty() {
                    let s = pick[self.rng.gen_range(0..pick.len())];
                    self.pool.extra_pc(e, s);
                }
            }
            _ => {}
        }
    }
}
