//! X09 (`select = "least_loaded"`, contract R6): targets written by hand from the rule, on the
//! contract defaults (5 EUs, RES_TOTAL 64) with PRIO[vertex] = 2, 0, 1, 3, 4.

use super::cases_tc01_15::prio_vtx_eu2;
use super::check::{Exp::*, Run};
use super::inputs::*;
use crate::global_spreader::model::TRI;
use crate::global_spreader::{Dut, GlobalSpreader};

/// X09: eight non-indexed vertex packets back to back, sizes 4, 8, 2, 6, 10, 1, 1, 3. Each goes
/// to the EU with the most FREE_RES, ties to the first in PRIO order (2, 0, 1, 3, 4):
/// all 64 → EU2 (first in PRIO, not EU0); 56/64 → EU0, EU1, EU3, EU4 in PRIO order; then
/// FREE_RES = 56, 62, 60, 58, 54 → EU1 (62), EU1 (61), and at 56, 60, 60, 58, 54 EU2 (tied
/// with EU1, before it in PRIO). A triangle on the group of packet 5 (indices 32-34, on EU4,
/// the least free EU: 54) goes to its home EU4 (locality before load).
pub fn x09_least_loaded(dut: &mut dyn Dut<GlobalSpreader>) -> Result<(), String> {
    let mut r = Run::new("X09", dut);
    prio_vtx_eu2(&mut r)?;
    r.vtx_stream(&[4, 8, 2, 6, 10, 1, 1, 3], &[2, 0, 1, 3, 4, 1, 1, 2], 0x190, 0)?;
    r.idle(&[NoReq, FreeRes(0, 56), FreeRes(1, 60), FreeRes(2, 57), FreeRes(3, 58), FreeRes(4, 54), Vdt(4, true)])?;
    let i = tri(r.inp(), [32, 33, 34], 5, 2, 0x1A0);
    r.step(i, &[NoReq])?; // t0
    r.idle(&[Req(4), Type(TRI), Global(false), RefValid(0b111), RefEu([4; 3]), RefElem([0, 1, 2])])?;
    r.idle(&[NoReq, FreeRes(4, 52)])?;
    Ok(())
}
