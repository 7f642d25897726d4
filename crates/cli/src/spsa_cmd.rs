//! `wuzi spsa`: tunes search knobs (or evaluation shape factors) by SPSA
//! (`wuzi_gomocup::manager::spsa`), each iteration a short in-process match of the knobs
//! stepped up against the knobs stepped down, from random openings with colours swapped. The
//! result is a settings string to confirm with `wuzi match`: SPSA finds a direction cheaply, a
//! match decides whether it pays.

use crate::match_cmd::GamesArgs;
use crate::spsa_log;
use clap::Args;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use wuzi_gomocup::manager::openings::{read_openings, OpeningFormat, Rng};
use wuzi_gomocup::manager::side::{Kind, SideSpec};
use wuzi_gomocup::manager::spsa::{round_to, Knob, Spsa};
use wuzi_gomocup::manager::{run_match, MatchConfig, OpeningSource};
use wuzi_gomoku::eval::ShapeFactor;
use wuzi_gomoku::{Board, Point, Rule};

#[derive(Args, Debug)]
pub struct SpsaArgs {
    /// A knob to tune, as NAME=START:STEP:MIN:MAX (a search parameter of engine/params.rs,
    /// width, or an evaluation shape factor such as waiter:open-three); repeat for each. STEP
    /// is how far each side of a match is moved from the current value. Values are played
    /// with as many decimals as the knob is written with (mover:four=1.000:0.080:0.5:1.5).
    #[arg(long = "knob", required = true)]
    pub knobs: Vec<String>,
    /// Settings both sides share (their limit above all: node limits make the games
    /// independent of the machine's load).
    #[arg(long, default_value = "nodes=10000")]
    pub base: String,
    /// Iterations (matches) to play.
    #[arg(long, default_value_t = 1000, value_parser = crate::arg_check::at_least_one::<usize>)]
    pub iterations: usize,
    /// Games per iteration (rounded up to whole pairs of an opening).
    #[arg(long, default_value_t = 8, value_parser = crate::match_cmd::game_count)]
    pub games: usize,
    /// The learning rate: a knob moves rate * STEP for each game one side won more.
    #[arg(long, default_value_t = 0.01)]
    pub rate: f64,
    /// Shrink the steps (and so the moves) as 1 / k^DECAY at iteration k, so that a long run
    /// settles (0.101 is SPSA's usual value); 0 keeps them constant.
    #[arg(long, default_value_t = 0.0)]
    pub decay: f64,
    /// Also print the knobs' mean over the last N iterations: steadier than the last values,
    /// which still carry the last matches' noise.
    #[arg(long, default_value_t = 0)]
    pub average_last: usize,
    #[command(flatten)]
    pub board: GamesArgs,
    /// An opening file, drawn from at random each iteration; without it, generated balanced
    /// openings.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seed of the perturbations and of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write one JSON line per iteration (its result and the knobs after it) to this file,
    /// after a first line with the run's settings.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Go on from the last iteration the --log file holds (a run stopped partway, or one to
    /// extend with a larger --iterations), with the settings it was started with: the games
    /// and knobs are those of a run never stopped.
    #[arg(long, requires = "log")]
    pub resume: bool,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

/// One side of an iteration: the shared settings and its knobs. (A `cmd=` base is refused by
/// the parser, which applies no wuzi knob to an external engine.)
fn side(base: &str, knobs: &str, rule: Rule) -> Result<SideSpec, String> {
    let spec: SideSpec = format!("{base},{knobs}").parse()?;
    if let Kind::InProcess(options) = &spec.kind {
        options.check_rule(rule)?;
    }
    Ok(spec)
}

/// Whether SPSA may tune the setting `name`: a constant of the search, the width, or a shape
/// factor. Limits (nodes, time), memory, threads and switches are not constants to tune: a
/// side with more nodes just wins, and the knob climbs.
fn check_tunable(name: &str) -> Result<(), String> {
    if name == "width" || wuzi_gomoku::SearchParams::KEYS.contains(&name) {
        return Ok(());
    }
    if name.contains(':') {
        return format!("{name}=1")
            .parse::<ShapeFactor>()
            .map(|_| ())
            .map_err(|e| format!("--knob {name}: {e}"));
    }
    Err(format!(
        "--knob {name}: not a search parameter (engine/params.rs), width, or a shape factor; \
         a limit such as nodes or time belongs in --base"
    ))
}

/// Adds `theta` into `sum`, knob by knob (the mean of the last iterations).
fn add_to(sum: &mut [f64], theta: &[f64]) {
    for (s, t) in sum.iter_mut().zip(theta) {
        *s += t;
    }
}

pub fn run(args: &SpsaArgs) -> Result<String, String> {
    let knobs: Vec<Knob> = args
        .knobs
        .iter()
        .map(|k| k.parse())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("--knob {e}"))?;
    // One value a setting: a knob given twice, or also in --base, would be played with only
    // one of its values while the other drifted on the results.
    let base_keys: Vec<&str> = args
        .base
        .split(',')
        .filter_map(|kv| kv.split_once('=').map(|(k, _)| k.trim()))
        .collect();
    for (i, knob) in knobs.iter().enumerate() {
        check_tunable(&knob.name)?;
        if knobs[..i].iter().any(|k| k.name == knob.name) {
            return Err(format!("--knob {} is given twice", knob.name));
        }
        if base_keys.contains(&knob.name.as_str()) {
            return Err(format!("--knob {} is also set by --base", knob.name));
        }
    }
    if !(args.rate > 0.0 && args.rate.is_finite()) {
        return Err("--rate must be positive".into());
    }
    if !(args.decay >= 0.0 && args.decay <= 1.0) {
        return Err("--decay must be within 0..=1".into());
    }
    if args.average_last > args.iterations {
        return Err("--average-last must not exceed --iterations".into());
    }
    let rule: Rule = args.board.rule.into();
    Board::new(args.board.size, rule).map_err(|e| e.to_string())?;
    let mut spsa = Spsa::new(knobs, args.rate, args.seed).with_decay(args.decay);
    let start = spsa.rounded();
    side(&args.base, &spsa.settings(&start), rule).map_err(|e| format!("--knob/--base: {e}"))?;
    // A knob's steps stay within its MIN..MAX: both ends must be values the engine takes,
    // or a run would stop partway, its result lost.
    for (i, knob) in spsa.knobs.iter().enumerate() {
        for (end, value) in [("MIN", knob.min), ("MAX", knob.max)] {
            let mut values = start.clone();
            values[i] = round_to(value, knob.decimals);
            side(&args.base, &spsa.settings(&values), rule)
                .map_err(|e| format!("--knob {}: its {end} is not playable: {e}", knob.name))?;
        }
    }
    let openings: Option<Vec<Vec<Point>>> = match &args.openings {
        Some(path) => Some(read_openings(
            path,
            OpeningFormat::Auto,
            args.board.size,
            rule,
        )?),
        None => None,
    };
    let pairs = args.games.div_ceil(2).max(1);
    let mut pick = Rng(args.seed ^ 0x5EED);
    let mut total = 0i64;
    let mut sum = vec![0.0; spsa.theta.len()];
    let logged = match (&args.log, args.resume) {
        (Some(path), true) => spsa_log::read(path, args)?,
        _ => spsa_log::Logged::default(),
    };
    let done = logged.results.len();
    if done > args.iterations {
        return Err(format!(
            "--resume: the log holds {done} iterations, more than --iterations {}",
            args.iterations
        ));
    }
    // The logged iterations again, without their games: the same draws and the same
    // arithmetic give the same knobs, bit for bit (a decimal read back might not).
    for (k, (&result, logged_theta)) in logged.results.iter().zip(&logged.thetas).enumerate() {
        let p = spsa.perturb();
        if let Some(list) = &openings {
            for _ in 0..pairs {
                pick.below(list.len());
            }
        }
        spsa.update(&p, result);
        let agrees = spsa
            .theta
            .iter()
            .zip(logged_theta)
            .all(|(a, b)| (a - b).abs() <= 1e-9 * a.abs().max(1.0));
        if !agrees {
            return Err(format!(
                "--resume: iteration {} of the log does not follow from the ones before it \
                 (knobs {:?} logged, {:?} replayed): not this run's log",
                k + 1,
                logged_theta,
                spsa.theta
            ));
        }
        total += result.abs();
        if k + args.average_last >= args.iterations {
            add_to(&mut sum, &spsa.theta);
        }
    }
    let mut log = match &args.log {
        Some(path) => {
            // A run's log is what --resume needs: starting afresh over it takes removing it.
            let holds_a_run = std::fs::metadata(path).is_ok_and(|m| m.len() > 0);
            if holds_a_run && !args.resume {
                return Err(format!(
                    "the log {} already holds a run: --resume goes on from it; remove it (or \
                     give another --log) to start afresh",
                    path.display()
                ));
            }
            let file = if args.resume {
                std::fs::OpenOptions::new().append(true).open(path)
            } else {
                std::fs::File::create(path)
            };
            let mut log = std::io::BufWriter::new(
                file.map_err(|e| format!("cannot write the log {}: {e}", path.display()))?,
            );
            if !args.resume {
                spsa_log::append(&mut log, &spsa_log::header(args))?;
            }
            Some(log)
        }
        None => None,
    };
    if done > 0 && !args.quiet {
        eprintln!("resumed after iteration {done}/{}: {spsa}", args.iterations);
    }
    for k in done..args.iterations {
        let p = spsa.perturb();
        let a = side(&args.base, &spsa.settings(&p.plus), rule)?;
        let b = side(&args.base, &spsa.settings(&p.minus), rule)?;
        let source = match &openings {
            Some(list) => OpeningSource::List(
                (0..pairs)
                    .map(|_| list[pick.below(list.len())].clone())
                    .collect(),
            ),
            None => {
                OpeningSource::Generated(args.seed.wrapping_mul(1_000_003).wrapping_add(k as u64))
            }
        };
        let config = MatchConfig {
            a,
            b,
            size: args.board.size,
            rule,
            games: 2 * pairs,
            sprt: None,
            concurrency: args.board.concurrency,
            tolerance: None,
            draw_after: None,
            openings: source,
            log: None,
            abort: Arc::new(AtomicBool::new(false)),
        };
        let t = run_match(&config, &|_, _| {}).standing.tally;
        let wl = i64::from(t.wins) - i64::from(t.losses);
        total += wl.abs();
        spsa.update(&p, wl);
        if k + args.average_last >= args.iterations {
            add_to(&mut sum, &spsa.theta);
        }
        if let Some(log) = &mut log {
            let theta: Vec<f64> = spsa
                .theta
                .iter()
                .zip(&spsa.knobs)
                .map(|(&t, k)| round_to(t, k.decimals + 2))
                .collect();
            spsa_log::append(log, &spsa_log::line(k + 1, wl, &theta, &spsa.theta))?;
        }
        if !args.quiet && ((k + 1) % 50 == 0 || k + 1 == args.iterations) {
            eprintln!("iteration {}/{}: {spsa}", k + 1, args.iterations);
        }
    }
    let mut report = format!(
        "tuned after {} iterations ({} games; mean |W-L| {:.2} an iteration): {spsa}\nstarted from: {}",
        args.iterations,
        args.iterations * 2 * pairs,
        total as f64 / args.iterations.max(1) as f64,
        spsa.settings(&start)
    );
    if args.average_last > 0 {
        let mean: Vec<f64> = sum.iter().map(|s| s / args.average_last as f64).collect();
        report += &format!(
            "\nmean of the last {} iterations: {}",
            args.average_last,
            spsa.settings(&mean)
        );
    }
    Ok(report)
}
