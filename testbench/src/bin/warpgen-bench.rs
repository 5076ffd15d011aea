//! `make bench`: throughput of the Verilator harness and emission time, for the
//! scoreboard at the default config.
//!
//! (a)  harness: a reactive testbench written against the harness API (ports by
//!      name, resolved once): each cycle it issues random instructions when
//!      `iss_fire` took the last one, returns completions 1-40 cycles after their
//!      issue, and folds every output into a checksum;
//! (a0) the harness replaying (a)'s recorded inputs (no testbench logic);
//! (b)  a plain C++ loop calling the Verilated model directly on the same
//!      recorded inputs; its checksum must equal (a0)'s;
//! a/b  the harness's efficiency (goal: at least 0.5);
//! (c)  time to generate the Verilog of the default config;
//! and, for every block, the full lockstep rate (typed adapter + spec model +
//! comparison every cycle) at the default config.
//!
//! Then the blocks' own benchmarks:
//! * task_combiner lane utilization on the synthetic tile workload
//!   (`task_combiner::workload`) at table sizes 1-32 and widths 8/16/32, next to
//!   the naive single-open-task baseline on the same workload (on the model, one
//!   point checked on the RTL: see `task_combiner_utilization`);
//! * thread_merge lane utilization after the merge point on the synthetic
//!   edge-coverage distributions (`thread_merge::workload`), merging off / on /
//!   on with remap (on the model: see `thread_merge_utilization`).
//!
//! Usage: `warpgen-bench [SECTION...] [--seed N]`, sections `harness`,
//! `task_combiner`, `thread_merge` (default: all). `--seed` seeds the block
//! workloads (default 1), so a table can be re-run on another seed.

use std::time::Instant;
use warpgen_sim::{Dir, PortId, Sim};
use warpgen_testbench::branch_stack::lockstep::BranchStack;
use warpgen_testbench::branch_stack::BranchStackParams;
use warpgen_testbench::kit;
use warpgen_testbench::scoreboard::lockstep::Scoreboard;

use warpgen_testbench::scoreboard::ScoreboardParams;
use warpgen_testbench::task_combiner::lockstep::TaskCombiner;
use warpgen_testbench::task_combiner::TaskCombinerParams;
use warpgen_testbench::thread_merge::lockstep::ThreadMerge;
use warpgen_testbench::thread_merge::ThreadMergeParams;

const CYCLES: u64 = 400_000;
const SEED: u64 = 2026;

/// xorshift64*: a tiny deterministic generator, so the testbench costs little.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The reactive testbench of (a).
struct Reactive {
    p: ScoreboardParams,
    rng: Rng,
    /// (due cycle, group, tracker) of issued reorderable instructions.
    outstanding: Vec<(u64, u64, u64)>,
    /// The instruction presented: (group, tracker or None, dep mask, next mask).
    current: (u64, Option<u64>, u64, u64),
    ins: Vec<PortId>,
    fire: PortId,
    outputs: Vec<(PortId, usize)>,
}

impl Reactive {
    fn new(p: &ScoreboardParams, sim: &Sim) -> Reactive {
        let id = |n: &str| sim.port(n).expect("scoreboard port");
        let names = ["iss_valid", "iss_tg", "iss_trk_en", "iss_trk", "iss_dep_mask", "iss_nxt_mask", "cpl_valid", "cpl_tg", "cpl_trk", "chk_tg", "chk_mask", "br_tg", "br_mask_a", "br_mask_b"];
        let outputs = sim
            .ports()
            .iter()
            .filter(|q| q.dir == Dir::Out)
            .map(|q| (id(&q.name), q.width.div_ceil(64)))
            .collect();
        let mut r = Reactive {
            p: p.clone(),
            rng: Rng(SEED),
            outstanding: Vec::new(),
            current: (0, None, 0, 0),
            ins: names.iter().map(|n| id(n)).collect(),
            fire: id("iss_fire"),
            outputs,
        };
        r.current = r.instruction();
        r
    }

