//! `wuzi tournament`: round robins and gauntlets of in-process and external engines, their
//! tables, JSON and records, and bad input.

mod common;

use common::{external_engine, fails_with, json, scratch_dir, wuzi};
use serde_json::Value;

fn count(v: &Value, key: &str) -> u64 {
    v[key].as_u64().unwrap()
}

/// Every pairing plays its games from the same openings, each with both colours, and every
/// engine's totals are the sums of its pairings, seen from its side.
#[test]
fn a_round_robin_plays_every_pair_on_the_same_openings() {
    let dir = scratch_dir("tournament");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "h8 i9\nh8 g9 i8\n").unwrap();
    let (sgf, log) = (dir.join("games.sgf"), dir.join("engines.log"));
    let external = external_engine();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let v = json(&[
        "tournament",
        "--engine",
        "depth=1",
        "--engine",
        &external,
        "--engine",
        "nodes=300",
        "--games",
        "4",
        "--size",
        "11",
        "--concurrency",
        "2",
        "--openings",
        &path(&openings),
        "--sgf",
        &path(&sgf),
        "--log",
        &path(&log),
        "--json",
        "--quiet",
    ]);
    let engines = v["engines"].as_array().unwrap();
    let labels: Vec<&str> = engines
        .iter()
        .map(|e| e["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["wuzi depth=1", "external", "wuzi nodes=300"]);
    assert_eq!(engines[1]["spec"].as_str().unwrap(), external);
    let pairings = v["pairings"].as_array().unwrap();
    let met: Vec<(&str, &str)> = pairings
        .iter()
        .map(|p| (p["a"].as_str().unwrap(), p["b"].as_str().unwrap()))
        .collect();
    assert_eq!(
        met,
        [
            ("wuzi depth=1", "external"),
            ("wuzi depth=1", "wuzi nodes=300"),
            ("external", "wuzi nodes=300"),
        ]
    );
    for p in pairings {
        assert_eq!(count(p, "played"), 4);
        let games = p["games"].as_array().unwrap();
        let numbers: Vec<u64> = games.iter().map(|g| count(g, "number")).collect();
        assert_eq!(numbers, [1, 2, 3, 4]);
        // Games 1-2 open with the file's first line, 3-4 with its second, colours swapped.
        let opening = |g: &Value| {
            let moves = g["moves"].as_array().unwrap();
            moves[..count(g, "opening_stones") as usize].to_vec()
        };
        assert_eq!(opening(&games[0]), opening(&games[1]));
        assert_eq!(opening(&games[0]).len(), 2);
        assert_eq!(opening(&games[2]).len(), 3);
        assert_eq!(games[0]["black"], p["a"]);
        assert_eq!(games[1]["white"], p["a"]);
        let wins = games.iter().filter(|g| g["winner"] == "A").count() as u64;
        let draws = games.iter().filter(|g| g["winner"].is_null()).count() as u64;
        assert_eq!((count(p, "wins"), count(p, "draws")), (wins, draws));
    }
    for e in engines {
        let label = &e["label"];
        let (mut wins, mut losses, mut draws) = (0, 0, 0);
        for p in pairings {
            let (w, l) = if &p["a"] == label {
                (count(p, "wins"), count(p, "losses"))
            } else if &p["b"] == label {
                (count(p, "losses"), count(p, "wins"))
            } else {
                continue;
            };
            wins += w;
            losses += l;
            draws += count(p, "draws");
        }
        assert_eq!(count(e, "played"), 8, "{label}");
        assert_eq!(
            (count(e, "wins"), count(e, "losses"), count(e, "draws")),
            (wins, losses, draws),
            "{label}"
        );
    }
    // The ratings are on one scale with mean 0, in the order of the scores.
    let elo: Vec<f64> = engines.iter().map(|e| e["elo"].as_f64().unwrap()).collect();
    assert!(elo.iter().sum::<f64>().abs() < 1e-6, "{elo:?}");
    let score: Vec<f64> = engines
        .iter()
        .map(|e| e["score"].as_f64().unwrap())
        .collect();
    for i in 0..3 {
        for j in 0..3 {
            if score[i] > score[j] + 1e-9 {
                assert!(elo[i] > elo[j], "{score:?} {elo:?}");
            }
        }
    }
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("(;FF[4]GM[4]").count(), 12);
    assert!(text.contains("EV[wuzi tournament: external vs wuzi nodes=300]"));
    // The engine's lines name the pairing too: it is B in the first, A in the third.
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(
        log.contains("pairing 1 game 1 B (external): MESSAGE"),
        "{log}"
    );
    assert!(
        log.contains("pairing 3 game 4 A (external): MESSAGE"),
        "{log}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A gauntlet pairs the first engine with each other one only; the text table ranks the
/// engines and lists the pairings; engines of one name are told apart.
#[test]
fn a_gauntlet_pairs_the_first_engine_with_the_rest() {
    let args = [
        "tournament",
        "--engine",
        "depth=2",
        "--engine",
        "depth=1",
        "--engine",
        "depth=1",
        "--gauntlet",
        "--games",
        "2",
        "--size",
        "9",
        "--quiet",
    ];
    let out = wuzi(&args);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "Gauntlet of 3 engines, freestyle 9x9: 4 games",
        "{text}"
    );
    assert!(lines[1].starts_with("rank  engine"), "{text}");
    let ranked: Vec<&str> = lines[2..5].iter().map(|l| l.trim_start()).collect();
    assert!(ranked
        .iter()
        .enumerate()
        .all(|(i, l)| l.starts_with(&format!("{} ", i + 1))));
    for name in ["wuzi depth=2 ", "wuzi depth=1 #2 ", "wuzi depth=1 #3 "] {
        assert_eq!(
            ranked.iter().filter(|l| l.contains(name)).count(),
            1,
            "{text}"
        );
    }
    assert_eq!(lines[5], "Pairings (the first engine's games):");
    assert!(
        lines[6].starts_with("  wuzi depth=2 vs wuzi depth=1 #2: +"),
        "{text}"
    );
    assert!(
        lines[7].starts_with("  wuzi depth=2 vs wuzi depth=1 #3: +"),
        "{text}"
    );
    assert!(lines[8].starts_with("Elo: one scale for all"), "{text}");
    assert_eq!(lines.len(), 9, "{text}");
    let v = json(&[&args[..], &["--json"]].concat());
    assert_eq!(v["gauntlet"], true);
    assert_eq!(v["connected"], true);
    let pairings = v["pairings"].as_array().unwrap();
    assert_eq!(pairings.len(), 2);
    // The generated openings are the same in every pairing, game by game.
    let openings = |p: &Value| -> Vec<Value> {
        let games = p["games"].as_array().unwrap();
        games
            .iter()
            .map(|g| {
                let moves = g["moves"].as_array().unwrap();
                Value::from(moves[..count(g, "opening_stones") as usize].to_vec())
            })
            .collect()
    };
    assert_eq!(openings(&pairings[0]), openings(&pairings[1]));
    assert_eq!(openings(&pairings[0]).len(), 2);
}

#[test]
fn a_tournament_refuses_bad_engines_and_counts() {
    fails_with(
        &["tournament", "--engine", "depth=1"],
        "two --engine or more",
    );
    fails_with(
        &["tournament", "--engine", "depth=1", "--engine", "speed=3"],
        "--engine 2 (speed=3): unknown setting",
    );
    fails_with(
        &[
            "tournament",
            "--engine",
            "depth=1",
            "--engine",
            "depth=2",
            "--games",
            "0",
        ],
        "must be 1 or more",
    );
    fails_with(
        &[
            "tournament",
            "--engine",
            "depth=1",
            "--engine",
            "depth=2",
            "--size",
            "30",
        ],
        "board size 30",
    );
    fails_with(&["tournament"], "--engine");
}
