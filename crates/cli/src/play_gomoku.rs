//! `wuzi play`: Gomoku against the engine in the terminal.

use crate::analyze::{info_line, verdict_text, Searcher};
use crate::position::{colour_name, colour_title, Colour, RuleArg};
use crate::review::{in_play_limits, opening_still_placed, review_text};
use clap::Args;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use wuzi_gomoku::record::GameRecord;
use wuzi_gomoku::review::ReviewSpan;
use wuzi_gomoku::{
    parse_point, render, Analysis, Board, Engine, EngineOptions, Player, Point, Rule, Shape,
};
use wuzi_search::Limits;

#[derive(Args, Debug, Clone)]
pub struct PlayGomokuArgs {
    #[arg(long, value_enum, ignore_case = true, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
    /// Board side, 5 to 22.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Your colour (Black moves first).
    #[arg(long, value_enum, ignore_case = true, default_value_t = Colour::Black)]
    pub colour: Colour,
    /// The engine's thinking time per move, in milliseconds: its strength.
    #[arg(long, value_name = "MS", default_value_t = 1000)]
    pub time: u64,
    /// Start from the position after these moves (e.g. an opening: "h8 i9 j8").
    #[arg(long, default_value = "", conflicts_with = "load")]
    pub moves: String,
    /// Start from a game record (`.sgf`, Piskvork's `.psq`); its rule and size are used
    /// (`--rule` and `--size` only for a record that does not say).
    #[arg(long, value_name = "FILE")]
    pub load: Option<String>,
    #[command(flatten)]
    pub record: crate::position::RecordArgs,
    /// The line mode (type `h8`, read the board) even on a terminal: for scripts and screen
    /// readers. It is also used when stdin or stdout is not a terminal.
    #[arg(long)]
    pub plain: bool,
    /// Where the full-screen game's `s` and the line mode's `save` write the game as SGF
    /// (default: `wuzi-<seconds>.sgf` here).
    #[arg(long, value_name = "FILE")]
    pub save: Option<std::path::PathBuf>,
    /// Search threads (they share the table); 1 keeps depth- and node-limited searches
    /// repeatable.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
}

impl PlayGomokuArgs {
    /// The position the game starts from: `--load`'s record (at `--move`), or `--moves`;
    /// and how many of its first moves are a record's opening stones (a match manager's
    /// `C[opening move]`), which a review leaves out as `wuzi review` does.
    pub fn start(&self) -> Result<(Board, usize), String> {
        if let Some(path) = &self.load {
            let record = self.record.load(path, self.rule.into(), self.size)?;
            let opening = record.moves.iter().take_while(|m| m.is_opening()).count();
            let board = record
                .final_position()
                .map_err(|e| format!("{path}: {e}"))?;
            return Ok((board, opening));
        }
        if self.record.plies.is_some() || self.record.game != 1 {
            return Err("--game and --move choose a position of the --load file".into());
        }
        let board = Board::from_moves(self.size, self.rule.into(), &self.moves);
        Ok((board.map_err(|e| e.to_string())?, 0))
    }
}

const HELP: &str = "Moves are a column letter and a row number, e.g. h8 (a1 is bottom-left).\n\
Commands: undo (take back your last move), hint (or hint 3: the 3 best moves), review (grade\n\
every move), analysis (you play both sides, the engine analyses each position; analysis again\n\
to leave), save [FILE] (the game as SGF), new, quit, help.";

/// The most moves `hint N` lists.
const MAX_HINTS: usize = 10;

/// Where `new` starts: the game's first position, or an empty board of its rule and size when
/// no move could follow that position (a finished record loaded, or renju Black left only
/// forbidden points).
pub(crate) fn new_game_board(start: &Board) -> Board {
    if finished(start) {
        return Board::new(start.size(), start.rule()).expect("the size of a board");
    }
    start.clone()
}

/// Whether no game can go on from `board`: it is over, or under renju Black is to move and
/// every empty point is forbidden (no legal move either way).
fn finished(board: &Board) -> bool {
    !board.clone().has_legal_move()
}

/// Whether a result is the loaded record's own, nothing played since: it then names colours,
/// not "you" and the engine.
pub(crate) fn result_from_the_start(board: &Board, start: &[wuzi_gomoku::Point]) -> bool {
    board.result().is_some() && board.moves() == start
}

