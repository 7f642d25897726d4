//! The Texel fit: the learned evaluation is linear in its terms ([`features`]), so fitting it
//! to game results is a logistic regression, `P(win) = sigmoid(eval / scale)`.
//!
//! The scale is fitted first for the classic evaluation and then held (or given, `scale`), so
//! the learned weights come out in the classic's units (the search's margins assume them).
//! The weights start from the classic evaluation written as tables (or from given weights,
//! `start`) and an L2 term holds them near it, so codes the games rarely show keep sensible
//! values.

use crate::data::Sample;
use wuzi_gomoku::eval::{
    classic_weights, evaluate_classic, features, renju_black_dead, shapes_of, Feature, Weights,
    CODES, EVAL_FRACTION, MAX_VALUE,
};
use wuzi_gomoku::Rule;

/// Weights per rule: 4 tables of `CODES` and 2 tempo terms.
const PARAMS: usize = 4 * CODES + 2;

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    pub epochs: usize,
    /// Adam's step, in evaluation units.
    pub rate: f64,
    /// Pull towards the starting (classic) weights, per position. 1e-4 plays better than a
    /// looser fit with a lower held-out loss: 1e-6 (1000 epochs) took freestyle's held-out loss
    /// from 0.615 to 0.554 but scored +16 ± 31 Elo against classic where 1e-4 scored
    /// +104 ± 34 (400 games, 10k nodes).
    pub l2: f64,
    /// The share of the game's result in each position's target; the rest is the search's
    /// score as a win probability (1: the result alone, the plain Texel method).
    pub result_share: f64,
    /// Positions with fewer stones are left out (the opening stones are random).
    pub min_stones: usize,
    /// One game in this many is held out to measure the fit on unseen games (0: none).
    pub holdout_every: usize,
    /// Evaluation units per unit of log-odds; `None` fits it for the classic evaluation on
    /// the data. Holding it at the embedded weights' scale keeps a refit in the units the
    /// search's margins were tuned in.
    pub scale: Option<f64>,
    /// Where the fit starts and what `l2` pulls it towards (default: the classic evaluation
    /// written as tables): a refit of the embedded weights on new games stays near them.
    pub start: Option<Weights>,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            epochs: 400,
            rate: 1.0,
            l2: 1e-4,
            result_share: 1.0,
            min_stones: 6,
            holdout_every: 10,
            scale: None,
            start: None,
        }
    }
}

/// What the fit found. Losses are the mean binary cross-entropy of the result.
#[derive(Clone, Debug)]
pub struct FitReport {
    pub rule: Rule,
    pub train: usize,
    pub holdout: usize,
    /// Evaluation units per unit of log-odds, fitted for the classic evaluation (or given).
    pub scale: f64,
    /// (train, holdout) loss of the classic evaluation, of the fitted weights (rounded).
    pub classic_loss: (f64, f64),
    pub fitted_loss: (f64, f64),
    pub weights: Weights,
}

/// One position as the fit sees it: its terms merged by index, its classic evaluation.
struct Row {
    terms: Vec<(u16, f32)>,
    classic: f64,
    /// What the fit aims at: the result, or a blend of it and the search's score.
    result: f64,
    score: f64,
}

fn rows(samples: &[Sample], rule: Rule, config: &FitConfig) -> (Vec<Row>, Vec<Row>) {
    let (mut train, mut holdout) = (Vec::new(), Vec::new());
    let mut f: Vec<Feature> = Vec::new();
    for s in samples.iter().filter(|s| s.rule == rule) {
        if s.moves.len() < config.min_stones {
            continue;
        }
        let board = s.board();
        let me = board.side_to_move();
        // Decided positions teach nothing about the evaluation: the search settles them.
        if board.result().is_some()
            || board.threats(me).five > 0
            || board.threats(me.opponent()).five > 0
        {
            continue;
        }
        features(&board, &mut f);
        f.sort_by_key(|x| x.index);
        let mut terms: Vec<(u16, f32)> = Vec::new();
        for x in &f {
            match terms.last_mut() {
                Some((i, c)) if *i == x.index => *c += x.sign as f32,
                _ => terms.push((x.index, x.sign as f32)),
            }
        }
        let row = Row {
            terms,
            classic: evaluate_classic(&board) as f64,
            result: s.result,
            score: s.score as f64,
        };
        if s.held_out(config.holdout_every) {
            holdout.push(row);
        } else {
            train.push(row);
        }
    }
    (train, holdout)
}

