//! # branch_stack — branch control stack, branch evaluation, data flow controller
//!
//! A LIFO of 4-bit condition codes (CNVZ) that instructions push and pop through
//! their 2-bit stack operation indicator, the decode-stage evaluation of simple
//! (`BEZ`-style) and compound (`CBfg.op`) branches on the top two codes, and the
//! PC register with its T1 / T0 / NPC multiplexer, after CN102289363A as
//! specified in `spec/branch_stack.md`. Implements the behaviours of §2 and §4.4
//! (B1–B24) through the ports of §5.4 with the cycle semantics of §5.5, encodings
//! of §5.3.
//!
//! ## Structure
//! `warpgen_branch_stack` (exact-width ports, written by [`crate::emit::Wrapper`])
//! → `warpgen_branch_stack_core` ([`BranchStackCore`], spec `bcs_branch_unit`:
//! wiring only), which holds
//! * `warpgen_branch_stack_ctl` ([`BranchCtl`]): producer arbitration §5.5.3,
//!   port limit §5.5.4, the four sticky error flags §5.5.8, and
//!   * `warpgen_branch_stack_ctl_stack` ([`CcStack`], spec `bcs_stack`): `depth`
//!     4-bit condition registers as a shift register (entry 0 is the top, R;
//!     entry 1 is S) and the occupancy `cnt` (pointer 215); the pops of §5.5.5,
//!     then the push of §5.5.6;
//!   * `warpgen_branch_stack_ctl_eval` ([`BranchEval`], spec `bcs_eval`): the
//!     branch decision of §5.5.2;
//! * `warpgen_branch_stack_dfc` ([`DataFlowCtl`], spec `bcs_dfc`, Fig. 13): the
//!   target adder `de_pc + sext(de_off)` (T0PC), the BRANCH_T0 / T0PC pipeline
//!   registers, PC register 1304, adder 1306 and mux 1302 of §5.5.7.
//!
//! Only the core's wiring and the data flow controller depend on `pc_width`;
//! the control is compiled once, not once per PC width.
//!
//! ## Widths
//! `pc_width` is the const generic `P` of the core and the data flow
//! controller, dispatched by [`crate::with_width64!`]: `pc`, `t0pc_q` and
//! every PC port are exactly `pc_width` bits. `de_off` enters the core
//! zero-extended to `P` bits and is sign-extended there with two constants
//! (its sign bit and the bits above it), so no extension logic exists when
//! `offset_width == pc_width`. The stack is a `Vec` of `depth` 4-bit registers;
//! the occupancy is a `Vec` of `cnt_bits` = ceil(log2(depth+1)) one-bit
//! registers (exact, without a second const generic that would multiply the 61
//! PC widths by 5 occupancy widths), packed into a [`CNT_CORE_BITS`]-bit value
//! for its arithmetic; the padding bits are constant 0 and synthesize away. The
//! flops are exactly `4*depth + cnt_bits + 2*pc_width + 1 + 4` (stack, `cnt`,
//! `pc` and `t0pc_q`, `branch_t0_q`, errors); with `producer_stages = 1`
//! flattened synthesis drops the `err_multi` flop, which can never be set.
//!
//! ## Cycle timing
//! * Registered: the stack entries and `cnt`, `pc`, `branch_t0_q`, `t0pc_q`,
//!   `err_ovf`, `err_udf`, `err_port`, `err_multi`. Nothing else.
//! * Combinational from that state: `cc_r`, `cc_r_vld`, `cc_s`, `cc_s_vld`,
//!   `cc_cnt`, `npc = pc + pc_increment`.
//! * Combinational from this cycle's inputs and the state at the start of the
//!   cycle (no bypass of this cycle's push, B9/B24): `br_taken`, `br_target`.
//! * At the rising edge: the branch's pops (1 simple, 2 compound) act on the
//!   pre-cycle stack, then the selected producer's pop, then its push. A code
//!   pushed in cycle t is read by a branch in cycle t+1 at the earliest.
//! * Taken-branch latency: a branch in DE in cycle T drives `br_taken` in T;
//!   `branch_t0_q` / `t0pc_q` hold it in T+1; `pc` is the target from T+2 (the
//!   fetches at `pc` in T and T+1 are delay slots; nothing is flushed, B16). An
//!   `ex_branch_t1` in cycle u makes `pc = ex_t1pc` in u+1, over T0 (B23).
//!   `pc_hold` freezes `pc`, `branch_t0_q` and `t0pc_q` for that cycle.
//!
//! ## Deviations and interpretations (beyond the spec's proposal)
//! * `clock` / `reset` instead of `clk` / `rst_n`: reset is synchronous and
//!   active high (project convention) with the effect of §5.5.9, and wins over
//!   every other input in its cycle (including `pc_hold` and error sets). It also
//!   clears `t0pc_q` to 0, which §5.5.9 does not list, so that every output is
//!   defined after reset whatever `de_pc` / `de_off` are during it.
//! * `cc_vld`, `cc_sop`, `cc_val` are packed per producer (producer i at bit i,
//!   `[2i +: 2]`, `[4i +: 4]`); `cc_cnt` is max(1, ceil(log2(depth+1))) bits.
//! * `de_br_vld` while `pc_hold` (which §5.4 says never happens) follows §5.5
//!   literally: the branch still pops and raises `br_taken`, but the held
//!   `branch_t0_q` / `t0pc_q` do not capture it, so the redirect is lost.
//! * An empty operand reads as 0 (§5.5.1) and is evaluated like any code, so a
//!   simple branch on an empty stack with `de_br_pol = 0` is taken (it also sets
//!   `err_udf`); §5.5.2 applied literally.
//! * The entries a pop vacates are refilled with 0; their contents are not
//!   observable (`cc_r` / `cc_s` read 0 beyond `cc_cnt`).
//! * `cc_vld[i]` with `cc_sop[i] = DN` is ignored entirely: it neither counts as
//!   a producer for `err_multi` nor takes the arbitration (§5.5.3 `act`).
//! * `pc` powers up at `reset_pc` (rust-hdl's XOR-with-init register), every
//!   other register at 0, so the state before the first reset is the reset
//!   state; the spec leaves power-on undefined.
//! * `reset_pc` is a TOML integer (i64), so with `pc_width = 64` it can name
//!   only the lower half of the address space (0 to 2^63-1).

