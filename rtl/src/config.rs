//! The TOML configuration: one table per block, every key range-checked.
//!
//! A config file holds a table per block (`[scoreboard]`, …). A key left out of a
//! table takes its default; a table left out means the block is not part of this
//! config. Unknown keys and tables, wrong types and out-of-range values are errors
//! that name the file, the key (with its line where it can be found) and the
//! allowed range. `--set block.key=value` overrides are applied on top of the file
//! before validation, so they are checked exactly like file values.
//!
//! The keys, ranges and defaults of every block are documented in README.md
//! ("Configuration reference"); `KEYS` below is the single table both the README
//! check and the error messages are built from.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The configuration embedded in the program (`configs/default.toml`).
pub const DEFAULT_TOML: &str = include_str!("../../configs/default.toml");

/// Names of the blocks a config may hold, in emission order.
pub const BLOCK_NAMES: [&str; 5] =
    ["scoreboard", "branch_stack", "task_combiner", "global_spreader", "thread_merge"];

/// Blocks this version of warpgen can generate.
pub const BUILT_BLOCKS: [&str; 2] = ["scoreboard", "branch_stack"];

/// A whole warpgen configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Instruction completion trackers (spec/scoreboard.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scoreboard: Option<ScoreboardConfig>,
    /// Condition-code stack, branch evaluation and PC update (spec/branch_stack.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_stack: Option<BranchStackConfig>,
    /// Not built yet: accepted as a table name so that a config can be written ahead,
    /// rejected by validation while it has keys this version does not know.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_combiner: Option<toml::Table>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_spreader: Option<toml::Table>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_merge: Option<toml::Table>,
    /// `[synth]`: settings of the FPGA flow (`warpgen synth`, `warpgen sweep`); not a block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synth: Option<SynthConfig>,
}

/// Devices `[synth] target` may name; `warpgen-sim`'s `fpga::Target` implements each.
pub const SYNTH_TARGETS: [&str; 1] = ["ice40-hx8k"];

/// `[synth]`: the FPGA flow's target device and clock. Not a block: it generates nothing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SynthConfig {
    /// Clock frequency in MHz: the timing constraint of `warpgen synth` and the
    /// constraint files it writes.
    pub clock_mhz: f64,
    /// Device, one of [`SYNTH_TARGETS`].
    pub target: String,
}

impl Default for SynthConfig {
    fn default() -> Self {
        SynthConfig { clock_mhz: 100.0, target: SYNTH_TARGETS[0].to_string() }
    }
}

impl SynthConfig {
    fn validate(&self, chk: &mut Checker) {
        if !(self.clock_mhz.is_finite() && (1.0..=1000.0).contains(&self.clock_mhz)) {
            chk.fail("synth.clock_mhz", format!("{} is out of range: allowed 1 to 1000 (MHz)", self.clock_mhz));
        }
        if !SYNTH_TARGETS.contains(&self.target.as_str()) {
            chk.fail("synth.target", format!("`{}` is not a target: allowed {}", self.target, SYNTH_TARGETS.join(", ")));
        }
    }
}

/// `[scoreboard]`: per-thread-group instruction completion counters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScoreboardConfig {
    /// Resident thread groups (NUM_TG).
    pub thread_groups: i64,
    /// Trackers (counters) per thread group (NUM_TRK); the patent's embodiment has 8.
    pub trackers: i64,
    /// Width of each counter in bits (CNT_W); the patent allows 1.
    pub counter_width: i64,
    /// Completion ports, i.e. completions accepted per cycle (NUM_CPL).
    pub completion_ports: i64,
    /// Maximum count per tracker (TRK_MAX): one number for all trackers, or a list
    /// with one entry per tracker. Absent: 2^counter_width - 1 for every tracker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_count: Option<MaxCount>,
}

/// `max_count`: one value for every tracker, or one per tracker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum MaxCount {
    All(i64),
    PerTracker(Vec<i64>),
}

impl Default for ScoreboardConfig {
    fn default() -> Self {
        ScoreboardConfig {
            thread_groups: 4,
            trackers: 8,
            counter_width: 4,
            completion_ports: 2,
            max_count: None,
        }
    }
}

