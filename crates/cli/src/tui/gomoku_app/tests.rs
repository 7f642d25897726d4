use super::*;
use crate::tui::gomoku_view;

use ratatui::backend::TestBackend;
use ratatui::style::Color;
use ratatui::Terminal;
use wuzi_gomoku::Rule;

/// A game against a depth-limited engine, so that every answer is the same.
fn app(moves: &str, rule: Rule) -> GomokuApp {
    app_as(moves, rule, Player::First)
}

/// The same with the player on `human`'s side.
fn app_as(moves: &str, rule: Rule, human: Player) -> GomokuApp {
    let board = Board::from_moves(15, rule, moves).unwrap();
    let options = EngineOptions {
        table_bytes: 1 << 20,
        ..EngineOptions::default()
    };
    let engine = Engine::new(board.clone(), options);
    let save_to = std::env::temp_dir().join(format!("wuzi-tui-{}.sgf", std::process::id()));
    GomokuApp::new(board, engine, human, Limits::depth(2), Some(save_to))
}

/// The screen as text, and the terminal it was drawn on.
fn screen(app: &GomokuApp) -> (String, Terminal<TestBackend>) {
    screen_of(app, 90, 24)
}

/// The screen as text on a terminal of `width` x `height`.
fn screen_of(app: &GomokuApp, width: u16, height: u16) -> (String, Terminal<TestBackend>) {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|frame| {
            gomoku_view::draw(frame, app).expect("the board fits");
        })
        .unwrap();
    let buffer = terminal.backend().buffer().clone();
    let text = (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n");
    (text, terminal)
}

#[test]
fn keys_move_the_cursor_place_a_stone_and_the_engine_answers() {
    let mut app = app("", Rule::Freestyle);
    assert_eq!(app.cursor, (7, 7));
    for input in [Input::Left, Input::Up, Input::Up, Input::Right] {
        app.input(input);
    }
    assert_eq!(app.cursor, (7, 5));
    app.input(Input::Place);
    assert_eq!(app.board().stone(Point::new(7, 5)), Some(Player::First));
    assert!(app.engine_to_move());
    // Playing while it thinks changes nothing.
    app.input(Input::PlaceAt(0, 0));
    assert_eq!(app.board().moves().len(), 1);
    app.wait();
    assert_eq!(app.board().moves().len(), 2);
    assert_eq!(app.board().side_to_move(), Player::First);
    let (text, _) = screen(&app);
    assert!(text.contains("wuzi plays"), "{text}");
    // Nothing is proven after one move: the score comes with chances.
    assert!(text.contains("its chance"), "{text}");
    // While it thinks, the live line says whose chance it is.
    app.progress = Some(Progress {
        depth: 9,
        score: "35".into(),
        nodes: 1000,
        chance: Some("White 52%".into()),
        line: vec!["f11".into()],
    });
    let (text, _) = screen(&app);
    assert!(text.contains("depth 9  score 35  White 52%"), "{text}");
    app.progress = None;
    assert!(text.contains("Your move (black)"), "{text}");
    assert!(text.contains("1. h10"), "{text}");

    // Undo takes back both the reply and the player's move.
    app.input(Input::Undo);
    assert!(app.board().moves().is_empty());
    assert!(!app.is_thinking());
    app.input(Input::Undo);
    assert_eq!(app.message, "Nothing to undo.");
}

