//! The data-flow control: the PC registers and their adders.

use super::*;

/// With at most this many thread groups each group has its own `pc + pc_increment` adder
/// (no group select before a carry chain: the fastest next PC); with more, one adder after
/// the fe_tg select serves all (`npc`), which saves a carry chain and a T:1 select per PC bit
/// (about 1.7 LUT4 per group and bit on the iCE40) at the cost of that select before the
/// carry chain. Measured on the iCE40 HX8K at 16 groups: the shared adder saved 842 LUT4
/// (3807 against 4649) but cut the median Fmax from 79.1 to 58.7 MHz (fe_tg → select →
/// carry chain → the group's mux became critical), so only 32 groups, where area decides
/// whether the block fits, share it.
pub const PER_GROUP_INC_MAX: usize = 16;

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
    /// `thread_groups` > 1 only (none at one group; rules G1, G5–G7): the fetched group
    /// (`pc` and `npc` are its), the redirect's and the branch's groups, the save read's
    /// group and PC, the restore (valid, group, PC), and the group of the T0 registers
    /// (bit b of `t0_tg_q`).
    pub fe_tg: Vec<Signal<In, Tg>>,
    pub ex_tg: Vec<Signal<In, Tg>>,
    pub de_tg: Vec<Signal<In, Tg>>,
    pub sv_tg: Vec<Signal<In, Tg>>,
    pub sv_pc: Vec<Signal<Out, Bits<P>>>,
    pub rs_valid: Vec<Signal<In, Bit>>,
    pub rs_tg: Vec<Signal<In, Tg>>,
    pub rs_pc: Vec<Signal<In, Bits<P>>>,
    pub t0_tg_q: Vec<Signal<Out, Bit>>,
    /// Powers up at `reset_pc` (rust-hdl's XOR-with-init register), so that the
    /// state before the first reset is the reset state, on FPGA and in simulation.
    pc_r: DFFWithInit<Bits<P>>,
    t0_r: DFF<Bit>,
    t0pc_r: DFF<Bits<P>>,
    /// thread_groups > 1 only: the PC registers of groups 1 … T-1 (`pc_r` is group 0's)
    /// and the TG_W bits of `t0_tg_q`; per group its PC, its next PC, the source of its
    /// next PC as a 2-bit code (`g_src_hi`, `g_src_lo`) and its load enable (`g_en`), and
    /// the data the code selects; with per-group adders (T <= [`PER_GROUP_INC_MAX`]) its
    /// PC + pc_increment. The T0 group as a number; the PC (and with per-group adders the
    /// NPC) of group fe_tg, the PC of group sv_tg; the group ids and the weights of the
    /// `t0_tg_q` bits.
    pc_g_q: Vec<DFFWithInit<Bits<P>>>,
    t0_tg_bit_q: Vec<DFF<Bit>>,
    g_pc: Vec<Signal<Local, Bits<P>>>,
    g_npc: Vec<Signal<Local, Bits<P>>>,
    g_nx: Vec<Signal<Local, Bits<P>>>,
    g_mux: Vec<Signal<Local, Bits<P>>>,
    g_pc_d: Vec<Signal<Local, Bits<P>>>,
    g_src_hi: Vec<Signal<Local, Bit>>,
    g_src_lo: Vec<Signal<Local, Bit>>,
    g_en: Vec<Signal<Local, Bit>>,
    t0_tg: Vec<Signal<Local, Tg>>,
    pc_sel: Vec<Signal<Local, Bits<P>>>,
    npc_sel: Vec<Signal<Local, Bits<P>>>,
    sv_sel: Vec<Signal<Local, Bits<P>>>,
    tg_id: Vec<Constant<Tg>>,
    tg_weight: Vec<Constant<Tg>>,
    off_ext: Signal<Local, Bits<P>>,
    /// The offset's sign bit, and the bits above it.
    off_sign: Constant<Bits<P>>,
    off_ext_bits: Constant<Bits<P>>,
    pc_inc: Constant<Bits<P>>,
    reset_pc: Constant<Bits<P>>,
    no_pc: Constant<Bits<P>>,
}

