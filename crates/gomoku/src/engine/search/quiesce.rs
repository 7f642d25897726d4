//! Past the leaves: the fours that a static evaluation cannot see.

use super::Search;
use crate::board::Board;
use crate::eval::evaluate_with;
use crate::movegen::five_points;
use crate::notation::Point;
use wuzi_search::{terminal_score, Player, Score, MAX_PLY};

impl Search {
    /// Past the leaves: the side to move may stand on the static evaluation or continue its
    /// attack with a four near its last stone; a five to block is blocked. Resolves the
    /// fours that a static evaluation cannot see.
    pub(super) fn quiesce(
        &mut self,
        board: &mut Board,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        qply: u32,
    ) -> Score {
        if qply > 0 && !self.enter(ply) {
            return Score::DRAW;
        }
        let me = board.side_to_move();
        if let Some(outcome) = board.outcome() {
            return terminal_score(outcome, me, ply as u32);
        }
        let plies = ply as u32;
        let them = me.opponent();
        let (mine, theirs) = (board.threats(me), board.threats(them));
        if mine.five > 0 {
            return Score::win_in(plies + 1);
        }
        if ply >= MAX_PLY - 2 {
            return Score::heuristic(evaluate_with(board, self.eval));
        }
        if theirs.five > 0 {
            self.fives.clear();
            five_points(board, them, &mut self.fives, 2);
            if self.fives.len() >= 2 || !board.is_legal(self.fives[0]) {
                return Score::loss_in(plies + 2);
            }
            let block = self.fives[0];
            board.play(block);
            let score = -self.quiesce(board, ply + 1, -beta, -alpha, qply + 1);
            board.undo();
            return score;
        }
        let stand = Score::heuristic(evaluate_with(board, self.eval));
        if stand >= beta || mine.four == 0 || qply >= self.params.quiescence_plies {
            return stand;
        }
        alpha = alpha.max(stand);
        let Some(&last) = board.moves().iter().rev().nth(1) else {
            return stand;
        };
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        fours_near(board, me, last, &mut moves);
        let mut best = stand;
        for &mv in &moves {
            board.play(mv);
            let score = -self.quiesce(board, ply + 1, -beta, -alpha, qply + 1);
            board.undo();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        best
    }
}

/// The legal points within four of `from` along its lines where `me` makes a four.
fn fours_near(board: &mut Board, me: Player, from: Point, out: &mut Vec<Point>) {
    board.for_each_shape_near(from, me, |p, shape| {
        if shape.is_four() && !out.contains(&p) {
            out.push(p);
        }
    });
    board.retain_legal(out);
}
