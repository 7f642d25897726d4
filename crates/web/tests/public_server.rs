//! A server on the open internet, over real HTTP on loopback: unguessable game ids, a burst of
//! requests waiting its turn in the queue, a short wait giving 503 with Retry-After, one greedy
//! client getting 429, `/healthz` answering throughout, the page told its place in line, and
//! connections capped in all and per client address.
//! Every wait is bounded, and the assertions are on status codes, never on timings.

mod common;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use common::server;
use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use wuzi_web::Config;

/// One search slot, small tables (quick to allocate on a loaded machine), a roomy queue.
fn one_slot(queue_wait: Duration, per_client: usize) -> Config {
    Config {
        max_searches: 1,
        queue: 100,
        queue_wait,
        per_client,
        table_bytes: 1 << 20,
        ..Config::default()
    }
}

/// What came back: status, Retry-After (if any), body.
struct Answer {
    status: u16,
    retry_after: Option<String>,
    body: Value,
}

fn send(req: ureq::Request, body: Option<Value>) -> Answer {
    let req = req.timeout(Duration::from_secs(120));
    let result = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    let resp = match result {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("no answer: {e}"),
    };
    let status = resp.status();
    let retry_after = resp.header("retry-after").map(str::to_string);
    let text = resp.into_string().unwrap();
    Answer {
        status,
        retry_after,
        body: serde_json::from_str(&text).unwrap_or(Value::String(text)),
    }
}

/// `POST /api/analyze` of a quiet opening position, as client `from` (X-Forwarded-For).
fn analyze(base: &str, time_ms: u64, from: Option<&str>) -> Answer {
    let mut req = ureq::post(&format!("{base}/api/analyze"));
    if let Some(addr) = from {
        req = req.set("x-forwarded-for", addr);
    }
    send(
        req,
        Some(json!({"moves":["h8","i9","g7"],"time_ms":time_ms})),
    )
}

fn health(base: &str) -> Answer {
    send(ureq::get(&format!("{base}/healthz")), None)
}