    fn instruction(&mut self) -> (u64, Option<u64>, u64, u64) {
        let (tg, trk) = (self.p.num_tg as u64, self.p.num_trk as u64);
        let sparse = |r: &mut Rng| if r.below(4) == 0 { 1 << r.below(trk) } else { 0 };
        let g = self.rng.below(tg);
        let t = (self.rng.below(2) == 0).then(|| self.rng.below(trk));
        let dep = sparse(&mut self.rng);
        let nxt = sparse(&mut self.rng);
        (g, t, dep, nxt)
    }

    /// One cycle: drive inputs, settle, react to the outputs, fold them, clock.
    fn cycle(&mut self, sim: &mut Sim, now: u64, checksum: &mut u64) {
        let (tgw, tkw) = (self.p.tgw(), self.p.tkw());
        let (mut valid, mut tgs, mut trks) = (0u64, 0u64, 0u64);
        let mut port = 0;
        let mut i = 0;
        while i < self.outstanding.len() && port < self.p.num_cpl {
            let (due, g, t) = self.outstanding[i];
            if due <= now {
                valid |= 1 << port;
                tgs |= g << (port as u32 * tgw);
                trks |= t << (port as u32 * tkw);
                port += 1;
                self.outstanding.swap_remove(i);
            } else {
                i += 1;
            }
        }
        let (g, t, dep, nxt) = self.current;
        let (q, m) = (self.rng.next(), (1u64 << self.p.num_trk) - 1);
        let values = [1, g, t.is_some() as u64, t.unwrap_or(0), dep, nxt, valid, tgs, trks, g, q & m, g, (q >> 16) & m, (q >> 32) & m];
        for (p, v) in self.ins.iter().zip(values) {
            sim.set_unchecked(*p, v);
        }
        sim.eval().expect("eval");
        if sim.get(self.fire) != 0 {
            if let Some(t) = t {
                self.outstanding.push((now + 1 + self.rng.below(40), g, t));
            }
            self.current = self.instruction();
        }
        for (p, words) in &self.outputs {
            for w in 0..*words {
                *checksum = warpgen_sim::fold_checksum(*checksum, sim.get_word(*p, w));
            }
        }
        sim.tick().expect("tick");
    }
}

fn main() -> Result<(), String> {
    let (sections, seed) = args()?;
    let want = |s: &str| sections.is_empty() || sections.iter().any(|x| x == s);
    if want("harness") {
        harness()?;
    }
    if want("task_combiner") {
        task_combiner_utilization(seed)?;
    }
    if want("global_spreader") {
        global_spreader_dispatch(seed)?;
    }
    if want("thread_merge") {
        thread_merge_utilization(seed)?;
    }
    Ok(())
}

const SECTIONS: [&str; 4] = ["harness", "task_combiner", "global_spreader", "thread_merge"];

/// Sections to run and the workload seed, from the command line.
fn args() -> Result<(Vec<String>, u64), String> {
    let mut sections = Vec::new();
    let mut seed = 1;
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--seed" => {
                let v = it.next().ok_or("--seed needs a value")?;
                seed = v.parse().map_err(|_| format!("--seed: `{v}` is not a non-negative integer"))?;
            }
            "-h" | "--help" => {
                println!("usage: warpgen-bench [SECTION...] [--seed N]\nsections: {} (default: all)", SECTIONS.join(", "));
                std::process::exit(0);
            }
            s if SECTIONS.contains(&s) => sections.push(a),
            other => return Err(format!("unknown argument `{other}` (sections: {}; option: --seed N)", SECTIONS.join(", "))),
        }
    }
    Ok((sections, seed))
}

