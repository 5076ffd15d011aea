//! Verification of the `global_spreader` block (spec `shared/spec/global_spreader.md`
//! §2.3, §4.3, §5, as changed by `contracts/global_spreader.md`, which wins):
//!
//! * [`model`] — the reference model, written from the spec and the contract only;
//! * [`eu`] — EU behaviour models (acknowledge, refuse, credits and releases with random
//!   delays) that drive the block's EU-side inputs from its outputs;
//! * [`directed`] — TC-01…TC-29 of spec §5.12 under the contract, and the contract's
//!   cases TC-30…TC-34 (and a few more), expected values written by hand;
//! * [`stimulus`] — seeded random packet streams with the EU models, configuration
//!   traffic, coverage and the invariant checker;
//! * [`workload`] — the documented dispatch workload of `make bench`.
//!
//! Every device under test (the model itself, or the Verilated RTL) is driven through
//! [`GlobalSpreaderDut`]; [`first_difference`] is the lockstep comparison of contract §5.

pub mod directed;
pub mod eu;
pub mod model;
pub mod stimulus;
pub mod workload;
#[cfg(test)]
mod tests;

pub use model::{
    GlobalSpreaderInputs, GlobalSpreaderModel, GlobalSpreaderOutputs, GlobalSpreaderParams, CLASS_PRIORITY, PATCH,
    PIX, TRI, TYPE_NAMES, VTX,
};

/// A cycle-driven global-spreader implementation.
pub trait GlobalSpreaderDut {
    fn params(&self) -> &GlobalSpreaderParams;
    /// apply inputs for this cycle, settle, return outputs (no clock edge)
    fn eval(&mut self, inp: &GlobalSpreaderInputs) -> GlobalSpreaderOutputs;
    /// one rising clock edge with the inputs last given to eval
    fn tick(&mut self);
}

/// The reference model behind the [`GlobalSpreaderDut`] interface.
#[derive(Debug, Clone)]
pub struct ModelDut {
    pub model: GlobalSpreaderModel,
    last: GlobalSpreaderInputs,
}

impl ModelDut {
    pub fn new(p: &GlobalSpreaderParams) -> Self {
        ModelDut { model: GlobalSpreaderModel::new(p), last: GlobalSpreaderInputs::idle(p) }
    }

    /// The model wrapped as a DUT (e.g. a mutant).
    pub fn from_model(model: GlobalSpreaderModel) -> Self {
        let last = GlobalSpreaderInputs::idle(model.params());
        ModelDut { model, last }
    }
}

impl GlobalSpreaderDut for ModelDut {
    fn params(&self) -> &GlobalSpreaderParams {
        self.model.params()
    }

    fn eval(&mut self, inp: &GlobalSpreaderInputs) -> GlobalSpreaderOutputs {
        self.last = inp.clone();
        self.model.outputs(inp)
    }

    fn tick(&mut self) {
        self.model.clock(&self.last);
    }
}

