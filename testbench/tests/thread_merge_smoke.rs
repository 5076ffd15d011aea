//! Smoke tests of the thread_merge RTL in Verilator: a few of the contract's §6
//! cases (spec §5.8 under `docs/contracts/thread_merge.md`) and the exhaustive pair table, with
//! expected values written by hand from the contract (R1-R15), not taken from
//! any model or from the RTL. The full directed set and the lockstep runs
//! against the model live elsewhere.
//!
//! Timing (R1): in cycle n the inputs of cycle n are applied, the outputs
//! "@n" are read, then rising edge n. Reset is high in cycle 0 only.

use warpgen_rtl::{generate, Config};
use warpgen_testbench::harness;
use warpgen_testbench::smoke::Bench;

/// Inputs that are driven every cycle, with their idle value.
const IDLE: &[(&str, u64)] = &[
    ("frag_valid", 0),
    ("frag_cov", 0),
    ("frag_prim", 1),
    ("frag_tag", 0),
    ("frag_last", 0),
    ("flush", 0),
    ("grp_ready", 1),
    ("me_valid", 0),
    ("me_tgid", 0),
    ("rsp_ready", 1),
    ("term_valid", 0),
    ("term_tgid", 0),
    ("disc_valid", 0),
    ("disc_tgid", 0),
    ("disc_mask", 0),
    ("xl_valid", 0),
    ("xl_tgid", 0),
];

struct Tb(Bench);

warpgen_testbench::bench_wrapper!(Tb, 0);

impl Tb {
    /// The RTL of the embedded default config with `sets` (`key=value` of `[thread_merge]`).
    fn new(sets: &[&str]) -> Tb {
        Tb(Bench::new("thread_merge", sets))
    }

    /// Runs cycles 0..=last: `f(tb, n)` applies cycle n's inputs and checks the outputs @n.
    /// Reset is high in cycle 0.
    fn run(&mut self, last: u64, mut f: impl FnMut(&mut Tb, u64)) {
        for n in 0..=last {
            self.cycle = n;
            for (p, v) in IDLE {
                self.set(p, *v);
            }
            self.set("reset", u64::from(n == 0));
            f(self, n);
            self.step();
        }
    }

    fn frag(&mut self, cov: u64, tag: u64, last: bool) {
        self.set("frag_valid", 1);
        self.set("frag_cov", cov);
        self.set("frag_tag", tag);
        self.set("frag_last", u64::from(last));
    }

    fn me(&mut self, t: u64) {
        self.set("me_valid", 1);
        self.set("me_tgid", t);
    }

    fn term(&mut self, t: u64) {
        self.set("term_valid", 1);
        self.set("term_tgid", t);
    }

    /// Group t's state from `st_state` (0 FREE, 1 PRE, 2 WAIT, 3 POST).
    fn state(&mut self, t: u64) -> u64 {
        (self.get("st_state") >> (2 * t)) & 3
    }

    /// The response @n: (tgid, merged, active, retire, retire_tgid), or None.
    fn rsp(&mut self) -> Option<(u64, u64, u64, u64, u64)> {
        (self.get("rsp_valid") == 1).then(|| {
            (self.get("rsp_tgid"), self.get("rsp_merged"), self.get("rsp_active"), self.get("rsp_retire"), self.get("rsp_retire_tgid"))
        })
    }

    fn expect_rsp(&mut self, want: Option<(u64, u64, u64, u64)>) {
        let got = self.rsp();
        let got4 = got.map(|(t, m, a, r, _)| (t, m, a, r));
        assert_eq!(got4, want, "{}: rsp @{}", self.name, self.cycle);
        if let Some((t, _, _, 1, rt)) = got {
            assert_eq!(rt, t + 1, "{}: rsp_retire_tgid @{}", self.name, self.cycle);
        }
    }
}

/// T3's stimulus: F1{0111,0x10} @1, F2{1000,0x11} @2 (identity pair in slot 0).
fn t3(tb: &mut Tb, n: u64) {
    match n {
        1 => tb.frag(0b0111, 0x10, false),
        2 => tb.frag(0b1000, 0x11, false),
        _ => {}
    }
}