use crate::config::BranchStackConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{constant, signals};
use rust_hdl::prelude::*;

/// A condition code: `cc[3]=C, cc[2]=N, cc[1]=V, cc[0]=Z` (§5.3).
type Cc = Bits<4>;
/// A stack operation indicator: `00` DN, `01` PO, `10` PU, `11` PP (Table 1).
type Sop = Bits<2>;
/// Width of the stack occupancy inside the stack block (0 to depth <= 32 fits;
/// its registers and the `cc_cnt` port are exactly `cnt_bits` wide).
pub const CNT_CORE_BITS: usize = 8;
type Cnt = Bits<CNT_CORE_BITS>;


// ---------------------------------------------------------------------------
// The stack (spec `bcs_stack`): condition registers and occupancy.
// ---------------------------------------------------------------------------

/// The branch control stack: `depth` 4-bit condition registers, entry 0 on top.
#[derive(LogicBlock)]
pub struct CcStack {
    pub clock: Signal<In, Clock>,
    /// Empty the stack at the next edge.
    pub reset: Signal<In, Bit>,
    /// Entries to remove from the top of the pre-cycle state: 0, 1 or 2.
    pub pop_n: Signal<In, Bits<2>>,
    /// Push `push_val` after the pops.
    pub push_en: Signal<In, Bit>,
    pub push_val: Signal<In, Cc>,
    /// R and S: the top two entries, 0 where the stack is shallower.
    pub top0: Signal<Out, Cc>,
    pub top1: Signal<Out, Cc>,
    pub top0_vld: Signal<Out, Bit>,
    pub top1_vld: Signal<Out, Bit>,
    /// Occupancy (pointer 215), bit i of `cc_cnt`.
    pub cnt: Vec<Signal<Out, Bit>>,
    /// This cycle's push finds the stack full after the pops (the bottom entry drops).
    pub ovf_p: Signal<Out, Bit>,
    /// This cycle pops more entries than the stack holds.
    pub udf_p: Signal<Out, Bit>,
    entry_q: Vec<DFF<Cc>>,
    cnt_q: Vec<DFF<Bit>>,
    /// Occupancy at the start of the cycle, whether it is `depth`, its
    /// neighbours (computed from the registers alone, so that the late pop and
    /// push controls only select among them), and the next occupancy.
    occ: Signal<Local, Cnt>,
    full: Signal<Local, Bit>,
    occ_inc: Signal<Local, Cnt>,
    occ_dec1: Signal<Local, Cnt>,
    occ_dec2: Signal<Local, Cnt>,
    occ_d: Signal<Local, Cnt>,
    /// The entries after the pops.
    popped: Vec<Signal<Local, Cc>>,
    /// Weight of occupancy bit i (2^i).
    weight: Vec<Constant<Cnt>>,
    depth: Constant<Cnt>,
    zero: Constant<Cnt>,
    one: Constant<Cnt>,
    two: Constant<Cnt>,
    pop_none: Constant<Bits<2>>,
    pop_one: Constant<Bits<2>>,
    pop_two: Constant<Bits<2>>,
    no_cc: Constant<Cc>,
}

impl CcStack {
    fn new(depth: usize, cnt_bits: usize) -> Self {
        CcStack {
            clock: Signal::default(),
            reset: Signal::default(),
            pop_n: Signal::default(),
            push_en: Signal::default(),
            push_val: Signal::default(),
            top0: Signal::default(),
            top1: Signal::default(),
            top0_vld: Signal::default(),
            top1_vld: Signal::default(),
            cnt: signals(cnt_bits),
            ovf_p: Signal::default(),
            udf_p: Signal::default(),
            entry_q: (0..depth).map(|_| DFF::default()).collect(),
            cnt_q: (0..cnt_bits).map(|_| DFF::default()).collect(),
            occ: Signal::default(),
            full: Signal::default(),
            occ_inc: Signal::default(),
            occ_dec1: Signal::default(),
            occ_dec2: Signal::default(),
            occ_d: Signal::default(),
            popped: signals(depth),
            weight: (0..cnt_bits).map(|i| constant(1 << i)).collect(),
            depth: constant(depth as u64),
            zero: constant(0),
            one: constant(1),
            two: constant(2),
            pop_none: constant(0),
            pop_one: constant(1),
            pop_two: constant(2),
            no_cc: constant(0),
        }
    }
}

impl Logic for CcStack {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..self.entry_q.len() {
            self.entry_q[i].clock.next = self.clock.val();
        }
        // Occupancy: the cnt_bits registers as one number.
        self.occ.next = self.zero.val();
        for i in 0..self.cnt_q.len() {
            self.cnt_q[i].clock.next = self.clock.val();
            self.cnt[i].next = self.cnt_q[i].q.val();
            if self.cnt_q[i].q.val() {
                self.occ.next = self.occ.val() | self.weight[i].val();
            }
        }

        // Read (§5.5.1): R and S, 0 when absent.
        self.top0_vld.next = self.occ.val() != self.zero.val();
        self.top1_vld.next = self.occ.val() > self.one.val();
        self.top0.next = self.no_cc.val();
        if self.top0_vld.val() {
            self.top0.next = self.entry_q[0].q.val();
        }
        self.top1.next = self.no_cc.val();
        if self.top1_vld.val() {
            self.top1.next = self.entry_q[1].q.val();
        }

