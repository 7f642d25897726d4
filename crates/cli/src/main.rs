//! The `wuzi` command line: one binary for every front end.

mod algo;
mod analyze;
mod arg_check;
mod bench;
mod learn_cmd;
mod match_cmd;
mod output;
mod play_gomoku;
mod play_mnk;
mod position;
mod proofs;
mod record_file;
mod review;
mod serve;
mod show;
mod signals;
mod solve;
mod spsa_cmd;
mod spsa_log;
mod threats;
mod tournament_cmd;
mod tui;
mod tune;
mod typed;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

// Every command's `--help` ends with examples (plain multi-line strings, so
// that the indentation stays).
const EXAMPLES_PLAY: &str = "Examples:
  wuzi play                              full-screen on a terminal; ? shows the keys
  wuzi play --rule renju --colour white --time 3000
  wuzi play --load game.sgf --move 20    go on from move 20 of a recorded game
  wuzi play --plain                      the line mode: type h8, undo, hint, new, quit
  wuzi play tictactoe --first ai";

const EXAMPLES_SHOW: &str = "Examples:
  wuzi show h8 i9 h9
  wuzi show --rule renju --black h8,i8 --white a1,a2
  wuzi show game.sgf --game 2 --move 20
  wuzi show --format sgf h8 i9 h9 > game.sgf";

const EXAMPLES_ANALYZE: &str = "Examples:
  wuzi analyze h8 i9 h9 --time 3000
  wuzi analyze game.sgf --move 20 --depth 10
  wuzi analyze --json --nodes 100000 h8 i9";

const EXAMPLES_THREATS: &str = "Examples:
  wuzi threats h8 i9 h9 i8 h10 --kind vcf
  wuzi threats --rule renju game.sgf --move 30 --quiet 2 --time 5000
  wuzi threats h8 i9 h9 --opponent --json";

const EXAMPLES_PROOFS: &str = "Examples:
  wuzi proofs games.sgf --player wuzi
  wuzi proofs games.sgf --game 3 --nodes 200000 --json";

const EXAMPLES_REVIEW: &str = "Examples:
  wuzi review game.sgf                   every move after the opening, 300 ms a position
  wuzi review games.sgf --game 3 --time 1000
  wuzi review --rule renju h8 i9 j8 i7 i8 --json";

const EXAMPLES_BENCH: &str = "Examples:
  wuzi bench
  wuzi bench --json --depth-offset -2";

const EXAMPLES_MATCH: &str = "Examples:
  wuzi match --a time=100 --b time=100,vct=off --games 100 --sgf games.sgf
  wuzi match --a time=200 --b \"cmd=./pbrain-rapfi\" --sprt elo0=0,elo1=5";

const EXAMPLES_TOURNAMENT: &str = "Examples:
  wuzi tournament --engine nodes=30000 --engine nodes=10000 --engine \"nodes=30000,vct=off\"
  wuzi tournament --engine time=200 --engine \"cmd=./pbrain-mintaka\" \\
    --engine \"cmd=./pbrain-figrid\" --gauntlet --games 40 --sgf games.sgf";

const EXAMPLES_SPSA: &str = "Example:
  wuzi spsa --base nodes=10000 --knob lmr-div=200:30:60:600 --knob rfp-margin=40:8:10:150 \\
    --iterations 2000 --concurrency 2 --openings docs/openings/freestyle-15-balanced-626.txt";

const EXAMPLES_GOMOCUP: &str =
    "Example (the end of the input lets the search finish; END would stop it):
  printf 'START 15\\nINFO timeout_turn 500\\nBEGIN\\n' | wuzi gomocup";

const EXAMPLES_SERVE: &str = "Example:
  wuzi serve --addr 127.0.0.1:8080       then open http://127.0.0.1:8080/";

const EXAMPLES_SOLVE: &str = "Examples:
  wuzi solve tictactoe
  wuzi solve mnk --width 4 --height 3 --k 3 --json";

const EXAMPLES_SELFPLAY: &str = "Example:
  wuzi selfplay --games 100 --out selfplay.txt";

const EXAMPLES_TUNE: &str = "Example:
  wuzi tune --data selfplay.txt --out weights.txt";

const EXAMPLES_PERFT: &str = "Example:
  wuzi perft tictactoe";

const EXAMPLES_TICTACTOE: &str = "Examples:
  wuzi play tictactoe                    full-screen on a terminal; ? shows the keys
  wuzi play tictactoe --first ai --plain";

