//! `wuzi analyze`: the engine's view of a position, a line per completed depth or one JSON
//! object.

use crate::learn_cmd::{compare, TreeArgs};
use crate::output::count;
use crate::position::PositionArgs;
use clap::Args;
use serde::Serialize;
use std::time::Duration;
use wuzi_gomoku::{win_chance, Analysis, Board, CandidateOrder, Engine, EngineOptions, Info, Rule};
use wuzi_search::{Forced, Limits};

#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub position: PositionArgs,
    /// Think for this many milliseconds (the default: 1000, unless a depth or node limit is
    /// given).
    #[arg(long, value_name = "MS", value_parser = crate::arg_check::at_least_one::<u64>)]
    pub time: Option<u64>,
    /// Search to this depth (deterministic).
    #[arg(long, value_parser = crate::arg_check::at_least_one::<u32>)]
    pub depth: Option<u32>,
    /// Search about this many nodes (deterministic; a search may end a little past them).
    #[arg(long, value_parser = crate::arg_check::at_least_one::<u64>)]
    pub nodes: Option<u64>,
    #[command(flatten)]
    pub engine: EngineArgs,
    /// Search threads (they share the table); 1 keeps depth- and node-limited searches
    /// repeatable.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Print one JSON object at the end instead of a line per depth.
    #[arg(long)]
    pub json: bool,
    /// The N best moves, each with its score and line ("multi-PV"), best first: one search
    /// that at each depth scores every move of the list, each without the moves above it.
    /// `--time`, `--depth` and `--nodes` are the whole search's (with `--engine
    /// search=generic`: one search per move, each with an Nth of the time, the depth and
    /// nodes each).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=484))]
    pub nbest: Option<u16>,
    /// Compare search algorithms at `--depth` instead of running the engine: a comma-separated
    /// list of minimax, negamax, alphabeta, pvs and engine (`engine` takes `--engine`,
    /// `--hash-mb` and `--threads`).
    #[arg(long, value_name = "LIST")]
    pub algo: Option<String>,
    /// With --algo: the textbook algorithms search only the best N candidates by point score
    /// (0: every empty point within two of a stone).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub width: usize,
    /// With --algo: try the candidates best first, or reversed (to see what ordering is worth).
    #[arg(long, value_enum, ignore_case = true, default_value_t = OrderArg::BestFirst)]
    pub order: OrderArg,
    /// With --algo: give up after this many seconds (default 120; plain minimax to depth 5
    /// from an opening takes longer than anyone waits).
    #[arg(long, value_name = "SECONDS", value_parser = crate::arg_check::at_least_one::<u64>)]
    pub give_up_after: Option<u64>,
    #[command(flatten)]
    pub tree: TreeArgs,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum OrderArg {
    BestFirst,
    Reversed,
}

/// The analysis as front ends show it (also the web API's `analysis` object).
#[derive(Serialize, Debug, Clone)]
pub struct AnalysisJson {
    pub best_move: Option<String>,
    /// Heuristic score from the side to move's view; decided results are ±1000000 minus the
    /// plies to the end.
    pub score: i32,
    /// "win" or "loss" when proven for the side to move, else null.
    pub forced: Option<&'static str>,
    /// Plies to the end of the game when forced.
    pub plies: Option<u32>,
    /// The side to move's chance of winning the score stands for (`wuzi_gomoku::win_chance`:
    /// the rule's fitted scale; 1 or 0 when proven).
    pub win_chance: f64,
    pub depth: u32,
    pub nodes: u64,
    pub nps: u64,
    pub millis: u128,
    pub pv: Vec<String>,
    /// Under renju, the point where the line ends with Black's forced block on a forbidden
    /// point (the loss the score counts), as `wuzi threats` names it; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forbidden_block: Option<String>,
}

/// `--nbest --json`: the best move's analysis, with every move's in `lines`, best first.
#[derive(Serialize)]
struct BestMovesJson<'a> {
    #[serde(flatten)]
    best: &'a AnalysisJson,
    lines: &'a [AnalysisJson],
}

