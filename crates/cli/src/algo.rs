//! Choosing a strategy by name on the command line.

use clap::ValueEnum;
use std::time::Duration;
use wuzi_search::{
    AlphaBeta, Game, Limits, Minimax, Negamax, Pvs, SearchOptions, SearchResult, Searcher,
    Strategy, WorkLimit, UNLIMITED_DEPTH,
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
    /// The full searcher: PVS, transposition table, move ordering, game-specific pruning
    /// (named `engine` in Learn mode's comparisons).
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
            Algo::Search => Box::new(Searcher::new(tt_bytes).with_options(Algo::solving_options())),
        }
    }

    /// Searches `game` to the end, as [`Algo::solver`]'s strategy does, unless that takes
    /// longer than `time`: then `None`. Textbook searches of a big board would otherwise run
    /// for years.
    pub fn solve_within<G: Game + 'static>(
        self,
        game: &mut G,
        tt_bytes: usize,
        time: Duration,
    ) -> Option<SearchResult<G::Move>> {
        let depth = UNLIMITED_DEPTH;
        let mut limit = WorkLimit::new(u64::MAX, Some(time));
        match self {
            Algo::Minimax => Minimax { depth }.search_observed(game, &mut limit),
            Algo::Negamax => Negamax { depth }.search_observed(game, &mut limit),
            Algo::Alphabeta => AlphaBeta { depth }.search_observed(game, &mut limit),
            Algo::Pvs => Pvs { depth }.search_observed(game, &mut limit),
            Algo::Search => {
                let mut searcher = Searcher::new(tt_bytes).with_options(Algo::solving_options());
                let result = searcher.search(game, &Limits::time(time), |_| {});
                // Stopped by the clock, its one pass to the end did not complete.
                (result.depth > 0).then_some(result)
            }
        }
    }

    /// The full searcher's options for solving: one pass to the end, no deepening.
    fn solving_options() -> SearchOptions {
        SearchOptions {
            iterative_deepening: false,
            ..SearchOptions::default()
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
