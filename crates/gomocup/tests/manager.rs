//! The match manager against real processes: pbrain-wuzi as an external engine, and small
//! badly behaved engines (tests/data/bad_engine.py) that must lose their games, with the
//! right reason, without stopping the match or leaving a process behind.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wuzi_gomocup::manager::player::check_programs;
use wuzi_gomocup::manager::side::SideSpec;
use wuzi_gomocup::manager::stats::Decision;
use wuzi_gomocup::manager::{run_match, GameReport, MatchConfig, MatchResult, OpeningSource};
use wuzi_gomoku::{parse_moves, Board, Player, Point, Rule};

fn config(a: &str, b: &str, games: usize) -> MatchConfig {
    MatchConfig {
        a: a.parse::<SideSpec>().unwrap(),
        b: b.parse::<SideSpec>().unwrap(),
        size: 15,
        rule: Rule::Freestyle,
        games,
        sprt: None,
        concurrency: 1,
        tolerance: None,
        draw_after: None,
        openings: OpeningSource::List(vec![parse_moves("h8 i9 h10 j8", 15).unwrap()]),
        log: None,
        abort: Arc::new(AtomicBool::new(false)),
    }
}

fn play(config: &MatchConfig) -> MatchResult {
    run_match(config, &|_, _| {})
}

/// Replays a game's moves: every one legal, and the result the one the board gives.
fn check_game(game: &GameReport, size: usize, rule: Rule) -> Board {
    let mut board = Board::new(size, rule).unwrap();
    for text in &game.moves {
        let (x, y) = text.split_once(',').unwrap();
        let p = Point::new(x.parse().unwrap(), y.parse().unwrap());
        board
            .try_play(p)
            .unwrap_or_else(|e| panic!("game {}: {text}: {e}", game.number));
    }
    if game.reason.ends_with("made five") {
        let winner = board.result().expect("a five ends the game").winner;
        let said = if game.reason.starts_with("Black") {
            Player::First
        } else {
            Player::Second
        };
        assert_eq!(winner, Some(said), "game {}", game.number);
        let a_colour = if game.a_black {
            Player::First
        } else {
            Player::Second
        };
        let a_won = game.winner == Some("A");
        assert_eq!(a_won, said == a_colour, "game {}", game.number);
    }
    board
}

/// The moves of every game in an SGF text, in Gomocup coordinates, with each record's RE.
fn sgf_games(text: &str) -> Vec<(Vec<String>, String)> {
    text.split("(;")
        .skip(1)
        .map(|game| {
            let result = game.split("RE[").nth(1).unwrap().split(']').next().unwrap();
            let moves = game
                .split(';')
                .skip(1)
                .map(|m| {
                    let b = m.as_bytes();
                    assert!(b[0] == b'B' || b[0] == b'W', "{m}");
                    format!("{},{}", b[2] - b'a', b[3] - b'a')
                })
                .collect();
            (moves, result.to_string())
        })
        .collect()
}

#[test]
fn pbrain_wuzi_plays_wuzi_in_process() {
    let engine = env!("CARGO_BIN_EXE_pbrain-wuzi");
    let mut c = config(&format!("cmd={engine},depth=2,time=5000"), "depth=1", 4);
    c.openings = OpeningSource::Generated(5);
    c.concurrency = 2;
    let result = play(&c);
    assert_eq!(result.games.len(), 4);
    assert_eq!(result.standing.tally.games(), 4);
    assert_eq!(result.standing.pairs.pairs(), 2);
    let sgf: String = result
        .games
        .iter()
        .map(|g| g.to_sgf(15, Rule::Freestyle, "test"))
        .collect();
    let records = sgf_games(&sgf);
    assert_eq!(records.len(), 4);
    for (game, (moves, re)) in result.games.iter().zip(&records) {
        assert_eq!(
            game.black,
            if game.a_black {
                "pbrain-wuzi"
            } else {
                "wuzi depth=1"
            }
        );
        assert!(
            game.reason.ends_with("made five") || game.winner.is_none(),
            "{game:?}"
        );
        let board = check_game(game, 15, Rule::Freestyle);
        assert_eq!(moves, &game.moves, "the SGF holds the moves");
        let winner = board.result().and_then(|r| r.winner);
        let expected = match winner {
            Some(Player::First) => "B+1",
            Some(Player::Second) => "W+1",
            None => "0",
        };
        assert_eq!(re, expected);
        assert_eq!(sgf.matches("C[opening move]").count(), 4 * 4);
    }
    let json = serde_json::to_value(&result.games).unwrap();
    assert_eq!(json.as_array().unwrap().len(), 4);
    assert!(json[0]["reason"].is_string() && json[0]["result"].is_string());
}

