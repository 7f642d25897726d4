//! Proof-number search (df-pn) over the same tree as the iterative deepening in `mod.rs`:
//! the same attacker moves, the same defences, the same attacker-move limit, so within that
//! limit it proves exactly the wins the deepening proves. What differs is the order: the
//! deepening searches every line to one more attacker move at a time, while df-pn always
//! goes where the fewest leaves are left to prove the attack or to refute it (Allis's proof
//! numbers, searched depth-first with thresholds as Nagai does, and each child's threshold
//! widened by a quarter as Pawlewicz and Lew do). Deep, narrow wins that the deepening
//! reaches only after every shorter line has been exhausted can come sooner; the price is
//! that the win found is *a* win, not the shortest.
//!
//! At an attacker node (OR) the proof number is the least of its children's and the
//! disproof number their sum; at a defender node (AND) the other way round. An attacker's
//! move not searched yet counts the leaves its kind of threat usually leaves (a four one, an
//! open three or a quiet threat more); any other unsearched node counts one. The numbers live
//! in the solver's table, so a position reached by two orders of moves is searched once
//! (stones are never taken back, so the tree has no cycles; a transposition is counted once
//! per parent, as df-pn usually does).
//! Under one search the same stones are always the same number of attacker moves from the
//! root, so the move limit left at a position is the position's own and its entry holds
//! whatever path leads there; the keys are salted with the limit and the root's stone count,
//! so that searches from other roots or limits do not read each other's numbers.

use super::near::{find_fives, has_legal_straight_four, Near};
use super::table::{salt, ProofEntry, INFINITE};
use super::{ThreatKind, ThreatLimits, ThreatSolver, ThreatWin, MAX_LINE, MAX_THREAT_ATTACKS};
use crate::board::Board;
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::Shape;

/// First guesses at the replies to an open three and to a quiet threat.
const THREE_LEAVES: u32 = 4;
const QUIET_LEAVES: u32 = 10;
/// The largest unsettled number: sums saturate here, below [`INFINITE`].
const LARGE: u32 = INFINITE - 1;

/// A node's numbers against the thresholds it is searched to.
#[derive(Copy, Clone, Debug)]
struct Numbers {
    pn: u32,
    dn: u32,
}

/// Thresholds that only a settled node reaches.
const UNBOUNDED: Numbers = Numbers {
    pn: INFINITE,
    dn: INFINITE,
};

/// What a node is before its children are searched.
enum Expanded {
    /// Settled on the spot: whether the attacker has won.
    Settled(bool),
    /// Its moves are in the list handed in.
    Moves,
}

/// `a + b`, where [`INFINITE`] stays infinite and anything else saturates at [`LARGE`].
fn add(a: u32, b: u32) -> u32 {
    if a == INFINITE || b == INFINITE {
        INFINITE
    } else {
        (a + b).min(LARGE)
    }
}

/// A child's threshold from the second-best sibling's number: a quarter more than it, one at
/// least, so that the search does not flip between two children of nearly equal numbers.
fn widened(second: u32) -> u32 {
    if second >= LARGE {
        INFINITE
    } else {
        (second + second / 4 + 1).min(LARGE)
    }
}