/// `[branch_stack]`: the branch control stack of condition codes, branch
/// evaluation and the data flow controller (PC register).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BranchStackConfig {
    /// Condition registers in the stack (DEPTH); the patent's Fig. 6 shows 4.
    pub depth: i64,
    /// Pipeline stages that produce condition codes (NSRC): EX0, EX1, EX2.
    pub producer_stages: i64,
    /// Program-counter width in bits (PC_W).
    pub pc_width: i64,
    /// Width of the signed branch offset (OFF_W), at most `pc_width`.
    pub offset_width: i64,
    /// Sequential PC increment (PC_INC).
    pub pc_increment: i64,
    /// PC after reset (RESET_PC).
    pub reset_pc: i64,
}

impl Default for BranchStackConfig {
    fn default() -> Self {
        BranchStackConfig {
            depth: 4,
            producer_stages: 3,
            pc_width: 32,
            offset_width: 16,
            pc_increment: 1,
            reset_pc: 0,
        }
    }
}

/// One documented key: where it lives, its allowed range and its meaning.
pub struct KeyDoc {
    pub key: &'static str,
    pub range: &'static str,
    pub default: &'static str,
    pub meaning: &'static str,
}

/// Reference of every key (README's config tables are checked against it).
pub const KEYS: &[KeyDoc] = &[
    KeyDoc { key: "scoreboard.thread_groups", range: "1 to 64", default: "4",
        meaning: "resident thread groups, each with its own set of trackers" },
    KeyDoc { key: "scoreboard.trackers", range: "1 to 16", default: "8",
        meaning: "trackers (counters) per thread group; the patent's embodiment has 8" },
    KeyDoc { key: "scoreboard.counter_width", range: "1 to 8", default: "4",
        meaning: "bits per counter" },
    KeyDoc { key: "scoreboard.completion_ports", range: "1 to 4", default: "2",
        meaning: "completions accepted per cycle" },
    KeyDoc { key: "scoreboard.max_count", range: "1 to 2^counter_width-1, one value or one per tracker",
        default: "2^counter_width-1 for every tracker",
        meaning: "outstanding instructions a tracker may count; an issue on a full tracker stalls" },
    KeyDoc { key: "branch_stack.depth", range: "2 to 32", default: "4",
        meaning: "condition registers in the stack; a push onto a full stack drops the bottom entry" },
    KeyDoc { key: "branch_stack.producer_stages", range: "1 to 3", default: "3",
        meaning: "pipeline stages that produce condition codes (EX0, EX1, EX2); the oldest wins" },
    KeyDoc { key: "branch_stack.pc_width", range: "4 to 64", default: "32",
        meaning: "bits of a program counter (pc, npc, t0pc_q, de_pc, br_target, ex_t1pc)" },
    KeyDoc { key: "branch_stack.offset_width", range: "2 to pc_width", default: "16",
        meaning: "bits of the signed branch offset de_off, sign-extended to pc_width" },
    KeyDoc { key: "branch_stack.pc_increment", range: "1 to min(2^pc_width-1, 65535)", default: "1",
        meaning: "sequential increment: npc = pc + pc_increment" },
    KeyDoc { key: "branch_stack.reset_pc", range: "0 to min(2^pc_width-1, 2^63-1)", default: "0",
        meaning: "pc after reset" },
    KeyDoc { key: "synth.clock_mhz", range: "1 to 1000", default: "100",
        meaning: "clock in MHz: the timing constraint of warpgen synth and sweep, and of the constraint files they write" },
    KeyDoc { key: "synth.target", range: "ice40-hx8k", default: "ice40-hx8k",
        meaning: "device of warpgen synth and sweep (--target overrides it)" },
];

/// Where a value came from, for error messages.
#[derive(Clone, Debug, PartialEq)]
pub enum Origin {
    /// The embedded default config.
    Embedded,
    /// A file on disk.
    File(String),
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Origin::Embedded => write!(f, "<embedded default config>"),
            Origin::File(p) => write!(f, "{p}"),
        }
    }
}

/// A configuration error: always names the source and, where it has one, the key.
#[derive(Clone, Debug, PartialEq)]
pub struct ConfigError {
    pub origin: Origin,
    /// `block.key`, or empty for a syntax error that TOML reports by position.
    pub key: String,
    /// Line (1-based) of the key in the file, where it could be found.
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.origin)?;
        if let Some(l) = self.line {
            write!(f, ":{l}")?;
        }
        if !self.key.is_empty() {
            write!(f, ": key `{}`", self.key)?;
        }
        write!(f, ": {}", self.message)
    }
}

impl std::error::Error for ConfigError {}