impl AnalysisJson {
    pub fn new(a: &Analysis, size: usize, rule: Rule) -> AnalysisJson {
        let (forced, plies) = match a.forced() {
            Some(Forced::Win(n)) => (Some("win"), Some(n)),
            Some(Forced::Loss(n)) => (Some("loss"), Some(n)),
            None => (None, None),
        };
        AnalysisJson {
            best_move: a.best_move.map(|p| p.to_human(size)),
            score: a.score.value(),
            forced,
            plies,
            win_chance: win_chance(a.score, rule),
            depth: a.depth,
            nodes: a.nodes,
            nps: a.nps(),
            millis: a.elapsed.as_millis(),
            pv: a.pv.iter().map(|p| p.to_human(size)).collect(),
            forbidden_block: None,
        }
    }

    /// As [`AnalysisJson::new`], for a search of `board`: with the forbidden block its line
    /// may end with.
    pub fn of(a: &Analysis, board: &Board) -> AnalysisJson {
        AnalysisJson {
            forbidden_block: board
                .line_ends_in_foul(&a.pv)
                .map(|(p, _)| p.to_human(board.size())),
            ..AnalysisJson::new(a, board.size(), board.rule())
        }
    }
}

/// Words for a line that ends with Black's forced block on a forbidden point, or nothing.
fn foul_note(a: &Analysis, board: &Board) -> String {
    match board.line_ends_in_foul(&a.pv) {
        Some((p, foul)) => format!(
            " ({} is Black's only block, forbidden: {}; Black loses there)",
            p.to_human(board.size()),
            foul.name()
        ),
        None => String::new(),
    }
}

/// One progress line: depth, score, nodes, speed and the principal variation.
pub fn info_line(info: &Info, size: usize) -> String {
    let millis = info.elapsed.as_millis();
    let nps = info.nodes as u128 * 1000 / millis.max(1);
    let pv: Vec<String> = info.pv.iter().map(|p| p.to_human(size)).collect();
    format!(
        "depth {:>2}  score {:>10}  nodes {:>10}  nps {:>8}  time {:>6} ms  pv {}",
        info.depth,
        info.score.to_string(),
        info.nodes,
        nps,
        millis,
        pv.join(" ")
    )
}

impl AnalyzeArgs {
    /// The limits of the search (with `--nbest`, of the one search that ranks them all).
    pub fn limits(&self) -> Limits {
        let time = match (self.time, self.depth, self.nodes) {
            (Some(ms), _, _) => Some(ms),
            (None, None, None) => Some(1000),
            _ => None,
        }
        .map(Duration::from_millis);
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            time,
            target: None,
            stop: None,
        }
    }
}

/// The engine's memory and switches, as the commands that search take them.
#[derive(Args, Debug)]
pub struct EngineArgs {
    /// Memory for the engine's tables, in MiB.
    #[arg(long, default_value_t = 64, value_parser = crate::position::hash_mib)]
    pub hash_mb: usize,
    /// Engine switches as in `wuzi match`, e.g. `vct=off,defence=off,width=0`.
    #[arg(long = "engine", default_value = "")]
    pub switches: String,
}

impl EngineArgs {
    /// The engine as `--engine` switches (as in `wuzi match`) and `--hash-mb` set it.
    pub fn options(&self) -> Result<EngineOptions, String> {
        let mut options = EngineOptions::default();
        wuzi_gomocup::manager::side::apply_switches(&mut options, &self.switches)?;
        options.table_bytes = self.hash_mb << 20;
        Ok(options)
    }
}

/// An unproven score as the side to move's chance of winning, in whole percent kept within
/// 1-99% (a proven result is said in plies instead, and "100%" would read as one).
pub fn chance_text(score: wuzi_search::Score, rule: Rule) -> String {
    wuzi_gomoku::chance_percent(win_chance(score, rule), false)
}

/// A score for the analysis lines: proven in plies (`win in 7`), else the score and the
/// side to move's chance (`148, Black 69%`).
fn score_and_chance(a: &Analysis, board: &Board) -> String {
    match side_chance(board.side_to_move(), a.score, board.rule()) {
        Some(chance) => format!("{}, {chance}", a.score),
        None => a.score.to_string(),
    }
}

