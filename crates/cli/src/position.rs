//! The position arguments `wuzi show` and `wuzi analyze` share: a move list, stones, or a
//! game record file (`.sgf`, `.psq`).

use crate::record_file;
use clap::{Args, ValueEnum};
use wuzi_gomoku::record::{GameRecord, RecordDefaults};
use wuzi_gomoku::{parse_moves, parse_position, Board, Player, Rule, MAX_HASH_MIB};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum RuleArg {
    Freestyle,
    Standard,
    Renju,
}

impl From<RuleArg> for Rule {
    fn from(r: RuleArg) -> Rule {
        match r {
            RuleArg::Freestyle => Rule::Freestyle,
            RuleArg::Standard => Rule::Standard,
            RuleArg::Renju => Rule::Renju,
        }
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Colour {
    Black,
    White,
}

impl From<Colour> for Player {
    fn from(c: Colour) -> Player {
        match c {
            Colour::Black => Player::First,
            Colour::White => Player::Second,
        }
    }
}

/// Parses `--hash-mb`: 1 to [`MAX_HASH_MIB`] MiB.
pub fn hash_mib(text: &str) -> Result<usize, String> {
    let mib: usize = text
        .parse()
        .map_err(|_| format!("\"{text}\" is not a whole number of MiB"))?;
    if (1..=MAX_HASH_MIB).contains(&mib) {
        Ok(mib)
    } else {
        Err(format!("{mib} MiB is not in 1..={MAX_HASH_MIB}"))
    }
}

pub fn colour_name(p: Player) -> &'static str {
    match p {
        Player::First => "black",
        Player::Second => "white",
    }
}

/// `Black` or `White`, as a sentence or a label begins.
pub fn colour_title(p: Player) -> &'static str {
    match p {
        Player::First => "Black",
        Player::Second => "White",
    }
}

#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The rule: freestyle (five or more wins), standard (exactly five) or renju.
    #[arg(long, value_enum, ignore_case = true, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
    /// Board side, 5 to 22 (for a record file, the size of one that does not say: no `SZ`).
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Black stones (instead of a move list), e.g. h8,j9 or "h8 j9".
    #[arg(long, default_value = "")]
    pub black: String,
    /// White stones (instead of a move list).
    #[arg(long, default_value = "")]
    pub white: String,
    /// The side to move; by default it follows from the stone counts.
    #[arg(long, value_enum, ignore_case = true)]
    pub to_move: Option<Colour>,
    /// The moves from the empty board, Black first: `h8 i9 h9`, `h8i9h9` or `7,7 8,6`; or a
    /// game record file, `game.sgf` or Piskvork's `game.psq`.
    pub moves: Vec<String>,
    #[command(flatten)]
    pub record: RecordArgs,
}

/// Which game of a record file, and how far into it.
#[derive(Args, Debug, Clone)]
pub struct RecordArgs {
    /// The game of a file that holds several (1-based).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub game: usize,
    /// The position after this many moves of the record (default: all of them).
    #[arg(long = "move", value_name = "N")]
    pub plies: Option<usize>,
}

impl RecordArgs {
    /// The chosen game of the file at `path`, cut at `--move`; `rule` and `size` are for a
    /// record that does not say (no `RU`, no `SZ`).
    pub fn load(&self, path: &str, rule: Rule, size: usize) -> Result<GameRecord, String> {
        let defaults = RecordDefaults { rule, size };
        record_file::cut(record_file::load(path, self.game, defaults)?, self.plies)
    }
}

impl PositionArgs {
    /// The record file named instead of moves, if one is.
    fn file(&self) -> Option<&str> {
        match self.moves.as_slice() {
            [one] if record_file::is_record_file(one) => Some(one),
            _ => None,
        }
    }

    pub fn board(&self) -> Result<Board, String> {
        Ok(self.position()?.0)
    }

    /// The position and its game record: a file's own record (cut at `--move`), or else the
    /// record of the moves or stones given.
    pub fn position(&self) -> Result<(Board, GameRecord), String> {
        if let Some(path) = self.file() {
            if !self.black.is_empty() || !self.white.is_empty() {
                return Err("give either a record file or stones, not both".into());
            }
            if self.to_move.is_some() {
                return Err(
                    "--to-move is for --black/--white stones: a record's side to move \
                     follows from its moves (--move chooses the position)"
                        .into(),
                );
            }
            let record = self.record.load(path, self.rule.into(), self.size)?;
            self.note_record_says_otherwise(path, &record);
            let board = record
                .final_position()
                .map_err(|e| format!("{path}: {e}"))?;
            return Ok((board, record));
        }
        if let Some(file) = self.moves.iter().find(|m| record_file::is_record_file(m)) {
            return Err(format!(
                "{file} is a record file: give it alone (--game and --move choose its position)"
            ));
        }
        if self.record.plies.is_some() || self.record.game != 1 {
            return Err("--game and --move choose a position in a record file (.sgf, .psq)".into());
        }
        if let Some(word) = self
            .moves
            .iter()
            .find(|m| std::path::Path::new(m).is_file())
        {
            crate::output::note(format!(
                "{word} is read as moves; to read the file of that name, give ./{word}"
            ));
        }
        let board = self.parse().map_err(|e| {
            // A word with a dot or a slash that is no move was meant as a file.
            let path = self.moves.iter().find(|m| {
                m.contains(['/', '\\']) || (m.contains('.') && parse_moves(m, self.size).is_err())
            });
            match path {
                Some(path) if std::path::Path::new(path).exists() => format!("{path}: not a file"),
                Some(path) => format!("{path}: no such file (nor is it a move)"),
                None => e,
            }
        })?;
        let record = GameRecord::from_board(&board);
        Ok((board, record))
    }

    /// Notes on stderr a `--rule` or `--size` that the record overrides with its own (`RU`,
    /// `SZ`, a Piskvork header): they are for records that do not say. (Given as the
    /// defaults, freestyle and 15, they cannot be told from not given.)
    fn note_record_says_otherwise(&self, path: &str, record: &GameRecord) {
        let rule: Rule = self.rule.into();
        if rule != Rule::Freestyle && record.rule != rule {
            crate::output::note(format!(
                "{path} says its rule, {}: --rule {} is for records that do not",
                record.rule.name(),
                rule.name()
            ));
        }
        if self.size != wuzi_gomoku::record::DEFAULT_SIZE && record.size != self.size {
            crate::output::note(format!(
                "{path} says its size, {0}x{0}: --size {1} is for records that do not",
                record.size, self.size
            ));
        }
    }

    fn parse(&self) -> Result<Board, String> {
        parse_position(
            self.size,
            self.rule.into(),
            &self.moves.join(" "),
            &self.black,
            &self.white,
            self.to_move.map(Player::from),
        )
        .map_err(|e| e.to_string())
    }
}
