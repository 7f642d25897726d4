//! `wuzi play` in the line mode, as a script or a screen reader uses it: moves, undo, hints,
//! reviews, the analysis, renju fouls, loaded records, and tic-tac-toe.

mod common;

use common::{scratch_dir, sgf_file, typed};

#[test]
fn play_answers_moves_and_rejects_bad_input() {
    let text = typed(
        &["play", "--time", "50"],
        "h8\nh8\nz9\nfoo\nreview\nundo\nhint\nquit\n",
    );
    assert!(text.contains("You are black"), "{text}");
    assert!(text.contains("AI plays"), "{text}");
    assert!(text.contains("h8 is occupied"), "{text}");
    assert!(text.contains("z9"), "{text}");
    assert!(text.contains("Taken back."), "{text}");
    assert!(text.contains("Hint:"), "{text}");
    // Early in a game nothing is proven: each score comes with the mover's chance.
    assert!(text.contains(", its chance "), "{text}");
    assert!(text.contains(", your chance "), "{text}");
    // review: both moves graded, then each side summed up.
    assert!(text.contains("Reviewing 2 moves..."), "{text}");
    assert!(text.contains("  1. black h8 "), "{text}");
    assert!(text.contains("\nwhite: 1 move, "), "{text}");
}

/// `hint 3` lists the three best moves, best first, each with its verdict and line, all
/// scored at one depth; a bad count is refused with the range, and the game goes on.
#[test]
fn hint_n_lists_the_best_moves() {
    let text = typed(
        &["play", "--time", "300", "--moves", "h8 i9"],
        "hint 3\nhint 0\nhint lots\nhint 1\nquit\n",
    );
    assert!(text.contains("Best moves:"), "{text}");
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  1. ") || l.starts_with("  2. ") || l.starts_with("  3. "))
        .collect();
    assert_eq!(listed.len(), 3, "{text}");
    let moves: Vec<&str> = listed
        .iter()
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert!(
        moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2],
        "{text}"
    );
    assert!(
        listed
            .iter()
            .all(|l| l.contains(", depth ") && l.contains(", line ")),
        "{text}"
    );
    assert!(
        text.contains("hint 0: hint takes how many moves to list, 1 to 10 (e.g. hint 3)."),
        "{text}"
    );
    assert!(text.contains("hint lots: hint takes how many"), "{text}");
    assert!(text.contains("Hint: "), "hint 1 is the plain hint: {text}");
    assert!(!text.contains("AI plays"), "a hint plays nothing: {text}");
}

/// In the line mode's analysis the player moves for both sides, the engine answers each
/// position with its choice for the side to move and never plays; undo takes back one move;
/// a five names its colour; leaving it, the engine moves on its turn.
#[test]
fn play_analysis_takes_both_sides_moves() {
    let text = typed(
        &["play", "--time", "30", "--moves", "h8 a1 i8 a2 j8 a3"],
        "analysis\ng9\na4\nundo\nanalysis\nquit\n",
    );
    assert!(text.contains("Analysis: you play both sides"), "{text}");
    // Black to move with an open four to make: it wins.
    assert!(text.contains("(Black wins in "), "{text}");
    assert!(
        text.contains("Analysis: White to move. Type a move for it:"),
        "{text}"
    );
    let after = |needle: &str| &text[text.find(needle).unwrap()..];
    assert!(
        after("Taken back.").contains("Analysis: White to move"),
        "{text}"
    );
    let back = after("Back to the game: you are black.");
    assert!(back.contains("AI plays"), "{text}");
    assert_eq!(text.matches("AI plays").count(), 1, "{text}");

    // A five in analysis names its colour and offers undo; once it is taken back and the
    // game goes on, the result is the player's again.
    let text = typed(
        &["play", "--time", "30", "--moves", "h8 a1 i8 a2 j8 a3 k8 a4"],
        "analysis\nl8\nhint\nundo\nanalysis\nl8\nquit\n",
    );
    assert!(
        text.contains("Black wins (five). Type undo, new or quit."),
        "{text}"
    );
    assert!(text.contains("The game is over."), "{text}");
    assert!(text.contains("You win (five)! Type new or quit."), "{text}");

    // Renju fouls hold for the side to move, and hint repeats the analysis.
    let renju = [
        "--rule",
        "renju",
        "--time",
        "30",
        "--moves",
        "h8 a1 i8 a2 j9 a3 j10 a15",
    ];
    let text = typed(
        &[&["play"][..], &renju].concat(),
        "analysis\nj8\nhint\nquit\n",
    );
    assert!(
        text.contains("j8 is forbidden for Black (double-three)"),
        "{text}"
    );
    let analyses = text
        .lines()
        .filter(|l| l.starts_with("Analysis: ") && l.contains(", depth "))
        .count();
    assert_eq!(analyses, 2, "on analysis and on hint: {text}");
    assert!(!text.contains("AI plays"), "{text}");
    // New keeps the mode: the engine (Black, the player being White) does not open it.
    let text = typed(
        &[&["play", "--colour", "white"][..], &renju].concat(),
        format!("analysis\nnew\n{}quit\n", "undo\n".repeat(9)),
    );
    let after_new = &text[text.find("New game.").unwrap()..];
    assert!(!after_new.contains("AI plays"), "{text}");
    assert!(after_new.contains("Analysis: Black to move"), "{text}");
    assert!(after_new.contains("Nothing to undo."), "{text}");
}

