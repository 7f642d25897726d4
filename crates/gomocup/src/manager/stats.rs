//! Match statistics: W-L-D tallies, the Elo estimate with its 95% error, and the sequential
//! probability ratio test (SPRT) that decides when a match has said enough. Pure arithmetic:
//! nothing here knows about engines or processes.
//!
//! The SPRT is the generalised SPRT of fishtest, OpenBench and fastchess with logistic Elo:
//! under each hypothesis the expected score is `1 / (1 + 10^(-elo/400))`, the outcomes are
//! summarised by their sample mean and variance, and the log-likelihood ratio is that of two
//! normal distributions with that variance. Game pairs (one opening, colours swapped) are the
//! samples when they are complete (the pentanomial model: a pair scores 0, ½, 1, 1½ or 2),
//! which removes the opening's bias from the variance; single games otherwise (trinomial).

use serde::Serialize;

/// Games from engine A's point of view.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// Expected score of a player `elo` points stronger (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference that expects `score`, or `None` at 0 or 1 (no finite Elo).
pub fn elo_of_score(score: f64) -> Option<f64> {
    // An even score is 0, not the -0 the formula gives (JSON would print "-0.0").
    (score > 0.0 && score < 1.0).then(|| match -400.0 * (1.0 / score - 1.0).log10() {
        0.0 => 0.0,
        elo => elo,
    })
}

impl Tally {
    /// Counts one game by A's half points: 2 a win, 1 a draw, 0 a loss.
    pub fn add(&mut self, half_points: u32) {
        match half_points {
            2 => self.wins += 1,
            1 => self.draws += 1,
            _ => self.losses += 1,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// A's score fraction.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + self.draws as f64 / 2.0) / self.games().max(1) as f64
    }

    /// The Elo difference of A over B, and the half-width of its 95% interval (from the
    /// per-game score variance). `None` for a margin no finite Elo describes (all won or
    /// all lost).
    pub fn elo(&self) -> (Option<f64>, Option<f64>) {
        let n = self.games() as f64;
        let p = self.score();
        let variance = (self.wins as f64 * (1.0 - p).powi(2)
            + self.losses as f64 * p.powi(2)
            + self.draws as f64 * (0.5 - p).powi(2))
            / n.max(1.0);
        let margin = 1.96 * (variance / n.max(1.0)).sqrt();
        (elo_of_score(p), error_of(p, margin))
    }

    /// The likelihood of superiority: the chance that A is the stronger, from its wins and
    /// losses alone (draws say nothing of which is stronger), `Φ((W − L) / √(W + L))` as
    /// cutechess-cli gives it. `None` before any game was won or lost.
    pub fn los(&self) -> Option<f64> {
        let decisive = self.wins + self.losses;
        (decisive > 0).then(|| {
            let z = (self.wins as f64 - self.losses as f64) / (decisive as f64).sqrt();
            normal_cdf(z)
        })
    }

    /// Counts per outcome, losses first, in the order [`Sprt::llr_games`] takes them.
    pub fn trinomial(&self) -> [u32; 3] {
        [self.losses, self.draws, self.wins]
    }
}

/// The standard normal distribution function, through the error function's rational
/// approximation of Abramowitz and Stegun (7.1.26, error below 1.5e-7).
fn normal_cdf(z: f64) -> f64 {
    let x = z.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-x * x).exp();
    if z >= 0.0 {
        0.5 * (1.0 + erf)
    } else {
        0.5 * (1.0 - erf)
    }
}

/// The half-width in Elo of the interval `score ± margin`. Where the interval reaches a 0% or
/// 100% score (a lopsided few games), that end has no Elo, and the half-width is the distance
/// from the Elo to the other, finite end: a margin that still says how far down (or up) the
/// truth may lie. `None` when neither end is finite, or the interval has no width: while every
/// game (or pair) so far scored the same, the sample says nothing of the spread, and "± 0"
/// would claim a certainty the games do not give.
fn error_of(score: f64, margin: f64) -> Option<f64> {
    if margin <= 0.0 {
        return None;
    }
    let elo = elo_of_score(score)?;
    match (elo_of_score(score + margin), elo_of_score(score - margin)) {
        (Some(hi), Some(lo)) => Some((hi - lo) / 2.0),
        (None, Some(lo)) => Some(elo - lo),
        (Some(hi), None) => Some(hi - elo),
        (None, None) => None,
    }
}

