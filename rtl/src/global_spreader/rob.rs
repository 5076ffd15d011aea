//! The pixel reorder buffer of `pixel_reorder` = D (contract R14): a hand-written Verilog
//! module beside the designs, built only with the key (without it there is no module, no wire
//! and no port: the Verilog of the block is that of R1-R13).
//!
//! A circular queue of D = 2^RB_W entries in flip-flops: HEAD and TAIL (`head_q`, `tail_q`,
//! RB_W bits), COUNT (`count_q`, RB_W+1 bits, 0..D) and one DONE bit per entry (`done_q`),
//! all 0 after reset. Entry s is outstanding when (s - HEAD) mod D < COUNT.
//! * `push` = a pixel request acknowledged at this edge (`gnt_pix`, the pixel slot is the
//!   granted one, and some `ack`): TAIL += 1, COUNT += 1. Its entry is TAIL, which is not
//!   outstanding before the edge (COUNT < D: a pixel is blocked while COUNT = D, R4, and no
//!   other pixel request can be acked while one is held), so its DONE bit is already 0 (a
//!   DONE bit is only set while its entry is outstanding and is cleared when it leaves).
//! * `ar_seq` = TAIL while the pixel slot is granted (the request is a pixel), else 0.
//! * Completion port e (`pc_valid[e]`, `pc_seq[e]`): `off_e` = `pc_seq[e]` - HEAD (RB_W
//!   bits, so mod D) and `set_e` = `pc_valid[e]` && {0, `off_e`} < COUNT: one subtraction
//!   and one comparison per port, no chain over the entries. Its one-hot decode is ORed into
//!   `set_m` (several ports naming one entry set it once). A completion of an entry that is not
//!   outstanding sets nothing. One of an entry already done sets it again, which changes
//!   nothing, except for HEAD popped at the same edge, whose clear wins (`done_q | set_m`, then
//!   `& ~clr_m`): so a done entry is not set again, as R14 says.
//! * `po_valid` = COUNT != 0 && DONE[HEAD], `po_seq` = HEAD (registered state only); `pop` =
//!   `po_valid && po_ready`: DONE[HEAD] <= 0 (`clr_m`), HEAD += 1, COUNT -= 1. A push and a
//!   pop at one edge leave COUNT as it was.
//! * `full` = COUNT = D (its top bit) goes to `ctl`, where it blocks the pixel slot (R4).
//!
//! Cost per port: an RB_W-bit subtractor, an (RB_W+1)-bit comparator and a D-output decoder;
//! the DONE read is one D:1 multiplexer.

use super::Geo;

/// The module `top$rob` of geometry `g` (`g.rob` = D > 0).
pub(super) fn rob_module(g: &Geo) -> String {
    let (n, d, w) = (g.n, g.rob, g.rbw);
    assert!(d >= 2 && d == 1 << w, "pixel_reorder {d} is not a power of two from 2");
    let range = |x: usize| if x == 1 { String::new() } else { format!("[{}:0] ", x - 1) };
    // The one bit `x` zero-extended to `to` bits.
    let ext = |x: &str, to: usize| if to == 1 { x.to_string() } else { format!("{{{}'d0, {x}}}", to - 1) };
    let bit = |v: &str, e: usize| if n == 1 { v.to_string() } else { format!("{v}[{e}]") };
    let seq = |e: usize| if n == 1 { "pc_seq".to_string() } else { format!("pc_seq[{} +: {w}]", e * w) };
    let ports = ["clock", "reset", "ack", "gnt_pix", "pc_valid", "pc_seq", "po_ready", "full", "ar_seq", "po_valid", "po_seq"];
    let mut v = format!("module top$rob({});\n", ports.join(","));
    v += "    input wire clock;\n    input wire reset;\n";
    v += &format!("    input wire {}ack;\n    input wire gnt_pix;\n", range(n));
    v += &format!("    input wire {}pc_valid;\n    input wire {}pc_seq;\n", range(n), range(n * w));
    v += "    input wire po_ready;\n    output wire full;\n";
    v += &format!("    output wire {}ar_seq;\n    output wire po_valid;\n    output wire {}po_seq;\n", range(w), range(w));
    v += &format!("    reg {}head_q;\n    reg {}tail_q;\n    reg [{w}:0] count_q;\n    reg [{}:0] done_q;\n", range(w), range(w), d - 1);
    // A pixel request acknowledged at this edge; a pop of the head.
    v += "    wire push = gnt_pix & (|ack);\n    wire pop = po_valid & po_ready;\n";
    // Completions: outstanding when (seq - HEAD) mod D < COUNT.
    let mut sets = Vec::new();
    for e in 0..n {
        v += &format!("    wire {}off_{e} = {} - head_q;\n", range(w), seq(e));
        v += &format!("    wire set_{e} = {} & ({{1'b0, off_{e}}} < count_q);\n", bit("pc_valid", e));
        v += &format!("    wire [{}:0] dec_{e} = set_{e} ? ({d}'d1 << {}) : {d}'d0;\n", d - 1, seq(e));
        sets.push(format!("dec_{e}"));
    }
    v += &format!("    wire [{}:0] set_m = {};\n", d - 1, sets.join(" | "));
    v += &format!("    wire [{}:0] clr_m = pop ? ({d}'d1 << head_q) : {d}'d0;\n", d - 1);
    v += &format!("    assign full = count_q[{w}];\n");
    v += &format!("    assign ar_seq = gnt_pix ? tail_q : {w}'d0;\n");
    v += &format!("    assign po_valid = (count_q != {}'d0) & done_q[head_q];\n", w + 1);
    v += "    assign po_seq = head_q;\n";
    v += "    always @(posedge clock) begin\n        if (reset) begin\n";
    v += &format!("            head_q <= {w}'d0;\n            tail_q <= {w}'d0;\n            count_q <= {}'d0;\n            done_q <= {d}'d0;\n", w + 1);
    v += "        end else begin\n";
    v += &format!("            head_q <= head_q + {};\n", ext("pop", w));
    v += &format!("            tail_q <= tail_q + {};\n", ext("push", w));
    v += &format!("            count_q <= count_q + {} - {};\n", ext("push", w + 1), ext("pop", w + 1));
    v += "            done_q <= (done_q | set_m) & ~clr_m;\n";
    v += "        end\n    end\nendmodule // top$rob\n";
    v
}
