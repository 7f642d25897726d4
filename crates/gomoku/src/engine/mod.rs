//! The Gomoku engine: one facade the front ends share (`new`, `set_board`, `play`, `go`),
//! wiring the board, the threat solver and the searches together.
//!
//! A move request runs in three layers, cheapest proof first:
//! 1. VCF for the side to move (a proven win by continuous fours is played at once);
//! 2. VCT (fours and threes), given a slice of the time;
//! 3. the main search: the selective Gomoku alpha-beta of [`search`] (or, switched to
//!    `search=generic`, the generic core's searcher over [`Gomoku`], the tutorials' plain
//!    "alpha-beta + threat search" layering).
//!
//! Proven results come back as `Score::win_in`/`loss_in`, never as a heuristic guess.
//! [`Engine::best_moves`] (in `lines`) gives the N best moves for analysis the same way.

mod lines;
mod options;
mod params;
mod search;
mod time;

pub use options::{EngineOptions, MAX_HASH_MIB, MAX_THREADS};
pub use params::SearchParams;
pub(crate) use time::within_longest;
pub use time::{move_budget, MoveTime, LONGEST_TIME};

use crate::board::Board;
use crate::eval::Weights;
use crate::game::Gomoku;
use crate::notation::Point;
use crate::threat::{ThreatKind, ThreatLimits, ThreatSolver};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wuzi_search::{Forced, Limits, Score, Searcher, SharedTable};

/// What the engine found for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// `None` only when the game is over or the side to move has no legal move (under renju,
    /// every empty point forbidden for Black: see [`Engine::has_legal_move`]). Otherwise always
    /// a legal move, even in a lost position.
    pub best_move: Option<Point>,
    /// From the side to move's point of view; decided scores are proven. When the root
    /// defence replaced the search's move (it walked into a VCF), the score is still the
    /// search's, for the move it replaced.
    pub score: Score,
    /// The depth of the main search that gave the move and score: the deepest completed one,
    /// or the unfinished one after it when that found a better move before the stop; or the
    /// plies of a proven threat line.
    pub depth: u32,
    /// Positions visited by every layer together: the root threat searches, the main search
    /// and the threat searches at its leaves.
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: Vec<Point>,
}

impl Analysis {
    /// A proven result for the side to move.
    pub fn forced(&self) -> Option<Forced> {
        self.score.forced()
    }

    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (self.nodes as u128 * 1_000_000 / micros) as u64
    }

    /// The progress report that says this analysis.
    pub fn info(&self) -> Info<'_> {
        Info {
            depth: self.depth,
            score: self.score,
            nodes: self.nodes,
            elapsed: self.elapsed,
            pv: &self.pv,
        }
    }
}

/// Progress while a search runs: one per completed depth (and one for a proven threat line).
#[derive(Clone, Debug)]
pub struct Info<'a> {
    pub depth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    pub pv: &'a [Point],
}

/// Shares of the move time given to the root threat searches.
const VCF_TIME_SHARE: u32 = 10; // percent
const VCT_TIME_SHARE: u32 = 25; // percent
/// Node caps for the root threat searches when no time limit applies (depth- or
/// node-limited searches must stay deterministic, so they never look at a clock).
const VCF_NODES: u64 = 200_000;
const VCT_NODES: u64 = 400_000;
/// The longest threat lines looked for at the root, in attacker moves.
const ROOT_VCF_ATTACKS: u32 = 30;
const ROOT_VCT_ATTACKS: u32 = 13;

/// The engine: a position, its tables, and the settings. Tables persist between moves of a
/// game; [`Engine::clear_tables`] forgets them.
pub struct Engine {
    game: Gomoku,
    searcher: Searcher<Point>,
    /// The selective search's shared table and one searcher per thread.
    table: Arc<SharedTable>,
    workers: Vec<search::Search>,
    threats: ThreatSolver,
    options: EngineOptions,
    /// The tables `options` asked for, made once (see [`EngineOptions::weights_for`]).
    weights: Option<Arc<Weights>>,
}

impl Engine {
    /// An engine whose tables are mapped into memory before it returns, so that no search
    /// pays for that (a tenth of a second for 128 MiB on a slow machine, more for more).
    pub fn new(board: Board, options: EngineOptions) -> Engine {
        Engine::build(board, options, true)
    }

