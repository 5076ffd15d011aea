//! `warpgen sweep`: a block over a grid of parameter values, through generation, lint,
//! the FPGA flow and optionally a short lockstep run, into a CSV and SVG plots.
//!
//! * The grid is the cartesian product of every `--vary KEY=V1,V2,…` (the first key varies
//!   slowest). Every point is loaded as a config (the base config, `--set`, then the point's
//!   values, so a point is checked exactly like a config) and generated before anything runs:
//!   a bad point is an input error and nothing is measured.
//! * `--shard K/N` keeps the points whose index i (0-based, in grid order) has
//!   i mod N = K-1, so N jobs of a CI matrix or a cluster array split a sweep with no
//!   scheduler.
//! * Each point is a row of `DIR/results.csv`, appended (one `write` of a whole line) as soon
//!   as the point finishes. A row carries a hash of what the point measures: the generated
//!   Verilog, the target, the clock and the placement seeds (`fmax_mhz` is the median over
//!   the seeds, `fmax_min_mhz` / `fmax_max_mhz` the spread). A re-run skips the points whose hash already has a
//!   row with status `ok` or `does-not-fit`; an `error` row is retried.
//! * After the run, `DIR/<key>.svg` plots LUT4 and Fmax against each varied key (one line
//!   per combination of the other keys) from every row of the CSV that belongs to the grid,
//!   whichever run or shard wrote it.
//!
//! Everything here works for any block `warpgen_rtl::generate` knows, except `--sim`, which
//! needs the block's lockstep binding: the caller hands it in ([`SimRate`]).

pub use crate::results::{csv_line, header, parse_csv, parse_csv_lines, Axis, Row, CSV_NAME};
use crate::synth::{self, FlowError};
use std::collections::{BTreeMap, HashSet};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use warpgen_rtl::{Config, Origin};
use crate::fpga::{Placement, Target};

/// Lockstep cycles per second of a block (the name) at a config: `--sim`'s measurement,
/// which needs the block's model and so comes from the caller.
pub type SimRate = fn(&str, &Config) -> Result<f64, String>;
/// Parses `--vary KEY=V1,V2,…`. A key without a table (`thread_groups`) is the block's.
/// Commas inside `[…]` do not split, so a TOML list is one value.
pub fn parse_vary(block: &str, spec: &str) -> Result<Axis, String> {
    let usage = "--vary is KEY=V1,V2,..., e.g. --vary thread_groups=1,2,4,8";
    let (key, list) = spec.split_once('=').ok_or_else(|| format!("`{spec}`: no `=`: {usage}"))?;
    let key = key.trim();
    if key.is_empty() || key.contains(char::is_whitespace) {
        return Err(format!("`{spec}`: no key before `=`: {usage}"));
    }
    let key = if key.contains('.') { key.to_string() } else { format!("{block}.{key}") };
    let table = key.split('.').next().unwrap_or("");
    if table != block && table != "synth" {
        return Err(format!("`{spec}`: `{key}` is not a key of [{block}] or [synth]"));
    }
    let mut values = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for c in list.chars() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            _ => {}
        }
        if c == ',' && depth == 0 {
            values.push(std::mem::take(&mut current));
        } else {
            current.push(c);
        }
    }
    values.push(current);
    let values: Vec<String> = values.into_iter().map(|v| v.trim().to_string()).collect();
    if values.iter().any(String::is_empty) {
        return Err(format!("`{spec}`: an empty value: {usage}"));
    }
    let distinct: HashSet<&String> = values.iter().collect();
    if distinct.len() != values.len() {
        return Err(format!("`{spec}`: a value is listed twice"));
    }
    Ok(Axis { key, values })
}

