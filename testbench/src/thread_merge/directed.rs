//! Directed test cases: the spec's §5.8 cases under contract §6 (as written, with the
//! changed values, T24 rewritten, K1–K4 added), cases for behaviour only the contract
//! defines (X01–X12), `merge_ways` sets (W01–W10, contract R20) and the exhaustive pair
//! table of contract §6.
//!
//! Conventions (contract R1, §6): cycle 0 is the only reset cycle; "F{cov,tag} @n" presents
//! a fragment from cycle n on, held (valid/ready) until accepted; "me{t} @n" likewise on the
//! me channel; term/disc/xl/flush are driven in exactly the cycle named; `grp_ready` and
//! `rsp_ready` are 1 unless a case lowers them. "@n: x" checks output x as seen in cycle n
//! (before edge n). Lookups `rf(t)`/`wb(t)` are checked by driving `rf_tgid = wb_tgid = t`
//! in that cycle (an extra evaluation per looked-up id; the final evaluation of the cycle
//! uses id 0). Fragments use prim 1 unless stated. Masks are written MSB first as in the
//! spec (`0b0111` = lanes 0, 1, 2). Expected values are written by hand from the spec and
//! the contract; none is computed by a model.
//!
//! Readings: T1 of the spec holds reset for 2 edges; contract C0 resets in cycle 0 only,
//! so T1 checks @1 and the added T1b resets a dirty block for two cycles. T18's "the next
//! allocation gets tgid 0" is checked with a full fragment @21. T22's "separately, xl for a
//! PRE group" is T22b (also for a WAIT group). T15b runs T15's stimulus first.

use super::ThreadMerge;
use super::{Dut, ThreadMergeInputs, ThreadMergeOutputs, ThreadMergeParams};

mod runner;
mod cases_t1_t28;
mod cases_contract;
mod cases_ways;
mod pair_table;
pub use cases_t1_t28::*;
pub use cases_contract::*;
pub use cases_ways::*;
pub use pair_table::*;

/// The parameter set a case runs with (contract C0 and variations).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamsKind {
    /// C0: lanes 4, slots 4, remap, pair_hold 4, merge_timeout 16, tag 32, prim 16.
    C0,
    /// C0 without remap (T7).
    NoRemap,
    /// C0 with pair_hold 0 (T9b).
    Hold0,
    /// C0 with lanes 8 (T28).
    Lanes8,
    /// C0 with slots 1 (K3).
    Slots1,
    /// C0 with slots 3: ids 6 and 7 name nothing (X01).
    Slots3,
    /// C0 with perf_counters (X09, R16-R17).
    Perf,
    /// C0 with cross_primitive (X10, R18).
    Cross,
    /// C0 with candidates 2 (X11, X12, R19): the shape of the first `candidates` lockstep.
    Cand2,
    /// C0 with merge_ways 3 (W01, W02, W04, W06-W08, W10; R20), and perf_counters: the first
    /// `perf_counters` lockstep config, one Verilated build for both. The counters change no
    /// other output (perf_sel, perf_clr, err_clr stay 0 in these cases).
    Ways3,
    /// C0 with merge_ways 4 (W03, W05, W09; R20), and cross_primitive: the first
    /// `cross_primitive` lockstep config, one build for both. The cases use one primitive,
    /// where R18 changes nothing.
    Ways4,
}

impl ParamsKind {
    pub fn params(self) -> ThreadMergeParams {
        let c0 = ThreadMergeParams::contract_default();
        match self {
            ParamsKind::C0 => c0,
            ParamsKind::NoRemap => ThreadMergeParams { remap: false, ..c0 },
            ParamsKind::Hold0 => ThreadMergeParams { pair_hold: 0, ..c0 },
            ParamsKind::Lanes8 => ThreadMergeParams { lanes: 8, ..c0 },
            ParamsKind::Slots1 => ThreadMergeParams { slots: 1, ..c0 },
            ParamsKind::Slots3 => ThreadMergeParams { slots: 3, ..c0 },
            ParamsKind::Perf => ThreadMergeParams { perf_counters: true, ..c0 },
            ParamsKind::Cross => ThreadMergeParams { cross_primitive: true, ..c0 },
            ParamsKind::Cand2 => ThreadMergeParams { candidates: 2, ..c0 },
            ParamsKind::Ways3 => ThreadMergeParams { merge_ways: 3, perf_counters: true, ..c0 },
            ParamsKind::Ways4 => ThreadMergeParams { merge_ways: 4, cross_primitive: true, ..c0 },
        }
    }
}

pub type CaseFn = fn(&mut dyn Dut<ThreadMerge>) -> Result<(), String>;

/// Every directed case with the parameter set it needs.
pub fn all_cases() -> Vec<(&'static str, ParamsKind, CaseFn)> {
    use ParamsKind::*;
    vec![
        ("T1", C0, t1 as CaseFn),
        ("T1b", C0, t1b),
        ("T2", C0, t2),
        ("T3", C0, t3),
        ("T4", C0, t4),
        ("T5", C0, t5),
        ("T5b", C0, t5b),
        ("T6", C0, t6),
        ("T7", NoRemap, t7),
        ("T8", C0, t8),
        ("T9", C0, t9),
        ("T9b", Hold0, t9b),
        ("T10", C0, t10),
        ("T11", C0, t11),
        ("T12", C0, t12),
        ("T13", C0, t13),
        ("T14", C0, t14),
        ("T15", C0, t15),
        ("T15b", C0, t15b),
        ("T16", C0, t16),
        ("T16b", C0, t16b),
        ("T17", C0, t17),
        ("T18", C0, t18),
        ("T19", C0, t19),
        ("T19b", C0, t19b),
        ("T20", C0, t20),
        ("T21", C0, t21),
        ("T22", C0, t22),
        ("T22b", C0, t22b),
        ("T23", C0, t23),
        ("T24", C0, t24),
        ("T25", C0, t25),
        ("T26", C0, t26),
        ("T27", C0, t27),
        ("T28", Lanes8, t28),
        ("K1", C0, k1),
        ("K2", C0, k2),
        ("K3", Slots1, k3),
        ("K4", C0, k4),
        ("X01", Slots3, x01),
        ("X02", C0, x02),
        ("X03", C0, x03),
        ("X04", C0, x04),
        ("X05", C0, x05),
        ("X06", C0, x06),
        ("X07", C0, x07),
        ("X08", C0, x08),
        ("X09", Perf, x09),
        ("X10", Cross, x10),
        ("X11", Cand2, x11),
        ("X12", Cand2, x12),
        ("W01", Ways3, w01),
        ("W02", Ways3, w02),
        ("W03", Ways4, w03),
        ("W04", Ways3, w04),
        ("W05", Ways4, w05),
        ("W06", Ways3, w06),
        ("W07", Ways3, w07),
        ("W08", Ways3, w08),
        ("W09", Ways4, w09),
        ("W10", Ways3, w10),
    ]
}

/// Run every case on a fresh DUT from `make`; all failures, one per line.
pub fn run_all(make: &mut dyn FnMut(&ThreadMergeParams) -> Box<dyn Dut<ThreadMerge>>) -> Result<(), String> {
    let cases = all_cases()
        .into_iter()
        .map(|(name, kind, case)| (name, (kind, case)));
    crate::kit::run_cases(cases, |(kind, case)| case(make(&kind.params()).as_mut()))
}
