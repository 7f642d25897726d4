//! Pattern codes: the four line shapes through an empty point folded into one number.
//!
//! The code is the index of the sorted multiset of the four shapes (1001 of them for 11
//! shapes), so a point's value does not depend on which line holds which shape. The board
//! keeps, per colour and point, the direction-ordered key `s0 + 11 s1 + 121 s2 + 1331 s3`
//! (cheap to update one digit at a time); [`code_of_key`] turns it into the code.

use crate::pattern::{Shape, SHAPE_COUNT};

/// The number of distinct codes: multisets of 4 shapes out of 11, C(14, 4).
pub const CODES: usize = 1001;
/// The number of direction-ordered keys, 11^4.
pub(crate) const KEYS: usize = SHAPE_COUNT * SHAPE_COUNT * SHAPE_COUNT * SHAPE_COUNT;
/// What one unit of a shape in direction `d` adds to a key.
pub(crate) const KEY_STEP: [u16; 4] = [1, 11, 121, 1331];

/// The keys rounded up to a power of two, so that a masked index needs no bounds check.
const KEY_SPACE: usize = KEYS.next_power_of_two();

/// `CODE[key]`: the code of a direction-ordered key. Built at compile time: sorted keys get
/// consecutive codes, every other key the code of its sorted form (and the padding past the
/// keys code 0, never read).
static CODE: [u16; KEY_SPACE] = {
    let mut t = [0; KEY_SPACE];
    let mut next = 0u16;
    let n = SHAPE_COUNT;
    let mut a = 0;
    while a < n {
        let mut b = a;
        while b < n {
            let mut c = b;
            while c < n {
                let mut d = c;
                while d < n {
                    t[a + n * (b + n * (c + n * d))] = next;
                    next += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    assert!(next as usize == CODES);
    let mut key = 0;
    while key < KEYS {
        let mut s = [key % n, key / n % n, key / (n * n) % n, key / (n * n * n)];
        // Sort the four digits (insertion sort; const fn has no slice sort).
        let mut i = 1;
        while i < 4 {
            let mut j = i;
            while j > 0 && s[j - 1] > s[j] {
                let x = s[j];
                s[j] = s[j - 1];
                s[j - 1] = x;
                j -= 1;
            }
            i += 1;
        }
        t[key] = t[s[0] + n * (s[1] + n * (s[2] + n * s[3]))];
        key += 1;
    }
    t
};

/// The code of a direction-ordered key (see the module docs).
#[inline(always)]
pub(crate) fn code_of_key(key: u16) -> usize {
    CODE[key as usize & (KEY_SPACE - 1)] as usize
}

/// The direction-ordered key of four shapes.
#[inline]
pub(crate) fn key_of(shapes: [Shape; 4]) -> u16 {
    (0..4).map(|d| shapes[d] as u16 * KEY_STEP[d]).sum()
}

/// The code of a point's four shapes (the slow path: tests, the tuner).
pub fn code_of(shapes: [Shape; 4]) -> usize {
    code_of_key(key_of(shapes))
}

/// `SHAPES[code]`: the sorted four shapes of each code (the inverse of `CODE` on sorted keys),
/// built at compile time so weights loading does not scan every key.
pub(crate) static SHAPES: [[Shape; 4]; CODES] = {
    let mut t = [[Shape::None; 4]; CODES];
    let mut next = 0;
    let n = SHAPE_COUNT as u8;
    let mut a = 0;
    while a < n {
        let mut b = a;
        while b < n {
            let mut c = b;
            while c < n {
                let mut d = c;
                while d < n {
                    t[next] = [
                        Shape::from_u8(a),
                        Shape::from_u8(b),
                        Shape::from_u8(c),
                        Shape::from_u8(d),
                    ];
                    next += 1;
                    d += 1;
                }
                c += 1;
            }
            b += 1;
        }
        a += 1;
    }
    t
};

/// A code's shapes make a four of any kind (a four, two fours in one line, an open four).
pub(crate) const FLAG_FOUR: u8 = 1;
/// ... two threats that cannot both be stopped: two fours, or a four and an open three.
pub(crate) const FLAG_DOUBLE: u8 = 2;
/// ... the same for renju Black, whose two fours or two threes are fouls: exactly one four
/// and one open three.
pub(crate) const FLAG_DOUBLE_RENJU_BLACK: u8 = 4;

/// `FLAGS[code]`: what a stone with the code's shapes makes, so the questions move generation
/// asks of every candidate are one lookup on the key the board keeps.
static FLAGS: [u8; CODES] = {
    let mut t = [0u8; CODES];
    let mut code = 0;
    while code < CODES {
        let s = SHAPES[code];
        let (mut fours, mut threes) = (0, 0);
        let mut i = 0;
        while i < 4 {
            let shape = s[i] as u8;
            if shape == Shape::Four as u8 || shape == Shape::OpenFour as u8 {
                fours += 1;
            } else if shape == Shape::FourFour as u8 {
                fours += 2;
            } else if shape == Shape::OpenThree as u8 {
                threes += 1;
            }
            i += 1;
        }
        if fours > 0 {
            t[code] |= FLAG_FOUR;
        }
        if fours >= 2 || (fours >= 1 && threes >= 1) {
            t[code] |= FLAG_DOUBLE;
        }
        if fours == 1 && threes == 1 {
            t[code] |= FLAG_DOUBLE_RENJU_BLACK;
        }
        code += 1;
    }
    t
};

/// The four shapes of a code, weakest first.
#[inline(always)]
pub(crate) const fn code_shapes(code: usize) -> [Shape; 4] {
    SHAPES[code]
}

/// `COUNTS[code][shape]`: how many of the code's four shapes are `shape`.
static COUNTS: [[u8; SHAPE_COUNT]; CODES] = {
    let mut t = [[0u8; SHAPE_COUNT]; CODES];
    let mut code = 0;
    while code < CODES {
        let mut i = 0;
        while i < 4 {
            t[code][SHAPES[code][i] as usize] += 1;
            i += 1;
        }
        code += 1;
    }
    t
};

/// How many of a code's four shapes are `shape` (in how many directions a stone makes it).
#[inline(always)]
pub(crate) fn code_count(code: usize, shape: Shape) -> u32 {
    COUNTS[code][shape as usize] as u32
}

/// The [`FLAG_FOUR`]-style flags of a code.
#[inline(always)]
pub(crate) fn code_flags(code: usize) -> u8 {
    FLAGS[code]
}

/// The four shapes of a code, weakest first (for reports and the weights file's comments).
pub fn shapes_of(code: usize) -> Option<[Shape; 4]> {
    SHAPES.get(code).copied()
}

/// True when a renju Black stone on a point with these shapes would (almost surely) be a foul:
/// an overline, two fours, or two open threes, with no five. Such a point is worth nothing to
/// Black. (The full test, real threes included, is [`crate::Board::foul`]; this is the cheap
/// version a table lookup can afford.)
pub fn renju_black_dead(shapes: [Shape; 4]) -> bool {
    if shapes.contains(&Shape::Five) {
        return false;
    }
    let fours: u32 = shapes.iter().map(|s| s.four_count()).sum();
    let threes = shapes.iter().filter(|&&s| s == Shape::OpenThree).count();
    shapes.contains(&Shape::Overline) || fours >= 2 || threes >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_ignore_direction_order_and_cover_every_multiset() {
        let mut seen = vec![false; CODES];
        for key in 0..KEYS as u16 {
            let c = code_of_key(key);
            assert!(c < CODES);
            seen[c] = true;
        }
        assert!(seen.iter().all(|&s| s));
        let a = [Shape::Two, Shape::Five, Shape::None, Shape::OpenThree];
        let b = [Shape::OpenThree, Shape::None, Shape::Five, Shape::Two];
        assert_eq!(code_of(a), code_of(b));
        assert_ne!(code_of(a), code_of([Shape::Two; 4]));
        let mut sorted = a;
        sorted.sort();
        assert_eq!(shapes_of(code_of(a)), Some(sorted));
        for code in 0..CODES {
            assert_eq!(code_of(shapes_of(code).unwrap()), code);
        }
        assert_eq!(shapes_of(CODES), None);
        assert_eq!(code_of([Shape::None; 4]), 0);
        for code in 0..CODES {
            let four = shapes_of(code).unwrap().iter().any(|s| s.is_four());
            assert_eq!(code_flags(code) & FLAG_FOUR != 0, four);
            assert_eq!(Some(code_shapes(code)), shapes_of(code));
            for shape in Shape::ALL {
                let n = shapes_of(code)
                    .unwrap()
                    .iter()
                    .filter(|&&s| s == shape)
                    .count();
                assert_eq!(code_count(code, shape), n as u32);
            }
        }
    }

    #[test]
    fn renju_dead_points() {
        use Shape::*;
        assert!(renju_black_dead([OpenThree, OpenThree, None, One]));
        assert!(renju_black_dead([Four, OpenFour, None, One]));
        assert!(renju_black_dead([FourFour, None, None, One]));
        assert!(renju_black_dead([Overline, Two, None, One]));
        assert!(!renju_black_dead([Five, Four, Four, One]));
        assert!(!renju_black_dead([Four, OpenThree, None, One]));
    }
}
