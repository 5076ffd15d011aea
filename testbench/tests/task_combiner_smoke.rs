//! task_combiner RTL smoke checks in Verilator: a few directed cases of
//! spec §11.2 under the contract (`task_combiner.md` §4, §6), with every
//! expected value written by hand from the spec's tables and the contract's
//! rules (R1-R12), not read back from the RTL. The full directed suite and the
//! random lockstep against the model live with the model.
//!
//! Cycle convention (spec §10.5): inputs of cycle n are applied, the design
//! settles and the outputs of cycle n are checked, then the rising edge n+1.
//!
//! Config C0 (spec §11.1): entries 5, width 8, tile_pipes 4, shader_types 4,
//! state_width 4, ref_width 13, tag_gen_width 4, fullest, sort_state, capacity
//! 8, patent depends. Derived: ENT_W 3, TAG_W 7, CNT_W 4, LANE_W 3, TP_W 2.

use warpgen_testbench::smoke::Bench;

const VS: u64 = 0;
const HS: u64 = 1;
const GS: u64 = 3;
const A: u64 = 1;
const B: u64 = 2;
const C: u64 = 3;
const FULL: u64 = 1;
const EVICT: u64 = 2;
const DEP: u64 = 3;
const RQFLUSH: u64 = 4;

/// The Verilated block with the C0-derived field widths.
struct Tc {
    b: Bench,
    /// (CNT_W, STATE_W, TAG_W, ENT_W, REF_W, N_TPIPE)
    cnt_w: usize,
    state_w: usize,
    tag_w: usize,
    ent_w: usize,
    ref_w: usize,
    tp: usize,
}

warpgen_testbench::bench_wrapper!(Tc, b);

impl Tc {
    /// C0 with `sets` (task_combiner keys) on top, out of reset, inputs idle, out_ready 1.
    fn new(sets: &[&str]) -> Tc {
        let all: Vec<&str> = ["entries=5", "width=8", "state_width=4"].iter().chain(sets).chain(&["tile_pipes=4"]).copied().collect();
        let mut b = Bench::new("task_combiner", &all);
        let tc = b.config.task_combiner().unwrap().clone();
        b.set("reset", 1);
        b.set("out_ready", 1);
        b.step();
        b.step();
        b.set("reset", 0);
        b.cycle = 0;
        Tc {
            b,
            cnt_w: tc.cnt_bits(),
            state_w: tc.state_width as usize,
            tag_w: tc.tag_bits(),
            ent_w: tc.ent_bits(),
            ref_w: tc.ref_width as usize,
            tp: tc.tile_pipes as usize,
        }
    }

    /// Presents I(stype, state, ref, tpipe) this cycle.
    fn instance(&mut self, stype: u64, state: u64, r: u64, tp: u64) {
        self.set("in_valid", 1);
        self.set("in_stype", stype);
        self.set("in_state", state);
        self.set("in_ref", r);
        self.set("in_tpipe", tp);
    }

    fn no_instance(&mut self) {
        self.set("in_valid", 0);
    }

    fn bit(&mut self, name: &str, e: usize) -> u64 {
        self.field(name, e, 1)
    }
    fn st_count(&mut self, e: usize) -> u64 {
        let w = self.cnt_w;
        self.field("st_count", e * w, w)
    }
    fn st_state(&mut self, e: usize) -> u64 {
        let w = self.state_w;
        self.field("st_state", e * w, w)
    }
    fn st_stype(&mut self, e: usize) -> u64 {
        self.field("st_stype", e * 2, 2)
    }
    fn st_lock(&mut self, e: usize) -> u64 {
        let w = self.tp;
        self.field("st_lockmask", e * w, w)
    }
    fn st_tag(&mut self, e: usize) -> u64 {
        let w = self.tag_w;
        self.field("st_tag", e * w, w)
    }
    fn st_dep(&mut self, n: usize, i: usize, j: usize) -> u64 {
        self.field("st_dep", i * n + j, 1)
    }
    fn out_ref(&mut self, lane: usize) -> u64 {
        let w = self.ref_w;
        self.field("out_refs", lane * w, w)
    }
    /// tag = {gen, entry}.
    fn tag(&self, gen: u64, e: u64) -> u64 {
        (gen << self.ent_w) | e
    }
}

