//! Utilization benchmark: a synthetic tile workload, the naive single-open-task
//! baseline of the patent's background (spec §1.1), and a driver that runs a workload
//! through any [`Dut`].
//!
//! # The synthetic tile workload ([`tile_workload`])
//!
//! A scene of `draws` draw calls (default 12), each with its own state id (draw d has
//! state d+1, wrapped to the state width) and a pipeline shape chosen at random per draw:
//! plain (VS only, 50 %), tessellated (VS → HS → DS, 30 %) or geometry (VS → GS, 20 %)
//! (shapes whose shader types the configuration lacks fall back to plain). It is rendered
//! as `tiles` tiles (default 48) on `tile_pipes` tile pipelines (default 4; tile t on pipe
//! t mod P, each pipe renders its tiles in order, the pipes run interleaved: each step
//! picks a random pipe that still has work and emits the query of its next primitive).
//! A tile touches each draw call with probability 0.6, in draw order, with 1–8 primitives
//! (plain), 1–5 (geometry) or 1–3 patches (tessellated). Each primitive query emits, top
//! down as the contract requires:
//!
//! * VS instances for the vertex (control-point) cache misses: the first primitive of a
//!   draw in a tile misses 3 vertices (4 control points for a patch), later ones 1
//!   (70 %), 0 (20 %) or 2 (10 %) (2 for a later patch) — neighbouring primitives share
//!   vertices;
//! * for a tessellated patch one HS instance and 3–10 DS instances (and with `tess_gs` 1–2
//!   GS instances after them); for a geometry primitive 1–2 GS instances;
//! * hits on scheduled items: with probability 0.5 a lock (for this tile's pipe) of the
//!   task holding a VS instance this tile's earlier primitive of the same draw created,
//!   and with probability 0.3 of one another tile created for the same draw (cross-tile
//!   sharing; the driver drops a lock whose task has already left, as an item computed by
//!   an executed task is available, not scheduled).
//!
//! Each instance also records its producers (`Event::Inst::producers`): the primitive's VS
//! instances (locked and emitted) for its HS and GS instances, the patch's HS instance for its
//! DS instances; a driver of a block with `dep_tags` names their tasks by tag.
//!
//! Each pipe's render queue holds `rq_depth` primitives (default 24): when it is full, and
//! at the end of each tile (the fetch unit has finished the tile's geometry), the pipe's
//! render queue is flushed. After the last tile the driver drains the block. The stream
//! is a pure function of the seed and the shape parameters.
//!
//! # The naive baseline ([`naive_baseline`])
//!
//! One open task: an instance joins it if it has the same (shader type, state), else the
//! open task is flushed first; a task is flushed when it reaches its capacity, when a
//! render-queue flush names a pipe in its lock mask, and at the end. Dependencies are
//! trivially satisfied (a producer is always flushed before its consumer opens).
//!
//! # Utilization
//!
//! [`WorkloadResult::utilization`] = instances / (tasks × width): the fraction of SIMD
//! lanes the output tasks fill.

use super::TaskCombiner;
use super::model::ones;
use super::{Dut, TaskCombinerInputs, TaskCombinerParams};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// One step of a workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// A computation instance, and the instances (indices among the workload's instances,
    /// oldest first, `usize::MAX` = none) that produce what it consumes: an HS or GS instance
    /// its primitive's VS instances (the cache misses emitted for it and the scheduled ones its
    /// query locked), a DS instance its patch's HS instance. Only a driver for `dep_tags`
    /// (contract D3t) names them, by the tags their tasks had.
    Inst {
        stype: u64,
        state: u64,
        r: u64,
        tpipe: u64,
        producers: [usize; 4],
    },
    /// A query hit an item scheduled by instance number `of` (index among the workload's
    /// instances): lock its task for `tpipe`.
    Lock { of: usize, tpipe: u64 },
    /// Flush the render queue of `tpipe`.
    Flush { tpipe: u64 },
}

/// A workload: the events in order.
#[derive(Debug, Clone)]
pub struct Workload {
    pub events: Vec<Event>,
    pub instances: usize,
}

