//! The TOML configuration: one table per block, every key range-checked.
//!
//! A config file holds a table per block (`[scoreboard]`, …). A key left out of a
//! table takes its default; a table left out means the block is not part of this
//! config. Unknown keys and tables, wrong types and out-of-range values are errors
//! that name the file, the key (with its line where it can be found) and the
//! allowed range. `--set block.key=value` overrides are applied on top of the file
//! before validation, so they are checked exactly like file values.
//!
//! The keys, ranges and defaults of every block are documented in docs/config.md;
//! `KEYS` below is the single table both the check of that page
//! (`rtl/tests/config_doc.rs`) and the error messages are built from.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The configuration embedded in the program (`configs/default.toml`).
pub const DEFAULT_TOML: &str = include_str!("../../../configs/default.toml");

mod blocks;
mod global_spreader;
mod keys;
pub use blocks::*;
pub use keys::*;

/// The block registry, in emission order: per block its name (its TOML table, its [`Config`]
/// field and accessor, its module in `rtl` and in `testbench`), its config type and its
/// testbench marker type. Every list of the blocks and every dispatch on a block's name is
/// expanded from this one list: `for_each_block!(m!(args))` calls
/// `m!(args; scoreboard ScoreboardConfig Scoreboard, branch_stack …)`.
#[macro_export]
macro_rules! for_each_block {
    ($m:ident!($($args:tt)*)) => {
        $m! {
            $($args)*;
            scoreboard ScoreboardConfig Scoreboard,
            branch_stack BranchStackConfig BranchStack,
            task_combiner TaskCombinerConfig TaskCombiner,
            global_spreader GlobalSpreaderConfig GlobalSpreader,
            thread_merge ThreadMergeConfig ThreadMerge
        }
    };
}

macro_rules! block_names {
    (; $($b:ident $c:ident $m:ident),*) => {
        /// Names of the blocks a config may hold, in emission order: every one of them can be
        /// generated.
        pub const BLOCK_NAMES: [&str; 5] = [$(stringify!($b)),*];
    };
}
for_each_block!(block_names!());

/// The `[block]` table accessors of [`Config`].
macro_rules! block_accessors {
    (; $($b:ident $c:ident $m:ident),*) => {
        impl Config {
            $(
                #[doc = concat!("The `[", stringify!($b), "]` table, or an error naming what is missing.")]
                pub fn $b(&self) -> Result<&$c, String> {
                    self.$b.as_ref().ok_or_else(|| self.missing(stringify!($b)))
                }
            )*

            /// The built blocks present in this config, in emission order.
            pub fn blocks(&self) -> Vec<&'static str> {
                let mut v = Vec::new();
                $(
                    if self.$b.is_some() {
                        v.push(stringify!($b));
                    }
                )*
                v
            }

            /// Checks every block table present.
            fn validate_blocks(&self, chk: &mut Checker) {
                $(
                    if let Some(t) = &self.$b {
                        t.validate(chk);
                    }
                )*
            }
        }
    };
}
for_each_block!(block_accessors!());

/// A whole warpgen configuration.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Instruction completion trackers (docs/spec/scoreboard.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scoreboard: Option<ScoreboardConfig>,
    /// Condition-code stack, branch evaluation and PC update (docs/spec/branch_stack.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub branch_stack: Option<BranchStackConfig>,
    /// Table of open SIMD tasks keyed by (shader type, state) (docs/spec/task_combiner.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_combiner: Option<TaskCombinerConfig>,
    /// Dispatch of vertex, triangle, pixel and patch work to execution units
    /// (docs/spec/global_spreader.md, docs/contracts/global_spreader.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_spreader: Option<GlobalSpreaderConfig>,
    /// Pairing of partially covered quads and thread-group merging (docs/spec/thread_merge.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_merge: Option<ThreadMergeConfig>,
    /// Where the config was read from (set by [`Config::load`]): errors about a missing
    /// block table name it.
    #[serde(skip)]
    pub origin: Option<Origin>,
    /// `[synth]`: settings of the FPGA flow (`warpgen synth`, `warpgen sweep`); not a block.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synth: Option<SynthConfig>,
}

