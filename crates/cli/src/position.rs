//! The position arguments `wuzi show` and `wuzi analyze` share: a move list, or stones.

use clap::{Args, ValueEnum};
use wuzi_gomoku::{parse_position, Board, Player, Rule};

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

pub fn colour_name(p: Player) -> &'static str {
    match p {
        Player::First => "black",
        Player::Second => "white",
    }
}

#[derive(Args, Debug, Clone)]
pub struct PositionArgs {
    /// The rule: freestyle (five or more wins), standard (exactly five) or renju.
    #[arg(long, value_enum, default_value_t = RuleArg::Freestyle)]
    pub rule: RuleArg,
    /// Board side, 5 to 22.
    #[arg(long, default_value_t = 15)]
    pub size: usize,
    /// Black stones (instead of a move list), e.g. h8,j9 or "h8 j9".
    #[arg(long, default_value = "")]
    pub black: String,
    /// White stones (instead of a move list).
    #[arg(long, default_value = "")]
    pub white: String,
    /// The side to move; by default it follows from the stone counts.
    #[arg(long, value_enum)]
    pub to_move: Option<Colour>,
    /// The moves from the empty board, Black first: `h8 i9 h9`, `h8i9h9` or `7,7 8,6`.
    pub moves: Vec<String>,
}

impl PositionArgs {
    pub fn board(&self) -> Result<Board, String> {
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
