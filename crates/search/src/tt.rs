//! A transposition table: remembers what earlier visits learned about a position, keyed by its
//! Zobrist hash, in a fixed number of bytes.

use crate::score::Score;
use std::mem::size_of;

/// How a stored score relates to the true value of the position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The slot holds nothing.
    Empty,
    Exact,
    /// The true value is at least the score (the search failed high).
    Lower,
    /// The true value is at most the score (the search failed low).
    Upper,
}

impl Bound {
    /// The bound a search of the window (`alpha`, `beta`) that returned `best` proves.
    pub fn of(best: Score, alpha: Score, beta: Score) -> Bound {
        if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// Whether a stored `score` with this bound settles a search of the window
    /// (`alpha`, `beta`): exact, or a bound on the side of the window it was stored for.
    pub fn settles(self, score: Score, alpha: Score, beta: Score) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => score >= beta,
            Bound::Upper => score <= alpha,
            Bound::Empty => false,
        }
    }
}

#[derive(Copy, Clone, Debug)]
pub struct Entry<M> {
    pub key: u64,
    pub mv: Option<M>,
    /// Node-relative (see [`Score::to_node_relative`]).
    pub score: Score,
    pub depth: u32,
    pub bound: Bound,
    generation: u8,
}

/// Buckets of two slots: a new entry replaces the same position, else an empty slot, else the
/// slot from an older search, else the shallower one.
pub struct TranspositionTable<M> {
    slots: Vec<Entry<M>>,
    generation: u8,
    /// Whether anything was stored since the last clear (a fresh table needs no clearing, and
    /// clearing one would touch every page of its memory).
    dirty: bool,
}

impl<M: Copy> TranspositionTable<M> {
    const EMPTY_KEY: u64 = 0;

    /// A table that uses at most `bytes` bytes (rounded down to a power-of-two number of
    /// entries; too few bytes for one bucket give a table that stores nothing).
    pub fn with_bytes(bytes: usize) -> Self {
        let fit = bytes / size_of::<Entry<M>>();
        let len = if fit < 2 {
            0
        } else {
            1usize << (usize::BITS - 1 - fit.leading_zeros())
        };
        let empty = Entry {
            key: Self::EMPTY_KEY,
            mv: None,
            score: Score::DRAW,
            depth: 0,
            bound: Bound::Empty,
            generation: 0,
        };
        TranspositionTable {
            slots: vec![empty; len],
            dirty: false,
            generation: 0,
        }
    }

    /// Bytes actually held by the entries.
    pub fn bytes(&self) -> usize {
        self.slots.len() * size_of::<Entry<M>>()
    }

    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    pub fn clear(&mut self) {
        if !std::mem::take(&mut self.dirty) {
            return;
        }
        for slot in &mut self.slots {
            slot.bound = Bound::Empty;
            slot.key = Self::EMPTY_KEY;
        }
        self.generation = 0;
    }

    /// Marks the start of a new search so entries from older ones are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1) & !1
    }

    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        if self.slots.is_empty() {
            return None;
        }
        let first = self.bucket(key);
        self.slots[first..first + 2]
            .iter()
            .find(|entry| entry.bound != Bound::Empty && entry.key == key)
    }

    pub fn store(&mut self, key: u64, mv: Option<M>, score: Score, depth: u32, bound: Bound) {
        if self.slots.is_empty() {
            return;
        }
        self.dirty = true;
        let first = self.bucket(key);
        let generation = self.generation;
        let bucket = &mut self.slots[first..first + 2];
        let victim = if let Some(i) = bucket
            .iter()
            .position(|e| e.key == key && e.bound != Bound::Empty)
        {
            i
        } else if let Some(i) = bucket.iter().position(|e| e.bound == Bound::Empty) {
            i
        } else {
            let worth = |e: &Entry<M>| (e.generation == generation, e.depth);
            if worth(&bucket[0]) <= worth(&bucket[1]) {
                0
            } else {
                1
            }
        };
        let slot = &mut bucket[victim];
        // Keep the move of a position we already knew if this visit found none.
        let mv = if slot.key == key { mv.or(slot.mv) } else { mv };
        *slot = Entry {
            key,
            mv,
            score,
            depth,
            bound,
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_within_its_bytes() {
        for bytes in [0, 10, 1000, 1 << 20, 3_000_000] {
            let table = TranspositionTable::<u16>::with_bytes(bytes);
            assert!(table.bytes() <= bytes, "{bytes}");
            assert!(table.capacity() == 0 || table.capacity().is_power_of_two());
        }
        assert!(TranspositionTable::<u16>::with_bytes(1 << 20).bytes() > (1 << 19));
    }

    #[test]
    fn finds_what_it_stored_and_replaces_old_entries() {
        let mut table = TranspositionTable::<u16>::with_bytes(1 << 12);
        table.store(7, Some(3), Score::heuristic(5), 4, Bound::Exact);
        let entry = table.probe(7).unwrap();
        assert_eq!(
            (entry.mv, entry.score, entry.depth, entry.bound),
            (Some(3), Score::heuristic(5), 4, Bound::Exact)
        );
        assert!(table.probe(8).is_none());
        // A revisit without a move keeps the old move.
        table.store(7, None, Score::heuristic(1), 6, Bound::Upper);
        assert_eq!(table.probe(7).unwrap().mv, Some(3));
        // Three keys in one bucket: the shallowest of the current search goes.
        let stride = table.capacity() as u64;
        table.store(7 + stride, Some(1), Score::DRAW, 9, Bound::Lower);
        table.store(7 + 2 * stride, Some(2), Score::DRAW, 1, Bound::Lower);
        assert!(
            table.probe(7).is_none(),
            "depth 6 was the shallower of the bucket"
        );
        assert!(table.probe(7 + stride).is_some());
        assert!(table.probe(7 + 2 * stride).is_some());
        table.clear();
        assert!(table.probe(7).is_none());
    }

    #[test]
    fn an_empty_table_is_harmless() {
        let mut table = TranspositionTable::<u16>::with_bytes(0);
        table.store(1, Some(1), Score::DRAW, 1, Bound::Exact);
        assert!(table.probe(1).is_none());
    }
}
