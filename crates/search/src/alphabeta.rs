//! Alpha-beta in negamax form: negamax that stops looking at a position's remaining moves as
//! soon as one of them proves the opponent would never allow it (a beta cut-off). Moves are
//! tried in the game's own order; the full [`crate::Searcher`] adds move ordering and tables.

use crate::game::{static_score, Game};
use crate::negamax::leaf_score;
use crate::observer::Observer;
use crate::score::Score;
use crate::strategy::{SearchResult, Strategy};
use crate::walk::Walk;

/// Fail-soft alpha-beta to a fixed depth ([`crate::UNLIMITED_DEPTH`] for the whole tree).
#[derive(Clone, Debug)]
pub struct AlphaBeta {
    pub depth: u32,
}

fn alphabeta<G: Game, O: Observer<G>>(
    game: &mut G,
    mv: Option<G::Move>,
    depth: u32,
    ply: u32,
    mut alpha: Score,
    beta: Score,
    walk: &mut Walk<G, O>,
) -> Score {
    if !walk.enter(game, mv, ply, depth, alpha, beta) {
        return Score::DRAW;
    }
    if let Some(score) = leaf_score(game, depth, ply) {
        return walk.leave(score, false, &[]);
    }
    let mut moves = walk.moves.take(ply as usize);
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return walk.leave_stuck(ply, moves, static_score(game));
    }
    let mut best = -Score::INFINITY;
    let mut searched = moves.len();
    for (i, &mv) in moves.iter().enumerate() {
        game.play(mv);
        let score = -alphabeta(game, Some(mv), depth - 1, ply + 1, -beta, -alpha, walk);
        game.undo(mv);
        if walk.stopped {
            break;
        }
        if score > best {
            best = score;
            walk.new_best(ply, mv);
            alpha = alpha.max(score);
            if alpha >= beta {
                searched = i + 1;
                break;
            }
        }
    }
    let value = walk.leave(best, alpha >= beta, &moves[searched..]);
    walk.moves.give(ply as usize, moves);
    value
}

impl AlphaBeta {
    /// The search, watched by `observer`; `None` when the observer stopped it.
    pub fn search_observed<G: Game, O: Observer<G>>(
        &self,
        game: &mut G,
        observer: &mut O,
    ) -> Option<SearchResult<G::Move>> {
        let mut walk = Walk::new(observer);
        let score = alphabeta(
            game,
            None,
            self.depth,
            0,
            -Score::INFINITY,
            Score::INFINITY,
            &mut walk,
        );
        walk.finish(score, self.depth)
    }
}

impl<G: Game> Strategy<G> for AlphaBeta {
    fn name(&self) -> &'static str {
        "alphabeta"
    }

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move> {
        self.search_observed(game, &mut ())
            .expect("nothing stops an unobserved search")
    }
}
