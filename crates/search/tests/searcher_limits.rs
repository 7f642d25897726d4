//! The full searcher's contract, on toy games: limits, reports, determinism, exact values.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};
use wuzi_search::{
    AlphaBeta, Game, Limits, Minimax, Outcome, Player, Score, SearchOptions, Searcher, Strategy,
    UNLIMITED_DEPTH,
};

/// An endless game: three moves everywhere, and a pseudo-random evaluation of each path.
#[derive(Clone)]
struct EndlessTree {
    path: Vec<u64>,
}

impl EndlessTree {
    fn new() -> Self {
        EndlessTree {
            path: vec![0x1234_5678],
        }
    }
}

impl Game for EndlessTree {
    type Move = u8;

    fn side_to_move(&self) -> Player {
        if self.path.len() % 2 == 1 {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        out.extend([0, 1, 2]);
    }

    fn play(&mut self, mv: u8) {
        let last = *self.path.last().unwrap();
        let next = (last ^ (mv as u64 + 1))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(17);
        self.path.push(next);
    }

    fn undo(&mut self, _mv: u8) {
        self.path.pop();
    }

    fn outcome(&self) -> Option<Outcome> {
        None
    }

    fn hash(&self) -> u64 {
        *self.path.last().unwrap()
    }

    fn evaluate(&self) -> Score {
        Score::heuristic((self.hash() % 201) as i32 - 100)
    }

    fn move_index(&self, mv: u8) -> usize {
        mv as usize
    }

    fn move_index_bound(&self) -> usize {
        3
    }
}

/// Subtraction game: take 1 to 3 counters, whoever takes the last one wins.
#[derive(Clone)]
struct Nim {
    counters: u32,
    moves: u32,
}

impl Game for Nim {
    type Move = u32;

    fn side_to_move(&self) -> Player {
        if self.moves.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.extend((1..=3).filter(|&take| take <= self.counters));
    }

    fn play(&mut self, take: u32) {
        self.counters -= take;
        self.moves += 1;
    }

    fn undo(&mut self, take: u32) {
        self.counters += take;
        self.moves -= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.counters == 0).then(|| Outcome::Win(self.side_to_move().opponent()))
    }

    fn hash(&self) -> u64 {
        (self.counters as u64) << 1 | (self.moves % 2) as u64
    }

    fn move_index(&self, take: u32) -> usize {
        take as usize
    }

    fn move_index_bound(&self) -> usize {
        4
    }
}

#[test]
fn node_limited_searches_are_deterministic() {
    let run = || {
        let mut searcher = Searcher::new(1 << 20);
        searcher.search(&mut EndlessTree::new(), &Limits::nodes(20_000), |_| {})
    };
    let (a, b) = (run(), run());
    assert_eq!(
        (a.best_move, a.score, a.nodes, a.depth, &a.pv),
        (b.best_move, b.score, b.nodes, b.depth, &b.pv)
    );
    assert!(a.nodes <= 20_001, "{}", a.nodes);
    assert!(a.depth >= 5);
}

#[test]
fn reports_every_completed_iteration() {
    let mut depths = Vec::new();
    let mut last_nodes = 0;
    let mut searcher = Searcher::new(1 << 20);
    let result = searcher.search(&mut EndlessTree::new(), &Limits::depth(7), |report| {
        depths.push(report.depth);
        assert!(report.nodes >= last_nodes);
        assert_eq!(
            report.pv.len(),
            report.depth as usize,
            "a full-length principal variation"
        );
        last_nodes = report.nodes;
    });
    assert_eq!(depths, (1..=7).collect::<Vec<_>>());
    assert_eq!(result.depth, 7);
    assert_eq!(result.pv.first().copied(), result.best_move);
}

#[test]
fn stops_on_time_and_on_the_stop_flag() {
    let mut searcher = Searcher::new(1 << 20);
    let start = Instant::now();
    let result = searcher.search(
        &mut EndlessTree::new(),
        &Limits::time(Duration::from_millis(50)),
        |_| {},
    );
    // A generous margin: the promise is "stops soon after the limit", on a loaded machine too.
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
    assert!(result.best_move.is_some());

    let stop = Arc::new(AtomicBool::new(true));
    let start = Instant::now();
    let result = searcher.search(
        &mut EndlessTree::new(),
        &Limits::default().with_stop(stop),
        |_| {},
    );
    assert!(start.elapsed() < Duration::from_secs(2));
    assert!(
        result.best_move.is_some(),
        "a move even when stopped at once"
    );
}

#[test]
fn depth_limited_search_agrees_with_alphabeta_without_a_table() {
    for depth in 1..=6 {
        let options = SearchOptions {
            tt: false,
            ..SearchOptions::default()
        };
        let mut searcher = Searcher::new(0).with_options(options);
        let result = searcher.search(&mut EndlessTree::new(), &Limits::depth(depth), |_| {});
        let reference = AlphaBeta { depth }.search(&mut EndlessTree::new());
        assert_eq!(result.score, reference.score, "depth {depth}");
    }
}

#[test]
fn solves_nim_exactly_with_every_option_set() {
    for counters in 1..=14 {
        let mut game = Nim { counters, moves: 0 };
        let oracle = Minimax {
            depth: UNLIMITED_DEPTH,
        }
        .search(&mut game);
        assert_eq!(oracle.score > Score::DRAW, counters % 4 != 0, "{counters}");
        for bits in 0..32u32 {
            let options = SearchOptions {
                pvs: bits & 1 != 0,
                tt: bits & 2 != 0,
                killers: bits & 4 != 0,
                history: bits & 8 != 0,
                iterative_deepening: bits & 16 != 0,
            };
            let mut searcher = Searcher::new(1 << 16).with_options(options);
            let result = searcher.search(&mut game, &Limits::depth(40), |_| {});
            assert_eq!(
                result.score, oracle.score,
                "{counters} counters, {options:?}"
            );
        }
    }
}

/// Nim where the game offers the searcher only "take one" and may say that it pruned.
struct OnlyTakeOne {
    nim: Nim,
    says_pruned: bool,
}

impl Game for OnlyTakeOne {
    type Move = u32;

    fn side_to_move(&self) -> Player {
        self.nim.side_to_move()
    }

    fn legal_moves(&self, out: &mut Vec<u32>) {
        self.nim.legal_moves(out);
    }

    fn play(&mut self, take: u32) {
        self.nim.play(take);
    }

    fn undo(&mut self, take: u32) {
        self.nim.undo(take);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.nim.outcome()
    }

    fn hash(&self) -> u64 {
        self.nim.hash()
    }

    fn candidate_moves(&mut self, out: &mut Vec<u32>) {
        if self.nim.counters > 0 {
            out.push(1);
        }
    }

    fn candidates_pruned(&self) -> bool {
        self.says_pruned && self.nim.counters > 1
    }
}

#[test]
fn a_loss_among_pruned_candidates_is_not_reported_as_proven() {
    // Six counters: taking two wins, but taking one at every turn loses for the first player.
    for says_pruned in [false, true] {
        let mut game = OnlyTakeOne {
            nim: Nim {
                counters: 6,
                moves: 0,
            },
            says_pruned,
        };
        let result = Searcher::new(1 << 16).search(&mut game, &Limits::depth(10), |_| {});
        let claimed_loss = matches!(result.score.forced(), Some(wuzi_search::Forced::Loss(_)));
        assert_eq!(claimed_loss, !says_pruned, "pruned: {says_pruned}");
    }
}
