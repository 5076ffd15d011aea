//! The emitted ports and modules of each block at chosen configs, through the public API
//! (`generate`); moved out of the crate so that `cargo test` does not compile `warpgen-rtl` a
//! second time as a unit-test harness (docs/build-time.md).

/// Block `block` at the default config with `block.`-prefixed overrides `sets`.
fn emit(block: &str, sets: &[&str]) -> warpgen_rtl::Emitted {
    let sets: Vec<String> = sets.iter().map(|s| format!("{block}.{s}")).collect();
    warpgen_rtl::generate(&warpgen_rtl::Config::embedded(&sets).unwrap(), block).unwrap()
}

/// Every port's name and width, in order.
#[allow(dead_code)]
fn widths(e: &warpgen_rtl::Emitted) -> Vec<(&str, usize)> {
    e.ports.iter().map(|p| (p.name.as_str(), p.width())).collect()
}

/// The width of port `port` (which must exist).
fn width(e: &warpgen_rtl::Emitted, port: &str) -> usize {
    e.ports.iter().find(|p| p.name == port).unwrap_or_else(|| panic!("{port}")).width()
}

mod generate {
    use warpgen_rtl::*;

    #[test]
    fn emission_is_deterministic_and_config_sensitive() {
        let a = generate(&Config::embedded(&[]).unwrap(), "scoreboard").unwrap().verilog;
        let b = generate(&Config::embedded(&[]).unwrap(), "scoreboard").unwrap().verilog;
        assert_eq!(a, b);
        let c = generate(&Config::embedded(&["scoreboard.trackers=7".into()]).unwrap(), "scoreboard").unwrap().verilog;
        assert_ne!(a, c);
        assert!(c.contains("input  wire [6:0]    iss_dep_mask"), "exact mask width");
    }

    #[test]
    fn every_module_carries_the_block_prefix() {
        let v = generate(&Config::embedded(&[]).unwrap(), "scoreboard").unwrap().verilog;
        for line in v.lines().filter(|l| l.starts_with("module ")) {
            assert!(line.starts_with("module warpgen_scoreboard"), "{line}");
        }
        assert!(!v.contains('$'), "no rust-hdl path separators left");
    }
}

mod branch_stack {
    #[allow(unused_imports)]
    use super::{width, widths};

    fn emit(sets: &[&str]) -> warpgen_rtl::Emitted {
        super::emit("branch_stack", sets)
    }


    #[test]
    fn ports_are_exact_for_the_config() {
        let e = emit(&[]);
        let got: Vec<(&str, usize)> = e.ports.iter().map(|p| (p.name.as_str(), p.width())).collect();
        let want = [
            ("clock", 1), ("reset", 1), ("cc_vld", 3), ("cc_sop", 6), ("cc_val", 12),
            ("de_br_vld", 1), ("de_br_cmp", 1), ("de_br_sel", 2), ("de_br_pol", 1), ("de_br_f", 1),
            ("de_br_g", 1), ("de_br_op", 2), ("de_pc", 32), ("de_off", 16), ("br_taken", 1),
            ("br_target", 32), ("cc_r", 4), ("cc_r_vld", 1), ("cc_s", 4), ("cc_s_vld", 1),
            ("cc_cnt", 3), ("ex_branch_t1", 1), ("ex_t1pc", 32), ("pc_hold", 1), ("pc", 32),
            ("npc", 32), ("branch_t0_q", 1), ("t0pc_q", 32), ("err_clr", 1), ("err_ovf", 1),
            ("err_udf", 1), ("err_port", 1), ("err_multi", 1),
        ];
        assert_eq!(got, want);
        assert!(e.verilog.contains(".de_off({16'b0, de_off})"), "offset zero-extended into the core");

        let e = emit(&["pc_width=4", "offset_width=2", "depth=2", "producer_stages=1"]);
        for (p, w) in [("de_pc", 4), ("de_off", 2), ("pc", 4), ("t0pc_q", 4), ("cc_cnt", 2), ("cc_vld", 1), ("cc_sop", 2), ("cc_val", 4)] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        let e = emit(&["pc_width=64", "offset_width=64", "depth=32"]);
        assert_eq!((width(&e, "pc"), width(&e, "de_off"), width(&e, "cc_cnt")), (64, 64, 6));
        assert!(e.verilog.contains(".de_off(de_off)"), "no extension at offset_width == pc_width");
    }

    #[test]
    fn perf_counters_add_three_ports_and_a_bank() {
        let off = emit(&[]);
        assert!(!off.verilog.contains("perf_"), "off: no port, no logic");
        let names = |e: &warpgen_rtl::Emitted| e.ports.iter().map(|p| (p.name.clone(), p.width())).collect::<Vec<_>>();
        for extra in [&[][..], &["producer_conflict=\"stall\"", "producer_stages=1"][..]] {
            let base = emit(extra);
            let on = emit(&[extra, &["perf_counters=true"]].concat());
            let w = names(&on);
            assert_eq!(&w[..w.len() - 3], &names(&base)[..], "the other ports are unchanged");
            let tail: Vec<(&str, usize)> = w[w.len() - 3..].iter().map(|(n, w)| (n.as_str(), *w)).collect();
            assert_eq!(tail, [("perf_sel", 4), ("perf_val", 32), ("perf_clr", 1)]);
            assert!(on.verilog.contains(".perf_sel_0({4'b0, perf_sel})"), "perf_sel zero-extended into the bank's 8 bits");
            assert_eq!(on.verilog.matches("warpgen_branch_stack_dff_w32 cnt_q_").count(), 10, "10 counters");
            assert!(on.verilog.contains("//   perf_counters") && on.verilog.contains("PSW (perf_sel bits)"));
        }
    }

    #[test]
    fn registers_are_exact_and_modules_prefixed() {
        let e = emit(&["depth=5", "pc_width=20", "offset_width=7"]);
        // rust-hdl's DFFs by width: 4-bit entries, 1-bit cnt/flags, 20-bit PCs only.
        let mut dffs: Vec<&str> = e.verilog.lines().filter(|l| l.starts_with("module warpgen_branch_stack_dff_")).collect();
        dffs.sort();
        assert_eq!(dffs.len(), 3, "{dffs:?}");
        assert!(dffs.iter().any(|l| l.starts_with("module warpgen_branch_stack_dff_w20(")));
        assert_eq!(e.verilog.matches("warpgen_branch_stack_dff_w4 entry_q_").count(), 5);
        assert_eq!(e.verilog.matches("warpgen_branch_stack_dff_w1 cnt_q_").count(), 3);
        for line in e.verilog.lines().filter(|l| l.starts_with("module ")) {
            assert!(line.starts_with("module warpgen_branch_stack"), "{line}");
        }
        assert!(!e.verilog.contains('$'));
        assert_eq!(e.verilog, emit(&["depth=5", "pc_width=20", "offset_width=7"]).verilog, "deterministic");
    }

