//! Running each requested algorithm on the position, within the caller's bounds.

use crate::algorithm::Algorithm;
use crate::request::{Bounds, LearnRequest, Plan, Position};
use crate::tree_json::tree_json;
use serde::Serialize;
use serde_json::Value;
use wuzi_gomoku::{Board, Engine, TextbookGomoku};
use wuzi_mnk::Mnk;
use wuzi_search::{
    AlphaBeta, Game, LimitExceeded, Limits, Minimax, Negamax, Observer, Pvs, SearchResult,
    Searcher, TreeRecorder, WorkLimit,
};

/// What one algorithm found (an element of the API's `results`).
#[derive(Serialize, Clone, Debug)]
pub struct AlgorithmResult {
    pub algorithm: &'static str,
    pub best_move: Option<String>,
    /// From the side to move's view; decided results are ±1000000 minus the plies to the end.
    pub score: i32,
    pub nodes: u64,
    pub millis: u128,
    /// The same time in microseconds: small searches take under a millisecond.
    pub micros: u128,
    pub pv: Vec<String>,
    /// The searched tree (see [`tree_json`]) when asked for; never for `engine`.
    pub tree: Option<Value>,
}

/// Checks the request and runs it.
pub fn run(request: &LearnRequest, bounds: &Bounds) -> Result<Vec<AlgorithmResult>, String> {
    run_plan(&request.plan(bounds)?, bounds)
}

/// Runs every algorithm of a checked plan, in its order.
pub fn run_plan(plan: &Plan, bounds: &Bounds) -> Result<Vec<AlgorithmResult>, String> {
    plan.algorithms
        .iter()
        .map(|&algorithm| run_one(plan, algorithm, bounds))
        .collect()
}

fn run_one(plan: &Plan, algorithm: Algorithm, bounds: &Bounds) -> Result<AlgorithmResult, String> {
    match &plan.position {
        Position::Mnk(board) => {
            let mut board = Mnk::clone(board);
            let names = board.clone();
            let name = move |cell| names.cell_name(cell);
            if algorithm == Algorithm::Engine {
                let mut searcher = Searcher::new(board.solver_table_bytes());
                let remaining = board.max_remaining_plies();
                let result = searcher.search(&mut board, &engine_limits(plan, bounds), |_| {});
                return engine_json(plan, bounds, &result, remaining, &name);
            }
            textbook(&mut board, algorithm, plan, bounds, false, &name)
        }
        Position::Gomoku {
            board,
            candidates,
            order,
        } => {
            let size = board.size();
            let name = move |p: wuzi_gomoku::Point| p.to_human(size);
            if algorithm == Algorithm::Engine {
                let mut engine = Engine::new(Board::clone(board), plan.engine.clone());
                let a = engine.go(&engine_limits(plan, bounds), |_| {});
                let result = SearchResult {
                    best_move: a.best_move,
                    score: a.score,
                    nodes: a.nodes,
                    depth: a.depth,
                    pv: a.pv,
                    elapsed: a.elapsed,
                };
                let remaining = Some(board.empty_count() as u32);
                return engine_json(plan, bounds, &result, remaining, &name);
            }
            let mut game = TextbookGomoku::new(Board::clone(board), *candidates, *order);
            textbook(&mut game, algorithm, plan, bounds, true, &name)
        }
    }
}

/// The engine's result, or the same refusal a textbook search gets when a bound stopped it
/// short of the depth asked for: a shallower answer passed off as the asked depth's would
/// mislead the comparison. A proven result, or a game that ends within the depth searched,
/// ends the deepening early, as it should.
fn engine_json<M: Copy>(
    plan: &Plan,
    bounds: &Bounds,
    result: &SearchResult<M>,
    remaining_plies: Option<u32>,
    name: &dyn Fn(M) -> String,
) -> Result<AlgorithmResult, String> {
    let settled = result.score.is_decided() || remaining_plies.is_some_and(|n| result.depth >= n);
    if result.depth >= plan.depth || settled {
        return Ok(result_json(Algorithm::Engine, result, None, name));
    }
    let nodes_ran_out = result.nodes >= bounds.max_work_nodes;
    let bound = if nodes_ran_out {
        format!("needs more than {} nodes", bounds.max_work_nodes)
    } else {
        // The time cap, or the deepening's judgement that the next depth would not fit in it.
        let cap = bounds.max_time.unwrap_or_default();
        format!("takes longer than {}", duration_text(cap))
    };
    Err(format!(
        "engine at depth {} {bound} (it completed depth {}): {}",
        plan.depth,
        result.depth,
        advice(bounds, false, !nodes_ran_out)
    ))
}

