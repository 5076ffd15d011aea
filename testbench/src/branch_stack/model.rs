//! Cycle-level reference model of the `branch_stack` block (branch control stack 118
//! with its data flow controller 116), written from `docs/spec/branch_stack.md` only:
//!
//! * §2.2/§2.3, §4.4 B1–B6 — a LIFO of 4-bit CNVZ condition codes; stack operation
//!   indicator `00` DN, `01` PO, `10` PU, `11` PP (pop, then push).
//! * §5.3 — encodings: `cc[3]=C, cc[2]=N, cc[1]=V, cc[0]=Z`; simple branch taken when
//!   `cc_r[sel] == pol` (BEZ = sel 0, pol 1); compound `CBfg.op` with f/g 0 = N, 1 = Z and
//!   op 00 AND, 01 OR, 10 XOR, 11 XNOR.
//! * §5.5.1–§5.5.2 — R/S read combinationally from the state at the start of the cycle
//!   (so a CC pushed in cycle t is visible from t+1, B9); `br_taken = de_br_vld & t`;
//!   `br_target = de_pc + sext(de_off)` modulo 2^PC_W.
//! * §5.5.3–§5.5.6 — producer arbitration (highest active index wins, `err_multi`), port
//!   limit (`kd + pe > 2` suppresses the producer op, `err_port`), pops clamped to the
//!   entries present (`err_udf`), then the push (onto a full stack it drops the bottom
//!   entry, `err_ovf`). [`StackEffect`] is exactly this step.
//! * §5.5.7 — data flow controller: `pc ← T1 ? t1pc : branch_t0_q ? t0pc_q : pc + PC_INC`,
//!   `branch_t0_q ← br_taken`, `t0pc_q ← br_target`, all frozen by `pc_hold`;
//!   `npc = pc + PC_INC` is combinational.
//! * §5.5.8–§5.5.9 — sticky error flags (a set in the same cycle as `err_clr` wins); reset.
//!
//! The two options of docs/blocks/branch_stack.md ("Options"):
//! * `compound_flags = "cnvz"`: `de_br_f`/`de_br_g` are 2-bit CC bit indices (3 C, 2 N,
//!   1 V, 0 Z, as `de_br_sel`) instead of 1 bit (0 N, 1 Z).
//! * `producer_conflict = "stall"` (rule S1): the producer choice of §5.5.3/§5.5.4 is the
//!   same, but instead of being dropped, every other active producer and a winner stopped
//!   by the port limit get `cc_ready = 0` and are held by the pipeline; idle and DN stages
//!   are ready; `err_multi` and `err_port` are never set. `cc_ready` is a combinational
//!   function of this cycle's `cc_vld`, `cc_sop`, `de_br_vld` and `de_br_cmp`.
//!
//! Rule P1 (`perf_counters`, docs/perf.md and docs/blocks/branch_stack.md): [`perf`]: ten
//! events per cycle from the cycle's [`StackEffect`], outputs and inputs, counted by the
//! shared saturating rule ([`crate::perf`]), cleared by `perf_clr` and reset; `perf_val`
//! reads counter `perf_sel` (0 past the last). Without the key the model ignores the inputs.
//!
//! Rules G1–G7 (`thread_groups` = T > 1, docs/blocks/branch_stack.md, "Options"):
//! [`groups`]: one stack and one PC per group; `cc_r` … `cc_cnt` and the branch are group
//! `de_tg`'s, `pc`/`npc` group `fe_tg`'s; the producer arbitration stays global and the
//! winner's op acts on group `cc_tg[w]` (the port limit only when that is `de_tg`, G3),
//! after the branch pops when it is the branch's group, else on its own stack as it was at
//! the start of the cycle (G4); every group's PC follows T1 (`ex_tg`), then T0 (`t0_tg_q`),
//! then `+ pc_increment` for `fe_tg` only (G5); `sv_*` read a group (G6); `rs_*` overwrite one
//! at the edge, over its ops and its PC update and `pc_hold` (G7). At T = 1 every id is 0
//! (ids are taken modulo T), the save/restore ports do not exist (`rs_valid` is ignored,
//! `sv_*` read 0 / empty) and the rules are those of one stack and one PC.
//!
//! Block contract deviations and readings: `reset` is synchronous and active high (the
//! spec's `rst_n` is active low); a branch presented while `pc_hold` is processed
//! literally (it pops, the frozen DFC registers do not record it); reset also clears
//! `t0pc_q` to 0 (§5.5.9 lists every register except `t0pc_q`; see the module `directed`
//! for the list of interpretations). Outputs are combinational functions of the state and
//! the inputs and ignore `reset` (it acts at the clock edge only).
//!
//! Input values are taken modulo their port width, as the Verilog ports would truncate
//! them: `cc_sop` 2 bits, `cc_val` 4 bits, `de_br_sel`/`de_br_op` 2 bits, `de_pc`/`ex_t1pc`
//! PC_W bits, `de_off` OFF_W bits.

