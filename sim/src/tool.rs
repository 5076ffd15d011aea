//! Finding external programs and running them with their output captured.

use std::ffi::OsStr;
use std::path::PathBuf;
use std::process::Command;

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

/// Runs `cmd` to completion, capturing its output; a non-zero exit status is reported in
/// [`Output::success`]. `what` names the step in error messages. Fails only when the command
/// cannot be started.
pub fn run_any_status(cmd: &mut Command, what: &str) -> Result<Output, SimError> {
    let out = cmd.output().map_err(|e| SimError::CommandFailed {
        what: what.to_string(),
        command: command_line(cmd),
        status: format!("could not start: {e}"),
        output: String::new(),
    })?;
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
