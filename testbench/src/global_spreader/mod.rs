//! Verification of the `global_spreader` block (spec `docs/spec/global_spreader.md`
//! §2.3, §4.3, §5, as changed by `docs/contracts/global_spreader.md`, which wins):
//!
//! * [`model`] — the reference model, written from the spec and the contract only;
//! * [`eu`] — EU behaviour models (acknowledge, refuse, credits and releases with random
//!   delays) that drive the block's EU-side inputs from its outputs;
//! * [`directed`] — TC-01…TC-29 of spec §5.12 under the contract, and the contract's
//!   cases TC-30…TC-34 (and a few more), expected values written by hand;
//! * [`stimulus`] — seeded random packet streams with the EU models, configuration
//!   traffic, coverage and the invariant checker;
//! * [`workload`] — the documented dispatch workload of `make bench`;
//! * [`rtl`] — the Verilated RTL behind [`Dut`], and the model-params-to-TOML
//!   mapping; [`lockstep`] — the bindings for the shared lockstep checker ([`crate::kit`]).
//!
//! Every device under test (the model itself, or the Verilated RTL) is driven through
//! [`Dut`]; [`first_difference`] is the lockstep comparison of contract §5.

pub mod directed;
pub mod eu;
pub mod lockstep;
pub mod model;
pub mod rtl;
pub mod stimulus;
pub mod workload;
#[cfg(test)]
mod tests;

pub use model::{
    GlobalSpreaderInputs, GlobalSpreaderModel, GlobalSpreaderOutputs, GlobalSpreaderParams, CLASS_PRIORITY, PATCH,
    PIX, TRI, TYPE_NAMES, VTX,
};
pub use crate::kit::Dut;
pub use lockstep::GlobalSpreader;

/// The reference model behind the [`Dut`] interface.
pub type ModelDut = crate::kit::ModelDut<GlobalSpreader>;

