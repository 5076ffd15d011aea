//! # branch_stack — branch control stack, branch evaluation, data flow controller
//!
//! A LIFO of 4-bit condition codes (CNVZ) that instructions push and pop through
//! their 2-bit stack operation indicator, the decode-stage evaluation of simple
//! (`BEZ`-style) and compound (`CBfg.op`) branches on the top two codes, and the
//! PC register with its T1 / T0 / NPC multiplexer, after CN102289363A as
//! specified in `docs/spec/branch_stack.md`. Implements the behaviours of §2 and §4.4
//! (B1–B24) through the ports of §5.4 with the cycle semantics of §5.5, encodings
//! of §5.3.
//!
//! ## Structure
//! `warpgen_branch_stack` (exact-width ports, written by [`crate::emit::Wrapper`])
//! → `warpgen_branch_stack_core` ([`BranchStackCore`], spec `bcs_branch_unit`:
//! wiring only), which holds
//! * `warpgen_branch_stack_ctl` ([`BranchCtl`]): producer arbitration §5.5.3,
//!   port limit §5.5.4, the four sticky error flags §5.5.8, and
//!   * `warpgen_branch_stack_ctl_stack` ([`CcStack`], spec `bcs_stack`): `depth`
//!     4-bit condition registers as a shift register (entry 0 is the top, R;
//!     entry 1 is S) and the occupancy `cnt` (pointer 215); the pops of §5.5.5,
//!     then the push of §5.5.6;
//!   * `warpgen_branch_stack_ctl_eval` ([`BranchEval`], spec `bcs_eval`): the
//!     branch decision of §5.5.2;
//! * `warpgen_branch_stack_dfc` ([`DataFlowCtl`], spec `bcs_dfc`, Fig. 13): the
//!   target adder `de_pc + sext(de_off)` (T0PC), the BRANCH_T0 / T0PC pipeline
//!   registers, PC register 1304, adder 1306 and mux 1302 of §5.5.7.
//!
//! With `thread_groups` = T > 1 (rules G1–G7) the same designs hold T stacks and T PCs:
//! the control's `stack` is group 0's and `stacks` groups 1 … T-1 (every instance the
//! module `warpgen_branch_stack_ctl_stack`), each with its own pop count and push from
//! the control's per-group decode and a restore load; the data flow controller's `pc_r`
//! is group 0's PC and `pc_g_q` the others', with `t0_tg_bit_q` (the group of the T0
//! registers). Every vector that exists only with groups is empty at T = 1, so the
//! Verilog of one group is the default's, byte for byte.
//!
//! Only the core's wiring and the data flow controller depend on `pc_width`;
//! the control is compiled once, not once per PC width.
//!
//! Files: one design per file (`cc_stack.rs`, `branch_eval.rs`, `branch_ctl.rs`,
//! `data_flow_ctl.rs`, `core_design.rs`), `emit.rs` (the exact ports and the header), this
//! file the tests.
//!
//! ## Widths
//! `pc_width` is the const generic `P` of the core and the data flow
//! controller, dispatched by [`crate::with_width64!`]: `pc`, `t0pc_q` and
//! every PC port are exactly `pc_width` bits. `de_off` enters the core
//! zero-extended to `P` bits and is sign-extended there with two constants
//! (its sign bit and the bits above it), so no extension logic exists when
//! `offset_width == pc_width`. The stack is a `Vec` of `depth` 4-bit registers;
//! the occupancy is a `Vec` of `cnt_bits` = ceil(log2(depth+1)) one-bit
//! registers (exact, without a second const generic that would multiply the 61
//! PC widths by 5 occupancy widths), packed into a [`CNT_CORE_BITS`]-bit value
//! for its arithmetic; the padding bits are constant 0 and synthesize away. The
//! flops are exactly `4*depth + cnt_bits + 2*pc_width + 1 + 4` (stack, `cnt`,
//! `pc` and `t0pc_q`, `branch_t0_q`, errors), plus 32 per counter with `perf_counters`;
//! with `producer_stages = 1` flattened synthesis drops the `err_multi` flop, which can
//! never be set. With T = `thread_groups` > 1 they are
//! `T*(4*depth + cnt_bits + pc_width) + pc_width + 1 + tg_bits + 4` (T stacks, counts
//! and PCs; `t0pc_q`, `branch_t0_q`, `t0_tg_q`, errors), plus the counters. A group id
//! enters the core zero-extended to [`TG_CORE_BITS`] bits (`rs_cnt` to
//! [`CNT_CORE_BITS`]); `t0_tg_q` is `tg_bits` one-bit registers.
//!
//! ## Cycle timing
//! * Registered: the stack entries and `cnt`, `pc`, `branch_t0_q`, `t0pc_q`,
//!   `err_ovf`, `err_udf`, `err_port`, `err_multi` (and the counters with
//!   `perf_counters`). Nothing else.
//! * Combinational from that state: `cc_r`, `cc_r_vld`, `cc_s`, `cc_s_vld`,
//!   `cc_cnt`, `npc = pc + pc_increment`.
//! * Combinational from this cycle's inputs and the state at the start of the
//!   cycle (no bypass of this cycle's push, B9/B24): `br_taken`, `br_target`.
//! * `producer_conflict = "stall"` only: `cc_ready`, combinational from this
//!   cycle's `cc_vld`, `cc_sop`, `de_br_vld` and `de_br_cmp` alone (no state).
//! * At the rising edge: the branch's pops (1 simple, 2 compound) act on the
//!   pre-cycle stack, then the selected producer's pop, then its push. A code
//!   pushed in cycle t is read by a branch in cycle t+1 at the earliest.
//! * Taken-branch latency: a branch in DE in cycle T drives `br_taken` in T;
//!   `branch_t0_q` / `t0pc_q` hold it in T+1; `pc` is the target from T+2 (the
//!   fetches at `pc` in T and T+1 are delay slots; nothing is flushed, B16). An
//!   `ex_branch_t1` in cycle u makes `pc = ex_t1pc` in u+1, over T0 (B23).
//!   `pc_hold` freezes `pc`, `branch_t0_q` and `t0pc_q` for that cycle.
//! * `thread_groups` > 1: `cc_r` … `cc_cnt` are combinational from group `de_tg`'s
//!   registers and `de_tg`, `pc` / `npc` from group `fe_tg`'s and `fe_tg`, `sv_cnt` /
//!   `sv_stack` / `sv_pc` from group `sv_tg`'s and `sv_tg` (the state at the start of the
//!   cycle: a restore or an op shows from the next cycle); `t0_tg_q` is registered with
//!   `branch_t0_q`. `cc_tg`, `ex_tg`, `rs_*` are sampled at the edge (and `cc_tg`, `de_tg`
//!   join the inputs of `cc_ready`).
//!
//! ## Options (docs/blocks/branch_stack.md, "Options")
//! * `compound_flags = "cnvz"`: `de_br_f` / `de_br_g` are 2 bits, the CC bit
//!   index as `de_br_sel` (3 C, 2 N, 1 V, 0 Z), instead of §5.3's 1 bit (0 N,
//!   1 Z). The core gets the high bits as `de_br_f_hi_0` / `de_br_g_hi_0`
//!   ([`BranchEval`]); at "nz" those vectors are empty and the Verilog is the
//!   default's.
//! * `producer_conflict = "stall"`: instead of B21/B22's drop, rule S1: the
//!   producer choice and the stack update are the same, but `cc_ready[i]` is 0 for
//!   every active stage but the oldest and for the oldest when the port limit
//!   stops it, so the pipeline holds them; `err_port` / `err_multi` are never set
//!   (their flops stay 0). `cc_ready` and its logic exist only at "stall".
//! * `perf_counters` (docs/perf.md, rule P1 of docs/blocks/branch_stack.md): ports
//!   `perf_sel` (4 bits, comb into `perf_val`), `perf_val` (32 bits, comb from the counter
//!   registers; 0 for an index >= 10) and `perf_clr` (sampled at the edge, wins over an
//!   event); one [`crate::perf::PerfBank`] of ten saturating 32-bit counters inside
//!   [`BranchCtl`], counting at each edge this cycle's push, pop (the producer's ops as
//!   applied), branch, taken, stall_cc (a `cc_ready` bit 0, "stall" only), stall_pc
//!   (`pc_hold`) and the four error flags' set conditions. Reset and `perf_clr` clear every
//!   counter. `err_clr` is a port in every config. Off: no port, no flop, the default Verilog.
//! * `thread_groups` = T > 1 (rules G1–G7 of docs/blocks/branch_stack.md): inputs `cc_tg`
//!   (TG_W per stage), `de_tg`, `ex_tg`, `fe_tg`, `sv_tg`, `rs_valid`, `rs_tg`, `rs_cnt`,
//!   `rs_stack` (4·depth), `rs_pc`; outputs `t0_tg_q`, `sv_cnt`, `sv_stack`, `sv_pc`.
//!   One stack and one PC per group; `branch_t0_q`, `t0pc_q`, `t0_tg_q`, the flags and the
//!   counters are shared. The producer arbitration stays global (one stack op per cycle);
//!   the winner's op acts on group `cc_tg[w]`, the branch's pops on group `de_tg`, and the
//!   port limit applies only when the two are the same group (G3, G4). At an edge that is
//!   not held, the PC of group `ex_tg` takes `ex_t1pc` on `ex_branch_t1`, else the PC of
//!   group `t0_tg_q` takes `t0pc_q` on `branch_t0_q`, else the PC of group `fe_tg`
//!   advances; the other PCs hold (G5). A restore (`rs_valid`) loads group `rs_tg`'s
//!   count c = min(`rs_cnt`, depth), its entries (entries c and beyond 0) and its PC,
//!   over that group's ops, PC update and `pc_hold`; the overridden ops still set
//!   `err_ovf` / `err_udf` and count (G7). The group selects are ORs of the groups'
//!   registers gated by their id compare (balanced by synthesis, not a priority chain).
//!   Up to [`PER_GROUP_INC_MAX`] groups each has its own `pc + pc_increment` adder, so that
//!   no select lies before a carry chain; beyond, one adder after the `fe_tg` select
//!   serves all (area over speed). Each group's next PC and each stack's next entries are
//!   a per-group (per-stack) 2-bit source code and enable, decoded once, then a 4:1 mux
//!   per bit into a flip-flop with enable; with groups a stack's R and S are its entries
//!   0 and 1 without the gate by the count (they are 0 beyond it), and each group's op is
//!   decoded from its own signals (the winner's op on that group, the branch on it), not
//!   from the global producer op. T = 1: no such port, the default Verilog.
//!
//! ## Deviations and interpretations (beyond the spec's proposal)
//! * `clock` / `reset` instead of `clk` / `rst_n`: reset is synchronous and
//!   active high (project convention) with the effect of §5.5.9, and wins over
//!   every other input in its cycle (including `pc_hold` and error sets). It also
//!   clears `t0pc_q` to 0, which §5.5.9 does not list, so that every output is
//!   defined after reset whatever `de_pc` / `de_off` are during it.
//! * `cc_vld`, `cc_sop`, `cc_val` are packed per producer (producer i at bit i,
//!   `[2i +: 2]`, `[4i +: 4]`); `cc_cnt` is max(1, ceil(log2(depth+1))) bits.
//! * `de_br_vld` while `pc_hold` (which §5.4 says never happens) follows §5.5
//!   literally: the branch still pops and raises `br_taken`, but the held
//!   `branch_t0_q` / `t0pc_q` do not capture it, so the redirect is lost.
//! * An empty operand reads as 0 (§5.5.1) and is evaluated like any code, so a
//!   simple branch on an empty stack with `de_br_pol = 0` is taken (it also sets
//!   `err_udf`); §5.5.2 applied literally.
//! * The entries a pop vacates are refilled with 0; their contents are not
//!   observable (`cc_r` / `cc_s` read 0 beyond `cc_cnt`).
//! * `cc_vld[i]` with `cc_sop[i] = DN` is ignored entirely: it neither counts as
//!   a producer for `err_multi` nor takes the arbitration (§5.5.3 `act`).
//! * `pc` powers up at `reset_pc` (rust-hdl's XOR-with-init register), every
//!   other register at 0, so the state before the first reset is the reset
//!   state; the spec leaves power-on undefined.
//! * `reset_pc` is a TOML integer (i64), so with `pc_width = 64` it can name
//!   only the lower half of the address space (0 to 2^63-1).
//! * `thread_groups` > 1: the stacks are flip-flops, not a block RAM. A branch reads its
//!   group's R and S in the cycle it is decoded (`br_taken` is combinational), a producer
//!   of another group writes in the same cycle, and a restore writes a whole stack at one
//!   edge; a block RAM reads a cycle late and has one write port. The save read relies on
//!   the stack's invariant that the entries at index `cnt` and beyond are 0 (pops
//!   refill with 0, a restore loads 0 there), so `sv_stack` is the entries as they are.

