//! Lane-utilization benchmark of thread-group merging (`make bench BENCH=thread_merge`).
//!
//! **Workloads.** Seeded random triangles on a 256×256-pixel screen, one sample per pixel
//! at the pixel centre, rasterized exactly (edge functions). Three distributions:
//!
//! * `interior-heavy` — 24 large triangles, circumradius 24–64 px: most quads are inside;
//! * `edge-heavy` — 400 small triangles, circumradius 2–8 px: most quads straddle an edge;
//! * `thin` — 250 slivers, 20–80 px long and 0.5–2.5 px wide: almost every quad is partial.
//!
//! A fragment is one tile of LANES/4 quads that the triangle covers at least partly:
//! 2×2 pixels at 4 lanes, 4×2 at 8, 4×4 at 16, 8×4 at 32 (quad q of the tile = row-major
//! quad position, lane `4q + {y, x}` as in spec A2). Tiles are issued in raster order, one
//! triangle after the other (primitive id = triangle index), `frag_last` on a triangle's
//! last tile. The same triangles are used for every lane width.
//!
//! **Shader model.** Fragments are offered back to back (one per cycle, held until
//! accepted); `grp_ready = rsp_ready = 1`. A spawned group runs its pre-merge part for
//! 8 + U{0..3} cycles, sends `me` (one per cycle, queued), is parked until its `rsp`
//! (a retired group is dropped), then runs the post-merge part for 16 cycles and sends
//! `term`. Block configuration: slots 32, pair_hold 4, merge_timeout 16, tags 32 bits.
//!
//! **Metric.** Utilization after the merge point = useful lanes / (groups running after
//! the merge point × LANES), where a group runs after the merge point if it gets a resume
//! (merged or not) and its useful lanes are `popcount(rsp_active)`. Modes: *off* = `flush`
//! held high (every partial fragment leaves alone; contract §7.6), *on* = remap false,
//! *on+remap* = remap true, *+cross* = remap and `cross_primitive` (contract R18), where the
//! rasterizer no longer ends a run at a triangle's last tile (`frag_last` 0 throughout), so a
//! candidate may pair with a tile of the next triangle; *+cand 2*, *+cand 4* hold 2 or 4
//! candidates (R19); *+ways 3*, *+ways 4* merge sets of up to 3 or 4 groups with remap
//! within a primitive (`merge_ways`, R20; one candidate set): a set's members are spawned
//! together and a merge retires every member named in `rsp_retire_mask`.

use super::ThreadMerge;
use super::{Dut, ThreadMergeInputs, ThreadMergeOutputs, ThreadMergeParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// Screen size in pixels (square).
const SCREEN: f64 = 256.0;

/// A synthetic edge-coverage distribution (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Distribution {
    InteriorHeavy,
    EdgeHeavy,
    Thin,
}

impl Distribution {
    pub const ALL: [Distribution; 3] = [
        Distribution::InteriorHeavy,
        Distribution::EdgeHeavy,
        Distribution::Thin,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Distribution::InteriorHeavy => "interior-heavy",
            Distribution::EdgeHeavy => "edge-heavy",
            Distribution::Thin => "thin",
        }
    }

    fn triangles(self) -> usize {
        match self {
            Distribution::InteriorHeavy => 24,
            Distribution::EdgeHeavy => 400,
            Distribution::Thin => 250,
        }
    }
}

type Pt = (f64, f64);

/// Random triangles of `dist`, seeded.
fn triangles(dist: Distribution, seed: u64) -> Vec<[Pt; 3]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (dist as u64 + 1) * 0x9E37_79B9);
    (0..dist.triangles())
        .map(|_| {
            let c = (rng.gen_range(0.0..SCREEN), rng.gen_range(0.0..SCREEN));
            match dist {
                Distribution::InteriorHeavy | Distribution::EdgeHeavy => {
                    let (lo, hi) = if dist == Distribution::InteriorHeavy {
                        (24.0, 64.0)
                    } else {
                        (2.0, 8.0)
                    };
                    let r = rng.gen_range(lo..hi);
                    let a0: f64 = rng.gen_range(0.0..std::f64::consts::TAU);
                    let v = |k: f64, rng: &mut ChaCha8Rng| {
                        let a = a0 + k * std::f64::consts::TAU / 3.0 + rng.gen_range(-0.6..0.6);
                        (c.0 + r * a.cos(), c.1 + r * a.sin())
                    };
                    [v(0.0, &mut rng), v(1.0, &mut rng), v(2.0, &mut rng)]
                }
                Distribution::Thin => {
                    let len = rng.gen_range(20.0..80.0);
                    let w = rng.gen_range(0.5..2.5);
                    let a: f64 = rng.gen_range(0.0..std::f64::consts::TAU);
                    let (dx, dy) = (a.cos() * len / 2.0, a.sin() * len / 2.0);
                    let (nx, ny) = (-a.sin() * w, a.cos() * w);
                    [(c.0 - dx, c.1 - dy), (c.0 + dx, c.1 + dy), (c.0 + nx, c.1 + ny)]
                }
            }
        })
        .collect()
}

