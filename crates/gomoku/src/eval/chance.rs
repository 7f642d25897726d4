//! What a score says about the game: the side to move's chance of winning. The learned
//! tables were fitted as a logistic regression of the game's result on the evaluation, so
//! their scale (units per log-odds, in each embedded file's header) turns a score back into
//! a probability. Reviews and evaluation bars use it; the search never does.

use crate::rules::Rule;
use wuzi_search::{Forced, Score};

/// Evaluation units per log-odds of winning under `rule`: the scale `wuzi tune` fitted with
/// the embedded tables ("scale S units per log-odds" in their files' headers). Renju's
/// values run about three times freestyle's for the same chances.
pub fn units_per_log_odds(rule: Rule) -> f64 {
    match rule {
        Rule::Freestyle => 384.2,
        Rule::Standard => 512.9,
        Rule::Renju => 1117.4,
    }
}

/// The side to move's chance of winning that `score` stands for under `rule`: 1 or 0 when
/// the score is proven, else the logistic of the score over the rule's scale.
pub fn win_chance(score: Score, rule: Rule) -> f64 {
    match score.forced() {
        Some(Forced::Win(_)) => 1.0,
        Some(Forced::Loss(_)) => 0.0,
        None => 1.0 / (1.0 + (-f64::from(score.value()) / units_per_log_odds(rule)).exp()),
    }
}

/// A chance as people read it, in whole percent: 100% and 0% are kept for `proven` results
/// (and a game's end), so an unproven chance stays within 1-99% however near the end of the
/// scale its score is ("nearly won" reads 99%).
pub fn chance_percent(chance: f64, proven: bool) -> String {
    format!("{}%", whole_percent(chance, proven))
}

/// The whole percent [`chance_percent`] shows.
pub fn whole_percent(chance: f64, proven: bool) -> i64 {
    let percent = (100.0 * chance).round() as i64;
    match proven {
        true => percent,
        false => percent.clamp(1, 99),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_proven_chance_reads_100_or_0() {
        assert_eq!(chance_percent(0.9999, false), "99%");
        assert_eq!(chance_percent(0.0001, false), "1%");
        assert_eq!(chance_percent(0.4949, false), "49%");
        assert_eq!(
            (chance_percent(1.0, true), chance_percent(0.0, true)),
            ("100%".into(), "0%".into())
        );
    }

    /// The scale each embedded file's header records is the one used here.
    #[test]
    fn the_scales_are_the_embedded_files() {
        for (rule, text) in super::super::weights::EMBEDDED {
            let header = text
                .lines()
                .find_map(|l| l.split(", scale ").nth(1))
                .expect("a scale in the header");
            let scale: f64 = header
                .split_whitespace()
                .next()
                .and_then(|s| s.parse().ok())
                .expect("a number");
            assert_eq!(scale, units_per_log_odds(rule), "{}", rule.name());
        }
    }

    #[test]
    fn proven_and_level_scores() {
        let rule = Rule::Renju;
        assert_eq!(win_chance(Score::win_in(7), rule), 1.0);
        assert_eq!(win_chance(Score::loss_in(2), rule), 0.0);
        assert_eq!(win_chance(Score::DRAW, rule), 0.5);
        let one = win_chance(Score::heuristic(1117), rule);
        assert!((one - 1.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-3, "{one}");
        assert!(win_chance(Score::heuristic(300), Rule::Freestyle) > 0.6);
    }
}
