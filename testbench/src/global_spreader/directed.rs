//! Directed test cases: spec §5.12 TC-01…TC-29 under the block contract (§7 of
//! `docs/contracts/global_spreader.md`), the contract's new cases TC-30…TC-34, and cases X01…
//! for the readings the model's author had to choose. Expected values are written by
//! hand from the spec and the contract; none is computed by a model.
//!
//! Conventions. Every case starts with one reset cycle; the next cycle is c0. Each cycle
//! is eval(inputs) → check the listed outputs → tick. The directed EU (contract §7
//! setup): `ar_ready` = 1 and `ar_refuse` = 0 for every EU unless a case says otherwise,
//! and `ar_ent[e]` = the number of acks EU e has given so far (0, 1, 2, …). No credits
//! unless stated. "t0" is the transfer cycle of a packet and "req" its request cycle,
//! which is its ack cycle with the directed EU. Defaults: 5 EUs, RES_TOTAL 64, EDT_TOTAL
//! 256, VGRP 8, 256-entry VDT and PT, EN and LOCALITY on, YIELD off, PRIO 0,1,2,3,4.
//! Packet ids (`src_addr`) are 0x100 + n; each case uses free PrIDs.
//!
//! Readings and additions (contract ambiguities the model resolves the same way):
//! * TC-08 is run twice: with a gap, and back to back (the triangle transfers in the
//!   vertex's request cycle and is requested in the next one, seeing the VDT write).
//! * TC-09 adds a third triangle (17, 9, 10) whose majority EU (1) is not v0's EU (3).
//! * TC-12/both: ack and refuse together → ack (R8).
//! * TC-16 and TC-24 run the random stimulus through the DUT with the invariant checker
//!   (TC-16: I3 every cycle; TC-24: conservation and liveness, then a drain).
//! * TC-17 holds a request to EU1 while EU0 does not fit: REJECT_CNT[0] counts once.
//! * TC-18 (no `dm` channel) checks `ar_src_addr`, `ar_copy_size` and `ar_footprint` =
//!   size + FRAME_RES for every type.
//! * TC-19/auto: a non-indexed patch rounds AUTO_IDX up to 16.
//! * X01: `cr_res`/`cr_edt`/`cr_type` are ignored without `cr_valid`.
//! * X02: EDT_TOTAL stores min(cfg_wdata, 2^ENT_W) of the full write data (0x200 → 256).
//! * X03: a footprint >= 2^RES_W never fits (not truncated).
//! * X04: MIN_RES is a threshold on free resources (O4), not a reserve.
//! * X05: register widths and absent registers (PRIO masked to PRIO_W bits, values
//!   >= N_EU are empty slots and skipped, duplicates skipped, AUTO_IDX low bits 0, RO
//!   registers ignore writes, registers of absent types and EUs read 0).
//! * X06: a refused mask is cleared by a cycle without sel also while the slot's
//!   request is held; the refusal at the end of the hold is kept (mask = {e}).
//! * X07: REJECT_CNT counts a candidate that fails fit even if it is also masked.

use super::model::{reg, PATCH, PIX, TRI, VTX};
use super::stimulus::{put, GlobalSpreaderStimulus, Invariants};
use super::{Dut, GlobalSpreader, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams};
use super::model::Packet;

/// The parameter set a case runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsKind {
    /// Contract defaults (5 EUs).
    Default,
    /// One EU.
    OneEu,
    /// 16 EUs.
    Eu16,
    /// Types vertex and triangle only.
    VtxTri,
}

impl ParamsKind {
    pub fn params(self) -> GlobalSpreaderParams {
        match self {
            ParamsKind::Default => GlobalSpreaderParams::default(),
            ParamsKind::OneEu => GlobalSpreaderParams::with_eus(1),
            ParamsKind::Eu16 => GlobalSpreaderParams::with_eus(16),
            ParamsKind::VtxTri => GlobalSpreaderParams { types: [true, true, false, false], ..Default::default() },
        }
    }
}

pub type CaseFn = fn(&mut dyn Dut<GlobalSpreader>) -> Result<(), String>;

/// Every directed case with the parameter set it needs.
pub fn all_cases() -> Vec<(&'static str, ParamsKind, CaseFn)> {
    use ParamsKind::*;
    vec![
        ("TC-01", Default, tc01_reset as CaseFn),
        ("TC-01/16eu", Eu16, tc01_reset_16),
        ("TC-02", Default, tc02_indexed_vertex),
        ("TC-03", Default, tc03_auto_index),
        ("TC-04", Default, tc04_first_fit),
        ("TC-05", Default, tc05_back_pressure),
        ("TC-06", Default, tc06_min_res),
        ("TC-07", Default, tc07_enable_dedicated),
        ("TC-08", Default, tc08_locality),
        ("TC-08/b2b", Default, tc08_back_to_back),
        ("TC-09", Default, tc09_majority),
        ("TC-10", Default, tc10_home_full),
        ("TC-11", Default, tc11_pixels),
        ("TC-12", Default, tc12_refusal),
        ("TC-12/both", Default, tc12_ack_and_refuse),
        ("TC-13", Default, tc13_credit_and_debit),
        ("TC-14", Default, tc14_class_priority),
        ("TC-15", Default, tc15_yield),
        ("TC-16", Default, tc16_invariants),
        ("TC-16/1eu", OneEu, tc16_invariants),
        ("TC-17", Default, tc17_sticky_hold),
        ("TC-18", Default, tc18_payload),
        ("TC-19", Default, tc19_patch),
        ("TC-19/auto", Default, tc19_patch_auto),
        ("TC-20", Default, tc20_vdt_block),
        ("TC-21", Default, tc21_pt_block),
        ("TC-22", Default, tc22_eu_enable),
        ("TC-23", Default, tc23_counters),
        ("TC-24", Default, tc24_stress),
        ("TC-25", Default, tc25_malformed),
        ("TC-26", Default, tc26_enable),
        ("TC-27", Default, tc27_no_locality),
        ("TC-28", Default, tc28_retained),
        ("TC-29", Default, tc29_vdt_miss),
        ("TC-30", Default, tc30_patch_malformed),
        ("TC-31", Default, tc31_bad_release),
        ("TC-32", Default, tc32_credit_overflow),
        ("TC-33", Default, tc33_sticky_disabled),
        ("TC-34", OneEu, tc34_refusal_retry),
        ("TC-34/5eu", Default, tc34_all_refuse),
        ("X01", Default, x01_credit_gating),
        ("X02", Default, x02_edt_total_min),
        ("X03", Default, x03_footprint_overflow),
        ("X04", Default, x04_min_res_threshold),
        ("X05", Default, x05_registers),
        ("X05/vtx-tri", VtxTri, x05_absent_types),
        ("X06", Default, x06_mask_under_hold),
        ("X07", Default, x07_reject_masked),
    ]
}

/// Run every case on a fresh DUT from `make`; all failures, one per line.
pub fn run_all(make: &mut dyn FnMut(&GlobalSpreaderParams) -> Box<dyn Dut<GlobalSpreader>>) -> Result<(), String> {
    let cases = all_cases().into_iter().map(|(name, kind, case)| (name, (kind, case)));
    crate::kit::run_cases(cases, |(kind, case)| case(make(&kind.params()).as_mut()))
}

// ---- expected values ------------------------------------------------------------------

/// One expected output value.
#[derive(Debug, Clone, Copy)]
enum Exp {
    /// `*_ready` by type code.
    Ready(usize, bool),
    /// Request to EU e (`ar_valid` = 1 << e).
    Req(usize),
    NoReq,
    Type(usize),
    Fp(u64),
    Copy(u64),
    Src(u64),
    Vcount(u64),
    Base(u64),
    Prid(u64),
    PixMask(u64),
    Global(bool),
    RefValid(u64),
    RefEu([u64; 3]),
    RefEnt([u64; 3]),
    RefElem([u64; 3]),
    RefGrp([u64; 3]),
    Busy(bool),
    Stall(bool),
    Avail(u64),
    /// Error flag by index (0 vdt_miss, 1 pt_miss, 2 malformed, 3 credit, 4 release).
    Flag(usize, bool),
    NoErr,
    Slots(u64),
    FreeRes(usize, u64),
    FreeEdt(usize, u64),
    Vdt(usize, bool),
    Pt(usize, bool),
    Rvalid(bool),
    Rdata(u64),
}
use Exp::*;

const ERR_NAMES: [&str; 5] = ["err_vdt_miss", "err_pt_miss", "err_malformed", "err_credit", "err_release"];

