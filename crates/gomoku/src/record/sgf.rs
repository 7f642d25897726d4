//! SGF game records as Gomoku tools write them (`FF[4]`, `GM[4]`), following c-gomoku-cli so that
//! records from either tool read alike: moves as two letters, column then row counted from
//! the top (`a` = 0, the Gomocup coordinates), opening stones marked `C[opening move]`,
//! every other move's thinking time as `C[699ms]`, the winner in `RE` (`B+1`, `W+1`, `0` for a
//! draw) and the reason in words in `TE`.
//!
//! The reader takes what other tools write too: set-up stones (`AB`/`AW`), variations (the
//! main line is read), `SZ[15:15]`, rule names in `RU`, results such as `B+R` or `Draw`.

use super::game_record::{rule_from_number, rule_number, GameRecord, RecordMove};
use super::sgf_syntax::{escape, parse_trees, Node, Property, RecordError, Tree};
use super::{RecordDefaults, RecordFile};
use crate::{Point, Rule, MAX_SIZE, MIN_SIZE};
use std::fmt::Write;
use wuzi_search::{Outcome, Player};

/// One move of a record: the point and, for moves an engine chose, its thinking time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    pub point: Point,
    /// `None` for an opening stone.
    pub millis: Option<u64>,
}

/// What an SGF record says about one game.
#[derive(Clone, Debug)]
pub struct SgfGame {
    pub size: usize,
    /// The Gomocup rule number (`RU`): 0 freestyle, 1 exactly five, 4 renju.
    pub rule_number: u32,
    pub black: String,
    pub white: String,
    /// Event name (`EV`).
    pub event: String,
    /// 1-based game number (`GN`).
    pub number: usize,
    /// `None` for a draw.
    pub winner: Option<Player>,
    /// Why the game ended, in words (`TE`).
    pub reason: String,
    pub moves: Vec<RecordedMove>,
}

fn coordinate(p: Point) -> String {
    let letter = |v: usize| (b'a' + v as u8) as char;
    format!("{}{}", letter(p.x()), letter(p.y()))
}

