//! The block's ports: the inputs and outputs of one cycle (contract §3), and the packet of a
//! channel as held in a slot, with its malformed check (R2).

use super::{ones, GlobalSpreaderParams, PerKind, PATCH, TRI, VTX};

/// Block inputs for one cycle (every input port except `clock`). Per-EU one-bit vectors
/// are masks (bit e = EU e); per-EU multi-bit vectors have one element per EU (missing
/// elements read 0). Values wider than their port are truncated by the model. Resource
/// values are per kind (R16, [`PerKind`]: kind k at [k], the port's field [k*RES_W +: RES_W];
/// the kinds the parameters do not have are ignored).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GlobalSpreaderInputs {
    /// Synchronous, active-high reset.
    pub reset: bool,
    // VTX channel
    pub vp_valid: bool,
    pub vp_indexed: bool,
    pub vp_base_idx: u64,
    pub vp_count: u64,
    pub vp_size: PerKind,
    pub vp_src_addr: u64,
    // PATCH channel
    pub pp_valid: bool,
    pub pp_indexed: bool,
    pub pp_base_idx: u64,
    pub pp_size: PerKind,
    pub pp_src_addr: u64,
    // TRI channel
    pub tp_valid: bool,
    pub tp_indexed: bool,
    /// v0, v1, v2 (`tp_vidx`, v0 in the low bits).
    pub tp_vidx: [u64; 3],
    pub tp_prid: u64,
    pub tp_size: PerKind,
    pub tp_src_addr: u64,
    // PIX channel
    pub xp_valid: bool,
    pub xp_tri_id: u64,
    pub xp_mask: u64,
    pub xp_last: bool,
    pub xp_size: PerKind,
    pub xp_src_addr: u64,
    // allocation answers
    pub ar_ready: u64,
    pub ar_refuse: u64,
    pub ar_ent: Vec<u64>,
    // credits
    pub cr_valid: u64,
    /// EU e's credit of kind k at `cr_res[e][k]` (the port's field (e*K + k)).
    pub cr_res: Vec<PerKind>,
    pub cr_edt: u64,
    pub cr_type: Vec<u64>,
    // releases
    pub vr_valid: u64,
    pub vr_slot: Vec<u64>,
    pub pr_valid: u64,
    pub pr_id: Vec<u64>,
    // configuration
    pub cfg_valid: bool,
    pub cfg_we: bool,
    pub cfg_addr: u64,
    pub cfg_wdata: u64,
    /// Rules G1-G2 (with `perf_counters` only; ignored otherwise).
    pub perf_sel: u64,
    pub perf_clr: bool,
    pub err_clr: bool,
    /// R14 (with `pixel_reorder` only; ignored otherwise): completions, bit e = EU e's
    /// `pc_valid`, `pc_seq[e]` its entry (RB_W bits); the pixel consumer's `po_ready`.
    pub pc_valid: u64,
    pub pc_seq: Vec<u64>,
    pub po_ready: bool,
}

impl GlobalSpreaderInputs {
    /// All-zero inputs with the per-EU vectors sized to N_EU.
    pub fn idle(p: &GlobalSpreaderParams) -> Self {
        let z = vec![0; p.eus];
        GlobalSpreaderInputs {
            ar_ent: z.clone(),
            cr_res: vec![[0; 4]; p.eus],
            cr_type: z.clone(),
            vr_slot: z.clone(),
            pr_id: z.clone(),
            pc_seq: z,
            ..Default::default()
        }
    }
    pub fn with_reset(mut self) -> Self {
        self.reset = true;
        self
    }
    /// A configuration write.
    pub fn write(mut self, addr: u64, data: u64) -> Self {
        self.cfg_valid = true;
        self.cfg_we = true;
        self.cfg_addr = addr;
        self.cfg_wdata = data;
        self
    }
    /// A configuration read.
    pub fn read(mut self, addr: u64) -> Self {
        self.cfg_valid = true;
        self.cfg_we = false;
        self.cfg_addr = addr;
        self
    }
    /// Is the channel of type t valid?
    pub fn valid(&self, t: usize) -> bool {
        [self.vp_valid, self.tp_valid, self.xp_valid, self.pp_valid][t]
    }
    /// The packet on channel t's payload (type code, masked to the port widths).
    pub fn packet(&self, p: &GlobalSpreaderParams, t: usize) -> Packet {
        let mut k = Packet { ty: t, ..Default::default() };
        let size = |s: &PerKind| p.per_kind(|n| s[n] & p.res_mask());
        match t {
            VTX => {
                k.indexed = self.vp_indexed;
                k.base_idx = self.vp_base_idx & p.idx_mask();
                k.count = self.vp_count & ones(p.vcnt_w());
                k.size = size(&self.vp_size);
                k.src_addr = self.vp_src_addr & p.addr_mask();
            }
            PATCH => {
                k.indexed = self.pp_indexed;
                k.base_idx = self.pp_base_idx & p.idx_mask();
                k.size = size(&self.pp_size);
                k.src_addr = self.pp_src_addr & p.addr_mask();
            }
            TRI => {
                k.indexed = self.tp_indexed && p.has_vdt();
                k.vidx = self.tp_vidx.map(|v| v & p.idx_mask());
                k.prid = self.tp_prid & p.prid_mask();
                k.size = size(&self.tp_size);
                k.src_addr = self.tp_src_addr & p.addr_mask();
            }
            _ => {
                k.prid = self.xp_tri_id & p.prid_mask();
                k.mask = self.xp_mask & 0xFFFF;
                k.last = self.xp_last;
                k.size = size(&self.xp_size);
                k.src_addr = self.xp_src_addr & p.addr_mask();
            }
        }
        k
    }
}

