//! The `wuzi` binary's Gomoku commands, run as a user runs them.

mod common;

use common::{fails_with, json, scratch_dir, sgf_file, typed, wuzi};
use serde_json::Value;

#[test]
fn show_reports_turn_result_and_threats() {
    let v = json(&["show", "--json", "h8", "i9", "h9"]);
    assert_eq!(v["size"], 15);
    assert_eq!(v["rule"], "freestyle");
    assert_eq!(v["to_move"], "white");
    assert_eq!(v["result"], Value::Null);
    assert_eq!(v["reason"], Value::Null);
    assert_eq!(v["forbidden"], serde_json::json!([]));
    assert_eq!(v["last_move"], "h9");

    let five = json(&["show", "--json", "h8 a1 i8 a2 j8 a3 k8 a4 l8"]);
    assert_eq!(five["result"], "black");
    assert_eq!(five["reason"], "five");

    // The same list in Gomocup notation, and as stones.
    let gomocup = json(&["show", "--json", "7,7 8,6 7,6"]);
    assert_eq!(gomocup["moves"], v["moves"]);
    let stones = json(&["show", "--json", "--black", "h8,h9", "--white", "i9"]);
    assert_eq!(stones["to_move"], "white");
    assert_eq!(stones["black"], v["black"]);
}

/// A record saved under another name is still a record, and a record goes alone.
#[test]
fn show_reads_a_record_of_any_name() {
    let dir = scratch_dir("show-any-name");
    let txt = dir.join("game.txt");
    std::fs::write(&txt, "(;FF[4]GM[4]SZ[15];B[hh];W[ii];B[hi])").unwrap();
    let txt = txt.to_str().unwrap();
    let out = wuzi(&["show", txt]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("stones: 2 black, 1 white"), "{text}");
    fails_with(&["show", txt, "h8"], "is a record file: give it alone");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record that says its rule and size keeps them, and a `--rule` or `--size` it overrides
/// is noted on stderr, not dropped without a word.
#[test]
fn a_record_s_own_rule_and_size_win_and_the_flags_are_noted() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/wuzi-match-standard.sgf"
    );
    let out = wuzi(&["show", file, "--rule", "renju", "--size", "19"]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("rule: standard, size: 15x15"), "{text}");
    let notes = String::from_utf8_lossy(&out.stderr);
    assert!(
        notes.contains("says its rule, standard: --rule renju is for records that do not"),
        "{notes}"
    );
    assert!(
        notes.contains("says its size, 15x15: --size 19 is for records that do not"),
        "{notes}"
    );
    let plain = wuzi(&["show", file]);
    assert!(plain.stderr.is_empty(), "{plain:?}");
}

