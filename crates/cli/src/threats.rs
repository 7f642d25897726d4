//! `wuzi threats`: the threat solver alone (算杀): whether the side to move, or its opponent,
//! wins by continuous fours (VCF) or by threats (VCT), and the winning line.

use crate::position::{colour_name, PositionArgs};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::time::{Duration, Instant};
use wuzi_gomoku::{
    ThreatKind, ThreatLimits, ThreatSearch, ThreatSolver, ThreatWin, MAX_QUIET_VCF,
    MAX_THREAT_ATTACKS,
};

/// The most attacker moves a win may take unless told otherwise (`--attacks`).
pub const DEFAULT_ATTACKS: u32 = 20;

#[derive(Args, Debug)]
pub struct ThreatsArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Which threats the attacker may use: fours only, or fours and open threes.
    #[arg(long, value_enum, ignore_case = true, default_value_t = KindArg::Vct)]
    pub kind: KindArg,
    /// With --kind vct: a quiet move is a threat too when it prepares a VCF of at most N
    /// moves (1: a double-four point, 2: a four-three; quintet's "threat limit").
    #[arg(long, value_name = "N", default_value_t = 0,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_QUIET_VCF)))]
    pub quiet: u32,
    /// The most attacker moves a win may take, the five not counted.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_ATTACKS,
          value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_THREAT_ATTACKS)))]
    pub attacks: u32,
    /// Give up after this many milliseconds (the default: 10000, unless --nodes is given).
    #[arg(
        long,
        value_name = "MS",
        conflicts_with = "nodes",
        value_parser = crate::arg_check::at_least_one::<u64>
    )]
    pub time: Option<u64>,
    /// Give up after this many nodes (the answer is then the same on every machine).
    #[arg(long, value_parser = crate::arg_check::at_least_one::<u64>)]
    pub nodes: Option<u64>,
    /// Look for the opponent's win instead: the side not to move, as if it had the move
    /// (what it threatens).
    #[arg(long)]
    pub opponent: bool,
    /// Memory for the solver's table, in MiB.
    #[arg(long, default_value_t = 64, value_parser = crate::position::hash_mib)]
    pub hash_mb: usize,
    /// How to search: `deepening` finds the win with the fewest attacker moves, one more
    /// attacker move at a time; `proof` (proof-number search, df-pn) goes where the fewest
    /// lines are left to settle, and may find a deep win sooner, but not always the shortest.
    #[arg(long, value_enum, ignore_case = true, default_value_t = SearchArg::Deepening)]
    pub search: SearchArg,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum KindArg {
    Vcf,
    Vct,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum SearchArg {
    Deepening,
    Proof,
}

#[derive(Serialize, Debug)]
pub struct ThreatsJson {
    /// The attacker: "black" or "white".
    pub attacker: &'static str,
    pub kind: &'static str,
    pub quiet: u32,
    /// "deepening" (the win found has the fewest attacker moves) or "proof".
    pub search: &'static str,
    /// Whether a win was proven.
    pub win: bool,
    /// Plies to the end of the game along `line` (null without a win).
    pub plies: Option<u32>,
    /// The winning line: attacker, defender, ..., the attacker's five (empty without a win),
    /// or, under renju, the forbidden block Black is left with.
    pub line: Vec<String>,
    /// The line's last move when it is Black's forced block on a forbidden point (renju).
    pub forbidden_block: Option<String>,
    /// True when a limit of time or nodes stopped the search: no win found says nothing then.
    pub gave_up: bool,
    pub nodes: u64,
    pub millis: u128,
}

pub fn threats(args: &ThreatsArgs) -> Result<String, String> {
    let mut board = args.position.board()?;
    if board.result().is_some() {
        return Err("the game is already over: no threats to look for".into());
    }
    if args.quiet > 0 && args.kind == KindArg::Vcf {
        return Err("--quiet adds quiet threats to a VCT: it needs --kind vct".into());
    }
    let kind = match args.kind {
        KindArg::Vcf => ThreatKind::Vcf,
        KindArg::Vct => ThreatKind::Vct,
    };
    let mut solver = ThreatSolver::new(args.hash_mb << 20);
    let start = Instant::now();
    let time = match (args.time, args.nodes) {
        (Some(ms), _) => Some(ms),
        (None, None) => Some(10_000),
        (None, Some(_)) => None,
    };
    let limits = ThreatLimits {
        max_attacks: args.attacks,
        nodes: args.nodes,
        deadline: time.map(|ms| start + Duration::from_millis(ms)),
        stop: None,
        quiet_vcf: args.quiet,
    };
    let attacker = if args.opponent {
        board.side_to_move().opponent()
    } else {
        board.side_to_move()
    };
    let search = match args.search {
        SearchArg::Deepening => ThreatSearch::Deepening,
        SearchArg::Proof => ThreatSearch::Proof,
    };
    let win = solver.search_for(&mut board, attacker, search, kind, &limits);
    let size = board.size();
    let out = ThreatsJson {
        attacker: colour_name(attacker),
        kind: kind.name(),
        quiet: args.quiet,
        search: search.name(),
        win: win.is_some(),
        plies: win.as_ref().map(|w| w.plies),
        line: win
            .iter()
            .flat_map(|w| &w.line)
            .map(|p| p.to_human(size))
            .collect(),
        forbidden_block: win
            .as_ref()
            .and_then(ThreatWin::forbidden_block)
            .map(|p| p.to_human(size)),
        gave_up: win.is_none() && solver.gave_up(),
        nodes: solver.nodes(),
        millis: start.elapsed().as_millis(),
    };
    if args.json {
        return serde_json::to_string(&out).map_err(|e| e.to_string());
    }
    Ok(text(&out, win.as_ref(), args.attacks))
}

/// The answer as text: the verdict, the line, and what it cost.
fn text(out: &ThreatsJson, win: Option<&ThreatWin>, max_attacks: u32) -> String {
    let name = out.kind.to_uppercase();
    let quiet = if out.quiet > 0 {
        format!(" (quiet threats up to a {}-move VCF)", out.quiet)
    } else {
        String::new()
    };
    let verdict = match win {
        Some(w) => {
            format!(
                "{} wins by {name}{quiet} in {} {}{}: {}",
                out.attacker,
                w.plies,
                if w.plies == 1 { "ply" } else { "plies" },
                if out.search == ThreatSearch::Proof.name() {
                    " (proof-number search: a win, not always the shortest)"
                } else {
                    ""
                },
                out.line.join(" ")
            ) + &out
                .forbidden_block
                .as_ref()
                .map(|p| format!(" (Black's only block, {p}, is forbidden)"))
                .unwrap_or_default()
        }
        None if out.gave_up => format!(
            "{} has no {name}{quiet} found before the limit stopped the search",
            out.attacker
        ),
        None => format!(
            "{} has no {name}{quiet} within {max_attacks} attacker moves",
            out.attacker
        ),
    };
    format!("{verdict}\n{} nodes in {} ms", out.nodes, out.millis)
}