/// Lane utilization of the task combiner on the synthetic tile workload, next to the
/// naive single-open-task baseline. The 18-point table runs on the model (18 Verilator
/// builds would take most of an hour on 2 cores); the default point (16 entries x 32
/// lanes) also runs through the RTL and must give the same tasks and lanes.
fn task_combiner_utilization(seed: u64) -> Result<(), String> {
    use warpgen_testbench::task_combiner::rtl::RtlTaskCombiner;
    use warpgen_testbench::task_combiner::workload::{naive_baseline, run_workload, tile_workload, WorkloadSpec};
    use warpgen_testbench::task_combiner::{ModelDut, TaskCombinerParams};
    const ENTRIES: [usize; 6] = [1, 2, 4, 8, 16, 32];
    const WIDTHS: [usize; 3] = [8, 16, 32];
    let cell = |u: f64, tasks: u64| format!("{u:.3} ({tasks} tasks)");
    let mut rows: Vec<(String, Vec<String>)> =
        std::iter::once("naive (1 open task)".to_string()).chain(ENTRIES.iter().map(|e| format!("{e} entries"))).map(|n| (n, Vec::new())).collect();
    let mut instances = 0;
    for w in WIDTHS {
        let base = TaskCombinerParams::with_shape(1, w);
        let wl = tile_workload(&WorkloadSpec::for_params(&base, seed));
        instances = wl.instances;
        let n = naive_baseline(&wl, w, &base.capacity);
        rows[0].1.push(cell(n.utilization(), n.tasks));
        for (row, e) in ENTRIES.iter().enumerate() {
            let p = TaskCombinerParams::with_shape(*e, w);
            let r = run_workload(&mut ModelDut::new(&p), &wl)?;
            if (*e, w) == (16, 32) {
                let rtl = run_workload(&mut RtlTaskCombiner::new(&p, false)?, &wl)?;
                if (rtl.tasks, rtl.lanes) != (r.tasks, r.lanes) {
                    return Err(format!("RTL and model disagree at 16 x 32: {rtl:?} vs {r:?}"));
                }
            }
            rows[row + 1].1.push(cell(r.utilization(), r.tasks));
        }
    }
    println!("task_combiner: lane utilization = instances / (tasks x width), (tasks)");
    println!("  synthetic tile workload, seed {seed}: {instances} instances (task_combiner::workload);");
    println!("  model, with the 16 x 32 point checked equal on the RTL");
    println!("| table | width 8 | width 16 | width 32 |\n|---|---|---|---|");
    for (name, cells) in rows {
        println!("| {name} | {} |", cells.join(" | "));
    }
    task_combiner_hold_producers(seed)
}

/// `hold_producers` (contract R5h) on the same workload at the default shape (16 entries x 32
/// lanes), with its 3-10 domain-shader instances per patch and with a high tessellation
/// factor (16-32): lanes per hull-shader and domain-shader task, all tasks, cycles. On the
/// model; the held points with 2 also run through the RTL and must give the same tasks.
fn task_combiner_hold_producers(seed: u64) -> Result<(), String> {
    use warpgen_testbench::task_combiner::rtl::RtlTaskCombiner;
    use warpgen_testbench::task_combiner::workload::{run_workload, tile_workload, WorkloadSpec};
    use warpgen_testbench::task_combiner::{ModelDut, TaskCombinerParams};
    const HOLDS: [usize; 5] = [0, 1, 2, 4, 8];
    let base = TaskCombinerParams::with_shape(16, 32);
    println!();
    println!("task_combiner: hold_producers, 16 entries x 32 lanes (HS: hull, DS: domain shader tasks)");
    println!("| DS per patch | hold_producers | HS lanes per task (tasks) | DS lanes per task (tasks) | all: utilization (tasks) | cycles |");
    println!("|---|---|---|---|---|---|");
    for ds in [(3, 10), (16, 32)] {
        let wl = tile_workload(&WorkloadSpec { ds_per_patch: ds, ..WorkloadSpec::for_params(&base, seed) });
        for hold in HOLDS {
            let p = TaskCombinerParams { hold_producers: hold, ..base.clone() };
            let r = run_workload(&mut ModelDut::new(&p), &wl)?;
            if hold == 2 {
                let rtl = run_workload(&mut RtlTaskCombiner::new(&p, false)?, &wl)?;
                if (rtl.tasks, rtl.lanes, rtl.by_type) != (r.tasks, r.lanes, r.by_type) {
                    return Err(format!("RTL and model disagree at hold_producers {hold}: {rtl:?} vs {r:?}"));
                }
            }
            println!("| {}-{} | {hold} | {} |", ds.0, ds.1, r.hold_cells());
        }
    }
    task_combiner_dep_tags(seed)
}