/// Is the point inside the triangle (either winding; edges included).
fn inside(t: &[Pt; 3], p: Pt) -> bool {
    let e = |a: Pt, b: Pt| (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
    let (e0, e1, e2) = (e(t[0], t[1]), e(t[1], t[2]), e(t[2], t[0]));
    (e0 >= 0.0 && e1 >= 0.0 && e2 >= 0.0) || (e0 <= 0.0 && e1 <= 0.0 && e2 <= 0.0)
}

/// One fragment of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WFrag {
    pub cov: u64,
    pub prim: u64,
    pub last: bool,
}

/// Tile size (width, height) in pixels for `lanes`.
fn tile(lanes: usize) -> (usize, usize) {
    match lanes {
        4 => (2, 2),
        8 => (4, 2),
        16 => (4, 4),
        32 => (8, 4),
        _ => panic!("lanes {lanes}"),
    }
}

/// The fragment stream of `dist` at `lanes` lanes.
pub fn fragments(dist: Distribution, lanes: usize, seed: u64) -> Vec<WFrag> {
    let (tw, th) = tile(lanes);
    let mut out = Vec::new();
    for (k, t) in triangles(dist, seed).iter().enumerate() {
        let xs = t.iter().map(|p| p.0);
        let ys = t.iter().map(|p| p.1);
        let clamp = |v: f64| v.clamp(0.0, SCREEN - 1.0) as usize;
        let (x0, x1) = (
            clamp(xs.clone().fold(f64::MAX, f64::min)),
            clamp(xs.fold(f64::MIN, f64::max)),
        );
        let (y0, y1) = (
            clamp(ys.clone().fold(f64::MAX, f64::min)),
            clamp(ys.fold(f64::MIN, f64::max)),
        );
        let start = out.len();
        for ty in (y0 / th)..=(y1 / th) {
            for tx in (x0 / tw)..=(x1 / tw) {
                let mut cov = 0u64;
                for py in 0..th {
                    for px in 0..tw {
                        let (x, y) = (tx * tw + px, ty * th + py);
                        if inside(t, (x as f64 + 0.5, y as f64 + 0.5)) {
                            let q = (py / 2) * (tw / 2) + px / 2;
                            cov |= 1 << (4 * q + 2 * (py & 1) + (px & 1));
                        }
                    }
                }
                if cov != 0 {
                    out.push(WFrag {
                        cov,
                        prim: k as u64 & 0xFFFF,
                        last: false,
                    });
                }
            }
        }
        if out.len() > start {
            out.last_mut().expect("a fragment").last = true;
        }
    }
    out
}

/// Merging mode of a benchmark run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// `flush` held high: no pairs.
    Off,
    /// Merging without lane remap.
    On,
    /// Merging with lane remap.
    OnRemap,
    /// Merging with lane remap and `cross_primitive`, runs not ended at a triangle's last tile.
    Cross,
    /// Merging with lane remap and `candidates` = 2 (contract R19), within a primitive.
    Cand2,
    /// Merging with lane remap and `candidates` = 4 (contract R19), within a primitive.
    Cand4,
    /// Merging with lane remap and `merge_ways` = 3 (contract R20), within a primitive.
    Ways3,
    /// Merging with lane remap and `merge_ways` = 4 (contract R20), within a primitive.
    Ways4,
}

/// The block configuration of the benchmark at `lanes` lanes.
pub fn bench_params(lanes: usize, mode: Mode) -> ThreadMergeParams {
    ThreadMergeParams {
        lanes,
        slots: 32,
        remap: !matches!(mode, Mode::Off | Mode::On),
        cross_primitive: mode == Mode::Cross,
        candidates: match mode {
            Mode::Cand2 => 2,
            Mode::Cand4 => 4,
            _ => 1,
        },
        merge_ways: match mode {
            Mode::Ways3 => 3,
            Mode::Ways4 => 4,
            _ => 2,
        },
        ..ThreadMergeParams::contract_default()
    }
}

