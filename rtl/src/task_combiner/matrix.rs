//! The dependency and age matrices (word-level Verilog), with the victim and issue picks.

use super::*;

/// The dependency and age matrices of an `n`-entry table (n >= 2) and the
/// logic over them, as hand-written word-level Verilog: one N-bit row per
/// entry, so the emitted text and Verilator's work grow as N rows, not N^2
/// one-bit statements. Ports are vectors of bits (`name$i` inside the text),
/// one per entry (`dep`: N x N, bit i*N+j).
///
/// * `dep` row i, bit j: entry i depends on entry j (the diagonal is constant 0).
///   Next row i: cleared by `reset` and by `created[i]`; ORed with `dset` when
///   `acc[i]` (the instance goes into i); then column j cleared when `psel[j]`
///   (so `dset` need not exclude the entry leaving) and bit i masked.
/// * `old` row k, bit x: entry x was created before entry k (diagonal constant
///   0). A created entry c gets every other entry as older and is removed from
///   every other row. Only pairs of resident entries matter (every member of
///   `elig` / `same` is resident; `best` is used only when every entry is
///   resident), and each of those was created after reset, so the rows of
///   free entries and the reset value do not matter; on resident pairs the
///   relation is antisymmetric.
/// * Combinational: `rowz[i]` = row i all zero; `old_e[k]` / `old_s[k]` = k
///   is the member of `elig` / `same` no other member is older than (both in
///   parallel; the core selects); `best[k]` = k is the member of `cand` no
///   other member beats, where j beats i when (fullest policies, `cnt` given)
///   {count_j, j older than i} > {count_i, 0}, i.e. more instances, ties to
///   the older, or (oldest policies, no `cnt`) j is older: one comparison per
///   unordered pair written as AND/OR terms (no carry chain), the reverse
///   order its complement, then an N-input NOR per entry (log depth, where
///   the running maximum it replaces was a chain over the entries);
///   `depprop[j]` = some `pend` entry depends on j.
/// * `issue_order = "fullest"` (`issue_full`): `old_e` / `old_s` are the member of `elig` /
///   `same` no other member beats by the count relation above (more instances, ties to the
///   older), the issue's first task by R4; with a fullest eviction policy the same relation
///   serves both, otherwise a second one (`ibeat_r`) is built for the issue alone.
#[derive(LogicBlock)]
pub struct TaskMatrix {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Resident and PENDING (registered).
    pub pend: Vec<Signal<In, Bit>>,
    /// Issue: eligible entries, and those of them in the last issued state.
    pub elig: Vec<Signal<In, Bit>>,
    pub same: Vec<Signal<In, Bit>>,
    /// Victim candidates and their counts (entry e's count bit b at e*CNT_W+b).
    pub cand: Vec<Signal<In, Bit>>,
    pub cnt: Vec<Signal<In, Bit>>,
    /// Moves into the output slot at this edge (its column is cleared).
    pub psel: Vec<Signal<In, Bit>>,
    /// Created at this edge.
    pub created: Vec<Signal<In, Bit>>,
    /// Receives the accepted instance at this edge (one-hot or zero).
    pub acc: Vec<Signal<In, Bit>>,
    /// The instance's producers, ORed into row `acc` (`psel` masked after).
    pub dset: Vec<Signal<In, Bit>>,
    pub rowz: Vec<Signal<Out, Bit>>,
    /// The oldest member of `elig` / of `same` (one-hot or zero).
    pub old_e: Vec<Signal<Out, Bit>>,
    pub old_s: Vec<Signal<Out, Bit>>,
    /// The candidate no other candidate beats (the victim if one is needed).
    pub best: Vec<Signal<Out, Bit>>,
    pub depprop: Vec<Signal<Out, Bit>>,
    pub dep: Vec<Signal<Out, Bit>>,
    /// Rows for rust-hdl's own simulator.
    _dep: Vec<Vec<bool>>,
    _old: Vec<Vec<bool>>,
    /// The victim's relation counts instances (fullest eviction policies); the issue's does
    /// (`issue_order = "fullest"`). Either needs the `cnt` inputs.
    _evict_full: bool,
    _issue_full: bool,
}

