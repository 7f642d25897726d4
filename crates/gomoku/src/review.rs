//! A game reviewed move by move, as an analysis partner reads it (`wuzi review`, the page's
//! Review button). Each position is searched once; a move's worth is the mover's chance of
//! winning before it (the search of its position) against after it (the search of the next
//! position, seen from the other side), and the drop grades it, as chess reviews grade moves
//! by the winning chances they give away.

use crate::board::{Board, GameResult};
use crate::engine::{Analysis, Engine};
use crate::eval::{chance_percent, whole_percent, win_chance};
use crate::notation::Point;
use std::time::Instant;
use wuzi_search::{Forced, Limits, Outcome, Player, Score};

/// How much of the mover's chance of winning a move gave away, in the grades chess reviews
/// use, with their thresholds: 5, 10 and 15 points of winning chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grade {
    /// The engine's own choice.
    Best,
    /// Less than 5 points given away.
    Good,
    Inaccuracy,
    Mistake,
    /// 15 points or more, or a proven win let go, or a proven loss walked into.
    Blunder,
}

impl Grade {
    pub fn name(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
            Grade::Blunder => "blunder",
        }
    }
}

/// In points of winning chance, on the whole percents a review shows, so that a move shown
/// as `49% -> 44%` is the inaccuracy it reads as.
const INACCURACY: i64 = 5;
const MISTAKE: i64 = 10;
const BLUNDER: i64 = 15;

/// What followed a move, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// The game went on: the next position's search, turned to the mover's view (a proven
    /// result counts its plies from the position after the move).
    Score(Score),
    /// The move ended the game.
    Over(GameResult),
}

impl After {
    /// Whether what followed is settled: a proven score, or the game's end.
    fn is_proven(&self) -> bool {
        match self {
            After::Score(score) => score.is_decided(),
            After::Over(_) => true,
        }
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug)]
pub struct ReviewedMove {
    /// The move's number in the game (1-based).
    pub number: usize,
    pub side: Player,
    pub point: Point,
    /// The search of the position the move was played in.
    pub engine: Analysis,
    /// The mover's chance of winning before the move (the engine's best) and after it.
    pub chance_before: f64,
    pub chance_after: f64,
    pub after: After,
    pub grade: Grade,
    /// Why the move is a blunder beyond the chance it gave away, when it is: a proven result
    /// let go or walked into, or a renju foul.
    pub reason: Option<&'static str>,
}

impl ReviewedMove {
    /// What followed the move, in words from the mover's view: a score ("win in 2", "35"),
    /// or how the game ended ("wins (five)", "loses (double-three)", "a draw").
    pub fn after_text(&self) -> String {
        match self.after {
            After::Score(score) => score.to_string(),
            After::Over(result) => match result.winner {
                Some(p) if p == self.side => format!("wins ({})", result.reason.name()),
                Some(_) => format!("loses ({})", result.reason.name()),
                None => "a draw".to_string(),
            },
        }
    }

    /// The two chances as a review shows them ([`chance_percent`]): 100% and 0% only for
    /// proven results and a game's end, as the analysis shows them.
    pub fn chance_texts(&self) -> [String; 2] {
        [
            chance_percent(self.chance_before, self.engine.score.is_decided()),
            chance_percent(self.chance_after, self.after.is_proven()),
        ]
    }
}

/// One side's grades over a review.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    pub moves: usize,
    pub best: usize,
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The mean chance of winning given away a move, in points (0 to 100).
    pub mean_loss: f64,
}

/// How many times the budget a move's next position gets again before the review says a
/// proven win was let go: proving a loss for the defender takes more than proving the win.
const RECHECK_FACTOR: u64 = 4;