#[test]
fn t01_reset_state() {
    let mut t = Tc::new(&[]);
    assert_eq!(t.get("st_valid"), 0);
    assert_eq!(t.get("out_valid"), 0);
    assert_eq!(t.get("in_ready"), 1);
    assert_eq!(t.get("rqf_ready"), 1);
    assert_eq!(t.get("rqf_done"), 0);
    assert_eq!(t.get("lk_hit"), 0);
    assert_eq!(t.get("drain_done"), 0);
    assert_eq!((t.get("perf_tasks"), t.get("perf_lanes")), (0, 0));
}

#[test]
fn t02_first_instance_opens_a_task() {
    let mut t = Tc::new(&[]);
    t.instance(VS, A, 100, 0);
    t.eval();
    assert_eq!((t.get("in_ready"), t.get("in_lane")), (1, 0), "cycle 0");
    // R2: a new entry in f = 0 gets gen[0] + 1 = 1.
    let tag = t.get("in_tag");
    assert_eq!(tag, t.tag(1, 0));
    t.step();
    t.no_instance();
    t.eval();
    assert_eq!((t.get("st_valid"), t.get("st_open"), t.get("st_pending")), (1, 1, 0), "cycle 1: entry 0 open");
    assert_eq!((t.st_stype(0), t.st_state(0), t.st_count(0), t.st_lock(0)), (VS, A, 1, 0b0001));
    assert_eq!(t.st_tag(0), tag);
    for c in 1..=20 {
        assert_eq!(t.get("out_valid"), 0, "no timeout: cycle {c}");
        t.step();
    }
}

#[test]
fn t03_task_fills_and_is_output_then_t03b_new_entry() {
    let mut t = Tc::new(&[]);
    for k in 0..8u64 {
        t.instance(VS, A, 100 + k, 0);
        t.eval();
        assert_eq!((t.get("in_ready"), t.get("in_lane")), (1, k), "cycle {k}");
        t.step();
    }
    // Cycle 8: entry 0 pending (FULL), not open; T03b presents one more VS/A.
    t.instance(VS, A, 108, 0);
    t.eval();
    assert_eq!((t.bit("st_valid", 0), t.bit("st_open", 0), t.bit("st_pending", 0)), (1, 0, 1), "cycle 8");
    assert_eq!(t.get("out_valid"), 0, "cycle 8");
    assert_eq!((t.get("in_ready"), t.get("in_lane")), (1, 0), "cycle 8: a new entry, lane 0");
    assert_eq!(t.get("in_tag"), t.tag(1, 1), "cycle 8: entry 1, its first generation");
    t.step();
    t.no_instance();
    t.eval();
    // Cycle 9: the task in the slot; entry 0 free; entry 1 open with the T03b instance.
    assert_eq!(t.get("out_valid"), 1, "cycle 9");
    assert_eq!((t.get("out_stype"), t.get("out_state"), t.get("out_count")), (VS, A, 8));
    assert_eq!((t.get("out_lane_mask"), t.get("out_lockmask"), t.get("out_reason")), (0xff, 0b0001, FULL));
    assert_eq!(t.get("out_tag"), t.tag(1, 0));
    for lane in 0..8 {
        assert_eq!(t.out_ref(lane), 100 + lane as u64, "lane {lane}");
    }
    assert_eq!(t.get("st_valid"), 0b10, "cycle 9: entry 0 free, entry 1 resident");
    assert_eq!((t.bit("st_open", 1), t.st_count(1)), (1, 1));
    t.step();
    t.eval();
    assert_eq!(t.get("out_valid"), 0, "cycle 10: handshake at edge 10");
    assert_eq!((t.get("perf_tasks"), t.get("perf_lanes")), (1, 8));
}