#[derive(Parser, Debug)]
#[command(
    name = "wuzi",
    version,
    about = "wuzi (五子): a Gomoku engine and adversarial-search library"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play Gomoku against the engine in the terminal (or `wuzi play tictactoe`).
    #[command(after_help = EXAMPLES_PLAY, args_conflicts_with_subcommands = true)]
    Play {
        #[command(subcommand)]
        game: Option<PlayGame>,
        #[command(flatten)]
        gomoku: play_gomoku::PlayGomokuArgs,
    },
    /// Show a position: the board, whose turn it is, the result, threats, forbidden points.
    #[command(after_help = EXAMPLES_SHOW)]
    Show(show::ShowArgs),
    /// Analyse a position with the engine.
    #[command(after_help = EXAMPLES_ANALYZE)]
    Analyze(analyze::AnalyzeArgs),
    /// Look for a win by threats alone (VCF: continuous fours; VCT: fours, open threes and
    /// optionally quiet threats) and print its line.
    #[command(after_help = EXAMPLES_THREATS)]
    Threats(threats::ThreatsArgs),
    /// Search every position of a record file again and list each proven win, its first move
    /// played, that the game contradicts: a false proof, or one the next search missed.
    #[command(after_help = EXAMPLES_PROOFS)]
    Proofs(proofs::ProofsArgs),
    /// Review a game move by move: the engine's choice beside each move, the chance of
    /// winning before and after it, and the inaccuracies, mistakes and blunders.
    #[command(after_help = EXAMPLES_REVIEW)]
    Review(review::ReviewArgs),
    /// Search fixed positions to fixed depths: a node-count signature and the speed.
    #[command(after_help = EXAMPLES_BENCH)]
    Bench(bench::BenchArgs),
    /// Play a match between two engines (wuzi settings or any Gomocup engine): Elo, SPRT, SGF.
    #[command(after_help = EXAMPLES_MATCH)]
    Match(match_cmd::MatchArgs),
    /// Play a tournament of several engines: every pair of them (a round robin) or the first
    /// against each of the others (a gauntlet), with one Elo per engine.
    #[command(after_help = EXAMPLES_TOURNAMENT)]
    Tournament(tournament_cmd::TournamentArgs),
    /// Tune search knobs by SPSA: many short matches of the knobs stepped up against the
    /// knobs stepped down.
    #[command(after_help = EXAMPLES_SPSA)]
    Spsa(spsa_cmd::SpsaArgs),
    /// Speak the Gomocup (piskvork) engine protocol on stdin/stdout, as pbrain-wuzi does.
    #[command(after_help = EXAMPLES_GOMOCUP)]
    Gomocup,
    /// Serve the browser page and its JSON API.
    #[command(after_help = EXAMPLES_SERVE)]
    Serve(serve::ServeArgs),
    /// Solve a small game exactly, from the empty board or from `--moves`.
    #[command(after_help = EXAMPLES_SOLVE)]
    Solve(solve::SolveArgs),
    /// Play node-limited games against itself and write every position with its result
    /// (training data for `wuzi tune`).
    #[command(after_help = EXAMPLES_SELFPLAY)]
    Selfplay(tune::SelfplayArgs),
    /// Fit the learned evaluation's tables to self-play data and write a weights file.
    #[command(after_help = EXAMPLES_TUNE)]
    Tune(tune::TuneArgs),
    /// Count the whole game tree of a tiny game (nodes, complete games, distinct positions),
    /// on boards of at most 10 cells.
    #[command(after_help = EXAMPLES_PERFT)]
    Perft(solve::PerftArgs),
}

#[derive(Subcommand, Debug)]
enum PlayGame {
    /// Tic-tac-toe against a player that never loses.
    #[command(after_help = EXAMPLES_TICTACTOE)]
    Tictactoe(play_mnk::PlayMnkArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Play { game: None, gomoku } => {
            if !gomoku.plain && tui::available() {
                return output::finish_unit(tui::play_gomoku(&gomoku));
            }
            let stdin = std::io::stdin();
            output::finish_unit(play_gomoku::play(&gomoku, stdin.lock(), std::io::stdout()))
        }
        Command::Show(args) => output::finish(show::show(&args)),
        Command::Analyze(args) => output::finish(analyze::analyze(&args)),
        Command::Threats(args) => output::finish(threats::threats(&args)),
        Command::Proofs(args) => output::finish(proofs::proofs(&args)),
        Command::Review(args) => output::finish(review::review(&args)),
        Command::Bench(args) => output::finish(bench::bench(&args)),
        Command::Match(args) => {
            output::finish_stoppable(match_cmd::run(&args), match_cmd::stopped_by)
        }
        Command::Tournament(args) => {
            output::finish_stoppable(tournament_cmd::run(&args), match_cmd::stopped_by)
        }
        Command::Spsa(args) => output::finish(spsa_cmd::run(&args)),
        Command::Serve(args) => serve::run(&args),
        Command::Gomocup => {
            wuzi_gomocup::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            ExitCode::SUCCESS
        }
        Command::Play {
            game: Some(PlayGame::Tictactoe(args)),
            ..
        } => {
            if !args.plain && tui::available() {
                return output::finish_unit(tui::play_tictactoe(&args));
            }
            let stdin = std::io::stdin();
            output::finish_unit(
                play_mnk::play(&args, stdin.lock(), std::io::stdout()).map_err(output::io_message),
            )
        }
        Command::Solve(args) => output::finish(solve::solve(&args)),
        Command::Perft(args) => output::finish(solve::perft(&args)),
        Command::Selfplay(args) => output::finish(tune::run_selfplay(&args)),
        Command::Tune(args) => output::finish(tune::run_tune(&args)),
    }
}