/// Shape of the synthetic tile workload (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkloadSpec {
    pub seed: u64,
    pub tiles: usize,
    pub tile_pipes: usize,
    pub draws: usize,
    pub rq_depth: usize,
    /// Shader types available (≤ the block's `shader_types`).
    pub shader_types: usize,
    pub state_width: u32,
    pub ref_width: u32,
    /// Domain-shader instances per tessellated patch, drawn uniformly from this range (3 to
    /// 10 by default; a high tessellation factor, as the patent's one hull shader feeding 32
    /// domain shaders, is 16 to 32).
    pub ds_per_patch: (usize, usize),
    /// Tessellated draws also run a geometry shader (VS → HS → DS → GS): 1–2 GS instances per
    /// patch, after its DS instances, whose producers are the last four of them (false by
    /// default; the `dep_tags` table of `make bench` turns it on: there the default `depends`
    /// row of GS, [VS, DS], names a VS task the GS instance does not consume).
    pub tess_gs: bool,
}

impl WorkloadSpec {
    /// The documented defaults for a block configuration: 48 tiles on 4 pipes (or fewer,
    /// if the block has fewer), 12 draw calls, render queues of 24 primitives.
    pub fn for_params(p: &TaskCombinerParams, seed: u64) -> Self {
        WorkloadSpec {
            seed,
            tiles: 48,
            tile_pipes: p.tile_pipes.min(4),
            draws: 12,
            rq_depth: 24,
            shader_types: p.shader_types.min(4),
            state_width: p.state_width,
            ref_width: p.ref_width,
            ds_per_patch: (3, 10),
            tess_gs: false,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Plain,
    Tess,
    Geom,
}

/// Per-pipe progress while generating.
struct Pipe {
    tiles: Vec<usize>,
    /// Primitive queries of the current tile not yet emitted: (draw, is first of draw).
    prims: Vec<(usize, bool)>,
    rq: usize,
}

/// The synthetic tile workload (see the module documentation).
pub fn tile_workload(s: &WorkloadSpec) -> Workload {
    let mut rng = ChaCha8Rng::seed_from_u64(s.seed);
    let shapes: Vec<Shape> = (0..s.draws)
        .map(|_| {
            let sh = match rng.gen_range(0..100) {
                0..=49 => Shape::Plain,
                50..=79 => Shape::Tess,
                _ => Shape::Geom,
            };
            match sh {
                Shape::Tess if s.shader_types < 3 => Shape::Plain,
                Shape::Geom if s.shader_types < 4 => Shape::Plain,
                other => other,
            }
        })
        .collect();
    let state_of = |d: usize| (d as u64 + 1) & ones(s.state_width);
    let mut pipes: Vec<Pipe> = (0..s.tile_pipes)
        .map(|p| Pipe {
            tiles: (p..s.tiles).step_by(s.tile_pipes).rev().collect(),
            prims: Vec::new(),
            rq: 0,
        })
        .collect();
    let mut events = Vec::new();
    let mut n_inst = 0usize;
    // VS instances per draw call, by tile: (tile, instance index).
    let mut vs_of_draw: Vec<Vec<(usize, usize)>> = vec![Vec::new(); s.draws];
    let mut tile_of_pipe = vec![usize::MAX; s.tile_pipes];
    let mut next_ref = 0u64;
    loop {
        // Pipes with work: a current tile with primitives left, or tiles to start.
        let active: Vec<usize> = (0..s.tile_pipes)
            .filter(|&p| !pipes[p].prims.is_empty() || !pipes[p].tiles.is_empty())
            .collect();
        if active.is_empty() {
            break;
        }
        let p = active[rng.gen_range(0..active.len())];
        if pipes[p].prims.is_empty() {
            let tile = pipes[p].tiles.pop().unwrap();
            tile_of_pipe[p] = tile;
            let mut prims = Vec::new();
            for (d, &shape) in shapes.iter().enumerate() {
                if !rng.gen_bool(0.6) {
                    continue;
                }
                let n = match shape {
                    Shape::Plain => rng.gen_range(1..=8),
                    Shape::Geom => rng.gen_range(1..=5),
                    Shape::Tess => rng.gen_range(1..=3),
                };
                prims.extend((0..n).map(|k| (d, k == 0)));
            }
            prims.reverse();
            pipes[p].prims = prims;
            if pipes[p].prims.is_empty() {
                events.push(Event::Flush { tpipe: p as u64 });
                continue;
            }
        }
        let (d, first) = pipes[p].prims.pop().unwrap();
        let tile = tile_of_pipe[p];
        let (tp, state) = (p as u64, state_of(d));
        // Hits on scheduled items: locks first (the query finds them before it misses).
        let own: Vec<usize> = vs_of_draw[d]
            .iter()
            .filter(|x| x.0 == tile)
            .map(|x| x.1)
            .collect();
        // The primitive's VS producers: those its query locks, then those it emits.
        let mut prim_vs: Vec<usize> = Vec::new();
        if !own.is_empty() && rng.gen_bool(0.5) {
            events.push(Event::Lock {
                of: own[own.len() - 1],
                tpipe: tp,
            });
            prim_vs.push(own[own.len() - 1]);
        }
        let other: Vec<usize> = vs_of_draw[d]
            .iter()
            .filter(|x| x.0 != tile)
            .map(|x| x.1)
            .collect();
        if !other.is_empty() && rng.gen_bool(0.3) {
            let of = other[rng.gen_range(0..other.len())];
            events.push(Event::Lock { of, tpipe: tp });
            prim_vs.push(of);
        }
        let shape = shapes[d];
        let vs = match (shape, first) {
            (Shape::Tess, true) => 4,
            (Shape::Tess, false) => 2,
            (_, true) => 3,
            _ => match rng.gen_range(0..10) {
                0..=6 => 1,
                7..=8 => 0,
                _ => 2,
            },
        };
        // The last four producers, oldest first, `usize::MAX` filling the rest.
        let four = |v: &[usize]| {
            let mut a = [usize::MAX; 4];
            for (k, &x) in v.iter().skip(v.len().saturating_sub(4)).enumerate() {
                a[k] = x;
            }
            a
        };
        let mut emit = |events: &mut Vec<Event>, stype: u64, n: usize, producers: [usize; 4]| {
            let first = n_inst;
            for _ in 0..n {
                next_ref = next_ref.wrapping_add(1);
                events.push(Event::Inst {
                    stype,
                    state,
                    r: next_ref & ones(s.ref_width),
                    tpipe: tp,
                    producers,
                });
                if stype == 0 {
                    vs_of_draw[d].push((tile, n_inst));
                }
                n_inst += 1;
            }
            first
        };
        let first_vs = emit(&mut events, 0, vs, [usize::MAX; 4]);
        prim_vs.extend(first_vs..first_vs + vs);
        match shape {
            Shape::Plain => {}
            Shape::Tess => {
                let hs = emit(&mut events, 1, 1, four(&prim_vs));
                let n = rng.gen_range(s.ds_per_patch.0..=s.ds_per_patch.1);
                let ds = emit(&mut events, 2, n, four(&[hs]));
                if s.tess_gs && s.shader_types >= 4 {
                    let g = rng.gen_range(1..=2);
                    let dsv: Vec<usize> = (ds..ds + n).collect();
                    emit(&mut events, 3, g, four(&dsv));
                }
            }
            Shape::Geom => {
                let n = rng.gen_range(1..=2);
                emit(&mut events, 3, n, four(&prim_vs));
            }
        }
        pipes[p].rq += 1;
        let end_of_tile = pipes[p].prims.is_empty();
        if pipes[p].rq >= s.rq_depth || end_of_tile {
            events.push(Event::Flush { tpipe: tp });
            pipes[p].rq = 0;
        }
    }
    Workload {
        events,
        instances: n_inst,
    }
}

/// The spec's R2 efficiency workload (§11.3): VS instances only, `states` states
/// interleaved at random, `pipes` tile pipes, `n` instances, a flush-free stream ending
/// in a drain.
pub fn interleaved_vs(seed: u64, states: u64, pipes: u64, n: usize) -> Workload {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let events = (0..n)
        .map(|k| Event::Inst {
            stype: 0,
            state: 1 + rng.gen_range(0..states),
            r: k as u64 & 0xFFF,
            tpipe: rng.gen_range(0..pipes),
            producers: [usize::MAX; 4],
        })
        .collect();
    Workload {
        events,
        instances: n,
    }
}

/// What a workload run produced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkloadResult {
    pub width: usize,
    pub instances: u64,
    /// Tasks handed to the SIMD sink and the lanes they filled.
    pub tasks: u64,
    pub lanes: u64,
    /// Cycles the run took (0 for the naive baseline, which is not clocked).
    pub cycles: u64,
    /// Per shader type (0 VS, 1 HS, 2 DS, 3 GS, …): tasks and their lanes (clocked runs only).
    pub by_type: [(u64, u64); 8],
}

impl WorkloadResult {
    /// instances / (tasks × width).
    pub fn utilization(&self) -> f64 {
        self.instances as f64 / (self.tasks as f64 * self.width as f64)
    }

