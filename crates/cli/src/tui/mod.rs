//! `wuzi play` full-screen: the board in colour, a cursor moved by arrow keys, hjkl or the
//! mouse, and a side panel with the engine's live thinking (ratatui on crossterm).
//!
//! - [`input`]: keys to requests ([`input::Input`]), shared by both games.
//! - [`gomoku_app`](mod@gomoku_app), [`tictactoe`]: the games as state machines, testable without a terminal.
//! - [`board_view`], [`gomoku_view`], [`layout`]: drawing.
//! - [`terminal`]: full-screen mode, the event loop, and restoring the terminal on every exit.

pub mod board_view;
pub mod gomoku_app;
pub mod gomoku_view;
pub mod input;
pub mod layout;
pub mod terminal;
pub mod tictactoe;

use crate::play_gomoku::PlayGomokuArgs;
use crate::play_mnk::{FirstMover, PlayMnkArgs};
use gomoku_app::GomokuApp;
use input::Input;
use ratatui::layout::Rect;
use ratatui::Frame;
use std::io::IsTerminal;
use std::time::Duration;
use wuzi_gomoku::{Engine, EngineOptions, Player};
use wuzi_search::Limits;

/// A game the full-screen loop can run.
pub trait Screen {
    /// Takes one request of the player.
    fn input(&mut self, input: Input);
    /// Takes what happened in the background; true when the screen should change.
    fn poll(&mut self) -> bool;
    fn wants_quit(&self) -> bool;
    /// Whether keys are text for a prompt rather than commands.
    fn typing(&self) -> bool {
        false
    }
    /// (width, height) of the board, for mouse clicks.
    fn board_size(&self) -> (usize, usize);
    /// Draws the game; returns where the board went, if it fitted.
    fn draw(&self, frame: &mut Frame) -> Option<Rect>;
}

impl Screen for GomokuApp {
    fn input(&mut self, input: Input) {
        GomokuApp::input(self, input);
    }

    fn poll(&mut self) -> bool {
        GomokuApp::poll(self)
    }

    fn wants_quit(&self) -> bool {
        self.quit
    }

    fn typing(&self) -> bool {
        self.typed.is_some()
    }

    fn board_size(&self) -> (usize, usize) {
        let n = self.board().size();
        (n, n)
    }

    fn draw(&self, frame: &mut Frame) -> Option<Rect> {
        gomoku_view::draw(frame, self)
    }
}

/// True when both ends are a terminal that can draw a screen: the full-screen game is
/// possible. On Unix `TERM=dumb` (Emacs' shell, some IDE consoles) or no `TERM` at all gets
/// the line mode, as a pipe does; Windows consoles set no `TERM` and draw screens anyway.
pub fn available() -> bool {
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal() && term_can_draw()
}

/// Whether the terminal type can move the cursor and erase (`TERM` set, and not `dumb`:
/// Emacs' shell, some IDE consoles). Elsewhere than Unix, taken as yes.
pub fn term_can_draw() -> bool {
    let term = std::env::var("TERM").unwrap_or_default();
    !cfg!(unix) || (!term.is_empty() && term != "dumb")
}

/// Runs `app` full screen. After a terminating signal the terminal is put back first, then
/// the process exits with the status the signal would have given it.
fn run_full_screen(app: &mut impl Screen) -> Result<(), String> {
    let mut screen = terminal::FullScreen::enter().map_err(|e| e.to_string())?;
    let ran = screen.run(app).map_err(|e| e.to_string());
    let signal = screen.ended_by_signal();
    drop(screen);
    if let Some(signal) = signal {
        std::process::exit(128 + signal);
    }
    ran
}

/// The Gomoku game for `args`.
pub fn gomoku_app(args: &PlayGomokuArgs) -> Result<GomokuApp, String> {
    let (board, opening) = args.start()?;
    let engine = Engine::new(
        board.clone(),
        EngineOptions {
            threads: args.threads.into(),
            ..EngineOptions::default()
        },
    );
    let limits = Limits::time(Duration::from_millis(args.time.max(1)));
    let save_to = args.save.clone();
    Ok(GomokuApp::new(board, engine, args.colour.into(), limits, save_to).with_opening(opening))
}

pub fn play_gomoku(args: &PlayGomokuArgs) -> Result<(), String> {
    let mut app = gomoku_app(args)?;
    run_full_screen(&mut app)
}

pub fn play_tictactoe(args: &PlayMnkArgs) -> Result<(), String> {
    let human = match args.first {
        FirstMover::Human => Player::First,
        FirstMover::Ai => Player::Second,
    };
    let ai = args
        .algo
        .solver(wuzi_mnk::Mnk::tic_tac_toe().solver_table_bytes());
    let mut app = tictactoe::TicTacToeApp::new(human, ai);
    run_full_screen(&mut app)
}
