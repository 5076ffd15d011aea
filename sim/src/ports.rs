//! What the harness learns from Verilator's output and hands to the C++ side: the ports
//! (their description, storage, and how they are found in the Verilated header), the
//! shape of the model's `eval_step`, and the generated `wg_ports.h`.

use std::fmt::Write as _;

use crate::SimError;

pub use warpgen_ports::{Dir, PortInfo, CLOCK};

/// How Verilator stores a port of a given width in the model object.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Storage {
    /// `CData`, up to 8 bits.
    U8,
    /// `SData`, up to 16 bits.
    U16,
    /// `IData`, up to 32 bits.
    U32,
    /// `QData`, up to 64 bits.
    U64,
    /// `VlWide<words>`: an array of 32-bit words, least significant first.
    Wide {
        /// Number of 32-bit words.
        words: usize,
    },
}

impl Storage {
    /// Verilator's storage for `width` bits.
    pub fn for_width(width: usize) -> Storage {
        match width {
            0..=8 => Storage::U8,
            9..=16 => Storage::U16,
            17..=32 => Storage::U32,
            33..=64 => Storage::U64,
            _ => Storage::Wide {
                words: width.div_ceil(32),
            },
        }
    }
}

/// Parses the port declarations of a Verilated model header (`V<top>.h`). Verilator 5
/// declares each port on its own line as `VL_IN8(&name,msb,lsb);`, `VL_OUT16(...)`,
/// `VL_IN(...)` (32-bit), `VL_OUT64(...)` or `VL_INW(&name,msb,lsb,words);`.
pub(crate) fn parse_header(header: &str) -> Result<Vec<PortInfo>, SimError> {
    header
        .lines()
        .map(str::trim)
        .filter(|line| line.starts_with("VL_IN") || line.starts_with("VL_OUT"))
        .map(parse_port_line)
        .collect()
}

fn parse_port_line(line: &str) -> Result<PortInfo, SimError> {
    let bad = || {
        SimError::Unsupported(format!(
            "unrecognised port declaration in the Verilated header: {line}"
        ))
    };
    let open = line.find('(').ok_or_else(bad)?;
    let macro_name = &line[..open];
    let args: Vec<&str> = line[open + 1..]
        .trim_end_matches(';')
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .collect();
    if macro_name.starts_with("VL_INOUT") {
        let name = args.first().map_or("?", |a| a.trim_start_matches('&'));
        return Err(SimError::Unsupported(format!(
            "inout port `{name}` cannot be driven by the harness"
        )));
    }
    let (dir, suffix) = if let Some(s) = macro_name.strip_prefix("VL_IN") {
        (Dir::In, s)
    } else if let Some(s) = macro_name.strip_prefix("VL_OUT") {
        (Dir::Out, s)
    } else {
        return Err(bad());
    };
    if args.len() < 3 {
        return Err(bad());
    }
    let name = args[0].strip_prefix('&').ok_or_else(bad)?.to_string();
    let msb: usize = args[1].parse().map_err(|_| bad())?;
    let lsb: usize = args[2].parse().map_err(|_| bad())?;
    let width = msb.abs_diff(lsb) + 1;
    let declared = match suffix {
        "8" => Storage::U8,
        "16" => Storage::U16,
        "" => Storage::U32,
        "64" => Storage::U64,
        "W" => Storage::Wide {
            words: args.get(3).and_then(|w| w.parse().ok()).ok_or_else(bad)?,
        },
        _ => return Err(bad()),
    };
    if declared != Storage::for_width(width) {
        return Err(SimError::Unsupported(format!(
            "port `{name}`: {width} bits stored as {declared:?}, expected {:?} ({line})",
            Storage::for_width(width)
        )));
    }
    Ok(PortInfo { name, dir, width })
}

/// A faster evaluation than the model's `eval()`, for single-threaded models.
///
/// Verilator 5's `eval_step()` wraps the design's evaluation in per-call thread
/// bookkeeping (`Verilated::mtaskId(0)`, `endOfThreadMTask`, `endOfEval`) that only matters
/// for multi-threaded models and that, in a shared library, costs several calls into the
/// dynamic loader for thread-local variables: about as much as evaluating a small design.
/// When `eval_step` has exactly the known single-threaded shape, the shim evaluates with its
/// remaining statements instead (after the first, normal `eval()` that runs the initial
/// blocks). Any other shape (another Verilator version, `--threads`) keeps `eval()`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DirectEval {
    /// The root evaluation function, `V<top>___024root___eval`.
    root_eval: String,
    /// The statements kept, in order, in terms of `vlSymsp`.
    statements: Vec<String>,
}

