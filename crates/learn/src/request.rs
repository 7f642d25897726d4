//! A Learn request: the game, the position, the depth and the algorithms, checked before any
//! search starts.

use crate::algorithm::Algorithm;
use serde::Deserialize;
use std::time::Duration;
use wuzi_gomoku::{Board, CandidateOrder, EngineOptions, Rule};

/// The engine's tables for one Learn search: Learn positions are small and shallow.
const DEFAULT_ENGINE_TABLE_BYTES: usize = 16 << 20;
use wuzi_mnk::Mnk;

/// The body of `POST /api/learn` (every field but `game`, `depth` and `algorithms` optional).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LearnRequest {
    /// "tictactoe", "mnk" or "gomoku".
    pub game: String,
    /// Gomoku: "freestyle" (default), "standard" or "renju".
    pub rule: Option<String>,
    /// Gomoku: the board's side (default 15).
    pub size: Option<usize>,
    /// m,n,k: the board's width, height and the stones in a row that win.
    pub width: Option<usize>,
    pub height: Option<usize>,
    pub k: Option<usize>,
    /// The moves from the empty board (`h8`, or for m,n,k `b2`).
    #[serde(default)]
    pub moves: Vec<String>,
    pub depth: u32,
    pub algorithms: Vec<String>,
    /// Record and return each textbook algorithm's tree.
    #[serde(default)]
    pub tree: bool,
    /// The most nodes a tree may have; a search that needs more is refused.
    pub max_nodes: Option<usize>,
    /// Gomoku: search only the best N candidates by point score (0 or absent: all).
    pub candidates: Option<usize>,
    /// Gomoku: "best-first" (default) or "reversed" candidate order.
    pub order: Option<String>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameKind {
    TicTacToe,
    Mnk,
    Gomoku,
}

/// A position ready to search.
#[derive(Clone)]
/// Boards are boxed: a Gomoku board is some 15 KB, and the plan is moved into a search task.
pub enum Position {
    Mnk(Box<Mnk>),
    Gomoku {
        board: Box<Board>,
        candidates: usize,
        order: CandidateOrder,
    },
}

/// What the caller allows: the server's limits, or the command line's.
#[derive(Clone, Debug)]
pub struct Bounds {
    pub max_depth: u32,
    /// The largest `max_nodes` a request may ask for.
    pub max_tree_nodes: usize,
    /// The tree cap when the request gives none.
    pub default_tree_nodes: usize,
    /// Nodes one algorithm may visit (a textbook search has no limit of its own).
    pub max_work_nodes: u64,
    /// Time one algorithm may take.
    pub max_time: Option<Duration>,
    /// What the caller may raise when that time runs out (the command line's option), to
    /// add to the refusal: `None` where nothing can be raised (a server's cap).
    pub raise_time: Option<&'static str>,
    /// Algorithms one request may compare.
    pub max_algorithms: usize,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            max_depth: 12,
            max_tree_nodes: 200_000,
            default_tree_nodes: 20_000,
            max_work_nodes: 20_000_000,
            max_time: Some(Duration::from_secs(10)),
            raise_time: None,
            max_algorithms: Algorithm::ALL.len(),
        }
    }
}

/// A checked request.
#[derive(Clone)]
pub struct Plan {
    pub position: Position,
    pub depth: u32,
    pub algorithms: Vec<Algorithm>,
    /// `Some(cap)` when trees are wanted.
    pub tree_nodes: Option<usize>,
    /// How `engine` runs on Gomoku (the command line passes its `--engine` switches).
    pub engine: EngineOptions,
}

