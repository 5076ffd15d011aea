//! The packet producers ([`PacketSource`]) with their random mix ([`StreamMix`]): packets held
//! on the four channels until they transfer, the pixel packets of acked triangles, PT releases.

use super::{CycleEvents, Mirror};
use crate::global_spreader::eu::EuPool;
use crate::global_spreader::model::{
    ones, GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, Packet, PerKind, PATCH, PIX, TRI, VTX,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, VecDeque};

/// The random packet mix (used by the stimulus and by the bench workload).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamMix {
    /// Percent chance per cycle that an idle VTX / TRI / PIX (stray) / PATCH producer
    /// presents a new packet (by type code; PIX packets of triangles come in addition).
    pub rate_pct: [u32; 4],
    /// `size` range per type code.
    pub size: [(u64, u64); 4],
    /// Percent of indexed VTX, PATCH and TRI packets.
    pub indexed_pct: u32,
    /// Percent of VTX packets with a partial group (count < VGRP).
    pub partial_pct: u32,
    /// Percent of indexed VTX/PATCH bases aimed at a VDT slot in use (R15: times `vdt_ways`,
    /// at a set in use).
    pub vdt_conflict_pct: u32,
    /// Indexed TRI vertices: percent from one group, percent from several groups; the
    /// rest are random indices.
    pub tri_local_pct: u32,
    pub tri_spread_pct: u32,
    /// Percent of TRI packets with a PrID in use.
    pub pt_conflict_pct: u32,
    /// Pixel packets per acked triangle, uniform in [lo, hi].
    pub pixels_per_tri: (u32, u32),
    /// Percent of triangles whose PT entry the last pixel packet releases (else `pr`).
    pub last_pct: u32,
    /// Delay from a triangle's last pixel (or its ack) to the owner's `pr`.
    pub pr_delay: (u64, u64),
    /// Percent of malformed VTX/PATCH packets (error mode only).
    pub malformed_pct: u32,
}

impl Default for StreamMix {
    /// The random-test mix.
    fn default() -> Self {
        StreamMix {
            rate_pct: [40, 35, 3, 8],
            size: [(0, 20), (0, 12), (0, 6), (4, 28)],
            indexed_pct: 60,
            partial_pct: 25,
            vdt_conflict_pct: 8,
            tri_local_pct: 45,
            tri_spread_pct: 40,
            pt_conflict_pct: 6,
            pixels_per_tri: (0, 4),
            last_pct: 60,
            pr_delay: (0, 30),
            malformed_pct: 4,
        }
    }
}

/// A triangle's pixel plan.
#[derive(Debug, Clone)]
pub(super) struct Plan {
    owner: usize,
    left: u32,
    by_last: bool,
}

/// The four producers: packets presented and held until they transfer, pixel packets of
/// the acked triangles, and the PT release of each triangle.
#[derive(Debug, Clone)]
pub struct PacketSource {
    p: GlobalSpreaderParams,
    pub mix: StreamMix,
    rng: ChaCha8Rng,
    /// The packet presented on each channel (by type code).
    pub presented: [Option<Packet>; 4],
    pub(super) pix_queue: VecDeque<Packet>,
    /// Pixel packet id → PrID of its triangle plan.
    pix_of: HashMap<u64, u64>,
    pub(super) plans: HashMap<u64, Plan>,
    next_id: u64,
    /// No new VTX/TRI/PATCH/stray PIX packets (pixel plans still complete).
    pub draining: bool,
    pub allow_errors: bool,
}

impl PacketSource {
    pub fn new(p: &GlobalSpreaderParams, seed: u64, mix: StreamMix) -> Self {
        PacketSource {
            p: p.clone(),
            mix,
            rng: ChaCha8Rng::seed_from_u64(seed),
            presented: Default::default(),
            pix_queue: VecDeque::new(),
            pix_of: HashMap::new(),
            plans: HashMap::new(),
            next_id: 1,
            draining: false,
            allow_errors: false,
        }
    }

