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
        self.size = Some(n);
        self.set_board(board);
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
                let shapes = swap2_openings(n);
                let stones = shapes[best.min(shapes.len() - 1)];
                // The proposed stones are the game from here (a manager may go on with TURN).
                for p in stones {
                    self.play(p)
                        .expect("three distinct points of an empty board");
                }
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
                } else {
                    self.play(mv).expect("legal");
                    match results.get(1).and_then(|r| r.best_move) {
                        // Both proposed stones are on the board, as the manager has them.
                        Some(second) if value <= SWAP2_MARGIN && self.play(second).is_ok() => {
                            vec![format!("{} {}", xy(mv), xy(second))]
                        }
                        _ => vec![xy(mv)],
                    }
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

/// Black, White, Black around the centre: shapes the engine chooses among (by its
/// evaluation) when it places the first three stones of a swap2 game, those that fit on an
/// `n`x`n` board (the two close ones always do). Close shapes are near even under standard;
/// under freestyle every close shape favours Black (by 65 to 170 at 700 ms, `wuzi analyze`),
/// so the engine proposed openings it would itself swap, and the second Black stone three or
/// four points away (within 35 of even there) gives it a choice.
pub fn swap2_openings(n: usize) -> Vec<[Point; 3]> {
    const SHAPES: [[(isize, isize); 3]; 6] = [
        [(0, 0), (0, 1), (2, 2)],
        [(0, 0), (1, 1), (-2, 1)],
        [(0, 0), (0, 2), (4, 1)],
        [(0, 0), (1, 0), (-3, -3)],
        [(0, 0), (1, 1), (3, -3)],
        [(0, 0), (1, 1), (0, 4)],
    ];
    let c = (n / 2) as isize;
    let at = |(dx, dy): (isize, isize)| {
        let (x, y) = (c + dx, c + dy);
        let on_board = (0..n as isize).contains(&x) && (0..n as isize).contains(&y);
        on_board.then(|| Point::new(x as usize, y as usize))
    };
    SHAPES
        .iter()
        .filter_map(|shape| Some([at(shape[0])?, at(shape[1])?, at(shape[2])?]))
        .collect()
}
