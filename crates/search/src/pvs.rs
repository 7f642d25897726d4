//! Principal-variation search, the textbook way: alpha-beta that searches a node's first move
//! with the full window and every other move with a null window (alpha, alpha + 1), which only
//! asks "is it better?"; a move that answers yes is searched again with the full window. With
//! good move ordering most answers are no, and null windows cut off sooner. No table, no
//! ordering of its own: the same moves in the same order as [`crate::AlphaBeta`], and the same
//! value, but not the same tree. The null windows prune more below the moves that are not
//! better, and every move that is better costs a second search; so PVS visits fewer nodes
//! when the first move is usually best, and can visit more when it is not (with the moves
//! tried worst first, each later move tends to be better and is searched twice).

use crate::game::{static_score, Game};
use crate::negamax::leaf_score;
use crate::observer::Observer;
use crate::score::Score;
use crate::strategy::{SearchResult, Strategy};
use crate::walk::Walk;

/// Fail-soft principal-variation search to a fixed depth.
#[derive(Clone, Debug)]
pub struct Pvs {
    pub depth: u32,
}

fn pvs<G: Game, O: Observer<G>>(
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
        let (d, p) = (depth - 1, ply + 1);
        let mut score = if i == 0 {
            -pvs(game, Some(mv), d, p, -beta, -alpha, walk)
        } else {
            -pvs(game, Some(mv), d, p, -alpha.plus_one(), -alpha, walk)
        };
        // Inside the window: the null window only proved "better than alpha"; find by how much.
        if i > 0 && score > alpha && score < beta && !walk.stopped {
            score = -pvs(game, Some(mv), d, p, -beta, -alpha, walk);
        }
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

impl Pvs {
    /// The search, watched by `observer` (a move searched again appears twice, the second time
    /// with the full window); `None` when the observer stopped it.
    pub fn search_observed<G: Game, O: Observer<G>>(
        &self,
        game: &mut G,
        observer: &mut O,
    ) -> Option<SearchResult<G::Move>> {
        let mut walk = Walk::new(observer);
        let score = pvs(
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

impl<G: Game> Strategy<G> for Pvs {
    fn name(&self) -> &'static str {
        "pvs"
    }

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move> {
        self.search_observed(game, &mut ())
            .expect("nothing stops an unobserved search")
    }
}
