//! The JSON API's handlers. Each validates everything before it changes anything.

use crate::store::{parse_rule, Game, GameView, PageEvent};
use crate::{ids, request, shutdown, AppState};
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use tokio_stream::wrappers::{BroadcastStream, WatchStream};
use tokio_stream::{Stream, StreamExt};
use wuzi_gomoku::record::{read_records, GameRecord};
use wuzi_gomoku::{parse_point, Analysis, Board, Engine, EngineOptions, Info, Player, Point};
use wuzi_search::{Forced, Limits};

pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

fn bad(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.into())
}

type Shared = State<Arc<AppState>>;
type Reply = Result<Response, ApiError>;

pub async fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such page".into())
}

/// The body as JSON, or a 400 that says what is wrong with it.
/// A body over the size limit keeps its 413.
fn body<T>(body: Result<Json<T>, JsonRejection>) -> Result<T, ApiError> {
    body.map(|Json(t)| t).map_err(|e| {
        let status = match e.status() {
            StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
            _ => StatusCode::BAD_REQUEST,
        };
        ApiError(
            status,
            format!("unreadable request body: {}", e.body_text()),
        )
    })
}

/// The same 404 for a malformed id and a well-formed one that names no game: it tells a
/// guesser nothing, and echoes nothing.
fn no_such_game() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such game".into())
}

fn game_id(id: String) -> Result<String, ApiError> {
    if ids::is_well_formed(&id) {
        Ok(id)
    } else {
        Err(no_such_game())
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    rule: Option<String>,
    size: Option<usize>,
    /// "black", "white" or "none".
    ai: Option<String>,
    time_ms: Option<u64>,
    moves: Option<Vec<String>>,
    /// A game record instead of `moves`: SGF text, or Piskvork's `.psq` text.
    sgf: Option<String>,
    psq: Option<String>,
    /// Which game of a record that holds several (1-based; default 1).
    game: Option<usize>,
}

/// A game record given instead of `moves`: SGF or Piskvork's `.psq` text, and which game.
struct RecordText<'a> {
    sgf: Option<&'a str>,
    psq: Option<&'a str>,
    game: Option<usize>,
}

/// The position at the end of a record's game, read by the same reader as `wuzi show`;
/// `None` when no record is given.
fn board_of_record(
    rule: Option<&str>,
    record: RecordText,
    moves_given: bool,
) -> Result<Option<Board>, ApiError> {
    let (name, text) = match (record.sgf, record.psq) {
        (None, None) => return Ok(None),
        (Some(sgf), None) => ("game.sgf", sgf),
        (None, Some(psq)) => ("game.psq", psq),
        (Some(_), Some(_)) => return Err(bad("give sgf or psq, not both")),
    };
    if moves_given {
        return Err(bad("give either moves or a record (sgf, psq), not both"));
    }
    let rule = parse_rule(rule.unwrap_or("freestyle")).map_err(bad)?;
    let records = read_records(name, text, rule).map_err(|e| bad(format!("record: {e}")))?;
    let number = record.game.unwrap_or(1);
    let count = records.len();
    let chosen = number
        .checked_sub(1)
        .and_then(|i| records.get(i))
        .ok_or_else(|| {
            bad(format!(
                "the record holds {count} games: game {number} is not one of them"
            ))
        })?;
    if chosen.setup.iter().any(|stones| !stones.is_empty()) {
        return Err(bad(
            "records with set-up stones (AB, AW) cannot be played here",
        ));
    }
    chosen
        .final_position()
        .map(Some)
        .map_err(|e| bad(format!("record: {e}")))
}

/// The board a request describes: a record, or a move list.
fn board_of_request(
    rule: Option<&str>,
    size: Option<usize>,
    moves: Option<&[String]>,
    record: RecordText,
) -> Result<Board, ApiError> {
    match board_of_record(rule, record, moves.is_some())? {
        Some(board) => Ok(board),
        None => board_of(rule, size, moves.unwrap_or(&[])),
    }
}

