//! `wuzi match`: two engine settings play each other from varied openings, colours swapped,
//! and the result is given as W-L-D with an Elo estimate and its 95% error.

use crate::position::RuleArg;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;
use wuzi_gomoku::{Board, Engine, EngineOptions, Player, Point, Rule};
use wuzi_search::Limits;

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Settings of engine A, e.g. `time=100` or `time=100,vct=off,leaf-vcf=off`. Keys: time
    /// (ms per move), depth, nodes, hash (MiB), width (moves searched per quiet position, 0:
    /// all), and on/off switches vcf, vct, leaf-vcf, defence, pvs, tt, killers, history.
    #[arg(long, default_value = "time=100")]
    pub a: String,
    /// Settings of engine B (same keys).
    #[arg(long, default_value = "time=100")]
    pub b: String,
    /// Number of games (rounded up to an even number: each opening is played with both
    /// colours).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Games played at the same time.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print one JSON object at the end.
    #[arg(long)]
    pub json: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// One side's engine settings.
#[derive(Clone, Debug)]
pub struct Settings {
    pub options: EngineOptions,
    pub limits: Limits,
}

impl FromStr for Settings {
    type Err = String;

    fn from_str(spec: &str) -> Result<Settings, String> {
        let mut options = EngineOptions {
            table_bytes: 16 << 20,
            ..EngineOptions::default()
        };
        let mut limits = Limits::default();
        for (key, value) in key_values(spec)? {
            let number = || number(key, value);
            match key {
                "time" => limits.time = Some(Duration::from_millis(number()?)),
                "depth" => limits.depth = Some(number()? as u32),
                "nodes" => limits.nodes = Some(number()?),
                _ => apply_switches(&mut options, &format!("{key}={value}"))?,
            }
        }
        if limits.time.is_none() && limits.depth.is_none() && limits.nodes.is_none() {
            limits.time = Some(Duration::from_millis(100));
        }
        Ok(Settings { options, limits })
    }
}

fn key_values(spec: &str) -> Result<Vec<(&str, &str)>, String> {
    spec.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            item.split_once('=')
                .ok_or_else(|| format!("setting \"{item}\" is not key=value"))
        })
        .collect()
}

fn number(key: &str, value: &str) -> Result<u64, String> {
    value
        .parse::<u64>()
        .map_err(|_| format!("{key}: \"{value}\" is not a whole number"))
}

/// Applies engine switches (`hash`, `width`, `vcf`, `vct`, `leaf-vcf`, `pvs`, `tt`,
/// `killers`, `history`, `defence`) from a `key=value,...` list.
pub fn apply_switches(options: &mut EngineOptions, spec: &str) -> Result<(), String> {
    for (key, value) in key_values(spec)? {
        let switch = || match value {
            "on" | "true" | "1" => Ok(true),
            "off" | "false" | "0" => Ok(false),
            _ => Err(format!("{key}: \"{value}\" is not on or off")),
        };
        match key {
            "hash" => options.table_bytes = (number(key, value)? as usize) << 20,
            "width" => options.max_candidates = number(key, value)? as usize,
            "threads" => {
                options.threads = (number(key, value)? as usize).clamp(1, wuzi_gomoku::MAX_THREADS)
            }
            "vcf" => options.root_vcf = switch()?,
            "vct" => options.root_vct = switch()?,
            "leaf-vcf" => options.leaf_vcf = switch()?,
            "defence" => options.root_defence = switch()?,
            "pvs" => options.search.pvs = switch()?,
            "tt" => options.search.tt = switch()?,
            "killers" => options.search.killers = switch()?,
            "history" => options.search.history = switch()?,
            "search" => {
                options.selective = match value {
                    "selective" => true,
                    "generic" => false,
                    _ => return Err(format!("search: \"{value}\" is not selective or generic")),
                }
            }
            _ => {
                if !options.params.set(key, value)? {
                    return Err(format!("unknown setting \"{key}\""));
                }
            }
        }
    }
    Ok(())
}

/// A small deterministic generator for the openings (SplitMix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Stones in an opening: Black, White, Black, White, then Black to move.
const OPENING_STONES: usize = 4;
/// How far from even an opening may be, by a shallow search from the side to move's view.
/// Freestyle favours Black so much that random openings are mostly won for Black, and a pair
/// of games with colours swapped then ends 1-1 whoever plays better.
const OPENING_BALANCE: i32 = 40;

/// `count` distinct balanced openings of four stones within the central 7x7.
pub fn openings(size: usize, rule: Rule, count: usize, seed: u64) -> Vec<Vec<Point>> {
    let mut rng = Rng(seed);
    let mut out: Vec<Vec<Point>> = Vec::new();
    let centre = size / 2;
    let reach = 3.min(centre);
    let mut tries = 0;
    while out.len() < count && tries < 200 * count + 100 {
        tries += 1;
        let mut board = Board::new(size, rule).expect("valid size");
        let mut moves = Vec::new();
        while moves.len() < OPENING_STONES {
            let x = centre + rng.below(2 * reach + 1) - reach;
            let y = centre + rng.below(2 * reach + 1) - reach;
            let p = Point::new(x, y);
            if board.try_play(p).is_ok() {
                moves.push(p);
            }
        }
        if board.result().is_some() || out.contains(&moves) {
            continue;
        }
        let mut engine = Engine::new(
            board,
            EngineOptions {
                table_bytes: 1 << 20,
                ..EngineOptions::default()
            },
        );
        let verdict = engine.go(&Limits::depth(4), |_| {});
        if verdict.forced().is_none() && verdict.score.value().abs() <= OPENING_BALANCE {
            out.push(moves);
        }
    }
    out
}

