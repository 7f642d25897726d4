//! The AI never loses at tic-tac-toe, and wins whenever the opponent errs: proven by playing
//! every strategy, as X and as O, against every possible sequence of opponent replies.

use std::collections::HashMap;
use wuzi_mnk::Mnk;
use wuzi_search::{
    AlphaBeta, Game, Minimax, Negamax, Player, Score, Searcher, Strategy, DEFAULT_TT_BYTES,
    UNLIMITED_DEPTH,
};

/// Exact value for the side to move: 1 win, 0 draw, -1 loss (memoised negamax).
fn value(game: &mut Mnk, memo: &mut HashMap<u64, i8>) -> i8 {
    if let Some(outcome) = game.outcome() {
        return match outcome {
            wuzi_search::Outcome::Draw => 0,
            wuzi_search::Outcome::Win(p) if p == game.side_to_move() => 1,
            wuzi_search::Outcome::Win(_) => -1,
        };
    }
    if let Some(&v) = memo.get(&game.hash()) {
        return v;
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut best = -1;
    for mv in moves {
        game.play(mv);
        best = best.max(-value(game, memo));
        game.undo(mv);
    }
    memo.insert(game.hash(), best);
    best
}

struct Tally {
    games: u64,
    ai_wins: u64,
}

/// Plays out every line; `owed_win` is set once the AI has stood in a won position.
fn explore(
    game: &mut Mnk,
    ai: Player,
    strategy: &mut dyn Strategy<Mnk>,
    owed_win: bool,
    memo: &mut HashMap<u64, i8>,
    tally: &mut Tally,
) {
    if let Some(outcome) = game.outcome() {
        tally.games += 1;
        let line: Vec<String> = game.history().iter().map(|&c| game.cell_name(c)).collect();
        assert_ne!(
            outcome,
            wuzi_search::Outcome::Win(ai.opponent()),
            "{} lost: {line:?}",
            strategy.name()
        );
        if owed_win {
            assert_eq!(
                outcome,
                wuzi_search::Outcome::Win(ai),
                "{} let a won game slip: {line:?}",
                strategy.name()
            );
        }
        if outcome == wuzi_search::Outcome::Win(ai) {
            tally.ai_wins += 1;
        }
        return;
    }
    if game.side_to_move() == ai {
        let owed_win = owed_win || value(game, memo) == 1;
        let mv = strategy
            .search(game)
            .best_move
            .expect("a move while the game goes on");
        game.play(mv);
        explore(game, ai, strategy, owed_win, memo, tally);
        game.undo(mv);
    } else {
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        for mv in moves {
            game.play(mv);
            explore(game, ai, strategy, owed_win, memo, tally);
            game.undo(mv);
        }
    }
}

fn strategies() -> Vec<Box<dyn Strategy<Mnk>>> {
    vec![
        Box::new(Minimax {
            depth: UNLIMITED_DEPTH,
        }),
        Box::new(Negamax {
            depth: UNLIMITED_DEPTH,
        }),
        Box::new(AlphaBeta {
            depth: UNLIMITED_DEPTH,
        }),
        Box::new(Searcher::new(DEFAULT_TT_BYTES)),
    ]
}

#[test]
fn never_loses_and_punishes_every_error() {
    let mut memo = HashMap::new();
    for mut strategy in strategies() {
        for ai in [Player::First, Player::Second] {
            let mut tally = Tally {
                games: 0,
                ai_wins: 0,
            };
            explore(
                &mut Mnk::tic_tac_toe(),
                ai,
                strategy.as_mut(),
                false,
                &mut memo,
                &mut tally,
            );
            assert!(
                tally.games >= 50,
                "{} as {ai:?}: only {} games",
                strategy.name(),
                tally.games
            );
            assert!(tally.ai_wins > 0, "{} as {ai:?} never won", strategy.name());
        }
    }
}

/// Every reachable position where a win in 1 and a win in 3 are both on offer.
fn positions_with_two_wins() -> Vec<Mnk> {
    fn walk(game: &mut Mnk, seen: &mut HashMap<u64, ()>, found: &mut Vec<Mnk>) {
        if game.is_over() || seen.insert(game.hash(), ()).is_some() {
            return;
        }
        let mut moves = Vec::new();
        game.legal_moves(&mut moves);
        let mut values = Vec::new();
        for &mv in &moves {
            game.play(mv);
            values.push(
                -Minimax {
                    depth: UNLIMITED_DEPTH,
                }
                .search(game)
                .score
                .to_root_relative(1),
            );
            game.undo(mv);
        }
        if values.contains(&Score::win_in(1)) && values.contains(&Score::win_in(3)) {
            found.push(game.clone());
        }
        for mv in moves {
            game.play(mv);
            walk(game, seen, found);
            game.undo(mv);
        }
    }
    let mut found = Vec::new();
    walk(&mut Mnk::tic_tac_toe(), &mut HashMap::new(), &mut found);
    found
}

#[test]
fn every_strategy_takes_the_shortest_win() {
    let positions = positions_with_two_wins();
    assert!(positions.len() > 50, "only {} positions", positions.len());
    for mut game in positions {
        for mut strategy in strategies() {
            let result = strategy.search(&mut game);
            assert_eq!(
                result.score,
                Score::win_in(1),
                "{} on\n{game}",
                strategy.name()
            );
            let mv = result.best_move.unwrap();
            game.play(mv);
            assert_eq!(
                game.winner(),
                Some(game.side_to_move().opponent()),
                "{} on\n{game}",
                strategy.name()
            );
            game.undo(mv);
        }
    }
}

#[test]
fn solves_small_boards() {
    let mut searcher = Searcher::new(DEFAULT_TT_BYTES);
    for (w, h, k, value) in [(3, 3, 3, 0), (4, 3, 3, 1), (4, 4, 4, 0), (5, 4, 4, 0)] {
        let mut game = Mnk::new(w, h, k).unwrap();
        let result = Strategy::search(&mut searcher, &mut game);
        let sign = result.score.value().signum();
        assert_eq!(sign, value, "{w},{h},{k}: {}", result.score);
    }
}