pub mod groups;
pub mod perf;

/// Bit positions of the CNVZ flags in a CC value (§5.3).
pub const C_BIT: u8 = 3;
pub const N_BIT: u8 = 2;
pub const V_BIT: u8 = 1;
pub const Z_BIT: u8 = 0;

/// All-ones mask of `bits` bits.
fn ones(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Block parameters (spec §5.2, ranges of the block contract).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BranchStackParams {
    /// Condition registers, 2..=32 (`DEPTH`).
    pub depth: usize,
    /// CC-producing stages EX0.., 1..=3 (`NSRC`); a higher index is an older instruction.
    pub nsrc: usize,
    /// PC width, 4..=64 (`PC_W`).
    pub pc_w: u32,
    /// Signed branch-offset width, 2..=PC_W (`OFF_W`).
    pub off_w: u32,
    /// Sequential increment, 1..=min(2^PC_W−1, 65535) (`PC_INC`).
    pub pc_inc: u64,
    /// PC after reset, 0..=2^PC_W−1 (`RESET_PC`).
    pub reset_pc: u64,
    /// `compound_flags = "cnvz"`: `de_br_f`/`de_br_g` are 2-bit flag indices (3 C, 2 N,
    /// 1 V, 0 Z); otherwise 1 bit, 0 N, 1 Z (§5.3).
    pub cnvz: bool,
    /// `producer_conflict = "stall"`: producers beyond what the stack takes are held
    /// through `cc_ready` (rule S1 of docs/blocks/branch_stack.md) instead of dropped
    /// (B21/B22).
    pub stall: bool,
    /// `perf_counters`: the counter bank read through `perf_sel` / `perf_val` (rule P1).
    pub perf_counters: bool,
    /// `thread_groups` (T): 1, 2, 4, 8, 16 or 32 stacks and PCs (rules G1–G7); 1: one.
    pub tgs: usize,
}

impl BranchStackParams {
    /// §5.2 / §6 defaults: DEPTH 4, NSRC 3, PC_W 32, OFF_W 16, PC_INC 1, RESET_PC 0.
    pub fn spec_default() -> Self {
        BranchStackParams {
            depth: 4,
            nsrc: 3,
            pc_w: 32,
            off_w: 16,
            pc_inc: 1,
            reset_pc: 0,
            cnvz: false,
            stall: false,
            perf_counters: false,
            tgs: 1,
        }
    }

    /// The defaults with another DEPTH and NSRC (the lockstep configurations).
    pub fn with_shape(depth: usize, nsrc: usize) -> Self {
        BranchStackParams {
            depth,
            nsrc,
            ..Self::spec_default()
        }
    }

    /// The same parameters with `compound_flags = "cnvz"`.
    pub fn cnvz(self) -> Self {
        BranchStackParams { cnvz: true, ..self }
    }

    /// The same parameters with `producer_conflict = "stall"`.
    pub fn stall(self) -> Self {
        BranchStackParams { stall: true, ..self }
    }

    /// The same parameters with `perf_counters`.
    pub fn perf(self) -> Self {
        BranchStackParams { perf_counters: true, ..self }
    }

    /// NCNT: the counters (0 without `perf_counters`).
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { perf::PERF_NAMES.len() } else { 0 }
    }

    /// PSW, the width of `perf_sel`.
    pub fn perf_sel_w(&self) -> u32 {
        crate::perf::sel_width(perf::PERF_NAMES.len())
    }

    /// Width of `de_br_f` / `de_br_g`: 1 ("nz") or 2 ("cnvz").
    pub fn flag_w(&self) -> u32 {
        if self.cnvz { 2 } else { 1 }
    }

    /// Width of `cc_cnt`: max(1, ceil(log2(DEPTH+1))).
    pub fn cnt_w(&self) -> u32 {
        (usize::BITS - self.depth.leading_zeros()).max(1)
    }

    /// Mask of a PC-wide value.
    pub fn pc_mask(&self) -> u64 {
        ones(self.pc_w)
    }

    /// Mask of an OFF_W-wide value.
    pub fn off_mask(&self) -> u64 {
        ones(self.off_w)
    }

    /// `de_off` (truncated to OFF_W bits) sign-extended to 64 bits.
    pub fn sext_off(&self, off: u64) -> u64 {
        let sh = 64 - self.off_w;
        (((off & self.off_mask()) << sh) as i64 >> sh) as u64
    }

    /// §5.5.2 `br_target = de_pc + sext(de_off)` modulo 2^PC_W.
    pub fn target(&self, pc: u64, off: u64) -> u64 {
        (pc & self.pc_mask()).wrapping_add(self.sext_off(off)) & self.pc_mask()
    }

    /// Adder 1306: `pc + PC_INC` modulo 2^PC_W.
    pub fn next_pc(&self, pc: u64) -> u64 {
        pc.wrapping_add(self.pc_inc) & self.pc_mask()
    }

    /// Check the ranges of the block contract.
    pub fn validate(&self) -> Result<(), String> {
        let ok = (2..=32).contains(&self.depth)
            && (1..=3).contains(&self.nsrc)
            && (4..=64).contains(&self.pc_w)
            && (2..=self.pc_w).contains(&self.off_w)
            && (1..=self.pc_mask().min(65535)).contains(&self.pc_inc)
            && self.reset_pc <= self.pc_mask()
            && (1..=32).contains(&self.tgs)
            && self.tgs.is_power_of_two();
        if ok {
            Ok(())
        } else {
            Err(format!("branch_stack parameters out of range: {self:?}"))
        }
    }
}

