//! The defender's side of the threat search (the AND nodes): every reply that might hold is
//! searched, and the attack wins only when none does.

use super::near::{find_fives, has_legal_straight_four, Near};
use super::{ThreatKind, ThreatSolver, FOUR_FIRST};
use crate::board::Board;
use crate::forbidden::two_open_threes;
use crate::geometry::DIRS;
use crate::movegen::hand_priority;
use crate::notation::Point;
use crate::pattern::{Shape, REACH};
use std::cmp::Reverse;
use wuzi_search::{extend_line, Player};

impl ThreatSolver {
    /// Defender to move after a threat: plies to the attacker's five if every defence fails
    /// with at most `attacks` more attacker moves.
    pub(super) fn defend(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<u32> {
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
            extend_line(&mut self.lines, ply, block);
            return Some(plies + 1);
        }
        if self.kind == ThreatKind::Vcf {
            return None;
        }
        if attacks == 0 {
            // The straight four (or the VCF) would be one attacker move too many.
            self.cuts += 1;
            return None;
        }
        self.defend_three(board, attacks, ply, defender, attacker)
    }

    /// Two attacker five points: the line is one block and the other five. A Black defender
    /// blocks on a legal point if it has one; if both are forbidden the line ends with its
    /// foul.
    pub(super) fn unstoppable(&mut self, board: &mut Board, ply: usize) -> u32 {
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

    /// The attacker has made an open three (no five point): every defence is searched. A
    /// move that made no legal straight-four point is a quiet one, answered by
    /// [`ThreatSolver::defend_quiet`] when quiet threats are on, and no threat otherwise.
    pub(super) fn defend_three(
        &mut self,
        board: &mut Board,
        attacks: u32,
        ply: usize,
        defender: Player,
        attacker: Player,
    ) -> Option<u32> {
        let mut fours = self.moves.take(2 * ply);
        let (legal, wide) = self.straight_fours(board, attacker, &mut fours);
        if !legal {
            self.moves.give(2 * ply, fours);
            if self.quiet_vcf > 0 {
                return self.defend_quiet(board, attacks, ply, defender, attacker);
            }
            return None;
        }
        if has_legal_straight_four(board, defender) {
            // The defender's own straight four wins the race.
            self.moves.give(2 * ply, fours);
            return None;
        }
        let mut defences = self.moves.take(2 * ply + 1);
        self.defences(board, defender, &fours, wide, &mut defences);
        self.moves.give(2 * ply, fours);
        let line = self.try_defences(board, &defences, attacker, attacks, ply);
        self.moves.give(2 * ply + 1, defences);
        line
    }

    /// Searches each of `defences` (best first) until one holds: plies to the attacker's
    /// five along the longest of them if none does. When every one is Black's foul under
    /// renju, any other move is searched instead.
    pub(super) fn try_defences(
        &mut self,
        board: &mut Board,
        defences: &[Point],
        attacker: Player,
        attacks: u32,
        ply: usize,
    ) -> Option<u32> {
        let mut worst: Option<u32> = None;
        let mut held = false;
        for &m in defences {
            let Some(line) = self.answer(board, m, attacker, attacks, ply) else {
                continue;
            };
            match line {
                None => {
                    held = true;
                    break;
                }
                Some(plies) => {
                    if worst < Some(plies) {
                        worst = Some(plies);
                        extend_line(&mut self.lines, ply, m);
                    }
                }
            }
        }
        if held || self.aborted {
            return None;
        }
        match worst {
            Some(plies) => Some(plies + 1),
            None => self.no_defence(board, attacks, ply),
        }
    }

    /// The defender plays `m`. `None` when that is Black's foul under renju: no defence, so
    /// the defender never chooses it. Otherwise the attacker's win from there, if any (a
    /// full board is a draw: it holds).
    fn answer(
        &mut self,
        board: &mut Board,
        m: Point,
        attacker: Player,
        attacks: u32,
        ply: usize,
    ) -> Option<Option<u32>> {
        board.play(m);
        let line = match board.result() {
            None => Some(self.attack(board, attacks, ply + 1)),
            Some(r) if r.winner == Some(attacker) => None,
            Some(_) => Some(None),
        };
        board.undo();
        line
    }

    /// Nothing stops the straight four: the defender plays any legal move and the attacker
    /// wins from there (searched, so that the line is a real one).
    pub(super) fn no_defence(
        &mut self,
        board: &mut Board,
        attacks: u32,
        ply: usize,
    ) -> Option<u32> {
        let attacker = board.side_to_move().opponent();
        for m in Near::near_stones(board) {
            let Some(line) = self.answer(board, m, attacker, attacks, ply) else {
                continue;
            };
            let plies = line?;
            extend_line(&mut self.lines, ply, m);
            return Some(plies + 1);
        }
        None
    }

    /// Collects `colour`'s straight-four points, legal or not (a defence may make a
    /// forbidden one legal). Returns whether one is legal, and whether the defender could
    /// also make one forbidden (a legal point with two open threes, fake for now: a stone
    /// anywhere may make one of them real), which widens the defences to every point.
    pub(super) fn straight_fours(
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
                wide |= two_open_threes(&shapes);
            }
        }
        (legal, wide)
    }

    /// With a defence just played: whether the attacker still has a legal straight four.
    /// Stones of the defender's only take shapes away, so the points collected before
    /// (`fours`) are the only candidates; the count check makes sure of it.
    pub(super) fn still_threatened(board: &mut Board, attacker: Player, fours: &[Point]) -> bool {
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
    pub(super) fn defences(
        &mut self,
        board: &mut Board,
        defender: Player,
        fours: &[Point],
        wide: bool,
        out: &mut Vec<Point>,
    ) {
        let attacker = defender.opponent();
        let stamp = self.start_defences(board, defender);
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
        self.finish_defences(out);
    }

    /// Starts a list of defences in `keyed` with the defender's fours (a four that also
    /// blocks is the usual refutation), marked in `seen` with the stamp returned.
    pub(super) fn start_defences(&mut self, board: &Board, defender: Player) -> u32 {
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
                let rank = FOUR_FIRST
                    + hand_priority(board, p, attacker) * 2
                    + hand_priority(board, p, defender);
                self.keyed.push((rank, p));
            }
        }
        stamp
    }

    /// Writes the defences in `keyed` to `out`, best first (ties broken by the point, so the
    /// search stays deterministic; the unstable sort does not allocate).
    pub(super) fn finish_defences(&mut self, out: &mut Vec<Point>) {
        self.keyed
            .sort_unstable_by_key(|&(rank, p)| (Reverse(rank), p));
        out.extend(self.keyed.iter().map(|&(_, p)| p));
    }
}
