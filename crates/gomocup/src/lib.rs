//! wuzi-gomocup: the Gomocup ("piskvork") engine protocol, so that match managers
//! (Piskvork, c-gomoku-cli, GomocupJudge) and GUIs (Yixin-Board) can load wuzi as
//! `pbrain-wuzi`.
//!
//! - [`command`]: one line as a command (parsing only).
//! - [`session`]: the game and settings, and what each command does to them.
//! - [`manager`]: the other end: the match manager behind `wuzi match`.
//! - [`run`]: the loop. A reader thread feeds every input line into a channel; searches run
//!   on a worker thread. While one runs, `STOP`/`YXSTOP` stop it (it answers with its best
//!   move so far), `END` stops it and exits, and every other line waits in order until the
//!   reply is out, so nothing is dropped.
//!
//! Progress goes out as `MESSAGE depth D score S nodes N nps R time T pv X,Y X,Y ...` after
//! every completed depth, S being a number from the engine's view or `win-in-N` /
//! `loss-in-N` when proven.

pub mod command;
mod lines;
pub mod manager;
pub mod session;

pub use lines::printable;
use lines::Line;
use session::{score_text, Job, Session, Think};
use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
use wuzi_gomoku::{Analysis, Board, Engine, Info};
use wuzi_search::Limits;

enum Event {
    /// A line, and when it arrived: a reply's time counts from there (see [`start`]).
    Line(Line, Instant),
    Eof,
    Done(Box<Engine>, Job, Vec<Analysis>),
}

type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// Writes `lines` and flushes; false when the output is gone (the manager has closed it or
/// died), which nothing can be told of, so the error goes no further.
fn send(out: &Out, lines: &[String]) -> bool {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let mut written = true;
    for line in lines {
        // A reply may quote the input.
        let line = lines::printable(line);
        written &= writeln!(w, "{line}").is_ok();
    }
    written & w.flush().is_ok()
}

fn message(info: &Info) -> String {
    let millis = info.elapsed.as_millis();
    let pv: Vec<String> = info
        .pv
        .iter()
        .map(|p| format!("{},{}", p.x(), p.y()))
        .collect();
    let score = match info.score.forced() {
        Some(wuzi_search::Forced::Win(n)) => format!("win-in-{n}"),
        Some(wuzi_search::Forced::Loss(n)) => format!("loss-in-{n}"),
        None => info.score.value().to_string(),
    };
    format!(
        "MESSAGE depth {} score {score} nodes {} nps {} time {millis} pv {}",
        info.depth,
        info.nodes,
        info.nodes as u128 * 1000 / millis.max(1),
        pv.join(" ")
    )
}

/// Sends a search's report; a manager that crashed (or a GUI closed) takes its end of the
/// pipe with it, and then the search is stopped rather than keep a core busy for the rest of
/// a long turn.
fn report_or_stop(out: &Out, line: String, limits: &Limits) {
    if !send(out, &[line]) {
        if let Some(stop) = &limits.stop {
            stop.store(true, Ordering::Relaxed);
        }
    }
}

/// Runs a job to its end on the engine (the worker thread's body).
fn run_job(engine: &mut Engine, job: &Job, limits: &Limits, out: &Out) -> Vec<Analysis> {
    let mut report = |info: &Info| report_or_stop(out, message(info), limits);
    match job {
        Job::Move => vec![engine.go(limits, &mut report)],
        Job::NBest(n) => {
            engine.best_moves(
                *n,
                limits,
                // The best line's progress only: a GUI takes the last message for the
                // engine's line, and each depth tells the lines best first.
                |rank, info| {
                    if rank == 0 {
                        report(info)
                    }
                },
                // The lines are told once the search is over, with their moves.
                |_| {},
            )
        }
        Job::Swap2(_) => {
            let first = engine.go(limits, &mut report);
            let mut results = vec![first];
            if let Some(mv) = results[0].best_move {
                if engine.play(mv).is_ok() {
                    let reply = engine.go(limits, &mut report);
                    engine.undo();
                    results.push(reply);
                }
            }
            results
        }
    }
}

