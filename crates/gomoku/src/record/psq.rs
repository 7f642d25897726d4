//! Piskvork's game records (`.psq`): a header line `Piskvorky 15x15, 11:11, 0`, then one
//! move a line as `x,y,ms` (1-based, from the top-left), then lines Piskvork adds after the
//! game (the engines' names, a result code) that are not moves.

use super::game_record::{GameRecord, RecordMove};
use super::sgf_syntax::{RecordError, Span};
use crate::{Point, Rule, MAX_SIZE, MIN_SIZE};

/// Reads a `.psq` record; the file does not name its rule, so `rule` is given. Each move is
/// checked by replaying it; an error names the line.
pub fn read_psq(text: &str, rule: Rule) -> Result<GameRecord, RecordError> {
    let mut lines = text.lines().enumerate();
    let at = |line: usize| Span {
        line: line + 1,
        column: 1,
    };
    let (_, header) = lines
        .by_ref()
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| RecordError::new(at(0), "an empty file is not a .psq record"))?;
    let header = header.trim_start_matches('\u{feff}').trim();
    let size = read_header(header).ok_or_else(|| {
        RecordError::new(
            at(0),
            format!("`{header}` is not a Piskvork header (`Piskvorky 15x15, 11:11, 0`)"),
        )
    })?;
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(RecordError::new(
            at(0),
            format!("board size {size} is not supported (use {MIN_SIZE} to {MAX_SIZE})"),
        ));
    }
    let mut record = GameRecord::new(size, rule);
    let mut board = record.start().map_err(|e| RecordError::new(at(0), e))?;
    while let Some((index, line)) = lines.next() {
        if line.trim().is_empty() {
            continue;
        }
        let Some((x, y, millis)) = read_move(line) else {
            // The moves end where Piskvork's trailer starts (engine names, a result code); a
            // line shaped as a move (`10,1O,100`), or a move after it, means this line was a
            // broken move, not the trailer.
            if looks_like_a_move(line) {
                return Err(RecordError::new(
                    at(index),
                    format!("`{}` is not a move (`x,y` or `x,y,ms`)", line.trim()),
                ));
            }
            if let Some((later, text)) = lines.find(|(_, l)| read_move(l).is_some()) {
                return Err(RecordError::new(
                    at(index),
                    format!(
                        "`{}` is not a move (`x,y` or `x,y,ms`), yet a move (`{}`, line {}) \
                         follows it",
                        line.trim(),
                        text.trim(),
                        later + 1
                    ),
                ));
            }
            break;
        };
        let bad =
            |why: String| RecordError::new(at(index), format!("move `{}`: {why}", line.trim()));
        if !(1..=size).contains(&x) || !(1..=size).contains(&y) {
            return Err(bad(format!("not on the {size}x{size} board (1 to {size})")));
        }
        let point = Point::new(x - 1, y - 1);
        if board.result().is_some() {
            record.after_end += 1;
            continue;
        }
        let colour = board.side_to_move();
        board.try_play(point).map_err(bad)?;
        record.moves.push(RecordMove {
            colour,
            point,
            comment: millis.map_or(String::new(), |ms| format!("{ms}ms")),
        });
    }
    if let Some(result) = board.result() {
        record.result = Some(result.outcome());
        record.reason = result.reason.name().to_string();
    }
    Ok(record)
}

/// The board side from `Piskvorky 15x15, ...` (square boards only).
fn read_header(header: &str) -> Option<usize> {
    let rest = header.strip_prefix("Piskvorky")?.trim_start();
    let dimensions = rest.split(',').next()?.trim();
    let (width, height) = dimensions.split_once('x')?;
    let width: usize = width.trim().parse().ok()?;
    (height.trim().parse::<usize>().ok()? == width).then_some(width)
}

/// Whether `line` was meant as a move: a number, a comma, then nothing or a digit. Piskvork's
/// trailer is a result code (`-1`) and engine names; other writers add lines such as
/// `1,Freestyle`.
fn looks_like_a_move(line: &str) -> bool {
    line.split_once(',').is_some_and(|(first, rest)| {
        let rest = rest.trim_start();
        first.trim().parse::<i64>().is_ok()
            && (rest.is_empty() || rest.starts_with(|c: char| c.is_ascii_digit() || c == '-'))
    })
}

