//! The symmetries of a rectangular board, as permutations of cell indices.

/// Every symmetry of a `width` x `height` board: 8 for a square, 4 otherwise. The identity
/// comes first. Entry `[s][cell]` is where symmetry `s` sends `cell`.
pub fn board_symmetries(width: usize, height: usize) -> Vec<Vec<u16>> {
    let (w, h) = (width, height);
    let mut maps: Vec<Box<dyn Fn(usize, usize) -> (usize, usize)>> = vec![
        Box::new(|x, y| (x, y)),
        Box::new(move |x, y| (w - 1 - x, y)),
        Box::new(move |x, y| (x, h - 1 - y)),
        Box::new(move |x, y| (w - 1 - x, h - 1 - y)),
    ];
    if w == h {
        maps.push(Box::new(|x, y| (y, x)));
        maps.push(Box::new(move |x, y| (w - 1 - y, x)));
        maps.push(Box::new(move |x, y| (y, w - 1 - x)));
        maps.push(Box::new(move |x, y| (w - 1 - y, w - 1 - x)));
    }
    maps.iter()
        .map(|map| {
            (0..w * h)
                .map(|cell| {
                    let (x, y) = map(cell % w, cell / w);
                    (y * w + x) as u16
                })
                .collect()
        })
        .collect()
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
