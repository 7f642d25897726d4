//! Renju forbidden points against an independent referee: the PyPI package `renju`
//! (`renju.check_forbid.get_foul_type`, a port of the Piskvork judge), run once as a batch.
//!
//! The published referee deviates from the RIF rules in one place: in its recursive check of
//! a three, a four point that also completes a five counts as forbidden, so the three is
//! discarded; under RIF 9.2/9.3 a five is never forbidden and the three is real (wuzi follows
//! RIF, as does e.g. renju-note/quintet). The script therefore also reports the referee with
//! that one deviation corrected. The test demands: full agreement with the corrected referee
//! on every point where ours differs from the published one, and at least 1,000 positions where
//! every point agrees with the published one.
//!
//! The interpreter is `$WUZI_PYTHON` if set; otherwise a virtual environment is made once at
//! `<workspace>/target/py-venv` with `python3 -m venv` and `pip install renju`. If that is not
//! possible the test fails: it never passes without the referee.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use wuzi_gomoku::{Board, Foul, Player, Point, Rule, Shape};

const POSITIONS: usize = 1200;

fn python() -> PathBuf {
    wuzi_testkit::python_with("renju==0.1.0", "renju.check_forbid")
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random renju position with many stones packed in a region, so that threes, fours and
/// overlines (and so fouls) are common.
fn random_position(rng: &mut Rng) -> Board {
    let size = [15, 15, 15, 15, 13, 19, 20, 9][rng.below(8)];
    let region = (5 + rng.below(size - 4)).min(size);
    let ox = rng.below(size - region + 1);
    let oy = rng.below(size - region + 1);
    let stones = region * region * (25 + rng.below(35)) / 100;
    let white_share = 30 + rng.below(25); // percent
    let mut black = Vec::new();
    let mut white = Vec::new();
    let mut used = vec![false; size * size];
    for _ in 0..stones {
        let (x, y) = (ox + rng.below(region), oy + rng.below(region));
        if std::mem::replace(&mut used[y * size + x], true) {
            continue;
        }
        if rng.below(100) < white_share {
            white.push(Point::new(x, y));
        } else {
            black.push(Point::new(x, y));
        }
    }
    let exact_and_overline = [
        // Black's move on h8 makes an exact five along the row and an overline along the
        // column at once: it wins, it is not a foul.
        ("d8 e8 f8 g8", "h2 h3 h4 h5 h6 h7"),
        ("d8 e8 f8 g8", "h9 h10 h11 h12 h13"),
    ];
    if rng.below(40) == 0 {
        let (row, col) = exact_and_overline[rng.below(2)];
        for text in [row, col] {
            for p in wuzi_gomoku::parse_moves(text, 15).unwrap() {
                if size == 15 {
                    white.retain(|&w| w != p);
                    if !black.contains(&p) {
                        black.push(p);
                    }
                }
            }
        }
        let h8 = Point::new(7, 7);
        black.retain(|&b| b != h8);
        white.retain(|&w| w != h8);
    }
    Board::from_stones(size, Rule::Renju, &black, &white, Some(Player::First))
        .or_else(|_| {
            // A five on the board for both is rejected; drop the white stones then.
            Board::from_stones(size, Rule::Renju, &black, &[], Some(Player::First))
        })
        .expect("random position")
}

fn code(f: Option<Foul>) -> u8 {
    match f {
        None => 0,
        Some(Foul::DoubleThree) => 1,
        Some(Foul::DoubleFour) => 2,
        Some(Foul::Overline) => 3,
    }
}

fn draw(board: &Board, mark: Point) -> String {
    let n = board.size();
    let mut s = String::new();
    for y in 0..n {
        s.push_str(&format!("{:>2} ", n - y));
        for x in 0..n {
            let p = Point::new(x, y);
            s.push(match board.stone(p) {
                _ if p == mark => '?',
                Some(Player::First) => 'X',
                Some(Player::Second) => 'O',
                None => '.',
            });
            s.push(' ');
        }
        s.push('\n');
    }
    s
}

#[test]
fn forbidden_points_agree_with_the_renju_referee() {
    let py = python();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/renju_referee.py");
    let mut rng = Rng(20240611);
    let mut boards = Vec::new();
    let mut input = String::new();
    let mut queried = 0;
    let mut fouls = [0usize; 4];
    for _ in 0..POSITIONS {
        let mut board = random_position(&mut rng);
        let n = board.size();
        let cells: String = board
            .points()
            .map(|p| match board.stone(p) {
                Some(Player::First) => 'X',
                Some(Player::Second) => 'O',
                None => '.',
            })
            .collect();
        // Every point that could be a foul (Black makes at least an open three, a four, a
        // five or an overline there), plus a few random empty points as a control.
        let empties: Vec<Point> = board.points().filter(|&p| board.is_empty(p)).collect();
        let mut points: Vec<Point> = empties
            .iter()
            .copied()
            .filter(|&p| {
                board
                    .shapes(p, Player::First)
                    .iter()
                    .any(|&s| s >= Shape::OpenThree || s == Shape::Overline)
            })
            .collect();
        for _ in 0..4 {
            if !empties.is_empty() {
                let p = empties[rng.below(empties.len())];
                if !points.contains(&p) {
                    points.push(p);
                }
            }
        }
        let ours: Vec<u8> = points.iter().map(|&p| code(board.foul(p))).collect();
        for &c in &ours {
            fouls[c as usize] += 1;
        }
        queried += points.len();
        input.push_str(&format!("{n} {cells}"));
        for (p, v) in points.iter().zip(&ours) {
            input.push_str(&format!(" {},{},{v}", p.x(), p.y()));
        }
        input.push('\n');
        boards.push((board, points, ours));
    }
    if let Some(path) = std::env::var_os("WUZI_REFEREE_DUMP") {
        std::fs::write(path, &input).expect("dump the referee input");
    }
    let mut child = Command::new(&py)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", py.display()));
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("referee output");
    writer.join().unwrap().expect("write to the referee");
    assert!(output.status.success(), "the referee script failed");
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), boards.len(), "one verdict line per position");
    let mut mismatches = Vec::new();
    let mut agreeing_positions = 0;
    let mut deviation_points = 0;
    for ((board, points, ours), line) in boards.iter().zip(&lines) {
        // "-" (not computed: the published verdict equals ours) reads as the published one.
        let verdicts: Vec<(u8, u8)> = line
            .split_whitespace()
            .map(|v| {
                let (a, b) = v.split_once('/').expect("A/B verdict");
                let a: u8 = a.parse().unwrap();
                (a, if b == "-" { a } else { b.parse().unwrap() })
            })
            .collect();
        assert_eq!(verdicts.len(), points.len());
        let mut all_agree = true;
        for i in 0..points.len() {
            let (published, rif) = verdicts[i];
            all_agree &= ours[i] == published;
            if published != rif {
                deviation_points += 1;
            }
            if ours[i] != rif || (ours[i] != published && published == rif) {
                mismatches.push(format!(
                    "{} ({}) ours {} referee {} (RIF-corrected {})\n{}",
                    points[i].to_human(board.size()),
                    points[i].to_gomocup(),
                    ours[i],
                    published,
                    rif,
                    draw(board, points[i])
                ));
            }
        }
        agreeing_positions += all_agree as usize;
    }
    eprintln!(
        "{POSITIONS} positions, {queried} points judged; fouls found: {} double-three, {} \
         double-four, {} overline; {agreeing_positions} positions agree on every point with the \
         published referee, {deviation_points} points differ only by its five-as-foul deviation",
        fouls[1], fouls[2], fouls[3]
    );
    assert!(
        mismatches.is_empty(),
        "{} disagreements, first ones:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(5)].join("\n")
    );
    assert!(
        agreeing_positions >= 1000,
        "{agreeing_positions} positions agree"
    );
    assert!(
        fouls[1] > 100 && fouls[2] > 100 && fouls[3] > 20,
        "too few fouls: {fouls:?}"
    );
}