/// `h8` typed after `:` plays h8: the letters are text there, not cursor keys (`h` would
/// move the cursor left).
#[test]
fn a_typed_move_is_played_and_a_bad_one_leaves_the_game_as_it_was() {
    let mut app = app("", Rule::Freestyle);
    let type_text = |app: &mut GomokuApp, text: &str| {
        for c in text.chars() {
            app.input(Input::Text(c));
        }
    };
    app.input(Input::TypeMove);
    type_text(&mut app, "z9");
    let (text, _) = screen(&app);
    assert!(text.contains("Move: z9_"), "{text}");
    app.input(Input::Place);
    assert!(app.board().moves().is_empty(), "z9 is off the board");
    assert!(app.message.contains("z9"), "{}", app.message);
    assert_eq!(app.typed.as_deref(), Some("z9"), "the prompt stays open");
    app.input(Input::Erase);
    app.input(Input::Erase);
    type_text(&mut app, "d4");
    app.input(Input::Place);
    assert_eq!(app.typed, None);
    let d4 = parse_point("d4", 15).unwrap();
    assert_eq!(app.board().moves(), [d4]);
    assert_eq!(app.cursor, (d4.x(), d4.y()));
    app.wait();
    let reply = app.board().moves()[1];

    // An occupied point is refused with the prompt still open, the text in it: Backspace
    // corrects it (it undoes nothing), and the game is unchanged.
    app.input(Input::TypeMove);
    let name = reply.to_human(15);
    type_text(&mut app, &name);
    app.input(Input::Place);
    assert!(app.message.ends_with("is occupied."), "{}", app.message);
    assert_eq!(app.typed.as_deref(), Some(name.as_str()));
    app.input(Input::Erase);
    assert_eq!(app.board().moves().len(), 2, "Backspace took nothing back");
    app.input(Input::Cancel);
    assert!(!app.quit, "Esc closed the prompt, not the game");

    // Esc closes the prompt without playing; the keys are commands again.
    app.input(Input::TypeMove);
    type_text(&mut app, "h");
    app.input(Input::Cancel);
    assert_eq!(app.typed, None);
    assert_eq!(app.board().moves().len(), 2);
    let cursor = app.cursor;
    app.input(Input::Left);
    assert_eq!(app.cursor, (cursor.0 - 1, cursor.1));
}

#[test]
fn a_five_ends_the_game_and_the_screen_shows_the_line() {
    let mut app = app("h8 a1 i8 a2 j8 a3 k8 a4", Rule::Freestyle);
    app.input(Input::PlaceAt(11, 7)); // l8
    assert!(!app.is_thinking());
    assert_eq!(app.result_text().as_deref(), Some("You win (five)!"));
    let line: Vec<String> = winning_line(app.board())
        .iter()
        .map(|p| p.to_human(15))
        .collect();
    assert_eq!(line, ["h8", "i8", "j8", "k8", "l8"]);
    app.input(Input::Up); // the cursor off the line
    let (text, terminal) = screen(&app);
    assert!(text.contains("You win (five)!"), "{text}");
    // The five's stones are drawn on green: row 8 is screen row 9 (a border, the
    // letters, then rows 15 down to 9); column h is 1 + 3 + 2 * 7.
    let buffer = terminal.backend().buffer();
    for column in 7..12u16 {
        let cell = &buffer[(1 + 3 + 2 * column, 9)];
        assert_eq!((cell.symbol(), cell.style().bg), ("●", Some(Color::Green)));
    }
    assert_ne!(buffer[(1 + 3 + 2 * 6, 9)].style().bg, Some(Color::Green));
    app.input(Input::Place);
    assert!(app.message.contains("over"));
    // The colours say who won: no swap rewrites it.
    app.input(Input::SwapColours);
    assert!(app.message.contains("over"));
    assert_eq!(app.result_text().as_deref(), Some("You win (five)!"));
    app.input(Input::NewGame);
    assert_eq!(app.board().moves().len(), 8);
}

#[test]
fn hint_swap_save_and_renju_fouls() {
    let mut app = app("h8 a1 i8 a2 j9 a3 j10 a15", Rule::Renju);
    let (text, _) = screen(&app);
    assert!(text.contains('×'), "the forbidden j8 is marked: {text}");
    app.input(Input::PlaceAt(9, 7)); // j8: double-three
    assert!(app.message.contains("forbidden"), "{}", app.message);
    assert_eq!(app.board().moves().len(), 8);

    app.input(Input::Hint);
    app.wait();
    assert!(app.message.starts_with("Hint: "), "{}", app.message);
    assert!(app.hint.is_some());

    app.input(Input::Save);
    let saved = std::fs::read_to_string(app.save_to.as_ref().unwrap()).unwrap();
    std::fs::remove_file(app.save_to.as_ref().unwrap()).unwrap();
    let record = &wuzi_gomoku::record::read_sgf(&saved, Rule::Freestyle).unwrap()[0];
    assert_eq!(record.rule, Rule::Renju);
    assert_eq!(record.black, "you");
    assert_eq!(record.moves.len(), 8);

    // Swapping colours hands Black to the engine, which moves at once.
    app.input(Input::SwapColours);
    assert_eq!(app.human, Player::Second);
    app.wait();
    assert_eq!(app.board().moves().len(), 9);
    app.input(Input::ToggleHelp);
    let (text, _) = screen(&app);
    assert!(text.contains("swap colours"), "{text}");
    app.input(Input::Quit);
    assert!(app.quit);
}

