//! The terminal in full-screen mode, and putting it back: a guard restores it when dropped
//! (quit, an error, Ctrl-C, which arrives as a key in raw mode), a panic hook restores it
//! before the panic message is printed, and SIGTERM or SIGHUP end the loop as a quit does
//! (then the process exits as the signal would have it), so no exit path leaves the shell in
//! raw mode. A watchdog thread ends the process when the loop cannot: once the terminal has
//! hung up, crossterm's reader retries its empty reads for ever and never returns to the loop.

use super::input::{from_key, from_typed_key, Input};
use super::Screen;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use ratatui::Terminal;
use std::io::{self, Stdout};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Once};
use std::time::Duration;

/// How often the screen refreshes while the engine thinks.
const TICK: Duration = Duration::from_millis(50);

/// Puts the terminal back as the shell expects it. Safe to call more than once.
fn restore() {
    let _ = disable_raw_mode();
    let _ = execute!(
        io::stdout(),
        DisableMouseCapture,
        LeaveAlternateScreen,
        ratatui::crossterm::cursor::Show
    );
}

/// The terminal in full-screen mode while it lives.
pub struct FullScreen {
    terminal: Terminal<CrosstermBackend<Stdout>>,
    /// The number of the terminating signal that arrived (SIGTERM, SIGHUP), 0 while none.
    ended_by: Arc<AtomicUsize>,
    /// Set when the full screen is left: the watchdog's work is over.
    left: Arc<AtomicBool>,
}

/// How long the loop has to end by itself after a terminating signal, or after the terminal
/// hung up, before the watchdog ends the process.
const GRACE: Duration = Duration::from_millis(700);

/// Watches for what the loop may never see: a terminating signal it does not get back to,
/// or a terminal that hung up (stdin reports POLLHUP). Then, unless the loop has left the
/// full screen within [`GRACE`], the watchdog puts the terminal back as far as it still can
/// and exits as the signal (or a hang-up) would have it.
fn start_watchdog(ended_by: Arc<AtomicUsize>, left: Arc<AtomicBool>) {
    std::thread::spawn(move || {
        let mut since: Option<std::time::Instant> = None;
        while !left.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(100));
            let signal = ended_by.load(Ordering::Relaxed);
            if signal == 0 && !stdin_hung_up() {
                continue;
            }
            let first = *since.get_or_insert_with(std::time::Instant::now);
            if first.elapsed() >= GRACE && !left.load(Ordering::Relaxed) {
                // The main thread may hold the output's lock, blocked on a terminal that
                // takes no more: the terminal is put back from another thread, as far as
                // it can be within a moment, and the process ends either way.
                std::thread::spawn(restore);
                std::thread::sleep(Duration::from_millis(200));
                // SIGHUP's number when the terminal went away without a signal.
                let code = if signal == 0 { 1 } else { signal as i32 };
                std::process::exit(128 + code);
            }
        }
    });
}

/// True when standard input is a terminal that has hung up (its other end closed).
#[cfg(unix)]
fn stdin_hung_up() -> bool {
    let mut fd = libc::pollfd {
        fd: 0,
        events: 0,
        revents: 0,
    };
    // SAFETY: one pollfd, owned here, and a zero timeout: the call only fills `revents`.
    let ready = unsafe { libc::poll(&mut fd, 1, 0) };
    ready > 0 && fd.revents & libc::POLLHUP != 0
}

#[cfg(not(unix))]
fn stdin_hung_up() -> bool {
    false
}

/// Makes SIGTERM and SIGHUP (unless ignored) store their number in `ended_by` instead of
/// killing the process at once, so that the loop can put the terminal back first.
fn catch_terminating_signals(ended_by: &Arc<AtomicUsize>) {
    #[cfg(unix)]
    for signal in crate::signals::terminating() {
        let _ = signal_hook::flag::register_usize(signal, ended_by.clone(), signal as usize);
    }
    #[cfg(not(unix))]
    let _ = ended_by;
}

impl FullScreen {
    pub fn enter() -> io::Result<FullScreen> {
        static HOOK: Once = Once::new();
        HOOK.call_once(|| {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(move |info| {
                restore();
                previous(info);
            }));
        });
        enable_raw_mode()?;
        let mut stdout = io::stdout();
        if let Err(e) = execute!(stdout, EnterAlternateScreen, EnableMouseCapture) {
            restore();
            return Err(e);
        }
        let terminal = match Terminal::new(CrosstermBackend::new(stdout)) {
            Ok(t) => t,
            Err(e) => {
                restore();
                return Err(e);
            }
        };
        let ended_by = Arc::new(AtomicUsize::new(0));
        catch_terminating_signals(&ended_by);
        let left = Arc::new(AtomicBool::new(false));
        start_watchdog(ended_by.clone(), left.clone());
        Ok(FullScreen {
            terminal,
            ended_by,
            left,
        })
    }

    /// The signal that ended the loop, if one did: the caller exits with 128 + it, as the
    /// shell reports a process the signal killed.
    pub fn ended_by_signal(&self) -> Option<i32> {
        match self.ended_by.load(Ordering::Relaxed) {
            0 => None,
            signal => Some(signal as i32),
        }
    }

    /// Draws and reads events until the game asks to quit.
    pub fn run(&mut self, app: &mut impl Screen) -> io::Result<()> {
        let mut board_area = None;
        loop {
            app.poll();
            self.terminal.draw(|frame| board_area = app.draw(frame))?;
            if app.wants_quit() || self.ended_by_signal().is_some() {
                return Ok(());
            }
            if !event::poll(TICK)? {
                continue;
            }
            let input = match event::read()? {
                Event::Key(key) if app.typing() => from_typed_key(key),
                Event::Key(key) => from_key(key),
                Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
                    let (w, h) = app.board_size();
                    board_area
                        .and_then(|area| {
                            super::board_view::point_at(area, w, h, mouse.column, mouse.row)
                        })
                        .map(|(x, y)| Input::PlaceAt(x, y))
                }
                // A resize is redrawn at the top of the loop.
                _ => None,
            };
            // While the terminal is too small to draw the board, only quitting is taken:
            // nothing is played unseen.
            let shown = board_area.is_some() || matches!(input, Some(Input::Quit | Input::Cancel));
            if let Some(input) = input.filter(|_| shown) {
                app.input(input);
            }
        }
    }
}

impl Drop for FullScreen {
    fn drop(&mut self) {
        self.left.store(true, Ordering::Relaxed);
        restore();
    }
}
