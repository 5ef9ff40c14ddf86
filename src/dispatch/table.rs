//! One operator's dispatch table and the rules that compute each slot.
//!
//! Note [Slot precedence]: for one runtime key (torch's
//! `computeDispatchTableEntryWithDebug`, `torch/_python_dispatcher.py`):
//! 1. a kernel registered directly at the key;
//!    1b. for `Batched`, one registered at `FuncTorchBatchedDecomposition`;
//! 2. CompositeExplicitAutogradNonFunctional, for backend keys;
//! 3. CompositeExplicitAutograd, for backend keys and `Undefined`;
//! 4. CompositeImplicitAutograd, for backends, autograd keys and `Undefined` —
//!    skipped for an autograd key whose backend (or CEA) has a kernel, and
//!    ambiguous for `AutogradOther` when one of its backends has a kernel;
//! 5. the `Autograd` alias, for autograd keys;
//! 6. the backend fallback registered for the key;
//! 7. missing.

use super::key::{DispatchKey, NUM_RUNTIME_KEYS, NUM_SLOTS};
use super::DispatchKeySet;
use std::sync::Arc;
use DispatchKey::*;

/// One registered kernel or fallback, with where it came from.
#[derive(Clone, Debug)]
pub struct Registration<K> {
    /// Unique id, for removal.
    pub id: u64,
    /// The library that owns it.
    pub lib: u64,
    pub kernel: K,
    /// The key it was registered at (runtime or alias).
    pub key: DispatchKey,
    /// `file.py:12` of the registering call.
    pub provenance: Arc<str>,
    /// A fallthrough kernel: the key is skipped.
    pub fallthrough: bool,
}

/// Why a slot holds its kernel; printed in brackets by `dump_table`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Kernel,
    DefaultBackend,
    Math,
    Autograd,
    Batched,
    BackendFallback,
}

impl EntryKind {
    /// torch's wording.
    pub const fn reason(self) -> &'static str {
        match self {
            EntryKind::Kernel => "kernel",
            EntryKind::DefaultBackend => "default backend kernel",
            EntryKind::Math => "math kernel",
            EntryKind::Autograd => "autograd kernel",
            EntryKind::Batched => "batched kernel",
            EntryKind::BackendFallback => "backend fallback",
        }
    }
}

/// A resolved table slot.
#[derive(Clone, Debug)]
pub enum Slot<K> {
    Missing,
    /// CompositeImplicitAutograd for AutogradOther while one of its backends has a kernel.
    Ambiguous,
    Kernel {
        reg: Registration<K>,
        kind: EntryKind,
    },
}

impl<K> Slot<K> {
    /// A fallthrough entry: the key is masked out of calls.
    pub fn is_fallthrough(&self) -> bool {
        matches!(self, Slot::Kernel { reg, .. } if reg.fallthrough)
    }
}

/// Where the slot computation reads registrations from.
pub trait KernelSource<K> {
    /// The newest kernel registered at `key` (runtime or alias).
    fn kernel(&self, key: DispatchKey) -> Option<&Registration<K>>;
    /// The newest backend fallback registered for a runtime key.
    fn fallback(&self, key: DispatchKey) -> Option<&Registration<K>>;
}

/// Compute one slot. See Note [Slot precedence].
pub fn compute_slot<K: Clone>(key: DispatchKey, src: &impl KernelSource<K>) -> Slot<K> {
    let hit = |reg: &Registration<K>, kind| Slot::Kernel {
        reg: reg.clone(),
        kind,
    };
    if key.is_runtime() {
        if let Some(r) = src.kernel(key) {
            return hit(r, EntryKind::Kernel);
        }
    }
    if key == Batched {
        if let Some(r) = src.kernel(FuncTorchBatchedDecomposition) {
            return hit(r, EntryKind::Batched);
        }
    }
    if key.is_backend() {
        if let Some(r) = src.kernel(CompositeExplicitAutogradNonFunctional) {
            return hit(r, EntryKind::DefaultBackend);
        }
    }
    if key == Undefined || key.is_backend() {
        if let Some(r) = src.kernel(CompositeExplicitAutograd) {
            return hit(r, EntryKind::DefaultBackend);
        }
    }
    let in_cia = DispatchKeySet::from_key(CompositeImplicitAutograd).has(key);
    if key == Undefined || in_cia {
        if let Some(r) = src.kernel(CompositeImplicitAutograd) {
            if key == AutogradOther && has_any(src, DispatchKeySet::AUTOGRADOTHER_BACKENDS) {
                return Slot::Ambiguous;
            }
            if !has_backend_kernel(key, src) {
                return hit(r, EntryKind::Math);
            }
        }
    }
    if key.is_autograd() {
        if let Some(r) = src.kernel(Autograd) {
            return hit(r, EntryKind::Autograd);
        }
    }
    if key.is_runtime() {
        if let Some(r) = src.fallback(key) {
            return hit(r, EntryKind::BackendFallback);
        }
    }
    Slot::Missing
}

