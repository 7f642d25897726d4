//! Full-screen tic-tac-toe against a perfect player: the same keys and look as Gomoku. The
//! game is solved in an instant, so the player's reply is computed on the spot.

use super::board_view::{BoardView, Cell, Marks};
use super::input::{step, Input};
use super::layout::{dim, heading, help, panel, split};
use super::Screen;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::Frame;
use wuzi_mnk::{Cell as MnkCell, Mnk};
use wuzi_search::{Forced, Outcome, Player, Strategy};

/// The game's state; see the module docs.
pub struct TicTacToeApp {
    board: Mnk,
    pub human: Player,
    ai: Box<dyn Strategy<Mnk>>,
    pub cursor: (usize, usize),
    pub message: String,
    hint: Option<MnkCell>,
    pub show_help: bool,
    pub quit: bool,
}

impl TicTacToeApp {
    pub fn new(human: Player, ai: Box<dyn Strategy<Mnk>>) -> TicTacToeApp {
        let mut app = TicTacToeApp {
            board: Mnk::tic_tac_toe(),
            human,
            ai,
            cursor: (1, 1),
            message: String::new(),
            hint: None,
            show_help: false,
            quit: false,
        };
        app.ai_moves();
        app
    }

    #[cfg(test)]
    pub fn board(&self) -> &Mnk {
        &self.board
    }

    fn mark(player: Player) -> &'static str {
        match player {
            Player::First => "X",
            Player::Second => "O",
        }
    }

    fn ai_moves(&mut self) {
        if self.board.is_over() || self.board.to_move() == self.human {
            return;
        }
        let result = self.ai.search(&mut self.board);
        if let Some(cell) = result.best_move {
            self.board.place(cell);
            let verdict = match result.score.forced() {
                Some(Forced::Win(_)) => " (it wins)",
                _ => "",
            };
            self.message = format!("The AI plays {}{verdict}.", self.board.cell_name(cell));
        }
    }

    fn cell_at(&self, (x, y): (usize, usize)) -> MnkCell {
        (y * self.board.width() + x) as MnkCell
    }

    pub fn result_text(&self) -> Option<&'static str> {
        Some(match self.board_outcome()? {
            Outcome::Win(w) if w == self.human => "You win!",
            Outcome::Win(_) => "The AI wins.",
            Outcome::Draw => "Draw.",
        })
    }

    fn board_outcome(&self) -> Option<Outcome> {
        if let Some(w) = self.board.winner() {
            return Some(Outcome::Win(w));
        }
        self.board.is_full().then_some(Outcome::Draw)
    }

    fn place(&mut self, at: (usize, usize)) {
        self.hint = None;
        let cell = self.cell_at(at);
        if self.board.is_over() {
            self.message = "The game is over: n for a new one.".into();
        } else if self.board.at(cell).is_some() {
            self.message = format!("{} is taken.", self.board.cell_name(cell));
        } else {
            self.board.place(cell);
            self.message.clear();
            self.ai_moves();
        }
    }

    fn undo(&mut self) {
        self.hint = None;
        if !self
            .board
            .history()
            .iter()
            .enumerate()
            .any(|(i, _)| (i % 2 == 0) == (self.human == Player::First))
        {
            self.message = "Nothing to undo.".into();
            return;
        }
        loop {
            let mover = self.board.to_move().opponent();
            if self.board.take_back().is_none() || mover == self.human {
                break;
            }
        }
        self.message = "Taken back.".into();
    }

    /// The winning row, if there is one.
    fn winning_cells(&self) -> Vec<(usize, usize)> {
        let (w, h, k) = (self.board.width(), self.board.height(), self.board.k());
        let Some(winner) = self.board.winner() else {
            return Vec::new();
        };
        let at = |x: isize, y: isize| {
            (x >= 0 && y >= 0 && (x as usize) < w && (y as usize) < h)
                .then(|| self.board.at((y as usize * w + x as usize) as MnkCell))
                .flatten()
        };
        for y in 0..h as isize {
            for x in 0..w as isize {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let run: Vec<(usize, usize)> = (0..k as isize)
                        .take_while(|&i| at(x + i * dx, y + i * dy) == Some(winner))
                        .map(|i| ((x + i * dx) as usize, (y + i * dy) as usize))
                        .collect();
                    if run.len() == k {
                        return run;
                    }
                }
            }
        }
        Vec::new()
    }

    pub fn cells(&self) -> Vec<Cell> {
        let w = self.board.width();
        let mut cells: Vec<Cell> = (0..w * self.board.height())
            .map(|i| Cell {
                stone: self.board.at(i as MnkCell),
                ..Cell::default()
            })
            .collect();
        if let Some(&last) = self.board.history().last() {
            cells[last as usize].last = true;
        }
        for (x, y) in self.winning_cells() {
            cells[y * w + x].winning = true;
        }
        if let Some(hint) = self.hint {
            cells[hint as usize].hint = true;
        }
        cells
    }
}