impl ScoreboardConfig {
    /// Resolved per-tracker maxima (after validation every entry is in range).
    pub fn max_counts(&self) -> Vec<u64> {
        let all = (1u64 << self.counter_width) - 1;
        match &self.max_count {
            None => vec![all; self.trackers as usize],
            Some(MaxCount::All(v)) => vec![*v as u64; self.trackers as usize],
            Some(MaxCount::PerTracker(v)) => v.iter().map(|x| *x as u64).collect(),
        }
    }

    /// Bits of a thread-group id: max(1, ceil(log2 thread_groups)).
    pub fn tg_bits(&self) -> usize {
        id_bits(self.thread_groups as usize)
    }

    /// Bits of a tracker id: max(1, ceil(log2 trackers)).
    pub fn trk_bits(&self) -> usize {
        id_bits(self.trackers as usize)
    }

    fn validate(&self, chk: &mut Checker) {
        chk.range("scoreboard.thread_groups", self.thread_groups, 1, 64);
        chk.range("scoreboard.trackers", self.trackers, 1, 16);
        let width_ok = chk.range("scoreboard.counter_width", self.counter_width, 1, 8);
        chk.range("scoreboard.completion_ports", self.completion_ports, 1, 4);
        if !width_ok {
            return;
        }
        let hi = (1i64 << self.counter_width) - 1;
        let key = "scoreboard.max_count";
        match &self.max_count {
            None => {}
            Some(MaxCount::All(v)) => {
                chk.range(key, *v, 1, hi);
            }
            Some(MaxCount::PerTracker(list)) => {
                if list.len() as i64 != self.trackers {
                    chk.fail(key, format!(
                        "has {} entries but scoreboard.trackers = {}: give one value per tracker, or a single number for all",
                        list.len(), self.trackers));
                }
                for (i, v) in list.iter().enumerate() {
                    if !(1..=hi).contains(v) {
                        chk.fail(key, format!(
                            "entry {i} = {v} is out of range: allowed 1 to {hi} (2^counter_width - 1)"));
                    }
                }
            }
        }
    }
}

impl BranchStackConfig {
    /// Bits of `cc_cnt`, which counts 0 to depth: max(1, ceil(log2(depth+1))).
    pub fn cnt_bits(&self) -> usize {
        id_bits(self.depth as usize + 1)
    }

    fn validate(&self, chk: &mut Checker) {
        chk.range("branch_stack.depth", self.depth, 2, 32);
        chk.range("branch_stack.producer_stages", self.producer_stages, 1, 3);
        if !chk.range("branch_stack.pc_width", self.pc_width, 4, 64) {
            return;
        }
        // Ranges that depend on pc_width; i128, as 2^64-1 is beyond an i64.
        let pcw = self.pc_width as u32;
        let pc_max = (1i128 << pcw) - 1;
        let dependent = [
            ("branch_stack.offset_width", self.offset_width, 2, self.pc_width as i128, "pc_width"),
            ("branch_stack.pc_increment", self.pc_increment, 1, pc_max.min(65535), "min(2^pc_width-1, 65535)"),
            // TOML integers are i64: a 64-bit reset_pc stops at 2^63-1.
            ("branch_stack.reset_pc", self.reset_pc, 0, pc_max.min(i64::MAX as i128), "min(2^pc_width-1, 2^63-1)"),
        ];
        for (key, v, lo, hi, why) in dependent {
            if !(lo..=hi).contains(&(v as i128)) {
                chk.fail(key, format!(
                    "{v} is out of range: allowed {lo} to {hi} (the upper bound is {why}; branch_stack.pc_width = {})",
                    self.pc_width));
            }
        }
    }
}

/// Width of an id that names one of `n` things: max(1, ceil(log2 n)).
pub fn id_bits(n: usize) -> usize {
    let mut b = 1;
    while (1usize << b) < n {
        b += 1;
    }
    b
}

/// Collects the first validation error, locating keys in the source text.
struct Checker<'a> {
    origin: &'a Origin,
    text: &'a str,
    error: Option<ConfigError>,
}

impl Checker<'_> {
    fn fail(&mut self, key: &str, message: String) {
        if self.error.is_none() {
            self.error = Some(ConfigError {
                origin: self.origin.clone(),
                key: key.to_string(),
                line: locate_key(self.text, key),
                message,
            });
        }
    }

    /// Checks `lo <= v <= hi`; returns whether it holds.
    fn range(&mut self, key: &str, v: i64, lo: i64, hi: i64) -> bool {
        let ok = (lo..=hi).contains(&v);
        if !ok {
            self.fail(key, format!("{v} is out of range: allowed {lo} to {hi}"));
        }
        ok
    }
}

