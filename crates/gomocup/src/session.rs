//! The protocol's state machine: the game, the settings from `INFO`, and what each command
//! does to them. It decides and formats; the I/O loop in `lib.rs` runs the searches it asks
//! for on a worker thread.

use crate::command::{parse, Command, ParseError};
use block::{without_stone, Block, BlockKind, BLOCK_DROPPED};
use std::time::Duration;
use wuzi_gomoku::{
    move_budget, Analysis, Board, Engine, EngineOptions, Player, Point, Rule, MAX_SIZE, MAX_THREADS,
};
use wuzi_search::{Forced, Limits};

/// What the engine is asked to think about; the loop runs it and hands the result back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Job {
    /// Find a move, play it and reply with it.
    Move,
    /// Report the N best moves as `MESSAGE` lines, then reply with the best.
    NBest(usize),
    /// The swap2 opening, with this many stones on the board (0, 3 or 5).
    Swap2(usize),
}

/// A search the loop must start: the job, its limits and (for N-best) moves to leave out.
pub struct Think {
    pub job: Job,
    pub limits: Limits,
}

/// Time per move when the manager sends neither a turn limit nor a game clock.
const DEFAULT_TURN_MS: u64 = 5_000;
/// `time_left` this large means "no limit".
const UNLIMITED_MS: u64 = 2_147_483_647;
/// Table memory when the manager sets no limit.
const DEFAULT_TABLE_BYTES: usize = 64 << 20;

pub struct Session {
    size: Option<usize>,
    rule: Rule,
    /// The last `INFO rule` value: a manager repeating it (every game, every move) hears
    /// its notes once.
    last_rule_value: Option<u64>,
    engine: Option<Engine>,
    table_bytes: usize,
    threads: usize,
    block: Option<Block>,
    timeout_turn: Option<u64>,
    timeout_match: Option<u64>,
    time_left: Option<u64>,
    /// Whether `time_left` came from the manager since its last command other than `INFO`
    /// and the game starts: Yixin-Board sends it before its `START` of every move, so that
    /// START keeps it.
    time_left_sent: bool,
    max_depth: Option<u32>,
    max_node: Option<u64>,
}

impl Default for Session {
    fn default() -> Self {
        Session {
            size: None,
            rule: Rule::Freestyle,
            last_rule_value: None,
            engine: None,
            table_bytes: DEFAULT_TABLE_BYTES,
            threads: 1,
            block: None,
            timeout_turn: None,
            timeout_match: None,
            time_left: None,
            time_left_sent: false,
            max_depth: None,
            max_node: None,
        }
    }
}

/// What handling a line produced: lines to print, maybe a search to start, maybe the end.
#[derive(Default)]
pub struct Outcome {
    pub replies: Vec<String>,
    pub think: Option<Think>,
    pub end: bool,
}

impl Outcome {
    fn reply(text: impl Into<String>) -> Outcome {
        Outcome {
            replies: vec![text.into()],
            ..Outcome::default()
        }
    }
}

fn error(text: impl std::fmt::Display) -> Outcome {
    Outcome::reply(format!("ERROR {text}"))
}

fn xy(p: Point) -> String {
    format!("{},{}", p.x(), p.y())
}

impl Session {
    /// The engine, while no search holds it.
    pub fn take_engine(&mut self) -> Option<Engine> {
        self.engine.take()
    }

    pub fn give_engine(&mut self, engine: Engine) {
        self.engine = Some(engine);
    }

    /// Counts a reply's time, from its request to its move, against the game's time left:
    /// a manager that sends `INFO timeout_match` but no `time_left` before each move still
    /// gets a player that keeps to its clock (the next `time_left` it sends wins).
    pub fn spend(&mut self, spent: Duration) {
        if let Some(left) = self.time_left.or(self.timeout_match) {
            let spent = u64::try_from(spent.as_millis()).unwrap_or(u64::MAX);
            self.time_left = Some(left.saturating_sub(spent));
        }
    }