/// The game as an SGF record (`wuzi show --format sgf`'s writer), the engine named as its side.
pub async fn sgf(State(state): Shared, Path(id): Path<String>) -> Reply {
    let id = game_id(id)?;
    let mut store = state.store.lock().expect("store");
    let game = store.get_mut(&id).ok_or_else(no_such_game)?;
    let mut record = GameRecord::from_board(&game.board);
    let name = |side: Player| match game.ai {
        Some(ai) if ai == side => "wuzi",
        Some(_) => "you",
        None => "",
    };
    record.black = name(Player::First).into();
    record.white = name(Player::Second).into();
    Ok((
        [(
            axum::http::header::CONTENT_TYPE,
            "application/x-go-sgf; charset=utf-8",
        )],
        record.to_sgf(),
    )
        .into_response())
}

fn board_of(rule: Option<&str>, size: Option<usize>, moves: &[String]) -> Result<Board, ApiError> {
    let rule = parse_rule(rule.unwrap_or("freestyle")).map_err(bad)?;
    Board::from_moves(size.unwrap_or(15), rule, &moves.join(" ")).map_err(|e| bad(e.to_string()))
}

fn think_time(max_time_ms: u64, time_ms: Option<u64>) -> Result<u64, ApiError> {
    let t = time_ms.unwrap_or(1000);
    if t == 0 || t > max_time_ms {
        return Err(bad(format!(
            "time_ms {t} is out of range (1 to {max_time_ms})"
        )));
    }
    Ok(t)
}

/// A new game's request checked, apart from the server's state: its board, the AI's side and
/// its think time (apart so that any body can be tried without a server).
fn new_game(req: &NewGame, max_time_ms: u64) -> Result<(Board, Option<Player>, u64), ApiError> {
    let record = RecordText {
        sgf: req.sgf.as_deref(),
        psq: req.psq.as_deref(),
        game: req.game,
    };
    let board = board_of_request(req.rule.as_deref(), req.size, req.moves.as_deref(), record)?;
    let ai = match req.ai.as_deref().unwrap_or("white") {
        "black" => Some(Player::First),
        "white" => Some(Player::Second),
        "none" => None,
        other => return Err(bad(format!("ai \"{other}\" is not black, white or none"))),
    };
    let time_ms = think_time(max_time_ms, req.time_ms)?;
    Ok((board, ai, time_ms))
}

pub async fn create(State(state): Shared, req: Result<Json<NewGame>, JsonRejection>) -> Reply {
    let req = body(req)?;
    let (board, ai, time_ms) = new_game(&req, state.config.max_time_ms)?;
    let game = Game {
        board,
        ai,
        time_ms,
        last_used: Instant::now(),
        thinking: false,
        progress: broadcast::channel(64).0,
    };
    let id = ids::new_game_id().map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("no randomness for a game id: {e}"),
        )
    })?;
    if !state.store.lock().expect("store").insert(&id, game) {
        return Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "too many games on this server; try again later".into(),
        ));
    }
    let analysis = match ai_moves(&state, &id).await {
        Ok(a) => a,
        Err(e) => {
            // The AI could not open: the game is not created.
            state.store.lock().expect("store").remove(&id);
            return Err(e);
        }
    };
    let view = view(&state, &id, analysis)?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

fn view(state: &AppState, id: &str, analysis: Option<Value>) -> Result<GameView, ApiError> {
    let mut store = state.store.lock().expect("store");
    let game = store.get_mut(id).ok_or_else(no_such_game)?;
    let mut v = GameView::new(id, game);
    v.analysis = analysis;
    Ok(v)
}

