//! The ways of a set-associative VDT (`vdt_ways` = W > 1, contract R15): a hand-written Verilog
//! module beside the designs, built only with the key (with W = 1 there is no module, no wire
//! and no port: the VDT is the direct-mapped table of R4 and R8).
//!
//! Each way is the direct-mapped VDT of S = vdt_depth / W sets (its own `vdt_valid` and
//! `vdt_data` instances and banked RAMs, addressed by the set); this module joins them:
//! * Blocking (R4): VTX is blocked when its set is valid in every way (an AND of the ways'
//!   lookups), PATCH when no way has its PG entries all free. The way of an unblocked VTX or
//!   PATCH is the lowest free one (a priority encoder over W <= 4 bits).
//! * `ar_vdt_way` (R7): the way of the granted VTX / PATCH slot (`gnt_v`, `gnt_p`), else 0;
//!   a held request (`sticky`) keeps last cycle's (`way_q`), as `ar_base_idx` keeps its base.
//! * Writes (R8): the vertex / patch set strobes, the RAM bank enables and the forwarding
//!   hits go to that way only.
//! * Releases (R10): `vr_slot[e]` = {way, set}: EU e's release goes to the way of its high
//!   WAY_W bits (`vr_way`; the set bits are wired to every way); `err_release` is the OR of the ways'.
//! * Triangle lookups (R4 refs): copy c hits in way w when the way's entry at the vertex's set
//!   is valid and its tag is the vertex's (`vtag`); the entry passed on is the lowest hitting
//!   way's (way 0's when none hits; then the lookup reads invalid and the entry is unused).
//!   A held request keeps each copy's way (`hw_q_c`), as R7 keeps its payload: a release
//!   during the hold clears a valid bit but leaves the RAM word, so the held references read
//!   the same entry (as when direct mapped, where the held slot's word does not move).
//!
//! Cost: per copy, W tag comparators and a W:1 entry multiplexer; the rest is a few gates per
//! way. Same cycle timing as W = 1: every output but the write strobes is a function of
//! registers (the valid bits, the RAMs' read registers, `way_q`) and the grant.

use super::Geo;

