//! The full-screen Gomoku game as a state machine: it takes [`Input`]s and the engine's
//! reports, and holds everything the screen shows. It never touches the terminal, so tests
//! drive it directly.
//!
//! The engine thinks on a background thread so that the screen stays live (the cursor moves,
//! the depth, score and line update); the [`Engine`] itself moves to that thread and comes
//! back with its answer, so its tables persist from move to move. Undo, new game and quit
//! while it thinks stop it and wait for it to come back. A review of the game (`r`) runs
//! the same way, a position at a time (all of that is `thinking`). In analysis (`a`) the
//! player plays both sides and the engine thinks without a time limit for the side to move,
//! until the position changes.

use super::board_view::Cell;
use super::input::{step, Input};
use crate::play_gomoku::{new_game_board, result_from_the_start, save_game, save_path};
use crate::review::opening_still_placed;
use std::path::PathBuf;
use wuzi_gomoku::review::{Grade, ReviewedMove};
use wuzi_gomoku::{
    describe, parse_point, winning_line, Board, Engine, EngineOptions, Player, Point,
};
use wuzi_search::Limits;

mod thinking;
use thinking::{Purpose, Thinking};

/// What the engine reports while it thinks: the last finished depth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    pub depth: u32,
    /// The score from the searching side's view, in words when the game is decided
    /// (`win in 7`).
    pub score: String,
    pub nodes: u64,
    /// The side searching and its chance of winning (`Black 55%`), when not proven.
    pub chance: Option<String>,
    /// The line it expects, in `h8` notation.
    pub line: Vec<String>,
}

/// See the module docs.
pub struct GomokuApp {
    /// The position `n` (new game) goes back to.
    start: Board,
    /// `None` while it is away thinking.
    engine: Option<Box<Engine>>,
    /// The engine's settings, to make a new one should a search thread die with it.
    options: EngineOptions,
    thinking: Option<Thinking>,
    /// The position on the screen (the engine's, kept in step).
    board: Board,
    limits: Limits,
    pub human: Player,
    /// (column from the left, row from the top).
    pub cursor: (usize, usize),
    pub progress: Option<Progress>,
    /// In analysis with more than one line: the lines of the last finished depth, best first
    /// (the first is `progress`).
    pub lines: Vec<Progress>,
    /// How many lines the analysis shows: 1, 3 or 5 (`m`).
    pub lines_wanted: usize,
    /// The engine's last word on its own move (`wuzi plays h8 (score 35, its chance 55%)`).
    pub message: String,
    pub hint: Option<Point>,
    pub show_help: bool,
    /// The key pressed once in a game in progress that drops it (`n`, or Esc, which quits):
    /// pressed again at once, it does.
    confirm: Option<Input>,
    pub quit: bool,
    /// The move typed so far while the prompt (`:`) is open.
    pub typed: Option<String>,
    /// Where `s` writes the game: the file `--save` names, for every game.
    save_to: Option<PathBuf>,
    /// Without `--save`, the file this game was first saved to: later saves of the same
    /// game update it, and a new game gets a file of its own.
    saved_to: Option<PathBuf>,
    forbidden: Vec<Point>,
    winning: Vec<Point>,
    /// The last review's grades, while the game is still the one reviewed.
    pub review: Option<Vec<ReviewedMove>>,
    /// The moves that review graded.
    reviewed: Vec<Point>,
    /// The record's opening stones at the start of the game, left out of a review.
    opening: usize,
    /// In analysis the player plays both sides, and the engine thinks for the side to move.
    pub analysing: bool,
    /// The moves on the board before the first one played in analysis, for both sides: while
    /// that move stands, the result and the record name colours, not "you" and "wuzi".
    both_sides_from: Option<usize>,
}

/// What became of the player's stone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Placed {
    Played,
    /// Refused for the point: occupied, or forbidden for Black.
    PointRefused,
    /// Refused for the game's state: over, the engine's turn, not the player's.
    Refused,
}

