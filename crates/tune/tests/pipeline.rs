//! The whole pipeline on a tiny data set: self-play, fit, weights file, and an engine that
//! plays with the result.

use wuzi_gomoku::eval::{evaluate_with, Weights};
use wuzi_gomoku::{Board, Engine, EngineOptions, EvalKind, Rule};
use wuzi_search::Limits;
use wuzi_tune::data::parse_all;
use wuzi_tune::fit::{fit, FitConfig};
use wuzi_tune::policy::fit_policy;
use wuzi_tune::selfplay::{selfplay, SelfplayConfig};

#[test]
fn selfplay_then_fit_gives_a_working_engine() {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut data = Vec::new();
        let config = SelfplayConfig {
            rule,
            games: 3,
            nodes: 300,
            seed: 5,
            eval: EvalKind::Classic,
            openings: None,
            weights: None,
        };
        let summary = selfplay(&config, &mut data, |_| {}).unwrap();
        assert_eq!(summary.games, 3);
        let samples = parse_all(std::str::from_utf8(&data).unwrap()).unwrap();
        assert_eq!(samples.len(), summary.positions);

        let fit_config = FitConfig {
            epochs: 30,
            holdout_every: 0,
            ..FitConfig::default()
        };
        let report = fit(&samples, rule, &fit_config, |_, _| {}).unwrap();
        assert!(report.scale > 0.0 && report.train > 0);

        // Half result, half search score, as the embedded weights of all three rules.
        let blended = FitConfig {
            result_share: 0.5,
            ..fit_config.clone()
        };
        let half = fit(&samples, rule, &blended, |_, _| {}).unwrap();
        assert!(half.fitted_loss.0.is_finite() && half.scale == report.scale);
        assert!(report.fitted_loss.0 <= report.classic_loss.0 + 0.05);

        // The file round-trips, and an engine with these weights plays.
        let policy = fit_policy(&samples, rule, 20, 6, Default::default(), 0);
        assert!(policy.positions > 0 && policy.loss.1 < policy.loss.0);
        let mut fitted = report.weights.clone();
        fitted.policy = policy.policy;
        let text = fitted.to_text("test");
        let weights = std::sync::Arc::new(Weights::parse(&text).unwrap());
        // An open three of the side to move is good for it.
        let mut board = Board::from_moves(15, rule, "h8 a1 i8 a15 j8 o1").unwrap();
        board.set_weights(weights.clone()).unwrap();
        let v = evaluate_with(&board, EvalKind::Learned);
        assert!(
            v > 0,
            "{rule:?}: {v}, classic {}",
            evaluate_with(&board, EvalKind::Classic)
        );
        let options = EngineOptions {
            table_bytes: 1 << 20,
            eval: EvalKind::Learned,
            order: EvalKind::Learned,
            ..EngineOptions::default()
        };
        let mut engine = Engine::new(board.clone(), options);
        let best = engine.go(&Limits::nodes(500), |_| {}).best_move.unwrap();
        assert!(board.is_empty(best));

        // The next round of the loop, without a rebuild: games played with the fitted tables.
        let next = SelfplayConfig {
            rule,
            games: 2,
            nodes: 300,
            seed: 5,
            eval: EvalKind::Learned,
            openings: None,
            weights: Some(weights),
        };
        let mut more = Vec::new();
        let summary = selfplay(&next, &mut more, |_| {}).unwrap();
        assert_eq!(summary.games, 2);
        let samples = parse_all(std::str::from_utf8(&more).unwrap()).unwrap();
        assert_eq!(samples.len(), summary.positions);
    }
}
