//! One game as a record holds it, whatever file it came from: the players, the rule and size,
//! the opening and the moves with their comments, and the result the record claims. Records
//! are checked when read (every move lands on an empty point of the board, in turn), so
//! replaying one cannot fail. Moves after the game ended (a five, or a renju foul nobody
//! claimed) are counted but not read: a record played on past its end still reads.

use crate::{Board, Point, Rule};
use wuzi_search::{Outcome, Player};

/// The comment c-gomoku-cli puts on the stones of the opening it was given.
pub const OPENING_COMMENT: &str = "opening move";

/// One move of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub colour: Player,
    pub point: Point,
    /// The node's comment (`C`), empty when none.
    pub comment: String,
}

impl RecordMove {
    /// True for a stone of the given opening (marked as c-gomoku-cli marks it).
    pub fn is_opening(&self) -> bool {
        self.comment == OPENING_COMMENT
    }

    /// The thinking time c-gomoku-cli writes as the comment (`699ms`), when there is one.
    pub fn millis(&self) -> Option<u64> {
        self.comment.strip_suffix("ms")?.parse().ok()
    }
}

/// A game record. See the module docs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    pub size: usize,
    pub rule: Rule,
    /// `PB`, `PW`; empty when unnamed.
    pub black: String,
    pub white: String,
    /// `EV`, empty when none.
    pub event: String,
    /// `GN`, the 1-based game number of a match.
    pub number: Option<usize>,
    /// `RE`: `None` when the record does not say (or the game is unfinished).
    pub result: Option<Outcome>,
    /// `TE` as c-gomoku-cli writes it: why the game ended, in words.
    pub reason: String,
    /// The root node's comment.
    pub comment: String,
    /// Stones set up before the moves (`AB`, `AW`), Black's then White's.
    pub setup: [Vec<Point>; 2],
    /// Who moves first after the set-up (`PL`), when the record says.
    pub to_move: Option<Player>,
    pub moves: Vec<RecordMove>,
    /// How many moves the record has after the game ended on the board (the last of
    /// `moves` made a five or a renju foul); they are not read.
    pub after_end: usize,
}

impl GameRecord {
    /// An empty record: no players, no moves.
    pub fn new(size: usize, rule: Rule) -> GameRecord {
        GameRecord {
            size,
            rule,
            black: String::new(),
            white: String::new(),
            event: String::new(),
            number: None,
            result: None,
            reason: String::new(),
            comment: String::new(),
            setup: [Vec::new(), Vec::new()],
            to_move: None,
            moves: Vec::new(),
            after_end: 0,
        }
    }

    /// The record of a board's game so far (its history; a board set up from stones keeps
    /// them as `AB`/`AW`), with the result when the game is over.
    pub fn from_board(board: &Board) -> GameRecord {
        let mut record = GameRecord::new(board.size(), board.rule());
        let mut replay = board.clone();
        while replay.undo().is_some() {}
        for p in replay.points() {
            match replay.stone(p) {
                Some(Player::First) => record.setup[0].push(p),
                Some(Player::Second) => record.setup[1].push(p),
                None => {}
            }
        }
        if !record.setup.iter().all(Vec::is_empty) {
            record.to_move = Some(replay.side_to_move());
        }
        let mut colour = replay.side_to_move();
        for &point in board.moves() {
            record.moves.push(RecordMove {
                colour,
                point,
                comment: String::new(),
            });
            colour = colour.opponent();
        }
        if let Some(result) = board.result() {
            record.result = Some(result.outcome());
            record.reason = result.reason.name().to_string();
        }
        record
    }

    /// The position before any move: the empty board, or the set-up stones with `PL` (or
    /// else the first move's colour, or else the one the counts give) to move.
    pub fn start(&self) -> Result<Board, String> {
        self.start_with(self.moves.first().map(|m| m.colour))
    }

    /// [`GameRecord::start`] for a record whose first move is still to be read.
    pub(crate) fn start_with(&self, first_mover: Option<Player>) -> Result<Board, String> {
        let [black, white] = &self.setup;
        if black.is_empty() && white.is_empty() {
            return Board::new(self.size, self.rule).map_err(|e| e.to_string());
        }
        let to_move = self.to_move.or(first_mover);
        Board::from_stones(self.size, self.rule, black, white, to_move).map_err(|e| e.to_string())
    }

