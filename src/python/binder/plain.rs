//! Which tensor types are plain, for the `__opyard_function__` check.
//!
//! Note [Subclass check]: torch consults `__torch_function__` when an
//! argument's type is not exactly `Tensor`/`Parameter`. The binder already
//! visits every tensor argument, so it compares the argument's type pointer
//! with the plain types registered here (`Tensor` first: one compare in the
//! common case) and records a miss in `Gathered::foreign`. The call path then
//! asks Python only for calls that have such an argument (or while a function
//! mode is active), so plain calls pay one pointer compare per tensor.
//!
//! Note [Disabled protocol types]: torch treats a type whose
//! `__torch_function__` is `_disabled_torch_function_impl` as having no
//! protocol (wrapper subclasses set it to skip the function layer). Asking
//! Python per call would cost about a microsecond, so the answer is cached per
//! type, keyed by the type's address and its version tag: CPython gives a type
//! a fresh tag whenever it or a base is modified, and tags are not reused, so
//! a hit is sound even if the type was changed or freed and its address
//! reused. A type without a valid tag is asked every time.

use crate::dispatch::DispatchKeySet;
use crate::python::tensor::PyTensorBase;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::{GILOnceCell, GILProtected};
use pyo3::types::PyType;
use std::cell::RefCell;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Room for `Tensor`, `Parameter` and the package's internal subclasses
/// whose protocol is disabled (`FakeTensor`).
const MAX_PLAIN: usize = 6;

static PLAIN: [AtomicUsize; MAX_PLAIN] = [const { AtomicUsize::new(0) }; MAX_PLAIN];

/// Treat `cls` (a `TensorBase` subclass) as a plain tensor type: its instances
/// never trigger the protocol. The first registered type is compared first.
#[pyfunction]
pub fn _register_plain_tensor_type(cls: &Bound<'_, PyType>) -> PyResult<()> {
    if !cls.is_subclass_of::<PyTensorBase>()? {
        return Err(PyValueError::new_err(format!(
            "_register_plain_tensor_type: {} is not a Tensor type",
            cls.qualname()?
        )));
    }
    if crate::python::type_slots::register(&PLAIN, cls) {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "_register_plain_tensor_type: at most {MAX_PLAIN} plain tensor types"
    )))
}

/// True when `v`'s type is exactly one of the plain tensor types (unused
/// slots hold 0, never a type's address).
#[inline]
pub(super) fn is_plain(v: &Bound<'_, PyAny>) -> bool {
    let t = v.get_type_ptr() as usize;
    PLAIN[0].load(Ordering::Relaxed) == t
        || PLAIN[1..].iter().any(|p| p.load(Ordering::Relaxed) == t)
}

/// `lookup(cls)`: the protocol method of tensor type `cls`, or None when its
/// protocol is disabled. See Note [Disabled protocol types].
static PROTOCOL_LOOKUP: GILOnceCell<PyObject> = GILOnceCell::new();

/// Bound on the per-type cache; past it the oldest entry goes. Programs use a
/// handful of tensor subclasses, and a miss only costs the Python call.
const MAX_CACHED_TYPES: usize = 64;

/// (type address, version tag, protocol disabled) per non-plain tensor type
/// seen. See Note [Disabled protocol types].
static TYPE_CACHE: GILProtected<RefCell<Vec<(usize, u32, bool)>>> =
    GILProtected::new(RefCell::new(Vec::new()));

/// Register `lookup(cls)`, which returns the `__opyard_function__` of tensor
/// type `cls` or None when it is disabled (`_disabled_torch_function_impl`).
/// Without it every non-plain type takes part in the protocol.
#[pyfunction]
pub fn _set_protocol_lookup(py: Python<'_>, lookup: PyObject) {
    let _ = PROTOCOL_LOOKUP.set(py, lookup);
}

/// Whether the interpreter marks valid version tags with
/// `Py_TPFLAGS_VALID_VERSION_TAG` (up to 3.12; 3.13 no longer sets the flag and
/// a tag is valid when it is not 0, which a modification resets it to).
static TAG_FLAG: std::sync::OnceLock<bool> = std::sync::OnceLock::new();

/// The type's version tag, or None while it has no valid one.
fn version_tag(ty: &Bound<'_, PyType>) -> Option<u32> {
    // SAFETY: `ty` is a live type object; these fields are plain reads under the GIL.
    let (flags, tag) = unsafe {
        let raw = ty.as_type_ptr();
        ((*raw).tp_flags, (*raw).tp_version_tag)
    };
    let flagged = *TAG_FLAG.get_or_init(|| ty.py().version_info() < (3, 13));
    (tag != 0 && (!flagged || flags & pyo3::ffi::Py_TPFLAGS_VALID_VERSION_TAG != 0)).then_some(tag)
}

/// Whether instances of `v`'s (non-plain tensor) type skip the function
/// protocol because it is disabled. See Note [Disabled protocol types].
#[cold]
fn protocol_disabled(v: &Bound<'_, PyAny>) -> bool {
    let py = v.py();
    let ty = v.get_type();
    let addr = ty.as_ptr() as usize;
    if let Some(tag) = version_tag(&ty) {
        let cache = TYPE_CACHE.get(py).borrow();
        if let Some(&(_, _, disabled)) = cache.iter().find(|e| e.0 == addr && e.1 == tag) {
            return disabled;
        }
    }
    let Some(lookup) = PROTOCOL_LOOKUP.get(py) else {
        return false;
    };
    // Any failure leaves the type in the protocol: the handler then reports it.
    let disabled = match lookup.bind(py).call1((&ty,)) {
        Ok(found) => found.is_none(),
        Err(_) => return false,
    };
    // The lookup read the attribute through the type, which gives it a valid tag.
    if let Some(tag) = version_tag(&ty) {
        let mut cache = TYPE_CACHE.get(py).borrow_mut();
        cache.retain(|e| e.0 != addr);
        if cache.len() >= MAX_CACHED_TYPES {
            cache.remove(0);
        }
        cache.push((addr, tag, disabled));
    }
    disabled
}

/// What binding gathers from a call's tensor arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Gathered {
    /// Union of the arguments' key sets.
    pub keys: DispatchKeySet,
    /// Some tensor argument is not of a plain type. See Note [Subclass check].
    pub foreign: bool,
}

impl Gathered {
    /// Add `v` if it is a tensor (`false` if it is not). An exact plain type
    /// needs no subtype walk: registration checked it is a `TensorBase`.
    #[inline]
    pub(super) fn tensor(&mut self, v: &Bound<'_, PyAny>) -> bool {
        let t = if is_plain(v) {
            // SAFETY: only `TensorBase` subclasses are registered as plain
            // (`_register_plain_tensor_type` checks), and `v`'s type is one of them.
            unsafe { v.downcast_unchecked::<PyTensorBase>() }
        } else if let Ok(t) = v.downcast::<PyTensorBase>() {
            // Once a call is foreign, later arguments need not be asked.
            self.foreign = self.foreign || !protocol_disabled(v);
            t
        } else {
            return false;
        };
        self.keys = self.keys | DispatchKeySet::from_raw(t.get().keys());
        true
    }
}
