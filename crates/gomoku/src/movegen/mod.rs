//! Candidate moves for the engine's search, from the cached shapes of both colours.
//!
//! Threats come first and, where the rules of the game force the reply, alone: a five is played
//! at once; a five threatened by the opponent is blocked; an open three or a four-three to come
//! of the opponent's is answered by the moves that can hold ([`answers`]). Otherwise every
//! empty point within two of a stone is a candidate, best first by what it makes for us
//! (attack) and what it denies the opponent (defence), cut to the search's width.

mod answers;

use crate::board::Board;
use crate::eval::{code_count, code_shapes, EvalKind, PolicyContext, CODES};
use crate::geometry::CELLS;
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::Shape;
use wuzi_search::Player;

/// How promising a shape on a point is, for ordering (not evaluation).
const fn shape_priority(shape: Shape) -> i32 {
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
pub(crate) const fn point_priority(shapes: [Shape; 4]) -> i32 {
    let (mut sum, mut threats, mut i) = (0, 0, 0);
    while i < 4 {
        sum += shape_priority(shapes[i]);
        if shapes[i] as u8 >= Shape::OpenThree as u8 {
            threats += 1;
        }
        i += 1;
    }
    sum + if threats >= 2 { 300 } else { 0 }
}

/// `PRIORITY[code]`: [`point_priority`] of each pattern code's shapes.
static PRIORITY: [i32; CODES] = {
    let mut t = [0; CODES];
    let mut code = 0;
    while code < CODES {
        t[code] = point_priority(code_shapes(code));
        code += 1;
    }
    t
};

/// [`point_priority`] of a `colour` stone on `p`, from its kept pattern code.
#[inline(always)]
pub(crate) fn hand_priority(board: &Board, p: Point, colour: Player) -> i32 {
    PRIORITY[board.code(p, colour)]
}

/// Scratch state for move generation, kept between calls so that generating moves allocates
/// nothing once warm.
#[derive(Clone)]
pub struct MoveGen {
    priorities: Vec<i32>,
    /// Scratch for sorting the candidates by priority.
    sort_keys: Vec<i64>,
    /// At most this many moves are searched where nothing forces the reply (0: all). The
    /// scoring puts the moves that matter first; the tail is quiet points near stones.
    pub max_candidates: usize,
    /// Whether the last call left moves out for `max_candidates`.
    pub truncated: bool,
    /// Whether the last call answered an opponent's four-three (or double four) to make:
    /// every candidate then stops it or is a four of ours.
    pub defending_double_threat: bool,
    /// Whether the last call found that no move holds against the opponent's open three
    /// (an open four to make) and that we have no four to make first: then every move loses
    /// in exactly four plies (the open four, a block, a five). Never set where the opponent
    /// is renju Black, whose open-four points may be forbidden.
    pub lost_to_open_three: bool,
    /// Every five of ours, not only the first (the root of an N-best search, whose later
    /// searches leave out the moves found before).
    pub(crate) every_five: bool,
    /// Answer an opponent's four-three (or double four) to make with only the moves that stop
    /// it and our own fours.
    pub defend_double_threats: bool,
    double_threats: Vec<Point>,
    /// Where we would have to block the fours of the opponent's double threats: a stone of
    /// ours that makes one of them a four point of ours is a defence too (the block then
    /// answers with a four and wins the tempo back).
    double_threat_blocks: Vec<Point>,
    /// The opponent's open-four points while answering an open three.
    open_fours: Vec<Point>,
    /// How many (point, direction) open fours `open_fours` holds.
    open_four_lines: u32,
    /// Whether a stone of ours may change whether one of `open_fours` is the opponent's
    /// foul (renju Black): one is forbidden now (a block can make it legal), or one is legal
    /// with two open threes, one of them fake for now (a stone anywhere can make it real).
    open_four_fouls_unsettled: bool,
    /// How candidates are ordered: the hand weights of [`point_priority`], or the learned
    /// policy tables (see [`crate::eval::Weights`]).
    pub order: EvalKind,
    /// Per colour and point, what the search learned of the move ([`MoveGen::reward_cut`]).
    /// Added to the learned policy's priority divided by `history_divisor` (0: not used).
    history: Box<[[i32; CELLS]; 2]>,
    pub(crate) history_divisor: i32,
}

impl Default for MoveGen {
    fn default() -> Self {
        MoveGen {
            priorities: vec![0; MAX_SIZE * MAX_SIZE],
            sort_keys: Vec::with_capacity(MAX_SIZE * MAX_SIZE),
            max_candidates: 0,
            truncated: false,
            defending_double_threat: false,
            lost_to_open_three: false,
            every_five: false,
            defend_double_threats: true,
            double_threats: Vec::with_capacity(16),
            double_threat_blocks: Vec::with_capacity(16),
            open_fours: Vec::with_capacity(16),
            open_four_lines: 0,
            open_four_fouls_unsettled: false,
            order: EvalKind::Classic,
            history: Box::new([[0; CELLS]; 2]),
            history_divisor: 0,
        }
    }
}

/// Points a colour can make five on (at most `limit` of them, distinct, in board order).
pub fn five_points(board: &Board, colour: Player, out: &mut Vec<Point>, limit: usize) {
    let total = board.threats(colour).five;
    if total == 0 || out.len() >= limit {
        return;
    }
    let start = out.len();
    let mut found = 0;
    // Adds `p` if it is a new five point; the (point, direction) fives it accounts for.
    let take = |p: Point, out: &mut Vec<Point>| {
        if !board.is_empty(p) || out[start..].contains(&p) {
            return 0;
        }
        let fives = directions_with(board, p, colour, Shape::Five);
        if fives > 0 {
            out.push(p);
        }
        fives
    };
    // Most fours were made by the colour's last stone: its lines first, then (only if some
    // five is still unaccounted for) the whole board.
    if let Some(from) = board.last_stone(colour) {
        // Along each line only that line's shape is read; a point found is counted in all.
        board.for_each_shape_near(from, colour, |p, shape| {
            if shape == Shape::Five {
                found += take(p, out);
            }
        });
    }
    if found < total {
        for p in board.points() {
            found += take(p, out);
            if found >= total {
                break;
            }
        }
    }
    out[start..].sort_unstable_by_key(|p| p.index());
    out.truncate(limit.max(start));
}

/// The directions in which a `colour` stone on `p` makes `shape` (the point's share of
/// [`Board::shape_count`]).
fn directions_with(board: &Board, p: Point, colour: Player, shape: Shape) -> u32 {
    code_count(board.code(p, colour), shape)
}

impl MoveGen {
    /// Forgets the history, so that a search of a position is repeatable.
    pub(crate) fn clear_history(&mut self) {
        self.history.fill([0; CELLS]);
    }

    /// `me`'s move `mv` cut after `tried`: it gains `bonus` of history and the moves before it
    /// lose as much, each value kept within +-HISTORY_MAX (an update moves it a share of the
    /// way there).
    pub(crate) fn reward_cut(&mut self, me: Player, tried: &[Point], mv: Point, bonus: i32) {
        const HISTORY_MAX: i32 = 1 << 14;
        let bonus = bonus.min(HISTORY_MAX);
        let table = &mut self.history[me.index()];
        let mut nudge = |p: Point, by: i32| {
            let h = &mut table[p.index()];
            *h += by - *h * by.abs() / HISTORY_MAX;
        };
        nudge(mv, bonus);
        for &p in tried {
            if p != mv {
                nudge(p, -bonus);
            }
        }
    }

    /// Empty points within Chebyshev distance 2 of a stone (the centre on an empty board),
    /// row by row: the rows of stones as bitmasks, widened by two each way and OR-ed over
    /// five rows.
    pub(crate) fn nearby(board: &Board, out: &mut Vec<Point>) {
        let n = board.size();
        if board.stone_count() == 0 {
            out.push(Point::new(n / 2, n / 2));
            return;
        }
        for y in 0..n {
            let mut near = board.near_row(y);
            let row = Point::new(0, y).index();
            while near != 0 {
                out.push(Point::at_index(row + near.trailing_zeros() as usize));
                near &= near - 1;
            }
        }
    }

    /// Candidate moves for the side to move, best first (the caller clears `out`). Every
    /// candidate is legal: under renju Black's forbidden points never are candidates, not even
    /// as the only block of a five (the position is then lost, and any legal move is as good).
    pub fn candidates(&mut self, board: &mut Board, out: &mut Vec<Point>) {
        self.truncated = false;
        self.defending_double_threat = false;
        self.lost_to_open_three = false;
        if board.result().is_some() {
            return;
        }
        let me = board.side_to_move();
        let them = me.opponent();
        // A five of our own is never forbidden (renju: five beats a foul).
        five_points(board, me, out, if self.every_five { usize::MAX } else { 1 });
        if !out.is_empty() {
            return;
        }
        five_points(board, them, out, usize::MAX);
        board.retain_legal(out);
        if !out.is_empty() {
            return;
        }
        let mut forced = false;
        let mut double_threats = false;
        if board.threats(them).five == 0 {
            Self::nearby(board, out);
            forced = board.threats(them).open_four > 0 && self.find_open_fours(board, them, out);
            if !forced && self.defend_double_threats {
                double_threats = self.find_double_threats(board, them, out);
            }
            board.retain_legal(out);
        }
        // Our stone on the last empty point ends the game in a draw: that move always holds.
        let fills_board = board.stone_count() + 1 == board.size() * board.size();
        if double_threats {
            self.keep_double_threat_answers(board, me, out, fills_board);
            forced = true;
            self.defending_double_threat = true;
        } else if forced {
            self.keep_open_three_answers(board, me, out, fills_board);
        }
        if out.is_empty() {
            // Nothing stops the threat (or the only blocks are forbidden): every move loses,
            // and the search must see that by playing one, unless the flag says so at once.
            self.lost_to_open_three = forced
                && !double_threats
                && !fills_board
                && !board.rule().has_fouls(them)
                && board.threats(me).four == 0;
            forced = true;
            Self::nearby(board, out);
            board.retain_legal(out);
        }
        match self.order {
            EvalKind::Classic => {
                for &p in out.iter() {
                    let attack = hand_priority(board, p, me);
                    let defence = hand_priority(board, p, them);
                    self.priorities[p.index()] = attack * 2 + defence;
                }
            }
            EvalKind::Learned => {
                let policy = &board.weights().policy;
                let context = PolicyContext::new(board);
                for &p in out.iter() {
                    self.priorities[p.index()] = context.priority(policy, board, p);
                }
                if self.history_divisor > 0 {
                    let learned = &self.history[me.index()];
                    for &p in out.iter() {
                        self.priorities[p.index()] += learned[p.index()] / self.history_divisor;
                    }
                }
            }
        }
        // Best first, equal points in board order (so the search is deterministic): one
        // integer key a point, its priority above the complement of its index.
        let keys = &mut self.sort_keys;
        keys.clear();
        keys.extend(out.iter().map(|p| {
            let priority = self.priorities[p.index()] as i64;
            (priority << 16) | (0xFFFF - p.index() as i64)
        }));
        // The keys are distinct, so choosing the best `max_candidates` and sorting only them
        // gives the same moves as sorting all.
        if !forced && self.max_candidates > 0 && out.len() > self.max_candidates {
            let width = self.max_candidates;
            keys.select_nth_unstable_by(width - 1, |a, b| b.cmp(a));
            keys.truncate(width);
            out.truncate(width);
            self.truncated = true;
        }
        keys.sort_unstable_by(|a, b| b.cmp(a));
        for (p, key) in out.iter_mut().zip(keys.iter()) {
            *p = Point::from_index(0xFFFF - (key & 0xFFFF) as usize).expect("a board point");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn five_points_finds_old_fours_too_in_board_order() {
        // Black's four a1-a4 is old (its last stone, o8, is far away); b10-e10 is another.
        let moves = "a1 h8 a2 h9 a3 i8 a4 m15 b10 n15 c10 n14 d10 n13 e10 m13 o8";
        let board = Board::from_moves(15, Rule::Freestyle, moves).unwrap();
        let mut out = Vec::new();
        five_points(&board, Player::First, &mut out, usize::MAX);
        let names: Vec<String> = out.iter().map(|p| p.to_human(15)).collect();
        let mut slow: Vec<Point> = board
            .points()
            .filter(|&p| board.is_empty(p) && board.shapes(p, Player::First).contains(&Shape::Five))
            .collect();
        slow.sort_by_key(|p| p.index());
        assert_eq!(out, slow, "{names:?}");
        assert_eq!(out.len(), 3, "a5, a10 and f10: {names:?}");
        out.clear();
        five_points(&board, Player::First, &mut out, 2);
        assert_eq!(out, slow[..2]);
        out.clear();
        five_points(&board, Player::Second, &mut out, usize::MAX);
        assert!(out.is_empty());
    }
}
