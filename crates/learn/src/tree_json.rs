//! A recorded tree as JSON, for `--tree FILE` and the Learn page.

use crate::algorithm::Algorithm;
use serde_json::{json, Value};
use wuzi_search::{Player, Score, TreeRecorder};

/// The value standing for an infinite window edge (`alpha` of a full window is minus this).
pub const INFINITY_VALUE: i32 = 1_000_001;

/// `{"algorithm", "view", "nodes", "root"}`: `view` is `first-player` for minimax (values and
/// windows from the first player's view) or `side-to-move`; each node has `id` (visiting
/// order, the root 0), `move` (null at the root), `ply`, `depth` (plies left), `to_move`
/// (`first` or `second`), `alpha`, `beta`, `value`, `cutoff`, `skipped` (moves a cut-off left
/// unsearched), `caused_cutoff` (the move whose value lifted its parent's alpha to beta),
/// `re_search` (PVS searching a move again with the full window), `pv` (on the
/// principal variation) and `children`.
pub fn tree_json<M: Copy + Eq>(
    tree: &TreeRecorder<M>,
    algorithm: Algorithm,
    name: &dyn Fn(M) -> String,
) -> Value {
    debug_assert_eq!(Score::INFINITY.value(), INFINITY_VALUE);
    let mut on_pv = vec![false; tree.nodes.len()];
    if !tree.nodes.is_empty() {
        on_pv[0] = true;
    }
    for id in tree.principal_variation(!algorithm.first_player_view()) {
        on_pv[id] = true;
    }
    // The move that caused a cut-off is the last one its parent searched.
    let mut caused_cutoff = vec![false; tree.nodes.len()];
    for node in tree.nodes.iter().filter(|n| n.cutoff) {
        if let Some(&last) = node.children.last() {
            caused_cutoff[last] = true;
        }
    }
    let marks = Marks {
        on_pv,
        caused_cutoff,
    };
    let root = if tree.nodes.is_empty() {
        Value::Null
    } else {
        node_json(tree, 0, &marks, name)
    };
    json!({
        "algorithm": algorithm.name(),
        "view": if algorithm.first_player_view() { "first-player" } else { "side-to-move" },
        "nodes": tree.nodes.len(),
        "root": root,
    })
}

/// What each node is, besides what the recorder saw.
struct Marks {
    on_pv: Vec<bool>,
    caused_cutoff: Vec<bool>,
}

fn node_json<M: Copy + Eq>(
    tree: &TreeRecorder<M>,
    id: usize,
    marks: &Marks,
    name: &dyn Fn(M) -> String,
) -> Value {
    let node = &tree.nodes[id];
    let children: Vec<Value> = node
        .children
        .iter()
        .map(|&child| node_json(tree, child, marks, name))
        .collect();
    json!({
        "id": id,
        "move": node.mv.map(name),
        "ply": node.ply,
        "depth": node.depth,
        "to_move": if node.to_move == Player::First { "first" } else { "second" },
        "alpha": node.alpha.value(),
        "beta": node.beta.value(),
        "value": node.value.value(),
        "cutoff": node.cutoff,
        "skipped": node.skipped.iter().map(|&m| name(m)).collect::<Vec<_>>(),
        "re_search": node.re_search,
        "caused_cutoff": marks.caused_cutoff[id],
        "pv": marks.on_pv[id],
        "children": children,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_mnk::Mnk;
    use wuzi_search::AlphaBeta;

    #[test]
    fn a_tree_names_its_moves_and_marks_its_line() {
        let mut board = Mnk::tic_tac_toe();
        board.play_named("b2").unwrap();
        let mut recorder = TreeRecorder::new(10_000);
        let result = AlphaBeta { depth: 2 }
            .search_observed(&mut board, &mut recorder)
            .unwrap();
        let names = board.clone();
        let tree = tree_json(&recorder, Algorithm::AlphaBeta, &|c| names.cell_name(c));
        assert_eq!(tree["view"], "side-to-move");
        assert_eq!(tree["nodes"], result.nodes);
        let root = &tree["root"];
        assert_eq!(root["move"], Value::Null);
        assert_eq!(root["alpha"], -INFINITY_VALUE);
        let best = board.cell_name(result.best_move.unwrap());
        let on_pv: Vec<&Value> = root["children"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["pv"] == true)
            .collect();
        assert_eq!(on_pv.len(), 1);
        assert_eq!(on_pv[0]["move"], best.as_str());
    }
}
