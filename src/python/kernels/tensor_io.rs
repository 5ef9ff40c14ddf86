//! Tensors in and out of the Rust kernels: the one place that knows how a
//! tensor holds its array (`tensor_array`) and how a result tensor is made
//! (`wrap_result`), so a change of the tensor's layout is a change here only.
//!
//! Note [Kernel tensor access]: a tensor's state lives in its `TensorBase`
//! (the numpy array, the device, the key set), read here through TensorBase's
//! Rust accessors; results are made by `tensor::new_tensor`. `_kernel_setup`
//! (called once by `opyard._aten.fast`) hands over what `_core` cannot import
//! from the layers above it: the `Tensor` class and the default-dtype holder.

use super::super::tensor::{new_tensor, PyTensorBase};
use super::super::tensor_slots::Field;
use crate::dispatch::{DispatchKey, DispatchKeySet};
use pyo3::exceptions::PyValueError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyString, PyType};
use std::sync::atomic::{AtomicUsize, Ordering};

struct KernelTypes {
    /// `opyard.Tensor`: the only type the fast path accepts and builds.
    tensor: Py<PyType>,
    /// The class whose `value` is the default floating dtype, and `float64`.
    default_holder: PyObject,
    float64: PyObject,
    float32: PyObject,
    /// The `cpu` device every tensor starts on (`_tensor.CPU`).
    cpu: PyObject,
    value_name: Py<PyString>,
}

static TYPES: GILOnceCell<KernelTypes> = GILOnceCell::new();

/// Room for the subclasses the kernels take as plain tensors (`Parameter`).
const MAX_EXTRA: usize = 4;
/// Their type pointers (0: free), each kept alive forever by a leaked reference.
static EXTRA: [AtomicUsize; MAX_EXTRA] = [const { AtomicUsize::new(0) }; MAX_EXTRA];

/// Let the Rust kernels take instances of `cls`, a `Tensor` subclass that adds
/// no state the kernels would drop (torch's `Parameter`), as plain tensors:
/// their results are plain `Tensor`s, as the Python kernels' are.
#[pyfunction]
pub fn _kernel_plain_type(cls: &Bound<'_, PyType>) -> PyResult<()> {
    let keeps = cls
        .getattr("_keep_subclass")
        .is_ok_and(|k| k.is_truthy().unwrap_or(true));
    if !cls.is_subclass_of::<PyTensorBase>()? || keeps {
        return Err(PyValueError::new_err(format!(
            "_kernel_plain_type: {} is not a Tensor subclass whose ops return plain Tensors",
            cls.qualname()?
        )));
    }
    if crate::python::type_slots::register(&EXTRA, cls) {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "_kernel_plain_type: at most {MAX_EXTRA} types"
    )))
}

fn is_kernel_type(t: &KernelTypes, ty: *mut ffi::PyTypeObject) -> bool {
    ty == t.tensor.as_ptr() as *mut ffi::PyTypeObject
        || EXTRA
            .iter()
            .any(|s| s.load(Ordering::Acquire) == ty as usize)
}

/// Hand the Rust kernels the classes they need (see Note [Kernel tensor access]).
/// Idempotent: the first call wins.
#[pyfunction]
pub fn _kernel_setup(
    py: Python<'_>,
    tensor: Bound<'_, PyType>,
    default_holder: PyObject,
    float32: PyObject,
    float64: PyObject,
    cpu: PyObject,
) -> PyResult<()> {
    let _ = TYPES.set(
        py,
        KernelTypes {
            tensor: tensor.unbind(),
            default_holder,
            float64,
            float32,
            cpu,
            value_name: PyString::intern_bound(py, "value").unbind(),
        },
    );
    Ok(())
}

fn types(py: Python<'_>) -> Option<&KernelTypes> {
    TYPES.get(py)
}

