//! Emission: the exact ports, the header and each design's Verilog.

use super::*;

// ---------------------------------------------------------------------------
// Emission: exact ports, header, the designs and the core netlist.
// ---------------------------------------------------------------------------

impl crate::BlockGen for GlobalSpreaderConfig {
    const NAME: &'static str = "global_spreader";

    fn wrapper(&self) -> Wrapper {
        wrapper(&Geo::new(self))
    }

    fn header_params(&self) -> Vec<(String, String)> {
        let g = Geo::new(self);
        let list = |v: &[u64]| format!("[{}]", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "));
        let flags = |v: &[bool]| format!("{:?}", v.iter().enumerate().filter(|(_, b)| **b).map(|(e, _)| e).collect::<Vec<_>>());
        let mut p: Vec<(String, String)> = vec![
            ("eus".into(), g.n.to_string()),
            ("entity_types".into(), format!("{:?}", self.entity_types)),
            ("vertices_per_group".into(), g.vgrp.to_string()),
            ("vdt_depth".into(), g.vdt_depth().to_string()),
            ("pt_depth".into(), g.pd.to_string()),
            ("index_width".into(), g.iw.to_string()),
            ("res_width".into(), g.rw.to_string()),
            ("entity_width".into(), g.ent.to_string()),
            ("addr_width".into(), g.adw.to_string()),
            ("res_total".into(), list(&g.res_total_k[0])),
            ("edt_total".into(), list(&g.edt_total)),
            ("eu_enable".into(), flags(&g.eu_en)),
            ("enable, locality, yield_enable".into(), format!("{}, {}, {}", g.en, g.loc, g.yld)),
        ];
        for (k, t) in g.classes.iter().enumerate() {
            let name = crate::config::GS_TYPE_NAMES[*t];
            p.push((format!("{name}: min_res, frame_res"), format!("{}, {}", g.min_res_k[0][k], g.frame_res_k[0][k])));
            p.push((format!("{name}: priority (PRIO slots)"), list(&g.prio[k])));
            p.push((format!("{name}: dedicated"), flags(&g.ded[k])));
        }
        p.extend([
            ("EU_W, PRIO_W, AV_W".into(), format!("{}, {}, {}", g.uw, g.prw, g.avw)),
            ("FE_W, ELEM_W, VCNT_W".into(), format!("{}, {}, {}", g.fw, g.ew, g.vcw)),
            ("VDT_AW, PRID_W, TAG_W".into(), format!("{}, {}, {}", g.vdt_aw(), g.pw, g.tw)),
            ("PG, GRP_W".into(), format!("{}, {}", g.pg, g.gw)),
        ]);
        // (Listed only off their defaults, so that the default config's file stays as it was.)
        if g.pick {
            p.push(("select".into(), self.select.clone()));
        }
        if g.aging > 0 {
            p.push(("aging".into(), g.aging.to_string()));
        }
        if g.ranked {
            // The slots by their reset rank (`Geo::rank`, one per slot of `classes`).
            let mut order: Vec<(usize, usize)> = g.rank.iter().copied().zip(g.classes.iter().copied()).collect();
            order.sort();
            let list: Vec<&str> = order.iter().map(|(_, t)| crate::config::GS_TYPE_NAMES[*t]).collect();
            p.push(("class_priority".into(), format!("[{}]", list.join(", "))));
        }
        if g.class_reg {
            p.push(("class_priority_reg (CLASS_PRIO at 0x005)".into(), "true".into()));
        }
        if g.kinds > 1 {
            let names = self.resources.clone().unwrap_or_default();
            p.push(("resources (K kinds)".into(), format!("{:?}", names)));
            for k in 1..g.kinds {
                p.push((format!("{}: res_total", names[k]), list(&g.res_total_k[k])));
                for (c, t) in g.classes.iter().enumerate() {
                    let name = crate::config::GS_TYPE_NAMES[*t];
                    p.push((format!("{}: {name}: min_res, frame_res", names[k]), format!("{}, {}", g.min_res_k[k][c], g.frame_res_k[k][c])));
                }
            }
        }
        if g.ways > 1 {
            p.push(("vdt_ways, WAY_W, SET_W".into(), format!("{}, {}, {}", g.ways, g.wyb, g.aw)));
        }
        if g.rob > 0 {
            p.push(("pixel_reorder, RB_W".into(), format!("{}, {}", g.rob, g.rbw)));
        }
        if g.perf {
            p.push(("perf_counters".into(), "true".into()));
            p.push(("PSW (perf_sel bits)".into(), g.psw.to_string()));
        }
        p
    }

    /// The designs, each dispatched on its own width, and the netlist wiring them.
    fn core_verilog(&self) -> Result<String, String> {
        core(&Geo::new(self))
    }
}

/// The exact ports of `warpgen_global_spreader` (contract §3), in the contract's order.
pub(super) fn wrapper(g: &Geo) -> Wrapper {
    let (n, iw, rw, adw, pw) = (g.n, g.iw, g.rw, g.adw, g.pw);
    // R16: K resource kinds widen the sizes, footprint, credits and free counters K times.
    let kr = g.kinds * rw;
    let size_doc = |one: &'static str| if g.kinds == 1 { one } else { "demand of kind k at [k*RES_W +: RES_W]; kind 0 is the data to copy" };
    let p = |name: &str, dir: Dir, w: usize, doc: &str| Port::single(name, dir, w, w, doc);
    let i = |name: &str, w: usize, doc: &str| p(name, Dir::In, w, doc);
    let o = |name: &str, w: usize, doc: &str| p(name, Dir::Out, w, doc);
    let mut groups = vec![PortGroup {
        title: "Clock and synchronous active-high reset".into(),
        ports: vec![i("clock", 1, "rising edge"), i("reset", 1, "slots, requests, valid bits, counters, errors cleared; registers from TOML")],
    }];
    let chan = |title: &str, ports: Vec<Port>| PortGroup { title: title.into(), ports };
    if g.vtx {
        groups.push(chan("Vertex packets (type 0); vp_ready = EN && (slot empty || its request acked now)", vec![
            i("vp_valid", 1, "a vertex packet is offered"),
            o("vp_ready", 1, "taken at this edge (combinational on ar_ready)"),
            i("vp_indexed", 1, "0: the GS assigns AUTO_IDX"),
            i("vp_base_idx", iw, "first vertex index; a multiple of VGRP when indexed"),
            i("vp_count", g.vcw, "vertices, 1 to VGRP"),
            i("vp_size", kr, size_doc("data to copy (resource units)")),
            i("vp_src_addr", adw, "source address (packet id)"),
        ]));
    }
    if g.patch {
        groups.push(chan("Patch packets (type 3, 16 vertices)", vec![
            i("pp_valid", 1, "a patch is offered"),
            o("pp_ready", 1, "taken at this edge"),
            i("pp_indexed", 1, "0: AUTO_IDX rounded up to 16"),
            i("pp_base_idx", iw, "first vertex index; a multiple of 16 when indexed"),
            i("pp_size", kr, size_doc("data to copy")),
            i("pp_src_addr", adw, "source address"),
        ]));
    }
    if g.tri {
        groups.push(chan("Triangle packets (type 1)", vec![
            i("tp_valid", 1, "a triangle is offered"),
            o("tp_ready", 1, "taken at this edge"),
            i("tp_indexed", 1, "1: look the vertices up in the VDT"),
            i("tp_vidx", 3 * iw, "vertex indices v0 (low), v1, v2"),
            i("tp_prid", pw, "primitive id: PT entry"),
            i("tp_size", kr, size_doc("data to copy")),
            i("tp_src_addr", adw, "source address"),
        ]));
    }
    if g.pix {
        groups.push(chan("Pixel packets (type 2)", vec![
            i("xp_valid", 1, "a pixel packet is offered"),
            o("xp_ready", 1, "taken at this edge"),
            i("xp_tri_id", pw, "its triangle's PT entry"),
            i("xp_mask", 16, "pixel mask"),
            i("xp_last", 1, "last packet of the triangle: its PT entry is released at the ack"),
            i("xp_size", kr, size_doc("data to copy")),
            i("xp_src_addr", adw, "source address"),
        ]));
    }
    let mut ar = vec![
        o("ar_valid", n, "one-hot EU of the request, or 0; from registered state"),
        o("ar_type", 2, "0 VTX, 1 TRI, 2 PIX, 3 PATCH"),
        o("ar_footprint", kr, if g.kinds == 1 { "size + FRAME_RES[type]: debited at the ack" } else { "per kind k at [k*RES_W +: RES_W]: size_k + FRAME_RES[type][k], debited at the ack" }),
        o("ar_copy_size", rw, if g.kinds == 1 { "size" } else { "kind 0's size" }),
        o("ar_src_addr", adw, "source address"),
        o("ar_vcount", 5, "VTX count, PATCH 16, TRI 3, PIX 0"),
    ];
    if g.has_vdt {
        ar.push(o("ar_base_idx", iw, "VTX/PATCH base index (AUTO_IDX when not indexed)"));
    }
    if g.tri {
        ar.push(o("ar_prid", pw, "TRI prid, PIX triangle id"));
    }
    if g.pix {
        ar.push(o("ar_pix_mask", 16, "PIX mask"));
    }
    if g.rob > 0 {
        ar.push(o("ar_seq", g.rbw, "PIX: the reorder buffer's TAIL, the packet's sequence number if acked; else 0"));
    }
    if g.ways > 1 {
        ar.push(o("ar_vdt_way", g.wyb, "VTX/PATCH: the VDT way its entries take (R15); else 0"));
    }
    if g.tri {
        ar.extend([
            o("ar_global_ref", 1, "a valid reference is in another EU than the target"),
            o("ar_ref_valid", 3, "bit i: reference i hit (TRI vertex i; PIX: ref 0 = triangle)"),
            o("ar_ref_eu", 3 * g.uw, "reference i's EU at [i*EU_W +: EU_W]"),
            o("ar_ref_ent", 3 * g.ent, "reference i's entity at [i*ENT_W +: ENT_W]"),
            o("ar_ref_elem", 3 * g.ew, "vertex i mod VGRP at [i*ELEM_W +: ELEM_W]"),
            o("ar_ref_grp", 3 * g.gw, "VDT group of vertex i inside its patch entity"),
        ]);
    }
    groups.push(chan("Allocation request to the EU of ar_valid (held until answered)", ar));
    groups.push(chan("EU answer, in the request cycle", vec![
        i("ar_ready", n, "bit e: EU e acknowledges (wins over ar_refuse)"),
        i("ar_refuse", n, "bit e: EU e refuses; the slot tries the next candidate"),
        i("ar_ent", n * g.ent, "EU e's entity number at [e*ENT_W +: ENT_W], with its ack"),
    ]));
    groups.push(chan("Credits from the EUs (effect at the edge)", vec![
        i("cr_valid", n, "bit e: EU e returns cr_res / cr_edt"),
        i("cr_res", n * kr, if g.kinds == 1 { "resource units at [e*RES_W +: RES_W]" } else { "EU e's units of kind k at [(e*K+k)*RES_W +: RES_W]" }),
        i("cr_edt", n, "bit e: one entity record freed"),
        i("cr_type", 2 * n, "its type at [2e +: 2] (PEND)"),
    ]));
    let mut rel = Vec::new();
    if g.has_vdt {
        rel.push(i("vr_valid", n, "bit e: EU e releases VDT slot vr_slot[e]"));
        rel.push(i("vr_slot", n * g.vdt_aw(), "slot at [e*VDT_AW +: VDT_AW]"));
    }
    if g.tri {
        rel.push(i("pr_valid", n, "bit e: EU e releases PT entry pr_id[e]"));
        rel.push(i("pr_id", n * pw, "entry at [e*PRID_W +: PRID_W]"));
    }
    if !rel.is_empty() {
        groups.push(chan("Table releases (all of a cycle apply)", rel));
    }
    if g.rob > 0 {
        groups.push(chan("Pixel order (pixel_reorder, contract R14): completions in, acked pixels out in ack order", vec![
            i("pc_valid", n, "bit e: EU e completes the pixel packet pc_seq[e] (effect at the edge)"),
            i("pc_seq", n * g.rbw, "its ar_seq at [e*RB_W +: RB_W]; ignored unless outstanding"),
            o("po_valid", 1, "the oldest acked pixel packet is complete; from registered state"),
            i("po_ready", 1, "with po_valid: it leaves at this edge"),
            o("po_seq", g.rbw, "its sequence number (the buffer's HEAD)"),
        ]));
    }
    groups.push(chan("Registers (contract 2.1): access in cycle m, read data in m+1", vec![
        i("cfg_valid", 1, "an access"),
        i("cfg_we", 1, "1 write, 0 read"),
        i("cfg_addr", CFG_AW, "word address"),
        i("cfg_wdata", 32, "write data (low bits stored)"),
        o("cfg_rvalid", 1, "last cycle was a read"),
        o("cfg_rdata", 32, "its value (zero-extended), else 0"),
    ]));
    groups.push(chan("Sticky errors (STATUS bits 6:2, write 1 to clear)", vec![
        o("err_vdt_miss", 1, "an indexed triangle was dispatched with an invalid reference"),
        o("err_pt_miss", 1, "a pixel was dispatched without its triangle in the PT"),
        o("err_malformed", 1, "a malformed packet was dropped"),
        o("err_credit", 1, "a credit or debit was clamped (FREE_RES, FREE_EDT, PEND)"),
        o("err_release", 1, "a release named an invalid table entry"),
    ]));
    let mut st = vec![
        o("busy", 1, "a slot is occupied"),
        o("stall", 1, "busy and no request"),
        o("eu_avail_cnt", g.avw, "enabled EUs with a free entity record"),
        o("st_slot_valid", 4, "bit t: slot of type t occupied"),
        o("st_free_res", n * kr, if g.kinds == 1 { "FREE_RES[e] at [e*RES_W +: RES_W]" } else { "FREE_RES[e][k] at [(e*K+k)*RES_W +: RES_W]" }),
        o("st_free_edt", n * g.fw, "FREE_EDT[e] at [e*FE_W +: FE_W]"),
    ];
    if g.has_vdt {
        st.push(o("st_vdt_valid", g.vdt_depth(), "VDT valid bits"));
    }
    if g.tri {
        st.push(o("st_pt_valid", g.pd, "PT valid bits"));
    }
    groups.push(chan("Observability (registered state)", st));
    if g.perf {
        groups.push(perf_group(g));
    }
    Wrapper { block: "global_spreader".into(), groups }
}

/// With `perf_counters` (rules G1-G2): the uniform counter interface of docs/perf.md. The core
/// netlist takes every top port by its name and exact width, so each port of the shared group
/// is bound to the core port of its own name (the netlist zero-extends `perf_sel` into `ctl`).
fn perf_group(g: &Geo) -> PortGroup {
    let mut pg = crate::perf::port_group(g.psw, Some("err_vdt_miss, err_pt_miss, err_malformed, err_credit, err_release"));
    for p in &mut pg.ports {
        *p = Port::single(&p.name, p.dir, p.width(), p.width(), &p.doc);
    }
    pg
}

/// rust-hdl's Verilog of a design, checked.
pub(super) fn hdl<B: Block>(mut b: B) -> Result<String, String> {
    b.connect_all();
    rust_hdl::core::check_error::check_all(&b).map_err(|e| format!("{e:?}"))?;
    Ok(generate_verilog_unchecked(&b))
}

pub(super) fn valid_hdl(depth: usize, s: &ValidShape) -> Result<String, String> {
    match depth {
        2 => hdl(ValidBits::<2, 1>::new(s)),
        4 => hdl(ValidBits::<4, 2>::new(s)),
        8 => hdl(ValidBits::<8, 3>::new(s)),
        16 => hdl(ValidBits::<16, 4>::new(s)),
        32 => hdl(ValidBits::<32, 5>::new(s)),
        64 => hdl(ValidBits::<64, 6>::new(s)),
        128 => hdl(ValidBits::<128, 7>::new(s)),
        256 => hdl(ValidBits::<256, 8>::new(s)),
        512 => hdl(ValidBits::<512, 9>::new(s)),
        1024 => hdl(ValidBits::<1024, 10>::new(s)),
        d => panic!("table depth {d} is outside the range the config validates"),
    }
}

pub(super) fn table_hdl(copies: usize, banks: usize, tg: usize, uw: usize, ent: usize, gw: usize) -> Result<String, String> {
    crate::dispatch_width!(tg + uw + ent + gw, D => hdl(TableData::<D>::new(copies, banks, tg, uw, ent, gw));
        2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40
        41 42 43 44 45)
}

pub(super) fn ent_hdl(g: &Geo) -> Result<String, String> {
    match g.ent {
        1 => hdl(EntPath::<1, 2>::new(g)),
        2 => hdl(EntPath::<2, 3>::new(g)),
        3 => hdl(EntPath::<3, 4>::new(g)),
        4 => hdl(EntPath::<4, 5>::new(g)),
        5 => hdl(EntPath::<5, 6>::new(g)),
        6 => hdl(EntPath::<6, 7>::new(g)),
        7 => hdl(EntPath::<7, 8>::new(g)),
        8 => hdl(EntPath::<8, 9>::new(g)),
        9 => hdl(EntPath::<9, 10>::new(g)),
        10 => hdl(EntPath::<10, 11>::new(g)),
        w => panic!("entity_width {w} is outside the range the config validates"),
    }
}

pub(super) fn eu_hdl(g: &Geo) -> Result<String, String> {
    match g.uw {
        1 => hdl(EuPath::<1, 2>::new(g)),
        2 => hdl(EuPath::<2, 3>::new(g)),
        3 => hdl(EuPath::<3, 4>::new(g)),
        4 => hdl(EuPath::<4, 5>::new(g)),
        5 => hdl(EuPath::<5, 6>::new(g)),
        w => panic!("EU id width {w} is outside the range the config validates"),
    }
}
