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

/// Names of the blocks a config may hold, in emission order: every one of them can be
/// generated.
pub const BLOCK_NAMES: [&str; 5] =
    ["scoreboard", "branch_stack", "task_combiner", "global_spreader", "thread_merge"];

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
    /// Table of open SIMD tasks keyed by (shader type, state) (spec/task_combiner.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_combiner: Option<TaskCombinerConfig>,
    /// Dispatch of vertex, triangle, pixel and patch work to execution units
    /// (spec/global_spreader.md, docs/contracts/global_spreader.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub global_spreader: Option<GlobalSpreaderConfig>,
    /// Pairing of partially covered quads and thread-group merging (spec/thread_merge.md).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread_merge: Option<ThreadMergeConfig>,
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

/// Entity type names of `[global_spreader]`, indexed by their type code
/// (0 VTX, 1 TRI, 2 PIX, 3 PATCH).
pub const GS_TYPE_NAMES: [&str; 4] = ["vertex", "triangle", "pixel", "patch"];

/// `[global_spreader]`: dispatch of packets to execution units (EUs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GlobalSpreaderConfig {
    /// Execution units (N_EU).
    pub eus: i64,
    /// Packet types built: a non-empty subset of "vertex", "triangle", "pixel", "patch".
    pub entity_types: Vec<String>,
    /// Vertices per vertex-descriptor-table group (VGRP).
    pub vertices_per_group: i64,
    /// Vertex descriptor table entries.
    pub vdt_depth: i64,
    /// Primitive table entries.
    pub pt_depth: i64,
    /// Vertex index bits (IDX_W).
    pub index_width: i64,
    /// Resource counter bits (RES_W).
    pub res_width: i64,
    /// Entity number bits (ENT_W); an EU holds up to 2^ENT_W entities.
    pub entity_width: i64,
    /// Source address bits (ADDR_W).
    pub addr_width: i64,
    /// Resource units per EU after reset: one value for all, or one per EU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub res_total: Option<PerEu>,
    /// Entity records per EU after reset: one value for all, or one per EU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edt_total: Option<PerEu>,
    /// Per type name: free resource units an EU needs to take a new entity (MIN_RES).
    pub min_res: std::collections::BTreeMap<String, i64>,
    /// Per type name: resource units added to a packet's size (FRAME_RES).
    pub frame_res: std::collections::BTreeMap<String, i64>,
    /// Per type name: candidate EU order (PRIO).
    pub priority: std::collections::BTreeMap<String, Vec<i64>>,
    /// Per type name: the EUs that may take the type (DED_MASK).
    pub dedicated: std::collections::BTreeMap<String, Vec<i64>>,
    /// The EUs enabled after reset (EU_ENABLE); absent: all.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub eu_enable: Option<Vec<i64>>,
    /// CTRL.EN after reset: packets are accepted.
    pub enable: bool,
    /// CTRL.LOCALITY_EN after reset: triangles and pixels prefer their home EU.
    pub locality: bool,
    /// CTRL.YIELD_EN after reset: a slot that cannot dispatch lets lower classes through.
    pub yield_enable: bool,
}

/// A per-EU value: one for all EUs, or a list with one entry per EU.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum PerEu {
    All(i64),
    Each(Vec<i64>),
}

impl Default for GlobalSpreaderConfig {
    fn default() -> Self {
        GlobalSpreaderConfig {
            eus: 5,
            entity_types: GS_TYPE_NAMES.iter().map(|s| s.to_string()).collect(),
            vertices_per_group: 8,
            vdt_depth: 256,
            pt_depth: 256,
            index_width: 16,
            res_width: 12,
            entity_width: 8,
            addr_width: 32,
            res_total: None,
            edt_total: None,
            min_res: Default::default(),
            frame_res: Default::default(),
            priority: Default::default(),
            dedicated: Default::default(),
            eu_enable: None,
            enable: true,
            locality: true,
            yield_enable: false,
        }
    }
}

/// `[task_combiner]`: the task combining unit with its dependency matrix
/// (contract `task_combiner.md` §2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TaskCombinerConfig {
    /// Table entries (N_ENTRIES).
    pub entries: i64,
    /// Lanes per task (SIMD_W): 4, 8, 16, 32 or 64.
    pub width: i64,
    /// Tile pipelines (N_TPIPE), one lock-mask bit each.
    pub tile_pipes: i64,
    /// Shader types (0 VS, 1 HS, 2 DS, 3 GS, then user types).
    pub shader_types: i64,
    /// Bits of a state id (STATE_W).
    pub state_width: i64,
    /// Bits of an instance reference (REF_W); the patent's LUT reference has 13.
    pub ref_width: i64,
    /// Generation bits of a task tag (GEN_W).
    pub tag_gen_width: i64,
    /// Eviction victim choice: "fullest", "oldest", "nodep_fullest" or "nodep_oldest".
    pub policy: String,
    /// Issue prefers the state of the last issued task.
    pub sort_state: bool,
    /// Instances per task, one value per shader type. Absent: `width` for every type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<Vec<i64>>,
    /// Row s: the shader types whose tasks a type-s instance consumes (all < s).
    /// Absent: the patent's stage order (see [`TaskCombinerConfig::depends_rows`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depends: Option<Vec<Vec<i64>>>,
}

impl Default for TaskCombinerConfig {
    fn default() -> Self {
        TaskCombinerConfig {
            entries: 16,
            width: 32,
            tile_pipes: 4,
            shader_types: 4,
            state_width: 8,
            ref_width: 13,
            tag_gen_width: 4,
            policy: "fullest".into(),
            sort_state: true,
            capacity: None,
            depends: None,
        }
    }
}

/// `[thread_merge]`: pairing of partially covered quads into merge slots and the
/// merge of the two thread groups at the merge instruction (`docs/contracts/thread_merge.md`, §2).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ThreadMergeConfig {
    /// Lanes per thread group (LANES): 4, 8, 16 or 32, i.e. 1 to 8 2x2 quads.
    pub lanes: i64,
    /// Merge slots (S); a slot holds one single group or one pair, 2*S thread-group ids.
    pub slots: i64,
    /// Allow the claim-6 lane remaps p = 1, 2, 3 (mirror x, mirror y, rotate 180).
    pub remap: bool,
    /// Cycles a held candidate can still be paired; 0 = until flush/last/primitive change.
    pub pair_hold: i64,
    /// Cycles a waiting group waits for its partner; 0 = forever.
    pub merge_timeout: i64,
    /// Bits of the opaque fragment tag (TAG_W).
    pub tag_width: i64,
    /// Bits of the primitive id (PRIM_W).
    pub prim_width: i64,
}

impl Default for ThreadMergeConfig {
    fn default() -> Self {
        ThreadMergeConfig {
            lanes: 4,
            slots: 4,
            remap: true,
            pair_hold: 4,
            merge_timeout: 16,
            tag_width: 32,
            prim_width: 16,
        }
    }
}

/// `task_combiner.policy`: how the eviction victim is chosen (contract R3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Fullest,
    Oldest,
    NodepFullest,
    NodepOldest,
}

impl Policy {
    /// The TOML spellings, in the order of the enum.
    pub const NAMES: [&'static str; 4] = ["fullest", "oldest", "nodep_fullest", "nodep_oldest"];

    fn parse(s: &str) -> Option<Policy> {
        let all = [Policy::Fullest, Policy::Oldest, Policy::NodepFullest, Policy::NodepOldest];
        Policy::NAMES.iter().position(|n| *n == s).map(|i| all[i])
    }

    /// The TOML spelling.
    pub fn name(self) -> &'static str {
        Policy::NAMES[self as usize]
    }

