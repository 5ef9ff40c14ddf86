//! The tensor fields the autograd runtime reads and writes from Rust, in one
//! place.
//!
//! Note [Tensor fields from Rust]: a tensor's autograd state lives in
//! `TensorBase` fields (`tensor/base.rs`, `tensor/slots.rs`): `grad`, `grad_fn`,
//! `output_nr`, the leaf's `AccumulateGrad` (a weak reference), its hooks,
//! `_base`, the key set. The autograd runtime reaches them only through the
//! functions below, so a change of layout is a change to this file.
//! `dtype` and `shape` are read as attributes: a subclass may override them.

use crate::python::hooks::installed;
use crate::python::tensor::base::AsTensorBase;
use pyo3::intern;
use pyo3::prelude::*;

use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::slots::Field;

/// The Rust part of tensor `t`.
fn base_of<'a, 'py>(t: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyTensorBase>> {
    t.to_tensor_base()
}

fn is_set(v: Option<Bound<'_, PyAny>>) -> Option<Bound<'_, PyAny>> {
    v.filter(|v| !v.is_none())
}

/// `t.grad` as stored (no non-leaf warning), None when unset.
pub fn grad<'py>(t: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    Ok(is_set(base_of(t)?.get().grad(t.py())))
}

/// Stores `g` as `t.grad` (the engine already checked dtype and shape).
pub fn set_grad(t: &Bound<'_, PyAny>, g: PyObject) -> PyResult<()> {
    let py = t.py();
    base_of(t)?.get().set_grad(py, Some(g.bind(py)));
    Ok(())
}

/// Whether leaf `t` has tensor hooks or post-accumulate hooks.
pub fn has_leaf_hooks(t: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = t.py();
    let this = base_of(t)?.get();
    for field in [Field::BackwardHooks, Field::PostAccumulateHooks] {
        if let Some(h) = is_set(this.field(py, field)) {
            if h.is_truthy()? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Whether `t` is a view (has a `_base`).
pub fn is_view(t: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(is_set(base_of(t)?.get().base(t.py())).is_some())
}

/// The tensor's dtype object (dtypes are singletons: compare with `is`).
pub fn dtype<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = t.py();
    // An exact `opyard.Tensor` keeps `TensorBase`'s `dtype` getter: asked
    // directly, without the attribute lookup.
    if let Some(plain) = installed(py).and_then(|h| h.tensor.downcast_exact(t)) {
        return plain.get().dtype(py);
    }
    t.getattr(intern!(py, "dtype"))
}

/// The tensor's `shape`.
pub fn shape<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    t.getattr(intern!(t.py(), "shape"))
}

/// `t.grad_fn`: the node that produced `t`, or None (a leaf or no history);
/// a view's regenerated first when its memory changed (Note [View history]).
pub fn grad_fn<'py>(t: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    crate::python::autograd::view_history::grad_fn(base_of(t)?)
}

/// Makes `node` the producer of `t` as output 0.
pub fn set_grad_fn(t: &Bound<'_, PyAny>, node: &Bound<'_, PyAny>) -> PyResult<()> {
    base_of(t)?.get().set_history(t.py(), Some(node), 0);
    Ok(())
}

/// `t._output_nr`: which output of its `grad_fn` `t` is.
pub fn output_nr(t: &Bound<'_, PyAny>) -> PyResult<i64> {
    base_of(t)?.get().output_nr(t.py())
}

/// The leaf's cached `AccumulateGrad` (held by a weak reference), if alive.
pub fn grad_accumulator<'py>(t: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = t.py();
    match is_set(base_of(t)?.get().field(py, Field::GradAccumulator)) {
        Some(r) => Ok(is_set(Some(r.call0()?))),
        None => Ok(None),
    }
}

/// The tensor's dispatch key set.
pub fn keyset(t: &Bound<'_, PyAny>) -> PyResult<u64> {
    Ok(base_of(t)?.get().keys())
}

/// Stores the tensor's dispatch key set.
pub fn set_keyset(t: &Bound<'_, PyAny>, raw: u64) -> PyResult<()> {
    base_of(t)?.get().set_keys(raw);
    Ok(())
}

/// Caches the leaf's `AccumulateGrad` (a weak reference to it).
pub fn set_grad_accumulator(t: &Bound<'_, PyAny>, weak: &Bound<'_, PyAny>) -> PyResult<()> {
    base_of(t)?
        .get()
        .set_field(Field::GradAccumulator, Some(weak));
    Ok(())
}
