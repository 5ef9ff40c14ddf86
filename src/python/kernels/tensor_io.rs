//! Tensors in and out of the Rust kernels: the one place that knows how a
//! tensor holds its array (`tensor_array`) and how a result tensor is made
//! (`wrap_result`), so a change of the tensor's layout is a change here only.
//!
//! Note [Kernel tensor access]: a tensor keeps its numpy array in the `_data`
//! slot of `opyard.Tensor`, reached through an interned attribute name, and its
//! key set in `TensorBase`, read and written here as Rust fields. `_kernel_setup` (called once by
//! `opyard._aten.fast`) hands over the `Tensor` class, the CPU key set and
//! the default-dtype holder, since `_core` sits below the layer that defines them.

use super::super::tensor::PyTensorBase;
use crate::dispatch::{DispatchKey, DispatchKeySet};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::pyclass_init::{PyClassInitializer, PyObjectInit};
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyString, PyType};

struct KernelTypes {
    /// `opyard.Tensor`: the only type the fast path accepts and builds.
    tensor: Py<PyType>,
    /// The class whose `value` is the default floating dtype, and `float64`.
    default_holder: PyObject,
    float64: PyObject,
    float32: PyObject,
    /// The `cpu` device singleton, the class default of `Tensor._dev`.
    cpu: PyObject,
    data_name: Py<PyString>,
    dev_name: Py<PyString>,
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
            data_name: PyString::intern_bound(py, "_data").unbind(),
            dev_name: PyString::intern_bound(py, "_dev").unbind(),
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

/// Whether `obj` is a plain CPU `opyard.Tensor` (exact type: subclasses fall back).
pub fn is_plain_cpu_tensor(obj: &Bound<'_, PyAny>) -> bool {
    let Some(t) = types(obj.py()) else {
        return false;
    };
    // SAFETY: both pointers are live objects (GIL held).
    if unsafe { ffi::Py_TYPE(obj.as_ptr()) } != t.tensor.as_ptr() as *mut ffi::PyTypeObject {
        return false;
    }
    // SAFETY: `opyard.Tensor` subclasses `TensorBase` (checked at the exact type above).
    let base = unsafe { obj.downcast_unchecked::<PyTensorBase>() };
    base.get().keys() & !ALLOWED == CPU && on_default_cpu(obj, t)
}

/// Whether the tensor's device is the class default `cpu` (not, say, a
/// `cpu:0` kept in its `__dict__`, which the Python kernels carry over to
/// their results): an instance dict that is absent or has no `_dev`.
fn on_default_cpu(obj: &Bound<'_, PyAny>, t: &KernelTypes) -> bool {
    // SAFETY: GIL held; `opyard.Tensor` has a `__dict__` slot, so the pointer
    // is valid, and the dict (when present) is borrowed only for the lookup.
    unsafe {
        let dict = ffi::_PyObject_GetDictPtr(obj.as_ptr());
        if dict.is_null() || (*dict).is_null() {
            return true;
        }
        let dev = ffi::PyDict_GetItemWithError(*dict, t.dev_name.as_ptr());
        if dev.is_null() {
            ffi::PyErr_Clear();
            return true;
        }
        dev == t.cpu.as_ptr()
    }
}

/// The numpy array of a plain CPU tensor, or `None` for anything else.
pub fn tensor_array<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    if !is_plain_cpu_tensor(obj) {
        return None;
    }
    let t = types(obj.py())?;
    obj.getattr(t.data_name.bind(obj.py())).ok()
}

/// A new CPU `opyard.Tensor` holding `arr`.
pub fn wrap_result(py: Python<'_>, arr: Bound<'_, PyAny>) -> PyResult<PyObject> {
    let t = types(py).expect("wrap_result before _kernel_setup");
    let init = PyClassInitializer::from(PyTensorBase::with_keys(CPU));
    // SAFETY: the GIL is held and `t.tensor` is `opyard.Tensor`, a subclass of
    // `TensorBase` (the contract of `into_new_object`): the same allocation
    // `TensorBase.__new__(Tensor)` makes, with the key set already in place.
    let obj = unsafe {
        let raw = init.into_new_object(py, t.tensor.as_ptr() as *mut ffi::PyTypeObject)?;
        Bound::from_owned_ptr(py, raw)
    };
    obj.setattr(t.data_name.bind(py), arr)?;
    Ok(obj.unbind())
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
