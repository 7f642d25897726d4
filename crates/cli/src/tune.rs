//! `wuzi selfplay` and `wuzi tune`: the learned evaluation's training pipeline (the work is
//! in the wuzi-tune crate; this parses arguments, reads and writes files, and reports).

use clap::Args;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use wuzi_gomocup::manager::openings::{read_openings, OpeningFormat};
use wuzi_gomoku::eval::ShapeFactor;
use wuzi_gomoku::{EvalKind, Rule, Weights};
use wuzi_tune::data::{parse_all, Sample, SIZE};
use wuzi_tune::fit::{fit, FitConfig};
use wuzi_tune::policy::{fit_policy, policy_stats, PolicyFit, PolicyTerms};
use wuzi_tune::relabel::relabel;
use wuzi_tune::selfplay::{selfplay, SelfplayConfig};
use wuzi_tune::swing::swing;

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Games to play (each from a distinct opening: a generated balanced one, or the next of
    /// `--openings`).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Nodes per move.
    #[arg(long, default_value_t = 3000, value_parser = crate::arg_check::at_least_one::<u64>)]
    pub nodes: u64,
    /// The rule the games are played under: freestyle, standard or renju.
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Seed of the openings (the same seed plays the same games).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The evaluation both sides use: classic (the default) or learned.
    #[arg(long, value_parser = parse_eval)]
    pub eval: Option<EvalKind>,
    /// Play (or relabel) with these tables, a file `wuzi tune` wrote for this rule, instead of
    /// the embedded ones: the next round of the training loop without a rebuild. Implies
    /// `--eval learned`.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Where the positions go (appended to).
    #[arg(long)]
    pub out: PathBuf,
    /// Play these openings (a file as `wuzi match --openings` reads it), each once and in
    /// order, instead of generated ones; `--seed` then changes nothing.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Instead of playing: search each position of this data file again with `--nodes` and
    /// `--eval`, and write it with that search's score (the game's result kept). Each
    /// position keeps its own rule, so `--rule` (and the game settings) do not apply; with
    /// `--weights`, every position must be of the file's rule.
    #[arg(long, conflicts_with_all = ["openings", "games", "seed", "rule"])]
    pub relabel: Option<PathBuf>,
}

fn parse_eval(s: &str) -> Result<EvalKind, String> {
    s.parse()
}

