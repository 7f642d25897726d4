//! Every protocol command and every kind of bad input, against the real binary.

mod common;

use common::{xy, Brain};
use std::time::Duration;

fn started(size: usize) -> Brain {
    let mut b = Brain::spawn();
    b.send("INFO timeout_turn 200");
    assert_eq!(b.ask(&format!("START {size}")), "OK");
    b
}

#[test]
fn about_start_restart_and_end() {
    let mut b = Brain::spawn();
    let about = b.ask("ABOUT");
    assert!(about.starts_with("name=\"wuzi\", version=\""), "{about}");
    assert!(b.ask("START 4").starts_with("ERROR"));
    assert!(b.ask("START 23").starts_with("ERROR"));
    assert!(b.ask("RECTSTART 20,15").starts_with("ERROR"));
    assert_eq!(b.ask("RECTSTART 15,15"), "OK");
    assert_eq!(b.ask("START 20"), "OK");
    assert_eq!(b.ask("RESTART"), "OK");
    assert!(b.end().success());
}

#[test]
fn begin_turn_takeback_and_play() {
    let mut b = started(15);
    let first = b.ask("BEGIN");
    assert_eq!(xy(&first), (7, 7), "the centre on an empty board");
    let reply = b.ask("TURN 8,8");
    let (x, y) = xy(&reply);
    assert!(x < 15 && y < 15 && (x, y) != (7, 7) && (x, y) != (8, 8));
    // Take back the engine's move, then the opponent's, and play on.
    assert_eq!(b.ask(&format!("TAKEBACK {reply}")), "OK");
    assert_eq!(b.ask("TAKEBACK 8,8"), "OK");
    let again = b.ask("TURN 6,6");
    assert_ne!(xy(&again), (6, 6));
    // PLAY (after SUGGEST) plays the given point as the engine's move.
    b.ask("TURN 0,0");
    assert_eq!(b.ask("PLAY 14,14"), "14,14");
    assert!(b.ask("PLAY 14,14").starts_with("ERROR"), "occupied");
}

#[test]
fn board_in_any_order_and_renju_in_move_order() {
    let mut b = started(15);
    b.send("BOARD");
    for line in ["8,8,2", "7,7,1", "7,8,1", "8,9,2"] {
        b.send(line);
    }
    let reply = b.ask("DONE");
    let (x, y) = xy(&reply);
    assert!(x < 15 && y < 15);
    // An impossible count: three of the engine's stones against one.
    b.send("BOARD");
    for line in ["1,1,1", "2,2,1", "3,3,1", "4,4,2"] {
        b.send(line);
    }
    assert!(b.ask("DONE").contains("impossible stone counts"));
    // Renju: the stones come in move order, Black first.
    let mut r = Brain::spawn();
    r.send("INFO rule 4");
    assert_eq!(r.ask("START 15"), "OK");
    r.send("YXBOARD");
    // Black (the opponent, field 2) has 6,7 7,7 along the row and 8,8 8,9 down the column.
    for line in [
        "7,7,2", "14,14,1", "6,7,2", "14,13,1", "8,8,2", "0,14,1", "8,9,2", "14,0,1", "0,0,2",
    ] {
        r.send(line);
    }
    r.send("DONE");
    assert!(
        r.silent_for(Duration::from_millis(300)),
        "YXBOARD does not move"
    );
    // 8,7 would be a double three for Black.
    assert_eq!(r.ask("YXSHOWFORBID"), "FORBID 0807.");
    r.send("BOARD");
    for line in ["7,7,2", "8,8,1"] {
        r.send(line);
    }
    assert!(r.ask("DONE").contains("move order"));
}

