use super::*;

/// The kept counts of stones around each point are the stones there, after every move
/// and every undo of random games on the largest board.
#[test]
fn stones_around_and_near_rows_are_kept_through_play_and_undo() {
    let mut rng = crate::testing::Xorshift(0x5851_F42D_4C95_7F2D);
    let check = |board: &Board| {
        for p in board.points() {
            let any_near = board.points().any(|q| {
                q.x().abs_diff(p.x()) <= 2 && q.y().abs_diff(p.y()) <= 2 && !board.is_empty(q)
            });
            assert_eq!(
                board.near_row(p.y()) >> p.x() & 1 == 1,
                any_near && board.is_empty(p),
                "{board:?} {p:?}"
            );
            for colour in [Player::First, Player::Second] {
                let near = board
                    .points()
                    .filter(|q| q.x().abs_diff(p.x()) <= 2 && q.y().abs_diff(p.y()) <= 2)
                    .filter(|&q| board.stone(q) == Some(colour))
                    .count();
                assert_eq!(
                    board.stones_around(p, colour),
                    near as u32,
                    "{board:?} {p:?}"
                );
            }
        }
    };
    for size in [MAX_SIZE, MAX_SIZE, 15, 7] {
        let mut board = Board::new(size, Rule::Freestyle).unwrap();
        while board.result().is_none() && board.stone_count() < 60 {
            let p = Point::new(rng.below(size), rng.below(size));
            if board.is_empty(p) {
                board.play(p);
                check(&board);
            }
        }
        while board.undo().is_some() {
            check(&board);
        }
    }
}

/// Crowded random positions of every rule (six a rule, from `seed`); for each colour and
/// each empty point `s`: `guess(board, colour, s, t)` for every empty point `t` (`s`
/// included), then with a stone of `stone(colour)` on `s`, `check(board, colour, s, t,
/// guess)` for each.
fn for_each_stone_placed<G>(
    seed: u64,
    stone: fn(Player) -> Player,
    mut guess: impl FnMut(&Board, Player, Point, Point) -> G,
    mut check: impl FnMut(&Board, Player, Point, Point, G),
) {
    let mut rng = crate::testing::Xorshift(seed);
    for rule in Rule::ALL {
        for _ in 0..6 {
            let mut board = crate::testing::crowded_board(&mut rng, rule, 8, 8, 10, 30);
            let empty: Vec<Point> = board.points().filter(|&p| board.is_empty(p)).collect();
            for colour in [Player::First, Player::Second] {
                for &s in &empty {
                    let guessed: Vec<G> =
                        empty.iter().map(|&t| guess(&board, colour, s, t)).collect();
                    board.put(s, stone(colour));
                    for (&t, g) in empty.iter().zip(guessed) {
                        check(&board, colour, s, t, g);
                    }
                    board.take(s, stone(colour));
                }
            }
        }
    }
}

/// `shapes_if_blocked` agrees with placing the blocker and reading the shapes, for every
/// pair of empty points of crowded random positions under every rule.
#[test]
fn shapes_if_blocked_match_a_placed_stone() {
    for_each_stone_placed(
        0x9E37_79B9_7F4A_7C15,
        Player::opponent,
        |board, colour, b, t| (t != b).then(|| board.shapes_if_blocked(t, colour, b)),
        |board, colour, b, t, guess| {
            if let Some(guess) = guess {
                assert_eq!(guess, board.shapes(t, colour), "{board:?} {t:?} {b:?}");
            }
        },
    );
}