#[test]
fn t15_eviction_fullest_with_a_producer() {
    // C1: C0 with 4 entries.
    let mut t = Tc::new(&["entries=4"]);
    let n = 4;
    let mut stim: Vec<(u64, u64)> = Vec::new();
    stim.extend([(VS, A); 3]); // E0, count 3
    stim.extend([(VS, B); 5]); // E1, count 5
    stim.push((VS, C)); // E2
    stim.extend([(HS, C); 6]); // E3, count 6, depends on E2 (HS consumes VS, same state)
    for (c, (s, st)) in stim.iter().enumerate() {
        t.instance(*s, *st, c as u64, 0);
        t.eval();
        assert_eq!(t.get("in_ready"), 1, "cycle {c}");
        t.step();
    }
    // Cycle 15: GS/A, a new key; the table is full and nothing is pending.
    t.instance(GS, A, 500, 1);
    t.eval();
    assert_eq!(t.get("in_ready"), 0, "cycle 15");
    assert_eq!(t.st_dep(n, 3, 2), 1, "HS/C depends on VS/C");
    assert_eq!(t.get("st_dep"), 1 << (3 * n + 2), "and nothing else");
    t.step();
    t.eval();
    // Cycle 16: E3 (fullest, 6) pending (EVICT); it has a producer, so nothing moves.
    assert_eq!((t.get("in_ready"), t.get("st_pending"), t.get("out_valid")), (0, 0b1000, 0), "cycle 16");
    t.step();
    t.eval();
    // Cycle 17: E2 pending (DEP).
    assert_eq!((t.get("in_ready"), t.get("st_pending"), t.get("out_valid")), (0, 0b1100, 0), "cycle 17");
    t.step();
    t.eval();
    // Cycle 18: VS/C in the slot (DEP); E2 free, so GS/A is accepted into E2.
    assert_eq!(t.get("out_valid"), 1, "cycle 18");
    assert_eq!((t.get("out_stype"), t.get("out_state"), t.get("out_count"), t.get("out_reason")), (VS, C, 1, DEP));
    assert_eq!(t.bit("st_valid", 2), 0);
    assert_eq!(t.get("st_dep"), 0, "column 2 cleared when VS/C left");
    assert_eq!((t.get("in_ready"), t.get("in_lane")), (1, 0), "cycle 18");
    assert_eq!(t.get("in_tag"), t.tag(2, 2), "E2's second generation");
    t.step();
    t.no_instance();
    t.eval();
    // Cycle 19: HS/C (EVICT); GS/A resident in E2, depending on VS/A (E0) by `depends`.
    assert_eq!((t.get("out_valid"), t.get("out_stype"), t.get("out_count"), t.get("out_reason")), (1, HS, 6, EVICT));
    assert_eq!((t.bit("st_valid", 2), t.st_stype(2), t.st_state(2), t.st_lock(2)), (1, GS, A, 0b0010));
    assert_eq!(t.get("st_dep"), 1 << (2 * n), "GS/A depends on VS/A only");
    assert_eq!(t.get("st_valid"), 0b0111, "E3 left at edge 19");
}

#[test]
fn t10_render_queue_flush_outputs_the_locked_tasks() {
    let mut t = Tc::new(&[]);
    for (s, st, tp) in [(VS, A, 0), (VS, A, 2), (VS, B, 1), (VS, C, 2), (HS, C, 2)] {
        t.instance(s, st, 7, tp);
        t.step();
    }
    t.no_instance();
    // Cycle 5 = n: flush tile pipeline 2. E0 = VS/A 0101, E1 = VS/B 0010, E2 = VS/C 0100, E3 = HS/C 0100.
    t.set("rqf_valid", 1);
    t.set("rqf_tpipe", 2);
    t.eval();
    assert_eq!((t.st_lock(0), t.st_lock(1), t.st_lock(2), t.st_lock(3)), (0b0101, 0b0010, 0b0100, 0b0100));
    assert_eq!(t.get("rqf_ready"), 1, "cycle n");
    t.step();
    t.set("rqf_valid", 0);
    t.eval();
    assert_eq!((t.get("rqf_ready"), t.get("st_pending"), t.get("out_valid")), (0, 0b1101, 0), "n+1");
    // Outputs: VS/A (oldest eligible), VS/C, then HS/C after its producer.
    for (c, state, stype) in [(2, A, VS), (3, C, VS), (4, C, HS)] {
        t.step();
        t.eval();
        assert_eq!((t.get("out_valid"), t.get("out_state"), t.get("out_stype")), (1, state, stype), "n+{c}");
        assert_eq!((t.get("out_reason"), t.get("rqf_done"), t.get("rqf_ready")), (RQFLUSH, 0, 0), "n+{c}");
    }
    t.step();
    t.eval();
    assert_eq!((t.get("rqf_done"), t.get("rqf_done_tpipe"), t.get("rqf_ready")), (1, 2, 1), "n+5");
    assert_eq!(t.get("out_valid"), 0, "n+5");
    assert_eq!((t.get("st_valid"), t.get("st_open"), t.st_lock(1)), (0b0010, 0b0010, 0b0010), "VS/B stays open");
    t.step();
    t.eval();
    assert_eq!(t.get("rqf_done"), 0, "a one-cycle pulse");
}

