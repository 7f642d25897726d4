//! How long to think about one move, from the turn limit and the time left in the game.
//!
//! Within a move the search itself decides when to stop: past a share of the target, a smaller
//! one once its best move has settled (`SearchParams::soft_time_share` and
//! `unsettled_time_share`), and at the limit whatever it is doing. This module only sets the
//! two, keeping a reserve so the reply arrives in time even on a loaded machine.

use crate::board::Board;
use std::time::Duration;
use wuzi_search::Limits;

/// The longest time anything here thinks (about 136 years): a longer one, up to
/// `Duration::MAX` ("until I stop you"), is taken as this, so that sharing it out and adding
/// it to the clock's present reading cannot overflow.
pub const LONGEST_TIME: Duration = Duration::from_secs(1 << 32);

/// `limits` with its times held to [`LONGEST_TIME`].
pub(crate) fn within_longest(limits: &Limits) -> Limits {
    Limits {
        time: limits.time.map(|t| t.min(LONGEST_TIME)),
        target: limits.target.map(|t| t.min(LONGEST_TIME)),
        ..limits.clone()
    }
}

/// The reserve kept back from every move's time: a quarter of it, but at least 40 ms (a
/// loaded 2-core machine can hold a process off the CPU that long) and at most 100 ms.
const MARGIN_DIVISOR: u32 = 4;
const MIN_MARGIN: Duration = Duration::from_millis(40);
const MAX_MARGIN: Duration = Duration::from_millis(100);

/// How long to think about one move: the time to aim for, and the hard limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// The search may stop after this once its best move has settled.
    pub target: Duration,
    /// The reply comes by then, whatever the search is doing.
    pub limit: Duration,
}

/// How long to think about one move.
///
/// `turn` is the limit per move, `match_left` the time left for the whole game; either may be
/// absent. The game's time is shared among the moves still to come, counted as half the
/// empty points but at most `horizon` (`SearchParams::time_horizon`) and at least 8, so that
/// a long game still finds time left; that share is the target, and a move whose best reply
/// is unclear may run on to `extend` percent of it (`SearchParams::time_extension`). A margin
/// is kept back for start-up, I/O and the clock checks' granularity, so the reply comes in
/// time even on a loaded machine.
pub fn move_budget(
    turn: Option<Duration>,
    match_left: Option<Duration>,
    board: &Board,
    horizon: u32,
    extend: u32,
) -> Option<MoveTime> {
    let (turn, match_left) = (
        turn.map(|t| t.min(LONGEST_TIME)),
        match_left.map(|t| t.min(LONGEST_TIME)),
    );
    let empty = board.empty_count();
    let moves_left = (empty as u32 / 2).clamp(8, horizon.max(8));
    let share = match_left.map(|left| left / moves_left);
    let stretched = share.map(|s| s * extend.max(100) / 100);
    let at_most = |a: Option<Duration>, b: Option<Duration>| match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let target = at_most(turn, share)?;
    let limit = at_most(turn, stretched)?;
    let less_margin =
        |t: Duration| t.saturating_sub((t / MARGIN_DIVISOR).clamp(MIN_MARGIN, MAX_MARGIN));
    Some(MoveTime {
        target: less_margin(target),
        limit: less_margin(limit),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    #[test]
    fn the_budget_keeps_a_margin_and_shares_the_game_clock() {
        let board = Board::new(15, Rule::Freestyle).unwrap();
        let ms = Duration::from_millis;
        let both = |t| {
            Some(MoveTime {
                target: t,
                limit: t,
            })
        };
        assert_eq!(move_budget(None, None, &board, 20, 100), None);
        // A quarter of the turn is kept back, at least 40 ms and at most 100 ms.
        assert_eq!(
            move_budget(Some(ms(1000)), None, &board, 20, 250),
            both(ms(900))
        );
        assert_eq!(
            move_budget(Some(ms(150)), None, &board, 20, 100),
            both(ms(110))
        );
        assert_eq!(
            move_budget(Some(ms(100)), None, &board, 20, 100),
            both(ms(60))
        );
        // 225 empty points, 112 moves of ours at most: the horizon's share of the game clock.
        let game = Some(ms(60_000));
        assert_eq!(move_budget(None, game, &board, 20, 100), both(ms(2900)));
        assert_eq!(move_budget(None, game, &board, 30, 100), both(ms(1900)));
        // An unclear move may run on to two and a half shares.
        let stretched = MoveTime {
            target: ms(2900),
            limit: ms(7400),
        };
        assert_eq!(move_budget(None, game, &board, 20, 250), Some(stretched));
        // The turn limit when it is the smaller, for the target and the limit alike.
        assert_eq!(
            move_budget(Some(ms(500)), game, &board, 20, 250),
            both(ms(400))
        );
        let capped = MoveTime {
            target: ms(2900),
            limit: ms(3900),
        };
        assert_eq!(
            move_budget(Some(ms(4000)), game, &board, 20, 250),
            Some(capped)
        );
        // 25 empty points: 12 moves of ours at most, fewer than the horizon.
        let small = Board::new(5, Rule::Freestyle).unwrap();
        assert_eq!(move_budget(None, game, &small, 20, 100), both(ms(4900)));
    }
}
