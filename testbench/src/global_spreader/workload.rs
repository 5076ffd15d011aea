//! The dispatch workload of `make bench`: a documented random packet
//! stream with EU models, run through any [`Dut`], measuring throughput,
//! dispatch latency and EU load balance.
//!
//! **Workload** ([`Workload::standard`], seed 2026 (`make bench` uses its `--seed`, default 1), 20,000 cycles, defaults of the
//! contract otherwise: RES_TOTAL 64 and EDT_TOTAL 256 per EU, VGRP 8, 256-entry VDT/PT,
//! PRIO 0, 1, …, all EUs enabled and dedicated, YIELD off):
//! * Producers: each cycle an idle vertex producer presents a new vertex packet with
//!   probability 40 %, the triangle producer 40 %, the patch producer 4 %. Sizes (resource
//!   units) uniform: vertex 4–12, triangle 2–6, pixel 1–3, patch 8–16. 70 % of vertex,
//!   patch and triangle packets are indexed; 20 % of vertex packets are partial groups.
//!   Indexed triangles take their three vertices from one vertex group the VDT holds
//!   (60 %), from several such groups (30 %) or from random indices (10 %, misses). Every
//!   acked triangle is followed by 1–2 pixel packets (uniform), the last with `xp_last`;
//!   they are presented as soon as the pixel channel is free. A producer presents its
//!   next packet at the earliest in the cycle after a transfer, so the offered load is
//!   about 0.29 vertex + 0.29 triangle + 0.43 pixel + 0.04 patch ≈ 1.05 packets per cycle
//!   when nothing waits: more than the one dispatch per cycle of the GS. No conflicts are aimed at the tables on purpose, no stray pixels, no
//!   malformed packets, no register traffic.
//! * EUs ([`EuBehaviour`]): answer in every cycle (ack at once), 2 % refusals; an entity's
//!   processing time (ack → `cr_edt`) uniform 32–160 cycles; vertex and patch data are
//!   retained 16–64 cycles more before their VDT release; resources return in 1–4 pulses.
//! * Configurations: 3, 5 and 16 EUs, each with locality on and off (the TOML reset
//!   value of CTRL.LOCALITY_EN), each with `select` = first_fit, least_loaded and
//!   round_robin.
//!
//! **Measures** ([`WorkloadResult`]): packets dispatched per cycle (acks / cycles);
//! dispatch latency = cycle of the ack − first cycle the packet was offered on its
//! channel (includes back-pressure; the contract's minimum is 1: transfer in n, ack in
//! n+1), mean and max, and the same from the transfer; EU load balance = max over mean of
//! the EUs' busy integral (Σ over cycles of the footprint outstanding on the EU); the
//! share of triangle and pixel dispatches with a local / global reference.

use super::GlobalSpreader;
use super::eu::{EuBehaviour, EuPool};
use super::model::{GlobalSpreaderInputs, GlobalSpreaderOutputs, GlobalSpreaderParams, Packet, Select, PATCH, PIX, TRI, VTX};
use super::stimulus::{Mirror, PacketSource, StreamMix};
use super::Dut;
use std::collections::HashMap;

/// One benchmark configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workload {
    pub eus: usize,
    pub locality: bool,
    pub select: Select,
    /// The VDT's entries and ways (contract R15); the standard workload: 256, 1.
    pub vdt_depth: usize,
    pub vdt_ways: usize,
    pub seed: u64,
    pub cycles: u64,
    pub mix: StreamMix,
    pub eu: EuBehaviour,
}

