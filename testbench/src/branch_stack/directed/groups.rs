//! Directed cases of `thread_groups` (rules G1–G7 of docs/blocks/branch_stack.md, "Options"),
//! expected values written by hand from the rules:
//! * X06: two groups push different codes; a branch of each group reads its own R, S and
//!   count (`de_tg`, G2) and pops its own stack; `sv_*` read a group (G6). X06/tg32 runs it
//!   with the ids 17 and 30 of 32 groups.
//! * X07 (`"drop"`): a compound branch of group 0 beside a producer PO (and a PP) of group 1:
//!   both apply and `err_port` stays 0 (G3, G4); with both in group 0 the producer's op is
//!   suppressed and `err_port` rises (B21). X07/stall: the same at `"stall"`: `cc_ready` 1
//!   for the other group's pop, 0 for the own group's (applied the next cycle), and an older
//!   producer of another group beside a compound branch wins and holds a younger one (S1).
//! * X08: per-group PCs (G5): `pc`/`npc` are `fe_tg`'s and only it advances; a T0 lands on
//!   the branch's group (`t0_tg_q`) whatever is fetched; a T1 lands on `ex_tg`; T0 and T1 of
//!   different groups both apply in one cycle, and a T1 beats the T0 of its own group;
//!   `pc_hold` freezes every PC and the T0 registers.
//! * X09: save and restore (G6, G7): a saved image is restored after the group was
//!   clobbered; the restore wins over a same-cycle push and PC advance of that group (`sv_*`
//!   show it from the next cycle), over a branch pop and over `pc_hold`; `rs_cnt` above
//!   `depth` clamps to `depth`; entries at and above the count read 0; a restored group's
//!   overridden pop still sets `err_udf`; a T0 captured in the restore's cycle lands over the
//!   restored pc; a push to another group in the restore's cycle is applied.

use super::*;

impl Run<'_> {
    /// PU of `v` on EX0 for group `g`.
    fn pu(&self, g: u8, v: u8) -> BranchStackInputs {
        self.idle().push(0, v).cc_group(0, g)
    }

    /// `sv_cnt` = `cnt` and the `depth` entries of `sv_stack`: `top_first`, then 0.
    fn sv(&self, cnt: u64, top_first: &[u8]) -> Vec<Exp> {
        let mut v = vec![SvCnt(cnt)];
        v.extend((0..self.p.depth).map(|k| SvEntry(k, top_first.get(k).copied().unwrap_or(0))));
        v
    }
}

/// X06: group g1 holds \[C, A\], group g2 \[B\]; a BEZ of g2 reads B (taken), a CBNN.XOR of g1
/// reads C, A (N 1 ^ 0: taken); each pops its own stack.
pub fn x06_own_stacks(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let big = dut.params().tgs == 32;
    let (g1, g2) = if big { (17, 30) } else { (1, 2) };
    let mut r = Run::new(if big { "X06/tg32" } else { "X06" }, dut);
    r.step(r.pu(g1, A), &[Cnt(0), RVld(false)])?; // c0: group 0 shown, empty
    r.step(r.pu(g2, B).de_group(g1), &[Cnt(1), R(A), RVld(true), SVld(false)])?; // c1
    r.step(r.pu(g1, C).de_group(g2), &[Cnt(1), R(B), SVld(false)])?; // c2
    let sv2 = r.sv(1, &[B]);
    r.step(r.idle().de_group(g1).save(g2), &[&[Cnt(2), R(C), S(A)][..], &sv2].concat())?; // c3
    let sv1 = r.sv(2, &[C, A]);
    r.step(r.idle().de_group(g2).bez().save(g1), &[&[Cnt(1), R(B), Taken(true)][..], &sv1].concat())?; // c4
    let sv2 = r.sv(0, &[]);
    r.step(r.idle().de_group(g1).cb(N, N, Xor).save(g2), &[&[Cnt(2), R(C), S(A), Taken(true)][..], &sv2].concat())?; // c5
    r.step(r.idle().de_group(g1).save(0), &[&[Cnt(0), RVld(false), SvCnt(0)][..], &NO_ERR].concat())?; // c6
    r.step(r.idle().de_group(g2), &[&[Cnt(0)][..], &NO_ERR].concat())
}

/// Group 0 \[A, B\] and group 1 \[C\], built in c0..c2.
fn two_groups(r: &mut Run) -> Result<(), String> {
    r.step(r.pu(0, B), &[Cnt(0)])?;
    r.step(r.pu(0, A), &[Cnt(1), R(B)])?;
    r.step(r.pu(1, C), &[Cnt(2), R(A), S(B)])
}