/// What to tell a player whose stone at `p` makes six or more in a row under the standard
/// rule, where it neither wins nor is forbidden (so the game goes on, unexplained); empty
/// otherwise.
pub(crate) fn overline_note(board: &Board, p: Point) -> &'static str {
    let mover = board.side_to_move();
    let shapes = board.shapes(p, mover);
    // A six beside a five elsewhere through the point still wins.
    if board.rule() == Rule::Standard
        && board.is_empty(p)
        && shapes.contains(&Shape::Overline)
        && !shapes.contains(&Shape::Five)
    {
        " makes six in a row, which does not win: only exactly five wins (standard)."
    } else {
        ""
    }
}

/// The width of the terminal the live progress line is drawn on, or `None` where it is
/// not drawn: output that is no terminal, or a terminal that cannot erase a line (see
/// [`crate::tui::term_can_draw`]). A terminal that reports no width is taken as 80 wide.
fn live_width() -> Option<usize> {
    if !std::io::stdout().is_terminal() || !crate::tui::term_can_draw() {
        return None;
    }
    match ratatui::crossterm::terminal::size() {
        Ok((columns, _)) if columns > 0 => Some(usize::from(columns).max(20)),
        _ => Some(80),
    }
}

/// A file name for saving that does not overwrite an earlier save: `wuzi-<seconds>.sgf`, or
/// `wuzi-<seconds>-2.sgf` and on when two saves fall in the same second.
pub(crate) fn save_path() -> PathBuf {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    (1..)
        .map(|n| match n {
            1 => PathBuf::from(format!("wuzi-{seconds}.sgf")),
            n => PathBuf::from(format!("wuzi-{seconds}-{n}.sgf")),
        })
        .find(|path| !path.exists())
        .expect("a free name")
}

/// Writes the game to `path` as SGF, the player named "you" on `human`'s side and wuzi on
/// the other (`None`: the player played both), its first `opening` moves marked as a
/// loaded record's opening stones (`C[opening move]`, so that a review leaves them out
/// again); says what happened, in a sentence.
pub(crate) fn save_game(
    board: &Board,
    human: Option<Player>,
    opening: usize,
    path: &Path,
) -> String {
    let mut record = GameRecord::from_board(board);
    for stone in record.moves.iter_mut().take(opening) {
        stone.comment = wuzi_gomoku::record::OPENING_COMMENT.to_string();
    }
    let (you, wuzi) = ("you".to_string(), "wuzi".to_string());
    (record.black, record.white) = match human {
        None => (you.clone(), you),
        Some(Player::First) => (you, wuzi),
        Some(Player::Second) => (wuzi, you),
    };
    match std::fs::write(path, record.to_sgf()) {
        Ok(()) => format!("Saved to {}.", path.display()),
        Err(e) => format!("Cannot save to {}: {e}", path.display()),
    }
}

struct Session {
    engine: Engine,
    /// The record's opening stones at the start of the game, left out of a review.
    opening: usize,
    human: Player,
    size: usize,
    rule: Rule,
    think: Duration,
    /// In analysis the player plays both sides and the engine analyses each position.
    analysing: bool,
    /// The moves on the board before the first one played in analysis: while that move
    /// stands, the result names colours.
    both_sides_from: Option<usize>,
    /// The moves the game started from (a record's opening stones lead them).
    start: Vec<wuzi_gomoku::Point>,
}

impl Session {
    fn new(args: &PlayGomokuArgs) -> Result<Session, String> {
        let (board, opening) = args.start()?;
        let (rule, size) = (board.rule(), board.size());
        let board_moves = board.moves().to_vec();
        Ok(Session {
            opening,
            engine: Engine::new(
                board,
                EngineOptions {
                    threads: args.threads.into(),
                    ..EngineOptions::default()
                },
            ),
            human: args.colour.into(),
            size,
            rule,
            think: Duration::from_millis(args.time.max(1)),
            analysing: false,
            both_sides_from: None,
            start: board_moves,
        })
    }

    /// Writes the game as SGF (see [`save_game`]).
    fn save(&self, path: &Path) -> String {
        let human = (!self.both_sides()).then_some(self.human);
        save_game(self.engine.board(), human, self.opening_now(), path)
    }