impl GomokuApp {
    /// A game from `board` with the player as `human`; the engine thinks within `limits`
    /// (a time in play, a depth in tests) and starts at once when it is its turn.
    pub fn new(
        board: Board,
        engine: Engine,
        human: Player,
        limits: Limits,
        save_to: Option<PathBuf>,
    ) -> Self {
        let size = board.size();
        let mut app = GomokuApp {
            start: board.clone(),
            options: engine.options().clone(),
            engine: Some(Box::new(engine)),
            thinking: None,
            board,
            limits,
            human,
            cursor: (size / 2, size / 2),
            progress: None,
            lines: Vec::new(),
            lines_wanted: 1,
            // What a newcomer needs first: how to play a stone.
            message: "Arrows (or hjkl) and Enter play, or click a point; ? lists the keys.".into(),
            hint: None,
            show_help: false,
            confirm: None,
            quit: false,
            typed: None,
            save_to,
            saved_to: None,
            forbidden: Vec::new(),
            winning: Vec::new(),
            review: None,
            reviewed: Vec::new(),
            opening: 0,
            analysing: false,
            both_sides_from: None,
        };
        if let Some(last) = app.board.last_move() {
            app.cursor = (last.x(), last.y());
        }
        app.position_changed();
        app
    }

    /// The game's first `opening` moves are a record's opening stones (placed by a match
    /// manager, not played): a review leaves them out, as `wuzi review` does.
    pub fn with_opening(mut self, opening: usize) -> Self {
        self.opening = opening;
        self
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// True while the engine looks for its own move.
    pub fn engine_to_move(&self) -> bool {
        self.thinking
            .as_ref()
            .is_some_and(|t| t.purpose == Purpose::Reply)
    }

    /// True while the engine analyses the position.
    pub fn is_analysing(&self) -> bool {
        self.thinking
            .as_ref()
            .is_some_and(|t| t.purpose == Purpose::Analysis)
    }

    pub fn is_thinking(&self) -> bool {
        self.thinking.is_some()
    }

    /// True while the engine reviews the game.
    pub fn is_reviewing(&self) -> bool {
        self.thinking
            .as_ref()
            .is_some_and(|t| t.purpose == Purpose::Review)
    }

    /// The review's mark for move `number` (counted from 1): `?!`, `?` or `??`, or nothing.
    pub fn review_mark(&self, number: usize) -> &'static str {
        let grade = self
            .review
            .as_ref()
            .and_then(|moves| moves.iter().find(|m| m.number == number))
            .map(|m| m.grade);
        match grade {
            Some(Grade::Inaccuracy) => "?!",
            Some(Grade::Mistake) => "?",
            Some(Grade::Blunder) => "??",
            _ => "",
        }
    }

    /// True while a move played in analysis is on the board.
    fn both_sides(&self) -> bool {
        self.both_sides_from
            .is_some_and(|n| self.board.moves().len() > n)
    }

    /// The record's opening stones still at the start of the game: none of those taken back
    /// (or replaced by other moves) counts.
    fn opening_now(&self) -> usize {
        opening_still_placed(self.board.moves(), self.start.moves(), self.opening)
    }

    /// The result in words, once the game is over.
    pub fn result_text(&self) -> Option<String> {
        let result = self.board.result()?;
        let (who, end) = match result.winner {
            Some(w)
                if self.analysing
                    || self.both_sides()
                    || result_from_the_start(&self.board, self.start.moves()) =>
            {
                (format!("{} wins", colour_title(w)), ".")
            }
            Some(w) if w == self.human => ("You win".into(), "!"),
            Some(_) => ("wuzi wins".into(), "."),
            None => ("Draw".into(), "."),
        };
        Some(format!("{who} ({}){end}", result.reason.name()))
    }

    /// Whether the side to move cannot move: under renju, every empty point forbidden for
    /// Black.
    pub fn no_legal_move(&self) -> bool {
        self.board.clone().no_legal_move()
    }

    /// What every point shows.
    pub fn cells(&self) -> Vec<Cell> {
        let n = self.board.size();
        let mut cells = vec![Cell::default(); n * n];
        for p in self.board.points() {
            let cell = &mut cells[p.y() * n + p.x()];
            cell.stone = self.board.stone(p);
        }
        let mut mark = |p: Point, set: fn(&mut Cell)| set(&mut cells[p.y() * n + p.x()]);
        for p in star_points(n) {
            mark(p, |c| c.star = true);
        }
        if let Some(p) = self.board.last_move() {
            mark(p, |c| c.last = true);
        }
        for &p in &self.winning {
            mark(p, |c| c.winning = true);
        }
        for &p in &self.forbidden {
            mark(p, |c| c.forbidden = true);
        }
        if let Some(p) = self.hint {
            mark(p, |c| c.hint = true);
        }
        // The analysis's other lines, numbered by rank where they start.
        for (rank, line) in self.lines.iter().enumerate().skip(1) {
            let first = line.line.first().and_then(|m| parse_point(m, n).ok());
            if let Some(p) = first {
                cells[p.y() * n + p.x()].rank = rank as u8 + 1;
            }
        }
        cells
    }