        // Pop (§5.5.5): at most as many as there are; the rest move up. The
        // entries move up by the pops asked for: entries at and below the
        // occupancy are always 0, so moving up by more than there are gives the
        // same entries as moving up by exactly as many (and needs no comparison
        // of the pop count with the occupancy on this path).
        self.full.next = self.occ.val() == self.depth.val();
        self.occ_inc.next = self.occ.val() + self.one.val();
        self.occ_dec1.next = self.occ.val() - self.one.val();
        self.occ_dec2.next = self.occ.val() - self.two.val();
        self.udf_p.next = ((self.pop_n.val() == self.pop_one.val()) & !self.top0_vld.val())
            | ((self.pop_n.val() == self.pop_two.val()) & !self.top1_vld.val());
        for i in 0..self.entry_q.len() {
            self.popped[i].next = self.entry_q[i].q.val();
        }
        // (Loop bounds are evaluated at generation time: the vacated bottom
        // entries are the last one or two.)
        if self.pop_n.val() == self.pop_one.val() {
            for i in 1..self.entry_q.len() {
                self.popped[i - 1].next = self.entry_q[i].q.val();
            }
            for i in (self.entry_q.len() - 1)..self.entry_q.len() {
                self.popped[i].next = self.no_cc.val();
            }
        }
        if self.pop_n.val() == self.pop_two.val() {
            for i in 2..self.entry_q.len() {
                self.popped[i - 2].next = self.entry_q[i].q.val();
            }
            for i in (self.entry_q.len() - 2)..self.entry_q.len() {
                self.popped[i].next = self.no_cc.val();
            }
        }

        // Push (§5.5.6): everything moves down, the bottom entry drops when full.
        // After the pops the stack is full only if nothing was popped from a full stack.
        self.ovf_p.next = self.push_en.val() & (self.pop_n.val() == self.pop_none.val()) & self.full.val();
        // Next occupancy: max(occ - pops, 0), plus one for a push unless that is full.
        self.occ_d.next = self.occ.val();
        if self.push_en.val() & !self.full.val() {
            self.occ_d.next = self.occ_inc.val();
        }
        if self.pop_n.val() == self.pop_one.val() {
            if self.push_en.val() {
                self.occ_d.next = self.one.val();
                if self.top0_vld.val() {
                    self.occ_d.next = self.occ.val();
                }
            } else {
                self.occ_d.next = self.zero.val();
                if self.top0_vld.val() {
                    self.occ_d.next = self.occ_dec1.val();
                }
            }
        }
        if self.pop_n.val() == self.pop_two.val() {
            if self.push_en.val() {
                self.occ_d.next = self.one.val();
                if self.top1_vld.val() {
                    self.occ_d.next = self.occ_dec1.val();
                }
            } else {
                self.occ_d.next = self.zero.val();
                if self.top1_vld.val() {
                    self.occ_d.next = self.occ_dec2.val();
                }
            }
        }
        for i in 0..self.entry_q.len() {
            self.entry_q[i].d.next = self.popped[i].val();
        }
        if self.push_en.val() {
            self.entry_q[0].d.next = self.push_val.val();
            for i in 1..self.entry_q.len() {
                self.entry_q[i].d.next = self.popped[i - 1].val();
            }
        }
        // Bit i of the next occupancy (a masked reduction reads every bit of occ_d).
        for i in 0..self.cnt_q.len() {
            self.cnt_q[i].d.next = (self.occ_d.val() & self.weight[i].val()).any();
        }