/// Parses `--shard K/N` (1 <= K <= N).
pub fn parse_shard(spec: &str) -> Result<(usize, usize), String> {
    let bad = || format!("--shard `{spec}`: expected K/N with 1 <= K <= N, e.g. --shard 2/4");
    let (k, n) = spec.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The grid points: one value per axis, the first axis varying slowest.
pub fn grid(axes: &[Axis]) -> Vec<Vec<String>> {
    let mut points = vec![Vec::new()];
    for axis in axes {
        points = points
            .into_iter()
            .flat_map(|p| axis.values.iter().map(move |v| {
                let mut q = p.clone();
                q.push(v.clone());
                q
            }))
            .collect();
    }
    points
}

/// Whether grid point `index` belongs to shard `(k, n)`.
pub fn in_shard(index: usize, (k, n): (usize, usize)) -> bool {
    index % n == k - 1
}

/// What a sweep does.
pub struct SweepSpec {
    pub block: String,
    /// The base config: where it came from and its text.
    pub origin: Origin,
    pub text: String,
    /// `--set` overrides, applied before each point's values.
    pub sets: Vec<String>,
    pub axes: Vec<Axis>,
    /// `--target`, over the config's `[synth] target`.
    pub target: Option<String>,
    /// Points run at once.
    pub jobs: usize,
    /// `(K, N)`: run every N-th point starting at the K-th.
    pub shard: (usize, usize),
    /// Also measure lockstep cycles per second, with this.
    pub sim: Option<SimRate>,
    pub out: PathBuf,
    /// nextpnr placement seeds of every point.
    pub seeds: Vec<u64>,
    /// Draw a progress bar on the terminal (stderr).
    pub progress: bool,
}

/// What a sweep did.
#[derive(Debug, Default)]
pub struct Summary {
    /// Points in the grid.
    pub points: usize,
    /// Points of this shard.
    pub in_shard: usize,
    /// Points of this shard already in the CSV.
    pub skipped: usize,
    /// Points measured now, and those of them that fit or did not fit.
    pub ran: usize,
    pub fit: usize,
    pub too_big: usize,
    /// Points that failed, with the reason.
    pub failed: Vec<String>,
    /// Records of the results file that are not rows of this sweep, with their line.
    pub corrupt: Vec<String>,
    pub csv: PathBuf,
    pub plots: Vec<PathBuf>,
}

/// FNV-1a, 64 bits: a stable hash for point identities.
fn fnv64(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0u8]) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// A point ready to run.
struct Point {
    index: usize,
    values: Vec<String>,
    config: Config,
    target: Target,
    clock_mhz: f64,
    hash: String,
}

/// Builds and checks every grid point (config, generation) before anything runs.
fn plan(spec: &SweepSpec) -> Result<Vec<Point>, FlowError> {
    if spec.axes.is_empty() {
        return Err(FlowError::Input("give at least one --vary KEY=V1,V2,...".into()));
    }
    let mut keys = HashSet::new();
    for a in &spec.axes {
        if !keys.insert(&a.key) {
            return Err(FlowError::Input(format!("--vary {} is given twice", a.key)));
        }
    }
    let mut points = Vec::new();
    for (index, values) in grid(&spec.axes).into_iter().enumerate() {
        let label: Vec<String> = spec.axes.iter().zip(&values).map(|(a, v)| format!("{}={v}", a.key)).collect();
        let mut overrides = spec.sets.clone();
        overrides.extend(label.iter().cloned());
        let config = Config::load(spec.origin.clone(), &spec.text, &overrides)
            .map_err(|e| FlowError::Input(format!("point {}: {e}", label.join(" "))))?;
        let (target, clock_mhz) = synth::resolve_target(&config, spec.target.as_deref())?;
        let e = warpgen_rtl::generate(&config, &spec.block)
            .map_err(|e| FlowError::Input(format!("point {}: {e}", label.join(" "))))?;
        let seeds: Vec<String> = spec.seeds.iter().map(u64::to_string).collect();
        let hash = fnv64(&[&e.verilog, target.name(), &crate::fpga::mhz_text(clock_mhz), &seeds.join(",")]);
        points.push(Point { index, values, config, target, clock_mhz, hash });
    }
    Ok(points)
}

