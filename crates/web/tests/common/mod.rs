//! What the web tests share: a server on a free loopback port, and the headless-browser run.
#![allow(dead_code)] // each test file uses its own part

/// A test that drives the page in headless Chromium with a Python script (see
/// [`run_browser_script`]) against a server of `config`, then finds its screenshots; reported
/// as ignored, with the reason, where Chromium and its driver are not on the PATH.
#[allow(unused_macros)] // the browser tests' files use it
macro_rules! browser_test {
    ($(#[$doc:meta])* $name:ident, $config:expr, $script:literal, $marker:literal, [$($shot:literal),*]) => {
        $(#[$doc])*
        #[test]
        #[cfg_attr(
            not(browser_available),
            ignore = "no chromium/chromedriver on the PATH: apt-get install chromium chromium-driver \
                      (then run the tests again), or run everything with bash .ci/run"
        )]
        fn $name() {
            let shots = common::run_browser_script($config, $script, $marker);
            $(assert!(shots.join($shot).exists(), "no screenshot {}", $shot);)*
            eprintln!("screenshots in {}", shots.display());
        }
    };
}

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;
use wuzi_web::Config;

/// Serves `config` on a free loopback port for the rest of the test; its base URL.
pub fn server(config: Config) -> String {
    format!("http://{}", serve(config))
}

fn serve(config: Config) -> SocketAddr {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        wuzi_web::serve_blocking(addr, config, |a| tx.send(a).unwrap()).unwrap();
    });
    rx.recv_timeout(Duration::from_secs(10)).unwrap()
}

/// Runs the selenium script `tests/<script>` against a server with `config` in headless
/// Chromium, asserts it printed `marker`, and gives the screenshot folder.
pub fn run_browser_script(config: Config, script: &str, marker: &str) -> PathBuf {
    let (chromium, driver) = (env!("WUZI_CHROMIUM"), env!("WUZI_CHROMEDRIVER"));
    assert!(
        !chromium.is_empty() && !driver.is_empty(),
        "WUZI_REQUIRE_BROWSER=1 but chromium or chromedriver is not on the PATH: install \
         Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
    );
    let py = wuzi_testkit::python_with("selenium==4.27.1", "selenium.webdriver");
    let addr = serve(config);
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/web-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(script);
    let out = Command::new(py)
        .arg(script)
        .arg(format!("http://{addr}/"))
        .arg(&shots)
        .arg(chromium)
        .arg(driver)
        .output()
        .expect("the browser script runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(marker),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    shots
}
