//! The answers to the opponent's threats that force the reply: against a four-three (or two
//! fours) to come and against an open three (an open four to come), the moves that can hold,
//! found from the board's cached shapes and codes with as few trial moves as possible.

use super::{directions_with, MoveGen};
use crate::board::Board;
use crate::eval::{code_flags, FLAG_DOUBLE, FLAG_DOUBLE_RENJU_BLACK};
use crate::forbidden::two_open_threes;
use crate::geometry::{CELLS, DIRS};
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::{Shape, REACH};
use wuzi_search::Player;

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

/// A set of points, one bit per [`Point::index`]: a member test is a shift and a mask.
type PointBits = [u64; CELLS.div_ceil(64)];
/// The empty [`PointBits`].
const NO_POINTS: PointBits = [0; CELLS.div_ceil(64)];

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
        let mut spoil = NO_POINTS;
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
    /// Collects the points of `points` where `them` would make a double threat that forces a
    /// win, and where we would then have to block its fours; whether there is any. A double
    /// threat whose four we would block with a four of our own is no threat: the block wins
    /// the tempo back (and the search sees what follows).
    pub(super) fn find_double_threats(
        &mut self,
        board: &mut Board,
        them: Player,
        points: &[Point],
    ) -> bool {
        self.double_threats.clear();
        self.double_threat_blocks.clear();
        let t = board.threats(them);
        if t.four == 0 || (t.four < 2 && t.open_three == 0) {
            return false;
        }
        let me = them.opponent();
        let fouls = board.rule().has_fouls(them);
        for &p in points {
            // Under renju a four and an open three in two lines can still be a foul (an
            // overline in a third): no threat then.
            if !double_threat(board, p, them) || (fouls && board.foul(p).is_some()) {
                continue;
            }
            // Where its fours would be blocked: the points of each line in which p makes a
            // four where a stone, with p, makes five.
            let blocks = &mut self.double_threat_blocks;
            let start = blocks.len();
            let shapes = board.shapes(p, them);
            for d in (0..4).filter(|&d| shapes[d].four_count() > 0) {
                for k in (-(REACH as isize)..=REACH as isize).filter(|&k| k != 0) {
                    let Some(q) = DIRS[d].step(p, k, board.size()) else {
                        continue;
                    };
                    if board.is_empty(q)
                        && board.shape_if_added(q, d, them, p) == Shape::Five
                        && !blocks[start..].contains(&q)
                    {
                        blocks.push(q);
                    }
                }
            }
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
    fn counter_four_setups(&self, board: &Board, me: Player, out: &[Point]) -> PointBits {
        let mut setups = NO_POINTS;
        let blocks = &self.double_threat_blocks;
        for &p in out {
            let sets_up = blocks.iter().any(|&b| {
                board
                    .line_within_reach(p, b)
                    .is_some_and(|d| board.shape_if_added(b, d, me, p).four_count() > 0)
            });
            if sets_up {
                add_point(&mut setups, p);
            }
        }
        setups
    }

    /// Against the opponent's four-three (or two fours) to come, found by
    /// [`MoveGen::find_double_threats`]: keeps in `out` (the legal nearby points) the moves
    /// that can hold.
    pub(super) fn keep_double_threat_answers(
        &self,
        board: &Board,
        me: Player,
        out: &mut Vec<Point>,
        fills_board: bool,
    ) {
        let them = me.opponent();
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
                    t == p || !is_double_threat(board, board.shapes_if_blocked(t, them, p), them)
                })
        });
    }

    /// Collects into `open_fours` the points of `points` (the nearby ones) where `them` would
    /// make an open four, counts their directions into `open_four_lines` and notes whether
    /// our stone may change any one's foul; whether `them` may play one of them. Under renju
    /// the board's counts include Black's forbidden points, which threaten nothing: an open
    /// three whose open-four points are all fouls forces no reply.
    pub(super) fn find_open_fours(
        &mut self,
        board: &mut Board,
        them: Player,
        points: &[Point],
    ) -> bool {
        self.open_fours.clear();
        self.open_four_lines = 0;
        self.open_four_fouls_unsettled = false;
        for &p in points {
            let n = directions_with(board, p, them, Shape::OpenFour);
            if n > 0 {
                self.open_fours.push(p);
                self.open_four_lines += n;
            }
        }
        if !board.rule().has_fouls(them) {
            return true;
        }
        let mut legal = false;
        for &p in &self.open_fours {
            if board.foul(p).is_some() {
                self.open_four_fouls_unsettled = true;
            } else {
                legal = true;
                // Our stone only takes shapes away, but one taken from the forbidden point
                // that keeps a three of this point's fake makes that three real, and this
                // point a double three.
                self.open_four_fouls_unsettled |= two_open_threes(&board.shapes(p, them));
            }
        }
        // An open-four point is next to the three's stones, so a nearby point: the ones
        // not found (none, in practice) are taken to be real.
        legal || self.open_four_lines < board.threats(them).open_four
    }

    /// Whether `them` has an open four it may make (after our trial stone, which only takes
    /// shapes away but under renju may make a forbidden point legal, or a legal one
    /// forbidden). Our stone makes no new open-four point, so the ones
    /// [`MoveGen::find_open_fours`] found are enough when it found them all; otherwise every
    /// point is looked at.
    fn open_four_left(&self, board: &mut Board, them: Player, all_found: bool) -> bool {
        if board.threats(them).open_four == 0 {
            return false;
        }
        if !board.rule().has_fouls(them) {
            return true;
        }
        let n = board.size();
        let mut real = |q: Point| {
            board.is_empty(q)
                && directions_with(board, q, them, Shape::OpenFour) > 0
                && board.foul(q).is_none()
        };
        if all_found {
            self.open_fours.iter().any(|&q| real(q))
        } else {
            (0..n * n).any(|i| real(Point::new(i % n, i / n)))
        }
    }

    /// Against the opponent's open three (an open four to make, found by
    /// [`MoveGen::find_open_fours`]): keeps in `out` (the legal nearby points) the moves that
    /// can hold.
    pub(super) fn keep_open_three_answers(
        &mut self,
        board: &mut Board,
        me: Player,
        out: &mut Vec<Point>,
        fills_board: bool,
    ) {
        let them = me.opponent();
        // Keep only the moves after which the opponent has no open four to make, and our
        // own fours (which force a reply and so may come first).
        // Only when every open-four point is among the candidates can the moves that hold
        // be found without playing them; and under renju only when our stone cannot change
        // whether one of them is forbidden (a block through a forbidden point can make it
        // legal; a stone that makes a fake three real can make a legal one a double three).
        let all_found = self.open_four_lines == board.threats(them).open_four;
        let exact = all_found && !self.open_four_fouls_unsettled;
        let have_fours = board.threats(me).four > 0;
        // Every open four the opponent could make is at a target: a move holds when it
        // takes or spoils each of them (or fills the board).
        if exact && !fills_board {
            let spoilers = open_four_spoilers(board, them, &self.open_fours);
            if have_fours {
                out.retain(|&p| has_point(&spoilers, p) || board.makes_four(p, me));
            } else {
                // The spoilers among the candidates (the legal nearby points), read from
                // the few spoilers rather than by testing every candidate; their order
                // does not matter, the candidates' sort fixes it.
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
        } else if !exact {
            out.retain(|&p| {
                if have_fours && board.makes_four(p, me) {
                    return true;
                }
                board.play(p);
                let answered =
                    board.result().is_some() || !self.open_four_left(board, them, all_found);
                board.undo();
                answered
            });
        }
    }
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

    /// The candidates `gen` makes for the side to move among `black` and `white` stones, by
    /// name in alphabetical order, and `gen` after it made them.
    fn generate(rule: Rule, black: &str, white: &str, mut gen: MoveGen) -> (Vec<String>, MoveGen) {
        let mut board = Board::from_stones(15, rule, &points(black), &points(white), None).unwrap();
        let mut out = Vec::new();
        gen.candidates(&mut board, &mut out);
        let mut names: Vec<String> = out.iter().map(|p| p.to_human(15)).collect();
        names.sort();
        (names, gen)
    }

    fn width(max_candidates: usize) -> MoveGen {
        MoveGen {
            max_candidates,
            ..MoveGen::default()
        }
    }

    fn candidates(defend: bool, rule: Rule) -> (Vec<String>, bool) {
        // White has e5 f5 g5 (blocked by d5) and h6 h7: h5 makes a four and an open three.
        let gen = MoveGen {
            defend_double_threats: defend,
            ..width(16)
        };
        let (names, gen) = generate(rule, "d5,a1,a3,o15,o13", "e5,f5,g5,h6,h7", gen);
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
        let (names, gen) = generate(
            Rule::Renju,
            "d8,f8,h8,h7,g8,i6,f10",
            "e7,f6,h6,g5,e8,j5",
            width(12),
        );
        assert!(gen.defending_double_threat && !gen.truncated);
        // f9 itself; e10 spoils the four, f7 f11 f12 the three; e6 e9 e11 make e10 a four
        // point of White's; h4 and i3 are White's fours.
        assert_eq!(
            names,
            ["e10", "e11", "e6", "e9", "f11", "f12", "f7", "f9", "h4", "i3"]
        );
    }

    /// Under renju a four and an open three that a stone of Black's makes together with an
    /// overline are a foul, not a threat: White's candidates are not cut down to its answers.
    /// Under standard rules, where Black's overline is only no five, they are.
    #[test]
    fn a_renju_black_four_three_that_is_an_overline_forces_nothing() {
        // Black's h8: a four in row 8 (d8 blocks it), an open three in column h, and six in
        // a row on the diagonal d4-i9 (c3 blocks the diagonal's other end).
        let black = "e8,f8,g8,h9,h10,d4,e5,f6,g7,i9";
        let white = "d8,c3,a1,o1,a15,o15,a8,o8,h1,h15";
        for (rule, defends) in [(Rule::Renju, false), (Rule::Standard, true)] {
            let mut board = Board::from_stones(
                15,
                rule,
                &points(black),
                &points(white),
                Some(Player::Second),
            )
            .unwrap();
            let h8 = parse_point("h8", 15).unwrap();
            assert_eq!(
                board.foul(h8).is_some(),
                rule == Rule::Renju,
                "{rule:?}: h8 is Black's foul only under renju"
            );
            let mut gen = width(16);
            let mut out = Vec::new();
            gen.candidates(&mut board, &mut out);
            assert_eq!(gen.defending_double_threat, defends, "{rule:?}");
        }
    }

    /// A four-three whose four we would block with a four of our own forces nothing: the
    /// candidates are not cut down to its answers.
    #[test]
    fn a_four_three_blocked_with_a_four_is_no_threat() {
        for rule in Rule::ALL {
            // As in `candidates`, White's h5 is a four (five at i5) and an open three, but
            // Black's j6 k7 l8 (closed by m9) make i5 a four point of Black's.
            let (names, gen) = generate(rule, "d5,a1,a3,j6,k7,l8", "e5,f5,g5,h6,h7,m9", width(16));
            assert!(!gen.defending_double_threat, "{rule:?}");
            assert!(gen.truncated && names.len() == 16, "{rule:?}: {names:?}");
        }
    }

    /// Whether `colour` has an open four it may make, from every point's shapes (the slow
    /// reference): under renju Black's forbidden points do not count.
    fn open_four_to_make(board: &mut Board, colour: Player) -> bool {
        let points: Vec<Point> = board
            .points()
            .filter(|&p| board.is_empty(p) && board.shapes(p, colour).contains(&Shape::OpenFour))
            .collect();
        let fouls = board.rule().has_fouls(colour);
        points
            .into_iter()
            .any(|p| !(fouls && board.foul(p).is_some()))
    }

    /// Under renju an open three of Black's whose open-four points are all forbidden forces
    /// no reply. From a game against Rapfi: after k12 Black's one open-four point, f10, is a
    /// double four. White's candidates were cut down to f10 and its own fours j8 and l6, so
    /// the search proved a win for Black that White's i12 (open threes of its own) refutes.
    #[test]
    fn a_renju_black_three_with_only_forbidden_open_fours_forces_nothing() {
        let moves = "e11 k7 i6 h9 e9 i9 e10 e12 g9 h10 g11 g10 f11 h11 h8 h13 h12 i10 j10 g8 \
                     f7 j11 k12";
        let mut board = Board::from_moves(15, Rule::Renju, moves).unwrap();
        let f10 = parse_point("f10", 15).unwrap();
        assert!(board.threats(Player::First).open_four > 0);
        assert_eq!(board.foul(f10), Some(crate::Foul::DoubleFour));
        let mut gen = MoveGen::default();
        let mut out = Vec::new();
        gen.candidates(&mut board, &mut out);
        let names: Vec<String> = out.iter().map(|p| p.to_human(15)).collect();
        assert!(
            names.len() > 3 && names.contains(&"i12".to_string()),
            "{names:?}"
        );
        // Under freestyle the same stones' f10 is an open four to stop.
        let mut board = Board::from_moves(15, Rule::Freestyle, moves).unwrap();
        out.clear();
        gen.candidates(&mut board, &mut out);
        assert!(out.contains(&f10) && !out.contains(&parse_point("i12", 15).unwrap()));
    }

    /// Under renju White may also answer Black's open three by making its open-four point a
    /// double three. After i10 Black's h11 i10 _ k8 is a three whose open-four point j9
    /// would also make two threes (column j, and i8 j9 _ l11), the second fake for now: its
    /// straight-four point k10 would be a double three with the row-10 three i10 j10 k10.
    /// White's h10 kills that row three, which makes the diagonal three real and j9 a
    /// double three: h10 holds though it touches neither line of the open four. (Found by
    /// the random positions below, run a thousand times longer.)
    #[test]
    fn a_renju_black_three_is_also_answered_by_making_its_open_four_point_a_foul() {
        let moves = "j12 k13 d8 j6 j10 i12 k8 d11 e5 d4 d9 h8 l11 h13 g3 j4 h12 m3 i8 j7 \
                     i5 n9 m8 g5 i3 e7 h11 g7 h5 h9 n7 g10 i10";
        let mut board = Board::from_moves(15, Rule::Renju, moves).unwrap();
        let (h10, j9) = (points("h10")[0], points("j9")[0]);
        assert_eq!(board.foul(j9), None);
        let mut out = Vec::new();
        MoveGen::default().candidates(&mut board, &mut out);
        let mut names: Vec<String> = out.iter().map(|p| p.to_human(15)).collect();
        names.sort();
        // g12 j9 l7 take or spoil the open four, j3 j5 j8 are White's fours, and h10 l10
        // m10 l9 o6 make j9 forbidden.
        assert_eq!(
            names,
            ["g12", "h10", "j3", "j5", "j8", "j9", "l10", "l7", "l9", "m10", "o6"]
        );
        board.play(h10);
        assert_eq!(board.foul(j9), Some(crate::Foul::DoubleThree));
    }

    /// Against an open three (an open four to come), the candidates are exactly the nearby
    /// moves that make a four of ours or after which the opponent has no open four it may
    /// make, as playing each one shows; over random crowded positions of every rule (where
    /// the double-threat test of every point is checked against its shapes too).
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
                if board.result().is_some()
                    || t.five > 0
                    || m.five > 0
                    || !open_four_to_make(&mut board, them)
                {
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
                        let holds =
                            board.result().is_some() || !open_four_to_make(&mut board, them);
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

    /// Against a four-three (or two fours) to come, no nearby move that holds is left out:
    /// our fours, and the moves after which the opponent has no double threat left (as
    /// [`MoveGen::find_double_threats`] finds them), as playing each one shows; over random
    /// crowded positions of every rule. (The candidates may hold more: a move that takes the
    /// threats away but leaves others, and every move when none holds.) A run of 400,000
    /// boards a rule found none left out.
    #[test]
    fn no_answer_to_a_double_threat_is_left_out() {
        let mut rng = crate::testing::Xorshift(0x1234_5678_9ABC_DEF1);
        let mut tested = 0;
        for rule in Rule::ALL {
            for _ in 0..3000 {
                let mut board = crate::testing::crowded_board(&mut rng, rule, 4, 11, 14, 30);
                if board.result().is_some() {
                    continue;
                }
                let me = board.side_to_move();
                let them = me.opponent();
                let mut gen = MoveGen::default();
                let mut got = Vec::new();
                gen.candidates(&mut board, &mut got);
                if !gen.defending_double_threat {
                    continue;
                }
                let mut near = Vec::new();
                MoveGen::nearby(&board, &mut near);
                board.retain_legal(&mut near);
                for p in near {
                    if board.makes_four(p, me) {
                        assert!(got.contains(&p), "our four {p:?} in {board:?}");
                        continue;
                    }
                    board.play(p);
                    let holds = board.result().is_some() || {
                        let mut after = Vec::new();
                        MoveGen::nearby(&board, &mut after);
                        !MoveGen::default().find_double_threats(&mut board, them, &after)
                    };
                    board.undo();
                    assert!(!holds || got.contains(&p), "{p:?} holds in {board:?}");
                }
                tested += 1;
            }
        }
        assert!(
            tested > 100,
            "only {tested} positions had a double threat to answer"
        );
    }

    /// When the candidates say the side to move has lost to an open three, every legal move
    /// of the board (near the stones or not) leaves the opponent a win by fours (the threat
    /// solver's) that ends the game exactly four plies after the position; and a position
    /// whose open threes one move cannot stop both is found that way.
    #[test]
    fn a_lost_position_is_lost_whatever_is_played() {
        use crate::threat::{ThreatKind, ThreatLimits, ThreatSolver};
        let mut rng = crate::testing::Xorshift(0x9E37_79B9_7F4A_7C15);
        let mut solver = ThreatSolver::new(1 << 16);
        let limits = ThreatLimits {
            max_attacks: 4,
            nodes: Some(100_000),
            ..ThreatLimits::default()
        };
        let mut lost = 0;
        for rule in Rule::ALL {
            for _ in 0..1500 {
                let mut board = crate::testing::crowded_board(&mut rng, rule, 6, 9, 6, 20);
                let mut gen = MoveGen::default();
                let mut out = Vec::new();
                gen.candidates(&mut board, &mut out);
                if !gen.lost_to_open_three {
                    continue;
                }
                lost += 1;
                let mut legal: Vec<Point> = board.points().filter(|&p| board.is_empty(p)).collect();
                board.retain_legal(&mut legal);
                for p in legal {
                    board.play(p);
                    let win = solver.solve(&mut board, ThreatKind::Vcf, &limits);
                    board.undo();
                    let ends = win.map(|w| w.plies + 1);
                    assert_eq!(ends, Some(4), "after {} in {board:?}", p.to_human(15));
                }
            }
        }
        assert!(lost > 5, "only {lost} lost positions");
        // White's open threes g7-i7 and l10-l12 are far apart, so no stone stops both, and
        // Black, to move, has no four to make.
        let board = Board::from_stones(
            15,
            Rule::Freestyle,
            &points("a1,a4,a8,o15,o11,o7"),
            &points("g7,h7,i7,l10,l11,l12"),
            None,
        );
        let mut board = board.unwrap();
        let mut gen = MoveGen::default();
        let mut out = Vec::new();
        gen.candidates(&mut board, &mut out);
        assert!(gen.lost_to_open_three);
        assert!(out.len() > 20, "every nearby move is still listed");
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
}
