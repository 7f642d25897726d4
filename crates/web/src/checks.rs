//! What a request to the game API asks for, checked apart from the server's state: the
//! board a new game or an analysis starts from (a move list or a game record), the AI's side,
//! the think time, and a player's move. Pure functions, so that any request body can be tried
//! without a server (the property test below).

use crate::api::{bad, ApiError};
use crate::store::parse_rule;
use serde::Deserialize;
use wuzi_gomoku::record::{read_records_each, RecordDefaults, DEFAULT_SIZE};
use wuzi_gomoku::review::ReviewSpan;
use wuzi_gomoku::{parse_point, Board, Player, Point, ThreatKind, ThreatSearch, MAX_QUIET_VCF};

/// The moves of a request: a list, each element one move (`["h8", "i9"]`), or one text in any
/// notation wuzi reads (`"h8 i9"`, `"h8i9"`, `"7,7 8,8"`), as the page's import box sends it.
#[derive(Deserialize)]
#[serde(
    untagged,
    expecting = "moves as a list of strings, one move each, or as one string of moves"
)]
pub enum Moves {
    Each(Vec<String>),
    Text(String),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    rule: Option<String>,
    size: Option<usize>,
    /// "black", "white" or "none".
    ai: Option<String>,
    time_ms: Option<u64>,
    moves: Option<Moves>,
    /// A game record instead of `moves`: SGF text, or Piskvork's `.psq` text.
    sgf: Option<String>,
    psq: Option<String>,
    /// Which game of a record that holds several (1-based; default 1).
    game: Option<usize>,
    /// With `moves`: how many of them are a record's opening stones (the page resuming a
    /// game it loaded from a record).
    opening: Option<usize>,
}

/// A game record given instead of `moves`: SGF or Piskvork's `.psq` text, and which game.
struct RecordText<'a> {
    sgf: Option<&'a str>,
    psq: Option<&'a str>,
    game: Option<usize>,
}

/// What a request does with its position: a game or a review needs the moves that led to
/// it, an analysis only the stones (a record's set-up stones, `AB`/`AW`, will do).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Needs {
    Moves,
    Stones,
}

/// The position at the end of a record's game, read by the same reader as `wuzi show`;
/// `None` when no record is given.
fn board_of_record(
    rule: Option<&str>,
    size: Option<usize>,
    record: RecordText,
    moves_given: bool,
    needs: Needs,
) -> Result<Option<(Board, usize)>, ApiError> {
    let (name, text) = match (record.sgf, record.psq) {
        (None, None) if record.game.is_some() => {
            return Err(bad("game chooses a game of a record: it needs sgf or psq"))
        }
        (None, None) => return Ok(None),
        (Some(sgf), None) => ("game.sgf", sgf),
        (None, Some(psq)) => ("game.psq", psq),
        (Some(_), Some(_)) => return Err(bad("give sgf or psq, not both")),
    };
    if moves_given {
        return Err(bad("give either moves or a record (sgf, psq), not both"));
    }
    let rule = parse_rule(rule.unwrap_or("freestyle")).map_err(bad)?;
    // `size` is for a record without `SZ`.
    let defaults = RecordDefaults {
        rule,
        size: size.unwrap_or(DEFAULT_SIZE),
    };
    let file = read_records_each(name, text, defaults);
    let number = record.game.unwrap_or(1);
    let count = file.games.len();
    let chosen = match file.take(number) {
        Some(game) => game.map_err(|e| bad(format!("record: {e}")))?,
        None => {
            return Err(bad(format!(
                "the record holds {}: game {number} is not one of them",
                plural(count, "game")
            )));
        }
    };
    if needs == Needs::Moves && chosen.setup.iter().any(|stones| !stones.is_empty()) {
        return Err(bad(
            "records with set-up stones (AB, AW) cannot be played or reviewed here (a game \
             needs the moves that led to its position); /api/analyze and /api/threats take them",
        ));
    }
    // A match manager's opening stones (`C[opening move]`) lead the record.
    let opening = chosen.moves.iter().take_while(|m| m.is_opening()).count();
    chosen
        .final_position()
        .map(|board| Some((board, opening)))
        .map_err(|e| bad(format!("record: {e}")))
}