impl Workload {
    /// The documented workload for `eus` EUs and locality on/off.
    pub fn standard(eus: usize, locality: bool) -> Self {
        Workload {
            eus,
            locality,
            select: Select::FirstFit,
            vdt_depth: 256,
            vdt_ways: 1,
            seed: 2026,
            cycles: 20_000,
            mix: StreamMix {
                rate_pct: [40, 40, 0, 4],
                size: [(4, 12), (2, 6), (1, 3), (8, 16)],
                indexed_pct: 70,
                partial_pct: 20,
                vdt_conflict_pct: 0,
                tri_local_pct: 60,
                tri_spread_pct: 30,
                pt_conflict_pct: 0,
                pixels_per_tri: (1, 2),
                last_pct: 100,
                pr_delay: (0, 0),
                malformed_pct: 0,
            },
            eu: EuBehaviour { answer_pct: 100, refuse_pct: 2, max_hold: 0, work: (32, 160), retain: (16, 64), split_pct: 30, ..Default::default() },
        }
    }

    /// The eighteen configurations of the bench table: `select` first_fit, least_loaded,
    /// round_robin × 3, 5, 16 EUs × locality on, off.
    pub fn table() -> Vec<Workload> {
        Select::ALL
            .into_iter()
            .flat_map(|select| {
                [3, 5, 16].into_iter().flat_map(move |n| [true, false].map(|l| Workload { select, ..Workload::standard(n, l) }))
            })
            .collect()
    }

    /// The block parameters of the configuration.
    pub fn params(&self) -> GlobalSpreaderParams {
        GlobalSpreaderParams {
            locality: self.locality,
            select: self.select,
            vdt_depth: self.vdt_depth,
            vdt_ways: self.vdt_ways,
            ..GlobalSpreaderParams::with_eus(self.eus)
        }
    }
}

/// What a workload run measured.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadResult {
    pub eus: usize,
    pub locality: bool,
    pub select: Select,
    pub cycles: u64,
    pub packets: u64,
    pub per_cycle: f64,
    /// Offer → ack.
    pub mean_latency: f64,
    pub max_latency: u64,
    /// Transfer → ack.
    pub mean_gs_latency: f64,
    pub max_gs_latency: u64,
    /// Max over mean of the EUs' busy integrals.
    pub balance: f64,
    /// Acks by type code.
    pub acks: [u64; 4],
    /// TRI and PIX dispatches with a valid reference: all local / some global.
    pub local: u64,
    pub global: u64,
    /// Slot-cycles in which the vertex or the patch slot held a packet blocked on the VDT (R4,
    /// R15: its set taken in every way), by the checker's mirror of the tables.
    pub vdt_blocked: u64,
}

