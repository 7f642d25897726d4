//! How games are written down: SGF game records (read and written, as c-gomoku-cli writes
//! them) and Piskvork's `.psq` records (read), both into one [`GameRecord`].

mod game_record;
mod psq;
pub mod sgf;
mod sgf_syntax;

pub use game_record::{rule_from_number, rule_number, GameRecord, RecordMove, OPENING_COMMENT};
pub use psq::read_psq;
pub use sgf::{read_sgf, write_sgf, RecordedMove, SgfGame};
pub use sgf_syntax::{RecordError, Span};

/// Reads a record by its file name: `.psq` is Piskvork's, anything else SGF.
pub fn read_records(
    file_name: &str,
    text: &str,
    default_rule: crate::Rule,
) -> Result<Vec<GameRecord>, RecordError> {
    if file_name.to_ascii_lowercase().ends_with(".psq") {
        read_psq(text, default_rule).map(|record| vec![record])
    } else {
        read_sgf(text, default_rule)
    }
}
