//! How well a move ordering predicts the search: for each position of a data file whose next
//! line continues the same game, where the move the search chose ranks in the ordering.

use crate::data::{Sample, PROVEN_SCORE};
use std::sync::Arc;
use wuzi_gomoku::eval::{
    Policy, PolicyContext, ATTACK, CODES, COMBOS, DEFENCE, LAST_THEM, LAST_US, LOCAL, MAX_VALUE,
    NEARS, STATE_ENTRIES,
};
use wuzi_gomoku::{ordered_candidates, EvalKind, Rule, Weights};

/// Positions counted and how often the chosen move was among the first 1, 3 and 8.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RankCounts {
    pub positions: usize,
    pub within: [usize; 3],
}

impl RankCounts {
    /// The three shares in percent.
    pub fn percent(&self) -> [f64; 3] {
        self.within
            .map(|n| 100.0 * n as f64 / self.positions.max(1) as f64)
    }

    fn count(&mut self, rank: Option<usize>) {
        self.positions += 1;
        if let Some(rank) = rank {
            for (k, &top) in TOP.iter().enumerate() {
                if rank < top {
                    self.within[k] += 1;
                }
            }
        }
    }
}

/// The ranks of the chosen moves over all the positions counted, and over those the search
/// had not proven won or lost: there any winning move, or any move at all, may be chosen,
/// and the threat search that proved it sees what no static ordering can.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PolicyStats {
    pub all: RankCounts,
    pub undecided: RankCounts,
}

/// The ranks counted.
pub const TOP: [usize; 3] = [1, 3, 8];

/// Counts over the middle-game positions (at least `min_stones` stones, nothing forced: no
/// five to make or block) of `rule`, ordered by `order` (the learned order reads `weights`).
pub fn policy_stats(
    samples: &[Sample],
    rule: Rule,
    order: EvalKind,
    weights: &Arc<Weights>,
    min_stones: usize,
) -> PolicyStats {
    let mut stats = PolicyStats::default();
    let mut out = Vec::new();
    for (a, b) in next_positions(samples, rule, min_stones) {
        let mut board = a.board();
        let me = board.side_to_move();
        if board.threats(me).five > 0 || board.threats(me.opponent()).five > 0 {
            continue;
        }
        if board.set_weights(Arc::clone(weights)).is_err() {
            continue;
        }
        let chosen = b.moves[a.moves.len()];
        ordered_candidates(&mut board, order, &mut out);
        let rank = out.iter().position(|&p| p == chosen);
        stats.all.count(rank);
        if a.score.abs() < PROVEN_SCORE {
            stats.undecided.count(rank);
        }
    }
    stats
}

/// The policy's terms, each one index into its parameters per candidate.
const TERMS: usize = 8;

/// Which of the policy's tables a fit may move (the others stay 0).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PolicyTerms {
    /// The attack and defence tables of the codes.
    pub codes: bool,
    /// The distances from the last moves.
    pub near: bool,
    /// The attack class by defence class table.
    pub combo: bool,
    /// The stones around the point.
    pub local: bool,
    /// The threat state by class tables.
    pub state: bool,
}

impl Default for PolicyTerms {
    fn default() -> Self {
        PolicyTerms {
            codes: true,
            near: true,
            combo: true,
            local: true,
            state: true,
        }
    }
}

/// One position for the policy fit: per candidate its parameter indices (one per term), and
/// which candidate the search chose.
struct Choice {
    candidates: Vec<[u16; TERMS]>,
    chosen: usize,
}

/// The fitted policy, and its loss (mean cross-entropy of the chosen move) on the positions
/// it was fitted on, before and after.
#[derive(Clone, Debug)]
pub struct PolicyFit {
    pub positions: usize,
    pub loss: (f64, f64),
    /// The same on the held-out games' positions, with where the chosen move ranked among
    /// the fitted policy's priorities (ties counted in the candidates' order; a chosen move
    /// that is no candidate is a miss). `None` when no game was held out.
    pub held_out: Option<HeldOut>,
    /// In hundredths of a log-odds unit.
    pub policy: Policy,
}