/// What the user can do about a search a bound stopped: a textbook search of Gomoku also
/// gets fewer candidates (m,n,k has no such setting); the command line's time can be raised.
fn advice(bounds: &Bounds, gomoku: bool, time_ran_out: bool) -> String {
    let mut ways = vec!["lower the depth".to_string()];
    if gomoku {
        ways.push("narrow the candidates".into());
    }
    if let (true, Some(option)) = (time_ran_out, bounds.raise_time) {
        ways.push(format!("raise {option}"));
    }
    let (last, rest) = ways
        .split_last()
        .expect("lowering the depth is always a way");
    if rest.is_empty() {
        last.clone()
    } else {
        format!("{} or {last}", rest.join(", "))
    }
}

/// A time cap as the user gave it: whole seconds as seconds, else milliseconds.
fn duration_text(t: std::time::Duration) -> String {
    if t.subsec_nanos() == 0 && t.as_secs() > 0 {
        format!("{} s", t.as_secs())
    } else {
        format!("{} ms", t.as_millis())
    }
}

fn engine_limits(plan: &Plan, bounds: &Bounds) -> Limits {
    Limits {
        depth: Some(plan.depth),
        nodes: Some(bounds.max_work_nodes),
        time: bounds.max_time,
        target: None,
        stop: None,
    }
}

fn observed<G: Game, O: Observer<G>>(
    algorithm: Algorithm,
    depth: u32,
    game: &mut G,
    observer: &mut O,
) -> Option<SearchResult<G::Move>> {
    match algorithm {
        Algorithm::Minimax => Minimax { depth }.search_observed(game, observer),
        Algorithm::Negamax => Negamax { depth }.search_observed(game, observer),
        Algorithm::AlphaBeta => AlphaBeta { depth }.search_observed(game, observer),
        Algorithm::Pvs => Pvs { depth }.search_observed(game, observer),
        Algorithm::Engine => unreachable!("the engine runs apart, with no observer"),
    }
}

/// A textbook search, bounded by the work limit and, with a tree, by its node cap.
/// `gomoku`: the position is Gomoku's, whose candidates can be narrowed.
fn textbook<G: Game>(
    game: &mut G,
    algorithm: Algorithm,
    plan: &Plan,
    bounds: &Bounds,
    gomoku: bool,
    name: &dyn Fn(G::Move) -> String,
) -> Result<AlgorithmResult, String> {
    let limit = WorkLimit::new(bounds.max_work_nodes, bounds.max_time);
    let (result, limit, tree) = match plan.tree_nodes {
        Some(cap) => {
            let mut observers = (TreeRecorder::new(cap), limit);
            let result = observed(algorithm, plan.depth, game, &mut observers);
            if observers.0.overflowed() {
                let narrow = if gomoku {
                    ", narrow the candidates"
                } else {
                    ""
                };
                return Err(format!(
                    "the {algorithm} tree at depth {} has more than {cap} nodes: lower the \
                     depth{narrow} or raise the node cap (max_nodes; on the command line \
                     --max-nodes)",
                    plan.depth
                ));
            }
            let tree = tree_json(&observers.0, algorithm, name);
            (result, observers.1, Some(tree))
        }
        None => {
            let mut limit = limit;
            let result = observed(algorithm, plan.depth, game, &mut limit);
            (result, limit, None)
        }
    };
    let Some(result) = result else {
        return Err(match limit.exceeded {
            Some(LimitExceeded::Nodes(n)) => format!(
                "{algorithm} at depth {} needs more than {n} nodes: {}",
                plan.depth,
                advice(bounds, gomoku, false)
            ),
            Some(LimitExceeded::Time(t)) => format!(
                "{algorithm} at depth {} takes longer than {}: {}",
                plan.depth,
                duration_text(t),
                advice(bounds, gomoku, true)
            ),
            None => format!("{algorithm} was stopped"),
        });
    };
    Ok(result_json(algorithm, &result, tree, name))
}

fn result_json<M: Copy>(
    algorithm: Algorithm,
    result: &SearchResult<M>,
    tree: Option<Value>,
    name: &dyn Fn(M) -> String,
) -> AlgorithmResult {
    AlgorithmResult {
        algorithm: algorithm.name(),
        best_move: result.best_move.map(name),
        score: result.score.value(),
        nodes: result.nodes,
        millis: result.elapsed.as_millis(),
        micros: result.elapsed.as_micros(),
        pv: result.pv.iter().map(|&m| name(m)).collect(),
        tree,
    }
}
