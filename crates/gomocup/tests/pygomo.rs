//! An independent client, the PyPI package `pygomo-lib` (its `EngineClient`), plays a full
//! game against `pbrain-wuzi`. The interpreter comes from wuzi-testkit (`$WUZI_PYTHON` or a
//! virtual environment made on demand); without it the test fails, it never passes silently.

use std::path::Path;
use std::process::Command;

#[test]
fn pygomo_client_plays_a_full_game() {
    let py = wuzi_testkit::python_with("pygomo-lib==0.1.1", "pygomo.client.engine");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/pygomo_client.py");
    let out = Command::new(&py)
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_pbrain-wuzi"))
        .output()
        .expect("the client runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "client failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = stdout
        .lines()
        .find(|l| l.starts_with("RESULT"))
        .unwrap_or_else(|| panic!("no result line: {stdout}"));
    // The client plays naively: the engine wins with a five.
    assert!(result.starts_with("RESULT engine"), "{result}");
}
