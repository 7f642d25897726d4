//! The engine never misses a win in one, never fails to block a four, and answers an open
//! three when that is the only way not to lose.

use wuzi_gomoku::{Board, Gomoku, Rule};
use wuzi_search::{Limits, Score, Searcher};

fn best(moves: &str, rule: Rule, depth: u32) -> (String, Score) {
    let board = Board::from_moves(15, rule, moves).unwrap();
    let mut game = Gomoku::new(board);
    let mut searcher = Searcher::new(1 << 20);
    let result = searcher.search(&mut game, &Limits::depth(depth), |_| {});
    (result.best_move.unwrap().to_human(15), result.score)
}

#[test]
fn takes_a_win_in_one() {
    for rule in Rule::ALL {
        // Black has h8-k8 open; White has a three of its own.
        let (mv, score) = best("h8 h9 i8 i9 j8 j9 k8 a1", rule, 4);
        assert!(mv == "g8" || mv == "l8", "{rule:?}: {mv}");
        assert_eq!(score, Score::win_in(1));
    }
}

#[test]
fn blocks_a_four() {
    for rule in Rule::ALL {
        // White a1-d1 threatens e1; Black has nothing of its own.
        let (mv, _) = best("h8 a1 h10 b1 c15 c1 j15 d1", rule, 4);
        assert_eq!(mv, "e1", "{rule:?}");
    }
}

#[test]
fn answers_an_open_three() {
    for rule in Rule::ALL {
        // White h8-i8-j8 is open at both ends; Black's stones are far apart.
        let (mv, score) = best("a15 h8 o15 i8 a1 j8", rule, 4);
        assert!(mv == "g8" || mv == "k8", "{rule:?}: {mv}");
        assert!(score.forced().is_none(), "{rule:?}: {score}");
    }
}