/// Reads the rows of an existing results file; its header must be this sweep's. A record
/// that is not a row of it (cut short by a crash or a full disk, or edited) is listed in
/// `corrupt` with its line, and its point counts as not measured.
fn read_rows(path: &Path, axes: &[Axis], corrupt: &mut Vec<String>) -> Result<Vec<Row>, FlowError> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(FlowError::Failure(format!("{}: {e}", path.display()))),
    };
    let mut records = parse_csv_lines(&text).into_iter();
    let want = header(axes);
    match records.next() {
        None => Ok(Vec::new()),
        Some((_, h)) if h == want => {
            let mut rows = Vec::new();
            for (line, r) in records {
                match Row::from_fields(&r, axes.len()) {
                    _ if r == want => corrupt.push(format!("{}:{line}: the header again (ignored)", path.display())),
                    Some(row) => rows.push(row),
                    None => corrupt.push(format!(
                        "{}:{line}: not a row of this sweep ({} fields, a row has {}); ignored, its point runs again",
                        path.display(),
                        r.len(),
                        want.len()
                    )),
                }
            }
            Ok(rows)
        }
        Some((_, h)) => Err(FlowError::Input(format!(
            "{} holds a sweep with other columns ({}); this sweep writes ({}): use another --out or vary the same keys",
            path.display(),
            h.join(","),
            want.join(",")
        ))),
    }
}

/// Appends `text` to the results file under an exclusive lock (flock), so that shards
/// writing one file at once never interleave and only the first writes the header: with
/// `header`, it is written when the file is empty; a file whose last line was cut short (a
/// crash, a full disk) first gets the line end it lacks, so the new row starts a line.
fn append_locked(file: &std::fs::File, header: Option<&str>, text: &str) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a file descriptor this function borrows; released below or on close.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let result = (|| {
        let mut f = file;
        let len = f.metadata()?.len();
        let mut out = String::new();
        if len == 0 {
            out.push_str(header.unwrap_or(""));
        } else {
            let mut last = [0u8; 1];
            f.seek(SeekFrom::Start(len - 1))?;
            f.read_exact(&mut last)?;
            if last[0] != b'\n' {
                out.push('\n');
            }
        }
        out.push_str(text);
        f.write_all(out.as_bytes())
    })();
    // SAFETY: as above.
    unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_UN) };
    result
}

/// Measures one point: generate, lint, synthesize (and simulate).
fn measure(spec: &SweepSpec, p: &Point) -> Row {
    let t = Instant::now();
    let mut row = Row {
        block: spec.block.clone(),
        values: p.values.clone(),
        clock_mhz: p.clock_mhz,
        target: p.target.name().to_string(),
        hash: p.hash.clone(),
        ..Row::default()
    };
    let result = (|| -> Result<(), String> {
        let e = warpgen_rtl::generate(&p.config, &spec.block)?;
        warpgen_sim::lint_source(&e.file_name, &e.verilog, warpgen_rtl::LINT_WAIVERS).map_err(|m| format!("lint: {m}"))?;
        let r = synth::synth_block(&p.config, &spec.block, p.target, p.clock_mhz, &spec.seeds, None).map_err(|e| e.to_string())?;
        row.lut4 = Some(r.block.lut4);
        row.ff = Some(r.block.ff);
        row.carry = Some(r.block.carry);
        row.bram = Some(r.block.bram);
        match &r.placement {
            Placement::Fits { fmax_mhz, fmax_min_mhz, fmax_max_mhz, logic_cells, critical_path, .. } => {
                row.status = "ok".into();
                row.fmax_mhz = Some(*fmax_mhz);
                row.fmax_min_mhz = Some(*fmax_min_mhz);
                row.fmax_max_mhz = Some(*fmax_max_mhz);
                row.logic_cells = Some(*logic_cells);
                if let Some(c) = critical_path {
                    row.critical_path = format!("{} -> {}", c.from, c.to);
                    row.critical_ns = Some(c.delay_ns);
                }
            }
            Placement::DoesNotFit { logic_cells, reason } => {
                row.status = "does-not-fit".into();
                row.logic_cells = *logic_cells;
                row.note = format!("does not fit {}: {reason}", p.target);
            }
        }
        if let Some(sim_rate) = spec.sim {
            row.sim_cycles_per_s = Some(sim_rate(&spec.block, &p.config).map_err(|m| format!("sim: {m}"))?);
        }
        Ok(())
    })();
    if let Err(m) = result {
        row.status = "error".into();
        row.note = note_of(&m);
    }
    row.seconds = t.elapsed().as_secs_f64();
    row
}

