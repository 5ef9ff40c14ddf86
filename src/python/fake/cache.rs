//! The `Fake` fallback's front half: the metadata cache, served from Rust.
//!
//! Note [Fake dispatch cache in Rust]: under `FakeTensorMode` a functional
//! op's outputs depend only on the metadata of its arguments, so their layout
//! is memoized per call key (see Note [Fake dispatch cache] in
//! `opyard/fake/cache.py` for the policy). The dispatcher hands this fallback
//! the operator (an `Arc`, no `OpOverload` object) and the masked key set (a
//! `u64`, no `DispatchKeySet` object). When every argument is a fake tensor of
//! the thread's mode or a plain scalar / int list, the key is a row of words
//! read off the arguments:
//! - the operator's address (the entry holds the `Arc`, so the address cannot
//!   be reused by another operator while the entry lives);
//! - per fake tensor: key set, interned dtype and device ids, sizes, strides
//!   (or "contiguous"), storage offset (read as in Note [Reading fake tensor
//!   fields], fake/fields.rs);
//! - per scalar: its type tag and bits (`1`, `1.0` and `True` differ, as
//!   torch's cache keys them).
//!
//! A hit builds the output tensors from the entry's shared layout (one
//! allocation and a few stores per output) without entering Python code. A
//! miss calls `miss(mode, op, args)` in Python, which runs the op and says
//! whether (and what) to cache; any other call goes to the Python fallback
//! unchanged. Entries hold layouts (zero-stride arrays, devices), never the
//! tensors of a call. `fake/cache.py` clears the cache when an operator gains
//! or loses a fake impl, so a verdict never outlives its reason.

use crate::dispatch::DispatchKeySet;
use crate::python::dispatch::binder::BoundCall;
use crate::python::dispatch::keys::PyDispatchKeySet;
use crate::python::dispatch::operator::{Picked, PyOpOverload, PyOperator};
use crate::python::fake::key::{current_mode, key_of, Key, KeyTypes};
use crate::python::ffi::type_slots::SubclassOf;
use crate::python::tensor::base::PyTensorBase;
use crate::python::tensor::slots::Field;
use parking_lot::Mutex;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple, PyType};
use rustc_hash::FxHashMap;
use std::sync::Arc;

/// Entries kept before the cache starts afresh (a bound on memory for
/// programs that see endlessly new shapes; a full cache costs one clear).
const CAPACITY: usize = 1 << 14;

/// The layout of one output tensor, shared by every hit.
struct OutTensor {
    data: PyObject,
    dev: PyObject,
    strides: Option<PyObject>,
    offset: Option<PyObject>,
    keys: PyObject,
    /// `keys` as the key set's bits, read once.
    key_bits: u64,
}

/// What a hit returns: one tensor, or a tuple of them.
enum Outputs {
    One(OutTensor),
    Tuple(Vec<OutTensor>),
}

/// A cached result; it holds its operator so that the operator's address,
/// the key's first word, cannot be reused while the entry lives.
struct Entry {
    outputs: Outputs,
    _op: Arc<PyOperator>,
}

/// The registered `Fake` fallback: Rust cache in front, Python behind.
#[pyclass(name = "FakeFallback", module = "opyard._core", frozen)]
pub struct PyFakeFallback {
    /// `fake_fallback(keyset, op, *args, **kwargs)`: calls the cache cannot key.
    slow: PyObject,
    /// `miss(mode, op, args) -> (out, entry or None)`: a keyed call not cached yet.
    miss: PyObject,
    /// `FakeTensor` (the only tensor type keyed, exact, and the outputs' type) and `numpy.ndarray`.
    types: KeyTypes,
    /// See Note [No foreign code under a lock]: entries are cloned (`Arc`)
    /// under the lock and built, dropped or evicted outside it.
    cache: Mutex<FxHashMap<Box<[u64]>, Arc<Entry>>>,
}

