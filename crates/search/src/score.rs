//! Scores with a band at each end for decided games.
//!
//! A decided score encodes *when* the game ends, counted in plies from the root of the search:
//! a win in fewer plies scores higher than a win in more, a loss in more plies scores higher
//! than a loss in fewer. Every strategy that maximises a `Score` therefore prefers the shortest
//! win and the longest defence without any special code.

use std::fmt;
use std::ops::Neg;

/// The deepest ply any search may reach; decided scores live within this distance of the ends.
pub const MAX_PLY: usize = 512;

/// The last ply any strategy searches: a position there that is not over is scored by its
/// evaluation. One short of [`MAX_PLY`], so that the searcher's per-ply buffers always have
/// room for the child of a node.
pub(crate) const LAST_PLY: usize = MAX_PLY - 1;

/// A position value from the point of view of the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(i32);

/// A proven result, as seen by the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Forced {
    /// The side to move wins; the game ends after this many plies.
    Win(u32),
    /// The side to move loses; the game ends after this many plies.
    Loss(u32),
}

impl Score {
    const WIN_VALUE: i32 = 1_000_000;
    /// Largest magnitude a heuristic (undecided) score may have.
    pub const MAX_HEURISTIC: Score = Score(Self::WIN_VALUE - MAX_PLY as i32 - 1);
    pub const DRAW: Score = Score(0);
    /// Above every real score: the initial "beta" of a full-window search.
    pub const INFINITY: Score = Score(Self::WIN_VALUE + 1);

    /// A heuristic score, clamped so it can never be mistaken for a decided one.
    pub fn heuristic(value: i32) -> Score {
        let max = Self::MAX_HEURISTIC.0;
        Score(value.clamp(-max, max))
    }

    /// The side to move wins, the game ending `plies` plies from the search root.
    pub fn win_in(plies: u32) -> Score {
        debug_assert!((plies as usize) <= MAX_PLY);
        Score(Self::WIN_VALUE - plies as i32)
    }

    /// The side to move loses, the game ending `plies` plies from the search root.
    pub fn loss_in(plies: u32) -> Score {
        -Score::win_in(plies)
    }

    pub fn value(self) -> i32 {
        self.0
    }

    /// Rebuilds a score from [`Score::value`] (e.g. read back from a table).
    pub fn from_value(value: i32) -> Score {
        Score(value.clamp(-Self::INFINITY.0, Self::INFINITY.0))
    }

    pub fn is_decided(self) -> bool {
        self.0.abs() > Self::MAX_HEURISTIC.0 && self.0.abs() <= Self::WIN_VALUE
    }

    /// The one place that turns a score into "win/loss in N plies".
    pub fn forced(self) -> Option<Forced> {
        if !self.is_decided() {
            return None;
        }
        let plies = (Self::WIN_VALUE - self.0.abs()) as u32;
        Some(if self.0 > 0 {
            Forced::Win(plies)
        } else {
            Forced::Loss(plies)
        })
    }

    /// A decided score measured from the root becomes one measured from a node `ply` deep, and
    /// back; transposition tables store scores relative to the node so they stay true wherever
    /// the position is reached again.
    pub fn to_node_relative(self, ply: u32) -> Score {
        match self.forced() {
            Some(Forced::Win(_)) => Score(self.0 + ply as i32),
            Some(Forced::Loss(_)) => Score(self.0 - ply as i32),
            None => self,
        }
    }

    /// Inverse of [`Score::to_node_relative`].
    pub fn to_root_relative(self, ply: u32) -> Score {
        match self.forced() {
            Some(Forced::Win(_)) => Score(self.0 - ply as i32),
            Some(Forced::Loss(_)) => Score(self.0 + ply as i32),
            None => self,
        }
    }

    /// One less than `self`: the upper edge of a null window.
    pub fn minus_one(self) -> Score {
        Score(self.0 - 1)
    }

    pub fn plus_one(self) -> Score {
        Score(self.0 + 1)
    }
}

impl Neg for Score {
    type Output = Score;
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

impl From<Forced> for Score {
    fn from(forced: Forced) -> Score {
        match forced {
            Forced::Win(plies) => Score::win_in(plies),
            Forced::Loss(plies) => Score::loss_in(plies),
        }
    }
}

/// `win in 7`, `loss in 4`, a number, or at the heuristic bound `nearly won` / `nearly
/// lost`: what a search reports when every move it searched wins or loses but it left
/// moves out, so that it has no proof (a number like -999487 would read as a measure).
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.forced() {
            Some(Forced::Win(plies)) => write!(f, "win in {plies}"),
            Some(Forced::Loss(plies)) => write!(f, "loss in {plies}"),
            None if *self == Self::MAX_HEURISTIC => write!(f, "nearly won"),
            None if *self == -Self::MAX_HEURISTIC => write!(f, "nearly lost"),
            None => write!(f, "{}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_read_as_results_numbers_or_nearly_decided() {
        assert_eq!(Score::win_in(7).to_string(), "win in 7");
        assert_eq!(Score::loss_in(4).to_string(), "loss in 4");
        assert_eq!(Score::heuristic(-35).to_string(), "-35");
        assert_eq!(Score::heuristic(i32::MAX).to_string(), "nearly won");
        assert_eq!((-Score::MAX_HEURISTIC).to_string(), "nearly lost");
    }

    #[test]
    fn shorter_wins_and_longer_losses_score_higher() {
        assert!(Score::win_in(1) > Score::win_in(3));
        assert!(Score::win_in(99) > Score::MAX_HEURISTIC);
        assert!(Score::loss_in(8) > Score::loss_in(2));
        assert!(Score::loss_in(99) < -Score::MAX_HEURISTIC);
        assert!(Score::INFINITY > Score::win_in(0));
    }

    #[test]
    fn forced_round_trips() {
        for plies in [0, 1, 7, MAX_PLY as u32] {
            assert_eq!(Score::win_in(plies).forced(), Some(Forced::Win(plies)));
            assert_eq!(Score::loss_in(plies).forced(), Some(Forced::Loss(plies)));
            assert_eq!(Score::from(Forced::Win(plies)), Score::win_in(plies));
        }
        assert_eq!(Score::heuristic(i32::MAX).forced(), None);
        assert_eq!(Score::DRAW.forced(), None);
    }

    #[test]
    fn node_relative_scores_round_trip() {
        let win = Score::win_in(9);
        assert_eq!(win.to_node_relative(4), Score::win_in(5));
        assert_eq!(win.to_node_relative(4).to_root_relative(4), win);
        let loss = Score::loss_in(6);
        assert_eq!(loss.to_node_relative(2), Score::loss_in(4));
        assert_eq!(loss.to_node_relative(2).to_root_relative(2), loss);
        assert_eq!(
            Score::heuristic(42).to_node_relative(3),
            Score::heuristic(42)
        );
    }

    #[test]
    fn display_names_forced_results() {
        assert_eq!(Score::win_in(3).to_string(), "win in 3");
        assert_eq!(Score::loss_in(2).to_string(), "loss in 2");
        assert_eq!(Score::heuristic(-15).to_string(), "-15");
    }
}
