//! Which overload a packet call picks, remembered per argument signature.
//!
//! Note [Overload cache]: calling a packet (`ops.aten.add(a, b)`) tries its
//! overloads in order, first without conversions, then with them, and every
//! overload that does not fit fails by building an error. The outcome depends
//! only on the kinds of the arguments (Tensor, int, float, bool, None, a
//! list's element kinds, ..., and the keyword names), except where a value is
//! of the right kind but out of range; the caller encodes the kinds as a byte
//! string (the signature) and asks this cache first. A resolution during which
//! some overload failed on a value rather than a kind is not cached, so a hit
//! never skips an overload that could have matched. A hit is still bound as
//! usual: a value the chosen overload refuses falls back to full resolution.
//!
//! Entries are tagged with the generation of the overload list they were
//! computed on (`OverloadSet::generation`, unique for the process): defining
//! or removing an overload publishes a new list, and every older entry is
//! void. Entries hold plain data only, so the cache's lock is a leaf lock that
//! runs no foreign code (Note [No foreign code under a lock]).

use parking_lot::Mutex;

/// Bound on cached signatures per packet: call sites use a handful; past it
/// the oldest entry is replaced (a miss only costs a full resolution).
pub const MAX_SIGNATURES: usize = 32;

/// The overload a signature resolved to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// Index in the overload list of the entry's generation.
    pub index: u32,
    /// Resolved by the strict pass (no conversions).
    pub strict: bool,
}

struct Entry {
    signature: Box<[u8]>,
    choice: Choice,
}

#[derive(Default)]
struct Inner {
    generation: u64,
    entries: Vec<Entry>,
    /// Next entry replaced once `entries` is full.
    next: usize,
}

/// A packet's resolved signatures. See Note [Overload cache].
#[derive(Default)]
pub struct ResolveCache {
    inner: Mutex<Inner>,
}

impl ResolveCache {
    /// The choice cached for `signature` on the list of `generation`.
    #[inline]
    pub fn get(&self, generation: u64, signature: &[u8]) -> Option<Choice> {
        let inner = self.inner.lock();
        if inner.generation != generation {
            return None;
        }
        inner
            .entries
            .iter()
            .find(|e| *e.signature == *signature)
            .map(|e| e.choice)
    }

    /// Remember `choice` for `signature`, resolved on the list of
    /// `generation`. A result computed on an older list than the cache's is
    /// dropped; a newer one voids every entry first.
    pub fn insert(&self, generation: u64, signature: &[u8], choice: Choice) {
        let mut inner = self.inner.lock();
        if generation < inner.generation {
            return;
        }
        if generation > inner.generation {
            inner.generation = generation;
            inner.entries.clear();
            inner.next = 0;
        }
        if let Some(e) = inner
            .entries
            .iter_mut()
            .find(|e| *e.signature == *signature)
        {
            e.choice = choice;
            return;
        }
        let entry = Entry {
            signature: signature.into(),
            choice,
        };
        if inner.entries.len() < MAX_SIGNATURES {
            inner.entries.push(entry);
        } else {
            let at = inner.next;
            inner.entries[at] = entry;
            inner.next = (at + 1) % MAX_SIGNATURES;
        }
    }

    /// Signatures cached for `generation` (0 when the cache is older). For tests.
    pub fn len(&self, generation: u64) -> usize {
        let inner = self.inner.lock();
        if inner.generation == generation {
            inner.entries.len()
        } else {
            0
        }
    }

    /// True when nothing is cached for `generation`.
    pub fn is_empty(&self, generation: u64) -> bool {
        self.len(generation) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: Choice = Choice {
        index: 0,
        strict: true,
    };
    const B: Choice = Choice {
        index: 1,
        strict: false,
    };

    #[test]
    fn hits_only_the_same_signature_and_generation() {
        let c = ResolveCache::default();
        c.insert(5, b"TT", A);
        c.insert(5, b"Ti", B);
        assert_eq!(c.get(5, b"TT"), Some(A));
        assert_eq!(c.get(5, b"Ti"), Some(B));
        assert_eq!(c.get(5, b"T"), None);
        assert_eq!(c.get(6, b"TT"), None, "a newer list voids the entry");
    }

    #[test]
    fn a_newer_generation_clears_and_an_older_one_is_ignored() {
        let c = ResolveCache::default();
        c.insert(5, b"TT", A);
        c.insert(7, b"Ti", B);
        assert_eq!(c.len(7), 1);
        assert_eq!(c.get(7, b"TT"), None);
        // A reader that resolved on the old list finishes late: not cached.
        c.insert(5, b"TT", A);
        assert_eq!(c.get(7, b"TT"), None);
        assert_eq!(c.get(5, b"TT"), None);
    }

    #[test]
    fn bounded_with_round_robin_replacement() {
        let c = ResolveCache::default();
        for i in 0..(MAX_SIGNATURES as u8 + 3) {
            c.insert(1, &[i], A);
        }
        assert_eq!(c.len(1), MAX_SIGNATURES);
        assert_eq!(c.get(1, &[0]), None, "the oldest went first");
        assert_eq!(c.get(1, &[MAX_SIGNATURES as u8 + 2]), Some(A));
    }
}
