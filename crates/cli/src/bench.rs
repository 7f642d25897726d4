//! `wuzi bench`: fixed positions searched to fixed depths. The total node count is a
//! signature of the search's behaviour: it changes only when the search does.

use clap::Args;
use serde::Serialize;
use std::time::{Duration, Instant};
use wuzi_gomoku::{Board, Engine, EngineOptions, Rule};
use wuzi_search::Limits;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Search each position this many plies deeper (or shallower, negative) than its set
    /// depth.
    #[arg(long, default_value_t = 0, allow_hyphen_values = true,
          value_parser = clap::value_parser!(i32).range(-20..=20))]
    pub depth_offset: i32,
}

/// (rule, size, moves, depth): from the opening to the late middle game, every rule.
const POSITIONS: &[(Rule, usize, &str, u32)] = &[
    (Rule::Freestyle, 15, "h8", 8),
    (Rule::Freestyle, 15, "h8 i9 i8 g8 j10 h10", 8),
    (Rule::Freestyle, 15, "h8 i9 j8 k8 i7 k9 j6 k5", 8),
    (
        Rule::Freestyle,
        15,
        "h8 i9 j8 k8 i7 k9 j6 k5 h9 j9 f10 g9",
        8,
    ),
    (Rule::Freestyle, 20, "j10 k11 k10 l10 j11 j12 i12 h13", 8),
    (Rule::Standard, 15, "h8 h9 i9 g7 j10 k11 i8 i10 g9 j7", 8),
    (Rule::Standard, 15, "h8 i9 j8 i8 i7 j6 h9 h7 g8 f8", 8),
    (Rule::Renju, 15, "h8 i9 j8 i8 i7 j6 h9 h7 g8 f8 g9 k7", 8),
    (Rule::Renju, 15, "h8 i7 g9 g7 i9 h9 j10 k11 h10 g11", 8),
    (
        Rule::Renju,
        15,
        "h8 i9 j8 i8 i7 h6 j6 k5 j7 j9 h7 g7 i5 k7 k4 j5 k9 g9 f9 f8",
        7,
    ),
];

#[derive(Serialize)]
struct BenchResult {
    positions: usize,
    nodes: u64,
    nps: u64,
    millis: u128,
}

pub fn bench(args: &BenchArgs) -> Result<String, String> {
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    let mut lines = Vec::new();
    for (i, &(rule, size, moves, depth)) in POSITIONS.iter().enumerate() {
        let board = Board::from_moves(size, rule, moves).map_err(|e| e.to_string())?;
        let mut engine = Engine::new(
            board,
            EngineOptions {
                table_bytes: 16 << 20,
                ..EngineOptions::default()
            },
        );
        let depth = (depth as i32 + args.depth_offset).max(1) as u32;
        let start = Instant::now();
        let a = engine.go(&Limits::depth(depth), |_| {});
        elapsed += start.elapsed();
        nodes += a.nodes;
        lines.push(format!(
            "position {:>2} ({rule}, {size}x{size}, {}, depth {depth}): {:>9} nodes, best {}, score {}",
            i + 1,
            crate::output::count(moves.split_whitespace().count(), "stone"),
            a.nodes,
            a.best_move.map_or("-".into(), |p| p.to_human(size)),
            a.score
        ));
    }
    let nps = (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
    if args.json {
        let result = BenchResult {
            positions: POSITIONS.len(),
            nodes,
            nps,
            millis: elapsed.as_millis(),
        };
        return Ok(serde_json::to_string(&result).expect("serialisable"));
    }
    lines.push(format!("Total time (ms) : {}", elapsed.as_millis()));
    lines.push(format!("Nodes searched  : {nodes}"));
    lines.push(format!("Nodes/second    : {nps}"));
    Ok(lines.join("\n"))
}