/// Counts of complete game pairs by A's pair score: 0, ½, 1, 1½, 2 points.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Pentanomial(pub [u32; 5]);

impl Pentanomial {
    /// Adds a pair; each game's score for A is 0, 1 (a draw, in half points) or 2.
    pub fn add(&mut self, first_half_points: u32, second_half_points: u32) {
        let i = (first_half_points + second_half_points) as usize;
        self.0[i.min(4)] += 1;
    }

    pub fn pairs(&self) -> u32 {
        self.0.iter().sum()
    }

    /// The Elo difference and its 95% half-width from the pair scores. Pairs cancel most of
    /// an opening's bias, so this error is the honest one when every game has its partner
    /// (a per-game error counts a colour's advantage as noise, or as skill).
    pub fn elo(&self) -> (Option<f64>, Option<f64>) {
        let n = self.pairs() as f64;
        if n == 0.0 {
            return (None, None);
        }
        let scores = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean = self
            .0
            .iter()
            .zip(scores)
            .map(|(&c, s)| c as f64 * s)
            .sum::<f64>()
            / n;
        let variance = self
            .0
            .iter()
            .zip(scores)
            .map(|(&c, s)| c as f64 * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        let margin = 1.96 * (variance / n).sqrt();
        (elo_of_score(mean), error_of(mean, margin))
    }
}

/// One Elo per player from the games of several pairings (`(a, b, tally)`: `a`'s games
/// against `b`), by the Bradley-Terry model with a draw as half a win, fitted by the
/// minorisation-maximisation iteration of Hunter (2004). Each pairing that played also counts
/// one virtual draw, so that a player who won or lost every game gets a finite rating and
/// few games pull the ratings together. The mean rating is 0; a player with no games gets 0.
/// Two players give about the Elo of their score: 75% is near +191 once the games outweigh
/// the virtual draw.
pub fn ratings(players: usize, results: &[(usize, usize, Tally)]) -> Vec<f64> {
    // Points won (a draw is half a point) and games played, per pair of players.
    let mut won = vec![vec![0.0f64; players]; players];
    let mut games = vec![vec![0.0f64; players]; players];
    for &(a, b, t) in results {
        if t.games() == 0 || a >= players || b >= players || a == b {
            continue;
        }
        let draws = t.draws as f64 / 2.0 + 0.5;
        won[a][b] += t.wins as f64 + draws;
        won[b][a] += t.losses as f64 + draws;
        games[a][b] += t.games() as f64 + 1.0;
        games[b][a] += t.games() as f64 + 1.0;
    }
    let played: Vec<bool> = (0..players)
        .map(|i| games[i].iter().any(|&g| g > 0.0))
        .collect();
    let count = played.iter().filter(|&&p| p).count().max(1) as f64;
    let mut strength = vec![1.0f64; players];
    // Far more rounds than real tables need (about a thousand): ratings thousands of Elo
    // apart (sweeps in a long chain) converge slowly.
    for _ in 0..1_000_000 {
        let mut next = strength.clone();
        for i in (0..players).filter(|&i| played[i]) {
            let total: f64 = won[i].iter().sum();
            let denominator: f64 = (0..players)
                .filter(|&j| games[i][j] > 0.0)
                .map(|j| games[i][j] / (strength[i] + strength[j]))
                .sum();
            next[i] = total / denominator;
        }
        // Only ratios matter: keep the geometric mean of the players with games at 1.
        let log_mean = (0..players)
            .filter(|&i| played[i])
            .map(|i| next[i].ln())
            .sum::<f64>()
            / count;
        for (i, s) in next.iter_mut().enumerate() {
            *s = if played[i] {
                (s.ln() - log_mean).exp()
            } else {
                1.0
            };
        }
        let change = (0..players)
            .map(|i| (next[i] / strength[i]).ln().abs())
            .fold(0.0, f64::max);
        strength = next;
        if change < 1e-10 {
            break;
        }
    }
    let elo: Vec<f64> = strength.iter().map(|s| 400.0 * s.log10()).collect();
    let mean = (0..players)
        .filter(|&i| played[i])
        .map(|i| elo[i])
        .sum::<f64>()
        / count;
    (0..players)
        .map(|i| if played[i] { elo[i] - mean } else { 0.0 })
        .collect()
}

/// Complete pairs before the SPRT may decide. Empty cells count as 0.001 of a sample, so a
/// handful of pairs that all fall in one cell has almost no variance: a single even pair
/// gives an LLR of about -16 with elo1=100, "deciding" on one opening. Ten pairs keep such
/// accidents out while costing a real run nothing.
pub const MIN_PAIRS: u32 = 10;

/// The SPRT's hypotheses and error rates, as `--sprt elo0=0,elo1=5,alpha=0.05,beta=0.05`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT concludes so far.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    /// H1 accepted: A is at least `elo1` stronger.
    H1,
    /// H0 accepted: A is not more than `elo0` stronger.
    H0,
    /// Not yet decided.
    Continue,
}

