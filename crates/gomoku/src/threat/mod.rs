//! Threat-space search: proves wins by continuous fours (VCF) or by fours and open threes
//! (VCT), for the side to move, under every rule.
//!
//! The attacker plays only threats, so the defender's replies are few, and every one of them
//! is searched (an AND node):
//! - the defender's own five point refutes the attack (it moves first);
//! - two attacker five points cannot both be blocked, and the defender's fours come too late;
//! - against one five point the only reply is the block; under renju, a Black defender whose
//!   block is forbidden has lost (playing it is a foul, anything else lets the five in);
//! - against an open three: a legal straight four of the defender's own refutes it outright;
//!   otherwise every four of the defender's and every move after which the attacker has no
//!   legal straight-four point left. Any other move lets the attacker make a straight four,
//!   which wins, so a three none of whose defences holds is a proven win.
//!
//! The attacker (an OR node) makes five when it can; blocks the defender's four when it must
//! (the block has to be a threat itself, or the attack is over); and otherwise tries its fours
//! (VCF) or fours and open threes (VCT). A Black attacker under renju never plays a forbidden
//! point, and a forbidden straight-four point is no threat.
//!
//! The search deepens one attacker move at a time, so the first win found uses the fewest
//! attacker moves, and stops as soon as an iteration was not cut short by the move limit (a
//! deeper one would find nothing more). A table keyed by the Zobrist hash keeps proven wins
//! (with the winning move, tried first when the line is rebuilt) and disproofs, which hold
//! for a number of attacker moves or, when nothing was cut, for any number.
//!
//! Here the attacker's side (the OR nodes) and the solver's limits; in `defence` the
//! defender's side (the AND nodes: blocks, counter-fours, the answers to an open three); in
//! `quiet` the answers to a quiet threat (a move that prepares a VCF, when the limits allow
//! such threats); in `table` its transposition table of proofs and disproofs; in `near` the
//! point sets it walks (stones, shapes, fives) as row bitmasks.

mod defence;
mod near;
mod proof;
mod quiet;
mod table;
#[cfg(test)]
mod tests;

use crate::board::Board;
use crate::movegen::hand_priority;
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::Shape;
use near::{find_fives, Near};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use table::{best_move, never_wins, no_win_within, salt, BUCKET};
use wuzi_search::{extend_line, MoveStack, Player};

/// Which threats the attacker may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThreatKind {
    /// Fours only: every defender reply is forced.
    Vcf,
    /// Fours and open threes.
    Vct,
}

impl ThreatKind {
    /// `vcf` or `vct`, as the command line and the web API name it.
    pub fn name(self) -> &'static str {
        match self {
            ThreatKind::Vcf => "vcf",
            ThreatKind::Vct => "vct",
        }
    }
}

/// How the solver searches. Within the same limits both prove the same wins.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ThreatSearch {
    /// One more attacker move at a time ([`ThreatSolver::solve`]): the win found has the
    /// fewest attacker moves.
    Deepening,
    /// Proof numbers ([`ThreatSolver::prove`]): may find a deep win sooner, not always the
    /// shortest.
    Proof,
}

impl ThreatSearch {
    /// `deepening` or `proof`, as the command line and the web API name it.
    pub fn name(self) -> &'static str {
        match self {
            ThreatSearch::Deepening => "deepening",
            ThreatSearch::Proof => "proof",
        }
    }
}

/// When a threat search gives up (it then reports no win).
#[derive(Clone, Debug, Default)]
pub struct ThreatLimits {
    /// The most attacker moves a win may take, the five not counted (a straight four is an
    /// attacker move like any other). At most [`MAX_THREAT_ATTACKS`] are searched. The
    /// default, 0, finds only a five to make at once: the engine gives its root VCF 30 and
    /// its VCT 13 (`wuzi threats --attacks` 20).
    pub max_attacks: u32,
    /// Nodes this call may visit.
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set by another thread to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
    /// In a VCT, a quiet move is a threat too when after it the attacker would win by a VCF
    /// of at most this many moves if the defender passed: quintet's "threat limit". 1 adds
    /// the moves that make a double-four point, 2 those that prepare a four-three; 0 (the
    /// default) keeps to fours and open threes. At most [`MAX_QUIET_VCF`] is used.
    pub quiet_vcf: u32,
}