/// Speaks the protocol on `input`/`output` until `END` or the end of the input.
pub fn run(input: impl BufRead + Send + 'static, output: impl Write + Send + 'static) {
    let out: Out = Arc::new(Mutex::new(Box::new(output)));
    let (tx, rx) = channel::<Event>();
    spawn_reader(input, tx.clone());
    std::thread::spawn(warm_up);
    let mut session = Session::default();
    let mut queue: VecDeque<(Line, Instant)> = VecDeque::new();
    // The search running: its stop flag, its thread, and when its request arrived.
    let mut running: Option<(Arc<AtomicBool>, JoinHandle<()>, Instant)> = None;
    let mut ending = false;
    loop {
        // Lines that arrived during a search are handled, in order, once it is over.
        let event = if running.is_none() && !queue.is_empty() {
            let (line, arrived) = queue.pop_front().expect("not empty");
            Event::Line(line, arrived)
        } else {
            match rx.recv() {
                Ok(e) => e,
                Err(_) => break,
            }
        };
        match event {
            // Queued whole even when it starts with STOP or END: it gets its ERROR in turn.
            Event::Line(line, arrived) if running.is_some() && line.cut => {
                queue.push_back((line, arrived))
            }
            Event::Line(line, arrived) if running.is_some() => {
                let word = line
                    .text
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_ascii_uppercase();
                let (stop, _, _) = running.as_ref().expect("running");
                match word.as_str() {
                    "STOP" | "YXSTOP" => stop.store(true, Ordering::Relaxed),
                    "END" => {
                        stop.store(true, Ordering::Relaxed);
                        ending = true;
                    }
                    _ => queue.push_back((line, arrived)),
                }
            }
            Event::Line(line, _) if line.cut => {
                let refusal = refuse_cut(&line.text);
                // Inside a block it was a stone line: the block is refused at its DONE.
                session.refuse_block_line(refusal.trim_start_matches("ERROR "));
                send(&out, &[refusal]);
            }
            Event::Line(line, arrived) => {
                let outcome = session.handle_line(&line.text);
                send(&out, &outcome.replies);
                if outcome.end {
                    break;
                }
                if let Some(think) = outcome.think {
                    running = start(&mut session, think, arrived, &tx, &out)
                        .map(|(stop, worker)| (stop, worker, arrived));
                }
            }
            // The input is over: finish what was asked, then stop.
            Event::Eof => {
                if running.is_none() && queue.is_empty() {
                    break;
                }
                let end = Line {
                    text: "END".into(),
                    cut: false,
                };
                queue.push_back((end, Instant::now()));
            }
            Event::Done(engine, job, results) => {
                if let Some((_, worker, arrived)) = running.take() {
                    let _ = worker.join();
                    session.spend(arrived.elapsed());
                }
                session.give_engine(*engine);
                if ending {
                    break;
                }
                let replies = session.finish(&job, &results);
                send(&out, &replies);
            }
        }
    }
}

/// Makes what engines of every rule share and otherwise make on first use (the line-shape
/// tables, the embedded weights: 15-20 ms for renju), so that a manager's `INFO rule`
/// just before its first `TURN` costs that move nothing.
fn warm_up() {
    for rule in wuzi_gomoku::Rule::ALL {
        if let Ok(board) = Board::new(15, rule) {
            let options = wuzi_gomoku::EngineOptions {
                table_bytes: 0,
                ..wuzi_gomoku::EngineOptions::default()
            };
            drop(Engine::new(board, options));
        }
    }
}

/// Feeds the input's lines to the loop (see [`lines::read_lines`]: a manager's `INFO folder`
/// path in a Windows code page is read, not taken for the end of the input, and a line that
/// never ends cannot grow the engine's memory without limit).
fn spawn_reader(input: impl BufRead + Send + 'static, tx: Sender<Event>) {
    std::thread::spawn(move || {
        lines::read_lines(input, |line| {
            tx.send(Event::Line(line, Instant::now())).is_ok()
        });
        let _ = tx.send(Event::Eof);
    });
}

/// The reply to a line longer than [`lines::MAX_LINE`]: no command is that long, and what is
/// left of it after the cut might read as another (an `INFO folder` with half its path), so
/// it is refused whole, naming its start; the game is untouched.
fn refuse_cut(text: &str) -> String {
    let start: String = text.chars().take(40).collect();
    format!(
        "ERROR a line longer than {} KB is ignored (it began \"{start}\")",
        lines::MAX_LINE / 1024
    )
}