/// On a match clock the engine is told `timeout_match` and, before every move, `time_left`;
/// pbrain-wuzi spreads it over the game, and the manager's clock agrees it never ran out.
#[test]
fn pbrain_wuzi_keeps_to_a_match_clock() {
    let engine = env!("CARGO_BIN_EXE_pbrain-wuzi");
    let mut c = config(&format!("cmd={engine},match=1500"), "depth=1", 2);
    c.openings = OpeningSource::Generated(2);
    let result = play(&c);
    assert_eq!(result.games.len(), 2);
    for game in &result.games {
        assert!(!game.reason.contains("timed out"), "{}", game.reason);
        let a_parity = usize::from(!game.a_black);
        let used: u64 = game
            .record
            .iter()
            .enumerate()
            .filter(|(i, m)| i % 2 == a_parity && m.millis.is_some())
            .map(|(_, m)| m.millis.unwrap())
            .sum();
        assert!(used <= 1500, "A used {used} ms of 1500");
        check_game(game, 15, Rule::Freestyle);
    }
}

fn bad_engine(mode: &str, pids: &Path) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/bad_engine.py");
    format!(
        "cmd=python3 '{}' {mode} '{}',time=100",
        script.display(),
        pids.display()
    )
}

/// A fresh directory where the test engines write their process ids, removed when dropped
/// (also when the test fails) so no run leaves it in the temporary directory.
struct PidDir(PathBuf);

impl std::ops::Deref for PidDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for PidDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn pid_dir(name: &str) -> PidDir {
    let dir = std::env::temp_dir().join(format!("wuzi-manager-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    PidDir(dir)
}

/// Every process that wrote its id into `dir` is gone (reaped, so no /proc entry).
fn assert_all_gone(dir: &Path) -> usize {
    let mut count = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let pid = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "engine process {pid} is still there"
        );
        count += 1;
    }
    count
}

#[test]
fn badly_behaved_engines_lose_and_leave_nothing_behind() {
    let cases = [
        (
            "crash",
            "crashed (exited, exit status: 3; its error output ended \"engine starting / \
             assertion failed: board is sane\")",
        ),
        ("silent", "timed out"),
        (
            "unknown",
            "timed out (no reply after 300 ms; it last said \"UNKNOWN command TURN\")",
        ),
        ("late", "timed out"),
        ("occupied", "played an illegal move"),
        (
            "garbage",
            "replied garbage \"I think I will play somewhere nice\"",
        ),
        ("endless", "replied garbage \"xxxxxxxx"),
    ];
    for (mode, reason) in cases {
        let dir = pid_dir(mode);
        let mut c = config(&bad_engine(mode, &dir), "depth=1", 2);
        c.tolerance = Some(Duration::from_millis(200));
        let started = Instant::now();
        let result = play(&c);
        assert!(started.elapsed() < Duration::from_secs(10), "{mode}");
        assert_eq!(result.games.len(), 2, "{mode}: the match completes");
        for game in &result.games {
            assert_eq!(game.winner, Some("B"), "{mode}: {game:?}");
            assert!(game.reason.contains(reason), "{mode}: {}", game.reason);
            assert!(game.reason.len() < 200, "{mode}: {}", game.reason);
            check_game(game, 15, Rule::Freestyle);
        }
        assert_eq!(assert_all_gone(&dir), 2, "{mode}: one process per game");
    }
}

/// The check before a match says why a program cannot play: it refused `START`, it took
/// longer than its `start-wait=` to answer it, or it refused the rule.
#[test]
fn a_program_that_cannot_start_is_told_apart() {
    let check_rule = |mode: &str, extra: &str, rule: Rule| {
        let dir = pid_dir(mode);
        let side: SideSpec = format!("{}{extra}", bad_engine(mode, &dir))
            .parse()
            .unwrap();
        let abort = Arc::new(AtomicBool::new(false));
        let checked = check_programs([&side], 15, rule, abort);
        assert_eq!(assert_all_gone(&dir), 1, "{mode}");
        checked
    };
    let check = |mode: &str, extra: &str| check_rule(mode, extra, Rule::Freestyle);
    let refused = check("refuse", "").unwrap_err();
    assert!(
        refused.ends_with("cannot play: to START 15 it said \"ERROR unsupported size\""),
        "{refused}"
    );
    // One program entered twice is told apart by its name.
    let named = check("refuse", ",name=second").unwrap_err();
    assert!(named.contains(" (name=second) cannot play: "), "{named}");
    let slow = check("sleepy", ",start-wait=100").unwrap_err();
    assert!(
        slow.ends_with(
            "cannot play: did not answer START within 100 ms (start-wait=MS gives it longer)"
        ),
        "{slow}"
    );
    assert_eq!(check("sleepy", ",start-wait=3000"), Ok(()));
    // An engine that answers the rule's INFO with an ERROR cannot play that rule.
    let no_renju = check_rule("norenju", "", Rule::Renju).unwrap_err();
    assert!(
        no_renju.ends_with(
            "cannot play renju: to INFO rule 4 it said \"ERROR renju is not supported\""
        ),
        "{no_renju}"
    );
    assert_eq!(check_rule("norenju", "", Rule::Freestyle), Ok(()));
}

