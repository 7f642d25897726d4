//! Searches off the async runtime: a slot in the search queue (or a place in its line, told
//! to the page), and the engines kept from one search to the next, their tables warm.

use super::*;

/// Runs a search off the async runtime once a search slot is free: at once, or after a wait
/// in the queue, whose place is told to the page on the game's event stream; 429 or 503
/// when the queue refuses.
pub(super) async fn search(
    state: &Arc<AppState>,
    board: Board,
    time_ms: u64,
    progress: Option<broadcast::Sender<PageEvent>>,
) -> Result<Analysis, ApiError> {
    let mut found = search_best(state, board, time_ms, progress, 1, None).await?;
    Ok(found.swap_remove(0))
}

/// As [`search`], for the `n` best moves (at least one comes back), ranked by one search in
/// `time_ms`; `stop`, once set, ends it early with what it has found.
pub(super) async fn search_best(
    state: &Arc<AppState>,
    board: Board,
    time_ms: u64,
    progress: Option<broadcast::Sender<PageEvent>>,
    n: usize,
    stop: Option<Arc<AtomicBool>>,
) -> Result<Vec<Analysis>, ApiError> {
    if board.clone().no_legal_move() {
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
    let slot = admit(state, tell_place, stop.clone()).await?;
    let pool = Arc::clone(state);
    let size = board.size();
    let task = tokio::task::spawn_blocking(move || {
        // The slot is held here, so it stays taken until the search ends, even if the
        // client has gone.
        let _slot = slot;
        let mut engine = engine_for(&pool, board);
        let limits = Limits {
            stop,
            ..Limits::time(Duration::from_millis(time_ms))
        };
        let found = engine.best_moves(
            n.max(1),
            &limits,
            // The best line's progress (each depth tells the N lines best first).
            |rank, info: &Info| {
                if let (0, Some(tx)) = (rank, &progress) {
                    let _ = tx.send(PageEvent {
                        kind: "progress",
                        data: progress_json(info, size).to_string(),
                    });
                }
            },
            |_| {},
        );
        give_back(&pool, engine);
        found
    });
    let found = task.await.map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the search failed".into(),
        )
    })?;
    let Some(first) = found.first() else {
        return Err(ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the engine found no move".into(),
        ));
    };
    request::note_search(request::SearchStats {
        depth: first.depth,
        // Every line counts the whole search's nodes.
        nodes: found.iter().map(|a| a.nodes).max().unwrap_or(0),
    });
    Ok(found)
}

/// A search slot for this request's client, once one is free (`tell_place` hears the
/// request's place while it waits); 429 or 503 when the queue refuses, 409 when `stop` is
/// set while it waits (a later analysis of the same game superseded it).
pub(super) async fn admit(
    state: &Arc<AppState>,
    tell_place: impl Fn(usize),
    stop: Option<Arc<AtomicBool>>,
) -> Result<crate::queue::Slot, ApiError> {
    let superseded = {
        let stop = stop.clone();
        async move {
            match stop {
                Some(stop) => {
                    while !stop.load(Ordering::Relaxed) {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                }
                None => std::future::pending().await,
            }
        }
    };
    let give_up = async {
        tokio::select! {
            () = shutdown::requested(state.stopping.clone()) => {}
            () = superseded => {}
        }
    };
    state
        .searches
        .admit(request::client(), tell_place, give_up)
        .await
        .map_err(|refusal| match &stop {
            Some(stop) if stop.load(Ordering::Relaxed) => ApiError(
                StatusCode::CONFLICT,
                "a later analysis of this game took this one's place".into(),
            ),
            _ => ApiError(refusal.status(), refusal.message().into()),
        })
}

/// An engine for a search on `board`: one an earlier search on a board of the same size and
/// rule gave back, its tables kept (a game's next move starts from what the last search
/// learnt, and no request pays for allocating and zeroing the tables: about 40 ms for the
/// default 32 MiB), or a new one with the server's table memory and threads. Sizes and rules
/// never share tables: the same stones hash alike on every size and under every rule.
pub(super) fn engine_for(state: &AppState, board: Board) -> Engine {
    let kept = {
        let mut kept = state.engines.lock().expect("engines");
        let same =
            |e: &Engine| e.board().size() == board.size() && e.board().rule() == board.rule();
        match kept.iter().rposition(same) {
            Some(i) => Some(kept.remove(i)),
            None => {
                // A new engine takes the place of the oldest kept one, so that the engines
                // searching and kept together never outnumber the search slots.
                if !kept.is_empty() {
                    kept.remove(0);
                }
                None
            }
        }
    };
    match kept {
        Some(mut engine) => {
            engine.set_board(board);
            engine
        }
        None => Engine::new(
            board,
            EngineOptions {
                table_bytes: state.config.table_bytes,
                threads: state.config.threads,
                ..EngineOptions::default()
            },
        ),
    }
}

/// Keeps a finished search's engine for the next one: engines kept and searching never
/// outnumber the search slots, so the memory stays what `--max-searches` searches at once use.
pub(super) fn give_back(state: &AppState, engine: Engine) {
    let mut kept = state.engines.lock().expect("engines");
    if kept.len() >= state.config.max_searches.max(1) {
        kept.remove(0);
    }
    kept.push(engine);
}
