//! The block's interface: its parameters (contract §2) with the victim policy (R3), and
//! the inputs and outputs of one cycle (contract §3) with the `out_reason` encoding.

/// Eviction victim policy (contract R3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// Max count, ties to the oldest.
    Fullest,
    /// The oldest (creation order).
    Oldest,
    /// Fullest among entries with an empty dependency row, if any.
    NodepFullest,
    /// Oldest among entries with an empty dependency row, if any.
    NodepOldest,
}

impl Policy {
    pub const ALL: [Policy; 4] = [
        Policy::Fullest,
        Policy::Oldest,
        Policy::NodepFullest,
        Policy::NodepOldest,
    ];

    /// The TOML spelling.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Fullest => "fullest",
            Policy::Oldest => "oldest",
            Policy::NodepFullest => "nodep_fullest",
            Policy::NodepOldest => "nodep_oldest",
        }
    }
}

/// Why a task left the table (`out_reason` encoding, contract §3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    Full = 1,
    Evict = 2,
    Dep = 3,
    Rqflush = 4,
    Drain = 5,
}

impl Reason {
    pub const ALL: [Reason; 5] = [
        Reason::Full,
        Reason::Evict,
        Reason::Dep,
        Reason::Rqflush,
        Reason::Drain,
    ];

    pub fn code(self) -> u64 {
        self as u64
    }

    pub fn from_code(c: u64) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == c)
    }
}

/// Block parameters (contract §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskCombinerParams {
    /// Table entries N_ENTRIES, 1..=128.
    pub entries: usize,
    /// Lanes per task SIMD_W: 4, 8, 16, 32 or 64.
    pub width: usize,
    /// Tile pipelines N_TPIPE (lock-mask bits), 1..=8.
    pub tile_pipes: usize,
    /// Shader types, 1..=8 (0 VS, 1 HS, 2 DS, 3 GS, then user types).
    pub shader_types: usize,
    /// Bits of the state id, 1..=16.
    pub state_width: u32,
    /// Bits of an instance reference, 1..=32.
    pub ref_width: u32,
    /// Generation bits of a task tag, 1..=8.
    pub tag_gen_width: u32,
    pub policy: Policy,
    /// Issue prefers the state of the last task moved into the slot.
    pub sort_state: bool,
    /// R4 with `issue_order = "fullest"`: among the eligible tasks (after `sort_state`'s
    /// preference) the one with the most instances goes first, ties to the oldest; false: the
    /// oldest.
    pub issue_fullest: bool,
    /// R4r: the task that moves into the slot was picked in the cycle before, from the
    /// registered state then (one more cycle from PENDING to the out port).
    pub registered_issue: bool,
    /// R2i: the instance enters through an input register IR: `in_ready` from registers and
    /// `drain_req`, the instance's tag and lane a cycle later with `in_tag_valid` (one more
    /// cycle from the instance port).
    pub registered_input: bool,
    /// Instances per task, per shader type (each 1..=width).
    pub capacity: Vec<usize>,
    /// `depends[s]`: the shader types whose tasks a type-`s` instance consumes (each < s).
    pub depends: Vec<Vec<usize>>,
    /// The performance counters (`perf_counters`; rule P1 of docs/blocks/task_combiner.md).
    pub perf_counters: bool,
    /// R5h: full consumer tasks that may wait on an OPEN producer, 0..=15 (0: R5 as written).
    pub hold_producers: usize,
    /// D3t: producer tags per instance, 0..=4 (0: D3 alone, no `in_dep_*` / `err_*` port).
    pub dep_tags: usize,
}