    /// `thread_groups` (rules G1–G7 of docs/blocks/branch_stack.md): the group ports after the
    /// others, exact widths, one stack and one PC register per group; none at one group.
    #[test]
    fn thread_groups_add_the_group_ports_and_state() {
        assert_eq!(emit(&["thread_groups=1"]).verilog, emit(&[]).verilog, "one group: the default Verilog");
        for extra in [&[][..], &["producer_conflict=\"stall\"", "perf_counters=true"][..]] {
            let base = emit(extra);
            let e = emit(&[extra, &["thread_groups=4"]].concat());
            let w = widths(&e);
            let n = base.ports.len();
            // The group ports come before the counters' (perf_sel, perf_val, perf_clr).
            let k = if extra.is_empty() { n } else { n - 3 };
            assert_eq!(&w[..k], &widths(&base)[..k], "the other ports are unchanged");
            assert_eq!(&w[w.len() - (n - k)..], &widths(&base)[k..]);
            let want = [
                ("cc_tg", 6), ("de_tg", 2), ("ex_tg", 2), ("fe_tg", 2), ("t0_tg_q", 2), ("sv_tg", 2), ("sv_cnt", 3),
                ("sv_stack", 16), ("sv_pc", 32), ("rs_valid", 1), ("rs_tg", 2), ("rs_cnt", 3), ("rs_stack", 16), ("rs_pc", 32),
            ];
            assert_eq!(&w[k..k + want.len()], &want[..]);
            assert!(e.verilog.contains(".de_tg_0({3'b0, de_tg})"), "group ids zero-extended into the core's 5 bits");
            assert!(e.verilog.contains(".rs_cnt_0({5'b0, rs_cnt})"), "rs_cnt zero-extended into the core's 8 bits");
            assert!(e.verilog.contains("//   thread_groups        = 4") && e.verilog.contains("TG_W (group id bits) = 2"));
            // Four stacks (one module), four PC registers, two bits of t0_tg_q.
            assert_eq!(e.verilog.matches("    warpgen_branch_stack_ctl_stack stack").count(), 4);
            assert_eq!(e.verilog.matches("    warpgen_branch_stack_dfc_pc_g_q pc_").count(), 4);
            assert_eq!(e.verilog.matches("warpgen_branch_stack_dff_w1 t0_tg_bit_q_").count(), 2);
            for line in e.verilog.lines().filter(|l| l.starts_with("module ")) {
                assert!(line.starts_with("module warpgen_branch_stack"), "{line}");
            }
        }
        let e = emit(&["thread_groups=32", "depth=32", "producer_stages=1", "pc_width=64", "offset_width=8"]);
        for (p, wd) in [("cc_tg", 5), ("de_tg", 5), ("t0_tg_q", 5), ("sv_cnt", 6), ("sv_stack", 128), ("sv_pc", 64), ("rs_stack", 128), ("rs_cnt", 6)] {
            assert_eq!(width(&e, p), wd, "{p}");
        }
        assert!(e.verilog.contains(".de_tg_0(de_tg)"), "no extension at 32 groups");
    }
}

mod global_spreader {
    #[allow(unused_imports)]
    use super::{width, widths};

    fn emit(sets: &[&str]) -> warpgen_rtl::Emitted {
        super::emit("global_spreader", sets)
    }


    #[test]
    fn default_ports_are_the_contracts() {
        // Contract §3 at the defaults: 5 EUs (EU_W 3), IDX_W 16, RES_W 12, ENT_W 8 (FE_W 9),
        // ADDR_W 32, VGRP 8 (VCNT_W 4, ELEM_W 3), VDT/PT 256 (VDT_AW = PRID_W = 8), PG 2 (GRP_W 1).
        let e = emit(&[]);
        let want = [
            ("clock", 1), ("reset", 1),
            ("vp_valid", 1), ("vp_ready", 1), ("vp_indexed", 1), ("vp_base_idx", 16), ("vp_count", 4), ("vp_size", 12), ("vp_src_addr", 32),
            ("pp_valid", 1), ("pp_ready", 1), ("pp_indexed", 1), ("pp_base_idx", 16), ("pp_size", 12), ("pp_src_addr", 32),
            ("tp_valid", 1), ("tp_ready", 1), ("tp_indexed", 1), ("tp_vidx", 48), ("tp_prid", 8), ("tp_size", 12), ("tp_src_addr", 32),
            ("xp_valid", 1), ("xp_ready", 1), ("xp_tri_id", 8), ("xp_mask", 16), ("xp_last", 1), ("xp_size", 12), ("xp_src_addr", 32),
            ("ar_valid", 5), ("ar_type", 2), ("ar_footprint", 12), ("ar_copy_size", 12), ("ar_src_addr", 32), ("ar_vcount", 5),
            ("ar_base_idx", 16), ("ar_prid", 8), ("ar_pix_mask", 16), ("ar_global_ref", 1), ("ar_ref_valid", 3),
            ("ar_ref_eu", 9), ("ar_ref_ent", 24), ("ar_ref_elem", 9), ("ar_ref_grp", 3),
            ("ar_ready", 5), ("ar_refuse", 5), ("ar_ent", 40),
            ("cr_valid", 5), ("cr_res", 60), ("cr_edt", 5), ("cr_type", 10),
            ("vr_valid", 5), ("vr_slot", 40), ("pr_valid", 5), ("pr_id", 40),
            ("cfg_valid", 1), ("cfg_we", 1), ("cfg_addr", 10), ("cfg_wdata", 32), ("cfg_rvalid", 1), ("cfg_rdata", 32),
            ("err_vdt_miss", 1), ("err_pt_miss", 1), ("err_malformed", 1), ("err_credit", 1), ("err_release", 1),
            ("busy", 1), ("stall", 1), ("eu_avail_cnt", 3), ("st_slot_valid", 4), ("st_free_res", 60), ("st_free_edt", 45),
            ("st_vdt_valid", 256), ("st_pt_valid", 256),
        ];
        assert_eq!(widths(&e), want);
    }