/// The first output that differs, as "port: expected …, actual …" (contract §5):
///
/// * cycles with `reset` asserted (`in_reset` on either side) are not compared;
/// * every cycle: the `*_ready` of the present classes, `ar_valid`, `busy`, `stall`,
///   `eu_avail_cnt`, all `err_*`, `cfg_rvalid`, `st_slot_valid`, `st_free_res`,
///   `st_free_edt`, `st_vdt_valid` (if VDT), `st_pt_valid` (if PT);
/// * when `ar_valid != 0`: every `ar_*` port that exists for the parameters (`ar_seq` with
///   `pixel_reorder`, `ar_vdt_way` with `vdt_ways` > 1);
/// * with K resource kinds (R16) `st_free_res` and `ar_footprint` per kind k < K (named
///   `st_free_res[e][k]`, `ar_footprint[k]` when K > 1);
/// * when `cfg_rvalid`: `cfg_rdata`;
/// * with `pixel_reorder` (R14) every cycle: `po_valid` and `po_seq` (HEAD, a function of
///   registered state whether or not `po_valid`).
pub fn first_difference(
    p: &GlobalSpreaderParams,
    e: &GlobalSpreaderOutputs,
    a: &GlobalSpreaderOutputs,
) -> Option<String> {
    if e.in_reset || a.in_reset {
        return None;
    }
    let mut diff: Option<String> = None;
    // Record the first difference only; names are formatted only then.
    let mut cmp = |name: &dyn Fn() -> String, x: u64, y: u64| {
        if diff.is_none() && x != y {
            diff = Some(format!("{}: expected {x:#x}, actual {y:#x}", name()));
        }
    };
    let ready = [("vp_ready", VTX), ("tp_ready", TRI), ("xp_ready", PIX), ("pp_ready", PATCH)];
    for (name, t) in ready {
        if p.has(t) {
            cmp(&|| name.into(), e.ready(t) as u64, a.ready(t) as u64);
        }
    }
    cmp(&|| "ar_valid".into(), e.ar_valid, a.ar_valid);
    cmp(&|| "busy".into(), e.busy as u64, a.busy as u64);
    cmp(&|| "stall".into(), e.stall as u64, a.stall as u64);
    cmp(&|| "eu_avail_cnt".into(), e.eu_avail_cnt, a.eu_avail_cnt);
    let errs = ["err_vdt_miss", "err_pt_miss", "err_malformed", "err_credit", "err_release"];
    let (ee, ae) = (e.errs(), a.errs());
    for (k, name) in errs.iter().enumerate() {
        cmp(&|| name.to_string(), ee[k] as u64, ae[k] as u64);
    }
    cmp(&|| "cfg_rvalid".into(), e.cfg_rvalid as u64, a.cfg_rvalid as u64);
    cmp(&|| "st_slot_valid".into(), e.st_slot_valid, a.st_slot_valid);
    cmp(&|| "perf_val".into(), e.perf_val, a.perf_val);
    if p.pixel_reorder > 0 {
        cmp(&|| "po_valid".into(), e.po_valid as u64, a.po_valid as u64);
        cmp(&|| "po_seq".into(), e.po_seq, a.po_seq);
    }
    let at = |v: &Vec<u64>, k: usize| v.get(k).copied().unwrap_or(u64::MAX);
    let kinds = p.kinds();
    // R16: kind n of EU k (one kind: the name without the kind).
    let kind_name =
        |port: &str, k: usize, n: usize| if kinds > 1 { format!("{port}[{k}][{n}]") } else { format!("{port}[{k}]") };
    let res_at = |v: &Vec<model::PerKind>, k: usize, n: usize| v.get(k).map_or(u64::MAX, |x| x[n]);
    for k in 0..p.eus {
        for n in 0..kinds {
            cmp(&|| kind_name("st_free_res", k, n), res_at(&e.st_free_res, k, n), res_at(&a.st_free_res, k, n));
        }
        cmp(&|| format!("st_free_edt[{k}]"), at(&e.st_free_edt, k), at(&a.st_free_edt, k));
    }
    // A missing bit reads 2 (never equal to a present one).
    let bit = |v: &Vec<bool>, k: usize| v.get(k).map_or(2, |&b| b as u64);
    if p.has_vdt() {
        for k in 0..p.vdt_depth {
            cmp(&|| format!("st_vdt_valid[{k}]"), bit(&e.st_vdt_valid, k), bit(&a.st_vdt_valid, k));
        }
    }
    if p.has_pt() {
        for k in 0..p.pt_depth {
            cmp(&|| format!("st_pt_valid[{k}]"), bit(&e.st_pt_valid, k), bit(&a.st_pt_valid, k));
        }
    }
    if e.ar_valid != 0 {
        cmp(&|| "ar_type".into(), e.ar_type, a.ar_type);
        for n in 0..kinds {
            let name = if kinds > 1 { format!("ar_footprint[{n}]") } else { "ar_footprint".into() };
            cmp(&|| name.clone(), e.ar_footprint[n], a.ar_footprint[n]);
        }
        cmp(&|| "ar_copy_size".into(), e.ar_copy_size, a.ar_copy_size);
        cmp(&|| "ar_src_addr".into(), e.ar_src_addr, a.ar_src_addr);
        cmp(&|| "ar_vcount".into(), e.ar_vcount, a.ar_vcount);
        if p.has_vdt() {
            cmp(&|| "ar_base_idx".into(), e.ar_base_idx, a.ar_base_idx);
        }
        if p.has_pt() {
            cmp(&|| "ar_prid".into(), e.ar_prid, a.ar_prid);
            cmp(&|| "ar_global_ref".into(), e.ar_global_ref as u64, a.ar_global_ref as u64);
            cmp(&|| "ar_ref_valid".into(), e.ar_ref_valid, a.ar_ref_valid);
            for k in 0..3 {
                cmp(&|| format!("ar_ref_eu[{k}]"), e.ar_ref_eu[k], a.ar_ref_eu[k]);
                cmp(&|| format!("ar_ref_ent[{k}]"), e.ar_ref_ent[k], a.ar_ref_ent[k]);
                cmp(&|| format!("ar_ref_elem[{k}]"), e.ar_ref_elem[k], a.ar_ref_elem[k]);
                cmp(&|| format!("ar_ref_grp[{k}]"), e.ar_ref_grp[k], a.ar_ref_grp[k]);
            }
        }
        if p.has(PIX) {
            cmp(&|| "ar_pix_mask".into(), e.ar_pix_mask, a.ar_pix_mask);
        }
        if p.pixel_reorder > 0 {
            cmp(&|| "ar_seq".into(), e.ar_seq, a.ar_seq);
        }
        if p.vdt_ways > 1 {
            cmp(&|| "ar_vdt_way".into(), e.ar_vdt_way, a.ar_vdt_way);
        }
    }
    if e.cfg_rvalid {
        cmp(&|| "cfg_rdata".into(), e.cfg_rdata, a.cfg_rdata);
    }
    diff
}
