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
//! - `POST /api/analyze` `{"rule","size","moves","time_ms","nbest"}` (or `sgf`/`psq`) → the
//!   analysis (with `nbest`, the N best moves as `lines`).
//! - `POST /api/review` `{"rule","size","moves","time_ms"}` (or `sgf`/`psq`) → every move
//!   graded, as `wuzi review --json`.
//! - `GET /healthz` → 200 while the server runs (for service managers and load balancers).
//!
//! Game ids are 128 random bits: only whoever holds an id can open its game.
//! Errors are `{"error": "..."}`: 400 for bad input, 404 for an unknown game, 409 while the
//! AI thinks about that game, 429 when one client asks for too many searches at once, 503
//! when the server is at a limit (both with `Retry-After`). Nothing changes on an error.
//! Searches run on blocking threads, a bounded number at a time, never on the async runtime;
//! requests beyond that wait in a bounded queue (the `queue` module).
//!
//! Learn mode (`learn.rs`): the page `/learn`, and `POST /api/learn`
//! `{"game","depth","algorithms","moves","tree",...}` → each algorithm's move, score, nodes,
//! time, principal variation and tree.

mod api;
mod body_wait;
mod checks;
mod client;
mod connections;
mod ids;
mod learn;
mod queue;
mod request;
mod shutdown;
mod store;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::{middleware, Json, Router};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

/// The server's limits.
#[derive(Clone, Debug)]
pub struct Config {
    /// Searches running at once (more wait in the queue).
    pub max_searches: usize,
    /// Requests that may wait for a search slot (more get 503 at once).
    pub queue: usize,
    /// The longest a request waits for a search slot (then 503).
    pub queue_wait: Duration,
    /// Searches one client address may have running or waiting (more get 429).
    pub per_client: usize,
    /// Take the client's address from the last `X-Forwarded-For` hop: only behind a reverse
    /// proxy that sets it, else clients could pose as one another.
    pub trust_forwarded_for: bool,
    /// Games kept in memory (more get 503 until idle ones expire).
    pub max_games: usize,
    /// Games one client address keeps: its next new game replaces the one it used least
    /// recently if that one has been left alone for 10 minutes, else it is refused (429).
    pub games_per_client: usize,
    /// A game untouched for this long may be dropped.
    pub idle: Duration,
    /// The longest think time a request may ask for.
    pub max_time_ms: u64,
    /// Table memory per search.
    pub table_bytes: usize,
    /// Threads per search.
    pub threads: usize,
    /// The longest a request's body may take to arrive (then 408).
    pub body_wait: Duration,
    /// The longest a request's headers may take to arrive (then the connection is closed).
    pub header_wait: Duration,
    /// Connections open at once (more are closed as they come): each holds a file
    /// descriptor, and event streams stay open for as long as their page, so without a cap
    /// a few clients could use up the process's descriptors (1,024 by default under
    /// systemd) and leave the server unreachable.
    pub max_connections: usize,
    /// Connections one client address may hold open at once (more from it are closed as
    /// they come), so that one client cannot take every place. Roomy, since a classroom
    /// behind one NAT address is one client: each page holds an event stream and the
    /// browser's few kept-alive connections. Not applied with
    /// `trust_forwarded_for`: behind a proxy every connection comes from the proxy, which
    /// caps its clients itself (nginx's `limit_conn`).
    pub connections_per_client: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            max_searches: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue: 64,
            queue_wait: Duration::from_secs(30),
            per_client: 8,
            trust_forwarded_for: false,
            max_games: 1000,
            games_per_client: 100,
            idle: Duration::from_secs(2 * 3600),
            max_time_ms: 10_000,
            table_bytes: 32 << 20,
            threads: 1,
            body_wait: Duration::from_secs(10),
            header_wait: Duration::from_secs(10),
            max_connections: 768,
            connections_per_client: 128,
        }
    }
}

pub(crate) struct AppState {
    pub config: Config,
    pub store: Mutex<store::Store>,
    pub searches: queue::SearchQueue,
    /// Engines finished searches left, their tables kept, for the next searches (at most one
    /// per search slot).
    pub engines: Mutex<Vec<wuzi_gomoku::Engine>>,
    /// Raised when the server begins to shut down.
    pub stopping: watch::Receiver<bool>,
}