/// `side`'s chance of winning as the score stands (`Black 58%`), or `None` when the score
/// is proven.
pub fn side_chance(
    side: wuzi_search::Player,
    score: wuzi_search::Score,
    rule: Rule,
) -> Option<String> {
    let name = crate::position::colour_title(side);
    score
        .forced()
        .is_none()
        .then(|| format!("{name} {}", chance_text(score, rule)))
}

/// Who searched, for [`verdict_text`]: the engine for its own move, the player asking for
/// a hint, or neither (an analysis, for the side to move).
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Searcher {
    Engine,
    Player,
    Side(wuzi_search::Player),
}

/// What a search says to a player: a proven end in plies, else the score and the mover's
/// chance (`it wins in 7 plies`, `score 35, your chance 52%`, `score 35, Black 52%`).
pub fn verdict_text(a: &Analysis, rule: Rule, who: Searcher) -> String {
    let side = crate::position::colour_title;
    let chance = chance_text(a.score, rule);
    match (a.forced(), who) {
        (Some(Forced::Win(plies)), Searcher::Engine) => {
            format!("it wins in {}", count(plies as usize, "ply"))
        }
        (Some(Forced::Win(plies)), Searcher::Player) => {
            format!("you win in {}", count(plies as usize, "ply"))
        }
        (Some(Forced::Win(plies)), Searcher::Side(p)) => {
            format!("{} wins in {}", side(p), count(plies as usize, "ply"))
        }
        (Some(Forced::Loss(plies)), Searcher::Engine) => {
            format!("it sees a loss in {}", count(plies as usize, "ply"))
        }
        (Some(Forced::Loss(plies)), Searcher::Player) => {
            format!("you lose in {}", count(plies as usize, "ply"))
        }
        (Some(Forced::Loss(plies)), Searcher::Side(p)) => {
            format!("{} loses in {}", side(p), count(plies as usize, "ply"))
        }
        (None, Searcher::Engine) => format!("score {}, its chance {chance}", a.score),
        (None, Searcher::Player) => format!("score {}, your chance {chance}", a.score),
        (None, Searcher::Side(p)) => format!("score {}, {} {chance}", a.score, side(p)),
    }
}

/// What every front end says when the side to move cannot play anywhere.
pub const NO_LEGAL_MOVE: &str =
    "Black has no legal move: every empty point is forbidden under renju";

pub fn analyze(args: &AnalyzeArgs) -> Result<String, String> {
    let board = args.position.board()?;
    if board.result().is_some() {
        return Err("the game is already over: nothing to analyse".into());
    }
    if let Some(list) = &args.algo {
        if args.nbest.is_some() {
            return Err(
                "--nbest asks the engine for its best moves: it does not go with --algo".into(),
            );
        }
        return compare_algorithms(args, board, list);
    }
    if args.tree.tree.is_some() {
        return Err("--tree needs --algo (the engine's tree is not recorded)".into());
    }
    if args.width != 0 || args.order != OrderArg::BestFirst {
        return Err(
            "--width and --order choose the textbook algorithms' moves: they need --algo".into(),
        );
    }
    if args.give_up_after.is_some() {
        return Err("--give-up-after bounds --algo; the engine keeps to --time".into());
    }
    let size = board.size();
    let mut options = args.engine.options()?;
    options.check_rule(board.rule())?;
    options.threads = args.threads.into();
    let mut engine = Engine::new(board, options);
    if !engine.has_legal_move() {
        return Err(NO_LEGAL_MOVE.into());
    }
    let json = args.json;
    if let Some(n) = args.nbest {
        return best_moves(&mut engine, args, n.into());
    }
    let analysis = engine.go(&args.limits(), |info| {
        if !json {
            crate::output::line(info_line(info, size));
        }
    });
    let out = AnalysisJson::of(&analysis, engine.board());
    if json {
        return Ok(serde_json::to_string(&out).expect("serialisable"));
    }
    Ok(format!(
        "best move {} ({}), depth {}, {} nodes, {} nps, {} ms{}",
        out.best_move.as_deref().unwrap_or("-"),
        score_and_chance(&analysis, engine.board()),
        out.depth,
        out.nodes,
        out.nps,
        out.millis,
        // The line is shown when it ends with a forbidden block, to say so.
        match foul_note(&analysis, engine.board()) {
            note if note.is_empty() => note,
            note => format!("\npv {}{note}", out.pv.join(" ")),
        }
    ))
}

