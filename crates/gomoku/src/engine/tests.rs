//! The engine facade's tests: tables and their memory, proofs, determinism, the root's
//! candidates and the N best moves.

use super::*;
use crate::eval::{embedded_weights, ShapeFactor};
use crate::rules::Rule;

fn engine(moves: &str, rule: Rule) -> Engine {
    let board = Board::from_moves(15, rule, moves).unwrap();
    Engine::new(
        board,
        EngineOptions {
            table_bytes: 4 << 20,
            ..EngineOptions::default()
        },
    )
}

/// Shape factors scale the tables an engine plays with, made for the rule of each board it
/// is given; without them the board keeps the embedded tables.
#[test]
fn shape_factors_scale_the_engines_tables() {
    let factor: ShapeFactor = "waiter:open-three=0.5".parse().unwrap();
    let options = EngineOptions {
        table_bytes: 1 << 20,
        shape_factors: vec![factor],
        ..EngineOptions::default()
    };
    let expected = |rule| {
        let mut w = Weights::clone(&embedded_weights(rule));
        w.scale_shape(factor.role, factor.shape, factor.second, factor.factor);
        w
    };
    let mut e = Engine::new(Board::new(15, Rule::Freestyle).unwrap(), options.clone());
    assert_eq!(e.board().weights(), &expected(Rule::Freestyle));
    assert_ne!(e.board().weights(), &*embedded_weights(Rule::Freestyle));
    e.set_board(Board::from_moves(15, Rule::Renju, "h8 i9").unwrap());
    assert_eq!(e.board().weights(), &expected(Rule::Renju));
    let plain = EngineOptions {
        shape_factors: Vec::new(),
        ..options.clone()
    };
    let plain = Engine::new(Board::new(15, Rule::Renju).unwrap(), plain);
    assert!(plain.board().sums_weights(&embedded_weights(Rule::Renju)));
    assert_eq!(
        options.weights_for(Rule::Standard),
        Some(Arc::new(expected(Rule::Standard)))
    );
}

/// The N best moves: distinct, scored at one depth and ranked best first, progress told with
/// each line's rank; a forced position lists only the moves it allows, and a raised stop
/// flag ends the search.
#[test]
fn best_moves_are_distinct_and_ranked_at_one_depth() {
    let limits = Limits::nodes(20_000);
    let mut e = engine("h8 i9 h9 h7", Rule::Freestyle);
    let (mut ranks, mut told) = (Vec::new(), 0);
    let found = e.best_moves(3, &limits, |rank, _| ranks.push(rank), |_| told += 1);
    let moves: Vec<Point> = found.iter().map(|a| a.best_move.unwrap()).collect();
    assert_eq!(moves.len(), 3);
    assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2]);
    assert!(found.iter().all(|a| a.pv.first() == a.best_move.as_ref()));
    assert!(found.iter().all(|a| a.depth == found[0].depth), "{found:?}");
    assert!(
        found.windows(2).all(|w| w[0].score >= w[1].score),
        "{found:?}"
    );
    assert_eq!(told, 3);
    // Each completed depth tells its lines in rank order.
    assert_eq!(ranks.len() % 3, 0, "{ranks:?}");
    assert!(ranks.chunks(3).all(|c| c == [0, 1, 2]), "{ranks:?}");
    // The same search again gives the same list (node-limited searches repeat).
    let again = engine("h8 i9 h9 h7", Rule::Freestyle).best_moves(3, &limits, |_, _| {}, |_| {});
    let same = |a: &Analysis, b: &Analysis| {
        (a.best_move, a.score, a.nodes) == (b.best_move, b.score, b.nodes)
    };
    assert!(found.iter().zip(&again).all(|(a, b)| same(a, b)));
    // One line is the engine's move, as `go` finds it.
    let best = engine("h8 i9 h9 h7", Rule::Freestyle).go(&limits, |_| {});
    let one = engine("h8 i9 h9 h7", Rule::Freestyle).best_moves(1, &limits, |_, _| {}, |_| {});
    assert_eq!(
        one[0],
        Analysis {
            elapsed: one[0].elapsed,
            ..best
        }
    );
    // Black's four: White's only move is the block.
    let mut e = engine("h8 g8 i8 a1 j8 a2 k8", Rule::Freestyle);
    let found = e.best_moves(3, &limits, |_, _| {}, |_| {});
    let l8 = crate::notation::parse_point("l8", 15).unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].best_move, Some(l8));
    // Two fives to make: both are listed, though the side to move takes only one of them.
    let mut e = engine("h8 a1 i8 a2 j8 a3 k8 b15", Rule::Freestyle);
    let found = e.best_moves(5, &limits, |_, _| {}, |_| {});
    let fives: Vec<String> = found
        .iter()
        .map(|a| a.best_move.unwrap().to_human(15))
        .collect();
    assert_eq!(fives, ["g8", "l8"]);
    let stop = stop_flag();
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let stopped = Limits {
        stop: Some(stop),
        ..Limits::default()
    };
    let mut e = engine("h8 i9 h9 h7", Rule::Freestyle);
    let found = e.best_moves(3, &stopped, |_, _| {}, |_| {});
    // The flag is read between depths (and every 1,024 nodes): the first depth is all.
    assert!(found.iter().all(|a| a.depth == 1), "{found:?}");
}