        if self.reset.val() {
            for i in 0..self.entry_q.len() {
                self.entry_q[i].d.next = self.no_cc.val();
            }
            for i in 0..self.cnt_q.len() {
                self.cnt_q[i].d.next = false;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Branch evaluation (spec `bcs_eval`): the decision, combinational.
// ---------------------------------------------------------------------------

/// The decode-stage branch decision on R and S (§5.5.2, encodings §5.3).
#[derive(LogicBlock)]
pub struct BranchEval {
    pub vld: Signal<In, Bit>,
    /// 0: simple (`r[sel] == pol`), 1: compound `op(R.f, S.g)`.
    pub cmp: Signal<In, Bit>,
    pub sel: Signal<In, Bits<2>>,
    pub pol: Signal<In, Bit>,
    pub f: Signal<In, Bit>,
    pub g: Signal<In, Bit>,
    pub op: Signal<In, Bits<2>>,
    pub r: Signal<In, Cc>,
    pub s: Signal<In, Cc>,
    pub taken: Signal<Out, Bit>,
    simple_t: Signal<Local, Bit>,
    a: Signal<Local, Bit>,
    b: Signal<Local, Bit>,
    compound_t: Signal<Local, Bit>,
    /// Bit positions of N and Z in a code.
    n_bit: Constant<Bits<2>>,
    z_bit: Constant<Bits<2>>,
    op_and: Constant<Bits<2>>,
    op_or: Constant<Bits<2>>,
    op_xor: Constant<Bits<2>>,
}

impl BranchEval {
    fn new() -> Self {
        BranchEval {
            vld: Signal::default(),
            cmp: Signal::default(),
            sel: Signal::default(),
            pol: Signal::default(),
            f: Signal::default(),
            g: Signal::default(),
            op: Signal::default(),
            r: Signal::default(),
            s: Signal::default(),
            taken: Signal::default(),
            simple_t: Signal::default(),
            a: Signal::default(),
            b: Signal::default(),
            compound_t: Signal::default(),
            n_bit: constant(2),
            z_bit: constant(0),
            op_and: constant(0),
            op_or: constant(1),
            op_xor: constant(2),
        }
    }
}

impl Logic for BranchEval {
    #[hdl_gen]
    fn update(&mut self) {
        // Simple branch (BEZ = sel Z, pol 1): the selected bit of R equals pol.
        self.simple_t.next = self.r.val().get_bit(self.sel.val().index()) == self.pol.val();
        // Compound CBfg.op: f picks R's bit, g picks S's bit (0 = N, 1 = Z).
        self.a.next = self.r.val().get_bit(self.n_bit.val().index());
        if self.f.val() {
            self.a.next = self.r.val().get_bit(self.z_bit.val().index());
        }
        self.b.next = self.s.val().get_bit(self.n_bit.val().index());
        if self.g.val() {
            self.b.next = self.s.val().get_bit(self.z_bit.val().index());
        }
        if self.op.val() == self.op_and.val() {
            self.compound_t.next = self.a.val() & self.b.val();
        } else if self.op.val() == self.op_or.val() {
            self.compound_t.next = self.a.val() | self.b.val();
        } else if self.op.val() == self.op_xor.val() {
            self.compound_t.next = self.a.val() ^ self.b.val();
        } else {
            self.compound_t.next = !(self.a.val() ^ self.b.val());
        }
        self.taken.next = self.vld.val() & self.simple_t.val();
        if self.cmp.val() {
            self.taken.next = self.vld.val() & self.compound_t.val();
        }
    }
}

// ---------------------------------------------------------------------------
// Control: everything that does not depend on pc_width (compiled once).
// ---------------------------------------------------------------------------

/// Stack, branch decision, producer arbitration (§5.5.3), port limit (§5.5.4)
/// and the sticky error flags (§5.5.8).
#[derive(LogicBlock)]
pub struct BranchCtl {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // CC producers, index 0 = EX0; a higher index is an older instruction.
    pub cc_vld: Vec<Signal<In, Bit>>,
    pub cc_sop: Vec<Signal<In, Sop>>,
    pub cc_val: Vec<Signal<In, Cc>>,
    // Branch in DE.
    pub de_br_vld: Signal<In, Bit>,
    pub de_br_cmp: Signal<In, Bit>,
    pub de_br_sel: Signal<In, Bits<2>>,
    pub de_br_pol: Signal<In, Bit>,
    pub de_br_f: Signal<In, Bit>,
    pub de_br_g: Signal<In, Bit>,
    pub de_br_op: Signal<In, Bits<2>>,
    pub br_taken: Signal<Out, Bit>,
    // Stack observation.
    pub cc_r: Signal<Out, Cc>,
    pub cc_r_vld: Signal<Out, Bit>,
    pub cc_s: Signal<Out, Cc>,
    pub cc_s_vld: Signal<Out, Bit>,
    pub cc_cnt: Vec<Signal<Out, Bit>>,
    // Sticky errors.
    pub err_clr: Signal<In, Bit>,
    pub err_ovf: Signal<Out, Bit>,
    pub err_udf: Signal<Out, Bit>,
    pub err_port: Signal<Out, Bit>,
    pub err_multi: Signal<Out, Bit>,
    stack: CcStack,
    eval: BranchEval,
    ovf_q: DFF<Bit>,
    udf_q: DFF<Bit>,
    port_q: DFF<Bit>,
    multi_q: DFF<Bit>,
    /// The producer that acts (the highest active index), its operation and value.
    any_act: Signal<Local, Bit>,
    multi: Signal<Local, Bit>,
    sop: Signal<Local, Sop>,
    val: Signal<Local, Cc>,
    /// Its pop and push after the port limit, and whether the limit struck.
    pe: Signal<Local, Bit>,
    pu: Signal<Local, Bit>,
    port_hit: Signal<Local, Bit>,
    sop_dn: Constant<Sop>,
    sop_po: Constant<Sop>,
    sop_pu: Constant<Sop>,
    sop_pp: Constant<Sop>,
    pop_none: Constant<Bits<2>>,
    pop_one: Constant<Bits<2>>,
    pop_two: Constant<Bits<2>>,
    no_cc: Constant<Cc>,
}

impl BranchCtl {
    fn new(cfg: &BranchStackConfig) -> Self {
        let nsrc = cfg.producer_stages as usize;
        let cnt_bits = cfg.cnt_bits();
        BranchCtl {
            clock: Signal::default(),
            reset: Signal::default(),
            cc_vld: signals(nsrc),
            cc_sop: signals(nsrc),
            cc_val: signals(nsrc),
            de_br_vld: Signal::default(),
            de_br_cmp: Signal::default(),
            de_br_sel: Signal::default(),
            de_br_pol: Signal::default(),
            de_br_f: Signal::default(),
            de_br_g: Signal::default(),
            de_br_op: Signal::default(),
            br_taken: Signal::default(),
            cc_r: Signal::default(),
            cc_r_vld: Signal::default(),
            cc_s: Signal::default(),
            cc_s_vld: Signal::default(),
            cc_cnt: signals(cnt_bits),
            err_clr: Signal::default(),
            err_ovf: Signal::default(),
            err_udf: Signal::default(),
            err_port: Signal::default(),
            err_multi: Signal::default(),
            stack: CcStack::new(cfg.depth as usize, cnt_bits),
            eval: BranchEval::new(),
            ovf_q: DFF::default(),
            udf_q: DFF::default(),
            port_q: DFF::default(),
            multi_q: DFF::default(),
            any_act: Signal::default(),
            multi: Signal::default(),
            sop: Signal::default(),
            val: Signal::default(),
            pe: Signal::default(),
            pu: Signal::default(),
            port_hit: Signal::default(),
            sop_dn: constant(0),
            sop_po: constant(1),
            sop_pu: constant(2),
            sop_pp: constant(3),
            pop_none: constant(0),
            pop_one: constant(1),
            pop_two: constant(2),
            no_cc: constant(0),
        }
    }
}

impl Logic for BranchCtl {
    #[hdl_gen]
    fn update(&mut self) {
        self.stack.clock.next = self.clock.val();
        self.stack.reset.next = self.reset.val();
        dff_setup!(self, clock, ovf_q, udf_q, port_q, multi_q);

        // Read (§5.5.1).
        self.cc_r.next = self.stack.top0.val();
        self.cc_r_vld.next = self.stack.top0_vld.val();
        self.cc_s.next = self.stack.top1.val();
        self.cc_s_vld.next = self.stack.top1_vld.val();
        for i in 0..self.cc_cnt.len() {
            self.cc_cnt[i].next = self.stack.cnt[i].val();
        }

        // Branch decision (§5.5.2) on the pre-cycle R and S.
        self.eval.vld.next = self.de_br_vld.val();
        self.eval.cmp.next = self.de_br_cmp.val();
        self.eval.sel.next = self.de_br_sel.val();
        self.eval.pol.next = self.de_br_pol.val();
        self.eval.f.next = self.de_br_f.val();
        self.eval.g.next = self.de_br_g.val();
        self.eval.op.next = self.de_br_op.val();
        self.eval.r.next = self.stack.top0.val();
        self.eval.s.next = self.stack.top1.val();
        self.br_taken.next = self.eval.taken.val();

        // Producer arbitration (§5.5.3): the highest active index wins.
        self.any_act.next = false;
        self.multi.next = false;
        self.sop.next = self.sop_dn.val();
        self.val.next = self.no_cc.val();
        for i in 0..self.cc_vld.len() {
            if self.cc_vld[i].val() & (self.cc_sop[i].val() != self.sop_dn.val()) {
                if self.any_act.val() {
                    self.multi.next = true;
                }
                self.any_act.next = true;
                self.sop.next = self.cc_sop[i].val();
                self.val.next = self.cc_val[i].val();
            }
        }
        self.pe.next = (self.sop.val() == self.sop_po.val()) | (self.sop.val() == self.sop_pp.val());
        self.pu.next = (self.sop.val() == self.sop_pu.val()) | (self.sop.val() == self.sop_pp.val());

        // Port limit (§5.5.4): a compound branch's two pops leave no room for a
        // producer pop; the producer operation (pop and push) is suppressed.
        self.port_hit.next = self.de_br_vld.val() & self.de_br_cmp.val() & self.pe.val();
        if self.port_hit.val() {
            self.pe.next = false;
            self.pu.next = false;
        }

        // Pop count (§5.5.5): the branch's 1 or 2, plus the producer's.
        self.stack.pop_n.next = self.pop_none.val();
        if self.de_br_vld.val() | self.pe.val() {
            self.stack.pop_n.next = self.pop_one.val();
        }
        if (self.de_br_vld.val() & self.de_br_cmp.val()) | (self.de_br_vld.val() & self.pe.val()) {
            self.stack.pop_n.next = self.pop_two.val();
        }
        // Push (§5.5.6), after the pops.
        self.stack.push_en.next = self.pu.val();
        self.stack.push_val.next = self.val.val();

        // Sticky errors (§5.5.8): a set wins over err_clr; reset clears.
        if self.err_clr.val() {
            self.ovf_q.d.next = false;
            self.udf_q.d.next = false;
            self.port_q.d.next = false;
            self.multi_q.d.next = false;
        }
        if self.stack.ovf_p.val() {
            self.ovf_q.d.next = true;
        }
        if self.stack.udf_p.val() {
            self.udf_q.d.next = true;
        }
        if self.port_hit.val() {
            self.port_q.d.next = true;
        }
        if self.multi.val() {
            self.multi_q.d.next = true;
        }
        if self.reset.val() {
            self.ovf_q.d.next = false;
            self.udf_q.d.next = false;
            self.port_q.d.next = false;
            self.multi_q.d.next = false;
        }
        self.err_ovf.next = self.ovf_q.q.val();
        self.err_udf.next = self.udf_q.q.val();
        self.err_port.next = self.port_q.q.val();
        self.err_multi.next = self.multi_q.q.val();
    }
}

// ---------------------------------------------------------------------------
// Data flow controller (spec `bcs_dfc`, Fig. 13), with the branch target.
// ---------------------------------------------------------------------------

/// The target adder, BRANCH_T0 / T0PC pipeline registers, PC register 1304,
/// adder 1306 and mux 1302 (§5.5.2 target, §5.5.7).
#[derive(LogicBlock)]
pub struct DataFlowCtl<const P: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Freeze `pc`, `branch_t0_q` and `t0pc_q` this cycle.
    pub hold: Signal<In, Bit>,
    /// Decode stage: the decision (BRANCH_T0), the branch's address and offset
    /// (zero-extended from `offset_width` to `P` bits).
    pub t0: Signal<In, Bit>,
    pub de_pc: Signal<In, Bits<P>>,
    pub de_off: Signal<In, Bits<P>>,
    /// Execution-stage redirect (BRANCH_T1 / T1PC).
    pub t1: Signal<In, Bit>,
    pub t1pc: Signal<In, Bits<P>>,
    /// T0PC: de_pc + sext(de_off), modulo 2^P (Claim 9).
    pub target: Signal<Out, Bits<P>>,
    pub pc: Signal<Out, Bits<P>>,
    pub npc: Signal<Out, Bits<P>>,
    pub branch_t0_q: Signal<Out, Bit>,
    pub t0pc_q: Signal<Out, Bits<P>>,
    /// Powers up at `reset_pc` (rust-hdl's XOR-with-init register), so that the
    /// state before the first reset is the reset state, on FPGA and in simulation.
    pc_r: DFFWithInit<Bits<P>>,
    t0_r: DFF<Bit>,
    t0pc_r: DFF<Bits<P>>,
    off_ext: Signal<Local, Bits<P>>,
    /// The offset's sign bit, and the bits above it.
    off_sign: Constant<Bits<P>>,
    off_ext_bits: Constant<Bits<P>>,
    pc_inc: Constant<Bits<P>>,
    reset_pc: Constant<Bits<P>>,
    no_pc: Constant<Bits<P>>,
}

impl<const P: usize> DataFlowCtl<P> {
    fn new(cfg: &BranchStackConfig) -> Self {
        let off_w = cfg.offset_width as usize;
        let pc_mask = u64::MAX >> (64 - P);
        let off_mask = u64::MAX >> (64 - off_w);
        DataFlowCtl {
            clock: Signal::default(),
            reset: Signal::default(),
            hold: Signal::default(),
            t0: Signal::default(),
            de_pc: Signal::default(),
            de_off: Signal::default(),
            t1: Signal::default(),
            t1pc: Signal::default(),
            target: Signal::default(),
            pc: Signal::default(),
            npc: Signal::default(),
            branch_t0_q: Signal::default(),
            t0pc_q: Signal::default(),
            pc_r: DFFWithInit::new(Bits::<P>::from(cfg.reset_pc as u64)),
            t0_r: DFF::default(),
            t0pc_r: DFF::default(),
            off_ext: Signal::default(),
            off_sign: constant(1 << (off_w - 1)),
            off_ext_bits: constant(pc_mask & !off_mask),
            pc_inc: constant(cfg.pc_increment as u64),
            reset_pc: constant(cfg.reset_pc as u64),
            no_pc: constant(0),
        }
    }
}

impl<const P: usize> Logic for DataFlowCtl<P> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pc_r, t0_r, t0pc_r);
        // Target: sign-extend the offset (nothing to extend at offset_width == P).
        self.off_ext.next = self.de_off.val();
        if (self.de_off.val() & self.off_sign.val()).any() {
            self.off_ext.next = self.de_off.val() | self.off_ext_bits.val();
        }
        self.target.next = self.de_pc.val() + self.off_ext.val();