    #[test]
    fn ports_follow_the_config() {
        // One EU, vertices only, smallest widths: no triangle/pixel/patch ports, no PT.
        let e = emit(&[
            "eus=1", "entity_types=[\"vertex\"]", "vertices_per_group=16", "vdt_depth=4", "index_width=8",
            "res_width=4", "entity_width=1", "addr_width=8",
        ]);
        let w = widths(&e);
        for absent in ["tp_valid", "xp_valid", "pp_valid", "ar_prid", "ar_ref_valid", "pr_valid", "st_pt_valid", "ar_pix_mask"] {
            assert!(w.iter().all(|(n, _)| *n != absent), "{absent} present: {w:?}");
        }
        for (p, width) in [
            ("vp_base_idx", 8), ("vp_count", 5), ("vp_size", 4), ("vp_src_addr", 8), ("ar_valid", 1), ("ar_ent", 1),
            ("vr_slot", 2), ("st_vdt_valid", 4), ("st_free_edt", 2), ("eu_avail_cnt", 1), ("ar_base_idx", 8),
        ] {
            assert!(w.contains(&(p, width)), "{p} {width}: {w:?}");
        }
        // Three EUs, triangles and pixels only: a PT but no VDT.
        let e = emit(&["eus=3", "entity_types=[\"pixel\", \"triangle\"]", "pt_depth=64", "entity_width=10"]);
        let w = widths(&e);
        for (p, width) in [("ar_ref_eu", 6), ("ar_ref_ent", 30), ("pr_id", 18), ("st_pt_valid", 64), ("tp_vidx", 48), ("eu_avail_cnt", 2)] {
            assert!(w.contains(&(p, width)), "{p} {width}: {w:?}");
        }
        assert!(w.iter().all(|(n, _)| !n.starts_with("vr_") && *n != "st_vdt_valid" && *n != "ar_base_idx"), "{w:?}");
        // 32 EUs, widest fields; VGRP 4 puts a patch in 4 groups (GRP_W 2).
        let e = emit(&["eus=32", "vertices_per_group=4", "index_width=32", "addr_width=64", "res_width=16"]);
        let w = widths(&e);
        for (p, width) in [("ar_valid", 32), ("ar_ref_eu", 15), ("ar_ref_grp", 6), ("ar_ref_elem", 6), ("eu_avail_cnt", 6), ("vr_slot", 256), ("tp_vidx", 96), ("cr_res", 512)] {
            assert!(w.contains(&(p, width)), "{p} {width}: {w:?}");
        }
    }

    #[test]
    fn emission_is_deterministic_prefixed_and_exact() {
        let e = emit(&["eus=3", "res_width=5"]);
        assert_eq!(e.verilog, emit(&["eus=3", "res_width=5"]).verilog, "same config, same bytes");
        assert_ne!(e.verilog, emit(&["eus=3", "res_width=6"]).verilog);
        for line in e.verilog.lines().filter(|l| l.starts_with("module ")) {
            assert!(line.starts_with("module warpgen_global_spreader"), "{line}");
        }
        assert!(!e.verilog.contains('$'), "no rust-hdl path separators left");
        // Registers are exactly as wide as the config: RES_W 5, FE_W 9, IDX_W 16, ADDR_W 32,
        // PRIO_W 3 (EU_W 2), the 256 valid bits of each table; no 12-bit register remains.
        for w in [5, 9, 16, 32, 3, 256] {
            assert!(e.verilog.contains(&format!("module warpgen_global_spreader_dff_w{w}(")), "dff_w{w}");
        }
        assert!(!e.verilog.contains("module warpgen_global_spreader_dff_w12("));
        // The tables are synchronous-read RAMs: VDT words {tag 5, eu 2, ent 8, grp 1} in
        // 2 banks of 128 per copy, PT words {eu 2, ent 8} of 256.
        assert!(e.verilog.contains("reg [15:0] mem [0:127];"), "VDT bank");
        assert!(e.verilog.contains("reg [9:0] mem [0:255];"), "PT");
        assert_eq!(e.verilog.matches("warpgen_global_spreader_vdt_ram vdt_ram_").count(), 6);
        assert_eq!(e.verilog.matches("warpgen_global_spreader_pt_ram pt_ram(").count(), 1);
    }

    #[test]
    fn pixel_reorder_adds_six_ports_and_a_queue() {
        // Contract R14, §3: off (the default) nothing of it; on, ar_seq after ar_pix_mask and the
        // pixel order group after the table releases, RB_W = log2 D bits per sequence number.
        let off = emit(&["eus=3"]);
        for name in ["ar_seq", "pc_valid", "pc_seq", "po_valid", "po_ready", "po_seq", "pixel_reorder", "_rob"] {
            assert!(!off.verilog.contains(name), "off: no {name}");
        }
        let on = emit(&["eus=3", "pixel_reorder=16"]);
        let mut want = widths(&off);
        let at = want.iter().position(|(n, _)| *n == "ar_pix_mask").unwrap() + 1;
        want.insert(at, ("ar_seq", 4));
        let at = want.iter().position(|(n, _)| *n == "pr_id").unwrap() + 1;
        for (k, p) in [("pc_valid", 3), ("pc_seq", 12), ("po_valid", 1), ("po_ready", 1), ("po_seq", 4)].into_iter().enumerate() {
            want.insert(at + k, p);
        }
        assert_eq!(widths(&on), want);
        assert!(on.verilog.contains("//   pixel_reorder, RB_W") && on.verilog.contains("= 16, 4"), "header");
        // The queue: HEAD, TAIL (4 bits), COUNT (5 bits), 16 DONE bits; full blocks the pixel slot.
        for decl in ["reg [3:0] head_q;", "reg [3:0] tail_q;", "reg [4:0] count_q;", "reg [15:0] done_q;"] {
            assert!(on.verilog.contains(decl), "{decl}");
        }
        assert!(on.verilog.contains(".pix_blocked_0(rob_full)"));
        // The edges of the range: one EU and D = 2 (one-bit numbers), 32 EUs and D = 64.
        let e = emit(&["eus=1", "pixel_reorder=2"]);
        for (p, w) in [("ar_seq", 1), ("pc_valid", 1), ("pc_seq", 1), ("po_seq", 1)] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        let e = emit(&["eus=32", "pixel_reorder=64"]);
        for (p, w) in [("ar_seq", 6), ("pc_valid", 32), ("pc_seq", 192), ("po_seq", 6)] {
            assert_eq!(width(&e, p), w, "{p}");
        }
    }