impl LearnRequest {
    /// Checks everything; every problem is a one-line message for a 400 or an exit code 2.
    pub fn plan(&self, bounds: &Bounds) -> Result<Plan, String> {
        let kind = match self.game.as_str() {
            "tictactoe" => GameKind::TicTacToe,
            "mnk" => GameKind::Mnk,
            "gomoku" => GameKind::Gomoku,
            other => {
                return Err(format!(
                    "unknown game \"{other}\" (tictactoe, mnk or gomoku)"
                ))
            }
        };
        let algorithms = self
            .algorithms
            .iter()
            .map(|a| a.parse())
            .collect::<Result<Vec<Algorithm>, String>>();
        let tree_nodes = match (self.tree, self.max_nodes) {
            (true, n) => Some(n.unwrap_or(bounds.default_tree_nodes)),
            (false, Some(n)) => {
                Plan::check_tree_nodes(n, bounds)?;
                None
            }
            (false, None) => None,
        };
        let position = match kind {
            GameKind::TicTacToe | GameKind::Mnk => self.mnk(kind)?,
            GameKind::Gomoku => self.gomoku()?,
        };
        Plan::new(position, self.depth, algorithms?, tree_nodes, bounds)
    }

    fn mnk(&self, kind: GameKind) -> Result<Position, String> {
        for (field, given) in [("rule", self.rule.is_some()), ("size", self.size.is_some())] {
            if given {
                return Err(format!(
                    "{field} is for gomoku; m,n,k boards take width, height and k"
                ));
            }
        }
        if self.candidates.is_some() || self.order.is_some() {
            return Err("candidates and order are for gomoku".into());
        }
        let mut board = match kind {
            GameKind::TicTacToe => {
                if self.width.is_some() || self.height.is_some() || self.k.is_some() {
                    return Err(
                        "tictactoe is 3x3 with 3 in a row; use game mnk for other sizes".into(),
                    );
                }
                Mnk::tic_tac_toe()
            }
            _ => {
                let (Some(w), Some(h), Some(k)) = (self.width, self.height, self.k) else {
                    return Err("an mnk game needs width, height and k".into());
                };
                Mnk::new(w, h, k).map_err(|e| e.to_string())?
            }
        };
        for mv in &self.moves {
            if board.is_over() {
                return Err(format!("move {mv}: the game is already over"));
            }
            board
                .play_named(mv)
                .map_err(|e| format!("move {mv}: {e}"))?;
        }
        Ok(Position::Mnk(Box::new(board)))
    }

    fn gomoku(&self) -> Result<Position, String> {
        if self.width.is_some() || self.height.is_some() || self.k.is_some() {
            return Err("width, height and k are for mnk; gomoku takes size".into());
        }
        let rule: Rule = self.rule.as_deref().unwrap_or("freestyle").parse()?;
        let board = Board::from_move_strings(self.size.unwrap_or(15), rule, &self.moves)
            .map_err(|e| e.to_string())?;
        let order = match self.order.as_deref().unwrap_or("best-first") {
            "best-first" => CandidateOrder::BestFirst,
            "reversed" => CandidateOrder::Reversed,
            other => return Err(format!("order \"{other}\" is not best-first or reversed")),
        };
        let mut probe = board.clone();
        if probe.no_legal_move() {
            return Err(
                "Black has no legal move: every empty point is forbidden under renju".into(),
            );
        }
        Ok(Position::Gomoku {
            board: Box::new(board),
            candidates: self.candidates.unwrap_or(0),
            order,
        })
    }
}

impl Plan {
    /// A plan, if everything is within `bounds` and the game is not over.
    pub fn new(
        position: Position,
        depth: u32,
        algorithms: Vec<Algorithm>,
        tree_nodes: Option<usize>,
        bounds: &Bounds,
    ) -> Result<Plan, String> {
        if !(1..=bounds.max_depth).contains(&depth) {
            return Err(format!(
                "depth {depth} is out of range (1 to {})",
                bounds.max_depth
            ));
        }
        if algorithms.is_empty() {
            return Err("no algorithm given (minimax, negamax, alphabeta, pvs or engine)".into());
        }
        if algorithms.len() > bounds.max_algorithms {
            return Err(format!(
                "{} algorithms given; at most {} at once",
                algorithms.len(),
                bounds.max_algorithms
            ));
        }
        if let Some(n) = tree_nodes {
            Plan::check_tree_nodes(n, bounds)?;
            if algorithms.iter().all(|&a| a == Algorithm::Engine) {
                return Err(
                    "only minimax, negamax, alphabeta and pvs record a tree (the engine records \
                     none)"
                        .into(),
                );
            }
        }
        if position.is_over() {
            return Err("the game is already over: nothing to search".into());
        }
        Ok(Plan {
            position,
            depth,
            algorithms,
            tree_nodes,
            engine: EngineOptions {
                table_bytes: DEFAULT_ENGINE_TABLE_BYTES,
                ..EngineOptions::default()
            },
        })
    }

