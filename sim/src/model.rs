//! A built model: the loaded library, its ports, and the replay benchmark.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use crate::ffi::Library;
use crate::library::ModelInner;
use crate::ports::{check_stimulus, PortInfo};
use crate::{builder, cache, tool, BenchReport, Sim, SimError};

/// A Verilated design loaded into this process. Cheap to clone (all clones share the
/// library); any number of independent [`Sim`] instances can be made from it.
#[derive(Clone)]
pub struct Model {
    inner: Arc<ModelInner>,
    was_cached: bool,
}

impl std::fmt::Debug for Model {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Model")
            .field("top", &self.inner.top)
            .field("dir", &self.inner.dir)
            .field("ports", &self.inner.ports)
            .field("was_cached", &self.was_cached)
            .finish()
    }
}

impl Model {
    /// Loads the model entry `dir` (built for top module `top`).
    pub(crate) fn load(dir: PathBuf, top: &str, was_cached: bool) -> Result<Model, SimError> {
        let lib = Library::open(&builder::lib_path(&dir))?;
        let ports = lib.ports();
        let index = ports
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.clone(), i))
            .collect();
        let inner = ModelInner {
            has_clock: ports.iter().any(PortInfo::is_clock),
            has_trace: lib.has_trace(),
            lib,
            ports,
            index,
            dir,
            top: top.to_string(),
        };
        Ok(Model {
            inner: Arc::new(inner),
            was_cached,
        })
    }

    /// The ports, in the order of the Verilated class (`V<top>.h`: grouped by storage
    /// size, not in declaration order).
    pub fn ports(&self) -> &[PortInfo] {
        &self.inner.ports
    }

    /// The inputs that replay stimulus carries, in order: every input except `clock`.
    pub fn stimulus_ports(&self) -> impl Iterator<Item = &PortInfo> {
        self.inner.ports.iter().filter(|p| p.is_stimulus())
    }

    /// A new, independent simulation instance (its own Verilated context and model), with
    /// all inputs 0 and `initial` blocks run.
    pub fn instantiate(&self) -> Result<Sim, SimError> {
        Sim::new(self.inner.clone())
    }

    /// The model's cache entry: `src/` (the sources), `obj/` (Verilator's C++, the objects,
    /// `libwgsim.so`), `build.log`.
    pub fn build_dir(&self) -> &Path {
        &self.inner.dir
    }

    /// Whether this model was loaded from the cache without running Verilator or a compiler.
    pub fn was_cached(&self) -> bool {
        self.was_cached
    }

    /// Whether the model was built with `trace: true`.
    pub fn has_trace(&self) -> bool {
        self.inner.has_trace
    }

    /// Runs `stimulus` `repeat` times through the plain C++ baseline and returns its speed
    /// in cycles per second (see [`replay_bench_report`](Model::replay_bench_report)).
    pub fn replay_bench(&self, stimulus: &[Vec<u64>], repeat: usize) -> Result<f64, SimError> {
        Ok(self
            .replay_bench_report(stimulus, repeat)?
            .cycles_per_second())
    }

    /// Runs `stimulus` `repeat` times through a standalone C++ program linked from this
    /// model's own objects: the baseline the harness is measured against.
    ///
    /// `stimulus[c]` holds cycle `c`'s value of every [`stimulus_ports`](Model::stimulus_ports)
    /// port, in order, as little-endian 64-bit words (`ceil(width / 64)` words per port).
    /// Per cycle the program writes the inputs into the model, evaluates, reads every output
    /// into a checksum, then sets `clock` to 1 and evaluates, to 0 and evaluates: the work
    /// [`Sim::replay`] does through the harness, without the harness. The program is built on
    /// first use and cached beside the model.
    pub fn replay_bench_report(
        &self,
        stimulus: &[Vec<u64>],
        repeat: usize,
    ) -> Result<BenchReport, SimError> {
        check_stimulus(&self.inner.ports, stimulus)?;
        let root = self.inner.dir.parent().unwrap_or(Path::new("."));
        let (bench_dir, _) =
            cache::publish(root, &builder::bench_entry(&self.inner.dir)?, |tmp| {
                builder::fill_bench(&self.inner.dir, &self.inner.top, tmp)
            })?;
        let mut file = crate::temp::file_in(&cache::scratch_dir()?, "stim", ".bin")
            .map_err(|e| SimError::io("creating the stimulus file", e))?;
        let bytes: Vec<u8> = stimulus
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        file.write_all(&bytes)
            .map_err(|e| SimError::io(format!("writing {}", file.path().display()), e))?;
        let mut cmd = Command::new(builder::bench_path(&bench_dir));
        cmd.arg(file.path())
            .arg(stimulus.len().to_string())
            .arg(repeat.to_string());
        let out = tool::run(&mut cmd, "the replay benchmark")?;
        parse_bench_output(&out.stdout).ok_or_else(|| SimError::CommandFailed {
            what: "the replay benchmark".to_string(),
            command: tool::command_line(&cmd),
            status: "unexpected output".to_string(),
            output: out.text,
        })
    }
}

fn parse_bench_output(stdout: &str) -> Option<BenchReport> {
    let field = |key: &str| {
        stdout
            .lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix(' ').map(str::trim))
    };
    Some(BenchReport {
        cycles: field("cycles")?.parse().ok()?,
        seconds: field("seconds")?.parse().ok()?,
        checksum: field("checksum")?.parse().ok()?,
    })
}