/// The board a request describes (a record, or a move list), and how many of its first
/// moves are a record's opening stones.
fn board_of_request(
    rule: Option<&str>,
    size: Option<usize>,
    moves: Option<&Moves>,
    record: RecordText,
    needs: Needs,
) -> Result<(Board, usize), ApiError> {
    match board_of_record(rule, size, record, moves.is_some(), needs)? {
        Some(found) => Ok(found),
        None => Ok((board_of(rule, size, moves)?, 0)),
    }
}

/// [`board_of_request`] for a request: every request that takes a position has the same
/// fields (`rule`, `size`, `moves`, and `sgf`, `psq`, `game` for a record), read here once.
macro_rules! position_of {
    ($req:expr, $needs:expr) => {
        board_of_request(
            $req.rule.as_deref(),
            $req.size,
            $req.moves.as_ref(),
            RecordText {
                sgf: $req.sgf.as_deref(),
                psq: $req.psq.as_deref(),
                game: $req.game,
            },
            $needs,
        )
    };
}

/// The board after `moves`: each element of a list exactly one move, or a text read whole.
fn board_of(
    rule: Option<&str>,
    size: Option<usize>,
    moves: Option<&Moves>,
) -> Result<Board, ApiError> {
    let rule = parse_rule(rule.unwrap_or("freestyle")).map_err(bad)?;
    let size = size.unwrap_or(15);
    match moves {
        None => Board::new(size, rule),
        Some(Moves::Each(list)) => Board::from_move_strings(size, rule, list),
        Some(Moves::Text(text)) => Board::from_moves(size, rule, text),
    }
    .map_err(|e| bad(e.to_string()))
}

/// The think time a request gets: what it asks for (1 s by default), capped by the server's
/// `--max-time-ms`, so that a page or client written for another server still works.
fn think_time(max_time_ms: u64, time_ms: Option<u64>) -> Result<u64, ApiError> {
    match time_ms {
        Some(0) => Err(bad("time_ms 0 is out of range (at least 1)")),
        asked => Ok(asked.unwrap_or(DEFAULT_TIME_MS).min(max_time_ms)),
    }
}

/// The think time of a request that does not say.
const DEFAULT_TIME_MS: u64 = 1000;

/// A new game asked for: its board, the AI's side, its think time, and how many of the
/// board's first moves are a record's opening stones (a review leaves them out).
pub(crate) struct NewGameAsked {
    pub board: Board,
    pub ai: Option<Player>,
    pub time_ms: u64,
    pub opening: usize,
}

/// A new game's request checked, apart from the server's state (apart so that any body can
/// be tried without a server).
pub(crate) fn check_new_game(req: &NewGame, max_time_ms: u64) -> Result<NewGameAsked, ApiError> {
    let (board, mut opening) = position_of!(req, Needs::Moves)?;
    if let Some(n) = req.opening {
        let played = board.moves().len();
        if req.moves.is_none() {
            return Err(bad("opening goes with moves (a record says its own)"));
        }
        if n > played {
            return Err(bad(format!(
                "opening {n} is more than the {played} moves given"
            )));
        }
        opening = n;
    }
    let ai_text = req.ai.as_deref().unwrap_or("white");
    let ai = match ai_text.to_ascii_lowercase().as_str() {
        "black" => Some(Player::First),
        "white" => Some(Player::Second),
        "none" => None,
        _ => return Err(bad(format!("ai \"{ai_text}\" is not black, white or none"))),
    };
    let time_ms = think_time(max_time_ms, req.time_ms)?;
    Ok(NewGameAsked {
        board,
        ai,
        time_ms,
        opening,
    })
}

/// `POST /api/games/{id}/time`: the engine's think time for the rest of the game.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeRequest {
    time_ms: u64,
}

/// The think time a game asks for, capped as a new game's is.
pub(crate) fn check_time(req: &TimeRequest, max_time_ms: u64) -> Result<u64, ApiError> {
    think_time(max_time_ms, Some(req.time_ms))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    pub(crate) mv: String,
}

