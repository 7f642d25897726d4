//! Runs every quintet puzzle (renju VCF/VCT, tests/data/quintet) through the threat solver
//! and reports what it solves within 1 s and 10 s:
//! `cargo run --release -p wuzi-gomoku --example quintet_report`.

use serde_json::Value;
use std::time::{Duration, Instant};
use wuzi_gomoku::{parse_point, Board, Player, Rule, ThreatKind, ThreatLimits, ThreatSolver};

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

fn main() {
    let data = include_str!("../tests/data/quintet/puzzles.jsonl");
    let limit_secs: Vec<u64> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let limit_secs = if limit_secs.is_empty() {
        vec![1, 10]
    } else {
        limit_secs
    };
    for mode in ["vcf", "vct"] {
        for &secs in &limit_secs {
            let (mut proven, mut solved, mut wrong, mut total_ms) = (0, 0, 0, 0u128);
            for line in data.lines() {
                let puzzle: Value = serde_json::from_str(line).unwrap();
                if puzzle["mode"] != mode {
                    continue;
                }
                let kind = if mode == "vcf" {
                    ThreatKind::Vcf
                } else {
                    ThreatKind::Vct
                };
                let mut board = board_of(&puzzle);
                let start = Instant::now();
                let win = ThreatSolver::new(64 << 20).solve(
                    &mut board,
                    kind,
                    &ThreatLimits {
                        max_attacks: puzzle["limit"].as_u64().unwrap().min(120) as u32,
                        nodes: None,
                        deadline: Some(start + Duration::from_secs(secs)),
                        stop: None,
                    },
                );
                let ms = start.elapsed().as_millis();
                let is_proven = puzzle["verdict"] == "proven";
                proven += is_proven as u32;
                match (&win, is_proven) {
                    (Some(_), true) => {
                        solved += 1;
                        total_ms += ms;
                    }
                    (Some(_), false) => wrong += 1,
                    _ => {}
                }
                if std::env::var_os("VERBOSE").is_some() {
                    println!(
                        "{} {}: {:?} in {ms} ms",
                        puzzle["id"],
                        puzzle["verdict"],
                        win.map(|w| w.plies)
                    );
                }
            }
            println!(
                "{mode}, {secs} s each: solved {solved} of {proven} proven cases (total {total_ms} ms on the solved ones); wins claimed on disproven cases: {wrong}"
            );
        }
    }
}
