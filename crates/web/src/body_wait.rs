//! A request's body must arrive in time: a client that announces a body and never sends it
//! (or sends it a byte at a time) would otherwise hold its connection and a task for good.

use crate::api::ApiError;
use crate::{AppState, MAX_BODY};
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// The middleware: reads the whole body (at most [`MAX_BODY`]) within the configured
/// `body_wait`, then hands the request on; a 408 when the body is late, a 413 when too big.
pub async fn read_in_time(
    State(state): State<Arc<AppState>>,
    req: Request,
    next: Next,
) -> Response {
    let (parts, body) = req.into_parts();
    let wait = state.config.body_wait;
    match tokio::time::timeout(wait, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Ok(Err(_)) => ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "unreadable request body: over {} KiB, or cut off",
                MAX_BODY / 1024
            ),
        )
        .into_response(),
        Err(_) => ApiError(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} ms",
                wait.as_millis()
            ),
        )
        .into_response(),
    }
}
