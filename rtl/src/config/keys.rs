//! The reference of every key: where it lives, its range, its default and its meaning.

/// One documented key: where it lives, its allowed range and its meaning.
pub struct KeyDoc {
    pub key: &'static str,
    pub range: Range,
    pub default: &'static str,
    pub meaning: &'static str,
}

/// The allowed values of a key.
pub enum Range {
    /// An integer from `lo` to `hi` inclusive: the validator checks exactly this.
    Between(i64, i64),
    /// Anything else (lists, names, bounds that follow other keys), described in words; the
    /// block's validator implements it.
    Text(&'static str),
}

impl std::fmt::Display for Range {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Range::Between(lo, hi) => write!(f, "{lo} to {hi}"),
            Range::Text(t) => f.write_str(t),
        }
    }
}

/// The documented key `key`, if there is one.
pub fn key_doc(key: &str) -> Option<&'static KeyDoc> {
    KEYS.iter().find(|k| k.key == key)
}

/// The integer range of `key` from [`KEYS`], the one place it is written.
///
/// # Panics
/// If `key` is not in [`KEYS`] or its range is not [`Range::Between`] (a bug in the caller).
pub fn limits(key: &str) -> (i64, i64) {
    match key_doc(key).map(|k| &k.range) {
        Some(Range::Between(lo, hi)) => (*lo, *hi),
        _ => panic!("config key `{key}` has no integer range in KEYS"),
    }
}