use crate::config::BranchStackConfig;
use crate::emit::{Dir, Port, PortGroup, Wrapper};
use crate::hdl::{constant, signals};
use rust_hdl::prelude::*;

/// A condition code: `cc[3]=C, cc[2]=N, cc[1]=V, cc[0]=Z` (§5.3).
type Cc = Bits<4>;
/// A stack operation indicator: `00` DN, `01` PO, `10` PU, `11` PP (Table 1).
type Sop = Bits<2>;
/// Width of the stack occupancy inside the stack block (0 to depth <= 32 fits;
/// its registers and the `cc_cnt` port are exactly `cnt_bits` wide).
pub const CNT_CORE_BITS: usize = 8;
type Cnt = Bits<CNT_CORE_BITS>;
/// Width of a thread-group id inside the core (`thread_groups` <= 32 fits); the
/// top module zero-extends the exact TG_W-bit id ports into it. No flop holds it
/// (`t0_tg_q` is TG_W one-bit registers).
pub const TG_CORE_BITS: usize = 5;
type Tg = Bits<TG_CORE_BITS>;


// ---------------------------------------------------------------------------
// The stack (spec `bcs_stack`): condition registers and occupancy.
// ---------------------------------------------------------------------------

mod cc_stack;
mod branch_eval;
mod branch_ctl;
mod data_flow_ctl;
mod core_design;
mod emit;
pub use cc_stack::*;
pub use branch_eval::*;
pub use branch_ctl::*;
pub use data_flow_ctl::*;
pub use core_design::*;