/// How the fitted policy does on games it was not fitted on.
#[derive(Clone, Debug)]
pub struct HeldOut {
    pub loss: (f64, f64),
    pub ranks: RankCounts,
}

// Parameters per colour to move, in this order: attack codes, defence codes, near the
// opponent's last move, near ours, combos, local, state (attack, defence).
const NEAR_THEM_AT: usize = 2 * CODES;
const NEAR_US_AT: usize = NEAR_THEM_AT + NEARS;
const COMBO_AT: usize = NEAR_US_AT + NEARS;
const LOCAL_AT: usize = COMBO_AT + COMBOS;
const STATE_AT: usize = LOCAL_AT + LOCAL;
const PER_COLOUR: usize = STATE_AT + 2 * STATE_ENTRIES;
const POLICY_PARAMS: usize = 2 * PER_COLOUR;
/// Integer policy units per unit of log-odds.
const POLICY_UNIT: f64 = 100.0;

/// Whether the parameter `i` (within a colour's block) belongs to a term in `terms`.
fn fitted(terms: PolicyTerms, i: usize) -> bool {
    match i % PER_COLOUR {
        i if i < NEAR_THEM_AT => terms.codes,
        i if i < COMBO_AT => terms.near,
        i if i < LOCAL_AT => terms.combo,
        i if i < STATE_AT => terms.local,
        _ => terms.state,
    }
}

/// The value of parameter `i` in `policy`.
fn entry(policy: &mut Policy, i: usize) -> &mut i32 {
    let (c, i) = (i / PER_COLOUR, i % PER_COLOUR);
    match i {
        i if i < NEAR_THEM_AT => &mut policy.codes[c][i / CODES][i % CODES],
        i if i < NEAR_US_AT => &mut policy.near[c][LAST_THEM][i - NEAR_THEM_AT],
        i if i < COMBO_AT => &mut policy.near[c][LAST_US][i - NEAR_US_AT],
        i if i < LOCAL_AT => &mut policy.combo[c][i - COMBO_AT],
        i if i < STATE_AT => &mut policy.local[c][i - LOCAL_AT],
        i => {
            let i = i - STATE_AT;
            &mut policy.state[c][i / STATE_ENTRIES][i % STATE_ENTRIES]
        }
    }
}

/// Consecutive samples of one game under `rule`: a position with at least `min_stones` stones
/// and the one after the move the engine chose there.
fn next_positions(
    samples: &[Sample],
    rule: Rule,
    min_stones: usize,
) -> impl Iterator<Item = (&Sample, &Sample)> {
    samples
        .windows(2)
        .map(|pair| (&pair[0], &pair[1]))
        .filter(move |(a, b)| {
            a.rule == rule
                && b.rule == rule
                && a.moves.len() >= min_stones
                && b.moves.len() == a.moves.len() + 1
                && b.moves[..a.moves.len()] == a.moves[..]
        })
}

/// The positions to fit on, those of the one game in `holdout_every` held out, and how many
/// held-out positions chose a move the candidates do not hold (a miss for any ordering, as
/// `policy_stats` counts it).
struct Choices {
    fit: Vec<Choice>,
    held: Vec<Choice>,
    held_missed: usize,
}

fn choices(samples: &[Sample], rule: Rule, min_stones: usize, holdout_every: usize) -> Choices {
    let (mut list, mut held, mut held_missed) = (Vec::new(), Vec::new(), 0);
    let mut out = Vec::new();
    for (a, b) in next_positions(samples, rule, min_stones) {
        let mut board = a.board();
        let context = PolicyContext::new(&board);
        ordered_candidates(&mut board, EvalKind::Classic, &mut out);
        let chosen = b.moves[a.moves.len()];
        let Some(chosen) = out.iter().position(|&p| p == chosen) else {
            held_missed += usize::from(a.held_out(holdout_every));
            continue;
        };
        if out.len() < 2 {
            continue;
        }
        let base = context.me().index() * PER_COLOUR;
        let candidates = out
            .iter()
            .map(|&p| {
                let f = context.features(&board, p);
                [
                    base + ATTACK * CODES + f.attack,
                    base + DEFENCE * CODES + f.defence,
                    base + NEAR_THEM_AT + f.near[LAST_THEM],
                    base + NEAR_US_AT + f.near[LAST_US],
                    base + COMBO_AT + f.combo,
                    base + LOCAL_AT + f.local,
                    base + STATE_AT + ATTACK * STATE_ENTRIES + f.state[ATTACK],
                    base + STATE_AT + DEFENCE * STATE_ENTRIES + f.state[DEFENCE],
                ]
                .map(|i| i as u16)
            })
            .collect();
        let choice = Choice { candidates, chosen };
        match a.held_out(holdout_every) {
            true => held.push(choice),
            false => list.push(choice),
        }
    }
    if list.is_empty() {
        // Every game fell in the held-out share (few games, one opening): fit on them all
        // rather than on nothing.
        return Choices {
            fit: held,
            held: Vec::new(),
            held_missed: 0,
        };
    }
    Choices {
        fit: list,
        held,
        held_missed,
    }
}

