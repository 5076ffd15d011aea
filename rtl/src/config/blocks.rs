//! The blocks' config tables: their fields and defaults, and each block's validation (the global
//! spreader's derived values and validation are in `global_spreader.rs`).

use super::*;

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
    /// Dependency sets of the scoreboard branch (2 to 4): A, B, then C and D. The branch goes
    /// to the first satisfied set in that order and stalls while none is (spec §2.8, B20).
    pub branch_sets: i64,
    /// Maximum count per tracker (TRK_MAX): one number for all trackers, or a list
    /// with one entry per tracker. Absent: 2^counter_width - 1 for every tracker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_count: Option<MaxCount>,
    /// The performance-counter bank and the error clear (`perf_sel`, `perf_val`, `perf_clr`,
    /// `err_clr`; docs/perf.md, rules SB3-SB4 of docs/blocks/scoreboard.md). false: no such port.
    pub perf_counters: bool,
    /// Trackers with an implicit fence (rule SB5 of docs/blocks/scoreboard.md; spec [0050],
    /// [0159]): an instruction counted on one of them also waits for that tracker of its group
    /// to be zero, as if its dependency mask named it. Empty (the default): no implicit fence.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub implicit_fence: Vec<i64>,
    /// Fetch gating over the scoreboard branch's sets (rule SB6 of docs/blocks/scoreboard.md;
    /// spec [0144], [0145], §8 item 7): the instruction before a branch annotates all of its
    /// `branch_sets` sets (`iss_nxt_br`, `iss_nxt_mask_b` ..), and `fetch_ok` opens when any one
    /// of them has drained. false: one wait mask per group, no such port.
    pub branch_fetch_gate: bool,
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
            branch_sets: 2,
            max_count: None,
            perf_counters: false,
            implicit_fence: vec![],
            branch_fetch_gate: false,
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
    /// Flags a compound branch can select from each entry: "nz" (`de_br_f`/`de_br_g` 1 bit,
    /// 0 N, 1 Z) or "cnvz" (2 bits, the bit index of `de_br_sel`: 3 C, 2 N, 1 V, 0 Z).
    pub compound_flags: String,
    /// Producers beyond what the stack takes in one cycle: "drop" (B21/B22: suppressed,
    /// `err_port`/`err_multi`) or "stall" (held through `cc_ready`, rule S1).
    pub producer_conflict: String,
    /// The performance-counter bank (`perf_sel`, `perf_val`, `perf_clr`; docs/perf.md).
    /// false: no such port. (`err_clr` is always there.)
    pub perf_counters: bool,
    /// Thread groups (warps), each with its own stack and PC (rule G1–G7 of
    /// docs/blocks/branch_stack.md): 1, 2, 4, 8, 16 or 32. 1: no group port, today's block.
    pub thread_groups: i64,
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
            compound_flags: "nz".into(),
            producer_conflict: "drop".into(),
            perf_counters: false,
            thread_groups: 1,
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
    /// The performance-counter bank and the error clear (`perf_sel`, `perf_val`, `perf_clr`,
    /// `err_clr`; docs/perf.md, rules G1-G2 of docs/blocks/global_spreader.md). false: no such port.
    pub perf_counters: bool,
    /// R6's choice among the candidates that fit and have not refused: "first_fit" (the first
    /// in candidate order), "least_loaded" (the home if locality allows it, else the most
    /// FREE_RES, ties to the first in PRIO order) or "round_robin" (the home if locality allows
    /// it, else the first in EU order from RR_PTR, circularly). Not written out when "first_fit".
    #[serde(skip_serializing_if = "GlobalSpreaderConfig::is_first_fit")]
    pub select: String,
    /// Class aging (contract R7a): a slot eligible but passed over in this many grant decisions
    /// is granted before the class priority order; 0 (the default): no aging, R7 as written.
    pub aging: i64,
    /// The class priority order (contract R7b): every built type once, the first granted first.
    /// None: the fixed order pixel, triangle, patch, vertex (R7 as written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub class_priority: Option<Vec<String>>,
    /// CLASS_PRIO (contract R7b, address 0x005): the ranks in a register, reset to
    /// `class_priority`'s positions. false: the order is a constant.
    pub class_priority_reg: bool,
    /// Pixel order (contract R14): the entries of the pixel reorder buffer (a power of two 2 to
    /// 64; pixel must be built): each acknowledged pixel packet gets a sequence number, and the
    /// EUs' completions leave in ack order. 0 (the default): none, no port.
    pub pixel_reorder: i64,
    /// Set-associative VDT (contract R15): the VDT's vdt_depth entries as this many ways (1, 2
    /// or 4) of vdt_depth / ways sets each; 1 (the default): direct mapped, R4 and R8 as written.
    pub vdt_ways: i64,
    /// Resource kinds (contract R16): 1 to 4 names, the first the kind of the top-level
    /// `res_total`, `min_res`, `frame_res`; None (the default) or one name: one kind, R4 / R8 /
    /// R9 as written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resources: Option<Vec<String>>,
    /// Per kind name but the first (R16): its own `res_total`, `min_res`, `frame_res`.
    #[serde(skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub resource: std::collections::BTreeMap<String, ResourceKindConfig>,
}

