//! What the program's integration tests share: running `warpgen` and reading what it printed.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs the `warpgen` program built for these tests with `args`.
pub fn warpgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpgen")).args(args).output().expect("run warpgen")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Writes `text` to `dir/name`; its path as text.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}
