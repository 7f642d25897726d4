//! The threat solver's transposition table: per position, the fewest attacker moves a win is
//! proven with (and its move), and the most that are proven not to win; or, for the
//! proof-number search, the position's proof and disproof numbers (a tag bit tells the two
//! kinds of entry apart, and their keys are salted apart).

use super::{ThreatKind, ThreatSolver};
use crate::board::Board;
use crate::notation::Point;

/// Table entries per bucket (one 64-byte cache line).
pub(super) const BUCKET: usize = 4;

// A table entry is `[key, data]`; `data` packs what is known about the position.
/// No win exists within this many attacker moves (bits 0..8).
const NO_WIN_SHIFT: u32 = 0;
/// A win with at most this many attacker moves is proven (bits 8..16; 0: none known).
const WIN_SHIFT: u32 = 8;
/// The winning move's index plus one (bits 16..32).
const BEST_SHIFT: u32 = 16;
/// No win at all: the search below was never cut short by the move limit.
const FINAL_BIT: u64 = 1 << 32;

/// The 8-bit field of an entry's data at `shift`.
fn field(data: u64, shift: u32) -> u32 {
    (data >> shift) as u32 & 0xFF
}

/// The winning move an entry keeps, if any.
pub(super) fn best_move(data: u64) -> Option<Point> {
    let v = (data >> BEST_SHIFT) as usize & 0xFFFF;
    v.checked_sub(1).and_then(Point::from_index)
}

/// Whether an entry says no win exists at all.
pub(super) fn never_wins(data: u64) -> bool {
    data & FINAL_BIT != 0
}

/// The most attacker moves an entry says cannot win.
pub(super) fn no_win_within(data: u64) -> u32 {
    field(data, NO_WIN_SHIFT)
}

/// Marks a proof-number entry: proof number (bits 0..22), disproof number (22..44), the
/// winning move's index plus one (44..53), plies to the end along the proof (53..61), and
/// whether its children were searched (bit 61).
const PROOF_TAG: u64 = 1 << 63;
const SEARCHED_BIT: u64 = 1 << 61;
const NUMBER_BITS: u32 = 22;
/// Proof and disproof numbers saturate below this; it marks a settled position.
pub(super) const INFINITE: u32 = (1 << NUMBER_BITS) - 1;

/// What the proof-number search knows of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) struct ProofEntry {
    /// Proof number: how many more leaves at least must be proven to prove the attacker's
    /// win (0: proven; [`INFINITE`]: disproven).
    pub pn: u32,
    /// Disproof number, the same for the defender (0: disproven).
    pub dn: u32,
    /// The attacker's winning move, at a proven attacker node.
    pub best: Option<Point>,
    /// Plies to the end along the proof, when proven (0 where not known).
    pub plies: u32,
    /// Whether the numbers come from a search of the children, rather than from the
    /// position alone (which is cheap to settle again).
    pub searched: bool,
}

impl ProofEntry {
    /// A position never searched: one leaf to prove either way.
    pub const UNKNOWN: ProofEntry = ProofEntry {
        pn: 1,
        dn: 1,
        best: None,
        plies: 0,
        searched: false,
    };

    fn pack(self) -> u64 {
        let mask = u64::from(INFINITE);
        let best = self.best.map_or(0, |p| p.index() as u64 + 1);
        PROOF_TAG
            | (u64::from(self.pn) & mask)
            | (u64::from(self.dn) & mask) << NUMBER_BITS
            | (best & 0x1FF) << 44
            | u64::from(self.plies.min(255)) << 53
            | if self.searched { SEARCHED_BIT } else { 0 }
    }

    fn unpack(data: u64) -> ProofEntry {
        let mask = u64::from(INFINITE);
        ProofEntry {
            pn: (data & mask) as u32,
            dn: (data >> NUMBER_BITS & mask) as u32,
            best: ((data >> 44 & 0x1FF) as usize)
                .checked_sub(1)
                .and_then(Point::from_index),
            plies: (data >> 53 & 0xFF) as u32,
            searched: data & SEARCHED_BIT != 0,
        }
    }
}