    /// A line that is not a stone (malformed, or too long to read) inside an open block: the
    /// block is then refused at its `DONE`, with the first such line as the reason.
    pub fn refuse_block_line(&mut self, why: &str) {
        if let Some(block) = &mut self.block {
            block.bad_line.get_or_insert_with(|| why.to_string());
        }
    }

    /// Handles one input line (not while a search runs: the loop queues lines then).
    pub fn handle_line(&mut self, line: &str) -> Outcome {
        match parse(line) {
            Ok(command) => self.handle(command),
            // Inside a block every line but its end is a stone.
            Err(ParseError::Unknown(why) | ParseError::Malformed(why)) if self.block.is_some() => {
                let why = format!("\"{}\" is not a stone line X,Y,F: {why}", line.trim());
                self.refuse_block_line(&why);
                error(format!("{why}; the whole block will be refused"))
            }
            Err(ParseError::Unknown(why)) => Outcome::reply(format!("UNKNOWN {why}")),
            Err(ParseError::Malformed(why)) => error(why),
        }
    }

    fn handle(&mut self, command: Command) -> Outcome {
        if let Some(block) = &mut self.block {
            return match command {
                Command::Stone(p, f) => {
                    // No board has more points: the lines past them are not kept.
                    if block.stones.len() < MAX_SIZE * MAX_SIZE {
                        block.stones.push((p, f));
                    } else {
                        block
                            .bad_line
                            .get_or_insert_with(|| "more stones than any board has".into());
                    }
                    Outcome::default()
                }
                Command::Done => {
                    let block = self.block.take().expect("in a block");
                    self.finish_block(block)
                }
                Command::End => Outcome {
                    end: true,
                    ..Outcome::default()
                },
                command => {
                    // The block is dropped, and the command that broke it still counts.
                    self.block = None;
                    let mut outcome = self.handle(command);
                    outcome.replies.insert(0, BLOCK_DROPPED.into());
                    outcome
                }
            };
        }
        match command {
            Command::Start(_) | Command::RectStart(..) | Command::Restart => {
                // A new game's clock: the manager's next `time_left` (or the one it has just
                // sent), else the whole match.
                if !self.time_left_sent {
                    self.time_left = None;
                }
            }
            Command::Info(..) => {}
            // Any other command (a move asked for, or one refused) ends what the last
            // `time_left` was sent for: it is not carried into the next game.
            _ => self.time_left_sent = false,
        }
        match command {
            Command::Start(n) => self.start(n),
            Command::RectStart(w, h) if w == h => self.start(w),
            Command::RectStart(w, h) => error(format!(
                "rectangular boards ({w}x{h}) are not supported; square 5 to 22 are"
            )),
            Command::Restart => match self.size {
                Some(n) => self.start(n),
                None => error("RESTART before START"),
            },
            Command::Begin => match &self.engine {
                None => error("no game: send START first"),
                Some(e) if e.board().stone_count() > 0 => error("BEGIN needs an empty board"),
                Some(e) => {
                    // A rule that waited for the board to empty (sent mid-game, the stones
                    // then taken back) applies to the game BEGIN starts.
                    let n = e.board().size();
                    if e.board().rule() != self.rule {
                        self.start(n);
                    }
                    self.think(Job::Move)
                }
            },
            Command::Turn(p) => match self.play(p) {
                Err(e) => error(e),
                // No move can answer it, so the reply is an ERROR, and an ERROR changes nothing.
                Ok(()) if self.board().is_some_and(|b| b.result().is_some()) => {
                    if let Some(engine) = &mut self.engine {
                        engine.undo();
                    }
                    error(format!(
                        "{} ends the game, so there is no move to answer; it is not kept",
                        xy(p)
                    ))
                }
                Ok(()) => self.think(Job::Move),
            },
            Command::Play(p) => match self.play(p) {
                Err(e) => error(e),
                Ok(()) => Outcome::reply(xy(p)),
            },
            Command::Takeback(p) => self.takeback(p),
            // Opened even without a game, so that its lines are read as its own: the one
            // `ERROR` comes at its `DONE`.
            Command::Board | Command::YxBoard | Command::Swap2Board => {
                let kind = match command {
                    Command::Board => BlockKind::Board,
                    Command::YxBoard => BlockKind::YxBoard,
                    _ => BlockKind::Swap2,
                };
                self.block = Some(Block {
                    kind,
                    stones: Vec::new(),
                    bad_line: None,
                });
                Outcome::default()
            }
            Command::Stone(..) | Command::Done => error("stone lines only come after BOARD"),
            Command::Info(key, value) => self.info(&key, &value),
            Command::About => Outcome::reply(format!(
                "name=\"wuzi\", version=\"{}\", author=\"the wuzi developers\", country=\"-\", \
                 www=\"-\"",
                env!("CARGO_PKG_VERSION")
            )),
            Command::End => Outcome {
                end: true,
                ..Outcome::default()
            },
            // Nothing is running (a running search is stopped by the loop itself).
            Command::Stop => Outcome::default(),
            Command::ShowForbid => self.show_forbid(),
            Command::NBest(0) => error("YXNBEST needs at least 1"),
            Command::NBest(n) => match self.board() {
                None => error("no game: send START first"),
                Some(b) if b.result().is_some() => error("the game is over"),
                Some(_) => self.think(Job::NBest(n)),
            },
            Command::HashClear => {
                if let Some(e) = &mut self.engine {
                    e.clear_tables();
                }
                Outcome::default()
            }
        }
    }

