//! Running the `wuzi` binary as a user runs it.

#![allow(dead_code)]

use serde_json::Value;
use std::io::Write;
use std::process::{Command, Output, Stdio};

pub fn wuzi(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .output()
        .expect("wuzi runs")
}

/// The one JSON object a successful command prints.
pub fn json(args: &[&str]) -> Value {
    let output = wuzi(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("one JSON object")
}

/// What an interactive command prints when `input` is typed into it.
pub fn typed(args: &[&str], input: impl AsRef<[u8]>) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("wuzi runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_ref())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The command fails, and its error message names `needle`.
pub fn fails_with(args: &[&str], needle: &str) {
    let output = wuzi(args);
    assert!(!output.status.success(), "{args:?} should fail");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
}

/// A fresh, empty directory for one test's files (`wuzi-cli-NAME-PID` in the temporary
/// directory); the test removes it when it is done.
pub fn scratch_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("wuzi-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A Gomocup engine for matches: this very binary speaking the protocol (`wuzi gomocup`, as
/// pbrain-wuzi does) at depth 2, named `external`.
pub fn external_engine() -> String {
    format!(
        "cmd='{}' gomocup,depth=2,time=5000,name=external",
        env!("CARGO_BIN_EXE_wuzi")
    )
}

/// The c-gomoku-cli records the gomoku crate's tests read.
pub fn sgf_file(name: &str) -> String {
    format!(
        "{}/../gomoku/tests/data/sgf/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}
