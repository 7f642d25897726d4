//! Coordinates and move lists in both notations of `notation.md`:
//! human `h8` (column letter from the left, row number from the bottom) and Gomocup `7,7`
//! (0-based x from the left, 0-based y from the top).

use std::fmt;

/// The smallest board side.
pub const MIN_SIZE: usize = 5;
/// The largest board side (columns `a`..`v`).
pub const MAX_SIZE: usize = 22;

/// A point of the board, stored as `y * MAX_SIZE + x` in Gomocup coordinates so that it means
/// the same on every board size and fits a dense table index.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u16);

impl Point {
    /// The point at column `x` (from the left) and row `y` (from the top), both 0-based.
    /// Both must be below [`MAX_SIZE`] (it panics otherwise): for coordinates from outside,
    /// a click or a file, see [`Point::on`].
    pub const fn new(x: usize, y: usize) -> Point {
        assert!(x < MAX_SIZE && y < MAX_SIZE);
        Point((y * MAX_SIZE + x) as u16)
    }

    /// The point at column `x` and row `y` (0-based, from the top left) if it lies on a
    /// `size` x `size` board, else `None`.
    pub fn on(x: usize, y: usize, size: usize) -> Option<Point> {
        (x < size.min(MAX_SIZE) && y < size.min(MAX_SIZE)).then(|| Point::new(x, y))
    }

    /// 0-based column from the left.
    pub const fn x(self) -> usize {
        self.0 as usize % MAX_SIZE
    }

    /// 0-based row from the top.
    pub const fn y(self) -> usize {
        self.0 as usize / MAX_SIZE
    }

    /// A dense index below `MAX_SIZE * MAX_SIZE`, the same on every board size.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The inverse of [`Point::index`]; `None` when out of range.
    pub fn from_index(index: usize) -> Option<Point> {
        (index < MAX_SIZE * MAX_SIZE).then_some(Point(index as u16))
    }

    /// The point of a [`Point::index`] the caller knows to be in range (checked in debug
    /// builds): for hot loops that walk the board's rows by bit.
    #[inline(always)]
    pub(crate) fn at_index(index: usize) -> Point {
        debug_assert!(index < MAX_SIZE * MAX_SIZE);
        Point(index as u16)
    }

    /// True when the point lies on a `size` x `size` board.
    pub fn on_board(self, size: usize) -> bool {
        self.x() < size && self.y() < size
    }

    /// Human notation on a `size` board: `h8` is `7,7` on 15x15. A point off that board has
    /// no such name (its row would be below 1), so it is written `x,y` instead.
    pub fn to_human(self, size: usize) -> String {
        if !self.on_board(size) {
            return self.to_gomocup();
        }
        let col = (b'a' + self.x() as u8) as char;
        format!("{col}{}", size - self.y())
    }

    /// Gomocup notation: `x,y`.
    pub fn to_gomocup(self) -> String {
        format!("{},{}", self.x(), self.y())
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Point({},{})", self.x(), self.y())
    }
}

/// Why one move of a list was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MoveListError {
    /// 0-based position of the move in the list.
    pub index: usize,
    /// The move as written (its start, when it is long).
    pub text: String,
    /// What is wrong with it.
    pub problem: String,
    /// Where the move starts in the text the list was read from, in bytes (0 when the moves
    /// were not one text).
    pub offset: usize,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} (1-based) \"{}\": {}",
            self.index + 1,
            self.text,
            self.problem
        )
    }
}

impl std::error::Error for MoveListError {}

/// Parses one point in either notation (`h8`, `H8`, `7,7`) on a `size` board.
pub fn parse_point(text: &str, size: usize) -> Result<Point, String> {
    let moves = parse_moves(text, size).map_err(|e| e.problem)?;
    match moves.as_slice() {
        [p] => Ok(*p),
        _ => Err(format!("\"{}\" is not a single point", text.trim())),
    }
}

/// How much of a bad move an error quotes.
const QUOTED_CHARS: usize = 24;

