//! Verilog emission shared by every block: how a run-time config becomes exact Verilog.
//!
//! # Widths: the central design problem
//! rust-hdl widths are const generics (`Bits<N>`), TOML values arrive at run time.
//! warpgen solves it in three layers, the same for every block:
//!
//! 1. **Counts are `Vec` lengths.** Everything the config counts (thread groups,
//!    trackers, ports, table entries) is a `Vec` of signals or sub-blocks, sized
//!    at run time; rust-hdl unrolls the loops over them at generation time.
//! 2. **Stored widths are dispatched.** A width that sizes *state* (a counter's
//!    bits) is a const generic of the block, and [`with_width!`] (1 to 8) or
//!    [`with_width64!`] (1 to 64, for a program counter) picks the
//!    monomorphization from the run-time value, so registers are exactly as wide
//!    as the config says.
//! 3. **Ids and masks are padded inside, exact outside.** An id or mask input to
//!    the rust-hdl core is a fixed, generous `Bits<N>`; the generated top module
//!    (`warpgen_<block>`, written by [`Wrapper`]) has the exact ports of the config
//!    and zero-extends them into the core. The padded bits are constant zero, so
//!    synthesis removes every gate and comparator bit they would feed; no flop is
//!    ever padded (layer 2), so no area is spent on bits the config does not need.
//!    Outputs are never padded: a core output is an exact width, and the top
//!    module concatenates core outputs into its exact vectors.
//!
//! # Post-processing rust-hdl's Verilog
//! rust-hdl names modules after instance paths (`top$groups$0$cnt_q$1`) and
//! writes one module per instance. [`finish_modules`] renames the core to
//! `warpgen_<block>_core`, merges modules whose text is identical (bottom-up, so
//! identical parents of identical children merge too), names each merged module
//! after its instance path without indices (`warpgen_<block>_groups_cnt_q`), and
//! turns the `$` path separators into `_`.

use std::collections::{BTreeMap, HashMap};

/// Instantiates `$body` with the const generic `$W` set to the run-time `$w`,
/// one match arm per listed width. The public macros below fix the lists.
#[doc(hidden)]
#[macro_export]
macro_rules! dispatch_width {
    ($w:expr, $W:ident => $body:expr; $($n:literal)+) => {{
        match $w {
            $($n => { const $W: usize = $n; $body })+
            w => panic!("width {w} is outside the range the config validates"),
        }
    }};
}

/// Instantiates `$body` with the const generic `$W` set to the run-time `$w`
/// (1 to 8); anything else is a bug, as config validation bounds every width.
#[macro_export]
macro_rules! with_width {
    ($w:expr, $W:ident => $body:expr) => {
        $crate::dispatch_width!($w, $W => $body; 1 2 3 4 5 6 7 8)
    };
}

/// [`with_width!`] for widths 1 to 64, for state as wide as an address (a
/// program counter). A separate macro, so that blocks whose widths stop at 8
/// instantiate (and compile) 8 copies, not 64.
#[macro_export]
macro_rules! with_width64 {
    ($w:expr, $W:ident => $body:expr) => {
        $crate::dispatch_width!($w, $W => $body;
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
            33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64)
    };
}

/// Direction of a top-level port (the one port description all crates share).
pub use warpgen_ports::Dir;

/// A piece of a top-level port: `width` bits that connect to core port `core`,
/// which is `core_width` bits wide (wider only for zero-extended inputs).
#[derive(Clone, Debug, PartialEq)]
pub struct Part {
    pub core: String,
    pub core_width: usize,
    pub width: usize,
}

/// A port of the generated top module.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    pub name: String,
    pub dir: Dir,
    /// Concatenated least significant part first.
    pub parts: Vec<Part>,
    /// One line for the port list comment.
    pub doc: String,
}

impl Port {
    /// The port as every crate describes a top-level port: name, direction, width.
    pub fn info(&self) -> warpgen_ports::PortInfo {
        warpgen_ports::PortInfo { name: self.name.clone(), dir: self.dir, width: self.width() }
    }

    /// Total width of the port.
    pub fn width(&self) -> usize {
        self.parts.iter().map(|p| p.width).sum()
    }

    /// A one-part port bound to the core port of the same name.
    pub fn single(name: &str, dir: Dir, width: usize, core_width: usize, doc: &str) -> Port {
        Port::packed(name, dir, doc, vec![(name.to_string(), width, core_width)])
    }

    /// A port made of `(core port, width, core width)` parts, LSB first.
    pub fn packed(name: &str, dir: Dir, doc: &str, parts: Vec<(String, usize, usize)>) -> Port {
        Port {
            name: name.to_string(),
            dir,
            parts: parts
                .into_iter()
                .map(|(core, width, core_width)| Part { core, core_width, width })
                .collect(),
            doc: doc.to_string(),
        }
    }
}

