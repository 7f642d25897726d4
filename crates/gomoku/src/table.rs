//! Builds the shape tables once: for every window state (10 cells, each empty, own or
//! blocked), the [`Shape`] a stone on the middle point makes. Built by dynamic programming:
//! a state's shape follows from the shapes of the states with one more own stone, which have
//! larger indices and so are done first.

use crate::pattern::{Shape, REACH, STATES, WINDOW};
use std::sync::OnceLock;

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
    use crate::pattern::state_index;

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