/// Stack operation indicator 510 (Table 1, §5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum StackOp {
    /// `00` no operation (default).
    Dn,
    /// `01` pop.
    Po,
    /// `10` push.
    Pu,
    /// `11` pop, then push.
    Pp,
}

impl StackOp {
    pub const ALL: [StackOp; 4] = [StackOp::Dn, StackOp::Po, StackOp::Pu, StackOp::Pp];

    /// Decode a `cc_sop` port value (truncated to 2 bits).
    pub fn from_bits(b: u8) -> Self {
        Self::ALL[(b & 3) as usize]
    }

    pub fn bits(self) -> u8 {
        self as u8
    }

    /// PO and PP pop (`pe` of §5.5.3).
    pub fn pops(self) -> bool {
        matches!(self, StackOp::Po | StackOp::Pp)
    }

    /// PU and PP push (`pu` of §5.5.3).
    pub fn pushes(self) -> bool {
        matches!(self, StackOp::Pu | StackOp::Pp)
    }
}

/// Bit selected from R (`f`) or S (`g`) by a compound branch (§5.3): 0 = N, 1 = Z.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CbBit {
    N,
    Z,
}

impl CbBit {
    pub const ALL: [CbBit; 2] = [CbBit::N, CbBit::Z];

    /// The `de_br_f` / `de_br_g` port value at `compound_flags = "nz"`.
    pub fn bit(self) -> u8 {
        u8::from(self == CbBit::Z)
    }

    /// Bit position in a CC value.
    pub fn pos(self) -> u8 {
        match self {
            CbBit::N => N_BIT,
            CbBit::Z => Z_BIT,
        }
    }
}

/// Compound-branch Boolean operation `de_br_op` (§5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BoolOp {
    And,
    Or,
    Xor,
    Xnor,
}

impl BoolOp {
    pub const ALL: [BoolOp; 4] = [BoolOp::And, BoolOp::Or, BoolOp::Xor, BoolOp::Xnor];