impl Exp {
    fn mismatch(self, o: &GlobalSpreaderOutputs) -> Option<String> {
        let b = |x: bool| u64::from(x);
        let (sig, e, a): (String, String, String) = match self {
            Ready(t, v) => (format!("ready[{t}]"), b(v).to_string(), b(o.ready(t)).to_string()),
            Req(e) => ("ar_valid".into(), format!("{:#b}", 1u64 << e), format!("{:#b}", o.ar_valid)),
            NoReq => ("ar_valid".into(), format!("{:#b}", 0), format!("{:#b}", o.ar_valid)),
            Type(t) => ("ar_type".into(), t.to_string(), o.ar_type.to_string()),
            Fp(v) => ("ar_footprint".into(), v.to_string(), o.ar_footprint.to_string()),
            Copy(v) => ("ar_copy_size".into(), v.to_string(), o.ar_copy_size.to_string()),
            Src(v) => ("ar_src_addr".into(), format!("{v:#x}"), format!("{:#x}", o.ar_src_addr)),
            Vcount(v) => ("ar_vcount".into(), v.to_string(), o.ar_vcount.to_string()),
            Base(v) => ("ar_base_idx".into(), format!("{v:#x}"), format!("{:#x}", o.ar_base_idx)),
            Prid(v) => ("ar_prid".into(), v.to_string(), o.ar_prid.to_string()),
            PixMask(v) => ("ar_pix_mask".into(), format!("{v:#x}"), format!("{:#x}", o.ar_pix_mask)),
            Global(v) => ("ar_global_ref".into(), b(v).to_string(), b(o.ar_global_ref).to_string()),
            RefValid(v) => ("ar_ref_valid".into(), format!("{v:#05b}"), format!("{:#05b}", o.ar_ref_valid)),
            RefEu(v) => ("ar_ref_eu".into(), format!("{v:?}"), format!("{:?}", o.ar_ref_eu)),
            RefEnt(v) => ("ar_ref_ent".into(), format!("{v:?}"), format!("{:?}", o.ar_ref_ent)),
            RefElem(v) => ("ar_ref_elem".into(), format!("{v:?}"), format!("{:?}", o.ar_ref_elem)),
            RefGrp(v) => ("ar_ref_grp".into(), format!("{v:?}"), format!("{:?}", o.ar_ref_grp)),
            Busy(v) => ("busy".into(), b(v).to_string(), b(o.busy).to_string()),
            Stall(v) => ("stall".into(), b(v).to_string(), b(o.stall).to_string()),
            Avail(v) => ("eu_avail_cnt".into(), v.to_string(), o.eu_avail_cnt.to_string()),
            Flag(k, v) => (ERR_NAMES[k].into(), b(v).to_string(), b(o.errs()[k]).to_string()),
            NoErr => ("err_*".into(), format!("{:?}", [0u8; 5]), format!("{:?}", o.errs().map(u8::from))),
            Slots(v) => ("st_slot_valid".into(), format!("{v:#06b}"), format!("{:#06b}", o.st_slot_valid)),
            FreeRes(e, v) => (format!("st_free_res[{e}]"), v.to_string(), format!("{:?}", o.st_free_res.get(e))),
            FreeEdt(e, v) => (format!("st_free_edt[{e}]"), v.to_string(), format!("{:?}", o.st_free_edt.get(e))),
            Vdt(s, v) => (format!("st_vdt_valid[{s}]"), b(v).to_string(), format!("{:?}", o.st_vdt_valid.get(s).map(|&x| b(x)))),
            Pt(s, v) => (format!("st_pt_valid[{s}]"), b(v).to_string(), format!("{:?}", o.st_pt_valid.get(s).map(|&x| b(x)))),
            Rvalid(v) => ("cfg_rvalid".into(), b(v).to_string(), b(o.cfg_rvalid).to_string()),
            Rdata(v) => ("cfg_rdata".into(), format!("{v:#x}"), format!("{:#x}", o.cfg_rdata)),
        };
        let ok = match self {
            FreeRes(_, _) | FreeEdt(_, _) => a == format!("Some({e})"),
            Vdt(_, _) | Pt(_, _) => a == format!("Some({e})"),
            _ => e == a,
        };
        (!ok).then(|| format!("{sig} expected {e}, actual {a}"))
    }
}

/// The payload fields of a request that are 0 for a type (checked as such).
fn zero_refs() -> [Exp; 6] {
    [RefValid(0), RefEu([0; 3]), RefEnt([0; 3]), RefElem([0; 3]), RefGrp([0; 3]), Global(false)]
}

// ---- packets and EU answers ------------------------------------------------------------

/// Indexed vertex packet.
fn vtx(i: GlobalSpreaderInputs, base: u64, count: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: VTX, indexed: true, base_idx: base, count, size, src_addr: id, ..Default::default() })
}
/// Non-indexed vertex packet (its base field carries 0xDEAD).
fn vtx_auto(i: GlobalSpreaderInputs, count: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: VTX, indexed: false, base_idx: 0xDEAD, count, size, src_addr: id, ..Default::default() })
}
/// Indexed triangle packet.
fn tri(i: GlobalSpreaderInputs, v: [u64; 3], prid: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: TRI, indexed: true, vidx: v, prid, size, src_addr: id, ..Default::default() })
}
/// Non-indexed triangle packet (its vertex fields carry garbage).
fn tri_ni(i: GlobalSpreaderInputs, prid: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: TRI, indexed: false, vidx: [3, 4, 5], prid, size, src_addr: id, ..Default::default() })
}
fn pix(i: GlobalSpreaderInputs, tri: u64, mask: u64, last: bool, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: PIX, prid: tri, mask, last, size, src_addr: id, ..Default::default() })
}
fn patch(i: GlobalSpreaderInputs, base: u64, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: PATCH, indexed: true, base_idx: base, size, src_addr: id, ..Default::default() })
}
fn patch_auto(i: GlobalSpreaderInputs, size: u64, id: u64) -> GlobalSpreaderInputs {
    pkt(i, Packet { ty: PATCH, indexed: false, base_idx: 0x3, size, src_addr: id, ..Default::default() })
}
fn pkt(mut i: GlobalSpreaderInputs, k: Packet) -> GlobalSpreaderInputs {
    put(&mut i, &k, true);
    i
}
/// EU e neither acks nor refuses.
fn hold(mut i: GlobalSpreaderInputs, e: usize) -> GlobalSpreaderInputs {
    i.ar_ready &= !(1 << e);
    i.ar_refuse &= !(1 << e);
    i
}
/// EU e refuses.
fn refuse(mut i: GlobalSpreaderInputs, e: usize) -> GlobalSpreaderInputs {
    i.ar_ready &= !(1 << e);
    i.ar_refuse |= 1 << e;
    i
}
fn credit(mut i: GlobalSpreaderInputs, e: usize, res: u64, edt: bool, ty: usize) -> GlobalSpreaderInputs {
    i.cr_valid |= 1 << e;
    i.cr_res[e] = res;
    i.cr_edt |= u64::from(edt) << e;
    i.cr_type[e] = ty as u64;
    i
}
fn vr(mut i: GlobalSpreaderInputs, e: usize, slot: u64) -> GlobalSpreaderInputs {
    i.vr_valid |= 1 << e;
    i.vr_slot[e] = slot;
    i
}
fn pr(mut i: GlobalSpreaderInputs, e: usize, id: u64) -> GlobalSpreaderInputs {
    i.pr_valid |= 1 << e;
    i.pr_id[e] = id;
    i
}

// ---- the runner ------------------------------------------------------------------------

/// A case in progress.
struct Run<'a> {
    case: &'static str,
    dut: &'a mut dyn Dut<GlobalSpreader>,
    p: GlobalSpreaderParams,
    cycle: u32,
    /// Next `ar_ent` per EU (the directed EU's record numbers).
    ents: Vec<u64>,
}

impl<'a> Run<'a> {
    /// One reset cycle; the next cycle is c0.
    fn new(case: &'static str, dut: &'a mut dyn Dut<GlobalSpreader>) -> Self {
        let p = dut.params().clone();
        dut.eval(&GlobalSpreaderInputs::idle(&p).with_reset());
        dut.tick();
        let n = p.eus;
        Run { case, dut, p, cycle: 0, ents: vec![0; n] }
    }

    /// The directed EU: every EU acks, with its next record number.
    fn inp(&self) -> GlobalSpreaderInputs {
        let mut i = GlobalSpreaderInputs::idle(&self.p);
        i.ar_ready = self.p.eu_mask();
        i.ar_ent = self.ents.clone();
        i
    }

