//! A transposition table several search threads share without locks (for "Lazy SMP").
//!
//! Each slot is two atomic words: the data (move, score, depth, bound, generation packed in
//! 64 bits) and the key XOR-ed with the data. A reader accepts a slot only when the XOR of the
//! two words gives back its key, so a slot torn by two threads writing at once reads as a miss
//! instead of as another position's data. Moves are stored as 16-bit codes the game chooses
//! (a dense move index, say), which keeps the table free of any game's types.

use crate::score::Score;
use crate::tt::Bound;
use crate::zeroed::{ZeroedMemory, PAGE};
use std::mem::size_of;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// What a probe finds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SharedEntry {
    /// The game's code of the best move, if one was stored.
    pub mv: Option<u16>,
    /// Node-relative (see [`Score::to_node_relative`]).
    pub score: Score,
    pub depth: u32,
    pub bound: Bound,
}

const NO_MOVE: u64 = 0xFFFF;

/// Data word layout: move (16 bits) | score + 2^22 (23 bits) | depth (8) | bound (2) |
/// generation (8).
fn pack(mv: Option<u16>, score: Score, depth: u32, bound: Bound, generation: u8) -> u64 {
    let mv = mv.map_or(NO_MOVE, u64::from);
    let score = (score.value() + (1 << 22)) as u64 & 0x7F_FFFF;
    let bound = match bound {
        Bound::Empty => 0,
        Bound::Exact => 1,
        Bound::Lower => 2,
        Bound::Upper => 3,
    };
    mv | score << 16 | u64::from(depth.min(255)) << 39 | bound << 47 | u64::from(generation) << 49
}

fn unpack(data: u64) -> (SharedEntry, u8) {
    let mv = (data & 0xFFFF) as u16;
    let score = ((data >> 16) & 0x7F_FFFF) as i32 - (1 << 22);
    let bound = match (data >> 47) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => Bound::Empty,
    };
    let entry = SharedEntry {
        mv: (u64::from(mv) != NO_MOVE).then_some(mv),
        score: Score::from_value(score),
        depth: ((data >> 39) & 0xFF) as u32,
        bound,
    };
    (entry, (data >> 49) as u8)
}

/// Buckets of two slots, replaced as the single-threaded table does: the same position, else
/// an empty slot, else an entry from an older search, else the shallower one.
pub struct SharedTable {
    /// The memory; the table proper is its `len` buckets from byte `offset`, where a huge
    /// memory page begins (see [`advise_huge_pages`]) or, in a small table, a bucket.
    memory: ZeroedMemory,
    offset: usize,
    len: usize,
    /// The buckets below this index are mapped into memory and in use; a probe past it
    /// misses and a store past it is dropped, so that no search ever waits for the system to
    /// clear a page (see [`SharedTable::unmapped`]). The buckets past it are all zero.
    usable: AtomicUsize,
    generation: std::sync::atomic::AtomicU8,
}

/// The size of a huge memory page on x86-64 and most 64-bit ARM Linux systems.
const HUGE_PAGE: usize = 2 << 20;

/// Two slots, each a `[check, data]` pair (check = key ^ data). Aligned to their 32 bytes so
/// that no bucket straddles two cache lines: a probe costs one memory access, not two.
#[repr(C, align(32))]
struct Bucket([[AtomicU64; 2]; 2]);

impl SharedTable {
    /// A table of at most `bytes` bytes (a power-of-two number of slots; too few bytes for
    /// one bucket give a table that stores nothing), its memory mapped now, on no search's
    /// clock.
    pub fn with_bytes(bytes: usize) -> SharedTable {
        let table = SharedTable::unmapped(bytes);
        while table.map_next_chunk() {}
        table
    }