    #[test]
    fn vdt_ways_adds_one_port() {
        // Contract R15, §3: one way (the default) nothing of it, the Verilog of the default;
        // 2 or 4 ways add `ar_vdt_way` of WAY_W = log2 W bits after `ar_pix_mask` (after `ar_seq`
        // with pixel_reorder) and change no other port (`vr_slot` stays VDT_AW bits an entry,
        // `st_vdt_valid` one bit an entry).
        let off = emit(&["eus=3"]);
        assert!(!off.verilog.contains("ar_vdt_way"), "off: no ar_vdt_way");
        assert_eq!(emit(&["eus=3", "vdt_ways=1"]).verilog, off.verilog, "vdt_ways = 1 is the default, byte for byte");
        for (w, wayw) in [(2, 1), (4, 2)] {
            let on = emit(&["eus=3", &format!("vdt_ways={w}")]);
            let mut want = widths(&off);
            let at = want.iter().position(|(n, _)| *n == "ar_pix_mask").unwrap() + 1;
            want.insert(at, ("ar_vdt_way", wayw));
            assert_eq!(widths(&on), want, "vdt_ways = {w}");
        }
        // With pixel_reorder the way follows ar_seq.
        let rob = emit(&["eus=3", "pixel_reorder=4"]);
        let mut want = widths(&rob);
        let at = want.iter().position(|(n, _)| *n == "ar_seq").unwrap() + 1;
        want.insert(at, ("ar_vdt_way", 1));
        assert_eq!(widths(&emit(&["eus=3", "pixel_reorder=4", "vdt_ways=2"])), want);
        // Vertices only (no PT, no pixel): after ar_base_idx; one EU and the smallest VDT of 2
        // ways (8 entries, 4 sets).
        let small = ["eus=1", "entity_types=[\"vertex\"]", "vdt_depth=8", "index_width=8", "res_width=4", "entity_width=1", "addr_width=8"];
        let one = emit(&small);
        let mut want = widths(&one);
        let at = want.iter().position(|(n, _)| *n == "ar_base_idx").unwrap() + 1;
        want.insert(at, ("ar_vdt_way", 1));
        assert_eq!(widths(&emit(&[&small[..], &["vdt_ways=2"]].concat())), want);
        // Patch at VGRP 4 (a patch in 4 groups) on 4 ways of 4 sets, 32 EUs: the same one port.
        let wide = ["eus=32", "entity_types=[\"vertex\", \"patch\"]", "vertices_per_group=4", "vdt_depth=16"];
        let one = emit(&wide);
        let mut want = widths(&one);
        let at = want.iter().position(|(n, _)| *n == "ar_base_idx").unwrap() + 1;
        want.insert(at, ("ar_vdt_way", 2));
        let four = emit(&[&wide[..], &["vdt_ways=4"]].concat());
        assert_eq!(widths(&four), want);
        assert_eq!((width(&four, "vr_slot"), width(&four, "st_vdt_valid")), (32 * 4, 16));
    }

    /// The ports R16 widens: one RES_W field per kind (channel sizes, the footprint) and per EU
    /// and kind (credits, free counters). `ar_copy_size` is kind 0's size and stays RES_W.
    const KIND_PORTS: [&str; 7] = ["vp_size", "pp_size", "tp_size", "xp_size", "ar_footprint", "cr_res", "st_free_res"];

    /// The ports of `one` (a config with one kind) with every port of [`KIND_PORTS`] `k` times
    /// as wide: R16's ports for K = `k`.
    fn widened<'a>(one: &'a warpgen_rtl::Emitted, k: usize) -> Vec<(&'a str, usize)> {
        widths(one).into_iter().map(|(n, w)| (n, if KIND_PORTS.contains(&n) { w * k } else { w })).collect()
    }

    #[test]
    fn resources_widen_the_resource_ports() {
        // Contract R16, §3: one kind (the default, or a list of one name) is the default's
        // Verilog byte for byte; K kinds make every `*_size`, `ar_footprint`, `cr_res` and
        // `st_free_res` K times as wide and change no other port, none added, none moved.
        let dflt = emit(&[]);
        assert_eq!(emit(&["resources=[\"regs\"]"]).verilog, dflt.verilog, "one kind is the default, byte for byte");
        let off = emit(&["eus=3"]);
        assert_eq!(emit(&["eus=3", "resources=[\"a\"]"]).verilog, off.verilog, "one kind, 3 EUs");
        let lists = [(2, "[\"a\", \"b\"]"), (4, "[\"regs\", \"threads\", \"buf\", \"tex_0\"]")];
        for (k, list) in lists {
            let on = emit(&["eus=3", &format!("resources={list}")]);
            assert_eq!(widths(&on), widened(&off, k), "K = {k}");
            // At the contract's widths: RES_W 12, 3 EUs.
            for (p, w) in [("vp_size", 12 * k), ("xp_size", 12 * k), ("ar_footprint", 12 * k), ("ar_copy_size", 12),
                           ("cr_res", 3 * k * 12), ("st_free_res", 3 * k * 12), ("cfg_rdata", 32)] {
                assert_eq!(width(&on, p), w, "K = {k}: {p}");
            }
            // Reset values in a kind's table change no port either.
            if k == 2 {
                let tables = emit(&["eus=3", &format!("resources={list}"), "resource={b={res_total=[1,2,3], min_res={pixel=4}}}"]);
                assert_eq!(widths(&tables), widths(&on), "K = {k} with a kind table");
            }
        }
        // One EU, vertices only, the smallest widths (RES_W 4), and 32 EUs at RES_W 16 with two
        // classes: the same rule.
        let small = ["eus=1", "entity_types=[\"vertex\"]", "vdt_depth=4", "index_width=8", "res_width=4", "entity_width=1", "addr_width=8"];
        let one = emit(&small);
        for (k, list) in lists {
            let on = emit(&[&small[..], &[&format!("resources={list}")[..]]].concat());
            assert_eq!(widths(&on), widened(&one, k), "small, K = {k}");
            assert_eq!((width(&on, "vp_size"), width(&on, "cr_res"), width(&on, "ar_copy_size")), (4 * k, 4 * k, 4), "small, K = {k}");
        }
        let wide = ["eus=32", "entity_types=[\"triangle\", \"pixel\"]", "res_width=16"];
        let one = emit(&wide);
        let on = emit(&[&wide[..], &["resources=[\"a\", \"b\", \"c\", \"d\"]"]].concat());
        assert_eq!(widths(&on), widened(&one, 4), "32 EUs, K = 4");
        assert_eq!((width(&on, "cr_res"), width(&on, "st_free_res"), width(&on, "tp_size")), (2048, 2048, 64));
        // K = 3 beside the options that add ports (least_loaded, the counters, pixel order, ways).
        let opts = ["eus=3", "select=\"least_loaded\"", "perf_counters=true", "pixel_reorder=4", "vdt_ways=2"];
        let one = emit(&opts);
        let on = emit(&[&opts[..], &["resources=[\"a\", \"b\", \"c\"]"]].concat());
        assert_eq!(widths(&on), widened(&one, 3), "K = 3 with options");
    }

    #[test]
    fn header_lists_the_resolved_parameters() {
        let e = emit(&["eus=3", "priority={pixel=[2]}", "dedicated={triangle=[0,2]}"]);
        assert!(e.verilog.contains("//   pixel: priority (PRIO slots)"), "{}", &e.verilog[..2000]);
        assert!(e.verilog.contains("[2, 7, 7]"), "empty PRIO slots are all ones (PRIO_W 3)");
        assert!(e.verilog.contains("//   triangle: dedicated"));
        assert!(e.verilog.contains("[0, 2]"));
    }
}

mod task_combiner {
    #[allow(unused_imports)]
    use super::{width, widths};
    use warpgen_rtl::Config;

    fn emit(sets: &[&str]) -> warpgen_rtl::Emitted {
        super::emit("task_combiner", sets)
    }



