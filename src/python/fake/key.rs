//! Call keys of the fake cache and the thread's `FakeTensorMode`.
//!
//! See Note [Fake dispatch cache in Rust] (fake_cache.rs) for what a key
//! holds. Dtypes and devices enter a key as small interned ids: the tables
//! below keep each interned object alive, so an address seen in a key always
//! means the same object.

use crate::python::dispatch::operator::PyOperator;
use crate::python::fake::fields as fake_fields;
use crate::python::tensor::base::{PyDevice, PyTensorBase};
use parking_lot::RwLock;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple, PyType};
use pyo3::{ffi, PyTypeInfo};
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

/// A call key: words to hash and compare, in a buffer the thread reuses.
pub struct Key {
    pub words: Vec<u64>,
}

thread_local! {
    static BUFFER: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
}

impl Drop for Key {
    fn drop(&mut self) {
        // Back to the thread for the next call (a nested call meanwhile made its own).
        let words = std::mem::take(&mut self.words);
        let _ = BUFFER.try_with(|b| b.set(words));
    }
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

thread_local! {
    /// This thread's recent (address, id) answers of the two tables, direct-mapped by address, so
    /// a hit takes no lock. An address stays valid for good: the tables never drop their objects.
    static SEEN: [Cell<(usize, u64)>; 16] = const { [const { Cell::new((0, 0)) }; 16] };
}

fn seen(addr: usize) -> Option<u64> {
    SEEN.try_with(|s| {
        let (a, id) = s[(addr >> 4) & 15].get();
        (a == addr).then_some(id)
    })
    .ok()
    .flatten()
}

fn remember(addr: usize, id: u64) {
    let _ = SEEN.try_with(|s| s[(addr >> 4) & 15].set((addr, id)));
}

/// # Safety
/// `dt` is a live object.
unsafe fn dtype_id(py: Python<'_>, dt: *mut ffi::PyObject) -> Option<u64> {
    let addr = dt as usize;
    if let Some(id) = seen(addr) {
        return Some(id);
    }
    let id = intern_dtype(&Bound::from_borrowed_ptr(py, dt))?;
    remember(addr, id);
    Some(id)
}

fn intern_dtype(dt: &Bound<'_, PyAny>) -> Option<u64> {
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

/// # Safety
/// `dev` is a live object of exact type `device`.
unsafe fn device_id(py: Python<'_>, dev: *mut ffi::PyObject) -> Option<u64> {
    let addr = dev as usize;
    if let Some(id) = seen(addr) {
        return Some(id);
    }
    let dev = Bound::from_borrowed_ptr(py, dev);
    let (id, kept) = intern_device(dev.downcast_unchecked::<PyDevice>())?;
    if kept {
        remember(addr, id);
    }
    Some(id)
}

/// The device's id, and whether the table holds this very object (its address then names it).
fn intern_device(dev: &Bound<'_, PyDevice>) -> Option<(u64, bool)> {
    let ptr = dev.as_ptr();
    let found = {
        let table = DEVICES.read();
        if let Some((_, id)) = table.iter().find(|(d, _)| d.as_ptr() == ptr) {
            return Some((*id, true));
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
        return found.map(|id| (id, false));
    }
    let id = found.unwrap_or_else(|| table.iter().map(|(_, id)| id + 1).max().unwrap_or(0));
    table.push((dev.clone().unbind(), id));
    Some((id, true))
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
    let mut key = Key {
        words: BUFFER.try_with(Cell::take).unwrap_or_default(),
    };
    let words = &mut key.words;
    words.clear();
    words.push(Arc::as_ptr(op) as usize as u64);
    let fake = types.fake.bind(py).as_type_ptr();
    for a in args.iter() {
        if a.get_type_ptr() == fake {
            push_tensor(py, words, &a, mode, types)?;
        } else {
            push_value(words, &a)?;
        }
    }
    Some(key)
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
    let f = fake_fields::read(t)?;
    let [fake_mode, sym_shape, dev, strides, offset] = f.named;
    // SAFETY: the field pointers are borrowed from `t` (alive) and its class,
    // and nothing below runs Python code (interning only increfs). `f.data`
    // is checked to be exactly a numpy.ndarray before its struct is read;
    // `dimensions` has `nd` entries.
    unsafe {
        if fake_mode != mode.as_ptr() || sym_shape != ffi::Py_None() {
            return None;
        }
        // `t`'s exact type is the fake tensor type, checked to subclass
        // TensorBase when the fallback was made.
        let keys = t.downcast_unchecked::<PyTensorBase>().get().keys();
        let data = f.data;
        if data.is_null() || ffi::Py_TYPE(data) != types.ndarray.bind(py).as_type_ptr() {
            return None;
        }
        let a = &*(data as *const ArrayFields);
        let dims: &[ffi::Py_ssize_t] = if a.nd > 0 {
            std::slice::from_raw_parts(a.dimensions, a.nd as usize)
        } else {
            &[]
        };
        let dtype = dtype_id(py, a.descr)?;
        if dev.is_null() || ffi::Py_TYPE(dev) != PyDevice::type_object_raw(py) {
            return None;
        }
        let dev = device_id(py, dev)?;
        words.extend([TENSOR, keys, dtype << 32 | dev, dims.len() as u64]);
        words.extend(dims.iter().map(|&d| d as u64));
        if strides.is_null() || offset.is_null() {
            return None;
        }
        if strides == ffi::Py_None() {
            words.push(CONTIGUOUS);
        } else {
            let strides = Bound::from_borrowed_ptr(py, strides);
            push_ints(words, strides.downcast_exact::<PyTuple>().ok()?.as_slice())?;
        }
        words.push(int_of(&Bound::from_borrowed_ptr(py, offset))?);
    }
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
            words.extend([LIST, l.len() as u64]);
            for item in l.iter() {
                words.push(int_of(&item)?);
            }
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