/// `ceil(log2 n)` (0 for n <= 1).
pub fn clog2(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

/// All-ones mask of `bits` bits.
pub fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl TaskCombinerParams {
    /// The patent's stage-order matrix (VS: [], HS: [VS], DS: [HS], GS: [VS, DS]) cut to
    /// `shader_types` rows with out-of-range columns dropped; types 4..7 depend on nothing.
    pub fn default_depends(shader_types: usize) -> Vec<Vec<usize>> {
        let full: [&[usize]; 4] = [&[], &[0], &[1], &[0, 2]];
        (0..shader_types)
            .map(|s| {
                full.get(s)
                    .map(|row| row.iter().copied().filter(|&t| t < shader_types).collect())
                    .unwrap_or_default()
            })
            .collect()
    }

    /// The TOML defaults (contract §2): 16 entries, width 32, 4 tile pipes, 4 shader
    /// types, 8-bit states, 13-bit refs, 4 generation bits, fullest, sort_state,
    /// capacity = width, the patent dependency matrix.
    pub fn defaults() -> Self {
        Self::with_shape(16, 32)
    }

    /// The defaults with another table size and width (capacity = width).
    pub fn with_shape(entries: usize, width: usize) -> Self {
        TaskCombinerParams {
            entries,
            width,
            tile_pipes: 4,
            shader_types: 4,
            state_width: 8,
            ref_width: 13,
            tag_gen_width: 4,
            policy: Policy::Fullest,
            sort_state: true,
            issue_fullest: false,
            registered_issue: false,
            registered_input: false,
            capacity: vec![width; 4],
            depends: Self::default_depends(4),
            perf_counters: false,
            hold_producers: 0,
            dep_tags: 0,
        }
    }

    /// Spec §11.1 configuration C0 under contract §6: 5 entries, width 8, 4 tile pipes,
    /// 4 shader types, 4-bit states, 13-bit refs, 4 generation bits, fullest, sort_state,
    /// capacity 8, default dependencies.
    pub fn spec_c0() -> Self {
        TaskCombinerParams {
            state_width: 4,
            ..Self::with_shape(5, 8)
        }
    }

    /// C1 = C0 with 4 entries.
    pub fn spec_c1() -> Self {
        TaskCombinerParams {
            entries: 4,
            ..Self::spec_c0()
        }
    }

    pub fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }

    /// ENT_W = max(1, clog2(entries)).
    pub fn ent_w(&self) -> u32 {
        clog2(self.entries).max(1)
    }
    /// TAG_W = tag_gen_width + ENT_W.
    pub fn tag_w(&self) -> u32 {
        self.tag_gen_width + self.ent_w()
    }
    /// CNT_W = clog2(width + 1).
    pub fn cnt_w(&self) -> u32 {
        clog2(self.width + 1)
    }
    /// LANE_W = clog2(width).
    pub fn lane_w(&self) -> u32 {
        clog2(self.width)
    }
    /// TP_W = max(1, clog2(tile_pipes)).
    pub fn tp_w(&self) -> u32 {
        clog2(self.tile_pipes).max(1)
    }
    /// STYPE_W = max(1, clog2(shader_types)).
    pub fn stype_w(&self) -> u32 {
        clog2(self.shader_types).max(1)
    }

    /// Capacity of shader type `s` (width for a type out of range).
    pub fn cap(&self, s: usize) -> usize {
        self.capacity.get(s).copied().unwrap_or(self.width)
    }

    /// Bit mask of the types that a type-`s` instance depends on.
    pub fn depends_mask(&self, s: usize) -> u64 {
        self.depends
            .get(s)
            .map(|row| row.iter().fold(0, |m, &t| m | 1 << t))
            .unwrap_or(0)
    }

    /// Check the ranges of contract §2.
    pub fn validate(&self) -> Result<(), String> {
        let bad = |what: &str, v: String, range: &str| {
            Err(format!("task_combiner.{what} = {v} is outside {range}"))
        };
        if !(1..=128).contains(&self.entries) {
            return bad("entries", self.entries.to_string(), "1..=128");
        }
        if self.dep_tags > 4 || (self.dep_tags > 0 && self.entries < 2) {
            return bad("dep_tags", self.dep_tags.to_string(), "0..=4, and 0 with 1 entry");
        }
        if ![4, 8, 16, 32, 64].contains(&self.width) {
            return bad("width", self.width.to_string(), "{4, 8, 16, 32, 64}");
        }
        if !(1..=8).contains(&self.tile_pipes) {
            return bad("tile_pipes", self.tile_pipes.to_string(), "1..=8");
        }
        if !(1..=8).contains(&self.shader_types) {
            return bad("shader_types", self.shader_types.to_string(), "1..=8");
        }
        if !(1..=16).contains(&self.state_width) {
            return bad("state_width", self.state_width.to_string(), "1..=16");
        }
        if !(1..=32).contains(&self.ref_width) {
            return bad("ref_width", self.ref_width.to_string(), "1..=32");
        }
        if !(1..=8).contains(&self.tag_gen_width) {
            return bad("tag_gen_width", self.tag_gen_width.to_string(), "1..=8");
        }
        if self.hold_producers > 15 {
            return bad("hold_producers", self.hold_producers.to_string(), "0..=15");
        }
        if self.capacity.len() != self.shader_types {
            return bad(
                "capacity",
                format!("{:?}", self.capacity),
                "a list of shader_types values",
            );
        }
        if let Some(s) =
            (0..self.shader_types).find(|&s| !(1..=self.width).contains(&self.capacity[s]))
        {
            return bad(
                &format!("capacity[{s}]"),
                self.capacity[s].to_string(),
                &format!("1..={}", self.width),
            );
        }
        if self.depends.len() != self.shader_types {
            return bad(
                "depends",
                format!("{:?}", self.depends),
                "a list of shader_types lists",
            );
        }
        for (s, row) in self.depends.iter().enumerate() {
            let distinct = row.iter().enumerate().all(|(k, t)| !row[..k].contains(t));
            if !distinct || row.iter().any(|&t| t >= s) {
                return bad(
                    &format!("depends[{s}]"),
                    format!("{row:?}"),
                    &format!("distinct types < {s}"),
                );
            }
        }
        Ok(())
    }
}

