//! The full searcher: iterative deepening, principal-variation search, a transposition table
//! and TT-move / killer / history move ordering, within depth, node and time limits.

use crate::game::{static_score, terminal_score, Game};
use crate::limits::{Budget, Limits};
use crate::move_stack::MoveStack;
use crate::pv::extend_line;
use crate::score::{Forced, Score, LAST_PLY, MAX_PLY};
use crate::strategy::{SearchResult, Strategy};
use crate::tt::{Bound, TranspositionTable};
use std::time::Duration;

/// Which refinements the searcher uses; each can be switched off to measure what it is worth.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Search all but the first move with a null window, re-searching only when one beats it.
    pub pvs: bool,
    /// Cut off with, and take the best move from, the transposition table.
    pub tt: bool,
    /// Try the moves that caused cut-offs at the same ply early.
    pub killers: bool,
    /// Order moves by how often they caused cut-offs anywhere.
    pub history: bool,
    /// Deepen one ply at a time (so a search can stop at any moment with a good move). Off,
    /// the searcher goes straight to its depth limit, or to the end of the game if the game
    /// bounds its length: the fastest way to solve a small game exactly, where the shallow
    /// iterations' heuristic results are wasted work.
    pub iterative_deepening: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            pvs: true,
            tt: true,
            killers: true,
            history: true,
            iterative_deepening: true,
        }
    }
}

/// What the searcher knows after each completed iteration.
#[derive(Clone, Debug)]
pub struct Report<'a, M> {
    pub depth: u32,
    pub score: Score,
    pub pv: &'a [M],
    pub nodes: u64,
    pub elapsed: Duration,
}

/// Iterative-deepening principal-variation search over any [`Game`].
///
/// The table and the history persist between searches (so a game's next move starts warm);
/// call [`Searcher::clear`] for a fresh start. The [`Strategy`] implementation clears first,
/// so it is deterministic.
pub struct Searcher<M> {
    pub options: SearchOptions,
    /// Limits used by [`Strategy::search`]; none by default.
    pub limits: Limits,
    tt: TranspositionTable<M>,
    moves: MoveStack<M>,
    pv: Vec<Vec<M>>,
    killers: Vec<[Option<M>; 2]>,
    history: Vec<u32>,
    nodes: u64,
    aborted: bool,
}

/// Default table size: small enough for any machine, large enough for small games.
pub const DEFAULT_TT_BYTES: usize = 16 << 20;

impl<M: Copy + Eq> Searcher<M> {
    /// A searcher with a transposition table of about `tt_bytes` bytes, zeroed here: for
    /// many searches, keep one searcher (and [`Searcher::clear`] it between unrelated
    /// positions) rather than building one a search.
    pub fn new(tt_bytes: usize) -> Self {
        Searcher {
            options: SearchOptions::default(),
            limits: Limits::default(),
            tt: TranspositionTable::with_bytes(tt_bytes),
            moves: MoveStack::default(),
            pv: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            killers: vec![[None, None]; MAX_PLY + 1],
            history: Vec::new(),
            nodes: 0,
            aborted: false,
        }
    }