pub async fn show(State(state): Shared, Path(id): Path<String>) -> Reply {
    let id = game_id(id)?;
    Ok(Json(view(&state, &id, None)?).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    #[serde(rename = "move")]
    mv: String,
}

pub async fn play(
    State(state): Shared,
    Path(id): Path<String>,
    req: Result<Json<MoveRequest>, JsonRejection>,
) -> Reply {
    let id = game_id(id)?;
    let req = body(req)?;
    {
        let mut store = state.store.lock().expect("store");
        let game = usable(store.get_mut(&id))?;
        let p = human_move(&mut game.board, game.ai, &req.mv)?;
        game.board.try_play(p).map_err(bad)?;
    }
    match ai_moves(&state, &id).await {
        Ok(analysis) => Ok(Json(view(&state, &id, analysis)?).into_response()),
        Err(e) => {
            // The AI could not answer: take the move back, so the game is as it was.
            if let Some(game) = state.store.lock().expect("store").get_mut(&id) {
                game.board.undo();
            }
            Err(e)
        }
    }
}

/// The point a player's move names on `board`, if they may play it now (`ai` plays the side
/// the player does not). The board is left as it was (`foul` looks ahead on it).
fn human_move(b: &mut Board, ai: Option<Player>, mv: &str) -> Result<Point, ApiError> {
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
    if let Some(foul) = b.foul(p) {
        return Err(bad(format!(
            "{mv} is forbidden for Black ({})",
            foul.name()
        )));
    }
    Ok(p)
}

/// The game, unless it is unknown (404) or the AI is thinking about it (409).
fn usable(game: Option<&mut Game>) -> Result<&mut Game, ApiError> {
    let game = game.ok_or_else(no_such_game)?;
    if game.thinking {
        return Err(ApiError(
            StatusCode::CONFLICT,
            "the AI is thinking about this game".into(),
        ));
    }
    Ok(game)
}

pub async fn undo(State(state): Shared, Path(id): Path<String>) -> Reply {
    let id = game_id(id)?;
    {
        let mut store = state.store.lock().expect("store");
        let game = usable(store.get_mut(&id))?;
        let human_moves = game
            .board
            .moves()
            .iter()
            .enumerate()
            .filter(|(i, _)| {
                game.ai
                    .map_or(true, |ai| (i % 2 == 0) != (ai == Player::First))
            })
            .count();
        if human_moves == 0 {
            return Err(bad("there is no move of yours to take back"));
        }
        // Back to the position before the human's last move.
        while game.board.undo().is_some() {
            if game.ai.map_or(true, |ai| game.board.side_to_move() != ai) {
                break;
            }
        }
    }
    Ok(Json(view(&state, &id, None)?).into_response())
}

pub async fn hint(State(state): Shared, Path(id): Path<String>) -> Reply {
    let id = game_id(id)?;
    let (board, time_ms, progress) = {
        let mut store = state.store.lock().expect("store");
        let game = usable(store.get_mut(&id))?;
        if game.board.result().is_some() {
            return Err(bad("the game is over"));
        }
        (game.board.clone(), game.time_ms, game.progress.clone())
    };
    let a = search(&state, board.clone(), time_ms, Some(progress)).await?;
    let analysis = analysis_json(&a, board.size());
    let mut v = view(&state, &id, None)?;
    v.analysis = Some(analysis);
    Ok(Json(v).into_response())
}

/// Lets the AI move if it is its turn; the analysis of its move, if it moved.
async fn ai_moves(state: &Arc<AppState>, id: &str) -> Result<Option<Value>, ApiError> {
    let (board, time_ms, progress) = {
        let mut store = state.store.lock().expect("store");
        let game = usable(store.get_mut(id))?;
        if game.board.result().is_some() || game.ai != Some(game.board.side_to_move()) {
            return Ok(None);
        }
        game.thinking = true;
        (game.board.clone(), game.time_ms, game.progress.clone())
    };
    let size = board.size();
    let found = search(state, board, time_ms, Some(progress)).await;
    let mut store = state.store.lock().expect("store");
    let game = store.get_mut(id).expect("thinking games are kept");
    game.thinking = false;
    let a = found?;
    let Some(mv) = a.best_move else {
        return Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the engine found no move".into(),
        ));
    };
    game.board.try_play(mv).map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("the engine proposed an illegal move: {e}"),
        )
    })?;
    Ok(Some(analysis_json(&a, size)))
}

