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

pub mod function;
pub mod pointwise;
pub mod rule;

use crate::python::tensor::base::AsTensorBase;
use pyo3::prelude::*;
use pyo3::sync::GILOnceCell;
use pyo3::types::{PyDict, PyList, PyTuple, PyType};
use smallvec::SmallVec;

use crate::dispatch::tls::{self as key_tls, LocalKeySets};

use crate::dispatch::{DispatchKey, DispatchKeySet};
use crate::python::dispatch::binder::plain_tensor;
use crate::python::ffi::instance_slots::SlotLayout;
use crate::python::ffi::numpy::first_entry;
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
    let general = || {
        b.general
            .call1(py, (value, level))
            .map(|o| o.into_bound(py))
    };
    let v = match plain_tensor(value) {
        Some(v) => v,
        None => match value.as_tensor_base() {
            Some(v) => v,
            None => return general(),
        },
    };
    let vs = v.get();
    let Some(data) = vs.data(py) else {
        return general();
    };
    // An empty batch, a 0-dim value, storage that is no numpy array: the general path.
    let Some(logical) = first_entry(&data) else {
        return general();
    };
    let logical = logical?;
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

/// The thread's key sets with `VmapMode` included while alive, restored on drop
/// (what `with _state.vmap_mode:` does), also when `func` raised.
struct InVmapMode(LocalKeySets);

impl InVmapMode {
    fn enter() -> Self {
        let cur = key_tls::get();
        let mode = DispatchKeySet::from_key(DispatchKey::VmapMode);
        key_tls::replace(LocalKeySets {
            included: cur.included | mode,
            excluded: cur.excluded - mode,
        });
        InVmapMode(cur)
    }
}

impl Drop for InVmapMode {
    fn drop(&mut self) {
        key_tls::replace(self.0);
    }
}

/// The slots of vmap's level record (`func/batched.py`'s `VmapLevel`), in the order
/// [`level_layout`]'s instances are filled: what its `__init__` sets.
pub const LEVEL_SLOTS: [&str; 5] = ["level", "batch_size", "randomness", "name", "info"];
/// Indices into [`LEVEL_SLOTS`].
pub const SLOT_LEVEL: usize = 0;
pub const SLOT_BATCH_SIZE: usize = 1;
pub const SLOT_RANDOMNESS: usize = 2;
pub const SLOT_INFO: usize = 4;

static LEVEL_LAYOUT: GILOnceCell<Option<SlotLayout<5>>> = GILOnceCell::new();

/// The slot layout of the level record class `cls` (read on first use), when
/// its slots are plain object members; `None` for another class.
pub fn level_layout(py: Python<'_>, cls: &Bound<'_, PyType>) -> Option<&'static SlotLayout<5>> {
    let layout = match LEVEL_LAYOUT.get(py) {
        Some(l) => l.as_ref(),
        None => {
            let measured = SlotLayout::of_inherited(cls, LEVEL_SLOTS).ok().flatten();
            LEVEL_LAYOUT.get_or_init(py, || measured).as_ref()
        }
    };
    layout.filter(|l| l.class(py).is(cls))
}

/// The level record layout, once a `vmap` call has read it (`None` before).
pub fn known_level_layout(py: Python<'_>) -> Option<&'static SlotLayout<5>> {
    LEVEL_LAYOUT.get(py).and_then(Option::as_ref)
}

thread_local! {
    /// This thread's transform stack (`_levels._tls.levels`), with the thread-local
    /// holder it was read from (held, so its address names it). See [`thread_levels`].
    static LEVELS: std::cell::RefCell<Option<(PyObject, Py<PyList>)>> =
        const { std::cell::RefCell::new(None) };
}

/// `stack.levels`, this thread's transform stack (`stack` being
/// `autograd/transform_levels.py`'s thread-local holder): read once per thread
/// and kept, since the holder makes the list once per thread and only ever
/// changes it in place (reading a thread-local attribute costs a lookup of the
/// thread's dict first, on every call of a vmapped function and rule).
pub fn thread_levels<'py>(
    py: Python<'py>,
    stack: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let cached = LEVELS.with(|c| {
        c.borrow()
            .as_ref()
            .filter(|(holder, _)| holder.is(stack))
            .map(|(_, l)| l.clone_ref(py))
    });
    if let Some(levels) = cached {
        return Ok(levels.into_bound(py));
    }
    let levels = stack
        .getattr(pyo3::intern!(py, "levels"))?
        .downcast_into::<PyList>()?;
    let entry = (stack.clone().unbind(), levels.clone().unbind());
    let old = LEVELS.with(|c| c.replace(Some(entry)));
    // The replaced entry (another holder: tests may make one) is released here,
    // with no borrow of the cell held.
    drop(old);
    Ok(levels)
}