    /// After `new`: a finished record gives way to an empty board (see [`new_game_board`]).
    fn start_over_if_finished(&mut self) {
        if finished(self.engine.board()) {
            let empty = new_game_board(self.engine.board());
            self.engine.set_board(empty);
            self.start.clear();
            self.opening = 0;
        }
    }

    /// True while a move played in analysis is on the board.
    fn both_sides(&self) -> bool {
        let played = self.engine.board().moves().len();
        self.both_sides_from.is_some_and(|n| played > n)
    }

    /// The record's opening stones still at the start of the game: none of those taken back
    /// (or replaced by other moves) counts.
    fn opening_now(&self) -> usize {
        opening_still_placed(self.engine.board().moves(), &self.start, self.opening)
    }

    /// After an undo: a move of analysis taken back no longer makes the game both sides'.
    fn forget_undone(&mut self) {
        let played = self.engine.board().moves().len();
        if self.both_sides_from.is_some_and(|n| played <= n) {
            self.both_sides_from = None;
        }
    }

    fn name(&self, p: wuzi_gomoku::Point) -> String {
        p.to_human(self.size)
    }

    /// Searches with a live progress line on a terminal, replaced by each new depth.
    fn think(&mut self, out: &mut impl Write, label: &str) -> std::io::Result<Analysis> {
        Ok(self.think_lines(1, out, label)?.swap_remove(0))
    }

    /// The `n` best moves (one: the engine's move, as `go` finds it), with the best line's
    /// progress live on a terminal.
    fn think_lines(
        &mut self,
        n: usize,
        out: &mut impl Write,
        label: &str,
    ) -> std::io::Result<Vec<Analysis>> {
        let size = self.size;
        let live = live_width();
        let found = self.engine.best_moves(
            n,
            &Limits::time(self.think),
            |rank, info| {
                if let (Some(width), 0) = (live, rank) {
                    let line = format!("{label}: {}", info_line(info, size));
                    // Cut to the terminal's width: a wrapped line would not be replaced.
                    let line: String = line.chars().take(width.saturating_sub(1)).collect();
                    let _ = write!(out, "\r\x1b[2K{line}");
                    let _ = out.flush();
                }
            },
            |_| {},
        );
        if live.is_some() {
            write!(out, "\r\x1b[2K")?;
        }
        Ok(found)
    }

    fn ai_moves(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let board = self.engine.board();
        if board.result().is_some() || board.side_to_move() == self.human || self.analysing {
            return Ok(());
        }
        let analysis = self.think(out, "thinking")?;
        // No move: every point is forbidden, which `show` says next.
        let Some(mv) = analysis.best_move else {
            return Ok(());
        };
        let verdict = verdict_text(&analysis, self.engine.board().rule(), Searcher::Engine);
        writeln!(out, "AI plays {} ({verdict})", self.name(mv))?;
        self.engine.play(mv).expect("the engine plays legal moves");
        Ok(())
    }

    fn show(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let mut board = self.engine.board().clone();
        write!(out, "\n{}", render(&mut board))?;
        match board.result() {
            Some(r) => {
                let (who, end) = match r.winner {
                    Some(w)
                        if self.analysing
                            || self.both_sides()
                            || result_from_the_start(&board, &self.start) =>
                    {
                        (format!("{} wins", colour_title(w)), ".")
                    }
                    Some(w) if w == self.human => ("You win".into(), "!"),
                    Some(_) => ("The AI wins".into(), "."),
                    None => ("Draw".into(), "."),
                };
                let next = if self.analysing {
                    "undo, new or quit"
                } else {
                    "new or quit"
                };
                writeln!(out, "{who} ({}){end} Type {next}.", r.reason.name())
            }
            // Whoever plays Black, the game cannot go on: say so, not "your move".
            None if !board.has_legal_move() => {
                writeln!(
                    out,
                    "{}. Type undo, new or quit.",
                    crate::analyze::NO_LEGAL_MOVE
                )
            }
            None if self.analysing => writeln!(
                out,
                "Analysis: {} to move. Type a move for it:",
                colour_title(board.side_to_move())
            ),
            None => writeln!(out, "You are {}. Your move:", colour_name(self.human)),
        }
    }

