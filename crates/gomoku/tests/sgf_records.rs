//! Real SGF files written by c-gomoku-cli (see `data/sgf/SOURCE.md`): every one reads, and
//! every game in it replays legally to the recorded result.

use std::path::Path;
use wuzi_gomoku::record::{read_sgf, write_sgf, GameRecord};
use wuzi_gomoku::Rule;
use wuzi_search::Outcome;

fn records() -> Vec<(String, Vec<GameRecord>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sgf");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("the test data folder")
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "sgf"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .sgf files in {}", dir.display());
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable");
            let name = path.display().to_string();
            let games = read_sgf(&text, Rule::Freestyle).unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, games)
        })
        .collect()
}

#[test]
fn every_recorded_game_replays_to_its_result() {
    let mut games = 0;
    for (name, records) in records() {
        assert!(
            records.len() > 1,
            "{name}: c-gomoku-cli writes several games a file"
        );
        for (i, record) in records.iter().enumerate() {
            assert_eq!(record.size, 15, "{name} game {}", i + 1);
            assert_eq!(record.rule, Rule::Freestyle);
            assert_eq!(record.number, Some(i + 1));
            assert!(!record.black.is_empty() && !record.white.is_empty());
            assert!(record.moves.iter().take_while(|m| m.is_opening()).count() > 0);
            assert!(record
                .moves
                .iter()
                .skip_while(|m| m.is_opening())
                .all(|m| m.millis().is_some()));
            let board = record.final_position().expect("checked when read");
            let result = board
                .result()
                .unwrap_or_else(|| panic!("{name} game {}: unfinished", i + 1));
            let recorded = record.result.expect("RE is given");
            assert_eq!(result.outcome(), recorded, "{name} game {}", i + 1);
            assert!(matches!(recorded, Outcome::Win(_)));
            games += 1;
        }
    }
    assert!(games >= 4);
}

#[test]
fn written_again_they_read_the_same() {
    for (name, records) in records() {
        let again = read_sgf(&write_sgf(&records), Rule::Freestyle).expect(&name);
        assert_eq!(again, records, "{name}");
    }
}
