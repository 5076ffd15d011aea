//! The pick of `select = "least_loaded"` and `select = "round_robin"` (contract R6): a
//! hand-written Verilog module beside the designs, built only with one of those values
//! (without them there is no module, no wire and no port: the Verilog of the block is that of
//! first fit).
//!
//! Per slot k (class priority order), from `ok_k` (EU e is enabled, dedicated, fits and
//! has not refused the slot's packet, from `ctl`) and `prio_k` (the slot's PRIO list, PRIO_W
//! bits per place; a value >= N_EU is an empty place):
//! * `c_k[e]` = `ok_k[e]` and e is listed in PRIO (one decoder per place, ORed): the open
//!   candidates R5 took from PRIO (and the home if it is also listed, which `ctl` has
//!   already chosen if it is open).
//!
//! least_loaded, from `free` (FREE_RES of every EU):
//! * the maximum of {c_k[e], FREE_RES[e]} over e by a balanced tree of pairwise maxima
//!   (ceil(log2 N_EU) comparator levels, no chain over the EUs);
//! * `tie_k[e]` = `c_k[e]` and {1, FREE_RES[e]} equals that maximum: the listed candidates
//!   with the most free resource units. `ctl` takes the first of them in PRIO order with
//!   its first-fit priority encoder (ties to the first in priority order).
//!
//! round_robin, from `ack` (the acknowledged EU, one-hot or 0):
//! * RR_PTR (`rr_ptr_q`, EU_W bits, reset 0) takes (e + 1) mod N_EU at the edge of an ack to
//!   EU e, and holds otherwise;
//! * `rr_ge[e]` = e >= RR_PTR (a thermometer: all ones shifted left by RR_PTR);
//! * `tie_k` = the lowest set bit of `c_k & rr_ge` if there is one, else the lowest of `c_k`:
//!   the first open PRIO candidate in circular EU order from RR_PTR, one-hot. Each lowest
//!   set bit is x & ~(x's prefix OR shifted up by one), the prefix OR in ceil(log2 N_EU)
//!   levels of doubling shifts (no chain over the EUs). `ctl` runs its first-fit encoder on
//!   the one EU, so REJECT_CNT counts the candidates before it in R5's order (R8).

use super::Geo;

/// The module `top$pick` of geometry `g` (`g.pick`): round robin if `g.rr`, else least loaded.
pub(super) fn pick_module(g: &Geo) -> String {
    let (n, k, pw) = (g.n, g.k(), g.prw);
    let range = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
    let (mut ports, mut decl, mut body) = if g.rr { round_robin_head(g) } else { least_loaded_head(g) };
    for kk in 0..k {
        ports.extend([format!("ok_{kk}"), format!("prio_{kk}"), format!("tie_{kk}")]);
        decl += &format!("    input wire {}ok_{kk};\n", range(n));
        decl += &format!("    input wire [{}:0] prio_{kk};\n", n * pw - 1);
        decl += &format!("    output wire {}tie_{kk};\n", range(n));
        // Listed in PRIO: one decoder per place (a shift past N_EU - 1 gives 0: an empty place).
        let places: Vec<String> = (0..n).map(|s| format!("({n}'d1 << prio_{kk}[{} +: {pw}])", s * pw)).collect();
        body += &format!("    wire [{}:0] c_{kk} = ok_{kk} & ({});\n", n - 1, places.join(" | "));
        body += &if g.rr { round_robin_slot(g, kk) } else { least_loaded_slot(g, kk) };
    }
    format!(
        "module top$pick({});\n{decl}{body}endmodule // top$pick\n",
        ports.join(",")
    )
}

/// least_loaded: the `free` port (ports, declarations, body so far).
fn least_loaded_head(g: &Geo) -> (Vec<String>, String, String) {
    (vec!["free".to_string()], format!("    input wire [{}:0] free;\n", g.n * g.rw - 1), String::new())
}

/// least_loaded, slot `kk`: the maximum tree over {c, FREE_RES} and the tied EUs.
fn least_loaded_slot(g: &Geo, kk: usize) -> String {
    let (n, r) = (g.n, g.rw);
    let mut body = String::new();
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
    body
}

/// round_robin: `clock`, `reset`, `ack`, RR_PTR and its thermometer (ports, declarations, body).
fn round_robin_head(g: &Geo) -> (Vec<String>, String, String) {
    let (n, u) = (g.n, g.uw);
    let range = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
    let ports = vec!["clock".to_string(), "reset".to_string(), "ack".to_string()];
    let decl = format!("    input wire clock;\n    input wire reset;\n    input wire {}ack;\n", range(n));
    // The next pointer: (e + 1) mod N_EU of the acked EU (one-hot: an OR of masked constants).
    let next: Vec<String> = (0..n).map(|e| format!("({{{u}{{{}}}}} & {u}'d{})", ack_bit(n, e), (e + 1) % n)).collect();
    let body = format!(
        "    reg {ru}rr_ptr_q;\n    wire {ru}rr_next = {};\n    always @(posedge clock) begin\n        if (reset)\n            rr_ptr_q <= {u}'d0;\n        else if (|ack)\n            rr_ptr_q <= rr_next;\n    end\n    wire {rn}rr_ge = {{{n}{{1'b1}}}} << rr_ptr_q;\n",
        next.join(" | "),
        ru = range(u),
        rn = range(n),
    );
    (ports, decl, body)
}

/// Bit e of `ack` (the whole port at one EU).
fn ack_bit(n: usize, e: usize) -> String {
    if n == 1 { "ack".to_string() } else { format!("ack[{e}]") }
}

/// round_robin, slot `kk`: the first open candidate at or after RR_PTR, else the first.
fn round_robin_slot(g: &Geo, kk: usize) -> String {
    let n = g.n;
    let mut body = format!("    wire [{}:0] h_{kk} = c_{kk} & rr_ge;\n", n - 1);
    let hf = lowest_one(&mut body, &format!("h_{kk}"), n);
    let cf = lowest_one(&mut body, &format!("c_{kk}"), n);
    body += &format!("    assign tie_{kk} = (|h_{kk}) ? {hf} : {cf};\n");
    body
}

/// Declares the prefix OR of the n-bit wire `x` (ceil(log2 n) levels of doubling shifts,
/// `x_p<l>`) and returns the expression of its lowest set bit, one-hot (0 if `x` is 0).
fn lowest_one(body: &mut String, x: &str, n: usize) -> String {
    let mut p = x.to_string();
    let (mut l, mut d) = (0, 1);
    while d < n {
        l += 1;
        let q = format!("{x}_p{l}");
        *body += &format!("    wire [{}:0] {q} = {p} | ({p} << {d});\n", n - 1);
        p = q;
        d *= 2;
    }
    format!("({x} & ~({p} << 1))")
}