    /// Decode a `de_br_op` port value (truncated to 2 bits).
    pub fn from_bits(b: u8) -> Self {
        Self::ALL[(b & 3) as usize]
    }

    pub fn bits(self) -> u8 {
        self as u8
    }

    pub fn apply(self, a: bool, b: bool) -> bool {
        match self {
            BoolOp::And => a & b,
            BoolOp::Or => a | b,
            BoolOp::Xor => a ^ b,
            BoolOp::Xnor => !(a ^ b),
        }
    }
}

/// Block inputs for one cycle (spec §5.4). `Default` is all zero with empty producer
/// vectors; a missing producer entry counts as `cc_vld = 0`. Producer `i` of the
/// vectors is the packed port slice `[i]`, `[2i+:2]`, `[4i+:4]`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BranchStackInputs {
    /// Synchronous, active-high reset.
    pub reset: bool,
    pub cc_vld: Vec<bool>,
    pub cc_sop: Vec<u8>,
    pub cc_val: Vec<u8>,
    pub de_br_vld: bool,
    pub de_br_cmp: bool,
    pub de_br_sel: u8,
    pub de_br_pol: bool,
    /// Compound: the flag of R / S; 1 bit at "nz" (0 N, 1 Z), 2 bits at "cnvz" (the
    /// CC bit index, 3 C, 2 N, 1 V, 0 Z). Taken modulo the port width.
    pub de_br_f: u8,
    pub de_br_g: u8,
    pub de_br_op: u8,
    pub de_pc: u64,
    pub de_off: u64,
    pub ex_branch_t1: bool,
    pub ex_t1pc: u64,
    pub pc_hold: bool,
    pub err_clr: bool,
    /// `perf_counters` only (ignored otherwise): counter index (taken modulo 2^PSW) and clear.
    pub perf_sel: u64,
    pub perf_clr: bool,
    /// `thread_groups` > 1 only (no such ports at 1): the group ids, taken modulo T.
    /// `cc_tg[i]` is stage i's group (a missing entry is group 0).
    pub cc_tg: Vec<u8>,
    /// The decoded branch's group, and the group `cc_r` … `cc_cnt` show (G2).
    pub de_tg: u8,
    /// The group of `ex_branch_t1` (G5).
    pub ex_tg: u8,
    /// The group fetched: `pc`/`npc` are its, its PC advances (G2, G5).
    pub fe_tg: u8,
    /// The group `sv_cnt`, `sv_stack`, `sv_pc` read (G6).
    pub sv_tg: u8,
    /// Restore group `rs_tg` at the edge (G7): count min(`rs_cnt` mod 2^CNT_W, depth),
    /// entries `rs_stack` (entry 0 the top; missing entries 0, each taken modulo 16) and
    /// pc `rs_pc` (modulo 2^PC_W). Ignored at T = 1.
    pub rs_valid: bool,
    pub rs_tg: u8,
    pub rs_cnt: u64,
    pub rs_stack: Vec<u8>,
    pub rs_pc: u64,
}

impl BranchStackInputs {
    /// All-zero inputs with the producer vectors sized to NSRC.
    pub fn idle(p: &BranchStackParams) -> Self {
        BranchStackInputs {
            cc_vld: vec![false; p.nsrc],
            cc_sop: vec![0; p.nsrc],
            cc_val: vec![0; p.nsrc],
            cc_tg: vec![0; p.nsrc],
            ..Default::default()
        }
    }

    /// Producer `stage` (0 = EX0) presents a CC value with stack operation `op`.
    /// Panics if the stage does not exist.
    pub fn producer(mut self, stage: usize, op: StackOp, val: u8) -> Self {
        self.cc_vld[stage] = true;
        self.cc_sop[stage] = op.bits();
        self.cc_val[stage] = val;
        self
    }

    /// PU of `val` from producer `stage`.
    pub fn push(self, stage: usize, val: u8) -> Self {
        self.producer(stage, StackOp::Pu, val)
    }

    /// PO from producer `stage` (its CC value is ignored; 0 is driven).
    pub fn pop(self, stage: usize) -> Self {
        self.producer(stage, StackOp::Po, 0)
    }

