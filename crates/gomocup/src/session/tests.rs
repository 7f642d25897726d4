use super::*;

/// The nodes a depth-6 search of the session's position takes on its engine.
fn search_nodes(session: &mut Session) -> u64 {
    let mut engine = session.take_engine().expect("a started session");
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let nodes = engine.go(&limits, |_| {}).nodes;
    session.give_engine(engine);
    nodes
}

/// The moves of the session's game (none without one).
fn moves(session: &Session) -> Vec<Point> {
    session.board().map_or(Vec::new(), |b| b.moves().to_vec())
}

/// Sends a block's lines and returns the replies to its `DONE`.
fn block(session: &mut Session, lines: &[&str]) -> Vec<String> {
    for line in &lines[..lines.len() - 1] {
        assert!(session.handle_line(line).replies.is_empty(), "{line}");
    }
    session.handle_line(lines[lines.len() - 1]).replies
}

/// Found by the property test in `robustness`: the position was set, then refused.
#[test]
fn a_board_of_a_finished_game_is_an_error_and_changes_nothing() {
    let mut session = Session::default();
    session.handle_line("START 6");
    assert_eq!(session.handle_line("PLAY 5,5").replies, ["5,5"]);
    let five = [
        "BOARD", "0,3,1", "1,3,1", "2,3,1", "3,3,1", "0,1,2", "1,1,2", "2,1,2", "3,1,2", "4,1,2",
        "DONE",
    ];
    let replies = block(&mut session, &five);
    assert!(replies[0].starts_with("ERROR the game on that board is already over"));
    assert_eq!(moves(&session), [Point::new(5, 5)]);
    // YXBOARD sets a finished position without asking for a move.
    let mut yx = five;
    yx[0] = "YXBOARD";
    assert!(block(&mut session, &yx).is_empty());
    assert_eq!(moves(&session).len(), 9);
}

/// Found by the property test in `robustness`: the move was kept, then refused.
#[test]
fn a_turn_that_ends_the_game_is_an_error_and_changes_nothing() {
    let mut session = Session::default();
    session.handle_line("START 7");
    // The opponent has four in a row; the engine blocks one end, the opponent takes the other.
    let four = [
        "YXBOARD", "1,3,1", "2,3,1", "3,3,1", "1,1,2", "2,1,2", "3,1,2", "4,1,2", "DONE",
    ];
    assert!(block(&mut session, &four).is_empty());
    assert_eq!(session.handle_line("PLAY 0,1").replies, ["0,1"]);
    let before = moves(&session);
    let replies = session.handle_line("TURN 5,1").replies;
    assert_eq!(
        replies,
        ["ERROR 5,1 ends the game, so there is no move to answer; it is not kept"]
    );
    assert_eq!(moves(&session), before);
    assert!(session.board().unwrap().result().is_none());
}

/// YXNBEST ranks its moves in one search with the turn's time, however many it asks for
/// (2^32 once gave each of 2^32 searches the 1 ms floor).
#[test]
fn an_nbest_search_has_the_time_of_a_move() {
    let mut session = Session::default();
    session.handle_line("START 15");
    let mut time = |line: &str| {
        let think = session.handle_line(line).think;
        think.expect("a search").limits.time.expect("a turn time")
    };
    let a_move = time("BEGIN");
    assert!(a_move > Duration::from_millis(1), "{a_move:?}");
    assert_eq!(time("YXNBEST 5"), a_move);
    assert_eq!(time("YXNBEST 4294967296"), a_move);
}

#[test]
fn repeated_settings_keep_the_engine_and_what_its_table_knows() {
    let mut session = Session::default();
    session.handle_line("START 15");
    let first = search_nodes(&mut session);
    assert!(
        search_nodes(&mut session) < first,
        "the table helps a repeat"
    );
    // What a manager sends at every game start, unchanged: the table stays.
    session.handle_line("INFO max_memory 0");
    session.handle_line("INFO thread_num 1");
    assert!(search_nodes(&mut session) < first);
    // A new size is a new, empty table.
    session.handle_line("INFO max_memory 100000000");
    assert_eq!(search_nodes(&mut session), first);
}

