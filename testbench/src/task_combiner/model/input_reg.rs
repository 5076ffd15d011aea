//! R2i (`registered_input`, contract §4): the input register IR between the instance port and
//! the table, in the reference model.
//!
//! IR holds one instance (the instance inputs as handed over: `in_stype`, `in_state`,
//! `in_ref`, `in_tpipe`, and with `dep_tags` `in_dep_vld` / `in_dep_tag`) or none (none after
//! reset). The table's rules run on the *table inputs*: the cycle's inputs with `in_valid` and
//! the instance fields taken from IR, so every rule that reads "the instance" (R2's match and
//! free entry, R3's victim, R9's accept, D3's set, D3t's tags, R2's `in_tag` / `in_lane`) reads
//! IR's. The one change to the table: IR's instance is taken while `drain_req` too (R2's accept
//! refuses then). *Entering* = IR holds an instance and the table takes it (match or free).
//!
//! At the ports: `in_ready = !drain_req && (IR empty || entering)`, `in_tag_valid = entering`,
//! `drain_done` = R8's && IR empty. At the edge IR := the port's instance if `in_valid &&
//! in_ready`; else empty if entering; else IR keeps its instance.
//!
//! Without the option the table inputs are the cycle's inputs and nothing here has an effect.

use super::{Decisions, Mutation, TaskCombinerInputs, TaskCombinerModel};

/// The instance IR holds, as the port gave it (truncated where the table reads it, as the
/// port's instance is).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Held {
    stype: u64,
    state: u64,
    r: u64,
    tpipe: u64,
    dep_vld: u64,
    dep_tag: u64,
}

impl Held {
    fn of(i: &TaskCombinerInputs) -> Self {
        Held {
            stype: i.in_stype,
            state: i.in_state,
            r: i.in_ref,
            tpipe: i.in_tpipe,
            dep_vld: i.in_dep_vld,
            dep_tag: i.in_dep_tag,
        }
    }
}

impl TaskCombinerModel {
    /// The inputs the table's rules read: `i` itself without `registered_input`; with it, `i`
    /// with `in_valid` = IR holds an instance and the instance fields IR's (0 when empty).
    pub(super) fn table_inputs(&self, i: &TaskCombinerInputs) -> TaskCombinerInputs {
        let mut t = i.clone();
        if self.p.registered_input {
            let h = self.ir.unwrap_or(Held { stype: 0, state: 0, r: 0, tpipe: 0, dep_vld: 0, dep_tag: 0 });
            t.in_valid = self.ir.is_some();
            t.in_stype = h.stype;
            t.in_state = h.state;
            t.in_ref = h.r;
            t.in_tpipe = h.tpipe;
            t.in_dep_vld = h.dep_vld;
            t.in_dep_tag = h.dep_tag;
        }
        t
    }

    /// R2i: the table takes IR's instance while `drain_req` too (the mutant: it waits, as R2's).
    pub(super) fn takes_during_drain(&self) -> bool {
        self.p.registered_input && !self.mutated(Mutation::IrWaitsDuringDrain)
    }

    /// `in_ready` at the port, given whether the table takes the instance of the table inputs
    /// (`take`, from [`TaskCombinerModel::match_free`] on them): R2's (`take` itself) without
    /// the option; R2i's `!drain_req && (IR empty || entering)` with it.
    pub(super) fn port_in_ready(&self, i: &TaskCombinerInputs, take: bool) -> bool {
        if !self.p.registered_input {
            return take;
        }
        let entering = self.ir.is_some() && take;
        let empty = self.ir.is_none() || self.mutated(Mutation::InReadyIgnoresIr);
        !i.drain_req && (empty || entering)
    }

    /// R2i's term of `drain_done`: IR is empty (always true without the option).
    pub(super) fn ir_drained(&self) -> bool {
        self.ir.is_none() || self.mutated(Mutation::DrainDoneIgnoresIr)
    }

    /// IR after this edge: the port's instance if handed over (`in_valid && in_ready` at the
    /// port `i`), else empty if IR's instance entered (`d.accept` on the table inputs), else
    /// IR as it is. Always empty without the option.
    pub(super) fn next_ir(&self, i: &TaskCombinerInputs, d: &Decisions) -> Option<Held> {
        if !self.p.registered_input {
            None
        } else if i.in_valid && d.port_ready {
            Some(Held::of(i))
        } else if d.accept {
            None
        } else {
            self.ir
        }
    }
}