impl ThreatSolver {
    /// As [`ThreatSolver::solve`], by proof-number search: a win (not always the one with
    /// the fewest attacker moves) for the side to move, proven within the limits. `None`
    /// claims nothing: no win exists within `max_attacks`, or the search gave up (see
    /// [`ThreatSolver::gave_up`]). The board is left as it was.
    pub fn prove(
        &mut self,
        board: &mut Board,
        kind: ThreatKind,
        limits: &ThreatLimits,
    ) -> Option<ThreatWin> {
        if !self.begin(board, kind, limits) {
            return None;
        }
        if self.proof_children.is_empty() {
            self.proof_children = (0..=MAX_LINE)
                .map(|_| Vec::with_capacity(MAX_SIZE * MAX_SIZE))
                .collect();
        }
        let attacks = limits.max_attacks.min(MAX_THREAT_ATTACKS);
        self.proof_attacks = attacks;
        // An entry's numbers hold for the moves left at its position: for one limit, counted
        // from a root of one number of stones. Another search salts its keys apart.
        let root = (board.stone_count() as u64) << 8 | u64::from(attacks);
        self.salt =
            salt(kind, self.quiet_vcf, board) ^ (root + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        let root = self.mid(board, UNBOUNDED, 0);
        let mut win = None;
        if !self.aborted && root.pn == 0 {
            let mut line = Vec::with_capacity(MAX_LINE + 1);
            if self.proof_line(board, 0, &mut line) && !self.aborted {
                win = Some(ThreatWin {
                    plies: line.len() as u32,
                    line,
                });
            }
        }
        self.stop = None;
        win
    }

    /// Attacker moves left at `ply` (even plies are the attacker's).
    fn attacks_left(&self, ply: usize) -> u32 {
        self.proof_attacks.saturating_sub((ply as u32).div_ceil(2))
    }

    /// What the table says of the position after `p`.
    fn child(&self, board: &Board, p: Point) -> ProofEntry {
        self.probe_proof(board.hash_after(p) ^ self.salt)
    }

    /// Searches the node at `ply` until its proof number reaches `th.pn` or its disproof
    /// number `th.dn`, and returns its numbers (left in the table too).
    fn mid(&mut self, board: &mut Board, th: Numbers, ply: usize) -> ProofEntry {
        self.nodes += 1;
        let key = board.hash() ^ self.salt;
        if self.out_of_budget() {
            return self.probe_proof(key);
        }
        if let Some(r) = board.result() {
            // Whether a finished game was a foul depends on which stone came last, which
            // the key does not say: such positions are never stored.
            let attacker = match ply % 2 {
                0 => board.side_to_move(),
                _ => board.side_to_move().opponent(),
            };
            return settled(r.winner == Some(attacker), 0);
        }
        let attacker_to_move = ply.is_multiple_of(2);
        let mut moves = self.moves.take(2 * ply);
        let expanded = self.expand(board, ply, &mut moves);
        let entry = match expanded {
            // A five to make takes one ply; a defender's node settled as lost ends in a few
            // (its proof line is rebuilt move by move).
            Expanded::Settled(won) => settled(won, if attacker_to_move { 1 } else { 2 }),
            Expanded::Moves => self.search_children(board, th, ply, &moves),
        };
        self.moves.give(2 * ply, moves);
        if !self.aborted {
            self.store_proof(key, entry);
        }
        entry
    }

    /// The loop of [`ThreatSolver::mid`] at a node with `moves`: searches the child nearest
    /// a result (the attacker's move nearest a proof, the defence nearest a refutation)
    /// until the node's numbers pass the thresholds, and returns the node's entry.
    fn search_children(
        &mut self,
        board: &mut Board,
        th: Numbers,
        ply: usize,
        moves: &[Point],
    ) -> ProofEntry {
        let attacker_to_move = ply.is_multiple_of(2);
        // The children's entries, read once: the table may lose one to another position,
        // and a child searched again from nothing would be searched forever.
        let mut children = std::mem::take(&mut self.proof_children[ply]);
        children.clear();
        // A move that ends the game is settled here: the mover's renju foul loses, the last
        // empty point draws (no move here makes a five: a side with a five point has taken
        // it, or been refuted by it, before its moves are listed).
        let fouls = board.rule().has_fouls(board.side_to_move());
        let last_point = board.empty_count() == 1;
        for &p in moves {
            let c = if fouls && board.foul(p).is_some() {
                settled(!attacker_to_move, 0)
            } else if last_point {
                settled(false, 0)
            } else {
                self.child(board, p)
            };
            children.push(if attacker_to_move && c == ProofEntry::UNKNOWN {
                ProofEntry {
                    pn: leaves_to_prove(board, p),
                    ..c
                }
            } else {
                c
            });
        }
        let entry = loop {
            let entry = summarise(moves, &children, attacker_to_move);
            if entry.pn >= th.pn || entry.dn >= th.dn || self.aborted {
                break entry;
            }
            let (best, second) = select(&children, attacker_to_move);
            let c = children[best];
            let child_th = if attacker_to_move {
                Numbers {
                    pn: th.pn.min(widened(second)),
                    dn: reserve(th.dn, entry.dn, c.dn),
                }
            } else {
                Numbers {
                    pn: reserve(th.pn, entry.pn, c.pn),
                    dn: th.dn.min(widened(second)),
                }
            };
            board.play(moves[best]);
            children[best] = self.mid(board, child_th, ply + 1);
            board.undo();
        };
        self.proof_children[ply] = children;
        entry
    }

    /// Settles the node at `ply` if its outcome needs no search, or lists its moves in
    /// `out`, best first, exactly as the deepening's `attack` and `defend` choose them.
    fn expand(&mut self, board: &mut Board, ply: usize, out: &mut Vec<Point>) -> Expanded {
        let me = board.side_to_move();
        let them = me.opponent();
        let attacker = if ply.is_multiple_of(2) { me } else { them };
        if let Some(r) = board.result() {
            // A renju foul or a full board.
            return Expanded::Settled(r.winner == Some(attacker));
        }
        let attacks = self.attacks_left(ply);
        if ply.is_multiple_of(2) {
            if board.threats(me).five > 0 {
                return Expanded::Settled(true);
            }
            if attacks == 0 {
                return Expanded::Settled(false);
            }
            if board.threats(them).five > 0 {
                find_fives(board, them, out);
                if out.len() > 1 || (self.kind == ThreatKind::Vcf && !board.makes_four(out[0], me))
                {
                    out.clear();
                }
            } else {
                self.attack_moves(board, me, attacks, out);
            }
            return if out.is_empty() {
                Expanded::Settled(false)
            } else {
                Expanded::Moves
            };
        }
        // The defender to move.
        if board.threats(me).five > 0 {
            return Expanded::Settled(false);
        }
        if board.threats(them).five > 0 {
            find_fives(board, them, out);
            if out.len() >= 2 {
                return Expanded::Settled(true);
            }
            return Expanded::Moves;
        }
        if self.kind == ThreatKind::Vcf || attacks == 0 {
            return Expanded::Settled(false);
        }
        let mut fours = self.moves.take(2 * ply + 1);
        let (legal, wide) = self.straight_fours(board, them, &mut fours);
        // The defender's own straight four wins the race.
        let counter = legal && has_legal_straight_four(board, me);
        if legal && !counter {
            self.defences(board, me, &fours, wide, out);
        }
        self.moves.give(2 * ply + 1, fours);
        if !legal {
            self.expand_quiet(board, attacks, ply, out)
        } else if counter {
            Expanded::Settled(false)
        } else if out.is_empty() {
            // No defence stops the straight four.
            Expanded::Settled(true)
        } else {
            Expanded::Moves
        }
    }

    /// The defences against a quiet threat, as `defend_quiet` finds them: none needed when
    /// the move threatens no VCF within the limits.
    fn expand_quiet(
        &mut self,
        board: &mut Board,
        attacks: u32,
        ply: usize,
        out: &mut Vec<Point>,
    ) -> Expanded {
        let defender = board.side_to_move();
        if self.quiet_vcf == 0 || board.threats(defender.opponent()).four == 0 {
            return Expanded::Settled(false);
        }
        let limit = self.quiet_vcf.min(attacks);
        board.pass();
        let threatens = self.nested_vcf(board, limit, ply + 1);
        board.pass();
        if !threatens || self.aborted {
            return Expanded::Settled(false);
        }
        let (line, found) = (&mut self.quiet_line, &self.lines[ply + 1]);
        line.clear();
        line.extend_from_slice(found);
        self.quiet_defences(board, defender, out);
        if out.is_empty() {
            Expanded::Settled(true)
        } else {
            Expanded::Moves
        }
    }

    /// Appends to `line` the proven win from the node at `ply` (proven in the table, or
    /// proven again here where its entry was overwritten): at attacker nodes the proven move
    /// with the shortest proof, at defender nodes the defence with the longest. Returns
    /// whether it reached the end of the game. The board is left as it was.
    fn proof_line(&mut self, board: &mut Board, ply: usize, line: &mut Vec<Point>) -> bool {
        let me = board.side_to_move();
        let them = me.opponent();
        let attacker_to_move = ply.is_multiple_of(2);
        if let Some(r) = board.result() {
            // The defender's foul ends a win; the attacker's or a full board does not.
            return r.winner == Some(if attacker_to_move { me } else { them });
        }
        if ply >= MAX_LINE {
            return false;
        }
        if attacker_to_move && board.threats(me).five > 0 {
            find_fives(board, me, &mut self.fives);
            line.push(self.fives[0]);
            return true;
        }
        if !attacker_to_move && board.threats(them).five > 0 {
            find_fives(board, them, &mut self.fives);
            if self.fives.len() >= 2 {
                self.lines[ply].clear();
                self.unstoppable(board, ply);
                line.extend_from_slice(&self.lines[ply]);
                return true;
            }
        }
        let mut next = None;
        if attacker_to_move {
            let mut e = self.probe_proof(board.hash() ^ self.salt);
            if e.pn != 0 || e.best.is_none() {
                // Lost from the table (or there is none): proven again.
                e = self.mid(board, UNBOUNDED, ply);
            }
            next = e.best.filter(|_| e.pn == 0);
        } else {
            let mut moves = self.moves.take(2 * ply);
            if let Expanded::Moves = self.expand(board, ply, &mut moves) {
                // The longest proof among the defences that are not the defender's fouls.
                let mut longest = None;
                for &p in &moves {
                    board.play(p);
                    let foul = board.result().is_some_and(|r| r.winner == Some(them));
                    board.undo();
                    let plies = self.child(board, p).plies;
                    if !foul && longest.is_none_or(|(_, most)| plies > most) {
                        longest = Some((p, plies));
                    }
                }
                next = longest.map(|(p, _)| p);
                // The only block of a five is forbidden: the line ends with the foul.
                if next.is_none() && moves.len() == 1 && board.threats(them).five > 0 {
                    line.push(moves[0]);
                    self.moves.give(2 * ply, moves);
                    return true;
                }
            }
            self.moves.give(2 * ply, moves);
            if next.is_none() {
                // Nothing stops the attack: any legal move, and the attacker goes on.
                next = Near::near_stones(board).into_iter().find(|&m| {
                    board.play(m);
                    let legal = board.result().is_none_or(|r| r.winner != Some(them));
                    board.undo();
                    legal
                });
            }
        }
        let Some(p) = next else {
            return false;
        };
        line.push(p);
        board.play(p);
        let ended = self.proof_line(board, ply + 1, line);
        board.undo();
        ended
    }
}

/// A first guess at the proof number of the attacker's move `p`, not searched yet: a four
/// leaves one reply, an open three a few, a quiet threat more.
fn leaves_to_prove(board: &Board, p: Point) -> u32 {
    let me = board.side_to_move();
    if board.makes_four(p, me) {
        1
    } else if board.shapes(p, me).contains(&Shape::OpenThree) {
        THREE_LEAVES
    } else {
        QUIET_LEAVES
    }
}

/// A node's entry from its children's: at an attacker node the least proof number, the sum
/// of the disproof numbers and, once proven, the move with the shortest proof; at a defender
/// node the other way round, and the longest proof.
fn summarise(moves: &[Point], children: &[ProofEntry], attacker_to_move: bool) -> ProofEntry {
    let (mut least, mut sum) = (INFINITE, 0);
    let (mut best, mut plies) = (None, 0);
    for (&p, c) in moves.iter().zip(children) {
        let (near, far) = if attacker_to_move {
            (c.pn, c.dn)
        } else {
            (c.dn, c.pn)
        };
        least = least.min(near);
        sum = add(sum, far);
        if attacker_to_move {
            if c.pn == 0 && (best.is_none() || c.plies + 1 < plies) {
                best = Some(p);
                plies = c.plies + 1;
            }
        } else {
            plies = plies.max(c.plies + 1);
        }
    }
    let (pn, dn) = if attacker_to_move {
        (least, sum)
    } else {
        (sum, least)
    };
    ProofEntry {
        pn,
        dn,
        best,
        plies: if pn == 0 { plies } else { 0 },
        searched: true,
    }
}

/// The entry of a position settled without a search: won for the attacker in `plies`, or
/// lost.
fn settled(won: bool, plies: u32) -> ProofEntry {
    match won {
        true => ProofEntry {
            pn: 0,
            dn: INFINITE,
            best: None,
            plies,
            searched: false,
        },
        false => ProofEntry {
            pn: INFINITE,
            dn: 0,
            best: None,
            plies: 0,
            searched: false,
        },
    }
}

/// The child to search next (the first of equals, so the moves' order breaks ties) and the
/// second-best number beside it.
fn select(children: &[ProofEntry], attacker_to_move: bool) -> (usize, u32) {
    let (mut least, mut best, mut second) = (INFINITE, 0, INFINITE);
    for (i, c) in children.iter().enumerate() {
        let near = if attacker_to_move { c.pn } else { c.dn };
        if near < least {
            second = least;
            least = near;
            best = i;
        } else if near < second {
            second = near;
        }
    }
    (best, second)
}

/// A child's threshold for the sum it is part of: what the node's threshold leaves once its
/// siblings' share (`total - own`) is taken out.
fn reserve(threshold: u32, total: u32, own: u32) -> u32 {
    if threshold == INFINITE {
        INFINITE
    } else {
        threshold
            .saturating_sub(total.saturating_sub(own))
            .min(LARGE)
    }
}
