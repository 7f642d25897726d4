//! The `wuzi` command line: one binary for every front end.

mod algo;
mod play_mnk;
mod solve;

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
    /// Play in the terminal.
    Play {
        #[command(subcommand)]
        game: PlayGame,
    },
    /// Solve a small game exactly from the empty board.
    Solve(solve::SolveArgs),
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Play {
            game: PlayGame::Tictactoe(args),
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
    }
}