    /// Instances of rust-hdl's one-bit register named `name_…` in the core.
    fn bit_regs(e: &warpgen_rtl::Emitted, name: &str) -> usize {
        e.verilog.matches(&format!("warpgen_task_combiner_dff_w1 {name}_")).count()
    }

    #[test]
    fn ports_are_exact_for_the_default_config() {
        // entries 16, width 32, tile_pipes 4, shader_types 4, state 8, ref 13, gen 4:
        // ENT_W 4, TAG_W 8, CNT_W 6, LANE_W 5, TP_W 2, STYPE_W 2.
        let e = emit(&[]);
        let want = [
            ("clock", 1), ("reset", 1),
            ("in_valid", 1), ("in_stype", 2), ("in_state", 8), ("in_ref", 13), ("in_tpipe", 2),
            ("in_ready", 1), ("in_tag", 8), ("in_lane", 5),
            ("lk_valid", 1), ("lk_tag", 8), ("lk_tpipe", 2), ("lk_hit", 1),
            ("rqf_valid", 1), ("rqf_tpipe", 2), ("rqf_ready", 1), ("rqf_done", 1), ("rqf_done_tpipe", 2),
            ("drain_req", 1), ("drain_done", 1),
            ("out_valid", 1), ("out_ready", 1), ("out_tag", 8), ("out_stype", 2), ("out_state", 8),
            ("out_count", 6), ("out_lane_mask", 32), ("out_refs", 32 * 13), ("out_lockmask", 4), ("out_reason", 3),
            ("st_valid", 16), ("st_open", 16), ("st_pending", 16), ("st_count", 16 * 6), ("st_stype", 16 * 2),
            ("st_state", 16 * 8), ("st_lockmask", 16 * 4), ("st_dep", 16 * 16), ("st_tag", 16 * 8),
            ("perf_tasks", 32), ("perf_lanes", 32),
        ];
        assert_eq!(widths(&e), want);
        // Ids and ids inside the tag are zero-extended into the core; outputs are exact.
        for conn in [
            ".in_stype({1'b0, in_stype})",
            ".in_state({8'b0, in_state})",
            ".in_tpipe({1'b0, in_tpipe})",
            ".lk_ent({3'b0, lk_tag[3:0]})",
            ".lk_gen({4'b0, lk_tag[7:4]})",
            ".in_ref_12(in_ref[12])",
            ".in_tag_gen_3(in_tag[7])",
            ".st_dep_15_14(st_dep[254])",
            ".st_tag_ent_1_0(st_tag[8])",
            ".out_refs_31_12(out_refs[415])",
        ] {
            assert!(e.verilog.contains(conn), "{conn}");
        }
    }

    #[test]
    fn ports_are_exact_at_the_smallest_and_largest_configs() {
        let e = emit(&[
            "entries=1", "width=4", "tile_pipes=1", "shader_types=1", "state_width=1", "ref_width=1", "tag_gen_width=1",
        ]);
        for (p, w) in [
            ("in_stype", 1), ("in_state", 1), ("in_ref", 1), ("in_tpipe", 1), ("in_tag", 2), ("in_lane", 2),
            ("lk_tag", 2), ("rqf_done_tpipe", 1), ("out_count", 3), ("out_lane_mask", 4), ("out_refs", 4),
            ("out_lockmask", 1), ("st_valid", 1), ("st_dep", 1), ("st_tag", 2), ("st_count", 3),
        ] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        let e = emit(&[
            "entries=128", "width=64", "tile_pipes=8", "shader_types=8", "state_width=16", "ref_width=32", "tag_gen_width=8",
        ]);
        for (p, w) in [
            ("in_stype", 3), ("in_state", 16), ("in_ref", 32), ("in_tpipe", 3), ("in_tag", 15), ("in_lane", 6),
            ("lk_tag", 15), ("out_count", 7), ("out_lane_mask", 64), ("out_refs", 64 * 32), ("out_lockmask", 8),
            ("st_valid", 128), ("st_dep", 128 * 128), ("st_tag", 128 * 15), ("st_state", 128 * 16),
        ] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        assert!(e.verilog.contains(".in_state(in_state)"), "no extension at the core width");
    }

    #[test]
    fn registers_are_exact_and_references_are_one_memory_per_lane() {
        // entries 5, width 8, state 3, gen 2, tile_pipes 3, shader_types 3, ref 7:
        // ENT_W 3, CNT_W 4, STYPE_W 2.
        let e = emit(&[
            "entries=5", "width=8", "state_width=3", "tag_gen_width=2", "tile_pipes=3", "shader_types=3",
            "ref_width=7", "capacity=[8, 4, 2]",
        ]);
        let n = 5;
        for (name, count) in [
            ("valid_q", n), ("pend_q", n), ("rq_q", n), ("state_q", n * 3), ("gen_q", n * 2),
            ("count_q", n * 4), ("stype_q", n * 2), ("lock_q", n * 3),
            ("slot_state_q", 3), ("slot_ent_q", 3), ("slot_gen_q", 2), ("slot_count_q", 4), ("rqf_tp_q", 2),
        ] {
            assert_eq!(bit_regs(&e, name), count, "{name}");
        }
        // Registers are one-bit, except the 3-bit reasons and the 32-bit counters.
        let mut dffs: Vec<&str> = e.verilog.lines().filter(|l| l.starts_with("module warpgen_task_combiner_dff_")).collect();
        dffs.sort();
        assert_eq!(dffs.len(), 3, "{dffs:?}");
        assert_eq!(e.verilog.matches("warpgen_task_combiner_dff_w3 ").count(), n + 1, "reasons");
        // One memory of entries x ref_width per lane, read into its own register.
        assert_eq!(e.verilog.matches("warpgen_task_combiner_refs refs_").count(), 8);
        assert!(e.verilog.contains("reg [6:0] mem [0:4];"));
        assert!(e.verilog.contains("ram_style = \"block\""));
        assert!(!e.verilog.contains("mem[0]"), "addressed");
        // The dependency and age matrices: one row register of N bits per entry each.
        assert_eq!(e.verilog.matches("warpgen_task_combiner_mx mx_").count(), 1);
        assert!(e.verilog.contains("reg [4:0] dep_q [0:4];"));
        assert!(e.verilog.contains("reg [4:0] old_q [0:4];"));
    }

