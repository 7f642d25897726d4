//! The board: stones, play/undo in place, Zobrist hash, the result, and the incrementally
//! maintained shapes of every empty point with their per-colour counts.
//!
//! Shapes are stored line by line (per colour and direction), so the cells a move changes are
//! contiguous: `play` saves those few bytes and the counts, and `undo` copies them back
//! instead of recomputing. Nothing here allocates after construction.
//!
//! The shapes come from one lookup per point in a table of both colours' shapes, keyed by the
//! line around the point at two bits a cell (see [`crate::table::FusedTable`]). The board also
//! keeps, per colour, the stones within two of every point, which the move-ordering policy reads.
//!
//! The learned evaluation rides on the same updates: each empty point keeps, per colour, the
//! key of its four shapes (one digit per direction, see [`crate::eval`]), and the board keeps
//! per colour and role the sum of the rule's table values over those codes, so evaluating
//! is O(1) and a move costs a few table lookups per changed shape.
//!
//! The in-place update of all this by a stone, and its undoing, is in `update`.

use crate::eval::{code_flags, code_of_key, embedded_weights, Weights, FLAG_FOUR};
use crate::forbidden::Foul;
use crate::geometry::{geometry, Dir, Geometry, CELLS, LINES, STEP};
use crate::notation::{parse_moves_with_text, MoveListError, Point, MAX_SIZE, MIN_SIZE};
use crate::pattern::{state_index, Shape, REACH, SHAPE_COUNT};
use crate::rules::Rule;
use crate::table::{fused, table, FusedTable, ShapeTable, CELL_WALL};
use std::fmt;
use std::sync::{Arc, OnceLock};
use update::Snapshot;
use wuzi_search::{zobrist_keys, Outcome, Player};

#[cfg(test)]
mod tests;
mod update;

/// Cells saved per line on each move: the point and `REACH` on each side.
const SPAN: usize = 2 * REACH + 1;
/// Bytes per stored line of shapes (padding of `REACH` at the front).
const LINE_BYTES: usize = 32;
const _: () = assert!(MAX_SIZE + 2 * REACH <= LINE_BYTES);
/// Keys one move can change: both colours on the point and on `SPAN - 1` cells of 4 lines.
const KEY_LOG_PER_MOVE: usize = 2 * (1 + 4 * (SPAN - 1));
/// Slots of the per-shape counts: a nibble's values, so that a shape read from the board
/// indexes them without a bounds check.
const COUNT_SLOTS: usize = 16;
const _: () = assert!(SHAPE_COUNT <= COUNT_SLOTS);
const ZOBRIST_SEED: u64 = 0x5755_5A49_474F_4D4B;
/// Row stride of the [`Board::around`] counts: the board with a margin of two on each side,
/// and room for an 8-byte add at the last column.
const AROUND_STRIDE: usize = 32;
const _: () = assert!(MAX_SIZE + 4 + 4 <= AROUND_STRIDE);
const AROUND_CELLS: usize = (MAX_SIZE + 4) * AROUND_STRIDE;
/// Five one-bytes: one more stone in each of the five cells of a row of the square.
const AROUND_ROW: u64 = 0x01_0101_0101;

fn zobrist() -> &'static [u64] {
    static KEYS: OnceLock<Vec<u64>> = OnceLock::new();
    KEYS.get_or_init(|| zobrist_keys(ZOBRIST_SEED, 2 * CELLS + 1))
}

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The winner made a five.
    Five,
    /// Renju: Black made an overline (and no exact five), and loses.
    Overline,
    /// Renju: Black made two fours at once, and loses.
    DoubleFour,
    /// Renju: Black made two real open threes at once, and loses.
    DoubleThree,
    /// The board is full without a five: a draw.
    BoardFull,
}

impl Reason {
    pub fn name(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Overline => "overline",
            Reason::DoubleFour => "double-four",
            Reason::DoubleThree => "double-three",
            Reason::BoardFull => "board-full",
        }
    }
}