/// Reviews `moves` played from `start` (the first is move number `first_number`), each
/// position searched within `limits` on `engine` (its tables are kept from one position to
/// the next); `on_move` hears each move as it is judged. Ends at the end of `moves` or of the
/// game, or once `deadline` has passed (no search runs past it); an illegal move is an error
/// naming it.
pub fn review_game(
    engine: &mut Engine,
    start: &Board,
    moves: &[Point],
    first_number: usize,
    limits: &Limits,
    deadline: Option<Instant>,
    mut on_move: impl FnMut(&ReviewedMove),
) -> Result<Vec<ReviewedMove>, String> {
    let limits = &crate::engine::within_longest(limits);
    let mut position = start.clone();
    let mut reviewed = Vec::new();
    if moves.is_empty() || position.result().is_some() {
        return Ok(reviewed);
    }
    let Some(mut before) = search(engine, &position, limits, deadline) else {
        return Ok(reviewed);
    };
    for (i, &mv) in moves.iter().enumerate() {
        let number = first_number + i;
        let side = position.side_to_move();
        position
            .try_play(mv)
            .map_err(|e| format!("move {number} ({}): {e}", mv.to_human(position.size())))?;
        let (after, next) = match position.result() {
            Some(result) => (After::Over(result), None),
            None => {
                let Some(mut next) = search(engine, &position, limits, deadline) else {
                    break;
                };
                let won = matches!(before.forced(), Some(Forced::Win(_)));
                if won && before.best_move != Some(mv) && next.forced().is_none() {
                    // Another move may win too: give the proof of it a fairer chance.
                    let more = Limits {
                        nodes: limits.nodes.map(|n| n.saturating_mul(RECHECK_FACTOR)),
                        time: limits.time.map(|t| t * RECHECK_FACTOR as u32),
                        ..limits.clone()
                    };
                    match search(engine, &position, &more, deadline) {
                        Some(again) => next = again,
                        None => break,
                    }
                }
                (After::Score(-next.score), Some(next))
            }
        };
        let judged = judge(number, side, mv, before, after, position.rule());
        on_move(&judged);
        reviewed.push(judged);
        match next {
            Some(next) => before = next,
            None => break,
        }
    }
    Ok(reviewed)
}

/// The moves a review grades: all of a game's, or those after a record's opening stones
/// (placed by a match manager, not played), with the position before the first.
#[derive(Clone, Debug)]
pub struct ReviewSpan {
    pub start: Board,
    pub moves: Vec<Point>,
    /// The first graded move's number (1-based).
    pub first_number: usize,
}

impl ReviewSpan {
    /// The span of `board`'s moves after its first `opening` ones; `None` when no move
    /// follows them (opening stones are a match manager's, not the players': graded only
    /// when asked for, with an `opening` of 0).
    pub fn of(board: &Board, opening: usize) -> Option<ReviewSpan> {
        let played = board.moves();
        if opening >= played.len() {
            return None;
        }
        let mut start = board.clone();
        while start.moves().len() > opening {
            start.undo();
        }
        Some(ReviewSpan {
            start,
            moves: played[opening..].to_vec(),
            first_number: opening + 1,
        })
    }

    /// The span a game being played reviews: the moves after its `opening` stones, or all
    /// of them while the game is still all opening (then they are all there is to grade);
    /// `None` when there is no move.
    pub fn in_play(board: &Board, opening: usize) -> Option<ReviewSpan> {
        ReviewSpan::of(board, opening).or_else(|| ReviewSpan::of(board, 0))
    }

    /// Why a record's review has nothing to grade when all its `played` moves are its
    /// opening stones; `ask` says how to have them graded all the same (`--from 1`).
    pub fn opening_only(played: usize, ask: &str) -> String {
        let all = match played {
            1 => "its one move is".to_string(),
            n => format!("all {n} moves are"),
        };
        format!("nothing to review: {all} the record's opening (C[opening move]); {ask} grades them too")
    }

    /// [`review_game`] of the span on `engine`, which is left on the position it was on.
    pub fn review(
        &self,
        engine: &mut Engine,
        limits: &Limits,
        deadline: Option<Instant>,
        on_move: impl FnMut(&ReviewedMove),
    ) -> Result<Vec<ReviewedMove>, String> {
        let back = engine.board().clone();
        let graded = review_game(
            engine,
            &self.start,
            &self.moves,
            self.first_number,
            limits,
            deadline,
            on_move,
        );
        engine.set_board(back);
        graded
    }
}

/// The grades of `side`'s moves in `moves`.
pub fn summary(moves: &[ReviewedMove], side: Player) -> SideSummary {
    let mine: Vec<&ReviewedMove> = moves.iter().filter(|m| m.side == side).collect();
    let count = |g: Grade| mine.iter().filter(|m| m.grade == g).count();
    let lost: f64 = mine
        .iter()
        .map(|m| (m.chance_before - m.chance_after).max(0.0))
        .sum();
    SideSummary {
        moves: mine.len(),
        best: count(Grade::Best),
        inaccuracies: count(Grade::Inaccuracy),
        mistakes: count(Grade::Mistake),
        blunders: count(Grade::Blunder),
        mean_loss: if mine.is_empty() {
            0.0
        } else {
            100.0 * lost / mine.len() as f64
        },
    }
}

