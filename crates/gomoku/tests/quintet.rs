//! The public quintet puzzles (renju, tests/data/quintet, see SOURCE.md there): every proven
//! VCF case is solved, in time and in as many attacker moves as the puzzle says; no
//! disproven case, VCF or VCT, is ever claimed as a win; and every win found is a legal line
//! whose first move may be played.

use serde_json::Value;
use std::time::{Duration, Instant};
use wuzi_gomoku::{
    parse_point, Board, Player, Point, Rule, ThreatKind, ThreatLimits, ThreatSolver, ThreatWin,
};

fn puzzles() -> Vec<Value> {
    include_str!("data/quintet/puzzles.jsonl")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

fn id(puzzle: &Value) -> &str {
    puzzle["id"].as_str().unwrap()
}

/// The position, with the attacker to move.
fn board_of(puzzle: &Value) -> Board {
    let points = |key: &str| -> Vec<Point> {
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

/// The puzzle's limit on attacker moves ("255" means any number).
fn limit(puzzle: &Value) -> u32 {
    puzzle["limit"].as_u64().unwrap() as u32
}

/// The puzzle's threat limit: a quiet move is a threat when it prepares a VCF of that many
/// moves (0 for the VCF puzzles).
fn threat_limit(puzzle: &Value) -> u32 {
    puzzle["threat_limit"].as_u64().unwrap_or(0) as u32
}

/// Attacker moves in a line, the five not counted (a line may instead end with the
/// forbidden block of a Black defender).
fn attacks(win: &ThreatWin) -> u32 {
    win.line.len() as u32 / 2
}

/// Replays a winning line: the first move is legal for the attacker (not forbidden), every
/// move is on an empty point before the game ends, and the game ends with the attacker's win
/// exactly at the end of the line, after `plies` moves.
fn check_line(board: &Board, win: &ThreatWin, id: &str) {
    let mut b = board.clone();
    let attacker = b.side_to_move();
    assert_eq!(
        b.foul(win.first()),
        None,
        "{id}: the first move is forbidden"
    );
    assert_eq!(win.plies as usize, win.line.len(), "{id}");
    for (i, &p) in win.line.iter().enumerate() {
        assert!(b.result().is_none(), "{id}: the game ended before move {i}");
        b.try_play(p)
            .unwrap_or_else(|e| panic!("{id}: move {i}: {e}"));
    }
    let result = b
        .result()
        .unwrap_or_else(|| panic!("{id}: the line ends in no win"));
    assert_eq!(result.winner, Some(attacker), "{id}: {result:?}");
}

#[test]
fn solves_every_vcf_puzzle() {
    let cases: Vec<Value> = puzzles()
        .into_iter()
        .filter(|p| p["mode"] == "vcf")
        .collect();
    assert_eq!(cases.len(), 6);
    for puzzle in &cases {
        let id = id(puzzle);
        let mut board = board_of(puzzle);
        let mut solver = ThreatSolver::new(16 << 20);
        let start = Instant::now();
        let win = solver.solve(
            &mut board,
            ThreatKind::Vcf,
            &ThreatLimits {
                max_attacks: limit(puzzle),
                ..ThreatLimits::default()
            },
        );
        let took = start.elapsed();
        eprintln!(
            "{id} ({}): {:?} plies in {took:?}, {} nodes",
            puzzle["verdict"].as_str().unwrap(),
            win.as_ref().map(|w| w.plies),
            solver.nodes()
        );
        // Generous for a loaded machine; the measured times are printed above.
        assert!(took < Duration::from_secs(5), "{id}: {took:?}");
        if puzzle["verdict"] == "proven" {
            let win = win.unwrap_or_else(|| panic!("{id}: no VCF found"));
            check_line(&board, &win, id);
            // A VCF is forced: quintet's line has the fewest attacker moves, and ours too.
            let expected = puzzle["expect"].as_array().unwrap().len() as u32 / 2 + 1;
            assert_eq!(attacks(&win), expected, "{id}: {:?}", win.line);
        } else {
            assert_eq!(win, None, "{id}: claimed a win the puzzle disproves");
        }
    }
}

#[test]
fn never_claims_a_disproven_win() {
    let mut checked = 0;
    for puzzle in puzzles() {
        if puzzle["verdict"] != "disproven" {
            continue;
        }
        let id = id(&puzzle);
        // With fours and open threes only, and with the puzzle's quiet threats too; by
        // iterative deepening and by proof numbers.
        for (quiet_vcf, search) in [0, threat_limit(&puzzle)]
            .into_iter()
            .flat_map(|q| SEARCHES.map(|s| (q, s)))
        {
            let mut board = board_of(&puzzle);
            let win = search(
                &mut ThreatSolver::new(4 << 20),
                &mut board,
                kind(&puzzle),
                &ThreatLimits {
                    max_attacks: limit(&puzzle),
                    // A VCT search may run long before it gives up; a win it found sooner
                    // would be the bug this looks for.
                    nodes: Some(300_000),
                    quiet_vcf,
                    ..ThreatLimits::default()
                },
            );
            assert_eq!(win, None, "{id}: claimed a win the puzzle disproves");
        }
        checked += 1;
    }
    assert_eq!(checked, 47);
}

/// The two searches of the threat solver: iterative deepening and proof numbers.
type Search = fn(&mut ThreatSolver, &mut Board, ThreatKind, &ThreatLimits) -> Option<ThreatWin>;
const SEARCHES: [Search; 2] = [ThreatSolver::solve, ThreatSolver::prove];

#[test]
fn every_vct_win_found_is_a_legal_line_within_the_limit() {
    // Solved with fours and open threes only / with the puzzle's quiet threats too / with
    // them by proof numbers.
    let mut solved = [0, 0, 0];
    for puzzle in puzzles() {
        if puzzle["verdict"] != "proven" || puzzle["mode"] != "vct" {
            continue;
        }
        let id = id(&puzzle);
        for (run, count) in solved.iter_mut().enumerate() {
            let mut board = board_of(&puzzle);
            let win = SEARCHES[run / 2](
                &mut ThreatSolver::new(4 << 20),
                &mut board,
                ThreatKind::Vct,
                &ThreatLimits {
                    max_attacks: limit(&puzzle),
                    nodes: Some(NODES),
                    quiet_vcf: if run >= 1 { threat_limit(&puzzle) } else { 0 },
                    ..ThreatLimits::default()
                },
            );
            if let Some(win) = win {
                *count += 1;
                check_line(&board, &win, id);
                assert!(attacks(&win) <= limit(&puzzle), "{id}: {:?}", win.line);
            }
        }
    }
    // Node-limited, so the counts do not depend on the machine; the example quintet_report
    // gives the timed figures. Most cases need quiet moves that prepare a four-three
    // (quintet's threat_limit 2), which fours and threes alone do not reach.
    eprintln!(
        "of 70 proven VCT cases, within {NODES} nodes each: {solved:?} solved without / with \
         quiet threats / with them by proof numbers"
    );
    assert!(
        solved[0] >= 20 && solved[1] >= QUIET_SOLVED && solved[2] >= PROOF_SOLVED,
        "{solved:?}"
    );
}

/// Nodes per VCT case.
const NODES: u64 = 300_000;
/// Proven VCT cases solved with quiet threats within `NODES` each, at least (32 when
/// written, against 26 with fours and open threes only).
const QUIET_SOLVED: usize = 30;
/// The same by proof numbers, at least (37 when written).
const PROOF_SOLVED: usize = 35;
