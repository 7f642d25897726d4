//! The page in a real browser: headless Chromium, driven by selenium, plays, undoes, reloads,
//! imports a position and plays it to a result, and waits in the engine's queue. Screenshots are written to
//! `target/web-screenshots/`. Needs Chromium and its driver (Debian's `chromium` and
//! `chromium-driver`) on the PATH when the tests are built: without them the test is reported
//! as ignored, with the reason; `.ci/run` installs them and sets `WUZI_REQUIRE_BROWSER=1`, which
//! makes the test run (and fail) when they are missing.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

#[test]
#[cfg_attr(
    not(browser_available),
    ignore = "no chromium/chromedriver on the PATH: apt-get install chromium chromium-driver \
              (then run the tests again), or run everything with bash .ci/run"
)]
fn the_page_plays_in_a_real_browser() {
    let (chromium, driver) = (env!("WUZI_CHROMIUM"), env!("WUZI_CHROMEDRIVER"));
    assert!(
        !chromium.is_empty() && !driver.is_empty(),
        "WUZI_REQUIRE_BROWSER=1 but chromium or chromedriver is not on the PATH: install \
         Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
    );
    let py = wuzi_testkit::python_with("selenium==4.27.1", "selenium.webdriver");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let addr: SocketAddr = "127.0.0.1:0".parse().unwrap();
        // One search slot, so that the page can be shown waiting in the queue.
        let config = wuzi_web::Config {
            max_searches: 1,
            ..wuzi_web::Config::default()
        };
        wuzi_web::serve_blocking(addr, config, |a| tx.send(a).unwrap()).unwrap();
    });
    let addr = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/web-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser_test.py");
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
        out.status.success() && stdout.contains("BROWSER OK"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(shots.join("page-result.png").exists());
    eprintln!("screenshots in {}", shots.display());
}