    fn human_move(&mut self, text: &str, out: &mut impl Write) -> std::io::Result<()> {
        let p = match parse_point(text, self.size) {
            Ok(p) => p,
            Err(e) => return writeln!(out, "{text}: {e}. Type help for the commands."),
        };
        let board = self.engine.board();
        if board.result().is_some() {
            return writeln!(out, "The game is over. Type new or quit.");
        }
        let mover = board.side_to_move();
        if mover != self.human && !self.analysing {
            return writeln!(out, "It is not your turn.");
        }
        if !board.is_empty(p) {
            return writeln!(out, "{} is occupied.", self.name(p));
        }
        if self.rule.has_fouls(mover) {
            let mut probe = board.clone();
            if let Some(foul) = probe.foul(p) {
                return writeln!(
                    out,
                    "{} is forbidden for Black ({}): marked # on the board.",
                    self.name(p),
                    foul.name()
                );
            }
        }
        let note = overline_note(board, p);
        self.engine.play(p).expect("checked above");
        if !note.is_empty() {
            writeln!(out, "{}{note}", self.name(p))?;
        }
        if self.analysing {
            let before = self.engine.board().moves().len() - 1;
            self.both_sides_from.get_or_insert(before);
            return self.analyse(out);
        }
        self.ai_moves(out)
    }

    /// Turns the analysis on (and analyses the position) or off (and the engine moves if
    /// it is its turn).
    fn toggle_analysis(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        self.analysing = !self.analysing;
        if self.analysing {
            writeln!(
                out,
                "Analysis: you play both sides; analysis again to leave."
            )?;
            return self.analyse(out);
        }
        writeln!(
            out,
            "Back to the game: you are {}.",
            colour_name(self.human)
        )?;
        self.ai_moves(out)
    }

    /// The engine's choice for the side to move, at a move's time, with its line.
    fn analyse(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.engine.board().result().is_some() {
            return Ok(());
        }
        let side = self.engine.board().side_to_move();
        let analysis = self.think(out, "analysing")?;
        let Some(mv) = analysis.best_move else {
            return writeln!(out, "{}", crate::analyze::NO_LEGAL_MOVE);
        };
        let verdict = verdict_text(&analysis, self.rule, Searcher::Side(side));
        let line: Vec<String> = analysis.pv.iter().map(|&p| self.name(p)).collect();
        writeln!(
            out,
            "Analysis: {} ({verdict}), depth {}, line {}",
            self.name(mv),
            analysis.depth,
            line.join(" ")
        )
    }

    fn undo(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.analysing {
            if self.engine.undo().is_none() {
                return writeln!(out, "Nothing to undo.");
            }
            self.forget_undone();
            writeln!(out, "Taken back.")?;
            return self.analyse(out);
        }
        let human_stones = self
            .engine
            .board()
            .moves()
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % 2 == 0) == (self.human == Player::First))
            .count();
        if human_stones == 0 {
            return writeln!(out, "Nothing to undo.");
        }
        while self.engine.undo().is_some() {
            if self.engine.board().side_to_move() == self.human {
                break;
            }
        }
        self.forget_undone();
        writeln!(out, "Taken back.")
    }

    /// Every move of the game graded as `wuzi review` grades them, with a quarter of a
    /// move's time a position; the engine is back on the game's position after.
    fn review(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        let Some(span) = ReviewSpan::in_play(self.engine.board(), self.opening_now()) else {
            return writeln!(out, "Nothing to review yet.");
        };
        writeln!(
            out,
            "Reviewing {}...",
            crate::output::count(span.moves.len(), "move")
        )?;
        let limits = in_play_limits(&Limits::time(self.think));
        let reviewed = span.review(&mut self.engine, &limits, None, |_| {});
        match reviewed {
            Ok(reviewed) => writeln!(out, "{}", review_text(&reviewed, self.size, self.rule)),
            Err(e) => writeln!(out, "The review failed: {e}"),
        }
    }

    fn hint(&mut self, out: &mut impl Write) -> std::io::Result<()> {
        if self.engine.board().result().is_some() {
            return writeln!(out, "The game is over.");
        }
        if self.analysing {
            return self.analyse(out);
        }
        let analysis = self.think(out, "hint")?;
        let Some(mv) = analysis.best_move else {
            return writeln!(out, "{}", crate::analyze::NO_LEGAL_MOVE);
        };
        let verdict = verdict_text(&analysis, self.engine.board().rule(), Searcher::Player);
        writeln!(out, "Hint: {} ({verdict})", self.name(mv))
    }

    /// `hint N`: the engine's `n` best moves for the side to move, best first, scored by one
    /// search at one depth (as `wuzi analyze --nbest`), in the time of one move.
    fn hints(&mut self, n: usize, out: &mut impl Write) -> std::io::Result<()> {
        if n == 1 {
            return self.hint(out);
        }
        if self.engine.board().result().is_some() {
            return writeln!(out, "The game is over.");
        }
        let found = self.think_lines(n, out, "hints")?;
        if found[0].best_move.is_none() {
            return writeln!(out, "{}", crate::analyze::NO_LEGAL_MOVE);
        }
        let side = self.engine.board().side_to_move();
        let who = match self.analysing {
            true => Searcher::Side(side),
            false => Searcher::Player,
        };
        writeln!(out, "Best moves:")?;
        for (rank, a) in found.iter().enumerate() {
            let Some(mv) = a.best_move else { continue };
            let verdict = verdict_text(a, self.rule, who);
            let line: Vec<String> = a.pv.iter().map(|&p| self.name(p)).collect();
            // A threat search's win has its own length; the others share the search's depth.
            writeln!(
                out,
                "{:>3}. {} ({verdict}), depth {}, line {}",
                rank + 1,
                self.name(mv),
                a.depth,
                line.join(" ")
            )?;
        }
        Ok(())
    }
}

