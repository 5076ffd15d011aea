//! The core netlist: the designs wired together.

use super::*;

/// The core netlist (see the module doc for the designs).
pub(super) fn core(g: &Geo) -> Result<String, String> {
    let ports: Vec<PortDecl> = wrapper(g)
        .ports()
        .map(|p| PortDecl { name: p.name.clone(), dir: p.dir, width: p.width() })
        .collect();
    let mut nl = Netlist::new(ports);
    nets(g, &mut nl);
    ctl(g, &mut nl)?;
    res(g, &mut nl)?;
    ent(g, &mut nl)?;
    idx(g, &mut nl)?;
    addr(g, &mut nl)?;
    eu(g, &mut nl)?;
    pick(g, &mut nl);
    rob(g, &mut nl);
    pt(g, &mut nl)?;
    vdt(g, &mut nl)?;
    unused_refs(g, &mut nl);
    Ok(nl.verilog())
}

/// The channel prefix of packet type `t`.
fn chan(t: usize) -> &'static str {
    ["vp", "tp", "xp", "pp"][t]
}

/// The slot of a packet type the config builds.
fn slot(g: &Geo, t: usize) -> usize {
    g.slot(t).expect("present type")
}

/// The register-interface pins every design with registers takes.
fn cfg(i: &mut Instance, nl: &Netlist) {
    for s in ["clock", "reset", "cfg_valid", "cfg_we", "cfg_addr"] {
        i.pin(s, nl.net(s));
    }
}

/// Nets between the designs.
fn nets(g: &Geo, nl: &mut Netlist) {
    let (n, k) = (g.n, g.k());
    nl.wire("load", k);
    nl.wire("gnt", k);
    nl.wire("sticky", 1);
    nl.wire("ack", n);
    nl.wire("res_fit", k * n);
    for kind in 1..g.kinds {
        // R16: the other resource kinds' fits, read data and errors.
        nl.wire(&format!("res_fit_k{kind}"), k * n);
        nl.wire(&format!("res_rd_k{kind}"), g.rw);
        nl.wire(&format!("res_err_k{kind}"), 1);
    }
    if g.kinds > 1 {
        nl.wire("res_copy_k", (g.kinds - 1) * g.rw);
    }
    nl.wire("ent_nz", n);
    nl.wire("prio", k * n * g.prw);
    nl.wire("res_rd", g.rw);
    nl.wire("ent_rd", g.fw);
    nl.wire("idx_rd", g.iw);
    nl.wire("eu_rd", g.prw);
    nl.wire("res_err", 1);
    nl.wire("ent_err", 1);
    if g.pick {
        nl.wire("ll_ok", k * n);
        nl.wire("ll_tie", k * n);
    }
    if g.rob > 0 {
        nl.wire("rob_full", 1);
    }
    let looks_vtx = usize::from(g.vtx);
    let looks = looks_vtx + if g.vdt_ram { 3 } else { 0 };
    if g.vtx {
        for w in ["vtx_indexed", "vtx_w", "vtx_adv", "vp_bad"] {
            nl.wire(w, 1);
        }
        nl.wire("vtx_slot", g.aw);
    }
    if g.patch {
        for w in ["patch_indexed", "patch_w", "patch_adv", "pp_bad", "vdt_glook"] {
            nl.wire(w, 1);
        }
        nl.wire("patch_slot", g.aw);
    }
    if g.has_vdt {
        nl.wire("w_slot", g.aw);
        nl.wire("vdt_rel_err", 1);
        if looks > 0 {
            nl.wire("vdt_look", looks);
        }
    }
    if g.tri {
        nl.wire("tri_w", 1);
        nl.wire("tri_prid", g.pw);
        nl.wire("pt_look", 1 + usize::from(g.pix));
        nl.wire("pt_rel_err", 1);
    }
    if g.pix {
        for w in ["xp_fire", "pix_clr", "ref_pix", "pt_fwd"] {
            nl.wire(w, 1);
        }
        nl.wire("pix_tid", g.pw);
        nl.wire("pt_raddr", g.pw);
        nl.wire("pt_wd", g.pt_bits());
        nl.wire("pt_rd", g.pt_bits());
        nl.wire("pt_rdata", g.pt_bits());
    }
    if g.any_ram() {
        nl.wire("sel_id", g.uw);
        nl.wire("ack_ent", g.ent);
    }
    let bb = g.bank_bits();
    if g.vdt_ram {
        nl.wire("tp_fire", 1);
        nl.wire("tri_hit", 3);
        nl.wire("tri_home", g.uw);
        nl.wire("tri_has_home", 1);
        nl.wire("tag_eq", 3);
        nl.wire("wben", g.pg);
        nl.wire("wtag", g.tw);
        if bb > 0 {
            nl.wire("wbank", bb);
        }
        for c in 0..3 {
            nl.wire(&format!("tri_slot_{c}"), g.aw);
            if bb > 0 {
                nl.wire(&format!("vdt_raddr_{c}"), bb);
            }
            nl.wire(&format!("vdt_rsel_{c}"), g.pg);
            nl.wire(&format!("vdt_fwd_{c}"), g.pg);
            nl.wire(&format!("vdt_rdata_{c}"), g.vdt_bits());
            for b in 0..if g.ways == 1 { g.pg } else { 0 } {
                nl.wire(&format!("vdt_rd_{c}_{b}"), g.vdt_bits());
            }
        }
        for b in 0..if g.ways == 1 { g.pg } else { 0 } {
            nl.wire(&format!("vdt_wd_{b}"), g.vdt_bits());
        }
    }
    ways_nets(g, nl);
}

