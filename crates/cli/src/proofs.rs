//! `wuzi proofs`: every position of a record file searched again, and each proven win that
//! the game then contradicts listed. When a side proves a win and plays the proof's first
//! move, the win holds whatever the opponent answers: the side's next position must prove a
//! win too, and the game cannot end in its loss. When either fails, the first proof was
//! false (a move-generation bug can cut the opponent's real defence), or the second search
//! missed a win it could not finish in its budget; searching the listed position again with
//! more time tells the two apart.

use crate::analyze::{AnalysisJson, EngineArgs};
use crate::output::count;
use crate::record_file;
use clap::Args;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use wuzi_gomoku::record::GameRecord;
use wuzi_gomoku::{
    Analysis, Board, Engine, EngineOptions, Player, Point, ThreatKind, ThreatLimits, ThreatSearch,
    ThreatSolver,
};
use wuzi_search::{Forced, Limits, Outcome};

#[derive(Args, Debug)]
pub struct ProofsArgs {
    /// A record file (`.sgf` as `wuzi match --sgf` and c-gomoku-cli write, or `.psq`).
    pub file: String,
    /// Only the positions where the player of this name (the record's `PB`/`PW`, in any case)
    /// is to move.
    #[arg(long, value_name = "NAME")]
    pub player: Option<String>,
    /// Only game N of the file (1-based).
    #[arg(long, value_name = "N")]
    pub game: Option<usize>,
    /// Think this many milliseconds on each position (the default: 150).
    #[arg(long, value_name = "MS", value_parser = crate::arg_check::at_least_one::<u64>)]
    pub time: Option<u64>,
    /// Search this many nodes on each position instead: the same file gives the same list.
    #[arg(long, conflicts_with = "time", value_parser = crate::arg_check::at_least_one::<u64>)]
    pub nodes: Option<u64>,
    /// The rule of records that do not say (`RU`).
    #[arg(long, value_enum, ignore_case = true, default_value_t = crate::position::RuleArg::Freestyle)]
    pub rule: crate::position::RuleArg,
    /// The board size of records that do not say (`SZ`).
    #[arg(long, default_value_t = wuzi_gomoku::record::DEFAULT_SIZE)]
    pub size: usize,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Print one JSON object instead of the text (both come once every game is scanned).
    #[arg(long)]
    pub json: bool,
    /// Games searched at the same time, each on its own engine (the list is the same as
    /// with one; on a time budget keep it to the free cores).
    #[arg(long, default_value_t = 1, value_parser = crate::arg_check::at_least_one::<usize>)]
    pub concurrency: usize,
    /// Search each contradicted win's next position again with K times the budget, to tell
    /// a false proof (still no win) from one the first search ran out of budget for.
    #[arg(long, value_name = "K", value_parser = crate::arg_check::at_least_one::<usize>)]
    pub recheck: Option<usize>,
}

/// A proven win, its first move played, that the game then contradicts.
#[derive(Serialize, Debug)]
struct Suspect {
    /// The game's place in the file (1-based, what `--game` takes).
    game: usize,
    /// The position after this many moves proved the win (`wuzi analyze FILE --move N`).
    after_moves: usize,
    side: &'static str,
    plies: u32,
    /// The search of the same side's next position, two moves later; null when the game
    /// ended before it, in the side's loss.
    next: Option<AnalysisJson>,
    /// With `--recheck K`: the next position searched again with K times the budget.
    #[serde(skip_serializing_if = "Option::is_none")]
    recheck: Option<AnalysisJson>,
    /// With `--recheck K`, when that search still proves no win: the threat solver's win
    /// (VCT) in the next position, with the same budget, if it finds one.
    #[serde(skip_serializing_if = "Option::is_none")]
    threat_win: Option<ThreatWinJson>,
}

/// A win by threats alone, as `wuzi threats` finds it.
#[derive(Serialize, Debug)]
struct ThreatWinJson {
    plies: u32,
    line: Vec<String>,
}

impl Suspect {
    /// Whether the recheck found the win again, by the search or by the threat solver.
    fn found_again(&self) -> bool {
        self.threat_win.is_some()
            || self
                .recheck
                .as_ref()
                .is_some_and(|a| a.forced == Some("win"))
    }
}

