//! `wuzi analyze`: the engine's view of a position, a line per completed depth or one JSON
//! object.

use crate::position::PositionArgs;
use clap::Args;
use serde::Serialize;
use std::time::Duration;
use wuzi_gomoku::{Analysis, Engine, EngineOptions, Info};
use wuzi_search::{Forced, Limits};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Think for this many milliseconds (the default: 1000, unless a depth or node limit is
    /// given).
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Search to this depth (deterministic).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Search this many nodes at most (deterministic).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Memory for the engine's tables, in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Search threads (they share the table); 1 keeps depth- and node-limited searches
    /// repeatable.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Print one JSON object at the end instead of a line per depth.
    #[arg(long)]
    pub json: bool,
    /// Engine switches as in `wuzi match`, e.g. `vct=off,leaf-vcf=off,width=0`.
    #[arg(long, default_value = "")]
    pub engine: String,
}

/// The analysis as front ends show it (also the web API's `analysis` object).
#[derive(Serialize, Debug, Clone)]
pub struct AnalysisJson {
    pub best_move: Option<String>,
    /// Heuristic score from the side to move's view; decided results are ±1000000 minus the
    /// plies to the end.
    pub score: i32,
    /// "win" or "loss" when proven for the side to move, else null.
    pub forced: Option<&'static str>,
    /// Plies to the end of the game when forced.
    pub plies: Option<u32>,
    pub depth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub millis: u128,
    pub pv: Vec<String>,
}

impl AnalysisJson {
    pub fn new(a: &Analysis, size: usize) -> AnalysisJson {
        let (forced, plies) = match a.forced() {
            Some(Forced::Win(n)) => (Some("win"), Some(n)),
            Some(Forced::Loss(n)) => (Some("loss"), Some(n)),
            None => (None, None),
        };
        AnalysisJson {
            best_move: a.best_move.map(|p| p.to_human(size)),
            score: a.score.value(),
            forced,
            plies,
            depth: a.depth,
            nodes: a.nodes,
            nps: a.nps(),
            millis: a.elapsed.as_millis(),
            pv: a.pv.iter().map(|p| p.to_human(size)).collect(),
        }
    }
}

/// One progress line: depth, score, nodes, speed and the principal variation.
pub fn info_line(info: &Info, size: usize) -> String {
    let millis = info.elapsed.as_millis();
    let nps = info.nodes as u128 * 1000 / millis.max(1);
    let pv: Vec<String> = info.pv.iter().map(|p| p.to_human(size)).collect();
    format!(
        "depth {:>2}  score {:>9}  nodes {:>10}  nps {:>8}  time {:>6} ms  pv {}",
        info.depth,
        info.score.to_string(),
        info.nodes,
        nps,
        millis,
        pv.join(" ")
    )
}

impl AnalyzeArgs {
    pub fn limits(&self) -> Limits {
        let time = match (self.time, self.depth, self.nodes) {
            (Some(ms), _, _) => Some(Duration::from_millis(ms)),
            (None, None, None) => Some(Duration::from_millis(1000)),
            _ => None,
        };
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            time,
            stop: None,
        }
    }
}

/// What every front end says when the side to move cannot play anywhere.
pub const NO_LEGAL_MOVE: &str =
    "Black has no legal move: every empty point is forbidden under renju";

pub fn analyze(args: &AnalyzeArgs) -> Result<String, String> {
    let board = args.position.board()?;
    if board.result().is_some() {
        return Err("the game is already over: nothing to analyse".into());
    }
    let size = board.size();
    let mut options = EngineOptions::default();
    wuzi_gomocup::manager::side::apply_switches(&mut options, &args.engine)?;
    options.table_bytes = args.hash_mb.max(1) << 20;
    options.threads = args.threads.into();
    let mut engine = Engine::new(board, options);
    if !engine.has_legal_move() {
        return Err(NO_LEGAL_MOVE.into());
    }
    let json = args.json;
    let analysis = engine.go(&args.limits(), |info| {
        if !json {
            crate::output::line(info_line(info, size));
        }
    });
    let out = AnalysisJson::new(&analysis, size);
    if json {
        return Ok(serde_json::to_string(&out).expect("serialisable"));
    }
    Ok(format!(
        "best move {} ({}), depth {}, {} nodes, {} nps, {} ms",
        out.best_move.as_deref().unwrap_or("-"),
        analysis.score,
        out.depth,
        out.nodes,
        out.nps,
        out.millis
    ))
}
