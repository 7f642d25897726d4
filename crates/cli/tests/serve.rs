//! `wuzi serve` as a service manager runs it: a SIGTERM during a search lets that request
//! finish with its answer, ends the pages' event streams, then the process exits 0; the request log on stderr holds the route,
//! status, depth and nodes, but no game id.

mod common;

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// (status, body); errors are answers too.
fn call(method: &str, url: &str, body: Option<Value>) -> (u16, Value) {
    let req = ureq::request(method, url).timeout(Duration::from_secs(60));
    let result = match body {
        Some(b) => req.send_json(b),
        None => req.call(),
    };
    let resp = match result {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {url}: {e}"),
    };
    let status = resp.status();
    let text = resp.into_string().unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// Kills the server if the test fails before it exits by itself.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `command` (a `wuzi serve` on port 0) and reads the address it announces; the
/// server's stdout is kept open beside it.
fn serving(mut command: Command) -> (Server, BufReader<ChildStdout>, String) {
    let child = command
        .stdout(Stdio::piped())
        .spawn()
        .expect("wuzi serve starts");
    let mut server = Server(child);
    let mut stdout = BufReader::new(server.0.stdout.take().unwrap());
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    let base = line
        .trim()
        .strip_prefix("wuzi serves on ")
        .unwrap_or_else(|| panic!("the address: {line:?}"))
        .trim_end_matches('/')
        .to_string();
    (server, stdout, base)
}

#[cfg(unix)]
#[test]
fn sigterm_lets_the_search_in_flight_finish_then_exits_0() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wuzi"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--max-searches", "1"])
        .args(["--max-time-ms", "5000", "--log", "info"])
        .stderr(Stdio::piped());
    let (mut server, _stdout, base) = serving(command);
    let mut stderr = server.0.stderr.take().unwrap();
    let log = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });

    // A game whose AI opens: a search, and an id that must not reach the log.
    let (s, game) = call(
        "POST",
        &format!("{base}/api/games"),
        Some(json!({"ai":"black","time_ms":50})),
    );
    assert_eq!(s, 201, "{game}");
    let id = game["id"].as_str().unwrap().to_string();

    // A page's open event stream must not hold the shutdown up.
    let events = ureq::get(&format!("{base}/api/games/{id}/events"))
        .timeout(Duration::from_secs(60))
        .call()
        .unwrap();
    let stream = std::thread::spawn(move || {
        let mut rest = Vec::new();
        events.into_reader().read_to_end(&mut rest).is_ok()
    });

    let search = {
        let url = format!("{base}/api/analyze");
        std::thread::spawn(move || {
            call(
                "POST",
                &url,
                Some(json!({"moves":["h8","i9","g7"],"time_ms":1500})),
            )
        })
    };
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let (s, health) = call("GET", &format!("{base}/healthz"), None);
        assert_eq!(s, 200);
        if health["searches"] == 1 {
            break;
        }
        assert!(Instant::now() < deadline, "the search never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = server.0.id() as libc::pid_t;
    // SAFETY: kill(2) with our own child's pid and a valid signal has no memory effects.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);

    // New clients are refused at once, while the search in flight still runs (its 1.5 s),
    // not left waiting unanswered until the process exits.
    let addr = base.trim_start_matches("http://").to_string();
    let refused_at = Instant::now();
    while std::net::TcpStream::connect(&addr).is_ok() {
        assert!(
            refused_at.elapsed() < Duration::from_secs(30),
            "still accepting connections 30 s after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        !search.is_finished(),
        "connections were refused only once the search in flight had ended"
    );

    let (s, analysis) = search.join().unwrap();
    assert_eq!(s, 200, "the search in flight is answered: {analysis}");
    assert!(analysis["best_move"].is_string(), "{analysis}");

    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "still running after SIGTERM");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(0), "a clean exit");
    assert!(stream.join().unwrap(), "the event stream ended cleanly");

    let log = log.join().unwrap();
    assert!(log.contains("SIGTERM"), "{log}");
    assert!(log.contains("every request answered"), "{log}");
    assert!(log.contains("path=/api/analyze"), "{log}");
    assert!(log.contains("path=/api/games status=201"), "{log}");
    assert!(log.contains("status=200"), "{log}");
    assert!(log.contains("depth=") && log.contains("nodes="), "{log}");
    assert!(!log.contains(&id), "no game id in the log: {log}");
    assert!(!log.contains("h8"), "no moves in the log: {log}");
}