/// X07 at `"drop"`.
pub fn x07_port_limit_per_group(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    // (a) CBNN.XNOR of group 0 on A, B (N 0, 0: taken) beside EX0 PO of group 1: both apply.
    let mut r = Run::new("X07a", dut);
    two_groups(&mut r)?;
    let sv1 = r.sv(1, &[C]);
    r.step(r.idle().cb(N, N, Xnor).pop(0).cc_group(0, 1).save(1), &[&[R(A), S(B), Cnt(2), Taken(true)][..], &sv1].concat())?;
    let sv1 = r.sv(0, &[]);
    r.step(r.idle().save(1), &[&[Cnt(0)][..], &sv1, &NO_ERR].concat())?;

    // (b) EX1 PP D of group 1 beside it: C popped, D pushed on group 1.
    let mut r = Run::new("X07b", dut);
    two_groups(&mut r)?;
    r.step(r.idle().cb(N, N, Xnor).pop_push(1, D).cc_group(1, 1), &[Taken(true), Cnt(2)])?;
    let sv1 = r.sv(1, &[D]);
    r.step(r.idle().save(1), &[&[Cnt(0)][..], &sv1, &NO_ERR].concat())?;

    // (c) Both in group 0 (\[A, B, C\]): the PO is suppressed, err_port rises.
    let mut r = Run::new("X07c", dut);
    r.load(&[A, B, C])?;
    r.step(r.idle().cb(N, N, Xnor).pop(0), &[R(A), S(B), Cnt(3), Taken(true)])?;
    r.step(r.idle(), &[Cnt(1), R(C), Port(true), Udf(false), Multi(false)])
}

/// X07/stall at `"stall"`.
pub fn x07_port_limit_per_group_stall(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    // (a) The pop of group 1 beside the compound branch of group 0 is ready and applied.
    let mut r = Run::new("X07/stall-a", dut);
    two_groups(&mut r)?;
    r.step(r.idle().cb(N, N, Xnor).pop(0).cc_group(0, 1), &[Taken(true), Ready(0b111)])?;
    let sv1 = r.sv(0, &[]);
    r.step(r.idle().save(1), &[&[Cnt(0), Ready(0b111)][..], &sv1, &NO_ERR].concat())?;

    // (b) The pop of group 0 itself is held (cc_ready 0) and applied the next cycle.
    let mut r = Run::new("X07/stall-b", dut);
    r.load(&[A, B, C])?;
    r.step(r.idle().cb(N, N, Xnor).pop(0), &[Taken(true), Ready(0b110), Cnt(3)])?;
    r.step(r.idle().pop(0), &[Ready(0b111), Cnt(1), R(C)])?;
    r.step(r.idle(), &[&[Cnt(0)][..], &NO_ERR].concat())?;

    // (c) EX2 PO of group 1 beside the compound branch of group 0 wins (ready); EX0 PU E of
    // group 0 is held (an older producer won) and pushed the next cycle.
    let mut r = Run::new("X07/stall-c", dut);
    two_groups(&mut r)?;
    let inp = r.idle().cb(N, N, Xnor).pop(2).cc_group(2, 1).push(0, E);
    r.step(inp, &[Taken(true), Ready(0b110)])?;
    let sv1 = r.sv(0, &[]);
    r.step(r.idle().push(0, E).save(1), &[&[Ready(0b111), Cnt(0)][..], &sv1].concat())?;
    r.step(r.idle(), &[&[Cnt(1), R(E)][..], &NO_ERR].concat())
}

