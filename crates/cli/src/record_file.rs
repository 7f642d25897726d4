//! Game record files (`.sgf`, Piskvork's `.psq`) wherever the command takes a position.

use std::path::Path;
use wuzi_gomoku::record::{read_records_each, GameRecord, RecordDefaults, RecordFile};
use wuzi_search::{Outcome, Player};

/// True when `text` names a record file rather than moves: a `.sgf` or `.psq` name, or any
/// file there is (`game.txt`, read by what it holds) whose name is not a move list.
pub fn is_record_file(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    // A word that reads as moves is moves, even beside a file of that name (`h8`).
    let moves = wuzi_gomoku::parse_moves(text, wuzi_gomoku::MAX_SIZE).is_ok();
    lower.ends_with(".sgf") || lower.ends_with(".psq") || (Path::new(text).is_file() && !moves)
}

/// The games of the file at `path`, each read or refused on its own; `defaults` are for
/// records that do not say their rule or size. Every error names the file, and where in it.
fn read_each(path: &str, defaults: impl Into<RecordDefaults>) -> Result<RecordFile, String> {
    let bytes = std::fs::read(Path::new(path)).map_err(|e| format!("cannot read {path}: {e}"))?;
    // A name in Latin-1 (`CA[ISO-8859-1]`) must not make the moves unreadable: bytes that
    // are not UTF-8 become U+FFFD, as the Gomocup side reads its lines.
    let text = String::from_utf8_lossy(&bytes);
    Ok(read_records_each(path, &text, defaults))
}

/// Every game of the file at `path`; the first that cannot be read is an error.
pub fn load_all(
    path: &str,
    defaults: impl Into<RecordDefaults>,
) -> Result<Vec<GameRecord>, String> {
    let games = read_each(path, defaults)?
        .into_result()
        .map_err(|e| format!("{path}: {e}"))?;
    for (i, game) in games.iter().enumerate() {
        note_after_end(path, i + 1, game);
    }
    Ok(games)
}

/// Game `number` (1-based) of the file at `path`. Only that game has to read: another
/// broken one (a match's record cut short, a bad game appended) does not hide it, though a
/// break in the file is noted on stderr.
pub fn load(
    path: &str,
    number: usize,
    defaults: impl Into<RecordDefaults>,
) -> Result<GameRecord, String> {
    if number == 0 {
        return Err("--game 0: a file's games are numbered from 1".into());
    }
    let file = read_each(path, defaults)?;
    let count = file.games.len();
    if let Some(error) = file.broken.as_ref().filter(|_| number <= count) {
        crate::output::note(format!(
            "{path} breaks off after {}: {error}",
            crate::output::count(count, "readable game")
        ));
    }
    // A last game that cannot be read (a comment left open takes in the games after it, and
    // then fails on their moves) may be where the games asked for went.
    let unreadable = match file.games.last() {
        Some(Err(e)) => Some(format!("its last, game {count}, cannot be read: {e}")),
        _ => None,
    };
    match file.take(number) {
        Some(game) => {
            let game = game.map_err(|e| format!("{path}: {e}"))?;
            note_after_end(path, number, &game);
            note_result_contradicted(path, number, &game);
            Ok(game)
        }
        None => Err(match unreadable {
            Some(why) => format!(
                "{}; {why}, and may have taken in the games after it",
                no_such_game(path, count, number)
            ),
            None => no_such_game(path, count, number),
        }),
    }
}

/// Notes on stderr that a record goes on after its game ended (a five, or a renju foul
/// nobody claimed): those moves are not read.
fn note_after_end(path: &str, number: usize, game: &GameRecord) {
    if game.after_end > 0 {
        crate::output::note(format!("{path} game {number}: {}", ended_text(game)));
    }
}

/// Notes on stderr a recorded result (`RE`) that the board contradicts: the game ended on
/// the board with another result. The board's is the one shown and played on.
fn note_result_contradicted(path: &str, number: usize, game: &GameRecord) {
    let Some(recorded) = game.result else {
        return;
    };
    let Some(ended) = game.final_position().ok().and_then(|b| b.result()) else {
        return;
    };
    if ended.outcome() != recorded {
        crate::output::note(format!(
            "{path} game {number}: the record says {}, but on the board {} ({})",
            outcome_text(recorded),
            outcome_text(ended.outcome()),
            ended.reason.name()
        ));
    }
}

/// "black wins", "white wins" or "a draw".
pub fn outcome_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Player::First) => "black wins",
        Outcome::Win(Player::Second) => "white wins",
        Outcome::Draw => "a draw",
    }
}

/// Where the game ended and how many moves the record has after it.
fn ended_text(game: &GameRecord) -> String {
    let how = game
        .final_position()
        .ok()
        .and_then(|board| board.result())
        .map_or(String::new(), |result| {
            format!(" ({})", result.reason.name())
        });
    let verb = if game.after_end == 1 { "is" } else { "are" };
    let when = match game.moves.len() {
        0 => "was over in the set-up".to_string(),
        n => format!("ended at move {n}"),
    };
    format!(
        "the game {when}{how}; the {} after it {verb} not read",
        crate::output::count(game.after_end, "move"),
    )
}

/// An error unless `number` (1-based, as `--game` takes it) is one of the file's `count` games.
pub fn check_game_number(path: &str, count: usize, number: usize) -> Result<(), String> {
    if number == 0 || number > count {
        return Err(no_such_game(path, count, number));
    }
    Ok(())
}

fn no_such_game(path: &str, count: usize, number: usize) -> String {
    format!(
        "{path} holds {}: --game {number} is not one of them",
        crate::output::count(count, "game")
    )
}

/// The record cut after `plies` moves (`None`: all of them). A cut game has no result yet.
pub fn cut(mut record: GameRecord, plies: Option<usize>) -> Result<GameRecord, String> {
    let Some(plies) = plies else {
        return Ok(record);
    };
    if plies > record.moves.len() {
        // A record read only up to its game's end has had that noted already.
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