#[test]
fn star_points_are_the_centre_and_three_in_from_the_corners() {
    let names =
        |n: usize| -> Vec<String> { star_points(n).iter().map(|p| p.to_human(n)).collect() };
    assert_eq!(names(15), ["h8", "d12", "d4", "l12", "l4"]);
    assert_eq!(names(20), ["d17", "d4", "q17", "q4"]);
    assert_eq!(names(9), ["e5", "c7", "c3", "g7", "g3"]);
    assert_eq!(names(5), ["c3"]);
}

/// White ignores Black's open three: the review marks that move `??` (it walks into a
/// proven loss), sums the sides up, and forgets its marks once the game changes.
#[test]
fn the_review_marks_a_blunder_and_a_new_move_clears_it() {
    let mut app = app("", Rule::Freestyle);
    app.input(Input::Review);
    assert_eq!(app.message, "Nothing to review yet.");
    // The game so far (as a loaded record would be): reviewed from its first move.
    let mut app = app_as("h8 a1 i8 a2 j8", Rule::Freestyle, Player::Second);
    app.input(Input::PlaceAt(0, 12)); // a3
    app.wait(); // Black makes its open four
    assert_eq!(app.board().moves().len(), 7);
    app.input(Input::Review);
    assert!(app.is_reviewing());
    app.wait();
    assert!(!app.is_thinking());
    let review = app.review.as_ref().expect("a review");
    assert_eq!(review.len(), 7, "every move");
    assert_eq!(app.review_mark(6), "??");
    // Black's i8 (64% -> 59% at depth 2) is an inaccuracy.
    assert!(
        app.message.starts_with("Review: black 1?! 0? 0??, white "),
        "{}",
        app.message
    );
    let (text, _) = screen(&app);
    assert!(text.contains("a3??"), "{text}");
    // The engine is back on the game's position: it still answers there.
    assert_eq!(app.engine_mut().board().moves().len(), 7);
    app.input(Input::PlaceAt(0, 11)); // a4
    assert!(app.review.is_none());
    app.wait();
    assert!(app.board().result().is_some(), "Black made five");
}

/// A review runs until a move, undo or new game stops it; keys that change nothing leave it
/// running (or, done, leave its marks), and a stopped review leaves the engine on the game.
#[test]
fn a_review_is_stopped_only_by_a_change_of_the_game() {
    let mut app = app_as("h8", Rule::Freestyle, Player::Second);
    app.limits = Limits::time(std::time::Duration::from_secs(60));
    app.input(Input::Review);
    assert!(app.is_reviewing());
    app.input(Input::Hint);
    assert_eq!(app.message, "Reviewing the game: a hint when it is done.");
    app.input(Input::Review);
    assert_eq!(app.message, "Already reviewing the game.");
    // White has not moved yet: nothing to undo, and the review goes on.
    app.input(Input::Undo);
    assert_eq!(app.message, "Nothing to undo.");
    assert!(app.is_reviewing());
    // A move stops it at once (the review would take minutes at this time) and says so.
    app.input(Input::PlaceAt(6, 7)); // g8
    assert_eq!(app.message, "You play g8 (the review stopped).");
    assert!(app.review.is_none());
    assert_eq!(app.engine_mut().board().moves().len(), 2);
    assert_eq!(app.board().moves().len(), 2);

    // A record's opening stones (here the first four moves) are not graded.
    let mut app = app_as("h8 a1 i8 a2 j8", Rule::Freestyle, Player::Second).with_opening(4);
    app.input(Input::Review);
    app.wait();
    let review = app.review.as_ref().expect("a review");
    assert_eq!(review.iter().map(|m| m.number).collect::<Vec<_>>(), [5]);

    // A finished review's marks stay while the game does (swapping colours keeps them).
    let mut app = app_as("h8 a1 i8 a2 j8", Rule::Freestyle, Player::Second);
    app.input(Input::Review);
    app.wait();
    assert_eq!(app.review.as_ref().map(Vec::len), Some(5));
    app.input(Input::SwapColours);
    assert_eq!(app.review.as_ref().map(Vec::len), Some(5));
    app.wait(); // the engine, now White, moves: another position
    assert!(app.review.is_none());
}

