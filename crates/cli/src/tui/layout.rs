//! The parts of the screen both games share: the board beside a side panel, the key list
//! that `?` shows, and a note when the terminal is too small.

use super::board_view::BoardView;
use super::input::KEYS;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

/// The side panel's width when there is room, and the narrowest that still reads.
const PANEL_WIDTH: u16 = 34;
const MIN_PANEL_WIDTH: u16 = 24;

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
            w + 2 + PANEL_WIDTH,
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

/// The keys, over the middle of the screen.
pub fn help(frame: &mut Frame) {
    let area = frame.area();
    let width = 64.min(area.width);
    let height = (KEYS.len() as u16 + 4).min(area.height);
    let popup = Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    );
    let mut lines: Vec<Line> = KEYS
        .iter()
        .map(|(keys, what)| {
            Line::from(vec![
                Span::styled(format!("{keys:>20}  "), Style::default().fg(Color::Cyan)),
                Span::raw(*what),
            ])
        })
        .collect();
    lines.push(dim("            ? closes this"));
    frame.render_widget(Clear, popup);
    frame.render_widget(
        Paragraph::new(lines).block(Block::default().borders(Borders::ALL).title(" Keys ")),
        popup,
    );
}