/// A second signal while the stop waits for a search ends the process at once (130): an
/// operator's second Ctrl-C did nothing. Here the search's client has gone, so the server's
/// runtime is already stopping and waits only for the search's thread.
#[cfg(unix)]
#[test]
fn a_second_signal_stops_at_once() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_wuzi"));
    command
        .args(["serve", "--addr", "127.0.0.1:0", "--max-searches", "1"])
        .args(["--max-time-ms", "60000", "--log", "info"])
        .stderr(Stdio::piped());
    let (mut server, _stdout, base) = serving(command);
    let stderr = server.0.stderr.take().unwrap();
    let (said, heard) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = said.send(line);
        }
    });
    let await_line = |needle: &str| {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match heard.recv_timeout(left) {
                Ok(line) if line.contains(needle) => return,
                Ok(_) => {}
                Err(e) => panic!("no log line with {needle:?}: {e}"),
            }
        }
    };
    // A minute's search whose client gives up after a second.
    let gone = ureq::post(&format!("{base}/api/analyze"))
        .timeout(Duration::from_secs(1))
        .send_json(json!({"moves":["h8","i9","g7"],"time_ms":60000}));
    assert!(gone.is_err());
    let (_, health) = call("GET", &format!("{base}/healthz"), None);
    assert_eq!(health["searches"], 1, "the search runs on: {health}");
    let signal = |sig: libc::c_int| {
        // SAFETY: kill(2) with our own child's pid and a valid signal has no memory effects.
        assert_eq!(unsafe { libc::kill(server.0.id() as libc::pid_t, sig) }, 0);
    };
    signal(libc::SIGINT);
    await_line("SIGINT: shutting down");
    std::thread::sleep(Duration::from_millis(300));
    signal(libc::SIGINT);
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = server.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "still running: the search has a minute"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
}

#[test]
fn serve_refuses_a_zero_per_client_limit() {
    common::fails_with(&["serve", "--per-client", "0"], "per-client");
}

/// An operator's settings that cannot work are refused at start: a think time so long that a
/// stop would wait on it for ever, an address that is not HOST:PORT, a RUST_LOG that is not
/// a filter (it fell back to info without a word); a host name is resolved.
#[test]
fn serve_checks_its_settings_and_takes_a_host_name() {
    common::fails_with(
        &["serve", "--max-time-ms", "18446744073709551615"],
        "max-time-ms",
    );
    common::fails_with(&["serve", "--addr", ":8080"], "not HOST:PORT");
    common::fails_with(&["serve", "--max-connections", "0"], "max-connections");
    // A typo'd level was read as a target's name, and the log went quiet.
    for bad in ["wuzi_web=verbose", "infor"] {
        let out = Command::new(env!("CARGO_BIN_EXE_wuzi"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .env("RUST_LOG", bad)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(&format!("RUST_LOG={bad}")), "{stderr}");
    }
    common::fails_with(&["serve", "--log", "verbose"], "not a log level");
    let mut command = Command::new(env!("CARGO_BIN_EXE_wuzi"));
    command
        .args(["serve", "--addr", "localhost:0", "--log", "warn"])
        .stderr(Stdio::null());
    let (_server, _stdout, base) = serving(command);
    let (status, _) = call("GET", &format!("{base}/healthz"), None);
    assert_eq!(status, 200);
}

/// Out of file descriptors, the server waits and goes on accepting once connections close:
/// run with a limit of 64 open files and 100 idle connections held open, it answers again
/// when they are gone.
#[cfg(unix)]
#[test]
fn running_out_of_file_descriptors_is_survived() {
    let mut command = Command::new("sh");
    command
        .arg("-c")
        .arg(r#"ulimit -n 64 && exec "$0" serve --addr 127.0.0.1:0 --log warn"#)
        .arg(env!("CARGO_BIN_EXE_wuzi"))
        .stderr(Stdio::null());
    let (mut server, _stdout, base) = serving(command);
    let addr = base.trim_start_matches("http://").to_string();
    // The kernel completes each handshake; the server runs out of descriptors taking them.
    let held: Vec<std::net::TcpStream> = (0..100)
        .filter_map(|_| std::net::TcpStream::connect(&addr).ok())
        .collect();
    assert!(held.len() > 64, "only {} connections opened", held.len());
    std::thread::sleep(Duration::from_millis(300));
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let answer = ureq::get(&format!("{base}/healthz"))
            .timeout(Duration::from_secs(5))
            .call();
        if matches!(&answer, Ok(r) if r.status() == 200) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no answer after the connections closed"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(server.0.try_wait().unwrap().is_none(), "still running");
}
