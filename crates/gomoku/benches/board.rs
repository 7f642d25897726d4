//! Board speed: play+undo with the incremental shape update, and the renju foul check, on a
//! fixed middle-game 15x15 position. `cargo bench -p wuzi-gomoku --bench board`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use wuzi_gomoku::{Board, Point, Rule};

/// 36 moves of a balanced middle game.
const MIDDLE_GAME: &str = "h8 i9 h9 h10 i8 g8 j10 k11 j8 k8 g10 f11 i10 i11 j11 j9 k12 l13 \
                           g11 g12 h12 f10 e9 g9 f8 e7 h6 h7 i6 g6 j6 k6 i5 i4 j4 k3";

fn empty_points(board: &Board) -> Vec<Point> {
    board.points().filter(|&p| board.is_empty(p)).collect()
}

fn play_undo(c: &mut Criterion) {
    for rule in [Rule::Freestyle, Rule::Renju] {
        let mut board = Board::from_moves(15, rule, MIDDLE_GAME).unwrap();
        assert!(board.result().is_none());
        let points = empty_points(&board);
        let name = format!(
            "play+undo, {rule}, {} empty points per iteration",
            points.len()
        );
        c.bench_function(&name, |b| {
            b.iter(|| {
                for &p in &points {
                    board.play(black_box(p));
                    board.undo();
                }
            })
        });
    }
}

fn fouls(c: &mut Criterion) {
    let mut board = Board::from_moves(15, Rule::Renju, MIDDLE_GAME).unwrap();
    let points = empty_points(&board);
    c.bench_function(
        &format!(
            "renju foul check, {} empty points per iteration",
            points.len()
        ),
        |b| {
            b.iter(|| {
                for &p in &points {
                    black_box(board.foul(p));
                }
            })
        },
    );
    c.bench_function("renju forbidden_points, whole board", |b| {
        b.iter(|| black_box(board.forbidden_points()))
    });
}

criterion_group!(benches, play_undo, fouls);
criterion_main!(benches);
