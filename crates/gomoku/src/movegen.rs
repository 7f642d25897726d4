//! Candidate moves for the engine's search, from the cached shapes of both colours.
//!
//! Threats come first and, where the rules of the game force the reply, alone: a five is played
//! at once; a five threatened by the opponent is blocked; an open three of the opponent's is
//! answered (a block, or a four of our own that gains the tempo). Otherwise every empty point
//! within two of a stone is a candidate, best first by what it makes for us (attack) and what
//! it denies the opponent (defence).

use crate::board::Board;
use crate::eval::{
    code_count, code_flags, code_shapes, EvalKind, PolicyContext, CODES, FLAG_DOUBLE,
    FLAG_DOUBLE_RENJU_BLACK,
};
use crate::geometry::{CELLS, DIRS};
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::{Shape, REACH};
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
            defend_double_threats: true,
            double_threats: Vec::with_capacity(16),
            double_threat_blocks: Vec::with_capacity(16),
            open_fours: Vec::with_capacity(16),
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

/// Whether a `colour` stone on empty `p` would make two threats at once that cannot both be
/// stopped: two fours, or a four and an open three (for renju Black, only a four and one open
/// three: two fours or two threes would be a foul).
fn double_threat(board: &Board, p: Point, colour: Player) -> bool {
    let flag = if colour == Player::First && board.rule().has_fouls(colour) {
        FLAG_DOUBLE_RENJU_BLACK
    } else {
        FLAG_DOUBLE
    };
    code_flags(board.code(p, colour)) & flag != 0
}

/// [`double_threat`] on given shapes of a point.
fn is_double_threat(board: &Board, shapes: [Shape; 4], colour: Player) -> bool {
    let (mut fours, mut threes) = (0, 0);
    for s in shapes {
        fours += s.four_count();
        threes += u32::from(s == Shape::OpenThree);
    }
    if colour == Player::First && board.rule().has_fouls(colour) {
        fours == 1 && threes == 1
    } else {
        fours >= 2 || (fours >= 1 && threes >= 1)
    }
}

/// The directions in which a `colour` stone on `p` makes `shape` (the point's share of
/// [`Board::shape_count`]).
fn directions_with(board: &Board, p: Point, colour: Player, shape: Shape) -> u32 {
    code_count(board.code(p, colour), shape)
}

/// The points whose stone can change the shapes of every target: each target itself and the
/// points on its four lines within the reach of its shape windows. One mask per row (bit x
/// for column x), so a candidate is tested with one bit.
fn common_reach(targets: &[Point], size: usize) -> [u32; MAX_SIZE] {
    let mut rows = [u32::MAX; MAX_SIZE];
    for &t in targets {
        let (tx, ty) = (t.x(), t.y());
        for (y, row) in rows.iter_mut().enumerate().take(size) {
            let dy = y.abs_diff(ty);
            *row &= if dy > REACH {
                0
            } else if dy == 0 {
                // Columns tx - REACH ..= tx + REACH of the target's own row.
                (((1u64 << (2 * REACH + 1)) - 1) << tx >> REACH) as u32
            } else {
                // The column and the two diagonals.
                let at = |x: Option<usize>| x.filter(|&x| x < 32).map_or(0, |x| 1u32 << x);
                at(Some(tx)) | at(tx.checked_sub(dy)) | at(Some(tx + dy))
            };
        }
    }
    rows
}

