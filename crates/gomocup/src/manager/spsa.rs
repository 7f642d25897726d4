//! SPSA (simultaneous perturbation stochastic approximation): tunes many knobs at once by
//! short matches. Each iteration moves every knob a step up or down at random,
//! plays `theta + c*delta` against `theta - c*delta`, and moves theta towards the side that
//! won: `theta += rate * c * (wins - losses) * delta`. One match then tells about every knob,
//! which is why it beats one-knob-at-a-time matches when there are many. The step c may shrink
//! as `c / k^decay` at iteration k (the classic SPSA schedule, with the customary decay of
//! 0.101): the noise of short matches keeps a constant step wandering round the top, a
//! shrinking one settles. This is the arithmetic; `wuzi spsa` plays the matches.

use super::openings::Rng;
use std::fmt;
use std::str::FromStr;

/// One tuned knob: its setting name and `start:step:min:max` (step is the perturbation c).
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    pub name: String,
    pub start: f64,
    pub step: f64,
    pub min: f64,
    pub max: f64,
    /// Decimals its values are played with: the most its text writes (`lmr-div=200:30:60:600`
    /// whole numbers, `mover:four=1.000:0.080:0.500:1.500` thousandths).
    pub decimals: u32,
}

impl Knob {
    /// `value` rounded to the knob's decimals.
    fn round(&self, value: f64) -> f64 {
        round_to(value, self.decimals)
    }
}

/// `value` rounded to `decimals` decimals.
pub fn round_to(value: f64, decimals: u32) -> f64 {
    let scale = 10f64.powi(decimals as i32);
    (value * scale).round() / scale
}

/// The most decimals a knob's values are written with (capped: more would print noise).
fn decimals_of(values: &str) -> u32 {
    values
        .split(':')
        .map(|v| v.split_once('.').map_or(0, |(_, f)| f.trim().len() as u32))
        .max()
        .unwrap_or(0)
        .min(MAX_DECIMALS)
}

const MAX_DECIMALS: u32 = 6;

impl FromStr for Knob {
    type Err = String;

    /// `lmr-div=200:30:60:600`, `mover:four=1.000:0.080:0.500:1.500`.
    fn from_str(s: &str) -> Result<Knob, String> {
        let bad =
            || format!("\"{s}\": a knob is NAME=START:STEP:MIN:MAX, e.g. lmr-div=200:30:60:600");
        let (name, values) = s.split_once('=').ok_or_else(bad)?;
        let v: Vec<f64> = values
            .split(':')
            .map(|x| x.trim().parse::<f64>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let [start, step, min, max] = v[..] else {
            return Err(bad());
        };
        let name = name.trim();
        if name.is_empty() || name.contains(',') || !v.iter().all(|x| x.is_finite()) {
            return Err(bad());
        }
        if !(step > 0.0 && min <= start && start <= max) {
            return Err(format!(
                "\"{s}\": the step must be positive and the start within MIN..=MAX"
            ));
        }
        Ok(Knob {
            name: name.to_string(),
            start,
            step,
            min,
            max,
            decimals: decimals_of(values),
        })
    }
}

/// The two settings one iteration plays against each other, and the directions that made
/// them.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    pub delta: Vec<i8>,
    pub plus: Vec<f64>,
    pub minus: Vec<f64>,
}

/// The tuner's state: the knobs and their current values.
#[derive(Clone, Debug)]
pub struct Spsa {
    pub knobs: Vec<Knob>,
    /// Current values, unrounded (rounded only when played).
    pub theta: Vec<f64>,
    /// Learning rate: theta moves `rate * step` per game won more than lost.
    pub rate: f64,
    /// The steps shrink as `1 / k^decay` at iteration k (from 1); 0 keeps them constant.
    pub decay: f64,
    /// Iterations done (updates made).
    pub iterations: usize,
    rng: Rng,
}

impl Spsa {
    pub fn new(knobs: Vec<Knob>, rate: f64, seed: u64) -> Spsa {
        let theta = knobs.iter().map(|k| k.start).collect();
        Spsa {
            knobs,
            theta,
            rate,
            decay: 0.0,
            iterations: 0,
            rng: Rng(seed),
        }
    }

    /// The same with steps that shrink as `1 / k^decay` (see the module's doc).
    pub fn with_decay(mut self, decay: f64) -> Spsa {
        self.decay = decay;
        self
    }

    /// What the knobs' steps are multiplied by at the coming iteration.
    pub fn step_scale(&self) -> f64 {
        ((self.iterations + 1) as f64).powf(-self.decay)
    }

    /// The next pair of settings to play: each knob a step up in one and down in the other,
    /// which way at random, kept within its range and rounded.
    pub fn perturb(&mut self) -> Perturbation {
        let delta: Vec<i8> = self
            .knobs
            .iter()
            .map(|_| if self.rng.below(2) == 0 { -1 } else { 1 })
            .collect();
        let scale = self.step_scale();
        let side = |sign: f64| -> Vec<f64> {
            self.knobs
                .iter()
                .zip(&self.theta)
                .zip(&delta)
                .map(|((k, &t), &d)| {
                    k.round((t + sign * scale * k.step * f64::from(d)).clamp(k.min, k.max))
                })
                .collect()
        };
        let (plus, minus) = (side(1.0), side(-1.0));
        Perturbation { delta, plus, minus }
    }

    /// Moves theta after `plus` scored `wins_minus_losses` against `minus` (by the same
    /// shrunk step the perturbation used), and counts the iteration.
    pub fn update(&mut self, p: &Perturbation, wins_minus_losses: i64) {
        let scale = self.step_scale();
        for ((t, k), &d) in self.theta.iter_mut().zip(&self.knobs).zip(&p.delta) {
            let moved = *t + self.rate * scale * k.step * wins_minus_losses as f64 * f64::from(d);
            *t = moved.clamp(k.min, k.max);
        }
        self.iterations += 1;
    }

