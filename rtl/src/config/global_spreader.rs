//! `[global_spreader]`'s derived values (widths, reset values by type code) and validation.

use super::*;

impl GlobalSpreaderConfig {
    /// The values of `select` (contract R6), the default first.
    pub const SELECT: [&'static str; 3] = ["first_fit", "least_loaded", "round_robin"];

    pub(super) fn is_first_fit(s: &String) -> bool {
        s == Self::SELECT[0]
    }

    /// `select = "least_loaded"`.
    pub fn least_loaded(&self) -> bool {
        self.select == Self::SELECT[1]
    }

    /// `select = "round_robin"`.
    pub fn round_robin(&self) -> bool {
        self.select == Self::SELECT[2]
    }

    /// The counters in `perf_sel` order (docs/perf.md, rule G1): the same index in every config
    /// (a class the config does not build keeps its indices; its events are always 0).
    pub const PERF_NAMES: [&'static str; 17] = [
        "vertex", "triangle", "pixel", "patch",
        "stall_vertex", "stall_triangle", "stall_pixel", "stall_patch", "stall_blocked", "stall_no_eu",
        "credit", "release",
        "err_vdt_miss_ev", "err_pt_miss_ev", "err_malformed_ev", "err_credit_ev", "err_release_ev",
    ];

    /// NCNT, the counters of the bank: 0 without `perf_counters`.
    pub fn perf_count(&self) -> usize {
        if self.perf_counters { Self::PERF_NAMES.len() } else { 0 }
    }

    /// PSW = max(1, ceil(log2 NCNT)), the width of `perf_sel` (5).
    pub fn perf_sel_bits(&self) -> usize {
        id_bits(Self::PERF_NAMES.len())
    }

    /// The fixed class order of R7 by type code (pixel, triangle, patch, vertex).
    pub const FIXED_CLASS_ORDER: [usize; 4] = [2, 1, 3, 0];

    /// RANK[t] after reset by type code (contract R7b): t's position in `class_priority`, or in
    /// the fixed order cut to the built types; 0 for a type not built.
    pub fn class_ranks(&self) -> [usize; 4] {
        let order: Vec<usize> = match &self.class_priority {
            Some(list) => list.iter().filter_map(|n| GS_TYPE_NAMES.iter().position(|t| t == n)).collect(),
            None => Self::FIXED_CLASS_ORDER.iter().copied().filter(|t| self.has_type(*t)).collect(),
        };
        let mut rank = [0; 4];
        for (r, t) in order.iter().enumerate() {
            rank[*t] = r;
        }
        rank
    }

    /// The grant order is not R7's fixed one, or is programmable (contract R7b): the RTL ranks
    /// the class slots instead of taking them in the fixed order.
    pub fn ranked_classes(&self) -> bool {
        let fixed: Vec<usize> = Self::FIXED_CLASS_ORDER.iter().copied().filter(|t| self.has_type(*t)).collect();
        let ranks = self.class_ranks();
        self.class_priority_reg || fixed.iter().enumerate().any(|(r, t)| ranks[*t] != r)
    }

    /// RB_W = log2 `pixel_reorder` (contract R14): the bits of a sequence number (`ar_seq`,
    /// `pc_seq`, `po_seq`); 0 without the reorder buffer.
    pub fn rob_bits(&self) -> usize {
        if self.pixel_reorder > 0 { self.pixel_reorder.trailing_zeros() as usize } else { 0 }
    }

    /// Whether type `code` (0 VTX, 1 TRI, 2 PIX, 3 PATCH) is built.
    pub fn has_type(&self, code: usize) -> bool {
        self.entity_types.iter().any(|t| t == GS_TYPE_NAMES[code])
    }

    /// The vertex descriptor table exists (vertex or patch built).
    pub fn has_vdt(&self) -> bool {
        self.has_type(0) || self.has_type(3)
    }

    /// The primitive table exists (triangle built).
    pub fn has_pt(&self) -> bool {
        self.has_type(1)
    }

    /// Resolved RES_TOTAL per EU (kind 0).
    pub fn res_totals(&self) -> Vec<u64> {
        self.res_totals_of(0)
    }

    /// K: the resource kinds (contract R16; 1 without `resources`).
    pub fn kinds(&self) -> usize {
        self.resources.as_ref().map_or(1, |l| l.len().clamp(1, 4))
    }

    /// Kind k's table `resource.<name>` (k >= 1; kind 0's values are the top-level keys).
    fn kind_table(&self, k: usize) -> Option<&super::ResourceKindConfig> {
        let name = self.resources.as_ref()?.get(k)?;
        if k == 0 { None } else { self.resource.get(name) }
    }

    /// Resolved RES_TOTAL[e][k] per EU of kind `k` (R16).
    pub fn res_totals_of(&self, k: usize) -> Vec<u64> {
        let dflt = 64.min((1u64 << self.res_width) - 1);
        let v = if k == 0 { &self.res_total } else { self.kind_table(k).map_or(&None, |t| &t.res_total) };
        per_eu(v, self.eus as usize, dflt)
    }

    /// Resolved MIN_RES[t][k] of type `code` and kind `k` (R16).
    pub fn min_res_kind(&self, code: usize, k: usize) -> u64 {
        let map = if k == 0 { Some(&self.min_res) } else { self.kind_table(k).map(|t| &t.min_res) };
        map.and_then(|m| m.get(GS_TYPE_NAMES[code])).map_or(0, |v| *v as u64)
    }

    /// Resolved FRAME_RES[t][k] of type `code` and kind `k` (R16).
    pub fn frame_res_kind(&self, code: usize, k: usize) -> u64 {
        let map = if k == 0 { Some(&self.frame_res) } else { self.kind_table(k).map(|t| &t.frame_res) };
        map.and_then(|m| m.get(GS_TYPE_NAMES[code])).map_or(0, |v| *v as u64)
    }

    /// Resolved EDT_TOTAL per EU.
    pub fn edt_totals(&self) -> Vec<u64> {
        per_eu(&self.edt_total, self.eus as usize, 1u64 << self.entity_width)
    }

    /// Resolved MIN_RES of type `code` (kind 0, the top-level key).
    pub fn min_res_of(&self, code: usize) -> u64 {
        self.min_res_kind(code, 0)
    }

    /// Resolved FRAME_RES of type `code` (kind 0, the top-level key).
    pub fn frame_res_of(&self, code: usize) -> u64 {
        self.frame_res_kind(code, 0)
    }

    /// Resolved candidate list of type `code` (PRIO[t][0..len]; the other slots are empty).
    pub fn priority_of(&self, code: usize) -> Vec<u64> {
        match self.priority.get(GS_TYPE_NAMES[code]) {
            Some(l) => l.iter().map(|v| *v as u64).collect(),
            None => (0..self.eus as u64).collect(),
        }
    }

    /// Resolved DED_MASK of type `code`, one flag per EU.
    pub fn dedicated_of(&self, code: usize) -> Vec<bool> {
        ids_to_flags(self.dedicated.get(GS_TYPE_NAMES[code]), self.eus as usize)
    }

    /// Resolved EU_ENABLE, one flag per EU.
    pub fn eu_enabled(&self) -> Vec<bool> {
        ids_to_flags(self.eu_enable.as_ref(), self.eus as usize)
    }

    /// EU_W: bits of an EU id, max(1, ceil(log2 eus)).
    pub fn eu_bits(&self) -> usize {
        id_bits(self.eus as usize)
    }

    /// PRIO_W = EU_W + 1: a PRIO slot holds an EU id or an empty value.
    pub fn prio_bits(&self) -> usize {
        self.eu_bits() + 1
    }

    /// AV_W = ceil(log2(eus+1)): bits of `eu_avail_cnt`.
    pub fn avail_bits(&self) -> usize {
        id_bits(self.eus as usize + 1)
    }

    /// FE_W = ENT_W + 1: bits of FREE_EDT, EDT_TOTAL, PEND.
    pub fn free_edt_bits(&self) -> usize {
        self.entity_width as usize + 1
    }

    /// ELEM_W = log2 vertices_per_group.
    pub fn elem_bits(&self) -> usize {
        self.vertices_per_group.trailing_zeros() as usize
    }

    /// VCNT_W = ceil(log2(VGRP+1)): bits of a vertex count.
    pub fn vcount_bits(&self) -> usize {
        id_bits(self.vertices_per_group as usize + 1)
    }

    /// PG: VDT groups a patch fills (16/VGRP with patch, else 1).
    pub fn patch_groups(&self) -> usize {
        if self.has_type(3) { 16 / self.vertices_per_group as usize } else { 1 }
    }

    /// GRP_W = max(1, log2 PG).
    pub fn grp_bits(&self) -> usize {
        id_bits(self.patch_groups())
    }

    /// VDT_AW = log2 vdt_depth: the bits of an entry's address {way, set} (`vr_slot`).
    pub fn vdt_addr_bits(&self) -> usize {
        self.vdt_depth.trailing_zeros() as usize
    }

    /// WAY_W = log2 vdt_ways (contract R15): the bits of `ar_vdt_way`, 0 when direct mapped.
    pub fn vdt_way_bits(&self) -> usize {
        self.vdt_ways.max(1).trailing_zeros() as usize
    }

    /// SET_W = VDT_AW - WAY_W: the bits of a VDT set (R15; the slot when direct mapped).
    pub fn vdt_set_bits(&self) -> usize {
        self.vdt_addr_bits() - self.vdt_way_bits()
    }

    /// PRID_W = log2 pt_depth.
    pub fn prid_bits(&self) -> usize {
        self.pt_depth.trailing_zeros() as usize
    }

    /// Bits of a VDT tag: IDX_W - ELEM_W - SET_W (at least 1 after validation).
    pub fn tag_bits(&self) -> usize {
        self.index_width as usize - self.elem_bits() - self.vdt_set_bits()
    }

    pub(super) fn validate(&self, chk: &mut Checker) {
        if self.aging != 0 && !(3..=255).contains(&self.aging) {
            chk.fail("global_spreader.aging", format!("{} is out of range: allowed 0 (off) or 3 to 255", self.aging));
        }
        let key = |k: &str| format!("global_spreader.{k}");
        if !chk.key_range_path(&key("eus"), self.eus) {
            return;
        }
        if !Self::SELECT.contains(&self.select.as_str()) {
            chk.fail(&key("select"), format!(
                "\"{}\" is not a selection policy: allowed \"{}\", \"{}\" or \"{}\"", shorten(&self.select), Self::SELECT[0], Self::SELECT[1], Self::SELECT[2]));
        }
        let n = self.eus;
        // Entity types.
        if self.entity_types.is_empty() {
            chk.fail_path(&key("entity_types"), format!(
                "is empty: name at least one of {}", GS_TYPE_NAMES.join(", ")));
        }
        for (i, t) in self.entity_types.iter().enumerate() {
            if !GS_TYPE_NAMES.contains(&t.as_str()) {
                chk.fail_path(&key(&format!("entity_types[{i}]")), format!(
                    "`{}` is not a type: allowed {}", shorten(t), GS_TYPE_NAMES.join(", ")));
            } else if self.entity_types[..i].contains(t) {
                chk.fail_path(&key(&format!("entity_types[{i}]")), format!("`{t}` is listed twice"));
            }
        }
        if self.has_type(2) && !self.has_type(1) {
            chk.fail_path(&key("entity_types"), "\"pixel\" needs \"triangle\": a pixel packet finds its EU through its triangle's primitive table entry".into());
        }
        if let Some(list) = &self.class_priority {
            for (i, t) in list.iter().enumerate() {
                let at = key(&format!("class_priority[{i}]"));
                if !GS_TYPE_NAMES.contains(&t.as_str()) {
                    chk.fail_path(&at, format!("`{}` is not a type: allowed {}", shorten(t), GS_TYPE_NAMES.join(", ")));
                } else if list[..i].contains(t) {
                    chk.fail_path(&at, format!("`{t}` is listed twice"));
                } else if !self.entity_types.contains(t) {
                    chk.fail_path(&at, format!(
                        "type `{t}` is not built: add it to global_spreader.entity_types or remove it from this list"));
                }
            }
            let missing: Vec<&str> = self.entity_types.iter().filter(|t| !list.contains(t)).map(|t| t.as_str()).collect();
            if !missing.is_empty() && self.entity_types.iter().all(|t| GS_TYPE_NAMES.contains(&t.as_str())) {
                chk.fail_path(&key("class_priority"), format!(
                    "does not name {}: list every built type (global_spreader.entity_types) once, the first granted first",
                    missing.join(", ")));
            }
        }
        let pow2 = |v: i64, lo: i64, hi: i64| (lo..=hi).contains(&v) && v.count_ones() == 1;
        // Pixel order (R14): a power of two, and the pixels it orders.
        let d = self.pixel_reorder;
        if d != 0 && !pow2(d, 2, 64) {
            chk.fail_path(&key("pixel_reorder"), format!(
                "{d} is out of range: allowed 0 (off) or a power of two from 2 to 64"));
        } else if d != 0 && !self.has_type(2) {
            chk.fail_path(&key("pixel_reorder"), format!(
                "{d} needs \"pixel\" in global_spreader.entity_types: the reorder buffer orders pixel packets (0: off)"));
        }
        // Table geometry and widths.
        if ![4, 8, 16].contains(&self.vertices_per_group) {
            chk.fail_path(&key("vertices_per_group"), format!(
                "{} is out of range: allowed 4, 8, 16", self.vertices_per_group));
        }
        if !pow2(self.vdt_depth, 4, 1024) {
            chk.fail_path(&key("vdt_depth"), format!(
                "{} is out of range: allowed a power of two from 4 to 1024", self.vdt_depth));
        }
        // Set-associative VDT (R15): 1, 2 or 4 ways of at least 4 sets each (which also holds
        // a patch's 16 / VGRP <= 4 groups in one way).
        let w = self.vdt_ways;
        if ![1, 2, 4].contains(&w) {
            chk.fail_path(&key("vdt_ways"), format!("{w} is out of range: allowed 1, 2, 4"));
        } else if w > 1 && !self.has_vdt() {
            chk.fail_path(&key("vdt_ways"), format!(
                "{w} needs a VDT: add \"vertex\" or \"patch\" to global_spreader.entity_types (1: direct mapped)"));
        } else if w > 1 && pow2(self.vdt_depth, 4, 1024) && self.vdt_depth / w < 4 {
            let most = [4, 2, 1].into_iter().find(|x| self.vdt_depth / x >= 4).unwrap_or(1);
            let allowed = if most == 1 { "only 1 (direct mapped)".to_string() } else { format!("1 to {most}") };
            chk.fail_path(&key("vdt_ways"), format!(
                "{w} is out of range for vdt_depth = {}: each way needs at least 4 sets, so allowed {allowed}", self.vdt_depth));
        }
        if !pow2(self.pt_depth, 2, 1024) {
            chk.fail_path(&key("pt_depth"), format!(
                "{} is out of range: allowed a power of two from 2 to 1024", self.pt_depth));
        }
        if chk.error.is_none() {
            // IDX_W must leave a tag bit above the group's element and slot bits.
            let need = self.elem_bits() + self.vdt_addr_bits();
            chk.range_with(&key("index_width"), self.index_width, 8.max(need as i64 + 1), 32, &format!(
                "8 or more, and above log2 vertices_per_group + log2 vdt_depth = {need}, so that a vertex tag has a bit"));
        }
        let res_ok = chk.key_range_path(&key("res_width"), self.res_width);
        let ent_ok = chk.key_range_path(&key("entity_width"), self.entity_width);
        chk.key_range_path(&key("addr_width"), self.addr_width);
        if chk.error.is_some() {
            return;
        }
        if !(res_ok && ent_ok) {
            return;
        }
        // Reset values.
        let res_max = (1i64 << self.res_width) - 1;
        let edt_max = 1i64 << self.entity_width;
        let per_eu_check = |chk: &mut Checker, name: &str, v: &Option<PerEu>, hi: i64, why: &str| match v {
            None => {}
            Some(PerEu::All(x)) => {
                chk.range_with(&key(name), *x, 0, hi, why);
            }
            Some(PerEu::Each(list)) => {
                if list.len() as i64 != n {
                    chk.fail_path(&key(name), format!(
                        "has {} entries but global_spreader.eus = {n}: give one value per EU, or a single number for all",
                        list.len()));
                }
                for (i, x) in list.iter().enumerate() {
                    chk.range_with(&key(&format!("{name}[{i}]")), *x, 0, hi, why);
                }
            }
        };
        per_eu_check(chk, "res_total", &self.res_total, res_max, "2^res_width-1");
        // Resource kinds (R16): 1 to 4 distinct names; a table per listed kind but the first.
        let names: Vec<String> = self.resources.clone().unwrap_or_default();
        if self.resources.is_some() && !(1..=4).contains(&names.len()) {
            chk.fail_path(&key("resources"), format!(
                "has {} names: allowed 1 to 4 resource kinds (leave the key out for one kind)", names.len()));
        }
        for (i, name) in names.iter().enumerate() {
            let ok = name.len() <= 16
                && name.chars().next().is_some_and(|c| c.is_ascii_lowercase())
                && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            if !ok {
                chk.fail_path(&key(&format!("resources[{i}]")), format!(
                    "`{}` is not a kind name: a lowercase letter, then up to 15 lowercase letters, digits or _", shorten(name)));
            } else if names[..i].contains(name) {
                chk.fail_path(&key(&format!("resources[{i}]")), format!("`{name}` is listed twice"));
            }
        }
        for (name, t) in &self.resource {
            let at = |k: &str| key(&format!("resource.{name}.{k}"));
            match names.iter().position(|n| n == name) {
                None => chk.fail_path(&key(&format!("resource.{}", shorten(name))), format!(
                    "`{}` is not a kind of global_spreader.resources ({}): name it there or remove this table",
                    shorten(name), if names.is_empty() { "not given: one kind".to_string() } else { names.join(", ") })),
                Some(0) => chk.fail_path(&key(&format!("resource.{name}")), format!(
                    "`{name}` is the first kind: its values are the top-level global_spreader.res_total, min_res and frame_res")),
                Some(_) => {
                    per_eu_check(chk, &format!("resource.{name}.res_total"), &t.res_total, res_max, "2^res_width-1");
                    for (table, map) in [("min_res", &t.min_res), ("frame_res", &t.frame_res)] {
                        for (ty, v) in map {
                            let k = at(&format!("{table}.{ty}"));
                            if !GS_TYPE_NAMES.contains(&ty.as_str()) {
                                chk.fail_path(&k, format!("`{}` is not a type: allowed {}", shorten(ty), GS_TYPE_NAMES.join(", ")));
                            } else if !self.entity_types.iter().any(|x| x == ty) {
                                chk.fail_path(&k, format!(
                                    "type `{ty}` is not built: add it to global_spreader.entity_types or remove this entry"));
                            } else {
                                chk.range_with(&k, *v, 0, res_max, "2^res_width-1");
                            }
                        }
                    }
                }
            }
        }
        per_eu_check(chk, "edt_total", &self.edt_total, edt_max, "2^entity_width");
        // Tables keyed by type name.
        let type_key = |chk: &mut Checker, table: &str, name: &str| -> bool {
            let k = key(&format!("{table}.{name}"));
            if !GS_TYPE_NAMES.contains(&name) {
                chk.fail_path(&k, format!("`{}` is not a type: allowed {}", shorten(name), GS_TYPE_NAMES.join(", ")));
                false
            } else if !self.entity_types.iter().any(|t| t == name) {
                chk.fail_path(&k, format!(
                    "type `{name}` is not built: add it to global_spreader.entity_types or remove this entry"));
                false
            } else {
                true
            }
        };
        for (table, map) in [("min_res", &self.min_res), ("frame_res", &self.frame_res)] {
            for (name, v) in map {
                if type_key(chk, table, name) {
                    chk.range_with(&key(&format!("{table}.{name}")), *v, 0, res_max, "2^res_width-1");
                }
            }
        }
        let eu_list = |chk: &mut Checker, k: &str, list: &[i64], distinct: bool| {
            for (i, e) in list.iter().enumerate() {
                let ki = format!("{k}[{i}]");
                if !(0..n).contains(e) {
                    chk.fail_path(&ki, format!(
                        "EU {e} is out of range: allowed EU ids 0 to {} (global_spreader.eus = {n})", n - 1));
                } else if distinct && list[..i].contains(e) {
                    chk.fail_path(&ki, format!("EU {e} is listed twice: a candidate order names each EU once"));
                }
            }
        };
        for (table, map, distinct) in [("priority", &self.priority, true), ("dedicated", &self.dedicated, false)] {
            for (name, list) in map {
                if type_key(chk, table, name) {
                    eu_list(chk, &key(&format!("{table}.{name}")), list, distinct);
                }
            }
        }
        if let Some(list) = &self.eu_enable {
            eu_list(chk, &key("eu_enable"), list, false);
        }
    }
}