/// `[global_spreader.resource.<name>]`: a resource kind's reset values (contract R16); a key
/// left out takes the top-level key's default.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ResourceKindConfig {
    /// RES_TOTAL[e][k] after reset: one value for all EUs, or one per EU.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub res_total: Option<PerEu>,
    /// Per type name: MIN_RES[t][k].
    pub min_res: std::collections::BTreeMap<String, i64>,
    /// Per type name: FRAME_RES[t][k].
    pub frame_res: std::collections::BTreeMap<String, i64>,
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
            perf_counters: false,
            select: "first_fit".into(),
            aging: 0,
            class_priority: None,
            class_priority_reg: false,
            pixel_reorder: 0,
            vdt_ways: 1,
            resources: None,
            resource: Default::default(),
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
    /// The issue order among the eligible tasks (contract R4), after `sort_state`'s
    /// restriction: "oldest" (creation order) or "fullest" (most instances, ties to the oldest).
    pub issue_order: String,
    /// The issue pick is registered: chosen in one cycle, moved into the output slot in the next
    /// (contract R4r; one more cycle from PENDING to `out_valid`, a shorter clock path).
    pub registered_issue: bool,
    /// The instance enters through an input register (contract R2i): `in_ready` comes from
    /// registers and `drain_req`, the instance's tag and lane come a cycle later with
    /// `in_tag_valid` (one more cycle from the instance port, a shorter clock path).
    pub registered_input: bool,
    /// Instances per task, one value per shader type. Absent: `width` for every type.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capacity: Option<Vec<i64>>,
    /// Row s: the shader types whose tasks a type-s instance consumes (all < s).
    /// Absent: the patent's stage order (see [`TaskCombinerConfig::depends_rows`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depends: Option<Vec<Vec<i64>>>,
    /// The performance-counter bank (`perf_sel`, `perf_val`, `perf_clr`; docs/perf.md, rule P1
    /// of docs/blocks/task_combiner.md). No `err_clr`: the block has no sticky error flag (D3).
    /// false: no such port.
    pub perf_counters: bool,
    /// Full consumer tasks that may wait in the table for OPEN producer tasks (contract R5h):
    /// 0 to 15; 0: a consumer's PENDING state makes its producers leave (R5).
    pub hold_producers: i64,
    /// Producer tags per instance (contract D3t): 0 to 4; 0: dependencies from `depends`
    /// alone (D3), no `in_dep_*`, `err_dep` or `err_clr` port.
    pub dep_tags: i64,
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
            issue_order: "oldest".into(),
            registered_issue: false,
            registered_input: false,
            capacity: None,
            depends: None,
            perf_counters: false,
            hold_producers: 0,
            dep_tags: 0,
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
    /// The performance-counter bank and the error clear (`perf_sel`, `perf_val`, `perf_clr`,
    /// `err_clr`; docs/perf.md, contract R16-R17). false: no such port.
    pub perf_counters: bool,
    /// A candidate may pair with a fragment of another primitive, and a primitive change no
    /// longer makes it leave (contract R18). false: pairs within one primitive (R4).
    pub cross_primitive: bool,
    /// Held candidates K, 1 to 4 (contract R19): a fragment pairs with the oldest held one it
    /// fits, and one that fits none is held too while fewer than K are. 1: R4's one register.
    pub candidates: i64,
    /// Groups a slot holds and merges, W = 2 to 4 (contract R20): a candidate set of up to
    /// W-1 held fragments grows until W, full coverage or the run's end. 2: pairs.
    pub merge_ways: i64,
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
            perf_counters: false,
            cross_primitive: false,
            candidates: 1,
            merge_ways: 2,
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

    pub(super) fn parse(s: &str) -> Option<Policy> {
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
pub(super) const PATENT_DEPENDS: [&[i64]; 4] = [&[], &[0], &[1], &[0, 2]];

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

    /// Dependency sets beyond A and B (0 to 2): sets C and D of the scoreboard branch.
    pub fn extra_branch_sets(&self) -> usize {
        (self.branch_sets - 2) as usize
    }

    /// SB6: the wait masks per group beyond the first (set A's, `iss_nxt_mask`): the
    /// branch's sets B .. with `branch_fetch_gate`, none without.
    pub fn gate_sets(&self) -> usize {
        if self.branch_fetch_gate { self.branch_sets as usize - 1 } else { 0 }
    }

    /// Bits of a tracker id: max(1, ceil(log2 trackers)).
    pub fn trk_bits(&self) -> usize {
        id_bits(self.trackers as usize)
    }

    /// The counters before the per-port ones, in `perf_sel` order (docs/perf.md, rule SB3);
    /// counter `PERF_FIXED.len() + p` is `cpl_<p>`, completions on port p.
    pub const PERF_FIXED: [&'static str; 6] =
        ["issue", "stall_issue", "stall_dep", "stall_sat", "stall_fetch", "err_underflow_ev"];

    /// Every counter's name in `perf_sel` order (also without `perf_counters`).
    pub fn perf_names(&self) -> Vec<String> {
        let ports = (0..self.completion_ports).map(|p| format!("cpl_{p}"));
        Self::PERF_FIXED.iter().map(|n| n.to_string()).chain(ports).collect()
    }

    /// NCNT, the counters of the bank: 0 without `perf_counters`.
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { self.perf_names().len() } else { 0 }
    }

    /// PSW = max(1, ceil(log2 NCNT)), the width of `perf_sel`.
    pub fn perf_sel_bits(&self) -> usize {
        id_bits(self.perf_names().len())
    }

    /// SB5: bit t set when tracker t has an implicit fence.
    pub fn fence_mask(&self) -> u64 {
        self.implicit_fence.iter().fold(0, |m, &t| m | 1 << t)
    }

    pub(super) fn validate(&self, chk: &mut Checker) {
        chk.key_range("scoreboard.thread_groups", self.thread_groups);
        let trk_ok = chk.key_range("scoreboard.trackers", self.trackers);
        let key = "scoreboard.implicit_fence";
        for (k, t) in self.implicit_fence.iter().enumerate() {
            if !trk_ok {
                break;
            }
            if !(0..self.trackers).contains(t) {
                chk.fail(key, format!(
                    "{t} is out of range: allowed tracker indices 0 to {} (scoreboard.trackers - 1), each at most once",
                    self.trackers - 1));
            } else if self.implicit_fence[..k].contains(t) {
                chk.fail(key, format!("{t} is listed twice: allowed tracker indices 0 to {}, each at most once", self.trackers - 1));
            }
        }
        let width_ok = chk.key_range("scoreboard.counter_width", self.counter_width);
        chk.key_range("scoreboard.completion_ports", self.completion_ports);
        chk.key_range("scoreboard.branch_sets", self.branch_sets);
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

    /// The TOML spellings of `compound_flags` and `producer_conflict`, the default first.
    pub const COMPOUND_FLAGS: [&'static str; 2] = ["nz", "cnvz"];
    pub const PRODUCER_CONFLICT: [&'static str; 2] = ["drop", "stall"];

    /// `compound_flags = "cnvz"`: `de_br_f`/`de_br_g` are 2-bit flag indices.
    pub fn cnvz(&self) -> bool {
        self.compound_flags == "cnvz"
    }

    /// `producer_conflict = "stall"`: the block has `cc_ready` and holds producers.
    pub fn stall(&self) -> bool {
        self.producer_conflict == "stall"
    }

    /// Performance counters of the bank (docs/perf.md): 0 without `perf_counters`.
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { Self::PERF_NAMES.len() } else { 0 }
    }

    /// TG_W = log2 thread_groups, the width of a thread-group id; 0 at one group (no id port).
    pub fn tg_bits(&self) -> usize {
        (self.thread_groups.max(1) as u64).trailing_zeros() as usize
    }

    /// The counters in `perf_sel` order (docs/perf.md, docs/blocks/branch_stack.md rule P1).
    pub const PERF_NAMES: [&'static str; 10] = [
        "push", "pop", "branch", "taken", "stall_cc", "stall_pc", "err_ovf_ev", "err_udf_ev", "err_port_ev", "err_multi_ev",
    ];

    /// PSW = max(1, ceil(log2 NCNT)), the width of `perf_sel`.
    pub fn perf_sel_bits(&self) -> usize {
        super::id_bits(Self::PERF_NAMES.len())
    }

    pub(super) fn validate(&self, chk: &mut Checker) {
        for (key, v, names, what) in [
            ("branch_stack.compound_flags", &self.compound_flags, Self::COMPOUND_FLAGS, "a flag set"),
            ("branch_stack.producer_conflict", &self.producer_conflict, Self::PRODUCER_CONFLICT, "a conflict mode"),
        ] {
            if !names.contains(&v.as_str()) {
                chk.fail(key, format!("\"{}\" is not {what}: allowed \"{}\" or \"{}\"", shorten(v), names[0], names[1]));
            }
        }
        chk.key_range("branch_stack.depth", self.depth);
        chk.key_range("branch_stack.producer_stages", self.producer_stages);
        let t = self.thread_groups;
        if !((1..=32).contains(&t) && t.count_ones() == 1) {
            chk.fail("branch_stack.thread_groups", format!(
                "{t} is out of range: allowed 1, 2, 4, 8, 16 or 32 (a power of two, so that every group id names a group)"));
        }
        if !chk.key_range("branch_stack.pc_width", self.pc_width) {
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

pub(super) fn per_eu(v: &Option<PerEu>, n: usize, dflt: u64) -> Vec<u64> {
    match v {
        None => vec![dflt; n],
        Some(PerEu::All(x)) => vec![*x as u64; n],
        Some(PerEu::Each(l)) => l.iter().map(|x| *x as u64).collect(),
    }
}

pub(super) fn ids_to_flags(ids: Option<&Vec<i64>>, n: usize) -> Vec<bool> {
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

    /// The counters in `perf_sel` order (docs/perf.md, docs/blocks/task_combiner.md rule P1);
    /// the last, `err_dep_ev`, only with `dep_tags` (see [`Self::perf_names`]).
    pub const PERF_NAMES: [&'static str; 13] = [
        "inst_acc", "tasks_out", "stall_in", "stall_drain", "stall_out",
        "out_full", "out_evict", "out_dep", "out_rqflush", "out_drain", "lock_hit", "rqf_acc",
        "err_dep_ev",
    ];

    /// This config's counters in `perf_sel` order (also without `perf_counters`): 12, and
    /// `err_dep_ev` with `dep_tags` (the sticky `err_dep` exists only then).
    pub fn perf_names(&self) -> &'static [&'static str] {
        &Self::PERF_NAMES[..if self.dep_tags > 0 { 13 } else { 12 }]
    }

    /// Performance counters of the bank (docs/perf.md): 0 without `perf_counters`.
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { self.perf_names().len() } else { 0 }
    }

    /// PSW = max(1, ceil(log2 NCNT)), the width of `perf_sel`.
    pub fn perf_sel_bits(&self) -> usize {
        id_bits(self.perf_names().len())
    }

    /// K = `dep_tags`, producer tags per instance (contract D3t); 0: none.
    pub fn dep_tag_count(&self) -> usize {
        self.dep_tags as usize
    }

    /// The validated policy.
    pub fn policy(&self) -> Policy {
        Policy::parse(&self.policy).expect("validated policy")
    }

    /// The allowed `issue_order` values, in the order of the contract.
    pub const ISSUE_ORDERS: [&'static str; 2] = ["oldest", "fullest"];

    /// R4 with `issue_order = "fullest"`: the issue takes the fullest eligible task first.
    pub fn issue_fullest(&self) -> bool {
        self.issue_order == "fullest"
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

    pub(super) fn validate(&self, chk: &mut Checker) {
        chk.key_range("task_combiner.entries", self.entries);
        let width_ok = TaskCombinerConfig::WIDTHS.contains(&self.width);
        if !width_ok {
            chk.fail("task_combiner.width", format!(
                "{} is not allowed: allowed 4, 8, 16, 32 or 64 (lanes per task, a power of two)", self.width));
        }
        chk.key_range("task_combiner.tile_pipes", self.tile_pipes);
        let types_ok = chk.key_range("task_combiner.shader_types", self.shader_types);
        chk.key_range("task_combiner.state_width", self.state_width);
        chk.key_range("task_combiner.ref_width", self.ref_width);
        chk.key_range("task_combiner.tag_gen_width", self.tag_gen_width);
        chk.key_range("task_combiner.hold_producers", self.hold_producers);
        if chk.key_range("task_combiner.dep_tags", self.dep_tags) && self.dep_tags > 0 && self.entries == 1 {
            chk.fail("task_combiner.dep_tags", format!(
                "{} needs task_combiner.entries >= 2: allowed 0 with 1 entry (a one-entry table has no dependencies)",
                self.dep_tags));
        }
        if Policy::parse(&self.policy).is_none() {
            chk.fail("task_combiner.policy", format!(
                "\"{}\" is not a policy: allowed \"fullest\", \"oldest\", \"nodep_fullest\" or \"nodep_oldest\"",
                shorten(&self.policy)));
        }
        if !Self::ISSUE_ORDERS.contains(&self.issue_order.as_str()) {
            chk.fail("task_combiner.issue_order", format!(
                "\"{}\" is not an issue order: allowed \"oldest\" or \"fullest\"", shorten(&self.issue_order)));
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

    /// Member ids per slot: 2 for pairs, 4 with merge_ways 3 or 4 (contract R20).
    pub fn slot_ids(&self) -> usize {
        if self.merge_ways > 2 { 4 } else { 2 }
    }

    /// Thread-group ids: slot_ids * slots.
    pub fn groups(&self) -> usize {
        self.slot_ids() * self.slots as usize
    }

    /// TGID_W = MW + ceil(log2 slots), MW = 1 for pairs, 2 with merge_ways 3 or 4.
    pub fn tgid_bits(&self) -> usize {
        bits_for(self.slot_ids() as u64 - 1) + bits_for(self.slots as u64 - 1)
    }

    /// LANE_W = log2(lanes).
    pub fn lane_bits(&self) -> usize {
        bits_for(self.lanes as u64 - 1)
    }

    /// CNT_W = ceil(log2(slots + 1)), the width of `free_cnt`.
    pub fn cnt_bits(&self) -> usize {
        bits_for(self.slots as u64)
    }

    /// Performance counters of the bank (docs/perf.md): 0 without `perf_counters`.
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { Self::PERF_NAMES.len() } else { 0 }
    }

    /// The counters in `perf_sel` order (docs/perf.md, contract R16).
    pub const PERF_NAMES: [&'static str; 9] = [
        "frag_acc", "grp_out", "rsp_out", "stall_frag", "stall_grp", "stall_me", "err_proto_ev", "err_xlane_ev", "stall_slot",
    ];

    /// PSW = max(1, ceil(log2 NCNT)), the width of `perf_sel`.
    pub fn perf_sel_bits(&self) -> usize {
        super::id_bits(Self::PERF_NAMES.len())
    }

    pub(super) fn validate(&self, chk: &mut Checker) {
        if !Self::LANES.contains(&self.lanes) {
            chk.fail("thread_merge.lanes", format!(
                "{} is not allowed: allowed 4, 8, 16, 32 (lanes per thread group: 1, 2, 4 or 8 quads of 2x2)",
                self.lanes));
        }
        chk.key_range("thread_merge.slots", self.slots);
        chk.key_range("thread_merge.pair_hold", self.pair_hold);
        chk.key_range("thread_merge.merge_timeout", self.merge_timeout);
        chk.key_range("thread_merge.tag_width", self.tag_width);
        chk.key_range("thread_merge.prim_width", self.prim_width);
        chk.key_range("thread_merge.candidates", self.candidates);
        if chk.key_range("thread_merge.merge_ways", self.merge_ways) && self.merge_ways > 2 && self.candidates > 1 {
            chk.fail("thread_merge.merge_ways", format!(
                "{} needs thread_merge.candidates = 1: allowed 2 with candidates {} (a set of more than two groups is formed in the one candidate register, contract R20)",
                self.merge_ways, self.candidates));
        }
    }
}
