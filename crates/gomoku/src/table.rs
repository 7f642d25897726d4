//! Builds the shape tables once: for every window state (10 cells, each empty, own or
//! blocked), the [`Shape`] a stone on the middle point makes. Built by dynamic programming:
//! a state's shape follows from the shapes of the states with one more own stone, which have
//! larger indices and so are done first.
//!
//! From those the board's hot update reads a fused table per rule ([`FusedTable`]): both
//! colours' shapes at once, keyed by the cells around the point at two bits each.

use crate::pattern::{state_index, Shape, REACH, STATES, WINDOW};
use crate::rules::Rule;
use std::sync::OnceLock;
use wuzi_search::Player;

const EMPTY: u8 = 0;
const OWN: u8 = 1;

/// Shape tables, indexed by [`crate::pattern::state_index`].
pub(crate) type ShapeTable = [u8; STATES];

/// The table for "five or more wins" (`exact == false`) or "exactly five wins".
pub(crate) fn table(exact: bool) -> &'static ShapeTable {
    static FREE: OnceLock<Box<ShapeTable>> = OnceLock::new();
    static EXACT: OnceLock<Box<ShapeTable>> = OnceLock::new();
    let cell = if exact { &EXACT } else { &FREE };
    cell.get_or_init(|| build(exact))
}

/// Both colours' shapes at once, for the board's hot update: indexed by the window of
/// `radius` cells on each side of the point (the point itself left out), two bits a cell
/// (empty 0, [`CELL_BLACK`], [`CELL_WHITE`], [`CELL_WALL`]) in line order from the
/// low bits; each entry holds Black's shape in its low nibble and White's
/// in its high one. One lookup replaces two ternary encodings and two table reads.
pub(crate) struct FusedTable {
    /// 4 in freestyle (a five or more through the point lies within 4 of it), 5 when
    /// exactness matters.
    pub radius: usize,
    /// Sized for the largest radius whatever the rule, so that a masked index needs no
    /// bounds check; with radius 4 only the first 4^8 entries are used (the rest are never
    /// touched, so the memory is not committed).
    entries: Box<[u8; FUSED_ENTRIES]>,
}

/// Entries of a fused table of radius [`REACH`]: two bits for each of `2 * REACH` cells.
const FUSED_ENTRIES: usize = 1 << (4 * REACH);

/// The two-bit cell values of a line key (an empty cell is 0).
pub(crate) const CELL_BLACK: u64 = 1;
pub(crate) const CELL_WHITE: u64 = 2;
pub(crate) const CELL_WALL: u64 = 3;

impl FusedTable {
    /// The entry of the window centred on the cell at `centre` (in cells) of a line key;
    /// `R` is the table's radius, a constant so that the masks are.
    #[inline(always)]
    pub fn lookup<const R: usize>(&self, line_key: u64, centre: usize) -> u8 {
        debug_assert_eq!(R, self.radius);
        let r = R;
        let w = line_key >> (2 * (centre - r));
        let side = (1u64 << (2 * r)) - 1;
        let index = (w & side) | ((w >> (2 * r + 2)) & side) << (2 * r);
        self.entries[index as usize]
    }
}

/// The fused table of a rule, built on first use.
pub(crate) fn fused(rule: Rule) -> &'static FusedTable {
    static TABLES: [OnceLock<FusedTable>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    let i = match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 2,
    };
    TABLES[i].get_or_init(|| build_fused(rule))
}

