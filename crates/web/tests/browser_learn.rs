//! The Learn page in a real browser (headless Chromium driven by selenium, like
//! `browser.rs`): two algorithms on a tic-tac-toe position, both node counts, a node expanded
//! to a greyed cut-off, a step through the search, and a game against the perfect player.
//! Screenshots go to `target/web-screenshots/`.

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
fn the_learn_page_compares_algorithms_in_a_real_browser() {
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
        let config = wuzi_web::Config::default();
        wuzi_web::serve_blocking(addr, config, |a| tx.send(a).unwrap()).unwrap();
    });
    let addr = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    let shots = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/web-screenshots");
    std::fs::create_dir_all(&shots).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/browser_learn_test.py");
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
        out.status.success() && stdout.contains("BROWSER LEARN OK"),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(shots.join("learn-tree.png").exists());
}
