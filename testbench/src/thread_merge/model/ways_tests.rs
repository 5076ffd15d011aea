//! Directed tests of contract R20 (`merge_ways` = 3, 4) on the model, every expected value
//! written by hand from the contract (lanes 4, so lane i of a mask is bit i and a remap p
//! moves lane i to i ^ p), and the R20 model mutants, each rejected by a named case.
//!
//! Cycle convention (R1): inputs of cycle n act at edge n and are seen @n+1; cycle 0 is a
//! reset cycle, so `Tb::new` leaves the bench in cycle 1.

use super::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

type Mk<'a> = &'a dyn Fn(&ThreadMergeParams) -> ThreadMergeModel;

fn params(ways: usize) -> ThreadMergeParams {
    ThreadMergeParams {
        merge_ways: ways,
        ..ThreadMergeParams::contract_default()
    }
}

/// A model, the cycle it is in and its idle inputs.
struct Tb {
    m: ThreadMergeModel,
    p: ThreadMergeParams,
    cyc: u32,
}

impl Tb {
    fn new(mk: Mk, p: ThreadMergeParams) -> Self {
        let mut m = mk(&p);
        m.clock(&ThreadMergeInputs::idle(&p).with_reset());
        Tb { m, p, cyc: 1 }
    }

    fn idle(&self) -> ThreadMergeInputs {
        ThreadMergeInputs::idle(&self.p)
    }

    /// Run the edge of the current cycle with inputs `i`.
    fn edge(&mut self, i: ThreadMergeInputs) {
        self.m.clock(&i);
        self.cyc += 1;
    }

    /// Idle edges until the bench is in cycle `n`.
    fn to(&mut self, n: u32) {
        while self.cyc < n {
            self.edge(self.idle());
        }
    }

    fn frag(&mut self, cov: u64, tag: u64, last: bool) {
        let i = self.idle().frag(cov, 1, tag, last);
        self.edge(i);
    }

    fn me(&mut self, t: u64) {
        let i = self.idle().me(t);
        self.edge(i);
    }

    fn term(&mut self, t: u64) {
        let i = self.idle().term(t);
        self.edge(i);
    }

    /// The outputs of the current cycle with `rf_tgid = wb_tgid = t`.
    fn look(&self, t: u64) -> ThreadMergeOutputs {
        self.m.outputs(&ThreadMergeInputs {
            rf_tgid: t,
            wb_tgid: t,
            ..self.idle()
        })
    }

    fn o(&self) -> ThreadMergeOutputs {
        self.look(0)
    }
}

/// `eq!(tb, name, actual, expected)`: a mismatch names the cycle and the signal.
macro_rules! eq {
    ($tb:expr, $what:expr, $got:expr, $want:expr) => {{
        let (got, want) = ($got, $want);
        if got != want {
            return Err(format!("@{}: {} expected {:?}, actual {:?}", $tb.cyc, $what, want, got));
        }
    }};
}

/// The descriptor of the current cycle: valid, paired, then per member (tgid, cov, perm,
/// tag) of A (perm 0), B, C, D, `None` for a member the set does not have (compared only
/// when valid, R20).
type M = Option<(u64, u64, u8, u64)>;
fn grp(tb: &Tb, paired: bool, mem: [M; 4]) -> Result<(), String> {
    let o = tb.o();
    eq!(tb, "grp_valid", o.grp_valid, true);
    eq!(tb, "grp_paired", o.grp_paired, paired);
    let a = mem[0].unwrap();
    eq!(tb, "grp_a", (o.grp_a_tgid, o.grp_a_cov, 0, o.grp_a_tag), a);
    if let Some(b) = mem[1] {
        eq!(tb, "grp_b", (o.grp_b_tgid, o.grp_b_cov, o.grp_b_perm, o.grp_b_tag), b);
    }
    eq!(tb, "grp_c_valid", o.grp_c_valid, mem[2].is_some());
    if let Some(c) = mem[2] {
        eq!(tb, "grp_c", (o.grp_c_tgid, o.grp_c_cov, o.grp_c_perm, o.grp_c_tag), c);
    }
    eq!(tb, "grp_d_valid", o.grp_d_valid, mem[3].is_some());
    if let Some(d) = mem[3] {
        eq!(tb, "grp_d", (o.grp_d_tgid, o.grp_d_cov, o.grp_d_perm, o.grp_d_tag), d);
    }
    Ok(())
}