#[test]
fn t12_lock_then_t26_empty_flush() {
    let mut t = Tc::new(&[]);
    t.instance(VS, A, 1, 0);
    t.eval();
    let t0 = t.get("in_tag");
    t.step();
    t.no_instance();
    // T26: nothing is locked for tile pipeline 3.
    t.set("rqf_valid", 1);
    t.set("rqf_tpipe", 3);
    t.step();
    t.set("rqf_valid", 0);
    t.eval();
    assert_eq!((t.get("rqf_done"), t.get("rqf_done_tpipe"), t.get("rqf_ready")), (1, 3, 1), "empty flush: done at n+1");
    assert_eq!((t.get("out_valid"), t.get("st_pending")), (0, 0));
    // T12: lock T0 for tile pipeline 3 in cycle n: lk_hit and lockmask 1001 at n+1.
    t.set("lk_valid", 1);
    t.set("lk_tag", t0);
    t.set("lk_tpipe", 3);
    t.step();
    t.set("lk_valid", 0);
    t.eval();
    assert_eq!((t.get("lk_hit"), t.st_lock(0)), (1, 0b1001));
    // A lock of a tag no task has: no hit, no change.
    t.set("lk_valid", 1);
    let tag = t.tag(2, 0);
    t.set("lk_tag", tag);
    t.set("lk_tpipe", 1);
    t.step();
    t.set("lk_valid", 0);
    t.eval();
    assert_eq!((t.get("lk_hit"), t.st_lock(0)), (0, 0b1001));
    // Flush tile pipeline 3: E0 pending at n+1, out (RQFLUSH) at n+2, done at n+3.
    t.set("rqf_valid", 1);
    t.set("rqf_tpipe", 3);
    t.step();
    t.set("rqf_valid", 0);
    t.eval();
    assert_eq!((t.get("st_pending"), t.get("rqf_ready")), (1, 0));
    t.step();
    t.eval();
    assert_eq!((t.get("out_valid"), t.get("out_reason"), t.get("out_lockmask"), t.get("out_tag")), (1, RQFLUSH, 0b1001, t0));
    t.step();
    t.eval();
    assert_eq!((t.get("rqf_done"), t.get("rqf_done_tpipe")), (1, 3));
}

#[test]
fn t28_capacity_one_issues_one_task_per_cycle() {
    let mut t = Tc::new(&["capacity=[1, 1, 1, 1]"]);
    // 50 instances of alternating keys, one per cycle: each is a full task at once.
    for c in 0..52u64 {
        if c < 50 {
            t.instance(VS, 1 + c % 3, c, (c % 4) as u64);
        } else {
            t.no_instance();
        }
        t.eval();
        if c < 50 {
            assert_eq!((t.get("in_ready"), t.get("in_lane")), (1, 0), "cycle {c}");
        }
        if c >= 2 {
            // Latency 2: the instance of cycle c-2 is in the slot (FULL, count 1).
            assert_eq!(t.get("out_valid"), 1, "cycle {c}");
            assert_eq!((t.out_ref(0), t.get("out_count"), t.get("out_reason")), (c - 2, 1, FULL), "cycle {c}");
            assert_eq!(t.get("out_lockmask"), 1 << ((c - 2) % 4), "cycle {c}");
        } else {
            assert_eq!(t.get("out_valid"), 0, "cycle {c}");
        }
        t.step();
    }
    t.eval();
    assert_eq!((t.get("perf_tasks"), t.get("perf_lanes"), t.get("out_valid")), (50, 50, 0));
}
