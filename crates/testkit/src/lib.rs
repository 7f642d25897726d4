//! Test support: a Python interpreter that has a given PyPI package, for the tests that
//! check wuzi against independent programs (the `renju` referee, the `pygomo-lib` client).
//!
//! The interpreter is `$WUZI_PYTHON` if set (CI sets it to the virtual environment it made
//! from `.ci/requirements.txt`); otherwise a virtual environment is made once at
//! `<workspace>/target/py-venv` with `python3 -m venv`, and the package is installed into it
//! with pip. If that is not possible the calling test fails with a message saying why: these
//! tests never pass without the program they compare against.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn imports(py: &Path, module: &str) -> bool {
    Command::new(py)
        .args(["-c", &format!("import {module}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// An interpreter that can `import module`, installing `requirement` (e.g. `renju==0.1.0`)
/// into the workspace's virtual environment if needed. Panics with the reason if it cannot.
pub fn python_with(requirement: &str, module: &str) -> PathBuf {
    if let Some(p) = std::env::var_os("WUZI_PYTHON") {
        let py = PathBuf::from(p);
        assert!(
            imports(&py, module),
            "WUZI_PYTHON={} cannot import {module}: install {requirement} into it",
            py.display()
        );
        return py;
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/py-venv");
    let py = venv.join("bin/python");
    if imports(&py, module) {
        return py;
    }
    // Tests run in parallel (threads of one test binary, or two `cargo test` at once): one
    // at a time makes the environment and installs into it, and the others then find it.
    let _lock = VenvLock::take(&venv.with_extension("lock"));
    if imports(&py, module) {
        return py;
    }
    if !py.exists() {
        let made = Command::new("python3")
            .args(["-m", "venv"])
            .arg(&venv)
            .status()
            .is_ok_and(|s| s.success());
        assert!(
            made,
            "cannot create a Python venv at {} (python3 -m venv failed); set WUZI_PYTHON to \
             an interpreter that has {requirement}",
            venv.display()
        );
    }
    let installed = Command::new(venv.join("bin/pip"))
        .args([
            "install",
            "--quiet",
            "--disable-pip-version-check",
            requirement,
        ])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        installed && imports(&py, module),
        "cannot install {requirement} into {}; set WUZI_PYTHON to an interpreter that has it",
        venv.display()
    );
    py
}

/// A lock on the virtual environment: a directory, which only one process or thread can
/// create. Removed when dropped, also when the test holding it panics; one older than
/// [`VenvLock::STALE`] is taken to be left by a killed run.
struct VenvLock(PathBuf);

impl VenvLock {
    const STALE: Duration = Duration::from_secs(600);

    fn take(path: &Path) -> VenvLock {
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        loop {
            match std::fs::create_dir(path) {
                Ok(()) => return VenvLock(path.to_path_buf()),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    let stale = std::fs::metadata(path)
                        .and_then(|m| m.modified())
                        .is_ok_and(|t| t.elapsed().is_ok_and(|age| age > Self::STALE));
                    if stale {
                        let _ = std::fs::remove_dir(path);
                    } else {
                        std::thread::sleep(Duration::from_millis(200));
                    }
                }
                Err(e) => panic!("cannot lock {} to set up Python: {e}", path.display()),
            }
        }
    }
}

impl Drop for VenvLock {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.0);
    }
}
