//! The build cache: where it is, how entries are named, and how they are published
//! atomically.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use sha2::{Digest, Sha256};

use crate::SimError;

/// Environment variable that overrides the cache root.
pub const CACHE_ENV: &str = "WARPGEN_SIM_CACHE";

/// The cache root used when none is given: `$WARPGEN_SIM_CACHE` if set, else
/// `$XDG_CACHE_HOME/warpgen/sim`, else `$HOME/.cache/warpgen/sim`.
pub fn default_cache_root() -> Result<PathBuf, SimError> {
    let from_env = |var: &str| {
        std::env::var_os(var)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(root) = from_env(CACHE_ENV) {
        return Ok(root);
    }
    if let Some(xdg) = from_env("XDG_CACHE_HOME") {
        return Ok(xdg.join("warpgen").join("sim"));
    }
    if let Some(home) = from_env("HOME") {
        return Ok(home.join(".cache").join("warpgen").join("sim"));
    }
    Err(SimError::InvalidSpec(format!(
        "no cache directory: set {CACHE_ENV} (or XDG_CACHE_HOME or HOME)"
    )))
}

/// SHA-256 over a sequence of length-prefixed fields, so that no two different sequences
/// hash alike.
pub(crate) struct KeyHasher(Sha256);

impl KeyHasher {
    /// Starts a key for entries of kind `tag`.
    pub fn new(tag: &str) -> Self {
        let mut h = KeyHasher(Sha256::new());
        h.field(tag);
        h
    }

    /// Adds one field.
    pub fn field(&mut self, bytes: impl AsRef<[u8]>) -> &mut Self {
        let bytes = bytes.as_ref();
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
        self
    }

    /// The entry's directory name: `prefix` and the first 128 bits of the hash in hex.
    pub fn finish(self, prefix: &str) -> String {
        let digest = self.0.finalize();
        let hex: String = digest[..16].iter().map(|b| format!("{b:02x}")).collect();
        format!("{prefix}-{hex}")
    }
}

/// The file of a cache entry that lists every other file of it with its size and SHA-256,
/// written last when the entry is built: `<sha256> <size> <path>` per line.
pub(crate) const MANIFEST: &str = "warpgen-entry.txt";

/// The manifest text of the entry in `dir`: every regular file below it, sorted by path.
fn manifest_of(dir: &Path) -> std::io::Result<String> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<(String, u64, String)>) -> std::io::Result<()> {
        for entry in fs::read_dir(dir)? {
            let entry = entry?;
            let kind = entry.file_type()?;
            let path = entry.path();
            if kind.is_dir() {
                walk(base, &path, out)?;
            } else if kind.is_file() {
                let rel = path.strip_prefix(base).expect("below the entry").to_string_lossy().into_owned();
                if rel != MANIFEST {
                    let bytes = fs::read(&path)?;
                    let hex: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
                    out.push((rel, bytes.len() as u64, hex));
                }
            }
        }
        Ok(())
    }
    let mut files = Vec::new();
    walk(dir, dir, &mut files)?;
    files.sort();
    Ok(files.iter().map(|(rel, size, hex)| format!("{hex} {size} {rel}\n")).collect())
}

/// Whether the entry in `dir` is whole: its manifest exists and every file it lists has the
/// recorded size and hash (a file cut short by a full disk, or damaged, is caught before the
/// shared library is mapped: a truncated one ends the process with SIGBUS).
fn entry_is_whole(dir: &Path) -> bool {
    let Ok(recorded) = fs::read_to_string(dir.join(MANIFEST)) else {
        return false;
    };
    manifest_of(dir).is_ok_and(|now| now == recorded)
}

