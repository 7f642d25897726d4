//! Candidate moves for the engine's search, from the cached shapes of both colours.
//!
//! Threats come first and, where the rules of the game force the reply, alone: a five is played
//! at once; a five threatened by the opponent is blocked; an open three of the opponent's is
//! answered (a block, or a four of our own that gains the tempo). Otherwise every empty point
//! within two of a stone is a candidate, best first by what it makes for us (attack) and what
//! it denies the opponent (defence).

use crate::board::Board;
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::Shape;
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
fn point_priority(shapes: [Shape; 4]) -> i32 {
    let threats = shapes.iter().filter(|s| **s >= Shape::OpenThree).count() as i32;
    shapes.iter().map(|&s| shape_priority(s)).sum::<i32>() + if threats >= 2 { 300 } else { 0 }
}

/// Scratch state for move generation, kept between calls so that generating moves allocates
/// nothing once warm.
#[derive(Clone)]
pub struct MoveGen {
    /// `near[p] == stamp` marks point `p` as within reach of a stone in the current call.
    near: Vec<u32>,
    stamp: u32,
    priorities: Vec<i32>,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen {
            near: vec![0; MAX_SIZE * MAX_SIZE],
            stamp: 0,
            priorities: vec![0; MAX_SIZE * MAX_SIZE],
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
    /// Empty points within Chebyshev distance 2 of a stone (the centre on an empty board).
    fn nearby(&mut self, board: &Board, out: &mut Vec<Point>) {
        let size = board.size() as isize;
        if board.stone_count() == 0 {
            out.push(Point::new(board.size() / 2, board.size() / 2));
            return;
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.near.iter_mut().for_each(|n| *n = 0);
            self.stamp = 1;
        }
        // Positions set up from stones have no history, so look at the board itself.
        for stone in board.points().filter(|&p| !board.is_empty(p)) {
            for dy in -2isize..=2 {
                for dx in -2isize..=2 {
                    let (x, y) = (stone.x() as isize + dx, stone.y() as isize + dy);
                    if x < 0 || y < 0 || x >= size || y >= size {
                        continue;
                    }
                    let p = Point::new(x as usize, y as usize);
                    if self.near[p.index()] != self.stamp && board.is_empty(p) {
                        self.near[p.index()] = self.stamp;
                        out.push(p);
                    }
                }
            }
        }
    }

    /// Candidate moves for the side to move, best first (the caller clears `out`).
    pub fn candidates(&mut self, board: &mut Board, out: &mut Vec<Point>) {
        if board.result().is_some() {
            return;
        }
        let me = board.side_to_move();
        let them = me.opponent();
        five_points(board, me, out, 1);
        if !out.is_empty() {
            return;
        }
        five_points(board, them, out, usize::MAX);
        if !out.is_empty() {
            return;
        }
        self.nearby(board, out);
        if board.threats(them).open_four > 0 {
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
            if out.is_empty() {
                // Nothing stops the threat: every move loses, and the search must see that.
                self.nearby(board, out);
            }
        }
        for &p in out.iter() {
            let attack = point_priority(board.shapes(p, me));
            let defence = point_priority(board.shapes(p, them));
            self.priorities[p.index()] = attack * 2 + defence;
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
    }
}
