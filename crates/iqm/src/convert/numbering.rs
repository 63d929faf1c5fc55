//! Finding equal keys among many items, a cache-sized partition at a time.
//!
//! Welding and adjacency compare hundreds of thousands of vertices by keys of 32 or 64
//! bytes. One hash table over all of them misses the cache (and the TLB) on almost every
//! probe once it outgrows the cache, and those misses grow with the model. Instead the
//! keys are hashed in one pass, the items are radix-partitioned by the top bits of their
//! hash into runs of a few thousand (each run keeping item order), and each run is
//! searched with a small table that stays in the cache; a last pass reads the runs' answers
//! back in item order. Every pass but the small tables' streams through memory.
//!
//! Keys are compared through the caller, who rebuilds them from the items, and hashed with
//! foldhash's per-process random seed, so no input can choose its collisions.

use std::hash::{BuildHasher, Hash};

/// Items per partition, about: a partition's table (two slots of 8 bytes per item) then
/// fits the level-1 cache.
const PER_PARTITION: usize = 2048;

/// At most `1 << MAX_BITS` partitions: the scatter writes to that many places at once,
/// which the cache must hold too.
const MAX_BITS: u32 = 10;

/// A table slot holding no item.
const EMPTY: u32 = u32::MAX;

/// For each of `n` items, the first item whose key equals its own (its own index when no
/// earlier item's does). `key(i)` is item `i`'s key; `same(i, j)` tells whether items
/// `i` and `j` have equal keys (it is asked only of items whose keys hash alike).
pub(crate) fn first_equal<K: Hash>(
    n: usize,
    key: impl Fn(usize) -> K,
    same: impl Fn(usize, usize) -> bool,
) -> Vec<u32> {
    assert!(u32::try_from(n).is_ok(), "more items than 32-bit indexes");
    let state = foldhash::fast::RandomState::default();
    let hashes: Vec<u64> = (0..n).map(|i| state.hash_one(key(i))).collect();
    let bits = (n / PER_PARTITION)
        .checked_next_power_of_two()
        .map_or(MAX_BITS, |p| p.trailing_zeros().min(MAX_BITS));
    let partition = |hash: u64| {
        if bits == 0 {
            0
        } else {
            (hash >> (64 - bits)) as usize
        }
    };
    // Each partition's start, then a cursor moving through it.
    let mut cursor = vec![0u32; (1 << bits) + 1];
    for &h in &hashes {
        cursor[partition(h) + 1] += 1;
    }
    for p in 1..cursor.len() {
        cursor[p] += cursor[p - 1];
    }
    let starts = cursor.clone();
    // (item, low half of its hash), partition after partition, items in order in each.
    let mut entries = vec![(0u32, 0u32); n];
    for (i, &h) in hashes.iter().enumerate() {
        let at = &mut cursor[partition(h)];
        entries[*at as usize] = (i as u32, h as u32);
        *at += 1;
    }
    let largest = starts.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0) as usize;
    // (low half of the hash, item) per slot; at most half the slots are used, so every
    // probe ends.
    let mut table = vec![(0u32, EMPTY); (largest * 2).next_power_of_two().max(2)];
    for w in starts.windows(2) {
        let run = &mut entries[w[0] as usize..w[1] as usize];
        let mask = (run.len() * 2).next_power_of_two().max(2) - 1;
        let table = &mut table[..=mask];
        table.fill((0, EMPTY));
        // Each entry's second half becomes the first item with its key.
        for entry in run.iter_mut() {
            let (item, tag) = *entry;
            let mut at = tag as usize & mask;
            entry.1 = loop {
                let (slot_tag, first) = table[at];
                if first == EMPTY {
                    table[at] = (tag, item);
                    break item;
                }
                if slot_tag == tag && same(first as usize, item as usize) {
                    break first;
                }
                at = (at + 1) & mask;
            };
        }
    }
    // Back in item order: item `i`'s answer is the next one of its partition.
    cursor.copy_from_slice(&starts);
    hashes
        .iter()
        .map(|&h| {
            let at = &mut cursor[partition(h)];
            let first = entries[*at as usize].1;
            *at += 1;
            first
        })
        .collect()
}

/// Turns [`first_equal`]'s answer into numbers 0, 1, 2 … given to the distinct keys in the
/// order they are first seen (in place); returns how many keys are distinct.
pub(crate) fn number_first_seen(first: &mut [u32]) -> usize {
    let mut next = 0u32;
    for i in 0..first.len() {
        let f = first[i] as usize;
        // An earlier item's entry already holds its number.
        first[i] = if f == i {
            next += 1;
            next - 1
        } else {
            first[f]
        };
    }
    next as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(keys: &[u64]) -> (Vec<u32>, usize) {
        let mut first = first_equal(keys.len(), |i| keys[i], |a, b| keys[a] == keys[b]);
        for (i, &f) in first.iter().enumerate() {
            assert!(f as usize <= i && keys[f as usize] == keys[i]);
            assert!(keys[..f as usize].iter().all(|&k| k != keys[i]));
        }
        let distinct = number_first_seen(&mut first);
        (first, distinct)
    }

    #[test]
    fn numbers_keys_in_first_seen_order() {
        let (numbers, distinct) = numbers(&[7, 3, 7, 9, 3, 3, 11, 9]);
        assert_eq!(numbers, [0, 1, 0, 2, 1, 1, 3, 2]);
        assert_eq!(distinct, 4);
    }

    #[test]
    fn many_partitions_give_the_same_numbers_as_one_map() {
        // Enough items for many partitions, with repeats near and far.
        for n in [0usize, 1, 2, 3, 5, 100, 4097, 70_000] {
            let keys: Vec<u64> = (0..n as u64)
                .map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 7) % (n as u64 / 3 + 1))
                .collect();
            let mut seen = std::collections::HashMap::new();
            let expected: Vec<u32> = keys
                .iter()
                .map(|k| {
                    let next = seen.len() as u32;
                    *seen.entry(*k).or_insert(next)
                })
                .collect();
            let (got, distinct) = numbers(&keys);
            assert_eq!(got, expected, "{n} items");
            assert_eq!(distinct, seen.len());
        }
    }
}
