//! The JSON API over real HTTP on loopback: every route, every error, and many requests at
//! once against a server with one search slot.

mod common;

use common::server;
use serde_json::{json, Value};
use std::time::Duration;
use wuzi_web::Config;

fn default_server() -> String {
    server(Config {
        max_searches: 2,
        ..Config::default()
    })
}

/// (status, body) of a request; errors are answers too.
fn call(method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    let req = ureq::request(method, url).timeout(Duration::from_secs(30));
    let result = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    let resp = match result {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = resp.status();
    let text = resp.into_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

fn post(url: &str, body: Value) -> (u16, Value) {
    call("POST", url, Some(body))
}

/// A game's id: an opaque string.
fn id_of(game: &Value) -> &str {
    game["id"].as_str().expect("a string id")
}

fn new_game(base: &str, body: Value) -> Value {
    let (status, game) = post(&format!("{base}/api/games"), body);
    assert_eq!(status, 201, "{game}");
    game
}

#[test]
fn a_game_from_start_to_undo() {
    let base = default_server();
    // The AI plays Black: it opens before the reply.
    let g = new_game(
        &base,
        json!({"rule":"freestyle","size":15,"ai":"black","time_ms":100}),
    );
    for key in [
        "id",
        "rule",
        "size",
        "ai",
        "moves",
        "to_move",
        "result",
        "reason",
        "forbidden",
    ] {
        assert!(g.get(key).is_some(), "{key} in {g}");
    }
    assert_eq!(g["moves"].as_array().unwrap().len(), 1);
    assert_eq!(g["to_move"], "white");
    assert!(g["analysis"]["best_move"].is_string());
    let id = id_of(&g);
    let url = format!("{base}/api/games/{id}");

    let (s, after) = post(&format!("{url}/moves"), json!({"move": "a1"}));
    assert_eq!(s, 200, "{after}");
    assert_eq!(
        after["moves"].as_array().unwrap().len(),
        3,
        "my move and the reply"
    );
    for key in [
        "best_move",
        "score",
        "forced",
        "plies",
        "depth",
        "nodes",
        "pv",
    ] {
        assert!(after["analysis"].get(key).is_some(), "{key}");
    }
    let (s, shown) = call("GET", &url, None);
    assert_eq!((s, &shown["moves"]), (200, &after["moves"]));

    let (s, hinted) = post(&format!("{url}/hint"), json!({}));
    assert_eq!(s, 200);
    assert!(hinted["analysis"]["best_move"].is_string());
    assert_eq!(hinted["moves"], after["moves"], "a hint plays nothing");

    let (s, undone) = post(&format!("{url}/undo"), json!({}));
    assert_eq!(s, 200);
    assert_eq!(undone["moves"].as_array().unwrap().len(), 1);
    let (s, e) = post(&format!("{url}/undo"), json!({}));
    assert_eq!(s, 400, "nothing of mine to undo: {e}");
}

#[test]
fn every_bad_request_is_refused_and_changes_nothing() {
    let base = default_server();
    let games = format!("{base}/api/games");
    for (body, why) in [
        (json!({"rule":"caro"}), "unknown rule"),
        (json!({"size":4}), "size"),
        (json!({"size":23}), "size"),
        (json!({"time_ms":0}), "time"),
        (json!({"ai":"green"}), "ai"),
        (json!({"moves":["h8","h8"]}), "occupied"),
        (json!({"moves":["z99"]}), "off-board"),
        (json!({"colour":"black"}), "unknown field"),
    ] {
        let (s, e) = post(&games, body.clone());
        assert_eq!(s, 400, "{why}: {body} -> {e}");
        assert!(e["error"].is_string(), "{e}");
    }
    let raw = ureq::post(&games)
        .set("content-type", "application/json")
        .send_string("{not json");
    match raw {
        Err(ureq::Error::Status(400, _)) => {}
        other => panic!("unreadable body: {other:?}"),
    }
    let (s, _) = call("GET", &format!("{base}/api/games/1"), None);
    assert_eq!(s, 404);
    let (s, _) = post(&format!("{base}/api/games/abc/moves"), json!({"move":"h8"}));
    assert_eq!(s, 404);

    let g = new_game(&base, json!({"ai":"white","time_ms":50,"moves":["h8"]}));
    let url = format!("{base}/api/games/{}", id_of(&g));
    let before = g["moves"].clone();
    for (body, why) in [
        (json!({"move":"h8"}), "occupied"),
        (json!({"move":"p1"}), "off the board"),
        (json!({"move":"x"}), "unreadable"),
        (json!({"mv":"a1"}), "wrong field"),
        (json!({"move":" "}), "no move"),
    ] {
        let (s, e) = post(&format!("{url}/moves"), body.clone());
        assert_eq!(s, 400, "{why}: {e}");
    }
    let (_, e) = post(&format!("{url}/moves"), json!({"move":""}));
    assert_eq!(e["error"], "no move: send a point such as h8");
    let (_, now) = call("GET", &url, None);
    assert_eq!(now["moves"], before);

    // A finished game takes no more moves; its winning line is given.
    let over = new_game(
        &base,
        json!({"ai":"none","moves":["h8","a1","i8","a2","j8","a3","k8","a4","l8"]}),
    );
    assert_eq!(over["result"], "black");
    assert_eq!(over["reason"], "five");
    assert_eq!(over["winning_line"], json!(["h8", "i8", "j8", "k8", "l8"]));
    let (s, _) = post(
        &format!("{base}/api/games/{}/moves", id_of(&over)),
        json!({"move":"b1"}),
    );
    assert_eq!(s, 400);
    let (s, _) = post(
        &format!("{base}/api/analyze"),
        json!({"moves":["h8","a1","i8","a2","j8","a3","k8","a4","l8"]}),
    );
    assert_eq!(s, 400);
}

/// A renju line that ends with Black's forced block on a forbidden point says so, as
/// `wuzi analyze --json` does.
#[test]
fn an_analysis_names_a_line_s_forbidden_block() {
    let base = default_server();
    let (s, a) = post(
        &format!("{base}/api/analyze"),
        json!({"rule":"renju","moves":"f8 g7 g8 i9 h6 j10 h7 a1 f6","time_ms":300}),
    );
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["pv"], json!(["k11", "h8"]), "{a}");
    assert_eq!(a["forbidden_block"], "h8", "{a}");
    let (_, plain) = post(
        &format!("{base}/api/analyze"),
        json!({"moves":"h8 i9","time_ms":100}),
    );
    assert!(plain.get("forbidden_block").is_none(), "{plain}");
}

#[test]
fn renju_forbidden_points_are_listed_and_refused() {
    let base = default_server();
    let g = new_game(
        &base,
        json!({"rule":"renju","ai":"none","moves":["h8","a1","i8","a2","j9","a3","j10","a15"]}),
    );
    assert_eq!(g["forbidden"], json!(["j8"]));
    let foul = json!([{"point": "j8", "foul": "double-three"}]);
    assert_eq!(g["fouls"], foul);
    let (s, e) = post(
        &format!("{base}/api/games/{}/moves", id_of(&g)),
        json!({"move":"j8"}),
    );
    assert_eq!(s, 400);
    assert!(e["error"].as_str().unwrap().contains("double-three"), "{e}");
    // With White to move, White may play there: `forbidden` is empty, `fouls` still says
    // where Black may not play as the stones stand.
    let g = new_game(
        &base,
        json!({"rule":"renju","ai":"none","moves":["h8","a1","i8","a2","j9","a3","j10"]}),
    );
    assert_eq!(g["forbidden"], json!([]));
    assert_eq!(g["fouls"], foul);
}

#[test]
fn threats_answers_with_the_winning_line_or_a_clear_error() {
    let base = default_server();
    let url = format!("{base}/api/threats");
    // Black to move with an open three: fours alone win.
    let moves = json!(["h8", "i9", "h9", "i8", "h10", "i7"]);
    let (s, v) = post(
        &url,
        json!({"moves": moves, "kind": "vcf", "time_ms": 2000}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["attacker"], "black");
    assert_eq!(v["line"], json!(["h7", "h11", "h6"]));
    assert_eq!(
        (v["win"].clone(), v["plies"].clone()),
        (json!(true), json!(3))
    );
    // What White threatens, as if it had the move: its own open three.
    let (s, v) = post(
        &url,
        json!({"moves": moves, "opponent": true, "time_ms": 2000}),
    );
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["attacker"].clone(), v["plies"].clone()),
        (json!("white"), json!(3))
    );
    assert_eq!(v["forbidden_block"], Value::Null, "{v}");
    // Renju: White's four leaves Black one block, and it is forbidden.
    let renju = json!({"rule": "renju", "moves": "g12 g9 i8 f10 h10 f9 i9 e11 h8 c13 d12 f11 f8"});
    let (s, v) = post(&url, renju);
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["line"], json!(["f13", "f12"]), "{v}");
    assert_eq!(v["forbidden_block"], "f12", "{v}");
    // Quiet threats, on the position the solver's tests use (11x11).
    let quiet =
        json!({"size": 11, "moves": "d8 g9 i4 g7 g8 h4 c8 i8 d9 h5", "quiet": 2, "time_ms": 5000});
    let (s, v) = post(&url, quiet);
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["line"][0], "e10", "{v}");
    assert_eq!(v["search"], "deepening");
    // By proof numbers: a win too, its line from the same first move's threats.
    let proof = json!({"moves": moves, "kind": "VCF", "search": "proof", "time_ms": 2000});
    let (s, v) = post(&url, proof);
    assert_eq!(s, 200, "{v}");
    assert_eq!(
        (v["search"].clone(), v["win"].clone()),
        (json!("proof"), json!(true))
    );
    assert_eq!(v["plies"], v["line"].as_array().unwrap().len());
    for (body, needle) in [
        (
            json!({"moves": moves, "search": "fast"}),
            "not deepening or proof",
        ),
        (json!({"moves": moves, "kind": "vcx"}), "not vcf or vct"),
        (json!({"moves": moves, "quiet": 5}), "out of range"),
        (
            json!({"moves": moves, "kind": "vcf", "quiet": 2}),
            "kind must be vct",
        ),
        (json!({"moves": moves, "time_ms": 0}), "out of range"),
        (json!({"moves": ["h8", "h8"]}), "h8"),
        (
            json!({"moves": "h8 a1 i8 a2 j8 a3 k8 a4 l8"}),
            "already over",
        ),
        (json!({"moves": moves, "colour": "black"}), "unknown field"),
    ] {
        let (s, v) = post(&url, body.clone());
        assert_eq!(s, 400, "{body}: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{body}: {v}");
    }
}