    /// PP (pop, then push `val`) from producer `stage`.
    pub fn pop_push(self, stage: usize, val: u8) -> Self {
        self.producer(stage, StackOp::Pp, val)
    }

    /// DN (no stack operation) with CC value `val` from producer `stage`.
    pub fn dn(self, stage: usize, val: u8) -> Self {
        self.producer(stage, StackOp::Dn, val)
    }

    /// Simple branch in DE: taken when `cc_r[sel] == pol`.
    pub fn branch(mut self, sel: u8, pol: bool) -> Self {
        self.de_br_vld = true;
        self.de_br_cmp = false;
        self.de_br_sel = sel;
        self.de_br_pol = pol;
        self
    }

    /// `BEZ`: simple branch taken when the Z flag of R is set (§2.5 reading (a)).
    pub fn bez(self) -> Self {
        self.branch(Z_BIT, true)
    }

    /// Compound branch `CBfg.op` in DE.
    pub fn cb(mut self, f: CbBit, g: CbBit, op: BoolOp) -> Self {
        self.de_br_vld = true;
        self.de_br_cmp = true;
        self.de_br_f = f.bit();
        self.de_br_g = g.bit();
        self.de_br_op = op.bits();
        self
    }

    /// Compound branch at `compound_flags = "cnvz"`: `op(R[f], S[g])` with f, g CC bit
    /// indices (3 C, 2 N, 1 V, 0 Z).
    pub fn cb4(mut self, f: u8, g: u8, op: BoolOp) -> Self {
        self.de_br_vld = true;
        self.de_br_cmp = true;
        self.de_br_f = f;
        self.de_br_g = g;
        self.de_br_op = op.bits();
        self
    }

    /// Keep the branch fields but drop `de_br_vld` (no branch in DE).
    pub fn no_branch(mut self) -> Self {
        self.de_br_vld = false;
        self
    }

    /// Address and offset of the branch in DE.
    pub fn at(mut self, de_pc: u64, de_off: u64) -> Self {
        self.de_pc = de_pc;
        self.de_off = de_off;
        self
    }

    /// Execution-stage redirect (BRANCH_T1) to `t1pc`.
    pub fn t1(mut self, t1pc: u64) -> Self {
        self.ex_branch_t1 = true;
        self.ex_t1pc = t1pc;
        self
    }

    pub fn hold(mut self) -> Self {
        self.pc_hold = true;
        self
    }

    pub fn clr(mut self) -> Self {
        self.err_clr = true;
        self
    }

    pub fn with_reset(mut self) -> Self {
        self.reset = true;
        self
    }
}

/// Block outputs for one cycle (spec §5.4).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BranchStackOutputs {
    pub br_taken: bool,
    pub br_target: u64,
    pub cc_r: u8,
    pub cc_r_vld: bool,
    pub cc_s: u8,
    pub cc_s_vld: bool,
    pub cc_cnt: u64,
    pub pc: u64,
    pub npc: u64,
    pub branch_t0_q: bool,
    pub t0pc_q: u64,
    pub err_ovf: bool,
    pub err_udf: bool,
    pub err_port: bool,
    pub err_multi: bool,
    /// `producer_conflict = "stall"` only (NSRC bits, empty at "drop"): stage i's
    /// operation is applied this cycle (rule S1); combinational.
    pub cc_ready: Vec<bool>,
    /// Counter `perf_sel` (0 past the last one, and without `perf_counters`).
    pub perf_val: u64,
    /// `thread_groups` > 1 only (0 / empty at 1): the group of `branch_t0_q` / `t0pc_q`.
    pub t0_tg_q: u8,
    /// Group `sv_tg`'s count, its `depth` entries (entry 0 the top, 0 at and above the
    /// count) and its pc (G6).
    pub sv_cnt: u64,
    pub sv_stack: Vec<u8>,
    pub sv_pc: u64,
}

/// The four sticky error flags (§5.5.8), or the events that set them in one cycle.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ErrFlags {
    pub ovf: bool,
    pub udf: bool,
    pub port: bool,
    pub multi: bool,
}