fn parse_terms(s: &str) -> Result<PolicyTerms, String> {
    let mut t = PolicyTerms {
        codes: false,
        near: false,
        combo: false,
        local: false,
        state: false,
    };
    for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        match name {
            "codes" => t.codes = true,
            "near" => t.near = true,
            "combo" => t.combo = true,
            "local" => t.local = true,
            "state" => t.state = true,
            _ => {
                return Err(format!(
                    "\"{name}\" is not codes, near, combo, local or state"
                ))
            }
        }
    }
    Ok(t)
}

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Data written by `wuzi selfplay`.
    #[arg(long)]
    pub data: PathBuf,
    /// The rule whose positions are fitted.
    #[arg(long, default_value = "freestyle")]
    pub rule: Rule,
    /// Where the weights go (the embedded ones: `crates/gomoku/src/eval/weights/<rule>.txt`).
    #[arg(long, required_unless_present_any = ["policy_stats", "swing"])]
    pub out: Option<PathBuf>,
    /// Instead of fitting: how often the move the search chose was the first 1, 3 or 8 of the
    /// classic and of the learned move ordering.
    #[arg(long, conflicts_with_all = ["swing", "policy_only", "start", "out"])]
    pub policy_stats: bool,
    /// Instead of fitting: search this many middle-game positions of the data with each
    /// evaluation and report the mean change of the score between consecutive depths.
    #[arg(long, conflicts_with_all = ["policy_only", "start", "out"],
          value_parser = crate::arg_check::at_least_one::<usize>)]
    pub swing: Option<usize>,
    /// Milliseconds per position for `--swing`.
    #[arg(long, default_value_t = 1000, value_parser = crate::arg_check::at_least_one::<u64>)]
    pub swing_ms: u64,
    /// The tables `--policy-stats` orders with and `--swing` evaluates with (default: the
    /// embedded ones); with `--policy-only`, the weights whose evaluation tables are kept. A
    /// full fit starts from the classic evaluation, or from `--start`.
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Fit only the move-ordering policy; the evaluation tables (and the file's header) are
    /// copied from `--weights` (default: the embedded ones), unchanged unless a factor below
    /// is given.
    #[arg(long)]
    pub policy_only: bool,
    /// The policy's tables the fit may move, comma-separated from codes, near, combo, local,
    /// state
    /// (the others stay 0; for measuring what each is worth).
    #[arg(long, default_value = "codes,near,combo,local,state", value_parser = parse_terms)]
    pub policy_terms: PolicyTerms,
    #[arg(long, default_value_t = FitConfig::default().epochs,
          value_parser = crate::arg_check::at_least_one::<usize>)]
    pub epochs: usize,
    /// Adam's step in evaluation units.
    #[arg(long, default_value_t = FitConfig::default().rate, value_parser = parse_positive, allow_negative_numbers = true)]
    pub rate: f64,
    /// Pull towards the classic evaluation's values (0 or more).
    #[arg(long, default_value_t = FitConfig::default().l2, value_parser = parse_non_negative, allow_negative_numbers = true)]
    pub l2: f64,
    /// The share of the game's result in each position's target (0 to 1); the rest is the
    /// search's score from the data, as a win probability.
    #[arg(long, default_value_t = FitConfig::default().result_share, value_parser = parse_share, allow_negative_numbers = true)]
    pub result_share: f64,
    /// Evaluation units per unit of log-odds (default: fitted for the classic evaluation on
    /// the data; the embedded weights' headers say theirs). Not with `--policy-only`.
    #[arg(long, value_parser = parse_positive, allow_negative_numbers = true)]
    pub scale: Option<f64>,
    /// Start the evaluation fit from these weights' tables, and hold it near them (`--l2`),
    /// instead of the classic evaluation: a refit of the embedded tables on new games (the
    /// policy is fitted afresh all the same). Not with `--policy-only`.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Multiply the written evaluation's side-to-move tables (`*-mover`) by this, after the
    /// fit: the fit's balance between the two sides is near, not at, what plays best (each
    /// rule's embedded weights have `--waiter-factor 0.97`, measured by matches).
    #[arg(long, default_value_t = 1.0, value_parser = parse_positive, allow_negative_numbers = true)]
    pub mover_factor: f64,
    /// The same for the waiting side's tables (`*-waiter`).
    #[arg(long, default_value_t = 1.0, value_parser = parse_positive, allow_negative_numbers = true)]
    pub waiter_factor: f64,
    /// ROLE:SHAPE=F (ROLE mover or waiter; SHAPE one, two, open-two, three, open-three or
    /// four): multiply that role's values for the codes whose strongest line shape is SHAPE
    /// by F, after the two factors above; repeat for each group, once each (the embedded
    /// weights' twelve were tuned by SPSA matches). ROLE:SHAPE+SECOND=F narrows the group to the
    /// codes whose second strongest line is SECOND (none, or a shape no stronger than SHAPE).
    #[arg(long = "shape-factor")]
    pub shape_factors: Vec<ShapeFactor>,
}

/// The tables' final step: the side factors, then each shape group's factor.
fn scale(weights: &mut Weights, args: &TuneArgs) {
    weights.scale_sides(args.mover_factor, args.waiter_factor);
    ShapeFactor::apply_all(&args.shape_factors, weights);
}

/// The evaluation and the tables self-play (or a relabelling) plays with; `rules` are the
/// rules of the positions to be played, which `--weights` must be fitted for.
fn selfplay_engine(
    args: &SelfplayArgs,
    rules: &[Rule],
) -> Result<(EvalKind, Option<Arc<Weights>>), String> {
    let Some(path) = &args.weights else {
        return Ok((args.eval.unwrap_or(EvalKind::Classic), None));
    };
    if args.eval == Some(EvalKind::Classic) {
        return Err("--weights plays the learned evaluation: leave out --eval classic".into());
    }
    let hint = if args.relabel.is_some() {
        "the data holds positions of another rule"
    } else {
        "give --rule"
    };
    Ok((
        EvalKind::Learned,
        Some(weights_of_rules(path, rules, hint)?),
    ))
}

