//! Each shape, each renju foul and each way a game ends, on boards drawn as text.
//!
//! In a drawing `X` is Black, `O` White, `.` empty and `*` the empty point under test; the
//! first row is the top of the board and the board is as large as the drawing is tall.
//! Line patterns (one row of cells) use `X` for the colour under test and `O` for the other,
//! and are laid along every direction on a board exactly as wide, so the pattern's ends are
//! the board's edges.

use wuzi_gomoku::{Board, Dir, Foul, GameResult, Player, Point, Reason, Rule, Shape, DIRS};

const BLACK: Player = Player::First;
const WHITE: Player = Player::Second;

/// The board a drawing shows (Black to move) and its `*` point.
fn drawn(rule: Rule, picture: &str) -> (Board, Point) {
    drawn_to_move(rule, picture, BLACK)
}

fn drawn_to_move(rule: Rule, picture: &str, to_move: Player) -> (Board, Point) {
    let rows: Vec<Vec<char>> = picture
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|l| !l.is_empty())
        .collect();
    let n = rows.len();
    let (mut black, mut white, mut mark) = (Vec::new(), Vec::new(), None);
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), n, "row {y} of a square drawing");
        for (x, &c) in row.iter().enumerate() {
            let p = Point::new(x, y);
            match c {
                'X' => black.push(p),
                'O' => white.push(p),
                '*' => mark = Some(p),
                '.' => {}
                _ => panic!("unknown cell {c}"),
            }
        }
    }
    let board = Board::from_stones(n, rule, &black, &white, Some(to_move)).unwrap();
    (board, mark.expect("a * in the drawing"))
}

/// `pattern` laid along `dir` for `colour` (`X` its stones, `O` the other colour's).
fn laid(rule: Rule, colour: Player, pattern: &str, dir: Dir) -> (Board, Point) {
    let n = pattern.len();
    let (mut own, mut other, mut mark) = (Vec::new(), Vec::new(), None);
    for (i, c) in pattern.chars().enumerate() {
        let p = match dir {
            Dir::Horizontal => Point::new(i, n / 2),
            Dir::Vertical => Point::new(n / 2, i),
            Dir::Diagonal => Point::new(i, i),
            Dir::AntiDiagonal => Point::new(i, n - 1 - i),
        };
        match c {
            'X' => own.push(p),
            'O' => other.push(p),
            '*' => mark = Some(p),
            '.' => {}
            _ => panic!("unknown cell {c}"),
        }
    }
    let (black, white) = if colour == BLACK {
        (own, other)
    } else {
        (other, own)
    };
    let board = Board::from_stones(n, rule, &black, &white, Some(colour)).unwrap();
    (board, mark.expect("a * in the pattern"))
}

/// The shape a `colour` stone on `*` makes along `pattern`, the same in every direction.
fn line_shape(rule: Rule, colour: Player, pattern: &str) -> Shape {
    let shapes = DIRS.map(|dir| {
        let (board, p) = laid(rule, colour, pattern, dir);
        board.shape(p, dir, colour)
    });
    assert!(
        shapes.iter().all(|&s| s == shapes[0]),
        "{pattern} differs by direction: {shapes:?}"
    );
    shapes[0]
}

/// `pattern`'s shape where five or more wins and where exactly five does, for both colours
/// under every rule (renju: Black exactly five, White five or more).
fn assert_shape(pattern: &str, five_or_more: Shape, exactly_five: Shape) {
    for colour in [BLACK, WHITE] {
        let renju = if colour == BLACK {
            exactly_five
        } else {
            five_or_more
        };
        for (rule, want) in [
            (Rule::Freestyle, five_or_more),
            (Rule::Standard, exactly_five),
            (Rule::Renju, renju),
        ] {
            let got = line_shape(rule, colour, pattern);
            assert_eq!(got, want, "{pattern} for {colour:?} under {rule}");
        }
    }
}

#[test]
fn five() {
    assert_shape("...XX*XX....", Shape::Five, Shape::Five);
    assert_shape("XXXX*", Shape::Five, Shape::Five);
    assert_shape("O*XXXXO", Shape::Five, Shape::Five);
}

#[test]
fn overline_only_where_exactly_five_wins() {
    assert_shape("..XXX*XX....", Shape::Five, Shape::Overline);
    assert_shape("XXXXX*", Shape::Five, Shape::Overline);
    assert_shape("XX*XXXX", Shape::Five, Shape::Overline);
}