/// Runs a search off the async runtime once a search slot is free: at once, or after a wait
/// in the queue, whose place is told to the page on the game's event stream; 429 or 503
/// when the queue refuses.
async fn search(
    state: &Arc<AppState>,
    board: Board,
    time_ms: u64,
    progress: Option<broadcast::Sender<PageEvent>>,
) -> Result<Analysis, ApiError> {
    if board.result().is_none() && !board.clone().has_legal_move() {
        return Err(ApiError(
            StatusCode::CONFLICT,
            "Black has no legal move: every empty point is forbidden under renju".into(),
        ));
    }
    let tell_place = |position: usize| {
        if let Some(tx) = &progress {
            let _ = tx.send(PageEvent {
                kind: "queue",
                data: json!({ "position": position }).to_string(),
            });
        }
    };
    let slot = state
        .searches
        .admit(
            request::client(),
            tell_place,
            shutdown::requested(state.stopping.clone()),
        )
        .await
        .map_err(|refusal| ApiError(refusal.status(), refusal.message().into()))?;
    let options = EngineOptions {
        table_bytes: state.config.table_bytes,
        threads: state.config.threads,
        ..EngineOptions::default()
    };
    let size = board.size();
    let task = tokio::task::spawn_blocking(move || {
        // The slot is held here, so it stays taken until the search ends, even if the
        // client has gone.
        let _slot = slot;
        let mut engine = Engine::new(board, options);
        engine.go(
            &Limits::time(Duration::from_millis(time_ms)),
            |info: &Info| {
                if let Some(tx) = &progress {
                    let _ = tx.send(PageEvent {
                        kind: "progress",
                        data: progress_json(info, size).to_string(),
                    });
                }
            },
        )
    });
    let analysis = task.await.map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the search failed".into(),
        )
    })?;
    request::note_search(request::SearchStats {
        depth: analysis.depth,
        nodes: analysis.nodes,
    });
    Ok(analysis)
}

fn score_parts(score: wuzi_search::Score) -> (Option<&'static str>, Option<u32>) {
    match score.forced() {
        Some(Forced::Win(n)) => (Some("win"), Some(n)),
        Some(Forced::Loss(n)) => (Some("loss"), Some(n)),
        None => (None, None),
    }
}

/// The analysis object, as `wuzi analyze --json` prints it.
fn analysis_json(a: &Analysis, size: usize) -> Value {
    let (forced, plies) = score_parts(a.score);
    json!({
        "best_move": a.best_move.map(|p| p.to_human(size)),
        "score": a.score.value(),
        "forced": forced,
        "plies": plies,
        "depth": a.depth,
        "nodes": a.nodes,
        "nps": a.nps(),
        "millis": a.elapsed.as_millis() as u64,
        "pv": a.pv.iter().map(|p| p.to_human(size)).collect::<Vec<_>>(),
    })
}

fn progress_json(info: &Info, size: usize) -> Value {
    let (forced, plies) = score_parts(info.score);
    json!({
        "depth": info.depth,
        "score": info.score.value(),
        "forced": forced,
        "plies": plies,
        "nodes": info.nodes,
        "pv": info.pv.iter().map(|p| p.to_human(size)).collect::<Vec<_>>(),
    })
}