/// The response of the current cycle {tgid, merged, active, retire, retire_mask}.
fn rsp(tb: &Tb, tgid: u64, merged: bool, active: u64, retire_mask: u64) -> Result<(), String> {
    let o = tb.o();
    eq!(tb, "rsp_valid", o.rsp_valid, true);
    eq!(
        tb,
        "rsp {tgid, merged, active, retire}",
        (o.rsp_tgid, o.rsp_merged, o.rsp_active, o.rsp_retire),
        (tgid, merged, active, merged)
    );
    eq!(tb, "rsp_retire_tgid", o.rsp_retire_tgid, tgid + 1);
    eq!(tb, "rsp_retire_mask", o.rsp_retire_mask, retire_mask);
    Ok(())
}

fn states(tb: &Tb, from: usize, want: &[u8]) -> Result<(), String> {
    let o = tb.o();
    eq!(tb, format!("st_state[{from}..]"), o.st_state[from..from + want.len()].to_vec(), want.to_vec());
    Ok(())
}

/// W = 3, three one-lane fragments of one primitive: one set of three (no remap), tgids
/// 0, 1, 2; me on 1 and 2 wait, me on 0 merges them into A (0111, retire mask 0b11), and
/// A's write-back lookup names each lane's member, tag and (identity) lane.
fn w3_set_of_three(mk: Mk) -> Result<(), String> {
    let mut tb = Tb::new(mk, params(3));
    tb.frag(0b0001, 0xA0, false);
    eq!(tb, "pend_valid", tb.o().pend_valid, true);
    tb.frag(0b0010, 0xA1, false); // joins (U = 0001, p 0), held: 2 of 3, 0011 not full
    eq!(tb, "grp_valid", tb.o().grp_valid, false);
    eq!(tb, "pend_valid", tb.o().pend_valid, true);
    eq!(tb, "frag_ready", tb.o().frag_ready, true);
    tb.frag(0b0100, 0xA2, false); // joins, n+1 = W: the set leaves
    grp(
        &tb,
        true,
        [Some((0, 0b0001, 0, 0xA0)), Some((1, 0b0010, 0, 0xA1)), Some((2, 0b0100, 0, 0xA2)), None],
    )?;
    eq!(tb, "pend_valid", tb.o().pend_valid, false);
    eq!(tb, "free_cnt", tb.o().free_cnt, 3);
    states(&tb, 0, &[PRE, PRE, PRE, FREE, FREE])?;
    eq!(tb, "st_active[0..3]", tb.o().st_active[0..3].to_vec(), vec![0b0001, 0b0010, 0b0100]);
    eq!(tb, "st_slot[0]", tb.o().st_slot[0], 0b001);
    eq!(tb, "rf_exec_mask(2) (PRE)", tb.look(2).rf_exec_mask, 0b1111);
    eq!(tb, "rf_common_wmask(2)", tb.look(2).rf_common_wmask, 0b0100);
    eq!(tb, "wb_tag_self(2)", tb.look(2).wb_tag_self, 0xA2);
    tb.me(1);
    states(&tb, 0, &[PRE, WAIT, PRE])?;
    eq!(tb, "rsp_valid", tb.o().rsp_valid, false);
    tb.me(2);
    states(&tb, 0, &[PRE, WAIT, WAIT])?;
    eq!(tb, "rsp_valid", tb.o().rsp_valid, false);
    tb.me(0);
    rsp(&tb, 0, true, 0b0111, 0b11)?;
    states(&tb, 0, &[POST, FREE, FREE, FREE])?;
    eq!(tb, "merge_count", tb.o().merge_count, 1);
    eq!(tb, "st_slot[0]", tb.o().st_slot[0], 0b101);
    eq!(tb, "free_cnt", tb.o().free_cnt, 3);
    let w = tb.look(0);
    eq!(tb, "wb_active", w.wb_active, 0b0111);
    eq!(tb, "wb_lane_src", w.wb_lane_src, 0b0110);
    eq!(tb, "wb_lane_mem", w.wb_lane_mem, vec![0, 1, 2, 0]);
    let tags = (w.wb_tag_self, w.wb_tag_partner, w.wb_tag_c, w.wb_tag_d);
    eq!(tb, "wb_tag_self/partner/c/d", tags, (0xA0, 0xA1, 0xA2, 0));
    eq!(tb, "wb_orig_lane", w.wb_orig_lane, vec![0, 1, 2, 3]);
    eq!(tb, "rf_exec_mask (POST)", (w.rf_exec_mask, w.rf_post), (0b0111, true));
    // The retired C and member 3 (m >= W names nothing) look up as zero.
    for t in [2, 3] {
        let z = tb.look(t);
        eq!(tb, format!("wb_active({t})"), (z.wb_active, z.wb_tag_self, z.rf_exec_mask), (0, 0, 0));
    }
    tb.term(0); // A merged: the slot frees
    eq!(tb, "free_cnt", tb.o().free_cnt, 4);
    eq!(tb, "err_proto", tb.o().err_proto, false);
    tb.me(3); // member 3 of W = 3 names nothing
    eq!(tb, "err_proto", tb.o().err_proto, true);
    eq!(tb, "rsp_valid", tb.o().rsp_valid, false);
    Ok(())
}