    /// Nothing presented, queued or planned.
    pub fn idle(&self) -> bool {
        self.presented.iter().all(|x| x.is_none()) && self.pix_queue.is_empty() && self.plans.is_empty()
    }

    pub fn reset(&mut self) {
        self.presented = Default::default();
        self.pix_queue.clear();
        self.pix_of.clear();
        self.plans.clear();
    }

    fn id(&mut self) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        id & self.p.addr_mask()
    }

    fn pct(&mut self, x: u32) -> bool {
        self.rng.gen_range(0..100) < x
    }

    /// A packet size from the mix, scaled down for narrow resource counters (at most a
    /// quarter of 2^RES_W−1). R16, K > 1: each further kind's demand is drawn after kind 0's,
    /// 0 a quarter of the time, else uniform from 0 to the type's upper bound, at most
    /// [`kind_demand_max`] (so with the smaller totals of the tests' kinds >= 1 those kinds are
    /// often the one that does not fit, and a packet still fits the largest EU once it is
    /// empty); with one kind nothing more is drawn.
    fn size(&mut self, t: usize) -> PerKind {
        let cap = (self.p.res_mask() / 4).max(1);
        let (lo, hi) = self.mix.size[t];
        let hi = hi.min(cap);
        let mut size = [self.rng.gen_range(lo.min(hi)..=hi), 0, 0, 0];
        for k in 1..self.p.kinds() {
            let hi = hi.min(kind_demand_max(&self.p, k));
            size[k] = if self.pct(25) { 0 } else { self.rng.gen_range(0..=hi) };
        }
        size
    }

    /// Valid VDT entries as (vertex group number, EU): entry {way, set} holds group
    /// tag * S + set (R15; direct mapped S = vdt_depth and the set is the slot).
    fn live_groups(&self, m: &Mirror) -> Vec<(u64, usize)> {
        let p = &self.p;
        let sets = p.sets() as u64;
        m.vdt
            .iter()
            .enumerate()
            .filter_map(|(s, en)| en.map(|en| ((en.tag << p.set_w()) | (s as u64 & (sets - 1)), en.eu)))
            .collect()
    }

    fn free_prid(&mut self, m: &Mirror) -> u64 {
        let p = &self.p;
        let in_slot = m.slots[TRI].as_ref().map(|k| k.prid);
        let mut pick = 0;
        for _ in 0..8 {
            pick = self.rng.gen_range(0..p.pt_depth as u64);
            if m.pt[pick as usize].is_none() && !self.plans.contains_key(&pick) && in_slot != Some(pick) {
                break;
            }
        }
        pick
    }

    fn gen(&mut self, t: usize, m: &Mirror) -> Option<Packet> {
        let p = self.p.clone();
        let idx_mask = p.idx_mask();
        let mut k = Packet { ty: t, src_addr: self.id(), size: self.size(t), ..Default::default() };
        let groups = if t != PIX { self.live_groups(m) } else { Vec::new() };
        match t {
            VTX | PATCH => {
                k.indexed = self.pct(self.mix.indexed_pct);
                let align = if t == VTX { p.vgrp as u64 } else { 16 };
                // R15: with W ways a set blocks only when all W are taken, so W times as many
                // bases aim at a set in use (the same draw: W = 1 keeps the stream as it was).
                let aim = self.mix.vdt_conflict_pct * p.vdt_ways as u32;
                k.base_idx = if k.indexed && !groups.is_empty() && self.pct(aim) {
                    let (g, _) = groups[self.rng.gen_range(0..groups.len())];
                    let tag = self.rng.gen_range(0..4u64);
                    // The group's set with its tag or another (R15: another way of a set in use;
                    // tag 0 keeps the group itself, which a free way may hold twice).
                    (((g | tag << p.set_w()) << p.elem_w()) & idx_mask) / align * align
                } else if k.indexed {
                    (self.rng.gen::<u64>() & idx_mask) / align * align
                } else {
                    self.rng.gen::<u64>() & idx_mask
                };
                if t == VTX {
                    k.count = if self.pct(self.mix.partial_pct) { self.rng.gen_range(1..=p.vgrp as u64) } else { p.vgrp as u64 };
                }
                if self.allow_errors && self.pct(self.mix.malformed_pct) {
                    match self.rng.gen_range(0..3) {
                        0 if t == VTX => k.count = 0,
                        1 if t == VTX => k.count = self.rng.gen_range(p.vgrp as u64 + 1..=ones(p.vcnt_w())),
                        _ => {
                            k.indexed = true;
                            k.base_idx = (k.base_idx / align * align) | self.rng.gen_range(1..align);
                        }
                    }
                }
            }
            TRI => {
                k.indexed = p.has_vdt() && self.pct(self.mix.indexed_pct.max(70));
                let vert = |rng: &mut ChaCha8Rng, g: u64| ((g << p.elem_w()) | rng.gen_range(0..p.vgrp as u64)) & idx_mask;
                let x = self.rng.gen_range(0..100);
                for n in 0..3 {
                    k.vidx[n] = if groups.is_empty() || x >= self.mix.tri_local_pct + self.mix.tri_spread_pct {
                        self.rng.gen::<u64>() & idx_mask
                    } else if x < self.mix.tri_local_pct {
                        vert(&mut self.rng, groups[0].0)
                    } else {
                        let g = groups[self.rng.gen_range(0..groups.len())].0;
                        vert(&mut self.rng, g)
                    };
                }
                if x < self.mix.tri_local_pct && !groups.is_empty() {
                    let g = groups[self.rng.gen_range(0..groups.len())].0;
                    for n in 0..3 {
                        k.vidx[n] = vert(&mut self.rng, g);
                    }
                }
                let live: Vec<u64> = (0..p.pt_depth as u64).filter(|&s| m.pt[s as usize].is_some()).collect();
                k.prid = if !live.is_empty() && self.pct(self.mix.pt_conflict_pct) {
                    live[self.rng.gen_range(0..live.len())]
                } else {
                    self.free_prid(m)
                };
            }
            _ => {
                // A stray pixel packet: a triangle id not in use, never `last`.
                k.prid = self.free_prid(m);
                k.mask = self.rng.gen_range(1..=0xFFFF);
            }
        }
        Some(k)
    }

    /// Present packets for the next cycle into `inp`.
    pub fn drive(&mut self, m: &Mirror, inp: &mut GlobalSpreaderInputs) {
        for t in 0..4 {
            if !self.p.has(t) {
                continue;
            }
            if self.presented[t].is_none() {
                if t == PIX && !self.pix_queue.is_empty() {
                    self.presented[t] = self.pix_queue.pop_front();
                } else if !self.draining && self.pct(self.mix.rate_pct[t]) {
                    self.presented[t] = self.gen(t, m);
                }
            }
            match self.presented[t].clone() {
                Some(k) => put(inp, &k, true),
                None => {
                    // Don't-care payload.
                    let mut k = Packet {
                        ty: t,
                        indexed: self.rng.gen(),
                        base_idx: self.rng.gen(),
                        count: self.rng.gen_range(0..32),
                        vidx: [self.rng.gen(), self.rng.gen(), self.rng.gen()],
                        prid: self.rng.gen(),
                        mask: self.rng.gen(),
                        last: self.rng.gen(),
                        size: [self.rng.gen(), 0, 0, 0],
                        src_addr: self.rng.gen(),
                    };
                    for n in 1..self.p.kinds() {
                        k.size[n] = self.rng.gen();
                    }
                    put(inp, &k, false);
                }
            }
        }
    }

    /// Account the cycle: transfers end a presentation; acked triangles get pixel plans;
    /// a plan's end schedules the owner's `pr`.
    pub fn account(
        &mut self,
        i: &GlobalSpreaderInputs,
        o: &GlobalSpreaderOutputs,
        ev: &CycleEvents,
        pool: &mut EuPool,
    ) {
        if ev.reset {
            self.reset();
            return;
        }
        for t in 0..4 {
            if i.valid(t) && o.ready(t) {
                self.presented[t] = None;
            }
        }
        let Some(a) = &ev.ack else { return };
        match a.ty {
            TRI if self.p.has(PIX) => {
                let (lo, hi) = self.mix.pixels_per_tri;
                let n = self.rng.gen_range(lo..=hi);
                let by_last = n > 0 && self.pct(self.mix.last_pct);
                for j in 0..n {
                    let k = Packet {
                        ty: PIX,
                        prid: a.prid,
                        mask: self.rng.gen_range(1..=0xFFFF),
                        last: by_last && j + 1 == n,
                        size: self.size(PIX),
                        src_addr: self.id(),
                        ..Default::default()
                    };
                    self.pix_of.insert(k.src_addr, a.prid);
                    self.pix_queue.push_back(k);
                }
                if n == 0 {
                    let d = self.rng.gen_range(self.mix.pr_delay.0..=self.mix.pr_delay.1);
                    pool.release_pt(a.eu, a.prid, d);
                } else {
                    self.plans.insert(a.prid, Plan { owner: a.eu, left: n, by_last });
                }
            }
            TRI => {
                let d = self.rng.gen_range(self.mix.pr_delay.0..=self.mix.pr_delay.1);
                pool.release_pt(a.eu, a.prid, d);
            }
            PIX => {
                if let Some(prid) = self.pix_of.remove(&a.src_addr) {
                    let plan = self.plans.get_mut(&prid).expect("plan of a pixel packet");
                    plan.left -= 1;
                    if plan.left == 0 {
                        let plan = self.plans.remove(&prid).unwrap();
                        if !plan.by_last {
                            let d = self.rng.gen_range(self.mix.pr_delay.0..=self.mix.pr_delay.1);
                            pool.release_pt(plan.owner, prid, d);
                        }
                    }
                }
            }
            _ => {}
        }
    }
}

