//! A position as plain data and as text, for front ends (`wuzi show`, the web server), and
//! setting one up from a move list or from stone lists.

use crate::board::{Board, BoardError, GameResult};
use crate::forbidden::Foul;
use crate::notation::{parse_moves_with_text, MoveListError, Point};
use crate::pattern::Shape;
use crate::rules::Rule;
use wuzi_search::Player;

/// The points where one side's stone would make a threat (empty points, row by row). Under
/// renju, Black's forbidden points are left out of `open_four` and `four`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct SideThreats {
    /// A stone here makes a five: the side can win at once.
    pub five: Vec<Point>,
    /// A stone here makes a straight four (the side has an open three through it).
    pub open_four: Vec<Point>,
    /// A stone here makes some other four (or two fours in one line).
    pub four: Vec<Point>,
}

/// Everything `wuzi show` reports about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    pub size: usize,
    pub rule: Rule,
    pub to_move: Player,
    pub result: Option<GameResult>,
    pub moves: Vec<Point>,
    pub last_move: Option<Point>,
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    /// Indexed by [`Player::index`]: Black first.
    pub threats: [SideThreats; 2],
    /// Renju and the game not over, whoever is to move: where Black may not play as the
    /// stones stand (with White to move, what White's plans can count on until its move).
    pub black_fouls: Vec<(Point, Foul)>,
    /// Renju, Black to move and the game not over, and every empty point is forbidden: Black
    /// cannot move (a referee, `wuzi match` among them, scores that as Black's loss).
    pub no_legal_move: bool,
}

impl Description {
    /// Where the side to move may not play: Black's forbidden points with Black to move
    /// (renju, the game not over), none otherwise.
    pub fn forbidden(&self) -> &[(Point, Foul)] {
        if self.to_move == Player::First {
            &self.black_fouls
        } else {
            &[]
        }
    }
}

/// Sets up a position from either a move list (`moves`) or stone lists (`black`, `white`,
/// optional `to_move`); giving both kinds is an error. Lists use either notation.
pub fn parse_position(
    size: usize,
    rule: Rule,
    moves: &str,
    black: &str,
    white: &str,
    to_move: Option<Player>,
) -> Result<Board, BoardError> {
    let stones_given = !black.trim().is_empty() || !white.trim().is_empty();
    if !stones_given {
        let board = Board::from_moves(size, rule, moves)?;
        if let Some(side) = to_move {
            if side != board.side_to_move() {
                return Err(BoardError::Position(
                    "the side to move of a move list follows from its length".into(),
                ));
            }
        }
        return Ok(board);
    }
    if !moves.trim().is_empty() {
        return Err(BoardError::Position(
            "give either a move list or stones, not both".into(),
        ));
    }
    let list = |text: &str, name: &str| -> Result<Vec<Point>, BoardError> {
        let parsed = parse_moves_with_text(text, size)
            .map_err(|e| BoardError::Position(format!("{name} stones: {e}")))?;
        let mut seen = Vec::new();
        for (index, m) in parsed.iter().enumerate() {
            if seen.contains(&m.point) {
                let e = MoveListError {
                    index,
                    text: m.text.clone(),
                    problem: "listed twice".into(),
                    offset: m.offset,
                };
                return Err(BoardError::Position(format!("{name} stones: {e}")));
            }
            seen.push(m.point);
        }
        Ok(seen)
    };
    let b = list(black, "black")?;
    let w = list(white, "white")?;
    Board::from_stones(size, rule, &b, &w, to_move)
}

/// Describes `board` (it is left as it was; `&mut` only because the renju check looks ahead).
pub fn describe(board: &mut Board) -> Description {
    let mut black = Vec::new();
    let mut white = Vec::new();
    for p in board.points() {
        match board.stone(p) {
            Some(Player::First) => black.push(p),
            Some(Player::Second) => white.push(p),
            None => {}
        }
    }
    let fouls = board.forbidden_points();
    let is_forbidden = |p: Point| fouls.iter().any(|&(q, _)| q == p);
    let mut threats: [SideThreats; 2] = Default::default();
    for colour in [Player::First, Player::Second] {
        let t = &mut threats[colour.index()];
        let fouls_apply = board.rule().has_fouls(colour);
        for p in board.points().filter(|&p| board.is_empty(p)) {
            let s = board.shapes(p, colour);
            if s.contains(&Shape::Five) {
                t.five.push(p);
            } else if fouls_apply && is_forbidden(p) {
                continue;
            } else if s.contains(&Shape::OpenFour) {
                t.open_four.push(p);
            } else if s.iter().any(|s| s.is_four()) {
                t.four.push(p);
            }
        }
    }
    Description {
        size: board.size(),
        rule: board.rule(),
        to_move: board.side_to_move(),
        result: board.result(),
        moves: board.moves().to_vec(),
        last_move: board.last_move(),
        black,
        white,
        threats,
        no_legal_move: board.no_legal_move(),
        black_fouls: if board.result().is_none() {
            fouls
        } else {
            Vec::new()
        },
    }
}

fn colour_name(c: Player) -> &'static str {
    match c {
        Player::First => "black",
        Player::Second => "white",
    }
}