/// W = 3, the same one-lane fragment three times: B fits U = 0001 with p 1 (0010), C fits
/// U = 0011 only with p 2 (0100). A waits first; the merge's lanes come back to their
/// original in-quad positions through each member's perm. Then the slot is reused by a
/// pair, whose merge reads no trace of the earlier C.
fn w3_remapped_set(mk: Mk) -> Result<(), String> {
    let mut tb = Tb::new(mk, params(3));
    tb.frag(0b0001, 0xB0, false);
    tb.frag(0b0001, 0xB1, false);
    tb.frag(0b0001, 0xB2, false);
    grp(
        &tb,
        true,
        [Some((0, 0b0001, 0, 0xB0)), Some((1, 0b0010, 1, 0xB1)), Some((2, 0b0100, 2, 0xB2)), None],
    )?;
    let c = tb.look(2);
    eq!(tb, "rf_perm(2)", (c.rf_perm, c.wb_perm_self), (2, 2));
    eq!(tb, "wb_orig_lane(2) (not merged)", c.wb_orig_lane, vec![2, 3, 0, 1]);
    eq!(tb, "rf_perm(1)", tb.look(1).rf_perm, 1);
    eq!(tb, "rf_perm(0)", tb.look(0).rf_perm, 0);
    tb.me(0);
    tb.me(1);
    states(&tb, 0, &[WAIT, WAIT, PRE])?;
    tb.me(2);
    rsp(&tb, 0, true, 0b0111, 0b11)?;
    let w = tb.look(0);
    eq!(tb, "wb_lane_mem", w.wb_lane_mem, vec![0, 1, 2, 0]);
    eq!(tb, "wb_orig_lane", w.wb_orig_lane, vec![0, 0, 0, 3]);
    eq!(tb, "wb_perm_self/partner/c", (w.wb_perm_self, w.wb_perm_partner, w.wb_perm_c), (0, 1, 2));
    eq!(tb, "wb_tag_partner/c", (w.wb_tag_partner, w.wb_tag_c), (0xB1, 0xB2));
    // The slot frees and takes a pair (F.last ends the set at two): member 2 is not in the
    // set, so its record is empty (R20: active 0; the model's reading: tag and perm 0 too),
    // and lane 2, C's lane before, has no source member.
    tb.term(0);
    eq!(tb, "free_cnt", tb.o().free_cnt, 4);
    tb.frag(0b0001, 0x60, false);
    tb.frag(0b0001, 0x61, true);
    grp(&tb, true, [Some((0, 0b0001, 0, 0x60)), Some((1, 0b0010, 1, 0x61)), None, None])?;
    tb.me(1);
    tb.me(0);
    rsp(&tb, 0, true, 0b0011, 0b01)?;
    let w = tb.look(0);
    eq!(tb, "wb_lane_mem", w.wb_lane_mem, vec![0, 1, 0, 0]);
    eq!(tb, "wb_lane_src", w.wb_lane_src, 0b0010);
    eq!(tb, "wb_orig_lane", w.wb_orig_lane, vec![0, 0, 2, 3]);
    eq!(tb, "wb_tag/perm_partner", (w.wb_tag_partner, w.wb_perm_partner), (0x61, 1));
    eq!(tb, "wb_tag/perm_c (not in the set)", (w.wb_tag_c, w.wb_perm_c), (0, 0));
    Ok(())
}