/// Reference of every key (the tables of docs/config.md are checked against it).
pub const KEYS: &[KeyDoc] = &[
    KeyDoc { key: "scoreboard.thread_groups", range: Range::Between(1, 64), default: "4",
        meaning: "resident thread groups (NUM_TG), each with its own trackers" },
    KeyDoc { key: "scoreboard.trackers", range: Range::Between(1, 16), default: "8",
        meaning: "trackers (counters) per thread group (NUM_TRK); the patent's embodiment has 8" },
    KeyDoc { key: "scoreboard.counter_width", range: Range::Between(1, 8), default: "4",
        meaning: "bits per counter (CNT_W); the patent allows 1" },
    KeyDoc { key: "scoreboard.completion_ports", range: Range::Between(1, 4), default: "2",
        meaning: "completions accepted per cycle (NUM_CPL)" },
    KeyDoc { key: "scoreboard.branch_sets", range: Range::Between(2, 4), default: "2",
        meaning: "dependency sets of the scoreboard branch (A, B, C, D); it goes to the first satisfied set in that order and stalls while none is. 3 or 4 add br_mask_c/d, br_sat_c/d and br_sel[1:0] in place of br_sel_b" },
    KeyDoc { key: "scoreboard.max_count", range: Range::Text("1 to 2^counter_width-1, one value or one per tracker"),
        default: "2^counter_width-1 for every tracker",
        meaning: "outstanding instructions a tracker may count (TRK_MAX); an issue on a full tracker stalls" },
    KeyDoc { key: "scoreboard.perf_counters", range: Range::Text("true / false"), default: "false",
        meaning: "ports perf_sel, perf_val, perf_clr, err_clr: 6 + completion_ports saturating 32-bit event counters (issues, stalls by cause, underflow events, completions per port) read by index and a clear of err_underflow (docs/perf.md)" },
    KeyDoc { key: "scoreboard.implicit_fence", range: Range::Text("list of distinct tracker indices, 0 to trackers-1"), default: "[] (none)",
        meaning: "trackers with an implicit fence (rule SB5): an instruction counted on one also waits until that tracker of its group is zero, as if iss_dep_mask named it, so the class's operations of a thread group complete in order (spec [0050], [0159]); no port changes" },
    KeyDoc { key: "scoreboard.branch_fetch_gate", range: Range::Text("true / false"), default: "false",
        meaning: "fetch gating over the scoreboard branch's sets (rule SB6): ports iss_nxt_br and iss_nxt_mask_b (and _c, _d with branch_sets); an instruction that annotates a branch gives all its sets, and fetch_ok opens when any one has drained, not only when one set has" },
    KeyDoc { key: "branch_stack.depth", range: Range::Between(2, 32), default: "4",
        meaning: "condition registers in the stack; a push onto a full stack drops the bottom entry" },
    KeyDoc { key: "branch_stack.producer_stages", range: Range::Between(1, 3), default: "3",
        meaning: "pipeline stages that produce condition codes (EX0, EX1, EX2); the oldest wins" },
    KeyDoc { key: "branch_stack.pc_width", range: Range::Between(4, 64), default: "32",
        meaning: "bits of a program counter (pc, npc, t0pc_q, de_pc, br_target, ex_t1pc)" },
    KeyDoc { key: "branch_stack.offset_width", range: Range::Text("2 to pc_width"), default: "16",
        meaning: "bits of the signed branch offset de_off, sign-extended to pc_width" },
    KeyDoc { key: "branch_stack.pc_increment", range: Range::Text("1 to min(2^pc_width-1, 65535)"), default: "1",
        meaning: "sequential increment: npc = pc + pc_increment" },
    KeyDoc { key: "branch_stack.reset_pc", range: Range::Text("0 to min(2^pc_width-1, 2^63-1)"), default: "0",
        meaning: "pc after reset" },
    KeyDoc { key: "branch_stack.compound_flags", range: Range::Text("\"nz\" or \"cnvz\""), default: "\"nz\"",
        meaning: "flags a compound branch selects from R and S: nz (de_br_f/de_br_g 1 bit, 0 N, 1 Z) or cnvz (2 bits, 3 C, 2 N, 1 V, 0 Z as de_br_sel)" },
    KeyDoc { key: "branch_stack.producer_conflict", range: Range::Text("\"drop\" or \"stall\""), default: "\"drop\"",
        meaning: "more producer ops than the stack takes in a cycle: drop (the op is lost, err_multi/err_port) or stall (output cc_ready holds them, rule S1)" },
    KeyDoc { key: "branch_stack.perf_counters", range: Range::Text("true / false"), default: "false",
        meaning: "ports perf_sel, perf_val, perf_clr: 10 saturating 32-bit event counters read by index (docs/perf.md); err_clr is always there" },
    KeyDoc { key: "branch_stack.thread_groups", range: Range::Text("1, 2, 4, 8, 16 or 32"), default: "1",
        meaning: "thread groups, each with its own condition-code stack and PC (rules G1-G7): group-id ports cc_tg, de_tg, ex_tg, fe_tg and the save/restore ports sv_*, rs_*; 1: no such port" },
    KeyDoc { key: "task_combiner.entries", range: Range::Between(1, 128), default: "16",
        meaning: "table entries (N_ENTRIES): open and pending tasks held at once" },
    KeyDoc { key: "task_combiner.width", range: Range::Text("4, 8, 16, 32 or 64"), default: "32",
        meaning: "lanes per task (SIMD_W)" },
    KeyDoc { key: "task_combiner.tile_pipes", range: Range::Between(1, 8), default: "4",
        meaning: "tile pipelines (N_TPIPE), one lock-mask bit each" },
    KeyDoc { key: "task_combiner.shader_types", range: Range::Between(1, 8), default: "4",
        meaning: "shader types: 0 VS, 1 HS, 2 DS, 3 GS, then user types" },
    KeyDoc { key: "task_combiner.state_width", range: Range::Between(1, 16), default: "8",
        meaning: "bits of a state id" },
    KeyDoc { key: "task_combiner.ref_width", range: Range::Between(1, 32), default: "13",
        meaning: "bits of an instance reference (the patent's LUT reference has 13)" },
    KeyDoc { key: "task_combiner.tag_gen_width", range: Range::Between(1, 8), default: "4",
        meaning: "generation bits of a task tag; a tag is {generation, entry index}" },
    KeyDoc { key: "task_combiner.policy", range: Range::Text("\"fullest\", \"oldest\", \"nodep_fullest\" or \"nodep_oldest\""),
        default: "\"fullest\"",
        meaning: "eviction victim when a new key finds the table full: most lanes (ties: oldest) or oldest; nodep_ prefers tasks without producers" },
    KeyDoc { key: "task_combiner.sort_state", range: Range::Text("true or false"), default: "true",
        meaning: "issue prefers pending tasks in the state of the last issued task" },
    KeyDoc { key: "task_combiner.issue_order", range: Range::Text("\"oldest\" or \"fullest\""), default: "\"oldest\"",
        meaning: "which eligible PENDING task goes to the output slot first (contract R4), after sort_state's preference for the last issued state: the oldest, or the fullest (most instances, ties to the oldest)" },
    KeyDoc { key: "task_combiner.registered_issue", range: Range::Text("true or false"), default: "false",
        meaning: "the task that moves into the output slot is picked one cycle earlier, from registers: one more cycle of latency, a shorter clock path (contract R4r)" },
    KeyDoc { key: "task_combiner.registered_input", range: Range::Text("true or false"), default: "false",
        meaning: "the instance is registered before the table takes it: in_ready from registers and drain_req, its tag and lane a cycle later with the port in_tag_valid, one more cycle of latency, a shorter clock path (contract R2i)" },
    KeyDoc { key: "task_combiner.capacity", range: Range::Text("1 to width, one value per shader type"),
        default: "width for every type",
        meaning: "instances per task by shader type; a task that reaches it is output (FULL)" },
    KeyDoc { key: "task_combiner.depends", range: Range::Text("one list per shader type; row s holds distinct types below s"),
        default: "patent stage order [[], [0], [1], [0, 2]], cut to shader_types; types 4 to 7: []",
        meaning: "shader types whose tasks a type-s instance consumes in the same state" },
    KeyDoc { key: "task_combiner.hold_producers", range: Range::Between(0, 15), default: "0",
        meaning: "full consumer tasks that may wait in the table for OPEN producer tasks (contract R5h): a PENDING task whose reason is full and that no render-queue flush flags does not make its producers leave while at most this many such tasks are in the table and some entry is free; so a hull-shader task keeps filling while full domain-shader tasks wait. 0: every PENDING task makes its producers leave (R5)" },
    KeyDoc { key: "task_combiner.dep_tags", range: Range::Between(0, 4), default: "0",
        meaning: "producer tags per instance (contract D3t): 0, dependencies from `depends` alone; K >= 1, ports in_dep_vld[K], in_dep_tag[K*TAG_W], err_dep, err_clr, and a dependency only on the producers named (a named one outside `depends` or the state sets err_dep)" },
    KeyDoc { key: "task_combiner.perf_counters", range: Range::Text("true / false"), default: "false",
        meaning: "ports perf_sel, perf_val, perf_clr: 12 saturating 32-bit event counters (instances accepted, tasks out, input stalls and drain stalls, output back-pressure, tasks out by reason, lock hits, flushes accepted) read by index, and a 13th, err_dep events, with dep_tags (docs/perf.md); err_clr comes with dep_tags, the only sticky error flag's key" },
    KeyDoc { key: "global_spreader.eus", range: Range::Between(1, 32), default: "5",
        meaning: "execution units (N_EU); the patent's figures show 3 and 5" },
    KeyDoc { key: "global_spreader.entity_types", range: Range::Text("non-empty subset of \"vertex\", \"triangle\", \"pixel\", \"patch\"; pixel needs triangle"),
        default: "all four", meaning: "packet types built; an absent type has no channel, slot or registers" },
    KeyDoc { key: "global_spreader.vertices_per_group", range: Range::Text("4, 8, 16"), default: "8",
        meaning: "vertices per vertex descriptor table group (VGRP, the EU's SIMD factor)" },
    KeyDoc { key: "global_spreader.vdt_depth", range: Range::Text("power of two, 4 to 1024"), default: "256",
        meaning: "vertex descriptor table entries (block RAM); the patent says about 256" },
    KeyDoc { key: "global_spreader.pt_depth", range: Range::Text("power of two, 2 to 1024"), default: "256",
        meaning: "primitive table entries (block RAM); PRID_W = log2 pt_depth" },
    KeyDoc { key: "global_spreader.index_width", range: Range::Text("8 to 32, above log2 vertices_per_group + log2 vdt_depth"), default: "16",
        meaning: "vertex index bits (IDX_W)" },
    KeyDoc { key: "global_spreader.res_width", range: Range::Between(4, 16), default: "12",
        meaning: "resource counter, size and footprint bits (RES_W)" },
    KeyDoc { key: "global_spreader.entity_width", range: Range::Between(1, 10), default: "8",
        meaning: "entity number bits (ENT_W); free entity counters have ENT_W+1 bits" },
    KeyDoc { key: "global_spreader.addr_width", range: Range::Between(8, 64), default: "32",
        meaning: "source address bits (ADDR_W)" },
    KeyDoc { key: "global_spreader.res_total", range: Range::Text("0 to 2^res_width-1, one value or one per EU"), default: "min(64, 2^res_width-1)",
        meaning: "RES_TOTAL after reset: resource units of each EU" },
    KeyDoc { key: "global_spreader.edt_total", range: Range::Text("0 to 2^entity_width, one value or one per EU"), default: "2^entity_width",
        meaning: "EDT_TOTAL after reset: entity records of each EU" },
    KeyDoc { key: "global_spreader.min_res", range: Range::Text("table: type name = 0 to 2^res_width-1"), default: "0 for every type",
        meaning: "MIN_RES after reset: free units an EU needs to take a new entity of the type" },
    KeyDoc { key: "global_spreader.frame_res", range: Range::Text("table: type name = 0 to 2^res_width-1"), default: "0 for every type",
        meaning: "FRAME_RES after reset: units added to the packet size for the footprint" },
    KeyDoc { key: "global_spreader.priority", range: Range::Text("table: type name = list of distinct EU ids below eus"), default: "[0, 1, .., eus-1] for every type",
        meaning: "PRIO after reset: candidate order of the type; the slots after the list are empty" },
    KeyDoc { key: "global_spreader.dedicated", range: Range::Text("table: type name = list of EU ids below eus"), default: "every EU for every type",
        meaning: "DED_MASK after reset: the EUs that may take the type" },
    KeyDoc { key: "global_spreader.eu_enable", range: Range::Text("list of EU ids below eus"), default: "every EU",
        meaning: "EU_ENABLE after reset" },
    KeyDoc { key: "global_spreader.enable", range: Range::Text("true or false"), default: "true",
        meaning: "CTRL.EN after reset: packets are accepted" },
    KeyDoc { key: "global_spreader.locality", range: Range::Text("true or false"), default: "true",
        meaning: "CTRL.LOCALITY_EN after reset: a triangle or pixel tries its home EU first" },
    KeyDoc { key: "global_spreader.yield_enable", range: Range::Text("true or false"), default: "false",
        meaning: "CTRL.YIELD_EN after reset: a slot that cannot dispatch lets lower-priority slots through" },
    KeyDoc { key: "global_spreader.perf_counters", range: Range::Text("true / false"), default: "false",
        meaning: "ports perf_sel, perf_val, perf_clr, err_clr: 17 saturating 32-bit event counters (dispatches per class, stalls per channel and by cause, credit and release cycles, error events) read by index, and a clear of the five err_* flags beside STATUS's W1C (docs/perf.md)" },
    KeyDoc { key: "global_spreader.select", range: Range::Text("\"first_fit\", \"least_loaded\" or \"round_robin\""), default: "\"first_fit\"",
        meaning: "the EU chosen among the candidates that fit and have not refused (contract R6): the first in candidate order; or the home EU if locality allows it, else the one with the most FREE_RES (ties to the first in PRIO order, least_loaded) or the first in EU order at or after RR_PTR, circularly (round_robin; RR_PTR moves past each acked EU)" },
    KeyDoc { key: "global_spreader.aging", range: Range::Text("0 (off) or 3 to 255"), default: "0",
        meaning: "class aging (contract R7a): a slot that is eligible but passed over in this many grant decisions (cycles with no request held) is granted before the class priority order (the first such slot in that order), so a slot that stays eligible is granted within aging + 3 decisions; 0: no aging, the fixed order pixel > triangle > patch > vertex. Below 3 the three classes above the vertex class could take turns ahead of it forever" },
    KeyDoc { key: "global_spreader.class_priority", range: Range::Text("every built type once (entity_types), as a list of type names"), default: "[\"pixel\", \"triangle\", \"patch\", \"vertex\"] cut to the built types",
        meaning: "class priority order (contract R7b): the class slot granted first when several can dispatch (R7, and R7a's aged slots), first in the list first; the default is R7's fixed order and leaves the Verilog as without the key" },
    KeyDoc { key: "global_spreader.class_priority_reg", range: Range::Text("true / false"), default: "false",
        meaning: "register CLASS_PRIO at 0x005 (contract R7b): 8 bits, [2t+1:2t] the rank of type code t (vertex 0, triangle 1, pixel 2, patch 3; 0 is granted first, ties in the fixed order pixel, triangle, patch, vertex), reset to class_priority's positions; false: the order is a constant and 0x005 reads 0" },
    KeyDoc { key: "global_spreader.pixel_reorder", range: Range::Text("0 (off) or a power of two, 2 to 64; needs pixel"), default: "0",
        meaning: "pixel order (contract R14): a reorder buffer of this many entries. Each acked pixel packet gets the sequence number ar_seq; the EUs complete them in any order (pc_valid, pc_seq) and po_valid / po_seq give them back in ack order (po_ready). While all entries are outstanding a pixel packet is blocked (R4). 0: none, no port" },
    KeyDoc { key: "global_spreader.vdt_ways", range: Range::Text("1, 2, 4; vdt_depth / vdt_ways at least 4; needs vertex or patch"), default: "1",
        meaning: "set-associative VDT (contract R15): the vdt_depth entries as this many ways of vdt_depth / vdt_ways sets; a vertex or patch packet takes the lowest free way of its set (ar_vdt_way) and is blocked only when every way is taken, a triangle's vertex hits in the way whose tag matches, and an EU releases an entry by its address {way, set} (vr_slot). 1: direct mapped, no port" },
    KeyDoc { key: "global_spreader.resources", range: Range::Text("list of 1 to 4 distinct names, each a lowercase letter then up to 15 lowercase letters, digits or _"), default: "one kind",
        meaning: "resource kinds (contract R16), e.g. [\"regs\", \"threads\", \"buffer\"]: each EU keeps a total and a free counter per kind, each type a minimum and frame units per kind, and each packet a demand per kind (*_size holds one RES_W field per kind, kind k at [k*RES_W +: RES_W]; likewise ar_footprint, cr_res per EU and kind, st_free_res); an EU fits only when every kind fits, and credits return per kind. The top-level res_total, min_res and frame_res are the first kind's; the others' are in resource.<name>. Kind k >= 1's registers: RES_TOTAL 0x280 + 0x40(k-1) + e, FREE_RES 0x2A0 + 0x40(k-1) + e, MIN_RES 0x340 + 8(k-1) + t, FRAME_RES 0x344 + 8(k-1) + t. One kind: no change" },
    KeyDoc { key: "global_spreader.resource.<name>", range: Range::Text("table per listed kind but the first: res_total (as the top-level key), min_res, frame_res (tables type name = 0 to 2^res_width-1)"), default: "the top-level keys' defaults",
        meaning: "the reset values of resource kind <name> (contract R16): RES_TOTAL per EU, MIN_RES and FRAME_RES per type; a key left out takes the top-level key's default (min(64, 2^res_width-1), 0, 0)" },
    KeyDoc { key: "thread_merge.lanes", range: Range::Text("4, 8, 16, 32"), default: "4",
        meaning: "lanes per thread group (LANES): groups of 2x2 quads; lane i is quad i>>2, in-quad index i&3 = {y,x}" },
    KeyDoc { key: "thread_merge.slots", range: Range::Between(1, 32), default: "4",
        meaning: "merge slots (S), each one single group or one pair: 2·S thread-group ids" },
    KeyDoc { key: "thread_merge.remap", range: Range::Text("true / false"), default: "true",
        meaning: "allow the claim-6 lane remaps p = 1, 2, 3 (mirror x, mirror y, rotate 180°)" },
    KeyDoc { key: "thread_merge.pair_hold", range: Range::Between(0, 255), default: "4",
        meaning: "cycles a held candidate can still be paired; 0 = until flush, last or primitive change" },
    KeyDoc { key: "thread_merge.merge_timeout", range: Range::Between(0, 255), default: "16",
        meaning: "cycles a waiting group waits for its partner; 0 = forever" },
    KeyDoc { key: "thread_merge.tag_width", range: Range::Between(1, 64), default: "32",
        meaning: "bits of the opaque fragment tag (TAG_W)" },
    KeyDoc { key: "thread_merge.prim_width", range: Range::Between(1, 32), default: "16",
        meaning: "bits of the primitive id (PRIM_W)" },
    KeyDoc { key: "thread_merge.cross_primitive", range: Range::Text("true / false"), default: "false",
        meaning: "a held candidate may pair with a fragment of another primitive, and a primitive change no longer makes it leave (contract R18); frag_prim is then ignored, frag_last and flush still end a run. The driver promises that the order of fragments of different primitives within a run does not matter" },
    KeyDoc { key: "thread_merge.candidates", range: Range::Between(1, 4), default: "1",
        meaning: "held candidates K (contract R19): a partial fragment pairs with the oldest held fragment it fits, and one that fits none is held beside them while fewer than K are held (with K held, the oldest leaves alone); a run's end (frag_last, flush, a primitive change) lets them leave one per cycle, oldest first. 1: one candidate register (R4)" },
    KeyDoc { key: "thread_merge.merge_ways", range: Range::Between(2, 4), default: "2",
        meaning: "thread groups a merge slot holds and merges (contract R20): the candidate gathers up to W partial fragments whose lanes are disjoint after a remap each, and spawns them as one set (ports grp_c_*, grp_d_*); when all have reached the merge point they merge into member A (rsp_retire_mask names the retired). W > 2 needs candidates = 1. 2: pairs" },
    KeyDoc { key: "thread_merge.perf_counters", range: Range::Text("true / false"), default: "false",
        meaning: "ports perf_sel, perf_val, perf_clr, err_clr: 9 saturating 32-bit event counters read by index and an error-flag clear (docs/perf.md)" },
    KeyDoc { key: "synth.clock_mhz", range: Range::Between(1, 1000), default: "100",
        meaning: "clock in MHz: the timing constraint of `warpgen synth` and `sweep`, and of the constraint files they write" },
    KeyDoc { key: "synth.target", range: Range::Text("ice40-hx8k, ecp5-25k, ecp5-85k, gw1nr-9 or lifcl-40"), default: "ice40-hx8k",
        meaning: "device of `warpgen synth` and `sweep` (`--target` overrides it)" },
];