    /// As [`SharedTable::with_bytes`], but made at once, none of it in use yet: another
    /// thread opens it to the searches by calling [`SharedTable::map_next_chunk`] until it
    /// says the table is whole, while the searches go on. (Clearing hundreds of megabytes
    /// takes from a tenth of a second to over a second; a huge page is cleared whole when
    /// first written, so a search that probed an unmapped table would stop for milliseconds
    /// at nearly every probe, between two looks at its clock.)
    pub fn unmapped(bytes: usize) -> SharedTable {
        let fit = bytes / size_of::<Bucket>();
        let len = if fit == 0 {
            0
        } else {
            1usize << (usize::BITS - 1 - fit.leading_zeros())
        };
        let table_bytes = len * size_of::<Bucket>();
        // A table of a huge page or more gets one huge page more, so that it can start on a
        // huge page's boundary; a smaller one a bucket more, to start on a bucket's.
        let align = if table_bytes >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            size_of::<Bucket>()
        };
        let memory = ZeroedMemory::new(table_bytes + align);
        let offset = memory.address().next_multiple_of(align) - memory.address();
        if align == HUGE_PAGE {
            advise_huge_pages(memory.address() + offset, table_bytes);
        }
        SharedTable {
            memory,
            offset,
            len,
            usable: AtomicUsize::new(0),
            generation: std::sync::atomic::AtomicU8::new(0),
        }
    }

    fn buckets(&self) -> &[Bucket] {
        debug_assert!(self.offset + self.len * size_of::<Bucket>() <= self.memory.len());
        // SAFETY: `len` buckets from `offset` lie inside `memory` (`unmapped` gave it room
        // for them past the alignment), start on a bucket's alignment, and live as long as
        // `self`. The bytes are zero or were written through these atomics only, and all
        // zeros is a valid bucket (four atomic zeros).
        unsafe {
            let first = self.memory.as_ptr().add(self.offset).cast::<Bucket>();
            std::slice::from_raw_parts(first, self.len)
        }
    }

    /// Maps the next 2 MiB of the table into memory (a write to each of its pages) and opens
    /// them to the searches; false once the whole table is in use.
    pub fn map_next_chunk(&self) -> bool {
        let start = self.usable.load(Ordering::Acquire);
        if start >= self.len {
            return false;
        }
        let end = (start + HUGE_PAGE / size_of::<Bucket>()).min(self.len);
        for bucket in self.buckets()[start..end]
            .iter()
            .step_by(PAGE / size_of::<Bucket>())
        {
            // A compare-exchange of a word with its own value: a write that maps the page
            // and changes nothing, even where another thread has meanwhile opened the chunk
            // and a search stored there. (An idempotent `fetch_or(0)` is compiled to a mere
            // load, which maps the shared zero page and not the table's own.)
            let word = &bucket.0[0][0];
            let value = word.load(Ordering::Relaxed);
            let _ = word.compare_exchange(value, value, Ordering::Relaxed, Ordering::Relaxed);
        }
        let _ = self
            .usable
            .compare_exchange(start, end, Ordering::Release, Ordering::Relaxed);
        true
    }

    pub fn bytes(&self) -> usize {
        self.len * size_of::<Bucket>()
    }

    /// Asks the processor to start loading the bucket of `key`, so that a probe soon after
    /// (once the move that leads there is played) finds it in the cache.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        if let Some(bucket) = self.bucket(key) {
            // SAFETY: SSE, which the prefetch instruction belongs to, is part of every x86_64
            // processor; a prefetch of a valid address neither faults nor changes memory.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    bucket as *const Bucket as *const i8,
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Forgets everything (meant for between searches: a search running meanwhile may keep
    /// some entries). The buckets not yet in use are zero already.
    pub fn clear(&self) {
        let usable = self.usable.load(Ordering::Acquire);
        for slot in self.buckets()[..usable].iter().flat_map(|b| &b.0) {
            slot[0].store(0, Ordering::Relaxed);
            slot[1].store(0, Ordering::Relaxed);
        }
    }

    /// Marks the start of a new search so entries from older ones are replaced first.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The bucket of `key`, if the table has it in use.
    #[inline]
    fn bucket(&self, key: u64) -> Option<&Bucket> {
        // An empty table's mask is all ones, but nothing of it is in use.
        let index = (key >> 1) as usize & self.len.wrapping_sub(1);
        (index < self.usable.load(Ordering::Relaxed)).then(|| &self.buckets()[index])
    }

    fn read(slot: &[AtomicU64; 2]) -> Option<(u64, SharedEntry, u8)> {
        let check = slot[0].load(Ordering::Relaxed);
        let data = slot[1].load(Ordering::Relaxed);
        let (entry, generation) = unpack(data);
        (entry.bound != Bound::Empty).then_some((check ^ data, entry, generation))
    }

    pub fn probe(&self, key: u64) -> Option<SharedEntry> {
        self.bucket(key)?
            .0
            .iter()
            .filter_map(Self::read)
            .find(|&(k, _, _)| k == key)
            .map(|(_, entry, _)| entry)
    }

    pub fn store(&self, key: u64, mv: Option<u16>, score: Score, depth: u32, bound: Bound) {
        let Some(bucket) = self.bucket(key) else {
            return;
        };
        let bucket = &bucket.0;
        let generation = self.generation.load(Ordering::Relaxed);
        let slots = [Self::read(&bucket[0]), Self::read(&bucket[1])];
        let victim = if let Some(i) = slots.iter().position(|s| s.is_some_and(|s| s.0 == key)) {
            i
        } else if let Some(i) = slots.iter().position(Option::is_none) {
            i
        } else {
            let worth = |s: &Option<(u64, SharedEntry, u8)>| {
                s.map_or((false, 0), |(_, e, g)| (g == generation, e.depth))
            };
            usize::from(worth(&slots[0]) > worth(&slots[1]))
        };
        // Keep the move of a position we already knew if this visit found none.
        let mv = match slots[victim] {
            Some((k, old, _)) if k == key => mv.or(old.mv),
            _ => mv,
        };
        let data = pack(mv, score, depth, bound, generation);
        bucket[victim][0].store(key ^ data, Ordering::Relaxed);
        bucket[victim][1].store(data, Ordering::Relaxed);
    }
}

