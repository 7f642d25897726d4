//! The answers to a quiet threat: a move that makes no four and no open three, after which
//! the attacker would win by a short VCF if the defender passed (quintet's "threat limit").
//!
//! The solver finds one such VCF. The same line still wins after a defender's stone that
//! fills none of its points, makes no four of the defender's (now, or with the line's
//! blocks), and changes no renju foul the line depends on: the attacker's stones, which
//! decide its fours and fives, are untouched. So the defences searched are the defender's
//! fours (a counter-attack), the points of the line (its fours, their blocks, the final five
//! points), and the points where a defender's stone would turn one of the line's blocks into
//! a four of its own. Renju fouls are where a far stone matters, and there every empty point
//! is searched, as for an open three: when the line ends with a Black defender's forbidden
//! block (a Black stone anywhere may make it legal, by making the straight-four point of
//! one of its threes forbidden in turn), and when a Black attacker's line plays a point with
//! two open threes (one fake, or the point were forbidden: a White stone may make it real).

use super::near::Near;
use super::table::salt;
use super::{ThreatKind, ThreatSolver};
use crate::board::Board;
use crate::forbidden::two_open_threes;
use crate::geometry::DIRS;
use crate::movegen::hand_priority;
use crate::notation::Point;
use crate::pattern::{Shape, REACH};
use wuzi_search::Player;

impl ThreatSolver {
    /// The attacker has played a quiet move (no five point, no legal straight four): if it
    /// threatens a VCF within `quiet_vcf` moves, every defence that touches that VCF is
    /// searched, as [`ThreatSolver::defend`] does.
    pub(super) fn defend_quiet(
        &mut self,
        board: &mut Board,
        attacks: u32,
        ply: usize,
        defender: Player,
        attacker: Player,
    ) -> Option<u32> {
        if board.threats(attacker).four == 0 {
            // Every VCF starts with a four.
            return None;
        }
        let limit = self.quiet_vcf.min(attacks);
        if limit < self.quiet_vcf {
            self.cuts += 1;
        }
        board.pass();
        let threatens = self.nested_vcf(board, limit, ply + 1);
        board.pass();
        if !threatens || self.aborted {
            return None;
        }
        let (line, found) = (&mut self.quiet_line, &self.lines[ply + 1]);
        line.clear();
        line.extend_from_slice(found);
        let mut defences = self.moves.take(2 * ply + 1);
        self.quiet_defences(board, defender, &mut defences);
        let line = self.try_defences(board, &defences, attacker, attacks, ply);
        self.moves.give(2 * ply + 1, defences);
        line
    }

    /// Whether the side to move wins by a VCF of at most `limit` moves. It runs on this
    /// solver's own table (under the VCF's salt) and buffers from `ply` on, and leaves its
    /// line in `lines[ply]`.
    pub(super) fn nested_vcf(&mut self, board: &mut Board, limit: u32, ply: usize) -> bool {
        let saved = (self.kind, self.quiet_vcf, self.salt, self.cuts);
        self.kind = ThreatKind::Vcf;
        self.quiet_vcf = 0;
        self.salt = salt(ThreatKind::Vcf, 0, board);
        let mut won = false;
        for attacks in 1..=limit {
            let cuts = self.cuts;
            if self.attack(board, attacks, ply).is_some() {
                won = true;
                break;
            }
            if self.aborted || self.cuts == cuts {
                break;
            }
        }
        (self.kind, self.quiet_vcf, self.salt, self.cuts) = saved;
        won
    }

    /// The defences against the VCF in `quiet_line`, best first (see the module's notes).
    pub(super) fn quiet_defences(
        &mut self,
        board: &mut Board,
        defender: Player,
        out: &mut Vec<Point>,
    ) {
        let attacker = defender.opponent();
        let stamp = self.start_defences(board, defender);
        let mut touching = Near::none();
        let wide = self.points_touching_line(board, defender, &mut touching);
        let points = if wide {
            Near::empty_points(board)
        } else {
            touching
        };
        for p in points {
            if self.seen[p.index()] == stamp || !board.is_empty(p) {
                continue;
            }
            self.seen[p.index()] = stamp;
            let rank = hand_priority(board, p, attacker) * 2 + hand_priority(board, p, defender);
            self.keyed.push((rank, p));
        }
        self.finish_defences(out);
    }

    /// Replays `quiet_line` (the attacker first, as if the defender had passed) and collects
    /// in `out` its points and the points that would turn one of its blocks into a
    /// defender's four; returns whether every point must be searched instead (renju's fake
    /// threes, see the module's notes). The board is left as it was.
    fn points_touching_line(
        &mut self,
        board: &mut Board,
        defender: Player,
        out: &mut Near,
    ) -> bool {
        let attacker = defender.opponent();
        let fouls = board.rule().has_fouls(attacker);
        let size = board.size();
        let mut wide = false;
        let mut played = 0;
        board.pass();
        for (i, &p) in self.quiet_line.iter().enumerate() {
            out.insert(p);
            let defender_move = i % 2 == 1;
            if i + 1 == self.quiet_line.len() {
                // A line that ends with a defender's move ends with a Black defender's
                // forbidden block.
                wide |= defender_move;
                break;
            }
            if fouls && !defender_move {
                wide |= two_open_threes(&board.shapes(p, attacker));
            }
            board.play(p);
            played += 1;
            if board.result().is_some() {
                break;
            }
            if defender_move {
                for (d, dir) in DIRS.iter().enumerate() {
                    for k in -(REACH as isize)..=REACH as isize {
                        let Some(q) = dir.step(p, k, size) else {
                            continue;
                        };
                        if board.is_empty(q) && board.shapes(q, defender)[d] >= Shape::Four {
                            out.insert(q);
                        }
                    }
                }
            }
        }
        for _ in 0..played {
            board.undo();
        }
        board.pass();
        wide
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rule;

    /// A VCF that ends with Black's forbidden block: a Black stone far from the block can make
    /// it legal (by making the straight-four point of one of its threes forbidden), so every
    /// empty point is a defence to search.
    #[test]
    fn a_line_ending_with_a_forbidden_block_widens_the_defences() {
        let at =
            |v: &[(usize, usize)]| v.iter().map(|&(x, y)| Point::new(x, y)).collect::<Vec<_>>();
        let black = at(&[(4, 7), (5, 7), (7, 5), (7, 6), (6, 8), (6, 9), (12, 2)]);
        let white = at(&[(8, 6), (9, 5), (10, 4)]);
        let mut board =
            Board::from_stones(15, Rule::Renju, &black, &white, Some(Player::First)).unwrap();
        // White's four at (11,3) leaves Black the single block (7,7), a double three.
        let (four, block) = (Point::new(11, 3), Point::new(7, 7));
        board.pass();
        board.play(four);
        assert!(board.foul(block).is_some(), "the block is forbidden");
        board.undo();
        board.pass();
        let mut solver = ThreatSolver::new(0);
        solver.quiet_line.extend([four, block]);
        let mut touching = Near::none();
        let wide = solver.points_touching_line(&mut board, Player::First, &mut touching);
        assert!(wide, "every empty point is searched");
        assert_eq!(
            board.hash(),
            board.hash_from_scratch(),
            "the board is as it was"
        );
        assert_eq!(board.side_to_move(), Player::First);
    }
}
