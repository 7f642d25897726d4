//! `wuzi solve` and `wuzi perft`: exact values and tree sizes of small m,n,k-games.

use crate::algo::Algo;
use crate::learn_cmd::{compare, TreeArgs};
use clap::{Args, Subcommand};
use serde::Serialize;
use std::time::Duration;
use wuzi_mnk::{count_tree, Mnk};
use wuzi_search::{Forced, Player};

#[derive(Subcommand, Debug)]
pub enum SmallGame {
    /// Tic-tac-toe: 3x3, three in a row.
    Tictactoe,
    /// Any m,n,k-game: WIDTH x HEIGHT, K in a row wins.
    Mnk(MnkSize),
}

#[derive(Args, Debug, Clone)]
pub struct MnkSize {
    /// Columns (1 to 16).
    #[arg(long)]
    pub width: usize,
    /// Rows (1 to 16).
    #[arg(long)]
    pub height: usize,
    /// Stones in a row that win (1 to the longer side).
    #[arg(long)]
    pub k: usize,
}

impl SmallGame {
    pub fn board(&self) -> Result<Mnk, String> {
        match self {
            SmallGame::Tictactoe => Ok(Mnk::tic_tac_toe()),
            SmallGame::Mnk(size) => {
                Mnk::new(size.width, size.height, size.k).map_err(|e| e.to_string())
            }
        }
    }
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(subcommand)]
    pub game: SmallGame,
    /// The algorithm that solves it.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Algo::Search, global = true)]
    pub algo: Algo,
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Start from this position: the moves from the empty board, e.g. "b2 a1".
    #[arg(long, global = true, default_value = "")]
    pub moves: String,
    /// Search only this many plies (the textbook value at that depth, as `wuzi analyze
    /// --algo` gives it) instead of solving.
    #[arg(long, global = true)]
    pub depth: Option<u32>,
    /// Solving gives up after this many seconds: a big board takes the textbook searches
    /// longer than anyone waits (plain alpha-beta needs 66 s for 4,4,4, the full searcher
    /// 24 ms).
    #[arg(
        long,
        value_name = "SECONDS",
        global = true,
        default_value_t = DEFAULT_GIVE_UP_AFTER,
        value_parser = crate::arg_check::at_least_one::<u64>
    )]
    pub give_up_after: u64,
    #[command(flatten)]
    pub tree: TreeArgs,
}

/// Two minutes: enough for every board the README measures.
pub const DEFAULT_GIVE_UP_AFTER: u64 = 120;

#[derive(Serialize)]
struct Solution {
    width: usize,
    height: usize,
    k: usize,
    algo: &'static str,
    /// "draw", "first-player-win" or "second-player-win".
    result: &'static str,
    /// Plies to the end with best play when one side wins, else null.
    plies: Option<u32>,
    best_move: Option<String>,
    nodes: u64,
    millis: u128,
}

pub fn solve(args: &SolveArgs) -> Result<String, String> {
    let mut board = args.game.board()?;
    for mv in args.moves.split_whitespace() {
        board
            .play_named(mv)
            .map_err(|e| format!("move {mv}: {e}"))?;
    }
    if board.is_over() {
        return Err("the game is already over: nothing to solve".into());
    }
    if args.tree.tree.is_some() && matches!(args.algo, Algo::Search) {
        return Err(
            "--tree writes the tree a textbook search walks: add --algo minimax, \
                    negamax, alphabeta or pvs (the default, search, records none)"
                .into(),
        );
    }
    if args.depth.is_some() || args.tree.tree.is_some() {
        // To the end of the game unless a depth is given: every line ends by then.
        let depth = args.depth.unwrap_or(board.empty_count() as u32);
        let algorithms = vec![args.algo.into()];
        return compare(
            wuzi_learn::Position::Mnk(Box::new(board)),
            depth,
            algorithms,
            &args.tree,
            args.json,
            None,
            Some(Duration::from_secs(args.give_up_after)),
        );
    }
    let tt_bytes = board.solver_table_bytes();
    let result = args
        .algo
        .solve_within(
            &mut board,
            tt_bytes,
            Duration::from_secs(args.give_up_after),
        )
        .ok_or_else(|| {
            format!(
                "{} takes longer than {} s to solve {}x{}, {} in a row: raise \
                 --give-up-after to let it go on",
                args.algo.name(),
                args.give_up_after,
                board.width(),
                board.height(),
                board.k()
            )
        })?;
    let mover = board.to_move();
    let (winner, plies) = match result.score.forced() {
        Some(Forced::Win(plies)) => (Some(mover), Some(plies)),
        Some(Forced::Loss(plies)) => (Some(mover.opponent()), Some(plies)),
        None => (None, None),
    };
    let solution = Solution {
        width: board.width(),
        height: board.height(),
        k: board.k(),
        algo: args.algo.name(),
        result: match winner {
            None => "draw",
            Some(Player::First) => "first-player-win",
            Some(Player::Second) => "second-player-win",
        },
        plies,
        best_move: result.best_move.map(|mv| board.cell_name(mv)),
        nodes: result.nodes,
        millis: result.elapsed.as_millis(),
    };
    if args.json {
        return Ok(serde_json::to_string(&solution).expect("plain data serialises"));
    }
    let mut text = format!(
        "{}x{}, {} in a row: {}",
        solution.width, solution.height, solution.k, solution.result
    );
    if let Some(plies) = plies {
        text += &format!(" in {}", crate::output::count(plies as usize, "ply"));
    }
    text += &format!(
        "\nalgorithm {}, {} nodes, {} ms, best move {}",
        solution.algo,
        solution.nodes,
        solution.millis,
        solution.best_move.as_deref().unwrap_or("-")
    );
    Ok(text)
}

#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(subcommand)]
    pub game: SmallGame,
    /// Print one JSON object instead of text.
    #[arg(long, global = true)]
    pub json: bool,
}

/// Walking every line grows factorially: 10 cells take seconds (9.8 million nodes for 5x2
/// with 5 in a row), 12 take minutes (277 million for 4x3 with 3 in a row).
const PERFT_MAX_CELLS: usize = 10;

pub fn perft(args: &PerftArgs) -> Result<String, String> {
    let board = args.game.board()?;
    if board.cell_count() > PERFT_MAX_CELLS {
        return Err(format!(
            "perft walks every line of the game; boards over {PERFT_MAX_CELLS} cells would take too long"
        ));
    }
    let counts = count_tree(&board);
    if args.json {
        let json = serde_json::json!({
            "nodes": counts.nodes, "games": counts.games, "positions": counts.positions,
        });
        return Ok(json.to_string());
    }
    Ok(format!(
        "nodes (positions along every line): {}\ncomplete games: {}\ndistinct positions: {}",
        counts.nodes, counts.games, counts.positions
    ))
}