#[test]
fn forbid_nbest_hashclear_and_info() {
    let mut b = started(15);
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .");
    b.send("INFO max_memory 83886080");
    b.send("INFO game_type 1");
    b.send("INFO folder /tmp");
    b.send("INFO thread_num 2");
    b.send("INFO max_depth 4");
    b.send("INFO max_node 100000");
    b.send("INFO TIMEOUT_MATCH 100000");
    b.send("INFO TIME_LEFT 90000");
    b.send("YXHASHCLEAR");
    b.send("INFO mystery_key 5");
    b.send("BEGIN");
    let lines = b.lines_until_reply();
    assert!(lines.iter().any(|l| l.contains("mystery_key")), "{lines:?}");
    assert_eq!(xy(lines.last().unwrap()), (7, 7));
    b.send("YXNBEST 3");
    let lines = b.lines_until_reply();
    let nbest: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE nbest"))
        .collect();
    assert_eq!(nbest.len(), 3, "{lines:?}");
    let best = lines.last().unwrap();
    assert!(nbest[0].contains(best.as_str()), "{lines:?}");
}

#[test]
fn progress_messages_have_one_format() {
    let mut b = started(15);
    b.send("BEGIN");
    let lines = b.lines_until_reply();
    let depth_lines: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("MESSAGE depth"))
        .collect();
    assert!(!depth_lines.is_empty(), "{lines:?}");
    for l in depth_lines {
        let words: Vec<&str> = l.split_whitespace().collect();
        assert_eq!(
            [words[1], words[3], words[5], words[7], words[9], words[11]],
            ["depth", "score", "nodes", "nps", "time", "pv"],
            "{l}"
        );
    }
}

#[test]
fn unsupported_rule_is_reported_and_a_rule_is_kept() {
    let mut b = started(15);
    b.send("INFO rule 8");
    let lines = {
        b.send("RESTART");
        vec![b.reply(), b.reply()]
    };
    assert!(
        lines[0].starts_with("ERROR") && lines[0].contains("rule 8"),
        "{lines:?}"
    );
    assert_eq!(lines[1], "OK");
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .");
    // 2 is the protocol's "continuous game", but GUIs send it for renju: said so.
    b.send("INFO rule 2");
    b.send("RESTART");
    assert_eq!(
        b.lines_until_reply(),
        ["MESSAGE INFO rule 2 is taken as renju", "OK"]
    );
    // Bit 2 with others asks for a continuous game: not played, said so, the rest kept.
    for (value, rule) in [(3, "standard"), (6, "renju")] {
        b.send(&format!("INFO rule {value}"));
        b.send("RESTART");
        assert_eq!(
            b.lines_until_reply(),
            [
                format!(
                    "MESSAGE INFO rule {value}: continuous game (2) is not supported; \
                     playing {rule}"
                ),
                "OK".to_string()
            ]
        );
    }
}

/// A rule sent with stones on the board waits for the next game, and says so: the forbidden
/// points stay renju's until then, and an unsupported rule names both.
#[test]
fn a_rule_sent_mid_game_says_when_it_takes_effect() {
    let mut b = started(15);
    b.send("INFO rule 4");
    // h8 (7,7) is a double-three for Black: i8 j8 and h9 h10 around it.
    for line in [
        "YXBOARD", "8,7,1", "0,14,2", "9,7,1", "0,12,2", "7,8,1", "0,10,2", "7,9,1", "0,0,2",
        "DONE",
    ] {
        b.send(line);
    }
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID 0707.");
    b.send("INFO rule 1");
    b.send("RESTART");
    assert_eq!(
        b.lines_until_reply(),
        [
            "MESSAGE INFO rule 1 (standard) takes effect at the next START, RESTART, BOARD, \
             YXBOARD or BEGIN; this game goes on under renju",
            "OK"
        ]
    );
    assert_eq!(b.ask("YXSHOWFORBID"), "FORBID .", "RESTART began standard");
    // Mid-game again: said once, not at every repeat, and a continuous-game value says
    // which game plays what (once too).
    b.send("INFO rule 4");
    b.send("RESTART");
    assert_eq!(b.lines_until_reply(), ["OK"]);
    for line in ["YXBOARD", "7,7,1", "0,0,2", "DONE"] {
        b.send(line);
    }
    b.send("INFO rule 3");
    b.send("INFO rule 3");
    b.send("YXSHOWFORBID");
    assert_eq!(
        b.lines_until_reply(),
        [
            "MESSAGE INFO rule 3: continuous game (2) is not supported; the next game plays \
             standard",
            "MESSAGE INFO rule 3 (standard) takes effect at the next START, RESTART, BOARD, \
             YXBOARD or BEGIN; this game goes on under renju",
            "FORBID ."
        ]
    );
}