impl From<Foul> for Reason {
    fn from(f: Foul) -> Reason {
        match f {
            Foul::Overline => Reason::Overline,
            Foul::DoubleFour => Reason::DoubleFour,
            Foul::DoubleThree => Reason::DoubleThree,
        }
    }
}

/// The end of a game: the winner (`None` for a draw) and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameResult {
    pub winner: Option<Player>,
    pub reason: Reason,
}

impl GameResult {
    pub fn outcome(self) -> Outcome {
        match self.winner {
            Some(p) => Outcome::Win(p),
            None => Outcome::Draw,
        }
    }
}

/// Per-colour counts of (empty point, direction) pairs by the shape a stone there makes.
/// `five > 0` means the colour can win at once (it has a four on the board); `open_four > 0`
/// means it has an open three; `four` counts every point-direction that makes any four. Under
/// renju Black's counts include its forbidden points: where a threat must be real (move
/// generation's forced replies), check them with [`Board::foul`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct ThreatCounts {
    pub five: u32,
    pub open_four: u32,
    pub four: u32,
    pub open_three: u32,
}

/// Invalid board size or set-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoardError {
    Size(usize),
    Move(MoveListError),
    Position(String),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardError::Size(n) => write!(
                f,
                "board size {n} is not supported (use {MIN_SIZE} to {MAX_SIZE})"
            ),
            BoardError::Move(e) => e.fmt(f),
            BoardError::Position(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for BoardError {}

impl From<MoveListError> for BoardError {
    fn from(e: MoveListError) -> Self {
        BoardError::Move(e)
    }
}

/// The moves played, with room for a whole board kept through a clone (a `Vec` clone has
/// room for its moves only), so that playing on a copy (an engine's board, a search
/// thread's) never allocates.
#[derive(Debug, Default)]
struct History(Vec<Point>);

impl Clone for History {
    fn clone(&self) -> History {
        let mut moves = Vec::with_capacity(self.0.capacity());
        moves.extend_from_slice(&self.0);
        History(moves)
    }
}

impl std::ops::Deref for History {
    type Target = Vec<Point>;
    fn deref(&self) -> &Vec<Point> {
        &self.0
    }
}

impl std::ops::DerefMut for History {
    fn deref_mut(&mut self) -> &mut Vec<Point> {
        &mut self.0
    }
}

/// A Gomoku position with its history. See the crate docs.
#[derive(Clone)]
pub struct Board {
    size: usize,
    rule: Rule,
    geo: &'static Geometry,
    /// Shape table per colour (exact-five or five-or-more).
    tables: [&'static ShapeTable; 2],
    /// Both colours' shapes from a line key, for the updates in `put`.
    fused: &'static FusedTable,
    zobrist: &'static [u64],
    /// 0 empty, 1 black, 2 white; indexed by [`Point::index`].
    cells: [u8; CELLS],
    /// Stone bitboards per colour, direction and line (bit `position + REACH`).
    pub(crate) bits: [[[u32; LINES]; 4]; 2],
    /// Per direction and line, two bits a cell (empty, black, white, wall) at bit
    /// `2 * (position + REACH)`: the key of [`FusedTable`] windows.
    line_keys: [[u64; LINES]; 4],
    /// Shapes per colour, direction, line and `position + REACH`; `None` on occupied points.
    pub(crate) shapes: [[[[u8; LINE_BYTES]; LINES]; 4]; 2],
    /// Per colour, the number of (empty point, direction) pairs with each shape.
    counts: [[u16; COUNT_SLOTS]; 2],
    /// The learned evaluation's tables for this rule, shared by every board that sums them
    /// (the embedded ones, or tables a match or a tuner made for one run).
    weights: Arc<Weights>,
    /// Per colour and point, the direction-ordered key of its shapes (0 on occupied points).
    keys: [[u16; CELLS]; 2],
    /// Per colour and role, the sum of `weights` over the codes of the empty points.
    values: [[i32; 2]; 2],
    /// The weights' tempo for this board's size ([`Weights::tempo_on`]), by colour to move.
    tempo: [i32; 2],
    /// (colour * CELLS + point, old key) of every key a move changed, undone in reverse;
    /// room for every stone's changes, so `put` writes it with a cursor kept in a register.
    key_log: Box<[(u16, u16)]>,
    /// The entries of `key_log` in use.
    key_len: usize,
    hash: u64,
    side: Player,
    stones: usize,
    /// Per colour, the number of its stones in the 5x5 square around each point (row
    /// `y + 2`, column `x + 2` of rows [`AROUND_STRIDE`] wide): the move-ordering policy
    /// reads it for every candidate, so `put` keeps it (five 8-byte adds) instead.
    around: [[u8; AROUND_CELLS]; 2],
    /// Per row `y + 2`, bit `x` set when a stone is within two of point (x, y) in both
    /// coordinates (bits past the board's edge may be set too): move generation's nearby
    /// points, kept here so it needs no pass over the stones.
    near_rows: [u32; MAX_SIZE + 4],
    history: History,
    /// One slot per stone that can be on the board, written in place by `put` (no push of
    /// the whole struct); `stones_put` of them are in use.
    snapshots: Box<[Snapshot]>,
    /// Stones placed by `put` and not yet taken back.
    stones_put: usize,
    result: Option<GameResult>,
}

impl Board {
    /// An empty `size` x `size` board, Black to move.
    pub fn new(size: usize, rule: Rule) -> Result<Board, BoardError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(BoardError::Size(size));
        }
        let exact = |c| table(rule.exact_five(c));
        let fused = fused(rule);
        let mut b = Board {
            size,
            rule,
            geo: geometry(size),
            tables: [exact(Player::First), exact(Player::Second)],
            fused,
            zobrist: zobrist(),
            cells: [0; CELLS],
            bits: [[[0; LINES]; 4]; 2],
            line_keys: [[0; LINES]; 4],
            shapes: [[[[0; LINE_BYTES]; LINES]; 4]; 2],
            counts: [[0; COUNT_SLOTS]; 2],
            weights: embedded_weights(rule),
            keys: [[0; CELLS]; 2],
            values: [[0; 2]; 2],
            tempo: [0; 2],
            key_log: vec![(0, 0); size * size * KEY_LOG_PER_MOVE].into_boxed_slice(),
            key_len: 0,
            hash: 0,
            side: Player::First,
            stones: 0,
            around: [[0; AROUND_CELLS]; 2],
            history: History(Vec::with_capacity(size * size)),
            snapshots: vec![Snapshot::default(); size * size].into_boxed_slice(),
            stones_put: 0,
            near_rows: [0; MAX_SIZE + 4],
            result: None,
        };
        for (keys, walls) in b.line_keys.iter_mut().zip(&b.geo.wall) {
            for (key, &wall) in keys.iter_mut().zip(walls) {
                *key = (0..32)
                    .filter(|i| wall >> i & 1 != 0)
                    .fold(0, |k, i| k | CELL_WALL << (2 * i));
            }
        }
        b.recompute_shapes();
        Ok(b)
    }

    /// The position after a move list in either notation (see [`crate::parse_moves`]). An
    /// off-board or occupied point, or a move after the game ended, is an error naming the
    /// move and its index.
    pub fn from_moves(size: usize, rule: Rule, moves: &str) -> Result<Board, BoardError> {
        let mut b = Board::new(size, rule)?;
        for (index, m) in parse_moves_with_text(moves, size)?.into_iter().enumerate() {
            b.try_play(m.point).map_err(|problem| MoveListError {
                index,
                text: m.text,
                problem,
                offset: m.offset,
            })?;
        }
        Ok(b)
    }

    /// The position after `moves`, each string exactly one move (`h8` or `7,7`), as a JSON
    /// list gives them: a string with two moves, or part of one, is an error naming it,
    /// rather than read together with its neighbours as [`Board::from_moves`] would.
    pub fn from_move_strings<S: AsRef<str>>(
        size: usize,
        rule: Rule,
        moves: &[S],
    ) -> Result<Board, BoardError> {
        let mut b = Board::new(size, rule)?;
        for (index, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            let refuse = |problem: String| MoveListError {
                index,
                text: text.trim().to_string(),
                problem,
                offset: 0,
            };
            let p = match parse_moves_with_text(text, size) {
                Ok(points) if points.len() == 1 => points[0].point,
                Ok(points) if points.is_empty() => return Err(refuse("no move".into()).into()),
                Ok(_) => return Err(refuse("more than one move in one string".into()).into()),
                Err(e) => return Err(refuse(e.problem).into()),
            };
            b.try_play(p).map_err(refuse)?;
        }
        Ok(b)
    }

    /// A position given as stones. The side to move is `to_move`, or else follows from the
    /// counts (equal: Black; one more black: White). The move history starts empty. A five
    /// already on the board ends the game (both colours having one is an error).
    pub fn from_stones(
        size: usize,
        rule: Rule,
        black: &[Point],
        white: &[Point],
        to_move: Option<Player>,
    ) -> Result<Board, BoardError> {
        let mut b = Board::new(size, rule)?;
        for (colour, list, name) in [
            (Player::First, black, "black"),
            (Player::Second, white, "white"),
        ] {
            for (i, &p) in list.iter().enumerate() {
                if !p.on_board(size) {
                    return Err(BoardError::Position(format!(
                        "{name} stone {} (1-based) {:?} is off the {size}x{size} board",
                        i + 1,
                        p
                    )));
                }
                if !b.is_empty(p) {
                    return Err(BoardError::Position(format!(
                        "{name} stone {} (1-based) {} is on an occupied point",
                        i + 1,
                        p.to_human(size)
                    )));
                }
                b.put(p, colour);
            }
        }
        b.stones_put = 0;
        b.key_len = 0;
        let side = match to_move {
            Some(s) => s,
            None if black.len() == white.len() => Player::First,
            None if black.len() == white.len() + 1 => Player::Second,
            None => {
                return Err(BoardError::Position(format!(
                    "{} black and {} white stones: give the side to move",
                    black.len(),
                    white.len()
                )))
            }
        };
        if side == Player::Second {
            b.side = side;
            b.hash ^= b.zobrist[2 * CELLS];
        }
        let fives: Vec<Player> = [Player::First, Player::Second]
            .into_iter()
            .filter(|&c| b.has_five_on_board(c))
            .collect();
        // Under renju a Black overline is a foul that ended the game, whoever is to move
        // (unless a five ended it).
        let foul = rule.has_fouls(Player::First) && b.has_overline_on_board(Player::First);
        let win = |winner: Player, reason: Reason| {
            Some(GameResult {
                winner: Some(winner),
                reason,
            })
        };
        b.result = match (fives.as_slice(), foul) {
            ([], false) if b.stones == size * size => Some(GameResult {
                winner: None,
                reason: Reason::BoardFull,
            }),
            ([], false) => None,
            ([], true) => win(Player::Second, Reason::Overline),
            // Beside an overline, Black's five wins: one move can make both, and the five
            // counts first.
            ([c], _) => win(*c, Reason::Five),
            _ => {
                return Err(BoardError::Position(
                    "both colours have a five on the board".into(),
                ))
            }
        };
        Ok(b)
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn rule(&self) -> Rule {
        self.rule
    }

    pub fn side_to_move(&self) -> Player {
        self.side
    }

    /// Zobrist hash of the stones and the side to move.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The hash the position will have once the side to move plays `p` (for prefetching).
    #[inline]
    pub fn hash_after(&self, p: Point) -> u64 {
        self.hash ^ self.zobrist[self.side.index() * CELLS + p.index()] ^ self.zobrist[2 * CELLS]
    }

    /// `Some` once the game is over.
    pub fn result(&self) -> Option<GameResult> {
        self.result
    }

    /// The result in the search core's terms.
    pub fn outcome(&self) -> Option<Outcome> {
        self.result.map(GameResult::outcome)
    }

    /// Moves played since the start (or since the set-up stones), in order.
    pub fn moves(&self) -> &[Point] {
        &self.history
    }

    pub fn last_move(&self) -> Option<Point> {
        self.history.last().copied()
    }

    /// The latest stone of `colour` among the last two moves (usually the one before last;
    /// a threat search's pass can leave a colour's own stone last).
    pub fn last_stone(&self, colour: Player) -> Option<Point> {
        let mut latest = self.history.iter().rev().take(2).copied();
        latest.find(|&p| self.stone(p) == Some(colour))
    }

    /// Stones on the board (set-up stones included).
    pub fn stone_count(&self) -> usize {
        self.stones
    }

    /// Empty points left on the board.
    pub fn empty_count(&self) -> usize {
        self.size * self.size - self.stones
    }

    /// The stone on `p`, if any (`None` also off the board).
    pub fn stone(&self, p: Point) -> Option<Player> {
        if !p.on_board(self.size) {
            return None;
        }
        match self.cells[p.index()] {
            1 => Some(Player::First),
            2 => Some(Player::Second),
            _ => None,
        }
    }

    /// True when `p` is on the board and free.
    pub fn is_empty(&self, p: Point) -> bool {
        p.on_board(self.size) && self.cells[p.index()] == 0
    }

    /// Every point of the board, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| Point::new(x, y)))
    }

    /// The shape a `colour` stone on empty point `p` makes along `dir` (`None` on occupied
    /// points).
    #[inline]
    pub fn shape(&self, p: Point, dir: Dir, colour: Player) -> Shape {
        let (d, i) = (dir as usize, p.index());
        let (l, q) = (self.geo.line[d][i] as usize, self.geo.pos[d][i] as usize);
        Shape::from_u8(self.shapes[colour.index()][d][l][q + REACH])
    }

    /// [`Board::shape`] in all four directions.
    #[inline]
    pub fn shapes(&self, p: Point, colour: Player) -> [Shape; 4] {
        let i = p.index();
        let s = &self.shapes[colour.index()];
        std::array::from_fn(|d| {
            let (l, q) = (self.geo.line[d][i] as usize, self.geo.pos[d][i] as usize);
            Shape::from_u8(s[d][l][q + REACH])
        })
    }

    /// [`Board::shapes`] weakest first instead of by direction, read from the point's kept
    /// pattern code: three dependent loads instead of twelve, for callers that only ask which
    /// shapes a point has (the strongest is the last).
    #[inline(always)]
    pub(crate) fn sorted_shapes(&self, p: Point, colour: Player) -> [Shape; 4] {
        crate::eval::code_shapes(self.code(p, colour))
    }

    /// [`Board::shapes`] of `colour` on empty `t` as they would be with an opponent's stone on
    /// the empty point `blocker` too. Only the line joining the two points can change, so this
    /// is one table lookup: move generation tests a defence with it instead of playing it.
    #[inline]
    pub(crate) fn shapes_if_blocked(&self, t: Point, colour: Player, blocker: Point) -> [Shape; 4] {
        let mut shapes = self.shapes(t, colour);
        if let Some(d) = self.line_within_reach(t, blocker) {
            shapes[d] = self.shape_if_blocked(t, d, colour, blocker);
        }
        shapes
    }

    /// The shape of `colour` on empty `t` along direction `d` with an opponent's stone on the
    /// empty point `blocker` of that line (within [`REACH`] of `t`): one table lookup.
    #[inline]
    pub(crate) fn shape_if_blocked(
        &self,
        t: Point,
        d: usize,
        colour: Player,
        blocker: Point,
    ) -> Shape {
        let (ti, bi) = (t.index(), blocker.index());
        let l = self.geo.line[d][ti] as usize;
        debug_assert_eq!(self.geo.line[d][bi] as usize, l);
        let (qt, qb) = (self.geo.pos[d][ti] as usize, self.geo.pos[d][bi] as usize);
        let k = colour.index();
        let blocked = self.bits[1 - k][d][l] | self.geo.wall[d][l] | 1 << (qb + REACH);
        Shape::from_u8(window_shape(
            self.tables[k],
            self.bits[k][d][l],
            blocked,
            qt,
        ))
    }

    /// The shape of `colour` on empty `t` along direction `d` with a stone of its own on the
    /// empty point `extra` of that line (within [`REACH`] of `t`): one table lookup.
    #[inline]
    pub(crate) fn shape_if_added(&self, t: Point, d: usize, colour: Player, extra: Point) -> Shape {
        let (ti, ei) = (t.index(), extra.index());
        let l = self.geo.line[d][ti] as usize;
        debug_assert_eq!(self.geo.line[d][ei] as usize, l);
        let (qt, qe) = (self.geo.pos[d][ti] as usize, self.geo.pos[d][ei] as usize);
        let k = colour.index();
        let own = self.bits[k][d][l] | 1 << (qe + REACH);
        let blocked = self.bits[1 - k][d][l] | self.geo.wall[d][l];
        Shape::from_u8(window_shape(self.tables[k], own, blocked, qt))
    }

    /// The direction of the line through `p` and `q`, if they are two points of one line
    /// within [`REACH`] of each other (`None` for one point).
    #[inline]
    pub(crate) fn line_within_reach(&self, p: Point, q: Point) -> Option<usize> {
        let (pi, qi) = (p.index(), q.index());
        (0..4).find(|&d| {
            let (qp, qq) = (self.geo.pos[d][pi] as usize, self.geo.pos[d][qi] as usize);
            self.geo.line[d][pi] == self.geo.line[d][qi] && qp != qq && qp.abs_diff(qq) <= REACH
        })
    }

    /// How many (empty point, direction) pairs have `shape` for `colour`. O(1).
    #[inline]
    pub fn shape_count(&self, colour: Player, shape: Shape) -> u32 {
        self.counts[colour.index()][shape as usize] as u32
    }

    /// The threat counts of `colour`. O(1).
    pub fn threats(&self, colour: Player) -> ThreatCounts {
        let c = |s| self.shape_count(colour, s);
        ThreatCounts {
            five: c(Shape::Five),
            open_four: c(Shape::OpenFour),
            four: c(Shape::Four) + c(Shape::FourFour) + c(Shape::OpenFour),
            open_three: c(Shape::OpenThree),
        }
    }

    /// Plays `p` for the side to move, checked: an error (and no change) when `p` is off the
    /// board or occupied or the game is over.
    pub fn try_play(&mut self, p: Point) -> Result<(), String> {
        if let Some(r) = self.result {
            return Err(format!("the game is already over ({})", r.reason.name()));
        }
        if !p.on_board(self.size) {
            return Err(format!("not on the {0}x{0} board", self.size));
        }
        if self.cells[p.index()] != 0 {
            return Err("the point is occupied".into());
        }
        self.play(p);
        Ok(())
    }

    /// Plays `p` for the side to move and decides whether that ends the game. `p` must be
    /// empty and the game not over (checked in debug builds only): the searches' move,
    /// kept in the crate; a caller outside it plays with [`Board::try_play`], which checks.
    pub(crate) fn play(&mut self, p: Point) {
        debug_assert!(self.is_empty(p) && self.result.is_none());
        let c = self.side;
        let result = self.judge(p, c);
        self.put(p, c);
        self.history.push(p);
        self.side = c.opponent();
        self.hash ^= self.zobrist[2 * CELLS];
        self.result = match result {
            None if self.stones == self.size * self.size => Some(GameResult {
                winner: None,
                reason: Reason::BoardFull,
            }),
            r => r,
        };
    }

    /// Gives the move to the other side without placing a stone, so a threat search can ask
    /// what the opponent would do with the move. It flips the side to move and the hash's
    /// side key (so `hash() == hash_from_scratch()` still holds) and records no history: a
    /// second `pass` undoes it, once every move played since the first has been undone.
    pub(crate) fn pass(&mut self) {
        self.side = self.side.opponent();
        self.hash ^= self.zobrist[2 * CELLS];
    }

    /// Takes back the last move; `None` (and no change) when there is none.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.history.pop()?;
        self.side = self.side.opponent();
        self.hash ^= self.zobrist[2 * CELLS];
        self.take(p, self.side);
        self.result = None;
        Some(p)
    }

    /// The result if `colour` plays `p` now (before it is placed).
    #[inline]
    fn judge(&mut self, p: Point, colour: Player) -> Option<GameResult> {
        if self.sorted_shapes(p, colour)[3] == Shape::Five {
            return Some(GameResult {
                winner: Some(colour),
                reason: Reason::Five,
            });
        }
        if self.rule.has_fouls(colour) {
            if let Some(f) = self.foul(p) {
                return Some(GameResult {
                    winner: Some(colour.opponent()),
                    reason: f.into(),
                });
            }
        }
        None
    }

    /// The empty points of row `y` with a stone within two in both coordinates, as bits by
    /// column.
    #[inline(always)]
    pub(crate) fn near_row(&self, y: usize) -> u32 {
        let stones = (self.bits[0][0][y] | self.bits[1][0][y]) >> REACH;
        self.near_rows[y + 2] & !stones & ((1 << self.size) - 1)
    }

    /// The number of `colour` stones in the 5x5 square around `p`.
    #[inline(always)]
    pub(crate) fn stones_around(&self, p: Point, colour: Player) -> u32 {
        self.around[colour.index()][(p.y() + 2) * AROUND_STRIDE + p.x() + 2] as u32
    }

    /// The learned evaluation's weights this board sums.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Whether this board sums exactly these shared weights (the same tables, not equal ones).
    pub fn sums_weights(&self, weights: &Arc<Weights>) -> bool {
        Arc::ptr_eq(&self.weights, weights)
    }

    /// Sums other weights (e.g. freshly fitted ones) from now on. The weights must be for this
    /// board's rule, else nothing changes and the error says why.
    pub fn set_weights(&mut self, weights: Arc<Weights>) -> Result<(), String> {
        if weights.rule != self.rule {
            return Err(format!(
                "weights for {} on a {} board",
                weights.rule.name(),
                self.rule.name()
            ));
        }
        // The saved sums of earlier moves were made with the old weights: take the moves
        // back, change the weights, and play them again so undo restores the new sums.
        let (hash, result) = (self.hash, self.result);
        let moves = self.history.to_vec();
        while self.undo().is_some() {}
        self.weights = weights;
        self.recompute_values();
        for p in moves {
            self.play(p);
        }
        debug_assert_eq!((self.hash, self.result), (hash, result));
        Ok(())
    }

    /// Per colour and role, the incrementally kept sums of the learned tables.
    #[inline(always)]
    pub(crate) fn learned_values(&self) -> [[i32; 2]; 2] {
        self.values
    }

    /// The learned evaluation's tempo on this board, by colour to move (in sixteenths).
    #[inline(always)]
    pub(crate) fn tempo(&self) -> [i32; 2] {
        self.tempo
    }

    /// The pattern code of an empty point for `colour` from the kept key (0 on occupied
    /// points).
    #[inline(always)]
    pub(crate) fn code(&self, p: Point, colour: Player) -> usize {
        code_of_key(self.keys[colour.index()][p.index()])
    }

    /// Whether a `colour` stone on empty `p` makes a four of any kind (false on occupied
    /// points): one lookup on the kept key instead of reading the four shapes.
    #[inline(always)]
    pub(crate) fn makes_four(&self, p: Point, colour: Player) -> bool {
        code_flags(self.code(p, colour)) & FLAG_FOUR != 0
    }

    /// True when `colour` has a five (by its rule) somewhere on the board.
    fn has_five_on_board(&self, colour: Player) -> bool {
        let exact = self.rule.exact_five(colour);
        self.has_run_on_board(colour, |run| run == 5 || (run > 5 && !exact))
    }

    /// Whether `colour` has six or more in a row somewhere.
    fn has_overline_on_board(&self, colour: Player) -> bool {
        self.has_run_on_board(colour, |run| run > 5)
    }

    /// Whether some unbroken run of `colour`'s stones has a length that `counts`.
    fn has_run_on_board(&self, colour: Player, counts: impl Fn(u32) -> bool) -> bool {
        (0..4).any(|d| {
            (0..self.geo.lines[d]).any(|l| {
                let mut bits = self.bits[colour.index()][d][l];
                while bits != 0 {
                    let start = bits.trailing_zeros();
                    let run = (bits >> start).trailing_ones();
                    if counts(run) {
                        return true;
                    }
                    bits &= !(((1u64 << run) - 1) << start) as u32;
                }
                false
            })
        })
    }

    /// The hash computed from scratch (for tests of the incremental one).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for p in self.points() {
            if let Some(c) = self.stone(p) {
                h ^= self.zobrist[c.index() * CELLS + p.index()];
            }
        }
        if self.side == Player::Second {
            h ^= self.zobrist[2 * CELLS];
        }
        h
    }

    /// The point at position `r` of line `l` in direction `d`.
    #[inline]
    pub(crate) fn line_point(&self, d: usize, l: usize, r: usize) -> Point {
        let i = self.geo.start[d][l] as isize + r as isize * STEP[d];
        Point::from_index(i as usize).expect("on the line")
    }

    /// Calls `f` with each point within four of `from` along its four lines and the shape
    /// `colour` makes there in that line, read straight from the board's lines of shapes
    /// (stones, `from` among them, and points off the board have none and are skipped).
    #[inline]
    pub(crate) fn for_each_shape_near(
        &self,
        from: Point,
        colour: Player,
        mut f: impl FnMut(Point, Shape),
    ) {
        for d in 0..4 {
            let (l, q, _) = self.locate(from, d);
            let line = &self.shapes[colour.index()][d][l];
            // Positions q - 4 ..= q + 4 (at bytes q + 1 ..= q + 9).
            for (r, &shape) in line
                .iter()
                .enumerate()
                .take(q + REACH + 5)
                .skip(q + REACH - 4)
            {
                if shape != Shape::None as u8 {
                    f(self.line_point(d, l, r - REACH), Shape::from_u8(shape));
                }
            }
        }
    }

    /// (line, position, length) of `p` in direction `d`.
    #[inline]
    pub(crate) fn locate(&self, p: Point, d: usize) -> (usize, usize, usize) {
        let i = p.index();
        let l = self.geo.line[d][i] as usize;
        (l, self.geo.pos[d][i] as usize, self.geo.len[d][l] as usize)
    }

    /// The number of lines in direction `d` (for scans over whole lines of `shapes`).
    #[inline]
    pub(crate) fn line_count(&self, d: usize) -> usize {
        self.geo.lines[d]
    }
}

/// The shape at position `r` of a line from its bitboards of own and blocked cells (bit
/// `position + REACH`), read from `table`.
#[inline(always)]
fn window_shape(table: &ShapeTable, own: u32, blocked: u32, r: usize) -> u8 {
    table[state_index((own >> r) & 0x7FF, (blocked >> r) & 0x7FF)]
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board({}x{}, {}, {:?} to move, moves: {})",
            self.size,
            self.size,
            self.rule,
            self.side,
            crate::notation::format_moves(&self.history, self.size, false)
        )
    }
}
