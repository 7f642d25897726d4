//! Where each point sits on the four lines through it, per board size, computed once.
//!
//! Each line of a direction is stored as a bitboard with bit `position + REACH`, so the 11
//! cells around any position are one shift and mask away; cells off the board are "walls".

use crate::notation::{Point, MAX_SIZE};
use crate::pattern::REACH;
use std::sync::OnceLock;

/// The four line directions (in Gomocup coordinates, y growing downwards).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Along a row: (+1, 0).
    Horizontal = 0,
    /// Along a column: (0, +1).
    Vertical = 1,
    /// (+1, +1): from the top-left towards the bottom-right.
    Diagonal = 2,
    /// (+1, -1): from the bottom-left towards the top-right.
    AntiDiagonal = 3,
}

pub const DIRS: [Dir; 4] = [
    Dir::Horizontal,
    Dir::Vertical,
    Dir::Diagonal,
    Dir::AntiDiagonal,
];

impl Dir {
    /// (dx, dy) of one step along the line.
    pub fn delta(self) -> (isize, isize) {
        match self {
            Dir::Horizontal => (1, 0),
            Dir::Vertical => (0, 1),
            Dir::Diagonal => (1, 1),
            Dir::AntiDiagonal => (1, -1),
        }
    }

    /// The point `k` steps from `from` along this line (backwards for negative `k`), if it
    /// is on a `size` board.
    pub fn step(self, from: Point, k: isize, size: usize) -> Option<Point> {
        let (dx, dy) = self.delta();
        let (x, y) = (from.x() as isize + k * dx, from.y() as isize + k * dy);
        let n = size as isize;
        ((0..n).contains(&x) && (0..n).contains(&y)).then(|| Point::new(x as usize, y as usize))
    }
}

pub(crate) const CELLS: usize = MAX_SIZE * MAX_SIZE;
pub(crate) const LINES: usize = 2 * MAX_SIZE - 1;
/// Index step of one move along each direction.
pub(crate) const STEP: [isize; 4] = [
    1,
    MAX_SIZE as isize,
    MAX_SIZE as isize + 1,
    1 - MAX_SIZE as isize,
];

pub(crate) struct Geometry {
    /// Line of each point, per direction.
    pub line: [[u8; CELLS]; 4],
    /// Position of each point along its line, per direction.
    pub pos: [[u8; CELLS]; 4],
    /// Point index of position 0 of each line.
    pub start: [[u16; LINES]; 4],
    pub len: [[u8; LINES]; 4],
    /// Bits outside the line (walls), in the line bitboard layout.
    pub wall: [[u32; LINES]; 4],
    pub lines: [usize; 4],
}

pub(crate) fn geometry(size: usize) -> &'static Geometry {
    static GEOS: [OnceLock<Box<Geometry>>; MAX_SIZE + 1] =
        [const { OnceLock::new() }; MAX_SIZE + 1];
    GEOS[size].get_or_init(|| build(size))
}

fn build(n: usize) -> Box<Geometry> {
    let mut g = Box::new(Geometry {
        line: [[0; CELLS]; 4],
        pos: [[0; CELLS]; 4],
        start: [[0; LINES]; 4],
        len: [[0; LINES]; 4],
        wall: [[u32::MAX; LINES]; 4],
        lines: [n, n, 2 * n - 1, 2 * n - 1],
    });
    for y in 0..n {
        for x in 0..n {
            let i = Point::new(x, y).index();
            // (line, position) per direction; position counts along the direction's step.
            let lp = [
                (y, x),
                (x, y),
                (x + n - 1 - y, x.min(y)),
                (x + y, if x + y < n { x } else { n - 1 - y }),
            ];
            for (d, &(l, p)) in lp.iter().enumerate() {
                g.line[d][i] = l as u8;
                g.pos[d][i] = p as u8;
                if p == 0 {
                    g.start[d][l] = i as u16;
                }
                g.len[d][l] = g.len[d][l].max(p as u8 + 1);
            }
        }
    }
    for d in 0..4 {
        for l in 0..g.lines[d] {
            let len = g.len[d][l] as u32;
            g.wall[d][l] = !(((1u32 << len) - 1) << REACH);
        }
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_walk_the_lines() {
        for n in [5, 15, 22] {
            let g = geometry(n);
            for (d, &step) in STEP.iter().enumerate() {
                let mut seen = 0;
                for l in 0..g.lines[d] {
                    for p in 0..g.len[d][l] as isize {
                        let i = (g.start[d][l] as isize + p * step) as usize;
                        let pt = Point::from_index(i).unwrap();
                        assert!(pt.on_board(n));
                        assert_eq!((g.line[d][i] as usize, g.pos[d][i] as isize), (l, p));
                        seen += 1;
                    }
                }
                assert_eq!(seen, n * n);
            }
        }
    }
}
