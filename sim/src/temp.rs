//! warpgen's temporaries and its child tools' lifetime.
//!
//! * A temporary (a staged output file, a build directory, a synthesis work directory) is
//!   made inside the directory it serves (the output directory or the cache), never in
//!   `/tmp`, and is named `.warpgen-<what>-<pid>-<random>`: [`remove_stale`] removes the ones
//!   whose process has ended (the name holds its pid), so a killed run's leftovers go at the
//!   next run in that directory.
//! * Child tools (Yosys, nextpnr, Verilator, make) run in a process group of their own under
//!   a shell guard (see [`crate::tool`]); the live groups are listed here.
//! * [`handle_interrupts`] (called by the program first thing) ends those groups and removes
//!   this process's temporaries on SIGINT, SIGTERM or SIGHUP, then lets the signal end the
//!   program; a child's guard ends its group when warpgen dies any other way (SIGKILL).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

/// The prefix of every temporary warpgen names.
pub const PREFIX: &str = ".warpgen-";

/// Directories that hold temporaries of this process, and the process groups of the child
/// tools running now.
static PARENTS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
static GROUPS: Mutex<Vec<u32>> = Mutex::new(Vec::new());

/// `.warpgen-<what>-<pid>-`: the prefix of this process's temporaries of kind `what` (one
/// word, no `-`).
pub fn prefix(what: &str) -> String {
    debug_assert!(!what.contains('-'), "a temporary's kind is one word");
    format!("{PREFIX}{what}-{}-", std::process::id())
}

/// A temporary directory of kind `what` in `parent` (created if missing), mode 0777 less
/// the umask; the stale temporaries there are removed first.
pub fn dir_in(parent: &Path, what: &str) -> std::io::Result<tempfile::TempDir> {
    std::fs::create_dir_all(parent)?;
    remember(parent);
    remove_stale(parent);
    tempfile::Builder::new()
        .prefix(&prefix(what))
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o777))
        .tempdir_in(parent)
}

/// A temporary file of kind `what` in `parent` (created if missing; stale temporaries
/// there removed first) ending in
/// `suffix`, created with mode 0666
/// less the umask (0644 under 022) as any file a program writes, not tempfile's private 0600:
/// renamed into place, it is the output another user or a container reads.
pub fn file_in(parent: &Path, what: &str, suffix: &str) -> std::io::Result<tempfile::NamedTempFile> {
    std::fs::create_dir_all(parent)?;
    remember(parent);
    remove_stale(parent);
    tempfile::Builder::new()
        .prefix(&prefix(what))
        .suffix(suffix)
        .permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666))
        .tempfile_in(parent)
}

fn remember(parent: &Path) {
    let parent = std::path::absolute(parent).unwrap_or_else(|_| parent.to_path_buf());
    let mut p = PARENTS.lock().unwrap_or_else(|e| e.into_inner());
    if !p.contains(&parent) {
        p.push(parent);
    }
}

/// The pid in a temporary's name, when the name is one of ours: `.warpgen-<what>-<pid>-…`.
fn owner(name: &str) -> Option<u32> {
    let rest = name.strip_prefix(PREFIX)?;
    let mut fields = rest.splitn(3, '-');
    let (_what, pid) = (fields.next()?, fields.next()?);
    fields.next()?;
    pid.parse().ok()
}

/// Whether process `pid` runs (Linux's /proc; elsewhere every process counts as running).
fn alive(pid: u32) -> bool {
    !Path::new("/proc/self").exists() || Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes from `dir` the temporaries of processes that have ended, and those of older
/// versions of warpgen (`.warpgen-XXXXXX.tmp` files, the cache's `.tmp-XXXXXX` directories)
/// once they are an hour old. Best effort: what cannot be removed stays.
pub fn remove_stale(dir: &Path) {
    const OLD: Duration = Duration::from_secs(3600);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = match owner(&name) {
            Some(pid) => pid != std::process::id() && !alive(pid),
            None => {
                (name.starts_with(PREFIX) || name.starts_with(".tmp-"))
                    && entry
                        .metadata()
                        .and_then(|m| m.modified())
                        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > OLD))
            }
        };
        if stale {
            remove(&entry.path());
        }
    }
}

