//! `wuzi review`: a game move by move, as an analysis partner reads it. The searching and
//! grading are `wuzi_gomoku::review`'s; this is the command line's reading of a game and its
//! text and JSON.

use crate::analyze::{AnalysisJson, EngineArgs};
use crate::output::count;
use crate::position::{colour_name, PositionArgs};
use clap::Args;
use serde::{Serialize, Serializer};
use serde_json::json;
use std::time::Duration;
use wuzi_gomoku::review::{summary, ReviewSpan, ReviewedMove, SideSummary};
use wuzi_gomoku::{Engine, Point, Rule, BLACK, WHITE};
use wuzi_search::Limits;

#[derive(Args, Debug)]
pub struct ReviewArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Think this many milliseconds on each position (the default: 300).
    #[arg(long, value_name = "MS", value_parser = crate::arg_check::at_least_one::<u64>)]
    pub time: Option<u64>,
    /// Search this many nodes on each position instead: the same game, reviewed from the
    /// same move, gives the same review. (The engine keeps its table from one position to
    /// the next, as in a game, so a verdict can differ from `wuzi analyze` of that position
    /// alone, or from a review started at another move.)
    #[arg(long, conflicts_with = "time", value_parser = crate::arg_check::at_least_one::<u64>)]
    pub nodes: Option<u64>,
    /// Review from this move on (1-based; the default: the first move after a record's
    /// opening stones; a record that is all opening is refused unless this is given).
    #[arg(long, value_name = "N", value_parser = crate::arg_check::at_least_one::<u32>)]
    pub from: Option<u32>,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Print one JSON object at the end instead of a line per move as each is graded.
    #[arg(long)]
    pub json: bool,
}

