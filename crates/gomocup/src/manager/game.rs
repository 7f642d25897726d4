//! One game between two competitors: the clocks, the referee, and the record.

use super::player::{Clock, Competitor, Fault};
use super::side::SideSpec;
use serde::Serialize;
use std::time::{Duration, Instant};
use wuzi_gomoku::record::RecordedMove;
use wuzi_gomoku::{Board, GameResult, Player, Point, Reason, Rule};

/// Everything a game needs besides its players.
pub struct GameSetup<'a> {
    pub size: usize,
    pub rule: Rule,
    pub opening: &'a [Point],
    /// Black's and White's limits, in that order.
    pub sides: [&'a SideSpec; 2],
    /// Extra time past each side's limit before it is forfeited; `None`: 1000 ms past a turn
    /// limit, none past a game clock.
    pub tolerance: Option<Duration>,
    /// A draw once this many stones are on the board.
    pub draw_after: Option<usize>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// `None` for a draw.
    pub winner: Option<Player>,
    /// Why, in words (e.g. "Black made five", "White timed out (...)").
    pub reason: String,
    /// Set when the game was interrupted and must not count.
    pub aborted: bool,
    /// Set when the loser lost by its program's fault (a crash, a timeout, an illegal move,
    /// garbage), not over the board.
    pub forfeit: bool,
}

/// A played game, its moves with their thinking times.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    pub moves: Vec<RecordedMove>,
    pub end: GameEnd,
}

/// Result in the usual notation, Black's score first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Outcome {
    #[serde(rename = "1-0")]
    BlackWins,
    #[serde(rename = "0-1")]
    WhiteWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
}

fn colour_name(p: Player) -> &'static str {
    if p == Player::First {
        "Black"
    } else {
        "White"
    }
}

/// When a side's reply is late: its turn limit plus the tolerance (by default 1000 ms, as
/// Gomocup managers allow for start-up and pipes), or what is left of its game clock (plus the
/// tolerance only when one is given: a game clock is the whole game's, with no slack), whichever
/// comes first.
fn wait_limit(
    turn: Option<Duration>,
    game_left: Option<Duration>,
    tolerance: Option<Duration>,
) -> Option<Duration> {
    let turn = turn.map(|t| t + tolerance.unwrap_or(Duration::from_millis(1000)));
    let game = game_left.map(|g| g + tolerance.unwrap_or(Duration::ZERO));
    match (turn, game) {
        (Some(t), Some(g)) => Some(t.min(g)),
        (t, g) => t.or(g),
    }
}

