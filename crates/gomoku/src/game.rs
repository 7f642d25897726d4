//! Gomoku as a [`wuzi_search::Game`]: the board plus the engine's scratch state.

use crate::board::Board;
use crate::eval::evaluate;
use crate::movegen::{five_points, MoveGen};
use crate::notation::{Point, MAX_SIZE};
use wuzi_search::{Game, Outcome, Player, Score};

/// A board being searched: the position and the buffers move generation reuses.
#[derive(Clone)]
pub struct Gomoku {
    pub board: Board,
    movegen: MoveGen,
    fives: Vec<Point>,
}

impl Gomoku {
    pub fn new(board: Board) -> Gomoku {
        Gomoku {
            board,
            movegen: MoveGen::default(),
            fives: Vec::with_capacity(8),
        }
    }
}

impl Game for Gomoku {
    type Move = Point;

    const ORDERED_CANDIDATES: bool = true;

    fn side_to_move(&self) -> Player {
        self.board.side_to_move()
    }

    fn legal_moves(&self, out: &mut Vec<Point>) {
        if self.board.result().is_none() {
            out.extend(self.board.points().filter(|&p| self.board.is_empty(p)));
        }
    }

    fn play(&mut self, mv: Point) {
        self.board.play(mv);
    }

    fn undo(&mut self, _mv: Point) {
        self.board.undo();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn evaluate(&self) -> Score {
        Score::heuristic(evaluate(&self.board))
    }

    fn candidate_moves(&mut self, out: &mut Vec<Point>) {
        self.movegen.candidates(&mut self.board, out);
    }

    /// A five to make wins now; two fives to block cannot both be blocked.
    fn probe(&mut self, _depth: u32) -> Option<Score> {
        let me = self.board.side_to_move();
        if self.board.threats(me).five > 0 {
            return Some(Score::win_in(1));
        }
        let them = me.opponent();
        if self.board.threats(them).five >= 2 {
            self.fives.clear();
            five_points(&self.board, them, &mut self.fives, 2);
            if self.fives.len() >= 2 {
                return Some(Score::loss_in(2));
            }
        }
        None
    }

    fn move_index(&self, mv: Point) -> usize {
        mv.index()
    }

    fn move_index_bound(&self) -> usize {
        MAX_SIZE * MAX_SIZE
    }

    fn max_remaining_plies(&self) -> Option<u32> {
        Some((self.board.size() * self.board.size() - self.board.stone_count()) as u32)
    }
}