#[pymethods]
impl PyFakeFallback {
    #[new]
    fn new(
        _py: Python<'_>,
        slow: PyObject,
        miss: PyObject,
        fake_type: Bound<'_, PyType>,
        ndarray: Bound<'_, PyType>,
    ) -> PyResult<Self> {
        let name = fake_type.name()?.to_string();
        let Ok(fake) = SubclassOf::<PyTensorBase>::new(fake_type) else {
            return Err(PyTypeError::new_err(format!(
                "FakeFallback: the fake tensor type must subclass TensorBase, got {name}"
            )));
        };
        Ok(PyFakeFallback {
            slow,
            miss,
            types: KeyTypes {
                fake,
                ndarray: ndarray.unbind(),
            },
            cache: Mutex::new(FxHashMap::default()),
        })
    }

    /// Called as a plain boxed fallback (not through the dispatcher): the Python path.
    #[pyo3(signature = (*args, **kwargs))]
    fn __call__(
        &self,
        py: Python<'_>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyObject> {
        self.slow.bind(py).call(args, kwargs).map(Bound::unbind)
    }

    /// Number of cached call keys.
    fn cache_len(&self) -> usize {
        self.cache.lock().len()
    }

    /// Forget every entry.
    fn cache_clear(&self) {
        let old = std::mem::take(&mut *self.cache.lock());
        drop(old); // outside the lock: See Note [No foreign code under a lock]
    }

    /// The layouts `entry` caches, for tests: [(data, dev, strides, offset, keys)].
    fn _entries(&self, py: Python<'_>) -> Vec<Vec<PyObject>> {
        let entries: Vec<Arc<Entry>> = self.cache.lock().values().cloned().collect();
        let row = |o: &OutTensor| {
            vec![
                o.data.clone_ref(py),
                o.dev.clone_ref(py),
                o.strides
                    .as_ref()
                    .map_or_else(|| py.None(), |s| s.clone_ref(py)),
                o.offset
                    .as_ref()
                    .map_or_else(|| py.None(), |s| s.clone_ref(py)),
                o.keys.clone_ref(py),
            ]
        };
        entries
            .iter()
            .flat_map(|e| match &e.outputs {
                Outputs::One(o) => vec![row(o)],
                Outputs::Tuple(v) => v.iter().map(row).collect(),
            })
            .collect()
    }
}

/// Entry point from the dispatcher for a `FakeFallback` kernel.
pub fn call(
    ff: &Bound<'_, PyFakeFallback>,
    k: &Picked<'_>,
    op: &Arc<PyOperator>,
    op_obj: Option<&Bound<'_, PyOpOverload>>,
    call: BoundCall<'_>,
    masked: DispatchKeySet,
) -> PyResult<PyObject> {
    let py = ff.py();
    let this = ff.get();
    let no_kwargs = call.kwargs.as_ref().is_none_or(|d| d.is_empty());
    if no_kwargs {
        if let Some(mode) = current_mode(py) {
            let mode = mode.into_bound(py);
            if let Some(key) = key_of(py, op, &call.args, &mode, &this.types) {
                return this.keyed(py, op, op_obj, &call.args, &mode, key);
            }
        }
    }
    this.call_slow(py, k, op, op_obj, call, masked)
}