fn build_fused(rule: Rule) -> FusedTable {
    let radius = if rule == Rule::Freestyle { 4 } else { REACH };
    let (black, white) = (
        table(rule.exact_five(Player::First)),
        table(rule.exact_five(Player::Second)),
    );
    let cells = 2 * radius;
    let mut entries: Box<[u8; FUSED_ENTRIES]> = vec![0u8; FUSED_ENTRIES]
        .into_boxed_slice()
        .try_into()
        .expect("FUSED_ENTRIES entries");
    // The cells holding `cell` (black, white or wall) of a fused index as a window mask
    // (bit REACH is the point); cells beyond `radius` stay empty, which is what they are to
    // a rule that does not look at them.
    let mask = |index: usize, cell: u64| {
        let (lo, hi) = (index & 0x55555, (index >> 1) & 0x55555);
        let spread = match cell {
            CELL_BLACK => lo & !hi,
            CELL_WHITE => hi & !lo,
            _ => lo & hi,
        };
        // Every other bit, packed: cell i of the index becomes bit i.
        let mut cells = spread as u32;
        cells = (cells | cells >> 1) & 0x3333_3333;
        cells = (cells | cells >> 2) & 0x0F0F_0F0F;
        cells = (cells | cells >> 4) & 0x00FF_00FF;
        cells = (cells | cells >> 8) & 0x0000_FFFF;
        let side = (1 << radius) - 1;
        (cells & side) << (REACH - radius) | (cells >> radius) << (REACH + 1)
    };
    for (index, entry) in entries.iter_mut().take(1 << (2 * cells)).enumerate() {
        let (b, w, wall) = (
            mask(index, CELL_BLACK),
            mask(index, CELL_WHITE),
            mask(index, CELL_WALL),
        );
        let sb = black[state_index(b, w | wall)];
        let sw = white[state_index(w, b | wall)];
        *entry = sb | sw << 4;
    }
    FusedTable { radius, entries }
}

/// The 11 cells of a state: the window with the point (own) in the middle.
fn decode(mut index: usize) -> [u8; WINDOW + 1] {
    let mut line = [EMPTY; WINDOW + 1];
    for (i, cell) in line.iter_mut().enumerate() {
        if i == REACH {
            *cell = OWN;
            continue;
        }
        *cell = (index % 3) as u8;
        index /= 3;
    }
    line
}

/// Length of the run of own stones through the middle.
fn run(line: &[u8; WINDOW + 1]) -> usize {
    let mut l = REACH;
    while l > 0 && line[l - 1] == OWN {
        l -= 1;
    }
    let mut r = REACH;
    while r < WINDOW && line[r + 1] == OWN {
        r += 1;
    }
    r - l + 1
}

fn is_five(run: usize, exact: bool) -> bool {
    if exact {
        run == 5
    } else {
        run >= 5
    }
}

