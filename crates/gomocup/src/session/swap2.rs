//! The swap2 opening: which three stones to propose, and whether to take a colour or add
//! two stones, from the engine's searches.

use super::*;

/// How far from even a swap2 position may look before the engine picks a colour.
const SWAP2_MARGIN: i32 = 60;

impl Session {
    pub(super) fn swap2(&mut self, block: Block) -> Outcome {
        let n = self.size.unwrap_or(15);
        let stones: Vec<Point> = block.stones.iter().map(|&(p, _)| p).collect();
        if !matches!(stones.len(), 0 | 3 | 5) {
            return error(format!(
                "SWAP2BOARD takes 0, 3 or 5 stones, not {}",
                stones.len()
            ));
        }
        let mut board = match Board::new(n, self.rule) {
            Ok(b) => b,
            Err(e) => return error(e),
        };
        for (i, &p) in stones.iter().enumerate() {
            if let Err(e) = board.try_play(p) {
                return error(format!("stone {} ({}): {e}", i + 1, xy(p)));
            }
        }
        if board.result().is_some() {
            return error("the swap2 stones already end the game");
        }
        match &mut self.engine {
            Some(engine) => engine.set_board(board),
            None => {
                self.size = Some(n);
                self.engine = Some(Engine::new(board, self.options()));
            }
        }
        self.think(Job::Swap2(stones.len()))
    }

    /// `results[0]` is the search of the position as given (the side to move's view);
    /// `results[1]`, when there, the search after that best move.
    pub(super) fn swap2_reply(&mut self, stones: usize, results: &[Analysis]) -> Vec<String> {
        let first = &results[0];
        let mv = first.best_move.expect("checked");
        let value = first.score.value();
        match stones {
            // Propose the three-stone opening the engine rated closest to even.
            0 => {
                let n = self.size.unwrap_or(15);
                let best = results
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, a)| a.score.value().abs())
                    .map_or(0, |(i, _)| i);
                let stones = swap2_openings(n)[best.min(SWAP2_OPENINGS - 1)];
                vec![format!(
                    "{} {} {}",
                    xy(stones[0]),
                    xy(stones[1]),
                    xy(stones[2])
                )]
            }
            // White to move: take Black if Black is better, answer as White if White is, and
            // otherwise add two stones (White's best, then Black's) for the opponent to choose.
            3 => {
                if value < -SWAP2_MARGIN {
                    vec!["SWAP".into()]
                } else if value > SWAP2_MARGIN || results.len() < 2 {
                    self.play(mv).expect("legal");
                    vec![xy(mv)]
                } else {
                    let second = results[1].best_move.unwrap_or(mv);
                    vec![format!("{} {}", xy(mv), xy(second))]
                }
            }
            // Five stones, White to move: keep White and move if White is not worse.
            _ => {
                if value >= 0 {
                    self.play(mv).expect("legal");
                    vec![xy(mv)]
                } else {
                    vec!["SWAP".into()]
                }
            }
        }
    }
}

/// How many three-stone openings the engine weighs when it opens a swap2 game.
pub const SWAP2_OPENINGS: usize = 6;

/// Black, White, Black around the centre: shapes the engine chooses among (by its
/// evaluation) when it places the first three stones of a swap2 game. Close shapes are near
/// even under standard; under freestyle every close shape favours Black (by 65 to 170 at
/// 700 ms, `wuzi analyze`), so the engine proposed openings it would itself swap, and the
/// second Black stone three or four points away (within 35 of even there) gives it a choice.
pub fn swap2_openings(n: usize) -> [[Point; 3]; SWAP2_OPENINGS] {
    let c = n / 2;
    let p =
        |dx: isize, dy: isize| Point::new((c as isize + dx) as usize, (c as isize + dy) as usize);
    [
        [p(0, 0), p(0, 1), p(2, 2)],
        [p(0, 0), p(1, 1), p(-2, 1)],
        [p(0, 0), p(0, 2), p(4, 1)],
        [p(0, 0), p(1, 0), p(-3, -3)],
        [p(0, 0), p(1, 1), p(3, -3)],
        [p(0, 0), p(1, 1), p(0, 4)],
    ]
}