#[test]
fn default_config_cases() {
    let mut tb = Tb::new(&[]);

    // T1 (free_cnt counts slots) and T3.
    tb.run(3, |tb, n| {
        t3(tb, n);
        match n {
            1 => {
                for (p, v) in [("free_cnt", 4), ("pend_valid", 0), ("grp_valid", 0), ("rsp_valid", 0), ("err_xlane", 0),
                    ("err_proto", 0), ("frag_ready", 1), ("merge_count", 0), ("me_ready", 1)] {
                    tb.expect(p, v);
                }
            }
            2 => {
                tb.expect("grp_valid", 0);
                tb.expect("pend_valid", 1);
                tb.expect("free_cnt", 4);
            }
            3 => {
                for (p, v) in [("grp_valid", 1), ("grp_paired", 1), ("grp_a_tgid", 0), ("grp_a_cov", 0b0111), ("grp_a_tag", 0x10),
                    ("grp_b_tgid", 1), ("grp_b_cov", 0b1000), ("grp_b_perm", 0), ("grp_b_tag", 0x11), ("pend_valid", 0),
                    ("free_cnt", 3)] {
                    tb.expect(p, v);
                }
                tb.set("rf_tgid", 1);
                tb.expect("rf_common_wmask", 0b1000);
                tb.expect("rf_exec_mask", 0b1111);
                tb.set("rf_tgid", 0);
                tb.expect("rf_common_wmask", 0b0111);
                tb.expect("rf_exec_mask", 0b1111);
                tb.expect("rf_post", 0);
            }
            _ => {}
        }
    });

    // T12: merge, A arrives first; zero-copy write-back view of the merged A.
    tb.run(14, |tb, n| {
        t3(tb, n);
        match n {
            10 => tb.me(0),
            13 => tb.me(1),
            _ => {}
        }
        if (11..=13).contains(&n) {
            tb.expect("rsp_valid", 0);
            assert_eq!(tb.state(0), 2, "WAIT @{n}");
        }
        if n == 14 {
            tb.expect_rsp(Some((0, 1, 0b1111, 1)));
            tb.expect("free_cnt", 3);
            assert_eq!(tb.state(1), 0);
            tb.expect("merge_count", 1);
            tb.set("rf_tgid", 0);
            tb.expect("rf_common_wmask", 0b1111);
            tb.expect("rf_exec_mask", 0b1111);
            tb.expect("rf_post", 1);
            tb.set("wb_tgid", 0);
            for (p, v) in [("wb_active", 0b1111), ("wb_lane_src", 0b1000), ("wb_tag_self", 0x10), ("wb_tag_partner", 0x11),
                ("wb_perm_self", 0), ("wb_perm_partner", 0), ("wb_orig_lane", 0b11_10_01_00)] {
                tb.expect(p, v);
            }
            // B retired: FREE, every lookup output 0.
            tb.set("wb_tgid", 1);
            tb.expect("wb_active", 0);
            tb.expect("wb_tag_self", 0);
            tb.expect("wb_orig_lane", 0);
        }
    });

    // T14: rotate-180 pair, merged; lane 3 is F2's lane 0.
    tb.run(12, |tb, n| {
        match n {
            1 => tb.frag(0b0111, 0x30, false),
            2 => tb.frag(0b0001, 0x31, false),
            10 => tb.me(0),
            11 => tb.me(1),
            _ => {}
        }
        if n == 3 {
            tb.expect("grp_paired", 1);
            tb.expect("grp_b_perm", 3);
            tb.expect("grp_b_cov", 0b1000);
            tb.set("rf_tgid", 1);
            tb.expect("rf_perm", 3);
        }
        if n == 12 {
            tb.expect_rsp(Some((0, 1, 0b1111, 1)));
            tb.set("wb_tgid", 0);
            for (p, v) in [("wb_lane_src", 0b1000), ("wb_perm_self", 0), ("wb_perm_partner", 3), ("wb_tag_self", 0x30),
                ("wb_tag_partner", 0x31), ("wb_orig_lane", 0b00_10_01_00)] {
                tb.expect(p, v);
            }
        }
    });

    // T6: row + diagonal do not pair; the held one leaves at 2 + pair_hold + 2.
    tb.run(9, |tb, n| {
        match n {
            1 => tb.frag(0b0011, 0x20, false),
            2 => tb.frag(0b0110, 0x21, false),
            _ => {}
        }
        match n {
            3 => {
                for (p, v) in [("grp_valid", 1), ("grp_paired", 0), ("grp_a_tgid", 0), ("grp_a_cov", 0b0011), ("grp_a_tag", 0x20), ("pend_valid", 1)] {
                    tb.expect(p, v);
                }
            }
            4..=7 => tb.expect("grp_valid", 0),
            8 => {
                for (p, v) in [("grp_valid", 1), ("grp_paired", 0), ("grp_a_tgid", 2), ("grp_a_cov", 0b0110), ("grp_a_tag", 0x21), ("pend_valid", 0)] {
                    tb.expect(p, v);
                }
            }
            _ => {}
        }
    });

    // T16: the partner never arrives: timeout after merge_timeout edges.
    tb.run(41, |tb, n| {
        t3(tb, n);
        match n {
            20 => tb.me(0),
            40 => tb.me(1),
            _ => {}
        }
        if (21..=36).contains(&n) {
            tb.expect("rsp_valid", 0);
        }
        if n == 37 {
            tb.expect_rsp(Some((0, 0, 0b0111, 0)));
            assert_eq!(tb.get("st_slot") & 0b111, 0b011, "slot 0 paired and broken");
        }
        if n == 41 {
            tb.expect_rsp(Some((1, 0, 0b1000, 0)));
        }
        if n >= 37 {
            tb.expect("free_cnt", 3);
            tb.expect("merge_count", 0);
        }
    });

    // T20: a discard before the merge shrinks the union.
    tb.run(14, |tb, n| {
        t3(tb, n);
        match n {
            10 => {
                tb.set("disc_valid", 1);
                tb.set("disc_tgid", 0);
                tb.set("disc_mask", 0b0001);
            }
            12 => tb.me(0),
            13 => tb.me(1),
            _ => {}
        }
        if n == 11 {
            tb.set("rf_tgid", 0);
            tb.expect("rf_common_wmask", 0b0110);
            tb.expect("rf_exec_mask", 0b1111);
        }
        if n == 14 {
            tb.expect_rsp(Some((0, 1, 0b1110, 1)));
            tb.set("wb_tgid", 0);
            tb.expect("wb_lane_src", 0b1000);
        }
    });

    // T24 (rewritten): four full groups fill the four slots; a term frees slot 1.
    tb.run(9, |tb, n| {
        if (1..=8).contains(&n) {
            tb.frag(0b1111, n.min(5), false); // F5 held, payload stable, from cycle 5
        }
        if n == 7 {
            tb.term(2);
        }
        if (2..=5).contains(&n) {
            tb.expect("grp_a_tgid", 2 * (n - 2));
        }
        if (5..=7).contains(&n) {
            tb.expect("frag_ready", 0);
            tb.expect("free_cnt", 0);
        }
        if n == 8 {
            tb.expect("free_cnt", 1);
            tb.expect("frag_ready", 1);
        }
        if n == 9 {
            tb.expect("grp_valid", 1);
            tb.expect("grp_a_tgid", 2);
            tb.expect("grp_a_tag", 5);
        }
    });

    // K1: response back-pressure holds the response and refuses merge events.
    tb.run(10, |tb, n| {
        match n {
            1 => tb.frag(0b1111, 1, false),
            2 => tb.frag(0b1111, 2, false),
            5 => tb.me(0),
            6..=9 => tb.me(2),
            _ => {}
        }
        if (6..=8).contains(&n) {
            tb.set("rsp_ready", 0);
            tb.expect("me_ready", 0);
        }
        if (6..=9).contains(&n) {
            tb.expect_rsp(Some((0, 0, 0b1111, 0)));
        }
        if n == 9 {
            tb.expect("me_ready", 1);
        }
        if n == 10 {
            tb.expect_rsp(Some((2, 0, 0b1111, 0)));
        }
    });

    // K2: an owed resume waits behind a blocked response register.
    tb.run(16, |tb, n| {
        t3(tb, n);
        match n {
            3 => tb.frag(0b1111, 0x12, false),
            9 => tb.me(0),
            10 => tb.me(2),
            11 => tb.term(1),
            _ => {}
        }
        if (11..=13).contains(&n) {
            tb.set("rsp_ready", 0);
            tb.expect("me_ready", 0);
        }
        if (11..=14).contains(&n) {
            tb.expect_rsp(Some((2, 0, 0b1111, 0)));
        }
        if (12..=14).contains(&n) {
            tb.expect("st_owe", 0b1);
        }
        if n == 15 {
            tb.expect_rsp(Some((0, 0, 0b0111, 0)));
            tb.expect("st_owe", 0);
        }
        if n == 16 {
            tb.expect("rsp_valid", 0);
        }
    });

    // K4: an empty fragment is a protocol error and nothing else.
    tb.run(2, |tb, n| {
        if n == 1 {
            tb.frag(0, 0x5, false);
        }
        if n == 2 {
            for (p, v) in [("err_proto", 1), ("pend_valid", 0), ("grp_valid", 0), ("free_cnt", 4)] {
                tb.expect(p, v);
            }
        }
    });
    // ... and reset clears it.
    tb.run(1, |tb, n| {
        if n == 1 {
            tb.expect("err_proto", 0);
        }
    });
}