impl ErrFlags {
    /// §5.5.8: `flag ← set | (flag & !err_clr)` (a set wins over the clear).
    pub fn update(self, set: ErrFlags, clr: bool) -> ErrFlags {
        let keep = |old: bool, new: bool| new || (old && !clr);
        ErrFlags {
            ovf: keep(self.ovf, set.ovf),
            udf: keep(self.udf, set.udf),
            port: keep(self.port, set.port),
            multi: keep(self.multi, set.multi),
        }
    }
}

/// What the stacks do at one clock edge (§5.5.3–§5.5.6, with groups G3/G4), given the
/// inputs and the number of entries of each group at the start of the cycle. Neither
/// reset nor a restore (G7, which overrides the result for its group) is considered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackEffect {
    /// Pops requested by the branch in DE: 0, 1 (simple) or 2 (compound).
    pub kd: usize,
    /// Producers with `cc_vld` and a non-DN operation.
    pub active: usize,
    /// The winning producer (the highest active index), if any.
    pub producer: Option<usize>,
    /// The winning producer's operation (DN if none), before the port limit.
    pub op: StackOp,
    /// The winning producer's CC value (0 if none).
    pub val: u8,
    /// The branch's group (`de_tg` modulo T; 0 at T = 1).
    pub de_tg: usize,
    /// The winning producer's group g_p (`cc_tg[w]` modulo T; `de_tg` without a producer).
    pub p_tg: usize,
    /// Entries the branch removes from group `de_tg`'s stack (clamped to its entries).
    pub br_pops: usize,
    /// Entries the producer's pop removes from group `p_tg`'s stack (after the branch pops
    /// when `p_tg == de_tg`; after the port limit and the clamp).
    pub p_pops: usize,
    /// Entries removed in all: `br_pops + p_pops`.
    pub pops: usize,
    /// A push happens, on group `p_tg` (after the port limit).
    pub push: bool,
    /// Group `de_tg`'s entries after the edge.
    pub cnt_after: usize,
    /// Group `p_tg`'s entries after the edge (= `cnt_after` when it is `de_tg`).
    pub p_cnt_after: usize,
    /// The port limit struck: the winning producer pops, beside a compound branch of its own
    /// group; its op is not applied this cycle (B21/G3: suppressed at "drop"; held at "stall").
    pub suppressed: bool,
    /// "stall" only (empty at "drop"): `cc_ready` per stage (rule S1): idle and DN stages
    /// are ready, an active stage is ready only if it won and was not stopped by the
    /// port limit.
    pub ready: Vec<bool>,
    /// The branch's pops exceed group `de_tg`'s entries / the producer's pop exceeds the
    /// entries left on group `p_tg` (each sets `err_udf`, G4).
    pub br_udf: bool,
    pub p_udf: bool,
    /// Error events of this cycle. At "stall" `port` and `multi` never rise: nothing
    /// is lost (rule S1).
    pub err: ErrFlags,
}

impl StackEffect {
    /// The effect on one stack of `cnt` entries (every group holding `cnt`; at T = 1 the
    /// stack of the block).
    pub fn of(p: &BranchStackParams, i: &BranchStackInputs, cnt: usize) -> Self {
        Self::of_groups(p, i, |_| cnt)
    }