    /// Takes one request of the player.
    pub fn input(&mut self, input: Input) {
        let n = self.board.size();
        if self.typed.is_some() && self.type_into_prompt(input) {
            return;
        }
        let confirming = self.confirm.take();
        if confirming.is_some_and(|key| key != input) {
            // The question is dropped with the key that did not answer it.
            self.message.clear();
        }
        // The key list is modal: a key closes it and does nothing else (but q and Ctrl-C
        // quit), so that no stone is played unseen beneath it.
        if self.show_help && input != Input::Quit {
            self.show_help = false;
            return;
        }
        match input {
            Input::Up | Input::Down | Input::Left | Input::Right => {
                self.cursor = step(self.cursor, input, n, n);
            }
            Input::Place => {
                self.place(self.cursor);
            }
            Input::PlaceAt(x, y) => {
                if x < n && y < n {
                    self.cursor = (x, y);
                    self.place((x, y));
                }
            }
            Input::Undo => self.undo(),
            Input::Hint => self.ask_hint(),
            Input::Review => self.ask_review(),
            Input::Analyse => self.toggle_analysis(),
            Input::MoreLines => self.more_lines(),
            // A stray n or Esc must not throw a game away.
            Input::NewGame if confirming != Some(input) && self.in_progress() => {
                self.confirm = Some(input);
                self.message = "A game is in progress: n again to drop it for a new one.".into();
            }
            Input::Cancel if confirming != Some(input) && self.in_progress() => {
                self.confirm = Some(input);
                self.message = "A game is in progress: Esc again (or q) to quit.".into();
            }
            Input::NewGame => {
                let start = new_game_board(&self.start);
                if start.moves().len() != self.start.moves().len() {
                    // The loaded record was finished: the new game starts from an empty board.
                    self.start = start.clone();
                    self.opening = 0;
                }
                self.engine_mut().set_board(start);
                self.both_sides_from = None;
                self.saved_to = None;
                self.message = "New game.".into();
                self.after_change();
            }
            Input::Save => self.save(),
            // After the end the colours say who won (and a saved record names the players):
            // swapping them would rewrite the result.
            Input::SwapColours if self.board.result().is_some() => {
                self.message = "The game is over: n for a new one.".into();
            }
            Input::SwapColours => {
                self.cancel_thinking();
                self.human = self.human.opponent();
                self.message = format!("You are now {}.", colour_name(self.human));
                self.after_change();
            }
            Input::ToggleHelp => self.show_help = !self.show_help,
            Input::Quit | Input::Cancel => {
                self.cancel_thinking();
                self.quit = true;
            }
            Input::TypeMove => {
                self.typed = Some(String::new());
                self.message = "Type a move (h8), Enter to play, Esc to cancel.".into();
            }
            Input::Text(_) | Input::Erase | Input::Other => {}
        }
    }

    /// Takes `input` into the open move prompt; false when it is not the prompt's (a click,
    /// quit), which closes the prompt and is then taken as usual.
    fn type_into_prompt(&mut self, input: Input) -> bool {
        let Some(typed) = &mut self.typed else {
            return false;
        };
        match input {
            // A point's name is at most a letter and two digits (`o15`), or `14,14`.
            Input::Text(c) if typed.chars().count() < 5 => typed.push(c),
            Input::Text(_) => {}
            Input::Erase => {
                typed.pop();
            }
            Input::Cancel => {
                self.typed = None;
                self.message.clear();
            }
            Input::Place => match parse_point(typed, self.board.size()) {
                Ok(p) => {
                    let text = self.typed.take();
                    self.cursor = (p.x(), p.y());
                    if self.place(self.cursor) == Placed::PointRefused {
                        // Occupied or forbidden: the prompt stays open with the text, so that
                        // Backspace and Esc correct it rather than undo or quit. (Refused for
                        // the game's state, the prompt closes: the message names a key.)
                        self.typed = text;
                    }
                }
                // The prompt stays open with the text, to be corrected.
                Err(e) if e.contains(typed.trim()) => self.message = e,
                Err(e) => self.message = format!("{}: {e}", typed.trim()),
            },
            _ => {
                self.typed = None;
                return false;
            }
        }
        true
    }