/// The nets of a set-associative VDT's ways (R15; none when direct mapped): each way's
/// lookups, releases, set strobes and (with the RAMs) entries, bank enables and forwarding.
fn ways_nets(g: &Geo, nl: &mut Netlist) {
    let w = g.ways;
    if w == 1 {
        return;
    }
    let looks = usize::from(g.vtx) + if g.vdt_ram { 3 } else { 0 };
    if looks > 0 {
        nl.wire("vdt_look_ways", w * looks);
    }
    nl.wire("vdt_rel_err_ways", w);
    nl.wire("vdt_rel_ways", w * g.n);
    if g.vtx {
        nl.wire("vdt_set_v", w);
    }
    if g.patch {
        nl.wire("vdt_glook_ways", w);
        nl.wire("vdt_set_p", w);
    }
    if g.vdt_ram {
        nl.wire("tri_vtag", 3 * g.tw);
        nl.wire("vdt_rd_ways", 3 * w * g.vdt_bits());
        nl.wire("vdt_wben_ways", w * g.pg);
        nl.wire("vdt_fwd_ways", w * 3 * g.pg);
        for x in 0..w {
            for b in 0..g.pg {
                nl.wire(&format!("vdt_wd_w{x}_{b}"), g.vdt_bits());
                for c in 0..3 {
                    nl.wire(&format!("vdt_rd_w{x}_{c}_{b}"), g.vdt_bits());
                }
            }
        }
    }
}

/// The controller: slots, grant, errors, counters, registers.
fn ctl(g: &Geo, nl: &mut Netlist) -> Result<(), String> {
    let n = g.n;
    let looks_vtx = usize::from(g.vtx);
    let v = hdl(Ctl::new(g))?;
    let m = nl.design("ctl", &v);
    let mut i = Instance::new(&m, "ctl");
    for s in ["clock", "reset", "cfg_valid", "cfg_we", "cfg_addr", "cfg_rvalid", "cfg_rdata", "busy", "stall", "st_slot_valid", "ar_type", "ar_vcount"] {
        i.pin(s, nl.net(s));
    }
    for s in ["err_vdt_miss", "err_pt_miss", "err_malformed", "err_credit", "err_release"] {
        i.pin(s, nl.net(s));
    }
    for (kk, t) in g.classes.iter().enumerate() {
        i.pin(&format!("c_valid${kk}"), nl.net(&format!("{}_valid", chan(*t))));
        i.pin(&format!("c_ready${kk}"), nl.net(&format!("{}_ready", chan(*t))));
        i.pin(&format!("load${kk}"), nl.bit("load", kk));
        i.pin(&format!("gnt${kk}"), nl.bit("gnt", kk));
        for e in 0..n {
            i.pin(&format!("fit${kk}${e}"), Ex::and(kinds_of(g, nl, "res_fit", kk * n + e, 1)));
            i.pin(&format!("prio${kk}${e}"), nl.bits("prio", (kk * n + e) * g.prw, g.prw).zext(8));
            if g.pick {
                i.pin(&format!("ll_ok${kk}${e}"), nl.bit("ll_ok", kk * n + e));
                i.pin(&format!("ll_tie${kk}${e}"), nl.bit("ll_tie", kk * n + e));
            }
        }
    }
    i.pin("sticky", nl.net("sticky"));
    if g.vtx {
        i.pin("vp_indexed$0", nl.net("vp_indexed"));
        i.pin("vp_count$0", nl.net("vp_count").zext(8));
        i.pin("vp_bad$0", nl.net("vp_bad"));
        i.pin("vtx_blocked$0", nl.bit("vdt_look", 0));
        i.pin("vtx_indexed$0", nl.net("vtx_indexed"));
        i.pin("vtx_w$0", nl.net("vtx_w"));
        i.pin("vtx_adv$0", nl.net("vtx_adv"));
    }
    if g.patch {
        i.pin("pp_indexed$0", nl.net("pp_indexed"));
        i.pin("pp_bad$0", nl.net("pp_bad"));
        i.pin("patch_blocked$0", nl.net("vdt_glook"));
        i.pin("patch_indexed$0", nl.net("patch_indexed"));
        i.pin("patch_w$0", nl.net("patch_w"));
        i.pin("patch_adv$0", nl.net("patch_adv"));
    }
    if g.tri {
        i.pin("tri_blocked$0", nl.bit("pt_look", 0));
        i.pin("tri_w$0", nl.net("tri_w"));
        for c in 0..3 {
            i.pin(&format!("ar_ref_valid${c}"), nl.bit("ar_ref_valid", c));
        }
    }
    if g.vdt_ram {
        i.pin("tp_indexed$0", nl.net("tp_indexed"));
        i.pin("tp_fire$0", nl.net("tp_fire"));
        for c in 0..3 {
            i.pin(&format!("tri_vvalid${c}"), nl.bit("vdt_look", looks_vtx + c));
            i.pin(&format!("tri_tag_eq${c}"), nl.bit("tag_eq", c));
            i.pin(&format!("tri_hit${c}"), nl.bit("tri_hit", c));
        }
        i.pin("tri_home$0", nl.net("tri_home").zext(8));
        i.pin("tri_has_home$0", nl.net("tri_has_home"));
    }
    if g.pix {
        i.pin("xp_mask$0", nl.net("xp_mask"));
        i.pin("xp_last$0", nl.net("xp_last"));
        i.pin("pix_hit$0", nl.bit("pt_look", 1));
        i.pin("pix_home$0", nl.bits("pt_rdata", 0, g.uw).zext(8));
        i.pin("xp_fire$0", nl.net("xp_fire"));
        i.pin("pix_clr$0", nl.net("pix_clr"));
        i.pin("ar_pix_mask$0", nl.net("ar_pix_mask"));
        i.pin("ref_pix$0", nl.net("ref_pix"));
    }
    if g.rob > 0 {
        // R14: the pixel slot is blocked while the reorder buffer is full.
        i.pin("pix_blocked$0", nl.net("rob_full"));
    }
    for e in 0..n {
        i.pin(&format!("edt_nz${e}"), nl.bit("ent_nz", e));
        i.pin(&format!("ar_ready${e}"), nl.bit("ar_ready", e));
        i.pin(&format!("ar_refuse${e}"), nl.bit("ar_refuse", e));
        i.pin(&format!("ar_valid${e}"), nl.bit("ar_valid", e));
        i.pin(&format!("ack${e}"), nl.bit("ack", e));
    }
    i.pin("credit_err$0", Ex::or(kinds_of(g, nl, "res_err", 0, 1)));
    i.pin("credit_err$1", nl.net("ent_err"));
    let mut r = 0;
    if g.has_vdt {
        i.pin(&format!("release_err${r}"), nl.net("vdt_rel_err"));
        r += 1;
    }
    if g.tri {
        i.pin(&format!("release_err${r}"), nl.net("pt_rel_err"));
    }
    for b in 0..g.cw {
        i.pin(&format!("cfg_wdata${b}"), nl.bit("cfg_wdata", b));
    }
    // CLASS_PRIO's write data (R7b): the two bits of each slot's type code.
    for (kk, t) in g.classes.iter().enumerate().filter(|_| g.class_reg) {
        i.pin(&format!("cp_wd_hi${kk}"), nl.bit("cfg_wdata", 2 * t + 1));
        i.pin(&format!("cp_wd_lo${kk}"), nl.bit("cfg_wdata", 2 * t));
    }
    for (x, w) in ["res_rd", "ent_rd", "idx_rd", "eu_rd"].iter().enumerate() {
        let rd = if x == 0 { Ex::or(kinds_of(g, nl, w, 0, g.rw)) } else { nl.net(w) };
        i.pin(&format!("rd_ext${x}"), rd.zext(32));
    }
    for b in 0..g.avw {
        i.pin(&format!("eu_avail_cnt${b}"), nl.bit("eu_avail_cnt", b));
    }
    if g.perf {
        // Rules G1-G2: the counter interface, and the credit and release inputs of its events.
        i.pin("perf_sel$0", nl.net("perf_sel").zext(crate::perf::SEL_BITS));
        for s in ["perf_val", "perf_clr", "err_clr"] {
            i.pin(&format!("{s}$0"), nl.net(s));
        }
        i.pin("cr_valid$0", nl.net("cr_valid").zext(32));
        let rel = |has: bool, net: &str| if has { nl.net(net).zext(32) } else { Ex::zeros(32) };
        i.pin("rel_valid$0", rel(g.has_vdt, "vr_valid"));
        i.pin("rel_valid$1", rel(g.tri, "pr_valid"));
    }
    nl.add(i);
    Ok(())
}