/// W = 4: four one-lane fragments form a set of four (tgids 0..3, D on grp_d_*), merged by
/// the last me into 1111 (retire mask 0b111). Then a set stopped early by full coverage
/// (0011 + 1100: a pair in slot 1, tgids 4, 5) and one stopped by F.last (slot 2, tgids 8,
/// 9); the pair of slot 1 merges with retire mask 0b001, its C and D records empty.
fn w4_sets(mk: Mk) -> Result<(), String> {
    let mut tb = Tb::new(mk, params(4));
    eq!(tb, "st_state len", tb.o().st_state.len(), 16);
    tb.frag(0b0001, 0xC0, false);
    tb.frag(0b0010, 0xC1, false);
    tb.frag(0b0100, 0xC2, false); // 3 of 4, 0111 not full: still held
    eq!(tb, "grp_valid", tb.o().grp_valid, false);
    eq!(tb, "pend_valid", tb.o().pend_valid, true);
    tb.frag(0b1000, 0xC3, false);
    grp(
        &tb,
        true,
        [
            Some((0, 0b0001, 0, 0xC0)),
            Some((1, 0b0010, 0, 0xC1)),
            Some((2, 0b0100, 0, 0xC2)),
            Some((3, 0b1000, 0, 0xC3)),
        ],
    )?;
    tb.me(3);
    tb.me(1);
    tb.me(2);
    states(&tb, 0, &[PRE, WAIT, WAIT, WAIT])?;
    tb.me(0);
    rsp(&tb, 0, true, 0b1111, 0b111)?;
    states(&tb, 0, &[POST, FREE, FREE, FREE])?;
    let w = tb.look(0);
    eq!(tb, "wb_lane_mem", w.wb_lane_mem, vec![0, 1, 2, 3]);
    eq!(tb, "wb_lane_src", w.wb_lane_src, 0b1110);
    eq!(tb, "wb_tag_partner/c/d", (w.wb_tag_partner, w.wb_tag_c, w.wb_tag_d), (0xC1, 0xC2, 0xC3));
    // Full coverage ends the set at two.
    tb.frag(0b0011, 0xD0, false);
    tb.frag(0b1100, 0xD1, false);
    grp(&tb, true, [Some((4, 0b0011, 0, 0xD0)), Some((5, 0b1100, 0, 0xD1)), None, None])?;
    eq!(tb, "pend_valid", tb.o().pend_valid, false);
    states(&tb, 4, &[PRE, PRE, FREE, FREE])?;
    // F.last ends it too.
    tb.frag(0b0001, 0xE0, false);
    tb.frag(0b0010, 0xE1, true);
    grp(&tb, true, [Some((8, 0b0001, 0, 0xE0)), Some((9, 0b0010, 0, 0xE1)), None, None])?;
    eq!(tb, "pend_valid", tb.o().pend_valid, false);
    tb.me(4);
    tb.me(5);
    rsp(&tb, 4, true, 0b1111, 0b001)?;
    let w = tb.look(4);
    eq!(tb, "wb_lane_mem(4)", w.wb_lane_mem, vec![0, 0, 1, 1]);
    eq!(tb, "wb_tag_partner/c/d(4)", (w.wb_tag_partner, w.wb_tag_c, w.wb_tag_d), (0xD1, 0, 0));
    Ok(())
}

/// W = 3: a set that does not fit F leaves as it is and F is held (E3 without a p), and
/// R6's expiry counts from the first fragment also when a second one joined.
fn w3_no_fit_and_hold(mk: Mk) -> Result<(), String> {
    let mut tb = Tb::new(mk, params(3));
    tb.frag(0b0001, 0x10, false);
    tb.frag(0b0010, 0x11, false); // joins
    tb.frag(0b1110, 0x12, false); // fits 0011 with no p: the pair leaves, F held
    grp(&tb, true, [Some((0, 0b0001, 0, 0x10)), Some((1, 0b0010, 0, 0x11)), None, None])?;
    eq!(tb, "pend_valid", tb.o().pend_valid, true);
    tb.frag(0b0001, 0x13, true); // joins 1110 with p 0: full, and last
    grp(&tb, true, [Some((4, 0b1110, 0, 0x12)), Some((5, 0b0001, 0, 0x13)), None, None])?;
    eq!(tb, "pend_valid", tb.o().pend_valid, false);
    // Hold expiry (pair_hold 4, R6 with the first fragment's age): F1 accepted at edge
    // k = 5, F2 joins at edge 6 (the set ages); the set leaves at edge k + 5 = 10 (@11),
    // frag_ready 0 @10.
    eq!(tb, "cycle", tb.cyc, 5);
    tb.frag(0b0100, 0x14, false);
    tb.frag(0b1000, 0x15, false);
    tb.to(10);
    eq!(tb, "grp_valid", tb.o().grp_valid, false);
    eq!(tb, "pend_valid", tb.o().pend_valid, true);
    eq!(tb, "frag_ready", tb.o().frag_ready, false);
    tb.to(11);
    grp(&tb, true, [Some((8, 0b0100, 0, 0x14)), Some((9, 0b1000, 0, 0x15)), None, None])?;
    eq!(tb, "pend_valid", tb.o().pend_valid, false);
    Ok(())
}

