//! The program's output files, never half-written.
//!
//! * [`write_set`] writes the files of one `generate` run into a directory all or nothing,
//!   also when the run is killed: the new directory is staged beside the old one (the old
//!   one's other files linked into it) and the two are exchanged by one
//!   `renameat2(RENAME_EXCHANGE)`; the old contents are removed after. A kill at any point
//!   leaves the directory entirely old or entirely new, and the staged copy, named as
//!   [`warpgen_sim::temp`] names temporaries, is removed by the next run.
//! * [`write_file`] writes one file: a temporary in its folder, then a rename.

use std::ffi::CString;
use std::io::{Error, Result};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use warpgen_sim::temp;

/// The folder that holds `path` ("." for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// Writes `files` (name, text) into `dir` (created if missing) as one set: afterwards `dir`
/// holds all of them, or, on an error, is as it was. Other files in `dir` are kept. An error
/// names the file it is about.
pub fn write_set(dir: &Path, files: &[(String, String)]) -> Result<()> {
    for (name, _) in files {
        let dest = dir.join(name);
        if dest.is_dir() && !dest.is_symlink() {
            return Err(Error::other(format!("{}: is a directory, not a file; nothing was written", dest.display())));
        }
    }
    // A symbolic link to the directory stays one: the directory it names is exchanged.
    let real;
    let dir = if dir.is_symlink() && dir.is_dir() {
        real = std::fs::canonicalize(dir)?;
        real.as_path()
    } else {
        dir
    };
    let parent = folder_of(dir);
    std::fs::create_dir_all(parent)?;
    let stage = match temp::dir_in(parent, "gen") {
        Ok(s) => s,
        // No room beside it (a parent folder the user cannot write): file by file in it.
        Err(_) if dir.is_dir() => return write_each(dir, files),
        Err(e) => return Err(e),
    };
    for (name, text) in files {
        let path = stage.path().join(name);
        std::fs::write(&path, text).map_err(|e| Error::other(format!("{}: {e}; nothing was written", dir.join(name).display())))?;
    }
    if !dir.exists() {
        let staged = stage.keep();
        return match std::fs::rename(&staged, dir) {
            Ok(()) => Ok(()),
            // Made by another run meanwhile: write into it file by file.
            Err(_) => {
                let _ = std::fs::remove_dir_all(&staged);
                write_each(dir, files)
            }
        };
    }
    temp::remove_stale(dir);
    // The old directory's other entries come along (a killed run's temporaries are removed
    // first; a running one's come along too) (a second link to each file); a
    // subdirectory cannot be linked, and then the set is written file by file instead.
    let ours: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        if ours.iter().any(|n| name.as_os_str() == *n) {
            continue;
        }
        let kind = entry.file_type()?;
        if kind.is_dir() {
            drop(stage);
            return write_each(dir, files);
        }
        if kind.is_symlink() {
            std::os::unix::fs::symlink(std::fs::read_link(entry.path())?, stage.path().join(&name))?;
        } else {
            std::fs::hard_link(entry.path(), stage.path().join(&name))?;
        }
    }
    std::fs::set_permissions(stage.path(), std::fs::metadata(dir)?.permissions())?;
    match exchange(stage.path(), dir) {
        // `stage` now names the old directory, removed when it drops.
        Ok(()) => Ok(()),
        // Nothing was exchanged (a file system without the exchange, a mount point, another
        // device): the files go in one by one.
        Err(_) => {
            drop(stage);
            write_each(dir, files)
        }
    }
}

/// Exchanges two directories atomically (Linux's renameat2 with RENAME_EXCHANGE).
fn exchange(a: &Path, b: &Path) -> Result<()> {
    let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).map_err(Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: two NUL-terminated paths that live across the call.
    let r = unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    if r == 0 {
        Ok(())
    } else {
        Err(Error::last_os_error())
    }
}

/// Writes every file to a temporary name in `dir`, then renames them all into place; a
/// failed rename puts back the files already renamed, so `dir` stays as it was. (A kill
/// during the renames can leave a mix: [`write_set`] uses this only where it cannot exchange
/// directories.)
fn write_each(dir: &Path, files: &[(String, String)]) -> Result<()> {
    std::fs::create_dir_all(dir)?;
    let mut staged = Vec::new();
    for (name, text) in files {
        let mut tmp = temp::file_in(dir, "gen", ".tmp")?;
        std::io::Write::write_all(&mut tmp, text.as_bytes())?;
        staged.push((tmp, dir.join(name)));
    }
    // Each file the run replaces is kept under a temporary name until every rename has
    // succeeded, so a failed rename puts the renamed ones back: the set stays the old one.
    let mut done: Vec<(PathBuf, Option<tempfile::TempPath>)> = Vec::new();
    for (tmp, dest) in staged {
        let backup = if dest.is_file() {
            // A fresh name (the empty file tempfile makes is removed), then a second link to
            // the old file under it.
            let keep = temp::file_in(dir, "keep", ".tmp")?.into_temp_path();
            std::fs::remove_file(&keep)?;
            std::fs::hard_link(&dest, &keep)?;
            Some(keep)
        } else {
            None
        };
        if let Err(e) = tmp.persist(&dest) {
            for (d, b) in done.into_iter().rev() {
                match b {
                    Some(b) => {
                        let _ = std::fs::rename(&b, &d);
                    }
                    None => {
                        let _ = std::fs::remove_file(&d);
                    }
                }
            }
            return Err(Error::other(format!("{}: {}; no file of this run was kept", dest.display(), e.error)));
        }
        done.push((dest, backup));
    }
    Ok(())
}

/// Writes one file atomically: a temporary file in its folder, then a rename.
pub fn write_file(path: &Path, text: &str) -> Result<()> {
    let name = path.file_name().ok_or_else(|| Error::other("not a file path"))?;
    write_each(folder_of(path), &[(name.to_string_lossy().into_owned(), text.to_string())])
}