fn build(exact: bool) -> Box<ShapeTable> {
    let mut t: Box<ShapeTable> = vec![0u8; STATES].into_boxed_slice().try_into().unwrap();
    let pow3: Vec<usize> = (0..WINDOW).map(|i| 3usize.pow(i as u32)).collect();
    for index in (0..STATES).rev() {
        let mut line = decode(index);
        let r = run(&line);
        let shape = if is_five(r, exact) {
            Shape::Five
        } else if r > 5 {
            Shape::Overline
        } else {
            // Fives through the point lie within 4 of it.
            let mut fives = [0usize; 2 * REACH];
            let mut nf = 0;
            let mut next = [Shape::None; 2 * REACH];
            let mut nn = 0;
            for q in 1..WINDOW {
                if q == REACH || line[q] != EMPTY {
                    continue;
                }
                line[q] = OWN;
                if is_five(run(&line), exact) {
                    fives[nf] = q;
                    nf += 1;
                }
                line[q] = EMPTY;
                let digit = if q < REACH { q } else { q - 1 };
                next[nn] = Shape::from_u8(t[index + pow3[digit]]);
                nn += 1;
            }
            let fives = &fives[..nf];
            let next = &next[..nn];
            let has = |s: Shape| next.contains(&s);
            if nf >= 2 {
                let straight = fives.iter().any(|&a| {
                    fives.contains(&(a + 5)) && line[a + 1..a + 5].iter().all(|&c| c == OWN)
                });
                if straight {
                    Shape::OpenFour
                } else {
                    Shape::FourFour
                }
            } else if nf == 1 {
                Shape::Four
            } else if has(Shape::OpenFour) {
                Shape::OpenThree
            } else if has(Shape::Four) || has(Shape::FourFour) {
                Shape::Three
            } else if has(Shape::OpenThree) {
                Shape::OpenTwo
            } else if has(Shape::Three) {
                Shape::Two
            } else if has(Shape::Two) || has(Shape::OpenTwo) {
                Shape::One
            } else {
                Shape::None
            }
        };
        t[index] = shape as u8;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a window drawn as 11 chars: `X` own, `O` blocked, `.` empty, `*` the point.
    fn shape(exact: bool, s: &str) -> Shape {
        let (mut own, mut blk) = (0u32, 0u32);
        assert_eq!(s.len(), 11);
        for (i, c) in s.chars().enumerate() {
            match c {
                'X' => own |= 1 << i,
                'O' | '|' => blk |= 1 << i,
                '.' | '*' => {}
                _ => panic!("bad char {c}"),
            }
        }
        Shape::from_u8(table(exact)[state_index(own, blk)])
    }

    #[test]
    fn freestyle_ignores_the_outermost_cells() {
        // In freestyle every five through the point lies within 4, so cells at distance 5
        // never matter; the board relies on this to update only 4 cells each way.
        let t = table(false);
        for index in 0..STATES {
            let d = decode(index);
            for edge in [0, WINDOW] {
                for v in 0..3u8 {
                    let mut other = d;
                    other[edge] = v;
                    let (mut own, mut blk) = (0u32, 0u32);
                    for (i, &c) in other.iter().enumerate() {
                        if i == REACH {
                            continue;
                        }
                        match c {
                            1 => own |= 1 << i,
                            2 => blk |= 1 << i,
                            _ => {}
                        }
                    }
                    assert_eq!(t[index], t[state_index(own, blk)]);
                }
            }
        }
    }

    #[test]
    fn the_fused_table_agrees_with_the_shape_tables() {
        // Every window of 5 cells a side (the point in the middle), each cell empty, black,
        // white or a wall, read both ways, for each rule.
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            let f = fused(rule);
            let tables = [
                table(rule.exact_five(Player::First)),
                table(rule.exact_five(Player::Second)),
            ];
            for cells in 0..1u64 << (2 * WINDOW) {
                let (mut key, mut b, mut w, mut wall) = (0u64, 0u32, 0u32, 0u32);
                for (n, i) in (0..=WINDOW).filter(|&i| i != REACH).enumerate() {
                    let cell = (cells >> (2 * n)) & 3;
                    key |= cell << (2 * i);
                    match cell {
                        CELL_BLACK => b |= 1 << i,
                        CELL_WHITE => w |= 1 << i,
                        CELL_WALL => wall |= 1 << i,
                        _ => {}
                    }
                }
                let both = if f.radius == 4 {
                    f.lookup::<4>(key, REACH)
                } else {
                    f.lookup::<REACH>(key, REACH)
                };
                assert_eq!(
                    both & 15,
                    tables[0][state_index(b, w | wall)],
                    "{rule} {cells:x}"
                );
                assert_eq!(
                    both >> 4,
                    tables[1][state_index(w, b | wall)],
                    "{rule} {cells:x}"
                );
            }
        }
    }

    #[test]
    fn samples() {
        use Shape::*;
        let cases: &[(&str, Shape, Shape)] = &[
            // (window, freestyle, exact)
            ("...XX*XX...", Five, Five),
            ("..XXX*XX...", Five, Overline),
            (".XXXX*.....", Five, Five),
            ("XXXXX*.....", Five, Overline),
            ("....X*XX...", OpenFour, OpenFour),
            ("...OX*XX...", Four, Four),
            ("..X.X*X....", Four, Four),
            ("X.XXX*.....", OpenFour, Four),
            ("...X.*XXX..", OpenFour, Four),
            ("..X.X*X.X..", FourFour, FourFour),
            ("...XX*.XX..", Four, Three),
            (".XX.X*.XX..", FourFour, FourFour),
            ("....X*X....", OpenThree, OpenThree),
            ("...OX*X....", Three, Three),
            ("....X.*X...", OpenThree, OpenThree),
            ("...X.*X.X..", OpenThree, Three),
            ("|...X*X..O.", OpenThree, OpenThree),
            ("|..OX*X..O.", Three, Three),
            (".....*X....", OpenTwo, OpenTwo),
            ("....O*X....", Two, Two),
            (".....*.....", One, One),
            ("...O.*..O..", None, None),
            ("..O..*....O", One, One),
        ];
        for &(w, free, exact) in cases {
            assert_eq!(shape(false, w), free, "freestyle {w}");
            assert_eq!(shape(true, w), exact, "exact {w}");
        }
    }
}
