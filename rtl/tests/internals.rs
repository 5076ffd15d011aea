//! Unit tests of the emission helpers (identifier mapping, the wrapper, block RAM, the
//! netlist), kept outside the crate so that `cargo test` does not compile `warpgen-rtl` a
//! second time as a unit-test harness (docs/build-time.md).

mod emit {
    use warpgen_rtl::emit::*;

    #[test]
    fn identifiers_are_mapped_but_literals_and_system_tasks_are_not() {
        let t = "x$0 = 4'hf + a$b; $display(c$d); y = 3'b1;";
        let got = map_identifiers(t, |id| id.replace('$', "_"));
        assert_eq!(got, "x_0 = 4'hf + a_b; $display(c_d); y = 3'b1;");
    }

    #[test]
    fn identical_modules_merge_bottom_up_and_are_named_by_path() {
        let v = "module top(a);\n  top$g$0 g$0(.a(a));\n  top$g$1 g$1(.a(a));\nendmodule // top\n\
                 module top$g$0(a);\n  top$g$0$r$0 r$0(.a(a));\nendmodule // top$g$0\n\
                 module top$g$0$r$0(a);\n  wire q$d;\nendmodule // top$g$0$r$0\n\
                 module top$g$1(a);\n  top$g$1$r$0 r$0(.a(a));\nendmodule // top$g$1\n\
                 module top$g$1$r$0(a);\n  wire q$d;\nendmodule // top$g$1$r$0\n";
        let out = finish_modules("blk", v);
        assert_eq!(out.matches("module ").count() - out.matches("endmodule").count(), 3, "{out}");
        assert!(out.contains("module warpgen_blk_core(a);"), "{out}");
        assert!(out.contains("warpgen_blk_g g_0(.a(a));"), "{out}");
        assert!(out.contains("warpgen_blk_g g_1(.a(a));"), "{out}");
        assert!(out.contains("module warpgen_blk_g_r(a);"), "{out}");
        assert!(out.contains("wire q_d;"), "{out}");
        assert!(!out.contains('$'), "{out}");
    }

    #[test]
    fn wrapper_packs_parts_and_zero_extends_inputs() {
        let w = Wrapper {
            block: "blk".into(),
            groups: vec![PortGroup {
                title: "t".into(),
                ports: vec![
                    Port::single("id", Dir::In, 2, 8, "an id"),
                    Port::packed("v", Dir::Out, "a vector", vec![("v_0".into(), 3, 3), ("v_1".into(), 3, 3)]),
                ],
            }],
        };
        let v = w.verilog();
        assert!(v.contains("input  wire [1:0]    id, // an id"), "{v}");
        assert!(v.contains("output wire [5:0]    v  // a vector"), "{v}");
        assert!(v.contains(".id({6'b0, id})"), "{v}");
        assert!(v.contains(".v_0(v[2:0])"), "{v}");
        assert!(v.contains(".v_1(v[5:3])"), "{v}");
    }
}

mod mem {
    use rust_hdl::prelude::*;
    use warpgen_rtl::mem::*;

    fn verilog(depth: usize, width: usize) -> String {
        match SyncRam::new(depth, width).hdl() {
            Verilog::Custom(v) => v,
            _ => panic!("custom Verilog expected"),
        }
    }

    #[test]
    fn address_bits_are_ceil_log2() {
        let got: Vec<usize> = [1, 2, 3, 4, 5, 16, 17, 64].iter().map(|d| address_bits(*d)).collect();
        assert_eq!(got, vec![0, 1, 2, 2, 3, 4, 5, 6]);
    }

    #[test]
    fn verilog_is_sized_exactly() {
        let v = verilog(5, 3);
        assert!(v.contains("reg [2:0] mem [0:4];"), "{v}");
        assert!(v.contains("wire [2:0] ra = {read_address$2, read_address$1, read_address$0};"), "{v}");
        assert!(v.contains("wire [2:0] wd = {write_data$2, write_data$1, write_data$0};"), "{v}");
        assert!(v.contains("if (read_enable) begin\n            rd <= mem[ra];"), "{v}");
        assert!(v.contains("read_data$2 = rd[2];"), "{v}");
        let r = SyncRam::new(5, 3);
        assert_eq!((r.read_address.len(), r.write_address.len(), r.read_data.len()), (3, 3, 3));
        // One word: no address at all.
        let v = verilog(1, 13);
        assert!(v.contains("reg [12:0] mem [0:0];") && v.contains("mem[0] <= wd;") && !v.contains(" ra "), "{v}");
        assert_eq!(SyncRam::new(1, 13).read_address.len(), 0);
    }

    #[test]
    fn standalone_module_has_the_same_memory() {
        let t = sync_ram_module("ram", 17, 7);
        assert!(t.starts_with("module ram(clock,write_enable,write_address,write_data,read_enable,read_address,read_data);"), "{t}");
        assert!(t.contains("input wire [6:0] read_address;"), "{t}");
        assert!(t.contains("output reg [16:0] read_data;"), "{t}");
        assert!(t.contains("reg [16:0] mem [0:127];"), "{t}");
        assert!(t.contains("mem[write_address] <= write_data;"), "{t}");
        assert!(t.contains("read_data <= mem[read_address];"), "{t}");
        assert!(sync_ram_module("r", 1, 1).contains("input wire write_address;"));
    }
}

mod netlist {
    use warpgen_rtl::emit::Dir;
    use warpgen_rtl::netlist::*;

    #[test]
    fn designs_are_renamed_and_wired_with_checked_widths() {
        let d = "module top(clock,a$0,y);\n    input wire  clock;\n    input wire  a$0;\n    output reg  [3:0] y;\n    top$r$0 r$0(.clock(clock));\nendmodule // top\n\nmodule top$r$0(clock);\n    input wire  clock;\nendmodule // top$r$0\n";
        let mut nl = Netlist::new(vec![
            PortDecl { name: "clock".into(), dir: Dir::In, width: 1 },
            PortDecl { name: "a".into(), dir: Dir::In, width: 2 },
            PortDecl { name: "y".into(), dir: Dir::Out, width: 6 },
        ]);
        let m = nl.design("u", d);
        assert_eq!(m.name, "top$u");
        assert_eq!(m.ports.iter().map(|p| (p.name.as_str(), p.width)).collect::<Vec<_>>(), vec![("clock", 1), ("a$0", 1), ("y", 4)]);
        let mut i = Instance::new(&m, "u");
        i.pin("clock", nl.net("clock"));
        i.pin("a$0", nl.bit("a", 1));
        assert!(std::panic::catch_unwind(move || {
            let mut j = Instance::new(&Module { name: "m".into(), ports: vec![] }, "j");
            j.pin("x", Ex::bit(true));
        })
        .is_err());
        i.pin("y", nl.bits("y", 2, 4));
        nl.add(i);
        let v = nl.verilog();
        assert!(v.contains("module top(clock,a,y);"), "{v}");
        assert!(v.contains("input wire [1:0] a;"), "{v}");
        assert!(v.contains("top$u u(\n        .clock(clock),\n        .a$0(a[1]),\n        .y(y[5:2])\n    );"), "{v}");
        assert!(v.contains("module top$u(clock,a$0,y);"), "{v}");
        assert!(v.contains("top$u$r$0 r$0(.clock(clock));"), "{v}");
        assert!(v.contains("module top$u$r$0(clock);"), "{v}");
        assert_eq!(Ex::cat(vec![nl.bit("a", 0), Ex::zeros(3)]).text, "{3'b0, a[0]}");
        assert_eq!(nl.net("a").zext(5).width, 5);
    }
}
