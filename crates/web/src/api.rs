//! The JSON API's handlers. Each validates everything before it changes anything. The games'
//! endpoints are here; the stateless analyses are in `analysis`, and the search queue and the
//! engines kept between searches in `search`.

use crate::checks::{
    check_analysis, check_move, check_new_game, check_review, check_threats, check_time,
    AnalyzeRequest, MoveRequest, NewGame, ReviewRequest, ThreatsRequest, TimeRequest,
};
use crate::store::{Game, GameView, PageEvent, Refused};
use crate::{ids, request, shutdown, AppState};
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::broadcast;
use tokio_stream::wrappers::{BroadcastStream, WatchStream};
use tokio_stream::{Stream, StreamExt};
use wuzi_gomoku::record::{GameRecord, OPENING_COMMENT};
use wuzi_gomoku::review::{summary, ReviewedMove};
use wuzi_gomoku::{
    win_chance, Analysis, Board, Engine, EngineOptions, Info, Player, Rule, ThreatLimits,
    ThreatSolver, ThreatWin,
};
use wuzi_search::{Forced, Limits};

mod analysis;
mod search;
pub use analysis::{analyze, review, threats};
use search::{admit, engine_for, give_back, search, search_best};

pub struct ApiError(pub(crate) StatusCode, pub(crate) String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(json!({ "error": self.1 }))).into_response()
    }
}

pub(crate) fn bad(msg: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, msg.into())
}

type Shared = State<Arc<AppState>>;
type Reply = Result<Response, ApiError>;

pub async fn not_found() -> ApiError {
    ApiError(StatusCode::NOT_FOUND, "no such page".into())
}

/// A known route asked with another method (`GET /api/games`): the JSON error every other
/// error is, not an empty body.
pub async fn method_not_allowed() -> ApiError {
    ApiError(
        StatusCode::METHOD_NOT_ALLOWED,
        "this route does not take that method".into(),
    )
}

/// A well-formed game id from the path. A malformed one, even one that is not text (`%ff`),
/// is the same `no such game` as an id that names no game, not axum's plain-text rejection.
pub struct GameId(String);

impl<S: Send + Sync> FromRequestParts<S> for GameId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<String>::from_request_parts(parts, state).await {
            Ok(Path(id)) if ids::is_well_formed(&id) => Ok(GameId(id)),
            _ => Err(no_such_game()),
        }
    }
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

/// The game as an SGF record (`wuzi show --format sgf`'s writer), the engine named as its side.
pub async fn sgf(State(state): Shared, GameId(id): GameId) -> Reply {
    let mut store = state.store.lock().expect("store");
    let game = store.get_mut(&id).ok_or_else(no_such_game)?;
    let mut record = GameRecord::from_board(&game.board);
    // The opening stones keep their mark, so the record loads back with them.
    for m in record.moves.iter_mut().take(game.opening) {
        m.comment = OPENING_COMMENT.into();
    }
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

pub async fn create(State(state): Shared, req: Result<Json<NewGame>, JsonRejection>) -> Reply {
    let req = body(req)?;
    let asked = check_new_game(&req, state.config.max_time_ms)?;
    let game = Game {
        board: asked.board,
        ai: asked.ai,
        time_ms: asked.time_ms,
        opening: asked.opening,
        last_used: Instant::now(),
        thinking: false,
        owner: request::client(),
        progress: broadcast::channel(64).0,
        analysis_stop: Arc::default(),
    };
    let id = ids::new_game_id().map_err(|e| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("no randomness for a game id: {e}"),
        )
    })?;
    let kept = state.store.lock().expect("store").insert(&id, game);
    const KEPT: &str = "keeps as many games as it may, each used in the last 10 minutes";
    match kept {
        Ok(()) => {}
        Err(Refused::Full(wait)) => {
            let why = format!("this server {KEPT}; ");
            return Ok(refused_for(StatusCode::SERVICE_UNAVAILABLE, &why, wait));
        }
        Err(Refused::ClientFull(wait)) => {
            let why = format!("this address {KEPT}; play one of them, or ");
            return Ok(refused_for(StatusCode::TOO_MANY_REQUESTS, &why, wait));
        }
    }
    // The AI could not open: the game is not created.
    let analysis = ai_moves(&state, &id, Failed::Remove).await?;
    let view = view(&state, &id, analysis)?;
    Ok((StatusCode::CREATED, Json(view)).into_response())
}

/// A new game refused until a game may make way in `wait`: `why`, then when, also as
/// Retry-After (not when the searches running now end).
fn refused_for(status: StatusCode, why: &str, wait: Duration) -> Response {
    let secs = wait.as_secs().max(1);
    let mut refused = ApiError(status, format!("{why}start a new one in {secs} s")).into_response();
    refused
        .headers_mut()
        .insert(header::RETRY_AFTER, header::HeaderValue::from(secs));
    refused
}