/// A set of three (0, 1, 2) with A waiting: a term of C breaks it, A resumes (owed, @+1),
/// B's later me answers alone. Then, at W = 4, a term of B resumes both waiting C and D,
/// the lower tgid first.
fn set_broken_by_term(mk: Mk) -> Result<(), String> {
    let mut tb = Tb::new(mk, params(3));
    tb.frag(0b0001, 0x20, false);
    tb.frag(0b0010, 0x21, false);
    tb.frag(0b0100, 0x22, false);
    tb.me(0);
    states(&tb, 0, &[WAIT, PRE, PRE])?;
    tb.term(2);
    states(&tb, 0, &[POST, PRE, FREE])?;
    eq!(tb, "st_slot[0] (broken, paired)", tb.o().st_slot[0], 0b011);
    rsp(&tb, 0, false, 0b0001, 0)?;
    eq!(tb, "st_owe[0]", tb.o().st_owe[0], false);
    tb.me(1);
    rsp(&tb, 1, false, 0b0010, 0)?;
    states(&tb, 0, &[POST, POST, FREE])?;
    eq!(tb, "merge_count", tb.o().merge_count, 0);

    let mut tb = Tb::new(mk, params(4));
    for (j, cov) in [0b0001, 0b0010, 0b0100, 0b1000].into_iter().enumerate() {
        tb.frag(cov, 0x30 + j as u64, false);
    }
    tb.me(3);
    tb.me(2);
    states(&tb, 0, &[PRE, PRE, WAIT, WAIT])?;
    tb.term(1);
    states(&tb, 0, &[PRE, FREE, POST, POST])?;
    rsp(&tb, 2, false, 0b0100, 0)?;
    eq!(tb, "st_owe[3]", tb.o().st_owe[3], true);
    tb.to(tb.cyc + 1);
    rsp(&tb, 3, false, 0b1000, 0)?;
    tb.me(0);
    rsp(&tb, 0, false, 0b0001, 0)?;
    eq!(tb, "merge_count", tb.o().merge_count, 0);
    Ok(())
}

/// Timeout T = 4 of a set of three: me{1} at edge 4 starts the slot's counter, me{2} at
/// edge 6 does not restart it; at edge 4 + T = 8 both resume (@9 rsp {1}, @10 rsp {2}).
/// Then: a member parked at the timeout edge itself resumes with the others; and the last
/// me at that edge still merges.
fn set_timeout(mk: Mk) -> Result<(), String> {
    let p = ThreadMergeParams {
        merge_timeout: 4,
        ..params(3)
    };
    let set = |tb: &mut Tb| {
        tb.frag(0b0001, 0x40, false);
        tb.frag(0b0010, 0x41, false);
        tb.frag(0b0100, 0x42, false);
    };
    let mut tb = Tb::new(mk, p.clone());
    set(&mut tb);
    eq!(tb, "cycle", tb.cyc, 4);
    tb.me(1);
    tb.to(6);
    tb.me(2);
    tb.to(9);
    states(&tb, 0, &[PRE, POST, POST])?;
    eq!(tb, "st_slot[0] (broken, paired)", tb.o().st_slot[0], 0b011);
    rsp(&tb, 1, false, 0b0010, 0)?;
    eq!(tb, "st_owe[2]", tb.o().st_owe[2], true);
    tb.to(10);
    rsp(&tb, 2, false, 0b0100, 0)?;
    tb.me(0);
    rsp(&tb, 0, false, 0b0001, 0)?;

    // One cycle before: still waiting.
    let mut tb = Tb::new(mk, p.clone());
    set(&mut tb);
    tb.me(1);
    tb.to(6);
    tb.me(2);
    tb.to(8);
    states(&tb, 0, &[PRE, WAIT, WAIT])?;
    eq!(tb, "rsp_valid", tb.o().rsp_valid, false);

    // Parked at the timeout edge 8: times out with B.
    let mut tb = Tb::new(mk, p.clone());
    set(&mut tb);
    tb.me(1);
    tb.to(8);
    tb.me(2);
    states(&tb, 0, &[PRE, POST, POST])?;
    rsp(&tb, 1, false, 0b0010, 0)?;
    tb.to(10);
    rsp(&tb, 2, false, 0b0100, 0)?;

    // The last me at edge 8 merges.
    let mut tb = Tb::new(mk, p);
    set(&mut tb);
    tb.me(1);
    tb.me(2);
    tb.to(8);
    tb.me(0);
    rsp(&tb, 0, true, 0b0111, 0b11)?;
    Ok(())
}