/// A weights file's tables, which must be for each of `rules`; `hint` says how to mend it.
fn weights_of_rules(
    path: &std::path::Path,
    rules: &[Rule],
    hint: &str,
) -> Result<Arc<Weights>, String> {
    let (weights, _) = read_weights(path)?;
    if let Some(other) = rules.iter().find(|&&r| r != weights.rule) {
        return Err(format!(
            "{}: weights for {}, not {} ({hint})",
            path.display(),
            weights.rule.name(),
            other.name()
        ));
    }
    Ok(Arc::new(weights))
}

pub fn run_selfplay(args: &SelfplayArgs) -> Result<String, String> {
    for (flag, input) in [("--weights", &args.weights), ("--relabel", &args.relabel)] {
        if input
            .as_deref()
            .is_some_and(|input| same_file(input, &args.out))
        {
            return Err(format!(
                "--out {} is the {flag} file: the positions would be appended to it",
                args.out.display()
            ));
        }
    }
    if let Some(data) = &args.relabel {
        return run_relabel(args, data);
    }
    let (eval, weights) = selfplay_engine(args, &[args.rule])?;
    // The openings are read first: a bad file leaves no output file behind.
    let config = SelfplayConfig {
        rule: args.rule,
        games: args.games,
        nodes: args.nodes,
        seed: args.seed,
        eval,
        openings: match &args.openings {
            Some(path) => Some(read_openings(path, OpeningFormat::Auto, SIZE, args.rule)?),
            None => None,
        },
        weights,
    };
    let mut out = append_to(&args.out)?;
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
        "{} games ({} black wins, {} white wins, {} draws), {} positions appended to {} in {:.0} s",
        s.games,
        s.black,
        s.white,
        s.draws,
        s.positions,
        args.out.display(),
        start.elapsed().as_secs_f64()
    ))
}

/// Whether two paths name one file (an existing one, or the same path).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// A data file opened for appending (made if missing), buffered.
fn append_to(path: &std::path::Path) -> Result<BufWriter<std::fs::File>, String> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    Ok(BufWriter::new(file))
}