    /// Candidates are restricted to entries without producers when there are any.
    pub fn nodep(self) -> bool {
        matches!(self, Policy::NodepFullest | Policy::NodepOldest)
    }

    /// The fullest candidate wins (ties: the oldest); otherwise the oldest.
    pub fn fullest(self) -> bool {
        matches!(self, Policy::Fullest | Policy::NodepFullest)
    }
}

/// The patent's stage order as a dependency matrix: VS none, HS on VS, DS on
/// HS, GS on VS and DS (spec §4.4, §5.6).
const PATENT_DEPENDS: [&[i64]; 4] = [&[], &[0], &[1], &[0, 2]];

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
    KeyDoc { key: "task_combiner.entries", range: "1 to 64", default: "16",
        meaning: "table entries (N_ENTRIES): open and pending tasks held at once" },
    KeyDoc { key: "task_combiner.width", range: "4, 8, 16, 32 or 64", default: "32",
        meaning: "lanes per task (SIMD_W)" },
    KeyDoc { key: "task_combiner.tile_pipes", range: "1 to 8", default: "4",
        meaning: "tile pipelines (N_TPIPE), one lock-mask bit each" },
    KeyDoc { key: "task_combiner.shader_types", range: "1 to 8", default: "4",
        meaning: "shader types: 0 VS, 1 HS, 2 DS, 3 GS, then user types" },
    KeyDoc { key: "task_combiner.state_width", range: "1 to 16", default: "8",
        meaning: "bits of a state id" },
    KeyDoc { key: "task_combiner.ref_width", range: "1 to 32", default: "13",
        meaning: "bits of an instance reference (the patent's LUT reference has 13)" },
    KeyDoc { key: "task_combiner.tag_gen_width", range: "1 to 8", default: "4",
        meaning: "generation bits of a task tag; a tag is {generation, entry index}" },
    KeyDoc { key: "task_combiner.policy", range: "\"fullest\", \"oldest\", \"nodep_fullest\" or \"nodep_oldest\"",
        default: "\"fullest\"",
        meaning: "eviction victim when a new key finds the table full: most lanes (ties: oldest) or oldest; nodep_ prefers tasks without producers" },
    KeyDoc { key: "task_combiner.sort_state", range: "true or false", default: "true",
        meaning: "issue prefers pending tasks in the state of the last issued task" },
    KeyDoc { key: "task_combiner.capacity", range: "1 to width, one value per shader type",
        default: "width for every type",
        meaning: "instances per task by shader type; a task that reaches it is output (FULL)" },
    KeyDoc { key: "task_combiner.depends", range: "one list per shader type; row s holds distinct types below s",
        default: "patent stage order [[], [0], [1], [0, 2]], cut to shader_types; types 4 to 7: []",
        meaning: "shader types whose tasks a type-s instance consumes in the same state" },
    KeyDoc { key: "global_spreader.eus", range: "1 to 32", default: "5",
        meaning: "execution units (N_EU); the patent's figures show 3 and 5" },
    KeyDoc { key: "global_spreader.entity_types", range: "non-empty subset of \"vertex\", \"triangle\", \"pixel\", \"patch\"; pixel needs triangle",
        default: "all four", meaning: "packet types built; an absent type has no channel, slot or registers" },
    KeyDoc { key: "global_spreader.vertices_per_group", range: "4, 8, 16", default: "8",
        meaning: "vertices per vertex descriptor table group (VGRP, the EU's SIMD factor)" },
    KeyDoc { key: "global_spreader.vdt_depth", range: "power of two, 4 to 1024", default: "256",
        meaning: "vertex descriptor table entries (block RAM); the patent says about 256" },
    KeyDoc { key: "global_spreader.pt_depth", range: "power of two, 2 to 1024", default: "256",
        meaning: "primitive table entries (block RAM); PRID_W = log2 pt_depth" },
    KeyDoc { key: "global_spreader.index_width", range: "8 to 32, above log2 vertices_per_group + log2 vdt_depth", default: "16",
        meaning: "vertex index bits (IDX_W)" },
    KeyDoc { key: "global_spreader.res_width", range: "4 to 16", default: "12",
        meaning: "resource counter, size and footprint bits (RES_W)" },
    KeyDoc { key: "global_spreader.entity_width", range: "1 to 10", default: "8",
        meaning: "entity number bits (ENT_W); free entity counters have ENT_W+1 bits" },
    KeyDoc { key: "global_spreader.addr_width", range: "8 to 64", default: "32",
        meaning: "source address bits (ADDR_W)" },
    KeyDoc { key: "global_spreader.res_total", range: "0 to 2^res_width-1, one value or one per EU", default: "min(64, 2^res_width-1)",
        meaning: "RES_TOTAL after reset: resource units of each EU" },
    KeyDoc { key: "global_spreader.edt_total", range: "0 to 2^entity_width, one value or one per EU", default: "2^entity_width",
        meaning: "EDT_TOTAL after reset: entity records of each EU" },
    KeyDoc { key: "global_spreader.min_res", range: "table: type name = 0 to 2^res_width-1", default: "0 for every type",
        meaning: "MIN_RES after reset: free units an EU needs to take a new entity of the type" },
    KeyDoc { key: "global_spreader.frame_res", range: "table: type name = 0 to 2^res_width-1", default: "0 for every type",
        meaning: "FRAME_RES after reset: units added to the packet size for the footprint" },
    KeyDoc { key: "global_spreader.priority", range: "table: type name = list of distinct EU ids below eus", default: "[0, 1, .., eus-1] for every type",
        meaning: "PRIO after reset: candidate order of the type; the slots after the list are empty" },
    KeyDoc { key: "global_spreader.dedicated", range: "table: type name = list of EU ids below eus", default: "every EU for every type",
        meaning: "DED_MASK after reset: the EUs that may take the type" },
    KeyDoc { key: "global_spreader.eu_enable", range: "list of EU ids below eus", default: "every EU",
        meaning: "EU_ENABLE after reset" },
    KeyDoc { key: "global_spreader.enable", range: "true or false", default: "true",
        meaning: "CTRL.EN after reset: packets are accepted" },
    KeyDoc { key: "global_spreader.locality", range: "true or false", default: "true",
        meaning: "CTRL.LOCALITY_EN after reset: a triangle or pixel tries its home EU first" },
    KeyDoc { key: "global_spreader.yield_enable", range: "true or false", default: "false",
        meaning: "CTRL.YIELD_EN after reset: a slot that cannot dispatch lets lower-priority slots through" },
    KeyDoc { key: "thread_merge.lanes", range: "4, 8, 16, 32", default: "4",
        meaning: "lanes per thread group (groups of 2x2 quads; lane i is quad i>>2, in-quad index i&3 = {y,x})" },
    KeyDoc { key: "thread_merge.slots", range: "1 to 32", default: "4",
        meaning: "merge slots, each one single group or one pair (2*slots thread-group ids)" },
    KeyDoc { key: "thread_merge.remap", range: "true / false", default: "true",
        meaning: "allow the claim-6 lane remaps p = 1, 2, 3 (mirror x, mirror y, rotate 180)" },
    KeyDoc { key: "thread_merge.pair_hold", range: "0 to 255", default: "4",
        meaning: "cycles a held candidate can still be paired; 0 = until flush, last or primitive change" },
    KeyDoc { key: "thread_merge.merge_timeout", range: "0 to 255", default: "16",
        meaning: "cycles a waiting group waits for its partner; 0 = forever" },
    KeyDoc { key: "thread_merge.tag_width", range: "1 to 64", default: "32",
        meaning: "bits of the opaque fragment tag" },
    KeyDoc { key: "thread_merge.prim_width", range: "1 to 32", default: "16",
        meaning: "bits of the primitive id" },
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