fn remove(path: &Path) {
    if path.is_dir() && !path.is_symlink() {
        let _ = std::fs::remove_dir_all(path);
    } else {
        let _ = std::fs::remove_file(path);
    }
}

/// Removes this process's temporaries from every directory that holds some.
fn remove_own() {
    let mine = std::process::id();
    let parents = PARENTS.lock().unwrap_or_else(|e| e.into_inner()).clone();
    for dir in parents {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            if owner(&entry.file_name().to_string_lossy()) == Some(mine) {
                remove(&entry.path());
            }
        }
    }
}

/// Lists a child tool's process group while it runs.
pub(crate) fn add_group(pgid: u32) {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner()).push(pgid);
}

pub(crate) fn remove_group(pgid: u32) {
    GROUPS.lock().unwrap_or_else(|e| e.into_inner()).retain(|g| *g != pgid);
}

/// Kills every listed child tool's process group.
fn kill_groups() {
    for g in GROUPS.lock().unwrap_or_else(|e| e.into_inner()).iter() {
        // SAFETY: kill(2) with a negative pid signals that process group; no memory is shared.
        unsafe { libc::kill(-(*g as i32), libc::SIGKILL) };
    }
}

/// Makes SIGINT, SIGTERM and SIGHUP end the program cleanly: the child tools' process groups
/// are killed, this process's temporaries removed, one line is printed, and the signal then
/// ends the program as it would have (status 128 + signal in a shell). Call it first in
/// `main`, before any thread starts: the signals are blocked in every thread and taken by
/// one thread that waits for them.
pub fn handle_interrupts() {
    // SAFETY: plain libc signal-set calls on a local set, before any other thread exists.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, s);
        }
        libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        set
    };
    std::thread::spawn(move || {
        let mut sig: libc::c_int = 0;
        // SAFETY: sigwait on the set blocked above; `sig` outlives the call.
        if unsafe { libc::sigwait(&set, &mut sig) } != 0 {
            return;
        }
        kill_groups();
        remove_own();
        let name = match sig {
            libc::SIGINT => "SIGINT",
            libc::SIGTERM => "SIGTERM",
            _ => "SIGHUP",
        };
        eprintln!("warpgen: stopped by {name}: child tools ended, temporaries removed");
        // SAFETY: restore the default action and deliver the signal to this process.
        unsafe {
            libc::signal(sig, libc::SIG_DFL);
            let mut one: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut one);
            libc::sigaddset(&mut one, sig);
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &one, std::ptr::null_mut());
            libc::kill(libc::getpid(), sig);
        }
        std::process::exit(128 + sig);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_carry_the_owner() {
        let p = prefix("synth");
        assert_eq!(owner(&format!("{p}AbC123")), Some(std::process::id()));
        assert_eq!(owner(".warpgen-vcd-42-x.tmp"), Some(42));
        assert_eq!(owner(".warpgen-AbC123.tmp"), None);
        assert_eq!(owner("warpgen_scoreboard.v"), None);
    }

    #[test]
    fn stale_temporaries_of_ended_processes_go_and_others_stay() {
        let dir = tempfile::tempdir().unwrap();
        // A pid above the kernel's maximum (4194304) never runs.
        let dead = dir.path().join(".warpgen-synth-4999999-abcdef");
        std::fs::create_dir(&dead).unwrap();
        std::fs::write(dead.join("netlist.json"), "{}").unwrap();
        let own = dir_in(dir.path(), "synth").unwrap();
        let running = dir.path().join(format!(".warpgen-gen-{}-zzzzzz.tmp", std::os::unix::process::parent_id()));
        std::fs::write(&running, "x").unwrap();
        let fresh_legacy = dir.path().join(".warpgen-q1w2e3.tmp");
        std::fs::write(&fresh_legacy, "x").unwrap();
        let user = dir.path().join("notes.txt");
        std::fs::write(&user, "x").unwrap();
        remove_stale(dir.path());
        assert!(!dead.exists(), "a dead process's directory is removed");
        assert!(own.path().exists() && running.exists(), "live processes' temporaries stay");
        assert!(fresh_legacy.exists(), "an old-style name stays for its first hour");
        assert!(user.exists());
    }
}
