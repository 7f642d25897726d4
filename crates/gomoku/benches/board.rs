//! Board speed on a fixed 15x15 middle game: play+undo pairs (the incremental shape update;
//! under renju `play` also checks Black's move for a foul), `Board::foul` on every empty
//! point, and `forbidden_points`.
//! `cargo bench -p wuzi-gomoku --bench board -- --warm-up-time 1 --measurement-time 3`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use wuzi_gomoku::{Board, Point, Rule, Shape, BLACK};

/// 30 moves of a middle game packed in the centre, Black to move: no five and no foul played,
/// White has an open three, and Black has 7 double-three points (each needing the recursive
/// real-three check).
const MIDDLE_GAME: &str = "h8 i7 f7 k8 e9 h7 i5 k4 f8 d11 k6 j8 d7 f6 j9 g9 g10 g12 k5 l11 \
                           k9 g6 l8 h12 l6 j12 e11 j10 i4 e10";

fn middle_game(rule: Rule) -> Board {
    let board = Board::from_moves(15, rule, MIDDLE_GAME).unwrap();
    assert!(board.result().is_none());
    board
}

/// Empty points within 2 of a stone: where a search plays.
fn near_stones(board: &Board) -> Vec<Point> {
    let n = board.size() as isize;
    board
        .points()
        .filter(|&p| board.is_empty(p))
        .filter(|&p| {
            (-2..=2).any(|dy: isize| {
                (-2..=2).any(|dx: isize| {
                    let (x, y) = (p.x() as isize + dx, p.y() as isize + dy);
                    (0..n).contains(&x)
                        && (0..n).contains(&y)
                        && board.stone(Point::new(x as usize, y as usize)).is_some()
                })
            })
        })
        .collect()
}

fn empty_points(board: &Board) -> Vec<Point> {
    board.points().filter(|&p| board.is_empty(p)).collect()
}

fn play_undo(c: &mut Criterion) {
    let mut group = c.benchmark_group("play+undo");
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut board = middle_game(rule);
        let hash = board.hash();
        let points = near_stones(&board);
        // One pair per iteration, so the time reported is per pair. (`try_play` is the
        // search's `play` behind three checks that cost next to nothing.)
        let mut next = points.iter().copied().cycle();
        group.bench_function(
            format!("{rule}, one pair, cycling over {} points", points.len()),
            |b| {
                b.iter(|| {
                    let _ = board.try_play(black_box(next.next().unwrap()));
                    board.undo();
                })
            },
        );
        assert_eq!(board.hash(), hash);
    }
    group.finish();
}

fn fouls(c: &mut Criterion) {
    let mut board = middle_game(Rule::Renju);
    let points = empty_points(&board);
    let forbidden = board.forbidden_points().len();
    let threes = points
        .iter()
        .filter(|&&p| {
            let s = board.shapes(p, BLACK);
            s.iter().filter(|&&s| s == Shape::OpenThree).count() >= 2
        })
        .count();
    let mut group = c.benchmark_group("renju");
    group.throughput(Throughput::Elements(points.len() as u64));
    group.bench_function(
        format!(
            "foul on all {} empty points ({threes} with two open threes, {forbidden} forbidden)",
            points.len()
        ),
        |b| {
            b.iter(|| {
                for &p in &points {
                    black_box(board.foul(black_box(p)));
                }
            })
        },
    );
    // forbidden_points looks at every point, stones included.
    group.throughput(Throughput::Elements((board.size() * board.size()) as u64));
    group.bench_function("forbidden_points", |b| {
        b.iter(|| black_box(board.forbidden_points()))
    });
    group.finish();
}

criterion_group!(benches, play_undo, fouls);
criterion_main!(benches);
