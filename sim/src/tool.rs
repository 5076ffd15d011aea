//! Finding external programs and running them with their output captured.

use std::ffi::OsStr;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::SimError;

/// Finds `tool`: the program named by the environment variable `env_var` when it is set and
/// not empty, else `tool` on `PATH`.
pub fn find(tool: &'static str, env_var: &'static str) -> Result<PathBuf, SimError> {
    match std::env::var(env_var) {
        Ok(value) if !value.trim().is_empty() => {
            which::which(&value).map_err(|_| SimError::ToolNotFound {
                tool,
                env_override: Some((env_var, value)),
            })
        }
        _ => which::which(tool).map_err(|_| SimError::ToolNotFound {
            tool,
            env_override: None,
        }),
    }
}

/// Finds `tool` like [`find`], but looks in `dirs` (in order) before `PATH`: the environment
/// variable `env_var` when set, else the first of `dirs` holding an executable `tool`, else
/// `PATH`. warpgen's flow passes the project-local tool directory (`.venv/bin`) here.
pub fn find_first_in(tool: &'static str, env_var: &'static str, dirs: &[PathBuf]) -> Result<PathBuf, SimError> {
    if std::env::var(env_var).is_ok_and(|v| !v.trim().is_empty()) {
        return find(tool, env_var);
    }
    dirs.iter()
        .map(|d| d.join(tool))
        .find(|p| p.is_file() && which::which(p).is_ok())
        .map_or_else(|| find(tool, env_var), Ok)
}

/// What a finished command printed.
pub struct Output {
    /// Whether it exited with status 0.
    pub success: bool,
    /// How it exited, for messages.
    pub status: String,
    /// stdout, then stderr.
    pub text: String,
    /// stdout alone.
    pub stdout: String,
}

/// The guard every child tool runs under: the tool runs in the background of a shell that
/// leads a process group of its own, and SIGTERM to that shell kills the whole group, the
/// tool's own children (Yosys's ABC, make's compilers) included. The kernel sends the shell
/// SIGTERM when warpgen dies (its parent-death signal), so no tool outlives warpgen, however
/// warpgen ends; on SIGINT / SIGTERM warpgen kills the groups itself ([`crate::temp`]).
const GUARD: &str = r#"trap 'kill -KILL 0' TERM; "$@" <&0 & wait $!"#;

/// `cmd` under [`GUARD`], in its own process group, with the same directory and environment.
fn guarded(cmd: &Command) -> Command {
    let mut g = Command::new("/bin/sh");
    g.arg("-c").arg(GUARD).arg("sh").arg(cmd.get_program()).args(cmd.get_args());
    if let Some(dir) = cmd.get_current_dir() {
        g.current_dir(dir);
    }
    for (key, value) in cmd.get_envs() {
        match value {
            Some(v) => g.env(key, v),
            None => g.env_remove(key),
        };
    }
    g.process_group(0).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let parent = std::process::id();
    // SAFETY: sigemptyset, sigprocmask, prctl and getppid are async-signal-safe; nothing is
    // allocated in the child.
    unsafe {
        g.pre_exec(move || {
            // The program blocks SIGINT / SIGTERM / SIGHUP for its signal thread, and a child
            // inherits the mask: the guard must receive its SIGTERM.
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) != 0 || libc::getppid() as u32 != parent {
                return Err(std::io::Error::other("warpgen ended before the tool started"));
            }
            Ok(())
        });
    }
    g
}

/// Runs `cmd` to completion under [`GUARD`], capturing its output; a non-zero exit status is
/// reported in [`Output::success`]. `what` names the step in error messages. Fails only when
/// the command cannot be started.
pub fn run_any_status(cmd: &mut Command, what: &str) -> Result<Output, SimError> {
    let cannot_start = |e: String| SimError::CommandFailed {
        what: what.to_string(),
        command: command_line(cmd),
        status: format!("could not start: {e}"),
        output: String::new(),
    };
    // The shell would only say "not found" in its output: check first, as exec would.
    let program = Path::new(cmd.get_program());
    let found = match cmd.get_current_dir() {
        Some(dir) if program.components().count() > 1 && program.is_relative() => which::which(dir.join(program)),
        _ => which::which(program),
    };
    found.map_err(|_| cannot_start("No such file or directory (os error 2)".into()))?;
    let child = guarded(cmd).spawn().map_err(|e| cannot_start(e.to_string()))?;
    let group = child.id();
    crate::temp::add_group(group);
    let out = child.wait_with_output();
    crate::temp::remove_group(group);
    let out = out.map_err(|e| cannot_start(e.to_string()))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut text = stdout.clone();
    if !text.is_empty() && !text.ends_with('\n') && !stderr.is_empty() {
        text.push('\n');
    }
    text.push_str(&stderr);
    Ok(Output {
        success: out.status.success(),
        status: out.status.to_string(),
        text,
        stdout,
    })
}

/// Runs `cmd` to completion; a non-zero exit status is an error carrying all its output.
pub fn run(cmd: &mut Command, what: &str) -> Result<Output, SimError> {
    let out = run_any_status(cmd, what)?;
    if out.success {
        Ok(out)
    } else {
        Err(SimError::CommandFailed {
            what: what.to_string(),
            command: command_line(cmd),
            status: out.status,
            output: out.text,
        })
    }
}

/// The command line of `cmd`, for messages.
pub fn command_line(cmd: &Command) -> String {
    let mut line = quote(cmd.get_program());
    for arg in cmd.get_args() {
        line.push(' ');
        line.push_str(&quote(arg));
    }
    if let Some(dir) = cmd.get_current_dir() {
        line = format!("(cd {} && {line})", quote(dir.as_os_str()));
    }
    line
}

fn quote(s: &OsStr) -> String {
    let s = s.to_string_lossy();
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=+:,@%".contains(c));
    if plain {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// The last `lines` lines of `text`.
pub fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

/// Number of parallel jobs for `make`.
pub fn jobs() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}
