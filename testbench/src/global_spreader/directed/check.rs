//! The checking machinery of the directed cases: the expected output values ([`Exp`]) and
//! the runner ([`Run`]) that drives the directed EU and checks every listed output each cycle.

use super::inputs::vtx_auto;
use crate::global_spreader::model::VTX;
use crate::global_spreader::{Dut, GlobalSpreader, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams};

// ---- expected values ------------------------------------------------------------------

/// One expected output value.
#[derive(Debug, Clone, Copy)]
pub(super) enum Exp {
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
    /// R14 (`pixel_reorder`): `ar_seq`, `po_valid`, `po_seq`.
    Seq(u64),
    PoValid(bool),
    PoSeq(u64),
    /// R15 (`vdt_ways` > 1): `ar_vdt_way`.
    Way(u64),
    /// R16 (resource kinds): `ar_footprint`'s fp_k, all four fields (kinds not built: 0).
    FpKinds([u64; 4]),
    /// R16: `st_free_res` of EU e, kind k.
    FreeResKind(usize, usize, u64),
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
            Fp(v) => ("ar_footprint".into(), v.to_string(), o.ar_footprint[0].to_string()),
            FpKinds(v) => ("ar_footprint".into(), format!("{v:?}"), format!("{:?}", o.ar_footprint)),
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
            FreeRes(e, v) => (format!("st_free_res[{e}]"), v.to_string(), format!("{:?}", o.st_free_res.get(e).map(|x| x[0]))),
            FreeResKind(e, k, v) => {
                (format!("st_free_res[{e}][{k}]"), v.to_string(), format!("{:?}", o.st_free_res.get(e).map(|x| x[k])))
            }
            FreeEdt(e, v) => (format!("st_free_edt[{e}]"), v.to_string(), format!("{:?}", o.st_free_edt.get(e))),
            Vdt(s, v) => (format!("st_vdt_valid[{s}]"), b(v).to_string(), format!("{:?}", o.st_vdt_valid.get(s).map(|&x| b(x)))),
            Pt(s, v) => (format!("st_pt_valid[{s}]"), b(v).to_string(), format!("{:?}", o.st_pt_valid.get(s).map(|&x| b(x)))),
            Rvalid(v) => ("cfg_rvalid".into(), b(v).to_string(), b(o.cfg_rvalid).to_string()),
            Rdata(v) => ("cfg_rdata".into(), format!("{v:#x}"), format!("{:#x}", o.cfg_rdata)),
            Seq(v) => ("ar_seq".into(), v.to_string(), o.ar_seq.to_string()),
            PoValid(v) => ("po_valid".into(), b(v).to_string(), b(o.po_valid).to_string()),
            PoSeq(v) => ("po_seq".into(), v.to_string(), o.po_seq.to_string()),
            Way(v) => ("ar_vdt_way".into(), v.to_string(), o.ar_vdt_way.to_string()),
        };
        let ok = match self {
            FreeRes(_, _) | FreeEdt(_, _) | FreeResKind(_, _, _) => a == format!("Some({e})"),
            Vdt(_, _) | Pt(_, _) => a == format!("Some({e})"),
            _ => e == a,
        };
        (!ok).then(|| format!("{sig} expected {e}, actual {a}"))
    }
}

/// The payload fields of a request that are 0 for a type (checked as such).
pub(super) fn zero_refs() -> [Exp; 6] {
    [RefValid(0), RefEu([0; 3]), RefEnt([0; 3]), RefElem([0; 3]), RefGrp([0; 3]), Global(false)]
}

// ---- the runner ------------------------------------------------------------------------

/// A case in progress.
pub(super) struct Run<'a> {
    case: &'static str,
    pub(super) dut: &'a mut dyn Dut<GlobalSpreader>,
    pub(super) p: GlobalSpreaderParams,
    pub(super) cycle: u32,
    /// Next `ar_ent` per EU (the directed EU's record numbers).
    pub(super) ents: Vec<u64>,
}

impl<'a> Run<'a> {
    /// One reset cycle; the next cycle is c0.
    pub(super) fn new(case: &'static str, dut: &'a mut dyn Dut<GlobalSpreader>) -> Self {
        let p = dut.params().clone();
        dut.eval(&GlobalSpreaderInputs::idle(&p).with_reset());
        dut.tick();
        let n = p.eus;
        Run { case, dut, p, cycle: 0, ents: vec![0; n] }
    }

    /// The directed EU: every EU acks, with its next record number.
    pub(super) fn inp(&self) -> GlobalSpreaderInputs {
        let mut i = GlobalSpreaderInputs::idle(&self.p);
        i.ar_ready = self.p.eu_mask();
        i.ar_ent = self.ents.clone();
        i
    }

    /// One cycle: eval, check, tick. Returns the outputs.
    pub(super) fn step(&mut self, inp: GlobalSpreaderInputs, exp: &[Exp]) -> Result<GlobalSpreaderOutputs, String> {
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
    pub(super) fn repeat(&mut self, n: u32, inp: GlobalSpreaderInputs, exp: &[Exp]) -> Result<(), String> {
        for _ in 0..n {
            self.step(inp.clone(), exp)?;
        }
        Ok(())
    }

    /// Non-indexed vertex packets (8 vertices) of `sizes` back to back, ids from `id0`: packet
    /// k transfers in the request cycle of packet k-1 and is requested (and acked) in the next,
    /// to EU `targets[k]` at base `base0` + 8k.
    pub(super) fn vtx_stream(&mut self, sizes: &[u64], targets: &[usize], id0: u64, base0: u64) -> Result<(), String> {
        let i = vtx_auto(self.inp(), 8, sizes[0], id0);
        self.step(i, &[Ready(VTX, true), NoReq])?; // t0: packet 0 transfers
        for (k, (&size, &target)) in sizes.iter().zip(targets).enumerate() {
            let id = id0 + k as u64;
            let i = match sizes.get(k + 1) {
                Some(&next) => vtx_auto(self.inp(), 8, next, id + 1),
                None => self.inp(),
            };
            self.step(i, &[Req(target), Src(id), Base(base0 + 8 * k as u64), Fp(size)])?;
        }
        Ok(())
    }

    pub(super) fn idle(&mut self, exp: &[Exp]) -> Result<GlobalSpreaderOutputs, String> {
        let i = self.inp();
        self.step(i, exp)
    }

    pub(super) fn write(&mut self, addr: u64, data: u64) -> Result<(), String> {
        let i = self.inp().write(addr, data);
        self.step(i, &[]).map(|_| ())
    }

    /// Read `addr` in this cycle and check `cfg_rdata` in the next (two idle cycles).
    pub(super) fn expect_reg(&mut self, addr: u64, value: u64) -> Result<(), String> {
        let i = self.inp().read(addr);
        self.step(i, &[])?;
        let r = self.idle(&[Rvalid(true), Rdata(value)]);
        r.map(|_| ()).map_err(|e| format!("{e} (register {addr:#05x})"))
    }

    /// The contract's reset state of the outputs.
    pub(super) fn reset_state(&self) -> Vec<Exp> {
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