/// Asks Linux to map `bytes` of our memory from `address` with huge pages. A probe lands
/// anywhere in a table of many megabytes; with 4 KiB pages nearly every probe also misses the
/// processor's cache of page addresses (the TLB) and waits for a walk of the page tables. One
/// 2 MiB page covers 512 small ones: middle-game searches of 1 to 3 seconds run 3-9% faster.
fn advise_huge_pages(address: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    // SAFETY: the caller's range lies inside memory it owns; the advice changes how pages are
    // mapped, never their contents, and when the kernel does not take it nothing changes.
    unsafe {
        libc::madvise(address as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (address, bytes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stored_entries_come_back_whole() {
        let t = SharedTable::with_bytes(1 << 12);
        for (i, score) in [
            Score::win_in(3),
            Score::loss_in(40),
            Score::heuristic(-1234),
            Score::DRAW,
        ]
        .into_iter()
        .enumerate()
        {
            let key = 0x1234_5678_9abc_def0 ^ (i as u64) << 40;
            t.store(key, Some(300 + i as u16), score, 7 + i as u32, Bound::Lower);
            let e = t.probe(key).unwrap();
            assert_eq!(
                (e.mv, e.score, e.depth, e.bound),
                (Some(300 + i as u16), score, 7 + i as u32, Bound::Lower)
            );
        }
        assert_eq!(t.probe(42), None);
    }

    #[test]
    fn a_visit_without_a_move_keeps_the_old_move_and_a_torn_slot_is_a_miss() {
        let t = SharedTable::with_bytes(1 << 12);
        t.store(99, Some(5), Score::DRAW, 3, Bound::Exact);
        t.store(99, None, Score::heuristic(10), 4, Bound::Upper);
        assert_eq!(t.probe(99).unwrap().mv, Some(5));
        // Another thread's data word under this key's check word.
        let slot = t
            .bucket(99)
            .unwrap()
            .0
            .iter()
            .find(|s| SharedTable::read(s).is_some_and(|r| r.0 == 99))
            .unwrap();
        slot[1].store(
            pack(Some(1), Score::DRAW, 9, Bound::Exact, 0),
            Ordering::Relaxed,
        );
        assert_eq!(t.probe(99), None);
    }

    #[test]
    fn a_big_table_starts_on_a_huge_page() {
        let t = SharedTable::with_bytes(4 * HUGE_PAGE + 1000);
        assert_eq!(t.bytes(), 4 * HUGE_PAGE);
        assert_eq!(t.buckets().len(), t.len);
        assert_eq!(t.usable.load(Ordering::Relaxed), t.len, "all in use");
        assert_eq!(t.buckets().as_ptr() as usize % HUGE_PAGE, 0);
        t.store(u64::MAX, Some(7), Score::DRAW, 2, Bound::Exact);
        assert_eq!(t.probe(u64::MAX).unwrap().mv, Some(7));
    }

    #[test]
    fn an_unmapped_table_is_used_as_it_is_mapped() {
        let t = SharedTable::unmapped(3 * HUGE_PAGE);
        assert_eq!(t.bytes(), 2 * HUGE_PAGE);
        let keys: Vec<u64> = (0..4000u64)
            .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let store_all = || {
            for &k in &keys {
                t.store(k, Some(k as u16 & 0x7FF), Score::DRAW, 3, Bound::Exact);
            }
        };
        let found = || keys.iter().filter(|&&k| t.probe(k).is_some()).count();
        // Nothing in use: every store is dropped, every probe misses.
        store_all();
        assert_eq!(found(), 0);
        // The first half in use: about half the keys stay.
        assert!(t.map_next_chunk());
        store_all();
        let half = found();
        assert!((1500..2500).contains(&half), "{half}");
        // Mapping the rest keeps what is stored.
        assert!(t.map_next_chunk());
        assert!(!t.map_next_chunk());
        assert_eq!(found(), half);
        store_all();
        assert!(found() > 3900);
        t.clear();
        assert_eq!(found(), 0);
    }

    #[test]
    fn no_bytes_store_nothing() {
        let t = SharedTable::with_bytes(16);
        t.store(1, None, Score::DRAW, 1, Bound::Exact);
        assert_eq!((t.probe(1), t.bytes()), (None, 0));
    }
}
