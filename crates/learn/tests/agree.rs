//! Learn mode's promises, on random Gomoku and m,n,k positions: minimax, negamax, alpha-beta
//! and PVS give the same value at the same depth and width, alpha-beta never visits more
//! nodes than minimax, and the trees served as JSON are consistent with what the searches
//! report.

use proptest::prelude::*;
use serde_json::Value;
use wuzi_learn::{run, AlgorithmResult, Bounds, LearnRequest, INFINITY_VALUE};

const TEXTBOOK: [&str; 4] = ["minimax", "negamax", "alphabeta", "pvs"];

fn request(game: &str, moves: &[String], depth: u32) -> LearnRequest {
    LearnRequest {
        game: game.into(),
        moves: moves.to_vec(),
        depth,
        algorithms: TEXTBOOK.iter().map(|a| a.to_string()).collect(),
        ..LearnRequest::default()
    }
}

fn assert_agree(results: &[AlgorithmResult]) {
    let [minimax, negamax, alphabeta, pvs] = results else {
        panic!("four results expected")
    };
    for other in [negamax, alphabeta, pvs] {
        assert_eq!(
            (other.score, &other.best_move),
            (minimax.score, &minimax.best_move),
            "{} disagrees with minimax",
            other.algorithm
        );
    }
    assert_eq!(
        minimax.nodes, negamax.nodes,
        "minimax and negamax visit the same nodes"
    );
    assert!(alphabeta.nodes <= minimax.nodes);
}

/// Random distinct points near the centre of a `size` board, as move names.
fn gomoku_moves(size: usize, picks: &[(usize, usize)]) -> Vec<String> {
    let mut seen = Vec::new();
    for &(x, y) in picks {
        let (x, y) = (size / 2 - 2 + x % 5, size / 2 - 2 + y % 5);
        if !seen.contains(&(x, y)) {
            seen.push((x, y));
        }
    }
    seen.iter()
        .map(|&(x, y)| format!("{}{}", (b'a' + x as u8) as char, y + 1))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn textbook_searches_agree_on_gomoku(
        size in 7usize..10,
        picks in prop::collection::vec((0usize..5, 0usize..5), 1..8),
        renju in any::<bool>(),
        width in prop::sample::select(vec![0usize, 3, 5]),
        depth in 1u32..4,
    ) {
        let moves = gomoku_moves(size, &picks);
        let mut req = request("gomoku", &moves, if width == 0 { depth.min(2) } else { depth });
        req.size = Some(size);
        req.rule = Some(if renju { "renju" } else { "freestyle" }.into());
        req.candidates = Some(width);
        match run(&req, &Bounds::default()) {
            Ok(results) => assert_agree(&results),
            // A random position may already be won: then there is nothing to compare.
            Err(e) => prop_assert!(e.contains("already over"), "{e}"),
        }
    }

    #[test]
    fn textbook_searches_agree_on_mnk(
        width in 3usize..5,
        height in 3usize..5,
        k in 3usize..4,
        cells in prop::collection::vec(0usize..16, 0..5),
        depth in 1u32..5,
    ) {
        let mut moves = Vec::new();
        for cell in cells {
            let (x, y) = (cell % width, (cell / width) % height);
            let name = format!("{}{}", (b'a' + x as u8) as char, y + 1);
            if !moves.contains(&name) {
                moves.push(name);
            }
        }
        let mut req = request("mnk", &moves, depth);
        (req.width, req.height, req.k) = (Some(width), Some(height), Some(k));
        match run(&req, &Bounds::default()) {
            Ok(results) => assert_agree(&results),
            Err(e) => prop_assert!(e.contains("already over"), "{e}"),
        }
    }
}

/// Checks a served tree: node count, values from children, cut-offs exactly where
/// alpha >= beta; returns the number of cut-offs.
fn check_tree(tree: &Value, nodes: u64) -> usize {
    let negamax = tree["view"] == "side-to-move";
    let mut count = 0;
    let mut cutoffs = 0;
    let mut stack = vec![&tree["root"]];
    while let Some(node) = stack.pop() {
        count += 1;
        let children = node["children"].as_array().unwrap();
        stack.extend(children.iter());
        // A re-searched move counts by its last search.
        let searched: Vec<&Value> = children
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                children
                    .get(i + 1)
                    .is_none_or(|next| next["re_search"] == false)
            })
            .map(|(_, c)| c)
            .collect();
        let values = searched.iter().map(|c| c["value"].as_i64().unwrap());
        let value = node["value"].as_i64().unwrap();
        let expected = if negamax {
            values.map(|v| -v).max()
        } else if node["to_move"] == "first" {
            values.max()
        } else {
            values.min()
        };
        if let Some(expected) = expected {
            assert_eq!(value, expected, "node {}", node["id"]);
        }
        let (alpha, beta) = (
            node["alpha"].as_i64().unwrap(),
            node["beta"].as_i64().unwrap(),
        );
        let cut = !children.is_empty() && alpha.max(value) >= beta;
        assert_eq!(
            node["cutoff"].as_bool().unwrap(),
            cut,
            "node {}",
            node["id"]
        );
        if !cut {
            assert!(node["skipped"].as_array().unwrap().is_empty());
        }
        // Exactly the last child searched by a cut-off node caused it.
        for (i, child) in children.iter().enumerate() {
            let last = i + 1 == children.len();
            assert_eq!(child["caused_cutoff"].as_bool().unwrap(), cut && last);
        }
        cutoffs += usize::from(cut);
    }
    assert_eq!(count as u64, nodes);
    assert_eq!(tree["nodes"].as_u64().unwrap(), nodes);
    cutoffs
}