/// Run workload `w` through `dut` (built with `w.params()`).
pub fn run_workload(dut: &mut dyn Dut<GlobalSpreader>, w: &Workload) -> WorkloadResult {
    let p = dut.params().clone();
    assert_eq!(p, w.params(), "the DUT must be built with the workload's parameters");
    let mut mirror = Mirror::new(&p);
    let mut pool = EuPool::new(&p, w.seed ^ 0xE0, w.eu.clone());
    let mut src = PacketSource::new(&p, w.seed, w.mix.clone());
    // One reset cycle.
    dut.eval(&GlobalSpreaderInputs::idle(&p).with_reset());
    dut.tick();
    let mut offered: HashMap<u64, u64> = HashMap::new();
    let mut transferred: HashMap<u64, u64> = HashMap::new();
    let (mut n, mut sum, mut max, mut gsum, mut gmax) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let mut acks = [0u64; 4];
    let (mut local, mut global) = (0u64, 0u64);
    // The packets in the vertex and patch slots (loaded at a transfer, emptied at their ack).
    let mut held: [Option<Packet>; 4] = [None, None, None, None];
    let mut vdt_blocked = 0u64;
    for cycle in 0..w.cycles {
        let mut inp = GlobalSpreaderInputs::idle(&p);
        src.drive(&mirror, &mut inp);
        pool.drive(&mut inp);
        let o: GlobalSpreaderOutputs = dut.eval(&inp);
        for t in [VTX, PATCH] {
            if held[t].as_ref().is_some_and(|k| mirror.view(k).blocked) {
                vdt_blocked += 1;
            }
        }
        for t in 0..4 {
            if p.has(t) && inp.valid(t) {
                let id = inp.packet(&p, t).src_addr;
                offered.entry(id).or_insert(cycle);
                if o.ready(t) {
                    transferred.insert(id, cycle);
                    if t == VTX || t == PATCH {
                        held[t] = Some(inp.packet(&p, t));
                    }
                }
            }
        }
        if let Some(e) = o.target() {
            if inp.ar_ready >> e & 1 == 1 {
                let id = o.ar_src_addr;
                let lat = cycle - offered.remove(&id).unwrap_or(cycle);
                let glat = cycle - transferred.remove(&id).unwrap_or(cycle);
                n += 1;
                sum += lat;
                max = max.max(lat);
                gsum += glat;
                gmax = gmax.max(glat);
                let t = o.ar_type as usize;
                acks[t] += 1;
                held[t] = None;
                if (t == TRI || t == PIX) && o.ar_ref_valid != 0 {
                    if o.ar_global_ref {
                        global += 1;
                    } else {
                        local += 1;
                    }
                }
            }
        }
        dut.tick();
        let ev = mirror.update(&inp, &o);
        pool.observe(&inp, &o);
        src.account(&inp, &o, &ev, &mut pool);
    }
    let busy: Vec<u64> = pool.stats().iter().map(|s| s.res_cycles).collect();
    let mean = busy.iter().sum::<u64>() as f64 / busy.len() as f64;
    let balance = if mean > 0.0 { *busy.iter().max().unwrap() as f64 / mean } else { 0.0 };
    let nf = n.max(1) as f64;
    WorkloadResult {
        eus: p.eus,
        locality: w.locality,
        select: p.select,
        cycles: w.cycles,
        packets: n,
        per_cycle: n as f64 / w.cycles as f64,
        mean_latency: sum as f64 / nf,
        max_latency: max,
        mean_gs_latency: gsum as f64 / nf,
        max_gs_latency: gmax,
        balance,
        acks,
        local,
        global,
        vdt_blocked,
    }
}

/// The VDT table of the bench (issue 19, "Vertex table"): the standard workload at 5 EUs,
/// locality on, with a 256- and a 32-entry VDT, each direct mapped and with 2 and 4 ways.
pub fn vdt_ways_table() -> Vec<Workload> {
    [256, 32]
        .into_iter()
        .flat_map(|d| [1, 2, 4].map(|w| Workload { vdt_depth: d, vdt_ways: w, ..Workload::standard(5, true) }))
        .collect()
}

/// The VDT table's results as a Markdown table.
pub fn format_vdt_table(results: &[(Workload, WorkloadResult)]) -> String {
    let mut s = String::from(
        "| vdt_depth | vdt_ways | packets/cycle | vertex + patch slot-cycles blocked on the VDT | vertex acks | latency mean | latency max |\n\
         |---|---|---|---|---|---|---|\n",
    );
    for (w, r) in results {
        s += &format!(
            "| {} | {} | {:.3} | {} | {} | {:.2} | {} |\n",
            w.vdt_depth, w.vdt_ways, r.per_cycle, r.vdt_blocked, r.acks[VTX], r.mean_latency, r.max_latency
        );
    }
    s
}

/// The results as a Markdown table (for docs/benchmarks.md).
pub fn format_table(results: &[WorkloadResult]) -> String {
    let mut s = String::from(
        "| select | EUs | locality | packets/cycle | latency mean | latency max | from transfer mean / max | load balance (max/mean) | local / global refs |\n\
         |---|---|---|---|---|---|---|---|---|\n",
    );
    for r in results {
        s += &format!(
            "| {} | {} | {} | {:.3} | {:.2} | {} | {:.2} / {} | {:.2} | {} / {} |\n",
            r.select.name(),
            r.eus,
            if r.locality { "on" } else { "off" },
            r.per_cycle,
            r.mean_latency,
            r.max_latency,
            r.mean_gs_latency,
            r.max_gs_latency,
            r.balance,
            r.local,
            r.global
        );
    }
    s
}