impl<const P: usize> DataFlowCtl<P> {
    pub(super) fn new(cfg: &BranchStackConfig) -> Self {
        let off_w = cfg.offset_width as usize;
        let pc_mask = u64::MAX >> (64 - P);
        let off_mask = u64::MAX >> (64 - off_w);
        let t = cfg.thread_groups as usize;
        let n1 = usize::from(t > 1);
        let ng = if t > 1 { t } else { 0 };
        let per_group_inc = t <= PER_GROUP_INC_MAX;
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
            fe_tg: signals(n1),
            ex_tg: signals(n1),
            de_tg: signals(n1),
            sv_tg: signals(n1),
            sv_pc: signals(n1),
            rs_valid: signals(n1),
            rs_tg: signals(n1),
            rs_pc: signals(n1),
            t0_tg_q: signals(cfg.tg_bits()),
            pc_r: DFFWithInit::new(Bits::<P>::from(cfg.reset_pc as u64)),
            t0_r: DFF::default(),
            t0pc_r: DFF::default(),
            pc_g_q: (1..t).map(|_| DFFWithInit::new(Bits::<P>::from(cfg.reset_pc as u64))).collect(),
            t0_tg_bit_q: (0..cfg.tg_bits()).map(|_| DFF::default()).collect(),
            g_pc: signals(ng),
            g_npc: signals(if per_group_inc { ng } else { 0 }),
            g_nx: signals(ng),
            g_mux: signals(ng),
            g_pc_d: signals(ng),
            g_src_hi: signals(ng),
            g_src_lo: signals(ng),
            g_en: signals(ng),
            t0_tg: signals(n1),
            pc_sel: signals(n1),
            npc_sel: signals(if per_group_inc { n1 } else { 0 }),
            sv_sel: signals(n1),
            tg_id: (0..ng).map(|g| constant(g as u64)).collect(),
            tg_weight: (0..cfg.tg_bits()).map(|b| constant(1 << b)).collect(),
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
        // thread_groups > 1 (rules G2, G5–G7): one PC per group; pc and npc are group
        // fe_tg's, sv_pc group sv_tg's: ORs of the PC registers (and, with per-group adders,
        // of their sums) gated by their id compare, which synthesis balances (an if-chain
        // would be T muxes deep).
        for _i in 0..self.pc_sel.len() {
            self.g_pc[0].next = self.pc_r.q.val();
            self.t0_tg[0].next = self.tg_id[0].val();
        }
        for g in 0..self.pc_g_q.len() {
            self.pc_g_q[g].clock.next = self.clock.val();
            self.g_pc[g + 1].next = self.pc_g_q[g].q.val();
        }
        for b in 0..self.t0_tg_bit_q.len() {
            self.t0_tg_bit_q[b].clock.next = self.clock.val();
            self.t0_tg_q[b].next = self.t0_tg_bit_q[b].q.val();
            if self.t0_tg_bit_q[b].q.val() {
                self.t0_tg[0].next = self.t0_tg[0].val() | self.tg_weight[b].val();
            }
        }
        for _i in 0..self.pc_sel.len() {
            self.pc_sel[0].next = self.no_pc.val();
            self.sv_sel[0].next = self.no_pc.val();
        }
        for _i in 0..self.npc_sel.len() {
            self.npc_sel[0].next = self.no_pc.val();
        }
        for g in 0..self.g_pc.len() {
            if self.fe_tg[0].val() == self.tg_id[g].val() {
                self.pc_sel[0].next = self.pc_sel[0].val() | self.g_pc[g].val();
            }
            if self.sv_tg[0].val() == self.tg_id[g].val() {
                self.sv_sel[0].next = self.sv_sel[0].val() | self.g_pc[g].val();
            }
        }
        // The fetch's next PC: with few groups each group's own adder (npc is the select
        // of the sums), with many the one adder after the select.
        for g in 0..self.g_pc.len() {
            self.g_nx[g].next = self.pc_sel[0].val() + self.pc_inc.val();
        }
        for g in 0..self.g_npc.len() {
            self.g_npc[g].next = self.g_pc[g].val() + self.pc_inc.val();
            self.g_nx[g].next = self.g_npc[g].val();
            if self.fe_tg[0].val() == self.tg_id[g].val() {
                self.npc_sel[0].next = self.npc_sel[0].val() | self.g_npc[g].val();
            }
        }
        for _i in 0..self.pc_sel.len() {
            self.pc.next = self.pc_sel[0].val();
            self.npc.next = self.pc_sel[0].val() + self.pc_inc.val();
            self.sv_pc[0].next = self.sv_sel[0].val();
        }
        for _i in 0..self.npc_sel.len() {
            self.npc.next = self.npc_sel[0].val();
        }
        // Rule G5: unless held, T1 of group ex_tg, else T0 of group t0_tg_q, else the
        // fetched group advances; the others hold. Rule G7: a restore wins, also over hold.
        // The priority is resolved once per group, not per bit: a 2-bit source code (00 T1,
        // 01 T0, 10 the next PC, 11 the restore) and a load enable. Per bit that leaves a
        // 4:1 data mux (two LUT4 on the iCE40) and a flip-flop enable (SB_DFFE holds), where
        // the priority chain written per bit took a LUT per level.
        for g in 0..self.g_pc_d.len() {
            self.g_src_hi[g].next = (self.rs_valid[0].val() & (self.rs_tg[0].val() == self.tg_id[g].val()))
                | !((self.t1.val() & (self.ex_tg[0].val() == self.tg_id[g].val()))
                    | (self.t0_r.q.val() & (self.t0_tg[0].val() == self.tg_id[g].val())));
            self.g_src_lo[g].next = (self.rs_valid[0].val() & (self.rs_tg[0].val() == self.tg_id[g].val()))
                | (!(self.t1.val() & (self.ex_tg[0].val() == self.tg_id[g].val()))
                    & (self.t0_r.q.val() & (self.t0_tg[0].val() == self.tg_id[g].val())));
            self.g_en[g].next = (self.rs_valid[0].val() & (self.rs_tg[0].val() == self.tg_id[g].val()))
                | (!self.hold.val()
                    & ((self.t1.val() & (self.ex_tg[0].val() == self.tg_id[g].val()))
                        | (self.t0_r.q.val() & (self.t0_tg[0].val() == self.tg_id[g].val()))
                        | (self.fe_tg[0].val() == self.tg_id[g].val())));
            if self.g_src_hi[g].val() {
                if self.g_src_lo[g].val() {
                    self.g_mux[g].next = self.rs_pc[0].val();
                } else {
                    self.g_mux[g].next = self.g_nx[g].val();
                }
            } else if self.g_src_lo[g].val() {
                self.g_mux[g].next = self.t0pc_r.q.val();
            } else {
                self.g_mux[g].next = self.t1pc.val();
            }
            self.g_pc_d[g].next = self.g_pc[g].val();
            if self.g_en[g].val() {
                self.g_pc_d[g].next = self.g_mux[g].val();
            }
        }
        for _i in 0..self.pc_sel.len() {
            self.pc_r.d.next = self.g_pc_d[0].val();
        }
        for g in 0..self.pc_g_q.len() {
            self.pc_g_q[g].d.next = self.g_pc_d[g + 1].val();
        }
        // t0_tg_q captures de_tg with branch_t0_q / t0pc_q.
        for b in 0..self.t0_tg_bit_q.len() {
            self.t0_tg_bit_q[b].d.next = self.t0_tg_bit_q[b].q.val();
            if !self.hold.val() {
                self.t0_tg_bit_q[b].d.next = (self.de_tg[0].val() & self.tg_weight[b].val()).any();
            }
        }
        if self.reset.val() {
            self.pc_r.d.next = self.reset_pc.val();
            self.t0_r.d.next = false;
            self.t0pc_r.d.next = self.no_pc.val();
            for g in 0..self.pc_g_q.len() {
                self.pc_g_q[g].d.next = self.reset_pc.val();
            }
            for b in 0..self.t0_tg_bit_q.len() {
                self.t0_tg_bit_q[b].d.next = false;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// The core: the ports of §5.4, wired to the control and the PC path.
// ---------------------------------------------------------------------------