impl Screen for TicTacToeApp {
    fn input(&mut self, input: Input) {
        let (w, h) = self.board_size();
        // The key list is modal, as in Gomoku.
        if self.show_help && input != Input::Quit {
            self.show_help = false;
            return;
        }
        match input {
            Input::Up | Input::Down | Input::Left | Input::Right => {
                self.cursor = step(self.cursor, input, w, h);
            }
            Input::Place => self.place(self.cursor),
            Input::PlaceAt(x, y) => {
                if x < w && y < h {
                    self.cursor = (x, y);
                    self.place((x, y));
                }
            }
            Input::Undo => self.undo(),
            Input::Hint => {
                if !self.board.is_over() {
                    let result = self.ai.search(&mut self.board);
                    self.hint = result.best_move;
                    if let Some(cell) = result.best_move {
                        let (x, y) = (cell as usize % w, cell as usize / w);
                        self.cursor = (x, y);
                        self.message = format!("Hint: {}.", self.board.cell_name(cell));
                    }
                }
            }
            Input::NewGame => {
                self.board = Mnk::tic_tac_toe();
                self.hint = None;
                self.message = "New game.".into();
                self.ai_moves();
            }
            Input::Save => self.message = "Saving is for Gomoku games.".into(),
            Input::Review => self.message = "Reviews are for Gomoku games.".into(),
            Input::Analyse | Input::MoreLines => {
                self.message = "Analysis is for Gomoku games.".into()
            }
            // After the end the colours say who won: swapping them would rewrite it.
            Input::SwapColours if self.board_outcome().is_some() => {
                self.message = "The game is over: n for a new one.".into();
            }
            Input::SwapColours => {
                self.human = self.human.opponent();
                self.message = format!("You are now {}.", Self::mark(self.human));
                self.ai_moves();
            }
            Input::ToggleHelp => self.show_help = !self.show_help,
            Input::Quit | Input::Cancel => self.quit = true,
            Input::TypeMove => {
                self.message = "Typing a move is for Gomoku: use the arrows or click.".into()
            }
            Input::Text(_) | Input::Erase | Input::Other => {}
        }
    }

    fn poll(&mut self) -> bool {
        false
    }

    fn wants_quit(&self) -> bool {
        self.quit
    }

    fn board_size(&self) -> (usize, usize) {
        (self.board.width(), self.board.height())
    }

    fn draw(&self, frame: &mut Frame) -> Option<Rect> {
        let (w, h) = self.board_size();
        let (board_area, panel_area) = split(frame, w, h)?;
        let cells = self.cells();
        frame.render_widget(
            BoardView {
                width: w,
                height: h,
                cells: &cells,
                cursor: Some(self.cursor),
                marks: Marks::Letters,
                colour: super::board_view::colour_wanted(),
            },
            board_area,
        );
        let mut lines = vec![
            dim("Tic-tac-toe against a perfect player"),
            Line::raw(format!("You play {}", Self::mark(self.human))),
            Line::raw(""),
        ];
        match self.result_text() {
            Some(text) => lines.push(Line::from(Span::styled(
                text,
                Style::default()
                    .fg(Color::Green)
                    .add_modifier(Modifier::BOLD),
            ))),
            None => lines.push(heading("Your move")),
        }
        lines.push(Line::raw(self.message.clone()));
        lines.push(Line::raw(""));
        lines.push(dim("? keys   q quit"));
        panel(frame, panel_area, "wuzi", lines);
        if self.show_help {
            help(frame, super::input::TICTACTOE_KEYS);
        }
        Some(board_area)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::Algo;
    use ratatui::backend::TestBackend;
    use ratatui::Terminal;

    fn app(human: Player) -> TicTacToeApp {
        TicTacToeApp::new(human, Algo::Search.solver(1 << 16))
    }

    #[test]
    fn keys_play_and_the_ai_answers_at_once() {
        let mut app = app(Player::First);
        app.input(Input::Up);
        app.input(Input::Left);
        app.input(Input::Place); // a3
        assert_eq!(app.board().history().len(), 2);
        app.input(Input::Undo);
        assert!(app.board().history().is_empty());
        let mut terminal = Terminal::new(TestBackend::new(60, 12)).unwrap();
        terminal
            .draw(|f| {
                app.draw(f);
            })
            .unwrap();
        let buffer = terminal.backend().buffer();
        let text: String = (0..buffer.area.height)
            .flat_map(|y| (0..buffer.area.width).map(move |x| (x, y)))
            .map(|p| buffer[p].symbol().to_string())
            .collect();
        assert!(text.contains("Tic-tac-toe"), "{text}");
        assert!(text.contains("Your move"), "{text}");
    }

    #[test]
    fn the_ai_moves_first_and_never_loses() {
        let mut app = app(Player::Second);
        assert_eq!(app.board().history().len(), 1);
        // Play the first free cell until the end: the AI must not lose.
        while app.result_text().is_none() {
            let free = (0..9).find(|&c| app.board().at(c).is_none()).unwrap() as usize;
            app.input(Input::PlaceAt(free % 3, free / 3));
        }
        assert_ne!(app.result_text(), Some("You win!"));
        assert!(app.cells().iter().any(|c| c.winning) || app.result_text() == Some("Draw."));
    }
}
