//! One node of the selective alpha-beta: the quick proofs, the table, the static cuts,
//! singular extensions, and the move loop with its pruning and reductions.

use super::{Search, NO_EVAL};
use crate::board::{Board, ThreatCounts};
use crate::eval::evaluate_with;
use crate::movegen::five_points;
use crate::notation::Point;
use crate::pattern::Shape;
use crate::rules::Rule;
use wuzi_search::{extend_line, terminal_score, Bound, Forced, Player, Score, MAX_PLY};

impl Search {
    /// Principal-variation search of `board` to `depth` plies (fewer for reduced moves, more
    /// for forced replies), from the side to move's view, `ply` plies below the root.
    pub(super) fn node(
        &mut self,
        board: &mut Board,
        mut depth: i32,
        ply: usize,
        mut alpha: Score,
        mut beta: Score,
        cut_node: bool,
    ) -> Score {
        let pv_node = beta > alpha.plus_one();
        if !self.enter(ply) {
            return Score::DRAW;
        }
        let me = board.side_to_move();
        if let Some(outcome) = board.outcome() {
            return terminal_score(outcome, me, ply as u32);
        }
        if ply >= MAX_PLY - 1 {
            return Score::heuristic(evaluate_with(board, self.eval));
        }
        let plies = ply as u32;
        // No line from here ends sooner than the next ply, nor is better than winning there.
        alpha = alpha.max(Score::loss_in(plies + 1));
        beta = beta.min(Score::win_in(plies + 1));
        if alpha >= beta {
            return alpha;
        }
        let them = me.opponent();
        let (mine, theirs) = (board.threats(me), board.threats(them));
        if !self.restricted_root(ply) {
            if let Some(proof) = self.proof_at_entry(board, me, mine, theirs, plies) {
                return proof;
            }
        }
        let must_block = theirs.five > 0;
        if depth <= 0 {
            if self.params.quiescence_plies > 0 {
                return self.quiesce(board, ply, alpha, beta, 0);
            }
            if !must_block || self.params.block_extension == 0 {
                return Score::heuristic(evaluate_with(board, self.eval));
            }
            depth = 0;
        }
        let threatened = must_block || theirs.open_four > 0;

        let key = board.hash();
        let skipped = self.skipped[ply];
        let mut tt_move = None;
        let mut tt_hit = None;
        if let Some(entry) = self.tt.probe(key) {
            tt_move = entry.mv.and_then(|code| Point::from_index(code as usize));
            let score = entry.score.to_root_relative(plies);
            let settles = entry.bound.settles(score, alpha, beta);
            if settles && !pv_node && ply > 0 && entry.depth as i32 >= depth && skipped.is_none() {
                return score;
            }
            tt_hit = Some((score, entry.bound, entry.depth as i32));
        }

        let p = self.params;
        if p.iir_depth > 0 && ply > 0 && depth >= p.iir_depth && tt_move.is_none() {
            depth -= 1;
        }
        let static_eval = if threatened {
            NO_EVAL
        } else {
            evaluate_with(board, self.eval)
        };
        self.evals[ply] = static_eval;
        let improving = static_eval != NO_EVAL
            && ply >= 2
            && (self.evals[ply - 2] == NO_EVAL || static_eval > self.evals[ply - 2]);
        // Nothing is cut statically at the root, in the PV, under a threat (no evaluation
        // was taken) or in a singular-extension search.
        if !pv_node && !threatened && ply > 0 && skipped.is_none() {
            let cut = self.static_cut(board, ply, depth, alpha, beta, static_eval, improving);
            if let Some(score) = cut {
                return score;
            }
        }

        let mut tt_extension = 0;
        if let (Some(mv), Some(hit)) = (tt_move, tt_hit) {
            if ply > 0 && skipped.is_none() && !threatened {
                match self.singular(board, ply, depth, beta, cut_node, mv, hit) {
                    Ok(extension) => tt_extension = extension,
                    Err(score) => return score,
                }
            }
        }

        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        // The table's move is searched before the others are generated: when it cuts, as it
        // mostly does, generating and ordering the rest is saved. It is nearly always one of
        // the candidates; when the width limit cut it off on this path (the ordering reads the
        // last moves, so a transposition can order differently) it is searched all the same.
        let mut generated = false;
        let mut left_out = skipped.is_some();
        // Whether the candidates are the answers to an opponent's four-three to come: then
        // the important ones are not pruned near the leaves (the others still may be).
        let mut defending = false;
        match tt_move {
            Some(mv) if ply > 0 && skipped.is_none() && board.is_legal(mv) => moves.push(mv),
            _ => {
                self.candidates(board, ply, &mut moves);
                if self.movegen.lost_to_open_three && ply > 0 && p.lost_to_three != 0 {
                    // Nothing holds against the opponent's open three: no move needs a look
                    // (each would lose to an open four, a block and a five).
                    self.moves[ply] = moves;
                    let lost = Score::loss_in(plies + 4);
                    self.tt.store(
                        key,
                        None,
                        lost.to_node_relative(plies),
                        depth.max(0) as u32,
                        Bound::Exact,
                    );
                    return lost;
                }
                generated = true;
                left_out |= self.movegen.truncated;
                defending = self.movegen.defending_double_threat;
                if let Some(mv) = skipped {
                    moves.retain(|&m| m != mv);
                }
                if moves.is_empty() {
                    self.moves[ply] = moves;
                    if skipped.is_some() {
                        // The table's move was the only one: nothing else comes near it.
                        return -Score::MAX_HEURISTIC;
                    }
                    if board.rule().has_fouls(me) && !board.has_legal_move() {
                        // Renju Black with only forbidden points left loses, as a referee
                        // (and `wuzi match`) rules it.
                        return Score::loss_in(plies);
                    }
                    return Score::heuristic(evaluate_with(board, self.eval));
                }
                if let Some(mv) = tt_move {
                    if let Some(i) = moves.iter().position(|&m| m == mv) {
                        moves[..=i].rotate_right(1);
                    }
                }
            }
        }

        let original_alpha = alpha;
        let mut best = -Score::INFINITY;
        let mut best_move = None;
        let new_depth = if must_block {
            depth - 1 + p.block_extension
        } else {
            depth - 1
        };
        let prune_quiet = !pv_node && !threatened && ply > 0 && depth <= p.mcp_max_depth;
        let mut quiet_limit = self.quiet_limits[depth.clamp(0, 63) as usize];
        if p.mcp_improving != 0 && !improving {
            quiet_limit /= 2;
        }
        // Plies taken off the moves after one raised alpha in a PV node.
        let mut raised = 0;
        for i in 0.. {
            if i == 1 && !generated {
                self.generate_after_first(board, ply, &mut moves);
                generated = true;
                left_out |= self.movegen.truncated;
                defending = self.movegen.defending_double_threat;
            }
            let Some(&mv) = moves.get(i) else {
                break;
            };
            let important = important(board, mv, me, them, p.stop_shape);
            if prune_quiet
                && i >= quiet_limit
                && !best_is_lost(best)
                && (!important
                    || (depth <= p.mcp_important_depth
                        && !defending
                        && !makes_four_or_five(board, mv, me)))
            {
                left_out = true;
                continue;
            }
            let new_depth = new_depth - raised;
            self.tt.prefetch(board.hash_after(mv));
            board.play(mv);
            let score = if i == 0 {
                let extension = if Some(mv) == tt_move { tt_extension } else { 0 };
                -self.node(
                    board,
                    new_depth + extension,
                    ply + 1,
                    -beta,
                    -alpha,
                    !cut_node && !pv_node,
                )
            } else {
                let r = self.reduction(
                    depth, i, new_depth, important, threatened, cut_node, pv_node,
                );
                let null = -alpha.plus_one();
                let mut s = -self.node(board, new_depth - r, ply + 1, null, -alpha, true);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.node(board, new_depth, ply + 1, null, -alpha, !cut_node);
                }
                if s > alpha && s < beta && pv_node && !self.aborted {
                    s = -self.node(board, new_depth, ply + 1, -beta, -alpha, false);
                }
                s
            };
            board.undo();
            if ply == 0 && i == 0 && !self.aborted {
                self.root_first = Some(mv);
            }
            if self.aborted {
                self.moves[ply] = moves;
                return if ply == 0 { best } else { Score::DRAW };
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    extend_line(&mut self.pv, ply, mv);
                    if alpha >= beta {
                        if p.history_divisor > 0 && !threatened {
                            let bonus = p.history_bonus * depth * depth;
                            self.movegen.reward_cut(me, &moves[..i], mv, bonus);
                        }
                        break;
                    }
                    if pv_node && depth > 2 && depth < p.pv_raise_max_depth && !alpha.is_decided() {
                        raised = 1;
                    }
                }
            }
        }
        if !generated && matches!(best.forced(), Some(Forced::Loss(_))) {
            // The table's move cut with a loss: whether moves were left out decides the proof.
            self.generate_after_first(board, ply, &mut moves);
            left_out |= self.movegen.truncated;
        }
        self.moves[ply] = moves;
        if left_out && matches!(best.forced(), Some(Forced::Loss(_))) {
            // Every searched move loses, but a move left out might not: not a proof.
            best = -Score::MAX_HEURISTIC;
        }
        // With root moves excluded the score is not the position's: the table must not
        // keep it.
        if skipped.is_some() || (ply == 0 && !self.excluded.is_empty()) {
            return best;
        }
        let bound = Bound::of(best, original_alpha, beta);
        self.tt.store(
            key,
            best_move.or(tt_move).map(|p| p.index() as u16),
            best.to_node_relative(plies),
            depth.max(0) as u32,
            bound,
        );
        best
    }

    /// The quick proofs at a node's entry, read from the threat counts (`mine` for `me`, the
    /// side to move, `theirs` for the opponent): a five to make wins at once, two fives to
    /// block lose, and an open four that the opponent can neither block twice nor answer
    /// with a four of its own wins in three.
    fn proof_at_entry(
        &mut self,
        board: &Board,
        me: Player,
        mine: ThreatCounts,
        theirs: ThreatCounts,
        plies: u32,
    ) -> Option<Score> {
        let them = me.opponent();
        if mine.five > 0 {
            return Some(Score::win_in(plies + 1));
        }
        if theirs.five >= 2 {
            self.fives.clear();
            five_points(board, them, &mut self.fives, 2);
            if self.fives.len() >= 2 {
                return Some(Score::loss_in(plies + 2));
            }
        }
        if theirs.five == 0
            && theirs.four == 0
            && mine.open_four > 0
            && !(board.rule() == Rule::Renju && me == Player::First)
        {
            return Some(Score::win_in(plies + 3));
        }
        None
    }

    /// Reverse futility pruning and razoring, from the static evaluation (and whether it is
    /// `improving` on the one two plies up): a node far above beta near the leaves returns
    /// its evaluation (or halfway to beta), and one far below alpha returns when its fours
    /// alone (the quiescence search) cannot lift it.
    #[allow(clippy::too_many_arguments)]
    fn static_cut(
        &mut self,
        board: &mut Board,
        ply: usize,
        depth: i32,
        alpha: Score,
        beta: Score,
        static_eval: i32,
        improving: bool,
    ) -> Option<Score> {
        let p = self.params;
        let rfp_depth = depth - i32::from(improving && p.rfp_improving != 0);
        if depth <= p.rfp_max_depth
            && !beta.is_decided()
            && static_eval - p.rfp_margin * rfp_depth >= beta.value()
        {
            if p.rfp_halfway != 0 {
                return Some(Score::heuristic((static_eval + beta.value()) / 2));
            }
            return Some(Score::heuristic(static_eval));
        }
        if depth <= p.razor_max_depth
            && !alpha.is_decided()
            && static_eval + p.razor_margin * depth < alpha.value()
        {
            let score = if p.quiescence_plies > 0 {
                self.quiesce(board, ply, alpha, alpha.plus_one(), 0)
            } else {
                Score::heuristic(static_eval)
            };
            if self.aborted {
                return Some(Score::DRAW);
            }
            if score <= alpha {
                return Some(score);
            }
        }
        None
    }

    /// Singular extension of the table's move `mv`, whose entry `hit` is (score, bound,
    /// depth): the node is searched without it, at half the depth, against a bar a little
    /// below its score. When nothing else reaches the bar, `mv` is extended a ply
    /// (`Ok(1)`); when the bar beats beta, another move cuts too and the node returns it
    /// (multicut, `Err`); when only `mv` beats beta, it is searched a ply shallower
    /// (`Ok(-1)`). `Err` also returns a stopped search.
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        board: &mut Board,
        ply: usize,
        depth: i32,
        beta: Score,
        cut_node: bool,
        mv: Point,
        (tt_score, bound, tt_depth): (Score, Bound, i32),
    ) -> Result<i32, Score> {
        let p = self.params;
        if p.se_min_depth == 0
            || depth < p.se_min_depth
            || !matches!(bound, Bound::Lower | Bound::Exact)
            || tt_depth < depth - 3
            || tt_score.is_decided()
        {
            return Ok(0);
        }
        let singular_beta = Score::heuristic(tt_score.value() - p.se_margin * depth);
        self.skipped[ply] = Some(mv);
        let score = self.node(
            board,
            (depth - 1) / 2,
            ply,
            singular_beta.minus_one(),
            singular_beta,
            cut_node,
        );
        self.skipped[ply] = None;
        if self.aborted {
            return Err(Score::DRAW);
        }
        if score < singular_beta {
            Ok(1)
        } else if singular_beta >= beta {
            Err(singular_beta)
        } else if tt_score >= beta {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// The plies the `i`-th move (0-based) of a node at `depth` is reduced by (late-move
    /// reductions, at most to a one-ply search of `new_depth`). Only quiet moves (not
    /// `important`, the node not `threatened`) are reduced, unless the knobs soften the rule
    /// for the important ones or for a threatened node (a ply less).
    #[allow(clippy::too_many_arguments)]
    fn reduction(
        &self,
        depth: i32,
        i: usize,
        new_depth: i32,
        important: bool,
        threatened: bool,
        cut_node: bool,
        pv_node: bool,
    ) -> i32 {
        let p = &self.params;
        let quiet = !important && !threatened;
        let softened = if threatened {
            p.lmr_threatened != 0
        } else {
            p.lmr_important != 0
        };
        if depth < p.lmr_min_depth || i < p.lmr_first_move || !(quiet || softened) {
            return 0;
        }
        let mut r = self.lmr[(depth as usize).min(63)][i.min(63)] as i32;
        r += p.lmr_cut * i32::from(cut_node) - i32::from(pv_node);
        r -= i32::from(!quiet);
        r.clamp(0, (new_depth - 1).max(0))
    }
}

/// A move that is never reduced, nor pruned above [`super::SearchParams::mcp_important_depth`]: it
/// makes a four or an open three, or it stops one (the opponent's shape on its point is at
/// least `stop_shape`).
fn important(board: &Board, mv: Point, me: Player, them: Player, stop_shape: u8) -> bool {
    board.sorted_shapes(mv, me)[3] >= Shape::OpenThree
        || board.sorted_shapes(mv, them)[3] as u8 >= stop_shape
}

/// Whether `me` makes a four (or five) by playing `mv`.
fn makes_four_or_five(board: &Board, mv: Point, me: Player) -> bool {
    // Fours and the five are the strongest shapes.
    board.sorted_shapes(mv, me)[3] >= Shape::Four
}

/// Whether the best score so far is a proven loss (or nothing): then every move must be
/// looked at.
fn best_is_lost(best: Score) -> bool {
    best == -Score::INFINITY || matches!(best.forced(), Some(Forced::Loss(_)))
}
