//! Call keys of the fake cache and the thread's `FakeTensorMode`.
//!
//! See Note [Fake dispatch cache in Rust] (fake_cache.rs) for what a key
//! holds. Dtypes and devices enter a key as small interned ids: the tables
//! below keep each interned object alive, so an address seen in a key always
//! means the same object.

use super::ops::PyOperator;
use super::tensor::{PyDevice, PyTensorBase};
use parking_lot::RwLock;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple, PyType};
use pyo3::{ffi, intern};
use std::cell::Cell;
use std::sync::Arc;

thread_local! {
    /// The innermost active `FakeTensorMode` of this thread.
    static MODE: Cell<Option<PyObject>> = const { Cell::new(None) };
}

/// The thread's `FakeTensorMode`, if one is active.
pub fn current_mode(py: Python<'_>) -> Option<PyObject> {
    MODE.try_with(|m| {
        let cur = m.take();
        let out = cur.as_ref().map(|o| o.clone_ref(py));
        m.set(cur);
        out
    })
    .ok()
    .flatten()
}

/// The thread's active `FakeTensorMode` (None outside any).
#[pyfunction]
pub fn _fake_mode(py: Python<'_>) -> Option<PyObject> {
    current_mode(py)
}

/// Make `mode` the thread's `FakeTensorMode`; returns the one it replaces.
#[pyfunction]
#[pyo3(signature = (mode))]
pub fn _fake_mode_swap(mode: Option<PyObject>) -> Option<PyObject> {
    // `replace` hands the old object back to the caller: nothing is dropped
    // while the cell is being written.
    MODE.try_with(|m| m.replace(mode)).ok().flatten()
}

/// A call key: words to hash and compare.
pub struct Key {
    pub words: Vec<u64>,
}

// Tags open each argument's words, so that e.g. `1`, `1.0` and `True` differ.
const TENSOR: u64 = 1;
const INT: u64 = 2;
const FLOAT: u64 = 3;
const BOOL: u64 = 4;
const NONE: u64 = 5;
const LIST: u64 = 6;
const TUPLE: u64 = 7;
const CONTIGUOUS: u64 = u64::MAX;

/// Interned objects beyond which new dtypes or devices make calls uncacheable
/// (the tables only grow; real programs use a handful of each).
const INTERN_CAP: usize = 256;

/// Dtype objects by address: the id is the index.
static DTYPES: RwLock<Vec<PyObject>> = RwLock::new(Vec::new());
/// Device objects: (object, id); equal devices share an id.
static DEVICES: RwLock<Vec<(Py<PyDevice>, u64)>> = RwLock::new(Vec::new());

fn dtype_id(dt: &Bound<'_, PyAny>) -> Option<u64> {
    let ptr = dt.as_ptr();
    if let Some(i) = DTYPES.read().iter().position(|d| d.as_ptr() == ptr) {
        return Some(i as u64);
    }
    // Only an incref under the lock (See Note [No foreign code under a lock]).
    let mut table = DTYPES.write();
    if let Some(i) = table.iter().position(|d| d.as_ptr() == ptr) {
        return Some(i as u64);
    }
    if table.len() >= INTERN_CAP {
        return None;
    }
    table.push(dt.clone().unbind());
    Some(table.len() as u64 - 1)
}

fn device_id(dev: &Bound<'_, PyDevice>) -> Option<u64> {
    let ptr = dev.as_ptr();
    let found = {
        let table = DEVICES.read();
        if let Some((_, id)) = table.iter().find(|(d, _)| d.as_ptr() == ptr) {
            return Some(*id);
        }
        // An equal device under another address: same id (compared in Rust).
        let value = dev.get();
        table
            .iter()
            .find(|(d, _)| d.get() == value)
            .map(|(_, id)| *id)
    };
    let mut table = DEVICES.write();
    if table.len() >= INTERN_CAP {
        return found;
    }
    let id = found.unwrap_or_else(|| table.iter().map(|(_, id)| id + 1).max().unwrap_or(0));
    table.push((dev.clone().unbind(), id));
    Some(id)
}