    /// Average lanes per task.
    pub fn lanes_per_task(&self) -> f64 {
        self.lanes as f64 / self.tasks as f64
    }

    /// tasks / instances.
    pub fn tasks_per_instance(&self) -> f64 {
        self.tasks as f64 / self.instances as f64
    }

    /// The `hold_producers` table's cells (docs/benchmarks.md): HS lanes per task (tasks) | DS
    /// lanes per task (tasks) | utilization (tasks) | cycles.
    pub fn hold_cells(&self) -> String {
        self.type_cells(1, 2)
    }

    /// The `dep_tags` table's cells (docs/benchmarks.md): VS lanes per task (tasks) | GS lanes
    /// per task (tasks) | utilization (tasks) | cycles.
    pub fn dep_cells(&self) -> String {
        self.type_cells(0, 3)
    }

    /// Lanes per task (tasks) of shader types `a` and `b`, utilization (tasks), cycles.
    fn type_cells(&self, a: usize, b: usize) -> String {
        format!(
            "{:.2} ({}) | {:.2} ({}) | {:.3} ({}) | {}",
            self.lanes_per_task_of(a),
            self.by_type[a].0,
            self.lanes_per_task_of(b),
            self.by_type[b].0,
            self.utilization(),
            self.tasks,
            self.cycles
        )
    }

