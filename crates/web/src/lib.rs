//! wuzi-web: play and analyse Gomoku in the browser. `wuzi serve` runs [`serve`].
//!
//! The page (embedded in the binary) uses only the JSON API:
//! - `POST /api/games` `{"rule","size","ai","time_ms","moves"}` → 201 and the game; the AI
//!   moves first when it is its turn.
//! - `GET /api/games/{id}`; `POST /api/games/{id}/moves` `{"move":"h8"}` (the game after the
//!   move and the AI's reply, with its `analysis`); `POST /api/games/{id}/undo`;
//!   `POST /api/games/{id}/hint`; `GET /api/games/{id}/events` (server-sent search progress);
//!   `GET /api/games/{id}/sgf` (the game as an SGF record; `POST /api/games` takes `sgf` or
//!   `psq` text instead of `moves`).
//! - `POST /api/analyze` `{"rule","size","moves","time_ms"}` (or `sgf`/`psq`) → the analysis.
//!
//! Errors are `{"error": "..."}`: 400 for bad input, 404 for an unknown game, 409 while the
//! AI thinks about that game, 503 when the server is at a limit. Nothing changes on an error.
//! Searches run on blocking threads, a bounded number at a time, never on the async runtime.
//!
//! Learn mode (`learn.rs`): the page `/learn`, and `POST /api/learn`
//! `{"game","depth","algorithms","moves","tree",...}` → each algorithm's move, score, nodes,
//! time, principal variation and tree.

mod api;
mod learn;
mod store;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Semaphore;

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Searches running at once (more get 503).
    pub max_searches: usize,
    /// Games kept in memory (more get 503 until idle ones expire).
    pub max_games: usize,
    /// A game untouched for this long may be dropped.
    pub idle: Duration,
    /// The longest think time a request may ask for.
    pub max_time_ms: u64,
    /// Table memory per search.
    pub table_bytes: usize,
    /// Threads per search.
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_searches: std::thread::available_parallelism().map_or(2, |n| n.get()),
            max_games: 1000,
            idle: Duration::from_secs(2 * 3600),
            max_time_ms: 10_000,
            table_bytes: 32 << 20,
            threads: 1,
        }
    }
}

pub(crate) struct AppState {
    pub config: Config,
    pub store: Mutex<store::Store>,
    pub searches: Semaphore,
}

/// Request bodies larger than this are refused.
/// (64 KiB: a long 22x22 game as SGF, with comments, fits.)
const MAX_BODY: usize = 64 * 1024;

pub fn router(config: Config) -> Router {
    let state = Arc::new(AppState {
        store: Mutex::new(store::Store::new(config.max_games, config.idle)),
        searches: Semaphore::new(config.max_searches.max(1)),
        config,
    });
    Router::new()
        .route("/", get(page))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/learn", get(learn::page))
        .route("/learn.js", get(learn::script))
        .route("/learn.css", get(learn::style))
        .route("/api/learn", post(learn::learn))
        .route("/api/games", post(api::create))
        .route("/api/games/{id}", get(api::show))
        .route("/api/games/{id}/moves", post(api::play))
        .route("/api/games/{id}/undo", post(api::undo))
        .route("/api/games/{id}/hint", post(api::hint))
        .route("/api/games/{id}/events", get(api::events))
        .route("/api/games/{id}/sgf", get(api::sgf))
        .route("/api/analyze", post(api::analyze))
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

async fn page() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../assets/index.html"),
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../assets/app.js"),
    )
}

async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../assets/style.css"),
    )
}

/// Serves until the process ends. `on_ready` gets the bound address (port 0 picks one).
pub async fn serve(
    addr: SocketAddr,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    on_ready(listener.local_addr()?);
    axum::serve(listener, router(config)).await
}

/// [`serve`] on a runtime of its own, for callers without one (the `wuzi` command).
pub fn serve_blocking(
    addr: SocketAddr,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?
        .block_on(serve(addr, config, on_ready))
}
