//! # thread_merge — pairing of partially covered quads, thread-group merging
//!
//! Fragments (a coverage mask of `lanes` lanes = 1 to 8 2x2 quads, a primitive
//! id, an opaque tag) arrive from the rasterizer. A partially covered one is
//! held as the merge candidate; the next partial fragment of the same
//! primitive (of any primitive with `cross_primitive`, R18) whose coverage is disjoint from it (directly, or after one of the
//! claim-6 lane remaps: mirror x, mirror y, rotate 180°, the same in every
//! quad) is paired with it, and the pair is spawned as two thread groups A and
//! B sharing one merge slot (claim 7: one common-register block). When both
//! groups have executed the merge instruction the block merges them: A
//! continues with the OR of the active masks, B retires, and the write-back
//! lookup tells, per lane of A, the original fragment and lane. Partners that
//! terminate first, candidates held too long and merge events that wait too
//! long are resolved without a merge. After CN-patent "Graphics processing
//! system" (ARM) as specified in `docs/spec/thread_merge.md` §2, §4.4 and §5, under
//! its contract (`docs/contracts/thread_merge.md`), which wins over the
//! spec; its rules are cited as R1–R20 below. With `candidates` = K > 1 (R19) up to K
//! partial fragments are held at once, and a new one pairs with the oldest it fits.
//!
//! ## Structure
//! `warpgen_thread_merge` (exact-width ports, written by [`crate::emit::Wrapper`])
//! → `warpgen_thread_merge_core` ([`ThreadMergeCore`]): one combinational
//! process that applies the rules of one edge in the contract's order (R3), and
//! rust-hdl's DFFs. The core is flat on purpose: each step of R3 sees the
//! previous step's result, which a single process expresses as a sequence of
//! assignments with no combinational loop between blocks.
//!
//! Timing structure: every register's next value is a
//! shallow function of the registers and this cycle's decoded events. Per slot,
//! R8-R11 are written out as flat formulas (`sa_hi`/`sa_lo`, `brk`, `gowa`, ...)
//! of the slot's registers and the decoded term / accepted me / disc of A and B
//! (at most one of each per cycle; an accepted me has `rsp_free` folded into its
//! decode): no case tables and no select chains. The response register holds only
//! what names the response: the me's id and merge flag, or the owed grant one-hot
//! (lowest owed group, a prefix OR over the slots), plus which of the two
//! (`rsel_q`) and whether it was loaded at the last edge (`fresh_q`). `rsp_tgid`
//! is decoded from them; `rsp_active` is the target's active register in the
//! cycle after the load (it holds the mask after R8-R10, the OR for a merge) and
//! a copy of it afterwards (`ract_q`); a granted owe bit is cleared through the
//! grant registers (`st_owe` and the next edge read owe & !granted). So neither
//! the grant nor the mask selection sits in front of a flop. The lowest free slot
//! is a prefix OR; `free_cnt`, the age and the wait counters are bitwise (no
//! carry chain); the wait counter and `age == pair_hold` (`amax_q`) depend on
//! registers only. The fragment decisions E0-E3 are flat formulas; registers
//! whose contents do not matter unless a decision holds load unconditionally
//! (the free slot an emission would take loads its masks, tags and flags every
//! cycle — only its states wait for the emission, ORed into the state bits; the
//! `grp` payload loads whenever `out_ok`; the candidate's payload whenever no
//! candidate stays held), so the late fragment decisions only drive states and
//! valid bits. The `rf_*`/`wb_*` lookups are flat AND-ORs over the groups.
//!
//! Per merge slot `s` the state is held member-explicitly (`*a*` = member 0 =
//! tgid 2s, `*b*` = member 1 = tgid 2s+1): `state` (2 bits: 0 FREE, 1 PRE,
//! 2 WAIT, 3 POST), `active` (lanes), `owe`, the tag; per slot `paired`,
//! `broken`, `merged`, `perm` (B's remap) and the wait counter.
//!
//! ## Files
//! `core_design.rs`: the core ([`ThreadMergeCore`]); `emit.rs`: the exact ports (packed
//! status vectors) and the header; this file: the widths and the tests;
//! `core_design/perf_events.rs`: R16's events into the shared counter bank
//! ([`crate::perf::PerfBank`]).
//!
//! ## Option `cross_primitive` (R18)
//! Off (default): the Verilog of the block without the option. On: the core's `xprim` vector
//! has one element and the candidate's primitive-change term `pmis` is forced to 0 after it
//! is computed, so no decision depends on `frag_prim` (its registers stay, unread by any
//! decision, and synthesis removes them); `frag_last`, `flush` and the hold are unchanged.
//!
//! ## Option `candidates` (R19)
//! 1 (default): R4's one candidate register, the Verilog of the block without the key. K = 2
//! to 4: the candidate register (`pv_q`, `pcov_q`, `ptag_q`, the age, `plast_q` = the queue's
//! `qlast`, `pprim_q` = the run's primitive) is the head of a queue of K, and `qv_q`,
//! `qcov_q`, `qtag_q`, `qage_q` hold fragments 1 .. K-1, the oldest first (every queue vector
//! is empty at K = 1). `flush_now`, `frag_ready` and the choice "A is a held fragment"
//! (`a_px`) read the head as before; a block at the end of `core_design/candidate.rs`
//! replaces the rest for K > 1: R5 against every held fragment, the oldest that fits (a
//! prefix over the K), the emission (E3 emits only on a pair or a full queue), A's mask and
//! tag from the paired entry, and the queue's next state: the removed entry (the head on E0
//! or a push-out, the paired one) leaves, the entries above it move down, F goes to the first
//! empty place; every fragment still held ages by one (saturating, a bitwise increment), F
//! starts at 0. Timing: the same cycle timing as R4 (a descriptor one cycle after its
//! fragment, E0 one per edge). Cost at C0 (iCE40 HX8K, `warpgen synth`, seeds 1-3): see
//! docs/blocks/thread_merge.md; the path from the primitive compare and R5's overlaps
//! through the removal and the shift into the queue's registers sets Fmax.
//!
//! ## Option `merge_ways` (R20)
//! 2 (default): pairs, this core, the Verilog of the block without the key. 3 or 4: slots of
//! four member ids (`tgid = 4s + m`), a candidate set of up to W-1 held fragments and merges of
//! the whole set, by a core of its own, [`ThreadMergeWays`] (`ways.rs`, `ways/rules.rs`): the
//! rules over a member index instead of this core's member-explicit formulas (which are what
//! reaches 100 MHz at the default config). The top module gains `grp_c_*` / `grp_d_*`,
//! `rsp_retire_mask`, `wb_lane_mem`, `wb_tag_c` / `wb_perm_c` / `wb_tag_d` / `wb_perm_d`
//! (emit.rs); W > 2 needs `candidates` = 1. Cost and timing: docs/blocks/thread_merge.md.
//!
//! ## Option `perf_counters` (R16, R17; `docs/perf.md`)
//! Off (default): no port, no flop, the Verilog of the block without the option. On: the
//! core's `perf_sel`, `perf_val`, `perf_clr`, `err_clr` and `perf` vectors have one element
//! (zero otherwise, so no loop over them emits anything), and the top module gets
//! `perf_sel[4]` (zero-extended to the bank's 8 bits), `perf_val[32]`, `perf_clr`, `err_clr`.
//! The bank holds 9 saturating 32-bit counters (`frag_acc`, `grp_out`, `rsp_out`,
//! `stall_frag`, `stall_grp`, `stall_me`, `err_proto_ev`, `err_xlane_ev`, `stall_slot`);
//! their events are the signals the rules use at the edge (`f_acc`, the handshakes,
//! `rsp_free`, `perr`, `xl_hit`, `any_free`), and its clear is `reset | perf_clr`.
//! `err_clr` zeroes `eproto_q` (which also drops the pending error of the last edge,
//! `epend_q`) and `exl_q`, while this edge's `perr` / `xl_hit` still set them: the error wins.
//! Cost at C0 (iCE40 HX8K, `warpgen synth`, seeds 1-3): 288 flops more (827), 1625 LUT4
//! (+587), 301 SB_CARRY (+270), 87.0 MHz median against 100.1 without the option; the
//! critical path stays the primitive compare -> A's tag (placement, not a counter).
//!
//! ## Widths
//! `lanes` is the const generic `L` of the core (4 monomorphizations,
//! [`with_lanes`]): every mask is a `Bits<L>`. The tag and the primitive id
//! are `Vec`s of 1-bit registers (exactly `tag_width` / `prim_width` flops each,
//! no second dispatch nested in the lane one). Thread-group ids enter the core
//! zero-extended to [`ID_BITS`]; the id registers (`grp` slot, `rsp_tgid`) and
//! the internal counters (candidate age: ceil(log2(pair_hold+1)) bits, wait
//! counter per slot: ceil(log2 merge_timeout) bits) are `Vec`s of exactly as
//! many 1-bit registers as the config needs, packed into an [`ID_BITS`]-bit
//! value for their arithmetic. Flops at the default config: 539 (per slot 2·2
//! state + 2·4 active + 2 owe + 2 owed grant + 3 flags + 2 perm + 4 wait + 2·32
//! tag = 89, ×4; candidate 1+4+16+32+1+3+1 (age == pair_hold); grp
//! 1+1+2+4+4+2+32+32; rsp 1+3+1+4+1+1 (valid, me id, merged, held mask, fresh,
//! me-or-owed); merge_count 32 + 1 pending merge; errors 2 + 1 pending error).
//!
//! ## Cycle timing (R1)
//! * Combinational from the registered state and this cycle's inputs:
//!   `frag_ready` (from `grp_valid`/`grp_ready`, the free slots, the candidate
//!   and `frag_valid`/`frag_prim`/`flush`), `me_ready` (= `!rsp_valid ||
//!   rsp_ready`), every `rf_*` output (from `rf_tgid`) and every `wb_*` output
//!   (from `wb_tgid`). The lookups read registered state only (R13): an event
//!   of this cycle shows in them from the next cycle.
//! * Registered: `grp_*`, `rsp_*` (`rsp_retire_tgid` = `rsp_tgid + 1` of the
//!   register), `pend_valid`, `merge_count`, `err_proto`, `err_xlane`,
//!   `st_state`, `st_active`, `st_slot`, `st_owe`; `free_cnt` is the number of
//!   slots whose two members are FREE in the registered state; `rsp_tgid`,
//!   `rsp_active` and `st_owe` are decoded from registers only (see above);
//!   `merge_count` is its register plus a pending bit (the merge of the last
//!   edge, through one incrementer that also feeds the register) and
//!   `err_proto` the sticky flag OR a pending error bit, so neither a wide
//!   enable nor a flag waits for this cycle's events.
//! * Latencies: a fragment accepted at edge n gives its descriptor @n+1; a
//!   merge event at n gives its response @n+1 (or parks the group, WAIT);
//!   `term`/`disc` at n show @n+1 and a slot they free is allocated from edge
//!   n+1; an owed resume created at n is sent @n+1 when the response register
//!   is free and no merge-event response has priority. Reset is synchronous
//!   and wins over every input of its edge.
//! * With `perf_counters`: `perf_val` is combinational from `perf_sel` and the
//!   counter registers; an event of cycle n shows in `perf_val` from n+1;
//!   `perf_clr` and `err_clr` act at the edge (R16, R17).
//!
//! ## Deviations from the spec's proposal (§5.3, §5.5)
//! * D1 `clock`/`reset` (synchronous, active high) replace `clk`/`rst_n`;
//!   `flush_i` is `flush`; all parameters are TOML keys, constants of the
//!   emitted Verilog.
//! * D2 merge slots: a slot holds one single group (member 0) or one pair
//!   (A = member 0, B = member 1), `tgid = 2*slot + member`. The common
//!   register block is `tgid >> 1`, the private one `tgid`; a slot frees only
//!   when both members are FREE, so there is no ZOMBIE state, no `partner`,
//!   `partner_gone` or `rf_creg_owner`; `frag_ready` needs one free slot;
//!   `free_cnt` counts slots; 1 slot is a legal config that pairs and merges.
//! * D3 zero-copy write-back: B's tag, perm and active mask at the merge stay
//!   in the slot after B retires and are read from there (no `p_tag`,
//!   `p_perm`, `lane_src` copies); `wb_active` and `wb_orig_lane` are added.
//! * D4 back-pressure: `rsp` is a registered valid/ready channel (`rsp_ready`
//!   added), `me_ready` = the response register can load (for every merge
//!   event, also one that only parks), `rsp_retire_valid` is the payload bit
//!   `rsp_retire`; `term`, `disc`, `xl` are never refused.
//! * D5 debug: `dbg_*` are replaced by the flat status vectors `st_state`,
//!   `st_active`, `st_slot` ({merged, broken, paired}, bit 0 paired), `st_owe`.
//! * D6 `lanes` ∈ {4, 8, 16, 32}; `prim_width` is a key.
//! * Counters and `err_clr` (R16, R17) are an option the spec does not have;
//!   without it the error flags stay sticky until reset.
//! * More than one held candidate (`candidates`, R19) is an option the spec does not have
//!   (its §5.5.2 holds one); the default keeps one.
//! * Sets of 3 or 4 groups (`merge_ways`, R20) are an option (the spec's proposal pairs; its
//!   §5.11 names N-way merging as an extension); the default keeps pairs.
//! * D7 where the spec is silent: an accepted fragment with `frag_cov == 0`
//!   only sets `err_proto` (R4); lookups of FREE groups or ids naming nothing
//!   return 0 on every `rf_*`/`wb_*` output (R13); an owed resume is cancelled
//!   by a response to a merge event of that group or by its `term` (R8, R10);
//!   `rsp_active` is the mask after this edge's `disc` (R12).
//!
//! Readings of this implementation where the contract leaves room:
//! * `rsp_retire` is the same register bit as `rsp_merged` (every merge
//!   response retires B, no other response retires anything).
//! * `rsp_retire_tgid` is `rsp_tgid + 1` modulo 2^TGID_W for every response;
//!   it is meaningful only with `rsp_retire`, where `rsp_tgid` is even.
//! * For a single group (`grp_paired = 0`) the `grp_b_*` payload is
//!   don't-care (it holds the pair decision against the incoming fragment or
//!   the previous value); a single group's slot gets `perm = 0`.
//! * A merge event for A or B of an unbroken pair whose partner is neither
//!   WAIT (merge) parks the group (WAIT); the contract's "Y PRE" is the only
//!   reachable case.
//! * Registers power up at 0, which is the reset state of every register that
//!   reset touches (FREE = 0); tags, masks and slot flags are not reset (R15).
//!
//! ## Area
//! Default config (lanes 4, slots 4, tag 32, prim 16), `warpgen synth thread_merge`
//! (yosys 0.23 `synth_ice40`, nextpnr-ice40 0.4, iCE40 HX8K): 539 flip-flops, 1056 LUT4,
//! 31 SB_CARRY (merge_count, rsp_retire_tgid), no latch; 101.4 MHz median of nextpnr seeds
//! 1-3 (93.1-102.1; 97.4 MHz with merge_count's enable waiting for the merge, 85.4 MHz
//! with per-slot case tables, 62-64 MHz before). Critical paths (5-6 LUT levels,
//! 9.8-10.7 ns): the free slots -> the candidate payload's enable (53 flops); the
//! primitive compare -> A's tag of an emission. The design's deepest cones are 6 LUTs,
//! so ABC's area recovery maps the other near-critical cones to that depth too.

