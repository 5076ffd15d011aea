//! Smoke checks of the branch_stack RTL in Verilator, with expected values written by hand
//! from the block's port contract (docs/blocks/branch_stack.md, "Ports and cycle timing",
//! and the encodings of docs/spec/branch_stack.md §5.3: CC bits C N V Z = 3 2 1 0, stack
//! ops 00 DN, 01 PO, 10 PU, 11 PP): the patent's worked example (Figs. 5-7), a taken
//! branch through T0 into the PC, a compound branch, the execute-stage redirect and the
//! stall, and the four sticky flags. The model, the directed spec cases and random
//! lockstep live in testbench/src/branch_stack/.
//!
//! Default config: depth 4, 3 producer stages (EX2 the oldest), 32-bit PC, 16-bit offsets,
//! increment 1, reset PC 0.

use warpgen_testbench::smoke::Bench;

const DN: u64 = 0;
const PO: u64 = 1;
const PU: u64 = 2;

struct Bs(Bench);

warpgen_testbench::bench_wrapper!(Bs, 0);

impl Bs {
    fn new(sets: &[&str]) -> Bs {
        Bs(Bench::out_of_reset("branch_stack", sets, 1))
    }

    /// Producer stage `stage` presents stack op `op` with code `cc` this cycle.
    fn produce(&mut self, stage: usize, op: u64, cc: u64) {
        let (v, s, c) = (self.get("cc_vld"), self.get("cc_sop"), self.get("cc_val"));
        self.set("cc_vld", v | 1 << stage);
        self.set("cc_sop", s & !(3 << (2 * stage)) | op << (2 * stage));
        self.set("cc_val", c & !(15 << (4 * stage)) | cc << (4 * stage));
    }

    /// A simple branch: taken when `cc_r[sel] == pol`.
    fn simple(&mut self, sel: u64, pol: u64, pc: u64, off: u64) {
        self.set("de_br_vld", 1);
        self.set("de_br_cmp", 0);
        self.set("de_br_sel", sel);
        self.set("de_br_pol", pol);
        self.set("de_pc", pc);
        self.set("de_off", off);
    }

    /// A compound branch `CBfg.op` (f, g: 0 N, 1 Z; op 0 AND, 1 OR, 2 XOR, 3 XNOR).
    fn compound(&mut self, f: u64, g: u64, op: u64) {
        self.set("de_br_vld", 1);
        self.set("de_br_cmp", 1);
        self.set("de_br_f", f);
        self.set("de_br_g", g);
        self.set("de_br_op", op);
    }

    /// Ends the cycle and clears every strobe for the next.
    fn next(&mut self) {
        self.step();
        for p in ["cc_vld", "cc_sop", "cc_val", "de_br_vld", "ex_branch_t1", "pc_hold", "err_clr"] {
            self.set(p, 0);
        }
    }

    fn stack(&mut self) -> (u64, u64, u64) {
        (self.get("cc_r"), self.get("cc_s"), self.get("cc_cnt"))
    }
}

#[test]
fn patent_example_figs_5_to_7() {
    let mut b = Bs::new(&[]);
    b.expect("pc", 0);
    b.expect("npc", 1);
    b.expect("cc_r_vld", 0);
    assert_eq!(b.stack(), (0, 0, 0));
    // I1, I2, I3 push 0001, 1000, 0010 from EX0.
    for cc in [0b0001, 0b1000, 0b0010] {
        b.produce(0, PU, cc);
        b.next();
    }
    assert_eq!(b.stack(), (0b0010, 0b1000, 3));
    b.expect("cc_s_vld", 1);
    b.expect("pc", 3);
    // BEZ at 0x40, offset 0x10: R's Z is 0, not taken; it pops R.
    b.simple(0, 1, 0x40, 0x10);
    b.expect("br_taken", 0);
    b.expect("br_target", 0x50);
    b.next();
    assert_eq!(b.stack(), (0b1000, 0b0001, 2));
    b.expect("branch_t0_q", 0);
    b.expect("pc", 4);
}

