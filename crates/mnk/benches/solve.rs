use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use wuzi_mnk::Mnk;
use wuzi_search::{AlphaBeta, Searcher, Strategy, DEFAULT_TT_BYTES, UNLIMITED_DEPTH};

fn tic_tac_toe(c: &mut Criterion) {
    c.bench_function("tictactoe/alphabeta", |b| {
        b.iter(|| AlphaBeta { depth: UNLIMITED_DEPTH }.search(&mut black_box(Mnk::tic_tac_toe())))
    });
    let mut searcher = Searcher::new(DEFAULT_TT_BYTES);
    c.bench_function("tictactoe/search", |b| {
        b.iter(|| Strategy::search(&mut searcher, &mut black_box(Mnk::tic_tac_toe())))
    });
}

fn five_four_four(c: &mut Criterion) {
    let mut group = c.benchmark_group("mnk-5-4-4");
    group.sample_size(10);
    let mut searcher = Searcher::new(DEFAULT_TT_BYTES);
    group.bench_function("search", |b| {
        b.iter(|| Strategy::search(&mut searcher, &mut black_box(Mnk::new(5, 4, 4).unwrap())))
    });
    group.finish();
}

criterion_group!(benches, tic_tac_toe, five_four_four);
criterion_main!(benches);
