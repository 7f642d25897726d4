//! A window onto the textbook searches while they run: every node entered, with its window, and
//! its value and cut-off when it is left. Learn mode records the tree with it; the server
//! bounds the work with it. `()` observes nothing, and the searches compile as if it were not
//! there.

use crate::game::Game;
use crate::score::Score;
use std::time::{Duration, Instant};

/// What a textbook search ([`crate::Minimax`], [`crate::Negamax`], [`crate::AlphaBeta`],
/// [`crate::Pvs`]) tells its observer. Calls nest: while the search runs, every `enter` is
/// matched by one `leave`, and the nodes entered between them are the children of the node
/// entered first. A search that is stopped (an `enter` returned false) unwinds without
/// leaving the nodes still open, the refused one included: an observer that keeps a stack
/// must not expect it to empty then. (Of a pair `(A, B)`, A has entered a node B refused.)
pub trait Observer<G: Game> {
    /// A node is entered: `game` is its position, `mv` the move that led there (`None` at the
    /// root), `ply` its distance from the root, `depth` the plies left to search, and
    /// `(alpha, beta)` the window it is searched with, from the view its value is given in
    /// (minimax: the first player's, always the full window; the others: the side to move's).
    /// Returning false stops the search: it unwinds at once and reports no result.
    fn enter(
        &mut self,
        _game: &G,
        _mv: Option<G::Move>,
        _ply: u32,
        _depth: u32,
        _alpha: Score,
        _beta: Score,
    ) -> bool {
        true
    }

    /// The node entered last (and not yet left) is done. `cutoff` is true when alpha >= beta
    /// stopped its loop; `skipped` are the moves that were then never searched.
    fn leave(&mut self, _value: Score, _cutoff: bool, _skipped: &[G::Move]) {}
}

impl<G: Game> Observer<G> for () {}

/// Two observers at once (a tree recorder and a work limit, say); the search stops when
/// either asks.
impl<G: Game, A: Observer<G>, B: Observer<G>> Observer<G> for (A, B) {
    fn enter(
        &mut self,
        game: &G,
        mv: Option<G::Move>,
        ply: u32,
        depth: u32,
        alpha: Score,
        beta: Score,
    ) -> bool {
        self.0.enter(game, mv, ply, depth, alpha, beta)
            && self.1.enter(game, mv, ply, depth, alpha, beta)
    }

    fn leave(&mut self, value: Score, cutoff: bool, skipped: &[G::Move]) {
        self.0.leave(value, cutoff, skipped);
        self.1.leave(value, cutoff, skipped);
    }
}

/// Stops a textbook search after a number of nodes or at a deadline: the textbook searches
/// have no limits of their own, and a server must bound every search.
#[derive(Clone, Debug)]
pub struct WorkLimit {
    max_nodes: u64,
    time: Option<Duration>,
    deadline: Option<Instant>,
    nodes: u64,
    /// Which limit stopped the search, if one did.
    pub exceeded: Option<LimitExceeded>,
}

/// The limit a search ran into.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LimitExceeded {
    Nodes(u64),
    Time(Duration),
}

/// How often (in nodes) the clock is read: reading it costs more than a textbook node.
const CLOCK_INTERVAL: u64 = 1024;

impl WorkLimit {
    /// At most `max_nodes` nodes, and no longer than `time` when given.
    pub fn new(max_nodes: u64, time: Option<Duration>) -> WorkLimit {
        WorkLimit {
            max_nodes,
            time,
            // A time past the clock's range (`u64::MAX` seconds) is no deadline at all.
            deadline: time.and_then(|t| Instant::now().checked_add(t)),
            nodes: 0,
            exceeded: None,
        }
    }
}

impl<G: Game> Observer<G> for WorkLimit {
    fn enter(&mut self, _: &G, _: Option<G::Move>, _: u32, _: u32, _: Score, _: Score) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            self.exceeded = Some(LimitExceeded::Nodes(self.max_nodes));
            return false;
        }
        if let (Some(deadline), Some(time)) = (self.deadline, self.time) {
            if self.nodes.is_multiple_of(CLOCK_INTERVAL) && Instant::now() >= deadline {
                self.exceeded = Some(LimitExceeded::Time(time));
                return false;
            }
        }
        true
    }
}
