//! `wuzi review`: a game move by move, as an analysis partner reads it. Each position is
//! searched once; a move's worth is the side's chance of winning before it (the search of
//! its position) against after it (the search of the next position, seen from the other
//! side), and the drop grades it, as chess reviews grade moves by lost winning chances.

use crate::analyze::{engine_options, AnalysisJson};
use crate::output::count;
use crate::position::{colour_name, PositionArgs};
use clap::Args;
use serde::Serialize;
use std::time::Duration;
use wuzi_gomoku::{win_chance, Analysis, Board, Engine, Point};
use wuzi_search::{Forced, Limits, Outcome, Score};

#[derive(Args, Debug)]
pub struct ReviewArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Think this many milliseconds on each position (the default: 300).
    #[arg(long, value_name = "MS")]
    pub time: Option<u64>,
    /// Search this many nodes on each position instead: the same game gives the same review.
    #[arg(long, conflicts_with = "time")]
    pub nodes: Option<u64>,
    /// Review from this move on (1-based; the default: the first move after a record's
    /// opening stones, or the first move).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub from: Option<u32>,
    /// Memory for the engine's tables, in MiB.
    #[arg(long, default_value_t = 64, value_parser = crate::position::hash_mib)]
    pub hash_mb: usize,
    /// Engine switches as in `wuzi match`.
    #[arg(long, default_value = "")]
    pub engine: String,
    /// Print one JSON object at the end instead of a line per move.
    #[arg(long)]
    pub json: bool,
}

/// How much of the side's chance of winning a move gave away, in the grades chess reviews
/// use (their thresholds: 5, 10 and 15 points of winning chance).
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Grade {
    /// The engine's own choice.
    Best,
    /// Less than 5 points given away.
    Good,
    Inaccuracy,
    Mistake,
    /// 15 points or more, or a proven win let go, or a proven loss walked into.
    Blunder,
}

const INACCURACY: f64 = 0.05;
const MISTAKE: f64 = 0.10;
const BLUNDER: f64 = 0.15;

impl Grade {
    fn name(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
        }
    }
}

/// One move of the game, judged.
#[derive(Serialize, Debug)]
struct Reviewed {
    /// The move's number in the game (1-based).
    number: usize,
    side: &'static str,
    #[serde(rename = "move")]
    played: String,
    /// The search of the position the move was played in.
    engine: AnalysisJson,
    /// The side's chance of winning before the move (the engine's best) and after it.
    chance_before: f64,
    chance_after: f64,
    /// After the move, from the side's view: "win in N", "loss in N", a score, or how the
    /// game ended.
    after: String,
    grade: Grade,
    /// Why a proven result made it a blunder, when one did.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'static str>,
}

#[derive(Serialize, Debug, Default)]
struct SideSummary {
    moves: usize,
    best: usize,
    inaccuracies: usize,
    mistakes: usize,
    blunders: usize,
    /// The mean chance of winning given away a move, in points (0 to 100).
    mean_loss: f64,
}

#[derive(Serialize, Debug)]
struct Review {
    rule: &'static str,
    moves: Vec<Reviewed>,
    black: SideSummary,
    white: SideSummary,
}

pub fn review(args: &ReviewArgs) -> Result<String, String> {
    let (board, record) = args.position.position()?;
    let played: Vec<Point> = record.moves.iter().map(|m| m.point).collect();
    let opening = record.moves.iter().take_while(|m| m.is_opening()).count();
    let first = match args.from {
        Some(n) => n as usize - 1,
        None if opening < played.len() => opening,
        None => 0,
    };
    if played.is_empty() {
        return Err("no moves to review: give a move list or a game record".into());
    }
    if first >= played.len() {
        return Err(format!(
            "--from {}: the game has {} moves",
            first + 1,
            played.len()
        ));
    }
    let rule = board.rule();
    let mut options = engine_options(&args.engine, args.hash_mb)?;
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
    // The position before the first reviewed move (with any set-up stones of the record).
    let mut position = record.position(first)?;
    let mut engine = Engine::new(position.clone(), options);
    let mut before = engine.go(&limits, |_| {});
    let mut reviewed = Vec::new();
    for (i, &mv) in played.iter().enumerate().skip(first) {
        let side = position.side_to_move();
        position
            .try_play(mv)
            .map_err(|e| format!("move {}: {e}", i + 1))?;
        let (after_score, after_text, next) = match position.outcome() {
            Some(outcome) => {
                let score = match outcome {
                    Outcome::Win(p) if p == side => Score::win_in(0),
                    Outcome::Win(_) => Score::loss_in(0),
                    Outcome::Draw => Score::DRAW,
                };
                let reason = position.result().map(|r| r.reason.name()).unwrap_or("over");
                let text = match outcome {
                    Outcome::Win(p) if p == side => format!("wins ({reason})"),
                    Outcome::Win(_) => format!("loses ({reason})"),
                    Outcome::Draw => "a draw".to_string(),
                };
                (score, text, None)
            }
            None => {
                engine.set_board(position.clone());
                let next = engine.go(&limits, |_| {});
                let score = seen_by_mover(next.score);
                (score, score.to_string(), Some(next))
            }
        };
        reviewed.push(judge(
            i + 1,
            mv,
            &before,
            (after_score, after_text),
            &position,
        ));
        match next {
            Some(next) => before = next,
            None => break,
        }
    }
    let report = Review {
        rule: rule.name(),
        black: summary(&reviewed, "black"),
        white: summary(&reviewed, "white"),
        moves: reviewed,
    };
    if args.json {
        return Ok(serde_json::to_string(&report).expect("serialisable"));
    }
    Ok(text(&report))
}