#[test]
fn open_four() {
    assert_shape("....X*XX....", Shape::OpenFour, Shape::OpenFour);
    // Open up to the very edges.
    assert_shape(".X*XX.", Shape::OpenFour, Shape::OpenFour);
    // One of its two five points makes six.
    assert_shape("...X.*XXX...", Shape::OpenFour, Shape::Four);
}

#[test]
fn four() {
    assert_shape("...OX*XX....", Shape::Four, Shape::Four);
    assert_shape("...X.*XX....", Shape::Four, Shape::Four);
    assert_shape("X*XX.", Shape::Four, Shape::Four);
    assert_shape("XX.*X", Shape::Four, Shape::Four);
    // The only five point makes six: no four where exactly five wins.
    assert_shape("...XX*.XX..", Shape::Four, Shape::Three);
}

#[test]
fn four_four_in_one_line() {
    assert_shape("..X.X*X.X...", Shape::FourFour, Shape::FourFour); // X_XXX_X
    assert_shape("X.X*X.X", Shape::FourFour, Shape::FourFour);
    assert_shape(".XX.*X.XX...", Shape::FourFour, Shape::FourFour); // XX_XX_XX
    assert_shape("XXX.*.XXX", Shape::FourFour, Shape::FourFour); // XXX_X_XXX
}

#[test]
fn open_three() {
    assert_shape("....X*X.....", Shape::OpenThree, Shape::OpenThree);
    // Split threes, X_XX and XX_X.
    assert_shape("....X.*X....", Shape::OpenThree, Shape::OpenThree);
    assert_shape("...X*.X.....", Shape::OpenThree, Shape::OpenThree);
    // Just enough room: .XXXX. fits between the edges.
    assert_shape(".X*X..", Shape::OpenThree, Shape::OpenThree);
}

#[test]
fn three() {
    assert_shape("...OX*X.....", Shape::Three, Shape::Three);
    assert_shape("X*X....", Shape::Three, Shape::Three);
    assert_shape("O.X*X.O", Shape::Three, Shape::Three);
    // Its straight fours all make six where exactly five wins.
    assert_shape("...X.*X.X..", Shape::OpenThree, Shape::Three);
}

#[test]
fn open_two() {
    assert_shape(".....*X.....", Shape::OpenTwo, Shape::OpenTwo);
    assert_shape(".....*.X....", Shape::OpenTwo, Shape::OpenTwo);
    assert_shape("....*..X....", Shape::OpenTwo, Shape::OpenTwo);
}

#[test]
fn two() {
    assert_shape("....O*X.....", Shape::Two, Shape::Two);
    assert_shape("O*.X......", Shape::Two, Shape::Two);
}

#[test]
fn one() {
    assert_shape(".....*......", Shape::One, Shape::One);
    assert_shape("O....*O", Shape::One, Shape::One);
    assert_shape("....*", Shape::One, Shape::One);
}

#[test]
fn none() {
    assert_shape("..O..*.O....", Shape::None, Shape::None);
    assert_shape("O...*O", Shape::None, Shape::None);
    // Where exactly five wins, every five through the point would be six or more.
    assert_shape("XX.*.XX", Shape::Three, Shape::None);
    assert_shape("X.XXX*.X", Shape::OpenFour, Shape::None);
}

#[test]
fn occupied_points_have_no_shape() {
    let (board, p) = laid(Rule::Freestyle, BLACK, "..XX*XO..", Dir::Horizontal);
    for q in [Point::new(3, 4), Point::new(6, 4)] {
        assert!(!board.is_empty(q));
        for colour in [BLACK, WHITE] {
            assert_eq!(board.shapes(q, colour), [Shape::None; 4]);
        }
    }
    assert_eq!(board.shape(p, Dir::Horizontal, BLACK), Shape::Four);
}

#[test]
fn shapes_in_every_direction_and_the_counts() {
    let (board, p) = drawn(
        Rule::Freestyle,
        "
        . . . . . . . . .
        . X . . . . . X .
        . . X . . . X . .
        . . . X . X . . .
        . X X . * . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
    );
    assert_eq!(
        board.shapes(p, BLACK),
        [
            Shape::OpenThree,
            Shape::OpenThree,
            Shape::OpenFour,
            Shape::OpenFour
        ]
    );
    let t = board.threats(BLACK);
    assert_eq!(t.open_four, board.shape_count(BLACK, Shape::OpenFour));
    assert!(t.open_four >= 2 && t.four >= t.open_four && t.open_three >= 2);
    assert_eq!(board.threats(WHITE), Default::default());
}