impl TaskMatrix {
    /// `cw`: count bits per entry. The victim's relation counts with a fullest eviction
    /// policy (`evict_full`), the issue's with `issue_order = "fullest"` (`issue_full`); with
    /// neither the age alone decides and there are no count inputs.
    pub fn new(n: usize, cw: usize, evict_full: bool, issue_full: bool) -> Self {
        assert!(n >= 2, "TaskMatrix needs at least two entries");
        let cw = if evict_full || issue_full { cw } else { 0 };
        TaskMatrix {
            clock: Signal::default(),
            reset: Signal::default(),
            pend: signals(n),
            elig: signals(n),
            same: signals(n),
            cand: signals(n),
            cnt: signals(n * cw),
            psel: signals(n),
            created: signals(n),
            acc: signals(n),
            dset: signals(n),
            rowz: signals(n),
            old_e: signals(n),
            old_s: signals(n),
            best: signals(n),
            depprop: signals(n),
            dep: signals(n * n),
            _dep: vec![vec![false; n]; n],
            _old: vec![vec![false; n]; n],
            _evict_full: evict_full,
            _issue_full: issue_full,
        }
    }

    pub(super) fn n(&self) -> usize {
        self.pend.len()
    }

    /// Count bits per entry (0: the age alone decides).
    pub(super) fn cw(&self) -> usize {
        self.cnt.len() / self.n()
    }

    /// `wire [N-1:0] name_w = {name$N-1, …, name$0};`
    pub(super) fn row_wire(name: &str, n: usize) -> String {
        let bits: Vec<String> = (0..n).rev().map(|i| format!("{name}${i}")).collect();
        format!("    wire [{}:0] {name}_w = {{{}}};\n", n - 1, bits.join(", "))
    }
}

impl Logic for TaskMatrix {
    fn update(&mut self) {
        let n = self.n();
        let v = |s: &[Signal<In, Bit>]| -> Vec<bool> { s.iter().map(|b| b.val()).collect() };
        if self.clock.pos_edge() {
            let (psel, created, acc, dset) = (v(&self.psel), v(&self.created), v(&self.acc), v(&self.dset));
            let reset = self.reset.val();
            for i in 0..n {
                for j in 0..n {
                    let d = ((!created[i] && self._dep[i][j]) || (acc[i] && dset[j])) && !psel[j];
                    self._dep[i][j] = !reset && i != j && d;
                    let o = if created[i] { true } else { self._old[i][j] && !created[j] };
                    self._old[i][j] = !reset && i != j && o;
                }
            }
        }
        let (pend, elig, same, cand) = (v(&self.pend), v(&self.elig), v(&self.same), v(&self.cand));
        let cw = self.cw();
        let count = |e: usize| -> u64 { (0..cw).filter(|b| self.cnt[e * cw + b].val()).map(|b| 1u64 << b).sum() };
        // j beats i: a larger count (fullest), or the same count and older.
        let beats = |full: bool, j: usize, i: usize| -> bool {
            let age = self._old[i][j];
            if full {
                count(j) > count(i) || (count(j) == count(i) && age)
            } else {
                age
            }
        };
        let (ef, isf) = (self._evict_full, self._issue_full);
        for i in 0..n {
            self.rowz[i].next = !self._dep[i].iter().any(|b| *b);
            self.old_e[i].next = elig[i] && !(0..n).any(|j| j != i && elig[j] && beats(isf, j, i));
            self.old_s[i].next = same[i] && !(0..n).any(|j| j != i && same[j] && beats(isf, j, i));
            self.best[i].next = cand[i] && !(0..n).any(|j| j != i && cand[j] && beats(ef, j, i));
            self.depprop[i].next = (0..n).any(|p| pend[p] && self._dep[p][i]);
            for j in 0..n {
                self.dep[i * n + j].next = self._dep[i][j];
            }
        }
    }