    /// Plays the player's stone at `(x, y)`, or says why not.
    fn place(&mut self, (x, y): (usize, usize)) -> Placed {
        let p = Point::new(x, y);
        let name = p.to_human(self.board.size());
        if self.board.result().is_some() {
            self.message = "The game is over: n for a new one.".into();
            return Placed::Refused;
        }
        if self.engine_to_move() {
            self.message = "wuzi is thinking.".into();
            return Placed::Refused;
        }
        let mover = self.board.side_to_move();
        if mover != self.human && !self.analysing {
            self.message = "It is not your turn.".into();
            return Placed::Refused;
        }
        if !self.board.is_empty(p) {
            self.message = format!("{name} is occupied.");
            return Placed::PointRefused;
        }
        if self.board.rule().has_fouls(mover) {
            if let Some(foul) = self.board.clone().foul(p) {
                self.message = format!("{name} is forbidden for Black ({}).", foul.name());
                return Placed::PointRefused;
            }
        }
        let stopped = if self.is_reviewing() {
            " (the review stopped)"
        } else {
            ""
        };
        let note = crate::play_gomoku::overline_note(&self.board, p);
        self.cancel_thinking(); // a hint, a review or an analysis in progress
        if let Err(e) = self.engine_mut().play(p) {
            self.message = format!("{name}: {e}");
            return Placed::PointRefused;
        }
        if self.analysing {
            self.both_sides_from.get_or_insert(self.board.moves().len());
        }
        self.message = if !note.is_empty() {
            format!("{name}{note}")
        } else if self.analysing {
            format!("{} plays {name}{stopped}.", colour_title(mover))
        } else {
            format!("You play {name}{stopped}.")
        };
        self.after_change();
        Placed::Played
    }

    /// Takes back the player's last move and every reply after it (in analysis, the last
    /// move).
    fn undo(&mut self) {
        if self.analysing {
            if self.board.moves().is_empty() {
                self.message = "Nothing to undo.".into();
                return;
            }
            self.engine_mut().undo();
            self.message = "Taken back.".into();
            self.after_change();
            return;
        }
        let human = self.human;
        // Asked of the screen's position, so that nothing to undo stops no search.
        let board = &self.board;
        let played = board.moves().len();
        let first = if played.is_multiple_of(2) {
            board.side_to_move()
        } else {
            board.side_to_move().opponent()
        };
        let mover = |i: usize| {
            if i.is_multiple_of(2) {
                first
            } else {
                first.opponent()
            }
        };
        if !(0..played).any(|i| mover(i) == human) {
            self.message = "Nothing to undo.".into();
            return;
        }
        let engine = self.engine_mut();
        loop {
            let mover = engine.board().side_to_move().opponent();
            if engine.undo().is_none() || mover == human {
                break;
            }
        }
        self.message = "Taken back.".into();
        self.after_change();
    }

    fn ask_hint(&mut self) {
        if self.analysing {
            self.message = "The analysis marks wuzi's choice on the board.".into();
            return;
        }
        if self.board.result().is_some() || self.board.side_to_move() != self.human {
            self.message = "A hint is for your turn.".into();
            return;
        }
        if self.is_reviewing() {
            self.message = "Reviewing the game: a hint when it is done.".into();
        } else if self.thinking.is_none() {
            self.message = "Looking for a hint...".into();
            self.think(Purpose::Hint);
        }
    }

    fn ask_review(&mut self) {
        if self.is_reviewing() {
            self.message = "Already reviewing the game.".into();
            return;
        }
        if self.engine_to_move() {
            self.message = "wuzi is thinking: review when it has moved.".into();
            return;
        }
        if self.board.moves().is_empty() {
            self.message = "Nothing to review yet.".into();
            return;
        }
        self.cancel_thinking(); // a hint in progress
        self.review_game();
    }

    /// Turns the analysis on or off. Off, the game goes on with the player on the same side
    /// (the engine moves if it is its turn).
    fn toggle_analysis(&mut self) {
        if self.is_reviewing() {
            // The review goes on either way; the analysis starts, or not, after it.
            self.analysing = !self.analysing;
            self.message = if self.analysing {
                "Analysis: it starts when the review is done.".into()
            } else {
                "Analysis off: the review goes on.".into()
            };
            return;
        }
        self.cancel_thinking(); // the engine's move, a hint or the analysis
        self.analysing = !self.analysing;
        self.message = if self.analysing {
            "Analysis: you play both sides, wuzi thinks for the side to move (a ends it).".into()
        } else {
            format!("Back to the game: you play {}.", colour_name(self.human))
        };
        self.position_changed();
    }

