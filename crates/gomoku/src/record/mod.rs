//! How games are written down: SGF game records (read and written, as c-gomoku-cli writes
//! them) and Piskvork's `.psq` records (read), both into one [`GameRecord`].

mod game_record;
mod psq;
pub mod sgf;
mod sgf_syntax;

pub use game_record::{rule_from_number, rule_number, GameRecord, RecordMove, OPENING_COMMENT};
pub use psq::read_psq;
pub use sgf::{read_sgf, read_sgf_each, write_sgf, RecordedMove, SgfGame};
pub use sgf_syntax::{RecordError, Span};

/// What a record that does not say is taken to be: its rule (no `RU`) and its board size
/// (no `SZ`). A [`Rule`](crate::Rule) alone means that rule on 15x15.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordDefaults {
    pub rule: crate::Rule,
    pub size: usize,
}

/// The size of a record without `SZ` unless told: Gomoku's usual board.
pub const DEFAULT_SIZE: usize = 15;

/// A record file's games, each read or refused on its own, and where the file stops being
/// readable at all: a file cut short, or text that is no game, leaves the games before it
/// readable, but what follows cannot be told apart.
#[derive(Debug)]
pub struct RecordFile {
    pub games: Vec<Result<GameRecord, RecordError>>,
    /// The error where the file breaks off (not one of `games`).
    pub broken: Option<RecordError>,
}

impl RecordFile {
    /// Game `number` (1-based), read or refused. Only that game has to read: another broken
    /// one does not hide it. Past the games there are, the break's error when the file
    /// breaks off (what follows it is unknown), else `None`: the file holds no such game.
    pub fn take(mut self, number: usize) -> Option<Result<GameRecord, RecordError>> {
        if (1..=self.games.len()).contains(&number) {
            Some(self.games.swap_remove(number - 1))
        } else if number > self.games.len() {
            self.broken.map(Err)
        } else {
            None
        }
    }

    /// Every game, or the first error (a game's, else the break's).
    pub fn into_result(self) -> Result<Vec<GameRecord>, RecordError> {
        let games: Vec<GameRecord> = self.games.into_iter().collect::<Result<_, _>>()?;
        match self.broken {
            Some(error) => Err(error),
            None => Ok(games),
        }
    }
}

impl From<crate::Rule> for RecordDefaults {
    fn from(rule: crate::Rule) -> RecordDefaults {
        RecordDefaults {
            rule,
            size: DEFAULT_SIZE,
        }
    }
}

/// Reads a record by its file name: `.psq` is Piskvork's, `.sgf` SGF, and a file of another
/// name by what it holds (Piskvork's begin with `Piskvorky`, text with no `(` at all is a
/// list of moves from the empty board, anything else is read as SGF).
/// The first game that cannot be read fails the whole file; [`read_records_each`] keeps the
/// others.
pub fn read_records(
    file_name: &str,
    text: &str,
    defaults: impl Into<RecordDefaults>,
) -> Result<Vec<GameRecord>, RecordError> {
    read_records_each(file_name, text, defaults).into_result()
}

/// [`read_records`], each game read or refused on its own (see [`read_sgf_each`]).
pub fn read_records_each(
    file_name: &str,
    text: &str,
    defaults: impl Into<RecordDefaults>,
) -> RecordFile {
    let defaults = defaults.into();
    // Piskvork's files say so on their first line: a record saved under another name
    // (`game.txt`) is read by what it holds.
    let lower = file_name.to_ascii_lowercase();
    let unmarked = text.trim_start_matches('\u{feff}');
    let body = unmarked.trim();
    let psq_text = body.starts_with("Piskvork");
    // An SGF file may begin with a note before its `(`: only text with no `(` at all is moves.
    let move_list = !body.is_empty() && !body.contains('(') && !psq_text;
    if lower.ends_with(".psq") || (!lower.ends_with(".sgf") && psq_text) {
        RecordFile {
            games: vec![read_psq(text, defaults.rule)],
            broken: None,
        }
    } else if move_list && !lower.ends_with(".sgf") {
        RecordFile {
            // Untrimmed, so that an error's line and column are the file's.
            games: vec![read_move_list(unmarked, defaults)],
            broken: None,
        }
    } else {
        read_sgf_each(text, defaults)
    }
}

/// A file that holds only moves (`h8 i9 h9`, over any lines, in any notation a move list
/// takes), from the empty board.
fn read_move_list(text: &str, defaults: RecordDefaults) -> Result<GameRecord, RecordError> {
    crate::Board::from_moves(defaults.size, defaults.rule, text)
        .map(|board| GameRecord::from_board(&board))
        .map_err(|e| {
            let at = match &e {
                crate::BoardError::Move(m) => span_at(text, m.offset),
                _ => Span { line: 1, column: 1 },
            };
            RecordError::new(
                at,
                format!(
                    "neither an SGF record (`(;FF[4]...`), a Piskvork record (`Piskvorky \
                     15x15, ...`) nor a move list: {e}"
                ),
            )
        })
}

/// The line and column (in characters, both 1-based) of byte `offset` of `text`.
fn span_at(text: &str, offset: usize) -> Span {
    let before = text.get(..offset).unwrap_or(text);
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    Span {
        line: before.matches('\n').count() + 1,
        column: before[line_start..].chars().count() + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rule;

    #[test]
    fn a_record_of_another_name_is_read_by_what_it_holds() {
        let psq = "Piskvorky 15x15, 11:11, 0\n8,8,100\n9,9,100\n-1\n";
        let sgf = "(;FF[4]GM[4]SZ[15];B[hh];W[ii])";
        for (name, text) in [
            ("game.txt", psq),
            ("game.psq", psq),
            ("game", sgf),
            ("g.sgf", sgf),
            ("moves.txt", "h8 i9\r\n"),
            ("moves", "\u{feff}7,7\n8,8\n"),
            (
                "noted.txt",
                "Game 1 against Ann\n(;FF[4]GM[4]SZ[15];B[hh];W[ii])",
            ),
        ] {
            let records = read_records(name, text, Rule::Freestyle).unwrap();
            assert_eq!(records[0].moves.len(), 2, "{name}");
        }
        let error = read_records("notes.txt", "hello world", Rule::Freestyle).unwrap_err();
        assert!(error.to_string().contains("nor a move list"), "{error}");
        // A move list's error points at the move, where the file has it.
        for (text, place) in [
            ("h8 i9\n\t1. h9 h8", "line 2, column 8: "),
            ("\u{feff}\n\n  h8 h8", "line 3, column 6: "),
            ("h8 i9 h9\né8", "line 2, column 1: "),
            ("h8 \"é\" i9 zz", "line 1, column 4: "),
        ] {
            let error = read_records("m.txt", text, Rule::Freestyle).unwrap_err();
            assert!(error.to_string().starts_with(place), "{error}");
        }
        // A .sgf name is SGF whatever it holds.
        assert!(read_records("game.sgf", psq, Rule::Freestyle).is_err());
    }
}