/// A data file's samples; errors name the file (and the line).
fn read_data(path: &std::path::Path) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_all(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// `selfplay --relabel`: the data's positions searched again.
fn run_relabel(args: &SelfplayArgs, data: &std::path::Path) -> Result<String, String> {
    let samples = read_data(data)?;
    let mut rules: Vec<Rule> = Vec::new();
    for sample in &samples {
        if !rules.contains(&sample.rule) {
            rules.push(sample.rule);
        }
    }
    let (eval, weights) = selfplay_engine(args, &rules)?;
    let mut out = append_to(&args.out)?;
    let start = Instant::now();
    let n = relabel(&samples, args.nodes, eval, weights, &mut out, |done| {
        if done % 1000 == 0 {
            eprintln!("{done} positions, {:.0} s", start.elapsed().as_secs_f64());
        }
    })?;
    Ok(format!(
        "{n} positions searched again at {} nodes to {} in {:.0} s",
        args.nodes,
        args.out.display(),
        start.elapsed().as_secs_f64()
    ))
}

pub fn run_tune(args: &TuneArgs) -> Result<String, String> {
    let start = Instant::now();
    // Two factors for one group would multiply here but replace each other in a match
    // setting: say which one is meant.
    for (i, f) in args.shape_factors.iter().enumerate() {
        if args.shape_factors[..i].iter().any(|e| e.same_group(f)) {
            return Err(format!(
                "--shape-factor {} is given twice: give each group one factor",
                f.group()
            ));
        }
    }
    let samples = read_data(&args.data)?;
    if !samples.iter().any(|s| s.rule == args.rule) {
        let rules: std::collections::BTreeSet<&str> =
            samples.iter().map(|s| s.rule.name()).collect();
        return Err(format!(
            "{} has no {} positions{}",
            args.data.display(),
            args.rule.name(),
            match rules.len() {
                0 => String::new(),
                _ => format!(
                    " (it has {}: give --rule)",
                    rules.into_iter().collect::<Vec<_>>().join(", ")
                ),
            }
        ));
    }
    if args.policy_stats {
        return policy_report(args, &samples);
    }
    if let Some(count) = args.swing {
        let learned = tables_to_read(args)?;
        let mut report = String::new();
        for (name, eval) in [
            ("classic", EvalKind::Classic),
            ("learned", EvalKind::Learned),
        ] {
            let time = std::time::Duration::from_millis(args.swing_ms);
            let weights = (eval == EvalKind::Learned).then(|| Arc::clone(&learned));
            let s = swing(
                &samples,
                args.rule,
                eval,
                weights,
                count,
                MIDDLE_GAME_STONES,
                time,
            );
            report += &format!(
                "{name} eval: mean score change between depths {:.1} ({} depth pairs, {} positions)\n",
                s.mean, s.pairs, s.positions
            );
        }
        return Ok(report.trim_end().to_string());
    }
    let out = args.out.clone().ok_or("--out is required to fit")?;
    if same_file(&out, &args.data) {
        return Err(format!(
            "--out {} is the training data: the weights would overwrite it",
            out.display()
        ));
    }
    if args.weights.is_some() && !args.policy_only {
        return Err(
            "--weights is read by --policy-only, --policy-stats and --swing; a full \
                    fit starts from the classic evaluation, or from --start"
                .into(),
        );
    }
    check_writable(&out)?;
    if args.policy_only {
        if args.scale.is_some() || args.start.is_some() {
            return Err(
                "--scale and --start shape the evaluation fit, which --policy-only \
                        leaves out"
                    .into(),
            );
        }
        return policy_only(args, &samples, &out, start);
    }
    let start_weights = match &args.start {
        Some(path) => Some(read_weights(path)?.0),
        None => None,
    };
    let config = FitConfig {
        epochs: args.epochs,
        rate: args.rate,
        l2: args.l2,
        result_share: args.result_share,
        scale: args.scale,
        start: start_weights,
        ..FitConfig::default()
    };
    let every = (config.epochs / 10).max(1);
    let r = fit(&samples, args.rule, &config, |epoch, loss| {
        if epoch % every == 0 {
            eprintln!("epoch {epoch}: train loss {loss:.5}");
        }
    })?;
    let policy = fit_policy(
        &samples,
        args.rule,
        config.epochs,
        MIDDLE_GAME_STONES,
        args.policy_terms,
        config.holdout_every,
    );
    let mut weights = r.weights.clone();
    weights.policy = policy.policy.clone();
    scale(&mut weights, args);
    let (lo, hi) = wuzi_tune::fit::SCALE_RANGE;
    let pinned = args.scale.is_none() && (r.scale < lo * 1.01 || r.scale > hi * 0.99);
    if pinned {
        eprintln!(
            "wuzi: warning: the fitted scale {:.1} is at the end of its range ({lo} to {hi}): \
             the data are too few or too decided to fit it; give --scale (384.2 for the \
             embedded freestyle tables)",
            r.scale
        );
    }
    let report = format!(
        "{} positions ({} held out), scale {:.1} units per log-odds\n\
         loss (train / held out): classic {} / {}, learned {} / {}\n\
         {}\n\
         fitted in {:.0} s",
        r.train,
        r.holdout,
        r.scale,
        loss_text(r.classic_loss.0),
        loss_text(r.classic_loss.1),
        loss_text(r.fitted_loss.0),
        loss_text(r.fitted_loss.1),
        policy_text(&policy),
        start.elapsed().as_secs_f64()
    );
    let header = format!(
        "wuzi tune --data {} --rule {} --epochs {} --rate {} --l2 {} --result-share {}{}\n{report}",
        args.data.display(),
        args.rule.name(),
        config.epochs,
        config.rate,
        config.l2,
        config.result_share,
        config
            .scale
            .map(|s| format!(" --scale {s}"))
            .unwrap_or_default()
            + &args
                .start
                .as_ref()
                .map(|p| format!(" --start {}", p.display()))
                .unwrap_or_default()
            + &factor_flags(args)
    );
    write_weights(&out, &weights, &header, &report)
}

/// The policy fit's report: its loss (cross-entropy of the chosen move) before and after on
/// the positions it was fitted on and on the held-out games', and how often the chosen move
/// of a held-out position was the fitted policy's first, in its first 3 and first 8.
fn policy_text(fit: &PolicyFit) -> String {
    let mut text = format!(
        "policy: {} positions, loss (cross-entropy of the chosen move) {:.4} -> {:.4}",
        fit.positions, fit.loss.0, fit.loss.1
    );
    if let Some(held) = &fit.held_out {
        let [first, three, eight] = held.ranks.percent();
        text += &format!(
            "\npolicy held out: {} positions, loss {:.4} -> {:.4}, chosen move first / in the \
             first 3 / in the first 8: {first:.1}% / {three:.1}% / {eight:.1}%",
            held.ranks.positions, held.loss.0, held.loss.1
        );
    }
    text
}

/// `tune --policy-only`: the policy refitted, the evaluation tables kept bit for bit.
fn policy_only(
    args: &TuneArgs,
    samples: &[Sample],
    out: &std::path::Path,
    start: Instant,
) -> Result<String, String> {
    let (mut weights, old_header) = match &args.weights {
        None => (
            Weights::clone(&wuzi_gomoku::eval::embedded_weights(args.rule)),
            String::from("(evaluation: the embedded weights)"),
        ),
        Some(path) => {
            let (w, text) = read_weights(path)?;
            let header: Vec<&str> = text
                .lines()
                .take_while(|l| l.starts_with('#'))
                .map(|l| l.trim_start_matches('#').trim())
                // The last policy fit's lines: this fit writes its own.
                .filter(|l| !l.starts_with("policy") && !l.starts_with("fitted in"))
                .collect();
            (w, header.join("\n"))
        }
    };
    if weights.rule != args.rule {
        return Err(format!(
            "the weights are for {}, not {}",
            weights.rule.name(),
            args.rule.name()
        ));
    }
    let policy = fit_policy(
        samples,
        args.rule,
        args.epochs,
        MIDDLE_GAME_STONES,
        args.policy_terms,
        FitConfig::default().holdout_every,
    );
    weights.policy = policy.policy.clone();
    scale(&mut weights, args);
    let t = args.policy_terms;
    let terms: Vec<&str> = [
        ("codes", t.codes),
        ("near", t.near),
        ("combo", t.combo),
        ("local", t.local),
        ("state", t.state),
    ]
    .iter()
    .filter(|(_, on)| *on)
    .map(|(n, _)| *n)
    .collect();
    let report = format!(
        "{}\nfitted in {:.0} s",
        policy_text(&policy),
        start.elapsed().as_secs_f64()
    );
    let header = format!(
        "{old_header}\npolicy refitted alone: wuzi tune --data {} --rule {} --policy-only --epochs {} --policy-terms {}{}\n{report}",
        args.data.display(),
        args.rule.name(),
        args.epochs,
        terms.join(","),
        factor_flags(args)
    );
    write_weights(out, &weights, &header, &report)
}

/// Refuses an `--out` that cannot be written before a fit of half a minute, not after it.
/// The file is opened without being cut (and removed again if this made it).
fn check_writable(out: &std::path::Path) -> Result<(), String> {
    // The file that will be written: the one beside it that is renamed over it, if any.
    let target = partial_of(out).unwrap_or_else(|| out.to_path_buf());
    let existed = target.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&target)
        .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    if !existed {
        let _ = std::fs::remove_file(&target);
    }
    Ok(())
}

