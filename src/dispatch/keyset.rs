//! `DispatchKeySet`: a `Copy` u64 with one bit per runtime key.
//! See Note [Key priority] in key.rs for what a bit's position means.

use super::key::{self, DispatchKey, ALL_KEYS, NUM_RUNTIME_KEYS};
use std::fmt;
use std::ops::{BitAnd, BitOr, Sub};

/// A set of runtime dispatch keys.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct DispatchKeySet(u64);

const fn bit(k: DispatchKey) -> u64 {
    1u64 << (k as u8)
}

const fn bits(keys: &[DispatchKey]) -> u64 {
    let mut acc = 0;
    let mut i = 0;
    while i < keys.len() {
        acc |= bit(keys[i]);
        i += 1;
    }
    acc
}

use DispatchKey::*;

// One bit per runtime key in a u64 (DESIGN: 128 bits once the keys outgrow it);
// `FULL` shifts by the count, so 64 would already overflow.
const _: () = assert!(
    NUM_RUNTIME_KEYS <= 63,
    "runtime keys outgrew the u64 key set"
);

impl DispatchKeySet {
    /// The empty set.
    pub const EMPTY: Self = Self(0);
    /// Every runtime key.
    pub const FULL: Self = Self((1u64 << NUM_RUNTIME_KEYS) - 1);
    /// The backend keys (what CompositeExplicitAutograd covers).
    pub const BACKENDS: Self = Self(bits(key::BACKEND_KEYS));
    /// The autograd keys (what the `Autograd` alias covers).
    pub const AUTOGRAD_KEYS: Self = Self(bits(key::AUTOGRAD_KEYS));
    /// The autocast keys.
    pub const AUTOCAST_KEYS: Self = Self(bits(key::AUTOCAST_KEYS));
    /// Backends whose autograd key is `AutogradOther` (torch's `autogradother_backends`).
    pub const AUTOGRADOTHER_BACKENDS: Self = Self(bits(&[FPGA]));

    /// The set holding one runtime key; empty for `Undefined`; the expansion for an alias.
    pub const fn from_key(k: DispatchKey) -> Self {
        if k.is_runtime() {
            Self(bit(k))
        } else {
            Self::alias_expansion(k)
        }
    }

    /// A set from raw bits (unknown bits are dropped).
    pub const fn from_raw(raw: u64) -> Self {
        Self(raw & Self::FULL.0)
    }

    /// The raw bits.
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// The runtime keys an alias key stands for (a runtime key stands for itself).
    pub const fn alias_expansion(k: DispatchKey) -> Self {
        match k {
            Autograd => Self::AUTOGRAD_KEYS,
            // and `Batched`: under vmap an operator without a batching rule runs its
            // composition (torch's FuncTorchBatchedDecomposition), not the per-example loop.
            CompositeImplicitAutograd => {
                Self(Self::BACKENDS.0 | Self::AUTOGRAD_KEYS.0 | bit(Batched))
            }
            CompositeExplicitAutograd | CompositeExplicitAutogradNonFunctional => Self::BACKENDS,
            FuncTorchBatchedDecomposition => Self(bit(Batched)),
            Undefined => Self::EMPTY,
            runtime => Self(bit(runtime)),
        }
    }

    /// Every runtime key of strictly lower priority than `k` (torch's "after `k`").
    pub const fn after(k: DispatchKey) -> Self {
        Self((bit(k) - 1) & Self::FULL.0)
    }

    /// Keys below autograd: what an autograd kernel redispatches to.
    pub const fn after_autograd() -> Self {
        Self::after(AutogradOther)
    }

    #[must_use]
    pub const fn add(self, k: DispatchKey) -> Self {
        Self(self.0 | Self::from_key(k).0)
    }

    #[must_use]
    pub const fn remove(self, k: DispatchKey) -> Self {
        Self(self.0 & !Self::from_key(k).0)
    }

    pub const fn has(self, k: DispatchKey) -> bool {
        k.is_runtime() && self.0 & bit(k) != 0
    }