/// A record without `SZ` takes the request's `size`; a size no board has is a clear 400, not
/// a dropped connection (it used to panic the worker); only the game asked for has to read.
#[test]
fn records_take_the_requests_size_and_one_bad_game_hides_no_other() {
    let base = default_server();
    let url = format!("{base}/api/analyze");
    let no_size = "(;FF[4]GM[4];B[jj];W[ss])";
    let (s, v) = post(&url, json!({"sgf": no_size, "size": 20, "time_ms": 100}));
    assert_eq!(s, 200, "{v}");
    let (s, e) = post(&url, json!({"sgf": no_size}));
    assert_eq!(s, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("15x15"), "{e}");
    let threats = format!("{base}/api/threats");
    let (s, e) = post(&threats, json!({"sgf": "(;AB[zz])", "size": 26}));
    assert_eq!(s, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("has no SZ"), "{e}");
    let two = "(;SZ[15];B[hh];W[hh])\n(;SZ[15];B[hh];W[ii])";
    let (s, v) = post(&url, json!({"sgf": two, "game": 2, "time_ms": 100}));
    assert_eq!(s, 200, "{v}");
    let (s, e) = post(&url, json!({"sgf": two, "game": 3}));
    assert_eq!(s, 400, "{e}");
    assert!(
        e["error"].as_str().unwrap().contains("holds 2 games"),
        "{e}"
    );
    let (s, e) = post(
        &url,
        json!({"sgf": format!("{two}\n(;SZ[15];B[h"), "game": 4}),
    );
    assert_eq!(s, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("game 3:"), "{e}");
}