/// Resources: FREE_RES / RES_TOTAL per EU and the fit of every slot; with `resources` (R16)
/// one such path per kind, each on its own fields of the sizes, credits, footprint and
/// `st_free_res`, its fits ANDed and its read data and errors ORed into `ctl`'s.
fn res(g: &Geo, nl: &mut Netlist) -> Result<(), String> {
    let (n, rw, kn) = (g.n, g.rw, g.kinds);
    for kind in 0..kn {
        let sfx = kind_suffix(kind);
        let m = nl.design(&format!("res{sfx}"), &crate::dispatch_width!(g.rw, R => hdl(ResPath::<R>::new(g, kind)); 4 5 6 7 8 9 10 11 12 13 14 15 16)?);
        let mut i = Instance::new(&m, &format!("res{sfx}"));
        cfg(&mut i, nl);
        i.pin("cfg_wdata", nl.bits("cfg_wdata", 0, rw));
        i.pin("rd", nl.net(&format!("res_rd{sfx}")));
        for e in 0..n {
            i.pin(&format!("cr_valid${e}"), nl.bit("cr_valid", e));
            i.pin(&format!("cr_res${e}"), nl.bits("cr_res", (e * kn + kind) * rw, rw));
            i.pin(&format!("ack${e}"), nl.bit("ack", e));
            i.pin(&format!("free${e}"), nl.bits("st_free_res", (e * kn + kind) * rw, rw));
        }
        for (kk, t) in g.classes.iter().enumerate() {
            i.pin(&format!("size_in${kk}"), nl.bits(&format!("{}_size", chan(*t)), kind * rw, rw));
            i.pin(&format!("load${kk}"), nl.bit("load", kk));
            i.pin(&format!("gnt${kk}"), nl.bit("gnt", kk));
            for e in 0..n {
                i.pin(&format!("fit${kk}${e}"), nl.bit(&format!("res_fit{sfx}"), kk * n + e));
            }
        }
        i.pin("sticky", nl.net("sticky"));
        i.pin("ar_footprint", nl.bits("ar_footprint", kind * rw, rw));
        // ar_copy_size is kind 0's size (R16); the other kinds' copies go to `res_copy_k`.
        i.pin("ar_copy_size", if kind == 0 { nl.net("ar_copy_size") } else { nl.bits("res_copy_k", (kind - 1) * rw, rw) });
        i.pin("err", nl.net(&format!("res_err{sfx}")));
        nl.add(i);
    }
    Ok(())
}

