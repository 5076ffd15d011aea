//! X13 (`dep_tags`, contract D3t): a dependency only on the producers an instance names by
//! tag; a named tag that resolves to nothing (an old generation, the target itself) is
//! ignored; a named resident task of another state or of a type `depends` does not list is
//! ignored and sets the sticky `err_dep`, which `err_clr` clears unless an error arrives at the
//! same edge. Expected values written by hand from the rule, on C0 with `dep_tags` = 2
//! (5 entries, ENT_W 3; default `depends`: HS on VS, DS on HS, GS on VS and DS).

use super::check::*;
use super::*;

/// X13: VS A (c0, E0, tag Va = {gen 1, 0}), VS B (c1, E1), HS A naming nothing (c2, E2: no
/// dependency although VS A is resident, which D3 alone would have added), HS A naming Va
/// (c3: row E2 = {E0}), GS A naming Vb (c4, E3: state B is not A, illegal: err_dep from c5,
/// row 0), DS A naming Ha one generation on (c5, E4: stale, ignored, so no row although HS is
/// a DS producer), DS A naming Va and
/// itself with err_clr (c6: VS is not a DS producer, illegal, so the clear loses; itself is
/// ignored), err_clr alone (c7: err_dep 0 from c8), DS A naming Ha (c8: row E4 = {E2}).
pub fn x13_dep_tags(dut: &mut dyn Dut<TaskCombiner>) -> Result<(), String> {
    let mut r = Run::new("X13", dut);
    let p = r.p.clone();
    r.step(r.i(VS, A, 1, 0), &[InReady(true), Cap("Va"), ErrDep(false)])?; // c0 → E0
    r.step(r.i(VS, B, 2, 0), &[Cap("Vb")])?; // c1 → E1
    r.step(r.i(HS, A, 3, 0), &[Cap("Ha"), DepNone])?; // c2 → E2, no tag named
    let (va, vb, ha) = (r.tag("Va"), r.tag("Vb"), r.tag("Ha"));
    r.step(r.i(HS, A, 4, 0).deps(&p, &[va]), &[InTag("Ha"), InLane(1), DepNone])?; // c3
    r.step(
        r.i(GS, A, 5, 0).deps(&p, &[vb]),
        &[Deps(vec![((HS, A), vec![(VS, A)])]), ErrDep(false), Cap("Ga")],
    )?; // c4 → E3, illegal (state)
    let stale = ha + (1 << p.ent_w()); // {gen 2, 2}: E2 holds gen 1
    r.step(
        r.i(DS, A, 6, 0).deps(&p, &[stale]),
        &[ErrDep(true), Ent(3, GS, A, 1, 1, Open), Deps(vec![((HS, A), vec![(VS, A)])]), Cap("Da")],
    )?; // c5 → E4, stale tag ignored
    let da = r.tag("Da");
    let mut clr = r.i(DS, A, 8, 0).deps(&p, &[va, da]);
    clr.err_clr = true;
    r.step(clr, &[ErrDep(true), InTag("Da"), InLane(1), Deps(vec![((HS, A), vec![(VS, A)])])])?; // c6
    let mut clr = r.idle();
    clr.err_clr = true;
    r.step(clr, &[ErrDep(true), Key((DS, A), 2, 1, Open), Deps(vec![((HS, A), vec![(VS, A)])])])?; // c7
    r.step(r.i(DS, A, 9, 0).deps(&p, &[ha]), &[ErrDep(false), InTag("Da"), InLane(2)])?; // c8
    r.step(
        r.idle(),
        &[
            ErrDep(false),
            Deps(vec![((HS, A), vec![(VS, A)]), ((DS, A), vec![(HS, A)])]),
            StValid(0b11111),
            StOpen(0b11111),
        ],
    )?; // c9
    Ok(())
}
