//! R14 (`pixel_reorder` = D > 0) on the checker's side: its own books of the reorder buffer
//! ([`RobBooks`]), kept from the inputs and outputs only and written from the rule, not from
//! the model; and the downstream consumer that drives `po_ready` ([`PixelConsumer`]).
//!
//! The books hold the acked pixels not yet popped, in ack order, each with the `ar_seq` the
//! checker expects it to carry (its own TAIL: the number of pixel acks since reset, mod D) and
//! whether a completion has reached it. A completion in cycle m reaches entry s if s is one of
//! the books' entries at the start of m and not yet completed; otherwise it is ignored.
//! `po_valid && po_ready` pops the first entry. From these the checker expects, every cycle:
//! `po_valid` = the first entry exists and is completed, `po_seq` = its HEAD (pops since
//! reset, mod D), and no pixel request while D entries are outstanding.

use crate::global_spreader::model::{GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// What the ROB did in one cycle, as the books saw it.
#[derive(Debug, Clone, Default)]
pub struct RobEvents {
    /// Completions taken of an entry that was not the oldest outstanding one.
    pub out_of_order: u64,
    /// Completions ignored (not outstanding, or already done): (EU, seq).
    pub ignored: Vec<(usize, u64)>,
    /// An entry left (`po_valid && po_ready`).
    pub popped: bool,
}

/// The checker's books of the reorder buffer (see the module documentation).
#[derive(Debug, Clone, Default)]
pub struct RobBooks {
    /// D (0: no ROB; the books stay empty).
    pub d: usize,
    /// Acked and not popped, oldest first: (seq, completed).
    pub queue: VecDeque<(u64, bool)>,
    /// The seq of the next pixel ack (TAIL) and of the next pop (HEAD).
    pub tail: u64,
    pub head: u64,
}

impl RobBooks {
    pub fn new(p: &GlobalSpreaderParams) -> Self {
        RobBooks { d: p.pixel_reorder, ..Default::default() }
    }

    /// D entries outstanding: a pixel packet must wait.
    pub fn full(&self) -> bool {
        self.d > 0 && self.queue.len() >= self.d
    }

    /// `po_valid` as the rule gives it: the oldest entry exists and is completed.
    pub fn expect_po_valid(&self) -> bool {
        self.queue.front().is_some_and(|x| x.1)
    }

    /// Is `seq` outstanding (acked, not popped) and not yet completed?
    pub fn waiting(&self, seq: u64) -> bool {
        self.queue.iter().any(|&(s, done)| s == seq && !done)
    }

    /// Is `seq` outstanding?
    pub fn outstanding(&self, seq: u64) -> bool {
        self.queue.iter().any(|&(s, _)| s == seq)
    }

    /// R14's checks of cycle m on the outputs (before [`RobBooks::update`]).
    pub fn check(&self, o: &GlobalSpreaderOutputs, pix_request: bool) -> Result<(), String> {
        if self.d == 0 {
            return Ok(());
        }
        if pix_request && self.full() {
            return Err(format!("pixel request while the ROB is full ({} outstanding: {:?})", self.queue.len(), self.queue));
        }
        if o.ar_valid != 0 {
            let want = if pix_request { self.tail } else { 0 };
            if o.ar_seq != want {
                return Err(format!("ar_seq {} of a request of type {}, expected {want}", o.ar_seq, o.ar_type));
            }
        }
        let exp = self.expect_po_valid();
        if o.po_valid != exp {
            let why = if exp { "not raised although the oldest pixel is complete" } else { "raised for a pixel not completed (or none)" };
            return Err(format!("po_valid {} {why}: ROB {:?}", o.po_valid, self.queue));
        }
        if o.po_seq != self.head {
            return Err(format!("po_seq {} != HEAD {} (pixels popped since reset, mod D)", o.po_seq, self.head));
        }
        Ok(())
    }

    /// Account cycle m: its completions (judged on the books at the start of m), its pop
    /// (`po_valid && po_ready` as observed) and its pixel ack (`pix_ack`).
    pub fn update(&mut self, i: &GlobalSpreaderInputs, o: &GlobalSpreaderOutputs, pix_ack: bool, eus: usize) -> RobEvents {
        let mut ev = RobEvents::default();
        let d = self.d as u64;
        if d == 0 {
            return ev;
        }
        let oldest = self.queue.front().map(|x| x.0);
        let mut reached = Vec::new();
        for e in (0..eus).filter(|&e| i.pc_valid >> e & 1 == 1) {
            let s = i.pc_seq.get(e).copied().unwrap_or(0) & (d - 1);
            if self.waiting(s) {
                reached.push(s);
                ev.out_of_order += u64::from(Some(s) != oldest);
            } else {
                ev.ignored.push((e, s));
            }
        }
        if o.po_valid && i.po_ready {
            ev.popped = self.queue.pop_front().is_some();
            self.head = (self.head + 1) % d;
        }
        for x in self.queue.iter_mut() {
            x.1 |= reached.contains(&x.0);
        }
        if pix_ack {
            self.queue.push_back((self.tail, false));
            self.tail = (self.tail + 1) % d;
        }
        ev
    }
}

/// The downstream consumer of `po_*`: in phases of 50–600 cycles it is ready most of the
/// time, about half of the time, or not at all for the whole phase (rarely: the ROB fills and
/// the pixel slot waits); while draining it is ready three cycles in four. It never looks at
/// `po_valid` (an input never depends on a same-cycle output). Its own random generator, so
/// that the rest of the stimulus is the same stream with and without the key.
#[derive(Debug, Clone)]
pub struct PixelConsumer {
    rng: ChaCha8Rng,
    /// Percent of cycles with `po_ready` in this phase.
    ready_pct: u32,
    phase_end: u64,
    cycle: u64,
    pub draining: bool,
}

impl PixelConsumer {
    pub fn new(seed: u64) -> Self {
        PixelConsumer { rng: ChaCha8Rng::seed_from_u64(seed), ready_pct: 90, phase_end: 0, cycle: 0, draining: false }
    }

    /// `po_ready` of the next cycle.
    pub fn drive(&mut self, inp: &mut GlobalSpreaderInputs) {
        if self.cycle >= self.phase_end {
            self.phase_end = self.cycle + self.rng.gen_range(50..600);
            self.ready_pct = match self.rng.gen_range(0..20) {
                0..=11 => 90,
                12..=16 => 50,
                17 => 15,
                _ => 0,
            };
        }
        self.cycle += 1;
        let pct = if self.draining { 75 } else { self.ready_pct };
        inp.po_ready = self.rng.gen_range(0..100) < pct;
    }
}