/// On an 80x24 terminal a message that wraps takes the rows it fills from the move list,
/// so the key reminder stays on the screen and the latest moves stay listed.
#[test]
fn a_long_message_leaves_the_key_reminder_and_the_last_moves_on_screen() {
    let black = [
        "a1", "c1", "e1", "g1", "i1", "k1", "m1", "o1", "a3", "c3", "e3", "g3",
    ];
    let white = [
        "a15", "c15", "e15", "g15", "i15", "k15", "m15", "o15", "a13", "c13", "e13", "g13",
    ];
    let moves: Vec<&str> = black
        .iter()
        .zip(&white)
        .flat_map(|(b, w)| [*b, *w])
        .collect();
    let mut app = app(&moves.join(" "), Rule::Freestyle);
    app.message = "Review: black 0?! 0? 0??, white 1?! 0? 1??. And more words.".into();
    let (text, _) = screen_of(&app, 80, 24);
    assert!(text.contains("? keys"), "{text}");
    assert!(text.contains("12. g3"), "the last pair is listed: {text}");
}

/// Plays `name` through the move prompt, as `:` then the letters and Enter do.
fn type_move(app: &mut GomokuApp, name: &str) {
    app.input(Input::TypeMove);
    for c in name.chars() {
        app.input(Input::Text(c));
    }
    app.input(Input::Place);
}

/// In analysis the player plays both sides, the engine answers nothing but thinks for the
/// side to move and marks its choice; undo takes back one move; leaving it goes back to the
/// game on the player's side.
#[test]
fn analysis_plays_both_sides_and_marks_the_engines_choice() {
    let mut app = app("h8 i9", Rule::Freestyle);
    assert!(!app.is_thinking());
    app.input(Input::Analyse);
    assert!(app.analysing && app.is_thinking());
    let (text, _) = screen(&app);
    assert!(text.contains("Analysis, black to move"), "{text}");
    app.wait();
    assert!(app.message.starts_with("Analysis: "), "{}", app.message);
    assert!(app.message.contains("Black") && app.message.contains("depth 2"));
    let choice = app.hint.expect("the engine's choice is marked");
    assert!(
        app.message.contains(&choice.to_human(15)),
        "{}",
        app.message
    );

    // Black's move, then White's: the engine plays neither, it analyses each position.
    type_move(&mut app, "j10");
    assert_eq!(app.message, "Black plays j10.");
    app.wait();
    assert!(app.message.contains("White"), "{}", app.message);
    type_move(&mut app, "g7");
    assert_eq!(app.message, "White plays g7.");
    app.wait();
    assert_eq!(app.board().moves().len(), 4);
    assert!(app.hint.is_some());
    app.input(Input::Hint);
    assert!(app.message.contains("marks"), "{}", app.message);

    // Undo takes back one move, and the analysis starts again.
    app.input(Input::Undo);
    assert_eq!(app.board().moves().len(), 3);
    assert!(app.is_thinking());
    let (text, _) = screen(&app);
    assert!(
        text.contains("Analysis, white to move (thinking)"),
        "{text}"
    );

    // A new game in analysis is analysed from its start (a game in progress asks for a
    // second n first); swapping colours in analysis only says which side the player takes
    // back in the game.
    app.input(Input::NewGame);
    assert!(app.message.contains("n again"), "{}", app.message);
    assert!(app.board().moves().len() > 2, "the first n drops nothing");
    app.input(Input::NewGame);
    assert_eq!(app.board().moves().len(), 2);
    assert!(app.is_analysing());
    app.input(Input::SwapColours);
    assert_eq!(app.human, Player::Second);
    assert!(app.is_analysing() && !app.engine_to_move());
    app.input(Input::SwapColours);
    type_move(&mut app, "j10");
    app.wait();
    assert_eq!(app.board().moves().len(), 3);

    // Back to the game: the player is Black, so the engine moves for White at once.
    app.input(Input::Analyse);
    assert!(!app.analysing);
    assert!(app.engine_to_move());
    app.wait();
    assert_eq!(app.board().moves().len(), 4);
    assert!(app.message.starts_with("wuzi plays"), "{}", app.message);
}