    /// The effect with `cnt(g)` entries in group g at the start of the cycle.
    pub fn of_groups(p: &BranchStackParams, i: &BranchStackInputs, cnt: impl Fn(usize) -> usize) -> Self {
        let kd = match (i.de_br_vld, i.de_br_cmp) {
            (false, _) => 0,
            (true, false) => 1,
            (true, true) => 2,
        };
        let at = |v: &Vec<u8>, k: usize| v.get(k).copied().unwrap_or(0);
        let active: Vec<usize> = (0..p.nsrc)
            .filter(|&k| {
                i.cc_vld.get(k) == Some(&true)
                    && StackOp::from_bits(at(&i.cc_sop, k)) != StackOp::Dn
            })
            .collect();
        let producer = active.last().copied();
        let (op, val) = producer.map_or((StackOp::Dn, 0), |k| {
            (StackOp::from_bits(at(&i.cc_sop, k)), at(&i.cc_val, k) & 0xF)
        });
        let de_tg = p.tg(i.de_tg);
        let p_tg = producer.map_or(de_tg, |k| p.tg(at(&i.cc_tg, k)));
        let same = p_tg == de_tg;
        // G3: the port limit only for a producer pop of the branch's own group.
        let port = same && kd + usize::from(op.pops()) > 2;
        let ready = if p.stall {
            (0..p.nsrc).map(|k| !active.contains(&k) || (producer == Some(k) && !port)).collect()
        } else {
            Vec::new()
        };
        let (pe, push) = if port {
            (false, false)
        } else {
            (op.pops(), op.pushes())
        };
        // G4: the branch pops group de_tg; the producer acts after them on the same group,
        // else on its own group's stack as it was at the start of the cycle.
        let cnt_de = cnt(de_tg);
        let br_pops = kd.min(cnt_de);
        let p_base = if same { cnt_de - br_pops } else { cnt(p_tg) };
        let p_pops = usize::from(pe).min(p_base);
        let left = p_base - p_pops;
        let p_cnt_after = if push { (left + 1).min(p.depth) } else { left };
        let br_udf = kd > cnt_de;
        let p_udf = usize::from(pe) > p_base;
        StackEffect {
            kd,
            active: active.len(),
            producer,
            op,
            val,
            de_tg,
            p_tg,
            br_pops,
            p_pops,
            pops: br_pops + p_pops,
            push,
            cnt_after: if same { p_cnt_after } else { cnt_de - br_pops },
            p_cnt_after,
            suppressed: port,
            ready,
            br_udf,
            p_udf,
            err: ErrFlags {
                ovf: push && left == p.depth,
                udf: br_udf || p_udf,
                port: port && !p.stall,
                multi: active.len() > 1 && !p.stall,
            },
        }
    }
}

/// The reference model: registered state plus the combinational function of §5.5.
/// The state fields are visible to the sibling test module for mutation testing.
#[derive(Debug, Clone)]
pub struct BranchStackModel {
    pub(super) p: BranchStackParams,
    /// Per group (G1; one at T = 1): the valid entries, top first (`E[0..cnt]` of §5.5);
    /// never longer than DEPTH.
    pub(super) stacks: Vec<Vec<u8>>,
    /// Per group: its PC (G1).
    pub(super) pcs: Vec<u64>,
    pub(super) branch_t0_q: bool,
    pub(super) t0pc_q: u64,
    /// The group of `branch_t0_q` / `t0pc_q` (G5; 0 at T = 1).
    pub(super) t0_tg_q: usize,
    pub(super) err: ErrFlags,
    /// Rule P1: the counters in `perf::PERF_NAMES` order (empty without `perf_counters`).
    pub(super) perf: Vec<u32>,
}

impl BranchStackModel {
    /// A model in its reset state (§5.5.9, G1). Panics on invalid parameters.
    pub fn new(p: &BranchStackParams) -> Self {
        if let Err(e) = p.validate() {
            panic!("{e}");
        }
        BranchStackModel {
            p: p.clone(),
            stacks: vec![Vec::with_capacity(p.depth); p.tgs],
            pcs: vec![p.reset_pc; p.tgs],
            branch_t0_q: false,
            t0pc_q: 0,
            t0_tg_q: 0,
            err: ErrFlags::default(),
            perf: vec![0; p.perf_count()],
        }
    }

    pub fn params(&self) -> &BranchStackParams {
        &self.p
    }

    /// Group 0's stack contents (the block's stack at T = 1), top first.
    pub fn stack(&self) -> &[u8] {
        &self.stacks[0]
    }

    /// Group `g`'s stack contents, top first.
    pub fn group_stack(&self, g: usize) -> &[u8] {
        &self.stacks[g]
    }

    /// Group `g`'s PC.
    pub fn group_pc(&self, g: usize) -> u64 {
        self.pcs[g]
    }

    pub fn errors(&self) -> ErrFlags {
        self.err
    }

    /// The entries of each group at the start of the cycle.
    pub fn counts(&self) -> Vec<usize> {
        self.stacks.iter().map(Vec::len).collect()
    }

