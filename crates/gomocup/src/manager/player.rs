//! What the game loop talks to: a [`Competitor`] is asked for moves and may fail; wuzi's
//! engine in this process and an external Gomocup program both are one, so a match can mix
//! them (`--a cmd=./old-pbrain-wuzi --b time=200`).

use super::external::External;
use super::side::{Kind, SideSpec};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wuzi_gomoku::{move_budget, Board, Engine, EngineOptions, Point, Rule};
use wuzi_search::Limits;

/// How far an in-process search's limit stays from the moment its side is forfeited: the
/// clock checks' granularity and a loaded machine's scheduling (`pbrain-wuzi` keeps at least
/// as much back from its turn).
const IN_PROCESS_RESERVE: Duration = Duration::from_millis(40);

/// An in-process search's limit and aim (`time`, `target`), kept [`IN_PROCESS_RESERVE`] clear
/// of `forfeit`, when the manager stops waiting (the turn plus the tolerance). With the
/// default tolerance of a second nothing changes; with none (`--tolerance 0`) the side
/// thinks a little less than its turn, as `pbrain-wuzi` does, instead of losing on time by
/// the millisecond a search takes to notice its limit.
fn clear_of_forfeit(
    time: Option<Duration>,
    target: Option<Duration>,
    forfeit: Option<Duration>,
) -> (Option<Duration>, Option<Duration>) {
    let Some((limit, forfeit)) = time.zip(forfeit) else {
        return (time, target);
    };
    let limit = limit
        .min(forfeit.saturating_sub(IN_PROCESS_RESERVE))
        .max(Duration::from_millis(1));
    (Some(limit), target.map(|aim| aim.min(limit)))
}

/// Why a competitor gave no usable move. Any fault loses the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// The program could not be started (its command's error).
    CannotStart(String),
    /// The program exited or closed its output.
    Crashed(String),
    /// No reply within the allowed time (plus tolerance); the last `ERROR`/`UNKNOWN` line
    /// the program printed meanwhile, if any, which usually says why.
    TimedOut(Duration, Option<String>),
    /// No `OK` to `START` within the start-up wait (`start-wait=`).
    SlowStart(Duration),
    /// `START` answered with something else (`ERROR unsupported size`, or garbage): the
    /// command and the answer, `to START 15 it said "..."`.
    StartRefused(String),
    /// A reply that is not a move (`X,Y`). (`ERROR` lines during a game are logged and
    /// waited past: engines report a bad `INFO` that way.)
    Garbage(String),
    /// A move given as numbers, off the board (`-1,0`, `30,0`): what the referee says of
    /// a move on no board.
    OffBoard(String),
    /// Every empty point is forbidden (renju, Black): any stone would lose, so no stone does.
    NoLegalMove,
    /// The match was interrupted (Ctrl-C); the game does not count.
    Aborted,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::CannotStart(why) => write!(f, "could not be started ({why})"),
            Fault::Crashed(why) => write!(f, "crashed ({why})"),
            Fault::TimedOut(after, said) => {
                write!(f, "timed out (no reply after {} ms", after.as_millis())?;
                match said {
                    Some(line) => write!(f, "; it last said \"{line}\")"),
                    None => write!(f, ")"),
                }
            }
            Fault::SlowStart(after) => write!(
                f,
                "did not answer START within {} ms (start-wait=MS gives it longer)",
                after.as_millis()
            ),
            Fault::StartRefused(said) => f.write_str(said),
            Fault::Garbage(line) => write!(f, "replied garbage \"{line}\""),
            Fault::OffBoard(why) => write!(f, "played an illegal move {why}"),
            Fault::NoLegalMove => write!(f, "had no legal move"),
            Fault::Aborted => write!(f, "interrupted"),
        }
    }
}

/// The clock as the side to move sees it.
#[derive(Copy, Clone, Debug)]
pub struct Clock {
    /// Time left in the game, for a side on a match clock.
    pub game_left: Option<Duration>,
    /// When the manager stops waiting and forfeits the side.
    pub wait_limit: Option<Duration>,
}

/// Where engines' `MESSAGE` lines go (`--log`).
pub type Log = Arc<Mutex<dyn std::io::Write + Send>>;

/// Writes one line to the log, if there is one; a failing log never stops a match.
pub fn log_line(log: &Option<Log>, line: &str) {
    if let Some(log) = log {
        let mut w = log.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{line}");
    }
}

/// A player of games.
pub trait Competitor {
    /// Prepares a new game (for a program: starts it and sends `START` and the `INFO`s).
    fn start_game(&mut self, size: usize, rule: Rule) -> Result<(), Fault>;
    /// The move for the side to move on `board`, which holds every stone so far.
    fn choose(&mut self, board: &Board, clock: &Clock) -> Result<Point, Fault>;
    /// Waits, off every clock, until the competitor can take its next command (a program
    /// with `settle=` set: some engines drop a command that comes just after their move).
    fn settle(&mut self) {}
    /// The game is over (a program is told `END` and stopped).
    fn end_game(&mut self);
    /// After [`Competitor::start_game`]: the complaint of a program that answered the rule's
    /// `INFO` with `ERROR` (it cannot play that rule), if it did.
    fn refused_rule(&mut self) -> Option<String> {
        None
    }
}

