//! Reproducible random keys for Zobrist hashing.

/// `count` pseudo-random 64-bit keys from `seed` (SplitMix64): the same seed always gives the
/// same keys, so hashes, tables and node counts are the same on every run and machine.
pub fn zobrist_keys(seed: u64, count: usize) -> Vec<u64> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::zobrist_keys;

    #[test]
    fn keys_are_reproducible_and_distinct() {
        let keys = zobrist_keys(7, 1000);
        assert_eq!(keys, zobrist_keys(7, 1000));
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 1000);
        assert!(keys.iter().all(|&k| k != 0));
    }
}
