//! Everything the command prints to stdout goes through here, so that a reader that stops
//! early (`wuzi show h8 | head -1`) ends the program quietly with success instead of a panic,
//! and every user error is one line, `wuzi: ...`, with exit status 2.

use std::fmt::Display;
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit status of a user error (clap's own usage errors use it too).
pub const USER_ERROR: u8 = 2;

/// Ends the program with success when `error` says the reader went away; a closed pipe is
/// how a pager or `head` says it has read enough.
pub fn exit_if_closed(error: &io::Error) {
    if error.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(0);
    }
}

/// An I/O error as a message for the user (a closed pipe ends the program, see above).
pub fn io_message(error: io::Error) -> String {
    exit_if_closed(&error);
    error.to_string()
}

/// The exit status when the output cannot be written (a full disk, a closed stdout): not a
/// user error, and not a success a script would take the empty output for.
pub const OUTPUT_FAILED: i32 = 1;

/// Prints `text` and a newline to stdout, and flushes. Output that cannot be written ends
/// the program with [`OUTPUT_FAILED`] and says why (a closed pipe ends it quietly, above).
pub fn line(text: impl Display) {
    let mut out = io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
        exit_if_closed(&e);
        let _ = writeln!(io::stderr(), "wuzi: cannot write the output: {e}");
        std::process::exit(OUTPUT_FAILED);
    }
}

/// Reports a user error as one line and gives the exit status to end with.
pub fn fail(message: impl Display) -> ExitCode {
    let _ = writeln!(
        io::stderr(),
        "wuzi: {}",
        terminal_safe(&message.to_string())
    );
    ExitCode::from(USER_ERROR)
}

/// Writes a note (not an error) to stderr, made safe as an error is.
pub fn note(message: impl Display) {
    let _ = writeln!(
        io::stderr(),
        "note: {}",
        terminal_safe(&message.to_string())
    );
}

/// `text` with each control character but a line break or a tab shown as `?`: an error may
/// quote a file's bytes, and an escape sequence among them would act on the terminal.
fn terminal_safe(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c if c.is_control() => '?',
            c => c,
        })
        .collect()
}

/// Prints a command's text on success, or its error.
pub fn finish(result: Result<String, String>) -> ExitCode {
    match result {
        Ok(text) => {
            line(text);
            ExitCode::SUCCESS
        }
        Err(message) => fail(message),
    }
}

/// Ends a command that a signal can stop short (Ctrl-C, SIGTERM, a hang-up): its report is
/// printed either way, and a run that was stopped exits 128 + the signal's number, the status
/// a shell gives a command the signal ended (130 for Ctrl-C).
pub fn finish_stoppable(
    result: Result<String, String>,
    stopped_by: impl Fn() -> Option<u8>,
) -> ExitCode {
    let reported = result.is_ok();
    let code = finish(result);
    match stopped_by() {
        Some(signal) => ExitCode::from(128u8.saturating_add(signal)),
        None if reported && RECORDS_INCOMPLETE.load(Ordering::Relaxed) => {
            ExitCode::from(OUTPUT_FAILED as u8)
        }
        None => code,
    }
}

/// Set when a run's records (`--sgf`) could not all be written: its report is still printed,
/// but it ends with [`OUTPUT_FAILED`], so a script does not take the file for complete.
pub static RECORDS_INCOMPLETE: AtomicBool = AtomicBool::new(false);

/// Ends a command that printed as it went.
pub fn finish_unit(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(message),
    }
}

/// `n` and the noun, plural unless one ("1 game", "2 proven losses", "3 plies").
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        return format!("1 {noun}");
    }
    match noun.strip_suffix('y') {
        Some(stem) if !stem.ends_with(['a', 'e', 'o', 'u']) => format!("{n} {stem}ies"),
        _ if noun.ends_with('s') => format!("{n} {noun}es"),
        _ => format!("{n} {noun}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::count;

    #[test]
    fn counts_read_as_english() {
        assert_eq!(count(1, "game"), "1 game");
        assert_eq!(count(0, "win"), "0 wins");
        assert_eq!(count(2, "loss"), "2 losses");
        assert_eq!(
            (count(1, "ply"), count(3, "ply")),
            ("1 ply".into(), "3 plies".into())
        );
        assert_eq!(count(2, "day"), "2 days");
        assert_eq!(count(2, "proven loss"), "2 proven losses");
        assert_eq!(count(1, "proven loss"), "1 proven loss");
    }
}