impl GlobalSpreaderConfig {
    /// Whether type `code` (0 VTX, 1 TRI, 2 PIX, 3 PATCH) is built.
    pub fn has_type(&self, code: usize) -> bool {
        self.entity_types.iter().any(|t| t == GS_TYPE_NAMES[code])
    }

    /// The vertex descriptor table exists (vertex or patch built).
    pub fn has_vdt(&self) -> bool {
        self.has_type(0) || self.has_type(3)
    }

    /// The primitive table exists (triangle built).
    pub fn has_pt(&self) -> bool {
        self.has_type(1)
    }

    /// Resolved RES_TOTAL per EU.
    pub fn res_totals(&self) -> Vec<u64> {
        let dflt = 64.min((1u64 << self.res_width) - 1);
        per_eu(&self.res_total, self.eus as usize, dflt)
    }

    /// Resolved EDT_TOTAL per EU.
    pub fn edt_totals(&self) -> Vec<u64> {
        per_eu(&self.edt_total, self.eus as usize, 1u64 << self.entity_width)
    }

    /// Resolved MIN_RES of type `code`.
    pub fn min_res_of(&self, code: usize) -> u64 {
        self.min_res.get(GS_TYPE_NAMES[code]).map_or(0, |v| *v as u64)
    }

    /// Resolved FRAME_RES of type `code`.
    pub fn frame_res_of(&self, code: usize) -> u64 {
        self.frame_res.get(GS_TYPE_NAMES[code]).map_or(0, |v| *v as u64)
    }

    /// Resolved candidate list of type `code` (PRIO[t][0..len]; the other slots are empty).
    pub fn priority_of(&self, code: usize) -> Vec<u64> {
        match self.priority.get(GS_TYPE_NAMES[code]) {
            Some(l) => l.iter().map(|v| *v as u64).collect(),
            None => (0..self.eus as u64).collect(),
        }
    }

    /// Resolved DED_MASK of type `code`, one flag per EU.
    pub fn dedicated_of(&self, code: usize) -> Vec<bool> {
        ids_to_flags(self.dedicated.get(GS_TYPE_NAMES[code]), self.eus as usize)
    }

    /// Resolved EU_ENABLE, one flag per EU.
    pub fn eu_enabled(&self) -> Vec<bool> {
        ids_to_flags(self.eu_enable.as_ref(), self.eus as usize)
    }

    /// EU_W: bits of an EU id, max(1, ceil(log2 eus)).
    pub fn eu_bits(&self) -> usize {
        id_bits(self.eus as usize)
    }

    /// PRIO_W = EU_W + 1: a PRIO slot holds an EU id or an empty value.
    pub fn prio_bits(&self) -> usize {
        self.eu_bits() + 1
    }

    /// AV_W = ceil(log2(eus+1)): bits of `eu_avail_cnt`.
    pub fn avail_bits(&self) -> usize {
        id_bits(self.eus as usize + 1)
    }

    /// FE_W = ENT_W + 1: bits of FREE_EDT, EDT_TOTAL, PEND.
    pub fn free_edt_bits(&self) -> usize {
        self.entity_width as usize + 1
    }

    /// ELEM_W = log2 vertices_per_group.
    pub fn elem_bits(&self) -> usize {
        self.vertices_per_group.trailing_zeros() as usize
    }

    /// VCNT_W = ceil(log2(VGRP+1)): bits of a vertex count.
    pub fn vcount_bits(&self) -> usize {
        id_bits(self.vertices_per_group as usize + 1)
    }

    /// PG: VDT groups a patch fills (16/VGRP with patch, else 1).
    pub fn patch_groups(&self) -> usize {
        if self.has_type(3) { 16 / self.vertices_per_group as usize } else { 1 }
    }

    /// GRP_W = max(1, log2 PG).
    pub fn grp_bits(&self) -> usize {
        id_bits(self.patch_groups())
    }

    /// VDT_AW = log2 vdt_depth.
    pub fn vdt_addr_bits(&self) -> usize {
        self.vdt_depth.trailing_zeros() as usize
    }

    /// PRID_W = log2 pt_depth.
    pub fn prid_bits(&self) -> usize {
        self.pt_depth.trailing_zeros() as usize
    }

    /// Bits of a VDT tag: IDX_W - ELEM_W - VDT_AW (at least 1 after validation).
    pub fn tag_bits(&self) -> usize {
        self.index_width as usize - self.elem_bits() - self.vdt_addr_bits()
    }

    fn validate(&self, chk: &mut Checker) {
        let key = |k: &str| format!("global_spreader.{k}");
        if !chk.range_path(&key("eus"), self.eus, 1, 32) {
            return;
        }
        let n = self.eus;
        // Entity types.
        if self.entity_types.is_empty() {
            chk.fail_path(&key("entity_types"), format!(
                "is empty: name at least one of {}", GS_TYPE_NAMES.join(", ")));
        }
        for (i, t) in self.entity_types.iter().enumerate() {
            if !GS_TYPE_NAMES.contains(&t.as_str()) {
                chk.fail_path(&key(&format!("entity_types[{i}]")), format!(
                    "`{t}` is not a type: allowed {}", GS_TYPE_NAMES.join(", ")));
            } else if self.entity_types[..i].contains(t) {
                chk.fail_path(&key(&format!("entity_types[{i}]")), format!("`{t}` is listed twice"));
            }
        }
        if self.has_type(2) && !self.has_type(1) {
            chk.fail_path(&key("entity_types"), "\"pixel\" needs \"triangle\": a pixel packet finds its EU through its triangle's primitive table entry".into());
        }
        // Table geometry and widths.
        if ![4, 8, 16].contains(&self.vertices_per_group) {
            chk.fail_path(&key("vertices_per_group"), format!(
                "{} is out of range: allowed 4, 8, 16", self.vertices_per_group));
        }
        let pow2 = |v: i64, lo: i64, hi: i64| (lo..=hi).contains(&v) && v.count_ones() == 1;
        if !pow2(self.vdt_depth, 4, 1024) {
            chk.fail_path(&key("vdt_depth"), format!(
                "{} is out of range: allowed a power of two from 4 to 1024", self.vdt_depth));
        }
        if !pow2(self.pt_depth, 2, 1024) {
            chk.fail_path(&key("pt_depth"), format!(
                "{} is out of range: allowed a power of two from 2 to 1024", self.pt_depth));
        }
        if chk.error.is_none() {
            // IDX_W must leave a tag bit above the group's element and slot bits.
            let need = self.elem_bits() + self.vdt_addr_bits();
            chk.range_with(&key("index_width"), self.index_width, 8.max(need as i64 + 1), 32, &format!(
                "8 or more, and above log2 vertices_per_group + log2 vdt_depth = {need}, so that a vertex tag has a bit"));
        }
        let res_ok = chk.range_path(&key("res_width"), self.res_width, 4, 16);
        let ent_ok = chk.range_path(&key("entity_width"), self.entity_width, 1, 10);
        chk.range_path(&key("addr_width"), self.addr_width, 8, 64);
        if chk.error.is_some() {
            return;
        }
        if !(res_ok && ent_ok) {
            return;
        }
        // Reset values.
        let res_max = (1i64 << self.res_width) - 1;
        let edt_max = 1i64 << self.entity_width;
        let per_eu_check = |chk: &mut Checker, name: &str, v: &Option<PerEu>, hi: i64, why: &str| match v {
            None => {}
            Some(PerEu::All(x)) => {
                chk.range_with(&key(name), *x, 0, hi, why);
            }
            Some(PerEu::Each(list)) => {
                if list.len() as i64 != n {
                    chk.fail_path(&key(name), format!(
                        "has {} entries but global_spreader.eus = {n}: give one value per EU, or a single number for all",
                        list.len()));
                }
                for (i, x) in list.iter().enumerate() {
                    chk.range_with(&key(&format!("{name}[{i}]")), *x, 0, hi, why);
                }
            }
        };
        per_eu_check(chk, "res_total", &self.res_total, res_max, "2^res_width-1");
        per_eu_check(chk, "edt_total", &self.edt_total, edt_max, "2^entity_width");
        // Tables keyed by type name.
        let type_key = |chk: &mut Checker, table: &str, name: &str| -> bool {
            let k = key(&format!("{table}.{name}"));
            if !GS_TYPE_NAMES.contains(&name) {
                chk.fail_path(&k, format!("`{name}` is not a type: allowed {}", GS_TYPE_NAMES.join(", ")));
                false
            } else if !self.entity_types.iter().any(|t| t == name) {
                chk.fail_path(&k, format!(
                    "type `{name}` is not built: add it to global_spreader.entity_types or remove this entry"));
                false
            } else {
                true
            }
        };
        for (table, map) in [("min_res", &self.min_res), ("frame_res", &self.frame_res)] {
            for (name, v) in map {
                if type_key(chk, table, name) {
                    chk.range_with(&key(&format!("{table}.{name}")), *v, 0, res_max, "2^res_width-1");
                }
            }
        }
        let eu_list = |chk: &mut Checker, k: &str, list: &[i64], distinct: bool| {
            for (i, e) in list.iter().enumerate() {
                let ki = format!("{k}[{i}]");
                if !(0..n).contains(e) {
                    chk.fail_path(&ki, format!(
                        "EU {e} is out of range: allowed EU ids 0 to {} (global_spreader.eus = {n})", n - 1));
                } else if distinct && list[..i].contains(e) {
                    chk.fail_path(&ki, format!("EU {e} is listed twice: a candidate order names each EU once"));
                }
            }
        };
        for (table, map, distinct) in [("priority", &self.priority, true), ("dedicated", &self.dedicated, false)] {
            for (name, list) in map {
                if type_key(chk, table, name) {
                    eu_list(chk, &key(&format!("{table}.{name}")), list, distinct);
                }
            }
        }
        if let Some(list) = &self.eu_enable {
            eu_list(chk, &key("eu_enable"), list, false);
        }
    }
}