/// The keys of `block` (the table name, e.g. `scoreboard` or `synth`), in [`KEYS`] order.
pub fn block_keys(block: &str) -> impl Iterator<Item = &'static KeyDoc> + '_ {
    KEYS.iter().filter(move |k| k.key.split_once('.').map(|(b, _)| b) == Some(block))
}

/// The Markdown table of `block`'s keys, as docs/config.md shows it under `### `[block]``
/// (`cargo run -p warpgen-rtl --example config_reference` writes it there).
pub fn markdown_table(block: &str) -> String {
    let mut t = String::from("| key | range | default | meaning |\n|---|---|---|---|\n");
    for k in block_keys(block) {
        let name = k.key.split_once('.').map_or(k.key, |(_, n)| n);
        t.push_str(&format!("| `{name}` | {} | {} | {} |\n", k.range, k.default, k.meaning));
    }
    t
}

/// Every key as plain text, one block after another (the end of `warpgen generate --help`).
pub fn keys_text() -> String {
    let mut t = String::from("Config keys (TOML table.key; range; default; meaning), from the table the validator checks:\n");
    let mut last = "";
    for k in KEYS {
        let (block, name) = k.key.split_once('.').unwrap_or(("", k.key));
        if block != last {
            t.push_str(&format!("\n[{block}]\n"));
            last = block;
        }
        t.push_str(&format!("  {name}: {}; default {}\n      {}\n", k.range, k.default, k.meaning.replace('`', "")));
    }
    t
}