/// Starts a search on a worker thread, lending it the engine. The time since the request
/// `arrived` is taken off the search's: the protocol's turn time runs from the request to the
/// reply, and the lines before it (an `INFO max_memory` that sizes a new table, a rule that
/// starts a new game) may have kept the loop busy meanwhile.
fn start(
    session: &mut Session,
    think: Think,
    arrived: Instant,
    tx: &Sender<Event>,
    out: &Out,
) -> Option<(Arc<AtomicBool>, JoinHandle<()>)> {
    let Some(mut engine) = session.take_engine() else {
        send(out, &["ERROR no game: send START first".to_string()]);
        return None;
    };
    let stop = Arc::new(AtomicBool::new(false));
    let mut limits = think.limits;
    limits.stop = Some(stop.clone());
    take_off_waited(&mut limits, arrived.elapsed());
    let (tx, out) = (tx.clone(), out.clone());
    let job = think.job;
    let worker = std::thread::spawn(move || {
        let results = work(&mut engine, &job, &limits, &out);
        let _ = tx.send(Event::Done(Box::new(engine), job, results));
    });
    Some((stop, worker))
}

/// Takes `waited` off a search's time limit and target, leaving at least a millisecond.
fn take_off_waited(limits: &mut Limits, waited: Duration) {
    let left = |t: Duration| t.saturating_sub(waited).max(Duration::from_millis(1));
    limits.time = limits.time.map(left);
    limits.target = limits.target.map(left);
}

/// The worker thread's body: the search a job needs (shared with the session's tests, which
/// run it in place of the loop).
fn work(engine: &mut Engine, job: &Job, limits: &Limits, out: &Out) -> Vec<Analysis> {
    if let Job::Swap2(0) = job {
        swap2_openings(engine, limits, out)
    } else {
        run_job(engine, job, limits, out)
    }
}

