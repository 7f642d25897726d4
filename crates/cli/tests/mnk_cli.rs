//! The `wuzi` binary's small-game commands, run as a user runs them.

mod common;

use common::{fails_with, json, typed, wuzi};

#[test]
fn solves_tic_tac_toe_with_every_algorithm() {
    let mut nodes = Vec::new();
    for algo in ["minimax", "negamax", "alphabeta", "search"] {
        let solution = json(&["solve", "tictactoe", "--algo", algo, "--json"]);
        assert_eq!(solution["result"], "draw", "{algo}");
        assert!(solution["millis"].is_u64());
        nodes.push(solution["nodes"].as_u64().unwrap());
    }
    assert_eq!(nodes[0], 549_946);
    assert_eq!(nodes[1], 549_946);
    assert_eq!(nodes[2], 20_866);
    assert!(nodes[3] < nodes[2]);
}

#[test]
fn solves_small_boards_to_their_known_values() {
    for (w, h, k, result) in [
        ("3", "3", "3", "draw"),
        ("4", "3", "3", "first-player-win"),
        ("4", "4", "4", "draw"),
        ("5", "4", "4", "draw"),
        ("5", "5", "4", "draw"),
    ] {
        let solution = json(&[
            "solve", "mnk", "--width", w, "--height", h, "--k", k, "--json",
        ]);
        assert_eq!(solution["result"], result, "{w},{h},{k}");
    }
}

#[test]
fn counts_the_tic_tac_toe_tree() {
    let counts = json(&["perft", "tictactoe", "--json"]);
    assert_eq!(counts["nodes"], 549_946);
    assert_eq!(counts["games"], 255_168);
    assert_eq!(counts["positions"], 5_478);
}

#[test]
fn bad_sizes_get_a_clear_error() {
    for args in [
        &["solve", "mnk", "--width", "0", "--height", "3", "--k", "3"][..],
        &["solve", "mnk", "--width", "3", "--height", "3", "--k", "9"],
        &["perft", "mnk", "--width", "5", "--height", "5", "--k", "4"],
    ] {
        let output = wuzi(args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(
            String::from_utf8_lossy(&output.stderr).starts_with("wuzi: "),
            "{args:?}"
        );
    }
    let output = wuzi(&["solve", "mnk", "--width", "three"]);
    assert!(!output.status.success());
}

/// A board too big to solve gives up with a reason at the time given, rather than running on
/// for years; so does a depth too deep. Perft refuses 4x3 (1.3 billion nodes) outright.
#[test]
fn a_solve_too_big_gives_up_with_a_reason() {
    let big = [
        "solve", "mnk", "--width", "16", "--height", "16", "--k", "5",
    ];
    for extra in [
        &["--algo", "minimax", "--give-up-after", "1"][..],
        &["--give-up-after", "1"],
        &[
            "--algo",
            "alphabeta",
            "--depth",
            "9",
            "--give-up-after",
            "1",
        ],
    ] {
        let args: Vec<&str> = big.iter().chain(extra).copied().collect();
        let output = wuzi(&args);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        // The option that lets it go on is named (m,n,k has no candidates to narrow).
        assert!(
            stderr.contains("takes longer than 1 s")
                && stderr.contains("raise --give-up-after")
                && !stderr.contains("candidates"),
            "{args:?}: {stderr}"
        );
    }
    // No time is too long to wait for (it was an overflow of the clock, and a panic).
    for algo in ["search", "alphabeta"] {
        let output = wuzi(&[
            "solve",
            "--algo",
            algo,
            "--give-up-after",
            "18446744073709551615",
            "tictactoe",
        ]);
        assert!(output.status.success(), "{algo}: {output:?}");
    }
    let output = wuzi(&["perft", "mnk", "--width", "4", "--height", "3", "--k", "3"]);
    assert_eq!(output.status.code(), Some(2));
    // Zero seconds is refused in words, not as "not in 1..18446744073709551615".
    let output = wuzi(&["solve", "--give-up-after", "0", "tictactoe"]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("must be 1 or more"), "{stderr}");
}

#[test]
fn punishes_a_blunder() {
    // X takes the centre; the edge reply a2 loses to a3, which forks.
    let transcript = play_ttt(&["--first", "ai"], "a2\nc1\nc2\nquit\n");
    assert!(transcript.contains("AI plays b2"), "{transcript}");
    assert!(
        transcript.contains("AI plays a3 (it wins in 5 plies)"),
        "{transcript}"
    );
    assert!(transcript.contains("The AI wins"), "{transcript}");
    assert!(!transcript.contains("You win"), "{transcript}");
}

#[test]
fn refuses_bad_moves_and_keeps_the_game() {
    let transcript = play_ttt(&[], "b2\nb2\nd1\nhello\nundo\nundo\nhint\nnew\n");
    assert!(transcript.contains("b2 is already taken"), "{transcript}");
    assert!(transcript.contains("d1 is off the board"), "{transcript}");
    assert!(transcript.contains("cannot read 'hello'"), "{transcript}");
    assert!(transcript.contains("Taken back."), "{transcript}");
    assert!(transcript.contains("Nothing to undo."), "{transcript}");
    assert!(transcript.contains("Hint: "), "{transcript}");
    assert!(transcript.contains("New game."), "{transcript}");
    // Input ending without quit ends the program cleanly too.
}

fn play_ttt(args: &[&str], input: &str) -> String {
    let mut all = vec!["play", "tictactoe"];
    all.extend_from_slice(args);
    typed(&all, input)
}

/// A tree is a textbook search's: asking the default searcher for one says which to choose
/// (it said only "the engine records none"). A win in one ply reads "1 ply".
#[test]
fn solve_says_what_a_tree_needs_and_counts_plies() {
    fails_with(
        &["solve", "tictactoe", "--tree", "/tmp/never-written.json"],
        "add --algo minimax, negamax, alphabeta or pvs",
    );
    let output = wuzi(&["solve", "tictactoe", "--moves", "a1 b1 a2 b2"]);
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("first-player-win in 1 ply\n"), "{text}");
}