use crate::config::ThreadMergeConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{self, constant, dffs, grid, signals};
use rust_hdl::prelude::*;

/// Width of a thread-group id, a count or an internal counter inside the core.
/// The top module's ids are exact (TGID_W bits) and zero-extended to this.
pub const ID_BITS: usize = 8;
type Id = Bits<ID_BITS>;
/// A group state: 0 FREE, 1 PRE, 2 WAIT, 3 POST.
type State = Bits<2>;
/// A lane remap code p: 0 identity, 1 mirror x, 2 mirror y, 3 rotate 180°.
type Perm = Bits<2>;

/// Instantiates `$body` with the const generic `$L` set to the run-time lane
/// count (4, 8, 16 or 32; config validation allows nothing else).
#[macro_export]
macro_rules! with_lanes {
    ($w:expr, $L:ident => $body:expr) => {
        $crate::dispatch_width!($w, $L => $body; 4 8 16 32)
    };
}

fn id(v: usize) -> Constant<Id> {
    constant(v as u64)
}

/// Powers of two 1, 2, 4, … (`n` of them): the weights of packed 1-bit registers.
fn weights(n: usize) -> Vec<Constant<Id>> {
    (0..n).map(|k| id(1 << k)).collect()
}

/// `v4` (a 4-lane pattern) repeated in every quad of `L` lanes.
fn per_quad<const L: usize>(v4: u64) -> Constant<Bits<L>> {
    constant((0..L / 4).fold(0u64, |acc, q| acc | (v4 << (4 * q))))
}

mod core_design;
mod emit;
mod ways;
pub use core_design::*;
pub use ways::ThreadMergeWays;
