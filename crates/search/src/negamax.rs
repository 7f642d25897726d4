//! Negamax: minimax written once, from the side to move's point of view, using
//! max(a, b) = -min(-a, -b).

use crate::game::{terminal_score, Game};
use crate::move_stack::MoveStack;
use crate::score::Score;
use crate::strategy::{best_root_move, SearchResult, Strategy};
use std::time::Instant;

/// Plain negamax to a fixed depth ([`crate::UNLIMITED_DEPTH`] for the whole game tree).
#[derive(Clone, Debug)]
pub struct Negamax {
    pub depth: u32,
}

/// Leaf value from the side to move's view, or `None` when the node must be expanded.
pub(crate) fn leaf_score<G: Game>(game: &G, depth: u32, ply: u32) -> Option<Score> {
    if let Some(outcome) = game.outcome() {
        return Some(terminal_score(outcome, game.side_to_move(), ply));
    }
    (depth == 0).then(|| game.evaluate())
}

fn negamax<G: Game>(
    game: &mut G,
    depth: u32,
    ply: u32,
    nodes: &mut u64,
    stack: &mut MoveStack<G::Move>,
) -> Score {
    *nodes += 1;
    if let Some(score) = leaf_score(game, depth, ply) {
        return score;
    }
    let mut moves = stack.take(ply as usize);
    game.legal_moves(&mut moves);
    let mut best = -Score::INFINITY;
    for &mv in &moves {
        game.play(mv);
        best = best.max(-negamax(game, depth - 1, ply + 1, nodes, stack));
        game.undo(mv);
    }
    stack.give(ply as usize, moves);
    best
}

impl<G: Game> Strategy<G> for Negamax {
    fn name(&self) -> &'static str {
        "negamax"
    }

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut nodes = 1;
        let mut stack = MoveStack::default();
        let (best_move, score) = match leaf_score(game, self.depth, 0) {
            Some(score) => (None, score),
            None => best_root_move(game, |game, _| {
                -negamax(game, self.depth - 1, 1, &mut nodes, &mut stack)
            }),
        };
        SearchResult::fixed_depth(best_move, score, nodes, self.depth, start)
    }
}
