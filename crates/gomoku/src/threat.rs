//! Threat-space search: proves wins by continuous fours (VCF) or by fours and open threes
//! (VCT), for the side to move, under every rule.
//!
//! The attacker plays only threats, so the defender's replies are few and each is searched:
//! - against a four (one five point) the only reply is the block; two five points cannot
//!   both be blocked, and the defender's own fours come too late (the attacker fives first);
//! - against an open three, every move of the defender's that makes a four, and every move
//!   after which the attacker has no legal straight-four point left; a move that is neither
//!   lets the attacker make a straight four and win.
//!
//! A defender with a five point of its own refutes the attack. Under renju, a Black attacker
//! never plays a forbidden point, a forbidden straight-four point is no threat, and a Black
//! defender whose only block is forbidden has lost.
//!
//! Attacks deepen one attacker move at a time, so the first win found uses the fewest
//! attacker moves. Results go to a table keyed by the Zobrist hash: wins, and "no win within
//! N attacker moves".

use crate::board::Board;
use crate::movegen::{five_points, point_priority};
use crate::notation::{Point, MAX_SIZE};
use crate::pattern::Shape;
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
    /// The most attacker moves a win may take (the five not counted).
    pub max_attacks: u32,
    pub nodes: Option<u64>,
    pub deadline: Option<Instant>,
    pub stop: Option<Arc<AtomicBool>>,
}

/// A proven win.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThreatWin {
    /// Plies until the game ends, the final move included.
    pub plies: u32,
    /// The winning line: attacker, defender, attacker, ... (the defender's longest defence).
    pub line: Vec<Point>,
}

impl ThreatWin {
    pub fn first(&self) -> Point {
        self.line[0]
    }
}

#[derive(Copy, Clone, Default)]
struct Slot {
    key: u64,
    /// Plies of a proven win (0: none known).
    win_plies: u16,
    /// Attacker moves the proven win needs.
    win_attacks: u8,
    /// No win exists within this many attacker moves.
    no_win_within: u8,
}

/// Deepest line the solver follows, in plies.
const MAX_LINE: usize = 2 * 128 + 8;
/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 512;

/// A VCF/VCT prover with reusable buffers and its own table.
pub struct ThreatSolver {
    table: Vec<Slot>,
    moves: MoveStack<Point>,
    scratch: Vec<Point>,
    lines: Vec<Vec<Point>>,
    seen: Vec<u32>,
    stamp: u32,
    nodes: u64,
    budget_end: u64,
    deadline: Option<Instant>,
    stop: Option<Arc<AtomicBool>>,
    aborted: bool,
    kind: ThreatKind,
}

impl ThreatSolver {
    /// A solver whose table uses at most `table_bytes` bytes.
    pub fn new(table_bytes: usize) -> ThreatSolver {
        let fit = table_bytes / std::mem::size_of::<Slot>();
        let len = if fit == 0 {
            0
        } else {
            1usize << (usize::BITS - 1 - fit.leading_zeros())
        };
        ThreatSolver {
            table: vec![Slot::default(); len],
            moves: MoveStack::default(),
            scratch: Vec::with_capacity(64),
            lines: (0..=MAX_LINE)
                .map(|_| Vec::with_capacity(MAX_LINE))
                .collect(),
            seen: vec![0; MAX_SIZE * MAX_SIZE],
            stamp: 0,
            nodes: 0,
            budget_end: u64::MAX,
            deadline: None,
            stop: None,
            aborted: false,
            kind: ThreatKind::Vcf,
        }
    }