/// Waits (bounded) until the server reports `running` searches and `waiting` requests.
fn await_load(base: &str, running: u64, waiting: u64) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let h = health(base).body;
        if h["searches"] == running && h["waiting"] == waiting {
            return;
        }
        assert!(Instant::now() < deadline, "load never reached: {h}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Polls `/healthz` until `done`, asserting every answer is a 200; the number of polls.
fn watch_health(base: String, done: Arc<AtomicBool>) -> std::thread::JoinHandle<usize> {
    std::thread::spawn(move || {
        let mut polls = 0;
        while !done.load(Ordering::SeqCst) {
            let h = health(&base);
            assert_eq!(h.status, 200, "healthz during the load: {}", h.body);
            polls += 1;
            std::thread::sleep(Duration::from_millis(25));
        }
        polls
    })
}

#[test]
fn game_ids_are_random_unique_and_a_wrong_one_reveals_nothing() {
    // All from one address: let it keep them all.
    let base = server(Config {
        max_games: 1000,
        games_per_client: 1000,
        ..Config::default()
    });
    let agent = ureq::agent();
    let mut ids = Vec::new();
    for _ in 0..1000 {
        let g = send(
            agent.post(&format!("{base}/api/games")),
            Some(json!({"ai":"none"})),
        );
        assert_eq!(g.status, 201, "{}", g.body);
        ids.push(g.body["id"].as_str().expect("a string id").to_string());
    }
    assert_eq!(
        ids.iter().collect::<HashSet<_>>().len(),
        1000,
        "no two alike"
    );
    let mut ones = 0;
    let mut previous: Option<u128> = None;
    for id in &ids {
        assert_eq!(id.len(), 22, "{id}");
        assert!(id.parse::<u128>().is_err(), "not a number: {id}");
        let bits: [u8; 16] = URL_SAFE_NO_PAD
            .decode(id)
            .expect("base64url")
            .try_into()
            .expect("128 bits");
        let value = u128::from_be_bytes(bits);
        if let Some(p) = previous {
            assert!(value.abs_diff(p) > 1, "sequential: {id}");
        }
        previous = Some(value);
        ones += value.count_ones();
    }
    // 128,000 random bits: about half ones (the bound is many standard deviations wide).
    assert!((60_000..68_000).contains(&ones), "{ones} ones of 128000");

    // Any id may be opened by its holder...
    let mine = send(agent.get(&format!("{base}/api/games/{}", ids[0])), None);
    assert_eq!(mine.status, 200);
    // ...and a wrong one, well-formed or not, is the same bare 404.
    let unknown = "AAAAAAAAAAAAAAAAAAAAAA";
    // `%00%ff` is not even text.
    for wrong in [unknown, "1", "2", "not-an-id", "%00%ff"] {
        for path in ["", "/moves", "/undo", "/hint", "/events", "/sgf"] {
            let url = format!("{base}/api/games/{wrong}{path}");
            let req = if path.is_empty() || path == "/events" || path == "/sgf" {
                send(agent.get(&url), None)
            } else {
                send(agent.post(&url), Some(json!({"move":"h8"})))
            };
            assert_eq!(req.status, 404, "{url}");
            assert_eq!(req.body, json!({"error":"no such game"}), "{url}");
        }
    }
    // Nothing lists the games: the route takes POST only, and says so in JSON.
    let list = send(agent.get(&format!("{base}/api/games")), None);
    assert_eq!(list.status, 405);
    assert!(list.body["error"].is_string(), "{}", list.body);
    let h = health(&base);
    assert_eq!(h.status, 200);
    assert!(!h.body.to_string().contains(&ids[0]));
}

#[test]
fn a_burst_waits_its_turn_and_every_request_is_answered() {
    let base = server(one_slot(Duration::from_secs(100), 100));
    let done = Arc::new(AtomicBool::new(false));
    let watcher = watch_health(base.clone(), done.clone());
    let burst: Vec<_> = (0..60)
        .map(|_| {
            let base = base.clone();
            std::thread::spawn(move || analyze(&base, 5, None))
        })
        .collect();
    for request in burst {
        let a = request.join().unwrap();
        assert_eq!(a.status, 200, "{}", a.body);
        assert!(a.body["best_move"].is_string(), "{}", a.body);
    }
    done.store(true, Ordering::SeqCst);
    assert!(
        watcher.join().unwrap() >= 1,
        "healthz was asked during the burst"
    );
    await_load(&base, 0, 0);
}

#[test]
fn with_a_short_wait_the_rest_get_503_with_retry_after() {
    let base = server(one_slot(Duration::from_millis(100), 100));
    let done = Arc::new(AtomicBool::new(false));
    let watcher = watch_health(base.clone(), done.clone());
    let burst: Vec<_> = (0..20)
        .map(|_| {
            let base = base.clone();
            std::thread::spawn(move || analyze(&base, 500, None))
        })
        .collect();
    let (mut answered, mut refused) = (0, 0);
    for request in burst {
        let a = request.join().unwrap();
        match a.status {
            200 => answered += 1,
            503 => {
                refused += 1;
                assert!(a.body["error"].is_string(), "{}", a.body);
                let secs: u64 = a.retry_after.expect("Retry-After").parse().unwrap();
                assert!(secs >= 1);
            }
            other => panic!("{other}: {}", a.body),
        }
    }
    assert!(
        answered >= 1 && refused >= 1,
        "{answered} answered, {refused} refused"
    );
    done.store(true, Ordering::SeqCst);
    watcher.join().unwrap();
    await_load(&base, 0, 0);
    assert_eq!(
        analyze(&base, 5, None).status,
        200,
        "served again afterwards"
    );
}

/// A client at its limit of games is told to come back when its oldest game may make way
/// (ten minutes after its last use), not when the searches end.
#[test]
fn a_client_with_all_its_games_is_told_when_one_may_make_way() {
    let base = server(Config {
        games_per_client: 2,
        ..Config::default()
    });
    let agent = ureq::agent();
    let new_game = || {
        send(
            agent.post(&format!("{base}/api/games")),
            Some(json!({"ai":"none"})),
        )
    };
    assert_eq!(new_game().status, 201);
    assert_eq!(new_game().status, 201);
    let refused = new_game();
    assert_eq!(refused.status, 429, "{}", refused.body);
    let wait: u64 = refused.retry_after.expect("Retry-After").parse().unwrap();
    assert!((590..=600).contains(&wait), "{wait}");
    let error = refused.body["error"].as_str().unwrap();
    assert!(error.contains(&format!("in {wait} s")), "{error}");
}

#[test]
fn one_client_over_its_limit_gets_429_and_the_others_still_get_in() {
    let config = Config {
        trust_forwarded_for: true,
        ..one_slot(Duration::from_secs(100), 2)
    };
    let base = server(config);
    // Another client holds the slot, so the greedy one's requests must wait.
    let holder = {
        let base = base.clone();
        std::thread::spawn(move || analyze(&base, 3000, Some("198.51.100.1")))
    };
    await_load(&base, 1, 0);
    let greedy: Vec<_> = (0..5)
        .map(|_| {
            let base = base.clone();
            std::thread::spawn(move || analyze(&base, 5, Some("203.0.113.7")))
        })
        .collect();
    let (mut answered, mut limited) = (0, 0);
    for request in greedy {
        let a = request.join().unwrap();
        match a.status {
            200 => answered += 1,
            429 => {
                limited += 1;
                assert!(a.retry_after.is_some(), "Retry-After on a 429");
                assert!(a.body["error"].as_str().unwrap().contains("too many"));
            }
            other => panic!("{other}: {}", a.body),
        }
    }
    assert!(
        limited >= 1 && answered >= 1,
        "{answered} answered, {limited} limited"
    );
    assert_eq!(holder.join().unwrap().status, 200);
    assert_eq!(
        analyze(&base, 5, Some("192.0.2.44")).status,
        200,
        "another client"
    );
    assert_eq!(health(&base).status, 200);
}

#[test]
fn the_page_hears_its_place_in_the_queue() {
    let base = server(one_slot(Duration::from_secs(100), 8));
    let g = send(
        ureq::post(&format!("{base}/api/games")),
        Some(json!({"ai":"white","time_ms":5})),
    );
    assert_eq!(g.status, 201);
    let id = g.body["id"].as_str().unwrap().to_string();
    let events = ureq::get(&format!("{base}/api/games/{id}/events"))
        .timeout(Duration::from_secs(60))
        .call()
        .unwrap();
    let mut reader = std::io::BufReader::new(events.into_reader());
    let holder = {
        let base = base.clone();
        std::thread::spawn(move || analyze(&base, 3000, None))
    };
    await_load(&base, 1, 0);
    let mover = {
        let base = base.clone();
        std::thread::spawn(move || {
            send(
                ureq::post(&format!("{base}/api/games/{id}/moves")),
                Some(json!({"move":"h8"})),
            )
        })
    };
    let mut line = String::new();
    let mut place = None;
    for _ in 0..200 {
        line.clear();
        if reader.read_line(&mut line).unwrap() == 0 {
            break;
        }
        if line.starts_with("event: queue") {
            line.clear();
            reader.read_line(&mut line).unwrap();
            let data: Value =
                serde_json::from_str(line.trim_start_matches("data:").trim()).expect("queue data");
            place = data["position"].as_u64();
            break;
        }
    }
    assert_eq!(place, Some(1), "the page is told it is next in line");
    assert_eq!(mover.join().unwrap().status, 200);
    assert_eq!(holder.join().unwrap().status, 200);
}

/// Connections past `max_connections` are closed as they come, so that clients holding
/// connections open (event streams stay open as long as their page) cannot use up the
/// server's file descriptors; once some close, the server answers again.
#[test]
fn connections_past_the_limit_are_closed_and_the_server_recovers() {
    let (base, held) = two_held_and_the_third_closed(Config {
        max_connections: 2,
        ..Config::default()
    });
    drop(held);
    await_answer(&base);
}

/// Served directly, one client address holds at most `connections_per_client` connections at
/// once: its next is closed as it comes, another address is still served, and the first is
/// served again once it closes some.
#[test]
fn one_client_cannot_hold_every_connection() {
    let (base, held) = two_held_and_the_third_closed(Config {
        connections_per_client: 2,
        ..Config::default()
    });
    let addr = base.trim_start_matches("http://");
    // 127.0.0.2 is loopback too: another client, with places of its own.
    let reply = healthz_over(connect_from("127.0.0.2", addr), addr);
    assert!(reply.starts_with("HTTP/1.1 200"), "another client: {reply}");
    drop(held);
    await_answer(&base);
}

/// Behind a proxy every connection comes from the proxy, which caps its clients itself: with
/// `trust_forwarded_for` the per-client cap is not applied to the proxy's address.
#[test]
fn behind_a_proxy_connections_are_not_capped_per_address() {
    let base = server(Config {
        connections_per_client: 1,
        trust_forwarded_for: true,
        ..Config::default()
    });
    let addr = base.trim_start_matches("http://").to_string();
    let _held = std::net::TcpStream::connect(&addr).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let reply = healthz_over(std::net::TcpStream::connect(&addr).unwrap(), &addr);
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
}

/// A server with `config`, which allows two connections: two held open, and a third
/// checked to be closed at once. Gives the server's URL and the two.
fn two_held_and_the_third_closed(config: Config) -> (String, Vec<std::net::TcpStream>) {
    let base = server(config);
    let addr = base.trim_start_matches("http://").to_string();
    let held: Vec<std::net::TcpStream> = (0..2)
        .map(|_| std::net::TcpStream::connect(&addr).unwrap())
        .collect();
    // Until the server has taken both (an accepted connection is counted at once).
    std::thread::sleep(Duration::from_millis(300));
    assert_closed_at_once(std::net::TcpStream::connect(&addr).unwrap(), &addr);
    (base, held)
}

/// A connection from the loopback address `source`.
fn connect_from(source: &str, addr: &str) -> std::net::TcpStream {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let stream = runtime.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind(format!("{source}:0").parse().unwrap()).unwrap();
        let stream = socket.connect(addr.parse().unwrap()).await.unwrap();
        stream.into_std().unwrap()
    });
    stream.set_nonblocking(false).unwrap();
    stream
}