    fn board(&self) -> Option<&Board> {
        self.engine.as_ref().map(Engine::board)
    }

    fn options(&self) -> EngineOptions {
        EngineOptions {
            table_bytes: self.table_bytes,
            threads: self.threads,
            ..EngineOptions::default()
        }
    }

    /// A new game keeps the engine, and what its tables know, when the board's size and
    /// rule are the same (a manager starts every game of a match alike): no table is made
    /// again on the clock.
    fn start(&mut self, n: usize) -> Outcome {
        match Board::new(n, self.rule) {
            Ok(board) => {
                self.size = Some(n);
                match &mut self.engine {
                    Some(e) if e.board().size() == n && e.board().rule() == self.rule => {
                        e.set_board(board)
                    }
                    _ => self.replace_engine(board),
                }
                Outcome::reply("OK")
            }
            Err(e) => error(e),
        }
    }

    /// A new engine for `board` with the present settings. It is made at once, its tables
    /// mapped into memory in the background: settings arrive just before a move request,
    /// whose clock would otherwise pay for hundreds of megabytes (see
    /// [`Engine::new_mapping_in_background`]). The engine it replaces is freed in the
    /// background too.
    fn replace_engine(&mut self, board: Board) {
        let old = self
            .engine
            .replace(Engine::new_mapping_in_background(board, self.options()));
        if let Some(old) = old {
            std::thread::spawn(move || drop(old));
        }
    }

    /// Puts `board` on the engine, which keeps its tables (see [`Engine::set_board`]), or
    /// makes the engine if there is none yet.
    fn set_board(&mut self, board: Board) {
        match &mut self.engine {
            Some(engine) => engine.set_board(board),
            None => self.replace_engine(board),
        }
    }

    /// Plays `p` for the side to move, checked; nothing changes on an error.
    fn play(&mut self, p: Point) -> Result<(), String> {
        let engine = self.engine.as_mut().ok_or("no game: send START first")?;
        engine.play(p).map_err(|e| format!("{}: {e}", xy(p)))
    }