#[test]
fn analyze_answers_with_the_analysis_object() {
    let base = default_server();
    let (s, a) = post(
        &format!("{base}/api/analyze"),
        json!({"rule":"standard","size":15,"moves":["h8","a1","i8","a2","j8","a3","k8"],"time_ms":100}),
    );
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["forced"], "loss", "White cannot stop the open four: {a}");
    assert_eq!(a["win_chance"], 0.0, "{a}");
    assert_eq!(a["side"], "white", "{a}");
    assert!(a["pv"].is_array() && a["nodes"].as_u64().unwrap() > 0);
}

#[test]
fn review_grades_every_move_or_refuses_a_bad_game() {
    let base = default_server();
    let url = format!("{base}/api/review");
    // Time enough for a loaded machine to grade all seven (`complete` is asserted below).
    let (s, r) = post(&url, json!({"moves":"h8 a1 i8 a2 j8 a3 k8","time_ms":3000}));
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["rule"], "freestyle");
    let moves = r["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 7, "{r}");
    let six = &moves[5];
    assert_eq!(
        (&six["number"], &six["side"], &six["move"]),
        (&json!(6), &json!("white"), &json!("a3"))
    );
    assert_eq!(six["grade"], "blunder", "{six}");
    assert_eq!(six["reason"], "walks into a proven loss", "{six}");
    assert!(six["engine"]["best_move"].is_string() && six["engine"]["pv"].is_array());
    assert_eq!(r["black"]["moves"], 4);
    assert_eq!(r["white"]["moves"], 3);
    assert_eq!(r["complete"], true);
    assert_eq!(
        six["engine"]["side"], "white",
        "the engine's view is the mover's"
    );
    for bad in [
        json!({"moves":[],"time_ms":100}),
        json!({"moves":"h8 h8"}),
        json!({"moves":"h8","time_ms":0}),
        json!({"moves":"h8","nbest":2}),
    ] {
        let (s, e) = post(&url, bad.clone());
        assert_eq!(s, 400, "{bad}: {e}");
        assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
    }
}

/// A record's opening stones (a match manager's `C[opening move]`) are not graded, as `wuzi
/// review` leaves them out; `from` names the first move graded; a game made from the record
/// says how many opening stones it has, fewer once they are taken back.
#[test]
fn review_leaves_out_opening_stones_or_starts_where_asked() {
    let base = default_server();
    let url = format!("{base}/api/review");
    let sgf = "(;FF[4]GM[4]RU[1]SZ[15];B[hh]C[opening move];W[ii]C[opening move];\
               B[hi]C[5ms];W[ih]C[5ms];B[hj]C[5ms])";
    let numbers = |r: &Value| -> Vec<u64> {
        let moves = r["moves"].as_array().expect("moves");
        moves
            .iter()
            .map(|m| m["number"].as_u64().unwrap())
            .collect()
    };
    // Time enough that a loaded machine (tests in parallel, a search slot to wait for)
    // still grades every move: which moves are graded is the fact tested, not the speed.
    let (s, r) = post(&url, json!({"sgf": sgf, "time_ms": 2000}));
    assert_eq!(s, 200, "{r}");
    assert_eq!(numbers(&r), [3, 4, 5], "{r}");
    let (s, r) = post(&url, json!({"sgf": sgf, "time_ms": 2000, "from": 1}));
    assert_eq!(s, 200, "{r}");
    assert_eq!(numbers(&r), [1, 2, 3, 4, 5], "{r}");
    let (s, r) = post(
        &url,
        json!({"moves": "h8 i9 j8", "time_ms": 2000, "from": 2}),
    );
    assert_eq!(s, 200, "{r}");
    assert_eq!(numbers(&r), [2, 3], "{r}");
    for from in [0, 4] {
        let (s, e) = post(&url, json!({"moves": "h8 i9 j8", "from": from}));
        assert_eq!(s, 400, "{e}");
        assert!(e["error"].as_str().unwrap().contains("out of range"), "{e}");
    }
    // A record that is all opening has nothing to grade unless `from` asks for it.
    let opening_only = "(;FF[4]GM[4]SZ[15];B[hh]C[opening move];W[ii]C[opening move])";
    let (s, e) = post(&url, json!({"sgf": opening_only}));
    assert_eq!(s, 400, "{e}");
    assert!(
        e["error"]
            .as_str()
            .unwrap()
            .contains("all 2 moves are the record's opening"),
        "{e}"
    );
    let (s, r) = post(
        &url,
        json!({"sgf": opening_only, "time_ms": 2000, "from": 1}),
    );
    assert_eq!(s, 200, "{r}");
    assert_eq!(numbers(&r), [1, 2], "{r}");
    assert!(
        r["moves"][0]["chance_before_text"]
            .as_str()
            .unwrap()
            .ends_with('%'),
        "{r}"
    );
    let game = new_game(&base, json!({"sgf": sgf, "ai": "none", "time_ms": 100}));
    assert_eq!(game["opening"], 2, "{game}");
    let undo = format!("{base}/api/games/{}/undo", id_of(&game));
    for (left, opening) in [(4, 2), (3, 2), (2, 2), (1, 1)] {
        let (s, g) = post(&undo, json!({}));
        assert_eq!(s, 200, "{g}");
        assert_eq!(g["moves"].as_array().unwrap().len(), left);
        assert_eq!(g["opening"], opening, "{g}");
    }
    let plain = new_game(&base, json!({"moves": "h8 i9", "ai": "none"}));
    assert_eq!(plain["opening"], 0, "{plain}");
    // The exported record keeps the marks, and the page resumes a game with its count.
    let game = new_game(&base, json!({"sgf": sgf, "ai": "none", "time_ms": 100}));
    let url = format!("{base}/api/games/{}/sgf", id_of(&game));
    let exported = ureq::get(&url).call().unwrap().into_string().unwrap();
    assert_eq!(exported.matches("C[opening move]").count(), 2, "{exported}");
    let again = new_game(&base, json!({"sgf": exported, "ai": "none"}));
    assert_eq!(again["opening"], 2, "{again}");
    let resumed = new_game(
        &base,
        json!({"moves": "h8 i7 h7", "opening": 2, "ai": "none"}),
    );
    assert_eq!(resumed["opening"], 2, "{resumed}");
    for bad in [
        json!({"moves": "h8 i7", "opening": 3}),
        json!({"sgf": sgf, "opening": 1}),
        json!({"moves": "h8", "opening": -1}),
    ] {
        let (s, e) = post(&format!("{base}/api/games"), bad.clone());
        assert_eq!(s, 400, "{bad}: {e}");
    }
}

