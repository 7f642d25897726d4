//! Where games start: opening files in the formats engine authors have, or balanced
//! openings generated on the fly.
//!
//! - `pos` (c-gomoku-cli): moves written together, `h8i9j7`, each a column letter (`a` =
//!   leftmost) and a 1-based row counted from the TOP (c-gomoku-cli's README: "offset from the
//!   upper-left corner"; its parser takes y = number - 1 in Gomocup coordinates), so `a1` is
//!   Gomocup `0,0`, and wuzi's `a15` on 15x15.
//! - `offset` (Gomocup): `x,y, x,y, ...` offsets from the centre `floor(size/2)`, y downwards.
//! - `wuzi`: wuzi's own move lists (`h8 i9`, rows from the bottom, or `7,7 8,8`).
//!
//! Every opening is Black first, colours alternating; empty lines and `#` comments are skipped.

use std::path::Path;
use std::str::FromStr;
use wuzi_gomoku::{
    parse_moves, Board, Engine, EngineOptions, EvalKind, Point, Rule, SearchParams, MAX_SIZE,
};
use wuzi_search::Limits;

/// How the lines of an opening file are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum OpeningFormat {
    /// `offset` when a line holds only numbers, `pos` when it has letters written together,
    /// `wuzi` when it has letters and spaces (`h8 i9`: wuzi's own move lists).
    Auto,
    Pos,
    Offset,
    Wuzi,
}

impl FromStr for OpeningFormat {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(OpeningFormat::Auto),
            "pos" => Ok(OpeningFormat::Pos),
            "offset" => Ok(OpeningFormat::Offset),
            "wuzi" => Ok(OpeningFormat::Wuzi),
            _ => Err(format!(
                "opening format \"{s}\" is not auto, pos, offset or wuzi"
            )),
        }
    }
}

/// The characters of a bad line an error quotes.
const QUOTED_CHARS: usize = 60;

/// Reads every opening of a file; an error names the file and the 1-based line.
pub fn read_openings(
    path: &Path,
    format: OpeningFormat,
    size: usize,
    rule: Rule,
) -> Result<Vec<Vec<Point>>, String> {
    let bytes =
        std::fs::read(path).map_err(|e| format!("cannot read openings {}: {e}", path.display()))?;
    // Bytes that are not UTF-8 (a Latin-1 comment) are replaced, not fatal: a move line with
    // them is then an error that names its line.
    let text = String::from_utf8_lossy(&bytes);
    parse_openings(&text, &path.display().to_string(), format, size, rule)
}

/// Parses the text of an opening file named `name` (used in error messages).
pub fn parse_openings(
    text: &str,
    name: &str,
    format: OpeningFormat,
    size: usize,
    rule: Rule,
) -> Result<Vec<Vec<Point>>, String> {
    let mut out = Vec::new();
    // A file saved by a Windows editor may begin with a byte-order mark.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let opening = parse_line(line, format, size, rule).map_err(|e| {
            // A long line is quoted by its start: the error has said where in it to look.
            let quoted = match crate::lines::start_of(line, QUOTED_CHARS) {
                (start, true) => format!("{start}..."),
                (all, false) => all.to_string(),
            };
            format!("{name}:{}: {e} (line \"{quoted}\")", index + 1)
        })?;
        out.push(opening);
    }
    if out.is_empty() {
        return Err(format!("{name}: no openings in the file"));
    }
    Ok(out)
}

/// One line as moves, checked to be legal and to leave the game open.
pub fn parse_line(
    line: &str,
    format: OpeningFormat,
    size: usize,
    rule: Rule,
) -> Result<Vec<Point>, String> {
    let format = match format {
        OpeningFormat::Auto if line.chars().any(|c| c.is_ascii_alphabetic()) => {
            if line.split_whitespace().nth(1).is_some() {
                OpeningFormat::Wuzi
            } else {
                OpeningFormat::Pos
            }
        }
        OpeningFormat::Auto => OpeningFormat::Offset,
        f => f,
    };
    // The size first: the parsers below make points, which exist only on supported boards.
    let mut board = Board::new(size, rule).map_err(|e| e.to_string())?;
    let moves = match format {
        OpeningFormat::Pos => parse_pos(line, size)?,
        OpeningFormat::Offset => parse_offsets(line, size)?,
        _ => parse_moves(line, size).map_err(|e| e.to_string())?,
    };
    for (i, &p) in moves.iter().enumerate() {
        board
            .try_play(p)
            .map_err(|e| format!("move {} ({}): {e}", i + 1, p.to_gomocup()))?;
    }
    if let Some(result) = board.result() {
        return Err(format!(
            "the opening already ends the game ({})",
            result.reason.name()
        ));
    }
    Ok(moves)
}