    /// Settings text of `values` (one per knob, each with its knob's decimals):
    /// `lmr-div=151,waiter:four=1.071`.
    pub fn settings(&self, values: &[f64]) -> String {
        self.knobs
            .iter()
            .zip(values)
            .map(|(k, v)| format!("{}={v:.*}", k.name, k.decimals as usize))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// The current values, rounded to their knobs' decimals.
    pub fn rounded(&self) -> Vec<f64> {
        self.knobs
            .iter()
            .zip(&self.theta)
            .map(|(k, &t)| k.round(t))
            .collect()
    }
}

impl fmt::Display for Spsa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.settings(&self.rounded()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn knob(s: &str) -> Knob {
        s.parse().unwrap()
    }

    #[test]
    fn knobs_parse_and_bad_ones_are_refused() {
        assert_eq!(
            knob("lmr-div=200:30:60:600"),
            Knob {
                name: "lmr-div".into(),
                start: 200.0,
                step: 30.0,
                min: 60.0,
                max: 600.0,
                decimals: 0
            }
        );
        let factor = knob("mover:four=1.000:0.08:0.5:1.5");
        assert_eq!((factor.name.as_str(), factor.decimals), ("mover:four", 3));
        for bad in [
            "lmr-div",
            "lmr-div=200:30:60",
            "lmr-div=200:0:60:600",
            "lmr-div=700:30:60:600",
            "=1:1:0:2",
            "a,b=1:1:0:2",
            "x=1:nan:0:2",
            "x=one:1:0:2",
        ] {
            assert!(bad.parse::<Knob>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_perturbation_steps_each_knob_both_ways_within_its_range() {
        let mut s = Spsa::new(vec![knob("a=10:3:0:100"), knob("b=1:2:0:2")], 0.1, 7);
        for _ in 0..20 {
            let p = s.perturb();
            assert_eq!(p.plus[0] - p.minus[0], 6.0 * f64::from(p.delta[0]));
            // b = 1 +- 2 is clamped to 0..=2.
            let (hi, lo) = if p.delta[1] > 0 {
                (p.plus[1], p.minus[1])
            } else {
                (p.minus[1], p.plus[1])
            };
            assert_eq!((lo, hi), (0.0, 2.0));
        }
    }

    #[test]
    fn a_knob_with_decimals_is_played_and_printed_with_them() {
        let mut s = Spsa::new(vec![knob("f=1.000:0.0804:0.5:1.5")], 0.1, 7);
        let p = s.perturb();
        let (hi, lo) = if p.delta[0] > 0 {
            (p.plus[0], p.minus[0])
        } else {
            (p.minus[0], p.plus[0])
        };
        assert_eq!((lo, hi), (0.9196, 1.0804));
        s.theta[0] = 1.234_567;
        assert_eq!(s.to_string(), "f=1.2346");
        assert_eq!(s.settings(&[1.0]), "f=1.0000");
    }

    #[test]
    fn the_update_moves_towards_the_winner_by_rate_step_and_score() {
        let mut s = Spsa::new(vec![knob("a=10:4:0:100"), knob("b=50:10:0:100")], 0.25, 1);
        let p = Perturbation {
            delta: vec![1, -1],
            plus: vec![],
            minus: vec![],
        };
        s.update(&p, 2);
        assert_eq!(s.theta, vec![12.0, 45.0]);
        s.update(&p, -100);
        assert_eq!(s.theta, vec![0.0, 100.0], "clamped to the range");
        assert_eq!(s.to_string(), "a=0,b=100");
    }

    #[test]
    fn decaying_steps_shrink_both_the_perturbation_and_the_update() {
        let mut s = Spsa::new(vec![knob("a=100:16:0:200")], 0.25, 1).with_decay(0.5);
        assert_eq!(s.step_scale(), 1.0);
        let p = s.perturb();
        assert_eq!((p.plus[0] - p.minus[0]).abs(), 32.0);
        s.update(&p, 2);
        assert_eq!(s.theta[0], 100.0 + 8.0 * f64::from(p.delta[0]));
        s.iterations = 3;
        // Iteration 4: steps halved (1 / 4^0.5).
        assert_eq!(s.step_scale(), 0.5);
        let before = s.theta[0];
        let p = s.perturb();
        assert_eq!((p.plus[0] - p.minus[0]).abs(), 16.0);
        s.update(&p, 2);
        assert_eq!(s.theta[0], before + 4.0 * f64::from(p.delta[0]));
        assert_eq!(s.iterations, 4);
    }

    #[test]
    fn it_climbs_a_noiseless_hill_to_its_top() {
        // A made-up match: the side nearer (3, 70) wins every game of 8.
        let mut s = Spsa::new(vec![knob("a=10:2:0:20"), knob("b=20:8:0:100")], 0.02, 3);
        let distance = |v: &[f64]| ((v[0] - 3.0) / 2.0).powi(2) + ((v[1] - 70.0) / 8.0).powi(2);
        for _ in 0..2000 {
            let p = s.perturb();
            let (dp, dm) = (distance(&p.plus), distance(&p.minus));
            let wl = if dp < dm {
                8
            } else if dp > dm {
                -8
            } else {
                0
            };
            s.update(&p, wl);
        }
        let v = s.rounded();
        assert!(
            (v[0] - 3.0).abs() <= 2.0 && (v[1] - 70.0).abs() <= 8.0,
            "{v:?}"
        );
    }
}
