//! `wuzi match` and `wuzi spsa`: short matches of wuzi in-process and of an external Gomocup
//! engine, their records and logs, Ctrl-C, SPSA's iterations, and bad counts and settings.

mod common;

use common::{external_engine, fails_with, json, scratch_dir, wuzi};
use serde_json::Value;

#[test]
fn a_weights_file_plays_in_a_match_of_its_rule_only() {
    let weights = |rule: &str| {
        format!(
            "{}/../gomoku/src/eval/weights/{rule}.txt",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    let a = format!("depth=2,weights={}", weights("freestyle"));
    let v = json(&[
        "match", "--games", "2", "--a", &a, "--b", "depth=2", "--json", "--quiet",
    ]);
    assert_eq!(v["played"], 2);
    // The embedded tables, read from their file: the same games as without it.
    assert_eq!(v["wins"], v["losses"], "{v}");
    let renju = format!("depth=2,weights={}", weights("renju"));
    fails_with(
        &["match", "--games", "2", "--a", &renju],
        "the weights are for renju, the game is freestyle",
    );
    fails_with(
        &["match", "--a", "weights=/no/such/file.txt"],
        "weights: cannot read",
    );
}

#[test]
fn a_match_with_more_threads_than_cores_warns() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores >= 64 {
        return; // wuzi runs at most 64 threads: nothing to oversubscribe.
    }
    let crowded = format!("depth=1,threads={}", cores + 1);
    let stderr = |a: &str| {
        let out = wuzi(&[
            "match", "--games", "2", "--a", a, "--b", "depth=1", "--quiet", "--size", "9",
        ]);
        assert!(out.status.success());
        String::from_utf8(out.stderr).unwrap()
    };
    let warned = stderr(&crowded);
    assert!(
        warned.contains(&format!(
            "up to {} search threads at once on {cores} cores",
            cores + 1
        )),
        "{warned}"
    );
    assert!(!stderr("depth=1").contains("warning"));
}

#[test]
fn a_short_match_runs_to_its_end() {
    let v = json(&[
        "match", "--games", "2", "--a", "depth=2", "--b", "depth=1", "--json", "--quiet", "--size",
        "9",
    ]);
    assert_eq!(v["played"], 2);
    assert_eq!(v["games"].as_array().unwrap().len(), 2);
    let total =
        v["wins"].as_u64().unwrap() + v["losses"].as_u64().unwrap() + v["draws"].as_u64().unwrap();
    assert_eq!(total, 2);
    let text = wuzi(&[
        "match", "--games", "2", "--a", "depth=2", "--b", "depth=1", "--quiet", "--size", "9",
    ]);
    let text = String::from_utf8(text.stdout).unwrap();
    let split = text.lines().nth(1).unwrap_or_default();
    let counts: Vec<u32> = split
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect();
    assert!(split.starts_with("A as Black +"), "{text}");
    assert_eq!(counts.len(), 6, "{split}");
    assert_eq!(counts[..3].iter().sum::<u32>(), 1, "{split}");
    assert_eq!(counts[3..].iter().sum::<u32>(), 1, "{split}");
    fails_with(&["match", "--a", "speed=3"], "unknown setting");
    // A program that cannot run is one error before the match, not a forfeit a game.
    let missing = "cmd=/nonexistent/pbrain-engine";
    fails_with(
        &["match", "--a", missing, "--b", "nodes=100", "--games", "2"],
        "/nonexistent/pbrain-engine cannot play: could not be started (/nonexistent/pbrain-engine:",
    );
    fails_with(
        &["tournament", "--engine", "nodes=100", "--engine", missing],
        "cannot play",
    );
    fails_with(
        &["match", "--sprt", "elo0=5,elo1=0"],
        "elo0 must be below elo1",
    );
    let sprt = json(&[
        "match",
        "--games",
        "4",
        "--a",
        "depth=1",
        "--b",
        "depth=1",
        "--sprt",
        "elo0=0,elo1=20",
        "--json",
        "--quiet",
        "--size",
        "9",
    ]);
    assert_eq!(sprt["played"], 4);
    assert!(sprt["llr"].is_number() && sprt["llr_bounds"].is_array());
    assert_eq!(sprt["sprt"], "continue", "no decision before ten pairs");
}

/// A run stopped partway and resumed from its log plays the games and ends with the knobs
/// (and their mean over iterations on both sides of the stop) of a run never stopped, from
/// an opening file or generated openings; a cut last line is dropped, a missing newline
/// added, a log of other settings refused, and a log is not overwritten without --resume.
#[test]
fn spsa_resumes_from_its_log_as_if_never_stopped() {
    let dir = scratch_dir("spsa-resume");
    let file = format!(
        "{}/../../docs/openings/freestyle-15-balanced.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    // Seeds whose runs move the knobs both before iteration 6 and in it.
    for (case, openings, seed) in [("file", Some(file.as_str()), "1"), ("generated", None, "3")] {
        let [whole, parts] = [
            dir.join(format!("{case}-whole.jsonl")),
            dir.join(format!("{case}-parts.jsonl")),
        ];
        let run_seeded = |seed: &str, log: &std::path::Path, iterations: &str, extra: &[&str]| {
            let mut args = vec![
                "spsa",
                "--seed",
                seed,
                "--base",
                "nodes=400",
                "--knob",
                "rfp-margin=40:8:10:150",
                "--knob",
                "width=12:2:6:20",
                "--iterations",
                iterations,
                "--games",
                "2",
                "--decay",
                "0.101",
                "--rate",
                "0.2",
                "--average-last",
                "3",
                "--quiet",
                "--log",
                log.to_str().unwrap(),
            ];
            if let Some(path) = openings {
                args.extend(["--openings", path]);
            }
            args.extend_from_slice(extra);
            wuzi(&args)
        };
        let run = |log: &std::path::Path, iterations: &str, extra: &[&str]| {
            run_seeded(seed, log, iterations, extra)
        };
        let straight = run(&whole, "6", &[]);
        let stderr = |out: &std::process::Output| String::from_utf8_lossy(&out.stderr).to_string();
        assert!(straight.status.success(), "{case}: {}", stderr(&straight));
        assert!(run(&parts, "5", &[]).status.success(), "{case}");
        // The run was stopped while writing its sixth line.
        let mut cut = std::fs::OpenOptions::new()
            .append(true)
            .open(&parts)
            .unwrap();
        std::io::Write::write_all(&mut cut, b"{\"iteration\":6,\"wins_minus").unwrap();
        drop(cut);
        let resumed = run(&parts, "6", &["--resume"]);
        assert!(resumed.status.success(), "{case}: {}", stderr(&resumed));
        assert!(
            stderr(&resumed).contains("last line was cut short"),
            "{case}"
        );
        assert_eq!(
            String::from_utf8_lossy(&resumed.stdout),
            String::from_utf8_lossy(&straight.stdout),
            "{case}"
        );
        let log = std::fs::read_to_string(&whole).unwrap();
        assert_eq!(std::fs::read_to_string(&parts).unwrap(), log, "{case}");
        // The knobs moved both before the stop and after it (else the test would prove little).
        let moved: Vec<bool> = log
            .lines()
            .skip(1)
            .map(|l| serde_json::from_str::<Value>(l).unwrap()["wins_minus_losses"] != 0)
            .collect();
        assert!(moved[..5].contains(&true) && moved[5], "{case}: {log}");
        // A whole last line without its newline gets it back before anything is appended.
        std::fs::write(&parts, log.trim_end()).unwrap();
        assert!(run(&parts, "6", &["--resume"]).status.success(), "{case}");
        assert_eq!(std::fs::read_to_string(&parts).unwrap(), log, "{case}");
        let other = run_seeded("2", &parts, "8", &["--resume"]);
        assert!(
            stderr(&other).contains("other settings"),
            "{case}: {}",
            stderr(&other)
        );
        let shorter = run(&parts, "4", &["--resume"]);
        assert!(
            stderr(&shorter).contains("more than --iterations 4"),
            "{case}"
        );
        let afresh = run(&parts, "6", &[]);
        assert!(stderr(&afresh).contains("already holds a run"), "{case}");
        assert_eq!(
            std::fs::read_to_string(&parts).unwrap(),
            log,
            "{case}: kept"
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn spsa_plays_its_iterations_logs_them_and_refuses_bad_knobs() {
    let dir = scratch_dir("spsa");
    let log = dir.join("spsa.jsonl");
    let output = wuzi(&[
        "spsa",
        "--base",
        "depth=1",
        "--knob",
        "rfp-margin=40:8:10:150",
        "--knob",
        "width=12:2:6:20",
        "--knob",
        "waiter:open-three=1.000:0.080:0.500:1.500",
        "--iterations",
        "3",
        "--games",
        "2",
        "--size",
        "9",
        "--decay",
        "0.101",
        "--average-last",
        "2",
        "--quiet",
        "--log",
        log.to_str().unwrap(),
    ]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let out = String::from_utf8_lossy(&output.stdout);
    assert!(out.contains("tuned after 3 iterations (6 games"), "{out}");
    assert!(
        out.contains("started from: rfp-margin=40,width=12,waiter:open-three=1.000"),
        "{out}"
    );
    let mut lines: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let header = lines.remove(0);
    assert_eq!(header["spsa"]["base"], "depth=1", "{header}");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["iteration"], 3);
    assert_eq!(lines[2]["theta"].as_array().unwrap().len(), 3);
    // The mean of the last two iterations' knobs, as the log wrote them.
    let mean = |i: usize| {
        (lines[1]["theta"][i].as_f64().unwrap() + lines[2]["theta"][i].as_f64().unwrap()) / 2.0
    };
    assert!(
        out.contains(&format!(
            "mean of the last 2 iterations: rfp-margin={:.0},width={:.0},waiter:open-three={:.3}",
            mean(0),
            mean(1),
            mean(2)
        )),
        "{out}"
    );
    fails_with(
        &["spsa", "--knob", "speed=1:1:0:2"],
        "not a search parameter",
    );
    fails_with(
        &["spsa", "--knob", "nodes=2000:500:1000:4000"],
        "belongs in --base",
    );
    // Both ends of a knob are checked before the first game, not when a run reaches them.
    fails_with(
        &["spsa", "--knob", "lmr-div=25:15:0:600"],
        "--knob lmr-div: its MIN is not playable",
    );
    fails_with(
        &["spsa", "--knob", "lmr-div=200:30:60:20000"],
        "--knob lmr-div: its MAX is not playable",
    );
    let twice = [
        "--knob",
        "lmr-div=200:30:60:600",
        "--knob",
        "lmr-div=300:30:60:600",
    ];
    fails_with(
        &[&["spsa"][..], &twice].concat(),
        "--knob lmr-div is given twice",
    );
    fails_with(
        &[
            "spsa",
            "--base",
            "nodes=500,width=12",
            "--knob",
            "width=12:2:6:20",
        ],
        "--knob width is also set by --base",
    );
    fails_with(
        &["spsa", "--knob", "width=12:2:6:20", "--games", "0"],
        "--games",
    );
    fails_with(
        &["spsa", "--knob", "mover:five=1:0.1:0.5:1.5"],
        "the shape is one of",
    );
    fails_with(
        &["spsa", "--knob", "lmr-div=1:1:0"],
        "NAME=START:STEP:MIN:MAX",
    );
    fails_with(
        &["spsa", "--knob", "lmr-div=200:30:60:600", "--rate", "0"],
        "--rate",
    );
    fails_with(
        &["spsa", "--knob", "lmr-div=200:30:60:600", "--decay", "2"],
        "--decay",
    );
    fails_with(
        &[
            "spsa",
            "--knob",
            "lmr-div=200:30:60:600",
            "--average-last",
            "5000",
        ],
        "--average-last",
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An external engine (`wuzi gomocup`, the protocol loop pbrain-wuzi runs) against wuzi
/// in-process, from a Gomocup offset opening file, with the SGF, the log and the JSON.
#[test]
fn a_match_against_an_external_engine_writes_its_records() {
    let dir = scratch_dir("match");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "0,0, 1,1\n0,0, -1,1, 1,0\n").unwrap();
    let (sgf, log) = (dir.join("games.sgf"), dir.join("engines.log"));
    let external = external_engine();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let v = json(&[
        "match",
        "--a",
        &external,
        "--b",
        "depth=1",
        "--games",
        "4",
        "--openings",
        &path(&openings),
        "--sgf",
        &path(&sgf),
        "--log",
        &path(&log),
        "--json",
        "--quiet",
        "--concurrency",
        "2",
    ]);
    assert_eq!(v["played"], 4);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games.len(), 4);
    assert_eq!(games[0]["black"], "external");
    assert_eq!(games[1]["white"], "external");
    let third = games[2]["moves"].as_array().unwrap();
    assert_eq!(
        third[..3],
        serde_json::json!(["7,7", "6,8", "8,7"]).as_array().unwrap()[..]
    );
    let wins = games.iter().filter(|g| g["winner"] == "A").count() as u64;
    assert_eq!(v["wins"].as_u64().unwrap(), wins);
    // A's games by colour: two as Black, two as White, each counted where it belongs.
    for (key, a_black) in [("a_as_black", true), ("a_as_white", false)] {
        let mine: Vec<_> = games
            .iter()
            .filter(|g| (g["black"] == "external") == a_black)
            .collect();
        let count = |k: &str| v[key][k].as_u64().unwrap();
        assert_eq!(count("wins") + count("losses") + count("draws"), 2, "{key}");
        let won = mine.iter().filter(|g| g["winner"] == "A").count() as u64;
        assert_eq!(count("wins"), won, "{key}");
    }
    // Two openings for six games: a note says they are played again.
    let reused = depth_one_match("6", &["--openings", &path(&openings), "--quiet"]);
    let stderr = String::from_utf8_lossy(&reused.stderr);
    assert!(
        stderr.contains("note: 2 openings for 3 pairs of games"),
        "{stderr}"
    );
    let text = std::fs::read_to_string(&sgf).unwrap();
    assert_eq!(text.matches("(;FF[4]GM[4]").count(), 4);
    // In the games' order, however they finished: `--game N` is game N.
    let numbers: Vec<&str> = text.split("GN[").skip(1).map(|t| &t[..1]).collect();
    assert_eq!(numbers, ["1", "2", "3", "4"], "{text}");
    assert!(text.contains("PB[external]PW[wuzi depth=1]"), "{text}");
    assert!(
        text.contains(";B[hh]C[opening move];W[ii]C[opening move]"),
        "{text}"
    );
    let log = std::fs::read_to_string(&log).unwrap();
    assert!(log.contains("game 1 A (external): MESSAGE depth"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ctrl-C (SIGINT to `wuzi match` alone) ends the engines it started, still reports, and exits
/// 130. The engine is the manager tests' script that goes silent on its second move.
#[test]
fn ctrl_c_ends_the_match_and_its_engines() {
    stop_a_match_by("INT", 130);
}

/// So does SIGTERM (`kill`, a service manager), exiting 143; it once killed the manager
/// alone, leaving its engines running, the report unprinted and the log unwritten.
#[test]
fn sigterm_ends_the_match_and_its_engines() {
    stop_a_match_by("TERM", 143);
}

/// `kill -9` gives the manager no chance to end its engines: Linux does, since the engine's
/// silence would otherwise last for ever (it never reads its closed input).
#[cfg(target_os = "linux")]
#[test]
fn kill_9_of_the_match_ends_its_engines() {
    stop_a_match_by("KILL", -1);
}

/// Sends `signal` to a match whose engine has gone silent; `status` is the exit status it
/// must report, or -1 for none (killed before it could report).
fn stop_a_match_by(signal: &str, status: i32) {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../gomocup/tests/data/bad_engine.py");
    let dir = scratch_dir(&format!("sig{signal}"));
    let engine = format!(
        "cmd=python3 '{}' silent '{}',time=60000",
        script.display(),
        dir.display()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_wuzi"))
        .args([
            "match", "--a", &engine, "--b", "depth=1", "--games", "2", "--quiet",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // Wait until the engine runs and has had time to fall silent.
    while std::fs::read_dir(&dir).unwrap().count() == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "no engine started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(500));
    let sent = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    while child.try_wait().unwrap().is_none() {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "wuzi match did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().unwrap();
    #[cfg(unix)]
    if status < 0 {
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(
            output.status.signal(),
            Some(9),
            "the manager died of SIGKILL"
        );
    }
    if status >= 0 {
        // Reported, and the status says it was stopped, as a shell's 128 + the signal.
        assert_eq!(output.status.code(), Some(status));
        let text = String::from_utf8(output.stdout).unwrap();
        assert!(text.contains("0 games (interrupted)"), "{text}");
    }
    for entry in std::fs::read_dir(&dir).unwrap() {
        let pid = entry.unwrap().file_name().to_string_lossy().into_owned();
        // An orphan's signal comes asynchronously, and whoever adopts it may not reap it: a
        // zombie has stopped running.
        let running = || {
            std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
                !stat
                    .rsplit(')')
                    .next()
                    .unwrap_or("")
                    .trim_start()
                    .starts_with('Z')
            })
        };
        let waited = Instant::now();
        while running() && waited.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!running(), "engine {pid} is still running");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Counts that must be positive are refused by the argument parser (status 2), before any
/// game starts: `--games 0` used to play a pair of games, `--draw-after 0` drew every game.
/// `wuzi match` of two depth-1 searches, `games` games, with `extra` arguments.
fn depth_one_match(games: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "match", "--a", "depth=1", "--b", "depth=1", "--games", games,
    ];
    args.extend_from_slice(extra);
    wuzi(&args)
}

/// Records that could not be written (a full disk) end the run with status 1 after its
/// report, so that a script does not take the file for complete; one file for both the
/// records and the log is refused before any game. Found by a packager's review.
#[cfg(target_os = "linux")]
#[test]
fn records_that_cannot_be_written_are_no_success() {
    let full = depth_one_match("2", &["--quiet", "--sgf", "/dev/full"]);
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("some games could not be written"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&full.stdout).contains("2 games"));
    let dir = scratch_dir("same-file");
    let file = dir.join("run.txt");
    let file = file.to_str().unwrap();
    let same = depth_one_match("2", &["--sgf", file, "--log", file]);
    let stderr = String::from_utf8_lossy(&same.stderr);
    assert_eq!(same.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("--sgf and --log name the same file"),
        "{stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_counts_of_zero_are_refused() {
    for args in [
        &["match", "--games", "0"][..],
        &["match", "--concurrency", "0"],
        &["match", "--draw-after", "0"],
        &["tournament", "--draw-after", "0"],
        &[
            "spsa",
            "--knob",
            "lmr-div=150:20",
            "--iterations",
            "1",
            "--concurrency",
            "0",
        ],
        // Counts that did nothing at 0, found by a hostile-input review.
        &["spsa", "--knob", "lmr-div=150:20", "--iterations", "0"],
        &["tune", "--data", "x.txt", "--epochs", "0"],
        &["tune", "--data", "x.txt", "--swing", "0"],
        &["tune", "--data", "x.txt", "--swing", "1", "--swing-ms", "0"],
    ] {
        let out = wuzi(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains("'0'") && stderr.contains("must be 1 or more"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// A draw called at no more stones than every opening has would come before any engine
/// moved: refused before the engines start (it used to draw every game).
#[test]
fn a_draw_before_the_first_move_is_refused() {
    for command in ["match", "tournament"] {
        let mut args = vec![command, "--draw-after", "4", "--games", "2"];
        if command == "tournament" {
            args.extend(["--engine", "depth=1", "--engine", "depth=2"]);
        }
        fails_with(
            &args,
            "--draw-after 4 calls every game a draw before any engine moves: every opening puts 4",
        );
    }
}