    pub fn with_options(mut self, options: SearchOptions) -> Self {
        self.options = options;
        self
    }

    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Bytes held by the transposition table.
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Forgets everything learned by earlier searches.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
    }

    /// Searches `game` within `limits`, calling `on_report` after every completed iteration.
    /// The game is left as it was given. A search stopped before its first iteration ends
    /// still names a move (the first candidate), with depth 0: its score then means nothing.
    ///
    /// This method hides [`Strategy::search`], the one-argument search every strategy has
    /// (`searcher.search(&mut game)` does not compile): call that one as
    /// `Strategy::search(&mut searcher, &mut game)`, and give it limits first with
    /// [`Searcher::with_limits`], since it uses [`Searcher::limits`], which are none by
    /// default (a search of a large game would then not end).
    pub fn search<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        limits: &Limits,
        mut on_report: impl FnMut(&Report<M>),
    ) -> SearchResult<M> {
        let budget = Budget::start(limits);
        self.tt.new_search();
        self.nodes = 0;
        self.aborted = false;
        self.killers.iter_mut().for_each(|k| *k = [None, None]);
        let bound = game.move_index_bound();
        if self.history.len() != bound {
            self.history = vec![0; bound];
        }
        self.history.iter_mut().for_each(|h| *h /= 2);

        let mut result = SearchResult {
            best_move: None,
            score: Score::DRAW,
            nodes: 0,
            depth: 0,
            pv: Vec::new(),
            elapsed: Duration::ZERO,
        };
        if let Some(outcome) = game.outcome() {
            result.score = terminal_score(outcome, game.side_to_move(), 0);
            result.nodes = 1;
            result.elapsed = budget.elapsed();
            return result;
        }
        let max_depth = budget
            .max_depth()
            .unwrap_or(LAST_PLY as u32)
            .clamp(1, LAST_PLY as u32);
        let solved_at = game.max_remaining_plies();
        let first_depth = if self.options.iterative_deepening {
            1
        } else {
            max_depth.min(solved_at.unwrap_or(max_depth))
        };
        for depth in first_depth..=max_depth {
            let score = self.pvs(game, &budget, depth, 0, -Score::INFINITY, Score::INFINITY);
            if self.aborted {
                break;
            }
            result.score = score;
            result.depth = depth;
            result.pv.clear();
            result.pv.extend_from_slice(&self.pv[0]);
            result.best_move = result.pv.first().copied();
            on_report(&Report {
                depth,
                score,
                pv: &result.pv,
                nodes: self.nodes,
                elapsed: budget.elapsed(),
            });
            let proven = match score.forced() {
                Some(Forced::Win(plies) | Forced::Loss(plies)) => plies <= depth,
                None => false,
            };
            if proven
                || solved_at.is_some_and(|plies| depth >= plies)
                || !budget.worth_another_iteration()
            {
                break;
            }
        }
        if result.best_move.is_none() {
            // Stopped before the first iteration finished: any candidate beats no move.
            let mut moves = self.moves.take(0);
            game.candidate_moves(&mut moves);
            result.best_move = moves.first().copied();
            result.pv.extend(result.best_move);
            self.moves.give(0, moves);
        }
        result.nodes = self.nodes;
        result.elapsed = budget.elapsed();
        result
    }

    fn pvs<G: Game<Move = M>>(
        &mut self,
        game: &mut G,
        budget: &Budget,
        depth: u32,
        ply: u32,
        mut alpha: Score,
        mut beta: Score,
    ) -> Score {
        let ply_index = ply as usize;
        self.nodes += 1;
        self.pv[ply_index].clear();
        if budget.exhausted(self.nodes) {
            self.aborted = true;
            return Score::DRAW;
        }
        if let Some(outcome) = game.outcome() {
            return terminal_score(outcome, game.side_to_move(), ply);
        }
        if ply_index >= LAST_PLY {
            return static_score(game);
        }
        // No line from here can end sooner than the next ply, nor be better than winning there.
        alpha = alpha.max(Score::loss_in(ply + 1));
        beta = beta.min(Score::win_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if ply > 0 {
            if let Some(score) = game.probe(depth) {
                return score.to_root_relative(ply);
            }
            let (lower, upper) = game.bounds();
            let (lower, upper) = (lower.to_root_relative(ply), upper.to_root_relative(ply));
            if upper <= alpha {
                return upper;
            }
            if lower >= beta {
                return lower;
            }
        }
        if depth == 0 {
            return static_score(game);
        }

        let pv_node = beta > alpha.plus_one();
        let key = game.table_key();
        let mut tt_move = None;
        if self.options.tt {
            if let Some(entry) = self.tt.probe(key) {
                tt_move = entry.mv.map(|mv| game.table_move_back(mv));
                let score = entry.score.to_root_relative(ply);
                if entry.bound.settles(score, alpha, beta) && entry.depth >= depth && !pv_node {
                    return score;
                }
            }
        }

        let mut moves = self.moves.take(ply_index);
        game.candidate_moves(&mut moves);
        let pruned = game.candidates_pruned();
        if moves.is_empty() {
            self.moves.give(ply_index, moves);
            return static_score(game);
        }
        self.order(game, &mut moves, tt_move, ply_index);

        let original_alpha = alpha;
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv);
            let score = if i == 0 || !self.options.pvs {
                -self.pvs(game, budget, depth - 1, ply + 1, -beta, -alpha)
            } else {
                let probe = -self.pvs(game, budget, depth - 1, ply + 1, -alpha.plus_one(), -alpha);
                if probe > alpha && probe < beta && !self.aborted {
                    -self.pvs(game, budget, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    probe
                }
            };
            game.undo(mv);
            if self.aborted {
                self.moves.give(ply_index, moves);
                return Score::DRAW;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    extend_line(&mut self.pv, ply_index, mv);
                    if alpha >= beta {
                        self.reward_cutoff(game, mv, depth, ply_index);
                        break;
                    }
                }
            }
        }
        self.moves.give(ply_index, moves);
        if pruned && matches!(best.forced(), Some(Forced::Loss(_))) {
            // Every searched move loses, but a move left out might not: not a proven loss.
            best = -Score::MAX_HEURISTIC;
        }

        if self.options.tt {
            let bound = Bound::of(best, original_alpha, beta);
            let table_move = best_move.map(|mv| game.table_move(mv));
            self.tt
                .store(key, table_move, best.to_node_relative(ply), depth, bound);
        }
        best
    }

    /// History order (unless the game orders its own candidates), then the killers, then the
    /// table move in front. The table move is only a hint: it is used if it is a candidate.
    fn order<G: Game<Move = M>>(&self, game: &G, moves: &mut [M], tt_move: Option<M>, ply: usize) {
        if self.options.history && !G::ORDERED_CANDIDATES {
            let history = &self.history;
            insertion_sort_by_key(moves, |&mv| {
                std::cmp::Reverse(history[history_index(game, mv, history.len())])
            });
        }
        if self.options.killers {
            for killer in self.killers[ply].iter().rev().flatten() {
                lift_to_front(moves, *killer);
            }
        }
        if let Some(mv) = tt_move {
            lift_to_front(moves, mv);
        }
    }

    fn reward_cutoff<G: Game<Move = M>>(&mut self, game: &G, mv: M, depth: u32, ply: usize) {
        if self.options.killers && self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        if self.options.history {
            let index = history_index(game, mv, self.history.len());
            let slot = &mut self.history[index];
            *slot = slot.saturating_add(depth * depth);
        }
    }
}

