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

use crate::board::Board;
use crate::geometry::DIRS;
use crate::movegen::hand_priority;
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::{Shape, REACH};
use std::cmp::Reverse;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;
use wuzi_search::{MoveStack, Player};

/// Which threats the attacker may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ThreatKind {
    /// Fours only: every defender reply is forced.
    Vcf,
    /// Fours and open threes.
    Vct,
}

/// When a threat search gives up (it then reports no win).
#[derive(Clone, Debug, Default)]
pub struct ThreatLimits {
    /// The most attacker moves a win may take, the five not counted (a straight four is an
    /// attacker move like any other). At most [`MAX_THREAT_ATTACKS`] are searched.
    pub max_attacks: u32,
    /// Nodes this call may visit.
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    /// Set by another thread to stop the search.
    pub stop: Option<Arc<AtomicBool>>,
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
}

/// The most attacker moves searched, whatever the limits say (lines stay within `MAX_LINE`).
pub const MAX_THREAT_ATTACKS: u32 = 120;
/// Longest line, in plies: two per attacker move, the five, and room for the last defence.
const MAX_LINE: usize = 2 * MAX_THREAT_ATTACKS as usize + 4;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 256;
/// Table entries per bucket (one 64-byte cache line).
const BUCKET: usize = 4;

// A table entry is `[key, data]`; `data` packs what is known about the position.
/// No win exists within this many attacker moves (bits 0..8).
const NO_WIN_SHIFT: u32 = 0;
/// A win with at most this many attacker moves is proven (bits 8..16; 0: none known).
const WIN_SHIFT: u32 = 8;
/// The winning move's index plus one (bits 16..32).
const BEST_SHIFT: u32 = 16;
/// No win at all: the search below was never cut short by the move limit.
const FINAL_BIT: u64 = 1 << 32;

fn field(data: u64, shift: u32) -> u32 {
    (data >> shift) as u32 & 0xFF
}

fn best_move(data: u64) -> Option<Point> {
    let v = (data >> BEST_SHIFT) as usize & 0xFFFF;
    v.checked_sub(1).and_then(Point::from_index)
}

/// How much an entry is worth keeping: the depth its result holds for.
fn entry_depth(data: u64) -> u32 {
    if data & FINAL_BIT != 0 {
        u32::MAX
    } else {
        field(data, NO_WIN_SHIFT).max(field(data, WIN_SHIFT))
    }
}

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
    /// Mixed into table keys: the same stones under another kind, rule or size are another
    /// position.
    salt: u64,
}

