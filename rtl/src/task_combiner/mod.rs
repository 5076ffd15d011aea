//! # task_combiner — task combining unit with its task dependency matrix
//!
//! A table of `entries` SIMD tasks. Each computation instance (shader type,
//! state, one reference, requesting tile pipeline) is appended to the OPEN
//! task of its key (shader type, state) or opens a task in a free entry. A
//! task closes (PENDING) when it is full, evicted for a new key, needed by a
//! pending consumer, locked by a flushed render queue, or drained; closed tasks
//! leave one per cycle, producers first, through a single valid/ready output
//! slot to the SIMD logic. After CN patent "task combining" as specified in
//! `docs/spec/task_combiner.md`: the task table of §4.3 (entry fields, allocation
//! and output rules), the task dependency unit of §4.4 in matrix form (E2),
//! the behavioural rules of §5 (match, fullness, triggers T1–T4, the
//! fullest / oldest / no-dependency policies, ordering), through the ports of
//! §10.3 and the cycle semantics of §10.5 as changed by the warpgen contract
//! (`docs/contracts/task_combiner.md`, which wins where they differ).
//!
//! ## Cycle timing (contract §4; spec §10.5)
//! * Every decision of cycle n is computed from the registers at the start of
//!   cycle n and the inputs of cycle n (R1). Combinational outputs:
//!   `in_ready`, `in_tag`, `in_lane` (registered table + `in_stype`,
//!   `in_state`, `drain_req`; never `in_valid`; with `registered_input` registers
//!   and `drain_req` only, and `in_tag_valid`), `drain_done`, and decodes of
//!   registers (`rqf_ready` = !rq_busy, `out_lane_mask` from `out_count`,
//!   `st_open`, `st_pending`).
//! * Registered (visible at n+1): the table (`st_*`), the slot (`out_*`,
//!   `out_refs` from the lane memories' read registers), `lk_hit`, `rqf_done`
//!   (a one-cycle pulse), `rqf_done_tpipe`, `perf_tasks`, `perf_lanes`. With
//!   `perf_counters`, `perf_val` is combinational from the counter registers and `perf_sel`.
//! * Latencies as §10.5's table: an instance accepted in n is in `st_*` at
//!   n+1; one that fills a task in n (no producers, slot free) is at `out_*`
//!   in n+2; each dependency level adds a cycle of propagation; an eviction
//!   for a new key in n makes the victim PENDING at n+1, in the slot at n+2
//!   with the new key accepted in n+2; a lock in n shows at n+1; a flush
//!   accepted in n has its snapshot PENDING at n+1 and the first task out at
//!   n+2; `rqf_done` follows the edge at which the last flagged task left.
//! * One instance, one lock, one flush request, one issue into the slot and
//!   one handshake per cycle, all at the same edge.
//! * `registered_issue` (contract R4r, a timing option, off by default): the
//!   entry that moves into the slot was picked at the edge before, from the
//!   registers of that cycle (`pick_q`, one-hot), so the slot load and the
//!   lane memories' read address come from registers instead of the
//!   eligibility → oldest → select chain; the memories are written one edge
//!   after the accept (`wb_*`), which no read can meet. Every latency into the
//!   slot grows by one cycle (a task filled in n is out in n+3); tasks still
//!   leave one per cycle. Measured on the iCE40 HX8K: docs/fpga-flow.md.
//! * `registered_input` (contract R2i, a timing option, off by default): the
//!   instance is taken into an input register (`ir_*`, `core_design/input_reg.rs`) and the
//!   table's rules read it (`t_*`: the inputs, or the register), so the accept
//!   path starts from registers; per entry `eq_q` ("the entry's key equals the
//!   registered instance's") is written when the register loads, from two
//!   compares done beside the table's work (the entry's key, or the key of the
//!   instance creating the entry at that edge), and the match is one AND.
//!   `in_ready` = !drain_req && (register empty || its instance enters);
//!   `in_tag_valid` (the only new port) says the registered instance enters
//!   this cycle, with its `in_tag` / `in_lane`. It enters while `drain_req`
//!   too (so a drain completes), and `drain_done` waits for the register.
//!   Every latency from the instance port grows by one cycle. Without the key
//!   every `ir_*` vector is empty and `t_*` are the inputs.
//!
//! ## Performance counters (`perf_counters`, docs/blocks/task_combiner.md rule P1)
//! Off by default (no port, no logic: the Verilog of the block without the key). On, the core
//! holds one [`crate::perf::PerfBank`] of 12 counters read through `perf_sel` / `perf_val`
//! and cleared by `perf_clr` or reset (docs/perf.md), fed in `core_design/perf_events.rs` from
//! the signals the rules use at the edge: `inst_acc` (`accept`), `tasks_out` (the handshake),
//! `stall_in` (`in_valid & !in_ready`), `stall_drain` (`in_valid & drain_req`), `stall_out`
//! (`slot_v & !out_ready`), `out_full` .. `out_drain` (the handshake by the slot's reason),
//! `lock_hit` (what sets `lk_hit`), `rqf_acc` (a flush accepted). No `err_clr`: the block has
//! no sticky error flag (D3). `perf_tasks` / `perf_lanes` are kept as they are (they wrap).
//! The events do not depend on `registered_issue`. Cost at the defaults: see
//! docs/blocks/task_combiner.md.
//!
//! ## Readings where the contract is silent (for comparison with the model)
//! * `in_tag` / `in_lane` are meaningful only when `in_valid && in_ready`;
//!   with neither a match nor a free entry they read {0, 0} / 0.
//! * "Oldest" is creation order: a task re-created in a freed entry is the
//!   youngest. "The state of the last task moved into the slot" is the slot's
//!   state register, which changes only when a task enters the slot, so it
//!   survives the slot emptying.
//! * An entry that becomes PENDING at an edge propagates DEP from the next
//!   cycle; an entry moving into the slot at an edge neither propagates nor
//!   joins an instance's dependency row (its column is cleared at that edge).
//! * The slot's payload (`out_*`) and a free entry's fields (`st_count`,
//!   `st_stype`, `st_state`, `st_lockmask`) keep stale values; reset clears
//!   what is observable (valid/pending/flags, gens, dependency and age
//!   matrices, slot valid, flush state, `lk_hit`, counters), not those.
//! * Out-of-range ids (contract §3) are not checked: a type at or above
//!   `shader_types` has capacity 0 (never FULL) and no producers, a tile
//!   pipeline at or above `tile_pipes` sets no lock bit and flushes nothing.
//!
//! ## Deviations from the spec's proposal (§10)
//! * D1: `clock` / `reset` (synchronous, active high) instead of `clk` / `rst_n`.
//! * D2: no configuration ports: policy, capacities and `sort_state` are
//!   TOML parameters, constants of the emitted Verilog. No `cfg_hold_full`,
//!   no HELD state: a task that reaches its capacity is PENDING(FULL) at once (with
//!   `hold_producers` it may be *holding*, below).
//! * D3: by default no dependency tags (`in_dep_vld`, `in_dep_tag`, `err_dep`).
//!   An instance of type s, state st accepted into entry t ORs into row t
//!   every entry j that stays resident at the edge (not moving into the slot),
//!   j != t, of state st and of a type in `depends[s]` (table form §4.4.2 /
//!   §10.8, generalised). `depends[s]` holds only types below s (validated),
//!   so the graph is acyclic.
//! * D3t (`dep_tags` = K ≥ 1, the spec's tags): the instance names up to K
//!   producers by tag ({gen, entry}); D3's set is restricted to the named
//!   entries (`named`, ANDed into `dset`). A named resident entry outside D3's
//!   set that is neither the target nor moving out is illegal: the sticky
//!   `err_dep` (cleared by `err_clr` unless set again at that edge). Needs 2
//!   entries or more (validated). Timing: as D3 (decided in the accept cycle).
//! * D4: one reference per instance, no aux references.
//! * D5: `shader_types` is 1 to 8; STYPE_W = max(1, ceil(log2 shader_types)).
//! * D6: `st_held` removed; the other observability ports are kept.
//! * Ranges are the contract's: `entries` 1 to 128 (§10.2: 2 to 128), `width`
//!   4 to 64 (§10.2: 2 to 64).
//! * `out_refs` lanes at and above `out_count` show stale references.
//! * `issue_order` (contract R4; not in the spec, whose issue order is the oldest): "fullest"
//!   issues the eligible task with the most instances first, ties to the oldest, after
//!   `sort_state`'s preference; the matrix's `old_e` / `old_s` then use the count relation of
//!   the fullest victim ([`TaskMatrix`]; a relation of their own under an oldest eviction
//!   policy). "oldest" (the default) emits the Verilog of the block without the key.
//! * `hold_producers` = B (contract R5h; 0, the default, emits the Verilog of the block
//!   without the key): the spec's HELD variant (`cfg_hold_full`) with a bound. A PENDING(FULL)
//!   entry with no flush flag is *holding*; an OPEN producer some PENDING entry depends on is
//!   released (`depprop`) only when a non-holding one does, more than B entries of the table
//!   are holding, or no entry is FREE. In `core_design/fields.rs`, after the matrix's
//!   `depprop`, from registers only: per entry `hp_hold`, their count (a balanced adder
//!   tree, `hp_sum`, the count at its root) compared with B, and per producer column of the registered
//!   dependency rows an OR of the non-holding PENDING rows (`hp_oth`); every `hp_*` vector is
//!   empty at B = 0 and in a one-entry table. Cost: docs/blocks/task_combiner.md. (Tried
//!   first: a count per producer column, 7,480 LUT4 and 1,310 carry cells at the default
//!   config, which no longer fits the iCE40 HX8K; then one count written as a chain over the
//!   entries, 5,208 LUT4 at 22.9 MHz, the chain on the critical path.) Holding entries show as PENDING on `st_*`
//!   (no `st_held`); the cycle timing of every port is unchanged.
//!
//! ## Storage (flip-flops for control, block RAM for references)
//! * Per entry, one-bit registers: valid, pending, flush flag; reason (3);
//!   stype (STYPE_W), state (STATE_W), count (CNT_W), gen (GEN_W), lock mask
//!   (N_TPIPE); a dependency row and an age row of N-1 bits each, in the
//!   matrix child [`TaskMatrix`] (none for a one-entry table).
//! * Matrices ([`TaskMatrix`], hand-written word-level Verilog over N-bit rows,
//!   so the emitted text and Verilator's work grow with N, not with N^2
//!   one-bit statements): `dep_q[i][j]` = entry i depends on entry j;
//!   `old_q[k][x]` = entry x was created before entry k, a full N x N
//!   older-than relation (diagonals constant 0, removed by synthesis). A
//!   created entry gets every other entry as older and leaves every other
//!   row. The oldest member of a set X is the member k with X & old_q[k] == 0:
//!   one AND-reduce per row, no comparator. Only pairs of resident entries
//!   are ever read, so free entries' rows and the reset value do not matter.
//!   (Until this change the age relation was a half matrix of N*floor(N/2)
//!   one-bit registers, each unordered pair once; the full rows cost
//!   N*(N-1-floor(N/2)) more flip-flops, +112 at 16 entries, +1984 at 64, and
//!   make every row one word.)
//! * Slot: valid, flush flag, reason (3), tag {gen, entry} (GEN_W + ENT_W),
//!   stype, state (also the "last issued state"), count, lock mask; a
//!   "task issued since reset" bit; flush busy / done / tile pipe (TP_W);
//!   `lk_hit`; two 32-bit counters (with `perf_counters` twelve more, 384 flip-flops,
//!   thirteen with `dep_tags`); with `dep_tags` the sticky `err_dep`.
//! * References: one [`SyncRam`] per lane, `entries` words of `ref_width`
//!   bits, written at accept (word = target entry) and read into the lane's
//!   read register when a task enters the slot (read enable), so the slot's
//!   references stay put under back-pressure while the freed entry is reused.
//!   yosys maps each to an `SB_RAM40_4K` (a one-entry table included).
//! * Area: [`flip_flops`] = N*(6 + STYPE_W + STATE_W + CNT_W + GEN_W + N_TPIPE
//!   + 2(N-1)) + 73 + ENT_W + GEN_W + STYPE_W + STATE_W + CNT_W
//!   + N_TPIPE + TP_W, and N x SIMD_W x REF_W reference bits:
//!   - default (16 entries, 32 lanes): 1063 flip-flops, 32 x (16 x 13) reference
//!     bits in 32 `SB_RAM40_4K`;
//!   - 64 entries x 64 lanes (other keys default): 10154 flip-flops, 64 x (64 x 13)
//!     = 53,248 reference bits (the patent's option-4 figure, §10.8) in 64
//!     `SB_RAM40_4K`.
//!   - 128 entries x 64 lanes: 36,587 flip-flops (16,256 + 16,256 of them the
//!     matrices), 106,496 reference bits.
//!   The dependency and age bits grow as N^2 (4032 + 4032 of the 10154 at 64).
//!
//! ## Logic structure for clock rate (same cycle timing)
//! * Victim (R3): the candidate no other candidate beats, from a pairwise
//!   relation in [`TaskMatrix`]: j beats i when {count_j, j older than i} >
//!   {count_i, 0} (fullest; age alone for oldest), one AND/OR comparison per
//!   unordered pair (no carry chain), then an N-input NOR per entry: log depth
//!   where the running maximum over the entries it replaces was a chain (a
//!   victim is only wanted when every entry is OPEN, so without the nodep
//!   restriction every entry is a candidate).
//! * Issue (R4): the oldest of the eligible set and the oldest of its
//!   same-state subset come from the matrix in parallel; the late "use the
//!   same-state subset" only selects, after the AND-OR of the picked entry's
//!   fields into the slot.
//! * One-hot selects (matched entry's count, picked entry's fields) are AND-OR
//!   terms, never priority-mux chains.
//! * Per entry from registers: count + 1, gen + 1 (bitwise) and "full if
//!   appended" (count + 1 == capacity of its type); the instance only selects
//!   among them. The flush's "some flag after the edge" takes the instance in
//!   through `accept` alone.
//! * Late signals enter where they are implied, not through the ORs over the
//!   entries: an append strobe is in_valid & !drain & mhit (a match implies
//!   in_ready), a reference lane above 0 is written on in_valid & !drain and
//!   the lane (only a match gives a non-zero lane), the target index selects
//!   between the match's and the free entry's AND-ORs, the pick needs only a
//!   free slot (the oldest of an empty set is empty), and the pick's index
//!   (read address, slot tag) is not gated by `issue` (read enable is).
//! * The flush: each entry's post-edge flag is computed from registers and
//!   inputs wherever the entry goes (it stays or moves into the slot), so
//!   "some flag after the edge" and the slot's flag never wait for the pick
//!   to leave the entries' OR; the flush snapshot and the instance's
//!   producers are masked by the pick only at the register (res_post, the
//!   matrix's column clear).
//!
//! ## Files
//! `core_design.rs`: the core ([`TaskCombinerCore`]), its rules in `core_design/` (one part
//! per file, `perf_events.rs` the counters' events); `matrix.rs`: the dependency and age
//! matrices ([`TaskMatrix`], word-level Verilog); `emit.rs`: the exact ports, the header
//! and the flip-flop count; this file: the widths, the reason codes and the tests.
//!
//! ## Widths
//! Seven independent widths (state, generation, count, shader type, entry
//! index, tile pipe, reference) make const-generic dispatch ([`crate::with_width!`])
//! impractical (one monomorphization per combination). Every field is a `Vec`
//! of one-bit registers (the pattern of branch_stack's occupancy), so every
//! register and every output is exactly as wide as the config says. For
//! arithmetic and comparison a field is assembled into a number of the core
//! width ([`STATE_BITS`] and friends) whose padding bits are constant 0 and
//! synthesize away; the top module zero-extends id inputs to those widths
//! (emit.rs layer 3) and packs the one-bit core outputs into its exact ports.

