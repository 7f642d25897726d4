//! `wuzi play tictactoe`: a game in the terminal against a perfect player.

use crate::algo::Algo;
use clap::{Args, ValueEnum};
use std::io::{BufRead, Write};
use wuzi_mnk::Mnk;
use wuzi_search::{Forced, Game, Player, Strategy};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum FirstMover {
    Human,
    Ai,
}

#[derive(Args, Debug, Clone)]
pub struct PlayMnkArgs {
    /// Who plays X (X moves first).
    #[arg(long, value_enum, ignore_case = true, default_value_t = FirstMover::Human)]
    pub first: FirstMover,
    /// The algorithm the AI uses (all of them play perfectly).
    #[arg(long, value_enum, ignore_case = true, default_value_t = Algo::Search)]
    pub algo: Algo,
    /// The line mode (type `b2`, read the board) even on a terminal.
    #[arg(long)]
    pub plain: bool,
}

const HELP: &str = "Moves are a column letter and a row number, e.g. b2 (a1 is bottom-left).\n\
Commands: undo (take back your last move), hint, new, quit, help.";

struct Session {
    board: Mnk,
    human: Player,
    ai: Box<dyn Strategy<Mnk>>,
}

impl Session {
    fn mark(player: Player) -> char {
        match player {
            Player::First => 'X',
            Player::Second => 'O',
        }
    }

    fn ai_moves(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.board.is_over() || self.board.to_move() == self.human {
            return Ok(());
        }
        let result = self.ai.search(&mut self.board);
        let mv = result.best_move.expect("the game is not over");
        let verdict = match result.score.forced() {
            Some(Forced::Win(plies)) => format!(" (it wins in {})", plies_text(plies)),
            Some(Forced::Loss(_)) => " (it is lost)".to_string(),
            None => String::new(),
        };
        writeln!(out, "AI plays {}{verdict}", self.board.cell_name(mv))?;
        self.board.play(mv);
        Ok(())
    }

    fn show(&self, out: &mut impl Write) -> std::io::Result<()> {
        write!(out, "\n{}", self.board)?;
        match self.board.outcome() {
            Some(wuzi_search::Outcome::Win(winner)) if winner == self.human => {
                writeln!(out, "You win! Type new or quit.")
            }
            Some(wuzi_search::Outcome::Win(_)) => writeln!(out, "The AI wins. Type new or quit."),
            Some(wuzi_search::Outcome::Draw) => writeln!(out, "Draw. Type new or quit."),
            None => writeln!(out, "You are {}. Your move:", Self::mark(self.human)),
        }
    }

    fn undo(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let human_moves = self.board.history().len() / 2
            + usize::from(self.human == Player::First && self.board.history().len() % 2 == 1);
        if human_moves == 0 {
            return writeln!(out, "Nothing to undo.");
        }
        // Take back the AI's reply (if any) and the human's move before it.
        loop {
            let mover = self.board.to_move().opponent();
            self.board.take_back();
            if mover == self.human {
                break;
            }
        }
        writeln!(out, "Taken back.")
    }

    fn hint(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.board.is_over() {
            return writeln!(out, "The game is over.");
        }
        let result = self.ai.search(&mut self.board);
        let mv = result.best_move.expect("the game is not over");
        writeln!(
            out,
            "Hint: {} ({})",
            self.board.cell_name(mv),
            describe(result.score.forced())
        )
    }
}

fn describe(forced: Option<Forced>) -> String {
    match forced {
        Some(Forced::Win(plies)) => format!("wins in {}", plies_text(plies)),
        Some(Forced::Loss(plies)) => format!("loses in {} against perfect play", plies_text(plies)),
        None => "holds the draw".to_string(),
    }
}

fn plies_text(plies: u32) -> String {
    crate::output::count(plies as usize, "ply")
}

/// Runs the game loop until `quit` or the end of the input.
pub fn play(args: &PlayMnkArgs, input: impl BufRead, mut out: impl Write) -> std::io::Result<()> {
    let human = match args.first {
        FirstMover::Human => Player::First,
        FirstMover::Ai => Player::Second,
    };
    let board = Mnk::tic_tac_toe();
    let ai = args.algo.solver(board.solver_table_bytes());
    let mut session = Session { board, human, ai };
    writeln!(
        out,
        "Tic-tac-toe against a perfect player ({}).\n{HELP}",
        args.algo.name()
    )?;
    session.ai_moves(&mut out)?;
    session.show(&mut out)?;
    for line in crate::typed::text_lines(input) {
        let Some(line) = line? else {
            writeln!(out, "{}", crate::typed::NOT_TEXT)?;
            continue;
        };
        let command = line.trim().to_ascii_lowercase();
        match command.as_str() {
            "" => continue,
            "quit" | "exit" | "q" => break,
            "help" | "?" => writeln!(out, "{HELP}")?,
            "new" => {
                session.board = Mnk::tic_tac_toe();
                writeln!(out, "New game.")?;
                session.ai_moves(&mut out)?;
            }
            "undo" => session.undo(&mut out)?,
            "hint" => session.hint(&mut out)?,
            text => match session.board.play_named(text) {
                Ok(_) => session.ai_moves(&mut out)?,
                Err(error) => writeln!(out, "{error}. Type help for the commands.")?,
            },
        }
        session.show(&mut out)?;
        out.flush()?;
    }
    Ok(())
}
