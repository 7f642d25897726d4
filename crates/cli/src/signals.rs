//! The signals that end a long command: Ctrl-C (SIGINT), SIGTERM (`kill`, a service
//! manager) and SIGHUP (the terminal or SSH session closed). A match caught by one of them
//! ends its engines and reports what was played instead of dying with them running.

/// The terminating signals to catch besides SIGINT: SIGTERM, and SIGHUP unless it is
/// ignored, as `nohup` leaves it (a run started that way must survive the hang-up).
#[cfg(unix)]
pub fn terminating() -> Vec<i32> {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    let mut signals = vec![SIGTERM];
    if !ignored(SIGHUP) {
        signals.push(SIGHUP);
    }
    signals
}

#[cfg(not(unix))]
pub fn terminating() -> Vec<i32> {
    Vec::new()
}

/// Whether `signal` is set to be ignored (inherited from the parent, e.g. by `nohup`).
#[cfg(unix)]
fn ignored(signal: i32) -> bool {
    // SAFETY: a null new action only reads the current one into `old`, which is a plain
    // struct the call fills in; no handler is changed.
    unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        libc::sigaction(signal, std::ptr::null(), &mut old) == 0
            && old.sa_sigaction == libc::SIG_IGN
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn sigterm_is_always_caught() {
        assert!(terminating().contains(&signal_hook::consts::SIGTERM));
    }
}
