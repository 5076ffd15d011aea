//! The Verilator tool and the description of a build.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, OnceLock};
use std::time::UNIX_EPOCH;

use crate::cache::{self, KeyHasher};
use crate::{builder, tool, Model, SimError};

/// What to build: Verilog sources, the top module and build options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BuildSpec {
    /// `(file name, Verilog text)` pairs. File names are plain names (no directories); they
    /// appear in Verilator's messages.
    pub sources: Vec<(String, String)>,
    /// The top module: the model's ports are this module's ports.
    pub top: String,
    /// Compile VCD tracing in, so that [`Sim::open_vcd`](crate::Sim::open_vcd) works. It
    /// slows the simulation a little even when no VCD is open.
    pub trace: bool,
    /// Extra Verilator arguments (e.g. `-GWIDTH=8`), placed before the sources.
    pub extra_args: Vec<String>,
}

impl BuildSpec {
    /// A spec for top module `top` with no sources yet, no tracing, no extra arguments.
    pub fn new(top: impl Into<String>) -> Self {
        BuildSpec {
            top: top.into(),
            ..BuildSpec::default()
        }
    }

    /// Adds a source file.
    pub fn source(mut self, name: impl Into<String>, text: impl Into<String>) -> Self {
        self.sources.push((name.into(), text.into()));
        self
    }

    /// Sets [`trace`](BuildSpec::trace).
    pub fn trace(mut self, trace: bool) -> Self {
        self.trace = trace;
        self
    }

    /// Adds an extra Verilator argument.
    pub fn arg(mut self, arg: impl Into<String>) -> Self {
        self.extra_args.push(arg.into());
        self
    }

    fn validate(&self) -> Result<(), SimError> {
        let bad = |msg: String| Err(SimError::InvalidSpec(msg));
        let is_ident = |s: &str| {
            s.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        if !is_ident(&self.top) {
            return bad(format!(
                "top module name {:?} is not a plain identifier",
                self.top
            ));
        }
        if self.sources.is_empty() {
            return bad("no source files".to_string());
        }
        for (i, (name, _)) in self.sources.iter().enumerate() {
            let plain = !name.is_empty()
                && name != "."
                && name != ".."
                && !name.contains(['/', '\\', '\0'])
                && !name.starts_with('-');
            if !plain {
                return bad(format!(
                    "source file name {name:?} must be a plain file name"
                ));
            }
            if self.sources[..i].iter().any(|(other, _)| other == name) {
                return bad(format!("source file name {name:?} appears twice"));
            }
        }
        Ok(())
    }
}

/// The Verilator installation used to build models, and the cache they are built into.
#[derive(Debug, Clone)]
pub struct Verilator {
    path: PathBuf,
    cache_root: Option<PathBuf>,
    version: Arc<OnceLock<String>>,
}

impl Verilator {
    /// Finds Verilator: the program named by the environment variable `VERILATOR` if set,
    /// else `verilator` on `PATH`.
    pub fn find() -> Result<Verilator, SimError> {
        Ok(Verilator::at(tool::find("verilator", "VERILATOR")?))
    }

    /// Uses the Verilator executable at `path` (not checked until used).
    pub fn at(path: impl Into<PathBuf>) -> Verilator {
        Verilator {
            path: path.into(),
            cache_root: None,
            version: Arc::default(),
        }
    }

    /// Builds into `root` instead of [`default_cache_root`](crate::default_cache_root).
    pub fn with_cache_root(mut self, root: impl Into<PathBuf>) -> Verilator {
        self.cache_root = Some(root.into());
        self
    }

    /// The Verilator executable.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The cache root models are built into (made absolute).
    pub fn cache_root(&self) -> Result<PathBuf, SimError> {
        let root = match &self.cache_root {
            Some(root) => root.clone(),
            None => cache::default_cache_root()?,
        };
        std::path::absolute(&root)
            .map_err(|e| SimError::io(format!("resolving {}", root.display()), e))
    }

    /// Verilator's version line, e.g. `Verilator 5.006 2023-01-22 rev (Debian 5.006-3)`.
    ///
    /// The answer is remembered in the cache root per executable (path, size and
    /// modification time of the program and of `verilator_bin` beside it), so that loading a
    /// cached model runs no Verilator process at all.
    pub fn version(&self) -> Result<String, SimError> {
        if let Some(v) = self.version.get() {
            return Ok(v.clone());
        }
        let root = self.cache_root()?;
        let remembered = root.join("tool-versions").join(self.identity()?);
        let version = match fs::read_to_string(&remembered) {
            Ok(v) if !v.trim().is_empty() => v.trim().to_string(),
            _ => {
                let v = self.ask_version()?;
                remember(&remembered, &v)?;
                v
            }
        };
        Ok(self.version.get_or_init(|| version).clone())
    }

    fn ask_version(&self) -> Result<String, SimError> {
        let out = tool::run(
            Command::new(&self.path).arg("--version"),
            "verilator --version",
        )?;
        Ok(out.stdout.trim().to_string())
    }

    /// A name for this exact executable: changes when Verilator is upgraded.
    fn identity(&self) -> Result<String, SimError> {
        let mut h = KeyHasher::new("verilator identity");
        let bin = self.path.with_file_name("verilator_bin");
        for (i, file) in [&self.path, &bin].into_iter().enumerate() {
            let meta = match fs::metadata(file) {
                Ok(meta) => meta,
                Err(_) if i > 0 => continue, // no verilator_bin beside it
                Err(e) => return Err(SimError::io(format!("inspecting {}", file.display()), e)),
            };
            let mtime = meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .unwrap_or_default();
            h.field(file.as_os_str().as_encoded_bytes())
                .field(meta.len().to_le_bytes())
                .field(mtime.as_nanos().to_le_bytes());
        }
        Ok(h.finish("verilator"))
    }

    /// Builds `spec` into a model, or loads it from the cache when an identical build
    /// (same Verilator version, sources, top, options and harness version) exists: then no
    /// Verilator or compiler runs, and [`Model::was_cached`] is true.
    ///
    /// Builds are atomic: they happen in a temporary directory in the cache root that is
    /// renamed into place when complete, so concurrent builds of the same design in several
    /// processes are safe (the first to finish wins; the others use its result).
    pub fn build(&self, spec: &BuildSpec) -> Result<Model, SimError> {
        spec.validate()?;
        let root = self.cache_root()?;
        let version = self.version()?;
        let entry = builder::model_entry(&version, spec);
        let (dir, cached) = cache::publish(&root, &entry, |tmp| {
            builder::fill_model(&self.path, &version, spec, &root, tmp)
        })?;
        Model::load(dir, &spec.top, cached)
    }
}

/// Writes `version` to `path` atomically.
fn remember(path: &Path, version: &str) -> Result<(), SimError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| SimError::io(format!("creating {}", dir.display()), e))?;
    let mut file = crate::temp::file_in(dir, "version", ".tmp")
        .map_err(|e| SimError::io(format!("creating a file in {}", dir.display()), e))?;
    file.write_all(version.as_bytes())
        .map_err(|e| SimError::io(format!("writing {}", file.path().display()), e))?;
    file.persist(path)
        .map_err(|e| SimError::io(format!("writing {}", path.display()), e.error))?;
    Ok(())
}
