//! How much the search's score moves from one completed depth to the next: a well-valued
//! position keeps its score as the search deepens. The mean absolute change between
//! consecutive depths (both at least `MIN_DEPTH`, neither proven) over middle-game positions.

use crate::data::Sample;
use std::sync::Arc;
use std::time::Duration;
use wuzi_gomoku::{Engine, EngineOptions, EvalKind, Rule, Weights};
use wuzi_search::Limits;

/// Depths below this are too shallow to say anything.
pub const MIN_DEPTH: u32 = 5;

/// The mean change, the number of depth pairs it is over, and the positions searched.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Swing {
    pub mean: f64,
    pub pairs: usize,
    pub positions: usize,
}

/// Searches every `stride`-th middle-game position (at least `min_stones` stones) of `rule`,
/// at most `count` of them, for `time` each with the evaluation `eval`.
pub fn swing(
    samples: &[Sample],
    rule: Rule,
    eval: EvalKind,
    weights: Option<Arc<Weights>>,
    count: usize,
    min_stones: usize,
    time: Duration,
) -> Swing {
    let picked: Vec<&Sample> = samples
        .iter()
        .filter(|s| s.rule == rule && s.moves.len() >= min_stones && s.score.abs() < 1000)
        .collect();
    let stride = (picked.len() / count.max(1)).max(1);
    let options = EngineOptions {
        table_bytes: 16 << 20,
        eval,
        weights,
        ..EngineOptions::default()
    };
    let (mut total, mut pairs, mut positions) = (0.0, 0, 0);
    for s in picked.iter().step_by(stride).take(count) {
        let mut engine = Engine::new(s.board(), options.clone());
        let mut last: Option<(u32, i32)> = None;
        engine.go(&Limits::time(time), |info| {
            if info.score.is_decided() || info.depth < MIN_DEPTH {
                last = None;
                return;
            }
            let v = info.score.value();
            if let Some((d, prev)) = last {
                if info.depth == d + 1 {
                    total += (v - prev).abs() as f64;
                    pairs += 1;
                }
            }
            last = Some((info.depth, v));
        });
        positions += 1;
    }
    Swing {
        mean: total / pairs.max(1) as f64,
        pairs,
        positions,
    }
}