    #[test]
    fn emission_is_deterministic_prefixed_and_config_sensitive() {
        let a = emit(&[]);
        assert_eq!(a.verilog, emit(&[]).verilog);
        for line in a.verilog.lines().filter(|l| l.starts_with("module ")) {
            assert!(line.starts_with("module warpgen_task_combiner"), "{line}");
        }
        assert!(!a.verilog.contains('$'), "no rust-hdl path separators left");
        assert!(a.verilog.contains("//   policy                     = fullest"), "header parameters");
        assert!(a.verilog.contains("//   depends                    = [[], [0], [1], [0, 2]]"));
        for set in [
            "policy=oldest",
            "sort_state=false",
            "capacity=[32, 16, 32, 32]",
            "depends=[[], [0], [0, 1], [2]]",
        ] {
            assert_ne!(a.verilog, emit(&[set]).verilog, "{set}");
        }
        // A one-entry table: a one-word memory per lane and no dependency or age registers.
        let e = emit(&["entries=1"]);
        assert!(e.verilog.contains("mem[0] <= wd;"));
        assert!(!e.verilog.contains("dep_q") && !e.verilog.contains("old_q"), "no matrix");
    }

    #[test]
    fn flip_flop_count_of_the_documented_configs() {
        let cfg = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| format!("task_combiner.{s}")).collect();
            Config::embedded(&sets).unwrap().task_combiner.unwrap()
        };
        // 16 x (3 + 3 + 2 + 8 + 6 + 4 + 4 + 15 + 15) + (2 + 3 + 4 + 24) + (1 + 3 + 2 + 64)
        assert_eq!(warpgen_rtl::task_combiner::flip_flops(&cfg(&[])), 1063);
        // 64 x (6 + 25 + 63 + 63) + (5 + 6 + 25) + 70
        assert_eq!(warpgen_rtl::task_combiner::flip_flops(&cfg(&["entries=64", "width=64"])), 10154);
        // 128 x (6 + 25 + 127 + 127) + (5 + 7 + 25) + 70
        assert_eq!(warpgen_rtl::task_combiner::flip_flops(&cfg(&["entries=128", "width=64"])), 36587);
    }

    #[test]
    fn perf_counters_add_three_ports_and_a_bank() {
        let off = emit(&[]);
        assert!(!off.verilog.contains("perf_sel") && !off.verilog.contains("cnt_q_"), "off: no port, no bank");
        let names = |e: &warpgen_rtl::Emitted| e.ports.iter().map(|p| (p.name.clone(), p.width())).collect::<Vec<_>>();
        for extra in [&[][..], &["registered_issue=true", "entries=1", "width=4"][..]] {
            let base = emit(extra);
            let on = emit(&[extra, &["perf_counters=true"]].concat());
            let w = names(&on);
            assert_eq!(&w[..w.len() - 3], &names(&base)[..], "the other ports are unchanged");
            let tail: Vec<(&str, usize)> = w[w.len() - 3..].iter().map(|(n, w)| (n.as_str(), *w)).collect();
            assert_eq!(tail, [("perf_sel", 4), ("perf_val", 32), ("perf_clr", 1)], "no err_clr: no sticky flag");
            assert!(on.verilog.contains(".perf_sel_0({4'b0, perf_sel})"), "perf_sel zero-extended into the bank's 8 bits");
            assert_eq!(on.verilog.matches("warpgen_task_combiner_dff_w32 cnt_q_").count(), 12, "12 counters");
            assert!(on.verilog.contains("//   perf_counters") && on.verilog.contains("PSW (perf_sel bits)"));
        }
        let cfg = Config::embedded(&["task_combiner.perf_counters=true".into()]).unwrap().task_combiner.unwrap();
        assert_eq!(warpgen_rtl::task_combiner::flip_flops(&cfg), 1063 + 12 * 32);
    }

    /// `registered_input` (contract R2i): one more port, `in_tag_valid`, after `in_ready`; the
    /// input register and one key-equal bit per entry; nothing without the key.
    #[test]
    fn registered_input_adds_in_tag_valid_and_the_register() {
        let names = |e: &warpgen_rtl::Emitted| e.ports.iter().map(|p| (p.name.clone(), p.width())).collect::<Vec<_>>();
        let off = emit(&[]);
        assert!(!off.verilog.contains("in_tag_valid") && !off.verilog.contains("ir_v_q") && !off.verilog.contains("eq_q"), "off: no port, no register");
        let on = emit(&["registered_input=true"]);
        let (w, w0) = (names(&on), names(&off));
        let at = w.iter().position(|(n, _)| n == "in_ready").unwrap();
        assert_eq!(w[at + 1], ("in_tag_valid".to_string(), 1));
        let mut rest = w.clone();
        rest.remove(at + 1);
        assert_eq!(rest, w0, "the other ports are unchanged");
        assert!(on.verilog.contains("//   registered_input"), "the header lists the key");
        // 1 valid + 2 type + 8 state + 13 reference + 2 tile-pipe bits + 16 key-equal bits
        let cfg = |sets: &[&str]| {
            let v: Vec<String> = sets.iter().map(|s| format!("task_combiner.{s}")).collect();
            Config::embedded(&v).unwrap().task_combiner.unwrap()
        };
        assert_eq!(warpgen_rtl::task_combiner::flip_flops(&cfg(&["registered_input=true"])), 1063 + 42);
        // dep_tags = 2 adds two tags of 1 + 4 + 4 bits to the register (and err_dep)
        assert_eq!(
            warpgen_rtl::task_combiner::flip_flops(&cfg(&["registered_input=true", "dep_tags=2"])),
            warpgen_rtl::task_combiner::flip_flops(&cfg(&["dep_tags=2"])) + 42 + 2 * 9
        );
    }

    /// `dep_tags` (contract D3t): K tags after `in_tpipe`, `err_dep` and `err_clr` in a group of
    /// their own, one more flip-flop; nothing without the key; refused with one entry.
    #[test]
    fn dep_tags_add_tag_ports_and_the_sticky_flag() {
        let names = |e: &warpgen_rtl::Emitted| e.ports.iter().map(|p| (p.name.clone(), p.width())).collect::<Vec<_>>();
        let off = emit(&[]);
        assert!(!off.verilog.contains("in_dep_vld") && !off.verilog.contains("in_dep_tag") && !off.verilog.contains("err_dep"), "off: no port, no flag");
        // 16 entries, 4 generation bits: TAG_W 8.
        let on = emit(&["dep_tags=3"]);
        let w = names(&on);
        let at = w.iter().position(|(n, _)| n == "in_tpipe").unwrap();
        assert_eq!(&w[at + 1..at + 3], &[("in_dep_vld".to_string(), 3), ("in_dep_tag".to_string(), 24)]);
        assert_eq!(&w[w.len() - 2..], &[("err_dep".to_string(), 1), ("err_clr".to_string(), 1)]);
        assert_eq!(w.len(), names(&off).len() + 4, "four ports more");
        assert!(on.verilog.contains(".dt_ent_2({3'b0, in_dep_tag[19:16]})"), "tag 2's entry bits, zero-extended");
        let cfg = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| format!("task_combiner.{s}")).collect();
            Config::embedded(&sets)
        };
        assert_eq!(warpgen_rtl::task_combiner::flip_flops(&cfg(&["dep_tags=1"]).unwrap().task_combiner.unwrap()), 1063 + 1);
        let e = cfg(&["dep_tags=1", "entries=1"]).unwrap_err();
        assert_eq!(e.key, "task_combiner.dep_tags");
        assert!(e.message.contains("entries >= 2"), "{e}");
    }

    #[test]
    fn largest_config_emits_quickly() {
        let t = std::time::Instant::now();
        let e = emit(&["entries=64", "width=64"]);
        let secs = t.elapsed().as_secs_f64();
        assert!(secs < 30.0, "64 x 64 took {secs:.1} s to emit");
        assert!(e.verilog.contains("reg [63:0] dep_q [0:63];"));
        assert!(e.verilog.contains("reg [63:0] old_q [0:63];"));
        // Word-level matrices: the 64 x 64 core stays small (was 248,000 lines in one block).
        let lines = e.verilog.lines().count();
        assert!(lines < 120_000, "{lines} lines");
        // The most entries: the matrix rows' clocked blocks are a generate loop (no for loop
        // of delayed assignments for Verilator to unroll), and no line is one Verilator's
        // preprocessor refuses (the core's port list, over 40,000 tokens, is wrapped).
        let t = std::time::Instant::now();
        let e = emit(&["entries=128", "width=64"]);
        let secs = t.elapsed().as_secs_f64();
        assert!(secs < 60.0, "128 x 64 took {secs:.1} s to emit");
        assert!(e.verilog.contains("reg [127:0] dep_q [0:127];") && e.verilog.contains("genvar s;"));
        let longest = e.verilog.lines().map(str::len).max().unwrap_or(0);
        assert!(longest < 30_000, "a line of {longest} characters");
    }
}