fn view(state: &AppState, id: &str, analysis: Option<Value>) -> Result<GameView, ApiError> {
    let mut store = state.store.lock().expect("store");
    let game = store.get_mut(id).ok_or_else(no_such_game)?;
    let mut v = GameView::new(id, game);
    v.analysis = analysis;
    Ok(v)
}

pub async fn show(State(state): Shared, GameId(id): GameId) -> Reply {
    Ok(Json(view(&state, &id, None)?).into_response())
}

pub async fn play(
    State(state): Shared,
    GameId(id): GameId,
    req: Result<Json<MoveRequest>, JsonRejection>,
) -> Reply {
    let req = body(req)?;
    {
        let mut store = state.store.lock().expect("store");
        let game = usable(store.get_mut(&id))?;
        let p = check_move(&mut game.board, game.ai, &req.mv)?;
        game.board.try_play(p).map_err(bad)?;
    }
    // The AI could not answer: the move is taken back, so the game is as it was.
    let analysis = ai_moves(&state, &id, Failed::TakeBack).await?;
    Ok(Json(view(&state, &id, analysis)?).into_response())
}

/// A new think time for the game's engine (capped by the server's as a new game's is): the
/// game goes on with it, with no new game spent.
pub async fn set_time(
    State(state): Shared,
    GameId(id): GameId,
    req: Result<Json<TimeRequest>, JsonRejection>,
) -> Reply {
    let req = body(req)?;
    let time_ms = check_time(&req, state.config.max_time_ms)?;
    let mut store = state.store.lock().expect("store");
    let game = usable(store.get_mut(&id))?;
    game.time_ms = time_ms;
    Ok(Json(GameView::new(&id, game)).into_response())
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

pub async fn undo(State(state): Shared, GameId(id): GameId) -> Reply {
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
                    .is_none_or(|ai| (i % 2 == 0) != (ai == Player::First))
            })
            .count();
        if human_moves == 0 {
            return Err(bad("there is no move of yours to take back"));
        }
        // Back to the position before the human's last move.
        while game.board.undo().is_some() {
            if game.ai.is_none_or(|ai| game.board.side_to_move() != ai) {
                break;
            }
        }
        // Opening stones taken back are not opening stones of what is played next.
        game.opening = game.opening.min(game.board.moves().len());
    }
    Ok(Json(view(&state, &id, None)?).into_response())
}

pub async fn hint(State(state): Shared, GameId(id): GameId) -> Reply {
    let (board, time_ms, progress) = {
        let mut store = state.store.lock().expect("store");
        let game = usable(store.get_mut(&id))?;
        if game.board.result().is_some() {
            return Err(bad("the game is over"));
        }
        (game.board.clone(), game.time_ms, game.progress.clone())
    };
    let a = search(&state, board.clone(), time_ms, Some(progress)).await?;
    let analysis = analysis_of(&a, &board);
    let mut v = view(&state, &id, None)?;
    v.analysis = Some(analysis);
    Ok(Json(v).into_response())
}

/// What is undone when the AI cannot move (the queue is full, the server stops).
#[derive(Clone, Copy)]
enum Failed {
    /// The game the AI was to open is not kept.
    Remove,
    /// The player's move it was to answer is taken back.
    TakeBack,
}

impl Failed {
    /// Puts the store back as it was before the request, under the lock that finds the
    /// failure (so that no other request comes in between).
    fn undo(self, store: &mut crate::store::Store, id: &str) {
        match self {
            Failed::Remove => {
                store.remove(id);
            }
            Failed::TakeBack => {
                if let Some(game) = store.get_mut(id) {
                    game.board.undo();
                }
            }
        }
    }
}

/// Lets the AI move if it is its turn; the analysis of its move, if it moved. The move is
/// chosen and played, or the game put back (`failed`), by a task of its own that runs to its
/// end even when the client goes (a page reloaded while the engine thinks): otherwise the
/// game stayed marked as thinking, refusing every later request.
async fn ai_moves(
    state: &Arc<AppState>,
    id: &str,
    failed: Failed,
) -> Result<Option<Value>, ApiError> {
    let (state, id) = (Arc::clone(state), id.to_string());
    request::spawn_in_scope(async move { ai_moves_to_end(&state, &id, failed).await })
        .await
        .map_err(|_| {
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the engine's move failed".into(),
            )
        })?
}