    /// Shows 1, 3 or 5 of the engine's best moves in the analysis, in turn, starting it
    /// again on the position.
    fn more_lines(&mut self) {
        self.lines_wanted = match self.lines_wanted {
            1 => 3,
            3 => 5,
            _ => 1,
        };
        if !self.analysing {
            self.message = format!(
                "The analysis (a) will show {}.",
                best_moves_text(self.lines_wanted)
            );
            return;
        }
        self.message = format!("Analysis: {}.", best_moves_text(self.lines_wanted));
        if !self.is_reviewing() {
            self.cancel_thinking();
            self.position_changed();
        }
    }

    fn save(&mut self) {
        let human = (!self.both_sides()).then_some(self.human);
        let path = self
            .save_to
            .clone()
            .or_else(|| self.saved_to.clone())
            .unwrap_or_else(save_path);
        self.message = save_game(&self.board, human, self.opening_now(), &path);
        self.saved_to = Some(path);
    }

    /// Whether a game is under way: not over, and moved on from where it started.
    fn in_progress(&self) -> bool {
        self.board.result().is_none() && self.board.moves() != self.start.moves()
    }

    /// What the engine's reply repeats of the move it answers (six in a row under the
    /// standard rule, which does not win), with a space after; empty for any other move.
    fn last_move_note(&self) -> String {
        let Some(last) = self.board.last_move() else {
            return String::new();
        };
        let mut before = self.board.clone();
        before.undo();
        match crate::play_gomoku::overline_note(&before, last) {
            "" => String::new(),
            note => format!("{}{note} ", last.to_human(self.board.size())),
        }
    }

    /// After any move, undo or new game: take the engine's position. A pending "n again"
    /// or "Esc again" is dropped: its message is gone, and the game it asked about changed.
    fn after_change(&mut self) {
        self.confirm = None;
        if let Some(engine) = &self.engine {
            self.board = engine.board().clone();
        }
        if self
            .both_sides_from
            .is_some_and(|n| self.board.moves().len() <= n)
        {
            self.both_sides_from = None;
        }
        self.position_changed();
    }

    /// Refreshes what the screen shows, then lets the engine move if it is its turn.
    fn position_changed(&mut self) {
        self.hint = None;
        self.progress = None;
        self.lines.clear();
        if self.board.moves() != self.reviewed.as_slice() {
            self.review = None;
        }
        self.winning = winning_line(&self.board);
        self.forbidden = if self.board.result().is_none() {
            describe(&mut self.board.clone())
                .forbidden()
                .iter()
                .map(|&(p, _)| p)
                .collect()
        } else {
            Vec::new()
        };
        if self.board.result().is_some() || self.thinking.is_some() {
            return;
        }
        if self.analysing {
            self.think(Purpose::Analysis);
        } else if self.board.side_to_move() != self.human {
            self.think(Purpose::Reply);
        }
    }
}

impl Drop for GomokuApp {
    /// Leaves no search running behind.
    fn drop(&mut self) {
        self.cancel_thinking();
    }
}

/// `Black` or `White`.
pub fn colour_title(p: Player) -> &'static str {
    crate::position::colour_title(p)
}

/// `black` or `white`.
pub fn colour_name(p: Player) -> &'static str {
    crate::position::colour_name(p)
}

/// The star points of an `n` x `n` board, as wooden boards (and the browser page) mark them:
/// the centre on odd sizes, and the points three lines in from each corner (two on boards
/// smaller than 13).
fn star_points(n: usize) -> Vec<Point> {
    let mut stars = Vec::new();
    if n % 2 == 1 {
        stars.push(Point::new(n / 2, n / 2));
    }
    if n >= 9 {
        let edge = if n >= 13 { 3 } else { 2 };
        for x in [edge, n - 1 - edge] {
            for y in [edge, n - 1 - edge] {
                stars.push(Point::new(x, y));
            }
        }
    }
    stars
}

#[cfg(test)]
mod tests;

/// "the best move" or "the 3 best moves".
fn best_moves_text(n: usize) -> String {
    match n {
        1 => "the best move".into(),
        n => format!("the {n} best moves"),
    }
}
