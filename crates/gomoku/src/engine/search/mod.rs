//! The Gomoku engine's own alpha-beta: the generic core's PVS, table and scores, made
//! selective the way strong Gomoku engines are.
//!
//! What it adds to the core's searcher, all driven by the board's incremental shapes:
//! - quick proofs at every node (a five to make, two fives to block, an open four that cannot
//!   be answered, and, once the candidates are generated, an open three of the opponent's
//!   that no move stops);
//! - the forced reply to a five is searched one ply deeper (it is not a real choice);
//! - reverse futility pruning (returning halfway between the evaluation and beta), razoring
//!   (a node far below alpha returns if its fours alone cannot lift it to alpha) and
//!   move-count pruning of quiet moves
//!   near the leaves (half as many at a node whose static evaluation is not improving on the
//!   one two plies up; in the last two plies open threes and blocks of closed threes count as
//!   quiet too, fours never);
//! - singular extensions: the table's move is searched a ply deeper when no other move comes
//!   near it, the node is cut when another move also beats beta (multicut), and the table's
//!   move is searched a ply shallower when it alone beats beta;
//! - in a PV node, the moves after one that raised alpha a ply shallower;
//! - late-move reductions of quiet moves (never of a move that makes a four or an open three
//!   or blocks one, and never while the opponent threatens);
//! - aspiration windows, and a partial last iteration whose better root move is kept;
//! - for analysis, the N best moves at once (multi-PV, [`Search::run_lines`]): each depth
//!   searches the root once per line, without the moves of the lines above, and ranks them.
//!
//! Pruned and reduced moves never turn into proofs: a node that left a move out reports a
//! loss among the moves it searched as a heuristic score, as the core does.
//!
//! This file holds the thread's state and the iterative deepening; `node` is one node of the
//! alpha-beta, step by step, and `quiesce` the search past the leaves.

use super::params::SearchParams;
use crate::board::Board;
use crate::eval::EvalKind;
use crate::movegen::MoveGen;
use crate::notation::Point;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wuzi_search::{terminal_score, Forced, Score, SharedTable, MAX_PLY};