/// A group of ports printed under one comment in the port list.
pub struct PortGroup {
    pub title: String,
    pub ports: Vec<Port>,
}

/// The exact-width top module of a block around its rust-hdl core.
pub struct Wrapper {
    pub block: String,
    pub groups: Vec<PortGroup>,
}

impl Wrapper {
    /// Every port, in declaration order.
    pub fn ports(&self) -> impl Iterator<Item = &Port> {
        self.groups.iter().flat_map(|g| g.ports.iter())
    }

    /// Verilog of `module warpgen_<block>`, instantiating `warpgen_<block>_core`.
    pub fn verilog(&self) -> String {
        let top = format!("warpgen_{}", self.block);
        let all: Vec<&Port> = self.ports().collect();
        let mut v = format!("module {top} (\n");
        let mut n = 0;
        for g in &self.groups {
            v += &format!("    // {}\n", g.title);
            for p in &g.ports {
                n += 1;
                let dir = match p.dir {
                    Dir::In => "input ",
                    Dir::Out => "output",
                };
                let range = match p.width() {
                    1 => String::new(),
                    w => format!("[{}:0]", w - 1),
                };
                let sep = if n == all.len() { " " } else { "," };
                v += &format!("    {dir} wire {range:<8} {}{sep} // {}\n", p.name, p.doc);
            }
        }
        v += ");\n\n";
        v += &format!("    {top}_core core (\n");
        let mut conns = Vec::new();
        for p in &all {
            let mut lo = 0;
            for part in &p.parts {
                let sel = select(&p.name, p.width(), lo, part.width);
                let expr = if part.core_width > part.width {
                    assert_eq!(p.dir, Dir::In, "only inputs are zero-extended into the core");
                    format!("{{{}'b0, {sel}}}", part.core_width - part.width)
                } else {
                    assert_eq!(part.core_width, part.width, "port {} part {}", p.name, part.core);
                    sel
                };
                conns.push(format!("        .{}({expr})", part.core));
                lo += part.width;
            }
        }
        v += &conns.join(",\n");
        v += "\n    );\n\nendmodule\n";
        v
    }
}

/// `name`, `name[i]` or `name[hi:lo]`, whichever selects `width` bits at `lo`.
fn select(name: &str, total: usize, lo: usize, width: usize) -> String {
    if width == total {
        name.to_string()
    } else if width == 1 {
        format!("{name}[{lo}]")
    } else {
        format!("{name}[{}:{lo}]", lo + width - 1)
    }
}

/// The comment block at the top of every emitted file.
pub fn header(block: &str, params: &[(String, String)], ports: &[&Port]) -> String {
    let mut h = format!(
        "// warpgen {} -- generated Verilog of block `{block}`; do not edit, regenerate.\n//\n// Parameters:\n",
        env!("CARGO_PKG_VERSION")
    );
    let w = params.iter().map(|(k, _)| k.len()).max().unwrap_or(0);
    for (k, v) in params {
        h += &format!("//   {k:<w$} = {v}\n");
    }
    h += "//\n// Top module warpgen_";
    h += block;
    h += ": ports (width)\n";
    for p in ports {
        h += &format!("//   {:<6} {:<16} {}\n", if p.dir == Dir::In { "in" } else { "out" }, p.name, p.width());
    }
    h += "//   clock: rising edge; reset: synchronous, active high.\n\n";
    h
}

/// One `module … endmodule` of rust-hdl's output.
struct Module {
    name: String,
    text: String,
}

fn split_modules(verilog: &str) -> Vec<Module> {
    let mut out = Vec::new();
    let mut cur: Option<Module> = None;
    for line in verilog.lines() {
        if let Some(rest) = line.strip_prefix("module ") {
            let name = rest.split('(').next().unwrap_or("").trim().to_string();
            cur = Some(Module { name, text: String::new() });
        }
        if let Some(m) = cur.as_mut() {
            m.text += line.trim_end();
            m.text += "\n";
        }
        if line.starts_with("endmodule") {
            out.extend(cur.take());
        }
    }
    out
}

