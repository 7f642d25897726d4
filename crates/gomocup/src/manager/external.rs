//! An external Gomocup engine: a child process spoken to over its stdin and stdout. A new
//! process serves each game, so a crash costs one game and leaves no state behind; a reader
//! thread turns its output into a channel so the manager can wait with a deadline and never
//! hangs on a silent engine; dropping the process kills and reaps it.

use super::player::{log_line, Clock, Competitor, Fault, Log};
use super::side::SideSpec;
use crate::command::parse_point;
use crate::lines::{printable, read_lines, start_of, Line, MAX_LINE};
use std::collections::VecDeque;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use wuzi_gomoku::{Board, Point, Rule, MAX_SIZE};

/// How long an engine may take to start and answer `START`, unless its side says
/// (`start-wait=`).
const START_WAIT: Duration = Duration::from_secs(5);
/// The last lines of an engine's error output kept to quote when it crashes.
const STDERR_KEPT: usize = 3;
/// The lines of an engine process's error output written to `--log`.
const STDERR_LOGGED: usize = 1000;
/// How long an engine may take to exit after `END` before it is killed.
const END_WAIT: Duration = Duration::from_millis(300);
/// How long the pre-start check waits for the answer to `ABOUT`.
const ABOUT_WAIT: Duration = Duration::from_secs(2);
/// How often a wait looks at the Ctrl-C flag.
const ABORT_POLL: Duration = Duration::from_millis(50);
/// The most output lines kept unread: up to 16 MB at 64 KB a line, far more than the messages
/// of a move.
const OUTPUT_BACKLOG: usize = 256;

/// The Gomocup rule number of a rule.
pub fn rule_number(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// What the manager does with a line an engine prints while it waits for a reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineKind {
    /// `DEBUG`: skipped.
    Ignored,
    /// `MESSAGE`: written to the log and waited past.
    Message,
    /// (Unless strict) `ERROR`/`UNKNOWN`: written to the log and waited past, as engines
    /// report a bad `INFO` that way; quoted if the wait then runs out.
    Complaint,
    /// Anything else: the reply, which the caller checks.
    Reply,
}

/// The kind of an output line; the first word is case-insensitive.
fn line_kind(line: &str, strict: bool) -> LineKind {
    let word = line
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_ascii_uppercase();
    match word.as_str() {
        "DEBUG" => LineKind::Ignored,
        "MESSAGE" => LineKind::Message,
        "ERROR" | "UNKNOWN" if !strict => LineKind::Complaint,
        _ => LineKind::Reply,
    }
}

/// The move a reply names (`X,Y`), or the fault that loses the game: numbers off every board
/// are an illegal move, anything else garbage. A cut reply is garbage whatever it starts
/// with. Whether the point is on this board and empty is the referee's question
/// (`Board::try_play`).
fn read_move(reply: &Line, size: usize) -> Result<Point, Fault> {
    let garbage = || Fault::Garbage(excerpt(reply));
    if reply.cut {
        return Err(garbage());
    }
    parse_point(&reply.text).map_err(|_| {
        let numbers = reply.text.split_once(',').and_then(|(x, y)| {
            let number = |s: &str| s.trim().parse::<i64>().ok();
            Some((number(x)?, number(y)?))
        });
        // Only numbers parse_point refused for their range ("-0" is garbage, not 0).
        match numbers {
            Some((x, y)) if x < 0 || y < 0 || x.max(y) >= MAX_SIZE as i64 => {
                Fault::OffBoard(format!("{x},{y}: not on the {size}x{size} board"))
            }
            _ => garbage(),
        }
    })
}

/// The start of a line, to quote in a game's result: of a 64 KB reply the first 60 characters
/// say enough. A cut line's length is not known, only where it was cut. Control characters
/// show as `?`: the quote goes to a terminal and into records, where an escape sequence
/// would act.
fn excerpt(line: &Line) -> String {
    let (start, left_out) = start_of(&line.text, 60);
    let shown = printable(start);
    if line.cut {
        format!("{shown}... (cut at {} KB)", MAX_LINE / 1024)
    } else if left_out {
        format!("{shown}... ({} bytes in all)", line.text.len())
    } else {
        shown
    }
}