impl PyFakeFallback {
    fn keyed(
        &self,
        py: Python<'_>,
        op: &Arc<PyOperator>,
        op_obj: Option<&Bound<'_, PyOpOverload>>,
        args: &Bound<'_, PyTuple>,
        mode: &Bound<'_, PyAny>,
        key: Key,
    ) -> PyResult<PyObject> {
        let hit = self.cache.lock().get(&key.words[..]).cloned();
        if let Some(entry) = hit {
            return self.build(py, &entry.outputs, mode);
        }
        let op_obj = overload_object(py, op, op_obj)?;
        let res = self.miss.bind(py).call1((mode, op_obj, args))?;
        let (out, entry): (PyObject, Bound<'_, PyAny>) = res.extract()?;
        if let Some(outputs) = parse_outputs(&entry)? {
            let entry = Arc::new(Entry {
                outputs,
                _op: op.clone(),
            });
            self.insert(key.words.as_slice().into(), entry);
        }
        Ok(out)
    }

    fn insert(&self, key: Box<[u64]>, entry: Arc<Entry>) {
        let (evicted, replaced) = {
            let mut map = self.cache.lock();
            let evicted = if map.len() >= CAPACITY {
                std::mem::take(&mut *map)
            } else {
                FxHashMap::default()
            };
            (evicted, map.insert(key, entry))
        };
        // Dropped here, with the lock released. See Note [No foreign code under a lock].
        drop(evicted);
        drop(replaced);
    }

    fn build(
        &self,
        py: Python<'_>,
        outputs: &Outputs,
        mode: &Bound<'_, PyAny>,
    ) -> PyResult<PyObject> {
        match outputs {
            Outputs::One(o) => Ok(self.make(py, o, mode)?.unbind()),
            Outputs::Tuple(v) => {
                let items = v
                    .iter()
                    .map(|o| self.make(py, o, mode))
                    .collect::<PyResult<Vec<_>>>()?;
                Ok(PyTuple::new_bound(py, items).into_any().unbind())
            }
        }
    }

    /// A new fake tensor with the layout `o`, in `mode` (what `from_entry` does in Python).
    fn make<'py>(
        &self,
        py: Python<'py>,
        o: &OutTensor,
        mode: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        // `TensorBase.__new__` makes a fresh state: made here directly, without the
        // Python-level `__new__` call and its argument parsing.
        let t = self.types.fake.new_instance(py, PyTensorBase::fresh(py))?;
        let tb = t.get();
        tb.set_field(Field::Data, Some(o.data.bind(py)));
        tb.set_field(Field::Dev, Some(o.dev.bind(py)));
        tb.set_keys(o.key_bits);
        tb.set_field(Field::FakeMode, Some(mode));
        if let Some(s) = &o.strides {
            tb.set_field(Field::MetaStrides, Some(s.bind(py)));
        }
        if let Some(off) = &o.offset {
            tb.set_field(Field::MetaOffset, Some(off.bind(py)));
        }
        Ok(t.into_any())
    }

    /// The Python fallback with the arguments the dispatcher would have passed.
    fn call_slow(
        &self,
        py: Python<'_>,
        k: &Picked<'_>,
        op: &Arc<PyOperator>,
        op_obj: Option<&Bound<'_, PyOpOverload>>,
        call: BoundCall<'_>,
        masked: DispatchKeySet,
    ) -> PyResult<PyObject> {
        let mut prefix: Vec<PyObject> = Vec::with_capacity(2 + call.args.len());
        if k.with_keyset {
            prefix.push(Py::new(py, PyDispatchKeySet(masked))?.into_any());
        }
        prefix.push(overload_object(py, op, op_obj)?.into_any());
        prefix.extend(call.args.iter().map(Bound::unbind));
        let args = PyTuple::new_bound(py, prefix);
        self.slow
            .bind(py)
            .call(args, call.kwargs.as_ref())
            .map(Bound::unbind)
    }
}

/// The caller's `OpOverload`, or a new one (misses and uncached calls only).
fn overload_object(
    py: Python<'_>,
    op: &Arc<PyOperator>,
    op_obj: Option<&Bound<'_, PyOpOverload>>,
) -> PyResult<Py<PyOpOverload>> {
    match op_obj {
        Some(o) => Ok(o.clone().unbind()),
        None => PyOpOverload::create(py, op.clone()),
    }
}

/// `entry` as `miss` returns it: None, `(data, dev, strides, offset, keys)`,
/// or a tuple of those (a tuple output).
fn parse_outputs(entry: &Bound<'_, PyAny>) -> PyResult<Option<Outputs>> {
    if entry.is_none() {
        return Ok(None);
    }
    let t = entry.downcast::<PyTuple>()?;
    let first = t.get_item(0)?;
    if first.is_instance_of::<PyTuple>() {
        let items = t
            .iter()
            .map(|e| parse_one(&e))
            .collect::<PyResult<Vec<_>>>()?;
        return Ok(Some(Outputs::Tuple(items)));
    }
    Ok(Some(Outputs::One(parse_one(entry)?)))
}

fn parse_one(e: &Bound<'_, PyAny>) -> PyResult<OutTensor> {
    let (data, dev, strides, offset, keys): (PyObject, PyObject, PyObject, PyObject, PyObject) =
        e.extract()?;
    let py = e.py();
    let offset_zero = offset.bind(py).extract::<i64>().is_ok_and(|o| o == 0);
    let key_bits = keys.extract(py)?;
    Ok(OutTensor {
        data,
        dev,
        strides: (!strides.is_none(py)).then_some(strides),
        offset: (!offset_zero).then_some(offset),
        keys,
        key_bits,
    })
}