/// A plain engine, one that takes 200 ms of a 100 ms turn once: inside the 200 ms tolerance,
/// so not a fault, and one whose `MESSAGE` is not UTF-8 (a message is free text); and one that
/// prints its first move twice: the stale line is dropped, not read as its next move (the
/// opponent thinks for 100,000 nodes, so that the line is surely in before the next command
/// even on a loaded machine).
#[test]
fn well_behaved_and_tolerably_slow_scripts_complete_their_games() {
    for (mode, opponent) in [
        ("good", "depth=1"),
        ("slow", "depth=1"),
        ("latin1", "depth=1"),
        ("twice", "nodes=100000"),
    ] {
        let dir = pid_dir(mode);
        let mut c = config(&bad_engine(mode, &dir), opponent, 2);
        c.tolerance = Some(Duration::from_millis(200));
        let result = play(&c);
        assert_eq!(result.games.len(), 2);
        for game in &result.games {
            assert!(
                game.reason.ends_with("made five"),
                "{mode}: {}",
                game.reason
            );
            check_game(game, 15, Rule::Freestyle);
        }
        assert_eq!(assert_all_gone(&dir), 2);
    }
}

/// An engine that drops the commands coming just after its move loses on time when its
/// opponent answers at once (unless the machine is so loaded that every move is passed on
/// late), and plays normally with `settle=` holding its commands back.
#[test]
fn settle_holds_back_commands_for_a_racy_engine() {
    let dir = pid_dir("racy");
    let mut c = config(&bad_engine("racy", &dir), "depth=1", 2);
    c.tolerance = Some(Duration::from_millis(200));
    let result = play(&c);
    assert!(
        result.games.iter().any(|g| g.reason.contains("timed out")),
        "{:?}",
        result.games
    );
    let settled = bad_engine("racy", &dir).replace(",time=", ",settle=400,time=");
    let mut c = config(&settled, "depth=1", 2);
    c.tolerance = Some(Duration::from_millis(200));
    c.draw_after = Some(12);
    let result = play(&c);
    for game in &result.games {
        assert!(
            game.reason.ends_with("made five") || game.reason == "drawn after 12 moves",
            "{}",
            game.reason
        );
        check_game(game, 15, Rule::Freestyle);
    }
    assert_eq!(assert_all_gone(&dir), 4);
}

#[test]
fn draw_after_n_moves() {
    let mut c = config("depth=1", "depth=1", 2);
    c.draw_after = Some(10);
    let result = play(&c);
    assert_eq!(result.standing.tally.draws, 2);
    for game in &result.games {
        assert_eq!(game.reason, "drawn after 10 moves");
        assert_eq!(game.moves.len(), 10);
        assert_eq!(game.winner, None);
    }
}

#[test]
fn interrupting_a_match_ends_the_engines() {
    let dir = pid_dir("abort");
    let mut c = config(&bad_engine("silent", &dir), "depth=1", 2);
    c.a.turn = Some(Duration::from_secs(60));
    let abort = c.abort.clone();
    let started = Instant::now();
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        abort.store(true, Ordering::Relaxed);
    });
    let result = play(&c);
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(result.interrupted);
    assert!(
        result.games.is_empty(),
        "an interrupted game does not count"
    );
    assert_eq!(assert_all_gone(&dir), 1);
}

#[test]
fn identical_engines_accept_h0() {
    let mut c = config("depth=2", "depth=2", 40);
    c.openings = OpeningSource::Generated(3);
    c.sprt = Some("elo0=0,elo1=20".parse().unwrap());
    let result = play(&c);
    assert_eq!(result.standing.decision, Some(Decision::H0));
    // Deterministic twins play the same game with colours swapped: every pair is even.
    let p = result.standing.pairs;
    assert_eq!(p.0[0] + p.0[1] + p.0[3] + p.0[4], 0, "{p:?}");
    assert_eq!(
        result.games.len(),
        20,
        "decided at the first chance, after ten pairs"
    );
    // The decision says when it came and at which LLR, past the lower bound.
    let (games, llr) = result.standing.decided.expect("decided");
    assert_eq!(games, 20);
    assert!(llr <= c.sprt.unwrap().bounds().0, "{llr}");
}