#[test]
fn bad_input_gets_an_answer_and_changes_nothing() {
    let mut b = Brain::spawn();
    assert!(b.ask("TURN 7,7").starts_with("ERROR"), "no game yet");
    assert!(b.ask("BEGIN").starts_with("ERROR"));
    assert!(b.ask("HELLO THERE").starts_with("UNKNOWN"));
    // A control character quoted back shows as `?`, never raw.
    assert_eq!(
        b.ask("HI\u{0}\u{7}"),
        "UNKNOWN command \"HI??\" is not known"
    );
    assert_eq!(b.ask("START 15"), "OK");
    b.send("INFO timeout_turn 100");
    for bad in [
        "TURN",
        "TURN 7",
        "TURN x,y",
        "TURN 15,3",
        "TURN 99,99",
        "TURN -1,2",
        "START x",
        "TAKEBACK 3,3",
        "PLAY 40,1",
        "DONE",
        "1,2,1",
    ] {
        let reply = b.ask(bad);
        assert!(reply.starts_with("ERROR"), "{bad}: {reply}");
    }
    let first = b.ask("TURN 7,7");
    let (x, y) = xy(&first);
    // The occupied point, then a TAKEBACK of a point that is not the last move.
    assert!(b.ask("TURN 7,7").starts_with("ERROR"));
    assert!(b.ask(&format!("TURN {x},{y}")).starts_with("ERROR"));
    assert!(b.ask("TAKEBACK 7,7").starts_with("ERROR"));
    // The game is unchanged: the engine's stone is still the last move.
    assert_eq!(b.ask(&format!("TAKEBACK {first}")), "OK");
    assert_eq!(b.ask("TAKEBACK 7,7"), "OK");
    assert!(b.ask("BEGIN").contains(','), "the board is empty again");
    assert!(b.end().success());
}

#[test]
fn stop_answers_at_once_and_end_exits_mid_search() {
    let mut b = Brain::spawn();
    b.send("INFO timeout_turn 30000");
    assert_eq!(b.ask("START 15"), "OK");
    b.send("BOARD");
    for line in ["7,7,1", "8,8,2", "8,7,1", "9,9,2"] {
        b.send(line);
    }
    b.send("DONE");
    std::thread::sleep(Duration::from_millis(300));
    let asked = std::time::Instant::now();
    b.send("YXSTOP");
    let reply = b
        .reply_within(Duration::from_secs(3))
        .expect("a move soon after STOP");
    assert!(reply.contains(','), "{reply}");
    assert!(asked.elapsed() < Duration::from_secs(3));
    // A command sent during a search is kept and answered after it.
    b.send("TURN 0,0");
    b.send("ABOUT");
    b.send("STOP");
    let mv = b.reply();
    assert!(mv.contains(','), "{mv}");
    assert!(b.reply().starts_with("name="), "ABOUT was not dropped");
    b.send("TURN 1,0");
    std::thread::sleep(Duration::from_millis(200));
    assert!(b.end().success(), "END mid-search exits");
}

