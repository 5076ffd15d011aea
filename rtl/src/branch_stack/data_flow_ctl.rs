//! The data-flow control: the PC registers and their adders.

use super::*;

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
    pub(super) fn new(cfg: &BranchStackConfig) -> Self {
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
