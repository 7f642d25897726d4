//! `POST /api/learn` and the Learn page: the tutorials' algorithms on one position, side by
//! side, with their trees (see wuzi-learn). The work is bounded like every search here: a
//! search slot from the queue (429/503 as for the engine), the think-time cap per algorithm, a
//! node limit per algorithm and a
//! cap on the tree.

use crate::{request, shutdown, AppState};
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use wuzi_learn::{run_plan, Bounds, LearnRequest};

/// The deepest search a request may ask for (tic-tac-toe is solved at 9).
const MAX_DEPTH: u32 = 9;
/// The largest tree a request may ask for: about 200 bytes of JSON a node.
const MAX_TREE_NODES: usize = 50_000;
/// Nodes one algorithm may visit: minimax solves tic-tac-toe in 549,946.
const MAX_WORK_NODES: u64 = 5_000_000;

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    (status, Json(json!({ "error": message.into() }))).into_response()
}

/// The server's bounds for Learn requests.
fn bounds(state: &AppState) -> Bounds {
    Bounds {
        max_depth: MAX_DEPTH,
        max_tree_nodes: MAX_TREE_NODES,
        default_tree_nodes: 20_000,
        max_work_nodes: MAX_WORK_NODES,
        max_time: Some(Duration::from_millis(state.config.max_time_ms)),
        raise_time: None,
        max_algorithms: 5,
    }
}

pub async fn learn(
    State(state): State<Arc<AppState>>,
    req: Result<Json<LearnRequest>, JsonRejection>,
) -> Response {
    let req = match req {
        Ok(Json(req)) => req,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return error(StatusCode::PAYLOAD_TOO_LARGE, e.body_text())
        }
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                format!("unreadable request body: {}", e.body_text()),
            )
        }
    };
    let mut bounds = bounds(&state);
    let plan = match req.plan(&bounds) {
        Ok(plan) => plan,
        Err(message) => return error(StatusCode::BAD_REQUEST, message),
    };
    // The algorithms share the server's cap, so that a request holds its search slot no
    // longer than any other (five algorithms each with the whole cap held it five times as
    // long, past the Retry-After and the stop's drain).
    bounds.max_time = bounds
        .max_time
        .map(|cap| cap / plan.algorithms.len().max(1) as u32);
    // The same queue as the engine's searches: wait a turn, or 429/503 with the reason.
    let admitted = state
        .searches
        .admit(
            request::client(),
            |_| {},
            shutdown::requested(state.stopping.clone()),
        )
        .await;
    let slot = match admitted {
        Ok(slot) => slot,
        Err(refusal) => return error(refusal.status(), refusal.message()),
    };
    let task = tokio::task::spawn_blocking(move || {
        // Held until the work ends, even if the client has gone.
        let _slot = slot;
        run_plan(&plan, &bounds)
    });
    let result = task.await;
    match result {
        Ok(Ok(results)) => Json(json!({ "results": results })).into_response(),
        // Too much work for the bounds: the request asks for it, so it is the request's fault.
        Ok(Err(message)) => error(StatusCode::BAD_REQUEST, message),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the search failed"),
    }
}

pub async fn page() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../assets/learn.html"),
    )
}

pub async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../assets/learn.js"),
    )
}

pub async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../assets/learn.css"),
    )
}