/// `mv`'s place in a history table of `len` entries ([`Game::move_index`]); a place past
/// the table is the game's mistake, and the panic names the hook.
fn history_index<G: Game>(game: &G, mv: G::Move, len: usize) -> usize {
    let index = game.move_index(mv);
    assert!(
        index < len,
        "Game::move_index gave {index}, not below Game::move_index_bound ({len})"
    );
    index
}

/// A stable sort that never allocates (the standard stable sort may); games that leave ordering
/// to history have short candidate lists.
fn insertion_sort_by_key<M: Copy, K: Ord>(moves: &mut [M], key: impl Fn(&M) -> K) {
    for i in 1..moves.len() {
        let mut j = i;
        while j > 0 && key(&moves[j - 1]) > key(&moves[j]) {
            moves.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Moves `mv` to the front, keeping the order of the others; absent moves are ignored.
fn lift_to_front<M: Copy + Eq>(moves: &mut [M], mv: M) {
    if let Some(i) = moves.iter().position(|&m| m == mv) {
        moves[..=i].rotate_right(1);
    }
}

impl<G: Game> Strategy<G> for Searcher<G::Move> {
    fn name(&self) -> &'static str {
        "search"
    }

    fn search(&mut self, game: &mut G) -> SearchResult<G::Move> {
        self.clear();
        let limits = self.limits.clone();
        Searcher::search(self, game, &limits, |_| {})
    }
}

#[cfg(test)]
mod tests {
    use super::{insertion_sort_by_key, lift_to_front};

    #[test]
    fn insertion_sort_is_stable() {
        let mut moves = [(1, 'a'), (0, 'b'), (1, 'c'), (0, 'd')];
        insertion_sort_by_key(&mut moves, |m| m.0);
        assert_eq!(moves, [(0, 'b'), (0, 'd'), (1, 'a'), (1, 'c')]);
    }

    #[test]
    fn lifting_keeps_the_rest_in_order() {
        let mut moves = [1, 2, 3, 4];
        lift_to_front(&mut moves, 3);
        assert_eq!(moves, [3, 1, 2, 4]);
        lift_to_front(&mut moves, 9);
        assert_eq!(moves, [3, 1, 2, 4]);
    }
}