impl DirectEval {
    /// Recognises the single-threaded `eval_step` in `V<top>.cpp` (and `eval()` calling just
    /// `eval_step()` in `V<top>.h`).
    pub fn detect(top: &str, model_cpp: &str, model_h: &str) -> Option<DirectEval> {
        if !model_h.contains("void eval() { eval_step(); }") {
            return None;
        }
        let start = model_cpp.find(&format!("void V{top}::eval_step() {{"))?;
        let mut lines = model_cpp[start..].lines().skip(1).map(str::trim);
        let root_eval = format!("V{top}___024root___eval");
        let root_call = format!("{root_eval}(&(vlSymsp->TOP));");
        const BOOKKEEPING: [&str; 3] = [
            "Verilated::mtaskId(0);",
            "Verilated::endOfThreadMTask(vlSymsp->__Vm_evalMsgQp);",
            "Verilated::endOfEval(vlSymsp->__Vm_evalMsgQp);",
        ];
        let (mut statements, mut dropped) = (Vec::new(), 0);
        loop {
            let line = lines.next()?;
            match line {
                "}" => break,
                "" => {}
                _ if line.starts_with("//") || line.starts_with("VL_DEBUG_IF(") => {}
                "#ifdef VL_DEBUG" => skip_until(&mut lines, |l| l.starts_with("#endif"))?,
                "if (VL_UNLIKELY(!vlSymsp->__Vm_didInit)) {" => {
                    skip_until(&mut lines, |l| l == "}")?
                }
                _ if BOOKKEEPING.contains(&line) => dropped += 1,
                "vlSymsp->__Vm_activity = true;" => statements.push(line.to_string()),
                _ if line == root_call => statements.push(line.to_string()),
                _ => return None,
            }
        }
        let complete = dropped == BOOKKEEPING.len()
            && statements.last().map(String::as_str) == Some(root_call.as_str());
        complete.then_some(DirectEval {
            root_eval,
            statements,
        })
    }

    /// The `wg_ports.h` lines defining `WG_EVAL_DIRECT(model)`.
    fn header_lines(&self, top: &str) -> String {
        let body: Vec<String> = self
            .statements
            .iter()
            .map(|s| s.replace("vlSymsp", "(model)->rootp->vlSymsp"))
            .collect();
        format!(
            "#define WG_DIRECT_EVAL 1\n\
             #include \"V{top}__Syms.h\"\n\
             void {}(V{top}___024root* vlSelf);\n\
             #define WG_EVAL_DIRECT(model) do {{ {} }} while (0)\n",
            self.root_eval,
            body.join(" ")
        )
    }
}

/// Advances `lines` past the first line satisfying `end`; `None` if there is none or a
/// nested block starts first.
fn skip_until<'a>(
    lines: &mut impl Iterator<Item = &'a str>,
    end: impl Fn(&str) -> bool,
) -> Option<()> {
    for line in lines {
        if end(line) {
            return Some(());
        }
        if line.contains('{') {
            return None;
        }
    }
    None
}

/// Generates `wg_ports.h`, the per-design header included by the shim and the replay
/// benchmark (see `cpp/wg_shim.cpp`).
pub(crate) fn ports_header(
    top: &str,
    trace: bool,
    direct: Option<&DirectEval>,
    ports: &[PortInfo],
) -> String {
    let x_list = |filter: &dyn Fn(&PortInfo) -> bool| {
        let mut list = String::new();
        for p in ports.iter().filter(|p| filter(p)) {
            let dir = match p.dir {
                Dir::In => 0,
                Dir::Out => 1,
            };
            let _ = write!(list, " \\\n    X({}, {dir}, {})", p.name, p.width);
        }
        list
    };
    let stim_words: usize = ports
        .iter()
        .filter(|p| p.is_stimulus())
        .map(PortInfo::words)
        .sum();
    let has_clock = ports.iter().any(PortInfo::is_clock);
    let direct = direct.map_or_else(
        || "#define WG_DIRECT_EVAL 0\n".to_string(),
        |d| d.header_lines(top),
    );
    format!(
        "// Generated by warpgen-sim for top module `{top}`. Do not edit.\n\
         #pragma once\n\
         #include \"V{top}.h\"\n\
         #define WG_MODEL V{top}\n\
         #define WG_TRACE {}\n\
         #define WG_HAS_CLOCK {}\n\
         #define WG_STIM_WORDS {stim_words}\n\
         {direct}\
         // X(member, dir /*0 in, 1 out*/, width)\n\
         #define WG_PORTS(X){}\n\
         #define WG_STIM_INPUTS(X){}\n\
         #define WG_OUTPUTS(X){}\n",
        u8::from(trace),
        u8::from(has_clock),
        x_list(&|_| true),
        x_list(&PortInfo::is_stimulus),
        x_list(&|p| p.dir == Dir::Out),
    )
}

/// Whether little-endian `words` hold a value of at most `width` bits.
pub(crate) fn fits(words: &[u64], width: usize) -> bool {
    words.iter().enumerate().all(|(i, &w)| {
        let low_bit = 64 * i;
        if low_bit >= width {
            w == 0
        } else {
            width - low_bit >= 64 || w >> (width - low_bit) == 0
        }
    })
}

/// `words` as one hex number, most significant word first.
pub(crate) fn hex(words: &[u64]) -> String {
    let mut s = String::from("0x");
    let mut started = false;
    for &w in words.iter().rev() {
        if started {
            s.push_str(&format!("{w:016x}"));
        } else if w != 0 {
            s.push_str(&format!("{w:x}"));
            started = true;
        }
    }
    if !started {
        s.push('0');
    }
    s
}