#[test]
fn tables_stay_within_their_bytes() {
    for bytes in [0, 1 << 10, 1 << 20, 350 << 20] {
        let board = Board::new(15, Rule::Freestyle).unwrap();
        let e = Engine::new(
            board,
            EngineOptions {
                table_bytes: bytes,
                ..EngineOptions::default()
            },
        );
        assert!(e.table_bytes() <= bytes, "{bytes}");
    }
    // A size past the cap gets the cap, not an allocation that fails and aborts.
    assert_eq!(capped_table_bytes(usize::MAX), MAX_HASH_MIB << 20);
    assert_eq!(capped_table_bytes(350 << 20), 350 << 20);
}

/// `Duration::MAX`, "until I stop you", overflowed the sharing out of the time and panicked
/// (found by a review of the library as an embedding program would use it).
#[test]
fn the_longest_time_is_no_panic() {
    let mut e = engine("h8 i9 h9", Rule::Freestyle);
    for limits in [
        Limits {
            time: Some(Duration::MAX),
            nodes: Some(3_000),
            ..Limits::default()
        },
        Limits {
            time: Some(Duration::MAX),
            target: Some(Duration::MAX),
            nodes: Some(3_000),
            ..Limits::default()
        },
    ] {
        assert!(e.go(&limits, |_| {}).best_move.is_some());
        assert_eq!(e.best_moves(2, &limits, |_, _| {}, |_| {}).len(), 2);
    }
    let board = e.board().clone();
    let budget = move_budget(Some(Duration::MAX), Some(Duration::MAX), &board, 12, 250);
    assert_eq!(budget.map(|b| b.target <= LONGEST_TIME), Some(true));
}

#[test]
fn a_proven_win_is_reported_as_forced() {
    // Black has an open four: it wins in one.
    let mut e = engine("h8 a1 i8 a2 j8 a3 k8 b15", Rule::Freestyle);
    let a = e.go(&Limits::depth(3), |_| {});
    assert_eq!(a.forced(), Some(Forced::Win(1)));
    assert!(matches!(
        a.best_move.map(|p| p.to_human(15)).as_deref(),
        Some("g8" | "l8")
    ));
}

#[test]
fn depth_limited_search_is_deterministic() {
    let moves = "h8 i9 h9 h10 i8 g8 j10 k11";
    let a = engine(moves, Rule::Freestyle).go(&Limits::depth(4), |_| {});
    let b = engine(moves, Rule::Freestyle).go(&Limits::depth(4), |_| {});
    assert_eq!(
        (a.best_move, a.nodes, a.score),
        (b.best_move, b.nodes, b.score)
    );
}

#[test]
fn a_nearly_lost_score_widens_the_aspiration_window_to_the_end() {
    // White to move, every defence found loses but some were left out, so the search
    // scores the end of the heuristic range. Its aspiration bounds used to be clamped
    // there and the re-searches failed low forever: depth 5 never completed.
    let moves = "e11 g8 i8 h9 i10 i9 j9 h11 h10 j10 h8 f9 e9 e10 h7 g6 g9 f10 f8 e7 d10 \
                 g7 c11 b12 d11 f11 f12 c9 e13 d13 g13 h14 e12 g5 g4";
    let limits = Limits {
        depth: Some(8),
        nodes: Some(5_000_000),
        ..Limits::default()
    };
    let a = engine(moves, Rule::Freestyle).go(&limits, |_| {});
    assert_eq!((a.depth, a.score), (8, -Score::MAX_HEURISTIC));
}

