//! What a built-in op's node keeps of its arguments, made and read from Rust:
//! the shared `TensorMeta` of a tensor whose values the formula does not
//! need, a `SavedTensor` (with the version it had) of one it does, and the
//! checked unpacking of a `SavedTensor` in backward.
//!
//! Note [Saved values from Rust]: `TensorMeta` and `SavedTensor` stay the
//! Python classes the formulas and `grad_fn._saved_<name>` read
//! (`derivatives/registry.py`, `graph.py`). Rust makes them without a
//! Python frame where the tensor is a plain CPU tensor (its `shape` and
//! `dtype` are those of its numpy array, its `_version` its counter's):
//! - a `TensorMeta` comes from a cache keyed by (sizes, dtype object) in
//!   front of Python's own `tensor_meta` cache, which makes each new entry
//!   (so both hand out the same shared object);
//! - a `SavedTensor` is allocated by its type's `tp_alloc` (the class has
//!   `__slots__` and no `__new__`) and its five slots are set, which is
//!   what its `__init__` does.
//!
//! Any other tensor (a subclass, meta or fake) goes through the Python
//! callables, so its overridden attributes are honoured.

pub mod construct;
pub mod slots;

use pyo3::exceptions::PyTypeError;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::GILProtected;
use pyo3::types::{PyBool, PyType};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use std::cell::RefCell;

use crate::python::autograd::saved::slots::{layout_of, SlotLayout, TENSOR, VERSION};
use crate::python::kernels_py::plain_cpu_tensor;

/// (sizes, address of the dtype object): the dtype is kept alive by the
/// `TensorMeta` the entry holds, so its address cannot be reused meanwhile.
type MetaKey = (SmallVec<[isize; 4]>, usize);

/// Entries kept before the cache is emptied (as Python's `_META_CACHE_SIZE`).
const META_CACHE_SIZE: usize = 4096;

static META: GILProtected<RefCell<Option<FxHashMap<MetaKey, PyObject>>>> =
    GILProtected::new(RefCell::new(None));

/// The Python side of the saved values of one kernel: `tensor_meta` and `SavedTensor`.
pub struct SavedMakers {
    pub tensor_meta: PyObject,
    pub saved_tensor: Py<PyType>,
    /// `SavedTensor`'s slots when it can be allocated directly (no `__new__` of its own).
    direct: Option<SlotLayout>,
}

impl SavedMakers {
    /// Checks `saved_tensor` once: a class with its own `__new__` is always called.
    pub fn new(py: Python<'_>, tensor_meta: PyObject, saved_tensor: Py<PyType>) -> PyResult<Self> {
        let ty = saved_tensor.bind(py);
        let object_new = py
            .get_type_bound::<pyo3::types::PyAny>()
            .getattr("__new__")?;
        let direct = if ty.getattr("__new__")?.is(&object_new) {
            layout_of(ty)?
        } else {
            None
        };
        Ok(SavedMakers {
            tensor_meta,
            saved_tensor,
            direct,
        })
    }

    /// `tensor_meta(v)`: the shared shape/dtype stand-in of `v`.
    pub fn meta<'py>(&self, v: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let py = v.py();
        let Some(key) = meta_key(v)? else {
            return self.tensor_meta.bind(py).call1((v,));
        };
        let hit = META
            .get(py)
            .borrow()
            .as_ref()
            .and_then(|m| m.get(&key).map(|o| o.clone_ref(py)));
        if let Some(m) = hit {
            return Ok(m.into_bound(py));
        }
        let made = self.tensor_meta.bind(py).call1((v,))?;
        // See Note [No foreign code under a lock]: the borrow is a RefCell's, but
        // the rule is the same: a full map is taken out and dropped after it.
        // (Another thread may have cached the same key while `tensor_meta` ran:
        // the entry it replaces is dropped after the borrow too.)
        let dropped = {
            let mut cell = META.get(py).borrow_mut();
            let map = cell.get_or_insert_with(FxHashMap::default);
            let full = (map.len() >= META_CACHE_SIZE).then(|| std::mem::take(map));
            (full, map.insert(key, made.clone().unbind()))
        };
        drop(dropped);
        Ok(made)
    }

    /// `SavedTensor(v)` (`output` = `Some(node_name)`: `SavedTensor(v, True, node_name, 0)`).
    pub fn saved<'py>(
        &self,
        v: &Bound<'py, PyAny>,
        output: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = v.py();
        let ty = self.saved_tensor.bind(py);
        // See Note [Saved tensor hooks]: with hooks active, `__init__` packs.
        let direct = self
            .direct
            .as_ref()
            .filter(|_| !super::saved_hooks::active());
        let (Some(state), Some(layout)) = (plain_cpu_tensor(v), direct) else {
            return match output {
                None => ty.call1((v,)),
                Some(name) => ty.call1((v, true, name, 0)),
            };
        };
        let version = state.version(py).into_py(py).into_bound(py);
        let is_output = PyBool::new_bound(py, output.is_some());
        let name = output.unwrap_or_else(|| intern!(py, "").as_any());
        let zero = 0i64.into_py(py).into_bound(py);
        // See Note [SavedTensor slots].
        layout.new_instance(py, [v, &version, is_output.as_any(), name, &zero])
    }
}

/// The cache key of a plain CPU tensor (None: ask Python).
fn meta_key(v: &Bound<'_, PyAny>) -> PyResult<Option<MetaKey>> {
    let Some(state) = plain_cpu_tensor(v) else {
        return Ok(None);
    };
    let py = v.py();
    let Some(dims) = state.with_dims(py, SmallVec::from_slice) else {
        return Ok(None);
    };
    let dtype = state.dtype(py)?;
    Ok(Some((dims, dtype.as_ptr() as usize)))
}

/// Empties the `TensorMeta` cache (tests; the entries are only shared objects).
#[pyfunction]
pub fn _clear_meta_cache(py: Python<'_>) {
    let old = META.get(py).borrow_mut().take();
    drop(old);
}

/// A saved value read back in backward: a `SavedTensor` unpacked as its
/// `unpack(released)` does (a released node or a changed version raise
/// through `unpack` itself, for its exact message), anything else as is.
///
/// Returns `None` when `saved` is not a `SavedTensor` of `ty` holding a
/// plain tensor: the caller takes the Python path. `layout` is `ty`'s
/// (Note [SavedTensor slots]), when known.
pub fn unpack<'py>(
    saved: &Bound<'py, PyAny>,
    ty: &Bound<'py, PyType>,
    layout: Option<&SlotLayout>,
    released: bool,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    let py = saved.py();
    if !saved.get_type().is(ty) {
        return Ok(None);
    }
    let raise = || -> PyResult<Option<Bound<'py, PyAny>>> {
        saved.call_method1(intern!(py, "unpack"), (released,))?;
        Err(PyTypeError::new_err(
            "SavedTensor.unpack did not raise for a released or modified tensor",
        ))
    };
    if released {
        return raise();
    }
    let (t, version) = match layout {
        Some(layout) => {
            let (Some(t), Some(v)) = (layout.get(saved, TENSOR), layout.get(saved, VERSION)) else {
                return Ok(None);
            };
            (t, v.extract::<u64>())
        }
        None => (
            saved.getattr(intern!(py, "tensor"))?,
            saved.getattr(intern!(py, "version"))?.extract::<u64>(),
        ),
    };
    let (Some(state), Ok(version)) = (plain_cpu_tensor(&t), version) else {
        return Ok(None);
    };
    if state.version(py) != version {
        return raise();
    }
    Ok(Some(t))
}