fn per_eu(v: &Option<PerEu>, n: usize, dflt: u64) -> Vec<u64> {
    match v {
        None => vec![dflt; n],
        Some(PerEu::All(x)) => vec![*x as u64; n],
        Some(PerEu::Each(l)) => l.iter().map(|x| *x as u64).collect(),
    }
}

fn ids_to_flags(ids: Option<&Vec<i64>>, n: usize) -> Vec<bool> {
    match ids {
        None => vec![true; n],
        Some(l) => (0..n as i64).map(|e| l.contains(&e)).collect(),
    }
}

impl TaskCombinerConfig {
    /// Widths allowed for `width` (lanes per task).
    pub const WIDTHS: [i64; 5] = [4, 8, 16, 32, 64];

    /// ENT_W, bits of an entry index: max(1, ceil(log2 entries)).
    pub fn ent_bits(&self) -> usize {
        id_bits(self.entries as usize)
    }

    /// TAG_W = tag_gen_width + ENT_W; a tag is {generation, entry index}.
    pub fn tag_bits(&self) -> usize {
        self.tag_gen_width as usize + self.ent_bits()
    }

    /// CNT_W = ceil(log2(width+1)): a count 0 to width.
    pub fn cnt_bits(&self) -> usize {
        id_bits(self.width as usize + 1)
    }

    /// LANE_W = log2(width): a lane index.
    pub fn lane_bits(&self) -> usize {
        id_bits(self.width as usize)
    }

    /// TP_W = max(1, ceil(log2 tile_pipes)).
    pub fn tp_bits(&self) -> usize {
        id_bits(self.tile_pipes as usize)
    }

    /// STYPE_W = max(1, ceil(log2 shader_types)).
    pub fn stype_bits(&self) -> usize {
        id_bits(self.shader_types as usize)
    }

    /// The validated policy.
    pub fn policy(&self) -> Policy {
        Policy::parse(&self.policy).expect("validated policy")
    }

    /// Instances per task of each shader type (after validation, 1 to width each).
    pub fn capacities(&self) -> Vec<u64> {
        match &self.capacity {
            Some(v) => v.iter().map(|c| *c as u64).collect(),
            None => vec![self.width as u64; self.shader_types as usize],
        }
    }

    /// Row s: the shader types a type-s instance depends on. Absent `depends`:
    /// the patent's stage order cut to `shader_types` rows; types 4 to 7 have none.
    pub fn depends_rows(&self) -> Vec<Vec<usize>> {
        let n = self.shader_types as usize;
        match &self.depends {
            Some(rows) => rows.iter().map(|r| r.iter().map(|t| *t as usize).collect()).collect(),
            None => (0..n)
                .map(|s| PATENT_DEPENDS.get(s).map_or(Vec::new(), |r| r.iter().map(|t| *t as usize).collect()))
                .collect(),
        }
    }

    fn validate(&self, chk: &mut Checker) {
        chk.range("task_combiner.entries", self.entries, 1, 64);
        let width_ok = TaskCombinerConfig::WIDTHS.contains(&self.width);
        if !width_ok {
            chk.fail("task_combiner.width", format!(
                "{} is not allowed: allowed 4, 8, 16, 32 or 64 (lanes per task, a power of two)", self.width));
        }
        chk.range("task_combiner.tile_pipes", self.tile_pipes, 1, 8);
        let types_ok = chk.range("task_combiner.shader_types", self.shader_types, 1, 8);
        chk.range("task_combiner.state_width", self.state_width, 1, 16);
        chk.range("task_combiner.ref_width", self.ref_width, 1, 32);
        chk.range("task_combiner.tag_gen_width", self.tag_gen_width, 1, 8);
        if Policy::parse(&self.policy).is_none() {
            chk.fail("task_combiner.policy", format!(
                "\"{}\" is not a policy: allowed \"fullest\", \"oldest\", \"nodep_fullest\" or \"nodep_oldest\"",
                self.policy));
        }
        if !types_ok {
            return;
        }
        let types = self.shader_types;
        if let (Some(caps), true) = (&self.capacity, width_ok) {
            if caps.len() as i64 != types {
                chk.fail("task_combiner.capacity", format!(
                    "has {} values but task_combiner.shader_types = {types}: give one value per shader type, or leave it out for width",
                    caps.len()));
            }
            for (i, c) in caps.iter().enumerate() {
                if !(1..=self.width).contains(c) {
                    chk.fail(&format!("task_combiner.capacity[{i}]"), format!(
                        "{c} is out of range: allowed 1 to {} (task_combiner.width)", self.width));
                }
            }
        }
        if let Some(rows) = &self.depends {
            if rows.len() as i64 != types {
                chk.fail("task_combiner.depends", format!(
                    "has {} rows but task_combiner.shader_types = {types}: give one list per shader type ([] for none)",
                    rows.len()));
            }
            for (s, row) in rows.iter().enumerate() {
                let key = format!("task_combiner.depends[{s}]");
                let allowed = if s == 0 {
                    "allowed none (row 0 must be empty: a shader type depends only on types below it)".to_string()
                } else {
                    format!("allowed shader types 0 to {} (below {s}), each at most once", s - 1)
                };
                for (k, t) in row.iter().enumerate() {
                    if !(0..s as i64).contains(t) {
                        chk.fail(&key, format!("{t} is out of range: {allowed}"));
                    } else if row[..k].contains(t) {
                        chk.fail(&key, format!("{t} is listed twice: {allowed}"));
                    }
                }
            }
        }
    }
}