/// Keys a fast-path tensor may carry besides CPU: only the autograd ones
/// (the kernel runs below autograd). Fake, Python, Batched, ... fall back.
const ALLOWED: u64 = DispatchKeySet::AUTOGRAD_KEYS.raw();
const CPU: u64 = DispatchKeySet::from_key(DispatchKey::CPU).raw();

/// The state of a plain CPU `opyard.Tensor` (exact type, or one registered
/// by `_kernel_plain_type`: other subclasses fall back) on the default `cpu`
/// device object (a `cpu:0` device, which the Python kernels carry over to
/// their results, falls back too).
pub fn plain_cpu_tensor<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a PyTensorBase> {
    let t = types(obj.py())?;
    // SAFETY: `obj` is a live object (GIL held).
    if !is_kernel_type(t, unsafe { ffi::Py_TYPE(obj.as_ptr()) }) {
        return None;
    }
    // SAFETY: every accepted type subclasses `TensorBase` (checked at registration).
    let base = unsafe { obj.downcast_unchecked::<PyTensorBase>() }.get();
    let on_cpu = base.keys() & !ALLOWED == CPU && base.field_ptr(Field::Dev) == t.cpu.as_ptr();
    on_cpu.then_some(base)
}

/// The numpy array of a plain CPU tensor, or `None` for anything else.
pub fn tensor_array<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    plain_cpu_tensor(obj)?.data(obj.py())
}

/// A new CPU `opyard.Tensor` holding `arr`.
pub fn wrap_result(py: Python<'_>, arr: Bound<'_, PyAny>) -> PyResult<PyObject> {
    Ok(new_tensor(py, None, &arr, CPU, None)?.into_any().unbind())
}

/// The root a view of `base` records (`base._base`, or `base` itself), when it is a tensor.
pub fn view_root<'py>(
    base: &Bound<'py, PyAny>,
    base_state: &PyTensorBase,
) -> Option<Bound<'py, PyTensorBase>> {
    let root = base_state.base(base.py()).unwrap_or_else(|| base.clone());
    root.downcast_into::<PyTensorBase>().ok()
}

/// A view tensor holding `view`, as `_tensor._make_view` makes one: the
/// viewed tensor's key set (`keys`) without autograd keys, the cpu device,
/// `root` as `_base` and the root's version counter.
pub fn wrap_view(
    py: Python<'_>,
    view: Bound<'_, PyAny>,
    keys: u64,
    root: &Bound<'_, PyTensorBase>,
) -> PyResult<PyObject> {
    let counter = root.get().counter(py)?;
    let t = new_tensor(py, None, &view, keys & !ALLOWED, None)?;
    let state = t.get();
    state.set_field(Field::Base, Some(root.as_any()));
    state.set_field(Field::Vc, Some(counter.as_any()));
    Ok(t.into_any().unbind())
}

/// A detached tensor holding `view`, as `_tensor._make_detached` makes one:
/// `wrap_view`'s tensor without `_base` (it shares the root's version counter).
pub fn wrap_detached(
    py: Python<'_>,
    view: Bound<'_, PyAny>,
    keys: u64,
    root: &Bound<'_, PyTensorBase>,
) -> PyResult<PyObject> {
    let counter = root.get().counter(py)?;
    let t = new_tensor(py, None, &view, keys & !ALLOWED, None)?;
    t.get().set_field(Field::Vc, Some(counter.as_any()));
    Ok(t.into_any().unbind())
}

/// The default floating dtype as a fast-path dtype: `Some(true)` for
/// float64, `Some(false)` for float32, `None` for another (half, bfloat16).
pub fn default_float_is_f64(py: Python<'_>) -> Option<bool> {
    let t = types(py)?;
    let d = t
        .default_holder
        .bind(py)
        .getattr(t.value_name.bind(py))
        .ok()?;
    if d.is(&t.float64) {
        Some(true)
    } else if d.is(&t.float32) {
        Some(false)
    } else {
        None
    }
}
