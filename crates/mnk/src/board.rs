//! The m,n,k board: stones, whose turn, who has won, and the hashes.

use crate::symmetry::board_symmetries;
use std::fmt;
use wuzi_search::{zobrist_keys, Player};

/// A cell index, `y * width + x`, with `y` counted from the top row.
pub type Cell = u16;

/// Board dimensions are limited so cells fit a [`Cell`] and columns have letters.
pub const MAX_SIDE: usize = 16;

/// An m,n,k-game: `width` x `height` cells, `k` in a row wins. Tic-tac-toe is 3,3,3.
#[derive(Clone, Debug)]
pub struct Mnk {
    width: usize,
    height: usize,
    k: usize,
    cells: Vec<Option<Player>>,
    history: Vec<Cell>,
    winner: Option<Player>,
    /// `zobrist[player * cells + cell]`.
    zobrist: Vec<u64>,
    /// One permutation per board symmetry (identity first) and the hash of each image.
    symmetries: Vec<Vec<Cell>>,
    hashes: Vec<u64>,
    /// Every line of `k` cells, flattened: the evaluation counts stones in each.
    windows: Vec<Cell>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MnkError {
    BadSize { width: usize, height: usize, k: usize },
    Unreadable(String),
    OffBoard(String),
    Occupied(String),
    GameOver,
}

impl fmt::Display for MnkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MnkError::BadSize { width, height, k } => write!(
                f,
                "unsupported board {width}x{height} with k={k}: sides must be 1..={MAX_SIDE} and k 1..=max(width, height)"
            ),
            MnkError::Unreadable(text) => write!(f, "cannot read '{text}' as a move (expected e.g. b2)"),
            MnkError::OffBoard(text) => write!(f, "{text} is off the board"),
            MnkError::Occupied(text) => write!(f, "{text} is already taken"),
            MnkError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for MnkError {}

const DIRECTIONS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

impl Mnk {
    pub fn new(width: usize, height: usize, k: usize) -> Result<Mnk, MnkError> {
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) || k == 0 || k > width.max(height) {
            return Err(MnkError::BadSize { width, height, k });
        }
        let cells = width * height;
        let symmetries = board_symmetries(width, height);
        let mut board = Mnk {
            width,
            height,
            k,
            cells: vec![None; cells],
            history: Vec::with_capacity(cells),
            winner: None,
            zobrist: zobrist_keys(0x6d6e_6b00 ^ cells as u64, 2 * cells),
            hashes: vec![0; symmetries.len()],
            symmetries,
            windows: Vec::new(),
        };
        board.windows = board.all_windows();
        Ok(board)
    }

    pub fn tic_tac_toe() -> Mnk {
        Mnk::new(3, 3, 3).expect("3,3,3 is a valid board")
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn k(&self) -> usize {
        self.k
    }

    pub fn at(&self, cell: Cell) -> Option<Player> {
        self.cells[cell as usize]
    }

    pub fn history(&self) -> &[Cell] {
        &self.history
    }

    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    pub fn empty_count(&self) -> usize {
        self.cells.len() - self.history.len()
    }

    pub fn winner(&self) -> Option<Player> {
        self.winner
    }

    pub fn is_full(&self) -> bool {
        self.history.len() == self.cells.len()
    }

    pub fn to_move(&self) -> Player {
        if self.history.len() % 2 == 0 {
            Player::First
        } else {
            Player::Second
        }
    }

    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.is_full()
    }

    /// The hash of the position's image under every symmetry (identity first).
    pub fn symmetric_hashes(&self) -> &[u64] {
        &self.hashes
    }

    fn key(&self, player: Player, cell: usize) -> u64 {
        self.zobrist[player.index() * self.cells.len() + cell]
    }

    /// Puts a stone for the side to move; the caller has checked the cell is empty and the
    /// game is not over.
    pub fn place(&mut self, cell: Cell) {
        let player = self.to_move();
        let index = cell as usize;
        debug_assert!(self.cells[index].is_none() && self.winner.is_none());
        self.cells[index] = Some(player);
        self.history.push(cell);
        self.toggle_hashes(player, index);
        if self.longest_line_through(index, player) >= self.k {
            self.winner = Some(player);
        }
    }