/// A command inside an unfinished block drops the block and is still carried out (a
/// manager that gave up on a BOARD and starts a new game must not be ignored).
#[test]
fn a_command_inside_an_unfinished_block_drops_it_and_still_counts() {
    let mut session = Session::default();
    session.handle_line("START 15");
    assert_eq!(session.handle_line("PLAY 7,7").replies, ["7,7"]);
    assert!(session.handle_line("BOARD").replies.is_empty());
    assert!(session.handle_line("7,7,2").replies.is_empty());
    let replies = session.handle_line("START 15").replies;
    assert_eq!(replies, [BLOCK_DROPPED, "OK"]);
    assert_eq!(moves(&session), []);
    assert!(session.handle_line("YXBOARD").replies.is_empty());
    let replies = session.handle_line("ABOUT").replies;
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert!(replies[1].starts_with("name=\"wuzi\""), "{replies:?}");
}

/// A line in a block that is not a stone gets an ERROR; the block stays open, so that its
/// `DONE` still ends it, and is then refused whole: a position without that stone could get
/// a move on the very point the manager has it (see [`Block`]).
#[test]
fn a_bad_stone_line_refuses_the_whole_block() {
    let mut session = Session::default();
    session.handle_line("START 15");
    assert_eq!(session.handle_line("PLAY 3,3").replies, ["3,3"]);
    for bad in ["7,7,0", "-1,5,1", "7,7,1,5", "seven", "7,x,2"] {
        assert!(session.handle_line("BOARD").replies.is_empty());
        assert!(session.handle_line("3,7,1").replies.is_empty());
        let replies = session.handle_line(bad).replies;
        assert_eq!(replies.len(), 1, "{replies:?}");
        assert!(
            replies[0].starts_with("ERROR") && replies[0].contains("whole block"),
            "{bad}: {replies:?}"
        );
        assert!(session.handle_line("4,7,2").replies.is_empty());
        let outcome = session.handle_line("DONE");
        assert!(outcome.think.is_none(), "{bad}: no search");
        assert_eq!(outcome.replies.len(), 1, "{:?}", outcome.replies);
        assert!(
            outcome.replies[0].starts_with("ERROR the block is refused"),
            "{:?}",
            outcome.replies
        );
        assert_eq!(moves(&session), [Point::new(3, 3)], "the game is as it was");
    }
    // The next block is read afresh.
    assert!(session.handle_line("BOARD").replies.is_empty());
    session.handle_line("7,7,2");
    assert!(session.handle_line("DONE").think.is_some());
}

/// Without `time_left` from the manager, the session counts its own replies' time against
/// `timeout_match`; a `time_left` sent is taken as it is, and a new game starts afresh.
#[test]
fn the_match_clock_runs_without_time_left() {
    let mut session = Session::default();
    session.handle_line("START 15");
    session.handle_line("INFO timeout_turn 30000");
    session.handle_line("INFO timeout_match 10000");
    let time = |session: &mut Session| {
        let think = session.handle_line("YXNBEST 1").think.expect("a search");
        think.limits.time.expect("a limit")
    };
    let full = time(&mut session);
    session.spend(Duration::from_millis(6000));
    let later = time(&mut session);
    assert!(later < full, "{later:?} {full:?}");
    session.spend(Duration::from_millis(6000));
    assert!(
        time(&mut session) <= Duration::from_millis(10),
        "the match time is spent"
    );
    session.handle_line("INFO time_left 10000");
    assert_eq!(time(&mut session), full);
    session.spend(Duration::from_millis(9000));
    session.handle_line("RESTART");
    assert_eq!(time(&mut session), full, "a new game");
}

/// The time limit of a move asked for now.
fn move_time(session: &mut Session) -> Duration {
    let think = session.handle_line("YXNBEST 1").think.expect("a search");
    think.limits.time.expect("a limit")
}

