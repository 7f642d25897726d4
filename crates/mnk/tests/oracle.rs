//! Every strategy agrees with textbook minimax, the oracle, on the game value.

use proptest::prelude::*;
use wuzi_mnk::Mnk;
use wuzi_search::{
    AlphaBeta, Game, Minimax, Negamax, Searcher, Strategy as SearchStrategy, DEFAULT_TT_BYTES,
    UNLIMITED_DEPTH,
};

/// Boards small enough for plain minimax once a few stones are down.
const BOARDS: [(usize, usize, usize); 6] = [
    (3, 3, 3),
    (4, 3, 3),
    (3, 4, 3),
    (4, 4, 3),
    (4, 4, 4),
    (5, 3, 3),
];

/// A position reached by random legal moves, leaving at most `max_empty` empty cells (fewer
/// if the game ends first).
fn random_position(board: (usize, usize, usize), picks: &[usize], max_empty: usize) -> Mnk {
    let mut game = Mnk::new(board.0, board.1, board.2).unwrap();
    let mut moves = Vec::new();
    for &pick in picks {
        if game.empty_count() <= max_empty {
            break;
        }
        moves.clear();
        game.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        game.play(moves[pick % moves.len()]);
    }
    game
}

fn position_strategy(max_empty: usize) -> impl Strategy<Value = Mnk> {
    (0..BOARDS.len(), prop::collection::vec(0usize..64, 25))
        .prop_map(move |(board, picks)| random_position(BOARDS[board], &picks, max_empty))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn solved_values_agree(mut game in position_strategy(8)) {
        let oracle = Minimax { depth: UNLIMITED_DEPTH }.search(&mut game);
        let others: Vec<Box<dyn SearchStrategy<Mnk>>> = vec![
            Box::new(Negamax { depth: UNLIMITED_DEPTH }),
            Box::new(AlphaBeta { depth: UNLIMITED_DEPTH }),
            Box::new(Searcher::new(DEFAULT_TT_BYTES)),
            Box::new(Searcher::new(0)),
        ];
        for mut strategy in others {
            let result = strategy.search(&mut game);
            prop_assert_eq!(result.score, oracle.score, "{} on\n{}", strategy.name(), game);
            // The move it picks must achieve that value.
            if let Some(mv) = result.best_move {
                game.play(mv);
                let after = Minimax { depth: UNLIMITED_DEPTH }.search(&mut game);
                game.undo(mv);
                let shifted = after.score.to_root_relative(1);
                prop_assert_eq!(-shifted, oracle.score, "{} move {} on\n{}", strategy.name(), game.cell_name(mv), game);
            }
        }
    }

    #[test]
    fn depth_limited_values_agree(mut game in position_strategy(10), depth in 1u32..4) {
        let oracle = Minimax { depth }.search(&mut game);
        let negamax = Negamax { depth }.search(&mut game);
        let alphabeta = AlphaBeta { depth }.search(&mut game);
        prop_assert_eq!(negamax.score, oracle.score);
        prop_assert_eq!(negamax.best_move, oracle.best_move);
        prop_assert_eq!(negamax.nodes, oracle.nodes);
        prop_assert_eq!(alphabeta.score, oracle.score);
        prop_assert!(alphabeta.nodes <= oracle.nodes);
    }

    #[test]
    fn incremental_hashes_match_from_scratch(board in 0..BOARDS.len(), steps in prop::collection::vec((0usize..64, any::<bool>()), 60)) {
        let (w, h, k) = BOARDS[board];
        let mut game = Mnk::new(w, h, k).unwrap();
        let mut moves = Vec::new();
        for (pick, undo) in steps {
            if undo || game.is_over() {
                if let Some(&last) = game.history().last() {
                    game.undo(last);
                }
            } else {
                moves.clear();
                game.legal_moves(&mut moves);
                game.play(moves[pick % moves.len()]);
            }
            prop_assert_eq!(game.hash(), game.hash_from_scratch());
            // Each symmetric hash is the plain hash of the mirrored board.
            for (s, perm) in wuzi_mnk::board_symmetries(w, h).iter().enumerate() {
                let mut image = Mnk::new(w, h, k).unwrap();
                for &cell in game.history() {
                    image.place(perm[cell as usize]);
                }
                prop_assert_eq!(game.symmetric_hashes()[s], image.hash_from_scratch());
            }
        }
    }
}

#[test]
fn whole_tree_node_counts() {
    let mut game = Mnk::tic_tac_toe();
    let minimax = Minimax {
        depth: UNLIMITED_DEPTH,
    }
    .search(&mut game);
    let negamax = Negamax {
        depth: UNLIMITED_DEPTH,
    }
    .search(&mut game);
    let alphabeta = AlphaBeta {
        depth: UNLIMITED_DEPTH,
    }
    .search(&mut game);
    assert_eq!(minimax.nodes, 549_946);
    assert_eq!(negamax.nodes, 549_946);
    assert_eq!(alphabeta.nodes, ALPHABETA_NODES);
    for result in [&minimax, &negamax, &alphabeta] {
        assert_eq!(result.score, wuzi_search::Score::DRAW);
    }
}

/// The signature of alpha-beta's pruning on the empty tic-tac-toe board in cell order.
const ALPHABETA_NODES: u64 = 20_866;