/// `dep_tags` (contract D3t) on the same workload at the default shape, as written and with a
/// geometry shader after the domain shader of tessellated draws (`tess_gs`, where the default
/// `depends` row of GS, [VS, DS], adds the draw's VS tasks that the GS instances do not
/// consume): dependencies from the type matrix alone (0) against the producers named by tag
/// (1, 2, 4), with and without `hold_producers` 2. On the model; the points with 2 tags also
/// run through the RTL.
fn task_combiner_dep_tags(seed: u64) -> Result<(), String> {
    use warpgen_testbench::task_combiner::rtl::RtlTaskCombiner;
    use warpgen_testbench::task_combiner::workload::{run_workload, tile_workload, WorkloadSpec};
    use warpgen_testbench::task_combiner::{ModelDut, TaskCombinerParams};
    let base = TaskCombinerParams::with_shape(16, 32);
    println!();
    println!("task_combiner: dep_tags, 16 entries x 32 lanes (0: dependencies from the type matrix; K: the producers named by tag)");
    println!("| tessellated draws | hold_producers | dep_tags | VS lanes per task (tasks) | GS lanes per task (tasks) | all: utilization (tasks) | cycles |");
    println!("|---|---|---|---|---|---|---|");
    // (workload name, GS after DS in tessellated draws, state bits: 2 = the 12 draws share 4
    // state ids, so a geometry draw's GS task also depends on another draw's DS task)
    for (shape, tess_gs, sw) in [("VS-HS-DS", false, 8), ("VS-HS-DS-GS", true, 8), ("VS-HS-DS, 4 states", false, 2)] {
        let base = TaskCombinerParams { state_width: sw, ..base.clone() };
        let wl = tile_workload(&WorkloadSpec { tess_gs, ..WorkloadSpec::for_params(&base, seed) });
        for hold in [0, 2] {
            for tags in [0, 1, 2, 4] {
                let p = TaskCombinerParams { hold_producers: hold, dep_tags: tags, ..base.clone() };
                let r = run_workload(&mut ModelDut::new(&p), &wl)?;
                if tags == 2 {
                    let rtl = run_workload(&mut RtlTaskCombiner::new(&p, false)?, &wl)?;
                    if (rtl.tasks, rtl.lanes, rtl.by_type) != (r.tasks, r.lanes, r.by_type) {
                        return Err(format!("RTL and model disagree at dep_tags {tags}: {rtl:?} vs {r:?}"));
                    }
                }
                println!("| {shape} | {hold} | {tags} | {} |", r.dep_cells());
            }
        }
    }
    Ok(())
}

/// Dispatch throughput, latency and EU load balance of the global spreader on the documented
/// random workload (`global_spreader::workload`) at 3, 5 and 16 EUs, locality on and off,
/// `select` first_fit, least_loaded and round_robin. The eighteen points run on the model; the 5-EU points
/// with locality on (one per policy) also run through the RTL and must measure the same (the lockstep tests hold the two equal every cycle).
fn global_spreader_dispatch(seed: u64) -> Result<(), String> {
    use warpgen_testbench::global_spreader::rtl::RtlGlobalSpreader;
    use warpgen_testbench::global_spreader::workload::{format_table, run_workload, Workload};
    use warpgen_testbench::global_spreader::ModelDut;
    let mut results = Vec::new();
    for w in Workload::table() {
        let w = Workload { seed, ..w };
        let r = run_workload(&mut ModelDut::new(&w.params()), &w);
        if (w.eus, w.locality) == (5, true) {
            let rtl = run_workload(&mut RtlGlobalSpreader::new(&w.params(), false)?, &w);
            if rtl != r {
                return Err(format!("RTL and model disagree at 5 EUs, locality on, {}: {rtl:?} vs {r:?}", w.select.name()));
            }
        }
        results.push(r);
    }
    let w = Workload::standard(5, true);
    println!("global_spreader: dispatch on the random workload (global_spreader::workload), seed {seed},");
    println!("  {} cycles per point; latency in cycles from the packet's first offer to the EU's ack", w.cycles);
    println!("  model, with the 5-EU locality-on points (each select) checked equal on the RTL");
    print!("{}", format_table(&results));
    global_spreader_vdt_ways(seed)
}