/// The reply to `GET /healthz` on `stream`, which the server closes after it.
fn healthz_over(mut stream: std::net::TcpStream, addr: &str) -> String {
    use std::io::{Read, Write};
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).unwrap();
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    String::from_utf8_lossy(&reply).into_owned()
}

/// `stream` is closed by the server at once: well before the 10 s a connection has to send
/// its headers.
fn assert_closed_at_once(mut turned_away: std::net::TcpStream, addr: &str) {
    use std::io::{Read, Write};
    turned_away
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let _ =
        turned_away.write_all(format!("GET /healthz HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes());
    let mut reply = Vec::new();
    let read = turned_away.read_to_end(&mut reply);
    // An end (0 bytes) or a reset, not the read timing out.
    let closed = match &read {
        Ok(_) => reply.is_empty(),
        Err(e) => e.kind() == std::io::ErrorKind::ConnectionReset,
    };
    assert!(
        closed,
        "a connection past the limit was served or held: {read:?} {}",
        String::from_utf8_lossy(&reply)
    );
}

/// Waits (at most 20 s) until the server answers `/healthz` again.
fn await_answer(base: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    let answers = || {
        ureq::get(&format!("{base}/healthz"))
            .timeout(Duration::from_secs(5))
            .call()
            .is_ok()
    };
    while !answers() {
        assert!(Instant::now() < deadline, "the server never answered again");
        std::thread::sleep(Duration::from_millis(50));
    }
}