    /// This cycle's [`StackEffect`] on the current stacks.
    pub fn effect(&self, i: &BranchStackInputs) -> StackEffect {
        StackEffect::of_groups(&self.p, i, |g| self.stacks[g].len())
    }

    /// §5.5.2 branch condition `t` on the pre-cycle R/S (before gating by `de_br_vld`).
    fn condition(&self, i: &BranchStackInputs, r: u8, s: u8) -> bool {
        let bit = |v: u8, pos: u8| (v >> pos) & 1 == 1;
        if i.de_br_cmp {
            // "nz": 0 N, 1 Z; "cnvz": the bit index itself (§5.3 as de_br_sel).
            let pos = |x: u8| match (self.p.cnvz, x & 1) {
                (true, _) => x & 3,
                (false, 1) => Z_BIT,
                (false, _) => N_BIT,
            };
            let a = bit(r, pos(i.de_br_f));
            let b = bit(s, pos(i.de_br_g));
            BoolOp::from_bits(i.de_br_op).apply(a, b)
        } else {
            bit(r, i.de_br_sel & 3) == i.de_br_pol
        }
    }

    /// Combinational outputs for the current state and inputs (no state change).
    pub fn outputs(&self, i: &BranchStackInputs) -> BranchStackOutputs {
        // G2: R, S and the count of group de_tg; pc and npc of group fe_tg.
        let stack = &self.stacks[self.p.tg(i.de_tg)];
        let r = stack.first().copied();
        let s = stack.get(1).copied();
        let (cc_r, cc_s) = (r.unwrap_or(0), s.unwrap_or(0));
        let pc = self.pcs[self.p.tg(i.fe_tg)];
        let (sv_cnt, sv_stack, sv_pc) = self.save(i);
        BranchStackOutputs {
            br_taken: i.de_br_vld && self.condition(i, cc_r, cc_s),
            br_target: self.p.target(i.de_pc, i.de_off),
            cc_r,
            cc_r_vld: r.is_some(),
            cc_s,
            cc_s_vld: s.is_some(),
            cc_cnt: stack.len() as u64,
            pc,
            npc: self.p.next_pc(pc),
            branch_t0_q: self.branch_t0_q,
            t0pc_q: self.t0pc_q,
            err_ovf: self.err.ovf,
            err_udf: self.err.udf,
            err_port: self.err.port,
            err_multi: self.err.multi,
            cc_ready: self.effect(i).ready,
            perf_val: crate::perf::read(&self.perf, i.perf_sel & ones(self.p.perf_sel_w())),
            t0_tg_q: self.t0_tg_q as u8,
            sv_cnt,
            sv_stack,
            sv_pc,
        }
    }

    /// One rising clock edge with inputs `i` (§5.5.3–§5.5.9, G1–G7).
    pub fn clock(&mut self, i: &BranchStackInputs) {
        if i.reset {
            *self = Self::new(&self.p);
            return;
        }
        let out = self.outputs(i);

        // §5.5.3–§5.5.6, G4: the branch pops group de_tg's stack, then the producer's pop
        // and push act on group g_p's (on the pre-cycle state when that is another group).
        let e = self.effect(i);
        self.stacks[e.de_tg].drain(..e.br_pops);
        let st = &mut self.stacks[e.p_tg];
        st.drain(..e.p_pops);
        if e.push {
            if st.len() == self.p.depth {
                st.pop(); // overflow: the bottom entry is discarded
            }
            st.insert(0, e.val);
        }

        // §5.5.7, G5: each group's PC (T1 over T0 over NPC) and the DE→EX0 registers.
        if !i.pc_hold {
            self.update_pcs(i);
            self.branch_t0_q = out.br_taken;
            self.t0pc_q = out.br_target;
            self.t0_tg_q = e.de_tg;
        }

        // G7: a restore wins over its group's ops and PC update (and over pc_hold).
        self.restore(i);

        // §5.5.8 (G4: any group's stack sets err_ovf / err_udf, also under a restore)
        self.err = self.err.update(e.err, i.err_clr);

        // Rule P1: the events of this cycle, counted (perf_clr wins over them).
        crate::perf::count(&mut self.perf, &perf::events(&e, &out, i), i.perf_clr);
    }
}