/// docs/config.md's `text` with the table under each `### `[block]`` heading replaced by [`markdown_table`].
pub fn rewrite_tables(text: &str) -> String {
    let blocks: Vec<&str> = {
        let mut b: Vec<&str> = KEYS.iter().filter_map(|k| k.key.split_once('.').map(|(b, _)| b)).collect();
        b.dedup();
        b
    };
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        out.push_str(line);
        out.push('\n');
        let Some(block) = blocks.iter().find(|b| line == format!("### `[{b}]`")) else { continue };
        // Copy up to the table, drop the old table, write the new one.
        while let Some(l) = lines.peek() {
            if l.starts_with('|') {
                break;
            }
            out.push_str(l);
            out.push('\n');
            lines.next();
        }
        while lines.peek().is_some_and(|l| l.starts_with('|')) {
            lines.next();
        }
        out.push_str(&markdown_table(block));
    }
    out
}

/// The values at the edges of a key's range, for tests that try every key at both ends:
/// both ends of `A to B` (also `power of two, A to B`), every number of `A, B or C`, both
/// booleans; nothing for a range given by a formula or in words.
pub fn edge_values(range: &Range) -> Vec<String> {
    let text = range.to_string();
    if text == "true or false" || text == "true / false" {
        return vec!["true".into(), "false".into()];
    }
    let text = text.strip_prefix("power of two, ").unwrap_or(&text);
    let words: Vec<&str> = text.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let is_num = |w: &&str| w.parse::<i64>().is_ok();
    match words.as_slice() {
        [a, "to", b] if is_num(a) && is_num(b) => vec![a.to_string(), b.to_string()],
        _ if words.iter().all(|w| is_num(w) || *w == "or") => words.iter().filter(|w| is_num(w)).map(|w| w.to_string()).collect(),
        _ => Vec::new(),
    }
}
