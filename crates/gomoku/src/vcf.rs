//! VCF: victory by continuous fours. The attacker plays only moves that make a four, so every
//! defender reply is forced (block the five, unless the defender can make five first); a line
//! that ends in two five points, or in a forced block Black may not play under renju, wins.
//!
//! Deepening one attack at a time finds the shortest such win.

use crate::board::Board;
use crate::movegen::five_points;
use crate::notation::Point;
use wuzi_search::{MoveStack, Player};

/// A VCF prover with reusable buffers.
#[derive(Default)]
pub struct Vcf {
    moves: MoveStack<Point>,
    fives: Vec<Point>,
    nodes: u64,
}

/// A proven win: its length in plies (the five included) and its first move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct VcfWin {
    pub plies: u32,
    pub first: Point,
}

impl Vcf {
    /// Positions visited since the prover was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The shortest win by continuous fours for the side to move using at most `max_attacks`
    /// attacking moves (the five itself not counted), or `None` if there is none that short.
    pub fn solve(&mut self, board: &mut Board, max_attacks: u32) -> Option<VcfWin> {
        if board.result().is_some() {
            return None;
        }
        let me = board.side_to_move();
        if board.threats(me).five > 0 {
            self.fives.clear();
            five_points(board, me, &mut self.fives, 1);
            return Some(VcfWin {
                plies: 1,
                first: self.fives[0],
            });
        }
        (1..=max_attacks).find_map(|attacks| self.attack(board, attacks, 0))
    }

    /// Whether `colour` could make a four at `p`.
    fn makes_four(board: &Board, p: Point, colour: Player) -> bool {
        board.shapes(p, colour).iter().any(|s| s.is_four())
    }

    /// Attacker to move, with no five of its own to make.
    fn attack(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<VcfWin> {
        self.nodes += 1;
        if attacks == 0 {
            return None;
        }
        let me = board.side_to_move();
        let them = me.opponent();
        let mut candidates = self.moves.take(ply);
        if board.threats(them).five > 0 {
            // The defender threatens five: only a block that is also a four keeps the attack.
            five_points(board, them, &mut candidates, 2);
            if candidates.len() > 1 {
                candidates.clear();
            }
            candidates.retain(|&p| Self::makes_four(board, p, me));
        } else if board.threats(me).four > 0 {
            candidates.extend(
                board
                    .points()
                    .filter(|&p| board.is_empty(p) && Self::makes_four(board, p, me)),
            );
        }
        let mut found = None;
        for &p in &candidates {
            board.play(p);
            // A result here can only be a foul: the attacker had no five to make.
            let line = if board.result().is_none() {
                self.defend(board, attacks - 1, ply + 1)
            } else {
                None
            };
            board.undo();
            if let Some(plies) = line {
                found = Some(VcfWin {
                    plies: plies + 1,
                    first: p,
                });
                break;
            }
        }
        self.moves.give(ply, candidates);
        found
    }

    /// Defender to move after a four: plies until the attacker's five, if the attack holds.
    fn defend(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<u32> {
        self.nodes += 1;
        let defender = board.side_to_move();
        let attacker = defender.opponent();
        if board.threats(defender).five > 0 {
            return None;
        }
        self.fives.clear();
        five_points(board, attacker, &mut self.fives, 2);
        match self.fives.len() {
            0 => None,
            1 => {
                let block = self.fives[0];
                board.play(block);
                let line = match board.result() {
                    // The only block is forbidden for Black: the attacker wins next move.
                    Some(result) if result.winner == Some(attacker) => Some(0),
                    Some(_) => None,
                    None => self.attack_or_five(board, attacks, ply),
                };
                board.undo();
                line.map(|plies| plies + 1)
            }
            _ => Some(2),
        }
    }

    fn attack_or_five(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<u32> {
        if board.threats(board.side_to_move()).five > 0 {
            return Some(1);
        }
        self.attack(board, attacks, ply).map(|win| win.plies)
    }
}
