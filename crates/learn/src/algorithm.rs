//! The algorithms Learn mode compares, by name.

use std::fmt;
use std::str::FromStr;

#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The textbook max/min pair; values from the first player's view.
    Minimax,
    /// Minimax written once from the side to move's view.
    Negamax,
    /// Negamax that skips moves which cannot change the result.
    AlphaBeta,
    /// Alpha-beta with null windows for every move after the first.
    Pvs,
    /// The full engine (Gomoku) or full searcher (m,n,k) at the same depth.
    Engine,
}

impl Algorithm {
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Minimax,
        Algorithm::Negamax,
        Algorithm::AlphaBeta,
        Algorithm::Pvs,
        Algorithm::Engine,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::Negamax => "negamax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Pvs => "pvs",
            Algorithm::Engine => "engine",
        }
    }

    /// Whether its tree's values are the first player's (minimax) or the side to move's.
    pub fn first_player_view(self) -> bool {
        self == Algorithm::Minimax
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    fn from_str(s: &str) -> Result<Algorithm, String> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown algorithm \"{s}\" (minimax, negamax, alphabeta, pvs or engine)")
            })
    }
}

/// A comma-separated list of algorithm names, e.g. `minimax,alphabeta`.
pub fn parse_list(text: &str) -> Result<Vec<Algorithm>, String> {
    text.split(',').map(|name| name.trim().parse()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_lists_parse() {
        for a in Algorithm::ALL {
            assert_eq!(a.name().parse::<Algorithm>(), Ok(a));
        }
        assert_eq!(
            parse_list("minimax, alphabeta"),
            Ok(vec![Algorithm::Minimax, Algorithm::AlphaBeta])
        );
        let error = parse_list("minimax,quicksort").unwrap_err();
        assert!(error.contains("\"quicksort\""), "{error}");
        assert!(Algorithm::Minimax.first_player_view() && !Algorithm::Pvs.first_player_view());
    }
}
