//! Graceful shutdown: on SIGTERM or Ctrl-C the server stops accepting connections, waiting
//! requests give up with a 503, the event streams end, and searches in flight finish (none
//! thinks longer than the cap) before the process exits.

use std::future::Future;
use std::time::Duration;
use tokio::sync::watch;

/// Resolves once shutdown has begun; never, if nobody can begin it any more.
pub async fn requested(mut flag: watch::Receiver<bool>) {
    if flag.wait_for(|stopping| *stopping).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// How long the server waits for requests in flight once shutdown has begun: the longest
/// search plus room for its reply, then it stops regardless.
pub fn drain_limit(max_time_ms: u64) -> Duration {
    Duration::from_millis(max_time_ms) + Duration::from_secs(5)
}

/// The exit status after a second stop signal: the searches in flight are dropped.
pub const STOPPED_AT_ONCE: i32 = 130;

/// Resolves on SIGTERM (what service managers and `docker stop` send) or SIGINT (Ctrl-C).
/// A second of them, while the stop waits for the searches in flight, ends the process at
/// once with [`STOPPED_AT_ONCE`]. The handlers are installed now, before the server announces
/// itself, so that a signal that comes early is not fatal. (SIGHUP keeps its default: `nohup`
/// can still keep the server through a closed terminal.)
pub fn on_signal() -> std::io::Result<impl Future<Output = ()> + Send + 'static> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        Ok(async move {
            tokio::select! {
                _ = term.recv() => tracing::info!("SIGTERM: shutting down"),
                _ = int.recv() => tracing::info!("SIGINT: shutting down"),
            }
            // On a thread and a runtime of its own: the server's runtime stops its tasks
            // while it waits for the searches' threads, and the wait is when this matters.
            std::thread::spawn(move || {
                let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    return;
                };
                runtime.block_on(async move {
                    tokio::select! {
                        _ = term.recv() => {}
                        _ = int.recv() => {}
                    }
                });
                tracing::warn!("a second signal: exiting now, without the searches in flight");
                std::process::exit(STOPPED_AT_ONCE);
            });
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            if tokio::signal::ctrl_c().await.is_ok() {
                tracing::info!("Ctrl-C: shutting down");
            } else {
                std::future::pending::<()>().await;
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn requested_resolves_when_the_flag_is_raised_and_not_before() {
        let (tx, rx) = watch::channel(false);
        let waiting = tokio::spawn(requested(rx.clone()));
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished());
        tx.send(true).unwrap();
        waiting.await.unwrap();
        drop(tx);
        let orphan = tokio::time::timeout(Duration::from_millis(20), requested(rx)).await;
        assert!(orphan.is_ok(), "a raised flag stays raised");
    }
}
