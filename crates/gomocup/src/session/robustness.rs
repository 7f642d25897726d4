//! Property tests of the project's rule for bad input: whatever lines a manager sends, the
//! session answers without panicking, and a line answered with `ERROR` leaves the game as it
//! was. The searches a line asks for run here in place of the loop, capped at a few hundred
//! nodes, and their replies are checked by the same rule.

use super::*;
use crate::{work, Out};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::{Arc, Mutex};
use wuzi_gomoku::GameResult;

/// Everything a line must not change when it gets `ERROR`: the size and rule the session
/// plays and, when there is a game, its board (moves, stones, side to move, result).
#[derive(Debug, PartialEq)]
struct Game {
    size: Option<usize>,
    rule: Rule,
    board: Option<BoardState>,
}

#[derive(Debug, PartialEq)]
struct BoardState {
    size: usize,
    rule: Rule,
    moves: Vec<Point>,
    stones: Vec<Option<Player>>,
    to_move: Player,
    result: Option<GameResult>,
}

fn game(session: &Session) -> Game {
    Game {
        size: session.size,
        rule: session.rule,
        board: session.board().map(|b| BoardState {
            size: b.size(),
            rule: b.rule(),
            moves: b.moves().to_vec(),
            stones: b.points().map(|p| b.stone(p)).collect(),
            to_move: b.side_to_move(),
            result: b.result(),
        }),
    }
}

fn is_error(replies: &[String]) -> bool {
    // A dropped block changed nothing; the command that dropped it answers for itself.
    replies
        .iter()
        .any(|r| r.starts_with("ERROR") && r != super::BLOCK_DROPPED)
}

/// A number as a manager might send one, or not: mostly small, else an edge value, a huge or
/// negative one, or text.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (0u64..25).prop_map(|n| n.to_string()),
        2 => select(vec![
            "18446744073709551615", // u64::MAX
            "18446744073709551616",
            "4294967296", // u32::MAX + 1
            "4294967297",
            "2147483647",
            "99999999999999999999999999",
            "+7",
            "007",
            "",
        ])
        .prop_map(String::from),
        1 => (-30i64..0).prop_map(|n| n.to_string()),
        1 => "\\PC{0,4}",
    ]
}

/// `X,Y` on a small board (most), on any board, out of range, or mangled.
fn point() -> impl Strategy<Value = String> {
    prop_oneof![
        10 => (0usize..8, 0usize..8).prop_map(|(x, y)| format!("{x},{y}")),
        3 => (0usize..24, 0usize..24).prop_map(|(x, y)| format!("{x},{y}")),
        1 => (number(), number()).prop_map(|(x, y)| format!("{x},{y}")),
        1 => "[0-9, \\-]{0,8}",
    ]
}

/// A stone line of a block: `X,Y,F`, `X,Y`, or a bad one.
fn stone() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (0usize..8, 0usize..8, 1u8..3).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
        2 => (0usize..8, 0usize..8).prop_map(|(x, y)| format!("{x},{y}")),
        1 => (point(), number()).prop_map(|(p, f)| format!("{p},{f}")),
        1 => (0usize..24, 0usize..24, 0u8..5).prop_map(|(x, y, f)| format!("{x},{y},{f}")),
    ]
}

/// `INFO` with a known key or not. Memory and threads stay small so that the cases stay fast
/// (`max_memory 0` is the 64 MB default, allocated but not touched).
fn info() -> impl Strategy<Value = String> {
    let key = select(vec![
        "timeout_turn",
        "TIMEOUT_MATCH",
        "time_left",
        "max_depth",
        "max_node",
        "rule",
        "game_type",
        "folder",
        "evaluate",
        "hash_size",
    ]);
    prop_oneof![
        6 => (key, number()).prop_map(|(k, v)| format!("INFO {k} {v}")),
        2 => (0u64..8).prop_map(|r| format!("INFO rule {r}")),
        1 => select(vec!["0", "1", "2", "-1", "x", "99999999999999999999"])
            .prop_map(|t| format!("INFO thread_num {t}")),
        1 => select(vec!["0", "1000000", "3000000", "-5", "1e6", "99999999999999999999"])
            .prop_map(|m| format!("INFO max_memory {m}")),
        1 => ("[a-z_]{0,10}", "\\PC{0,6}").prop_map(|(k, v)| format!("INFO {k} {v}")),
    ]
}

