//! The public quintet puzzles' VCF cases: every proven win is found within its limit (and
//! within a second), and no disproven case is ever claimed.

use serde_json::Value;
use std::time::{Duration, Instant};
use wuzi_gomoku::{parse_point, Board, Player, Rule, Vcf};

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

#[test]
fn solves_every_vcf_puzzle() {
    let cases: Vec<Value> = puzzles()
        .into_iter()
        .filter(|p| p["mode"] == "vcf")
        .collect();
    assert_eq!(cases.len(), 6);
    for puzzle in cases {
        let id = puzzle["id"].as_str().unwrap();
        let limit = puzzle["limit"].as_u64().unwrap() as u32;
        let mut board = board_of(&puzzle);
        let start = Instant::now();
        let win = Vcf::default().solve(&mut board, limit.min(40));
        let took = start.elapsed();
        if puzzle["verdict"] == "proven" {
            let win = win.unwrap_or_else(|| panic!("{id}: no VCF found within {limit}"));
            // Generous for a loaded machine; the README reports the measured times.
            assert!(took < Duration::from_secs(5), "{id}: {took:?}");
            let expected_attacks = puzzle["expect"].as_array().unwrap().len() as u32 / 2 + 1;
            assert!(
                win.plies <= 2 * expected_attacks + 1,
                "{id}: {} plies",
                win.plies
            );
        } else {
            assert_eq!(win, None, "{id}: claimed a win the puzzle disproves");
        }
    }
}
