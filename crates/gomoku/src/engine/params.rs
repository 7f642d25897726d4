//! Every tunable constant of the selective search in one place, each with what set it.
//!
//! They are fields rather than constants so that `wuzi match` can play one value against
//! another without a rebuild (`--a "lmr-div=150"`); the defaults are what the matches chose.
//! "match" notes name the run that decided a value; values without one are first guesses
//! awaiting a match.

use crate::pattern::Shape;

/// The selective search's knobs. Depths are in plies, margins in evaluation units.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchParams {
    /// Late-move reductions start at this remaining depth...
    pub lmr_min_depth: i32,
    /// ...for moves from this index in the ordered list (the first ones are searched fully).
    pub lmr_first_move: usize,
    /// Reduction in hundredths of a ply: lmr_base + ln(depth) * ln(index) * 10000 / lmr_divisor.
    pub lmr_base: i32,
    pub lmr_divisor: i32,
    /// Plies more reduction at an expected cut node (and one less at a PV node).
    pub lmr_cut: i32,
    /// Reverse futility: at most this remaining depth, a non-PV node whose static evaluation
    /// beats beta by `rfp_margin` per ply returns at once. (match: 8 over 4, +17 +- 19 at
    /// 10k nodes.)
    pub rfp_max_depth: i32,
    pub rfp_margin: i32,
    /// What such a node returns: its static evaluation (0), or halfway between it and beta
    /// (1), as Stockfish now does: an evaluation far above beta overstates what a node cut
    /// without a search is worth, and the parent's bound takes less on trust. (match: 1 over
    /// 0, in-process on generated openings: +12 +- 10 at 30k nodes over 3,000 games, +14 +- 11
    /// at 100k nodes over 2,000 games; renju, +24 +- 10 at 30k nodes over 3,000 games.)
    pub rfp_halfway: u8,
    /// Move-count pruning: at most this remaining depth, quiet moves after the first
    /// `mcp_base + depth ^ (mcp_power / 100)` are not searched.
    pub mcp_max_depth: i32,
    pub mcp_base: usize,
    pub mcp_power: u32,
    /// Whether a node that is not improving (its static evaluation no better than two plies
    /// before) halves its quiet-move budget (1) or not (0). (match: 1 over 0, +37.5 +- 23.6
    /// at 10k nodes.)
    pub mcp_improving: u8,
    /// Whether reverse futility takes a ply off the margin's depth at an improving node.
    /// (match: 1 over 0, +4.3 +- 27.1 at 10k nodes: not worth it.)
    pub rfp_improving: u8,
    /// Aspiration windows from this depth, with this initial half-width.
    pub aspiration_depth: u32,
    pub aspiration_delta: i32,
    /// Percent of the time aimed for after which the main search stops deepening once its
    /// best move has held for `stable_iterations` iterations.
    pub soft_time_share: u32,
    pub stable_iterations: u32,
    /// On a game clock, each move gets the time left divided by the moves of ours still to
    /// come, counted as half the empty points but at most this many (and at least 8): the
    /// smaller, the more of the clock the early moves take, where games are decided.
    /// (match at 4 s a game: 20 over 30, +50 +- 15; 12 over 20, +32 +- 15; 8 over 12,
    /// -7 +- 15.)
    pub time_horizon: u32,
    /// On a game clock, how far past its share of the clock (in percent of it) a move may run
    /// while its best reply is still unclear; 100: never past the share.
    /// (match: 250 with `unsettled_time_share` 150 over 100 and 100, +37 +- 15 at 2 s a game,
    /// +35 +- 16 at 4 s; 400 with 200 over 250 with 150, -6 +- 18 after 556 games at 2 s.)
    pub time_extension: u32,
    /// Percent of the time aimed for after which an unsettled search (best move held for
    /// fewer than `stable_iterations` iterations) starts no new iteration; only reachable
    /// when `time_extension` lets the hard limit lie beyond the aim.
    pub unsettled_time_share: u32,
    /// Plies added to the search of the forced reply to a five (0 or 1).
    pub block_extension: i32,
    /// Fours (and the forced blocks) searched past the leaves, at most this many plies of
    /// them (0: the leaves return the static evaluation).
    pub quiescence_plies: u32,
    /// A move "stops" the opponent (and so is never reduced, nor pruned deeper than
    /// `mcp_important_depth`) when the opponent's
    /// shape on its point is at least this (as `Shape as u8`: 7 = a four, so the move stops
    /// a four or an open three; 6 = an open three, so it also stops a two from growing).
    pub stop_shape: u8,
    /// Whether a node where the opponent has a four-three (or two fours) to make searches only
    /// the moves that stop it and its own fours (1), or every candidate (0).
    pub double_threat_defence: u8,
    /// Internal iterative reduction: a node at least this deep with no table move is
    /// searched one ply shallower (0: never).
    pub iir_depth: i32,
    /// Razoring: at most this remaining depth (0: never), a non-PV node whose static
    /// evaluation is `razor_margin` per ply below alpha returns at once if its fours alone (the
    /// quiescence search) cannot lift it to alpha, and is searched normally otherwise. (match: 3
    /// over 0, +11 +- 23 at 10k nodes; with pv-raise and rfp-depth 8, +18 +- 27 at 10k and
    /// +17 +- 25 at 40k nodes.)
    pub razor_max_depth: i32,
    pub razor_margin: i32,
    /// In a PV node with more than 2 plies left and fewer than this (0: never), once a move raised alpha
    /// the remaining moves are searched a ply shallower: they must beat a proven line.
    /// (match: 12 over 0, +12 +- 24 at 10k nodes.)
    pub pv_raise_max_depth: i32,
    /// Singular extensions from this remaining depth (0: never): when the table's move
    /// (a lower bound, searched nearly as deep) is better than every other move by
    /// `se_margin` per ply, it is searched a ply deeper; when another move also beats beta,
    /// the node is cut (multicut); when the table's move alone beats beta, it is searched a
    /// ply shallower. (match: depth 8 over 0, +34.0 +- 25.0 at 10k nodes; margin 8 against
    /// 2: -6.9 +- 28.1.)
    pub se_min_depth: i32,
    pub se_margin: i32,
    /// Whether late moves are reduced, by a ply less than quiet ones, also where the opponent
    /// threatens (a four or an open three: every move there blocks it or makes a four;
    /// `lmr_threatened`) and where they make or stop a four or an open three
    /// (`lmr_important`). Off, as issue 11 asks: both with `lmr-div=70` reach depth 18.5
    /// instead of 15.5 on the middle games at 600k nodes but did not play better (match:
    /// +18 +- 24 at 30k nodes, -10 +- 20 at 200 ms; each alone +7 +- 22 and +11 +- 23 at
    /// 30k nodes).
    pub lmr_threatened: u8,
    pub lmr_important: u8,
    /// At most this remaining depth (0: never), move-count pruning also leaves out the late
    /// moves that make an open three or stop a closed three; a move that makes a four, and
    /// the answers to an opponent's four-three to come, are not pruned as such (an answer
    /// that makes or stops nothing important still falls under ordinary move-count pruning). Near the leaves
    /// a quiet open three is mostly a static question the evaluation answers. (match: 2 over
    /// 0, +11 +- 17 at 10k and +23 +- 17 at 30k nodes, 1,252 games each on
    /// `docs/openings/freestyle-15-balanced-626.txt`; +12 +- 23 at 200 ms a move, 400 games.)
    pub mcp_important_depth: i32,
    /// History: a move that cut at a quiet node gains (and the moves tried before it lose)
    /// `history_bonus` times the depth squared, and the candidates' order adds its history
    /// divided by this (0: no history). (match: 64 over 0, SPRT elo0=0 elo1=40 accepted after
    /// 350 games at 200 ms a move, +37 +- 29.)
    pub history_divisor: i32,
    pub history_bonus: i32,
    /// The candidates kept at the root, where the engine's width (12) would leave out moves
    /// that are then never searched at any depth; 0 keeps the engine's width. The root is
    /// one node and its late moves are reduced, so keeping more costs little. (Found on a
    /// game lost to Rapfi: the winning move ranked 13th and was missed at depth 17. Match,
    /// 200 ms a move: 24 against 12, SPRT H1 after 70 games, +60 +- 51, then 400 games
    /// +17 +- 26; again on a 2 s game clock, 12 against 24, -41 +- 20 over 602 games. Not
    /// taken: every candidate at the root, H0 after 310 games, +7 +- 26; 24
    /// at every PV node, H0 after 254 games, -4 +- 33; 24 at the first reply too, -34 +- 17
    /// at 10k nodes.)
    pub root_width: usize,
    /// Whether a node below the root whose side to move has no four to make, and no move
    /// that stops every open four the opponent's open threes could make, returns a loss in
    /// four plies at once (1) instead of searching every nearby move to see each one lose
    /// (0). Not where the opponent is renju Black, whose open-four points may be forbidden.
    /// (match: 1 over 0, in-process on generated openings, +45 +- 10 at 30k nodes over 3,000
    /// games, +46 +- 15 at 100k nodes over 1,000; at 200 ms a move, +46 +- 26 over 400
    /// games; renju, +21 +- 8 at 30k nodes; 6.5% fewer instructions to depth
    /// 14 on the middle games. Not taken: the same test in the quiescence search too, +5 +-
    /// 9 at 30k nodes; the same shortcut against a four-three to come that nothing stops (a
    /// loss in six), +4 +- 3 at 30k nodes: it seldom applies; under renju, Black left only
    /// forbidden blocks of a five (a loss in two), +4 +- 6 at 30k nodes.)
    pub lost_to_three: u8,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            lmr_min_depth: 3,
            lmr_first_move: 2,
            lmr_base: 50,
            lmr_divisor: 200,
            lmr_cut: 1,
            rfp_max_depth: 8,
            rfp_margin: 40,
            rfp_halfway: 1,
            mcp_max_depth: 4,
            mcp_base: 2,
            mcp_power: 200,
            mcp_improving: 1,
            rfp_improving: 0,
            aspiration_depth: 5,
            aspiration_delta: 30,
            soft_time_share: 80,
            stable_iterations: 3,
            time_horizon: 12,
            time_extension: 250,
            unsettled_time_share: 150,
            block_extension: 1,
            quiescence_plies: 8,
            stop_shape: Shape::Four as u8,
            double_threat_defence: 1,
            iir_depth: 5,
            razor_max_depth: 3,
            razor_margin: 60,
            pv_raise_max_depth: 12,
            se_min_depth: 8,
            se_margin: 2,
            lmr_threatened: 0,
            lmr_important: 0,
            mcp_important_depth: 2,
            history_divisor: 64,
            history_bonus: 16,
            root_width: 24,
            lost_to_three: 1,
        }
    }
}

