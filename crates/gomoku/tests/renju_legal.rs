//! Under renju the engine only ever proposes points Black may legally play: in lost positions,
//! where the only block of a five is forbidden, in its N best moves, and on many random dense
//! positions where fouls are common. When Black has no legal move at all it says so.

use wuzi_gomoku::{Board, Engine, EngineOptions, Player, Point, Rule};
use wuzi_search::{Forced, Limits};

fn engine(board: Board) -> Engine {
    Engine::new(
        board,
        EngineOptions {
            table_bytes: 4 << 20,
            ..EngineOptions::default()
        },
    )
}

fn forbidden(board: &Board) -> Vec<Point> {
    board
        .clone()
        .forbidden_points()
        .into_iter()
        .map(|(p, _)| p)
        .collect()
}

/// The N best moves as the front ends ask for them: search, exclude the best, search again.
fn n_best(e: &mut Engine, n: usize, limits: &Limits) -> Vec<Point> {
    let found = e.best_moves(n, limits, |_, _| {}, |_| {});
    found.iter().map(|a| a.best_move.expect("a move")).collect()
}

/// From issue 17: White threatens five at f12, and f12 is a double three for Black. Black is
/// lost, but f12 is not a move Black may play.
const LOST_WITH_A_FORBIDDEN_BLOCK: &str = "g12 g9 i8 f10 h10 f9 i9 e11 h8 c13 d12 f11 f8 f13";

/// White's line ends with Black's forced block on a forbidden point, the loss the search
/// counts: it is named, and a line that ends with a legal move is not.
#[test]
fn a_line_ending_with_black_s_forbidden_block_is_named() {
    let p = |name: &str| wuzi_gomoku::parse_point(name, 15).unwrap();
    // Black f8 g8 h6 h7 make h8 a double three; White g7 i9 j10 with k11 makes a four whose
    // only block is h8 (f6 closes the other end).
    let board = Board::from_stones(
        15,
        Rule::Renju,
        &[p("f6"), p("f8"), p("g8"), p("h6"), p("h7")],
        &[p("g7"), p("i9"), p("j10"), p("a1")],
        Some(Player::Second),
    )
    .unwrap();
    let foul = board.line_ends_in_foul(&[p("k11"), p("h8")]);
    assert_eq!(foul.map(|(q, _)| q), Some(p("h8")));
    assert_eq!(board.line_ends_in_foul(&[p("k11"), p("l12")]), None);
    assert_eq!(
        board.line_ends_in_foul(&[p("h8")]),
        None,
        "White may play there"
    );
    assert_eq!(board.line_ends_in_foul(&[]), None);
    // The engine's own line there ends so.
    let a = engine(board.clone()).go(&Limits::depth(4), |_| {});
    assert_eq!(
        board.line_ends_in_foul(&a.pv).map(|(q, _)| q),
        Some(p("h8")),
        "{:?}",
        a.pv
    );
}

#[test]
fn a_lost_position_is_answered_with_a_legal_move() {
    let board = Board::from_moves(15, Rule::Renju, LOST_WITH_A_FORBIDDEN_BLOCK).unwrap();
    let f12 = wuzi_gomoku::parse_point("f12", 15).unwrap();
    assert_eq!(forbidden(&board), vec![f12]);
    for limits in [
        Limits::depth(4),
        Limits::nodes(20_000),
        Limits::time(std::time::Duration::from_millis(200)),
    ] {
        let mut e = engine(board.clone());
        let a = e.go(&limits, |_| {});
        let mv = a.best_move.expect("Black has legal moves");
        assert_ne!(mv, f12);
        assert!(board.clone().is_legal(mv), "{}", mv.to_human(15));
        assert_eq!(a.forced(), Some(Forced::Loss(2)), "White fives next");
        let best = n_best(&mut e, 4, &Limits::nodes(5_000));
        assert_eq!(best.len(), 4);
        assert!(!best.contains(&f12), "{best:?}");
    }
}

