//! `vmap`'s batched tensor in Rust: its state on `TensorBase`, its
//! constructor, and the batching rules of the pointwise operators.
//!
//! Note [Batched tensors in Rust]: a batched tensor (`opyard.func.batched.
//! BatchedTensor`, see Note [Batched tensor layout] there) is a `TensorBase`
//! like any other: its physical tensor and its vmap level are two of the
//! tensor's fields (`_value`, `_level`: [`Field::BatchValue`],
//! [`Field::BatchLevel`]), read and written by Python as struct members and by
//! Rust without a lookup, the way the autograd fields are. Its `_data` is the
//! physical storage's first example (`d[0]`, a numpy view: the logical shape,
//! dtype and strides), its key set the physical one plus `Batched`.
//!
//! [`wrap`] makes one in one call (`_core._wrap_batched`, what the Python
//! `wrap` is while the fast paths are on): no `__new__` lookup, the logical
//! view made through numpy's C API. The class and the general constructor (an
//! empty batch, storage that is not a numpy array) come from the switchboard's
//! `batched_tensor` hook, asked once.
//!
//! The pointwise family's rules run here too ([`pointwise`]); every other
//! rule is Python's (`opyard/func/rules/`), and so are the cases the Rust
//! rules hand back (Note [Fast paths and general paths]).

pub mod pointwise;

use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::PyType;

use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::ffi::numpy::{view_of, Header};
use crate::python::ffi::type_slots::SubclassOf;
use crate::python::hooks::hooks;
use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::slots::Field;

/// The `Batched` key's bit.
pub const BATCHED: u64 = DispatchKeySet::from_key(DispatchKey::Batched).raw();

/// `(BatchedTensor, wrap_general)`, from the `batched_tensor` hook on first use.
struct Batched {
    ty: SubclassOf<PyTensorBase>,
    general: PyObject,
}

static BATCHED_TYPE: GILOnceCell<Batched> = GILOnceCell::new();

fn batched(py: Python<'_>) -> PyResult<&Batched> {
    if let Some(b) = BATCHED_TYPE.get(py) {
        return Ok(b);
    }
    let found = hooks(py)?.batched_tensor.call0(py)?;
    let (ty, general): (Bound<'_, PyType>, PyObject) = found.extract(py)?;
    let made = Batched {
        ty: SubclassOf::new(ty)?,
        general,
    };
    Ok(BATCHED_TYPE.get_or_init(py, || made))
}

/// `obj` as a batched tensor when its type is exactly the batched tensor class.
#[inline]
pub fn as_batched<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PyTensorBase>> {
    BATCHED_TYPE.get(obj.py())?.ty.downcast_exact(obj)
}

/// A batched tensor of `level` over `value` (batch dimension 0). See Note [Batched tensors in Rust].
pub fn wrap<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    level: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let b = batched(py)?;
    let Ok(v) = value.downcast::<PyTensorBase>() else {
        return b.general.call1(py, (value, level)).map(|o| o.into_bound(py));
    };
    let vs = v.get();
    let Some(data) = vs.data(py) else {
        return b.general.call1(py, (value, level)).map(|o| o.into_bound(py));
    };
    let logical = match Header::read(&data) {
        Some(h) if h.dims().first().is_some_and(|&n| n > 0) => {
            view_of(&data, &h.dims()[1..], &h.strides()[1..], 0, true)?
        }
        // An empty batch, a 0-dim value, storage that is no numpy array: the general path.
        _ => return b.general.call1(py, (value, level)).map(|o| o.into_bound(py)),
    };
    let state = PyTensorBase::fresh(py);
    state.set_data(&logical);
    state.set_keys(vs.keys() | BATCHED);
    state.set_field(Field::Dev, vs.device(py).as_ref());
    state.set_field(Field::BatchValue, Some(value));
    state.set_field(Field::BatchLevel, Some(level));
    Ok(b.ty.new_instance(py, state)?.into_any())
}

/// `wrap(value, level)`: a batched tensor of `level` over `value` (batch dim 0). See Note [Batched tensors in Rust].
#[pyfunction]
pub fn _wrap_batched<'py>(
    py: Python<'py>,
    value: &Bound<'py, PyAny>,
    level: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    wrap(py, value, level)
}

/// The level of a batched tensor (its `_level` field as an int; 0 when unset).
#[inline]
pub fn level_of(py: Python<'_>, t: &PyTensorBase) -> i64 {
    t.field(py, Field::BatchLevel)
        .and_then(|l| crate::python::ffi::object::exact_int_bits(&l).map(|b| b as i64))
        .unwrap_or(0)
}

/// Add this area's classes and functions to `_core`.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_wrap_batched, m)?)?;
    m.add_class::<pointwise::PyBatchedPointwise>()?;
    Ok(())
}
