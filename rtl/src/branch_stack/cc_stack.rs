//! The condition-code stack.

use super::*;

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
    /// R and S: the top two entries, 0 where the stack is shallower (with groups the
    /// entries as they are, which are 0 there).
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
    /// `thread_groups` > 1 only (none at one group): restore (rule G7). `ld` loads the
    /// occupancy `ld_cnt` (at most `depth`) and the entries `ld_e` (0 at and below
    /// `ld_cnt`) at the next edge, over this cycle's pops and push (whose `ovf_p` /
    /// `udf_p` still show); reset wins.
    pub ld: Vec<Signal<In, Bit>>,
    pub ld_cnt: Vec<Signal<In, Cnt>>,
    pub ld_e: Vec<Signal<In, Cc>>,
    /// `thread_groups` > 1 only: every entry, for the save read (rule G6). Entries at and
    /// below the occupancy are always 0, so this is the save value as it is.
    pub ent: Vec<Signal<Out, Cc>>,
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
    /// `thread_groups` > 1 only (one element each; none at one group): the next entries
    /// as a per-stack source code and enable, for entry 0 (`e0_*`) and for the others
    /// (`en_*`); each entry's neighbours one and two below (0 beyond the bottom).
    e0_hi: Vec<Signal<Local, Bit>>,
    e0_lo: Vec<Signal<Local, Bit>>,
    e0_en: Vec<Signal<Local, Bit>>,
    en_hi: Vec<Signal<Local, Bit>>,
    en_lo: Vec<Signal<Local, Bit>>,
    en_en: Vec<Signal<Local, Bit>>,
    up1: Vec<Signal<Local, Cc>>,
    up2: Vec<Signal<Local, Cc>>,
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
    /// `groups`: the block has `thread_groups` > 1 (the restore and save ports exist).
    pub(super) fn new(depth: usize, cnt_bits: usize, groups: bool) -> Self {
        let n1 = usize::from(groups);
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
            ld: signals(n1),
            ld_cnt: signals(n1),
            ld_e: signals(if groups { depth } else { 0 }),
            ent: signals(if groups { depth } else { 0 }),
            entry_q: (0..depth).map(|_| DFF::default()).collect(),
            cnt_q: (0..cnt_bits).map(|_| DFF::default()).collect(),
            occ: Signal::default(),
            full: Signal::default(),
            occ_inc: Signal::default(),
            occ_dec1: Signal::default(),
            occ_dec2: Signal::default(),
            occ_d: Signal::default(),
            popped: signals(depth),
            e0_hi: signals(n1),
            e0_lo: signals(n1),
            e0_en: signals(n1),
            en_hi: signals(n1),
            en_lo: signals(n1),
            en_en: signals(n1),
            up1: signals(if groups { depth } else { 0 }),
            up2: signals(if groups { depth } else { 0 }),
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

        // thread_groups > 1: R and S are the entries 0 and 1 as they are, without the gate
        // by the count: entries at and beyond the count are always 0 (pops refill with 0, a
        // restore loads 0 there; the save read relies on it too), so they are the same
        // values, and a branch decision on group de_tg's R and S does not wait for its count.
        for _k in 0..self.ld.len() {
            self.top0.next = self.entry_q[0].q.val();
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
        // thread_groups > 1 (rule G7): a restore loads the group's count and entries.
        for _i in 0..self.ld.len() {
            if self.ld[0].val() {
                self.occ_d.next = self.ld_cnt[0].val();
                for i in 0..self.ld_e.len() {
                    self.entry_q[i].d.next = self.ld_e[i].val();
                }
            }
        }
        // thread_groups > 1: the same next entries, written so that they cost less. With T
        // stacks these entries are most of the control; the form above, a chain of shifts
        // per bit, takes about five LUT4 per entry bit on the iCE40. Here the op is resolved
        // once per stack into a 2-bit source code and an enable, so that each entry bit is a
        // 4:1 mux (two LUT4) and a flip-flop enable (SB_DFFE holds). Entry 0 takes: a push
        // (00), else R after one pop (01: entry 1) or two (10: entry 2); the entries i >= 1
        // take: entry i-1 (00: a push without a pop), entry i+1 (01: one pop without a push,
        // or two with one), entry i+2 (10: two pops without a push); 11 is the restore. The
        // others hold (a pop with a push, or nothing). The pop counts compare as above (a
        // pop_n of 3, which the control never drives, pops nothing here either).
        for _k in 0..self.ld.len() {
            self.e0_hi[0].next = self.ld[0].val()
                | (!self.push_en.val() & (self.pop_n.val() == self.pop_two.val()));
            self.e0_lo[0].next = self.ld[0].val()
                | (!self.push_en.val() & (self.pop_n.val() == self.pop_one.val()));
            self.e0_en[0].next = self.ld[0].val()
                | self.push_en.val()
                | (self.pop_n.val() == self.pop_one.val())
                | (self.pop_n.val() == self.pop_two.val());
            self.en_hi[0].next = self.e0_hi[0].val();
            self.en_lo[0].next = self.ld[0].val()
                | (!self.push_en.val() & (self.pop_n.val() == self.pop_one.val()))
                | (self.push_en.val() & (self.pop_n.val() == self.pop_two.val()));
            self.en_en[0].next = self.ld[0].val()
                | (self.push_en.val() & (self.pop_n.val() != self.pop_one.val()))
                | (!self.push_en.val()
                    & ((self.pop_n.val() == self.pop_one.val()) | (self.pop_n.val() == self.pop_two.val())));
            for i in 0..self.up1.len() {
                self.up1[i].next = self.no_cc.val();
                self.up2[i].next = self.no_cc.val();
                self.entry_q[i].d.next = self.entry_q[i].q.val();
            }
            for i in 1..self.up1.len() {
                self.up1[i - 1].next = self.entry_q[i].q.val();
            }
            for i in 2..self.up2.len() {
                self.up2[i - 2].next = self.entry_q[i].q.val();
            }
            if self.e0_en[0].val() {
                if self.e0_hi[0].val() {
                    if self.e0_lo[0].val() {
                        self.entry_q[0].d.next = self.ld_e[0].val();
                    } else {
                        self.entry_q[0].d.next = self.up2[0].val();
                    }
                } else if self.e0_lo[0].val() {
                    self.entry_q[0].d.next = self.up1[0].val();
                } else {
                    self.entry_q[0].d.next = self.push_val.val();
                }
            }
            for i in 1..self.up1.len() {
                if self.en_en[0].val() {
                    if self.en_hi[0].val() {
                        if self.en_lo[0].val() {
                            self.entry_q[i].d.next = self.ld_e[i].val();
                        } else {
                            self.entry_q[i].d.next = self.up2[i].val();
                        }
                    } else if self.en_lo[0].val() {
                        self.entry_q[i].d.next = self.up1[i].val();
                    } else {
                        self.entry_q[i].d.next = self.entry_q[i - 1].q.val();
                    }
                }
            }
        }
        for i in 0..self.ent.len() {
            self.ent[i].next = self.entry_q[i].q.val();
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
