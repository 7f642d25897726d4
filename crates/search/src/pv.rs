//! Principal variations kept as a triangle: one line per ply, each the move chosen at that
//! ply followed by the line found below it.

/// Sets line `ply` of `lines` to `mv` followed by line `ply + 1` (which must exist): when a
/// move becomes a node's best, the node's line becomes that move and its child's line. It
/// reuses the lines' buffers, so a search that keeps them allocates nothing here.
#[inline]
pub fn extend_line<M: Copy>(lines: &mut [Vec<M>], ply: usize, mv: M) {
    let (here, below) = lines.split_at_mut(ply + 1);
    let line = &mut here[ply];
    line.clear();
    line.push(mv);
    line.extend_from_slice(&below[0]);
}

#[cfg(test)]
mod tests {
    use super::extend_line;

    #[test]
    fn a_line_is_its_move_then_the_line_below() {
        let mut lines = vec![vec![9, 9, 9], vec![], vec![]];
        extend_line(&mut lines, 1, 5);
        extend_line(&mut lines, 0, 4);
        assert_eq!(lines, vec![vec![4, 5], vec![5], vec![]]);
        lines[2] = vec![7, 8];
        extend_line(&mut lines, 1, 6);
        assert_eq!(lines[1], vec![6, 7, 8]);
    }
}