/// A position's target: `share` of the game's result, the rest the search's score as a win
/// probability on the classic evaluation's scale.
fn target(result: f64, score: f64, scale: f64, share: f64) -> f64 {
    let share = share.clamp(0.0, 1.0);
    share * result + (1.0 - share) * sigmoid(score / scale)
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn bce(p: f64, y: f64) -> f64 {
    let p = p.clamp(1e-9, 1.0 - 1e-9);
    -(y * p.ln() + (1.0 - y) * (1.0 - p).ln())
}

fn mean_loss(rows: &[Row], scale: f64, eval: impl Fn(&Row) -> f64) -> f64 {
    if rows.is_empty() {
        return f64::NAN;
    }
    rows.iter()
        .map(|r| bce(sigmoid(eval(r) / scale), r.result))
        .sum::<f64>()
        / rows.len() as f64
}

fn dot(row: &Row, w: &[f64]) -> f64 {
    row.terms
        .iter()
        .map(|&(i, c)| w[i as usize] * c as f64)
        .sum()
}

/// The range a fitted scale is searched in, in evaluation units per log-odds: a scale at
/// either end was not fitted (too few positions, or nearly all decided).
pub const SCALE_RANGE: (f64, f64) = (5.0, 5000.0);

/// The scale that fits the classic evaluation best (a search over log-scale, refined).
fn fit_scale(rows: &[Row]) -> f64 {
    let loss = |s: f64| mean_loss(rows, s, |r| r.classic);
    let (mut lo, mut hi) = (SCALE_RANGE.0.ln(), SCALE_RANGE.1.ln());
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if loss(a.exp()) < loss(b.exp()) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The weights as the fit's vector, in evaluation units (the tables keep sixteenths).
fn to_vector(w: &Weights) -> Vec<f64> {
    let unit = |x: i32| x as f64 / EVAL_FRACTION as f64;
    let mut v = vec![0.0; PARAMS];
    for t in 0..4 {
        for code in 0..CODES {
            v[t * CODES + code] = unit(w.tables[t / 2][code][t % 2]);
        }
    }
    v[4 * CODES] = unit(w.tempo[0]);
    v[4 * CODES + 1] = unit(w.tempo[1]);
    v
}

fn to_weights(v: &[f64], rule: Rule) -> Weights {
    let f = EVAL_FRACTION as f64;
    let r = |x: f64| {
        (x * f)
            .round()
            .clamp(-(MAX_VALUE as f64) * f, MAX_VALUE as f64 * f) as i32
    };
    let mut w = Weights::zero(rule);
    for t in 0..4 {
        for code in 0..CODES {
            w.tables[t / 2][code][t % 2] = r(v[t * CODES + code]);
        }
    }
    w.tempo = [r(v[4 * CODES]), r(v[4 * CODES + 1])];
    w.clear_dead_codes();
    w
}

/// Fits the weights of `rule` to the samples of that rule; `progress` hears (epoch, loss).
pub fn fit(
    samples: &[Sample],
    rule: Rule,
    config: &FitConfig,
    mut progress: impl FnMut(usize, f64),
) -> Result<FitReport, String> {
    let (mut train, mut holdout) = rows(samples, rule, config);
    if train.is_empty() {
        return Err(format!("no usable {} positions to fit", rule.name()));
    }
    let scale = config.scale.unwrap_or_else(|| fit_scale(&train));
    if config.result_share < 1.0 {
        for row in train.iter_mut().chain(holdout.iter_mut()) {
            row.result = target(row.result, row.score, scale, config.result_share);
        }
    }
    let start = match &config.start {
        Some(w) if w.rule != rule => {
            return Err(format!(
                "the starting weights are for {}, not {}",
                w.rule.name(),
                rule.name()
            ))
        }
        Some(w) => to_vector(w),
        None => to_vector(&classic_weights(rule)),
    };
    // Renju: Black's foul points stay worth nothing.
    let frozen: Vec<bool> = (0..PARAMS)
        .map(|i| {
            rule == Rule::Renju
                && i < 2 * CODES
                && shapes_of(i % CODES).is_some_and(renju_black_dead)
        })
        .collect();
    // A term that appears many times per position moves the evaluation by that many steps:
    // each weight's step is divided by the root-mean-square count of its term, so every step
    // changes the evaluation by about `rate`.
    let mut step = vec![0.0; PARAMS];
    for row in &train {
        for &(i, c) in &row.terms {
            step[i as usize] += (c * c) as f64;
        }
    }
    for s in step.iter_mut() {
        *s = config.rate / (*s / train.len() as f64).sqrt().max(1.0);
    }
    let mut w = start.clone();
    let (mut m, mut v) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    let (b1, b2, eps) = (0.9, 0.999, 1e-8);
    let n = train.len() as f64;
    let mut grad = vec![0.0; PARAMS];
    for epoch in 1..=config.epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut loss = 0.0;
        for row in &train {
            let p = sigmoid(dot(row, &w) / scale);
            loss += bce(p, row.result);
            let g = (p - row.result) / scale / n;
            for &(i, c) in &row.terms {
                grad[i as usize] += g * c as f64;
            }
        }
        for i in 0..PARAMS {
            if frozen[i] {
                continue;
            }
            let g = grad[i] + config.l2 * (w[i] - start[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - f64::powi(b1, epoch as i32));
            let vh = v[i] / (1.0 - f64::powi(b2, epoch as i32));
            w[i] -= step[i] * mh / (vh.sqrt() + eps);
        }
        progress(epoch, loss / n);
    }
    let weights = to_weights(&w, rule);
    let rounded = to_vector(&weights);
    let fitted = |rows: &[Row]| mean_loss(rows, scale, |r| dot(r, &rounded));
    let classic = |rows: &[Row]| mean_loss(rows, scale, |r| r.classic);
    Ok(FitReport {
        rule,
        train: train.len(),
        holdout: holdout.len(),
        scale,
        classic_loss: (classic(&train), classic(&holdout)),
        fitted_loss: (fitted(&train), fitted(&holdout)),
        weights,
    })
}

#[cfg(test)]
mod tests {
    use super::target;

    #[test]
    fn the_target_blends_the_result_with_the_score() {
        assert_eq!(target(1.0, -500.0, 400.0, 1.0), 1.0);
        assert_eq!(target(0.0, 0.0, 400.0, 0.0), 0.5);
        assert_eq!(target(1.0, 0.0, 400.0, 0.5), 0.75);
        assert!((target(0.0, 400.0, 400.0, 0.0) - 0.731_058_6).abs() < 1e-6);
        assert_eq!(
            target(1.0, 0.0, 400.0, 7.0),
            1.0,
            "shares are clamped to 0..=1"
        );
    }
}
