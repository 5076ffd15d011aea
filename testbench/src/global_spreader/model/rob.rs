//! R14, the pixel reorder buffer (`pixel_reorder` = D > 0), written from the rule only: a
//! circular queue of D entries with HEAD, TAIL (RB_W = log2 D bits, reset 0), COUNT (0..=D,
//! reset 0) and a DONE bit per entry (reset 0). Entry s is *outstanding* when
//! (s - HEAD) mod D < COUNT.
//!
//! * R4 addition: a PIX packet is blocked while COUNT = D ([`Rob::full`]).
//! * `ar_seq` = TAIL with a PIX request, else 0 ([`Rob::ar_seq`]).
//! * At the edge of a PIX ack: entry TAIL becomes outstanding with DONE = 0, TAIL += 1,
//!   COUNT += 1.
//! * At the edge ending m, for each EU e with `pc_valid[e]`: entry `pc_seq[e]` gets DONE = 1 if
//!   it is outstanding at the start of m and not done; otherwise nothing happens.
//! * `po_valid` = COUNT > 0 && DONE[HEAD], `po_seq` = HEAD; at the edge with `po_valid &&
//!   po_ready`: DONE[HEAD] <= 0, HEAD += 1, COUNT -= 1 (with an ack at the same edge COUNT
//!   stays).
//! * `reset` clears everything (the model's reset builds a new [`Rob`]).
//!
//! Every decision of the edge is taken on the state at the start of the cycle: a completion of
//! the entry that the same edge pushes (not outstanding at the start) is ignored, one of the
//! entry that the same edge pops (already done) too.

use super::{GlobalSpreaderInputs, Mutation};

/// The ROB's registered state (D = 0: no ROB, every output 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rob {
    pub d: usize,
    pub head: usize,
    pub tail: usize,
    pub count: usize,
    pub done: Vec<bool>,
}

impl Rob {
    /// The reset state of a D-entry ROB (D = 0: none).
    pub fn new(d: usize) -> Self {
        Rob { d, head: 0, tail: 0, count: 0, done: vec![false; d] }
    }

    /// COUNT = D: a PIX packet is blocked (R4 addition). Never without the ROB.
    pub fn full(&self) -> bool {
        self.d > 0 && self.count >= self.d
    }

    /// Entry s is one of the COUNT entries from HEAD on.
    pub fn outstanding(&self, s: usize) -> bool {
        self.d > 0 && (s + self.d - self.head) % self.d < self.count
    }

    /// `po_valid` = COUNT > 0 && DONE[HEAD] (the mutant: COUNT > 0).
    pub(crate) fn po_valid(&self, mutated: &dyn Fn(Mutation) -> bool) -> bool {
        self.count > 0 && (self.done[self.head] || mutated(Mutation::RobPopBeforeDone))
    }

    /// `ar_seq` of a request of type PIX (`pix`): TAIL (the mutant: HEAD); else 0.
    pub(crate) fn ar_seq(&self, pix: bool, mutated: &dyn Fn(Mutation) -> bool) -> u64 {
        match (pix && self.d > 0, mutated(Mutation::RobSeqFromHead)) {
            (false, _) => 0,
            (true, false) => self.tail as u64,
            (true, true) => self.head as u64,
        }
    }

    /// The edge ending cycle m: `pix_ack` = a PIX request is acked at it; the completions and
    /// `po_ready` are m's inputs (N_EU = `eus` completion ports).
    pub(crate) fn edge(&mut self, pix_ack: bool, i: &GlobalSpreaderInputs, eus: usize, mutated: &dyn Fn(Mutation) -> bool) {
        let d = self.d;
        if d == 0 {
            return;
        }
        let any = mutated(Mutation::RobCompleteAny);
        // Completions and the pop, judged on the state at the start of m.
        let completed: Vec<usize> = (0..eus)
            .filter(|&e| i.pc_valid >> e & 1 == 1)
            .map(|e| (i.pc_seq.get(e).copied().unwrap_or(0) as usize) & (d - 1))
            .filter(|&s| any || (self.outstanding(s) && !self.done[s]))
            .collect();
        let pop = self.po_valid(mutated) && (i.po_ready || mutated(Mutation::RobPopIgnoresReady));
        if pop {
            self.done[self.head] = false;
            self.head = (self.head + 1) % d;
        }
        if pix_ack {
            if !any {
                self.done[self.tail] = false;
            }
            self.tail = (self.tail + 1) % d;
        }
        for s in completed {
            self.done[s] = true;
        }
        let lose_pop = pop && pix_ack && mutated(Mutation::RobAckPopLosesPop);
        self.count = (self.count + usize::from(pix_ack)).min(d) - usize::from(pop && !lose_pop);
    }
}