#[test]
fn served_trees_are_consistent() {
    let mut req = request("tictactoe", &["b2".into(), "a1".into()], 4);
    req.tree = true;
    let results = run(&req, &Bounds::default()).unwrap();
    assert_agree(&results);
    for r in &results {
        let tree = r.tree.as_ref().unwrap();
        let cutoffs = check_tree(tree, r.nodes);
        let windowed = r.algorithm == "alphabeta" || r.algorithm == "pvs";
        assert_eq!(cutoffs > 0, windowed, "{}", r.algorithm);
        assert_eq!(tree["root"]["alpha"], -INFINITY_VALUE);
    }
    let mut gomoku = request("gomoku", &["h8".into(), "i9".into(), "i8".into()], 2);
    (gomoku.tree, gomoku.candidates, gomoku.max_nodes) = (true, Some(6), Some(100));
    for r in run(&gomoku, &Bounds::default()).unwrap() {
        check_tree(r.tree.as_ref().unwrap(), r.nodes);
        assert_eq!(r.pv.first(), r.best_move.as_ref());
    }
}

#[test]
fn good_ordering_saves_nodes() {
    let moves: Vec<String> = ["h8", "i9", "i8", "g8", "j10"].map(String::from).into();
    let mut req = request("gomoku", &moves, 3);
    req.algorithms = vec!["alphabeta".into()];
    req.candidates = Some(8);
    let best_first = run(&req, &Bounds::default()).unwrap();
    req.order = Some("reversed".into());
    let reversed = run(&req, &Bounds::default()).unwrap();
    assert_eq!(best_first[0].score, reversed[0].score);
    assert!(best_first[0].nodes < reversed[0].nodes);
}

#[test]
fn the_engine_runs_beside_them() {
    let mut req = request("tictactoe", &["b2".into()], 8);
    req.algorithms = vec!["engine".into(), "alphabeta".into()];
    req.tree = true;
    let results = run(&req, &Bounds::default()).unwrap();
    assert_eq!(results[0].score, 0, "tic-tac-toe is a draw");
    assert_eq!(results[1].score, 0);
    assert!(
        results[0].tree.is_none(),
        "the engine's tree is not recorded"
    );
    assert!(results[1].tree.is_some());
}

#[test]
fn bad_requests_are_refused_with_a_reason() {
    let bounds = Bounds::default();
    let base = request("tictactoe", &[], 3);
    let cases: Vec<(LearnRequest, &str)> = vec![
        (
            LearnRequest {
                algorithms: vec!["bogo".into()],
                ..base.clone()
            },
            "unknown algorithm",
        ),
        (
            LearnRequest {
                algorithms: vec![],
                ..base.clone()
            },
            "no algorithm",
        ),
        (
            LearnRequest {
                depth: 0,
                ..base.clone()
            },
            "depth 0 is out of range",
        ),
        (
            LearnRequest {
                depth: 99,
                ..base.clone()
            },
            "depth 99 is out of range",
        ),
        (
            LearnRequest {
                max_nodes: Some(0),
                tree: true,
                ..base.clone()
            },
            "max_nodes 0",
        ),
        (
            LearnRequest {
                max_nodes: Some(1 << 30),
                ..base.clone()
            },
            "out of range",
        ),
        (
            LearnRequest {
                game: "chess".into(),
                ..base.clone()
            },
            "unknown game",
        ),
        (
            LearnRequest {
                game: "mnk".into(),
                ..base.clone()
            },
            "needs width, height and k",
        ),
        (
            LearnRequest {
                moves: ["a1", "b1", "a2", "b2", "a3"].map(String::from).into(),
                ..base.clone()
            },
            "already over",
        ),
        (
            LearnRequest {
                moves: vec!["z9".into()],
                ..base.clone()
            },
            "move z9",
        ),
        (
            LearnRequest {
                game: "gomoku".into(),
                order: Some("random".into()),
                ..base.clone()
            },
            "order",
        ),
        (
            LearnRequest {
                max_nodes: Some(10),
                tree: true,
                depth: 4,
                ..base.clone()
            },
            "more than 10 nodes",
        ),
    ];
    for (req, expected) in cases {
        let error = run(&req, &bounds).err().unwrap_or_default();
        assert!(error.contains(expected), "{expected:?} not in {error:?}");
    }
    let tight = Bounds {
        max_work_nodes: 100,
        ..Bounds::default()
    };
    let error = run(
        &LearnRequest {
            depth: 6,
            ..base.clone()
        },
        &tight,
    )
    .unwrap_err();
    assert!(error.contains("more than 100 nodes"), "{error}");
    // The engine too: cut short of its depth, it is refused, not passed off as that depth's.
    let wide = LearnRequest {
        game: "mnk".into(),
        width: Some(9),
        height: Some(9),
        k: Some(5),
        depth: 9,
        algorithms: vec!["engine".into()],
        ..base.clone()
    };
    let error = run(&wide, &tight).unwrap_err();
    assert!(
        error.contains("engine at depth 9 needs more than 100 nodes (it completed depth"),
        "{error}"
    );
    // Only the textbook algorithms record a tree.
    let engine_tree = LearnRequest {
        algorithms: vec!["engine".into()],
        tree: true,
        ..base
    };
    let error = run(&engine_tree, &bounds).unwrap_err();
    assert!(error.contains("record a tree"), "{error}");
}