/// The point a player's move names on `board`, if they may play it now (`ai` plays the side
/// the player does not). The board is left as it was (`foul` looks ahead on it).
pub(crate) fn check_move(b: &mut Board, ai: Option<Player>, mv: &str) -> Result<Point, ApiError> {
    if mv.trim().is_empty() {
        return Err(bad("no move: send a point such as h8"));
    }
    let p = parse_point(mv, b.size()).map_err(|e| bad(format!("{mv}: {e}")))?;
    if let Some(r) = b.result() {
        return Err(bad(format!("the game is over ({})", r.reason.name())));
    }
    if ai == Some(b.side_to_move()) {
        return Err(bad("it is not your turn"));
    }
    if !b.is_empty(p) {
        return Err(bad(format!("{mv} is occupied")));
    }
    // Only the side with fouls (Black under renju) is refused a forbidden point: White may
    // play there, and often wins there.
    if b.rule().has_fouls(b.side_to_move()) {
        if let Some(foul) = b.foul(p) {
            return Err(bad(format!(
                "{mv} is forbidden for Black ({})",
                foul.name()
            )));
        }
    }
    Ok(p)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    rule: Option<String>,
    size: Option<usize>,
    moves: Option<Moves>,
    time_ms: Option<u64>,
    /// The N best moves instead of the best (1 to [`MAX_NBEST`]), ranked by one search in
    /// `time_ms`.
    nbest: Option<usize>,
    /// A game record instead of `moves`, as for `POST /api/games`.
    sgf: Option<String>,
    psq: Option<String>,
    game: Option<usize>,
    /// The id of a game whose event stream gets this search's progress (the page's analysis
    /// mode shows it live).
    progress_game: Option<String>,
}

/// The most moves `POST /api/analyze` lists with `nbest`.
pub(crate) const MAX_NBEST: usize = 10;

/// An analysis request checked (apart from the handler, as [`check_new_game`]).
pub(crate) struct AnalysisAsked {
    /// The position, which has a move to find.
    pub board: Board,
    /// The think time for the whole answer.
    pub time_ms: u64,
    /// `Some(n)` for the n best moves.
    pub nbest: Option<usize>,
    /// The game whose event stream hears the progress.
    pub progress_game: Option<String>,
}

