//! The `wuzi` command line: one binary for every front end.

mod algo;
mod analyze;
mod bench;
mod match_cmd;
mod play_gomoku;
mod play_mnk;
mod position;
mod serve;
mod show;
mod solve;
mod tune;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

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
    #[command(args_conflicts_with_subcommands = true)]
    Play {
        #[command(subcommand)]
        game: Option<PlayGame>,
        #[command(flatten)]
        gomoku: play_gomoku::PlayGomokuArgs,
    },
    /// Show a position: the board, whose turn it is, the result, threats, forbidden points.
    Show(show::ShowArgs),
    /// Analyse a position with the engine.
    Analyze(analyze::AnalyzeArgs),
    /// Search fixed positions to fixed depths: a node-count signature and the speed.
    Bench(bench::BenchArgs),
    /// Play a match between two engines (wuzi settings or any Gomocup engine): Elo, SPRT, SGF.
    Match(match_cmd::MatchArgs),
    /// Speak the Gomocup (piskvork) engine protocol on stdin/stdout, as pbrain-wuzi does.
    Gomocup,
    /// Serve the browser page and its JSON API.
    Serve(serve::ServeArgs),
    /// Solve a small game exactly from the empty board.
    Solve(solve::SolveArgs),
    /// Play node-limited games against itself and write every position with its result
    /// (training data for `wuzi tune`).
    Selfplay(tune::SelfplayArgs),
    /// Fit the learned evaluation's tables to self-play data and write a weights file.
    Tune(tune::TuneArgs),
    /// Count the whole game tree of a tiny game (nodes, complete games, distinct positions).
    Perft(solve::PerftArgs),
}

#[derive(Subcommand, Debug)]
enum PlayGame {
    /// Tic-tac-toe against a player that never loses.
    Tictactoe(play_mnk::PlayMnkArgs),
}

fn print(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("wuzi: {message}");
            ExitCode::from(2)
        }
    }
}

fn print_unit(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("wuzi: {message}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Play { game: None, gomoku } => {
            let stdin = std::io::stdin();
            print_unit(play_gomoku::play(&gomoku, stdin.lock(), std::io::stdout()))
        }
        Command::Show(args) => print(show::show(&args)),
        Command::Analyze(args) => print(analyze::analyze(&args)),
        Command::Bench(args) => print(bench::bench(&args)),
        Command::Match(args) => print(match_cmd::run(&args)),
        Command::Serve(args) => serve::run(&args),
        Command::Gomocup => {
            wuzi_gomocup::run(std::io::BufReader::new(std::io::stdin()), std::io::stdout());
            ExitCode::SUCCESS
        }
        Command::Play {
            game: Some(PlayGame::Tictactoe(args)),
            ..
        } => {
            let stdin = std::io::stdin();
            match play_mnk::play(&args, stdin.lock(), std::io::stdout()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(error) => {
                    eprintln!("wuzi: {error}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Solve(args) => print(solve::solve(&args)),
        Command::Perft(args) => print(solve::perft(&args)),
        Command::Selfplay(args) => print(tune::run_selfplay(&args)),
        Command::Tune(args) => print(tune::run_tune(&args)),
    }
}