    /// Removes the last stone.
    pub fn take_back(&mut self) -> Option<Cell> {
        let cell = self.history.pop()?;
        let index = cell as usize;
        let player = self.cells[index].take().expect("history names an occupied cell");
        self.toggle_hashes(player, index);
        self.winner = None;
        Some(cell)
    }

    fn toggle_hashes(&mut self, player: Player, cell: usize) {
        for s in 0..self.symmetries.len() {
            let image = self.symmetries[s][cell] as usize;
            self.hashes[s] ^= self.key(player, image);
        }
    }

    /// The hash computed from scratch (the incremental one must always equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(cell, stone)| stone.map(|player| self.key(player, cell)))
            .fold(0, |hash, key| hash ^ key)
    }

    fn neighbour(&self, cell: usize, (dx, dy): (isize, isize), steps: isize) -> Option<usize> {
        let x = (cell % self.width) as isize + dx * steps;
        let y = (cell / self.width) as isize + dy * steps;
        let inside = (0..self.width as isize).contains(&x) && (0..self.height as isize).contains(&y);
        inside.then(|| y as usize * self.width + x as usize)
    }

    /// The longest run of `player`'s stones through `cell` if `cell` held one of them.
    fn longest_line_through(&self, cell: usize, player: Player) -> usize {
        DIRECTIONS
            .iter()
            .map(|&dir| {
                let run = |sign: isize| {
                    (1..)
                        .take_while(|&step| {
                            self.neighbour(cell, dir, sign * step)
                                .is_some_and(|n| self.cells[n] == Some(player))
                        })
                        .count()
                };
                1 + run(1) + run(-1)
            })
            .max()
            .unwrap_or(1)
    }

    /// Whether `player` would complete `k` in a row by playing the empty `cell`.
    pub fn wins_at(&self, cell: Cell, player: Player) -> bool {
        self.cells[cell as usize].is_none() && self.longest_line_through(cell as usize, player) >= self.k
    }

    /// The first empty cell where `player` completes a line, and how many such cells there are.
    pub fn winning_cells(&self, player: Player) -> (Option<Cell>, usize) {
        let mut first = None;
        let mut count = 0;
        for cell in 0..self.cells.len() as Cell {
            if self.wins_at(cell, player) {
                first = first.or(Some(cell));
                count += 1;
            }
        }
        (first, count)
    }

    fn all_windows(&self) -> Vec<Cell> {
        let mut windows = Vec::new();
        for start in 0..self.cells.len() {
            for dir in DIRECTIONS {
                let line: Option<Vec<Cell>> = (0..self.k as isize)
                    .map(|step| self.neighbour(start, dir, step).map(|c| c as Cell))
                    .collect();
                if let Some(line) = line {
                    windows.extend(line);
                }
            }
        }
        windows
    }

    /// Lines of `k` still open to one side, weighted by how full they are, from `player`'s view.
    pub fn heuristic(&self, player: Player) -> i32 {
        self.windows
            .chunks_exact(self.k)
            .map(|window| {
                let (mut mine, mut theirs) = (0u32, 0u32);
                for &cell in window {
                    match self.cells[cell as usize] {
                        Some(p) if p == player => mine += 1,
                        Some(_) => theirs += 1,
                        None => {}
                    }
                }
                match (mine, theirs) {
                    (m, 0) if m > 0 => 1 << (2 * m),
                    (0, t) if t > 0 => -(1 << (2 * t)),
                    _ => 0,
                }
            })
            .sum()
    }

    /// `b2`-style name of a cell: column letter from the left, row number from the bottom.
    pub fn cell_name(&self, cell: Cell) -> String {
        let x = cell as usize % self.width;
        let y = cell as usize / self.width;
        format!("{}{}", (b'a' + x as u8) as char, self.height - y)
    }

    /// Reads a `b2`-style cell name (case-insensitive). Does not check that the cell is empty.
    pub fn parse_cell(&self, text: &str) -> Result<Cell, MnkError> {
        let trimmed = text.trim().to_ascii_lowercase();
        let mut chars = trimmed.chars();
        let column = chars.next().filter(|c| c.is_ascii_lowercase());
        let row: Option<usize> = chars.as_str().parse().ok();
        let (Some(column), Some(row)) = (column, row) else {
            return Err(MnkError::Unreadable(text.trim().to_string()));
        };
        let x = (column as u8 - b'a') as usize;
        if x >= self.width || row == 0 || row > self.height {
            return Err(MnkError::OffBoard(trimmed));
        }
        Ok(((self.height - row) * self.width + x) as Cell)
    }

    /// Plays a move given by name, refusing bad input without changing anything.
    pub fn play_named(&mut self, text: &str) -> Result<Cell, MnkError> {
        let cell = self.parse_cell(text)?;
        if self.is_over() {
            return Err(MnkError::GameOver);
        }
        if self.at(cell).is_some() {
            return Err(MnkError::Occupied(self.cell_name(cell)));
        }
        self.place(cell);
        Ok(cell)
    }
}