impl ThreadMergeConfig {
    /// Lanes per thread group the block supports.
    pub const LANES: [i64; 4] = [4, 8, 16, 32];

    /// Thread-group ids: 2 * slots.
    pub fn groups(&self) -> usize {
        2 * self.slots as usize
    }

    /// TGID_W = 1 + ceil(log2 slots).
    pub fn tgid_bits(&self) -> usize {
        1 + bits_for(self.slots as u64 - 1)
    }

    /// LANE_W = log2(lanes).
    pub fn lane_bits(&self) -> usize {
        bits_for(self.lanes as u64 - 1)
    }

    /// CNT_W = ceil(log2(slots + 1)), the width of `free_cnt`.
    pub fn cnt_bits(&self) -> usize {
        bits_for(self.slots as u64)
    }

    fn validate(&self, chk: &mut Checker) {
        if !Self::LANES.contains(&self.lanes) {
            chk.fail("thread_merge.lanes", format!(
                "{} is not allowed: allowed 4, 8, 16, 32 (lanes per thread group: 1, 2, 4 or 8 quads of 2x2)",
                self.lanes));
        }
        chk.range("thread_merge.slots", self.slots, 1, 32);
        chk.range("thread_merge.pair_hold", self.pair_hold, 0, 255);
        chk.range("thread_merge.merge_timeout", self.merge_timeout, 0, 255);
        chk.range("thread_merge.tag_width", self.tag_width, 1, 64);
        chk.range("thread_merge.prim_width", self.prim_width, 1, 32);
    }
}

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
            continue;
        }
        let Some((k, _)) = l.split_once('=') else { continue };
        let k: Vec<&str> = k.split('.').map(|p| p.trim().trim_matches('"')).collect();
        let full = if header.is_empty() { k.join(".") } else { format!("{header}.{}", k.join(".")) };
        let hit = path == full || path.starts_with(&format!("{full}."));
        if hit && best.map_or(true, |(len, _)| full.len() > len) {
            best = Some((full.len(), i + 1));
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
        if let Some(tc) = &self.task_combiner {
            tc.validate(&mut chk);
        }
        if let Some(gs) = &self.global_spreader {
            gs.validate(&mut chk);
        }
        if let Some(tm) = &self.thread_merge {
            tm.validate(&mut chk);
        }
        if let Some(s) = &self.synth {
            s.validate(&mut chk);
        }
        if self.blocks().is_empty() {
            chk.fail("", format!("no block table: add at least one of [{}]", BLOCK_NAMES.join("], [")));
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
        if self.task_combiner.is_some() {
            v.push("task_combiner");
        }
        if self.global_spreader.is_some() {
            v.push("global_spreader");
        }
        if self.thread_merge.is_some() {
            v.push("thread_merge");
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

    /// The `[global_spreader]` table, or an error naming what is missing.
    pub fn global_spreader(&self) -> Result<&GlobalSpreaderConfig, String> {
        self.global_spreader
            .as_ref()
            .ok_or_else(|| "the config has no [global_spreader] table".to_string())
    }

    /// The `[task_combiner]` table, or an error naming what is missing.
    pub fn task_combiner(&self) -> Result<&TaskCombinerConfig, String> {
        self.task_combiner
            .as_ref()
            .ok_or_else(|| "the config has no [task_combiner] table".to_string())
    }

    /// The `[thread_merge]` table, or an error naming what is missing.
    pub fn thread_merge(&self) -> Result<&ThreadMergeConfig, String> {
        self.thread_merge
            .as_ref()
            .ok_or_else(|| "the config has no [thread_merge] table".to_string())
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
        assert_eq!(c.global_spreader.unwrap(), GlobalSpreaderConfig::default());
        assert_eq!(c.thread_merge.unwrap(), ThreadMergeConfig::default());
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

    fn gs(body: &str) -> Result<GlobalSpreaderConfig, ConfigError> {
        load(&format!("[global_spreader]\n{body}"), &[]).map(|c| c.global_spreader.unwrap())
    }

    fn gs_err(body: &str) -> ConfigError {
        gs(body).expect_err(body)
    }

    #[test]
    fn global_spreader_defaults_resolve_as_documented() {
        let c = gs("").unwrap();
        assert_eq!(c, GlobalSpreaderConfig::default());
        assert!((0..4).all(|t| c.has_type(t)));
        assert_eq!(c.res_totals(), vec![64; 5]);
        assert_eq!(c.edt_totals(), vec![256; 5]);
        assert_eq!(c.priority_of(2), vec![0, 1, 2, 3, 4]);
        assert_eq!(c.dedicated_of(1), vec![true; 5]);
        assert_eq!(c.eu_enabled(), vec![true; 5]);
        assert_eq!((c.min_res_of(0), c.frame_res_of(3)), (0, 0));
        assert!(c.enable && c.locality && !c.yield_enable);
        // Derived widths of the contract at the default.
        assert_eq!((c.eu_bits(), c.prio_bits(), c.avail_bits(), c.free_edt_bits()), (3, 4, 3, 9));
        assert_eq!((c.elem_bits(), c.vcount_bits(), c.patch_groups(), c.grp_bits()), (3, 4, 2, 1));
        assert_eq!((c.vdt_addr_bits(), c.prid_bits(), c.tag_bits()), (8, 8, 5));
        // RES_TOTAL's default follows res_width below 64.
        assert_eq!(gs("res_width = 5").unwrap().res_totals(), vec![31; 5]);
        assert_eq!(gs("entity_width = 1").unwrap().edt_totals(), vec![2; 5]);
        let c = gs("eus = 1\nvertices_per_group = 16\nentity_types = [\"vertex\", \"triangle\"]").unwrap();
        assert_eq!((c.eu_bits(), c.prio_bits(), c.avail_bits(), c.vcount_bits(), c.patch_groups()), (1, 2, 1, 5, 1));
        assert!(c.has_vdt() && c.has_pt() && !c.has_type(2));
        let c = gs("eus = 4\nvertices_per_group = 4").unwrap();
        assert_eq!((c.avail_bits(), c.patch_groups(), c.grp_bits()), (3, 4, 2));
    }

    #[test]
    fn global_spreader_ranges_are_checked_at_both_ends() {
        for (key, lo, hi) in [
            ("eus", 1, 32),
            ("index_width", 12, 32), // lower end: above log2 8 + log2 256 = 11
            ("res_width", 4, 16),
            ("entity_width", 1, 10),
            ("addr_width", 8, 64),
        ] {
            for ok in [lo, hi] {
                assert!(gs(&format!("{key} = {ok}")).is_ok(), "{key}={ok}");
            }
            for bad in [lo - 1, hi + 1] {
                let e = gs_err(&format!("{key} = {bad}"));
                assert_eq!(e.key, format!("global_spreader.{key}"), "{e}");
                assert_eq!(e.line, Some(2), "{e}");
                assert!(e.message.contains(&format!("allowed {lo} to {hi}")), "{e}");
            }
        }
        for (key, good, bad, allowed) in [
            ("vertices_per_group", &[4, 8, 16][..], &[2, 5, 12, 32][..], "allowed 4, 8, 16"),
            ("vdt_depth", &[4, 256, 1024], &[2, 3, 100, 2048], "power of two from 4 to 1024"),
            ("pt_depth", &[2, 64, 1024], &[1, 0, 6, 2048], "power of two from 2 to 1024"),
        ] {
            for v in good {
                assert!(gs(&format!("{key} = {v}")).is_ok(), "{key}={v}");
            }
            for v in bad {
                let e = gs_err(&format!("{key} = {v}"));
                assert_eq!(e.key, format!("global_spreader.{key}"));
                assert!(e.message.contains(allowed), "{e}");
            }
        }
        // index_width's lower end follows VGRP and vdt_depth.
        assert!(gs("vertices_per_group = 16\nvdt_depth = 1024\nindex_width = 15").is_ok());
        let e = gs_err("vertices_per_group = 16\nvdt_depth = 1024\nindex_width = 14");
        assert_eq!(e.key, "global_spreader.index_width");
        assert!(e.message.contains("allowed 15 to 32"), "{e}");
        assert!(gs("vertices_per_group = 4\nvdt_depth = 4\nindex_width = 8").is_ok());
    }

    #[test]
    fn global_spreader_reset_values_follow_the_widths() {
        // res_total: 0 to 2^res_width-1, one value or one per EU.
        assert_eq!(gs("res_width = 4\nres_total = 15").unwrap().res_totals(), vec![15; 5]);
        let e = gs_err("res_width = 4\nres_total = 16");
        assert!(e.message.contains("allowed 0 to 15 (2^res_width-1)"), "{e}");
        assert_eq!(gs("eus = 3\nres_total = [0, 7, 4095]").unwrap().res_totals(), vec![0, 7, 4095]);
        let e = gs_err("eus = 3\nres_total = [1, 2]");
        assert!(e.message.contains("has 2 entries but global_spreader.eus = 3"), "{e}");
        let e = gs_err("eus = 3\nres_total = [1, -1, 2]");
        assert_eq!(e.key, "global_spreader.res_total[1]");
        assert_eq!(e.line, Some(3));
        // edt_total: 0 to 2^entity_width (a full EDT of 2^ENT_W records).
        assert_eq!(gs("entity_width = 3\nedt_total = [8, 0, 1, 2, 3]").unwrap().edt_totals(), vec![8, 0, 1, 2, 3]);
        let e = gs_err("entity_width = 3\nedt_total = 9");
        assert_eq!(e.key, "global_spreader.edt_total");
        assert!(e.message.contains("allowed 0 to 8 (2^entity_width)"), "{e}");
        // min_res / frame_res per type name.
        let c = gs("res_width = 5\nmin_res = { pixel = 31, vertex = 2 }\nframe_res.patch = 3").unwrap();
        assert_eq!((c.min_res_of(2), c.min_res_of(0), c.min_res_of(1), c.frame_res_of(3)), (31, 2, 0, 3));
        let e = gs_err("res_width = 5\n\n[global_spreader.min_res]\ntriangle = 1\npixel = 32\n");
        assert_eq!(e.key, "global_spreader.min_res.pixel");
        assert_eq!(e.line, Some(6));
        assert!(e.message.contains("allowed 0 to 31"), "{e}");
        let e = gs_err("frame_res = { pixle = 1 }");
        assert_eq!(e.key, "global_spreader.frame_res.pixle");
        assert!(e.message.contains("not a type: allowed vertex, triangle, pixel, patch"), "{e}");
        let e = gs_err("entity_types = [\"vertex\"]\nmin_res.patch = 1");
        assert_eq!(e.key, "global_spreader.min_res.patch");
        assert_eq!(e.line, Some(3));
        assert!(e.message.contains("not built"), "{e}");
    }

    #[test]
    fn global_spreader_eu_lists_and_types() {
        let c = gs("eus = 4\npriority = { pixel = [3, 1], vertex = [] }\ndedicated.triangle = [2, 2, 0]\neu_enable = [1]").unwrap();
        assert_eq!((c.priority_of(2), c.priority_of(0), c.priority_of(1)), (vec![3, 1], vec![], vec![0, 1, 2, 3]));
        assert_eq!(c.dedicated_of(1), vec![true, false, true, false]);
        assert_eq!(c.dedicated_of(3), vec![true; 4]);
        assert_eq!(c.eu_enabled(), vec![false, true, false, false]);
        // The contract's example key: an id beyond eus, located on its line.
        let e = gs_err("\n[global_spreader.priority]\npixel = [0, 1, 5]\n");
        assert_eq!(e.key, "global_spreader.priority.pixel[2]");
        assert_eq!(e.line, Some(4));
        assert_eq!(e.to_string(), "t.toml:4: key `global_spreader.priority.pixel[2]`: EU 5 is out of range: allowed EU ids 0 to 4 (global_spreader.eus = 5)");
        let e = gs_err("priority.vertex = [1, 2, 1]");
        assert_eq!(e.key, "global_spreader.priority.vertex[2]");
        assert!(e.message.contains("listed twice"), "{e}");
        let e = gs_err("dedicated = { patch = [0, -1] }");
        assert_eq!(e.key, "global_spreader.dedicated.patch[1]");
        let e = gs_err("eus = 2\neu_enable = [0, 2]");
        assert_eq!(e.key, "global_spreader.eu_enable[1]");
        assert_eq!(e.line, Some(3));
        // entity_types: non-empty, known, distinct, pixel needs triangle.
        let e = gs_err("entity_types = []");
        assert_eq!(e.key, "global_spreader.entity_types");
        assert!(e.message.contains("empty"), "{e}");
        let e = gs_err("entity_types = [\"vertex\", \"pixels\"]");
        assert_eq!(e.key, "global_spreader.entity_types[1]");
        let e = gs_err("entity_types = [\"patch\", \"patch\"]");
        assert!(e.message.contains("listed twice"), "{e}");
        let e = gs_err("entity_types = [\"vertex\", \"pixel\"]");
        assert_eq!(e.key, "global_spreader.entity_types");
        assert!(e.message.contains("needs \"triangle\""), "{e}");
        assert!(gs("entity_types = [\"triangle\"]").is_ok());
        assert!(gs("entity_types = [\"pixel\", \"triangle\"]").is_ok());
    }

    #[test]
    fn global_spreader_wrong_types_and_overrides() {
        for (body, key) in [
            ("eus = \"five\"", "global_spreader.eus"),
            ("locality = 1", "global_spreader.locality"),
            ("entity_types = \"vertex\"", "global_spreader.entity_types"),
            ("res_total = [1.5]", "global_spreader.res_total"),
            ("priority = [0, 1]", "global_spreader.priority"),
            ("eu_enable = 3", "global_spreader.eu_enable"),
            ("vdt_size = 3", "global_spreader.vdt_size"),
        ] {
            let e = gs_err(body);
            assert_eq!(e.key, key, "{body}: {e}");
            assert_eq!(e.line, Some(2), "{body}: {e}");
        }
        let c = load("[global_spreader]\n", &[
            "global_spreader.eus=3",
            "global_spreader.entity_types=[\"vertex\",\"triangle\"]",
            "global_spreader.priority={triangle=[2,0]}",
            "global_spreader.yield_enable=true",
        ]).unwrap();
        let g = c.global_spreader().unwrap();
        assert_eq!((g.eus, g.priority_of(1), g.yield_enable, g.has_type(2)), (3, vec![2, 0], true, false));
        let e = load("[global_spreader]\n", &["global_spreader.eus=33"]).unwrap_err();
        assert_eq!(e.key, "global_spreader.eus");
    }

    #[test]
    fn thread_merge_keys_ranges_types_and_derived_widths() {
        let c = Config::embedded(&[]).unwrap();
        assert_eq!(c.thread_merge().unwrap(), &ThreadMergeConfig::default());
        let d = ThreadMergeConfig::default();
        assert_eq!((d.lanes, d.slots, d.remap, d.pair_hold, d.merge_timeout, d.tag_width, d.prim_width), (4, 4, true, 4, 16, 32, 16));
        let c = load("[thread_merge]\n", &[]).unwrap();
        assert_eq!(c.blocks(), vec!["thread_merge"]);
        assert_eq!(c.thread_merge().unwrap(), &d);
        assert!(c.scoreboard().is_err());

        for (key, lo, hi) in [
            ("slots", 1, 32),
            ("pair_hold", 0, 255),
            ("merge_timeout", 0, 255),
            ("tag_width", 1, 64),
            ("prim_width", 1, 32),
        ] {
            for ok in [lo, hi] {
                assert!(load(&format!("[thread_merge]\n{key} = {ok}\n"), &[]).is_ok(), "{key}={ok}");
            }
            for bad in [lo - 1, hi + 1] {
                let e = load(&format!("# c\n[thread_merge]\n{key} = {bad}\n"), &[]).unwrap_err();
                assert_eq!(e.key, format!("thread_merge.{key}"));
                assert_eq!(e.line, Some(3));
                assert_eq!(e.to_string(), format!("t.toml:3: key `thread_merge.{key}`: {bad} is out of range: allowed {lo} to {hi}"));
            }
        }
        // lanes: only whole powers-of-two numbers of quads.
        for ok in [4, 8, 16, 32] {
            assert_eq!(load(&format!("[thread_merge]\nlanes = {ok}\n"), &[]).unwrap().thread_merge().unwrap().lanes, ok);
        }
        for bad in [-4, 0, 1, 2, 3, 5, 12, 24, 64] {
            let e = load(&format!("[thread_merge]\nlanes = {bad}\n"), &[]).unwrap_err();
            assert_eq!(e.key, "thread_merge.lanes");
            assert_eq!(e.line, Some(2));
            assert!(e.message.starts_with(&format!("{bad} is not allowed: allowed 4, 8, 16, 32")), "{e}");
        }
        // remap is a boolean; the numbers are integers; unknown keys are errors.
        for ok in ["true", "false"] {
            let c = load(&format!("[thread_merge]\nremap = {ok}\n"), &[]).unwrap();
            assert_eq!(c.thread_merge().unwrap().remap, ok == "true");
        }
        for (text, key) in [
            ("remap = 1", "remap"),
            ("remap = \"yes\"", "remap"),
            ("lanes = \"8\"", "lanes"),
            ("slots = 2.5", "slots"),
            ("tag_width = true", "tag_width"),
        ] {
            let e = load(&format!("[thread_merge]\nprim_width = 8\n{text}\n"), &[]).unwrap_err();
            assert!(e.message.contains("invalid type"), "{text}: {e}");
            assert_eq!(e.key, format!("thread_merge.{key}"), "{text}");
            assert_eq!(e.line, Some(3), "{text}");
        }
        let e = load("[thread_merge]\nlane = 8\n", &[]).unwrap_err();
        assert!(e.message.contains("unknown field `lane`"), "{e}");
        assert_eq!(e.key, "thread_merge.lane");
        // Overrides are checked like file values.
        let c = load("[thread_merge]\n", &["thread_merge.remap=false", "thread_merge.slots=1"]).unwrap();
        assert_eq!((c.thread_merge().unwrap().remap, c.thread_merge().unwrap().slots), (false, 1));
        let e = load("[thread_merge]\n", &["thread_merge.lanes=12"]).unwrap_err();
        assert_eq!(e.key, "thread_merge.lanes");
        let e = load("[thread_merge]\n", &["thread_merge.remap=2"]).unwrap_err();
        assert!(e.message.contains("invalid type"), "{e}");

        // TGID_W = 1 + ceil(log2 S), CNT_W = ceil(log2(S+1)), LANE_W = log2 LANES.
        let cfg = |slots, lanes| ThreadMergeConfig { slots, lanes, ..Default::default() };
        let slots = [1, 2, 3, 4, 5, 8, 9, 16, 17, 31, 32];
        let tgw: Vec<usize> = slots.iter().map(|s| cfg(*s, 4).tgid_bits()).collect();
        assert_eq!(tgw, vec![1, 2, 3, 3, 4, 4, 5, 5, 6, 6, 6]);
        let cnt: Vec<usize> = slots.iter().map(|s| cfg(*s, 4).cnt_bits()).collect();
        assert_eq!(cnt, vec![1, 2, 2, 3, 3, 4, 4, 5, 5, 5, 6]);
        let lw: Vec<usize> = [4, 8, 16, 32].iter().map(|l| cfg(4, *l).lane_bits()).collect();
        assert_eq!(lw, vec![2, 3, 4, 5]);
        assert_eq!([0, 1, 2, 3, 4, 15, 16, 254, 255].map(bits_for), [0, 1, 2, 2, 3, 4, 5, 8, 8]);
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

    // ---- [task_combiner] ----

    fn tc(body: &str) -> Result<TaskCombinerConfig, ConfigError> {
        load(&format!("[task_combiner]\n{body}"), &[]).map(|c| c.task_combiner.unwrap())
    }

    fn tc_err(body: &str) -> ConfigError {
        tc(body).expect_err(body)
    }

    #[test]
    fn task_combiner_default_matches_the_contract() {
        let c = Config::embedded(&[]).unwrap().task_combiner.unwrap();
        assert_eq!(c, TaskCombinerConfig::default());
        let d = tc("").unwrap();
        assert_eq!(d, TaskCombinerConfig::default());
        assert_eq!(
            (d.entries, d.width, d.tile_pipes, d.shader_types, d.state_width, d.ref_width, d.tag_gen_width),
            (16, 32, 4, 4, 8, 13, 4)
        );
        assert_eq!((d.policy(), d.sort_state), (Policy::Fullest, true));
        assert_eq!(d.capacities(), vec![32; 4]);
        assert_eq!(d.depends_rows(), vec![vec![], vec![0], vec![1], vec![0, 2]]);
        assert_eq!(load("[task_combiner]\n", &[]).unwrap().blocks(), vec!["task_combiner"]);
    }

    #[test]
    fn task_combiner_ranges_are_checked_at_both_ends() {
        for (key, lo, hi) in [
            ("entries", 1, 64),
            ("tile_pipes", 1, 8),
            ("shader_types", 1, 8),
            ("state_width", 1, 16),
            ("ref_width", 1, 32),
            ("tag_gen_width", 1, 8),
        ] {
            for ok in [lo, hi] {
                assert!(tc(&format!("{key} = {ok}\n")).is_ok(), "{key}={ok}");
            }
            for bad in [lo - 1, hi + 1] {
                let e = tc_err(&format!("\n{key} = {bad}\n"));
                assert_eq!((e.key.as_str(), e.line), (format!("task_combiner.{key}").as_str(), Some(3)), "{e}");
                assert!(e.message.contains(&format!("allowed {lo} to {hi}")), "{e}");
            }
        }
        for ok in [4, 8, 16, 32, 64] {
            assert_eq!(tc(&format!("width = {ok}\n")).unwrap().width, ok);
        }
        for bad in [0, 2, 12, 48, 128, -8] {
            let e = tc_err(&format!("width = {bad}\n"));
            assert_eq!(e.key, "task_combiner.width");
            assert!(e.message.contains("allowed 4, 8, 16, 32 or 64"), "{e}");
        }
    }

    #[test]
    fn task_combiner_policy_and_sort_state() {
        for (name, p) in [
            ("fullest", Policy::Fullest),
            ("oldest", Policy::Oldest),
            ("nodep_fullest", Policy::NodepFullest),
            ("nodep_oldest", Policy::NodepOldest),
        ] {
            let c = tc(&format!("policy = \"{name}\"\n")).unwrap();
            assert_eq!((c.policy(), c.policy().name()), (p, name));
        }
        assert!(Policy::NodepOldest.nodep() && !Policy::NodepOldest.fullest());
        assert!(Policy::Fullest.fullest() && !Policy::Fullest.nodep());
        let e = tc_err("policy = \"newest\"\n");
        assert_eq!((e.key.as_str(), e.line), ("task_combiner.policy", Some(2)));
        assert_eq!(
            e.to_string(),
            "t.toml:2: key `task_combiner.policy`: \"newest\" is not a policy: allowed \"fullest\", \"oldest\", \"nodep_fullest\" or \"nodep_oldest\""
        );
        assert!(!tc("sort_state = false\n").unwrap().sort_state);
        for (body, key) in [
            ("policy = 3\n", "task_combiner.policy"),
            ("sort_state = 1\n", "task_combiner.sort_state"),
            ("sort_state = \"yes\"\n", "task_combiner.sort_state"),
            ("entries = \"16\"\n", "task_combiner.entries"),
            ("capacity = 8\n", "task_combiner.capacity"),
            ("depends = [0, 1]\n", "task_combiner.depends"),
        ] {
            let e = tc_err(body);
            assert!(e.message.contains("invalid type"), "{body}: {e}");
            assert_eq!((e.key.as_str(), e.line), (key, Some(2)), "{body}");
        }
        let e = tc_err("slots = 4\n");
        assert_eq!(e.key, "task_combiner.slots");
    }

    #[test]
    fn task_combiner_capacity_one_per_type_within_width() {
        let c = tc("width = 8\ncapacity = [8, 4, 8, 1]\n").unwrap();
        assert_eq!(c.capacities(), vec![8, 4, 8, 1]);
        let c = tc("shader_types = 2\nwidth = 4\n").unwrap();
        assert_eq!(c.capacities(), vec![4, 4], "absent: width for every type");
        let e = tc_err("capacity = [8, 8, 8]\n");
        assert_eq!((e.key.as_str(), e.line), ("task_combiner.capacity", Some(2)));
        assert!(e.message.contains("has 3 values but task_combiner.shader_types = 4"), "{e}");
        let e = tc_err("shader_types = 2\ncapacity = [1, 2, 3]\n");
        assert!(e.message.contains("shader_types = 2"), "{e}");
        let e = tc_err("width = 8\n\ncapacity = [8, 9, 8, 8]\n");
        assert_eq!(
            e.to_string(),
            "t.toml:4: key `task_combiner.capacity[1]`: 9 is out of range: allowed 1 to 8 (task_combiner.width)"
        );
        let e = tc_err("capacity = [0, 32, 32, 32]\n");
        assert_eq!(e.key, "task_combiner.capacity[0]");
        assert!(e.message.contains("allowed 1 to 32"), "{e}");
        // An out-of-range width is reported once, for width itself.
        assert_eq!(tc_err("width = 5\ncapacity = [5, 5, 5, 5]\n").key, "task_combiner.width");
    }

    #[test]
    fn task_combiner_depends_rows_hold_distinct_lower_types() {
        let c = tc("depends = [[], [0], [0, 1], []]\n").unwrap();
        assert_eq!(c.depends_rows(), vec![vec![], vec![0], vec![0, 1], vec![]]);
        let c = tc("shader_types = 8\ndepends = [[], [0], [1], [0, 2], [3, 0, 1], [], [5], [6, 4]]\n").unwrap();
        assert_eq!(c.depends_rows()[7], vec![6, 4]);
        let e = tc_err("depends = [[], [0], [2], []]\n");
        assert_eq!(
            e.to_string(),
            "t.toml:2: key `task_combiner.depends[2]`: 2 is out of range: allowed shader types 0 to 1 (below 2), each at most once"
        );
        let e = tc_err("depends = [\n  [],\n  [0],\n  [1],\n  [0, 0],\n]\n");
        assert_eq!((e.key.as_str(), e.line), ("task_combiner.depends[3]", Some(2)));
        assert!(e.message.contains("0 is listed twice"), "{e}");
        let e = tc_err("depends = [[0], [], [], []]\n");
        assert_eq!(e.key, "task_combiner.depends[0]");
        assert!(e.message.contains("row 0 must be empty"), "{e}");
        let e = tc_err("depends = [[], [-1], [], []]\n");
        assert_eq!(e.key, "task_combiner.depends[1]");
        assert!(e.message.contains("-1 is out of range: allowed shader types 0 to 0"), "{e}");
        let e = tc_err("depends = [[], [0], [1]]\n");
        assert_eq!(e.key, "task_combiner.depends");
        assert!(e.message.contains("has 3 rows but task_combiner.shader_types = 4"), "{e}");
        // Default: the patent's stage order, cut to shader_types; types 4 to 7 consume nothing.
        let rows = |n: i64| TaskCombinerConfig { shader_types: n, ..Default::default() }.depends_rows();
        assert_eq!(rows(1), vec![Vec::<usize>::new()]);
        assert_eq!(rows(2), vec![vec![], vec![0]]);
        assert_eq!(rows(3), vec![vec![], vec![0], vec![1]]);
        assert_eq!(rows(6), vec![vec![], vec![0], vec![1], vec![0, 2], vec![], vec![]]);
    }

    #[test]
    fn task_combiner_overrides_and_derived_widths() {
        let c = load(
            "[task_combiner]\n",
            &[
                "task_combiner.policy=nodep_oldest",
                "task_combiner.sort_state=false",
                "task_combiner.width=8",
                "task_combiner.capacity=[8, 4, 8, 8]",
                "task_combiner.depends=[[], [0], [1], [2]]",
            ],
        )
        .unwrap()
        .task_combiner
        .unwrap();
        assert_eq!((c.policy(), c.sort_state, c.capacities()), (Policy::NodepOldest, false, vec![8, 4, 8, 8]));
        assert_eq!(c.depends_rows()[3], vec![2]);
        let e = load("[task_combiner]\n", &["task_combiner.depends=[[], [1], [], []]"]).unwrap_err();
        assert_eq!(e.key, "task_combiner.depends[1]");
        // (entries, width, tile_pipes, shader_types) -> (ENT_W, CNT_W, LANE_W, TP_W, STYPE_W)
        for ((n, w, t, s), want) in [
            ((1, 4, 1, 1), (1, 3, 2, 1, 1)),
            ((5, 8, 4, 4), (3, 4, 3, 2, 2)),
            ((16, 32, 4, 4), (4, 6, 5, 2, 2)),
            ((17, 16, 5, 5), (5, 5, 4, 3, 3)),
            ((64, 64, 8, 8), (6, 7, 6, 3, 3)),
        ] {
            let c = TaskCombinerConfig { entries: n, width: w, tile_pipes: t, shader_types: s, ..Default::default() };
            assert_eq!((c.ent_bits(), c.cnt_bits(), c.lane_bits(), c.tp_bits(), c.stype_bits()), want, "{n} {w} {t} {s}");
            assert_eq!(c.tag_bits(), 4 + want.0);
        }
    }
}