/// Writes `weights` with `header` to `out`, whole or not at all (a file beside it, then
/// renamed over it: the README's recipe writes into the embedded tables, and a cut-short
/// file there would build a weaker engine without a word); the report, with where the
/// weights went.
fn write_weights(
    out: &std::path::Path,
    weights: &Weights,
    header: &str,
    report: &str,
) -> Result<String, String> {
    let text = weights.to_text(header);
    let written = match partial_of(out) {
        Some(partial) => std::fs::write(&partial, text)
            .and_then(|()| std::fs::rename(&partial, out))
            .inspect_err(|_| {
                let _ = std::fs::remove_file(&partial);
            }),
        None => std::fs::write(out, text),
    };
    written.map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    Ok(format!("{report}\nweights written to {}", out.display()))
}

/// Where `out` is first written whole before it is renamed over `out`: beside a regular file
/// or a new one; `None` for anything else (a link, a pipe, a device), written in place, as
/// renaming over it would replace the link or the device itself.
fn partial_of(out: &std::path::Path) -> Option<PathBuf> {
    let regular = match std::fs::symlink_metadata(out) {
        Ok(meta) => meta.file_type().is_file(),
        Err(_) => true,
    };
    regular.then(|| {
        let mut partial = out.as_os_str().to_owned();
        partial.push(".partial");
        PathBuf::from(partial)
    })
}