fn has_any<K>(src: &impl KernelSource<K>, set: DispatchKeySet) -> bool {
    set.iter().any(|k| src.kernel(k).is_some())
}

/// An autograd key's backend, or CompositeExplicitAutograd, has a kernel: the
/// math kernel must not shadow it (the backend kernel plus autograd fallback
/// is what torch runs).
fn has_backend_kernel<K>(key: DispatchKey, src: &impl KernelSource<K>) -> bool {
    let backends = match key.backend_of_autograd() {
        Some(b) => DispatchKeySet::from_key(b),
        None if key == AutogradOther => DispatchKeySet::AUTOGRADOTHER_BACKENDS,
        None => DispatchKeySet::EMPTY,
    };
    has_any(src, backends) || src.kernel(CompositeExplicitAutograd).is_some()
}

/// The slots a registration at `key` can change.
pub fn affected_slots(key: DispatchKey) -> DispatchKeySet {
    if key.is_alias() {
        DispatchKeySet::FULL
    } else if let Some(ag) = key.autograd_of() {
        DispatchKeySet::from_key(key).add(ag).add(AutogradOther)
    } else {
        DispatchKeySet::from_key(key)
    }
}

/// An operator's cached table: what the call path reads.
#[derive(Clone, Debug)]
pub struct DispatchTable<K> {
    /// Indexed by runtime key discriminant; the last slot is `Undefined`.
    pub slots: [Slot<K>; NUM_SLOTS],
    /// Keys whose slot is not a fallthrough.
    pub nonfallthrough: DispatchKeySet,
}

impl<K: Clone> DispatchTable<K> {
    /// A table with every slot computed from `src`.
    pub fn compute(src: &impl KernelSource<K>) -> Self {
        let mut t = DispatchTable {
            slots: std::array::from_fn(|_| Slot::Missing),
            nonfallthrough: DispatchKeySet::FULL,
        };
        t.recompute(src, DispatchKeySet::FULL, true);
        t
    }

    /// Recompute the given slots (and `Undefined` when asked), then the mask.
    pub fn recompute(&mut self, src: &impl KernelSource<K>, keys: DispatchKeySet, undefined: bool) {
        // In bounds: a key set iterates runtime keys, each with its slot.
        for k in keys.iter() {
            self.slots[k as usize] = compute_slot(k, src);
        }
        if undefined {
            self.slots[Undefined as usize] = compute_slot(Undefined, src);
        }
        self.nonfallthrough = self.mask();
    }

    /// A copy of this table with the given slots (and `Undefined` when asked)
    /// recomputed. Unlike `clone` + `recompute` it drops no kernel: the
    /// registry builds tables under its lock, where no kernel may be dropped
    /// (see Note [No foreign code under a lock] in `registry/lock.rs`).
    #[must_use]
    pub fn with_recomputed(
        &self,
        src: &impl KernelSource<K>,
        keys: DispatchKeySet,
        undefined: bool,
    ) -> Arc<Self> {
        let mut table = Arc::<Self>::new_uninit();
        // Built in place: a table is a few kilobytes, and building it on the
        // stack and moving it into the `Arc` copied it twice per registration.
        let out = Arc::get_mut(&mut table)
            .expect("a new Arc has no other reference")
            .as_mut_ptr();
        let mut nonfallthrough = self.nonfallthrough;
        for (i, old) in self.slots.iter().enumerate() {
            // Bit `i` of a key set is the runtime key with discriminant `i`;
            // the last slot is `Undefined` (see `bit` in keyset.rs).
            let wanted = if i < NUM_RUNTIME_KEYS {
                keys.raw() >> i & 1 != 0
            } else {
                undefined
            };
            let slot = match DispatchKey::from_index(i) {
                Some(k) if wanted => {
                    let slot = compute_slot(k, src);
                    if k.is_runtime() {
                        nonfallthrough = if slot.is_fallthrough() {
                            nonfallthrough.remove(k)
                        } else {
                            nonfallthrough.add(k)
                        };
                    }
                    slot
                }
                // `i < NUM_SLOTS` always names a key: runtime keys, then `Undefined`.
                _ => old.clone(),
            };
            // SAFETY: `out` points at the uninitialised table in `table`, which
            // nothing else references; `i < NUM_SLOTS` is in bounds of `slots`,
            // and each slot is written exactly once.
            unsafe { std::ptr::addr_of_mut!((*out).slots[i]).write(slot) };
        }
        // SAFETY: as above, for the last field.
        unsafe { std::ptr::addr_of_mut!((*out).nonfallthrough).write(nonfallthrough) };
        // SAFETY: every field was written above (a panic before this point
        // leaks the partial table; it never exposes it).
        unsafe { table.assume_init() }
    }