use crate::config::TaskCombinerConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{self, constant, dffs, grid, signals};
use crate::mem::{address_bits, SyncRam};
use rust_hdl::prelude::*;

/// Core widths of the zero-extended inputs and of the numbers the logic
/// computes with (each at least the largest width the config allows). Every
/// register is exact: a field of `w` bits is `w` one-bit registers.
pub const STYPE_BITS: usize = 3;
pub const STATE_BITS: usize = 16;
pub const CNT_BITS: usize = 8;
pub const GEN_BITS: usize = 8;
pub const ENT_BITS: usize = 7;
pub const TP_BITS: usize = 3;
type Stype = Bits<STYPE_BITS>;
type State = Bits<STATE_BITS>;
type Cnt = Bits<CNT_BITS>;
type Gen = Bits<GEN_BITS>;
type Ent = Bits<ENT_BITS>;
type Tp = Bits<TP_BITS>;
/// `out_reason` / per-entry reason: 1 FULL, 2 EVICT, 3 DEP, 4 RQFLUSH, 5 DRAIN.
type Reason = Bits<3>;

/// Reason codes of `out_reason` (contract §3).
pub const REASON_FULL: u64 = 1;
pub const REASON_EVICT: u64 = 2;
pub const REASON_DEP: u64 = 3;
pub const REASON_RQFLUSH: u64 = 4;
pub const REASON_DRAIN: u64 = 5;

/// `2^i` for i < n: the weight of bit i when a field is assembled from its registers.
fn weights<const N: usize>(n: usize) -> Vec<Constant<Bits<N>>> {
    (0..n).map(|i| constant(1 << i)).collect()
}

mod core_design;
mod matrix;
mod emit;
pub use core_design::*;
pub use matrix::*;
pub use emit::*;
