//! Helpers shared by the crate's tests.

use crate::board::Board;
use crate::notation::Point;
use crate::rules::Rule;

/// A xorshift generator: repeatable pseudo-random numbers for the randomised tests, no
/// dependency. The seed must not be 0 (which stays 0).
pub(crate) struct Xorshift(pub u64);

impl Xorshift {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A crowded random position of `rule` on 15x15: a corner drawn below `corner` in each
/// coordinate, then `min_stones` plus fewer than `extra` random moves in the `span` x `span`
/// square from it (a point already taken is skipped; so is everything once the game is
/// over).
pub(crate) fn crowded_board(
    rng: &mut Xorshift,
    rule: Rule,
    corner: usize,
    span: usize,
    min_stones: usize,
    extra: usize,
) -> Board {
    let mut board = Board::new(15, rule).expect("15x15");
    let (x0, y0) = (rng.below(corner), rng.below(corner));
    for _ in 0..rng.below(extra) + min_stones {
        let p = Point::new(x0 + rng.below(span), y0 + rng.below(span));
        if board.is_empty(p) && board.result().is_none() {
            board.play(p);
        }
    }
    board
}
