//! The engine's search allocates nothing per node: once a first search has grown its
//! buffers, the same search again (tables cleared) allocates as much at 20,000 nodes as at
//! 200,000, the few allocations per completed depth (its report, its line) aside. Make and
//! unmake, the incremental patterns, move generation, the evaluation and the table are all
//! inside that count, under each rule.
//!
//! This file holds one test, so that its binary runs nothing else while it counts.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};
use wuzi_gomoku::{Board, Engine, EngineOptions, Rule};
use wuzi_search::Limits;

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// A middle game of `docs/middle-games.txt` (from a game against Rapfi).
const MIDDLE_GAME: &str =
    "l11 l9 l12 h9 j9 j13 j10 l10 n15 k11 j12 k10 j11 j8 k12 i12 k13 m14 i11 h10 m11 n10";

/// Allocations of a search of `nodes` from a cleared table, after the same search once to
/// grow the buffers; and the depth it completed.
fn allocations_of(rule: Rule, nodes: u64) -> (u64, u32) {
    let board = Board::from_moves(15, rule, MIDDLE_GAME).unwrap();
    let mut engine = Engine::new(
        board,
        EngineOptions {
            table_bytes: 4 << 20,
            ..EngineOptions::default()
        },
    );
    let limits = Limits::nodes(nodes);
    engine.go(&limits, |_| {});
    engine.clear_tables();
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let analysis = engine.go(&limits, |_| {});
    (ALLOCATIONS.load(Ordering::Relaxed) - before, analysis.depth)
}

#[test]
fn the_search_allocates_per_depth_not_per_node() {
    for rule in Rule::ALL {
        let (small, small_depth) = allocations_of(rule, 20_000);
        let (large, large_depth) = allocations_of(rule, 200_000);
        let depths = u64::from(large_depth.saturating_sub(small_depth)) + 1;
        // Ten times the nodes: a per-node allocation would add tens of thousands.
        assert!(
            large <= small + 8 * depths,
            "{rule:?}: {small} allocations at 20,000 nodes (depth {small_depth}), {large} at \
             200,000 (depth {large_depth})"
        );
    }
}
