//! How games are written down: SGF game records (writer only for now).

pub mod sgf;

pub use sgf::{RecordedMove, SgfGame};
