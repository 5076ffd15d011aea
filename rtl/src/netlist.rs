//! A block core assembled from several rust-hdl designs by a generated netlist.
//!
//! `emit`'s layer 2 makes a width that sizes state a const generic, dispatched
//! from the config. A block whose state has *several* independent widths (the
//! global spreader: resource counters, entity numbers, vertex indices,
//! addresses, table entries) cannot be one generic design: dispatching every
//! width of one type nests the dispatches, and the number of compiled copies is
//! their product. Instead each width gets its own small design, generic in that
//! width alone and dispatched alone (so the copies add up); the core is a
//! netlist that instantiates them with exact-width wires:
//!
//! * [`Netlist::design`] takes rust-hdl's Verilog of one design (module `top`
//!   and its submodules), renames its modules `top$<inst>…` so that the
//!   designs of one core do not collide, and reads the ports of its top module.
//! * [`Instance::pin`] connects a port to an [`Ex`] of the same width: a net, a
//!   slice, a concatenation, a constant or a zero extension. A design's
//!   run-time-width values are vectors of one-bit ports, so every wire is exact.
//! * [`Netlist::verilog`] writes module `top` (the core: the ports, the wires,
//!   the instances and nothing else) followed by every design's modules, ready
//!   for `emit::finish_modules`.
//!
//! The netlist holds no logic; every gate is in a rust-hdl design.

use crate::emit::{map_identifiers, Dir};
use std::collections::BTreeMap;

/// A Verilog expression of a known width, to connect to a port.
#[derive(Clone, Debug, PartialEq)]
pub struct Ex {
    pub text: String,
    pub width: usize,
}

impl Ex {
    /// `width` zero bits.
    pub fn zeros(width: usize) -> Ex {
        Ex { text: format!("{width}'b0"), width }
    }

    /// One constant bit.
    pub fn bit(v: bool) -> Ex {
        Ex { text: if v { "1'b1".into() } else { "1'b0".into() }, width: 1 }
    }

    /// The concatenation of `parts`, least significant first.
    pub fn cat(parts: Vec<Ex>) -> Ex {
        assert!(!parts.is_empty(), "an empty concatenation");
        if parts.len() == 1 {
            return parts.into_iter().next().unwrap();
        }
        let width = parts.iter().map(|p| p.width).sum();
        let text = parts.iter().rev().map(|p| p.text.as_str()).collect::<Vec<_>>().join(", ");
        Ex { text: format!("{{{text}}}"), width }
    }

    /// The bitwise OR of `parts` (all of one width); one part is itself.
    pub fn or(parts: Vec<Ex>) -> Ex {
        Ex::op(parts, " | ")
    }

    /// The bitwise AND of `parts` (all of one width); one part is itself.
    pub fn and(parts: Vec<Ex>) -> Ex {
        Ex::op(parts, " & ")
    }

    fn op(parts: Vec<Ex>, op: &str) -> Ex {
        assert!(!parts.is_empty(), "an empty operation");
        let width = parts[0].width;
        assert!(parts.iter().all(|p| p.width == width), "operands of different widths");
        if parts.len() == 1 {
            return parts.into_iter().next().unwrap();
        }
        let text = parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join(op);
        Ex { text: format!("({text})"), width }
    }

    /// `self` zero-extended to `width` bits.
    pub fn zext(self, width: usize) -> Ex {
        assert!(width >= self.width, "zext of {} bits to {width}", self.width);
        if width == self.width {
            self
        } else {
            let pad = width - self.width;
            Ex::cat(vec![self, Ex::zeros(pad)])
        }
    }
}

/// A module's port: name, direction, width.
#[derive(Clone, Debug, PartialEq)]
pub struct PortDecl {
    pub name: String,
    pub dir: Dir,
    pub width: usize,
}

/// A module that can be instantiated: its name and ports.
#[derive(Clone, Debug)]
pub struct Module {
    pub name: String,
    pub ports: Vec<PortDecl>,
}

/// One instance being connected.
pub struct Instance {
    module: Module,
    name: String,
    conns: BTreeMap<String, Ex>,
}

impl Instance {
    /// An instance `name` of `module`.
    pub fn new(module: &Module, name: &str) -> Instance {
        Instance { module: module.clone(), name: name.to_string(), conns: BTreeMap::new() }
    }

    /// Connects port `port` to `ex`; the widths must agree.
    pub fn pin(&mut self, port: &str, ex: Ex) {
        let p = self
            .module
            .ports
            .iter()
            .find(|p| p.name == port)
            .unwrap_or_else(|| panic!("{} ({}) has no port `{port}`", self.name, self.module.name));
        assert_eq!(p.width, ex.width, "{}.{port}: port width {} but connected {} = {}", self.name, p.width, ex.width, ex.text);
        let old = self.conns.insert(port.to_string(), ex);
        assert!(old.is_none(), "{}.{port} connected twice", self.name);
    }

    /// Whether the module has port `port` (optional ports of a design).
    pub fn has(&self, port: &str) -> bool {
        self.module.ports.iter().any(|p| p.name == port)
    }
}

/// A core netlist under construction (see the module doc).
pub struct Netlist {
    ports: Vec<PortDecl>,
    widths: BTreeMap<String, usize>,
    wires: Vec<(String, usize)>,
    instances: Vec<String>,
    ties: Vec<String>,
    modules: Vec<String>,
}