/// A loaded record's opening stones taken back in analysis are not opening stones of what is
/// played next: the review grades the new moves.
#[test]
fn play_reviews_the_moves_played_over_undone_opening_stones() {
    let dir = scratch_dir("opening");
    let file = dir.join("opening.sgf");
    std::fs::write(
        &file,
        "(;FF[4]GM[4]SZ[15];B[hh]C[opening move];W[ii]C[opening move];\
         B[hi]C[opening move];W[ih]C[opening move])",
    )
    .unwrap();
    let path = file.to_str().unwrap();
    let text = typed(
        &["play", "--time", "30", "--load", path],
        "review\nanalysis\nundo\nundo\nj8\nj9\nk8\nreview\nquit\n",
    );
    assert!(
        text.contains("Reviewing 4 moves..."),
        "all opening: all graded: {text}"
    );
    assert!(text.contains("Reviewing 3 moves..."), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn play_refuses_a_renju_foul_with_its_reason() {
    let text = typed(
        &[
            "play",
            "--rule",
            "renju",
            "--time",
            "30",
            "--moves",
            "h8 a1 i8 a2 j9 a3 j10 a15",
        ],
        "j8\nquit\n",
    );
    assert!(
        text.contains("j8 is forbidden for Black (double-three)"),
        "{text}"
    );
    assert!(
        text.contains(" # "),
        "the forbidden point is marked: {text}"
    );
}

#[test]
fn play_tictactoe_still_works() {
    let text = typed(&["play", "tictactoe"], "b2\nquit\n");
    assert!(text.contains("AI plays"), "{text}");
}

/// A loaded c-gomoku-cli record's eight opening stones were placed by the match manager:
/// the line mode's review grades the 26 moves played after them, numbered from 9, as
/// `wuzi review` does.
#[test]
fn play_reviews_a_loaded_record_after_its_opening_stones() {
    let path = sgf_file("c-gomoku-cli-wuzi-rapfi.sgf");
    let text = typed(&["play", "--load", &path, "--time", "40"], "review\nquit\n");
    assert!(text.contains("Reviewing 26 moves..."), "{text}");
    assert!(text.contains("\n  9. black d5 "), "{text}");
    assert!(!text.contains("\n  8. white"), "{text}");
}

/// A line that is not text costs that line only; `save` writes the game as SGF, to `--save`'s
/// file or to the one named.
#[test]
fn play_reads_on_past_a_line_that_is_not_text_and_saves_the_game() {
    let dir = scratch_dir("play-save");
    let (default, named) = (dir.join("default.sgf"), dir.join("Named.sgf"));
    let input = [
        &b"\xff\xfe\n"[..],
        format!("h8\nsave\nsave {}\nquit\n", named.display()).as_bytes(),
    ]
    .concat();
    let text = typed(
        &["play", "--time", "30", "--save", default.to_str().unwrap()],
        input,
    );
    assert!(text.contains("That line is not text (UTF-8)."), "{text}");
    assert!(text.contains("AI plays"), "{text}");
    for path in [&default, &named] {
        assert!(
            text.contains(&format!("Saved to {}.", path.display())),
            "{text}"
        );
        let sgf = std::fs::read_to_string(path).unwrap();
        assert!(
            sgf.contains("PB[you]PW[wuzi]") && sgf.contains(";B[hh];W["),
            "{sgf}"
        );
    }
}

/// A finished record loaded: its result names colours (the player did not play it), and
/// `new` starts from an empty board, since no move could follow the record's end.
#[test]
fn play_new_after_a_finished_record_starts_from_an_empty_board() {
    let path = sgf_file("c-gomoku-cli-wuzi-rapfi.sgf");
    let text = typed(
        &["play", "--load", &path, "--time", "30"],
        "new\nh8\nquit\n",
    );
    assert!(text.contains("White wins (five)."), "{text}");
    assert!(!text.contains("The AI wins"), "{text}");
    let after_new = &text[text.find("New game.").unwrap()..];
    assert!(after_new.contains("stones: 0 black, 0 white"), "{text}");
    assert!(after_new.contains("AI plays"), "{text}");
}