/// A proven win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    /// Plies until the game ends along `line`, its last move included.
    pub plies: u32,
    /// The winning line: attacker, defender, attacker, ..., ending with the attacker's five
    /// (or, under renju, with the forbidden block a Black defender is left with, which loses
    /// on the spot). Along it the defender takes the longest defence the solver saw.
    pub line: Vec<Point>,
}

impl ThreatWin {
    /// The attacker's first move.
    pub fn first(&self) -> Point {
        self.line[0]
    }

    /// The forbidden block a renju Black defender is left with, when the line ends with it
    /// rather than with the attacker's five.
    pub fn forbidden_block(&self) -> Option<Point> {
        self.line
            .len()
            .is_multiple_of(2)
            .then(|| self.line[self.line.len() - 1])
    }
}

/// The most attacker moves searched, whatever the limits say (lines stay within `MAX_LINE`).
pub const MAX_THREAT_ATTACKS: u32 = 120;
/// The longest VCF a quiet threat may stand for ([`ThreatLimits::quiet_vcf`]).
pub const MAX_QUIET_VCF: u32 = 4;
/// Added to an attacker move's rank when it makes a four: fours are tried first.
const FOUR_FIRST: i32 = 10_000;
/// Taken from a quiet move's rank: quiet moves are tried after the fours and open threes.
const QUIET_LAST: i32 = 100_000;
/// Longest line, in plies: two per attacker move, the five, and room for the last defence.
const MAX_LINE: usize = 2 * MAX_THREAT_ATTACKS as usize + 4;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 256;

/// A VCF/VCT prover with reusable buffers and its own transposition table.
pub struct ThreatSolver {
    /// Buckets of `BUCKET` entries `[key, data]`; empty when the bytes allowed no bucket.
    table: Vec<[u64; 2]>,
    /// Move lists per node: slot `2 * ply` and `2 * ply + 1`, so nothing is shared by a
    /// parent and a child.
    moves: MoveStack<Point>,
    /// Scratch for ranking moves (used before recursing, never across it).
    keyed: Vec<(i32, Point)>,
    /// Scratch for five points.
    fives: Vec<Point>,
    /// The winning line found below each ply.
    lines: Vec<Vec<Point>>,
    /// Marks of points already collected, by stamp.
    seen: Vec<u32>,
    stamp: u32,
    nodes: u64,
    /// Times the move limit cut the search short (when none did, deeper searches are moot).
    cuts: u64,
    budget_end: u64,
    next_check: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    aborted: bool,
    kind: ThreatKind,
    /// The longest VCF that makes a quiet move a threat (0: none; VCT only).
    quiet_vcf: u32,
    /// Scratch: the VCF a quiet threat stands for, while its defences are collected.
    quiet_line: Vec<Point>,
    /// Mixed into table keys: the same stones under another kind, rule or size are another
    /// position.
    salt: u64,
    /// The proof-number search's limit of attacker moves from its root.
    proof_attacks: u32,
    /// The proof-number search's children's entries per ply (made on its first use).
    proof_children: Vec<Vec<table::ProofEntry>>,
}

impl ThreatSolver {
    /// A solver whose table takes at most `table_bytes` bytes (none below one bucket), its
    /// memory mapped now rather than page by page on the first search's clock.
    pub fn new(table_bytes: usize) -> ThreatSolver {
        let mut solver = ThreatSolver::unmapped(table_bytes);
        let entry = std::mem::size_of::<[u64; 2]>();
        for slot in solver.table.iter_mut().step_by(4096 / entry) {
            *slot = [0; 2];
        }
        solver
    }

    /// As [`ThreatSolver::new`], made at once: the table's zeroed memory is mapped by the
    /// system as the searches first write to it.
    pub fn unmapped(table_bytes: usize) -> ThreatSolver {
        let entry = std::mem::size_of::<[u64; 2]>();
        let buckets = table_bytes / (entry * BUCKET);
        let len = if buckets == 0 {
            0
        } else {
            BUCKET << (usize::BITS - 1 - buckets.leading_zeros())
        };
        // Zeros, so the memory comes from the allocator already cleared and unmapped.
        // (`black_box` hides that it is zero, so that `new`'s writes are not optimised away.)
        let table = std::hint::black_box(vec![[0u64; 2]; len]);
        ThreatSolver {
            table,
            moves: MoveStack::default(),
            keyed: Vec::with_capacity(MAX_SIZE * MAX_SIZE),
            fives: Vec::with_capacity(8),
            lines: (0..=MAX_LINE)
                .map(|_| Vec::with_capacity(MAX_LINE + 1))
                .collect(),
            seen: vec![0; MAX_SIZE * MAX_SIZE],
            stamp: 0,
            nodes: 0,
            cuts: 0,
            budget_end: u64::MAX,
            next_check: 0,
            deadline: None,
            stop: None,
            aborted: false,
            kind: ThreatKind::Vcf,
            quiet_vcf: 0,
            quiet_line: Vec::with_capacity(MAX_LINE + 1),
            salt: 0,
            proof_attacks: 0,
            proof_children: Vec::new(),
        }
    }

