//! Helpers shared by the crate's tests.

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
