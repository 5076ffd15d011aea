//! The no-loss check of `producer_conflict = "stall"` (rule S1 of
//! docs/blocks/branch_stack.md), written from the rule alone: it sees only the ports.
//!
//! Every cycle it is given the inputs and the outputs of that cycle (before the edge) and
//! checks:
//! * **Hold rule (the driver's side).** A stage that presented a non-DN op with
//!   `cc_ready = 0` presents the same `cc_vld`, `cc_sop` and `cc_val` in the next cycle
//!   (unless that cycle is a reset).
//! * **At most one op applied per cycle.** At most one stage has a non-DN op and
//!   `cc_ready = 1` (the stack has one producer port; two "applied" ops would lose one).
//! * **Ready means applied.** From the occupancy at the start of a cycle, the branch's
//!   pops (1 simple, 2 compound), and the op of the ready stage (its pop, then its push),
//!   the next cycle's `cc_cnt` follows (pops clamp at empty, a push onto a full stack
//!   keeps it full), and a push is the next cycle's `cc_r`. A ready op that was not
//!   applied, or a held op that was, changes one of these.
//! * **Each accepted op is applied exactly once.** An op is accepted the first cycle its
//!   stage presents it; it is applied in the cycle it is ready and is then no longer
//!   pending. Always `accepted == applied + pending + dropped by reset`.
//! * **Nothing reports a loss.** `err_multi` and `err_port` stay 0.
//!
//! With `thread_groups` = T > 1 (rules G3/G4) a held stage also keeps its `cc_tg`, and the
//! stack check is made on group `de_tg`'s stack (what `cc_cnt` and `cc_r` show) when the next
//! cycle shows the same group and the edge restores no group of that id: the branch's pops
//! act on it, and the ready op only when its `cc_tg` is that group.

use super::{BranchStackInputs, BranchStackOutputs, StackOp};

/// The ledger of producer ops at `producer_conflict = "stall"`; see the module documentation.
#[derive(Debug, Clone, Default)]
pub struct Ledger {
    depth: u64,
    /// T - 1: the mask of a group id (0 at one group).
    tg_mask: u8,
    /// Per stage: the payload (sop, val, group) presented and held in the last cycle.
    pending: Vec<Option<(u8, u8, u8)>>,
    /// The last cycle's inputs and outputs.
    prev: Option<(BranchStackInputs, BranchStackOutputs)>,
    pub accepted: u64,
    pub applied: u64,
    /// Ops still held when a reset came (a reset empties the pipeline).
    pub reset_dropped: u64,
    /// Cycles observed.
    pub cycles: u64,
    /// The first violation, with its cycle.
    pub violation: Option<String>,
}

impl Ledger {
    pub fn new(nsrc: usize, depth: usize) -> Self {
        Ledger { depth: depth as u64, pending: vec![None; nsrc], ..Default::default() }
    }

    /// The ledger of a block with `tgs` thread groups.
    pub fn with_groups(nsrc: usize, depth: usize, tgs: usize) -> Self {
        Ledger { tg_mask: (tgs.max(1) - 1) as u8, ..Self::new(nsrc, depth) }
    }

    /// Stage `k`'s group id (modulo T).
    fn tg(&self, i: &BranchStackInputs, k: usize) -> u8 {
        i.cc_tg.get(k).copied().unwrap_or(0) & self.tg_mask
    }

    fn fail(&mut self, msg: String) {
        if self.violation.is_none() {
            self.violation = Some(format!("cycle {}: {msg}", self.cycles));
        }
    }

    /// Ops accepted and not yet applied.
    pub fn pending(&self) -> u64 {
        self.pending.iter().filter(|p| p.is_some()).count() as u64
    }