/// Yixin-Board sends `INFO time_left` before the `START` of every move: that START kept the
/// whole match's time instead, and a move with 300 ms left took 14 s.
#[test]
fn a_time_left_sent_just_before_start_is_kept() {
    let mut session = Session::default();
    session.handle_line("START 15");
    session.handle_line("INFO timeout_turn 30000");
    session.handle_line("INFO timeout_match 180000");
    let full = move_time(&mut session);
    session.handle_line("INFO time_left 300");
    session.handle_line("START 15");
    let short = move_time(&mut session);
    assert!(short < Duration::from_millis(300), "{short:?}");
    // Used by that move, it is not taken for the next game's.
    session.handle_line("START 15");
    assert_eq!(move_time(&mut session), full);
    // Nor when the command it came before was refused.
    session.handle_line("INFO time_left 300");
    assert!(session.handle_line("TAKEBACK 0,0").replies[0].starts_with("ERROR"));
    session.handle_line("START 15");
    assert_eq!(move_time(&mut session), full);
}

/// Managers send a negative `time_left` after an overrun within their tolerance. It got an
/// `ERROR` (Piskvork reads that as the reply to its next `TURN` and forfeits the engine) and
/// the engine then planned from its own larger count.
#[test]
fn a_negative_time_left_is_no_time_left() {
    let mut session = Session::default();
    session.handle_line("START 15");
    session.handle_line("INFO timeout_turn 1000");
    session.handle_line("INFO timeout_match 10000");
    assert!(session
        .handle_line("INFO time_left -120")
        .replies
        .is_empty());
    assert_eq!(move_time(&mut session), Duration::from_millis(1));
    let turn = session.handle_line("TURN 7,7");
    assert!(turn.replies.is_empty(), "{:?}", turn.replies);
}

/// Yixin-Board's "unlimited" level sends `max_node -1`: it was refused and the node limit
/// of the level before stayed.
#[test]
fn negative_node_and_depth_limits_are_no_limits() {
    let mut session = Session::default();
    session.handle_line("START 15");
    session.handle_line("INFO max_node 10000");
    session.handle_line("INFO max_depth 5");
    let limits = |session: &mut Session| {
        let think = session.handle_line("YXNBEST 1").think.expect("a search");
        (think.limits.nodes, think.limits.depth)
    };
    assert_eq!(limits(&mut session), (Some(10000), Some(5)));
    session.handle_line("INFO max_node -1");
    session.handle_line("INFO max_depth -1");
    assert_eq!(limits(&mut session), (None, None));
}

/// A value that is not a number is ignored with a `MESSAGE`, never an `ERROR` (which a
/// manager reads as the reply to the `TURN` it sends next, and forfeits the engine), and the
/// setting stays.
#[test]
fn a_bad_info_value_gets_a_message_and_changes_nothing() {
    let mut session = Session::default();
    session.handle_line("START 15");
    session.handle_line("INFO timeout_turn 1000");
    let before = move_time(&mut session);
    assert_eq!(
        session.handle_line("INFO timeout_turn 1.5s").replies,
        ["MESSAGE INFO timeout_turn: \"1.5s\" is not a whole number of 0 or more; ignored"]
    );
    assert_eq!(move_time(&mut session), before);
}

/// c-gomoku-cli sends no `timeout_turn` when its turn limit is 0: the game clock alone sets
/// the time, not a 5 s default per move.
#[test]
fn without_a_turn_limit_the_game_clock_sets_the_time() {
    let mut session = Session::default();
    session.handle_line("START 15");
    session.handle_line("INFO timeout_match 180000");
    session.handle_line("INFO time_left 180000");
    let time = move_time(&mut session);
    assert!(time > Duration::from_millis(5000), "{time:?}");
    // With neither, 5 s.
    let mut session = Session::default();
    session.handle_line("START 15");
    assert!(move_time(&mut session) <= Duration::from_millis(5000));
}