    /// Positions visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether the last search stopped at a limit (nodes, deadline or stop flag) rather than
    /// finishing: then its `None` says nothing of the position.
    pub fn gave_up(&self) -> bool {
        self.aborted
    }

    /// Bytes the table takes (never more than asked for).
    pub fn table_bytes(&self) -> usize {
        std::mem::size_of_val(self.table.as_slice())
    }

    /// Forgets every stored result (the node count stays).
    pub fn clear(&mut self) {
        self.table.fill([0; 2]);
    }

    /// The shortest win (in attacker moves) for the side to move, if one is proven within the
    /// limits. `None` claims nothing: no win exists within `max_attacks`, or the search gave
    /// up. The board is left as it was.
    pub fn solve(
        &mut self,
        board: &mut Board,
        kind: ThreatKind,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        if !self.begin(board, kind, limits) {
            return None;
        }
        let mut win = None;
        for attacks in 0..=limits.max_attacks.min(MAX_THREAT_ATTACKS) {
            let cuts = self.cuts;
            if let Some(plies) = self.attack(board, attacks, 0) {
                win = Some(ThreatWin {
                    plies,
                    line: self.lines[0].clone(),
                });
                break;
            }
            if self.aborted || self.cuts == cuts {
                break;
            }
        }
        self.stop = None;
        win
    }

    /// As [`ThreatSolver::solve`], for the side that is not to move, as if it had the move:
    /// what the opponent threatens. The board is left as it was.
    pub fn solve_for_opponent(
        &mut self,
        board: &mut Board,
        kind: ThreatKind,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        let them = board.side_to_move().opponent();
        self.solve_for(board, them, kind, limits)
    }

    /// The win of `attacker`, to move or not (then as if it had the move: what it threatens).
    pub fn solve_for(
        &mut self,
        board: &mut Board,
        attacker: Player,
        kind: ThreatKind,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        self.search_for(board, attacker, ThreatSearch::Deepening, kind, limits)
    }

    /// As [`ThreatSolver::solve_for`], by either search.
    pub fn search_for(
        &mut self,
        board: &mut Board,
        attacker: Player,
        search: ThreatSearch,
        kind: ThreatKind,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        let passed = attacker != board.side_to_move();
        if passed {
            board.pass();
        }
        let win = match search {
            ThreatSearch::Deepening => self.solve(board, kind, limits),
            ThreatSearch::Proof => self.prove(board, kind, limits),
        };
        if passed {
            board.pass();
        }
        win
    }

    /// Sets up a search of `kind` within `limits`; false when the game is over (nothing to
    /// search).
    fn begin(&mut self, board: &Board, kind: ThreatKind, limits: &ThreatLimits) -> bool {
        self.aborted = false;
        self.kind = kind;
        self.quiet_vcf = match kind {
            ThreatKind::Vcf => 0,
            ThreatKind::Vct => limits.quiet_vcf.min(MAX_QUIET_VCF),
        };
        self.salt = salt(kind, self.quiet_vcf, board);
        self.budget_end = limits
            .nodes
            .map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.next_check = self.nodes;
        self.deadline = limits.deadline;
        self.stop = limits.stop.clone();
        board.result().is_none()
    }

