//! The page in a real browser: headless Chromium, driven by selenium, plays, undoes, reloads,
//! imports a position and plays it to a result, lists the best moves of a record, and waits in
//! the engine's queue; and, against a server that has dropped its game, starts it again. Screenshots are written to
//! `target/web-screenshots/`. Needs Chromium and its driver (Debian's `chromium` and
//! `chromium-driver`) on the PATH when the tests are built: without them the test is reported
//! as ignored, with the reason; `.ci/run` installs them and sets `WUZI_REQUIRE_BROWSER=1`, which
//! makes the test run (and fail) when they are missing.

#[macro_use]
mod common;

use wuzi_web::Config;

browser_test!(
    the_page_plays_in_a_real_browser,
    // One search slot, so that the page can be shown waiting in the queue.
    Config {
        max_searches: 1,
        ..Config::default()
    },
    "browser_test.py",
    "BROWSER OK",
    ["page-result.png", "page-nbest.png"]
);

browser_test!(
    /// A server that has dropped the page's game (restarted, or the game lay idle): the page
    /// starts it again from its own moves at the next move.
    the_page_starts_a_dropped_game_again,
    Config {
        max_searches: 1,
        idle: std::time::Duration::from_secs(2),
        ..Config::default()
    },
    "browser_resume_test.py",
    "BROWSER RESUME OK",
    ["page-resumed.png"]
);

browser_test!(
    /// A reload finds the same game on the server, keeps a move the engine was thinking
    /// about, and, where the server starts no more games for the address, still shows the
    /// position.
    the_page_finds_its_game_again_after_a_reload,
    Config {
        max_searches: 1,
        games_per_client: 1,
        ..Config::default()
    },
    "browser_reload_test.py",
    "BROWSER RELOAD OK",
    ["page-refused.png"]
);
