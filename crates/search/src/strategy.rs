//! The AI interface: "find the best move for this position", whatever the algorithm.

use crate::game::Game;
use crate::score::Score;
use std::time::Duration;

/// What a strategy found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// `None` when the game is already over, or when a textbook strategy was given depth 0.
    /// ([`crate::Searcher`] always names a move while the game goes on: stopped before its
    /// first iteration ends, the first candidate, with depth 0.)
    pub best_move: Option<M>,
    /// The value of the position for the side to move.
    pub score: Score,
    /// Positions visited, the root included (a position searched again, as PVS re-searches
    /// after a null window fails, counts again).
    pub nodes: u64,
    /// The deepest fully searched depth; a search to the end of the game reports the depth it
    /// was given ([`UNLIMITED_DEPTH`] for a textbook solve). 0 when [`crate::Searcher`]
    /// stopped before its first iteration ended: the score then means nothing.
    ///
    /// A decided [`Score`] is a proven win or loss. A draw is proven when the searcher's
    /// depth reaches the game's [`Game::max_remaining_plies`] (so a game that can say how
    /// long it may last at most gets exact draws, and gets them sooner); otherwise a score of
    /// 0 may be a heuristic one.
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