/// Under renju: the foul on `*`, `forbidden_points` lists it, and playing it loses. Under the
/// other rules the same point is no foul.
fn assert_foul(picture: &str, foul: Foul) {
    let (mut b, p) = drawn(Rule::Renju, picture);
    assert_eq!(b.foul(p), Some(foul));
    assert!(b.forbidden_points().contains(&(p, foul)));
    b.try_play(p).unwrap();
    let r = b.result().unwrap();
    assert_eq!((r.winner, r.reason), (Some(WHITE), Reason::from(foul)));
    for rule in [Rule::Freestyle, Rule::Standard] {
        let (mut b, p) = drawn(rule, picture);
        assert_eq!(b.foul(p), None, "{rule}");
        assert!(b.forbidden_points().is_empty());
    }
}

#[test]
fn renju_double_three() {
    assert_foul(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . X X * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        Foul::DoubleThree,
    );
    // With a split three (X_XX) up the column.
    assert_foul(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . X X * . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        Foul::DoubleThree,
    );
}

#[test]
fn renju_four_three_is_allowed() {
    let (mut b, p) = drawn(
        Rule::Renju,
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        O X X X * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
    );
    assert_eq!(b.foul(p), None);
    b.try_play(p).unwrap();
    assert_eq!(b.result(), None);
}

#[test]
fn renju_double_four() {
    assert_foul(
        "
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . X . . . .
        . X X X * . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        Foul::DoubleFour,
    );
}

#[test]
fn renju_double_four_in_one_line() {
    for pattern in ["X.X*X.X", "..X.X*X.X..", ".XX.*X.XX.", "XXX.*.XXX"] {
        for dir in DIRS {
            let (mut b, p) = laid(Rule::Renju, BLACK, pattern, dir);
            assert_eq!(b.foul(p), Some(Foul::DoubleFour), "{pattern} {dir:?}");
            b.try_play(p).unwrap();
            let r = b.result().unwrap();
            assert_eq!((r.winner, r.reason), (Some(WHITE), Reason::DoubleFour));
        }
    }
}

#[test]
fn renju_overline() {
    assert_foul(
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X X X * X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
        Foul::Overline,
    );
    for dir in DIRS {
        let (mut b, p) = laid(Rule::Renju, BLACK, "..X*XXXX..", dir);
        assert_eq!(b.foul(p), Some(Foul::Overline), "{dir:?}");
    }
}

#[test]
fn a_three_whose_four_point_is_forbidden_is_not_real() {
    // `*` makes the split three f-(g)-h-* along the row, whose only straight-four point g8
    // would be a double four (the column above it and the diagonal below it are threes); and
    // a real three up the column. One real three: not a double three.
    let picture = "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . X . . . . . . . .
        . . . . . . X . X . . . . . .
        . . . . . . X . X . . . . . .
        . . . . . X . X * . . . . . .
        . . . . . X . . . . . . . . .
        . . . . X . . . . . . . . . .
        . . . X . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ";
    let (mut b, p) = drawn(Rule::Renju, picture);
    let g8 = Point::new(6, 7);
    assert_eq!(b.shape(p, Dir::Horizontal, BLACK), Shape::OpenThree);
    assert_eq!(b.shape(p, Dir::Vertical, BLACK), Shape::OpenThree);
    assert_eq!(b.foul(p), None, "only one of the two threes is real");
    assert!(!b.forbidden_points().iter().any(|&(q, _)| q == p));
    // With the stone on `*`, the key point of the row three is a double four.
    b.try_play(p).unwrap();
    b.try_play(Point::new(0, 0)).unwrap();
    assert_eq!(b.foul(g8), Some(Foul::DoubleFour));

    // Without the column above g8 and the diagonal below it, g8 is a plain four point, the
    // row three is real, and `*` is a double three.
    let (mut b, p) = drawn(
        Rule::Renju,
        "
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . . . . X . . . . . .
        . . . . . X . X * . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        . . . . . . . . . . . . . . .
        ",
    );
    assert_eq!(b.foul(p), Some(Foul::DoubleThree));
    // Either of the two lines through g8 alone is enough to make it a double four.
    for (column, diagonal) in [(true, false), (false, true)] {
        let mut black: Vec<Point> = [(5, 7), (7, 7), (8, 5), (8, 6)]
            .map(|(x, y)| Point::new(x, y))
            .to_vec();
        if column {
            black.extend([(6, 4), (6, 5), (6, 6)].map(|(x, y)| Point::new(x, y)));
        }
        if diagonal {
            black.extend([(5, 8), (4, 9), (3, 10)].map(|(x, y)| Point::new(x, y)));
        }
        let mut b = Board::from_stones(15, Rule::Renju, &black, &[], Some(BLACK)).unwrap();
        assert_eq!(b.foul(p), None, "column {column}, diagonal {diagonal}");
    }
}

