//! Counting the game tree: a check that move generation and game-end detection are exact.

use crate::board::Mnk;
use std::collections::HashSet;
use wuzi_search::Game;

/// Sizes of the complete game tree from a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeCounts {
    /// Positions visited along every line, the start included.
    pub nodes: u64,
    /// Lines played to the end of the game.
    pub games: u64,
    /// Distinct positions (the same stones reached by different orders count once).
    pub positions: u64,
}

/// Walks every line from `board` to the end of the game.
pub fn count_tree(board: &Mnk) -> TreeCounts {
    fn walk(board: &mut Mnk, counts: &mut TreeCounts, seen: &mut HashSet<Vec<u8>>) {
        counts.nodes += 1;
        let stones: Vec<u8> = (0..board.cell_count() as u16)
            .map(|cell| board.at(cell).map_or(0, |p| 1 + p.index() as u8))
            .collect();
        seen.insert(stones);
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        if moves.is_empty() {
            counts.games += 1;
        }
        for mv in moves {
            board.play(mv);
            walk(board, counts, seen);
            board.undo(mv);
        }
    }
    let mut counts = TreeCounts::default();
    let mut seen = HashSet::new();
    walk(&mut board.clone(), &mut counts, &mut seen);
    counts.positions = seen.len() as u64;
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tic_tac_toe_tree_has_the_known_sizes() {
        let counts = count_tree(&Mnk::tic_tac_toe());
        assert_eq!(
            counts,
            TreeCounts {
                nodes: 549_946,
                games: 255_168,
                positions: 5_478
            }
        );
    }
}
