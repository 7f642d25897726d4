//! Learn mode on the command line: `wuzi analyze --algo` and `wuzi solve --moves/--depth/--tree`.

mod common;

use common::{json, wuzi};

#[test]
fn the_textbook_algorithms_agree_on_a_gomoku_position() {
    let out = json(&[
        "analyze",
        "--algo",
        "minimax,negamax,alphabeta,pvs,engine",
        "--depth",
        "3",
        "--width",
        "8",
        "--json",
        "h8",
        "i9",
        "i8",
        "g8",
        "j10",
    ]);
    let results = out["results"].as_array().unwrap();
    assert_eq!(results.len(), 5);
    for r in &results[1..4] {
        assert_eq!(r["score"], results[0]["score"], "{}", r["algorithm"]);
        assert_eq!(
            r["best_move"], results[0]["best_move"],
            "{}",
            r["algorithm"]
        );
    }
    assert_eq!(results[0]["nodes"], results[1]["nodes"]);
    assert!(results[2]["nodes"].as_u64() < results[0]["nodes"].as_u64());
    for r in results {
        for field in ["best_move", "score", "nodes", "millis", "pv"] {
            assert!(!r[field].is_null(), "{field} of {}", r["algorithm"]);
        }
    }
}

#[test]
fn the_tree_goes_to_a_file_and_its_cap_is_an_error() {
    let dir = std::env::temp_dir().join(format!("wuzi-learn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("tree.json");
    let path = file.to_str().unwrap();
    let out = json(&[
        "solve",
        "tictactoe",
        "--moves",
        "b2 a1",
        "--algo",
        "alphabeta",
        "--tree",
        path,
        "--json",
    ]);
    let nodes = out["results"][0]["nodes"].as_u64().unwrap();
    let tree: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(tree["nodes"].as_u64(), Some(nodes));
    assert_eq!(tree["algorithm"], "alphabeta");
    assert_eq!(out["results"][0]["score"], 0, "b2 a1 is still a draw");

    let small = wuzi(&[
        "solve",
        "tictactoe",
        "--algo",
        "minimax",
        "--tree",
        path,
        "--max-nodes",
        "50",
    ]);
    assert_eq!(small.status.code(), Some(2));
    let error = String::from_utf8_lossy(&small.stderr);
    assert!(
        error.contains("more than 50 nodes") && error.lines().count() == 1,
        "{error}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn solve_starts_from_a_position() {
    // X has two in a row with the third free: X to move wins at once.
    let out = json(&["solve", "tictactoe", "--moves", "a1 b1 a2 b2", "--json"]);
    assert_eq!(out["result"], "first-player-win");
    assert_eq!(out["best_move"], "a3");
    assert_eq!(out["plies"], 1);
    let depth = json(&[
        "solve", "mnk", "--width", "4", "--height", "3", "--k", "3", "--algo", "pvs", "--depth",
        "3", "--json",
    ]);
    assert_eq!(depth["results"][0]["algorithm"], "pvs");
}

#[test]
fn bad_learn_input_is_one_line_and_exit_2() {
    for args in [
        &["analyze", "--algo", "bogus", "--depth", "2", "h8"][..],
        &["analyze", "--algo", "minimax", "h8"],
        &["analyze", "--tree", "t.json", "h8"],
        &["analyze", "--width", "8", "h8"],
        &["analyze", "--give-up-after", "5", "h8"],
        // Plain minimax to depth 5 of an opening: far longer than a second.
        &[
            "analyze",
            "--algo",
            "minimax",
            "--depth",
            "5",
            "--give-up-after",
            "1",
            "h8 i9",
        ],
        &["solve", "tictactoe", "--moves", "a1 a1"],
        &["solve", "tictactoe", "--moves", "a1 b1 a2 b2 a3"],
    ] {
        let out = wuzi(args);
        let error = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {error}");
        assert_eq!(error.lines().count(), 1, "{args:?}: {error}");
    }
    // A depth of 0 is refused by the argument parser itself, as every zero limit is.
    let out = wuzi(&["analyze", "--algo", "minimax", "--depth", "0", "h8"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("must be 1 or more"));
}

/// The lines a documented console example prints after `$ COMMAND`, up to the next command or
/// the end of the block, with each `time N ms` column (the one figure a machine changes) cut.
fn documented_output(doc: &str, command: &str) -> Vec<String> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(doc),
    )
    .unwrap();
    let mut lines = text.lines().skip_while(|l| *l != format!("$ {command}"));
    assert!(lines.next().is_some(), "{doc} shows no `$ {command}`");
    lines
        .take_while(|l| !l.starts_with("$ ") && !l.starts_with("```"))
        .map(without_time)
        .collect()
}

fn without_time(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "time" && words.get(i + 2) == Some(&"ms") {
            i += 3;
            continue;
        }
        kept.push(words[i]);
        i += 1;
    }
    kept.join(" ")
}

/// The README's and the walkthrough's first Learn example print what the command prints:
/// its node counts and values move whenever the evaluation is retuned, and the docs must
/// move with them.
#[test]
fn the_documented_comparison_is_what_the_command_prints() {
    let command = "wuzi analyze --algo minimax,negamax,alphabeta,pvs,engine --depth 3 --width 8 \
                   h8 i9 i8 g8 j10";
    let args: Vec<&str> = command.split_whitespace().skip(1).collect();
    let output = wuzi(&args);
    assert!(output.status.success());
    let printed: Vec<String> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(without_time)
        .collect();
    for doc in ["README.md", "docs/learn.md"] {
        assert_eq!(documented_output(doc, command), printed, "{doc}");
    }
}