impl ThreatSolver {
    /// A solver whose table takes at most `table_bytes` bytes (none below one bucket).
    pub fn new(table_bytes: usize) -> ThreatSolver {
        let entry = std::mem::size_of::<[u64; 2]>();
        let buckets = table_bytes / (entry * BUCKET);
        let len = if buckets == 0 {
            0
        } else {
            BUCKET << (usize::BITS - 1 - buckets.leading_zeros())
        };
        // Zeros, so the memory comes from the allocator already cleared; but it is then mapped
        // lazily, page by page, on the first search's clock: touch every page now.
        // (`black_box` hides that the memory is zero, so the writes are not optimised away.)
        let mut table = std::hint::black_box(vec![[0u64; 2]; len]);
        for slot in table.iter_mut().step_by(4096 / entry) {
            *slot = [0; 2];
        }
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
            salt: 0,
        }
    }

    /// Positions visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
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
        if board.result().is_some() {
            return None;
        }
        self.kind = kind;
        self.salt = salt(kind, board);
        self.budget_end = limits
            .nodes
            .map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.next_check = self.nodes;
        self.deadline = limits.deadline;
        self.stop = limits.stop.clone();
        self.aborted = false;
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
        board.pass();
        let win = self.solve(board, kind, limits);
        board.pass();
        win
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

    fn bucket(&self, key: u64) -> usize {
        (key as usize & (self.table.len() / BUCKET - 1)) * BUCKET
    }

    /// What the table knows about `key` (0: nothing).
    fn probe(&self, key: u64) -> u64 {
        if self.table.is_empty() {
            return 0;
        }
        let b = self.bucket(key);
        self.table[b..b + BUCKET]
            .iter()
            .find(|e| e[0] == key)
            .map_or(0, |e| e[1])
    }

    /// Records the result of an attacker node searched with `attacks` moves to go: its
    /// winning move, or no win (`final`: for any number of moves).
    fn remember(&mut self, key: u64, attacks: u32, win: Option<Point>, final_: bool) {
        if self.table.is_empty() {
            return;
        }
        let b = self.bucket(key);
        let bucket = &mut self.table[b..b + BUCKET];
        let i = match bucket.iter().position(|e| e[0] == key) {
            Some(i) => i,
            None => {
                // Replace the shallowest entry (the first of equals: deterministic).
                let i = (0..BUCKET)
                    .min_by_key(|&i| entry_depth(bucket[i][1]))
                    .expect("a bucket has entries");
                bucket[i] = [key, 0];
                i
            }
        };
        let mut data = bucket[i][1];
        let attacks = attacks.min(255);
        match win {
            Some(p) => {
                let known = field(data, WIN_SHIFT);
                if known == 0 || attacks <= known {
                    data &= !(0xFF << WIN_SHIFT | 0xFFFF << BEST_SHIFT);
                    data |= (attacks as u64) << WIN_SHIFT | (p.index() as u64 + 1) << BEST_SHIFT;
                }
            }
            None => {
                if attacks > field(data, NO_WIN_SHIFT) {
                    data = data & !(0xFF << NO_WIN_SHIFT) | (attacks as u64) << NO_WIN_SHIFT;
                }
                if final_ {
                    data |= FINAL_BIT;
                }
            }
        }
        bucket[i][1] = data;
    }

    /// The line of a move followed by the line found below it.
    fn extend_line(&mut self, ply: usize, mv: Point) {
        let (here, below) = self.lines.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&below[0]);
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
        if known & FINAL_BIT != 0 {
            return None;
        }
        if field(known, NO_WIN_SHIFT) >= attacks {
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
                self.extend_line(ply, p);
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

    /// The attacker's threat moves, best first: fours, and in a VCT open threes (which need
    /// two more moves to win, the straight four and then the five).
    fn attack_moves(&mut self, board: &Board, me: Player, attacks: u32, out: &mut Vec<Point>) {
        let t = board.threats(me);
        let vct = self.kind == ThreatKind::Vct && t.open_three > 0;
        let threes = vct && attacks >= 2;
        if vct && !threes {
            self.cuts += 1;
        }
        if t.four == 0 && !threes {
            return;
        }
        let them = me.opponent();
        let history = board.moves();
        let recent = [history.len().checked_sub(1), history.len().checked_sub(2)]
            .map(|i| i.map(|i| history[i]));
        let lowest = if threes {
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
                rank += 10_000;
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

    /// Defender to move after a threat: plies to the attacker's five if every defence fails
    /// with at most `attacks` more attacker moves.
    fn defend(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<u32> {
        self.nodes += 1;
        self.lines[ply].clear();
        let defender = board.side_to_move();
        let attacker = defender.opponent();
        if board.threats(defender).five > 0 {
            return None;
        }
        if board.threats(attacker).five > 0 {
            find_fives(board, attacker, &mut self.fives);
            if self.fives.len() >= 2 {
                return Some(self.unstoppable(board, ply));
            }
            let block = self.fives[0];
            board.play(block);
            let line = match board.result() {
                // The only block is forbidden for Black: it loses by playing it.
                Some(r) if r.winner == Some(attacker) => {
                    self.lines[ply + 1].clear();
                    Some(0)
                }
                Some(_) => None,
                None => self.attack(board, attacks, ply + 1),
            };
            board.undo();
            let plies = line?;
            self.extend_line(ply, block);
            return Some(plies + 1);
        }
        if self.kind == ThreatKind::Vcf {
            return None;
        }
        if attacks == 0 {
            // The straight four would be one attacker move too many.
            self.cuts += 1;
            return None;
        }
        self.defend_three(board, attacks, ply, defender, attacker)
    }

    /// Two attacker five points: the line is one block and the other five. A Black defender
    /// blocks on a legal point if it has one; if both are forbidden the line ends with its
    /// foul.
    fn unstoppable(&mut self, board: &mut Board, ply: usize) -> u32 {
        let (mut block, mut five) = (self.fives[0], self.fives[1]);
        let fouls = board.rule().has_fouls(board.side_to_move());
        if fouls && board.foul(block).is_some() {
            if board.foul(five).is_some() {
                self.lines[ply].push(block);
                return 1;
            }
            std::mem::swap(&mut block, &mut five);
        }
        self.lines[ply].push(block);
        self.lines[ply].push(five);
        2
    }

    /// The attacker has made an open three (no five point): every defence is searched.
    fn defend_three(
        &mut self,
        board: &mut Board,
        attacks: u32,
        ply: usize,
        defender: Player,
        attacker: Player,
    ) -> Option<u32> {
        let mut fours = self.moves.take(2 * ply);
        let (legal, wide) = self.straight_fours(board, attacker, &mut fours);
        if !legal || has_legal_straight_four(board, defender) {
            // No threat after all, or the defender's own straight four wins the race.
            self.moves.give(2 * ply, fours);
            return None;
        }
        let mut defences = self.moves.take(2 * ply + 1);
        self.defences(board, defender, &fours, wide, &mut defences);
        self.moves.give(2 * ply, fours);
        let mut worst: Option<u32> = None;
        let mut held = false;
        for &m in &defences {
            board.play(m);
            let line = match board.result() {
                None => self.attack(board, attacks, ply + 1),
                // Black's foul: no defence, the defender does not choose it.
                Some(r) if r.winner == Some(attacker) => {
                    board.undo();
                    continue;
                }
                Some(_) => None,
            };
            board.undo();
            match line {
                None => {
                    held = true;
                    break;
                }
                Some(plies) => {
                    if worst < Some(plies) {
                        worst = Some(plies);
                        self.extend_line(ply, m);
                    }
                }
            }
        }
        self.moves.give(2 * ply + 1, defences);
        if held || self.aborted {
            return None;
        }
        match worst {
            Some(plies) => Some(plies + 1),
            None => self.no_defence(board, attacks, ply),
        }
    }

    /// Nothing stops the straight four: the defender plays any legal move and the attacker
    /// wins from there (searched, so that the line is a real one).
    fn no_defence(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<u32> {
        let attacker = board.side_to_move().opponent();
        for m in Near::near_stones(board) {
            board.play(m);
            let line = match board.result() {
                None => self.attack(board, attacks, ply + 1),
                // A foul: try another point.
                Some(r) if r.winner == Some(attacker) => {
                    board.undo();
                    continue;
                }
                // A full board: a draw (which the open three makes impossible anyway).
                Some(_) => None,
            };
            board.undo();
            let plies = line?;
            self.extend_line(ply, m);
            return Some(plies + 1);
        }
        None
    }

    /// Collects `colour`'s straight-four points, legal or not (a defence may make a
    /// forbidden one legal). Returns whether one is legal, and whether the defender could
    /// also make one forbidden (a legal point with two open threes, fake for now: a stone
    /// anywhere may make one of them real), which widens the defences to every point.
    fn straight_fours(
        &mut self,
        board: &mut Board,
        colour: Player,
        out: &mut Vec<Point>,
    ) -> (bool, bool) {
        if board.threats(colour).open_four == 0 {
            return (false, false);
        }
        let fouls = board.rule().has_fouls(colour);
        let (mut legal, mut wide) = (false, false);
        for p in Near::shapes_of(board, colour, Shape::OpenFour, Shape::OpenFour) {
            let shapes = board.shapes(p, colour);
            out.push(p);
            if !fouls {
                legal = true;
            } else if board.foul(p).is_none() {
                legal = true;
                wide |= shapes.iter().filter(|&&s| s == Shape::OpenThree).count() >= 2;
            }
        }
        (legal, wide)
    }

    /// With a defence just played: whether the attacker still has a legal straight four.
    /// Stones of the defender's only take shapes away, so the points collected before
    /// (`fours`) are the only candidates; the count check makes sure of it.
    fn still_threatened(board: &mut Board, attacker: Player, fours: &[Point]) -> bool {
        let total = board.threats(attacker).open_four;
        if total == 0 {
            return false;
        }
        let fouls = board.rule().has_fouls(attacker);
        let mut counted = 0;
        for &q in fours {
            if !board.is_empty(q) {
                continue;
            }
            let n = board
                .shapes(q, attacker)
                .iter()
                .filter(|&&s| s == Shape::OpenFour)
                .count() as u32;
            if n == 0 {
                continue;
            }
            counted += n;
            if !fouls || board.foul(q).is_none() {
                return true;
            }
        }
        counted < total && has_legal_straight_four(board, attacker)
    }

    /// Every defence worth searching against the attacker's straight-four points `fours`
    /// (one of them legal), best first: the defender's fours, and the moves after which no
    /// legal straight four is left. Without `wide`, such a move must take a legal straight
    /// four away along its line (within five points of it), since the defender cannot make
    /// it forbidden; with `wide`, every empty point is tried.
    fn defences(
        &mut self,
        board: &mut Board,
        defender: Player,
        fours: &[Point],
        wide: bool,
        out: &mut Vec<Point>,
    ) {
        let attacker = defender.opponent();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.fill(0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        self.keyed.clear();
        if board.threats(defender).four > 0 {
            for p in Near::shapes_of(board, defender, Shape::Four, Shape::OpenFour) {
                self.seen[p.index()] = stamp;
                // Fours first: a four that also blocks is the usual refutation.
                let rank = 10_000
                    + hand_priority(board, p, attacker) * 2
                    + hand_priority(board, p, defender);
                self.keyed.push((rank, p));
            }
        }
        // Blocks: every empty point, or the points along a legal straight four's line.
        let blocks = if wide {
            Near::empty_points(board)
        } else {
            let mut blocks = Near::none();
            let fouls = board.rule().has_fouls(attacker);
            let q = fours
                .iter()
                .copied()
                .find(|&q| !fouls || board.foul(q).is_none())
                .expect("a legal straight four");
            let d = board
                .shapes(q, attacker)
                .iter()
                .position(|&s| s == Shape::OpenFour)
                .expect("a straight four");
            for k in -(REACH as isize)..=REACH as isize {
                if let Some(p) = DIRS[d].step(q, k, board.size()) {
                    if board.is_empty(p) {
                        blocks.insert(p);
                    }
                }
            }
            blocks
        };
        for p in blocks {
            if self.seen[p.index()] == stamp {
                continue;
            }
            self.seen[p.index()] = stamp;
            let rank = hand_priority(board, p, attacker) * 2 + hand_priority(board, p, defender);
            board.play(p);
            let stops = board.result().is_none() && !Self::still_threatened(board, attacker, fours);
            board.undo();
            if stops {
                self.keyed.push((rank, p));
            }
        }
        self.keyed
            .sort_unstable_by_key(|&(rank, p)| (Reverse(rank), p));
        out.extend(self.keyed.iter().map(|&(_, p)| p));
    }
}

/// A salt for table keys per kind, rule and board size.
fn salt(kind: ThreatKind, board: &Board) -> u64 {
    let v = (kind as u64) << 16 | (board.rule() as u64) << 8 | board.size() as u64;
    // splitmix64 finaliser: a well-mixed constant per combination.
    let mut z = v.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The distinct points where `colour` makes five (it has some), in `out` (cleared first).
/// Looked for along the lines of the last move, which made them in every position the
/// search reaches but the first; the whole board is scanned only when the per-direction
/// count says some are elsewhere.
fn find_fives(board: &Board, colour: Player, out: &mut Vec<Point>) {
    out.clear();
    let total = board.threats(colour).five;
    // (point, direction) pairs found: a five the last move made runs along its own line.
    let mut counted = 0;
    if let Some(last) = board.last_move() {
        for d in 0..4 {
            // The shapes of the line from five before `last` to five after it (padding
            // and stones read as no shape).
            let (l, q, _) = board.locate(last, d);
            let cells = &board.shapes[colour.index()][d][l][q..=q + 2 * REACH];
            for (i, &s) in cells.iter().enumerate() {
                if s == Shape::Five as u8 {
                    counted += 1;
                    out.push(board.line_point(d, l, q + i - REACH));
                }
            }
        }
    }
    if counted < total {
        out.clear();
        out.extend(Near::shapes_of(board, colour, Shape::Five, Shape::Five));
    }
}

/// A set of points as one bitmask per row, iterated row by row. It owns its masks, so the
/// board stays free to play on while it is walked, and it costs no allocation.
struct Near {
    rows: [u32; MAX_SIZE],
    y: usize,
}

impl Near {
    fn none() -> Near {
        Near {
            rows: [0; MAX_SIZE],
            y: 0,
        }
    }

    /// The stones of each row, as bitmasks.
    fn stone_rows(board: &Board) -> [u32; MAX_SIZE] {
        let row_mask = (1u32 << board.size()) - 1;
        let mut rows = [0u32; MAX_SIZE];
        for (y, row) in rows.iter_mut().enumerate().take(board.size()) {
            *row = ((board.bits[0][0][y] | board.bits[1][0][y]) >> REACH) & row_mask;
        }
        rows
    }

    /// The empty points within two points of a stone, in every direction: rows of stones
    /// widened by two each way and OR-ed over five rows.
    fn near_stones(board: &Board) -> Near {
        let n = board.size();
        let row_mask = (1u32 << n) - 1;
        let stones = Near::stone_rows(board);
        let mut near = Near::none();
        for y in 0..n {
            let mut m = 0;
            for &r in &stones[y.saturating_sub(2)..=(y + 2).min(n - 1)] {
                m |= r | r << 1 | r << 2 | r >> 1 | r >> 2;
            }
            near.rows[y] = m & row_mask & !stones[y];
        }
        near
    }

    /// Every empty point.
    fn empty_points(board: &Board) -> Near {
        let n = board.size();
        let row_mask = (1u32 << n) - 1;
        let occupied = Near::stone_rows(board);
        let mut near = Near::none();
        for (row, &stones) in near.rows.iter_mut().zip(&occupied).take(n) {
            *row = row_mask & !stones;
        }
        near
    }

    /// The empty points where `colour` makes a shape in `lo..=hi` in some direction: the
    /// shape bytes of each line tested eight at a time (occupied points and the padding hold
    /// no shape), far cheaper than looking up every point near the stones.
    fn shapes_of(board: &Board, colour: Player, lo: Shape, hi: Shape) -> Near {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // Shape bytes are below 128, so adding these sets a byte's high bit exactly when it
        // is `>= lo`, or `> hi`, without carrying into the next byte.
        let at_least_lo = (128 - lo as u64) * ONES;
        let above_hi = (127 - hi as u64) * ONES;
        let mut near = Near::none();
        let c = colour.index();
        for d in 0..4 {
            for l in 0..board.line_count(d) {
                if board.bits[c][d][l] == 0 {
                    continue;
                }
                for (k, chunk) in board.shapes[c][d][l].chunks_exact(8).enumerate() {
                    let x = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
                    let mut m = x.wrapping_add(at_least_lo) & !x.wrapping_add(above_hi) & HIGH;
                    while m != 0 {
                        let i = k * 8 + m.trailing_zeros() as usize / 8;
                        m &= m - 1;
                        near.insert(board.line_point(d, l, i - REACH));
                    }
                }
            }
        }
        near
    }

    fn insert(&mut self, p: Point) {
        self.rows[p.y()] |= 1 << p.x();
    }
}

impl Iterator for Near {
    type Item = Point;

    fn next(&mut self) -> Option<Point> {
        while self.y < MAX_SIZE {
            let row = &mut self.rows[self.y];
            if *row != 0 {
                let x = row.trailing_zeros() as usize;
                *row &= *row - 1;
                return Some(Point::new(x, self.y));
            }
            self.y += 1;
        }
        None
    }
}

/// Whether `colour` has a legal straight-four point (an open three it may complete).
fn has_legal_straight_four(board: &mut Board, colour: Player) -> bool {
    if board.threats(colour).open_four == 0 {
        return false;
    }
    let fouls = board.rule().has_fouls(colour);
    Near::shapes_of(board, colour, Shape::OpenFour, Shape::OpenFour)
        .any(|p| !(fouls && board.foul(p).is_some()))
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_moves;
    use crate::rules::Rule;

    const BLACK: Player = Player::First;
    const WHITE: Player = Player::Second;

    /// A 15x15 position from stone lists.
    fn board(rule: Rule, black: &str, white: &str, to_move: Player) -> Board {
        let b = parse_moves(black, 15).unwrap();
        let w = parse_moves(white, 15).unwrap();
        Board::from_stones(15, rule, &b, &w, Some(to_move)).unwrap()
    }

    /// A position drawn as text: `X` Black, `O` White, `.` empty; the first row is the top,
    /// and the board is as large as the drawing is tall.
    fn drawn(rule: Rule, picture: &str, to_move: Player) -> Board {
        let rows: Vec<&str> = picture
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let (mut black, mut white) = (Vec::new(), Vec::new());
        for (y, row) in rows.iter().enumerate() {
            let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
            assert_eq!(cells.len(), rows.len(), "row {y} of a square drawing");
            for (x, c) in cells.into_iter().enumerate() {
                match c {
                    'X' => black.push(Point::new(x, y)),
                    'O' => white.push(Point::new(x, y)),
                    '.' => {}
                    _ => panic!("unknown cell {c}"),
                }
            }
        }
        Board::from_stones(rows.len(), rule, &black, &white, Some(to_move)).unwrap()
    }

    fn limits(max_attacks: u32) -> ThreatLimits {
        ThreatLimits {
            max_attacks,
            nodes: Some(2_000_000),
            ..ThreatLimits::default()
        }
    }

    /// Solves with a fresh solver, checks the board is left as it was and the win survives a
    /// full-width check, and returns (plies, first move).
    fn solve(board: &mut Board, kind: ThreatKind, max_attacks: u32) -> Option<(u32, String)> {
        let before = (board.hash(), board.moves().len(), board.side_to_move());
        let win = ThreatSolver::new(1 << 20).solve(board, kind, &limits(max_attacks));
        assert_eq!(
            (board.hash(), board.moves().len(), board.side_to_move()),
            before,
            "the board is left as it was"
        );
        if let Some(w) = &win {
            check_line(board, w);
            let mut solver = ThreatSolver::new(1 << 16);
            assert!(
                verify(board, &mut solver, kind, max_attacks),
                "{board:?}: {w:?} fails the full-width check"
            );
        }
        win.map(|w| (w.plies, w.first().to_human(board.size())))
    }

    /// The line is played legally and ends the game in the attacker's favour exactly at its
    /// end, after `plies` moves.
    fn check_line(board: &Board, win: &ThreatWin) {
        let mut b = board.clone();
        let attacker = b.side_to_move();
        assert_eq!(win.plies as usize, win.line.len(), "{win:?}");
        for (i, &p) in win.line.iter().enumerate() {
            assert!(b.result().is_none(), "{win:?}: over before move {i}");
            b.try_play(p).unwrap();
        }
        assert_eq!(
            b.result().map(|r| r.winner),
            Some(Some(attacker)),
            "{win:?}"
        );
    }

    /// A claimed win checked by brute force: the attacker plays the solver's first move and
    /// every reply on every empty point must lose at once or leave a position the solver
    /// proves again, with one attacker move fewer. Defences the solver skipped are played
    /// here too, so a win that a skipped defence refutes fails.
    fn verify(
        board: &mut Board,
        solver: &mut ThreatSolver,
        kind: ThreatKind,
        attacks: u32,
    ) -> bool {
        let attacker = board.side_to_move();
        let Some(win) = solver.solve(board, kind, &limits(attacks)) else {
            return false;
        };
        board.play(win.first());
        let ok = match board.result() {
            Some(r) => r.winner == Some(attacker),
            None => {
                let replies: Vec<Point> = board.points().filter(|&p| board.is_empty(p)).collect();
                replies.into_iter().all(|reply| {
                    board.play(reply);
                    let ok = match board.result() {
                        Some(r) => r.winner == Some(attacker),
                        None => attacks > 0 && verify(board, solver, kind, attacks - 1),
                    };
                    board.undo();
                    ok
                })
            }
        };
        board.undo();
        ok
    }

    /// An independent VCF search: every move that makes a five point for the attacker, every
    /// forced block, straight from the rules.
    fn brute_vcf(board: &mut Board, attacks: u32) -> bool {
        let me = board.side_to_move();
        let them = me.opponent();
        let fives = |b: &Board, c: Player| -> Vec<Point> {
            b.points()
                .filter(|&p| b.is_empty(p) && b.shapes(p, c).contains(&Shape::Five))
                .collect()
        };
        if !fives(board, me).is_empty() {
            return true;
        }
        if attacks == 0 {
            return false;
        }
        let theirs = fives(board, them);
        let moves: Vec<Point> = match theirs.len() {
            0 => board.points().filter(|&p| board.is_empty(p)).collect(),
            1 => theirs,
            _ => return false,
        };
        moves.into_iter().any(|p| {
            board.play(p);
            let win = board.result().is_none() && {
                let mine = fives(board, me);
                if mine.is_empty() || !fives(board, them).is_empty() {
                    false
                } else if mine.len() >= 2 {
                    true
                } else {
                    board.play(mine[0]);
                    let win = match board.result() {
                        Some(r) => r.winner == Some(me),
                        None => brute_vcf(board, attacks - 1),
                    };
                    board.undo();
                    win
                }
            };
            board.undo();
            win
        })
    }

    #[test]
    fn an_open_three_wins_by_continuous_fours() {
        for rule in Rule::ALL {
            let mut b = board(rule, "h8 i8 j8", "a1 a15 o1", BLACK);
            let (plies, _) = solve(&mut b, ThreatKind::Vcf, 4).unwrap();
            assert_eq!(plies, 3, "{rule}: open four, block, five");
        }
    }

    /// e7 fours down column e (five at e6) and f7 down column f (five at f6), in either order;
    /// the second also fours along row 7 (c7-d7-e7-f7, five at g7): a double four, which
    /// renju forbids Black, and nothing else works there. (White g4 closes the diagonal
    /// d7-e6-f5, which would otherwise give e6 a four-three.)
    #[test]
    fn a_drawn_vcf_of_two_fours() {
        let picture = "
            . . . . O . . . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . . . . X . . . . . .
            . O X X . . . . . . .
            . . . . . . . . . . .
            . . . . . X . . . . .
            . . . . . X O . . . .
            . . . . . X . . . . .
            . . . . . O . . . . .
            . . . . . . . . . . .";
        for rule in Rule::ALL {
            let mut b = drawn(rule, picture, BLACK);
            let vcf = solve(&mut b, ThreatKind::Vcf, 4);
            if rule == Rule::Renju {
                assert_eq!(vcf, None, "f7 is a double four");
            } else {
                let (plies, first) = vcf.unwrap();
                assert!(
                    plies == 5 && (first == "e7" || first == "f7"),
                    "{rule}: {first}"
                );
            }
        }
    }

    #[test]
    fn a_double_three_is_a_vct_but_no_vcf_and_a_foul_in_renju() {
        // j8 makes h8-i8-j8 and j8-(j9)-j10-j11 open at once.
        for rule in Rule::ALL {
            let mut b = board(rule, "h8 i8 j10 j11", "a1 a15 o1 o15", BLACK);
            assert_eq!(solve(&mut b, ThreatKind::Vcf, 10), None, "{rule}");
            let vct = solve(&mut b, ThreatKind::Vct, 2);
            if rule == Rule::Renju {
                assert_eq!(vct, None, "j8 is a double three, forbidden for Black");
            } else {
                assert_eq!(vct, Some((5, "j8".into())), "{rule}");
            }
        }
        // White may make a double three under renju.
        let mut b = board(Rule::Renju, "a1 a15 o1 o15 n14", "h8 i8 j10 j11", WHITE);
        assert_eq!(solve(&mut b, ThreatKind::Vct, 10), Some((5, "j8".into())));
    }

    /// Black h8 i8, j11, and the closed three k10 l10 m10 (White n10). j8 makes the open
    /// three h8-i8-j8, whose only defences are g8 and k8 (White has no four); then j10 fours
    /// along row 10 (five at i10) and makes the split three j8-_-j10-j11: a four-three.
    /// Three attacker moves, and no VCF. In freestyle j10 first and j8 second (then a double
    /// three) wins as fast, but under renju only the three-first order is legal.
    #[test]
    fn an_open_three_then_a_four_three() {
        const BLACK_STONES: &str = "h8 i8 j11 k10 l10 m10";
        for rule in Rule::ALL {
            let mut b = board(rule, BLACK_STONES, "n10 a1 a15 o1", BLACK);
            assert_eq!(solve(&mut b, ThreatKind::Vcf, 10), None, "{rule}");
            assert_eq!(
                solve(&mut b, ThreatKind::Vct, 2),
                None,
                "{rule}: not in two"
            );
            let (plies, first) = solve(&mut b, ThreatKind::Vct, 10).unwrap();
            assert_eq!(plies, 7, "{rule}");
            if rule == Rule::Renju {
                assert_eq!(first, "j8");
            }
        }
        // Without the closed three the three leads nowhere so soon.
        let mut b = board(Rule::Renju, "h8 i8 j11", "a1 a15 o1", BLACK);
        assert_eq!(solve(&mut b, ThreatKind::Vct, 3), None);
    }

    /// Black k8 fours along row 8 (h8 i8 j8, White g8) and White must block at l8; then k9
    /// would make the straight four k8-k11. But White's l9 l10 l11 (closed by Black l12) turn
    /// the forced block l8 into a White four: Black must answer at l7, which is no four, and
    /// the VCF is gone. A solver that ignored the defender's fours would claim it.
    #[test]
    fn a_counter_four_from_a_forced_block_breaks_a_vcf() {
        for rule in Rule::ALL {
            let mut with = board(rule, "h8 i8 j8 k10 k11 l12", "g8 l9 l10 l11 a1 a15", BLACK);
            assert_eq!(solve(&mut with, ThreatKind::Vcf, 10), None, "{rule}");
            let mut without = board(rule, "h8 i8 j8 k10 k11 l12", "g8 a1 a15", BLACK);
            assert_eq!(
                solve(&mut without, ThreatKind::Vcf, 10),
                Some((5, "k8".into())),
                "{rule}"
            );
        }
    }

    #[test]
    fn a_counter_four_of_the_defender_refutes_a_slow_threat() {
        // As the double three above, but White has an open three of its own: answering
        // Black's double three with a straight four wins for White, so Black has no VCT.
        let mut b = board(
            Rule::Freestyle,
            "h8 i8 j10 j11 a14",
            "c3 c4 c5 o1 o15",
            BLACK,
        );
        assert_eq!(solve(&mut b, ThreatKind::Vct, 10), None);
        // White, given the move, wins by continuous fours.
        let mut ts = ThreatSolver::new(1 << 20);
        let white = ts
            .solve_for_opponent(&mut b, ThreatKind::Vcf, &limits(4))
            .unwrap();
        assert_eq!(white.plies, 3);
        assert_eq!(b.side_to_move(), BLACK, "the pass is undone");
        assert_eq!(b.hash(), b.hash_from_scratch());
    }

    /// Black: h8 i8 j8 (White g8) and k5 k6 k7 (White k4): k8 makes two fours.
    const DOUBLE_FOUR_BLACK: &str = "h8 i8 j8 k5 k6 k7";
    const DOUBLE_FOUR_WHITE: &str = "g8 k4 a1 a15 o1 o15";

    #[test]
    fn a_forbidden_double_four_is_no_win_for_black_in_renju() {
        for rule in [Rule::Freestyle, Rule::Standard] {
            let mut b = board(rule, DOUBLE_FOUR_BLACK, DOUBLE_FOUR_WHITE, BLACK);
            assert_eq!(solve(&mut b, ThreatKind::Vcf, 10), Some((3, "k8".into())));
        }
        let mut renju = board(Rule::Renju, DOUBLE_FOUR_BLACK, DOUBLE_FOUR_WHITE, BLACK);
        assert_eq!(solve(&mut renju, ThreatKind::Vcf, 10), None);
        // Black still has a slower win (i7 makes the split three h8-i7-_-k5), never via k8.
        let (plies, first) = solve(&mut renju, ThreatKind::Vct, 10).unwrap();
        assert_eq!((plies, first.as_str()), (7, "i7"));
    }

    #[test]
    fn white_wins_when_blacks_only_block_is_forbidden() {
        // White g4-h5-i6 on the diagonal (Black f3 below it): j7 makes a four whose only five
        // point is k8, where Black may not play (a double four).
        let black = format!("{DOUBLE_FOUR_BLACK} f3");
        let white = "g8 k4 g4 h5 i6 a15 o1";
        let mut renju = board(Rule::Renju, &black, white, WHITE);
        assert_eq!(
            solve(&mut renju, ThreatKind::Vcf, 10),
            Some((2, "j7".into()))
        );
        for rule in [Rule::Freestyle, Rule::Standard] {
            let mut b = board(rule, &black, white, WHITE);
            assert_ne!(solve(&mut b, ThreatKind::Vcf, 10), Some((2, "j7".into())));
        }
    }

    #[test]
    fn six_in_a_row_wins_only_where_the_rule_says() {
        // Black d8 e8 f8 _ h8 i8 (White c8 and j8): g8 makes six. A five in freestyle; no
        // five, and no four behind it, in standard and (for Black) renju.
        let mut b = board(Rule::Freestyle, "d8 e8 f8 h8 i8", "c8 j8 a1 a15 o1", BLACK);
        assert_eq!(solve(&mut b, ThreatKind::Vcf, 4), Some((1, "g8".into())));
        for rule in [Rule::Standard, Rule::Renju] {
            let mut b = board(rule, "d8 e8 f8 h8 i8", "c8 j8 a1 a15 o1", BLACK);
            assert_eq!(solve(&mut b, ThreatKind::Vct, 4), None, "{rule}");
        }
        // White's six wins under renju, not under standard.
        let mut b = board(Rule::Renju, "c8 j8 a1 a15 o1 o15", "d8 e8 f8 h8 i8", WHITE);
        assert_eq!(solve(&mut b, ThreatKind::Vcf, 4), Some((1, "g8".into())));
        let mut b = board(
            Rule::Standard,
            "c8 j8 a1 a15 o1 o15",
            "d8 e8 f8 h8 i8",
            WHITE,
        );
        assert_eq!(solve(&mut b, ThreatKind::Vcf, 4), None);
    }

    #[test]
    fn the_defender_s_five_comes_first() {
        // Black has an open three, White a four: Black must block, and the block is no threat.
        let mut b = board(Rule::Freestyle, "h8 i8 j8 c3", "d1 d2 d3 d4 o15", BLACK);
        assert_eq!(solve(&mut b, ThreatKind::Vct, 6), None);
        // With White to move, White simply wins.
        assert_eq!(
            ThreatSolver::new(0)
                .solve_for_opponent(&mut b, ThreatKind::Vcf, &limits(0))
                .map(|w| w.first().to_human(15)),
            Some("d5".into())
        );
    }

    #[test]
    fn vcf_agrees_with_an_independent_search_and_vct_wins_survive_full_width_checks() {
        let mut rng = crate::testing::Xorshift(0x2545_F491_4F6C_DD1D);
        let mut next = move |n: usize| rng.below(n);
        let mut solver = ThreatSolver::new(1 << 18);
        let mut checker = ThreatSolver::new(1 << 16);
        let (mut vcf_wins, mut vct_wins, mut positions) = (0, 0, 0);
        let mut long_vct = 0;
        for round in 0..3000 {
            let rule = Rule::ALL[round % 3];
            let n = 9;
            let stones = 6 + next(8);
            let (mut black, mut white) = (Vec::new(), Vec::new());
            while black.len() + white.len() < 2 * stones {
                let p = Point::new(1 + next(n - 2), 1 + next(n - 2));
                if black.contains(&p) || white.contains(&p) {
                    continue;
                }
                if black.len() <= white.len() {
                    black.push(p);
                } else {
                    white.push(p);
                }
            }
            let to_move = if next(2) == 0 { BLACK } else { WHITE };
            let Ok(mut b) = Board::from_stones(n, rule, &black, &white, Some(to_move)) else {
                continue;
            };
            // Positions with a four on the board are mostly decided at once: leave them out.
            if b.result().is_some() || b.threats(BLACK).five + b.threats(WHITE).five > 0 {
                continue;
            }
            positions += 1;
            for attacks in 0..=3 {
                let found = solver
                    .solve(&mut b, ThreatKind::Vcf, &limits(attacks))
                    .is_some();
                assert_eq!(found, brute_vcf(&mut b, attacks), "{b:?} VCF in {attacks}");
            }
            if let Some(w) = solver.solve(&mut b, ThreatKind::Vcf, &limits(4)) {
                vcf_wins += 1;
                check_line(&b, &w);
                assert!(verify(&mut b, &mut checker, ThreatKind::Vcf, 4), "{b:?}");
            }
            if let Some(w) = solver.solve(&mut b, ThreatKind::Vct, &limits(3)) {
                vct_wins += 1;
                long_vct += (w.plies >= 7) as u32;
                check_line(&b, &w);
                assert!(verify(&mut b, &mut checker, ThreatKind::Vct, 3), "{b:?}");
            }
            assert_eq!(b.hash(), b.hash_from_scratch());
        }
        // 2099 positions, 974 VCFs, 1154 VCTs of which 134 take three attacker moves: the
        // bounds only make sure the test keeps testing something.
        let counts = (positions, vcf_wins, vct_wins, long_vct);
        assert!(
            positions > 1500 && vcf_wins > 500 && vct_wins > 600 && long_vct > 50,
            "{counts:?}"
        );
    }

    #[test]
    fn limits_give_up_cleanly() {
        // A position with a long search: the double three above, asked for a VCT with a tiny
        // budget, a stop flag already raised, or a deadline already past.
        let mut b = board(
            Rule::Freestyle,
            "h8 i8 j11 k10 l10 m10",
            "n10 a1 a15 o1",
            BLACK,
        );
        let mut ts = ThreatSolver::new(1 << 16);
        let tiny = ThreatLimits {
            max_attacks: 10,
            nodes: Some(5),
            ..ThreatLimits::default()
        };
        assert_eq!(ts.solve(&mut b, ThreatKind::Vct, &tiny), None);
        assert!(ts.nodes() <= 5 + 2, "{}", ts.nodes());
        let stop = ThreatLimits {
            max_attacks: 10,
            stop: Some(Arc::new(AtomicBool::new(true))),
            ..ThreatLimits::default()
        };
        assert_eq!(ts.solve(&mut b, ThreatKind::Vct, &stop), None);
        let late = ThreatLimits {
            max_attacks: 10,
            deadline: Some(Instant::now()),
            ..ThreatLimits::default()
        };
        assert_eq!(ts.solve(&mut b, ThreatKind::Vct, &late), None);
        // Nothing half-searched was kept: the full search still finds the win.
        assert!(ts.solve(&mut b, ThreatKind::Vct, &limits(10)).is_some());
        assert_eq!(b.hash(), b.hash_from_scratch());
    }

    #[test]
    fn the_table_stays_within_its_bytes_and_results_repeat() {
        for bytes in [0, 63, 64, 100, 1 << 16, (1 << 16) + 1000] {
            let ts = ThreatSolver::new(bytes);
            assert!(ts.table_bytes() <= bytes);
            assert!(ts.table_bytes() * 2 > bytes || bytes < 64);
        }
        let mut b = board(
            Rule::Freestyle,
            "h8 i8 j11 k10 l10 m10",
            "n10 a1 a15 o1",
            BLACK,
        );
        let mut ts = ThreatSolver::new(1 << 16);
        let first = ts.solve(&mut b, ThreatKind::Vct, &limits(6));
        let n = ts.nodes();
        let mut fresh = ThreatSolver::new(1 << 16);
        assert_eq!(fresh.solve(&mut b, ThreatKind::Vct, &limits(6)), first);
        assert_eq!(fresh.nodes(), n, "deterministic node count");
        // Again with the table warm: the same answer for fewer nodes; then cleared.
        assert_eq!(ts.solve(&mut b, ThreatKind::Vct, &limits(6)), first);
        assert!(ts.nodes() - n < n);
        ts.clear();
        let before = ts.nodes();
        assert_eq!(ts.solve(&mut b, ThreatKind::Vct, &limits(6)), first);
        assert_eq!(
            ts.nodes() - before,
            n,
            "a cleared table searches as a new one"
        );
        // Without a table the answers are the same.
        assert_eq!(
            ThreatSolver::new(0).solve(&mut b, ThreatKind::Vct, &limits(6)),
            first
        );
    }

    #[test]
    fn the_same_stones_under_another_rule_are_another_position() {
        // One solver, two rules: the renju foul must not be answered from the freestyle entry.
        let mut ts = ThreatSolver::new(1 << 16);
        let mut free = board(Rule::Freestyle, DOUBLE_FOUR_BLACK, DOUBLE_FOUR_WHITE, BLACK);
        assert!(ts.solve(&mut free, ThreatKind::Vct, &limits(10)).is_some());
        let mut renju = board(Rule::Renju, DOUBLE_FOUR_BLACK, DOUBLE_FOUR_WHITE, BLACK);
        let win = ts.solve(&mut renju, ThreatKind::Vct, &limits(10)).unwrap();
        assert_eq!(win.first().to_human(15), "i7");
    }
}