#[derive(Serialize, Debug, Default)]
struct Report {
    positions: usize,
    proven_wins: usize,
    proven_losses: usize,
    suspects: Vec<Suspect>,
}

/// A side's last proven win: the moves played before it, its length and its first move.
#[derive(Clone, Copy)]
struct Win {
    after_moves: usize,
    plies: u32,
    first: Point,
}

pub fn proofs(args: &ProofsArgs) -> Result<String, String> {
    let defaults = wuzi_gomoku::record::RecordDefaults {
        rule: args.rule.into(),
        size: args.size,
    };
    let games = record_file::load_all(&args.file, defaults)?;
    let chosen: Vec<(usize, &GameRecord)> = match args.game {
        Some(n) => {
            record_file::check_game_number(&args.file, games.len(), n)?;
            vec![(n, &games[n - 1])]
        }
        None => games.iter().enumerate().map(|(i, g)| (i + 1, g)).collect(),
    };
    if let Some(name) = &args.player {
        if !chosen
            .iter()
            .any(|(_, g)| same_name(&g.black, name) || same_name(&g.white, name))
        {
            return Err(format!(
                "no game chosen from {} has a player named {name}",
                args.file
            ));
        }
    }
    let options = args.engine.options()?;
    let limits = Limits {
        depth: None,
        nodes: args.nodes,
        time: match args.nodes {
            Some(_) => None,
            None => Some(Duration::from_millis(args.time.unwrap_or(150))),
        },
        target: None,
        stop: None,
    };
    for (_, record) in &chosen {
        options.check_rule(record.rule)?;
    }
    let mut report = scan_games(&chosen, args, &options, &limits)?;
    if let Some(k) = args.recheck {
        recheck(
            &mut report,
            &games,
            k as u64,
            &options,
            &limits,
            args.concurrency,
        )?;
    }
    if args.json {
        return Ok(serde_json::to_string(&report).expect("serialisable"));
    }
    Ok(text(&report, args.recheck))
}

/// Scans the chosen games on `args.concurrency` threads, each taking the next game not yet
/// taken, and adds their reports up in the games' order (so that with `--nodes` the list does
/// not depend on the threads). A game that cannot be replayed stops the others taking more.
fn scan_games(
    chosen: &[(usize, &GameRecord)],
    args: &ProofsArgs,
    options: &EngineOptions,
    limits: &Limits,
) -> Result<Report, String> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let scan = || {
        let mut mine = Vec::new();
        while !failed.load(Ordering::Relaxed) {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(number, record)) = chosen.get(i) else {
                break;
            };
            let mut report = Report::default();
            let result = scan_game(record, number, args, options, limits, &mut report)
                .map(|()| report)
                .map_err(|e| format!("{} game {number}: {e}", args.file));
            failed.fetch_or(result.is_err(), Ordering::Relaxed);
            mine.push((i, result));
        }
        mine
    };
    let mut results: Vec<(usize, Result<Report, String>)> = std::thread::scope(|scope| {
        let threads: Vec<_> = (0..args.concurrency.min(chosen.len()))
            .map(|_| scope.spawn(scan))
            .collect();
        threads
            .into_iter()
            .flat_map(|t| t.join().expect("a proofs thread panicked"))
            .collect()
    });
    // Games are taken in order, so an earlier game's error comes first, as on one thread.
    results.sort_by_key(|&(i, _)| i);
    let mut total = Report::default();
    for (_, report) in results {
        let report = report?;
        total.positions += report.positions;
        total.proven_wins += report.proven_wins;
        total.proven_losses += report.proven_losses;
        total.suspects.extend(report.suspects);
    }
    Ok(total)
}

