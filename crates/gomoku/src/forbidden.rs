//! Renju: Black's forbidden moves (fouls).
//!
//! A Black move that makes an exact five wins, whatever else it makes. Otherwise it is a foul
//! when it makes an overline (six or more), two or more fours (also two in one line, like
//! `X_XXX_X`), or two or more *real* open threes. A three is real when one of the points
//! that would turn it into a straight four is itself not forbidden once the three's stone is
//! on the board: checked recursively, as the official rules and the referee programs do.

use crate::board::Board;
use crate::notation::Point;
use crate::pattern::{Shape, REACH};
use wuzi_search::Player;

const BLACK: Player = Player::First;

/// The kind of foul a Black move commits under renju.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl Foul {
    pub fn name(self) -> &'static str {
        match self {
            Foul::DoubleThree => "double-three",
            Foul::DoubleFour => "double-four",
            Foul::Overline => "overline",
        }
    }
}

/// Whether a stone with these line shapes makes two or more open threes: a double three when
/// two are real, which [`Board::foul`] checks. Where the point is legal one of them is fake
/// for now, and a defender's stone anywhere that makes its straight-four point legal makes it
/// real: the solvers then look at every defence, not only those along the threat's line.
pub(crate) fn two_open_threes(shapes: &[Shape; 4]) -> bool {
    shapes.iter().filter(|&&s| s == Shape::OpenThree).count() >= 2
}

impl Board {
    /// Under renju, the foul a Black stone on `p` would commit now; `None` when it is not
    /// forbidden, when `p` is not an empty point, or under the other rules. Does not depend on
    /// whose turn it is. Leaves the board as it was (it places stones to look ahead).
    pub fn foul(&mut self, p: Point) -> Option<Foul> {
        if !self.rule().has_fouls(BLACK) || !self.is_empty(p) {
            return None;
        }
        self.foul_at(p)
    }

    /// Whether the side to move may play `p` now: on the board, empty, the game not over, and
    /// under renju not a foul for Black.
    pub fn is_legal(&mut self, p: Point) -> bool {
        self.result().is_none()
            && p.on_board(self.size())
            && self.is_empty(p)
            && !(self.side_to_move() == BLACK && self.foul(p).is_some())
    }

    /// Whether the game is not over, yet the side to move may play nowhere: under renju,
    /// Black with every empty point forbidden (a referee scores that as Black's loss).
    pub fn no_legal_move(&mut self) -> bool {
        self.result().is_none() && !self.has_legal_move()
    }

    /// Whether the side to move has any legal move (under renju Black may have none, when
    /// every empty point is forbidden).
    pub fn has_legal_move(&mut self) -> bool {
        if self.result().is_some() {
            return false;
        }
        // By index: `points()` borrows the board, which the foul test needs to change.
        let n = self.size();
        (0..n * n).any(|i| {
            let p = Point::new(i % n, i / n);
            self.is_empty(p) && self.is_legal(p)
        })
    }

    /// Keeps only the points of `moves` the side to move may legally play (under renju, drops
    /// Black's forbidden points; under the other rules, a no-op). Allocates nothing.
    pub fn retain_legal(&mut self, moves: &mut Vec<Point>) {
        if self.side_to_move() != BLACK || !self.rule().has_fouls(BLACK) {
            return;
        }
        moves.retain(|&p| self.foul(p).is_none());
    }

    /// The points where Black may not play now (renju only), row by row from the top.
    pub fn forbidden_points(&mut self) -> Vec<(Point, Foul)> {
        let mut out = Vec::new();
        if !self.rule().has_fouls(BLACK) {
            return out;
        }
        let points: Vec<Point> = self.points().collect();
        for p in points {
            if let Some(f) = self.foul(p) {
                out.push((p, f));
            }
        }
        out
    }

    /// Under renju, when `line` (moves from this position, as a principal variation) ends with
    /// Black's move on a forbidden point, that point and its foul: the search counts such a
    /// forced block as Black's loss, and a reader must not take it for a move that goes on.
    /// `None` for a line that ends otherwise, or that is not legal up to its last move.
    pub fn line_ends_in_foul(&self, line: &[Point]) -> Option<(Point, Foul)> {
        let (&last, before) = line.split_last()?;
        if !self.rule().has_fouls(BLACK) {
            return None;
        }
        let mut board = self.clone();
        for &p in before {
            board.try_play(p).ok()?;
        }
        if board.side_to_move() != BLACK || board.result().is_some() {
            return None;
        }
        board.foul(last).map(|f| (last, f))
    }

    fn foul_at(&mut self, p: Point) -> Option<Foul> {
        let shapes = self.shapes(p, BLACK);
        if shapes.contains(&Shape::Five) {
            return None;
        }
        if shapes.contains(&Shape::Overline) {
            return Some(Foul::Overline);
        }
        if shapes.iter().map(|s| s.four_count()).sum::<u32>() >= 2 {
            return Some(Foul::DoubleFour);
        }
        if !two_open_threes(&shapes) {
            return None;
        }
        self.put(p, BLACK);
        let mut real = 0;
        for (d, &shape) in shapes.iter().enumerate() {
            if shape == Shape::OpenThree && self.real_three(p, d) {
                real += 1;
                if real == 2 {
                    break;
                }
            }
        }
        self.take(p, BLACK);
        (real >= 2).then_some(Foul::DoubleThree)
    }

    /// With Black's stone on `p`, whether the open three through `p` along `d` can become a
    /// straight four on a point that is not itself forbidden.
    fn real_three(&mut self, p: Point, d: usize) -> bool {
        let (l, q, len) = self.locate(p, d);
        let black = self.bits[0][d][l];
        let occupied = black | self.bits[1][d][l];
        for r in q.saturating_sub(3)..=(q + 3).min(len - 1) {
            if (occupied >> (r + REACH)) & 1 != 0
                || self.shapes[0][d][l][r + REACH] != Shape::OpenFour as u8
            {
                continue;
            }
            // The straight four made on `r` is the run of stones through it: it must hold `p`.
            let bits = black | 1 << (r + REACH);
            let (mut a, mut b) = (r + REACH, r + REACH);
            while bits >> (a - 1) & 1 != 0 {
                a -= 1;
            }
            while bits >> (b + 1) & 1 != 0 {
                b += 1;
            }
            if !(a..=b).contains(&(q + REACH)) {
                continue;
            }
            let key = self.line_point(d, l, r);
            if self.foul_at(key).is_none() {
                return true;
            }
        }
        false
    }
}
