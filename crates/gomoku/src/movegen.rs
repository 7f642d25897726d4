//! Candidate moves for the engine's search, from the cached shapes of both colours.
//!
//! Threats come first and, where the rules of the game force the reply, alone: a five is played
//! at once; a five threatened by the opponent is blocked; an open three of the opponent's is
//! answered (a block, or a four of our own that gains the tempo). Otherwise every empty point
//! within two of a stone is a candidate, best first by what it makes for us (attack) and what
//! it denies the opponent (defence).

use crate::board::Board;
use crate::eval::{EvalKind, ATTACK, DEFENCE};
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::{Shape, REACH};
use wuzi_search::Player;

/// How promising a shape on a point is, for ordering (not evaluation).
fn shape_priority(shape: Shape) -> i32 {
    match shape {
        Shape::None | Shape::Overline => 0,
        Shape::One => 1,
        Shape::Two => 4,
        Shape::OpenTwo => 12,
        Shape::Three => 14,
        Shape::OpenThree => 60,
        Shape::Four => 70,
        Shape::FourFour | Shape::OpenFour => 400,
        Shape::Five => 10_000,
    }
}

/// The four shapes of a point folded into one number; two threats (four or open three) on one
/// point make a winning combination and count extra.
pub(crate) fn point_priority(shapes: [Shape; 4]) -> i32 {
    let threats = shapes.iter().filter(|s| **s >= Shape::OpenThree).count() as i32;
    shapes.iter().map(|&s| shape_priority(s)).sum::<i32>() + if threats >= 2 { 300 } else { 0 }
}

/// Scratch state for move generation, kept between calls so that generating moves allocates
/// nothing once warm.
#[derive(Clone)]
pub struct MoveGen {
    priorities: Vec<i32>,
    /// At most this many moves are searched where nothing forces the reply (0: all). The
    /// scoring puts the moves that matter first; the tail is quiet points near stones.
    pub max_candidates: usize,
    /// Whether the last call left moves out for `max_candidates`.
    pub truncated: bool,
    /// How candidates are ordered: the hand weights of [`point_priority`], or the learned
    /// policy tables (see [`crate::eval::Weights`]).
    pub order: EvalKind,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen {
            priorities: vec![0; MAX_SIZE * MAX_SIZE],
            max_candidates: 0,
            truncated: false,
            order: EvalKind::Classic,
        }
    }
}

/// Points a colour can make five on (at most `limit` of them, distinct, in board order).
pub fn five_points(board: &Board, colour: Player, out: &mut Vec<Point>, limit: usize) {
    if board.threats(colour).five == 0 {
        return;
    }
    for p in board.points() {
        if out.len() >= limit {
            return;
        }
        if board.is_empty(p) && board.shapes(p, colour).contains(&Shape::Five) {
            out.push(p);
        }
    }
}

impl MoveGen {
    /// Empty points within Chebyshev distance 2 of a stone (the centre on an empty board),
    /// row by row: the rows of stones as bitmasks, widened by two each way and OR-ed over
    /// five rows.
    fn nearby(board: &Board, out: &mut Vec<Point>) {
        let n = board.size();
        if board.stone_count() == 0 {
            out.push(Point::new(n / 2, n / 2));
            return;
        }
        let row_mask = (1u32 << n) - 1;
        let mut stones = [0u32; MAX_SIZE];
        for (y, row) in stones.iter_mut().enumerate().take(n) {
            *row = ((board.bits[0][0][y] | board.bits[1][0][y]) >> REACH) & row_mask;
        }
        for y in 0..n {
            let mut near = 0;
            for &m in &stones[y.saturating_sub(2)..=(y + 2).min(n - 1)] {
                near |= m | m << 1 | m << 2 | m >> 1 | m >> 2;
            }
            near &= row_mask & !stones[y];
            while near != 0 {
                out.push(Point::new(near.trailing_zeros() as usize, y));
                near &= near - 1;
            }
        }
    }

    /// Candidate moves for the side to move, best first (the caller clears `out`). Every
    /// candidate is legal: under renju Black's forbidden points never are candidates, not even
    /// as the only block of a five (the position is then lost, and any legal move is as good).
    pub fn candidates(&mut self, board: &mut Board, out: &mut Vec<Point>) {
        self.truncated = false;
        if board.result().is_some() {
            return;
        }
        let me = board.side_to_move();
        let them = me.opponent();
        // A five of our own is never forbidden (renju: five beats a foul).
        five_points(board, me, out, 1);
        if !out.is_empty() {
            return;
        }
        five_points(board, them, out, usize::MAX);
        board.retain_legal(out);
        if !out.is_empty() {
            return;
        }
        let mut forced = false;
        if board.threats(them).five == 0 {
            Self::nearby(board, out);
            board.retain_legal(out);
            forced = board.threats(them).open_four > 0;
        }
        if forced {
            // Keep only the moves after which the opponent has no open four to make, and our
            // own fours (which force a reply and so may come first).
            out.retain(|&p| {
                if board.shapes(p, me).iter().any(|s| s.is_four()) {
                    return true;
                }
                board.play(p);
                let answered = board.result().is_some() || board.threats(them).open_four == 0;
                board.undo();
                answered
            });
        }
        if out.is_empty() {
            // Nothing stops the threat (or the only blocks are forbidden): every move loses,
            // and the search must see that by playing one.
            forced = true;
            Self::nearby(board, out);
            board.retain_legal(out);
        }
        match self.order {
            EvalKind::Classic => {
                for &p in out.iter() {
                    let attack = point_priority(board.shapes(p, me));
                    let defence = point_priority(board.shapes(p, them));
                    self.priorities[p.index()] = attack * 2 + defence;
                }
            }
            EvalKind::Learned => {
                let policy = &board.weights().policy[me.index()];
                for &p in out.iter() {
                    self.priorities[p.index()] =
                        policy[ATTACK][board.code(p, me)] + policy[DEFENCE][board.code(p, them)];
                }
            }
        }
        let priorities = &self.priorities;
        // Stable: equal points keep board order, so the search is deterministic.
        for i in 1..out.len() {
            let mut j = i;
            while j > 0 && priorities[out[j - 1].index()] < priorities[out[j].index()] {
                out.swap(j - 1, j);
                j -= 1;
            }
        }
        if !forced && self.max_candidates > 0 && out.len() > self.max_candidates {
            out.truncate(self.max_candidates);
            self.truncated = true;
        }
    }
}

/// The engine's candidate moves for the side to move, best first by `order` (all of them: no
/// width limit). For measuring move ordering from outside the engine.
pub fn ordered_candidates(board: &mut Board, order: EvalKind, out: &mut Vec<Point>) {
    let mut g = MoveGen {
        order,
        ..MoveGen::default()
    };
    out.clear();
    g.candidates(board, out);
}