        self.pc.next = self.pc_r.q.val();
        self.npc.next = self.pc_r.q.val() + self.pc_inc.val();
        self.branch_t0_q.next = self.t0_r.q.val();
        self.t0pc_q.next = self.t0pc_r.q.val();
        // dff_setup! holds every register; load them unless held.
        if !self.hold.val() {
            self.t0_r.d.next = self.t0.val();
            self.t0pc_r.d.next = self.target.val();
            // Mux 1302: T1 (older instruction) over T0 over NPC.
            if self.t1.val() {
                self.pc_r.d.next = self.t1pc.val();
            } else if self.t0_r.q.val() {
                self.pc_r.d.next = self.t0pc_r.q.val();
            } else {
                self.pc_r.d.next = self.npc.val();
            }
        }
        if self.reset.val() {
            self.pc_r.d.next = self.reset_pc.val();
            self.t0_r.d.next = false;
            self.t0pc_r.d.next = self.no_pc.val();
        }
    }
}

// ---------------------------------------------------------------------------
// The core: the ports of §5.4, wired to the control and the PC path.
// ---------------------------------------------------------------------------

/// The branch stack core: ports of §5.4, producer vectors unpacked per stage.
/// Only this wiring and [`DataFlowCtl`] are instantiated per `pc_width`.
#[derive(LogicBlock)]
pub struct BranchStackCore<const P: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    // CC producers.
    pub cc_vld: Vec<Signal<In, Bit>>,
    pub cc_sop: Vec<Signal<In, Sop>>,
    pub cc_val: Vec<Signal<In, Cc>>,
    // Branch in DE.
    pub de_br_vld: Signal<In, Bit>,
    pub de_br_cmp: Signal<In, Bit>,
    pub de_br_sel: Signal<In, Bits<2>>,
    pub de_br_pol: Signal<In, Bit>,
    pub de_br_f: Signal<In, Bit>,
    pub de_br_g: Signal<In, Bit>,
    pub de_br_op: Signal<In, Bits<2>>,
    pub de_pc: Signal<In, Bits<P>>,
    /// Zero-extended from `offset_width` bits by the top module.
    pub de_off: Signal<In, Bits<P>>,
    pub br_taken: Signal<Out, Bit>,
    pub br_target: Signal<Out, Bits<P>>,
    // Stack observation.
    pub cc_r: Signal<Out, Cc>,
    pub cc_r_vld: Signal<Out, Bit>,
    pub cc_s: Signal<Out, Cc>,
    pub cc_s_vld: Signal<Out, Bit>,
    pub cc_cnt: Vec<Signal<Out, Bit>>,
    // Execution-stage branch, data flow controller.
    pub ex_branch_t1: Signal<In, Bit>,
    pub ex_t1pc: Signal<In, Bits<P>>,
    pub pc_hold: Signal<In, Bit>,
    pub pc: Signal<Out, Bits<P>>,
    pub npc: Signal<Out, Bits<P>>,
    pub branch_t0_q: Signal<Out, Bit>,
    pub t0pc_q: Signal<Out, Bits<P>>,
    // Sticky errors.
    pub err_clr: Signal<In, Bit>,
    pub err_ovf: Signal<Out, Bit>,
    pub err_udf: Signal<Out, Bit>,
    pub err_port: Signal<Out, Bit>,
    pub err_multi: Signal<Out, Bit>,
    ctl: BranchCtl,
    dfc: DataFlowCtl<P>,
}

