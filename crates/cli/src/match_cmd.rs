//! `wuzi match`: two engines play each other from openings, colours swapped, until a game
//! count or an SPRT decision. Each side is wuzi itself (`time=100,vct=off`) or any Gomocup
//! program (`cmd=./pbrain-foo,time=1000`); the manager is `wuzi_gomocup::manager`, this file
//! reads the arguments and writes the results. The setup, files and output it shares with
//! `wuzi tournament` ([`MatchSetup`], [`SgfSink`], the Elo text) live here too.

use crate::arg_check::at_least_one;
use crate::position::RuleArg;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use wuzi_gomocup::manager::openings::{read_openings, shortest_opening, OpeningFormat, Rng};
use wuzi_gomocup::manager::player::check_programs;
use wuzi_gomocup::manager::player::Log;
use wuzi_gomocup::manager::side::{oversubscription_warning, Kind, SideSpec};
use wuzi_gomocup::manager::stats::{Decision, Sprt, Tally};
use wuzi_gomocup::manager::{run_match, GameReport, MatchConfig, OpeningSource, Standing};
use wuzi_gomoku::{Board, Rule};

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Engine A. wuzi in-process: `time=100,vct=off` (keys time, depth, nodes, match,
    /// memory, hash, width, threads, search=selective|generic, the switches vcf, vct,
    /// leaf-vcf, defence, pvs, tt, killers, history, vct-quiet=N, eval=learned|classic,
    /// order=learned|classic, the search parameters of engine/params.rs, weights=FILE, and
    /// evaluation shape factors such as
    /// waiter:open-three=0.94). Any Gomocup engine: `cmd=PATH ARGS` plus time (ms per move),
    /// match (ms per game), nodes, depth, threads, memory (bytes), name, settle (no command
    /// reaches it until this many ms after its move, for engines that drop one that comes too
    /// soon), and start-wait (ms it may take to answer START; 5000). Quote values holding
    /// commas.
    /// Without time or match a side gets 100 ms a move (wuzi, unless it has depth or nodes)
    /// or 1000 ms (cmd= engines, which always play on a clock).
    #[arg(long, default_value = "time=100")]
    pub a: String,
    /// Engine B (same keys).
    #[arg(long, default_value = "time=100")]
    pub b: String,
    /// Games to play; with --sprt, the most to play (default 100, or 20000 with --sprt).
    /// Rounded up to an even number: each opening is played with both colours.
    #[arg(long, value_parser = game_count)]
    pub games: Option<usize>,
    /// Stop when a sequential probability ratio test decides, e.g.
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05`.
    #[arg(long)]
    pub sprt: Option<String>,
    #[command(flatten)]
    pub setup: MatchSetup,
}

/// How the games of a match or a tournament are set up and reported: the board, the
/// openings, the clocks' tolerance, and the files and output.
#[derive(Args, Debug)]
pub struct MatchSetup {
    #[command(flatten)]
    pub board: GamesArgs,
    /// An opening file: c-gomoku-cli `pos` lines (`h8i9j7`), Gomocup offsets (`0,0, 1,-1`)
    /// or wuzi move lists. Without it, generated balanced openings.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// How the opening file is written.
    #[arg(long, value_enum, ignore_case = true, default_value_t = FormatArg::Auto)]
    pub openings_format: FormatArg,
    /// The order openings are used in (random: shuffled with --seed).
    #[arg(long, value_enum, ignore_case = true, default_value_t = OrderArg::Sequential)]
    pub openings_order: OrderArg,
    /// Seed of the generated openings and of the random opening order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Extra ms past a side's time before it forfeits (default 1000 past a turn time, 0 past
    /// a match clock).
    #[arg(long)]
    pub tolerance: Option<u64>,
    /// Call a game drawn once this many stones are on the board.
    #[arg(long, value_parser = at_least_one::<usize>)]
    pub draw_after: Option<usize>,
    /// Write every game to this SGF file.
    #[arg(long)]
    pub sgf: Option<PathBuf>,
    /// Keep the engines' MESSAGE lines in this file, their error output (stderr; the first
    /// 1,000 lines of each engine process), and any line they print unasked.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Print one JSON object at the end.
    #[arg(long)]
    pub json: bool,
    /// No progress output.
    #[arg(long)]
    pub quiet: bool,
}

/// The games' rule and board, and how many run at once: shared by `match`, `tournament`
/// (through [`MatchSetup`]) and `spsa`.
#[derive(Args, Debug)]
pub struct GamesArgs {
    /// Games played at the same time.
    #[arg(long, default_value_t = 1, value_parser = at_least_one::<usize>)]
    pub concurrency: usize,
    /// The rule the games are played under.
    #[arg(long, value_enum, ignore_case = true, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
    /// The board's size, 5 to 22.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
}

impl MatchSetup {
    /// The file of `--log`, opened for the engines' lines.
    pub(crate) fn open_log(&self) -> Result<Option<Log>, String> {
        let Some(path) = &self.log else {
            return Ok(None);
        };
        // Both in one file would interleave them into something neither reader can read.
        if let Some(sgf) = &self.sgf {
            let same = |a: &PathBuf, b: &PathBuf| {
                a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
            };
            if same(sgf, path) {
                return Err(format!(
                    "--sgf and --log name the same file ({}): give each its own",
                    path.display()
                ));
            }
        }
        // Line by line, so that `tail -f` follows the games and a killed manager loses none.
        let file = std::io::LineWriter::new(create(path, "the log")?);
        Ok(Some(Arc::new(Mutex::new(file))))
    }

    /// The progress of `games` games: a bar on a terminal that can draw one (hidden with
    /// `--quiet`), and whether to print a line a game instead (into a file or a pipe, or on a
    /// `TERM=dumb` terminal, which the bar's cursor moves would litter).
    pub(crate) fn progress(&self, games: u64) -> (ProgressBar, bool) {
        let drawable = std::io::stderr().is_terminal()
            && std::env::var_os("TERM").is_none_or(|term| term != "dumb");
        let bar = if self.quiet || !drawable {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(games)
        };
        bar.set_style(
            ProgressStyle::with_template("{pos}/{len} games  {msg}  [{elapsed_precise}]")
                .expect("valid template"),
        );
        (bar, !self.quiet && !drawable)
    }
}

/// Writes out what the log holds.
pub(crate) fn flush(log: &Option<Log>) {
    if let Some(log) = log {
        let _ = log.lock().unwrap_or_else(|e| e.into_inner()).flush();
    }
}

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum FormatArg {
    /// `offset` for lines of numbers, `pos` for letters written together (`h8i9`), `wuzi`
    /// for letters with spaces (`h8 i9`).
    Auto,
    /// c-gomoku-cli: `h8i9j7`, column letter and row counted from the top.
    Pos,
    /// Gomocup: `x,y, x,y` from the centre.
    Offset,
    /// wuzi move lists: `h8 i9` (rows from the bottom) or `7,7 8,8`.
    Wuzi,
}

#[derive(Copy, Clone, Debug, ValueEnum)]
pub enum OrderArg {
    Sequential,
    Random,
}

/// The stop flag and the number of the signal that set it (0 while none has), made with
/// their handlers by the first match or tournament that asks.
static ABORT: OnceLock<(Arc<AtomicBool>, Arc<AtomicUsize>)> = OnceLock::new();

/// Set by Ctrl-C, SIGTERM or a hang-up ([`crate::signals::terminating`]): the match stops,
/// engines are ended, what was played is reported.
pub(crate) fn abort_flag() -> Arc<AtomicBool> {
    let (flag, _) = ABORT.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let number = Arc::new(AtomicUsize::new(0));
        let (seen, sigint) = (flag.clone(), number.clone());
        // Without a handler Ctrl-C still ends everything; with one, children are reaped.
        let _ = ctrlc::set_handler(move || {
            sigint.store(2, Ordering::Relaxed);
            seen.store(true, Ordering::Relaxed);
        });
        #[cfg(unix)]
        for signal in crate::signals::terminating() {
            // The number first: whoever sees the flag may read it at once.
            let _ = signal_hook::flag::register_usize(signal, number.clone(), signal as usize);
            let _ = signal_hook::flag::register(signal, flag.clone());
        }
        (flag, number)
    });
    flag.clone()
}

/// The signal that stopped a match or tournament, if one did: its report is printed all the
/// same, and the command then exits 128 + the signal's number (130 for Ctrl-C, as a shell
/// reports it), so a script does not take it for a finished run.
pub(crate) fn stopped_by() -> Option<u8> {
    let (flag, number) = ABORT.get()?;
    flag.load(Ordering::Relaxed)
        .then(|| (number.load(Ordering::Relaxed) as u8).max(1))
}

/// A tally as the JSON outputs write it: the games, the first side's wins, losses and
/// draws, and its score.
#[derive(Serialize)]
pub(crate) struct Counts {
    played: u32,
    wins: u32,
    losses: u32,
    draws: u32,
    /// `null` before any game: no score yet.
    score: Option<f64>,
}

impl Counts {
    pub(crate) fn of(t: &Tally) -> Counts {
        Counts {
            played: t.games(),
            wins: t.wins,
            losses: t.losses,
            draws: t.draws,
            score: (t.games() > 0).then(|| t.score()),
        }
    }
}

#[derive(Serialize)]
struct MatchJson<'a> {
    a: &'a str,
    b: &'a str,
    #[serde(flatten)]
    counts: Counts,
    elo: Option<f64>,
    elo_error: Option<f64>,
    /// The likelihood that A is the stronger, from its wins and losses (`None` before any).
    los: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    llr: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    llr_bounds: Option<(f64, f64)>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt: Option<Decision>,
    /// The games counted and the LLR when the SPRT decided (games in flight then are counted
    /// in the totals too).
    #[serde(skip_serializing_if = "Option::is_none")]
    sprt_decided_at: Option<(u32, f64)>,
    /// Complete pairs by A's pair score: 0, ½, 1, 1½, 2.
    pairs: [u32; 5],
    /// A's games as Black and as White (each game's own `a_black` says which it was).
    a_as_black: Tally,
    a_as_white: Tally,
    interrupted: bool,
    /// Fewer games than asked: no more balanced openings could be generated.
    openings_ran_out: bool,
    games: &'a [GameReport],
}

/// `Elo +29 ± 120` for the match's first side, or why there is no Elo (`first`: how that
/// side is called, for "Elo: A won every game").
pub(crate) fn elo_text(standing: &Standing, first: &str) -> String {
    let t = &standing.tally;
    match standing.elo() {
        (Some(e), Some(err)) => format!("Elo {:+.0} ± {err:.0}", signless_zero(e)),
        (Some(e), None) => format!("Elo {:+.0}", signless_zero(e)),
        (None, _) if t.games() == 0 => "Elo -".into(),
        (None, _) if t.wins > t.losses => format!("Elo: {first} won every game"),
        (None, _) => format!("Elo: {first} lost every game"),
    }
}

/// An Elo to print with `{:+.0}`: rounding must not print "-0".
pub(crate) fn signless_zero(elo: f64) -> f64 {
    if elo.abs() < 0.5 {
        0.0
    } else {
        elo
    }
}

/// Why a run played fewer games than asked, for its summary line (or nothing).
pub(crate) fn ended_text(interrupted: bool, openings_ran_out: bool) -> &'static str {
    if interrupted {
        " (interrupted)"
    } else if openings_ran_out {
        " (no more balanced openings could be generated: give --openings FILE for more)"
    } else {
        ""
    }
}

/// `+5 -4 =3`: wins, losses and draws.
pub(crate) fn wins_losses_draws(t: &Tally) -> String {
    format!("+{} -{} ={}", t.wins, t.losses, t.draws)
}

/// `A +5 -4 =3, score 54.2%, Elo +29 ± 120, LOS 63.8%, LLR 0.31 [-2.94, 2.94]`.
fn standing_text(standing: &Standing) -> String {
    let t = &standing.tally;
    let mut text = format!(
        "A {} (W-L-D), score {:.1}%, {}",
        wins_losses_draws(t),
        100.0 * t.score(),
        elo_text(standing, "A")
    );
    if let Some(los) = t.los() {
        text.push_str(&format!(", LOS {:.1}%", 100.0 * los));
    }
    if let (Some(llr), Some((lo, hi))) = (standing.llr, standing.bounds) {
        text.push_str(&format!(", LLR {llr:.2} [{lo:.2}, {hi:.2}]"));
    }
    text
}

fn opening_source(args: &MatchSetup, rule: Rule) -> Result<OpeningSource, String> {
    let Some(path) = &args.openings else {
        return Ok(OpeningSource::Generated(args.seed));
    };
    let format = match args.openings_format {
        FormatArg::Auto => OpeningFormat::Auto,
        FormatArg::Pos => OpeningFormat::Pos,
        FormatArg::Offset => OpeningFormat::Offset,
        FormatArg::Wuzi => OpeningFormat::Wuzi,
    };
    let mut list = read_openings(path, format, args.board.size, rule)?;
    if let OrderArg::Random = args.openings_order {
        Rng(args.seed).shuffle(&mut list);
    }
    Ok(OpeningSource::List(list))
}

/// The openings, refused with `--draw-after` at or below the stones of every one of them: all
/// the games would be drawn before an engine moved, and the engines started for nothing.
pub(crate) fn openings_for(args: &MatchSetup, rule: Rule) -> Result<OpeningSource, String> {
    let source = opening_source(args, rule)?;
    let shortest = shortest_opening(&source);
    match args.draw_after {
        Some(n) if n <= shortest => Err(format!(
            "--draw-after {n} calls every game a draw before any engine moves: every opening \
             puts {shortest} or more stones on the board"
        )),
        _ => Ok(source),
    }
}

/// A note for stderr when a file holds fewer openings than a run's pairs of games need: the
/// openings are then played again from the first, which a user counting on distinct
/// openings should know.
pub(crate) fn reused_openings_note(openings: &OpeningSource, pairs: usize) -> Option<String> {
    match openings {
        OpeningSource::List(list) if !list.is_empty() && pairs > list.len() => Some(format!(
            "wuzi: note: {} for {} of games: the file's openings are played again from its first",
            crate::output::count(list.len(), "opening"),
            crate::output::count(pairs, "pair"),
        )),
        _ => None,
    }
}

/// Where each finished game is written, in the run's order, as soon as the games before it
/// are (so that a long run that is killed keeps its records, but for the few held back for
/// an earlier game still in play: fewer than `--concurrency`), one SGF tree after another;
/// nowhere without `--sgf`.
pub(crate) struct SgfSink {
    file: Option<Mutex<SgfFile>>,
    failed: AtomicBool,
}

/// The SGF file and the games that finished ahead of an earlier one, held back so that the
/// file lists the games in their order (`--game N` is game N), however they finish.
struct SgfFile {
    file: std::fs::File,
    /// Whether a game is in the file yet.
    started: bool,
    /// The place in the order of the next game to write.
    next: usize,
    waiting: std::collections::BTreeMap<usize, String>,
}

impl SgfSink {
    pub(crate) fn open(path: Option<&PathBuf>) -> Result<SgfSink, String> {
        let file = match path {
            Some(path) => Some(Mutex::new(SgfFile {
                file: create(path, "the SGF file")?,
                started: false,
                next: 0,
                waiting: Default::default(),
            })),
            None => None,
        };
        Ok(SgfSink {
            file,
            failed: AtomicBool::new(false),
        })
    }

    /// Takes the game `sgf` makes (only made when there is a file), the `order`-th game of the
    /// run counting from 0, and writes every game now due in order.
    pub(crate) fn write(&self, order: usize, sgf: impl FnOnce() -> String) {
        let Some(file) = &self.file else {
            return;
        };
        let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
        file.waiting.insert(order, sgf());
        self.write_due(&mut file, false);
    }

    /// Once the run is over: writes the games held back (a stopped run leaves gaps in the
    /// order), and says on stderr when some game could not be written.
    pub(crate) fn finish(&self) {
        if let Some(file) = &self.file {
            let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
            self.write_due(&mut file, true);
        }
        if self.failed.load(Ordering::Relaxed) {
            eprintln!("wuzi: some games could not be written to the SGF file");
            crate::output::RECORDS_INCOMPLETE.store(true, Ordering::Relaxed);
        }
    }

    /// Writes the games whose turn has come (with `all`, every one held).
    fn write_due(&self, file: &mut SgfFile, all: bool) {
        while let Some(entry) = file.waiting.first_entry() {
            if !all && *entry.key() != file.next {
                return;
            }
            let (order, game) = entry.remove_entry();
            file.next = order + 1;
            let separator = if file.started { "\n" } else { "" };
            file.started = true;
            let text = format!("{separator}{game}");
            if file.file.write_all(text.as_bytes()).is_err() {
                self.failed.store(true, Ordering::Relaxed);
            }
        }
    }
}

pub(crate) fn create(path: &PathBuf, what: &str) -> Result<std::fs::File, String> {
    std::fs::File::create(path).map_err(|e| format!("cannot write {what} {}: {e}", path.display()))
}

pub fn run(args: &MatchArgs) -> Result<String, String> {
    let a: SideSpec = args.a.parse().map_err(|e| format!("--a: {e}"))?;
    let b: SideSpec = args.b.parse().map_err(|e| format!("--b: {e}"))?;
    let sprt: Option<Sprt> = match &args.sprt {
        Some(s) => Some(s.parse().map_err(|e| format!("--sprt: {e}"))?),
        None => None,
    };
    let rule: Rule = args.setup.board.rule.into();
    Board::new(args.setup.board.size, rule).map_err(|e| e.to_string())?;
    for (flag, side) in [("--a", &a), ("--b", &b)] {
        if let Kind::InProcess(options) = &side.kind {
            options
                .check_rule(rule)
                .map_err(|e| format!("{flag}: {e}"))?;
        }
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if let Some(warning) = oversubscription_warning(&a, &b, args.setup.board.concurrency, cores) {
        eprintln!("{warning}");
    }
    let openings = openings_for(&args.setup, rule)?;
    // Before the files are opened (and emptied): a program that cannot play stops it all.
    check_programs([&a, &b], args.setup.board.size, rule, abort_flag())?;
    let log = args.setup.open_log()?;
    let sgf = SgfSink::open(args.setup.sgf.as_ref())?;
    let event = format!("wuzi match {} vs {}", args.a, args.b);
    let config = MatchConfig {
        a,
        b,
        size: args.setup.board.size,
        rule,
        games: args
            .games
            .unwrap_or(if sprt.is_some() { 20_000 } else { 100 }),
        sprt,
        concurrency: args.setup.board.concurrency,
        tolerance: args.setup.tolerance.map(Duration::from_millis),
        draw_after: args.setup.draw_after,
        openings,
        log: log.clone(),
        abort: abort_flag(),
    };
    // An SPRT's game count is a cap, seldom reached.
    let pairs = config.games.div_ceil(2);
    if let Some(note) =
        reused_openings_note(&config.openings, pairs).filter(|_| config.sprt.is_none())
    {
        eprintln!("{note}");
    }
    let (bar, plain_progress) = args.setup.progress(pairs as u64 * 2);
    let result = run_match(&config, &|game, standing| {
        bar.set_message(standing_text(standing));
        bar.inc(1);
        if plain_progress {
            let done = standing.tally.games();
            let line = format!(
                "{done}/{} games  {}",
                standing.games_cap,
                standing_text(standing)
            );
            eprintln!("{line}  (game {}: {})", game.number, game.reason);
        }
        sgf.write(game.number - 1, || {
            game.to_sgf(args.setup.board.size, rule, &event)
        });
        if plain_progress || game.winner.is_none() || game.reason.contains(" made five") {
            return;
        }
        bar.println(format!("game {}: {}", game.number, game.reason));
    });
    bar.finish_and_clear();
    flush(&log);
    sgf.finish();
    if result.openings_ran_out && result.games.is_empty() {
        return Err(format!(
            "no balanced {rule} {0}x{0} opening could be generated: give --openings FILE",
            args.setup.board.size
        ));
    }
    let standing = &result.standing;
    let t = &standing.tally;
    if args.setup.json {
        let (elo, elo_error) = standing.elo();
        let out = MatchJson {
            a: &args.a,
            b: &args.b,
            counts: Counts::of(t),
            elo,
            elo_error,
            los: t.los(),
            llr: standing.llr,
            llr_bounds: standing.bounds,
            sprt: standing.decision,
            sprt_decided_at: standing.decided,
            pairs: standing.pairs.0,
            a_as_black: standing.a_as_black,
            a_as_white: standing.a_as_white,
            interrupted: result.interrupted,
            openings_ran_out: result.openings_ran_out,
            games: &result.games,
        };
        return Ok(serde_json::to_string(&out).expect("serialisable"));
    }
    // A decision names the game and LLR it came at: games in flight then are counted too.
    let at = standing.decided.map_or(String::new(), |(games, llr)| {
        format!(" after {games} games at LLR {llr:.2}")
    });
    let verdict = match standing.decision {
        Some(Decision::H1) => format!(". SPRT: H1 accepted{at} (A is stronger by elo1 or more)"),
        Some(Decision::H0) => format!(". SPRT: H0 accepted{at} (A is not stronger than elo0)"),
        Some(Decision::Continue) => ". SPRT: no decision within the games played".into(),
        None => String::new(),
    };
    let interrupted = ended_text(result.interrupted, result.openings_ran_out);
    Ok(format!(
        "A ({}) vs B ({}), {}{interrupted}, {rule} {}x{}: {}{verdict}\n\
         A as Black {}, as White {}",
        args.a,
        args.b,
        crate::output::count(t.games() as usize, "game"),
        args.setup.board.size,
        args.setup.board.size,
        standing_text(standing),
        wins_losses_draws(&standing.a_as_black),
        wins_losses_draws(&standing.a_as_white),
    ))
}

/// The most games a match or a tournament's pairing may ask for: far more than any run
/// plays, and far from the overflow of the counts made from it.
pub const MAX_GAMES: usize = 1_000_000;

/// A game count: 1 to [`MAX_GAMES`].
pub fn game_count(text: &str) -> Result<usize, String> {
    match at_least_one::<usize>(text)? {
        n if n > MAX_GAMES => Err(format!("must be at most {MAX_GAMES}")),
        n => Ok(n),
    }
}
