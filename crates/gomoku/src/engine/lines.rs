//! The N best moves for analysis ("multi-PV"): every move of the list scored by the same
//! search at the same depth, so the list reads best first.

use super::{search, Analysis, Engine, Info};
use crate::notation::Point;
use std::time::Instant;
use wuzi_search::Limits;

impl Engine {
    /// The `n` best moves for the side to move, best first, each with its score and line.
    ///
    /// A root threat search's proven win comes first. The rest come from one search that, at
    /// each depth, searches the root once per move to find, each time without the moves found
    /// before, and then ranks them, so every line is scored at the same depth (the last one
    /// completed). `limits` hold for the whole list. `on_info` hears every line of each
    /// completed depth with its rank (0 for the best move), `on_found` each line at the end,
    /// best first. Fewer than `n` come back when the root's candidates (at most the root
    /// width, 24) run out, or when a stop comes before the first depths are done. The check
    /// that the best move does not walk into a VCF, which [`Engine::go`] makes, is not made
    /// here. Every line carries the whole search's nodes and time.
    ///
    /// With `search=generic` the moves are found one search after another instead, each
    /// without the moves before it, with an `n`th of the time, and the depth and nodes of
    /// `limits` each.
    pub fn best_moves(
        &mut self,
        n: usize,
        limits: &Limits,
        mut on_info: impl FnMut(usize, &Info),
        mut on_found: impl FnMut(&Analysis),
    ) -> Vec<Analysis> {
        let limits = &super::time::within_longest(limits);
        self.table_for(limits);
        // No more lines than points to play (a front end may pass on any count).
        let n = n.min(self.game.board.empty_count());
        let found = if n <= 1 {
            vec![self.go(limits, |info| on_info(0, info))]
        } else if self.options.selective {
            self.ranked_lines(n, limits, &mut on_info)
        } else {
            self.one_after_another(n, limits, &mut on_info)
        };
        let found: Vec<Analysis> = found
            .into_iter()
            .filter(|a| a.best_move.is_some() || n <= 1)
            .collect();
        found.iter().for_each(&mut on_found);
        if found.is_empty() {
            // The game is over or there is no legal move: say so as `go` does, at once. (A
            // legal move no line found, which should not happen, comes from a one-ply search
            // rather than a second full one.)
            return vec![self.go(&Limits::depth(1), |_| {})];
        }
        found
    }

    /// The selective search's way: a root threat-search win, then the other lines from one
    /// multi-line search ([`search::Search::run_lines`]), best first.
    fn ranked_lines(
        &mut self,
        n: usize,
        limits: &Limits,
        on_info: &mut impl FnMut(usize, &Info),
    ) -> Vec<Analysis> {
        let start = Instant::now();
        let board = &mut self.game.board;
        if board.result().is_some() || !board.has_legal_move() {
            return Vec::new();
        }
        let threats_before = self.threats.nodes();
        let mut found = Vec::with_capacity(n);
        if let Some(win) = self.root_threat_win(limits, start) {
            on_info(0, &win.info());
            found.push(win);
        }
        let excluded: Vec<Point> = found.iter().filter_map(|a| a.best_move).collect();
        let threat_nodes = self.threats.nodes() - threats_before;
        let leaf_before = self.game.leaf_nodes();
        let left = |t: std::time::Duration| t.saturating_sub(start.elapsed());
        let search_start = Instant::now();
        let search_limits = search::SearchLimits {
            depth: limits.depth,
            nodes: limits.nodes.map(|n| n.saturating_sub(threat_nodes).max(1)),
            deadline: limits.time.map(|t| search_start + left(t)),
            target: limits.aim().map(left),
            stop: limits.stop.clone(),
        };
        let offset = found.len();
        let lines = self.run_threads(
            search_limits,
            &excluded,
            n - offset,
            threat_nodes,
            start,
            &mut |rank, info| on_info(offset + rank, info),
        );
        let leaf_nodes = self.game.leaf_nodes() - leaf_before;
        for line in lines {
            let Some(mv) = line.best_move else { continue };
            // The last guard of "the engine only proposes legal points".
            if !self.game.board.is_legal(mv) {
                continue;
            }
            found.push(Analysis {
                best_move: Some(mv),
                score: line.score,
                depth: line.depth,
                nodes: threat_nodes + line.nodes + leaf_nodes,
                elapsed: start.elapsed(),
                pv: line.pv,
            });
        }
        // A line the search proved won sooner than the threat search's win goes above it
        // (the progress told the ranks of the moment).
        found.sort_by_key(|a| std::cmp::Reverse(a.score));
        found
    }

    /// The `search=generic` way: search, exclude the best, search again.
    fn one_after_another(
        &mut self,
        n: usize,
        limits: &Limits,
        on_info: &mut impl FnMut(usize, &Info),
    ) -> Vec<Analysis> {
        let share = u32::try_from(n).unwrap_or(u32::MAX);
        let limits = &Limits {
            time: limits.time.map(|t| t / share),
            target: limits.target.map(|t| t / share),
            ..limits.clone()
        };
        let mut found: Vec<Analysis> = Vec::new();
        let mut excluded: Vec<Point> = Vec::new();
        while found.len() < n {
            let rank = found.len();
            let a = self.go_excluding(limits, &excluded, |info| on_info(rank, info));
            let Some(mv) = a.best_move else { break };
            excluded.push(mv);
            found.push(a);
            if limits
                .stop
                .as_ref()
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
            {
                break;
            }
        }
        found
    }
}