/// `shape_if_added` agrees with placing the stone and reading the shape, for every pair of
/// distinct empty points on one line within reach (`line_within_reach` finds exactly those) of
/// crowded random positions under every rule.
#[test]
fn shape_if_added_matches_a_placed_stone() {
    let mut checked = 0;
    for_each_stone_placed(
        0x2545_F491_4F6C_DD1D,
        |colour| colour,
        |board, colour, e, t| {
            let (dx, dy) = (t.x().abs_diff(e.x()), t.y().abs_diff(e.y()));
            let in_line = t != e && (dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= REACH;
            let d = board.line_within_reach(t, e);
            assert_eq!(d.is_some(), in_line, "{t:?} {e:?}");
            d.map(|d| (d, board.shape_if_added(t, d, colour, e)))
        },
        |board, colour, e, t, guess| {
            if let Some((d, shape)) = guess {
                assert_eq!(shape, board.shapes(t, colour)[d], "{t:?} {e:?}");
                checked += 1;
            }
        },
    );
    assert!(checked > 10_000, "{checked}");
}

/// Each string of `from_move_strings` is one move; the error names the string that is not.
#[test]
fn each_move_string_is_one_move() {
    let b = Board::from_move_strings(15, Rule::Freestyle, &["h8", "7,6", " I9 "]).unwrap();
    let expected = Board::from_moves(15, Rule::Freestyle, "h8 h9 i9").unwrap();
    assert_eq!(b.moves(), expected.moves());
    for (moves, message) in [
        (&["h8h9"][..], "move 1 (1-based) \"h8h9\""),
        (&["h8", "7,", "7"], "move 2 (1-based) \"7,\""),
        (&["h8", ""], "move 2 (1-based) \"\""),
        (&["h8", "h8"], "move 2 (1-based) \"h8\""),
        (&["z99"], "move 1 (1-based) \"z99\""),
    ] {
        let e = Board::from_move_strings(15, Rule::Freestyle, moves).unwrap_err();
        assert!(e.to_string().starts_with(message), "{moves:?}: {e}");
    }
    let error = |moves: &[&str]| {
        Board::from_move_strings(15, Rule::Freestyle, moves)
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        error(&["h8h9"]),
        "move 1 (1-based) \"h8h9\": more than one move in one string"
    );
    assert_eq!(error(&["h8", " "]), "move 2 (1-based) \"\": no move");
    assert!(matches!(
        Board::from_move_strings::<&str>(4, Rule::Freestyle, &[]),
        Err(BoardError::Size(4))
    ));
}

/// A set-up position that ended the game says how: a five wins where the rule counts it, and
/// under renju a Black overline is the foul that ended it. Two fives are refused.
#[test]
fn set_up_stones_that_ended_the_game_say_how() {
    let points = |list: &str| crate::notation::parse_moves(list, 15).unwrap();
    let result = |rule: Rule, black: &str, white: &str| {
        Board::from_stones(15, rule, &points(black), &points(white), None).map(|b| b.result())
    };
    let six = "a1 b1 c1 d1 e1 f1";
    let scattered = "a3 b3 c3 d3 h8 j8";
    let won = |winner: Player, reason: Reason| {
        Ok(Some(GameResult {
            winner: Some(winner),
            reason,
        }))
    };
    assert_eq!(
        result(Rule::Freestyle, six, scattered),
        won(Player::First, Reason::Five)
    );
    assert_eq!(result(Rule::Standard, six, scattered), Ok(None));
    assert_eq!(
        result(Rule::Renju, six, scattered),
        won(Player::Second, Reason::Overline)
    );
    // White's five stands beside Black's foul: White won either way.
    let white_five = "a3 b3 c3 d3 e3 j8";
    assert_eq!(
        result(Rule::Renju, six, white_five),
        won(Player::Second, Reason::Five)
    );
    assert!(result(Rule::Freestyle, six, white_five).is_err());
    // Black's five beside Black's overline: one move can make both, and then the five wins.
    let five_and_six = "a1 b1 c1 d1 e1 f1 a15 b15 c15 d15 e15";
    let many = "a3 b3 c3 d3 j8 k9 k10 k11 l12 m13 n14";
    assert_eq!(
        result(Rule::Renju, five_and_six, many),
        won(Player::First, Reason::Five)
    );
}

/// A copy keeps room for a whole board's moves: playing on it allocates nothing (a `Vec`'s
/// clone had room for the moves so far only). Found by a review of the library.
#[test]
fn a_copy_plays_without_allocating() {
    let board = Board::from_moves(15, crate::rules::Rule::Freestyle, "h8 i9 h9").unwrap();
    let copy = board.clone();
    assert!(copy.history.capacity() >= 15 * 15);
    assert_eq!(copy.moves(), board.moves());
}