/// Searches `position` within `limits`, never past `deadline`; `None` once it has passed.
fn search(
    engine: &mut Engine,
    position: &Board,
    limits: &Limits,
    deadline: Option<Instant>,
) -> Option<Analysis> {
    let mut limits = limits.clone();
    if let Some(deadline) = deadline {
        let left = deadline.checked_duration_since(Instant::now())?;
        if left.is_zero() {
            return None;
        }
        limits.time = Some(limits.time.map_or(left, |t| t.min(left)));
    }
    engine.set_board(position.clone());
    Some(engine.go(&limits, |_| {}))
}

/// Why `side`'s move lost at once, if it was a foul: a point forbidden to Black under renju.
fn foul_of(after: &After, side: Player) -> Option<&'static str> {
    let After::Over(result) = after else {
        return None;
    };
    if result.winner == Some(side) {
        return None;
    }
    use crate::board::Reason;
    match result.reason {
        Reason::DoubleThree => Some("a forbidden point (double-three): Black loses at once"),
        Reason::DoubleFour => Some("a forbidden point (double-four): Black loses at once"),
        Reason::Overline => Some("a forbidden point (overline): Black loses at once"),
        Reason::Five | Reason::BoardFull => None,
    }
}

/// Grades `side`'s move `mv`, played where the engine found `before`, given what followed.
fn judge(
    number: usize,
    side: Player,
    mv: Point,
    before: Analysis,
    after: After,
    rule: crate::rules::Rule,
) -> ReviewedMove {
    let chance_before = win_chance(before.score, rule);
    let (chance_after, won_after, lost_after) = match after {
        After::Score(score) => (
            win_chance(score, rule),
            matches!(score.forced(), Some(Forced::Win(_))),
            matches!(score.forced(), Some(Forced::Loss(_))),
        ),
        After::Over(result) => match result.outcome() {
            Outcome::Win(p) if p == side => (1.0, true, false),
            Outcome::Win(_) => (0.0, false, true),
            Outcome::Draw => (0.5, false, false),
        },
    };
    let lost = whole_percent(chance_before, before.score.is_decided())
        - whole_percent(chance_after, after.is_proven());
    let won_before = matches!(before.forced(), Some(Forced::Win(_)));
    let lost_before = matches!(before.forced(), Some(Forced::Loss(_)));
    // A five is as good as the five the engine chose.
    let wins_at_once = matches!(&after, After::Over(r) if r.outcome() == Outcome::Win(side));
    let (grade, reason) = if before.best_move == Some(mv) || wins_at_once {
        (Grade::Best, None)
    } else if let Some(foul) = foul_of(&after, side) {
        // Lost on the spot, whatever the position was worth: the review says why.
        (Grade::Blunder, Some(foul))
    } else if won_before && !won_after && lost >= INACCURACY {
        // A win still "nearly won" after the move, only not proven again within the budget,
        // is not a win let go.
        (
            Grade::Blunder,
            Some("no win found after it where one was proven before"),
        )
    } else if !lost_before && lost_after {
        (Grade::Blunder, Some("walks into a proven loss"))
    } else if lost >= BLUNDER {
        (Grade::Blunder, None)
    } else if lost >= MISTAKE {
        (Grade::Mistake, None)
    } else if lost >= INACCURACY {
        (Grade::Inaccuracy, None)
    } else {
        (Grade::Good, None)
    };
    ReviewedMove {
        number,
        side,
        point: mv,
        engine: before,
        chance_before,
        chance_after,
        after,
        grade,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;
    use crate::notation::parse_moves;
    use crate::rules::Rule;

    fn review(rule: Rule, moves: &str, nodes: u64) -> Vec<ReviewedMove> {
        let mut engine = Engine::new(
            Board::new(15, rule).unwrap(),
            EngineOptions {
                table_bytes: 4 << 20,
                ..EngineOptions::default()
            },
        );
        let moves = parse_moves(moves, 15).unwrap();
        let start = Board::new(15, rule).unwrap();
        review_game(
            &mut engine,
            &start,
            &moves,
            1,
            &Limits::nodes(nodes),
            None,
            |_| {},
        )
        .unwrap()
    }

    /// White ignores Black's open three: a proven loss walked into, graded a blunder; Black's
    /// open four after it is a win in 2 (White's move, then the five).
    #[test]
    fn ignoring_an_open_three_is_a_blunder_and_the_five_ends_it() {
        let moves = review(Rule::Freestyle, "h8 a1 i8 a2 j8 a3 k8", 20_000);
        assert_eq!(moves.len(), 7);
        let six = &moves[5];
        assert_eq!((six.number, six.side), (6, Player::Second));
        assert_eq!(six.grade, Grade::Blunder);
        assert_eq!(six.reason, Some("walks into a proven loss"));
        assert_eq!(six.chance_after, 0.0);
        let five = &moves[6];
        assert_eq!(five.after, After::Score(Score::win_in(2)));
        assert_eq!(
            summary(&moves, Player::Second).blunders,
            moves
                .iter()
                .filter(|m| m.side == Player::Second && m.grade == Grade::Blunder)
                .count()
        );
        let black = summary(&moves, Player::First);
        assert_eq!(black.moves, 4);
        for m in &moves {
            assert!(
                (0.0..=1.0).contains(&m.chance_before) && (0.0..=1.0).contains(&m.chance_after)
            );
            assert_eq!(
                m.grade == Grade::Best,
                m.engine.best_move == Some(m.point) || wins_at_once(m),
                "{}",
                m.number
            );
        }
    }

    /// 100% and 0% only for a proven result or a game's end; a span never holds only a
    /// record's opening stones.
    #[test]
    fn only_proven_chances_read_100_or_0_and_an_opening_alone_is_no_span() {
        let moves = review(Rule::Freestyle, "h8 a1 i8 a2 j8 a3 k8", 20_000);
        assert_eq!(
            moves[5].chance_texts()[1],
            "0%",
            "a proven loss walked into"
        );
        assert_eq!(moves[6].chance_texts()[1], "100%", "the five");
        let mut board = Board::new(15, Rule::Freestyle).unwrap();
        for p in parse_moves("h8 i9 j10", 15).unwrap() {
            board.play(p);
        }
        assert!(ReviewSpan::of(&board, 3).is_none());
        let span = ReviewSpan::of(&board, 2).unwrap();
        assert_eq!(
            (
                span.first_number,
                span.moves.len(),
                span.start.moves().len()
            ),
            (3, 1, 2)
        );
        assert_eq!(ReviewSpan::of(&board, 0).unwrap().moves.len(), 3);
    }

    /// From a game against Rapfi: White's i4 (move 20) is not the engine's choice, and its win
    /// is not proven after it at the budget that proved the win before it; searched again
    /// with more, it is (Black is lost in 14 plies), so it is no blunder, nor is Black's
    /// reply, in a position already lost.
    #[test]
    fn a_second_winning_move_is_not_a_win_let_go() {
        let text = include_str!("../tests/data/sgf/c-gomoku-cli-wuzi-rapfi.sgf");
        let record = crate::record::read_records("rapfi.sgf", text, Rule::Freestyle)
            .unwrap()
            .remove(0);
        let start = record.position(19).unwrap();
        let moves: Vec<Point> = record.moves[19..21].iter().map(|m| m.point).collect();
        let mut engine = Engine::new(
            start.clone(),
            EngineOptions {
                table_bytes: 4 << 20,
                ..EngineOptions::default()
            },
        );
        let limits = Limits::nodes(20_000);
        let moves = review_game(&mut engine, &start, &moves, 20, &limits, None, |_| {}).unwrap();
        assert_eq!(moves[0].point.to_human(15), "i4");
        assert!(matches!(moves[0].engine.forced(), Some(Forced::Win(_))));
        assert_ne!(moves[0].engine.best_move, Some(moves[0].point));
        assert_eq!(moves[0].chance_after, 1.0, "{:?}", moves[0].after);
        assert_eq!((moves[0].grade, moves[0].reason), (Grade::Good, None));
        assert_eq!(moves[1].chance_before, 0.0);
        assert_ne!(moves[1].grade, Grade::Blunder);
    }

    fn wins_at_once(m: &ReviewedMove) -> bool {
        matches!(m.after, After::Over(r) if r.winner == Some(m.side))
    }

    /// Either five of an open four is the best move, whichever the engine names.
    #[test]
    fn every_five_is_best() {
        for five in ["g8", "l8"] {
            let moves = review(
                Rule::Freestyle,
                &format!("h8 a1 i8 a2 j8 a3 k8 a4 {five}"),
                2_000,
            );
            let last = moves.last().unwrap();
            assert_eq!((last.number, last.grade), (9, Grade::Best), "{five}");
        }
    }

    /// A deadline already past reviews nothing (a later one bounds each search's time; that
    /// is the engine's time limit, not timed here).
    #[test]
    fn a_passed_deadline_reviews_nothing() {
        let mut engine = Engine::new(
            Board::new(15, Rule::Freestyle).unwrap(),
            EngineOptions::default(),
        );
        let start = Board::new(15, Rule::Freestyle).unwrap();
        let moves = parse_moves("h8 i9 h9 h10", 15).unwrap();
        let past = Some(Instant::now());
        let limits = Limits::nodes(1_000);
        let none = review_game(&mut engine, &start, &moves, 1, &limits, past, |_| {}).unwrap();
        assert!(none.is_empty());
    }

    /// Random crowded games under every rule: every move is reviewed in order, chances are
    /// probabilities, a move is "best" exactly when it is the engine's choice, and every other
    /// grade is the one its drop (or a proof) gives.
    #[test]
    fn random_games_are_graded_by_the_rules() {
        let mut rng = crate::testing::Xorshift(0x5eed_2026_1128);
        for rule in [Rule::Freestyle, Rule::Standard, Rule::Renju] {
            for _ in 0..8 {
                let game = crate::testing::crowded_board(&mut rng, rule, 6, 9, 8, 16);
                let start = Board::new(15, rule).unwrap();
                let mut engine = Engine::new(
                    start.clone(),
                    EngineOptions {
                        table_bytes: 1 << 20,
                        ..EngineOptions::default()
                    },
                );
                let limits = Limits::nodes(300);
                let moves = game.moves();
                let graded = review_game(&mut engine, &start, moves, 1, &limits, None, |_| {});
                let graded = graded.unwrap();
                assert_eq!(graded.len(), moves.len(), "{}", rule.name());
                for (i, m) in graded.iter().enumerate() {
                    assert_eq!((m.number, m.point), (i + 1, moves[i]));
                    let side = if i % 2 == 0 {
                        Player::First
                    } else {
                        Player::Second
                    };
                    assert_eq!(m.side, side);
                    assert!((0.0..=1.0).contains(&m.chance_before), "{m:?}");
                    assert!((0.0..=1.0).contains(&m.chance_after), "{m:?}");
                    assert_eq!(
                        m.grade == Grade::Best,
                        m.engine.best_move == Some(m.point) || wins_at_once(m)
                    );
                    assert_eq!(
                        matches!(m.after, After::Over(_)),
                        i + 1 == moves.len() && game.result().is_some()
                    );
                    if m.reason.is_some() {
                        assert_eq!(m.grade, Grade::Blunder);
                    }
                    if m.grade != Grade::Best && m.reason.is_none() {
                        let [before, after] = m.chance_texts();
                        let percent = |t: String| t.trim_end_matches('%').parse::<i64>().unwrap();
                        let lost = percent(before) - percent(after);
                        let expected = match lost {
                            l if l >= BLUNDER => Grade::Blunder,
                            l if l >= MISTAKE => Grade::Mistake,
                            l if l >= INACCURACY => Grade::Inaccuracy,
                            _ => Grade::Good,
                        };
                        assert_eq!(m.grade, expected, "{m:?}");
                    }
                }
                let (black, white) = (
                    summary(&graded, Player::First),
                    summary(&graded, Player::Second),
                );
                assert_eq!(black.moves + white.moves, graded.len());
            }
        }
    }

    /// A renju foul loses at once: the review ends on it, a blunder.
    #[test]
    fn a_renju_foul_ends_the_review_as_a_blunder() {
        let moves = review(Rule::Renju, "h8 a1 i8 a2 j9 a3 j10 a15 j8 b1", 2_000);
        assert_eq!(moves.len(), 9, "the review stops at the foul");
        let foul = &moves[8];
        assert_eq!(foul.grade, Grade::Blunder);
        match foul.after {
            After::Over(result) => {
                assert_eq!(result.winner, Some(Player::Second));
                assert_eq!(result.reason.name(), "double-three");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            foul.reason,
            Some("a forbidden point (double-three): Black loses at once")
        );
    }

    /// A foul is named as one even where the position was lost already, and where Black had
    /// a win: neither "good" nor "no win found".
    #[test]
    fn a_foul_is_named_whatever_the_position_was_worth() {
        // White's open three on the 5th line was unstoppable; Black's j8 is a double-three.
        let lost = review(Rule::Renju, "h8 k7 i8 l6 j9 m5 j10 a1 n4 i9 j8", 20_000);
        let last = lost.last().unwrap();
        assert_eq!(last.number, 11);
        assert_eq!(last.grade, Grade::Blunder);
        assert!(last
            .reason
            .unwrap()
            .starts_with("a forbidden point (double-three)"));
        // Black had e8 (an open four) and played the double-three m12.
        let won = review(
            Rule::Renju,
            "f8 a1 g8 a3 h8 a5 k12 a7 l12 a9 m13 a11 m14 a13 m12",
            20_000,
        );
        let last = won.last().unwrap();
        assert_eq!(last.number, 15);
        assert!(last
            .reason
            .unwrap()
            .starts_with("a forbidden point (double-three)"));
    }
}
