//! `wuzi tournament`: several engines, every pair of them playing a match of the same
//! openings (a round robin, as Gomocup's leagues are played), or the first against each of
//! the others (`--gauntlet`). The manager is `wuzi_gomocup::manager::tournament`; this file
//! reads the arguments and writes the table.

use crate::match_cmd::{
    abort_flag, elo_text, ended_text, flush, game_count, openings_for, reused_openings_note,
    signless_zero, wins_losses_draws, Counts, MatchSetup, SgfSink,
};
use clap::Args;
use serde::Serialize;
use std::time::Duration;
use wuzi_gomocup::manager::player::check_programs;
use wuzi_gomocup::manager::side::{oversubscription_warning, Kind, SideSpec};
use wuzi_gomocup::manager::tournament::{
    game_order, labels, pairings, run_tournament, PairingResult, TournamentConfig, TournamentResult,
};
use wuzi_gomocup::manager::GameReport;
use wuzi_gomoku::{Board, Rule};

#[derive(Args, Debug)]
pub struct TournamentArgs {
    /// An engine, written as a side of `wuzi match` (`nodes=30000`, `time=200,vct=off`,
    /// `cmd=./pbrain-foo,time=1000`); give two or more.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    pub engines: Vec<String>,
    /// Only the first engine against each of the others, not every pair.
    #[arg(long)]
    pub gauntlet: bool,
    /// Games of each pairing, rounded up to an even number: each opening is played with
    /// both colours.
    #[arg(long, default_value_t = 20, value_parser = game_count)]
    pub games: usize,
    #[command(flatten)]
    pub setup: MatchSetup,
}

#[derive(Serialize)]
struct EngineJson<'a> {
    label: &'a str,
    spec: &'a str,
    #[serde(flatten)]
    counts: Counts,
    /// Of its losses, those by its program's fault (crash, timeout, illegal move, garbage).
    forfeits: u32,
    elo: f64,
}

#[derive(Serialize)]
struct PairingJson<'a> {
    a: &'a str,
    b: &'a str,
    #[serde(flatten)]
    counts: Counts,
    elo: Option<f64>,
    elo_error: Option<f64>,
    /// Complete pairs by A's pair score: 0, ½, 1, 1½, 2.
    pairs: [u32; 5],
    games: &'a [GameReport],
}

#[derive(Serialize)]
struct TournamentJson<'a> {
    gauntlet: bool,
    engines: Vec<EngineJson<'a>>,
    pairings: Vec<PairingJson<'a>>,
    interrupted: bool,
    openings_ran_out: bool,
    /// False when the games played leave groups of engines unlinked (an early stop): the
    /// groups' ratings are then not comparable.
    connected: bool,
}

pub fn run(args: &TournamentArgs) -> Result<String, String> {
    if args.engines.len() < 2 {
        return Err("a tournament needs two --engine or more".into());
    }
    let rule: Rule = args.setup.board.rule.into();
    Board::new(args.setup.board.size, rule).map_err(|e| e.to_string())?;
    let mut engines: Vec<SideSpec> = Vec::new();
    for (i, text) in args.engines.iter().enumerate() {
        let spec: SideSpec = text
            .parse()
            .map_err(|e| format!("--engine {} ({text}): {e}", i + 1))?;
        if let Kind::InProcess(options) = &spec.kind {
            options
                .check_rule(rule)
                .map_err(|e| format!("--engine {} ({text}): {e}", i + 1))?;
        }
        engines.push(spec);
    }
    let list = pairings(engines.len(), args.gauntlet);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    // The games that can run at once: no more than the pool's 64 threads or the games there are.
    let games_in_all = list.len().saturating_mul(args.games.div_ceil(2) * 2);
    let concurrency = args.setup.board.concurrency.clamp(1, 64).min(games_in_all);
    if let Some(warning) = list
        .iter()
        .find_map(|&(a, b)| oversubscription_warning(&engines[a], &engines[b], concurrency, cores))
    {
        eprintln!("{warning}");
    }
    let openings = openings_for(&args.setup, rule)?;
    // Before the files are opened (and emptied): a program that cannot play stops it all.
    check_programs(&engines, args.setup.board.size, rule, abort_flag())?;
    let log = args.setup.open_log()?;
    let sgf = SgfSink::open(args.setup.sgf.as_ref())?;
    let config = TournamentConfig {
        engines,
        gauntlet: args.gauntlet,
        games: args.games,
        size: args.setup.board.size,
        rule,
        concurrency,
        tolerance: args.setup.tolerance.map(Duration::from_millis),
        draw_after: args.setup.draw_after,
        openings,
        log: log.clone(),
        abort: abort_flag(),
    };
    if let Some(note) = reused_openings_note(&config.openings, config.games.div_ceil(2)) {
        eprintln!("{note}");
    }
    let labels = labels(&config.engines);
    let total = config.games_in_all();
    let (bar, plain_progress) = args.setup.progress(total as u64);
    let size = args.setup.board.size;
    let result = run_tournament(&config, &|pairing, game, standing| {
        let (a, b) = list[pairing];
        let text = format!(
            "{} vs {}: {}",
            labels[a],
            labels[b],
            wins_losses_draws(&standing.tally)
        );
        bar.set_message(text.clone());
        bar.inc(1);
        if plain_progress {
            eprintln!(
                "{}/{total} games  {text}  (game {}: {})",
                bar.position(),
                game.number,
                game.reason
            );
        }
        let event = format!("wuzi tournament: {} vs {}", labels[a], labels[b]);
        let order = game_order(list.len(), pairing, game.number);
        sgf.write(order, || game.to_sgf(size, rule, &event));
    });
    bar.finish_and_clear();
    flush(&log);
    sgf.finish();
    if result.openings_ran_out && result.pairings.iter().all(|p| p.games.is_empty()) {
        return Err(format!(
            "no balanced {rule} {size}x{size} opening could be generated: give --openings FILE"
        ));
    }
    if args.setup.json {
        return Ok(json(args, &result));
    }
    Ok(table(args, &result, rule))
}