pub async fn events(
    State(state): Shared,
    Path(id): Path<String>,
) -> Result<Sse<impl Stream<Item = Result<Event, std::convert::Infallible>>>, ApiError> {
    let id = game_id(id)?;
    let rx = {
        let mut store = state.store.lock().expect("store");
        let game = store.get_mut(&id).ok_or_else(no_such_game)?;
        game.progress.subscribe()
    };
    let events = BroadcastStream::new(rx)
        .filter_map(|msg| msg.ok())
        .map(|e| Some(Event::default().event(e.kind).data(e.data)));
    // The stream ends when the server begins to shut down, or the open connection would
    // hold the shutdown up.
    let stopping = WatchStream::new(state.stopping.clone())
        .filter(|stopping| *stopping)
        .map(|_| None);
    let stream = events
        .merge(stopping)
        .take_while(Option::is_some)
        .filter_map(|e| e.map(Ok));
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyzeRequest {
    rule: Option<String>,
    size: Option<usize>,
    moves: Option<Vec<String>>,
    time_ms: Option<u64>,
    /// A game record instead of `moves`, as for `POST /api/games`.
    sgf: Option<String>,
    psq: Option<String>,
    game: Option<usize>,
}

pub async fn analyze(
    State(state): Shared,
    req: Result<Json<AnalyzeRequest>, JsonRejection>,
) -> Reply {
    let req = body(req)?;
    let (board, time_ms) = analysis_request(&req, state.config.max_time_ms)?;
    let size = board.size();
    let a = search(&state, board, time_ms, None).await?;
    Ok(Json(analysis_json(&a, size)).into_response())
}

/// An analysis request checked: the position, which must have a move to find, and the think
/// time (apart from the handler, as [`new_game`]).
fn analysis_request(req: &AnalyzeRequest, max_time_ms: u64) -> Result<(Board, u64), ApiError> {
    let record = RecordText {
        sgf: req.sgf.as_deref(),
        psq: req.psq.as_deref(),
        game: req.game,
    };
    let board = board_of_request(req.rule.as_deref(), req.size, req.moves.as_deref(), record)?;
    if board.result().is_some() {
        return Err(bad("the game is already over: nothing to analyse"));
    }
    let time_ms = think_time(max_time_ms, req.time_ms)?;
    Ok((board, time_ms))
}

#[cfg(test)]
mod tests {
    use super::*;
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
            1 => value(string(record()).boxed()).prop_map(|v| format!("\"sgf\":{v}")),
            1 => value(string(record()).boxed()).prop_map(|v| format!("\"psq\":{v}")),
            1 => value(number().boxed()).prop_map(|v| format!("\"game\":{v}")),
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

    /// Plays `moves` as a player would with `POST /moves`, each checked by `human_move`: a
    /// refused move leaves the board as it was, an accepted one is legal.
    fn play_moves(
        board: &mut Board,
        ai: Option<Player>,
        moves: &[String],
    ) -> Result<(), TestCaseError> {
        for mv in moves {
            let (history, hash) = (board.moves().to_vec(), board.hash());
            match human_move(board, ai, mv) {
                Ok(p) => {
                    prop_assert_eq!(board.moves(), &history[..]);
                    prop_assert!(board.try_play(p).is_ok(), "{:?}", mv);
                }
                Err(ApiError(status, message)) => {
                    prop_assert_eq!(status, StatusCode::BAD_REQUEST);
                    prop_assert!(!message.is_empty());
                    prop_assert_eq!(board.moves(), &history[..], "{}", message);
                    prop_assert_eq!(board.hash(), hash);
                }
            }
            prop_assert_eq!(board.hash(), board.hash_from_scratch());
        }
        Ok(())
    }

    const MAX_TIME_MS: u64 = 10_000;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        /// Any body for `POST /api/games` or `POST /api/analyze` is refused with a 400 and a
        /// message, or gives a board on a supported size with a think time in range; on a
        /// new game, any moves the player then sends are refused without a change, or legal.
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
                match new_game(&req, MAX_TIME_MS) {
                    Ok((mut board, ai, time_ms)) => {
                        check(&board, time_ms)?;
                        play_moves(&mut board, ai, &then)?;
                    }
                    Err(e) => refused(e)?,
                }
            }
            if let Ok(req) = serde_json::from_str::<AnalyzeRequest>(&body) {
                match analysis_request(&req, MAX_TIME_MS) {
                    Ok((board, time_ms)) => {
                        check(&board, time_ms)?;
                        prop_assert!(board.result().is_none());
                    }
                    Err(e) => refused(e)?,
                }
            }
            let _ = serde_json::from_str::<MoveRequest>(&body);
        }
    }
}
