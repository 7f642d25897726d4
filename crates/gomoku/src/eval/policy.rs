//! The learned move-ordering policy: what it reads of a candidate point, and its tables.
//!
//! A candidate's priority for the colour to move is the sum of
//! - `codes[ATTACK][its code for us]` and `codes[DEFENCE][its code for the opponent]`;
//! - `combo[class of our code][class of theirs]`: how the point's attack and defence go
//!   together (a point that makes a three and blocks one is worth more than the sum);
//! - `near[LAST_THEM][where it is from the opponent's last move][class of their code]` and
//!   `near[LAST_US][... from our own last move][class of our code]`: the reply to a move is
//!   most often near it, and a block near it (or a follow-up near ours) more so;
//! - `local[stones of ours][stones of theirs]` within two of it (0 to 6+ each);
//! - `state[ATTACK][threat state][class of our code]` and `state[DEFENCE][...][class of
//!   theirs]`, where the threat state is what each side could make next anywhere (an open
//!   four, a four, an open three, nothing): whether attack or defence matters more.
//!
//! Every term is one table lookup, so ordering stays cheap at every node of the search.

use super::codes::{CODES, SHAPES};
use crate::board::{Board, ThreatCounts};
use crate::notation::Point;
use crate::pattern::Shape;
use wuzi_search::Player;

/// The policy table of the point's code for the side to move...
pub const ATTACK: usize = 0;
/// ... and of its code for the opponent.
pub const DEFENCE: usize = 1;
/// The `near` table of the distance from the opponent's last move...
pub const LAST_THEM: usize = 0;
/// ... and from our own last move.
pub const LAST_US: usize = 1;
/// Places relative to a last move: Chebyshev distance 1, 2, 3, 4+ (or no such move), each on
/// one of the four lines through it or not.
pub const NEAR: usize = 8;
/// The index of "no last move" in the `near` tables (distance 4+, off its lines).
pub const NEAR_NONE: usize = 3;
/// Shape classes of a code: the strongest shape and the second strongest (of its four lines),
/// each one of nothing, two, open two, three, open three, four, more.
pub const CLASSES: usize = 28;
/// Entries of a `combo` table: `attack class * CLASSES + defence class`.
pub const COMBOS: usize = CLASSES * CLASSES;
/// Entries of a `near` table: `near index * CLASSES + class`.
pub const NEARS: usize = NEAR * CLASSES;
/// Threat states: [`threat_level`] of ours times 4 plus theirs.
pub const STATES: usize = 16;
/// Entries of a `state` table: `threat state * CLASSES + class`.
pub const STATE_ENTRIES: usize = STATES * CLASSES;
/// Entries of a `local` table: `min(our stones, 6) * 7 + min(theirs, 6)` in the 5x5 square
/// around the point.
pub const LOCAL: usize = 49;

/// The category of a shape for [`CLASSES`].
const fn category(s: u8) -> u8 {
    match s {
        x if x <= Shape::One as u8 => 0,
        x if x == Shape::Two as u8 => 1,
        x if x == Shape::OpenTwo as u8 => 2,
        x if x == Shape::Three as u8 => 3,
        x if x == Shape::OpenThree as u8 => 4,
        x if x == Shape::Four as u8 => 5,
        _ => 6,
    }
}

/// `CLASS[code]`, see [`CLASSES`].
static CLASS: [u8; CODES] = {
    let mut t = [0u8; CODES];
    let mut code = 0;
    while code < CODES {
        let s = SHAPES[code];
        let (top, second) = (category(s[3] as u8), category(s[2] as u8));
        t[code] = top * (top + 1) / 2 + second;
        code += 1;
    }
    t
};

/// The shape class of a code (see [`CLASSES`]).
#[inline(always)]
pub fn class_of(code: usize) -> usize {
    CLASS[code] as usize
}

/// What a colour could make next anywhere: 3 an open four, 2 a four, 1 an open three, 0
/// less.
#[inline(always)]
pub fn threat_level(t: ThreatCounts) -> usize {
    if t.open_four > 0 {
        3
    } else if t.four > 0 {
        2
    } else {
        usize::from(t.open_three > 0)
    }
}

/// Where `p` is from the move `last` (see [`NEAR`]).
#[inline(always)]
pub fn near_index(p: Point, last: Point) -> usize {
    near_index_xy((p.x(), p.y()), (last.x(), last.y()))
}

/// [`near_index`] on (column, row) pairs.
#[inline(always)]
fn near_index_xy((x, y): (usize, usize), (lx, ly): (usize, usize)) -> usize {
    let (dx, dy) = (x.abs_diff(lx), y.abs_diff(ly));
    let d = dx.max(dy).clamp(1, 4);
    let aligned = dx == 0 || dy == 0 || dx == dy;
    d - 1 + if aligned { 4 } else { 0 }
}

/// The policy tables of a rule (see the module docs), per colour to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// `[colour to move][ATTACK or DEFENCE][code]`.
    pub codes: [[[i32; CODES]; 2]; 2],
    /// `[colour to move][LAST_THEM or LAST_US][near index * CLASSES + class]`.
    pub near: [[[i32; NEARS]; 2]; 2],
    /// `[colour to move][attack class * CLASSES + defence class]`.
    pub combo: [[i32; COMBOS]; 2],
    /// `[colour to move][local index]`.
    pub local: [[i32; LOCAL]; 2],
    /// `[colour to move][ATTACK or DEFENCE][threat state * CLASSES + class]`.
    pub state: [[[i32; STATE_ENTRIES]; 2]; 2],
}