mod node;
mod quiesce;
#[cfg(test)]
mod tests;

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
    /// The time aimed for: past a share of it no new iteration starts, a smaller share if the
    /// best move is settled (see [`SearchParams::soft_time_share`] and
    /// [`SearchParams::unsettled_time_share`]).
    pub target: Option<Duration>,
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
    /// The depth that gave the move and score (the partial last one when its move is kept).
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
    /// By remaining depth, the place in the ordered moves (the table's move and the
    /// important ones counted) from which quiet moves are pruned.
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
    /// Whether the root is searched for several lines (see [`Search::run_lines`]).
    multi_line: bool,
    /// The root move a later line searches first (its move of the depth before).
    root_hint: Option<Point>,
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
            multi_line: false,
            root_hint: None,
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
        let mut lines = self.run_lines(board, limits, excluded, 1, first_depth, |_, iteration| {
            on_iteration(iteration)
        });
        lines.swap_remove(0)
    }

    /// As [`Search::run`], for the `lines` best moves ("multi-PV"): each depth searches the
    /// root once per line, each search without the moves of the lines before it, then ranks
    /// the lines by score, so every line is scored at the same depth. `on_iteration` sees each
    /// line of every completed depth with its rank. The lines come back best first: at least
    /// one (whose move is `None` when there is none), fewer than `lines` when the root's
    /// candidates run out or a stop comes during the first depth.
    pub fn run_lines(
        &mut self,
        board: &mut Board,
        limits: SearchLimits,
        excluded: &[Point],
        lines: usize,
        first_depth: u32,
        mut on_iteration: impl FnMut(usize, &Iteration),
    ) -> Vec<Found> {
        self.start = Instant::now();
        self.limits = limits;
        self.nodes = 0;
        self.aborted = false;
        self.excluded.clear();
        self.excluded.extend_from_slice(excluded);
        self.multi_line = lines > 1;
        self.root_hint = None;
        // Each search learns its own history, so a search of a position is repeatable.
        self.movegen.clear_history();
        if let Some(outcome) = board.outcome() {
            let found = Found {
                score: terminal_score(outcome, board.side_to_move(), 0),
                nodes: 1,
                ..Found::default()
            };
            return vec![found];
        }
        let lines = lines.max(1);
        // The lines of the last completed depth, best first.
        let mut found: Vec<Found> = Vec::with_capacity(lines);
        let mut this_depth: Vec<Found> = Vec::with_capacity(lines);
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut stable = 0;
        'deepening: for depth in first_depth.clamp(1, max_depth)..=max_depth {
            this_depth.clear();
            self.excluded.truncate(excluded.len());
            for line in 0..lines {
                let previous = found.get(line).map_or(Score::default(), |f| f.score);
                // Each line starts from its move of the depth before, unless a line above
                // has taken it.
                self.root_hint = found
                    .get(line)
                    .and_then(|f| f.best_move)
                    .filter(|mv| lines > 1 && !self.excluded.contains(mv));
                let score = self.aspirated(board, depth, previous);
                if self.aborted {
                    if lines == 1 {
                        self.keep_partial_best(found.first_mut(), score, depth);
                    } else if this_depth.len() > found.len() {
                        // Stopped in the first depth: its finished lines beat none.
                        sort_lines(&mut this_depth);
                        std::mem::swap(&mut found, &mut this_depth);
                    }
                    break 'deepening;
                }
                let best = self.pv[0].first().copied();
                if best.is_none() && line > 0 {
                    break; // the candidates ran out
                }
                this_depth.push(Found {
                    best_move: best,
                    score,
                    depth,
                    nodes: 0,
                    pv: self.pv[0].clone(),
                });
                match best {
                    Some(mv) => self.excluded.push(mv),
                    None => break,
                }
            }
            sort_lines(&mut this_depth);
            let best = this_depth[0].best_move;
            stable = match found.first() {
                Some(before) if before.best_move == best => stable + 1,
                _ => 0,
            };
            std::mem::swap(&mut found, &mut this_depth);
            // With no line and root moves excluded, the moves left may all be excluded: the
            // score is then of nothing, so it is not reported.
            if best.is_some() || excluded.is_empty() {
                for (rank, f) in found.iter().enumerate() {
                    on_iteration(
                        rank,
                        &Iteration {
                            depth,
                            score: f.score,
                            pv: &f.pv,
                            nodes: self.nodes,
                        },
                    );
                }
            }
            let proven = found.iter().all(|f| match f.score.forced() {
                Some(Forced::Win(plies) | Forced::Loss(plies)) => plies <= depth,
                None => false,
            });
            if proven || best.is_none() || self.settled(stable) {
                break;
            }
        }
        self.multi_line = false;
        self.root_hint = None;
        if found.is_empty() {
            found.push(Found::default());
        }
        if found[0].best_move.is_none() {
            // Stopped before the first iteration finished: the first candidate is a move.
            self.excluded.truncate(excluded.len());
            let mut moves = std::mem::take(&mut self.moves[0]);
            moves.clear();
            self.candidates(board, 0, &mut moves);
            found[0].best_move = moves.first().copied();
            found[0].pv = found[0].best_move.into_iter().collect();
            self.moves[0] = moves;
        }
        for f in &mut found {
            f.nodes = self.nodes;
        }
        found
    }

    /// One depth's search of the root, in an aspiration window around `previous` (the
    /// score of the depth before) that widens until the score falls inside it.
    fn aspirated(&mut self, board: &mut Board, depth: u32, previous: Score) -> Score {
        let (mut alpha, mut beta) = (-Score::INFINITY, Score::INFINITY);
        let mut delta = self.params.aspiration_delta;
        if depth >= self.params.aspiration_depth && !previous.is_decided() {
            alpha = Score::heuristic(previous.value() - delta);
            beta = Score::heuristic(previous.value() + delta);
        }
        self.root_first = None;
        loop {
            let score = self.node(board, depth as i32, 0, alpha, beta, false);
            if self.aborted {
                return score;
            }
            if score <= alpha && alpha > -Score::INFINITY {
                delta = delta.saturating_mul(2);
                beta = Score::heuristic((alpha.value() + beta.value()) / 2);
                alpha = widen(score, -delta);
            } else if score >= beta && beta < Score::INFINITY {
                delta = delta.saturating_mul(2);
                beta = widen(score, delta);
            } else {
                return score;
            }
        }
    }

    /// After a stop in the middle of a depth: a root move that beat the previous best
    /// (searched first, as the table's move) in the unfinished iteration is better informed,
    /// so `best` (the last completed depth's line) takes it, with the score (`partial`) and
    /// depth that move was searched to, not the other move's. A loss there is not proven
    /// (the root's other moves were not all searched at that depth) unless the completed
    /// depth proved the position lost.
    fn keep_partial_best(&self, best: Option<&mut Found>, partial: Score, depth: u32) {
        let (Some(best), Some(&mv)) = (best, self.pv[0].first()) else {
            return;
        };
        if best.best_move != Some(mv) && self.root_first == best.best_move {
            best.best_move = Some(mv);
            best.pv.clone_from(&self.pv[0]);
            let lost_before = matches!(best.score.forced(), Some(Forced::Loss(_)));
            best.score = match partial.forced() {
                // Unless the completed depth proved every move lost: then so is this one.
                Some(Forced::Loss(_)) if !lost_before => -Score::MAX_HEURISTIC,
                _ => partial,
            };
            best.depth = depth;
        }
    }

    /// Whether the iterations may end before the hard deadline: past a share of the time
    /// aimed for, a smaller one once the best move has not changed for a few iterations.
    fn settled(&self, stable: u32) -> bool {
        if self
            .limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
        {
            return true;
        }
        let Some(target) = self.limits.target else {
            return false;
        };
        let share = if stable >= self.params.stable_iterations {
            self.params.soft_time_share
        } else {
            self.params.unsettled_time_share
        };
        self.start.elapsed() >= target * share / 100
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
        if !self.nodes.is_multiple_of(CHECK_EVERY) {
            return false;
        }
        self.limits
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.limits.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Whether `ply` is a root searched move by move, for one line among several or with
    /// moves left out: then every five is a candidate, the excluded moves are not, and no
    /// quick proof stands for the node (it would not say which allowed move it holds for).
    fn restricted_root(&self, ply: usize) -> bool {
        ply == 0 && (self.multi_line || !self.excluded.is_empty())
    }

    fn candidates(&mut self, board: &mut Board, ply: usize, out: &mut Vec<Point>) {
        self.movegen.max_candidates = self.widths[usize::from(ply > 0)];
        let restricted_root = self.restricted_root(ply);
        self.movegen.every_five = restricted_root;
        self.movegen.candidates(board, out);
        if restricted_root {
            out.retain(|p| !self.excluded.contains(p));
            if let Some(i) = self
                .root_hint
                .and_then(|h| out.iter().position(|&p| p == h))
            {
                out[..=i].rotate_right(1);
            }
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
}

/// Ranks the lines of one depth best first; equal scores keep their search order.
fn sort_lines(lines: &mut [Found]) {
    lines.sort_by_key(|line| std::cmp::Reverse(line.score));
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
