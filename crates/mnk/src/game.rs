//! m,n,k-games as a [`Game`] for the search core, with the shortcuts that make exact solving
//! fast: an immediate win is played, an immediate threat is blocked, and symmetric positions
//! share a table entry.

use crate::board::{Cell, Mnk};
use wuzi_search::{Forced, Game, Outcome, Player, Score};

impl Game for Mnk {
    type Move = Cell;

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
        } else {
            self.legal_moves(out);
        }
    }

    fn probe(&mut self, _depth: u32) -> Option<Forced> {
        let me = self.to_move();
        if self.winning_cells(me).1 > 0 {
            return Some(Forced::Win(1));
        }
        // Two threats cannot both be blocked, unless the block fills the board.
        (self.winning_cells(me.opponent()).1 >= 2 && self.empty_count() >= 2).then_some(Forced::Loss(2))
    }

    fn table_key(&self) -> u64 {
        *self.symmetric_hashes().iter().min().expect("the identity is always there")
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
