//! The learned evaluation: `tempo + sum(mine, to move) - sum(theirs, waiting)` over the empty
//! points' pattern codes, in sixteenths of a unit and rounded to whole units (see
//! [`super::Weights`]). The board keeps the sums; this module reads
//! them, and holds the slow from-scratch reference and the tuner's feature list.

use super::codes::{code_of, CODES};
use super::weights::{Weights, EVAL_FRACTION_BITS, MOVER, WAITER};
use crate::board::Board;
use wuzi_search::Player;

/// From the side to move's view, from the board's incremental sums. O(1).
#[inline]
pub(crate) fn evaluate(board: &Board) -> i32 {
    let me = board.side_to_move();
    let them = me.opponent();
    let v = board.learned_values();
    to_units(board.tempo()[me.index()] + v[me.index()][MOVER] - v[them.index()][WAITER])
}

/// Sixteenths to whole units, rounded to nearest (exact for whole-unit weights).
#[inline(always)]
fn to_units(sixteenths: i32) -> i32 {
    (sixteenths + (1 << (EVAL_FRACTION_BITS - 1))) >> EVAL_FRACTION_BITS
}

/// One term of the learned evaluation: `sign` times the weight at `index`, where indices
/// `0..4 * CODES` are `(colour * 2 + role) * CODES + code` and `4 * CODES + c` is the tempo
/// of colour `c` to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Feature {
    pub index: u16,
    pub sign: i8,
}

/// Every term of the learned evaluation of `board` (one per empty point and colour, and the
/// tempo), into `out` (cleared first): the evaluation is the signed sum of their weights (in
/// sixteenths of a unit, then rounded to whole units), on a board of the fitted size (15x15;
/// on others the tempo is [`Weights::tempo_on`]'s). The tuner fits the weights as a linear
/// model of exactly these terms.
pub fn features(board: &Board, out: &mut Vec<Feature>) {
    out.clear();
    let me = board.side_to_move();
    out.push(Feature {
        index: (4 * CODES + me.index()) as u16,
        sign: 1,
    });
    for p in board.points() {
        if !board.is_empty(p) {
            continue;
        }
        for colour in [Player::First, Player::Second] {
            let (role, sign) = if colour == me {
                (MOVER, 1)
            } else {
                (WAITER, -1)
            };
            let code = code_of(board.shapes(p, colour));
            out.push(Feature {
                index: ((colour.index() * 2 + role) * CODES + code) as u16,
                sign,
            });
        }
    }
}

/// The learned evaluation computed from the shapes alone (the reference for the board's
/// incremental sums).
pub fn learned_from_scratch(board: &Board, weights: &Weights) -> i32 {
    let mut f = Vec::new();
    features(board, &mut f);
    let sum = f
        .iter()
        .map(|f| {
            let i = f.index as usize;
            let w = if i >= 4 * CODES {
                weights.tempo_on(board.size())[i - 4 * CODES]
            } else {
                weights.tables[i / (2 * CODES)][i % CODES][i / CODES % 2]
            };
            f.sign as i32 * w
        })
        .sum::<i32>();
    to_units(sum)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::EVAL_FRACTION;
    use crate::notation::Point;
    use crate::rules::Rule;
    use proptest::prelude::*;
    use std::sync::Arc;

    /// Weights with every entry distinct-ish, so a wrong code or role shows.
    fn busy_weights(rule: Rule) -> Arc<Weights> {
        let mut w = Weights::zero(rule);
        w.tempo = [7 * EVAL_FRACTION, -5 * EVAL_FRACTION];
        for c in 0..2 {
            for r in 0..2 {
                for code in 0..CODES {
                    // Whole units (multiples of 16), so that a wrong code or role changes
                    // the rounded evaluation too.
                    w.tables[c][code][r] =
                        (((code * 31 + c * 7 + r * 13) % 97) as i32 - 40) * EVAL_FRACTION;
                }
            }
        }
        w.clear_dead_codes();
        Arc::new(w)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn incremental_sums_match_from_scratch(
            rule in prop::sample::select(vec![Rule::Freestyle, Rule::Standard, Rule::Renju]),
            moves in prop::collection::vec((0usize..15, 0usize..15), 1..60),
            undos in 0usize..20,
            size in prop::sample::select(vec![15usize, 9, 20]),
        ) {
            let weights = busy_weights(rule);
            let mut b = Board::new(size, rule).unwrap();
            b.set_weights(Arc::clone(&weights)).unwrap();
            for (x, y) in moves {
                if b.result().is_some() {
                    break;
                }
                let _ = b.try_play(Point::new(x, y));
                prop_assert_eq!(evaluate(&b), learned_from_scratch(&b, &weights));
            }
            for _ in 0..undos {
                b.undo();
                prop_assert_eq!(evaluate(&b), learned_from_scratch(&b, &weights));
            }
            for p in b.points().collect::<Vec<_>>() {
                if b.is_empty(p) {
                    prop_assert_eq!(b.code(p, Player::First), code_of(b.shapes(p, Player::First)));
                    prop_assert_eq!(b.code(p, Player::Second), code_of(b.shapes(p, Player::Second)));
                }
            }
        }
    }

    /// Weights set on a board with a history stay right as its moves are taken back.
    #[test]
    fn new_weights_hold_through_undo() {
        let weights = busy_weights(Rule::Renju);
        let mut b = Board::from_moves(15, Rule::Renju, "h8 i9 h9 h10 j8 g8").unwrap();
        let hash = b.hash();
        b.set_weights(Arc::clone(&weights)).unwrap();
        assert_eq!(b.hash(), hash);
        assert_eq!(b.moves().len(), 6);
        while b.undo().is_some() {
            assert_eq!(evaluate(&b), learned_from_scratch(&b, &weights));
        }
    }

    /// A position the top and right edges do not reach scores the same on any board (boards
    /// grow up and to the right: `a1` is the bottom-left corner of all): the open points a
    /// larger board adds do not add to the side to move's edge (with the embedded tables,
    /// whose open-space code's mover and waiter values differ; see [`Weights::tempo_on`]).
    #[test]
    fn the_board_size_does_not_change_a_position_the_far_edges_miss() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for moves in ["e5", "e5 f6", "e5 f6 g5 d5 f5", "a1 b2 c1"] {
                let scores: Vec<i32> = [15, 17, 20]
                    .into_iter()
                    .map(|size| evaluate(&Board::from_moves(size, rule, moves).unwrap()))
                    .collect();
                assert_eq!(scores[0], scores[1], "{} {moves}", rule.name());
                assert_eq!(scores[0], scores[2], "{} {moves}", rule.name());
            }
        }
    }

    #[test]
    fn set_weights_refuses_another_rule() {
        let mut b = Board::new(15, Rule::Freestyle).unwrap();
        assert!(b.set_weights(busy_weights(Rule::Renju)).is_err());
    }
}