    /// One cycle: eval, check, tick. Returns the outputs.
    fn step(&mut self, inp: GlobalSpreaderInputs, exp: &[Exp]) -> Result<GlobalSpreaderOutputs, String> {
        let o = self.dut.eval(&inp);
        let bad: Vec<String> = exp.iter().filter_map(|x| x.mismatch(&o)).collect();
        if !bad.is_empty() {
            return Err(format!("{} c{}: {}", self.case, self.cycle, bad.join("; ")));
        }
        if let Some(e) = o.target() {
            if inp.ar_ready >> e & 1 == 1 {
                self.ents[e] += 1;
            }
        }
        self.dut.tick();
        self.cycle += 1;
        Ok(o)
    }

    /// `n` cycles of the same inputs and checks.
    fn repeat(&mut self, n: u32, inp: GlobalSpreaderInputs, exp: &[Exp]) -> Result<(), String> {
        for _ in 0..n {
            self.step(inp.clone(), exp)?;
        }
        Ok(())
    }

    fn idle(&mut self, exp: &[Exp]) -> Result<GlobalSpreaderOutputs, String> {
        let i = self.inp();
        self.step(i, exp)
    }

    fn write(&mut self, addr: u64, data: u64) -> Result<(), String> {
        let i = self.inp().write(addr, data);
        self.step(i, &[]).map(|_| ())
    }

    /// Read `addr` in this cycle and check `cfg_rdata` in the next (two idle cycles).
    fn expect_reg(&mut self, addr: u64, value: u64) -> Result<(), String> {
        let i = self.inp().read(addr);
        self.step(i, &[])?;
        let r = self.idle(&[Rvalid(true), Rdata(value)]);
        r.map(|_| ()).map_err(|e| format!("{e} (register {addr:#05x})"))
    }

    /// The contract's reset state of the outputs.
    fn reset_state(&self) -> Vec<Exp> {
        let mut v = vec![NoReq, Busy(false), Stall(false), NoErr, Slots(0), Rvalid(false), Avail(self.p.eus as u64)];
        for t in 0..4 {
            v.push(Ready(t, self.p.has(t)));
        }
        for e in 0..self.p.eus {
            v.push(FreeRes(e, 64));
            v.push(FreeEdt(e, 256));
        }
        v
    }
}

// ---- the cases -------------------------------------------------------------------------

fn reset_checks(r: &mut Run) -> Result<(), String> {
    let exp = r.reset_state();
    r.idle(&exp)?;
    let n = r.p.eus;
    r.expect_reg(reg::CTRL, 0x3)?;
    r.expect_reg(reg::EU_ENABLE, (1 << n) - 1)?;
    r.expect_reg(reg::AUTO_IDX, 0)?;
    r.expect_reg(reg::STATUS, 0)?;
    r.expect_reg(reg::STALL_CNT, 0)?;
    for s in 0..n {
        r.expect_reg(reg::prio(VTX, s), s as u64)?;
        r.expect_reg(reg::prio(PIX, s), s as u64)?;
    }
    r.expect_reg(reg::prio(VTX, n), 0)?; // s >= N_EU reads 0
    for e in [0, n - 1] {
        r.expect_reg(reg::res_total(e), 64)?;
        r.expect_reg(reg::free_res(e), 64)?;
        r.expect_reg(reg::edt_total(e), 256)?;
        r.expect_reg(reg::free_edt(e), 256)?;
        r.expect_reg(reg::reject_cnt(e), 0)?;
        r.expect_reg(reg::nack_cnt(e), 0)?;
        r.expect_reg(reg::alloc_cnt(e, TRI), 0)?;
        r.expect_reg(reg::pend(e, TRI), 0)?;
    }
    r.expect_reg(reg::res_total(n), 0)?; // e >= N_EU
    for t in 0..4 {
        r.expect_reg(reg::ded_mask(t), (1 << n) - 1)?;
        r.expect_reg(reg::min_res(t), 0)?;
        r.expect_reg(reg::frame_res(t), 0)?;
    }
    r.expect_reg(0x005, 0)?; // unmapped
    r.expect_reg(0x3FF, 0)?;
    Ok(())
}

/// TC-01: reset values; PRIO[t][s] reads s; every `*_ready` is 1 after reset. A reset in
/// the middle of activity returns to the same state.
pub fn tc01_reset(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-01", dut);
    r.idle(&[Rvalid(false), Rdata(0)])?;
    reset_checks(&mut r)?;
    // Activity, then reset: a packet held in its slot, a changed CTRL, an error flag.
    r.write(reg::CTRL, 0x4 | 0x1)?;
    r.write(reg::AUTO_IDX, 0x80)?;
    let i = hold(vtx(r.inp(), 0, 8, 4, 0x100), 0);
    r.step(i.clone(), &[])?;
    let i = credit(vtx(hold(r.inp(), 0), 8, 8, 4, 0x101), 1, 5, false, VTX);
    r.step(i, &[Req(0), Busy(true), Ready(VTX, false)])?; // held; credit overflow on EU1
    r.idle(&[Flag(3, true), FreeEdt(0, 256)])?; // acked now
    let i = GlobalSpreaderInputs::idle(&r.p).with_reset();
    r.dut.eval(&i);
    r.dut.tick();
    r.cycle += 1;
    r.ents = vec![0; r.p.eus];
    reset_checks(&mut r)
}

/// TC-01 on 16 EUs.
pub fn tc01_reset_16(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-01/16eu", dut);
    reset_checks(&mut r)?;
    r.expect_reg(reg::prio(TRI, 15), 15)?;
    r.expect_reg(reg::res_total(15), 64)
}

/// TC-02: indexed vertex packet base 0, count 8, size 4: request to EU0 at t0+1, state
/// visible at t0+2; VDT slot 0 = {EU0, ent 0} (seen by a triangle).
pub fn tc02_indexed_vertex(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-02", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x101);
    r.step(i, &[Ready(VTX, true), NoReq, Busy(false)])?; // t0
    let mut exp = vec![Req(0), Type(VTX), Fp(4), Copy(4), Src(0x101), Vcount(8), Base(0), Prid(0), PixMask(0)];
    exp.extend([Busy(true), Stall(false), Slots(1), Ready(VTX, true), FreeRes(0, 64)]);
    exp.extend(zero_refs());
    r.idle(&exp)?; // t0+1
    r.idle(&[NoReq, Busy(false), Slots(0), FreeRes(0, 60), FreeEdt(0, 255), Vdt(0, true), Vdt(1, false), NoErr])?;
    r.expect_reg(reg::pend(0, VTX), 1)?;
    r.expect_reg(reg::alloc_cnt(0, VTX), 1)?;
    r.expect_reg(reg::free_res(0), 60)?;
    r.expect_reg(reg::free_edt(0), 255)?;
    r.expect_reg(reg::AUTO_IDX, 0)?; // indexed: no advance
    let i = tri(r.inp(), [0, 1, 2], 1, 2, 0x102);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(TRI), RefValid(0b111), RefEu([0; 3]), RefEnt([0; 3]), RefElem([0, 1, 2]), Global(false), Vcount(3), Prid(1), Base(0)])?;
    Ok(())
}

/// TC-03: AUTO_IDX ← 0x40; a non-indexed vertex packet (base field 0xDEAD) gets base
/// 0x40, writes VDT slot 8 (not 0xD5), AUTO_IDX reads 0x48.
pub fn tc03_auto_index(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-03", dut);
    r.write(reg::AUTO_IDX, 0x40)?;
    let i = vtx_auto(r.inp(), 8, 4, 0x103);
    r.step(i, &[])?; // t0
    r.idle(&[Req(0), Base(0x40), Vcount(8), Type(VTX)])?; // t0+1
    r.idle(&[Vdt(8, true), Vdt(0xD5, false), Vdt(0, false), FreeRes(0, 60)])?; // t0+2
    r.expect_reg(reg::AUTO_IDX, 0x48)
}

/// RES_TOTAL 8 everywhere, then five non-indexed vertex packets of size 8 back to back:
/// packet i transfers at t0+i and is requested at t0+1+i to EU i. Returns t0 (cycle).
fn five_full_eus(r: &mut Run) -> Result<(), String> {
    for e in 0..5 {
        r.write(reg::res_total(e), 8)?;
    }
    let i = vtx_auto(r.inp(), 8, 8, 0x110);
    r.step(i, &[Ready(VTX, true), NoReq])?; // t0: packet 0 transfers
    for k in 0..5u64 {
        // t0+1+k: packet k requested to EU k; packet k+1 transfers (ready by the ack).
        let i = if k < 4 { vtx_auto(r.inp(), 8, 8, 0x111 + k) } else { r.inp() };
        let exp = [Req(k as usize), Src(0x110 + k), Base(8 * k), Fp(8), Ready(VTX, true), Stall(false)];
        r.step(i, &exp)?;
    }
    Ok(())
}