/// Managers send their settings just before the first move request, on its clock. A new
/// table of hundreds of megabytes and a new rule must not eat the turn: the table was once
/// mapped into memory before the search began (0.5-1.3 s on the development machine).
#[test]
fn settings_just_before_a_move_leave_it_its_time() {
    let mut b = started(15);
    b.send("INFO timeout_turn 300");
    b.send("INFO max_memory 700000000");
    b.send("INFO rule 4");
    b.send("BOARD");
    b.send("7,7,2");
    let asked = std::time::Instant::now();
    b.send("DONE");
    let reply = b
        .reply_within(Duration::from_secs(10))
        .expect("a move after the settings");
    let took = asked.elapsed();
    assert!(reply.contains(','), "{reply}");
    // 300 ms for the turn, and a margin for a loaded machine.
    assert!(took < Duration::from_millis(800), "{took:?}");
    assert!(b.end().success());
}

fn swap2(b: &mut Brain, stones: &[&str]) -> String {
    b.send("SWAP2BOARD");
    for s in stones {
        b.send(s);
    }
    b.ask("DONE")
}

fn points(reply: &str) -> Vec<(usize, usize)> {
    reply.split_whitespace().map(xy).collect()
}

#[test]
fn swap2_in_all_three_cases() {
    let mut b = started(15);
    // Empty: three distinct stones near the centre.
    let three = points(&swap2(&mut b, &[]));
    assert_eq!(three.len(), 3);
    assert!(three
        .iter()
        .all(|&(x, y)| x.abs_diff(7) <= 4 && y.abs_diff(7) <= 4));
    assert!(three[0] != three[1] && three[1] != three[2] && three[0] != three[2]);
    // The proposed stones are on the engine's board, the last of them its last move.
    let (x, y) = three[2];
    assert_eq!(b.ask(&format!("TAKEBACK {x},{y}")), "OK");
    // Three stones, Black clearly better (two in a row against a corner stone): swap.
    assert_eq!(swap2(&mut b, &["7,7", "0,0", "8,7"]), "SWAP");
    // Three balanced stones: swap, one move, or two more stones, all legal.
    let reply = swap2(&mut b, &["7,7", "8,6", "8,8"]);
    if reply != "SWAP" {
        let ps = points(&reply);
        assert!(matches!(ps.len(), 1 | 2), "{reply}");
        for &p in &ps {
            assert!(![(7, 7), (8, 6), (8, 8)].contains(&p), "{reply}");
        }
        let (x, y) = ps[ps.len() - 1];
        assert_eq!(b.ask(&format!("TAKEBACK {x},{y}")), "OK", "{reply}");
    }
    // Five stones with Black's open three: White to move is worse, so swap.
    assert_eq!(
        swap2(&mut b, &["7,7", "0,0", "8,7", "14,14", "9,7"]),
        "SWAP"
    );
    // Five stones where White is far ahead in stones' worth: play on as White.
    let reply = swap2(&mut b, &["0,0", "7,7", "14,14", "8,7", "0,14"]);
    assert_ne!(reply, "SWAP");
    let (x, y) = xy(&reply);
    assert!(x < 15 && y < 15);
    // Wrong counts and bad stones are errors.
    assert!(swap2(&mut b, &["7,7", "8,8"]).starts_with("ERROR"));
    assert!(swap2(&mut b, &["7,7", "7,7", "8,8"]).starts_with("ERROR"));
    // Small boards get an opening that fits them.
    for n in 5..=8 {
        let mut b = started(n);
        let three = points(&swap2(&mut b, &[]));
        assert_eq!(three.len(), 3, "{n}");
        assert!(three.iter().all(|&(x, y)| x < n && y < n), "{n}: {three:?}");
    }
}

/// Sends a position as BOARD lines (the engine is Black, field 1) and returns the reply.
fn board_reply(b: &mut Brain, moves: &[(usize, usize)]) -> String {
    b.send("BOARD");
    for (i, (x, y)) in moves.iter().enumerate() {
        b.send(&format!("{x},{y},{}", if i % 2 == 0 { 1 } else { 2 }));
    }
    b.ask("DONE")
}