impl<const P: usize> BranchStackCore<P> {
    /// The core for a validated config whose `pc_width` is `P`.
    pub fn new(cfg: &BranchStackConfig) -> Self {
        assert_eq!(cfg.pc_width as usize, P, "dispatch with with_width64!");
        let nsrc = cfg.producer_stages as usize;
        BranchStackCore {
            clock: Signal::default(),
            reset: Signal::default(),
            cc_vld: signals(nsrc),
            cc_sop: signals(nsrc),
            cc_val: signals(nsrc),
            de_br_vld: Signal::default(),
            de_br_cmp: Signal::default(),
            de_br_sel: Signal::default(),
            de_br_pol: Signal::default(),
            de_br_f: Signal::default(),
            de_br_g: Signal::default(),
            de_br_op: Signal::default(),
            de_pc: Signal::default(),
            de_off: Signal::default(),
            br_taken: Signal::default(),
            br_target: Signal::default(),
            cc_r: Signal::default(),
            cc_r_vld: Signal::default(),
            cc_s: Signal::default(),
            cc_s_vld: Signal::default(),
            cc_cnt: signals(cfg.cnt_bits()),
            ex_branch_t1: Signal::default(),
            ex_t1pc: Signal::default(),
            pc_hold: Signal::default(),
            pc: Signal::default(),
            npc: Signal::default(),
            branch_t0_q: Signal::default(),
            t0pc_q: Signal::default(),
            err_clr: Signal::default(),
            err_ovf: Signal::default(),
            err_udf: Signal::default(),
            err_port: Signal::default(),
            err_multi: Signal::default(),
            ctl: BranchCtl::new(cfg),
            dfc: DataFlowCtl::new(cfg),
        }
    }
}