    pub const fn has_any(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The highest-priority key, or `Undefined` for the empty set.
    #[inline]
    pub const fn highest(self) -> DispatchKey {
        if self.0 == 0 {
            Undefined
        } else {
            ALL_KEYS[63 - self.0.leading_zeros() as usize]
        }
    }

    /// The highest-priority backend key in the set, if any.
    pub const fn highest_backend(self) -> Option<DispatchKey> {
        let b = Self(self.0 & Self::BACKENDS.0);
        if b.0 == 0 {
            None
        } else {
            Some(b.highest())
        }
    }

    /// Keys from lowest to highest priority.
    pub fn iter(self) -> impl Iterator<Item = DispatchKey> {
        (0..NUM_RUNTIME_KEYS)
            .filter(move |i| self.0 & (1 << i) != 0)
            .map(|i| ALL_KEYS[i])
    }
}

impl BitOr for DispatchKeySet {
    type Output = Self;
    fn bitor(self, o: Self) -> Self {
        Self(self.0 | o.0)
    }
}

impl BitAnd for DispatchKeySet {
    type Output = Self;
    fn bitand(self, o: Self) -> Self {
        Self(self.0 & o.0)
    }
}

impl Sub for DispatchKeySet {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        Self(self.0 & !o.0)
    }
}

impl fmt::Debug for DispatchKeySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// torch's repr: `DispatchKeySet(CPU, AutogradCPU)`, lowest priority first.
impl fmt::Display for DispatchKeySet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self.iter().map(DispatchKey::name).collect();
        write!(f, "DispatchKeySet({})", names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn highest_and_mixed_backends() {
        let s = DispatchKeySet::from_key(CPU).add(Meta);
        assert_eq!(s.highest(), Meta);
        assert_eq!(s.add(AutogradCPU).highest(), AutogradCPU);
        assert_eq!(DispatchKeySet::EMPTY.highest(), Undefined);
        assert_eq!(s.highest_backend(), Some(Meta));
    }

    #[test]
    fn set_algebra() {
        let a = DispatchKeySet::from_key(CPU).add(AutogradCPU);
        let b = DispatchKeySet::from_key(AutogradCPU);
        assert_eq!(a - b, DispatchKeySet::from_key(CPU));
        assert_eq!(a & b, b);
        assert_eq!((a | DispatchKeySet::from_key(Tracer)).iter().count(), 3);
        assert!(a.has(CPU) && !a.has(Meta) && !a.has(Autograd));
        assert_eq!(a.remove(Autograd), DispatchKeySet::from_key(CPU));
    }

    #[test]
    fn alias_expansion() {
        let cia = DispatchKeySet::from_key(CompositeImplicitAutograd);
        assert!(cia.has(CPU) && cia.has(AutogradMeta) && !cia.has(Tracer));
        let cea = DispatchKeySet::from_key(CompositeExplicitAutograd);
        assert!(cea.has(PrivateUse1) && cea.has(FPGA) && cea.has(XLA) && !cea.has(AutogradCPU));
        assert!(!cea.has(ZeroTensor) && !cea.has(Functionalize));
        assert_eq!(
            DispatchKeySet::from_key(Autograd),
            DispatchKeySet::AUTOGRAD_KEYS
        );
    }

    /// Every runtime key fits the u64 (`FULL`'s shift must not overflow) and the
    /// named sets are exactly what the key predicates say.
    #[test]
    fn named_sets_agree_with_predicates() {
        let runtime = ALL_KEYS[..NUM_RUNTIME_KEYS].iter().copied();
        let backends = runtime.clone().filter(|k| k.is_backend());
        assert!(backends.eq(DispatchKeySet::BACKENDS.iter()));
        let autograd = runtime.filter(|k| k.is_autograd());
        assert!(autograd.eq(DispatchKeySet::AUTOGRAD_KEYS.iter()));
        assert_eq!(DispatchKeySet::FULL.iter().count(), NUM_RUNTIME_KEYS);
        assert_eq!(DispatchKeySet::FULL.highest(), PythonDispatcher);
    }

    #[test]
    fn after_autograd_excludes_autograd_and_above() {
        let s = DispatchKeySet::after_autograd();
        assert!(s.has(ADInplaceOrView) && s.has(CPU) && !s.has(AutogradCPU) && !s.has(Tracer));
        assert_eq!(DispatchKeySet::after(CPU), DispatchKeySet::EMPTY);
    }

    #[test]
    fn repr_like_torch() {
        let s = DispatchKeySet::from_key(AutogradCPU).add(CPU);
        assert_eq!(s.to_string(), "DispatchKeySet(CPU, AutogradCPU)");
        assert_eq!(DispatchKeySet::EMPTY.to_string(), "DispatchKeySet()");
    }
}