/// Searches each suspect's next position (two moves after its proof, in `games`, the file's
/// records) again with `factor` times the budget, on up to `threads` threads, each with its
/// own engine and its share of the suspects (each search starts afresh, so the answers do not
/// depend on the threads).
fn recheck(
    report: &mut Report,
    games: &[GameRecord],
    factor: u64,
    options: &EngineOptions,
    limits: &Limits,
    threads: usize,
) -> Result<(), String> {
    let factor32 = u32::try_from(factor).unwrap_or(u32::MAX);
    let more = Limits {
        nodes: limits.nodes.map(|n| n.saturating_mul(factor)),
        time: limits
            .time
            .map(|t| t.checked_mul(factor32).unwrap_or(Duration::MAX)),
        ..limits.clone()
    };
    let mut todo: Vec<&mut Suspect> = report
        .suspects
        .iter_mut()
        .filter(|s| s.next.is_some())
        .collect();
    let share = todo.len().div_ceil(threads.max(1)).max(1);
    let recheck_share = |share: &mut [&mut Suspect]| -> Result<(), String> {
        let mut solver = ThreatSolver::new(THREAT_TABLE_BYTES);
        for s in share {
            let mut board = games[s.game - 1].position(s.after_moves + 2)?;
            s.recheck = search(&board, options, &more)
                .map(|a| AnalysisJson::new(&a, board.size(), board.rule()));
            if !s.found_again() {
                s.threat_win = threat_win(&mut solver, &mut board, &more);
            }
        }
        Ok(())
    };
    std::thread::scope(|scope| {
        let running: Vec<_> = todo
            .chunks_mut(share)
            .map(|share| scope.spawn(|| recheck_share(share)))
            .collect();
        // The scope joins any thread left after an error.
        running
            .into_iter()
            .try_for_each(|t| t.join().expect("a recheck thread panicked"))
    })
}

/// Searches the positions of one game where the chosen player is to move, from the first
/// move after the opening (the stones marked `C[opening move]`; from the first move when
/// none are), and notes each proven win the game contradicts.
fn scan_game(
    record: &GameRecord,
    number: usize,
    args: &ProofsArgs,
    options: &EngineOptions,
    limits: &Limits,
    report: &mut Report,
) -> Result<(), String> {
    let first = record.moves.iter().take_while(|m| m.is_opening()).count();
    let mut board = record.position(first)?;
    let mut wins: [Option<Win>; 2] = [None, None];
    for after_moves in first..=record.moves.len() {
        if after_moves > first {
            let m = &record.moves[after_moves - 1];
            board.try_play(m.point).map_err(|e| e.to_string())?;
        }
        if let Some(result) = board.result() {
            // A side whose proof was played and who lost before its next move was wrong.
            for side in [Player::First, Player::Second] {
                if result.outcome() == Outcome::Win(side.opponent()) {
                    if let Some(win) = played(wins[side.index()], record) {
                        report.suspects.push(suspect(number, side, win, None));
                    }
                }
            }
            break;
        }
        let side = board.side_to_move();
        if !wanted(args, record, side) {
            continue;
        }
        let Some(analysis) = search(&board, options, limits) else {
            continue;
        };
        report.positions += 1;
        let won = match analysis.forced() {
            Some(Forced::Win(plies)) => {
                report.proven_wins += 1;
                analysis.best_move.map(|first| Win {
                    after_moves,
                    plies,
                    first,
                })
            }
            Some(Forced::Loss(_)) => {
                report.proven_losses += 1;
                None
            }
            None => None,
        };
        if let Some(win) = played(wins[side.index()], record) {
            if win.after_moves + 2 == after_moves && won.is_none() {
                let next = AnalysisJson::new(&analysis, board.size(), board.rule());
                report.suspects.push(suspect(number, side, win, Some(next)));
            }
        }
        wins[side.index()] = won;
    }
    Ok(())
}

/// The win, if the game went on with its first move (another move may not win).
fn played(win: Option<Win>, record: &GameRecord) -> Option<Win> {
    win.filter(|w| record.moves.get(w.after_moves).map(|m| m.point) == Some(w.first))
}

fn wanted(args: &ProofsArgs, record: &GameRecord, side: Player) -> bool {
    let name = match side {
        Player::First => &record.black,
        Player::Second => &record.white,
    };
    match &args.player {
        Some(p) => same_name(p, name),
        None => true,
    }
}

/// Player names as a person types them: `--player Wuzi` finds `PB[wuzi]`.
fn same_name(a: &str, b: &str) -> bool {
    a.to_lowercase() == b.to_lowercase()
}

/// The threat solver's table for a recheck, as `wuzi threats` has by default.
const THREAT_TABLE_BYTES: usize = 64 << 20;

