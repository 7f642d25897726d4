//! How a stone changes the board in place: `put` updates the lines, hash, shapes, counts,
//! pattern keys and evaluation sums around it, saving the few bytes it overwrites, and `take`
//! copies them back. Nothing here allocates.

use super::{Board, AROUND_ROW, AROUND_STRIDE, COUNT_SLOTS, LINE_BYTES, SPAN};
use crate::eval::{code_of_key, KEY_STEP};
use crate::geometry::{CELLS, LINES, STEP};
use crate::notation::Point;
use crate::pattern::REACH;
use wuzi_search::Player;

/// What `put` changed, so that `take` can restore it by copying.
#[derive(Clone, Default)]
pub(super) struct Snapshot {
    shapes: [[[u8; SPAN]; 4]; 2],
    counts: [[u16; COUNT_SLOTS]; 2],
    values: [[i32; 2]; 2],
    /// Length of `key_log` before the move.
    key_log: usize,
    /// `near_rows` of the five rows around the point before the move.
    near_rows: [u32; 5],
}

/// What `put` accumulates in registers and stores once: the evaluation sums and the end of
/// the key log.
struct Changes {
    values: [[i32; 2]; 2],
    logged: usize,
}

impl Board {
    /// Places a stone and updates the lines, hash, shapes and counts, saving what it changes.
    pub(crate) fn put(&mut self, p: Point, colour: Player) {
        // The table's radius as a constant makes each shape lookup a few instructions.
        if self.fused.radius == 4 {
            self.put_within::<4>(p, colour)
        } else {
            self.put_within::<REACH>(p, colour)
        }
    }

    /// `put` for a table of radius `R` (`self.fused.radius`).
    #[inline(always)]
    fn put_within<const R: usize>(&mut self, p: Point, colour: Player) {
        let i = p.index();
        let col = colour.index();
        let snap = &mut self.snapshots[self.stones_put];
        self.stones_put += 1;
        snap.counts = self.counts;
        snap.values = self.values;
        snap.key_log = self.key_len;
        let rows = &mut self.near_rows[p.y()..p.y() + 5];
        snap.near_rows.copy_from_slice(rows);
        // Columns x - 2 ..= x + 2 (bit x + 2 of the shifted mask is column x).
        let columns = (0x1F << p.x()) >> 2;
        for row in rows {
            *row |= columns;
        }
        for d in 0..4 {
            let (l, q) = (self.geo.line[d][i] as usize, self.geo.pos[d][i] as usize);
            for k in 0..2 {
                snap.shapes[k][d].copy_from_slice(&self.shapes[k][d][l][q..q + SPAN]);
            }
        }
        let mut changes = Changes {
            values: self.values,
            logged: self.key_len,
        };
        for k in 0..2 {
            self.key_log[changes.logged] = ((k * CELLS + i) as u16, self.keys[k][i]);
            changes.logged += 1;
            let code = code_of_key(std::mem::take(&mut self.keys[k][i]));
            for role in 0..2 {
                changes.values[k][role] -= self.weights.tables[k][code][role];
            }
        }
        self.cells[i] = col as u8 + 1;
        self.hash ^= self.zobrist[col * CELLS + i];
        self.stones += 1;
        self.count_around(p, col, AROUND_ROW);
        for d in 0..4 {
            let (l, q) = (self.geo.line[d][i] as usize, self.geo.pos[d][i] as usize);
            self.bits[col][d][l] |= 1 << (q + REACH);
            self.line_keys[d][l] |= (col as u64 + 1) << (2 * (q + REACH));
            for k in 0..2 {
                let old = std::mem::take(&mut self.shapes[k][d][l][q + REACH]);
                self.counts[k][old as usize % COUNT_SLOTS] -= 1;
            }
            // The cells within R of the stone.
            let window = ((1u32 << (2 * R + 1)) - 1) << (q + REACH - R);
            self.update_line::<R>(d, l, window, &mut changes);
        }
        self.values = changes.values;
        self.key_len = changes.logged;
    }

    /// Removes the stone `put` placed last, restoring the saved shapes and counts.
    pub(crate) fn take(&mut self, p: Point, colour: Player) {
        let i = p.index();
        let col = colour.index();
        self.cells[i] = 0;
        self.hash ^= self.zobrist[col * CELLS + i];
        self.stones -= 1;
        self.count_around(p, col, AROUND_ROW.wrapping_neg());
        self.stones_put -= 1;
        let snap = &self.snapshots[self.stones_put];
        for d in 0..4 {
            let (l, q) = (self.geo.line[d][i] as usize, self.geo.pos[d][i] as usize);
            self.bits[col][d][l] &= !(1 << (q + REACH));
            self.line_keys[d][l] &= !(3 << (2 * (q + REACH)));
            for k in 0..2 {
                self.shapes[k][d][l][q..q + SPAN].copy_from_slice(&snap.shapes[k][d]);
            }
        }
        self.counts = snap.counts;
        self.values = snap.values;
        self.near_rows[p.y()..p.y() + 5].copy_from_slice(&snap.near_rows);
        let keys = self.keys.as_flattened_mut();
        for &(at, key) in self.key_log[snap.key_log..self.key_len].iter().rev() {
            keys[at as usize] = key;
        }
        self.key_len = snap.key_log;
    }