    /// The position after the first `plies` moves (all of them when there are fewer).
    pub fn position(&self, plies: usize) -> Result<Board, String> {
        let mut board = self.start()?;
        for (i, m) in self.moves.iter().take(plies).enumerate() {
            if m.colour != board.side_to_move() {
                return Err(format!(
                    "move {} is not {}'s turn",
                    i + 1,
                    colour_name(m.colour)
                ));
            }
            board
                .try_play(m.point)
                .map_err(|e| format!("move {} ({}): {e}", i + 1, m.point.to_human(self.size)))?;
        }
        Ok(board)
    }

    /// The position after every move.
    pub fn final_position(&self) -> Result<Board, String> {
        self.position(self.moves.len())
    }
}

/// `black` or `white`.
pub fn colour_name(colour: Player) -> &'static str {
    match colour {
        Player::First => "black",
        Player::Second => "white",
    }
}

/// The Gomocup rule number (`RU` in c-gomoku-cli's records): 0 freestyle, 1 exactly five,
/// 4 renju.
pub fn rule_number(rule: Rule) -> u32 {
    match rule {
        Rule::Freestyle => 0,
        Rule::Standard => 1,
        Rule::Renju => 4,
    }
}

/// The rule of a Gomocup rule number, read as the protocol's bits (1 exactly five, 2
/// continuous game, 4 renju, 8 caro) the way managers send them: 2, which Yixin-Board sends
/// for renju, and 4 to 7 are renju; 1 and 3 standard; 0 freestyle. `None` for caro
/// and other rules wuzi does not play. Both a record's `RU` and the engine's `INFO rule` are
/// read with it.
pub fn rule_from_number(number: u64) -> Option<Rule> {
    match number {
        0 => Some(Rule::Freestyle),
        1 | 3 => Some(Rule::Standard),
        2 | 4..=7 => Some(Rule::Renju),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_becomes_a_record_and_back() {
        let board = Board::from_moves(15, Rule::Renju, "h8 i9 j10 k11").unwrap();
        let record = GameRecord::from_board(&board);
        assert_eq!(record.moves.len(), 4);
        assert_eq!(record.moves[1].colour, Player::Second);
        let replayed = record.final_position().unwrap();
        assert_eq!(replayed.moves(), board.moves());
        assert_eq!(record.position(2).unwrap().moves().len(), 2);
        assert_eq!(record.position(99).unwrap().moves().len(), 4);
    }

    #[test]
    fn set_up_stones_are_kept() {
        let h8 = Point::new(7, 7);
        let i9 = Point::new(8, 6);
        let board = Board::from_stones(15, Rule::Freestyle, &[h8], &[], None).unwrap();
        let mut board = board;
        board.play(i9);
        let record = GameRecord::from_board(&board);
        assert_eq!(record.setup[0], vec![h8]);
        assert_eq!(record.to_move, Some(Player::Second));
        assert_eq!(record.moves[0].colour, Player::Second);
        let replayed = record.final_position().unwrap();
        assert_eq!(replayed.stone(h8), Some(Player::First));
        assert_eq!(replayed.stone(i9), Some(Player::Second));
    }

    #[test]
    fn comments_say_opening_and_time() {
        let m = |comment: &str| RecordMove {
            colour: Player::First,
            point: Point::new(0, 0),
            comment: comment.into(),
        };
        assert!(m("opening move").is_opening());
        assert_eq!(m("699ms").millis(), Some(699));
        assert_eq!(m("good move").millis(), None);
        for rule in Rule::ALL {
            assert_eq!(rule_from_number(rule_number(rule).into()), Some(rule));
        }
        // The protocol's bits as managers send them.
        assert_eq!(rule_from_number(2), Some(Rule::Renju));
        assert_eq!(rule_from_number(5), Some(Rule::Renju));
        assert_eq!(rule_from_number(3), Some(Rule::Standard));
        assert_eq!(rule_from_number(8), None);
        assert_eq!(rule_from_number(u64::MAX), None);
    }
}
