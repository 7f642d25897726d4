//! What the server knows about the request being handled, and its log line.
//!
//! The middleware here sets a task-local scope around each request: who sent it (for the
//! per-client limit) and what its search did (for the log). Searches are reached from several
//! handlers; the scope spares each of them an extra parameter.
//!
//! The log line (at info) holds the method, the route's pattern (`/api/games/{id}/moves`, never
//! the id itself), the status, the latency and the search's depth and nodes. Game ids, move lists
//! and client addresses appear only at debug level.

use crate::client;
use crate::AppState;
use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::Response;
use std::cell::Cell;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

/// What one search did, for the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchStats {
    pub depth: u32,
    pub nodes: u64,
}

struct Scope {
    client: IpAddr,
    search: Cell<Option<SearchStats>>,
}

tokio::task_local! {
    static SCOPE: Scope;
}

/// The address of the client whose request is being handled (unspecified outside a request).
pub fn client() -> IpAddr {
    SCOPE
        .try_with(|s| s.client)
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
}

/// Runs `work` on a task of its own, which goes on to its end even if the request is dropped
/// (its client gone), within the request's scope: the same client for the per-client limit
/// (a spawned task does not inherit the scope, and every client would count as one), and
/// its search noted on the request's log line.
pub async fn spawn_in_scope<T: Send + 'static>(
    work: impl Future<Output = T> + Send + 'static,
) -> Result<T, tokio::task::JoinError> {
    let scope = Scope {
        client: client(),
        search: Cell::new(None),
    };
    let task = tokio::spawn(SCOPE.scope(scope, async move {
        let out = work.await;
        (out, SCOPE.with(|s| s.search.get()))
    }));
    let (out, search) = task.await?;
    if let Some(stats) = search {
        note_search(stats);
    }
    Ok(out)
}

/// Notes the search this request ran, for its log line.
pub fn note_search(stats: SearchStats) {
    let _ = SCOPE.try_with(|s| s.search.set(Some(stats)));
}

/// A request's line in the log when it is dropped before its answer: its client gone (a
/// closed tab, a proxy's timeout) or the stop's time run out. Without this it left no trace.
struct Unanswered {
    method: String,
    route: String,
    started: Instant,
    answered: bool,
}

impl Drop for Unanswered {
    fn drop(&mut self) {
        if !self.answered {
            let latency_ms = self.started.elapsed().as_secs_f64() * 1000.0;
            tracing::info!(
                method = %self.method,
                path = %self.route,
                latency_ms = format_args!("{latency_ms:.1}"),
                "request dropped before its answer"
            );
        }
    }
}

/// The middleware: identifies the client, runs the request in its scope, logs the outcome.
pub async fn track(State(state): State<Arc<AppState>>, req: Request, next: Next) -> Response {
    let started = Instant::now();
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    let client = client::identify(peer, req.headers(), state.config.trust_forwarded_for);
    let method = req.method().clone();
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or("(no route)", |p| p.as_str())
        .to_string();
    let uri = req.uri().path().to_string();
    let scope = Scope {
        client,
        search: Cell::new(None),
    };
    let mut unanswered = Unanswered {
        method: method.to_string(),
        route: route.clone(),
        started,
        answered: false,
    };
    let (response, search) = SCOPE
        .scope(scope, async move {
            let response = next.run(req).await;
            let search = SCOPE.with(|s| s.search.get());
            (response, search)
        })
        .await;
    unanswered.answered = true;
    let status = response.status().as_u16();
    let latency_ms = started.elapsed().as_secs_f64() * 1000.0;
    if route == "/healthz" && status == 200 {
        // A load balancer's probe every few seconds would flood the log at info.
        tracing::debug!(%method, path = %route, status, "request");
        return response;
    }
    tracing::info!(
        %method,
        path = %route,
        status,
        latency_ms = format_args!("{latency_ms:.1}"),
        depth = search.map(|s| s.depth),
        nodes = search.map(|s| s.nodes),
        "request"
    );
    tracing::debug!(%method, uri = %uri, %client, "request details");
    response
}
