//! SGF game records as Gomoku tools write them (FF[4], GM[4]), following c-gomoku-cli so that
//! records from either tool read alike: moves as two letters, column then row counted from
//! the top (`a` = 0, the Gomocup coordinates), opening stones marked `C[opening move]`,
//! every other move's thinking time as `C[699ms]`, the winner in `RE` (`B+1`, `W+1`, `0` for a
//! draw) and the reason in words in `TE`.

use crate::Point;
use std::fmt::Write;
use wuzi_search::Player;

/// One move of a record: the point and, for moves an engine chose, its thinking time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    pub point: Point,
    /// `None` for an opening stone.
    pub millis: Option<u64>,
}

/// What an SGF record says about one game.
#[derive(Clone, Debug)]
pub struct SgfGame {
    pub size: usize,
    /// The Gomocup rule number (`RU`): 0 freestyle, 1 exactly five, 4 renju.
    pub rule_number: u32,
    pub black: String,
    pub white: String,
    /// Event name (`EV`).
    pub event: String,
    /// 1-based game number (`GN`).
    pub number: usize,
    /// `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended, in words (`TE`).
    pub reason: String,
    pub moves: Vec<RecordedMove>,
}

/// SGF text escapes `]` and `\`.
fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

fn coordinate(p: Point) -> String {
    let letter = |v: usize| (b'a' + v as u8) as char;
    format!("{}{}", letter(p.x()), letter(p.y()))
}

impl SgfGame {
    /// The record as one `(;...)` game tree with a trailing newline; several records in one
    /// file are separated by a blank line, as c-gomoku-cli does.
    pub fn to_sgf(&self) -> String {
        let result = match self.winner {
            Some(Player::First) => "B+1",
            Some(Player::Second) => "W+1",
            None => "0",
        };
        let mut out = format!(
            "(;FF[4]GM[4]GN[{}]EV[{}]RU[{}]SZ[{}]PB[{}]PW[{}]RE[{result}]TE[{}]\n",
            self.number,
            escape(&self.event),
            self.rule_number,
            self.size,
            escape(&self.black),
            escape(&self.white),
            escape(&self.reason),
        );
        for (i, m) in self.moves.iter().enumerate() {
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            let comment = match m.millis {
                Some(ms) => format!("{ms}ms"),
                None => "opening move".into(),
            };
            let _ = write!(out, ";{colour}[{}]C[{comment}]", coordinate(m.point));
            if i % 8 == 7 && i + 1 < self.moves.len() {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_what_c_gomoku_cli_writes() {
        let game = SgfGame {
            size: 15,
            rule_number: 0,
            black: "wuzi".into(),
            white: "rapfi]01".into(),
            event: "wuzi match".into(),
            number: 1,
            winner: Some(Player::Second),
            reason: "White wins by five".into(),
            moves: vec![
                RecordedMove {
                    point: Point::new(5, 11),
                    millis: None,
                },
                RecordedMove {
                    point: Point::new(3, 10),
                    millis: Some(699),
                },
            ],
        };
        assert_eq!(
            game.to_sgf(),
            "(;FF[4]GM[4]GN[1]EV[wuzi match]RU[0]SZ[15]PB[wuzi]PW[rapfi\\]01]RE[W+1]\
             TE[White wins by five]\n;B[fl]C[opening move];W[dk]C[699ms])\n"
        );
    }
}