impl SearchParams {
    /// The setting names `set` takes, for help texts.
    pub const KEYS: &'static [&'static str] = &[
        "lmr-depth",
        "lmr-first",
        "lmr-base",
        "lmr-div",
        "lmr-cut",
        "rfp-depth",
        "rfp-margin",
        "rfp-halfway",
        "mcp-depth",
        "mcp-base",
        "mcp-power",
        "mcp-improving",
        "rfp-improving",
        "asp-depth",
        "asp-delta",
        "soft",
        "stable",
        "horizon",
        "extend",
        "unsettled",
        "block-ext",
        "qs",
        "stop-shape",
        "dt-defence",
        "iir-depth",
        "razor-depth",
        "razor-margin",
        "pv-raise",
        "se-depth",
        "se-margin",
        "lmr-threat",
        "lmr-important",
        "mcp-important",
        "hist-div",
        "hist-bonus",
        "root-width",
        "lost-three",
    ];

    /// Sets one knob by its name in [`SearchParams::KEYS`]; `Ok(false)` if the name is not
    /// one of them.
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        // The value is read once the key is known: `foo=bar` is an unknown setting first.
        let small = |lo: i64, hi: i64| {
            let n: i64 = value
                .parse()
                .map_err(|_| format!("{key}: \"{value}\" is not a whole number"))?;
            if (lo..=hi).contains(&n) {
                Ok(n)
            } else {
                Err(format!("{key}: {n} is not within {lo}..={hi}"))
            }
        };
        match key {
            "lmr-depth" => self.lmr_min_depth = small(1, 64)? as i32,
            "lmr-first" => self.lmr_first_move = small(1, 64)? as usize,
            "lmr-base" => self.lmr_base = small(-500, 500)? as i32,
            "lmr-div" => self.lmr_divisor = small(10, 10_000)? as i32,
            "lmr-cut" => self.lmr_cut = small(0, 8)? as i32,
            "rfp-depth" => self.rfp_max_depth = small(0, 64)? as i32,
            "rfp-margin" => self.rfp_margin = small(0, 100_000)? as i32,
            "rfp-halfway" => self.rfp_halfway = small(0, 1)? as u8,
            "mcp-depth" => self.mcp_max_depth = small(0, 64)? as i32,
            "mcp-base" => self.mcp_base = small(0, 1000)? as usize,
            "mcp-power" => self.mcp_power = small(0, 400)? as u32,
            "mcp-improving" => self.mcp_improving = small(0, 1)? as u8,
            "rfp-improving" => self.rfp_improving = small(0, 1)? as u8,
            "asp-depth" => self.aspiration_depth = small(1, 1000)? as u32,
            "asp-delta" => self.aspiration_delta = small(1, 100_000)? as i32,
            "soft" => self.soft_time_share = small(0, 100)? as u32,
            "stable" => self.stable_iterations = small(0, 100)? as u32,
            "horizon" => self.time_horizon = small(8, 200)? as u32,
            "extend" => self.time_extension = small(100, 400)? as u32,
            "unsettled" => self.unsettled_time_share = small(50, 400)? as u32,
            "block-ext" => self.block_extension = small(0, 1)? as i32,
            "qs" => self.quiescence_plies = small(0, 64)? as u32,
            "stop-shape" => self.stop_shape = small(1, 10)? as u8,
            "dt-defence" => self.double_threat_defence = small(0, 1)? as u8,
            "iir-depth" => self.iir_depth = small(0, 64)? as i32,
            "razor-depth" => self.razor_max_depth = small(0, 64)? as i32,
            "razor-margin" => self.razor_margin = small(0, 100_000)? as i32,
            "pv-raise" => self.pv_raise_max_depth = small(0, 64)? as i32,
            "se-depth" => self.se_min_depth = small(0, 64)? as i32,
            "se-margin" => self.se_margin = small(0, 10_000)? as i32,
            "lmr-threat" => self.lmr_threatened = small(0, 1)? as u8,
            "lmr-important" => self.lmr_important = small(0, 1)? as u8,
            "mcp-important" => self.mcp_important_depth = small(0, 64)? as i32,
            "hist-div" => self.history_divisor = small(0, 100_000)? as i32,
            "hist-bonus" => self.history_bonus = small(0, 10_000)? as i32,
            "root-width" => self.root_width = small(0, 400)? as usize,
            "lost-three" => self.lost_to_three = small(0, 1)? as u8,
            _ => return Ok(false),
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::SearchParams;

    #[test]
    fn every_key_sets_its_knob_and_bad_values_are_refused() {
        for key in SearchParams::KEYS {
            let mut p = SearchParams::default();
            let value = match *key {
                "block-ext" => "0",
                "lmr-div" => "77",
                "stop-shape" => "6",
                "dt-defence" => "0",
                "iir-depth" => "7",
                "horizon" => "25",
                "extend" => "300",
                "unsettled" => "200",
                "mcp-improving" => "0",
                "rfp-improving" => "1",
                "lmr-threat" | "lmr-important" => "1",
                "rfp-halfway" | "lost-three" => "0",
                _ => "7",
            };
            assert_eq!(p.set(key, value), Ok(true), "{key}");
            assert_ne!(p, SearchParams::default(), "{key}");
            assert!(p.set(key, "x").is_err());
        }
        assert_eq!(SearchParams::default().set("speed", "3"), Ok(false));
        assert!(SearchParams::default().set("soft", "101").is_err());
    }
}