impl SgfGame {
    /// The record as one `(;...)` game tree with a trailing newline; several records in one
    /// file are separated by a blank line, as c-gomoku-cli does.
    pub fn to_sgf(&self) -> String {
        let result = match self.winner {
            Some(Player::First) => "B+1",
            Some(Player::Second) => "W+1",
            None => "0",
        };
        let mut out = format!(
            "(;FF[4]GM[4]GN[{}]EV[{}]RU[{}]SZ[{}]PB[{}]PW[{}]RE[{result}]TE[{}]\n",
            self.number,
            escape(&self.event),
            self.rule_number,
            self.size,
            escape(&self.black),
            escape(&self.white),
            escape(&self.reason),
        );
        for (i, m) in self.moves.iter().enumerate() {
            let colour = if i % 2 == 0 { 'B' } else { 'W' };
            let comment = match m.millis {
                Some(ms) => format!("{ms}ms"),
                None => "opening move".into(),
            };
            let _ = write!(out, ";{colour}[{}]C[{comment}]", coordinate(m.point));
            if i % 8 == 7 && i + 1 < self.moves.len() {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        out
    }
}

/// Reads every game of an SGF file. `defaults` say the rule of games whose record does not
/// (no `RU`) and their size (no `SZ`; a bare [`Rule`] means 15x15, Gomoku's usual board).
/// Each game is checked by replaying it; an error names the game, the property or move, and
/// its line and column. The first error fails the whole file: [`read_sgf_each`] keeps the
/// games that read.
pub fn read_sgf(
    text: &str,
    defaults: impl Into<RecordDefaults>,
) -> Result<Vec<GameRecord>, RecordError> {
    read_sgf_each(text, defaults).into_result()
}

/// Every game of an SGF file, each read or refused on its own (see [`read_sgf`]), and where
/// the file stops being SGF, if it does.
pub fn read_sgf_each(text: &str, defaults: impl Into<RecordDefaults>) -> RecordFile {
    let defaults = defaults.into();
    let (trees, broken) = parse_trees(text);
    let several = trees.len() + usize::from(broken.is_some()) > 1;
    let name = |i: usize, e: RecordError| {
        if several {
            RecordError::new(e.span, format!("game {}: {}", i + 1, e.message))
        } else {
            e
        }
    };
    RecordFile {
        games: trees
            .iter()
            .enumerate()
            .map(|(i, tree)| read_game(tree, defaults).map_err(|e| name(i, e)))
            .collect(),
        broken: broken.map(|e| name(trees.len(), e)),
    }
}

fn single_value(property: &Property) -> &str {
    property.values[0].trim()
}

fn read_game(tree: &Tree, defaults: RecordDefaults) -> Result<GameRecord, RecordError> {
    let root = &tree.nodes[0];
    let bad = |p: &Property, why: String| RecordError::new(p.span, why);
    if let Some(gm) = root.get("GM") {
        if single_value(gm) != "4" {
            return Err(bad(
                gm,
                format!("GM[{}] is not a Gomoku record (GM[4])", single_value(gm)),
            ));
        }
    }
    let size = match root.get("SZ") {
        None if (MIN_SIZE..=MAX_SIZE).contains(&defaults.size) => defaults.size,
        None => {
            return Err(RecordError::new(
                root.span,
                format!(
                    "the record has no SZ, and the size to read it with, {}, is not supported \
                     (use {MIN_SIZE} to {MAX_SIZE})",
                    defaults.size
                ),
            ))
        }
        Some(sz) => read_size(sz)?,
    };
    let rule = match root.get("RU") {
        None => defaults.rule,
        Some(ru) => read_rule(ru)?,
    };
    let mut record = GameRecord::new(size, rule);
    let text = |ident: &str| {
        root.get(ident)
            .map_or(String::new(), |p| p.values[0].clone())
    };
    record.black = text("PB");
    record.white = text("PW");
    record.event = text("EV");
    record.reason = text("TE");
    record.number = root.get("GN").and_then(|p| single_value(p).parse().ok());
    if let Some(re) = root.get("RE") {
        record.result = read_result(re)?;
    }
    for (colour, ident) in [(0, "AB"), (1, "AW")] {
        if let Some(stones) = root.get(ident) {
            for value in &stones.values {
                record.setup[colour].push(read_point(value, size, stones)?);
            }
        }
    }
    if let Some(pl) = root.get("PL") {
        record.to_move = Some(match single_value(pl).to_ascii_uppercase().as_str() {
            "B" | "1" => Player::First,
            "W" | "2" => Player::Second,
            other => return Err(bad(pl, format!("PL[{other}] is not B or W"))),
        });
    }
    let first_mover = tree
        .nodes
        .iter()
        .find_map(|node| node_move(node).ok().flatten())
        .map(|(colour, _)| colour);
    let mut board = record
        .start_with(first_mover)
        .map_err(|e| RecordError::new(root.span, e))?;
    for (index, node) in tree.nodes.iter().enumerate() {
        if index > 0 {
            if let Some(p) = node.get("AB").or_else(|| node.get("AW")) {
                return Err(bad(p, "set-up stones after the first node".into()));
            }
        }
        let Some((colour, property)) = node_move(node)? else {
            if index == 0 {
                record.comment = node.get("C").map_or(String::new(), |p| p.values[0].clone());
            }
            continue;
        };
        let point = read_point(&property.values[0], size, property)?;
        if board.result().is_some() {
            record.after_end += 1;
            continue;
        }
        let number = record.moves.len() + 1;
        let name = format!(
            "move {number} ({}[{}], {})",
            property.ident,
            property.values[0],
            point.to_human(size)
        );
        if colour != board.side_to_move() {
            return Err(bad(
                property,
                format!(
                    "{name}: it is {}'s turn",
                    super::game_record::colour_name(board.side_to_move())
                ),
            ));
        }
        board
            .try_play(point)
            .map_err(|e| bad(property, format!("{name}: {e}")))?;
        record.moves.push(RecordMove {
            colour,
            point,
            comment: node.get("C").map_or(String::new(), |p| p.values[0].clone()),
        });
    }
    if record.moves.is_empty() && record.after_end > 0 {
        // The set-up itself ended the game: keep whose turn it was, or the record could not
        // be set up again without its moves.
        record.to_move = Some(board.side_to_move());
    }
    Ok(record)
}

/// The move of a node, if it has one.
fn node_move(node: &Node) -> Result<Option<(Player, &Property)>, RecordError> {
    match (node.get("B"), node.get("W")) {
        (Some(b), Some(_)) => Err(RecordError::new(b.span, "a node with both B and W moves")),
        (Some(m), _) | (_, Some(m)) if m.values.len() > 1 => Err(RecordError::new(
            m.span,
            format!(
                "{}[..] has {} values; a move has one (each move is a node of its own)",
                m.ident,
                m.values.len()
            ),
        )),
        (Some(b), None) => Ok(Some((Player::First, b))),
        (None, Some(w)) => Ok(Some((Player::Second, w))),
        (None, None) => Ok(None),
    }
}

fn read_size(sz: &Property) -> Result<usize, RecordError> {
    let value = single_value(sz);
    let (width, height) = value.split_once(':').unwrap_or((value, value));
    let bad = || RecordError::new(sz.span, format!("SZ[{value}] is not a board size"));
    let width: usize = width.trim().parse().map_err(|_| bad())?;
    let height: usize = height.trim().parse().map_err(|_| bad())?;
    if width != height {
        return Err(RecordError::new(
            sz.span,
            format!("SZ[{value}]: only square boards are supported"),
        ));
    }
    if !(MIN_SIZE..=MAX_SIZE).contains(&width) {
        return Err(RecordError::new(
            sz.span,
            format!(
                "SZ[{value}]: board size {width} is not supported (use {MIN_SIZE} to {MAX_SIZE})"
            ),
        ));
    }
    Ok(width)
}

/// `RU` is the Gomocup rule number in c-gomoku-cli's records; a rule's name is taken too.
fn read_rule(ru: &Property) -> Result<Rule, RecordError> {
    let value = single_value(ru);
    let rule = match value.parse::<u64>() {
        Ok(n) => rule_from_number(n),
        Err(_) => value.parse::<Rule>().ok(),
    };
    rule.ok_or_else(|| {
        RecordError::new(
            ru.span,
            format!("RU[{value}] is not a rule wuzi plays (0 freestyle, 1 standard, 2 or 4 renju)"),
        )
    })
}

fn read_result(re: &Property) -> Result<Option<Outcome>, RecordError> {
    let value = single_value(re);
    let upper = value.to_ascii_uppercase();
    Ok(if upper.starts_with("B+") {
        Some(Outcome::Win(Player::First))
    } else if upper.starts_with("W+") {
        Some(Outcome::Win(Player::Second))
    } else if matches!(upper.as_str(), "0" | "D" | "DRAW" | "JIGO") {
        Some(Outcome::Draw)
    } else if matches!(upper.as_str(), "" | "?" | "VOID") {
        None
    } else {
        return Err(RecordError::new(
            re.span,
            format!("RE[{value}] is not a result (B+1, W+1, 0 for a draw, ? for unknown)"),
        ));
    })
}

/// Two letters, column then row from the top, `a` = 0.
fn read_point(value: &str, size: usize, property: &Property) -> Result<Point, RecordError> {
    let what = format!("{}[{value}]", property.ident);
    let bad = |why: String| RecordError::new(property.span, format!("{what}: {why}"));
    let bytes = value.trim().as_bytes();
    // `tt` meant a pass in FF[3], on boards where it is not a point.
    if bytes.is_empty() || (bytes == b"tt" && size <= 19) {
        return Err(bad("a pass is not a Gomoku move".into()));
    }
    let [column, row] = bytes else {
        return Err(bad("a point is two letters, column then row (`hh`)".into()));
    };
    let coordinate = |c: u8| c.is_ascii_lowercase().then(|| usize::from(c - b'a'));
    match (coordinate(*column), coordinate(*row)) {
        (Some(x), Some(y)) if x < size && y < size => Ok(Point::new(x, y)),
        (Some(_), Some(_)) => Err(bad(format!("not on the {size}x{size} board"))),
        _ => Err(bad("a point is two lower-case letters (`hh`)".into())),
    }
}

impl GameRecord {
    /// The record as one `(;...)` game tree in c-gomoku-cli's style (see the module docs),
    /// with a trailing newline. Empty fields are left out.
    pub fn to_sgf(&self) -> String {
        let mut out = String::from("(;FF[4]GM[4]");
        if let Some(n) = self.number {
            let _ = write!(out, "GN[{n}]");
        }
        let mut text = |ident: &str, value: &str| {
            if !value.is_empty() {
                let _ = write!(out, "{ident}[{}]", escape(value));
            }
        };
        text("EV", &self.event);
        text("RU", &rule_number(self.rule).to_string());
        text("SZ", &self.size.to_string());
        text("PB", &self.black);
        text("PW", &self.white);
        match self.result {
            Some(Outcome::Win(Player::First)) => text("RE", "B+1"),
            Some(Outcome::Win(Player::Second)) => text("RE", "W+1"),
            Some(Outcome::Draw) => text("RE", "0"),
            None => {}
        }
        text("TE", &self.reason);
        text("C", &self.comment);
        for (ident, stones) in [("AB", &self.setup[0]), ("AW", &self.setup[1])] {
            if !stones.is_empty() {
                out.push_str(ident);
                for &p in stones {
                    let _ = write!(out, "[{}]", coordinate(p));
                }
            }
        }
        match self.to_move {
            Some(Player::First) => out.push_str("PL[B]"),
            Some(Player::Second) => out.push_str("PL[W]"),
            None => {}
        }
        out.push('\n');
        for (i, m) in self.moves.iter().enumerate() {
            let colour = match m.colour {
                Player::First => 'B',
                Player::Second => 'W',
            };
            let _ = write!(out, ";{colour}[{}]", coordinate(m.point));
            if !m.comment.is_empty() {
                let _ = write!(out, "C[{}]", escape(&m.comment));
            }
            if i % 8 == 7 && i + 1 < self.moves.len() {
                out.push('\n');
            }
        }
        out.push_str(")\n");
        out
    }
}

/// Several records as one file, separated by a blank line as c-gomoku-cli does.
pub fn write_sgf(records: &[GameRecord]) -> String {
    records
        .iter()
        .map(GameRecord::to_sgf)
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Point::new` asserts below 22: a point past the largest board is an error first.
    #[test]
    fn points_past_the_largest_board_are_errors() {
        for bad in ["wa", "aw", "zz", "vw"] {
            let text = format!("(;GM[4]SZ[22];B[{bad}])");
            assert!(read_sgf(&text, Rule::Freestyle).is_err(), "{bad}");
            let text = format!("(;GM[4]SZ[22]AB[{bad}])");
            assert!(read_sgf(&text, Rule::Freestyle).is_err(), "{bad}");
        }
    }

    #[test]
    fn writes_what_c_gomoku_cli_writes() {
        let game = SgfGame {
            size: 15,
            rule_number: 0,
            black: "wuzi".into(),
            white: "rapfi]01".into(),
            event: "wuzi match".into(),
            number: 1,
            winner: Some(Player::Second),
            reason: "White wins by five".into(),
            moves: vec![
                RecordedMove {
                    point: Point::new(5, 11),
                    millis: None,
                },
                RecordedMove {
                    point: Point::new(3, 10),
                    millis: Some(699),
                },
            ],
        };
        assert_eq!(
            game.to_sgf(),
            "(;FF[4]GM[4]GN[1]EV[wuzi match]RU[0]SZ[15]PB[wuzi]PW[rapfi\\]01]RE[W+1]\
             TE[White wins by five]\n;B[fl]C[opening move];W[dk]C[699ms])\n"
        );
    }

    use crate::{Board, Rule};

    /// A random legal game on a `size` board under `rule`, to its end or `plies` moves.
    fn random_game(size: usize, rule: Rule, plies: usize, seed: u64) -> Board {
        let mut rng = crate::testing::Xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let mut next = move || rng.next_u64();
        let mut board = Board::new(size, rule).unwrap();
        while board.result().is_none() && board.moves().len() < plies {
            let empty: Vec<Point> = board.points().filter(|&p| board.is_empty(p)).collect();
            board.play(empty[next() as usize % empty.len()]);
        }
        board
    }

    #[test]
    fn random_games_round_trip_under_every_rule_and_size() {
        for rule in Rule::ALL {
            for size in [MIN_SIZE, 7, 15, 19, MAX_SIZE] {
                for seed in 0..6u64 {
                    let board = random_game(size, rule, size * size, seed + size as u64);
                    let mut record = GameRecord::from_board(&board);
                    record.black = "you [human]".into();
                    record.white = "wuzi\\engine".into();
                    record.number = Some(seed as usize + 1);
                    if let Some(m) = record.moves.first_mut() {
                        m.comment = "a comment ] with \\ escapes".into();
                    }
                    let text = record.to_sgf();
                    let read = read_sgf(&text, Rule::Freestyle).unwrap();
                    assert_eq!(read, vec![record.clone()], "{text}");
                    let replayed = read[0].final_position().unwrap();
                    assert_eq!(replayed.moves(), board.moves());
                    assert_eq!(replayed.result(), board.result());
                }
            }
        }
    }

    #[test]
    fn set_up_positions_keep_the_side_to_move() {
        let (h8, i9) = (Point::new(7, 7), Point::new(8, 6));
        let board =
            Board::from_stones(15, Rule::Renju, &[h8], &[i9], Some(Player::Second)).unwrap();
        let record = GameRecord::from_board(&board);
        let text = record.to_sgf();
        assert!(text.contains("AB[hh]AW[ig]PL[W]"), "{text}");
        let read = read_sgf(&text, Rule::Freestyle).unwrap();
        assert_eq!(read, vec![record]);
        assert_eq!(read[0].start().unwrap().side_to_move(), Player::Second);
        assert!(read_sgf("(;AB[hh]PL[X])", Rule::Freestyle)
            .unwrap_err()
            .to_string()
            .contains("PL[X]"));
        let error = read_sgf("(;AB[hh]PL[W];B[ii])", Rule::Freestyle).unwrap_err();
        assert!(error.to_string().contains("white's turn"), "{error}");
        // Without PL the first move says who starts.
        let black_first = &read_sgf("(;AB[hh];B[ii])", Rule::Freestyle).unwrap()[0];
        assert_eq!(black_first.final_position().unwrap().moves().len(), 1);
    }

    #[test]
    fn several_games_in_one_file() {
        let records: Vec<GameRecord> = (0..3)
            .map(|seed| GameRecord::from_board(&random_game(15, Rule::Renju, 20, seed)))
            .collect();
        assert_eq!(
            read_sgf(&write_sgf(&records), Rule::Freestyle).unwrap(),
            records
        );
    }

    #[test]
    fn reads_what_other_tools_write() {
        let text = "(;GM[4]FF[4]SZ[15:15]RU[renju]PB[Yixin]RE[W+R]AB[hh]AW[ii]\
                    ;B[jj]C[nice](;W[kk])(;W[aa]))";
        let record = &read_sgf(text, Rule::Freestyle).unwrap()[0];
        assert_eq!(record.rule, Rule::Renju);
        assert_eq!(record.result, Some(Outcome::Win(Player::Second)));
        assert_eq!(
            record.setup,
            [vec![Point::new(7, 7)], vec![Point::new(8, 8)]]
        );
        assert_eq!(record.moves.len(), 2);
        assert_eq!(record.moves[0].comment, "nice");
        assert_eq!(record.moves[1].point, Point::new(10, 10));
        let default = &read_sgf("(;;B[hh])", Rule::Standard).unwrap()[0];
        assert_eq!((default.size, default.rule), (15, Rule::Standard));
        // A record without SZ takes the size it is read with; one with SZ keeps its own.
        let twenty = RecordDefaults {
            rule: Rule::Renju,
            size: 20,
        };
        let read = &read_sgf("(;;B[jj];W[ss])", twenty).unwrap()[0];
        assert_eq!((read.size, read.rule), (20, Rule::Renju));
        assert_eq!(read.moves[1].point, Point::new(18, 18));
        assert_eq!(read_sgf("(;SZ[15];B[hh])", twenty).unwrap()[0].size, 15);
        assert!(read_sgf("(;;B[ss])", Rule::Freestyle).is_err());
        // A size no board has is an error that says where it came from, never a panic.
        for size in [0, 4, 23, 26, usize::MAX] {
            let defaults = RecordDefaults {
                rule: Rule::Freestyle,
                size,
            };
            let error = read_sgf("(;FF[4]GM[4]AB[aa]AW[zz];B[bb])", defaults).unwrap_err();
            assert!(error.to_string().contains("has no SZ"), "{error}");
        }
    }

    /// One broken game does not hide the others: a bad move spoils only its game, and a
    /// game cut short ends the list with its error.
    #[test]
    fn each_game_is_read_on_its_own() {
        let good = "(;SZ[15];B[hh];W[ii])";
        let occupied = "(;SZ[15];B[hh];W[hh])";
        let file = read_sgf_each(&format!("{good}\n{occupied}\n{good}"), Rule::Freestyle);
        assert_eq!((file.games.len(), file.broken), (3, None));
        assert!(file.games[0].is_ok() && file.games[2].is_ok());
        let error = file.games[1].as_ref().unwrap_err().to_string();
        assert!(error.contains("game 2: move 2"), "{error}");
        let cut = format!("{good}\n{good}\n(;SZ[15];B[hh];W[i");
        let file = read_sgf_each(&cut, Rule::Freestyle);
        assert_eq!(file.games.len(), 2);
        assert!(file.games.iter().all(Result::is_ok));
        let error = file.broken.unwrap().to_string();
        assert!(
            error.starts_with("line 3") && error.contains("game 3:"),
            "{error}"
        );
        assert!(
            read_sgf(&cut, Rule::Freestyle).is_err(),
            "the strict reader"
        );
        let alone = read_sgf_each(occupied, Rule::Freestyle);
        assert!(!alone.games[0]
            .as_ref()
            .unwrap_err()
            .to_string()
            .contains("game 1"));
    }

    #[test]
    fn malformed_records_say_what_and_where() {
        let error = |text: &str| read_sgf(text, Rule::Freestyle).unwrap_err().to_string();
        assert_eq!(
            error("(;GM[1]SZ[19])"),
            "line 1, column 3: GM[1] is not a Gomoku record (GM[4])"
        );
        assert_eq!(
            error("(;SZ[15]\n;B[hh];W[hh])"),
            "line 2, column 8: move 2 (W[hh], h8): the point is occupied"
        );
        assert_eq!(
            error("(;SZ[15];B[hh];B[ii])"),
            "line 1, column 16: move 2 (B[ii], i7): it is white's turn"
        );
        assert!(error("(;SZ[9];B[jj])").contains("B[jj]: not on the 9x9 board"));
        assert!(error("(;SZ[40])").contains("board size 40 is not supported"));
        assert!(error("(;SZ[15:13])").contains("only square"));
        assert!(error("(;SZ[x])").contains("SZ[x] is not a board size"));
        assert!(error("(;RU[8])").contains("RU[8] is not a rule"));
        assert!(error("(;RE[maybe])").contains("RE[maybe] is not a result"));
        assert!(error("(;;B[])").contains("a pass"));
        assert!(error("(;;B[h8])").contains("two lower-case letters"));
        assert!(error("(;;B[hhh])").contains("two letters"));
        assert!(error("(;;B[hh]W[ii])").contains("both B and W"));
        assert!(error("(;;B[hh][ii])").contains("B[..] has 2 values; a move has one"));
        assert!(error("(;;B[hh];AB[aa])").contains("set-up stones after"));
        assert!(error("(;SZ[15])\n(;SZ[15];B[zz])").starts_with("line 2, column 10: game 2:"));
        let past_five = "(;;B[aa];W[ab];B[ba];W[bb];B[ca];W[cb];B[da];W[db];B[ea];W[eb];B[zz])";
        assert!(error(past_five).contains("B[zz]: not on the 15x15 board"));
    }

    /// A record played on after its game ended (a five, or a renju foul nobody claimed)
    /// reads up to the end, and counts the moves after it.
    #[test]
    fn moves_after_the_end_are_counted_not_read() {
        let five = "(;;B[aa];W[ab];B[ba];W[bb];B[ca];W[cb];B[da];W[db];B[ea];W[eb];B[ec])";
        let record = &read_sgf(five, Rule::Freestyle).unwrap()[0];
        assert_eq!((record.moves.len(), record.after_end), (9, 2));
        let board = record.final_position().unwrap();
        assert_eq!(board.result().map(|r| r.winner), Some(Some(Player::First)));
        // Black's d15 makes six in a row: a foul under renju, which White did not claim.
        let foul = "(;RU[4];B[aa];W[ac];B[ba];W[cc];B[ca];W[ec];B[ea];W[gc];B[fa];W[ic];B[da];\
                    W[kk];B[ll])";
        let record = &read_sgf(foul, Rule::Freestyle).unwrap()[0];
        assert_eq!(record.rule, Rule::Renju);
        assert_eq!((record.moves.len(), record.after_end), (11, 2));
        let result = record.final_position().unwrap().result().unwrap();
        assert_eq!(result.winner, Some(Player::Second));
        assert_eq!(record.position(10).unwrap().result(), None);
        // The set-up itself is over: no move is read, and the position still sets up.
        let setup = "(;GM[4]SZ[15]AB[aa][ba][ca][da][ea]AW[ab][bb];W[kk];B[ll])";
        let record = &read_sgf(setup, Rule::Freestyle).unwrap()[0];
        assert_eq!((record.moves.len(), record.after_end), (0, 2));
        let board = record.final_position().unwrap();
        assert_eq!(board.result().map(|r| r.winner), Some(Some(Player::First)));
    }

    proptest::proptest! {
        /// Whatever the text, reading it gives records or an error, never a panic.
        #[test]
        fn no_text_makes_the_readers_panic(text in "[(;)\\[\\]BWABSZRUGMCE0-9a-z:+ \n\\\\]{0,80}") {
            let _ = read_sgf(&text, Rule::Renju);
            let _ = crate::record::read_psq(&format!("Piskvorky 15x15, 1:1, 0\n{text}"), Rule::Renju);
            let _ = crate::record::read_psq(&text, Rule::Freestyle);
        }

        /// Nearly well-formed records, where the edge cases are: points off the board, passes,
        /// sizes out of range, set-up stones on stones, moves out of turn or after the end.
        #[test]
        fn no_nearly_valid_record_makes_the_readers_panic(
            tokens in proptest::collection::vec(
                "\\(;|;|\\)|[BW]\\[[a-w]{0,3}\\]|SZ\\[[0-9]{1,2}(:[0-9]{1,2})?\\]|A[BW]\\[[a-w]{2}\\]\
                 |RU\\[[0-9a-z]{1,5}\\]|RE\\[[BW0?D]\\+?[0-9R]?\\]|GM\\[[0-9]\\]|C\\[[a-z\\\\]{0,4}\\]",
                0..40,
            ),
            lines in proptest::collection::vec("-?[0-9]{1,2},-?[0-9]{1,2}(,[0-9]{1,3})?", 0..30),
        ) {
            let _ = read_sgf(&tokens.concat(), Rule::Renju);
            let _ = read_sgf(&format!("(;SZ[7]{})", tokens.concat()), Rule::Standard);
            let psq = format!("Piskvorky 7x7, 1:1, 0\n{}", lines.join("\n"));
            let _ = crate::record::read_psq(&psq, Rule::Renju);
        }
    }
}