/// TC-04: first fit over the candidates; REJECT_CNT = {4, 3, 2, 1, 0}.
pub fn tc04_first_fit(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-04", dut);
    five_full_eus(&mut r)?;
    r.idle(&[NoReq, Busy(false), FreeRes(0, 0), FreeRes(4, 0), FreeEdt(4, 255)])?;
    for (e, n) in [4, 3, 2, 1, 0].into_iter().enumerate() {
        r.expect_reg(reg::reject_cnt(e), n)?;
    }
    Ok(())
}

/// TC-05: a 6th packet transfers, is not requested, `stall` = 1 from t0+1; the 7th sees
/// `vp_ready` = 0; a credit to EU3 in tc → request to EU3 at tc+1.
pub fn tc05_back_pressure(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-05", dut);
    for e in 0..5 {
        r.write(reg::res_total(e), 8)?;
    }
    let i = vtx_auto(r.inp(), 8, 8, 0x110);
    r.step(i, &[])?;
    for k in 0..5u64 {
        // The 6th packet (0x115) transfers in the cycle of the 5th request.
        let i = vtx_auto(r.inp(), 8, 8, 0x111 + k);
        r.step(i, &[Req(k as usize)])?;
    }
    // 6th in its slot from here (t0' + 1); 7th presented, not taken.
    let seventh = vtx_auto(r.inp(), 8, 8, 0x116);
    r.repeat(5, seventh.clone(), &[NoReq, Stall(true), Busy(true), Ready(VTX, false), Slots(1)])?;
    // tc: credit EU3 (cr_res 8, cr_edt), read STALL_CNT (5 stall cycles so far).
    let i = credit(seventh.clone(), 3, 8, true, VTX).read(reg::STALL_CNT);
    r.step(i, &[NoReq, Stall(true), Ready(VTX, false)])?;
    // tc+1: request to EU3, the 7th transfers.
    r.step(seventh, &[Req(3), Src(0x115), Base(40), Ready(VTX, true), FreeRes(3, 8), Rvalid(true), Rdata(5)])?;
    r.idle(&[NoReq, Stall(true), FreeRes(3, 0), Slots(1)])?;
    r.expect_reg(reg::reject_cnt(0), 5)?;
    r.expect_reg(reg::reject_cnt(2), 3)?;
    r.expect_reg(reg::reject_cnt(3), 1)?;
    r.expect_reg(reg::reject_cnt(4), 0)?;
    r.expect_reg(reg::pend(3, VTX), 1)?;
    r.expect_reg(reg::alloc_cnt(3, VTX), 2)
}

/// TC-06: RES_TOTAL {8, 8, 32, 64, 64}, MIN_RES[VTX] 16, size 4: EU0/EU1 skipped
/// although 8 >= 4; request at t0+1 to EU2; REJECT_CNT[0] = [1] = 1.
pub fn tc06_min_res(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-06", dut);
    r.write(reg::res_total(0), 8)?;
    r.write(reg::res_total(1), 8)?;
    r.write(reg::res_total(2), 32)?;
    r.write(reg::min_res(VTX), 16)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x106);
    r.step(i, &[])?;
    r.idle(&[Req(2), Fp(4)])?;
    r.idle(&[FreeRes(2, 28), FreeRes(0, 8)])?;
    r.expect_reg(reg::reject_cnt(0), 1)?;
    r.expect_reg(reg::reject_cnt(1), 1)?;
    r.expect_reg(reg::reject_cnt(2), 0)
}

/// TC-07: EU_ENABLE 0b11110, DED_MASK[PIX] 0b10000: the triangle goes to EU1, its pixel
/// to EU4 (global ref to EU1); with EU4 full a pixel stalls while other EUs are free.
pub fn tc07_enable_dedicated(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-07", dut);
    r.write(reg::EU_ENABLE, 0b11110)?;
    r.write(reg::ded_mask(PIX), 0b10000)?;
    let i = tri_ni(r.inp(), 2, 3, 0x107);
    r.step(i, &[Avail(4)])?; // t0 (triangle)
    let i = pix(r.inp(), 2, 0x0F0F, false, 1, 0x108);
    r.step(i, &[Req(1), Type(TRI), Prid(2), RefValid(0), Global(false)])?; // pixel transfers
    let exp = [Req(4), Type(PIX), Prid(2), PixMask(0x0F0F), RefValid(0b001), RefEu([1, 0, 0]), RefEnt([0; 3]), Global(true), Vcount(0), Fp(1)];
    r.step(r.inp().write(reg::res_total(4), 0), &exp)?; // and EU4 becomes full
    let i = pix(r.inp(), 2, 0x1, false, 1, 0x109);
    r.step(i, &[NoReq, FreeRes(4, 0), Pt(2, true)])?; // transfers
    r.repeat(4, r.inp(), &[NoReq, Stall(true), FreeRes(1, 61), Avail(4)])?;
    Ok(())
}

/// Vertex group 0 (indices 0–7) to EU2 via PRIO[VTX] = 2, 0, 1, 3, 4.
fn prio_vtx_eu2(r: &mut Run) -> Result<(), String> {
    r.write(reg::prio(VTX, 0), 2)?;
    r.write(reg::prio(VTX, 1), 0)?;
    r.write(reg::prio(VTX, 2), 1)
}

/// TC-08: vertex group 0 on EU2; triangle (0, 1, 2) PrID 5 goes to EU2 (locality) with a
/// local reference; PT[5] = {EU2, ent 1} (seen by a pixel).
pub fn tc08_locality(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-08", dut);
    prio_vtx_eu2(&mut r)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x180);
    r.step(i, &[])?;
    r.idle(&[Req(2)])?;
    r.idle(&[Vdt(0, true)])?;
    let i = tri(r.inp(), [0, 1, 2], 5, 2, 0x181);
    r.step(i, &[])?; // t0
    let exp = [Req(2), Type(TRI), Global(false), RefValid(0b111), RefEu([2; 3]), RefEnt([0; 3]), RefElem([0, 1, 2]), RefGrp([0; 3]), Prid(5), Vcount(3), Base(0)];
    r.idle(&exp)?; // t0+1 (ack)
    r.idle(&[Pt(5, true), FreeRes(2, 58)])?;
    let i = pix(r.inp(), 5, 0xFFFF, false, 1, 0x182);
    r.step(i, &[])?;
    r.idle(&[Req(2), RefValid(1), RefEu([2, 0, 0]), RefEnt([1, 0, 0]), Global(false)])?;
    Ok(())
}

/// TC-08 back to back: the triangle transfers in the vertex's request cycle and is
/// requested in the next one, with the VDT entry of that ack (no bubble).
pub fn tc08_back_to_back(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-08/b2b", dut);
    prio_vtx_eu2(&mut r)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x180);
    r.step(i, &[])?; // vertex t0
    let i = tri(r.inp(), [0, 1, 2], 5, 2, 0x181);
    r.step(i, &[Req(2), Type(VTX), Vdt(0, false)])?; // vertex acked, triangle transfers
    r.idle(&[Req(2), Type(TRI), Global(false), RefValid(0b111), RefEu([2; 3]), RefElem([0, 1, 2])])?;
    Ok(())
}

/// TC-09: groups 0 → EU2, 1 → EU1, 2 → EU3. Triangle (9, 10, 17) → EU1 (majority), global;
/// (1, 9, 17) → EU2 (v0's EU); (17, 9, 10) → EU1 (majority, not v0's EU3).
pub fn tc09_majority(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-09", dut);
    for (base, eu, id) in [(0u64, 2u64, 0x190u64), (8, 1, 0x191), (16, 3, 0x192)] {
        r.write(reg::ded_mask(VTX), 1 << eu)?;
        let i = vtx(r.inp(), base, 8, 4, id);
        r.step(i, &[])?;
        r.idle(&[Req(eu as usize), Base(base)])?;
    }
    let i = tri(r.inp(), [9, 10, 17], 10, 2, 0x193);
    r.step(i, &[])?;
    let exp = [Req(1), Global(true), RefValid(0b111), RefEu([1, 1, 3]), RefEnt([0; 3]), RefElem([1, 2, 1])];
    r.idle(&exp)?;
    let i = tri(r.inp(), [1, 9, 17], 11, 2, 0x194);
    r.step(i, &[])?;
    r.idle(&[Req(2), Global(true), RefValid(0b111), RefEu([2, 1, 3]), RefElem([1, 1, 1])])?;
    let i = tri(r.inp(), [17, 9, 10], 12, 2, 0x195);
    r.step(i, &[])?;
    r.idle(&[Req(1), Global(true), RefEu([3, 1, 1]), RefElem([1, 1, 2])])?;
    Ok(())
}