/// Block outputs for one cycle (every output port). Per-EU one-bit vectors are masks.
/// `in_reset` is not a port: it is set when the cycle's inputs assert `reset`; such
/// cycles are not compared (contract R13) and every DUT adapter copies it from its inputs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GlobalSpreaderOutputs {
    pub in_reset: bool,
    pub vp_ready: bool,
    pub pp_ready: bool,
    pub tp_ready: bool,
    pub xp_ready: bool,
    pub ar_valid: u64,
    pub ar_type: u64,
    /// fp_k per kind (R16; one kind: [0]).
    pub ar_footprint: PerKind,
    pub ar_copy_size: u64,
    pub ar_src_addr: u64,
    pub ar_vcount: u64,
    pub ar_base_idx: u64,
    pub ar_prid: u64,
    pub ar_pix_mask: u64,
    pub ar_global_ref: bool,
    /// Bit i = ref i valid.
    pub ar_ref_valid: u64,
    pub ar_ref_eu: [u64; 3],
    pub ar_ref_ent: [u64; 3],
    pub ar_ref_elem: [u64; 3],
    pub ar_ref_grp: [u64; 3],
    pub cfg_rvalid: bool,
    pub cfg_rdata: u64,
    pub err_vdt_miss: bool,
    pub err_pt_miss: bool,
    pub err_malformed: bool,
    pub err_credit: bool,
    pub err_release: bool,
    pub busy: bool,
    pub stall: bool,
    pub eu_avail_cnt: u64,
    /// Bit t = slot of type t full.
    pub st_slot_valid: u64,
    /// FREE_RES[e][k] by EU, then kind (R16).
    pub st_free_res: Vec<PerKind>,
    pub st_free_edt: Vec<u64>,
    pub st_vdt_valid: Vec<bool>,
    pub st_pt_valid: Vec<bool>,
    /// Counter `perf_sel` (0 past the last one, and without `perf_counters`).
    pub perf_val: u64,
    /// R14 (with `pixel_reorder` only; 0 otherwise): TAIL with a PIX request, else 0.
    pub ar_seq: u64,
    /// R14: `COUNT > 0 && DONE[HEAD]`; `po_seq` = HEAD.
    pub po_valid: bool,
    pub po_seq: u64,
    /// R15 (with `vdt_ways` > 1 only; 0 otherwise): the way of a VTX / PATCH request, else 0.
    pub ar_vdt_way: u64,
}

impl GlobalSpreaderOutputs {
    /// `*_ready` of type t.
    pub fn ready(&self, t: usize) -> bool {
        [self.vp_ready, self.tp_ready, self.xp_ready, self.pp_ready][t]
    }
    /// The target EU of the request, if any.
    pub fn target(&self) -> Option<usize> {
        (self.ar_valid != 0).then(|| self.ar_valid.trailing_zeros() as usize)
    }
    /// The five error flags in STATUS order.
    pub fn errs(&self) -> [bool; 5] {
        [self.err_vdt_miss, self.err_pt_miss, self.err_malformed, self.err_credit, self.err_release]
    }
}

/// A packet as held in a slot (the union of the channel payloads; unused fields 0).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Packet {
    pub ty: usize,
    pub indexed: bool,
    pub base_idx: u64,
    pub count: u64,
    pub vidx: [u64; 3],
    /// TRI: `tp_prid`; PIX: `xp_tri_id`.
    pub prid: u64,
    pub mask: u64,
    pub last: bool,
    /// The demand per resource kind (R16; one kind: [0], the others 0).
    pub size: PerKind,
    pub src_addr: u64,
}

impl Packet {
    /// R2: count 0 or > VGRP (VTX); indexed VTX base mod VGRP != 0; indexed PATCH base
    /// mod 16 != 0.
    pub fn malformed(&self, p: &GlobalSpreaderParams) -> bool {
        match self.ty {
            VTX => {
                self.count == 0
                    || self.count > p.vgrp as u64
                    || (self.indexed && self.base_idx % p.vgrp as u64 != 0)
            }
            PATCH => self.indexed && self.base_idx % 16 != 0,
            _ => false,
        }
    }
}
