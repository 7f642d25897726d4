//! `wuzi spsa --log`: one JSON line per iteration after a first line that records the run's
//! settings, so that `--resume` can go on from the last iteration a stopped run logged, and
//! play what the run would have played had it not stopped.

use crate::spsa_cmd::SpsaArgs;
use serde_json::{json, Value};
use std::io::Write;
use std::path::Path;

/// The settings that decide which games a run plays and how its knobs move: a resumed run
/// must have the same. (`--iterations` may grow, and `--concurrency`, `--quiet` and
/// `--average-last` may change: they change no game.)
pub fn settings(args: &SpsaArgs) -> Value {
    json!({
        "knobs": args.knobs,
        "base": args.base,
        "games": args.games,
        "rate": args.rate,
        "decay": args.decay,
        "rule": wuzi_gomoku::Rule::from(args.board.rule).name(),
        "size": args.board.size,
        // The file itself, wherever the run is resumed from.
        "openings": args.openings.as_ref().map(|p| {
            std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()).display().to_string()
        }),
        "seed": args.seed,
    })
}

/// The log's first line.
pub fn header(args: &SpsaArgs) -> String {
    json!({ "spsa": settings(args) }).to_string()
}

/// One iteration's line: its result, the knobs after it as played (two decimals finer, so
/// the drift shows) and unrounded (`--resume` checks its replay against them).
pub fn line(iteration: usize, wins_minus_losses: i64, theta: &[f64], exact: &[f64]) -> String {
    json!({
        "iteration": iteration,
        "wins_minus_losses": wins_minus_losses,
        "theta": theta,
        "theta_unrounded": exact,
    })
    .to_string()
}

/// What a stopped run's log says: each logged iteration's result and exact knobs, in order.
#[derive(Debug, Default)]
pub struct Logged {
    pub results: Vec<i64>,
    pub thetas: Vec<Vec<f64>>,
}

/// Reads the log at `path` for `--resume`: its header must hold `args`'s settings, and its
/// iterations must follow one another from 1 with one value per knob. A last line cut short
/// (the run stopped while writing it) is dropped from the file.
pub fn read(path: &Path, args: &SpsaArgs) -> Result<Logged, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("--resume: cannot read the log {name}: {e}"))?;
    let mut lines: Vec<&str> = text.lines().collect();
    // A run stopped while writing leaves its last line without a newline: cut short (it is
    // dropped), or whole but for the newline (which is added before anything is appended).
    let unended = !text.is_empty() && !text.ends_with('\n');
    let cut = unended
        && lines
            .last()
            .is_some_and(|l| serde_json::from_str::<Value>(l).is_err());
    if cut {
        lines.pop();
    }
    let header: Option<Value> = lines.first().and_then(|l| serde_json::from_str(l).ok());
    let Some(logged) = header.as_ref().and_then(|h| h.get("spsa")) else {
        return Err(format!(
            "--resume: {name} does not begin with the settings line a run writes"
        ));
    };
    let wanted = settings(args);
    if *logged != wanted {
        return Err(format!(
            "--resume: {name} was written by a run with other settings: {logged}; this one \
             has {wanted}"
        ));
    }
    let mut out = Logged::default();
    for (i, text) in lines.iter().enumerate().skip(1) {
        let bad = |why: &str| format!("--resume: {name} line {}: {why}", i + 1);
        let value: Value = serde_json::from_str(text).map_err(|e| bad(&e.to_string()))?;
        if value["iteration"].as_u64() != Some(i as u64) {
            return Err(bad(&format!("not iteration {i}")));
        }
        let result = value["wins_minus_losses"]
            .as_i64()
            .ok_or_else(|| bad("no wins_minus_losses"))?;
        let theta: Vec<f64> = value["theta_unrounded"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_f64).collect())
            .unwrap_or_default();
        if theta.len() != args.knobs.len() {
            return Err(bad(&format!(
                "theta_unrounded does not hold {} numbers",
                args.knobs.len()
            )));
        }
        out.results.push(result);
        out.thetas.push(theta);
    }
    if unended {
        let mut kept = lines.join("\n");
        kept.push('\n');
        std::fs::write(path, kept)
            .map_err(|e| format!("--resume: cannot rewrite the log {name}: {e}"))?;
        if cut {
            crate::output::note(format!(
                "{name}: its last line was cut short and is dropped"
            ));
        }
    }
    Ok(out)
}

/// Appends one line to the log and flushes it: a run stopped with Ctrl-C keeps every
/// iteration it finished.
pub fn append(log: &mut impl Write, line: &str) -> Result<(), String> {
    writeln!(log, "{line}")
        .and_then(|_| log.flush())
        .map_err(|e| format!("cannot write the log: {e}"))
}