/// Devices `[synth] target` may name; `warpgen-sim`'s `fpga::Target` implements each.
pub const SYNTH_TARGETS: [&str; 5] = ["ice40-hx8k", "ecp5-25k", "ecp5-85k", "gw1nr-9", "lifcl-40"];

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
        let (lo, hi) = keys::limits("synth.clock_mhz");
        if !(self.clock_mhz.is_finite() && (lo as f64..=hi as f64).contains(&self.clock_mhz)) {
            chk.fail("synth.clock_mhz", format!("{} is out of range: allowed {lo} to {hi} (MHz)", self.clock_mhz));
        }
        if !SYNTH_TARGETS.contains(&self.target.as_str()) {
            chk.fail("synth.target", format!("`{}` is not a target: allowed {}", shorten(&self.target), SYNTH_TARGETS.join(", ")));
        }
    }
}


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

/// Bits needed to write the number `v`: 0 for 0, else floor(log2 v) + 1.
pub fn bits_for(v: u64) -> usize {
    (64 - v.leading_zeros()) as usize
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

    /// Checks `v` against the integer range of `key` in [`KEYS`]; returns whether it holds.
    fn key_range(&mut self, key: &str, v: i64) -> bool {
        let (lo, hi) = keys::limits(key);
        self.range(key, v, lo, hi)
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

impl Checker<'_> {
    /// [`Checker::fail`] for a key that may be nested (`block.table.name[i]`).
    fn fail_path(&mut self, key: &str, message: String) {
        if self.error.is_none() {
            self.error = Some(ConfigError {
                origin: self.origin.clone(),
                key: key.to_string(),
                line: locate_path(self.text, key),
                message,
            });
        }
    }

    /// [`Checker::key_range`] for a key that may be nested.
    fn key_range_path(&mut self, key: &str, v: i64) -> bool {
        let (lo, hi) = keys::limits(key);
        self.range_path(key, v, lo, hi)
    }

    /// [`Checker::range`] for a key that may be nested.
    fn range_path(&mut self, key: &str, v: i64, lo: i64, hi: i64) -> bool {
        let ok = (lo..=hi).contains(&v);
        if !ok {
            self.fail_path(key, format!("{v} is out of range: allowed {lo} to {hi}"));
        }
        ok
    }

    /// [`Checker::range_path`] whose upper bound `hi` follows another key (`why`).
    fn range_with(&mut self, key: &str, v: i64, lo: i64, hi: i64, why: &str) -> bool {
        let ok = (lo..=hi).contains(&v);
        if !ok {
            self.fail_path(key, format!("{v} is out of range: allowed {lo} to {hi} ({why})"));
        }
        ok
    }
}

/// The 1-based line of the innermost TOML entry on a dotted key path such as
/// `global_spreader.priority.pixel[2]` (the list index is ignored): an entry
/// under a `[a.b]` header, a dotted key, or the inline table holding it. The
/// most specific entry wins.
fn locate_path(text: &str, dotted: &str) -> Option<usize> {
    let path = dotted.split('[').next()?;
    let mut header = String::new();
    let mut best: Option<(usize, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.starts_with('#') {
            continue;
        }
        if let Some(h) = l.strip_prefix('[') {
            header = h.split(']').next().unwrap_or("").trim().to_string();
            // A table named by its header (`[a.b]` for the path `a.b`): its header line.
            if header == path && best.map_or(true, |(len, _)| header.len() > len) {
                best = Some((header.len(), i + 1));
            }
            continue;
        }
        let Some((k, _)) = l.split_once('=') else { continue };
        let k: Vec<&str> = k.split('.').map(|p| p.trim().trim_matches('"')).collect();
        let full = if header.is_empty() { k.join(".") } else { format!("{header}.{}", k.join(".")) };
        let hit = path == full || path.starts_with(&format!("{full}."));
        if hit && best.map_or(true, |(len, _)| full.len() > len) {
            best = Some((full.len(), i + 1));
        } else if best.is_none() && full.starts_with(&format!("{path}.")) {
            // A table given by dotted keys (`b.c = 1` for the path `a.b`): its first line.
            best = Some((path.len(), i + 1));
        }
    }
    best.map(|(_, line)| line)
}

/// Finds the 1-based line of `table.key = …` in TOML text (a plain scan of table
/// headers and `key =` lines, enough for the flat tables warpgen uses). A key
/// with an index (`depends[2]`) is found at the line of its array.
fn locate_key(text: &str, dotted: &str) -> Option<usize> {
    let (table, key) = dotted.split_once('.')?;
    // `depends[2]` is written on the line of `depends = …`.
    let key = key.split('[').next().unwrap_or(key);
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
            // A table given twice: TOML points into the first; name the second header.
            if let Some(table) = message.strip_prefix("invalid table header\nduplicate key `").and_then(|r| r.split('`').next()) {
                let header = format!("[{table}]");
                let second = text.lines().enumerate().filter(|(_, l)| l.trim() == header).nth(1).map(|(i, _)| i + 1);
                return ConfigError {
                    origin: origin.clone(),
                    key: table.to_string(),
                    line: second.or(line),
                    message: format!("the table [{table}] is given twice (every block has one table)"),
                };
            }
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
                // The key the override sets, when it names one; else the override itself.
                let key = o.split_once('=').map_or(o.as_str(), |(k, _)| k.trim());
                apply_override(&mut table, o).map_err(|m| err(&shorten(key), m))?;
            }
            toml::Value::Table(table)
                .try_into::<Config>()
                .map_err(|e| err("--set", e.message().trim().to_string()))?
        };
        config.validate(&origin, text)?;
        Ok(Config { origin: Some(origin), ..config })
    }

    /// The embedded default configuration with `overrides` applied.
    pub fn embedded(overrides: &[String]) -> Result<Config, ConfigError> {
        Config::load(Origin::Embedded, DEFAULT_TOML, overrides)
    }

    fn validate(&self, origin: &Origin, text: &str) -> Result<(), ConfigError> {
        let mut chk = Checker { origin, text, error: None };
        self.validate_blocks(&mut chk);
        if let Some(s) = &self.synth {
            s.validate(&mut chk);
        }
        if self.blocks().is_empty() {
            chk.fail("", format!("no block table: add at least one of [{}]", BLOCK_NAMES.join("], [")));
        }
        chk.error.map_or(Ok(()), Err)
    }

    /// The `[synth]` table, or its defaults when the config has none.
    pub fn synth(&self) -> SynthConfig {
        self.synth.clone().unwrap_or_default()
    }

    /// "the config has no [block] table", after the config's origin when it is known.
    fn missing(&self, block: &str) -> String {
        match &self.origin {
            Some(o) => format!("{o}: the config has no [{block}] table"),
            None => format!("the config has no [{block}] table"),
        }
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
    let raw = raw.trim();
    if raw.contains(['\n', '\r']) {
        return Err("the value holds a line break: a --set value is one TOML value on one line".into());
    }
    let value = parse_value(raw)?;
    if let Some(Range::Between(lo, hi)) = key_doc(path).map(|k| &k.range) {
        if !value.is_integer() {
            return Err(format!("`{}` is not an integer in range: allowed {lo} to {hi}", shorten(raw)));
        }
    }
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
        Err(e) => Err(format!("`{}` is not a TOML value: {}", shorten(raw), e.message().trim())),
    }
}

/// `text` for an error message: at most 60 characters, the rest replaced by "…".
pub(crate) fn shorten(text: &str) -> String {
    const MAX: usize = 60;
    match text.char_indices().nth(MAX) {
        Some((at, _)) => format!("{}… ({} bytes)", &text[..at], text.len()),
        None => text.to_string(),
    }
}

