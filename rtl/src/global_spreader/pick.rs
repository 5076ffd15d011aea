//! The least-loaded pick (`select = "least_loaded"`, contract R6): a hand-written Verilog
//! module beside the designs, built only with the key (without it there is no module, no
//! wire and no port: the Verilog of the block is that of first fit).
//!
//! Per slot k (class priority order), from `ok_k` (EU e is enabled, dedicated, fits and
//! has not refused the slot's packet, from `ctl`), `prio_k` (the slot's PRIO list, PRIO_W
//! bits per place; a value >= N_EU is an empty place) and `free` (FREE_RES of every EU):
//! * `c_k[e]` = `ok_k[e]` and e is listed in PRIO (one decoder per place, ORed);
//! * the maximum of {c_k[e], FREE_RES[e]} over e by a balanced tree of pairwise maxima
//!   (ceil(log2 N_EU) comparator levels, no chain over the EUs);
//! * `tie_k[e]` = `c_k[e]` and {1, FREE_RES[e]} equals that maximum: the listed candidates
//!   with the most free resource units. `ctl` takes the first of them in PRIO order with
//!   its first-fit priority encoder (ties to the first in priority order).

use super::Geo;

/// The module `top$pick` of geometry `g` (`g.ll`).
pub(super) fn pick_module(g: &Geo) -> String {
    let (n, k, r, pw) = (g.n, g.k(), g.rw, g.prw);
    let range = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
    let mut ports = vec!["free".to_string()];
    let mut decl = format!("    input wire [{}:0] free;\n", n * r - 1);
    let mut body = String::new();
    for kk in 0..k {
        ports.extend([format!("ok_{kk}"), format!("prio_{kk}"), format!("tie_{kk}")]);
        decl += &format!("    input wire {}ok_{kk};\n", range(n));
        decl += &format!("    input wire [{}:0] prio_{kk};\n", n * pw - 1);
        decl += &format!("    output wire {}tie_{kk};\n", range(n));
        // Listed in PRIO: one decoder per place (a shift past N_EU - 1 gives 0: an empty place).
        let places: Vec<String> = (0..n).map(|s| format!("({n}'d1 << prio_{kk}[{} +: {pw}])", s * pw)).collect();
        body += &format!("    wire [{}:0] c_{kk} = ok_{kk} & ({});\n", n - 1, places.join(" | "));
        // Level 0: {candidate, FREE_RES} per EU; then pairwise maxima, an odd last node passes.
        let mut level: Vec<String> = Vec::new();
        for e in 0..n {
            let w = format!("m_{kk}_0_{e}");
            body += &format!("    wire [{r}:0] {w} = {{c_{kk}[{e}], free[{} +: {r}]}};\n", e * r);
            level.push(w);
        }
        let mut l = 0;
        while level.len() > 1 {
            l += 1;
            let mut next = Vec::new();
            for (j, pair) in level.chunks(2).enumerate() {
                if let [a, b] = pair {
                    let w = format!("m_{kk}_{l}_{j}");
                    body += &format!("    wire [{r}:0] {w} = ({a} >= {b}) ? {a} : {b};\n");
                    next.push(w);
                } else {
                    next.push(pair[0].clone());
                }
            }
            level = next;
        }
        let max = &level[0];
        for e in 0..n {
            let bit = if n == 1 { String::new() } else { format!("[{e}]") };
            body += &format!(
                "    assign tie_{kk}{bit} = c_{kk}[{e}] & ({{1'b1, free[{} +: {r}]}} == {max});\n",
                e * r
            );
        }
    }
    format!(
        "module top$pick({});\n{decl}{body}endmodule // top$pick\n",
        ports.join(",")
    )
}