/// One move of the game, judged (the JSON of [`ReviewedMove`]).
#[derive(Serialize, Debug)]
pub struct ReviewedJson {
    /// The move's number in the game (1-based).
    pub number: usize,
    pub side: &'static str,
    #[serde(rename = "move")]
    pub played: String,
    /// The search of the position the move was played in.
    pub engine: AnalysisJson,
    /// The side's chance of winning before the move (the engine's best) and after it.
    pub chance_before: f64,
    pub chance_after: f64,
    /// The two as the text shows them: whole percent, 100% and 0% only for proven results.
    pub chance_before_text: String,
    pub chance_after_text: String,
    /// After the move, from the side's view: "win in N", "loss in N", a score, or how the
    /// game ended ("wins (five)", "loses (double-three)", "a draw").
    pub after: String,
    pub grade: &'static str,
    /// Why it is a blunder beyond the chance it gave away, when it is: a proven result let
    /// go or walked into, or a renju foul.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

impl ReviewedJson {
    pub fn new(m: &ReviewedMove, size: usize, rule: Rule) -> ReviewedJson {
        let [chance_before_text, chance_after_text] = m.chance_texts();
        ReviewedJson {
            number: m.number,
            side: colour_name(m.side),
            played: m.point.to_human(size),
            engine: AnalysisJson::new(&m.engine, size, rule),
            chance_before: m.chance_before,
            chance_after: m.chance_after,
            chance_before_text,
            chance_after_text,
            after: m.after_text(),
            grade: m.grade.name(),
            reason: m.reason,
        }
    }
}

#[derive(Serialize, Debug)]
struct Review {
    rule: &'static str,
    moves: Vec<ReviewedJson>,
    #[serde(serialize_with = "summary_json")]
    black: SideSummary,
    #[serde(serialize_with = "summary_json")]
    white: SideSummary,
}

/// A side's grades as JSON (the crate's type has no serde).
fn summary_json<S: Serializer>(s: &SideSummary, out: S) -> Result<S::Ok, S::Error> {
    json!({
        "moves": s.moves, "best": s.best, "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes, "blunders": s.blunders, "mean_loss": s.mean_loss,
    })
    .serialize(out)
}

pub fn review(args: &ReviewArgs) -> Result<String, String> {
    let (board, record) = args.position.position()?;
    let played: Vec<Point> = record.moves.iter().map(|m| m.point).collect();
    let opening = record.moves.iter().take_while(|m| m.is_opening()).count();
    if played.is_empty() {
        return Err(match args.position.record.plies {
            Some(0) => "no moves to review: --move 0 is the position before the first".into(),
            _ => "no moves to review: give a move list or a game record".into(),
        });
    }
    let first = match args.from {
        Some(n) => n as usize - 1,
        None if opening < played.len() => opening,
        // Opening stones are the match manager's, not the players': never graded unasked.
        None => return Err(ReviewSpan::opening_only(played.len(), "--from 1")),
    };
    if first >= played.len() {
        return Err(format!(
            "--from {}: the game has {} moves",
            first + 1,
            played.len()
        ));
    }
    let rule = board.rule();
    let mut options = args.engine.options()?;
    options.check_rule(rule)?;
    options.threads = 1;
    let limits = Limits {
        depth: None,
        nodes: args.nodes,
        time: match args.nodes {
            Some(_) => None,
            None => Some(Duration::from_millis(args.time.unwrap_or(300))),
        },
        target: None,
        stop: None,
    };
    let span = ReviewSpan {
        // The position before the first reviewed move (with any set-up stones of the record).
        start: record.position(first)?,
        moves: played[first..].to_vec(),
        first_number: first + 1,
    };
    let mut engine = Engine::new(span.start.clone(), options);
    let size = span.start.size();
    // The text prints each move as it is graded (a game takes seconds to minutes); the JSON
    // is one object at the end.
    let reviewed = span.review(&mut engine, &limits, None, |m| {
        if !args.json {
            crate::output::line(move_line(&ReviewedJson::new(m, size, rule)));
        }
    })?;
    if args.json {
        let report = report(&reviewed, size, rule);
        return Ok(serde_json::to_string(&report).expect("serialisable"));
    }
    let (black, white) = (summary(&reviewed, BLACK), summary(&reviewed, WHITE));
    Ok(summary_lines(&black, &white).join("\n"))
}

/// The graded moves and each side's summary, as the text and the JSON give them.
fn report(reviewed: &[ReviewedMove], size: usize, rule: Rule) -> Review {
    Review {
        rule: rule.name(),
        black: summary(reviewed, BLACK),
        white: summary(reviewed, WHITE),
        moves: reviewed
            .iter()
            .map(|m| ReviewedJson::new(m, size, rule))
            .collect(),
    }
}

/// How many of a game's first moves are still a record's `opening` stones, the game having
/// started from the moves `start`: those taken back, or replaced by other moves, are not.
pub fn opening_still_placed(now: &[Point], start: &[Point], opening: usize) -> usize {
    let same = now.iter().zip(start).take_while(|(a, b)| a == b).count();
    opening.min(same)
}

/// The limits of each position's search when a game in play is reviewed: a quarter of a
/// move's time (250 ms at `wuzi play`'s default second, as `wuzi review` gives 300 ms).
pub fn in_play_limits(move_limits: &Limits) -> Limits {
    Limits {
        time: move_limits
            .time
            .map(|t| (t / 4).max(Duration::from_millis(1))),
        ..move_limits.clone()
    }
}

/// `wuzi review`'s text for moves graded elsewhere (the line mode's `review`).
pub fn review_text(reviewed: &[ReviewedMove], size: usize, rule: Rule) -> String {
    text(&report(reviewed, size, rule))
}

/// A line per move (the engine's choice beside any move that was not it), then a summary
/// line per side.
fn text(report: &Review) -> String {
    let mut lines: Vec<String> = report.moves.iter().map(move_line).collect();
    lines.extend(summary_lines(&report.black, &report.white));
    lines.join("\n")
}

/// A graded move's line: number, side, move, the chances before and after, the grade, and
/// beside a move that was not the engine's choice that choice and its line.
fn move_line(m: &ReviewedJson) -> String {
    let mut line = format!(
        "{:>3}. {:<5} {:<4} {:>4} -> {:<4} {:<10}",
        m.number, m.side, m.played, m.chance_before_text, m.chance_after_text, m.grade
    );
    if m.grade != "best" {
        let best = m.engine.best_move.as_deref().unwrap_or("-");
        line.push_str(&format!(" best {best}"));
        if let Some(pv) = m.engine.pv.get(1..).filter(|pv| !pv.is_empty()) {
            line.push_str(&format!(
                " ({})",
                pv.iter().take(6).cloned().collect::<Vec<_>>().join(" ")
            ));
        }
    }
    if let Some(reason) = m.reason {
        line.push_str(&format!(": {reason}"));
    }
    if ["wins", "loses", "a draw"]
        .iter()
        .any(|end| m.after.starts_with(end))
    {
        line.push_str(&format!(" [{}]", m.after));
    }
    line.trim_end().to_string()
}

/// A summary line per side.
fn summary_lines(black: &SideSummary, white: &SideSummary) -> Vec<String> {
    let mut lines = Vec::new();
    for (name, s) in [("black", black), ("white", white)] {
        let inaccuracies = match s.inaccuracies {
            1 => "1 inaccuracy".to_string(),
            n => format!("{n} inaccuracies"),
        };
        lines.push(format!(
            "{name}: {}, {} best, {inaccuracies}, {}, {}; {:.1} points of winning chance lost a move",
            count(s.moves, "move"),
            s.best,
            count(s.mistakes, "mistake"),
            count(s.blunders, "blunder"),
            s.mean_loss
        ));
    }
    lines
}