#[test]
fn five_beats_a_foul() {
    // `*` makes an exact five along the row and an overline down the column at once.
    let (mut b, p) = drawn(
        Rule::Renju,
        "
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . X . . . .
        X X X X * . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
    );
    assert_eq!(b.shape(p, Dir::Vertical, BLACK), Shape::Overline);
    assert_eq!(b.foul(p), None);
    b.try_play(p).unwrap();
    let r = b.result().unwrap();
    assert_eq!((r.winner, r.reason), (Some(BLACK), Reason::Five));

    // An exact five and a four: a five and a double four at once.
    let (mut b, p) = drawn(
        Rule::Renju,
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . X . . . .
        . . . . X . . . .
        X X X X * . . . .
        . . . . X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
    );
    assert_eq!(b.foul(p), None);
    b.try_play(p).unwrap();
    assert_eq!(b.result().unwrap().reason, Reason::Five);
}

#[test]
fn white_never_commits_a_foul() {
    // A double three, a double four and an overline for White: strong moves, not fouls.
    for picture in [
        "...O.\n...O.\n.OO*.\n.....\n.....",
        "...O.\n...O.\n...O.\nOOO*.\n.....",
        "OOO*OO\n......\n......\n......\n......\n......",
    ] {
        let (mut b, p) = drawn_to_move(Rule::Renju, picture, WHITE);
        assert_eq!(b.foul(p), None, "foul() is about Black only");
        b.try_play(p).unwrap();
        let r = b.result();
        assert!(
            r.is_none() || r.unwrap() == five_by(WHITE),
            "{picture}: {r:?}"
        );
    }
}

fn five_by(winner: Player) -> GameResult {
    GameResult {
        winner: Some(winner),
        reason: Reason::Five,
    }
}

#[test]
fn how_games_end_under_each_rule() {
    // A sixth stone in a row: a win in freestyle, nothing in standard, a loss for Black in
    // renju and a win for White there.
    let end = |rule: Rule, colour: Player| {
        let (mut b, p) = laid(rule, colour, "....XX*XXX..", Dir::Horizontal);
        b.try_play(p).unwrap();
        b.result().map(|r| (r.winner, r.reason))
    };
    assert_eq!(
        end(Rule::Freestyle, BLACK),
        Some((Some(BLACK), Reason::Five))
    );
    assert_eq!(
        end(Rule::Freestyle, WHITE),
        Some((Some(WHITE), Reason::Five))
    );
    assert_eq!(end(Rule::Standard, BLACK), None);
    assert_eq!(end(Rule::Standard, WHITE), None);
    assert_eq!(
        end(Rule::Renju, BLACK),
        Some((Some(WHITE), Reason::Overline))
    );
    assert_eq!(end(Rule::Renju, WHITE), Some((Some(WHITE), Reason::Five)));
}

#[test]
fn no_move_after_the_end_until_undo() {
    let mut b = Board::from_moves(15, Rule::Freestyle, "h8 a1 i8 a2 j8 a3 k8 a4 l8").unwrap();
    assert_eq!(b.result(), Some(five_by(BLACK)));
    assert!(b.try_play(Point::new(14, 14)).is_err());
    assert_eq!(b.undo(), Some(Point::new(11, 7)));
    assert_eq!(b.result(), None);
    b.try_play(Point::new(14, 14)).unwrap();
}

#[test]
fn a_full_board_without_five_is_a_draw() {
    // 5x5 in pairs: no line of five anywhere; Black has 13 stones, White 12.
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOO."];
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            match c {
                'X' => black.push(Point::new(x, y)),
                'O' => white.push(Point::new(x, y)),
                _ => {}
            }
        }
    }
    for rule in Rule::ALL {
        let mut b = Board::from_stones(5, rule, &black, &white, None).unwrap();
        assert_eq!(b.side_to_move(), BLACK);
        b.try_play(Point::new(4, 4)).unwrap();
        let r = b.result().unwrap();
        assert_eq!((r.winner, r.reason), (None, Reason::BoardFull), "{rule:?}");
        assert!(b.try_play(Point::new(4, 4)).is_err());
    }
}
