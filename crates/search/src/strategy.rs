//! The AI interface: "find the best move for this position", whatever the algorithm.

use crate::game::Game;
use crate::score::Score;
use std::time::Duration;

/// What a strategy found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// `None` when the game is already over, or when nothing was searched (a depth of 0).
    pub best_move: Option<M>,
    /// The value of the position for the side to move.
    pub score: Score,
    /// Positions visited, the root included (a position searched again, as PVS re-searches
    /// after a null window fails, counts again).
    pub nodes: u64,
    /// The deepest fully searched depth; a search to the end of the game reports the depth it
    /// was given ([`UNLIMITED_DEPTH`] for a textbook solve).
    pub depth: u32,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<M>,
    pub elapsed: Duration,
}

/// An algorithm that picks a move. Every strategy is deterministic: the same position gives
/// the same move, score and node count.
pub trait Strategy<G: Game> {
    fn name(&self) -> &'static str;

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move>;
}

/// A depth that means "search every line to the end of the game".
pub const UNLIMITED_DEPTH: u32 = u32::MAX;
