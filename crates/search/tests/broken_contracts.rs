//! What the searchers do with a game that breaks [`Game`]'s contract, or strains it: every
//! strategy gives the same, finite answer, and a bad hook fails naming itself.

use wuzi_search::{
    AlphaBeta, Game, Limits, Minimax, Negamax, Outcome, Player, Pvs, Score, Searcher, Strategy,
    MAX_PLY, UNLIMITED_DEPTH,
};

/// A line of `length` plies, one move each (two at the first ply); the side to move at the
/// end loses. With `stuck`, the end has no move and no outcome instead: the contract broken.
struct Line {
    length: u32,
    played: u32,
    stuck: bool,
    /// What `move_index` gives every move (for the history tables).
    index: usize,
}

impl Line {
    fn new(length: u32) -> Line {
        Line {
            length,
            played: 0,
            stuck: false,
            index: 0,
        }
    }
}

impl Game for Line {
    type Move = u32;

    fn side_to_move(&self) -> Player {
        if self.played.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u32>) {
        if self.played < self.length {
            out.push(0);
            if self.played == 0 {
                out.push(1);
            }
        }
    }

    fn play(&mut self, _mv: u32) {
        self.played += 1;
    }

    fn undo(&mut self, _mv: u32) {
        self.played -= 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.played == self.length && !self.stuck)
            .then(|| Outcome::Win(self.side_to_move().opponent()))
    }

    fn hash(&self) -> u64 {
        u64::from(self.played)
    }

    /// Seen from the side to move: +7 for the first player.
    fn evaluate(&self) -> Score {
        match self.side_to_move() {
            Player::First => Score::heuristic(7),
            Player::Second => Score::heuristic(-7),
        }
    }

    fn move_index(&self, _mv: u32) -> usize {
        self.index
    }

    fn move_index_bound(&self) -> usize {
        2
    }
}

/// The textbook strategies to the end of the game, and the searcher with no depth limit.
fn every_strategy() -> Vec<Box<dyn Strategy<Line>>> {
    vec![
        Box::new(Minimax {
            depth: UNLIMITED_DEPTH,
        }),
        Box::new(Negamax {
            depth: UNLIMITED_DEPTH,
        }),
        Box::new(AlphaBeta {
            depth: UNLIMITED_DEPTH,
        }),
        Box::new(Pvs {
            depth: UNLIMITED_DEPTH,
        }),
        Box::new(Searcher::new(1 << 16).with_limits(Limits::default())),
    ]
}

/// A position with no move and no outcome is scored by the evaluation, by every strategy,
/// never as the infinite value of an empty list of moves.
#[test]
fn no_move_and_no_outcome_is_scored_by_the_evaluation() {
    for length in [1, 4, 5] {
        let mut game = Line::new(length);
        game.stuck = true;
        // The end's evaluation, +7 for the first player, from the root's side: the first's.
        let expected = Score::heuristic(7);
        for mut strategy in every_strategy() {
            let found = strategy.search(&mut game);
            assert_eq!(
                found.score,
                expected,
                "{} at length {length}",
                strategy.name()
            );
            assert_eq!(found.best_move, Some(0), "{}", strategy.name());
        }
    }
}

/// A game longer than `MAX_PLY` is scored by its evaluation there: no strategy claims a
/// result it cannot count, nor overflows (debug builds checked the plies and panicked).
#[test]
fn lines_past_max_ply_are_scored_by_the_evaluation() {
    let mut game = Line::new(MAX_PLY as u32 + 88);
    for mut strategy in every_strategy() {
        let found = strategy.search(&mut game);
        assert_eq!(found.score.forced(), None, "{}", strategy.name());
        assert!(
            found.score.value().abs() <= Score::MAX_HEURISTIC.value(),
            "{}: {:?}",
            strategy.name(),
            found.score
        );
    }
    // Just within reach, the result is proven as usual: an even length leaves the first
    // player to move at the end, lost. One ply more, and every strategy scores it instead.
    for mut strategy in every_strategy() {
        let mut game = Line::new(MAX_PLY as u32 - 2);
        let found = strategy.search(&mut game);
        assert_eq!(
            found.score,
            Score::loss_in(MAX_PLY as u32 - 2),
            "{}",
            strategy.name()
        );
        let mut game = Line::new(MAX_PLY as u32);
        let found = strategy.search(&mut game);
        assert_eq!(found.score.forced(), None, "{}", strategy.name());
    }
}

/// A `move_index` at or past `move_index_bound` is the game's mistake: the searcher says
/// which hook, rather than failing on an index deep inside.
#[test]
#[should_panic(expected = "Game::move_index gave 5, not below Game::move_index_bound (2)")]
fn a_move_index_out_of_bounds_names_the_hook() {
    let mut game = Line::new(6);
    game.index = 5;
    let mut searcher = Searcher::new(1 << 16);
    searcher.search(&mut game, &Limits::depth(6), |_| {});
}
