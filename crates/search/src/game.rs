//! The interface a game implements so that every strategy can search it.

use crate::score::Score;
use std::fmt::Debug;

/// The two sides. The side that moves first is the one textbook minimax maximises for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    First,
    Second,
}

impl Player {
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// 0 for the first player, 1 for the second: an index into per-side tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

/// A two-player, perfect-information, turn-based game searched in place.
///
/// `play` and `undo` change the game in place so that a search allocates nothing per node.
/// Only the required methods are needed for the textbook strategies; the methods with default
/// bodies are hooks that the full [`crate::Searcher`] uses when a game provides them.
///
/// The contract every searcher relies on:
/// - `outcome` is `Some` exactly when the game is over, and `legal_moves` is empty exactly
///   then: a position with no move must say how it ended (a stalemate is a draw or a loss,
///   as the game's rules have it). A position with no move and no outcome is scored by
///   [`Game::evaluate`], as if the search stopped there.
/// - `evaluate` returns a heuristic score ([`Score::heuristic`]): a decided score claims a
///   proven win or loss, and the searchers would report it as one.
/// - `hash` identifies the position, side to move included (see [`Game::hash`]).
/// - No line is searched past ply `MAX_PLY - 1` ([`crate::MAX_PLY`]): a game that can last
///   longer is scored by its evaluation there, by every strategy alike.
pub trait Game {
    type Move: Copy + Eq + Debug;

    fn side_to_move(&self) -> Player;

    /// Appends every legal move to `out` (the caller clears it). Empty once the game is over,
    /// and only then (see the trait's contract).
    fn legal_moves(&self, out: &mut Vec<Self::Move>);

    fn play(&mut self, mv: Self::Move);

    /// Takes back `mv`, which must be the last move played.
    fn undo(&mut self, mv: Self::Move);

    /// `Some` once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// A 64-bit hash of the position, side to move included, kept exact by `play` and `undo`
    /// (usually a Zobrist hash: XOR of a random key per piece on a square and one for the
    /// side to move, from [`crate::zobrist_keys`]). The transposition table takes two
    /// positions with the same hash for the same position, so a careless hash gives *wrong
    /// values*, not just a slower search; to debug one, search with the table off
    /// (`SearchOptions { tt: false, .. }`) and compare. The textbook strategies do not use it.
    fn hash(&self) -> u64;

    /// A static score from the side to move's point of view; only meaningful while the game is
    /// not over. Build it with [`Score::heuristic`], which keeps it clear of the decided
    /// scores (debug builds check). The default knows nothing and calls every position even.
    fn evaluate(&self) -> Score {
        Score::DRAW
    }

    // ----- Hooks for the full searcher -----

    /// True when [`Game::candidate_moves`] already lists moves best first; the searcher then
    /// only lifts its table and killer moves to the front instead of sorting by history.
    const ORDERED_CANDIDATES: bool = false;

    /// Candidate moves for the searcher (the caller clears `out`). A game may prune moves that
    /// cannot change the result (for example, everything but the block of an immediate threat),
    /// but must never prune a move needed to avoid losing. The default: every legal move.
    fn candidate_moves(&mut self, out: &mut Vec<Self::Move>) {
        self.legal_moves(out);
    }

    /// True when the last [`Game::candidate_moves`] left out moves that might matter (a
    /// heuristic width limit, say). A loss found among the remaining moves is then not
    /// proven, and the searcher does not report it as one.
    fn candidates_pruned(&self) -> bool {
        false
    }

    /// The exact value of the position for the side to move, if the game can tell without
    /// searching (an immediate win, a threat-space proof, a dead draw). Decided scores count
    /// plies from this position: `Score::win_in(1)` means "wins with its next move". `depth` is
    /// the searcher's remaining depth, which a game may use to decide how hard to look.
    fn probe(&mut self, _depth: u32) -> Option<Score> {
        None
    }

    /// Bounds on the value for the side to move known without searching, `(lower, upper)`, with
    /// decided scores counted from this position as in [`Game::probe`]. A game where a side
    /// can no longer win says its value is at most a draw; the searcher cuts off at once when
    /// the bounds fall outside its window. The default knows nothing.
    fn bounds(&self) -> (Score, Score) {
        (-Score::INFINITY, Score::INFINITY)
    }

    /// Key for the transposition table. Games with symmetric boards may return a key shared by
    /// all symmetric images, and then map moves into and out of that shared frame with
    /// [`Game::table_move`] and [`Game::table_move_back`]. The searcher treats a stored move
    /// as a hint: it is used only if it is among the candidates.
    fn table_key(&self) -> u64 {
        self.hash()
    }

    fn table_move(&self, mv: Self::Move) -> Self::Move {
        mv
    }

    fn table_move_back(&self, mv: Self::Move) -> Self::Move {
        mv
    }

    /// A dense index of a move, below [`Game::move_index_bound`], for history tables. The
    /// searcher's history ordering does nothing until a game gives both.
    fn move_index(&self, _mv: Self::Move) -> usize {
        0
    }

    /// How many move indices there are: every [`Game::move_index`] is below it.
    fn move_index_bound(&self) -> usize {
        1
    }

    /// An upper bound on the plies left in the game, if the game knows one. A search that
    /// reaches it has seen every line to its end and so has solved the position.
    fn max_remaining_plies(&self) -> Option<u32> {
        None
    }
}

/// [`Game::evaluate`], checked in debug builds to be heuristic: a decided score there would
/// be reported as a proven result.
pub(crate) fn static_score<G: Game>(game: &G) -> Score {
    let score = game.evaluate();
    debug_assert!(
        !score.is_decided() && score.value().abs() < Score::INFINITY.value(),
        "Game::evaluate returned {score:?}, a decided score: build it with Score::heuristic"
    );
    score
}

/// The value of a finished game for the side to move, `ply` plies from the search root.
pub fn terminal_score(outcome: Outcome, side_to_move: Player, ply: u32) -> Score {
    match outcome {
        Outcome::Draw => Score::DRAW,
        Outcome::Win(winner) if winner == side_to_move => Score::win_in(ply),
        Outcome::Win(_) => Score::loss_in(ply),
    }
}