/// `--nbest N`: the N best moves, a progress line per depth for each move (prefixed by its
/// rank), then a line per move; or one JSON object, the best move's analysis with
/// every move's in `lines`.
fn best_moves(engine: &mut Engine, args: &AnalyzeArgs, n: usize) -> Result<String, String> {
    let size = engine.board().size();
    let json = args.json;
    let found = engine.best_moves(
        n,
        &args.limits(),
        |rank, info| {
            if !json {
                crate::output::line(format!("#{} {}", rank + 1, info_line(info, size)));
            }
        },
        |_| {},
    );
    let lines: Vec<AnalysisJson> = found
        .iter()
        .map(|a| AnalysisJson::of(a, engine.board()))
        .collect();
    let Some(best) = lines.first() else {
        return Err(NO_LEGAL_MOVE.into());
    };
    if json {
        let out = BestMovesJson {
            best,
            lines: &lines,
        };
        return Ok(serde_json::to_string(&out).expect("serialisable"));
    }
    let text: Vec<String> = found
        .iter()
        .zip(&lines)
        .enumerate()
        .map(|(i, (a, line))| {
            format!(
                "{:>2}. {:<4} {:>16}  depth {:>2}  {:>10} nodes  {:>6} ms  pv {}{}",
                i + 1,
                line.best_move.as_deref().unwrap_or("-"),
                score_and_chance(a, engine.board()),
                line.depth,
                line.nodes,
                line.millis,
                line.pv.join(" "),
                foul_note(a, engine.board())
            )
        })
        .collect();
    let mut text = text.join("\n");
    if found.len() < n {
        // Against a threat, or on an empty board, the root has few candidates: say so
        // rather than print fewer lines than asked without a word.
        text.push_str(&format!(
            "\n({} of the {n} lines asked: the engine's root considers no other move here, \
             or the search stopped before its first depth was done)",
            found.len()
        ));
    }
    Ok(text)
}

/// `--algo`: the listed algorithms side by side at `--depth`.
fn compare_algorithms(args: &AnalyzeArgs, mut board: Board, list: &str) -> Result<String, String> {
    let Some(depth) = args.depth else {
        return Err("--algo needs --depth".into());
    };
    if args.time.is_some() || args.nodes.is_some() {
        return Err("--algo searches to --depth; --time and --nodes do not apply".into());
    }
    if !board.has_legal_move() {
        return Err(NO_LEGAL_MOVE.into());
    }
    let algorithms = wuzi_learn::parse_algorithms(list)?;
    let order = match args.order {
        OrderArg::BestFirst => CandidateOrder::BestFirst,
        OrderArg::Reversed => CandidateOrder::Reversed,
    };
    let position = wuzi_learn::Position::Gomoku {
        board: Box::new(board),
        candidates: args.width,
        order,
    };
    let mut options = args.engine.options()?;
    options.threads = args.threads.into();
    compare(
        position,
        depth,
        algorithms,
        &args.tree,
        args.json,
        Some(options),
        Some(std::time::Duration::from_secs(
            args.give_up_after
                .unwrap_or(crate::solve::DEFAULT_GIVE_UP_AFTER),
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use wuzi_search::{Player, Score};

    #[test]
    fn chances_name_the_side_and_stay_within_1_and_99_percent() {
        let even = Score::heuristic(0);
        assert_eq!(
            side_chance(Player::First, even, Rule::Freestyle).unwrap(),
            "Black 50%"
        );
        // 384.2 units are one log-odds in freestyle: 73%.
        let ahead = Score::heuristic(384);
        assert_eq!(
            side_chance(Player::Second, ahead, Rule::Freestyle).unwrap(),
            "White 73%"
        );
        let far = Score::heuristic(5000);
        assert_eq!(chance_text(far, Rule::Freestyle), "99%");
        assert_eq!(chance_text(-far, Rule::Freestyle), "1%");
        assert_eq!(
            side_chance(Player::First, Score::win_in(3), Rule::Renju),
            None
        );
    }
}
