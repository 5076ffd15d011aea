//! The branch-stack core: the designs wired together.

use super::*;

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
    /// `compound_flags = "cnvz"` only: bit 1 of `de_br_f` / `de_br_g`.
    pub de_br_f_hi: Vec<Signal<In, Bit>>,
    pub de_br_g_hi: Vec<Signal<In, Bit>>,
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
    /// `producer_conflict = "stall"` only: per producer stage, its op is applied.
    pub cc_ready: Vec<Signal<Out, Bit>>,
    /// `perf_counters` only (one element each; none without): docs/perf.md.
    pub perf_sel: Vec<Signal<In, Bits<{ crate::perf::SEL_BITS }>>>,
    pub perf_val: Vec<Signal<Out, Bits<{ crate::perf::VAL_BITS }>>>,
    pub perf_clr: Vec<Signal<In, Bit>>,
    /// `thread_groups` > 1 only (none at one group; rules G1–G7 of
    /// docs/blocks/branch_stack.md): the group ids (zero-extended to [`TG_CORE_BITS`]),
    /// the T0 group, the save read and the restore.
    pub cc_tg: Vec<Signal<In, Tg>>,
    pub de_tg: Vec<Signal<In, Tg>>,
    pub ex_tg: Vec<Signal<In, Tg>>,
    pub fe_tg: Vec<Signal<In, Tg>>,
    pub t0_tg_q: Vec<Signal<Out, Bit>>,
    pub sv_tg: Vec<Signal<In, Tg>>,
    pub sv_cnt: Vec<Signal<Out, Bit>>,
    pub sv_stack: Vec<Signal<Out, Cc>>,
    pub sv_pc: Vec<Signal<Out, Bits<P>>>,
    pub rs_valid: Vec<Signal<In, Bit>>,
    pub rs_tg: Vec<Signal<In, Tg>>,
    /// Zero-extended from CNT_W bits by the top module.
    pub rs_cnt: Vec<Signal<In, Cnt>>,
    pub rs_stack: Vec<Signal<In, Cc>>,
    pub rs_pc: Vec<Signal<In, Bits<P>>>,
    ctl: BranchCtl,
    dfc: DataFlowCtl<P>,
}

impl<const P: usize> BranchStackCore<P> {
    /// The core for a validated config whose `pc_width` is `P`.
    pub fn new(cfg: &BranchStackConfig) -> Self {
        assert_eq!(cfg.pc_width as usize, P, "dispatch with with_width64!");
        let nsrc = cfg.producer_stages as usize;
        // thread_groups > 1: one element per port (n1), the packed ones per stage or entry.
        let groups = cfg.thread_groups > 1;
        let n1 = usize::from(groups);
        let nd = if groups { cfg.depth as usize } else { 0 };
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
            de_br_f_hi: signals(usize::from(cfg.cnvz())),
            de_br_g_hi: signals(usize::from(cfg.cnvz())),
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
            cc_ready: signals(if cfg.stall() { nsrc } else { 0 }),
            perf_sel: signals(usize::from(cfg.perf_counters)),
            perf_val: signals(usize::from(cfg.perf_counters)),
            perf_clr: signals(usize::from(cfg.perf_counters)),
            cc_tg: signals(if groups { nsrc } else { 0 }),
            de_tg: signals(n1),
            ex_tg: signals(n1),
            fe_tg: signals(n1),
            t0_tg_q: signals(cfg.tg_bits()),
            sv_tg: signals(n1),
            sv_cnt: signals(if groups { cfg.cnt_bits() } else { 0 }),
            sv_stack: signals(nd),
            sv_pc: signals(n1),
            rs_valid: signals(n1),
            rs_tg: signals(n1),
            rs_cnt: signals(n1),
            rs_stack: signals(nd),
            rs_pc: signals(n1),
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
        for i in 0..self.de_br_f_hi.len() {
            self.ctl.de_br_f_hi[i].next = self.de_br_f_hi[i].val();
            self.ctl.de_br_g_hi[i].next = self.de_br_g_hi[i].val();
        }
        for i in 0..self.cc_ready.len() {
            self.cc_ready[i].next = self.ctl.cc_ready[i].val();
        }
        self.ctl.err_clr.next = self.err_clr.val();
        for i in 0..self.perf_sel.len() {
            self.ctl.perf_sel[i].next = self.perf_sel[i].val();
            self.ctl.perf_clr[i].next = self.perf_clr[i].val();
            self.ctl.perf_hold[i].next = self.pc_hold.val();
            self.perf_val[i].next = self.ctl.perf_val[i].val();
        }
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

        // thread_groups > 1 (rules G1–G7): the stacks' groups in the control, the PCs' in
        // the data flow controller.
        for i in 0..self.cc_tg.len() {
            self.ctl.cc_tg[i].next = self.cc_tg[i].val();
        }
        for _i in 0..self.de_tg.len() {
            self.ctl.de_tg[0].next = self.de_tg[0].val();
            self.ctl.sv_tg[0].next = self.sv_tg[0].val();
            self.ctl.rs_valid[0].next = self.rs_valid[0].val();
            self.ctl.rs_tg[0].next = self.rs_tg[0].val();
            self.ctl.rs_cnt[0].next = self.rs_cnt[0].val();
            self.dfc.fe_tg[0].next = self.fe_tg[0].val();
            self.dfc.ex_tg[0].next = self.ex_tg[0].val();
            self.dfc.de_tg[0].next = self.de_tg[0].val();
            self.dfc.sv_tg[0].next = self.sv_tg[0].val();
            self.dfc.rs_valid[0].next = self.rs_valid[0].val();
            self.dfc.rs_tg[0].next = self.rs_tg[0].val();
            self.dfc.rs_pc[0].next = self.rs_pc[0].val();
            self.sv_pc[0].next = self.dfc.sv_pc[0].val();
        }
        for i in 0..self.rs_stack.len() {
            self.ctl.rs_stack[i].next = self.rs_stack[i].val();
            self.sv_stack[i].next = self.ctl.sv_stack[i].val();
        }
        for i in 0..self.sv_cnt.len() {
            self.sv_cnt[i].next = self.ctl.sv_cnt[i].val();
        }
        for b in 0..self.t0_tg_q.len() {
            self.t0_tg_q[b].next = self.dfc.t0_tg_q[b].val();
        }
    }
}