impl Policy {
    /// All zeros.
    pub fn zero() -> Policy {
        Policy {
            codes: [[[0; CODES]; 2]; 2],
            near: [[[0; NEARS]; 2]; 2],
            combo: [[0; COMBOS]; 2],
            local: [[0; LOCAL]; 2],
            state: [[[0; STATE_ENTRIES]; 2]; 2],
        }
    }
}

/// What the policy reads of one candidate: one index into each of its tables.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PolicyFeatures {
    pub attack: usize,
    pub defence: usize,
    pub near: [usize; 2],
    pub combo: usize,
    pub local: usize,
    pub state: [usize; 2],
}

/// The per-position part of the policy's reading: the colours and the last moves.
#[derive(Copy, Clone, Debug)]
pub struct PolicyContext {
    me: Player,
    them: Player,
    /// The last stone of each colour (see [`PolicyContext::new`]) as (column, row), so their
    /// coordinates are not recomputed for every candidate.
    last_xy: [Option<(usize, usize)>; 2],
    /// The threat state times [`CLASSES`].
    state: usize,
}

impl PolicyContext {
    /// For the side to move of `board`. The last moves are the latest stones of each colour
    /// in the history (a threat search's pass can leave our own stone last).
    #[inline]
    pub fn new(board: &Board) -> PolicyContext {
        let me = board.side_to_move();
        let them = me.opponent();
        // Indexed by LAST_THEM (0) and LAST_US (1).
        let last = [board.last_stone(them), board.last_stone(me)];
        let state =
            (threat_level(board.threats(me)) * 4 + threat_level(board.threats(them))) * CLASSES;
        PolicyContext {
            me,
            them,
            last_xy: last.map(|l| l.map(|l| (l.x(), l.y()))),
            state,
        }
    }

    /// The colour to move.
    pub fn me(&self) -> Player {
        self.me
    }

    /// The features of the empty point `p`.
    #[inline(always)]
    pub fn features(&self, board: &Board, p: Point) -> PolicyFeatures {
        let attack = board.code(p, self.me);
        let defence = board.code(p, self.them);
        let (ca, cd) = (class_of(attack), class_of(defence));
        let xy = (p.x(), p.y());
        let near = |last: Option<(usize, usize)>| match last {
            Some(l) => near_index_xy(xy, l) * CLASSES,
            None => NEAR_NONE * CLASSES,
        };
        // The stones in the 5x5 square around p, kept by the board.
        let (ours, theirs) = (
            board.stones_around(p, self.me),
            board.stones_around(p, self.them),
        );
        PolicyFeatures {
            attack,
            defence,
            near: [
                near(self.last_xy[LAST_THEM]) + cd,
                near(self.last_xy[LAST_US]) + ca,
            ],
            combo: ca * CLASSES + cd,
            local: ours.min(6) as usize * 7 + theirs.min(6) as usize,
            state: [self.state + ca, self.state + cd],
        }
    }

    /// The priority of the empty point `p` under `policy`.
    #[inline(always)]
    pub fn priority(&self, policy: &Policy, board: &Board, p: Point) -> i32 {
        let f = self.features(board, p);
        let c = self.me.index();
        policy.codes[c][ATTACK][f.attack]
            + policy.codes[c][DEFENCE][f.defence]
            + policy.near[c][LAST_THEM][f.near[LAST_THEM]]
            + policy.near[c][LAST_US][f.near[LAST_US]]
            + policy.combo[c][f.combo]
            + policy.local[c][f.local]
            + policy.state[c][ATTACK][f.state[ATTACK]]
            + policy.state[c][DEFENCE][f.state[DEFENCE]]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::code_of;
    use crate::rules::Rule;
    use Shape::*;

    #[test]
    fn classes_and_places() {
        assert_eq!(class_of(code_of([None; 4])), 0);
        assert_eq!(class_of(code_of([Two, One, None, None])), 1);
        assert_eq!(class_of(code_of([Two, Two, None, None])), 2);
        assert_eq!(class_of(code_of([OpenThree, Four, None, One])), 15 + 4);
        assert_eq!(class_of(code_of([Five; 4])), CLASSES - 1);
        assert!((0..CODES).all(|c| class_of(c) < CLASSES));
        let c = Point::new(7, 7);
        assert_eq!(near_index(Point::new(8, 8), c), 4);
        assert_eq!(near_index(Point::new(9, 8), c), 1);
        assert_eq!(near_index(Point::new(7, 3), c), 7);
        assert_eq!(near_index(Point::new(0, 1), c), 3);
    }

    #[test]
    fn the_context_finds_each_colours_last_stone() {
        let board = Board::from_moves(15, Rule::Freestyle, "h8 h9 i8").unwrap();
        let ctx = PolicyContext::new(&board);
        assert_eq!(ctx.me(), Player::Second);
        assert_eq!(ctx.last_xy[LAST_THEM], Some((8, 7)));
        assert_eq!(ctx.last_xy[LAST_US], Some((7, 6)));
        // j8: next to i8 on its row, a knight's move from h9.
        let f = ctx.features(&board, Point::new(9, 7));
        assert_eq!(f.near[LAST_THEM] / CLASSES, 4);
        assert_eq!(f.near[LAST_US] / CLASSES, 1);
        // Within two of j8: their h8 and i8, our h9.
        assert_eq!(f.local, 7 + 2);
    }
}
