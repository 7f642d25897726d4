//! The board as a ratatui widget, for Gomoku and tic-tac-toe alike: coordinates on the
//! edges (column letters, row numbers counted from the bottom as in `h8`), stones in colour,
//! and marks for the cursor, the last move, the winning line, a hint and renju's forbidden
//! points. Each point is two terminal columns wide so that the board looks square. Without
//! colour (`NO_COLOR`) nothing is told by colour alone: White's stones are hollow, the cursor
//! is in reverse video, the last move is followed by `<` and the winning line by `=`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::widgets::Widget;
use wuzi_search::Player;

/// What one point shows.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Cell {
    pub stone: Option<Player>,
    pub last: bool,
    pub winning: bool,
    pub forbidden: bool,
    pub hint: bool,
    /// The rank (2 to 5) of an analysis line that starts here; 0 for none (the best line's
    /// move is the hint).
    pub rank: u8,
    /// A star point of the board (drawn `+` while empty), as wooden boards mark them.
    pub star: bool,
}

/// How the two sides' stones are drawn: Gomoku's round stones or tic-tac-toe's X and O.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Marks {
    Stones,
    Letters,
}

/// A `width` x `height` board, its cells row by row from the top.
pub struct BoardView<'a> {
    pub width: usize,
    pub height: usize,
    pub cells: &'a [Cell],
    /// (column from the left, row from the top).
    pub cursor: Option<(usize, usize)>,
    pub marks: Marks,
    /// False under `NO_COLOR` ([`colour_wanted`]): every mark then shows by its shape.
    pub colour: bool,
}

/// False when the `NO_COLOR` convention asks for no colour (the variable set and not empty);
/// the terminal library then drops every colour, so the board must not rely on one.
pub fn colour_wanted() -> bool {
    std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// A stone's symbol: both round in colour; without it, White's is hollow.
pub fn stone_symbol(colour: Player, in_colour: bool) -> &'static str {
    match (colour, in_colour) {
        (Player::Second, false) => "○",
        _ => "●",
    }
}

/// Columns taken by the row numbers on the left (`15 `).
const LABEL_WIDTH: u16 = 3;
/// The wood of the board (256-colour palette, so that it works without true colour).
const WOOD: Color = Color::Indexed(180);
const GRID: Color = Color::Indexed(94);
const BLACK_STONE: Color = Color::Indexed(16);
const WHITE_STONE: Color = Color::Indexed(231);

impl BoardView<'_> {
    /// The size the board needs: labels on every side.
    pub fn area_needed(width: usize, height: usize) -> (u16, u16) {
        (LABEL_WIDTH * 2 + 2 * width as u16, height as u16 + 2)
    }

    fn cell_style(&self, cell: Cell, at_cursor: bool) -> (&'static str, Style) {
        let mut style = Style::default().bg(WOOD).fg(GRID);
        let symbol = match (cell.stone, self.marks) {
            (Some(Player::First), Marks::Stones) => {
                style = style.fg(BLACK_STONE).add_modifier(Modifier::BOLD);
                "●"
            }
            (Some(Player::Second), Marks::Stones) => {
                style = style.fg(WHITE_STONE).add_modifier(Modifier::BOLD);
                stone_symbol(Player::Second, self.colour)
            }
            (Some(Player::First), Marks::Letters) => {
                style = style.fg(BLACK_STONE).add_modifier(Modifier::BOLD);
                "X"
            }
            (Some(Player::Second), Marks::Letters) => {
                style = style.fg(Color::Indexed(19)).add_modifier(Modifier::BOLD);
                "O"
            }
            (None, _) if cell.forbidden => {
                style = style.fg(Color::Red).add_modifier(Modifier::BOLD);
                "×"
            }
            (None, _) if cell.hint => {
                style = style.fg(Color::Blue).add_modifier(Modifier::BOLD);
                "◆"
            }
            (None, _) if (2..=5).contains(&cell.rank) => {
                style = style.fg(Color::Blue).add_modifier(Modifier::BOLD);
                ["2", "3", "4", "5"][usize::from(cell.rank) - 2]
            }
            (None, _) if cell.star => "+",
            (None, _) => "·",
        };
        if cell.winning {
            style = style.bg(Color::Green);
        } else if cell.last {
            style = style.bg(Color::Indexed(214));
        }
        if at_cursor {
            style = style.bg(Color::Cyan);
            if !self.colour {
                style = style.add_modifier(Modifier::REVERSED);
            }
        }
        (symbol, style)
    }

    /// What the column after a point shows: blank, or without colour the mark of the last
    /// move or of the winning line.
    fn gap_symbol(&self, cell: Cell) -> &'static str {
        match (self.colour, cell.winning, cell.last) {
            (false, true, _) => "=",
            (false, false, true) => "<",
            _ => " ",
        }
    }
}