/// R16: the largest demand (size) the stimulus draws for kind k >= 1: half the kind's largest
/// RES_TOTAL after reset, at least 1 (also the range of its random MIN_RES writes).
pub fn kind_demand_max(p: &GlobalSpreaderParams, k: usize) -> u64 {
    (p.res_total_of(k).iter().copied().max().unwrap_or(0) / 2).max(1)
}

/// Drive channel `k.ty` with packet `k`.
pub fn put(inp: &mut GlobalSpreaderInputs, k: &Packet, valid: bool) {
    match k.ty {
        VTX => {
            inp.vp_valid = valid;
            inp.vp_indexed = k.indexed;
            inp.vp_base_idx = k.base_idx;
            inp.vp_count = k.count;
            inp.vp_size = k.size;
            inp.vp_src_addr = k.src_addr;
        }
        PATCH => {
            inp.pp_valid = valid;
            inp.pp_indexed = k.indexed;
            inp.pp_base_idx = k.base_idx;
            inp.pp_size = k.size;
            inp.pp_src_addr = k.src_addr;
        }
        TRI => {
            inp.tp_valid = valid;
            inp.tp_indexed = k.indexed;
            inp.tp_vidx = k.vidx;
            inp.tp_prid = k.prid;
            inp.tp_size = k.size;
            inp.tp_src_addr = k.src_addr;
        }
        _ => {
            inp.xp_valid = valid;
            inp.xp_tri_id = k.prid;
            inp.xp_mask = k.mask;
            inp.xp_last = k.last;
            inp.xp_size = k.size;
            inp.xp_src_addr = k.src_addr;
        }
    }
}
