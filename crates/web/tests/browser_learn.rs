//! The Learn page in a real browser (headless Chromium driven by selenium, like
//! `browser.rs`): two algorithms on a tic-tac-toe position, both node counts, a node expanded
//! to a greyed cut-off, a step through the search, and a game against the perfect player.
//! Screenshots go to `target/web-screenshots/`.

mod common;

#[test]
#[cfg_attr(
    not(browser_available),
    ignore = "no chromium/chromedriver on the PATH: apt-get install chromium chromium-driver \
              (then run the tests again), or run everything with bash .ci/run"
)]
fn the_learn_page_compares_algorithms_in_a_real_browser() {
    let shots = common::run_browser_script(
        wuzi_web::Config::default(),
        "browser_learn_test.py",
        "BROWSER LEARN OK",
    );
    assert!(shots.join("learn-tree.png").exists());
}
