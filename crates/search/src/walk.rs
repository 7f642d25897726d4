//! The state the textbook searches share while they walk the tree: the node count, a move
//! buffer per ply, the principal variation, and the observer.

use crate::game::Game;
use crate::move_stack::MoveStack;
use crate::observer::Observer;
use crate::score::Score;
use crate::strategy::SearchResult;
use std::time::Instant;

pub(crate) struct Walk<'o, G: Game, O: Observer<G>> {
    pub nodes: u64,
    pub moves: MoveStack<G::Move>,
    /// `pv[ply]`: the best line found so far from the node at `ply` (a triangular table).
    pv: Vec<Vec<G::Move>>,
    observer: &'o mut O,
    /// The observer asked to stop: every node returns at once and the result is void.
    pub stopped: bool,
    start: Instant,
}

impl<'o, G: Game, O: Observer<G>> Walk<'o, G, O> {
    pub fn new(observer: &'o mut O) -> Self {
        Walk {
            nodes: 0,
            moves: MoveStack::default(),
            pv: Vec::new(),
            observer,
            stopped: false,
            start: Instant::now(),
        }
    }

    /// Counts a node and tells the observer; false when the search must stop.
    pub fn enter(
        &mut self,
        game: &G,
        mv: Option<G::Move>,
        ply: u32,
        depth: u32,
        alpha: Score,
        beta: Score,
    ) -> bool {
        self.nodes += 1;
        let ply = ply as usize;
        if self.pv.len() <= ply + 1 {
            self.pv.resize_with(ply + 2, Vec::new);
        }
        self.pv[ply].clear();
        if !self.stopped
            && !self
                .observer
                .enter(game, mv, ply as u32, depth, alpha, beta)
        {
            self.stopped = true;
        }
        !self.stopped
    }

    pub fn leave(&mut self, value: Score, cutoff: bool, skipped: &[G::Move]) -> Score {
        self.observer.leave(value, cutoff, skipped);
        value
    }

    /// Leaves a node with no move yet no outcome (a game breaking the trait's contract),
    /// giving back its move buffer: scored `value` (its evaluation) as the searcher scores
    /// it, never as the infinite "best" of no move at all.
    pub fn leave_stuck(&mut self, ply: u32, moves: Vec<G::Move>, value: Score) -> Score {
        self.moves.give(ply as usize, moves);
        self.leave(value, false, &[])
    }

    /// `mv` is the best move at `ply` so far: its line is `mv` and the child's line.
    pub fn new_best(&mut self, ply: u32, mv: G::Move) {
        let ply = ply as usize;
        let (here, below) = self.pv.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&below[0]);
    }

    /// The result, or `None` when the observer stopped the search.
    pub fn finish(self, score: Score, depth: u32) -> Option<SearchResult<G::Move>> {
        if self.stopped {
            return None;
        }
        let pv = self.pv.into_iter().next().unwrap_or_default();
        Some(SearchResult {
            best_move: pv.first().copied(),
            score,
            nodes: self.nodes,
            depth,
            pv,
            elapsed: self.start.elapsed(),
        })
    }
}