    fn check_tree_nodes(n: usize, bounds: &Bounds) -> Result<(), String> {
        if n == 0 || n > bounds.max_tree_nodes {
            return Err(format!(
                "max_nodes {n} is out of range (1 to {})",
                bounds.max_tree_nodes
            ));
        }
        Ok(())
    }
}

impl Position {
    pub fn is_over(&self) -> bool {
        match self {
            Position::Mnk(board) => board.is_over(),
            Position::Gomoku { board, .. } => board.result().is_some(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::sample::select;

    /// A number as a client might send one: small, negative, huge or not whole.
    fn number() -> impl Strategy<Value = String> + Clone {
        prop_oneof![
            6 => (0u64..20).prop_map(|n| n.to_string()),
            1 => select(vec!["-1", "4294967296", "18446744073709551616", "1.5", "1e400"])
                .prop_map(String::from),
            1 => any::<u64>().prop_map(|n| n.to_string()),
        ]
    }

    /// A JSON string: mostly one of `likely`, else any text.
    fn text(likely: Vec<&'static str>) -> impl Strategy<Value = String> + Clone {
        prop_oneof![4 => select(likely).prop_map(String::from), 1 => "\\PC{0,6}"]
            .prop_map(|t| serde_json::to_string(&t).unwrap())
    }

    /// The three fields every request needs (`game`, `depth`, `algorithms`), with likely
    /// values or not.
    fn required_fields() -> impl Strategy<Value = Vec<String>> {
        let algorithms = proptest::collection::vec(
            text(vec![
                "minimax",
                "negamax",
                "alphabeta",
                "pvs",
                "engine",
                "magic",
            ]),
            0..7,
        );
        (
            text(vec!["tictactoe", "mnk", "gomoku", "chess"]),
            number(),
            algorithms,
        )
            .prop_map(|(game, depth, algorithms)| {
                vec![
                    format!("\"game\":{game}"),
                    format!("\"depth\":{depth}"),
                    format!("\"algorithms\":[{}]", algorithms.join(",")),
                ]
            })
    }

    /// One of the optional fields of a Learn request body, with a likely value or any number
    /// or text, or an unknown key.
    fn optional_field() -> impl Strategy<Value = String> {
        let moves = proptest::collection::vec(
            text(vec![
                "a1", "b2", "c3", "h8", "h9", "7,7", "b2b3", "", "z99", "a0",
            ]),
            0..10,
        )
        .prop_map(|m| format!("[{}]", m.join(",")));
        prop_oneof![
            1 => text(vec!["freestyle", "renju", "standard", "caro"]).prop_map(|v| format!("\"rule\":{v}")),
            1 => number().prop_map(|v| format!("\"size\":{v}")),
            1 => number().prop_map(|v| format!("\"width\":{v}")),
            1 => number().prop_map(|v| format!("\"height\":{v}")),
            1 => number().prop_map(|v| format!("\"k\":{v}")),
            3 => moves.prop_map(|v| format!("\"moves\":{v}")),
            1 => any::<bool>().prop_map(|v| format!("\"tree\":{v}")),
            1 => number().prop_map(|v| format!("\"max_nodes\":{v}")),
            1 => number().prop_map(|v| format!("\"candidates\":{v}")),
            1 => text(vec!["best-first", "reversed", "random"]).prop_map(|v| format!("\"order\":{v}")),
            1 => "[a-z]{1,6}".prop_map(|k| format!("\"{k}\":1")),
        ]
    }

    /// A body much like the Learn page sends (so that most give a plan): a game, its board,
    /// a few moves on it, a small depth and known algorithms.
    fn likely_body() -> impl Strategy<Value = String> {
        let game = prop_oneof![
            Just(r#""game":"tictactoe""#.to_string()),
            (3usize..7, 3usize..7, 3usize..5)
                .prop_map(|(w, h, k)| format!(r#""game":"mnk","width":{w},"height":{h},"k":{k}"#)),
            (select(vec!["freestyle", "renju", "standard"]), 5usize..16)
                .prop_map(|(r, n)| format!(r#""game":"gomoku","rule":"{r}","size":{n}"#)),
        ];
        let moves = proptest::collection::vec(("[a-e]", 1usize..6), 0..8).prop_map(|m| {
            m.iter()
                .map(|(c, r)| format!("\"{c}{r}\""))
                .collect::<Vec<_>>()
        });
        let algorithms = proptest::sample::subsequence(
            vec!["minimax", "negamax", "alphabeta", "pvs", "engine"],
            1..=5,
        );
        (game, moves, 1u32..4, algorithms, any::<bool>()).prop_map(
            |(game, moves, depth, algorithms, tree)| {
                format!(
                    r#"{{{game},"moves":[{}],"depth":{depth},"algorithms":{},"tree":{tree}}}"#,
                    moves.join(","),
                    serde_json::to_string(&algorithms).unwrap()
                )
            },
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]
        /// Any body `POST /api/learn` may get is refused with a one-line message, or planned
        /// within the bounds: a depth in range, one to the most algorithms, a tree cap in
        /// range, and a game still open. Half the bodies are like the page's (over 40% of
        /// them plan), half the required fields with any values and optional ones (about half
        /// of them get past serde to `plan`).
        #[test]
        fn any_request_is_refused_or_planned_within_bounds(
            body in prop_oneof![
                1 => likely_body(),
                1 => (
                    required_fields(),
                    proptest::collection::vec(optional_field(), 0..6),
                    proptest::option::weighted(0.9, Just(())),
                )
                    .prop_map(|(required, optional, keep_all)| {
                        // Each key once (serde refuses a repeated one before `plan` sees it);
                        // now and then a required field left out.
                        let mut seen = std::collections::HashSet::new();
                        let skip = if keep_all.is_some() { 3 } else { optional.len() % 3 };
                        let fields: Vec<String> = required
                            .into_iter()
                            .enumerate()
                            .filter(|&(i, _)| i != skip)
                            .map(|(_, f)| f)
                            .chain(optional)
                            .filter(|f| seen.insert(f.split(':').next().unwrap_or("").to_string()))
                            .collect();
                        format!("{{{}}}", fields.join(","))
                    }),
            ],
        ) {
            let Ok(request) = serde_json::from_str::<LearnRequest>(&body) else {
                return Ok(());
            };
            let bounds = Bounds::default();
            match request.plan(&bounds) {
                Ok(plan) => {
                    prop_assert!((1..=bounds.max_depth).contains(&plan.depth));
                    prop_assert!(!plan.algorithms.is_empty());
                    prop_assert!(plan.algorithms.len() <= bounds.max_algorithms);
                    if let Some(cap) = plan.tree_nodes {
                        prop_assert!((1..=bounds.max_tree_nodes).contains(&cap));
                    }
                    prop_assert!(!plan.position.is_over());
                    prop_assert_eq!(plan.tree_nodes.is_some(), request.tree);
                }
                Err(message) => {
                    prop_assert!(!message.is_empty());
                    prop_assert!(!message.contains('\n'), "{}", message);
                }
            }
        }
    }

    /// A Gomoku position's moves are read one per element, as the web API reads them.
    #[test]
    fn each_gomoku_move_is_one_element() {
        let request = |moves: &[&str]| LearnRequest {
            game: "gomoku".into(),
            moves: moves.iter().map(|m| m.to_string()).collect(),
            depth: 1,
            algorithms: vec!["minimax".into()],
            ..LearnRequest::default()
        };
        assert!(request(&["h8", "h9"]).plan(&Bounds::default()).is_ok());
        let e = request(&["h8h9"])
            .plan(&Bounds::default())
            .err()
            .expect("two moves in one element were taken");
        assert!(e.starts_with("move 1 (1-based) \"h8h9\""), "{e}");
    }
}