/// c-gomoku-cli's `pos`: `h8i9`, rows 1-based from the top.
fn parse_pos(line: &str, size: usize) -> Result<Vec<Point>, String> {
    let bytes = line.as_bytes();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let letter = bytes[i].to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(format!(
                "move {}: expected a column letter at \"{}\"",
                moves.len() + 1,
                &line[i..]
            ));
        }
        let start = i + 1;
        let mut end = start;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        let row: usize = line[start..end].parse().map_err(|_| {
            format!(
                "move {}: no row number after '{}'",
                moves.len() + 1,
                letter as char
            )
        })?;
        let x = (letter - b'a') as usize;
        if x >= size || row == 0 || row > size {
            return Err(format!(
                "move {} \"{}\" is off the {size}x{size} board",
                moves.len() + 1,
                &line[i..end]
            ));
        }
        moves.push(Point::new(x, row - 1));
        i = end;
    }
    Ok(moves)
}

/// Gomocup offsets from the centre: `x,y, x,y, ...`.
fn parse_offsets(line: &str, size: usize) -> Result<Vec<Point>, String> {
    let numbers = line
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<i64>()
                .map_err(|_| format!("\"{s}\" is not a whole number"))
        })
        .collect::<Result<Vec<i64>, String>>()?;
    if numbers.len() % 2 != 0 {
        return Err(format!("{} numbers do not make x,y pairs", numbers.len()));
    }
    let centre = (size / 2) as i64;
    numbers
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            let (x, y) = (centre + pair[0], centre + pair[1]);
            let on = |v: i64| (0..size.min(MAX_SIZE) as i64).contains(&v);
            if on(x) && on(y) {
                Ok(Point::new(x as usize, y as usize))
            } else {
                Err(format!(
                    "move {} ({},{}) is off the {size}x{size} board",
                    i + 1,
                    pair[0],
                    pair[1]
                ))
            }
        })
        .collect()
}

/// A small deterministic generator (SplitMix64) for generated openings and shuffles.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n.max(1) as u64) as usize
    }

    /// Fisher-Yates shuffle.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i + 1);
            items.swap(i, j);
        }
    }
}

/// Stones in a generated opening: Black, White, Black, White, then Black to move.
const OPENING_STONES: usize = 4;

/// The fewest stones an opening of `source` puts on the board: a draw called at that many
/// stones or fewer would come before any engine moved, in every game.
pub fn shortest_opening(source: &super::OpeningSource) -> usize {
    match source {
        super::OpeningSource::List(list) => list.iter().map(Vec::len).min().unwrap_or(0),
        super::OpeningSource::Generated(_) => OPENING_STONES,
    }
}
/// How far from even a generated opening may be, by a shallow search from the side to
/// move's view. Freestyle favours Black so much that random openings are mostly won for
/// Black, and a pair of games with colours swapped then ends 1-1 whoever plays better.
const OPENING_BALANCE: i32 = 40;

/// The search that judges a generated opening, frozen (as its evaluation is) so that the
/// openings, and the bound above, stay the same when the engine's defaults change: razoring,
/// added later, skews depth-4 scores so far that no renju opening passed.
const JUDGE_PARAMS: SearchParams = SearchParams {
    lmr_min_depth: 3,
    lmr_first_move: 2,
    lmr_base: 50,
    lmr_divisor: 200,
    lmr_cut: 1,
    rfp_max_depth: 4,
    rfp_margin: 40,
    rfp_halfway: 0,
    mcp_max_depth: 4,
    mcp_base: 2,
    mcp_power: 200,
    mcp_improving: 0,
    rfp_improving: 0,
    aspiration_depth: 5,
    aspiration_delta: 30,
    soft_time_share: 80,
    stable_iterations: 3,
    time_horizon: 30,
    time_extension: 100,
    unsettled_time_share: 100,
    block_extension: 1,
    quiescence_plies: 8,
    stop_shape: 7,
    double_threat_defence: 1,
    iir_depth: 5,
    razor_max_depth: 0,
    razor_margin: 60,
    pv_raise_max_depth: 0,
    se_min_depth: 0,
    se_margin: 2,
    lmr_threatened: 0,
    lmr_important: 0,
    mcp_important_depth: 0,
    history_divisor: 0,
    history_bonus: 16,
    root_width: 0,
    lost_to_three: 0,
};

/// Distinct balanced openings of four stones within the central 7x7, made one at a time so a
/// long SPRT run does not wait for thousands up front. The same seed gives the same list.
pub struct BalancedOpenings {
    size: usize,
    rule: Rule,
    rng: Rng,
    made: Vec<Vec<Point>>,
}