    /// Record one cycle: inputs applied, outputs observed before the edge.
    pub fn observe(&mut self, i: &BranchStackInputs, o: &BranchStackOutputs) {
        let n = self.pending.len();
        let active = |k: usize| i.cc_vld[k] && StackOp::from_bits(i.cc_sop[k]) != StackOp::Dn;
        if let Some((pi, po)) = self.prev.take() {
            if !pi.reset {
                let restored = self.tg_mask > 0 && pi.rs_valid && pi.rs_tg & self.tg_mask == pi.de_tg & self.tg_mask;
                if pi.de_tg & self.tg_mask == i.de_tg & self.tg_mask && !restored {
                    self.check_edge(&pi, &po, o);
                }
                if !i.reset {
                    for k in 0..n {
                        if let Some((sop, val, tg)) = self.pending[k] {
                            let same = i.cc_vld[k] && i.cc_sop[k] & 3 == sop && i.cc_val[k] & 0xF == val && self.tg(i, k) == tg;
                            if !same {
                                self.fail(format!("stage {k} was held with sop {sop}, val {val:#x}, group {tg} and changed its payload (hold rule)"));
                            }
                        }
                    }
                }
            }
        }
        if i.reset {
            self.reset_dropped += self.pending();
            self.pending.fill(None);
        } else {
            if o.cc_ready.len() != n {
                self.fail(format!("cc_ready has {} bits, not {n}", o.cc_ready.len()));
                return;
            }
            let mut applied_now = 0;
            for k in 0..n {
                if !active(k) {
                    if !o.cc_ready[k] {
                        self.fail(format!("stage {k} is idle or DN but not ready"));
                    }
                    continue;
                }
                if self.pending[k].is_none() {
                    self.accepted += 1;
                }
                if o.cc_ready[k] {
                    self.applied += 1;
                    applied_now += 1;
                    self.pending[k] = None;
                } else {
                    self.pending[k] = Some((i.cc_sop[k] & 3, i.cc_val[k] & 0xF, self.tg(i, k)));
                }
            }
            if applied_now > 1 {
                self.fail(format!("{applied_now} ops ready in one cycle: {:?}", o.cc_ready));
            }
            if o.err_multi || o.err_port {
                self.fail("err_multi or err_port set although nothing is dropped".into());
            }
        }
        if self.accepted != self.applied + self.pending() + self.reset_dropped {
            self.fail(format!(
                "accepted {} != applied {} + pending {} + dropped by reset {}",
                self.accepted, self.applied, self.pending(), self.reset_dropped
            ));
        }
        self.prev = Some((i.clone(), o.clone()));
        self.cycles += 1;
    }

    /// The stack after the edge of cycle (`pi`, `po`), seen in `o` (the same group), follows
    /// the ready op.
    fn check_edge(&mut self, pi: &BranchStackInputs, po: &BranchStackOutputs, o: &BranchStackOutputs) {
        let kd = match (pi.de_br_vld, pi.de_br_cmp) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        let ready_op = (0..self.pending.len()).find(|&k| {
            pi.cc_vld[k] && StackOp::from_bits(pi.cc_sop[k]) != StackOp::Dn && po.cc_ready.get(k) == Some(&true)
        });
        let (op, val) = ready_op.map_or((StackOp::Dn, 0), |k| (StackOp::from_bits(pi.cc_sop[k]), pi.cc_val[k] & 0xF));
        // G4: an op of another group leaves this group's stack alone.
        let other = ready_op.is_some_and(|k| self.tg(pi, k) != pi.de_tg & self.tg_mask);
        let op = if other { StackOp::Dn } else { op };
        let pops = kd + u64::from(op.pops());
        if pops > 2 {
            self.fail(format!("a ready {op:?} beside a compound branch of its group (three pops)"));
        }
        let left = po.cc_cnt.saturating_sub(pops);
        let cnt = if op.pushes() { (left + 1).min(self.depth) } else { left };
        if o.cc_cnt != cnt {
            self.fail(format!("cc_cnt {} after the edge, {cnt} from the ready op {op:?} and {kd} branch pops", o.cc_cnt));
        }
        if op.pushes() && o.cc_r != val {
            self.fail(format!("the ready push of {val:#x} is not on top (cc_r {:#x})", o.cc_r));
        }
    }

    /// The ledger is consistent: no violation.
    pub fn check(&self) -> Result<(), String> {
        match &self.violation {
            Some(v) => Err(format!("no-loss ledger (rule S1): {v}")),
            None => Ok(()),
        }
    }
}
