//! `wuzi show`: a position, its threats, its result and (renju) Black's forbidden points.

use crate::position::{colour_name, PositionArgs};
use clap::{Args, ValueEnum};
use serde::Serialize;
use wuzi_gomoku::record::GameRecord;
use wuzi_gomoku::{describe, render, Board, Point};

#[derive(Args, Debug)]
pub struct ShowArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Print one JSON object instead of the board (the same as `--format json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// What to print: the board as text, one JSON object, or the game as an SGF record.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Sgf,
}

#[derive(Serialize)]
struct Threats {
    five: Vec<String>,
    open_four: Vec<String>,
    four: Vec<String>,
}

#[derive(Serialize)]
struct Shown {
    size: usize,
    rule: &'static str,
    to_move: &'static str,
    /// null while the game goes on; "black", "white" or "draw".
    result: Option<&'static str>,
    /// Why the game ended: "five", "overline", "double-four", "double-three", "board-full".
    reason: Option<&'static str>,
    moves: Vec<String>,
    last_move: Option<String>,
    black: Vec<String>,
    white: Vec<String>,
    /// Points where each side would make a five, an open four or another four.
    threats: [Threats; 2],
    /// Renju, Black to move: the points Black may not play.
    forbidden: Vec<String>,
    /// Renju, whoever is to move: Black's forbidden points as the stones stand, each with
    /// its foul.
    fouls: Vec<FoulPoint>,
    /// Renju, Black to move, and every empty point is forbidden.
    no_legal_move: bool,
}

/// A point where Black may not play, and why.
#[derive(Serialize)]
struct FoulPoint {
    point: String,
    /// "double-three", "double-four" or "overline".
    foul: &'static str,
}

/// What a record says beside its moves: the players, and a result the board does not show
/// (a game lost on time or resigned; a record cut at `--move` has none).
fn record_lines(record: &GameRecord, board: &Board) -> Vec<String> {
    // A record's text is anyone's: no control character (an escape sequence) reaches the
    // terminal.
    use wuzi_gomocup::printable;
    let mut lines = Vec::new();
    if !record.black.is_empty() || !record.white.is_empty() {
        let name = |n: &str| match n {
            "" => "?".to_string(),
            n => printable(n),
        };
        lines.push(format!(
            "players: {} (black), {} (white)",
            name(&record.black),
            name(&record.white)
        ));
    }
    if let Some(recorded) = record.result {
        if board.result().map(|r| r.outcome()) != Some(recorded) {
            let why = match record.reason.as_str() {
                "" => String::new(),
                reason => format!(" ({})", printable(reason)),
            };
            lines.push(format!(
                "recorded result: {}{why}",
                crate::record_file::outcome_text(recorded)
            ));
        }
    }
    lines
}

pub fn show(args: &ShowArgs) -> Result<String, String> {
    let (mut board, record) = args.position.position()?;
    let format = if args.json { Format::Json } else { args.format };
    match format {
        Format::Text => {
            let mut text = render(&mut board).trim_end().to_string();
            for line in record_lines(&record, &board) {
                text.push('\n');
                text.push_str(&line);
            }
            return Ok(text);
        }
        Format::Sgf => return Ok(record.to_sgf().trim_end().to_string()),
        Format::Json => {}
    }
    let d = describe(&mut board);
    let n = d.size;
    let names = |points: &[Point]| points.iter().map(|p| p.to_human(n)).collect::<Vec<_>>();
    let threats = |i: usize| Threats {
        five: names(&d.threats[i].five),
        open_four: names(&d.threats[i].open_four),
        four: names(&d.threats[i].four),
    };
    let shown = Shown {
        size: n,
        rule: d.rule.name(),
        to_move: colour_name(d.to_move),
        result: d.result.map(|r| r.winner.map_or("draw", colour_name)),
        reason: d.result.map(|r| r.reason.name()),
        moves: names(&d.moves),
        last_move: d.last_move.map(|p| p.to_human(n)),
        black: names(&d.black),
        white: names(&d.white),
        threats: [threats(0), threats(1)],
        forbidden: d.forbidden().iter().map(|(p, _)| p.to_human(n)).collect(),
        fouls: d
            .black_fouls
            .iter()
            .map(|(p, f)| FoulPoint {
                point: p.to_human(n),
                foul: f.name(),
            })
            .collect(),
        no_legal_move: d.no_legal_move,
    };
    Ok(serde_json::to_string(&shown).expect("serialisable"))
}