/// A failed point's note: the message's first line and, when it goes on with a tool's
/// messages (Verilator's `%Warning-…` / `%Error…` lines, Yosys's `ERROR:`), the first three
/// of them, so the note says what the lint or the tool found; at most 600 characters.
fn note_of(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let mut parts: Vec<&str> = lines.next().into_iter().collect();
    parts.extend(lines.filter(|l| l.starts_with('%') || l.starts_with("ERROR")).take(3));
    let note = parts.join(" | ");
    if note.chars().count() > 600 {
        note.chars().take(599).collect::<String>() + "…"
    } else {
        note
    }
}

/// Runs the sweep (see the module documentation).
pub fn sweep(spec: &SweepSpec) -> Result<Summary, FlowError> {
    let points = plan(spec)?;
    let csv = spec.out.join(CSV_NAME);
    let mut corrupt = Vec::new();
    let done: HashSet<String> = read_rows(&csv, &spec.axes, &mut corrupt)?.into_iter().filter(Row::finished).map(|r| r.hash).collect();
    let mine: Vec<&Point> = points.iter().filter(|p| in_shard(p.index, spec.shard)).collect();
    let todo: Vec<&Point> = mine.iter().copied().filter(|p| !done.contains(&p.hash)).collect();
    let mut summary = Summary {
        points: points.len(),
        in_shard: mine.len(),
        skipped: mine.len() - todo.len(),
        csv: csv.clone(),
        corrupt,
        ..Summary::default()
    };
    if !todo.is_empty() {
        // Tools first: a missing one fails before the first point.
        crate::fpga::find_tools(todo[0].target).map_err(|e| FlowError::Failure(e.to_string()))?;
    }
    let fail = |what: &str, e: std::io::Error| FlowError::Failure(format!("{what} {}: {e}", csv.display()));
    std::fs::create_dir_all(&spec.out).map_err(|e| fail("creating the folder of", e))?;
    let file = std::fs::OpenOptions::new().create(true).read(true).append(true).open(&csv).map_err(|e| fail("opening", e))?;
    let head = csv_line(&header(&spec.axes));
    append_locked(&file, Some(&head), "").map_err(|e| fail("writing", e))?;
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(todo.len() as u64),
        if spec.progress { indicatif::ProgressDrawTarget::stderr() } else { indicatif::ProgressDrawTarget::hidden() },
    );
    bar.set_style(
        indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} points  {msg}")
            .expect("template")
            .progress_chars("=> "),
    );
    let next = AtomicUsize::new(0);
    let sink = Mutex::new((file, Vec::<Row>::new(), None::<String>));
    std::thread::scope(|s| {
        for _ in 0..spec.jobs.max(1).min(todo.len().max(1)) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(p) = todo.get(i) else { break };
                let row = measure(spec, p);
                let mut guard = sink.lock().expect("no panics while holding the lock");
                let (file, rows, io_error) = &mut *guard;
                if let Err(e) = append_locked(file, Some(&head), &csv_line(&row.fields())) {
                    io_error.get_or_insert(format!("writing {}: {e}", csv.display()));
                }
                let label: Vec<String> = spec.axes.iter().zip(&row.values).map(|(a, v)| format!("{}={v}", a.key)).collect();
                bar.set_message(format!("{} {}", label.join(" "), row.status));
                bar.inc(1);
                rows.push(row);
            });
        }
    });
    bar.finish_and_clear();
    let (_, rows, io_error) = sink.into_inner().expect("no panics while holding the lock");
    if let Some(e) = io_error {
        return Err(FlowError::Failure(e));
    }
    for row in &rows {
        summary.ran += 1;
        match row.status.as_str() {
            "ok" => summary.fit += 1,
            "does-not-fit" => summary.too_big += 1,
            _ => {
                let label: Vec<String> = spec.axes.iter().zip(&row.values).map(|(a, v)| format!("{}={v}", a.key)).collect();
                summary.failed.push(format!("{}: {}", label.join(" "), row.note));
            }
        }
    }
    // Plots of every finished row of this grid, whoever wrote it; the latest row per point.
    let wanted: HashSet<&str> = points.iter().map(|p| p.hash.as_str()).collect();
    let mut latest: BTreeMap<Vec<String>, Row> = BTreeMap::new();
    for r in read_rows(&csv, &spec.axes, &mut Vec::new())? {
        if wanted.contains(r.hash.as_str()) && r.finished() {
            latest.insert(r.values.clone(), r);
        }
    }
    let rows: Vec<Row> = latest.into_values().collect();
    let device = points.first().map_or(0, |p| p.target.logic_cells());
    for (i, axis) in spec.axes.iter().enumerate() {
        let path = spec.out.join(format!("{}.svg", axis.key));
        crate::plot::plot(&path, &spec.block, &spec.axes, i, &rows, device)
            .map_err(|e| FlowError::Failure(format!("plotting {}: {e}", path.display())))?;
        summary.plots.push(path);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vary_specs_parse_with_block_default_and_toml_lists() {
        let a = parse_vary("scoreboard", "thread_groups=1,2, 4").unwrap();
        assert_eq!(a, Axis { key: "scoreboard.thread_groups".into(), values: vec!["1".into(), "2".into(), "4".into()] });
        let a = parse_vary("scoreboard", "synth.clock_mhz=50").unwrap();
        assert_eq!(a.key, "synth.clock_mhz");
        let a = parse_vary("scoreboard", "max_count=[1,2],[3,4]").unwrap();
        assert_eq!(a.values, vec!["[1,2]", "[3,4]"]);
        for bad in ["thread_groups", "=1,2", "thread_groups=1,,2", "thread_groups=", "branch_stack.depth=2", "tg=1,1"] {
            assert!(parse_vary("scoreboard", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn shards_parse_and_partition_the_grid() {
        assert_eq!(parse_shard("2/4"), Ok((2, 4)));
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "1/-1"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
        // Every point in exactly one shard, and shard K/N takes every N-th point from K-1.
        let n = 3;
        let owners: Vec<usize> = (0..10).map(|i| (1..=n).filter(|k| in_shard(i, (*k, n))).count()).collect();
        assert!(owners.iter().all(|c| *c == 1), "{owners:?}");
        let second: Vec<usize> = (0..10).filter(|i| in_shard(*i, (2, 3))).collect();
        assert_eq!(second, vec![1, 4, 7]);
    }

    #[test]
    fn grid_is_the_cartesian_product_first_axis_slowest() {
        let axes = vec![
            Axis { key: "a.x".into(), values: vec!["1".into(), "2".into()] },
            Axis { key: "a.y".into(), values: vec!["p".into(), "q".into(), "r".into()] },
        ];
        let g = grid(&axes);
        assert_eq!(g.len(), 6);
        assert_eq!(g[0], vec!["1", "p"]);
        assert_eq!(g[1], vec!["1", "q"]);
        assert_eq!(g[3], vec!["2", "p"]);
    }

    #[test]
    fn hashes_differ_by_any_part() {
        assert_ne!(fnv64(&["ab", "c"]), fnv64(&["a", "bc"]));
        assert_eq!(fnv64(&["x"]), fnv64(&["x"]));
    }

    fn axes() -> Vec<Axis> {
        vec![Axis { key: "scoreboard.trackers".into(), values: vec!["2".into(), "4".into()] }]
    }

    fn row(v: &str) -> String {
        let row = Row { block: "scoreboard".into(), values: vec![v.into()], status: "ok".into(), target: "ice40-hx8k".into(), hash: format!("h{v}"), ..Row::default() };
        csv_line(&row.fields())
    }

    /// Shards appending to one results file at once: one header, every row whole.
    #[test]
    fn concurrent_appends_write_one_header_and_whole_rows() {
        let d = tempfile::tempdir().unwrap();
        let csv = d.path().join(CSV_NAME);
        let head = csv_line(&header(&axes()));
        std::thread::scope(|s| {
            for t in 0..8 {
                let (csv, head) = (&csv, &head);
                s.spawn(move || {
                    // Each shard opens the file itself, as a separate process would.
                    let f = std::fs::OpenOptions::new().create(true).read(true).append(true).open(csv).unwrap();
                    append_locked(&f, Some(head), "").unwrap();
                    for k in 0..25 {
                        append_locked(&f, Some(head), &row(&format!("{t}{k}"))).unwrap();
                    }
                });
            }
        });
        let mut corrupt = Vec::new();
        let rows = read_rows(&csv, &axes(), &mut corrupt).unwrap();
        assert_eq!(rows.len(), 200);
        assert!(corrupt.is_empty(), "{corrupt:?}");
        let text = std::fs::read_to_string(&csv).unwrap();
        assert_eq!(text.matches(head.as_str()).count(), 1, "the header once");
    }

    /// A row cut short (a crash, a full disk) is reported with its line and does not swallow
    /// the next row; a record that is not a row is reported, not skipped in silence.
    #[test]
    fn a_truncated_row_is_reported_and_the_next_starts_its_own_line() {
        let d = tempfile::tempdir().unwrap();
        let csv = d.path().join(CSV_NAME);
        let head = csv_line(&header(&axes()));
        let cut = row("2");
        std::fs::write(&csv, format!("{head}{}{}", row("1"), &cut[..cut.len() / 2])).unwrap();
        let f = std::fs::OpenOptions::new().read(true).append(true).open(&csv).unwrap();
        append_locked(&f, Some(&head), &row("4")).unwrap();
        let mut corrupt = Vec::new();
        let rows = read_rows(&csv, &axes(), &mut corrupt).unwrap();
        let values: Vec<&str> = rows.iter().map(|r| r.values[0].as_str()).collect();
        assert_eq!(values, ["1", "4"]);
        assert_eq!(corrupt.len(), 1, "{corrupt:?}");
        assert!(corrupt[0].contains("results.csv:3: not a row of this sweep"), "{corrupt:?}");
        std::fs::write(&csv, format!("{head}{}{head}garbage\n", row("1"))).unwrap();
        let mut corrupt = Vec::new();
        assert_eq!(read_rows(&csv, &axes(), &mut corrupt).unwrap().len(), 1);
        assert!(corrupt[0].contains(":3: the header again") && corrupt[1].contains(":4: not a row"), "{corrupt:?}");
    }

    #[test]
    fn a_lint_note_holds_the_lint_messages() {
        let m = "lint: verilator --lint-only -Wall reported problems:\n%Warning-UNUSEDSIGNAL: a.v:3:7: Signal is not used: 'x'\n                : ... note\n%Warning-UNSIGNED: a.v:9:1: Comparison is constant\n%Error: Exiting due to 2 warning(s)\n%Error: more\n";
        assert_eq!(
            note_of(m),
            "lint: verilator --lint-only -Wall reported problems: | %Warning-UNUSEDSIGNAL: a.v:3:7: Signal is not used: 'x' | %Warning-UNSIGNED: a.v:9:1: Comparison is constant | %Error: Exiting due to 2 warning(s)"
        );
        assert_eq!(note_of("one line"), "one line");
        assert_eq!(note_of(&"x".repeat(900)).chars().count(), 600);
    }
}