/// The issue asks for `time=200` against `time=10`; on a shared CI machine that is slow and
/// timing-dependent, so the deep and shallow searches are set by depth instead (the CLI run
/// with times is in the README). Renju, because in freestyle the generated openings still
/// leave Black so far ahead that shallow and deep searches split most pairs 1-1. Depth 6:
/// depth 4 stopped being clearly stronger than depth 1 once razoring and the PV alpha-raise
/// cut thinned the shallow searches (35-25 and no decision in 60 games); depth 6 against
/// depth 1 accepts H1 after 21 games at LLR 7.45.
#[test]
fn a_deeper_search_accepts_h1() {
    assert_renju_sprt_accepts_h1("depth=6", "depth=1", 40, 11);
}

/// A renju match of `a` against `b` from generated openings under SPRT elo0=0, elo1=100
/// accepts H1 within `games`.
fn assert_renju_sprt_accepts_h1(a: &str, b: &str, games: usize, seed: u64) {
    let mut c = config(a, b, games);
    c.rule = Rule::Renju;
    c.openings = OpeningSource::Generated(seed);
    c.sprt = Some("elo0=0,elo1=100".parse().unwrap());
    let result = play(&c);
    assert_eq!(
        result.standing.decision,
        Some(Decision::H1),
        "{:?}",
        result.standing
    );
    let (_, llr) = result.standing.decided.expect("decided");
    assert!(llr >= c.sprt.unwrap().bounds().1, "{llr}");
}

/// The issue's `time=200` against `time=10`, on the clock: 30 to 40 s on this 2-core
/// machine (H1 after 20 to 38 games in the README's runs), and at the mercy of a loaded one, so CI
/// runs the depth version above; run this with `--ignored`.
#[test]
#[ignore = "timing-based, 30 to 40 s"]
fn more_time_accepts_h1() {
    assert_renju_sprt_accepts_h1("time=200", "time=10", 100, 1);
}

/// 7x7 renju, Black to move, and the only empty point (d7) is an overline for Black: Black
/// has no legal move and loses, whoever plays it. The manager decides without asking, so an
/// external engine (which might answer an error, or nothing) does not lose on time instead.
#[test]
fn black_without_a_legal_move_loses() {
    let position = "g2 f3 c5 e3 g1 d5 c2 d4 a1 e5 b4 d6 g7 g6 b5 d3 f6 f2 a6 f1 a7 a4 c6 a5 \
                    b7 c4 e2 b2 g3 f4 f5 b3 d1 g5 g4 a3 c3 b1 e7 a2 e6 c1 c7 e1 d2 b6 f7 e4";
    let dir = pid_dir("no-legal-move");
    let mut c = config("depth=1", &bad_engine("good", &dir), 2);
    c.size = 7;
    c.rule = Rule::Renju;
    c.openings = OpeningSource::List(vec![parse_moves(position, 7).unwrap()]);
    let result = play(&c);
    assert_eq!(result.games.len(), 2);
    assert_eq!(result.games[0].reason, "Black had no legal move");
    assert_eq!(
        result.games[0].result,
        wuzi_gomocup::manager::game::Outcome::WhiteWins
    );
    assert_eq!(result.games[1].reason, "Black had no legal move");
    assert_eq!(result.games[1].winner, Some("A"));
    assert_all_gone(&dir);
}

/// A tournament's standings count apart the losses that were an engine's fault: here every
/// game of the crashing engine, none of the others.
#[test]
fn standings_count_the_losses_by_forfeit() {
    use wuzi_gomocup::manager::tournament::{run_tournament, TournamentConfig};
    let dir = pid_dir("forfeits");
    let config = TournamentConfig {
        engines: vec![
            "depth=1".parse().unwrap(),
            bad_engine("crash", &dir).parse().unwrap(),
            "depth=2".parse().unwrap(),
        ],
        gauntlet: false,
        games: 2,
        size: 15,
        rule: Rule::Freestyle,
        concurrency: 1,
        tolerance: Some(Duration::from_millis(200)),
        draw_after: None,
        openings: OpeningSource::List(vec![parse_moves("h8 i9 h10 j8", 15).unwrap()]),
        log: None,
        abort: Arc::new(AtomicBool::new(false)),
    };
    let result = run_tournament(&config, &|_, _, _| {});
    let forfeits: Vec<u32> = result.engines.iter().map(|e| e.forfeits).collect();
    assert_eq!(forfeits, [0, 4, 0], "two pairings of two games each");
    assert_eq!(result.engines[1].tally.losses, 4);
    assert_all_gone(&dir);
}
