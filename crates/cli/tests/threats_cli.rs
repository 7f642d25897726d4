//! `wuzi threats`, run as a user runs it: the threat solver's verdict and line, the opponent's
//! threats, quiet threats, the limits, and clear errors for bad input.

mod common;

use common::{fails_with, json, wuzi};
use serde_json::{json, Value};

/// Black has h8 h9 h10 open and White i7 i8 i9: Black to move wins by fours alone.
const OPEN_THREES: &str = "h8 i9 h9 i8 h10 i7";

fn text(args: &[&str]) -> String {
    let output = wuzi(args);
    assert!(
        output.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn a_vcf_is_found_with_its_line() {
    let v = json(&[
        "threats",
        "--json",
        "--kind",
        "vcf",
        "--nodes",
        "100000",
        OPEN_THREES,
    ]);
    assert_eq!(v["attacker"], "black");
    assert_eq!(v["kind"], "vcf");
    assert_eq!(v["win"], true);
    assert_eq!(v["plies"], 3);
    assert_eq!(v["line"], json!(["h7", "h11", "h6"]));
    assert_eq!(v["gave_up"], false);
    let out = text(&["threats", "--kind", "VCF", OPEN_THREES]);
    assert!(
        out.starts_with("black wins by VCF in 3 plies: h7 h11 h6\n"),
        "{out}"
    );
}

/// Renju: White's four at f13 leaves Black one block, f12, a double three. The line ends
/// with that block, and the answer says it is forbidden rather than let it read as White's
/// five.
#[test]
fn a_win_ending_in_a_forbidden_block_says_so() {
    let moves = "g12 g9 i8 f10 h10 f9 i9 e11 h8 c13 d12 f11 f8";
    let args = ["threats", "--rule", "renju", "--nodes", "10000", moves];
    let out = text(&args);
    assert!(
        out.starts_with(
            "white wins by VCT in 2 plies: f13 f12 (Black's only block, f12, is forbidden)\n"
        ),
        "{out}"
    );
    let v = json(&[&args[..], &["--json"]].concat());
    assert_eq!(v["line"], json!(["f13", "f12"]));
    assert_eq!(v["forbidden_block"], "f12");
    let plain = json(&["threats", "--json", "--nodes", "100000", OPEN_THREES]);
    assert_eq!(plain["forbidden_block"], Value::Null);
}

#[test]
fn the_readme_s_first_example_is_what_the_solver_finds() {
    let v = json(&[
        "threats",
        "--json",
        "--nodes",
        "1000000",
        "h8 i9 h9 h7 i8 g7",
    ]);
    let line = "g8 j8 f7 i10 e8 f8 e6 d5 e9 e7 d9 g6 g10 f11 f9 g9 h11 d7 i12";
    assert_eq!(v["line"], json!(line.split(' ').collect::<Vec<_>>()));
    assert_eq!(v["plies"], 19);
    assert_eq!(v["nodes"], 72203);
}

#[test]
fn proof_numbers_find_a_win_of_their_own() {
    // The README's example again by proof-number search: a win, longer than the shortest.
    let args = ["threats", "--search", "proof", "--nodes", "1000000"];
    let v = json(&[&args[..], &["--json", "h8 i9 h9 h7 i8 g7"]].concat());
    assert_eq!(
        (v["search"].clone(), v["win"].clone()),
        (json!("proof"), json!(true))
    );
    let line = v["line"].as_array().unwrap();
    assert_eq!(v["plies"], line.len());
    assert!(line.len() >= 19, "{v}");
    assert_eq!(v["nodes"], PROOF_NODES);
    let out = text(&[&args[..], &["h8 i9 h9 h7 i8 g7"]].concat());
    assert!(
        out.contains("(proof-number search: a win, not always the shortest)"),
        "{out}"
    );
    let plain = json(&["threats", "--json", "--nodes", "100", "h8"]);
    assert_eq!(plain["search"], "deepening");
}

/// The proof-number search's nodes on the README's example (the same on every machine).
const PROOF_NODES: u64 = 191_990;

#[test]
fn the_opponent_s_threats_are_looked_for_on_request() {
    // White to move: Black's open three is what White must answer.
    let moves = "h8 i9 h9 i8 h10";
    let mine = json(&["threats", "--json", "--nodes", "100000", moves]);
    assert_eq!(
        (mine["attacker"].clone(), mine["win"].clone()),
        (json!("white"), json!(false))
    );
    assert_eq!(mine["gave_up"], false);
    let theirs = json(&[
        "threats",
        "--json",
        "--opponent",
        "--nodes",
        "100000",
        moves,
    ]);
    assert_eq!(theirs["attacker"], "black");
    assert_eq!(theirs["plies"], 3);
}

#[test]
fn quiet_threats_find_a_win_fours_and_threes_miss() {
    // 11x11, Black to move: the win needs moves that prepare a four-three.
    let position = [
        "--size",
        "11",
        "--black",
        "d8 i4 g8 c8 d9",
        "--white",
        "g9 g7 h4 i8 h5",
        "--to-move",
        "black",
        "--attacks",
        "4",
        "--nodes",
        "1000000",
        "--json",
    ];
    let plain = json(&[&["threats"][..], &position[..]].concat());
    assert_eq!(plain["win"], false);
    assert_eq!(plain["gave_up"], false, "no VCT within 4 attacker moves");
    let quiet = json(&[&["threats", "--quiet", "2"][..], &position[..]].concat());
    assert_eq!(quiet["quiet"], 2);
    assert_eq!(
        quiet["line"],
        json!(["e10", "b7", "c10", "e8", "d10", "a11", "d7", "d11", "d6"])
    );
    assert_eq!(quiet["plies"], 9);
}

#[test]
fn a_search_stopped_by_its_limit_says_so() {
    let v: Value = json(&["threats", "--json", "--nodes", "5", "h8 i9 h9 h7 i8 g7"]);
    assert_eq!(
        (v["win"].clone(), v["gave_up"].clone()),
        (json!(false), json!(true))
    );
    let out = text(&["threats", "--nodes", "5", "h8 i9 h9 h7 i8 g7"]);
    assert!(out.contains("before the limit stopped the search"), "{out}");
    let none = text(&["threats", "--attacks", "3", "h8"]);
    assert!(
        none.starts_with("white has no VCT within 3 attacker moves\n"),
        "{none}"
    );
}

#[test]
fn bad_input_gets_a_clear_error() {
    fails_with(
        &["threats", "h8 a1 i8 a2 j8 a3 k8 a4 l8"],
        "the game is already over",
    );
    fails_with(
        &["threats", "--kind", "vcf", "--quiet", "2", "h8"],
        "needs --kind vct",
    );
    fails_with(&["threats", "--quiet", "9", "h8"], "--quiet");
    fails_with(&["threats", "--search", "fast", "h8"], "--search");
    fails_with(&["threats", "--attacks", "0", "h8"], "--attacks");
    fails_with(
        &["threats", "--time", "10", "--nodes", "10", "h8"],
        "cannot be used with",
    );
    fails_with(&["threats", "h8 h8"], "h8");
    fails_with(
        &["threats", "--hash-mb", "1000000", "h8"],
        "not in 1..=4096",
    );
    fails_with(
        &["threats", "--hash-mb", "99999999999999999", "h8"],
        "not in 1..=4096",
    );
}
