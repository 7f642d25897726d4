//! Each shape, each renju foul and each way a game ends, on boards drawn as text.
//!
//! In a drawing `X` is Black, `O` White, `.` empty and `*` the empty point under test; the
//! first row is the top of the board and the board is as large as the drawing is tall.

use wuzi_gomoku::{Board, Dir, Foul, Player, Point, Reason, Rule, Shape};

const BLACK: Player = Player::First;
const WHITE: Player = Player::Second;

/// The board a drawing shows (Black to move) and its `*` point.
fn drawn(rule: Rule, picture: &str) -> (Board, Point) {
    drawn_to_move(rule, picture, BLACK)
}

fn drawn_to_move(rule: Rule, picture: &str, to_move: Player) -> (Board, Point) {
    let rows: Vec<&str> = picture
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let n = rows.len();
    let (mut black, mut white, mut mark) = (Vec::new(), Vec::new(), None);
    for (y, row) in rows.iter().enumerate() {
        let cells: Vec<char> = row.chars().filter(|c| !c.is_whitespace()).collect();
        assert_eq!(cells.len(), n, "row {y} of a square drawing");
        for (x, c) in cells.into_iter().enumerate() {
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

/// The shape a Black stone on `*` makes along the row.
fn row_shape(rule: Rule, row: &str) -> Shape {
    let n = row.len();
    let mut picture = String::new();
    for y in 0..n {
        if y == n / 2 {
            picture.push_str(row);
        } else {
            picture.push_str(&".".repeat(n));
        }
        picture.push('\n');
    }
    let (board, p) = drawn(rule, &picture);
    board.shape(p, Dir::Horizontal, BLACK)
}

#[test]
fn every_shape_along_a_row() {
    use Shape::*;
    let cases = [
        ("...XX*XX....", Five, Five),
        ("..XXX*XX....", Five, Overline),
        ("....X*XX....", OpenFour, OpenFour),
        ("...OX*XX....", Four, Four),
        ("...X.*XX....", Four, Four),
        ("...X.*XXX...", OpenFour, Four),
        ("..X.X*X.X...", FourFour, FourFour), // X_XXX_X
        (".XX.*X.XX...", FourFour, FourFour), // XX_XX_XX
        ("....X*X.....", OpenThree, OpenThree),
        ("....X.*X....", OpenThree, OpenThree), // X_XX
        ("...OX*X.....", Three, Three),
        (".....*X.....", OpenTwo, OpenTwo),
        ("....O*X.....", Two, Two),
        (".....*......", One, One),
        ("..O..*.O....", None, None),
    ];
    for (row, freestyle, exact) in cases {
        assert_eq!(
            row_shape(Rule::Freestyle, row),
            freestyle,
            "freestyle {row}"
        );
        assert_eq!(row_shape(Rule::Standard, row), exact, "standard {row}");
    }
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

#[test]
fn renju_double_three_double_four_and_overline() {
    let (mut b, p) = drawn(
        Rule::Renju,
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
    );
    assert_eq!(b.foul(p), Some(Foul::DoubleThree));

    let (mut b, p) = drawn(
        Rule::Renju,
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
    );
    assert_eq!(b.foul(p), Some(Foul::DoubleFour));

    // Two fours in one line: X_XXX_X.
    let (mut b, p) = drawn(
        Rule::Renju,
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        X . X * X . X . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        ",
    );
    assert_eq!(b.foul(p), Some(Foul::DoubleFour));

    let (mut b, p) = drawn(
        Rule::Renju,
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
    );
    assert_eq!(b.foul(p), Some(Foul::Overline));
    // The same points are not forbidden in freestyle, nor for White.
    let (mut free, p) = drawn(
        Rule::Freestyle,
        "XXX*XX\n......\n......\n......\n......\n......",
    );
    assert_eq!(free.foul(p), None);
}

#[test]
fn a_three_whose_four_point_is_forbidden_is_not_real() {
    // `*` makes the split three f-(g)-h-* along the row, whose only straight-four point (the
    // g column, marked by the Black column above and the diagonal below it) would be a double
    // four; and a real three up the column. One real three: not a double three.
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
    assert_eq!(
        b.shapes(p, BLACK)[Dir::Horizontal as usize],
        Shape::OpenThree
    );
    assert_eq!(b.shapes(p, BLACK)[Dir::Vertical as usize], Shape::OpenThree);
    assert_eq!(b.foul(p), None, "only one of the two threes is real");
    // With the stone on `*`, the key point of the row three is a double four.
    b.try_play(p).unwrap();
    b.try_play(Point::new(0, 0)).unwrap();
    assert_eq!(b.foul(g8), Some(Foul::DoubleFour));
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
    assert_eq!(b.foul(p), None);
    b.try_play(p).unwrap();
    let r = b.result().unwrap();
    assert_eq!((r.winner, r.reason), (Some(BLACK), Reason::Five));
}

#[test]
fn white_never_commits_a_foul() {
    // A double three and a double four for White: strong moves, not fouls.
    for picture in [
        "...O.\n...O.\n.OO*.\n.....\n.....",
        "...O.\n...O.\n...O.\nOOO*.\n.....",
    ] {
        let (mut b, p) = drawn_to_move(Rule::Renju, picture, WHITE);
        assert_eq!(b.foul(p), None, "foul() is about Black only");
        b.try_play(p).unwrap();
        assert_ne!(b.result().map(|r| r.reason), Some(Reason::DoubleThree));
        assert_ne!(b.result().map(|r| r.reason), Some(Reason::DoubleFour));
    }
}

#[test]
fn how_games_end_under_each_rule() {
    // A sixth stone in a row: a win in freestyle, nothing in standard, a loss for Black in
    // renju and a win for White there.
    let six = |stone: char| {
        let mut s = String::new();
        for y in 0..12 {
            if y == 6 {
                s.push_str(&"....XX*XXX..".replace('X', &stone.to_string()));
            } else {
                s.push_str("............");
            }
            s.push('\n');
        }
        s
    };
    let end = |rule: Rule, colour: Player| {
        let stone = if colour == BLACK { 'X' } else { 'O' };
        let (mut b, p) = drawn_to_move(rule, &six(stone), colour);
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