    /// As [`Engine::new`], but made at once: a thread of its own maps the main table into
    /// memory meanwhile, and the searches use what is mapped (the whole table within a
    /// second, the first megabytes at once; see [`SharedTable::unmapped`]). For a front end that
    /// makes an engine on a move's clock: a Gomocup manager's `INFO max_memory` or `INFO
    /// rule` comes just before its `TURN`.
    pub fn new_mapping_in_background(board: Board, options: EngineOptions) -> Engine {
        let engine = Engine::build(board, options, false);
        let table = Arc::downgrade(&engine.table);
        std::thread::spawn(move || {
            // Chunk by chunk, so that an engine dropped meanwhile stops the work.
            while let Some(table) = table.upgrade() {
                if !table.map_next_chunk() {
                    break;
                }
            }
        });
        engine
    }

    fn build(mut board: Board, mut options: EngineOptions, map_now: bool) -> Engine {
        let weights = options.weights_for(board.rule());
        adopt_weights(&mut board, &weights);
        options.table_bytes = capped_table_bytes(options.table_bytes);
        let (main, root_threats, leaf_threats) = split_memory(options.table_bytes);
        // One of the two searchers has the main table's memory: the selective search's shared
        // table, or the generic core's own.
        let (shared_bytes, generic_bytes) = if options.selective {
            (main, 0)
        } else {
            (0, main)
        };
        let table = Arc::new(if map_now {
            SharedTable::with_bytes(shared_bytes)
        } else {
            SharedTable::unmapped(shared_bytes)
        });
        let mut game = Gomoku::new(board);
        game.set_max_candidates(options.max_candidates);
        game.set_eval(options.eval);
        if options.leaf_vcf {
            game.enable_leaf_vcf(leaf_threats);
        }
        Engine {
            game,
            searcher: Searcher::new(generic_bytes).with_options(options.search),
            table: table.clone(),
            workers: (0..options.threads.clamp(1, MAX_THREADS))
                .map(|_| {
                    search::Search::new(
                        table.clone(),
                        options.max_candidates,
                        options.params,
                        options.eval,
                        options.order,
                    )
                })
                .collect(),
            threats: if map_now {
                ThreatSolver::new(root_threats)
            } else {
                ThreatSolver::unmapped(root_threats)
            },
            options,
            weights,
        }
    }

    pub fn board(&self) -> &Board {
        &self.game.board
    }

    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Bytes held by all tables (never more than `table_bytes`).
    pub fn table_bytes(&self) -> usize {
        self.searcher.tt_bytes()
            + self.table.bytes()
            + self.threats.table_bytes()
            + self.game.leaf_table_bytes()
    }

    /// Replaces the position, keeping the tables (they are keyed by position, so they stay
    /// true for the same rule and size; another rule or size clears them; call
    /// [`Engine::clear_tables`] for a fresh start).
    pub fn set_board(&mut self, mut board: Board) {
        // The tables are keyed by the stones, not by the rule or the board's size: their
        // entries are another game's there.
        let current = &self.game.board;
        if current.rule() != board.rule() || current.size() != board.size() {
            self.clear_tables();
        }
        // A board of another rule: make that rule's tables (cheap when there is nothing to
        // make, and once per rule otherwise).
        if self.weights.as_ref().map(|w| w.rule) != Some(board.rule()) {
            self.weights = self.options.weights_for(board.rule());
        }
        adopt_weights(&mut board, &self.weights);
        self.game.board = board;
    }

    /// Plays a move for the side to move; an error (and no change) if the point is off the
    /// board or taken, or the game is over. Under renju a forbidden point is played and Black
    /// loses at once, as the rules have it: ask [`Board::is_legal`] first to refuse one.
    pub fn play(&mut self, p: Point) -> Result<(), String> {
        self.game.board.try_play(p)
    }