/// `m` in analysis shows the engine's 3 best moves, then 5, then 1 again: numbered on the
/// board (the best is the hint's mark) and listed in the panel, one search ranking them at
/// one depth; outside the analysis it only says what the analysis will show.
#[test]
fn more_lines_shows_the_best_moves_numbered() {
    let mut app = app("h8 i9", Rule::Freestyle);
    app.input(Input::MoreLines);
    assert_eq!(app.lines_wanted, 3);
    assert!(!app.is_thinking());
    assert_eq!(app.message, "The analysis (a) will show the 3 best moves.");
    app.input(Input::Analyse);
    app.wait();
    assert_eq!(app.lines.len(), 3, "{:?}", app.lines);
    let firsts: Vec<&str> = app.lines.iter().map(|l| l.line[0].as_str()).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(app.lines.iter().all(|l| l.depth == 2), "{:?}", app.lines);
    assert_eq!(app.hint.map(|p| p.to_human(15)).as_deref(), Some(firsts[0]));
    let cells = app.cells();
    for (rank, name) in firsts.iter().enumerate().skip(1) {
        let p = parse_point(name, 15).unwrap();
        assert_eq!(cells[p.y() * 15 + p.x()].rank as usize, rank + 1, "{name}");
    }
    let (text, _) = screen(&app);
    assert!(text.contains(&format!("2. {}  score", firsts[1])), "{text}");
    assert!(text.contains(&format!("3. {}  score", firsts[2])), "{text}");

    app.input(Input::MoreLines);
    assert_eq!(app.message, "Analysis: the 5 best moves.");
    app.wait();
    assert_eq!(app.lines.len(), 5, "{:?}", app.lines);
    app.input(Input::MoreLines);
    app.wait();
    assert_eq!(app.lines_wanted, 1);
    assert!(app.lines.is_empty(), "one line shows as the plain analysis");
    assert!(app.hint.is_some());
    assert!(app.cells().iter().all(|c| c.rank == 0));
}

/// Where the root threat search finds a win it is told once, as the best line; the other
/// lines still follow the search to its last depth.
#[test]
fn more_lines_beside_a_threat_win_keep_up_with_the_search() {
    // Black to move with an open three: a win by fours.
    let mut app = app("h8 a1 i8 c1 j8 e1", Rule::Freestyle);
    app.input(Input::MoreLines);
    app.input(Input::Analyse);
    app.wait();
    assert_eq!(app.lines.len(), 3, "{:?}", app.lines);
    assert!(app.lines[0].score.starts_with("win in"), "{:?}", app.lines);
    assert!(
        app.lines[1..].iter().all(|l| l.depth == 2),
        "{:?}",
        app.lines
    );
}