/// Whether `p` and `q` share a line (row, column or diagonal) at most `reach` apart.
fn in_line_within(p: Point, q: Point, reach: usize) -> bool {
    let (dx, dy) = (p.x().abs_diff(q.x()), p.y().abs_diff(q.y()));
    (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= reach
}

/// A set of points, one bit per [`Point::index`]: a member test is a shift and a mask.
type PointBits = [u64; CELLS.div_ceil(64)];

#[inline(always)]
fn has_point(bits: &PointBits, p: Point) -> bool {
    bits[p.index() / 64] >> (p.index() % 64) & 1 != 0
}

#[inline(always)]
fn add_point(bits: &mut PointBits, p: Point) {
    bits[p.index() / 64] |= 1 << (p.index() % 64);
}

/// The points where a stone of the opponent of `them` leaves `them` no open four at any of
/// the `targets` (their open-four points): a target itself, and, for a target with its open
/// four in one line only, the points of that line whose stone spoils it (one table lookup
/// each). An open four in two lines at one point only that point can take.
fn open_four_spoilers(board: &Board, them: Player, targets: &[Point]) -> PointBits {
    let mut all = [u64::MAX; CELLS.div_ceil(64)];
    for &t in targets {
        let mut spoil = [0; CELLS.div_ceil(64)];
        add_point(&mut spoil, t);
        let shapes = board.shapes(t, them);
        let mut lines = (0..4).filter(|&d| shapes[d] == Shape::OpenFour);
        if let (Some(d), None) = (lines.next(), lines.next()) {
            for k in (-(REACH as isize)..=REACH as isize).filter(|&k| k != 0) {
                let Some(q) = DIRS[d].step(t, k, board.size()) else {
                    continue;
                };
                if board.is_empty(q) && board.shape_if_blocked(t, d, them, q) != Shape::OpenFour {
                    add_point(&mut spoil, q);
                }
            }
        }
        for (word, s) in all.iter_mut().zip(spoil) {
            *word &= s;
        }
    }
    all
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

    /// Collects the points of `points` where `them` would make a double threat that forces a
    /// win, and where we would then have to block its fours; whether there is any. A double
    /// threat whose four we would block with a four of our own is no threat: the block wins
    /// the tempo back (and the search sees what follows).
    fn find_double_threats(&mut self, board: &mut Board, them: Player, points: &[Point]) -> bool {
        self.double_threats.clear();
        self.double_threat_blocks.clear();
        let t = board.threats(them);
        if t.four == 0 || (t.four < 2 && t.open_three == 0) {
            return false;
        }
        let me = them.opponent();
        for &p in points {
            if !double_threat(board, p, them) {
                continue;
            }
            let blocks = &mut self.double_threat_blocks;
            let start = blocks.len();
            board.put(p, them);
            board.for_each_shape_near(p, them, |q, shape| {
                if shape == Shape::Five && !blocks[start..].contains(&q) {
                    blocks.push(q);
                }
            });
            board.take(p, them);
            if blocks[start..].iter().any(|&b| board.makes_four(b, me)) {
                blocks.truncate(start);
                continue;
            }
            self.double_threats.push(p);
        }
        !self.double_threats.is_empty()
    }

    /// The points of `out` where our stone would make one of the double threats' blocks a
    /// four point of ours.
    fn counter_four_setups(&self, board: &mut Board, me: Player, out: &[Point]) -> PointBits {
        let mut setups = [0; CELLS.div_ceil(64)];
        let blocks = &self.double_threat_blocks;
        for &p in out {
            if !blocks
                .iter()
                .any(|&b| b != p && in_line_within(p, b, REACH))
            {
                continue;
            }
            board.put(p, me);
            let sets_up = blocks.iter().any(|&b| b != p && board.makes_four(b, me));
            board.take(p, me);
            if sets_up {
                add_point(&mut setups, p);
            }
        }
        setups
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
        let mut double_threats = false;
        if board.threats(them).five == 0 {
            Self::nearby(board, out);
            forced = board.threats(them).open_four > 0;
            if !forced && self.defend_double_threats {
                double_threats = self.find_double_threats(board, them, out);
            }
            board.retain_legal(out);
        }
        // Our stone on the last empty point ends the game in a draw: that move always holds.
        let fills_board = board.stone_count() + 1 == board.size() * board.size();
        if double_threats {
            // The opponent has a four-three (or two fours) to make: keep our fours, the moves
            // after which none of those points is one any more, and the moves that make a
            // point where we would block one of its fours a four point of ours.
            let setups = self.counter_four_setups(board, me, out);
            let targets = &self.double_threats;
            let reach = common_reach(targets, board.size());
            let have_fours = board.threats(me).four > 0;
            out.retain(|&p| {
                if (have_fours && board.makes_four(p, me)) || has_point(&setups, p) {
                    return true;
                }
                if reach[p.y()] >> p.x() & 1 == 0 {
                    // A target out of the stone's reach keeps its shapes: nothing to play.
                    return false;
                }
                // Our stone only weakens their shapes, so only the targets can still be
                // double threats.
                fills_board
                    || targets.iter().all(|&t| {
                        t == p
                            || !is_double_threat(board, board.shapes_if_blocked(t, them, p), them)
                    })
            });
            forced = true;
            self.defending_double_threat = true;
        } else if forced {
            // Keep only the moves after which the opponent has no open four to make, and our
            // own fours (which force a reply and so may come first).
            let targets = &mut self.open_fours;
            targets.clear();
            let mut found = 0;
            for &p in out.iter() {
                let n = directions_with(board, p, them, Shape::OpenFour);
                if n > 0 {
                    targets.push(p);
                    found += n;
                }
            }
            // Only when every open-four point is among the candidates can the moves that hold
            // be found without playing them.
            let all_found = found == board.threats(them).open_four;
            let have_fours = board.threats(me).four > 0;
            // Every open four the opponent could make is at a target: a move holds when it
            // takes or spoils each of them (or fills the board).
            if all_found && !fills_board {
                let spoilers = open_four_spoilers(board, them, &self.open_fours);
                if have_fours {
                    out.retain(|&p| has_point(&spoilers, p) || board.makes_four(p, me));
                } else {
                    // The spoilers among the candidates (the legal nearby points), read from
                    // the few spoilers rather than by testing every candidate; their order
                    // does not matter, the sort below fixes it.
                    out.clear();
                    for (w, &word) in spoilers.iter().enumerate() {
                        let mut bits = word;
                        while bits != 0 {
                            let p = Point::at_index(w * 64 + bits.trailing_zeros() as usize);
                            bits &= bits - 1;
                            if board.near_row(p.y()) >> p.x() & 1 != 0 {
                                out.push(p);
                            }
                        }
                    }
                    board.retain_legal(out);
                }
            } else if !all_found {
                out.retain(|&p| {
                    if have_fours && board.makes_four(p, me) {
                        return true;
                    }
                    board.play(p);
                    let answered = board.result().is_some() || board.threats(them).open_four == 0;
                    board.undo();
                    answered
                });
            }
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
    use crate::notation::parse_point;
    use crate::rules::Rule;

    fn points(text: &str) -> Vec<Point> {
        text.split(',')
            .map(|m| parse_point(m, 15).unwrap())
            .collect()
    }

    fn candidates(defend: bool, rule: Rule) -> (Vec<String>, bool) {
        // White has e5 f5 g5 (blocked by d5) and h6 h7: h5 makes a four and an open three.
        let mut board = Board::from_stones(
            15,
            rule,
            &points("d5,a1,a3,o15,o13"),
            &points("e5,f5,g5,h6,h7"),
            None,
        )
        .unwrap();
        let mut gen = MoveGen {
            max_candidates: 16,
            defend_double_threats: defend,
            ..MoveGen::default()
        };
        let mut out = Vec::new();
        gen.candidates(&mut board, &mut out);
        let mut names: Vec<String> = out.iter().map(|p| p.to_human(15)).collect();
        names.sort();
        (names, gen.truncated)
    }

    #[test]
    fn a_four_three_to_come_is_answered_by_exactly_the_moves_that_stop_it() {
        for rule in Rule::ALL {
            // h5 and i5 spoil the four, h4 and h8 the three; h3 or h9 leave it open.
            let (moves, truncated) = candidates(true, rule);
            assert_eq!(moves, ["h4", "h5", "h8", "i5"], "{rule:?}");
            assert!(!truncated, "a complete defence set is never cut");
            let (all, truncated) = candidates(false, rule);
            assert!(all.len() == 16 && truncated, "{rule:?}: {all:?}");
        }
    }

    /// quintet's `vct_game_black_l14_1` after g8 e8 i6 j5 f10: Black's f9 would make a four
    /// (blocked at e10) and an open three. White's e9 holds too: it makes e10 a four point of
    /// White's, so the block of that four answers with a four. Without e9 among the
    /// candidates the search claimed a win in 17 plies that quintet disproves.
    #[test]
    fn a_four_three_is_also_answered_by_making_its_block_a_four() {
        let mut board = Board::from_stones(
            15,
            Rule::Renju,
            &points("d8,f8,h8,h7,g8,i6,f10"),
            &points("e7,f6,h6,g5,e8,j5"),
            None,
        )
        .unwrap();
        let mut gen = MoveGen {
            max_candidates: 12,
            ..MoveGen::default()
        };
        let mut out = Vec::new();
        gen.candidates(&mut board, &mut out);
        let mut names: Vec<String> = out.iter().map(|p| p.to_human(15)).collect();
        names.sort();
        assert!(gen.defending_double_threat && !gen.truncated);
        // f9 itself; e10 spoils the four, f7 f11 f12 the three; e6 e9 e11 make e10 a four
        // point of White's; h4 and i3 are White's fours.
        assert_eq!(
            names,
            ["e10", "e11", "e6", "e9", "f11", "f12", "f7", "f9", "h4", "i3"]
        );
    }

    /// A four-three whose four we would block with a four of our own forces nothing: the
    /// candidates are not cut down to its answers.
    #[test]
    fn a_four_three_blocked_with_a_four_is_no_threat() {
        for rule in Rule::ALL {
            // As in `candidates`, White's h5 is a four (five at i5) and an open three, but
            // Black's j6 k7 l8 (closed by m9) make i5 a four point of Black's.
            let mut board = Board::from_stones(
                15,
                rule,
                &points("d5,a1,a3,j6,k7,l8"),
                &points("e5,f5,g5,h6,h7,m9"),
                None,
            )
            .unwrap();
            let mut gen = MoveGen {
                max_candidates: 16,
                ..MoveGen::default()
            };
            let mut out = Vec::new();
            gen.candidates(&mut board, &mut out);
            assert!(!gen.defending_double_threat, "{rule:?}");
            assert!(gen.truncated && out.len() == 16, "{rule:?}: {out:?}");
        }
    }

    /// Against an open three (an open four to come), the candidates are exactly the nearby
    /// moves that make a four of ours or after which the opponent has no open four, as
    /// playing each one shows; over random crowded positions of every rule (where the
    /// double-threat test of every point is checked against its shapes too).
    #[test]
    fn an_open_three_is_answered_by_exactly_the_moves_that_hold() {
        let mut rng = crate::testing::Xorshift(0x2545_F491_4F6C_DD1D);
        let mut tested = 0;
        for rule in Rule::ALL {
            for _ in 0..400 {
                let mut board = crate::testing::crowded_board(&mut rng, rule, 6, 9, 6, 20);
                let me = board.side_to_move();
                let them = me.opponent();
                // The double-threat test read from the code agrees with the shapes'.
                for q in board.points() {
                    for c in [me, them] {
                        let shapes = board.shapes(q, c);
                        assert_eq!(
                            double_threat(&board, q, c),
                            is_double_threat(&board, shapes, c)
                        );
                    }
                }
                let (t, m) = (board.threats(them), board.threats(me));
                if board.result().is_some() || t.five > 0 || m.five > 0 || t.open_four == 0 {
                    continue;
                }
                // (With an open four to come, double threats are not looked for.)
                let mut gen = MoveGen::default();
                let mut near = Vec::new();
                MoveGen::nearby(&board, &mut near);
                board.retain_legal(&mut near);
                let mut expected: Vec<Point> = near
                    .into_iter()
                    .filter(|&p| {
                        if board.shapes(p, me).iter().any(|s| s.is_four()) {
                            return true;
                        }
                        board.play(p);
                        let holds = board.result().is_some() || board.threats(them).open_four == 0;
                        board.undo();
                        holds
                    })
                    .collect();
                let mut got = Vec::new();
                gen.candidates(&mut board, &mut got);
                if expected.is_empty() {
                    // Nothing holds: every nearby move is searched.
                    continue;
                }
                expected.sort_by_key(|p| p.index());
                got.sort_by_key(|p| p.index());
                assert_eq!(got, expected, "{board:?}");
                tested += 1;
            }
        }
        assert!(
            tested > 50,
            "only {tested} positions had an open three to answer"
        );
    }

    #[test]
    fn common_reach_is_the_points_on_every_targets_lines_within_reach() {
        let reaches = |p: Point, t: Point| {
            let (dx, dy) = (p.x().abs_diff(t.x()), p.y().abs_diff(t.y()));
            (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= REACH
        };
        for size in [15, 20] {
            for targets in [
                points("h8"),
                points("a1"),
                points("h8,j10"),
                points("b2,g7,d4"),
                points("h8,o15"),
                points("c3,c9"),
            ] {
                let targets: Vec<Point> =
                    targets.into_iter().filter(|t| t.on_board(size)).collect();
                let rows = common_reach(&targets, size);
                for (y, row) in rows.iter().enumerate().take(size) {
                    for x in 0..size {
                        let p = Point::new(x, y);
                        let expected = targets.iter().all(|&t| reaches(p, t));
                        assert_eq!(row >> x & 1 == 1, expected, "{targets:?} {x},{y}");
                    }
                }
            }
        }
    }

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
