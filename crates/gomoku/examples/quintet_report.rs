//! Runs the quintet puzzles (renju VCF/VCT, tests/data/quintet) through the threat solver:
//! each VCF case with its time, then every VCT case within each deadline (1 s and 10 s by
//! default, or the seconds given as arguments), counting the proven cases solved and any
//! win claimed on a disproven case.
//!
//! `cargo run --release -p wuzi-gomoku --example quintet_report [-- SECONDS...]`; set
//! `VERBOSE=1` for one line per case, `ONLY=text` to run only the cases whose id has `text`,
//! `QUIET=off` to search fours and open threes only (without the puzzle's quiet threats);
//! `SEARCH=proof` to search by proof numbers instead of by iterative deepening.
//!
//! The search is deterministic and gives up only at its deadline, so a case it finished
//! (solved or not) within a shorter deadline ends the same way within a longer one: only the
//! cases that ran out of time are run again with the next deadline.

use serde_json::Value;
use std::time::{Duration, Instant};
use wuzi_gomoku::{
    parse_point, Board, Player, Rule, ThreatKind, ThreatLimits, ThreatSolver, ThreatWin,
};

const TABLE_BYTES: usize = 64 << 20;

fn board_of(puzzle: &Value) -> Board {
    let points = |key: &str| -> Vec<_> {
        puzzle[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| parse_point(p.as_str().unwrap(), 15).unwrap())
            .collect()
    };
    let attacker = if puzzle["attacker"] == "black" {
        Player::First
    } else {
        Player::Second
    };
    Board::from_stones(
        15,
        Rule::Renju,
        &points("black"),
        &points("white"),
        Some(attacker),
    )
    .unwrap()
}

/// One solver run: the win, the time it took, the nodes, and whether the deadline cut it.
struct Run {
    win: Option<ThreatWin>,
    took: Duration,
    nodes: u64,
    timed_out: bool,
}

/// The puzzle's threat limit as the solver's quiet-threat limit (quintet's VCT counts a
/// quiet move as a threat when it prepares a VCF of that many moves), or 0 with
/// `QUIET=off`.
fn quiet_vcf(puzzle: &Value) -> u32 {
    if std::env::var("QUIET").is_ok_and(|v| v == "off") {
        return 0;
    }
    puzzle["threat_limit"].as_u64().unwrap_or(0) as u32
}

fn run(puzzle: &Value, kind: ThreatKind, deadline: Option<Duration>) -> Run {
    let mut board = board_of(puzzle);
    let mut solver = ThreatSolver::new(TABLE_BYTES);
    let start = Instant::now();
    let search = if std::env::var("SEARCH").is_ok_and(|v| v == "proof") {
        ThreatSolver::prove
    } else {
        ThreatSolver::solve
    };
    let win = search(
        &mut solver,
        &mut board,
        kind,
        &ThreatLimits {
            max_attacks: puzzle["limit"].as_u64().unwrap() as u32,
            nodes: None,
            deadline: deadline.map(|d| start + d),
            stop: None,
            quiet_vcf: quiet_vcf(puzzle),
        },
    );
    let took = start.elapsed();
    Run {
        timed_out: win.is_none() && deadline.is_some_and(|d| took >= d),
        win,
        took,
        nodes: solver.nodes(),
    }
}

fn main() {
    let verbose = std::env::var_os("VERBOSE").is_some();
    let only = std::env::var("ONLY").unwrap_or_default();
    let mut deadlines: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("seconds"))
        .collect();
    if deadlines.is_empty() {
        deadlines = vec![1, 10];
    }
    deadlines.sort_unstable();
    let puzzles: Vec<Value> = include_str!("../tests/data/quintet/puzzles.jsonl")
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|p| p["id"].as_str().unwrap().contains(only.as_str()))
        .collect();
    let started = Instant::now();

    println!("VCF (no deadline):");
    for puzzle in puzzles.iter().filter(|p| p["mode"] == "vcf") {
        let r = run(puzzle, ThreatKind::Vcf, None);
        println!(
            "  {:<18} {:<10} limit {:>3}: {:<16} {:>8.1} ms {:>8} nodes",
            puzzle["id"].as_str().unwrap(),
            puzzle["verdict"].as_str().unwrap(),
            puzzle["limit"].as_u64().unwrap(),
            r.win
                .as_ref()
                .map_or("no win".to_string(), |w| format!("win, {} plies", w.plies)),
            r.took.as_secs_f64() * 1000.0,
            r.nodes
        );
    }

    let vct: Vec<&Value> = puzzles.iter().filter(|p| p["mode"] == "vct").collect();
    let proven = vct.iter().filter(|p| p["verdict"] == "proven").count();
    // Per case: the last run, or none yet.
    let mut last: Vec<Option<Run>> = vct.iter().map(|_| None).collect();
    println!("VCT ({} cases, {proven} proven):", vct.len());
    for &secs in &deadlines {
        let (mut solved, mut wrong, mut rerun) = (0, 0, 0);
        for (puzzle, slot) in vct.iter().zip(last.iter_mut()) {
            if slot.as_ref().is_none_or(|r| r.timed_out) {
                *slot = Some(run(
                    puzzle,
                    ThreatKind::Vct,
                    Some(Duration::from_secs(secs)),
                ));
                rerun += 1;
                let r = slot.as_ref().unwrap();
                if verbose {
                    println!(
                        "    {secs:>3} s {:<28} {:<10} limit {:>3}: {:<16} {:>8.1} ms {:>9} nodes{}",
                        puzzle["id"].as_str().unwrap(),
                        puzzle["verdict"].as_str().unwrap(),
                        puzzle["limit"].as_u64().unwrap(),
                        r.win
                            .as_ref()
                            .map_or("no win".to_string(), |w| format!("win, {} plies", w.plies)),
                        r.took.as_secs_f64() * 1000.0,
                        r.nodes,
                        if r.timed_out { " (time out)" } else { "" }
                    );
                }
            }
            let r = slot.as_ref().unwrap();
            match (&r.win, puzzle["verdict"] == "proven") {
                (Some(_), true) => solved += 1,
                (Some(_), false) => wrong += 1,
                _ => {}
            }
        }
        println!(
            "  within {secs:>2} s each: solved {solved} of {proven} proven; wins claimed on \
             disproven cases: {wrong} ({rerun} cases run at this deadline)"
        );
    }
    println!("total time {:.1} s", started.elapsed().as_secs_f64());
}