/// A five made in analysis names its colour, not "you", in analysis and after it, and in
/// the saved record; a review of that game ends with its summary, and no analysis follows
/// a finished game; a renju foul is refused for Black in analysis as in the game.
#[test]
fn analysis_ends_with_the_winning_colour_and_keeps_the_renju_rules() {
    let mut app = app("h8 a1 i8 a2 j8 a3 k8 a4", Rule::Freestyle);
    app.input(Input::Analyse);
    app.wait();
    type_move(&mut app, "l8");
    assert!(!app.is_thinking());
    assert_eq!(app.result_text().as_deref(), Some("Black wins (five)."));
    let (text, _) = screen(&app);
    assert!(text.contains("r review, a end analysis "), "{text}");
    app.input(Input::Review);
    assert!(app.is_reviewing());
    // `a` during a review only says whether an analysis follows it.
    app.input(Input::Analyse);
    assert!(!app.analysing && app.is_reviewing());
    assert_eq!(app.message, "Analysis off: the review goes on.");
    app.input(Input::Analyse);
    assert!(app.analysing && app.is_reviewing());
    app.wait();
    assert!(app.message.starts_with("Review: "), "{}", app.message);
    assert!(!app.is_thinking(), "no analysis of a finished game");
    app.input(Input::Analyse);
    assert_eq!(app.result_text().as_deref(), Some("Black wins (five)."));
    app.input(Input::Save);
    let saved = std::fs::read_to_string(app.save_to.as_ref().unwrap()).unwrap();
    std::fs::remove_file(app.save_to.as_ref().unwrap()).unwrap();
    let record = &wuzi_gomoku::record::read_sgf(&saved, Rule::Freestyle).unwrap()[0];
    assert_eq!(
        (record.black.as_str(), record.white.as_str()),
        ("you", "you")
    );
    // A new game is the player's own again.
    app.input(Input::NewGame);
    app.input(Input::PlaceAt(11, 7)); // l8 again, now as the player
    assert_eq!(app.result_text().as_deref(), Some("You win (five)!"));

    // The player is White: turning the analysis on stops the engine's move for Black.
    let mut app = app_as("h8 a1 i8 a2 j9 a3 j10 a15", Rule::Renju, Player::Second);
    assert!(app.engine_to_move());
    app.input(Input::Analyse);
    assert!(!app.engine_to_move() && app.is_thinking());
    type_move(&mut app, "j8"); // Black's double-three
    assert!(app.message.contains("forbidden"), "{}", app.message);
    assert_eq!(app.board().moves().len(), 8);
    assert!(app.is_thinking(), "the analysis goes on");
}

/// Six in a row under the standard rule neither wins nor is refused: the player is told
/// why the game goes on, and the engine's reply keeps the note.
#[test]
fn six_in_a_row_under_the_standard_rule_is_explained() {
    let mut app = app("h8 a1 h9 a3 h10 a5 h12 a7 h13 a9", Rule::Standard);
    type_move(&mut app, "h11");
    assert!(app.board().result().is_none());
    assert!(
        app.message.contains("h11 makes six in a row"),
        "{}",
        app.message
    );
    app.wait();
    assert_eq!(app.board().moves().len(), 12);
    assert!(
        app.message.contains("only exactly five wins") && app.message.contains("wuzi plays"),
        "{}",
        app.message
    );
    // Six one way and exactly five another win: no note then.
    let moves = "d8 a1 e8 a3 f8 a5 g8 a7 i8 a9 h4 a11 h5 a13 h6 a15 h7 c1";
    let mut won = self::app(moves, Rule::Standard);
    type_move(&mut won, "h8");
    assert_eq!(won.result_text().as_deref(), Some("You win (five)!"));
    assert!(!won.message.contains("six"), "{}", won.message);
}

/// A typed move refused for the game's state (over, not the player's turn) closes the
/// prompt, so that the key its message names works; refused for the point, it stays.
#[test]
fn a_typed_move_refused_for_the_games_state_closes_the_prompt() {
    let mut app = app("h8 a1 h9 a2 h10 a3 h11 a4 h12", Rule::Freestyle);
    type_move(&mut app, "a15");
    assert!(app.message.contains("over"), "{}", app.message);
    assert_eq!(app.typed, None);
    app.input(Input::NewGame);
    assert!(app.board().moves().is_empty(), "n started a new game");
}

