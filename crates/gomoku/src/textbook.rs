//! Gomoku as the tutorials search it, for the textbook strategies of Learn mode: the
//! candidates are every empty point within two of a stone (or the best N of them by the
//! tutorials' point score), with no forced-reply pruning, no threat probes and no table, so
//! that minimax, negamax, alpha-beta and PVS search exactly the same tree and must agree.

use crate::board::Board;
use crate::eval::{evaluate_with, EvalKind};
use crate::movegen::{point_priority, MoveGen};
use crate::notation::Point;
use std::cell::RefCell;
use wuzi_search::{Game, Outcome, Player, Score};

/// The order candidates are tried in. The set searched is the same either way; only how much
/// alpha-beta can cut changes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum CandidateOrder {
    /// Best first by the point score: what alpha-beta wants.
    #[default]
    BestFirst,
    /// Worst first: the same candidates reversed, to show what ordering is worth.
    Reversed,
}

/// A board searched by the textbook strategies. The board sits in a `RefCell` because the
/// renju foul check (which candidates are legal) plays stones to look ahead, and the
/// [`Game`] trait lists moves from a shared reference.
pub struct TextbookGomoku {
    board: RefCell<Board>,
    /// At most this many candidates, best first (0: all of them).
    width: usize,
    order: CandidateOrder,
    eval: EvalKind,
}

impl TextbookGomoku {
    pub fn new(board: Board, width: usize, order: CandidateOrder) -> TextbookGomoku {
        TextbookGomoku {
            board: RefCell::new(board),
            width,
            order,
            eval: EvalKind::default(),
        }
    }

    pub fn board(&self) -> std::cell::Ref<'_, Board> {
        self.board.borrow()
    }
}

/// The tutorials' point score of an empty point for the side to move: what a stone there
/// makes for it, counted twice, plus what it takes from the opponent (the cached shapes the
/// engine's move generator scores with).
pub fn point_score(board: &Board, p: Point) -> i32 {
    let me = board.side_to_move();
    point_priority(board.shapes(p, me)) * 2 + point_priority(board.shapes(p, me.opponent()))
}

/// Every empty point within two of a stone (the centre on an empty board) that the side to
/// move may play, best first by [`point_score`] (ties in board order), at most `width` of them
/// (0: all). When no such point is legal, every legal point.
pub fn textbook_candidates(board: &mut Board, width: usize, out: &mut Vec<Point>) {
    if board.result().is_some() {
        return;
    }
    MoveGen::nearby(board, out);
    board.retain_legal(out);
    if out.is_empty() {
        out.extend(board.points().filter(|&p| board.is_empty(p)));
        board.retain_legal(out);
    }
    // Stable: equal scores keep board order, so every search sees the same order.
    out.sort_by_key(|&p| std::cmp::Reverse(point_score(board, p)));
    if width > 0 {
        out.truncate(width);
    }
}

impl Game for TextbookGomoku {
    type Move = Point;

    fn side_to_move(&self) -> Player {
        self.board.borrow().side_to_move()
    }

    fn legal_moves(&self, out: &mut Vec<Point>) {
        let start = out.len();
        let mut board = self.board.borrow_mut();
        let mut moves = Vec::new();
        textbook_candidates(&mut board, self.width, &mut moves);
        if self.order == CandidateOrder::Reversed {
            moves.reverse();
        }
        out.truncate(start);
        out.extend(moves);
    }

    fn play(&mut self, mv: Point) {
        self.board.get_mut().play(mv);
    }

    fn undo(&mut self, _mv: Point) {
        self.board.get_mut().undo();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.borrow().outcome()
    }

    fn hash(&self) -> u64 {
        self.board.borrow().hash()
    }

    fn evaluate(&self) -> Score {
        Score::heuristic(evaluate_with(&self.board.borrow(), self.eval))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn candidates_are_the_points_near_stones_best_first() {
        let mut board = Board::from_moves(15, Rule::Freestyle, "h8 i9 h9").unwrap();
        let mut all = Vec::new();
        textbook_candidates(&mut board, 0, &mut all);
        // The 5x5 squares around h8, h9 and i9: columns f-j by rows 6-11, and k7-k11, less
        // the three stones.
        assert_eq!(all.len(), 5 * 6 + 5 - 3);
        let scores: Vec<i32> = all.iter().map(|&p| point_score(&board, p)).collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        let mut best = Vec::new();
        textbook_candidates(&mut board, 5, &mut best);
        assert_eq!(best, all[..5]);
        let mut game = TextbookGomoku::new(board, 5, CandidateOrder::Reversed);
        let mut reversed = Vec::new();
        game.legal_moves(&mut reversed);
        assert_eq!(reversed, all[..5].iter().rev().copied().collect::<Vec<_>>());
        game.play(reversed[0]);
        game.undo(reversed[0]);
        assert_eq!(game.board().stone_count(), 3);
    }
}