/// TC-10: RES_TOTAL[2] ← 0 (home full): triangle (0, 1, 2) goes to EU0 (first in PRIO
/// that fits), global ref, refs still to EU2; REJECT_CNT[2] += 1.
pub fn tc10_home_full(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-10", dut);
    prio_vtx_eu2(&mut r)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x1A0);
    r.step(i, &[])?;
    r.idle(&[Req(2)])?;
    r.write(reg::res_total(2), 0)?;
    let i = tri(r.inp(), [0, 1, 2], 13, 2, 0x1A1);
    r.step(i, &[FreeRes(2, 0)])?;
    r.idle(&[Req(0), Global(true), RefValid(0b111), RefEu([2; 3])])?;
    r.expect_reg(reg::reject_cnt(2), 1)?;
    r.expect_reg(reg::reject_cnt(0), 0)
}

/// TC-11: three pixel packets of triangle 6 (on EU1): the first goes to EU1 with ref 0 =
/// the triangle's entity; the second (last) releases PT[6] at its ack; the third misses
/// (err_pt_miss, no refs, EU0).
pub fn tc11_pixels(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-11", dut);
    r.write(reg::prio(TRI, 0), 1)?;
    r.write(reg::prio(TRI, 1), 0)?;
    let i = tri_ni(r.inp(), 6, 2, 0x1B0);
    r.step(i, &[])?;
    r.idle(&[Req(1), Type(TRI)])?;
    let i = pix(r.inp(), 6, 0x00FF, false, 1, 0x1B1);
    r.step(i, &[Pt(6, true)])?; // t0
    let i = pix(r.inp(), 6, 0xFF00, true, 1, 0x1B2);
    let exp = [Req(1), Type(PIX), RefValid(0b001), RefEu([1, 0, 0]), RefEnt([0; 3]), PixMask(0x00FF), Prid(6), Global(false), Vcount(0), Base(0)];
    r.step(i, &exp)?; // t0+1
    let i = pix(r.inp(), 6, 0x0001, false, 1, 0x1B3);
    r.step(i, &[Req(1), PixMask(0xFF00), RefValid(1), Pt(6, true)])?; // t0+2: PT[6] released at this ack
    r.idle(&[Req(0), PixMask(0x0001), RefValid(0), RefEu([0; 3]), Global(false), Pt(6, false), Flag(1, false)])?;
    r.idle(&[Flag(1, true), Flag(0, false)])?;
    r.expect_reg(reg::STATUS, 1 << 3)
}

/// TC-12: EU0 refuses at t0+1, EU1 acks at t0+2; FREE_RES[0] stays 64, NACK_CNT[0] = 1,
/// REJECT_CNT[0] = 0 (mask skips do not count).
pub fn tc12_refusal(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-12", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x1C0);
    r.step(i, &[])?;
    let i = refuse(r.inp(), 0);
    r.step(i, &[Req(0), Ready(VTX, false)])?;
    r.idle(&[Req(1), FreeRes(0, 64), Src(0x1C0)])?;
    r.idle(&[NoReq, FreeRes(0, 64), FreeRes(1, 60)])?;
    r.expect_reg(reg::nack_cnt(0), 1)?;
    r.expect_reg(reg::nack_cnt(1), 0)?;
    r.expect_reg(reg::reject_cnt(0), 0)
}

/// TC-12/both: ack and refuse together are an ack.
pub fn tc12_ack_and_refuse(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-12/both", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x1C0);
    r.step(i, &[])?;
    let mut i = r.inp();
    i.ar_refuse = 1;
    r.step(i, &[Req(0), Ready(VTX, true)])?;
    r.idle(&[NoReq, FreeRes(0, 60), Busy(false)])?;
    r.expect_reg(reg::nack_cnt(0), 0)
}

/// TC-13: a credit to EU0 (4, cr_edt, VTX) in the ack cycle of a second 4-unit vertex:
/// FREE_RES 60 → 60, FREE_EDT 255, PEND[0][VTX] 1 (+1 −1), ALLOC_CNT[0][VTX] 2.
pub fn tc13_credit_and_debit(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-13", dut);
    let i = vtx_auto(r.inp(), 8, 4, 0x1D0);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = vtx_auto(r.inp(), 8, 4, 0x1D1);
    r.step(i, &[FreeRes(0, 60), FreeEdt(0, 255)])?;
    let i = credit(r.inp(), 0, 4, true, VTX);
    r.step(i, &[Req(0), Base(8)])?;
    r.idle(&[FreeRes(0, 60), FreeEdt(0, 255), NoErr])?;
    r.expect_reg(reg::pend(0, VTX), 1)?;
    r.expect_reg(reg::alloc_cnt(0, VTX), 2)
}

/// TC-14: pixel and vertex transfer together: pixel request t0+1, vertex t0+2.
pub fn tc14_class_priority(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-14", dut);
    let i = tri_ni(r.inp(), 7, 2, 0x1E0);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = vtx(pix(r.inp(), 7, 0xF, false, 1, 0x1E1), 0, 8, 4, 0x1E2);
    r.step(i, &[Ready(VTX, true), Ready(PIX, true)])?; // t0
    r.idle(&[Req(0), Type(PIX), Src(0x1E1), Ready(VTX, false), Ready(PIX, true), Slots(0b101)])?;
    r.idle(&[Req(0), Type(VTX), Src(0x1E2), Slots(0b001)])?;
    r.idle(&[NoReq, Slots(0)])?;
    Ok(())
}

/// TC-15: a pixel that fits nowhere (DED_MASK[PIX] = {4}, EU4 full) and a fitting vertex:
/// YIELD 0 → the vertex waits; YIELD 1 → it goes; RES_TOTAL[4] ← 8 → the pixel to EU4.
/// A vertex that fits nowhere never blocks a pixel.
pub fn tc15_yield(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-15", dut);
    r.write(reg::ded_mask(PIX), 0b10000)?;
    r.write(reg::res_total(4), 0)?;
    let i = vtx(pix(r.inp(), 20, 0x3, false, 1, 0x1F0), 0, 8, 4, 0x1F1);
    r.step(i, &[])?; // both transfer
    r.repeat(5, r.inp(), &[NoReq, Stall(true), Slots(0b101)])?;
    r.write(reg::CTRL, 0b111)?; // YIELD on (this cycle still no request)
    r.idle(&[Req(0), Type(VTX), Src(0x1F1)])?;
    r.repeat(2, r.inp(), &[NoReq, Stall(true), Slots(0b100)])?;
    r.write(reg::res_total(4), 8)?;
    r.idle(&[Req(4), Type(PIX), Src(0x1F0)])?;
    // YIELD off; a vertex of size 100 (fits nowhere) then a pixel that fits.
    r.write(reg::CTRL, 0b011)?;
    let i = vtx(r.inp(), 64, 8, 100, 0x1F2);
    r.step(i, &[])?;
    r.repeat(2, r.inp(), &[NoReq, Stall(true)])?;
    let i = pix(r.inp(), 21, 0x3, false, 1, 0x1F3);
    r.step(i, &[NoReq])?;
    r.idle(&[Req(4), Type(PIX), Src(0x1F3)])?;
    r.idle(&[NoReq, Stall(true), Slots(0b001)])?;
    Ok(())
}