/// Parses a move list: `h8 i9 h9`, `h8i9h9`, `h8,i9`, `7,7 8,6` (case-insensitive); move
/// numbers of a pasted list (`1. h8 i9 2. h9`) are skipped.
/// Checks syntax and that every point is on the board, nothing else (see
/// [`crate::Board::from_moves`] for legality).
pub fn parse_moves(text: &str, size: usize) -> Result<Vec<Point>, MoveListError> {
    Ok(parse_moves_with_text(text, size)?
        .into_iter()
        .map(|m| m.point)
        .collect())
}

/// One move of a list as it was written, for error messages.
pub(crate) struct WrittenMove {
    pub point: Point,
    pub text: String,
    /// Where it starts in the list's text, in bytes.
    pub offset: usize,
}

/// [`parse_moves`], keeping each move as written (for error messages).
pub(crate) fn parse_moves_with_text(
    text: &str,
    size: usize,
) -> Result<Vec<WrittenMove>, MoveListError> {
    if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
        return Err(MoveListError {
            index: 0,
            text: String::new(),
            problem: format!("board size {size} is not in {MIN_SIZE}..={MAX_SIZE}"),
            offset: 0,
        });
    }
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let is_sep = |b: u8| b.is_ascii_whitespace() || b == b',' || b == b';';
    loop {
        while i < bytes.len() && is_sep(bytes[i]) {
            i += 1;
        }
        if i >= bytes.len() {
            return Ok(out);
        }
        let start = i;
        let index = out.len();
        let err = |end: usize, problem: String| {
            // A long run of junk is quoted by its start, not echoed whole.
            let text = String::from_utf8_lossy(&bytes[start..end]);
            let text = match text.char_indices().nth(QUOTED_CHARS) {
                Some((cut, _)) => format!("{}...", &text[..cut]),
                None => text.into_owned(),
            };
            MoveListError {
                index,
                text,
                problem,
                offset: start,
            }
        };
        let digits = |mut j: usize| {
            let s = j;
            while j < bytes.len() && bytes[j].is_ascii_digit() {
                j += 1;
            }
            (s, j)
        };
        let number = |s: usize, e: usize| -> Option<usize> {
            if e == s || e - s > 3 {
                None
            } else {
                std::str::from_utf8(&bytes[s..e]).ok()?.parse().ok()
            }
        };
        if bytes[i].is_ascii_alphabetic() {
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            let (ds, de) = digits(i);
            i = de;
            if i < bytes.len() && !is_sep(bytes[i]) && !bytes[i].is_ascii_alphabetic() {
                while i < bytes.len() && !is_sep(bytes[i]) {
                    i += 1;
                }
                return Err(err(i, "not a move (expected e.g. h8 or 7,7)".into()));
            }
            if ds == de && ds - start > 1 {
                return Err(err(i, "not a move (expected e.g. h8 or 7,7)".into()));
            }
            if ds - start != 1 {
                return Err(err(i, "a column is a single letter".into()));
            }
            let Some(row) = number(ds, de) else {
                return Err(err(i, "missing or bad row number".into()));
            };
            let x = (bytes[start].to_ascii_lowercase() - b'a') as usize;
            if x >= size || row == 0 || row > size {
                return Err(err(i, format!("not on the {size}x{size} board")));
            }
            out.push(WrittenMove {
                point: Point::new(x, size - row),
                text: text[start..i].to_string(),
                offset: start,
            });
        } else if bytes[i].is_ascii_digit() {
            let (xs, xe) = digits(i);
            if xe < bytes.len() && bytes[xe] == b'.' {
                // A move number of a pasted list (`1. h8 i9 2. h9`, `1... i9`): skipped.
                i = xe;
                while i < bytes.len() && bytes[i] == b'.' {
                    i += 1;
                }
                continue;
            }
            let mut j = xe;
            while j < bytes.len() && bytes[j] == b' ' {
                j += 1;
            }
            if j >= bytes.len() || bytes[j] != b',' {
                return Err(err(xe, "expected \"x,y\"".into()));
            }
            j += 1;
            while j < bytes.len() && bytes[j] == b' ' {
                j += 1;
            }
            let (ys, ye) = digits(j);
            i = ye;
            if i < bytes.len() && !is_sep(bytes[i]) {
                while i < bytes.len() && !is_sep(bytes[i]) {
                    i += 1;
                }
                return Err(err(i, "not a move (expected e.g. h8 or 7,7)".into()));
            }
            let (Some(x), Some(y)) = (number(xs, xe), number(ys, ye)) else {
                return Err(err(i, "expected \"x,y\"".into()));
            };
            if x >= size || y >= size {
                return Err(err(i, format!("not on the {size}x{size} board")));
            }
            out.push(WrittenMove {
                point: Point::new(x, y),
                text: text[start..i].to_string(),
                offset: start,
            });
        } else {
            while i < bytes.len() && !is_sep(bytes[i]) {
                i += 1;
            }
            // Keep the slice on a char boundary for non-ASCII input.
            while i < bytes.len() && !text.is_char_boundary(i) {
                i += 1;
            }
            return Err(err(i, "not a move (expected e.g. h8 or 7,7)".into()));
        }
    }
}