mod thread_merge {
    #[allow(unused_imports)]
    use super::{width, widths};

    fn emit(sets: &[&str]) -> warpgen_rtl::Emitted {
        super::emit("thread_merge", sets)
    }



    #[test]
    fn ports_are_exact_for_the_default_config() {
        // lanes 4, slots 4 (TGID_W 3, CNT_W 3, LANE_W 2), tag 32, prim 16: contract §3.
        let e = emit(&[]);
        let want = [
            ("clock", 1), ("reset", 1),
            ("frag_valid", 1), ("frag_ready", 1), ("frag_cov", 4), ("frag_prim", 16), ("frag_tag", 32), ("frag_last", 1), ("flush", 1),
            ("grp_valid", 1), ("grp_ready", 1), ("grp_paired", 1), ("grp_a_tgid", 3), ("grp_a_cov", 4), ("grp_a_tag", 32),
            ("grp_b_tgid", 3), ("grp_b_cov", 4), ("grp_b_perm", 2), ("grp_b_tag", 32),
            ("me_valid", 1), ("me_ready", 1), ("me_tgid", 3),
            ("rsp_valid", 1), ("rsp_ready", 1), ("rsp_tgid", 3), ("rsp_merged", 1), ("rsp_active", 4), ("rsp_retire", 1), ("rsp_retire_tgid", 3),
            ("term_valid", 1), ("term_tgid", 3), ("disc_valid", 1), ("disc_tgid", 3), ("disc_mask", 4), ("xl_valid", 1), ("xl_tgid", 3),
            ("rf_tgid", 3), ("rf_common_wmask", 4), ("rf_exec_mask", 4), ("rf_perm", 2), ("rf_post", 1),
            ("wb_tgid", 3), ("wb_active", 4), ("wb_lane_src", 4), ("wb_tag_self", 32), ("wb_tag_partner", 32), ("wb_perm_self", 2),
            ("wb_perm_partner", 2), ("wb_orig_lane", 8),
            ("free_cnt", 3), ("pend_valid", 1), ("merge_count", 32), ("err_proto", 1), ("err_xlane", 1),
            ("st_state", 16), ("st_active", 32), ("st_slot", 12), ("st_owe", 8),
        ];
        assert_eq!(widths(&e), want);
        assert!(e.verilog.contains(".me_tgid({5'b0, me_tgid})"), "ids zero-extended into the core");
        assert!(e.verilog.contains(".wb_perm_own(wb_perm_self)"));
        // Packed vectors: group t = 2s+m, slot s = {merged, broken, paired}, lane i's orig index.
        assert!(e.verilog.contains(".st_state_b_1(st_state[7:6])"), "group 3 at [6 +: 2]");
        assert!(e.verilog.contains(".st_merged_2(st_slot[8])"), "slot 2 merged at bit 3*2+2");
        assert!(e.verilog.contains(".st_active_a_3(st_active[27:24])"), "group 6 at [24 +: 4]");
        assert!(e.verilog.contains(".wb_orig_lo_3(wb_orig_lane[7:6])"));
    }

    #[test]
    fn ports_follow_every_width_key() {
        let e = emit(&["slots=1", "lanes=32", "tag_width=64", "prim_width=1"]);
        for (p, w) in [
            ("frag_cov", 32), ("frag_prim", 1), ("frag_tag", 64), ("grp_a_tgid", 1), ("grp_b_tgid", 1), ("grp_a_tag", 64),
            ("me_tgid", 1), ("rsp_tgid", 1), ("rsp_retire_tgid", 1), ("rsp_active", 32), ("disc_mask", 32), ("wb_tag_partner", 64),
            ("wb_orig_lane", 32 * 5), ("free_cnt", 1), ("st_state", 4), ("st_active", 64), ("st_slot", 3), ("st_owe", 2),
        ] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        assert!(e.verilog.contains(".wb_orig_hi_31_2(wb_orig_lane[159])"), "lane 31's quad bit 2");
        let e = emit(&["slots=5", "lanes=8"]);
        for (p, w) in [("grp_a_tgid", 4), ("term_tgid", 4), ("free_cnt", 3), ("st_state", 20), ("st_active", 80), ("st_slot", 15), ("wb_orig_lane", 24)] {
            assert_eq!(width(&e, p), w, "{p}");
        }
        let e = emit(&["slots=32"]);
        for (p, w) in [("grp_a_tgid", 6), ("wb_tgid", 6), ("free_cnt", 6), ("st_owe", 64), ("st_state", 128)] {
            assert_eq!(width(&e, p), w, "{p}");
        }
    }

    #[test]
    fn perf_counters_add_four_ports_and_a_bank() {
        let off = emit(&[]);
        assert!(!off.verilog.contains("perf_") && !off.verilog.contains("err_clr"), "off: no port, no logic");
        let on = emit(&["perf_counters=true"]);
        let w = widths(&on);
        assert_eq!(&w[..w.len() - 4], &widths(&off)[..], "the other ports are unchanged");
        assert_eq!(&w[w.len() - 4..], [("perf_sel", 4), ("perf_val", 32), ("perf_clr", 1), ("err_clr", 1)]);
        assert!(on.verilog.contains(".perf_sel_0({4'b0, perf_sel})"), "perf_sel zero-extended into the bank's 8 bits");
        assert_eq!(dff_instances(&on, 32), 1 + 9, "merge_count and the 9 counters");
        assert!(on.verilog.contains("//   perf_counters") && on.verilog.contains("PSW (perf_sel bits)"));
    }