/// Finds the 1-based line of `table.key = …` in TOML text (a plain scan of table
/// headers and `key =` lines, enough for the flat tables warpgen uses).
fn locate_key(text: &str, dotted: &str) -> Option<usize> {
    let (table, key) = dotted.split_once('.')?;
    let mut current = String::new();
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if let Some(h) = l.strip_prefix('[') {
            current = h.trim_end_matches(']').trim().to_string();
        } else if current == table {
            if let Some((k, _)) = l.split_once('=') {
                if k.trim() == key {
                    return Some(i + 1);
                }
            }
        }
    }
    None
}

/// `table.key` (or `key` at top level) of a `key = value` line, 1-based.
fn key_at_line(text: &str, line: usize) -> Option<String> {
    let mut table = String::new();
    for (i, l) in text.lines().enumerate() {
        let l = l.trim();
        if let Some(h) = l.strip_prefix('[') {
            table = h.trim_end_matches(']').trim().to_string();
        }
        if i + 1 == line {
            let (k, _) = l.split_once('=')?;
            let k = k.trim();
            return Some(if table.is_empty() { k.to_string() } else { format!("{table}.{k}") });
        }
    }
    None
}

/// The first line (1-based) that assigns `key`, in any table.
fn find_key_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|l| l.split_once('=').is_some_and(|(k, _)| k.trim() == key))
        .map(|i| i + 1)
}

impl Config {
    /// Parses and validates `text` from `origin`, then applies `--set` overrides
    /// (`block.key=value`, the value in TOML syntax; a bare word is a string).
    pub fn load(origin: Origin, text: &str, overrides: &[String]) -> Result<Config, ConfigError> {
        let err = |key: &str, message: String| ConfigError {
            origin: origin.clone(),
            key: key.to_string(),
            line: None,
            message,
        };
        if text.trim().is_empty() {
            return Err(err("", "the file is empty: it needs at least one block table, e.g. [scoreboard]".into()));
        }
        // Parsing straight from the text gives TOML's own positions for syntax,
        // type and unknown-key errors.
        let from_file: Config = toml::from_str(text).map_err(|e| {
            let message = e.message().trim().to_string();
            let line = e.span().map(|s| text[..s.start].lines().count().max(1));
            // TOML points an unknown field at its table; find the key itself.
            let unknown = message
                .strip_prefix("unknown field `")
                .and_then(|r| r.split('`').next())
                .and_then(|k| find_key_line(text, k));
            let line = unknown.or(line);
            ConfigError {
                origin: origin.clone(),
                key: line.and_then(|l| key_at_line(text, l)).unwrap_or_default(),
                line,
                message,
            }
        })?;
        let config = if overrides.is_empty() {
            from_file
        } else {
            let mut table: toml::Table = toml::from_str(text).expect("parsed above");
            for o in overrides {
                apply_override(&mut table, o).map_err(|m| err(o, m))?;
            }
            toml::Value::Table(table)
                .try_into::<Config>()
                .map_err(|e| err("--set", e.message().trim().to_string()))?
        };
        config.validate(&origin, text)?;
        Ok(config)
    }

    /// The embedded default configuration with `overrides` applied.
    pub fn embedded(overrides: &[String]) -> Result<Config, ConfigError> {
        Config::load(Origin::Embedded, DEFAULT_TOML, overrides)
    }

    fn validate(&self, origin: &Origin, text: &str) -> Result<(), ConfigError> {
        let mut chk = Checker { origin, text, error: None };
        if let Some(sb) = &self.scoreboard {
            sb.validate(&mut chk);
        }
        if let Some(bs) = &self.branch_stack {
            bs.validate(&mut chk);
        }
        for (name, table) in [
            ("task_combiner", &self.task_combiner),
            ("global_spreader", &self.global_spreader),
            ("thread_merge", &self.thread_merge),
        ] {
            if let Some(t) = table {
                if let Some(k) = t.keys().next() {
                    chk.fail(&format!("{name}.{k}"), format!(
                        "the {name} block is not built in warpgen {}: leave its table empty or out",
                        env!("CARGO_PKG_VERSION")));
                }
            }
        }
        if let Some(s) = &self.synth {
            s.validate(&mut chk);
        }
        if self.blocks().is_empty() {
            chk.fail("", format!("no block table: add at least one of [{}]", BUILT_BLOCKS.join("], [")));
        }
        chk.error.map_or(Ok(()), Err)
    }