/// What one run of a stream saw.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct StreamResult {
    pub fragments: u64,
    pub cycles: u64,
    /// Descriptors of 2 or more groups (`grp_paired`).
    pub pairs: u64,
    /// Descriptors of exactly 3 and of 4 groups (R20).
    pub sets3: u64,
    pub sets4: u64,
    pub merges: u64,
    /// Groups that ran after the merge point.
    pub post_groups: u64,
    /// Their active lanes.
    pub useful_lanes: u64,
    pub lanes: usize,
}

impl StreamResult {
    /// useful lanes / (groups after the merge point × LANES).
    pub fn utilization(&self) -> f64 {
        self.useful_lanes as f64 / (self.post_groups as f64 * self.lanes as f64)
    }
}

/// Run `frags` through `dut` with the shader model of the module documentation; `flush`
/// high throughout for [`Mode::Off`]; `frag_last` 0 throughout with `cross_primitive`.
pub fn run_stream(
    dut: &mut dyn Dut<ThreadMerge>,
    frags: &[WFrag],
    flush: bool,
    seed: u64,
) -> Result<StreamResult, String> {
    #[derive(Clone, Copy, PartialEq)]
    enum G {
        Dead,
        Pre(u32),
        MeQueued,
        Parked,
        Post(u32),
        TermQueued,
    }
    let p = dut.params().clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut g = vec![G::Dead; p.groups()];
    let mut me_q: VecDeque<usize> = VecDeque::new();
    let mut term_q: VecDeque<usize> = VecDeque::new();
    let mut r = StreamResult {
        fragments: frags.len() as u64,
        lanes: p.lanes,
        ..Default::default()
    };
    let mut next = 0usize;
    let limit = 200 + 60 * frags.len() as u64;
    let idle = ThreadMergeInputs::idle(&p);
    dut.eval(&idle.clone().with_reset());
    dut.tick();
    for cycle in 0..limit {
        let mut i = idle.clone();
        i.flush = flush;
        if let Some(f) = frags.get(next) {
            i = i.frag(f.cov, f.prim, next as u64, f.last && !p.cross_primitive);
        }
        if let Some(&t) = me_q.front() {
            i = i.me(t as u64);
        }
        if let Some(t) = term_q.pop_front() {
            i = i.term(t as u64);
            g[t] = G::Dead;
        }
        let o: ThreadMergeOutputs = dut.eval(&i);
        if o.err_proto || o.err_xlane {
            return Err(format!("error flag at cycle {cycle}"));
        }
        let busy = g.iter().any(|&s| s != G::Dead);
        if next == frags.len()
            && !busy
            && !o.pend_valid
            && !o.grp_valid
            && !o.rsp_valid
            && o.free_cnt == p.slots as u64
        {
            r.cycles = cycle;
            return Ok(r);
        }
        // Handshakes of this cycle.
        if i.frag_valid && o.frag_ready {
            next += 1;
        }
        if i.me_valid && o.me_ready {
            me_q.pop_front();
        }
        // The groups' own time passes before this cycle's handshakes take effect.
        for (t, s) in g.iter_mut().enumerate() {
            match *s {
                G::Pre(0) => {
                    *s = G::MeQueued;
                    me_q.push_back(t);
                }
                G::Pre(n) => *s = G::Pre(n - 1),
                G::Post(0) => {
                    *s = G::TermQueued;
                    term_q.push_back(t);
                }
                G::Post(n) => *s = G::Post(n - 1),
                _ => {}
            }
        }
        if i.me_valid && o.me_ready {
            g[i.me_tgid as usize] = G::Parked;
        }
        if o.rsp_valid && i.rsp_ready {
            r.post_groups += 1;
            r.useful_lanes += u64::from(o.rsp_active.count_ones());
            r.merges += u64::from(o.rsp_merged);
            g[o.rsp_tgid as usize] = G::Post(16);
            if o.rsp_retire {
                g[o.rsp_retire_tgid as usize] = G::Dead;
                // R20: every member of the retire mask (bit j-1 = rsp_tgid + j).
                for j in 2..p.merge_ways.max(2) {
                    if o.rsp_retire_mask >> (j - 1) & 1 == 1 {
                        g[o.rsp_tgid as usize + j] = G::Dead;
                    }
                }
            }
        }
        if o.grp_valid && i.grp_ready {
            g[o.grp_a_tgid as usize] = G::Pre(8 + rng.gen_range(0..=3));
            if o.grp_paired {
                r.pairs += 1;
                g[o.grp_b_tgid as usize] = G::Pre(8 + rng.gen_range(0..=3));
            }
            // R20 members C and D (the ports exist only with merge_ways > 2 / = 4).
            let c = p.merge_ways > 2 && o.grp_c_valid;
            let d = p.merge_ways == 4 && o.grp_d_valid;
            if c {
                g[o.grp_c_tgid as usize] = G::Pre(8 + rng.gen_range(0..=3));
            }
            if d {
                g[o.grp_d_tgid as usize] = G::Pre(8 + rng.gen_range(0..=3));
            }
            r.sets3 += u64::from(c && !d);
            r.sets4 += u64::from(d);
        }
        dut.tick();
    }
    Err(format!(
        "stream of {} fragments not done after {limit} cycles",
        frags.len()
    ))
}

