//! wuzi-search: generic adversarial search for two-player, perfect-information games.
//!
//! A game implements [`Game`]; any [`Strategy`] can then pick its moves:
//! - [`Minimax`]: the textbook max/min pair, the oracle the others are tested against;
//! - [`Negamax`]: the same search written once from the side to move's view;
//! - [`AlphaBeta`]: negamax that skips moves which cannot change the result;
//! - [`Pvs`]: alpha-beta that asks "is it better?" with null windows before searching fully;
//! - [`Searcher`]: iterative deepening, principal-variation search, a transposition table,
//!   move ordering and limits: the one real engines use.
//!
//! Scores ([`Score`]) rank a shorter win above a longer one and a longer defence above a
//! shorter one, so every strategy plays the fastest win and the most stubborn defence.
//!
//! The four textbook searches take an [`Observer`] that sees every node entered and left
//! (`()` for none, at no cost): [`TreeRecorder`] keeps the searched tree for Learn mode,
//! [`WorkLimit`] bounds the work.
//!
//! The crate knows nothing about any particular game and does no I/O.

mod alphabeta;
mod game;
mod limits;
mod minimax;
mod move_stack;
mod negamax;
mod observer;
mod pv;
mod pvs;
mod score;
mod searcher;
mod shared_tt;
mod strategy;
mod tree;
mod tt;
mod walk;
mod zeroed;
mod zobrist;

pub use alphabeta::AlphaBeta;
pub use game::{terminal_score, Game, Outcome, Player};
pub use limits::Limits;
pub use minimax::Minimax;
pub use move_stack::MoveStack;
pub use negamax::Negamax;
pub use observer::{LimitExceeded, Observer, WorkLimit};
pub use pv::extend_line;
pub use pvs::Pvs;
pub use score::{Forced, Score, MAX_PLY};
pub use searcher::{Report, SearchOptions, Searcher, DEFAULT_TT_BYTES};
pub use shared_tt::{SharedEntry, SharedTable};
pub use strategy::{SearchResult, Strategy, UNLIMITED_DEPTH};
pub use tree::{TreeNode, TreeRecorder};
pub use tt::{Bound, Entry, TranspositionTable};
pub use zobrist::zobrist_keys;
