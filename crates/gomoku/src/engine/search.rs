//! The Gomoku engine's own alpha-beta: the generic core's PVS, table and scores, made
//! selective the way strong Gomoku engines are.
//!
//! What it adds to the core's searcher, all driven by the board's incremental shapes:
//! - quick proofs at every node (a five to make, two fives to block, an open four that cannot
//!   be answered, and, once the candidates are generated, an open three of the opponent's
//!   that no move stops);
//! - the forced reply to a five is searched one ply deeper (it is not a real choice);
//! - reverse futility pruning (returning halfway between the evaluation and beta), razoring
//!   (a node far below alpha only looks at its fours) and move-count pruning of quiet moves
//!   near the leaves (half as many at a node whose static evaluation is not improving on the
//!   one two plies up; in the last two plies open threes and blocks of closed threes count as
//!   quiet too, fours never);
//! - singular extensions: the table's move is searched a ply deeper when no other move comes
//!   near it, the node is cut when another move also beats beta (multicut), and the table's
//!   move is searched a ply shallower when it alone beats beta;
//! - in a PV node, the moves after one that raised alpha a ply shallower;
//! - late-move reductions of quiet moves (never of a move that makes a four or an open three
//!   or blocks one, and never while the opponent threatens);
//! - aspiration windows, and a partial last iteration whose better root move is kept.
//!
//! Pruned and reduced moves never turn into proofs: a node that left a move out reports a
//! loss among the moves it searched as a heuristic score, as the core does.

use super::params::SearchParams;
use crate::board::Board;
use crate::eval::{evaluate_with, EvalKind};
use crate::movegen::{five_points, MoveGen};
use crate::notation::Point;
use crate::pattern::Shape;
use crate::rules::Rule;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wuzi_search::{terminal_score, Bound, Forced, Player, Score, SharedTable, MAX_PLY};

/// The deepest iteration the search starts.
const MAX_DEPTH: u32 = 100;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// The static evaluation of a node where none was taken (the opponent threatens).
const NO_EVAL: i32 = i32::MIN;

/// When the search must stop, and when it may stop early.
#[derive(Clone, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    /// Exact: node-limited searches are deterministic.
    pub nodes: Option<u64>,
    /// The hard deadline: the search returns by then, whatever it is doing.
    pub deadline: Option<Instant>,
    /// After this much time no new iteration starts if the best move is settled (see
    /// [`SearchParams::soft_time_share`]).
    pub soft: Option<Duration>,
    pub stop: Option<Arc<AtomicBool>>,
}

/// What one completed iteration found.
#[derive(Clone, Debug)]
pub struct Iteration<'a> {
    pub depth: u32,
    pub score: Score,
    pub pv: &'a [Point],
    pub nodes: u64,
}

/// The outcome of a search.
#[derive(Clone, Debug, Default)]
pub struct Found {
    pub best_move: Option<Point>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
    pub pv: Vec<Point>,
}

/// One search thread's state between moves: the move buffers and counters, and the table
/// it shares with the other threads.
pub struct Search {
    tt: Arc<SharedTable>,
    movegen: MoveGen,
    /// One candidate buffer and one principal variation per ply, reused (no allocation per
    /// node).
    moves: Vec<Vec<Point>>,
    pv: Vec<Vec<Point>>,
    fives: Vec<Point>,
    lmr: [[u8; 64]; 64],
    /// Quiet moves searched at each remaining depth under move-count pruning.
    quiet_limits: [usize; 64],
    /// The static evaluation of the node at each ply of the current line ([`NO_EVAL`] where
    /// none was taken), to tell whether a node is improving on the one two plies before.
    evals: Vec<i32>,
    /// The move a singular-extension search at each ply leaves out (the table's move).
    skipped: Vec<Option<Point>>,
    params: SearchParams,
    eval: EvalKind,
    nodes: u64,
    limits: SearchLimits,
    aborted: bool,
    excluded: Vec<Point>,
    start: Instant,
    /// The root move whose search completed first in the current iteration.
    root_first: Option<Point>,
    /// The candidates kept at the root and at the nodes below it (0: all; see
    /// [`SearchParams::root_width`]).
    widths: [usize; 2],
}