    /// Average lanes per task of shader type `t` (0 with no task of it).
    pub fn lanes_per_task_of(&self, t: usize) -> f64 {
        let (tasks, lanes) = self.by_type[t];
        if tasks == 0 { 0.0 } else { lanes as f64 / tasks as f64 }
    }
}

/// The naive single-open-task scheme on a workload, for tasks of `width` lanes with the
/// per-type capacities `capacity` (see the module documentation).
pub fn naive_baseline(w: &Workload, width: usize, capacity: &[usize]) -> WorkloadResult {
    struct Open {
        key: (u64, u64),
        count: usize,
        lockmask: u64,
        first: usize,
    }
    let mut res = WorkloadResult {
        width,
        instances: w.instances as u64,
        tasks: 0,
        lanes: 0,
        cycles: 0,
        by_type: [(0, 0); 8],
    };
    let mut open: Option<Open> = None;
    let mut n = 0usize;
    let flush = |open: &mut Option<Open>, res: &mut WorkloadResult| {
        if let Some(t) = open.take() {
            res.tasks += 1;
            res.lanes += t.count as u64;
        }
    };
    for ev in &w.events {
        match *ev {
            Event::Inst {
                stype,
                state,
                tpipe,
                ..
            } => {
                if open.as_ref().is_some_and(|t| t.key != (stype, state)) {
                    flush(&mut open, &mut res);
                }
                let t = open.get_or_insert(Open {
                    key: (stype, state),
                    count: 0,
                    lockmask: 0,
                    first: n,
                });
                t.count += 1;
                t.lockmask |= 1 << tpipe;
                n += 1;
                if t.count >= capacity.get(stype as usize).copied().unwrap_or(width) {
                    flush(&mut open, &mut res);
                }
            }
            Event::Lock { of, tpipe } => {
                if let Some(t) = open.as_mut().filter(|t| of >= t.first) {
                    t.lockmask |= 1 << tpipe;
                }
            }
            Event::Flush { tpipe } => {
                if open.as_ref().is_some_and(|t| t.lockmask >> tpipe & 1 == 1) {
                    flush(&mut open, &mut res);
                }
            }
        }
    }
    flush(&mut open, &mut res);
    res
}

/// Run a workload through `dut` from reset: instances are held until accepted (with
/// `dep_tags` = K naming the tags of up to K of its producers' tasks still in the block), a
/// lock is presented for one cycle (dropped if its task has already left), a flush is held until
/// accepted and the stream waits for its `rqf_done`; `out_ready` is always 1; at the end
/// the block is drained. Counts the tasks and lanes handed out. Fails if the lanes
/// handed out differ from the instances accepted or the block stops making progress.
pub fn run_workload(dut: &mut dyn Dut<TaskCombiner>, w: &Workload) -> Result<WorkloadResult, String> {
    let p = dut.params().clone();
    if p.registered_input {
        // R2i: a tag comes cycles after its hand-over, with in_tag_valid; this driver reads it
        // at the hand-over.
        return Err("run_workload drives R2's port: registered_input is not supported".into());
    }
    let mut res = WorkloadResult {
        width: p.width,
        instances: 0,
        tasks: 0,
        lanes: 0,
        cycles: 0,
        by_type: [(0, 0); 8],
    };
    // Instance index → tag of its task; tag → instances of the resident task with it.
    let mut tag_of: Vec<u64> = Vec::with_capacity(w.instances);
    let mut in_task: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut left = vec![false; w.instances];
    let limit = 200 + 50 * (w.events.len() as u64 + w.instances as u64);

    let cycle = |dut: &mut dyn Dut<TaskCombiner>, i: TaskCombinerInputs, res: &mut WorkloadResult| {
        let o = dut.eval(&i);
        dut.tick();
        res.cycles += 1;
        o
    };
    let observe = |o: &super::TaskCombinerOutputs,
                   res: &mut WorkloadResult,
                   left: &mut Vec<bool>,
                   in_task: &mut HashMap<u64, Vec<usize>>| {
        // out_ready is always 1: every cycle with out_valid is a handshake of a new task.
        if o.out_valid {
            res.tasks += 1;
            res.lanes += o.out_count;
            let t = &mut res.by_type[o.out_stype as usize & 7];
            t.0 += 1;
            t.1 += o.out_count;
            for k in in_task.remove(&o.out_tag).unwrap_or_default() {
                left[k] = true;
            }
        }
    };
    let ready = TaskCombinerInputs::idle(&p).ready(true);
    cycle(dut, ready.clone().with_reset(), &mut res);
    for ev in &w.events {
        match *ev {
            Event::Inst {
                stype,
                state,
                r,
                tpipe,
                producers,
            } => {
                // D3t: the producers' tasks still in the block, by tag, distinct, up to K
                // (held with the instance; a producer that leaves meanwhile is ignored).
                let mut named: Vec<u64> = Vec::new();
                for &k in producers.iter().filter(|&&k| k < tag_of.len() && !left[k]) {
                    if !named.contains(&tag_of[k]) && named.len() < p.dep_tags {
                        named.push(tag_of[k]);
                    }
                }
                let i = ready.clone().inst(stype, state, r, tpipe).deps(&p, &named);
                loop {
                    let o = cycle(dut, i.clone(), &mut res);
                    observe(&o, &mut res, &mut left, &mut in_task);
                    if o.in_ready {
                        in_task.entry(o.in_tag).or_default().push(tag_of.len());
                        tag_of.push(o.in_tag);
                        res.instances += 1;
                        break;
                    }
                    if res.cycles > limit {
                        return Err(format!(
                            "no progress: instance {} waits for in_ready",
                            tag_of.len()
                        ));
                }
                }
            }
            Event::Lock { of, tpipe } => {
                if of < tag_of.len() && !left[of] {
                    let o = cycle(dut, ready.clone().lk(tag_of[of], tpipe), &mut res);
                    observe(&o, &mut res, &mut left, &mut in_task);
                }
            }
            Event::Flush { tpipe } => {
                loop {
                    let o = cycle(dut, ready.clone().rqf(tpipe), &mut res);
                    observe(&o, &mut res, &mut left, &mut in_task);
                    if o.rqf_ready {
                        break;
                    }
                    if res.cycles > limit {
                        return Err("no progress: flush waits for rqf_ready".into());
                    }
                }
                loop {
                    let o = cycle(dut, ready.clone(), &mut res);
                    observe(&o, &mut res, &mut left, &mut in_task);
                    if o.rqf_done {
                        break;
                    }
                    if res.cycles > limit {
                        return Err("no progress: flush waits for rqf_done".into());
                    }
                }
            }
        }
    }
    loop {
        let o = cycle(dut, ready.clone().drain(), &mut res);
        observe(&o, &mut res, &mut left, &mut in_task);
        if o.drain_done {
            break;
        }
        if res.cycles > limit {
            return Err("no progress: drain waits for drain_done".into());
        }
    }
    let o = cycle(dut, ready.clone(), &mut res);
    if o.perf_tasks != res.tasks & ones(32) || o.perf_lanes != res.lanes & ones(32) {
        return Err(format!(
            "perf counters {}/{} but {}/{} handed out",
            o.perf_tasks, o.perf_lanes, res.tasks, res.lanes
        ));
    }
    if res.lanes != res.instances || res.instances != w.instances as u64 {
        return Err(format!(
            "{} instances in the workload, {} accepted, {} lanes handed out",
            w.instances, res.instances, res.lanes
        ));
    }
    Ok(res)
}