impl<const P: usize> Logic for BranchStackCore<P> {
    #[hdl_gen]
    fn update(&mut self) {
        self.ctl.clock.next = self.clock.val();
        self.ctl.reset.next = self.reset.val();
        self.dfc.clock.next = self.clock.val();
        self.dfc.reset.next = self.reset.val();
        for i in 0..self.cc_vld.len() {
            self.ctl.cc_vld[i].next = self.cc_vld[i].val();
            self.ctl.cc_sop[i].next = self.cc_sop[i].val();
            self.ctl.cc_val[i].next = self.cc_val[i].val();
        }
        self.ctl.de_br_vld.next = self.de_br_vld.val();
        self.ctl.de_br_cmp.next = self.de_br_cmp.val();
        self.ctl.de_br_sel.next = self.de_br_sel.val();
        self.ctl.de_br_pol.next = self.de_br_pol.val();
        self.ctl.de_br_f.next = self.de_br_f.val();
        self.ctl.de_br_g.next = self.de_br_g.val();
        self.ctl.de_br_op.next = self.de_br_op.val();
        self.ctl.err_clr.next = self.err_clr.val();
        self.br_taken.next = self.ctl.br_taken.val();
        self.cc_r.next = self.ctl.cc_r.val();
        self.cc_r_vld.next = self.ctl.cc_r_vld.val();
        self.cc_s.next = self.ctl.cc_s.val();
        self.cc_s_vld.next = self.ctl.cc_s_vld.val();
        for i in 0..self.cc_cnt.len() {
            self.cc_cnt[i].next = self.ctl.cc_cnt[i].val();
        }
        self.err_ovf.next = self.ctl.err_ovf.val();
        self.err_udf.next = self.ctl.err_udf.val();
        self.err_port.next = self.ctl.err_port.val();
        self.err_multi.next = self.ctl.err_multi.val();

        self.dfc.hold.next = self.pc_hold.val();
        self.dfc.t0.next = self.ctl.br_taken.val();
        self.dfc.de_pc.next = self.de_pc.val();
        self.dfc.de_off.next = self.de_off.val();
        self.dfc.t1.next = self.ex_branch_t1.val();
        self.dfc.t1pc.next = self.ex_t1pc.val();
        self.br_target.next = self.dfc.target.val();
        self.pc.next = self.dfc.pc.val();
        self.npc.next = self.dfc.npc.val();
        self.branch_t0_q.next = self.dfc.branch_t0_q.val();
        self.t0pc_q.next = self.dfc.t0pc_q.val();
    }
}

impl crate::BlockGen for BranchStackConfig {
    const NAME: &'static str = "branch_stack";

    fn wrapper(&self) -> Wrapper {
        wrapper(self)
    }

    fn header_params(&self) -> Vec<(String, String)> {
        vec![
            ("depth".into(), self.depth.to_string()),
            ("producer_stages".into(), self.producer_stages.to_string()),
            ("pc_width".into(), self.pc_width.to_string()),
            ("offset_width".into(), self.offset_width.to_string()),
            ("pc_increment".into(), self.pc_increment.to_string()),
            ("reset_pc".into(), format!("0x{:x}", self.reset_pc)),
            ("CNT_W (cc_cnt bits)".into(), self.cnt_bits().to_string()),
        ]
    }

    /// rust-hdl's Verilog of the core, with `pc_width` dispatched to `P`.
    fn core_verilog(&self) -> Result<String, String> {
        crate::with_width64!(self.pc_width, P => {
            let mut core = BranchStackCore::<P>::new(self);
            core.connect_all();
            rust_hdl::core::check_error::check_all(&core).map_err(|e| format!("{e:?}"))?;
            Ok(generate_verilog_unchecked(&core))
        })
    }
}

/// The exact ports of `warpgen_branch_stack` for `cfg`, bound to the core's ports.
fn wrapper(cfg: &BranchStackConfig) -> Wrapper {
    let nsrc = cfg.producer_stages as usize;
    let pcw = cfg.pc_width as usize;
    let bit = |name: &str, dir: Dir, doc: &str| Port::single(name, dir, 1, 1, doc);
    let word = |name: &str, dir: Dir, w: usize, doc: &str| Port::single(name, dir, w, w, doc);
    // Producer i's field at [i*w +: w] is core port `name_i`.
    let per_src = |name: &str, w: usize, doc: &str| {
        Port::packed(name, Dir::In, doc, (0..nsrc).map(|i| (format!("{name}_{i}"), w, w)).collect())
    };
    let cnt = Port::packed(
        "cc_cnt",
        Dir::Out,
        "number of valid entries (pointer 215)",
        (0..cfg.cnt_bits()).map(|i| (format!("cc_cnt_{i}"), 1, 1)).collect(),
    );
    Wrapper {
        block: "branch_stack".into(),
        groups: vec![
            PortGroup {
                title: "Clock and synchronous active-high reset".into(),
                ports: vec![
                    bit("clock", Dir::In, "rising edge"),
                    bit("reset", Dir::In, "empties the stack, pc = reset_pc, clears branch_t0_q, t0pc_q, err_*"),
                ],
            },
            PortGroup {
                title: "CC producers: stage i = EX<i>, a higher index is older (one pulse per instruction)".into(),
                ports: vec![
                    per_src("cc_vld", 1, "bit i: stage i holds a CC-producing instruction"),
                    per_src("cc_sop", 2, "stage i's stack op at [2i +: 2]: 00 DN, 01 PO, 10 PU, 11 PP"),
                    per_src("cc_val", 4, "stage i's CC value at [4i +: 4]: C N V Z"),
                ],
            },
            PortGroup {
                title: "Branch in DE (never while pc_hold)".into(),
                ports: vec![
                    bit("de_br_vld", Dir::In, "a branch is decoded this cycle"),
                    bit("de_br_cmp", Dir::In, "0: simple (pops 1), 1: compound CBfg.op (pops 2)"),
                    word("de_br_sel", Dir::In, 2, "simple: CC bit index (3 C, 2 N, 1 V, 0 Z)"),
                    bit("de_br_pol", Dir::In, "simple: taken when cc_r[sel] == pol"),
                    bit("de_br_f", Dir::In, "compound: bit of R (0 N, 1 Z)"),
                    bit("de_br_g", Dir::In, "compound: bit of S (0 N, 1 Z)"),
                    word("de_br_op", Dir::In, 2, "compound: 00 AND, 01 OR, 10 XOR, 11 XNOR"),
                    word("de_pc", Dir::In, pcw, "address of the branch instruction"),
                    Port::single("de_off", Dir::In, cfg.offset_width as usize, pcw, "signed offset (Claim 9 increment)"),
                    bit("br_taken", Dir::Out, "decision (de_br_vld & condition), combinational"),
                    word("br_target", Dir::Out, pcw, "de_pc + sext(de_off), combinational"),
                ],
            },
            PortGroup {
                title: "Stack observation (R, S of Table 2)".into(),
                ports: vec![
                    word("cc_r", Dir::Out, 4, "top entry, 0 when empty"),
                    bit("cc_r_vld", Dir::Out, "cc_cnt > 0"),
                    word("cc_s", Dir::Out, 4, "second entry, 0 when absent"),
                    bit("cc_s_vld", Dir::Out, "cc_cnt > 1"),
                    cnt,
                ],
            },
            PortGroup {
                title: "Execution-stage branch (BRANCH_T1 / T1PC)".into(),
                ports: vec![
                    bit("ex_branch_t1", Dir::In, "redirect to ex_t1pc (priority over T0)"),
                    word("ex_t1pc", Dir::In, pcw, "execution-stage target"),
                ],
            },
            PortGroup {
                title: "Data flow controller (Fig. 13)".into(),
                ports: vec![
                    bit("pc_hold", Dir::In, "stall: freeze pc, branch_t0_q, t0pc_q"),
                    word("pc", Dir::Out, pcw, "PC register 1304 (fetch address)"),
                    word("npc", Dir::Out, pcw, "pc + pc_increment (adder 1306)"),
                    bit("branch_t0_q", Dir::Out, "BRANCH_T0: last cycle's br_taken"),
                    word("t0pc_q", Dir::Out, pcw, "T0PC: last cycle's br_target"),
                ],
            },
            PortGroup {
                title: "Sticky errors".into(),
                ports: vec![
                    bit("err_clr", Dir::In, "clear the flags (a same-cycle set wins)"),
                    bit("err_ovf", Dir::Out, "a push found the stack full: bottom entry dropped"),
                    bit("err_udf", Dir::Out, "more pops than entries"),
                    bit("err_port", Dir::Out, "compound branch + producer pop: producer op suppressed"),
                    bit("err_multi", Dir::Out, "more than one producer active: the oldest won"),
                ],
            },
        ],
    }
}

