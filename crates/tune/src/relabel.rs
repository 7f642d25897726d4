//! Better labels for positions already played: each position of a data file searched again,
//! deeper, and written with that search's score (the game's result kept). A 3,000-node
//! game's score says little about a position; a deeper search of the same position says more.

use crate::data::{data_score, Sample};
use std::io::Write;
use std::sync::Arc;
use wuzi_gomoku::{Engine, EngineOptions, EvalKind, Weights};
use wuzi_search::Limits;

/// Searches every sample of `samples` with `nodes` nodes (a fresh table each, so each score
/// is repeatable alone), with `eval` and `weights` (or the embedded tables), and writes it
/// with the new score to `out`; `progress` hears the count written.
pub fn relabel(
    samples: &[Sample],
    nodes: u64,
    eval: EvalKind,
    weights: Option<Arc<Weights>>,
    out: &mut dyn Write,
    mut progress: impl FnMut(usize),
) -> Result<usize, String> {
    let options = EngineOptions {
        table_bytes: 4 << 20,
        eval,
        weights,
        ..EngineOptions::default()
    };
    let mut engine: Option<Engine> = None;
    for (done, sample) in samples.iter().enumerate() {
        let board = sample.board();
        // One engine for the whole run, its tables cleared for each position.
        let engine = match &mut engine {
            Some(e) => {
                e.set_board(board);
                e.clear_tables();
                e
            }
            slot => slot.insert(Engine::new(board, options.clone())),
        };
        let analysis = engine.go(&Limits::nodes(nodes), |_| {});
        let score = data_score(&analysis);
        let line = Sample {
            score,
            ..sample.clone()
        }
        .to_line();
        writeln!(out, "{line}").map_err(|e| format!("cannot write the data: {e}"))?;
        progress(done + 1);
    }
    out.flush()
        .map_err(|e| format!("cannot write the data: {e}"))?;
    Ok(samples.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{parse_all, PROVEN_SCORE};

    /// What a fresh engine's search of `sample`'s position at `nodes` nodes scores.
    fn fresh_score(sample: &Sample, nodes: u64) -> i32 {
        let board = sample.board();
        let options = EngineOptions {
            table_bytes: 4 << 20,
            eval: EvalKind::Learned,
            ..EngineOptions::default()
        };
        let analysis = Engine::new(board, options).go(&Limits::nodes(nodes), |_| {});
        assert!(analysis.forced().is_none(), "a position still open");
        analysis.score.value()
    }

    #[test]
    fn each_position_gets_a_fresh_deeper_score_and_keeps_its_result() {
        let text = "freestyle W 12 h8 i9 j8 k8 i7 k9 j6 k5\n\
                    renju L -40 h8 i9 i8 g8 j10 h10\n\
                    freestyle D 0 h8 a1 i8 a3 j8 a5\n";
        let samples = parse_all(text).unwrap();
        let mut out = Vec::new();
        let n = relabel(&samples, 2000, EvalKind::Learned, None, &mut out, |_| {}).unwrap();
        assert_eq!(n, 3);
        let relabelled = parse_all(std::str::from_utf8(&out).unwrap()).unwrap();
        for (old, new) in samples.iter().zip(&relabelled) {
            assert_eq!(
                (old.rule, old.result, &old.moves),
                (new.rule, new.result, &new.moves)
            );
        }
        // Each score is what a search of that position alone finds: the table was cleared.
        assert_eq!(relabelled[0].score, fresh_score(&samples[0], 2000));
        assert_eq!(relabelled[1].score, fresh_score(&samples[1], 2000));
        // Black's open three with nothing against it is a proven win.
        assert_eq!(relabelled[2].score, PROVEN_SCORE);
    }
}
