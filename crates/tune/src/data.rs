//! Training positions as text, one a line: `<rule> <result> <score> <moves>`, where the result
//! (`W`, `D`, `L`) and the search's score are from the side to move's view, and the moves (in
//! wuzi notation, `h8 i9 ...`) lead from the empty 15x15 board to the position.

use wuzi_gomoku::{format_moves, Analysis, Board, Point, Rule};

/// The board size of training games: the size the tables are fitted on.
pub const SIZE: usize = wuzi_gomoku::eval::FITTED_SIZE;

/// The score a data file gives a position the search proved won (its negation: lost).
pub const PROVEN_SCORE: i32 = 10_000;

/// A search's score as a data file writes it: a proof as [`PROVEN_SCORE`] (or its negation),
/// whatever its length.
pub fn data_score(analysis: &Analysis) -> i32 {
    match analysis.forced() {
        Some(_) if analysis.score.value() > 0 => PROVEN_SCORE,
        Some(_) => -PROVEN_SCORE,
        None => analysis.score.value(),
    }
}

/// One labelled position.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub rule: Rule,
    /// 1 win, 0.5 draw, 0 loss for the side to move.
    pub result: f64,
    pub score: i32,
    pub moves: Vec<Point>,
}

impl Sample {
    /// Whether the sample's game is one of the one in `every` held out of a fit to measure
    /// it on unseen games (never, for `every` 0). Games are told apart by their opening
    /// stones, so one game's positions stay on one side.
    pub fn held_out(&self, every: usize) -> bool {
        let game = self.moves[..4.min(self.moves.len())]
            .iter()
            .fold(0usize, |h, p| h.wrapping_mul(31).wrapping_add(p.index()));
        every > 0 && game % every == 0
    }

    /// The line written to a data file.
    pub fn to_line(&self) -> String {
        let r = if self.result > 0.75 {
            "W"
        } else if self.result < 0.25 {
            "L"
        } else {
            "D"
        };
        format!(
            "{} {r} {} {}",
            self.rule.name(),
            self.score,
            format_moves(&self.moves, SIZE, false)
        )
    }

    /// Parses a data line (`line_no` is 1-based, for the error).
    pub fn parse(line: &str, line_no: usize) -> Result<Sample, String> {
        let err = |what: &str| format!("data line {line_no}: {what}");
        let mut f = line.splitn(4, ' ');
        let rule: Rule = f
            .next()
            .unwrap_or("")
            .parse()
            .map_err(|e: String| err(&e))?;
        let result = match f.next() {
            Some("W") => 1.0,
            Some("D") => 0.5,
            Some("L") => 0.0,
            _ => return Err(err("the result is not W, D or L")),
        };
        let score = f
            .next()
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| err("the score is not a whole number"))?;
        let moves = Board::from_moves(SIZE, rule, f.next().unwrap_or(""))
            .map_err(|e| err(&e.to_string()))?
            .moves()
            .to_vec();
        Ok(Sample {
            rule,
            result,
            score,
            moves,
        })
    }

    /// The position the moves lead to (as far as they are legal: reading the data checked
    /// them).
    pub fn board(&self) -> Board {
        let mut b = Board::new(SIZE, self.rule).expect("15 is a supported size");
        for &p in &self.moves {
            if b.try_play(p).is_err() {
                break;
            }
        }
        b
    }
}

/// Every sample of a data file's text; the first bad line is an error.
pub fn parse_all(text: &str) -> Result<Vec<Sample>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| Sample::parse(l.trim(), i + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_bad_lines_are_errors() {
        let s = Sample::parse("renju W -35 h8 i9 j8", 1).unwrap();
        assert_eq!(s.result, 1.0);
        assert_eq!(s.score, -35);
        assert_eq!(Sample::parse(&s.to_line(), 1).unwrap(), s);
        assert_eq!(Sample::parse("freestyle D 0", 1).unwrap().moves.len(), 0);
        for bad in [
            "go W 0 h8",
            "renju X 0 h8",
            "renju W x h8",
            "renju W 0 h8 h8",
            "renju W 0 z99",
        ] {
            assert!(Sample::parse(bad, 3).is_err(), "{bad}");
        }
        assert!(parse_all("# c\nrenju L 1 h8\n\nbad")
            .unwrap_err()
            .contains("line 4"));
    }
}