#[cfg(test)]
mod tests {
    use crate::{generate, Config};

    fn emit(sets: &[&str]) -> crate::Emitted {
        let sets: Vec<String> = sets.iter().map(|s| format!("branch_stack.{s}")).collect();
        generate(&Config::embedded(&sets).unwrap(), "branch_stack").unwrap()
    }

    fn width(e: &crate::Emitted, port: &str) -> usize {
        e.ports.iter().find(|p| p.name == port).unwrap_or_else(|| panic!("{port}")).width()
    }

    #[test]
    fn ports_are_exact_for_the_config() {
        let e = emit(&[]);
        let got: Vec<(&str, usize)> = e.ports.iter().map(|p| (p.name.as_str(), p.width())).collect();
        let want = [
            ("clock", 1), ("reset", 1), ("cc_vld", 3), ("cc_sop", 6), ("cc_val", 12),
            ("de_br_vld", 1), ("de_br_cmp", 1), ("de_br_sel", 2), ("de_br_pol", 1), ("de_br_f", 1),
            ("de_br_g", 1), ("de_br_op", 2), ("de_pc", 32), ("de_off", 16), ("br_taken", 1),
            ("br_target", 32), ("cc_r", 4), ("cc_r_vld", 1), ("cc_s", 4), ("cc_s_vld", 1),
            ("cc_cnt", 3), ("ex_branch_t1", 1), ("ex_t1pc", 32), ("pc_hold", 1), ("pc", 32),
            ("npc", 32), ("branch_t0_q", 1), ("t0pc_q", 32), ("err_clr", 1), ("err_ovf", 1),
            ("err_udf", 1), ("err_port", 1), ("err_multi", 1),
        ];
        assert_eq!(got, want);
        assert!(e.verilog.contains(".de_off({16'b0, de_off})"), "offset zero-extended into the core");

        let e = emit(&["pc_width=4", "offset_width=2", "depth=2", "producer_stages=1"]);
        for (p, w) in [("de_pc", 4), ("de_off", 2), ("pc", 4), ("t0pc_q", 4), ("cc_cnt", 2), ("cc_vld", 1), ("cc_sop", 2), ("cc_val", 4)] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        let e = emit(&["pc_width=64", "offset_width=64", "depth=32"]);
        assert_eq!((width(&e, "pc"), width(&e, "de_off"), width(&e, "cc_cnt")), (64, 64, 6));
        assert!(e.verilog.contains(".de_off(de_off)"), "no extension at offset_width == pc_width");
    }

    #[test]
    fn registers_are_exact_and_modules_prefixed() {
        let e = emit(&["depth=5", "pc_width=20", "offset_width=7"]);
        // rust-hdl's DFFs by width: 4-bit entries, 1-bit cnt/flags, 20-bit PCs only.
        let mut dffs: Vec<&str> = e.verilog.lines().filter(|l| l.starts_with("module warpgen_branch_stack_dff_")).collect();
        dffs.sort();
        assert_eq!(dffs.len(), 3, "{dffs:?}");
        assert!(dffs.iter().any(|l| l.starts_with("module warpgen_branch_stack_dff_w20(")));
        assert_eq!(e.verilog.matches("warpgen_branch_stack_dff_w4 entry_q_").count(), 5);
        assert_eq!(e.verilog.matches("warpgen_branch_stack_dff_w1 cnt_q_").count(), 3);
        for line in e.verilog.lines().filter(|l| l.starts_with("module ")) {
            assert!(line.starts_with("module warpgen_branch_stack"), "{line}");
        }
        assert!(!e.verilog.contains('$'));
        assert_eq!(e.verilog, emit(&["depth=5", "pc_width=20", "offset_width=7"]).verilog, "deterministic");
    }
}
