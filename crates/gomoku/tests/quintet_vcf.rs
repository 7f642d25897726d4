//! The public quintet puzzles (renju, tests/data/quintet): every proven VCF case is solved,
//! and no disproven case, VCF or VCT, is ever claimed as a win.

use serde_json::Value;
use std::time::{Duration, Instant};
use wuzi_gomoku::{parse_point, Board, Player, Rule, ThreatKind, ThreatLimits, ThreatSolver};

fn puzzles() -> Vec<Value> {
    include_str!("data/quintet/puzzles.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

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

fn kind(puzzle: &Value) -> ThreatKind {
    if puzzle["mode"] == "vcf" {
        ThreatKind::Vcf
    } else {
        ThreatKind::Vct
    }
}

/// Replays a winning line on the board: every move legal, and the game ends with the
/// attacker's win exactly where the line ends.
fn check_line(board: &Board, line: &[wuzi_gomoku::Point], id: &str) {
    let mut b = board.clone();
    let attacker = b.side_to_move();
    for (i, &p) in line.iter().enumerate() {
        assert!(b.result().is_none(), "{id}: the game ended before move {i}");
        b.try_play(p)
            .unwrap_or_else(|e| panic!("{id}: move {i}: {e}"));
    }
    if let Some(r) = b.result() {
        assert_eq!(r.winner, Some(attacker), "{id}");
    }
}

#[test]
fn solves_every_vcf_puzzle() {
    let cases: Vec<Value> = puzzles()
        .into_iter()
        .filter(|p| p["mode"] == "vcf")
        .collect();
    assert_eq!(cases.len(), 6);
    for puzzle in cases {
        let id = puzzle["id"].as_str().unwrap();
        let limit = puzzle["limit"].as_u64().unwrap().min(120) as u32;
        let mut board = board_of(&puzzle);
        let start = Instant::now();
        let win = ThreatSolver::new(16 << 20).solve(
            &mut board,
            ThreatKind::Vcf,
            &ThreatLimits {
                max_attacks: limit,
                ..ThreatLimits::default()
            },
        );
        let took = start.elapsed();
        if puzzle["verdict"] == "proven" {
            let win = win.unwrap_or_else(|| panic!("{id}: no VCF found within {limit}"));
            // Generous for a loaded machine; the README reports the measured times.
            assert!(took < Duration::from_secs(5), "{id}: {took:?}");
            check_line(&board, &win.line, id);
        } else {
            assert_eq!(win, None, "{id}: claimed a win the puzzle disproves");
        }
    }
}

#[test]
fn never_claims_a_disproven_win() {
    for puzzle in puzzles() {
        if puzzle["verdict"] != "disproven" {
            continue;
        }
        let id = puzzle["id"].as_str().unwrap();
        let mut board = board_of(&puzzle);
        let win = ThreatSolver::new(4 << 20).solve(
            &mut board,
            kind(&puzzle),
            &ThreatLimits {
                max_attacks: puzzle["limit"].as_u64().unwrap().min(120) as u32,
                nodes: Some(300_000),
                ..ThreatLimits::default()
            },
        );
        assert_eq!(win, None, "{id}: claimed a win the puzzle disproves");
    }
}

#[test]
fn every_vct_win_found_is_a_legal_line() {
    let mut solved = 0;
    for puzzle in puzzles() {
        if puzzle["verdict"] != "proven" || puzzle["mode"] != "vct" {
            continue;
        }
        let id = puzzle["id"].as_str().unwrap();
        let mut board = board_of(&puzzle);
        let win = ThreatSolver::new(4 << 20).solve(
            &mut board,
            ThreatKind::Vct,
            &ThreatLimits {
                max_attacks: puzzle["limit"].as_u64().unwrap().min(120) as u32,
                nodes: Some(100_000),
                ..ThreatLimits::default()
            },
        );
        if let Some(win) = win {
            solved += 1;
            check_line(&board, &win.line, id);
        }
    }
    // Node-limited, so the count is exact; the README reports the timed figures.
    eprintln!("{solved} VCT cases solved within 100,000 nodes each");
    assert!(solved > 0);
}