/// The suffix of resource kind `kind`'s design, instance and nets (R16): none for kind 0.
fn kind_suffix(kind: usize) -> String {
    if kind == 0 { String::new() } else { format!("_k{kind}") }
}

/// `name` (a per-kind net of `res`) of every resource kind, for an AND or OR over the kinds.
fn kinds_of(g: &Geo, nl: &Netlist, name: &str, lo: usize, width: usize) -> Vec<Ex> {
    (0..g.kinds).map(|k| nl.bits(&format!("{name}{}", kind_suffix(k)), lo, width)).collect()
}

/// Entities: FREE_EDT / EDT_TOTAL / PEND per EU.
fn ent(g: &Geo, nl: &mut Netlist) -> Result<(), String> {
    let (n, k) = (g.n, g.k());
    let m = nl.design("ent", &ent_hdl(g)?);
    let mut i = Instance::new(&m, "ent");
    cfg(&mut i, nl);
    i.pin("cfg_wdata", nl.net("cfg_wdata"));
    i.pin("rd", nl.net("ent_rd"));
    for e in 0..n {
        i.pin(&format!("cr_valid${e}"), nl.bit("cr_valid", e));
        i.pin(&format!("cr_edt${e}"), nl.bit("cr_edt", e));
        i.pin(&format!("cr_type${e}"), nl.bits("cr_type", 2 * e, 2));
        i.pin(&format!("ack${e}"), nl.bit("ack", e));
        i.pin(&format!("nz${e}"), nl.bit("ent_nz", e));
        i.pin(&format!("free${e}"), nl.bits("st_free_edt", e * g.fw, g.fw));
        if g.any_ram() {
            i.pin(&format!("ar_ent${e}"), nl.bits("ar_ent", e * g.ent, g.ent));
        }
    }
    for kk in 0..k {
        i.pin(&format!("gnt${kk}"), nl.bit("gnt", kk));
    }
    i.pin("err", nl.net("ent_err"));
    if g.any_ram() {
        i.pin("ack_ent$0", nl.net("ack_ent"));
    }
    if g.vdt_ram {
        for c in 0..3 {
            i.pin(&format!("vdt_ent${c}"), nl.bits(&format!("vdt_rdata_{c}"), g.tw + g.uw, g.ent));
        }
    }
    if g.pix {
        i.pin("pt_ent$0", nl.bits("pt_rdata", g.uw, g.ent));
        i.pin("ref_pix$0", nl.net("ref_pix"));
    }
    if g.tri {
        for c in 0..3 {
            i.pin(&format!("ref_valid${c}"), nl.bit("ar_ref_valid", c));
            i.pin(&format!("ar_ref_ent${c}"), nl.bits("ar_ref_ent", c * g.ent, g.ent));
        }
    }
    nl.add(i);
    Ok(())
}