/// The board with column letters below and row numbers on the left; X moves first.
impl fmt::Display for Mnk {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = self.history.last().copied();
        for y in 0..self.height {
            write!(f, "{:>2} ", self.height - y)?;
            for x in 0..self.width {
                let cell = (y * self.width + x) as Cell;
                let mark = match self.cells[cell as usize] {
                    Some(Player::First) => 'X',
                    Some(Player::Second) => 'O',
                    None => '.',
                };
                let (open, close) = if Some(cell) == last { ('[', ']') } else { (' ', ' ') };
                write!(f, "{open}{mark}{close}")?;
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for x in 0..self.width {
            write!(f, " {} ", (b'a' + x as u8) as char)?;
        }
        writeln!(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let board = Mnk::new(4, 3, 3).unwrap();
        for cell in 0..12 {
            assert_eq!(board.parse_cell(&board.cell_name(cell)).unwrap(), cell);
        }
        assert_eq!(board.cell_name(0), "a3");
        assert_eq!(board.cell_name(11), "d1");
        assert_eq!(board.parse_cell(" B2 ").unwrap(), 5);
    }

    #[test]
    fn bad_moves_are_refused_and_change_nothing() {
        let mut board = Mnk::tic_tac_toe();
        board.play_named("b2").unwrap();
        let before = (board.history().to_vec(), board.hash_from_scratch());
        assert_eq!(board.play_named("b2"), Err(MnkError::Occupied("b2".into())));
        assert_eq!(board.play_named("d1"), Err(MnkError::OffBoard("d1".into())));
        assert_eq!(board.play_named("a0"), Err(MnkError::OffBoard("a0".into())));
        assert_eq!(board.play_named("zz"), Err(MnkError::Unreadable("zz".into())));
        assert_eq!(board.play_named(""), Err(MnkError::Unreadable("".into())));
        assert_eq!(board.play_named("é3"), Err(MnkError::Unreadable("é3".into())));
        assert_eq!((board.history().to_vec(), board.hash_from_scratch()), before);
    }

    #[test]
    fn detects_wins_in_every_direction_and_refuses_moves_after() {
        for line in [["a1", "b1", "c1"], ["a1", "a2", "a3"], ["a1", "b2", "c3"], ["a3", "b2", "c1"]] {
            let mut board = Mnk::tic_tac_toe();
            let others: Vec<&str> = ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"]
                .into_iter()
                .filter(|c| !line.contains(c))
                .collect();
            for i in 0..3 {
                board.play_named(line[i]).unwrap();
                if i < 2 {
                    board.play_named(others[i * 2 + 1]).unwrap();
                }
            }
            assert_eq!(board.winner(), Some(Player::First), "{line:?}");
            assert_eq!(board.play_named(others[0]), Err(MnkError::GameOver));
        }
    }

    #[test]
    fn rejects_unsupported_sizes() {
        assert!(Mnk::new(0, 3, 3).is_err());
        assert!(Mnk::new(17, 3, 3).is_err());
        assert!(Mnk::new(3, 3, 4).is_err());
        assert!(Mnk::new(3, 3, 0).is_err());
        assert!(Mnk::new(16, 16, 5).is_ok());
    }
}