/// `x,y` or `x,y,ms`.
fn read_move(line: &str) -> Option<(usize, usize, Option<u64>)> {
    let mut fields = line.trim().split(',').map(str::trim);
    let x = fields.next()?.parse().ok()?;
    let y = fields.next()?.parse().ok()?;
    let millis = match fields.next() {
        Some(ms) => Some(ms.parse().ok()?),
        None => None,
    };
    fields.next().is_none().then_some((x, y, millis))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy;
    use wuzi_search::{Outcome, Player};

    #[test]
    fn reads_moves_until_the_trailer() {
        let text = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,120\n9,8,98\n\
                    10,10,0\n10,8,5\n11,11,3\n11,8,2\n12,12,1\n12,8,1\n-1\npbrain-a.exe\n";
        let record = read_psq(text, Rule::Freestyle).unwrap();
        assert_eq!(record.size, 15);
        assert_eq!(record.moves.len(), 9);
        assert_eq!(record.moves[0].point, Point::new(7, 7));
        assert_eq!(record.moves[1].millis(), Some(120));
        assert_eq!(record.result, Some(Outcome::Win(Player::First)));
    }

    #[test]
    fn malformed_files_say_where() {
        let error =
            read_psq("Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n", Rule::Freestyle).unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 3, column 1: move `8,8,0`: the point is occupied"
        );
        let error = read_psq("8,8,0\n", Rule::Freestyle).unwrap_err();
        assert!(
            error.to_string().contains("not a Piskvork header"),
            "{error}"
        );
        let error = read_psq("Piskvorky 15x15, 1:1, 0\n16,1,0\n", Rule::Freestyle).unwrap_err();
        assert!(error.to_string().starts_with("line 2"), "{error}");
        assert!(read_psq("Piskvorky 30x30, 1:1, 0\n", Rule::Freestyle).is_err());
        assert!(read_psq("", Rule::Freestyle).is_err());
        // Blank lines between the moves are nothing.
        let record = read_psq(
            "Piskvorky 15x15, 1:1, 0\n8,8,0\n\n9,9,0\n\n-1\n",
            Rule::Freestyle,
        );
        assert_eq!(record.unwrap().moves.len(), 2);
        // A broken last move is not taken for the trailer.
        for last in ["10,1O,100", "10,", "-1,1,0", "7,7,x"] {
            let text = format!("Piskvorky 15x15, 1:1, 0\n8,8,0\n9,9,0\n{last}\n-1\n");
            let error = read_psq(&text, Rule::Freestyle).unwrap_err();
            assert!(
                error
                    .to_string()
                    .contains(&format!("`{last}` is not a move")),
                "{error}"
            );
        }
        // A trailer line of a number and a name is still a trailer.
        let record = read_psq(
            "Piskvorky 15x15, 1:1, 0\n8,8,0\n9,9,0\n1,Freestyle\n",
            Rule::Freestyle,
        );
        assert_eq!(record.unwrap().moves.len(), 2);
        // A broken move line is not taken for the trailer when moves follow it.
        for text in [
            "Piskvorky 15x15, 1:1, 0\n8,8,0\nhello\n9,9,0\n",
            "Piskvorky 15x15, 1:1, 0\n-1,1,0\n8,8,0\n",
        ] {
            let error = read_psq(text, Rule::Freestyle).unwrap_err();
            assert!(error.to_string().contains("is not a move"), "{error}");
        }
        let error = read_psq(
            "Piskvorky 15x15, 1:1, 0\n8,8,0\nhello\n9,9,0\n",
            Rule::Freestyle,
        )
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 3, column 1: `hello` is not a move (`x,y` or `x,y,ms`), yet a move (`9,9,0`, \
             line 4) follows it"
        );
    }

    /// `Point::new` asserts below 22: a move past the largest board is an error first.
    #[test]
    fn moves_past_the_largest_board_are_errors() {
        let psq = |x: usize, y: usize| format!("Piskvorky 22x22, 11:11, 0\n{x},{y},0\n");
        for (x, y) in [(23, 1), (1, 23), (0, 5), (99999, 1)] {
            assert!(read_psq(&psq(x, y), Rule::Freestyle).is_err(), "{x},{y}");
        }
        assert!(read_psq(&psq(22, 22), Rule::Freestyle).is_ok());
    }

    proptest::proptest! {
        /// Headers of any size (none, huge, zero, not square), moves with any numbers, and
        /// whatever text after: a record or an error, never a panic; and a record read
        /// replays to its end (the module's promise).
        #[test]
        fn no_file_makes_the_psq_reader_panic(
            header in proptest::prop_oneof![
                3 => (5usize..9).prop_map(|n| format!("Piskvorky {n}x{n}, 11:11, 0")),
                1 => "\u{feff}?Piskvorky [0-9]{1,3}x[0-9]{1,3}, [0-9]{1,2}:[0-9]{1,2}, [01]",
                1 => "Piskvorky -?[0-9]{1,25}x-?[0-9]{1,25}\\PC{0,8}",
                1 => "\\PC{0,20}",
            ],
            moves in proptest::collection::vec(
                proptest::prop_oneof![
                    6 => (1usize..9, 1usize..9, 0u64..999).prop_map(|(x, y, ms)| format!("{x},{y},{ms}")),
                    1 => "[+-]?[0-9]{1,3} ?, ?[+-]?[0-9]{1,3}(,-?[0-9]{0,22})?",
                    1 => "\\PC{0,6}",
                ],
                0..40,
            ),
            rule in proptest::sample::select(Rule::ALL.to_vec()),
        ) {
            let text = format!("{header}\n{}", moves.join("\n"));
            if let Ok(record) = read_psq(&text, rule) {
                proptest::prop_assert!(record.final_position().is_ok());
            }
            let _ = crate::record::read_records("game.PSQ", &text, rule);
        }

        /// Whole games as Piskvork writes them (random moves seldom get far: they collide):
        /// distinct points in random order, replayed until one is refused. The record holds
        /// exactly the moves played before the game ended, with their times and the game's
        /// result, and counts the moves after the end; a refused move is the error, named by
        /// its line.
        #[test]
        fn written_games_read_back(
            (size, order) in (5usize..=12).prop_flat_map(|n| {
                (proptest::strategy::Just(n), proptest::strategy::Just((0..n * n).collect::<Vec<usize>>()).prop_shuffle())
            }),
            length in 0usize..150,
            trailer in proptest::bool::ANY,
            rule in proptest::sample::select(Rule::ALL.to_vec()),
        ) {
            let mut board = crate::Board::new(size, rule).unwrap();
            let mut text = format!("Piskvorky {size}x{size}, 11:11, 0\n");
            let mut played = Vec::new();
            let mut after_end = 0;
            let mut refused_line = None;
            for (i, &cell) in order.iter().take(length).enumerate() {
                let p = Point::new(cell % size, cell / size);
                text.push_str(&format!("{},{},{}\n", p.x() + 1, p.y() + 1, i * 7));
                if refused_line.is_none() {
                    if board.result().is_some() {
                        after_end += 1;
                    } else if board.try_play(p).is_ok() {
                        played.push(p);
                    } else {
                        refused_line = Some(i + 2);
                    }
                }
            }
            if trailer {
                text.push_str("-1\npbrain-a.exe\npbrain-b.exe\n");
            }
            match (read_psq(&text, rule), refused_line) {
                (Ok(record), None) => {
                    let points: Vec<Point> = record.moves.iter().map(|m| m.point).collect();
                    proptest::prop_assert_eq!(&points, &played);
                    proptest::prop_assert_eq!(record.after_end, after_end);
                    for (i, m) in record.moves.iter().enumerate() {
                        proptest::prop_assert_eq!(m.millis(), Some(i as u64 * 7));
                    }
                    proptest::prop_assert_eq!(
                        record.result,
                        board.result().map(|r| r.outcome())
                    );
                    proptest::prop_assert_eq!(
                        record.final_position().unwrap().hash(),
                        board.hash()
                    );
                }
                (Err(e), Some(line)) => {
                    let expected = format!("line {line}, column 1: move `");
                    proptest::prop_assert!(e.to_string().starts_with(&expected), "{}", e);
                }
                (got, line) => proptest::prop_assert!(false, "{:?} for the refused line {:?}", got.map(|r| r.moves.len()), line),
            }
        }
    }
}