    /// The built blocks present in this config, in emission order.
    pub fn blocks(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.scoreboard.is_some() {
            v.push("scoreboard");
        }
        if self.branch_stack.is_some() {
            v.push("branch_stack");
        }
        v
    }

    /// The `[synth]` table, or its defaults when the config has none.
    pub fn synth(&self) -> SynthConfig {
        self.synth.clone().unwrap_or_default()
    }

    /// The `[scoreboard]` table, or an error naming what is missing.
    pub fn scoreboard(&self) -> Result<&ScoreboardConfig, String> {
        self.scoreboard
            .as_ref()
            .ok_or_else(|| "the config has no [scoreboard] table".to_string())
    }

    /// The `[branch_stack]` table, or an error naming what is missing.
    pub fn branch_stack(&self) -> Result<&BranchStackConfig, String> {
        self.branch_stack
            .as_ref()
            .ok_or_else(|| "the config has no [branch_stack] table".to_string())
    }
}

/// Applies one `block.key=value` override to a parsed table.
fn apply_override(table: &mut toml::Table, spec: &str) -> Result<(), String> {
    let (path, raw) = spec
        .split_once('=')
        .ok_or_else(|| "an override is written block.key=value, e.g. scoreboard.trackers=4".to_string())?;
    let path = path.trim();
    let (block, key) = path
        .split_once('.')
        .ok_or_else(|| format!("`{path}` is not block.key, e.g. scoreboard.trackers"))?;
    if !BLOCK_NAMES.contains(&block) && block != "synth" {
        return Err(format!("unknown block `{block}`: expected one of {}, or synth", BLOCK_NAMES.join(", ")));
    }
    let value = parse_value(raw.trim())?;
    let entry = table
        .entry(block.to_string())
        .or_insert_with(|| toml::Value::Table(toml::Table::new()));
    let t = entry
        .as_table_mut()
        .ok_or_else(|| format!("`{block}` is not a table in the config"))?;
    t.insert(key.to_string(), value);
    Ok(())
}