/// The two types a key reads directly: fake tensors (exact type) and their
/// `_data` arrays (exact `numpy.ndarray`).
pub struct KeyTypes {
    pub fake: Py<PyType>,
    pub ndarray: Py<PyType>,
}

/// The key of `op(*args)` when every argument is a fake tensor of `mode`
/// (exact type `types.fake`, no symbolic sizes), a scalar (`int`, `float`,
/// `bool`, `None`) or a list/tuple of ints; None otherwise.
pub fn key_of(
    py: Python<'_>,
    op: &Arc<PyOperator>,
    args: &Bound<'_, PyTuple>,
    mode: &Bound<'_, PyAny>,
    types: &KeyTypes,
) -> Option<Key> {
    let mut words = Vec::with_capacity(1 + 10 * args.len());
    words.push(Arc::as_ptr(op) as usize as u64);
    let fake = types.fake.bind(py).as_type_ptr();
    for a in args.iter() {
        if a.get_type_ptr() == fake {
            push_tensor(py, &mut words, &a, mode, types)?;
        } else {
            push_value(&mut words, &a)?;
        }
    }
    Some(Key { words })
}

extern "C" {
    // CPython's attribute lookup along the MRO, through the type attribute
    // cache (borrowed reference or NULL, never an exception); not wrapped by
    // pyo3-ffi 0.22.
    fn _PyType_Lookup(ty: *mut ffi::PyTypeObject, name: *mut ffi::PyObject) -> *mut ffi::PyObject;
}

/// `t.<name>` for the plain attributes a key reads (instance dict, else class
/// attribute), without the generic machinery; a descriptor on the class
/// (which could run code or take precedence over the dict) takes the generic
/// path.
fn attr<'py>(
    t: &Bound<'py, PyAny>,
    dict: *mut ffi::PyObject,
    name: &Bound<'py, PyString>,
) -> Option<Bound<'py, PyAny>> {
    let py = t.py();
    // SAFETY: `t` and `name` are live; `dict` is `t`'s instance dict or NULL;
    // both lookups return borrowed references, made owned at once while
    // nothing else has run.
    unsafe {
        let cls = _PyType_Lookup(ffi::Py_TYPE(t.as_ptr()), name.as_ptr());
        if !cls.is_null() && (*ffi::Py_TYPE(cls)).tp_descr_get.is_some() {
            return t.getattr(name).ok();
        }
        if !dict.is_null() {
            let v = ffi::PyDict_GetItem(dict, name.as_ptr());
            if !v.is_null() {
                return Some(Bound::from_borrowed_ptr(py, v));
            }
        }
        (!cls.is_null()).then(|| Bound::from_borrowed_ptr(py, cls))
    }
}

/// numpy's public array struct (`PyArrayObject_fields`, the same in numpy 1
/// and 2), as far as a key reads it.
#[repr(C)]
struct ArrayFields {
    ob_base: ffi::PyObject,
    data: *mut std::os::raw::c_char,
    nd: std::os::raw::c_int,
    dimensions: *const ffi::Py_ssize_t,
    strides: *const ffi::Py_ssize_t,
    base: *mut ffi::PyObject,
    descr: *mut ffi::PyObject,
}