/// Stalls of the vertex table with and without ways (`vdt_ways`, contract R15) on the same
/// workload: the model, with the 32-entry 2-way point checked equal on the RTL.
fn global_spreader_vdt_ways(seed: u64) -> Result<(), String> {
    use warpgen_testbench::global_spreader::rtl::RtlGlobalSpreader;
    use warpgen_testbench::global_spreader::workload::{format_vdt_table, run_workload, vdt_ways_table, Workload};
    use warpgen_testbench::global_spreader::ModelDut;
    let mut results = Vec::new();
    for w in vdt_ways_table() {
        let w = Workload { seed, ..w };
        let r = run_workload(&mut ModelDut::new(&w.params()), &w);
        if (w.vdt_depth, w.vdt_ways) == (32, 2) {
            let rtl = run_workload(&mut RtlGlobalSpreader::new(&w.params(), false)?, &w);
            if rtl != r {
                return Err(format!("RTL and model disagree with a 32-entry 2-way VDT: {rtl:?} vs {r:?}"));
            }
        }
        results.push((w, r));
    }
    println!();
    println!("global_spreader: the vertex table's ways (vdt_ways) on the same workload, 5 EUs, locality on,");
    println!("  seed {seed}; model, the 32-entry 2-way point checked equal on the RTL");
    print!("{}", format_vdt_table(&results));
    Ok(())
}

/// Lane utilization after the merge point. The benchmark's block has 32 slots, whose
/// Verilated C++ takes g++ many minutes per configuration, so the table runs on the
/// model, which the lockstep tests hold equal to the RTL every cycle.
fn thread_merge_utilization(seed: u64) -> Result<(), String> {
    use warpgen_testbench::thread_merge::workload::{format_table, utilization_table};
    use warpgen_testbench::thread_merge::{ModelDut, Dut, ThreadMergeParams};
    let mut make = |p: &ThreadMergeParams| -> Box<dyn Dut<ThreadMerge>> { Box::new(ModelDut::new(p)) };
    let rows = utilization_table(&mut make, &[4, 8, 16, 32], seed)?;
    println!("thread_merge: share of lanes doing useful work after the merge point; reference model");
    println!("  synthetic edge-coverage workloads, seed {seed} (thread_merge::workload)");
    print!("{}", format_table(&rows));
    Ok(())
}