/// Checks that every cycle of `stimulus` has the right number of words for the model's
/// stimulus ports and that no value has bits above its port's width.
pub(crate) fn check_stimulus(ports: &[PortInfo], stimulus: &[Vec<u64>]) -> Result<(), SimError> {
    let inputs: Vec<&PortInfo> = ports.iter().filter(|p| p.is_stimulus()).collect();
    let words: usize = inputs.iter().map(|p| p.words()).sum();
    for (cycle, values) in stimulus.iter().enumerate() {
        if values.len() != words {
            let names: Vec<String> = inputs
                .iter()
                .map(|p| format!("{}[{}]", p.name, p.width))
                .collect();
            return Err(SimError::InvalidStimulus(format!(
                "cycle {cycle} has {} words; expected {words}: one per 64 bits of {}",
                values.len(),
                names.join(", ")
            )));
        }
        let mut rest = values.as_slice();
        for port in &inputs {
            let (value, tail) = rest.split_at(port.words());
            if !fits(value, port.width) {
                return Err(SimError::InvalidStimulus(format!(
                    "cycle {cycle}: value {} does not fit port `{}` ({} bits)",
                    hex(value),
                    port.name,
                    port.width
                )));
            }
            rest = tail;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_verilator_5_port_macros() {
        let header = "    VL_IN8(&clock,0,0);\n    VL_OUT16(&a,15,0);\n    VL_IN(&b,31,0);\n    \
                      VL_OUT64(&c,32,0);\n    VL_INW(&w,99,0,4);\n    // VL_IN8 in a comment\n";
        let ports = parse_header(header).unwrap();
        let summary: Vec<_> = ports
            .iter()
            .map(|p| (p.name.as_str(), p.dir, p.width))
            .collect();
        assert_eq!(
            summary,
            [
                ("clock", Dir::In, 1),
                ("a", Dir::Out, 16),
                ("b", Dir::In, 32),
                ("c", Dir::Out, 33),
                ("w", Dir::In, 100)
            ]
        );
    }

    #[test]
    fn rejects_inout_and_inconsistent_storage() {
        assert!(matches!(
            parse_header("VL_INOUT8(&io,0,0);"),
            Err(SimError::Unsupported(_))
        ));
        assert!(matches!(
            parse_header("VL_IN8(&x,15,0);"),
            Err(SimError::Unsupported(_))
        ));
    }

    const EVAL_STEP: &str = "void Vf::eval_step() {\n    VL_DEBUG_IF(VL_DBG_MSGF(\"+++++TOP\\n\"); );\n\
        #ifdef VL_DEBUG\n    // Debug assertions\n    Vf___024root___eval_debug_assertions(&(vlSymsp->TOP));\n\
        #endif  // VL_DEBUG\n    vlSymsp->__Vm_activity = true;\n    if (VL_UNLIKELY(!vlSymsp->__Vm_didInit)) {\n\
        vlSymsp->__Vm_didInit = true;\n        Vf___024root___eval_static(&(vlSymsp->TOP));\n    }\n\
        // MTask 0 start\n    Verilated::mtaskId(0);\n    Vf___024root___eval(&(vlSymsp->TOP));\n\
        // Evaluate cleanup\n    Verilated::endOfThreadMTask(vlSymsp->__Vm_evalMsgQp);\n\
        Verilated::endOfEval(vlSymsp->__Vm_evalMsgQp);\n}\n";
    const EVAL_H: &str = "    void eval() { eval_step(); }\n";

    #[test]
    fn direct_eval_keeps_the_design_statements() {
        let direct = DirectEval::detect("f", EVAL_STEP, EVAL_H).unwrap();
        assert_eq!(
            direct.statements,
            [
                "vlSymsp->__Vm_activity = true;",
                "Vf___024root___eval(&(vlSymsp->TOP));"
            ]
        );
        assert!(direct.header_lines("f").contains(
            "#define WG_EVAL_DIRECT(model) do { (model)->rootp->vlSymsp->__Vm_activity = true; \
             Vf___024root___eval(&((model)->rootp->vlSymsp->TOP)); } while (0)"
        ));
    }

    #[test]
    fn direct_eval_refuses_unknown_shapes() {
        let threaded = EVAL_STEP.replace(
            "Verilated::mtaskId(0);",
            "vlSymsp->__Vm_threadPoolp->run();",
        );
        assert_eq!(DirectEval::detect("f", &threaded, EVAL_H), None);
        assert_eq!(
            DirectEval::detect("f", EVAL_STEP, "void eval() { eval_step(); other(); }"),
            None
        );
        assert_eq!(DirectEval::detect("g", EVAL_STEP, EVAL_H), None);
    }

    #[test]
    fn storage_boundaries() {
        assert_eq!(Storage::for_width(8), Storage::U8);
        assert_eq!(Storage::for_width(9), Storage::U16);
        assert_eq!(Storage::for_width(33), Storage::U64);
        assert_eq!(Storage::for_width(65), Storage::Wide { words: 3 });
    }
}
