//! torch's bit layout of a key set, for `DispatchKeySet.raw_repr()`.
//!
//! Note [Torch layout]: torch's `DispatchKeySet` is a u64 whose low 16 bits
//! are backend components (CPU = bit 0 .. Meta = bit 15) and whose higher bits
//! are functionalities (functionality `f` is bit `f + 15`, so Dense, number 1,
//! is bit 16). A per-backend key such as `AutogradXLA` sets its
//! functionality bit (AutogradFunctionality) and its backend bit (XLA).
//! Numbers from c10/core/DispatchKey.h as of torch 2.15. Our flat set keeps
//! one bit per key (see Note [Key priority]); these tables translate. As in
//! torch, the translation is not injective: {CPU, AutogradXLA} and
//! {CPU, XLA, AutogradCPU, AutogradXLA} share one torch value, which decodes
//! to the latter.

use super::key::{DispatchKey, ALL_KEYS, NUM_RUNTIME_KEYS};
use super::DispatchKeySet;
use DispatchKey::*;

/// Bits below this one are backend components.
const FUNCTIONALITY_SHIFT: u32 = 15;
const DENSE: u8 = 1;
const AUTOGRAD_FUNCTIONALITY: u8 = 21;

/// A runtime key's torch functionality number and backend component bit.
const fn torch_bits(k: DispatchKey) -> (u8, Option<u8>) {
    if let Some(bit) = k.torch_backend_bit() {
        return (DENSE, Some(bit));
    }
    match k {
        FPGA => (2, None),
        NestedTensor => (10, None),
        BackendSelect => (11, None),
        Fake => (12, None),
        Python => (13, None),
        Functionalize => (15, None),
        Conjugate => (16, None),
        Negative => (17, None),
        ZeroTensor => (18, None),
        ADInplaceOrView => (19, None),
        AutogradOther => (20, None),
        AutogradNestedTensor => (22, None),
        Tracer => (23, None),
        AutocastCPU => (24, None),
        AutocastCUDA => (32, None),
        Batched => (37, None),
        VmapMode => (38, None),
        PythonTLSSnapshot => (41, None),
        TESTING_ONLY_GenericWrapper => (43, None),
        TESTING_ONLY_GenericMode => (44, None),
        PythonDispatcher => (46, None),
        autograd => match autograd.backend_of_autograd() {
            Some(backend) => (AUTOGRAD_FUNCTIONALITY, backend.torch_backend_bit()),
            // Unreachable for runtime keys: every other one is listed above.
            None => (0, None),
        },
    }
}

/// torch's raw bits of one runtime key.
const fn torch_raw(k: DispatchKey) -> u64 {
    let (functionality, backend) = torch_bits(k);
    let f = 1u64 << (functionality as u32 + FUNCTIONALITY_SHIFT);
    match backend {
        Some(b) => f | (1u64 << b),
        None => f,
    }
}

impl DispatchKeySet {
    /// The set in torch's bit layout (torch's `DispatchKeySet.raw_repr()`).
    /// See Note [Torch layout].
    pub fn raw_repr(self) -> u64 {
        self.iter().fold(0, |acc, k| acc | torch_raw(k))
    }

    /// The set whose torch layout is `raw`, or the bits of `raw` that name no
    /// key of ours (a backend torch has and we do not, e.g. HIP, or a
    /// functionality such as Sparse). See Note [Torch layout].
    pub fn from_raw_repr(raw: u64) -> Result<Self, u64> {
        let set = ALL_KEYS[..NUM_RUNTIME_KEYS]
            .iter()
            .filter(|&&k| raw & torch_raw(k) == torch_raw(k))
            .fold(Self::EMPTY, |s, &k| s.add(k));
        match raw & !set.raw_repr() {
            0 => Ok(set),
            unknown => Err(unknown),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values printed by torch 2.15's `DispatchKeySet(k).raw_repr()`.
    #[test]
    fn matches_torch_values() {
        for (k, raw) in [
            (CPU, 65537u64),
            (Meta, 98304),
            (MAIA, 67584),
            (PrivateUse1, 69632),
            (FPGA, 131072),
            (Fake, 134217728),
            (Functionalize, 1073741824),
            (AutogradOther, 34359738368),
            (AutogradMeta, 68719509504),
            (Tracer, 274877906944),
            (AutocastCUDA, 140737488355328),
            (TESTING_ONLY_GenericMode, 576460752303423488),
            (NestedTensor, 33554432),
            (AutogradNestedTensor, 137438953472),
        ] {
            assert_eq!(DispatchKeySet::from_key(k).raw_repr(), raw, "{k}");
        }
        let s = DispatchKeySet::from_key(XLA).add(PythonDispatcher);
        assert_eq!(s.raw_repr(), 2305843009213759496);
        let s = DispatchKeySet::from_key(CPU).add(AutogradCPU);
        assert_eq!(s.raw_repr(), 68719542273);
    }

    #[test]
    fn round_trips_each_key_and_mixed_sets() {
        for k in ALL_KEYS[..NUM_RUNTIME_KEYS].iter().copied() {
            let s = DispatchKeySet::from_key(k);
            assert_eq!(DispatchKeySet::from_raw_repr(s.raw_repr()), Ok(s), "{k}");
        }
        let s = DispatchKeySet::from_key(CPU)
            .add(XLA)
            .add(AutogradCPU)
            .add(AutogradXLA);
        assert_eq!(DispatchKeySet::from_raw_repr(s.raw_repr()), Ok(s));
        // Not injective, as torch: the shared backend bit brings in AutogradCPU.
        let lossy = DispatchKeySet::from_key(CPU).add(AutogradXLA);
        assert_eq!(DispatchKeySet::from_raw_repr(lossy.raw_repr()), Ok(s));
    }

    #[test]
    fn unknown_bits_are_reported() {
        // HIP's backend bit (2) with Dense: no key of ours.
        let hip = (1u64 << 16) | (1 << 2);
        assert_eq!(DispatchKeySet::from_raw_repr(hip), Err(hip));
        // Sparse (functionality 8) next to CPU: only the Sparse bit is unknown.
        let sparse = (1u64 << 23) | DispatchKeySet::from_key(CPU).raw_repr();
        assert_eq!(DispatchKeySet::from_raw_repr(sparse), Err(1 << 23));
        assert_eq!(DispatchKeySet::from_raw_repr(0), Ok(DispatchKeySet::EMPTY));
    }
}