/// Random stimulus through the DUT with the invariant checker; `drain` then requires the
/// drained state.
fn invariant_run(name: &'static str, dut: &mut dyn Dut<GlobalSpreader>, seed: u64, cycles: u64, drain: bool) -> Result<(), String> {
    let p = dut.params().clone();
    let mut stim = GlobalSpreaderStimulus::new(&p, seed);
    let mut inv = Invariants::new(&p, true);
    let mut last = GlobalSpreaderOutputs::default();
    let mut n = 0;
    while n < cycles || (drain && !stim.drained()) {
        if drain && n == cycles {
            stim.drain();
        }
        if n > cycles + 50_000 {
            return Err(format!("{name}: not drained 50,000 cycles after the drain started"));
        }
        let i = stim.next(&last);
        let o = dut.eval(&i);
        inv.check(&i, &o).map_err(|e| format!("{name} (seed {seed}): {e}"))?;
        dut.tick();
        last = o;
        n += 1;
    }
    if drain {
        inv.finish().map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(())
}

/// TC-16 → I3 (and I1, I2, I4): 5,000 cycles of random stimulus, invariants every cycle.
pub fn tc16_invariants(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    invariant_run("TC-16", dut, 16, 5_000, false)
}

/// TC-17: a request held 12 cycles (EU1 not ready; EU0 does not fit): `ar_valid[1]` and
/// the payload stay, no other request although a triangle fills its slot; ack when
/// `ar_ready` rises; REJECT_CNT[0] counts the held request once.
pub fn tc17_sticky_hold(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-17", dut);
    r.write(reg::res_total(0), 0)?;
    let i = vtx(r.inp(), 16, 5, 4, 0x1A7);
    r.step(i, &[])?; // t0
    let held = [Req(1), Type(VTX), Src(0x1A7), Base(16), Vcount(5), Fp(4), Stall(false)];
    r.step(hold(r.inp(), 1), &held)?; // t0+1
    let i = hold(tri_ni(r.inp(), 3, 2, 0x1A8), 1);
    r.step(i, &held)?; // t0+2: triangle transfers
    let mut exp = held.to_vec();
    exp.push(Slots(0b011));
    r.repeat(10, hold(r.inp(), 1), &exp)?; // t0+3 … t0+12
    r.idle(&exp)?; // t0+13: ack
    r.idle(&[Req(1), Type(TRI), Src(0x1A8)])?;
    r.expect_reg(reg::reject_cnt(0), 2)?;
    r.expect_reg(reg::reject_cnt(1), 0)
}

/// TC-18 (no `dm` channel): `ar_src_addr`, `ar_copy_size` and `ar_type` are the packet's
/// for every type; `ar_footprint` = size + FRAME_RES[type].
pub fn tc18_payload(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-18", dut);
    for t in 0..4 {
        r.write(reg::frame_res(t), t as u64 + 1)?;
    }
    let i = vtx(r.inp(), 0x100, 3, 9, 0xDEAD_BEEF);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(VTX), Src(0xDEAD_BEEF), Copy(9), Fp(10), Vcount(3), Base(0x100)])?;
    let i = tri_ni(r.inp(), 30, 11, 0x1234_5678);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(TRI), Src(0x1234_5678), Copy(11), Fp(13), Vcount(3), Prid(30), Base(0), RefValid(0)])?;
    let i = pix(r.inp(), 30, 0xA5A5, false, 5, 0xFFFF_FFFF);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(PIX), Src(0xFFFF_FFFF), Copy(5), Fp(8), Vcount(0), PixMask(0xA5A5), Prid(30)])?;
    let i = patch(r.inp(), 0x200, 7, 0x8000_0001);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(PATCH), Src(0x8000_0001), Copy(7), Fp(11), Vcount(16), Base(0x200), Prid(0), PixMask(0)])?;
    Ok(())
}

/// TC-19: indexed patch base 32, size 8 → one entity on EU0 in VDT slots 4 and 5 (grp 0,
/// 1); triangle (33, 41, 47) → EU0, local, grp {0, 1, 1}, elem {1, 1, 7}.
pub fn tc19_patch(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-19", dut);
    let i = patch(r.inp(), 32, 8, 0x1B9);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(PATCH), Base(32), Vcount(16), Fp(8)])?;
    r.idle(&[Vdt(4, true), Vdt(5, true), Vdt(3, false), Vdt(6, false), FreeEdt(0, 255), FreeRes(0, 56)])?;
    let i = tri(r.inp(), [33, 41, 47], 14, 2, 0x1BA);
    r.step(i, &[])?;
    r.idle(&[Req(0), Global(false), RefValid(0b111), RefEu([0; 3]), RefEnt([0; 3]), RefGrp([0, 1, 1]), RefElem([1, 1, 7])])?;
    Ok(())
}

/// TC-19/auto: a non-indexed patch takes AUTO_IDX (0x08 after one vertex) rounded up to
/// 16 → base 0x10, slots 2 and 3; AUTO_IDX becomes 0x20.
pub fn tc19_patch_auto(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-19/auto", dut);
    let i = vtx_auto(r.inp(), 8, 4, 0x1BB);
    r.step(i, &[])?;
    r.idle(&[Req(0), Base(0)])?;
    let i = patch_auto(r.inp(), 4, 0x1BC);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(PATCH), Base(0x10)])?;
    r.idle(&[Vdt(2, true), Vdt(3, true), Vdt(1, false), Vdt(0, true)])?;
    r.expect_reg(reg::AUTO_IDX, 0x20)
}

/// TC-20: vertex base 32 + 2048 (slot 4, other tag) while slot 4 is valid: it waits in
/// its slot (stall); EU0 releases slot 4 in r → request r+1.
pub fn tc20_vdt_block(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-20", dut);
    let i = vtx(r.inp(), 32, 8, 4, 0x1C7);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = vtx(r.inp(), 32 + 2048, 8, 4, 0x1C8);
    r.step(i, &[Vdt(4, true)])?;
    r.repeat(4, r.inp(), &[NoReq, Stall(true), Busy(true)])?;
    let i = vr(r.inp(), 0, 4);
    r.step(i, &[NoReq, Stall(true)])?; // r
    r.idle(&[Req(0), Base(2080), Vdt(4, false)])?; // r+1
    r.idle(&[Vdt(4, true), NoErr])?;
    Ok(())
}

/// TC-21: triangle PrID 9 while PT[9] is valid waits; `pr` of 9 in r → request r+1.
pub fn tc21_pt_block(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-21", dut);
    let i = tri_ni(r.inp(), 9, 2, 0x1C9);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = tri_ni(r.inp(), 9, 2, 0x1CA);
    r.step(i, &[Pt(9, true)])?;
    r.repeat(3, r.inp(), &[NoReq, Stall(true)])?;
    let i = pr(r.inp(), 0, 9);
    r.step(i, &[NoReq])?; // r
    r.idle(&[Req(0), Src(0x1CA), Pt(9, false)])?; // r+1
    r.idle(&[Pt(9, true), NoErr])?;
    Ok(())
}

/// TC-22: `eu_avail_cnt` = popcount(EU_ENABLE & FREE_EDT != 0); no request to a disabled
/// EU even if first in PRIO.
pub fn tc22_eu_enable(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-22", dut);
    r.write(reg::EU_ENABLE, 0b11110)?;
    let i = vtx_auto(r.inp(), 8, 4, 0x1D2);
    r.step(i, &[Avail(4)])?;
    r.idle(&[Req(1)])?;
    r.write(reg::edt_total(1), 0)?;
    let i = vtx_auto(r.inp(), 8, 4, 0x1D3);
    r.step(i, &[Avail(3), FreeEdt(1, 0)])?;
    r.idle(&[Req(2)])?; // EU1 has no record
    r.write(reg::EU_ENABLE, 0)?;
    let i = vtx_auto(r.inp(), 8, 4, 0x1D4);
    r.step(i, &[Avail(0)])?;
    r.repeat(3, r.inp(), &[NoReq, Stall(true), Avail(0)])?;
    r.write(reg::EU_ENABLE, 0b00010)?; // only EU1, which has no record
    r.repeat(2, r.inp(), &[NoReq, Avail(0)])?;
    r.write(reg::EU_ENABLE, 0b10001)?;
    r.idle(&[Req(0), Avail(2)])?;
    Ok(())
}

/// TC-23: the counters of D10 after TC-04-like traffic, a refusal and a credit.
pub fn tc23_counters(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-23", dut);
    five_full_eus(&mut r)?;
    // A sixth packet stalls 3 cycles; EU4 is credited; EU4 refuses once, then acks.
    let i = vtx_auto(r.inp(), 8, 8, 0x1E5);
    r.step(i, &[])?;
    r.repeat(3, r.inp(), &[Stall(true)])?;
    let i = credit(r.inp(), 4, 8, true, VTX);
    r.step(i, &[Stall(true)])?;
    r.step(refuse(r.inp(), 4), &[Req(4)])?;
    r.idle(&[NoReq, Stall(true)])?; // no sel (EU4 masked), mask cleared
    r.idle(&[Req(4)])?;
    for e in 0..5 {
        r.expect_reg(reg::alloc_cnt(e, VTX), if e == 4 { 2 } else { 1 })?;
        r.expect_reg(reg::pend(e, VTX), 1)?;
    }
    // 4, +1 for the sixth packet's request (refused), +1 for its new request after the
    // cycle without sel.
    r.expect_reg(reg::reject_cnt(0), 6)?;
    r.expect_reg(reg::reject_cnt(3), 3)?;
    r.expect_reg(reg::reject_cnt(4), 0)?;
    r.expect_reg(reg::nack_cnt(4), 1)?;
    r.expect_reg(reg::STALL_CNT, 5)?;
    r.expect_reg(reg::alloc_cnt(0, TRI), 0)
}

/// TC-24 (as I1/I2): random stress, then a drain: every packet acked once, every EU
/// fully credited, every table entry released.
pub fn tc24_stress(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    invariant_run("TC-24", dut, 24, 4_000, true)
}