fn json(args: &TournamentArgs, result: &TournamentResult) -> String {
    let engines = result
        .engines
        .iter()
        .zip(&args.engines)
        .map(|(e, spec)| EngineJson {
            label: &e.label,
            spec,
            counts: Counts::of(&e.tally),
            forfeits: e.forfeits,
            elo: e.elo,
        })
        .collect();
    let pairings = result
        .pairings
        .iter()
        .map(|p| {
            let t = &p.standing.tally;
            let (elo, elo_error) = p.standing.elo();
            PairingJson {
                a: &result.engines[p.a].label,
                b: &result.engines[p.b].label,
                counts: Counts::of(t),
                elo,
                elo_error,
                pairs: p.standing.pairs.0,
                games: &p.games,
            }
        })
        .collect();
    let out = TournamentJson {
        gauntlet: args.gauntlet,
        engines,
        pairings,
        interrupted: result.interrupted,
        openings_ran_out: result.openings_ran_out,
        connected: result.connected,
    };
    serde_json::to_string(&out).expect("serialisable")
}

/// The engines by rating, then each pairing from its first engine's side.
fn table(args: &TournamentArgs, result: &TournamentResult, rule: Rule) -> String {
    let size = args.setup.board.size;
    let played: u32 = result
        .pairings
        .iter()
        .map(|p| p.standing.tally.games())
        .sum();
    let kind = if args.gauntlet {
        "Gauntlet"
    } else {
        "Round robin"
    };
    let ended = ended_text(result.interrupted, result.openings_ran_out);
    let mut out = format!(
        "{kind} of {} engines, {rule} {size}x{size}: {}{ended}\n",
        result.engines.len(),
        crate::output::count(played as usize, "game"),
    );
    let width = result
        .engines
        .iter()
        .map(|e| e.label.chars().count())
        .max()
        .unwrap_or(0)
        .max("engine".len());
    let mut order: Vec<usize> = (0..result.engines.len()).collect();
    order.sort_by(|&x, &y| result.engines[y].elo.total_cmp(&result.engines[x].elo));
    out.push_str(&format!(
        "rank  {:width$}  {:>5}  {:>6}  {:>6}  W-L-D\n",
        "engine", "Elo", "games", "score"
    ));
    for (rank, &i) in order.iter().enumerate() {
        let e = &result.engines[i];
        // An engine with no game yet (a run stopped early) has no score to show.
        let score = match e.tally.games() {
            0 => "-".to_string(),
            _ => format!("{:.1}%", 100.0 * e.tally.score()),
        };
        // Losses that were the program's fault, not play: an organiser wants to see them.
        let forfeits = match e.forfeits {
            0 => String::new(),
            n => format!("  ({n} lost by forfeit: crash, timeout or illegal move)"),
        };
        out.push_str(&format!(
            "{:>4}  {:width$}  {:>+5.0}  {:>6}  {:>6}  {}{forfeits}\n",
            rank + 1,
            e.label,
            signless_zero(e.elo),
            e.tally.games(),
            score,
            wins_losses_draws(&e.tally),
        ));
    }
    out.push_str("Pairings (the first engine's games):\n");
    for p in &result.pairings {
        out.push_str(&format!("  {}\n", pairing_line(result, p)));
    }
    out.push_str(
        "Elo: one scale for all (Bradley-Terry, mean 0); each pairing's Elo and error are its \
         own match's.",
    );
    let played = result.engines.iter().any(|e| e.tally.games() > 0);
    if !result.connected && played {
        out.push_str(
            "\nThe games played do not link every engine to the others: the ratings of \
             engines that are not linked are not comparable.",
        );
    }
    out
}

/// `wuzi depth=3 vs wuzi depth=2: +3 -1 =0, score 75.0%, Elo +191 ± 400`.
fn pairing_line(result: &TournamentResult, p: &PairingResult) -> String {
    let first = &result.engines[p.a].label;
    let second = &result.engines[p.b].label;
    // A pairing a stop came before has no score to show.
    if p.standing.tally.games() == 0 {
        return format!("{first} vs {second}: no game played");
    }
    format!(
        "{first} vs {second}: {}, score {:.1}%, {}",
        wins_losses_draws(&p.standing.tally),
        100.0 * p.standing.tally.score(),
        elo_text(&p.standing, "the first"),
    )
}
