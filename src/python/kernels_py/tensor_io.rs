//! Tensors in and out of the Rust kernels: the one place that knows how a
//! tensor holds its array (`tensor_array`) and how a result tensor is made
//! (`wrap_result`), so a change of the tensor's layout is a change here only.
//!
//! Note [Kernel tensor access]: a tensor's state lives in its `TensorBase`
//! (the numpy array, the device, the key set), read here through TensorBase's
//! Rust accessors; results are made by `tensor::new_tensor`. What `_core`
//! cannot import from the layers above it (the `Tensor` class, the
//! default-dtype holder) comes from the switchboard (`Hooks`).

use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::autograd::view_history;
use crate::python::ffi::type_slots::TypeSlots;
use crate::python::hooks::{installed, Hooks};
use crate::python::tensor::base::AsTensorBase;
use crate::python::tensor::base::{new_tensor, PyDevice, PyTensorBase, CPU as CPU_DEVICE};
use crate::python::tensor::slots::Field;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// Room for the subclasses the kernels take as plain tensors (`Parameter`).
const MAX_EXTRA: usize = 4;
static EXTRA: TypeSlots<PyTensorBase, MAX_EXTRA> = TypeSlots::new();

/// Let the Rust kernels take instances of `cls`, a `Tensor` subclass that adds
/// no state the kernels would drop (torch's `Parameter`), as plain tensors:
/// their results are plain `Tensor`s, as the Python kernels' are.
pub fn register_kernel_plain_type(cls: &Bound<'_, PyType>) -> PyResult<()> {
    let keeps = cls
        .getattr("_keep_subclass")
        .is_ok_and(|k| k.is_truthy().unwrap_or(true));
    if !crate::python::ffi::object::is_subtype(cls, &cls.py().get_type_bound::<PyTensorBase>())
        || keeps
    {
        return Err(PyValueError::new_err(format!(
            "_register_plain_tensor_type: {} is not a Tensor subclass whose ops return plain Tensors",
            cls.qualname()?
        )));
    }
    if EXTRA.register(cls)? {
        return Ok(());
    }
    Err(PyValueError::new_err(format!(
        "_register_plain_tensor_type: at most {MAX_EXTRA} types"
    )))
}

/// The hooks and the cpu device (`_tensor.CPU`), `None` while the package imports.
fn types(py: Python<'_>) -> Option<(&Hooks, &Py<PyDevice>)> {
    Some((installed(py)?, CPU_DEVICE.get(py)?))
}

/// Keys a fast-path tensor may carry besides CPU: only the autograd ones
/// (the kernel runs below autograd). Fake, Python, Batched, ... fall back.
const ALLOWED: u64 = DispatchKeySet::AUTOGRAD_KEYS.raw();
const CPU: u64 = DispatchKeySet::from_key(DispatchKey::CPU).raw();

/// The state of a plain CPU `opyard.Tensor` (exact type, or one registered
/// by `_register_plain_tensor_type(cls, kernels=True)`: other subclasses fall back) on the default `cpu`
/// device object (a `cpu:0` device, which the Python kernels carry over to
/// their results, falls back too).
pub fn plain_cpu_tensor<'a>(obj: &'a Bound<'_, PyAny>) -> Option<&'a PyTensorBase> {
    let (t, cpu) = types(obj.py())?;
    let base = t
        .tensor
        .downcast_exact(obj)
        .or_else(|| EXTRA.downcast(obj))?
        .get();
    let on_cpu =
        base.keys() & !ALLOWED == CPU && base.field_is(Field::Dev, cpu.bind(obj.py()).as_any());
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
    root.as_tensor_base().cloned()
}

/// A view tensor holding `view`, as `_tensor._make_view` makes one: the
/// viewed tensor's key set (`keys`), the cpu device, `root` as `_base` and
/// the root's version counter. A view of a tensor that requires grad is
/// marked as made with nothing recording and requires grad, with no history
/// and no `AccumulateGrad` of its own (torch's view made in no_grad mode);
/// an autograd kernel recording it gives it its history and overwrites the
/// mark. A view of a tensor without history is marked as a default view, so
/// that it follows a history its base gains later (Note [View history]).
pub fn wrap_view(
    py: Python<'_>,
    view: Bound<'_, PyAny>,
    keys: u64,
    root: &Bound<'_, PyTensorBase>,
) -> PyResult<PyObject> {
    let counter = root.get().counter(py)?;
    let t = new_tensor(py, None, &view, keys, None)?;
    let state = t.get();
    state.set_field(Field::Base, Some(root.as_any()));
    state.set_field(Field::Vc, Some(counter.as_any()));
    let kind = if keys & ALLOWED != 0 {
        view_history::NO_GRAD
    } else {
        view_history::DEFAULT
    };
    view_history::mark(py, state, kind);
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
    let t = installed(py)?;
    let d = t
        .default_dtype
        .bind(py)
        .getattr(pyo3::intern!(py, "value"))
        .ok()?;
    if d.is(&t.float64) {
        Some(true)
    } else if d.is(&t.float32) {
        Some(false)
    } else {
        None
    }
}
