//! wuzi-gomoku: the Gomoku board and everything that recognises what is on it.
//!
//! - [`Board`]: stones on a 5x5 to 22x22 board, `play`/`undo` in place without allocating,
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
    MAX_HASH_MIB, MAX_THREADS,
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
pub use wuzi_search::Player;

/// The colour that moves first.
pub const BLACK: Player = Player::First;
/// The colour that moves second.
pub const WHITE: Player = Player::Second;