    /// Whether the side to move may play `p`: on the board, empty, the game not over, and
    /// under renju not forbidden to Black. The position is left as it was.
    pub fn is_legal(&mut self, p: Point) -> bool {
        self.game.board.is_legal(p)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Point> {
        self.game.board.undo()
    }

    /// A search with no clock first maps the rest of the table itself (see
    /// [`Engine::new_mapping_in_background`]): it has the time, and a depth- or node-limited
    /// search must not depend on how far another thread has got.
    fn table_for(&self, limits: &Limits) {
        if limits.time.is_none() && limits.target.is_none() {
            while self.table.map_next_chunk() {}
        }
    }

    /// Forgets what the tables learned: the next search starts as a new engine's would.
    pub fn clear_tables(&mut self) {
        self.searcher.clear();
        self.table.clear();
        self.threats.clear();
        self.game.clear_leaf_table();
    }

    /// Finds the best move for the side to move within `limits`, calling `on_info` as the
    /// search progresses. The position is left as it was: play the move with
    /// [`Engine::play`]. Give a limit: with none (`Limits::default()`) the search goes on to
    /// depth 100, which can take hours. To end a search early from another thread, pass
    /// `Limits::with_stop(stop_flag())` and set the flag; the engine is `Send`, so it can
    /// search on a thread of its own. Under a node limit the root's checks for a VCF the
    /// move would allow come on top of it (up to some tens of thousands of nodes), and the
    /// result repeats exactly only from the same tables ([`Engine::clear_tables`]).
    pub fn go(&mut self, limits: &Limits, on_info: impl FnMut(&Info)) -> Analysis {
        self.go_excluding(limits, &[], on_info)
    }

    /// As [`Engine::go`], never choosing a move of `excluded` (for the N best moves: search
    /// again without the best ones found so far). With exclusions the root threat searches are
    /// skipped, as they would only find the excluded wins again.
    pub fn go_excluding(
        &mut self,
        limits: &Limits,
        excluded: &[Point],
        mut on_info: impl FnMut(&Info),
    ) -> Analysis {
        let limits = &within_longest(limits);
        self.table_for(limits);
        let start = Instant::now();
        if self.game.board.no_legal_move() {
            return Analysis {
                best_move: None,
                score: Score::DRAW,
                depth: 0,
                nodes: 1,
                elapsed: start.elapsed(),
                pv: Vec::new(),
            };
        }
        self.game.exclude_root_moves(excluded);
        let mut analysis = self.go_inner(limits, excluded, &mut on_info);
        self.ensure_legal(&mut analysis, excluded);
        self.game.exclude_root_moves(&[]);
        analysis
    }

    /// Whether the side to move may play anywhere: false when the game is over, and under
    /// renju when every empty point is forbidden for Black.
    pub fn has_legal_move(&mut self) -> bool {
        self.game.board.has_legal_move()
    }

    /// The last guard of "the engine only proposes legal points": a search layer that proposes
    /// an illegal point (it never should) is overruled by the best legal candidate.
    fn ensure_legal(&mut self, analysis: &mut Analysis, excluded: &[Point]) {
        let board = &mut self.game.board;
        let Some(mv) = analysis.best_move else { return };
        if board.is_legal(mv) {
            return;
        }
        let mut moves = Vec::new();
        wuzi_search::Game::candidate_moves(&mut self.game, &mut moves);
        let board = &mut self.game.board;
        let points: Vec<Point> = board.points().collect();
        let legal = moves
            .into_iter()
            .chain(points)
            .find(|&p| !excluded.contains(&p) && board.is_legal(p));
        analysis.best_move = legal;
        analysis.pv = legal.into_iter().collect();
    }

    fn go_inner(
        &mut self,
        limits: &Limits,
        excluded: &[Point],
        on_info: &mut impl FnMut(&Info),
    ) -> Analysis {
        let excluding = !excluded.is_empty();
        let start = Instant::now();
        let board = &mut self.game.board;
        if board.result().is_some() {
            let outcome = board.outcome().expect("over");
            return Analysis {
                best_move: None,
                score: wuzi_search::terminal_score(outcome, board.side_to_move(), 0),
                depth: 0,
                nodes: 1,
                elapsed: start.elapsed(),
                pv: Vec::new(),
            };
        }
        let nodes_before = self.threats.nodes();
        if !excluding {
            if let Some(win) = self.root_threat_win(limits, start) {
                on_info(&win.info());
                return win;
            }
        }
        let threat_nodes = self.threats.nodes() - nodes_before;
        let leaf_before = self.game.leaf_nodes();
        let search_limits = Limits {
            depth: limits.depth,
            nodes: limits.nodes.map(|n| n.saturating_sub(threat_nodes).max(1)),
            // The root defence check gets what the search leaves, and a twentieth at least.
            time: limits.time.map(|t| self.search_share(t, start)),
            target: limits.target.map(|t| self.search_share(t, start)),
            stop: limits.stop.clone(),
        };
        let mut result = if self.options.selective {
            let search_start = Instant::now();
            let limits = search::SearchLimits {
                depth: search_limits.depth,
                nodes: search_limits.nodes,
                deadline: search_limits.time.map(|t| search_start + t),
                target: search_limits.aim(),
                stop: search_limits.stop.clone(),
            };
            let found = self
                .run_threads(limits, excluded, 1, threat_nodes, start, &mut |_, info| {
                    on_info(info)
                })
                .swap_remove(0);
            wuzi_search::SearchResult {
                best_move: found.best_move,
                score: found.score,
                nodes: found.nodes,
                depth: found.depth,
                pv: found.pv,
                elapsed: search_start.elapsed(),
            }
        } else {
            self.searcher
                .search(&mut self.game, &search_limits, |report| {
                    on_info(&Info {
                        depth: report.depth,
                        score: report.score,
                        nodes: threat_nodes + report.nodes,
                        elapsed: start.elapsed(),
                        pv: report.pv,
                    })
                })
        };
        let defence_before = self.threats.nodes();
        if self.options.root_defence && !excluding && result.score.forced().is_none() {
            let deadline = limits.time.map(|t| start + t);
            if let Some(safe) = self.defend_root(result.best_move, deadline, limits) {
                if Some(safe) != result.best_move {
                    result.best_move = Some(safe);
                    result.pv = vec![safe];
                }
            }
        }
        let defence_nodes = self.threats.nodes() - defence_before;
        Analysis {
            best_move: result.best_move,
            score: result.score,
            depth: result.depth,
            nodes: threat_nodes
                + defence_nodes
                + result.nodes
                + (self.game.leaf_nodes() - leaf_before),
            elapsed: start.elapsed(),
            pv: result.pv,
        }
    }
}

impl Engine {
    /// The root threat searches (VCF, then VCT, each with its share of the budget): a
    /// proven win for the side to move, if they find one.
    fn root_threat_win(&mut self, limits: &Limits, start: Instant) -> Option<Analysis> {
        let nodes_before = self.threats.nodes();
        let layers = [
            (
                self.options.root_vcf,
                ThreatKind::Vcf,
                VCF_TIME_SHARE,
                VCF_NODES,
                ROOT_VCF_ATTACKS,
            ),
            (
                self.options.root_vct,
                ThreatKind::Vct,
                VCT_TIME_SHARE,
                VCT_NODES,
                ROOT_VCT_ATTACKS,
            ),
        ];
        for (enabled, kind, share, node_cap, max_attacks) in layers {
            if !enabled {
                continue;
            }
            let spent = self.threats.nodes() - nodes_before;
            let threat_limits = ThreatLimits {
                max_attacks,
                nodes: Some(match limits.nodes {
                    Some(n) => (n / 10).min(node_cap).saturating_sub(spent).max(1),
                    None => node_cap,
                }),
                deadline: limits.aim().map(|t| start + t * share / 100),
                stop: limits.stop.clone(),
                quiet_vcf: self.options.root_vct_quiet,
            };
            if let Some(win) = self
                .threats
                .solve(&mut self.game.board, kind, &threat_limits)
            {
                return Some(Analysis {
                    best_move: Some(win.first()),
                    score: Score::win_in(win.plies),
                    depth: win.plies,
                    nodes: self.threats.nodes() - nodes_before,
                    elapsed: start.elapsed(),
                    pv: win.line.clone(),
                });
            }
        }
        None
    }