/// Formats points in human notation separated by spaces (`h8 i9`), or in Gomocup notation
/// (`7,7 8,6`) when `gomocup` is set.
pub fn format_moves(points: &[Point], size: usize, gomocup: bool) -> String {
    let parts: Vec<String> = points
        .iter()
        .map(|p| {
            if gomocup {
                p.to_gomocup()
            } else {
                p.to_human(size)
            }
        })
        .collect();
    parts.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_point_from_outside_is_checked_against_the_board() {
        assert_eq!(Point::on(14, 0, 15), Some(Point::new(14, 0)));
        for (x, y, size) in [
            (15, 0, 15),
            (0, 15, 15),
            (22, 0, 22),
            (usize::MAX, 3, 22),
            (3, 3, 100),
        ] {
            assert_eq!(
                Point::on(x, y, size).is_some(),
                x < 22 && y < 22 && x < size && y < size
            );
        }
    }

    #[test]
    fn examples_from_notation_md() {
        let p = |s| parse_point(s, 15).unwrap();
        assert_eq!(p("h8"), Point::new(7, 7));
        assert_eq!(p("a15"), Point::new(0, 0));
        assert_eq!(p("a1"), Point::new(0, 14));
        assert_eq!(p("o1"), Point::new(14, 14));
        assert_eq!(p("J8"), Point::new(9, 7));
        assert_eq!(p("9,7"), Point::new(9, 7));
        assert_eq!(Point::new(9, 7).to_human(15), "j8");
        assert_eq!(Point::new(21, 0).to_human(22), "v22");
        assert_eq!(Point::new(9, 7).to_gomocup(), "9,7");
    }

    #[test]
    fn list_forms() {
        let a = parse_moves("h8 i9 h9 h10", 15).unwrap();
        assert_eq!(parse_moves("h8i9h9h10", 15).unwrap(), a);
        assert_eq!(parse_moves("H8,I9;h9  h10", 15).unwrap(), a);
        assert_eq!(parse_moves("7,7 8,6 7,6 7,5", 15).unwrap(), a);
        assert_eq!(parse_moves("7,7,8,6, 7, 6 7,5", 15).unwrap(), a);
        assert_eq!(parse_moves("  ", 15).unwrap(), vec![]);
        // A list pasted with its move numbers.
        assert_eq!(parse_moves("1. h8 i9 2. h9 h10", 15).unwrap(), a);
        assert_eq!(parse_moves("1.h8 i9\n2.h9 h10", 15).unwrap(), a);
        assert_eq!(parse_moves("1. h8 1... i9 2. h9 2... h10", 15).unwrap(), a);
        assert!(parse_point("1.", 15).is_err());
        assert_eq!(format_moves(&a, 15, false), "h8 i9 h9 h10");
        assert_eq!(format_moves(&a, 15, true), "7,7 8,6 7,6 7,5");
    }

    #[test]
    fn errors_name_the_move_and_index() {
        let e = parse_moves("xyzzy", 15).unwrap_err();
        assert_eq!(e.problem, "not a move (expected e.g. h8 or 7,7)");
        let junk = "q".repeat(100_000);
        let e = parse_moves(&junk, 15).unwrap_err();
        assert_eq!(e.text, format!("{}...", "q".repeat(24)));
        let e = parse_moves("h8 i9 p3 h10", 15).unwrap_err();
        assert_eq!((e.index, e.text.as_str()), (2, "p3"));
        assert!(e.to_string().contains("move 3 (1-based) \"p3\""), "{e}");
        for bad in [
            "h0", "h16", "15,0", "7", "7,", "hh8", "h", "é9", "7,7x", "h9999",
        ] {
            let e = parse_moves(&format!("a1 {bad}"), 15).unwrap_err();
            assert_eq!(e.index, 1, "{bad}");
        }
        assert!(parse_point("h8 h9", 15).is_err());
        assert!(parse_point("", 15).is_err());
    }

    /// `Point::new` asserts below `MAX_SIZE`: a coordinate past the largest board is an error
    /// before it gets there.
    #[test]
    fn coordinates_past_the_largest_board_are_errors() {
        for bad in ["w1", "z1", "a23", "a999", "22,0", "0,22", "999,999", "v0"] {
            let e = parse_moves(bad, MAX_SIZE).unwrap_err();
            assert!(
                e.problem.contains("board") || e.problem.contains("row"),
                "{bad}: {e}"
            );
        }
        assert_eq!(parse_point("v22", MAX_SIZE), Ok(Point::new(21, 0)));
        assert_eq!(parse_point("21,21", MAX_SIZE), Ok(Point::new(21, 21)));
    }

    #[test]
    fn a_point_off_the_board_is_named_in_numbers() {
        assert_eq!(Point::new(7, 7).to_human(15), "h8");
        assert_eq!(Point::new(0, 14).to_human(15), "a1");
        assert_eq!(Point::new(3, 16).to_human(15), "3,16");
        assert_eq!(Point::new(16, 3).to_human(15), "16,3");
    }

    /// Text a user might type for a move list, or not: mostly moves in either notation
    /// (on the board or off it, with long or huge numbers), else anything.
    fn move_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let token = prop_oneof![
            4 => "[a-zA-Z][0-9]{1,2}",
            3 => "[0-9]{1,2} ?, ?[0-9]{1,2}",
            1 => "[a-zA-Z]{0,3}[0-9]{0,25}",
            1 => "[0-9+-]{0,25},[0-9+-]{0,25}",
            1 => "\\PC{0,4}",
        ];
        prop_oneof![
            4 => proptest::collection::vec((token, "[ ,;\t]{0,2}"), 0..8)
                .prop_map(|parts| parts.into_iter().map(|(t, s)| t + &s).collect()),
            1 => "\\PC{0,30}",
            1 => "[a-z0-9, ;]{0,40}",
        ]
    }

    proptest::proptest! {
        /// Any text on any board size gives moves or an error, never a panic. Moves are on the
        /// board, and read back the same from both written forms; one point read alone reads
        /// back from its own name.
        #[test]
        fn any_text_parses_or_errs_and_moves_round_trip(
            text in move_text(),
            size in proptest::prop_oneof![3 => MIN_SIZE..=MAX_SIZE, 1 => 0usize..40],
        ) {
            match parse_moves(&text, size) {
                Ok(points) => {
                    proptest::prop_assert!(points.iter().all(|p| p.on_board(size)));
                    for gomocup in [false, true] {
                        let written = format_moves(&points, size, gomocup);
                        let again = parse_moves(&written, size);
                        proptest::prop_assert_eq!(again, Ok(points.clone()), "{:?}", written);
                    }
                }
                Err(e) => proptest::prop_assert!(!e.problem.is_empty()),
            }
            if let Ok(p) = parse_point(&text, size) {
                proptest::prop_assert_eq!(parse_point(&p.to_human(size), size), Ok(p));
                proptest::prop_assert_eq!(parse_point(&p.to_gomocup(), size), Ok(p));
            }
        }
    }
}