/// Applies `f` to every identifier token (letters, digits, `_`, `$`, not starting
/// with a digit or `$`) of Verilog text; everything else is copied.
pub fn map_identifiers(text: &str, mut f: impl FnMut(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut prev_ident = false;
    while let Some((i, c)) = chars.next() {
        if (c.is_ascii_alphabetic() || c == '_') && !prev_ident {
            let mut end = i + c.len_utf8();
            while let Some(&(j, d)) = chars.peek() {
                if !is_ident(d) {
                    break;
                }
                end = j + d.len_utf8();
                chars.next();
            }
            out += &f(&text[i..end]);
            prev_ident = true;
        } else {
            out.push(c);
            // A digit or `'` continues a literal such as 4'hf: its letters are no identifier.
            prev_ident = is_ident(c) || c == '\'';
        }
    }
    out
}

/// Renames, merges and cleans rust-hdl's modules for block `block` (see the module doc).
pub fn finish_modules(block: &str, verilog: &str) -> String {
    let prefix = format!("warpgen_{block}");
    let mut modules = split_modules(verilog);
    // Bottom-up merging: repeat until no two modules are identical but for their name.
    loop {
        let mut by_body: BTreeMap<String, String> = BTreeMap::new();
        let mut rename: HashMap<String, String> = HashMap::new();
        for m in &modules {
            let body = map_identifiers(&m.text, |id| if id == m.name { String::new() } else { id.to_string() });
            match by_body.get(&body) {
                Some(keep) => {
                    rename.insert(m.name.clone(), keep.clone());
                }
                None => {
                    by_body.insert(body, m.name.clone());
                }
            }
        }
        if rename.is_empty() {
            break;
        }
        modules.retain(|m| !rename.contains_key(&m.name));
        for m in &mut modules {
            m.text = map_identifiers(&m.text, |id| rename.get(id).cloned().unwrap_or_else(|| id.to_string()));
        }
    }
    // Final names: the core, then each module after its instance path without indices.
    let mut names: HashMap<String, String> = HashMap::new();
    let mut taken: HashMap<String, usize> = HashMap::new();
    for m in &modules {
        let base = if m.name == "top" {
            format!("{prefix}_core")
        } else if let Some(w) = dff_width(&m.text) {
            // rust-hdl's DFF, shared by every register of that width.
            format!("{prefix}_dff_w{w}")
        } else {
            let path: Vec<&str> = m
                .name
                .split('$')
                .skip(1)
                .filter(|s| !s.chars().all(|c| c.is_ascii_digit()))
                .collect();
            format!("{prefix}_{}", path.join("_"))
        };
        let n = taken.entry(base.clone()).or_insert(0);
        *n += 1;
        let name = if *n == 1 { base } else { format!("{base}_{n}") };
        names.insert(m.name.clone(), name);
    }
    let mut out = String::new();
    for m in &modules {
        let text = map_identifiers(&m.text, |id| match names.get(id) {
            Some(n) => n.clone(),
            None => id.replace('$', "_"),
        });
        out += &tidy(&text);
        out += "\n";
    }
    out
}

/// The width of a module that is rust-hdl's `DFF` (ports `d, q, clock`, one
/// `q <= d` at the clock edge), or `None` for any other module.
fn dff_width(text: &str) -> Option<usize> {
    let header = text.lines().next()?;
    if !header.ends_with("(d,q,clock);") || !text.contains("always @(posedge clock) begin") || !text.contains(" q <= d;") {
        return None;
    }
    let decl = text.lines().find(|l| l.trim_start().starts_with("input wire") && l.trim_end().ends_with(" d;"))?;
    Some(match decl.split_once('[') {
        Some((_, r)) => r.split(':').next()?.trim().parse::<usize>().ok()? + 1,
        None => 1,
    })
}

/// Lines longer than this are wrapped after a comma ([`wrap_long`]).
const LONG_LINE: usize = 20_000;

/// Drops rust-hdl's blank-line runs and whitespace-only lines, and wraps the
/// few very long ones.
fn tidy(text: &str) -> String {
    let mut out = String::new();
    let mut blank = false;
    for line in text.lines() {
        let l = line.trim_end();
        if l.is_empty() {
            if !blank {
                out += "\n";
            }
            blank = true;
        } else {
            wrap_long(l, &mut out);
            out += "\n";
            blank = false;
        }
    }
    out
}

/// Appends `line`, wrapped after a comma into lines of about 100 characters when
/// it is longer than [`LONG_LINE`]. rust-hdl writes a module's port list on one
/// line, and Verilator's preprocessor refuses a line of more than 40,000 tokens
/// (task_combiner at 128 entries × 64 lanes: about 300,000 characters). Shorter
/// lines, among them every line of the default config, are copied as they are.
fn wrap_long(line: &str, out: &mut String) {
    if line.len() <= LONG_LINE {
        *out += line;
        return;
    }
    let mut col = 0;
    for (i, part) in line.split_inclusive(',').enumerate() {
        if i > 0 && col + part.len() > 100 {
            *out += "\n    ";
            col = 4;
        }
        *out += part;
        col += part.len();
    }
}
