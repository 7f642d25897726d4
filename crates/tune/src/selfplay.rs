//! Self-play games for training data: balanced generated openings, a node-limited engine on
//! both sides (deterministic for a seed), every position after the opening labelled with the
//! game's result.

use crate::data::{Sample, PROVEN_SCORE, SIZE};
use std::io::Write;
use wuzi_gomocup::manager::openings::BalancedOpenings;
use wuzi_gomoku::{Board, Engine, EngineOptions, EvalKind, Player, Rule};
use wuzi_search::Limits;

/// What to play.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub rule: Rule,
    pub games: usize,
    pub nodes: u64,
    pub seed: u64,
    pub eval: EvalKind,
}

/// Totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SelfplaySummary {
    pub games: usize,
    pub positions: usize,
    /// Wins of Black, of White, and draws.
    pub black: usize,
    pub white: usize,
    pub draws: usize,
}

/// Plays the games and writes their positions to `out`; `progress` hears after each game.
pub fn selfplay(
    config: &SelfplayConfig,
    out: &mut dyn Write,
    mut progress: impl FnMut(&SelfplaySummary),
) -> Result<SelfplaySummary, String> {
    let mut openings = BalancedOpenings::new(SIZE, config.rule, config.seed);
    let options = EngineOptions {
        table_bytes: 8 << 20,
        eval: config.eval,
        ..EngineOptions::default()
    };
    let mut summary = SelfplaySummary::default();
    let mut positions = Vec::new();
    for _ in 0..config.games {
        let Some(opening) = openings.next_opening() else {
            break;
        };
        let mut board = Board::new(SIZE, config.rule).map_err(|e| e.to_string())?;
        for &p in &opening {
            board.try_play(p)?;
        }
        let mut engine = Engine::new(board, options.clone());
        positions.clear();
        let winner = loop {
            if let Some(r) = engine.board().result() {
                break r.winner;
            }
            let analysis = engine.go(&Limits::nodes(config.nodes), |_| {});
            let Some(best) = analysis.best_move else {
                // Renju: every empty point is forbidden for Black, who loses, as `wuzi match`
                // rules it (the game records agree with the match results).
                break Some(Player::Second);
            };
            let score = match analysis.forced() {
                Some(_) if analysis.score.value() > 0 => PROVEN_SCORE,
                Some(_) => -PROVEN_SCORE,
                None => analysis.score.value(),
            };
            positions.push((
                engine.board().moves().to_vec(),
                engine.board().side_to_move(),
                score,
            ));
            engine.play(best)?;
        };
        for (moves, side, score) in positions.drain(..) {
            let result = match winner {
                None => 0.5,
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
            };
            let line = Sample {
                rule: config.rule,
                result,
                score,
                moves,
            }
            .to_line();
            writeln!(out, "{line}").map_err(|e| format!("cannot write the data: {e}"))?;
            summary.positions += 1;
        }
        summary.games += 1;
        match winner {
            Some(Player::First) => summary.black += 1,
            Some(Player::Second) => summary.white += 1,
            None => summary.draws += 1,
        }
        progress(&summary);
    }
    out.flush()
        .map_err(|e| format!("cannot write the data: {e}"))?;
    Ok(summary)
}
