//! `TensorBase`'s computed attributes: `_keyset`, `dtype`, `shape`, `ndim`,
//! `_version` (raw getsets, Note [Raw getsets]) and `device` (a read-only
//! member on `_dev`'s slot); the autograd ones are in tensor/grad.rs.

use crate::python::ffi::ndarray::ArrayView;
use crate::python::hooks::hooks;
use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::slots::{member_descr, Field, SlotsOffset};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use pyo3::types::{PyTuple, PyType};
use std::cell::RefCell;

/// The int objects of recently read key sets, direct-mapped by value: a program
/// uses a handful of key sets, and Python allocates every int above 256.
static KEYSET_INTS: GILProtected<RefCell<KeysetInts>> =
    GILProtected::new(RefCell::new([const { None }; 32]));

/// `(key set, its int object)` entries of `KEYSET_INTS`.
type KeysetInts = [Option<(u64, PyObject)>; 32];

/// `_keyset`: the dispatch key set as raw bits (a shared int object per value).
fn keyset_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    let py = t.py();
    let raw = t.get().keys();
    let slot = (raw ^ (raw >> 5) ^ (raw >> 17) ^ (raw >> 31)) as usize % 32;
    let cache = KEYSET_INTS.get(py);
    if let Some((k, v)) = &cache.borrow()[slot] {
        if *k == raw {
            return Ok(v.clone_ref(py).into_bound(py));
        }
    }
    let int = raw.into_py(py).into_bound(py);
    // The replaced int is released after the borrow ends (dropping an int runs no Python
    // code), as a `Bound`: a getter drops no `Py` (Note [Raw getsets]).
    let old = cache.borrow_mut()[slot].replace((raw, int.clone().unbind()));
    drop(old.map(|(_, o)| o.into_bound(py)));
    Ok(int)
}

fn keyset_set<'py>(t: &Bound<'py, PyTensorBase>, v: Option<&Bound<'py, PyAny>>) -> PyResult<()> {
    let v = v.ok_or_else(|| PyTypeError::new_err("the key set of a tensor cannot be deleted"))?;
    t.get().set_keys(v.extract()?);
    Ok(())
}

/// `dtype`.
fn dtype_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    t.get().dtype(t.py())
}

/// `shape`: an `opyard.Size`, reused while the sizes do not change.
fn shape_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    let py = t.py();
    let this = t.get();
    let data = this.require_data(py)?;
    let size = hooks(py)?.size.bind(py);
    let Some(arr) = ArrayView::of(&data) else {
        return size.call1((data.getattr(pyo3::intern!(py, "shape"))?,));
    };
    let dims = arr.dims();
    if let Some(cached) = this.shape.get(py) {
        if same_sizes(&cached, dims) {
            return Ok(cached);
        }
    }
    let tuple = PyTuple::new_bound(py, dims.iter().map(|&d| d as i64));
    let out = size.call1((tuple,))?;
    this.shape.set(Some(&out));
    Ok(out)
}

/// `ndim`.
fn ndim_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    let py = t.py();
    let data = t.get().require_data(py)?;
    match ArrayView::of(&data) {
        Some(arr) => Ok(arr.dims().len().into_py(py).into_bound(py)),
        None => data.getattr(pyo3::intern!(py, "ndim")),
    }
}

/// `_version`: the version of the tensor's memory (bumped by every in-place operation).
fn version_get<'py>(t: &Bound<'py, PyTensorBase>) -> PyResult<Bound<'py, PyAny>> {
    Ok(t.get().version(t.py()).into_py(t.py()).into_bound(t.py()))
}

/// Install the computed attributes (Note [Raw getsets]) and `device`, a
/// read-only member on `_dev`'s slot.
pub(crate) fn install_attributes(
    ty: &Bound<'_, PyType>,
    slots_offset: SlotsOffset,
) -> PyResult<()> {
    use crate::python::ffi::getset::install;
    install(
        ty,
        c"_keyset",
        c"The dispatch key set as raw bits.",
        keyset_get,
        Some(keyset_set),
    )?;
    install(ty, c"dtype", c"The tensor's dtype.", dtype_get, None)?;
    install(
        ty,
        c"shape",
        c"The tensor's sizes (an opyard.Size).",
        shape_get,
        None,
    )?;
    install(ty, c"ndim", c"The number of dimensions.", ndim_get, None)?;
    install(
        ty,
        c"_version",
        c"The version of the tensor's memory.",
        version_get,
        None,
    )?;
    crate::python::tensor::grad::install_autograd_attributes(ty, slots_offset)?;
    let device = member_descr(ty, c"device", slots_offset, Field::Dev as usize, true)?;
    ty.setattr("device", device)
}

/// Whether `cached` (a tuple of ints) spells `dims`.
fn same_sizes(cached: &Bound<'_, PyAny>, dims: &[isize]) -> bool {
    let Ok(t) = cached.downcast::<PyTuple>() else {
        return false;
    };
    t.len() == dims.len()
        && t.iter()
            .zip(dims)
            .all(|(v, &d)| v.extract::<isize>().is_ok_and(|v| v == d))
}
