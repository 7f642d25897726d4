//! Opening files in each format engine authors have (tests/data, see SOURCE.md there), and
//! bad lines, which are errors naming the file and line.

use std::path::Path;
use wuzi_gomocup::manager::openings::{parse_openings, read_openings, OpeningFormat};
use wuzi_gomoku::{Point, Rule};

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

fn points(list: &[(usize, usize)]) -> Vec<Point> {
    list.iter().map(|&(x, y)| Point::new(x, y)).collect()
}

#[test]
fn c_gomoku_cli_pos_file_counts_rows_from_the_top() {
    let list = read_openings(
        &data("pos_freestyle_20x20.txt"),
        OpeningFormat::Pos,
        20,
        Rule::Freestyle,
    )
    .unwrap();
    assert_eq!(list.len(), 4);
    // "d3e5f6d7": d = column 3, row 3 from the top = y 2.
    assert_eq!(list[0], points(&[(3, 2), (4, 4), (5, 5), (3, 6)]));
    // "k10j10i9j9m7": two-digit rows.
    assert_eq!(list[1], points(&[(10, 9), (9, 9), (8, 8), (9, 8), (12, 6)]));
    assert_eq!(list[3].len(), 18);
    // Auto-detection reads the same file the same way.
    let auto = read_openings(
        &data("pos_freestyle_20x20.txt"),
        OpeningFormat::Auto,
        20,
        Rule::Freestyle,
    );
    assert_eq!(auto.unwrap(), list);
}

#[test]
fn gomocup_offset_file_counts_from_the_centre() {
    let list = read_openings(
        &data("offset_freestyle_20x20.txt"),
        OpeningFormat::Auto,
        20,
        Rule::Freestyle,
    )
    .unwrap();
    assert_eq!(list.len(), 4);
    // "8,-3, 6,-4, 5,-4, 4,-3, 2,-8, -1,-5" around the centre 10,10.
    assert_eq!(
        list[0],
        points(&[(18, 7), (16, 6), (15, 6), (14, 7), (12, 2), (9, 5)])
    );
    assert_eq!(list[3].len(), 20);
}

#[test]
fn wuzi_move_lists() {
    let text = "# a comment\nh8 i9 h10\n\n7,7 8,6\n";
    let list = parse_openings(text, "w.txt", OpeningFormat::Wuzi, 15, Rule::Renju).unwrap();
    // wuzi's h8 is the centre; rows count from the bottom.
    assert_eq!(list[0], points(&[(7, 7), (8, 6), (7, 5)]));
    assert_eq!(list[1], points(&[(7, 7), (8, 6)]));
}

#[test]
fn auto_tells_wuzi_move_lists_from_pos_lines() {
    let spaced = parse_openings("h8 i9 h10\n", "w.txt", OpeningFormat::Auto, 15, Rule::Renju);
    assert_eq!(spaced.unwrap()[0], points(&[(7, 7), (8, 6), (7, 5)]));
    // Written together, the same letters are c-gomoku-cli's rows from the top.
    let together = parse_openings("h8i9\n", "p.txt", OpeningFormat::Auto, 15, Rule::Renju);
    assert_eq!(together.unwrap()[0], points(&[(7, 7), (8, 8)]));
}

#[test]
fn bad_lines_name_the_file_and_line() {
    let cases = [
        (OpeningFormat::Offset, "0,0, 1,1\n0,0, 1\n", "f.txt:2:"),
        (OpeningFormat::Offset, "0,0, x,1\n", "f.txt:1:"),
        (OpeningFormat::Offset, "0,0, 9,0\n", "off the 15x15 board"),
        (OpeningFormat::Pos, "h8h8\n", "occupied"),
        (OpeningFormat::Pos, "h8\nh16\n", "f.txt:2:"),
        (OpeningFormat::Pos, "h8i\n", "no row number"),
        (OpeningFormat::Pos, "h8-i9\n", "column letter"),
        (OpeningFormat::Wuzi, "h8 z9\n", "f.txt:1:"),
        (
            OpeningFormat::Wuzi,
            "a1 b1 a2 b2 a3 b3 a4 b4 a5\n",
            "already ends the game",
        ),
        (OpeningFormat::Auto, "\n# nothing\n", "no openings"),
    ];
    for (format, text, expected) in cases {
        let err = parse_openings(text, "f.txt", format, 15, Rule::Freestyle).unwrap_err();
        assert!(err.contains(expected), "{text:?}: {err}");
        assert!(err.starts_with("f.txt"), "{err}");
    }
    let missing = read_openings(
        &data("no-such-file.txt"),
        OpeningFormat::Auto,
        15,
        Rule::Freestyle,
    );
    assert!(missing.unwrap_err().contains("no-such-file.txt"));
}