/// TC-25: indexed vertex base 3: `err_malformed` from t0+1, no request, busy 0; a
/// STATUS write 0x10 clears it, unless a malformed packet sets it at the same edge.
pub fn tc25_malformed(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-25", dut);
    let i = vtx(r.inp(), 3, 8, 4, 0x1F5);
    r.step(i, &[Ready(VTX, true), Flag(2, false)])?; // t0
    r.idle(&[Flag(2, true), NoReq, Busy(false), Slots(0), Ready(VTX, true)])?;
    r.expect_reg(reg::STATUS, 0x10)?;
    r.write(reg::STATUS, 0x10)?;
    r.idle(&[Flag(2, false), NoErr])?;
    // Count 0, then count 9, with the W1C in the second one's transfer cycle.
    let i = vtx(r.inp(), 8, 0, 4, 0x1F6);
    r.step(i, &[])?;
    let i = vtx(r.inp(), 16, 9, 4, 0x1F7).write(reg::STATUS, 0x10);
    r.step(i, &[Flag(2, true)])?;
    r.idle(&[Flag(2, true), NoReq])?;
    r.write(reg::STATUS, 0x7C)?;
    r.idle(&[NoErr])?;
    Ok(())
}

/// TC-26: EN = 0 → `vp_ready` 0 and `busy` 0 with a packet offered; EN written in w →
/// transfer in w+1. EN = 0 does not stop an occupied slot from dispatching.
pub fn tc26_enable(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-26", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x1F8).write(reg::CTRL, 0b010);
    r.step(i, &[Ready(VTX, true)])?; // transfers while EN is still 1
    let offered = vtx(r.inp(), 8, 8, 4, 0x1F9);
    let all_off = [Ready(VTX, false), Ready(TRI, false), Ready(PIX, false), Ready(PATCH, false)];
    let mut exp = all_off.to_vec();
    exp.extend([Req(0), Src(0x1F8)]);
    r.step(offered.clone(), &exp)?; // the occupied slot still dispatches
    let mut exp = all_off.to_vec();
    exp.extend([NoReq, Busy(false)]);
    r.repeat(3, offered.clone(), &exp)?;
    r.step(offered.clone().write(reg::CTRL, 0b011), &exp)?; // w
    r.step(offered, &[Ready(VTX, true), Busy(false)])?; // w+1: transfer
    r.idle(&[Req(0), Src(0x1F9)])?;
    Ok(())
}

/// TC-27: LOCALITY off: vertices on EU2, the triangle follows PRIO[TRI] (EU0), global.
pub fn tc27_no_locality(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-27", dut);
    prio_vtx_eu2(&mut r)?;
    r.write(reg::CTRL, 0b001)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x170);
    r.step(i, &[])?;
    r.idle(&[Req(2)])?;
    let i = tri(r.inp(), [0, 1, 2], 15, 2, 0x171);
    r.step(i, &[])?;
    r.idle(&[Req(0), Global(true), RefValid(0b111), RefEu([2; 3])])?;
    Ok(())
}

/// TC-28 steps shared with TC-29: group 0 → EU0 (size 4); `cr_edt` (cr_res 0); a triangle
/// (0, 1, 2) of size 2 still gets refs to EU0; `vr` of slot 0 with `cr_res` 4.
fn retained(r: &mut Run) -> Result<(), String> {
    let i = vtx(r.inp(), 0, 8, 4, 0x160);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = credit(r.inp(), 0, 0, true, VTX);
    r.step(i, &[FreeRes(0, 60), FreeEdt(0, 255)])?;
    r.idle(&[FreeRes(0, 60), FreeEdt(0, 256), Vdt(0, true), NoErr])?;
    r.expect_reg(reg::pend(0, VTX), 0)?;
    let i = tri(r.inp(), [0, 1, 2], 16, 2, 0x161);
    r.step(i, &[])?;
    r.idle(&[Req(0), RefValid(0b111), RefEu([0; 3]), Global(false)])?;
    let i = credit(vr(r.inp(), 0, 0), 0, 4, false, VTX);
    r.step(i, &[FreeRes(0, 58)])?;
    r.idle(&[FreeRes(0, 62), Vdt(0, false), NoErr])?;
    Ok(())
}

/// TC-28: RETAINED vertex data (see [`retained`]); after the release FREE_RES[0] = 62.
pub fn tc28_retained(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-28", dut);
    retained(&mut r)
}

/// TC-29: after TC-28, triangle (0, 1, 2) misses: `err_vdt_miss`, no refs, still
/// dispatched.
pub fn tc29_vdt_miss(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-29", dut);
    retained(&mut r)?;
    let i = tri(r.inp(), [0, 1, 2], 17, 2, 0x162);
    r.step(i, &[])?;
    r.idle(&[Req(0), RefValid(0), RefEu([0; 3]), RefElem([0; 3]), Global(false), Flag(0, false)])?;
    r.idle(&[Flag(0, true), Flag(1, false)])?;
    r.expect_reg(reg::STATUS, 0x4)
}

/// TC-30: patch base 8 is malformed (dropped, `err_malformed`); base 16 is not.
pub fn tc30_patch_malformed(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-30", dut);
    let i = patch(r.inp(), 8, 4, 0x150);
    r.step(i, &[Ready(PATCH, true)])?;
    r.idle(&[Flag(2, true), NoReq, Busy(false)])?;
    r.write(reg::STATUS, 0x10)?;
    let i = patch(r.inp(), 16, 4, 0x151);
    r.step(i, &[Flag(2, false)])?;
    r.idle(&[Req(0), Type(PATCH), Base(16), Flag(2, false)])?;
    Ok(())
}

/// TC-31: releasing an invalid VDT or PT entry sets `err_release` (nothing else); a
/// dispatch setting the entry released at the same edge wins.
pub fn tc31_bad_release(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-31", dut);
    let i = vr(r.inp(), 1, 7);
    r.step(i, &[])?;
    r.idle(&[Flag(4, true), Vdt(7, false)])?;
    r.write(reg::STATUS, 0x40)?;
    let i = pr(r.inp(), 2, 40);
    r.step(i, &[Flag(4, false)])?;
    r.idle(&[Flag(4, true)])?;
    r.write(reg::STATUS, 0x40)?;
    // Vertex base 0x38 (slot 7) acked in the cycle EU3 releases slot 7 (invalid then).
    let i = vtx(r.inp(), 0x38, 8, 4, 0x152);
    r.step(i, &[Flag(4, false)])?;
    let i = vr(r.inp(), 3, 7);
    r.step(i, &[Req(0), Vdt(7, false)])?;
    r.idle(&[Vdt(7, true), Flag(4, true)])?;
    Ok(())
}

/// TC-32: credits beyond the totals clamp and set `err_credit`; a `cr_edt` at PEND 0.
pub fn tc32_credit_overflow(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-32", dut);
    let i = credit(r.inp(), 0, 5, false, VTX);
    r.step(i, &[])?;
    r.idle(&[FreeRes(0, 64), Flag(3, true)])?;
    r.write(reg::STATUS, 0x20)?;
    let i = credit(r.inp(), 1, 0, true, TRI);
    r.step(i, &[Flag(3, false)])?;
    r.idle(&[FreeEdt(1, 256), Flag(3, true)])?;
    r.expect_reg(reg::pend(1, TRI), 0)?;
    r.write(reg::STATUS, 0x20)?;
    // A vertex on EU2 (PEND 1), then two cr_edt of type VTX: the second underflows PEND.
    r.write(reg::ded_mask(VTX), 0b00100)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x153);
    r.step(i, &[])?;
    r.idle(&[Req(2)])?;
    let i = credit(r.inp(), 2, 4, true, VTX);
    r.step(i, &[FreeRes(2, 60)])?;
    r.idle(&[FreeRes(2, 64), FreeEdt(2, 256), Flag(3, false)])?;
    let i = credit(r.inp(), 2, 0, true, VTX);
    r.step(i, &[])?;
    r.idle(&[Flag(3, true), FreeEdt(2, 256)])?;
    r.expect_reg(reg::pend(2, VTX), 0)
}

/// TC-33: a held request survives its target being disabled and is acked there.
pub fn tc33_sticky_disabled(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-33", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x140);
    r.step(i, &[])?;
    let i = hold(r.inp(), 0).write(reg::EU_ENABLE, 0b11110);
    r.step(i, &[Req(0)])?;
    r.repeat(2, hold(r.inp(), 0), &[Req(0), Src(0x140), Avail(4)])?;
    r.idle(&[Req(0)])?;
    r.idle(&[NoReq, FreeRes(0, 60)])?;
    Ok(())
}