/// Swap2 with an empty board: rates each candidate opening (White to move) with an equal
/// share of the time; `Session::finish` proposes the one closest to even (the results are
/// in the order of [`session::swap2_openings`], one for each).
fn swap2_openings(engine: &mut Engine, limits: &Limits, out: &Out) -> Vec<Analysis> {
    let board: Board = engine.board().clone();
    let shapes = session::swap2_openings(board.size());
    let mut each = limits.clone();
    each.time = limits.time.map(|t| t / shapes.len() as u32);
    each.target = limits.target.map(|t| t / shapes.len() as u32);
    let mut results = Vec::new();
    for stones in shapes {
        let mut opening = board.clone();
        for &p in &stones {
            opening
                .try_play(p)
                .expect("three distinct points of an empty board, no five");
        }
        engine.set_board(opening);
        let a = engine.go(&each, |_| {});
        report_or_stop(
            out,
            format!(
                "MESSAGE swap2 opening {} score {} for white",
                stones.map(|p| format!("{},{}", p.x(), p.y())).join(" "),
                score_text(&a)
            ),
            limits,
        );
        results.push(a);
    }
    engine.set_board(board);
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_time_a_request_waited_is_taken_off_its_search() {
        let ms = Duration::from_millis;
        let mut limits = Limits {
            time: Some(ms(300)),
            target: Some(ms(150)),
            nodes: Some(1000),
            ..Limits::default()
        };
        take_off_waited(&mut limits, ms(120));
        assert_eq!((limits.time, limits.target), (Some(ms(180)), Some(ms(30))));
        take_off_waited(&mut limits, ms(500));
        assert_eq!((limits.time, limits.target), (Some(ms(1)), Some(ms(1))));
        assert_eq!(limits.nodes, Some(1000), "other limits stay");
        let mut unlimited = Limits::default();
        take_off_waited(&mut unlimited, ms(500));
        assert_eq!((unlimited.time, unlimited.target), (None, None));
    }

    /// An output the test can read after `run` returns.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn replies(input: &[u8]) -> Vec<String> {
        let out = Shared::default();
        run(std::io::Cursor::new(input.to_vec()), out.clone());
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(String::from).collect()
    }

    /// The output of a manager that has gone away.
    struct Closed;

    impl Write for Closed {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
    }

    /// A GUI that crashed closes both pipes; the engine used to finish the turn it was
    /// given (half an hour at Yixin-Board's top level) on a core nobody would read from.
    #[test]
    fn a_search_stops_when_its_output_is_gone() {
        let input = "START 15\nINFO timeout_turn 600000\nBEGIN\n";
        let started = Instant::now();
        run(std::io::Cursor::new(input.as_bytes().to_vec()), Closed);
        // Its first completed depth cannot be told, so it stops there, in milliseconds; a
        // minute is a margin any machine keeps, against the ten-minute turn.
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{:?}",
            started.elapsed()
        );
    }

    fn refuses_a_long_line(reply: &str) -> bool {
        reply.starts_with("ERROR a line longer than 64 KB is ignored")
    }

    /// A line longer than 64 KB was cut and handled like any other: an `INFO folder` with half
    /// its path was taken. Now it is refused whole, inside a board block too, and the session
    /// goes on.
    #[test]
    fn a_line_too_long_is_refused_whole() {
        let long_info = format!("INFO folder C:\\{}", "x".repeat(lines::MAX_LINE));
        let long_stone = format!("7,7,1{}", " ".repeat(lines::MAX_LINE));
        let input =
            format!("START 15\nINFO timeout_turn 300\n{long_info}\nABOUT\nBOARD\n{long_stone}\n8,8,2\nDONE\n");
        // No END: one arriving during the search would stop it and end the session, answered
        // or not as the machine's load has it; the end of the input waits for the move. The
        // search's progress (a MESSAGE per completed depth) is left out.
        let lines: Vec<String> = replies(input.as_bytes())
            .into_iter()
            .filter(|l| !l.starts_with("MESSAGE"))
            .collect();
        assert_eq!(lines.len(), 5, "{lines:?}");
        assert_eq!(lines[0], "OK");
        assert_eq!(
            lines[1],
            "ERROR a line longer than 64 KB is ignored (it began \"INFO folder C:\\xxxxxxxxxxxxxxxxxxxxxxxxx\")"
        );
        assert!(lines[2].starts_with("name="), "{lines:?}");
        assert!(refuses_a_long_line(&lines[3]), "{lines:?}");
        // Inside the block it stood for a stone: without it the position is not the
        // manager's, so the block is refused (a move might land on that stone).
        assert!(
            lines[4].starts_with("ERROR the block is refused (a line longer than 64 KB"),
            "{lines:?}"
        );
    }

    /// An over-long line that starts with END, arriving while the engine thinks, used to stop
    /// the search and end the session; it is refused in turn like any other.
    #[test]
    fn a_line_too_long_is_refused_whole_while_thinking() {
        let long_end = format!("END {}", "x".repeat(lines::MAX_LINE));
        // No END of its own: the whole input arrives during the search, and a real END then
        // would end the session unanswered; the end of the input waits for the move instead.
        let input = format!("START 15\nINFO timeout_turn 300\nBEGIN\n{long_end}\nABOUT\n");
        let lines: Vec<String> = replies(input.as_bytes())
            .into_iter()
            .filter(|l| !l.starts_with("MESSAGE"))
            .collect();
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert_eq!(&lines[..2], ["OK", "7,7"], "{lines:?}");
        assert!(refuses_a_long_line(&lines[2]), "{lines:?}");
        assert!(lines[3].starts_with("name="), "{lines:?}");
    }

    /// A line that is not UTF-8 used to end the input (`lines()` stops at it), so the engine
    /// quit in the middle of a match.
    #[test]
    fn a_line_that_is_not_utf8_is_read_not_taken_for_the_end() {
        let lines = replies(b"ABOUT\r\nINFO folder C:\\J\xf6rg\r\nSTART 15\r\nHELLO \xff\nEND\n");
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines[0].starts_with("name="));
        assert_eq!(lines[1], "OK");
        assert!(
            lines[2].starts_with("UNKNOWN command \"HELLO\""),
            "{lines:?}"
        );
    }
}
