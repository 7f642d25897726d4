//! The AI interface: "find the best move for this position", whatever the algorithm.

use crate::game::Game;
use crate::score::Score;
use std::time::{Duration, Instant};

/// What a strategy found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// `None` only when the game is already over.
    pub best_move: Option<M>,
    /// The value of the position for the side to move.
    pub score: Score,
    /// Positions visited, the root included.
    pub nodes: u64,
    /// The deepest fully searched depth.
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

impl<M: Copy> SearchResult<M> {
    /// The result of a fixed-depth search whose principal variation is just its move.
    pub(crate) fn fixed_depth(
        best_move: Option<M>,
        score: Score,
        nodes: u64,
        depth: u32,
        start: Instant,
    ) -> Self {
        SearchResult {
            best_move,
            score,
            nodes,
            depth,
            pv: best_move.into_iter().collect(),
            elapsed: start.elapsed(),
        }
    }
}

/// The root loop the textbook strategies share: try every legal move, keep the first of the
/// best. `child_value` gets the game after the move and the best value so far, and returns the
/// move's value for the side that played it.
pub(crate) fn best_root_move<G: Game>(
    game: &mut G,
    mut child_value: impl FnMut(&mut G, Score) -> Score,
) -> (Option<G::Move>, Score) {
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut best_move = None;
    let mut best = -Score::INFINITY;
    for mv in moves {
        game.play(mv);
        let score = child_value(game, best);
        game.undo(mv);
        if score > best {
            best = score;
            best_move = Some(mv);
        }
    }
    (best_move, best)
}