/// An analysis request checked: the position, the think time and how many moves to list.
pub(crate) fn check_analysis(
    req: &AnalyzeRequest,
    max_time_ms: u64,
) -> Result<AnalysisAsked, ApiError> {
    let (board, _) = position_of!(req, Needs::Stones)?;
    if board.result().is_some() {
        return Err(bad("the game is already over: nothing to analyse"));
    }
    let time_ms = think_time(max_time_ms, req.time_ms)?;
    if let Some(n) = req.nbest.filter(|n| !(1..=MAX_NBEST).contains(n)) {
        return Err(bad(format!("nbest {n} is out of range (1 to {MAX_NBEST})")));
    }
    Ok(AnalysisAsked {
        board,
        time_ms,
        nbest: req.nbest,
        progress_game: req.progress_game.clone(),
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRequest {
    rule: Option<String>,
    size: Option<usize>,
    moves: Option<Moves>,
    sgf: Option<String>,
    psq: Option<String>,
    game: Option<usize>,
    /// The whole review's think time, shared by its positions (by default the server's
    /// limit, at most 5 s).
    time_ms: Option<u64>,
    /// The first move graded, counted from 1 (by default the first after a record's opening
    /// stones, or the first move), as `wuzi review --from`.
    from: Option<usize>,
}

/// A review's think time when the request does not say.
const REVIEW_TIME_MS: u64 = 5_000;

/// A review asked for: every move of the game (from `from`, or after a record's opening
/// stones), and the think time for them all.
pub(crate) struct ReviewAsked {
    pub span: ReviewSpan,
    pub time_ms: u64,
}

/// `1 game`, `2 games`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A review request checked: a game with at least one move, and the time.
pub(crate) fn check_review(req: &ReviewRequest, max_time_ms: u64) -> Result<ReviewAsked, ApiError> {
    let (board, opening) = position_of!(req, Needs::Moves)?;
    let played = board.moves().len();
    if played == 0 {
        return Err(bad("no moves to review"));
    }
    let skipped = match req.from {
        Some(n) if n == 0 || n > played => {
            return Err(bad(format!(
                "from {n} is out of range (1 to {played}, the game's moves)"
            )))
        }
        Some(n) => n - 1,
        None => opening,
    };
    // Opening stones are the match manager's, not the players': graded only when asked.
    let span = ReviewSpan::of(&board, skipped)
        .ok_or_else(|| bad(ReviewSpan::opening_only(played, "\"from\": 1")))?;
    let time_ms = match req.time_ms {
        None => max_time_ms.min(REVIEW_TIME_MS),
        given => think_time(max_time_ms, given)?,
    };
    Ok(ReviewAsked { span, time_ms })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThreatsRequest {
    rule: Option<String>,
    size: Option<usize>,
    moves: Option<Moves>,
    sgf: Option<String>,
    psq: Option<String>,
    game: Option<usize>,
    /// "vcf" (fours only) or "vct" (the default: fours and open threes).
    kind: Option<String>,
    /// With "vct": quiet moves that prepare a VCF of at most this many moves are threats too.
    quiet: Option<u32>,
    /// Look for the win of the side not to move (what it threatens).
    opponent: Option<bool>,
    /// "deepening" (the default: the win with the fewest attacker moves) or "proof"
    /// (proof-number search: may find a deep win sooner, not always the shortest).
    search: Option<String>,
    time_ms: Option<u64>,
}

/// A threat search asked for: the position, the threats allowed, whose win, and the time.
pub(crate) struct ThreatsAsked {
    pub board: Board,
    pub kind: ThreatKind,
    pub quiet: u32,
    pub opponent: bool,
    pub search: ThreatSearch,
    pub time_ms: u64,
}

/// A threat-search request checked (apart from the handler, as [`check_new_game`]).
pub(crate) fn check_threats(
    req: &ThreatsRequest,
    max_time_ms: u64,
) -> Result<ThreatsAsked, ApiError> {
    let (board, _) = position_of!(req, Needs::Stones)?;
    if board.result().is_some() {
        return Err(bad("the game is already over: no threats to look for"));
    }
    let kind_text = req.kind.as_deref().unwrap_or("vct");
    let kind = match kind_text.to_ascii_lowercase().as_str() {
        "vcf" => ThreatKind::Vcf,
        "vct" => ThreatKind::Vct,
        _ => return Err(bad(format!("kind \"{kind_text}\" is not vcf or vct"))),
    };
    let quiet = req.quiet.unwrap_or(0);
    if quiet > MAX_QUIET_VCF {
        return Err(bad(format!(
            "quiet {quiet} is out of range (0 to {MAX_QUIET_VCF})"
        )));
    }
    if quiet > 0 && kind == ThreatKind::Vcf {
        return Err(bad("quiet threats belong to a VCT: kind must be vct"));
    }
    let search_text = req.search.as_deref().unwrap_or("deepening");
    let search = match search_text.to_ascii_lowercase().as_str() {
        "deepening" => ThreatSearch::Deepening,
        "proof" => ThreatSearch::Proof,
        _ => {
            return Err(bad(format!(
                "search \"{search_text}\" is not deepening or proof"
            )))
        }
    };
    Ok(ThreatsAsked {
        board,
        kind,
        quiet,
        opponent: req.opponent.unwrap_or(false),
        search,
        time_ms: think_time(max_time_ms, req.time_ms)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::StatusCode;
    use proptest::collection::vec;
    use proptest::prelude::*;
    use proptest::sample::select;

    /// A JSON string of any text.
    fn string(text: impl Strategy<Value = String>) -> impl Strategy<Value = String> {
        text.prop_map(|t| serde_json::to_string(&t).unwrap())
    }

    /// A JSON number as a client might send one: small, negative, huge (past u64), or not
    /// whole.
    fn number() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => (0u64..30).prop_map(|n| n.to_string()),
            2 => select(vec![
                "-1", "-15", "0", "4294967296", "18446744073709551615", "18446744073709551616",
                "99999999999999999999999", "1e400", "-1e400", "15.0", "15.5", "1e2", "-0",
            ])
            .prop_map(String::from),
            1 => any::<u64>().prop_map(|n| n.to_string()),
            1 => any::<i64>().prop_map(|n| n.to_string()),
        ]
    }

    /// A move as a client might write one: on a board or not, or anything.
    fn move_text() -> impl Strategy<Value = String> {
        prop_oneof![
            6 => "[a-o][1-9]",
            2 => "[0-9]{1,2},[0-9]{1,2}",
            3 => select(vec![
                "z99", "a0", "", " ", "h8 h9", "v22", "w1", "a23", "99999999999,1", "-1,5",
                "h", "8", "é9", "h８", "７,７", "\u{0}", "h8\n",
            ])
            .prop_map(String::from),
            1 => "\\PC{0,8}",
        ]
    }

    /// Any JSON value, nested a little.
    fn any_json() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("null".to_string()),
            Just("true".to_string()),
            number(),
            string("\\PC{0,10}"),
        ];
        leaf.prop_recursive(2, 12, 4, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..4).prop_map(|v| format!("[{}]", v.join(","))),
                vec((string("[a-z_]{1,6}"), inner), 0..4).prop_map(|v| {
                    let pairs: Vec<String> = v.iter().map(|(k, v)| format!("{k}:{v}")).collect();
                    format!("{{{}}}", pairs.join(","))
                }),
            ]
        })
    }

    /// A record's text: SGF or .psq that is well formed or nearly, or anything.
    fn record() -> impl Strategy<Value = String> {
        prop_oneof![
            2 => vec("[a-w][a-w]", 0..8).prop_map(|points| {
                let moves: String = points
                    .iter()
                    .enumerate()
                    .map(|(i, p)| format!(";{}[{p}]", if i % 2 == 0 { "B" } else { "W" }))
                    .collect();
                format!("(;GM[4]SZ[15]{moves})")
            }),
            1 => (0usize..40, vec((0usize..25, 0usize..25), 0..8)).prop_map(|(n, moves)| {
                let lines: Vec<String> =
                    moves.iter().map(|(x, y)| format!("{x},{y},0")).collect();
                format!("Piskvorky {n}x{n}, 11:11, 0\n{}", lines.join("\n"))
            }),
            1 => "\\PC{0,30}",
        ]
    }

    /// One field of a request: a known key with a likely value or any value, or an unknown
    /// key.
    fn field() -> impl Strategy<Value = String> {
        let value = |likely: BoxedStrategy<String>| prop_oneof![4 => likely, 1 => any_json()];
        let rule = select(vec![
            "freestyle",
            "renju",
            "standard",
            "RENJU",
            "caro",
            "",
            "free",
        ])
        .prop_map(String::from);
        let ai = select(vec!["black", "white", "none", "Black", ""]).prop_map(String::from);
        let kind = select(vec!["vcf", "vct", "VCT", ""]).prop_map(String::from);
        let search = select(vec!["deepening", "proof", "Proof", ""]).prop_map(String::from);
        prop_oneof![
            2 => value(string(prop_oneof![4 => rule, 1 => "\\PC{0,8}"]).boxed())
                .prop_map(|v| format!("\"rule\":{v}")),
            2 => value(number().boxed()).prop_map(|v| format!("\"size\":{v}")),
            1 => value(string(ai).boxed()).prop_map(|v| format!("\"ai\":{v}")),
            2 => value(number().boxed()).prop_map(|v| format!("\"time_ms\":{v}")),
            4 => value(
                vec(string(move_text()), 0..12)
                    .prop_map(|m| format!("[{}]", m.join(",")))
                    .boxed()
            )
            .prop_map(|v| format!("\"moves\":{v}")),
            2 => string(vec(move_text(), 0..12).prop_map(|m| m.join(" ")))
                .prop_map(|v| format!("\"moves\":{v}")),
            1 => value(string(record()).boxed()).prop_map(|v| format!("\"sgf\":{v}")),
            1 => value(string(record()).boxed()).prop_map(|v| format!("\"psq\":{v}")),
            1 => value(number().boxed()).prop_map(|v| format!("\"game\":{v}")),
            1 => value(string(kind).boxed()).prop_map(|v| format!("\"kind\":{v}")),
            1 => value(number().boxed()).prop_map(|v| format!("\"quiet\":{v}")),
            1 => value(string(search).boxed()).prop_map(|v| format!("\"search\":{v}")),
            1 => value(number().boxed()).prop_map(|v| format!("\"nbest\":{v}")),
            1 => value(number().boxed()).prop_map(|v| format!("\"from\":{v}")),
            1 => value(number().boxed()).prop_map(|v| format!("\"opening\":{v}")),
            1 => value(select(vec!["true", "false"]).prop_map(String::from).boxed())
                .prop_map(|v| format!("\"opponent\":{v}")),
            1 => (string("[a-z]{1,8}"), any_json()).prop_map(|(k, v)| format!("{k}:{v}")),
        ]
    }

    /// A body much like the page sends: a move list on a board of a supported size (so that
    /// most give a game), with some of the other fields.
    fn likely_body() -> impl Strategy<Value = String> {
        (
            select(vec!["freestyle", "renju", "standard"]),
            prop_oneof![3 => Just(15usize), 1 => 5usize..=22],
            vec(prop_oneof![9 => "[a-h][1-8]", 1 => move_text()], 0..10),
            prop::option::of(select(vec!["black", "white", "none"])),
            prop::option::of(prop_oneof![5 => 1u64..=MAX_TIME_MS, 1 => any::<u64>()]),
        )
            .prop_map(|(rule, size, moves, ai, time_ms)| {
                let mut fields = vec![
                    format!("\"rule\":\"{rule}\""),
                    format!("\"size\":{size}"),
                    format!("\"moves\":{}", serde_json::to_string(&moves).unwrap()),
                ];
                fields.extend(ai.map(|a| format!("\"ai\":\"{a}\"")));
                fields.extend(time_ms.map(|t| format!("\"time_ms\":{t}")));
                format!("{{{}}}", fields.join(","))
            })
    }

    /// A request body: one much like the page's, an object of any fields (sometimes cut
    /// short), any JSON, or any text.
    fn body_text() -> impl Strategy<Value = String> {
        prop_oneof![
            8 => likely_body(),
            8 => (vec(field(), 0..6), prop::option::weighted(0.05, 0usize..200)).prop_map(
                |(fields, cut)| {
                    let body = format!("{{{}}}", fields.join(","));
                    match cut {
                        Some(at) if body.is_char_boundary(at.min(body.len())) => {
                            body[..at.min(body.len())].to_string()
                        }
                        _ => body,
                    }
                }
            ),
            1 => any_json(),
            1 => "\\PC{0,40}",
        ]
    }

    /// Plays `moves` as a player would with `POST /moves`, each checked by `check_move`: a
    /// refused move leaves the board as it was, an accepted one is legal, and a legal one
    /// on the player's turn is accepted.
    fn play_moves(
        board: &mut Board,
        ai: Option<Player>,
        moves: &[String],
    ) -> Result<(), TestCaseError> {
        for mv in moves {
            let (history, hash) = (board.moves().to_vec(), board.hash());
            match check_move(board, ai, mv) {
                Ok(p) => {
                    prop_assert_eq!(board.moves(), &history[..]);
                    prop_assert!(board.try_play(p).is_ok(), "{:?}", mv);
                }
                Err(ApiError(status, message)) => {
                    prop_assert_eq!(status, StatusCode::BAD_REQUEST);
                    prop_assert!(!message.is_empty());
                    prop_assert_eq!(board.moves(), &history[..], "{}", message);
                    prop_assert_eq!(board.hash(), hash);
                    if let Ok(p) = parse_point(mv, board.size()) {
                        let players_turn = ai != Some(board.side_to_move());
                        prop_assert!(
                            !(players_turn && board.is_legal(p)),
                            "the legal move {} was refused: {}",
                            mv,
                            message
                        );
                    }
                }
            }
            prop_assert_eq!(board.hash(), board.hash_from_scratch());
        }
        Ok(())
    }

    /// Under renju only Black is refused a forbidden point: White may play there (here j8,
    /// Black's double-three, is White's to take).
    #[test]
    fn white_may_play_on_a_point_forbidden_for_black() {
        let rule = wuzi_gomoku::Rule::Renju;
        let white_to_move = ["h8", "a1", "i8", "a2", "j9", "a3", "j10"];
        let mut board = Board::from_move_strings(15, rule, &white_to_move).unwrap();
        let j8 = parse_point("j8", 15).unwrap();
        assert!(board.foul(j8).is_some());
        assert_eq!(check_move(&mut board, None, "j8").ok(), Some(j8));
        assert_eq!(
            check_move(&mut board, Some(Player::First), "j8").ok(),
            Some(j8)
        );
        // Black to move: refused.
        board.try_play(parse_point("a4", 15).unwrap()).unwrap();
        let ApiError(status, message) = check_move(&mut board, None, "j8").unwrap_err();
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(message, "j8 is forbidden for Black (double-three)");
    }

    /// Each element of a `moves` list is one move (`Board::from_move_strings`): two in one
    /// element are refused with a 400 naming it. A `moves` text is read whole, in any
    /// notation, as the page's import box sends it.
    #[test]
    fn moves_are_a_list_of_single_moves_or_one_text() {
        let moves = |json: &str| serde_json::from_str::<Moves>(json).unwrap();
        assert!(board_of(None, None, Some(&moves(r#"["h8", "7,6"]"#))).is_ok());
        match board_of(None, None, Some(&moves(r#"["h8", "h9i9"]"#))) {
            Ok(_) => panic!("two moves in one element were taken"),
            Err(ApiError(status, message)) => {
                assert_eq!(status, StatusCode::BAD_REQUEST);
                assert!(
                    message.starts_with("move 2 (1-based) \"h9i9\""),
                    "{message}"
                );
            }
        }
        for text in [r#""h8 h9i9""#, r#""7,7 7,8 8,8""#] {
            let Ok(board) = board_of(None, None, Some(&moves(text))) else {
                panic!("{text} was refused");
            };
            assert_eq!(board.moves().len(), 3, "{text}");
        }
        assert_eq!(board_of(None, None, None).map(|b| b.size()).ok(), Some(15));
    }

    const MAX_TIME_MS: u64 = 10_000;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any body for `POST /api/games`, `POST /api/analyze`, `POST /api/review` or
        /// `POST /api/threats` is
        /// refused with a 400 and a message, or gives a board on a supported size with a
        /// think time in range; on a new game, any moves the player then sends are refused
        /// without a change, or legal.
        #[test]
        fn any_request_body_is_refused_or_valid(
            body in body_text(),
            then in vec(prop_oneof![4 => "[a-h][1-8]", 1 => move_text()], 0..8),
        ) {
            let check = |board: &Board, time_ms: u64| -> Result<(), TestCaseError> {
                prop_assert!((5..=22).contains(&board.size()));
                prop_assert!((1..=MAX_TIME_MS).contains(&time_ms));
                prop_assert_eq!(board.hash(), board.hash_from_scratch());
                Ok(())
            };
            let refused = |e: ApiError| -> Result<(), TestCaseError> {
                prop_assert_eq!(e.0, StatusCode::BAD_REQUEST);
                prop_assert!(!e.1.is_empty());
                Ok(())
            };
            if let Ok(req) = serde_json::from_str::<NewGame>(&body) {
                match check_new_game(&req, MAX_TIME_MS) {
                    Ok(mut asked) => {
                        check(&asked.board, asked.time_ms)?;
                        prop_assert!(asked.opening <= asked.board.moves().len());
                        play_moves(&mut asked.board, asked.ai, &then)?;
                    }
                    Err(e) => refused(e)?,
                }
            }
            if let Ok(req) = serde_json::from_str::<AnalyzeRequest>(&body) {
                match check_analysis(&req, MAX_TIME_MS) {
                    Ok(asked) => {
                        check(&asked.board, asked.time_ms)?;
                        prop_assert!(asked.board.result().is_none());
                        prop_assert!(asked.nbest.is_none_or(|n| (1..=MAX_NBEST).contains(&n)));
                    }
                    Err(e) => refused(e)?,
                }
            }
            if let Ok(req) = serde_json::from_str::<ReviewRequest>(&body) {
                match check_review(&req, MAX_TIME_MS) {
                    Ok(asked) => {
                        check(&asked.span.start, asked.time_ms)?;
                        prop_assert!(!asked.span.moves.is_empty());
                        let mut board = asked.span.start.clone();
                        for &p in &asked.span.moves {
                            prop_assert!(board.try_play(p).is_ok());
                        }
                    }
                    Err(e) => refused(e)?,
                }
            }
            if let Ok(req) = serde_json::from_str::<ThreatsRequest>(&body) {
                match check_threats(&req, MAX_TIME_MS) {
                    Ok(asked) => {
                        check(&asked.board, asked.time_ms)?;
                        prop_assert!(asked.board.result().is_none());
                        prop_assert!(asked.quiet <= MAX_QUIET_VCF);
                        prop_assert!(asked.quiet == 0 || asked.kind == ThreatKind::Vct);
                    }
                    Err(e) => refused(e)?,
                }
            }
            let _ = serde_json::from_str::<MoveRequest>(&body);
        }
    }
}
