//! Line shapes: what a stone on an empty point would make along one direction.
//!
//! A shape depends only on the 5 cells on each side of the point in that direction (every five
//! through the point lies within 4 of it, and exactness needs one more), so it is a table
//! lookup on an encoding of those 10 cells. The tables are built once ([`crate::table`]).

use std::fmt;

/// The shape a stone of one colour on an empty point makes in one direction, weakest first.
///
/// Defined by the number of further stones in this line that make a five containing the point
/// (for exact-five rules an exact five; six or more is never a five):
/// - [`Shape::Five`]: the stone itself makes a five;
/// - fours (one more stone): [`Shape::Four`] one way to five, [`Shape::OpenFour`] a straight
///   four `_XXXX_` (two ways), [`Shape::FourFour`] two fours in one line (`X_XXX_X`,
///   `XX_XX_XX`, `XXX_X_XXX`);
/// - threes (two more): [`Shape::OpenThree`] when one more stone can make an open four,
///   else [`Shape::Three`];
/// - twos (three more): [`Shape::OpenTwo`] when one more stone can make an open three, else
///   [`Shape::Two`];
/// - [`Shape::One`]: a five is still possible with four more stones;
/// - [`Shape::None`]: no five can ever pass through the point in this line;
/// - [`Shape::Overline`] (exact-five rules only): the stone makes six or more.
///
/// The renju "real three" (whose four point must not itself be forbidden) needs the whole
/// board and is decided by [`crate::Board::foul`], not here.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
#[repr(u8)]
pub enum Shape {
    #[default]
    None = 0,
    Overline = 1,
    One = 2,
    Two = 3,
    OpenTwo = 4,
    Three = 5,
    OpenThree = 6,
    Four = 7,
    FourFour = 8,
    OpenFour = 9,
    Five = 10,
}

/// The number of [`Shape`] values (for per-shape count tables).
pub const SHAPE_COUNT: usize = 11;

impl Shape {
    pub const ALL: [Shape; SHAPE_COUNT] = [
        Shape::None,
        Shape::Overline,
        Shape::One,
        Shape::Two,
        Shape::OpenTwo,
        Shape::Three,
        Shape::OpenThree,
        Shape::Four,
        Shape::FourFour,
        Shape::OpenFour,
        Shape::Five,
    ];

    pub(crate) const fn from_u8(v: u8) -> Shape {
        Shape::ALL[v as usize]
    }

    /// True for the shapes one stone away from a five ([`Shape::Four`], [`Shape::FourFour`],
    /// [`Shape::OpenFour`]).
    pub fn is_four(self) -> bool {
        matches!(self, Shape::Four | Shape::FourFour | Shape::OpenFour)
    }

    /// How many fours the stone makes in this line (2 for [`Shape::FourFour`]).
    pub fn four_count(self) -> u32 {
        match self {
            Shape::Four | Shape::OpenFour => 1,
            Shape::FourFour => 2,
            _ => 0,
        }
    }

    /// The shape [`Shape::name`] names.
    pub fn from_name(name: &str) -> Option<Shape> {
        Shape::ALL.into_iter().find(|s| s.name() == name)
    }

    pub fn name(self) -> &'static str {
        match self {
            Shape::None => "none",
            Shape::Overline => "overline",
            Shape::One => "one",
            Shape::Two => "two",
            Shape::OpenTwo => "open-two",
            Shape::Three => "three",
            Shape::OpenThree => "open-three",
            Shape::Four => "four",
            Shape::FourFour => "four-four",
            Shape::OpenFour => "open-four",
            Shape::Five => "five",
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Cells on each side of the point a shape looks at.
pub(crate) const REACH: usize = 5;
/// Cells in a window (the point itself excluded).
pub(crate) const WINDOW: usize = 2 * REACH;
/// Window states: each cell is empty, own or blocked (opponent or off the board).
pub(crate) const STATES: usize = 59_049; // 3^10

/// `TERNARY[m]` reads the 10-bit mask `m` as base-3 digits 0/1, so the state index of a
/// window is `TERNARY[own] + 2 * TERNARY[blocked]` (digit 0 empty, 1 own, 2 blocked).
pub(crate) static TERNARY: [u16; 1 << WINDOW] = {
    let mut t = [0u16; 1 << WINDOW];
    let mut m = 0;
    while m < (1 << WINDOW) {
        let mut v = 0u32;
        let mut p = 1u32;
        let mut i = 0;
        while i < WINDOW {
            if m & (1 << i) != 0 {
                v += p;
            }
            p *= 3;
            i += 1;
        }
        t[m] = v as u16;
        m += 1;
    }
    t
};

/// Drops the middle bit of an 11-bit window (`REACH` cells, the point, `REACH` cells).
#[inline(always)]
pub(crate) fn squeeze(w11: u32) -> usize {
    ((w11 & 0x1F) | ((w11 >> 6) << 5)) as usize
}

/// The state index of the window whose own and blocked cells are the 11-bit masks given
/// (bit `REACH` is the point itself and is ignored).
#[inline(always)]
pub(crate) fn state_index(own11: u32, blocked11: u32) -> usize {
    TERNARY[squeeze(own11)] as usize + 2 * TERNARY[squeeze(blocked11)] as usize
}