async fn ai_moves_to_end(
    state: &Arc<AppState>,
    id: &str,
    failed: Failed,
) -> Result<Option<Value>, ApiError> {
    let (board, time_ms, progress) = {
        let mut store = state.store.lock().expect("store");
        // Refused here, the request changes nothing: the game is gone, or another request
        // took it (409) after undoing the move this one made and playing its own.
        let game = usable(store.get_mut(id))?;
        if game.board.result().is_some() || game.ai != Some(game.board.side_to_move()) {
            return Ok(None);
        }
        // Renju Black with every empty point forbidden cannot move: the player's move stands
        // and the game says so (`no_legal_move`), rather than the move being refused.
        if !game.board.has_legal_move() {
            return Ok(None);
        }
        game.thinking = true;
        (game.board.clone(), game.time_ms, game.progress.clone())
    };
    let (size, rule, side) = (board.size(), board.rule(), board.side_to_move());
    let found = search(state, board, time_ms, Some(progress)).await;
    let mut store = state.store.lock().expect("store");
    let game = store.get_mut(id).expect("thinking games are kept");
    game.thinking = false;
    let played = found.and_then(|a| {
        let mv = a.best_move.ok_or_else(|| {
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                "the engine found no move".into(),
            )
        })?;
        game.board.try_play(mv).map_err(|e| {
            ApiError(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("the engine proposed an illegal move: {e}"),
            )
        })?;
        Ok(a)
    });
    match played {
        Ok(a) => Ok(Some(analysis_json(&a, size, rule, side))),
        Err(e) => {
            failed.undo(&mut store, id);
            Err(e)
        }
    }
}

fn score_parts(score: wuzi_search::Score) -> (Option<&'static str>, Option<u32>) {
    match score.forced() {
        Some(Forced::Win(n)) => (Some("win"), Some(n)),
        Some(Forced::Loss(n)) => (Some("loss"), Some(n)),
        None => (None, None),
    }
}

/// [`analysis_json`] of a search of `board`, with `forbidden_block` when its line ends with
/// Black's forced block on a forbidden point (renju: the loss a forced score counts).
fn analysis_of(a: &Analysis, board: &Board) -> Value {
    let mut out = analysis_json(a, board.size(), board.rule(), board.side_to_move());
    if let Some((p, _)) = board.line_ends_in_foul(&a.pv) {
        out["forbidden_block"] = json!(p.to_human(board.size()));
    }
    out
}

/// The analysis object, as `wuzi analyze --json` prints it, and `side`: whose view its score
/// and chance are (the side to move in the position searched).
fn analysis_json(a: &Analysis, size: usize, rule: Rule, side: Player) -> Value {
    let (forced, plies) = score_parts(a.score);
    json!({
        "side": crate::store::colour(side),
        "best_move": a.best_move.map(|p| p.to_human(size)),
        "score": a.score.value(),
        "forced": forced,
        "plies": plies,
        "win_chance": win_chance(a.score, rule),
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

/// Event streams one game may have open at once: its page, and a few more (a reload, a
/// second tab). Each holds a connection for as long as it is open, so without a cap one client
/// could hold the server's file descriptors through a single game.
pub(crate) const MAX_STREAMS_PER_GAME: usize = 8;

pub async fn events(
    State(state): Shared,
    GameId(id): GameId,
) -> Result<Sse<impl Stream<Item = Result<Event, std::convert::Infallible>>>, ApiError> {
    let rx = {
        let mut store = state.store.lock().expect("store");
        let game = store.get_mut(&id).ok_or_else(no_such_game)?;
        if game.progress.receiver_count() >= MAX_STREAMS_PER_GAME {
            return Err(ApiError(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "this game already has {MAX_STREAMS_PER_GAME} event streams open; close one \
                     (a page left open elsewhere) and try again"
                ),
            ));
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn game(moves: &str) -> Game {
        Game {
            board: Board::from_moves(15, Rule::Freestyle, moves).unwrap(),
            ai: Some(Player::Second),
            time_ms: 50,
            opening: 0,
            last_used: std::time::Instant::now(),
            thinking: false,
            owner: request::client(),
            progress: broadcast::channel(4).0,
            analysis_stop: Arc::default(),
        }
    }

    /// Found by a hostile-input review: a move's answer that found its game taken by another
    /// request (which had undone that move and played its own, whose answer was being
    /// searched) took back the other request's move.
    #[tokio::test]
    async fn an_answer_that_finds_its_game_taken_changes_nothing() {
        let state = crate::app_state(
            crate::Config::default(),
            tokio::sync::watch::channel(false).1,
        );
        let mut taken = game("h8 i9 j10");
        taken.thinking = true;
        state.store.lock().unwrap().insert("g", taken).unwrap();
        let refused = ai_moves_to_end(&state, "g", Failed::TakeBack).await;
        assert_eq!(refused.err().map(|e| e.0), Some(StatusCode::CONFLICT));
        let mut store = state.store.lock().unwrap();
        let game = store.get_mut("g").unwrap();
        assert_eq!(game.board.moves().len(), 3);
        assert!(game.thinking, "still the other request's");
    }
}
