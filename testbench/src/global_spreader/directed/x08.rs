//! X08 (`perf_counters`, rules G1-G2 of docs/blocks/global_spreader.md, docs/perf.md): counter
//! values written by hand from the rules, on one EU with every type.

use super::check::{Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::{reg, PATCH, TRI, VTX};
use crate::global_spreader::{Dut, GlobalSpreader, GlobalSpreaderInputs};

/// The counters in `perf_sel` order: vertex, triangle, pixel, patch, stall_vertex,
/// stall_triangle, stall_pixel, stall_patch, stall_blocked, stall_no_eu, credit, release,
/// err_vdt_miss_ev, err_pt_miss_ev, err_malformed_ev, err_credit_ev, err_release_ev.
type Counts = [u64; 17];

impl Run<'_> {
    /// Read every counter through `perf_sel` (`perf_val` is combinational from the counter
    /// registers: each read is one eval of the same cycle), and indices 17 and 31 past the last
    /// (0); then run the cycle with `inp`.
    fn counts(&mut self, inp: GlobalSpreaderInputs, want: Counts, exp: &[super::check::Exp]) -> Result<(), String> {
        let want = want.iter().copied().enumerate().chain([(17, 0), (31, 0)]);
        for (k, w) in want {
            let mut i = inp.clone();
            i.perf_sel = k as u64;
            let got = self.dut.eval(&i).perf_val;
            if got != w {
                return Err(format!("X08 c{}: perf_val[{k}] expected {w}, actual {got}", self.cycle));
            }
        }
        self.step(inp, exp).map(|_| ())
    }
}

/// X08: a vertex is dispatched while a second one for the same VDT slot transfers; that one is
/// blocked and a third waits on the channel (stall_vertex and stall_blocked per cycle);
/// `perf_clr` beside those events and a credit zeroes every counter (the clear wins); a VDT
/// release and a bad PT release (`err_release`) with `err_clr` in the same cycle: the error
/// wins; the second vertex dispatches; a malformed patch with `err_clr`: err_release clears,
/// err_malformed (detected at that edge) stays; with EU0 disabled a triangle has no candidate
/// and a second one waits (stall_triangle, stall_no_eu); reset zeroes the counters.
pub fn x08_perf_counters(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X08", dut);
    let z = [0; 17];
    let c = |set: &[(usize, u64)]| {
        let mut v = z;
        for &(k, n) in set {
            v[k] = n;
        }
        v
    };
    r.counts(vtx(r.inp(), 0, 8, 4, 0x100), z, &[Ready(VTX, true)])?; // c0: transfer
    r.counts(vtx(r.inp(), 0, 8, 4, 0x101), z, &[Req(0), Ready(VTX, true)])?; // c1: ack, reload
    let third = vtx(r.inp(), 0, 8, 4, 0x102);
    let one = c(&[(0, 1)]);
    r.counts(third.clone(), one, &[NoReq, Stall(true), Ready(VTX, false)])?; // c2: blocked
    let mut c3 = credit(third.clone(), 0, 4, false, VTX);
    c3.perf_clr = true;
    r.counts(c3, c(&[(0, 1), (4, 1), (8, 1)]), &[NoReq, Ready(VTX, false)])?; // c3: clear wins
    let mut c4 = pr(vr(third.clone(), 0, 0), 0, 5);
    c4.err_clr = true;
    r.counts(c4, z, &[NoReq, Flag(4, false)])?; // c4: release, bad release + err_clr
    let after_c4 = c(&[(4, 1), (8, 1), (11, 1), (16, 1)]);
    r.counts(third, after_c4, &[Req(0), Flag(4, true), Ready(VTX, true)])?; // c5: the error won
    let mut c6 = patch(r.inp(), 8, 4, 0x103);
    c6.err_clr = true;
    let after_c5 = c(&[(0, 1), (4, 1), (8, 1), (11, 1), (16, 1)]);
    r.counts(c6, after_c5, &[NoReq, Flag(4, true), Ready(PATCH, true)])?; // c6: malformed + err_clr
    let c7 = tri_ni(r.inp(), 1, 2, 0x104).write(reg::EU_ENABLE, 0);
    let after_c6 = c(&[(0, 1), (4, 1), (8, 1), (11, 1), (14, 1), (16, 1)]);
    r.counts(c7, after_c6, &[Flag(4, false), Flag(2, true), Ready(TRI, true)])?; // c7
    let c8 = tri_ni(r.inp(), 2, 2, 0x105);
    r.counts(c8, after_c6, &[NoReq, Ready(TRI, false)])?; // c8: no EU
    let after_c8 = c(&[(0, 1), (4, 1), (5, 1), (8, 1), (9, 1), (11, 1), (14, 1), (16, 1)]);
    r.counts(GlobalSpreaderInputs::idle(&r.p).with_reset(), after_c8, &[])?; // c9: reset
    r.counts(r.inp(), z, &[NoErr]) // c10
}
