//! The engine thinking on a thread of its own: its own move, a hint, the analysis of the
//! position, or a review of the game. The engine moves to that thread and comes back with its
//! answer (its tables kept); what it reports meanwhile comes over a channel that
//! [`GomokuApp::poll`] reads, so the screen stays live.

use super::*;
use crate::analyze::{side_chance, verdict_text, Searcher};
use crate::review::in_play_limits;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, TryRecvError};
use std::sync::Arc;
use wuzi_gomoku::review::{summary, ReviewSpan};
use wuzi_gomoku::{Analysis, Info};

/// Why the engine is thinking.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Purpose {
    /// Its own move.
    Reply,
    /// A hint for the player.
    Hint,
    /// A review of the game's moves.
    Review,
    /// The analysis of the position for the side to move, with no time limit.
    Analysis,
}

pub(super) enum Report {
    /// A finished depth of the line of this rank (0: the best).
    Progress(usize, Progress),
    Done(Box<Engine>, Analysis),
    /// The review has graded the move of this number.
    Graded(usize),
    Reviewed(Box<Engine>, Result<Vec<ReviewedMove>, String>),
}

pub(super) struct Thinking {
    pub(super) purpose: Purpose,
    pub(super) stop: Arc<AtomicBool>,
    pub(super) reports: Receiver<Report>,
    /// Where the cursor was when the search started: the answer moves the cursor to its
    /// point only if the player has not moved it since.
    pub(super) cursor: (usize, usize),
}

impl GomokuApp {
    /// Takes what the engine reported since the last call; true when anything changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        loop {
            let Some(thinking) = &self.thinking else {
                return changed;
            };
            match thinking.reports.try_recv() {
                Ok(report) => {
                    self.take(report);
                    changed = true;
                }
                Err(TryRecvError::Empty) => return changed,
                Err(TryRecvError::Disconnected) => {
                    // The thread died without its engine: say so rather than hang.
                    self.thinking = None;
                    self.message = "The engine stopped unexpectedly.".into();
                    return true;
                }
            }
        }
    }

    /// Waits until the engine has answered, as a test needs.
    #[cfg(test)]
    pub fn wait(&mut self) {
        while let Some(thinking) = &self.thinking {
            match thinking.reports.recv() {
                Ok(report) => self.take(report),
                Err(_) => self.thinking = None,
            }
        }
    }

    fn take(&mut self, report: Report) {
        match report {
            Report::Progress(rank, progress) => {
                let analysis = self.thinking.as_ref().map(|t| t.purpose) == Some(Purpose::Analysis);
                if rank == 0 {
                    // The analysis marks its best move as it goes.
                    if analysis {
                        let first = progress.line.first();
                        self.hint = first.and_then(|m| parse_point(m, self.board.size()).ok());
                    }
                    self.progress = Some(progress.clone());
                }
                // Each depth tells its lines best first. A threat search's win is told once,
                // as rank 0, and the depths after it tell ranks 1 on: each report replaces
                // its rank's line and drops the older ones below it, which its depth tells
                // next.
                if analysis && self.lines_wanted > 1 && rank <= self.lines.len() {
                    self.lines.truncate(rank);
                    self.lines.push(progress);
                }
            }
            Report::Done(engine, analysis) => {
                let thinking = self.thinking.take();
                let purpose = thinking.as_ref().map(|t| t.purpose);
                // A cursor the player moved while the engine thought stays where it was put.
                let cursor_left_alone = thinking.is_some_and(|t| t.cursor == self.cursor);
                self.engine = Some(engine);
                match purpose {
                    Some(Purpose::Reply) => self.reply(&analysis, cursor_left_alone),
                    Some(Purpose::Hint) => {
                        if let Some(p) = analysis.best_move {
                            self.hint = Some(p);
                            if cursor_left_alone {
                                self.cursor = (p.x(), p.y());
                            }
                            let name = p.to_human(self.board.size());
                            let rule = self.board.rule();
                            let verdict = verdict_text(&analysis, rule, Searcher::Player);
                            self.message = format!("Hint: {name} ({verdict}).");
                        }
                    }
                    Some(Purpose::Analysis) => self.analysed(&analysis),
                    _ => {}
                }
            }
            Report::Graded(number) => {
                let last = self.board.moves().len();
                self.message = format!("Reviewing: move {number} of {last}...");
            }
            Report::Reviewed(engine, result) => {
                self.thinking = None;
                self.engine = Some(engine);
                self.message = match result {
                    Ok(moves) => {
                        let text = review_summary(&moves);
                        self.review = Some(moves);
                        self.reviewed = self.board.moves().to_vec();
                        text
                    }
                    Err(e) => format!("The review failed: {e}"),
                };
                if self.analysing && self.board.result().is_none() {
                    self.think(Purpose::Analysis);
                }
            }
        }
    }

    /// Plays the engine's move; the cursor goes to it unless the player moved the cursor
    /// while the engine thought.
    fn reply(&mut self, analysis: &Analysis, move_cursor: bool) {
        let Some(p) = analysis.best_move else {
            self.message = "wuzi has no legal move (every point is forbidden).".into();
            return;
        };
        let verdict = verdict_text(analysis, self.board.rule(), Searcher::Engine);
        let name = p.to_human(self.board.size());
        let note = self.last_move_note();
        match self.engine_mut().play(p) {
            Ok(()) => self.message = format!("{note}wuzi plays {name} ({verdict})."),
            Err(e) => self.message = format!("wuzi chose {name}, which is not legal: {e}"),
        }
        if move_cursor {
            self.cursor = (p.x(), p.y());
        }
        self.after_change();
    }

    /// The analysis ended by itself (its depth limit, or a proof): its choice stays marked.
    fn analysed(&mut self, analysis: &Analysis) {
        let Some(p) = analysis.best_move else {
            return;
        };
        self.hint = Some(p);
        let side = Searcher::Side(self.board.side_to_move());
        let verdict = verdict_text(analysis, self.board.rule(), side);
        let name = p.to_human(self.board.size());
        self.message = format!("Analysis: {name} ({verdict}), depth {}.", analysis.depth);
    }

    /// Stops a search in progress and waits for the engine to come back.
    pub(super) fn cancel_thinking(&mut self) {
        if let Some(thinking) = self.thinking.take() {
            thinking.stop.store(true, Ordering::Relaxed);
            for report in thinking.reports.iter() {
                match report {
                    Report::Done(engine, _) | Report::Reviewed(engine, _) => {
                        self.engine = Some(engine)
                    }
                    Report::Progress(..) | Report::Graded(_) => {}
                }
            }
            self.progress = None;
            self.lines.clear();
        }
    }

    /// The engine, back from any search. Should its thread have died with it, a new one
    /// takes over the position on the screen (losing only its tables).
    pub(super) fn engine_mut(&mut self) -> &mut Engine {
        self.cancel_thinking();
        let (board, options) = (&self.board, &self.options);
        self.engine
            .get_or_insert_with(|| Box::new(Engine::new(board.clone(), options.clone())))
    }

    pub(super) fn think(&mut self, purpose: Purpose) {
        self.engine_mut(); // home, or a new one
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        if !engine.has_legal_move() {
            self.engine = Some(engine);
            self.message = crate::analyze::NO_LEGAL_MOVE.into();
            return;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut limits = Limits {
            stop: Some(stop.clone()),
            ..self.limits.clone()
        };
        if purpose == Purpose::Analysis {
            // No clock: it thinks until the position changes (or a test's depth is reached).
            (limits.time, limits.target) = (None, None);
        }
        let (tx, reports) = channel();
        let size = engine.board().size();
        let (rule, side) = (engine.board().rule(), engine.board().side_to_move());
        let lines = match purpose {
            Purpose::Analysis => self.lines_wanted,
            _ => 1,
        };
        std::thread::spawn(move || {
            let report = |rank: usize, info: &Info| {
                let chance = side_chance(side, info.score, rule);
                let _ = tx.send(Report::Progress(
                    rank,
                    Progress {
                        depth: info.depth,
                        score: info.score.to_string(),
                        nodes: info.nodes,
                        chance,
                        line: info.pv.iter().map(|p| p.to_human(size)).collect(),
                    },
                ));
            };
            // One line is the engine's move as `go` finds it; more are the N best moves,
            // each depth ranking them (multi-PV).
            let analysis = engine
                .best_moves(lines, &limits, report, |_| {})
                .swap_remove(0);
            let _ = tx.send(Report::Done(engine, analysis));
        });
        self.progress = None;
        self.lines.clear();
        self.thinking = Some(Thinking {
            purpose,
            stop,
            reports,
            cursor: self.cursor,
        });
    }
}

