//! m,n,k-games as a [`Game`] for the search core, with the shortcuts that make exact solving
//! fast: an immediate win is played, an immediate threat is blocked, and symmetric positions
//! share a table entry.

use crate::board::{Cell, Mnk};
use wuzi_search::{Game, Outcome, Player, Score};

impl Game for Mnk {
    type Move = Cell;

    const ORDERED_CANDIDATES: bool = true;

    fn side_to_move(&self) -> Player {
        self.to_move()
    }

    fn legal_moves(&self, out: &mut Vec<Cell>) {
        if self.is_over() {
            return;
        }
        out.extend((0..self.cell_count() as Cell).filter(|&cell| self.at(cell).is_none()));
    }

    fn play(&mut self, mv: Cell) {
        self.place(mv);
    }

    fn undo(&mut self, mv: Cell) {
        let taken = self.take_back();
        debug_assert_eq!(taken, Some(mv));
    }

    fn outcome(&self) -> Option<Outcome> {
        match self.winner() {
            Some(player) => Some(Outcome::Win(player)),
            None if self.is_full() => Some(Outcome::Draw),
            None => None,
        }
    }

    fn hash(&self) -> u64 {
        self.symmetric_hashes()[0]
    }

    fn evaluate(&self) -> Score {
        Score::heuristic(self.heuristic(self.to_move()))
    }

    /// With a win available, only the win; facing a threat, only a block (facing two, any one
    /// block: every move loses in two anyway); otherwise every empty cell.
    fn candidate_moves(&mut self, out: &mut Vec<Cell>) {
        if self.is_over() {
            return;
        }
        let me = self.to_move();
        if let (Some(win), _) = self.winning_cells(me) {
            out.push(win);
        } else if let (Some(block), _) = self.winning_cells(me.opponent()) {
            out.push(block);
        } else if let Some(fork) = self.double_threat_cell(me) {
            out.push(fork);
        } else {
            self.legal_moves(out);
            self.drop_symmetric_duplicates(out);
            self.order_by_priority(out);
        }
    }

    fn probe(&mut self, _depth: u32) -> Option<Score> {
        let me = self.to_move();
        if self.has_winning_cell(me) {
            return Some(Score::win_in(1));
        }
        if self.is_dead_draw() {
            return Some(Score::DRAW);
        }
        if self.has_winning_cell(me.opponent()) {
            // Two threats cannot both be blocked (with no win of our own, the game goes on).
            return (self.winning_cells(me.opponent()).1 >= 2).then_some(Score::loss_in(2));
        }
        // Unanswered, a double threat wins on our next move but one; nothing is faster.
        self.double_threat_cell(me).map(|_| Score::win_in(3))
    }

    /// A side with no open line left can at best draw.
    fn bounds(&self) -> (Score, Score) {
        let me = self.to_move();
        let lower = if self.can_still_win(me.opponent()) {
            -Score::INFINITY
        } else {
            Score::DRAW
        };
        let upper = if self.can_still_win(me) {
            Score::INFINITY
        } else {
            Score::DRAW
        };
        (lower, upper)
    }

    fn table_key(&self) -> u64 {
        self.symmetric_hashes()[self.canonical_symmetry()]
    }

    fn table_move(&self, mv: Cell) -> Cell {
        self.to_canonical(mv)
    }

    fn table_move_back(&self, mv: Cell) -> Cell {
        self.canonical_back(mv)
    }

    fn move_index(&self, mv: Cell) -> usize {
        mv as usize
    }

    fn move_index_bound(&self) -> usize {
        self.cell_count()
    }

    fn max_remaining_plies(&self) -> Option<u32> {
        Some(self.empty_count() as u32)
    }
}