#[test]
fn the_root_keeps_the_moves_the_width_would_leave_out() {
    // White to move (from a game lost to Rapfi). b6 wins in 11 plies: a closed three
    // beside two of White's fours, so neither threat solver tries it, and the ordering
    // ranks it 13th, one past the width. At the root it is kept, and found.
    let moves = "i10 k7 g6 k8 g8 h9 i8 i9 g9 g7 j10 k9 k10 j9 l9 h10 j8 j6 k5 i5 h4 l7 m6 \
                 m8 j5 h7 h6 f7 i7 g5 k4 f6 e5 f8 f9 k6 l3 m2 m7 l5 h11 g11 f4 l8 m9 n8 o8 \
                 e9 d8 e11 f12 e10 e8 g10 c11 c8 e12 d7 e7 e6 f5 n9 o10 n6 n7 b9 a10 c9 d9";
    let limits = Limits::depth(15);
    let found = engine(moves, Rule::Freestyle).go(&limits, |_| {});
    let b6 = crate::notation::parse_point("b6", 15).unwrap();
    assert_eq!(found.best_move, Some(b6));
    assert_eq!(found.score, Score::win_in(11));
    let narrow = EngineOptions {
        table_bytes: 4 << 20,
        params: SearchParams {
            root_width: 0,
            ..SearchParams::default()
        },
        ..EngineOptions::default()
    };
    let board = Board::from_moves(15, Rule::Freestyle, moves).unwrap();
    let missed = Engine::new(board, narrow).go(&limits, |_| {});
    assert_ne!(missed.best_move, Some(b6));
}

/// The tables are keyed by the stones alone: a board of another rule (or size) must not
/// find the entries of the old one, so `set_board` starts it from empty tables, and the
/// same rule keeps them.
#[test]
fn another_rule_starts_from_empty_tables() {
    let moves = "h8 i9 h9 i10 j8";
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let fresh = |rule| engine(moves, rule).go(&limits, |_| {}).nodes;
    let mut e = engine(moves, Rule::Freestyle);
    let first = e.go(&limits, |_| {}).nodes;
    assert_eq!(first, fresh(Rule::Freestyle));
    e.set_board(Board::from_moves(15, Rule::Renju, moves).unwrap());
    assert_eq!(e.go(&limits, |_| {}).nodes, fresh(Rule::Renju));
    e.set_board(Board::from_moves(15, Rule::Renju, moves).unwrap());
    assert!(e.go(&limits, |_| {}).nodes < fresh(Rule::Renju), "kept");
}

/// The generic core's searcher gets the main table's memory when it is the one searching
/// (it once got none, so `tt=off` changed nothing): the figures of docs/learn.md's "What the
/// transposition table adds".
#[test]
fn the_generic_searcher_has_the_table() {
    let nodes = |tt: bool| {
        let board = Board::from_moves(15, Rule::Freestyle, "h8 i9 i8 g8 j10 h10").unwrap();
        let mut options = EngineOptions {
            table_bytes: 4 << 20,
            selective: false,
            root_vcf: false,
            root_vct: false,
            max_candidates: 8,
            ..EngineOptions::default()
        };
        options.search.tt = tt;
        Engine::new(board, options)
            .go(&Limits::depth(8), |_| {})
            .nodes
    };
    assert_eq!((nodes(true), nodes(false)), (7_080, 9_487));
}

/// The docs promise an engine can search on a thread of its own.
#[test]
fn an_engine_can_move_to_another_thread() {
    fn send<T: Send>(_: &T) {}
    let e = engine("h8", Rule::Freestyle);
    send(&e);
    let found = std::thread::spawn(move || {
        let mut e = e;
        e.go(&Limits::nodes(1_000), |_| {}).best_move
    })
    .join()
    .unwrap();
    assert!(found.is_some());
}
