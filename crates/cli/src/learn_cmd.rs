//! The command line's side of Learn mode: `wuzi analyze --algo` and `wuzi solve --depth` /
//! `--tree` compare the textbook algorithms (and the engine) on one position.

use clap::Args;
use std::path::PathBuf;
use std::time::Duration;
use wuzi_gomoku::EngineOptions;
use wuzi_learn::{run_plan, Algorithm, AlgorithmResult, Bounds, Plan, Position};

/// Where the searched trees go.
#[derive(Args, Debug, Clone, Default)]
pub struct TreeArgs {
    /// Write the searched tree(s) as JSON to FILE (a list when several algorithms search).
    #[arg(long, value_name = "FILE", global = true)]
    pub tree: Option<PathBuf>,
    /// The most nodes a tree may have: a search that needs more is an error, never cut.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_TREE_NODES, global = true)]
    pub max_nodes: usize,
}

const DEFAULT_TREE_NODES: usize = 100_000;

/// The command line waits as long as the user likes (`wuzi solve` gives up when told); only
/// the tree is capped.
pub fn bounds() -> Bounds {
    Bounds {
        max_depth: 400,
        max_tree_nodes: 10_000_000,
        default_tree_nodes: DEFAULT_TREE_NODES,
        max_work_nodes: u64::MAX,
        max_time: None,
        raise_time: None,
        max_algorithms: 16,
    }
}

/// Runs `algorithms` on `position` to `depth` (`engine` with the given options, else the
/// defaults), each for at most `give_up` when given, writes the trees if asked, and returns
/// the text (or JSON) to print.
pub fn compare(
    position: Position,
    depth: u32,
    algorithms: Vec<Algorithm>,
    tree: &TreeArgs,
    json: bool,
    engine: Option<EngineOptions>,
    give_up: Option<Duration>,
) -> Result<String, String> {
    let bounds = Bounds {
        max_time: give_up,
        raise_time: give_up.map(|_| "--give-up-after"),
        ..bounds()
    };
    let tree_nodes = tree.tree.as_ref().map(|_| tree.max_nodes);
    let mut plan = Plan::new(position, depth, algorithms, tree_nodes, &bounds)?;
    if let Some(options) = engine {
        plan.engine = options;
    }
    let mut results = run_plan(&plan, &bounds)?;
    if let Some(path) = &tree.tree {
        write_trees(path, &mut results)?;
    }
    if json {
        let out = serde_json::json!({ "results": results });
        return Ok(out.to_string());
    }
    Ok(results.iter().map(line).collect::<Vec<_>>().join("\n"))
}

/// Moves the trees out of the results into the file.
fn write_trees(path: &PathBuf, results: &mut [AlgorithmResult]) -> Result<(), String> {
    // The plan refused a tree with no textbook algorithm to record it.
    let mut trees: Vec<serde_json::Value> =
        results.iter_mut().filter_map(|r| r.tree.take()).collect();
    let json = if trees.len() == 1 {
        trees.pop().expect("one tree")
    } else {
        serde_json::Value::Array(trees)
    };
    std::fs::write(path, json.to_string())
        .map_err(|e| format!("cannot write the tree to {}: {e}", path.display()))
}

/// One algorithm's result; a decided score reads `win in 3` (its JSON keeps the number).
fn line(r: &AlgorithmResult) -> String {
    format!(
        "{:<9}  best {:<4}  score {:>10}  nodes {:>10}  time {:>6} ms  pv {}",
        r.algorithm,
        r.best_move.as_deref().unwrap_or("-"),
        wuzi_search::Score::from_value(r.score).to_string(),
        r.nodes,
        r.millis,
        r.pv.join(" ")
    )
}