    /// What is left of `time` for the search after the root threat searches, less the root
    /// defence check's twentieth (it mostly needs a few milliseconds: in 83 unforced moves at
    /// 1 s it never used the tenth it had before).
    fn search_share(&self, time: Duration, start: Instant) -> Duration {
        let left = time.saturating_sub(start.elapsed());
        if self.options.root_defence {
            left * 19 / 20
        } else {
            left
        }
    }

    /// The selective search on every thread, for the `lines` best moves (see
    /// [`search::Search::run_lines`]): the first reports and decides, the others (Lazy SMP)
    /// search the same position for the best move from staggered depths and fill the shared
    /// table, until the first is done.
    fn run_threads(
        &mut self,
        limits: search::SearchLimits,
        excluded: &[Point],
        lines: usize,
        threat_nodes: u64,
        start: Instant,
        on_info: &mut impl FnMut(usize, &Info),
    ) -> Vec<search::Found> {
        self.table.new_search();
        let board = &mut self.game.board;
        let (main, helpers) = self.workers.split_at_mut(1);
        let report = |rank: usize, iteration: &search::Iteration| {
            on_info(
                rank,
                &Info {
                    depth: iteration.depth,
                    score: iteration.score,
                    nodes: threat_nodes + iteration.nodes,
                    elapsed: start.elapsed(),
                    pv: iteration.pv,
                },
            )
        };
        if helpers.is_empty() {
            return main[0].run_lines(board, limits, excluded, lines, 1, report);
        }
        let helpers_stop = Arc::new(AtomicBool::new(false));
        let mut found = std::thread::scope(|scope| {
            for (i, helper) in helpers.iter_mut().enumerate() {
                let mut board = board.clone();
                let limits = search::SearchLimits {
                    depth: limits.depth,
                    nodes: None,
                    deadline: limits.deadline,
                    target: None,
                    stop: Some(helpers_stop.clone()),
                };
                scope.spawn(move || {
                    helper.run(&mut board, limits, excluded, 1 + (i as u32 + 1) % 2, |_| {});
                });
            }
            let found = main[0].run_lines(board, limits, excluded, lines, 1, report);
            helpers_stop.store(true, std::sync::atomic::Ordering::Relaxed);
            found
        });
        let helper_nodes: u64 = helpers.iter().map(search::Search::nodes).sum();
        for line in &mut found {
            line.nodes += helper_nodes;
        }
        found
    }

