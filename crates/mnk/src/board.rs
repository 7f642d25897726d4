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
    /// Every line of `k` cells ("window"), flattened, `k` cells each.
    windows: Vec<Cell>,
    /// Stones of each player in each window.
    window_stones: Vec<[u8; 2]>,
    /// The windows through each cell: `cell_windows[cell_window_start[c]..cell_window_start[c + 1]]`.
    cell_windows: Vec<u32>,
    cell_window_start: Vec<u32>,
    /// Per player: windows still free of the opponent's stones (lines that could still win).
    open_windows: [u32; 2],
    /// Per player: open windows one stone short of `k` (each names a winning cell).
    threat_windows: [u32; 2],
    /// Per player: open windows two stones short of `k` (a stone there makes a threat).
    two_short_windows: [u32; 2],
    /// `inverse_symmetries[s]` undoes `symmetries[s]`.
    inverse_symmetries: Vec<Vec<Cell>>,
    /// Scratch space for move ordering, one slot per cell (kept to avoid allocating per node).
    priorities: Vec<i32>,
    /// Sum over windows of their value to the first player (see `window_value`).
    first_player_eval: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MnkError {
    BadSize {
        width: usize,
        height: usize,
        k: usize,
    },
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
        if !(1..=MAX_SIDE).contains(&width)
            || !(1..=MAX_SIDE).contains(&height)
            || k == 0
            || k > width.max(height)
        {
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
            window_stones: Vec::new(),
            cell_windows: Vec::new(),
            cell_window_start: Vec::new(),
            open_windows: [0; 2],
            threat_windows: [0; 2],
            two_short_windows: [0; 2],
            first_player_eval: 0,
            priorities: vec![0; cells],
            inverse_symmetries: Vec::new(),
        };
        board.inverse_symmetries = board
            .symmetries
            .iter()
            .map(|perm| {
                let mut inverse = vec![0; cells];
                for (cell, &image) in perm.iter().enumerate() {
                    inverse[image as usize] = cell as Cell;
                }
                inverse
            })
            .collect();
        board.index_windows();
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

    /// A transposition-table size for solving this board: a few KiB per cell doubling with
    /// each cell, capped at 64 MiB (5,5,4 gains nothing from more). A table is written in
    /// full when made, so tiny boards get tiny tables.
    pub fn solver_table_bytes(&self) -> usize {
        (64usize << 20).min(4096usize << self.cells.len().min(20))
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
        if self.history.len().is_multiple_of(2) {
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
        if self.update_windows(player, index, 1) {
            self.winner = Some(player);
        }
    }

    /// Removes the last stone.
    pub fn take_back(&mut self) -> Option<Cell> {
        let cell = self.history.pop()?;
        let index = cell as usize;
        let player = self.cells[index]
            .take()
            .expect("history names an occupied cell");
        self.toggle_hashes(player, index);
        self.update_windows(player, index, -1);
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
        let inside =
            (0..self.width as isize).contains(&x) && (0..self.height as isize).contains(&y);
        inside.then(|| y as usize * self.width + x as usize)
    }

    /// Adds (`delta` = 1) or removes (-1) `player`'s stone at `cell` in every window through
    /// it, keeping the per-player window tallies; true if a window became full of `player`'s
    /// stones.
    fn update_windows(&mut self, player: Player, cell: usize, delta: i8) -> bool {
        let (me, them) = (player.index(), player.opponent().index());
        let k = self.k as u8;
        // A window is open for a player while the other has no stone in it, and a threat for
        // them when it is open and one stone short.
        let open_for_them = |s: [u8; 2]| u32::from(s[me] == 0);
        let threat_for = |s: [u8; 2], p: usize, q: usize| u32::from(s[q] == 0 && s[p] + 1 == k);
        let two_short_for = |s: [u8; 2], p: usize, q: usize| u32::from(s[q] == 0 && s[p] + 2 == k);
        let mut completed = false;
        let range =
            self.cell_window_start[cell] as usize..self.cell_window_start[cell + 1] as usize;
        for &window in &self.cell_windows[range] {
            let before = self.window_stones[window as usize];
            let mut after = before;
            after[me] = after[me].wrapping_add_signed(delta);
            self.window_stones[window as usize] = after;
            completed |= after[me] == k;
            self.open_windows[them] =
                self.open_windows[them] + open_for_them(after) - open_for_them(before);
            self.threat_windows[me] = self.threat_windows[me] + threat_for(after, me, them)
                - threat_for(before, me, them);
            self.threat_windows[them] = self.threat_windows[them] + threat_for(after, them, me)
                - threat_for(before, them, me);
            self.two_short_windows[me] = self.two_short_windows[me]
                + two_short_for(after, me, them)
                - two_short_for(before, me, them);
            self.two_short_windows[them] = self.two_short_windows[them]
                + two_short_for(after, them, me)
                - two_short_for(before, them, me);
            self.first_player_eval += window_value(after) - window_value(before);
        }
        completed
    }

    fn index_windows(&mut self) {
        let mut windows = Vec::new();
        for start in 0..self.cells.len() {
            for dir in DIRECTIONS {
                let line: Option<Vec<Cell>> = (0..self.k as isize)
                    .map(|step| self.neighbour(start, dir, step).map(|c| c as Cell))
                    .collect();
                windows.extend(line.into_iter().flatten());
            }
        }
        let count = windows.len() / self.k;
        let mut per_cell: Vec<Vec<u32>> = vec![Vec::new(); self.cells.len()];
        for (window, cells) in windows.chunks_exact(self.k).enumerate() {
            for &cell in cells {
                per_cell[cell as usize].push(window as u32);
            }
        }
        self.cell_window_start = std::iter::once(0)
            .chain(per_cell.iter().scan(0, |end, list| {
                *end += list.len() as u32;
                Some(*end)
            }))
            .collect();
        self.cell_windows = per_cell.concat();
        self.windows = windows;
        self.window_stones = vec![[0, 0]; count];
        self.open_windows = [count as u32; 2];
        self.threat_windows = [if self.k == 1 { count as u32 } else { 0 }; 2];
        self.two_short_windows = [if self.k == 2 { count as u32 } else { 0 }; 2];
        self.first_player_eval = 0;
    }

    /// Whether `player` would complete `k` in a row by playing the empty `cell`.
    pub fn wins_at(&self, cell: Cell, player: Player) -> bool {
        let (me, them) = (player.index(), player.opponent().index());
        let index = cell as usize;
        let range =
            self.cell_window_start[index] as usize..self.cell_window_start[index + 1] as usize;
        self.cells[index].is_none()
            && self.cell_windows[range].iter().any(|&w| {
                let stones = self.window_stones[w as usize];
                stones[them] == 0 && stones[me] as usize + 1 == self.k
            })
    }

    /// Whether `player` has a cell that completes a line right now.
    pub fn has_winning_cell(&self, player: Player) -> bool {
        self.threat_windows[player.index()] > 0
    }

    /// The first empty cell where `player` completes a line, and how many such cells there are.
    pub fn winning_cells(&self, player: Player) -> (Option<Cell>, usize) {
        if !self.has_winning_cell(player) {
            return (None, 0);
        }
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

    /// How much `cell` matters to both sides: each open window through it counts 4^n for the
    /// n stones it already holds, for the side that owns them (so attack and defence both rank).
    pub fn cell_priority(&self, cell: Cell) -> i32 {
        let index = cell as usize;
        let range =
            self.cell_window_start[index] as usize..self.cell_window_start[index + 1] as usize;
        self.cell_windows[range]
            .iter()
            .map(|&w| match self.window_stones[w as usize] {
                [a, 0] | [0, a] => stones_value(a),
                _ => 0,
            })
            .sum()
    }

    /// A cell where `player` makes two threats on different cells at once, so the opponent
    /// (if it has no threat of its own) cannot block both.
    pub fn double_threat_cell(&self, player: Player) -> Option<Cell> {
        if self.two_short_windows[player.index()] < 2 {
            return None;
        }
        let (me, them) = (player.index(), player.opponent().index());
        (0..self.cells.len()).find_map(|cell| {
            if self.cells[cell].is_some() {
                return None;
            }
            let range =
                self.cell_window_start[cell] as usize..self.cell_window_start[cell + 1] as usize;
            let mut partner = None;
            for &w in &self.cell_windows[range] {
                let stones = self.window_stones[w as usize];
                if stones[them] != 0 || stones[me] as usize + 2 != self.k {
                    continue;
                }
                let window = &self.windows[w as usize * self.k..(w as usize + 1) * self.k];
                let other = window
                    .iter()
                    .copied()
                    .find(|&c| c as usize != cell && self.cells[c as usize].is_none());
                match (partner, other) {
                    (None, Some(o)) => partner = Some(o),
                    (Some(p), Some(o)) if p != o => return Some(cell as Cell),
                    _ => {}
                }
            }
            None
        })
    }

    /// Whether `player` still has a line free of the opponent's stones.
    pub fn can_still_win(&self, player: Player) -> bool {
        self.open_windows[player.index()] > 0
    }

    /// Sorts `cells` by [`Mnk::cell_priority`], best first; stable, so equal cells keep board
    /// order and the search stays deterministic.
    pub fn order_by_priority(&mut self, cells: &mut [Cell]) {
        for &cell in cells.iter() {
            self.priorities[cell as usize] = self.cell_priority(cell);
        }
        let priorities = &self.priorities;
        for i in 1..cells.len() {
            let mut j = i;
            while j > 0 && priorities[cells[j - 1] as usize] < priorities[cells[j] as usize] {
                cells.swap(j - 1, j);
                j -= 1;
            }
        }
    }

    /// The symmetry whose image has the smallest hash: the frame shared by all mirror images.
    pub fn canonical_symmetry(&self) -> usize {
        (0..self.hashes.len())
            .min_by_key(|&s| self.hashes[s])
            .expect("the identity is always there")
    }

    /// `cell` as seen in the canonical frame, and back.
    pub fn to_canonical(&self, cell: Cell) -> Cell {
        self.symmetries[self.canonical_symmetry()][cell as usize]
    }

    pub fn canonical_back(&self, cell: Cell) -> Cell {
        self.inverse_symmetries[self.canonical_symmetry()][cell as usize]
    }

    /// Whether symmetry `s` maps the position onto itself (checked stone by stone).
    fn is_symmetric_under(&self, s: usize) -> bool {
        self.hashes[s] == self.hashes[0]
            && (0..self.cells.len())
                .all(|cell| self.cells[self.symmetries[s][cell] as usize] == self.cells[cell])
    }

    /// Drops every cell that a symmetry of the position maps onto a lower-numbered cell: the
    /// moves dropped lead to mirror images of positions reached by the moves kept.
    pub fn drop_symmetric_duplicates(&self, cells: &mut Vec<Cell>) {
        for s in 1..self.symmetries.len() {
            if self.is_symmetric_under(s) {
                let map = &self.symmetries[s];
                cells.retain(|&cell| map[cell as usize] >= cell);
            }
        }
    }

    /// Neither player can ever complete a line: the game is a draw whatever is played.
    pub fn is_dead_draw(&self) -> bool {
        self.open_windows == [0, 0]
    }

    /// Lines of `k` still open to one side, weighted by how full they are, from `player`'s view.
    pub fn heuristic(&self, player: Player) -> i32 {
        match player {
            Player::First => self.first_player_eval,
            Player::Second => -self.first_player_eval,
        }
    }

    /// [`Mnk::heuristic`] from scratch, for tests.
    pub fn heuristic_from_scratch(&self, player: Player) -> i32 {
        let total: i32 = self
            .windows
            .chunks_exact(self.k)
            .map(|window| {
                let mut stones = [0u8; 2];
                for &cell in window {
                    if let Some(p) = self.cells[cell as usize] {
                        stones[p.index()] += 1;
                    }
                }
                window_value(stones)
            })
            .sum();
        if player == Player::First {
            total
        } else {
            -total
        }
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
        // Digits only: `usize`'s parser alone would take "+2". (Leading zeros are read, as
        // the Gomoku notation reads them.)
        let digits = chars.as_str();
        let row: Option<usize> = digits
            .parse()
            .ok()
            .filter(|_| digits.bytes().all(|b| b.is_ascii_digit()));
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
                let (open, close) = if Some(cell) == last {
                    ('[', ']')
                } else {
                    (' ', ' ')
                };
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

/// What a window is worth to the first player: 4^n for `n` stones of one side in a window the
/// other side has not entered.
fn window_value(stones: [u8; 2]) -> i32 {
    match stones {
        [0, 0] => 0,
        [n, 0] => stones_value(n),
        [0, n] => -stones_value(n),
        _ => 0,
    }
}

/// The most stones a window's value tells apart: 4^8 over the at most 1,024 windows of a
/// 16x16 board stays inside `i32`, and the windows near completion (which a search sees as
/// threats anyway) stay below the decided scores. With 4^15 two nearly full windows of a
/// 16,16,16 game overflowed the sum and read as a win for the other side.
const MOST_STONES_VALUED: u8 = 8;

/// 4^n for `n` stones, counted up to [`MOST_STONES_VALUED`].
fn stones_value(n: u8) -> i32 {
    1 << (2 * n.min(MOST_STONES_VALUED))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 16,16,16 with two of the first player's lines one stone short: the evaluation's sum
    /// overflowed `i32` (4^15 a window) and read as the second player nearly winning.
    #[test]
    fn the_biggest_board_evaluates_without_overflow() {
        let mut board = Mnk::new(16, 16, 16).unwrap();
        let moves = "a1 a2 b1 b2 c1 c2 d1 d2 e1 e2 f1 f2 g1 g2 h1 h2 i1 i2 j1 j2 k1 k2 l1 l2 \
                     m1 m2 n1 n2 o1 a3 p2 b3 p3 c3 p4 d3 p5 e3 p6 f3 p7 g3 p8 h3 p9 i3 p10 j3 \
                     p11 k3 p12 l3 p13 m3 p14 o3 p15 a4 p16";
        for name in moves.split_whitespace() {
            board.play_named(name).unwrap();
        }
        // The second player is to move, facing two lines the first completes at p1.
        assert!(board.heuristic(board.to_move()) < 0);
        assert_eq!(
            board.heuristic(board.to_move()),
            board.heuristic_from_scratch(board.to_move())
        );
        let before = board.heuristic(Player::First);
        board.play_named("p1").unwrap();
        assert!(board.heuristic(Player::First) < before, "blocking p1 helps");
    }

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
        assert_eq!(
            board.play_named("zz"),
            Err(MnkError::Unreadable("zz".into()))
        );
        assert_eq!(board.play_named(""), Err(MnkError::Unreadable("".into())));
        assert_eq!(
            board.play_named("é3"),
            Err(MnkError::Unreadable("é3".into()))
        );
        for text in ["b+2", "b 2", "b-1"] {
            assert_eq!(
                board.play_named(text),
                Err(MnkError::Unreadable(text.into()))
            );
        }
        assert_eq!(
            (board.history().to_vec(), board.hash_from_scratch()),
            before
        );
    }

    #[test]
    fn detects_wins_in_every_direction_and_refuses_moves_after() {
        for line in [
            ["a1", "b1", "c1"],
            ["a1", "a2", "a3"],
            ["a1", "b2", "c3"],
            ["a3", "b2", "c1"],
        ] {
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

    proptest::proptest! {
        #[test]
        fn window_tallies_match_a_recount(size in 0usize..4, picks in proptest::collection::vec(0usize..64, 0..30)) {
            let (w, h, k) = [(3, 3, 3), (5, 4, 4), (4, 4, 2), (6, 2, 1)][size];
            let mut board = Mnk::new(w, h, k).unwrap();
            for pick in picks {
                let empty: Vec<Cell> = (0..board.cell_count() as Cell).filter(|&c| board.at(c).is_none()).collect();
                if board.is_over() || empty.is_empty() {
                    board.take_back();
                } else {
                    board.place(empty[pick % empty.len()]);
                }
                for player in [Player::First, Player::Second] {
                    proptest::prop_assert_eq!(board.heuristic(player), board.heuristic_from_scratch(player));
                    let scan = (0..board.cell_count() as Cell).any(|c| board.at(c).is_none() && board.wins_at(c, player));
                    proptest::prop_assert_eq!(board.has_winning_cell(player), scan);
                    let open = board.windows.chunks_exact(k).filter(|win| win.iter().all(|&c| board.at(c) != Some(player.opponent()))).count();
                    proptest::prop_assert_eq!(board.open_windows[player.index()] as usize, open);
                }
            }
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
