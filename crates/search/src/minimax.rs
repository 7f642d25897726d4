//! Textbook minimax: one function for the side that moves first (it maximises), one for the
//! other (it minimises). Slow and obviously right, it is the oracle the other strategies are
//! tested against.

use crate::game::{terminal_score, Game, Player};
use crate::move_stack::MoveStack;
use crate::score::Score;
use crate::strategy::{best_root_move, SearchResult, Strategy};
use std::time::Instant;

/// Plain minimax to a fixed depth ([`crate::UNLIMITED_DEPTH`] for the whole game tree).
#[derive(Clone, Debug)]
pub struct Minimax {
    pub depth: u32,
}

struct Walk<M> {
    nodes: u64,
    moves: MoveStack<M>,
}

/// Scores below are always from the first player's point of view.
fn first_player_view<G: Game>(game: &G, score: Score) -> Score {
    match game.side_to_move() {
        Player::First => score,
        Player::Second => -score,
    }
}

fn value<G: Game>(game: &mut G, depth: u32, ply: u32, walk: &mut Walk<G::Move>) -> Score {
    match game.side_to_move() {
        Player::First => max_value(game, depth, ply, walk),
        Player::Second => min_value(game, depth, ply, walk),
    }
}

/// Leaf value, or `None` when the node must be expanded.
fn leaf<G: Game>(game: &G, depth: u32, ply: u32) -> Option<Score> {
    if let Some(outcome) = game.outcome() {
        return Some(terminal_score(outcome, Player::First, ply));
    }
    (depth == 0).then(|| first_player_view(game, game.evaluate()))
}

fn max_value<G: Game>(game: &mut G, depth: u32, ply: u32, walk: &mut Walk<G::Move>) -> Score {
    walk.nodes += 1;
    if let Some(score) = leaf(game, depth, ply) {
        return score;
    }
    let mut moves = walk.moves.take(ply as usize);
    game.legal_moves(&mut moves);
    let mut best = -Score::INFINITY;
    for &mv in &moves {
        game.play(mv);
        best = best.max(value(game, depth - 1, ply + 1, walk));
        game.undo(mv);
    }
    walk.moves.give(ply as usize, moves);
    best
}

fn min_value<G: Game>(game: &mut G, depth: u32, ply: u32, walk: &mut Walk<G::Move>) -> Score {
    walk.nodes += 1;
    if let Some(score) = leaf(game, depth, ply) {
        return score;
    }
    let mut moves = walk.moves.take(ply as usize);
    game.legal_moves(&mut moves);
    let mut best = Score::INFINITY;
    for &mv in &moves {
        game.play(mv);
        best = best.min(value(game, depth - 1, ply + 1, walk));
        game.undo(mv);
    }
    walk.moves.give(ply as usize, moves);
    best
}

impl<G: Game> Strategy<G> for Minimax {
    fn name(&self) -> &'static str {
        "minimax"
    }

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move> {
        let start = Instant::now();
        let mut walk = Walk {
            nodes: 1,
            moves: MoveStack::default(),
        };
        let mover = game.side_to_move();
        let (best_move, score) = match leaf(game, self.depth, 0) {
            Some(score) => (None, first_player_view(game, score)),
            None => best_root_move(game, |game, _| {
                let first_view = value(game, self.depth - 1, 1, &mut walk);
                if mover == Player::First {
                    first_view
                } else {
                    -first_view
                }
            }),
        };
        SearchResult::fixed_depth(best_move, score, walk.nodes, self.depth, start)
    }
}
