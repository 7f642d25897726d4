//! How long to think about one move, from the turn limit and the time left in the game.
//!
//! Within a move the search itself decides when to stop (it runs to the hard deadline unless
//! its best move has settled, see `SearchParams::soft_time_share`); this module only sets that
//! deadline, keeping a reserve so the reply arrives in time even on a loaded machine.

use crate::board::Board;
use std::time::Duration;

/// The reserve kept back from every move's time: a quarter of it, but at least 40 ms (a
/// loaded 2-core machine can hold a process off the CPU that long) and at most 100 ms.
const MARGIN_DIVISOR: u32 = 4;
const MIN_MARGIN: Duration = Duration::from_millis(40);
const MAX_MARGIN: Duration = Duration::from_millis(100);

/// How long to think about one move.
///
/// `turn` is the limit per move, `match_left` the time left for the whole game; either may be
/// absent. A margin is kept back for start-up, I/O and the clock checks' granularity, so the
/// reply comes in time even on a loaded machine.
pub fn move_budget(
    turn: Option<Duration>,
    match_left: Option<Duration>,
    board: &Board,
) -> Option<Duration> {
    let empty = board.size() * board.size() - board.stone_count();
    // Games rarely last past 60 more moves of ours; keep a reserve for long ones.
    let moves_left = (empty as u32 / 2).clamp(8, 30);
    let from_match = match_left.map(|left| left / moves_left);
    let budget = match (turn, from_match) {
        (Some(t), Some(m)) => Some(t.min(m)),
        (t, m) => t.or(m),
    }?;
    let margin = (budget / MARGIN_DIVISOR).clamp(MIN_MARGIN, MAX_MARGIN);
    Some(budget.saturating_sub(margin))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn the_budget_keeps_a_margin() {
        let board = Board::new(15, Rule::Freestyle).unwrap();
        let ms = Duration::from_millis;
        assert_eq!(move_budget(None, None, &board), None);
        assert!(move_budget(Some(ms(1000)), None, &board).unwrap() <= ms(900));
        assert!(move_budget(Some(ms(100)), None, &board).unwrap() <= ms(60));
        assert_eq!(move_budget(Some(ms(150)), None, &board), Some(ms(110)));
        let from_match = move_budget(None, Some(ms(60_000)), &board).unwrap();
        assert!(
            from_match <= ms(2000) && from_match >= ms(1000),
            "{from_match:?}"
        );
        assert!(move_budget(Some(ms(500)), Some(ms(60_000)), &board).unwrap() <= ms(450));
    }
}