impl BalancedOpenings {
    pub fn new(size: usize, rule: Rule, seed: u64) -> BalancedOpenings {
        BalancedOpenings {
            size,
            rule,
            rng: Rng(seed),
            made: Vec::new(),
        }
    }

    /// The next opening, or `None` when the board has no room for another distinct one.
    pub fn next_opening(&mut self) -> Option<Vec<Point>> {
        let centre = self.size / 2;
        let reach = 3.min(centre);
        for _ in 0..2000 {
            let mut board = Board::new(self.size, self.rule).ok()?;
            let mut moves = Vec::new();
            while moves.len() < OPENING_STONES {
                let x = centre + self.rng.below(2 * reach + 1) - reach;
                let y = centre + self.rng.below(2 * reach + 1) - reach;
                let p = Point::new(x, y);
                if board.try_play(p).is_ok() {
                    moves.push(p);
                }
            }
            if board.result().is_some() || self.made.contains(&moves) {
                continue;
            }
            // The classic evaluation judges the balance whatever the engine's default, so the
            // generated openings stay the same list (and on the scale OPENING_BALANCE assumes).
            let options = EngineOptions {
                table_bytes: 1 << 20,
                eval: EvalKind::Classic,
                max_candidates: 12,
                params: JUDGE_PARAMS,
                ..EngineOptions::default()
            };
            let verdict = Engine::new(board, options).go(&Limits::depth(4), |_| {});
            if verdict.forced().is_none() && verdict.score.value().abs() <= OPENING_BALANCE {
                self.made.push(moves.clone());
                return Some(moves);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_openings_are_distinct_and_repeatable() {
        let make = |seed| {
            let mut g = BalancedOpenings::new(15, Rule::Renju, seed);
            (0..20)
                .map(|_| g.next_opening().unwrap())
                .collect::<Vec<_>>()
        };
        let list = make(7);
        assert_eq!(list, make(7));
        for (i, a) in list.iter().enumerate() {
            assert!(!list[i + 1..].contains(a));
        }
    }

    #[test]
    fn every_rule_gets_openings() {
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let mut g = BalancedOpenings::new(15, rule, 1);
            for i in 0..10 {
                assert!(g.next_opening().is_some(), "{rule:?}: opening {i}");
            }
        }
    }

    /// Found by the property test below: `w1` for a 23x23 board (no board is that large) made
    /// the point x 22, beyond every board, and `Point::new` panicked.
    #[test]
    fn a_size_no_board_has_is_an_error() {
        for format in [OpeningFormat::Auto, OpeningFormat::Pos, OpeningFormat::Wuzi] {
            let e = parse_openings("w1", "f", format, 23, Rule::Freestyle).unwrap_err();
            assert!(e.contains("board size 23"), "{e}");
        }
    }

    /// A long bad line is quoted by its start, not echoed whole.
    #[test]
    fn a_long_bad_line_is_quoted_by_its_start() {
        let line = format!("h8h8{}", "i9".repeat(100));
        let error =
            parse_openings(&line, "o.txt", OpeningFormat::Auto, 15, Rule::Freestyle).unwrap_err();
        assert!(error.starts_with("o.txt:1: move 2 (7,7): "), "{error}");
        assert!(
            error.ends_with(&format!("(line \"h8h8{}...\")", "i9".repeat(28))),
            "{error}"
        );
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_line() {
        let text = "\u{feff}0,0, 1,1\n0,0, -1,1, 1,0\n";
        let openings = parse_openings(text, "f", OpeningFormat::Auto, 15, Rule::Freestyle);
        assert_eq!(openings.unwrap().len(), 2);
    }

    /// A Latin-1 comment does not make the file unreadable, and a Latin-1 byte in a move line
    /// is an error on that line (both were "stream did not contain valid UTF-8").
    #[test]
    fn bytes_that_are_not_utf8_are_read_past() {
        let dir = std::env::temp_dir().join(format!("wuzi-openings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("o.txt");
        std::fs::write(&file, b"# caf\xe9\nh8i9\n").unwrap();
        let read = read_openings(&file, OpeningFormat::Auto, 15, Rule::Freestyle);
        assert_eq!(read.unwrap().len(), 1);
        std::fs::write(&file, b"h8i9\nh8\xe9\n").unwrap();
        let error = read_openings(&file, OpeningFormat::Auto, 15, Rule::Freestyle).unwrap_err();
        assert!(error.contains("o.txt:2: "), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Lines as opening files have them, some broken: moves in each format (letters, digits,
    /// signs, separators), comments, and any other text.
    fn opening_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let line = prop_oneof![
            "([a-zA-Z][0-9]{0,3}){0,8}",
            "(-?[0-9]{1,3}[, ]{1,2}){0,10}",
            "([a-z][0-9]{1,2} ?){0,8}",
            "(#|\\s)\\PC{0,10}",
            "\\PC{0,20}",
            "[a-z0-9,+\\- ]{0,20}",
        ];
        proptest::collection::vec(line, 0..8).prop_map(|lines| lines.join("\n"))
    }

    proptest::proptest! {
        /// Whatever the text and size, reading gives openings or an error, never a panic; and
        /// every opening read is on the board, playable, and leaves the game open.
        #[test]
        fn no_text_makes_the_opening_reader_panic(
            text in opening_text(),
            format in proptest::sample::select(vec![
                OpeningFormat::Auto,
                OpeningFormat::Pos,
                OpeningFormat::Offset,
                OpeningFormat::Wuzi,
            ]),
            size in proptest::prop_oneof![5usize..23, 0usize..40],
            rule in proptest::sample::select(Rule::ALL.to_vec()),
        ) {
            if let Ok(openings) = parse_openings(&text, "f", format, size, rule) {
                for moves in openings {
                    let mut board = Board::new(size, rule).unwrap();
                    for p in moves {
                        proptest::prop_assert!(board.try_play(p).is_ok());
                    }
                    proptest::prop_assert!(board.result().is_none());
                }
            }
        }
    }

    /// `points` written as one line of `format`, as the tools that write each format do.
    fn write_line(points: &[Point], format: OpeningFormat, size: usize) -> String {
        let centre = (size / 2) as i64;
        let each = points.iter().map(|p| match format {
            OpeningFormat::Pos => format!("{}{}", (b'a' + p.x() as u8) as char, p.y() + 1),
            OpeningFormat::Offset => {
                format!("{},{}", p.x() as i64 - centre, p.y() as i64 - centre)
            }
            _ => p.to_human(size),
        });
        let separator = match format {
            OpeningFormat::Pos => "",
            OpeningFormat::Offset => ", ",
            _ => " ",
        };
        each.collect::<Vec<_>>().join(separator)
    }

    proptest::proptest! {
        /// Files of well-formed lines (the random text above seldom gets past its first
        /// line): distinct points written in each format read back as exactly those points
        /// when they are a legal, unfinished opening, and otherwise fail naming their line.
        #[test]
        fn written_openings_read_back(
            size in 5usize..=MAX_SIZE,
            lines in proptest::collection::vec(
                proptest::collection::vec((0usize..MAX_SIZE, 0usize..MAX_SIZE), 0..9),
                1..6,
            ),
            format in proptest::sample::select(vec![
                OpeningFormat::Pos,
                OpeningFormat::Offset,
                OpeningFormat::Wuzi,
            ]),
            auto in proptest::bool::ANY,
            rule in proptest::sample::select(Rule::ALL.to_vec()),
        ) {
            let mut text = String::from("# openings\n");
            let mut expected = Vec::new();
            let mut first_bad = None;
            for (line, raw) in lines.iter().enumerate() {
                let mut points: Vec<Point> = Vec::new();
                for &(x, y) in raw {
                    let p = Point::new(x % size, y % size);
                    if !points.contains(&p) {
                        points.push(p);
                    }
                }
                text.push_str(&write_line(&points, format, size));
                text.push('\n');
                if points.is_empty() {
                    continue; // an empty line, skipped
                }
                let mut board = Board::new(size, rule).unwrap();
                let legal = points.iter().all(|&p| board.try_play(p).is_ok())
                    && board.result().is_none();
                if !legal && first_bad.is_none() {
                    // The header comment is line 1, so this line is `line + 2`.
                    first_bad = Some(line + 2);
                }
                expected.push(points);
            }
            // Pos lines with one move hold no space, so auto reads them as pos; a wuzi line
            // of one move is then misread, so auto is tried on the other formats only.
            let read_as = if auto && format != OpeningFormat::Wuzi {
                OpeningFormat::Auto
            } else {
                format
            };
            match (parse_openings(&text, "f", read_as, size, rule), first_bad) {
                (Ok(read), None) => proptest::prop_assert_eq!(read, expected),
                (Err(e), None) if expected.is_empty() => {
                    proptest::prop_assert_eq!(e, "f: no openings in the file")
                }
                (Err(e), Some(line)) => {
                    proptest::prop_assert!(e.starts_with(&format!("f:{line}:")), "{}", e)
                }
                (got, bad) => proptest::prop_assert!(false, "{:?} for the bad line {:?}\n{}", got, bad, text),
            }
        }
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut v: Vec<u32> = (0..50).collect();
        Rng(3).shuffle(&mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        assert_ne!(v, sorted);
    }
}