/// The candidates' priorities under `w`, into `out`.
fn priorities(c: &Choice, w: &[f64], out: &mut Vec<f64>) {
    out.clear();
    out.extend(
        c.candidates
            .iter()
            .map(|t| t.iter().map(|&i| w[i as usize]).sum::<f64>()),
    );
}

/// Where the chosen move ranks under `w`: the candidates with a higher priority, and those
/// with the same one listed before it.
fn rank(c: &Choice, w: &[f64], out: &mut Vec<f64>) -> usize {
    priorities(c, w, out);
    let mine = out[c.chosen];
    out.iter()
        .enumerate()
        .filter(|&(j, &p)| p > mine || (p == mine && j < c.chosen))
        .count()
}

fn choice_loss(c: &Choice, w: &[f64], probs: &mut Vec<f64>) -> f64 {
    priorities(c, w, probs);
    let max = probs.iter().cloned().fold(f64::MIN, f64::max);
    let chosen = probs[c.chosen];
    let mut sum = 0.0;
    for p in probs.iter_mut() {
        *p = (*p - max).exp();
        sum += *p;
    }
    probs.iter_mut().for_each(|p| *p /= sum);
    max + sum.ln() - chosen
}

/// Fits the policy tables by softmax regression of the search's chosen move over the
/// engine's candidates (Adam, full batch, from zero), moving only the tables of `terms`,
/// on every game but the one in `holdout_every` (0: every game), which measure the fit.
pub fn fit_policy(
    samples: &[Sample],
    rule: Rule,
    epochs: usize,
    min_stones: usize,
    terms: PolicyTerms,
    holdout_every: usize,
) -> PolicyFit {
    let Choices {
        fit: list,
        held,
        held_missed,
    } = choices(samples, rule, min_stones, holdout_every);
    let mut w = vec![0.0; POLICY_PARAMS];
    let (mut m, mut v) = (vec![0.0; POLICY_PARAMS], vec![0.0; POLICY_PARAMS]);
    let (b1, b2, eps, rate, l2) = (0.9, 0.999, 1e-8, 0.05, 1e-4);
    let mut grad = vec![0.0; POLICY_PARAMS];
    let mut probs = Vec::new();
    let n = list.len().max(1) as f64;
    let mean_loss = |list: &[Choice], w: &[f64], probs: &mut Vec<f64>| {
        list.iter().map(|c| choice_loss(c, w, probs)).sum::<f64>() / list.len().max(1) as f64
    };
    let before = mean_loss(&list, &w, &mut probs);
    let held_before = mean_loss(&held, &w, &mut probs);
    for epoch in 1..=epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for c in &list {
            choice_loss(c, &w, &mut probs);
            for (j, t) in c.candidates.iter().enumerate() {
                let g = (probs[j] - if j == c.chosen { 1.0 } else { 0.0 }) / n;
                for &i in t {
                    grad[i as usize] += g;
                }
            }
        }
        for i in (0..POLICY_PARAMS).filter(|&i| fitted(terms, i)) {
            let g = grad[i] + l2 * w[i];
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - f64::powi(b1, epoch as i32));
            let vh = v[i] / (1.0 - f64::powi(b2, epoch as i32));
            w[i] -= rate * mh / (vh.sqrt() + eps);
        }
    }
    let mut policy = Policy::zero();
    for (i, x) in w.iter_mut().enumerate() {
        let q = (*x * POLICY_UNIT)
            .round()
            .clamp(-(MAX_VALUE as f64), MAX_VALUE as f64);
        *entry(&mut policy, i) = q as i32;
        *x = q / POLICY_UNIT;
    }
    let after = mean_loss(&list, &w, &mut probs);
    let held_out = (!held.is_empty()).then(|| {
        let mut ranks = RankCounts::default();
        for c in &held {
            ranks.count(Some(rank(c, &w, &mut probs)));
        }
        for _ in 0..held_missed {
            ranks.count(None);
        }
        HeldOut {
            loss: (held_before, mean_loss(&held, &w, &mut probs)),
            ranks,
        }
    });
    PolicyFit {
        positions: list.len(),
        loss: (before, after),
        held_out,
        policy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_gomoku::parse_point;

    fn sample(moves: &[&str], score: i32) -> Sample {
        Sample {
            rule: Rule::Freestyle,
            result: 0.5,
            score,
            moves: moves.iter().map(|m| parse_point(m, 15).unwrap()).collect(),
        }
    }

    #[test]
    fn proven_positions_are_counted_apart() {
        let game = [
            "h8", "i9", "h9", "h10", "i8", "g8", "j10", "k11", "g9", "f10", "j8", "k8",
        ];
        // Positions at 10 and 11 stones, each followed by the move chosen there; the first
        // was proven, the second not. The last line only shows the move chosen at 11.
        let samples = [
            sample(&game[..10], PROVEN_SCORE),
            sample(&game[..11], 0),
            sample(&game[..12], 0),
        ];
        let weights = wuzi_gomoku::eval::embedded_weights(Rule::Freestyle);
        let s = policy_stats(&samples, Rule::Freestyle, EvalKind::Learned, &weights, 10);
        assert_eq!((s.all.positions, s.undecided.positions), (2, 1));
        assert!(s.all.within[2] >= s.undecided.within[2]);
    }

    /// Held-out games are left out of the fit and measured apart; with none held out there
    /// is no such measure.
    #[test]
    fn held_out_games_are_measured_apart() {
        let games = [
            [
                "h8", "i9", "h9", "h10", "i8", "g8", "j10", "k11", "g9", "f10", "j8", "k8",
            ],
            [
                "h8", "h9", "i8", "g8", "i9", "j10", "g10", "i10", "h10", "j8", "j9", "k9",
            ],
            [
                "g7", "h8", "g9", "g8", "f8", "i8", "j8", "h7", "h9", "i10", "f10", "e11",
            ],
        ];
        let samples: Vec<Sample> = games
            .iter()
            .flat_map(|g| (6..=g.len()).map(|n| sample(&g[..n], 0)))
            .collect();
        let every = 2;
        let held_games = games
            .iter()
            .filter(|g| sample(&g[..], 0).held_out(every))
            .count();
        assert!(
            held_games > 0 && held_games < games.len(),
            "pick another split"
        );
        let all = fit_policy(&samples, Rule::Freestyle, 5, 6, PolicyTerms::default(), 0);
        assert!(all.held_out.is_none());
        let split = fit_policy(
            &samples,
            Rule::Freestyle,
            5,
            6,
            PolicyTerms::default(),
            every,
        );
        let held = split.held_out.expect("some games held out");
        // Held-out positions whose chosen move is no candidate count too, as misses.
        assert!(split.positions + held.ranks.positions >= all.positions);
        assert!(split.positions < all.positions);
        // With every game held out there would be nothing to fit on: all are fitted on.
        let every_game = fit_policy(&samples, Rule::Freestyle, 5, 6, PolicyTerms::default(), 1);
        assert_eq!(every_game.positions, all.positions);
        assert!(every_game.held_out.is_none());
        assert!(held.ranks.within[0] <= held.ranks.within[1]);
        assert!(held.ranks.within[1] <= held.ranks.within[2]);
        assert!(held.loss.0.is_finite() && held.loss.1.is_finite());
    }
}
