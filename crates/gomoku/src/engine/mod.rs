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

mod params;
mod search;
mod time;

pub use params::SearchParams;
pub use time::{move_budget, MoveTime};

use crate::board::Board;
use crate::eval::{embedded_weights, EvalKind, ShapeFactor, Weights};
use crate::game::Gomoku;
use crate::notation::Point;
use crate::threat::{ThreatKind, ThreatLimits, ThreatSolver};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wuzi_search::{Forced, Limits, Score, SearchOptions, Searcher, SharedTable};

/// The most search threads an engine runs.
pub const MAX_THREADS: usize = 64;
/// The most table memory a user may ask for, in MiB: a larger request is refused with a
/// message (the allocation would fail and abort the program). What fits below it depends on
/// the machine.
pub const MAX_HASH_MIB: usize = 4096;

/// Which parts of the engine are switched on, and how much memory its tables get.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Bytes for all tables together (main search, root threat solver, leaf threat solver).
    pub table_bytes: usize,
    pub search: SearchOptions,
    /// Look for a VCF at the root before searching.
    pub root_vcf: bool,
    /// Look for a VCT at the root before searching.
    pub root_vct: bool,
    /// The root VCT's quiet threats: moves that prepare a VCF of at most this many moves
    /// count as threats too ([`ThreatLimits::quiet_vcf`]; 0: fours and open threes only).
    pub root_vct_quiet: u32,
    /// Prove VCF wins at the leaves of the main search.
    pub leaf_vcf: bool,
    /// Moves searched per position where nothing forces the reply (0: every move near a
    /// stone).
    pub max_candidates: usize,
    /// After the search, make sure the chosen move leaves the opponent no VCF; if it does,
    /// take the first candidate that does not.
    pub root_defence: bool,
    /// The selective Gomoku search (reductions, pruning, extensions); off, the generic core's
    /// searcher (the `search` options above apply to that one only).
    pub selective: bool,
    /// The selective search's constants.
    pub params: SearchParams,
    /// Search threads (Lazy SMP: they share one table); 1 keeps depth- and node-limited
    /// searches deterministic.
    pub threads: usize,
    /// The evaluation the searches call (`eval=learned|classic` in `wuzi match`).
    pub eval: EvalKind,
    /// How quiet candidates are ordered (`order=learned|classic`).
    pub order: EvalKind,
    /// Tables to use instead of the embedded ones on boards of their rule (`weights=FILE`
    /// in `wuzi match`, to play freshly fitted weights without a rebuild).
    pub weights: Option<Arc<Weights>>,
    /// Factors on those tables (or the embedded ones) by role and shape group, applied when
    /// an engine is made (`mover:four=1.05` in `wuzi match`: how `wuzi spsa` tunes them).
    pub shape_factors: Vec<ShapeFactor>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            table_bytes: 64 << 20,
            // The candidates come ordered by their shapes; lifting killer moves over that
            // order costs nodes here (20% more to the same depth on the bench positions).
            search: SearchOptions {
                killers: false,
                history: false,
                ..SearchOptions::default()
            },
            root_vcf: true,
            root_vct: true,
            root_vct_quiet: 0,
            leaf_vcf: false,
            max_candidates: 12,
            root_defence: true,
            selective: true,
            params: SearchParams::default(),
            threads: 1,
            eval: EvalKind::default(),
            // The learned policy (with its last-move, nearby-stone and threat terms) ordered
            // better than the hand weights: +51 +- 39 at 10k nodes in freestyle, +24 +- 42
            // under renju (200 games each).
            order: EvalKind::Learned,
            weights: None,
            shape_factors: Vec::new(),
        }
    }
}

impl EngineOptions {
    /// An error when `weights` are set for another rule than `rule` (they would be ignored).
    pub fn check_rule(&self, rule: crate::rules::Rule) -> Result<(), String> {
        match &self.weights {
            Some(w) if w.rule != rule => Err(format!(
                "the weights are for {}, the game is {}",
                w.rule.name(),
                rule.name()
            )),
            _ => Ok(()),
        }
    }

    /// Sets a shape group's factor (replacing an earlier one for the same group).
    pub fn set_shape_factor(&mut self, factor: ShapeFactor) {
        self.shape_factors.retain(|f| !f.same_group(&factor));
        self.shape_factors.push(factor);
    }