/// The harness benchmark (a, a0, b, c) and the lockstep rate of every block.
fn harness() -> Result<(), String> {
    let config = warpgen_rtl::Config::embedded(&[]).map_err(|e| e.to_string())?;
    let p = warpgen_testbench::scoreboard::ScoreboardParams::from(config.scoreboard()?);

    // (c) Verilog generation, best of 5.
    let mut gen = f64::INFINITY;
    for _ in 0..5 {
        let t = Instant::now();
        let e = warpgen_rtl::generate(&config, "scoreboard")?;
        gen = gen.min(t.elapsed().as_secs_f64());
        std::hint::black_box(e.verilog.len());
    }

    let emitted = warpgen_rtl::generate(&config, "scoreboard")?;
    let model = warpgen_testbench::build_block(&emitted, false).map_err(|e| e.to_string())?;
    let stim_ports: Vec<PortId> = {
        let sim = model.instantiate().map_err(|e| e.to_string())?;
        model.stimulus_ports().map(|q| sim.port(&q.name).expect("port")).collect()
    };

    // (a) The reactive testbench, timed; then the same run again, recording its inputs.
    let mut sim = model.instantiate().map_err(|e| e.to_string())?;
    let mut tb = Reactive::new(&p, &sim);
    let mut checksum = 0;
    let t = Instant::now();
    for now in 0..CYCLES {
        tb.cycle(&mut sim, now, &mut checksum);
    }
    let harness = CYCLES as f64 / t.elapsed().as_secs_f64();
    std::hint::black_box(checksum);

    let mut sim = model.instantiate().map_err(|e| e.to_string())?;
    let mut tb = Reactive::new(&p, &sim);
    let mut recorded = Vec::with_capacity(CYCLES as usize);
    let mut scratch = 0;
    for now in 0..CYCLES {
        tb.cycle(&mut sim, now, &mut scratch);
        // The clock edge leaves the inputs as the cycle drove them.
        recorded.push(stim_ports.iter().flat_map(|q| sim.get_wide(*q)).collect::<Vec<u64>>());
    }

    // (a0) harness replay and (b) the C++ loop, on the recorded inputs.
    let replay = model.instantiate().map_err(|e| e.to_string())?.replay(&recorded, 1).map_err(|e| e.to_string())?;
    let baseline = model.replay_bench_report(&recorded, 1).map_err(|e| e.to_string())?;
    if replay.checksum != baseline.checksum {
        return Err(format!("harness and C++ loop disagree: checksums {:x} and {:x}", replay.checksum, baseline.checksum));
    }

    // Lockstep: typed adapter + model + comparison, with the lockstep tests' stimulus.
    let lock = lockstep_rate::<Scoreboard>(&p)?;
    let bs = BranchStackParams::spec_default();
    let lock_bs = lockstep_rate::<BranchStack>(&bs)?;
    let lock_tc = lockstep_rate::<TaskCombiner>(&TaskCombinerParams::defaults())?;
    let lock_tm = lockstep_rate::<ThreadMerge>(&ThreadMergeParams::contract_default())?;

    let b = baseline.cycles_per_second();
    println!("warpgen bench: scoreboard, default config ({} thread groups x {} trackers, {}-bit counters, {} completion ports), {CYCLES} cycles",
        p.num_tg, p.num_trk, p.cnt_w, p.num_cpl);
    println!("  (a)  harness, reactive testbench         {:>12.0} cycles/s", harness);
    println!("  (a0) harness, replaying (a)'s inputs     {:>12.0} cycles/s", replay.cycles_per_second());
    println!("  (b)  plain C++ loop, same inputs         {:>12.0} cycles/s", b);
    println!("  a/b  harness efficiency                  {:>12.2}", harness / b);
    println!("  a0/b harness efficiency, no testbench    {:>12.2}", replay.cycles_per_second() / b);
    println!("  (c)  Verilog generation, default config  {:>12.1} ms", gen * 1e3);
    println!("lockstep (RTL in Verilator + model + comparison every cycle), default configs:");
    println!("  scoreboard                               {:>12.0} cycles/s", lock);
    println!("  branch_stack                             {:>12.0} cycles/s", lock_bs);
    println!("  task_combiner                            {:>12.0} cycles/s", lock_tc);
    println!("  thread_merge                             {:>12.0} cycles/s", lock_tm);
    Ok(())
}

/// Lockstep cycles per second of block `B` (the Verilator build is done, and
/// cached, before the clock starts).
fn lockstep_rate<B: kit::Block>(p: &B::Params) -> Result<f64, String> {
    B::rtl(p, false)?;
    let t = Instant::now();
    kit::lockstep::<B>(p, SEED, CYCLES / 2, false)?;
    Ok((CYCLES / 2) as f64 / t.elapsed().as_secs_f64())
}
