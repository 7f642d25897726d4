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
//!
//! # A game in a few lines
//!
//! Nim with one pile: each side takes 1, 2 or 3 stones, and whoever takes the last one wins.
//! [`Game`]'s doc lists what every searcher relies on (an outcome exactly when no move is
//! left, a heuristic evaluation, an exact hash); `crates/mnk` is a fuller example, with the
//! hooks that make the searcher fast.
//!
//! ```
//! use wuzi_search::{AlphaBeta, Forced, Game, Limits, Outcome, Player, Searcher, Strategy};
//!
//! struct Nim {
//!     pile: u32,
//!     to_move: Player,
//! }
//!
//! impl Game for Nim {
//!     type Move = u32;
//!
//!     fn side_to_move(&self) -> Player {
//!         self.to_move
//!     }
//!
//!     fn legal_moves(&self, out: &mut Vec<u32>) {
//!         out.extend((1..=3).filter(|&take| take <= self.pile));
//!     }
//!
//!     fn play(&mut self, take: u32) {
//!         self.pile -= take;
//!         self.to_move = self.to_move.opponent();
//!     }
//!
//!     fn undo(&mut self, take: u32) {
//!         self.pile += take;
//!         self.to_move = self.to_move.opponent();
//!     }
//!
//!     fn outcome(&self) -> Option<Outcome> {
//!         // An empty pile: the side that just moved took the last stone.
//!         (self.pile == 0).then(|| Outcome::Win(self.to_move.opponent()))
//!     }
//!
//!     // Small enough for an exact key; a board game would use `zobrist_keys`.
//!     fn hash(&self) -> u64 {
//!         u64::from(self.pile) * 2 + self.to_move.index() as u64
//!     }
//! }
//!
//! // From 10 stones the first player wins by leaving a multiple of 4.
//! let mut nim = Nim { pile: 10, to_move: Player::First };
//! let solved = AlphaBeta { depth: wuzi_search::UNLIMITED_DEPTH }.search(&mut nim);
//! assert_eq!(solved.best_move, Some(2));
//! assert!(matches!(solved.score.forced(), Some(Forced::Win(_))));
//!
//! // The full searcher within limits; its own `search` also takes a progress callback.
//! let mut searcher = Searcher::new(1 << 20);
//! let found = searcher.search(&mut nim, &Limits::depth(12), |report| {
//!     assert!(report.depth <= 12);
//! });
//! assert_eq!(found.best_move, Some(2));
//! assert_eq!(found.score, solved.score, "the same shortest win");
//! ```

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
