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
/// absent. The game's time is shared among the moves still to come, counted as half the
/// empty points but at most `horizon` (`SearchParams::time_horizon`) and at least 8, so that
/// a long game still finds time left. A margin is kept back for start-up, I/O and the clock
/// checks' granularity, so the reply comes in time even on a loaded machine.
pub fn move_budget(
    turn: Option<Duration>,
    match_left: Option<Duration>,
    board: &Board,
    horizon: u32,
) -> Option<Duration> {
    let empty = board.size() * board.size() - board.stone_count();
    let moves_left = (empty as u32 / 2).clamp(8, horizon.max(8));
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
    fn the_budget_keeps_a_margin_and_shares_the_game_clock() {
        let board = Board::new(15, Rule::Freestyle).unwrap();
        let ms = Duration::from_millis;
        assert_eq!(move_budget(None, None, &board, 20), None);
        // A quarter of the turn is kept back, at least 40 ms and at most 100 ms.
        assert_eq!(move_budget(Some(ms(1000)), None, &board, 20), Some(ms(900)));
        assert_eq!(move_budget(Some(ms(150)), None, &board, 20), Some(ms(110)));
        assert_eq!(move_budget(Some(ms(100)), None, &board, 20), Some(ms(60)));
        // 225 empty points, 112 moves of ours at most: the horizon's share of the game clock.
        let game = Some(ms(60_000));
        assert_eq!(move_budget(None, game, &board, 20), Some(ms(2900)));
        assert_eq!(move_budget(None, game, &board, 30), Some(ms(1900)));
        // The turn limit when it is the smaller.
        assert_eq!(move_budget(Some(ms(500)), game, &board, 20), Some(ms(400)));
        // 25 empty points: 12 moves of ours at most, fewer than the horizon.
        let small = Board::new(5, Rule::Freestyle).unwrap();
        assert_eq!(move_budget(None, game, &small, 20), Some(ms(4900)));
    }
}