    /// The first of `chosen` and the next best candidates after which the opponent has no
    /// VCF (a search that is not deep enough can walk into one); `None` when none is safe
    /// within the checks' budget.
    fn defend_root(
        &mut self,
        chosen: Option<Point>,
        deadline: Option<Instant>,
        limits: &Limits,
    ) -> Option<Point> {
        let chosen = chosen?;
        let mut candidates = Vec::with_capacity(64);
        candidates.push(chosen);
        let mut others = Vec::with_capacity(64);
        wuzi_search::Game::candidate_moves(&mut self.game, &mut others);
        candidates.extend(
            others
                .into_iter()
                .filter(|&p| p != chosen)
                .take(DEFENCE_TRIES),
        );
        let me = self.game.board.side_to_move();
        for p in candidates {
            let board = &mut self.game.board;
            board.play(p);
            // A move that ends the game is safe only if it wins (a renju foul loses).
            let safe = match board.result() {
                Some(r) => r.winner == Some(me),
                None => {
                    let check = ThreatLimits {
                        max_attacks: DEFENCE_VCF_ATTACKS,
                        nodes: Some(DEFENCE_VCF_NODES),
                        deadline,
                        stop: limits.stop.clone(),
                        quiet_vcf: 0,
                    };
                    self.threats.solve(board, ThreatKind::Vcf, &check).is_none()
                }
            };
            board.undo();
            if safe {
                return Some(p);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        None
    }
}

/// Candidates tried after the chosen move when it walks into a VCF.
const DEFENCE_TRIES: usize = 12;
const DEFENCE_VCF_ATTACKS: u32 = 12;
const DEFENCE_VCF_NODES: u64 = 20_000;

/// Puts `weights` on `board` if they are for its rule (else it keeps its own).
fn adopt_weights(board: &mut Board, weights: &Option<Arc<Weights>>) {
    if let Some(w) = weights {
        if w.rule == board.rule() && !board.sums_weights(w) {
            let _ = board.set_weights(Arc::clone(w));
        }
    }
}

/// `bytes` held to [`MAX_HASH_MIB`]: past it the allocation would fail and abort the program
/// (the front ends refuse such a size with a message; a library caller gets the cap).
fn capped_table_bytes(bytes: usize) -> usize {
    bytes.min(MAX_HASH_MIB << 20)
}

/// Splits the table memory: most to the main search, an eighth to the root threat solver and
/// a sixteenth to the one at the leaves.
fn split_memory(bytes: usize) -> (usize, usize, usize) {
    let root = bytes / 8;
    let leaf = bytes / 16;
    (bytes - root - leaf, root, leaf)
}

/// A stop flag front ends can share with a running search.
pub fn stop_flag() -> Arc<AtomicBool> {
    Arc::new(AtomicBool::new(false))
}

#[cfg(test)]
mod tests;