    /// Positions visited since the solver was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn table_bytes(&self) -> usize {
        self.table.len() * std::mem::size_of::<Slot>()
    }

    pub fn clear(&mut self) {
        self.table.iter_mut().for_each(|s| *s = Slot::default());
    }

    /// The shortest win (in attacker moves) for the side to move, if one is proven within the
    /// limits. `None` claims nothing.
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
        self.budget_end = limits
            .nodes
            .map_or(u64::MAX, |n| self.nodes.saturating_add(n));
        self.deadline = limits.deadline;
        self.stop = limits.stop.clone();
        self.aborted = false;
        let max_attacks = limits.max_attacks.min((MAX_LINE as u32 - 4) / 2);
        for attacks in 0..=max_attacks {
            if let Some(plies) = self.attack(board, attacks, 0) {
                return Some(ThreatWin {
                    plies,
                    line: self.lines[0].clone(),
                });
            }
            if self.aborted {
                break;
            }
        }
        None
    }

    /// As [`ThreatSolver::solve`], for the side that is not to move, as if it had the move:
    /// what the opponent threatens.
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

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.budget_end {
            self.aborted = true;
        } else if self.nodes % CHECK_EVERY == 0 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let stopped = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            self.aborted = late || stopped;
        }
        self.aborted
    }

    fn slot(&self, key: u64) -> Option<usize> {
        (!self.table.is_empty()).then(|| key as usize & (self.table.len() - 1))
    }

    fn table_key(&self, board: &Board) -> u64 {
        match self.kind {
            ThreatKind::Vcf => board.hash(),
            ThreatKind::Vct => board.hash() ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// The line of a move followed by the line below it.
    fn extend_line(&mut self, ply: usize, mv: Point) {
        let (here, below) = self.lines.split_at_mut(ply + 1);
        let line = &mut here[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&below[0]);
    }

    /// Attacker to move: plies to its five, if it wins with at most `attacks` more threats.
    fn attack(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<u32> {
        self.nodes += 1;
        self.lines[ply].clear();
        let me = board.side_to_move();
        let them = me.opponent();
        if board.threats(me).five > 0 {
            self.scratch.clear();
            five_points(board, me, &mut self.scratch, 1);
            let five = self.scratch[0];
            self.lines[ply].push(five);
            return Some(1);
        }
        if attacks == 0 || ply + 3 >= MAX_LINE || self.out_of_budget() {
            return None;
        }
        let key = self.table_key(board);
        if let Some(i) = self.slot(key) {
            let slot = self.table[i];
            if slot.key == key {
                if slot.win_plies > 0 && slot.win_attacks as u32 <= attacks {
                    // A known win, but the table keeps no line: search again to rebuild it
                    // (the table answers the positions below at once).
                    return self.attack_uncached(board, attacks, ply, me, them);
                }
                if slot.no_win_within as u32 >= attacks {
                    return None;
                }
            }
        }
        self.attack_uncached(board, attacks, ply, me, them)
    }

    fn attack_uncached(
        &mut self,
        board: &mut Board,
        attacks: u32,
        ply: usize,
        me: Player,
        them: Player,
    ) -> Option<u32> {
        let mut candidates = self.moves.take(ply);
        if board.threats(them).five > 0 {
            // The defender threatens five: block it, and the attack goes on only if a threat
            // of ours still stands afterwards (checked by `defend`).
            five_points(board, them, &mut candidates, 2);
            if candidates.len() > 1 {
                candidates.clear();
            }
        } else {
            self.attack_moves(board, me, &mut candidates);
        }
        let mut found = None;
        for &p in &candidates {
            board.play(p);
            // A result here is Black's foul: the attacker had no five to make.
            let line = if board.result().is_none() {
                self.defend(board, attacks - 1, ply + 1)
            } else {
                None
            };
            board.undo();
            if let Some(plies) = line {
                self.extend_line(ply, p);
                found = Some(plies + 1);
                break;
            }
            if self.aborted {
                break;
            }
        }
        self.moves.give(ply, candidates);
        if !self.aborted {
            self.remember(board, attacks, found);
        }
        found
    }

    fn remember(&mut self, board: &Board, attacks: u32, found: Option<u32>) {
        let key = self.table_key(board);
        let Some(i) = self.slot(key) else { return };
        let slot = &mut self.table[i];
        if slot.key != key {
            *slot = Slot {
                key,
                ..Slot::default()
            };
        }
        match found {
            Some(plies) => {
                if slot.win_plies == 0 || attacks < slot.win_attacks as u32 {
                    slot.win_plies = plies.min(u16::MAX as u32) as u16;
                    slot.win_attacks = attacks.min(u8::MAX as u32) as u8;
                }
            }
            None => slot.no_win_within = slot.no_win_within.max(attacks.min(255) as u8),
        }
    }

    /// The attacker's threat moves, best first: fours, then (VCT) open threes.
    fn attack_moves(&mut self, board: &Board, me: Player, out: &mut Vec<Point>) {
        let t = board.threats(me);
        let want_threes = self.kind == ThreatKind::Vct && t.open_three > 0;
        if t.four == 0 && !want_threes {
            return;
        }
        let them = me.opponent();
        let mut keyed: [(i32, Point); MAX_SIZE * MAX_SIZE] =
            [(0, Point::new(0, 0)); MAX_SIZE * MAX_SIZE];
        let mut n = 0;
        for p in board.points() {
            if !board.is_empty(p) {
                continue;
            }
            let shapes = board.shapes(p, me);
            let four = shapes.iter().any(|s| s.is_four());
            let three = want_threes && shapes.contains(&Shape::OpenThree);
            if !four && !three {
                continue;
            }
            let rank = if four { 100_000 } else { 0 }
                + point_priority(shapes) * 2
                + point_priority(board.shapes(p, them));
            keyed[n] = (rank, p);
            n += 1;
        }
        let keyed = &mut keyed[..n];
        // Ties broken by the point, so the search stays deterministic; the unstable sort
        // does not allocate.
        keyed.sort_unstable_by_key(|&(rank, p)| (std::cmp::Reverse(rank), p));
        out.extend(keyed.iter().map(|&(_, p)| p));
    }

    /// Defender to move after a threat: plies to the attacker's five if every defence fails.
    fn defend(&mut self, board: &mut Board, attacks: u32, ply: usize) -> Option<u32> {
        self.nodes += 1;
        self.lines[ply].clear();
        let defender = board.side_to_move();
        let attacker = defender.opponent();
        if board.threats(defender).five > 0 {
            return None;
        }
        self.scratch.clear();
        five_points(board, attacker, &mut self.scratch, 2);
        match self.scratch.len() {
            0 => {}
            1 => {
                let block = self.scratch[0];
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
            _ => {
                let (block, five) = (self.scratch[0], self.scratch[1]);
                let line = &mut self.lines[ply];
                line.push(block);
                line.push(five);
                return Some(2);
            }
        }
        if self.kind == ThreatKind::Vcf {
            return None;
        }
        // An open three: the defender's fours, and every move that leaves the attacker no
        // legal straight four.
        let mut threats = self.moves.take(ply);
        Self::straight_four_points(board, attacker, &mut threats);
        if threats.is_empty() {
            self.moves.give(ply, threats);
            return None;
        }
        let mut defences = self.moves.take(ply + 1);
        self.defences(board, defender, &threats, &mut defences);
        self.moves.give(ply, threats);
        let mut worst: Option<(u32, Point)> = None;
        let mut held = false;
        for &m in &defences {
            board.play(m);
            let line = if board.result().is_none() {
                self.attack(board, attacks, ply + 1)
            } else {
                // Black's foul: no defence, skip it (the defender would not choose it).
                Some(0)
            };
            board.undo();
            match line {
                None => {
                    held = true;
                    break;
                }
                Some(plies) => {
                    if worst.map_or(true, |(w, _)| plies > w) {
                        worst = Some((plies, m));
                        self.extend_line(ply, m);
                    }
                }
            }
        }
        self.moves.give(ply + 1, defences);
        if held || self.aborted {
            return None;
        }
        match worst {
            Some((plies, _)) => Some(plies + 1),
            // Nothing stops the straight four: any move, the four, a block, the five.
            None => {
                self.lines[ply].clear();
                Some(4)
            }
        }
    }

    /// The attacker's empty points that make a straight four and are legal for it.
    fn straight_four_points(board: &mut Board, attacker: Player, out: &mut Vec<Point>) {
        Self::scan_straight_fours(board, attacker, |p| {
            out.push(p);
            true
        });
    }

    /// Calls `found` on each empty point where `attacker` makes a straight four and may
    /// play, row by row, until it returns false.
    fn scan_straight_fours(
        board: &mut Board,
        attacker: Player,
        mut found: impl FnMut(Point) -> bool,
    ) {
        if board.threats(attacker).open_four == 0 {
            return;
        }
        let fouls = board.rule().has_fouls(attacker);
        for y in 0..board.size() {
            for x in 0..board.size() {
                let p = Point::new(x, y);
                if board.is_empty(p)
                    && board.shapes(p, attacker).contains(&Shape::OpenFour)
                    && !(fouls && board.foul(p).is_some())
                    && !found(p)
                {
                    return;
                }
            }
        }
    }

    /// Every defender move worth trying against the straight-four points `threats`: its own
    /// fours, and the points on the threats' lines (a shape only changes when a stone lands
    /// within five cells along its line) after which no legal straight four is left.
    fn defences(
        &mut self,
        board: &mut Board,
        defender: Player,
        threats: &[Point],
        out: &mut Vec<Point>,
    ) {
        let attacker = defender.opponent();
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.seen.iter_mut().for_each(|s| *s = 0);
            self.stamp = 1;
        }
        let stamp = self.stamp;
        let n = board.size() as isize;
        for p in board.points() {
            if board.is_empty(p) && board.shapes(p, defender).iter().any(|s| s.is_four()) {
                self.seen[p.index()] = stamp;
                out.push(p);
            }
        }
        let fours = out.len();
        for &q in threats {
            for (d, &shape) in board.shapes(q, attacker).iter().enumerate() {
                if shape != Shape::OpenFour {
                    continue;
                }
                let (dx, dy) = crate::geometry::DIRS[d].delta();
                for k in -5isize..=5 {
                    let (x, y) = (q.x() as isize + k * dx, q.y() as isize + k * dy);
                    if x < 0 || y < 0 || x >= n || y >= n {
                        continue;
                    }
                    let p = Point::new(x as usize, y as usize);
                    if board.is_empty(p) && self.seen[p.index()] != stamp {
                        self.seen[p.index()] = stamp;
                        out.push(p);
                    }
                }
            }
        }
        // Keep the line points that really stop every straight four.
        let mut kept = fours;
        for i in fours..out.len() {
            let p = out[i];
            board.play(p);
            let stops = board.result().is_none() && !Self::has_legal_straight_four(board, attacker);
            board.undo();
            if stops {
                out[kept] = p;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Whether `attacker` has a five to make or a legal straight four.
    fn has_legal_straight_four(board: &mut Board, attacker: Player) -> bool {
        let mut any = board.threats(attacker).five > 0;
        if !any {
            Self::scan_straight_fours(board, attacker, |_| {
                any = true;
                false
            });
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_moves;
    use crate::rules::Rule;

    fn board(rule: Rule, black: &str, white: &str, to_move: Player) -> Board {
        let b = parse_moves(black, 15).unwrap();
        let w = parse_moves(white, 15).unwrap();
        Board::from_stones(15, rule, &b, &w, Some(to_move)).unwrap()
    }

    fn solve(board: &mut Board, kind: ThreatKind) -> Option<(u32, String)> {
        let limits = ThreatLimits {
            max_attacks: 10,
            nodes: Some(1_000_000),
            ..ThreatLimits::default()
        };
        let before = board.hash();
        let win = ThreatSolver::new(1 << 20).solve(board, kind, &limits);
        assert_eq!(board.hash(), before, "the board is left as it was");
        win.map(|w| (w.plies, w.first().to_human(15)))
    }

    const BLACK: Player = Player::First;
    const WHITE: Player = Player::Second;

    #[test]
    fn an_open_three_wins_by_continuous_fours() {
        for rule in Rule::ALL {
            let mut b = board(rule, "h8 i8 j8", "a1 a15 o1", BLACK);
            let (plies, _) = solve(&mut b, ThreatKind::Vcf).unwrap();
            assert_eq!(plies, 3, "{rule}: open four, block, five");
        }
    }

    #[test]
    fn a_double_three_is_a_vct_but_no_vcf() {
        // j8 makes h8-i8-j8 and j8-(j9)-j10-j11 open at once.
        let mut b = board(Rule::Freestyle, "h8 i8 j10 j11", "a1 a15 o1 o15", BLACK);
        assert_eq!(solve(&mut b, ThreatKind::Vcf), None);
        let (plies, first) = solve(&mut b, ThreatKind::Vct).unwrap();
        assert_eq!(plies, 5);
        assert_eq!(first, "j8");
    }

    #[test]
    fn a_counter_four_of_the_defender_refutes_a_slow_threat() {
        // As above, but White has an open three of its own: answering Black's double three
        // with a straight four wins for White, so Black has no VCT.
        let mut b = board(
            Rule::Freestyle,
            "h8 i8 j10 j11 a14",
            "c3 c4 c5 o1 o15",
            BLACK,
        );
        assert_eq!(solve(&mut b, ThreatKind::Vct), None);
        // White, to move, has a VCF of its own.
        assert!(solve(&mut b.clone(), ThreatKind::Vcf).is_none());
        let mut ts = ThreatSolver::new(1 << 20);
        let limits = ThreatLimits {
            max_attacks: 4,
            ..ThreatLimits::default()
        };
        let white = ts
            .solve_for_opponent(&mut b, ThreatKind::Vcf, &limits)
            .unwrap();
        assert_eq!(white.plies, 3);
        assert_eq!(b.side_to_move(), BLACK, "the pass is undone");
    }

    /// Black: h8 i8 j8 (White g8) and k5 k6 k7 (White k4): k8 makes two fours.
    const DOUBLE_FOUR_BLACK: &str = "h8 i8 j8 k5 k6 k7";
    const DOUBLE_FOUR_WHITE: &str = "g8 k4 a1 a15 o1 o15";

    #[test]
    fn a_forbidden_double_four_is_no_win_for_black_in_renju() {
        let mut free = board(Rule::Freestyle, DOUBLE_FOUR_BLACK, DOUBLE_FOUR_WHITE, BLACK);
        assert_eq!(solve(&mut free, ThreatKind::Vcf), Some((3, "k8".into())));
        let mut renju = board(Rule::Renju, DOUBLE_FOUR_BLACK, DOUBLE_FOUR_WHITE, BLACK);
        assert_eq!(solve(&mut renju, ThreatKind::Vcf), None);
        // Black still has a slower win (i7 makes the split three h8-i7-_-k5), never via k8.
        let (plies, first) = solve(&mut renju, ThreatKind::Vct).unwrap();
        assert_eq!((plies, first.as_str()), (7, "i7"));
    }

    #[test]
    fn white_wins_when_blacks_only_block_is_forbidden() {
        // White g4-h5-i6 on the diagonal (Black f3 below it): j7 makes a four whose only five
        // point is k8, where Black may not play.
        let black = format!("{DOUBLE_FOUR_BLACK} f3");
        let white = "g8 k4 g4 h5 i6 a15 o1";
        let mut renju = board(Rule::Renju, &black, white, WHITE);
        assert_eq!(solve(&mut renju, ThreatKind::Vcf), Some((2, "j7".into())));
        let mut free = board(Rule::Freestyle, &black, white, WHITE);
        assert_ne!(solve(&mut free, ThreatKind::Vcf), Some((2, "j7".into())));
    }

    #[test]
    fn the_table_stays_within_its_bytes_and_results_repeat() {
        for bytes in [0, 100, 1 << 16] {
            assert!(ThreatSolver::new(bytes).table_bytes() <= bytes);
        }
        let mut b = board(Rule::Freestyle, "h8 i8 j10 j11", "a1 a15 o1 o15", BLACK);
        let mut ts = ThreatSolver::new(1 << 16);
        let limits = ThreatLimits {
            max_attacks: 6,
            ..ThreatLimits::default()
        };
        let first = ts.solve(&mut b, ThreatKind::Vct, &limits);
        let n = ts.nodes();
        let mut fresh = ThreatSolver::new(1 << 16);
        assert_eq!(fresh.solve(&mut b, ThreatKind::Vct, &limits), first);
        assert_eq!(fresh.nodes(), n, "deterministic node count");
    }
}
