//! `POST /api/learn` and the Learn page over real HTTP on loopback.

mod common;

use common::server;
use serde_json::{json, Value};
use std::time::Duration;
use wuzi_web::Config;

/// (status, body) of a request; errors are answers too.
fn post(url: &str, body: Value) -> (u16, Value) {
    let req = ureq::post(url).timeout(Duration::from_secs(60));
    let resp = match req.send_json(body) {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("POST {url}: {e}"),
    };
    let status = resp.status();
    let text = resp.into_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn get(url: &str) -> String {
    ureq::get(url).call().unwrap().into_string().unwrap()
}

fn count_nodes(node: &Value) -> u64 {
    1 + node["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(count_nodes)
        .sum::<u64>()
}

#[test]
fn two_algorithms_on_tic_tac_toe_with_their_trees() {
    let base = server(Config::default());
    let (status, body) = post(
        &format!("{base}/api/learn"),
        json!({"game": "tictactoe", "moves": ["b2", "a1"], "depth": 4,
               "algorithms": ["minimax", "alphabeta"], "tree": true, "max_nodes": 20000}),
    );
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    assert_eq!(results[0]["algorithm"], "minimax");
    assert_eq!(results[0]["score"], results[1]["score"]);
    for r in results {
        for field in ["best_move", "score", "nodes", "millis", "pv", "tree"] {
            assert!(!r[field].is_null(), "{field}: {r}");
        }
        assert_eq!(
            count_nodes(&r["tree"]["root"]),
            r["nodes"].as_u64().unwrap()
        );
    }
    assert!(results[1]["nodes"].as_u64() < results[0]["nodes"].as_u64());
}

#[test]
fn every_algorithm_on_a_small_gomoku_board_and_an_mnk_board() {
    let base = server(Config::default());
    let (status, body) = post(
        &format!("{base}/api/learn"),
        json!({"game": "gomoku", "rule": "renju", "size": 9, "moves": ["e5", "f6", "e6"],
               "depth": 3, "candidates": 6,
               "algorithms": ["minimax", "negamax", "alphabeta", "pvs", "engine"]}),
    );
    assert_eq!(status, 200, "{body}");
    let results = body["results"].as_array().unwrap();
    for r in &results[1..4] {
        assert_eq!(r["score"], results[0]["score"], "{}", r["algorithm"]);
    }
    assert!(results.iter().all(|r| r["tree"].is_null()));
    let (status, body) = post(
        &format!("{base}/api/learn"),
        json!({"game": "mnk", "width": 4, "height": 3, "k": 3, "depth": 5,
               "algorithms": ["pvs", "engine"]}),
    );
    assert_eq!(status, 200, "{body}");
}

/// The algorithms of one request share the server's think-time cap: five slow ones each
/// with the whole cap held the search slot five times as long as any other request.
#[test]
fn a_learn_request_keeps_within_the_servers_time_cap() {
    let base = server(Config {
        max_time_ms: 1000,
        ..Config::default()
    });
    let started = std::time::Instant::now();
    let (status, body) = post(
        &format!("{base}/api/learn"),
        json!({"game": "gomoku", "size": 15, "moves": ["h8", "i9"], "depth": 6,
               "algorithms": ["minimax", "negamax", "minimax", "negamax", "alphabeta"]}),
    );
    let took = started.elapsed();
    // Each algorithm has a fifth of the second (the whole second each before), and the first
    // that cannot finish in it ends the request.
    assert_eq!(status, 400, "{body}");
    assert!(
        body["error"]
            .as_str()
            .unwrap()
            .starts_with("minimax at depth 6 takes longer than 200 ms"),
        "{body}"
    );
    assert!(took < std::time::Duration::from_millis(3500), "{took:?}");
}

#[test]
fn bad_learn_requests_are_400_with_a_reason() {
    let base = server(Config {
        max_time_ms: 200,
        ..Config::default()
    });
    let url = format!("{base}/api/learn");
    let ttt = |extra: Value| {
        let mut body = json!({"game": "tictactoe", "depth": 3, "algorithms": ["minimax"]});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    for (body, expected) in [
        (
            ttt(json!({"algorithms": ["bogosort"]})),
            "unknown algorithm",
        ),
        (ttt(json!({"depth": 0})), "depth 0 is out of range"),
        (ttt(json!({"depth": 10})), "depth 10 is out of range"),
        (
            ttt(json!({"tree": true, "max_nodes": 0})),
            "max_nodes 0 is out of range",
        ),
        (
            ttt(json!({"tree": true, "max_nodes": 1_000_000})),
            "out of range",
        ),
        (
            ttt(json!({"moves": ["a1", "b1", "a2", "b2", "a3"]})),
            "already over",
        ),
        (ttt(json!({"game": "go"})), "unknown game"),
        (ttt(json!({"colour": "red"})), "unknown field"),
        (
            ttt(json!({"tree": true, "max_nodes": 10})),
            "more than 10 nodes",
        ),
        (
            json!({"game": "gomoku", "depth": 6, "algorithms": ["minimax"], "moves": ["h8"]}),
            "longer than 200 ms",
        ),
    ] {
        let (status, answer) = post(&url, body.clone());
        assert_eq!(status, 400, "{body}: {answer}");
        let error = answer["error"].as_str().unwrap();
        assert!(error.contains(expected), "{body}: {error}");
    }
}

#[test]
fn the_learn_page_is_served_and_linked_from_the_game_page() {
    let base = server(Config::default());
    assert!(get(&format!("{base}/")).contains("href=\"/learn\""));
    let page = get(&format!("{base}/learn"));
    assert!(page.contains("/learn.js") && page.contains("/learn.css"));
    assert!(get(&format!("{base}/learn.js")).contains("/api/learn"));
}
