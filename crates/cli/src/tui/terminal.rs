//! The terminal in full-screen mode, and putting it back: a guard restores it when dropped
//! (quit, an error, Ctrl-C, which arrives as a key in raw mode), a panic hook restores it
//! before the panic message is printed, and SIGTERM or SIGHUP end the loop as a quit does
//! (then the process exits as the signal would have it), so no exit path leaves the shell in
//! raw mode.

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
use std::sync::atomic::{AtomicUsize, Ordering};
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
        Ok(FullScreen { terminal, ended_by })
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
        restore();
    }
}