    /// Whether a limit has been reached; the clock and the flag are read every
    /// `CHECK_EVERY` nodes only.
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.budget_end {
            self.aborted = true;
        } else if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let stopped = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            self.aborted = late || stopped;
        }
        self.aborted
    }

    /// Attacker to move: plies to the end of the game if it wins with at most `attacks`
    /// more moves (the five not counted).
    fn attack(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<u32> {
        self.nodes += 1;
        self.lines[ply].clear();
        let me = board.side_to_move();
        let them = me.opponent();
        if board.threats(me).five > 0 {
            find_fives(board, me, &mut self.fives);
            self.lines[ply].push(self.fives[0]);
            return Some(1);
        }
        if attacks == 0 {
            self.cuts += 1;
            return None;
        }
        if self.out_of_budget() {
            return None;
        }
        let key = board.hash() ^ self.salt;
        let known = self.probe(key);
        if never_wins(known) {
            return None;
        }
        if no_win_within(known) >= attacks {
            // Proven for this depth only: a deeper search might still win here.
            self.cuts += 1;
            return None;
        }
        let cuts = self.cuts;
        let mut candidates = self.moves.take(2 * ply);
        if board.threats(them).five > 0 {
            // The defender threatens five: block it. Two five points cannot both be blocked,
            // and in a VCF the block must be a four of ours.
            find_fives(board, them, &mut candidates);
            if candidates.len() > 1
                || (self.kind == ThreatKind::Vcf && !board.makes_four(candidates[0], me))
            {
                candidates.clear();
            }
        } else {
            self.attack_moves(board, me, attacks, &mut candidates);
            if let Some(best) = best_move(known) {
                if let Some(i) = candidates.iter().position(|&p| p == best) {
                    candidates[..=i].rotate_right(1);
                }
            }
        }
        let mut found = None;
        for &p in &candidates {
            board.play(p);
            // A result here is a renju foul (the attacker had no five) or a full board.
            let line = if board.result().is_none() {
                self.defend(board, attacks - 1, ply + 1)
            } else {
                None
            };
            board.undo();
            if let Some(plies) = line {
                extend_line(&mut self.lines, ply, p);
                found = Some((plies + 1, p));
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.moves.give(2 * ply, candidates);
        if !self.aborted {
            self.remember(key, attacks, found.map(|f| f.1), self.cuts == cuts);
        }
        found.map(|f| f.0)
    }

    /// The attacker's threat moves, best first: fours; in a VCT open threes (which need two
    /// more moves to win, the straight four and then the five); and with quiet threats on,
    /// after those, the moves that add to a line of ours (whether one threatens a VCF is
    /// settled at the defender's node).
    fn attack_moves(&mut self, board: &Board, me: Player, attacks: u32, out: &mut Vec<Point>) {
        let t = board.threats(me);
        let vct = self.kind == ThreatKind::Vct && t.open_three > 0;
        let threes = vct && attacks >= 2;
        // A quiet move and the VCF it threatens take two attacker moves at least.
        let quiet = self.quiet_vcf > 0 && attacks >= 2;
        if (vct && !threes) || (self.quiet_vcf > 0 && !quiet) {
            self.cuts += 1;
        }
        if t.four == 0 && !threes && !quiet {
            return;
        }
        let them = me.opponent();
        let history = board.moves();
        let recent = [history.len().checked_sub(1), history.len().checked_sub(2)]
            .map(|i| i.map(|i| history[i]));
        // A quiet threat adds a stone to an open two or a closed three: the VCF it prepares
        // runs through it.
        let lowest = if quiet {
            Shape::OpenTwo
        } else if threes {
            Shape::OpenThree
        } else {
            Shape::Four
        };
        self.keyed.clear();
        for p in Near::shapes_of(board, me, lowest, Shape::OpenFour) {
            let four = board.makes_four(p, me);
            // Threats in several lines first (a four that also makes a three is most of a
            // win), then what the point denies the defender, then closeness to the fight.
            let mut rank = hand_priority(board, p, me) * 2 + hand_priority(board, p, them);
            if four {
                rank += FOUR_FIRST;
            } else if quiet && !(threes && board.shapes(p, me).contains(&Shape::OpenThree)) {
                rank -= QUIET_LAST;
            }
            for q in recent.into_iter().flatten() {
                let d = p.x().abs_diff(q.x()).max(p.y().abs_diff(q.y()));
                rank += 8 * 3usize.saturating_sub(d) as i32;
            }
            self.keyed.push((rank, p));
        }
        // Ties broken by the point, so the search stays deterministic; the unstable sort
        // does not allocate.
        self.keyed
            .sort_unstable_by_key(|&(rank, p)| (Reverse(rank), p));
        out.extend(self.keyed.iter().map(|&(_, p)| p));
    }
}