/// Request bodies larger than this are refused.
/// (64 KiB: a long 22x22 game as SGF, with comments, fits.)
pub(crate) const MAX_BODY: usize = 64 * 1024;

/// The server's routes, never shutting down.
pub fn router(config: Config) -> Router {
    router_until(config, watch::channel(false).1)
}

/// The server's state: no games yet, the search queue empty.
pub(crate) fn app_state(config: Config, stopping: watch::Receiver<bool>) -> Arc<AppState> {
    Arc::new(AppState {
        store: Mutex::new(store::Store::new(
            config.max_games,
            config.games_per_client,
            config.idle,
        )),
        searches: queue::SearchQueue::new(queue::QueueLimits {
            slots: config.max_searches,
            capacity: config.queue,
            max_wait: config.queue_wait,
            per_client: config.per_client,
        }),
        engines: Mutex::new(Vec::new()),
        stopping,
        config,
    })
}

/// The routes, with `stopping` raised when shutdown begins.
fn router_until(config: Config, stopping: watch::Receiver<bool>) -> Router {
    let state = app_state(config, stopping);
    Router::new()
        .route("/healthz", get(health))
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
        .route("/api/games/{id}/time", post(api::set_time))
        .route("/api/games/{id}/events", get(api::events))
        .route("/api/games/{id}/sgf", get(api::sgf))
        .route("/api/analyze", post(api::analyze))
        .route("/api/threats", post(api::threats))
        .route("/api/review", post(api::review))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            body_wait::read_in_time,
        ))
        .layer(middleware::map_response_with_state(
            state.clone(),
            queue::add_retry_after,
        ))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            request::track,
        ))
        .with_state(state)
}

/// Alive, with the searches running and waiting (counts only: nothing about any game).
async fn health(State(state): State<Arc<AppState>>) -> impl IntoResponse {
    let (running, waiting) = state.searches.load();
    Json(serde_json::json!({ "status": "ok", "searches": running, "waiting": waiting }))
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
    serve_until(addr, config, on_ready, std::future::pending()).await
}

/// Serves until `stop` resolves, then shuts down gracefully: no new connections, waiting
/// requests get 503, searches in flight finish and are answered (for at most the think-time
/// cap and a few seconds), then it returns.
pub async fn serve_until(
    addr: SocketAddr,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let bound = listener.local_addr()?;
    let drain = shutdown::drain_limit(config.max_time_ms);
    let (raise, stopping) = watch::channel(false);
    let limits = connections::Limits {
        header_wait: config.header_wait,
        max_connections: config.max_connections,
        per_client: (!config.trust_forwarded_for).then_some(config.connections_per_client),
    };
    let app = router_until(config, stopping.clone());
    tokio::spawn(async move {
        stop.await;
        let _ = raise.send(true);
        // Keep the sender: its drop would read as "never stopping".
        std::future::pending::<()>().await;
    });
    on_ready(bound);
    tracing::info!(%bound, "serving");
    let server = connections::serve(listener, app, limits, stopping.clone());
    let overdue = async {
        shutdown::requested(stopping).await;
        tokio::time::sleep(drain).await;
    };
    tokio::select! {
        served = server => {
            tracing::info!("stopped: every request answered");
            served
        }
        () = overdue => {
            tracing::warn!(?drain, "stopped with connections still open after the drain limit");
            Ok(())
        }
    }
}

/// [`serve`] on a runtime of its own, for callers without one (the tests).
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

/// [`serve_until`] SIGTERM or Ctrl-C, on a runtime of its own (the `wuzi serve` command).
/// Returns once searches in flight are answered; a search whose client left is given up to
/// the drain limit to end.
pub fn serve_until_signal(
    addr: SocketAddr,
    config: Config,
    on_ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let drain = shutdown::drain_limit(config.max_time_ms);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(async {
        let signalled = shutdown::on_signal()?;
        serve_until(addr, config, on_ready, signalled).await
    });
    runtime.shutdown_timeout(drain);
    served
}

#[cfg(test)]
mod tests {
    /// The page words a score at the heuristic bound as "nearly won" or "nearly lost": its
    /// constant must be the search crate's bound.
    #[test]
    fn the_page_knows_the_heuristic_bound() {
        let bound = wuzi_search::Score::MAX_HEURISTIC.value();
        let line = format!("const NEARLY_DECIDED = {bound};");
        assert!(include_str!("../assets/app.js").contains(&line), "{line}");
    }
}