impl GomokuApp {
    /// Grades every move of the game (a loaded record's too, after its opening stones), a
    /// position at a time on the engine's thread, with a quarter of a move's time for each
    /// (250 ms at the default second a move; a position whose proven win was let go is
    /// searched again with four times that, as `wuzi review` does).
    pub(super) fn review_game(&mut self) {
        let Some(span) = ReviewSpan::in_play(&self.board, self.opening_now()) else {
            return;
        };
        self.engine_mut();
        let Some(mut engine) = self.engine.take() else {
            return;
        };
        let stop = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            stop: Some(stop.clone()),
            ..in_play_limits(&self.limits)
        };
        let (tx, reports) = channel();
        std::thread::spawn(move || {
            // The engine comes back on the game's position.
            let result = span.review(&mut engine, &limits, None, |m| {
                let _ = tx.send(Report::Graded(m.number));
            });
            let _ = tx.send(Report::Reviewed(engine, result));
        });
        self.message = "Reviewing the game...".into();
        self.progress = None;
        self.thinking = Some(Thinking {
            purpose: Purpose::Review,
            stop,
            reports,
            cursor: self.cursor,
        });
    }
}

/// A review in one line for the panel: each side's inaccuracies, mistakes and blunders.
fn review_summary(moves: &[ReviewedMove]) -> String {
    let side = |p: Player| {
        let s = summary(moves, p);
        format!(
            "{} {}?! {}? {}??",
            colour_name(p),
            s.inaccuracies,
            s.mistakes,
            s.blunders
        )
    };
    format!("Review: {}, {}.", side(Player::First), side(Player::Second))
}