#[test]
fn one_slot_pairs_and_merges_k3() {
    let mut tb = Tb::new(&["slots=1"]);
    tb.run(10, |tb, n| {
        t3(tb, n);
        if n >= 3 && n <= 9 {
            tb.frag(0b1111, 0x12, false);
        }
        match n {
            5 => tb.me(1),
            6 => tb.me(0),
            8 => tb.term(0),
            _ => {}
        }
        if n == 3 {
            for (p, v) in [("grp_valid", 1), ("grp_paired", 1), ("grp_a_tgid", 0), ("grp_b_tgid", 1), ("free_cnt", 0)] {
                tb.expect(p, v);
            }
        }
        if (3..=8).contains(&n) {
            tb.expect("frag_ready", 0);
        }
        if n == 7 {
            tb.expect_rsp(Some((0, 1, 0b1111, 1)));
        }
        if n == 9 {
            tb.expect("free_cnt", 1);
            tb.expect("frag_ready", 1);
        }
        if n == 10 {
            tb.expect("grp_valid", 1);
            tb.expect("grp_paired", 0);
            tb.expect("grp_a_tgid", 0);
            tb.expect("grp_a_tag", 0x12);
        }
    });
}

#[test]
fn eight_lanes_remap_per_quad_t28() {
    let mut tb = Tb::new(&["lanes=8"]);
    tb.run(3, |tb, n| {
        match n {
            1 => tb.frag(0b0001_0111, 0x1, false),
            2 => tb.frag(0b0001_0001, 0x2, false),
            _ => {}
        }
        if n == 3 {
            tb.expect("grp_paired", 1);
            tb.expect("grp_b_perm", 3);
            tb.expect("grp_b_cov", 0b1000_1000);
        }
    });
}