    /// `merge_ways` (contract R20): ids 4s + m (TGID_W 2 + ceil(log2 S)), the members C and D
    /// after B in the descriptor and the write-back lookup, `rsp_retire_mask` after
    /// `rsp_retire_tgid`, status vectors over 4·S groups; nothing new at 2; refused with
    /// `candidates` > 1.
    #[test]
    fn merge_ways_add_members_c_and_d() {
        let names = |e: &warpgen_rtl::Emitted| widths(e).into_iter().map(|(n, w)| (n.to_string(), w)).collect::<Vec<_>>();
        let two = emit(&[]);
        assert_eq!(names(&emit(&["merge_ways=2"])), names(&two));
        assert!(!two.verilog.contains("merge_ways"), "the default header does not list the key");
        let three = emit(&["merge_ways=3"]);
        let w = names(&three);
        let after = |p: &str, n: usize| {
            let at = w.iter().position(|(x, _)| x == p).unwrap_or_else(|| panic!("no {p}"));
            w[at + 1..at + 1 + n].to_vec()
        };
        let own = |v: &[(&str, usize)]| v.iter().map(|(n, w)| (n.to_string(), *w)).collect::<Vec<_>>();
        assert_eq!(after("grp_b_tag", 5), own(&[("grp_c_valid", 1), ("grp_c_tgid", 4), ("grp_c_cov", 4), ("grp_c_perm", 2), ("grp_c_tag", 32)]));
        assert_eq!(after("rsp_retire_tgid", 1), own(&[("rsp_retire_mask", 2)]));
        assert_eq!(after("wb_orig_lane", 3), own(&[("wb_lane_mem", 8), ("wb_tag_c", 32), ("wb_perm_c", 2)]));
        for (p, bits) in [("me_tgid", 4), ("grp_a_tgid", 4), ("st_state", 32), ("st_active", 64), ("st_owe", 16), ("st_slot", 12), ("free_cnt", 3)] {
            assert_eq!(width(&three, p), bits, "{p}");
        }
        assert!(!w.iter().any(|(n, _)| n.starts_with("grp_d_") || n.starts_with("wb_tag_d")), "no member D at 3");
        assert_eq!(w.len(), names(&two).len() + 9, "nine ports more at 3");
        assert!(three.verilog.contains("//   merge_ways"), "the header lists the key");
        let four = emit(&["merge_ways=4", "slots=1"]);
        for (p, bits) in [("grp_d_valid", 1), ("grp_d_tgid", 2), ("grp_d_tag", 32), ("wb_tag_d", 32), ("wb_perm_d", 2), ("rsp_retire_mask", 3), ("st_state", 8)] {
            assert_eq!(width(&four, p), bits, "{p}");
        }
        let cfg = |sets: &[&str]| {
            let sets: Vec<String> = sets.iter().map(|s| format!("thread_merge.{s}")).collect();
            warpgen_rtl::Config::embedded(&sets)
        };
        let e = cfg(&["merge_ways=3", "candidates=2"]).unwrap_err();
        assert_eq!(e.key, "thread_merge.merge_ways");
        assert!(e.message.contains("candidates = 1"), "{e}");
        assert_eq!(cfg(&["merge_ways=5"]).unwrap_err().key, "thread_merge.merge_ways");
        assert_eq!(cfg(&["merge_ways=1"]).unwrap_err().key, "thread_merge.merge_ways");
    }

    /// rust-hdl DFF instances per register width, by instance name prefix.
    fn dff_instances(e: &warpgen_rtl::Emitted, w: usize) -> usize {
        let module = format!("    warpgen_thread_merge_dff_w{w} ");
        e.verilog.lines().filter(|l| l.starts_with(&module)).count()
    }

    #[test]
    fn registers_are_exact() {
        // slots 3, tag 5, prim 3, pair_hold 2 (age 2 bits), merge_timeout 5 (wait 0..4: 3 bits).
        let e = emit(&["slots=3", "tag_width=5", "prim_width=3", "pair_hold=2", "merge_timeout=5", "lanes=8"]);
        let (s, tag) = (3, 5);
        let per_slot = 2 * tag + 2 + 3 + 3 + 2; // tags, owe, paired/broken/merged, wait counter, owed grant A/B
        let pend = 1 + 3 + tag + 1 + 2 + 1; // v, prim, tag, last, age, age == pair_hold
        let grp = 1 + 1 + 2 + 2 * tag; // valid, paired, slot number, tags
        let rsp = 1 + 3 + 1 + 2; // valid, me tgid, merged, fresh, me-or-owed
        assert_eq!(dff_instances(&e, 1), s * per_slot + pend + grp + rsp + 4, "+ errors and the pending merge and error");
        assert_eq!(dff_instances(&e, 2), 3 * s + 1, "states A, B, perm per slot; grp_b_perm");
        assert_eq!(dff_instances(&e, 8), 2 * s + 4, "active A, B per slot; candidate, grp A, B, rsp masks");
        assert_eq!(dff_instances(&e, 32), 1, "merge_count");
        // No timeout, no hold window: no counter at all.
        let e = emit(&["slots=1", "tag_width=1", "prim_width=1", "pair_hold=0", "merge_timeout=0"]);
        assert_eq!(dff_instances(&e, 1), (2 + 2 + 3 + 2) + (1 + 1 + 1 + 1) + (1 + 1 + 2) + (1 + 1 + 1 + 2) + 4);
        // merge_timeout 1: the wait counter only ever holds 0.
        let e = emit(&["slots=1", "tag_width=1", "prim_width=1", "pair_hold=0", "merge_timeout=1"]);
        assert_eq!(dff_instances(&e, 1), 26);
    }

    #[test]
    fn emission_is_deterministic_prefixed_and_config_sensitive() {
        let a = emit(&["lanes=16", "slots=3"]).verilog;
        assert_eq!(a, emit(&["lanes=16", "slots=3"]).verilog);
        assert_ne!(a, emit(&["lanes=16", "slots=3", "remap=false"]).verilog);
        assert_ne!(a, emit(&["lanes=16", "slots=3", "merge_timeout=15"]).verilog);
        for line in a.lines().filter(|l| l.starts_with("module ")) {
            assert!(line.starts_with("module warpgen_thread_merge"), "{line}");
        }
        assert!(!a.contains('$'), "no rust-hdl path separators left");
        assert!(a.contains("//   remap") && a.contains("//   TGID_W (thread-group id bits) = 3"), "header lists the parameters");
    }
}