/// `show` gives a record's players and a result the board does not show (a loss on time),
/// and notes a recorded result the board contradicts.
#[test]
fn show_gives_the_recorded_players_and_result() {
    let dir = scratch_dir("show-recorded");
    // `wuzi show` of a file holding `record`.
    let show = |name: &str, record: &str| {
        let file = dir.join(name);
        std::fs::write(&file, record).unwrap();
        wuzi(&["show", file.to_str().unwrap()])
    };
    let out = show(
        "timeout.sgf",
        "(;FF[4]GM[4]SZ[15]PB[alpha]PW[be\u{1b}[2Jta]RE[B+1]TE[White loses on time];B[hh];W[ii])",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    // No escape sequence from a record reaches the terminal.
    assert!(
        text.contains("players: alpha (black), be?[2Jta (white)"),
        "{text}"
    );
    assert!(
        text.contains("recorded result: black wins (White loses on time)"),
        "{text}"
    );
    let out = show(
        "wrong.sgf",
        "(;FF[4]GM[4]SZ[15]RE[W+1];B[hh];W[aa];B[ih];W[ab];B[jh];W[ac];B[kh];W[ad];B[lh])",
    );
    let notes = String::from_utf8_lossy(&out.stderr);
    assert!(
        notes.contains("the record says white wins, but on the board black wins (five)"),
        "{notes}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn show_marks_renju_fouls_and_their_reasons() {
    // Black to move; j8 would make two open threes (h8-i8-j8 and j10-j9-j8... here j7, j9).
    let moves = "h8 a1 i8 a2 j9 a3 j10 a15";
    let v = json(&["show", "--json", "--rule", "renju", moves]);
    assert_eq!(v["to_move"], "black");
    assert_eq!(v["forbidden"], serde_json::json!(["j8"]));
    let text = String::from_utf8(wuzi(&["show", "--rule", "renju", moves]).stdout).unwrap();
    assert!(
        text.contains("forbidden for black: j8 (double-three)"),
        "{text}"
    );
    // Playing it loses.
    let lost = json(&["show", "--json", "--rule", "renju", &format!("{moves} j8")]);
    assert_eq!(lost["result"], "white");
    assert_eq!(lost["reason"], "double-three");
    // Freestyle has no fouls.
    let free = json(&["show", "--json", moves]);
    assert_eq!(free["forbidden"], serde_json::json!([]));
    assert_eq!(free["fouls"], serde_json::json!([]));
    // With White to move, Black's forbidden points as the stones stand, for White's plans:
    // marked and listed with their fouls, while `forbidden` (where the side to move may not
    // play) is empty.
    let white_to_move = "h8 a1 i8 a2 j9 a3 j10";
    let v = json(&["show", "--json", "--rule", "renju", white_to_move]);
    assert_eq!(v["forbidden"], serde_json::json!([]));
    assert_eq!(
        v["fouls"],
        serde_json::json!([{"point": "j8", "foul": "double-three"}])
    );
    let text = String::from_utf8(wuzi(&["show", "--rule", "renju", white_to_move]).stdout).unwrap();
    assert!(
        text.contains("forbidden for black as the stones stand: j8 (double-three)"),
        "{text}"
    );
    assert!(text.contains(" 8 . . . . . . . X X # "), "{text}");
}

#[test]
fn bad_positions_get_clear_errors() {
    fails_with(&["show", "h8", "h8"], "occupied");
    fails_with(&["show", "h8", "z99"], "z99");
    fails_with(&["show", "--size", "4"], "size");
    fails_with(&["show", "--size", "23"], "size");
    fails_with(&["show", "--black", "h8", "i9"], "not both");
    fails_with(&["show", "--black", "h8,h9,h10"], "side to move");
    let file = "tests/data/wuzi-match-standard.sgf";
    fails_with(&["show", "--to-move", "white", file], "--to-move is for");
    fails_with(&["analyze", "--json", "h8 a1 i8 a2 j8 a3 k8 a4 l8"], "over");
    // A mistyped file name is a missing file, not a bad move.
    fails_with(
        &["show", "nosuch.txt"],
        "nosuch.txt: no such file (nor is it a move)",
    );
    fails_with(&["show", "tests/"], "tests/: not a file");
    fails_with(
        &["review", file, "--move", "0"],
        "--move 0 is the position before the first",
    );
}

/// A file of moves alone is a record too.
#[test]
fn a_file_of_moves_is_read_as_a_move_list() {
    let dir = scratch_dir("moves-file");
    let moves = dir.join("moves.txt");
    std::fs::write(&moves, "h8 i9\nh9\n").unwrap();
    let out = wuzi(&["show", moves.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("stones: 2 black, 1 white"), "{text}");
    // A word that reads as a move is one, even beside a file of that name.
    std::fs::write(dir.join("h8"), "i9 h9\n").unwrap();
    let show_in_dir = |word: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_wuzi"))
            .args(["show", word])
            .current_dir(&dir)
            .output()
            .unwrap()
    };
    let beside = show_in_dir("h8");
    let text = String::from_utf8_lossy(&beside.stdout);
    assert!(text.contains("stones: 1 black, 0 white"), "{beside:?}");
    let note = String::from_utf8_lossy(&beside.stderr);
    assert!(note.contains("give ./h8"), "{note}");
    let file = show_in_dir("./h8");
    let text = String::from_utf8_lossy(&file.stdout);
    assert!(text.contains("stones: 1 black, 1 white"), "{file:?}");
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my game against Ann").unwrap();
    fails_with(&["show", notes.to_str().unwrap()], "nor a move list");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn analyze_finds_the_win_and_reports_it_as_forced() {
    // Black h8-k8 is open: a win in one.
    let v = json(&[
        "analyze",
        "--json",
        "--depth",
        "4",
        "h8 a1 i8 a2 j8 a3 k8 b15",
    ]);
    assert!(v["best_move"] == "g8" || v["best_move"] == "l8", "{v}");
    assert_eq!(v["forced"], "win");
    assert_eq!(v["plies"], 1);
    assert_eq!(v["win_chance"], 1.0);
    for key in ["score", "depth", "nodes", "nps", "pv"] {
        assert!(!v[key].is_null(), "{key}");
    }
    assert!(v.get("forbidden_block").is_none(), "{v}");
}

/// Under renju a line can end with Black's forced block on a forbidden point (the loss the
/// score counts): "pv k11 h8" read as if Black blocked at h8 and the game went on.
#[test]
fn analyze_names_a_line_s_forbidden_block() {
    let position = [
        "--rule",
        "renju",
        "--black",
        "f6,f8,g8,h6,h7",
        "--white",
        "g7,i9,j10,a1",
        "--to-move",
        "white",
        "--depth",
        "4",
    ];
    let v = json(&[&["analyze", "--json"][..], &position[..]].concat());
    assert_eq!(v["pv"], serde_json::json!(["k11", "h8"]), "{v}");
    assert_eq!(v["forbidden_block"], "h8", "{v}");
    let out = common::wuzi(&[&["analyze"][..], &position[..]].concat());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(
            "pv k11 h8 (h8 is Black's only block, forbidden: double-three; Black loses there)"
        ),
        "{text}"
    );
}

#[test]
fn analyze_is_deterministic_under_depth_and_node_limits() {
    let moves = "h8 i9 h9 h10 i8 g8";
    for limit in [["--depth", "5"], ["--nodes", "20000"]] {
        let args = ["analyze", "--json", limit[0], limit[1], moves];
        let (a, b) = (json(&args), json(&args));
        assert_eq!(a["best_move"], b["best_move"]);
        assert_eq!(a["nodes"], b["nodes"]);
        assert_eq!(a["score"], b["score"]);
    }
}

#[test]
fn analyze_prints_a_line_per_depth() {
    let out = wuzi(&["analyze", "--depth", "3", "h8", "i9"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let depth_lines = text.lines().filter(|l| l.starts_with("depth")).count();
    assert!(depth_lines >= 3, "{text}");
    assert!(text.contains("best move"), "{text}");
    // Unproven: the score comes with the side to move's chance (Black after h8 i9).
    let last = text.lines().last().unwrap();
    assert!(last.contains(", Black ") && last.contains("%)"), "{text}");
}

#[test]
fn analyze_lists_the_n_best_moves() {
    let moves = "h8 i9 h9 h7";
    let args = [
        "analyze", "--json", "--nodes", "20000", "--nbest", "3", moves,
    ];
    let v = json(&args);
    let lines = v["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{v}");
    // The object is the first line's analysis; the lines are scored at one depth, best first.
    for key in ["best_move", "score", "depth", "nodes", "pv"] {
        assert_eq!(v[key], lines[0][key], "{key}");
    }
    let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(lines.iter().all(|l| l["depth"] == lines[0]["depth"]), "{v}");
    let best: Vec<&str> = lines
        .iter()
        .map(|l| l["best_move"].as_str().unwrap())
        .collect();
    assert!(
        best[0] != best[1] && best[1] != best[2] && best[0] != best[2],
        "{best:?}"
    );
    let again = json(&args);
    for (a, b) in lines.iter().zip(again["lines"].as_array().unwrap()) {
        for key in ["best_move", "score", "nodes", "depth", "pv"] {
            assert_eq!(a[key], b[key], "node-limited lists are repeatable: {key}");
        }
    }
    // The text: a progress line per depth for each move, then a line per move.
    let text = String::from_utf8(wuzi(&["analyze", "--depth", "4", "--nbest", "2", moves]).stdout)
        .unwrap();
    assert!(text.lines().any(|l| l.starts_with("#2 depth")), "{text}");
    assert!(text.lines().any(|l| l.starts_with(" 2. ")), "{text}");
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with(" 1. ") || l.starts_with(" 2. "))
        .collect();
    assert_eq!(listed.len(), 2, "{text}");
    for line in listed {
        assert!(
            line.contains(", Black ") && line.contains('%'),
            "the mover's chance: {text}"
        );
    }
    assert!(!text.contains("lines asked"), "{text}");
    // The empty board has one candidate, the centre: the text says why there is one line.
    let text =
        String::from_utf8(wuzi(&["analyze", "--nodes", "1000", "--nbest", "5"]).stdout).unwrap();
    assert!(
        text.contains("(1 of the 5 lines asked: the engine's root considers no other move"),
        "{text}"
    );
    fails_with(&["analyze", "--nbest", "0", moves], "0");
    fails_with(
        &[
            "analyze", "--nbest", "2", "--algo", "minimax", "--depth", "2", moves,
        ],
        "--algo",
    );
}

#[test]
fn review_grades_each_move_and_finds_the_losing_one() {
    let file = "tests/data/wuzi-match-standard.sgf";
    let v = json(&["review", file, "--nodes", "50000", "--json"]);
    assert_eq!(v["rule"], "standard");
    let moves = v["moves"].as_array().expect("moves");
    // From the first move after the record's four opening stones to its last, the five.
    assert_eq!(moves.first().map(|m| &m["number"]), Some(&Value::from(5)));
    assert_eq!(
        moves.last().map(|m| &m["after"]),
        Some(&Value::from("wins (five)"))
    );
    assert_eq!(moves.len(), 21);
    // White's h8 lets Black's proven win in (the game's proof is at move 11).
    let ten = &moves[5];
    assert_eq!(
        (&ten["number"], &ten["side"], &ten["move"]),
        (&10.into(), &"white".into(), &"h8".into())
    );
    assert_eq!(ten["grade"], "blunder", "{ten}");
    assert_eq!(ten["reason"], "walks into a proven loss", "{ten}");
    assert_eq!(ten["chance_after"], 0.0);
    for m in moves {
        let (before, after) = (
            m["chance_before"].as_f64().unwrap(),
            m["chance_after"].as_f64().unwrap(),
        );
        assert!(
            (0.0..=1.0).contains(&before) && (0.0..=1.0).contains(&after),
            "{m}"
        );
        if m["grade"] == "best" {
            assert_eq!(m["engine"]["best_move"], m["move"], "{m}");
        }
    }
    let graded = |side: &str, key: &str| v[side][key].as_u64().unwrap();
    assert_eq!(graded("black", "moves") + graded("white", "moves"), 21);
    assert!(graded("white", "blunders") >= 1);
    assert_eq!(
        json(&["review", file, "--nodes", "50000", "--json"])["moves"][5]["grade"],
        "blunder"
    );
    // The text: a line a move, the engine's choice beside a move that was not it.
    let text = String::from_utf8(wuzi(&["review", file, "--nodes", "20000"]).stdout).unwrap();
    assert!(
        text.lines().any(|l| l.starts_with(" 10. white h8")
            && l.contains("blunder")
            && l.contains("best ")),
        "{text}"
    );
    assert!(text.contains("white: 10 moves"), "{text}");
    // A move list from the start; bad input is refused.
    let short = json(&["review", "--nodes", "2000", "--json", "h8 i9 h9"]);
    assert_eq!(short["moves"].as_array().map(Vec::len), Some(3));
    // Under renju a foul loses at once: the review says so.
    let foul = json(&[
        "review",
        "--rule",
        "renju",
        "--nodes",
        "2000",
        "--json",
        "h8 a1 i8 a2 j9 a3 j10 a15 j8",
    ]);
    let last = &foul["moves"][8];
    assert_eq!(
        (&last["move"], &last["grade"]),
        (&"j8".into(), &"blunder".into()),
        "{last}"
    );
    assert_eq!(last["after"], "loses (double-three)", "{last}");
    fails_with(&["review", "h8", "h8"], "occupied");
    fails_with(&["review", "--from", "9", "h8 i9"], "2 moves");
    fails_with(&["review", "--size", "9"], "no moves");
    // A record cut inside its opening has nothing the players chose: not graded unasked.
    let rapfi = sgf_file("c-gomoku-cli-wuzi-rapfi.sgf");
    fails_with(
        &["review", &rapfi, "--move", "8", "--nodes", "100"],
        "nothing to review: all 8 moves are the record's opening",
    );
}

/// A record file as users have them: a match's record cut short or with a bad game appended
/// (the other games stay readable), no `SZ` (`--size` says it), a name in Latin-1, and
/// `RU[2]` (renju, as some managers send the rule).
#[test]
fn records_read_what_can_be_read() {
    let dir = scratch_dir("records");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let whole = std::fs::read_to_string(sgf_file("c-gomoku-cli-wuzi-rapfi.sgf")).unwrap();
    let cut = path("cut.sgf");
    std::fs::write(&cut, &whole[..whole.len() - 60]).unwrap();
    let first = json(&["show", "--json", &whole_path(), "--game", "1"]);
    assert_eq!(json(&["show", "--json", &cut, "--game", "1"]), first);
    let games = whole.matches("(;").count();
    let last = games.to_string();
    fails_with(&["show", &cut, "--game", &last], &format!("game {last}:"));
    let more = (games + 1).to_string();
    fails_with(&["show", &cut, "--game", &more], &format!("game {last}:"));
    fails_with(
        &["proofs", &cut, "--nodes", "100"],
        &format!("game {last}:"),
    );
    let appended = path("appended.sgf");
    std::fs::write(&appended, format!("{whole}\n(;SZ[15];B[hh];W[hh])\n")).unwrap();
    assert_eq!(json(&["show", "--json", &appended, "--game", "1"]), first);
    let past = (games + 2).to_string();
    fails_with(
        &["show", &appended, "--game", &past],
        &format!("holds {} games: --game {past}", games + 1),
    );
    // A last game that cannot be read may have taken in the games after it (an open comment
    // does): the error names it.
    fails_with(
        &["show", &appended, "--game", &past],
        &format!("its last, game {}, cannot be read: ", games + 1),
    );
    fails_with(&["show", &appended, "--game", "0"], "numbered from 1");

    let no_size = path("no-size.sgf");
    std::fs::write(&no_size, "(;FF[4]GM[4];B[jj];W[ss])").unwrap();
    let twenty = json(&["show", "--json", "--size", "20", &no_size]);
    assert_eq!(twenty["size"], 20, "{twenty}");
    fails_with(&["show", &no_size], "not on the 15x15 board");
    // A size no board has, for a record that needs it, is an error (it used to panic).
    let stones = path("stones.sgf");
    std::fs::write(&stones, "(;FF[4]GM[4]AB[aa]AW[zz];B[bb])").unwrap();
    fails_with(&["show", "--size", "26", &stones], "has no SZ");
    fails_with(&["proofs", "--size", "26", &stones], "has no SZ");

    let latin1 = path("latin1.sgf");
    std::fs::write(
        &latin1,
        b"(;FF[4]GM[4]SZ[15]CA[ISO-8859-1]PB[J\xf6rg];B[hh];W[ii])".as_slice(),
    )
    .unwrap();
    assert_eq!(
        json(&["show", "--json", &latin1])["moves"],
        serde_json::json!(["h8", "i7"])
    );

    let ru2 = path("ru2.sgf");
    std::fs::write(&ru2, "(;FF[4]GM[4]RU[2]SZ[15];B[hh])").unwrap();
    assert_eq!(json(&["show", "--json", &ru2])["rule"], "renju");
    std::fs::remove_dir_all(&dir).unwrap();

    fn whole_path() -> String {
        sgf_file("c-gomoku-cli-wuzi-rapfi.sgf")
    }
}

#[test]
fn bench_prints_its_signature() {
    let out = wuzi(&["bench", "--depth-offset", "-4"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("Nodes searched  :"), "{text}");
    let a = json(&["bench", "--json", "--depth-offset", "-4"]);
    let b = json(&["bench", "--json", "--depth-offset", "-4"]);
    assert_eq!(a["nodes"], b["nodes"], "the signature is deterministic");
}

/// Issue 17's position: White threatens five at f12, a double three for Black.
const LOST_WITH_A_FORBIDDEN_BLOCK: &str = "g12 g9 i8 f10 h10 f9 i9 e11 h8 c13 d12 f11 f8 f13";
/// 7x7, Black to move, and the only empty point (d7) is an overline for Black.
const NO_LEGAL_MOVE: &str = "g2 f3 c5 e3 g1 d5 c2 d4 a1 e5 b4 d6 g7 g6 b5 d3 f6 f2 a6 f1 a7 a4 \
     c6 a5 b7 c4 e2 b2 g3 f4 f5 b3 d1 g5 g4 a3 c3 b1 e7 a2 e6 c1 c7 e1 d2 b6 f7 e4";

#[test]
fn renju_black_is_never_told_to_play_a_forbidden_point() {
    let moves = LOST_WITH_A_FORBIDDEN_BLOCK;
    let v = json(&[
        "analyze", "--rule", "renju", "--json", "--nodes", "20000", moves,
    ]);
    let best = v["best_move"].as_str().unwrap();
    assert_ne!(best, "f12", "{v}");
    assert_eq!(
        (v["forced"].as_str(), v["plies"].as_u64()),
        (Some("loss"), Some(2))
    );
    let shown = json(&["show", "--rule", "renju", "--json", moves, best]);
    assert_eq!(shown["forbidden"], serde_json::json!([]), "{shown}");

    // The AI plays Black in the terminal game: a legal move, not f12.
    let text = typed(
        &[
            "play", "--rule", "renju", "--colour", "white", "--time", "100", "--moves", moves,
        ],
        "quit\n",
    );
    let played = text
        .lines()
        .find_map(|l| l.strip_prefix("AI plays "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(!played.starts_with("f12"), "{text}");

    fails_with(
        &["analyze", "--size", "7", "--rule", "renju", NO_LEGAL_MOVE],
        "Black has no legal move",
    );
}

/// Every front end says the same when renju Black cannot move: `show`, and the line-mode
/// game whichever side the player takes (the player as Black was asked for a move).
#[test]
fn no_legal_move_is_said_alike_everywhere() {
    let on_7x7 = ["--size", "7", "--rule", "renju"];
    let shown = json(&[&["show", "--json"][..], &on_7x7, &[NO_LEGAL_MOVE]].concat());
    assert_eq!(shown["no_legal_move"], true, "{shown}");
    assert_eq!(shown["result"], serde_json::Value::Null, "{shown}");
    let text = String::from_utf8(wuzi(&[&["show"][..], &on_7x7, &[NO_LEGAL_MOVE]].concat()).stdout)
        .unwrap();
    assert!(
        text.contains("to move: black, who has no legal move"),
        "{text}"
    );
    let plain = json(&["show", "--json", "--rule", "renju", "h8"]);
    assert_eq!(plain["no_legal_move"], false, "{plain}");
    for colour in ["black", "white"] {
        let args = [
            &[
                "play",
                "--colour",
                colour,
                "--time",
                "100",
                "--moves",
                NO_LEGAL_MOVE,
            ][..],
            &on_7x7,
        ]
        .concat();
        let text = typed(&args, "new\nquit\n");
        assert!(
            text.contains("Black has no legal move: every empty point is forbidden under renju. Type undo, new or quit."),
            "{colour}: {text}"
        );
        // `new` cannot start again from there: it starts from an empty board (where the
        // engine, playing Black, may have moved already).
        let after_new = &text[text.find("New game.").expect("new")..];
        assert!(after_new.contains(" 0 white"), "{colour}: {text}");
        assert!(!after_new.contains("no legal move"), "{colour}: {text}");
    }
}

#[test]
fn a_closed_pipe_ends_quietly_with_success() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    // `wuzi show h8 | head -c 1`: the reader takes one byte and goes away.
    for args in [&["show", "h8"][..], &["show", "--json", "h8"], &["--help"]] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let mut byte = [0u8; 1];
        stdout.read_exact(&mut byte).unwrap();
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{args:?}: {:?}", out.status);
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
    // And through a shell, as the issue has it.
    let shell = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "set -o pipefail; '{}' show h8 | head -c 1 >/dev/null; echo $?",
            env!("CARGO_BIN_EXE_wuzi")
        ))
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&shell.stderr), "");
    assert_eq!(String::from_utf8_lossy(&shell.stdout).trim(), "0");
    // The reader is gone before the first write (`| true`), so every write fails: this is
    // the case that used to panic.
    for args in [
        "show h8",
        "show --json h8",
        "show --format sgf h8",
        "analyze --depth 3 h8",
    ] {
        let shell = Command::new("bash")
            .arg("-c")
            .arg(format!(
                "{{ sleep 0.3; exec '{}' {args} </dev/null; }} | true; echo ${{PIPESTATUS[0]}}",
                env!("CARGO_BIN_EXE_wuzi")
            ))
            .output()
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&shell.stderr), "", "{args}");
        assert_eq!(String::from_utf8_lossy(&shell.stdout).trim(), "0", "{args}");
    }
    // Output that cannot be written (a full disk) is no success: a script would take the
    // empty file for the result. Found by a packager's review.
    #[cfg(target_os = "linux")]
    for args in [
        &["show", "h8"][..],
        &["analyze", "--json", "--depth", "2", "h8"],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_wuzi"))
            .args(args)
            .stdout(std::fs::File::create("/dev/full").unwrap())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("wuzi: cannot write the output: "),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn user_errors_are_one_line_with_status_2() {
    for args in [
        &["show", "h8", "h8"][..],
        &["show", "no-such-file.sgf"],
        &["analyze", "--depth", "2", "h8", "--move", "3"],
        &["play", "--plain", "--load", "no-such-file.sgf"],
        &["proofs", "no-such-file.sgf"],
    ] {
        let out = wuzi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.starts_with("wuzi: "), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    // An error quoting a file's bytes does not pass its escape sequences to the terminal
    // (this one cleared the screen).
    let dir = scratch_dir("escape");
    let file = dir.join("esc.sgf");
    std::fs::write(&file, "(;GM[4]SZ[15]\x1b[2J;B[hh])").unwrap();
    let out = wuzi(&["show", file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("unexpected `?`"), "{stderr}");
    assert!(!stderr.contains('\x1b'), "{stderr}");
    // Nor does a note about a second game that breaks off.
    std::fs::write(&file, "(;GM[4]SZ[15];B[hh])\n(;GM[4]SZ[15]\x1b[2J;B[hh])").unwrap();
    let out = wuzi(&["show", file.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.starts_with("note: ") && stderr.contains('?'),
        "{stderr}"
    );
    assert!(!stderr.contains('\x1b'), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_command_shows_an_example() {
    for command in [
        "play", "show", "analyze", "proofs", "bench", "match", "gomocup", "serve", "solve",
        "selfplay", "tune", "perft",
    ] {
        let out = wuzi(&[command, "--help"]);
        assert!(out.status.success(), "{command}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("Example"), "{command}: {text}");
        assert!(text.contains(&format!("wuzi {command}")) || command == "gomocup");
    }
    let text = String::from_utf8(wuzi(&["play", "tictactoe", "--help"]).stdout).unwrap();
    assert!(text.contains("wuzi play tictactoe"), "{text}");
}

/// A win the deeper search still does not prove is handed to the threat solver, which proves
/// it here: a missed proof, not a false one (tests/data/SOURCE.md tells the game's story).
#[test]
fn proofs_recheck_asks_the_threat_solver_too() {
    let file = format!(
        "{}/tests/data/wuzi-selfplay-standard.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = [
        "proofs",
        &file,
        "--player",
        "a",
        "--nodes",
        "100000",
        "--recheck",
        "10",
    ];
    let v = json(&[&args[..], &["--json"]].concat());
    let suspects = v["suspects"].as_array().unwrap();
    assert_eq!(suspects.len(), 1, "{v}");
    assert_eq!(suspects[0]["after_moves"], 22);
    assert_eq!(suspects[0]["recheck"]["forced"], Value::Null, "{v}");
    assert_eq!(suspects[0]["threat_win"]["plies"], 31, "{v}");
    assert_eq!(suspects[0]["threat_win"]["line"][0], "h13", "{v}");
    let text = String::from_utf8(wuzi(&args).stdout).unwrap();
    assert!(
        text.contains(
            "it still proves no win, but the threat solver proves one in 31 plies (h13): a \
             missed proof, not a false one"
        ),
        "{text}"
    );
    assert!(text.contains("1 of them proven again"), "{text}");
}

/// `wuzi proofs` lists a proven win, its first move played, that the same side's next position
/// does not prove. In this game (standard rule, wuzi Black), 20,000 nodes prove a win in 15
/// plies after move 10, the game plays its first move, and after move 12 the same budget
/// proves nothing (the root's threat search gets a tenth of it and needs more); node-limited
/// searches repeat, so the listing does. A change to the search may move it (as it moves
/// `wuzi bench`'s count); the game then needs another budget.
#[test]
fn proofs_lists_a_win_the_next_position_does_not_prove() {
    let file = format!(
        "{}/tests/data/wuzi-match-standard.sgf",
        env!("CARGO_MANIFEST_DIR")
    );
    let args = ["proofs", &file, "--player", "wuzi", "--nodes", "20000"];
    let v = json(&[&args[..], &["--json"]].concat());
    // wuzi (Black) is to move after moves 4, 6, ..., 24 of the 25: eleven positions.
    assert_eq!(v["positions"], 11);
    // The name as a person types it.
    let capitalised = json(&[
        "proofs", &file, "--player", "Wuzi", "--nodes", "1", "--json",
    ]);
    assert_eq!(capitalised["positions"], 11);
    let suspects = v["suspects"].as_array().unwrap();
    assert_eq!(suspects.len(), 1, "{v}");
    assert_eq!(suspects[0]["game"], 1);
    assert_eq!(suspects[0]["after_moves"], 10);
    assert_eq!(suspects[0]["side"], "black");
    assert_eq!(suspects[0]["plies"], 15);
    assert_eq!(suspects[0]["next"]["forced"], Value::Null);
    // With more nodes the next position proves the win, two plies shorter: a missed proof,
    // not a false one.
    let deeper = json(&[
        "analyze", "--json", "--nodes", "200000", &file, "--move", "12",
    ]);
    assert_eq!(deeper["forced"], "win", "{deeper}");
    assert_eq!(deeper["plies"], 13, "{deeper}");
    let text = String::from_utf8(wuzi(&args).stdout).unwrap();
    assert!(
        text.contains(
            "after 10 moves black proves a win in 15 plies and plays it; after 12 moves it proves no win"
        ),
        "{text}"
    );
    // --recheck does that second search itself: ten times the nodes prove the win.
    let rechecked = json(&[&args[..], &["--recheck", "10", "--json"]].concat());
    assert_eq!(
        rechecked["suspects"][0]["recheck"]["forced"], "win",
        "{rechecked}"
    );
    assert_eq!(
        rechecked["suspects"][0]["recheck"]["plies"], 13,
        "{rechecked}"
    );
    // On two threads: the same suspects, rechecked the same way.
    let two = json(
        &[
            &args[..],
            &["--recheck", "10", "--json", "--concurrency", "2"],
        ]
        .concat(),
    );
    assert_eq!(
        two["suspects"].as_array().map(Vec::len),
        rechecked["suspects"].as_array().map(Vec::len)
    );
    for (a, b) in two["suspects"]
        .as_array()
        .unwrap()
        .iter()
        .zip(rechecked["suspects"].as_array().unwrap())
    {
        assert_eq!(
            (&a["game"], &a["after_moves"]),
            (&b["game"], &b["after_moves"])
        );
        assert_eq!(a["recheck"]["forced"], b["recheck"]["forced"]);
        assert_eq!(a["recheck"]["best_move"], b["recheck"]["best_move"]);
        assert_eq!(a["recheck"]["nodes"], b["recheck"]["nodes"]);
    }
    let text = String::from_utf8(wuzi(&[&args[..], &["--recheck", "10"]].concat()).stdout).unwrap();
    assert!(
        text.contains("with 10 times the budget it proves a win in 13 plies: a missed proof"),
        "{text}"
    );
    assert!(
        text.contains("1 of them proven again with 10 times the budget"),
        "{text}"
    );
    assert!(text.contains("11 positions searched: "), "{text}");
    // Rapfi's positions are searched with its name; a name no game has is an error.
    let rapfi = json(&[
        "proofs", &file, "--player", "rapfi", "--nodes", "1000", "--json",
    ]);
    assert_eq!(rapfi["positions"], 10);
    fails_with(&["proofs", &file, "--player", "nobody"], "no game");
    fails_with(&["proofs", &file, "--game", "2"], "holds 1 game:");
    fails_with(&["proofs", &file, "--game", "0"], "holds 1 game:");
    fails_with(&["proofs", "no-such-file.sgf"], "cannot read");
}

/// Games searched at the same time give the same list, in the games' order: a file of the
/// standard game above (with its contradicted win), the four games of a c-gomoku-cli record,
/// and the standard game again.
#[test]
fn proofs_on_several_threads_list_the_same() {
    let standard = std::fs::read_to_string(format!(
        "{}/tests/data/wuzi-match-standard.sgf",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let rapfi = std::fs::read_to_string(sgf_file("c-gomoku-cli-wuzi-rapfi.sgf")).unwrap();
    let file = format!("{}/proofs-threads.sgf", env!("CARGO_TARGET_TMPDIR"));
    std::fs::write(&file, format!("{standard}\n{rapfi}\n{standard}\n")).unwrap();
    let args = [
        "proofs", &file, "--player", "wuzi", "--nodes", "20000", "--json",
    ];
    // The searches' times (millis, nps) are the clock's; everything else must agree.
    fn untimed(mut v: Value) -> Value {
        for s in v["suspects"].as_array_mut().unwrap() {
            let next = s["next"].as_object_mut().unwrap();
            next.remove("millis");
            next.remove("nps");
        }
        v
    }
    let one = untimed(json(&args));
    let three = untimed(json(&[&args[..], &["--concurrency", "3"]].concat()));
    assert_eq!(one, three);
    let games: Vec<u64> = one["suspects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["game"].as_u64().unwrap())
        .collect();
    assert!(games.len() >= 2, "{one}");
    assert_eq!(games.first(), Some(&1), "{one}");
    assert_eq!(games.last(), Some(&6), "{one}");
    assert!(games.windows(2).all(|w| w[0] <= w[1]), "{one}");
}

#[test]
fn record_files_work_wherever_a_position_does() {
    let file = sgf_file("c-gomoku-cli-wuzi-rapfi.sgf");
    let end = json(&["show", "--json", &file, "--game", "2"]);
    assert_eq!(end["result"], "black");
    assert_eq!(end["reason"], "five");
    let early = json(&["show", "--json", &file, "--move", "20"]);
    assert_eq!(early["moves"].as_array().unwrap().len(), 20);
    assert_eq!(early["result"], serde_json::Value::Null);
    let analysis = json(&["analyze", "--json", "--depth", "2", &file, "--move", "20"]);
    assert!(analysis["best_move"].is_string());

    // show --format sgf writes a record that reads back as the same position.
    let out = wuzi(&["show", "--format", "sgf", &file, "--move", "20"]);
    assert!(out.status.success());
    let sgf = String::from_utf8(out.stdout).unwrap();
    assert!(sgf.starts_with("(;FF[4]GM[4]"), "{sgf}");
    assert!(sgf.contains("PB[wuzi]PW[rapfi01]"), "{sgf}");
    let copy = std::env::temp_dir().join(format!("wuzi-cli-{}.sgf", std::process::id()));
    std::fs::write(&copy, &sgf).unwrap();
    let again = json(&["show", "--json", copy.to_str().unwrap()]);
    std::fs::remove_file(&copy).unwrap();
    assert_eq!(again["moves"], early["moves"]);
    let moves = wuzi(&["show", "--format", "sgf", "h8", "i9"]);
    assert!(String::from_utf8_lossy(&moves.stdout).contains(";B[hh];W[ig])"));

    // A Piskvork record.
    let psq = std::env::temp_dir().join(format!("wuzi-cli-{}.psq", std::process::id()));
    std::fs::write(&psq, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,10\n-1\n").unwrap();
    let shown = json(&["show", "--json", psq.to_str().unwrap()]);
    std::fs::remove_file(&psq).unwrap();
    assert_eq!(shown["moves"], serde_json::json!(["h8", "i7"]));

    // The line-mode game goes on from a record's position.
    let played = typed(
        &[
            "play", "--plain", "--load", &file, "--move", "21", "--time", "50",
        ],
        "quit\n",
    );
    assert!(played.contains("freestyle, 15x15"), "{played}");
    assert!(
        played.contains("AI plays"),
        "Black is the player; White moves after 21: {played}"
    );

    fails_with(&["show", &file, "--game", "9"], "--game 9");
    fails_with(&["show", &file, "--move", "999"], "only");
    let bad = std::env::temp_dir().join(format!("wuzi-cli-bad-{}.sgf", std::process::id()));
    std::fs::write(&bad, "(;SZ[15]\n;B[hh];W[hh])").unwrap();
    fails_with(&["show", bad.to_str().unwrap()], "line 2, column 8");
    std::fs::remove_file(&bad).unwrap();
}

/// A renju record played on past a foul White did not claim reads up to the foul, with a
/// note; a position before it is there to analyse, one after it is refused saying why.
#[test]
fn a_record_played_on_past_a_foul_reads_to_the_foul() {
    let dir = scratch_dir("foul");
    let file = dir.join("foul.sgf");
    // Black's d15 (move 11) makes six in a row: an overline, a foul under renju.
    std::fs::write(
        &file,
        "(;GM[4]SZ[15]RU[4];B[aa];W[ac];B[ba];W[cc];B[ca];W[ec];B[ea];W[gc];B[fa];W[ic];\
         B[da];W[kk];B[ll])",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let out = wuzi(&["show", "--json", file]);
    assert!(out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the game ended at move 11 (overline); the 2 moves after it are not read"),
        "{stderr}"
    );
    let shown: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(shown["result"], "white");
    assert_eq!(shown["reason"], "overline");
    let before = json(&["analyze", "--json", "--depth", "2", file, "--move", "10"]);
    assert!(before["best_move"].is_string());
    fails_with(
        &["show", file, "--move", "12"],
        "--move 12: the game has only 11 moves",
    );
    // A set-up that is already over: the moves after it are noted, the position reads.
    let setup = dir.join("setup.sgf");
    std::fs::write(
        &setup,
        "(;GM[4]SZ[15]AB[aa][ba][ca][da][ea]AW[ab][bb];W[kk];B[ll])",
    )
    .unwrap();
    let out = wuzi(&["show", "--json", setup.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("the game was over in the set-up (five); the 2 moves after it"),
        "{stderr}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `wuzi selfplay`, then `wuzi tune --policy-only` plain, with `--waiter-factor 0.5` and with
/// `--shape-factor waiter:open-three=0.5`: each factor halves the waiting-side values it picks
/// (all of them, or the open-three group's; halves rounded away from zero), leaves the rest,
/// and the header repeats it; a factor out of range is refused.
#[test]
fn tune_scales_the_waiting_sides_tables_by_the_factors() {
    let dir = scratch_dir("tune");
    let data = dir.join("games.txt");
    let [plain, scaled] = [dir.join("plain.txt"), dir.join("scaled.txt")];
    let path = |p: &std::path::PathBuf| p.to_str().unwrap().to_string();
    let played = wuzi(&[
        "selfplay",
        "--games",
        "2",
        "--nodes",
        "300",
        "--out",
        &path(&data),
    ]);
    assert!(played.status.success(), "{played:?}");
    let data = path(&data);
    let tune = |out: &std::path::PathBuf, extra: &[&str]| {
        let out = path(out);
        let mut args = vec!["tune", "--data", &data, "--policy-only", "--epochs", "1"];
        args.extend_from_slice(&["--out", &out]);
        args.extend_from_slice(extra);
        let output = wuzi(&args);
        assert!(output.status.success(), "{output:?}");
        std::fs::read_to_string(out).unwrap()
    };
    let plain = tune(&plain, &[]);
    let scaled = tune(&scaled, &["--waiter-factor", "0.5"]);
    assert!(scaled.contains("--policy-terms codes,near,combo,local,state --waiter-factor 0.5"));
    let group = dir.join("group.txt");
    let group = tune(&group, &["--shape-factor", "waiter:open-three=0.5"]);
    assert!(group.contains("--shape-factor waiter:open-three=0.5"));
    let body = |text: &str| -> Vec<String> {
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    // Every line `halved` picks has its value halved, and no other line changes; returns
    // how many were halved.
    let compare = |scaled: &str, halved: &dyn Fn(&str) -> bool| {
        let (plain, scaled) = (body(&plain), body(scaled));
        assert_eq!(plain.len(), scaled.len());
        let mut count = 0;
        for (p, s) in plain.iter().zip(&scaled) {
            let fields: Vec<&str> = p.split_whitespace().collect();
            if halved(p) {
                let v: f64 = fields[2].parse().unwrap();
                let half = format!("{} {} {}", fields[0], fields[1], (v * 0.5).round());
                assert!(s.starts_with(&half), "{p} -> {s}");
                count += 1;
            } else {
                assert_eq!(p, s);
            }
        }
        count
    };
    let waiters = compare(&scaled, &|line| {
        line.split(' ').next().unwrap().ends_with("-waiter")
    });
    assert!(waiters > 900, "{waiters}");
    // The comment lists a code's shapes weakest first: its last is the strongest.
    let open_threes = compare(&group, &|line| {
        line.split(' ').next().unwrap().ends_with("-waiter")
            && line.ends_with(" open-three")
            && !line.contains("overline")
    });
    assert!((50..waiters).contains(&open_threes), "{open_threes}");
    for (flag, value, error) in [
        (
            "--shape-factor",
            "waiter:five=2",
            "the shape is one of one, two, open-two, three, open-three, four",
        ),
        ("--mover-factor", "0", "\"0\" is not a positive number"),
        ("--rate", "nan", "\"nan\" is not a positive number"),
        ("--l2", "-1", "\"-1\" is not a number of 0 or more"),
        ("--result-share", "7", "\"7\" is not a share from 0 to 1"),
        (
            "--rule",
            "renju",
            "has no renju positions (it has freestyle: give --rule)",
        ),
        ("--weights", "x", "--weights is read by --policy-only"),
    ] {
        let args = ["tune", "--data", &data, "--out", "x"];
        fails_with(&[&args[..], &[flag, value]].concat(), error);
    }
    let twice = [
        "--shape-factor",
        "mover:two=1.1",
        "--shape-factor",
        "mover:two=0.9",
    ];
    fails_with(
        &[&["tune", "--data", &data, "--out", "x"][..], &twice].concat(),
        "--shape-factor mover:two is given twice",
    );
    // A full fit of so few games reports no NaN: a loss over no held-out position is "-".
    let full = path(&dir.join("full.txt"));
    let fitted = wuzi(&["tune", "--data", &data, "--epochs", "1", "--out", &full]);
    assert!(fitted.status.success(), "{fitted:?}");
    let report = String::from_utf8_lossy(&fitted.stdout);
    assert!(
        report.contains("loss (train / held out)") && !report.contains("NaN"),
        "{report}"
    );
    // The training data is never overwritten by the weights.
    fails_with(
        &["tune", "--data", &data, "--out", &data],
        "is the training data: the weights would overwrite it",
    );
    // The next round of the loop plays the fitted tables, of their own rule only.
    let next = path(&dir.join("next.txt"));
    let plain_path = path(&dir.join("plain.txt"));
    let more = wuzi(&[
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "300",
        "--weights",
        &plain_path,
        "--out",
        &next,
    ]);
    assert!(more.status.success(), "{more:?}");
    assert!(std::fs::read_to_string(&next).unwrap().lines().count() > 5);
    fails_with(
        &[
            "selfplay",
            "--rule",
            "renju",
            "--weights",
            &plain_path,
            "--out",
            &next,
        ],
        "weights for freestyle, not renju (give --rule)",
    );
    fails_with(
        &["selfplay", "--weights", &plain_path, "--out", &plain_path],
        "is the --weights file: the positions would be appended to it",
    );
    // An --out that cannot be written is refused before the fit, not after it.
    let nowhere = dir.join("no-such-dir").join("w.txt");
    let nowhere = nowhere.to_str().unwrap();
    fails_with(&["tune", "--data", &data, "--out", nowhere], "cannot write");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `wuzi selfplay --openings FILE` plays the file's openings, each once; a missing file or
/// a bad line is an error that names it, and nothing is written.
#[test]
fn selfplay_plays_a_files_openings() {
    let dir = scratch_dir("selfplay");
    let path = |p: std::path::PathBuf| p.to_str().unwrap().to_string();
    let openings = path(dir.join("openings.txt"));
    let (out, missing) = (path(dir.join("games.txt")), path(dir.join("missing.txt")));
    let args = |file: &'static str| -> Vec<String> {
        let file = if file.is_empty() { &missing } else { &openings };
        let a = "selfplay --rule renju --games 9 --nodes 200 --openings";
        a.split(' ')
            .map(String::from)
            .chain([file.clone(), "--out".into(), out.clone()])
            .collect()
    };
    let run = |a: Vec<String>| wuzi(&a.iter().map(String::as_str).collect::<Vec<_>>());
    std::fs::write(&openings, "# two\nh8 h9 i8 g10\ne5 k11 f6 j10\n").unwrap();
    let output = run(args("file"));
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).starts_with("2 games"));
    let data = std::fs::read_to_string(&out).unwrap();
    assert!(
        data.lines().next().unwrap().contains("h8 h9 i8 g10"),
        "{data}"
    );

    let expect_error = |a: Vec<String>, needle: &str| {
        fails_with(&a.iter().map(String::as_str).collect::<Vec<_>>(), needle)
    };
    expect_error(args(""), "cannot read openings");
    std::fs::write(&openings, "h8 h9 i8 g10\nh8 h8\n").unwrap();
    expect_error(args("file"), "openings.txt:2:");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), data);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn selfplay_relabels_a_data_files_positions() {
    let dir = scratch_dir("relabel");
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let (data, out, none) = (path("data.txt"), path("deeper.txt"), path("none.txt"));
    std::fs::write(
        &data,
        "freestyle W 12 h8 i9 j8 k8\nrenju L -40 h8 i9 i8 g8\n",
    )
    .unwrap();
    let args = |input: &str, output: &str| {
        [
            "selfplay",
            "--relabel",
            input,
            "--nodes",
            "300",
            "--eval",
            "learned",
            "--out",
            output,
        ]
        .map(String::from)
    };
    let output = wuzi(&args(&data, &out).each_ref().map(String::as_str));
    assert!(output.status.success(), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.starts_with("2 positions searched again at 300 nodes"),
        "{stdout}"
    );
    let lines: Vec<String> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("freestyle W ") && lines[0].ends_with(" h8 i9 j8 k8"));
    assert!(lines[1].starts_with("renju L ") && lines[1].ends_with(" h8 i9 i8 g8"));
    // Each position keeps its rule: no --rule, and --weights must fit every one.
    let mut with = args(&data, &none).to_vec();
    with.extend(["--rule", "renju"].map(String::from));
    fails_with(
        &with.iter().map(String::as_str).collect::<Vec<_>>(),
        "--rule",
    );
    let weights = path("freestyle-weights.txt");
    std::fs::write(
        &weights,
        "wuzi-weights 4\nrule freestyle\ntempo 0 0\nend 0\n",
    )
    .unwrap();
    let mut with = args(&data, &none).to_vec();
    with.extend(["--weights".to_string(), weights]);
    fails_with(
        &with.iter().map(String::as_str).collect::<Vec<_>>(),
        "weights for freestyle, not renju (the data holds positions of another rule)",
    );
    assert!(!std::path::Path::new(&none).exists());
    // A broken data file is named with its line, and no output file is made.
    std::fs::write(&data, "freestyle W 12 h8 i9\nfreestyle X 0 h8\n").unwrap();
    fails_with(
        &args(&data, &none).each_ref().map(String::as_str),
        "data.txt: data line 2",
    );
    assert!(!std::path::Path::new(&none).exists());
    fails_with(
        &args(&none, &out).each_ref().map(String::as_str),
        "cannot read",
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_table_larger_than_the_limit_is_refused_with_a_message() {
    // It used to abort the program: the allocation failed.
    for command in ["analyze", "proofs", "threats"] {
        fails_with(&[command, "--hash-mb", "1000000", "h8"], "not in 1..=4096");
        fails_with(&[command, "--hash-mb", "0", "h8"], "not in 1..=4096");
    }
    fails_with(
        &["analyze", "--engine", "hash=1000000", "h8"],
        "not in 1..=4096",
    );
    fails_with(
        &["analyze", "--engine", "vct-quiet=9", "h8"],
        "not in 0..=4",
    );
}