    fn connect(&mut self) {
        for q in self.rowz.iter_mut().chain(&mut self.old_e).chain(&mut self.old_s).chain(&mut self.best).chain(&mut self.depprop).chain(&mut self.dep) {
            q.connect();
        }
    }

    fn hdl(&self) -> Verilog {
        let n = self.n();
        let msb = n - 1;
        let cw = self.cw();
        let mut wires: String = ["pend", "elig", "same", "cand", "psel", "created", "acc", "dset"]
            .iter()
            .map(|name| Self::row_wire(name, n))
            .collect();
        if cw > 0 {
            wires += &Self::row_wire("cnt", n * cw);
        }
        let mut unpack = String::new();
        for name in ["rowz", "old_e", "old_s", "best", "depprop"] {
            for i in 0..n {
                unpack += &format!("        {name}${i} = {name}_r[{i}];\n");
            }
        }
        for i in 0..n {
            for j in 0..n {
                unpack += &format!("        dep${} = dep_q[{i}][{j}];\n", i * n + j);
            }
        }
        // Fullest: {count_j, j older} > {count_i, 0} as AND/OR terms (no carry
        // chain); else the age alone.
        let full_pair = format!(
            "\
                cmp_a = {{cnt_w[j*{cw} +: {cw}], old_q[c][j]}};
                cmp_b = {{cnt_w[c*{cw} +: {cw}], 1'b0}};
                cmp_gt = 1'b0;
                cmp_eq = 1'b1;
                for (k = {cw}; k >= 0; k = k - 1) begin
                    cmp_gt = cmp_gt | (cmp_eq & cmp_a[k] & ~cmp_b[k]);
                    cmp_eq = cmp_eq & ~(cmp_a[k] ^ cmp_b[k]);
                end
"
        );
        let (pair, beat_doc) = if self._evict_full {
            (full_pair.clone(), "more instances, or as many and older")
        } else {
            ("                cmp_gt = old_q[c][j];\n".to_string(), "older")
        };
        // The issue's first task (R4): the oldest member, or with issue_order = "fullest" the
        // member no other beats by the count relation (beat_r itself when the victim's
        // relation counts too, else ibeat_r, built in the victim's block beside beat_r).
        let (issue_pick, ibeat) = match (self._issue_full, self._evict_full) {
            (false, _) => ("old_q[c]", String::new()),
            (true, true) => ("beat_r[c]", String::new()),
            (true, false) => ("ibeat_r[c]", full_pair.clone()),
        };
        let (ibeat_decl, ibeat_init, ibeat_pair) = if ibeat.is_empty() {
            (String::new(), String::new(), String::new())
        } else {
            (
                format!("    // ibeat_r[i][j]: j comes before i in the issue order (more instances, or as many and older).\n    reg [{msb}:0] ibeat_r [0:{msb}];\n"),
                format!("            ibeat_r[c] = {n}'d0;\n"),
                format!("{ibeat}                ibeat_r[c][j] = cmp_gt;\n                ibeat_r[j][c] = ~cmp_gt;\n"),
            )
        };
        let cmp_regs = if cw > 0 {
            format!("    reg [{cw}:0] cmp_a;\n    reg [{cw}:0] cmp_b;\n    reg cmp_eq;\n    integer k;\n")
        } else {
            String::new()
        };
        // The rows' clocked logic: one block with a for loop up to 64 entries (the text of
        // every config up to 64 entries since the matrices were written word by word; Yosys
        // 0.70's synth_ecp5 maps the 16-entry default to 5,441 LUT4 this way, 5,762 with the
        // generate form); beyond 64, one block per row in a generate loop, since Verilator
        // unrolls a for loop of delayed assignments to an array only up to its --unroll-count
        // (64 by default) and refuses it beyond (BLKLOOPINIT).
        // One row's update (row `s`), indented by `ind`.
        let row_update = |ind: &str| {
            format!(
                "{ind}if (reset) begin\n\
                 {ind}    dep_q[s] <= {n}'d0;\n\
                 {ind}    old_q[s] <= {n}'d0;\n\
                 {ind}end else begin\n\
                 {ind}    dep_q[s] <= ((created_w[s] ? {n}'d0 : dep_q[s]) | (acc_w[s] ? dset_w : {n}'d0)) & ~psel_w & ~({n}'d1 << s);\n\
                 {ind}    old_q[s] <= (created_w[s] ? ~{n}'d0 : old_q[s] & ~created_w) & ~({n}'d1 << s);\n\
                 {ind}end\n"
            )
        };
        let (rows, row_var) = if n <= 64 {
            (
                format!(
                    "    always @(posedge clock) begin\n        for (s = 0; s < {n}; s = s + 1) begin\n{}        end\n    end\n",
                    row_update("            ")
                ),
                "    integer s;\n",
            )
        } else {
            (
                format!(
                    "    // One clocked block per row (more than 64 entries: see matrix.rs).\n    genvar s;\n    generate\n        \
                     for (s = 0; s < {n}; s = s + 1) begin : row\n            always @(posedge clock) begin\n{}            end\n        \
                     end\n    endgenerate\n",
                    row_update("                ")
                ),
                "",
            )
        };
        Verilog::Custom(format!(
            "\
{wires}    // dep_q[i][j]: entry i depends on entry j; old_q[k][x]: entry x was created before entry k.
    reg [{msb}:0] dep_q [0:{msb}];
    reg [{msb}:0] old_q [0:{msb}];
    reg [{msb}:0] rowz_r;
    // old_e_r / old_s_r read elig / same, which the core computes from rowz_r
    // in its one always block: a loop only at block level, no combinational
    // cycle (the UNOPTFLAT waiver of warpgen.vlt on mx_0 covers it).
    reg [{msb}:0] old_e_r;
    reg [{msb}:0] old_s_r;
    reg [{msb}:0] best_r;
    reg [{msb}:0] depprop_r;
    // beat_r[i][j]: candidate j beats i ({beat_doc}); one comparison per
    // pair, the other order its complement (the age relation is antisymmetric
    // on resident pairs).
    reg [{msb}:0] beat_r [0:{msb}];
{ibeat_decl}    reg cmp_gt;
{cmp_regs}    integer c;
{row_var}    integer j;

    always @(*) begin
        depprop_r = {n}'d0;
        for (c = 0; c < {n}; c = c + 1) begin
            rowz_r[c] = ~|dep_q[c];
            depprop_r = depprop_r | (pend_w[c] ? dep_q[c] : {n}'d0);
        end
    end

    // (A block of its own: elig / same depend on rowz.)
    always @(*) begin
        for (c = 0; c < {n}; c = c + 1) begin
            old_e_r[c] = elig_w[c] & ~|(elig_w & {issue_pick});
            old_s_r[c] = same_w[c] & ~|(same_w & {issue_pick});
        end
    end

    always @(*) begin
        for (c = 0; c < {n}; c = c + 1) begin
            beat_r[c] = {n}'d0;
{ibeat_init}        end
        for (c = 0; c < {n}; c = c + 1) begin
            for (j = c + 1; j < {n}; j = j + 1) begin
{pair}                beat_r[c][j] = cmp_gt;
                beat_r[j][c] = ~cmp_gt;
{ibeat_pair}            end
        end
        for (c = 0; c < {n}; c = c + 1) begin
            best_r[c] = cand_w[c] & ~|(cand_w & beat_r[c]);
        end
    end

{rows}
    always @(*) begin
{unpack}    end
"
        ))
    }
}