#[test]
fn analyze_lists_the_n_best_moves_or_refuses_a_bad_count() {
    let base = default_server();
    let url = format!("{base}/api/analyze");
    let (s, a) = post(&url, json!({"moves":"h8 i9 h9 h7","time_ms":600,"nbest":3}));
    assert_eq!(s, 200, "{a}");
    let lines = a["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 3, "{a}");
    assert_eq!(a["best_move"], lines[0]["best_move"], "{a}");
    let moves: Vec<&str> = lines
        .iter()
        .map(|l| l["best_move"].as_str().expect("a move"))
        .collect();
    assert!(
        moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2],
        "{moves:?}"
    );
    for (line, mv) in lines.iter().zip(&moves) {
        assert_eq!(line["pv"][0].as_str(), Some(*mv), "{line}");
    }
    // Scored by one search at one depth, best first.
    let scores: Vec<i64> = lines.iter().map(|l| l["score"].as_i64().unwrap()).collect();
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
    assert!(lines.iter().all(|l| l["depth"] == lines[0]["depth"]), "{a}");
    // Black's four leaves White one move: the list stops there.
    let (s, a) = post(
        &url,
        json!({"moves":"h8 g8 i8 a1 j8 a2 k8","time_ms":300,"nbest":3}),
    );
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["lines"].as_array().map(Vec::len), Some(1), "{a}");
    assert_eq!(a["lines"][0]["best_move"], "l8", "{a}");
    assert_eq!(a["best_move"], "l8");
    // Without `nbest` the answer has no `lines`.
    let (s, a) = post(&url, json!({"moves":"h8","time_ms":100}));
    assert_eq!(s, 200, "{a}");
    assert!(a.get("lines").is_none(), "{a}");
    for n in [json!(0), json!(11), json!(-1), json!("3")] {
        let (s, e) = post(&url, json!({"moves":"h8","time_ms":100,"nbest":n}));
        assert_eq!(s, 400, "nbest {n}: {e}");
        assert!(e["error"].as_str().is_some_and(|m| !m.is_empty()), "{e}");
    }
}

#[test]
fn the_page_and_its_files_are_served() {
    let base = default_server();
    for path in ["/", "/app.js", "/style.css"] {
        let r = ureq::get(&format!("{base}{path}")).call().unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert!(r.into_string().unwrap().len() > 100);
    }
    let (s, _) = call("GET", &format!("{base}/nothing-here"), None);
    assert_eq!(s, 404);
}