/// R5 written from the contract: bit (i & !3) | ((i & 3) ^ p) of the result is bit i of m.
fn xperm(m: u64, p: u64, lanes: u64) -> u64 {
    (0..lanes).filter(|i| (m >> i) & 1 == 1).fold(0, |r, i| r | (1 << ((i & !3) | ((i & 3) ^ p))))
}

/// The first p in 0..3 (only 0 without remap) with a & xperm(b, p) == 0.
fn merge(a: u64, b: u64, remap: bool) -> Option<u64> {
    (0..if remap { 4 } else { 1 }).find(|p| a & xperm(b, *p, 4) == 0)
}

#[test]
fn exhaustive_pair_table_matches_r5_and_the_contract_counts() {
    for remap in [false, true] {
        // The decision function itself against the contract's enumeration (§6).
        let mut by_p = [0usize; 4];
        for a in 1..15u64 {
            for b in 1..15u64 {
                if let Some(p) = merge(a, b, remap) {
                    by_p[p as usize] += 1;
                    assert_eq!(merge(b, a, remap), Some(p), "merge({a}, {b}) and merge({b}, {a}) give the same p");
                }
            }
        }
        if remap {
            assert_eq!(by_p, [50, 32, 18, 8]);
        } else {
            assert_eq!(by_p, [50, 0, 0, 0]);
        }

        let mut tb = Tb::new(&["lanes=4", if remap { "remap=true" } else { "remap=false" }]);
        let mut merged = 0;
        for a in 1..15u64 {
            for b in 1..15u64 {
                tb.name = format!("remap {remap}, a {a:04b}, b {b:04b}");
                tb.run(3, |tb, n| {
                    match n {
                        1 => tb.frag(a, 0xa, false),
                        2 => tb.frag(b, 0xb, false),
                        _ => {}
                    }
                    if n == 3 {
                        tb.expect("grp_valid", 1);
                        tb.expect("grp_a_cov", a);
                        tb.expect("grp_a_tag", 0xa);
                        match merge(a, b, remap) {
                            Some(p) => {
                                merged += 1;
                                tb.expect("grp_paired", 1);
                                tb.expect("grp_b_perm", p);
                                tb.expect("grp_b_cov", xperm(b, p, 4));
                                tb.expect("grp_b_tag", 0xb);
                                tb.expect("pend_valid", 0);
                            }
                            None => {
                                tb.expect("grp_paired", 0);
                                tb.expect("pend_valid", 1);
                            }
                        }
                    }
                });
            }
        }
        assert_eq!(merged, if remap { 108 } else { 50 });
    }
}

