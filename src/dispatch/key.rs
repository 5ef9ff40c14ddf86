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
//!
//! Note [One backend list]: every fact about a dense backend is one row of
//! the `dispatch_keys!` invocation below: its key, its `Autograd<backend>` key,
//! torch's backend component bit, and where it has them its device type and
//! its `Autocast<backend>` key. The enum (backends first, their autograd keys
//! in the same order after `AutogradOther`), `is_backend`, `autograd_of`,
//! `backend_of_autograd`, `autocast_of`, `device_type`, the key sets
//! `BACKENDS`/`AUTOGRAD_KEYS`/`AUTOCAST_KEYS` and torch's bit layout are all
//! generated from those rows, so adding a backend is adding one row (and its
//! place in torch's layout test).

use crate::error::Error;
use std::fmt;

/// Declares `DispatchKey` from the one backend list (See Note [One backend
/// list]) and the other keys in priority order, and from the same lists
/// `ALL_KEYS`, the names and the backend tables.
macro_rules! dispatch_keys {
    (
        backends {
            $( $backend:ident => $autograd:ident, bit $bit:literal
               $(, device $device:literal)? $(, autocast $autocast:ident)?; )+
        }
        $(#[$other_doc:meta])* other_backend $other:ident => $other_autograd:ident;
        functionality { $( $(#[$fdoc:meta])* $fkey:ident, )+ }
        extra_autograd { $( $(#[$edoc:meta])* $ekey:ident, )* }
        after_autograd { $( $(#[$adoc:meta])* $akey:ident, )+ }
    ) => {
        /// One dispatch key. See Note [Key priority].
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[allow(non_camel_case_types)] // torch's TESTING_ONLY_* names, verbatim
        pub enum DispatchKey {
            $( $backend, )+
            $(#[$other_doc])* $other,
            $( $(#[$fdoc])* $fkey, )+
            /// The autograd key of the backends without their own (`FPGA`).
            $other_autograd,
            $( $autograd, )+
            $( $(#[$edoc])* $ekey, )*
            $( $(#[$adoc])* $akey, )+
        }

        /// All keys in declaration order.
        pub const ALL_KEYS: [DispatchKey; NUM_KEYS] = [
            $(DispatchKey::$backend,)+ DispatchKey::$other, $(DispatchKey::$fkey,)+
            DispatchKey::$other_autograd, $(DispatchKey::$autograd,)+ $(DispatchKey::$ekey,)*
            $(DispatchKey::$akey,)+
        ];

        const NAMES: [&str; NUM_KEYS] = [
            $(stringify!($backend),)+ stringify!($other), $(stringify!($fkey),)+
            stringify!($other_autograd), $(stringify!($autograd),)+ $(stringify!($ekey),)*
            $(stringify!($akey),)+
        ];

        /// The backend keys, in priority order: the dense backends, then FPGA.
        pub const BACKEND_KEYS: &[DispatchKey] = &[$(DispatchKey::$backend,)+ DispatchKey::$other];

        /// The autograd keys: `AutogradOther`, one per dense backend, then those of
        /// functionalities (`AutogradNestedTensor`).
        pub const AUTOGRAD_KEYS: &[DispatchKey] =
            &[DispatchKey::$other_autograd, $(DispatchKey::$autograd,)+ $(DispatchKey::$ekey,)*];

        /// The autocast keys, in their backends' order.
        pub const AUTOCAST_KEYS: &[DispatchKey] = &[$($(DispatchKey::$autocast,)?)+];

        /// The backends a device type reaches, in priority order.
        pub const DEVICE_BACKENDS: &[DispatchKey] =
            &[$($({ let _: &str = $device; DispatchKey::$backend },)?)+];

        impl DispatchKey {
            /// A backend key: a dense backend or FPGA.
            pub const fn is_backend(self) -> bool {
                matches!(self, $(DispatchKey::$backend)|+ | DispatchKey::$other)
            }

            /// The autograd key serving a backend (FPGA's is `AutogradOther`, as in torch).
            pub const fn autograd_of(self) -> Option<Self> {
                match self {
                    $( DispatchKey::$backend => Some(DispatchKey::$autograd), )+
                    DispatchKey::$other => Some(DispatchKey::$other_autograd),
                    _ => None,
                }
            }

            /// The backend an `Autograd<backend>` key serves (`AutogradOther` serves
            /// several: see `DispatchKeySet::AUTOGRADOTHER_BACKENDS`).
            pub const fn backend_of_autograd(self) -> Option<Self> {
                match self {
                    $( DispatchKey::$autograd => Some(DispatchKey::$backend), )+
                    _ => None,
                }
            }

            /// The autocast key serving a backend, where there is one.
            pub const fn autocast_of(self) -> Option<Self> {
                match self {
                    $($( DispatchKey::$backend => Some(DispatchKey::$autocast), )?)+
                    _ => None,
                }
            }

            /// The device type (torch's `device.type`) that reaches a backend,
            /// where there is one.
            pub const fn device_type(self) -> Option<&'static str> {
                match self {
                    $($( DispatchKey::$backend => Some($device), )?)+
                    _ => None,
                }
            }

            /// The backend a device type reaches (the inverse of `device_type`).
            pub fn of_device_type(ty: &str) -> Option<Self> {
                match ty {
                    $($( $device => Some(DispatchKey::$backend), )?)+
                    _ => None,
                }
            }

            /// torch's backend component bit of a dense backend (See Note
            /// [Torch layout] in torch_layout.rs).
            pub const fn torch_backend_bit(self) -> Option<u8> {
                match self {
                    $( DispatchKey::$backend => Some($bit), )+
                    _ => None,
                }
            }
        }
    };
}

dispatch_keys! {
    backends {
        CPU => AutogradCPU, bit 0, device "cpu", autocast AutocastCPU;
        CUDA => AutogradCUDA, bit 1, device "cuda", autocast AutocastCUDA;
        XLA => AutogradXLA, bit 3;
        MPS => AutogradMPS, bit 4;
        XPU => AutogradXPU, bit 6;
        HPU => AutogradHPU, bit 7;
        Lazy => AutogradLazy, bit 9;
        MAIA => AutogradMAIA, bit 11;
        PrivateUse1 => AutogradPrivateUse1, bit 12, device "privateuseone";
        Meta => AutogradMeta, bit 15, device "meta";
    }
    /// A backend without its own autograd key: `AutogradOther` serves it.
    other_backend FPGA => AutogradOther;
    functionality {
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
    }
    extra_autograd {
        /// The autograd key of nested tensors (in the `Autograd` alias, as in torch).
        AutogradNestedTensor,
    }
    after_autograd {
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
        /// Alias: `Batched` (torch's `FuncTorchBatched`): a kernel vmap runs in
        /// place of the per-example rule, usually a decomposition into batched ops.
        FuncTorchBatchedDecomposition,
    }
}

/// Runtime keys: the bits of a key set.
pub const NUM_RUNTIME_KEYS: usize = DispatchKey::Undefined as usize;
/// Table slots: every runtime key plus `Undefined`.
pub const NUM_SLOTS: usize = NUM_RUNTIME_KEYS + 1;
/// Every key including aliases.
pub const NUM_KEYS: usize = DispatchKey::FuncTorchBatchedDecomposition as usize + 1;

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

    /// An `Autograd<backend>` key or `AutogradOther`.
    pub const fn is_autograd(self) -> bool {
        matches!(self, AutogradOther | AutogradNestedTensor) || self.backend_of_autograd().is_some()
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

    /// The tables generated from the one backend list agree with each other
    /// (See Note [One backend list]).
    #[test]
    fn backend_list_tables() {
        let backends: Vec<_> = ALL_KEYS.into_iter().filter(|k| k.is_backend()).collect();
        assert_eq!(backends, BACKEND_KEYS);
        let autograd: Vec<_> = ALL_KEYS.into_iter().filter(|k| k.is_autograd()).collect();
        assert_eq!(autograd, AUTOGRAD_KEYS);
        assert_eq!(AUTOCAST_KEYS, [AutocastCPU, AutocastCUDA]);
        for k in ALL_KEYS {
            if let Some(ac) = k.autocast_of() {
                assert!(k.is_backend() && AUTOCAST_KEYS.contains(&ac), "{k}");
            }
            match k.device_type() {
                Some(ty) => assert_eq!(DispatchKey::of_device_type(ty), Some(k)),
                None => assert!(!DEVICE_BACKENDS.contains(&k), "{k}"),
            }
            assert_eq!(k.torch_backend_bit().is_some(), k.is_backend() && k != FPGA);
        }
        assert_eq!(DEVICE_BACKENDS, [CPU, CUDA, PrivateUse1, Meta]);
        assert_eq!(DispatchKey::of_device_type("cuda"), Some(CUDA));
        assert_eq!(DispatchKey::of_device_type("xla"), None);
        let mut bits: Vec<_> = ALL_KEYS
            .iter()
            .filter_map(|k| k.torch_backend_bit())
            .collect();
        bits.dedup();
        assert_eq!(bits, [0, 1, 3, 4, 6, 7, 9, 11, 12, 15]);
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