/// Runs the game loop until `quit` or the end of the input.
pub fn play(args: &PlayGomokuArgs, input: impl BufRead, mut out: impl Write) -> Result<(), String> {
    let mut session = Session::new(args)?;
    let io = crate::output::io_message;
    writeln!(
        out,
        "Gomoku ({}, {}x{}) against wuzi, {} ms per move. You are {}.\n{HELP}",
        session.rule,
        session.size,
        session.size,
        args.time,
        colour_name(session.human)
    )
    .map_err(io)?;
    session.ai_moves(&mut out).map_err(io)?;
    session.show(&mut out).map_err(io)?;
    for line in crate::typed::text_lines(input) {
        let Some(line) = line.map_err(io)? else {
            writeln!(out, "{}", crate::typed::NOT_TEXT).map_err(io)?;
            continue;
        };
        let command = line.trim().to_ascii_lowercase();
        match command.as_str() {
            "" => continue,
            "save" => {
                let path = args.save.clone().unwrap_or_else(save_path);
                writeln!(out, "{}", session.save(&path)).map_err(io)?;
                continue;
            }
            save if save.starts_with("save ") => {
                // The file name as typed (not lowercased).
                let path = Path::new(line.trim()["save ".len()..].trim());
                writeln!(out, "{}", session.save(path)).map_err(io)?;
                continue;
            }
            "quit" | "exit" | "q" => break,
            "help" | "?" => writeln!(out, "{HELP}").map_err(io)?,
            "new" => {
                let analysing = session.analysing;
                session = Session::new(args)?;
                session.analysing = analysing;
                session.start_over_if_finished();
                writeln!(out, "New game.").map_err(io)?;
                match analysing {
                    true => session.analyse(&mut out).map_err(io)?,
                    false => session.ai_moves(&mut out).map_err(io)?,
                }
            }
            "undo" => session.undo(&mut out).map_err(io)?,
            "hint" => session.hint(&mut out).map_err(io)?,
            hint if hint.starts_with("hint ") => match hint["hint ".len()..].trim().parse() {
                Ok(n) if (1..=MAX_HINTS).contains(&n) => session.hints(n, &mut out).map_err(io)?,
                _ => writeln!(
                    out,
                    "{hint}: hint takes how many moves to list, 1 to {MAX_HINTS} (e.g. hint 3)."
                )
                .map_err(io)?,
            },
            "review" => session.review(&mut out).map_err(io)?,
            "analysis" | "analyse" | "analyze" => session.toggle_analysis(&mut out).map_err(io)?,
            text => session.human_move(text, &mut out).map_err(io)?,
        }
        session.show(&mut out).map_err(io)?;
        out.flush().map_err(io)?;
    }
    Ok(())
}
