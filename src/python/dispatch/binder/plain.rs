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

use crate::dispatch::{tls, DispatchKeySet};
use crate::python::autograd::view_history;
use crate::python::ffi::object::version_tag;
use crate::python::ffi::type_slots::TypeSlots;
use crate::python::tensor::base::AsTensorBase;
use crate::python::tensor::base::PyTensorBase;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use pyo3::types::PyType;
use std::cell::RefCell;

/// Room for `Tensor`, `Parameter` and the package's internal subclasses
/// whose protocol is disabled (`FakeTensor`).
const MAX_PLAIN: usize = 6;

static PLAIN: TypeSlots<PyTensorBase, MAX_PLAIN> = TypeSlots::new();

/// Treat `cls` (a `TensorBase` subclass) as a plain tensor type: its instances
/// never trigger the protocol. The first registered type is compared first.
/// With `kernels`, the Rust kernels also take its instances as plain tensors
/// (a subclass that adds no state they would drop: torch's `Parameter`).
#[pyfunction]
#[pyo3(signature = (cls, *, kernels = false))]
pub fn _register_plain_tensor_type(cls: &Bound<'_, PyType>, kernels: bool) -> PyResult<()> {
    if !crate::python::ffi::object::is_subtype(cls, &py_tensor_base(cls.py())) {
        return Err(PyValueError::new_err(format!(
            "_register_plain_tensor_type: {} is not a Tensor type",
            cls.qualname()?
        )));
    }
    if kernels {
        crate::python::kernels_py::register_kernel_plain_type(cls)?;
    }
    if PLAIN.register(cls)? {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "_register_plain_tensor_type: at most {MAX_PLAIN} plain tensor types"
    )))
}

fn py_tensor_base(py: Python<'_>) -> Bound<'_, PyType> {
    py.get_type_bound::<PyTensorBase>()
}

/// True when `v`'s type is exactly one of the plain tensor types.
#[inline]
pub(super) fn is_plain(v: &Bound<'_, PyAny>) -> bool {
    PLAIN.holds(v)
}

/// `v` as a tensor when its type is exactly one of the plain tensor types (no subtype walk).
#[inline]
pub(crate) fn plain_tensor<'a, 'py>(
    v: &'a Bound<'py, PyAny>,
) -> Option<&'a Bound<'py, PyTensorBase>> {
    PLAIN.downcast(v)
}

/// Bound on the per-type cache; past it the oldest entry goes. Programs use a
/// handful of tensor subclasses, and a miss only costs the Python call.
const MAX_CACHED_TYPES: usize = 64;

/// (type address, version tag, protocol disabled) per non-plain tensor type
/// seen. See Note [Disabled protocol types].
static TYPE_CACHE: GILProtected<RefCell<Vec<(usize, u32, bool)>>> =
    GILProtected::new(RefCell::new(Vec::new()));

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
    let Some(lookup) = crate::python::hooks::installed(py).map(|h| &h.protocol_of) else {
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

/// Grad mode is on: the autograd keys are not excluded on this thread.
fn grad_mode_on() -> bool {
    !tls::get().excluded.has_any(DispatchKeySet::AUTOGRAD_KEYS)
}

/// What binding gathers from a call's tensor arguments.
#[derive(Debug, Default)]
pub struct Gathered {
    /// Union of the arguments' key sets.
    pub keys: DispatchKeySet,
    /// Some tensor argument is not of a plain type. See Note [Subclass check].
    pub foreign: bool,
    /// A Python number filled a `Tensor` parameter. See Note [Numbers as tensors].
    pub numbers: bool,
    /// Regenerating a stale view's history raised (Note [View history]).
    pub error: Option<PyErr>,
}

impl Gathered {
    /// Add `v` if it is a tensor (`false` if it is not). An exact plain type
    /// needs no subtype walk: registration checked it is a `TensorBase`.
    #[inline]
    pub(super) fn tensor(&mut self, v: &Bound<'_, PyAny>) -> bool {
        let t = if let Some(t) = PLAIN.downcast(v) {
            t
        } else if let Some(t) = v.as_tensor_base() {
            // Once a call is foreign, later arguments need not be asked.
            self.foreign = self.foreign || !protocol_disabled(v);
            t
        } else {
            return false;
        };
        if view_history::stale_without_grad(v.py(), t.get()) && grad_mode_on() {
            if let Err(e) = view_history::grad_fn(t) {
                self.error.get_or_insert(e);
            }
        }
        self.keys = self.keys | DispatchKeySet::from_raw(t.get().keys());
        true
    }
}