/// Middle game: from this many stones on.
const MIDDLE_GAME_STONES: usize = 10;

/// `--rate`, `--scale` and the side factors: a positive, finite number.
fn parse_positive(text: &str) -> Result<f64, String> {
    number_that(text, |v| v > 0.0, "a positive number")
}

fn parse_non_negative(text: &str) -> Result<f64, String> {
    number_that(text, |v| v >= 0.0, "a number of 0 or more")
}

fn parse_share(text: &str) -> Result<f64, String> {
    number_that(text, |v| (0.0..=1.0).contains(&v), "a share from 0 to 1")
}

/// A finite number `ok` accepts, or an error saying what was `expected`.
fn number_that(text: &str, ok: impl Fn(f64) -> bool, expected: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(v) if v.is_finite() && ok(v) => Ok(v),
        _ => Err(format!("\"{text}\" is not {expected}")),
    }
}

/// A loss as the report prints it: `-` for one over no positions (a small data set whose
/// games all fell on one side of the held-out split), not `NaN`.
fn loss_text(loss: f64) -> String {
    if loss.is_finite() {
        format!("{loss:.5}")
    } else {
        "-".into()
    }
}

/// The factor flags as the header repeats them (none when there are none to apply).
fn factor_flags(args: &TuneArgs) -> String {
    let mut flags = String::new();
    if args.mover_factor != 1.0 {
        flags += &format!(" --mover-factor {}", args.mover_factor);
    }
    if args.waiter_factor != 1.0 {
        flags += &format!(" --waiter-factor {}", args.waiter_factor);
    }
    for f in &args.shape_factors {
        flags += &format!(" --shape-factor {f}");
    }
    flags
}

/// A weights file, parsed, with its text (for its header); errors name the file.
fn read_weights(path: &std::path::Path) -> Result<(Weights, String), String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let w = Weights::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok((w, text))
}

/// The tables `--policy-stats` and `--swing` read: `--weights`, or the embedded ones; of
/// the data's rule.
fn tables_to_read(args: &TuneArgs) -> Result<Arc<Weights>, String> {
    match &args.weights {
        Some(path) => weights_of_rules(path, &[args.rule], "give --rule"),
        None => Ok(wuzi_gomoku::eval::embedded_weights(args.rule)),
    }
}

fn policy_report(args: &TuneArgs, samples: &[Sample]) -> Result<String, String> {
    let weights = tables_to_read(args)?;
    let mut report = String::new();
    for (name, order) in [
        ("classic", EvalKind::Classic),
        ("learned", EvalKind::Learned),
    ] {
        let s = policy_stats(samples, args.rule, order, &weights, MIDDLE_GAME_STONES);
        let [a, b, c] = s.all.percent();
        report += &format!(
            "{name} order: {} positions, chosen move first {a:.1}%, in first 3 {b:.1}%, in first 8 {c:.1}%\n",
            s.all.positions
        );
        let [a, b, c] = s.undecided.percent();
        report += &format!(
            "{name} order, the {} not proven won or lost: first {a:.1}%, in first 3 {b:.1}%, in first 8 {c:.1}%\n",
            s.undecided.positions
        );
    }
    Ok(report.trim_end().to_string())
}