impl Netlist {
    /// A netlist whose module `top` has `ports`, in this order.
    pub fn new(ports: Vec<PortDecl>) -> Netlist {
        let widths = ports.iter().map(|p| (p.name.clone(), p.width)).collect();
        Netlist { ports, widths, wires: Vec::new(), instances: Vec::new(), ties: Vec::new(), modules: Vec::new() }
    }

    /// Declares a wire.
    pub fn wire(&mut self, name: &str, width: usize) {
        assert!(width >= 1, "wire {name} of width 0");
        let old = self.widths.insert(name.to_string(), width);
        assert!(old.is_none(), "net {name} declared twice");
        self.wires.push((name.to_string(), width));
    }

    /// Width of net `name`.
    pub fn width(&self, name: &str) -> usize {
        *self.widths.get(name).unwrap_or_else(|| panic!("no net `{name}`"))
    }

    /// Whole net `name`.
    pub fn net(&self, name: &str) -> Ex {
        Ex { text: name.to_string(), width: self.width(name) }
    }

    /// Bits `lo .. lo+width` of net `name`.
    pub fn bits(&self, name: &str, lo: usize, width: usize) -> Ex {
        let total = self.width(name);
        assert!(width >= 1 && lo + width <= total, "{name}[{lo} +: {width}] of {total} bits");
        let text = if width == total {
            name.to_string()
        } else if width == 1 {
            format!("{name}[{lo}]")
        } else {
            format!("{name}[{}:{lo}]", lo + width - 1)
        };
        Ex { text, width }
    }

    /// Bit `i` of net `name`.
    pub fn bit(&self, name: &str, i: usize) -> Ex {
        self.bits(name, i, 1)
    }

    /// Adds the rust-hdl Verilog of one design as instance `inst` and returns
    /// its top module (renamed `top$<inst>`), ready to instantiate once.
    pub fn design(&mut self, inst: &str, verilog: &str) -> Module {
        let prefix = format!("top${inst}");
        let text = map_identifiers(verilog, |id| {
            if id == "top" {
                prefix.clone()
            } else if let Some(rest) = id.strip_prefix("top$") {
                format!("{prefix}${rest}")
            } else {
                id.to_string()
            }
        });
        let module = parse_module(&text, &prefix);
        self.modules.push(text);
        module
    }

    /// Adds a module written as text (one `module … endmodule`).
    pub fn text_module(&mut self, name: &str, text: String) -> Module {
        let module = parse_module(&text, name);
        self.modules.push(text);
        module
    }

    /// Adds a fully connected instance.
    pub fn add(&mut self, i: Instance) {
        let missing: Vec<&str> = i
            .module
            .ports
            .iter()
            .filter(|p| !i.conns.contains_key(&p.name))
            .map(|p| p.name.as_str())
            .collect();
        assert!(missing.is_empty(), "{} ({}): unconnected ports {missing:?}", i.name, i.module.name);
        let conns: Vec<String> = i
            .module
            .ports
            .iter()
            .map(|p| format!("        .{}({})", p.name, i.conns[&p.name].text))
            .collect();
        self.instances.push(format!("    {} {}(\n{}\n    );\n", i.module.name, i.name, conns.join(",\n")));
    }

    /// Ties output port `name` to a constant (a field the config does not have).
    pub fn tie(&mut self, name: &str, value: Ex) {
        assert_eq!(self.width(name), value.width, "tie {name}");
        assert!(!value.text.chars().any(|c| c.is_ascii_alphabetic() && c != 'b'), "tie {name} to a constant only");
        self.ties.push(format!("    assign {name} = {};\n", value.text));
    }

    /// Module `top` followed by every added module.
    pub fn verilog(&self) -> String {
        let names: Vec<&str> = self.ports.iter().map(|p| p.name.as_str()).collect();
        let mut v = format!("module top({});\n", names.join(","));
        let range = |w: usize| if w == 1 { String::new() } else { format!("[{}:0] ", w - 1) };
        for p in &self.ports {
            let dir = if p.dir == Dir::In { "input" } else { "output" };
            v += &format!("    {dir} wire {}{};\n", range(p.width), p.name);
        }
        for (name, w) in &self.wires {
            v += &format!("    wire {}{name};\n", range(*w));
        }
        for t in &self.ties {
            v += t;
        }
        for i in &self.instances {
            v += i;
        }
        v += "endmodule // top\n";
        for m in &self.modules {
            v += "\n";
            v += m;
        }
        v
    }
}

/// The ports of module `name` in Verilog text (declarations `input wire [h:0] x;`).
fn parse_module(text: &str, name: &str) -> Module {
    let head = format!("module {name}(");
    let start = text.find(&head).unwrap_or_else(|| panic!("no module {name}"));
    let mut ports = Vec::new();
    for line in text[start..].lines().skip(1) {
        let l = line.trim();
        if l.starts_with("endmodule") {
            break;
        }
        let dir = if l.starts_with("input ") {
            Dir::In
        } else if l.starts_with("output ") {
            Dir::Out
        } else {
            continue;
        };
        let decl = l.trim_end_matches(';');
        let width = match decl.split_once('[') {
            Some((_, r)) => r.split(':').next().unwrap().trim().parse::<usize>().unwrap() + 1,
            None => 1,
        };
        let pname = decl.split_whitespace().last().unwrap().to_string();
        ports.push(PortDecl { name: pname, dir, width });
    }
    Module { name: name.to_string(), ports }
}