/// Vertex indices: AUTO_IDX and the index arithmetic.
fn idx(g: &Geo, nl: &mut Netlist) -> Result<(), String> {
    let bb = g.bank_bits();
    let m = nl.design("idx", &crate::dispatch_width!(g.iw, I => hdl(IdxPath::<I>::new(g));
        8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32)?);
    let mut i = Instance::new(&m, "idx");
    cfg(&mut i, nl);
    i.pin("cfg_wdata", Ex::cat(vec![Ex::zeros(g.ew), nl.bits("cfg_wdata", g.ew, g.iw - g.ew)]));
    i.pin("rd", nl.net("idx_rd"));
    if g.vtx {
        let kv = slot(g, VTX);
        i.pin("vp_base$0", nl.net("vp_base_idx"));
        i.pin("vtx_load$0", nl.bit("load", kv));
        i.pin("vtx_indexed$0", nl.net("vtx_indexed"));
        i.pin("vtx_gnt$0", nl.bit("gnt", kv));
        i.pin("vtx_adv$0", nl.net("vtx_adv"));
        i.pin("vp_bad$0", nl.net("vp_bad"));
        for b in 0..g.aw {
            i.pin(&format!("vtx_slot$0${b}"), nl.bit("vtx_slot", b));
        }
        if g.vdt_ram {
            i.pin("vtx_w$0", nl.net("vtx_w"));
        }
    }
    if g.patch {
        let kp = slot(g, PATCH);
        i.pin("pp_base$0", nl.net("pp_base_idx"));
        i.pin("patch_load$0", nl.bit("load", kp));
        i.pin("patch_indexed$0", nl.net("patch_indexed"));
        i.pin("patch_gnt$0", nl.bit("gnt", kp));
        i.pin("patch_adv$0", nl.net("patch_adv"));
        i.pin("pp_bad$0", nl.net("pp_bad"));
        for b in 0..g.aw {
            i.pin(&format!("patch_slot$0${b}"), nl.bit("patch_slot", b));
        }
        if g.vdt_ram {
            i.pin("patch_w$0", nl.net("patch_w"));
        }
    }
    if g.has_vdt {
        i.pin("sticky$0", nl.net("sticky"));
        i.pin("ar_base_idx$0", nl.net("ar_base_idx"));
        for b in 0..g.aw {
            i.pin(&format!("w_slot$0${b}"), nl.bit("w_slot", b));
        }
    }
    if g.vdt_ram {
        let kt = slot(g, TRI);
        for b in 0..bb {
            i.pin(&format!("w_bank_addr${b}"), nl.bit("wbank", b));
        }
        for b in 0..g.pg {
            i.pin(&format!("w_bank_en${b}"), nl.bit("wben", b));
        }
        for b in 0..g.tw {
            i.pin(&format!("w_tag${b}"), nl.bit("wtag", b));
        }
        i.pin("tri_load$0", nl.bit("load", kt));
        i.pin("tp_fire$0", nl.net("tp_fire"));
        for c in 0..3 {
            i.pin(&format!("tp_vidx${c}"), nl.bits("tp_vidx", c * g.iw, g.iw));
            for b in 0..g.aw {
                i.pin(&format!("tri_slot${c}${b}"), nl.bit(&format!("tri_slot_{c}"), b));
            }
            for b in 0..bb {
                i.pin(&format!("rd_addr${c}${b}"), nl.bit(&format!("vdt_raddr_{c}"), b));
            }
            for b in 0..g.pg {
                i.pin(&format!("rd_sel${c}${b}"), nl.bit(&format!("vdt_rsel_{c}"), b));
                i.pin(&format!("fwd_hit${c}${b}"), nl.bit(&format!("vdt_fwd_{c}"), b));
            }
            i.pin(&format!("ram_tag${c}"), nl.bits(&format!("vdt_rdata_{c}"), 0, g.tw).zext(g.iw));
            if g.grp_field() {
                for b in 0..g.gw {
                    let at = g.tw + g.uw + g.ent + b;
                    i.pin(&format!("ram_grp${c}${b}"), nl.bit(&format!("vdt_rdata_{c}"), at));
                    i.pin(&format!("ar_ref_grp${c}${b}"), nl.bit("ar_ref_grp", c * g.gw + b));
                }
            }
            i.pin(&format!("tag_eq${c}"), nl.bit("tag_eq", c));
            for b in 0..if g.ways > 1 { g.tw } else { 0 } {
                i.pin(&format!("tri_tag${c}${b}"), nl.bit("tri_vtag", c * g.tw + b));
            }
            i.pin(&format!("ref_valid${c}"), nl.bit("ar_ref_valid", c));
            for b in 0..g.ew {
                i.pin(&format!("ar_ref_elem${c}${b}"), nl.bit("ar_ref_elem", c * g.ew + b));
            }
        }
        if g.pix {
            i.pin("ref_pix$0", nl.net("ref_pix"));
        }
    }
    nl.add(i);
    Ok(())
}

/// Source addresses.
fn addr(g: &Geo, nl: &mut Netlist) -> Result<(), String> {
    let m = nl.design("addr", &crate::with_width64!(g.adw, A => hdl(AddrPath::<A>::new(g)))?);
    let mut i = Instance::new(&m, "addr");
    i.pin("clock", nl.net("clock"));
    for (kk, t) in g.classes.iter().enumerate() {
        i.pin(&format!("src_in${kk}"), nl.net(&format!("{}_src_addr", chan(*t))));
        i.pin(&format!("load${kk}"), nl.bit("load", kk));
        i.pin(&format!("gnt${kk}"), nl.bit("gnt", kk));
    }
    i.pin("ar_src_addr", nl.net("ar_src_addr"));
    nl.add(i);
    Ok(())
}

/// PRIO, the home EU and the dispatch's EU.
fn eu(g: &Geo, nl: &mut Netlist) -> Result<(), String> {
    let (n, k) = (g.n, g.k());
    let m = nl.design("eu", &eu_hdl(g)?);
    let mut i = Instance::new(&m, "eu");
    cfg(&mut i, nl);
    i.pin("cfg_wdata", nl.bits("cfg_wdata", 0, g.prw));
    i.pin("rd", nl.net("eu_rd"));
    for kk in 0..k {
        for s in 0..n {
            i.pin(&format!("prio${kk}${s}"), nl.bits("prio", (kk * n + s) * g.prw, g.prw));
        }
    }
    if g.eu_sel() {
        for e in 0..n {
            i.pin(&format!("sel${e}"), nl.bit("ar_valid", e));
        }
    }
    if g.any_ram() {
        i.pin("sel_id$0", nl.net("sel_id"));
    }
    if g.vdt_ram {
        for c in 0..3 {
            i.pin(&format!("tri_hit${c}"), nl.bit("tri_hit", c));
            i.pin(&format!("vdt_eu${c}"), nl.bits(&format!("vdt_rdata_{c}"), g.tw, g.uw));
        }
        i.pin("tri_home$0", nl.net("tri_home"));
        i.pin("tri_has_home$0", nl.net("tri_has_home"));
    }
    if g.pix {
        i.pin("pt_eu$0", nl.bits("pt_rdata", 0, g.uw));
        i.pin("ref_pix$0", nl.net("ref_pix"));
    }
    if g.tri {
        for c in 0..3 {
            i.pin(&format!("ref_valid${c}"), nl.bit("ar_ref_valid", c));
            i.pin(&format!("ar_ref_eu${c}"), nl.bits("ar_ref_eu", c * g.uw, g.uw));
        }
        i.pin("ar_global_ref$0", nl.net("ar_global_ref"));
    }
    nl.add(i);
    Ok(())
}