/// TC-34 (one EU): a refusal, then one cycle without sel (mask {0}), then a retry.
pub fn tc34_refusal_retry(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-34", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x130);
    r.step(i, &[])?;
    r.step(refuse(r.inp(), 0), &[Req(0)])?;
    r.idle(&[NoReq, Stall(true)])?;
    r.step(refuse(r.inp(), 0), &[Req(0)])?;
    r.idle(&[NoReq, Stall(true)])?;
    r.idle(&[Req(0)])?;
    r.expect_reg(reg::nack_cnt(0), 2)
}

/// TC-34/5eu: every EU refuses in turn; then one cycle without sel, then EU0 again.
pub fn tc34_all_refuse(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("TC-34/5eu", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x131);
    r.step(i, &[])?;
    for e in 0..5 {
        r.step(refuse(r.inp(), e), &[Req(e)])?;
    }
    r.idle(&[NoReq, Stall(true)])?;
    r.idle(&[Req(0)])?;
    Ok(())
}

/// X01: without `cr_valid`, `cr_res`, `cr_edt` and `cr_type` do nothing.
pub fn x01_credit_gating(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X01", dut);
    let i = vtx(r.inp(), 0, 8, 4, 0x120);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let mut i = r.inp();
    i.cr_res[0] = 4;
    i.cr_edt = 1;
    i.cr_type[0] = VTX as u64;
    r.step(i, &[FreeRes(0, 60)])?;
    r.idle(&[FreeRes(0, 60), FreeEdt(0, 255), NoErr])?;
    r.expect_reg(reg::pend(0, VTX), 1)
}

/// X02: EDT_TOTAL stores min(wdata, 2^ENT_W) and sets FREE_EDT.
pub fn x02_edt_total_min(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X02", dut);
    r.write(reg::edt_total(0), 7)?;
    r.idle(&[FreeEdt(0, 7)])?;
    r.write(reg::edt_total(0), 0x200)?;
    r.idle(&[FreeEdt(0, 256)])?;
    r.expect_reg(reg::edt_total(0), 256)?;
    r.write(reg::edt_total(1), 0xFFFF_FFFF)?;
    r.expect_reg(reg::edt_total(1), 256)?;
    r.write(reg::res_total(1), 0x1_0005)?; // low 12 bits
    r.expect_reg(reg::res_total(1), 5)?;
    r.idle(&[FreeRes(1, 5)])?;
    Ok(())
}

/// X03: a footprint of 2^RES_W (4095 + FRAME_RES 1) never fits; with FRAME_RES 0 it does.
pub fn x03_footprint_overflow(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X03", dut);
    r.write(reg::res_total(0), 4095)?;
    r.write(reg::frame_res(VTX), 1)?;
    let i = vtx(r.inp(), 0, 8, 4095, 0x121);
    r.step(i, &[])?;
    r.repeat(3, r.inp(), &[NoReq, Stall(true)])?;
    r.write(reg::frame_res(VTX), 0)?;
    r.idle(&[Req(0), Fp(4095)])?;
    r.idle(&[FreeRes(0, 0)])?;
    Ok(())
}

/// X04: MIN_RES is a threshold on free resources: FREE_RES 16 >= MIN_RES 16 fits a
/// 4-unit vertex (a reserve after allocation would not).
pub fn x04_min_res_threshold(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X04", dut);
    r.write(reg::res_total(0), 16)?;
    r.write(reg::min_res(VTX), 16)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x122);
    r.step(i, &[])?;
    r.idle(&[Req(0)])?;
    let i = vtx(r.inp(), 8, 8, 4, 0x123);
    r.step(i, &[FreeRes(0, 12)])?;
    r.idle(&[Req(1)])?; // 12 < 16 on EU0
    Ok(())
}

/// X05: register widths, empty and duplicate PRIO slots, RO registers.
pub fn x05_registers(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X05", dut);
    r.write(reg::prio(VTX, 0), 0x1F)?; // PRIO_W = 4 bits: 0xF, empty (>= 5)
    r.expect_reg(reg::prio(VTX, 0), 0xF)?;
    r.write(reg::prio(VTX, 1), 3)?;
    r.write(reg::prio(VTX, 2), 3)?; // duplicate
    r.write(reg::prio(VTX, 3), 7)?; // empty
    r.write(reg::prio(VTX, 4), 1)?;
    r.write(reg::EU_ENABLE, 0xFF)?;
    r.expect_reg(reg::EU_ENABLE, 0x1F)?;
    r.write(reg::AUTO_IDX, 0x1_2347)?;
    r.expect_reg(reg::AUTO_IDX, 0x2340)?;
    r.write(reg::CTRL, 0xFB)?;
    r.expect_reg(reg::CTRL, 0x3)?;
    r.write(reg::free_res(0), 3)?; // RO
    r.write(reg::STALL_CNT, 9)?;
    r.write(reg::alloc_cnt(0, VTX), 9)?;
    r.expect_reg(reg::free_res(0), 64)?;
    r.expect_reg(reg::STALL_CNT, 0)?;
    r.expect_reg(reg::alloc_cnt(0, VTX), 0)?;
    r.write(reg::min_res(VTX), 0x1234)?;
    r.expect_reg(reg::min_res(VTX), 0x234)?;
    r.write(reg::min_res(VTX), 0)?;
    r.write(reg::res_total(3), 0)?;
    // Candidates for VTX: EU3 (full), EU1; slots 0, 2, 3 skipped.
    r.write(reg::AUTO_IDX, 0)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x124);
    r.step(i, &[])?;
    r.idle(&[Req(1)])?;
    r.expect_reg(reg::reject_cnt(3), 1)?;
    r.expect_reg(reg::reject_cnt(0), 0)
}

/// X05/vtx-tri: with types vertex and triangle only, PIX and PATCH registers read 0 and
/// ignore writes; the pixel and patch channels are never ready.
pub fn x05_absent_types(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X05/vtx-tri", dut);
    r.idle(&[Ready(VTX, true), Ready(TRI, true), Ready(PIX, false), Ready(PATCH, false)])?;
    r.write(reg::ded_mask(PIX), 0x1)?;
    r.expect_reg(reg::ded_mask(PIX), 0)?;
    r.expect_reg(reg::ded_mask(TRI), 0x1F)?;
    r.expect_reg(reg::prio(PATCH, 0), 0)?;
    r.expect_reg(reg::frame_res(PIX), 0)?;
    r.expect_reg(reg::alloc_cnt(0, PIX), 0)?;
    let i = tri(r.inp(), [0, 1, 2], 1, 2, 0x125);
    r.step(i, &[])?;
    r.idle(&[Req(0), Type(TRI), RefValid(0)])?;
    r.idle(&[Flag(0, true)])?;
    Ok(())
}

/// X06: the mask is cleared by a cycle without sel while the request is held, and the
/// refusal ending the hold is kept. EU0 does not fit; the vertex goes to EU1, which
/// refuses; EU2 is requested and held while EU1 … EU4 are disabled (no sel: mask
/// cleared); EU2 then refuses: mask = {2}; after re-enabling, EU1 is requested again.
pub fn x06_mask_under_hold(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X06", dut);
    r.write(reg::res_total(0), 0)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x126);
    r.step(i, &[])?;
    r.step(refuse(r.inp(), 1), &[Req(1)])?; // mask {1}
    let i = hold(r.inp(), 2).write(reg::EU_ENABLE, 0b00001);
    r.step(i, &[Req(2)])?; // held; EUs 1-4 disabled at this edge
    r.step(hold(r.inp(), 2), &[Req(2)])?; // held, live evaluation has no sel: mask cleared
    let i = refuse(r.inp(), 2).write(reg::EU_ENABLE, 0b11111);
    r.step(i, &[Req(2)])?; // refused: mask {2}
    r.idle(&[Req(1)])?; // EU1 again (mask was cleared), not EU2
    Ok(())
}

/// X07: REJECT_CNT counts a candidate that fails fit also when it is in the mask.
/// EU1 refuses, then is emptied (RES_TOTAL ← 0); the next request (EU2) counts EU0 and EU1.
pub fn x07_reject_masked(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X07", dut);
    r.write(reg::res_total(0), 0)?;
    let i = vtx(r.inp(), 0, 8, 4, 0x127);
    r.step(i, &[])?;
    let i = refuse(r.inp(), 1).write(reg::res_total(1), 0);
    r.step(i, &[Req(1)])?; // REJECT_CNT[0] = 1
    r.idle(&[Req(2)])?; // EU0 and EU1 (masked, unfit) count
    r.expect_reg(reg::reject_cnt(0), 2)?;
    r.expect_reg(reg::reject_cnt(1), 1)
}