/// A TOML value as written on the command line; a bare word is taken as a string.
fn parse_value(raw: &str) -> Result<toml::Value, String> {
    let doc = format!("v = {raw}");
    match toml::from_str::<toml::Table>(&doc) {
        Ok(mut t) => Ok(t.remove("v").expect("key v")),
        Err(_) if !raw.is_empty() && raw.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') => {
            Ok(toml::Value::String(raw.to_string()))
        }
        Err(e) => Err(format!("`{raw}` is not a TOML value: {}", e.message().trim())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str, sets: &[&str]) -> Result<Config, ConfigError> {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        Config::load(Origin::File("t.toml".into()), text, &sets)
    }

    #[test]
    fn embedded_default_is_valid_and_matches_documented_defaults() {
        let c = Config::embedded(&[]).unwrap();
        assert_eq!(c.scoreboard.unwrap(), ScoreboardConfig::default());
        assert_eq!(c.branch_stack.unwrap(), BranchStackConfig::default());
    }

    #[test]
    fn omitted_keys_take_defaults() {
        let c = load("[scoreboard]\ntrackers = 2\n", &[]).unwrap();
        let sb = c.scoreboard.unwrap();
        assert_eq!((sb.thread_groups, sb.trackers, sb.counter_width), (4, 2, 4));
        assert_eq!(sb.max_counts(), vec![15, 15]);
    }

    #[test]
    fn range_error_names_file_key_line_and_range() {
        let e = load("# c\n[scoreboard]\n\ntrackers = 17\n", &[]).unwrap_err();
        assert_eq!(e.key, "scoreboard.trackers");
        assert_eq!(e.line, Some(4));
        assert_eq!(e.to_string(), "t.toml:4: key `scoreboard.trackers`: 17 is out of range: allowed 1 to 16");
    }

    #[test]
    fn every_range_is_checked_at_both_ends() {
        for (key, lo, hi) in [
            ("thread_groups", 1, 64),
            ("trackers", 1, 16),
            ("counter_width", 1, 8),
            ("completion_ports", 1, 4),
        ] {
            for ok in [lo, hi] {
                assert!(load(&format!("[scoreboard]\n{key} = {ok}\n"), &[]).is_ok(), "{key}={ok}");
            }
            for bad in [lo - 1, hi + 1] {
                let e = load(&format!("[scoreboard]\n{key} = {bad}\n"), &[]).unwrap_err();
                assert_eq!(e.key, format!("scoreboard.{key}"));
                assert!(e.message.contains(&format!("allowed {lo} to {hi}")), "{e}");
            }
        }
    }

    #[test]
    fn branch_stack_ranges_are_checked_at_both_ends() {
        // Fixed ranges, and the ranges that follow pc_width, each at a few pc_widths.
        let mut cases: Vec<(String, &str, i128, i128)> = vec![
            ("".into(), "depth", 2, 32),
            ("".into(), "producer_stages", 1, 3),
            // offset_width (default 16) must fit in the smallest pc_width.
            ("offset_width = 2\n".into(), "pc_width", 4, 64),
        ];
        for pcw in [4i128, 16, 17, 32, 63] {
            cases.push((format!("pc_width = {pcw}\n"), "offset_width", 2, pcw));
            let pre = format!("pc_width = {pcw}\noffset_width = 2\n");
            cases.push((pre.clone(), "pc_increment", 1, ((1i128 << pcw) - 1).min(65535)));
            cases.push((pre, "reset_pc", 0, (1i128 << pcw) - 1));
        }
        for (pre, key, lo, hi) in cases {
            for ok in [lo, hi] {
                let t = format!("[branch_stack]\n{pre}{key} = {ok}\n");
                assert!(load(&t, &[]).is_ok(), "{t}");
            }
            for bad in [lo - 1, hi + 1] {
                if bad > i64::MAX as i128 {
                    continue; // pc_width 63: 2^63 is not a TOML integer
                }
                let t = format!("[branch_stack]\n{pre}{key} = {bad}\n");
                let e = load(&t, &[]).unwrap_err();
                assert_eq!(e.key, format!("branch_stack.{key}"), "{t}");
                assert!(e.message.contains(&format!("allowed {lo} to {hi}")), "{t}: {e}");
                assert_eq!(e.line, Some(pre.lines().count() + 2), "{t}");
            }
        }
        // pc_width 64: every non-negative TOML integer is a legal reset_pc.
        let c = load(&format!("[branch_stack]\npc_width = 64\noffset_width = 64\nreset_pc = {}\n", i64::MAX), &[]).unwrap();
        assert_eq!(c.branch_stack.unwrap().reset_pc, i64::MAX);
        let e = load("[branch_stack]\npc_width = 64\nreset_pc = -1\n", &[]).unwrap_err();
        assert!(e.message.contains("allowed 0 to 9223372036854775807"), "{e}");
        // Defaults, omitted keys, unknown keys, cc_cnt width.
        let c = load("[branch_stack]\n", &[]).unwrap();
        assert_eq!(c.blocks(), vec!["branch_stack"]);
        assert_eq!(c.branch_stack().unwrap(), &BranchStackConfig::default());
        assert!(c.scoreboard().is_err());
        let e = load("[branch_stack]\ndepht = 4\n", &[]).unwrap_err();
        assert_eq!(e.key, "branch_stack.depht");
        let bits: Vec<usize> = [2, 3, 4, 7, 8, 15, 16, 31, 32]
            .iter()
            .map(|d| BranchStackConfig { depth: *d, ..Default::default() }.cnt_bits())
            .collect();
        assert_eq!(bits, vec![2, 2, 3, 3, 4, 4, 5, 5, 6]);
    }

    #[test]
    fn max_count_forms_and_ranges() {
        let c = load("[scoreboard]\ntrackers = 3\ncounter_width = 2\nmax_count = [3, 1, 2]\n", &[]).unwrap();
        assert_eq!(c.scoreboard.unwrap().max_counts(), vec![3, 1, 2]);
        let c = load("[scoreboard]\ntrackers = 2\nmax_count = 1\n", &[]).unwrap();
        assert_eq!(c.scoreboard.unwrap().max_counts(), vec![1, 1]);
        let e = load("[scoreboard]\ncounter_width = 2\nmax_count = 4\n", &[]).unwrap_err();
        assert!(e.message.contains("allowed 1 to 3"), "{e}");
        let e = load("[scoreboard]\ntrackers = 2\nmax_count = [1, 2, 3]\n", &[]).unwrap_err();
        assert!(e.message.contains("3 entries"), "{e}");
        let e = load("[scoreboard]\nmax_count = [0, 1, 1, 1, 1, 1, 1, 1]\n", &[]).unwrap_err();
        assert!(e.message.contains("entry 0 = 0"), "{e}");
    }

    #[test]
    fn unknown_key_wrong_type_garbage_and_empty_are_errors() {
        let e = load("[scoreboard]\ntrackerz = 3\n", &[]).unwrap_err();
        assert!(e.message.contains("unknown field `trackerz`"), "{e}");
        assert_eq!(e.line, Some(2));
        assert_eq!(e.key, "scoreboard.trackerz");
        let e = load("[scoreboard]\ntrackers = \"eight\"\n", &[]).unwrap_err();
        assert!(e.message.contains("invalid type"), "{e}");
        assert_eq!(e.line, Some(2));
        assert_eq!(e.key, "scoreboard.trackers");
        let e = load("[scoreboardd]\n", &[]).unwrap_err();
        assert!(e.message.contains("unknown field `scoreboardd`"), "{e}");
        assert!(load("\u{1}\u{2}garbage ][", &[]).is_err());
        let e = load("  \n", &[]).unwrap_err();
        assert!(e.message.contains("empty"), "{e}");
        let e = load("[task_combiner]\nslots = 4\n", &[]).unwrap_err();
        assert_eq!(e.key, "task_combiner.slots");
    }

    #[test]
    fn overrides_are_applied_and_checked() {
        let c = load("[scoreboard]\n", &["scoreboard.trackers=4", "scoreboard.max_count=[1,2,3,4]"]).unwrap();
        let sb = c.scoreboard.unwrap();
        assert_eq!(sb.trackers, 4);
        assert_eq!(sb.max_counts(), vec![1, 2, 3, 4]);
        let e = load("[scoreboard]\n", &["scoreboard.trackers=0"]).unwrap_err();
        assert_eq!(e.key, "scoreboard.trackers");
        assert!(load("[scoreboard]\n", &["scoreboard.nope=1"]).unwrap_err().message.contains("unknown field"));
        assert!(load("[scoreboard]\n", &["trackers=1"]).is_err());
        assert!(load("[scoreboard]\n", &["gpu.trackers=1"]).unwrap_err().message.contains("unknown block"));
        assert!(load("[scoreboard]\n", &["scoreboard.trackers"]).is_err());
    }

    #[test]
    fn synth_table_defaults_ranges_and_overrides() {
        let c = load("[scoreboard]\n", &[]).unwrap();
        assert_eq!(c.synth(), SynthConfig { clock_mhz: 100.0, target: "ice40-hx8k".into() });
        let c = load("[scoreboard]\n[synth]\nclock_mhz = 62.5\n", &[]).unwrap();
        assert_eq!(c.synth().clock_mhz, 62.5);
        let c = load("[scoreboard]\n[synth]\nclock_mhz = 1000\n", &["synth.clock_mhz=1"]).unwrap();
        assert_eq!(c.synth().clock_mhz, 1.0);
        for bad in ["0.5", "1000.5", "nan"] {
            let e = load(&format!("[scoreboard]\n[synth]\nclock_mhz = {bad}\n"), &[]).unwrap_err();
            assert_eq!((e.key.as_str(), e.line), ("synth.clock_mhz", Some(3)), "{bad}: {e}");
            assert!(e.message.contains("allowed 1 to 1000"), "{e}");
        }
        let e = load("[scoreboard]\n", &["synth.target=ecp7"]).unwrap_err();
        assert_eq!(e.key, "synth.target");
        assert!(e.message.contains("allowed ice40-hx8k"), "{e}");
        let e = load("[scoreboard]\n[synth]\nclok_mhz = 100\n", &[]).unwrap_err();
        assert_eq!(e.key, "synth.clok_mhz");
        // [synth] alone generates nothing: still an error.
        assert!(load("[synth]\nclock_mhz = 100\n", &[]).unwrap_err().message.contains("no block table"));
    }

    #[test]
    fn id_bits_is_ceil_log2_at_least_one() {
        let got: Vec<usize> = [1, 2, 3, 4, 5, 8, 9, 16, 17, 64].iter().map(|n| id_bits(*n)).collect();
        assert_eq!(got, vec![1, 1, 2, 2, 3, 3, 4, 4, 5, 6]);
    }
}
