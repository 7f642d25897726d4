//! `wuzi selfplay` and `wuzi tune`: the learned evaluation's training pipeline (the work is
//! in the wuzi-tune crate; this parses arguments, reads and writes files, and reports).

use clap::Args;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::Instant;
use wuzi_gomoku::{EvalKind, Rule};
use wuzi_tune::data::parse_all;
use wuzi_tune::fit::{fit, FitConfig};
use wuzi_tune::selfplay::{selfplay, SelfplayConfig};

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Games to play (each from a distinct balanced opening).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 3000)]
    pub nodes: u64,
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Seed of the openings (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The evaluation both sides use.
    #[arg(long, default_value = "classic", value_parser = parse_eval)]
    pub eval: EvalKind,
    /// Where the positions go (appended to).
    #[arg(long)]
    pub out: PathBuf,
}

fn parse_eval(s: &str) -> Result<EvalKind, String> {
    s.parse()
}

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Data written by `wuzi selfplay`.
    #[arg(long)]
    pub data: PathBuf,
    /// The rule whose positions are fitted.
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Where the weights go (the embedded ones: crates/gomoku/src/eval/weights/<rule>.txt).
    #[arg(long)]
    pub out: PathBuf,
    #[arg(long, default_value_t = FitConfig::default().epochs)]
    pub epochs: usize,
    /// Adam's step in evaluation units.
    #[arg(long, default_value_t = FitConfig::default().rate)]
    pub rate: f64,
    /// Pull towards the classic evaluation's values.
    #[arg(long, default_value_t = FitConfig::default().l2)]
    pub l2: f64,
}

pub fn run_selfplay(args: &SelfplayArgs) -> Result<String, String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&args.out)
        .map_err(|e| format!("cannot open {}: {e}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    let config = SelfplayConfig {
        rule: args.rule,
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        eval: args.eval,
    };
    let start = Instant::now();
    let s = selfplay(&config, &mut out, |s| {
        if s.games % 20 == 0 {
            eprintln!(
                "{} games, {} positions, {:.0} s",
                s.games,
                s.positions,
                start.elapsed().as_secs_f64()
            );
        }
    })?;
    out.flush().map_err(|e| e.to_string())?;
    Ok(format!(
        "{} games ({} black wins, {} white wins, {} draws), {} positions to {} in {:.0} s",
        s.games,
        s.black,
        s.white,
        s.draws,
        s.positions,
        args.out.display(),
        start.elapsed().as_secs_f64()
    ))
}

pub fn run_tune(args: &TuneArgs) -> Result<String, String> {
    let start = Instant::now();
    let text = std::fs::read_to_string(&args.data)
        .map_err(|e| format!("cannot read {}: {e}", args.data.display()))?;
    let samples = parse_all(&text).map_err(|e| format!("{}: {e}", args.data.display()))?;
    let config = FitConfig {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        ..FitConfig::default()
    };
    let every = (config.epochs / 10).max(1);
    let r = fit(&samples, args.rule, &config, |epoch, loss| {
        if epoch % every == 0 {
            eprintln!("epoch {epoch}: train loss {loss:.5}");
        }
    })?;
    let report = format!(
        "{} positions ({} held out), scale {:.1} units per log-odds\n\
         loss (train / held out): classic {:.5} / {:.5}, learned {:.5} / {:.5}\n\
         fitted in {:.0} s",
        r.train,
        r.holdout,
        r.scale,
        r.classic_loss.0,
        r.classic_loss.1,
        r.fitted_loss.0,
        r.fitted_loss.1,
        start.elapsed().as_secs_f64()
    );
    let header = format!(
        "wuzi tune --data {} --rule {} --epochs {} --rate {} --l2 {}\n{report}",
        args.data.display(),
        args.rule.name(),
        config.epochs,
        config.rate,
        config.l2
    );
    std::fs::write(&args.out, r.weights.to_text(&header))
        .map_err(|e| format!("cannot write {}: {e}", args.out.display()))?;
    Ok(format!(
        "{report}\nweights written to {}",
        args.out.display()
    ))
}
