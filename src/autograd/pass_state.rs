//! The containers of one backward pass, sized for the common tiny graph.
//!
//! Note [Inline pass state]: most passes cover a handful of nodes
//! (`loss.backward()` of a small step, `x.sum().backward()` is two), where the
//! engine's fixed cost is its allocations: a hash map from node to slot, a
//! binary heap for the ready queue, vectors of slots, edges and the discovery
//! stack. These containers keep their first entries inline (no allocation)
//! and move to the heap structures past them, so a pass over a long graph
//! costs what it did: the index switches to a hash map after
//! `INLINE_NODES` nodes (a linear scan over that many keys is cheaper than
//! hashing one), the ready queue to a binary heap after as many ready nodes.

use std::collections::{BinaryHeap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use smallvec::SmallVec;

/// How many nodes the index and the ready queue keep inline.
pub const INLINE_NODES: usize = 8;

/// Node addresses are already well spread; SipHash would cost more than the
/// rest of the bookkeeping per node.
#[derive(Default)]
struct AddrHasher(u64);

impl Hasher for AddrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("AddrHasher hashes usize keys only")
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_right(29);
    }
}

type AddrMap<V> = HashMap<usize, V, BuildHasherDefault<AddrHasher>>;

/// Node key -> slot index. See Note [Inline pass state].
#[derive(Default)]
pub struct SlotIndex {
    small: SmallVec<[(usize, usize); INLINE_NODES]>,
    map: Option<AddrMap<usize>>,
}

impl SlotIndex {
    /// The slot of `key`, if it was inserted.
    #[inline]
    pub fn get(&self, key: usize) -> Option<usize> {
        match &self.map {
            Some(map) => map.get(&key).copied(),
            None => self.small.iter().find(|(k, _)| *k == key).map(|&(_, i)| i),
        }
    }

    /// `Err(known slot)` when `key` is present, else inserts it with `idx`
    /// and returns `Ok(idx)`.
    pub fn insert_new(&mut self, key: usize, idx: usize) -> Result<usize, usize> {
        if let Some(known) = self.get(key) {
            return Err(known);
        }
        match &mut self.map {
            Some(map) => {
                map.insert(key, idx);
            }
            None if self.small.len() < INLINE_NODES => self.small.push((key, idx)),
            None => {
                let mut map: AddrMap<usize> = self.small.drain(..).collect();
                map.insert(key, idx);
                self.map = Some(map);
            }
        }
        Ok(idx)
    }
}

/// The ready queue: the highest `(sequence number, tiebreak)` pops first.
/// See Note [Inline pass state].
pub enum ReadyQueue {
    Inline(SmallVec<[(u64, usize); INLINE_NODES]>),
    Heap(BinaryHeap<(u64, usize)>),
}

impl Default for ReadyQueue {
    fn default() -> Self {
        ReadyQueue::Inline(SmallVec::new())
    }
}

impl ReadyQueue {
    /// Adds a ready entry.
    pub fn push(&mut self, entry: (u64, usize)) {
        match self {
            ReadyQueue::Inline(v) if v.len() < INLINE_NODES => v.push(entry),
            ReadyQueue::Inline(v) => {
                let mut heap: BinaryHeap<_> = v.drain(..).collect();
                heap.push(entry);
                *self = ReadyQueue::Heap(heap);
            }
            ReadyQueue::Heap(h) => h.push(entry),
        }
    }

    /// Removes and returns the highest entry.
    pub fn pop(&mut self) -> Option<(u64, usize)> {
        match self {
            ReadyQueue::Inline(v) => {
                let (at, _) = v.iter().enumerate().max_by_key(|(_, e)| **e)?;
                Some(v.swap_remove(at))
            }
            ReadyQueue::Heap(h) => h.pop(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_switches_to_a_map_and_keeps_every_entry() {
        let mut index = SlotIndex::default();
        for k in 0..(3 * INLINE_NODES) {
            assert_eq!(index.insert_new(1000 + k * 16, k), Ok(k));
        }
        assert!(index.map.is_some());
        for k in 0..(3 * INLINE_NODES) {
            assert_eq!(index.get(1000 + k * 16), Some(k));
            assert_eq!(index.insert_new(1000 + k * 16, 99), Err(k));
        }
        assert_eq!(index.get(7), None);
    }

    #[test]
    fn ready_queue_pops_highest_first_inline_and_on_the_heap() {
        for n in [3, INLINE_NODES, 5 * INLINE_NODES] {
            let mut q = ReadyQueue::default();
            let entries: Vec<(u64, usize)> = (0..n)
                .map(|i| (((i * 7) % 5) as u64, usize::MAX - i))
                .collect();
            for e in &entries {
                q.push(*e);
            }
            let mut sorted = entries.clone();
            sorted.sort_unstable_by(|a, b| b.cmp(a));
            let popped: Vec<_> = std::iter::from_fn(|| q.pop()).collect();
            assert_eq!(popped, sorted, "n = {n}");
        }
    }
}
