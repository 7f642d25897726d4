//! The Learn page in a real browser (headless Chromium driven by selenium, like
//! `browser.rs`): two algorithms on a tic-tac-toe position, both node counts, a node expanded
//! to a greyed cut-off, a step through the search, and a game against the perfect player.
//! Screenshots go to `target/web-screenshots/`.

#[macro_use]
mod common;

browser_test!(
    the_learn_page_compares_algorithms_in_a_real_browser,
    wuzi_web::Config::default(),
    "browser_learn_test.py",
    "BROWSER LEARN OK",
    ["learn-tree.png"]
);