/// A running engine process.
struct Process {
    child: Child,
    stdin: ChildStdin,
    /// Output lines; the channel closes when the engine's stdout does.
    lines: Receiver<Line>,
    /// The last lines of its error output, to quote when it crashes (all of them go to the
    /// log), and whether that output has closed.
    stderr: Arc<Mutex<ErrorOutput>>,
}

/// What an engine's reader thread keeps of its error output.
#[derive(Default)]
struct ErrorOutput {
    last: VecDeque<String>,
    closed: bool,
}

impl Drop for Process {
    fn drop(&mut self) {
        // The engine leads a process group of its own (see `spawn`): end the whole group, so
        // that a wrapper's children (`cmd=sh run.sh`, `cmd=wine x.exe`) go with it.
        #[cfg(unix)]
        if let Ok(pid) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill(2) takes any pid and signal and touches no memory of ours; a
            // group that has already gone makes it fail harmlessly.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub struct External {
    command: Vec<String>,
    side: SideSpec,
    abort: Arc<AtomicBool>,
    log: Option<Log>,
    /// Who this is in the log, e.g. `game 3 A (pbrain-foo)`.
    label: String,
    process: Option<Process>,
    /// Moves of the current game the engine has been told about or played.
    synced: usize,
    /// When the engine last gave its move, for `settle=`.
    moved_at: Option<Instant>,
}

impl External {
    pub fn new(
        command: Vec<String>,
        side: SideSpec,
        abort: Arc<AtomicBool>,
        log: Option<Log>,
        label: String,
    ) -> External {
        External {
            command,
            side,
            abort,
            log,
            label,
            process: None,
            synced: 0,
            moved_at: None,
        }
    }