#[derive(Copy, Clone, Debug, Default, Serialize)]
pub struct Tally {
    /// Games engine A won.
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
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
        let elo_of = |p: f64| (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10());
        let variance = (self.wins as f64 * (1.0 - p).powi(2)
            + self.losses as f64 * p.powi(2)
            + self.draws as f64 * (0.5 - p).powi(2))
            / n.max(1.0);
        let margin = 1.96 * (variance / n.max(1.0)).sqrt();
        let error = match (elo_of(p + margin), elo_of(p - margin)) {
            (Some(hi), Some(lo)) => Some((hi - lo) / 2.0),
            _ => None,
        };
        (elo_of(p), error)
    }
}

/// Plays one game; `a_black` says which colour A has. Returns the winner, if any.
fn play_game(
    opening: &[Point],
    size: usize,
    rule: Rule,
    a: &Settings,
    b: &Settings,
    a_black: bool,
) -> Option<Player> {
    let mut board = Board::new(size, rule).expect("valid size");
    for &p in opening {
        board.try_play(p).expect("openings are legal");
    }
    let (black, white) = if a_black { (a, b) } else { (b, a) };
    let mut engines = [
        Engine::new(board.clone(), black.options.clone()),
        Engine::new(board.clone(), white.options.clone()),
    ];
    let limits = [&black.limits, &white.limits];
    while board.result().is_none() {
        let side = board.side_to_move().index();
        let analysis = engines[side].go(limits[side], |_| {});
        let mv = analysis.best_move.expect("the game is not over");
        board.try_play(mv).expect("the engine plays legal moves");
        for engine in &mut engines {
            engine.play(mv).expect("same position");
        }
    }
    board.result().and_then(|r| r.winner)
}

#[derive(Serialize)]
struct MatchJson {
    a: String,
    b: String,
    games: u32,
    wins: u32,
    losses: u32,
    draws: u32,
    score: f64,
    elo: Option<f64>,
    elo_error: Option<f64>,
}

pub fn run(args: &MatchArgs) -> Result<String, String> {
    let a: Settings = args.a.parse().map_err(|e| format!("--a: {e}"))?;
    let b: Settings = args.b.parse().map_err(|e| format!("--b: {e}"))?;
    let rule: Rule = args.rule.into();
    Board::new(args.size, rule).map_err(|e| e.to_string())?;
    let pairs = args.games.div_ceil(2).max(1);
    let openings = openings(args.size, rule, pairs, args.seed);
    let games = 2 * openings.len();
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed_precise}]")
            .expect("valid template"),
    );
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.clamp(1, 64) {
            scope.spawn(|| loop {
                let game = next.fetch_add(1, Ordering::Relaxed);
                if game >= games {
                    return;
                }
                let a_black = game % 2 == 0;
                let winner = play_game(&openings[game / 2], args.size, rule, &a, &b, a_black);
                let mut t = tally.lock().expect("no panics while holding the lock");
                match winner {
                    None => t.draws += 1,
                    Some(w) if (w == Player::First) == a_black => t.wins += 1,
                    Some(_) => t.losses += 1,
                }
                bar.set_message(format!("A: +{} -{} ={}", t.wins, t.losses, t.draws));
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let t = *tally.lock().expect("threads are done");
    let (elo, error) = t.elo();
    if args.json {
        let out = MatchJson {
            a: args.a.clone(),
            b: args.b.clone(),
            games: t.games(),
            wins: t.wins,
            losses: t.losses,
            draws: t.draws,
            score: t.score(),
            elo,
            elo_error: error,
        };
        return Ok(serde_json::to_string(&out).expect("serialisable"));
    }
    let elo_text = match (elo, error) {
        (Some(e), Some(err)) => format!("Elo {e:+.0} ± {err:.0}"),
        (Some(e), None) => format!("Elo {e:+.0}"),
        (None, _) if t.wins > t.losses => "Elo: A won every game".into(),
        (None, _) => "Elo: A lost every game".into(),
    };
    Ok(format!(
        "A ({}) vs B ({}), {} games, {rule} {}x{}: A {}-{}-{} (W-L-D), score {:.1}%, {elo_text}",
        args.a,
        args.b,
        t.games(),
        args.size,
        args.size,
        t.wins,
        t.losses,
        t.draws,
        100.0 * t.score()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_parse_and_reject() {
        let s: Settings = "time=50,vct=off,pvs=off,hash=8".parse().unwrap();
        assert_eq!(s.limits.time, Some(Duration::from_millis(50)));
        assert!(!s.options.root_vct && !s.options.search.pvs);
        assert_eq!(s.options.table_bytes, 8 << 20);
        assert!("speed=9".parse::<Settings>().is_err());
        assert!("vcf=maybe".parse::<Settings>().is_err());
        assert!("time".parse::<Settings>().is_err());
    }

    #[test]
    fn elo_from_a_tally() {
        let even = Tally {
            wins: 10,
            losses: 10,
            draws: 0,
        };
        assert_eq!(even.elo().0, Some(0.0));
        let better = Tally {
            wins: 76,
            losses: 24,
            draws: 0,
        };
        let (elo, err) = better.elo();
        assert!((elo.unwrap() - 200.0).abs() < 5.0, "{elo:?}");
        assert!(err.unwrap() > 50.0 && err.unwrap() < 120.0, "{err:?}");
        assert_eq!(
            Tally {
                wins: 5,
                losses: 0,
                draws: 0
            }
            .elo()
            .0,
            None
        );
    }

    #[test]
    fn openings_are_distinct_and_open() {
        let list = openings(15, Rule::Renju, 50, 7);
        assert_eq!(list.len(), 50);
        assert_eq!(list, openings(15, Rule::Renju, 50, 7));
    }
}
