//! R16 (resource kinds) in the model: the fit over every kind, the debit and the credits per
//! kind with their clamps (R8, R9), and the registers of the kinds after the first (§2.1). With
//! one kind (K = 1) each of these is R4 / R8 / R9 as written, on kind 0; the registers of
//! every kind (kind 0's at the §2.1 addresses) go through one decoder, [`super::reg::res_reg`].

use super::cycle::clamp;
use super::{GlobalSpreaderInputs, GlobalSpreaderModel, Mutation, PerKind};

impl GlobalSpreaderModel {
    /// R4 / R16 fit of EU e for footprint `fp` (per kind) and type t: every kind k has
    /// FREE_RES[e][k] >= fp_k and >= MIN_RES[t][k], and FREE_EDT[e] >= 1.
    pub(super) fn fits(&self, e: usize, fp: &PerKind, t: usize) -> bool {
        let (free_res, free_edt) = self.free_view();
        let kinds = if self.mutated(Mutation::KindsIgnoredInFit) { 1 } else { self.p.kinds() };
        let min_kind = |k: usize| if self.mutated(Mutation::MinResKind0) { 0 } else { k };
        let kind_fits = |k: usize| free_res[e][k] >= fp[k] && free_res[e][k] >= self.r.min_res[t][min_kind(k)];
        (0..kinds).all(kind_fits) && free_edt[e] >= 1
    }

    /// R8 / R16: what an ack of footprint `fp` debits, per kind: fp_k from kind k.
    pub(super) fn debit(&self, fp: &PerKind) -> PerKind {
        if self.mutated(Mutation::DebitKind0Everywhere) {
            self.p.per_kind(|_| fp[0])
        } else {
            *fp
        }
    }

    /// R9 / R16 for EU e at the edge: per kind, FREE_RES[e][k] + credit_k - debit_k, exact,
    /// clamped to [0, RES_TOTAL[e][k]] (the credit is payload of `cr_valid`). True if a kind was
    /// clamped (`err_credit`).
    pub(super) fn credit_res(&mut self, e: usize, i: &GlobalSpreaderInputs, debit: &PerKind) -> bool {
        let p = &self.p;
        let cv = i.cr_valid >> e & 1 == 1;
        let cr = i.cr_res.get(e).copied().unwrap_or_default();
        let mut any = false;
        for k in 0..p.kinds() {
            let credit = if cv { cr[k] & p.res_mask() } else { 0 };
            let exact = self.free_res[e][k] as i64 + credit as i64 - debit[k] as i64;
            let (v, clamped) = clamp(exact, self.r.res_total[e][k]);
            self.free_res[e][k] = v;
            any |= clamped && (k == 0 || !self.mutated(Mutation::ClampKind0Only));
        }
        any
    }

    /// The value of resource register `r` ([`super::reg::res_reg`]: kind, what, index) of any kind;
    /// 0 for a kind, EU or type the parameters do not have.
    pub(super) fn read_res_reg(&self, r: (usize, usize, usize)) -> u64 {
        let p = &self.p;
        match r {
            (k, what, x) if k < p.kinds() => match what {
                0 if x < p.eus => self.r.res_total[x][k],
                1 if x < p.eus => self.free_res[x][k],
                2 if p.has(x) => self.r.min_res[x][k],
                3 if p.has(x) => self.r.frame_res[x][k],
                _ => 0,
            },
            _ => 0,
        }
    }

    /// A write to resource register `r` of any kind: RES_TOTAL (also sets FREE_RES, winning over
    /// the edge's debit and credit of that kind), MIN_RES, FRAME_RES; RES_W bits. FREE_RES is
    /// read-only; kinds, EUs and types the parameters do not have ignore it.
    pub(super) fn write_res_reg(&mut self, r: (usize, usize, usize), data: u64) {
        let p = &self.p;
        let v = data & p.res_mask();
        match r {
            (k, 0, e) if k < p.kinds() && e < p.eus => {
                self.r.res_total[e][k] = v;
                if k == 0 || !self.mutated(Mutation::KindTotalKeepsFree) {
                    self.free_res[e][k] = v;
                }
            }
            (k, 2, t) if k < p.kinds() && p.has(t) => self.r.min_res[t][k] = v,
            (k, 3, t) if k < p.kinds() && p.has(t) => self.r.frame_res[t][k] = v,
            _ => {}
        }
    }
}