/// The first output that differs, as "port: expected …, actual …" (contract §5):
///
/// * cycles with `reset` asserted (`in_reset` on either side) are not compared;
/// * every cycle: the `*_ready` of the present classes, `ar_valid`, `busy`, `stall`,
///   `eu_avail_cnt`, all `err_*`, `cfg_rvalid`, `st_slot_valid`, `st_free_res`,
///   `st_free_edt`, `st_vdt_valid` (if VDT), `st_pt_valid` (if PT);
/// * when `ar_valid != 0`: every `ar_*` port that exists for the parameters;
/// * when `cfg_rvalid`: `cfg_rdata`.
pub fn first_difference(
    p: &GlobalSpreaderParams,
    e: &GlobalSpreaderOutputs,
    a: &GlobalSpreaderOutputs,
) -> Option<String> {
    if e.in_reset || a.in_reset {
        return None;
    }
    let mut f: Vec<(String, u64, u64)> = Vec::new();
    let mut push = |name: &str, x: u64, y: u64| f.push((name.to_string(), x, y));
    let ready = [("vp_ready", VTX), ("tp_ready", TRI), ("xp_ready", PIX), ("pp_ready", PATCH)];
    for (name, t) in ready {
        if p.has(t) {
            push(name, e.ready(t) as u64, a.ready(t) as u64);
        }
    }
    push("ar_valid", e.ar_valid, a.ar_valid);
    push("busy", e.busy as u64, a.busy as u64);
    push("stall", e.stall as u64, a.stall as u64);
    push("eu_avail_cnt", e.eu_avail_cnt, a.eu_avail_cnt);
    let errs = ["err_vdt_miss", "err_pt_miss", "err_malformed", "err_credit", "err_release"];
    for (k, name) in errs.iter().enumerate() {
        push(name, e.errs()[k] as u64, a.errs()[k] as u64);
    }
    push("cfg_rvalid", e.cfg_rvalid as u64, a.cfg_rvalid as u64);
    push("st_slot_valid", e.st_slot_valid, a.st_slot_valid);
    for k in 0..p.eus {
        let at = |v: &Vec<u64>| v.get(k).copied().unwrap_or(u64::MAX);
        push(&format!("st_free_res[{k}]"), at(&e.st_free_res), at(&a.st_free_res));
        push(&format!("st_free_edt[{k}]"), at(&e.st_free_edt), at(&a.st_free_edt));
    }
    let bits = |v: &Vec<bool>, k: usize| v.get(k).map_or(2, |&b| b as u64);
    if p.has_vdt() {
        for k in 0..p.vdt_depth {
            if bits(&e.st_vdt_valid, k) != bits(&a.st_vdt_valid, k) {
                push(&format!("st_vdt_valid[{k}]"), bits(&e.st_vdt_valid, k), bits(&a.st_vdt_valid, k));
            }
        }
    }
    if p.has_pt() {
        for k in 0..p.pt_depth {
            if bits(&e.st_pt_valid, k) != bits(&a.st_pt_valid, k) {
                push(&format!("st_pt_valid[{k}]"), bits(&e.st_pt_valid, k), bits(&a.st_pt_valid, k));
            }
        }
    }
    if e.ar_valid != 0 {
        push("ar_type", e.ar_type, a.ar_type);
        push("ar_footprint", e.ar_footprint, a.ar_footprint);
        push("ar_copy_size", e.ar_copy_size, a.ar_copy_size);
        push("ar_src_addr", e.ar_src_addr, a.ar_src_addr);
        push("ar_vcount", e.ar_vcount, a.ar_vcount);
        if p.has_vdt() {
            push("ar_base_idx", e.ar_base_idx, a.ar_base_idx);
        }
        if p.has_pt() {
            push("ar_prid", e.ar_prid, a.ar_prid);
            push("ar_global_ref", e.ar_global_ref as u64, a.ar_global_ref as u64);
            push("ar_ref_valid", e.ar_ref_valid, a.ar_ref_valid);
            for k in 0..3 {
                push(&format!("ar_ref_eu[{k}]"), e.ar_ref_eu[k], a.ar_ref_eu[k]);
                push(&format!("ar_ref_ent[{k}]"), e.ar_ref_ent[k], a.ar_ref_ent[k]);
                push(&format!("ar_ref_elem[{k}]"), e.ar_ref_elem[k], a.ar_ref_elem[k]);
                push(&format!("ar_ref_grp[{k}]"), e.ar_ref_grp[k], a.ar_ref_grp[k]);
            }
        }
        if p.has(PIX) {
            push("ar_pix_mask", e.ar_pix_mask, a.ar_pix_mask);
        }
    }
    if e.cfg_rvalid {
        push("cfg_rdata", e.cfg_rdata, a.cfg_rdata);
    }
    f.into_iter()
        .find(|(_, x, y)| x != y)
        .map(|(name, x, y)| format!("{name}: expected {x:#x}, actual {y:#x}"))
}