/// X08: per-group PCs (reset_pc 0, pc_increment 1).
pub fn x08_pcs(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X08", dut);
    // c0: fetch group 0 (pc0 0 -> 1); push B (Z set) on group 1.
    r.step(r.pu(1, B).fe_group(0), &[Pc(0), Npc(1), T0tg(0)])?;
    // c1: fetch group 1 (pc1 0 -> 1).
    r.step(r.idle().fe_group(1), &[Pc(0), Npc(1)])?;
    // c2: BEZ of group 1 on B, taken to 0x50, while group 0 is fetched (pc0 1 -> 2).
    r.step(r.idle().de_group(1).bez().at(0x40, 0x10).fe_group(0), &[R(B), Taken(true), Target(0x50), Pc(1)])?;
    // c3: the T0 of group 1 is pending; group 0 fetched (pc0 2 -> 3), pc1 <- 0x50.
    r.step(r.idle().fe_group(0).save(1), &[Pc(2), T0(true), T0pc(0x50), T0tg(1), SvPc(1)])?;
    // c4: group 1 is at 0x50 (-> 0x51); group 0 kept 3.
    r.step(r.idle().fe_group(1).save(0), &[Pc(0x50), Npc(0x51), T0(false), T0tg(0), SvPc(3)])?;
    // c5: T1 of group 1 to 0x300 while group 0 is fetched (pc0 3 -> 4); group 2 untouched.
    r.step(r.idle().fe_group(0).ex_group(1).t1(0x300).save(2), &[Pc(3), SvPc(0)])?;
    r.step(r.idle().fe_group(1).save(0), &[Pc(0x300), SvPc(4)])?; // c6: pc1 -> 0x301
    // c7: T1 of the fetched group wins over its advance: pc1 <- 0x200.
    r.step(r.idle().fe_group(1).ex_group(1).t1(0x200), &[Pc(0x301)])?;
    r.step(r.pu(2, B).fe_group(1), &[Pc(0x200)])?; // c8: pc1 -> 0x201
    // c9: BEZ of group 2 taken to 0x84 while group 3 is fetched (pc3 0 -> 1).
    r.step(r.idle().de_group(2).bez().at(0x80, 0x4).fe_group(3), &[Taken(true), Target(0x84), Pc(0)])?;
    // c10, c11: pc_hold freezes every PC and the pending T0 (a T1 of group 0 is lost).
    r.step(r.idle().hold().fe_group(2).ex_group(0).t1(0x999), &[Pc(0), T0(true), T0pc(0x84), T0tg(2)])?;
    r.step(r.idle().hold().fe_group(0), &[Pc(4), T0(true), T0tg(2)])?;
    // c12: the T0 lands on group 2 (fetched: no advance); group 1 still 0x201.
    r.step(r.idle().fe_group(2).save(1), &[Pc(0), T0(true), T0pc(0x84), T0tg(2), SvPc(0x201)])?;
    // c13: group 2 at 0x84 (-> 0x85); T1 of group 3 to 0x500.
    r.step(r.idle().fe_group(2).ex_group(3).t1(0x500), &[Pc(0x84), T0(false)])?;
    r.step(r.pu(1, B).fe_group(3).save(2), &[Pc(0x500), SvPc(0x85)])?; // c14: pc3 -> 0x501
    // c15: BEZ of group 1 taken to 0x12 while group 0 is fetched (pc0 4 -> 5).
    r.step(r.idle().de_group(1).bez().at(0x10, 0x2).fe_group(0), &[Taken(true), Target(0x12), Pc(4)])?;
    // c16: T0 of group 1, T1 of group 2 to 0x700 and group 0's advance, all at one edge.
    r.step(r.idle().fe_group(0).ex_group(2).t1(0x700), &[Pc(5), T0(true), T0tg(1)])?;
    r.step(r.idle().fe_group(1).save(2), &[Pc(0x12), SvPc(0x700)])?; // c17: pc1 -> 0x13
    r.step(r.idle().fe_group(0).save(3), &[Pc(6), SvPc(0x501)])?; // c18: pc0 -> 7
    r.step(r.pu(3, B).fe_group(1), &[Pc(0x13)])?; // c19: pc1 -> 0x14
    // c20: BEZ of group 3 taken to 0x20 (group 2 fetched: 0x700 -> 0x701).
    r.step(r.idle().de_group(3).bez().at(0x20, 0x0).fe_group(2), &[Taken(true), Target(0x20), Pc(0x700)])?;
    // c21: T1 of group 3 to 0x900 beats group 3's pending T0.
    r.step(r.idle().fe_group(2).ex_group(3).t1(0x900), &[Pc(0x701), T0(true), T0tg(3), T0pc(0x20)])?;
    r.step(r.idle().fe_group(3), &[Pc(0x900)])?; // c22
    r.step(r.idle().fe_group(0), &[&[Pc(7)][..], &NO_ERR].concat()) // c23
}