fn list(points: &[Point], size: usize) -> String {
    if points.is_empty() {
        "-".into()
    } else {
        points
            .iter()
            .map(|p| p.to_human(size))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The position as text: the board with coordinates on the edges (`X` black, `O` white, the
/// last move in parentheses, `#` where Black may not play), then whose turn it is or the
/// result, and while the game goes on the threats and (renju) Black's forbidden points, with
/// White to move as the stones stand.
pub fn render(board: &mut Board) -> String {
    let d = describe(board);
    let n = d.size;
    let mut out = String::new();
    let letters: String = (0..n)
        .map(|x| format!(" {}", (b'a' + x as u8) as char))
        .collect();
    out.push_str(&format!("  {letters}\n"));
    for y in 0..n {
        let mut row: Vec<char> = vec![' '; 2 * n + 1];
        for x in 0..n {
            let p = Point::new(x, y);
            row[2 * x + 1] = match board.stone(p) {
                Some(Player::First) => 'X',
                Some(Player::Second) => 'O',
                None if d.black_fouls.iter().any(|&(q, _)| q == p) => '#',
                None => '.',
            };
            if d.last_move == Some(p) {
                row[2 * x] = '(';
                row[2 * x + 2] = ')';
            }
        }
        let row: String = row.into_iter().collect();
        out.push_str(&format!("{:>2}{row}{}\n", n - y, n - y));
    }
    out.push_str(&format!("  {letters}\n"));
    out.push_str(&format!(
        "rule: {}, size: {n}x{n}, stones: {} black, {} white\n",
        d.rule,
        d.black.len(),
        d.white.len()
    ));
    match d.result {
        Some(GameResult {
            winner: Some(w),
            reason,
        }) => out.push_str(&format!(
            "result: {} wins ({})\n",
            colour_name(w),
            reason.name()
        )),
        Some(r) => out.push_str(&format!("result: draw ({})\n", r.reason.name())),
        None if d.no_legal_move => out.push_str(&format!(
            "to move: {}, who has no legal move (every empty point is forbidden)\n",
            colour_name(d.to_move)
        )),
        None => out.push_str(&format!("to move: {}\n", colour_name(d.to_move))),
    }
    // A finished game has no threats left to play: its result says it all.
    let going_on = d.result.is_none();
    for c in [Player::First, Player::Second]
        .into_iter()
        .filter(|_| going_on)
    {
        let t = &d.threats[c.index()];
        out.push_str(&format!(
            "{} threats: five at {}; open four at {}; four at {}\n",
            colour_name(c),
            list(&t.five, n),
            list(&t.open_four, n),
            list(&t.four, n)
        ));
    }
    if d.rule == Rule::Renju && d.result.is_none() {
        let f: Vec<String> = d
            .black_fouls
            .iter()
            .map(|(p, f)| format!("{} ({})", p.to_human(n), f.name()))
            .collect();
        let when = if d.to_move == Player::First {
            ""
        } else {
            " as the stones stand"
        };
        out.push_str(&format!(
            "forbidden for black{when}: {}\n",
            if f.is_empty() {
                "-".into()
            } else {
                f.join(", ")
            }
        ));
    }
    out
}

/// The stones of the five (or longer line, where the rule lets it win) that the last move
/// made to end the game, sorted; empty when no five ended it. Front ends draw it.
pub fn winning_line(board: &Board) -> Vec<Point> {
    let (Some(result), Some(last)) = (board.result(), board.last_move()) else {
        return Vec::new();
    };
    if result.reason != crate::board::Reason::Five || board.stone(last) != result.winner {
        return Vec::new();
    }
    let Some(winner) = result.winner else {
        return Vec::new();
    };
    let n = board.size() as isize;
    for dir in crate::geometry::DIRS {
        let (dx, dy) = dir.delta();
        let mut line = vec![last];
        for sign in [1isize, -1] {
            let (mut x, mut y) = (last.x() as isize, last.y() as isize);
            loop {
                x += sign * dx;
                y += sign * dy;
                if x < 0 || y < 0 || x >= n || y >= n {
                    break;
                }
                let p = Point::new(x as usize, y as usize);
                if board.stone(p) != result.winner {
                    break;
                }
                line.push(p);
            }
        }
        // Under an exact-five rule a longer line beside the five did not win: skip it.
        let wins = line.len() == 5 || (line.len() > 5 && !board.rule().exact_five(winner));
        if wins {
            line.sort();
            return line;
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::winning_line;
    use crate::{Board, Rule};

    fn line_after(rule: Rule, moves: &str) -> String {
        let board = Board::from_moves(15, rule, moves).unwrap();
        let line: Vec<String> = winning_line(&board)
            .iter()
            .map(|p| p.to_human(15))
            .collect();
        line.join(" ")
    }

    /// h8 makes a vertical five and a row of six at once. The six wins in freestyle; under
    /// an exact-five rule only the five does, and that is the line drawn.
    #[test]
    fn the_line_drawn_is_the_one_that_won() {
        let moves = "d8 a1 e8 a3 f8 a5 g8 a7 i8 a9 h4 a11 h5 a13 h6 a15 h7 c15 h8";
        assert_eq!(line_after(Rule::Freestyle, moves), "d8 e8 f8 g8 h8 i8");
        assert_eq!(line_after(Rule::Standard, moves), "h8 h7 h6 h5 h4");
        assert_eq!(line_after(Rule::Renju, moves), "h8 h7 h6 h5 h4");
    }

    /// While the game goes on the text lists each side's threats; once it is over, its
    /// result alone (White's five points left on the board are no threat any more).
    #[test]
    fn a_finished_game_lists_no_threats() {
        let going = "h8 a1 i8 a2 j8 a3 k8 a4";
        let mut board = Board::from_moves(15, Rule::Freestyle, going).unwrap();
        let text = super::render(&mut board);
        assert!(text.contains("white threats: five at a5"), "{text}");
        let mut board = Board::from_moves(15, Rule::Freestyle, &format!("{going} l8")).unwrap();
        let text = super::render(&mut board);
        assert!(text.contains("result: black wins (five)"), "{text}");
        assert!(!text.contains("threats"), "{text}");
    }
}