impl Widget for BoardView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let label = Style::default().fg(Color::DarkGray);
        let columns: String = (0..self.width)
            .map(|x| format!("{} ", (b'a' + x as u8) as char))
            .collect();
        let top = area.y;
        let bottom = area.y + self.height as u16 + 1;
        for y in [top, bottom] {
            if y < area.bottom() {
                buf.set_stringn(
                    area.x + LABEL_WIDTH,
                    y,
                    &columns,
                    area.width as usize,
                    label,
                );
            }
        }
        for row in 0..self.height {
            let y = area.y + 1 + row as u16;
            if y >= area.bottom() {
                break;
            }
            let number = self.height - row;
            buf.set_stringn(
                area.x,
                y,
                format!("{number:>2} "),
                area.width as usize,
                label,
            );
            for column in 0..self.width {
                let x = area.x + LABEL_WIDTH + 2 * column as u16;
                if x + 1 >= area.right() {
                    break;
                }
                let cell = self.cells[row * self.width + column];
                let at_cursor = self.cursor == Some((column, row));
                let (symbol, style) = self.cell_style(cell, at_cursor);
                buf.set_string(x, y, symbol, style);
                let gap = if at_cursor { style } else { style.bg(WOOD) };
                let gap = if cell.winning { style } else { gap };
                buf.set_string(x + 1, y, self.gap_symbol(cell), gap);
            }
            let right = area.x + LABEL_WIDTH + 2 * self.width as u16;
            if right < area.right() {
                buf.set_stringn(
                    right,
                    y,
                    format!(" {number}"),
                    (area.right() - right) as usize,
                    label,
                );
            }
        }
    }
}

/// The point under a mouse click at (`column`, `row`) of the terminal, when the board of
/// `width` x `height` was drawn in `area`.
pub fn point_at(
    area: Rect,
    width: usize,
    height: usize,
    column: u16,
    row: u16,
) -> Option<(usize, usize)> {
    let x = column.checked_sub(area.x + LABEL_WIDTH)? as usize / 2;
    let y = row.checked_sub(area.y + 1)? as usize;
    (x < width && y < height).then_some((x, y))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3x3 board of `cells` drawn with the cursor on its bottom-right point, c1.
    fn render_3x3(cells: &[Cell], marks: Marks, colour: bool) -> (Buffer, Rect) {
        let view = BoardView {
            width: 3,
            height: 3,
            cells,
            cursor: Some((2, 2)),
            marks,
            colour,
        };
        let (w, h) = BoardView::area_needed(3, 3);
        let area = Rect::new(0, 0, w, h);
        let mut buf = Buffer::empty(area);
        view.render(area, &mut buf);
        (buf, area)
    }

    /// Row `y` of `buf` as text.
    fn row_text(buf: &Buffer, y: u16) -> String {
        (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect()
    }

    #[test]
    fn draws_labels_and_stones_and_maps_clicks_back() {
        let mut cells = vec![Cell::default(); 9];
        cells[4].stone = Some(Player::First);
        cells[0].stone = Some(Player::Second);
        cells[8].star = true;
        let (buf, area) = render_3x3(&cells, Marks::Letters, true);
        let line = |y| row_text(&buf, y);
        assert_eq!(line(0).trim_end(), "   a b c");
        assert_eq!(line(1).trim_end(), " 3 O · ·  3");
        assert_eq!(line(2).trim_end(), " 2 · X ·  2");
        assert_eq!(line(3).trim_end(), " 1 · · +  1");
        assert_eq!(buf[(7, 3)].style().bg, Some(Color::Cyan));
        assert_eq!(point_at(area, 3, 3, 5, 2), Some((1, 1)));
        assert_eq!(point_at(area, 3, 3, 6, 2), Some((1, 1)));
        assert_eq!(point_at(area, 3, 3, 1, 2), None);
        assert_eq!(point_at(area, 3, 3, 5, 9), None);
    }

    /// Without colour, White's stones, the cursor, the last move and the winning line each
    /// show by a shape or reverse video, since the terminal drops every colour.
    #[test]
    fn without_colour_every_mark_has_a_shape() {
        let mut cells = vec![Cell::default(); 9];
        cells[0].stone = Some(Player::First);
        cells[1].stone = Some(Player::Second);
        cells[1].last = true;
        cells[3].stone = Some(Player::First);
        cells[3].winning = true;
        let (buf, _) = render_3x3(&cells, Marks::Stones, false);
        let line = |y| row_text(&buf, y);
        assert_eq!(line(1).trim_end(), " 3 ● ○<·  3");
        assert_eq!(line(2).trim_end(), " 2 ●=· ·  2");
        for x in [7, 8] {
            assert!(buf[(x, 3)]
                .style()
                .add_modifier
                .contains(Modifier::REVERSED));
        }
    }
}
