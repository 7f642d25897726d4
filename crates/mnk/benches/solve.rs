//! Solving from the empty board, as `wuzi solve` does it.

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use wuzi_mnk::Mnk;
use wuzi_search::{AlphaBeta, SearchOptions, Searcher, Strategy, UNLIMITED_DEPTH};

/// The full searcher configured like `wuzi solve --algo search`: one pass to the end of the
/// game with a fresh table.
fn solve(mut board: Mnk) -> wuzi_search::SearchResult<u16> {
    let options = SearchOptions {
        iterative_deepening: false,
        ..SearchOptions::default()
    };
    let mut searcher = Searcher::new(board.solver_table_bytes()).with_options(options);
    Strategy::search(&mut searcher, &mut board)
}

fn tic_tac_toe(c: &mut Criterion) {
    c.bench_function("tictactoe/alphabeta", |b| {
        b.iter(|| {
            AlphaBeta {
                depth: UNLIMITED_DEPTH,
            }
            .search(&mut black_box(Mnk::tic_tac_toe()))
        })
    });
    c.bench_function("tictactoe/search", |b| {
        b.iter(|| solve(black_box(Mnk::tic_tac_toe())))
    });
}

fn five_four_four(c: &mut Criterion) {
    let mut group = c.benchmark_group("mnk-5-4-4");
    group.sample_size(10);
    group.bench_function("search", |b| {
        b.iter(|| solve(black_box(Mnk::new(5, 4, 4).unwrap())))
    });
    group.finish();
}

criterion_group!(benches, tic_tac_toe, five_four_four);
criterion_main!(benches);
