//! Call keys of the fake cache and the thread's `FakeTensorMode`.
//!
//! See Note [Fake dispatch cache in Rust] (fake/cache.rs) for what a key
//! holds. Dtypes and devices enter a key as small interned ids: the tables
//! below keep each interned object alive, so an address seen in a key always
//! means the same object.

use crate::python::dispatch::operator::PyOperator;
use crate::python::fake::fields as fake_fields;
use crate::python::ffi::ndarray::ArrayView;
use crate::python::ffi::type_slots::SubclassOf;
use crate::python::tensor::base::{PyDevice, PyTensorBase};
use crate::python::tensor::device::DEVICE;
use parking_lot::RwLock;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyFloat, PyList, PyLong, PyTuple, PyType};
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

fn dtype_id(dt: &Bound<'_, PyAny>) -> Option<u64> {
    let addr = dt.as_ptr() as usize;
    if let Some(id) = seen(addr) {
        return Some(id);
    }
    let id = intern_dtype(dt)?;
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

fn device_id(dev: &Bound<'_, PyDevice>) -> Option<u64> {
    let addr = dev.as_ptr() as usize;
    if let Some(id) = seen(addr) {
        return Some(id);
    }
    let (id, kept) = intern_device(dev)?;
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
    pub fake: SubclassOf<PyTensorBase>,
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
    for a in args.iter() {
        if let Some(t) = types.fake.downcast_exact(&a) {
            push_tensor(py, words, t, mode, types)?;
        } else {
            push_value(words, &a)?;
        }
    }
    Some(key)
}

fn push_tensor(
    py: Python<'_>,
    words: &mut Vec<u64>,
    t: &Bound<'_, PyTensorBase>,
    mode: &Bound<'_, PyAny>,
    types: &KeyTypes,
) -> Option<()> {
    let f = fake_fields::read(t);
    if !f.fake_mode.is_some_and(|m| m.is(mode)) || !f.sym_shape.is_some_and(|s| s.is_none()) {
        return None;
    }
    let data = f.data.filter(|d| d.get_type().is(types.ndarray.bind(py)))?;
    let array = ArrayView::of(&data)?;
    let dims = array.dims();
    let dtype = dtype_id(&array.descr(py))?;
    let dev = f.dev?;
    let dev = device_id(DEVICE.downcast_exact(&dev)?)?;
    words.extend([TENSOR, f.keys, dtype << 32 | dev, dims.len() as u64]);
    words.extend(dims.iter().map(|&d| d as u64));
    let (strides, offset) = (f.meta_strides?, f.meta_offset?);
    if strides.is_none() {
        words.push(CONTIGUOUS);
    } else {
        push_ints(words, strides.downcast_exact::<PyTuple>().ok()?.as_slice())?;
    }
    words.push(int_of(&offset)?);
    Some(())
}

fn push_value(words: &mut Vec<u64>, a: &Bound<'_, PyAny>) -> Option<()> {
    if a.is_none() {
        words.push(NONE);
    } else if let Ok(b) = a.downcast_exact::<PyBool>() {
        words.extend([BOOL, b.is_true() as u64]);
    } else if a.is_exact_instance_of::<PyLong>() {
        words.extend([INT, int_of(a)?]);
    } else if let Ok(x) = a.downcast_exact::<PyFloat>() {
        words.extend([FLOAT, x.value().to_bits()]);
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
    crate::python::ffi::object::exact_int_bits(a)
}
