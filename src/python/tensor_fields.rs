//! The tensor fields the autograd runtime reads and writes from Rust, in one
//! place.
//!
//! Note [Tensor fields from Rust]: today a tensor's autograd state lives in
//! its instance `__dict__` (see Note [Tensor autograd fields] in
//! `_tensor_meta.py`): `grad`, `_backward_hooks`, `_post_accumulate_hooks`,
//! `_base`. Every Rust read or write of those goes through the functions
//! below (interned names, no other spelling anywhere), so moving the fields
//! into `TensorBase` is a change to this file only.

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The tensor's instance dict (created empty on first access, as Python does).
fn dict_of<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyDict>> {
    Ok(t.getattr(intern!(t.py(), "__dict__"))?.downcast_into::<PyDict>()?)
}

/// `t.grad` as stored (no non-leaf warning), None when unset.
pub fn grad<'py>(t: &Bound<'py, PyAny>) -> PyResult<Option<Bound<'py, PyAny>>> {
    let g = dict_of(t)?.get_item(intern!(t.py(), "grad"))?;
    Ok(g.filter(|g| !g.is_none()))
}

/// Stores `g` as `t.grad` (the engine already checked dtype and shape).
pub fn set_grad(t: &Bound<'_, PyAny>, g: PyObject) -> PyResult<()> {
    dict_of(t)?.set_item(intern!(t.py(), "grad"), g)
}

/// Whether leaf `t` has tensor hooks or post-accumulate hooks.
pub fn has_leaf_hooks(t: &Bound<'_, PyAny>) -> PyResult<bool> {
    let py = t.py();
    let d = dict_of(t)?;
    for name in [
        intern!(py, "_backward_hooks"),
        intern!(py, "_post_accumulate_hooks"),
    ] {
        if let Some(h) = d.get_item(name)? {
            if h.is_truthy()? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Whether `t` is a view (has a `_base`).
pub fn is_view(t: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(!t.getattr(intern!(t.py(), "_base"))?.is_none())
}

/// The tensor's dtype object (dtypes are singletons: compare with `is`).
pub fn dtype<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    t.getattr(intern!(t.py(), "dtype"))
}

/// The tensor's `shape`.
pub fn shape<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    t.getattr(intern!(t.py(), "shape"))
}

/// `t._grad_fn`: the node that produced `t`, or None (a leaf or no history).
pub fn grad_fn<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    t.getattr(intern!(t.py(), "_grad_fn"))
}

/// Makes `node` the producer of `t` (its output number stays as it is).
pub fn set_grad_fn(t: &Bound<'_, PyAny>, node: &Bound<'_, PyAny>) -> PyResult<()> {
    t.setattr(intern!(t.py(), "_grad_fn"), node)
}

/// `t._output_nr`: which output of its `grad_fn` `t` is.
pub fn output_nr(t: &Bound<'_, PyAny>) -> PyResult<i64> {
    t.getattr(intern!(t.py(), "_output_nr"))?.extract()
}

/// The leaf's cached `AccumulateGrad` (a weak reference), or None.
pub fn grad_accumulator<'py>(t: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    t.getattr(intern!(t.py(), "_grad_accumulator"))?.call0()
}

/// Stores the tensor's dispatch key set.
pub fn set_keyset(t: &Bound<'_, PyAny>, raw: u64) -> PyResult<()> {
    t.setattr(intern!(t.py(), "_keyset"), raw)
}
