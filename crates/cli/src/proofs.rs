//! `wuzi proofs`: every position of a record file searched again, and each proven win that
//! the same side's next position no longer proves listed. A proof holds whatever the
//! opponent plays, so the next position must prove a win too: when it does not, either the
//! first proof was false (a move-generation bug can cut the opponent's real defence) or the
//! second search missed a win it could not finish in its budget. Searching the listed
//! position again with more time tells the two apart.

use crate::analyze::AnalysisJson;
use clap::Args;
use serde::Serialize;
use std::time::Duration;
use wuzi_gomoku::record::{read_records, GameRecord};
use wuzi_gomoku::{Engine, EngineOptions, Player};
use wuzi_search::{Forced, Limits};

#[derive(Args, Debug)]
pub struct ProofsArgs {
    /// A record file (`.sgf` as `wuzi match --sgf` and c-gomoku-cli write, or `.psq`).
    pub file: String,
    /// Only the positions where the player of this name (the record's `PB`/`PW`) is to move.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only game N of the file (1-based).
    #[arg(long, value_name = "N")]
    pub game: Option<usize>,
    /// Think this many milliseconds on each position (the default: 150, unless a node limit
    /// is given).
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Search this many nodes on each position (repeatable, unlike a time limit).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// The rule of records that do not say (`RU`).
    #[arg(long, value_enum, default_value_t = crate::position::RuleArg::Freestyle)]
    pub rule: crate::position::RuleArg,
    /// Memory for the engine's tables, in MiB.
    #[arg(long, default_value_t = 64)]
    pub hash_mb: usize,
    /// Engine switches as in `wuzi match`.
    #[arg(long, default_value = "")]
    pub engine: String,
    /// Print one JSON object at the end instead of a line per finding.
    #[arg(long)]
    pub json: bool,
}

/// A proven win whose side's next position was not proven won.
#[derive(Serialize, Debug)]
struct Suspect {
    /// The game's place in the file (1-based, what `--game` takes).
    game: usize,
    /// The position after this many moves proved the win.
    after_moves: usize,
    side: &'static str,
    plies: u32,
    /// The search of the same side's next position, two moves later.
    next: AnalysisJson,
}

#[derive(Serialize, Debug, Default)]
struct Report {
    positions: usize,
    proven_wins: usize,
    proven_losses: usize,
    suspects: Vec<Suspect>,
}

pub fn proofs(args: &ProofsArgs) -> Result<String, String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read {}: {e}", args.file))?;
    let games = read_records(&args.file, &text, args.rule.into())
        .map_err(|e| format!("{}: {e}", args.file))?;
    if let Some(n) = args.game {
        if n == 0 || n > games.len() {
            return Err(format!(
                "{} holds {}: --game {n} is not one of them",
                args.file,
                count(games.len(), "game")
            ));
        }
    }
    if let Some(name) = &args.player {
        if !games.iter().any(|g| g.black == *name || g.white == *name) {
            return Err(format!(
                "no game of {} has a player named {name}",
                args.file
            ));
        }
    }
    let mut options = EngineOptions::default();
    wuzi_gomocup::manager::side::apply_switches(&mut options, &args.engine)?;
    options.table_bytes = args.hash_mb.max(1) << 20;
    let limits = Limits {
        depth: None,
        nodes: args.nodes,
        time: match (args.time, args.nodes) {
            (Some(ms), _) => Some(Duration::from_millis(ms)),
            (None, None) => Some(Duration::from_millis(150)),
            (None, Some(_)) => None,
        },
        target: None,
        stop: None,
    };
    let mut report = Report::default();
    for (i, record) in games.iter().enumerate() {
        let number = i + 1;
        if args.game.is_some_and(|n| n != number) {
            continue;
        }
        options.check_rule(record.rule)?;
        scan_game(record, number, args, &options, &limits, &mut report)?;
    }
    if args.json {
        return Ok(serde_json::to_string(&report).expect("serialisable"));
    }
    let mut lines = Vec::new();
    for s in &report.suspects {
        lines.push(format!(
            "game {}: after {} moves {} proves a win in {} plies; after {} moves it does not ({}: {})",
            s.game,
            s.after_moves,
            s.side,
            s.plies,
            s.after_moves + 2,
            s.next.best_move.as_deref().unwrap_or("-"),
            s.next.score
        ));
    }
    lines.push(format!(
        "{} searched: {}, {}, {} not proven again{}",
        count(report.positions, "position"),
        count(report.proven_wins, "proven win"),
        count(report.proven_losses, "proven loss"),
        count(report.suspects.len(), "win"),
        if report.suspects.is_empty() {
            ""
        } else {
            " (search those positions again with more time: a win still missing is a false proof)"
        }
    ));
    Ok(lines.join("\n"))
}

/// Searches the positions of one game where the chosen player is to move, from the first
/// move after the opening, and notes each win not proven again two moves later.
fn scan_game(
    record: &GameRecord,
    number: usize,
    args: &ProofsArgs,
    options: &EngineOptions,
    limits: &Limits,
    report: &mut Report,
) -> Result<(), String> {
    let first = record
        .moves
        .iter()
        .position(|m| !m.is_opening())
        .unwrap_or(record.moves.len());
    // The last proven win of each colour: (moves played, plies).
    let mut last_win: [Option<(usize, u32)>; 2] = [None, None];
    for plies in first..record.moves.len() {
        let board = record
            .position(plies)
            .map_err(|e| format!("{} game {number}: {e}", args.file))?;
        if board.result().is_some() {
            break;
        }
        let side = board.side_to_move();
        let name = match side {
            Player::First => &record.black,
            Player::Second => &record.white,
        };
        if args.player.as_ref().is_some_and(|p| p != name) {
            continue;
        }
        let size = board.size();
        let mut engine = Engine::new(board, options.clone());
        if !engine.has_legal_move() {
            continue;
        }
        let analysis = engine.go(limits, |_| {});
        report.positions += 1;
        let forced = analysis.forced();
        match forced {
            Some(Forced::Win(_)) => report.proven_wins += 1,
            Some(Forced::Loss(_)) => report.proven_losses += 1,
            None => {}
        }
        if let Some((before, plies_to_win)) = last_win[side.index()] {
            if before + 2 == plies && !matches!(forced, Some(Forced::Win(_))) {
                report.suspects.push(Suspect {
                    game: number,
                    after_moves: before,
                    side: crate::position::colour_name(side),
                    plies: plies_to_win,
                    next: AnalysisJson::new(&analysis, size),
                });
            }
        }
        last_win[side.index()] = match forced {
            Some(Forced::Win(n)) => Some((plies, n)),
            _ => None,
        };
    }
    Ok(())
}

/// `n` and the noun, plural unless one ("1 game", "2 proven losses").
fn count(n: usize, noun: &str) -> String {
    match (n, noun.ends_with('s')) {
        (1, _) => format!("1 {noun}"),
        (_, true) => format!("{n} {noun}es"),
        (_, false) => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(count(1, "game"), "1 game");
        assert_eq!(count(0, "win"), "0 wins");
        assert_eq!(count(2, "proven loss"), "2 proven losses");
        assert_eq!(count(1, "proven loss"), "1 proven loss");
    }
}
