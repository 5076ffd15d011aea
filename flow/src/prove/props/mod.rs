//! The property checkers of `warpgen prove`: one module `warpgen_<block>_props` per block,
//! written from the block's spec and contract (`docs/contracts/`), never from its RTL.
//!
//! A checker has every port of the block as an input of the same name and width, and holds
//! `assert`s (labels `a_<name>`), `assume`s (`m_<name>`, each citing the contract rule it
//! comes from) and `cover`s (`c_<name>`: every assert has a cover of its antecedent so that
//! no property holds vacuously). The formal top ([`formal_top`]) binds it to the block; the
//! block itself gains nothing.
//!
//! Conventions every checker follows (see [`header`]):
//! * `f_past` is 0 in the first cycle of a trace and 1 after it: `$past` is used only under it;
//! * the first cycle has `reset` high (assumed by the formal top); properties about outputs
//!   hold from the first cycle after a reset cycle (`f_live`), and reset cycles are not checked;
//! * shadow state a property needs (a count of pushes, a copy of a table) is kept in the
//!   checker in plain Verilog-2005 plus `assert`/`assume`/`cover`, readable by Yosys's
//!   `read_verilog -formal`.

use warpgen_rtl::emit::Dir;
use crate::testbench::{instance, range};
use warpgen_rtl::{Config, Emitted};

pub mod branch_stack;
pub mod global_spreader;
pub mod scoreboard;
pub mod task_combiner;
pub mod thread_merge;

/// The checker module's text for `e` (the block emitted from `config`).
pub fn checker(config: &Config, e: &Emitted) -> Result<String, String> {
    Ok(match e.block {
        "scoreboard" => scoreboard::props(config.scoreboard()?, e),
        "branch_stack" => branch_stack::props(config.branch_stack()?, e),
        "task_combiner" => task_combiner::props(config.task_combiner()?, e),
        "global_spreader" => global_spreader::props(config.global_spreader()?, e),
        "thread_merge" => {
            let c = config.thread_merge()?;
            if c.merge_ways > 2 {
                return Err(format!(
                    "thread_merge.merge_ways = {} has no properties in this version: allowed 2 (the checker \
                     follows pairs, contract R1-R19; sets of 3 or 4 groups, R20, are checked by the lockstep \
                     tests and the directed cases)",
                    c.merge_ways
                ));
            }
            thread_merge::props(c, e)
        }
        other => return Err(format!("no properties for block `{other}`")),
    })
}

/// The width of port `name` of `e` (panics if the block has no such port: a checker names
/// only ports its config has).
pub fn width(e: &Emitted, name: &str) -> usize {
    e.ports
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("{}: no port `{name}`", e.top))
        .width()
}

/// Whether `e` has port `name` (ports that depend on the config, e.g. a channel per type).
pub fn has(e: &Emitted, name: &str) -> bool {
    e.ports.iter().any(|p| p.name == name)
}

/// `module warpgen_<block>_props (...)` with every port of `e` as an input, then the
/// `f_past` / `f_live` registers every checker uses:
/// * `f_past`: 0 in the first cycle, then 1;
/// * `f_live`: 1 in a cycle that is not a reset cycle and follows one or more cycles since
///   the first reset (`reset` was 1 at some earlier edge and is 0 now).
pub fn header(e: &Emitted) -> String {
    let mut s = format!(
        "// Properties of {top}, written from docs/contracts/{block}.md (warpgen prove).\n\
         module {top}_props (\n",
        top = e.top,
        block = e.block
    );
    let decls: Vec<String> = e
        .ports
        .iter()
        .map(|p| {
            let range = range(p.width());
            let dir = match p.dir {
                Dir::In => "(in) ",
                Dir::Out => "(out)",
            };
            format!("    input wire {range}{} /* {dir} */", p.name)
        })
        .collect();
    s += &decls.join(",\n");
    s += "\n);\n";
    s += "    reg f_past = 1'b0;\n    reg f_reset_seen = 1'b0;\n";
    s += "    always @(posedge clock) begin\n        f_past <= 1'b1;\n        if (reset) f_reset_seen <= 1'b1;\n    end\n";
    s += "    wire f_live = f_reset_seen && !reset;\n";
    s
}

/// `module warpgen_<block>_formal`: the block and its checker on the same ports; the
/// block's inputs are the top's inputs (free, except for the checker's assumptions), and the
/// first cycle has `reset` high.
pub fn formal_top(e: &Emitted) -> String {
    let inputs: Vec<String> = e
        .ports
        .iter()
        .filter(|p| p.dir == Dir::In)
        .map(|p| format!("    input wire {}{}", range(p.width()), p.name))
        .collect();
    let mut s = format!("// Formal top of {top} (warpgen prove): the block and its checker.\nmodule {top}_formal (\n", top = e.top);
    s += &inputs.join(",\n");
    s += "\n);\n";
    for p in e.ports.iter().filter(|p| p.dir == Dir::Out) {
        s += &format!("    wire {}{};\n", range(p.width()), p.name);
    }
    s += &instance(&e.top, "dut", e);
    s += &instance(&format!("{}_props", e.top), "props", e);
    s += "    reg f_first = 1'b1;\n    always @(posedge clock) f_first <= 1'b0;\n";
    s += "    always @(*) if (f_first) m_reset_first: assume (reset);\nendmodule\n";
    s
}