/// Makes the competitor a side describes; `abort` is the match's Ctrl-C flag.
pub fn competitor(
    side: &SideSpec,
    abort: Arc<AtomicBool>,
    log: Option<Log>,
    label: String,
) -> Box<dyn Competitor + Send> {
    match &side.kind {
        Kind::InProcess(options) => Box::new(InProcess {
            options: options.clone(),
            side: side.clone(),
            engine: None,
            abort,
        }),
        Kind::External(command) => Box::new(External::new(
            command.clone(),
            side.clone(),
            abort,
            log,
            label,
        )),
    }
}

/// Starts each program among `sides` once (`START` and its `OK`, the `INFO`s, then `END`),
/// so that a command that cannot run, or does not speak the protocol, is one error before a
/// match rather than a forfeit in each of its games. In-process sides need no check.
pub fn check_programs<'a>(
    sides: impl IntoIterator<Item = &'a SideSpec>,
    size: usize,
    rule: Rule,
    abort: Arc<AtomicBool>,
) -> Result<(), String> {
    for side in sides {
        if let Kind::External(command) = &side.kind {
            let mut program = competitor(side, abort.clone(), None, String::new());
            let started = program.start_game(size, rule);
            let refused = started.is_ok().then(|| program.refused_rule()).flatten();
            program.end_game();
            // The program, and the entrant's name when it is not the program's (one program
            // may be entered twice with other settings).
            let program_text = command.join(" ");
            let name = match program_text.contains(&side.name) {
                true => program_text,
                false => format!("{program_text} (name={})", side.name),
            };
            started.map_err(|fault| match fault {
                Fault::Aborted => "interrupted before the first game".to_string(),
                fault => format!("{name} cannot play: {fault}"),
            })?;
            if let Some(said) = refused {
                return Err(format!(
                    "{name} cannot play {}: to INFO rule {} it said \"{said}\"",
                    rule.name(),
                    super::external::rule_number(rule)
                ));
            }
        }
    }
    Ok(())
}

/// wuzi's engine, searching in this process: cheap, and deterministic under depth or node
/// limits.
struct InProcess {
    options: EngineOptions,
    side: SideSpec,
    engine: Option<Engine>,
    abort: Arc<AtomicBool>,
}

impl Competitor for InProcess {
    fn start_game(&mut self, size: usize, rule: Rule) -> Result<(), Fault> {
        let board = Board::new(size, rule).map_err(|e| Fault::Crashed(e.to_string()))?;
        self.options.check_rule(rule).map_err(Fault::Crashed)?;
        self.engine = Some(Engine::new(board, self.options.clone()));
        Ok(())
    }

    fn choose(&mut self, board: &Board, clock: &Clock) -> Result<Point, Fault> {
        let engine = self
            .engine
            .as_mut()
            .ok_or_else(|| Fault::Crashed("no game started".into()))?;
        // Play the moves the engine has not seen; a position it cannot reach is set afresh.
        let known = engine.board().moves().len();
        let follows =
            board.moves().len() >= known && board.moves()[..known] == *engine.board().moves();
        if follows {
            for &p in &board.moves()[known..] {
                engine.play(p).map_err(Fault::Crashed)?;
            }
        } else {
            engine.set_board(board.clone());
        }
        // A turn limit alone is the aim as well as the limit.
        let (time, target) = if self.side.game.is_some() {
            let params = &engine.options().params;
            let budget = move_budget(
                self.side.turn,
                clock.game_left,
                board,
                params.time_horizon,
                params.time_extension,
            );
            (budget.map(|b| b.limit), budget.map(|b| b.target))
        } else {
            (self.side.turn, None)
        };
        let (time, target) = clear_of_forfeit(time, target, clock.wait_limit);
        let limits = Limits {
            depth: self.side.depth,
            nodes: self.side.nodes,
            time,
            target,
            stop: Some(self.abort.clone()),
        };
        let analysis = engine.go(&limits, |_| {});
        if self.abort.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(Fault::Aborted);
        }
        let mv = analysis.best_move.ok_or(Fault::NoLegalMove)?;
        engine.play(mv).map_err(Fault::Crashed)?;
        Ok(mv)
    }

    fn end_game(&mut self) {
        self.engine = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_in_process_search_keeps_clear_of_its_forfeit() {
        let ms = |n| Some(Duration::from_millis(n));
        // The default tolerance (a second) leaves the turn as it is.
        assert_eq!(clear_of_forfeit(ms(100), None, ms(1100)), (ms(100), None));
        // No tolerance: 40 ms back from the turn, the aim no later than the limit.
        assert_eq!(clear_of_forfeit(ms(100), None, ms(100)), (ms(60), None));
        assert_eq!(clear_of_forfeit(ms(100), ms(80), ms(110)), (ms(70), ms(70)));
        assert_eq!(clear_of_forfeit(ms(100), ms(50), ms(100)), (ms(60), ms(50)));
        // Never nothing to think with; no clock, no change.
        assert_eq!(clear_of_forfeit(ms(20), None, ms(20)), (ms(1), None));
        assert_eq!(clear_of_forfeit(None, None, ms(100)), (None, None));
        assert_eq!(clear_of_forfeit(ms(100), None, None), (ms(100), None));
    }
}