    fn spawn(&self) -> Result<Process, Fault> {
        let mut command = Command::new(&self.command[0]);
        command
            .args(&self.command[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // A process group of its own: Ctrl-C in the terminal signals the manager alone, which
        // then ends the engine itself, instead of killing it mid-game (a "crash" scored).
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        #[cfg(target_os = "linux")]
        end_with_the_manager(&mut command);
        let mut child = command
            .spawn()
            .map_err(|e| Fault::CannotStart(format!("{}: {e}", self.command[0])))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        // Bounded: an engine that floods its output while nobody reads it (between moves)
        // waits on its pipe instead of growing the manager's memory without limit.
        let (tx, lines) = sync_channel(OUTPUT_BACKLOG);
        std::thread::spawn(move || read_lines(BufReader::new(stdout), |l| tx.send(l).is_ok()));
        // The error output is read as it comes (an engine never waits on it), logged, and
        // its last lines kept: a crash's reason is often there.
        let stderr = Arc::new(Mutex::new(ErrorOutput::default()));
        let (kept, log, label) = (stderr.clone(), self.log.clone(), self.label.clone());
        std::thread::spawn(move || {
            let mut logged = 0;
            read_lines(BufReader::new(stderr_pipe), |l| {
                // A chatty engine must not fill the disk over a long match.
                logged += 1;
                if logged <= STDERR_LOGGED {
                    log_line(&log, &format!("{label} stderr: {}", l.text));
                } else if logged == STDERR_LOGGED + 1 {
                    log_line(&log, &format!("{label} stderr: (more lines not logged)"));
                }
                let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                if kept.last.len() == STDERR_KEPT {
                    kept.last.pop_front();
                }
                kept.last.push_back(excerpt(&l));
                true
            });
            kept.lock().unwrap_or_else(|e| e.into_inner()).closed = true;
        });
        Ok(Process {
            child,
            stdin,
            lines,
            stderr,
        })
    }

    fn send(&mut self, lines: &[String]) -> Result<(), Fault> {
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| Fault::Crashed("not running".into()))?;
        let mut text = lines.join("\n");
        text.push('\n');
        let written = process
            .stdin
            .write_all(text.as_bytes())
            .and_then(|_| process.stdin.flush());
        written.map_err(|_| self.exited())
    }

    /// The fault of an engine whose pipes closed: its exit status if it is known, and the
    /// last lines of its error output.
    fn exited(&mut self) -> Fault {
        let Some(p) = self.process.as_mut() else {
            return Fault::Crashed("not running".into());
        };
        // Give a dying process a moment to be reaped, so the status is the real one, and
        // its error output a moment to be read to the end.
        let mut status = None;
        for _ in 0..20 {
            if status.is_none() {
                status = p.child.try_wait().ok().flatten();
            }
            let closed = p.stderr.lock().unwrap_or_else(|e| e.into_inner()).closed;
            if status.is_some() && closed {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let mut why = match status {
            Some(s) => format!("exited, {s}"),
            None => "closed its output".to_string(),
        };
        let said = p.stderr.lock().unwrap_or_else(|e| e.into_inner());
        if !said.last.is_empty() {
            let lines: Vec<&str> = said.last.iter().map(String::as_str).collect();
            why.push_str(&format!(
                "; its error output ended \"{}\"",
                lines.join(" / ")
            ));
        }
        Fault::Crashed(why)
    }

    /// Drops what the engine printed unasked since its last reply (a second move line
    /// would be read as the reply to the next command), logging it.
    fn drop_unread(&mut self) {
        let Some(process) = self.process.as_ref() else {
            return;
        };
        while let Ok(line) = process.lines.try_recv() {
            if line_kind(&line.text, false) != LineKind::Ignored {
                log_line(
                    &self.log,
                    &format!("{}: {} (not asked for; dropped)", self.label, line.text),
                );
            }
        }
    }

    /// Waits for the first reply line that is not `MESSAGE`/`DEBUG` (and, unless `strict`,
    /// not `ERROR`/`UNKNOWN`, which are logged, and quoted if the wait runs out: engines
    /// report a bad `INFO` that way, and an unsupported command too).
    fn reply(&mut self, started: Instant, limit: Duration, strict: bool) -> Result<Line, Fault> {
        let mut complaint = None;
        loop {
            if self.abort.load(Ordering::Relaxed) {
                return Err(Fault::Aborted);
            }
            let waited = started.elapsed();
            if waited > limit {
                return Err(Fault::TimedOut(limit, complaint));
            }
            let process = self
                .process
                .as_ref()
                .ok_or_else(|| Fault::Crashed("not running".into()))?;
            let line = match process.lines.recv_timeout((limit - waited).min(ABORT_POLL)) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            };
            match line_kind(&line.text, strict) {
                LineKind::Ignored => {}
                LineKind::Message => log_line(&self.log, &format!("{}: {}", self.label, line.text)),
                LineKind::Complaint => {
                    log_line(&self.log, &format!("{}: {}", self.label, line.text));
                    complaint = Some(excerpt(&line));
                }
                LineKind::Reply => return Ok(line),
            }
        }
    }

    fn info_lines(&self, rule: Rule) -> Vec<String> {
        let ms = |d: Duration| d.as_millis();
        let turn = self.side.turn.or(self.side.game).map_or(0, ms);
        let mut lines = vec![
            format!("INFO timeout_turn {turn}"),
            format!("INFO timeout_match {}", self.side.game.map_or(0, ms)),
            format!("INFO max_memory {}", self.side.memory.unwrap_or(0)),
            "INFO game_type 1".to_string(),
            format!("INFO rule {}", rule_number(rule)),
        ];
        if let Some(t) = self.side.game {
            lines.push(format!("INFO time_left {}", t.as_millis()));
        }
        if let Some(n) = self.side.threads {
            lines.push(format!("INFO thread_num {n}"));
        }
        if let Some(n) = self.side.nodes {
            lines.push(format!("INFO max_node {n}"));
        }
        if let Some(d) = self.side.depth {
            lines.push(format!("INFO max_depth {d}"));
        }
        lines
    }
}

/// Has Linux kill the engine when the manager dies without ending it (`kill -9`, a crash):
/// otherwise an engine that does not stop when its input closes would run on for ever. The
/// signal comes when the thread that started the engine ends, and a match's threads outlive
/// their games' engines. Only the engine itself is signalled, not a wrapper script's children.
#[cfg(target_os = "linux")]
fn end_with_the_manager(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    let manager = std::process::id();
    // SAFETY: between fork and exec the closure only makes system calls that are
    // async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            // The manager died before the request took effect: do not start orphaned.
            if libc::getppid() as u32 != manager {
                return Err(std::io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

impl Competitor for External {
    fn start_game(&mut self, size: usize, rule: Rule) -> Result<(), Fault> {
        self.end_game();
        self.process = Some(self.spawn()?);
        self.synced = 0;
        self.moved_at = None;
        let started = Instant::now();
        self.send(&[format!("START {size}")])?;
        let wait = self.side.start_wait.unwrap_or(START_WAIT);
        let reply = match self.reply(started, wait, true) {
            Err(Fault::TimedOut(..)) => return Err(Fault::SlowStart(wait)),
            other => other?,
        };
        if reply.cut || !reply.text.trim().eq_ignore_ascii_case("OK") {
            return Err(Fault::StartRefused(format!(
                "to START {size} it said \"{}\"",
                excerpt(&reply)
            )));
        }
        let infos = self.info_lines(rule);
        self.send(&infos)
    }

    fn choose(&mut self, board: &Board, clock: &Clock) -> Result<Point, Fault> {
        let moves = board.moves();
        let mut lines = Vec::new();
        if let Some(left) = clock.game_left {
            lines.push(format!("INFO time_left {}", left.as_millis()));
        }
        if moves.is_empty() {
            lines.push("BEGIN".into());
        } else if self.synced > 0 && moves.len() == self.synced + 1 {
            lines.push(format!("TURN {}", moves[moves.len() - 1].to_gomocup()));
        } else {
            lines.push("BOARD".into());
            let own_parity = moves.len() % 2;
            for (i, p) in moves.iter().enumerate() {
                let field = if i % 2 == own_parity { 1 } else { 2 };
                lines.push(format!("{},{},{field}", p.x(), p.y()));
            }
            lines.push("DONE".into());
        }
        self.drop_unread();
        let started = Instant::now();
        self.send(&lines)?;
        let limit = clock.wait_limit.unwrap_or(Duration::MAX);
        let reply = self.reply(started, limit, false)?;
        let point = read_move(&reply, board.size())?;
        self.synced = moves.len() + 1;
        self.moved_at = Some(Instant::now());
        Ok(point)
    }

    /// Asks `ABOUT` (which every engine answers with a line) and reads what came before its
    /// answer: an `ERROR` naming the rule is the reply to `INFO rule`. An engine that does
    /// not answer within `ABOUT_WAIT` is given the benefit of the doubt.
    fn refused_rule(&mut self) -> Option<String> {
        if self.send(&["ABOUT".to_string()]).is_err() {
            return None;
        }
        let started = Instant::now();
        loop {
            let line = self.reply(started, ABOUT_WAIT, true).ok()?;
            let upper = line.text.to_ascii_uppercase();
            if !upper.starts_with("ERROR") {
                return None;
            }
            if upper.contains("RULE") || upper.contains("RENJU") || upper.contains("STANDARD") {
                return Some(excerpt(&line));
            }
        }
    }

    /// `END` is not held back: an engine that drops it is killed after `END_WAIT`.
    fn settle(&mut self) {
        let (Some(settle), Some(moved)) = (self.side.settle, self.moved_at) else {
            return;
        };
        while !self.abort.load(Ordering::Relaxed) {
            let left = settle.saturating_sub(moved.elapsed());
            if left.is_zero() {
                break;
            }
            std::thread::sleep(left.min(ABORT_POLL));
        }
    }

    fn end_game(&mut self) {
        if self.process.is_none() {
            return;
        }
        let _ = self.send(&["END".to_string()]);
        if let Some(mut process) = self.process.take() {
            let deadline = Instant::now() + END_WAIT;
            while Instant::now() < deadline {
                if let Ok(Some(_)) = process.child.try_wait() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
            // Dropping kills it if it is still there, and reaps it.
        }
    }
}

impl Drop for External {
    fn drop(&mut self) {
        self.end_game();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::tests::output;
    use proptest::collection::vec;
    use proptest::prelude::*;

    fn line(text: &str, cut: bool) -> Line {
        Line {
            text: text.to_string(),
            cut,
        }
    }

    /// A line cut at 64 KB was quoted as "(65536 bytes in all)", which it was not.
    #[test]
    fn garbage_is_shown_cut_short_with_its_length_or_its_cut() {
        let shown = |reply: Line| match read_move(&reply, 15) {
            Err(Fault::Garbage(shown)) => shown,
            other => panic!("{other:?}"),
        };
        let cut = shown(line(&"x".repeat(MAX_LINE), true));
        assert_eq!(cut, format!("{}... (cut at 64 KB)", "x".repeat(60)));
        let long = shown(line(&"x".repeat(100), false));
        assert_eq!(long, format!("{}... (100 bytes in all)", "x".repeat(60)));
        assert_eq!(shown(line("7,7,1", false)), "7,7,1");
        // A move followed by 64 KB of blanks and more: not the move.
        assert_eq!(shown(line("7,7", true)), "7,7... (cut at 64 KB)");
        assert_eq!(read_move(&line("7,7", false), 15), Ok(Point::new(7, 7)));
    }

    /// Numbers off every board are an illegal move, as `15,0` on a 15x15 board is, not
    /// garbage.
    #[test]
    fn a_move_off_every_board_is_illegal_not_garbage() {
        for (text, shown) in [("-1,0", "-1,0"), (" 30 , 0", "30,0")] {
            assert_eq!(
                read_move(&line(text, false), 15).unwrap_err().to_string(),
                format!("played an illegal move {shown}: not on the 15x15 board")
            );
        }
        for garbage in ["7;7", "-0,5"] {
            assert!(
                matches!(read_move(&line(garbage, false), 15), Err(Fault::Garbage(_))),
                "{garbage}"
            );
        }
        // An escape sequence in a quote would act on the terminal that prints it.
        assert_eq!(excerpt(&line("\u{1b}[2Jboom\u{7}", false)), "?[2Jboom?");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

        /// Whatever an engine prints, the manager reads it as it would in a game, waiting for
        /// a move (`ERROR` logged) or for the `OK` to `START` (`ERROR` is the reply): a reply
        /// is a move or a short garbage fault, never a panic; and a move the referee refuses
        /// (off the board, occupied) leaves the board as it was. (How the output becomes
        /// lines is `crate::lines`'s own property test.)
        #[test]
        fn no_engine_output_panics_the_manager_or_changes_the_board_on_a_refusal(
            bytes in output(),
            size in 5usize..=20,
            opening in vec((0usize..9, 0usize..9), 0..12),
        ) {
            let mut lines = Vec::new();
            read_lines(&bytes[..], |l| {
                lines.push(l);
                true
            });
            let mut board = Board::new(size, Rule::Renju).unwrap();
            for (x, y) in opening {
                let _ = board.try_play(Point::new(x, y));
            }
            for line in &lines {
                for strict in [false, true] {
                    if line_kind(&line.text, strict) != LineKind::Reply {
                        continue;
                    }
                    let point = match read_move(line, size) {
                        Ok(p) => p,
                        Err(fault) => {
                            prop_assert!(matches!(fault, Fault::Garbage(_) | Fault::OffBoard(_)));
                            prop_assert!(fault.to_string().len() < 200, "{}", fault);
                            continue;
                        }
                    };
                    let before = board.clone();
                    if board.try_play(point).is_err() {
                        prop_assert_eq!(board.moves(), before.moves());
                        prop_assert_eq!(board.hash(), before.hash());
                        prop_assert_eq!(board.result(), before.result());
                    }
                }
            }
        }
    }
}