/// How much an entry is worth keeping: the depth its result holds for, or for a
/// proof-number entry how much work its numbers stand for: a result settled by a search
/// most, then numbers by their size, and least a position settled without a search.
fn entry_depth(data: u64) -> u32 {
    if data & PROOF_TAG != 0 {
        let e = ProofEntry::unpack(data);
        match (e.pn == 0 || e.dn == 0, e.searched) {
            (true, true) => u32::MAX,
            (true, false) => 0,
            (false, _) => u32::BITS - (e.pn + e.dn).leading_zeros(),
        }
    } else if data & FINAL_BIT != 0 {
        u32::MAX
    } else {
        field(data, NO_WIN_SHIFT).max(field(data, WIN_SHIFT))
    }
}

impl ThreatSolver {
    pub(super) fn bucket(&self, key: u64) -> usize {
        (key as usize & (self.table.len() / BUCKET - 1)) * BUCKET
    }

    /// What the table knows about `key` (0: nothing).
    pub(super) fn probe(&self, key: u64) -> u64 {
        let data = self.probe_raw(key);
        if data & PROOF_TAG != 0 {
            0
        } else {
            data
        }
    }

    /// The data stored for `key`, of either kind (0: nothing).
    fn probe_raw(&self, key: u64) -> u64 {
        if self.table.is_empty() {
            return 0;
        }
        let b = self.bucket(key);
        self.table[b..b + BUCKET]
            .iter()
            .find(|e| e[0] == key)
            .map_or(0, |e| e[1])
    }

    /// What the proof-number search knows of `key`.
    pub(super) fn probe_proof(&self, key: u64) -> ProofEntry {
        let data = self.probe_raw(key);
        if data & PROOF_TAG == 0 {
            ProofEntry::UNKNOWN
        } else {
            ProofEntry::unpack(data)
        }
    }

    /// Records a proof-number entry for `key`.
    pub(super) fn store_proof(&mut self, key: u64, entry: ProofEntry) {
        if self.table.is_empty() {
            return;
        }
        let i = self.slot(key);
        self.table[i] = [key, entry.pack()];
    }

    /// The index of `key`'s entry, or of the one it replaces (the shallowest of the bucket,
    /// the first of equals: deterministic), then cleared to `[key, 0]`.
    fn slot(&mut self, key: u64) -> usize {
        let b = self.bucket(key);
        let bucket = &mut self.table[b..b + BUCKET];
        match bucket.iter().position(|e| e[0] == key) {
            Some(i) => b + i,
            None => {
                let i = (0..BUCKET)
                    .min_by_key(|&i| entry_depth(bucket[i][1]))
                    .expect("a bucket has entries");
                bucket[i] = [key, 0];
                b + i
            }
        }
    }

    /// Records the result of an attacker node searched with `attacks` moves to go: its
    /// winning move, or no win (`final`: for any number of moves).
    pub(super) fn remember(&mut self, key: u64, attacks: u32, win: Option<Point>, final_: bool) {
        if self.table.is_empty() {
            return;
        }
        let i = self.slot(key);
        let mut data = self.table[i][1];
        if data & PROOF_TAG != 0 {
            data = 0;
        }
        let attacks = attacks.min(255);
        match win {
            Some(p) => {
                let known = field(data, WIN_SHIFT);
                if known == 0 || attacks <= known {
                    data &= !(0xFF << WIN_SHIFT | 0xFFFF << BEST_SHIFT);
                    data |= (attacks as u64) << WIN_SHIFT | (p.index() as u64 + 1) << BEST_SHIFT;
                }
            }
            None => {
                if attacks > field(data, NO_WIN_SHIFT) {
                    data = data & !(0xFF << NO_WIN_SHIFT) | (attacks as u64) << NO_WIN_SHIFT;
                }
                if final_ {
                    data |= FINAL_BIT;
                }
            }
        }
        self.table[i][1] = data;
    }
}

/// A salt for table keys per kind (with its quiet-threat limit), rule and board size.
pub(super) fn salt(kind: ThreatKind, quiet_vcf: u32, board: &Board) -> u64 {
    let v = (quiet_vcf as u64) << 24
        | (kind as u64) << 16
        | (board.rule() as u64) << 8
        | board.size() as u64;
    // splitmix64 finaliser: a well-mixed constant per combination.
    let mut z = v.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