/// The second n (or Esc): any other key drops the question (and its message), and a change
/// of the game in between does too.
#[test]
fn a_new_game_or_esc_mid_game_takes_a_second_press_in_a_row() {
    let mut app = app("", Rule::Freestyle);
    type_move(&mut app, "h8");
    app.wait();
    app.input(Input::NewGame);
    assert!(app.message.contains("n again"), "{}", app.message);
    app.input(Input::Left);
    assert!(!app.message.contains("n again"), "{}", app.message);
    app.input(Input::NewGame);
    assert_eq!(app.board().moves().len(), 2, "asked again, nothing dropped");
    app.input(Input::NewGame);
    assert!(app.board().moves().is_empty());
    // Esc quits at once with no game under way; mid-game it asks first too (q does not).
    type_move(&mut app, "h8");
    app.wait();
    app.input(Input::Cancel);
    assert!(
        !app.quit && app.message.contains("Esc again"),
        "{}",
        app.message
    );
    app.input(Input::Cancel);
    assert!(app.quit);
}

/// A loaded record's opening stones are saved marked as such, so that a review of the saved
/// file leaves them out again, as the game's own review does.
#[test]
fn a_saved_game_keeps_its_opening_stones_marked() {
    let mut app = app("h8 i9 j8 k9", Rule::Freestyle).with_opening(4);
    type_move(&mut app, "g7");
    app.wait();
    app.input(Input::Save);
    let path = app.save_to.clone().unwrap();
    let saved = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let record = &wuzi_gomoku::record::read_sgf(&saved, Rule::Freestyle).unwrap()[0];
    let opening: Vec<bool> = record.moves.iter().map(|m| m.is_opening()).collect();
    assert_eq!(opening, [true, true, true, true, false, false], "{saved}");
}

/// A loaded record's opening stones taken back are not opening stones of the moves played
/// over them: the review grades those.
#[test]
fn a_review_grades_the_moves_played_over_undone_opening_stones() {
    let mut app = app("h8 i9 j8 k9", Rule::Freestyle).with_opening(4);
    app.input(Input::Analyse);
    app.wait();
    app.input(Input::Undo);
    app.input(Input::Undo);
    app.wait();
    type_move(&mut app, "j10");
    type_move(&mut app, "g7");
    app.wait();
    app.input(Input::Review);
    app.wait();
    let graded: Vec<usize> = app
        .review
        .as_ref()
        .unwrap()
        .iter()
        .map(|m| m.number)
        .collect();
    assert_eq!(graded, [3, 4]);
}

/// The engine's reply goes under the cursor only if the player left the cursor alone while
/// it thought: a cursor moved meanwhile stays where it was put.
#[test]
fn a_cursor_moved_while_the_engine_thinks_stays_put() {
    let mut app = app("", Rule::Freestyle);
    app.input(Input::Place);
    app.wait();
    let reply = app.board().last_move().unwrap();
    assert_eq!(app.cursor, (reply.x(), reply.y()));
    app.input(Input::PlaceAt(3, 3));
    let played = app.board().moves().len();
    assert_eq!(played, 3);
    app.input(Input::Left);
    let moved = app.cursor;
    app.wait();
    assert_eq!(app.board().moves().len(), played + 1, "the engine answered");
    assert_eq!(app.cursor, moved);
}

/// The key list is modal: a key closes it and does nothing else; Esc closes it, and only
/// without it does Esc quit. q quits either way.
#[test]
fn the_key_list_takes_one_key_to_close() {
    let mut app = app("", Rule::Freestyle);
    app.input(Input::ToggleHelp);
    assert!(app.show_help);
    app.input(Input::Place);
    assert!(!app.show_help);
    assert!(
        app.board().moves().is_empty(),
        "no stone played under the list"
    );
    // A key with no command of its own closes it too.
    app.input(Input::ToggleHelp);
    app.input(Input::Other);
    assert!(!app.show_help);
    app.input(Input::ToggleHelp);
    app.input(Input::Cancel);
    assert!(!app.show_help && !app.quit);
    app.input(Input::Cancel);
    assert!(app.quit);
    let mut other = app_as("", Rule::Freestyle, Player::First);
    other.input(Input::ToggleHelp);
    other.input(Input::Quit);
    assert!(other.quit);
}
