//! Point sets for the threat search, kept as one bitmask per row: the points near stones,
//! where a colour has a shape, its five points.

use crate::board::Board;
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::{Shape, REACH};
use wuzi_search::Player;

/// The distinct points where `colour` makes five (it has some), in `out` (cleared first).
/// Looked for along the lines of the last move, which made them in every position the
/// search reaches but the first; the whole board is scanned only when the per-direction
/// count says some are elsewhere.
pub(super) fn find_fives(board: &Board, colour: Player, out: &mut Vec<Point>) {
    out.clear();
    let total = board.threats(colour).five;
    // (point, direction) pairs found: a five the last move made runs along its own line.
    let mut counted = 0;
    if let Some(last) = board.last_move() {
        for d in 0..4 {
            // The shapes of the line from five before `last` to five after it (padding
            // and stones read as no shape).
            let (l, q, _) = board.locate(last, d);
            let cells = &board.shapes[colour.index()][d][l][q..=q + 2 * REACH];
            for (i, &s) in cells.iter().enumerate() {
                if s == Shape::Five as u8 {
                    counted += 1;
                    out.push(board.line_point(d, l, q + i - REACH));
                }
            }
        }
    }
    if counted < total {
        out.clear();
        out.extend(Near::shapes_of(board, colour, Shape::Five, Shape::Five));
    }
}

/// A set of points as one bitmask per row, iterated row by row. It owns its masks, so the
/// board stays free to play on while it is walked, and it costs no allocation.
pub(super) struct Near {
    rows: [u32; MAX_SIZE],
    y: usize,
}

impl Near {
    pub(super) fn none() -> Near {
        Near {
            rows: [0; MAX_SIZE],
            y: 0,
        }
    }

    /// The stones of each row, as bitmasks.
    pub(super) fn stone_rows(board: &Board) -> [u32; MAX_SIZE] {
        let row_mask = (1u32 << board.size()) - 1;
        let mut rows = [0u32; MAX_SIZE];
        for (y, row) in rows.iter_mut().enumerate().take(board.size()) {
            *row = ((board.bits[0][0][y] | board.bits[1][0][y]) >> REACH) & row_mask;
        }
        rows
    }

    /// The empty points within two points of a stone, in every direction: rows of stones
    /// widened by two each way and OR-ed over five rows.
    pub(super) fn near_stones(board: &Board) -> Near {
        let n = board.size();
        let row_mask = (1u32 << n) - 1;
        let stones = Near::stone_rows(board);
        let mut near = Near::none();
        for y in 0..n {
            let mut m = 0;
            for &r in &stones[y.saturating_sub(2)..=(y + 2).min(n - 1)] {
                m |= r | r << 1 | r << 2 | r >> 1 | r >> 2;
            }
            near.rows[y] = m & row_mask & !stones[y];
        }
        near
    }

    /// Every empty point.
    pub(super) fn empty_points(board: &Board) -> Near {
        let n = board.size();
        let row_mask = (1u32 << n) - 1;
        let occupied = Near::stone_rows(board);
        let mut near = Near::none();
        for (row, &stones) in near.rows.iter_mut().zip(&occupied).take(n) {
            *row = row_mask & !stones;
        }
        near
    }

    /// The empty points where `colour` makes a shape in `lo..=hi` in some direction: the
    /// shape bytes of each line tested eight at a time (occupied points and the padding hold
    /// no shape), far cheaper than looking up every point near the stones.
    pub(super) fn shapes_of(board: &Board, colour: Player, lo: Shape, hi: Shape) -> Near {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // Shape bytes are below 128, so adding these sets a byte's high bit exactly when it
        // is `>= lo`, or `> hi`, without carrying into the next byte.
        let at_least_lo = (128 - lo as u64) * ONES;
        let above_hi = (127 - hi as u64) * ONES;
        let mut near = Near::none();
        let c = colour.index();
        for d in 0..4 {
            for l in 0..board.line_count(d) {
                if board.bits[c][d][l] == 0 {
                    continue;
                }
                for (k, chunk) in board.shapes[c][d][l].chunks_exact(8).enumerate() {
                    let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
                    let mut m = x.wrapping_add(at_least_lo) & !x.wrapping_add(above_hi) & HIGH;
                    while m != 0 {
                        let i = k * 8 + m.trailing_zeros() as usize / 8;
                        m &= m - 1;
                        near.insert(board.line_point(d, l, i - REACH));
                    }
                }
            }
        }
        near
    }

    pub(super) fn insert(&mut self, p: Point) {
        self.rows[p.y()] |= 1 << p.x();
    }
}

impl Iterator for Near {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        while self.y < MAX_SIZE {
            let row = &mut self.rows[self.y];
            if *row != 0 {
                let x = row.trailing_zeros() as usize;
                *row &= *row - 1;
                return Some(Point::new(x, self.y));
            }
            self.y += 1;
        }
        None
    }
}

/// Whether `colour` has a legal straight-four point (an open three it may complete).
pub(super) fn has_legal_straight_four(board: &mut Board, colour: Player) -> bool {
    if board.threats(colour).open_four == 0 {
        return false;
    }
    let fouls = board.rule().has_fouls(colour);
    Near::shapes_of(board, colour, Shape::OpenFour, Shape::OpenFour)
        .any(|p| !(fouls && board.foul(p).is_some()))
}