    fn takeback(&mut self, p: Point) -> Outcome {
        let Some(engine) = &mut self.engine else {
            return error("no game: send START first");
        };
        match engine.board().last_move() {
            Some(last) if last == p => {
                engine.undo();
                Outcome::reply("OK")
            }
            Some(last) => error(format!("{} is not the last move ({})", xy(p), xy(last))),
            None => match without_stone(engine.board(), p) {
                Ok(board) => {
                    engine.set_board(board);
                    Outcome::reply("OK")
                }
                Err(e) => error(e),
            },
        }
    }

    fn show_forbid(&mut self) -> Outcome {
        let Some(engine) = &self.engine else {
            return error("no game: send START first");
        };
        let mut board = engine.board().clone();
        let points: String = board
            .forbidden_points()
            .iter()
            .map(|(p, _)| format!("{:02}{:02}", p.x(), p.y()))
            .collect();
        Outcome::reply(format!("FORBID {points}."))
    }

    /// The limits for one move, from the time settings and the board.
    fn limits(&self, share: u32) -> Limits {
        let engine = self.engine.as_ref().expect("a game");
        let match_left = self.time_left.or(self.timeout_match);
        // No turn limit with a game clock (c-gomoku-cli sends none when its own is 0): the
        // clock alone sets the time.
        let turn = match (self.timeout_turn, match_left) {
            (Some(turn), _) => Some(turn),
            (None, Some(_)) => None,
            (None, None) => Some(DEFAULT_TURN_MS),
        };
        let params = &engine.options().params;
        // A turn limit or a game clock: there is always a budget.
        let budget = move_budget(
            turn.map(Duration::from_millis),
            match_left.map(Duration::from_millis),
            engine.board(),
            params.time_horizon,
            params.time_extension,
        );
        let part = |t: Duration| Some((t / share.max(1)).max(Duration::from_millis(1)));
        Limits {
            depth: self.max_depth,
            nodes: self.max_node,
            time: budget.and_then(|b| part(b.limit)),
            target: budget.and_then(|b| part(b.target)),
            stop: None,
        }
    }

    fn think(&mut self, job: Job) -> Outcome {
        let share = match job {
            // One search ranks the N best moves in the turn's time.
            Job::NBest(_) | Job::Move => 1,
            Job::Swap2(_) => 2,
        };
        let limits = self.limits(share);
        Outcome {
            think: Some(Think { job, limits }),
            ..Outcome::default()
        }
    }

    /// Turns a finished search into replies (the engine is back in the session).
    pub fn finish(&mut self, job: &Job, results: &[Analysis]) -> Vec<String> {
        let Some(best) = results.first() else {
            return vec!["ERROR no move was found".into()];
        };
        let Some(mv) = best.best_move else {
            let over = self
                .engine
                .as_ref()
                .is_none_or(|e| e.board().result().is_some());
            return vec![if over {
                "ERROR the game is over".into()
            } else {
                "ERROR no legal move: every empty point is forbidden for Black (renju)".into()
            }];
        };
        match job {
            Job::Move => {
                self.play(mv).expect("the engine plays legal moves");
                vec![xy(mv)]
            }
            Job::NBest(_) => {
                let mut lines: Vec<String> = results
                    .iter()
                    .enumerate()
                    .filter_map(|(i, a)| {
                        a.best_move.map(|m| {
                            format!("MESSAGE nbest {} {} score {}", i + 1, xy(m), score_text(a))
                        })
                    })
                    .collect();
                lines.push(xy(mv));
                lines
            }
            Job::Swap2(stones) => self.swap2_reply(*stones, results),
        }
    }
}

/// The score in the `MESSAGE` format: a number, or `win-in-N` / `loss-in-N` when proven.
pub fn score_text(a: &Analysis) -> String {
    match a.forced() {
        Some(Forced::Win(n)) => format!("win-in-{n}"),
        Some(Forced::Loss(n)) => format!("loss-in-{n}"),
        None => a.score.value().to_string(),
    }
}

mod block;
mod info;
mod swap2;
pub use swap2::swap2_openings;

#[cfg(test)]
mod robustness;
#[cfg(test)]
mod tests;