/// The next position's score (the opponent to move) from the side that just moved: a loss in
/// N plies for the opponent is a win in N + 1 for the mover.
fn seen_by_mover(score: Score) -> Score {
    match score.forced() {
        Some(Forced::Win(n)) => Score::loss_in(n + 1),
        Some(Forced::Loss(n)) => Score::win_in(n + 1),
        None => -score,
    }
}

/// Grades move `number`, `mv`, played where the engine found `before`, given the score after
/// it from the mover's view (and its text) and the position it left.
fn judge(
    number: usize,
    mv: Point,
    before: &Analysis,
    (after, after_text): (Score, String),
    left: &Board,
) -> Reviewed {
    let (rule, size) = (left.rule(), left.size());
    // The mover is the side not to move in the position left (a finished game included).
    let side = left.stone(mv).unwrap_or(left.side_to_move().opponent());
    let chance_before = win_chance(before.score, rule);
    let chance_after = win_chance(after, rule);
    let lost = chance_before - chance_after;
    let won_before = matches!(before.forced(), Some(Forced::Win(_)));
    let lost_before = matches!(before.forced(), Some(Forced::Loss(_)));
    let (grade, reason) = if before.best_move == Some(mv) {
        (Grade::Best, None)
    } else if won_before && !matches!(after.forced(), Some(Forced::Win(_))) {
        (Grade::Blunder, Some("lets a proven win go"))
    } else if !lost_before && matches!(after.forced(), Some(Forced::Loss(_))) {
        (Grade::Blunder, Some("walks into a proven loss"))
    } else if lost >= BLUNDER {
        (Grade::Blunder, None)
    } else if lost >= MISTAKE {
        (Grade::Mistake, None)
    } else if lost >= INACCURACY {
        (Grade::Inaccuracy, None)
    } else {
        (Grade::Good, None)
    };
    Reviewed {
        number,
        side: colour_name(side),
        played: mv.to_human(size),
        engine: AnalysisJson::new(before, size, rule),
        chance_before,
        chance_after,
        after: after_text,
        grade,
        reason,
    }
}

fn summary(moves: &[Reviewed], side: &str) -> SideSummary {
    let mine: Vec<&Reviewed> = moves.iter().filter(|m| m.side == side).collect();
    let count = |g: Grade| mine.iter().filter(|m| m.grade == g).count();
    let loss: f64 = mine
        .iter()
        .map(|m| (m.chance_before - m.chance_after).max(0.0))
        .sum();
    SideSummary {
        moves: mine.len(),
        best: count(Grade::Best),
        inaccuracies: count(Grade::Inaccuracy),
        mistakes: count(Grade::Mistake),
        blunders: count(Grade::Blunder),
        mean_loss: if mine.is_empty() {
            0.0
        } else {
            100.0 * loss / mine.len() as f64
        },
    }
}

/// A line per move (the engine's choice beside any move that was not it), then a summary
/// line per side.
fn text(report: &Review) -> String {
    let percent = |c: f64| format!("{:.0}%", 100.0 * c);
    let mut lines: Vec<String> = report
        .moves
        .iter()
        .map(|m| {
            let mut line = format!(
                "{:>3}. {:<5} {:<4} {:>4} -> {:<4} {:<10}",
                m.number,
                m.side,
                m.played,
                percent(m.chance_before),
                percent(m.chance_after),
                m.grade.name()
            );
            if m.grade != Grade::Best {
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
            if m.after.starts_with("wins") || m.after.starts_with("loses") {
                line.push_str(&format!(" [{}]", m.after));
            }
            line.trim_end().to_string()
        })
        .collect();
    for (name, s) in [("black", &report.black), ("white", &report.white)] {
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
    lines.join("\n")
}
