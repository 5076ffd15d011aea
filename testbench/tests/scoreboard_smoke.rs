//! Smoke checks of the scoreboard RTL in Verilator, with expected values written by hand
//! from the block's port contract (docs/blocks/scoreboard.md, "Ports and cycle timing"):
//! issue gating on a dependency set, counting, completions on every port, the fetch gate of
//! the next instruction's set, the generic check, the scoreboard branch, saturation, clear,
//! the sticky underflow flag and ids that name nothing. The model, the directed spec cases
//! and random lockstep live in testbench/src/scoreboard/.
//!
//! Default config: 4 thread groups × 8 trackers, 4-bit counters (max 15), 2 completion
//! ports: TGW 2, TKW 3.

use warpgen_testbench::smoke::Bench;

/// The scoreboard with the config's widths.
struct Sb {
    b: Bench,
    trk: usize,
    cnt_w: usize,
}

/// Group and tracker id widths of every config used here (up to 4 groups, 5 to 8 trackers).
const TGW: usize = 2;
const TKW: usize = 3;

warpgen_testbench::bench_wrapper!(Sb, b);

impl Sb {
    /// Out of reset with `sets` on the default config.
    fn new(sets: &[&str]) -> Sb {
        let b = Bench::out_of_reset("scoreboard", sets, 1);
        let c = b.config.scoreboard().unwrap().clone();
        Sb { trk: c.trackers as usize, cnt_w: c.counter_width as usize, b }
    }

    /// Counter (g, t) from `cnt_flat`.
    fn cnt(&mut self, g: usize, t: usize) -> u64 {
        let (w, trk) = (self.cnt_w, self.trk);
        self.field("cnt_flat", (g * trk + t) * w, w)
    }

    /// Presents an instruction of group `g` depending on `dep`, counted on `trk` if given.
    fn issue(&mut self, g: u64, dep: u64, trk: Option<u64>, nxt: u64) {
        self.set("iss_valid", 1);
        self.set("iss_tg", g);
        self.set("iss_dep_mask", dep);
        self.set("iss_trk_en", trk.is_some() as u64);
        self.set("iss_trk", trk.unwrap_or(0));
        self.set("iss_nxt_mask", nxt);
    }

    /// Completions this cycle: (port, group, tracker) each.
    fn complete(&mut self, cpls: &[(usize, u64, u64)]) {
        let (mut v, mut tg, mut trk) = (0, 0, 0);
        for &(p, g, t) in cpls {
            v |= 1 << p;
            tg |= g << (p * TGW);
            trk |= t << (p * TKW);
        }
        self.set("cpl_valid", v);
        self.set("cpl_tg", tg);
        self.set("cpl_trk", trk);
    }

    /// Ends the cycle and clears every strobe for the next.
    fn next(&mut self) {
        self.step();
        for p in ["iss_valid", "iss_trk_en", "iss_dep_mask", "iss_nxt_mask", "cpl_valid", "clr_valid"] {
            self.set(p, 0);
        }
    }
}

#[test]
fn issue_count_complete_and_release() {
    let mut s = Sb::new(&[]);
    // Out of reset: every counter zero, every group idle and fetching, nothing full.
    s.expect("fetch_ok", 0b1111);
    s.expect("tg_idle", 0b1111);
    s.expect("trk_zero", 0xffff_ffff);
    s.expect("trk_full", 0);
    s.expect("err_underflow", 0);

    // Cycle 0: group 1 issues a load counted on tracker 3 (no dependencies).
    s.issue(1, 0, Some(3), 0);
    s.expect("iss_ready", 1);
    s.expect("iss_fire", 1);
    s.next();
    // Cycle 1: counted. An instruction of group 1 that depends on tracker 3 waits; one of
    // group 2 with the same mask does not (trackers are per group).
    assert_eq!(s.cnt(1, 3), 1);
    s.expect("trk_zero", 0xffff_ffff & !(1 << (8 + 3)));
    s.expect("tg_idle", 0b1101);
    s.issue(1, 1 << 3, None, 0);
    s.expect("iss_ready", 0);
    s.expect("iss_fire", 0);
    s.set("iss_tg", 2);
    s.expect("iss_ready", 1);
    s.set("iss_valid", 0);
    s.expect("iss_fire", 0);
    s.expect("iss_ready", 1); // iss_ready does not depend on iss_valid
    // The generic check and the scoreboard branch see the same counters.
    s.set("chk_tg", 1);
    s.set("chk_mask", 1 << 3);
    s.expect("chk_ok", 0);
    s.set("chk_mask", 1 << 2);
    s.expect("chk_ok", 1);
    s.set("br_tg", 1);
    s.set("br_mask_a", 1 << 3);
    s.set("br_mask_b", 1 << 2);
    s.expect("br_sat_a", 0);
    s.expect("br_sat_b", 1);
    s.expect("br_go", 1);
    s.expect("br_sel_b", 1);
    s.set("br_mask_b", 0b1000_1000);
    s.expect("br_go", 0); // neither set drained: the branch stalls
    s.set("br_mask_a", 0);
    s.expect("br_sat_a", 1); // the empty set is satisfied, and A wins
    s.expect("br_sel_b", 0);
    // Port 1 completes it in cycle 1.
    s.complete(&[(1, 1, 3)]);
    s.next();
    // Cycle 2: released.
    assert_eq!(s.cnt(1, 3), 0);
    s.issue(1, 1 << 3, None, 0);
    s.expect("iss_ready", 1);
    s.expect("tg_idle", 0b1111);
    s.expect("err_underflow", 0);
}