    /// Adds `delta` ([`AROUND_ROW`] for a stone placed, its negation for one removed) to the
    /// counts of colour `col` in the 5x5 square around `p`, a row at a time. Exact byte by
    /// byte: a count stays within 0..=25, so no carry or borrow crosses into the next byte.
    #[inline(always)]
    fn count_around(&mut self, p: Point, col: usize, delta: u64) {
        let counts = &mut self.around[col];
        for row in p.y()..p.y() + 5 {
            let at = row * AROUND_STRIDE + p.x();
            let bytes: &mut [u8; 8] = (&mut counts[at..at + 8]).try_into().expect("8 bytes");
            *bytes = u64::from_le_bytes(*bytes).wrapping_add(delta).to_le_bytes();
        }
    }

    /// Recomputes the shapes of the empty points of a line among the cells of `window` (bit
    /// `position + REACH`), with the fused table of radius `R`.
    #[inline(always)]
    fn update_line<const R: usize>(
        &mut self,
        d: usize,
        l: usize,
        window: u32,
        changes: &mut Changes,
    ) {
        let len = self.geo.len[d][l] as usize;
        let on_line = ((1u32 << len) - 1) << REACH;
        let free = !(self.bits[0][d][l] | self.bits[1][d][l]);
        let key = self.line_keys[d][l];
        let fused = self.fused;
        let start = self.geo.start[d][l] as isize;
        // The free cells of the window, visited in order.
        let mut todo = free & on_line & window;
        while todo != 0 {
            let cell = todo.trailing_zeros() as usize;
            todo &= todo - 1;
            let both = fused.lookup::<R>(key, cell);
            let at = (start + (cell - REACH) as isize * STEP[d]) as usize;
            for (k, new) in [(0, both & 15), (1, both >> 4)] {
                let old = self.shapes[k][d][l][cell];
                if old != new {
                    self.counts[k][old as usize % COUNT_SLOTS] -= 1;
                    self.counts[k][new as usize % COUNT_SLOTS] += 1;
                    self.shapes[k][d][l][cell] = new;
                    self.rekey(k, at, d, old, new, changes);
                }
            }
        }
    }

    /// One shape digit of a point's key changed: update the key and the evaluation sums.
    #[inline(always)]
    fn rekey(&mut self, k: usize, at: usize, d: usize, old: u8, new: u8, changes: &mut Changes) {
        let key = self.keys[k][at];
        self.key_log[changes.logged] = ((k * CELLS + at) as u16, key);
        changes.logged += 1;
        let step = KEY_STEP[d] as i32;
        let next = (key as i32 + (new as i32 - old as i32) * step) as u16;
        self.keys[k][at] = next;
        // A changed shape always changes the code. Both roles' values of a code sit side by
        // side: two loads for the pair.
        let (was, now) = (code_of_key(key), code_of_key(next));
        let (a, b) = (self.weights.tables[k][now], self.weights.tables[k][was]);
        changes.values[k][0] += a[0] - b[0];
        changes.values[k][1] += a[1] - b[1];
    }

    /// Recomputes the keys and evaluation sums from the shapes (construction, new weights).
    pub(super) fn recompute_values(&mut self) {
        self.keys = [[0; CELLS]; 2];
        self.values = [[0; 2]; 2];
        self.tempo = self.weights.tempo_on(self.size);
        for y in 0..self.size {
            for x in 0..self.size {
                let p = Point::new(x, y);
                if self.cells[p.index()] != 0 {
                    continue;
                }
                for colour in [Player::First, Player::Second] {
                    let k = colour.index();
                    let key = crate::eval::key_of(self.shapes(p, colour));
                    self.keys[k][p.index()] = key;
                    for role in 0..2 {
                        self.values[k][role] += self.weights.tables[k][code_of_key(key)][role];
                    }
                }
            }
        }
    }

    /// Recomputes every shape and count from the stones (construction).
    pub(super) fn recompute_shapes(&mut self) {
        self.shapes = [[[[0; LINE_BYTES]; LINES]; 4]; 2];
        self.counts = [[0; COUNT_SLOTS]; 2];
        for d in 0..4 {
            for l in 0..self.geo.lines[d] {
                let len = self.geo.len[d][l] as usize;
                let free = !(self.bits[0][d][l] | self.bits[1][d][l]);
                for r in 0..len {
                    if (free >> (r + REACH)) & 1 != 0 {
                        // Count the point as `None` first so that the update can move it.
                        self.counts[0][0] += 1;
                        self.counts[1][0] += 1;
                    }
                }
                // The keys and sums are recomputed below, and nothing is to be undone.
                let mut changes = Changes {
                    values: [[0; 2]; 2],
                    logged: 0,
                };
                if self.fused.radius == 4 {
                    self.update_line::<4>(d, l, u32::MAX, &mut changes);
                } else {
                    self.update_line::<REACH>(d, l, u32::MAX, &mut changes);
                }
            }
        }
        self.recompute_values();
    }
}
