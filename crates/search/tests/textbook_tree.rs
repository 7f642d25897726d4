//! The four textbook searches on random game trees: the same value and move at the same
//! depth, alpha-beta never visiting more nodes than minimax, and recorded trees that are
//! consistent with the values and cut-offs the searches claim.

use proptest::prelude::*;
use std::time::Duration;
use wuzi_search::{
    AlphaBeta, Game, LimitExceeded, Minimax, Negamax, Outcome, Player, Pvs, Score, SearchResult,
    Strategy, TreeRecorder, WorkLimit,
};

/// A game whose positions are paths from the root: every position has `branching` moves (or
/// none, where the game ends by the path's hash), and a pseudo-random evaluation. Ties between
/// values are common (small value range), which is where searches most often disagree.
#[derive(Clone)]
struct RandomTree {
    seed: u64,
    branching: u8,
    path: Vec<u8>,
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl Game for RandomTree {
    type Move = u8;

    fn side_to_move(&self) -> Player {
        if self.path.len().is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    fn legal_moves(&self, out: &mut Vec<u8>) {
        if self.outcome().is_none() {
            out.extend(0..self.branching);
        }
    }

    fn play(&mut self, mv: u8) {
        self.path.push(mv);
    }

    fn undo(&mut self, _mv: u8) {
        self.path.pop();
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.path.len() < 2 {
            return None;
        }
        match self.hash() % 23 {
            0 => Some(Outcome::Win(Player::First)),
            1 => Some(Outcome::Win(Player::Second)),
            2 => Some(Outcome::Draw),
            _ => None,
        }
    }

    fn hash(&self) -> u64 {
        self.path
            .iter()
            .fold(mix(self.seed), |h, &m| mix(h ^ (m as u64 + 1)))
    }

    fn evaluate(&self) -> Score {
        Score::heuristic((self.hash() >> 7) as i32 % 9 - 4)
    }
}

fn tree(seed: u64, branching: u8) -> RandomTree {
    RandomTree {
        seed,
        branching,
        path: Vec::new(),
    }
}

fn same_decision(a: &SearchResult<u8>, b: &SearchResult<u8>) -> bool {
    a.score == b.score && a.best_move == b.best_move
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn the_textbook_searches_agree(seed in any::<u64>(), branching in 1u8..5, depth in 0u32..6) {
        let mut game = tree(seed, branching);
        let minimax = Minimax { depth }.search(&mut game);
        let negamax = Negamax { depth }.search(&mut game);
        let alphabeta = AlphaBeta { depth }.search(&mut game);
        let pvs = Pvs { depth }.search(&mut game);
        prop_assert!(same_decision(&minimax, &negamax));
        prop_assert!(same_decision(&minimax, &alphabeta), "{minimax:?} {alphabeta:?}");
        prop_assert!(same_decision(&minimax, &pvs), "{minimax:?} {pvs:?}");
        prop_assert_eq!(minimax.nodes, negamax.nodes);
        prop_assert!(alphabeta.nodes <= minimax.nodes);
        prop_assert_eq!(&minimax.pv, &negamax.pv);
        prop_assert_eq!(minimax.pv.first(), minimax.best_move.as_ref());
    }

    #[test]
    fn recorded_trees_are_consistent(seed in any::<u64>(), branching in 1u8..4, depth in 0u32..5) {
        let mut game = tree(seed, branching);
        let mut recorder = TreeRecorder::new(100_000);
        let result = Minimax { depth }.search_observed(&mut game, &mut recorder).unwrap();
        prop_assert_eq!(recorder.check(false, result.nodes), Ok(()));
        for negamax_form in 0..3 {
            let mut recorder = TreeRecorder::new(100_000);
            let result = match negamax_form {
                0 => Negamax { depth }.search_observed(&mut game, &mut recorder),
                1 => AlphaBeta { depth }.search_observed(&mut game, &mut recorder),
                _ => Pvs { depth }.search_observed(&mut game, &mut recorder),
            }
            .unwrap();
            prop_assert_eq!(recorder.check(true, result.nodes), Ok(()));
            // The principal variation read off the tree is the line the search reports.
            let pv: Vec<u8> = recorder
                .principal_variation(true)
                .iter()
                .map(|&n| recorder.nodes[n].mv.unwrap())
                .collect();
            prop_assert_eq!(&pv[..1.min(pv.len())], &result.pv[..1.min(result.pv.len())]);
        }
    }
}

#[test]
fn alpha_beta_cuts_off_and_says_what_it_skipped() {
    let mut game = tree(7, 3);
    let mut recorder = TreeRecorder::new(100_000);
    let result = AlphaBeta { depth: 4 }
        .search_observed(&mut game, &mut recorder)
        .unwrap();
    recorder.check(true, result.nodes).unwrap();
    let cut = recorder.nodes.iter().filter(|n| n.cutoff).count();
    let skipped: usize = recorder.nodes.iter().map(|n| n.skipped.len()).sum();
    assert!(
        cut > 0 && skipped > 0,
        "{cut} cut-offs, {skipped} moves skipped"
    );
    assert_eq!(recorder.nodes[0].mv, None);
    assert_eq!(recorder.nodes[0].alpha, -Score::INFINITY);
}

#[test]
fn a_tree_past_its_cap_is_refused_not_cut() {
    let mut game = tree(3, 3);
    let nodes = Minimax { depth: 4 }.search(&mut game).nodes as usize;
    let mut exact = TreeRecorder::new(nodes);
    assert!(Minimax { depth: 4 }
        .search_observed(&mut game, &mut exact)
        .is_some());
    assert!(!exact.overflowed());
    let mut short = TreeRecorder::new(nodes - 1);
    assert!(Minimax { depth: 4 }
        .search_observed(&mut game, &mut short)
        .is_none());
    assert!(short.overflowed());
    assert_eq!(game.path, Vec::<u8>::new(), "the game is left as it was");
}

#[test]
fn a_work_limit_stops_a_search() {
    let mut game = tree(5, 4);
    let mut limit = WorkLimit::new(50, Some(Duration::from_secs(60)));
    assert!(Negamax { depth: 6 }
        .search_observed(&mut game, &mut limit)
        .is_none());
    assert_eq!(limit.exceeded, Some(LimitExceeded::Nodes(50)));
    let mut both = (TreeRecorder::new(1000), WorkLimit::new(1000, None));
    let result = AlphaBeta { depth: 3 }.search_observed(&mut game, &mut both);
    assert!(result.is_some() && both.1.exceeded.is_none());
}