/// A game takes at most 8 event streams at once (each holds a connection); the ninth gets a
/// 429 that says why, and a stream closed frees its place.
#[test]
fn a_game_s_event_streams_are_capped() {
    let base = default_server();
    let g = new_game(&base, json!({}));
    let url = format!("{base}/api/games/{}/events", id_of(&g));
    // A stream, or the refusal's status and text.
    let open = || match ureq::get(&url).timeout(Duration::from_secs(20)).call() {
        Ok(stream) => Ok(stream),
        Err(ureq::Error::Status(code, r)) => Err((code, r.into_string().unwrap())),
        Err(e) => panic!("{url}: {e}"),
    };
    let mut streams: Vec<_> = (0..8).map(|_| open().expect("a stream")).collect();
    match open() {
        Err((429, text)) => assert!(text.contains("8 event streams open"), "{text}"),
        other => panic!("a ninth stream: {:?}", other.map(|r| r.status())),
    }
    drop(streams.pop());
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while open().is_err() {
        assert!(
            std::time::Instant::now() < deadline,
            "a closed stream's place stays taken"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Game `id`'s event stream, open.
fn event_stream(base: &str, id: &str) -> impl std::io::BufRead {
    let events = ureq::get(&format!("{base}/api/games/{id}/events"))
        .timeout(Duration::from_secs(20))
        .call()
        .unwrap();
    assert!(events.content_type().contains("event-stream"));
    std::io::BufReader::new(events.into_reader())
}

/// Whether a `progress` event comes within the stream's next 50 lines.
fn reaches_a_progress_event(reader: &mut impl std::io::BufRead) -> bool {
    let mut line = String::new();
    for _ in 0..50 {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            return false;
        }
        if line.starts_with("event: progress") {
            return true;
        }
    }
    false
}

#[test]
fn search_progress_is_pushed_as_server_sent_events() {
    let base = default_server();
    let g = new_game(&base, json!({"ai":"white","time_ms":300}));
    let id = id_of(&g).to_string();
    let mut reader = event_stream(&base, &id);
    let mover = std::thread::spawn(move || {
        post(
            &format!("{base}/api/games/{id}/moves"),
            json!({"move":"h8"}),
        )
    });
    let saw = reaches_a_progress_event(&mut reader);
    assert!(saw, "a progress event while the AI thinks");
    assert_eq!(mover.join().unwrap().0, 200);
}

/// An analysis that names a game (`progress_game`, as the page's analysis mode does) tells
/// that game's event stream its progress; an unknown game is a 404 and nothing is searched.
#[test]
fn an_analysis_can_report_its_progress_on_a_game_s_stream() {
    let base = default_server();
    let g = new_game(&base, json!({"ai":"none","moves":"h8 i9"}));
    let id = id_of(&g).to_string();
    let mut reader = event_stream(&base, &id);
    let url = format!("{base}/api/analyze");
    let analysis = {
        let (url, id) = (url.clone(), id.clone());
        std::thread::spawn(move || {
            post(
                &url,
                json!({"moves":"h8 i9","time_ms":300,"nbest":3,"progress_game":id}),
            )
        })
    };
    let saw = reaches_a_progress_event(&mut reader);
    assert!(saw, "a progress event while the analysis runs");
    let (s, a) = analysis.join().unwrap();
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["lines"].as_array().map(Vec::len), Some(3), "{a}");
    let (s, e) = post(
        &url,
        json!({"moves":"h8","time_ms":100,"progress_game":"no-such-game"}),
    );
    assert_eq!(s, 404, "{e}");
}

/// Polls the game until its `thinking` is `want` (20 s at most); the game then.
fn await_thinking(base: &str, id: &str, want: bool) -> Value {
    await_server(|| {
        let (_, game) = call("GET", &format!("{base}/api/games/{id}"), None);
        (game["thinking"] == want).then_some(game)
    })
}

/// Polls `/healthz` until so many searches run and so many wait.
fn await_load(base: &str, running: u64, waiting: u64) {
    await_server(|| {
        let (_, h) = call("GET", &format!("{base}/healthz"), None);
        (h["searches"] == running && h["waiting"] == waiting).then_some(())
    })
}

/// `poll`'s first answer, asked every 20 ms for 20 s at most.
fn await_server<T>(mut poll: impl FnMut() -> Option<T>) -> T {
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        if let Some(found) = poll() {
            return found;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the server never got there"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A client that goes while the AI thinks (a page reloaded) left the game marked as thinking
/// for good: every later request got 409. The AI's move is made all the same.
#[test]
fn a_client_gone_while_the_ai_thinks_leaves_the_move_made() {
    let base = default_server();
    let g = new_game(&base, json!({"ai":"white","time_ms":3000}));
    assert_eq!(g["thinking"], false, "{g}");
    let id = id_of(&g).to_string();
    let gone = ureq::post(&format!("{base}/api/games/{id}/moves"))
        .timeout(Duration::from_millis(1000))
        .send_json(json!({"move":"h8"}));
    assert!(gone.is_err(), "the client gave up before the reply");
    let game = await_thinking(&base, &id, false);
    assert_eq!(game["moves"].as_array().map(Vec::len), Some(2), "{game}");
    let next = if game["moves"][1] == "h9" { "g9" } else { "h9" };
    let (s, after) = post(
        &format!("{base}/api/games/{id}/moves"),
        json!({ "move": next }),
    );
    assert_eq!(s, 200, "{after}");
}

/// The AI's move counts against its player's address like any search: run by a task of its
/// own, it was booked under no address at all, so one address's limit did not hold it and
/// every player's AI moves shared one count.
#[test]
fn the_ai_s_move_counts_against_its_player_s_address() {
    let base = server(Config {
        max_searches: 2,
        per_client: 1,
        ..Config::default()
    });
    let g = new_game(&base, json!({"ai":"white","time_ms":3000}));
    let id = id_of(&g).to_string();
    let mv = {
        let url = format!("{base}/api/games/{id}/moves");
        std::thread::spawn(move || post(&url, json!({"move":"h8"})))
    };
    await_thinking(&base, &id, true);
    let (s, e) = post(
        &format!("{base}/api/analyze"),
        json!({"moves":"h8","time_ms":100}),
    );
    assert_eq!(s, 429, "{e}");
    let (s, after) = mv.join().unwrap();
    assert_eq!(s, 200, "{after}");
}

/// A page stepping through a game in analysis mode asks for each position's analysis in turn:
/// the ones it has left behind used to run to their end, and the position shown waited behind
/// them. The next analysis on the same game's stream stops the one before, which answers with
/// what it has.
#[test]
fn an_analysis_on_a_game_s_stream_supersedes_the_one_before() {
    let base = server(Config {
        max_searches: 1,
        max_time_ms: 60_000,
        ..Config::default()
    });
    let g = new_game(&base, json!({"ai":"none","moves":"h8 i9"}));
    let id = id_of(&g).to_string();
    let url = format!("{base}/api/analyze");
    let first = {
        let (url, id) = (url.clone(), id.clone());
        std::thread::spawn(move || {
            post(
                &url,
                json!({"moves":"h8 i9","time_ms":60000,"progress_game":id}),
            )
        })
    };
    // Until the first one searches (it holds the one slot).
    await_load(&base, 1, 0);
    let (s, second) = post(
        &url,
        json!({"moves":"h8 i9 h9","time_ms":300,"progress_game":id}),
    );
    assert_eq!(s, 200, "{second}");
    let (s, first) = first.join().unwrap();
    assert_eq!(s, 200, "{first}");
    // Stopped long before its minute: well within the 30 s the client waits.
    assert!(first["millis"].as_u64().unwrap() < 20_000, "{first}");
    assert!(first["best_move"].is_string(), "{first}");
}

/// An analysis superseded while it waits for a search slot gives its place up at once (409),
/// rather than keep its place in the queue and its client's count.
#[test]
fn a_superseded_analysis_waiting_in_the_queue_gives_up() {
    let base = server(Config {
        max_searches: 1,
        max_time_ms: 60_000,
        ..Config::default()
    });
    let url = format!("{base}/api/analyze");
    let game =
        |moves: &str| id_of(&new_game(&base, json!({"ai":"none","moves":moves}))).to_string();
    let (holder, waiter) = (game("h8"), game("h8 i9"));
    let analyse = |moves: &'static str, id: &str, time_ms: u64| {
        let (url, id) = (url.clone(), id.to_string());
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let answer = post(
                &url,
                json!({"moves":moves,"time_ms":time_ms,"progress_game":id}),
            );
            (answer, started.elapsed())
        })
    };
    let long = analyse("h8", &holder, 60_000);
    await_load(&base, 1, 0);
    let first = analyse("h8 i9", &waiter, 300);
    await_load(&base, 1, 1);
    let second = analyse("h8 i9 h9", &waiter, 300);
    let ((s, gave_up), waited) = first.join().unwrap();
    assert_eq!(s, 409, "{gave_up}");
    assert!(waited < Duration::from_secs(20), "{waited:?}");
    // The slot's holder is superseded too, and everything left is answered.
    let ((s, next), _) = analyse("h8 j9", &holder, 300).join().unwrap();
    assert_eq!(s, 200, "{next}");
    for done in [long, second] {
        let ((s, a), _) = done.join().unwrap();
        assert_eq!(s, 200, "{a}");
    }
}

