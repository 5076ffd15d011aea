//! The branch control: the PC update and its priority.

use super::*;
use crate::perf::{self, PerfBank};

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
    /// `compound_flags = "cnvz"` only: the high bits of the flag indices.
    pub de_br_f_hi: Vec<Signal<In, Bit>>,
    pub de_br_g_hi: Vec<Signal<In, Bit>>,
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
    /// `producer_conflict = "stall"` only (NSRC bits; none at "drop"): stage i's
    /// operation is applied this cycle (rule S1).
    pub cc_ready: Vec<Signal<Out, Bit>>,
    /// `perf_counters` only (one element each; none without): the counter bank's index,
    /// value and clear, and `pc_hold` for the `stall_pc` event (docs/perf.md, rule P1).
    pub perf_sel: Vec<Signal<In, Bits<{ perf::SEL_BITS }>>>,
    pub perf_val: Vec<Signal<Out, Bits<{ perf::VAL_BITS }>>>,
    pub perf_clr: Vec<Signal<In, Bit>>,
    pub perf_hold: Vec<Signal<In, Bit>>,
    /// `thread_groups` > 1 only (none at one group; rules G1–G7): stage i's group, the
    /// branch's group (also the group `cc_r` … `cc_cnt` show), the save read (group, count
    /// bits, entries) and the restore (valid, group, count, entries).
    pub cc_tg: Vec<Signal<In, Tg>>,
    pub de_tg: Vec<Signal<In, Tg>>,
    pub sv_tg: Vec<Signal<In, Tg>>,
    pub sv_cnt: Vec<Signal<Out, Bit>>,
    pub sv_stack: Vec<Signal<Out, Cc>>,
    pub rs_valid: Vec<Signal<In, Bit>>,
    pub rs_tg: Vec<Signal<In, Tg>>,
    pub rs_cnt: Vec<Signal<In, Cnt>>,
    pub rs_stack: Vec<Signal<In, Cc>>,
    perf: Vec<PerfBank>,
    /// Group 0's stack (the only one at one group), then groups 1 … T-1.
    stack: CcStack,
    stacks: Vec<CcStack>,
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
    /// "stall" only: the index of the winning stage (one element), and each stage's index.
    win: Vec<Signal<Local, Bits<2>>>,
    stage_id: Vec<Constant<Bits<2>>>,
    /// thread_groups > 1 only. Per group g: the branch's group is g, the restore names g;
    /// g's pop count and push.
    /// The producer's group is the branch's (one element). R, S, their valid bits and the
    /// count of group de_tg; the count and entries of group sv_tg (the save read); the
    /// restore's count min(rs_cnt, depth) and entries (0 at and below it). The group ids,
    /// `depth`, and each entry's index.
    g_de: Vec<Signal<Local, Bit>>,
    g_rs: Vec<Signal<Local, Bit>>,
    g_pop: Vec<Signal<Local, Bits<2>>>,
    g_pu: Vec<Signal<Local, Bit>>,
    /// Per group g: the winner is of group g and pops (`g_ppo`) / pushes (`g_ppu`), before
    /// the port limit; its pop after the port limit (`g_pe`).
    g_ppo: Vec<Signal<Local, Bit>>,
    g_ppu: Vec<Signal<Local, Bit>>,
    g_pe: Vec<Signal<Local, Bit>>,
    same: Vec<Signal<Local, Bit>>,
    rd_r: Vec<Signal<Local, Cc>>,
    rd_s: Vec<Signal<Local, Cc>>,
    rd_rv: Vec<Signal<Local, Bit>>,
    rd_sv: Vec<Signal<Local, Bit>>,
    rd_cnt: Vec<Signal<Local, Bit>>,
    sv_c: Vec<Signal<Local, Bit>>,
    sv_e: Vec<Signal<Local, Cc>>,
    rs_c: Vec<Signal<Local, Cnt>>,
    rs_e: Vec<Signal<Local, Cc>>,
    tg_id: Vec<Constant<Tg>>,
    depth_c: Vec<Constant<Cnt>>,
    entry_id: Vec<Constant<Cnt>>,
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
    pub(super) fn new(cfg: &BranchStackConfig) -> Self {
        let nsrc = cfg.producer_stages as usize;
        let cnt_bits = cfg.cnt_bits();
        let cnvz = usize::from(cfg.cnvz());
        let stall = cfg.stall();
        // 1 with perf_counters (one counter bank and its ports), 0 without.
        let pc = usize::from(cfg.perf_counters);
        // thread_groups: T groups; n1 is 1 with groups (one element each), 0 without.
        let t = cfg.thread_groups as usize;
        let groups = t > 1;
        let n1 = usize::from(groups);
        let ng = if groups { t } else { 0 };
        let depth = cfg.depth as usize;
        let nd = if groups { depth } else { 0 };
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
            de_br_f_hi: signals(cnvz),
            de_br_g_hi: signals(cnvz),
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
            cc_ready: signals(if stall { nsrc } else { 0 }),
            perf_sel: signals(pc),
            perf_val: signals(pc),
            perf_clr: signals(pc),
            perf_hold: signals(pc),
            cc_tg: signals(if groups { nsrc } else { 0 }),
            de_tg: signals(n1),
            sv_tg: signals(n1),
            sv_cnt: signals(if groups { cnt_bits } else { 0 }),
            sv_stack: signals(nd),
            rs_valid: signals(n1),
            rs_tg: signals(n1),
            rs_cnt: signals(n1),
            rs_stack: signals(nd),
            perf: (0..pc).map(|_| PerfBank::new(cfg.perf_count())).collect(),
            stack: CcStack::new(depth, cnt_bits, groups),
            stacks: (1..t).map(|_| CcStack::new(depth, cnt_bits, groups)).collect(),
            eval: BranchEval::new(cfg.cnvz()),
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
            win: signals(usize::from(stall)),
            stage_id: (0..if stall { nsrc } else { 0 }).map(|i| constant(i as u64)).collect(),
            g_de: signals(ng),
            g_rs: signals(ng),
            g_pop: signals(ng),
            g_pu: signals(ng),
            g_ppo: signals(ng),
            g_ppu: signals(ng),
            g_pe: signals(ng),
            same: signals(n1),
            rd_r: signals(n1),
            rd_s: signals(n1),
            rd_rv: signals(n1),
            rd_sv: signals(n1),
            rd_cnt: signals(if groups { cnt_bits } else { 0 }),
            sv_c: signals(if groups { cnt_bits } else { 0 }),
            sv_e: signals(nd),
            rs_c: signals(n1),
            rs_e: signals(nd),
            tg_id: (0..ng).map(|g| constant(g as u64)).collect(),
            depth_c: (0..n1).map(|_| constant(depth as u64)).collect(),
            entry_id: (0..nd).map(|i| constant(i as u64)).collect(),
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
        // thread_groups > 1 (rule G2): the state of group de_tg. Each select is an OR of
        // the groups' registers gated by their id compare, which synthesis balances (an
        // if-chain would be a priority chain, T muxes deep). The selects compare the id
        // ports themselves, not g_de below: Verilator splits this block into parts that
        // share no variable, and the reads of the stacks must not share one with the
        // stacks' controls, or the two form a loop at block level (UNOPTFLAT). With groups
        // a stack's `top0` / `top1` are its entries 0 and 1 as they are (see CcStack), so the
        // branch decision does not wait for the counts.
        for _i in 0..self.rd_r.len() {
            self.rd_r[0].next = self.no_cc.val();
            self.rd_s[0].next = self.no_cc.val();
            self.rd_rv[0].next = false;
            self.rd_sv[0].next = false;
            if self.de_tg[0].val() == self.tg_id[0].val() {
                self.rd_r[0].next = self.stack.top0.val();
                self.rd_s[0].next = self.stack.top1.val();
                self.rd_rv[0].next = self.stack.top0_vld.val();
                self.rd_sv[0].next = self.stack.top1_vld.val();
            }
        }
        for i in 0..self.rd_cnt.len() {
            self.rd_cnt[i].next = false;
            if self.de_tg[0].val() == self.tg_id[0].val() {
                self.rd_cnt[i].next = self.stack.cnt[i].val();
            }
        }
        for g in 0..self.stacks.len() {
            if self.de_tg[0].val() == self.tg_id[g + 1].val() {
                self.rd_r[0].next = self.rd_r[0].val() | self.stacks[g].top0.val();
                self.rd_s[0].next = self.rd_s[0].val() | self.stacks[g].top1.val();
                self.rd_rv[0].next = self.rd_rv[0].val() | self.stacks[g].top0_vld.val();
                self.rd_sv[0].next = self.rd_sv[0].val() | self.stacks[g].top1_vld.val();
                for i in 0..self.rd_cnt.len() {
                    self.rd_cnt[i].next = self.rd_cnt[i].val() | self.stacks[g].cnt[i].val();
                }
            }
        }
        for _i in 0..self.rd_r.len() {
            self.cc_r.next = self.rd_r[0].val();
            self.cc_s.next = self.rd_s[0].val();
            self.cc_r_vld.next = self.rd_rv[0].val();
            self.cc_s_vld.next = self.rd_sv[0].val();
        }
        for i in 0..self.rd_cnt.len() {
            self.cc_cnt[i].next = self.rd_cnt[i].val();
        }
        // Rule G6: the save read of group sv_tg (entries at and below its count are 0), the
        // same kind of select.
        for i in 0..self.sv_c.len() {
            self.sv_c[i].next = false;
            if self.sv_tg[0].val() == self.tg_id[0].val() {
                self.sv_c[i].next = self.stack.cnt[i].val();
            }
        }
        for i in 0..self.sv_e.len() {
            self.sv_e[i].next = self.no_cc.val();
            if self.sv_tg[0].val() == self.tg_id[0].val() {
                self.sv_e[i].next = self.stack.ent[i].val();
            }
        }
        for g in 0..self.stacks.len() {
            if self.sv_tg[0].val() == self.tg_id[g + 1].val() {
                for i in 0..self.sv_c.len() {
                    self.sv_c[i].next = self.sv_c[i].val() | self.stacks[g].cnt[i].val();
                }
                for i in 0..self.sv_e.len() {
                    self.sv_e[i].next = self.sv_e[i].val() | self.stacks[g].ent[i].val();
                }
            }
        }
        for i in 0..self.sv_c.len() {
            self.sv_cnt[i].next = self.sv_c[i].val();
        }
        for i in 0..self.sv_e.len() {
            self.sv_stack[i].next = self.sv_e[i].val();
        }

        // Branch decision (§5.5.2) on the pre-cycle R and S.
        self.eval.vld.next = self.de_br_vld.val();
        self.eval.cmp.next = self.de_br_cmp.val();
        self.eval.sel.next = self.de_br_sel.val();
        self.eval.pol.next = self.de_br_pol.val();
        self.eval.f.next = self.de_br_f.val();
        self.eval.g.next = self.de_br_g.val();
        self.eval.op.next = self.de_br_op.val();
        for i in 0..self.de_br_f_hi.len() {
            self.eval.f_hi[i].next = self.de_br_f_hi[i].val();
            self.eval.g_hi[i].next = self.de_br_g_hi[i].val();
        }
        self.eval.r.next = self.stack.top0.val();
        self.eval.s.next = self.stack.top1.val();
        for _i in 0..self.rd_r.len() {
            self.eval.r.next = self.rd_r[0].val();
            self.eval.s.next = self.rd_s[0].val();
        }
        self.br_taken.next = self.eval.taken.val();

        // Producer arbitration (§5.5.3): the highest active index wins.
        self.any_act.next = false;
        self.multi.next = false;
        self.sop.next = self.sop_dn.val();
        self.val.next = self.no_cc.val();
        // thread_groups > 1 (rule G3): the branch's and the restore's group decoded, the
        // winner's op decoded per group, and whether its group is the branch's.
        for g in 0..self.g_de.len() {
            self.g_de[g].next = self.de_tg[0].val() == self.tg_id[g].val();
            self.g_rs[g].next = self.rs_valid[0].val() & (self.rs_tg[0].val() == self.tg_id[g].val());
            self.g_ppo[g].next = false;
            self.g_ppu[g].next = false;
        }
        for _i in 0..self.same.len() {
            self.same[0].next = false;
        }
        for i in 0..self.cc_vld.len() {
            if self.cc_vld[i].val() & (self.cc_sop[i].val() != self.sop_dn.val()) {
                if self.any_act.val() {
                    self.multi.next = true;
                }
                self.any_act.next = true;
                self.sop.next = self.cc_sop[i].val();
                self.val.next = self.cc_val[i].val();
                for g in 0..self.g_de.len() {
                    self.g_ppo[g].next = (self.cc_tg[i].val() == self.tg_id[g].val())
                        & ((self.cc_sop[i].val() == self.sop_po.val()) | (self.cc_sop[i].val() == self.sop_pp.val()));
                    self.g_ppu[g].next = (self.cc_tg[i].val() == self.tg_id[g].val())
                        & ((self.cc_sop[i].val() == self.sop_pu.val()) | (self.cc_sop[i].val() == self.sop_pp.val()));
                }
                for _j in 0..self.same.len() {
                    self.same[0].next = self.cc_tg[i].val() == self.de_tg[0].val();
                }
            }
        }
        self.pe.next = (self.sop.val() == self.sop_po.val()) | (self.sop.val() == self.sop_pp.val());
        self.pu.next = (self.sop.val() == self.sop_pu.val()) | (self.sop.val() == self.sop_pp.val());

        // Port limit (§5.5.4): a compound branch's two pops leave no room for a
        // producer pop; the producer operation (pop and push) is suppressed.
        self.port_hit.next = self.de_br_vld.val() & self.de_br_cmp.val() & self.pe.val();
        // thread_groups > 1 (rule G3): only a pop of the branch's own group is limited.
        for _i in 0..self.same.len() {
            self.port_hit.next = self.port_hit.val() & self.same[0].val();
        }
        if self.port_hit.val() {
            self.pe.next = false;
            self.pu.next = false;
        }

        // producer_conflict = "stall" (rule S1): the same choice, but the losers and a
        // producer stopped by the port limit are held (cc_ready 0) instead of dropped;
        // idle and DN stages are ready.
        for i in 0..self.win.len() {
            self.win[i].next = self.stage_id[0].val();
        }
        for i in 0..self.cc_ready.len() {
            if self.cc_vld[i].val() & (self.cc_sop[i].val() != self.sop_dn.val()) {
                self.win[0].next = self.stage_id[i].val();
            }
        }
        for i in 0..self.cc_ready.len() {
            self.cc_ready[i].next = !(self.cc_vld[i].val() & (self.cc_sop[i].val() != self.sop_dn.val()))
                | ((self.win[0].val() == self.stage_id[i].val()) & !self.port_hit.val());
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
        // thread_groups > 1 (rule G4): the branch's pops act on group de_tg, the producer's
        // op on its own group (after the branch's pops when that is de_tg); rule G7: a
        // restore loads min(rs_cnt, depth) entries of rs_stack, the rest 0.
        // Each group's op is computed from that group's own signals: the winner's op on
        // group g (g_ppo, g_ppu, decoded per stage with its group) and the branch on g
        // (g_de). The port limit strikes g exactly when the branch is a compound one of
        // group g and the producer pops g (the global port_hit of a winner of group g), so the
        // path to a stack's count does not run through the global sop, pe and same.
        for g in 0..self.g_pop.len() {
            self.g_pe[g].next = self.g_ppo[g].val() & !(self.de_br_vld.val() & self.de_br_cmp.val() & self.g_de[g].val());
            self.g_pop[g].next = self.pop_none.val();
            if (self.de_br_vld.val() & self.g_de[g].val()) | self.g_pe[g].val() {
                self.g_pop[g].next = self.pop_one.val();
            }
            if (self.de_br_vld.val() & self.g_de[g].val() & self.de_br_cmp.val())
                | (self.de_br_vld.val() & self.g_de[g].val() & self.g_pe[g].val())
            {
                self.g_pop[g].next = self.pop_two.val();
            }
            self.g_pu[g].next = self.g_ppu[g].val()
                & !(self.de_br_vld.val() & self.de_br_cmp.val() & self.g_de[g].val() & self.g_ppo[g].val());
        }
        for _i in 0..self.rs_c.len() {
            self.rs_c[0].next = self.rs_cnt[0].val();
            if self.rs_cnt[0].val() > self.depth_c[0].val() {
                self.rs_c[0].next = self.depth_c[0].val();
            }
        }
        for i in 0..self.rs_e.len() {
            self.rs_e[i].next = self.no_cc.val();
            if self.entry_id[i].val() < self.rs_c[0].val() {
                self.rs_e[i].next = self.rs_stack[i].val();
            }
        }
        for _i in 0..self.rs_c.len() {
            self.stack.pop_n.next = self.g_pop[0].val();
            self.stack.push_en.next = self.g_pu[0].val();
            self.stack.ld[0].next = self.g_rs[0].val();
            self.stack.ld_cnt[0].next = self.rs_c[0].val();
            for i in 0..self.rs_e.len() {
                self.stack.ld_e[i].next = self.rs_e[i].val();
            }
        }
        for g in 0..self.stacks.len() {
            self.stacks[g].clock.next = self.clock.val();
            self.stacks[g].reset.next = self.reset.val();
            self.stacks[g].pop_n.next = self.g_pop[g + 1].val();
            self.stacks[g].push_en.next = self.g_pu[g + 1].val();
            self.stacks[g].push_val.next = self.val.val();
            self.stacks[g].ld[0].next = self.g_rs[g + 1].val();
            self.stacks[g].ld_cnt[0].next = self.rs_c[0].val();
            for i in 0..self.rs_e.len() {
                self.stacks[g].ld_e[i].next = self.rs_e[i].val();
            }
        }

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
        // thread_groups > 1 (rule G4): any group's stack sets them.
        for g in 0..self.stacks.len() {
            if self.stacks[g].ovf_p.val() {
                self.ovf_q.d.next = true;
            }
            if self.stacks[g].udf_p.val() {
                self.udf_q.d.next = true;
            }
        }
        if self.port_hit.val() {
            self.port_q.d.next = true;
        }
        if self.multi.val() {
            self.multi_q.d.next = true;
        }
        // "stall": nothing is lost, so err_port and err_multi are never set (rule S1).
        for _i in 0..self.win.len() {
            self.port_q.d.next = false;
            self.multi_q.d.next = false;
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

        // ---- Rule P1 (perf_counters only): this cycle's events, in perf_sel order
        // (docs/perf.md), from the signals the rules above use at this edge. Reset clears
        // like perf_clr.
        for i in 0..self.perf.len() {
            self.perf[i].clock.next = self.clock.val();
            self.perf[i].clear.next = self.reset.val() | self.perf_clr[i].val();
            self.perf[i].sel.next = self.perf_sel[i].val();
            self.perf_val[i].next = self.perf[i].val.val();
            // 0 push, 1 pop: the producer's op as applied (after the port limit).
            self.perf[i].ev[0].next = self.pu.val();
            self.perf[i].ev[1].next = self.pe.val();
            // 2 branch, 3 taken.
            self.perf[i].ev[2].next = self.de_br_vld.val();
            self.perf[i].ev[3].next = self.eval.taken.val();
            // 4 stall_cc: some cc_ready is 0, i.e. an older producer won or the port limit
            // stopped the winner ("stall" only, set below); 5 stall_pc.
            self.perf[i].ev[4].next = false;
            self.perf[i].ev[5].next = self.perf_hold[i].val();
            // 6..9: what sets err_ovf, err_udf, err_port, err_multi at this edge.
            self.perf[i].ev[6].next = self.stack.ovf_p.val();
            self.perf[i].ev[7].next = self.stack.udf_p.val();
            self.perf[i].ev[8].next = self.port_hit.val();
            self.perf[i].ev[9].next = self.multi.val();
            // thread_groups > 1: any group's overflow or underflow.
            for g in 0..self.stacks.len() {
                if self.stacks[g].ovf_p.val() {
                    self.perf[i].ev[6].next = true;
                }
                if self.stacks[g].udf_p.val() {
                    self.perf[i].ev[7].next = true;
                }
            }
            // "stall": nothing is dropped, the same conditions hold a producer instead.
            for _j in 0..self.win.len() {
                self.perf[i].ev[4].next = self.multi.val() | self.port_hit.val();
                self.perf[i].ev[8].next = false;
                self.perf[i].ev[9].next = false;
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Data flow controller (spec `bcs_dfc`, Fig. 13), with the branch target.
// ---------------------------------------------------------------------------
