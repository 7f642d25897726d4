//! Alpha-beta in negamax form: negamax that stops looking at a position's remaining moves as
//! soon as one of them proves the opponent would never allow it (a beta cut-off). Moves are
//! tried in the game's own order; the full [`crate::Searcher`] adds move ordering and tables.

use crate::game::Game;
use crate::move_stack::MoveStack;
use crate::negamax::leaf_score;
use crate::score::Score;
use crate::strategy::{best_root_move, SearchResult, Strategy};
use std::time::Instant;

/// Fail-soft alpha-beta to a fixed depth ([`crate::UNLIMITED_DEPTH`] for the whole tree).
#[derive(Clone, Debug)]
pub struct AlphaBeta {
    pub depth: u32,
}

struct Walk<M> {
    nodes: u64,
    moves: MoveStack<M>,
}

fn alphabeta<G: Game>(
    game: &mut G,
    depth: u32,
    ply: u32,
    mut alpha: Score,
    beta: Score,
    walk: &mut Walk<G::Move>,
) -> Score {
    walk.nodes += 1;
    if let Some(score) = leaf_score(game, depth, ply) {
        return score;
    }
    let mut moves = walk.moves.take(ply as usize);
    game.legal_moves(&mut moves);
    let mut best = -Score::INFINITY;
    for &mv in &moves {
        game.play(mv);
        let score = -alphabeta(game, depth - 1, ply + 1, -beta, -alpha, walk);
        game.undo(mv);
        if score > best {
            best = score;
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
    }
    walk.moves.give(ply as usize, moves);
    best
}

impl<G: Game> Strategy<G> for AlphaBeta {
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut walk = Walk {
            nodes: 1,
            moves: MoveStack::default(),
        };
        let (best_move, score) = match leaf_score(game, self.depth, 0) {
            Some(score) => (None, score),
            // Only a strictly better move matters at the root, so the window's lower edge is
            // the best score so far: anything at or below it may come back as a bound.
            None => best_root_move(game, |game, best| {
                -alphabeta(game, self.depth - 1, 1, -Score::INFINITY, -best, &mut walk)
            }),
        };
        SearchResult::fixed_depth(best_move, score, walk.nodes, self.depth, start)
    }
}