/// Plays from the opening to the end; `players` are Black and White. Neither player's
/// failure stops the caller: it loses the game, and the reason says how.
pub fn play_game(setup: &GameSetup, mut players: [&mut (dyn Competitor + Send); 2]) -> PlayedGame {
    let mut moves: Vec<RecordedMove> = setup
        .opening
        .iter()
        .map(|&point| RecordedMove {
            point,
            millis: None,
        })
        .collect();
    let forfeit = |loser: Player, why: String| GameEnd {
        winner: Some(loser.opponent()),
        reason: format!("{} {why}", colour_name(loser)),
        aborted: false,
        forfeit: true,
    };
    let finish = |players: &mut [&mut (dyn Competitor + Send); 2], moves, end| {
        for p in players.iter_mut() {
            p.end_game();
        }
        PlayedGame { moves, end }
    };
    let mut board = match Board::new(setup.size, setup.rule) {
        Ok(b) => b,
        Err(e) => {
            let end = GameEnd {
                winner: None,
                reason: format!("no game: {e}"),
                aborted: true,
                forfeit: false,
            };
            return finish(&mut players, moves, end);
        }
    };
    for &p in setup.opening {
        if let Err(e) = board.try_play(p) {
            let end = GameEnd {
                winner: None,
                reason: format!("bad opening at {}: {e}", p.to_gomocup()),
                aborted: true,
                forfeit: false,
            };
            return finish(&mut players, moves, end);
        }
    }
    for (i, colour) in [Player::First, Player::Second].into_iter().enumerate() {
        if let Err(fault) = players[i].start_game(setup.size, setup.rule) {
            let mut end = forfeit(colour, format!("could not start a game: {fault}"));
            end.aborted = fault == Fault::Aborted;
            return finish(&mut players, moves, end);
        }
    }
    let mut game_left: [Option<Duration>; 2] = [setup.sides[0].game, setup.sides[1].game];
    loop {
        if let Some(result) = board.result() {
            return finish(&mut players, moves, end_on_the_board(result));
        }
        if setup.draw_after.is_some_and(|n| board.stone_count() >= n) {
            let end = GameEnd {
                winner: None,
                reason: format!("drawn after {} moves", board.stone_count()),
                aborted: false,
                forfeit: false,
            };
            return finish(&mut players, moves, end);
        }
        let colour = board.side_to_move();
        // Under renju Black may have only forbidden points left. The referee decides that
        // loss itself: an engine asked for a move it cannot make may answer nothing useful
        // (pbrain-wuzi says `ERROR no legal move`), and would only lose on time.
        if board.rule().has_fouls(colour) && !board.has_legal_move() {
            // Lost by the rules, not by the program.
            let end = GameEnd {
                forfeit: false,
                ..forfeit(colour, Fault::NoLegalMove.to_string())
            };
            return finish(&mut players, moves, end);
        }
        let i = colour.index();
        let side = setup.sides[i];
        let clock = Clock {
            game_left: game_left[i],
            wait_limit: wait_limit(side.turn, game_left[i], setup.tolerance),
        };
        players[i].settle();
        let started = Instant::now();
        let chosen = players[i].choose(&board, &clock);
        let elapsed = started.elapsed();
        let point = match chosen {
            Ok(p) => p,
            Err(fault) => {
                let mut end = forfeit(colour, fault.to_string());
                end.aborted = fault == Fault::Aborted;
                return finish(&mut players, moves, end);
            }
        };
        if let Some(limit) = clock.wait_limit {
            if elapsed > limit {
                let why = format!(
                    "timed out ({} ms, limit {} ms)",
                    elapsed.as_millis(),
                    limit.as_millis()
                );
                return finish(&mut players, moves, forfeit(colour, why));
            }
        }
        if let Some(left) = game_left[i].as_mut() {
            *left = left.saturating_sub(elapsed);
        }
        if let Err(e) = board.try_play(point) {
            let why = format!("played an illegal move {}: {e}", point.to_gomocup());
            return finish(&mut players, moves, forfeit(colour, why));
        }
        moves.push(RecordedMove {
            point,
            millis: Some(elapsed.as_millis() as u64),
        });
    }
}

/// The end the board itself decided: a five, a renju foul, or a full board.
fn end_on_the_board(result: GameResult) -> GameEnd {
    let reason = match (result.winner, result.reason) {
        (None, _) => "the board is full".into(),
        (Some(w), Reason::Five) => format!("{} made five", colour_name(w)),
        (Some(w), foul) => format!(
            "{} played a forbidden {}",
            colour_name(w.opponent()),
            foul.name()
        ),
    };
    GameEnd {
        winner: result.winner,
        reason,
        aborted: false,
        forfeit: false,
    }
}

impl GameEnd {
    pub fn outcome(&self) -> Outcome {
        match self.winner {
            Some(Player::First) => Outcome::BlackWins,
            Some(Player::Second) => Outcome::WhiteWins,
            None => Outcome::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn a_turn_limit_has_its_tolerance_even_beside_a_game_clock() {
        // A 200 ms turn with 9.8 s of game left: a reply at 205 ms is in time.
        assert_eq!(
            wait_limit(Some(MS(200)), Some(MS(9_800)), None),
            Some(MS(1_200))
        );
        // The game clock has no slack unless one is given.
        assert_eq!(
            wait_limit(Some(MS(200)), Some(MS(150)), None),
            Some(MS(150))
        );
        assert_eq!(wait_limit(None, Some(MS(150)), None), Some(MS(150)));
        assert_eq!(wait_limit(Some(MS(200)), None, None), Some(MS(1_200)));
        assert_eq!(
            wait_limit(Some(MS(200)), Some(MS(150)), Some(MS(20))),
            Some(MS(170))
        );
        assert_eq!(
            wait_limit(Some(MS(200)), Some(MS(900)), Some(MS(20))),
            Some(MS(220))
        );
        assert_eq!(wait_limit(None, None, None), None);
    }
}