/// Found by a hostile-input review: a position set up without its history (here a standard
/// `BOARD` whose order passes through a five to a six) refused every `TAKEBACK` with "there
/// is no move to take back", and the engine's board then parted from the manager's.
#[test]
fn a_position_without_its_history_can_be_taken_back() {
    let mut session = Session::default();
    session.handle_line("INFO rule 1");
    session.handle_line("START 15");
    session.handle_line("INFO max_node 500");
    let six = [
        "BOARD", "0,0,1", "0,1,2", "1,0,1", "1,1,2", "2,0,1", "2,1,2", "3,0,1", "3,1,2", "4,0,1",
        "9,9,2", "5,0,1", "9,10,2", "DONE",
    ];
    for line in &six[..six.len() - 1] {
        session.handle_line(line);
    }
    assert!(session.handle_line("DONE").think.is_some());
    assert!(moves(&session).is_empty());
    // Its stones go one by one, each of the side that moved last, which is then to move.
    assert!(session.handle_line("TAKEBACK 5,0").replies[0].starts_with("ERROR 5,0 is not"));
    for (p, stones) in [("9,10", 11), ("4,0", 10), ("9,9", 9)] {
        assert_eq!(
            session.handle_line(&format!("TAKEBACK {p}")).replies,
            ["OK"],
            "{p}"
        );
        assert_eq!(session.board().unwrap().stone_count(), stones);
    }
    assert_eq!(session.board().unwrap().side_to_move(), Player::Second);
    assert!(session.handle_line("TAKEBACK 7,7").replies[0].starts_with("ERROR"));
    assert_eq!(session.board().unwrap().stone_count(), 9);
    // And the game goes on from there.
    assert!(session.handle_line("TURN 9,10").think.is_some());
    assert_eq!(session.board().unwrap().moves(), [Point::new(9, 10)]);
}

/// A bare `INFO` got an `ERROR`, which Piskvork reads as the reply to its next `TURN`.
#[test]
fn an_info_without_a_key_gets_a_message() {
    let mut session = Session::default();
    session.handle_line("START 15");
    assert_eq!(
        session.handle_line("INFO").replies,
        ["MESSAGE INFO without a key is not used; ignored"]
    );
    assert_eq!(session.handle_line("PLAY 7,7").replies, ["7,7"]);
}

/// A `BOARD` before `START` got an `ERROR` for itself and one more for each of its lines
/// ("stone lines only come after BOARD", which they had): one `ERROR` now, at its `DONE`.
#[test]
fn a_block_without_a_game_is_one_error() {
    let mut session = Session::default();
    let replies = block(&mut session, &["BOARD", "7,7,1", "8,8,2", "DONE"]);
    assert_eq!(replies, ["ERROR no game: send START first"]);
    assert!(session.board().is_none());
}

/// A block is never longer than a board has points: the lines past that are not kept.
#[test]
fn a_block_longer_than_any_board_is_refused() {
    let mut session = Session::default();
    session.handle_line("START 15");
    session.handle_line("BOARD");
    for _ in 0..MAX_SIZE * MAX_SIZE + 10 {
        session.handle_line("7,7,1");
    }
    assert_eq!(
        session.block.as_ref().unwrap().stones.len(),
        MAX_SIZE * MAX_SIZE
    );
    let replies = session.handle_line("DONE").replies;
    assert_eq!(
        replies,
        ["ERROR the block is refused (more stones than any board has); the position is as it was"]
    );
    assert!(moves(&session).is_empty());
}

/// A value with more digits than 64 bits hold was "not a whole number" and ignored: it is
/// the largest there is.
#[test]
fn an_info_value_past_64_bits_is_the_largest() {
    let mut session = Session::default();
    session.handle_line("START 15");
    for line in [
        "INFO timeout_turn 99999999999999999999",
        "INFO max_memory 99999999999999999999",
        "INFO time_left -99999999999999999999",
    ] {
        assert!(session.handle_line(line).replies.is_empty(), "{line}");
    }
    assert_eq!(session.timeout_turn, Some(u64::MAX));
    // A rule is not a limit: such a number is still no rule.
    let rule = session
        .handle_line("INFO rule 99999999999999999999")
        .replies;
    assert!(rule[0].starts_with("MESSAGE INFO rule"), "{rule:?}");
    assert_eq!(session.time_left, Some(0));
    assert_eq!(session.handle_line("PLAY 7,7").replies, ["7,7"]);
}