/// Makes the cache entry `root/name` exist: unless it does already, runs `fill` on a fresh
/// temporary directory inside `root`, records its files' sizes and hashes ([`MANIFEST`]) and
/// renames that directory to `root/name`. An entry that fails its manifest check is moved
/// aside, removed and built again. When another process publishes the same entry first, its
/// entry is kept and ours discarded. Returns the entry's path and whether it existed already.
pub(crate) fn publish<F>(root: &Path, name: &str, fill: F) -> Result<(PathBuf, bool), SimError>
where
    F: FnOnce(&Path) -> Result<(), SimError>,
{
    // Entries this process has checked or built already: hashed once per process.
    static WHOLE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    let dest = root.join(name);
    let known = |d: &PathBuf| WHOLE.lock().unwrap_or_else(|e| e.into_inner()).contains(d);
    let note = |d: &PathBuf| WHOLE.lock().unwrap_or_else(|e| e.into_inner()).push(d.clone());
    if dest.is_dir() {
        if known(&dest) {
            return Ok((dest, true));
        }
        if entry_is_whole(&dest) {
            note(&dest);
            return Ok((dest, true));
        }
        // Out of the way in one rename (a concurrent reader never sees it half removed),
        // then removed; if another process moved it first, there is nothing to do.
        if let Ok(bad) = crate::temp::dir_in(root, "bad") {
            let aside = bad.path().join(name);
            let _ = fs::rename(&dest, &aside);
        }
    }
    fs::create_dir_all(root)
        .map_err(|e| SimError::io(format!("creating cache directory {}", root.display()), e))?;
    // One build of an entry at a time, across threads and processes: a second asker waits,
    // then finds the entry built (tests that share a model no longer each build it).
    let _lock = lock_entry(root, name)?;
    if dest.is_dir() && entry_is_whole(&dest) {
        note(&dest);
        return Ok((dest, true));
    }
    let tmp = crate::temp::dir_in(root, "build").map_err(|e| {
        SimError::io(
            format!("creating a build directory in {}", root.display()),
            e,
        )
    })?;
    fill(tmp.path())?;
    let manifest = manifest_of(tmp.path())
        .map_err(|e| SimError::io(format!("hashing the build in {}", tmp.path().display()), e))?;
    write(&tmp.path().join(MANIFEST), manifest)?;
    match fs::rename(tmp.path(), &dest) {
        Ok(()) => {
            let _ = tmp.keep();
            note(&dest);
            Ok((dest, false))
        }
        // Lost a race with another build of the same entry: use theirs (ours is deleted
        // when `tmp` drops).
        Err(_) if dest.is_dir() => Ok((dest, false)),
        Err(e) => Err(SimError::io(
            format!("renaming build directory to {}", dest.display()),
            e,
        )),
    }
}

/// Subdirectory of the cache root holding one lock file per entry name.
const LOCK_DIR: &str = "locks";

/// Takes the exclusive lock of entry `name` (the file `root/locks/<name>`), waiting for it; held
/// until the returned file is dropped. The OS releases the lock of a process that dies.
fn lock_entry(root: &Path, name: &str) -> Result<fs::File, SimError> {
    let dir = root.join(LOCK_DIR);
    fs::create_dir_all(&dir).map_err(|e| SimError::io(format!("creating {}", dir.display()), e))?;
    let path = dir.join(name);
    let file = fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| SimError::io(format!("opening lock file {}", path.display()), e))?;
    file.lock().map_err(|e| SimError::io(format!("locking {}", path.display()), e))?;
    Ok(file)
}

/// The directory for a run's scratch work (lint, Yosys checks, synthesis without `--out`):
/// `work/` in the cache root, so temporaries stay out of `/tmp` and a killed run's are found
/// and removed by the next ([`crate::temp`]).
pub fn scratch_dir() -> Result<PathBuf, SimError> {
    Ok(default_cache_root()?.join("work"))
}

/// Writes `contents` to `path`, naming the path on error.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), SimError> {
    fs::write(path, contents).map_err(|e| SimError::io(format!("writing {}", path.display()), e))
}

/// Reads `path` as text, naming the path on error.
pub fn read(path: &Path) -> Result<String, SimError> {
    fs::read_to_string(path).map_err(|e| SimError::io(format!("reading {}", path.display()), e))
}
