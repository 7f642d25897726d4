//! Textbook minimax: one function for the side that moves first (it maximises), one for the
//! other (it minimises). Slow and obviously right, it is the oracle the other strategies are
//! tested against.

use crate::game::{static_score, terminal_score, Game, Player};
use crate::observer::Observer;
use crate::score::{Score, LAST_PLY};
use crate::strategy::{SearchResult, Strategy};
use crate::walk::Walk;

/// Plain minimax to a fixed depth ([`crate::UNLIMITED_DEPTH`] for the whole game tree).
#[derive(Clone, Debug)]
pub struct Minimax {
    pub depth: u32,
}

/// Scores below are always from the first player's point of view.
fn first_player_view<G: Game>(game: &G, score: Score) -> Score {
    match game.side_to_move() {
        Player::First => score,
        Player::Second => -score,
    }
}

/// Leaf value, or `None` when the node must be expanded: a finished game, the depth reached,
/// or the last ply any strategy searches ([`LAST_PLY`]: decided scores count no further).
fn leaf<G: Game>(game: &G, depth: u32, ply: u32) -> Option<Score> {
    if let Some(outcome) = game.outcome() {
        return Some(terminal_score(outcome, Player::First, ply));
    }
    (depth == 0 || ply as usize >= LAST_PLY).then(|| first_player_view(game, static_score(game)))
}

/// The value of the position for the first player: the max of the children's values when the
/// first player is to move, the min when the second is.
fn value<G: Game, O: Observer<G>>(
    game: &mut G,
    mv: Option<G::Move>,
    depth: u32,
    ply: u32,
    walk: &mut Walk<G, O>,
) -> Score {
    if !walk.enter(game, mv, ply, depth, -Score::INFINITY, Score::INFINITY) {
        return Score::DRAW;
    }
    if let Some(score) = leaf(game, depth, ply) {
        return walk.leave(score, false, &[]);
    }
    let maximising = game.side_to_move() == Player::First;
    let mut moves = walk.moves.take(ply as usize);
    game.legal_moves(&mut moves);
    if moves.is_empty() {
        return walk.leave_stuck(ply, moves, first_player_view(game, static_score(game)));
    }
    let mut best = if maximising {
        -Score::INFINITY
    } else {
        Score::INFINITY
    };
    for &mv in &moves {
        game.play(mv);
        let score = value(game, Some(mv), depth - 1, ply + 1, walk);
        game.undo(mv);
        if walk.stopped {
            break;
        }
        if (maximising && score > best) || (!maximising && score < best) {
            best = score;
            walk.new_best(ply, mv);
        }
    }
    walk.moves.give(ply as usize, moves);
    walk.leave(best, false, &[])
}

impl Minimax {
    /// The search, watched by `observer` (the tree's values are the first player's view);
    /// `None` when the observer stopped it.
    pub fn search_observed<G: Game, O: Observer<G>>(
        &self,
        game: &mut G,
        observer: &mut O,
    ) -> Option<SearchResult<G::Move>> {
        let mut walk = Walk::new(observer);
        let first_view = value(game, None, self.depth, 0, &mut walk);
        let score = first_player_view(game, first_view);
        walk.finish(score, self.depth)
    }
}

impl<G: Game> Strategy<G> for Minimax {
    fn name(&self) -> &'static str {
        "minimax"
    }

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move> {
        self.search_observed(game, &mut ())
            .expect("nothing stops an unobserved search")
    }
}