    /// Keys whose slot is not a fallthrough.
    fn mask(&self) -> DispatchKeySet {
        DispatchKeySet::FULL
            .iter()
            .filter(|k| !self.slots[*k as usize].is_fallthrough())
            .fold(DispatchKeySet::EMPTY, DispatchKeySet::add)
    }

    /// The slot for a key (runtime or `Undefined`). In bounds for every key
    /// the call path can hold (`DispatchKeySet::highest` yields only those);
    /// an alias key is a caller's bug and panics.
    #[inline]
    pub fn slot(&self, key: DispatchKey) -> &Slot<K> {
        &self.slots[key as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kernels at the given keys, labelled by key; no fallbacks unless given.
    struct Keys(Vec<Registration<()>>, Vec<Registration<()>>);

    fn reg(key: DispatchKey) -> Registration<()> {
        let provenance = Arc::from("t.py:1");
        let (id, lib, kernel, fallthrough) = (key as u64, 0, (), false);
        Registration {
            id,
            lib,
            kernel,
            key,
            provenance,
            fallthrough,
        }
    }

    fn keys(kernels: &[DispatchKey], fallbacks: &[DispatchKey]) -> Keys {
        Keys(
            kernels.iter().map(|&k| reg(k)).collect(),
            fallbacks.iter().map(|&k| reg(k)).collect(),
        )
    }

    impl KernelSource<()> for Keys {
        fn kernel(&self, key: DispatchKey) -> Option<&Registration<()>> {
            self.0.iter().find(|r| r.key == key)
        }
        fn fallback(&self, key: DispatchKey) -> Option<&Registration<()>> {
            self.1.iter().find(|r| r.key == key)
        }
    }

    fn entry(key: DispatchKey, src: &Keys) -> Option<(DispatchKey, EntryKind)> {
        match compute_slot(key, src) {
            Slot::Kernel { reg, kind } => Some((reg.key, kind)),
            Slot::Ambiguous => Some((AutogradOther, EntryKind::Math)),
            Slot::Missing => None,
        }
    }

    /// torch's PythonDispatcher with CPU, XLA, AutogradCPU and CIA kernels.
    #[test]
    fn math_kernel_covers_the_new_backends() {
        let src = keys(
            &[CPU, XLA, AutogradCPU, CompositeImplicitAutograd],
            &[AutogradXLA],
        );
        assert_eq!(entry(CPU, &src), Some((CPU, EntryKind::Kernel)));
        assert_eq!(entry(XLA, &src), Some((XLA, EntryKind::Kernel)));
        for k in [Lazy, FPGA, MAIA, AutogradOther, AutogradLazy] {
            assert_eq!(
                entry(k, &src),
                Some((CompositeImplicitAutograd, EntryKind::Math)),
                "{k}"
            );
        }
        // XLA has a kernel: the math kernel must not shadow it at AutogradXLA.
        assert_eq!(
            entry(AutogradXLA, &src),
            Some((AutogradXLA, EntryKind::BackendFallback))
        );
        assert_eq!(entry(ZeroTensor, &src), None);
    }

    #[test]
    fn fpga_kernel_makes_autograd_other_ambiguous() {
        let src = keys(&[FPGA, CompositeImplicitAutograd], &[]);
        assert!(matches!(compute_slot(AutogradOther, &src), Slot::Ambiguous));
        assert_eq!(
            entry(AutogradCPU, &src),
            Some((CompositeImplicitAutograd, EntryKind::Math))
        );
        let src = keys(&[FPGA, Autograd], &[]);
        assert_eq!(
            entry(AutogradOther, &src),
            Some((Autograd, EntryKind::Autograd))
        );
        assert_eq!(
            entry(AutogradHPU, &src),
            Some((Autograd, EntryKind::Autograd))
        );
        assert_eq!(
            affected_slots(FPGA),
            DispatchKeySet::from_key(FPGA).add(AutogradOther)
        );
        assert_eq!(
            affected_slots(MPS),
            DispatchKeySet::from_key(MPS)
                .add(AutogradMPS)
                .add(AutogradOther)
        );
    }

    #[test]
    fn functionality_keys_take_only_direct_kernels_and_fallbacks() {
        let src = keys(&[CompositeExplicitAutograd, Conjugate], &[Negative]);
        assert_eq!(entry(Conjugate, &src), Some((Conjugate, EntryKind::Kernel)));
        assert_eq!(
            entry(Negative, &src),
            Some((Negative, EntryKind::BackendFallback))
        );
        assert_eq!(entry(TESTING_ONLY_GenericMode, &src), None);
        assert_eq!(
            entry(HPU, &src),
            Some((CompositeExplicitAutograd, EntryKind::DefaultBackend))
        );
    }
}