/// One row of the utilization table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct UtilRow {
    pub dist: Distribution,
    pub lanes: usize,
    pub fragments: u64,
    /// Share of fragments that are partially covered.
    pub partial: f64,
    pub off: StreamResult,
    pub on: StreamResult,
    pub on_remap: StreamResult,
    pub cross: StreamResult,
    pub cand2: StreamResult,
    pub cand4: StreamResult,
    pub ways3: StreamResult,
    pub ways4: StreamResult,
}

/// The utilization table over every distribution and `lanes_list`, each stream run with
/// merging off, on, on+remap, on+remap+cross, with 2 and 4 candidates and with sets of 3
/// and 4 through a DUT from `make`.
pub fn utilization_table(
    make: &mut dyn FnMut(&ThreadMergeParams) -> Box<dyn Dut<ThreadMerge>>,
    lanes_list: &[usize],
    seed: u64,
) -> Result<Vec<UtilRow>, String> {
    let mut rows = Vec::new();
    for dist in Distribution::ALL {
        for &lanes in lanes_list {
            let frags = fragments(dist, lanes, seed);
            let full = ones(lanes);
            let partial = frags.iter().filter(|f| f.cov != full).count() as f64 / frags.len() as f64;
            let mut run = |mode: Mode| {
                let mut dut = make(&bench_params(lanes, mode));
                run_stream(dut.as_mut(), &frags, mode == Mode::Off, seed)
                    .map_err(|e| format!("{} lanes {lanes} {mode:?}: {e}", dist.name()))
            };
            rows.push(UtilRow {
                dist,
                lanes,
                fragments: frags.len() as u64,
                partial,
                off: run(Mode::Off)?,
                on: run(Mode::On)?,
                on_remap: run(Mode::OnRemap)?,
                cross: run(Mode::Cross)?,
                cand2: run(Mode::Cand2)?,
                cand4: run(Mode::Cand4)?,
                ways3: run(Mode::Ways3)?,
                ways4: run(Mode::Ways4)?,
            });
        }
    }
    Ok(rows)
}

fn ones(lanes: usize) -> u64 {
    super::model::ones(lanes as u32)
}

/// The table as Markdown: utilization per mode, the pairs (descriptors of 2 or more groups)
/// per merging mode, and the sets of 3 / 4 of the `merge_ways` modes.
pub fn format_table(rows: &[UtilRow]) -> String {
    let mut s = String::from(
        "| workload | lanes | fragments | partial | off | on | on+remap | +cross | +cand 2 | +cand 4 | +ways 3 | +ways 4 | pairs (on / remap / cross / cand 2 / cand 4 / ways 3 / ways 4) | sets of 3 / 4 (ways 3; ways 4) |\n\
         |---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        s += &format!(
            "| {} | {} | {} | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {:.1} % | {} / {} / {} / {} / {} / {} / {} | {}; {} / {} |\n",
            r.dist.name(),
            r.lanes,
            r.fragments,
            100.0 * r.partial,
            100.0 * r.off.utilization(),
            100.0 * r.on.utilization(),
            100.0 * r.on_remap.utilization(),
            100.0 * r.cross.utilization(),
            100.0 * r.cand2.utilization(),
            100.0 * r.cand4.utilization(),
            100.0 * r.ways3.utilization(),
            100.0 * r.ways4.utilization(),
            r.on.pairs,
            r.on_remap.pairs,
            r.cross.pairs,
            r.cand2.pairs,
            r.cand4.pairs,
            r.ways3.pairs,
            r.ways4.pairs,
            r.ways3.sets3,
            r.ways4.sets3,
            r.ways4.sets4,
        );
    }
    s
}