fn push_tensor(
    py: Python<'_>,
    words: &mut Vec<u64>,
    t: &Bound<'_, PyAny>,
    mode: &Bound<'_, PyAny>,
    types: &KeyTypes,
) -> Option<()> {
    // SAFETY: a live object's dict pointer slot (NULL if it has none yet).
    let dict = unsafe {
        let p = ffi::_PyObject_GetDictPtr(t.as_ptr());
        if p.is_null() {
            std::ptr::null_mut()
        } else {
            *p
        }
    };
    if !attr(t, dict, intern!(py, "fake_mode"))?.is(mode) {
        return None;
    }
    if !attr(t, dict, intern!(py, "_sym_shape"))?.is_none() {
        return None;
    }
    // SAFETY: `t`'s exact type is the fake tensor type, checked to subclass
    // TensorBase when the fallback was made.
    let keys = unsafe { t.downcast_unchecked::<PyTensorBase>() }
        .get()
        .keys();
    let data = t.getattr(intern!(py, "_data")).ok()?;
    if data.get_type_ptr() != types.ndarray.bind(py).as_type_ptr() {
        return None;
    }
    // SAFETY: `data` is exactly a numpy.ndarray (checked above), whose object
    // starts with `ArrayFields`; `dimensions` has `nd` entries and `descr` is
    // live while `data` is.
    let (descr, dims) = unsafe {
        let f = &*(data.as_ptr() as *const ArrayFields);
        let dims: &[ffi::Py_ssize_t] = if f.nd > 0 {
            std::slice::from_raw_parts(f.dimensions, f.nd as usize)
        } else {
            &[]
        };
        (Bound::from_borrowed_ptr(py, f.descr), dims)
    };
    let dtype = dtype_id(&descr)?;
    let dev = attr(t, dict, intern!(py, "_dev"))?;
    let dev = device_id(dev.downcast_exact::<PyDevice>().ok()?)?;
    words.extend([TENSOR, keys, dtype << 32 | dev, dims.len() as u64]);
    words.extend(dims.iter().map(|&d| d as u64));
    let strides = attr(t, dict, intern!(py, "_meta_strides"))?;
    if strides.is_none() {
        words.push(CONTIGUOUS);
    } else {
        push_ints(words, strides.downcast_exact::<PyTuple>().ok()?.as_slice())?;
    }
    words.push(int_of(&attr(t, dict, intern!(py, "_meta_offset"))?)?);
    Some(())
}

fn push_value(words: &mut Vec<u64>, a: &Bound<'_, PyAny>) -> Option<()> {
    // SAFETY (all raw reads below): `a` is a live object; each accessor is
    // used only after an exact type check for its type.
    unsafe {
        let ty = ffi::Py_TYPE(a.as_ptr());
        if a.is_none() {
            words.push(NONE);
        } else if ty == std::ptr::addr_of_mut!(ffi::PyBool_Type) {
            words.extend([BOOL, (a.as_ptr() == ffi::Py_True()) as u64]);
        } else if ty == std::ptr::addr_of_mut!(ffi::PyLong_Type) {
            words.extend([INT, int_of(a)?]);
        } else if ty == std::ptr::addr_of_mut!(ffi::PyFloat_Type) {
            words.extend([FLOAT, ffi::PyFloat_AS_DOUBLE(a.as_ptr()).to_bits()]);
        } else if let Ok(l) = a.downcast_exact::<PyList>() {
            words.push(LIST);
            let items: Vec<Bound<'_, PyAny>> = l.iter().collect();
            push_ints(words, &items)?;
        } else if let Ok(t) = a.downcast_exact::<PyTuple>() {
            words.push(TUPLE);
            push_ints(words, t.as_slice())?;
        } else {
            return None;
        }
    }
    Some(())
}

/// Length, then each item (exact `int`s only).
fn push_ints(words: &mut Vec<u64>, items: &[Bound<'_, PyAny>]) -> Option<()> {
    words.push(items.len() as u64);
    for i in items {
        words.push(int_of(i)?);
    }
    Some(())
}

/// An exact `int` that fits in 64 bits, as its bits.
fn int_of(a: &Bound<'_, PyAny>) -> Option<u64> {
    // SAFETY: `a` is live; `PyLong_AsLongLongAndOverflow` is called only on
    // an exact int, which it reads without raising (overflow is reported
    // through the flag).
    unsafe {
        if ffi::Py_TYPE(a.as_ptr()) != std::ptr::addr_of_mut!(ffi::PyLong_Type) {
            return None;
        }
        let mut overflow = 0;
        let v = ffi::PyLong_AsLongLongAndOverflow(a.as_ptr(), &mut overflow);
        (overflow == 0).then_some(v as u64)
    }
}