/// Block inputs for one cycle (contract §3, all but `clock`). Values wider than their
/// port are truncated to the port width, as the Verilog port would.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskCombinerInputs {
    /// Synchronous, active-high reset.
    pub reset: bool,
    pub in_valid: bool,
    pub in_stype: u64,
    pub in_state: u64,
    pub in_ref: u64,
    pub in_tpipe: u64,
    pub lk_valid: bool,
    pub lk_tag: u64,
    pub lk_tpipe: u64,
    pub rqf_valid: bool,
    pub rqf_tpipe: u64,
    pub drain_req: bool,
    pub out_ready: bool,
    /// Rule P1 (with `perf_counters` only; ignored otherwise): counter index, clear.
    pub perf_sel: u64,
    pub perf_clr: bool,
    /// D3t (with `dep_tags` = K only; ignored otherwise): bit k = producer tag k given; tag k
    /// at bits [k*TAG_W +: TAG_W]; the sticky flag's clear.
    pub in_dep_vld: u64,
    pub in_dep_tag: u64,
    pub err_clr: bool,
}

impl TaskCombinerInputs {
    /// All inputs 0 (the sink is not ready).
    pub fn idle(_p: &TaskCombinerParams) -> Self {
        Self::default()
    }

    /// Present an instance `I(stype, state, ref, tpipe)`.
    pub fn inst(mut self, stype: u64, state: u64, r: u64, tpipe: u64) -> Self {
        self.in_valid = true;
        self.in_stype = stype;
        self.in_state = state;
        self.in_ref = r;
        self.in_tpipe = tpipe;
        self
    }

    /// Name producer tags (D3t): tag k of `tags` in slot k, the rest not given.
    pub fn deps(mut self, p: &TaskCombinerParams, tags: &[u64]) -> Self {
        let tw = p.tag_w();
        self.in_dep_vld = 0;
        self.in_dep_tag = 0;
        for (k, t) in tags.iter().enumerate() {
            self.in_dep_vld |= 1 << k;
            self.in_dep_tag |= (t & ones(tw)) << (k as u32 * tw);
        }
        self
    }

    /// D3t: the producer tags given (`in_dep_vld` set), in slot order, for `p.dep_tags` slots.
    pub fn dep_tags<'a>(&'a self, p: &TaskCombinerParams) -> impl Iterator<Item = u64> + 'a {
        let tw = p.tag_w();
        (0..p.dep_tags)
            .filter(move |&k| self.in_dep_vld >> k & 1 == 1)
            .map(move |k| self.in_dep_tag >> (k as u32 * tw) & ones(tw))
    }

    /// Lock the task tagged `tag` for tile pipe `tpipe`.
    pub fn lk(mut self, tag: u64, tpipe: u64) -> Self {
        self.lk_valid = true;
        self.lk_tag = tag;
        self.lk_tpipe = tpipe;
        self
    }

    /// Request a render-queue flush of tile pipe `tpipe`.
    pub fn rqf(mut self, tpipe: u64) -> Self {
        self.rqf_valid = true;
        self.rqf_tpipe = tpipe;
        self
    }

    pub fn drain(mut self) -> Self {
        self.drain_req = true;
        self
    }

    pub fn ready(mut self, r: bool) -> Self {
        self.out_ready = r;
        self
    }

    pub fn with_reset(mut self) -> Self {
        self.reset = true;
        self
    }
}

/// A set of table entries, bit e = entry e: `entries` goes up to 128 (contract §2).
pub type Mask = u128;

/// Block outputs for one cycle (contract §3). Per-entry packed vectors are bit masks
/// (`st_valid`, `st_open`, `st_pending`, bit e = entry e) or one value per entry;
/// `st_dep[i]` is row i (bit j: entry i depends on entry j); `out_refs[i]` is lane i.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskCombinerOutputs {
    pub in_ready: bool,
    pub in_tag: u64,
    pub in_lane: u64,
    /// R2i (with `registered_input` only; false otherwise): IR's instance enters the table in
    /// this cycle, and `in_tag` / `in_lane` are its.
    pub in_tag_valid: bool,
    pub lk_hit: bool,
    pub rqf_ready: bool,
    pub rqf_done: bool,
    pub rqf_done_tpipe: u64,
    pub drain_done: bool,
    pub out_valid: bool,
    pub out_tag: u64,
    pub out_stype: u64,
    pub out_state: u64,
    pub out_count: u64,
    pub out_lane_mask: u64,
    pub out_refs: Vec<u64>,
    pub out_lockmask: u64,
    pub out_reason: u64,
    pub st_valid: Mask,
    pub st_open: Mask,
    pub st_pending: Mask,
    pub st_count: Vec<u64>,
    pub st_stype: Vec<u64>,
    pub st_state: Vec<u64>,
    pub st_lockmask: Vec<u64>,
    pub st_dep: Vec<Mask>,
    pub st_tag: Vec<u64>,
    pub perf_tasks: u64,
    pub perf_lanes: u64,
    /// Counter `perf_sel` (0 past the last one, and without `perf_counters`).
    pub perf_val: u64,
    /// D3t's sticky flag (false without `dep_tags`).
    pub err_dep: bool,
}