/// The module `top$vdt_ways` of geometry `g` (`g.ways` = W > 1).
pub(super) fn ways_module(g: &Geo) -> String {
    let (w, n, yb) = (g.ways, g.n, g.wyb);
    assert!(w == 2 || w == 4, "vdt_ways {w} is not 2 or 4");
    let lv = usize::from(g.vtx);
    let looks = lv + if g.vdt_ram { 3 } else { 0 };
    let (db, tw, pg) = (g.vdt_bits(), g.tw, g.pg);
    let range = |x: usize| if x == 1 { String::new() } else { format!("[{}:0] ", x - 1) };
    let mut ports = vec!["clock", "reset", "sticky", "vr_valid", "vr_way", "rel_err_in", "rel_err", "rel", "ar_vdt_way"];
    if looks > 0 {
        ports.extend(["look_in", "look"]);
    }
    if g.vtx {
        ports.extend(["gnt_v", "vtx_w", "set_v"]);
    }
    if g.patch {
        ports.extend(["gnt_p", "patch_w", "glook_in", "glook", "set_p"]);
    }
    if g.vdt_ram {
        ports.extend(["rd_in", "vtag", "wben_in", "fwd_in", "rd", "wben", "fwd"]);
    }
    let mut v = format!("module top$vdt_ways({});\n", ports.join(","));
    v += "    input wire clock;\n    input wire reset;\n    input wire sticky;\n";
    v += &format!("    input wire {}vr_valid;\n    input wire {}vr_way;\n", range(n), range(n * yb));
    v += &format!("    input wire {}rel_err_in;\n    output wire rel_err;\n    output wire {}rel;\n", range(w), range(w * n));
    if looks > 0 {
        v += &format!("    input wire {}look_in;\n    output wire {}look;\n", range(w * looks), range(looks));
    }
    v += &format!("    output wire {}ar_vdt_way;\n", range(yb));
    if g.vtx {
        v += &format!("    input wire gnt_v;\n    input wire vtx_w;\n    output wire {}set_v;\n", range(w));
    }
    if g.patch {
        v += &format!("    input wire gnt_p;\n    input wire patch_w;\n    input wire {}glook_in;\n", range(w));
        v += &format!("    output wire glook;\n    output wire {}set_p;\n", range(w));
    }
    if g.vdt_ram {
        v += &format!("    input wire {}rd_in;\n    input wire {}vtag;\n", range(3 * w * db), range(3 * tw));
        v += &format!("    input wire {}wben_in;\n    input wire {}fwd_in;\n", range(pg), range(3 * pg));
        v += &format!("    output wire {}rd;\n    output wire {}wben;\n    output wire {}fwd;\n", range(3 * db), range(w * pg), range(w * 3 * pg));
    }
    v += &format!("    reg {}way_q;\n", range(yb));
    let look = |l: usize| if looks == 1 { "look".to_string() } else { format!("look[{l}]") };
    // The lowest set bit of a W-bit free mask, as a way number (0 when none is free).
    let lowest = |name: &str, free: &str| -> String {
        let mut e = format!("{yb}'d{}", w - 1);
        for x in (0..w - 1).rev() {
            e = format!("{free}[{x}] ? {yb}'d{x} : {e}");
        }
        format!("    wire {}{name} = {e};\n", range(yb))
    };
    let mut new_way = format!("{yb}'d0");
    let lowest_hit = |c: usize| -> String {
        let mut e = format!("{yb}'d0");
        for x in (0..w).rev() {
            e = format!("hit_{c}[{x}] ? {yb}'d{x} : {e}");
        }
        let mut t = format!("    reg {}hw_q_{c};\n", range(yb));
        t += &format!("    wire {}hw_{c} = sticky ? hw_q_{c} : ({e});\n", range(yb));
        t += &format!("    always @(posedge clock) hw_q_{c} <= reset ? {yb}'d0 : hw_{c};\n");
        t
    };
    if g.patch {
        v += &format!("    wire [{}:0] pfree = ~glook_in;\n", w - 1);
        v += &lowest("pway", "pfree");
        v += "    assign glook = ~|pfree;\n";
        new_way = format!("gnt_p ? pway : {new_way}");
    }
    if g.vtx {
        let frees: Vec<String> = (0..w).rev().map(|x| format!("~look_in[{}]", x * looks)).collect();
        v += &format!("    wire [{}:0] vfree = {{{}}};\n", w - 1, frees.join(", "));
        v += &lowest("vway", "vfree");
        v += &format!("    assign {} = ~|vfree;\n", look(0));
        new_way = format!("gnt_v ? vway : {new_way}");
    }
    v += &format!("    assign ar_vdt_way = sticky ? way_q : ({new_way});\n");
    v += &format!("    always @(posedge clock) way_q <= reset ? {yb}'d0 : ar_vdt_way;\n");
    // One-hot of the request's way: the write strobes, bank enables and forwarding hits.
    v += &format!("    wire [{}:0] wsel = {}'d1 << ar_vdt_way;\n", w - 1, w);
    if g.vtx {
        v += &format!("    assign set_v = vtx_w ? wsel : {w}'d0;\n");
    }
    if g.patch {
        v += &format!("    assign set_p = patch_w ? wsel : {w}'d0;\n");
    }
    // Releases: to the way of the address's high bits.
    for x in 0..w {
        for e in 0..n {
            let way = match (n * yb, yb) {
                (1, _) => "vr_way".to_string(),
                (_, 1) => format!("vr_way[{e}]"),
                _ => format!("vr_way[{}:{}]", e * yb + yb - 1, e * yb),
            };
            let vld = if n == 1 { "vr_valid".to_string() } else { format!("vr_valid[{e}]") };
            v += &format!("    assign rel[{}] = {vld} & ({way} == {yb}'d{x});\n", x * n + e);
        }
    }
    v += "    assign rel_err = |rel_err_in;\n";
    if g.vdt_ram {
        for x in 0..w {
            v += &format!("    assign wben[{}:{}] = wsel[{x}] ? wben_in : {pg}'d0;\n", (x + 1) * pg - 1, x * pg);
            v += &format!("    assign fwd[{}:{}] = wsel[{x}] ? fwd_in : {}'d0;\n", (x + 1) * 3 * pg - 1, x * 3 * pg, 3 * pg);
        }
        for c in 0..3 {
            let ent = |x: usize| format!("rd_in[{}:{}]", (c * w + x + 1) * db - 1, (c * w + x) * db);
            let hits: Vec<String> = (0..w)
                .rev()
                .map(|x| format!("look_in[{}] & ({}[{}:{}] == vtag[{}:{}])", x * looks + lv + c, "rd_in", (c * w + x) * db + tw - 1, (c * w + x) * db, (c + 1) * tw - 1, c * tw))
                .collect();
            v += &format!("    wire [{}:0] hit_{c} = {{{}}};\n", w - 1, hits.join(", "));
            v += &format!("    assign {} = |hit_{c};\n", look(lv + c));
            // The lowest hitting way (0 when none hits); a held request keeps last cycle's, so
            // its references stay as presented (R7) when a release clears the hit meanwhile.
            v += &lowest_hit(c);
            let mut e = ent(0);
            for x in (1..w).rev() {
                e = format!("hw_{c} == {yb}'d{x} ? {} : {e}", ent(x));
            }
            v += &format!("    assign rd[{}:{}] = {e};\n", (c + 1) * db - 1, c * db);
        }
    }
    v += "endmodule\n";
    v
}