/// The pick of `select` = "least_loaded" or "round_robin" (none with first fit; `pick.rs`).
fn pick(g: &Geo, nl: &mut Netlist) {
    if !g.pick {
        return;
    }
    let (n, k) = (g.n, g.k());
    let m = nl.text_module("top$pick", super::pick::pick_module(g));
    let mut i = Instance::new(&m, "pick");
    if g.rr {
        for s in ["clock", "reset", "ack"] {
            i.pin(s, nl.net(s));
        }
    } else {
        // least_loaded compares kind 0's FREE_RES (R16).
        i.pin("free", Ex::cat((0..n).map(|e| nl.bits("st_free_res", e * g.kinds * g.rw, g.rw)).collect()));
    }
    for kk in 0..k {
        i.pin(&format!("ok_{kk}"), nl.bits("ll_ok", kk * n, n));
        i.pin(&format!("prio_{kk}"), nl.bits("prio", kk * n * g.prw, n * g.prw));
        i.pin(&format!("tie_{kk}"), nl.bits("ll_tie", kk * n, n));
    }
    nl.add(i);
}

/// The pixel reorder buffer of `pixel_reorder` (R14; none without the key; `rob.rs`): pushed
/// by a pixel ack (the pixel slot granted and an `ack`), completed through `pc_*`, popped
/// through `po_*`; `ar_seq` is its TAIL while the pixel slot is granted, and `rob_full`
/// (COUNT = D) blocks the pixel slot in `ctl`.
fn rob(g: &Geo, nl: &mut Netlist) {
    if g.rob == 0 {
        return;
    }
    let m = nl.text_module("top$rob", super::rob::rob_module(g));
    let mut i = Instance::new(&m, "rob");
    for s in ["clock", "reset", "ack", "pc_valid", "pc_seq", "po_ready", "ar_seq", "po_valid", "po_seq"] {
        i.pin(s, nl.net(s));
    }
    i.pin("gnt_pix", nl.bit("gnt", slot(g, PIX)));
    i.pin("full", nl.net("rob_full"));
    nl.add(i);
}

/// The primitive table: PrIDs, valid bits, data and its RAM.
fn pt(g: &Geo, nl: &mut Netlist) -> Result<(), String> {
    let n = g.n;
    if g.tri {
        let kt = slot(g, TRI);
        let m = nl.design("prid", &crate::dispatch_width!(g.pw, W => hdl(PridPath::<W>::new(g)); 1 2 3 4 5 6 7 8 9 10)?);
        let mut i = Instance::new(&m, "prid");
        i.pin("clock", nl.net("clock"));
        i.pin("tp_prid", nl.net("tp_prid"));
        i.pin("tri_load", nl.bit("load", kt));
        i.pin("tri_gnt", nl.bit("gnt", kt));
        i.pin("tri_prid", nl.net("tri_prid"));
        i.pin("ar_prid", nl.net("ar_prid"));
        if g.pix {
            let kx = slot(g, PIX);
            i.pin("xp_tri_id$0", nl.net("xp_tri_id"));
            i.pin("pix_load$0", nl.bit("load", kx));
            i.pin("pix_gnt$0", nl.bit("gnt", kx));
            i.pin("xp_fire$0", nl.net("xp_fire"));
            i.pin("pix_tid$0", nl.net("pix_tid"));
            i.pin("tri_w$0", nl.net("tri_w"));
            i.pin("pt_raddr$0", nl.net("pt_raddr"));
            i.pin("fwd_hit$0", nl.net("pt_fwd"));
        }
        nl.add(i);

        let shape = ValidShape { rels: n, set_one: true, set_grp: false, clr: g.pix, looks: 1 + usize::from(g.pix), glook: false, pg: 1 };
        let m = nl.design("pt_valid", &valid_hdl(g.pd, &shape)?);
        let mut i = Instance::new(&m, "pt_valid");
        i.pin("clock", nl.net("clock"));
        i.pin("reset", nl.net("reset"));
        for e in 0..n {
            i.pin(&format!("rel_valid${e}"), nl.bit("pr_valid", e));
            i.pin(&format!("rel_addr${e}"), nl.bits("pr_id", e * g.pw, g.pw));
        }
        i.pin("set_one$0", nl.net("tri_w"));
        i.pin("set_addr$0", nl.net("tri_prid"));
        i.pin("look_addr$0", nl.net("tri_prid"));
        i.pin("look$0", nl.bit("pt_look", 0));
        if g.pix {
            i.pin("clr$0", nl.net("pix_clr"));
            i.pin("clr_addr$0", nl.net("pix_tid"));
            i.pin("look_addr$1", nl.net("pix_tid"));
            i.pin("look$1", nl.bit("pt_look", 1));
        }
        i.pin("valid", nl.net("st_pt_valid"));
        i.pin("err_release", nl.net("pt_rel_err"));
        nl.add(i);
    }
    if g.pix {
        let m = nl.design("pt_data", &table_hdl(1, 1, 0, g.uw, g.ent, 0)?);
        let mut i = Instance::new(&m, "pt_data");
        i.pin("clock", nl.net("clock"));
        i.pin("reset", nl.net("reset"));
        for b in 0..g.uw {
            i.pin(&format!("w_eu${b}"), nl.bit("sel_id", b));
        }
        for b in 0..g.ent {
            i.pin(&format!("w_ent${b}"), nl.bit("ack_ent", b));
        }
        i.pin("rd$0", nl.net("pt_rdata"));
        i.pin("wdata$0", nl.net("pt_wd"));
        i.pin("fwd_hit$0$0", nl.net("pt_fwd"));
        i.pin("rd_sel$0$0", Ex::bit(true));
        i.pin("ram$0$0", nl.net("pt_rd"));
        nl.add(i);
        let m = nl.text_module("top$pt_ram", crate::mem::sync_ram_module("top$pt_ram", g.pt_bits(), g.pw));
        let mut i = Instance::new(&m, "pt_ram");
        i.pin("clock", nl.net("clock"));
        i.pin("write_enable", nl.net("tri_w"));
        i.pin("write_address", nl.net("tri_prid"));
        i.pin("write_data", nl.net("pt_wd"));
        i.pin("read_enable", Ex::bit(true));
        i.pin("read_address", nl.net("pt_raddr"));
        i.pin("read_data", nl.net("pt_rd"));
        nl.add(i);
    }
    Ok(())
}

