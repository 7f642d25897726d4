//! wuzi-tune: the training pipeline of the learned evaluation, a tool outside the engine.
//!
//! - [`selfplay`]: node-limited games from balanced openings, every position written as one
//!   line labelled with the game's result (and the search's score);
//! - [`relabel`]: the same positions searched again, deeper, for better scores;
//! - [`data`]: that line format, read back with errors naming the line;
//! - [`fit`]: the Texel fit, a logistic regression of the result on the evaluation's own
//!   terms, started from (and held near) the classic evaluation, in its units.

pub mod data;
pub mod fit;
pub mod policy;
pub mod relabel;
pub mod selfplay;
pub mod swing;
