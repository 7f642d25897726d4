//! What an engine is made with: which parts are switched on, its constants, its memory and
//! the evaluation tables it plays.

use super::SearchParams;
use crate::eval::{embedded_weights, EvalKind, ShapeFactor, Weights};
use std::sync::Arc;
use wuzi_search::SearchOptions;

/// The most search threads an engine runs.
pub const MAX_THREADS: usize = 64;
/// The most table memory a user may ask for, in MiB: the front ends refuse a larger request
/// with a message, and [`crate::Engine::new`] holds `table_bytes` to it (an allocation
/// that fails aborts the program). What fits below it depends on the machine.
pub const MAX_HASH_MIB: usize = 4096;

/// Which parts of the engine are switched on, and how much memory its tables get.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineOptions {
    /// Bytes for all tables together (main search, root threat solver, leaf threat solver).
    pub table_bytes: usize,
    pub search: SearchOptions,
    /// Look for a VCF at the root before searching.
    pub root_vcf: bool,
    /// Look for a VCT at the root before searching.
    pub root_vct: bool,
    /// The root VCT's quiet threats: moves that prepare a VCF of at most this many moves
    /// count as threats too ([`crate::threat::ThreatLimits::quiet_vcf`]; 0: fours and open threes only).
    pub root_vct_quiet: u32,
    /// With `search=generic` only: prove VCF wins at the generic searcher's leaves (the
    /// selective search, the default, never reads it).
    pub leaf_vcf: bool,
    /// Moves searched per position where nothing forces the reply (0: every move near a
    /// stone).
    pub max_candidates: usize,
    /// After the search, make sure the chosen move leaves the opponent no VCF; if it does,
    /// take the first candidate that does not.
    pub root_defence: bool,
    /// The selective Gomoku search (reductions, pruning, extensions); off, the generic core's
    /// searcher (the `search` options above apply to that one only).
    pub selective: bool,
    /// The selective search's constants.
    pub params: SearchParams,
    /// Search threads (Lazy SMP: they share one table); 1 keeps depth- and node-limited
    /// searches deterministic.
    pub threads: usize,
    /// The evaluation the searches call (`eval=learned|classic` in `wuzi match`).
    pub eval: EvalKind,
    /// How quiet candidates are ordered (`order=learned|classic`).
    pub order: EvalKind,
    /// Tables to use instead of the embedded ones on boards of their rule (`weights=FILE`
    /// in `wuzi match`, to play freshly fitted weights without a rebuild).
    pub weights: Option<Arc<Weights>>,
    /// Factors on those tables (or the embedded ones) by role and shape group, applied when
    /// an engine is made (`mover:four=1.05` in `wuzi match`: how `wuzi spsa` tunes them).
    pub shape_factors: Vec<ShapeFactor>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            table_bytes: 64 << 20,
            // The candidates come ordered by their shapes; lifting killer moves over that
            // order costs nodes here (20% more to the same depth on the bench positions).
            search: SearchOptions {
                killers: false,
                history: false,
                ..SearchOptions::default()
            },
            root_vcf: true,
            root_vct: true,
            root_vct_quiet: 0,
            leaf_vcf: false,
            max_candidates: 12,
            root_defence: true,
            selective: true,
            params: SearchParams::default(),
            threads: 1,
            eval: EvalKind::default(),
            // The learned policy (with its last-move, nearby-stone and threat terms) ordered
            // better than the hand weights: +51 +- 39 at 10k nodes in freestyle, +24 +- 42
            // under renju (200 games each).
            order: EvalKind::Learned,
            weights: None,
            shape_factors: Vec::new(),
        }
    }
}

impl EngineOptions {
    /// An error when `weights` are set for another rule than `rule` (they would be ignored).
    pub fn check_rule(&self, rule: crate::rules::Rule) -> Result<(), String> {
        match &self.weights {
            Some(w) if w.rule != rule => Err(format!(
                "the weights are for {}, the game is {}",
                w.rule.name(),
                rule.name()
            )),
            _ => Ok(()),
        }
    }

    /// Sets a shape group's factor (replacing an earlier one for the same group).
    pub fn set_shape_factor(&mut self, factor: ShapeFactor) {
        self.shape_factors.retain(|f| !f.same_group(&factor));
        self.shape_factors.push(factor);
    }

    /// The tables an engine with these options plays on a board of `rule`: `weights` (if for
    /// this rule) or the embedded ones, times the shape factors; `None` when that is just
    /// the board's own embedded tables.
    pub fn weights_for(&self, rule: crate::rules::Rule) -> Option<Arc<Weights>> {
        let base = self.weights.clone().filter(|w| w.rule == rule);
        if self.shape_factors.is_empty() {
            return base;
        }
        let mut scaled = Weights::clone(&base.unwrap_or_else(|| embedded_weights(rule)));
        ShapeFactor::apply_all(&self.shape_factors, &mut scaled);
        Some(Arc::new(scaled))
    }
}
