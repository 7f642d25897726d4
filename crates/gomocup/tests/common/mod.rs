//! A `pbrain-wuzi` process driven line by line, as a match manager drives it.

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Brain {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Brain {
    pub fn spawn() -> Brain {
        // Started from another directory: the engine must not depend on its working directory.
        let mut child = Command::new(env!("CARGO_BIN_EXE_pbrain-wuzi"))
            .current_dir(std::env::temp_dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("pbrain-wuzi starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Brain {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("the engine reads");
        self.stdin.flush().unwrap();
    }

    /// The next line that is not a `MESSAGE`/`DEBUG`, within `limit`.
    pub fn reply_within(&mut self, limit: Duration) -> Option<String> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with("MESSAGE") || line.starts_with("DEBUG") => continue,
                Ok(line) => return Some(line),
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    pub fn reply(&mut self) -> String {
        self.reply_within(Duration::from_secs(20))
            .expect("a reply within 20 s")
    }

    /// Every line (messages included) until a non-message line.
    pub fn lines_until_reply(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(20)) {
            let done = !line.starts_with("MESSAGE");
            out.push(line);
            if done {
                break;
            }
        }
        out
    }

    /// Sends a command and returns its one reply line.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.reply()
    }

    /// Nothing more arrives within `wait` (a command that must not reply).
    pub fn silent_for(&mut self, wait: Duration) -> bool {
        self.reply_within(wait).is_none()
    }

    /// Sends END and waits for the process to exit.
    pub fn end(mut self) -> std::process::ExitStatus {
        self.send("END");
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(Instant::now() < deadline, "END did not end the engine");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads `X,Y` into numbers.
pub fn xy(reply: &str) -> (usize, usize) {
    let (x, y) = reply
        .split_once(',')
        .unwrap_or_else(|| panic!("{reply} is not X,Y"));
    (x.trim().parse().unwrap(), y.trim().parse().unwrap())
}
