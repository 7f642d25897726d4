//! What a position is worth, from the side to move's view.
//!
//! Two evaluations share one entry point: the learned one (tables indexed by pattern codes,
//! fitted from wuzi's own games per rule, summed incrementally by the board) and the classic
//! hand-weighted shape count it replaces, kept so `wuzi match` can play one against the other.

mod chance;
mod classic;
mod codes;
mod factors;
mod learned;
mod policy;
mod weights;

pub use chance::{chance_percent, units_per_log_odds, whole_percent, win_chance};
pub(crate) use codes::{
    code_count, code_flags, code_of_key, code_shapes, key_of, FLAG_DOUBLE, FLAG_DOUBLE_RENJU_BLACK,
    FLAG_FOUR, KEY_STEP,
};
pub use codes::{code_of, renju_black_dead, shapes_of, CODES};
pub use factors::ShapeFactor;
pub use learned::{features, learned_from_scratch, Feature};
pub use policy::{
    class_of, near_index, threat_level, Policy, PolicyContext, PolicyFeatures, ATTACK, CLASSES,
    COMBOS, DEFENCE, LAST_THEM, LAST_US, LOCAL, NEAR, NEARS, NEAR_NONE, STATES, STATE_ENTRIES,
};
pub use weights::{
    embedded as embedded_weights, Weights, EVAL_FRACTION, EVAL_FRACTION_BITS, FITTED_SIZE,
    MAX_VALUE, MOVER, SCALABLE_SHAPES, WAITER,
};

use crate::board::Board;
use std::str::FromStr;

/// Which evaluation the search calls.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// Tables fitted from self-play (see [`Weights`]). The default: +104 ± 34 Elo in
    /// freestyle, +133 ± 31 in renju against classic (400 games each at 10k nodes a move).
    #[default]
    Learned,
    /// The hand-weighted shape count.
    Classic,
}

impl FromStr for EvalKind {
    type Err = String;

    fn from_str(s: &str) -> Result<EvalKind, String> {
        match s.to_ascii_lowercase().as_str() {
            "learned" => Ok(EvalKind::Learned),
            "classic" => Ok(EvalKind::Classic),
            _ => Err(format!("\"{s}\" is not learned or classic")),
        }
    }
}

/// The evaluation of `kind` from the side to move's view, in evaluation units (an open three
/// about 25).
#[inline]
pub fn evaluate_with(board: &Board, kind: EvalKind) -> i32 {
    match kind {
        EvalKind::Learned => learned::evaluate(board),
        EvalKind::Classic => classic::evaluate(board),
    }
}

/// The default evaluation.
#[inline]
pub fn evaluate(board: &Board) -> i32 {
    evaluate_with(board, EvalKind::default())
}

/// The classic evaluation (the tuner fits its scale to put the learned one in the same units).
pub use classic::classic_weights;

pub fn evaluate_classic(board: &Board) -> i32 {
    classic::evaluate(board)
}
