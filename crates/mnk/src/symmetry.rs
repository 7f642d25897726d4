//! The symmetries of a rectangular board, as permutations of cell indices.

/// Every symmetry of a `width` x `height` board: 8 for a square, 4 otherwise. The identity
/// comes first. Entry `[s][cell]` is where symmetry `s` sends `cell`.
pub fn board_symmetries(width: usize, height: usize) -> Vec<Vec<u16>> {
    let count = if width == height { 8 } else { 4 };
    (0..count)
        .map(|symmetry| {
            (0..width * height)
                .map(|cell| {
                    let (x, y) = image(symmetry, cell % width, cell / width, width, height);
                    (y * width + x) as u16
                })
                .collect()
        })
        .collect()
}

/// Where symmetry number `symmetry` sends `(x, y)`: mirrors and the half turn for any board,
/// then (square boards only) the transpose and the quarter turns.
fn image(symmetry: usize, x: usize, y: usize, w: usize, h: usize) -> (usize, usize) {
    match symmetry {
        0 => (x, y),
        1 => (w - 1 - x, y),
        2 => (x, h - 1 - y),
        3 => (w - 1 - x, h - 1 - y),
        4 => (y, x),
        5 => (w - 1 - y, x),
        6 => (y, w - 1 - x),
        _ => (w - 1 - y, w - 1 - x),
    }
}

#[cfg(test)]
mod tests {
    use super::board_symmetries;

    #[test]
    fn each_symmetry_is_a_distinct_permutation() {
        for (w, h, count) in [(3, 3, 8), (4, 3, 4), (5, 5, 8), (1, 4, 4)] {
            let syms = board_symmetries(w, h);
            assert_eq!(syms.len(), count);
            assert_eq!(syms[0], (0..(w * h) as u16).collect::<Vec<_>>());
            for perm in &syms {
                let mut sorted = perm.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..(w * h) as u16).collect::<Vec<_>>());
            }
            if w > 1 && h > 1 {
                let mut distinct = syms.clone();
                distinct.sort();
                distinct.dedup();
                assert_eq!(distinct.len(), count);
            }
        }
    }
}
