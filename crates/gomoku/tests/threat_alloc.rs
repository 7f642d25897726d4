//! The threat solver allocates nothing per node: once its buffers have grown in a first
//! search, the same search again (table cleared) allocates only the winning line it returns.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use wuzi_gomoku::{
    parse_moves, Board, Player, Rule, ThreatKind, ThreatLimits, ThreatSolver, ThreatWin,
};

/// Counts this thread's allocations (other tests' threads do not disturb the count).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|a| a.set(a.get() + 1));
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

#[test]
fn a_warm_solver_allocates_only_the_line_it_returns() {
    // The last number: quiet threats that prepare a VCF of up to that many moves.
    for (rule, to_move, kind, quiet_vcf) in [
        (Rule::Freestyle, Player::First, ThreatKind::Vct, 0),
        (Rule::Renju, Player::First, ThreatKind::Vct, 0),
        (Rule::Renju, Player::Second, ThreatKind::Vct, 0),
        (Rule::Standard, Player::First, ThreatKind::Vcf, 0),
        (Rule::Freestyle, Player::First, ThreatKind::Vct, 2),
        (Rule::Renju, Player::First, ThreatKind::Vct, 2),
        (Rule::Renju, Player::Second, ThreatKind::Vct, 2),
    ] {
        // A middle game with threats for both sides (searched, won or not).
        let black = parse_moves("h8 i8 j11 k10 l10 m10 g6 f9 e10", 15).unwrap();
        let white = parse_moves("n10 i9 h9 g9 j7 k6 d11 e6 f7", 15).unwrap();
        // The side to move gets the first list of stones.
        let (black, white) = match to_move {
            Player::First => (black, white),
            Player::Second => (white, black),
        };
        let mut board = Board::from_stones(15, rule, &black, &white, Some(to_move)).unwrap();
        let limits = ThreatLimits {
            max_attacks: 8,
            nodes: Some(50_000),
            quiet_vcf,
            ..ThreatLimits::default()
        };
        // By iterative deepening and by proof numbers.
        type Search =
            fn(&mut ThreatSolver, &mut Board, ThreatKind, &ThreatLimits) -> Option<ThreatWin>;
        for search in [ThreatSolver::solve as Search, ThreatSolver::prove] {
            let mut solver = ThreatSolver::new(1 << 20);
            let first = search(&mut solver, &mut board, kind, &limits);
            let nodes = solver.nodes();
            solver.clear();
            let before = allocations();
            let again = search(&mut solver, &mut board, kind, &limits);
            let allocated = allocations() - before;
            assert_eq!(again, first, "{rule}");
            assert_eq!(solver.nodes() - nodes, nodes, "{rule}: the same search");
            assert!(nodes > 20, "{rule}: {nodes} nodes is no test");
            assert_eq!(allocated, again.is_some() as u64, "{rule}: {first:?}");
        }
    }
}