/// A second opinion where the deeper search still proves no win: the engine's search can
/// miss a long win by threats that the threat solver, given the whole budget, finds. The
/// side to move attacks (two moves after its proof, it is the proving side again).
fn threat_win(
    solver: &mut ThreatSolver,
    board: &mut Board,
    limits: &Limits,
) -> Option<ThreatWinJson> {
    if board.result().is_some() {
        return None;
    }
    let threat_limits = ThreatLimits {
        max_attacks: crate::threats::DEFAULT_ATTACKS,
        nodes: limits.nodes,
        deadline: limits.time.and_then(|t| Instant::now().checked_add(t)),
        ..ThreatLimits::default()
    };
    let attacker = board.side_to_move();
    let win = solver.search_for(
        board,
        attacker,
        ThreatSearch::Deepening,
        ThreatKind::Vct,
        &threat_limits,
    )?;
    Some(ThreatWinJson {
        plies: win.plies,
        line: win.line.iter().map(|p| p.to_human(board.size())).collect(),
    })
}

/// The engine's analysis of `board` (none when renju Black has no legal move).
fn search(board: &Board, options: &EngineOptions, limits: &Limits) -> Option<Analysis> {
    let mut engine = Engine::new(board.clone(), options.clone());
    if !engine.has_legal_move() {
        return None;
    }
    Some(engine.go(limits, |_| {}))
}

fn suspect(game: usize, side: Player, win: Win, next: Option<AnalysisJson>) -> Suspect {
    Suspect {
        game,
        after_moves: win.after_moves,
        side: crate::position::colour_name(side),
        plies: win.plies,
        next,
        recheck: None,
        threat_win: None,
    }
}

/// The report as lines: one a suspect, then the counts (`recheck`: the factor the suspects'
/// next positions were searched again with).
fn text(report: &Report, recheck: Option<usize>) -> String {
    let mut lines = Vec::new();
    for s in &report.suspects {
        let then = match &s.next {
            Some(next) => match (next.forced, next.plies) {
                (Some("loss"), Some(plies)) => format!(
                    "after {} moves it proves a loss in {plies} plies",
                    s.after_moves + 2
                ),
                _ => format!(
                    "after {} moves it proves no win (best {}, score {})",
                    s.after_moves + 2,
                    next.best_move.as_deref().unwrap_or("-"),
                    // "nearly won" rather than the bound's 999487.
                    wuzi_search::Score::from_value(next.score)
                ),
            },
            None => "the game ended in its loss: a false proof".to_string(),
        };
        let then = match (&s.recheck, recheck) {
            (Some(again), Some(k)) => match (again.forced, again.plies, &s.threat_win) {
                (Some("win"), Some(plies), _) => format!(
                    "{then}; with {k} times the budget it proves a win in {plies} plies: a \
                     missed proof, not a false one"
                ),
                (_, _, Some(threats)) => format!(
                    "{then}; with {k} times the budget it still proves no win, but the threat \
                     solver proves one in {} plies ({}): a missed proof, not a false one",
                    threats.plies,
                    threats.line.first().map_or("-", String::as_str)
                ),
                _ => format!(
                    "{then}; with {k} times the budget it still proves no win: a false proof, \
                     unless a larger budget finds it"
                ),
            },
            _ => then,
        };
        lines.push(format!(
            "game {}: after {} moves {} proves a win in {} plies and plays it; {then}",
            s.game, s.after_moves, s.side, s.plies
        ));
    }
    let mut summary = format!(
        "{} searched: {}, {}; {} contradicted",
        count(report.positions, "position"),
        count(report.proven_wins, "proven win"),
        count(report.proven_losses, "proven loss"),
        count(report.suspects.len(), "win"),
    );
    let found_again = report.suspects.iter().filter(|s| s.found_again()).count();
    if let (Some(k), false) = (recheck, report.suspects.is_empty()) {
        summary.push_str(&format!(
            ", {found_again} of them proven again with {k} times the budget"
        ));
    } else if !report.suspects.is_empty() {
        summary.push_str(
            " (search each listed position's next one again with more time: \
             a win still not proven means a false proof)",
        );
    }
    lines.push(summary);
    lines.join("\n")
}