/// A game's think time changes for the rest of the game, capped as a new game's is, with no
/// new game started.
#[test]
fn a_game_s_think_time_can_change() {
    let base = server(Config {
        max_searches: 1,
        max_time_ms: 3000,
        ..Config::default()
    });
    let g = new_game(&base, json!({"ai":"white","time_ms":300}));
    let id = id_of(&g).to_string();
    let url = format!("{base}/api/games/{id}/time");
    let (s, after) = post(&url, json!({"time_ms":10000}));
    assert_eq!(s, 200, "{after}");
    assert_eq!(
        (after["id"].as_str(), after["time_ms"].as_u64()),
        (Some(id.as_str()), Some(3000))
    );
    let (s, shown) = call("GET", &format!("{base}/api/games/{id}"), None);
    assert_eq!((s, shown["time_ms"].as_u64()), (200, Some(3000)), "{shown}");
    for bad in [
        json!({"time_ms":0}),
        json!({"time_ms":"fast"}),
        json!({"time":5}),
    ] {
        let (s, e) = post(&url, bad.clone());
        assert_eq!(s, 400, "{bad}: {e}");
    }
    let (s, e) = post(
        &format!("{base}/api/games/no-such-game/time"),
        json!({"time_ms":100}),
    );
    assert_eq!(s, 404, "{e}");
}

#[test]
fn think_times_are_capped_by_the_server_and_no_ai_reads_none() {
    // A server allowing 200 ms: the default second and a page's 10 s are both lowered to it.
    let base = server(Config {
        max_searches: 2,
        max_time_ms: 200,
        ..Config::default()
    });
    let g = new_game(&base, json!({"ai":"none"}));
    assert_eq!(g["time_ms"], 200, "{g}");
    assert_eq!(g["ai"], "none", "{g}");
    // The game as it came back starts the same game again (the page's resume).
    let again = new_game(
        &base,
        json!({"rule": g["rule"], "size": g["size"], "ai": g["ai"], "time_ms": 999999, "moves": ["h8"]}),
    );
    assert_eq!(
        (again["ai"].as_str(), again["time_ms"].as_u64()),
        (Some("none"), Some(200))
    );
    assert_eq!(again["moves"], json!(["h8"]), "no engine reply: {again}");
    for route in ["analyze", "threats"] {
        let (s, r) = post(&format!("{base}/api/{route}"), json!({"moves":"h8"}));
        assert_eq!(s, 200, "{route}: {r}");
        assert!(r["millis"].as_u64().unwrap() < 2_000, "{route}: {r}");
    }
}