/// X09: save and restore (depth 4, CNT_W 3).
pub fn x09_save_restore(dut: &mut dyn Dut<BranchStack>) -> Result<(), String> {
    let mut r = Run::new("X09", dut);
    // c0..c2: group 1 gets [C, B, A] and is fetched each cycle (pc1 -> 3).
    for (k, v) in [A, B, C].into_iter().enumerate() {
        r.step(r.pu(1, v).fe_group(1), &[Pc(k as u64)])?;
    }
    // c3: save group 1; clobber it: EX0 PO of group 1 (group 0 fetched, pc0 -> 1).
    let sv = [&r.sv(3, &[C, B, A])[..], &[SvPc(3)]].concat();
    r.step(r.idle().pop(0).cc_group(0, 1).save(1), &sv)?;
    // c4: and PU D on group 1 (fetched: pc1 -> 4).
    let sv = [&r.sv(2, &[B, A])[..], &[SvPc(3)]].concat();
    r.step(r.pu(1, D).fe_group(1).save(1), &sv)?;
    // c5: restore the image; a PU E of group 1 and its advance in this cycle lose to it;
    // sv_* still show the state at the start of the cycle.
    let sv = [&r.sv(3, &[D, B, A])[..], &[SvPc(4)]].concat();
    r.step(r.pu(1, E).fe_group(1).save(1).restore(1, 3, &[C, B, A], 3), &sv)?;
    // c6: group 1 reads back; restore group 2 with rs_cnt 7 > depth (clamped to 4) beside
    // EX1 PU D of group 1 (applied: [D, C, B, A]).
    let sv = [&r.sv(3, &[C, B, A])[..], &[SvPc(3), Cnt(3), R(C), S(B)]].concat();
    let inp = r.idle().push(1, D).cc_group(1, 1).de_group(1).save(1).restore(2, 7, &[A, B, C, D], 0x77);
    r.step(inp, &sv)?;
    // c7: group 2 is [A, B, C, D] at 0x77; restore group 3 with rs_cnt 5 (clamped to 4).
    let sv = [&r.sv(4, &[A, B, C, D])[..], &[SvPc(0x77), Cnt(4), R(A), S(B)]].concat();
    r.step(r.idle().de_group(2).save(2).restore(3, 5, &[E, D, C, B], 0x55), &sv)?;
    // c8: group 3 read back; restore group 2 with 2 entries of [C, D, A, B] beside a BEZ of
    // group 2 (on A: Z 0, not taken), whose pop the restore overrides.
    let sv = [&r.sv(4, &[E, D, C, B])[..], &[SvPc(0x55), Cnt(4), R(A), Taken(false)]].concat();
    r.step(r.idle().de_group(2).bez().save(3).restore(2, 2, &[C, D, A, B], 0x22), &sv)?;
    // c9: group 2 is [C, D] (entries 2, 3 read 0) at 0x22; PU E on it.
    let sv = [&r.sv(2, &[C, D])[..], &[SvPc(0x22), Cnt(2), R(C), S(D)]].concat();
    r.step(r.pu(2, E).de_group(2).save(2), &sv)?;
    // c10: [E, C, D], entry 3 reads 0. Under pc_hold, restore group 0 to [B] at 0x40 beside
    // an EX0 PO of group 0 on its empty stack: the restore wins over the pop and the hold,
    // the overridden pop still sets err_udf.
    let sv = [&r.sv(3, &[E, C, D])[..], &[Udf(false)]].concat();
    r.step(r.idle().pop(0).hold().save(2).restore(0, 1, &[B], 0x40), &sv)?;
    // c11: group 0 is [B] at 0x40. A BEZ of group 0 on B (taken to 0x68) in the cycle that
    // restores group 0 to empty at 0x10 (group 1 fetched: pc1, restored to 3 in c5, -> 4).
    let sv = [&r.sv(1, &[B])[..], &[SvPc(0x40), Pc(3), Cnt(1), R(B), Udf(true)]].concat();
    let inp = r.idle().bez().at(0x60, 0x8).fe_group(1).save(0).restore(0, 0, &[], 0x10);
    r.step(inp, &sv)?;
    // c12: group 0 restored to 0x10, its T0 pending: it lands over the restored pc. PU A on
    // group 3 (full): an overflow there, the bottom B is dropped.
    r.step(r.pu(3, A).fe_group(0), &[Pc(0x10), T0(true), T0tg(0), T0pc(0x68), Cnt(0), Ovf(false)])?;
    // c13: pc0 is 0x68; group 3 is [A, E, D, C]; group 1 kept [D, C, B, A].
    let sv = [&r.sv(4, &[A, E, D, C])[..], &[SvPc(0x55), Pc(0x68), Ovf(true), Cnt(4), R(D), S(C)]].concat();
    r.step(r.idle().fe_group(0).de_group(1).save(3), &sv)?;
    r.step(r.idle().fe_group(1), &[Pc(4)])
}