/// A 7x7 position where the only empty point (d7) is an overline for Black, Black to move.
const NO_LEGAL_MOVE: &str = "g2 f3 c5 e3 g1 d5 c2 d4 a1 e5 b4 d6 g7 g6 b5 d3 f6 f2 a6 f1 a7 a4 \
     c6 a5 b7 c4 e2 b2 g3 f4 f5 b3 d1 g5 g4 a3 c3 b1 e7 a2 e6 c1 c7 e1 d2 b6 f7 e4";

#[test]
fn no_legal_move_is_said_not_guessed() {
    let mut board = Board::from_moves(7, Rule::Renju, NO_LEGAL_MOVE).unwrap();
    assert_eq!(board.result(), None);
    assert_eq!(board.side_to_move(), Player::First);
    assert!(!board.has_legal_move());
    let mut e = engine(board.clone());
    assert!(!e.has_legal_move());
    let a = e.go(&Limits::depth(3), |_| {});
    assert_eq!(a.best_move, None);
    // The same stones with White to move: White may play d7.
    let black: Vec<Point> = (0..board.moves().len())
        .step_by(2)
        .map(|i| board.moves()[i])
        .collect();
    let white: Vec<Point> = (1..board.moves().len())
        .step_by(2)
        .map(|i| board.moves()[i])
        .collect();
    let white_to_move =
        Board::from_stones(7, Rule::Renju, &black, &white, Some(Player::Second)).unwrap();
    assert!(engine(white_to_move).has_legal_move());
    assert!(board.undo().is_some() && board.has_legal_move());
}

/// A small deterministic generator (xorshift), so the positions are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A dense renju position with Black to move: random legal moves packed into a small square
/// around the centre (where fouls are common), with White steering towards fours so that
/// blocks on forbidden points come up.
fn dense_position(rng: &mut Rng, size: usize, stones: usize) -> Option<Board> {
    let mut board = Board::new(size, Rule::Renju).unwrap();
    let lo = size / 2 - 3;
    while board.stone_count() < stones {
        let me = board.side_to_move();
        let empty: Vec<Point> = (lo..lo + 7)
            .flat_map(|y| (lo..lo + 7).map(move |x| Point::new(x, y)))
            .filter(|&p| board.is_legal(p))
            .collect();
        if empty.is_empty() {
            return None;
        }
        let fours: Vec<Point> = empty
            .iter()
            .copied()
            .filter(|&p| board.shapes(p, me).iter().any(|s| s.is_four()))
            .collect();
        let p = if me == Player::Second && !fours.is_empty() && rng.below(2) == 0 {
            fours[rng.below(fours.len())]
        } else {
            empty[rng.below(empty.len())]
        };
        board.try_play(p).unwrap();
        if board.result().is_some() {
            return None;
        }
    }
    (board.side_to_move() == Player::First).then_some(board)
}

#[test]
fn random_dense_positions_never_get_a_forbidden_answer() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut checked, mut with_fouls, mut forbidden_blocks) = (0, 0, 0);
    while checked < 300 {
        let stones = 16 + 2 * rng.below(12);
        let Some(board) = dense_position(&mut rng, 15, stones) else {
            continue;
        };
        let fouls = forbidden(&board);
        if fouls.is_empty() {
            continue;
        }
        checked += 1;
        with_fouls += 1;
        // White threatens a five on a point Black may not block.
        let blocked: bool = fouls.iter().any(|&p| {
            board
                .shapes(p, Player::Second)
                .contains(&wuzi_gomoku::Shape::Five)
        });
        forbidden_blocks += usize::from(blocked);
        let mut e = engine(board.clone());
        let a = e.go(&Limits::nodes(3_000), |_| {});
        let moves = board
            .moves()
            .iter()
            .map(|p| p.to_human(15))
            .collect::<Vec<_>>();
        let mv = a.best_move.expect("legal moves exist");
        assert!(
            !fouls.contains(&mv),
            "{} is forbidden after {}",
            mv.to_human(15),
            moves.join(" ")
        );
        for p in n_best(&mut e, 3, &Limits::nodes(1_000)) {
            assert!(
                !fouls.contains(&p),
                "N-best {} after {}",
                p.to_human(15),
                moves.join(" ")
            );
        }
    }
    assert_eq!(with_fouls, 300);
    assert!(
        forbidden_blocks >= 5,
        "only {forbidden_blocks} positions force a block on a forbidden point"
    );
}