/// The nets of way `x` of the VDT: direct mapped (W = 1), the VDT's own nets; with ways
/// (R15), its share of the nets `ways_nets` declares (the module `vdt_ways` joins them).
struct Way<'a> {
    g: &'a Geo,
    x: usize,
}

impl Way<'_> {
    fn one(&self) -> bool {
        self.g.ways == 1
    }

    /// Instance or net `base` (with `_rest`) of this way: `base_rest`, or `base_wX_rest`.
    fn name(&self, base: &str, rest: &str) -> String {
        let w = if self.one() { String::new() } else { format!("_w{}", self.x) };
        let r = if rest.is_empty() { String::new() } else { format!("_{rest}") };
        format!("{base}{w}{r}")
    }

    /// Bit `i` of net `one` when direct mapped, else bit `x * per + i` of the ways' net `ways`.
    fn bit(&self, nl: &Netlist, one: &str, ways: &str, per: usize, i: usize) -> Ex {
        if self.one() {
            nl.bit(one, i)
        } else {
            nl.bit(ways, self.x * per + i)
        }
    }
}

/// The vertex descriptor table: valid bits, data and its banked RAMs; with `vdt_ways` > 1
/// (R15) one of each per way, a direct-mapped table of S sets, joined by `vdt_ways`.
fn vdt(g: &Geo, nl: &mut Netlist) -> Result<(), String> {
    let (n, w) = (g.n, g.ways);
    let (bb, db, pg) = (g.bank_bits(), g.vdt_bits(), g.pg);
    let looks_vtx = usize::from(g.vtx);
    let looks = looks_vtx + if g.vdt_ram { 3 } else { 0 };
    let ways: Vec<Way> = (0..w).map(|x| Way { g, x }).collect();
    if g.has_vdt {
        let shape = ValidShape { rels: n, set_one: g.vtx, set_grp: g.patch, clr: false, looks, glook: g.patch, pg };
        let m = nl.design("vdt_valid", &valid_hdl(g.vd, &shape)?);
        for y in &ways {
            let mut i = Instance::new(&m, &y.name("vdt_valid", ""));
            i.pin("clock", nl.net("clock"));
            i.pin("reset", nl.net("reset"));
            for e in 0..n {
                i.pin(&format!("rel_valid${e}"), y.bit(nl, "vr_valid", "vdt_rel_ways", n, e));
                i.pin(&format!("rel_addr${e}"), nl.bits("vr_slot", e * g.vdt_aw(), g.aw));
            }
            if g.vtx {
                i.pin("set_one$0", y.bit(nl, "vtx_w", "vdt_set_v", 1, 0));
                i.pin("look_addr$0", nl.net("vtx_slot"));
            }
            if g.patch {
                i.pin("set_grp$0", y.bit(nl, "patch_w", "vdt_set_p", 1, 0));
                i.pin("glook_addr$0", nl.net("patch_slot"));
                i.pin("glook$0", y.bit(nl, "vdt_glook", "vdt_glook_ways", 1, 0));
            }
            i.pin("set_addr$0", nl.net("w_slot"));
            if g.vdt_ram {
                for c in 0..3 {
                    i.pin(&format!("look_addr${}", looks_vtx + c), nl.net(&format!("tri_slot_{c}")));
                }
            }
            for l in 0..looks {
                i.pin(&format!("look${l}"), y.bit(nl, "vdt_look", "vdt_look_ways", looks, l));
            }
            i.pin("valid", nl.bits("st_vdt_valid", y.x * g.vd, g.vd));
            i.pin("err_release", y.bit(nl, "vdt_rel_err", "vdt_rel_err_ways", 1, 0));
            nl.add(i);
        }
        if w > 1 {
            ways_inst(g, nl, looks);
        }
    }
    if g.vdt_ram {
        let gw = if g.grp_field() { g.gw } else { 0 };
        let m = nl.design("vdt_data", &table_hdl(3, pg, g.tw, g.uw, g.ent, gw)?);
        for y in &ways {
            let mut i = Instance::new(&m, &y.name("vdt_data", ""));
            i.pin("clock", nl.net("clock"));
            i.pin("reset", nl.net("reset"));
            for b in 0..g.tw {
                i.pin(&format!("w_tag${b}"), nl.bit("wtag", b));
            }
            for b in 0..g.uw {
                i.pin(&format!("w_eu${b}"), nl.bit("sel_id", b));
            }
            for b in 0..g.ent {
                i.pin(&format!("w_ent${b}"), nl.bit("ack_ent", b));
            }
            if gw > 0 {
                i.pin("w_grp_on$0", nl.net("patch_w"));
            }
            for bank in 0..pg {
                i.pin(&format!("wdata${bank}"), nl.net(&y.name("vdt_wd", &bank.to_string())));
            }
            for c in 0..3 {
                for bank in 0..pg {
                    let fwd = if y.one() { nl.bit(&format!("vdt_fwd_{c}"), bank) } else { nl.bit("vdt_fwd_ways", (y.x * 3 + c) * pg + bank) };
                    i.pin(&format!("fwd_hit${c}${bank}"), fwd);
                    i.pin(&format!("rd_sel${c}${bank}"), nl.bit(&format!("vdt_rsel_{c}"), bank));
                    i.pin(&format!("ram${c}${bank}"), nl.net(&y.name("vdt_rd", &format!("{c}_{bank}"))));
                }
                let rd = if y.one() { nl.net(&format!("vdt_rdata_{c}")) } else { nl.bits("vdt_rd_ways", (c * w + y.x) * db, db) };
                i.pin(&format!("rd${c}"), rd);
            }
            nl.add(i);
        }
        let ab = g.bank_ram_bits();
        let m = nl.text_module("top$vdt_ram", crate::mem::sync_ram_module("top$vdt_ram", db, ab));
        let addr = |nl: &Netlist, name: &str| if bb > 0 { nl.net(name) } else { Ex::bit(false) };
        for y in &ways {
            for c in 0..3 {
                for bank in 0..pg {
                    let mut i = Instance::new(&m, &y.name("vdt_ram", &format!("{c}_{bank}")));
                    i.pin("clock", nl.net("clock"));
                    i.pin("write_enable", y.bit(nl, "wben", "vdt_wben_ways", pg, bank));
                    i.pin("write_address", addr(nl, "wbank"));
                    i.pin("write_data", nl.net(&y.name("vdt_wd", &bank.to_string())));
                    i.pin("read_enable", Ex::bit(true));
                    i.pin("read_address", addr(nl, &format!("vdt_raddr_{c}")));
                    i.pin("read_data", nl.net(&y.name("vdt_rd", &format!("{c}_{bank}"))));
                    nl.add(i);
                }
            }
        }
    }
    Ok(())
}

