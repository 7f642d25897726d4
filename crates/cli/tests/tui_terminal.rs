//! `wuzi play` full-screen in a real pseudo-terminal (made by util-linux's `script`): the
//! mouse and keys reach the game, and the terminal is restored (the alternate screen left, the cursor
//! shown) whether the player quits with `q` or Ctrl-C, or SIGTERM ends it; `TERM=dumb` gets
//! the line mode.

use std::io::{Read, Write};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const LEAVE_ALTERNATE_SCREEN: &str = "\x1b[?1049l";
const ENTER_ALTERNATE_SCREEN: &str = "\x1b[?1049h";
const SHOW_CURSOR: &str = "\x1b[?25h";

struct Pty {
    child: Child,
    output: Arc<Mutex<Vec<u8>>>,
}

impl Pty {
    /// `wuzi args` on a 100x30 pseudo-terminal, or `None` without util-linux's `script`.
    fn start(args: &str) -> Option<Pty> {
        Pty::start_as("xterm-256color", args)
    }

    /// The same on a terminal of type `term`. The shell prints its pid (then wuzi's, after
    /// `exec`) as `pid NNN`.
    fn start_as(term: &str, args: &str) -> Option<Pty> {
        let version = Command::new("script").arg("--version").output().ok()?;
        if !String::from_utf8_lossy(&version.stdout).contains("util-linux") {
            return None;
        }
        let wuzi = env!("CARGO_BIN_EXE_wuzi");
        let command = format!("stty cols 100 rows 30; echo pid $$; exec '{wuzi}' {args}");
        let mut child = Command::new("script")
            .args(["-qfec", &command, "/dev/null"])
            .env("TERM", term)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .ok()?;
        let output = Arc::new(Mutex::new(Vec::new()));
        let mut stdout = child.stdout.take().unwrap();
        let sink = output.clone();
        std::thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stdout.read(&mut chunk) {
                if n == 0 {
                    break;
                }
                sink.lock().unwrap().extend_from_slice(&chunk[..n]);
            }
        });
        Some(Pty { child, output })
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.output.lock().unwrap()).into_owned()
    }

    /// Waits until the screen has shown `needle` (at most 30 s).
    fn wait_for(&self, needle: &str) {
        let start = Instant::now();
        while !self.text().contains(needle) {
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "never saw {needle:?} in {:?}",
                self.text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn keys(&mut self, keys: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(keys.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// wuzi's process id, once the shell has printed it.
    fn wuzi_pid(&self) -> String {
        self.wait_for("pid ");
        let text = self.text();
        let after = &text[text.find("pid ").unwrap() + 4..];
        after.chars().take_while(char::is_ascii_digit).collect()
    }

    /// Waits for the end; whether it succeeded, and everything shown.
    fn finish(self) -> (bool, String) {
        let (status, text) = self.finish_status();
        (status.success(), text)
    }

    /// Waits for the end; the exit status and everything shown.
    fn finish_status(mut self) -> (ExitStatus, String) {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                std::thread::sleep(Duration::from_millis(100));
                return (status, self.text());
            }
            if start.elapsed() > Duration::from_secs(30) {
                let _ = self.child.kill();
                panic!("wuzi did not quit: {:?}", self.text());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn restored(text: &str) -> bool {
    let Some(left) = text.rfind(LEAVE_ALTERNATE_SCREEN) else {
        return false;
    };
    text[left..].contains(SHOW_CURSOR)
}

#[test]
fn play_on_a_terminal_is_full_screen_and_quit_restores_it() {
    let Some(mut pty) = Pty::start("play --time 100") else {
        eprintln!("skipped: no util-linux `script` to make a pseudo-terminal");
        return;
    };
    pty.wait_for("Your");
    // A left click (SGR mouse report, 1-based) on h8: the board's box starts at the top left,
    // then 3 columns of row numbers and 2 columns a point; row 15 is under the letters.
    let (column, row) = (1 + 3 + 2 * 7 + 1, 1 + 1 + 7 + 1);
    pty.keys(&format!("\x1b[<0;{column};{row}M\x1b[<0;{column};{row}m"));
    pty.wait_for("plays");
    pty.keys("u");
    pty.wait_for("Taken");
    pty.keys("q");
    let (success, text) = pty.finish();
    assert!(success, "{text:?}");
    assert!(text.contains(ENTER_ALTERNATE_SCREEN));
    assert!(restored(&text), "{text:?}");
}

#[test]
fn ctrl_c_restores_the_terminal_too() {
    let Some(mut pty) = Pty::start("play tictactoe") else {
        eprintln!("skipped: no util-linux `script` to make a pseudo-terminal");
        return;
    };
    pty.wait_for("Tic-tac-toe");
    pty.keys("\x03");
    let (success, text) = pty.finish();
    assert!(success, "{text:?}");
    assert!(restored(&text), "{text:?}");
}

/// SIGTERM (a closing terminal emulator, `kill`) ends the game as a quit does: the terminal is
/// put back, and the status is the signal's (128 + 15), as the shell would report it.
#[test]
fn sigterm_restores_the_terminal() {
    let Some(mut pty) = Pty::start("play --time 100") else {
        eprintln!("skipped: no util-linux `script` to make a pseudo-terminal");
        return;
    };
    let pid = pty.wuzi_pid();
    pty.wait_for("Your");
    pty.keys("?");
    let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(sent.success());
    let (status, text) = pty.finish_status();
    assert_eq!(status.code(), Some(143), "{text:?}");
    assert!(restored(&text), "{text:?}");
}

/// A terminal that goes away (its emulator killed, an SSH session dropped) ends the game
/// within a second or so: crossterm's reader never returns once the terminal has hung up,
/// and the game must not spin on it for ever.
#[test]
fn a_terminal_that_hangs_up_ends_the_game() {
    for args in ["play --time 100", "play tictactoe"] {
        let Some(mut pty) = Pty::start(args) else {
            eprintln!("skipped: no util-linux `script` to make a pseudo-terminal");
            return;
        };
        let pid = pty.wuzi_pid();
        pty.wait_for("Your");
        // `script` holds the terminal's other end: killing it hangs the terminal up.
        pty.child.kill().unwrap();
        let _ = pty.child.wait();
        let start = Instant::now();
        let gone = loop {
            // Exited (a zombie no one reaps yet counts) or gone altogether.
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            let state = state.rsplit(") ").next().unwrap_or("").chars().next();
            if matches!(state, None | Some('Z' | 'X')) {
                break true;
            }
            if start.elapsed() > Duration::from_secs(10) {
                let _ = Command::new("kill").args(["-KILL", &pid]).status();
                break false;
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        assert!(
            gone,
            "{args}: wuzi {pid} still runs after its terminal hung up"
        );
    }
}

/// A terminal that cannot draw a screen (`TERM=dumb`: Emacs' shell, some IDE consoles) gets
/// the line mode, as a pipe does.
#[test]
fn a_dumb_terminal_gets_the_line_mode() {
    // The engine thinks (its live line would erase itself with escapes a dumb terminal
    // prints as garbage), then the game ends.
    let Some(text) = one_move_in_the_line_mode("dumb", "play --time 100") else {
        eprintln!("skipped: no util-linux `script` to make a pseudo-terminal");
        return;
    };
    assert!(!text.contains(ENTER_ALTERNATE_SCREEN), "{text:?}");
    assert!(!text.contains("\x1b[2K"), "no line erasing: {text:?}");
}

/// Plays h8 in the line mode on a terminal of type `term`, waits for the engine's reply and
/// quits: everything shown (`None` without util-linux's `script`).
fn one_move_in_the_line_mode(term: &str, args: &str) -> Option<String> {
    let mut pty = Pty::start_as(term, args)?;
    pty.wait_for("pid ");
    pty.keys("h8\n");
    pty.wait_for("AI plays");
    pty.keys("quit\n");
    let (success, text) = pty.finish();
    assert!(success, "{text:?}");
    Some(text)
}

/// On a terminal the live line stays within the width (`stty cols 100`): a longer one
/// would wrap, and only its last row would be replaced by the next.
#[test]
fn the_line_modes_live_line_fits_the_terminal() {
    let Some(text) = one_move_in_the_line_mode("xterm-256color", "play --plain --time 400") else {
        eprintln!("skipped: no util-linux `script` to make a pseudo-terminal");
        return;
    };
    let live: Vec<&str> = text
        .split("\x1b[2K")
        .skip(1)
        .map(|s| s.split(['\r', '\n']).next().unwrap_or(""))
        .filter(|s| !s.is_empty())
        .collect();
    assert!(!live.is_empty(), "a live line was drawn: {text:?}");
    for line in live {
        assert!(line.chars().count() < 100, "{line:?}");
    }
}
