//! Dispatch keys.
//!
//! Note [Key priority]: a runtime key's discriminant is its bit in a
//! `DispatchKeySet` and its priority: a higher discriminant wins. Backends come
//! first, so among mixed backends the highest one wins (CPU + Meta goes to
//! Meta), as in torch. `Undefined` is not a bit: it only names the table slot
//! used when a call's key set is empty. Alias keys come last; they are never
//! dispatched to, only expanded into runtime keys when the table is computed.
//!
//! torch splits a key set into functionality bits and backend bits and orders
//! keys by functionality first, then backend (c10/core/DispatchKey.h). Our one
//! flat list is that order spelled out: the dense backends in torch's backend
//! order (CPU .. PrivateUse1, Meta), then FPGA (a functionality of its own, so
//! it beats every dense backend), the functionality keys, and the
//! `Autograd<backend>` keys in the backends' order. See Note [Torch layout] in
//! keyset.rs for how `raw_repr` maps back to torch's bits.

use crate::error::Error;
use std::fmt;

/// Declares `DispatchKey` and, from the same list, `ALL_KEYS` and the names:
/// the declaration order is the priority (see Note [Key priority]).
macro_rules! dispatch_keys {
    ($($(#[$doc:meta])* $key:ident),+ $(,)?) => {
        /// One dispatch key. See Note [Key priority].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[allow(non_camel_case_types)] // torch's TESTING_ONLY_* names, verbatim
        pub enum DispatchKey {
            $($(#[$doc])* $key),+
        }

        /// All keys in declaration order.
        pub const ALL_KEYS: [DispatchKey; NUM_KEYS] = [$(DispatchKey::$key),+];

        const NAMES: [&str; NUM_KEYS] = [$(stringify!($key)),+];
    };
}

dispatch_keys! {
    CPU,
    CUDA,
    XLA,
    MPS,
    XPU,
    HPU,
    Lazy,
    MAIA,
    PrivateUse1,
    Meta,
    /// A backend without its own autograd key: `AutogradOther` serves it.
    FPGA,
    /// torch's nested-tensor functionality (a key users set on wrapper subclasses).
    NestedTensor,
    BackendSelect,
    Fake,
    Python,
    Functionalize,
    Conjugate,
    Negative,
    ZeroTensor,
    ADInplaceOrView,
    AutogradOther,
    AutogradCPU,
    AutogradCUDA,
    AutogradXLA,
    AutogradMPS,
    AutogradXPU,
    AutogradHPU,
    AutogradLazy,
    AutogradMAIA,
    AutogradPrivateUse1,
    AutogradMeta,
    /// The autograd key of nested tensors (in the `Autograd` alias, as in torch).
    AutogradNestedTensor,
    Tracer,
    AutocastCPU,
    AutocastCUDA,
    Batched,
    VmapMode,
    PythonTLSSnapshot,
    TESTING_ONLY_GenericWrapper,
    TESTING_ONLY_GenericMode,
    PythonDispatcher,
    /// The slot for calls whose key set is empty (no tensor arguments).
    Undefined,
    /// Alias: every `Autograd<backend>` key and `AutogradOther`.
    Autograd,
    /// Alias: backends, autograd keys and `Undefined`.
    CompositeImplicitAutograd,
    /// Alias: backends and `Undefined`.
    CompositeExplicitAutograd,
    /// Alias: backends.
    CompositeExplicitAutogradNonFunctional,
}

/// Runtime keys: the bits of a key set.
pub const NUM_RUNTIME_KEYS: usize = DispatchKey::Undefined as usize;
/// Table slots: every runtime key plus `Undefined`.
pub const NUM_SLOTS: usize = NUM_RUNTIME_KEYS + 1;
/// Every key including aliases.
pub const NUM_KEYS: usize = DispatchKey::CompositeExplicitAutogradNonFunctional as usize + 1;

use DispatchKey::*;

impl DispatchKey {
    /// torch's name of the key.
    pub const fn name(self) -> &'static str {
        NAMES[self as usize]
    }

    /// Parse torch's name of a key: `could not parse dispatch key: X` otherwise.
    pub fn parse(name: &str) -> Result<Self, Error> {
        NAMES
            .iter()
            .position(|n| *n == name)
            .map(|i| ALL_KEYS[i])
            .ok_or_else(|| Error::UnknownKey(name.to_string()))
    }

    /// The key with this discriminant, if any.
    pub const fn from_index(i: usize) -> Option<Self> {
        if i < NUM_KEYS {
            Some(ALL_KEYS[i])
        } else {
            None
        }
    }

    /// A key that names a set of runtime keys rather than a table slot.
    pub const fn is_alias(self) -> bool {
        (self as u8) > (Undefined as u8)
    }

    /// A key with its own bit in a key set.
    pub const fn is_runtime(self) -> bool {
        (self as u8) < (Undefined as u8)
    }

    /// A backend key: a dense backend or FPGA.
    pub const fn is_backend(self) -> bool {
        matches!(
            self,
            CPU | CUDA | XLA | MPS | XPU | HPU | Lazy | MAIA | PrivateUse1 | Meta | FPGA
        )
    }

    /// An `Autograd<backend>` key, `AutogradOther` or `AutogradNestedTensor`.
    pub const fn is_autograd(self) -> bool {
        (self as u8) >= (AutogradOther as u8) && (self as u8) <= (AutogradNestedTensor as u8)
    }

    /// The autograd key serving a backend (FPGA's is `AutogradOther`, as in torch).
    pub const fn autograd_of(self) -> Option<Self> {
        match self {
            CPU => Some(AutogradCPU),
            CUDA => Some(AutogradCUDA),
            XLA => Some(AutogradXLA),
            MPS => Some(AutogradMPS),
            XPU => Some(AutogradXPU),
            HPU => Some(AutogradHPU),
            Lazy => Some(AutogradLazy),
            MAIA => Some(AutogradMAIA),
            PrivateUse1 => Some(AutogradPrivateUse1),
            Meta => Some(AutogradMeta),
            FPGA => Some(AutogradOther),
            _ => None,
        }
    }

    /// The autocast key serving a backend, where there is one.
    pub const fn autocast_of(self) -> Option<Self> {
        match self {
            CPU => Some(AutocastCPU),
            CUDA => Some(AutocastCUDA),
            _ => None,
        }
    }

    /// The backend an `Autograd<backend>` key serves (`AutogradOther` serves
    /// several: see `DispatchKeySet::AUTOGRADOTHER_BACKENDS`).
    pub const fn backend_of_autograd(self) -> Option<Self> {
        match self {
            AutogradCPU => Some(CPU),
            AutogradCUDA => Some(CUDA),
            AutogradXLA => Some(XLA),
            AutogradMPS => Some(MPS),
            AutogradXPU => Some(XPU),
            AutogradHPU => Some(HPU),
            AutogradLazy => Some(Lazy),
            AutogradMAIA => Some(MAIA),
            AutogradPrivateUse1 => Some(PrivateUse1),
            AutogradMeta => Some(Meta),
            _ => None,
        }
    }
}

impl fmt::Display for DispatchKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for k in ALL_KEYS {
            assert_eq!(DispatchKey::parse(k.name()).unwrap(), k);
            assert_eq!(DispatchKey::from_index(k as usize), Some(k));
        }
    }

    #[test]
    fn unknown_name_is_torchs_message() {
        let e = DispatchKey::parse("XLA2").unwrap_err();
        assert_eq!(e.to_string(), "could not parse dispatch key: XLA2");
    }

    #[test]
    fn classification() {
        assert!(Meta > CPU && AutogradCPU > Meta && PythonDispatcher > Batched);
        assert!(Autograd.is_alias() && !Undefined.is_alias() && !Undefined.is_runtime());
        assert_eq!(CPU.autograd_of(), Some(AutogradCPU));
        assert_eq!(AutogradMeta.backend_of_autograd(), Some(Meta));
        assert_eq!(NUM_RUNTIME_KEYS, 41);
    }

    /// Every backend's autograd key maps back to it; only FPGA shares AutogradOther.
    #[test]
    fn backends_and_autograd_keys_pair_up() {
        for k in ALL_KEYS.into_iter().filter(|k| k.is_backend()) {
            let ag = k.autograd_of().unwrap();
            assert!(ag.is_autograd() && ag > k, "{k}");
            match ag {
                AutogradOther => assert_eq!(k, FPGA),
                _ => assert_eq!(ag.backend_of_autograd(), Some(k)),
            }
            assert_eq!(
                ag.name(),
                format!("Autograd{}", if k == FPGA { "Other" } else { k.name() })
            );
        }
        let autograd: Vec<_> = ALL_KEYS.into_iter().filter(|k| k.is_autograd()).collect();
        assert_eq!(autograd.len(), 12);
        assert!(!Tracer.is_autograd() && !ADInplaceOrView.is_autograd());
    }

    /// torch's priorities among the keys users name (c10/core/DispatchKey.h).
    #[test]
    fn torch_priorities() {
        let chain = [
            CPU,
            CUDA,
            XLA,
            MPS,
            XPU,
            HPU,
            Lazy,
            MAIA,
            PrivateUse1,
            Meta,
            FPGA,
            NestedTensor,
            BackendSelect,
            Python,
            Functionalize,
            Conjugate,
            Negative,
            ZeroTensor,
            ADInplaceOrView,
            AutogradOther,
            AutogradCPU,
            AutogradXLA,
            AutogradMeta,
            AutogradNestedTensor,
            Tracer,
            AutocastCPU,
            AutocastCUDA,
            Batched,
            VmapMode,
            PythonTLSSnapshot,
            TESTING_ONLY_GenericWrapper,
            TESTING_ONLY_GenericMode,
            PythonDispatcher,
        ];
        assert!(chain.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(
            DispatchKey::parse("TESTING_ONLY_GenericMode").unwrap(),
            TESTING_ONLY_GenericMode
        );
    }
}