#[test]
fn both_ports_and_an_issue_in_one_cycle() {
    let mut s = Sb::new(&[]);
    for _ in 0..3 {
        s.issue(0, 0, Some(5), 0);
        s.expect("iss_fire", 1);
        s.next();
    }
    assert_eq!(s.cnt(0, 5), 3);
    // One issue and two completions on the same counter: 3 + 1 - 2.
    s.issue(0, 0, Some(5), 0);
    s.complete(&[(0, 0, 5), (1, 0, 5)]);
    s.next();
    assert_eq!(s.cnt(0, 5), 2);
    // Two completions on two groups.
    s.issue(3, 0, Some(0), 0);
    s.next();
    s.complete(&[(0, 3, 0), (1, 0, 5)]);
    s.next();
    assert_eq!((s.cnt(3, 0), s.cnt(0, 5)), (0, 1));
}

#[test]
fn next_instruction_set_gates_fetch() {
    let mut s = Sb::new(&[]);
    // Group 2 issues a store on tracker 6 and names tracker 6 in the next instruction's set.
    s.issue(2, 0, Some(6), 1 << 6);
    s.expect("fetch_ok", 0b1111);
    s.next();
    s.expect("fetch_ok", 0b1011);
    s.issue(2, 0, None, 0);
    s.expect("iss_ready", 0); // fetch_ok[2] is part of iss_ready
    s.set("iss_valid", 0);
    s.complete(&[(0, 2, 6)]);
    s.next();
    s.expect("fetch_ok", 0b1111);
    s.issue(2, 0, None, 0);
    s.expect("iss_ready", 1);
}

#[test]
fn saturation_stalls_only_counted_issues() {
    // 2-bit counters: max_count 3 for every tracker.
    let mut s = Sb::new(&["counter_width=2"]);
    for _ in 0..3 {
        s.issue(0, 0, Some(1), 0);
        s.expect("iss_fire", 1);
        s.next();
    }
    assert_eq!(s.cnt(0, 1), 3);
    s.expect("trk_full", 1 << 1);
    s.issue(0, 0, Some(1), 0);
    s.expect("iss_ready", 0);
    s.expect("iss_fire", 0);
    s.set("iss_trk", 2);
    s.expect("iss_ready", 1); // another tracker is not full
    s.set("iss_trk_en", 0);
    s.expect("iss_ready", 1); // nor is an uncounted instruction stalled
    s.set("iss_valid", 0);
    s.next();
    assert_eq!(s.cnt(0, 1), 3, "a stalled issue counts nothing");
    // A per-tracker limit: tracker 0 holds at most 1.
    let mut s = Sb::new(&["max_count=[1, 3, 3, 3, 3, 3, 3, 3]", "counter_width=2"]);
    s.issue(1, 0, Some(0), 0);
    s.next();
    s.expect("trk_full", 1 << 8);
    s.issue(1, 0, Some(0), 0);
    s.expect("iss_ready", 0);
}

#[test]
fn clear_underflow_and_ids_that_name_nothing() {
    let mut s = Sb::new(&[]);
    s.issue(1, 0, Some(2), 0);
    s.next();
    s.issue(1, 0, Some(4), 0);
    s.next();
    s.set("clr_valid", 1);
    s.set("clr_tg", 1);
    s.next();
    assert_eq!((s.cnt(1, 2), s.cnt(1, 4)), (0, 0));
    s.expect("tg_idle", 0b1111);
    s.expect("err_underflow", 0);
    // A completion on a zero counter: sticky underflow, the counter stays 0.
    s.complete(&[(0, 0, 7)]);
    s.next();
    s.expect("err_underflow", 1);
    assert_eq!(s.cnt(0, 7), 0);
    s.next();
    s.next();
    s.expect("err_underflow", 1);

    // 3 thread groups: id 3 names no group.
    let mut s = Sb::new(&["thread_groups=3"]);
    s.issue(3, 0, None, 0);
    s.expect("iss_ready", 0);
    s.set("chk_tg", 3);
    s.expect("chk_ok", 0);
    s.set("br_tg", 3);
    s.expect("br_sat_a", 0);
    s.expect("br_sat_b", 0);
    s.set("iss_valid", 0);
    s.complete(&[(1, 3, 0)]);
    s.next();
    s.expect("err_underflow", 1);
    // 6 trackers: tracker id 7 names no counter.
    let mut s = Sb::new(&["trackers=6"]);
    s.complete(&[(0, 0, 7)]);
    s.next();
    s.expect("err_underflow", 1);
}
