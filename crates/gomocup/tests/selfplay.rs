//! Two `pbrain-wuzi` processes play each other through a small driver, under each rule, to
//! the end of the game: every move legal, every reply within the turn time.

mod common;

use common::{xy, Brain};
use std::time::Instant;
use wuzi_gomoku::{Board, Point, Rule};

/// The turn limit: long enough that the engine's reserve (a quarter of the turn, 75 ms here)
/// covers a loaded 2-core machine holding the process off the CPU; at 150 ms (a 40 ms
/// reserve) a reply once came at 151 ms while two matches and a build shared the machine.
const TURN_MS: u64 = 300;

/// Plays one game; returns the board at the end and the latest reply seen, in ms.
fn game(rule: Rule, rule_code: u32, size: usize) -> (Board, u128) {
    let mut brains = [Brain::spawn(), Brain::spawn()];
    for b in &mut brains {
        b.send(&format!("INFO rule {rule_code}"));
        b.send(&format!("INFO timeout_turn {TURN_MS}"));
        b.send("INFO timeout_match 600000");
        assert_eq!(b.ask(&format!("START {size}")), "OK");
    }
    let mut board = Board::new(size, rule).unwrap();
    let mut slowest = 0;
    let mut last: Option<String> = None;
    while board.result().is_none() {
        let side = board.stone_count() % 2;
        let asked = Instant::now();
        let reply = match &last {
            None => brains[side].ask("BEGIN"),
            Some(mv) => brains[side].ask(&format!("TURN {mv}")),
        };
        let took = asked.elapsed().as_millis();
        slowest = slowest.max(took);
        assert!(
            took <= TURN_MS as u128,
            "{rule:?}: reply {reply} after {took} ms (limit {TURN_MS})"
        );
        let (x, y) = xy(&reply);
        board
            .try_play(Point::new(x, y))
            .unwrap_or_else(|e| panic!("{rule:?}: illegal reply {reply}: {e}"));
        last = Some(reply);
    }
    for b in brains {
        assert!(b.end().success());
    }
    (board, slowest)
}

#[test]
fn two_engines_play_to_the_end_under_each_rule() {
    let mut slowest = 0;
    for (rule, code) in [(Rule::Freestyle, 0), (Rule::Standard, 1), (Rule::Renju, 4)] {
        let (board, late) = game(rule, code, 15);
        slowest = slowest.max(late);
        let result = board.result().unwrap();
        eprintln!(
            "{rule:?}: {} moves, {:?} ({}), slowest reply {late} ms of {TURN_MS}",
            board.moves().len(),
            result.winner,
            result.reason.name()
        );
    }
    eprintln!("slowest reply over all games: {slowest} ms, limit {TURN_MS} ms");
}

#[test]
fn match_time_is_spread_over_the_game_and_never_runs_out() {
    const MATCH_MS: u64 = 4_000;
    let mut brains = [Brain::spawn(), Brain::spawn()];
    for b in &mut brains {
        // The same rule as the board below (exactly five).
        b.send("INFO rule 1");
        b.send("INFO timeout_turn 1000");
        b.send(&format!("INFO timeout_match {MATCH_MS}"));
        assert_eq!(b.ask("START 15"), "OK");
    }
    let mut left = [MATCH_MS as u128; 2];
    let mut board = Board::new(15, Rule::Standard).unwrap();
    let mut last: Option<String> = None;
    while board.result().is_none() {
        let side = board.stone_count() % 2;
        brains[side].send(&format!("INFO time_left {}", left[side]));
        let asked = Instant::now();
        let reply = match &last {
            None => brains[side].ask("BEGIN"),
            Some(mv) => brains[side].ask(&format!("TURN {mv}")),
        };
        let took = asked.elapsed().as_millis();
        assert!(
            took < left[side],
            "lost on time: {took} ms with {} ms left",
            left[side]
        );
        left[side] -= took;
        let (x, y) = xy(&reply);
        board.try_play(Point::new(x, y)).unwrap();
        last = Some(reply);
    }
    eprintln!(
        "{} moves; time left: {} ms and {} ms of {MATCH_MS}",
        board.moves().len(),
        left[0],
        left[1]
    );
}
