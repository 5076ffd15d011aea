//! X05 (`perf_counters`, rules SB3-SB4 of docs/blocks/scoreboard.md, docs/perf.md): counter
//! values written by hand from the rules.

use super::*;

/// The counters in `perf_sel` order at the default shape (2 completion ports):
/// issue, stall_issue, stall_dep, stall_sat, stall_fetch, err_underflow_ev, cpl_0, cpl_1.
type Counts = [u64; 8];

impl Run<'_> {
    /// Read every counter through `perf_sel` (`perf_val` is combinational from the counter
    /// registers, so each read is one eval of the same cycle), then run the cycle with `inp`.
    pub(super) fn counts(&mut self, inp: ScoreboardInputs, want: Counts, exp: &[Exp]) -> Result<(), String> {
        for (k, &w) in want.iter().enumerate() {
            let mut i = inp.clone();
            i.perf_sel = k as u64;
            let got = self.dut.eval(&i).perf_val;
            if got != w {
                return Err(format!("{} c{}: perf_val[{k}] expected {w}, actual {got}", self.case, self.cycle));
            }
        }
        self.step(inp, exp)
    }
}

/// X05: tracker 7 (max 1) of group 0 fills and then refuses its next load: a saturation stall,
/// then a dependency and saturation stall at once (both counted); a fire of group 2 with
/// `iss_nxt_mask` {0} closes its fetch gate (a fetch stall); a bogus completion underflows
/// (c4); `err_clr` in the cycle of a second underflow loses (the flag stays), alone it clears;
/// `perf_clr` beside an issue and a completion zeroes every counter (the clear wins); reset
/// zeroes them too.
pub fn x05_perf_counters(dut: &mut dyn Dut<Scoreboard>) -> Result<(), String> {
    let mut r = Run::new("X05", dut);
    r.counts(r.iss(0, Some(7), 0, 0), [0; 8], &[Fire(true)])?; // c0: issue
    r.counts(r.iss(0, Some(7), 0, 0), [1, 0, 0, 0, 0, 0, 0, 0], &[Ready(false)])?; // c1: at max
    r.counts(r.iss(0, Some(7), 0x80, 0), [1, 1, 0, 1, 0, 0, 0, 0], &[Ready(false)])?; // c2: dep + sat
    r.counts(r.iss(2, Some(0), 0, 0x01), [1, 2, 1, 2, 0, 0, 0, 0], &[Fire(true)])?; // c3: wait {0}
    // c4: group 2's gate is closed; port 0 completes (0,7), port 1 names an idle counter.
    let c4 = r.iss(2, None, 0, 0).cpl_on(0, 0, 7).cpl_on(1, 3, 3);
    r.counts(c4, [2, 2, 1, 2, 0, 0, 0, 0], &[Ready(false), FetchOk(2, false), Underflow(false)])?;
    // c5: err_clr with a new underflow: the error wins.
    let mut c5 = r.idle().cpl_on(0, 3, 3);
    c5.err_clr = true;
    r.counts(c5, [2, 3, 1, 2, 1, 1, 1, 1], &[Underflow(true)])?;
    let mut c6 = r.idle();
    c6.err_clr = true;
    r.counts(c6, [2, 3, 1, 2, 1, 2, 2, 1], &[Underflow(true)])?; // c6: err_clr alone
    // c7: perf_clr beside an issue and a legal completion (2,0): neither is counted.
    let mut c7 = r.iss(0, None, 0, 0).cpl_on(1, 2, 0);
    c7.perf_clr = true;
    r.counts(c7, [2, 3, 1, 2, 1, 2, 2, 1], &[Underflow(false), Fire(true)])?;
    r.counts(r.iss(2, None, 0, 0), [0; 8], &[FetchOk(2, true), Fire(true)])?; // c8: issue
    r.counts(r.iss(2, None, 0, 0).with_reset(), [1, 0, 0, 0, 0, 0, 0, 0], &[])?; // c9: reset
    r.counts(r.idle(), [0; 8], &[]) // c10
}
