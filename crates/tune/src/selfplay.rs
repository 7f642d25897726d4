//! Self-play games for training data: balanced generated openings (or a file's, in order), a
//! node-limited engine on both sides (deterministic for a seed), every position after the
//! opening labelled with the game's result.

use crate::data::{data_score, Sample, SIZE};
use std::io::Write;
use std::sync::Arc;
use wuzi_gomocup::manager::openings::BalancedOpenings;
use wuzi_gomoku::{Board, Engine, EngineOptions, EvalKind, Player, Point, Rule, Weights};
use wuzi_search::Limits;

/// What to play.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    pub rule: Rule,
    pub games: usize,
    pub nodes: u64,
    pub seed: u64,
    pub eval: EvalKind,
    /// Openings to play instead of generated ones, each once, in order (`games` at most).
    pub openings: Option<Vec<Vec<Point>>>,
    /// Tables to play instead of the embedded ones (a fit's, for the next round of data).
    pub weights: Option<Arc<Weights>>,
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
    let mut generated = BalancedOpenings::new(SIZE, config.rule, config.seed);
    let mut listed = config.openings.as_deref().map(<[_]>::iter);
    let options = EngineOptions {
        table_bytes: 8 << 20,
        eval: config.eval,
        weights: config.weights.clone(),
        ..EngineOptions::default()
    };
    let mut summary = SelfplaySummary::default();
    let mut positions = Vec::new();
    for _ in 0..config.games {
        let next = match &mut listed {
            Some(list) => list.next().cloned(),
            None => generated.next_opening(),
        };
        let Some(opening) = next else {
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
            let score = data_score(&analysis);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::parse_all;
    use wuzi_gomoku::parse_moves;

    #[test]
    fn listed_openings_are_played_each_once_in_order() {
        let openings: Vec<Vec<Point>> = ["h8 h9 i8 g10", "e5 k11 f6 j10"]
            .iter()
            .map(|m| parse_moves(m, SIZE).unwrap())
            .collect();
        let config = SelfplayConfig {
            rule: Rule::Renju,
            games: 5,
            nodes: 200,
            seed: 1,
            eval: EvalKind::Classic,
            weights: None,
            openings: Some(openings.clone()),
        };
        let mut data = Vec::new();
        let summary = selfplay(&config, &mut data, |_| {}).unwrap();
        assert_eq!(summary.games, 2);
        let samples = parse_all(std::str::from_utf8(&data).unwrap()).unwrap();
        assert_eq!(samples[0].moves, openings[0]);
        assert_eq!(samples.last().unwrap().moves[..4], openings[1]);
    }
}