/// The module `vdt_ways` (`ways.rs`; R15, W > 1): the ways' lookups, releases, set strobes,
/// entries, bank enables and forwarding joined into the VDT's nets.
fn ways_inst(g: &Geo, nl: &mut Netlist, looks: usize) {
    let n = g.n;
    let m = nl.text_module("top$vdt_ways", super::ways::ways_module(g));
    let mut i = Instance::new(&m, "vdt_ways");
    for s in ["clock", "reset", "sticky", "vr_valid", "ar_vdt_way"] {
        i.pin(s, nl.net(s));
    }
    i.pin("vr_way", Ex::cat((0..n).map(|e| nl.bits("vr_slot", e * g.vdt_aw() + g.aw, g.wyb)).collect()));
    if looks > 0 {
        i.pin("look_in", nl.net("vdt_look_ways"));
        i.pin("look", nl.net("vdt_look"));
    }
    i.pin("rel_err_in", nl.net("vdt_rel_err_ways"));
    i.pin("rel_err", nl.net("vdt_rel_err"));
    i.pin("rel", nl.net("vdt_rel_ways"));
    if g.vtx {
        i.pin("gnt_v", nl.bit("gnt", slot(g, VTX)));
        i.pin("vtx_w", nl.net("vtx_w"));
        i.pin("set_v", nl.net("vdt_set_v"));
    }
    if g.patch {
        i.pin("gnt_p", nl.bit("gnt", slot(g, PATCH)));
        i.pin("patch_w", nl.net("patch_w"));
        i.pin("glook_in", nl.net("vdt_glook_ways"));
        i.pin("glook", nl.net("vdt_glook"));
        i.pin("set_p", nl.net("vdt_set_p"));
    }
    if g.vdt_ram {
        i.pin("rd_in", nl.net("vdt_rd_ways"));
        i.pin("vtag", nl.net("tri_vtag"));
        i.pin("wben_in", nl.net("wben"));
        i.pin("fwd_in", Ex::cat((0..3).map(|c| nl.net(&format!("vdt_fwd_{c}"))).collect()));
        i.pin("rd", Ex::cat((0..3).map(|c| nl.net(&format!("vdt_rdata_{c}"))).collect()));
        i.pin("wben", nl.net("vdt_wben_ways"));
        i.pin("fwd", nl.net("vdt_fwd_ways"));
    }
    nl.add(i);
}

/// Reference fields this config does not have: tied to zero.
fn unused_refs(g: &Geo, nl: &mut Netlist) {
    if g.tri && !g.vdt_ram {
        nl.tie("ar_ref_elem", Ex::zeros(3 * g.ew));
    }
    if g.tri && !g.grp_field() {
        nl.tie("ar_ref_grp", Ex::zeros(3 * g.gw));
    }
}
