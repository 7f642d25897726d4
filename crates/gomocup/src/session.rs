//! The protocol's state machine: the game, the settings from `INFO`, and what each command
//! does to them. It decides and formats; the I/O loop in `lib.rs` runs the searches it asks
//! for on a worker thread.

use crate::command::{parse, Command, ParseError};
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

/// The notice that a block's stones were dropped: a command came before its `DONE` (the
/// game is as it was; the command's own reply follows).
const BLOCK_DROPPED: &str = "ERROR a board block was not ended with DONE; it is dropped";

/// A block of stone lines being read (`BOARD`, `YXBOARD`, `SWAP2BOARD` ... `DONE`). A
/// malformed line inside it gets an ERROR and the block stays open, so that its `DONE` still
/// ends it, and then the whole block is refused: the manager's position has a stone this
/// one would lack, and a move searched without it could land on it. (The reference brain,
/// pisqpipe, ends the block at such a line instead, and then takes `DONE` and the stones
/// after the bad line as commands.)
struct Block {
    kind: BlockKind,
    stones: Vec<(Point, Option<u8>)>,
    /// The first line that was not a stone, and why.
    bad_line: Option<String>,
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum BlockKind {
    Board,
    YxBoard,
    Swap2,
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

/// `board`, set up from its stones without a history (a `BOARD` whose order passed through a
/// five, a `YXBOARD`), less the stone at `p`, which the side that moved last must own: that
/// side is then to move.
fn without_stone(board: &Board, p: Point) -> Result<Board, String> {
    let last = board.side_to_move().opponent();
    if board.stone(p) != Some(last) {
        return Err(match board.stone_count() {
            0 => "there is no move to take back".into(),
            _ => format!("{} is not a stone of the side that moved last", xy(p)),
        });
    }
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for q in board.points().filter(|&q| q != p) {
        match board.stone(q) {
            Some(Player::First) => black.push(q),
            Some(Player::Second) => white.push(q),
            None => {}
        }
    }
    Board::from_stones(board.size(), board.rule(), &black, &white, Some(last))
        .map_err(|e| e.to_string())
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

    fn info(&mut self, key: &str, value: &str) -> Outcome {
        // A number past every limit (more digits than 64 bits hold) is as good as the
        // largest: no limit is that long.
        let whole = |v: &str| match v.parse::<u64>() {
            Err(e) if *e.kind() == std::num::IntErrorKind::PosOverflow => Ok(u64::MAX),
            parsed => parsed,
        };
        let number = whole(value);
        // Managers send negative values: a clock overrun within their tolerance, Yixin-Board's
        // `max_node -1` for "no limit".
        let negative = value
            .strip_prefix('-')
            .is_some_and(|v| whole(v).is_ok_and(|v| v > 0));
        // `INFO` has no reply of its own: a value it ignores gets a `MESSAGE`, never an
        // `ERROR`, which a manager reads as the reply to the `TURN` it sends next (Piskvork
        // forfeits the engine for it).
        let bad = || {
            Outcome::reply(format!(
                "MESSAGE INFO {key}: \"{value}\" is not a whole number of 0 or more; ignored"
            ))
        };
        match key {
            "timeout_turn" => match number {
                Ok(v) => self.timeout_turn = Some(v),
                Err(_) => return bad(),
            },
            "timeout_match" => match number {
                Ok(v) => self.timeout_match = (v > 0).then_some(v),
                Err(_) => return bad(),
            },
            "time_left" => {
                match number {
                    Ok(v) => self.time_left = (v < UNLIMITED_MS).then_some(v),
                    // The clock has run out: answer at once.
                    Err(_) if negative => self.time_left = Some(0),
                    Err(_) => return bad(),
                }
                self.time_left_sent = true;
            }
            "max_memory" => match number {
                Ok(0) => self.set_table_bytes(DEFAULT_TABLE_BYTES),
                // Half for the tables: the rest is the program, its board and buffers.
                Ok(v) => self.set_table_bytes((v / 2).min(1 << 30) as usize),
                Err(_) => return bad(),
            },
            "max_depth" => match number {
                Ok(v) => self.max_depth = (v > 0).then_some(v.min(200) as u32),
                Err(_) if negative => self.max_depth = None,
                Err(_) => return bad(),
            },
            "max_node" => match number {
                Ok(v) => self.max_node = (v > 0).then_some(v),
                Err(_) if negative => self.max_node = None,
                Err(_) => return bad(),
            },
            "rule" => match number {
                Ok(v) => {
                    let set = self.set_rule(v);
                    let repeated = self.last_rule_value.replace(v) == Some(v);
                    // A rule it cannot play: the engine is refused (an `ERROR` at once).
                    let deferred = match set {
                        Ok(deferred) => deferred,
                        Err(e) => return error(e),
                    };
                    let mut notes = Vec::new();
                    if repeated {
                        // Said already.
                    } else if v == 2 {
                        // The protocol's bit 2 is "continuous game"; Yixin-Board sends 2 for
                        // renju.
                        notes.push("MESSAGE INFO rule 2 is taken as renju".to_string());
                    } else if v & 2 != 0 && wuzi_gomoku::record::rule_from_number(v).is_some() {
                        // Bit 2 with others: a continuous game asked for, which wuzi does not
                        // play (nor take its boards' field 3); the other bits are kept.
                        let pending = self.board().is_some_and(|b| b.rule() != self.rule);
                        let plays = if pending {
                            "the next game plays"
                        } else {
                            "playing"
                        };
                        notes.push(format!(
                            "MESSAGE INFO rule {v}: continuous game (2) is not supported; \
                             {plays} {}",
                            self.rule
                        ));
                    }
                    notes.extend(deferred.map(|m| format!("MESSAGE {m}")));
                    if !notes.is_empty() {
                        return Outcome {
                            replies: notes,
                            ..Outcome::default()
                        };
                    }
                }
                Err(_) => return bad(),
            },
            "thread_num" => match number {
                Ok(v) => {
                    let threads = (v as usize).clamp(1, MAX_THREADS);
                    if threads != self.threads {
                        self.threads = threads;
                        self.rebuild_engine();
                    }
                }
                Err(_) => return bad(),
            },
            "game_type" | "folder" | "evaluate" | "hash_size" => {}
            "" => return Outcome::reply("MESSAGE INFO without a key is not used; ignored"),
            _ => return Outcome::reply(format!("MESSAGE INFO {key} is not used; ignored")),
        }
        Outcome::default()
    }

    /// A new size rebuilds the engine; the same size keeps it, and what its table knows (a
    /// manager may repeat its settings every game, or every move).
    fn set_table_bytes(&mut self, bytes: usize) {
        if bytes != self.table_bytes {
            self.table_bytes = bytes;
            self.rebuild_engine();
        }
    }

    /// A new engine on the same position, for new memory or thread settings.
    fn rebuild_engine(&mut self) {
        if let Some(board) = self.board().cloned() {
            self.replace_engine(board);
        }
    }

    /// Bits: 1 exactly five, 2 continuous game (some GUIs send 2 for renju), 4 renju,
    /// 8 caro. The rule takes effect now if no stone is on the board, else at the next
    /// START, RESTART, BOARD, YXBOARD or BEGIN: then, the first time it is sent (a manager
    /// may repeat its settings every move), the text of a message saying so. A rule it
    /// cannot play is an error, and the rule stays as it was.
    fn set_rule(&mut self, value: u64) -> Result<Option<String>, String> {
        let in_play = self.board().map(|b| b.rule());
        let rule = match wuzi_gomoku::record::rule_from_number(value) {
            Some(rule) => rule,
            None => {
                let keeping = match in_play {
                    Some(playing) if playing != self.rule => {
                        format!(
                            "this game goes on under {playing}, the next under {}",
                            self.rule
                        )
                    }
                    _ => format!("keeping {}", self.rule),
                };
                return Err(format!(
                    "rule {value} is not supported (freestyle 0, standard 1, renju 2 or 4); \
                     {keeping}"
                ));
            }
        };
        let new = rule != self.rule;
        self.rule = rule;
        let (Some(n), Some(playing)) = (self.size, in_play) else {
            return Ok(None);
        };
        if playing == rule {
            // Managers repeat their settings every game: nothing to start again.
            return Ok(None);
        }
        if self.board().is_some_and(|b| b.stone_count() == 0) {
            self.start(n);
            return Ok(None);
        }
        Ok(new.then(|| {
            format!(
                "INFO rule {value} ({rule}) takes effect at the next START, RESTART, BOARD, \
                 YXBOARD or BEGIN; this game goes on under {playing}"
            )
        }))
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

    /// Sets up the position a finished block describes.
    fn finish_block(&mut self, block: Block) -> Outcome {
        if let Some(why) = block.bad_line {
            return error(format!(
                "the block is refused ({why}); the position is as it was"
            ));
        }
        if block.kind == BlockKind::Swap2 {
            return self.swap2(block);
        }
        let Some(n) = self.size else {
            return error("no game: send START first");
        };
        match self.board_from_block(n, &block.stones) {
            Err(e) => error(e),
            // BOARD asks for a move, and a finished game has none: an ERROR, so (as for every
            // ERROR) the position stays as it was. YXBOARD only sets the position.
            Ok(board) if block.kind == BlockKind::Board && board.result().is_some() => {
                error("the game on that board is already over; the position is not set")
            }
            Ok(board) => {
                self.set_board(board);
                match block.kind {
                    BlockKind::YxBoard => Outcome::default(),
                    _ => self.think(Job::Move),
                }
            }
        }
    }

    /// Stones with field 1 (own) and 2 (opponent's); the engine is to move. Renju positions
    /// come in move order and are replayed so that fouls are judged as they happened;
    /// freestyle and standard ones are replayed alternately in the order given.
    fn board_from_block(&self, n: usize, stones: &[(Point, Option<u8>)]) -> Result<Board, String> {
        let mut own = Vec::new();
        let mut theirs = Vec::new();
        for &(p, f) in stones {
            if !p.on_board(n) {
                return Err(format!("{} is off the {n}x{n} board", xy(p)));
            }
            match f {
                Some(1) => own.push(p),
                Some(2) => theirs.push(p),
                Some(3) => {
                    return Err(
                        "field 3 (continuous game) is not supported: give stones as 1 or 2".into(),
                    )
                }
                _ => return Err(format!("{}: a board line needs X,Y,F with F 1 or 2", xy(p))),
            }
        }
        let own_colour = if own.len() == theirs.len() {
            Player::First
        } else if theirs.len() == own.len() + 1 {
            Player::Second
        } else {
            return Err(format!(
                "impossible stone counts: {} own and {} of the opponent's with the engine to move",
                own.len(),
                theirs.len()
            ));
        };
        let (black, white) = if own_colour == Player::First {
            (own, theirs)
        } else {
            (theirs, own)
        };
        let mut board = Board::new(n, self.rule).map_err(|e| e.to_string())?;
        let in_order: Vec<Point> = if self.rule == Rule::Renju {
            for (i, &(_, f)) in stones.iter().enumerate() {
                let black_stone = (f == Some(1)) == (own_colour == Player::First);
                if black_stone != (i % 2 == 0) {
                    return Err("renju positions must come in move order, Black first".into());
                }
            }
            stones.iter().map(|&(p, _)| p).collect()
        } else {
            let mut order = Vec::with_capacity(stones.len());
            for (i, &b) in black.iter().enumerate() {
                order.push(b);
                if let Some(&w) = white.get(i) {
                    order.push(w);
                }
            }
            order
        };
        let last = in_order.len();
        for (i, &p) in in_order.iter().enumerate() {
            if board.result().is_some() {
                if self.rule == Rule::Renju {
                    return Err(format!(
                        "the game was over before move {} ({})",
                        i + 1,
                        xy(p)
                    ));
                }
                // An order that passes through a five (possible under exactly-five rules):
                // set the stones up without a history instead.
                return Board::from_stones(n, self.rule, &black, &white, Some(own_colour))
                    .map_err(|e| e.to_string());
            }
            board
                .try_play(p)
                .map_err(|e| format!("stone {} ({}): {e}", i + 1, xy(p)))?;
        }
        debug_assert_eq!(board.moves().len(), last);
        Ok(board)
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
                .map_or(true, |e| e.board().result().is_some());
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

mod swap2;
pub use swap2::swap2_openings;

#[cfg(test)]
mod robustness;
#[cfg(test)]
mod tests;
