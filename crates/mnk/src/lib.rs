//! wuzi-mnk: m,n,k-games, where `k` in a row on a `width` x `height` board wins.
//! Tic-tac-toe is 3,3,3; Gomoku is 15,15,5 with extra rules (see wuzi-gomoku).
//!
//! [`Mnk`] implements the search core's [`wuzi_search::Game`], including the hooks that let
//! the full searcher solve small boards exactly in seconds: immediate wins and forced blocks,
//! symmetric table keys, and the number of plies left.

mod board;
mod game;
mod perft;
mod symmetry;

pub use board::{Cell, Mnk, MnkError, MAX_SIDE};
pub use perft::{count_tree, TreeCounts};
pub use symmetry::board_symmetries;