    /// The tables an engine with these options plays on a board of `rule`: `weights` (if for
    /// this rule) or the embedded ones, times the shape factors; `None` when that is just
    /// the board's own embedded tables.
    pub fn weights_for(&self, rule: crate::rules::Rule) -> Option<Arc<Weights>> {
        let base = self.weights.clone().filter(|w| w.rule == rule);
        if self.shape_factors.is_empty() {
            return base;
        }
        let mut scaled = Weights::clone(&base.unwrap_or_else(|| embedded_weights(rule)));
        ShapeFactor::apply_all(&self.shape_factors, &mut scaled);
        Some(Arc::new(scaled))
    }
}

/// What the engine found for the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// `None` only when the game is over or the side to move has no legal move (under renju,
    /// every empty point forbidden for Black: see [`Engine::has_legal_move`]). Otherwise always
    /// a legal move, even in a lost position.
    pub best_move: Option<Point>,
    /// From the side to move's point of view; decided scores are proven.
    pub score: Score,
    /// The deepest completed depth of the main search, or the plies of a proven threat line.
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
    pub fn new(mut board: Board, options: EngineOptions) -> Engine {
        let weights = options.weights_for(board.rule());
        adopt_weights(&mut board, &weights);
        let (main, root_threats, leaf_threats) = split_memory(options.table_bytes);
        let table = Arc::new(SharedTable::with_bytes(if options.selective {
            main
        } else {
            0
        }));
        let mut game = Gomoku::new(board);
        game.set_max_candidates(options.max_candidates);
        game.set_eval(options.eval);
        if options.leaf_vcf {
            game.enable_leaf_vcf(leaf_threats);
        }
        Engine {
            game,
            searcher: Searcher::new(if options.selective { 0 } else { main })
                .with_options(options.search),
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
            threats: ThreatSolver::new(root_threats),
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
    /// true; call [`Engine::clear_tables`] for a fresh start).
    pub fn set_board(&mut self, mut board: Board) {
        // A board of another rule: make that rule's tables (cheap when there is nothing to
        // make, and once per rule otherwise).
        if self.weights.as_ref().map(|w| w.rule) != Some(board.rule()) {
            self.weights = self.options.weights_for(board.rule());
        }
        adopt_weights(&mut board, &self.weights);
        self.game.board = board;
    }

    /// Plays a move for the side to move; an error (and no change) if it is not legal now.
    pub fn play(&mut self, p: Point) -> Result<(), String> {
        self.game.board.try_play(p)
    }

    /// Takes back the last move, if any.
    pub fn undo(&mut self) -> Option<Point> {
        self.game.board.undo()
    }

    pub fn clear_tables(&mut self) {
        self.searcher.clear();
        self.table.clear();
        self.threats.clear();
        self.game.clear_leaf_table();
    }

    /// Finds the best move for the side to move within `limits`, calling `on_info` as the
    /// search progresses. The position is left as it was.
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
        let start = Instant::now();
        if self.game.board.result().is_none() && !self.game.board.has_legal_move() {
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

    /// The `n` best moves for the side to move, best first, for analysis ("multi-PV"): one
    /// search per move, each never choosing the moves found before it, so each score is the
    /// best the position offers without them. Every search gets `limits` as they are (a caller
    /// with a time budget for the whole list divides it). `on_info` hears each search's
    /// progress with its rank (0 for the best move), `on_found` each search's result as it
    /// ends. Fewer than `n` come back when the legal moves run out or `limits.stop` is raised.
    pub fn best_moves(
        &mut self,
        n: usize,
        limits: &Limits,
        mut on_info: impl FnMut(usize, &Info),
        mut on_found: impl FnMut(&Analysis),
    ) -> Vec<Analysis> {
        let mut found: Vec<Analysis> = Vec::new();
        let mut excluded: Vec<Point> = Vec::new();
        while found.len() < n {
            let rank = found.len();
            let a = self.go_excluding(limits, &excluded, |info| on_info(rank, info));
            let Some(mv) = a.best_move else { break };
            on_found(&a);
            excluded.push(mv);
            found.push(a);
            if limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            {
                break;
            }
        }
        found
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
            if !enabled || excluding {
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
                let analysis = Analysis {
                    best_move: Some(win.first()),
                    score: Score::win_in(win.plies),
                    depth: win.plies,
                    nodes: self.threats.nodes() - nodes_before,
                    elapsed: start.elapsed(),
                    pv: win.line.clone(),
                };
                on_info(&Info {
                    depth: analysis.depth,
                    score: analysis.score,
                    nodes: analysis.nodes,
                    elapsed: analysis.elapsed,
                    pv: &analysis.pv,
                });
                return analysis;
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
            let found = self.run_threads(limits, excluded, threat_nodes, start, on_info);
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

    /// The selective search on every thread: the first reports and decides, the others (Lazy
    /// SMP) search the same position from staggered depths and fill the shared table, until
    /// the first is done.
    fn run_threads(
        &mut self,
        limits: search::SearchLimits,
        excluded: &[Point],
        threat_nodes: u64,
        start: Instant,
        on_info: &mut impl FnMut(&Info),
    ) -> search::Found {
        self.table.new_search();
        let board = &mut self.game.board;
        let (main, helpers) = self.workers.split_at_mut(1);
        let report = |iteration: &search::Iteration| {
            on_info(&Info {
                depth: iteration.depth,
                score: iteration.score,
                nodes: threat_nodes + iteration.nodes,
                elapsed: start.elapsed(),
                pv: iteration.pv,
            })
        };
        if helpers.is_empty() {
            return main[0].run(board, limits, excluded, 1, report);
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
            let found = main[0].run(board, limits, excluded, 1, report);
            helpers_stop.store(true, std::sync::atomic::Ordering::Relaxed);
            found
        });
        found.nodes += helpers.iter().map(search::Search::nodes).sum::<u64>();
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
mod tests {
    use super::*;
    use crate::rules::Rule;

    fn engine(moves: &str, rule: Rule) -> Engine {
        let board = Board::from_moves(15, rule, moves).unwrap();
        Engine::new(
            board,
            EngineOptions {
                table_bytes: 4 << 20,
                ..EngineOptions::default()
            },
        )
    }

    /// Shape factors scale the tables an engine plays with, made for the rule of each board it
    /// is given; without them the board keeps the embedded tables.
    #[test]
    fn shape_factors_scale_the_engines_tables() {
        let factor: ShapeFactor = "waiter:open-three=0.5".parse().unwrap();
        let options = EngineOptions {
            table_bytes: 1 << 20,
            shape_factors: vec![factor],
            ..EngineOptions::default()
        };
        let expected = |rule| {
            let mut w = Weights::clone(&embedded_weights(rule));
            w.scale_shape(factor.role, factor.shape, factor.second, factor.factor);
            w
        };
        let mut e = Engine::new(Board::new(15, Rule::Freestyle).unwrap(), options.clone());
        assert_eq!(e.board().weights(), &expected(Rule::Freestyle));
        assert_ne!(e.board().weights(), &*embedded_weights(Rule::Freestyle));
        e.set_board(Board::from_moves(15, Rule::Renju, "h8 i9").unwrap());
        assert_eq!(e.board().weights(), &expected(Rule::Renju));
        let plain = EngineOptions {
            shape_factors: Vec::new(),
            ..options.clone()
        };
        let plain = Engine::new(Board::new(15, Rule::Renju).unwrap(), plain);
        assert!(plain.board().sums_weights(&embedded_weights(Rule::Renju)));
        assert_eq!(
            options.weights_for(Rule::Standard),
            Some(Arc::new(expected(Rule::Standard)))
        );
    }

    /// The N best moves: distinct, the first the move `go` finds, progress told with each
    /// search's rank; a forced position lists only the moves it allows, and a raised stop
    /// flag ends the list after the search it stopped.
    #[test]
    fn best_moves_are_distinct_and_begin_with_the_best() {
        let limits = Limits::nodes(20_000);
        let best = engine("h8 i9 h9 h7", Rule::Freestyle).go(&limits, |_| {});
        let mut e = engine("h8 i9 h9 h7", Rule::Freestyle);
        let (mut ranks, mut told) = (Vec::new(), 0);
        let found = e.best_moves(3, &limits, |rank, _| ranks.push(rank), |_| told += 1);
        let moves: Vec<Point> = found.iter().map(|a| a.best_move.unwrap()).collect();
        assert_eq!(moves.len(), 3);
        assert_eq!(
            found[0],
            Analysis {
                elapsed: found[0].elapsed,
                ..best
            }
        );
        assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2]);
        assert!(found.iter().all(|a| a.pv.first() == a.best_move.as_ref()));
        assert_eq!(told, 3);
        assert!(
            ranks.windows(2).all(|w| w[0] <= w[1]) && ranks.contains(&2),
            "{ranks:?}"
        );
        // Black's four: White's only move is the block.
        let mut e = engine("h8 g8 i8 a1 j8 a2 k8", Rule::Freestyle);
        let found = e.best_moves(3, &limits, |_, _| {}, |_| {});
        let l8 = crate::notation::parse_point("l8", 15).unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].best_move, Some(l8));
        let stop = stop_flag();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        let stopped = Limits {
            stop: Some(stop),
            ..Limits::default()
        };
        let mut e = engine("h8 i9 h9 h7", Rule::Freestyle);
        assert_eq!(e.best_moves(3, &stopped, |_, _| {}, |_| {}).len(), 1);
    }

    #[test]
    fn tables_stay_within_their_bytes() {
        for bytes in [0, 1 << 10, 1 << 20, 350 << 20] {
            let board = Board::new(15, Rule::Freestyle).unwrap();
            let e = Engine::new(
                board,
                EngineOptions {
                    table_bytes: bytes,
                    ..EngineOptions::default()
                },
            );
            assert!(e.table_bytes() <= bytes, "{bytes}");
        }
    }

    #[test]
    fn a_proven_win_is_reported_as_forced() {
        // Black has an open four: it wins in one.
        let mut e = engine("h8 a1 i8 a2 j8 a3 k8 b15", Rule::Freestyle);
        let a = e.go(&Limits::depth(3), |_| {});
        assert_eq!(a.forced(), Some(Forced::Win(1)));
        assert!(matches!(
            a.best_move.map(|p| p.to_human(15)).as_deref(),
            Some("g8" | "l8")
        ));
    }

    #[test]
    fn depth_limited_search_is_deterministic() {
        let moves = "h8 i9 h9 h10 i8 g8 j10 k11";
        let a = engine(moves, Rule::Freestyle).go(&Limits::depth(4), |_| {});
        let b = engine(moves, Rule::Freestyle).go(&Limits::depth(4), |_| {});
        assert_eq!(
            (a.best_move, a.nodes, a.score),
            (b.best_move, b.nodes, b.score)
        );
    }

    #[test]
    fn a_nearly_lost_score_widens_the_aspiration_window_to_the_end() {
        // White to move, every defence found loses but some were left out, so the search
        // scores the end of the heuristic range. Its aspiration bounds used to be clamped
        // there and the re-searches failed low forever: depth 5 never completed.
        let moves = "e11 g8 i8 h9 i10 i9 j9 h11 h10 j10 h8 f9 e9 e10 h7 g6 g9 f10 f8 e7 d10 \
                     g7 c11 b12 d11 f11 f12 c9 e13 d13 g13 h14 e12 g5 g4";
        let limits = Limits {
            depth: Some(8),
            nodes: Some(5_000_000),
            ..Limits::default()
        };
        let a = engine(moves, Rule::Freestyle).go(&limits, |_| {});
        assert_eq!((a.depth, a.score), (8, -Score::MAX_HEURISTIC));
    }

    #[test]
    fn the_root_keeps_the_moves_the_width_would_leave_out() {
        // White to move (from a game lost to Rapfi). b6 wins in 11 plies: a closed three
        // beside two of White's fours, so neither threat solver tries it, and the ordering
        // ranks it 13th, one past the width. At the root it is kept, and found.
        let moves = "i10 k7 g6 k8 g8 h9 i8 i9 g9 g7 j10 k9 k10 j9 l9 h10 j8 j6 k5 i5 h4 l7 m6 \
                     m8 j5 h7 h6 f7 i7 g5 k4 f6 e5 f8 f9 k6 l3 m2 m7 l5 h11 g11 f4 l8 m9 n8 o8 \
                     e9 d8 e11 f12 e10 e8 g10 c11 c8 e12 d7 e7 e6 f5 n9 o10 n6 n7 b9 a10 c9 d9";
        let limits = Limits::depth(15);
        let found = engine(moves, Rule::Freestyle).go(&limits, |_| {});
        let b6 = crate::notation::parse_point("b6", 15).unwrap();
        assert_eq!(found.best_move, Some(b6));
        assert_eq!(found.score, Score::win_in(11));
        let narrow = EngineOptions {
            table_bytes: 4 << 20,
            params: SearchParams {
                root_width: 0,
                ..SearchParams::default()
            },
            ..EngineOptions::default()
        };
        let board = Board::from_moves(15, Rule::Freestyle, moves).unwrap();
        let missed = Engine::new(board, narrow).go(&limits, |_| {});
        assert_ne!(missed.best_move, Some(b6));
    }
}
