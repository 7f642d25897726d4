//! The incremental shapes against a slow, obviously-correct reference: for every empty point,
//! direction and colour, read the cells of the line around the point and apply the definition
//! of each shape directly (no tables, no bit tricks), after random play/undo sequences on every
//! rule and several board sizes. Counts and the Zobrist hash are checked too.

use proptest::prelude::*;
use std::collections::HashMap;
use wuzi_gomoku::{Board, Player, Point, Rule, Shape, DIRS};

#[derive(Copy, Clone, PartialEq, Eq, Hash)]
enum Cell {
    Empty,
    Own,
    Blocked,
}

/// How far from the point a line is read: every five through the point lies within 4, and
/// telling five from six needs one more.
const REACH: isize = 5;

/// The 11 cells centred on `p` along `(dx, dy)`, from `colour`'s side (off-board is blocked).
fn line(board: &Board, p: Point, (dx, dy): (isize, isize), colour: Player) -> [Cell; 11] {
    let n = board.size() as isize;
    std::array::from_fn(|i| {
        let k = i as isize - REACH;
        let (x, y) = (p.x() as isize + k * dx, p.y() as isize + k * dy);
        if k == 0 {
            return Cell::Own;
        }
        if x < 0 || y < 0 || x >= n || y >= n {
            return Cell::Blocked;
        }
        match board.stone(Point::new(x as usize, y as usize)) {
            None => Cell::Empty,
            Some(c) if c == colour => Cell::Own,
            Some(_) => Cell::Blocked,
        }
    })
}

/// Length of the run of own stones through the middle cell.
fn run(cells: &[Cell; 11]) -> usize {
    let mid = REACH as usize;
    let left = (0..mid)
        .rev()
        .take_while(|&i| cells[i] == Cell::Own)
        .count();
    let right = (mid + 1..11).take_while(|&i| cells[i] == Cell::Own).count();
    left + 1 + right
}

/// The shape by its definition (see `Shape`): fours by the number of single stones that make a
/// five through the point, weaker shapes by what one more stone makes.
fn reference(
    cells: [Cell; 11],
    exact: bool,
    memo: &mut HashMap<([Cell; 11], bool), Shape>,
) -> Shape {
    if let Some(&s) = memo.get(&(cells, exact)) {
        return s;
    }
    let is_five = |r: usize| if exact { r == 5 } else { r >= 5 };
    let r = run(&cells);
    let shape = if is_five(r) {
        Shape::Five
    } else if r > 5 {
        Shape::Overline
    } else {
        let mut fives = Vec::new();
        let mut next = Vec::new();
        for q in 0..11 {
            if cells[q] != Cell::Empty {
                continue;
            }
            let mut more = cells;
            more[q] = Cell::Own;
            if is_five(run(&more)) {
                fives.push(q);
            }
            next.push(reference(more, exact, memo));
        }
        let has = |s: Shape| next.contains(&s);
        if fives.len() >= 2 {
            // A straight four: two five points five apart with four own stones between.
            let straight = fives.iter().any(|&a| {
                fives.contains(&(a + 5)) && (a + 1..a + 5).all(|i| cells[i] == Cell::Own)
            });
            if straight {
                Shape::OpenFour
            } else {
                Shape::FourFour
            }
        } else if fives.len() == 1 {
            Shape::Four
        } else if has(Shape::OpenFour) {
            Shape::OpenThree
        } else if has(Shape::Four) || has(Shape::FourFour) {
            Shape::Three
        } else if has(Shape::OpenThree) {
            Shape::OpenTwo
        } else if has(Shape::Three) {
            Shape::Two
        } else if has(Shape::Two) || has(Shape::OpenTwo) {
            Shape::One
        } else {
            Shape::None
        }
    };
    memo.insert((cells, exact), shape);
    shape
}

fn check(
    board: &Board,
    memo: &mut HashMap<([Cell; 11], bool), Shape>,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(board.hash(), board.hash_from_scratch());
    for colour in [Player::First, Player::Second] {
        let exact = board.rule().exact_five(colour);
        let mut counts = [0u32; wuzi_gomoku::SHAPE_COUNT];
        for p in board.points().filter(|&p| board.is_empty(p)) {
            for dir in DIRS {
                let want = reference(line(board, p, dir.delta(), colour), exact, memo);
                let got = board.shape(p, dir, colour);
                prop_assert_eq!(
                    got,
                    want,
                    "{:?} {:?} {:?} at {} in {:?}",
                    board.rule(),
                    colour,
                    dir,
                    p.to_human(board.size()),
                    board
                );
                counts[want as usize] += 1;
            }
        }
        for shape in Shape::ALL {
            prop_assert_eq!(board.shape_count(colour, shape), counts[shape as usize]);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Moves are packed into a small region so threes, fours and overlines are common.
    #[test]
    fn incremental_shapes_match_the_reference(
        size in prop::sample::select(vec![5usize, 7, 9, 15, 20, 22]),
        rule in prop::sample::select(Rule::ALL.to_vec()),
        steps in prop::collection::vec((0u8..8, 0usize..7, 0usize..7), 1..70),
    ) {
        let mut board = Board::new(size, rule).unwrap();
        let mut memo = HashMap::new();
        let offset = size.saturating_sub(7) / 2;
        for (op, dx, dy) in steps {
            if op == 0 {
                board.undo();
            } else {
                let (x, y) = ((offset + dx).min(size - 1), (offset + dy).min(size - 1));
                if board.try_play(Point::new(x, y)).is_err() {
                    continue;
                }
            }
            check(&board, &mut memo)?;
        }
        while board.undo().is_some() {}
        check(&board, &mut memo)?;
        prop_assert_eq!(board.stone_count(), 0);
    }
}