/// Moves in wuzi notation (rows from the bottom) as protocol points on a `size` board.
fn protocol_points(moves: &str, size: usize) -> Vec<(usize, usize)> {
    moves
        .split_whitespace()
        .map(|m| {
            let x = (m.as_bytes()[0] - b'a') as usize;
            let row: usize = m[1..].parse().unwrap();
            (x, size - row)
        })
        .collect()
}

#[test]
fn renju_black_never_plays_a_forbidden_point() {
    // Issue 17: White threatens five at f12 (5,3), a double three for Black.
    let lost = protocol_points("g12 g9 i8 f10 h10 f9 i9 e11 h8 c13 d12 f11 f8 f13", 15);
    let mut r = Brain::spawn();
    r.send("INFO rule 4");
    r.send("INFO timeout_turn 300");
    assert_eq!(r.ask("START 15"), "OK");
    assert_eq!(r.ask("YXSHOWFORBID"), "FORBID .");
    let reply = board_reply(&mut r, &lost);
    assert_ne!(xy(&reply), (5, 3), "f12 is forbidden");
    r.send(&format!("TAKEBACK {reply}"));
    assert_eq!(r.reply(), "OK");
    assert_eq!(r.ask("YXSHOWFORBID"), "FORBID 0503.");
    r.send("YXNBEST 3");
    let lines = r.lines_until_reply();
    assert!(
        lines.iter().all(|l| !l.contains("5,3")),
        "an N-best move is forbidden: {lines:?}"
    );

    // 7x7 where Black's only empty point is an overline: an ERROR saying why.
    let none = protocol_points(
        "g2 f3 c5 e3 g1 d5 c2 d4 a1 e5 b4 d6 g7 g6 b5 d3 f6 f2 a6 f1 a7 a4 c6 a5 b7 c4 e2 b2 \
         g3 f4 f5 b3 d1 g5 g4 a3 c3 b1 e7 a2 e6 c1 c7 e1 d2 b6 f7 e4",
        7,
    );
    assert_eq!(r.ask("START 7"), "OK");
    let reply = board_reply(&mut r, &none);
    assert!(
        reply.starts_with("ERROR") && reply.contains("no legal move"),
        "{reply}"
    );
}

/// Yixin-Board's own sequence: `START W H` when it starts the engine, then for every move
/// `INFO time_left`, `start W H`, the board and `done` in lower case. `START 15 15` was
/// refused, so under Yixin-Board no move ever came.
#[test]
fn yixin_board_starts_with_width_and_height() {
    let mut b = Brain::spawn();
    assert_eq!(b.ask("START 15 15"), "OK");
    b.send("INFO timeout_turn 200");
    b.send("INFO max_node -1");
    b.send("INFO time_left 20000");
    assert_eq!(b.ask("start 15 15"), "OK");
    for line in ["board", "7,7,2", "done"] {
        b.send(line);
    }
    let lines = b.lines_until_reply();
    let reply = lines.last().expect("a reply");
    let (x, y) = xy(reply);
    assert!(x < 15 && y < 15 && (x, y) != (7, 7), "{lines:?}");
    assert!(
        lines.iter().all(|l| l.starts_with("MESSAGE") || l == reply),
        "{lines:?}"
    );
    assert!(b.ask("START 20 15").starts_with("ERROR rectangular boards"));
}

/// Asked what it is, the binary says so and ends, rather than wait on stdin for a manager
/// (a packager's smoke test hung); any other argument is refused.
#[test]
fn version_and_help_answer_without_a_manager() {
    use std::process::Command;
    let run = |arg: &str| {
        Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .arg(arg)
            .output()
            .unwrap()
    };
    let version = run("--version");
    assert!(version.status.success());
    let text = String::from_utf8_lossy(&version.stdout);
    assert_eq!(
        text.trim(),
        format!("pbrain-wuzi {}", env!("CARGO_PKG_VERSION"))
    );
    let help = run("--help");
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("Gomocup protocol"));
    let other = run("--depth");
    assert_eq!(other.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&other.stderr).contains("unexpected argument '--depth'"));
}