#[test]
fn taken_branch_reaches_the_pc_two_cycles_later() {
    let mut b = Bs::new(&[]);
    b.produce(1, PU, 0b0001); // Z = 1
    b.next();
    // Cycle 1 (T): BEZ at 0x100 with offset -4 (16-bit) is taken.
    b.simple(0, 1, 0x100, 0xfffc);
    b.expect("br_taken", 1);
    b.expect("br_target", 0xfc);
    b.next();
    // T+1: the T0 registers hold it, pc still counts (a delay slot); the stack is empty.
    b.expect("branch_t0_q", 1);
    b.expect("t0pc_q", 0xfc);
    b.expect("pc", 2);
    assert_eq!(b.stack(), (0, 0, 0));
    b.next();
    // T+2: pc is the target.
    b.expect("pc", 0xfc);
    b.expect("npc", 0xfd);
    b.expect("branch_t0_q", 0);
    // The execute-stage redirect wins over T0, and pc_hold freezes the PC.
    b.simple(1, 0, 0, 0x20); // R empty reads 0: V == 0, taken (and an underflow)
    b.expect("br_taken", 1);
    b.next();
    b.set("ex_branch_t1", 1);
    b.set("ex_t1pc", 0x1234);
    b.next();
    b.expect("pc", 0x1234);
    b.set("pc_hold", 1);
    b.next();
    b.expect("pc", 0x1234);
    b.next();
    b.expect("pc", 0x1235);
}

#[test]
fn compound_branch_pops_two() {
    let mut b = Bs::new(&[]);
    b.produce(0, PU, 0b0100); // S: N = 1, Z = 0
    b.next();
    b.produce(0, PU, 0b0001); // R: N = 0, Z = 1
    b.next();
    b.produce(0, PU, 0b1111);
    b.next();
    b.simple(3, 1, 0, 0); // pop the 1111 (C = 1: taken)
    b.expect("br_taken", 1);
    b.next();
    // CB R.Z AND S.N = 1 & 1: taken.
    b.compound(1, 0, 0);
    b.expect("br_taken", 1);
    b.set("de_br_op", 2); // XOR: 0
    b.expect("br_taken", 0);
    b.set("de_br_f", 0); // R.N XNOR S.N = 0 XNOR 1 = 0
    b.set("de_br_op", 3);
    b.expect("br_taken", 0);
    b.set("de_br_op", 1); // R.N OR S.N = 1
    b.expect("br_taken", 1);
    b.next();
    assert_eq!(b.stack(), (0, 0, 0));
    b.expect("err_udf", 0);
    b.expect("err_port", 0);
}

#[test]
fn sticky_flags() {
    let mut b = Bs::new(&[]);
    // Five pushes onto a 4-deep stack: the bottom (1) is dropped.
    for cc in 1..=5 {
        b.produce(2, PU, cc);
        b.next();
    }
    assert_eq!(b.stack(), (5, 4, 4));
    b.expect("err_ovf", 1);
    b.set("err_clr", 1);
    b.next();
    b.expect("err_ovf", 0);
    // Two producers with ops: the oldest (EX2) wins, err_multi.
    b.produce(0, PU, 9);
    b.produce(2, PO, 0);
    b.next();
    assert_eq!(b.stack(), (4, 3, 3));
    b.expect("err_multi", 1);
    // A DN producer does not take part.
    b.set("err_clr", 1);
    b.next();
    b.produce(0, DN, 7);
    b.produce(1, PU, 6);
    b.next();
    assert_eq!(b.stack(), (6, 4, 4));
    b.expect("err_multi", 0);
    // A compound branch and a producer pop in one cycle: the producer's op is dropped.
    b.compound(1, 1, 0);
    b.produce(0, PO, 0);
    b.next();
    b.expect("err_port", 1);
    assert_eq!(b.stack(), (3, 2, 2));
    // More pops than entries: the stack empties, err_udf. A set beats err_clr.
    b.compound(1, 1, 0);
    b.next();
    b.simple(0, 1, 0, 0);
    b.set("err_clr", 1);
    b.next();
    assert_eq!(b.stack(), (0, 0, 0));
    b.expect("err_udf", 1);
    b.expect("err_port", 0);
}

#[test]
fn reset_pc_and_increment() {
    let mut b = Bs::new(&["pc_width=16", "reset_pc=65534", "pc_increment=3"]);
    b.expect("pc", 0xfffe);
    b.expect("npc", 0x0001);
    b.next();
    b.expect("pc", 0x0001);
}
