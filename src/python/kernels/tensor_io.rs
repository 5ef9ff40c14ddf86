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
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyString, PyType};

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

/// The state of a plain CPU `opyard.Tensor` (exact type: subclasses fall
/// back) on the default `cpu` device object (a `cpu:0` device, which the
/// Python kernels carry over to their results, falls back too).
pub fn plain_cpu_tensor<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a PyTensorBase> {
    let t = types(obj.py())?;
    // SAFETY: both pointers are live objects (GIL held).
    if unsafe { ffi::Py_TYPE(obj.as_ptr()) } != t.tensor.as_ptr() as *mut ffi::PyTypeObject {
        return None;
    }
    // SAFETY: `opyard.Tensor` subclasses `TensorBase` (checked at the exact type above).
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