/// One command, or a whole block (`BOARD` ... `DONE`, sometimes never closed).
fn lines() -> impl Strategy<Value = Vec<String>> {
    let one = |s: BoxedStrategy<String>| s.prop_map(|l| vec![l]);
    prop_oneof![
        3 => one(prop_oneof![
            4 => (5usize..9).prop_map(|n| format!("START {n}")),
            1 => number().prop_map(|n| format!("START {n}")),
            1 => (number(), number()).prop_map(|(w, h)| format!("RECTSTART {w},{h}")),
            1 => Just("RECTSTART 7,7".to_string()),
        ]
        .boxed()),
        3 => one(
            select(vec![
                "RESTART",
                "BEGIN",
                "ABOUT",
                "STOP",
                "YXSTOP",
                "YXSHOWFORBID",
                "YXHASHCLEAR",
                "DONE",
                "begin",
                "RESTART now",
                "YXNBEST 2",
            ])
            .prop_map(String::from)
            .boxed()
        ),
        10 => one(point().prop_map(|p| format!("TURN {p}")).boxed()),
        2 => one(point().prop_map(|p| format!("PLAY {p}")).boxed()),
        3 => one(point().prop_map(|p| format!("TAKEBACK {p}")).boxed()),
        1 => one(number().prop_map(|n| format!("YXNBEST {n}")).boxed()),
        3 => one(info().boxed()),
        4 => (
            select(vec!["BOARD", "YXBOARD", "SWAP2BOARD"]),
            vec(stone(), 0..10),
            prop::bool::weighted(0.9),
        )
            .prop_map(|(kind, stones, done)| {
                let mut block = vec![kind.to_string()];
                block.extend(stones);
                if done {
                    block.push("DONE".into());
                }
                block
            }),
        // Rows of stones for each side, and maybe the opponent's next stone on its row: games
        // that end, or are over before the engine moves.
        2 => (
            select(vec!["BOARD", "YXBOARD"]),
            0usize..3,
            3usize..7,
            0usize..6,
            0usize..6,
            prop::bool::ANY,
        )
            .prop_map(|(kind, x, y, own, theirs, turn)| {
                let mut block = vec![kind.to_string()];
                block.extend((0..own).map(|i| format!("{},{y},1", x + i)));
                block.extend((0..theirs).map(|i| format!("{},{},2", x + i, y - 2)));
                block.push("DONE".into());
                if turn {
                    block.push(format!("TURN {},{}", x + theirs, y - 2));
                }
                block
            }),
        2 => one(prop_oneof!["\\PC{0,20}", "[A-Z0-9, \\-\t]{0,12}", "[ \t]{0,3}"].boxed()),
    ]
}

/// A session's input: mostly a START first, then commands, and sometimes an END (with the
/// lines after it, which the loop would never read).
fn session_input() -> impl Strategy<Value = Vec<String>> {
    (
        prop_oneof![
            6 => (5usize..10).prop_map(|n| vec![format!("START {n}")]),
            1 => (15usize..23).prop_map(|n| vec![format!("START {n}")]),
            1 => Just(Vec::new()),
        ],
        vec(lines(), 1..40),
        prop::option::weighted(0.1, 0usize..40),
    )
        .prop_map(|(start, groups, end)| {
            let mut lines = start;
            lines.extend(groups.concat());
            if let Some(at) = end {
                lines.insert(at.min(lines.len()), "END".into());
            }
            lines
        })
}

/// Feeds `lines` to a fresh session as the loop would, running each search it asks for with
/// at most a few hundred nodes; fails at the first line whose `ERROR` changed the game.
fn drive(lines: &[String]) -> Result<(), TestCaseError> {
    let out: Out = Arc::new(Mutex::new(Box::new(std::io::sink())));
    let mut session = Session::default();
    // Small tables: every START makes an engine.
    session.handle_line("INFO max_memory 2000000");
    for line in lines {
        let before = game(&session);
        let outcome = session.handle_line(line);
        if is_error(&outcome.replies) {
            prop_assert_eq!(
                &game(&session),
                &before,
                "{:?}: {:?}",
                line,
                outcome.replies
            );
        }
        if let Some(b) = session.board() {
            prop_assert_eq!(b.hash(), b.hash_from_scratch(), "after {:?}", line);
        }
        if outcome.end {
            break;
        }
        let Some(think) = outcome.think else { continue };
        let mut limits = think.limits;
        limits.nodes = Some(limits.nodes.map_or(300, |n| n.min(300)));
        limits.depth = Some(limits.depth.map_or(3, |d| d.min(3)));
        // Two of the N best are enough to exercise the reply; the loop would search them all.
        let job = match think.job {
            Job::NBest(n) => Job::NBest(n.min(2)),
            ref job => job.clone(),
        };
        let mut engine = session.take_engine().expect("a search needs a game");
        let results = work(&mut engine, &job, &limits, &out);
        session.give_engine(engine);
        let before = game(&session);
        let replies = session.finish(&think.job, &results);
        prop_assert!(!replies.is_empty(), "{:?}: no reply", line);
        if is_error(&replies) {
            prop_assert_eq!(&game(&session), &before, "{:?}: {:?}", line, replies);
        }
    }
    Ok(())
}

proptest! {
    /// `parse` takes any text: a command or an error, never a panic.
    #[test]
    fn no_line_makes_parse_panic(
        line in prop_oneof![
            "\\PC{0,30}",
            "\\PC*",
            "(?i)(start|rectstart|turn|play|takeback|info|yxnbest|board|done)[ \t,]{0,3}\\PC{0,12}",
            "[A-Za-z]{1,12}[ \t,]{0,3}[0-9, \\-+]{0,30}",
            "[0-9, \\-+]{0,30}",
            "\\s{0,5}",
        ]
    ) {
        let _ = parse(&line);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Any sequence of commands, blocks and garbage: no panic, and every `ERROR` leaves the game
    /// as it was.
    #[test]
    fn no_line_sequence_panics_or_changes_the_game_on_error(
        lines in session_input()
    ) {
        drive(&lines)?;
    }
}