/// W = 2 drives R20's ports 0 (they do not exist): a merged pair has no retire mask and
/// no lane members.
fn w2_new_ports_zero(mk: Mk) -> Result<(), String> {
    let mut tb = Tb::new(mk, params(2));
    tb.frag(0b0001, 0x50, false);
    tb.frag(0b0010, 0x51, false);
    grp(&tb, true, [Some((0, 0b0001, 0, 0x50)), Some((1, 0b0010, 0, 0x51)), None, None])?;
    eq!(tb, "st_state len", tb.o().st_state.len(), 8);
    tb.me(1);
    tb.me(0);
    rsp(&tb, 0, true, 0b0011, 0)?;
    let w = tb.look(0);
    eq!(tb, "wb_lane_src", w.wb_lane_src, 0b0010);
    eq!(tb, "wb_lane_mem", w.wb_lane_mem, vec![0; 4]);
    eq!(tb, "wb_tag_c/d", (w.wb_tag_c, w.wb_perm_c, w.wb_tag_d, w.wb_perm_d), (0, 0, 0, 0));
    Ok(())
}

type Case = (&'static str, fn(Mk) -> Result<(), String>);
const CASES: [Case; 7] = [
    ("w3_set_of_three", w3_set_of_three),
    ("w3_remapped_set", w3_remapped_set),
    ("w4_sets", w4_sets),
    ("w3_no_fit_and_hold", w3_no_fit_and_hold),
    ("set_broken_by_term", set_broken_by_term),
    ("set_timeout", set_timeout),
    ("w2_new_ports_zero", w2_new_ports_zero),
];

#[test]
fn r20_cases_pass_on_model() {
    for (name, case) in CASES {
        case(&|p| ThreadMergeModel::new(p)).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn r20_params() {
    let w = |ways, slots| {
        let p = ThreadMergeParams {
            merge_ways: ways,
            slots,
            ..ThreadMergeParams::contract_default()
        };
        (p.members(), p.groups(), p.tgid_w())
    };
    assert_eq!(w(2, 4), (2, 8, 3));
    assert_eq!(w(2, 1), (2, 2, 1));
    assert_eq!(w(3, 4), (4, 16, 4));
    assert_eq!(w(4, 1), (4, 4, 2));
    assert_eq!(w(4, 32), (4, 128, 7));
    assert_eq!(w(3, 5), (4, 20, 5));
    let d = ThreadMergeParams::contract_default();
    let cases = [(1, 1, false), (5, 1, false), (3, 2, false), (4, 4, false), (2, 4, true), (4, 1, true)];
    for (ways, candidates, ok) in cases {
        let p = ThreadMergeParams {
            merge_ways: ways,
            candidates,
            ..d.clone()
        };
        assert_eq!(p.validate().is_ok(), ok, "{p:?}");
    }
}

/// The cases a mutant fails (a panic counts as a failure).
fn catchers(m: Mutation) -> Vec<&'static str> {
    CASES
        .iter()
        .filter(|(_, case)| {
            let mk = move |p: &ThreadMergeParams| ThreadMergeModel::mutated(p, m);
            !matches!(catch_unwind(AssertUnwindSafe(|| case(&mk))), Ok(Ok(())))
        })
        .map(|(name, _)| *name)
        .collect()
}

#[test]
fn r20_mutants_are_caught() {
    use Mutation::*;
    for (m, by) in [
        (TermPartnerOnly, "set_broken_by_term"),
        (MergeIgnoresC, "w3_set_of_three"),
        (WaitRestartsEachPark, "set_timeout"),
        (FitsFirstOnly, "w3_remapped_set"),
        // Older mutants through the set rules.
        (TermNoResume, "set_broken_by_term"),
        (TimeoutLate, "set_timeout"),
        (OrigLaneIgnoresPerm, "w3_remapped_set"),
    ] {
        let c = catchers(m);
        eprintln!("{m:?}: {c:?}");
        assert!(c.contains(&by), "mutant {m:?} not caught by {by}: {c:?}");
    }
}