/// Take `layer` off `levels` (the thread's transform stack): the last entry, or,
/// when an exception unwound inner levels out of order, it and everything after it.
fn pop_layer(levels: &Bound<'_, PyList>, layer: &Bound<'_, PyAny>) -> PyResult<()> {
    let n = levels.len();
    if n > 0 && levels.get_item(n - 1)?.is(layer) {
        return levels.del_slice(n - 1, n);
    }
    for i in 0..n {
        if levels.get_item(i)?.is(layer) {
            return levels.del_slice(i, n);
        }
    }
    Ok(())
}

/// One `vmap` call of `func` over `args` (tensors, each mapped along dim 0), the
/// common case of `opyard.func.vmap` (Note [Batched tensors in Rust]): `layer` (a
/// `VmapLevel` of number `level`) goes on `levels`, the thread's transform stack,
/// `VmapMode` is included, each argument becomes a batched tensor of `level`,
/// `func` runs once; then the key sets and the stack are restored, exceptions
/// included. Returns `(True, physical)` when `unwrap` and the result is one
/// batched tensor of `level`, else `(False, result)` for `vmap`'s output rules.
#[pyfunction]
#[pyo3(signature = (func, args, kwargs, layer, level, levels, unwrap))]
#[allow(clippy::too_many_arguments)]
pub fn _vmap_call<'py>(
    py: Python<'py>,
    func: &Bound<'py, PyAny>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
    layer: &Bound<'py, PyAny>,
    level: &Bound<'py, PyAny>,
    levels: &Bound<'py, PyList>,
    unwrap: bool,
) -> PyResult<(bool, Bound<'py, PyAny>)> {
    run(py, func, args, kwargs, layer, level, levels, unwrap, None)
}

/// The body of [`_vmap_call`], also what a `VmapFunction` calls
/// (Note [vmap's function in Rust]); `mapped`: which arguments to wrap (None: all).
#[allow(clippy::too_many_arguments)]
pub fn run<'py>(
    py: Python<'py>,
    func: &Bound<'py, PyAny>,
    args: &Bound<'py, PyTuple>,
    kwargs: Option<&Bound<'py, PyDict>>,
    layer: &Bound<'py, PyAny>,
    level: &Bound<'py, PyAny>,
    levels: &Bound<'py, PyList>,
    unwrap: bool,
    mapped: Option<&[bool]>,
) -> PyResult<(bool, Bound<'py, PyAny>)> {
    levels.append(layer)?;
    let out = {
        let _mode = InVmapMode::enter();
        let wrapped: PyResult<SmallVec<[Bound<'py, PyAny>; 4]>> = args
            .iter()
            .enumerate()
            .map(|(i, a)| match mapped {
                Some(m) if !m[i] => Ok(a),
                _ => wrap(py, &a, level),
            })
            .collect();
        wrapped.and_then(|w| match kwargs {
            // No argument tuple for a function that takes the vectorcall convention.
            None => crate::python::ffi::object::vectorcall(func, w.iter().map(|b| b.as_borrowed())),
            Some(_) => func.call(PyTuple::new_bound(py, w), kwargs),
        })
    };
    let popped = pop_layer(levels, layer);
    let out = out?;
    popped?;
    if unwrap {
        if let Some(b) = as_batched(&out) {
            let b = b.get();
            if b.field_is(Field::BatchLevel, level) || level_of(py, b) == exact_level(level) {
                if let Some(v) = b.field(py, Field::BatchValue) {
                    return Ok((true, v));
                }
            }
        }
    }
    Ok((false, out))
}

fn exact_level(level: &Bound<'_, PyAny>) -> i64 {
    crate::python::ffi::object::exact_int_bits(level).map_or(-1, |b| b as i64)
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
    m.add_function(wrap_pyfunction!(_vmap_call, m)?)?;
    m.add_class::<pointwise::PyBatchedPointwise>()?;
    function::register(m)?;
    rule::register(m)?;
    Ok(())
}
