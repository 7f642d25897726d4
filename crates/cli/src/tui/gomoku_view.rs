//! Draws [`GomokuApp`]: the board and a panel with the players, whose turn it is, the
//! engine's live depth, score and line, the moves, and the result.

use super::board_view::{BoardView, Marks};
use super::gomoku_app::{colour_name, GomokuApp};
use super::layout::{dim, heading, help, panel, split};
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::Frame;
use wuzi_search::Player;

/// Draws the game; returns where the board went (for mouse clicks), if it fitted.
pub fn draw(frame: &mut Frame, app: &GomokuApp) -> Option<Rect> {
    let board = app.board();
    let n = board.size();
    let (board_area, panel_area) = split(frame, n, n)?;
    let cells = app.cells();
    let view = BoardView {
        width: n,
        height: n,
        cells: &cells,
        cursor: Some(app.cursor),
        marks: Marks::Stones,
        colour: super::board_view::colour_wanted(),
    };
    frame.render_widget(view, board_area);
    panel(
        frame,
        panel_area,
        "wuzi (五子)",
        panel_lines(app, panel_area.width, panel_area.height),
    );
    if app.show_help {
        help(frame, super::input::KEYS);
    }
    Some(board_area)
}

fn stone(colour: Player) -> Span<'static> {
    let fg = match colour {
        Player::First => Color::Indexed(16),
        Player::Second => Color::Indexed(231),
    };
    let symbol = super::board_view::stone_symbol(colour, super::board_view::colour_wanted());
    Span::styled(symbol, Style::default().fg(fg).bg(Color::Indexed(180)))
}

/// The panel's lines for an area `width` x `height` (borders included): the moves list
/// takes the rows the other lines leave, counting a line that wraps as the rows it fills.
fn panel_lines(app: &GomokuApp, width: u16, height: u16) -> Vec<Line<'static>> {
    let board = app.board();
    let n = board.size();
    let mut lines = vec![
        dim(format!("Gomoku, {}, {n}x{n}", board.rule())),
        Line::from(vec![
            Span::raw("You "),
            stone(app.human),
            Span::raw(format!(" {}   wuzi ", colour_name(app.human))),
            stone(app.human.opponent()),
            Span::raw(format!(" {}", colour_name(app.human.opponent()))),
        ]),
        Line::raw(""),
    ];
    if let Some(result) = app.result_text() {
        lines.push(Line::from(Span::styled(
            result,
            Style::default()
                .fg(Color::Green)
                .add_modifier(Modifier::BOLD),
        )));
        let analysis = if app.analysing {
            "end analysis"
        } else {
            "analysis"
        };
        lines.push(dim(format!(
            "n new, u undo, s save, r review, a {analysis}"
        )));
    } else if app.is_reviewing() {
        lines.push(heading("Reviewing the game..."));
    } else if app.analysing {
        let mover = colour_name(board.side_to_move());
        let state = if app.is_analysing() {
            "thinking"
        } else {
            "done"
        };
        lines.push(heading(format!("Analysis, {mover} to move ({state})")));
    } else if app.engine_to_move() {
        lines.push(heading("wuzi is thinking..."));
    } else if app.is_thinking() {
        lines.push(heading("Looking for a hint..."));
    } else if board.side_to_move() == app.human && app.no_legal_move() {
        lines.push(heading("No legal move: every empty point is forbidden"));
    } else if board.side_to_move() == app.human {
        lines.push(heading(format!("Your move ({})", colour_name(app.human))));
    } else {
        lines.push(heading("wuzi to move"));
    }
    match &app.progress {
        Some(p) => {
            let mut live = format!("depth {}  score {}", p.depth, p.score);
            if let Some(chance) = &p.chance {
                live = format!("{live}  {chance}");
            }
            lines.push(Line::raw(live));
            lines.push(Line::raw(format!("line {}", p.line.join(" "))));
            lines.push(dim(format!("{} nodes", p.nodes)));
            // The analysis's other best moves, numbered as on the board.
            for (rank, other) in app.lines.iter().enumerate().skip(1) {
                let first = other.line.first().map_or("-", String::as_str);
                let mut text = format!("{}. {first}  score {}", rank + 1, other.score);
                if let Some(chance) = &other.chance {
                    text = format!("{text}  {chance}");
                }
                lines.push(Line::raw(text));
            }
        }
        None => lines.extend([Line::raw(""), Line::raw(""), Line::raw("")]),
    }
    lines.push(Line::raw(app.message.clone()));
    if let Some(typed) = &app.typed {
        lines.push(Line::from(vec![
            Span::styled("Move: ", Style::default().add_modifier(Modifier::BOLD)),
            Span::raw(format!("{typed}_")),
        ]));
    }
    lines.push(Line::raw(""));
    lines.push(heading("Moves"));
    // The moves in pairs, as many of the latest as fit above the key reminder.
    // A review's marks follow the moves it graded (`h8?!`).
    let moves: Vec<String> = board
        .moves()
        .iter()
        .enumerate()
        .map(|(i, p)| format!("{}{}", p.to_human(n), app.review_mark(i + 1)))
        .collect();
    let pairs: Vec<String> = moves
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| {
            format!(
                "{:>3}. {:<6} {}",
                i + 1,
                pair[0],
                pair.get(1).map_or("", |s| s)
            )
        })
        .collect();
    let inside = usize::from(width.saturating_sub(2)).max(1);
    let rows: usize = lines
        .iter()
        .map(|l| l.width().div_ceil(inside).max(1))
        .sum();
    // Below the list: a blank line, the key reminder and the bottom border; the top border.
    let room = (height as usize).saturating_sub(rows + 4);
    lines.extend(
        pairs[pairs.len().saturating_sub(room)..]
            .iter()
            .cloned()
            .map(Line::raw),
    );
    lines.push(Line::raw(""));
    lines.push(dim(key_reminder(inside)));
    lines
}

/// The keys a newcomer needs, on one row of a panel `inside` columns wide: the list of moves
/// above it leaves one row for it, and a reminder that wrapped would push the list off.
fn key_reminder(inside: usize) -> &'static str {
    const FULL: &str = "? keys   : type a move   q quit";
    if inside >= FULL.len() {
        FULL
    } else {
        "? keys   q quit"
    }
}

#[cfg(test)]
mod tests {
    use super::key_reminder;
    use crate::tui::layout::MIN_PANEL_WIDTH;

    #[test]
    fn the_key_reminder_keeps_to_one_row() {
        let narrowest = usize::from(MIN_PANEL_WIDTH - 2);
        for inside in narrowest..80 {
            assert!(key_reminder(inside).chars().count() <= inside, "{inside}");
        }
        assert!(key_reminder(60).contains("type a move"));
    }
}
