//! The build cache: where it is, how entries are named, and how they are published
//! atomically.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use sha2::{Digest, Sha256};

use crate::SimError;

/// Name prefix of the temporary directories builds happen in.
const TEMP_PREFIX: &str = ".tmp-";

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

/// Makes the cache entry `root/name` exist: unless it does already, runs `fill` on a fresh
/// temporary directory inside `root` and renames that directory to `root/name`. When
/// another process publishes the same entry first, its entry is kept and ours discarded.
/// Returns the entry's path and whether it existed already.
pub(crate) fn publish<F>(root: &Path, name: &str, fill: F) -> Result<(PathBuf, bool), SimError>
where
    F: FnOnce(&Path) -> Result<(), SimError>,
{
    let dest = root.join(name);
    if dest.is_dir() {
        return Ok((dest, true));
    }
    fs::create_dir_all(root)
        .map_err(|e| SimError::io(format!("creating cache directory {}", root.display()), e))?;
    remove_stale_temps(root);
    let tmp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempdir_in(root)
        .map_err(|e| {
            SimError::io(
                format!("creating a build directory in {}", root.display()),
                e,
            )
        })?;
    fill(tmp.path())?;
    match fs::rename(tmp.path(), &dest) {
        Ok(()) => {
            let _ = tmp.keep();
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

/// Removes temporary build directories left by processes killed mid-build (older than a
/// day: no build takes that long). Best effort.
fn remove_stale_temps(root: &Path) {
    const STALE: Duration = Duration::from_secs(24 * 3600);
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    for entry in entries.flatten() {
        let stale = entry.file_name().to_string_lossy().starts_with(TEMP_PREFIX)
            && entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > STALE));
        if stale {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Writes `contents` to `path`, naming the path on error.
pub fn write(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), SimError> {
    fs::write(path, contents).map_err(|e| SimError::io(format!("writing {}", path.display()), e))
}

/// Reads `path` as text, naming the path on error.
pub fn read(path: &Path) -> Result<String, SimError> {
    fs::read_to_string(path).map_err(|e| SimError::io(format!("reading {}", path.display()), e))
}
