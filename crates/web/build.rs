//! Finds Chromium and its driver for the browser test, so that a machine without them (a
//! newcomer's) reports that test as ignored, with the reason, instead of failing it.
//!
//! `WUZI_REQUIRE_BROWSER=1` (set by `.ci/run`) makes the test run whatever is found, so that a
//! missing browser fails CI.

use std::env;
use std::path::PathBuf;

/// The first of `names` found in a directory of `PATH`.
fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

fn main() {
    println!("cargo::rustc-check-cfg=cfg(browser_available)");
    println!("cargo:rerun-if-env-changed=PATH");
    println!("cargo:rerun-if-env-changed=WUZI_REQUIRE_BROWSER");
    // Installing a program changes its directory: look again then.
    if let Some(path) = env::var_os("PATH") {
        for dir in env::split_paths(&path).filter(|d| d.is_dir()) {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
    }
    let chromium = on_path(&["chromium", "chromium-browser"]);
    let driver = on_path(&["chromedriver"]);
    let required = env::var("WUZI_REQUIRE_BROWSER").is_ok_and(|v| v == "1");
    if let (Some(chromium), Some(driver)) = (&chromium, &driver) {
        println!("cargo:rustc-env=WUZI_CHROMIUM={}", chromium.display());
        println!("cargo:rustc-env=WUZI_CHROMEDRIVER={}", driver.display());
        println!("cargo:rustc-cfg=browser_available");
    } else {
        println!("cargo:rustc-env=WUZI_CHROMIUM=");
        println!("cargo:rustc-env=WUZI_CHROMEDRIVER=");
        if required {
            println!("cargo:rustc-cfg=browser_available");
        }
    }
}
