//! Gomoku as a [`wuzi_search::Game`]: the board plus the engine's scratch state.

use crate::board::Board;
use crate::eval::{evaluate_with, EvalKind};
use crate::movegen::{five_points, MoveGen};
use crate::notation::{Point, MAX_SIZE};
use crate::threat::{ThreatKind, ThreatLimits, ThreatSolver};
use wuzi_search::{Game, Outcome, Player, Score};

/// Longest VCF looked for at a leaf of the main search, in attacker moves.
const LEAF_VCF_ATTACKS: u32 = 2;
/// Node cap of one leaf VCF: a leaf must stay cheap, and a fixed cap keeps the search
/// deterministic.
const LEAF_VCF_NODES: u64 = 40;

/// A board being searched: the position and the buffers move generation reuses.
pub struct Gomoku {
    pub board: Board,
    movegen: MoveGen,
    fives: Vec<Point>,
    /// Proves wins by continuous fours at the leaves, when enabled.
    leaf_vcf: Option<ThreatSolver>,
    /// Moves left out at the root (for "the N best moves"), and the root's stone count that
    /// tells the root from the positions below it.
    excluded: Vec<Point>,
    root_stones: usize,
    eval: EvalKind,
}

impl Gomoku {
    pub fn new(board: Board) -> Gomoku {
        Gomoku {
            board,
            movegen: MoveGen::default(),
            fives: Vec::with_capacity(8),
            leaf_vcf: None,
            excluded: Vec::new(),
            root_stones: 0,
            eval: EvalKind::default(),
        }
    }

    /// Leaves `moves` out of the candidates of the current position (not of the positions
    /// below it); an empty list restores them.
    pub fn exclude_root_moves(&mut self, moves: &[Point]) {
        self.excluded.clear();
        self.excluded.extend_from_slice(moves);
        self.root_stones = self.board.stone_count();
    }

    /// Searches at most `n` moves where nothing forces the reply (0: all).
    pub fn set_max_candidates(&mut self, n: usize) {
        self.movegen.max_candidates = n;
    }

    /// The evaluation the generic searcher calls at its leaves.
    pub fn set_eval(&mut self, eval: EvalKind) {
        self.eval = eval;
    }

    /// Switches on the leaf VCF with a table of `table_bytes`.
    pub fn enable_leaf_vcf(&mut self, table_bytes: usize) {
        self.leaf_vcf = Some(ThreatSolver::new(table_bytes));
    }

    /// Positions the leaf VCF has visited since it was switched on.
    pub fn leaf_nodes(&self) -> u64 {
        self.leaf_vcf.as_ref().map_or(0, ThreatSolver::nodes)
    }

    pub fn leaf_table_bytes(&self) -> usize {
        self.leaf_vcf.as_ref().map_or(0, ThreatSolver::table_bytes)
    }

    pub fn clear_leaf_table(&mut self) {
        if let Some(solver) = &mut self.leaf_vcf {
            solver.clear();
        }
    }
}

impl Game for Gomoku {
    type Move = Point;

    const ORDERED_CANDIDATES: bool = true;

    fn side_to_move(&self) -> Player {
        self.board.side_to_move()
    }

    fn legal_moves(&self, out: &mut Vec<Point>) {
        if self.board.result().is_none() {
            out.extend(self.board.points().filter(|&p| self.board.is_empty(p)));
        }
    }

    fn play(&mut self, mv: Point) {
        self.board.play(mv);
    }

    fn undo(&mut self, _mv: Point) {
        self.board.undo();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.board.outcome()
    }

    fn hash(&self) -> u64 {
        self.board.hash()
    }

    fn evaluate(&self) -> Score {
        Score::heuristic(evaluate_with(&self.board, self.eval))
    }

    fn candidate_moves(&mut self, out: &mut Vec<Point>) {
        self.movegen.candidates(&mut self.board, out);
        if !self.excluded.is_empty() && self.board.stone_count() == self.root_stones {
            out.retain(|p| !self.excluded.contains(p));
        }
    }

    fn candidates_pruned(&self) -> bool {
        self.movegen.truncated
    }

    /// A five to make wins now; two fives to block cannot both be blocked; at a leaf, a short
    /// VCF proves a win.
    fn probe(&mut self, depth: u32) -> Option<Score> {
        let me = self.board.side_to_move();
        if self.board.threats(me).five > 0 {
            return Some(Score::win_in(1));
        }
        let them = me.opponent();
        if self.board.threats(them).five >= 2 {
            self.fives.clear();
            five_points(&self.board, them, &mut self.fives, 2);
            if self.fives.len() >= 2 {
                return Some(Score::loss_in(2));
            }
        }
        // Two four points at least: with one, a VCF is rare and the look costs more than it
        // finds.
        if depth == 0 && self.board.threats(me).four >= 2 {
            if let Some(solver) = &mut self.leaf_vcf {
                let limits = ThreatLimits {
                    max_attacks: LEAF_VCF_ATTACKS,
                    nodes: Some(LEAF_VCF_NODES),
                    deadline: None,
                    stop: None,
                    quiet_vcf: 0,
                };
                if let Some(win) = solver.solve(&mut self.board, ThreatKind::Vcf, &limits) {
                    return Some(Score::win_in(win.plies));
                }
            }
        }
        None
    }

    fn move_index(&self, mv: Point) -> usize {
        mv.index()
    }

    fn move_index_bound(&self) -> usize {
        MAX_SIZE * MAX_SIZE
    }

    fn max_remaining_plies(&self) -> Option<u32> {
        Some(self.board.empty_count() as u32)
    }
}
