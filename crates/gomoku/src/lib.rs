//! wuzi-gomoku: the Gomoku board and everything that recognises what is on it.
//!
//! - [`Board`]: stones on a 5x5 to 22x22 board, `try_play`/`undo` in place without allocating,
//!   the move history, an incremental Zobrist hash, the result, and for every empty point,
//!   direction and colour the [`Shape`] a stone there would make, with per-colour counts of
//!   those shapes kept in O(1).
//! - [`Rule`]: freestyle, standard (exactly five) and renju (Black's fouls, see
//!   [`Board::foul`]).
//! - [`Point`] and move lists in both notations (`h8` and `7,7`).
//! - [`Engine`]: the engine facade every front end uses: threat solving, then search, within
//!   time, node and depth limits.
//! - [`describe`] and [`render`]: a position as plain data and as text, for front ends.
//! - [`record`]: game records (SGF).
//! - [`TextbookGomoku`]: Gomoku as the tutorials search it, for Learn mode's textbook strategies.
//!
//! Playing a game against the engine from a program of your own:
//!
//! ```
//! use wuzi_gomoku::{parse_point, Board, Engine, EngineOptions, Limits, Rule};
//!
//! // A position from its moves, in either notation (`h8` or `7,7`).
//! let board = Board::from_moves(15, Rule::Freestyle, "h8 i9 h9").unwrap();
//! // One engine for the whole game: what its tables learn carries over from move to move.
//! let mut engine = Engine::new(board, EngineOptions::default());
//! // A node limit repeats exactly; `Limits::time` keeps to a clock, and a stop flag
//! // (`Limits::with_stop(stop_flag())`, set from another thread) ends a search at once.
//! let found = engine.go(&Limits::nodes(5_000), |_progress| {});
//! let reply = found.best_move.expect("the game is not over");
//! println!("wuzi plays {} ({})", reply.to_human(15), found.score);
//! // `go` only searches: the move is played, then the opponent's, and so on.
//! engine.play(reply).unwrap();
//! let theirs = parse_point("j7", 15).unwrap();
//! if engine.is_legal(theirs) {
//!     engine.play(theirs).unwrap();
//! }
//! assert!(engine.board().stone_count() >= 4);
//! ```

mod board;
mod describe;
mod engine;
pub mod eval;
mod forbidden;
mod game;
mod geometry;
mod movegen;
mod notation;
mod pattern;
pub mod record;
pub mod review;
mod rules;
mod table;
#[cfg(test)]
mod testing;
mod textbook;
mod threat;

pub use board::{Board, BoardError, GameResult, Reason, ThreatCounts};
pub use describe::{describe, parse_position, render, winning_line, Description, SideThreats};
pub use engine::{
    move_budget, stop_flag, Analysis, Engine, EngineOptions, Info, MoveTime, SearchParams,
    LONGEST_TIME, MAX_HASH_MIB, MAX_THREADS,
};
pub use eval::{chance_percent, units_per_log_odds, win_chance, EvalKind, Weights};
pub use forbidden::Foul;
pub use game::Gomoku;
pub use geometry::{Dir, DIRS};
pub use movegen::ordered_candidates;
pub use notation::{
    format_moves, parse_moves, parse_point, MoveListError, Point, MAX_SIZE, MIN_SIZE,
};
pub use pattern::{Shape, SHAPE_COUNT};
pub use rules::Rule;
pub use textbook::{point_score, textbook_candidates, CandidateOrder, TextbookGomoku};
pub use threat::{
    ThreatKind, ThreatLimits, ThreatSearch, ThreatSolver, ThreatWin, MAX_QUIET_VCF,
    MAX_THREAT_ATTACKS,
};
// The search core's types the engine's own signatures use, so that a program embedding the
// engine needs no other crate.
pub use wuzi_search::{Forced, Limits, Outcome, Player, Score};

/// The colour that moves first.
pub const BLACK: Player = Player::First;
/// The colour that moves second.
pub const WHITE: Player = Player::Second;
