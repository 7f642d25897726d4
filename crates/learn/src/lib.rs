//! wuzi-learn: Learn mode, shared by `wuzi analyze --algo`, `wuzi solve --moves` and the web
//! server's `POST /api/learn`.
//!
//! A [`LearnRequest`] names a game (tic-tac-toe, an m,n,k board or Gomoku), a position, a
//! depth and the algorithms to compare; [`run`] searches the position with each, within
//! [`Bounds`], and returns what each found (move, value, nodes, time, principal variation)
//! and, when asked, the searched tree as JSON ([`tree_json`]).
//!
//! The textbook algorithms (minimax, negamax, alpha-beta, PVS) see the same moves and the same
//! evaluation, so at the same depth they give the same value: on Gomoku through
//! [`wuzi_gomoku::TextbookGomoku`], on m,n,k boards through the board's own legal moves.
//! `engine` is the full engine (Gomoku) or the full searcher (m,n,k) at that depth, for
//! comparison; its tree is not recorded.

mod algorithm;
mod request;
mod run;
mod tree_json;

pub use algorithm::{parse_list as parse_algorithms, Algorithm};
pub use request::{Bounds, GameKind, LearnRequest, Plan, Position};
pub use run::{run, run_plan, AlgorithmResult};
pub use tree_json::{tree_json, INFINITY_VALUE};