/// The counter asserts of the uniform performance-counter interface (docs/perf.md), the same
/// for every block with `perf_counters`: `events` are the checker's own Verilog expressions
/// of the block's events, in `perf_sel` order (counter k counts `events[k]`). Its names
/// (`NPC`, `f_pev`) must not be the checker's own (the scoreboard's has an `NC`).
/// * `a_perf_reset`: every counter is 0 after a reset;
/// * `a_perf_none`: an index past the last counter reads 0 (only where `perf_sel`, `sel_bits`
///   wide, can name one: else its cover could not be reached);
/// * `a_perf_count`: a counter read at the same index in two cycles moved by exactly its
///   event (0 or 1, saturating at 2^32 - 1), or is 0 after `perf_clr` (clear wins).
pub fn perf_asserts(events: &[String], sel_bits: usize) -> String {
    let all: Vec<Option<String>> = events.iter().cloned().map(Some).collect();
    perf_asserts_partial(&all, sel_bits)
}

/// [`perf_asserts`] where an event may be `None`: one the checker does not model (it would need
/// state the checker does not shadow). That counter is checked for the counter rule alone: it
/// stays or moves by exactly 1 (saturating), and clears; with every event `Some` the text is
/// that of [`perf_asserts`].
pub fn perf_asserts_partial(events: &[Option<String>], sel_bits: usize) -> String {
    let n = events.len();
    let none = if n < 1 << sel_bits {
        "            // docs/perf.md: an index past the last counter reads 0\n            if (perf_sel >= NPC) begin\n                a_perf_none: assert (perf_val == 0);\n                c_perf_none: cover (1);\n            end\n"
    } else {
        ""
    };
    let pev: Vec<&str> = events.iter().rev().map(|e| e.as_deref().unwrap_or("1'b0")).collect();
    // A counter whose event is not modelled (F_PFREE) may step by 1 whenever it does.
    let free: String = events.iter().rev().map(|e| if e.is_none() { '1' } else { '0' }).collect();
    let (free_decl, step) = if free.contains('1') {
        (
            format!("    // counters whose event the checker does not model: +0 or +1 only\n    localparam [NPC-1:0] F_PFREE = {n}'b{free};\n"),
            "($past(f_pev[perf_sel]) || (F_PFREE[perf_sel] && perf_val != $past(perf_val)))",
        )
    } else {
        (String::new(), "$past(f_pev[perf_sel])")
    };
    format!(
        r#"    localparam NPC = {n};
{free_decl}        // docs/perf.md: the events of the cycle in perf_sel order, from the checker's own terms
        wire [NPC-1:0] f_pev = {{{}}};
        always @(posedge clock) if (f_live) begin
            // docs/perf.md: every counter is 0 after a reset
            if (f_past && $past(reset)) begin
                a_perf_reset: assert (perf_val == 0);
                c_perf_reset: cover (perf_sel < NPC);
            end
{none}            // docs/perf.md: a counter read in two cycles moved by its event (0 or 1; saturating at
            // 2^32-1), or became 0 after perf_clr (clear wins): monotone unless cleared
            if (f_past && $past(f_live) && perf_sel < NPC && perf_sel == $past(perf_sel)) begin
                a_perf_count: assert (perf_val == ($past(perf_clr) ? 32'd0
                    : $past(perf_val) + {{31'd0, {step} && $past(perf_val) != 32'hffffffff}}));
                c_perf_count: cover (perf_val == 2);
            end
        end
"#,
        pev.join(",\n            "),
        none = none
    )
}

/// docs/perf.md "Error clear": `err_clr` at an edge without a new error of that edge lowers
/// sticky flag `flag` (`a_err_clr`). `flag_ev` is the checker's own expression of what sets the
/// flag, `pl` its "live, and the previous edge was not a reset", `rule` the block's rule.
pub fn err_clr_assert(rule: &str, flag: &str, flag_ev: &str, pl: &str) -> String {
    format!(
        r#"    always @(posedge clock) if (f_live) begin
        // {rule}: err_clr lowers {flag} unless the same edge sets it again
        if ({pl} && $past(err_clr && {flag} && !{flag_ev})) begin
            a_err_clr: assert (!{flag});
            c_err_clr: cover (1);
        end
    end
"#
    )
}
