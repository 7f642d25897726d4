//! The accept loop: every connection is served by hyper with a deadline for each request's
//! headers, and closed gracefully when the server stops.
//!
//! `axum::serve` sets no such deadline: a client that sends its headers a byte at a time, or
//! never finishes them, held its connection and a task for good, so a few thousand of them
//! could use up the server's file descriptors. (A request's body has its own deadline, the
//! `body_wait` middleware.) The connections open at once are capped, in all and, when served
//! directly, per client address, so that one client cannot take every place.

use crate::{client, shutdown};
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tower::ServiceExt;

/// How long a request's headers may take, and how many connections may be open at once: in
/// all, and from one client address (`None`: no cap per client, as behind a reverse proxy,
/// where every connection comes from the proxy).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub header_wait: Duration,
    pub max_connections: usize,
    pub per_client: Option<usize>,
}

/// The connections each client address holds open.
struct PerClient {
    cap: usize,
    held: Mutex<HashMap<IpAddr, usize>>,
}

/// One client's place, given back when its connection closes.
struct ClientPlace {
    table: Arc<PerClient>,
    client: IpAddr,
}

impl PerClient {
    fn take(table: &Arc<PerClient>, client: IpAddr) -> Option<ClientPlace> {
        let mut held = table.held.lock().unwrap_or_else(|e| e.into_inner());
        let count = held.entry(client).or_insert(0);
        if *count >= table.cap {
            return None;
        }
        *count += 1;
        Some(ClientPlace {
            table: Arc::clone(table),
            client,
        })
    }
}

impl Drop for ClientPlace {
    fn drop(&mut self) {
        let mut held = self.table.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = held.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                held.remove(&self.client);
            }
        }
    }
}

/// How often the log may say that connections are being turned away.
const FULL_WARNING_EVERY: Duration = Duration::from_secs(10);

/// Accepts connections on `listener` and serves `app` on each until `stopping` is raised;
/// then stops accepting, lets every connection finish the request it is answering, and
/// returns once all are closed. Past `max_connections` open at once, or past `per_client`
/// from its address, a new connection is closed as soon as it is accepted.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    stopping: watch::Receiver<bool>,
) -> std::io::Result<()> {
    // Each connection holds a receiver; the sender sees them all dropped when the last
    // connection closes.
    let (all_closed, open) = watch::channel(());
    let places = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_client = limits.per_client.map(|cap| {
        Arc::new(PerClient {
            cap: cap.max(1),
            held: Mutex::new(HashMap::new()),
        })
    });
    let mut warned: Option<Instant> = None;
    let mut warned_client: Option<Instant> = None;
    loop {
        let (stream, remote) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                // A connection reset or refused before it was accepted: only that one is lost.
                Err(e) if one_connection_error(&e) => continue,
                Err(e) => {
                    // Out of file descriptors, most likely: the listener itself is fine, so
                    // wait for connections to close and go on.
                    tracing::warn!(error = %e, "accept failed; retrying in 1 s");
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    continue;
                }
            },
            () = shutdown::requested(stopping.clone()) => break,
        };
        let Ok(place) = Arc::clone(&places).try_acquire_owned() else {
            drop(stream);
            if warned.is_none_or(|at| at.elapsed() >= FULL_WARNING_EVERY) {
                warned = Some(Instant::now());
                tracing::warn!(
                    max = limits.max_connections,
                    "connections at their limit; new ones are closed"
                );
            }
            continue;
        };
        let client_place = match &per_client {
            Some(table) => {
                let client = client::identify(Some(remote.ip()), &Default::default(), false);
                match PerClient::take(table, client) {
                    Some(place) => Some(place),
                    None => {
                        drop(stream);
                        if warned_client.is_none_or(|at| at.elapsed() >= FULL_WARNING_EVERY) {
                            warned_client = Some(Instant::now());
                            tracing::warn!(
                                %client,
                                max = table.cap,
                                "a client at its connection limit; its new ones are closed"
                            );
                        }
                        continue;
                    }
                }
            }
            None => None,
        };
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            // What `into_make_service_with_connect_info` would give the handlers.
            req.extensions_mut().insert(ConnectInfo(remote));
            app.clone().oneshot(req.map(Body::new))
        });
        let stopping = stopping.clone();
        let open = open.clone();
        tokio::spawn(async move {
            let connection = http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(limits.header_wait)
                .serve_connection(TokioIo::new(stream), service);
            let mut connection = std::pin::pin!(connection);
            let mut closing = false;
            loop {
                tokio::select! {
                    served = connection.as_mut() => {
                        if let Err(e) = served {
                            tracing::debug!(error = %e, %remote, "connection ended");
                        }
                        break;
                    }
                    () = shutdown::requested(stopping.clone()), if !closing => {
                        closing = true;
                        connection.as_mut().graceful_shutdown();
                    }
                }
            }
            drop((open, place, client_place));
        });
    }
    // New clients are refused at once rather than left waiting unanswered.
    drop(listener);
    drop(open);
    all_closed.closed().await;
    Ok(())
}

/// An accept error that concerns one incoming connection only, not the listener.
fn one_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(
        e.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    )
}
