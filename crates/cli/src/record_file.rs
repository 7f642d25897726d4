//! Game record files (`.sgf`, Piskvork's `.psq`) wherever the command takes a position.

use std::path::Path;
use wuzi_gomoku::record::{read_records, GameRecord};
use wuzi_gomoku::Rule;

/// True when `text` names a record file rather than moves: a `.sgf` or `.psq` name, or any
/// file there is (`game.txt`, read by what it holds).
pub fn is_record_file(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.ends_with(".sgf") || lower.ends_with(".psq") || Path::new(text).is_file()
}

/// Every game of the file at `path`; `rule` is for records that do not say. Every error
/// names the file, and where in it.
pub fn load_all(path: &str, rule: Rule) -> Result<Vec<GameRecord>, String> {
    let text =
        std::fs::read_to_string(Path::new(path)).map_err(|e| format!("cannot read {path}: {e}"))?;
    read_records(path, &text, rule).map_err(|e| format!("{path}: {e}"))
}

/// Game `number` (1-based) of the file at `path`; `rule` is for records that do not say.
pub fn load(path: &str, number: usize, rule: Rule) -> Result<GameRecord, String> {
    let mut games = load_all(path, rule)?;
    check_game_number(path, games.len(), number)?;
    Ok(games.swap_remove(number - 1))
}

/// An error unless `number` (1-based, as `--game` takes it) is one of the file's `count` games.
pub fn check_game_number(path: &str, count: usize, number: usize) -> Result<(), String> {
    if number == 0 || number > count {
        return Err(format!(
            "{path} holds {}: --game {number} is not one of them",
            crate::output::count(count, "game")
        ));
    }
    Ok(())
}

/// The record cut after `plies` moves (`None`: all of them). A cut game has no result yet.
pub fn cut(mut record: GameRecord, plies: Option<usize>) -> Result<GameRecord, String> {
    let Some(plies) = plies else {
        return Ok(record);
    };
    if plies > record.moves.len() {
        return Err(format!(
            "--move {plies}: the game has only {} moves",
            record.moves.len()
        ));
    }
    if plies < record.moves.len() {
        record.moves.truncate(plies);
        record.result = None;
        record.reason.clear();
    }
    Ok(record)
}
