//! Negamax: minimax written once, from the side to move's point of view, using
//! max(a, b) = -min(-a, -b).

use crate::game::{static_score, terminal_score, Game};
use crate::observer::Observer;
use crate::score::{Score, LAST_PLY};
use crate::strategy::{SearchResult, Strategy};
use crate::walk::Walk;

/// Plain negamax to a fixed depth ([`crate::UNLIMITED_DEPTH`] for the whole game tree).
#[derive(Clone, Debug)]
pub struct Negamax {
    pub depth: u32,
}

/// Leaf value from the side to move's view, or `None` when the node must be expanded: a
/// finished game, the depth reached, or the last ply any strategy searches
/// ([`LAST_PLY`]: decided scores count no further).
pub(crate) fn leaf_score<G: Game>(game: &G, depth: u32, ply: u32) -> Option<Score> {
    if let Some(outcome) = game.outcome() {
        return Some(terminal_score(outcome, game.side_to_move(), ply));
    }
    (depth == 0 || ply as usize >= LAST_PLY).then(|| static_score(game))
}

fn negamax<G: Game, O: Observer<G>>(
    game: &mut G,
    mv: Option<G::Move>,
    depth: u32,
    ply: u32,
    walk: &mut Walk<G, O>,
) -> Score {
    if !walk.enter(game, mv, ply, depth, -Score::INFINITY, Score::INFINITY) {
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
    for &mv in &moves {
        game.play(mv);
        let score = -negamax(game, Some(mv), depth - 1, ply + 1, walk);
        game.undo(mv);
        if walk.stopped {
            break;
        }
        if score > best {
            best = score;
            walk.new_best(ply, mv);
        }
    }
    walk.moves.give(ply as usize, moves);
    walk.leave(best, false, &[])
}

impl Negamax {
    /// The search, watched by `observer`; `None` when the observer stopped it.
    pub fn search_observed<G: Game, O: Observer<G>>(
        &self,
        game: &mut G,
        observer: &mut O,
    ) -> Option<SearchResult<G::Move>> {
        let mut walk = Walk::new(observer);
        let score = negamax(game, None, self.depth, 0, &mut walk);
        walk.finish(score, self.depth)
    }
}

impl<G: Game> Strategy<G> for Negamax {
    fn name(&self) -> &'static str {
        "negamax"
    }

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move> {
        self.search_observed(game, &mut ())
            .expect("nothing stops an unobserved search")
    }
}