impl std::str::FromStr for Sprt {
    type Err = String;

    fn from_str(spec: &str) -> Result<Sprt, String> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("\"{item}\" is not key=value"))?;
            let number: f64 = value
                .trim()
                .parse()
                .map_err(|_| format!("{key}: \"{value}\" is not a number"))?;
            match key.trim() {
                "elo0" => sprt.elo0 = number,
                "elo1" => sprt.elo1 = number,
                "alpha" => sprt.alpha = number,
                "beta" => sprt.beta = number,
                other => return Err(format!("unknown SPRT key \"{other}\"")),
            }
        }
        let rate = |r: f64| r > 0.0 && r < 0.5;
        if sprt.elo0 >= sprt.elo1 || !sprt.elo0.is_finite() || !sprt.elo1.is_finite() {
            return Err("elo0 must be below elo1".into());
        }
        if !rate(sprt.alpha) || !rate(sprt.beta) {
            return Err("alpha and beta must lie between 0 and 0.5".into());
        }
        Ok(sprt)
    }
}

impl Sprt {
    /// The lower and upper bounds of the LLR (Wald's approximations).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn decide(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Continue
        }
    }

    /// The decision on complete pairs: none before [`MIN_PAIRS`].
    pub fn decide_pairs(&self, pairs: &Pentanomial) -> Decision {
        if pairs.pairs() < MIN_PAIRS {
            return Decision::Continue;
        }
        self.decide(self.llr_pairs(pairs))
    }

    /// The decision on single games: none before 2 x [`MIN_PAIRS`] games.
    pub fn decide_games(&self, tally: &Tally) -> Decision {
        if tally.games() < 2 * MIN_PAIRS {
            return Decision::Continue;
        }
        self.decide(self.llr_games(tally))
    }

    /// The LLR of complete game pairs (pentanomial model).
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        self.llr(&pairs.0, &[0.0, 0.25, 0.5, 0.75, 1.0])
    }

    /// The LLR of single games (trinomial model).
    pub fn llr_games(&self, tally: &Tally) -> f64 {
        self.llr(&tally.trinomial(), &[0.0, 0.5, 1.0])
    }

    /// The generalised SPRT's LLR for `counts[i]` samples of score `scores[i]`. Empty cells
    /// count as 0.001 of a sample (as OpenBench does) so that a lopsided start still has a
    /// variance.
    fn llr(&self, counts: &[u32], scores: &[f64]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let regularised: Vec<f64> = counts.iter().map(|&c| (c as f64).max(1e-3)).collect();
        let n: f64 = regularised.iter().sum();
        let mean = regularised
            .iter()
            .zip(scores)
            .map(|(c, s)| c * s)
            .sum::<f64>()
            / n;
        let variance = regularised
            .iter()
            .zip(scores)
            .map(|(c, s)| c * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// LOS against values worked by hand: Φ(0) = 0.5, Φ(10 / √30) = Φ(1.8257) = 0.96605,
    /// Φ(−1) = 0.15866; draws do not count.
    #[test]
    fn likelihood_of_superiority() {
        let tally = |wins, losses, draws| Tally {
            wins,
            losses,
            draws,
        };
        assert_eq!(tally(0, 0, 5).los(), None);
        assert!((tally(3, 3, 9).los().unwrap() - 0.5).abs() < 1e-9);
        assert!((tally(20, 10, 7).los().unwrap() - 0.96605).abs() < 1e-5);
        assert!((tally(0, 1, 0).los().unwrap() - 0.15866).abs() < 1e-5);
    }

    #[test]
    fn ratings_follow_the_scores_and_stay_finite() {
        let tally = |wins, losses, draws| Tally {
            wins,
            losses,
            draws,
        };
        // Two players: the Elo of the score, the virtual draw aside.
        let two = ratings(2, &[(0, 1, tally(750, 250, 0))]);
        let expected = elo_of_score(750.5 / 1001.0).unwrap();
        assert!((two[0] - two[1] - expected).abs() < 1e-6, "{two:?}");
        assert!((two[0] + two[1]).abs() < 1e-9);
        // Even results: equal ratings; a clean sweep: finite.
        let even = ratings(3, &[(0, 1, tally(5, 5, 2)), (1, 2, tally(3, 3, 0))]);
        assert!(even.iter().all(|e| e.abs() < 1e-6), "{even:?}");
        let sweep = ratings(2, &[(0, 1, tally(10, 0, 0))]);
        assert!(
            sweep[0] - sweep[1] > 500.0 && sweep[0].is_finite(),
            "{sweep:?}"
        );
        // A chain: 0 beats 1 as 1 beats 2, so 0 is above 2 without their meeting.
        let chain = ratings(3, &[(0, 1, tally(30, 10, 0)), (1, 2, tally(30, 10, 0))]);
        assert!(chain[0] > chain[1] && chain[1] > chain[2], "{chain:?}");
        assert!((chain[0] - chain[1] - (chain[1] - chain[2])).abs() < 1e-6);
        // A long chain of sweeps, ratings thousands apart: on a chain each step is its own
        // pairing's Elo, which the iteration must reach however slowly it converges.
        let sweeps: Vec<_> = (0..9).map(|i| (i, i + 1, tally(1000, 0, 0))).collect();
        let far = ratings(10, &sweeps);
        let step = elo_of_score(1000.5 / 1001.0).unwrap();
        for w in far.windows(2) {
            assert!((w[0] - w[1] - step).abs() < 0.01, "{far:?}");
        }
        // A player without games stays at 0 and leaves the others' mean at 0.
        let idle = ratings(3, &[(0, 1, tally(2, 1, 0)), (0, 2, tally(0, 0, 0))]);
        assert_eq!(idle[2], 0.0);
        assert!((idle[0] + idle[1]).abs() < 1e-9);
    }

    #[test]
    fn elo_from_a_tally() {
        let even = Tally {
            wins: 10,
            losses: 10,
            draws: 0,
        };
        assert_eq!(even.elo().0, Some(0.0));
        assert!(even.elo().0.unwrap().is_sign_positive(), "not -0");
        let better = Tally {
            wins: 76,
            losses: 24,
            draws: 0,
        };
        let (elo, err) = better.elo();
        assert!((elo.unwrap() - 200.0).abs() < 5.0, "{elo:?}");
        assert!(err.unwrap() > 50.0 && err.unwrap() < 120.0, "{err:?}");
        let all_won = Tally {
            wins: 5,
            losses: 0,
            draws: 0,
        };
        assert_eq!(all_won.elo().0, None);
        // 8 of 10 won: the interval reaches 100%, and the error is the way down to its
        // lower end.
        let lopsided = Tally {
            wins: 8,
            losses: 2,
            draws: 0,
        };
        let (elo, err) = lopsided.elo();
        let lower = elo_of_score(0.8 - 1.96 * (0.16f64 / 10.0).sqrt()).unwrap();
        assert_eq!(err, Some(elo.unwrap() - lower));
        assert_eq!((elo.unwrap().round(), err.unwrap().round()), (241.0, 205.0));
        // Games that all scored the same give an Elo but no error, not "± 0".
        let drawn = Tally {
            wins: 0,
            losses: 0,
            draws: 6,
        };
        assert_eq!(drawn.elo(), (Some(0.0), None));
        assert_eq!(Pentanomial([0, 0, 3, 0, 0]).elo(), (Some(0.0), None));
    }

    #[test]
    fn sprt_settings_parse_and_reject() {
        let s: Sprt = "elo0=0,elo1=20".parse().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 20.0, 0.05, 0.05));
        let (lower, upper) = s.bounds();
        assert!((lower + 2.944_438_979).abs() < 1e-6 && (upper - 2.944_438_979).abs() < 1e-6);
        for bad in ["elo0=5,elo1=0", "alpha=0.7", "elo9=1", "elo1=x", "elo1"] {
            assert!(bad.parse::<Sprt>().is_err(), "{bad}");
        }
    }

    #[test]
    fn pairs_add_up() {
        let mut p = Pentanomial::default();
        p.add(2, 0);
        p.add(1, 1);
        p.add(2, 2);
        p.add(0, 0);
        assert_eq!(p.0, [1, 0, 2, 0, 1]);
        assert_eq!(p.pairs(), 4);
    }

    /// Reference LLRs from a separate Python implementation of the same published formula
    /// (fishtest / OpenBench / fastchess logistic GSPRT: `N (s1 - s0) (2 mean - s0 - s1) /
    /// (2 var)`, empty cells as 1e-3), run with python3 3.x on 2026-11-23; the script was not
    /// kept in the repository. Each line: counts, elo0, elo1, the value it printed.
    #[test]
    fn llr_matches_the_reference_numbers() {
        let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.abs().max(1.0);
        let penta = [
            ([5, 20, 40, 25, 10], 0.0, 5.0, 0.379_843_836_402_083_9),
            ([1, 10, 30, 40, 19], 0.0, 20.0, 8.015_817_825_381_973),
            ([0, 3, 10, 3, 0], 0.0, 20.0, -0.281_839_155_735_178_26),
            ([30, 10, 0, 10, 30], -5.0, 5.0, 0.0),
        ];
        for (counts, elo0, elo1, want) in penta {
            let sprt = Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            };
            let got = sprt.llr_pairs(&Pentanomial(counts));
            assert!(close(got, want), "{counts:?}: {got} != {want}");
        }
        // Trinomial: wins, losses, draws.
        let tri = [
            ((60, 40, 20), 0.0, 5.0, 0.341_849_371_245_607_4),
            ((30, 10, 0), 0.0, 100.0, 5.377_562_187_748_79),
        ];
        for ((wins, losses, draws), elo0, elo1, want) in tri {
            let sprt = Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            };
            let got = sprt.llr_games(&Tally {
                wins,
                losses,
                draws,
            });
            assert!(close(got, want), "{wins}-{losses}-{draws}: {got} != {want}");
        }
        // The pair-based Elo and its 95% error, from the same script:
        // mean and variance of the pair scores, elo(mean ± 1.96 sqrt(var / N)).
        let (elo, error) = Pentanomial([1, 10, 30, 40, 19]).elo();
        assert!(close(elo.unwrap(), 119.110_735_306_503_78));
        assert!(close(error.unwrap(), 35.690_709_757_058_12));
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 20.0,
            alpha: 0.05,
            beta: 0.05,
        };
        assert_eq!(sprt.decide(8.0), Decision::H1);
        assert_eq!(sprt.decide(-3.0), Decision::H0);
        assert_eq!(sprt.decide(0.3), Decision::Continue);
    }
}