impl Search {
    pub fn new(
        tt: Arc<SharedTable>,
        max_candidates: usize,
        params: SearchParams,
        eval: EvalKind,
        order: EvalKind,
    ) -> Search {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                let log = (d as f64).ln() * (i as f64).ln() * 10_000.0 / params.lmr_divisor as f64;
                *r = ((params.lmr_base as f64 + log) / 100.0).max(0.0) as u8;
            }
        }
        let mut quiet_limits = [0; 64];
        for (d, limit) in quiet_limits.iter_mut().enumerate() {
            let grown = (d as f64).powf(params.mcp_power as f64 / 100.0);
            *limit = params.mcp_base + grown as usize;
        }
        let root_width = match (max_candidates, params.root_width) {
            (0, _) | (_, 0) => max_candidates,
            (width, root) => width.max(root),
        };
        // The width is set by ply before each generation (`candidates`).
        let mut movegen = MoveGen::default();
        movegen.defend_double_threats = params.double_threat_defence != 0;
        movegen.order = order;
        movegen.history_divisor = params.history_divisor;
        Search {
            tt,
            movegen,
            moves: (0..MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            fives: Vec::with_capacity(8),
            lmr,
            quiet_limits,
            evals: vec![NO_EVAL; MAX_PLY],
            skipped: vec![None; MAX_PLY],
            params,
            eval,
            nodes: 0,
            limits: SearchLimits::default(),
            aborted: false,
            excluded: Vec::new(),
            start: Instant::now(),
            root_first: None,
            widths: [root_width, max_candidates],
        }
    }

    /// Positions this thread visited in its last search.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Iterative deepening on `board` (left as it was) from `first_depth` on, never choosing
    /// a move of `excluded`; `on_iteration` sees every completed depth. Helper threads start
    /// at different depths so that they fill the shared table with different work.
    pub fn run(
        &mut self,
        board: &mut Board,
        limits: SearchLimits,
        excluded: &[Point],
        first_depth: u32,
        mut on_iteration: impl FnMut(&Iteration),
    ) -> Found {
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.aborted = false;
        self.excluded.clear();
        self.excluded.extend_from_slice(excluded);
        // Each search learns its own history, so a search of a position is repeatable.
        self.movegen.clear_history();
        let mut found = Found::default();
        if let Some(outcome) = board.outcome() {
            found.score = terminal_score(outcome, board.side_to_move(), 0);
            found.nodes = 1;
            return found;
        }
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut stable = 0;
        for depth in first_depth.clamp(1, max_depth)..=max_depth {
            let previous = found.score;
            let (mut alpha, mut beta) = (-Score::INFINITY, Score::INFINITY);
            let mut delta = self.params.aspiration_delta;
            if depth >= self.params.aspiration_depth && !previous.is_decided() {
                alpha = Score::heuristic(previous.value() - delta);
                beta = Score::heuristic(previous.value() + delta);
            }
            self.root_first = None;
            let score = loop {
                let score = self.node(board, depth as i32, 0, alpha, beta, false);
                if self.aborted {
                    break score;
                }
                if score <= alpha && alpha > -Score::INFINITY {
                    delta = delta.saturating_mul(2);
                    beta = Score::heuristic((alpha.value() + beta.value()) / 2);
                    alpha = widen(score, -delta);
                } else if score >= beta && beta < Score::INFINITY {
                    delta = delta.saturating_mul(2);
                    beta = widen(score, delta);
                } else {
                    break score;
                }
            };
            if self.aborted {
                // A root move that beat the previous best (searched first, as the table's
                // move) in the unfinished iteration is better informed: keep it.
                if let Some(&mv) = self.pv[0].first() {
                    if found.best_move != Some(mv) && self.root_first == found.best_move {
                        found.best_move = Some(mv);
                        found.pv.clone_from(&self.pv[0]);
                    }
                }
                break;
            }
            let best = self.pv[0].first().copied();
            stable = if best == found.best_move {
                stable + 1
            } else {
                0
            };
            found.score = score;
            found.depth = depth;
            found.best_move = best;
            found.pv.clone_from(&self.pv[0]);
            on_iteration(&Iteration {
                depth,
                score,
                pv: &found.pv,
                nodes: self.nodes,
            });
            let proven = match score.forced() {
                Some(Forced::Win(plies) | Forced::Loss(plies)) => plies <= depth,
                None => false,
            };
            if proven || found.best_move.is_none() || self.settled(stable) {
                break;
            }
        }
        if found.best_move.is_none() {
            // Stopped before the first iteration finished: the first candidate is a move.
            let mut moves = std::mem::take(&mut self.moves[0]);
            moves.clear();
            self.candidates(board, 0, &mut moves);
            found.best_move = moves.first().copied();
            found.pv = found.best_move.into_iter().collect();
            self.moves[0] = moves;
        }
        found.nodes = self.nodes;
        found
    }

    /// Whether the iterations may end before the hard deadline: past the soft time with a
    /// best move that has not changed for a few iterations.
    fn settled(&self, stable: u32) -> bool {
        if self
            .limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return true;
        }
        match self.limits.soft {
            Some(soft) => stable >= self.params.stable_iterations && self.start.elapsed() >= soft,
            None => false,
        }
    }

    /// Counts a visit to a node `ply` plies deep and clears its line; false (and the search
    /// marked as aborted) when the budget is spent.
    fn enter(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.out_of_budget() {
            self.aborted = true;
            return false;
        }
        true
    }

    fn out_of_budget(&mut self) -> bool {
        if self.limits.nodes.is_some_and(|n| self.nodes > n) {
            return true;
        }
        if self.nodes % CHECK_EVERY != 0 {
            return false;
        }
        self.limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn candidates(&mut self, board: &mut Board, ply: usize, out: &mut Vec<Point>) {
        self.movegen.max_candidates = self.widths[usize::from(ply > 0)];
        self.movegen.candidates(board, out);
        if ply == 0 && !self.excluded.is_empty() {
            out.retain(|p| !self.excluded.contains(p));
        }
    }

    /// The candidates of a node whose first move, the table's, was searched before they were
    /// generated: it stays first, and is not searched again.
    fn generate_after_first(&mut self, board: &mut Board, ply: usize, moves: &mut Vec<Point>) {
        let first = moves[0];
        moves.clear();
        self.candidates(board, ply, moves);
        match moves.iter().position(|&m| m == first) {
            Some(i) => moves[..=i].rotate_right(1),
            // Only a hash collision brings a table move that is not a candidate.
            None => moves.insert(0, first),
        }
    }

    /// Principal-variation search of `board` to `depth` plies (fewer for reduced moves, more
    /// for forced replies), from the side to move's view, `ply` plies below the root.
    fn node(
        &mut self,
        board: &mut Board,
        mut depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        cut_node: bool,
    ) -> Score {
        let pv_node = beta > alpha.plus_one();
        if !self.enter(ply) {
            return Score::DRAW;
        }
        let me = board.side_to_move();
        if let Some(outcome) = board.outcome() {
            return terminal_score(outcome, me, ply as u32);
        }
        if ply >= MAX_PLY - 1 {
            return Score::heuristic(evaluate_with(board, self.eval));
        }
        let plies = ply as u32;
        // No line from here ends sooner than the next ply, nor is better than winning there.
        alpha = alpha.max(Score::loss_in(plies + 1));
        beta = beta.min(Score::win_in(plies + 1));
        if alpha >= beta {
            return alpha;
        }
        let them = me.opponent();
        let (mine, theirs) = (board.threats(me), board.threats(them));
        if mine.five > 0 {
            return Score::win_in(plies + 1);
        }
        if theirs.five >= 2 {
            self.fives.clear();
            five_points(board, them, &mut self.fives, 2);
            if self.fives.len() >= 2 {
                return Score::loss_in(plies + 2);
            }
        }
        if theirs.five == 0
            && theirs.four == 0
            && mine.open_four > 0
            && !(board.rule() == Rule::Renju && me == Player::First)
        {
            // An open four the opponent can neither block twice nor answer with a four.
            return Score::win_in(plies + 3);
        }
        let must_block = theirs.five > 0;
        if depth <= 0 {
            if self.params.quiescence_plies > 0 {
                return self.quiesce(board, ply, alpha, beta, 0);
            }
            if !must_block || self.params.block_extension == 0 {
                return Score::heuristic(evaluate_with(board, self.eval));
            }
            depth = 0;
        }
        let threatened = must_block || theirs.open_four > 0;

        let key = board.hash();
        let skipped = self.skipped[ply];
        let mut tt_move = None;
        let mut tt_hit = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.mv.and_then(|code| Point::from_index(code as usize));
            let score = entry.score.to_root_relative(plies);
            let settles = entry.bound.settles(score, alpha, beta);
            if settles && !pv_node && ply > 0 && entry.depth as i32 >= depth && skipped.is_none() {
                return score;
            }
            tt_hit = Some((score, entry.bound, entry.depth as i32));
        }

        let p = self.params;
        if p.iir_depth > 0 && ply > 0 && depth >= p.iir_depth && tt_move.is_none() {
            depth -= 1;
        }
        let static_eval = if threatened {
            NO_EVAL
        } else {
            evaluate_with(board, self.eval)
        };
        self.evals[ply] = static_eval;
        let improving = static_eval != NO_EVAL
            && ply >= 2
            && (self.evals[ply - 2] == NO_EVAL || static_eval > self.evals[ply - 2]);
        let rfp_depth = depth - i32::from(improving && p.rfp_improving != 0);
        if !pv_node
            && !threatened
            && ply > 0
            && skipped.is_none()
            && depth <= p.rfp_max_depth
            && !beta.is_decided()
            && static_eval - p.rfp_margin * rfp_depth >= beta.value()
        {
            if p.rfp_halfway != 0 {
                return Score::heuristic((static_eval + beta.value()) / 2);
            }
            return Score::heuristic(static_eval);
        }
        if !pv_node
            && !threatened
            && ply > 0
            && skipped.is_none()
            && depth <= p.razor_max_depth
            && !alpha.is_decided()
            && static_eval + p.razor_margin * depth < alpha.value()
        {
            let score = if p.quiescence_plies > 0 {
                self.quiesce(board, ply, alpha, alpha.plus_one(), 0)
            } else {
                Score::heuristic(static_eval)
            };
            if self.aborted {
                return Score::DRAW;
            }
            if score <= alpha {
                return score;
            }
        }

        // Singular extension, multicut and negative extension of the table's move.
        let mut tt_extension = 0;
        if let (Some(mv), Some((tt_score, bound, tt_depth))) = (tt_move, tt_hit) {
            if p.se_min_depth > 0
                && ply > 0
                && skipped.is_none()
                && !threatened
                && depth >= p.se_min_depth
                && matches!(bound, Bound::Lower | Bound::Exact)
                && tt_depth >= depth - 3
                && !tt_score.is_decided()
            {
                let singular_beta = Score::heuristic(tt_score.value() - p.se_margin * depth);
                self.skipped[ply] = Some(mv);
                let score = self.node(
                    board,
                    (depth - 1) / 2,
                    ply,
                    singular_beta.minus_one(),
                    singular_beta,
                    cut_node,
                );
                self.skipped[ply] = None;
                if self.aborted {
                    return Score::DRAW;
                }
                if score < singular_beta {
                    tt_extension = 1;
                } else if singular_beta >= beta {
                    return singular_beta;
                } else if tt_score >= beta {
                    tt_extension = -1;
                }
            }
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        // The table's move is searched before the others are generated: when it cuts, as it
        // mostly does, generating and ordering the rest is saved. It is nearly always one of
        // the candidates; when the width limit cut it off on this path (the ordering reads the
        // last moves, so a transposition can order differently) it is searched all the same.
        let mut generated = false;
        let mut left_out = skipped.is_some();
        // Whether the candidates are the answers to an opponent's four-three to come: then
        // the blocks are never pruned.
        let mut defending = false;
        match tt_move {
            Some(mv) if ply > 0 && skipped.is_none() && board.is_legal(mv) => moves.push(mv),
            _ => {
                self.candidates(board, ply, &mut moves);
                if self.movegen.lost_to_open_three && ply > 0 && p.lost_to_three != 0 {
                    // Nothing holds against the opponent's open three: no move needs a look
                    // (each would lose to an open four, a block and a five).
                    self.moves[ply] = moves;
                    let lost = Score::loss_in(plies + 4);
                    self.tt.store(
                        key,
                        None,
                        lost.to_node_relative(plies),
                        depth.max(0) as u32,
                        Bound::Exact,
                    );
                    return lost;
                }
                generated = true;
                left_out |= self.movegen.truncated;
                defending = self.movegen.defending_double_threat;
                if let Some(mv) = skipped {
                    moves.retain(|&m| m != mv);
                }
                if moves.is_empty() {
                    self.moves[ply] = moves;
                    if skipped.is_some() {
                        // The table's move was the only one: nothing else comes near it.
                        return -Score::MAX_HEURISTIC;
                    }
                    return Score::heuristic(evaluate_with(board, self.eval));
                }
                if let Some(mv) = tt_move {
                    if let Some(i) = moves.iter().position(|&m| m == mv) {
                        moves[..=i].rotate_right(1);
                    }
                }
            }
        }

        let original_alpha = alpha;
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        let new_depth = if must_block {
            depth - 1 + p.block_extension
        } else {
            depth - 1
        };
        let prune_quiet = !pv_node && !threatened && ply > 0 && depth <= p.mcp_max_depth;
        let mut quiet_limit = self.quiet_limits[depth.clamp(0, 63) as usize];
        if p.mcp_improving != 0 && !improving {
            quiet_limit /= 2;
        }
        // Plies taken off the moves after one raised alpha in a PV node.
        let mut raised = 0;
        for i in 0.. {
            if i == 1 && !generated {
                self.generate_after_first(board, ply, &mut moves);
                generated = true;
                left_out |= self.movegen.truncated;
                defending = self.movegen.defending_double_threat;
            }
            let Some(&mv) = moves.get(i) else {
                break;
            };
            let important = important(board, mv, me, them, p.stop_shape);
            if prune_quiet
                && i >= quiet_limit
                && !best_is_lost(best)
                && (!important
                    || (depth <= p.mcp_important_depth
                        && !defending
                        && !makes_four_or_five(board, mv, me)))
            {
                left_out = true;
                continue;
            }
            let new_depth = new_depth - raised;
            self.tt.prefetch(board.hash_after(mv));
            board.play(mv);
            let score = if i == 0 {
                let extension = if Some(mv) == tt_move { tt_extension } else { 0 };
                -self.node(
                    board,
                    new_depth + extension,
                    ply + 1,
                    -beta,
                    -alpha,
                    !cut_node && !pv_node,
                )
            } else {
                let mut r = 0;
                let quiet = !important && !threatened;
                let softened = if threatened {
                    p.lmr_threatened != 0
                } else {
                    p.lmr_important != 0
                };
                if depth >= p.lmr_min_depth && i >= p.lmr_first_move && (quiet || softened) {
                    r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
                    r += p.lmr_cut * i32::from(cut_node) - i32::from(pv_node);
                    r -= i32::from(!quiet);
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let null = -alpha.plus_one();
                let mut s = -self.node(board, new_depth - r, ply + 1, null, -alpha, true);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.node(board, new_depth, ply + 1, null, -alpha, !cut_node);
                }
                if s > alpha && s < beta && pv_node && !self.aborted {
                    s = -self.node(board, new_depth, ply + 1, -beta, -alpha, false);
                }
                s
            };
            board.undo();
            if ply == 0 && i == 0 && !self.aborted {
                self.root_first = Some(mv);
            }
            if self.aborted {
                self.moves[ply] = moves;
                return if ply == 0 { best } else { Score::DRAW };
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if alpha >= beta {
                        if p.history_divisor > 0 && !threatened {
                            let bonus = p.history_bonus * depth * depth;
                            self.movegen.reward_cut(me, &moves[..i], mv, bonus);
                        }
                        break;
                    }
                    if pv_node && depth > 2 && depth < p.pv_raise_max_depth && !alpha.is_decided() {
                        raised = 1;
                    }
                }
            }
        }
        if !generated && matches!(best.forced(), Some(Forced::Loss(_))) {
            // The table's move cut with a loss: whether moves were left out decides the proof.
            self.generate_after_first(board, ply, &mut moves);
            left_out |= self.movegen.truncated;
        }
        self.moves[ply] = moves;
        if left_out && matches!(best.forced(), Some(Forced::Loss(_))) {
            // Every searched move loses, but a move left out might not: not a proof.
            best = -Score::MAX_HEURISTIC;
        }
        if skipped.is_some() {
            return best;
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.tt.store(
            key,
            best_move.or(tt_move).map(|p| p.index() as u16),
            best.to_node_relative(plies),
            depth.max(0) as u32,
            bound,
        );
        best
    }

    /// Past the leaves: the side to move may stand on the static evaluation or continue its
    /// attack with a four near its last stone; a five to block is blocked. Resolves the
    /// fours that a static evaluation cannot see.
    fn quiesce(
        &mut self,
        board: &mut Board,
        ply: usize,
        mut alpha: Score,
        beta: Score,
        qply: u32,
    ) -> Score {
        if qply > 0 && !self.enter(ply) {
            return Score::DRAW;
        }
        let me = board.side_to_move();
        if let Some(outcome) = board.outcome() {
            return terminal_score(outcome, me, ply as u32);
        }
        let plies = ply as u32;
        let them = me.opponent();
        let (mine, theirs) = (board.threats(me), board.threats(them));
        if mine.five > 0 {
            return Score::win_in(plies + 1);
        }
        if ply >= MAX_PLY - 2 {
            return Score::heuristic(evaluate_with(board, self.eval));
        }
        if theirs.five > 0 {
            self.fives.clear();
            five_points(board, them, &mut self.fives, 2);
            if self.fives.len() >= 2 || !board.is_legal(self.fives[0]) {
                return Score::loss_in(plies + 2);
            }
            let block = self.fives[0];
            board.play(block);
            let score = -self.quiesce(board, ply + 1, -beta, -alpha, qply + 1);
            board.undo();
            return score;
        }
        let stand = Score::heuristic(evaluate_with(board, self.eval));
        if stand >= beta || mine.four == 0 || qply >= self.params.quiescence_plies {
            return stand;
        }
        alpha = alpha.max(stand);
        let Some(&last) = board.moves().iter().rev().nth(1) else {
            return stand;
        };
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        fours_near(board, me, last, &mut moves);
        let mut best = stand;
        for &mv in &moves {
            board.play(mv);
            let score = -self.quiesce(board, ply + 1, -beta, -alpha, qply + 1);
            board.undo();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.moves[ply] = moves;
        best
    }

    fn update_pv(&mut self, ply: usize, mv: Point) {
        let (line, rest) = self.pv.split_at_mut(ply + 1);
        let line = &mut line[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&rest[0]);
    }
}

/// A move that is never reduced, nor pruned above [`SearchParams::mcp_important_depth`]: it
/// makes a four or an open three, or it stops one (the opponent's shape on its point is at
/// least `stop_shape`).
fn important(board: &Board, mv: Point, me: Player, them: Player, stop_shape: u8) -> bool {
    board.sorted_shapes(mv, me)[3] >= Shape::OpenThree
        || board.sorted_shapes(mv, them)[3] as u8 >= stop_shape
}

/// Whether `me` makes a four (or five) by playing `mv`.
fn makes_four_or_five(board: &Board, mv: Point, me: Player) -> bool {
    // Fours and the five are the strongest shapes.
    board.sorted_shapes(mv, me)[3] >= Shape::Four
}

/// The legal points within four of `from` along its lines where `me` makes a four.
fn fours_near(board: &mut Board, me: Player, from: Point, out: &mut Vec<Point>) {
    board.for_each_shape_near(from, me, |p, shape| {
        if shape.is_four() && !out.contains(&p) {
            out.push(p);
        }
    });
    board.retain_legal(out);
}

/// Whether the best score so far is a proven loss (or nothing): then every move must be
/// looked at.
fn best_is_lost(best: Score) -> bool {
    best == -Score::INFINITY || matches!(best.forced(), Some(Forced::Loss(_)))
}

/// An aspiration bound past `score` by `delta`: the open window's end when `score` is
/// decided or the bound would reach the end of the heuristic range. A bound clamped to
/// that end would not move when the score sits there (a node that knows it is nearly lost
/// returns the range's end), and the re-searches would fail the same way until the time
/// ran out.
fn widen(score: Score, delta: i32) -> Score {
    let bound = score.value().saturating_add(delta);
    if score.is_decided() || bound.abs() >= Score::MAX_HEURISTIC.value() {
        if delta < 0 {
            -Score::INFINITY
        } else {
            Score::INFINITY
        }
    } else {
        Score::heuristic(bound)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search(moves: &str, rule: Rule, limits: SearchLimits, excluded: &[&str]) -> Found {
        let mut board = Board::from_moves(15, rule, moves).unwrap();
        let excluded: Vec<Point> = excluded
            .iter()
            .map(|m| crate::notation::parse_point(m, 15).unwrap())
            .collect();
        let before = board.hash();
        let tt = Arc::new(SharedTable::with_bytes(1 << 20));
        let found = Search::new(
            tt,
            16,
            SearchParams::default(),
            EvalKind::Classic,
            EvalKind::Classic,
        )
        .run(&mut board, limits, &excluded, 1, |_| {});
        assert_eq!(board.hash(), before, "the board is left as it was");
        found
    }

    fn depth(d: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(d),
            ..SearchLimits::default()
        }
    }

    #[test]
    fn an_open_three_with_nothing_against_it_wins_in_three() {
        // Black to move with h8 i8 j8 open; White's stones make nothing.
        let found = search("h8 a1 i8 a3 j8 a5", Rule::Freestyle, depth(2), &[]);
        assert_eq!(found.score, Score::win_in(3));
        let mv = found.best_move.unwrap().to_human(15);
        assert!(["g8", "k8", "f8", "l8"].contains(&mv.as_str()), "{mv}");
    }

    #[test]
    fn deep_searches_with_singular_extensions_keep_proofs_and_repeat() {
        // Depth 10 reaches the singular-extension depth (8) below the root.
        let moves = "h8 i9 j8 k8 i7 k9 j6 k5";
        let a = search(moves, Rule::Freestyle, depth(10), &[]);
        let b = search(moves, Rule::Freestyle, depth(10), &[]);
        assert_eq!(
            (a.best_move, a.score, a.nodes),
            (b.best_move, b.score, b.nodes)
        );
        let won = search("h8 a1 i8 a3 j8 a5", Rule::Freestyle, depth(10), &[]);
        assert_eq!(won.score, Score::win_in(3));
    }

    #[test]
    fn two_fives_to_block_is_a_loss_in_two() {
        // White to move; Black has g8..k8 minus nothing: an open four (two fives to block).
        let found = search("h8 a1 i8 a3 j8 a5 k8", Rule::Freestyle, depth(4), &[]);
        assert_eq!(found.score, Score::loss_in(2));
        assert!(found.best_move.is_some(), "a lost side still moves");
    }

    #[test]
    fn excluded_root_moves_are_never_chosen() {
        let moves = "h8 i9 h9 h10 i8 g8";
        let first = search(moves, Rule::Freestyle, depth(4), &[]);
        let best = first.best_move.unwrap().to_human(15);
        let second = search(moves, Rule::Freestyle, depth(4), &[best.as_str()]);
        assert_ne!(second.best_move.unwrap().to_human(15), best);
    }

    #[test]
    fn node_limited_searches_repeat_exactly() {
        let limits = || SearchLimits {
            nodes: Some(5_000),
            ..SearchLimits::default()
        };
        let moves = "h8 i9 j8 k8 i7 k9 j6 k5";
        let a = search(moves, Rule::Renju, limits(), &[]);
        let b = search(moves, Rule::Renju, limits(), &[]);
        assert_eq!(
            (a.best_move, a.score, a.nodes, a.pv),
            (b.best_move, b.score, b.nodes, b.pv)
        );
        assert!(a.nodes <= 5_001);
    }

    #[test]
    fn a_stop_before_the_first_iteration_still_gives_a_move() {
        let stop = Arc::new(AtomicBool::new(true));
        let found = search(
            "h8 i9",
            Rule::Standard,
            SearchLimits {
                stop: Some(stop),
                ..SearchLimits::default()
            },
            &[],
        );
        assert!(found.best_move.is_some());
    }
}
