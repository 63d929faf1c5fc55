//! Numbering distinct keys in first-seen order with a table of 8-byte slots.
//!
//! Welding and adjacency number hundreds of thousands of vertices by keys of 32 or 64
//! bytes. A `HashMap<key, u32>` stores every key beside its number (36 or 68 bytes a
//! slot, most of a 100 MB model's cache misses); this table stores only a slice of the
//! hash and the number, and compares a candidate's key through the caller, who can
//! rebuild it from the vertex the number stands for. Keys are hashed with foldhash's
//! per-process random seed, as the maps were, so no input can choose its collisions.

use std::hash::{BuildHasher, Hash};

/// Distinct keys numbered 0, 1, 2 … in the order they are first seen.
pub(crate) struct Numbering {
    /// `(hash tag, number)`; number `u32::MAX` marks an empty slot.
    slots: Vec<(u32, u32)>,
    mask: usize,
    len: u32,
    state: foldhash::fast::RandomState,
}

impl Numbering {
    const EMPTY: u32 = u32::MAX;

    /// A table for at most `keys` distinct keys (it never grows: at least a third of its
    /// slots stay empty, so every probe ends).
    pub(crate) fn with_capacity(keys: usize) -> Self {
        let slots = (keys + keys / 2 + 1).next_power_of_two();
        Self {
            slots: vec![(0, Self::EMPTY); slots],
            mask: slots - 1,
            len: 0,
            state: foldhash::fast::RandomState::default(),
        }
    }

    /// The number of `key`: the one it was given when first seen (for which `same`, asked
    /// about an earlier number, answers true), or the next free number, returned with
    /// `true`.
    ///
    /// # Panics
    ///
    /// When more distinct keys come than [`Numbering::with_capacity`] was given.
    pub(crate) fn number<K: Hash>(&mut self, key: &K, same: impl Fn(u32) -> bool) -> (u32, bool) {
        let hash = self.state.hash_one(key);
        let tag = (hash >> 32) as u32;
        let mut at = hash as usize & self.mask;
        loop {
            let (slot_tag, number) = self.slots[at];
            if number == Self::EMPTY {
                assert!(
                    (self.len as usize) < self.mask - self.mask / 3,
                    "more keys than the table was made for"
                );
                let number = self.len;
                self.slots[at] = (tag, number);
                self.len += 1;
                return (number, true);
            }
            if slot_tag == tag && same(number) {
                return (number, false);
            }
            at = (at + 1) & self.mask;
        }
    }

    /// Distinct keys seen so far.
    pub(crate) fn len(&self) -> usize {
        self.len as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_keys_in_first_seen_order() {
        let keys = [7u64, 3, 7, 9, 3, 3, 11, 9];
        let mut table = Numbering::with_capacity(keys.len());
        let mut seen: Vec<u64> = Vec::new();
        let numbers: Vec<(u32, bool)> = keys
            .iter()
            .map(|k| {
                let found = table.number(k, |n| seen[n as usize] == *k);
                if found.1 {
                    seen.push(*k);
                }
                found
            })
            .collect();
        assert_eq!(
            numbers,
            [
                (0, true),
                (1, true),
                (0, false),
                (2, true),
                (1, false),
                (1, false),
                (3, true),
                (2, false)
            ]
        );
        assert_eq!(table.len(), 4);
        assert_eq!(seen, [7, 3, 9, 11]);
    }

    #[test]
    fn a_full_range_of_distinct_keys_fits_the_capacity() {
        for n in [0usize, 1, 2, 3, 5, 100, 4097] {
            let mut table = Numbering::with_capacity(n);
            for k in 0..n as u32 {
                assert_eq!(table.number(&k, |m| m == k), (k, true));
            }
            for k in 0..n as u32 {
                assert_eq!(table.number(&k, |m| m == k), (k, false));
            }
            assert_eq!(table.len(), n);
        }
    }
}
