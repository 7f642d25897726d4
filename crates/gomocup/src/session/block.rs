//! Blocks of stone lines (`BOARD`, `YXBOARD`, `SWAP2BOARD` ... `DONE`) and the positions
//! they set up: replayed in move order where that can be found, else set up from the stones
//! without a history (which `TAKEBACK` can still take apart, a stone at a time).

use super::*;

/// The notice that a block's stones were dropped: a command came before its `DONE` (the
/// game is as it was; the command's own reply follows).
pub(super) const BLOCK_DROPPED: &str = "ERROR a board block was not ended with DONE; it is dropped";

/// A block of stone lines being read (`BOARD`, `YXBOARD`, `SWAP2BOARD` ... `DONE`). A
/// malformed line inside it gets an ERROR and the block stays open, so that its `DONE` still
/// ends it, and then the whole block is refused: the manager's position has a stone this
/// one would lack, and a move searched without it could land on it. (The reference brain,
/// pisqpipe, ends the block at such a line instead, and then takes `DONE` and the stones
/// after the bad line as commands.)
pub(super) struct Block {
    pub(super) kind: BlockKind,
    pub(super) stones: Vec<(Point, Option<u8>)>,
    /// The first line that was not a stone, and why.
    pub(super) bad_line: Option<String>,
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum BlockKind {
    Board,
    YxBoard,
    Swap2,
}

/// `board`, set up from its stones without a history (a `BOARD` whose order passed through a
/// five, a `YXBOARD`), less the stone at `p`, which the side that moved last must own: that
/// side is then to move. What is left is set up as it stands: taking back a stone that broke
/// a six under exactly-five rules leaves the five it broke, a finished game (no manager takes
/// back into such a position).
pub(super) fn without_stone(board: &Board, p: Point) -> Result<Board, String> {
    let last = board.side_to_move().opponent();
    if board.stone(p) != Some(last) {
        return Err(match board.stone_count() {
            0 => "there is no move to take back".into(),
            _ => format!("{} is not a stone of the side that moved last", xy(p)),
        });
    }
    let (mut black, mut white) = (Vec::new(), Vec::new());
    for q in board.points().filter(|&q| q != p) {
        match board.stone(q) {
            Some(Player::First) => black.push(q),
            Some(Player::Second) => white.push(q),
            None => {}
        }
    }
    Board::from_stones(board.size(), board.rule(), &black, &white, Some(last))
        .map_err(|e| e.to_string())
}

impl Session {
    /// Sets up the position a finished block describes.
    pub(super) fn finish_block(&mut self, block: Block) -> Outcome {
        if let Some(why) = block.bad_line {
            return error(format!(
                "the block is refused ({why}); the position is as it was"
            ));
        }
        if block.kind == BlockKind::Swap2 {
            return self.swap2(block);
        }
        let Some(n) = self.size else {
            return error("no game: send START first");
        };
        match self.board_from_block(n, &block.stones) {
            Err(e) => error(e),
            // BOARD asks for a move, and a finished game has none: an ERROR, so (as for every
            // ERROR) the position stays as it was. YXBOARD only sets the position.
            Ok(board) if block.kind == BlockKind::Board && board.result().is_some() => {
                error("the game on that board is already over; the position is not set")
            }
            Ok(board) => {
                self.set_board(board);
                match block.kind {
                    BlockKind::YxBoard => Outcome::default(),
                    _ => self.think(Job::Move),
                }
            }
        }
    }

    /// Stones with field 1 (own) and 2 (opponent's); the engine is to move. Renju positions
    /// come in move order and are replayed so that fouls are judged as they happened;
    /// freestyle and standard ones are replayed alternately in the order given.
    fn board_from_block(&self, n: usize, stones: &[(Point, Option<u8>)]) -> Result<Board, String> {
        let mut own = Vec::new();
        let mut theirs = Vec::new();
        for &(p, f) in stones {
            if !p.on_board(n) {
                return Err(format!("{} is off the {n}x{n} board", xy(p)));
            }
            match f {
                Some(1) => own.push(p),
                Some(2) => theirs.push(p),
                Some(3) => {
                    return Err(
                        "field 3 (continuous game) is not supported: give stones as 1 or 2".into(),
                    )
                }
                _ => return Err(format!("{}: a board line needs X,Y,F with F 1 or 2", xy(p))),
            }
        }
        let own_colour = if own.len() == theirs.len() {
            Player::First
        } else if theirs.len() == own.len() + 1 {
            Player::Second
        } else {
            return Err(format!(
                "impossible stone counts: {} own and {} of the opponent's with the engine to move",
                own.len(),
                theirs.len()
            ));
        };
        let (black, white) = if own_colour == Player::First {
            (own, theirs)
        } else {
            (theirs, own)
        };
        let mut board = Board::new(n, self.rule).map_err(|e| e.to_string())?;
        let in_order: Vec<Point> = if self.rule == Rule::Renju {
            for (i, &(_, f)) in stones.iter().enumerate() {
                let black_stone = (f == Some(1)) == (own_colour == Player::First);
                if black_stone != (i % 2 == 0) {
                    return Err("renju positions must come in move order, Black first".into());
                }
            }
            stones.iter().map(|&(p, _)| p).collect()
        } else {
            let mut order = Vec::with_capacity(stones.len());
            for (i, &b) in black.iter().enumerate() {
                order.push(b);
                if let Some(&w) = white.get(i) {
                    order.push(w);
                }
            }
            order
        };
        let last = in_order.len();
        for (i, &p) in in_order.iter().enumerate() {
            if board.result().is_some() {
                if self.rule == Rule::Renju {
                    return Err(format!(
                        "the game was over before move {} ({})",
                        i + 1,
                        xy(p)
                    ));
                }
                // An order that passes through a five (possible under exactly-five rules):
                // set the stones up without a history instead.
                return Board::from_stones(n, self.rule, &black, &white, Some(own_colour))
                    .map_err(|e| e.to_string());
            }
            board
                .try_play(p)
                .map_err(|e| format!("stone {} ({}): {e}", i + 1, xy(p)))?;
        }
        debug_assert_eq!(board.moves().len(), last);
        Ok(board)
    }
}
