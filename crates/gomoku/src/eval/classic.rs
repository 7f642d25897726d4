//! The hand-weighted evaluation wuzi started with: shape counts times fixed values, kept as
//! `eval=classic` so the learned one can be measured against it.

use crate::board::Board;
use crate::pattern::Shape;

/// What one (empty point, direction) with this shape is worth to its owner.
fn shape_value(shape: Shape) -> i32 {
    match shape {
        Shape::None | Shape::Overline | Shape::One => 0,
        Shape::Two => 2,
        Shape::OpenTwo => 6,
        Shape::Three => 8,
        Shape::OpenThree => 25,
        Shape::Four => 30,
        Shape::FourFour | Shape::OpenFour => 120,
        Shape::Five => 400,
    }
}

fn material(board: &Board, colour: wuzi_search::Player) -> i32 {
    Shape::ALL
        .iter()
        .map(|&s| board.shape_count(colour, s) as i32 * shape_value(s))
        .sum()
}

/// The side to move's shapes minus the opponent's. Having the move is worth more the sharper
/// the position: our threats are a tempo ahead of the opponent's, so they count extra.
pub fn evaluate(board: &Board) -> i32 {
    let me = board.side_to_move();
    let mine = material(board, me);
    let theirs = material(board, me.opponent());
    mine + mine / 4 - theirs
}

/// The classic evaluation written as learned tables (the point's four shape values, a quarter
/// more for the side to move): where the tuner starts, and what it falls back to for codes
/// its games never showed.
pub fn classic_weights(rule: crate::rules::Rule) -> super::Weights {
    let mut w = super::Weights::zero(rule);
    for code in 0..super::CODES {
        let value: i32 = super::shapes_of(code)
            .map(|s| s.iter().map(|&x| shape_value(x)).sum())
            .unwrap_or(0);
        for colour in 0..2 {
            w.tables[colour][code][super::MOVER] = (value + value / 4) * super::EVAL_FRACTION;
            w.tables[colour][code][super::WAITER] = value * super::EVAL_FRACTION;
        }
    }
    w.clear_dead_codes();
    w
}