/// Flip-flops of a config, counted from the register list of R2 (contract §2 widths), plus
/// the RTL's timing registers: per slot the owed-grant one-hot (2), the candidate's
/// `age == pair_hold` flag (with a hold window), the response's fresh / me-or-owed bits, and
/// the pending merge and protocol error of merge_count and err_proto; with `candidates` = K
/// (R19) the queue's K - 1 held fragments beyond the candidate register (valid, coverage,
/// tag, age; the primitive and `qlast` are the queue's, in the candidate register).
fn flops(lanes: usize, slots: usize, tag: usize, prim: usize, pair_hold: u64, timeout: u64, k: usize) -> usize {
    let bits = |v: u64| (64 - v.leading_zeros()) as usize;
    let wait = if timeout == 0 { 0 } else { bits(timeout - 1) };
    let tgw = 1 + bits(slots as u64 - 1);
    let per_slot = 2 * 2 + 2 * lanes + 2 + 3 + 2 + wait + 2 * tag + 2; // states, masks, owe, flags, perm, counter, tags, grant
    let pend = 1 + lanes + prim + tag + 1 + bits(pair_hold) + usize::from(pair_hold != 0);
    let grp = 1 + 1 + (tgw - 1) + 2 * lanes + 2 + 2 * tag;
    let rsp = 1 + tgw + 1 + lanes + 2;
    let queue = (k - 1) * (1 + lanes + tag + bits(pair_hold));
    slots * per_slot + pend + queue + grp + rsp + 32 + 2 + 2
}

#[test]
fn lint_and_synth_with_exact_flops() {
    for (sets, n) in [
        (vec![], flops(4, 4, 32, 16, 4, 16, 1)),
        (vec!["lanes=8", "slots=3", "tag_width=5", "prim_width=3", "pair_hold=2", "merge_timeout=5", "remap=false"], flops(8, 3, 5, 3, 2, 5, 1)),
        (vec!["lanes=8", "slots=3", "tag_width=5", "prim_width=3", "pair_hold=2", "merge_timeout=5", "candidates=3"], flops(8, 3, 5, 3, 2, 5, 3)),
    ] {
        let sets: Vec<String> = sets.iter().map(|s| format!("thread_merge.{s}")).collect();
        let e = generate(&Config::embedded(&sets).unwrap(), "thread_merge").unwrap();
        harness::lint(&e).unwrap_or_else(|m| panic!("lint {sets:?}: {m}"));
        let r = harness::synth(&e).unwrap_or_else(|m| panic!("yosys {sets:?}: {m}"));
        assert_eq!(r.flip_flops, n, "{sets:?}: {r:?}");
    }
    assert_eq!(flops(4, 4, 32, 16, 4, 16, 1), 539);
}