#[test]
fn many_requests_at_once_get_answers_or_a_clean_busy() {
    // No queue: what one slot cannot take is refused at once.
    let base = server(Config {
        max_searches: 1,
        queue: 0,
        ..Config::default()
    });
    let handles: Vec<_> = (0..12)
        .map(|i| {
            let url = format!("{base}/api/analyze");
            std::thread::spawn(move || {
                post(
                    &url,
                    json!({"moves":["h8", if i % 2 == 0 { "i9" } else { "g7" }],"time_ms":300}),
                )
            })
        })
        .collect();
    let mut ok = 0;
    let mut busy = 0;
    for h in handles {
        let (s, body) = h.join().unwrap();
        match s {
            200 => {
                assert!(body["best_move"].is_string(), "{body}");
                ok += 1;
            }
            429 | 503 => {
                assert!(body["error"].is_string(), "{body}");
                busy += 1;
            }
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert!(ok >= 1 && busy >= 1, "{ok} answered, {busy} busy");
    // Still up and answering.
    let (s, _) = post(
        &format!("{base}/api/analyze"),
        json!({"moves":["h8"],"time_ms":50}),
    );
    assert_eq!(s, 200);
}

/// A body announced and never sent gets a 408 once `body_wait` has passed, not a connection
/// held open for good; the server answers others meanwhile and after.
#[test]
fn a_body_that_never_arrives_gets_a_408() {
    use std::io::{Read, Write};
    let base = server(Config {
        body_wait: Duration::from_millis(300),
        ..Config::default()
    });
    let addr = base.trim_start_matches("http://");
    let mut tcp = std::net::TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let head = format!(
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\ncontent-type: application/json\r\n\
         content-length: 100\r\n\r\n{{\"rule\":"
    );
    tcp.write_all(head.as_bytes()).unwrap();
    let (s, _) = call("GET", &format!("{base}/healthz"), None);
    assert_eq!(s, 200, "others are served while one body is late");
    let mut reply = String::new();
    let _ = tcp.read_to_string(&mut reply);
    assert!(reply.starts_with("HTTP/1.1 408"), "{reply}");
    assert!(reply.contains("did not arrive within 300 ms"), "{reply}");
    let (s, _) = call("GET", &format!("{base}/healthz"), None);
    assert_eq!(s, 200);
}

/// Headers sent a byte at a time, or never finished, do not hold a connection for good: it
/// is closed once `header_wait` has passed, and the server answers others meanwhile.
#[test]
fn headers_that_never_end_lose_their_connection() {
    use std::io::{Read, Write};
    let base = server(Config {
        header_wait: Duration::from_millis(300),
        ..Config::default()
    });
    let addr = base.trim_start_matches("http://");
    let mut tcp = std::net::TcpStream::connect(addr).unwrap();
    tcp.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    tcp.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n").as_bytes())
        .unwrap();
    let (s, _) = call("GET", &format!("{base}/healthz"), None);
    assert_eq!(s, 200, "others are served while one client stalls");
    let mut reply = Vec::new();
    let read = tcp.read_to_end(&mut reply);
    assert!(
        read.is_ok(),
        "closed by the server, not by the 20 s read timeout: {read:?}"
    );
    assert!(
        reply.is_empty() || reply.starts_with(b"HTTP/1.1 408"),
        "{reply:?}"
    );
    let (s, _) = call("GET", &format!("{base}/healthz"), None);
    assert_eq!(s, 200);
}

#[test]
fn oversized_bodies_are_refused() {
    let base = default_server();
    // Just over the 64 KiB limit, so that the body fits the socket buffers and the 413 is
    // read rather than a broken pipe.
    let moves: Vec<String> = (0..14_000).map(|_| "h8".to_string()).collect();
    let (s, _) = post(&format!("{base}/api/games"), json!({ "moves": moves }));
    assert_eq!(s, 413);
}

#[test]
fn a_game_the_ai_is_thinking_about_refuses_other_changes() {
    let base = default_server();
    let g = new_game(&base, json!({"ai":"white","time_ms":1500}));
    let url = format!("{base}/api/games/{}", id_of(&g));
    let mover = {
        let url = url.clone();
        std::thread::spawn(move || post(&format!("{url}/moves"), json!({"move":"h8"})))
    };
    std::thread::sleep(Duration::from_millis(400));
    let (s, e) = post(&format!("{url}/moves"), json!({"move":"a1"}));
    assert_eq!(s, 409, "{e}");
    let (s, _) = post(&format!("{url}/undo"), json!({}));
    assert_eq!(s, 409);
    let (s, after) = mover.join().unwrap();
    assert_eq!(s, 200);
    assert_eq!(
        after["moves"].as_array().unwrap().len(),
        2,
        "only h8 and the reply"
    );
}

#[test]
fn renju_black_is_never_given_a_forbidden_point() {
    let base = default_server();
    // Issue 17: White threatens five at f12, a double three for Black.
    let moves: Vec<&str> = "g12 g9 i8 f10 h10 f9 i9 e11 h8 c13 d12 f11 f8 f13"
        .split(' ')
        .collect();
    let (s, a) = post(
        &format!("{base}/api/analyze"),
        json!({"rule":"renju","moves":moves,"time_ms":200}),
    );
    assert_eq!(s, 200, "{a}");
    assert_ne!(a["best_move"], "f12", "{a}");
    // The AI playing Black answers with a legal point too.
    let g = new_game(
        &base,
        json!({"rule":"renju","ai":"black","time_ms":100,"moves":moves}),
    );
    let last = g["moves"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(g["moves"].as_array().unwrap().len(), moves.len() + 1, "{g}");
    assert_ne!(last, "f12", "{g}");

    // 7x7 where Black's only empty point is an overline: a 409 that says why.
    let none: Vec<&str> = "g2 f3 c5 e3 g1 d5 c2 d4 a1 e5 b4 d6 g7 g6 b5 d3 f6 f2 a6 f1 a7 a4 \
         c6 a5 b7 c4 e2 b2 g3 f4 f5 b3 d1 g5 g4 a3 c3 b1 e7 a2 e6 c1 c7 e1 d2 b6 f7 e4"
        .split_whitespace()
        .collect();
    let (s, e) = post(
        &format!("{base}/api/analyze"),
        json!({"rule":"renju","size":7,"moves":none,"time_ms":100}),
    );
    assert_eq!(s, 409, "{e}");
    assert!(e.to_string().contains("no legal move"), "{e}");
    // A game there says so, for the page to tell the player.
    let g = new_game(
        &base,
        json!({"rule":"renju","size":7,"ai":"white","moves":none}),
    );
    assert_eq!(g["no_legal_move"], true, "{g}");
    assert_eq!(g["result"], Value::Null, "{g}");
    let g = new_game(&base, json!({"rule":"renju","ai":"white","moves":["h8"]}));
    assert_eq!(g["no_legal_move"], false, "{g}");
    // The player's White move that leaves the AI's Black no legal move stands.
    let before = &none[..none.len() - 1];
    let g = new_game(
        &base,
        json!({"rule":"renju","size":7,"ai":"black","moves":before}),
    );
    assert_eq!(g["no_legal_move"], false, "{g}");
    let (s, g) = post(
        &format!("{base}/api/games/{}/moves", id_of(&g)),
        json!({"move": none[none.len() - 1]}),
    );
    assert_eq!(s, 200, "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), none.len(), "{g}");
    assert_eq!(g["no_legal_move"], true, "{g}");
}

#[test]
fn games_come_in_and_go_out_as_sgf() {
    let base = default_server();
    // c-gomoku-cli's record (the gomoku crate's test data): game 2 ends in Black's five.
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../gomoku/tests/data/sgf/c-gomoku-cli-wuzi-rapfi.sgf"
    );
    let sgf = std::fs::read_to_string(file).unwrap();
    let g = new_game(&base, json!({"ai": "none", "sgf": sgf, "game": 2}));
    assert_eq!(g["result"], "black");
    assert_eq!(g["size"], 15);
    let first = new_game(&base, json!({"ai": "none", "sgf": sgf}));
    assert_eq!(first["result"], "white");

    // Export: the same moves come back through the reader.
    let g = new_game(&base, json!({"ai": "none", "moves": ["h8", "i9", "h9"]}));
    let id = g["id"].as_str().expect("a string id");
    let (s, text) = call("GET", &format!("{base}/api/games/{id}/sgf"), None);
    assert_eq!(s, 200);
    let text = text.as_str().expect("SGF text").to_string();
    assert!(text.starts_with("(;FF[4]GM[4]"), "{text}");
    let again = new_game(&base, json!({"ai": "none", "sgf": text}));
    assert_eq!(again["moves"], g["moves"]);

    let (s, a) = post(
        &format!("{base}/api/analyze"),
        json!({"sgf": "(;FF[4]GM[4]SZ[15];B[hh];W[ii])", "time_ms": 50}),
    );
    assert_eq!(s, 200, "{a}");
    assert!(a["best_move"].is_string(), "{a}");

    let psq = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n-1\n";
    let p = new_game(&base, json!({"ai": "none", "psq": psq}));
    assert_eq!(p["moves"], json!(["h8", "i7"]));

    for (body, needle) in [
        (json!({"sgf": "(;SZ[15];B[hh];W[hh])"}), "line 1, column 16"),
        (json!({"sgf": "(;GM[1])"}), "GM[1]"),
        (json!({"sgf": "(;;B[hh])", "moves": ["h8"]}), "not both"),
        (json!({"sgf": sgf, "game": 9}), "game 9"),
        (json!({"moves": ["h8"], "game": 2}), "needs sgf or psq"),
        (json!({"sgf": "(;AB[hh])"}), "set-up"),
        // Nested variations thousands deep in a small body: read without recursion (the
        // server once ran out of stack on these and died).
        (
            json!({"sgf": format!("(;SZ[15]{}{})", "(".repeat(20_000), ")".repeat(20_001))}),
            "no nodes",
        ),
    ] {
        let (s, e) = post(&format!("{base}/api/games"), body.clone());
        assert_eq!(s, 400, "{body}");
        assert!(e["error"].as_str().unwrap().contains(needle), "{body}: {e}");
    }
    // Set-up stones give a position to analyse (not a game to play or review): Black to
    // move with three in a row and room on both sides wins.
    let setup = "(;FF[4]GM[4]SZ[15]AB[hh][ih][jh]AW[aa][ab]PL[B])";
    let (s, a) = post(
        &format!("{base}/api/analyze"),
        json!({"sgf": setup, "time_ms": 200}),
    );
    assert_eq!(s, 200, "{a}");
    assert_eq!(a["side"], "black", "{a}");
    assert_eq!(a["forced"], "win", "{a}");
    let (s, t) = post(&format!("{base}/api/threats"), json!({"sgf": setup}));
    assert_eq!((s, &t["win"]), (200, &json!(true)), "{t}");
    let (s, e) = post(&format!("{base}/api/review"), json!({"sgf": setup}));
    assert_eq!(s, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("/api/analyze"), "{e}");
    // A deep main line of variations is the same game as a flat one.
    let nested = format!(
        "(;FF[4]GM[4]SZ[15](;B[hh](;W[ii](;B[hi]){})))",
        "(;C[x])".repeat(5)
    );
    let g = new_game(&base, json!({"ai": "none", "sgf": nested}));
    assert_eq!(g["moves"], json!(["h8", "i7", "h7"]), "{g}");
}
