//! The stateless analysis endpoints: a position (or a game) in, the engine's words out, no
//! game kept (`/api/analyze`, `/api/threats`, `/api/review`).

use super::*;

/// `POST /api/threats`: the threat solver alone (as `wuzi threats --json`): whether the side
/// to move (or, with `opponent`, the other side) wins by a VCF or VCT, and the line. It takes
/// a search slot like an analysis.
pub async fn threats(
    State(state): Shared,
    req: Result<Json<ThreatsRequest>, JsonRejection>,
) -> Reply {
    let req = body(req)?;
    let asked = check_threats(&req, state.config.max_time_ms)?;
    let slot = admit(&state, |_| {}, None).await?;
    let table_bytes = state.config.table_bytes;
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        let start = Instant::now();
        let mut board = asked.board;
        let mut solver = ThreatSolver::new(table_bytes);
        let limits = ThreatLimits {
            max_attacks: THREAT_ATTACKS,
            nodes: None,
            deadline: Some(start + Duration::from_millis(asked.time_ms)),
            stop: None,
            quiet_vcf: asked.quiet,
        };
        let attacker = match asked.opponent {
            true => board.side_to_move().opponent(),
            false => board.side_to_move(),
        };
        let win = solver.search_for(&mut board, attacker, asked.search, asked.kind, &limits);
        let size = board.size();
        json!({
            "attacker": crate::store::colour(attacker),
            "kind": asked.kind.name(),
            "quiet": asked.quiet,
            "search": asked.search.name(),
            "win": win.is_some(),
            "plies": win.as_ref().map(|w| w.plies),
            "line": win.iter().flat_map(|w| &w.line).map(|p| p.to_human(size)).collect::<Vec<_>>(),
            "forbidden_block": win.as_ref().and_then(ThreatWin::forbidden_block).map(|p| p.to_human(size)),
            "gave_up": win.is_none() && solver.gave_up(),
            "nodes": solver.nodes(),
            "millis": start.elapsed().as_millis() as u64,
        })
    });
    let out = task.await.map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the threat search failed".into(),
        )
    })?;
    Ok(Json(out).into_response())
}

/// `POST /api/review`: a game graded move by move (as `wuzi review --json`), its positions
/// sharing `time_ms`. It takes a search slot like an analysis.
pub async fn review(
    State(state): Shared,
    req: Result<Json<ReviewRequest>, JsonRejection>,
) -> Reply {
    let req = body(req)?;
    let asked = check_review(&req, state.config.max_time_ms)?;
    let slot = admit(&state, |_| {}, None).await?;
    let pool = Arc::clone(&state);
    let task = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        // One search a position: those before each move, and the one after the last.
        let span = &asked.span;
        let positions = span.moves.len() as u64 + 1;
        let each = Duration::from_millis((asked.time_ms / positions).max(1));
        let deadline = Instant::now() + Duration::from_millis(asked.time_ms);
        let mut engine = engine_for(&pool, span.start.clone());
        let reviewed = span.review(&mut engine, &Limits::time(each), Some(deadline), |_| {});
        give_back(&pool, engine);
        reviewed.map(|moves| {
            // A game ends on its last move, so a review that reached it has every move.
            let mut out = review_json(&moves, span.start.size(), span.start.rule());
            out["complete"] = (moves.len() == span.moves.len()).into();
            out
        })
    });
    let out = task.await.map_err(|_| {
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the review failed".into(),
        )
    })?;
    Ok(Json(out.map_err(bad)?).into_response())
}

/// The review as `wuzi review --json` prints it.
fn review_json(moves: &[ReviewedMove], size: usize, rule: Rule) -> Value {
    let summary = |p: Player| {
        let s = summary(moves, p);
        json!({
            "moves": s.moves, "best": s.best, "inaccuracies": s.inaccuracies,
            "mistakes": s.mistakes, "blunders": s.blunders, "mean_loss": s.mean_loss,
        })
    };
    let judged: Vec<Value> = moves
        .iter()
        .map(|m| {
            let [before_text, after_text] = m.chance_texts();
            let mut v = json!({
                "number": m.number,
                "side": crate::store::colour(m.side),
                "move": m.point.to_human(size),
                "engine": analysis_json(&m.engine, size, rule, m.side),
                "chance_before": m.chance_before,
                "chance_after": m.chance_after,
                "chance_before_text": before_text,
                "chance_after_text": after_text,
                "after": m.after_text(),
                "grade": m.grade.name(),
            });
            if let Some(reason) = m.reason {
                v["reason"] = reason.into();
            }
            v
        })
        .collect();
    json!({
        "rule": rule.name(),
        "moves": judged,
        "black": summary(Player::First),
        "white": summary(Player::Second),
    })
}

/// The most attacker moves a threat search of the API takes (as `wuzi threats`' default).
const THREAT_ATTACKS: u32 = 20;

pub async fn analyze(
    State(state): Shared,
    req: Result<Json<AnalyzeRequest>, JsonRejection>,
) -> Reply {
    let req = body(req)?;
    let asked = check_analysis(&req, state.config.max_time_ms)?;
    let n = asked.nbest.unwrap_or(1);
    let (progress, stop) = match &asked.progress_game {
        Some(id) => {
            let mut store = state.store.lock().expect("store");
            let game = store.get_mut(id).ok_or_else(no_such_game)?;
            // This analysis supersedes the one before it on the game's stream, which stops
            // (waiting in the queue or searching) and answers with what it has.
            let stop = Arc::new(AtomicBool::new(false));
            std::mem::replace(&mut game.analysis_stop, Arc::clone(&stop))
                .store(true, Ordering::Relaxed);
            (Some(game.progress.clone()), Some(stop))
        }
        None => (None, None),
    };
    let board = asked.board;
    let found = search_best(&state, board.clone(), asked.time_ms, progress, n, stop).await?;
    let mut out = analysis_of(&found[0], &board);
    if asked.nbest.is_some() {
        out["lines"] = found.iter().map(|a| analysis_of(a, &board)).collect();
    }
    Ok(Json(out).into_response())
}
