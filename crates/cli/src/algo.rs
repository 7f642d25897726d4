//! Choosing a strategy by name on the command line.

use clap::ValueEnum;
use wuzi_search::{
    AlphaBeta, Game, Minimax, Negamax, Pvs, SearchOptions, Searcher, Strategy, UNLIMITED_DEPTH,
};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum Algo {
    /// Textbook minimax over the whole game tree.
    Minimax,
    /// Negamax over the whole game tree.
    Negamax,
    /// Alpha-beta (negamax form) over the whole game tree.
    Alphabeta,
    /// Principal-variation search (null windows after the first move), no table.
    Pvs,
    /// The full searcher: PVS, transposition table, move ordering, game-specific pruning.
    Search,
}

impl Algo {
    /// A strategy that searches to the end of the game (the full searcher with a table of
    /// `tt_bytes`).
    pub fn solver<G: Game + 'static>(self, tt_bytes: usize) -> Box<dyn Strategy<G>> {
        match self {
            Algo::Minimax => Box::new(Minimax {
                depth: UNLIMITED_DEPTH,
            }),
            Algo::Negamax => Box::new(Negamax {
                depth: UNLIMITED_DEPTH,
            }),
            Algo::Alphabeta => Box::new(AlphaBeta {
                depth: UNLIMITED_DEPTH,
            }),
            Algo::Pvs => Box::new(Pvs {
                depth: UNLIMITED_DEPTH,
            }),
            Algo::Search => {
                let options = SearchOptions {
                    iterative_deepening: false,
                    ..SearchOptions::default()
                };
                Box::new(Searcher::new(tt_bytes).with_options(options))
            }
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Algo::Minimax => "minimax",
            Algo::Negamax => "negamax",
            Algo::Alphabeta => "alphabeta",
            Algo::Pvs => "pvs",
            Algo::Search => "search",
        }
    }
}

impl From<Algo> for wuzi_learn::Algorithm {
    fn from(algo: Algo) -> wuzi_learn::Algorithm {
        match algo {
            Algo::Minimax => wuzi_learn::Algorithm::Minimax,
            Algo::Negamax => wuzi_learn::Algorithm::Negamax,
            Algo::Alphabeta => wuzi_learn::Algorithm::AlphaBeta,
            Algo::Pvs => wuzi_learn::Algorithm::Pvs,
            Algo::Search => wuzi_learn::Algorithm::Engine,
        }
    }
}
