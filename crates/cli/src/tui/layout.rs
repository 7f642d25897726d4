//! The parts of the screen both games share: the board beside a side panel, the key list
//! that `?` shows, and a note when the terminal is too small.

use super::board_view::BoardView;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

/// The narrowest side panel that still reads (it takes whatever room the board leaves).
pub(super) const MIN_PANEL_WIDTH: u16 = 24;

/// Splits the screen into the board's area (just its size) and the panel's; `None` when the
/// terminal is too small for both, after saying so on the screen.
pub fn split(frame: &mut Frame, board_width: usize, board_height: usize) -> Option<(Rect, Rect)> {
    let area = frame.area();
    let (w, h) = BoardView::area_needed(board_width, board_height);
    if area.width < w + 2 + MIN_PANEL_WIDTH || area.height < h + 2 {
        let note = Paragraph::new(format!(
            "The terminal is too small ({}x{}); the board needs {}x{}. Enlarge it, or press q.",
            area.width,
            area.height,
            w + 2 + MIN_PANEL_WIDTH,
            h + 2
        ))
        .wrap(Wrap { trim: true });
        frame.render_widget(note, area);
        return None;
    }
    let [board, panel] =
        Layout::horizontal([Constraint::Length(w + 2), Constraint::Min(MIN_PANEL_WIDTH)])
            .areas(area);
    let [board] = Layout::vertical([Constraint::Length(h + 2)]).areas(board);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::DarkGray));
    let inner = block.inner(board);
    frame.render_widget(block, board);
    Some((inner, panel))
}

/// A bold heading line.
pub fn heading(text: impl Into<String>) -> Line<'static> {
    Line::from(Span::styled(
        text.into(),
        Style::default().add_modifier(Modifier::BOLD),
    ))
}

/// A dim line.
pub fn dim(text: impl Into<String>) -> Line<'static> {
    Line::from(Span::styled(
        text.into(),
        Style::default().fg(Color::DarkGray),
    ))
}

/// The side panel's lines in a bordered box.
pub fn panel(frame: &mut Frame, area: Rect, title: &str, lines: Vec<Line<'static>>) {
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(Style::default().fg(Color::DarkGray))
        .title(format!(" {title} "));
    frame.render_widget(
        Paragraph::new(lines)
            .block(block)
            .wrap(Wrap { trim: false }),
        area,
    );
}

/// The width of the keys' column of the key list.
const KEYS_COLUMN: usize = 22;

/// The game's `keys` (keys, what they do), over the middle of the screen.
pub fn help(frame: &mut Frame, keys: &[(&str, &str)]) {
    let area = frame.area();
    // The keys' column, two spaces, the longest text, the borders.
    let longest = keys.iter().map(|(_, what)| what.chars().count()).max();
    let width = (KEYS_COLUMN as u16 + 2 + longest.unwrap_or(0) as u16 + 2).min(area.width);
    let height = (keys.len() as u16 + 4).min(area.height);
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let mut lines: Vec<Line> = keys
        .iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(
                    format!("{keys:>KEYS_COLUMN$}  "),
                    Style::default().fg(Color::Cyan),
                ),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(dim(format!(
        "{:>KEYS_COLUMN$}  any key closes this, q quits",
        ""
    )));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Keys ")),
        popup,
    );
}
